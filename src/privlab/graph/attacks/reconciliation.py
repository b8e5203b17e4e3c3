"""Korula–Lattanzi user matching (KL): reconcile two graphs from seed links by witnesses.

Source: Korula & Lattanzi, *An efficient reconciliation algorithm for social networks*,
PVLDB 7(5), 2014, Algorithm 1 ("User-Matching"), cited by seed 004 §2.13 (Sharad's thesis
L399; its Table 5.9 row KL, run through SecGraph).  SecGraph's version
(``deAnonymize.UserMatching``, Ji et al., USENIX Security 2015) is a different algorithm;
it is available as ``variant="secgraph"`` (below and docs/graph/seeded-attacks.md).

**The paper's algorithm** (the default).  A *similarity witness* for a pair (u, v), u in
G1 and v in G2, both unmatched, is a matched pair (u′, v′) — a seed or an earlier match —
with u′ ~ u in G1 and v′ ~ v in G2; score(u, v) is their number.  One *sweep* runs the
degree buckets j = ⌊log₂ D⌋, …, 1 (D the largest degree of either graph): in step j only
the pairs with deg₁(u) ≥ 2^j and deg₂(v) ≥ 2^j are scored, and every such pair that is
*the* highest-scoring pair in which u or v appears (strictly above every other scored pair
of u and every other of v) with score ≥ T (``threshold``) is matched.  These pairs are
disjoint by construction, so a step adds them all at once.  Sweeps repeat ``iterations``
times (the paper's k), or, with ``iterations=None``, until a sweep matches nothing.  Ties
are never broken: a pair tied with another of its u or v waits for a later step (a
witness more) or stays unmatched — this is what keeps identical graphs error-free.
Nodes of degree < 2 are never matched (the last bucket is 2^1).

Cost: one step is one sparse product W = A₁[E₁, M₁] · A₂[M₂, E₂] (E the eligible unmatched
nodes, M the matched pairs), O(Σ_{u ∈ E₁} Σ_{u′ ~ u matched} deg₂(map u′)) time and memory
O(nnz W); a sweep has ⌊log₂ D⌋ steps.

**SecGraph's variant** (``variant="secgraph"``, its ``Reconciliation`` / ``UserMatching``).
The unmatched nodes of each graph are listed by decreasing degree (ties in the order of a
Java ``HashSet`` of Integers, which this module reproduces: by bucket v ^ (v >>> 16) mod the
set's capacity, then by id).  A window holds the first ``window`` nodes of each list (its
``-nTest``); the pair of the window with the most witnesses is matched (the first such in
list order; with *no* threshold, so pairs with 0 witnesses are matched too), the window is
refilled, and so on.  When fewer than ``window`` nodes remain, SecGraph's loop moves only
half of them into the window (``for (i = 0; i < list.size(); i++) list.pollFirst()``) and
matches the window out before taking the next half; this too is reproduced.  Every node
ends up matched (SecGraph's m_out = m_tot, seed 004 §3.5).  SecGraph requires the two
graphs to have as many unmatched nodes; here the shorter list simply runs out first.
SecGraph has no default ``-nTest`` and REFERENCE_RESULTS.md does not record the one behind its
590 / 4,039; 50 (the default here) gives 626 on privlab's ego-Facebook 90 % pair, 20 gives
470 (docs/graph/seeded-attacks.md).
Cost: O(n · window²) for the window argmaxes plus O(Σ deg) per match to update the window.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import numpy as np

from privlab.graph.attacks.seeded import MatchingResult, initial_maps, prepare, result
from privlab.graph.core import Graph
from privlab.progress import ProgressFn
from privlab.validate import check_choice, check_int

VARIANTS = ("paper", "secgraph")


def reconcile(
    g1: Graph,
    g2: Graph,
    seeds: Any,
    *,
    threshold: int = 2,
    iterations: int | None = None,
    variant: str = "paper",
    window: int = 50,
    truth: Any = None,
    progress: ProgressFn | None = None,
) -> MatchingResult:
    """Korula–Lattanzi reconciliation of G1 into G2 from ``seeds`` (module docstring).

    ``threshold`` (T ≥ 1): the fewest witnesses a match needs (paper variant).
    ``iterations``: the number of sweeps over the degree buckets (None: until one sweep
    adds nothing).  ``variant``: ``"paper"`` or ``"secgraph"`` (then ``window`` is
    SecGraph's ``-nTest`` and ``threshold``/``iterations`` do not apply).  ``seeds`` and
    ``truth`` as in :func:`~privlab.graph.attacks.propagation.propagate`.
    ``progress(done, total)``: G1 nodes mapped of |V1|.  ``rounds`` in the result: sweeps
    (paper) or window argmaxes (secgraph).
    """
    t0 = time.perf_counter()
    check_choice(variant, "variant", VARIANTS)
    g1, g2, s, tr = prepare(g1, g2, seeds, truth, "reconciliation")
    if variant == "secgraph":
        w = check_int(window, "window", 1, "SecGraph's -nTest, the nodes compared per side")
        map12, rounds = _secgraph(g1, g2, s, w, progress)
        params: dict[str, Any] = {"variant": variant, "window": w}
    else:
        t = check_int(threshold, "threshold", 1, "the fewest similarity witnesses a match needs")
        k = None if iterations is None else check_int(iterations, "iterations", 1)
        map12, rounds = _paper(g1, g2, s, t, k, progress)
        params = {"variant": variant, "threshold": t, "iterations": k}
    return result(map12, s, tr, method="reconciliation", rounds=rounds,
                  seconds=time.perf_counter() - t0, parameters=params)  # fmt: skip


# ============================================================================ the paper
def _paper(g1, g2, s, threshold, iterations, progress):
    n1 = g1.n_nodes
    map12, map21 = initial_maps(n1, g2.n_nodes, s)
    a1 = g1.to_scipy().tocsr().astype(np.int32)
    a2 = g2.to_scipy().tocsr().astype(np.int32)
    d1, d2 = g1.degrees(), g2.degrees()
    top = int(max(d1.max(initial=0), d2.max(initial=0)))
    buckets = [2**j for j in range(top.bit_length() - 1, 0, -1)]  # 2^⌊log2 D⌋ … 2
    sweeps = version = 0
    seen = dict.fromkeys(buckets, -1)  # the version each bucket was last scored at
    while iterations is None or sweeps < iterations:
        sweeps += 1
        added = 0
        for t in buckets:
            if seen[t] == version:  # nothing matched since: the step would add nothing
                continue
            seen[t] = version
            new = _step(a1, a2, d1, d2, map12, map21, t, threshold)
            if new:  # and this bucket is scored again next sweep
                added += new
                version += 1
            if progress is not None:
                progress(int(np.count_nonzero(map12 >= 0)), n1)
        if not added:
            break
    return map12, sweeps


def _step(a1, a2, d1, d2, map12, map21, t, threshold) -> int:
    """One degree bucket: match every pair that is the strict best of its u and its v."""
    e1 = np.flatnonzero((map12 < 0) & (d1 >= t))
    e2 = np.flatnonzero((map21 < 0) & (d2 >= t))
    m1 = np.flatnonzero(map12 >= 0)
    if not (e1.size and e2.size and m1.size):
        return 0
    w = (a1[e1][:, m1] @ a2[map12[m1]][:, e2]).tocsr()
    if not w.nnz:
        return 0
    x = w.data
    keep = x >= threshold  # a row (column) whose best is below T matches nothing anyway
    r = np.repeat(np.arange(e1.size), np.diff(w.indptr))[keep]
    c, x = w.indices[keep], x[keep]
    rmax = np.zeros(e1.size, dtype=x.dtype)
    cmax = np.zeros(e2.size, dtype=x.dtype)
    np.maximum.at(rmax, r, x)
    np.maximum.at(cmax, c, x)
    at_r, at_c = x == rmax[r], x == cmax[c]
    rcount = np.bincount(r[at_r], minlength=e1.size)
    ccount = np.bincount(c[at_c], minlength=e2.size)
    ok = at_r & at_c & (rcount[r] == 1) & (ccount[c] == 1)
    u, v = e1[r[ok]], e2[c[ok]]
    map12[u] = v
    map21[v] = u
    return int(u.size)


# ============================================================================ SecGraph
def java_hash_order(nodes: np.ndarray) -> np.ndarray:
    """``nodes`` (ids ≥ 0) in the iteration order of a Java ``HashSet<Integer>`` filled in
    ascending id order: by bucket (h ^ h >>> 16) & (capacity − 1), then by id; the capacity
    is the smallest power of two ≥ 16 with size ≤ 0.75 · capacity.  (Buckets of 8 or more
    colliding ids, which Java may turn into trees, keep their insertion order too.)"""
    nodes = np.sort(np.asarray(nodes, dtype=np.int64))
    cap = 16
    while nodes.size > 0.75 * cap:
        cap *= 2
    bucket = (nodes ^ (nodes >> 16)) & (cap - 1)
    return nodes[np.lexsort((nodes, bucket))]


def secgraph_order(g: Graph, free: np.ndarray) -> list[int]:
    """SecGraph's ``getNodesInDegreeSortedOrder``: by decreasing degree, each degree's
    nodes in Java hash-set order."""
    deg = g.degrees()
    nodes = np.flatnonzero(free)
    out: list[int] = []
    for d in np.unique(deg[nodes])[::-1]:
        out.extend(java_hash_order(nodes[deg[nodes] == d]).tolist())
    return out


class _Window:
    """The two candidate lists and their witness counts, in ``cap`` slots per side.

    ``w[a, b]`` counts the witnesses of (the node in slot a of G1, the node in slot b of
    G2), −1 for an empty slot; ``stamp`` is each slot's arrival, so the lists' order (an
    ArrayList: appended at the end, removed in place) is the order of the stamps."""

    def __init__(self, g1: Graph, g2: Graph, map12: np.ndarray, map21: np.ndarray, cap: int):
        self.g = (g1, g2)
        self.maps = (map12, map21)
        self.pos = (np.full(g1.n_nodes, -1, dtype=np.int64), np.full(g2.n_nodes, -1, np.int64))
        self.node = (np.full(cap, -1, dtype=np.int64), np.full(cap, -1, dtype=np.int64))
        self.stamp = (np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64))
        self.free: tuple[list[int], list[int]] = (list(range(cap))[::-1], list(range(cap))[::-1])
        self.size = [0, 0]
        self.clock = 0
        self.w = np.full((cap, cap), -1, dtype=np.int64)

    def add(self, side: int, x: int) -> None:
        """Append node x of G1 (side 0) or G2 (side 1) to its list."""
        other = 1 - side
        slot = self.free[side].pop()
        self.pos[side][x] = slot
        self.node[side][slot] = x
        self.clock += 1
        self.stamp[side][slot] = self.clock
        self.size[side] += 1
        # witnesses against the other list: neighbours of the images of x's mapped neighbours
        img = self.maps[side][self.g[side].neighbors(x)]
        img = img[img >= 0]
        g = self.g[other]
        from privlab.graph.attacks.propagation import _gather

        at = self.pos[other][_gather(g.indptr, g.indices, img)] if img.size else img
        counts = np.bincount(at[at >= 0], minlength=self.w.shape[0])
        counts[self.node[other] < 0] = -1
        if side == 0:
            self.w[slot, :] = counts
        else:
            self.w[:, slot] = counts

    def match_best(self) -> tuple[int, int]:
        """Match the first pair (in list order) with the most witnesses."""
        top = self.w.max()
        a, b = np.nonzero(self.w == top)
        k = int(np.lexsort((self.stamp[1][b], self.stamp[0][a]))[0])
        i, j = int(a[k]), int(b[k])
        u, v = int(self.node[0][i]), int(self.node[1][j])
        map12, map21 = self.maps
        map12[u] = v
        map21[v] = u
        for side, slot, x in ((0, i, u), (1, j, v)):
            self.pos[side][x] = -1
            self.node[side][slot] = -1
            self.free[side].append(slot)
            self.size[side] -= 1
        self.w[i, :] = -1
        self.w[:, j] = -1
        near1 = self.pos[0][self.g[0].neighbors(u)]  # (u, v) now witnesses these pairs
        near2 = self.pos[1][self.g[1].neighbors(v)]
        near1, near2 = near1[near1 >= 0], near2[near2 >= 0]
        if near1.size and near2.size:
            self.w[np.ix_(near1, near2)] += 1
        return u, v


def _secgraph(g1, g2, s, window, progress):
    n1 = g1.n_nodes
    map12, map21 = initial_maps(n1, g2.n_nodes, s)
    l1 = deque(secgraph_order(g1, map12 < 0))
    l2 = deque(secgraph_order(g2, map21 < 0))
    win = _Window(g1, g2, map12, map21, max(1, min(window, len(l1), len(l2))))
    size = win.size
    steps = 0

    def match() -> None:
        nonlocal steps
        win.match_best()
        steps += 1
        if progress is not None and steps % 256 == 0:
            progress(int(np.count_nonzero(map12 >= 0)), n1)

    while l1 and l2:
        if size[0] + len(l1) > window and size[1] + len(l2) > window:
            while size[0] < window and l1 and l2:
                win.add(0, l1.popleft())
                win.add(1, l2.popleft())
            match()
        else:
            i = 0
            while i < len(l1) and l2:  # SecGraph's loop: moves half of what is left
                win.add(0, l1.popleft())
                win.add(1, l2.popleft())
                i += 1
            while size[0] and size[1]:
                match()
    while size[0] and size[1]:  # one list ran out (unequal node counts): match the window
        match()
    return map12, steps


__all__ = ["VARIANTS", "java_hash_order", "reconcile", "secgraph_order"]
