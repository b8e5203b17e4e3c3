"""Graph-pair generators: Sharad's (α_V, α_E) construction and SecGraph's BFS-tree samples —
sizes, ground truth, edge provenance, overlap statistics, the scheme hook, errors."""

from __future__ import annotations

import functools
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.perturb import random_switch
from privlab.graph.core import Graph
from privlab.graph.pairs import GraphPair, sample_pair, secgraph_pair

P_VALUE = 1e-3  # fixed seeds: each statistical test is deterministic


def gnp(n: int, p: float, seed: int) -> Graph:
    return Graph.from_networkx(nx.gnp_random_graph(n, p, seed=seed))


def edge_keys(edges: np.ndarray, n: int) -> np.ndarray:
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    return np.sort(np.minimum(e[:, 0], e[:, 1]) * n + np.maximum(e[:, 0], e[:, 1]))


def original_keys(g: Graph, original: np.ndarray, n: int) -> np.ndarray:
    return edge_keys(original[g.edges()], n)


# ============================================================================ sample_pair
@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 40),
    p=st.floats(0.0, 1.0),
    alpha_v=st.floats(0.05, 1.0),
    alpha_e=st.floats(0.05, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_sample_pair_invariants(n, p, alpha_v, alpha_e, seed):
    g = gnp(n, p, seed)
    n_b = math.floor(alpha_v * n + 0.5)
    if n_b == 0:
        with pytest.raises(InputError, match="no common node"):
            sample_pair(g, alpha_v, alpha_e, seed=seed)
        return
    pair = sample_pair(g, alpha_v, alpha_e, seed=seed)
    n_a = (n - n_b) // 2
    assert pair.aux.n_nodes == n_a + n_b and pair.san.n_nodes == n - n_a
    assert pair.n_common == n_b
    # the original-node arrays are bijections onto V1 and V2, and V1 ∩ V2 is the truth
    assert np.unique(pair.aux_original).size == pair.aux.n_nodes
    assert np.unique(pair.san_original).size == pair.san.n_nodes
    common = np.intersect1d(pair.aux_original, pair.san_original)
    assert common.size == n_b
    np.testing.assert_array_equal(
        pair.aux_original[pair.truth_aux], pair.san_original[pair.truth_san]
    )
    assert np.all(np.diff(pair.truth_aux) > 0)
    t = pair.truth_array()
    assert (t >= 0).sum() == n_b and np.array_equal(t[pair.truth_aux], pair.truth_san)
    # every released edge is an edge of the source (RSP only deletes)
    src = edge_keys(g.edges(), n)
    for side, orig in ((pair.aux, pair.aux_original), (pair.san, pair.san_original)):
        assert np.isin(original_keys(side, orig, n), src).all()
    # exactly ⌊β·|E|⌉ deleted from each copy
    beta = (1 - alpha_e) / (1 + alpha_e)
    m = math.floor(beta * g.n_edges + 0.5)
    assert pair.parameters["deleted_aux_copy"] == m == pair.parameters["deleted_san_copy"]
    assert pair.parameters["measured_alpha_v"] == pytest.approx(
        n_b / (pair.aux.n_nodes + pair.san.n_nodes - n_b)
    )


def test_sample_pair_alpha_one_gives_identical_graphs_up_to_relabelling():
    g = gnp(60, 0.1, 3)
    pair = sample_pair(g, 1.0, 1.0, seed=7)
    assert pair.n_common == 60 and pair.parameters["beta"] == 0.0
    assert pair.parameters["measured_alpha_e"] == 1.0
    for side, orig in ((pair.aux, pair.aux_original), (pair.san, pair.san_original)):
        np.testing.assert_array_equal(original_keys(side, orig, 60), edge_keys(g.edges(), 60))
    # the relabelling is random, not the identity
    assert not np.array_equal(pair.aux_original, np.arange(60))


def test_sample_pair_edge_overlap_matches_alpha_e_in_expectation():
    # Sharad: deleting β from each copy leaves (1−β)² common and 1−β² present in at least one
    # copy, so α_E = (1−β)²/(1−β²) on the common subgraph.
    g = gnp(600, 0.05, 11)
    for alpha_e in (0.25, 0.5, 0.75):
        got = [
            sample_pair(g, 0.5, alpha_e, seed=s).parameters["measured_alpha_e"] for s in range(5)
        ]
        assert np.mean(got) == pytest.approx(alpha_e, abs=0.02)


def test_sample_pair_partition_is_uniform():
    # each source node is common with probability |V_B|/|V| (chi-square over the nodes)
    g = gnp(12, 0.3, 1)
    counts = np.zeros(12)
    runs = 3000
    for s in range(runs):
        pair = sample_pair(g, 0.5, 1.0, seed=s)
        counts[pair.aux_original[pair.truth_aux]] += 1
    assert stats.chisquare(counts).pvalue > P_VALUE
    assert counts.sum() == runs * 6


def test_sample_pair_is_reproducible_and_seeded():
    g = gnp(80, 0.1, 5)
    a, b, c = (sample_pair(g, 0.6, 0.5, seed=s) for s in (1, 1, 2))
    np.testing.assert_array_equal(a.aux.indices, b.aux.indices)
    np.testing.assert_array_equal(a.san_original, b.san_original)
    assert not np.array_equal(a.san_original, c.san_original)
    assert a.parameters["insecure_seed"] is True
    assert sample_pair(g, 0.6, 0.5).parameters["insecure_seed"] is False


def test_sample_pair_applies_the_scheme_to_the_sanitized_side_only():
    g = gnp(200, 0.05, 2)
    plain = sample_pair(g, 0.8, 1.0, seed=4)
    pair = sample_pair(g, 0.8, 1.0, seed=4, scheme=functools.partial(random_switch, fraction=0.2))
    assert pair.parameters["scheme"] == "RSW"
    # RSW keeps every degree, so the sanitized degrees per original node are unchanged …
    deg = np.zeros(200, dtype=np.int64)
    deg[plain.san_original] = plain.san.degrees()
    deg2 = np.zeros(200, dtype=np.int64)
    deg2[pair.san_original] = pair.san.degrees()
    np.testing.assert_array_equal(deg, deg2)
    # … but edges moved, and the auxiliary side is untouched
    assert not np.array_equal(
        original_keys(plain.san, plain.san_original, 200),
        original_keys(pair.san, pair.san_original, 200),
    )
    np.testing.assert_array_equal(
        original_keys(plain.aux, plain.aux_original, 200),
        original_keys(pair.aux, pair.aux_original, 200),
    )


def test_sample_pair_scheme_must_keep_the_nodes():
    g = gnp(30, 0.2, 2)
    with pytest.raises(InputError, match="same nodes"):
        sample_pair(g, 0.5, 0.5, seed=1, scheme=lambda h, seed: Graph.from_edges(3, []))


@pytest.mark.parametrize("bad", [0, 0.0, -0.1, 1.0001, math.nan, math.inf, "0.5", True, None])
def test_sample_pair_rejects_alpha_outside_unit_interval(bad):
    g = gnp(20, 0.2, 1)
    with pytest.raises(ConfigError, match="alpha_v"):
        sample_pair(g, bad, 0.5, seed=1)
    with pytest.raises(ConfigError, match="alpha_e"):
        sample_pair(g, 0.5, bad, seed=1)


def test_sample_pair_needs_common_nodes_and_an_undirected_graph():
    with pytest.raises(InputError, match="no common node"):
        sample_pair(gnp(10, 0.3, 1), 0.01, 0.5, seed=1)
    directed = Graph.from_edges(3, [(0, 1), (1, 2)], directed=True)
    with pytest.raises(InputError, match="undirected"):
        sample_pair(directed, 0.5, 0.5, seed=1)


# ============================================================================ secgraph_pair
def bfs_tree_keys(g: Graph) -> np.ndarray:
    nxg = g.to_networkx()
    root = int(np.argmax(g.degrees()))
    return edge_keys(np.array(list(nx.bfs_tree(nxg, root).edges())), g.n_nodes)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 40), p_edge=st.floats(0, 1), p=st.floats(0, 1), seed=st.integers(0, 99))
