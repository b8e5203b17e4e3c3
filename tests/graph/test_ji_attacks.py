"""JLS+ and JLSB (Ji et al.): hand-checked similarities, recovery of a relabelled graph,
the invariants (one-to-one, seeds kept, every node of the smaller graph matched), errors."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.ji import (
    JLS_VARIANTS,
    ORDERS,
    _Inherited,
    _neighbour_degrees,
    _structure,
    jls,
    jlsb,
)
from privlab.graph.attacks.seeded import by_degree
from privlab.graph.core import Graph
from tests.graph.test_propagation import relabelled


def graph(n: int, edges: list[tuple[int, int]]) -> Graph:
    return Graph.from_edges(n, np.array(edges, dtype=np.int64).reshape(-1, 2))


# 0 - 1 - 2 - 3 and 0 - 2: node 2 has neighbours 0, 1, 3
DIAMOND = graph(4, [(0, 1), (0, 2), (1, 2), (2, 3)])
PATH = graph(9, [(i, i + 1) for i in range(8)])


# ============================================================================ by hand
def test_inherited_similarity_by_hand():
    map12 = np.array([0, 1, -1, -1])
    inh = _Inherited(DIAMOND, DIAMOND, map12, np.array([[0, 0]]))
    inh.record(np.array([1]), np.array([1]), np.array([0.5]))
    s = inh.similarity(np.array([2, 3]), np.array([2, 3]))
    # (2, 2): matched neighbour pairs (0, 0) score 1 and (1, 1) score 0.5, two matched
    # neighbours on each side, equal degrees: 1.5 / 2 · 1
    assert s[0, 0] == pytest.approx(0.75)
    # (2, 3): 3's only neighbour in G2 is 2, unmatched: nothing inherited; (3, ·) likewise
    assert s[0, 1] == 0 and s[1, 0] == 0 and s[1, 1] == 0


def test_inherited_similarity_degree_agreement_by_hand():
    # G2: node 2 also ~ node 4, so d(2) = 4 there; agreement 1 − |3 − 4| / 4 = 0.75
    g2 = graph(5, [(0, 1), (0, 2), (1, 2), (2, 3), (2, 4)])
    inh = _Inherited(DIAMOND, g2, np.array([0, -1, -1, -1]), np.array([[0, 0]]))
    assert inh.similarity(np.array([2]), np.array([2]))[0, 0] == pytest.approx(1 / 1 * 0.75)


def test_neighbour_degrees_and_structure_by_hand():
    nd = _neighbour_degrees(DIAMOND, 4)
    assert nd.tolist() == [[3, 2, 0, 0], [3, 2, 0, 0], [2, 2, 1, 0], [3, 0, 0, 0]]
    assert _neighbour_degrees(DIAMOND, 1)[:, 0].tolist() == [3, 3, 2, 3]
    given = np.array([[1.0, 0.0], [0.5, 2.0], [0.25, 4.0], [0.0, 0.0]])
    f = _structure(DIAMOND, given, "G1")
    # each column over its maximum: closeness / 1, betweenness / 4, degree / 3
    want = [[1, 0, 2 / 3], [0.5, 0.5, 2 / 3], [0.25, 1, 1], [0, 0, 1 / 3]]
    np.testing.assert_allclose(f, want)


def test_structure_computed_with_igraph_matches_networkx():
    g = Graph.from_networkx(nx.karate_club_graph())
    f = _structure(g, None, "G1")
    nxg = g.to_networkx()
    clo = np.array([nx.closeness_centrality(nxg)[i] for i in range(g.n_nodes)])
    btw = np.array([nx.betweenness_centrality(nxg, normalized=False)[i] for i in range(34)])
    assert f[:, 0] == pytest.approx(clo / clo.max())
    assert f[:, 1] == pytest.approx(btw / btw.max())


# ============================================================================ recovery
@pytest.mark.parametrize("variant", JLS_VARIANTS)
def test_jls_recovers_a_relabelled_path(variant):
    # seeds at both ends make every node's distance vector (i, 8 − i) point its own way;
    # a block holds all 7 free nodes, so each node's partner is always in its block
    g2, truth = relabelled(PATH, seed=4)
    seeds = np.array([[0, truth[0]], [8, truth[8]]])
    res = jls(PATH, g2, seeds, variant=variant, block=7, keep=2, truth=truth)
    assert res.mapping.tolist() == truth.tolist()
    assert (res.correct, res.new_correct, res.wrong) == (9, 7, 0)


def test_jlsb_recovers_a_relabelled_path_from_seeds():
    g2, truth = relabelled(PATH, seed=5)
    res = jlsb(PATH, g2, np.array([[0, truth[0]], [8, truth[8]]]), block=7, keep=1,
               truth=truth)  # fmt: skip
    assert res.mapping.tolist() == truth.tolist() and res.accuracy == 1.0


# 0 is a hub of leaves 2 and 3 and of 4, which has the leaf 1: degrees 3, 1, 1, 1, 2.  Sums
# of the neighbours' degrees: leaf 1 → 2, leaves 2 and 3 → 3.  G2 is it with ids 0..4 → P.
BROOM = graph(5, [(0, 2), (0, 3), (0, 4), (4, 1)])
P = np.array([3, 4, 0, 1, 2])  # G2: hub 3, 2 of degree 2 with the leaf 4, leaves 0 and 1
BROOM2 = graph(5, [(3, 0), (3, 1), (3, 2), (2, 4)])


def test_queue_orders_by_hand():
    every = np.ones(5, dtype=bool)
    key1 = _neighbour_degrees(BROOM, 10).sum(axis=1)
    assert key1.tolist() == [4, 2, 3, 3, 4]
    assert by_degree(BROOM, every).tolist() == [0, 4, 1, 2, 3]  # equal degrees by id
    assert by_degree(BROOM, every, key1).tolist() == [0, 4, 2, 3, 1]  # leaf 1 (sum 2) last
    key2 = _neighbour_degrees(BROOM2, 10).sum(axis=1)
    assert by_degree(BROOM2, every).tolist() == [3, 2, 0, 1, 4]
    assert by_degree(BROOM2, every, key2).tolist() == [3, 2, 0, 1, 4]
    assert by_degree(BROOM, every != every, key1).size == 0


def test_jlsb_block_one_matches_the_queues_in_order():
    # block 1: every block matches the heads of the two queues, whatever the similarity.
    # structure: [0, 4, 2, 3, 1] against [3, 2, 0, 1, 4], all five true (2, 3 are twins).
    # id: [0, 4, 1, 2, 3] against [3, 2, 0, 1, 4]: the leaves 1, 2, 3 all wrong.
    s = jlsb(BROOM, BROOM2, None, block=1, keep=1, truth=P)
    assert s.mapping.tolist() == P.tolist() and s.correct == 5
    i = jlsb(BROOM, BROOM2, None, block=1, keep=1, truth=P, order="id")
    assert i.mapping.tolist() == [3, 0, 1, 4, 2] and i.correct == 2
    assert s.parameters["order"] == "structure" and i.parameters["order"] == "id"


def test_secgraph_variant_has_no_inherited_term():
    g1 = Graph.from_networkx(nx.powerlaw_cluster_graph(60, 3, 0.2, seed=2))
    g2, truth = relabelled(g1, seed=2)
    seeds = np.column_stack([np.arange(5), truth[:5]])
    a = jls(g1, g2, seeds, variant="secgraph", block=10, keep=3)
    b = jls(g1, g2, seeds, variant="isc", inherit_weight=0.0, block=10, keep=3)
    c = jls(g1, g2, seeds, variant="isc", block=10, keep=3)
    assert a.mapping.tolist() == b.mapping.tolist()
    assert c.parameters["inherit_weight"] == 0.1 and c.method == "jls+"


# ============================================================================ invariants
@st.composite
def pairs(draw):
    """(g1, g2, truth, seeds): g2 a relabelled copy of g1 with nodes and edges removed."""
    n = draw(st.integers(3, 30))
    rng = np.random.default_rng(draw(st.integers(0, 10**6)))
    g1 = Graph.from_networkx(nx.gnp_random_graph(n, draw(st.floats(0.05, 0.5)),
                                                 seed=int(rng.integers(1 << 30))))  # fmt: skip
    keep_node = rng.random(n) < draw(st.floats(0.5, 1.0))
    keep_node[:2] = True
    new_id = np.full(n, -1)
    new_id[keep_node] = rng.permutation(int(keep_node.sum()))
    e = g1.edges()
    e = e[keep_node[e[:, 0]] & keep_node[e[:, 1]] & (rng.random(len(e)) < 0.8)]
    g2 = Graph.from_edges(int(keep_node.sum()), new_id[e])
    common = np.flatnonzero(keep_node)
    k = draw(st.integers(1, common.size))
    s = rng.choice(common, size=k, replace=False)
    return g1, g2, new_id, np.column_stack([s, new_id[s]])


def check_invariants(res, g1, g2, truth, seeds):
    m = res.mapping
    assert m.size == g1.n_nodes
    got = m[m >= 0]
    assert np.unique(got).size == got.size  # one-to-one
    assert (m[seeds[:, 0]] == seeds[:, 1]).all()  # seeds kept
    assert res.mapped == min(g1.n_nodes, g2.n_nodes)  # every node of the smaller side
    assert res.correct == int(((m >= 0) & (m == truth)).sum())
    assert res.wrong == res.mapped - res.correct


@settings(max_examples=25, deadline=None)
@given(pairs(), st.sampled_from(JLS_VARIANTS), st.integers(1, 8), st.data())
def test_jls_invariants(p, variant, block, data):
    g1, g2, truth, seeds = p
    keep = data.draw(st.integers(1, block))
    mode = data.draw(st.sampled_from(["queue", "stack"]))
    res = jls(g1, g2, seeds, variant=variant, block=block, keep=keep, mode=mode, truth=truth)
    check_invariants(res, g1, g2, truth, seeds)


@settings(max_examples=25, deadline=None)
@given(pairs(), st.booleans(), st.integers(1, 8), st.integers(1, 5), st.sampled_from(ORDERS))
def test_jlsb_invariants(p, seeded, block, landmarks, order):
    g1, g2, truth, seeds = p
    s = seeds if seeded else None
    res = jlsb(g1, g2, s, block=block, keep=max(1, block // 2), landmarks=landmarks,
               order=order, truth=truth)  # fmt: skip
    check_invariants(res, g1, g2, truth, seeds[:0] if s is None else seeds)
    assert res.parameters["seedless"] is (not seeded)
    if not seeded:
        assert res.parameters["landmarks"] <= landmarks


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(pairs(), st.integers(0, 10**6), st.integers(1, 6), st.booleans())
def test_jlsb_structure_order_does_not_see_g2_ids(p, seed, block, seeded):
    # When no two nodes of G2 share degree and neighbour-degree sum, --order structure never
    # looks at G2's ids: relabelling G2 by q relabels the mapping by q, nothing else.
    g1, g2, _, seeds = p
    key = _neighbour_degrees(g2, 10).sum(axis=1)
    assume(len(set(zip(g2.degrees().tolist(), key.tolist(), strict=True))) == g2.n_nodes)
    q = np.random.default_rng(seed).permutation(g2.n_nodes)
    g3 = Graph.from_edges(g2.n_nodes, q[g2.edges()])
    s2, s3 = (seeds, np.column_stack([seeds[:, 0], q[seeds[:, 1]]])) if seeded else (None, None)
    a = jlsb(g1, g2, s2, block=block, keep=max(1, block // 2))
    b = jlsb(g1, g3, s3, block=block, keep=max(1, block // 2))
    m = a.mapping
    assert b.mapping.tolist() == np.where(m >= 0, q[np.maximum(m, 0)], -1).tolist()


def test_isolated_nodes_and_components_are_matched_too():
    g1 = graph(7, [(0, 1), (1, 2), (4, 5)])  # 3 and 6 isolated, {4, 5} another component
    g2, truth = relabelled(g1, seed=1)
    for variant in JLS_VARIANTS:
        res = jls(g1, g2, np.array([[0, truth[0]]]), variant=variant, block=3, keep=1)
        assert res.mapped == 7
    assert jlsb(g1, g2, None, block=3, keep=1).mapped == 7


# ============================================================================ bad input
@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"block": 2, "keep": 3}, ConfigError, "keep = 3"),
        ({"block": 0}, ConfigError, "block"),
        ({"variant": "ada"}, ConfigError, "variant"),
        ({"mode": "heap"}, ConfigError, "mode"),
        ({"distance_weight": -1}, ConfigError, "distance_weight"),
        ({"distance_weight": 0, "structure_weight": 0, "inherit_weight": 0}, ConfigError,
         "all 0"),
        ({"centrality": (np.zeros((3, 2)), np.zeros((4, 2)))}, InputError, "shape (3, 2)"),
        ({"centrality": (-np.ones((4, 2)), np.zeros((4, 2)))}, InputError, "negative"),
    ],
)  # fmt: skip
def test_jls_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        jls(DIAMOND, DIAMOND, [[0, 0]], **kwargs)


def test_seed_errors():
    with pytest.raises(InputError, match="needs at least one seed"):
        jls(DIAMOND, DIAMOND, None)
    with pytest.raises(InputError, match="unknown in G2"):
        jls(DIAMOND, DIAMOND, [[0, 9]])
    with pytest.raises(InputError, match="more than one seed pair"):
        jlsb(DIAMOND, DIAMOND, [[0, 1], [1, 1]])
    with pytest.raises(ConfigError, match="landmarks"):
        jlsb(DIAMOND, DIAMOND, None, landmarks=0)
    with pytest.raises(ConfigError, match="neighbours"):
        jlsb(DIAMOND, DIAMOND, None, neighbours=0)
    with pytest.raises(ConfigError, match="order"):
        jlsb(DIAMOND, DIAMOND, None, order="degree")
