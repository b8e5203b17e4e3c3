"""Vertex refinement H_i / H* and the H_1 posterior under perturbation (seed 002 §A.2.4,
§A.2.8): Hay et al.'s Fig. 2 classes, the karate-club buckets of §A.3.7, agreement with a
literal implementation of the definition, invariance under relabelling, automorphic nodes in
one H* class, the hash-collision fallback, the posterior against exhaustive enumeration of
the perturbation, and the errors."""

from __future__ import annotations

import itertools
import json

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.naive import naive_anonymize
from privlab.graph.anonymize.perturb import random_add_delete
from privlab.graph.attacks import refinement as R
from privlab.graph.attacks.refinement import (
    bucket_counts,
    class_sizes,
    equivalent_candidate_size,
    h1_posterior,
    perturbation_h1_risk,
    release_candidate_sizes,
    vertex_refinement,
)
from privlab.graph.core import Graph

# Hay et al. Fig. 1/2 (seed 002 §A.2.4, L208–221): 8 people, 11 edges
FIG2_NAMES = ["Alice", "Bob", "Carol", "Dave", "Ed", "Fred", "Greg", "Harry"]
FIG2_EDGES = [
    ("Alice", "Bob"), ("Carol", "Bob"), ("Bob", "Dave"), ("Bob", "Ed"), ("Dave", "Ed"),
    ("Dave", "Greg"), ("Dave", "Fred"), ("Ed", "Greg"), ("Ed", "Harry"), ("Greg", "Fred"),
    ("Greg", "Harry"),
]  # fmt: skip


def fig2() -> Graph:
    idx = {name: i for i, name in enumerate(FIG2_NAMES)}
    edges = [(idx[a], idx[b]) for a, b in FIG2_EDGES]
    return Graph.from_edges(8, edges, labels=FIG2_NAMES)


def classes(colors, names=FIG2_NAMES) -> set[frozenset[str]]:
    out: dict[int, set[str]] = {}
    for v, c in enumerate(np.asarray(colors).tolist()):
        out.setdefault(c, set()).add(names[v][0])
    return {frozenset(s) for s in out.values()}


def partition(colors) -> set[frozenset[int]]:
    out: dict[int, set[int]] = {}
    for v, c in enumerate(np.asarray(colors).tolist()):
        out.setdefault(c, set()).add(v)
    return {frozenset(s) for s in out.values()}


def literal_levels(graph: Graph) -> list[list]:
    """H_0, H_1, … by the definition itself (nested multisets as sorted tuples) to H*."""
    n = graph.n_nodes
    h = [() for _ in range(n)]  # H_0 = ε
    levels = [h]
    while True:
        h = [tuple(sorted(levels[-1][u] for u in graph.neighbors(v).tolist())) for v in range(n)]
        if len(set(h)) == len(set(levels[-1])):
            return levels
        levels.append(h)


def orbits(graph: Graph) -> list[set[int]]:
    """Automorphism orbits from igraph's (bliss) generators, by union–find."""
    parent = list(range(graph.n_nodes))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for perm in graph.to_igraph().automorphism_group():
        for v, w in enumerate(perm):
            parent[find(v)] = find(w)
    out: dict[int, set[int]] = {}
    for v in range(graph.n_nodes):
        out.setdefault(find(v), set()).add(v)
    return list(out.values())


@st.composite
def graphs(draw, max_n: int = 24):
    n = draw(st.integers(1, max_n))
    pairs = list(itertools.combinations(range(n), 2))
    kind = draw(st.sampled_from(["gnp", "tree", "regular"]))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    if kind == "gnp" or n < 4:
        p = draw(st.floats(0.0, 0.5))
        edges = [e for e in pairs if rng.random() < p]
    elif kind == "tree":
        edges = [(int(rng.integers(0, v)), v) for v in range(1, n)]
    else:
        d = draw(st.integers(1, 3))
        if n * d % 2:
            n += 1
        edges = list(nx.random_regular_graph(d, n, seed=seed).edges())
    return Graph.from_edges(n, np.array(edges, dtype=np.int64).reshape(-1, 2))