def test_secgraph_pair_keeps_the_bfs_tree_in_both_graphs(n, p_edge, p, seed):
    g = gnp(n, p_edge, seed)
    pair = secgraph_pair(g, p, seed=seed)
    src = edge_keys(g.edges(), n)
    ident = np.arange(n)
    for side in (pair.aux, pair.san):
        assert side.n_nodes == n
        keys = edge_keys(side.edges(), n)
        assert np.isin(keys, src).all()
        if g.n_edges:
            tree = bfs_tree_keys(g)
            assert tree.size == pair.parameters["tree_edges"]
            assert np.isin(tree, keys).all()
    for arr in (pair.truth_aux, pair.truth_san, pair.aux_original, pair.san_original):
        np.testing.assert_array_equal(arr, ident)
    np.testing.assert_array_equal(pair.truth_array(), ident)


def test_secgraph_pair_tree_is_a_spanning_tree_from_the_max_degree_node():
    g = gnp(300, 0.03, 8)
    giant = max(nx.connected_components(g.to_networkx()), key=len)
    pair = secgraph_pair(g, 0.0, seed=1)  # only the tree survives
    assert pair.parameters["root"] == int(np.argmax(g.degrees()))
    assert pair.aux.n_edges == len(giant) - 1 == pair.san.n_edges
    comp = max(nx.connected_components(pair.aux.to_networkx()), key=len)
    assert comp == giant
    full = secgraph_pair(g, 1.0, seed=1)
    np.testing.assert_array_equal(full.aux.indices, g.indices)
    np.testing.assert_array_equal(full.san.indptr, g.indptr)


