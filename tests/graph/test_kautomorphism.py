"""The schemes on the alignment table, each release checked by its definition on karate and
random graphs (hypothesis), for each way of filling the table.

k-automorphism (Zou, Chen & Özsu, VLDB 2009): the k−1 returned maps are automorphisms
(checked by igraph too), move every node and send it to k−1 different places; bliss finds
every orbit ≥ k; E ⊆ E*, |E*| ≤ k·|E|, the noise count.  k-isomorphism (Cheng, Fu & Liu,
SIGMOD 2010): k disjoint subgraphs, pairwise isomorphic by igraph's VF2 (the scheme's own
check uses bliss); the edge accounting."""

from __future__ import annotations

import igraph as ig
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError
from privlab.graph.anonymize.kautomorphism import TABLES, kautomorphism_anonymize
from privlab.graph.anonymize.kisomorphism import kisomorphism_anonymize
from privlab.graph.automorphism import automorphism_orbits
from privlab.graph.core import Graph
from tests.graph.test_automorphism import graphs


def _edges(g: Graph) -> set[tuple[int, int]]:
    return {(min(u, v), max(u, v)) for u, v in g.edges().tolist()}


def _check_auto(g: Graph, k: int, table: str, seed: int = 0) -> None:
    r = kautomorphism_anonymize(g, k, table=table, seed=seed, verify=False)
    rel, n = r.graph, g.n_nodes
    assert rel.n_nodes == k * -(-n // k)  # k·⌈n/k⌉: the noise nodes fill the last row
    assert r.automorphisms.shape == (k - 1, rel.n_nodes)
    h = ig.Graph(n=rel.n_nodes, edges=rel.edges().tolist())
    target = sorted(tuple(sorted(e)) for e in h.get_edgelist())
    for f in r.automorphisms:
        # igraph: permuting the vertices by F gives the same graph
        moved = h.permute_vertices(f.tolist())
        assert sorted(tuple(sorted(e)) for e in moved.get_edgelist()) == target
        assert np.all(f != np.arange(rel.n_nodes))
    images = np.vstack([np.arange(rel.n_nodes), r.automorphisms])
    assert all(len(set(col)) == k for col in images.T.tolist())  # v, F_1(v) … all different
    assert automorphism_orbits(rel).sizes.min(initial=k) >= k
    inside = {(u, v) for u, v in _edges(rel) if u < n and v < n}
    assert _edges(g) <= inside  # every original edge is kept
    assert rel.n_edges <= k * g.n_edges
    assert r.edges_added == rel.n_edges - g.n_edges


def _check_iso(g: Graph, k: int, table: str, seed: int = 0) -> None:
    r = kisomorphism_anonymize(g, k, table=table, seed=seed, verify=False)
    rel, n = r.graph, g.n_nodes
    assert rel.n_nodes == k * -(-n // k)
    assert np.bincount(r.block, minlength=k).tolist() == [rel.n_nodes // k] * k
    h = ig.Graph(n=rel.n_nodes, edges=rel.edges().tolist())
    comps = [np.flatnonzero(r.block == c).tolist() for c in range(k)]
    assert all(r.block[u] == r.block[v] for u, v in rel.edges().tolist())  # disjoint
    first = h.induced_subgraph(comps[0])
    for c in range(1, k):
        assert first.isomorphic_vf2(h.induced_subgraph(comps[c]))
    # accounting: kept = original edges inside a block, all present in the release
    kept = {(u, v) for u, v in _edges(g) if r.block[u] == r.block[v]}
    assert kept <= _edges(rel)
    assert r.edges_removed == g.n_edges - len(kept)
    assert r.edges_added == len(_edges(rel) - _edges(g))


CHECKS = {"kautomorphism": _check_auto, "kisomorphism": _check_iso}


@pytest.mark.parametrize("scheme", CHECKS)
@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_karate_release_meets_the_definition(scheme, k, table):
    CHECKS[scheme](Graph.from_networkx(nx.karate_club_graph()), k, table)


@settings(max_examples=40)
@given(graphs(max_n=10), st.integers(1, 4), st.sampled_from(TABLES), st.integers(0, 99),
       st.sampled_from(sorted(CHECKS)))  # fmt: skip
def test_random_releases_meet_the_definition(g, k, table, seed, scheme):
    CHECKS[scheme](g, k, table, seed)


def test_k_copies_of_a_graph_need_no_edge():
    # three disjoint triangles and k = 3: F_1 rotates whatever the table, nothing to add
    tri = [(0, 1), (1, 2), (0, 2)]
    g = Graph.from_edges(9, [(u + 3 * i, v + 3 * i) for i in range(3) for u, v in tri])
    for seed in range(5):
        r = kautomorphism_anonymize(g, 3, seed=seed)
        assert r.edges_added == 0 and r.nodes_added == 0 and r.verified


def test_noise_nodes_and_labels():
    g = Graph.from_networkx(nx.path_graph(["a", "b", "c", "d", "e"]))
    r = kautomorphism_anonymize(g, 2, seed=1)
    assert r.graph.n_nodes == 6 and r.nodes_added == 1
    assert r.graph.labels.tolist() == ["a", "b", "c", "d", "e", "noise1"]
    d = r.to_dict()
    assert d["edges_removed"] == 0 and d["rows"] == 3 and d["verified"]


def test_the_bfs_table_adds_fewer_edges_than_a_random_one_on_karate():
    g = Graph.from_networkx(nx.karate_club_graph())
    for k in (2, 3, 5):
        bfs = kautomorphism_anonymize(g, k, seed=0).edges_added
        rnd = [kautomorphism_anonymize(g, k, table="random", seed=s).edges_added
               for s in range(5)]  # fmt: skip
        assert bfs < min(rnd)


def test_bad_parameters_kautomorphism():
    g = Graph.from_edges(3, [(0, 1), (1, 2)])
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ConfigError, match="k = "):
            kautomorphism_anonymize(g, bad)
    with pytest.raises(ConfigError, match="choose a smaller k"):
        kautomorphism_anonymize(g, 10**9)
    with pytest.raises(ConfigError, match="table"):
        kautomorphism_anonymize(g, 2, table="metis")


def test_two_disjoint_triangles_are_already_2_isomorphic():
    tri = [(0, 1), (1, 2), (0, 2)]
    g = Graph.from_edges(6, tri + [(u + 3, v + 3) for u, v in tri])
    for seed in range(5):
        r = kisomorphism_anonymize(g, 2, seed=seed)
        assert r.edges_added == r.edges_removed == r.nodes_added == 0 and r.verified
        assert r.to_dict()["block_nodes"] == 3 and r.to_dict()["block_edges"] == 3


def test_bad_parameters_kisomorphism():
    g = Graph.from_edges(3, [(0, 1), (1, 2)])
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ConfigError, match="k = "):
            kisomorphism_anonymize(g, bad)
    with pytest.raises(ConfigError, match="choose a smaller k"):
        kisomorphism_anonymize(g, 10**9)
    with pytest.raises(ConfigError, match="table"):
        kisomorphism_anonymize(g, 2, table="frequent-subgraphs")