# ============================================================================ Fig. 2
def test_fig2_classes_match_the_paper():
    r = vertex_refinement(fig2())
    a, b, c, d, e, f, g, h = (frozenset(x) for x in "ABCDEFGH")
    assert classes(r.level(0)) == {a | b | c | d | e | f | g | h}
    assert classes(r.level(1)) == {a | c, b | d | e | g, f | h}
    assert classes(r.level(2)) == {a | c, b, d | e, g, f | h}
    assert r.stable_level == 2 and r.complete
    assert classes(r.level(None)) == classes(r.level(2)) == classes(r.level(7))
    # for this graph ≡_{H_2} = ≡_A, automorphic equivalence (L221)
    auto = {frozenset(FIG2_NAMES[v][0] for v in o) for o in orbits(fig2())}
    assert classes(r.level(None)) == auto
    # Bob and Ed: same degree, not automorphic (L202–207)
    assert r.level(1)[1] == r.level(1)[4] and r.level(2)[1] != r.level(2)[4]
    bob = r.candidate_set(1, 1)
    assert [FIG2_NAMES[v] for v in bob] == ["Bob", "Dave", "Ed", "Greg"]
    assert r.candidate_set(1).tolist() == [1]


def test_fig2_literal_values():
    """The table of Fig. 2(b): H_1 = degree, H_2 = multiset of neighbours' degrees."""
    lv = literal_levels(fig2())
    deg = {name: len(lv[1][i]) for i, name in enumerate(FIG2_NAMES)}
    assert deg == {"Alice": 1, "Bob": 4, "Carol": 1, "Dave": 4, "Ed": 4, "Fred": 2,
                   "Greg": 4, "Harry": 2}  # fmt: skip
    h2 = {name: sorted(len(x) for x in lv[2][i]) for i, name in enumerate(FIG2_NAMES)}
    assert h2["Bob"] == [1, 1, 4, 4] and h2["Dave"] == h2["Ed"] == [2, 4, 4, 4]
    assert h2["Greg"] == [2, 2, 4, 4] and h2["Fred"] == h2["Harry"] == [4, 4]


# ============================================================================ karate
def test_karate_buckets_seed_a37():
    g = Graph.from_networkx(nx.karate_club_graph())
    r = vertex_refinement(g)
    assert r.buckets(0).counts == (0, 0, 0, 0, 34)
    assert r.buckets(1).counts == (6, 5, 12, 11, 0)
    assert r.buckets(2).counts == (23, 6, 5, 0, 0)
    assert r.buckets(3).counts == r.buckets().counts == (23, 6, 5, 0, 0)
    assert r.stable_level == 2
    assert r.n_classes == (1, 11, 27)
    b = r.buckets(1)
    assert b.n == 34 and sum(b.fractions) == pytest.approx(1.0)
    d = json.loads(json.dumps(r.to_dict()))
    assert d["stable_level"] == 2 and d["buckets_star"]["counts"] == [23, 6, 5, 0, 0]
    # H_1 classes are the degree classes
    deg = g.degrees()
    assert partition(r.level(1)) == partition(np.unique(deg, return_inverse=True)[1])


def test_max_level_stops_and_knows_when_it_is_the_fixed_point():
    g = Graph.from_networkx(nx.karate_club_graph())
    r1 = vertex_refinement(g, max_level=1)
    assert not r1.complete and r1.stable_level is None and r1.levels_computed == 1
    assert r1.buckets(1).counts == (6, 5, 12, 11, 0)
    with pytest.raises(ConfigError, match="i = None"):
        r1.level(None)
    with pytest.raises(ConfigError, match="i = 2"):
        r1.level(2)
    r2 = vertex_refinement(g, max_level=2)
    assert r2.complete and r2.stable_level == 2  # the extra round found no split
    r0 = vertex_refinement(g, max_level=0)
    assert not r0.complete and r0.buckets(0).counts == (0, 0, 0, 0, 34)


