"""Sharad's three-phase seedless de-anonymization attack (3PSL).

Source: seed 004 §2.11 (Sharad, *Learning to de-anonymize social networks*, Cambridge
TR-896, thesis §5.3.3, L1441–1459; parameters §5.6 L1657) for the attack and seed 004 §2.12
(thesis §5.4.1, L1519) for its metrics.

The attack.  Node pairs (u, v), u in G_aux and v in G_san, are split into three bands by
the degree of *both* nodes, each in its own graph, with thresholds t1 > t2 > t3:
P1 = {deg u > t1 and deg v > t1}, P2 = {deg > t2} ∖ P1, P3 = {deg > t3} ∖ (P1 ∪ P2); a
node of degree ≤ t3 is never attacked.  Each band has its own classifier ("scorer"),
giving P(identical) for a pair.

* *Clean* (:func:`clean_pairs`) is the greedy 1-to-1 matching: sort by score, descending,
  and accept a pair when neither of its nodes is used yet.
* *CS* (:func:`cosine_similarity`) is CS(u, v | M) = |X ∩ Y| / √(|X|·|Y|) where X is the
  set of images under M of u's mapped neighbours and Y the neighbours of v (directed
  graphs: CS over successors + CS over predecessors).
* Phase 1: score every pair of P1; D = {score > score_cut (0.95)}; M = Clean(D), the
  *initial mappings* (``initial_pairs``).  Repeat up to ``max_iter`` times until M stops
  changing: F = {(u, v) ∈ P1 : CS(u, v | M) > θcs}; M = Clean(F) (no score cut: "pairs
  self-select until exhausted"; the new M replaces the old).  Frozen = M.
* Phases 2 and 3: C = pairs of P_k whose nodes are not in Frozen; Mk = ∅; repeat until
  Mk is stable: F = {(u, v) ∈ C : CS(u, v | Frozen ∪ Mk) > θcs} — filtered *before*
  classifying, only F is scored — and Mk = Clean(F).  Then Frozen = Frozen ∪ Mk.

Choices where the seed is silent (all parameters; see docs/graph/threepsl.md):

* θcs ("low", value not given): ``cs_threshold`` defaults to 0.2, a compromise measured on
  synthetic pairs (docs page: 0.1–0.15 suits sparse pairs, 0.25–0.3 dense ones); CS > θcs
  is strict, so every filtered pair has at least one common mapped neighbour.
* |X| and |Y| (``cs_denominator``): ``"mapped"`` (default) counts only identified
  neighbours — X = images of u's mapped neighbours, Y = neighbours of v that are images in
  M — which is how the thesis words it ("cosine similarity of their neighbors that have
  been identified", "X and Y are two non-empty sets"); ``"all"`` uses the full degrees
  (the plain cosine of the neighbourhood vectors, mapped through M).  In a directed graph
  the range of the sum is [0, 2], and so is the allowed ``cs_threshold``.
* Order of the relaxed Clean (``order``): ``"score"`` (default; the thesis orders every
  Clean by classifier score and only relaxes the 0.95 cut) or ``"cs"`` (cosine first,
  classifier score second).  The initial Clean(D) is always by score.
* Ties: score (or CS) descending, then the other key descending, then aux id ascending,
  then san id ascending — the result never depends on input order.
* Degree of a node in a directed graph: in-degree + out-degree.
* Phases 2–3 never build the Cartesian product P_k: a pair with CS > θcs ≥ 0 has a common
  mapped neighbour, so F is read off the non-zeros of the sparse product A_aux·Π·A_sanᵀ (Π
  the mapping as an aux × san 0/1 matrix), computed in row blocks of bounded work.  Phase 1
  must score all of P1: its product (and every F) is capped by ``max_pairs``.
* A pair scored in an earlier round of the same phase is not scored again (the scores are
  cached per phase; phase 1 keeps the scores of all of P1).
* The Epinions variant (thesis L1564: after Phase 2, re-run Phase 1 with the Phase 1 and
  Phase 2 mappings, then discard the Phase 2 mappings and continue) is the option
  ``rerun_phase1=True``: the Phase 1 loop restarts from the frozen Phase 1 mappings with
  the Phase 2 mappings as extra context for CS (context pairs that clash with a new Phase 1
  pair are dropped), the result replaces Frozen, and Phase 2 is run again from scratch.
* ``pair_mask`` restricts candidates (e.g. Flickr's "exactly matching group membership",
  L1479); masked pairs are neither scored nor mapped.

Complexity.  Phase 1 scores |P1| pairs (the classifier dominates: runtime is linear in
the pairs classified, L1683).  A CS round costs O(Σ_u Σ_{u' ~ u mapped} deg(map u')) for
the sparse product plus O(|F| log |F|) for Clean; memory O(|P1| + |F| + n + m).

Layout.  :mod:`~privlab.graph.attacks.threepsl.attack` holds
:func:`three_phase_attack` and its defaults, :mod:`~privlab.graph.attacks.threepsl.results`
the result and metric classes, :mod:`~privlab.graph.attacks.threepsl.clean`
:func:`clean_pairs`, :mod:`~privlab.graph.attacks.threepsl.cosine` CS and its sparse
filter; the private modules hold the phase loops (``_run``), the degree bands
(``_bands``), the mapping and truth arrays (``_mappings``) and the argument checks
(``_checks``).
"""

from __future__ import annotations

from privlab.graph.attacks.threepsl.attack import (
    DEFAULT_CS_THRESHOLD,
    DEFAULT_MAX_PAIRS,
    three_phase_attack,
)
from privlab.graph.attacks.threepsl.clean import clean_pairs
from privlab.graph.attacks.threepsl.cosine import cosine_similarity
from privlab.graph.attacks.threepsl.results import (
    IterationInfo,
    PhaseMetrics,
    ThreePhaseMetrics,
    ThreePhaseResult,
)

__all__ = [
    "DEFAULT_CS_THRESHOLD",
    "DEFAULT_MAX_PAIRS",
    "IterationInfo",
    "PhaseMetrics",
    "ThreePhaseMetrics",
    "ThreePhaseResult",
    "clean_pairs",
    "cosine_similarity",
    "three_phase_attack",
]
