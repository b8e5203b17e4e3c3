"""Graph utility metrics (seed 000 §2.9, seed 002 §A.2.9, seed 004 §2.10): every metric
against networkx on small graphs, the thesis's 0/0 and unreachable-pair conventions,
Hellinger distances on hand examples, the CSN power-law fit on synthetic samples, and
compare()."""

from __future__ import annotations

import json
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph
from privlab.graph.utility import (
    METRICS,
    PathLengths,
    average_degree_connectivity,
    average_path_length,
    betweenness_centrality,
    closeness_centrality,
    clustering_coefficient,
    clustering_coefficients,
    compare,
    degree_centrality,
    degree_distribution,
    degree_sequence,
    density,
    diameter,
    effective_diameter,
    eigenvector_centrality,
    hellinger_dd,
    hellinger_distance,
    hellinger_jdd,
    joint_degree_distribution,
    local_clustering,
    path_lengths,
    power_law_exponent,
    triangles,
)


def as_array(d: dict, n: int) -> np.ndarray:
    return np.array([d[i] for i in range(n)], dtype=float)


def graph_of(nxg) -> Graph:
    """Graph with node i = networkx node i (nodes must be 0..n−1)."""
    n = nxg.number_of_nodes()
    assert sorted(nxg.nodes()) == list(range(n))
    return Graph.from_edges(n, np.array(list(nxg.edges()), dtype=np.int64).reshape(-1, 2),
                            directed=nxg.is_directed())  # fmt: skip


def nx_distances(nxg) -> list[int]:
    """All finite distances over ordered pairs s ≠ t."""
    return [d for s, row in nx.all_pairs_shortest_path_length(nxg) for t, d in row.items()
            if s != t]  # fmt: skip


@pytest.fixture(scope="module")
def karate():
    nxg = nx.karate_club_graph()
    return nxg, graph_of(nxg)


# ------------------------------------------------------------------ against networkx
def test_degree_metrics_match_networkx(karate):
    nxg, g = karate
    n = g.n_nodes
    assert density(g) == pytest.approx(nx.density(nxg))
    hist = np.array(nx.degree_histogram(nxg))
    assert np.allclose(degree_distribution(g), hist / n)
    assert np.array_equal(degree_distribution(g, normalized=False), hist)
    seq = degree_sequence(g)
    assert seq.tolist() == sorted((d for _, d in nxg.degree()), reverse=True)
    assert np.allclose(degree_centrality(g), as_array(nx.degree_centrality(nxg), n))
    knn = average_degree_connectivity(g).to_dict()
    ref = nx.average_degree_connectivity(nxg)
    assert knn.keys() == ref.keys()
    assert all(knn[k] == pytest.approx(ref[k]) for k in ref)


def test_jdd_matches_networkx_mixing(karate):
    nxg, g = karate
    jdd = joint_degree_distribution(g)
    assert jdd.p.sum() == pytest.approx(1.0) and np.all(jdd.k1 <= jdd.k2)
    dense = jdd.to_dense()
    ref = nx.degree_mixing_dict(nxg, normalized=True)
    for k, row in ref.items():
        for kk, p in row.items():
            assert dense[k, kk] == pytest.approx(p)
    assert dense.sum() == pytest.approx(1.0) and np.allclose(dense, dense.T)


def test_centralities_match_networkx(karate):
    nxg, g = karate
    n = g.n_nodes
    ev = eigenvector_centrality(g)
    assert np.allclose(ev, as_array(nx.eigenvector_centrality(nxg, tol=1e-12), n), atol=1e-8)
    assert np.allclose(closeness_centrality(g), as_array(nx.closeness_centrality(nxg), n))
    some = [nx.closeness_centrality(nxg, 3), nx.closeness_centrality(nxg, 0)]
    assert np.allclose(closeness_centrality(g, nodes=[3, 0]), some)
    assert np.allclose(betweenness_centrality(g), as_array(nx.betweenness_centrality(nxg), n))
    raw = as_array(nx.betweenness_centrality(nxg, normalized=False), n)
    assert np.allclose(betweenness_centrality(g, normalized=False), raw)


