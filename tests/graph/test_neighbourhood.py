"""k-neighbourhood anonymity (Zhou & Pei, ICDE 2008): the definition check on hand-checked
graphs and against igraph's pairwise isomorphism test; the greedy scheme's releases pass the
check and keep every input edge (hand cases and hypothesis); bad parameters."""

from __future__ import annotations

import igraph
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.neighbourhood import (
    neighbourhood_anonymize,
    neighbourhood_classes,
    verify_k_neighbourhood,
)
from privlab.graph.core import Graph


def _edge_set(g: Graph) -> set[tuple[int, int]]:
    return {(min(u, v), max(u, v)) for u, v in g.edges().tolist()}


def _neighbourhood(g: Graph, u: int) -> igraph.Graph:
    """N(u) built independently of the module: networkx's induced subgraph."""
    nx_g = g.to_networkx()
    return igraph.Graph.from_networkx(
        nx.convert_node_labels_to_integers(nx_g.subgraph(list(nx_g.neighbors(u))))
    )


def _brute_classes_agree(g: Graph) -> None:
    """u, v share a class iff igraph's isomorphism test says N(u) ≅ N(v)."""
    classes = neighbourhood_classes(g)
    hoods = [_neighbourhood(g, u) for u in range(g.n_nodes)]
    for u in range(g.n_nodes):
        for v in range(u + 1, g.n_nodes):
            same = hoods[u].vcount() == hoods[v].vcount() and hoods[u].isomorphic(hoods[v])
            assert (classes[u] == classes[v]) == same, (u, v)


# ============================================================================ the definition
def test_cycle_is_n_anonymous_star_centre_is_alone():
    cycle = Graph.from_edges(7, [(i, (i + 1) % 7) for i in range(7)])
    check = verify_k_neighbourhood(cycle, 7)
    assert check.ok and check.n_classes == 1 and check.min_class == 7
    star = Graph.from_edges(5, [(0, i) for i in range(1, 5)])
    check = verify_k_neighbourhood(star, 2)
    assert not check.ok and check.violating.tolist() == [0]  # N(0) = 4 isolated vertices
    assert sorted(check.sizes.tolist()) == [1, 4] and verify_k_neighbourhood(star, 1).ok


def test_triangle_inside_a_neighbourhood_is_seen():
    # 0 and 5 both have 3 neighbours; among 0's, 1–2 are tied, among 5's none are
    g = Graph.from_edges(9, [(0, 1), (0, 2), (0, 3), (1, 2), (5, 6), (5, 7), (5, 8)])
    classes = neighbourhood_classes(g)
    assert classes[0] != classes[5]
    assert classes[1] == classes[2]  # N(1) = {0, 2} tied, N(2) = {0, 1} tied
    assert classes[3] == classes[6] == classes[7] == classes[8]  # one neighbour each


@pytest.mark.parametrize("seed", range(4))
def test_classes_match_igraph_isomorphism(seed):
    g = Graph.from_networkx(nx.gnp_random_graph(14, 0.35, seed=seed))
    _brute_classes_agree(g)


def test_classes_match_igraph_isomorphism_on_karate():
    _brute_classes_agree(Graph.from_networkx(nx.karate_club_graph()))


# ================================================================================ the scheme
def test_already_anonymous_graph_is_released_unchanged():
    cycle = Graph.from_edges(8, [(i, (i + 1) % 8) for i in range(8)])
    r = neighbourhood_anonymize(cycle, 4)
    assert r.edges_added == 0 and _edge_set(r.graph) == _edge_set(cycle)
    assert r.check.ok and r.to_dict()["verified"]


def test_path_of_three_by_hand():
    # N(0) = N(2) = one vertex, N(1) = two isolated vertices: node 1 is alone for k = 2
    g = Graph.from_edges(3, [(0, 1), (1, 2)])
    assert not verify_k_neighbourhood(g, 2).ok
    r = neighbourhood_anonymize(g, 2)
    assert verify_k_neighbourhood(r.graph, 2).ok
    assert _edge_set(g) <= _edge_set(r.graph)
    # the only supergraph of P3 on 3 nodes that is 2-anonymous is the triangle
    assert _edge_set(r.graph) == {(0, 1), (1, 2), (0, 2)} and r.edges_added == 1


def test_two_stars_of_different_size_become_isomorphic():
    g = Graph.from_edges(9, [(0, 1), (0, 2), (0, 3), (4, 5), (4, 6), (4, 7), (4, 8)])
    r = neighbourhood_anonymize(g, 2, max_added=100.0)  # the centres' degrees ripple
    assert r.check.ok and _edge_set(g) <= _edge_set(r.graph)
    assert r.added.shape[1] == 2 and np.all(r.added[:, 0] < r.added[:, 1])
    d = r.to_dict()
    assert d["edges_added"] == r.graph.n_edges - g.n_edges and d["edges_removed"] == 0
    assert d["min_class_after"] >= 2 and d["classes_before"] >= d["classes_after"] >= 1


def test_labels_survive():
    g = Graph.from_networkx(nx.relabel_nodes(nx.path_graph(3), {0: "a", 1: "b", 2: "c"}))
    r = neighbourhood_anonymize(g, 3)
    assert r.graph.labels.tolist() == g.labels.tolist() and r.check.ok


@settings(max_examples=15, deadline=None)
@given(n=st.integers(4, 9), p=st.floats(0.1, 0.6), k=st.integers(2, 3), seed=st.integers(0, 10**6))
def test_every_release_passes_the_definition_and_keeps_the_input(n, p, k, seed):
    g = Graph.from_networkx(nx.gnp_random_graph(n, p, seed=seed))
    r = neighbourhood_anonymize(g, k, max_added=1000.0, verify=False)
    assert verify_k_neighbourhood(r.graph, k).ok
    assert _edge_set(g) <= _edge_set(r.graph) and r.graph.n_nodes == n
    assert r.edges_added == r.graph.n_edges - g.n_edges


# ================================================================================ bad input
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 0}, "k = 0"),
        ({"k": 2.5}, "k = 2.5"),
        ({"k": True}, "k = True"),
        ({"k": 99}, "choose k ≤ 5"),
        ({"k": 2, "beta": -1}, "beta"),
        ({"k": 2, "gamma": float("nan")}, "gamma"),
        ({"k": 2, "shortlist": 0}, "shortlist"),
        ({"k": 2, "max_added": -0.5}, "max_added"),
    ],
)
def test_bad_parameters(kwargs, message):
    g = Graph.from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4)])
    with pytest.raises(ConfigError, match=message):
        neighbourhood_anonymize(g, **kwargs)


def test_budget_exceeded_is_a_clear_error():
    g = Graph.from_networkx(nx.karate_club_graph())
    with pytest.raises(ConfigError, match="max_added"):
        neighbourhood_anonymize(g, 5, max_added=0.05)


def test_directed_graph_is_refused():
    g = Graph.from_edges(3, [(0, 1), (1, 2)], directed=True)
    with pytest.raises((ConfigError, InputError)):
        neighbourhood_anonymize(g, 2)
    with pytest.raises((ConfigError, InputError)):
        verify_k_neighbourhood(g, 2)
