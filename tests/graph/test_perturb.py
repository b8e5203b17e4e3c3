"""Random edge perturbation (RSP, RAD, RSW, REP, random insertion): invariants on random
graphs, exact counts, uniformity of the samplers (chi-square), errors, ego-Facebook."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.errors import ConfigError, InfeasibleError, InputError, PrivlabError
from privlab.graph.anonymize import perturb as P
from privlab.graph.anonymize.perturb import (
    random_add_delete,
    random_edge_perturbation,
    random_insertion,
    random_sparsification,
    random_switch,
)
from privlab.graph.core import Graph
from privlab.io.edgelist import simplify_edges

SCHEMES = [
    random_sparsification,
    random_add_delete,
    random_switch,
    random_edge_perturbation,
    random_insertion,
]
P_VALUE = 1e-3  # fixed seeds: each statistical test is deterministic


# ---------------------------------------------------------------------------- helpers
def ids(g: Graph) -> np.ndarray:
    return P._pair_index(g.edges(), g.n_nodes)


def edge_set(g: Graph) -> set[tuple[int, int]]:
    return set(map(tuple, g.edges().tolist()))


def assert_simple_csr(g: Graph) -> None:
    """Undirected, no self-loops, no repeated neighbour, symmetric, and exactly the CSR
    Graph.from_edges would build (the scheme's direct CSR builder is checked against it)."""
    n = g.n_nodes
    rows = np.repeat(np.arange(n), g.degrees())
    assert not g.directed
    assert not np.any(rows == g.indices)
    inside = rows[1:] == rows[:-1]
    assert np.all(np.diff(g.indices)[inside] > 0)
    fwd, back = np.sort(rows * n + g.indices), np.sort(g.indices * n + rows)
    assert np.array_equal(fwd, back)
    ref = Graph.from_edges(n, g.edges())
    assert np.array_equal(ref.indptr, g.indptr) and np.array_equal(ref.indices, g.indices)


@st.composite
def graphs(draw, max_nodes: int = 20, max_edges: int = 70) -> Graph:
    n = draw(st.integers(1, max_nodes))
    pairs = draw(
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=max_edges)
    )
    e = simplify_edges(np.array(pairs, dtype=np.int64).reshape(-1, 2), directed=False).edges
    return Graph.from_edges(n, e)


def hexagon_with_chord() -> Graph:
    return Graph.from_edges(6, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (0, 5), (0, 3)])


def ten_edges_on_seven() -> Graph:
    e = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (0, 6), (0, 3), (1, 5), (2, 6)]
    return Graph.from_edges(7, e)


def chi_square_uniform(counts: list[int] | np.ndarray) -> float:
    return float(stats.chisquare(np.asarray(counts, dtype=float)).pvalue)


