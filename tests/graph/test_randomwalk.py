"""Random-walk perturbation (Mittal et al., NDSS 2013): t = 1 is the identity, every
released edge is a walk of length t in the original, parity on bipartite graphs, degrees kept
in expectation (a statistical test that RSP at the same change fails), errors."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.perturb import random_sparsification
from privlab.graph.anonymize.randomwalk import random_walk_perturbation
from privlab.graph.core import Graph
from privlab.graph.utility import compare
from tests.graph.test_perturb import assert_simple_csr, edge_set, graphs


def hellinger_dd(a: Graph, b: Graph) -> float:
    out = compare(a, b, metrics=["degree_distribution"]).to_dict()
    return out["metrics"]["degree_distribution"]["difference"]


@given(graphs(max_nodes=20, max_edges=60), st.integers(0, 2**16))
@settings(max_examples=40, deadline=None)
def test_walk_length_one_is_the_identity(g, seed):
    r = random_walk_perturbation(g, 1, seed=seed)
    assert edge_set(r.graph) == edge_set(g)
    assert r.edges_removed == r.edges_added == 0
    assert r.graph.labels is g.labels


@given(graphs(max_nodes=20, max_edges=60), st.integers(2, 6), st.integers(0, 2**16))
@settings(max_examples=60, deadline=None)
def test_every_released_edge_is_a_walk_of_length_t(g, t, seed):
    r = random_walk_perturbation(g, t, seed=seed)
    out = r.graph
    assert_simple_csr(out)
    assert out.n_nodes == g.n_nodes
    a = g.to_scipy().toarray().astype(np.int64)
    reach = np.linalg.matrix_power(np.minimum(a, 1), t) > 0
    for u, z in out.edges().tolist():
        assert reach[u, z]
    before, after = edge_set(g), edge_set(out)
    assert r.edges_removed == len(before - after) and r.edges_added == len(after - before)
    # a node with edges keeps at least one unless every proposal of it failed
    if r.parameters["failed"] == 0:
        assert np.all(out.degrees()[g.degrees() > 0] > 0)


def test_parity_on_a_bipartite_graph():
    """Walks of even length stay on their side, odd ones cross: with t = 2 every released
    edge joins two nodes of the same side, with t = 3 two nodes of opposite sides."""
    b = nx.bipartite.random_graph(60, 80, 0.08, seed=3)
    g = Graph.from_networkx(b)  # nodes 0..59 one side, 60..139 the other
    side = np.arange(g.n_nodes) >= 60
    for t, same in ((2, True), (3, False), (4, True)):
        e = random_walk_perturbation(g, t, seed=t).graph.edges()
        assert e.shape[0] > 0
        assert np.all((side[e[:, 0]] == side[e[:, 1]]) == same)


def test_degrees_are_kept_in_expectation_where_rsp_fails():
    """On a seeded Barabási–Albert graph: the edge count within 3 %, the mean ratio new/old
    degree of the nodes of degree ≥ 10 within 10 % and the Hellinger distance of the degree
    distributions below 0.5 — while RSP deleting as many edges as the walk replaced fails
    all three (it keeps a fraction 1 − f of each degree)."""
    g = Graph.from_networkx(nx.barabasi_albert_graph(1500, 4, seed=2))
    d0 = g.degrees()
    hubs = d0 >= 10
    for t in (2, 3, 5):
        r = random_walk_perturbation(g, t, seed=t)
        f = r.edges_removed / g.n_edges
        assert f > 0.5  # a real perturbation
        rsp = random_sparsification(g, f, seed=t).graph
        for out, ok in ((r.graph, True), (rsp, False)):
            checks = (
                abs(out.n_edges / g.n_edges - 1) <= 0.03,
                abs(np.mean(out.degrees()[hubs] / d0[hubs]) - 1) <= 0.10,
                hellinger_dd(g, out) < 0.5,
            )
            assert all(checks) if ok else not any(checks), (t, checks)


def test_more_steps_forget_more_of_the_original():
    g = Graph.from_networkx(nx.connected_watts_strogatz_graph(400, 8, 0.05, seed=1))
    kept = [g.n_edges - random_walk_perturbation(g, t, seed=0).edges_removed for t in (2, 6)]
    assert kept[0] > kept[1]


def test_seeds_reproduce_and_differ_and_the_result_serializes():
    g = Graph.from_networkx(nx.karate_club_graph())
    a, b, c = (random_walk_perturbation(g, 3, seed=s) for s in (5, 5, 6))
    assert edge_set(a.graph) == edge_set(b.graph) != edge_set(c.graph)
    d = a.to_dict()
    assert d["scheme"] == "RW" and d["parameters"]["walk_length"] == 3
    assert d["parameters"]["proposals"] == 2 * g.n_edges and d["insecure_seed"] is True


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"walk_length": 0}, "walk_length"), ({"walk_length": -2}, "walk_length"),
     ({"walk_length": 2.5}, "walk_length"), ({"walk_length": "3"}, "walk_length"),
     ({"walk_length": True}, "walk_length"), ({"walk_length": 10**6}, "walk_length"),
     ({"walk_length": 2, "max_tries": 0}, "max_tries")],
)  # fmt: skip
def test_bad_parameters_are_config_errors_naming_them(kwargs, name):
    g = Graph.from_networkx(nx.path_graph(5))
    with pytest.raises(ConfigError, match=name):
        random_walk_perturbation(g, seed=1, **kwargs)


def test_directed_graphs_are_refused():
    with pytest.raises(InputError, match="undirected"):
        random_walk_perturbation(Graph.from_edges(2, [(0, 1)], directed=True), 2, seed=1)