def test_regular_empty_and_edgeless_graphs():
    ring = Graph.from_edges(6, [(i, (i + 1) % 6) for i in range(6)])
    r = vertex_refinement(ring)
    assert r.stable_level == 0 and r.candidate_sizes().tolist() == [6] * 6
    empty = Graph.from_edges(0, np.zeros((0, 2), dtype=np.int64))
    r = vertex_refinement(empty)
    assert r.complete and r.level().size == 0 and r.buckets().n == 0
    r = vertex_refinement(Graph.from_edges(3, np.zeros((0, 2), dtype=np.int64)))
    assert r.stable_level == 0 and r.buckets().counts == (0, 3, 0, 0, 0)


# ============================================================================ properties
@settings(max_examples=120, deadline=None)
@given(graphs())
def test_matches_the_literal_definition(g):
    lv = literal_levels(g)
    r = vertex_refinement(g)
    assert r.stable_level == len(lv) - 1
    for i in range(len(lv) + 2):
        expect = lv[min(i, len(lv) - 1)]
        ids = {h: k for k, h in enumerate(dict.fromkeys(expect))}
        assert partition(r.level(i)) == partition([ids[h] for h in expect])
        if i:  # H_i refines H_{i−1}
            prev = r.level(i - 1)
            cur = r.level(i)
            assert all(len({prev[v] for v in cls}) == 1 for cls in partition(cur))


@settings(max_examples=80, deadline=None)
@given(graphs(max_n=18))
def test_automorphic_nodes_share_an_hstar_class(g):
    star = vertex_refinement(g).level()
    for orbit in orbits(g):
        assert len({int(star[v]) for v in orbit}) == 1


@settings(max_examples=60, deadline=None)
@given(graphs(), st.integers(0, 2**31 - 1))
def test_class_ids_are_isomorphism_invariant(g, seed):
    perm = np.random.default_rng(seed).permutation(g.n_nodes)
    g2 = Graph.from_edges(g.n_nodes, perm[g.edges()])
    r, r2 = vertex_refinement(g), vertex_refinement(g2)
    assert r.stable_level == r2.stable_level
    for i in range(r.stable_level + 1):
        assert np.array_equal(r2.level(i)[perm], r.level(i))


def test_hash_collisions_fall_back_to_exact_grouping(monkeypatch):
    """With a hash that collides on everything, every verified round must regroup exactly."""
    monkeypatch.setattr(R, "_color_hash", lambda c: np.zeros(c.shape, dtype=np.uint64))
    rng = np.random.default_rng(5)
    for _ in range(20):
        g = Graph.from_networkx(nx.gnm_random_graph(30, 45, seed=int(rng.integers(1 << 30))))
        r = vertex_refinement(g)
        lv = literal_levels(g)
        assert r.stable_level == len(lv) - 1
        for i, expect in enumerate(lv):
            ids = {h: k for k, h in enumerate(dict.fromkeys(expect))}
            assert partition(r.level(i)) == partition([ids[h] for h in expect])
    assert r.hash_fallbacks > 0


def test_long_path_needs_n_over_2_rounds():
    n = 401
    g = Graph.from_edges(n, np.column_stack([np.arange(n - 1), np.arange(1, n)]))
    r = vertex_refinement(g)
    assert r.stable_level == n // 2
    assert r.buckets().counts == (1, n - 1, 0, 0, 0)  # the middle node alone, mirror pairs
    # each node moves O(log n) times: the stored changes stay small
    assert sum(nodes.size for nodes, _ in r.moves) <= n * int(np.log2(n) + 1)