# ---------------------------------------------------------------------------- pair ids
def test_pair_ids_enumerate_pairs_row_by_row():
    for n in range(0, 41):
        pairs = np.array(list(itertools.combinations(range(n), 2)), dtype=np.int64).reshape(-1, 2)
        t = P._pair_index(pairs, n)
        assert np.array_equal(t, np.arange(n * (n - 1) // 2))
        assert np.array_equal(P._pair_from_index(t, n), pairs)


@given(st.data())
@settings(max_examples=60)
def test_pair_ids_round_trip_for_huge_n(data):
    n = data.draw(st.sampled_from([2**20 + 7, 2**31 + 11, 3_000_000_000]))
    u = data.draw(st.integers(0, n - 2))
    v = data.draw(st.one_of(st.just(u + 1), st.just(n - 1), st.integers(u + 1, n - 1)))
    t = P._pair_index(np.array([[u, v]], dtype=np.int64), n)
    assert 0 <= int(t[0]) < n * (n - 1) // 2
    assert P._pair_from_index(t, n).tolist() == [[u, v]]


# ---------------------------------------------------------------------------- samplers
@pytest.mark.parametrize(("pop", "k"), [(7, 3), (6, 5), (6, 0), (5, 5)])
def test_sample_distinct_is_a_uniform_subset(pop, k):
    rng = np.random.default_rng(11)
    subsets = list(itertools.combinations(range(pop), k))
    counts = Counter(
        tuple(P._sample_distinct(pop, k, rng).tolist()) for _ in range(200 * len(subsets))
    )
    assert set(counts) <= set(subsets)
    if len(subsets) > 1:
        assert chi_square_uniform([counts[s] for s in subsets]) > P_VALUE


def test_sample_absent_is_uniform_over_absent_pairs_and_never_present():
    n, present = 6, np.array([0, 3, 4, 9, 14], dtype=np.int64)  # 15 pairs, 10 absent
    absent = sorted(set(range(15)) - set(present.tolist()))
    rng = np.random.default_rng(5)
    subsets = list(itertools.combinations(absent, 2))
    counts = Counter()
    for _ in range(200 * len(subsets)):
        draw = P._sample_absent(n, present, 2, rng)
        counts[tuple(draw.tolist())] += 1
    assert set(counts) <= set(subsets)
    assert chi_square_uniform([counts[s] for s in subsets]) > P_VALUE


@given(st.lists(st.lists(st.integers(0, 12), min_size=4, max_size=4), max_size=40), st.data())
@settings(max_examples=100)
def test_greedy_in_order_equals_a_sequential_pass(rows, data):
    resources = np.array(rows, dtype=np.int64).reshape(-1, 4)
    ok = np.array(data.draw(st.lists(st.booleans(), min_size=len(rows), max_size=len(rows))),
                  dtype=bool)  # fmt: skip
    taken: set[int] = set()
    expected = []
    for t, row in enumerate(rows):
        if ok[t] and not taken & set(row):
            taken |= set(row)
            expected.append(t)
    assert P._greedy_in_order(resources, ok).tolist() == expected


# ---------------------------------------------------------------------------- invariants
@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda f: f.__name__)
@given(g=graphs(), fraction=st.floats(0, 1), seed=st.integers(0, 2**32))
@settings(max_examples=40, deadline=None)
def test_invariants_on_random_graphs(scheme, g, fraction, seed):
    try:
        r = scheme(g, fraction, seed=seed)
    except InfeasibleError:
        assert scheme is random_switch
        return
    except ConfigError as err:  # more insertions asked than non-edges exist
        assert scheme is random_insertion and "non-edges" in str(err)
        return
    out = r.graph
    assert_simple_csr(out)
    assert out.n_nodes == g.n_nodes
    before, after = ids(g), ids(out)
    removed = np.setdiff1d(before, after).size
    added = np.setdiff1d(after, before).size
    assert (removed, added) == (r.edges_removed, r.edges_added)
    m_total = g.n_edges
    if scheme is random_sparsification:
        assert added == 0 and removed == r.parameters["m"] == P._count(fraction, m_total)
    elif scheme is random_add_delete:
        m = r.parameters["m"]
        assert out.n_edges == m_total and m == P._count(fraction, m_total)
        assert removed == added == m - r.parameters["reinserted"]
    elif scheme is random_switch:
        assert np.array_equal(out.degrees(), g.degrees())
        s = r.parameters["s"]
        assert s == P._count(fraction, m_total // 2)
        assert removed == added == 2 * s
        assert s <= r.parameters["switches"] <= 2 * s
    elif scheme is random_edge_perturbation:
        assert (removed, added) == (r.parameters["deleted"], r.parameters["inserted"])
    else:
        assert removed == 0 and added == r.parameters["m"] == P._count(fraction, m_total)


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda f: f.__name__)
def test_fraction_zero_returns_the_same_edges_and_labels(scheme):
    g = Graph.from_networkx(nx.les_miserables_graph())
    r = scheme(g, 0, seed=3)
    assert np.array_equal(r.graph.indptr, g.indptr)
    assert np.array_equal(r.graph.indices, g.indices)
    assert r.edges_removed == r.edges_added == 0
    assert r.graph.labels is g.labels


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda f: f.__name__)
def test_seeds_reproduce_and_differ_and_the_result_serializes(scheme):
    g = Graph.from_networkx(nx.les_miserables_graph())
    level = 0.01 if scheme is random_edge_perturbation else 0.3
    a, b, c = scheme(g, level, seed=1), scheme(g, level, seed=1), scheme(g, level, seed=2)
    assert np.array_equal(ids(a.graph), ids(b.graph))
    assert not np.array_equal(ids(a.graph), ids(c.graph))
    d = json.loads(json.dumps(a.to_dict()))
    assert d["insecure_seed"] is True and d["n_nodes"] == g.n_nodes
    assert d["n_edges_before"] == g.n_edges and d["n_edges_after"] == a.graph.n_edges
    assert scheme(g, level).insecure_seed is False  # OS entropy


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, math.inf, "0.5", None, True])
def test_bad_fraction_is_a_config_error_naming_it(scheme, bad):
    name = "p" if scheme is random_edge_perturbation else "fraction"
    with pytest.raises(ConfigError, match=rf"^{name} = "):
        scheme(hexagon_with_chord(), bad)


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda f: f.__name__)
def test_directed_graphs_are_refused(scheme):
    g = Graph.from_edges(3, [(0, 1), (1, 2)], directed=True)
    with pytest.raises(InputError, match="needs an undirected graph"):
        scheme(g, 0.5)


