"""Exact automorphism orbits (automorphic equivalence) through igraph's bliss.

Source: seed 002 Part A §A.2.3 (Hay, Miklau, Jensen, Weis & Srivastava, *Anonymizing Social
Networks*, UMass TR 07-19, 2007, L179–207): x ≡_A y iff some automorphism of G maps x to y.
The classes of ≡_A (the *orbits* of the automorphism group Aut(G)) partition V; an adversary
with complete structural knowledge of a target still cannot tell the members of its orbit
apart, so the orbit is the smallest candidate set any structural query can give (the
strongest structural indistinguishability).

**Relation with vertex refinement.**  An automorphism preserves every H_i (by induction on i:
it maps the neighbours of x onto the neighbours of f(x)), so x ≡_A y ⇒ x ≡_{H*} y: every
orbit lies inside one H* class, i.e. the orbit partition is never coarser than H* (it refines
it), and |orbit(x)| ≤ |cand_{H*}(x)|.  The converse fails: in a 6-cycle next to two
triangles every node has degree 2 and H* is one class of 12 nodes, but the orbits are the
cycle and the triangles (6 + 6).  Hay et al. note (L274–278) that H* coincides with ≡_A for
almost all graphs; the difference is what :func:`automorphism_orbits` adds to H*.

**Algorithm.**  bliss (Junttila & Kaski, ALENEX 2007) through python-igraph
(``Graph.automorphism_group``: a generating set of Aut(G); ``count_automorphisms``: |Aut(G)|,
an exact integer).  The orbits are the connected components of the graph with an edge
v – g(v) for every generator g (union of generators; scipy).  bliss is exponential in the worst
case but fast on real graphs (milliseconds on ca-GrQc and ego-Facebook); the components are
O(n · #generators).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph, as_graph

#: bliss's splitting heuristics (igraph's ``sh``); the group and orbits do not depend on it.
HEURISTICS = ("f", "fl", "fs", "fm", "flm", "fsm")


@dataclass(frozen=True, eq=False)
class AutomorphismOrbits:
    """The orbits of Aut(G): ``orbit[v]`` is v's orbit id, ids 0..r−1 numbered in the order
    of each orbit's smallest node; ``generators`` generate Aut(G) (permutations of 0..n−1);
    ``group_size`` = |Aut(G)| (an exact Python int, astronomically large on real graphs)."""

    orbit: np.ndarray
    sizes: np.ndarray
    generators: tuple[np.ndarray, ...]
    group_size: int
    seconds: float

    @property
    def n_nodes(self) -> int:
        return int(self.orbit.size)

    @property
    def n_orbits(self) -> int:
        return int(self.sizes.size)

    def candidate_sizes(self) -> np.ndarray:
        """|orbit(x)| for every node x: the candidate-set size under complete knowledge."""
        return self.sizes[self.orbit]

    def members(self, node: int) -> np.ndarray:
        """The nodes automorphically equivalent to ``node`` (its orbit), sorted."""
        n = self.n_nodes
        if isinstance(node, bool) or not isinstance(node, (int, np.integer)) or not 0 <= node < n:
            raise InputError(f"node = {node!r}: not a node id; the graph has nodes 0..{n - 1}")
        return np.flatnonzero(self.orbit == self.orbit[node])

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_nodes": self.n_nodes,
            "n_orbits": self.n_orbits,
            "nontrivial_orbits": int((self.sizes > 1).sum()),
            "nodes_in_nontrivial_orbits": int(self.sizes[self.sizes > 1].sum()),
            "largest_orbit": int(self.sizes.max()) if self.sizes.size else 0,
            "group_size": _big(self.group_size),
            "log10_group_size": math.log10(self.group_size),
            "n_generators": len(self.generators),
            "seconds": self.seconds,
        }


def automorphism_orbits(graph: Graph, *, heuristic: str = "fl") -> AutomorphismOrbits:
    """The orbits of the automorphism group of an undirected graph, exactly (bliss).

    Seed 002 §A.2.3 (automorphic equivalence).  ``heuristic`` is bliss's splitting heuristic
    (:data:`HEURISTICS`): it changes the generators and the time, never the orbits.
    Worst case exponential (graph isomorphism is not known to be polynomial); O(n · g) for the
    orbits from g generators.
    """
    graph = as_graph(graph, "automorphism orbits", undirected=True)
    if heuristic not in HEURISTICS:
        raise ConfigError(
            f"heuristic = {heuristic!r}: bliss's splitting heuristic is one of "
            f"{', '.join(HEURISTICS)}"
        )
    import igraph  # noqa: F401  (imported before the clock starts)

    t0 = time.perf_counter()
    n = graph.n_nodes
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return AutomorphismOrbits(empty, empty, (), 1, time.perf_counter() - t0)
    ig = _igraph(graph)
    table = np.array(ig.automorphism_group(sh=heuristic), dtype=np.int64).reshape(-1, n)
    size = int(ig.count_automorphisms(sh=heuristic))
    orbit = orbits_from_generators(n, table)
    table.flags.writeable = False
    gens = tuple(table)
    sizes = np.bincount(orbit)
    for a in (orbit, sizes):
        a.flags.writeable = False
    return AutomorphismOrbits(orbit, sizes, gens, size, time.perf_counter() - t0)


def _big(x: int) -> int | str:
    """An exact int up to 10^15, else a float-style string ("8.7004e+1096")."""
    if x < 10**15:
        return x
    digits = str(x)
    return f"{digits[0]}.{digits[1:5]}e+{len(digits) - 1}"


def orbits_from_generators(n: int, generators: Any) -> np.ndarray:
    """Orbit id of each of n nodes under the group generated by ``generators``: the
    components of the graph v – g(v), numbered in the order of their smallest node.  O(n·g)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    table = np.asarray(generators, dtype=np.int64).reshape(-1, n)
    moved = table != np.arange(n, dtype=np.int64)  # only the moved points make edges
    src = np.nonzero(moved)[1]
    dst = table[moved]
    adj = coo_matrix((np.ones(src.size, dtype=np.int8), (src, dst)), shape=(n, n)).tocsr()
    _, labels = connected_components(adj, directed=False)
    # renumber by smallest member: a canonical id for the same partition
    first = np.full(labels.max() + 1, n, dtype=np.int64)
    np.minimum.at(first, labels, np.arange(n, dtype=np.int64))
    rank = np.empty_like(first)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return rank[labels].astype(np.int64)