# ============================================================================ buckets
def test_bucket_boundaries():
    b = bucket_counts(np.array([1, 2, 4, 5, 10, 11, 20, 21, 1000]))
    assert b.counts == (1, 2, 2, 2, 2) and b.n == 9 and str(b) == "1/2/2/2/2"
    assert class_sizes(np.array([3, 3, 0, 3])).tolist() == [3, 3, 1, 3]
    with pytest.raises(InputError, match="sizes"):
        bucket_counts([0, 1])


# ============================================================================ perturbation
def _enumerate_posterior(g: Graph, m: int) -> np.ndarray:
    """P[y, d] = Pr(deg_g(y) = d) over every (E⁺ ⊆ E_p, E⁻ ⊆ non-edges of E_p ∖ E⁺)."""
    n = g.n_nodes
    ep = [tuple(e) for e in g.edges().tolist()]
    pairs = list(itertools.combinations(range(n), 2))
    counts = np.zeros((n, n))
    for plus in itertools.combinations(ep, m):
        interim = set(ep) - set(plus)
        non = [p for p in pairs if p not in interim]
        for minus in itertools.combinations(non, m):
            d = np.zeros(n, dtype=np.int64)
            for u, v in interim | set(minus):
                d[u] += 1
                d[v] += 1
            counts[np.arange(n), d] += 1
    return counts / counts.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("m", [1, 2])
def test_posterior_equals_exhaustive_enumeration(m):
    g = Graph.from_networkx(nx.gnm_random_graph(6, 7, seed=3))
    p = _enumerate_posterior(g, m)
    for delta in range(g.n_nodes):
        if p[:, delta].sum() == 0:
            with pytest.raises(InputError, match="degree"):
                h1_posterior(g, delta, m)
            continue
        got = h1_posterior(g, delta, m)
        assert got.sum() == pytest.approx(1.0)
        assert np.allclose(got, p[:, delta] / p[:, delta].sum())


def test_posterior_sums_to_one_and_reduces_to_h1_at_m0():
    g = Graph.from_networkx(nx.karate_club_graph())
    sizes = vertex_refinement(g, max_level=1).candidate_sizes(1)
    deg = g.degrees()
    for x in range(g.n_nodes):
        p = h1_posterior(g, int(deg[x]), 0)
        assert p.sum() == pytest.approx(1.0)
        assert np.allclose(p[deg == deg[x]], 1.0 / sizes[x]) and p[deg != deg[x]].sum() == 0
        assert equivalent_candidate_size(p) == sizes[x]
    for model in ("process", "no-reinsertion"):
        for m in (1, 8, 40):
            for d in (1, 5, 17):
                p = h1_posterior(g, d, m, model=model)
                assert p.sum() == pytest.approx(1.0) and (p >= 0).all()
    risk = perturbation_h1_risk(g, g, 0)
    assert np.array_equal(risk.sizes, sizes) and risk.buckets.counts == (6, 5, 12, 11, 0)


def test_models_agree_when_reinsertion_is_negligible():
    g = Graph.from_networkx(nx.les_miserables_graph())
    for d in (1, 4, 10):
        a = h1_posterior(g, d, 10)
        b = h1_posterior(g, d, 10, model="no-reinsertion")
        assert np.abs(a - b).max() < 1e-3


def test_perturbation_raises_the_equivalent_candidate_size():
    """Fig. 8's trend on karate: the uniquely identified share falls as m grows."""
    g = Graph.from_networkx(nx.karate_club_graph())
    unique = []
    for frac in (0.0, 0.05, 0.1, 0.3):
        pert = random_add_delete(g, frac, seed=1)
        m = pert.parameters["m"]
        risk = perturbation_h1_risk(g, pert.graph, m)
        assert (risk.sizes >= 1).all() and risk.sizes.size == 34
        assert np.all((risk.top_probability > 0) & (risk.top_probability <= 1))
        unique.append(risk.buckets.counts[0])
        json.dumps(risk.to_dict())
    assert unique[0] == 6 and unique[-1] < unique[0]
    # the per-target top probability agrees with h1_posterior
    pert = random_add_delete(g, 0.1, seed=2)
    m = pert.parameters["m"]
    risk = perturbation_h1_risk(g, pert.graph, m, targets=[0, 5])
    for j, x in enumerate([0, 5]):
        p = h1_posterior(pert.graph, int(g.degrees()[x]), m)
        assert risk.top_probability[j] == pytest.approx(p.max())
        assert risk.sizes[j] == equivalent_candidate_size(p)


