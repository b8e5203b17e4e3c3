"""The graph type every graph algorithm in privlab works on: CSR arrays in numpy.

A :class:`Graph` has nodes 0..n−1 and, per node, its sorted neighbour list
(``indptr``/``indices``, as in :class:`scipy.sparse.csr_array`).  Undirected graphs store
each edge in both rows; directed graphs store out-neighbours.  The graph is simple: no
self-loops, no parallel edges (readers report and remove them, they never keep them
silently).  ``labels`` keeps the original node ids (from a file or a networkx/igraph graph)
so results can be mapped back.  :func:`as_graph` turns a networkx or igraph graph into a
Graph; every public graph function accepts all three through it.

Model: seed 000 §2.9 (simple graphs).
Building from m edges costs O(m log m); degrees O(n); an edge test O(log d).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.io.edgelist import (
    EdgeListReport,
    is_markup,
    loops_and_duplicates,
    pair_keys,
    read_edges,
    read_markup,
    write_edges,
    write_markup,
)


@dataclass(frozen=True, eq=False)
class Graph:
    """A simple graph in CSR form; build it with :meth:`from_edges`."""

    indptr: np.ndarray
    indices: np.ndarray
    directed: bool = False
    labels: np.ndarray | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_edges(
        cls,
        n: int,
        edges: Any,
        *,
        directed: bool = False,
        labels: Any = None,
    ) -> Graph:
        """Graph on nodes 0..n−1 from an (m × 2) integer array of edges.

        Self-loops and repeated edges are errors here (readers remove and report them
        first; :func:`simplify_edges` does it for arrays).  O(m log m).
        """
        e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        if int(n) != n or n < 0:
            raise InputError(f"n = {n!r}: give the number of nodes, an integer ≥ 0")
        if e.size and (e.min() < 0 or e.max() >= n):
            bad = int(np.argmax((e < 0).any(axis=1) | (e >= n).any(axis=1)))
            raise InputError(f"edge {bad} = {tuple(e[bad])} names a node outside 0..{n - 1}")
        loops, dups = loops_and_duplicates(e, directed)
        if loops.size or dups.size:
            which = int(loops[0]) if loops.size else int(dups[0])
            kind = "a self-loop" if loops.size else "a repeated edge"
            raise InputError(
                f"edge {which} = {tuple(e[which])} is {kind}; simple graphs only "
                "(privlab.io.edgelist.simplify_edges drops and counts them)"
            )
        rows, cols = (e[:, 0], e[:, 1]) if directed else (
            np.concatenate([e[:, 0], e[:, 1]]), np.concatenate([e[:, 1], e[:, 0]])
        )  # fmt: skip
        order = np.argsort(pair_keys(rows, cols, int(n)))  # by row, then column
        indptr = np.zeros(int(n) + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=int(n)), out=indptr[1:])
        lab = None if labels is None else np.asarray(labels)
        if lab is not None and lab.shape != (int(n),):
            raise InputError(f"labels: {lab.shape[0]} given for {n} nodes")
        return cls(indptr, cols[order].astype(np.int64), bool(directed), lab)

    # ------------------------------------------------------------------ basic facts
    @property
    def n_nodes(self) -> int:
        return int(self.indptr.size - 1)

    @property
    def n_edges(self) -> int:
        return int(self.indices.size if self.directed else self.indices.size // 2)

    def degrees(self) -> np.ndarray:
        """Degree of every node (out-degree if directed).  O(n)."""
        return np.diff(self.indptr)

    def in_degrees(self) -> np.ndarray:
        """In-degree of every node (the degree if undirected).  O(m)."""
        if not self.directed:
            return self.degrees()
        return np.bincount(self.indices, minlength=self.n_nodes)

    def neighbors(self, v: int) -> np.ndarray:
        """Sorted neighbours (out-neighbours if directed) of node v.  O(1) view."""
        return self.indices[self.indptr[v] : self.indptr[v + 1]]

    def has_edge(self, u: int, v: int) -> bool:
        """Edge test by binary search in u's row.  O(log deg u)."""
        row = self.neighbors(u)
        i = np.searchsorted(row, v)
        return bool(i < row.size and row[i] == v)

    def edges(self) -> np.ndarray:
        """(m × 2) int64 edges, row-major; each undirected edge once with u < v.  O(m)."""
        rows = np.repeat(np.arange(self.n_nodes, dtype=np.int64), self.degrees())
        e = np.stack([rows, self.indices], axis=1)
        return e if self.directed else e[e[:, 0] < e[:, 1]]

    def density(self) -> float:
        """|E| / (n(n−1)/2) (or / n(n−1) if directed), seed 000 §2.9."""
        n = self.n_nodes
        pairs = n * (n - 1) if self.directed else n * (n - 1) / 2
        return self.n_edges / pairs if pairs else 0.0

    def require_undirected(self, what: str) -> None:
        """InputError if directed: ``what`` (a scheme or metric) needs an undirected graph."""
        if self.directed:
            raise InputError(
                f"{what} needs an undirected graph; this one is directed — read it with "
                "directed=False (each edge is then kept once)"
            )

    def induced(self, nodes: Any) -> Graph:
        """The subgraph on ``nodes`` (distinct ids), relabelled 0..k−1 in their order,
        without labels.  O(Σ of their degrees + n) (CSR row and column slicing)."""
        idx = np.asarray(nodes, dtype=np.int64)
        a = self.to_scipy()[idx][:, idx].tocsr()
        a.sort_indices()
        return Graph(a.indptr.astype(np.int64), a.indices.astype(np.int64), self.directed)

    # ------------------------------------------------------------------ conversion
    def to_scipy(self):
        """The adjacency matrix as a scipy.sparse.csr_array (no copy of the index arrays)."""
        from scipy import sparse

        data = np.ones(self.indices.size, dtype=np.int8)
        return sparse.csr_array((data, self.indices, self.indptr), shape=(self.n_nodes,) * 2)

    def to_networkx(self):
        """A networkx (Di)Graph with nodes 0..n−1 and a ``label`` attribute if labelled."""
        import networkx as nx

        g = nx.DiGraph() if self.directed else nx.Graph()
        g.add_nodes_from(range(self.n_nodes))
        if self.labels is not None:
            nx.set_node_attributes(g, dict(enumerate(self.labels.tolist())), "label")
        g.add_edges_from(self.edges().tolist())
        return g

    def to_igraph(self):
        """An igraph Graph with vertices 0..n−1 (and a ``label`` attribute if labelled)."""
        import igraph as ig

        g = ig.Graph(n=self.n_nodes, edges=self.edges().tolist(), directed=self.directed)
        if self.labels is not None:
            g.vs["label"] = self.labels.tolist()
        return g

    @classmethod
    def from_networkx(cls, g: Any) -> Graph:
        """From a networkx graph; its node ids become labels.  Self-loops are an error."""
        nodes = list(g.nodes())
        index = {v: i for i, v in enumerate(nodes)}
        edges = np.array([(index[u], index[v]) for u, v in g.edges()], dtype=np.int64)
        return cls.from_edges(len(nodes), edges, directed=g.is_directed(), labels=_labels(nodes))

    @classmethod
    def from_igraph(cls, g: Any) -> Graph:
        """From an igraph graph; its ``name`` (or ``label``) attribute becomes labels."""
        attrs = g.vs.attributes()
        labels = g.vs["name"] if "name" in attrs else g.vs["label"] if "label" in attrs else None
        edges = np.array(g.get_edgelist(), dtype=np.int64)
        return cls.from_edges(g.vcount(), edges, directed=g.is_directed(), labels=labels)

    def __repr__(self) -> str:
        kind = "directed" if self.directed else "undirected"
        return f"Graph({kind}, {self.n_nodes} nodes, {self.n_edges} edges)"


