"""Subgraph knowledge (edge facts, seed 002 §A.2.5): the breadth-first knowledge on small
graphs, Hay et al.'s Bob example, the Hall matcher against backtracking and against brute
force, the true node and its H* class always among the candidates, candidate sets shrinking
as facts grow, ca-GrQc, and the errors."""

from __future__ import annotations

import itertools
import json

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.refinement import vertex_refinement
from privlab.graph.attacks.subgraph import (
    EdgeFacts,
    SubgraphMatcher,
    gather_edge_facts,
    subgraph_candidates,
    subgraph_knowledge_experiment,
)
from privlab.graph.core import Graph

FIG2_NAMES = ["Alice", "Bob", "Carol", "Dave", "Ed", "Fred", "Greg", "Harry"]
FIG2_EDGES = [(0, 1), (2, 1), (1, 3), (1, 4), (3, 4), (3, 6), (3, 5), (4, 6), (4, 7), (6, 5),
              (6, 7)]  # fmt: skip


def path(n: int) -> Graph:
    return Graph.from_edges(n, np.column_stack([np.arange(n - 1), np.arange(1, n)]))


def brute_force(g: Graph, f: EdgeFacts) -> np.ndarray:
    """Every map of the pattern nodes to graph nodes, checked against the definition."""
    kids = f.children()
    k = f.parent.size
    deg = g.degrees()
    out = np.zeros(g.n_nodes, dtype=bool)
    for phi in itertools.product(range(g.n_nodes), repeat=k):
        if out[phi[0]]:
            continue
        ok = all(
            (deg[phi[t]] == f.degree[t]) if f.exact[t] else (deg[phi[t]] >= f.degree[t])
            for t in range(k)
        )
        for t in range(1, k):
            ok = ok and g.has_edge(phi[f.parent[t]], phi[t])
        for t in range(k):  # children distinct, and distinct from t's parent's image
            near = [phi[c] for c in kids[t]] + ([phi[f.parent[t]]] if f.parent[t] >= 0 else [])
            ok = ok and len(set(near)) == len(near)
        if ok:
            out[phi[0]] = True
    return out


@st.composite
def graphs(draw, max_n: int = 14):
    n = draw(st.integers(2, max_n))
    p = draw(st.floats(0.05, 0.6))
    seed = draw(st.integers(0, 2**31 - 1))
    return Graph.from_networkx(nx.gnp_random_graph(n, p, seed=seed))


# ============================================================================ knowledge
def test_breadth_first_knowledge_on_a_path():
    g = path(4)  # 0 - 1 - 2 - 3
    f = gather_edge_facts(g, 0, 0)
    assert f.n_facts == 0 and not f.exact[0] and f.degree.tolist() == [0]
    f = gather_edge_facts(g, 0, 1)
    assert f.parent.tolist() == [-1, 0] and f.node.tolist() == [0, 1]
    assert f.exact.tolist() == [True, False] and f.degree.tolist() == [1, 1]
    f = gather_edge_facts(g, 0, 2)
    assert f.node.tolist() == [0, 1, 2] and f.exact.tolist() == [True, True, False]
    assert f.degree.tolist() == [1, 2, 1]
    assert subgraph_candidates(g, f).tolist() == [0, 3]
    # the whole path: leaf 3 is exact for free (nothing left to reveal), 3 facts suffice
    f = gather_edge_facts(g, 0, 10)
    assert f.n_facts == 3 and f.requested == 10 and f.exact.all()
    assert f.degree.tolist() == [1, 2, 2, 1]
    json.dumps(f.to_dict())
    # without exact degrees only lower bounds remain
    f = gather_edge_facts(g, 0, 10, exact_degrees=False)
    assert not f.exact.any() and f.degree.tolist() == [1, 2, 2, 1]
    assert subgraph_candidates(g, f).tolist() == [0, 3]
    # tree version: a triangle unfolds into a path of new pattern nodes
    tri = Graph.from_edges(3, [(0, 1), (1, 2), (0, 2)])
    f = gather_edge_facts(tri, 0, 5)
    assert f.n_facts == 5 and f.node[0] == 0 and sorted(f.node[1:3].tolist()) == [1, 2]
    assert f.parent.tolist() == [-1, 0, 0, 1, 2, 3]
    assert subgraph_candidates(tri, f).tolist() == [0, 1, 2]


def test_isolated_target_is_exact_at_zero_facts():
    g = Graph.from_edges(4, [(0, 1), (1, 2)])
    f = gather_edge_facts(g, 3, 0)
    assert f.exact.tolist() == [True] and f.degree.tolist() == [0]
    assert subgraph_candidates(g, f).tolist() == [3]
    assert subgraph_candidates(g, gather_edge_facts(g, 0, 0)).tolist() == [0, 1, 2, 3]


def test_hay_bob_example():
    """Three edge facts: Bob has ≥ 3 neighbours; four: exactly 4 (L306–334)."""
    g = Graph.from_edges(8, FIG2_EDGES, labels=FIG2_NAMES)
    f3 = gather_edge_facts(g, 1, 3)
    assert f3.degree[0] == 3 and not f3.exact[0]
    f4 = gather_edge_facts(g, 1, 4)
    assert f4.degree[0] == 4 and f4.exact[0]
    for f in (f3, f4):
        assert [FIG2_NAMES[v] for v in subgraph_candidates(g, f)] == ["Bob", "Dave", "Ed", "Greg"]
    # exploring on: Bob's neighbours' degrees single him out, as H_2 does
    sizes = [subgraph_candidates(g, gather_edge_facts(g, 1, b)).size for b in range(12)]
    assert sizes[0] == 8 and sizes[-1] == 1 and all(a >= b for a, b in itertools.pairwise(sizes))


