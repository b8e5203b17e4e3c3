"""The approximate attacks of the graph audit: propagation and the learned attack.

Exact structural matching (vertex refinement, subgraph knowledge) finds no one as soon as a
perturbation changes a person's neighbourhood a little; these attacks tolerate such changes:

* :func:`propagation_check` — Narayanan–Shmatikov seed-and-propagate
  (:func:`privlab.graph.attacks.propagation.propagate`, seed 000 §2.12) from a stated seed
  assumption: the adversary knows who the ``seeds`` highest-degree people are
  (``"top-degree"``, SecGraph's experiment), or knows no one and finds that many seeds by
  matching the top-degree nodes of both graphs (``"discovered"``, NSR11).  Run at every θ of
  ``thetas``; the finding is the worst.
* :func:`learned_check` — Sharad's learned attack (seed 004 §2.8–2.11): a classifier
  trained on the two graphs alone (no ground truth), then the seedless 3PSL.

Both need the truth of who is who: they run when the release's node ids are the original's
(the audit's ``aligned``).  They then attack the release under a secret random relabelling
(:func:`shuffle_release`) — the attacks must not see that release node i is original node
i, or a tie broken by node id would guess right — and are scored with the truth.  A correct
match counts as a re-identification only if the attack beats guessing at random
(:func:`chance`).  Without the truth, :func:`unscored_findings` says that the attacks could
not be scored, at the level ``"not established"``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.audit.findings import Finding, Thresholds, _pct
from privlab.errors import ConfigError, PrivlabError
from privlab.graph.core import Graph
from privlab.report import Section

#: Seed assumptions of :func:`propagation_check`.
SEEDINGS: tuple[str, ...] = ("top-degree", "discovered")
#: θ values of the propagation: 0.1 keeps only matches that stand out (SecGraph's setting,
#: whose numbers privlab reproduces); 0 takes every best match, as an adversary who prefers
#: many guesses to sure ones would — on ego-Facebook under 5 % random add/delete, 0.1 stalls
#: near half of the people and 0 re-identifies about four in five (docs/audit.md).
DEFAULT_THETAS: tuple[float, ...] = (0.1, 0.0)
#: One-sided p-value under which correct matches are more than luck (:func:`chance`).
CHANCE_P = 0.001
#: 3PSL settings of the learned attack: the score cut and Clean order that work on
#: ego-Facebook-sized graphs (docs/graph/threepsl.md: the seed's cut 0.95 maps nothing there,
#: and ordering the cosine rounds by cosine is what lifts it to 79 % accuracy).
LEARNED_SCORE_CUT = 0.8
LEARNED_ORDER = "cs"

Step = Callable[[], None]


def default_seed_count(n_nodes: int) -> int:
    """How many top-degree people the adversary is assumed to know: min(50, ⌈n / 10⌉).

    50 is SecGraph's setting (Ji et al. 2015), and on ego-Facebook propagation at θ = 0.1
    needs about 25–30 top-degree seeds to take off, so 50 leaves a margin; on small graphs
    the seeds stay a tenth of the people at most.
    """
    return max(1, min(50, math.ceil(n_nodes / 10)))


@dataclass(frozen=True)
class Shuffled:
    """The release under a secret random relabelling: ``truth[i]`` is the node of ``graph``
    that is original node i."""

    graph: Graph
    truth: np.ndarray


def shuffle_release(release: Graph, seed: int) -> Shuffled:
    """Relabel an aligned release (node i = original node i) at random.  O(n + m)."""
    perm = np.random.default_rng(seed).permutation(release.n_nodes).astype(np.int64)
    edges = perm[release.edges()] if release.n_edges else np.zeros((0, 2), dtype=np.int64)
    return Shuffled(Graph.from_edges(release.n_nodes, edges), perm)


def chance(correct: int, guesses: int, candidates: int) -> tuple[float, float]:
    """(expected correct, p-value) of ``correct`` right among ``guesses`` random guesses.

    Each guess picks one of ``candidates`` nodes, so the number right is about Poisson with
    mean λ = guesses / candidates; the p-value is P(X ≥ correct).  O(1).
    """
    from scipy.stats import poisson

    lam = guesses / candidates if candidates else 0.0
    return lam, float(poisson.sf(correct - 1, lam)) if correct > 0 else 1.0


def _scored(
    th: Thresholds, correct: int, targets: int, guesses: int, candidates: int
) -> tuple[float, float, bool, str]:
    """(re-identified fraction, expected by chance, beats chance, severity)."""
    rate = correct / targets if targets else 0.0
    lam, p = chance(correct, guesses, candidates)
    beats = correct > 0 and p < CHANCE_P
    return rate, lam, beats, th.singled_out(rate) if beats else "low"


def _luck(lam: float, beats: bool, correct: int) -> str:
    if beats or not correct:
        return f"guessing at random would get about {lam:.2g} right"
    return f"no better than guessing at random, which gets about {lam:.2g} right"


# ============================================================================ propagation
def check_seeding(seeds: int | None, seeding: str, n_nodes: int) -> int | None:
    """The seed count to use (None for a graph of one node, which propagation does not
    apply to); ConfigError for an unknown assumption or a count that leaves no one to
    re-identify."""
    if seeding not in SEEDINGS:
        raise ConfigError(f"seeding = {seeding!r}: choose {' or '.join(SEEDINGS)}")
    if n_nodes < 2 and seeds is None:
        return None
    k = default_seed_count(n_nodes) if seeds is None else seeds
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k < n_nodes:
        raise ConfigError(
            f"seeds = {seeds!r}: give a number of seed people from 1 to {n_nodes - 1}; the "
            f"graph has {n_nodes} nodes and the seeds must leave people to re-identify"
        )
    return int(k)


def propagation_check(
    original: Graph,
    shuffled: Shuffled,
    *,
    seeds: int,
    seeding: str,
    thetas: Sequence[float],
    th: Thresholds,
    section: Section,
    step: Step,
) -> tuple[Finding, dict[str, Any]]:
    """Narayanan–Shmatikov propagation from the seed assumption at each θ; the worst θ is
    the finding.  O(seeding + Σ_θ propagate), see :mod:`privlab.graph.attacks.propagation`."""
    from privlab.graph.attacks.propagation import discover_seeds, propagate, top_degree_seeds

    release, truth = shuffled.graph, shuffled.truth
    n, n2 = original.n_nodes, release.n_nodes
    if seeding == "top-degree":
        pairs = top_degree_seeds(original, truth, seeds)
        seeds_correct = seeds
        assumption = (
            f"the adversary knows who the {seeds} highest-degree people of the original are "
            "and finds them in the release"
        )
    else:
        found = discover_seeds(original, release, seeds)
        pairs = found.pairs
        seeds_correct = found.correct(truth)
        assumption = (
            f"the adversary knows no one, and takes as seeds the {seeds} best matches between "
            f"the {found.pool} highest-degree nodes of the original and of the release "
            f"({seeds_correct} of them right)"
        )
    rows = []
    for theta in thetas:
        res = propagate(original, release, pairs, theta, truth=truth)
        if seeding == "top-degree":  # the seeds are assumed, not re-identified
            correct, targets = int(res.new_correct), n - seeds
            guesses, candidates = res.new_mapped, n2 - seeds
        else:  # a right discovered seed is a re-identification too
            correct, targets, guesses, candidates = int(res.correct), n, res.mapped, n2
        rate, lam, beats, severity = _scored(th, correct, targets, guesses, candidates)
        rows.append({
            "theta": float(theta), "matches": guesses, "correct": correct, "targets": targets,
            "reidentified": rate, "accuracy": correct / guesses if guesses else 0.0,
            "chance_expected": lam, "beats_chance": beats, "severity": severity,
            "passes": res.passes, "seconds": res.seconds,
        })  # fmt: skip
        step()
    worst = max(rows, key=lambda r: (r["beats_chance"], r["reidentified"]))
    text = (
        f"Assuming {assumption}, Narayanan–Shmatikov propagation re-identifies "
        f"{_pct(worst['reidentified'])} of the {worst['targets']} "
        f"{'other ' if seeding == 'top-degree' else ''}people ({worst['correct']} correct of "
        f"{worst['matches']} matches, θ = {worst['theta']:g}; "
        f"{_luck(worst['chance_expected'], worst['beats_chance'], worst['correct'])})."
    )
    details = {"seeding": seeding, "seeds": seeds, "seeds_correct": seeds_correct,
               "assumption": assumption, "by_theta": rows}  # fmt: skip
    finding = Finding(
        "propagation", "Propagation (Narayanan–Shmatikov)", worst["severity"], text,
        {"reidentified_fraction": worst["reidentified"], "correct": worst["correct"],
         "matches": worst["matches"], "targets": worst["targets"], "theta": worst["theta"],
         "chance_expected": worst["chance_expected"], "beats_chance": worst["beats_chance"],
         "seeding": seeding, "seeds": seeds},
    )  # fmt: skip
    section.add_text(
        f"Seed assumption: {assumption}. From these seed pairs the attack matches a person to "
        "the release node their matched friends point to, when that match stands out from "
        "the others by at least θ standard deviations both ways (θ = 0: every best match). "
        "It runs on the release under a secret random relabelling and is scored with the "
        "original's ids; correct matches count only when they beat guessing at random "
        f"(one-sided Poisson test, p < {CHANCE_P:g})."
    )
    section.add_table(
        [{"θ": r["theta"], "matches made": r["matches"], "correct": r["correct"],
          "re-identified": r["reidentified"], "accuracy": r["accuracy"],
          "expected by chance": r["chance_expected"], "passes": r["passes"],
          "seconds": r["seconds"]} for r in rows],
        "Propagation by eccentricity threshold θ: re-identified = correct / people who are "
        "not seeds (top-degree) or all people (discovered); accuracy = correct / matches.",
    )  # fmt: skip
    return finding, details


# ============================================================================ learned attack
def learned_check(
    original: Graph,
    shuffled: Shuffled,
    *,
    alpha_e: float,
    seed: int,
    th: Thresholds,
    section: Section,
    step: Step,
) -> tuple[Finding, dict[str, Any]]:
    """Sharad's learned attack: train by splitting both graphs (α_V = 1, α_E = ``alpha_e``),
    then 3PSL with one scorer for all phases.  Dominated by the classifier: training, then
    |P1| + filtered pairs scored (about three minutes on ego-Facebook on 2 shared cores)."""
    from privlab.graph.attacks.learned import train_scorer
    from privlab.graph.attacks.threepsl import three_phase_attack

    release, truth = shuffled.graph, shuffled.truth
    title = "Learned attack (Sharad's 3PSL)"
    section.add_text(
        "Knowing no one, the adversary splits each graph in two again (its own pairs with a "
        "known truth), trains a random forest on neighbourhood-degree features to tell "
        "whether two nodes are the same person, and runs 3PSL: confident matches of "
        "high-degree nodes first, then matches confirmed by already-matched friends "
        f"(score cut {LEARNED_SCORE_CUT:g}, rounds ordered by {LEARNED_ORDER}). No ground "
        "truth is used for training; it only scores the result."
    )
    try:
        scorer = train_scorer(original, release, alpha_v=1.0, alpha_e=alpha_e, seed=seed)
        step()
        res = three_phase_attack(
            original, release, [scorer.bind(original, release)] * 3,
            score_cut=LEARNED_SCORE_CUT, order=LEARNED_ORDER,
        )  # fmt: skip
        step()
    except PrivlabError as exc:
        section.add_text(f"Could not run on this graph: {exc}")
        return (
            Finding("learned", title, "info", f"Could not run on this graph: {exc}"),
            {"skipped": str(exc)},
        )
    mapped = res.mapping >= 0
    correct = int((mapped & (res.mapping == truth)).sum())
    guesses, n = int(mapped.sum()), original.n_nodes
    rate, lam, beats, severity = _scored(th, correct, n, guesses, release.n_nodes)
    text = (
        f"Knowing no one, Sharad's learned attack (a classifier trained on the two graphs "
        f"alone, then 3PSL) re-identifies {_pct(rate)} of the {n} people ({correct} correct "
        f"of {guesses} matches; {_luck(lam, beats, correct)})."
    )
    numbers = {"reidentified_fraction": rate, "correct": correct, "matches": guesses,
               "targets": n, "chance_expected": lam, "beats_chance": beats}  # fmt: skip
    section.add_table(
        [{"matches made": guesses, "correct": correct, "re-identified": rate,
          "accuracy": correct / guesses if guesses else 0.0, "expected by chance": lam,
          "seconds": res.seconds}],
        "The learned attack's matches against the truth.",
    )  # fmt: skip
    details = {**numbers, "alpha_e_estimate": alpha_e, "threepsl": res.to_dict()}
    return Finding("learned", title, severity, text, numbers), details


# ============================================================================ no truth
def unscored_findings(why: str, learned: bool) -> list[Finding]:
    """The findings of the attacks that apply but cannot be scored without the truth."""
    fix = (
        "give the mapping of `privlab graph anonymize --mapping` (`privlab audit --mapping`) "
        "or a release written with the original's ids (`--keep-ids`)"
    )
    out = [
        Finding(
            "propagation", "Propagation (Narayanan–Shmatikov)", "not established",
            f"Not scored: the release's node ids are not the original's ({why}), so the audit "
            "cannot tell which of the attack's matches are right, and exact matching finding "
            f"no one does not show that the release is safe. To score it, {fix}.",
        )
    ]  # fmt: skip
    if learned:
        out.append(
            Finding("learned", "Learned attack (Sharad's 3PSL)", "not established",
                    f"Not scored, for the same reason ({why}).")
        )  # fmt: skip
    return out
