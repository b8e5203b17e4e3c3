"""Degree-based utility: degree sequence and distribution, joint degree distribution (JDD),
average degree connectivity, and the Hellinger distance between two graphs' DD or JDD.

Sources: seed 000 §2.9 (degree, degree sequence in descending order), seed 002 §A.2.9
(degree distribution as a utility measure), seed 004 §2.10 (DD, JDD, average degree
connectivity, Hellinger distance H(P, Q) = (1/√2)·‖√P − √Q‖₂ ∈ [0, 1]).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.graph.core import Graph, as_graph
from privlab.graph.utility._base import check_choice, require_nodes

_MODES = ("out", "in", "total")


def _degrees(g: Graph, mode: str, metric: str) -> np.ndarray:
    check_choice(mode, _MODES, "mode", metric)
    if not g.directed or mode == "out":
        return g.degrees()
    if mode == "in":
        return g.in_degrees()
    return g.degrees() + g.in_degrees()


def density(graph: Any) -> float:
    """|E| / (n(n−1)/2) (n(n−1) if directed), seed 000 §2.9; 0 for n < 2.  O(1)."""
    return as_graph(graph, "density").density()


def degree_sequence(graph: Any, *, mode: str = "out") -> np.ndarray:
    """Node degrees in descending order (seed 000 §2.9; Chapter 9's DP needs descending).

    ``mode`` ("out", "in", "total") matters for directed graphs only.  O(n log n).
    """
    g = as_graph(graph, "degree sequence")
    return np.sort(_degrees(g, mode, "degree sequence"))[::-1]


def degree_distribution(graph: Any, *, normalized: bool = True, mode: str = "out") -> np.ndarray:
    """``p[d]`` = fraction (or count, ``normalized=False``) of nodes of degree d, d = 0..max.

    Isolated nodes count (d = 0).  Seed 004 §2.10 metric 1, seed 002 §A.2.9.  O(n).
    """
    g = as_graph(graph, "degree distribution")
    require_nodes(g, "degree distribution")
    counts = np.bincount(_degrees(g, mode, "degree distribution"))
    return counts / g.n_nodes if normalized else counts


@dataclass(frozen=True)
class JointDegreeDistribution:
    """Fraction of edges joining a node of degree ``k1`` to one of degree ``k2`` (k1 ≤ k2).

    Stored sparsely, one row per degree pair present, sorted by (k1, k2); ``p`` sums to 1.
    :meth:`to_dense` gives the symmetric ordered-pair matrix of
    ``networkx.degree_mixing_matrix`` (each edge counted in both orientations).  The
    Hellinger distance is the same in both conventions: an off-diagonal mass q splits
    into two halves and (√(a/2) − √(b/2))² · 2 = (√a − √b)².
    """

    k1: np.ndarray
    k2: np.ndarray
    p: np.ndarray
    n_edges: int

    def to_dense(self) -> np.ndarray:
        """(D+1) × (D+1) symmetric matrix over ordered pairs, D = max degree.  O(D²) memory."""
        size = int(self.k2.max()) + 1 if self.k2.size else 0
        m = np.zeros((size, size))
        half = np.where(self.k1 == self.k2, self.p, self.p / 2)
        np.add.at(m, (self.k1, self.k2), half)
        off = self.k1 != self.k2
        np.add.at(m, (self.k2[off], self.k1[off]), half[off])
        return m

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_edges": self.n_edges,
            "pairs": [
                [int(a), int(b), float(c)] for a, b, c in zip(self.k1, self.k2, self.p, strict=True)
            ],
        }


def joint_degree_distribution(graph: Any) -> JointDegreeDistribution:
    """JDD of an undirected graph (seed 004 §2.10 metric 2).  O(m log m).

    InputError if the graph is directed or has no edges (the JDD is then undefined).
    """
    metric = "joint degree distribution"
    g = as_graph(graph, metric, undirected=True)
    if g.n_edges == 0:
        raise InputError(f"{metric}: the graph has no edges, so there is no distribution")
    d = g.degrees()
    e = g.edges()
    a, b = d[e[:, 0]], d[e[:, 1]]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    base = int(d.max()) + 1
    keys, counts = np.unique(lo * base + hi, return_counts=True)
    return JointDegreeDistribution(keys // base, keys % base, counts / e.shape[0], e.shape[0])


@dataclass(frozen=True)
class DegreeConnectivity:
    """Average nearest-neighbour degree ``knn[i]`` of the ``nodes[i]`` nodes of degree
    ``degree[i]`` (degrees present only, ascending); knn = 0 for degree 0 (networkx)."""

    degree: np.ndarray
    knn: np.ndarray
    nodes: np.ndarray

    def to_dict(self) -> dict[int, float]:
        return {int(k): float(v) for k, v in zip(self.degree, self.knn, strict=True)}


def average_degree_connectivity(graph: Any) -> DegreeConnectivity:
    """knn(k) = mean over nodes v of degree k of (1/k) Σ_{u ∈ N(v)} d(u).

    Seed 004 §2.10 metric 3; equals ``networkx.average_degree_connectivity`` on undirected
    graphs.  O(n + m).
    """
    metric = "average degree connectivity"
    g = as_graph(graph, metric, undirected=True)
    require_nodes(g, metric)
    d = g.degrees()
    rows = np.repeat(np.arange(g.n_nodes), d)
    neighbour_sum = np.bincount(rows, weights=d[g.indices].astype(np.float64), minlength=g.n_nodes)
    total = np.bincount(d, weights=neighbour_sum)
    count = np.bincount(d)
    present = np.flatnonzero(count)
    k = present.astype(np.float64)
    knn = np.divide(total[present], k * count[present], out=np.zeros(present.size), where=k > 0)
    return DegreeConnectivity(present, knn, count[present])


def hellinger_distance(p: Any, q: Any) -> float:
    """H(P, Q) = (1/√2)·sqrt(Σ_i (√p_i − √q_i)²) ∈ [0, 1] (seed 004 §2.10, L1319).

    ``p`` and ``q`` are non-negative weights over the same outcomes (counts are fine: each
    is normalized to sum 1); 1-D inputs of different length are padded with zeros, e.g.
    two degree distributions with different maximum degree.  O(len).
    """
    a = np.asarray(p, dtype=np.float64)
    b = np.asarray(q, dtype=np.float64)
    if a.ndim == b.ndim == 1 and a.size != b.size:
        size = max(a.size, b.size)
        a, b = np.pad(a, (0, size - a.size)), np.pad(b, (0, size - b.size))
    if a.shape != b.shape:
        raise InputError(f"Hellinger distance: shapes {a.shape} and {b.shape} differ")
    for name, x in (("p", a), ("q", b)):
        if not np.all(np.isfinite(x)) or np.any(x < 0) or x.sum() <= 0:
            raise InputError(
                f"Hellinger distance: {name} must hold finite non-negative weights with a "
                "positive sum"
            )
    h = np.sqrt(0.5 * np.sum((np.sqrt(a / a.sum()) - np.sqrt(b / b.sum())) ** 2))
    return float(min(h, 1.0))


def hellinger_dd(original: Any, release: Any, *, mode: str = "out") -> float:
    """Hellinger distance between the degree distributions of two graphs (seed 004 §2.10,
    Table 4.3 "DD").  O(n₁ + n₂)."""
    return hellinger_distance(
        degree_distribution(original, mode=mode), degree_distribution(release, mode=mode)
    )


def hellinger_jdd(original: Any, release: Any) -> float:
    """Hellinger distance between the joint degree distributions of two undirected graphs
    (seed 004 §2.10, Table 4.3 "JDD").  O(m log m)."""
    return _jdd_distance(joint_degree_distribution(original), joint_degree_distribution(release))


def _jdd_distance(a: JointDegreeDistribution, b: JointDegreeDistribution) -> float:
    base = int(max(a.k2.max(), b.k2.max())) + 1
    ka, kb = a.k1 * base + a.k2, b.k1 * base + b.k2
    keys = np.union1d(ka, kb)
    pa, pb = np.zeros(keys.size), np.zeros(keys.size)
    pa[np.searchsorted(keys, ka)] = a.p
    pb[np.searchsorted(keys, kb)] = b.p
    return hellinger_distance(pa, pb)


__all__ = [
    "DegreeConnectivity",
    "JointDegreeDistribution",
    "average_degree_connectivity",
    "degree_distribution",
    "degree_sequence",
    "density",
    "hellinger_dd",
    "hellinger_distance",
    "hellinger_jdd",
    "joint_degree_distribution",
]