def test_insertion_beyond_the_non_edges_is_a_config_error():
    with pytest.raises(ConfigError, match=r"fraction = 0\.5 asks for 5 new edges .* only 0"):
        random_insertion(Graph.from_networkx(nx.complete_graph(5)), 0.5)


# ---------------------------------------------------------------------------- RSW
def test_switch_really_switches_and_keeps_every_degree():
    g = Graph.from_networkx(nx.les_miserables_graph())
    for fraction in (0.2, 0.5, 0.85, 1.0):
        r = random_switch(g, fraction, seed=7)
        s = P._count(fraction, g.n_edges // 2)
        assert np.array_equal(r.graph.degrees(), g.degrees())
        assert len(edge_set(g) - edge_set(r.graph)) == 2 * s == r.edges_removed
        assert len(edge_set(r.graph) - edge_set(g)) == 2 * s == r.edges_added


def test_one_switch_is_uniform_over_the_valid_switches():
    g = hexagon_with_chord()  # 7 edges: fraction 0.2 gives s = ⌊0.2·3⌉ = 1
    edges, original = g.edges().tolist(), edge_set(g)
    outcomes = set()
    for (a, b), (c, d) in itertools.combinations(edges, 2):
        for new in (((a, d), (c, b)), ((a, c), (b, d))):
            pairs = [tuple(sorted(p)) for p in new]
            if all(x != y and (x, y) not in original for x, y in pairs) and pairs[0] != pairs[1]:
                outcomes.add(frozenset(original - {(a, b), (c, d)} | set(pairs)))
    rng = np.random.default_rng(21)
    counts = Counter()
    for _ in range(250 * len(outcomes)):
        r = random_switch(g, 0.2, seed=rng)
        counts[frozenset(edge_set(r.graph))] += 1
    assert set(counts) == outcomes
    assert chi_square_uniform([counts[o] for o in outcomes]) > P_VALUE


@pytest.mark.parametrize(
    ("graph", "fraction", "match"),
    [
        (nx.star_graph(6), 0.5, "no valid switch exists"),
        (nx.complete_graph(6), 0.3, "no valid switch exists"),
        (nx.cycle_graph(5), 1.0, r"\d of the 4 edges to replace .* no valid switch exists"),
        (nx.karate_club_graph(), 1.0, "node 33 has 17 neighbours and only 16 non-neighbours"),
    ],
)
def test_impossible_switches_are_infeasible_errors(graph, fraction, match):
    with pytest.raises(InfeasibleError, match=match) as info:
        random_switch(Graph.from_networkx(graph), fraction, seed=0)
    assert isinstance(info.value, PrivlabError) and "lower `fraction`" in str(info.value)


# ---------------------------------------------------------------------------- RAD
def test_add_delete_deletes_and_inserts_uniformly_as_hay_et_al():
    """m = 1 on 7 nodes / 10 edges: the deleted edge is uniform over E and the inserted
    pair uniform over the 12 non-edges of the interim graph (11 original non-edges + the
    deleted pair, whose re-insertion leaves the graph unchanged): 10·11 + 1 cells."""
    g = ten_edges_on_seven()
    original = edge_set(g)
    non_edges = sorted(set(itertools.combinations(range(7), 2)) - original)
    cells = [(e, x) for e in sorted(original) for x in non_edges] + ["unchanged"]
    expected = np.array([1 / 10 / 12] * (len(cells) - 1) + [1 / 12])
    rng = np.random.default_rng(3)
    trials = 12_000
    counts = Counter()
    for _ in range(trials):
        r = random_add_delete(g, 0.1, seed=rng)
        out = edge_set(r.graph)
        assert len(out) == 10 and r.parameters["m"] == 1
        gone, new = original - out, out - original
        if not gone:
            assert r.parameters["reinserted"] == 1
            counts["unchanged"] += 1
        else:
            counts[(gone.pop(), new.pop())] += 1
    observed = np.array([counts[c] for c in cells], dtype=float)
    assert stats.chisquare(observed, expected * trials).pvalue > P_VALUE


# ---------------------------------------------------------------------------- REP, RI
def test_edge_perturbation_flips_every_pair_independently_with_p():
    g = Graph.from_networkx(nx.path_graph(10))  # 9 edges, 36 non-edges
    p, trials = 0.25, 4000
    rng = np.random.default_rng(8)
    before = edge_set(g)
    flips = Counter()
    deleted = Counter()
    for _ in range(trials):
        r = random_edge_perturbation(g, p, seed=rng)
        changed = before ^ edge_set(r.graph)
        flips.update(changed)
        deleted[r.parameters["deleted"]] += 1
    sd = math.sqrt(p * (1 - p) / trials)
    for pair in itertools.combinations(range(10), 2):
        assert abs(flips[pair] / trials - p) < 4.5 * sd, pair
    k = np.arange(10)
    pmf = stats.binom.pmf(k, 9, p)
    big = pmf * trials >= 5  # merge the sparse tail into one cell
    observed = np.append([deleted[i] for i in k[big]], sum(deleted[i] for i in k[~big]))
    expect = np.append(pmf[big], pmf[~big].sum()) * trials
    assert stats.chisquare(observed, expect).pvalue > P_VALUE


def test_insertion_adds_only_non_edges_uniformly():
    g = ten_edges_on_seven()
    original = edge_set(g)
    non_edges = sorted(set(itertools.combinations(range(7), 2)) - original)
    rng = np.random.default_rng(4)
    counts = Counter()
    for _ in range(300 * len(non_edges)):
        r = random_insertion(g, 0.1, seed=rng)  # m = 1
        new = edge_set(r.graph) - original
        assert len(new) == 1 and original <= edge_set(r.graph)
        counts[new.pop()] += 1
    assert chi_square_uniform([counts[x] for x in non_edges]) > P_VALUE


# ---------------------------------------------------------------------------- real data
def test_all_schemes_on_ego_facebook(facebook_graph):
    g = facebook_graph
    before = ids(g)
    m = g.n_edges
    for scheme, level in [
        (random_sparsification, 0.1), (random_add_delete, 0.1), (random_switch, 0.1),
        (random_switch, 1.0), (random_edge_perturbation, 1e-3), (random_insertion, 0.1),
    ]:  # fmt: skip
        r = scheme(g, level, seed=2016)
        after = ids(r.graph)
        assert np.all(np.diff(after) > 0)  # no duplicates, no self-loops (ids are u < v)
        removed, added = np.setdiff1d(before, after).size, np.setdiff1d(after, before).size
        assert (removed, added) == (r.edges_removed, r.edges_added), r.scheme
        assert r.graph.labels is g.labels
        if scheme is random_switch:
            assert np.array_equal(r.graph.degrees(), g.degrees())
            assert removed == added == 2 * P._count(level, m // 2)  # 8,824 and all 88,234
        if scheme is random_add_delete:
            assert r.graph.n_edges == m and removed == 8823 - r.parameters["reinserted"]
        if scheme is random_edge_perturbation:  # ≈ 0.001 · (8.07M non-edges): ~8k
            assert 7_500 < added < 8_600 and removed < 150
    assert_simple_csr(random_switch(g, 1.0, seed=1).graph)
