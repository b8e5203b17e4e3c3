"""Node and pair features of Sharad's learned de-anonymization (neighbourhood degree histograms).

Source: seed 004 §2.7 (Sharad, *Learning to de-anonymize social networks*, Cambridge TR-896:
§3.3.3 L622–633, §3.4.4 L800, §4.2.3 L1023–1027, §5.3.2 L1420–1431) and §2.6 (the pair
feature, Eq. 3.3 L645).

**Node features.**  A node is described by binned histograms of the degrees of the nodes in
its neighbourhood "blocks": block h counts the nodes at distance exactly h (h = 1: the
neighbours; h = 2: the nodes at distance 2, i.e. the pattern of A² minus A minus I).  A node
of degree d goes to bin i with i·b < d ≤ (i+1)·b; degrees above n·b go to the last bin and
degree 0 (never a neighbour's degree, but possible for a 3-hop count) to bin 0.  Defaults:
Chapter 4, n = 21, b = 50, blocks (1-hop, 2-hop); 1HKA uses ``blocks=(2, 3)`` (L1202).

*The seed's worked example is inconsistent* (seed §2.7, "My check"): the degrees
{1,1,3,3,5,6,7,13,16,20,21,30,65,69,72,1030,1100} with n = 70, b = 15 are printed as
(8,4,0,0,3,0,…,0,2), but by the formula 1030 lands in bin 68 (1020 < 1030 ≤ 1035), so the
vector is (8,4,0,0,3,0,…,0,1,1).  This module implements the formula.

**Directed graphs** (Chapter 5, L1420–1431): six categories — successors, predecessors,
successors of successors, successors of predecessors, predecessors of successors,
predecessors of predecessors — each with an in-degree and an out-degree histogram: 12
blocks, default (n, b) = (7, 50).  The seed does not say whether a 2-step category keeps the
node itself or its direct neighbours; here it does not (a 2-step category is reached by that
path pattern and lies at distance exactly 2 in the underlying undirected graph), so a
symmetric directed graph gets the undirected 2-hop histogram in each 2-step block.

**Pair features** (§2.6, Eq. 3.3): for u in graph A and v in graph B, with x = u's vector
and y = v's, δ(x_i, y_j) = 0 if x_i = y_j = 0, else |x_i − y_j| / max(x_i, y_j), for all
n² cross-bin pairs (i, j) *within* a block (a 1-hop bin is never paired with a 2-hop bin),
then δ of the 1-hop neighbour counts (the degrees, Chapter 4's "silhouette coefficient of
degrees") and δ of the 2-hop neighbour counts (Chapter 5, L1424–1427).  Layout: feature
``b·n² + i·n + j`` is block b's (i, j); the last two are the two count features, so
Chapter 4 has 2·21² + 2 = 884 features.

**Quantization.**  The thesis searches the split threshold τ over {0, 0.05, …, 1} with the
rule δ ≤ τ.  For τ = k/20, δ ≤ τ ⇔ 20δ ≤ k ⇔ ⌈20δ⌉ ≤ k, so storing the *code*
c = ⌈20δ⌉ ∈ {0, …, 20} (or q = c/20) loses nothing: a continuous-threshold tree learner
on c (or q) can only split between consecutive codes, which is exactly a grid split.  The
code is computed as ⌈(20·|x−y|) / max(x, y) − 10⁻⁹⌉ in float64: the single division of
two integers is correctly rounded, so an exact integer stays exact and a non-integer is at
least 1/max(x, y) ≫ 10⁻⁹ above the integer below it — the result equals the exact
⌈20δ⌉ for counts below 10⁸, and equals the seed's ⌈20·δ − 10⁻⁹⌉.

Complexity.  Histograms: O(n + m + Σ_v |S_h(v)|-work) — the 2-hop block costs the sparse
product A·A, Σ_w deg(w)² operations, done in row blocks of bounded work (``chunk_work``)
with a dense r × n mark matrix of bounded size (``mark_bytes``), so memory is
O(n·blocks·bins + chunk).  A 3-hop block costs Σ_v Σ_{w∈S_2(v)} deg(w).  Pair features:
O(pairs · features), produced in chunks (:func:`iter_pair_features`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np
from scipy import sparse

from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_int

#: Grid of split thresholds: τ ∈ {0, 1/GRID, …, 1} (seed 004 §2.6: steps of 0.05).
GRID = 20
#: Names of the 12 directed blocks, in order (seed 004 §2.7, Chapter 5).
DIRECTED_BLOCKS = (
    "succ_in", "succ_out", "pred_in", "pred_out",
    "ss_in", "ss_out", "sp_in", "sp_out",
    "ps_in", "ps_out", "pp_in", "pp_out",
)  # fmt: skip

_CHUNK_WORK = 1 << 21  # sparse-product operations per sub-block (small: memory reuse)
_MARK_BYTES = 1 << 26  # dense r × n mark matrix per row block
DEFAULT_CHUNK = 1 << 13  # pairs per feature chunk
_F32_EXACT = 1 << 19  # counts below this: float32 quantization is exact


# ============================================================================ validation
def _check_blocks(hops: Any, blocks: Any) -> tuple[int, ...]:
    if blocks is None:
        h = check_int(hops, "hops", 1, "the number of neighbourhood blocks 1..hops")
        return tuple(range(1, h + 1))
    try:
        bl = tuple(blocks)
    except TypeError:
        raise ConfigError(f"blocks = {blocks!r}: give distances such as (1, 2) or (2, 3)") from None
    if not bl or any(isinstance(b, bool) or not isinstance(b, Integral) or b < 1 for b in bl):
        raise ConfigError(f"blocks = {blocks!r}: give distinct distances ≥ 1, such as (1, 2)")
    if len(set(bl)) != len(bl) or list(bl) != sorted(bl):
        raise ConfigError(f"blocks = {blocks!r}: give distinct distances in increasing order")
    return tuple(int(b) for b in bl)


def degree_bins(degrees: np.ndarray, n_bins: int, bin_width: int) -> np.ndarray:
    """Bin of each degree d: i with i·b < d ≤ (i+1)·b, clipped to 0..n−1 (seed §2.7).  O(n)."""
    d = np.asarray(degrees, dtype=np.int64)
    return np.clip((d + bin_width - 1) // bin_width - 1, 0, n_bins - 1).astype(np.int32)


def histogram(values: Any, *, n_bins: int, bin_width: int) -> np.ndarray:
    """The binned histogram of one list of degrees (the seed's §2.7 vector).  O(len + n)."""
    n = check_int(n_bins, "n_bins", 1, "the number of histogram bins")
    b = check_int(bin_width, "bin_width", 1, "the degree range per bin")
    return np.bincount(degree_bins(np.asarray(values), n, b), minlength=n).astype(np.int32)


# ============================================================================ undirected
def degree_histograms(
    graph: Graph,
    *,
    n_bins: int = 21,
    bin_width: int = 50,
    hops: int = 2,
    blocks: Sequence[int] | None = None,
    chunk_work: int = _CHUNK_WORK,
    mark_bytes: int = _MARK_BYTES,
    n_jobs: int = 1,
) -> np.ndarray:
    """Per node, binned degree histograms of its exact-distance neighbourhoods.

    Seed 004 §2.7: returns an int32 array (n_nodes, len(blocks), n_bins); block k counts
    the nodes at distance exactly ``blocks[k]`` by their degree, bin i taking
    i·b < d ≤ (i+1)·b (degree above n·b: last bin; degree 0: bin 0).  ``blocks`` defaults
    to (1, …, hops), i.e. the 1-hop and 2-hop blocks; 1HKA uses ``blocks=(2, 3)``.  The
    seed's worked example disagrees with its own formula for degree 1030 (bin 68, not the
    last bin, with n = 70, b = 15); the formula is implemented — see the module docstring.

    Exact distances come from sparse products: S_1 = A, S_h = pattern(S_{h−1}·A) minus
    S_{h−1}, S_{h−2}, …, I, computed per row block (a dense mark matrix of ≤ ``mark_bytes``,
    products in sub-blocks of ≤ ``chunk_work`` operations; ``n_jobs`` threads run blocks).
    Cost O(Σ_h Σ_v Σ_{w∈S_{h−1}(v)} deg w), i.e. Σ_w deg(w)² for the 2-hop block.
    InputError for a directed graph (use :func:`directed_histograms`); ConfigError for
    n_bins or bin_width < 1 or bad blocks.
    """
    n_bins = check_int(n_bins, "n_bins", 1, "the number of histogram bins, e.g. 21")
    bin_width = check_int(bin_width, "bin_width", 1, "the degree range per bin, e.g. 50")
    bl = _check_blocks(hops, blocks)
    graph = as_graph(graph, "degree_histograms")
    if graph.directed:
        raise InputError(
            "degree_histograms needs an undirected graph; this one is directed — use "
            "directed_histograms (the 12 directed blocks of seed 004 §2.7) instead"
        )
    hist, _ = _undirected(graph, n_bins, bin_width, bl, check_int(chunk_work, "chunk_work", 1,
                          "product operations per sub-block"), check_int(mark_bytes,
                          "mark_bytes", 1, "bytes of the dense mark matrix"), count2=False,
                          n_jobs=check_int(n_jobs, "n_jobs", 1, "threads"))  # fmt: skip
    return hist


def _bool_csr(indptr: np.ndarray, indices: np.ndarray, n_rows: int, n_cols: int):
    idx_dtype = np.int32 if max(indices.size, n_cols) < 2**31 - 1 else np.int64
    return sparse.csr_array(
        (np.ones(indices.size, dtype=bool), indices.astype(idx_dtype, copy=False),
         indptr.astype(idx_dtype, copy=False)),
        shape=(n_rows, n_cols),
    )  # fmt: skip


def _row_blocks(work: np.ndarray, limit: int, max_rows: int) -> list[tuple[int, int]]:
    """Split rows 0..len−1 into consecutive blocks of total work ≤ limit (≥ 1 row each)."""
    n = work.size
    out: list[tuple[int, int]] = []
    cum = np.cumsum(work, dtype=np.int64)
    start = 0
    while start < n:
        base = cum[start - 1] if start else 0
        stop = int(np.searchsorted(cum, base + limit, side="right"))
        stop = min(max(stop, start + 1), start + max_rows, n)
        out.append((start, stop))
        start = stop
    return out


def _undirected(
    graph: Graph,
    n_bins: int,
    bin_width: int,
    blocks: tuple[int, ...],
    chunk_work: int,
    mark_bytes: int,
    *,
    count2: bool,
    n_jobs: int = 1,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Histograms for ``blocks`` and (if ``count2``) the number of 2-hop nodes per node."""
    n = graph.n_nodes
    deg = graph.degrees()
    bins = degree_bins(deg, n_bins, bin_width)
    want = {h: k for k, h in enumerate(blocks)}
    max_h = max(max(blocks), 2 if count2 else 1)
    hist = np.zeros((n, len(blocks), n_bins), dtype=np.int32)
    hop2 = np.zeros(n, dtype=np.int64) if count2 else None
    if n == 0:
        return hist, hop2
    rows = np.repeat(np.arange(n, dtype=np.int64), deg)
    if 1 in want:
        hist[:, want[1], :] = np.bincount(
            rows * n_bins + bins[graph.indices], minlength=n * n_bins
        ).reshape(n, n_bins)
    if max_h < 2 or graph.indices.size == 0:
        return hist, hop2
    adj = _bool_csr(graph.indptr, graph.indices, n, n)
    work2 = np.bincount(rows, weights=deg[graph.indices], minlength=n).astype(np.int64)
    max_rows = max(1, min(mark_bytes, 2**31 - 1) // n)

    def block(r0: int, r1: int) -> None:
        r = r1 - r0
        mark = np.zeros(r * n, dtype=bool)  # row-block × n, flat (r·n < 2³¹: int32 index)
        local = np.arange(r, dtype=np.int32)
        mark[local * n + np.arange(r0, r1, dtype=np.int32)] = True
        prev = adj[r0:r1]
        p_rows = np.repeat(local, np.diff(prev.indptr))
        mark[p_rows * np.int32(n) + prev.indices] = True
        for h in range(2, max_h + 1):
            acc = np.zeros(r * n_bins, dtype=np.int64) if h in want else None
            cnt = np.zeros(r, dtype=np.int64) if h == 2 and hop2 is not None else None

            def consume(rk, ck, acc=acc, cnt=cnt):
                if acc is not None:
                    key = rk * np.int32(n_bins)
                    key += bins[ck]
                    acc += np.bincount(key, minlength=r * n_bins)
                if cnt is not None:
                    cnt += np.bincount(rk, minlength=r)

            nxt = _next_level(prev, p_rows, adj, deg, mark, n, chunk_work, consume,
                              keep=h < max_h)  # fmt: skip
            if acc is not None:
                hist[r0:r1, want[h], :] = acc.reshape(r, n_bins)
            if cnt is not None:
                hop2[r0:r1] = cnt
            if nxt is not None:
                rows_h, cols_h = nxt
                mark[rows_h * np.int32(n) + cols_h] = True
                indptr = np.zeros(r + 1, dtype=np.int64)
                np.cumsum(np.bincount(rows_h, minlength=r), out=indptr[1:])
                prev = _bool_csr(indptr, cols_h, r, n)
                p_rows = rows_h

    _run_blocks(block, _row_blocks(work2 + 1, 16 * chunk_work, max_rows), n_jobs)
    return hist, hop2


def _run_blocks(fn, blocks: list[tuple[int, int]], n_jobs: int) -> None:
    """Run ``fn(r0, r1)`` over row blocks, in threads if n_jobs > 1 (they write disjoint rows;
    scipy's sparse products and numpy release the GIL)."""
    if n_jobs > 1 and len(blocks) > 1:
        from joblib import Parallel, delayed

        Parallel(n_jobs=n_jobs, prefer="threads")(delayed(fn)(a, b) for a, b in blocks)
    else:
        for a, b in blocks:
            fn(a, b)


def _next_level(prev, p_rows, adj, deg, mark, n, chunk_work, consume, *, keep: bool):
    """Stream the entries (row, col) of pattern(prev · adj) not in ``mark`` (flat r × n) to
    ``consume(rows, cols)`` in sub-blocks of ≤ chunk_work product operations; with ``keep``,
    also return them all (rows increasing), as int32 arrays."""
    r = prev.shape[0]
    work = np.bincount(p_rows, weights=deg[prev.indices], minlength=r).astype(np.int64)
    rows_out, cols_out = [], []
    for s0, s1 in _row_blocks(work + 1, chunk_work, r):
        prod = prev[s0:s1] @ adj
        cols = prod.indices.astype(np.int32, copy=False)
        rrep = np.repeat(np.arange(s0, s1, dtype=np.int32), np.diff(prod.indptr))
        flat = rrep * np.int32(n)
        flat += cols
        new = ~mark[flat]
        rk, ck = rrep[new], cols[new]
        consume(rk, ck)
        if keep:
            rows_out.append(rk)
            cols_out.append(ck)
    if not keep:
        return None
    if not rows_out:
        return np.empty(0, np.int32), np.empty(0, np.int32)
    return np.concatenate(rows_out), np.concatenate(cols_out)


# ============================================================================ directed
def directed_histograms(
    n_nodes: int,
    src: Any,
    dst: Any,
    *,
    n_bins: int = 7,
    bin_width: int = 50,
    chunk_work: int = _CHUNK_WORK,
    mark_bytes: int = _MARK_BYTES,
    n_jobs: int = 1,
) -> np.ndarray:
    """The 12 directed blocks of Sharad's Chapter 5 (seed 004 §2.7, L1420–1431).

    Edges ``src[k] → dst[k]`` on nodes 0..n_nodes−1 (repeated edges count once;
    self-loops are an error).  Returns int32 (n_nodes, 12, n_bins), blocks in the order of
    :data:`DIRECTED_BLOCKS`: for each category — successors, predecessors, successors of
    successors, successors of predecessors, predecessors of successors, predecessors of
    predecessors — the histogram of the members' in-degrees, then of their out-degrees.  A
    2-step category excludes the node itself and its successors and predecessors (see the
    module docstring).  Cost: four sparse products in row blocks, O(Σ_w (in_w + out_w)²).
    """
    hist, _, _ = _directed(n_nodes, src, dst, n_bins, bin_width,
                           check_int(chunk_work, "chunk_work", 1, "operations per sub-block"),
                           check_int(mark_bytes, "mark_bytes", 1, "bytes of the mark matrix"),
                           check_int(n_jobs, "n_jobs", 1, "threads"))  # fmt: skip
    return hist


def _directed_edges(n_nodes: Any, src: Any, dst: Any) -> tuple[int, np.ndarray, np.ndarray]:
    n = check_int(n_nodes, "n_nodes", 0, "the number of nodes")
    s = np.asarray(src).reshape(-1)
    d = np.asarray(dst).reshape(-1)
    if s.shape != d.shape:
        raise InputError(f"src has {s.size} entries and dst {d.size}; give one per edge")
    for name, a in (("src", s), ("dst", d)):
        if a.size and not np.issubdtype(a.dtype, np.integer):
            raise InputError(f"{name}: node ids must be integers, got dtype {a.dtype}")
        if a.size and (a.min() < 0 or a.max() >= n):
            bad = int(np.argmax((a < 0) | (a >= n)))
            raise InputError(f"{name}[{bad}] = {int(a[bad])} is not a node in 0..{n - 1}")
    s, d = s.astype(np.int64), d.astype(np.int64)
    if (s == d).any():
        bad = int(np.argmax(s == d))
        raise InputError(f"edge {bad} = ({int(s[bad])}, {int(d[bad])}) is a self-loop")
    return n, s, d


def _directed(n_nodes, src, dst, n_bins, bin_width, chunk_work, mark_bytes, n_jobs=1):
    n_bins = check_int(n_bins, "n_bins", 1, "the number of histogram bins, e.g. 7")
    bin_width = check_int(bin_width, "bin_width", 1, "the degree range per bin, e.g. 50")
    n, s, d = _directed_edges(n_nodes, src, dst)
    hist = np.zeros((n, 12, n_bins), dtype=np.int32)
    hop1 = np.zeros(n, dtype=np.int64)
    hop2 = np.zeros(n, dtype=np.int64)
    if n == 0:
        return hist, hop1, hop2
    out_a = sparse.csr_array((np.ones(s.size, dtype=bool), (s, d)), shape=(n, n))
    out_a.sum_duplicates()
    in_a = out_a.T.tocsr()
    in_a.sum_duplicates()
    out_deg = np.diff(out_a.indptr).astype(np.int64)
    in_deg = np.diff(in_a.indptr).astype(np.int64)
    bin_in = degree_bins(in_deg, n_bins, bin_width)
    bin_out = degree_bins(out_deg, n_bins, bin_width)

    def fill(block: int, rows: np.ndarray, cols: np.ndarray, r0: int, r: int) -> None:
        for off, bn in ((0, bin_in), (1, bin_out)):
            hist[r0 : r0 + r, block + off, :] = np.bincount(
                rows.astype(np.int64) * n_bins + bn[cols], minlength=r * n_bins
            ).reshape(r, n_bins)

    deg_of = {"out": out_deg, "in": in_deg}
    right = {"out": out_a, "in": in_a}
    # 2-step categories: (first step, second step) — succ-of-succ = out then out, etc.
    steps = (("out", "out"), ("in", "out"), ("out", "in"), ("in", "in"))
    work = np.zeros(n, dtype=np.int64)
    for first, second in steps:
        m = right[first]
        work += np.bincount(
            np.repeat(np.arange(n), np.diff(m.indptr)), weights=deg_of[second][m.indices],
            minlength=n,
        ).astype(np.int64)  # fmt: skip
    max_rows = max(1, min(mark_bytes, 2**31 - 1) // n)
    ni = np.int32(n)

    def block(r0: int, r1: int) -> None:
        r = r1 - r0
        local = np.arange(r, dtype=np.int32)
        base = np.zeros(r * n, dtype=bool)  # the node itself and its 1-hop nodes, flat
        base[local * ni + np.arange(r0, r1, dtype=np.int32)] = True
        firsts = {}
        for k, key in enumerate(("out", "in")):
            m = right[key][r0:r1]
            rows = np.repeat(local, np.diff(m.indptr))
            cols = m.indices.astype(np.int32, copy=False)
            firsts[key] = (m, rows)
            fill(2 * k, rows, cols, r0, r)
            base[rows * ni + cols] = True
        n_base = base.reshape(r, n).sum(axis=1)
        hop1[r0:r1] = n_base - 1
        union = base.copy()
        for k, (first, second) in enumerate(steps):
            m, rows = firsts[first]
            acc = [np.zeros(r * n_bins, np.int64), np.zeros(r * n_bins, np.int64)]

            def consume(rk, ck, acc=acc):
                for j, bn in enumerate((bin_in, bin_out)):
                    key = rk * np.int32(n_bins)
                    key += bn[ck]
                    acc[j] += np.bincount(key, minlength=r * n_bins)
                union[rk * ni + ck] = True

            _next_level(m, rows, right[second], deg_of[second], base, n, chunk_work, consume,
                        keep=False)  # fmt: skip
            for j in range(2):
                hist[r0:r1, 4 + 2 * k + j, :] = acc[j].reshape(r, n_bins)
        hop2[r0:r1] = union.reshape(r, n).sum(axis=1) - n_base

    _run_blocks(block, _row_blocks(work + 1, 16 * chunk_work, max_rows), n_jobs)
    return hist, hop1, hop2


# ============================================================================ node features
@dataclass(frozen=True, eq=False)
class NodeFeatures:
    """Per-node inputs of the pair features of one graph (seed 004 §2.7).

    ``hist``: int32 (n, n_blocks, n_bins); ``hop1``/``hop2``: the number of 1-hop and
    2-hop neighbours (in a directed graph: of the underlying undirected graph).
    """

    hist: np.ndarray
    hop1: np.ndarray
    hop2: np.ndarray
    directed: bool
    blocks: tuple[Any, ...]
    n_bins: int
    bin_width: int

    @property
    def n_nodes(self) -> int:
        return int(self.hist.shape[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_nodes": self.n_nodes,
            "directed": self.directed,
            "blocks": list(self.blocks),
            "n_bins": self.n_bins,
            "bin_width": self.bin_width,
        }


def node_features(
    graph: Graph,
    *,
    n_bins: int = 21,
    bin_width: int = 50,
    hops: int = 2,
    blocks: Sequence[int] | None = None,
    n_jobs: int = 1,
) -> NodeFeatures:
    """Histograms plus 1-hop/2-hop neighbour counts of every node of ``graph``.

    Undirected: :func:`degree_histograms` with ``blocks`` (default 1..hops); directed: the
    12 blocks of :func:`directed_histograms` (``hops``/``blocks`` are then ignored — pass
    n_bins=7, bin_width=50 for the seed's Chapter 5 setting).  ``n_jobs`` threads share
    the row blocks.  Same cost as those.
    """
    graph = as_graph(graph, "node_features")
    jobs = check_int(n_jobs, "n_jobs", 1, "threads for the row blocks")
    if graph.directed:
        src = np.repeat(np.arange(graph.n_nodes, dtype=np.int64), graph.degrees())
        hist, hop1, hop2 = _directed(
            graph.n_nodes, src, graph.indices, n_bins, bin_width, _CHUNK_WORK, _MARK_BYTES, jobs
        )
        return NodeFeatures(hist, hop1, hop2, True, DIRECTED_BLOCKS, int(n_bins), int(bin_width))
    n_bins = check_int(n_bins, "n_bins", 1, "the number of histogram bins, e.g. 21")
    bin_width = check_int(bin_width, "bin_width", 1, "the degree range per bin, e.g. 50")
    bl = _check_blocks(hops, blocks)
    hist, hop2 = _undirected(
        graph, n_bins, bin_width, bl, _CHUNK_WORK, _MARK_BYTES, count2=True, n_jobs=jobs
    )
    return NodeFeatures(hist, graph.degrees().astype(np.int64), hop2, False, bl, n_bins, bin_width)


# ============================================================================ pair features
def delta(x: Any, y: Any) -> np.ndarray:
    """δ(x, y) = 0 if x = y = 0 else |x − y| / max(x, y) (seed 004 §2.6, Eq. 3.3), float64."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    mx = np.maximum(x, y)
    return np.divide(np.abs(x - y), mx, out=np.zeros(np.broadcast(x, y).shape), where=mx > 0)


def quantize(d: Any) -> np.ndarray:
    """q = ⌈20·δ − 10⁻⁹⌉ / 20: the grid value with δ ≤ τ ⇔ q ≤ τ for τ ∈ {0, 0.05, …, 1}."""
    return np.ceil(np.asarray(d, dtype=np.float64) * GRID - 1e-9).clip(0, GRID) / GRID


def delta_codes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Integer codes c = ⌈20·δ(x, y)⌉ ∈ 0..20 (uint8) of non-negative integer counts.

    Exact (module docstring, "Quantization"): the one division 20·|x−y| / max(x, y) is
    correctly rounded, so an integer quotient stays exact and a non-integer one k + r/max
    (r ≥ 1) stays above k — in float32 while max(x, y) < 2¹⁹, else in float64 (exact below
    10⁸ counts).  O(size).
    """
    x = np.asarray(x)
    y = np.asarray(y)
    big = max(int(x.max(initial=0)), int(y.max(initial=0)))
    ft = np.float32 if big < _F32_EXACT else np.float64
    it = np.int32 if big < 2**26 else np.int64
    xi = x.astype(it, copy=False)
    yi = y.astype(it, copy=False)
    mx = np.maximum(xi, yi).astype(ft)
    diff = np.abs(xi - yi).astype(ft)
    diff *= GRID
    np.maximum(mx, 1, out=mx)  # x = y = 0: diff = 0, so δ = 0
    np.divide(diff, mx, out=diff)
    if ft is np.float64:
        diff -= 1e-9
    np.ceil(diff, out=diff)
    np.clip(diff, 0, GRID, out=diff)
    return diff.astype(np.uint8)


@dataclass(frozen=True)
class FeatureLayout:
    """Which node quantities each pair-feature column compares.

    Column c compares column ``a_col[c]`` of graph A's flat node table with column
    ``b_col[c]`` of graph B's; the flat table is the histogram (n_blocks·n_bins columns,
    block-major) followed by the 1-hop and the 2-hop count.
    """

    n_blocks: int
    n_bins: int
    block_names: tuple[str, ...]

    @property
    def n_features(self) -> int:
        return self.n_blocks * self.n_bins**2 + 2

    def columns(self) -> tuple[np.ndarray, np.ndarray]:
        nb, n = self.n_blocks, self.n_bins
        b, i, j = np.meshgrid(np.arange(nb), np.arange(n), np.arange(n), indexing="ij")
        a = (b * n + i).reshape(-1)
        c = (b * n + j).reshape(-1)
        tail = np.array([nb * n, nb * n + 1])
        return np.concatenate([a, tail]), np.concatenate([c, tail])

    def names(self) -> list[str]:
        """``'h1[i]~h1[j]'`` per histogram feature, then ``'hop1'``, ``'hop2'``."""
        n = self.n_bins
        out = [
            f"{name}[{i}]~{name}[{j}]"
            for name in self.block_names
            for i in range(n)
            for j in range(n)
        ]
        return [*out, "hop1", "hop2"]


def layout(n_blocks: int, n_bins: int, block_names: Sequence[str] | None = None) -> FeatureLayout:
    """The :class:`FeatureLayout` for n_blocks blocks of n_bins bins."""
    names = tuple(block_names) if block_names is not None else tuple(
        f"h{k + 1}" for k in range(n_blocks)
    )  # fmt: skip
    return FeatureLayout(int(n_blocks), int(n_bins), names)


def _flat(hist: np.ndarray, hop1: np.ndarray, hop2: np.ndarray, name: str) -> np.ndarray:
    h = np.asarray(hist)
    if h.ndim != 3:
        raise InputError(f"{name}: expected a (n_nodes, n_blocks, n_bins) histogram array")
    n = h.shape[0]
    c1 = np.asarray(hop1).reshape(-1)
    c2 = np.asarray(hop2).reshape(-1)
    if c1.size != n or c2.size != n:
        raise InputError(f"{name}: the neighbour counts must have one entry per node ({n})")
    flat = np.concatenate(
        [h.reshape(n, -1).astype(np.int64), c1[:, None].astype(np.int64),
         c2[:, None].astype(np.int64)], axis=1,
    )  # fmt: skip
    if flat.size and flat.min() < 0:
        raise InputError(f"{name}: histogram entries and counts must be ≥ 0")
    return flat.astype(np.int32) if flat.max(initial=0) < 2**31 - 1 else flat


def check_pairs(u: Any, v: Any, n_a: int, n_b: int, *, names=("u", "v")) -> tuple:
    """u, v as int64 arrays of equal length with ids in range, else InputError."""
    out = []
    for name, a, n in ((names[0], u, n_a), (names[1], v, n_b)):
        arr = np.asarray(a)
        if arr.ndim != 1:
            arr = arr.reshape(-1)
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            raise InputError(f"{name}: node ids must be integers, got dtype {arr.dtype}")
        arr = arr.astype(np.int64, copy=False)
        if arr.size and (arr.min() < 0 or arr.max() >= n):
            bad = int(np.argmax((arr < 0) | (arr >= n)))
            raise InputError(
                f"{name}[{bad}] = {int(arr[bad])} is not a node of its graph (ids 0..{n - 1})"
            )
        out.append(arr)
    if out[0].size != out[1].size:
        raise InputError(
            f"{names[0]} has {out[0].size} entries and {names[1]} {out[1].size}; "
            "give one entry of each per pair"
        )
    return out[0], out[1]


class PairFeatures:
    """Pair features between the nodes of graph A and graph B (seed 004 §2.6–2.7).

    Built from two :class:`NodeFeatures` with the same blocks and bins.  ``transform``
    returns float32 q-values (or uint8 codes c = 20·q with ``codes=True``) for the chosen
    ``columns`` (default: all :attr:`n_features`); ``iter_chunks`` yields them chunk by
    chunk so that 10⁶ pairs never materialize at once.  O(pairs · columns).
    """

    def __init__(self, a: NodeFeatures, b: NodeFeatures):
        if a.hist.shape[1:] != b.hist.shape[1:] or a.directed != b.directed:
            raise InputError(
                f"the two graphs' features differ in shape ({a.hist.shape[1:]} vs "
                f"{b.hist.shape[1:]}) or directedness; compute both with the same settings"
            )
        self.a, self.b = a, b
        names = None
        if len(a.blocks) == a.hist.shape[1]:
            names = [x if isinstance(x, str) else f"h{x}" for x in a.blocks]
        self.layout = layout(a.hist.shape[1], a.hist.shape[2], names)
        self._flat_a = _flat(a.hist, a.hop1, a.hop2, "graph A features")
        self._flat_b = _flat(b.hist, b.hop1, b.hop2, "graph B features")
        self._cols = self.layout.columns()

    @property
    def n_features(self) -> int:
        return self.layout.n_features

    def _columns(self, columns: Any) -> tuple[np.ndarray, np.ndarray]:
        ca, cb = self._cols
        if columns is None:
            return ca, cb
        c = np.asarray(columns, dtype=np.int64).reshape(-1)
        if c.size and (c.min() < 0 or c.max() >= ca.size):
            bad = int(np.argmax((c < 0) | (c >= ca.size)))
            raise ConfigError(f"columns[{bad}] = {int(c[bad])} is not a feature 0..{ca.size - 1}")
        return ca[c], cb[c]

    def transform(
        self,
        u: Any,
        v: Any,
        *,
        columns: Any = None,
        codes: bool = False,
        chunk_size: int = DEFAULT_CHUNK,
    ) -> np.ndarray:
        """Features of pairs (u[k], v[k]) as a (len(u), n_columns) array (built in chunks)."""
        u, v = check_pairs(u, v, self.a.n_nodes, self.b.n_nodes)
        ca, cb = self._columns(columns)
        out = np.empty((u.size, ca.size), dtype=np.uint8 if codes else np.float32)
        for sl, X in self._chunks(u, v, ca, cb, chunk_size, codes):
            out[sl] = X
        return out

    def iter_chunks(
        self,
        u: Any,
        v: Any,
        *,
        chunk_size: int = DEFAULT_CHUNK,
        columns: Any = None,
        codes: bool = False,
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """Yield ``(slice, X)`` for consecutive chunks of at most ``chunk_size`` pairs."""
        size = check_int(chunk_size, "chunk_size", 1, "pairs per chunk")
        u, v = check_pairs(u, v, self.a.n_nodes, self.b.n_nodes)
        ca, cb = self._columns(columns)
        yield from self._chunks(u, v, ca, cb, size, codes)

    def _chunks(self, u, v, ca, cb, size: int, codes: bool) -> Iterator[tuple[slice, np.ndarray]]:
        for s in range(0, u.size, size):
            sl = slice(s, min(s + size, u.size))
            yield sl, _compute(self._flat_a, self._flat_b, u[sl], v[sl], ca, cb, codes)


def _compute(flat_a, flat_b, u, v, ca, cb, codes: bool) -> np.ndarray:
    x = np.take(flat_a[u], ca, axis=1)
    y = np.take(flat_b[v], cb, axis=1)
    c = delta_codes(x, y)
    if codes:
        return c
    return c.astype(np.float32) / np.float32(GRID)


def pair_features(
    hist_a: np.ndarray,
    deg_a: np.ndarray,
    hop2_a: np.ndarray,
    hist_b: np.ndarray,
    deg_b: np.ndarray,
    hop2_b: np.ndarray,
    u: Any,
    v: Any,
    *,
    columns: Any = None,
    codes: bool = False,
) -> np.ndarray:
    """Quantized δ features of pairs (u[k] in A, v[k] in B): float32 (len(u), n_features).

    Seed 004 §2.6 Eq. 3.3 and §2.7: all within-block cross-bin δ's, then δ(deg) and
    δ(2-hop count), each stored as q = ⌈20·δ − 10⁻⁹⌉/20 (``codes=True``: the uint8
    20·q).  See the module docstring for the layout and the quantization equivalence.
    For 10⁶ pairs use :func:`iter_pair_features`.  O(len(u) · n_features).
    """
    pf = _pair_features_of(hist_a, deg_a, hop2_a, hist_b, deg_b, hop2_b)
    return pf.transform(u, v, columns=columns, codes=codes)


def iter_pair_features(
    hist_a: np.ndarray,
    deg_a: np.ndarray,
    hop2_a: np.ndarray,
    hist_b: np.ndarray,
    deg_b: np.ndarray,
    hop2_b: np.ndarray,
    u: Any,
    v: Any,
    *,
    chunk_size: int = DEFAULT_CHUNK,
    columns: Any = None,
    codes: bool = False,
) -> Iterator[tuple[slice, np.ndarray]]:
    """:func:`pair_features` chunk by chunk: yields ``(slice of the pairs, X)``."""
    pf = _pair_features_of(hist_a, deg_a, hop2_a, hist_b, deg_b, hop2_b)
    yield from pf.iter_chunks(u, v, chunk_size=chunk_size, columns=columns, codes=codes)


def _pair_features_of(hist_a, deg_a, hop2_a, hist_b, deg_b, hop2_b) -> PairFeatures:
    """:class:`PairFeatures` of two graphs given as raw (histograms, degrees, 2-hop counts)."""
    fa = NodeFeatures(np.asarray(hist_a), np.asarray(deg_a), np.asarray(hop2_a), False, (), 0, 0)
    fb = NodeFeatures(np.asarray(hist_b), np.asarray(deg_b), np.asarray(hop2_b), False, (), 0, 0)
    return PairFeatures(fa, fb)


__all__ = [
    "DIRECTED_BLOCKS",
    "GRID",
    "FeatureLayout",
    "NodeFeatures",
    "PairFeatures",
    "check_pairs",
    "degree_bins",
    "degree_histograms",
    "delta",
    "delta_codes",
    "directed_histograms",
    "histogram",
    "iter_pair_features",
    "layout",
    "node_features",
    "pair_features",
    "quantize",
]
