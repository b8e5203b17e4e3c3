"""Shortest-path utility: path-length distribution, average path length, diameter,
effective diameter — exact (BFS from every node) or sampled (BFS from k random sources).

Sources: seed 000 §2.9 (APL = (1/(n(n−1))) Σ_{i≠j} d(v_i, v_j) with unreachable pairs
counted as d = 0 in the numerator but kept in the denominator; diameter = max d),
seed 002 §A.2.9 (path-length distribution over all pairs, reported by its median;
diameter), Leskovec, Kleinberg & Faloutsos 2005 / SNAP (effective diameter: the 90th
percentile of the distances between connected pairs, linearly interpolated).

Everything is derived from one histogram of distances over ordered pairs, kept as Python
integers: sums cannot overflow however large the graph (SecGraph's path-length metric
overflows, REFERENCE_RESULTS.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.errors import ConfigError
from privlab.graph.core import Graph, as_graph
from privlab.graph.utility._base import (
    check_choice,
    check_fraction,
    igraph_of,
    sample_sources,
)

_UNREACHABLE = ("zero", "exclude")
_CHUNK_CELLS = 1 << 22  # distance-matrix cells per sampled BFS batch (32 MiB of float64)


@dataclass(frozen=True)
class PathLengths:
    """Distances over ordered pairs (s, t), s ≠ t, with s a BFS source.

    ``counts[d]`` = pairs at distance d (``counts[0]`` = 0); ``unreachable`` = pairs with
    no path.  Exact: every node is a source (an undirected pair counts twice, which
    changes no average).  Sampled: ``sources`` = k random sources, so the figures are
    estimates over k·(n − 1) pairs.
    """

    counts: tuple[int, ...]
    unreachable: int
    n_nodes: int
    sources: int
    directed: bool

    @property
    def sampled(self) -> bool:
        return self.sources < self.n_nodes

    @property
    def connected_pairs(self) -> int:
        return sum(self.counts)

    @property
    def pairs(self) -> int:
        """All ordered pairs looked at: sources·(n − 1)."""
        return self.connected_pairs + self.unreachable

    def average(self, unreachable: str = "zero") -> float:
        """Average distance.  ``unreachable="zero"`` (seed 000 §2.9, default): unreachable
        pairs add 0 to the sum but count in the denominator n(n − 1); ``"exclude"``: the
        mean over connected pairs only (igraph ``unconn=True``; networkx on connected
        graphs).  0 when there is no pair to average over."""
        check_choice(unreachable, _UNREACHABLE, "unreachable", "average path length")
        total = sum(d * c for d, c in enumerate(self.counts))
        denominator = self.pairs if unreachable == "zero" else self.connected_pairs
        return total / denominator if denominator else 0.0

    @property
    def diameter(self) -> int:
        """Largest finite distance (seed 000 §2.9; unreachable pairs count as 0, so a
        disconnected graph has the largest diameter of its components).  Sampled: the
        largest eccentricity of the sources, a lower bound."""
        return len(self.counts) - 1 if self.connected_pairs else 0

    def percentile(self, q: float, *, interpolate: bool = False) -> float:
        """The q-quantile of the distances between connected pairs (q in (0, 1]).

        Without interpolation: the smallest d with at least q of the pairs at distance ≤ d.
        With it (SNAP's ``CalcEffDiam``): d − 1 + (q·N − C(d−1))/(C(d) − C(d−1)), where
        C is the cumulative count and d the first distance with C(d) ≥ q·N.
        """
        q = check_fraction(q, "q", "path-length percentile")
        n_conn = self.connected_pairs
        if n_conn == 0:
            return 0.0
        target = q * n_conn
        cumulative = 0
        for d, c in enumerate(self.counts):
            previous, cumulative = cumulative, cumulative + c
            if c and cumulative >= target:
                if not interpolate:
                    return float(d)
                return (d - 1) + (target - previous) / c
        return float(len(self.counts) - 1)  # not reached: C(D) = N ≥ q·N

    @property
    def median(self) -> float:
        """Median distance between connected pairs (seed 002 §A.2.9, Fig. 9)."""
        return self.percentile(0.5)

    def effective_diameter(self, q: float = 0.9, *, interpolate: bool = True) -> float:
        """The q-percentile distance (default the 90th, interpolated as SNAP)."""
        return self.percentile(q, interpolate=interpolate)

    def distribution(self) -> np.ndarray:
        """Fraction of connected pairs at each distance 0..diameter (float64)."""
        n_conn = self.connected_pairs
        return np.array([c / n_conn if n_conn else 0.0 for c in self.counts])

    def to_dict(self) -> dict[str, Any]:
        return {
            "counts": list(self.counts),
            "unreachable": self.unreachable,
            "n_nodes": self.n_nodes,
            "sources": self.sources,
            "sampled": self.sampled,
            "average": self.average(),
            "average_connected": self.average("exclude"),
            "diameter": self.diameter,
            "median": self.median,
            "effective_diameter": self.effective_diameter(),
        }


def path_lengths(graph: Any, *, sample: int | None = None, seed: Any = None) -> PathLengths:
    """The distance histogram of ``graph`` (directed graphs: directed distances).

    Exact (``sample=None`` or ≥ n): igraph's ``path_length_hist``, BFS from every node in
    C, O(n·(n + m)) time, O(n) memory.  Sampled: BFS from ``sample`` = k sources drawn
    without replacement with ``seed`` (scipy.sparse.csgraph, batched so that memory
    stays O(2²² + n)), O(k·(n + m)).
    """
    metric = "path lengths"
    g = as_graph(graph, metric)
    sources = sample_sources(g, sample, seed, metric)
    if sources is None:
        return _exact(g)
    return _sampled(g, sources)


def _exact(g: Graph) -> PathLengths:
    n = g.n_nodes
    hist = igraph_of(g).path_length_hist(directed=g.directed)
    factor = 1 if g.directed else 2  # igraph counts an undirected pair once
    counts = [0]
    for start, _end, count in hist.bins():
        d = int(start)
        counts.extend([0] * (d + 1 - len(counts)))
        counts[d] += factor * int(count)
    while len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    return PathLengths(tuple(counts), factor * int(hist.unconnected), n, n, g.directed)


def _sampled(g: Graph, sources: np.ndarray) -> PathLengths:
    from scipy.sparse.csgraph import shortest_path

    n = g.n_nodes
    adjacency = g.to_scipy()
    batch = max(1, _CHUNK_CELLS // max(n, 1))
    counts = np.zeros(1, dtype=np.int64)
    unreachable = 0
    for i in range(0, sources.size, batch):
        chunk = sources[i : i + batch]
        dist = shortest_path(adjacency, directed=g.directed, unweighted=True, indices=chunk)
        finite = np.isfinite(dist)
        unreachable += int(dist.size - np.count_nonzero(finite))
        hist = np.bincount(dist[finite].astype(np.int64))
        hist[0] -= chunk.size  # the sources themselves
        if hist.size > counts.size:
            counts = np.pad(counts, (0, hist.size - counts.size))
        counts[: hist.size] += hist
    values = [int(c) for c in counts]
    while len(values) > 1 and values[-1] == 0:
        values.pop()
    return PathLengths(tuple(values), unreachable, n, int(sources.size), g.directed)


def average_path_length(
    graph: Any, *, unreachable: str = "zero", sample: int | None = None, seed: Any = None
) -> float:
    """Average shortest-path length, seed 000 §2.9 convention by default (unreachable pairs
    count as 0 in the sum, and in the n(n − 1) denominator); ``unreachable="exclude"``
    averages over connected pairs.  Sampled: an unbiased estimate from k sources.  Cost as
    :func:`path_lengths`."""
    check_choice(unreachable, _UNREACHABLE, "unreachable", "average path length")
    return path_lengths(graph, sample=sample, seed=seed).average(unreachable)


def diameter(graph: Any, *, sample: int | None = None, seed: Any = None) -> int:
    """Largest finite shortest-path length (seed 000 §2.9).  Sampled: a lower bound (the
    largest eccentricity among k sources).  Cost as :func:`path_lengths`."""
    return path_lengths(graph, sample=sample, seed=seed).diameter


def effective_diameter(
    graph: Any,
    q: float = 0.9,
    *,
    interpolate: bool = True,
    sample: int | None = None,
    seed: Any = None,
) -> float:
    """The q-th percentile (default 90th) of the distances between connected pairs,
    interpolated as SNAP does unless ``interpolate=False``.  Cost as
    :func:`path_lengths`."""
    if not isinstance(interpolate, bool):
        raise ConfigError(f"effective diameter: interpolate = {interpolate!r}: give True/False")
    q = check_fraction(q, "q", "effective diameter")
    return path_lengths(graph, sample=sample, seed=seed).effective_diameter(
        q, interpolate=interpolate
    )


__all__ = [
    "PathLengths",
    "average_path_length",
    "diameter",
    "effective_diameter",
    "path_lengths",
]
