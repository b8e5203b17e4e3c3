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

**Algorithm.**  (1) Twin reduction: nodes with equal open neighbourhoods N(v) (false twins)
or equal closed ones N[v] (true twins) are interchangeable — swapping two twins is an
automorphism — so each twin class is replaced by one representative coloured by (kind,
class size).  Automorphisms of G map twin classes onto twin classes of the same kind and
size, so they are exactly the lifts of the colour-preserving automorphisms of the quotient:
orbits(G) = the lifted orbits of the quotient, and |Aut(G)| = |Aut_c(Q)| · Π |C|!.  The
reduction is what keeps bliss's output small: on a k-symmetric release the copies of a node
are twins, and listing generators over all n nodes was 75 s on the k = 5 release of ca-GrQc.
(2) bliss (Junttila & Kaski, ALENEX 2007) through python-igraph on the coloured quotient
(``Graph.automorphism_group``: a generating set; ``count_automorphisms``: the exact order).
(3) The orbits are the connected components of the graph with an edge v – g(v) for every
generator g (scipy).  bliss is exponential in the worst case but fast on real graphs (≈ 2 s
on ca-GrQc, 0.6 s on ego-Facebook on this machine); the rest is O(m log m + n · g).
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
    of each orbit's smallest node; ``group_size`` = |Aut(G)| (an exact Python int,
    astronomically large on real graphs); :meth:`generators` generate Aut(G).

    ``twin_of[v]`` is v's twin-class representative (module docstring), ``quotient`` the
    representatives and ``quotient_generators`` the generators bliss found for the coloured
    quotient graph, as permutations of positions in ``quotient``."""

    orbit: np.ndarray
    sizes: np.ndarray
    twin_of: np.ndarray
    quotient: np.ndarray
    quotient_generators: np.ndarray
    group_size: int
    seconds: float

    @property
    def n_generators(self) -> int:
        return int(self.quotient_generators.shape[0]) + int(
            (self.twin_of != np.arange(self.n_nodes)).sum()
        )

    def generators(self) -> list[np.ndarray]:
        """Permutations of 0..n−1 generating Aut(G): each quotient generator lifted (class
        members mapped in increasing order) and one transposition (v, twin_of[v]) per twin.
        O(n · generators) memory; meant for checks on small graphs."""
        n = self.n_nodes
        pos = np.full(n, -1, dtype=np.int64)
        pos[self.quotient] = np.arange(self.quotient.size)
        cls = pos[self.twin_of]  # quotient position of each node's class
        order = np.lexsort((np.arange(n), cls))  # nodes grouped by class, increasing
        start = np.searchsorted(cls[order], np.arange(self.quotient.size))
        rank = np.empty(n, dtype=np.int64)
        rank[order] = np.arange(n) - start[cls[order]]  # index of v within its class
        out = []
        for sigma in self.quotient_generators:
            out.append(order[start[sigma[cls]] + rank])
        for v in np.flatnonzero(self.twin_of != np.arange(n)).tolist():
            p = np.arange(n)
            p[v], p[self.twin_of[v]] = self.twin_of[v], v
            out.append(p)
        return out

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
            "n_generators": self.n_generators,
            "quotient_nodes": int(self.quotient.size),
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
        return AutomorphismOrbits(empty, empty, empty, empty, empty.reshape(0, 0), 1,
                                  time.perf_counter() - t0)  # fmt: skip
    twin = twin_classes(graph)
    reps = np.flatnonzero(twin.representative == np.arange(n))
    index = np.full(n, -1, dtype=np.int64)
    index[reps] = np.arange(reps.size)
    e = graph.edges()
    keep = (index[e[:, 0]] >= 0) & (index[e[:, 1]] >= 0)
    q = _igraph(Graph.from_edges(reps.size, index[e[keep]]))
    size_of = np.bincount(twin.representative, minlength=n)[reps]
    kind = twin.kind[reps]
    _, colour = np.unique(np.stack([kind, size_of]), axis=1, return_inverse=True)
    colour = colour.ravel().tolist()
    table = np.array(q.automorphism_group(sh=heuristic, color=colour), dtype=np.int64)
    table = table.reshape(-1, reps.size)
    with _long_ints():  # |Aut| of a k-symmetric release has thousands of digits
        size = int(q.count_automorphisms(sh=heuristic, color=colour))
    for c in size_of[size_of > 1].tolist():
        size *= math.factorial(c)
    q_orbit = orbits_from_generators(reps.size, table)
    orbit = _canonical(q_orbit[index[twin.representative]])
    sizes = np.bincount(orbit)
    for a in (orbit, sizes):
        a.flags.writeable = False
    table.flags.writeable = False
    return AutomorphismOrbits(orbit, sizes, twin.representative, reps, table, size,
                              time.perf_counter() - t0)  # fmt: skip


@dataclass(frozen=True, eq=False)
class TwinClasses:
    """Structural twins: ``representative[v]`` is the smallest node with N(v) = N(u) (false
    twins, ``kind`` 1) or N[v] = N[u] (true twins, ``kind`` 2); ``kind`` 0: no twin."""

    representative: np.ndarray
    kind: np.ndarray


def twin_classes(graph: Graph) -> TwinClasses:
    """Group the nodes with equal open (N(v)) or closed (N[v] = N(v) ∪ {v}) neighbourhoods.

    Twins are interchangeable: the transposition of two twins is an automorphism, and a node
    never has both a false and a true twin (u, v false and u, w true twins would force v ~ w
    ~ u ~ v).  Exact (the neighbour lists themselves are the keys); O(m log m).
    """
    n = graph.n_nodes
    rep = np.arange(n, dtype=np.int64)
    kind = np.zeros(n, dtype=np.int8)
    for closed, code in ((False, 1), (True, 2)):
        seen: dict[bytes, int] = {}
        for v in range(n):
            row = graph.indices[graph.indptr[v] : graph.indptr[v + 1]]
            if closed:
                row = np.insert(row, np.searchsorted(row, v), v)
            key = row.tobytes()
            first = seen.setdefault(key, v)
            if first != v and kind[first] in (0, code) and kind[v] == 0:
                rep[v], kind[v], kind[first] = first, code, code
    return TwinClasses(rep, kind)


def _canonical(labels: np.ndarray) -> np.ndarray:
    """Renumber a partition by the smallest member of each class."""
    n = labels.size
    _, inv = np.unique(labels, return_inverse=True)
    inv = inv.ravel()
    first = np.full(inv.max() + 1 if n else 0, n, dtype=np.int64)
    np.minimum.at(first, inv, np.arange(n, dtype=np.int64))
    rank = np.empty_like(first)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return rank[inv].astype(np.int64)


def _big(x: int) -> int | str:
    """An exact int up to 10^15, else a float-style string ("8.7004e+1096")."""
    if x < 10**15:
        return x
    with _long_ints():
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
    return _canonical(labels)


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


@contextmanager
def _long_ints() -> Iterator[None]:
    """Lift Python's limit on int ↔ str conversions (4,300 digits) for a moment."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


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