def _labels(nodes: list[Any]) -> np.ndarray:
    arr = np.asarray(nodes)
    if arr.ndim != 1:  # tuples as node ids
        arr = np.empty(len(nodes), dtype=object)
        arr[:] = nodes
    return arr


def as_graph(obj: Any, what: str = "graph", *, undirected: bool = False) -> Graph:
    """A privlab Graph from a Graph (returned as is), a networkx graph or an igraph graph.

    Every public graph function calls this on its graph arguments, so each accepts all
    three.  Nodes are numbered in networkx's ``g.nodes()`` order (igraph: vertex order) and
    the ids become ``labels``; node arguments and results of the functions are those
    numbers.  ``what`` names the caller in error messages; ``undirected=True`` rejects a
    directed graph with an InputError naming it.  O(1) for a Graph, O(m log m) otherwise.
    """
    if isinstance(obj, Graph):
        g = obj
    else:
        root = type(obj).__module__.split(".", 1)[0]
        if root == "networkx":
            g = Graph.from_networkx(obj)
        elif root == "igraph":
            g = Graph.from_igraph(obj)
        else:
            raise InputError(
                f"{what}: expected a privlab Graph, a networkx graph or an igraph graph, "
                f"got {type(obj).__name__} (build one with Graph.from_edges or read_graph)"
            )
    if undirected:
        g.require_undirected(what)
    return g


def read_graph(path: str | os.PathLike[str], *, directed: bool = False) -> GraphFile:
    """Read an edge list (:func:`privlab.io.edgelist.read_edges`: two ids per line for an
    edge, one for a node without edges), or GraphML / GML by suffix
    (:func:`privlab.io.edgelist.read_markup`), into a Graph with every node.

    Self-loops, repeated edges and ignored columns are removed and reported in ``.report``
    (count, and the first line number for edge lists); malformed lines raise InputError with
    the line.  O(m log m).
    """
    reader = read_markup if is_markup(path) else read_edges
    data = reader(path, directed=directed)
    graph = Graph.from_edges(data.labels.size, data.edges, directed=directed, labels=data.labels)
    return GraphFile(graph, data.report)


@dataclass(frozen=True)
class GraphFile:
    """A graph read from a file and the reader's report of what it removed."""

    graph: Graph
    report: EdgeListReport


def write_graph(
    graph: Any,
    path: str | os.PathLike[str],
    *,
    header: str | None = None,
    named: str | os.PathLike[str] | None = None,
):
    """Write ``graph`` atomically, every node included: GraphML or GML by suffix
    (:func:`privlab.io.edgelist.write_markup`), otherwise an edge list whose nodes without
    edges are on lines of their own (:func:`privlab.io.edgelist.write_edges`, which
    documents the format).  Ids are the labels if the graph has them, else 0..n−1;
    :func:`read_graph` reads back the same nodes, labels and edges.  ``named``: the final
    name whose suffix decides the format, when ``path`` is a temporary file.  O(n + m).
    """
    g = as_graph(graph, f"write_graph({os.fspath(path)!r})")
    args = (path, g.edges(), g.labels)
    kwargs = {"n_nodes": g.n_nodes, "directed": g.directed, "header": header}
    if is_markup(named or path):
        return write_markup(*args, **kwargs, named=named)
    return write_edges(*args, **kwargs)


__all__ = ["Graph", "GraphFile", "as_graph", "read_graph", "write_graph"]
