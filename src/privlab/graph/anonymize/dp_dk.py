"""The dK-2 series of a graph, its differentially private release, and graphs built from it.

**dK-2 series** (joint degree distribution, seed 004 §2.10): m(i, j) = number of edges
between a node of degree i and a node of degree j, i ≤ j.  Mahadevan, Krioukov, Fall &
Vahdat, "Systematic topology analysis and generation using degree correlations" (SIGCOMM
2006) define the dK-series and build graphs from them; Sala, Zhao, Wilson, Zheng & Zhao,
"Sharing graphs using differentially private graph models" (IMC 2011, *Pygmalion*) release
dK-2 under edge DP.

**Privacy** (edge and k-edge neighbours: seed 000 §2.9, Defs 7.11–7.12).  ``max_degree`` = D
is a *public* bound fixed without looking at the data.  Every input degree must be
≤ D − k, so that every k-edge neighbour still has all degrees ≤ D and its series fits the
fixed table of cells (i, j), 1 ≤ i ≤ j ≤ D — D(D+1)/2 cells, **all** of them noised,
zero cells included (noising only the cells present would reveal which are present).

*Sensitivity.*  Add one edge (u, v) to a graph H in which u and v have degrees du, dv.  Each
of the du + dv edges already at u or v moves from cell {du, dw} to {du + 1, dw} (or the same
for v): two cells change by one.  No other edge changes cell (a third node's degree is
unchanged), and the new edge adds one to {du + 1, dv + 1}.  Hence
‖s(H + uv) − s(H)‖₁ ≤ 2(du + dv) + 1 (equality when no two changes cancel).  If H + uv has
all degrees ≤ D then du, dv ≤ D − 1, so one edge changes the series by at most
**4D − 3** — Pygmalion's 4·d_max + 1 with d_max = D − 1, the largest degree before the edge
is added; the bound is attained (u and v each joined to D − 1 leaves).  For k-edge neighbours
G, G′ go from G to G ∩ G′ by removals and on to G′ by additions: at most k single-edge
steps, every intermediate graph a subgraph of G or G′, so all degrees ≤ D and each step
costs ≤ 4D − 3.  By the triangle inequality the L1 sensitivity is **k·(4D − 3)** (valid,
not tight for k > 1).  Isolated nodes do not appear in the series.  The release adds exact
two-sided geometric noise of scale k(4D − 3)/ε to every cell
(:func:`privlab.dp.mechanisms.geometric`): ε-edge-DP (k = 1) or ε-k-edge-DP.

*Post-processing* (free under DP): noisy counts below max(threshold, 1) become 0 — by
default only the negative and zero ones.  Warning: the noise mass is large.  An empty
cell's clipped noise has mean ≈ scale/2, so the noise alone asks for about
D(D+1)/2 · k(4D − 3)/(2ε) edges — 1.3·10⁹ for D = 1,100, ε = 1.  ``threshold="auto"``
(:func:`dk2_threshold`) keeps only cells whose noisy count is so high that an empty cell
reaches it with expected count 0.05 over the whole table; on real graphs at moderate ε that
removes nearly everything (on ego-Facebook every cell holds ≤ 74 edges, the threshold at
ε = 1 is about 68,700).  This is the price of the full-resolution dK-2 table under edge DP,
not a defect of the sampler.

**Graphs from a series** (:func:`generate_dk2`, :func:`graph_from_dk2`): a 2K-random
construction by stub matching (Mahadevan et al. 2006), with the per-class balanced split
of Stanton & Pinar, "Constructing and sampling graphs with a prescribed joint degree
distribution" (ACM JEA 2012).  For each degree k the series implies
stubs_k = Σ_j m(k, j)·(1 + [j = k]) edge ends; n_k = ⌈stubs_k / k⌉ nodes of degree class
k are made, the last one with the remainder when k does not divide stubs_k (a noisy series
need not be graphical).  The class-k stubs of every edge class are dealt round-robin over
the class-k nodes, so each node gets about its share of each class (⌊q/n_k⌋ or ⌈q/n_k⌉
of a class's q stubs when there is no remainder) and k stubs in all.  Each class (i, j)
then pairs its i-side with its j-side stubs at random; class (i, i) pairs its 2m stubs as a
random matching.  Self-loops and repeated edges are rejected; for up to ``rounds`` more
rounds the rejected edges, together with up to twice as many random accepted edges of the
same classes (a swap move that keeps the series intact), are re-paired at random within
their class — stopping early after 5 rounds without 1 % fewer rejections; whatever is
still rejected is dropped and counted.  Consequences, all reported: dropped edges lower
their endpoints' degrees and remainder nodes have degrees below their class, so those
nodes' edges land in other cells — the realized series only approximates the requested
one (:func:`dk2_l1` measures by how much; the exact series of ego-Facebook comes back with
all but 4–20 of its 88,234 edges); nodes of degree 0 are not represented.

Complexity: :func:`dk2_series` O(m) (O(m log m) when the largest degree exceeds
max(√(8m), 1024)); :func:`private_dk2` O(m + D²); generation O(M log M + rounds·M) for
M requested edges.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.accountant import check_epsilon
from privlab.dp.mechanisms import Release, geometric
from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.dp.queries import check_k_edges
from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph, as_graph

#: Default cap on the number of edges a series may ask :func:`graph_from_dk2` to build.
MAX_EDGES = 5_000_000

_EMPTY = np.zeros(0, dtype=np.int64)

#: Re-pairing stops early after this many rounds without 1 % fewer pending edges.
_PATIENCE = 5


# ---------------------------------------------------------------------------- the series
@dataclass(frozen=True, eq=False)
class DK2Series:
    """A dK-2 series, sparse: the cells (low[c], high[c]) with count[c] > 0.

    Cells are sorted by (low, high) with 1 ≤ low ≤ high.  Build one with
    :func:`dk2_series` or :meth:`from_dict`.
    """

    low: np.ndarray
    high: np.ndarray
    count: np.ndarray

    @property
    def n_edges(self) -> int:
        """Σ m(i, j): the number of edges the series describes."""
        return int(self.count.sum())

    @property
    def n_cells(self) -> int:
        """Number of non-zero cells."""
        return int(self.count.size)

    @property
    def max_degree(self) -> int:
        """Largest degree named by a cell (0 for the empty series)."""
        return int(self.high.max()) if self.high.size else 0

    def __len__(self) -> int:
        return self.n_cells

    def stubs(self) -> np.ndarray:
        """Edge ends per degree: stubs[k] = Σ_j m(k, j)·(1 + [j = k]), for k = 0..max_degree."""
        size = self.max_degree + 1
        return np.bincount(self.low, weights=self.count, minlength=size).astype(
            np.int64
        ) + np.bincount(self.high, weights=self.count, minlength=size).astype(np.int64)

    def to_dict(self) -> dict[tuple[int, int], int]:
        """{(i, j): m(i, j)} for the non-zero cells."""
        return {
            (int(i), int(j)): int(c)
            for i, j, c in zip(
                self.low.tolist(), self.high.tolist(), self.count.tolist(), strict=True
            )
        }

    def to_list(self) -> list[list[int]]:
        """[[i, j, m(i, j)], ...] for the non-zero cells (JSON friendly)."""
        return np.stack([self.low, self.high, self.count], axis=1).tolist()

    @classmethod
    def from_dict(cls, cells: Mapping[tuple[int, int], int]) -> DK2Series:
        """From {(i, j): count} with 1 ≤ i ≤ j and counts ≥ 0 (zero cells are dropped)."""
        if not cells:
            return cls(_EMPTY, _EMPTY, _EMPTY)
        try:
            arr = np.array([(int(i), int(j), int(c)) for (i, j), c in cells.items()], np.int64)
        except (TypeError, ValueError):
            raise InputError("dK-2 series: give {(i, j): count} with integers") from None
        bad = (arr[:, 0] < 1) | (arr[:, 0] > arr[:, 1]) | (arr[:, 2] < 0)
        if bad.any():
            i, j, c = arr[int(np.argmax(bad))].tolist()
            raise InputError(
                f"dK-2 series: cell ({i}, {j}) = {c}; cells need 1 ≤ i ≤ j and a count ≥ 0"
            )
        arr = arr[arr[:, 2] > 0]
        order = np.lexsort((arr[:, 1], arr[:, 0]))
        arr = arr[order]
        return cls(arr[:, 0].copy(), arr[:, 1].copy(), arr[:, 2].copy())

    def __repr__(self) -> str:
        return f"DK2Series({self.n_cells} cells, {self.n_edges} edges)"


def _from_pairs(low: np.ndarray, high: np.ndarray) -> DK2Series:
    """Count the cells (low[e], high[e]) over all edges e.  O(m)."""
    if low.size == 0:
        return DK2Series(_EMPTY, _EMPTY, _EMPTY)
    base = int(high.max()) + 1
    key = low * base + high
    if base * base <= max(8 * low.size, 1 << 20):  # counting table: O(m + d_max²) = O(m)
        counts = np.bincount(key, minlength=base * base)
        cells = np.flatnonzero(counts)
        counts = counts[cells]
    else:  # sparse key space: sort, O(m log m)
        cells, counts = np.unique(key, return_counts=True)
    return DK2Series(cells // base, cells % base, counts.astype(np.int64))


def dk2_series(graph: Graph) -> DK2Series:
    """The exact dK-2 series of an undirected graph: m(i, j) for i ≤ j.

    One pass over the edges (each once, u < v) looking up both endpoint degrees, then a
    counting table over the cells (Mahadevan et al. 2006).  O(m) — O(m log m) when the
    largest degree exceeds max(√(8m), 1024).
    """
    graph = as_graph(graph, "the dK-2 series", undirected=True)
    deg = graph.degrees().astype(np.int64)
    e = graph.edges()
    a, b = deg[e[:, 0]], deg[e[:, 1]]
    return _from_pairs(np.minimum(a, b), np.maximum(a, b))


def _as_series(series: Any) -> DK2Series:
    if isinstance(series, Release):
        series = series.value
    if isinstance(series, DK2Series):
        return series
    if isinstance(series, Mapping):
        return DK2Series.from_dict(series)
    raise InputError(
        f"dK-2 series: got {type(series).__name__}; give a DK2Series, a DK2Release or "
        "{(i, j): count}"
    )


def dk2_l1(a: Any, b: Any) -> int:
    """L1 distance Σ_(i,j) |a(i, j) − b(i, j)| between two dK-2 series.  O(c log c)."""
    sa, sb = _as_series(a), _as_series(b)
    low = np.concatenate([sa.low, sb.low])
    high = np.concatenate([sa.high, sb.high])
    if low.size == 0:
        return 0
    base = int(high.max()) + 1
    cells, inverse = np.unique(low * base + high, return_inverse=True)
    diff = np.zeros(cells.size, dtype=np.int64)
    np.add.at(diff, inverse, np.concatenate([sa.count, -sb.count]))
    return int(np.abs(diff).sum())


# ---------------------------------------------------------------------------- DP release
@dataclass(frozen=True)
class DK2Release(Release):
    """A differentially private dK-2 series: ``value`` is a :class:`DK2Series`.

    ``parameters``: sensitivity, scale, max_degree, k_edges, cells (all noised), threshold.
    """

    @property
    def series(self) -> DK2Series:
        return self.value

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["value"] = self.value.to_list()
        return out


def _count_parameter(value: Any, name: str, alternative: str = "") -> int:
    """An integer ≥ 0 given as ``name``; ConfigError otherwise."""
    try:
        ok = not isinstance(value, bool) and int(value) == value and value >= 0
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ConfigError(f"{name} = {value!r}: give an integer ≥ 0{alternative}")
    return int(value)


def _check_max_degree(max_degree: Any, k: int = 1) -> int:
    try:
        ok = not isinstance(max_degree, bool) and int(max_degree) == max_degree
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok or max_degree < k:
        raise ConfigError(
            f"max_degree = {max_degree!r}: give an integer ≥ k_edges = {k}, a public bound "
            "on the degrees fixed without looking at the data"
        )
    return int(max_degree)


def dk2_sensitivity(max_degree: int, *, k_edges: int = 1) -> int:
    """L1 sensitivity of the dK-2 table under k-edge adjacency: k·(4·max_degree − 3).

    One edge between nodes of degrees du, dv ≤ max_degree − 1 moves du + dv edges (two cells
    each) and adds one: 2(du + dv) + 1 ≤ 4·max_degree − 3; k edges, k times that (module
    docstring).
    """
    return check_k_edges(k_edges) * (4 * _check_max_degree(max_degree) - 3)


def _cells(d: int) -> int:
    return d * (d + 1) // 2


def _alpha(epsilon: float, sensitivity: int) -> tuple[float, float, float]:
    """(λ = ε/Δ, α = e^−λ, 1 − α) of the discrete Laplace noise P(z) ∝ α^|z|."""
    lam = epsilon / sensitivity
    return lam, math.exp(-lam), -math.expm1(-lam)


def dk2_threshold(
    epsilon: float, *, max_degree: int, k_edges: int = 1, spurious_cells: float = 0.05
) -> int:
    """Smallest post-processing threshold t ≥ 1 for which, in expectation, at most
    ``spurious_cells`` of the table's empty cells get a noisy count ≥ t.

    For noise P(z) ∝ α^|z|, α = e^(−ε/Δ): P(Z ≥ t) = α^t/(1 + α), so t is the least
    integer with D(D+1)/2 · α^t/(1 + α) ≤ spurious_cells.  Depends only on public
    parameters.  O(1).
    """
    eps = check_epsilon(epsilon)
    sens = dk2_sensitivity(max_degree, k_edges=k_edges)
    if not (isinstance(spurious_cells, (int, float)) and spurious_cells > 0):
        raise ConfigError(f"spurious_cells = {spurious_cells!r}: give a number > 0")
    lam, alpha, _ = _alpha(eps, sens)
    need = math.log(_cells(int(max_degree)) / ((1 + alpha) * spurious_cells))
    return max(1, math.ceil(need / lam))


def _expected_noise_edges(epsilon: float, d: int, k: int, threshold: int) -> float:
    """Expected Σ over all cells of an empty cell's post-processed noise, E[Z; Z ≥ t].

    E[Z·1(Z ≥ t)] = α^t (t(1 − α) + α) / ((1 − α)(1 + α)) for t ≥ 1 (≈ scale/2 at t = 1).
    """
    t = max(1, threshold)
    _, alpha, one_minus = _alpha(epsilon, k * (4 * d - 3))
    per_cell = alpha**t * (t * one_minus + alpha) / (one_minus * (1 + alpha))
    return _cells(d) * per_cell


def _check_threshold(threshold: Any, epsilon: float, d: int, k: int) -> int:
    if isinstance(threshold, str):
        if threshold != "auto":
            raise ConfigError(f"threshold = {threshold!r}: give an integer ≥ 0 or 'auto'")
        return dk2_threshold(epsilon, max_degree=d, k_edges=k)
    return _count_parameter(threshold, "threshold", " or 'auto'")


def _check_graph_degrees(graph: Graph, d: int, k: int) -> None:
    graph.require_undirected("the private dK-2 series")
    deg = graph.degrees()
    if deg.size and int(deg.max()) > d - k:
        raise InputError(
            f"{int(np.count_nonzero(deg > d - k))} node(s) have a degree above "
            f"max_degree − k_edges = {d - k}, but max_degree = {d} with k_edges = {k} needs "
            "every degree ≤ max_degree − k_edges (so that each neighbouring graph fits the "
            "table); raise max_degree — a public bound fixed without looking at the data"
        )


def _release(
    graph: Graph, eps: float, d: int, k: int, threshold: int, rng: np.random.Generator,
    insecure: bool,
) -> DK2Release:  # fmt: skip
    exact = dk2_series(graph)
    sens = k * (4 * d - 3)
    n_cells = _cells(d)
    a, b = exact.low - 1, exact.high - 1  # row-major upper triangle, 0-based
    starts = np.arange(d, dtype=np.int64)
    starts = starts * d - starts * (starts - 1) // 2
    table = np.zeros(n_cells, dtype=np.int64)
    table[starts[a] + (b - a)] = exact.count
    noise = geometric(table, sens, eps, seed=rng)
    noisy = np.asarray(noise.value)
    keep = np.flatnonzero(noisy >= max(threshold, 1))  # post-processing
    row = np.searchsorted(starts, keep, side="right") - 1
    col = keep - starts[row] + row
    series = DK2Series(row + 1, col + 1, noisy[keep])
    params = {
        "sensitivity": sens,
        "scale": noise.parameters["scale"],
        "max_degree": d,
        "k_edges": k,
        "cells": n_cells,
        "threshold": threshold,
    }
    return DK2Release(series, eps, 0.0, "dk2_geometric", params, insecure)


def private_dk2(
    graph: Graph,
    epsilon: float,
    *,
    max_degree: int,
    k_edges: int = 1,
    threshold: int | str = 0,
    seed: Any = None,
) -> DK2Release:
    """ε-(k-)edge-DP dK-2 series (Sala et al. 2011, with every cell noised).

    Exact geometric noise of scale k(4·max_degree − 3)/ε is added to each of the
    max_degree(max_degree + 1)/2 cells (i, j), 1 ≤ i ≤ j ≤ max_degree, in one vectorized
    call; then, as post-processing, cells below max(threshold, 1) become 0 (``"auto"``:
    :func:`dk2_threshold`).  Every degree must be ≤ max_degree − k_edges (InputError
    otherwise).  Returns a :class:`DK2Release` with the sparse noisy series.  O(m + D²).
    """
    eps = check_epsilon(epsilon)
    k = check_k_edges(k_edges)
    d = _check_max_degree(max_degree, k)
    tau = _check_threshold(threshold, eps, d, k)
    graph = as_graph(graph, "the dK-2 series", undirected=True)
    _check_graph_degrees(graph, d, k)
    return _release(graph, eps, d, k, tau, secure_generator(seed), is_insecure_seed(seed))


# ---------------------------------------------------------------------------- generation
@dataclass(frozen=True)
class DK2Generation:
    """A graph built from a dK-2 series and what the construction could not honour."""

    graph: Graph
    requested_edges: int
    nodes: int
    remainder_nodes: int  # nodes dealt fewer stubs than their degree class
    rejected_first_round: int
    dropped_self_loops: int
    dropped_repeated: int
    rounds_used: int

    @property
    def realized_edges(self) -> int:
        return self.graph.n_edges

    @property
    def rematched(self) -> int:
        """Edges rejected in the first round and placed by a later one."""
        return self.rejected_first_round - self.dropped

    @property
    def dropped(self) -> int:
        return self.dropped_self_loops + self.dropped_repeated

    def to_dict(self) -> dict[str, Any]:
        return {
            "requested_edges": self.requested_edges,
            "realized_edges": self.realized_edges,
            "nodes": self.nodes,
            "remainder_nodes": self.remainder_nodes,
            "rejected_first_round": self.rejected_first_round,
            "rematched": self.rematched,
            "dropped_self_loops": self.dropped_self_loops,
            "dropped_repeated": self.dropped_repeated,
            "rounds_used": self.rounds_used,
        }


def _radix(x: np.ndarray) -> np.ndarray:
    """Small non-negative ints as int16 so numpy's stable sort is a radix sort."""
    return x.astype(np.int16) if x.size and int(x.max()) < 2**15 else x