def test_eigenvector_large_branch_matches_numpy_eigensolver():
    nxg = nx.connected_watts_strogatz_graph(300, 6, 0.2, seed=3)
    g = graph_of(nxg)  # ≥ 64 nodes: the sparse ARPACK branch
    ref = as_array(nx.eigenvector_centrality_numpy(nxg), g.n_nodes)
    assert np.allclose(eigenvector_centrality(g), np.abs(ref), atol=1e-10)
    assert np.array_equal(eigenvector_centrality(g), eigenvector_centrality(g))  # deterministic


def test_eigenvector_repeated_leading_eigenvalue_like_power_iteration():
    two = nx.disjoint_union(nx.complete_graph(4), nx.complete_graph(4))
    big = nx.disjoint_union_all([nx.cycle_graph(40), nx.cycle_graph(40)])
    for nxg in (two, big):  # dense and ARPACK branches
        ref = as_array(nx.eigenvector_centrality(nxg, tol=1e-12), nxg.number_of_nodes())
        assert np.allclose(eigenvector_centrality(graph_of(nxg)), ref, atol=1e-8)


def test_clustering_and_paths_match_networkx(karate):
    nxg, g = karate
    n = g.n_nodes
    local = as_array(nx.clustering(nxg), n)
    assert np.allclose(local_clustering(g), local)
    assert np.array_equal(triangles(g), as_array(nx.triangles(nxg), n))
    cc = clustering_coefficients(g)
    assert cc.cc == pytest.approx(nx.average_clustering(nxg))
    assert cc.cc1 == pytest.approx(nx.transitivity(nxg))
    degree = np.array([d for _, d in sorted(nxg.degree())])
    assert cc.cc2 == pytest.approx(local[degree >= 2].mean())
    assert cc.triangles == sum(nx.triangles(nxg).values()) // 3
    assert clustering_coefficient(g, "cc1") == cc.cc1
    # connected: both APL conventions agree with networkx
    assert average_path_length(g) == pytest.approx(nx.average_shortest_path_length(nxg))
    assert average_path_length(g, unreachable="exclude") == pytest.approx(
        nx.average_shortest_path_length(nxg))  # fmt: skip
    assert diameter(g) == nx.diameter(nxg)
    dist = np.array(nx_distances(nxg))
    lengths = path_lengths(g)
    assert lengths.counts == tuple(np.bincount(dist).tolist())
    assert lengths.median == np.percentile(dist, 50, method="inverted_cdf")
    assert effective_diameter(g, interpolate=False) == np.percentile(
        dist, 90, method="inverted_cdf")  # fmt: skip


def test_accepts_networkx_and_igraph_inputs(karate):
    nxg, g = karate
    assert clustering_coefficient(nxg) == clustering_coefficient(g)
    assert diameter(g.to_igraph()) == diameter(g)


@st.composite
def gnp(draw, directed: bool = False):
    n = draw(st.integers(1, 22))
    p = draw(st.floats(0.0, 0.5))
    return nx.gnp_random_graph(n, p, seed=draw(st.integers(0, 2**31)), directed=directed)


@given(gnp())
@settings(max_examples=60, deadline=None)
def test_random_undirected_graphs_match_networkx(nxg):
    g, n = graph_of(nxg), nxg.number_of_nodes()
    assert np.allclose(closeness_centrality(g), as_array(nx.closeness_centrality(nxg), n))
    assert np.allclose(betweenness_centrality(g), as_array(nx.betweenness_centrality(nxg), n))
    assert np.allclose(local_clustering(g), as_array(nx.clustering(nxg), n))
    assert clustering_coefficient(g) == pytest.approx(nx.average_clustering(nxg))
    assert clustering_coefficient(g, "cc1") == pytest.approx(nx.transitivity(nxg))
    knn = average_degree_connectivity(g).to_dict()
    ref = nx.average_degree_connectivity(nxg)
    assert all(knn[k] == pytest.approx(ref[k]) for k in ref) and knn.keys() == ref.keys()
    dist = nx_distances(nxg)
    # seed 000 §2.9: unreachable pairs count 0 in the sum, 1 in the n(n−1) denominator
    expected = sum(dist) / (n * (n - 1)) if n > 1 else 0.0
    assert average_path_length(g) == pytest.approx(expected)
    assert diameter(g) == max(dist, default=0)
    if nxg.number_of_edges():
        ref_mix = nx.degree_mixing_dict(nxg, normalized=True)
        dense = joint_degree_distribution(g).to_dense()
        assert all(dense[a, b] == pytest.approx(p) for a, r in ref_mix.items()
                   for b, p in r.items())  # fmt: skip
    if nx.is_connected(nxg) and n > 1:
        ev = as_array(nx.eigenvector_centrality(nxg, max_iter=10000, tol=1e-13), n)
        assert np.allclose(eigenvector_centrality(g), ev, atol=1e-6)


