"""k-symmetry by orbit copying (Wu et al., EDBT 2010): the release is checked by the
definition — every orbit, computed exactly by bliss, has ≥ k nodes — on karate and on random
graphs (hypothesis); orbit copying by hand on a path; the original graph is kept as an
induced subgraph; bad parameters."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError
from privlab.graph.anonymize import ksymmetry as KS
from privlab.graph.anonymize.ksymmetry import ksymmetry_anonymize
from privlab.graph.automorphism import automorphism_orbits
from privlab.graph.core import Graph
from tests.graph.test_automorphism import graphs


def _edge_set(g: Graph) -> set[tuple[int, int]]:
    return {(min(u, v), max(u, v)) for u, v in g.edges().tolist()}


def _check_release(g: Graph, k: int) -> None:
    r = ksymmetry_anonymize(g, k, verify=False)
    rel = r.graph
    # the definition, computed independently of the scheme's own check
    assert automorphism_orbits(rel).sizes.min(initial=k) >= k
    # originals first, edges only added: G is the subgraph induced by nodes 0..n−1
    n = g.n_nodes
    inside = {(u, v) for u, v in _edge_set(rel) if u < n and v < n}
    assert inside == _edge_set(g)
    assert r.copy_of[:n].tolist() == list(range(n))
    # every copy has, towards the originals outside its orbit, the neighbours its node has
    orbit = automorphism_orbits(g).orbit
    for c in range(n, rel.n_nodes):
        v = int(r.copy_of[c])
        outside = {int(x) for x in rel.neighbors(c) if x < n and orbit[x] != orbit[v]}
        assert outside == {int(x) for x in g.neighbors(v) if orbit[x] != orbit[v]}
    assert r.edges_added == rel.n_edges - g.n_edges and r.nodes_added == rel.n_nodes - n


def _literal_orbit_copying(g: Graph, k: int, copy_of: np.ndarray) -> set[tuple[int, int]]:
    """The paper's operation, one copy at a time on the current graph: copy a of orbit V gets
    v^a – w^a for each edge v–w inside V and v^a – x for each current neighbour x ∉ V.
    Copies are numbered as the scheme numbers them (``copy_of``)."""
    o = automorphism_orbits(g)
    adj = {v: {int(x) for x in g.neighbors(v)} for v in range(g.n_nodes)}
    ids = {v: [v] + [int(c) for c in np.flatnonzero(copy_of == v) if c >= g.n_nodes]
           for v in range(g.n_nodes)}  # fmt: skip
    for orbit in range(o.n_orbits):
        members = [int(v) for v in np.flatnonzero(o.orbit == orbit)]
        for a in range(1, -(-k // len(members))):
            for v in members:
                new = ids[v][a]
                adj.setdefault(new, set())
                for x in list(adj[v]):
                    y = ids[x][a] if x in members else x
                    adj[new].add(y)
                    adj.setdefault(y, set()).add(new)
    return {(min(u, v), max(u, v)) for u in adj for v in adj[u]}


@settings(max_examples=40)
@given(graphs(max_n=9), st.integers(1, 4))
def test_the_closed_form_is_orbit_copying_one_copy_at_a_time(g, k):
    r = ksymmetry_anonymize(g, k, verify=False)
    assert _edge_set(r.graph) == _literal_orbit_copying(g, k, r.copy_of)


def test_path_by_hand():
    # path 0-1-2: orbits {0,2} and {1}; k = 2 copies the middle node once
    r = ksymmetry_anonymize(Graph.from_edges(3, [(0, 1), (1, 2)]), 2)
    assert r.graph.n_nodes == 4 and r.copy_of.tolist() == [0, 1, 2, 1]
    assert _edge_set(r.graph) == {(0, 1), (1, 2), (0, 3), (2, 3)}  # a 4-cycle
    assert r.min_orbit_after == 4 and r.orbits_after == 1  # C4: one orbit
    # k = 3: {0,2} copied once (4 nodes ≥ 3), {1} twice; copies of 0 and 2 see every copy of 1
    r3 = ksymmetry_anonymize(Graph.from_edges(3, [(0, 1), (1, 2)]), 3)
    assert r3.graph.n_nodes == 3 + 2 + 2 and r3.graph.n_edges == 4 * 3
    assert r3.min_orbit_after >= 3


def test_an_edge_inside_an_orbit_is_copied_inside_the_copy():
    # a triangle 0,1,2 with a pendant 3 on 2: orbit {0,1} holds the edge 0-1
    g = Graph.from_edges(4, [(0, 1), (1, 2), (0, 2), (2, 3)])
    r = ksymmetry_anonymize(g, 3)  # {0,1} copied once, {2} and {3} twice
    assert np.bincount(r.copy_of).tolist() == [2, 2, 3, 3]
    new = _edge_set(r.graph) - _edge_set(g)
    copies = {v: [int(c) for c in np.flatnonzero(r.copy_of == v) if c >= 4] for v in range(4)}
    (a,), (b,) = copies[0], copies[1]
    assert (min(a, b), max(a, b)) in new  # 0'-1'
    assert (0, b) not in new and (1, a) not in new  # no edge between the orbit and its copy
    assert r.min_orbit_after >= 3


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_karate_release_is_k_symmetric(k):
    g = Graph.from_networkx(nx.karate_club_graph())
    _check_release(g, k)
    r = ksymmetry_anonymize(g, k)
    assert r.to_dict()["verified"] and r.min_orbit_after >= k
    if k == 1:
        assert r.graph.n_nodes == g.n_nodes and r.edges_added == 0
    labels = r.graph.labels
    assert labels is not None and labels[:34].tolist() == list(range(34))
    assert all(str(x).count("'") == 1 for x in labels[34:])


@settings(max_examples=40)
@given(graphs(max_n=9), st.integers(1, 4))
def test_random_releases_are_k_symmetric(g, k):
    _check_release(g, k)


def test_bad_parameters_and_the_size_guard(monkeypatch):
    g = Graph.from_edges(3, [(0, 1), (1, 2)])
    for bad in (0, -1, 2.5, True, "2"):
        with pytest.raises(ConfigError, match="k = "):
            ksymmetry_anonymize(g, bad)
    monkeypatch.setattr(KS, "MAX_RELEASE_EDGES", 10)
    with pytest.raises(ConfigError, match="choose a smaller k"):
        ksymmetry_anonymize(g, 6)
    with pytest.raises(Exception, match="undirected"):
        ksymmetry_anonymize(Graph.from_edges(2, [(0, 1)], directed=True), 2)
