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
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np
from scipy import sparse

from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph

Scorer = Callable[[np.ndarray, np.ndarray], np.ndarray]
PairMask = Callable[[np.ndarray, np.ndarray], np.ndarray]

DEFAULT_MAX_PAIRS = 50_000_000
DEFAULT_CS_THRESHOLD = 0.2
_CHUNK_WORK = 1 << 22  # multiply-adds per block of the sparse CS product


# ============================================================================ results
@dataclass(frozen=True)
class IterationInfo:
    """What :func:`three_phase_attack` passes to ``progress`` after every round.

    ``iteration`` 0 of phase 1 is the initial Clean(D).  ``mapped`` counts the current
    phase's mappings, ``total`` all of them (Frozen ∪ Mk); ``filtered`` is |F| this round,
    ``scored`` the classifier calls this round; ``pairs`` the whole current mapping.
    """

    phase: int
    iteration: int
    mapped: int
    total: int
    filtered: int
    scored: int
    pairs: np.ndarray


@dataclass(frozen=True)
class PhaseMetrics:
    """Accuracy m_true/m_out and coverage m_true/m_tot of one phase (Tables 5.6–5.8)."""

    phase: int
    m_out: int
    m_true: int
    m_tot: int

    @property
    def accuracy(self) -> float:
        return self.m_true / self.m_out if self.m_out else 0.0

    @property
    def coverage(self) -> float:
        return self.m_true / self.m_tot if self.m_tot else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "m_out": self.m_out,
            "m_true": self.m_true,
            "m_tot": self.m_tot,
            "accuracy": self.accuracy,
            "coverage": self.coverage,
        }


@dataclass(frozen=True)
class ThreePhaseMetrics:
    """Seed 004 §2.12: accuracy = m_true/m_out, coverage = m_true/m_tot.

    ``m_out``/``m_true`` count the output mappings whose two nodes both have degree
    > ``min_degree`` (all of them when ``min_degree`` ≤ t3, the default being t3);
    ``m_tot`` counts the true pairs with both degrees > ``min_degree`` (Table 5.8 style).
    ``coverage_all`` divides the correct mappings by all ``n_common`` true pairs (Table 5.9
    style).  ``phases`` gives the per-phase figures: the mappings made in phase k against
    the true pairs of band P_k.  A ratio with a zero denominator is 0.0.
    """

    min_degree: int
    m_out: int
    m_true: int
    m_tot: int
    n_common: int
    m_true_all: int
    phases: tuple[PhaseMetrics, PhaseMetrics, PhaseMetrics]

    @property
    def accuracy(self) -> float:
        return self.m_true / self.m_out if self.m_out else 0.0

    @property
    def coverage(self) -> float:
        return self.m_true / self.m_tot if self.m_tot else 0.0

    @property
    def coverage_all(self) -> float:
        return self.m_true_all / self.n_common if self.n_common else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "min_degree": self.min_degree,
            "m_out": self.m_out,
            "m_true": self.m_true,
            "m_tot": self.m_tot,
            "accuracy": self.accuracy,
            "coverage": self.coverage,
            "n_common": self.n_common,
            "m_true_all": self.m_true_all,
            "coverage_all": self.coverage_all,
            "phases": [p.to_dict() for p in self.phases],
        }