# ============================================================================ matching
@settings(max_examples=80, deadline=None)
@given(graphs(max_n=7), st.integers(0, 4), st.booleans(), st.integers(0, 1000))
def test_hall_equals_backtracking_equals_brute_force(g, b, exact, seed):
    m = SubgraphMatcher(g)
    for x in range(g.n_nodes):
        f = gather_edge_facts(g, x, b, exact_degrees=exact, seed=seed)
        hall = m.candidate_mask(f)
        assert np.array_equal(hall, m.candidate_mask(f, method="backtrack"))
        assert np.array_equal(hall, brute_force(g, f))


@settings(max_examples=80, deadline=None)
@given(graphs(), st.integers(0, 1000))
def test_true_node_and_its_hstar_class_are_candidates_and_sets_shrink(g, seed):
    star = vertex_refinement(g).level()
    deg = g.degrees()
    m = SubgraphMatcher(g)
    for exact in (True, False):
        res = subgraph_knowledge_experiment(g, 9, exact_degrees=exact, seed=seed, matcher=m)
        assert (np.diff(res.sizes, axis=1) <= 0).all()  # weakly shrinking
        for x in range(g.n_nodes):
            prev = np.ones(g.n_nodes, dtype=bool)
            for b in range(10):
                f = gather_edge_facts(g, x, b, exact_degrees=exact, seed=seed)
                mask = m.candidate_mask(f)
                assert mask[x]
                assert mask[star == star[x]].all()  # H*-equivalent nodes cannot be told apart
                assert not (mask & ~prev).any()  # nested
                assert mask.sum() == res.sizes[x, b]
                prev = mask
                if exact:  # exact degrees only ever remove candidates
                    f_loose = gather_edge_facts(g, x, b, exact_degrees=False, seed=seed)
                    loose = m.candidate_mask(f_loose)
                    assert not (mask & ~loose).any()
            # deg(x) facts reveal the whole neighbourhood: the H_1 class, or a subset of it
            if exact and deg[x] > 0:
                f = gather_edge_facts(g, x, int(deg[x]), seed=seed)
                cand = m.candidates(f)
                assert set(cand.tolist()) <= set(np.flatnonzero(deg == deg[x]).tolist())
                if (deg[g.neighbors(x)] >= 2).all():
                    assert cand.tolist() == np.flatnonzero(deg == deg[x]).tolist()


def test_experiment_result_on_karate():
    g = Graph.from_networkx(nx.karate_club_graph())
    res = subgraph_knowledge_experiment(g, 10)
    assert res.sizes.shape == (34, 11) and res.max_facts == 10
    assert (res.sizes[:, 0] == 34).all()
    assert res.buckets(0).counts == (0, 0, 0, 0, 34)
    for b in range(11):
        assert sum(res.buckets(b).counts) == 34
    d = json.loads(json.dumps(res.to_dict()))
    assert d["n_targets"] == 34 and len(d["buckets"]) == 11
    # a target's knowledge does not depend on the other targets
    part = subgraph_knowledge_experiment(g, 10, targets=[5, 33])
    assert np.array_equal(part.sizes, res.sizes[[5, 33]])
    bt = subgraph_knowledge_experiment(g, 10, targets=[0, 11, 33], method="backtrack")
    assert np.array_equal(bt.sizes, res.sizes[[0, 11, 33]])
    # without exact degrees the candidate sets are never smaller (Fig. 7)
    loose = subgraph_knowledge_experiment(g, 10, exact_degrees=False)
    assert (loose.sizes >= res.sizes).all()


def test_grqc_sample_at_ten_facts(grqc_graph):
    g = grqc_graph
    m = SubgraphMatcher(g)
    star = vertex_refinement(g).level()
    targets = np.random.default_rng(0).choice(g.n_nodes, 60, replace=False)
    for x in targets.tolist():
        f = gather_edge_facts(g, x, 10)
        mask = m.candidate_mask(f)
        assert mask[x] and mask[star == star[x]].all()
        if mask.sum() <= 300:  # keep the reference cheap
            assert np.array_equal(mask, m.candidate_mask(f, method="backtrack"))
    res = subgraph_knowledge_experiment(g, 10, targets=targets, matcher=m)
    assert (np.diff(res.sizes, axis=1) <= 0).all()


# ============================================================================ errors
def test_bad_input():
    g = Graph.from_networkx(nx.karate_club_graph())
    with pytest.raises(InputError, match="target = 34"):
        gather_edge_facts(g, 34, 3)
    with pytest.raises(InputError, match="target = -1"):
        gather_edge_facts(g, -1, 3)
    with pytest.raises(ConfigError, match="n_facts = -1"):
        gather_edge_facts(g, 0, -1)
    with pytest.raises(ConfigError, match="max_facts = -2"):
        subgraph_knowledge_experiment(g, -2)
    with pytest.raises(ConfigError, match="seed"):
        gather_edge_facts(g, 0, 3, seed=-5)
    with pytest.raises(InputError, match="targets"):
        subgraph_knowledge_experiment(g, 3, targets=[0, 40])
    with pytest.raises(ConfigError, match="method"):
        subgraph_candidates(g, gather_edge_facts(g, 0, 3), method="vf2")
    with pytest.raises(ConfigError, match="b = 11"):
        subgraph_knowledge_experiment(g, 10, targets=[0]).buckets(11)
    with pytest.raises(InputError, match="directed"):
        gather_edge_facts(Graph.from_edges(2, [(0, 1)], directed=True), 0, 1)
