"""k-isomorphism (Cheng, Fu & Liu, *K-isomorphism: privacy preserving network publication
against structural attacks*, SIGMOD 2010).

Source: the paper, cited in seed 004 §2 (Sharad's thesis, L349–361: "k-isomorphism /
k-security, exponential runtime; largest evaluated graph 20 000 nodes, average degree ≈ 5").

**Definition.**  A graph is *k-isomorphic* when it consists of k disjoint subgraphs
g_1 … g_k that are pairwise isomorphic: whatever structural knowledge an adversary holds
about a target, it matches the target's copy in each of the k subgraphs equally well, so
the target (and, the paper shows, any edge between two targets) is hidden among k.

**Construction.**  The nodes go into an alignment vertex table of ⌈n/k⌉ rows and k columns
(:func:`~privlab.graph.anonymize.kautomorphism.alignment_table`, noise nodes completing the
last row); column c is the subgraph g_c.  Edges between two columns are *removed* (the
paper's partitioning step cuts them); an edge inside a column between rows p and q is
*copied* into every column (the paper's alignment makes the k subgraphs isomorphic by adding
edges).  Row r of every column then plays the same part, so the identity on rows is an
isomorphism between any two columns.  The default table (``table="bfs"``) grows the k
columns as k breadth-first searches in lockstep: tree edges stay inside a column, and the
k copies of a tree edge are all original edges.  The paper partitions with a
frequent-subgraph-based search, exponential in the worst case; this construction is
O(k·m log(k·m)) and gives a release of the same kind, with more edges changed.  The
release is checked against the definition (``verify=True``): no edge between columns, and
igraph's ``isomorphic`` (bliss) confirms each column isomorphic to the first.

**What the release contains.**  Nodes 0..n−1 are the original nodes, then the noise nodes
(labelled ``noise1``, … when the input is labelled); ``block[v]`` is the subgraph of node v.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed
from privlab.graph.anonymize.kautomorphism import noise_labels, prepare_table
from privlab.graph.anonymize.ksymmetry import GrowingRelease
from privlab.graph.core import Graph


class KIsomorphismInternalError(RuntimeError):
    """The release failed its own definition check (a bug, never a silent wrong release)."""


@dataclass(frozen=True, eq=False)
class KIsomorphismResult(GrowingRelease):
    """A k-isomorphic release: ``block[v]`` (0..k−1) is the subgraph of release node v and
    ``row[v]`` its part in it (nodes of equal row correspond under the isomorphisms)."""

    graph: Graph
    k: int
    table: str
    original_nodes: int
    original_edges: int
    edges_removed: int
    block: np.ndarray
    row: np.ndarray
    verified: bool
    seconds: float
    insecure_seed: bool = False

    @property
    def edges_added(self) -> int:
        return self.graph.n_edges - self.original_edges + self.edges_removed

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": "kisomorphism",
            "k": self.k,
            "table": self.table,
            **self.growth(),
            "edges_removed": self.edges_removed,
            "block_nodes": int(self.row.max()) + 1 if self.row.size else 0,
            "block_edges": self.graph.n_edges // self.k,
            "verified": self.verified,
            "seconds": self.seconds,
            "insecure_seed": self.insecure_seed,
        }


def kisomorphism_anonymize(
    graph: Graph, k: int, *, table: str = "bfs", seed: Any = None, verify: bool = True
) -> KIsomorphismResult:
    """Split ``graph`` into k disjoint isomorphic subgraphs (Cheng, Fu & Liu, SIGMOD 2010;
    module docstring).  ``seed`` breaks ties in the table ("bfs", "degree") or draws it
    ("random").  ``verify`` checks the definition with igraph and raises
    :class:`KIsomorphismInternalError` on failure.  O(k·m log(k·m)) plus the check.
    """
    t0 = time.perf_counter()
    hint = "the release will be k disjoint isomorphic subgraphs"
    graph, k, rng, cells = prepare_table(graph, k, table, seed, "k-isomorphism", hint)
    n, edges, total = graph.n_nodes, graph.edges(), cells.size
    row, block = cells // k, cells % k
    inside = block[edges[:, 0]] == block[edges[:, 1]]
    p, q = row[edges[inside, 0]], row[edges[inside, 1]]
    pattern = np.unique(np.stack([np.minimum(p, q), np.maximum(p, q)], axis=1), axis=0)
    at = np.empty(total, dtype=np.int64)
    at[cells] = np.arange(total)
    c = np.arange(k)
    a = at[(pattern[:, 0:1] * k + c).ravel()]
    b = at[(pattern[:, 1:2] * k + c).ravel()]
    release = Graph.from_edges(total, np.stack([a, b], axis=1), labels=noise_labels(graph, total))
    if verify:
        _verify(release, block, k)
    return KIsomorphismResult(
        release, k, table, n, int(edges.shape[0]), int((~inside).sum()), block, row, verify,
        time.perf_counter() - t0, is_insecure_seed(rng),
    )  # fmt: skip


def _verify(release: Graph, block: np.ndarray, k: int) -> None:
    """The definition: no edge between blocks; every block isomorphic to block 0 (bliss)."""
    import igraph as ig

    e = release.edges()
    if e.size and np.any(block[e[:, 0]] != block[e[:, 1]]):
        raise KIsomorphismInternalError("k-isomorphism: an edge joins two of the k subgraphs")
    h = ig.Graph(n=release.n_nodes, edges=e.tolist())
    parts = [h.induced_subgraph(np.flatnonzero(block == c).tolist()) for c in range(k)]
    for c in range(1, k):
        if not parts[0].isomorphic(parts[c]):
            raise KIsomorphismInternalError(f"k-isomorphism: subgraph {c} is not isomorphic "
                                            "to subgraph 0")  # fmt: skip


__all__ = ["KIsomorphismInternalError", "KIsomorphismResult", "kisomorphism_anonymize"]