@dataclass(frozen=True)
class ThreePhaseResult:
    """The mappings 3PSL found and what it cost.

    ``mapping[u]`` is the san node mapped to aux node u, or −1; ``phase_of[u]`` the phase
    (1–3) that mapped u, or 0.  ``initial_pairs`` (k × 2) is Clean(D), the Phase 1 start.
    Per phase (tuples of three): ``mapped`` mappings, ``iterations`` CS rounds run,
    ``converged`` (stable before ``max_iter``), ``candidate_pairs`` |P_k| (phases 2–3 are
    never materialized), ``pairs_filtered`` Σ|F| over rounds, ``pairs_scored`` classifier
    calls, ``phase_seconds``.  ``aux_degree``/``san_degree`` are the degrees used for the
    bands.  ``rerun`` describes the optional Phase 1 re-run (None if not asked).
    """

    mapping: np.ndarray
    phase_of: np.ndarray
    initial_pairs: np.ndarray
    aux_degree: np.ndarray
    san_degree: np.ndarray
    thresholds: tuple[int, int, int]
    score_cut: float
    cs_threshold: float
    cs_denominator: str
    order: str
    mapped: tuple[int, int, int]
    iterations: tuple[int, int, int]
    converged: tuple[bool, bool, bool]
    candidate_pairs: tuple[int, int, int]
    pairs_filtered: tuple[int, int, int]
    pairs_scored: tuple[int, int, int]
    phase_seconds: tuple[float, float, float]
    seconds: float
    rerun: dict[str, Any] | None = None

    @property
    def n_mapped(self) -> int:
        return int((self.mapping >= 0).sum())

    def pairs(self) -> np.ndarray:
        """(mapped × 2) int64 array of (aux node, san node), by aux node."""
        return _pairs_of(self.mapping)

    def band(self, u: Any, v: Any) -> np.ndarray:
        """The band (1, 2, 3; 0 = never attacked) of the pairs (u[i], v[i])."""
        la = _levels(self.aux_degree, self.thresholds)[np.asarray(u, dtype=np.int64)]
        ls = _levels(self.san_degree, self.thresholds)[np.asarray(v, dtype=np.int64)]
        m = np.minimum(la, ls)
        return np.where(m > 0, 4 - m, 0).astype(np.int64)

    def evaluate(self, truth: Any, *, min_degree: int | None = None) -> ThreePhaseMetrics:
        """Accuracy and coverage against the ground truth (seed 004 §2.12).

        ``truth``: a :class:`~privlab.graph.pairs.GraphPair`, an array over the aux nodes
        (true san counterpart or −1), or (k × 2) true pairs.  ``min_degree`` (default t3)
        restricts m_out, m_true and m_tot to pairs whose both degrees exceed it; the
        per-phase figures use the bands.  See :class:`ThreePhaseMetrics`.  O(n).
        """
        t = _truth_array(truth, self.mapping.size, self.san_degree.size)
        d = self.thresholds[2] if min_degree is None else _check_int(min_degree, "min_degree", -1)
        mapped = np.flatnonzero(self.mapping >= 0)
        images = self.mapping[mapped]
        correct = t[mapped] == images
        ok_out = (self.aux_degree[mapped] > d) & (self.san_degree[images] > d)
        ta = np.flatnonzero(t >= 0)
        ts = t[ta]
        ok_tot = (self.aux_degree[ta] > d) & (self.san_degree[ts] > d)
        true_band = self.band(ta, ts)
        phase = self.phase_of[mapped]
        per = tuple(
            PhaseMetrics(
                k,
                int((phase == k).sum()),
                int((correct & (phase == k)).sum()),
                int((true_band == k).sum()),
            )
            for k in (1, 2, 3)
        )
        return ThreePhaseMetrics(
            min_degree=int(d),
            m_out=int(ok_out.sum()),
            m_true=int((correct & ok_out).sum()),
            m_tot=int(ok_tot.sum()),
            n_common=int(ta.size),
            m_true_all=int(correct.sum()),
            phases=per,  # type: ignore[arg-type]
        )

    def metrics(self, truth: Any, *, min_degree: int | None = None) -> dict[str, Any]:
        """:meth:`evaluate` as a plain dict."""
        return self.evaluate(truth, min_degree=min_degree).to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {
            "thresholds": list(self.thresholds),
            "score_cut": self.score_cut,
            "cs_threshold": self.cs_threshold,
            "cs_denominator": self.cs_denominator,
            "order": self.order,
            "initial_mappings": int(self.initial_pairs.shape[0]),
            "mapped": list(self.mapped),
            "mapped_total": self.n_mapped,
            "iterations": list(self.iterations),
            "converged": list(self.converged),
            "candidate_pairs": list(self.candidate_pairs),
            "pairs_filtered": list(self.pairs_filtered),
            "pairs_scored": list(self.pairs_scored),
            "phase_seconds": list(self.phase_seconds),
            "seconds": self.seconds,
            "rerun": None if self.rerun is None else dict(self.rerun),
        }


# ============================================================================ Clean
def clean_pairs(u: Any, v: Any, key: Any, secondary: Any = None) -> np.ndarray:
    """Greedy 1-to-1 cleaning of scored pairs (seed 004 §2.11, thesis L1449).

    Pairs (u[i], v[i]) are visited by ``key`` descending, then ``secondary`` descending
    (if given), then u ascending, then v ascending; a pair is accepted when neither u nor v
    has been accepted before.  Returns the indices of the accepted pairs, in the order
    they were accepted.  Two stable sorts and one pass over the sorted pairs:
    O(p log p) time, O(p + max u + max v) memory (10⁶ pairs take well under a second).
    """
    uu = np.asarray(u, dtype=np.int64).ravel()
    vv = np.asarray(v, dtype=np.int64).ravel()
    kk = np.asarray(key, dtype=np.float64).ravel()
    if not (uu.size == vv.size == kk.size):
        raise InputError(f"clean_pairs: u, v and key have sizes {uu.size}, {vv.size}, {kk.size}")
    if uu.size == 0:
        return np.empty(0, dtype=np.int64)
    if uu.min() < 0 or vv.min() < 0:
        raise InputError("clean_pairs: node ids must be ≥ 0")
    if np.isnan(kk).any():
        raise InputError("clean_pairs: key contains NaN")
    ss = None
    if secondary is not None:
        ss = np.asarray(secondary, dtype=np.float64).ravel()
        if ss.size != uu.size or np.isnan(ss).any():
            raise InputError("clean_pairs: secondary must match u and be free of NaN")
    nu, nv = int(uu.max()) + 1, int(vv.max()) + 1
    order = np.argsort(-kk)
    if (np.diff(kk[order]) == 0).any():  # ties: the full lexicographic order
        # least significant key first, each later sort stable
        order = np.argsort(uu * nv + vv, kind="stable")
        if ss is not None:
            order = order[np.argsort(-ss[order], kind="stable")]
        order = order[np.argsort(-kk[order], kind="stable")]
    cap = min(np.count_nonzero(np.bincount(uu)), np.count_nonzero(np.bincount(vv)))
    used_u = bytearray(nu)
    used_v = bytearray(nv)
    accepted: list[int] = []
    step = 1 << 16
    for lo in range(0, order.size, step):
        blk = order[lo : lo + step]
        for i, a, b in zip(blk.tolist(), uu[blk].tolist(), vv[blk].tolist(), strict=True):
            if used_u[a] or used_v[b]:
                continue
            used_u[a] = 1
            used_v[b] = 1
            accepted.append(i)
        if len(accepted) == cap:
            break
    return np.asarray(accepted, dtype=np.int64)