def _grouped_shuffle(groups: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A permutation sorting ``groups`` ascending with a uniformly random order inside."""
    perm = rng.permutation(groups.size)
    return perm[np.argsort(_radix(groups[perm]), kind="stable")]


def _pair_within_classes(
    u: np.ndarray, v: np.ndarray, cell: np.ndarray, diagonal: np.ndarray,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Pair the stubs of each class at random: the j-side is shuffled against the i-side;
    a diagonal class (i, i) pools its 2m stubs and pairs them as a random matching."""
    d = diagonal[cell]
    uo, vo, co = u[~d], v[~d], cell[~d]
    order = _grouped_shuffle(co, rng)  # i-side grouped by class, j-side shuffled within
    by_class = np.argsort(co, kind="stable")
    uo, vo, co = uo[by_class], vo[order], co[by_class]
    stubs = np.concatenate([u[d], v[d]])
    order = _grouped_shuffle(np.concatenate([cell[d], cell[d]]), rng)
    stubs = stubs[order]
    cd = np.concatenate([cell[d], cell[d]])[order]
    return (
        np.concatenate([uo, stubs[0::2]]),
        np.concatenate([vo, stubs[1::2]]),
        np.concatenate([co, cd[0::2]]),
    )


def generate_dk2(
    series: Any, *, rounds: int = 50, max_edges: int = MAX_EDGES, seed: Any = None
) -> DK2Generation:
    """A simple graph whose dK-2 series approximates ``series``, with a report.

    Balanced stub dealing and random pairing class by class, rejected self-loops and
    repeated edges re-paired (with swaps against accepted edges) for up to ``rounds``
    rounds, the rest dropped and counted (module docstring; Mahadevan et al. 2006, Stanton
    & Pinar 2012).  ``series``: a :class:`DK2Series`, a :class:`DK2Release` or
    {(i, j): count}.  Node ids are a random permutation.  A series asking for more than
    ``max_edges`` edges is refused (ConfigError).  O(M log M + rounds·M) for M edges.
    """
    s = _as_series(series)
    rounds = _count_parameter(rounds, "rounds")
    max_edges = _count_parameter(max_edges, "max_edges")
    total = s.n_edges
    if total > max_edges:
        raise ConfigError(
            f"the dK-2 series asks for {total:,} edges, more than max_edges = {max_edges:,}; "
            "raise max_edges if the memory allows (about 100 bytes per edge), or release the "
            "series with a higher threshold (noise dominates: see dk2_threshold)"
        )
    rng = secure_generator(seed)
    if total == 0:
        return DK2Generation(Graph.from_edges(0, _EMPTY), 0, 0, 0, 0, 0, 0, 0)

    stubs = s.stubs()
    ks = np.flatnonzero(stubs)
    sk = stubs[ks]
    nk = -(-sk // ks)
    n = int(nk.sum())
    last = sk - (nk - 1) * ks  # stubs of each group's last node (k unless a remainder)
    remainder_nodes = int((last < ks).sum())
    node_start = np.zeros(stubs.size, dtype=np.int64)
    node_start[ks] = np.cumsum(nk) - nk
    size = np.zeros(stubs.size, dtype=np.int64)
    size[ks] = nk
    rem = np.zeros(stubs.size, dtype=np.int64)
    rem[ks] = last
    slot_start = np.zeros(stubs.size, dtype=np.int64)
    slot_start[ks] = np.cumsum(sk) - sk

    # One slot per edge end: (degree group, class).  Within a group the slots, sorted by
    # class, are dealt round-robin to the group's nodes — all n_k of them for the first
    # ``last`` rounds, then all but the remainder node — so each node gets about its share
    # of every class (Stanton & Pinar's balanced split) and exactly k stubs in all.
    cell = np.repeat(np.arange(s.n_cells, dtype=np.int64), s.count)
    slot_group = np.concatenate([s.low[cell], s.high[cell]])
    order = np.lexsort((np.concatenate([cell, cell]), slot_group))
    g = slot_group[order]
    rank = np.arange(g.size, dtype=np.int64) - slot_start[g]
    full = rem[g] * size[g]  # slots dealt while the remainder node still takes part
    late = np.maximum(size[g] - 1, 1)
    offset = np.where(rank < full, rank % size[g], (rank - full) % late)
    node_of_slot = np.empty(g.size, dtype=np.int64)
    node_of_slot[order] = node_start[g] + offset
    u, v = node_of_slot[:total], node_of_slot[total:]

    diagonal = s.low == s.high
    acc_key = acc_cell = _EMPTY  # accepted edges, sorted by key = lo·n + hi
    rejected_first = loops = repeated = used = stalled = 0
    best = total + 1
    for r in range(int(rounds) + 1):
        if r:  # return random accepted edges of the failing classes to the pool: a swap move
            back = _reopen(cell, acc_cell, s.n_cells, rng)
            u = np.concatenate([u, acc_key[back] // n])
            v = np.concatenate([v, acc_key[back] % n])
            cell = np.concatenate([cell, acc_cell[back]])
            acc_key, acc_cell = np.delete(acc_key, back), np.delete(acc_cell, back)
        used = r
        u, v, cell = _pair_within_classes(u, v, cell, diagonal, rng)
        key = np.minimum(u, v) * n + np.maximum(u, v)
        loop = u == v
        first = np.zeros(key.size, dtype=bool)
        first[np.unique(key, return_index=True)[1]] = True
        pos = np.minimum(np.searchsorted(acc_key, key), max(acc_key.size - 1, 0))
        known = acc_key[pos] == key if acc_key.size else np.zeros(key.size, dtype=bool)
        ok = ~loop & first & ~known
        new = np.argsort(key[ok])
        at = np.searchsorted(acc_key, key[ok][new])
        acc_key = np.insert(acc_key, at, key[ok][new])
        acc_cell = np.insert(acc_cell, at, cell[ok][new])
        bad = ~ok
        if r == 0:
            rejected_first = int(bad.sum())
        loops, repeated = int((loop & bad).sum()), int((~loop & bad).sum())
        u, v, cell = u[bad], v[bad], cell[bad]
        if u.size <= best - max(1.0, 0.01 * best):  # progress: ≥ 1 % fewer pending
            best, stalled = u.size, 0
        else:
            stalled += 1
        if u.size == 0 or stalled >= _PATIENCE:
            break
    relabel = rng.permutation(n)
    graph = Graph.from_edges(n, relabel[np.stack([acc_key // n, acc_key % n], axis=1)])
    return DK2Generation(graph, total, n, remainder_nodes, rejected_first, loops, repeated, used)


def _reopen(
    cell: np.ndarray, acc_cell: np.ndarray, n_cells: int, rng: np.random.Generator
) -> np.ndarray:
    """Positions of accepted edges to return to the pool: in every class with pending
    edges, up to twice as many random accepted ones, so that re-pairing can rewire them."""
    pending = np.bincount(cell, minlength=n_cells)
    cand = np.flatnonzero(pending[acc_cell] > 0)
    if cand.size == 0:
        return _EMPTY
    cand = cand[_grouped_shuffle(acc_cell[cand], rng)]
    cls = acc_cell[cand]
    idx = np.arange(cls.size)
    block_start = np.maximum.accumulate(np.where(np.r_[True, cls[1:] != cls[:-1]], idx, 0))
    return np.sort(cand[idx - block_start < 2 * pending[cls]])


def graph_from_dk2(
    series: Any, *, rounds: int = 50, max_edges: int = MAX_EDGES, seed: Any = None
) -> Graph:
    """A simple graph whose dK-2 series approximates ``series`` (see :func:`generate_dk2`,
    which also reports what was dropped).  O(M log M)."""
    return generate_dk2(series, rounds=rounds, max_edges=max_edges, seed=seed).graph


# ---------------------------------------------------------------------------- end to end
@dataclass(frozen=True)
class DK2GraphRelease:
    """A synthetic graph from a DP dK-2 series, the release and the generation report."""

    graph: Graph
    release: DK2Release
    generation: DK2Generation
    l1_distance: int  # between the released (requested) and the realized series

    @property
    def report(self) -> dict[str, Any]:
        p = self.release.parameters
        return {
            "epsilon": self.release.epsilon,
            "delta": self.release.delta,
            "k_edges": p["k_edges"],
            "max_degree": p["max_degree"],
            "sensitivity": p["sensitivity"],
            "scale": p["scale"],
            "cells": p["cells"],
            "threshold": p["threshold"],
            "noisy_cells": self.release.value.n_cells,
            "noisy_edges": self.release.value.n_edges,
            **self.generation.to_dict(),
            "l1_requested_realized": self.l1_distance,
            "insecure_seed": self.release.insecure_seed,
        }

    def to_dict(self) -> dict[str, Any]:
        return self.report


def dp_dk2_graph(
    graph: Graph,
    epsilon: float,
    *,
    max_degree: int,
    k_edges: int = 1,
    threshold: int | str = 0,
    rounds: int = 50,
    max_edges: int = MAX_EDGES,
    seed: Any = None,
) -> DK2GraphRelease:
    """ε-(k-)edge-DP synthetic graph: :func:`private_dk2`, then :func:`generate_dk2`.

    Before any noise is drawn, the expected number of edges the noise alone would ask for
    (a function of ε, max_degree, k_edges and threshold only — no data) is compared with
    ``max_edges``; if it is larger the call fails with a ConfigError suggesting a
    threshold, so no budget is spent on an unbuildable release.  (If the released series
    itself still exceeds ``max_edges`` — the graph's own edges count too — generation
    raises after the release; call :func:`private_dk2` and :func:`generate_dk2` separately
    to keep the release in hand.)  The report gives ε, the
    sensitivity, cells, noisy edges, realized edges, drops and the L1 distance between the
    released and the realized series.  O(m + D² + M log M).
    """
    eps = check_epsilon(epsilon)
    k = check_k_edges(k_edges)
    d = _check_max_degree(max_degree, k)
    tau = _check_threshold(threshold, eps, d, k)
    max_edges = _count_parameter(max_edges, "max_edges")
    _count_parameter(rounds, "rounds")
    expected = _expected_noise_edges(eps, d, k, tau)
    if expected > max_edges:
        auto = dk2_threshold(eps, max_degree=d, k_edges=k)
        raise ConfigError(
            f"with epsilon = {eps:g}, max_degree = {d}, k_edges = {k} and threshold = {tau}, "
            f"the noise alone is expected to ask for {expected:,.0f} edges "
            f"(> max_edges = {max_edges:,}): each of the {_cells(d):,} cells gets noise of "
            f"scale {k * (4 * d - 3) / eps:,.1f}.  Use threshold='auto' (= {auto}, expected "
            f"{_expected_noise_edges(eps, d, k, auto):,.1f} noise edges), a larger epsilon "
            "or a smaller max_degree"
        )
    graph = as_graph(graph, "the dK-2 series", undirected=True)
    _check_graph_degrees(graph, d, k)
    rng = secure_generator(seed)
    release = _release(graph, eps, d, k, tau, rng, is_insecure_seed(seed))
    gen = generate_dk2(release.value, rounds=rounds, max_edges=max_edges, seed=rng)
    l1 = dk2_l1(release.value, dk2_series(gen.graph))
    return DK2GraphRelease(gen.graph, release, gen, l1)


__all__ = [
    "MAX_EDGES",
    "DK2Generation",
    "DK2GraphRelease",
    "DK2Release",
    "DK2Series",
    "dk2_l1",
    "dk2_sensitivity",
    "dk2_series",
    "dk2_threshold",
    "dp_dk2_graph",
    "generate_dk2",
    "graph_from_dk2",
    "private_dk2",
]