@given(gnp(directed=True))
@settings(max_examples=40, deadline=None)
def test_random_directed_graphs_match_networkx(nxg):
    g, n = graph_of(nxg), nxg.number_of_nodes()
    assert np.allclose(betweenness_centrality(g), as_array(nx.betweenness_centrality(nxg), n))
    assert np.allclose(degree_centrality(g), as_array(nx.degree_centrality(nxg), n))
    dist = nx_distances(nxg)
    assert path_lengths(g).counts == tuple(np.bincount(dist, minlength=1).tolist())
    assert average_path_length(g) == pytest.approx(sum(dist) / (n * (n - 1)) if n > 1 else 0.0)
    in_deg = np.bincount([d for _, d in nxg.in_degree()])
    assert np.array_equal(degree_distribution(g, mode="in", normalized=False), in_deg)


# ------------------------------------------------------------------ conventions
def test_clustering_variants_hand_example():
    # triangle 0-1-2 plus pendant 3 on node 0: local values 1/3, 1, 1, 0 (0/0)
    g = Graph.from_edges(4, [(0, 1), (1, 2), (0, 2), (0, 3)])
    c = clustering_coefficients(g)
    assert c.cc == pytest.approx(7 / 12)  # eq 7.1: (1/3 + 1 + 1 + 0) / 4
    assert c.cc1 == pytest.approx(3 / 5)  # eq 7.2: Σ∆ = 3 over Σ C(d,2) = 3 + 1 + 1
    assert c.cc2 == pytest.approx(7 / 9)  # eq 7.3: over the 3 nodes of degree ≥ 2
    assert (c.triangles, c.triples, c.nodes_degree2) == (1, 5, 3)


@pytest.mark.parametrize(
    ("n", "edges"),
    [
        (5, []),  # no edges at all
        (4, [(0, 1), (2, 3)]),  # no node of degree ≥ 2: every term is 0/0
        (4, [(0, 1), (0, 2), (0, 3)]),  # a star: wedges but no triangle
        (1, []),
    ],
)
def test_clustering_zero_over_zero_is_zero(n, edges):
    c = clustering_coefficients(Graph.from_edges(n, edges))
    assert (c.cc, c.cc1, c.cc2) == (0.0, 0.0, 0.0)


def test_average_path_length_disconnected_convention():
    # path 0-1-2 plus isolated 3: ordered distances sum to 8 over 4·3 = 12 pairs
    g = Graph.from_edges(4, [(0, 1), (1, 2)])
    assert average_path_length(g) == pytest.approx(8 / 12)
    assert average_path_length(g, unreachable="exclude") == pytest.approx(8 / 6)
    assert diameter(g) == 2
    # two disjoint edges plus an isolated node: 4 of 20 ordered pairs at distance 1
    h = Graph.from_edges(5, [(0, 1), (2, 3)])
    lengths = path_lengths(h)
    assert (lengths.counts, lengths.unreachable, lengths.pairs) == ((0, 4), 16, 20)
    assert lengths.average() == pytest.approx(0.2) and lengths.average("exclude") == 1.0
    empty = Graph.from_edges(3, [])
    assert (average_path_length(empty), diameter(empty), effective_diameter(empty)) == (0, 0, 0)