# ============================================================================ real data
def test_facebook_and_grqc_buckets(facebook_graph, grqc_graph):
    r = vertex_refinement(facebook_graph)
    assert r.stable_level == 3
    assert r.buckets(1).counts == (30, 177, 408, 434, 2990)
    assert r.buckets().counts == (3785, 160, 56, 38, 0)
    r = vertex_refinement(grqc_graph)
    assert r.stable_level == 5 and r.buckets(1).counts == (18, 38, 59, 98, 5029)
    assert r.buckets().counts == (2751, 1339, 190, 157, 805)


# ============================================================================ errors
def test_bad_input():
    g = Graph.from_networkx(nx.karate_club_graph())
    r = vertex_refinement(g)
    with pytest.raises(ConfigError, match="i = -1"):
        r.level(-1)
    with pytest.raises(ConfigError, match="i = -2"):
        r.buckets(-2)
    with pytest.raises(ConfigError, match="max_level"):
        vertex_refinement(g, max_level=-1)
    with pytest.raises(InputError, match="node = 34"):
        r.candidate_set(34)
    with pytest.raises(InputError, match="node = -1"):
        r.candidate_set(-1)
    with pytest.raises(InputError, match="directed"):
        vertex_refinement(Graph.from_edges(2, [(0, 1)], directed=True))
    with pytest.raises(ConfigError, match="m = -1"):
        h1_posterior(g, 3, -1)
    with pytest.raises(ConfigError, match="m = 79"):
        h1_posterior(g, 3, 79)
    with pytest.raises(InputError, match="degree = 34"):
        h1_posterior(g, 34, 1)
    with pytest.raises(ConfigError, match="model"):
        h1_posterior(g, 3, 1, model="exact")
    with pytest.raises(InputError, match="targets"):
        perturbation_h1_risk(g, g, 1, targets=[34])
    with pytest.raises(InputError, match="released"):
        perturbation_h1_risk(g, fig2(), 1)
    with pytest.raises(InputError, match="posterior"):
        equivalent_candidate_size([0.0])


def test_release_candidate_sizes_match_the_definition():
    """cand(x) = release nodes whose H_i equals x's H_i in the original (brute force)."""
    rng = np.random.default_rng(4)
    g = Graph.from_networkx(nx.gnm_random_graph(40, 70, seed=3))
    naive = naive_anonymize(g, seed=1).graph
    for i in (1, 2, None):  # a relabelling leaves the class sizes unchanged
        got = release_candidate_sizes(g, naive, (i,))[i]
        np.testing.assert_array_equal(got, vertex_refinement(g).candidate_sizes(i))
    pert = random_add_delete(g, 0.2, seed=rng).graph

    def two_levels(graph: Graph) -> list[list]:  # H_0, H_1, H_2 by the definition
        levels = [[() for _ in range(graph.n_nodes)]]
        for _ in range(2):
            prev = levels[-1]
            levels.append([tuple(sorted(prev[u] for u in graph.neighbors(v).tolist()))
                           for v in range(graph.n_nodes)])  # fmt: skip
        return levels

    lo, lr = two_levels(g), two_levels(pert)
    sizes = release_candidate_sizes(g, pert, (1, 2))
    for i in (1, 2):
        want = [sum(lr[i][y] == lo[i][x] for y in range(pert.n_nodes)) for x in range(g.n_nodes)]
        np.testing.assert_array_equal(sizes[i], want)
    assert (sizes[2] == 0).any()  # the perturbation changed some targets beyond recognition
