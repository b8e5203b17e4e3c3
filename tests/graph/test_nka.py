"""NKA (Nilizadeh, Kapadia & Ahn, CCS 2014): hand-checked steps, invariants, bad input, and the
low-seed regime where the community step is what makes the attack work."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.nka import (
    _closest,
    clique_seeds,
    community_graph,
    community_propagation,
    detect_communities,
    nka,
    seed_communities,
)
from privlab.graph.attacks.propagation import propagate
from privlab.graph.core import Graph
from privlab.graph.pairs import secgraph_pair


def _graph(nxg) -> Graph:
    return Graph.from_edges(nxg.number_of_nodes(), np.array(list(nxg.edges()), dtype=np.int64))


def _planted(blocks: int, size: int, p_in: float, p_out: float, seed: int) -> Graph:
    probs = np.full((blocks, blocks), p_out) + np.eye(blocks) * (p_in - p_out)
    return _graph(nx.stochastic_block_model([size] * blocks, probs.tolist(), seed=seed))


def _permuted(g: Graph, seed: int) -> tuple[Graph, np.ndarray]:
    """G relabelled by a random permutation π; returns (π(G), π) so truth = π."""
    perm = np.random.default_rng(seed).permutation(g.n_nodes)
    return Graph.from_edges(g.n_nodes, perm[g.edges()]), perm


# ---------------------------------------------------------------- hand-checked steps
def test_community_graph_counts_edges_between_communities():
    # path 0-1-2-3 with communities {0,1} and {2,3}: one edge between them
    g = Graph.from_edges(4, [[0, 1], [1, 2], [2, 3]])
    w = community_graph(g, np.array([0, 0, 1, 1]))
    assert w.tolist() == [[0.0, 1.0], [1.0, 0.0]]
    # a triangle split 1 | 2: two edges between
    t = Graph.from_edges(3, [[0, 1], [1, 2], [0, 2]])
    assert community_graph(t, np.array([0, 1, 1])).tolist() == [[0.0, 2.0], [2.0, 0.0]]


def test_seed_communities_majority_vote_and_one_to_one():
    m1 = np.array([0, 0, 0, 1, 1, 2])
    m2 = np.array([1, 1, 0, 0, 2, 2])
    # community 0's seeds: 0→0 (c2 1), 1→1 (c2 1), 2→2 (c2 0): majority c2 1
    # community 1's seeds: 3→3 (c2 0), 4→4 (c2 2); community 2's: 5→5 (c2 2)
    seeds = np.array([[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5]])
    cmap = seed_communities(m1, m2, seeds)
    # by votes: (0,1) has 2; then single votes by ids: (0,0) skipped (0 mapped), (1,0), (1,2)
    # skipped (1 mapped), (2,2)
    assert cmap.tolist() == [1, 0, 2]
    # two G1 communities voting for the same G2 community: only the stronger gets it
    cmap = seed_communities(
        np.array([0, 0, 1]), np.array([0, 0, 0]), np.array([[0, 0], [1, 1], [2, 2]])
    )
    assert cmap.tolist() == [0, -1]


def test_community_propagation_by_hand():
    # G1: community 0 joined to 1 by 4 edges and to 2 by 1 edge; G2 the same with 1 and 2
    # swapped.  From 0 ↔ 0: for u = 1 the candidates score (1 − |√4 − √1|) = 0 (v = 1) and
    # (1 − |√4 − √4|) = 1 (v = 2); ecc = 1 / 0.5 = 2 ≥ 0; back from v = 2 the best is 1.
    w1 = np.array([[0, 4, 1], [4, 0, 0], [1, 0, 0]], dtype=float)
    w2 = np.array([[0, 1, 4], [1, 0, 0], [4, 0, 0]], dtype=float)
    cmap = np.array([0, -1, -1])
    rounds = community_propagation(w1, w2, cmap, 0.0)
    assert cmap.tolist() == [0, 2, 1]
    assert rounds == 2  # one round maps both, the next maps nothing


def test_community_propagation_refuses_a_tie():
    # two equal candidates: σ > 0 is impossible with the gap 0 → ecc 0 ≥ θ only for θ = 0,
    # and with θ = 0.5 nothing is mapped
    w = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]], dtype=float)
    cmap = np.array([0, -1, -1])
    community_propagation(w, w.copy(), cmap, 0.5)
    assert cmap.tolist() == [0, -1, -1]


def test_closest_needs_a_clear_winner():
    dist = np.array([[0.0, 5.0, 5.0], [1.0, 1.0, 9.0]])
    # row 0: gap 5, σ = 2.357 → ecc 2.12; row 1: tie (gap 0) → ecc 0 < 0.1
    assert _closest(dist, 0.1).tolist() == [0, -1]
    assert _closest(np.array([[3.0]]), 0.0).tolist() == [-1]  # one candidate: σ = 0


def test_two_communities_seeds_in_one():
    # two dense communities of 30 joined by 3 edges; G2 an isomorphic relabelled copy;
    # three seeds, all in community A.  The seeds map A; community propagation maps B (its
    # only candidate); local NS inside A, then the global NS reaches B.
    a = nx.gnp_random_graph(30, 0.4, seed=1)
    b = nx.relabel_nodes(nx.gnp_random_graph(30, 0.4, seed=2), lambda v: v + 30)
    g = nx.union(a, b)
    g.add_edges_from([(0, 30), (5, 40), (9, 50)])
    g1 = _graph(g)
    g2, perm = _permuted(g1, 3)
    memb1 = np.repeat([0, 1], 30)
    memb2 = np.empty(60, dtype=np.int64)
    memb2[perm] = memb1
    seeds = np.array([[v, perm[v]] for v in (1, 2, 3)])
    r = nka(g1, g2, seeds, truth=perm, communities=(memb1, memb2))
    c2a, c2b = memb2[perm[1]], memb2[perm[40]]  # G2's names of A and B after relabelling
    assert r.community_map.tolist() == [c2a, c2b]
    assert r.stages["seed_communities"] == 1 and r.stages["communities_mapped"] == 2
    assert r.stages["local"] > 0  # NS inside A found pairs before the global pass
    assert r.wrong == 0 and r.mapped == 60  # an isomorphic copy of an asymmetric graph
    # the planted partition is what igraph finds
    found = detect_communities(g1, "louvain")
    assert len(set(zip(found.tolist(), memb1.tolist(), strict=True))) == 2


def test_low_seed_regime_community_step_helps():
    # the paper's claim (§ results: few seeds, noise): planted communities, SecGraph pair
    # p = 0.8, one known 4-clique.  NS alone barely starts; NKA maps most nodes correctly.
    g = _planted(6, 60, 0.25, 0.01, seed=3)
    pair = secgraph_pair(g, 0.8, seed=5)
    t = pair.truth_array()
    _, seeds = clique_seeds(pair.aux, t, 1, seed=1)
    ns = propagate(pair.aux, pair.san, seeds, 0.1, truth=t)
    r = nka(pair.aux, pair.san, seeds, truth=t, method="louvain")
    assert r.correct >= 5 * max(ns.correct, 1)
    assert r.accuracy > 0.8
    assert r.stages["communities_correct"] >= 1  # the seeds' community at least
    assert r.stages["before_global_correct"] > ns.correct  # inside communities NS already won


# ---------------------------------------------------------------- invariants
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), p=st.sampled_from([0.7, 0.9, 1.0]), k=st.integers(1, 6))
def test_invariants(seed, p, k):
    g = _planted(3, 20, 0.4, 0.03, seed=seed)
    pair = secgraph_pair(g, p, seed=seed)
    t = pair.truth_array()
    rng = np.random.default_rng(seed)
    left = rng.choice(np.flatnonzero(t >= 0), size=k, replace=False)
    seeds = np.stack([left, t[left]], axis=1)
    r = nka(pair.aux, pair.san, seeds, truth=t, method="louvain", enrich=bool(seed % 2))
    m = r.mapping
    assert (m[seeds[:, 0]] == seeds[:, 1]).all()  # seeds kept
    img = m[m >= 0]
    assert np.unique(img).size == img.size  # one-to-one
    cm = r.community_map[r.community_map >= 0]
    assert np.unique(cm).size == cm.size
    assert r.correct + r.wrong == r.mapped and 0 <= r.coverage <= 1
    assert r.stages["before_global"] <= r.mapped  # the global pass only adds
    again = nka(pair.aux, pair.san, seeds, truth=t, method="louvain", enrich=bool(seed % 2))
    assert np.array_equal(again.mapping, m)  # deterministic


def test_clique_seeds_are_disjoint_cliques_with_their_truth():
    g = _planted(4, 30, 0.5, 0.02, seed=7)
    pair = secgraph_pair(g, 0.9, seed=7)
    t = pair.truth_array()
    cliques, seeds = clique_seeds(pair.aux, t, 5, seed=2)
    assert cliques.shape == (5, 4) and np.unique(cliques).size == 20
    for c in cliques:
        assert all(pair.aux.has_edge(int(u), int(v)) for u in c for v in c if u < v)
    assert (seeds[:, 1] == t[seeds[:, 0]]).all()


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "kw, err, word",
    [
        ({"theta": -1}, ConfigError, "theta"),
        ({"theta": float("nan")}, ConfigError, "theta"),
        ({"community_theta": "x"}, ConfigError, "community_theta"),
        ({"method": "girvan"}, ConfigError, "method"),
        ({"trials": 0}, ConfigError, "trials"),
        ({"communities": (np.zeros(3, int),)}, InputError, "communities"),
        ({"communities": (np.zeros(4, int), np.zeros(3, int))}, InputError, "G2"),
        ({"communities": (np.array([0, -1, 0, 0]), np.zeros(4, int))}, InputError, "≥ 0"),
        ({"communities": (np.zeros(4), np.zeros(4, int))}, InputError, "integer"),
    ],
)
def test_bad_parameters(kw, err, word):
    g = Graph.from_edges(4, [[0, 1], [1, 2], [2, 3]])
    with pytest.raises(err, match=word):
        nka(g, g, [[0, 0]], **kw)


def test_bad_seeds_and_cliques():
    g = Graph.from_edges(4, [[0, 1], [1, 2], [2, 3]])
    with pytest.raises(InputError, match="seed"):
        nka(g, g, np.zeros((0, 2), int))
    with pytest.raises(InputError, match="unknown"):
        nka(g, g, [[0, 9]])
    with pytest.raises(InputError, match="4-cliques"):
        clique_seeds(g, np.arange(4), 1)  # a path has no 4-clique
    with pytest.raises(ConfigError, match="n_cliques"):
        clique_seeds(g, np.arange(4), 0)