def test_path_length_sums_cannot_overflow():
    # SecGraph's path-length metric overflows (REFERENCE_RESULTS.md); int64 would here too
    huge = PathLengths(counts=(0, 2**62, 2**62), unreachable=2**63, n_nodes=2**32,
                       sources=2**32, directed=False)  # fmt: skip
    assert huge.pairs == 2**64
    assert huge.average() == 0.75  # (2^62 + 2·2^62) / 2^64
    assert huge.average("exclude") == 1.5
    assert huge.effective_diameter() == pytest.approx(1.8)  # 1 + (0.9·2^63 − 2^62)/2^62


def test_effective_diameter_interpolates_like_snap():
    lengths = PathLengths(counts=(0, 10, 30, 60), unreachable=0, n_nodes=11, sources=11,
                          directed=False)  # fmt: skip
    # 90 % of 100 pairs = 90: C(2) = 40 < 90 ≤ C(3) = 100 → 2 + (90 − 40)/60
    assert lengths.effective_diameter() == pytest.approx(2 + 50 / 60)
    assert lengths.effective_diameter(interpolate=False) == 3.0
    assert lengths.percentile(0.1, interpolate=True) == pytest.approx(1.0)
    assert lengths.median == 3.0


def test_sampled_paths_seeded_and_close_to_exact():
    nxg = nx.connected_watts_strogatz_graph(400, 6, 0.1, seed=7)
    g = graph_of(nxg)
    exact = path_lengths(g)
    a = path_lengths(g, sample=120, seed=5)
    assert a == path_lengths(g, sample=120, seed=5) and a.sampled and a.sources == 120
    assert a.pairs == 120 * 399
    assert a.average() == pytest.approx(exact.average(), rel=0.03)
    assert a.diameter <= exact.diameter
    assert path_lengths(g, sample=400, seed=1) == exact  # k ≥ n: exact
    b = betweenness_centrality(g, sample=200, seed=2)
    assert np.corrcoef(b, betweenness_centrality(g))[0, 1] > 0.9
    # directed sampling agrees with the exact histogram when every node is a source
    d = graph_of(nx.gnp_random_graph(30, 0.08, seed=4, directed=True))
    from privlab.graph.utility.paths import _sampled

    assert _sampled(d, np.arange(30)) == path_lengths(d)


# ------------------------------------------------------------------ Hellinger
def test_hellinger_identical_graphs_is_zero(karate):
    _, g = karate
    assert hellinger_dd(g, g) == 0.0 and hellinger_jdd(g, g) == 0.0


def test_hellinger_hand_examples():
    assert hellinger_distance([0.5, 0.5], [1.0, 0.0]) == pytest.approx(math.sqrt(1 - 0.5**0.5))
    assert hellinger_distance([1, 1], [3]) == pytest.approx(math.sqrt(1 - 0.5**0.5))  # padding
    assert hellinger_distance([1, 0], [0, 1]) == 1.0
    p3 = Graph.from_edges(3, [(0, 1), (1, 2)])  # degrees 1, 2, 1: DD (0, 2/3, 1/3)
    tri = Graph.from_edges(3, [(0, 1), (1, 2), (0, 2)])  # DD (0, 0, 1)
    assert hellinger_dd(p3, tri) == pytest.approx(math.sqrt(1 - 1 / math.sqrt(3)))
    assert hellinger_jdd(p3, tri) == 1.0  # JDD {(1,2)} vs {(2,2)}: disjoint
    p4 = Graph.from_edges(4, [(0, 1), (1, 2), (2, 3)])  # JDD (1,2): 2/3, (2,2): 1/3
    p5 = Graph.from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4)])  # (1,2): 1/2, (2,2): 1/2
    bc = math.sqrt(2 / 3 * 1 / 2) + math.sqrt(1 / 3 * 1 / 2)
    assert hellinger_jdd(p4, p5) == pytest.approx(math.sqrt(1 - bc))
    # the ordered-pair (networkx) convention gives the same distance
    a, b = joint_degree_distribution(p4).to_dense(), joint_degree_distribution(p5).to_dense()
    assert hellinger_distance(a.ravel(), b.ravel()) == pytest.approx(hellinger_jdd(p4, p5))