def test_secgraph_pair_non_tree_edges_are_independent_bernoulli_p():
    g = gnp(400, 0.05, 3)
    p = 0.9
    tree = bfs_tree_keys(g)
    src = edge_keys(g.edges(), 400)
    rest = np.setdiff1d(src, tree)
    pair = secgraph_pair(g, p, seed=5)
    a = np.isin(rest, edge_keys(pair.aux.edges(), 400))
    b = np.isin(rest, edge_keys(pair.san.edges(), 400))
    # 2 × 2 table of (kept in aux, kept in san) against p², p(1−p), (1−p)p, (1−p)²
    observed = [(a & b).sum(), (a & ~b).sum(), (~a & b).sum(), (~a & ~b).sum()]
    expected = np.array([p * p, p * (1 - p), (1 - p) * p, (1 - p) ** 2]) * rest.size
    assert stats.chisquare(observed, expected).pvalue > P_VALUE


def test_secgraph_pair_on_facebook(facebook_graph):
    pair = secgraph_pair(facebook_graph, 0.9, seed=0)
    assert pair.parameters["root"] == 107  # ego-Facebook's hub, degree 1045
    assert pair.parameters["tree_edges"] == 4038
    for side in (pair.aux, pair.san):
        kept = (side.n_edges - 4038) / (facebook_graph.n_edges - 4038)
        assert kept == pytest.approx(0.9, abs=0.005)


@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, "0.9", True])
def test_secgraph_pair_rejects_bad_p(bad):
    with pytest.raises(ConfigError, match="p ="):
        secgraph_pair(gnp(10, 0.3, 1), bad, seed=1)


def test_secgraph_pair_rejects_directed():
    with pytest.raises(InputError, match="undirected"):
        secgraph_pair(Graph.from_edges(2, [(0, 1)], directed=True), 0.9, seed=1)


def test_graph_pair_to_dict():
    pair = sample_pair(gnp(50, 0.1, 1), 0.5, 0.5, seed=3)
    d = pair.to_dict()
    assert isinstance(pair, GraphPair)
    assert d["common_nodes"] == pair.n_common == 25
    assert d["aux_edges"] == pair.aux.n_edges and d["san_nodes"] == pair.san.n_nodes
    assert d["parameters"]["generator"] == "sharad" and d["parameters"]["alpha_v"] == 0.5
    assert pair.truth_pairs().shape == (25, 2)
    assert secgraph_pair(gnp(20, 0.2, 1), seed=1).to_dict()["parameters"]["generator"] == (
        "secgraph"
    )
