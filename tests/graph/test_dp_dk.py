"""dK-2 series, its ε-edge-DP release (Sala et al. 2011) and graphs built from it."""

from __future__ import annotations

import json
import math
import time
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.dp_dk import (
    DK2Series,
    dk2_l1,
    dk2_sensitivity,
    dk2_series,
    dk2_threshold,
    dp_dk2_graph,
    generate_dk2,
    graph_from_dk2,
    private_dk2,
)
from privlab.graph.core import Graph
from privlab.io.edgelist import simplify_edges


@st.composite
def small_graphs(draw, max_n: int = 12) -> Graph:
    n = draw(st.integers(1, max_n))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40))
    e = simplify_edges(np.array(pairs, dtype=np.int64).reshape(-1, 2)).edges
    return Graph.from_edges(n, e)


def brute_dk2(graph: Graph) -> dict[tuple[int, int], int]:
    deg = graph.degrees().tolist()
    return dict(Counter((min(deg[u], deg[v]), max(deg[u], deg[v])) for u, v in graph.edges()))


def with_edges(graph: Graph, edges) -> Graph:
    return Graph.from_edges(graph.n_nodes, np.asarray(edges, dtype=np.int64).reshape(-1, 2))


def assert_simple(g: Graph) -> None:
    e = g.edges()
    assert np.all(e[:, 0] < e[:, 1])  # no self-loop, each edge once
    assert np.unique(e, axis=0).shape[0] == e.shape[0]
    ref = nx.Graph(e.tolist())
    assert ref.number_of_edges() == g.n_edges


# ---------------------------------------------------------------------------- the series
@given(small_graphs())
@settings(max_examples=80, deadline=None)
def test_series_matches_brute_force(g):
    s = dk2_series(g)
    assert s.to_dict() == brute_dk2(g)
    assert s.n_edges == g.n_edges
    assert np.all(s.low >= 1) and np.all(s.low <= s.high)
    # stubs per degree k = k · (number of nodes of degree k)
    expected = np.bincount(g.degrees(), minlength=s.max_degree + 1) * np.arange(s.max_degree + 1)
    assert s.stubs().tolist() == expected[: s.max_degree + 1].tolist()
    assert DK2Series.from_dict(s.to_dict()).to_list() == s.to_list()


def test_series_on_a_star_uses_the_sparse_path():
    n = 3000  # (d_max + 1)² > 2^20 and > 8m: the sorting branch
    g = Graph.from_edges(n, [(0, v) for v in range(1, n)])
    assert dk2_series(g).to_dict() == {(1, n - 1): n - 1}


# ---------------------------------------------------------------------------- sensitivity
@given(small_graphs(max_n=10))
@settings(max_examples=60, deadline=None)
def test_adding_any_edge_moves_the_series_by_at_most_2_du_dv_plus_1(g):
    base = dk2_series(g)
    deg = g.degrees()
    e = g.edges().tolist()
    for u in range(g.n_nodes):
        for v in range(u + 1, g.n_nodes):
            if g.has_edge(u, v):
                continue
            h = with_edges(g, [*e, (u, v)])
            change = dk2_l1(base, dk2_series(h))
            assert change <= 2 * (deg[u] + deg[v]) + 1
            assert change <= dk2_sensitivity(int(h.degrees().max()))


