"""Ji et al.'s structural de-anonymization attacks JLS+ and JLSB, block by block.

Sources: S. Ji, W. Li, M. Srivatsa, J. S. He, R. Beyah, *Structure based data
de-anonymization of social networks and mobility traces*, ISC 2014 (JLS+; extended as
*General graph data de-anonymization*, ACM TOPS 2016) and S. Ji, W. Li, M. Srivatsa,
R. Beyah, *Structural data de-anonymization: quantification, practice, and implications*,
CCS 2014 (JLSB; its "ODA" attack); seed 004 §2.13 and §3.5 (Sharad's Table 5.9 ranks both:
"JLS+ its overlap-estimating variant", "JLSB ∅", seedless).  SecGraph (Ji et al., USENIX
Security 2015) ships the authors' own code for both (``deAnonymize.SJISC2014``,
``SJISC2014ADA``, ``SJCCS2014``); it was read to recover the matching rule the papers state
only in outline.  docs/graph/ji-attacks.md lists what was taken from where.

**The matching rule (both attacks, SecGraph's, as DV's).**  The unmatched nodes of each graph
are queued by decreasing degree (ties by lower id).  A *block* takes the first ``block``
nodes of each queue, scores every pair by a weighted similarity, solves the assignment
maximizing the total (:func:`scipy.optimize.linear_sum_assignment`), matches the ``keep``
assigned pairs of highest similarity and puts the others back (``mode="queue"``: at the end,
most similar first; ``"stack"``: at the front).  Blocks repeat until a queue is empty.

**JLS+ (ISC 2014), the unified similarity** s = w_D·s_D + w_S·s_S + w_I·s_I:

* s_S, structural: cosine of (closeness, betweenness, degree), each divided by its maximum
  over the graph (closeness over the reachable nodes, betweenness exact, both by igraph —
  the same numbers written to SecGraph's centrality files in the benchmark);
* s_D, relative distance: cosine of the hop-distance vectors to the seeds (unreachable: the
  largest finite distance + 1, as :func:`~privlab.graph.attacks.distance_vector.seed_distances`);
* s_I, inherited: over the neighbours x of u already matched to a neighbour y of v, the mean
  of the similarity at which (x, y) was matched (1 for a seed), times the degree agreement
  1 − |d(u) − d(v)| / max(d(u), d(v)); 0 when there is no such neighbour.

``variant="isc"`` is the DA framework (candidates: every unmatched node).  ``"adaptive"`` is
ADA, the overlap-estimating variant the comparison uses: each round's candidates are the
unmatched nodes within two hops of a matched node, by decreasing degree, the longer list cut
to the length of the shorter (its lowest degrees dropped) — the estimate of the overlap —
and all of them are matched block by block before the next round (when no candidate is
left but free nodes are, every free node is a candidate: SecGraph loops forever there).
``"secgraph"`` / ``"secgraph-adaptive"`` compute what SecGraph's ``SJISC2014`` /
``SJISC2014ADA`` compute: their inherited term is always 0 (it tests whether a matched
neighbour's score table holds the *candidate* — only a seed's partner, never queued — and
new matches never enter the table; its degree factor also divides integers), so s_I is
dropped there.

**JLSB (CCS 2014)**, similarity w_G·s_G + w_N·s_N + w_D·s_D (SecGraph's ``SJCCS2014``):
s_G = √(1 / (|d(u) − d(v)| + 1)); s_N: cosine of the degrees of the ``neighbours``
highest-degree neighbours, in decreasing order, zero-padded; s_D as above, to landmarks.
The paper's ODA is *cold start* (seedless): with no seeds, the first block is scored by
s_G and s_N alone (weights renormalized) and the pairs each block keeps become landmarks
until ``landmarks`` of them exist (assumption: the paper's landmark rule could not be
read; this is the documented reading — matched high-degree pairs serve as the seeds
SecGraph takes from a file).  With seeds, the seeds are the landmarks (SecGraph).

**JLSB's queue order** (``order``).  Both queues are by decreasing degree; ``"structure"``
(the default) orders equal degrees by the decreasing sum of the ``neighbours`` highest
neighbour degrees — the sum of the s_N feature vector, so the node's own two-hop structure,
which an edge sample keeps up to noise — then by lower id.  Nodes of similar
neighbourhoods of the two graphs then sit at similar places in their queues and meet in the
same block.  ``"id"`` is the former rule, equal degrees by lower id; SecGraph's order is
Java's ``HashSet`` order (id modulo the table's capacity).  Any id order is arbitrary, except
on a pair whose G2 ids equal G1's (as ``graph pair`` writes it): there it lines up true
pairs of equal degree, an advantage no real attacker has.  On the ego-Facebook 90/90 pairs
of seeds 0–5 with G2's ids permuted, ``"structure"`` found 12–108 more correct pairs than
``"id"``; unpermuted, where ids coincide, ``"id"`` was 6 ahead on average over seeds 0–4
(docs/graph/dv-jlsb-ties.md).
This rule is privlab's: the paper and SecGraph state none.

Cost: distances O(k·m·diameter) time, O(k·n) memory (k landmarks); centralities (JLS+)
O(n·m) (Brandes); each block O(b²·(k + f) + b³) for b = ``block`` and f features, plus the
inherited term's sparse product O(b·d̄²); about n / keep blocks.  ADA adds O(m) per round.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.distance_vector import match_blocks, one_blas_thread, seed_distances
from privlab.graph.attacks.seeded import (
    MatchingResult,
    by_degree,
    initial_maps,
    result,
    seed_pairs,
    truth_array,
)
from privlab.graph.core import Graph, as_graph
from privlab.progress import ProgressFn
from privlab.validate import check_choice, check_int, check_number_in

MODES = ("queue", "stack")
ORDERS = ("structure", "id")  # JLSB's order of equal degrees in the queues (module docstring)
JLS_VARIANTS = ("isc", "adaptive", "secgraph", "secgraph-adaptive")

SimFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


# ============================================================================ JLS+
def jls(
    g1: Graph,
    g2: Graph,
    seeds: Any,
    *,
    variant: str = "adaptive",
    block: int = 100,
    keep: int = 10,
    mode: str = "queue",
    distance_weight: float = 0.8,
    structure_weight: float = 0.1,
    inherit_weight: float = 0.1,
    centrality: tuple[np.ndarray, np.ndarray] | None = None,
    truth: Any = None,
    progress: ProgressFn | None = None,
) -> MatchingResult:
    """JLS+ of G1 into G2 from ``seeds`` (module docstring).

    ``variant``: ``"adaptive"`` (ADA, Table 5.9's), ``"isc"`` (DA), ``"secgraph"``,
    ``"secgraph-adaptive"``.  ``block``/``keep``/``mode`` as SecGraph's -bSize/-nKeep/-am;
    the three weights (≥ 0, not all 0) as its -DisSimW/-StrSimW/-InhSimW (defaults: the
    0.8/0.1/0.1 of SecGraph's code).  ``centrality``: optional (closeness, betweenness)
    arrays, shape (n, 2), of G1 and G2; computed with igraph when None.  ``rounds`` in the
    result: blocks solved.  ``progress(done, total)``: G1 nodes mapped, every 16 blocks.
    """
    t0 = time.perf_counter()
    check_choice(variant, "variant", JLS_VARIANTS)
    b, k = _block_keep(block, keep)
    check_choice(mode, "mode", MODES)
    w = _weights((("distance_weight", distance_weight), ("structure_weight", structure_weight),
                  ("inherit_weight", inherit_weight)))  # fmt: skip
    g1, g2, s, tr = _inputs(g1, g2, seeds, truth, "JLS+", need_seeds=True)
    map12, map21 = initial_maps(g1.n_nodes, g2.n_nodes, s)
    d1, d2 = _unit_rows(seed_distances(g1, s[:, 0])), _unit_rows(seed_distances(g2, s[:, 1]))
    c1, c2 = (None, None) if centrality is None else centrality
    f1 = _unit_rows(_structure(g1, c1, "G1"))
    f2 = _unit_rows(_structure(g2, c2, "G2"))
    inherit = variant in ("isc", "adaptive") and w[2] > 0
    inh = _Inherited(g1, g2, map12, s) if inherit else None

    def sim(a: np.ndarray, c: np.ndarray) -> np.ndarray:
        out = w[0] * (d1[a] @ d2[c].T) + w[1] * (f1[a] @ f2[c].T)
        if inh is not None:
            out += w[2] * inh.similarity(a, c)
        return out

    on_keep = inh.record if inh is not None else None
    adaptive = variant in ("adaptive", "secgraph-adaptive")
    with one_blas_thread():
        blocks = _run(g1, g2, map12, map21, sim, on_keep, b, k, mode, adaptive, progress)
    params = {"variant": variant, "block": b, "keep": k, "mode": mode, "distance_weight": w[0],
              "structure_weight": w[1], "inherit_weight": w[2]}  # fmt: skip
    return result(map12, s, tr, method="jls+", rounds=blocks,
                  seconds=time.perf_counter() - t0, parameters=params)  # fmt: skip


# ============================================================================ JLSB
def jlsb(
    g1: Graph,
    g2: Graph,
    seeds: Any = None,
    *,
    block: int = 100,
    keep: int = 10,
    mode: str = "queue",
    degree_weight: float = 0.1,
    neighbour_weight: float = 0.1,
    distance_weight: float = 0.8,
    neighbours: int = 10,
    landmarks: int = 50,
    order: str = "structure",
    truth: Any = None,
    progress: ProgressFn | None = None,
) -> MatchingResult:
    """JLSB (ODA) of G1 into G2, seedless (``seeds=None``, the paper) or from seeds
    (SecGraph's ``SJCCS2014``); module docstring.

    ``neighbours``: neighbour degrees compared (-nNei); ``landmarks``: seedless only, how
    many matched pairs become landmarks (≥ 1).  Weights as -DegSimW/-NeiSimW/-DisSimW.
    ``order``: equal degrees in the queues by ``"structure"`` (decreasing sum of the
    neighbour degrees compared, then id) or ``"id"`` (the former rule); module docstring.
    """
    t0 = time.perf_counter()
    b, k = _block_keep(block, keep)
    check_choice(mode, "mode", MODES)
    w = _weights((("degree_weight", degree_weight), ("neighbour_weight", neighbour_weight),
                  ("distance_weight", distance_weight)))  # fmt: skip
    nn = check_int(neighbours, "neighbours", 1, "neighbour degrees compared, SecGraph's -nNei")
    n_land = check_int(landmarks, "landmarks", 1, "matched pairs used as landmarks (seedless)")
    check_choice(order, "order", ORDERS)
    g1, g2, s, tr = _inputs(g1, g2, seeds, truth, "JLSB", need_seeds=False)
    map12, map21 = initial_maps(g1.n_nodes, g2.n_nodes, s)
    deg1, deg2 = g1.degrees().astype(np.float64), g2.degrees().astype(np.float64)
    raw1, raw2 = _neighbour_degrees(g1, nn), _neighbour_degrees(g2, nn)
    nb1, nb2 = _unit_rows(raw1), _unit_rows(raw2)
    keys = (raw1.sum(axis=1), raw2.sum(axis=1)) if order == "structure" else None
    marks = _Landmarks(g1, g2, s, n_land if s.shape[0] == 0 else 0)

    def sim(a: np.ndarray, c: np.ndarray) -> np.ndarray:
        out = w[0] * np.sqrt(1.0 / (np.abs(deg1[a][:, None] - deg2[c][None, :]) + 1.0))
        out += w[1] * (nb1[a] @ nb2[c].T)
        if marks.count:
            out += w[2] * marks.similarity(a, c)
        elif w[0] + w[1] > 0:  # cold start: no landmark yet, the other two renormalized
            out *= 1.0 / (w[0] + w[1])
        return out

    on_keep = marks.record if marks.limit else None
    with one_blas_thread():
        blocks = _run(g1, g2, map12, map21, sim, on_keep, b, k, mode, False, progress, keys)
    params = {"block": b, "keep": k, "mode": mode, "degree_weight": w[0],
              "neighbour_weight": w[1], "distance_weight": w[2], "neighbours": nn,
              "landmarks": marks.count, "seedless": s.shape[0] == 0, "order": order}  # fmt: skip
    return result(map12, s, tr, method="jlsb", rounds=blocks,
                  seconds=time.perf_counter() - t0, parameters=params)  # fmt: skip


# ============================================================================ the engine
def _run(g1, g2, map12, map21, sim, on_keep, b, k, mode, adaptive, progress, keys=None) -> int:
    """Match blocks until a queue is empty (``adaptive``: round after round of 2-hop
    candidates until a side has no free node).  The number of blocks solved.  ``keys``:
    None (equal degrees by id) or one array per graph ordering equal degrees (decreasing)."""
    k1, k2 = (None, None) if keys is None else keys
    if not adaptive:
        q1 = deque(by_degree(g1, map12 < 0, k1).tolist())
        q2 = deque(by_degree(g2, map21 < 0, k2).tolist())
        return match_blocks(q1, q2, map12, map21, sim, b, k, mode, progress, on_keep)
    a1, a2 = g1.to_scipy(), g2.to_scipy()
    blocks = 0
    while (map12 < 0).any() and (map21 < 0).any():
        c1, c2 = _two_hop(a1, map12 >= 0), _two_hop(a2, map21 >= 0)
        if not c1.any() or not c2.any():  # nothing near a match: every free node
            c1, c2 = map12 < 0, map21 < 0
        l1, l2 = by_degree(g1, c1), by_degree(g2, c2)
        cut = min(l1.size, l2.size)
        q1, q2 = deque(l1[:cut].tolist()), deque(l2[:cut].tolist())
        blocks = match_blocks(q1, q2, map12, map21, sim, b, k, mode, progress, on_keep, blocks)
    return blocks


def _two_hop(a, matched: np.ndarray) -> np.ndarray:
    """Free nodes within two hops of a matched node.  O(m)."""
    one = (a @ matched.astype(np.int64)) > 0
    two = one | ((a @ one.astype(np.int64)) > 0)
    return two & ~matched


# ============================================================================ similarities
class _Inherited:
    """s_I(u, v): the scores of the matched pairs (x, y), x ~ u, y ~ v, summed and divided by
    the larger of u's and v's numbers of matched neighbours, times the degree agreement
    1 − |d(u) − d(v)| / max(d(u), d(v)).

    ``score[x]``: the similarity at which G1 node x was matched (1 for seeds).  A block's
    term is a sparse product, (|c1| × n2 matched-neighbour rows) · (n2 × |c2|)."""

    def __init__(self, g1: Graph, g2: Graph, map12: np.ndarray, seeds: np.ndarray) -> None:
        self.a1 = g1.to_scipy().astype(np.float64).tocsr()
        self.a2 = g2.to_scipy().astype(np.float64).tocsr()
        self.map12 = map12
        self.score = np.zeros(g1.n_nodes)
        self.score[seeds[:, 0]] = 1.0
        self.deg1 = g1.degrees().astype(np.float64)
        self.deg2 = g2.degrees().astype(np.float64)
        self.n2 = g2.n_nodes

    def record(self, u: np.ndarray, v: np.ndarray, s: np.ndarray) -> None:
        self.score[u] = s

    def similarity(self, a: np.ndarray, c: np.ndarray) -> np.ndarray:
        from scipy import sparse

        x = np.flatnonzero(self.map12 >= 0)
        to2 = sparse.csr_array(
            (self.score[x], (x, self.map12[x])), shape=(self.map12.size, self.n2)
        )
        rows, right = self.a1[a], self.a2[c]
        total = (rows @ to2) @ right.toarray().T  # A2 is symmetric: its rows are columns
        matched1 = np.zeros(self.map12.size)
        matched1[x] = 1.0
        matched2 = np.zeros(self.n2)
        matched2[self.map12[x]] = 1.0
        nu, nv = rows @ matched1, right @ matched2
        evidence = np.maximum(np.maximum(nu[:, None], nv[None, :]), 1.0)
        da, dc = self.deg1[a][:, None], self.deg2[c][None, :]
        agree = 1.0 - np.abs(da - dc) / np.maximum(np.maximum(da, dc), 1.0)
        return total / evidence * agree


class _Landmarks:
    """JLSB's distance term: cosine of the distance vectors to the landmarks.  Seeded: the
    seeds, fixed.  Seedless (``limit`` > 0): the kept pairs, until ``limit`` of them."""

    def __init__(self, g1: Graph, g2: Graph, seeds: np.ndarray, limit: int) -> None:
        self.g1, self.g2, self.limit = g1, g2, limit
        self.l1 = [int(x) for x in seeds[:, 0]]
        self.l2 = [int(x) for x in seeds[:, 1]]
        self._refresh()

    @property
    def count(self) -> int:
        return len(self.l1)

    def _refresh(self) -> None:
        if not self.l1:
            self.d1 = self.d2 = None
            return
        self.d1 = _unit_rows(seed_distances(self.g1, np.asarray(self.l1)))
        self.d2 = _unit_rows(seed_distances(self.g2, np.asarray(self.l2)))

    def record(self, u: np.ndarray, v: np.ndarray, s: np.ndarray) -> None:
        room = self.limit - len(self.l1)
        if room <= 0:
            return
        self.l1 += u[:room].tolist()
        self.l2 += v[:room].tolist()
        self._refresh()

    def similarity(self, a: np.ndarray, c: np.ndarray) -> np.ndarray:
        return self.d1[a] @ self.d2[c].T


def _structure(g: Graph, given: np.ndarray | None, side: str) -> np.ndarray:
    """(n × 3) closeness, betweenness, degree, each divided by its maximum (0 if all 0)."""
    n = g.n_nodes
    if given is None:
        ig = g.to_igraph()
        cen = np.column_stack([ig.closeness(), ig.betweenness()]).astype(np.float64)
    else:
        cen = np.asarray(given, dtype=np.float64)
        if cen.shape != (n, 2):
            raise InputError(
                f"centrality of {side}: shape {cen.shape}; give (closeness, betweenness) "
                f"for each of its {n} nodes, shape ({n}, 2)"
            )
    cen = np.nan_to_num(cen, nan=0.0)  # igraph: closeness of an isolated node is NaN
    if (cen < 0).any():
        raise InputError(f"centrality of {side}: negative values; centralities are ≥ 0")
    feats = np.column_stack([cen, g.degrees().astype(np.float64)])
    top = feats.max(axis=0, initial=0.0)
    return feats / np.where(top > 0, top, 1.0)


def _neighbour_degrees(g: Graph, nn: int) -> np.ndarray:
    """(n × nn) degrees of each node's nn highest-degree neighbours, decreasing, 0-padded.
    O(m log m)."""
    deg = g.degrees()
    n = g.n_nodes
    owner = np.repeat(np.arange(n), np.diff(g.indptr))
    nd = deg[g.indices]
    order = np.lexsort((-nd, owner))
    nd, owner = nd[order], owner[order]
    rank = np.arange(nd.size) - g.indptr[owner]
    keep = rank < nn
    out = np.zeros((n, nn), dtype=np.float64)
    out[owner[keep], rank[keep]] = nd[keep]
    return out


def _unit_rows(x: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero: cosine 0, not SecGraph's NaN)."""
    x = np.asarray(x, dtype=np.float64)
    norm = np.sqrt((x * x).sum(axis=1, keepdims=True))
    return x / np.where(norm > 0, norm, 1.0)


# ============================================================================ checks
def _block_keep(block: Any, keep: Any) -> tuple[int, int]:
    b = check_int(block, "block", 1, "the nodes per side of one assignment, SecGraph's -bSize")
    k = check_int(keep, "keep", 1, "the pairs matched per block, SecGraph's -nKeep")
    if k > b:
        raise ConfigError(f"keep = {k} is more than block = {b}; give keep ≤ block")
    return b, k


def _weights(named: tuple[tuple[str, Any], ...]) -> tuple[float, ...]:
    w = tuple(check_number_in(v, name, 0.0, 1e6) for name, v in named)
    if not sum(w) > 0:
        raise ConfigError(
            f"{', '.join(n for n, _ in named)} are all 0: give at least one positive weight"
        )
    return w


def _inputs(g1, g2, seeds, truth, what: str, *, need_seeds: bool):
    g1 = as_graph(g1, f"{what} (g1)", undirected=True)
    g2 = as_graph(g2, f"{what} (g2)", undirected=True)
    if seeds is None or (not need_seeds and np.asarray(seeds).size == 0):
        if need_seeds:
            raise InputError("seeds: none given; JLS+ needs at least one seed pair")
        s = np.zeros((0, 2), dtype=np.int64)
    else:
        s = seed_pairs(seeds, g1.n_nodes, g2.n_nodes)
    tr = None if truth is None else truth_array(truth, g1.n_nodes, g2.n_nodes)
    return g1, g2, s, tr


__all__ = ["JLS_VARIANTS", "MODES", "ORDERS", "jls", "jlsb"]