def test_hellinger_rejects_bad_weights():
    for p in ([-1, 2], [0, 0], [np.nan, 1]):
        with pytest.raises(InputError, match="Hellinger"):
            hellinger_distance(p, [1, 1])


# ------------------------------------------------------------------ power law
def discrete_power_law(alpha: float, x_min: int, size: int, rng) -> np.ndarray:
    """Exact inverse-CDF sampling from p(x) = x^−α / ζ(α, x_min) on x_min..10^6."""
    from scipy.special import zeta

    x = np.arange(x_min, 10**6)
    survival = zeta(alpha, x) / zeta(alpha, x_min)  # P(X ≥ x), decreasing
    u = rng.random(size)
    return x[np.searchsorted(-survival, -u, side="right") - 1]


def test_power_law_recovers_known_exponent():
    rng = np.random.default_rng(11)
    sample = discrete_power_law(2.5, 3, 30_000, rng)
    with_body = np.concatenate([sample, rng.integers(0, 3, 5_000)])  # ignored: below x_min
    fit = power_law_exponent(with_body, x_min=3)
    assert fit.n_tail == 30_000 and fit.n == 35_000 and not fit.x_min_fitted
    assert fit.sigma == pytest.approx(1.5 / math.sqrt(30_000), rel=0.25)
    assert abs(fit.alpha - 2.5) < 4 * fit.sigma
    assert fit.ks_distance < 0.02
    # CSN eq. 3.7 is biased at small x_min (accurate from x_min ≈ 6): the exact MLE is closer
    approx = power_law_exponent(sample, x_min=3, method="approx").alpha
    assert abs(approx - 2.5) < 0.1 and abs(fit.alpha - 2.5) < abs(approx - 2.5)


def test_power_law_fits_x_min_by_ks():
    rng = np.random.default_rng(12)
    tail = discrete_power_law(2.2, 6, 20_000, rng)
    body = rng.integers(1, 6, 20_000)  # flat below 6: not a power law
    fit = power_law_exponent(np.concatenate([body, tail]), x_min="fit")
    assert fit.x_min_fitted and 5 <= fit.x_min <= 8
    assert fit.alpha == pytest.approx(2.2, abs=0.06)


def test_power_law_input_checks():
    with pytest.raises(InputError, match="two distinct"):
        power_law_exponent([3, 3, 3, 1], x_min=3)
    with pytest.raises(ConfigError, match="x_min"):
        power_law_exponent([3, 4, 5], x_min=0)
    with pytest.raises(InputError, match="non-negative"):
        power_law_exponent([-3, 4, 5])
    with pytest.raises(InputError, match="integers"):
        power_law_exponent([3.5, 4, 5])
    with pytest.raises(InputError, match="power-law exponent"):
        power_law_exponent(Graph.from_edges(3, [(0, 1)], directed=True))


# ------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    ("fn", "name"),
    [
        (clustering_coefficients, "clustering coefficient"),
        (local_clustering, "local clustering"),
        (joint_degree_distribution, "joint degree distribution"),
        (average_degree_connectivity, "average degree connectivity"),
        (eigenvector_centrality, "eigenvector centrality"),
        (closeness_centrality, "closeness centrality"),
    ],
)
def test_undirected_only_metrics_name_themselves(fn, name):
    d = Graph.from_edges(3, [(0, 1), (1, 2)], directed=True)
    with pytest.raises(InputError, match=name):
        fn(d)


def test_parameter_and_input_errors(karate):
    _, g = karate
    with pytest.raises(ConfigError, match="variant"):
        clustering_coefficient(g, "cc3")
    with pytest.raises(ConfigError, match="sample"):
        average_path_length(g, sample=0)
    with pytest.raises(ConfigError, match="unreachable"):
        average_path_length(g, unreachable="infinite")
    with pytest.raises(ConfigError, match="q"):
        effective_diameter(g, 1.5)
    with pytest.raises(InputError, match="expected a privlab Graph"):
        diameter([(0, 1)])
    with pytest.raises(InputError, match="no edges"):
        joint_degree_distribution(Graph.from_edges(3, []))
    with pytest.raises(InputError, match="no nodes"):
        degree_distribution(Graph.from_edges(0, []))
    with pytest.raises(InputError, match=r"0\.\.33"):
        closeness_centrality(g, nodes=[40])