def is_automorphism(graph: Graph, perm: Any) -> bool:
    """Is ``perm`` (perm[v] = image of v) a permutation of the nodes that maps the edge set
    onto itself?  The definition, checked on every edge; O(m log m)."""
    graph = as_graph(graph, "the automorphism check", undirected=True)
    n = graph.n_nodes
    p = np.asarray(perm)
    if p.shape != (n,) or (n and not np.issubdtype(p.dtype, np.integer)):
        return False
    if n and not np.array_equal(np.sort(p), np.arange(n)):
        return False
    e = graph.edges()
    return bool(np.array_equal(_edge_keys(e, n), _edge_keys(p[e] if e.size else e, n)))


def is_fixed_point_free(perm: Any) -> bool:
    """Does ``perm`` move every node (perm[v] ≠ v for all v)?"""
    p = np.asarray(perm)
    return bool(np.all(p != np.arange(p.size)))


def _edge_keys(e: np.ndarray, n: int) -> np.ndarray:
    lo = np.minimum(e[:, 0], e[:, 1])
    hi = np.maximum(e[:, 0], e[:, 1])
    return np.sort(lo * max(n, 1) + hi)


def _igraph(graph: Graph) -> Any:
    import igraph as ig

    return ig.Graph(n=graph.n_nodes, edges=graph.edges().tolist(), directed=False)


__all__ = [
    "HEURISTICS",
    "AutomorphismOrbits",
    "automorphism_orbits",
    "is_automorphism",
    "is_fixed_point_free",
    "orbits_from_generators",
]
