"""Node centralities and clustering coefficients (one value per node, or per graph).

Sources: seed 004 §2.10 (degree and eigenvector centrality, plotted against each other),
seed 002 §A.2.9 (closeness, betweenness and clustering, summarized by the median over
nodes), seed 000 §2.9 (the three clustering coefficients, eq. 7.1–7.3).  Every function
returns values for nodes 0..n−1 in that order and agrees with networkx's function of the
same name (tests/graph/test_utility.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.graph.core import Graph, as_graph
from privlab.graph.utility._base import (
    check_choice,
    igraph_of,
    quiet,
    sample_sources,
    total_degrees,
)


def degree_centrality(graph: Any) -> np.ndarray:
    """d(v)/(n − 1) (in + out degree if directed); 1 for the single node of a 1-node graph,
    as networkx.  Seed 004 §2.10 metric 4.  O(n)."""
    g = as_graph(graph, "degree centrality")
    n = g.n_nodes
    d = total_degrees(g).astype(np.float64)
    return d / (n - 1) if n > 1 else np.ones(n)


def eigenvector_centrality(graph: Any) -> np.ndarray:
    """The leading eigenvector of the adjacency matrix, non-negative, unit Euclidean norm.

    Seed 004 §2.10 metric 5 ("the v-th component of the leading eigenvector"); same scale
    as ``networkx.eigenvector_centrality``.  On a disconnected graph this is the Perron
    vector of the component with the largest spectral radius (other components ≈ 0), which
    is what power iteration converges to.  When the leading eigenvalue is repeated (e.g.
    two identical components) the result is, like networkx's power iteration from the
    all-ones vector, the projection of that vector onto the leading eigenspace (Lanczos
    from the same start vector only sees that projection).  An edgeless graph gives 1/√n.
    Deterministic: ARPACK (scipy ``eigsh``) from the all-ones vector — igraph's routine
    draws its start vector from Python's global ``random`` instead.  Undirected graphs
    only.  About O(m) per Lanczos iteration; dense O(n³) below 64 nodes.
    """
    g = as_graph(graph, "eigenvector centrality", undirected=True)
    n = g.n_nodes
    if n == 0:
        return np.zeros(0)
    if g.n_edges == 0:
        return np.full(n, 1 / np.sqrt(n))
    adjacency = g.to_scipy().astype(np.float64)
    start = np.ones(n)
    if n < 64:
        values, vectors = np.linalg.eigh(adjacency.toarray())
        top = vectors[:, values >= values[-1] - 1e-9 * max(1.0, values[-1])]
        x = top @ (top.T @ start)
    else:
        from scipy.sparse.linalg import eigsh

        x = eigsh(adjacency, k=1, which="LA", v0=start, tol=0)[1][:, 0]
    x = np.abs(x)
    return x / np.linalg.norm(x)


def closeness_centrality(graph: Any, *, nodes: Any = None) -> np.ndarray:
    """Closeness (r − 1)/Σ_u d(v, u) over the r nodes v reaches (itself included), scaled
    by (r − 1)/(n − 1) (Wasserman–Faust), i.e. ``networkx.closeness_centrality``.

    Seed 002 §A.2.9: the paper's values fit the reciprocal of the average distance, not
    the average distance.  Isolated nodes get 0.  ``nodes`` restricts the computation to
    those nodes (how :func:`~privlab.graph.utility.compare` samples it).  Undirected
    graphs only.  O(|nodes|·(n + m)) — one BFS per node.
    """
    metric = "closeness centrality"
    g = as_graph(graph, metric, undirected=True)
    n = g.n_nodes
    which = np.arange(n) if nodes is None else np.asarray(nodes, dtype=np.int64).reshape(-1)
    if which.size and (which.min() < 0 or which.max() >= n):
        raise InputError(f"{metric}: nodes must lie in 0..{n - 1}")
    if which.size == 0 or n <= 1:
        return np.zeros(which.size)
    h = igraph_of(g)
    raw = np.asarray(quiet(h.closeness, vertices=which.tolist(), normalized=True), dtype=float)
    membership = np.asarray(h.connected_components().membership)
    size = np.bincount(membership)[membership[which]]
    return np.nan_to_num(raw * (size - 1) / (n - 1), nan=0.0)


def betweenness_centrality(
    graph: Any, *, normalized: bool = True, sample: int | None = None, seed: Any = None
) -> np.ndarray:
    """Share of shortest paths through each node (Brandes), normalized as networkx:
    by 2/((n−1)(n−2)) undirected, 1/((n−1)(n−2)) directed (seed 002 §A.2.9).

    ``sample`` = k estimates it from k random sources (Brandes–Pich: the source-restricted
    sums scaled by n/k, as ``networkx.betweenness_centrality(k=...)``); ``seed`` fixes
    the sources.  O(n·m) exact, O(k·m) sampled (igraph).
    """
    metric = "betweenness centrality"
    g = as_graph(graph, metric)
    return _betweenness(g, sample_sources(g, sample, seed, metric), normalized)


def _betweenness(g: Graph, sources: np.ndarray | None, normalized: bool = True) -> np.ndarray:
    n = g.n_nodes
    if n == 0:
        return np.zeros(0)
    h = igraph_of(g)
    if sources is None:
        raw = np.asarray(h.betweenness(directed=g.directed), dtype=float)
    else:
        raw = np.asarray(h.betweenness(directed=g.directed, sources=sources.tolist()), dtype=float)
        raw *= n / sources.size
    if normalized and n > 2:
        raw *= (1.0 if g.directed else 2.0) / ((n - 1) * (n - 2))
    return raw


# ---------------------------------------------------------------------------- clustering
_VARIANTS = ("cc", "cc1", "cc2")


def triangles(graph: Any) -> np.ndarray:
    """∆(v): the number of triangles containing each node.  Undirected graphs only.
    O(Σ_v d(v)²) worst case (igraph's local transitivity)."""
    g = as_graph(graph, "triangles", undirected=True)
    return _triangles(g)


def _triangles(g: Graph) -> np.ndarray:
    d = g.degrees().astype(np.float64)
    local = np.asarray(igraph_of(g).transitivity_local_undirected(mode="zero"), dtype=float)
    return np.rint(local * d * (d - 1) / 2).astype(np.int64)


def local_clustering(graph: Any) -> np.ndarray:
    """∆(v)/(d(v)(d(v)−1)/2) per node, 0 when d(v) < 2 (networkx.clustering; seed 002
    §A.2.9 "fraction of pairs of neighbours that are linked").  Undirected only."""
    g = as_graph(graph, "local clustering", undirected=True)
    return np.asarray(igraph_of(g).transitivity_local_undirected(mode="zero"), dtype=float)


@dataclass(frozen=True)
class ClusteringCoefficients:
    """The three clustering coefficients of seed 000 §2.9, with their 0/0 conventions.

    - ``cc`` (eq. 7.1, the thesis's experiments, networkx ``average_clustering``, SNAP):
      (1/|V|) Σ_v ∆(v)/(d(v)(d(v)−1)/2), nodes of degree < 2 contribute 0/0 := 0.
    - ``cc1`` (eq. 7.2, "global", = transitivity): Σ_v ∆(v) / Σ_v d(v)(d(v)−1)/2 = 3 ×
      triangles / connected triples; 0 when there is no triple.
    - ``cc2`` (eq. 7.3, Kaiser 2008): the eq. 7.1 average over S = {v : d(v) ≥ 2} only;
      0 when S is empty.
    """

    cc: float
    cc1: float
    cc2: float
    triangles: int
    triples: int
    nodes_degree2: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def clustering_coefficients(graph: Any) -> ClusteringCoefficients:
    """All three clustering coefficients from one triangle count.  Undirected only.
    O(Σ_v d(v)²) worst case; milliseconds on ca-GrQc."""
    g = as_graph(graph, "clustering coefficient", undirected=True)
    n = g.n_nodes
    d = g.degrees()
    tri = _triangles(g)
    wedges = d * (d - 1) // 2
    local = np.divide(tri, wedges, out=np.zeros(n), where=wedges > 0)
    s = int(np.count_nonzero(d >= 2))
    t_sum, w_sum = int(tri.sum()), int(wedges.sum())
    return ClusteringCoefficients(
        cc=float(local.sum() / n) if n else 0.0,
        cc1=t_sum / w_sum if w_sum else 0.0,
        cc2=float(local.sum() / s) if s else 0.0,
        triangles=t_sum // 3,
        triples=w_sum,
        nodes_degree2=s,
    )


def clustering_coefficient(graph: Any, variant: str = "cc") -> float:
    """One of the clustering coefficients of seed 000 §2.9: "cc" (eq. 7.1, default, used in
    the thesis's experiments), "cc1" (eq. 7.2) or "cc2" (eq. 7.3); see
    :class:`ClusteringCoefficients` for the definitions and 0/0 conventions."""
    check_choice(variant, _VARIANTS, "variant", "clustering coefficient")
    return getattr(clustering_coefficients(graph), variant)


__all__ = [
    "ClusteringCoefficients",
    "betweenness_centrality",
    "closeness_centrality",
    "clustering_coefficient",
    "clustering_coefficients",
    "degree_centrality",
    "eigenvector_centrality",
    "local_clustering",
    "triangles",
]
