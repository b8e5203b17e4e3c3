"""Attacks a spec may name (:data:`ATTACKS`): ``run(original, release, cell) -> CellResult``.

Graph: H_1 re-identification after RAD, vertex refinement and subgraph knowledge (Hay et
al. Figs 5–7), Sharad's learned de-anonymization (seed 004 ch. 4); table: homogeneity /
background-knowledge attribute disclosure (seed 000 §2.3) and prosecutor risk.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.bench.registry.cells import Cell, CellResult, Release
from privlab.bench.registry.naive import (
    audited_differencing,
    averaging,
    differencing,
    sample_linkage,
    similarity,
    skewness,
)
from privlab.bench.registry.schemes import SCHEMES
from privlab.errors import ConfigError
from privlab.validate import check_choice, check_fraction, check_int, check_number_in


@dataclass(frozen=True)
class Attack:
    """``run(original, release, cell) -> CellResult`` producing the metrics ``outputs``."""

    name: str
    kind: str
    run: Callable[[Any, Release | None, Cell], CellResult]
    outputs: tuple[str, ...]
    curves: tuple[str, ...]
    label: str
    needs_release: bool = True
    schemes: tuple[str, ...] | None = None  # None: any scheme of the kind
    # validates the experiment's options when the spec is read (ConfigError naming the key)
    check: Callable[[dict[str, Any]], Any] | None = None


def _bucket_outputs(prefix: str) -> tuple[str, ...]:
    """``<prefix>_bucket_<label>`` for each of Hay et al.'s candidate-set-size buckets."""
    from privlab.graph.attacks.refinement import BUCKET_LABELS

    return tuple(f"{prefix}_bucket_{b}" for b in BUCKET_LABELS)


def _h1(original: Any, r: Release | None, cell: Cell) -> CellResult:
    from privlab.graph.attacks.refinement import perturbation_h1_risk

    assert r is not None
    risk = perturbation_h1_risk(original, r.data, int(r.m or 0))
    fr = risk.buckets.fractions
    out = dict(zip(_bucket_outputs("h1"), fr, strict=True))
    out["h1_mean_top_probability"] = float(risk.top_probability.mean())
    return CellResult(out)


def _size_curve(sizes: np.ndarray) -> tuple[list[float], list[float]]:
    """(candidate-set size, number of nodes with it): the report's bucket bars."""
    u, c = np.unique(np.asarray(sizes), return_counts=True)
    return [float(x) for x in u], [float(x) for x in c]


