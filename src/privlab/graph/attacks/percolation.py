"""Percolation graph matching (YG): a pair with r marks from matched neighbour pairs is matched.

Source: Yartseva & Grossglauser, *On the performance of percolation graph matching*, COSN
2013, Algorithm 1 (PGM), cited by seed 004 §2.13 (Sharad's thesis L401 and its Table 5.9
row YG).  The conflict rule (a pair whose node is already matched is dropped) is the one of
the practical PGM of Kazemi, Hassani & Grossglauser (PVLDB 8(10), 2015), which the
COSN paper's analysis leaves out (there, conflicting pairs are rare enough to ignore).

The rule.  The matching M starts as the seeds; a pool A of pairs to *use* starts as the
seeds too.  While A is not empty: take a pair [i, j] of A (by ``order``, below); if it is
not a seed and i or j is already matched, drop it; otherwise match it (seeds are matched
from the start) and *use* it: every pair [i′, j′] of unmatched nodes with i′ ~ i in G1
and j′ ~ j in G2 gets one mark, and a pair reaching r marks (``r``, the paper's
threshold; 2 by default) joins A.  The attack stops when A is empty.  So a pair is matched
only with r matched neighbour pairs behind it.

The order of use (``order``).  ``"random"``: a uniform draw from A (``seed``), the COSN
paper's PGM.  ``"most-marks"`` (the default): the seeds first, then always the unmatched
pair of A with the most marks, as the practical percolation of Kazemi, Hassani &
Grossglauser (*Growing a graph matching from a handful of seeds*, PVLDB 8(10), 2015: the
pair with the highest score is matched next).  Ties are broken by the smallest
|deg₁(i) − deg₂(j)|, then the smallest key i·|V2| + j (privlab's choice), so the run is
deterministic and ``seed`` is unused.  most-marks is the default because it is far more
accurate on ego-Facebook from top-degree seeds (90/90 SecGraph pair, 50 seeds, r = 3:
2,154 correct of 2,703 mapped against 61 of 1,993; docs/graph/seeded-attacks.md): the
random order matches pairs of nodes that merely share two or three hub neighbours long
before the true pairs, which collect many more marks, are drawn.

SecGraph's ``deAnonymize.Percolation`` is not this: it matches a pair the moment its count
*exceeds* its ``-nKeep`` while marks are being spread (and stops spreading that node's), and
draws with an unseeded ``java.util.Random``; privlab follows the paper
(docs/graph/seeded-attacks.md).

Cost: using [i, j] costs O(deg₁(i)·deg₂(j)); in all O(Σ over used pairs of deg₁·deg₂)
time.  most-marks also keeps, for each G1 node, its best pool pair: using [i, j] updates
the rows of i's unmatched neighbours from the block it marks (no extra factor), and the rows
whose best column was j are rescanned, O(|V2|) each, only once their stale score reaches the
top; picking the next pair is O(|V1|).  On the ego-Facebook 90/90 pair (50 seeds, r = 3)
that is 0.3–0.45 s of CPU where the former full rescan of every marked row took 2.1–2.4 s,
with the same matching (docs/graph/percolation-speed.md).  The marks are a dense
|V1| × |V2| table of small counters (random: one byte while r < 255, a count stops at r;
most-marks: the full count, one or two bytes by the smaller maximum degree, eight past
65,534), so memory is |V1|·|V2| bytes or twice that; graphs whose product exceeds
``max_cells`` are refused with an InputError rather than exhausting memory.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.graph.attacks.seeded import MatchingResult, initial_maps, prepare, result
from privlab.graph.core import Graph
from privlab.progress import ProgressFn
from privlab.validate import check_choice, check_int

MAX_CELLS = 400_000_000
ORDERS = ("most-marks", "random")


def percolate(
    g1: Graph,
    g2: Graph,
    seeds: Any,
    *,
    r: int = 2,
    order: str = "most-marks",
    seed: int | np.random.Generator | None = None,
    truth: Any = None,
    progress: ProgressFn | None = None,
    max_cells: int = MAX_CELLS,
) -> MatchingResult:
    """Percolation graph matching of G1 into G2 from ``seeds`` (module docstring).

    ``r`` (≥ 1): the marks a pair needs.  ``order``: ``"most-marks"`` (default; the pool
    pair with the most marks first, deterministic) or ``"random"`` (the COSN paper's
    uniform draw).  ``seed``: the random order of use for ``"random"`` (None: fresh
    randomness).  ``seeds`` and ``truth`` as in
    :func:`~privlab.graph.attacks.propagation.propagate`.  ``rounds`` in the result: the
    pairs used (seeds included).  ``progress(done, total)``: G1 nodes mapped of |V1|,
    every 1,024 pairs used.
    """
    t0 = time.perf_counter()
    rr = check_int(r, "r", 1, "the marks (matched neighbour pairs) a pair needs")
    cap = check_int(max_cells, "max_cells", 1)
    check_choice(order, "order", ORDERS)
    g1, g2, s, tr = prepare(g1, g2, seeds, truth, "percolation")
    n1, n2 = g1.n_nodes, g2.n_nodes
    if n1 * n2 > cap:
        raise InputError(
            f"percolation keeps a mark counter per pair: {n1:,} × {n2:,} = {n1 * n2:,} pairs "
            f"is over max_cells = {cap:,}; raise max_cells if the memory is there"
        )
    rng = np.random.default_rng(seed)
    map12, map21 = initial_maps(n1, n2, s)
    if rr > min(int(g1.degrees().max(initial=0)), int(g2.degrees().max(initial=0))):
        # a pair has at most min(deg) marks: none can reach r, only the seeds are matched
        return result(map12, s, tr, method="percolation", rounds=int(s.shape[0]),
                      seconds=time.perf_counter() - t0,
                      parameters={"r": rr, "order": order})  # fmt: skip
    if order == "most-marks":
        used = _most_marks(g1, g2, s, rr, map12, map21, progress)
        return result(map12, s, tr, method="percolation", rounds=used,
                      seconds=time.perf_counter() - t0,
                      parameters={"r": rr, "order": order})  # fmt: skip
    marks = np.zeros((n1, n2), dtype=np.uint8 if rr < 255 else np.int64)
    ip1, ix1, ip2, ix2 = g1.indptr, g1.indices, g2.indptr, g2.indices
    pool = _Pool(s[:, 0] * n2 + s[:, 1])
    used = 0
    while pool.size:
        key = pool.draw(rng)
        i, j = divmod(key, n2)
        if map12[i] != j:  # not a seed (seeds are matched from the start)
            if map12[i] >= 0 or map21[j] >= 0:
                pool.conflicts += 1
                if pool.conflicts > 64 + pool.size // 8:  # drop every conflicting pair
                    pool.keep(map12, map21, n2)
                continue
            map12[i] = j
            map21[j] = i
        used += 1
        rows = ix1[ip1[i] : ip1[i + 1]]
        rows = rows[map12[rows] < 0]
        cols = ix2[ip2[j] : ip2[j + 1]]
        cols = cols[map21[cols] < 0]
        if rows.size and cols.size:
            cell = np.ix_(rows, cols)
            sub = marks[cell]
            ra, cb = np.nonzero(sub == rr - 1)  # these reach r now
            marks[cell] = np.minimum(sub + 1, rr)
            pool.add(rows[ra] * n2 + cols[cb])
        if progress is not None and used % 1024 == 0:
            progress(int(np.count_nonzero(map12 >= 0)), n1)
    params = {"r": rr, "order": order}
    return result(map12, s, tr, method="percolation", rounds=used,
                  seconds=time.perf_counter() - t0, parameters=params)  # fmt: skip


def _most_marks(
    g1: Graph,
    g2: Graph,
    s: np.ndarray,
    rr: int,
    map12: np.ndarray,
    map21: np.ndarray,
    progress: ProgressFn | None,
) -> int:
    """Use the seeds, then always the pool pair with the most marks (ties: smallest
    |deg₁ − deg₂|, then smallest key); fills ``map12``/``map21`` in place and returns the
    pairs used.

    A pair's *score* is marks·span − |deg₁ − deg₂| (span exceeds every degree difference), so
    the order of use is (largest score, smallest i, smallest j), and a score above
    (r − 1)·span means ≥ r marks.  Each G1 row keeps its best pair (``score``, ``best``: the
    smallest column among equal scores).  Using [i, j] adds a mark to the block
    R × C (R, C: the unmatched neighbours of i and j) and updates the rows of R from the
    block alone, since no other cell of theirs changed: O(|R|·|C|).  The rows whose best was
    j lose it; they are only flagged (``dirty``: their score is then an upper bound) and
    rescanned in full, O(|V2|) each, when such a bound reaches the top.  So picking the next
    pair is an argmax over |V1| bounds plus the rescans it needs."""
    n1, n2 = g1.n_nodes, g2.n_nodes
    d1 = g1.degrees().astype(np.int64)
    d2 = g2.degrees().astype(np.int64)
    top = int(min(d1.max(initial=0), d2.max(initial=0)))  # no pair has more marks
    span = int(max(d1.max(initial=0), d2.max(initial=0))) + 1  # > any |deg₁ − deg₂|
    dtype = np.uint8 if top < 255 else np.uint16 if top < 65_535 else np.int64
    sdt = np.int32 if (top + 1) * span < 2**31 else np.int64  # holds any score
    marks = np.zeros((n1, n2), dtype=dtype)
    flat = marks.reshape(-1)
    d1s, d2s = d1.astype(sdt), d2.astype(sdt)
    valid = (rr - 1) * span  # a score above this has ≥ r marks
    score = np.full(n1, -1, dtype=np.int64)  # a row's best score (a bound if dirty), or −1
    best = np.full(n1, -1, dtype=np.int64)  # … and its column
    dirty = np.zeros(n1, dtype=bool)
    free1, free2 = map12 < 0, map21 < 0
    ip1, ix1, ip2, ix2 = g1.indptr, g1.indices, g2.indptr, g2.indices

    def use(i: int, j: int) -> None:
        rows = ix1[ip1[i] : ip1[i + 1]]
        rows = rows[free1[rows]]
        cols = ix2[ip2[j] : ip2[j + 1]]  # sorted: argmax takes the smallest column of ties
        cols = cols[free2[cols]]
        if not (rows.size and cols.size):
            return
        cell = (rows * n2)[:, None] + cols
        sub = flat[cell]
        sub += 1  # never past ``top``: ≤ min(deg) marks
        flat[cell] = sub
        sc = sub.astype(sdt)
        sc *= span
        dd = np.subtract.outer(d1s[rows], d2s[cols])
        sc -= np.abs(dd, out=dd)
        at = sc.argmax(axis=1)
        k = sc[np.arange(rows.size), at].astype(np.int64)
        c = cols[at]
        old = score[rows]
        up = (k > valid) & ((k > old) | ((k == old) & (c < best[rows])))
        score[rows[up]] = k[up]
        best[rows[up]] = c[up]

    chunk = max(1, (1 << 22) // max(n2, 1))  # rows rescanned at a time: ≤ 2²² scores

    def rescan(rows: np.ndarray) -> None:
        dirty[rows] = False
        taken = ~free2
        for at in range(0, rows.size, chunk):
            part = rows[at : at + chunk]
            sc = marks[part].astype(sdt)
            sc *= span
            dd = np.subtract.outer(d1s[part], d2s)
            sc -= np.abs(dd, out=dd)
            sc[:, taken] = valid  # never valid
            col = sc.argmax(axis=1)
            k = sc[np.arange(part.size), col].astype(np.int64)
            ok = k > valid
            score[part] = np.where(ok, k, -1)
            best[part] = np.where(ok, col, -1)

    for i, j in s.tolist():  # the seeds (matched from the start) are used first
        use(i, j)
    used = int(s.shape[0])
    while True:
        i = int(score.argmax())  # the smallest i among ties
        if score[i] < 0:
            break
        if dirty[i]:  # a bound on top: rescan every bound that reaches the best exact score
            exact = score[~dirty].max(initial=-1)
            rescan(np.flatnonzero(dirty & (score >= max(exact, 0))))
            continue
        j = int(best[i])
        map12[i] = j
        map21[j] = i
        free1[i] = free2[j] = False
        score[i] = best[i] = -1
        dirty[best == j] = True
        used += 1
        use(i, j)
        if progress is not None and used % 1024 == 0:
            progress(int(np.count_nonzero(map12 >= 0)), n1)
    return used


class _Pool:
    """The pairs to use, as keys i·|V2| + j, drawn uniformly and removed in O(1)."""

    def __init__(self, keys: np.ndarray) -> None:
        self.buf = np.array(keys, dtype=np.int64)
        self.size = int(self.buf.size)
        self.conflicts = 0

    def add(self, keys: np.ndarray) -> None:
        need = self.size + keys.size
        if need > self.buf.size:
            grown = np.empty(max(2 * self.buf.size, need, 64), dtype=np.int64)
            grown[: self.size] = self.buf[: self.size]
            self.buf = grown
        self.buf[self.size : need] = keys
        self.size = need

    def draw(self, rng: np.random.Generator) -> int:
        k = int(rng.integers(self.size))
        key = int(self.buf[k])
        self.size -= 1
        self.buf[k] = self.buf[self.size]
        return key

    def keep(self, map12: np.ndarray, map21: np.ndarray, n2: int) -> None:
        """Remove the pairs that can no longer be matched (a node of theirs is taken);
        the seeds stay until drawn.  The next draw is still uniform over the rest."""
        live = self.buf[: self.size]
        i, j = np.divmod(live, n2)
        ok = (map12[i] == j) | ((map12[i] < 0) & (map21[j] < 0))
        live = live[ok]
        self.buf[: live.size] = live
        self.size = int(live.size)
        self.conflicts = 0


__all__ = ["MAX_CELLS", "ORDERS", "percolate"]
