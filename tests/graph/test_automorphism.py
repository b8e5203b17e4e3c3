"""Exact automorphism orbits (seed 002 §A.2.3): Hay et al.'s Fig. 2 classes, a graph where H*
is strictly coarser than the orbits, orbits = the union over *every* automorphism enumerated
by an independent algorithm (VF2), orbits never coarser than H* (hypothesis), and the
definition checks used by the symmetry schemes."""

from __future__ import annotations

import math

import igraph as ig
import networkx as nx
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError
from privlab.graph.attacks.refinement import vertex_refinement
from privlab.graph.automorphism import (
    automorphism_orbits,
    is_automorphism,
    is_fixed_point_free,
    orbits_from_generators,
    twin_classes,
)
from privlab.graph.core import Graph

FIG2_EDGES = [(0, 1), (2, 1), (1, 3), (1, 4), (3, 4), (3, 6), (3, 5), (4, 6), (4, 7), (6, 5),
              (6, 7)]  # Alice=0 Bob=1 Carol=2 Dave=3 Ed=4 Fred=5 Greg=6 Harry=7  # fmt: skip


def _partition(labels) -> set[frozenset[int]]:
    out: dict[int, set[int]] = {}
    for v, c in enumerate(np.asarray(labels).tolist()):
        out.setdefault(c, set()).add(v)
    return {frozenset(s) for s in out.values()}


@st.composite
def graphs(draw, max_n: int = 11) -> Graph:
    n = draw(st.integers(1, max_n))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    keep = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    return Graph.from_edges(n, [p for p, k in zip(pairs, keep, strict=True) if k])


def test_hay_fig2_orbits_are_the_paper_classes():
    g = Graph.from_edges(8, FIG2_EDGES)
    o = automorphism_orbits(g)
    # ≡_A: {A,C} {B} {D,E} {G} {F,H} (seed 002 §A.2.4 worked example)
    assert _partition(o.orbit) == {frozenset(s) for s in ({0, 2}, {1}, {3, 4}, {6}, {5, 7})}
    assert o.group_size == 4  # swap A,C independently of the swap (D E)(F H)
    assert o.candidate_sizes().tolist() == [2, 1, 2, 2, 2, 2, 1, 2]
    assert o.members(3).tolist() == [3, 4]


def test_hstar_can_be_strictly_coarser_than_the_orbits():
    # a 6-cycle next to two triangles: every node has degree 2, one H* class of 12 nodes
    cyc = [(i, (i + 1) % 6) for i in range(6)]
    tri = [(6, 7), (7, 8), (8, 6), (9, 10), (10, 11), (11, 9)]
    g = Graph.from_edges(12, cyc + tri)
    assert vertex_refinement(g).candidate_sizes().tolist() == [12] * 12
    o = automorphism_orbits(g)
    assert _partition(o.orbit) == {frozenset(range(6)), frozenset(range(6, 12))}
    assert o.group_size == 12 * (6 * 6 * 2)  # D_6 × (S_3 ≀ S_2)


def test_karate_orbits_and_group_size():
    g = Graph.from_networkx(nx.karate_club_graph())
    o = automorphism_orbits(g)
    assert o.group_size == ig.Graph.Famous("Zachary").count_automorphisms()
    assert all(is_automorphism(g, p) for p in o.generators())
    # the candidate sizes under complete knowledge never exceed those under H*
    assert np.all(o.candidate_sizes() <= vertex_refinement(g).candidate_sizes())


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_orbits_are_exactly_those_of_every_automorphism(g):
    """Independent check: VF2 enumerates Aut(G) element by element."""
    o = automorphism_orbits(g)
    assume(o.group_size <= 5000)  # VF2 lists every automorphism (11 isolated nodes: 11!)
    every = ig.Graph(n=g.n_nodes, edges=g.edges().tolist()).get_automorphisms_vf2()
    assert o.group_size == len(every)
    assert _partition(o.orbit) == _partition(orbits_from_generators(g.n_nodes, every))
    gens = o.generators()
    assert len(gens) == o.n_generators
    for p in gens:
        assert is_automorphism(g, p)
    # the lifted generators generate the whole group: same orbits as VF2's full list
    assert _partition(orbits_from_generators(g.n_nodes, gens)) == _partition(o.orbit)
    # twins share an orbit, and the quotient is what bliss really saw
    assert np.array_equal(o.orbit[o.twin_of], o.orbit)
    assert o.quotient.size == np.unique(o.twin_of).size


@settings(max_examples=80, deadline=None)
@given(graphs(max_n=14))
def test_orbits_are_never_coarser_than_hstar(g):
    """x ≡_A y ⇒ x ≡_{H*} y: every orbit lies inside one H* class."""
    o = automorphism_orbits(g)
    star = vertex_refinement(g).level(None)
    for members in _partition(o.orbit):
        assert len({int(star[v]) for v in members}) == 1
    assert o.n_orbits >= len(set(star.tolist()))


@settings(max_examples=30, deadline=None)
@given(graphs(), st.randoms(use_true_random=False))
def test_orbit_sizes_are_invariant_under_relabelling(g, rnd):
    perm = list(range(g.n_nodes))
    rnd.shuffle(perm)
    p = np.array(perm)
    h = Graph.from_edges(g.n_nodes, p[g.edges()])
    a, b = automorphism_orbits(g), automorphism_orbits(h)
    assert a.group_size == b.group_size
    assert np.array_equal(b.candidate_sizes()[p], a.candidate_sizes())


def test_twin_classes_on_a_hand_checked_graph():
    # star 0-{1,2,3} (1,2,3 false twins) and a triangle 4,5,6 hanging off 3 by 4 (5,6 true)
    g = Graph.from_edges(7, [(0, 1), (0, 2), (0, 3), (3, 4), (4, 5), (4, 6), (5, 6)])
    t = twin_classes(g)
    assert t.representative.tolist() == [0, 1, 1, 3, 4, 5, 5]
    assert t.kind.tolist() == [0, 1, 1, 0, 0, 2, 2]
    o = automorphism_orbits(g)
    assert _partition(o.orbit) == {frozenset(s) for s in ({0}, {1, 2}, {3}, {4}, {5, 6})}
    assert o.group_size == 4


def test_is_automorphism_and_fixed_point_free_definitions():
    cyc = Graph.from_edges(4, [(0, 1), (1, 2), (2, 3), (3, 0)])
    assert is_automorphism(cyc, [1, 2, 3, 0]) and is_fixed_point_free([1, 2, 3, 0])
    assert is_automorphism(cyc, [0, 3, 2, 1]) and not is_fixed_point_free([0, 3, 2, 1])
    assert not is_automorphism(cyc, [1, 0, 2, 3])  # maps edge 1-2 to 0-2, not an edge
    assert not is_automorphism(cyc, [0, 0, 2, 3])  # not a permutation
    assert not is_automorphism(cyc, [0, 1, 2])  # wrong length


def test_empty_graph_and_the_heuristic():
    o = automorphism_orbits(Graph.from_edges(0, []))
    assert o.n_orbits == 0 and o.group_size == 1
    g = Graph.from_edges(5, [])  # five isolated nodes: S_5, one orbit
    assert automorphism_orbits(g, heuristic="fs").group_size == math.factorial(5)
    with pytest.raises(ConfigError, match="heuristic"):
        automorphism_orbits(g, heuristic="best")
    d = automorphism_orbits(g).to_dict()
    assert d["n_orbits"] == 1 and d["group_size"] == 120 and d["largest_orbit"] == 5
