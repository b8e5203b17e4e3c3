"""Union-split clustering and cluster-degree anonymization (Thompson & Yao, ASIACCS 2009).

The release is checked against the definition — every cluster has ≥ k nodes and its members
share one degree — by :func:`check_cluster_degree_anonymity` and independently (k-degree
anonymity of the degree sequence, nodes kept); hand-checked cases for the clustering, the
target degrees and each edit step; random graphs with hypothesis."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError
from privlab.graph.anonymize.unionsplit import (
    check_cluster_degree_anonymity,
    cluster_targets,
    union_split_anonymize,
    union_split_clustering,
)
from privlab.graph.core import Graph


def _g(n: int, edges) -> Graph:
    return Graph.from_edges(n, np.array(edges, dtype=np.int64).reshape(-1, 2))


def _edges(g: Graph) -> set[tuple[int, int]]:
    return {(int(u), int(v)) for u, v in g.edges()}


def _independent_check(original: Graph, r, k: int) -> None:
    rel = r.graph
    assert rel.n_nodes == original.n_nodes  # every node kept, no node added
    sizes = np.bincount(r.cluster_of)
    assert sizes.min() >= k and sizes.max() <= max(2 * k - 1, 1)
    deg = rel.degrees()
    for c in range(sizes.size):
        assert np.unique(deg[r.cluster_of == c]).size == 1
        assert deg[r.cluster_of == c][0] == r.target[c]
    _, counts = np.unique(deg, return_counts=True)
    assert counts.min() >= k  # k-degree anonymity follows
    before, after = _edges(original), _edges(rel)
    assert r.edges_added == len(after - before) and r.edges_removed == len(before - after)


# ---------------------------------------------------------------------------- hand-checked
def test_twins_cluster_together_and_nothing_changes():
    # path 0-1-2-3: 1-hop features (1,[2]) for 0 and 3, (2,[2,1]) for 1 and 2 — distance 0
    # within each pair, 2 across; every random order gives {0,3}, {1,2}, degrees already equal
    g = _g(4, [(0, 1), (1, 2), (2, 3)])
    for seed in range(10):
        r = union_split_anonymize(g, 2, seed=seed)
        c = r.cluster_of
        assert c[0] == c[3] and c[1] == c[2] and c[0] != c[1]
        assert r.edges_added == r.edges_removed == 0 and _edges(r.graph) == _edges(g)


def test_cluster_targets_round_the_mean_and_repair_the_parity():
    assert cluster_targets([1, 2, 2, 1, 3], [0, 0, 1, 1, 1]).tolist() == [2, 2]  # 1.5 → 2
    # means 1 and 2 give sum 3·1 + 1·2 = 5, odd: the first odd cluster at equal cost moves up
    assert cluster_targets([1, 1, 1, 2], [0, 0, 0, 1]).tolist() == [2, 2]
    # 2·3 + 3·1 = 9 is odd; only the odd cluster (mean 2/3, rounded to 1) can repair it, by
    # moving to its other rounding, 0; the even one (size 2) keeps its mean
    assert cluster_targets([3, 3, 0, 1, 1], [0, 0, 1, 1, 1]).tolist() == [3, 0]


def test_path_becomes_a_cycle_by_one_added_edge():
    # one cluster (k = n = 6): mean degree 10/6 → 2; the two ends each need one edge (step 2)
    g = _g(6, [(i, i + 1) for i in range(5)])
    r = union_split_anonymize(g, 6, seed=0)
    assert _edges(r.graph) == _edges(g) | {(0, 5)}
    assert (r.edges_added, r.edges_removed, r.fallback) == (1, 0, False)


def test_star_becomes_a_five_cycle():
    # K(1,4), k = 5: mean 8/5 → 2.  Step 2 joins leaves 1–2 and 3–4; the centre keeps two
    # surplus units, step 4 turns 0–w, 0–w′ into w–w′: a 2-regular graph on 5 nodes = C5
    g = _g(5, [(0, 1), (0, 2), (0, 3), (0, 4)])
    r = union_split_anonymize(g, 5, seed=0)
    assert r.graph.degrees().tolist() == [2] * 5
    assert nx.is_isomorphic(r.graph.to_networkx(), nx.cycle_graph(5))
    assert (r.edges_added, r.edges_removed) == (3, 2)


def test_zero_hop_clusters_by_degree_only():
    # degrees 3 (×3) and 1 (×3) on two disjoint stars... plus a triangle for degree 2
    g = _g(8, [(0, 1), (0, 2), (0, 3), (4, 5), (4, 6), (4, 7)])
    r = union_split_clustering(g, 2, hops=0, seed=1)
    assert r.cluster_of[0] == r.cluster_of[4]  # the two centres, distance 0
    assert r.sizes.min() >= 2


def test_the_check_finds_each_violation():
    g = _g(4, [(0, 1), (1, 2), (2, 3)])
    assert check_cluster_degree_anonymity(g, [0, 1, 1, 0], 2) == []
    assert any("differ in degree" in p for p in check_cluster_degree_anonymity(g, [0, 0, 1, 1], 2))
    assert any("smaller than k" in p for p in check_cluster_degree_anonymity(g, [0, 1, 1, 0], 3))
    assert any("nodes, the input" in p
               for p in check_cluster_degree_anonymity(g, [0, 1, 1, 0], 2, n_nodes=5))  # fmt: skip


def test_karate_both_distances():
    g = Graph.from_networkx(nx.karate_club_graph())
    for hops in (0, 1):
        for k in (2, 3, 5, 10):
            r = union_split_anonymize(g, k, hops=hops, seed=k)
            _independent_check(g, r, k)
            assert check_cluster_degree_anonymity(r.graph, r.cluster_of, k, n_nodes=34) == []
            d = r.to_dict()
            assert d["smallest_cluster"] >= k and d["n_nodes"] == 34


def test_labels_are_kept_and_k_one_changes_nothing():
    g = Graph.from_edges(3, np.array([[0, 1], [1, 2]]), labels=np.array(["a", "b", "c"]))
    r = union_split_anonymize(g, 1, seed=0)
    assert r.graph.labels.tolist() == ["a", "b", "c"] and _edges(r.graph) == _edges(g)


@pytest.mark.parametrize(
    ("k", "hops", "message"),
    [(0, 1, "k = 0"), (5, 1, "only 4 nodes"), (2.5, 1, "k = 2.5"), (2, 2, "hops = 2")],
)
def test_bad_parameters(k, hops, message):
    with pytest.raises(ConfigError, match=message):
        union_split_anonymize(_g(4, [(0, 1)]), k, hops=hops)


# ---------------------------------------------------------------------------- random graphs
@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 30),
    p=st.floats(0.0, 1.0),
    k_frac=st.floats(0.0, 1.0),
    hops=st.sampled_from([0, 1]),
    seed=st.integers(0, 2**16),
)
def test_release_passes_the_definition_on_random_graphs(n, p, k_frac, hops, seed):
    g = Graph.from_networkx(nx.gnp_random_graph(n, p, seed=seed))
    k = 1 + int(k_frac * (n - 1))
    r = union_split_anonymize(g, k, hops=hops, seed=seed, verify=False)
    assert check_cluster_degree_anonymity(r.graph, r.cluster_of, k, n_nodes=n) == []
    _independent_check(g, r, k)


def test_dense_graph_where_local_moves_get_stuck_falls_back_exactly():
    # G(8, 0.9): nearly complete, a rotation finds no free w; the targets are then realized by
    # Havel–Hakimi from G's edges and swaps towards G — still the exact definition
    g = Graph.from_networkx(nx.gnp_random_graph(8, 0.9, seed=0))
    r = union_split_anonymize(g, 3, seed=0)
    assert r.fallback and r.to_dict()["fallback_construction"]
    _independent_check(g, r, 3)
