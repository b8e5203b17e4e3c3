"""k-isomorphism (Cheng, Fu & Liu, SIGMOD 2010): every release is checked by the definition —
k disjoint subgraphs (no edge between them) pairwise isomorphic, by igraph's VF2 here (the
scheme's own check uses bliss) — on karate and random graphs (hypothesis), for each table;
the edge accounting; a hand case; bad parameters."""

from __future__ import annotations

import igraph as ig
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError
from privlab.graph.anonymize.kautomorphism import TABLES
from privlab.graph.anonymize.kisomorphism import kisomorphism_anonymize
from privlab.graph.core import Graph
from tests.graph.test_automorphism import graphs


def _edges(g: Graph) -> set[tuple[int, int]]:
    return {(min(u, v), max(u, v)) for u, v in g.edges().tolist()}


def _check(g: Graph, k: int, table: str, seed: int = 0) -> None:
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


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_karate_release_is_k_isomorphic(k, table):
    _check(Graph.from_networkx(nx.karate_club_graph()), k, table)


@settings(max_examples=40)
@given(graphs(max_n=10), st.integers(1, 4), st.sampled_from(TABLES), st.integers(0, 99))
def test_random_releases_are_k_isomorphic(g, k, table, seed):
    _check(g, k, table, seed)


def test_two_disjoint_triangles_are_already_2_isomorphic():
    tri = [(0, 1), (1, 2), (0, 2)]
    g = Graph.from_edges(6, tri + [(u + 3, v + 3) for u, v in tri])
    for seed in range(5):
        r = kisomorphism_anonymize(g, 2, seed=seed)
        assert r.edges_added == r.edges_removed == r.nodes_added == 0 and r.verified
        assert r.to_dict()["block_nodes"] == 3 and r.to_dict()["block_edges"] == 3


def test_bad_parameters():
    g = Graph.from_edges(3, [(0, 1), (1, 2)])
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ConfigError, match="k = "):
            kisomorphism_anonymize(g, bad)
    with pytest.raises(ConfigError, match="choose a smaller k"):
        kisomorphism_anonymize(g, 10**9)
    with pytest.raises(ConfigError, match="table"):
        kisomorphism_anonymize(g, 2, table="frequent-subgraphs")
