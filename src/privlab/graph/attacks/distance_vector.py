"""Distance-vector matching (DV): landmark distances to the seeds, matched block by block.

Source: SecGraph's ``deAnonymize.DV`` (Ji et al., USENIX Security 2015), its version of
the landmark attack of Srivatsa & Hicks (*Deanonymizing mobility traces: using social
network as a side-channel*, CCS 2012); seed 004 §2.13 and §3.5 ("SH uses its
distance-vector variant", Sharad's Table 5.9).  SecGraph's code was read to reproduce what
it computes; see docs/graph/seeded-attacks.md for the differences.

The rule.  Every node x gets the vector of its shortest-path distances to the k seeds,
(dist(x, s₁), …, dist(x, s_k)), the seeds of G1 in G1 and their partners in G2 in G2, in
the same pair order.  The unmatched nodes of each graph are queued by decreasing degree
(ties by lower id).  A *block* takes the first ``block`` nodes of each queue (SecGraph's
``-bSize``), scores every pair of them by the cosine similarity of their vectors, and
solves the assignment maximizing the total similarity (SecGraph: its Hungarian algorithm
on −cos; here :func:`scipy.optimize.linear_sum_assignment`, on cosines from exact
integer-valued dot products, so that ties fall the same way on every machine).  The
``keep`` assigned pairs of highest similarity (``-nKeep``) are matched; the other nodes go
back to the queue: at its end in order of decreasing similarity (``mode="queue"``,
SecGraph's ``-am queue``) or at its front one by one, so the least similar first
(``"stack"``, ``addFirst``).  Blocks
repeat until a queue is empty, so every node of the smaller graph is matched (SecGraph's
m_out = m_tot).  The landmarks are the seeds only: new matches do not become landmarks (as
in SecGraph).

**Ties** (``ties="degree"``, the default).  Distance vectors to a few dozen seeds are coarse: on
the ego-Facebook 90/90 pair with 50 seeds most blocks hold many pairs of cosine exactly 1, so
the assignment of maximal total cosine is far from unique and which one a solver returns
decides much of the result.  SecGraph leaves this to its Hungarian code (float32, first zero
found in row order), to Java's hash-set order for nodes of equal degree and to its priority
queue's heap order; privlab's former rule (``ties="none"``) left it to SciPy's solver and the
queue position.  The default breaks ties by *degree agreement*
1 − |d(u) − d(v)| / max(d(u), d(v)), the relative degree difference, which stays comparable
when both graphs are edge samples of one graph (a node's degree scales with the sampling
rate): every similarity gets ``TIE_WEIGHT`` (10⁻⁹) × agreement added, so among assignments of
equal total cosine the one with the largest total agreement wins, and among kept pairs of
equal cosine the better-agreeing ones are kept.  The order is lexicographic whenever two
assignments' cosine totals differ by more than block × 10⁻⁹ (cosines of distinct integer
vectors of this size differ by far more); closer totals may be decided by degree.  This is
privlab's rule, not the paper's: Srivatsa & Hicks and SecGraph state no tie-breaking.  On the
ego-Facebook 90/90 pairs of seeds 0–3 (block 100, keep 10 or 50, queue) it finds 10–95 more
correct pairs than ``"none"``; docs/graph/dv-jlsb-ties.md has the numbers and SecGraph's.

A node that cannot reach a seed (another component) has no finite distance to it; it is
given the graph's largest finite seed distance + 1 there (SecGraph's code fails on such
graphs).  A vector of zeros cannot occur: seeds are never queued.

Cost: k breadth-first searches run together, O(k·m·diameter) time and O(k·n) memory; then about
n / keep blocks of O(block³) each (the assignment) — O(n·block³ / keep) in all.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import numpy as np

from privlab.errors import ConfigError
from privlab.graph.attacks.seeded import MatchingResult, by_degree, initial_maps, prepare, result
from privlab.graph.core import Graph
from privlab.progress import ProgressFn
from privlab.validate import check_choice, check_int

MODES = ("queue", "stack")
TIES = ("degree", "none")
TIE_WEIGHT = 1e-9  # the degree-agreement tie-breaker's weight beside a cosine (module doc)


def distance_vector(
    g1: Graph,
    g2: Graph,
    seeds: Any,
    *,
    block: int = 100,
    keep: int = 10,
    mode: str = "queue",
    ties: str = "degree",
    truth: Any = None,
    progress: ProgressFn | None = None,
) -> MatchingResult:
    """Distance-vector matching of G1 into G2 from ``seeds`` (module docstring).

    ``block``: nodes per side in one assignment (≥ 1); ``keep``: best assigned pairs
    matched per block (1 ≤ keep ≤ block); ``mode``: where the rest go back, ``"queue"``
    (end) or ``"stack"`` (front).  ``ties``: ``"degree"`` (equal cosines decided by degree
    agreement) or ``"none"`` (left to the solver and the queue order).  ``seeds`` and
    ``truth`` as in :func:`~privlab.graph.attacks.propagation.propagate`.  ``rounds`` in
    the result: the blocks solved.  ``progress(done, total)``: G1 nodes mapped of |V1|,
    every 16 blocks.
    """
    t0 = time.perf_counter()
    b = check_int(block, "block", 1, "the nodes per side of one assignment, SecGraph's -bSize")
    k = check_int(keep, "keep", 1, "the pairs matched per block, SecGraph's -nKeep")
    if k > b:
        raise ConfigError(f"keep = {k} is more than block = {b}; give keep ≤ block")
    check_choice(mode, "mode", MODES)
    check_choice(ties, "ties", TIES)
    g1, g2, s, tr = prepare(g1, g2, seeds, truth, "distance vector")
    n1 = g1.n_nodes
    map12, map21 = initial_maps(n1, g2.n_nodes, s)
    d1 = seed_distances(g1, s[:, 0]).astype(np.float64)  # small integers: exact products
    d2 = seed_distances(g2, s[:, 1]).astype(np.float64)
    n1sq, n2sq = np.sqrt((d1 * d1).sum(axis=1)), np.sqrt((d2 * d2).sum(axis=1))
    q1 = deque(by_degree(g1, map12 < 0).tolist())
    q2 = deque(by_degree(g2, map21 < 0).tolist())
    deg1, deg2 = g1.degrees().astype(np.float64), g2.degrees().astype(np.float64)

    def cosines(c1: np.ndarray, c2: np.ndarray) -> np.ndarray:
        # integer-valued dot products are exact in any summation order (< 2^53), so ties
        # fall the same way on every machine and thread count
        cos = (d1[c1] @ d2[c2].T) / np.outer(n1sq[c1], n2sq[c2])
        if ties == "degree":
            cos += TIE_WEIGHT * degree_agreement(deg1[c1], deg2[c2])
        return cos

    with one_blas_thread():  # small products: threads only add contention
        blocks = match_blocks(q1, q2, map12, map21, cosines, b, k, mode, progress)
    params = {"block": b, "keep": k, "mode": mode, "ties": ties}
    return result(map12, s, tr, method="distance-vector", rounds=blocks,
                  seconds=time.perf_counter() - t0, parameters=params)  # fmt: skip


def match_blocks(q1, q2, map12, map21, sim, b, k, mode, progress, on_keep=None, blocks=0):
    """Solve blocks until a queue (a deque of node ids) is empty; the blocks solved so far.

    ``sim(c1, c2)``: the (|c1| × |c2|) similarities of a block; ``on_keep(u, v, s)``: told
    the pairs kept and their similarities (JLS+ and JLSB use it).  Shared with
    :mod:`privlab.graph.attacks.ji`."""
    from scipy.optimize import linear_sum_assignment

    n1 = map12.size
    while q1 and q2:
        c1 = np.array([q1.popleft() for _ in range(min(b, len(q1)))], dtype=np.int64)
        c2 = np.array([q2.popleft() for _ in range(min(b, len(q2)))], dtype=np.int64)
        score = sim(c1, c2)
        r, c = linear_sum_assignment(score, maximize=True)
        order = np.argsort(-score[r, c], kind="stable")
        r, c = r[order], c[order]
        u, v = c1[r[:k]], c2[c[:k]]
        map12[u] = v
        map21[v] = u
        if on_keep is not None:
            on_keep(u, v, score[r[:k], c[:k]])
        back1 = [*c1[r[k:]].tolist(), *np.delete(c1, r).tolist()]
        back2 = [*c2[c[k:]].tolist(), *np.delete(c2, c).tolist()]
        for q, back in ((q1, back1), (q2, back2)):
            if mode == "queue":
                q.extend(back)
            else:
                q.extendleft(back)  # addFirst one by one: the last back is first
        blocks += 1
        if progress is not None and blocks % 16 == 0:
            progress(int(np.count_nonzero(map12 >= 0)), n1)
    return blocks


def degree_agreement(deg1: np.ndarray, deg2: np.ndarray) -> np.ndarray:
    """(|deg1| × |deg2|) 1 − |d − d'| / max(d, d', 1): 1 for equal degrees, → 0 as they part.
    O(|deg1|·|deg2|)."""
    a, b = deg1[:, None], deg2[None, :]
    return 1.0 - np.abs(a - b) / np.maximum(np.maximum(a, b), 1.0)


def one_blas_thread():
    """A context in which BLAS runs on one thread: the attacks' many small products only
    lose to thread start-up and contention (shared by DV, JLS+/JLSB and PFG)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        import contextlib

        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def seed_distances(
    g: Graph, landmarks: np.ndarray, unreachable: int | None = None
) -> np.ndarray:
    """(n × k) int64 hop distances from every node to each landmark; unreachable: the
    largest finite distance + 1, or ``unreachable`` when given.  All k breadth-first
    searches at once, level by level (one sparse × dense product per level):
    O(m·k·diameter) time, O(n·k) memory."""
    a = g.to_scipy().tocsr().astype(np.float32)
    n, k = g.n_nodes, int(landmarks.size)
    dist = np.full((n, k), -1, dtype=np.int64)
    cols = np.arange(k)
    dist[landmarks, cols] = 0
    front = np.zeros((n, k), dtype=np.float32)
    front[landmarks, cols] = 1.0
    level = 0
    while True:
        level += 1
        reached = (a @ front > 0) & (dist < 0)
        if not reached.any():
            break
        dist[reached] = level
        front = reached.astype(np.float32)
    dist[dist < 0] = dist.max(initial=0) + 1 if unreachable is None else unreachable
    return dist


__all__ = [
    "MODES",
    "TIES",
    "TIE_WEIGHT",
    "degree_agreement",
    "distance_vector",
    "match_blocks",
    "seed_distances",
]