def _refinement(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Hay et al. Fig. 5: candidate-set buckets under vertex refinement H_i (value = i).

    The release is the naively anonymized graph (scheme ``none``).  ``options.star``: the
    value that stands for H* (e.g. 4 in a sweep 1, 2, 3, 4 = H_1, H_2, H_3, H*).
    """
    from privlab.graph.attacks.refinement import vertex_refinement

    assert r is not None
    vr = vertex_refinement(r.data)
    i = int(cell.value)
    star = cell.options.get("star")
    sizes = vr.candidate_sizes(None if star is not None and i == int(star) else i)
    out = dict(zip(_bucket_outputs("refine"), _fractions(sizes), strict=True))
    out["refine_stable_level"] = float(vr.stable_level or 0)
    return CellResult(out, {"candidate_set_size": _size_curve(sizes)})


def _fractions(sizes: np.ndarray) -> tuple[float, ...]:
    from privlab.graph.attacks.refinement import bucket_counts

    return bucket_counts(sizes).fractions


def _subgraph(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Hay et al. Figs 6–7: candidate-set buckets after b edge facts (value = b).

    ``subgraph_knowledge_experiment`` on the naively anonymized graph; options
    ``exact_degrees`` (default true), ``targets`` (a random sample of that many nodes from
    the cell's seed; 0 or absent: every node), ``method`` (matcher, default ``hall``),
    ``mode`` (``tree``, default, or ``graph``: people reached twice recognized, seed 002
    L336–349).
    """
    from privlab.graph.attacks.subgraph import subgraph_knowledge_experiment

    assert r is not None
    g = r.data
    n_t = int(cell.options.get("targets", 0) or 0)
    targets = None
    if 0 < n_t < g.n_nodes:
        targets = np.sort(cell.rng(7).choice(g.n_nodes, size=n_t, replace=False))
    res = subgraph_knowledge_experiment(
        g, int(cell.value), exact_degrees=bool(cell.options.get("exact_degrees", True)),
        targets=targets, seed=cell.sub_seed(8) % (2**31),
        method=str(cell.options.get("method", "hall")),
        mode=str(cell.options.get("mode", "tree")),
    )  # fmt: skip
    sizes = res.sizes[:, -1]
    out = dict(zip(_bucket_outputs("subgraph"), _fractions(sizes), strict=True))
    out["subgraph_median_size"] = float(np.median(sizes)) if sizes.size else float("nan")
    return CellResult(out, {"candidate_set_size": _size_curve(sizes)})


#: Outputs of the homogeneity / background-knowledge attack.
HOMOGENEITY_OUTPUTS = ("attr_disclosure", "attr_homogeneous", "attr_mean_max_posterior",
                       "attr_max_posterior")  # fmt: skip


def _homogeneity(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Attribute disclosure on the sensitive column (seed 000 §2.3): every released row a target.

    ``options``: ``tau`` (disclosed when the true value's posterior ≥ τ; default 1 =
    homogeneity), ``rule_out`` (background knowledge: b false values ruled out; default 0).
    """
    from privlab.table.attacks.inference import homogeneity_attack

    assert r is not None
    if not original.sensitive:
        raise ConfigError("attack 'homogeneity' needs a sensitive column: set data_options "
                          "sensitive = [\"occupation\"] (for example)")  # fmt: skip
    res = homogeneity_attack(
        r.data, original.qi, original.sensitive[0], tau=float(cell.options.get("tau", 1.0)),
        rule_out=int(cell.options.get("rule_out", 0)),
    )  # fmt: skip
    d = res.to_dict()
    return CellResult({
        "attr_disclosure": d["disclosure_rate"], "attr_homogeneous": d["homogeneity_rate"],
        "attr_mean_max_posterior": d["mean_max_posterior"],
        "attr_max_posterior": d["max_max_posterior"],
    })  # fmt: skip


def _prosecutor(original: Any, r: Release | None, cell: Cell) -> CellResult:
    from privlab.table.risk import risk_of_frame

    assert r is not None
    rel = r.data
    rep = risk_of_frame(rel.data, original.qi, suppressed=rel.suppressed_rows)
    return CellResult({
        "prosecutor_average": float(rep.prosecutor.average),
        "prosecutor_highest": float(rep.prosecutor.highest),
        "records_at_risk": float(rep.prosecutor.fraction_at_risk),
        "sample_uniques": float(rep.sample_uniques_fraction),
    })  # fmt: skip


#: FP rates (fractions) reported as ``learned_tp_at_<percent>``.
LEARNED_FP = (1e-3, 1e-2, 1e-1)


def _learned_outputs() -> tuple[str, ...]:
    return ("learned_auc", *(f"learned_tp_at_{100 * f:g}%" for f in LEARNED_FP))


def _learned(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Sharad's learned attack on one auxiliary/sanitized pair (seed 004 Chapter 4).

    The scheme is applied to the sanitized side of ``sample_pair(original, α_V, α_E = 1)``,
    except a ``pair_noise`` scheme (RSP, ``rsp-alpha``), which *is* the pair generator's
    edge noise: seed 004 §2.9
    (L1065) deletes β = (1 − α_E)/(1 + α_E) from each copy, so the pair is
    ``sample_pair(original, α_V, α_E)`` and the adversary splits its releases with that α_E
    (applying RSP to the sanitized side only left the auxiliary graph complete and drove the
    AUC below 0.5: training splits never saw the one-sided degree loss).  The adversary
    trains on splits of both releases (``train_scorer``) and is tested on all identical pairs
    of degree > ``min_degree`` plus ``n_test_non_identical`` random others.
    """
    from privlab.graph.attacks.learned import roc_summary, train_scorer
    from privlab.graph.pairs import sample_pair

    o = cell.options
    alpha_v = float(o.get("alpha_v", 0.5))
    min_degree = int(o.get("min_degree", 5))
    scheme = SCHEMES[cell.scheme]
    if cell.scheme == "secgraph-p":
        raise ConfigError("attack 'learned' needs a Sharad pair (α_V, α_E): use scheme "
                          "rsp-alpha, not secgraph-p")  # fmt: skip

    def anonymize(g: Any, seed: Any = None) -> Any:
        return scheme.apply(g, cell.value, cell).data

    if scheme.pair_noise:
        alpha_e = float(cell.value)
        pair = sample_pair(original, alpha_v, alpha_e, seed=cell.sub_seed(3))
    else:
        alpha_e = 1.0
        pair = sample_pair(original, alpha_v, 1.0, seed=cell.sub_seed(3), scheme=anonymize)
    clf_kw = {k: o[k] for k in ("n_trees", "per_class") if k in o}
    scorer = train_scorer(
        pair.aux, pair.san, alpha_v=alpha_v, alpha_e=float(o.get("alpha_e", alpha_e)),
        n_bins=int(o.get("n_bins", 21)), bin_width=int(o.get("bin_width", 50)),
        n_identical=int(o.get("n_identical", 25_000)),
        n_non_identical=int(o.get("n_non_identical", 100_000)), min_degree=min_degree,
        n_splits=int(o.get("n_splits", 1)), n_jobs=int(o.get("n_jobs", 2)),
        seed=cell.sub_seed(4), **clf_kw,
    )  # fmt: skip
    u, v, y = _test_pairs(pair, int(o.get("n_test_non_identical", 100_000)), min_degree, cell)
    scores = scorer.bind(pair.aux, pair.san)(u, v)
    roc = roc_summary(scores, y, LEARNED_FP, curve_points=int(o.get("curve_points", 100)))
    metrics = dict(zip(_learned_outputs(), (roc.auc, *roc.tp_rates), strict=True))
    return CellResult(metrics, {"roc": (roc.curve_fpr.tolist(), roc.curve_tpr.tolist())})


def _test_pairs(pair: Any, n_non: int, min_degree: int, cell: Cell):
    """All identical pairs with degree > min_degree plus up to ``n_non`` random other pairs."""
    from privlab.graph.attacks.learned import evaluation_pairs

    return evaluation_pairs(pair.aux, pair.san, pair.truth_pairs(), n_non_identical=n_non,
                            min_degree=min_degree, seed=cell.rng(5))  # fmt: skip


# ---------------------------------------------------------------------------- seed-based
#: The seed-based attacks of Sharad's Table 5.9 (seed 004 §3.5), by registry name.
SEEDED = ("ns", "kl", "dv", "yg", "jls", "jlsb", "pfg", "nka")  # jlsb, pfg: seedless (∅)
SEEDED_OUTPUTS = ("correct", "wrong", "coverage", "accuracy")


def attack_pair(original: Any, cell: Cell) -> Any:
    """The auxiliary/sanitized pair every pair attack of a cell runs on (the same pair).

    ``secgraph-p`` (value p): :func:`~privlab.graph.pairs.secgraph_pair`; another
    ``pair_noise`` scheme (``rsp-alpha``, value α_E): ``sample_pair(original, α_V, α_E)``;
    any other graph scheme: ``sample_pair(original, α_V, 1)`` with the scheme applied to
    the sanitized side.  α_V is ``options.alpha_v`` (default 0.5); the pair's seed is the
    cell's stream 3, as for the learned attack.  O(n + m log m) plus the scheme.
    """
    from privlab.graph.pairs import sample_pair, secgraph_pair

    scheme = SCHEMES[cell.scheme]
    seed = cell.sub_seed(3)
    if cell.scheme == "secgraph-p":
        return secgraph_pair(original, float(cell.value), seed=seed)
    alpha_v = float(cell.options.get("alpha_v", 0.5))
    if scheme.pair_noise:
        return sample_pair(original, alpha_v, float(cell.value), seed=seed)

    def anonymize(g: Any, seed: Any = None) -> Any:
        return scheme.apply(g, cell.value, cell).data

    return sample_pair(original, alpha_v, 1.0, seed=seed, scheme=anonymize)


def seeded_options(options: dict[str, Any]) -> dict[str, Any]:
    """The seed-based attacks' options, checked and with their defaults (see :func:`run_seeded`).

    ConfigError naming the option, its value and the fix.  O(1).
    """
    from privlab.graph.attacks.distance_vector import MODES
    from privlab.graph.attacks.ji import JLS_VARIANTS
    from privlab.graph.attacks.nka import METHODS as NKA_METHODS
    from privlab.graph.attacks.reconciliation import VARIANTS

    o = options
    out = {
        "alpha_v": check_fraction(o.get("alpha_v", 0.5), "alpha_v",
                                  hint="the Sharad pair's node overlap α_V"),
        "n_seeds": check_int(o.get("n_seeds", 50), "n_seeds", 1, "top-degree seed pairs"),
        "ns_theta": check_number_in(o.get("ns_theta", 0.1), "ns_theta", 0.0, math.inf,
                                    hint="NS eccentricity threshold θ"),
        "kl_threshold": check_int(o.get("kl_threshold", 2), "kl_threshold", 1,
                                  "KL's fewest similarity witnesses"),
        "kl_variant": check_choice(o.get("kl_variant", "paper"), "kl_variant", VARIANTS),
        "kl_window": check_int(o.get("kl_window", 50), "kl_window", 1, "SecGraph's -nTest"),
        "dv_block": check_int(o.get("dv_block", 100), "dv_block", 1, "DV's -bSize"),
        "dv_keep": check_int(o.get("dv_keep", 10), "dv_keep", 1, "DV's -nKeep"),
        "dv_mode": check_choice(o.get("dv_mode", "queue"), "dv_mode", MODES),
        "yg_r": check_int(o.get("yg_r", 2), "yg_r", 1, "YG's marks per match"),
        "jls_variant": check_choice(o.get("jls_variant", "adaptive"), "jls_variant",
                                    JLS_VARIANTS),
        "pfg_s": check_number_in(o.get("pfg_s", 0.9), "pfg_s", 0.0, 1.0,
                                 hint="PFG's edge-keeping probability s, 0 < s ≤ 1"),
        "nka_communities": check_choice(o.get("nka_communities", "infomap"),
                                        "nka_communities", NKA_METHODS),
    }  # fmt: skip
    if out["pfg_s"] == 0:
        raise ConfigError("pfg_s = 0: give PFG's edge-keeping probability s, 0 < s ≤ 1")
    if out["dv_keep"] > out["dv_block"]:
        raise ConfigError(f"dv_keep = {out['dv_keep']} is more than dv_block = "
                          f"{out['dv_block']}; give dv_keep ≤ dv_block")  # fmt: skip
    return out


def run_seeded(name: str, pair: Any, options: dict[str, Any], rng_seed: int) -> Any:
    """Run seed-based attack ``name`` on ``pair`` from its ``n_seeds`` top-degree seeds.

    Seeds: :func:`~privlab.graph.attacks.propagation.top_degree_seeds` (SecGraph's, 50 by
    default, seed 004 §3.5).  Options (:func:`seeded_options`): ``ns_theta`` (0.1);
    ``kl_threshold`` (2), ``kl_variant`` ("paper"), ``kl_window`` (50); ``dv_block`` (100),
    ``dv_keep`` (10), ``dv_mode`` ("queue"); ``yg_r`` (2; its random order from
    ``rng_seed``); ``jls_variant`` ("adaptive", the variant Table 5.9 ranks); ``pfg_s``
    (0.9); ``nka_communities`` ("infomap"; NKA's propagation uses ``ns_theta``).  JLSB and
    PFG run without the seeds (the table's seedless rows).  The library result
    (``correct``, ``mapped``, ``accuracy``, ``coverage``); cost that of the attack.
    """
    from privlab.graph.attacks.distance_vector import distance_vector
    from privlab.graph.attacks.percolation import percolate
    from privlab.graph.attacks.propagation import propagate, top_degree_seeds
    from privlab.graph.attacks.reconciliation import reconcile

    o = seeded_options(options)
    truth = pair.truth_array()
    seeds = top_degree_seeds(pair.aux, truth, o["n_seeds"])
    g1, g2 = pair.aux, pair.san
    if name == "ns":
        return propagate(g1, g2, seeds, o["ns_theta"], truth=truth)
    if name == "kl":
        return reconcile(g1, g2, seeds, threshold=o["kl_threshold"], variant=o["kl_variant"],
                         window=o["kl_window"], truth=truth)  # fmt: skip
    if name == "dv":
        return distance_vector(g1, g2, seeds, block=o["dv_block"], keep=o["dv_keep"],
                               mode=o["dv_mode"], truth=truth)  # fmt: skip
    if name == "yg":
        return percolate(g1, g2, seeds, r=o["yg_r"], seed=rng_seed, truth=truth)
    if name == "jls":
        from privlab.graph.attacks.ji import jls

        return jls(g1, g2, seeds, variant=o["jls_variant"], truth=truth)
    if name == "jlsb":  # seedless: the paper's cold start
        from privlab.graph.attacks.ji import jlsb

        return jlsb(g1, g2, None, truth=truth)
    if name == "pfg":  # seedless
        from privlab.graph.attacks.pfg import pfg

        return pfg(g1, g2, s=o["pfg_s"], truth=truth)
    if name == "nka":
        from privlab.graph.attacks.nka import nka

        return nka(g1, g2, seeds, theta=o["ns_theta"], method=o["nka_communities"],
                   seed=rng_seed, truth=truth)  # fmt: skip
    raise ConfigError(f"unknown seed-based attack {name!r}: use one of {', '.join(SEEDED)}")


def _seeded(name: str) -> Callable[[Any, Release | None, Cell], CellResult]:
    def run(original: Any, r: Release | None, cell: Cell) -> CellResult:
        res = run_seeded(name, attack_pair(original, cell), cell.options, cell.sub_seed(9))
        correct = int(res.correct)
        return CellResult({
            f"{name}_correct": float(correct), f"{name}_wrong": float(res.mapped - correct),
            f"{name}_coverage": float(res.coverage), f"{name}_accuracy": float(res.accuracy),
        })  # fmt: skip

    run.__name__ = f"_{name}"
    return run


# ----------------------------------------------------------------------------- seedless
THREEPSL_ORDERS = ("score", "cs")


def threepsl_options(options: dict[str, Any]) -> dict[str, Any]:
    """3PSL's options, checked and with their defaults (see :func:`run_threepsl`).

    ConfigError naming the option, its value and the fix.  O(1).
    """
    o = options
    th = o.get("threepsl_thresholds", [30, 9, 5])
    if not isinstance(th, (list, tuple)) or len(th) != 3:
        raise ConfigError(f"threepsl_thresholds = {th!r}: give three degree thresholds "
                          "[t1, t2, t3] with t1 > t2 > t3 ≥ 0 (default [30, 9, 5])")  # fmt: skip
    t = tuple(check_int(x, "threepsl_thresholds", 0, "3PSL's degree bands") for x in th)
    if not t[0] > t[1] > t[2]:
        raise ConfigError(f"threepsl_thresholds = {list(th)}: give t1 > t2 > t3 ≥ 0 "
                          "(default [30, 9, 5])")  # fmt: skip
    return {
        "alpha_v": check_fraction(o.get("alpha_v", 0.5), "alpha_v",
                                  hint="the Sharad pair's node overlap α_V"),
        "thresholds": t,
        "cut": check_number_in(o.get("threepsl_cut", 0.8), "threepsl_cut", 0.0, 1.0,
                               hint="3PSL's phase-1 score cut (the thesis: 0.95)"),
        "cs": check_number_in(o.get("threepsl_cs", 0.2), "threepsl_cs", 0.0, 1.0,
                              hint="3PSL's cosine-similarity threshold θcs"),
        "order": check_choice(o.get("threepsl_order", "cs"), "threepsl_order", THREEPSL_ORDERS),
    }  # fmt: skip


def threepsl_estimates(cell: Cell, alpha_v: float) -> tuple[float, float]:
    """The adversary's (α_V, α_E) estimates for splitting the releases of the cell's pair.

    ``secgraph-p`` (value p): the same nodes on both sides (α_V = 1, 3PSL's complete-overlap
    case) and two independent p-samples of the edges, so α_E = p² / (2p − p²) = p / (2 − p)
    (the kept BFS tree ignored); a ``pair_noise`` scheme (value α_E): (``alpha_v``, α_E);
    any other scheme: (``alpha_v``, 1).  O(1).
    """
    if cell.scheme == "secgraph-p":
        p = float(cell.value)
        return 1.0, (p / (2.0 - p) if p > 0 else 0.0)
    if SCHEMES[cell.scheme].pair_noise:
        return alpha_v, float(cell.value)
    return alpha_v, 1.0


def run_threepsl(pair: Any, cell: Cell) -> Any:
    """Sharad's seedless 3PSL (seed 004 §2.11, thesis §5.3.3) on ``pair``: the result.

    One scorer, trained by splitting both releases as the learned attack does (same options
    ``n_identical``, ``n_non_identical``, ``n_bins``, ``bin_width``, ``n_splits``,
    ``n_jobs``, ``n_trees``, ``per_class``, ``min_degree``, same stream 4, so on a Sharad
    pair it is the learned attack's scorer), serves all three phases — the setting that
    works on ego-Facebook (docs/graph/threepsl.md: per-band forests never reach a useful
    score).  3PSL's options (:func:`threepsl_options`): ``threepsl_thresholds`` ([30, 9,
    5]), ``threepsl_cut`` (0.8: no ego-Facebook pair scores 0.95), ``threepsl_cs`` (0.2),
    ``threepsl_order`` ("cs"); the α_E estimate is ``alpha_e`` when given (as for the
    learned attack), else :func:`threepsl_estimates`'s.  Cost: the training, plus |P1| +
    the CS rounds' pairs scored by the forest.
    """
    from privlab.graph.attacks.learned import train_scorer
    from privlab.graph.attacks.threepsl import three_phase_attack

    o = cell.options
    t = threepsl_options(o)
    alpha_v, alpha_e = threepsl_estimates(cell, t["alpha_v"])
    clf_kw = {k: o[k] for k in ("n_trees", "per_class") if k in o}
    scorer = train_scorer(
        pair.aux, pair.san, alpha_v=alpha_v, alpha_e=float(o.get("alpha_e", alpha_e)),
        n_bins=int(o.get("n_bins", 21)), bin_width=int(o.get("bin_width", 50)),
        n_identical=int(o.get("n_identical", 25_000)),
        n_non_identical=int(o.get("n_non_identical", 100_000)),
        min_degree=int(o.get("min_degree", 5)), n_splits=int(o.get("n_splits", 1)),
        n_jobs=int(o.get("n_jobs", 2)), seed=cell.sub_seed(4), **clf_kw,
    ).bind(pair.aux, pair.san)  # fmt: skip
    return three_phase_attack(
        pair.aux, pair.san, [scorer] * 3, thresholds=t["thresholds"], score_cut=t["cut"],
        cs_threshold=t["cs"], order=t["order"],
    )  # fmt: skip


def _threepsl(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """3PSL on the cell's pair (:func:`attack_pair`), scored as Table 5.9 does (seed 004 §2.12).

    correct = m_true over all mapped pairs, wrong = mapped − correct, coverage = correct /
    all true pairs (Table 5.9: over all nodes, not only degree > t3), accuracy = correct /
    mapped.  No seeds: every mapping is the attack's own.
    """
    pair = attack_pair(original, cell)
    res = run_threepsl(pair, cell)
    ev = res.evaluate(pair, min_degree=-1)
    mapped, correct = int(res.n_mapped), int(ev.m_true_all)
    return CellResult({
        "threepsl_correct": float(correct), "threepsl_wrong": float(mapped - correct),
        "threepsl_coverage": float(ev.coverage_all),
        "threepsl_accuracy": float(correct / mapped) if mapped else 0.0,
    })  # fmt: skip


_SEEDED_LABELS = {
    "ns": "Narayanan–Shmatikov propagation (NS) from top-degree seeds",
    "kl": "Korula–Lattanzi reconciliation (KL) from top-degree seeds",
    "dv": "distance-vector matching (SH/DV) from top-degree seeds",
    "yg": "percolation graph matching (YG) from top-degree seeds",
    "jls": "Ji et al.'s JLS+ (structure + distance + inherited similarity) from top-degree seeds",
    "jlsb": "Ji et al.'s JLSB, seedless (cold start)",
    "pfg": "Pedarsani et al.'s Bayesian matching (PFG), seedless",
    "nka": "Nilizadeh et al.'s community-enhanced NS (NKA) from top-degree seeds",
}


ATTACKS: dict[str, Attack] = {
    a.name: a
    for a in (
        Attack("h1", "graph", _h1, (*_bucket_outputs("h1"), "h1_mean_top_probability"), (),
               "H_1 (degree) re-identification after RAD: equivalent candidate-set buckets",
               schemes=("none", "rad")),
        Attack("refinement", "graph", _refinement,
               (*_bucket_outputs("refine"), "refine_stable_level"), ("candidate_set_size",),
               "H_i (vertex refinement) candidate-set buckets of the naive release (Hay Fig. 5)",
               schemes=("none",)),
        Attack("subgraph", "graph", _subgraph,
               (*_bucket_outputs("subgraph"), "subgraph_median_size"), ("candidate_set_size",),
               "subgraph knowledge: candidate-set buckets after b edge facts (Hay Figs 6–7)",
               schemes=("none",)),
        Attack("homogeneity", "table", _homogeneity, HOMOGENEITY_OUTPUTS, (),
               "homogeneity / background-knowledge attribute disclosure"),
        Attack("learned", "graph", _learned, _learned_outputs(), ("roc",),
               "Sharad's learned de-anonymization (random forest on degree features)",
               needs_release=False),
        Attack("prosecutor", "table", _prosecutor,
               ("prosecutor_average", "prosecutor_highest", "records_at_risk",
                "sample_uniques"), (), "prosecutor re-identification risk of the release"),
        *(Attack(a, "graph", _seeded(a), tuple(f"{a}_{o}" for o in SEEDED_OUTPUTS), (),
                 _SEEDED_LABELS[a], needs_release=False, check=seeded_options)
          for a in SEEDED),
        Attack("threepsl", "graph", _threepsl, tuple(f"threepsl_{o}" for o in SEEDED_OUTPUTS),
               (), "Sharad's seedless 3PSL (one learned scorer, degree bands, cosine rounds)",
               needs_release=False, check=threepsl_options),
        Attack("differencing", "none", differencing,
               ("differencing_recovered", "differencing_queries"), (),
               "differencing / tracker attack on a query-set-size restricted curator",
               needs_release=False),
        Attack("audited-differencing", "none", audited_differencing,
               ("audited_recovered", "audited_denied"), (),
               "differencing / tracker attack on a simulatable SUM auditor", needs_release=False),
        Attack("averaging", "none", averaging, ("averaging_exact", "averaging_epsilon_spent"),
               (), "averaging away fresh noise on a repeated query", needs_release=False),
        Attack("sample-linkage", "none", sample_linkage,
               ("sample_exposed_rate", "sample_claim_precision"), (),
               "linkage of a plain random sample (the 'a sample is anonymous' fallacy)",
               needs_release=False),
        Attack("skewness", "table", skewness, ("skewed_rate", "skew_max_lift"), (),
               "Li et al.'s skewness attack: records whose value's posterior ≥ min_lift × prior"),
        Attack("similarity", "table", similarity,
               ("similarity_disclosed", "similarity_mean_posterior"), (),
               "Li et al.'s similarity attack: the value's category (hierarchy level 1) ≥ τ"),
    )
}  # fmt: skip