# ============================================================================ CS
class _Cosine:
    """Sparse cosine similarities of mapped neighbourhoods (seed 004 §2.11, L1451)."""

    def __init__(self, aux: Graph, san: Graph, denominator: str):
        a = aux.to_scipy().astype(np.int32)
        s = san.to_scipy().astype(np.int32)
        self.n_aux, self.n_san = aux.n_nodes, san.n_nodes
        self.denominator = denominator
        self.dirs = [(a, s)]
        if aux.directed:
            self.dirs.append((a.T.tocsr(), s.T.tocsr()))
        self.degs = [(np.diff(x.indptr), np.diff(y.indptr)) for x, y in self.dirs]

    def candidates(
        self,
        mu: np.ndarray,
        mv: np.ndarray,
        rows: np.ndarray,
        cols: np.ndarray,
        theta: float,
        *,
        skip_rows: np.ndarray | None = None,
        skip_cols: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pairs (u ∈ rows, v ∈ cols) with CS(u, v | mu→mv) > θ, and their CS.

        ``skip_rows``/``skip_cols`` (boolean over aux/san nodes): pairs with both flags set
        are left out (the earlier bands).  Rows are processed in blocks of bounded work.
        """
        empty = (np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.float64))
        if mu.size == 0 or rows.size == 0 or cols.size == 0:
            return empty
        p = sparse.csr_array(
            (np.ones(mu.size, dtype=np.int32), (mu, mv)), shape=(self.n_aux, self.n_san)
        )
        mapped_aux = np.zeros(self.n_aux, dtype=np.int32)
        mapped_aux[mu] = 1
        image = np.zeros(self.n_san, dtype=np.int32)
        image[mv] = 1
        # only rows with a mapped neighbour (in some direction) can have CS > 0
        active = np.zeros(rows.size, dtype=bool)
        for a, _ in self.dirs:
            active |= (a[rows] @ mapped_aux) > 0
        rows = rows[active]
        if rows.size == 0:
            return empty
        per_dir = []
        work = np.zeros(rows.size, dtype=np.int64)
        for (a, s), (da, ds) in zip(self.dirs, self.degs, strict=True):
            r = (a[rows] @ p).tocsr()  # row u: images of u's mapped neighbours
            b = s[cols]  # row v: neighbours of v
            bt = b.T.tocsr()  # san node y → the cols it is a neighbour of
            if self.denominator == "mapped":
                x = np.diff(r.indptr).astype(np.float64)
                y = (b @ image).astype(np.float64)
            else:
                x = da[rows].astype(np.float64)
                y = ds[cols].astype(np.float64)
            work += r @ np.diff(bt.indptr).astype(np.int64)
            per_dir.append((r, bt, x, y))
        bounds = _blocks(work, _CHUNK_WORK)
        out_u, out_v, out_c = [], [], []
        for lo, hi in itertools.pairwise(bounds.tolist()):
            rr, cc, vals = [], [], []
            for r, bt, x, y in per_dir:
                c = (r[lo:hi] @ bt).tocoo()
                if c.nnz == 0:
                    continue
                i = c.row.astype(np.int64)
                j = c.col.astype(np.int64)
                rr.append(i)
                cc.append(j)
                vals.append(c.data / np.sqrt(x[lo + i] * y[j]))
            if not rr:
                continue
            i = np.concatenate(rr)
            j = np.concatenate(cc)
            val = np.concatenate(vals)
            if len(rr) > 1:  # directed: CS(successors) + CS(predecessors)
                m = sparse.coo_array((val, (i, j)), shape=(hi - lo, cols.size)).tocsr()
                m.sum_duplicates()
                m = m.tocoo()
                i, j, val = m.row.astype(np.int64), m.col.astype(np.int64), m.data
            gu, gv = rows[lo + i], cols[j]
            keep = val > theta
            if skip_rows is not None:
                keep &= ~(skip_rows[gu] & skip_cols[gv])
            out_u.append(gu[keep])
            out_v.append(gv[keep])
            out_c.append(val[keep])
        if not out_u:
            return empty
        return np.concatenate(out_u), np.concatenate(out_v), np.concatenate(out_c)


def _blocks(work: np.ndarray, budget: int) -> np.ndarray:
    """Row boundaries 0 = b0 < b1 < … < n with each block's work ≤ budget (or one row)."""
    n = work.size
    cum = np.cumsum(work)
    bounds = [0]
    while bounds[-1] < n:
        lo = bounds[-1]
        base = cum[lo - 1] if lo else 0
        hi = int(np.searchsorted(cum, base + budget, side="right"))
        bounds.append(max(hi, lo + 1))
    return np.asarray(bounds, dtype=np.int64)


def cosine_similarity(
    aux: Graph,
    san: Graph,
    mapping: Any,
    u: Any,
    v: Any,
    *,
    cs_denominator: str = "mapped",
) -> np.ndarray:
    """CS(u[i], v[i] | M) for given pairs, M given as (k × 2) pairs or an aux → san array.

    X = images under M of u's mapped neighbours, Y = neighbours of v; |X ∩ Y| / √(|X|·|Y|)
    with |X|, |Y| counting mapped neighbours only (``"mapped"``: Y = neighbours of v that
    are images in M) or all neighbours (``"all"``).  Directed graphs: the sum over
    successors and predecessors.  0 where a set is empty.  Seed 004 §2.11 (L1451).
    O(nnz of the sparse product A_aux·Π·A_sanᵀ over the rows asked).
    """
    _check_graphs(aux, san)
    den = _check_choice(cs_denominator, "cs_denominator", ("mapped", "all"))
    mu, mv = _mapping_pairs(mapping, aux.n_nodes, san.n_nodes)
    uu = np.asarray(u, dtype=np.int64).ravel()
    vv = np.asarray(v, dtype=np.int64).ravel()
    if uu.size != vv.size:
        raise InputError(f"u and v have sizes {uu.size} and {vv.size}")
    if uu.size and (uu.min() < 0 or uu.max() >= aux.n_nodes or vv.min() < 0
                    or vv.max() >= san.n_nodes):  # fmt: skip
        raise InputError("u or v names a node outside its graph")
    cs = _Cosine(aux, san, den)
    rows = np.unique(uu)
    cols = np.unique(vv)
    cu, cv, cc = cs.candidates(mu, mv, rows, cols, -1.0)
    key = cu * san.n_nodes + cv
    order = np.argsort(key)
    key, cc = key[order], cc[order]
    q = uu * san.n_nodes + vv
    pos = np.searchsorted(key, q)
    pos_c = np.minimum(pos, max(key.size - 1, 0))
    hit = (pos < key.size) & (key[pos_c] == q) if key.size else np.zeros(q.size, bool)
    out = np.zeros(q.size, dtype=np.float64)
    out[hit] = cc[pos_c[hit]]
    return out


# ============================================================================ the attack
def three_phase_attack(
    aux: Graph,
    san: Graph,
    scorers: Sequence[Scorer],
    *,
    thresholds: Sequence[int] = (30, 9, 5),
    score_cut: float = 0.95,
    cs_threshold: float = DEFAULT_CS_THRESHOLD,
    cs_denominator: str = "mapped",
    order: str = "score",
    max_iter: int | Sequence[int] = 10,
    max_pairs: int = DEFAULT_MAX_PAIRS,
    batch_size: int = 1 << 18,
    pair_mask: PairMask | None = None,
    rerun_phase1: bool = False,
    progress: Callable[[IterationInfo], None] | None = None,
) -> ThreePhaseResult:
    """Sharad's 3PSL: seedless, degree-stratified, classifier + cosine filtering.

    Seed 004 §2.11 (thesis §5.3.3, L1441–1459); the steps, the choices made where the seed
    is silent and the complexity are in the module docstring.  ``scorers``: three
    callables, one per phase, ``f(u, v) -> P(identical)`` for aux nodes ``u[i]`` and san
    nodes ``v[i]`` (int64 arrays; called in batches of at most ``batch_size``), e.g. a
    bound ``PairScorer`` of :mod:`privlab.graph.attacks.learned`.  ``thresholds`` = (t1,
    t2, t3), default Table 5.3 (Flickr/Epinions).  ``max_iter``: one bound for every phase
    or three.  ``progress`` is called with an :class:`IterationInfo` after each round.

    ConfigError for thresholds that are not strictly decreasing non-negative integers,
    ``score_cut`` or ``cs_threshold`` outside [0, 1] ([0, 2] for directed graphs), not
    three scorers, an unknown ``cs_denominator``/``order``, bad ``max_iter``/``max_pairs``,
    or when |P1| or a filtered set F exceeds ``max_pairs``; InputError for graphs of mixed
    directedness or a scorer that returns the wrong shape or values outside [0, 1].
    """
    t_start = time.perf_counter()
    _check_graphs(aux, san)
    th = _check_thresholds(thresholds)
    cut = _check_unit(score_cut, "score_cut", 1.0)
    cs_max = 2.0 if aux.directed else 1.0
    theta = _check_unit(cs_threshold, "cs_threshold", cs_max)
    den = _check_choice(cs_denominator, "cs_denominator", ("mapped", "all"))
    ordering = _check_choice(order, "order", ("score", "cs"))
    iters = _check_max_iter(max_iter)
    cap = _check_int(max_pairs, "max_pairs", 1)
    batch = _check_int(batch_size, "batch_size", 1)
    funcs = _check_scorers(scorers)
    if pair_mask is not None and not callable(pair_mask):
        raise ConfigError("pair_mask must be a callable f(u, v) -> boolean array, or None")

    run = _Run(aux, san, th, funcs, cut, theta, den, ordering, iters, cap, batch, pair_mask,
               progress)  # fmt: skip
    initial = run.phase1()
    m2 = run.later_phase(2)
    rerun_info = None
    if rerun_phase1:
        t0 = time.perf_counter()
        first = (int(run.phase_count[0]), int(m2[0].size))
        run.rerun_phase1(m2)
        run.reset_phase(2)
        m2 = run.later_phase(2)
        rerun_info = {
            "phase1_before": first[0],
            "phase2_discarded": first[1],
            "phase1_after": int(run.phase_count[0]),
            "iterations": run.rerun_iterations,
            "converged": run.rerun_converged,
            "seconds": time.perf_counter() - t0,
        }
    run.later_phase(3)
    mapping = np.full(aux.n_nodes, -1, dtype=np.int64)
    fu, fv, fp = run.frozen_arrays()
    mapping[fu] = fv
    phase_of = np.zeros(aux.n_nodes, dtype=np.int8)
    phase_of[fu] = fp
    return ThreePhaseResult(
        mapping=mapping,
        phase_of=phase_of,
        initial_pairs=initial,
        aux_degree=run.deg_a,
        san_degree=run.deg_s,
        thresholds=th,
        score_cut=cut,
        cs_threshold=theta,
        cs_denominator=den,
        order=ordering,
        mapped=tuple(int(x) for x in run.phase_count),  # type: ignore[arg-type]
        iterations=tuple(run.iterations),  # type: ignore[arg-type]
        converged=tuple(run.converged),  # type: ignore[arg-type]
        candidate_pairs=run.band_sizes(),
        pairs_filtered=tuple(run.filtered),  # type: ignore[arg-type]
        pairs_scored=tuple(run.scored),  # type: ignore[arg-type]
        phase_seconds=tuple(run.seconds),  # type: ignore[arg-type]
        seconds=time.perf_counter() - t_start,
        rerun=rerun_info,
    )


class _Run:
    """State of one attack: the frozen mappings, the caches and the counters."""

    def __init__(self, aux, san, th, funcs, cut, theta, den, order, iters, cap, batch, mask,
                 progress):  # fmt: skip
        self.aux, self.san = aux, san
        self.th, self.funcs, self.cut, self.theta, self.order = th, funcs, cut, theta, order
        self.iters, self.cap, self.batch, self.mask, self.progress = (
            iters, cap, batch, mask, progress,
        )  # fmt: skip
        self.deg_a = _total_degree(aux)
        self.deg_s = _total_degree(san)
        self.lev_a = _levels(self.deg_a, th)
        self.lev_s = _levels(self.deg_s, th)
        self.cos = _Cosine(aux, san, den)
        self.n_san = san.n_nodes
        # frozen mappings, as lists of arrays per phase
        self.frozen_u: list[np.ndarray] = []
        self.frozen_v: list[np.ndarray] = []
        self.frozen_p: list[np.ndarray] = []
        self.phase_count = [0, 0, 0]
        self.iterations = [0, 0, 0]
        self.converged = [True, True, True]
        self.filtered = [0, 0, 0]
        self.scored = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.caches: dict[int, _ScoreCache] = {}
        self.rerun_iterations = 0
        self.rerun_converged = True

    # ------------------------------------------------------------------ helpers
    def band_sizes(self) -> tuple[int, int, int]:
        na = [int((self.lev_a >= lv).sum()) for lv in (3, 2, 1)]
        ns = [int((self.lev_s >= lv).sum()) for lv in (3, 2, 1)]
        tot = [a * s for a, s in zip(na, ns, strict=True)]
        return (tot[0], tot[1] - tot[0], tot[2] - tot[1])

    def frozen_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not self.frozen_u:
            e = np.empty(0, np.int64)
            return e, e, np.empty(0, np.int8)
        return (np.concatenate(self.frozen_u), np.concatenate(self.frozen_v),
                np.concatenate(self.frozen_p))  # fmt: skip

    def _score(self, phase: int, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        out = np.empty(u.size, dtype=np.float64)
        f = self.funcs[phase - 1]
        for lo in range(0, u.size, self.batch):
            hi = min(lo + self.batch, u.size)
            out[lo:hi] = _call_scorer(f, phase, u[lo:hi], v[lo:hi])
        self.scored[phase - 1] += int(u.size)
        return out

    def _masked(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Boolean: pair allowed by ``pair_mask`` (all True without a mask)."""
        if self.mask is None:
            return np.ones(u.size, dtype=bool)
        m = np.asarray(self.mask(u, v))
        if m.shape != (u.size,):
            raise InputError(f"pair_mask returned shape {m.shape} for {u.size} pairs")
        return m.astype(bool)

    def _clean(self, u, v, score, cs):
        if self.order == "score":
            keep = clean_pairs(u, v, score, cs)
        else:
            keep = clean_pairs(u, v, cs, score)
        keep = np.sort(keep)  # stable storage: by input order, then sorted by u below
        uu, vv = u[keep], v[keep]
        o = np.argsort(uu)
        return uu[o], vv[o]

    def _report(self, phase, it, mu, mv, filtered, scored, base_u, base_v):
        """Call ``progress`` with the current mapping: base pairs ∪ (mu, mv)."""
        if self.progress is None:
            return
        pairs = np.stack([np.concatenate([base_u, mu]), np.concatenate([base_v, mv])], axis=1)
        pairs = pairs[np.argsort(pairs[:, 0], kind="stable")]
        self.progress(IterationInfo(phase, it, int(mu.size), int(pairs.shape[0]),
                                    int(filtered), int(scored), pairs))  # fmt: skip

    def _check_cap(self, n: int, what: str) -> None:
        if n > self.cap:
            raise ConfigError(
                f"{what} has {n} pairs, more than max_pairs = {self.cap}; raise max_pairs "
                "(memory grows by ~8 bytes per pair for scores, more for features), raise the "
                "degree thresholds or cs_threshold"
            )

    # ------------------------------------------------------------------ phase 1
    def phase1(self) -> np.ndarray:
        t0 = time.perf_counter()
        a1 = np.flatnonzero(self.lev_a >= 3)
        s1 = np.flatnonzero(self.lev_s >= 3)
        total = a1.size * s1.size
        self._check_cap(total, f"Phase 1 (degree > t1 = {self.th[0]} on both sides)")
        ns = s1.size
        scores = np.full(total, -1.0)  # −1: masked out, never a candidate
        step = max(self.batch, 1)
        for lo in range(0, total, step):
            idx = np.arange(lo, min(lo + step, total), dtype=np.int64)
            u, v = a1[idx // ns], s1[idx % ns]
            ok = self._masked(u, v)
            if ok.all():
                scores[idx] = self._score(1, u, v)
            elif ok.any():
                scores[idx[ok]] = self._score(1, u[ok], v[ok])
        self.p1 = (a1, s1, scores)
        pos_a = np.full(self.aux.n_nodes, -1, dtype=np.int64)
        pos_a[a1] = np.arange(a1.size)
        pos_s = np.full(self.n_san, -1, dtype=np.int64)
        pos_s[s1] = np.arange(ns)
        self.p1_pos = (pos_a, pos_s)
        d = np.flatnonzero(scores > self.cut)
        du, dv = a1[d // ns], s1[d % ns]
        keep = clean_pairs(du, dv, scores[d])
        mu, mv = du[keep], dv[keep]
        o = np.argsort(mu)
        mu, mv = mu[o], mv[o]
        initial = np.stack([mu, mv], axis=1)
        e = np.empty(0, np.int64)
        self._report(1, 0, mu, mv, d.size, self.scored[0], e, e)
        mu, mv, it, conv = self._loop1(mu, mv, None, None)
        self.iterations[0], self.converged[0] = it, conv
        self._freeze(1, mu, mv)
        self.seconds[0] += time.perf_counter() - t0
        return initial

    def _context(self, mu, mv, ctx_u, ctx_v) -> tuple[np.ndarray, np.ndarray]:
        """The re-run's context pairs that do not clash with the mapping (mu, mv)."""
        if ctx_u is None or ctx_u.size == 0:
            e = np.empty(0, np.int64)
            return e, e
        used_a = np.zeros(self.aux.n_nodes, bool)
        used_a[mu] = True
        used_s = np.zeros(self.n_san, bool)
        used_s[mv] = True
        ok = ~(used_a[ctx_u] | used_s[ctx_v])
        return ctx_u[ok], ctx_v[ok]

    def _p1_scores(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        _, s1, scores = self.p1
        pos_a, pos_s = self.p1_pos
        return scores[pos_a[u] * s1.size + pos_s[v]]

    def _loop1(self, mu, mv, ctx_u, ctx_v):
        """Phase 1 rounds from M = (mu, mv); ctx pairs (re-run only) add CS context."""
        a1, s1, _ = self.p1
        it, conv = 0, False
        while it < self.iters[0]:
            it += 1
            cu, cv = self._context(mu, mv, ctx_u, ctx_v)
            bu, bv = np.concatenate([mu, cu]), np.concatenate([mv, cv])
            fu, fv, fc = self.cos.candidates(bu, bv, a1, s1, self.theta)
            fs = self._p1_scores(fu, fv)
            ok = fs >= 0.0
            fu, fv, fc, fs = fu[ok], fv[ok], fc[ok], fs[ok]
            self.filtered[0] += int(fu.size)
            nu, nv = self._clean(fu, fv, fs, fc)
            if self.progress is not None:
                cu, cv = self._context(nu, nv, ctx_u, ctx_v)
                self._report(1, it, nu, nv, fu.size, 0, cu, cv)
            same = np.array_equal(nu, mu) and np.array_equal(nv, mv)
            mu, mv = nu, nv
            if same:
                conv = True
                break
        return mu, mv, it, conv

    # ------------------------------------------------------------------ phases 2, 3
    def later_phase(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        t0 = time.perf_counter()
        lv = 4 - k  # level needed: phase 2 → 2, phase 3 → 1
        fu0, fv0, _ = self.frozen_arrays()
        frozen_a = np.zeros(self.aux.n_nodes, bool)
        frozen_a[fu0] = True
        frozen_s = np.zeros(self.n_san, bool)
        frozen_s[fv0] = True
        rows = np.flatnonzero((self.lev_a >= lv) & ~frozen_a)
        cols = np.flatnonzero((self.lev_s >= lv) & ~frozen_s)
        skip_r = self.lev_a >= lv + 1
        skip_c = self.lev_s >= lv + 1
        cache = self.caches.setdefault(k, _ScoreCache(self.n_san))
        mu = mv = np.empty(0, np.int64)
        it, conv = 0, False
        while it < self.iters[k - 1]:
            it += 1
            bu = np.concatenate([fu0, mu])
            bv = np.concatenate([fv0, mv])
            cu, cv, cc = self.cos.candidates(bu, bv, rows, cols, self.theta,
                                             skip_rows=skip_r, skip_cols=skip_c)  # fmt: skip
            if self.mask is not None and cu.size:
                ok = self._masked(cu, cv)
                cu, cv, cc = cu[ok], cv[ok], cc[ok]
            self._check_cap(cu.size, f"Phase {k}'s filtered set F (round {it})")
            self.filtered[k - 1] += int(cu.size)
            before = self.scored[k - 1]
            cs_scores = cache.get(cu, cv, lambda a, b, k=k: self._score(k, a, b))
            nu, nv = self._clean(cu, cv, cs_scores, cc)
            self._report(k, it, nu, nv, cu.size, self.scored[k - 1] - before, fu0, fv0)
            same = np.array_equal(nu, mu) and np.array_equal(nv, mv)
            mu, mv = nu, nv
            if same:
                conv = True
                break
        self.iterations[k - 1], self.converged[k - 1] = it, conv
        self._freeze(k, mu, mv)
        self.seconds[k - 1] += time.perf_counter() - t0
        return mu, mv

    def _freeze(self, k: int, mu: np.ndarray, mv: np.ndarray) -> None:
        self.frozen_u.append(mu)
        self.frozen_v.append(mv)
        self.frozen_p.append(np.full(mu.size, k, dtype=np.int8))
        self.phase_count[k - 1] += int(mu.size)

    def reset_phase(self, k: int) -> None:
        """Forget the frozen mappings of phase k (the re-run variant discards Phase 2)."""
        keep = [i for i, p in enumerate(self.frozen_p) if not (p.size and p[0] == k)]
        self.frozen_u = [self.frozen_u[i] for i in keep]
        self.frozen_v = [self.frozen_v[i] for i in keep]
        self.frozen_p = [self.frozen_p[i] for i in keep]
        self.phase_count[k - 1] = 0

    def rerun_phase1(self, m2: tuple[np.ndarray, np.ndarray]) -> None:
        """Thesis L1564: re-run Phase 1 with the Phase 1 and Phase 2 mappings."""
        t0 = time.perf_counter()
        idx = [i for i, p in enumerate(self.frozen_p) if p.size and p[0] == 1]
        mu = np.concatenate([self.frozen_u[i] for i in idx]) if idx else np.empty(0, np.int64)
        mv = np.concatenate([self.frozen_v[i] for i in idx]) if idx else np.empty(0, np.int64)
        mu, mv, it, conv = self._loop1(mu, mv, m2[0], m2[1])
        self.rerun_iterations = it
        self.frozen_u, self.frozen_v, self.frozen_p = [], [], []
        self.phase_count = [0, 0, 0]
        self._freeze(1, mu, mv)
        self.rerun_converged = conv
        self.seconds[0] += time.perf_counter() - t0


class _ScoreCache:
    """Classifier scores of the pairs already scored in one phase (key u·n_san + v)."""

    def __init__(self, n_san: int):
        self.n_san = n_san
        self.keys = np.empty(0, dtype=np.int64)
        self.vals = np.empty(0, dtype=np.float64)

    def get(self, u: np.ndarray, v: np.ndarray, score: Callable) -> np.ndarray:
        q = u * self.n_san + v
        pos = np.searchsorted(self.keys, q)
        pc = np.minimum(pos, max(self.keys.size - 1, 0))
        hit = (pos < self.keys.size) & (self.keys[pc] == q) if self.keys.size else (
            np.zeros(q.size, bool)
        )  # fmt: skip
        out = np.empty(q.size, dtype=np.float64)
        out[hit] = self.vals[pc[hit]]
        miss = np.flatnonzero(~hit)
        if miss.size:
            s = score(u[miss], v[miss])
            out[miss] = s
            keys = np.concatenate([self.keys, q[miss]])
            vals = np.concatenate([self.vals, s])
            o = np.argsort(keys, kind="stable")
            self.keys, self.vals = keys[o], vals[o]
        return out


# ============================================================================ validation
def _check_graphs(aux: Any, san: Any) -> None:
    for name, g in (("aux", aux), ("san", san)):
        if not isinstance(g, Graph):
            raise InputError(f"{name} must be a privlab Graph (Graph.from_networkx converts)")
    if aux.directed != san.directed:
        raise InputError(
            f"aux is {'directed' if aux.directed else 'undirected'} but san is "
            f"{'directed' if san.directed else 'undirected'}; give two graphs of the same kind"
        )


def _check_thresholds(thresholds: Any) -> tuple[int, int, int]:
    try:
        t = tuple(thresholds)
    except TypeError:
        t = ()
    if (
        len(t) != 3
        or any(isinstance(x, bool) or not isinstance(x, Integral) for x in t)
        or not (t[0] > t[1] > t[2] >= 0)
    ):
        raise ConfigError(
            f"thresholds = {thresholds!r}: give three integers t1 > t2 > t3 ≥ 0 "
            "(degree thresholds of the phases, e.g. (30, 9, 5))"
        )
    return int(t[0]), int(t[1]), int(t[2])


def _check_unit(x: Any, name: str, hi: float) -> float:
    if isinstance(x, bool) or not isinstance(x, Real) or not (0.0 <= float(x) <= hi):
        raise ConfigError(f"{name} = {x!r}: give a number in [0, {hi:g}]")
    return float(x)


def _check_int(x: Any, name: str, lo: int) -> int:
    if isinstance(x, bool) or not isinstance(x, Integral) or int(x) < lo:
        raise ConfigError(f"{name} = {x!r}: give an integer ≥ {lo}")
    return int(x)


def _check_choice(x: Any, name: str, options: tuple[str, ...]) -> str:
    if x not in options:
        raise ConfigError(f"{name} = {x!r}: give one of {', '.join(map(repr, options))}")
    return str(x)


def _check_max_iter(x: Any) -> tuple[int, int, int]:
    if isinstance(x, Integral) and not isinstance(x, bool):
        v = _check_int(x, "max_iter", 1)
        return v, v, v
    try:
        t = tuple(x)
    except TypeError:
        t = ()
    if len(t) != 3:
        raise ConfigError(f"max_iter = {x!r}: give an integer ≥ 1 or one per phase (three)")
    return tuple(_check_int(y, "max_iter", 1) for y in t)  # type: ignore[return-value]


def _check_scorers(scorers: Any) -> tuple[Scorer, Scorer, Scorer]:
    if callable(scorers):
        raise ConfigError(
            "scorers: give a sequence of three callables, one per phase "
            "(repeat one callable to use it for every phase)"
        )
    try:
        s = tuple(scorers)
    except TypeError:
        s = ()
    if len(s) != 3:
        raise ConfigError(f"scorers: {len(s)} given, give three callables (one per phase)")
    for k, f in enumerate(s, 1):
        if not callable(f):
            raise ConfigError(f"scorers[{k - 1}] (phase {k}) is not callable")
    return s  # type: ignore[return-value]


def _call_scorer(f: Scorer, phase: int, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    out = np.asarray(f(u, v), dtype=np.float64)
    if out.shape != (u.size,):
        raise InputError(
            f"the phase {phase} scorer returned shape {out.shape} for {u.size} pairs; it must "
            "return one probability per pair"
        )
    if out.size and not (np.isfinite(out).all() and out.min() >= 0.0 and out.max() <= 1.0):
        bad = float(out[~(np.isfinite(out) & (out >= 0.0) & (out <= 1.0))][0])
        raise InputError(
            f"the phase {phase} scorer returned {bad!r}; scores must be probabilities in [0, 1]"
        )
    return out


# ============================================================================ helpers
def _total_degree(g: Graph) -> np.ndarray:
    d = g.degrees().astype(np.int64)
    return d + g.in_degrees() if g.directed else d


def _levels(deg: np.ndarray, th: tuple[int, int, int]) -> np.ndarray:
    """3 if deg > t1, 2 if > t2, 1 if > t3, else 0."""
    return ((deg > th[0]).astype(np.int8) + (deg > th[1]) + (deg > th[2])).astype(np.int8)


def _pairs_of(mapping: np.ndarray) -> np.ndarray:
    left = np.flatnonzero(mapping >= 0)
    return np.stack([left, mapping[left]], axis=1)


def _mapping_pairs(mapping: Any, n_aux: int, n_san: int) -> tuple[np.ndarray, np.ndarray]:
    m = np.asarray(mapping, dtype=np.int64)
    if m.ndim == 2 and m.shape[1] == 2:
        mu, mv = m[:, 0], m[:, 1]
    elif m.ndim == 1 and m.size == n_aux:
        mu = np.flatnonzero(m >= 0)
        mv = m[mu]
    else:
        raise InputError(
            f"mapping has shape {m.shape}: give (k × 2) pairs or an array over the {n_aux} "
            "aux nodes (−1 = unmapped)"
        )
    if mu.size and (mu.min() < 0 or mu.max() >= n_aux or mv.min() < 0 or mv.max() >= n_san):
        raise InputError("mapping names a node outside its graph")
    if np.unique(mu).size != mu.size or np.unique(mv).size != mv.size:
        raise InputError("mapping is not one-to-one: a node appears twice")
    return mu, mv


def _truth_array(truth: Any, n_aux: int, n_san: int) -> np.ndarray:
    if hasattr(truth, "truth_array"):
        t = np.asarray(truth.truth_array(), dtype=np.int64)
    else:
        t = np.asarray(truth, dtype=np.int64)
        if t.ndim == 2 and t.shape[1] == 2:
            mu, mv = _mapping_pairs(t, n_aux, n_san)
            t = np.full(n_aux, -1, dtype=np.int64)
            t[mu] = mv
    if t.shape != (n_aux,):
        raise InputError(
            f"truth has shape {t.shape}: give a GraphPair, an array over the {n_aux} aux "
            "nodes (true san node or −1) or (k × 2) true pairs"
        )
    known = t[t >= 0]
    if known.size and (known.max() >= n_san or np.unique(known).size != known.size):
        raise InputError("truth names a san node outside the graph or one san node twice")
    return t


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