# ------------------------------------------------------------------ compare
def test_compare_identical_and_perturbed(karate):
    _, g = karate
    same = compare(g, g)
    assert same.names == list(METRICS)
    assert all(m.difference == 0 for m in same.metrics)
    rng = np.random.default_rng(0)
    edges = g.edges()
    keep = edges[rng.random(len(edges)) > 0.2]
    release = Graph.from_edges(g.n_nodes, keep)
    c = compare(g, release, seed=3)
    assert c["edges"].difference == release.n_edges - g.n_edges
    assert c["clustering_cc"].original == pytest.approx(nx.average_clustering(g.to_networkx()))
    assert 0 < c["degree_distribution"].difference <= 1
    assert c["joint_degree_distribution"].original is None
    assert c["average_path_length"].difference == pytest.approx(
        average_path_length(release) - average_path_length(g))  # fmt: skip
    json.dumps(c.to_dict())  # serializable for the CLI and reports
    assert "| diameter |" in c.to_markdown()


def test_compare_sampled_is_reproducible_and_flagged():
    g = graph_of(nx.connected_watts_strogatz_graph(200, 4, 0.1, seed=1))
    h = graph_of(nx.connected_watts_strogatz_graph(200, 4, 0.3, seed=2))
    names = ["average_path_length", "betweenness_centrality", "closeness_centrality", "edges"]
    a = compare(g, h, metrics=names, sample=50, seed=9)
    assert a == compare(g, h, metrics=names, sample=50, seed=9)
    assert [m.sampled for m in a.metrics] == [True, True, True, False]
    assert a.to_dict()["sample"] == 50


def test_compare_directed_and_errors():
    d = Graph.from_edges(4, [(0, 1), (1, 2), (2, 3), (3, 0)], directed=True)
    c = compare(d, d)
    assert "clustering_cc" not in c.names and "diameter" in c.names
    assert c["diameter"].original == 3
    with pytest.raises(InputError, match="clustering cc"):
        compare(d, d, metrics=["clustering_cc"])
    with pytest.raises(ConfigError, match="unknown metric"):
        compare(d, d, metrics=["wiener_index"])
    u = Graph.from_edges(4, [(0, 1)])
    with pytest.raises(InputError, match="directed"):
        compare(d, u)
    edgeless = compare(u, Graph.from_edges(4, []), metrics=["joint_degree_distribution",
                                                           "power_law_exponent"])  # fmt: skip
    assert math.isnan(edgeless["joint_degree_distribution"].difference)
    assert edgeless["joint_degree_distribution"].note
    assert edgeless.to_dict()["metrics"]["power_law_exponent"]["release"] is None


# ------------------------------------------------------------------ real data
def test_ca_grqc_matches_snap_statistics(grqc_graph):
    """SNAP's published ca-GrQc statistics: average clustering 0.5296, 48,260 triangles,
    diameter 17, 90-percentile effective diameter 7.6."""
    c = clustering_coefficients(grqc_graph)
    assert c.cc == pytest.approx(0.5296, abs=5e-5) and c.triangles == 48_260
    lengths = path_lengths(grqc_graph)
    assert lengths.diameter == 17
    assert lengths.effective_diameter() == pytest.approx(7.6, abs=0.01)


def test_compare_auto_samples_above_2000_nodes_only():
    small, large = nx.path_graph(2000), nx.path_graph(2001)
    assert compare(small, small, sample="auto", metrics=["diameter"]).sample is None
    auto = compare(large, large, sample="auto", seed=0, metrics=["diameter"])
    assert auto.sample == 256 and auto["diameter"].sampled
    assert auto["diameter"].release == compare(large, large, sample=256, seed=0)["diameter"].release