@given(small_graphs(max_n=10), st.integers(1, 4), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_k_edge_neighbours_move_the_series_by_at_most_k_times_the_bound(g, k, seed):
    rng = np.random.default_rng(seed)
    n = g.n_nodes
    present = {tuple(x) for x in g.edges().tolist()}
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    flip = {pairs[i] for i in rng.permutation(len(pairs))[:k]} if pairs else set()
    h = with_edges(g, sorted(present ^ flip))
    d = max(int(g.degrees().max(initial=0)), int(h.degrees().max(initial=0)), 1)
    assert dk2_l1(dk2_series(g), dk2_series(h)) <= dk2_sensitivity(d, k_edges=k)


@pytest.mark.parametrize("d", [2, 3, 7, 20])
def test_the_bound_4d_minus_3_is_attained(d):
    # u = 0 and v = 1 each joined to d − 1 leaves; adding (u, v) raises both to degree d
    leaves_u = range(2, d + 1)
    leaves_v = range(d + 1, 2 * d)
    g = Graph.from_edges(2 * d, [(0, x) for x in leaves_u] + [(1, x) for x in leaves_v])
    h = with_edges(g, [*g.edges().tolist(), (0, 1)])
    assert dk2_l1(dk2_series(g), dk2_series(h)) == 4 * d - 3 == dk2_sensitivity(d)


# ---------------------------------------------------------------------------- release
def test_huge_epsilon_reproduces_the_exact_series():
    g = Graph.from_networkx(nx.karate_club_graph())  # max degree 17
    r = private_dk2(g, 1e6, max_degree=20, seed=1)
    assert r.value.to_dict() == dk2_series(g).to_dict()
    assert r.parameters["cells"] == 20 * 21 // 2
    assert r.parameters["sensitivity"] == 4 * 20 - 3
    assert r.epsilon == 1e6 and r.delta == 0 and r.insecure_seed
    assert r.mechanism == "dk2_geometric"
    json.dumps(r.to_dict())
    r2 = private_dk2(g, 1e6, max_degree=20, k_edges=3)
    assert r2.parameters["sensitivity"] == 3 * 77 and not r2.insecure_seed


def test_every_cell_is_noised_including_the_empty_ones():
    d, eps = 60, 1.0
    g = Graph.from_edges(10, np.zeros((0, 2), dtype=np.int64))  # no edges: all cells empty
    r = private_dk2(g, eps, max_degree=d, seed=7)
    s = r.value
    cells = d * (d + 1) // 2
    alpha = math.exp(-eps / dk2_sensitivity(d))
    share = alpha / (1 + alpha)  # P(noise ≥ 1)
    sd = math.sqrt(share * (1 - share) / cells)
    assert abs(s.n_cells / cells - share) < 5 * sd
    assert np.all(s.count >= 1) and np.all(s.low >= 1) and np.all(s.high <= d)
    assert np.all(s.low <= s.high)
    # every position of the triangle can be drawn: the noisy cells cover the whole table
    assert s.high.max() == d and s.low.min() == 1


def test_threshold_post_processing():
    g = Graph.from_networkx(nx.les_miserables_graph())  # max degree 36
    r = private_dk2(g, 5.0, max_degree=40, threshold=25, seed=3)
    assert np.all(r.value.count >= 25) and r.parameters["threshold"] == 25
    auto = private_dk2(g, 5.0, max_degree=40, threshold="auto", seed=3)
    t = dk2_threshold(5.0, max_degree=40)
    assert auto.parameters["threshold"] == t
    cells, alpha = 40 * 41 / 2, math.exp(-5.0 / 157)
    assert cells * alpha**t / (1 + alpha) <= 0.05 < cells * alpha ** (t - 1) / (1 + alpha)


# ---------------------------------------------------------------------------- generation
@pytest.mark.parametrize(
    "make",
    [
        nx.karate_club_graph,
        nx.les_miserables_graph,
        nx.florentine_families_graph,
        lambda: nx.gnm_random_graph(300, 900, seed=2),
        lambda: nx.powerlaw_cluster_graph(400, 3, 0.3, seed=4),
    ],
)
def test_exact_series_gives_back_the_degree_sequence(make):
    g = Graph.from_networkx(make())
    s = dk2_series(g)
    gen = generate_dk2(s, seed=5)
    out = gen.graph
    assert_simple(out)
    assert gen.requested_edges == g.n_edges
    assert gen.realized_edges + gen.dropped == gen.requested_edges
    assert gen.realized_edges >= 0.99 * g.n_edges
    assert gen.remainder_nodes == 0
    deg = np.sort(g.degrees()[g.degrees() > 0])
    out_deg = np.sort(out.degrees())
    assert out_deg.size == deg.size == gen.nodes
    assert np.abs(deg - out_deg).sum() <= 0.02 * 2 * g.n_edges
    assert dk2_l1(s, dk2_series(out)) <= 0.1 * g.n_edges


cells_dicts = st.dictionaries(
    st.tuples(st.integers(1, 8), st.integers(1, 8)).map(lambda t: (min(t), max(t))),
    st.integers(0, 12),
    max_size=12,
)


@given(cells_dicts, st.integers(0, 2**32 - 1))
@settings(max_examples=80, deadline=None)
def test_any_series_gives_a_simple_graph_and_an_honest_report(cells, seed):
    s = DK2Series.from_dict(cells)
    gen = generate_dk2(s, seed=seed)
    assert_simple(gen.graph)
    assert gen.realized_edges + gen.dropped == gen.requested_edges == s.n_edges
    stubs = s.stubs()
    k = np.arange(stubs.size)
    assert gen.nodes == gen.graph.n_nodes == int(sum(-(-stubs[1:] // k[1:])))
    if gen.nodes:
        assert gen.graph.degrees().max() <= s.max_degree


def test_unrealizable_cells_are_dropped_and_counted():
    # 3 edges between degree-3 nodes: 6 stubs, 2 nodes, room for one edge only
    gen = generate_dk2({(3, 3): 3}, seed=0)
    assert (gen.nodes, gen.realized_edges, gen.dropped) == (2, 1, 2)
    assert gen.dropped_self_loops + gen.dropped_repeated == 2
    # remainder: 5 stubs of degree 2 -> 3 nodes, the last with a single stub
    gen = generate_dk2({(1, 2): 1, (2, 2): 2}, seed=0)
    assert gen.remainder_nodes == 1 and gen.nodes == 4
    assert graph_from_dk2({}).n_nodes == 0


# ---------------------------------------------------------------------------- end to end
def test_dp_dk2_graph_report_is_consistent():
    g = Graph.from_networkx(nx.les_miserables_graph())
    out = dp_dk2_graph(g, 50.0, max_degree=40, seed=11)
    rep = out.report
    assert_simple(out.graph)
    assert rep["epsilon"] == 50.0 and rep["sensitivity"] == 157 and rep["cells"] == 820
    assert rep["noisy_edges"] == out.release.value.n_edges == rep["requested_edges"]
    assert rep["realized_edges"] == out.graph.n_edges
    assert (
        rep["realized_edges"] + rep["dropped_self_loops"] + rep["dropped_repeated"]
        == (rep["noisy_edges"])
    )
    assert rep["l1_requested_realized"] == dk2_l1(out.release, dk2_series(out.graph))
    assert rep["insecure_seed"] is True
    json.dumps(out.to_dict())
    exact = dp_dk2_graph(g, 1e7, max_degree=40)  # OS entropy: not flagged
    assert exact.release.value.to_dict() == dk2_series(g).to_dict()
    assert exact.report["insecure_seed"] is False


# ---------------------------------------------------------------------------- errors
def test_errors_name_the_parameter():
    g = Graph.from_networkx(nx.karate_club_graph())  # max degree 17
    for eps in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ConfigError, match="epsilon"):
            private_dk2(g, eps, max_degree=20)
    with pytest.raises(InputError, match="max_degree = 17"):
        private_dk2(g, 1.0, max_degree=17)  # a degree ≥ max_degree
    private_dk2(g, 1.0, max_degree=18, seed=0)  # degree 17 = max_degree − 1 is accepted
    with pytest.raises(InputError, match="max_degree = 18 with k_edges = 2"):
        private_dk2(g, 1.0, max_degree=18, k_edges=2)
    with pytest.raises(InputError, match="max_degree"):
        dp_dk2_graph(g, 1e6, max_degree=10)
    directed = Graph.from_edges(3, [(0, 1), (1, 2)], directed=True)
    for call in (lambda: dk2_series(directed), lambda: private_dk2(directed, 1, max_degree=5)):
        with pytest.raises(InputError, match="undirected"):
            call()
    for bad in (0, -2, 1.5, True, "x"):
        with pytest.raises(ConfigError, match="k_edges"):
            private_dk2(g, 1.0, max_degree=20, k_edges=bad)
    for bad in (-1, 2.5, "most"):
        with pytest.raises(ConfigError, match="threshold"):
            private_dk2(g, 1.0, max_degree=20, threshold=bad)
    for bad in (0, 2.5, None):
        with pytest.raises(ConfigError, match="max_degree"):
            private_dk2(g, 1.0, max_degree=bad)
    with pytest.raises(InputError, match=r"cell \(3, 2\)"):
        DK2Series.from_dict({(3, 2): 1})
    with pytest.raises(InputError, match="count"):
        DK2Series.from_dict({(0, 2): 1})
    with pytest.raises(ConfigError, match="max_edges"):
        generate_dk2({(1, 1): 100}, max_edges=50)
    for kwargs in ({"rounds": -1}, {"rounds": "many"}, {"max_edges": 1.5}):
        with pytest.raises(ConfigError, match=next(iter(kwargs))):
            generate_dk2({(1, 1): 1}, **kwargs)
    with pytest.raises(InputError, match="DK2Series"):
        graph_from_dk2([(1, 1, 3)])
    # the guard needs no data and no budget: it fires before any noise is drawn
    with pytest.raises(ConfigError, match="threshold='auto'"):
        dp_dk2_graph(g, 1.0, max_degree=200)


# ---------------------------------------------------------------------------- real data
def test_facebook(facebook_graph):
    g = facebook_graph
    exact = dk2_series(g)
    assert (exact.n_cells, exact.n_edges, exact.max_degree) == (17925, 88234, 1045)
    started = time.perf_counter()
    out = dp_dk2_graph(g, 1e6, max_degree=1100, seed=2024)  # noise ≈ 0: the generator at scale
    elapsed = time.perf_counter() - started
    assert out.release.value.to_dict() == exact.to_dict()
    assert out.report["cells"] == 605_550 and out.report["sensitivity"] == 4397
    assert_simple(out.graph)
    assert out.report["realized_edges"] >= 0.999 * exact.n_edges
    # at ε = 1 the noise alone asks for ≈ cells·scale/2 ≈ 1.3·10⁹ edges: refused up front
    with pytest.raises(ConfigError, match="1,33"):
        dp_dk2_graph(g, 1.0, max_degree=1100)
    r = private_dk2(g, 1.0, max_degree=1100, seed=1)
    alpha = math.exp(-1 / 4397)
    mass = 605_550 * alpha / ((1 - alpha) * (1 + alpha))
    assert abs(r.value.n_edges / mass - 1) < 0.01
    print(f"facebook dp_dk2_graph(ε=1e6): {elapsed:.2f} s, {out.report}")
