"""The cut-based active attack (Backstrom, Dwork & Kleinberg, WWW 2007): the (b+1)-connected
classes against igraph's Gomory–Hu tree, planting by hand-checkable invariants, recovery on
an unrelabelled and a relabelled graph, a decoy copy of H (ambiguous), and the success rate
rising with the number of sybils."""

from __future__ import annotations

import igraph as ig
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.cut import (
    connectivity_classes,
    cut_attack,
    cut_success_vs_k,
    plant_cut_subgraph,
    recover_cut,
)
from privlab.graph.core import Graph


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.all((a[:, None] == a[None, :]) == (b[:, None] == b[None, :])))


def _gomory_hu_classes(g: Graph, threshold: int) -> np.ndarray:
    tree = g.to_igraph().gomory_hu_tree()
    keep = [e.index for e in tree.es if e["flow"] >= threshold]
    sub = tree.subgraph_edges(keep, delete_vertices=False)
    return np.array(sub.connected_components().membership)


def test_two_cliques_joined_by_one_edge():
    # K5 on 0..4, K5 on 5..9, bridge 4–5, pendant 10 on 0: λ ≥ 2 classes are the two cliques
    edges = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    edges += [(i + 5, j + 5) for i, j in edges] + [(4, 5), (0, 10)]
    g = Graph.from_edges(11, np.array(edges))
    lab = connectivity_classes(g, 2)
    assert _same_partition(lab, np.array([0] * 5 + [1] * 5 + [2]))
    # λ ≥ 5: within K5 the local connectivity is 4 (each node has 4 clique neighbours, the
    # bridge ends 5 edges but one leaves): every node alone
    assert np.unique(connectivity_classes(g, 5)).size == 11


@settings(max_examples=15, deadline=None)
@given(n=st.integers(2, 25), p=st.floats(0.05, 0.9), t=st.integers(1, 5), s=st.integers(0, 999))
def test_classes_match_the_gomory_hu_tree(n, p, t, s):
    g = Graph.from_networkx(nx.gnp_random_graph(n, p, seed=s))
    assert _same_partition(connectivity_classes(g, t), _gomory_hu_classes(g, t))


def test_planting_attaches_h_by_exactly_b_edges():
    g = Graph.from_networkx(nx.karate_club_graph())
    planted, secret = plant_cut_subgraph(g, [0, 5, 33], seed=4)
    n, k = 34, secret.k
    assert k == 12 and planted.n_nodes == n + k
    e = planted.edges()
    out = e[(e[:, 0] < n) & (e[:, 1] >= n)]
    assert sorted(out[:, 0].tolist()) == [0, 5, 33]
    assert np.unique(out[:, 1]).size == 3  # one distinct sybil per target
    for t, x in zip(secret.targets, secret.attach, strict=True):
        assert planted.has_edge(int(t), n + int(x))
    inside = e[(e[:, 0] >= n)] - n
    adj = np.zeros((k, k), bool)
    adj[inside[:, 0], inside[:, 1]] = adj[inside[:, 1], inside[:, 0]] = True
    assert np.array_equal(adj, secret.internal)
    h = ig.Graph.Adjacency(secret.internal.astype(int).tolist(), mode="undirected")
    assert secret.h_ok and h.edge_connectivity() >= 4 and h.count_automorphisms() == 1
    assert np.array_equal(e[e[:, 1] < n], g.edges())  # G itself untouched


def test_recovery_finds_the_targets_before_and_after_relabelling():
    from privlab.graph.anonymize.naive import naive_anonymize

    g = Graph.from_networkx(nx.connected_watts_strogatz_graph(200, 6, 0.2, seed=3))
    planted, secret = plant_cut_subgraph(g, [7, 70, 140, 199], seed=1)
    rec = recover_cut(planted, secret)
    assert rec.status == "unique" and rec.targets.tolist() == [7, 70, 140, 199]
    assert rec.sybils.tolist() == secret.sybils.tolist()
    release = naive_anonymize(planted, seed=9)
    rec = recover_cut(release.graph, secret)
    assert release.mapping[rec.targets].tolist() == [7, 70, 140, 199]


def test_a_decoy_copy_of_h_makes_the_search_ambiguous():
    g = Graph.from_networkx(nx.connected_watts_strogatz_graph(120, 6, 0.2, seed=5))
    planted, secret = plant_cut_subgraph(g, [1, 2], seed=2)
    # a second copy of H, joined to two other nodes by one edge each: same cut, same shape
    m, k = planted.n_nodes, secret.k
    i, j = np.nonzero(np.triu(secret.internal, 1))
    decoy = np.stack([i + m, j + m], axis=1)
    hooks = np.array([[50, m + int(secret.attach[0])], [60, m + int(secret.attach[1])]])
    both = Graph.from_edges(m + k, np.concatenate([planted.edges(), decoy, hooks]))
    rec = recover_cut(both, secret)
    assert rec.status == "ambiguous" and rec.n_matches == 2
    assert rec.targets.tolist() == [-1, -1] and rec.target_status == ["no_h", "no_h"]


def test_success_rises_with_the_number_of_sybils():
    g = Graph.from_networkx(nx.gnm_random_graph(80, 320, seed=1))
    rows = cut_success_vs_k(g, [3, 5, 9], n_targets=2, trials=3, seed=3)
    rates = [r["success_rate"] for r in rows]
    # k = b + 1 = 3: a sybil has at most 2 = b internal edges, H never separates itself
    assert rates[0] == 0.0 and rates[-1] == 1.0 and rates == sorted(rates)


def test_whole_attack_scores_against_the_release_mapping():
    g = Graph.from_networkx(nx.gnm_random_graph(150, 600, seed=2))
    r = cut_attack(g, 3, seed=5)
    d = r.to_dict()
    assert d["k"] == 12 and d["status"] == "unique" and d["success_rate"] == 1.0
    assert d["targets_correct"] == d["targets_found"] == 3 and r.sybils_exact


@pytest.mark.parametrize(
    ("targets", "k", "error", "message"),
    [([], None, InputError, "non-empty"), ([1, 1], None, InputError, "twice"),
     ([999], None, InputError, "ids must be"), ([1, 2, 3], 2, ConfigError, "its own sybil"),
     ([1], 1, ConfigError, "k = 1")],
)  # fmt: skip
def test_bad_parameters(targets, k, error, message):
    g = Graph.from_networkx(nx.path_graph(10))
    with pytest.raises(error, match=message):
        plant_cut_subgraph(g, np.array(targets, dtype=np.int64), k=k)
