"""PFG (Pedarsani–Figueiredo–Grossglauser): the posterior tables checked by hand, identical
graphs relabelled recovered in full, the invariants of the mapping (one-to-one, every node of
the smaller side mapped, scores consistent with the truth), and bad input."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.pfg import FLOOR, _degree_table, _distance_table, _sizes, pfg
from privlab.graph.core import Graph
from privlab.graph.pairs import sample_pair

# An asymmetric graph (igraph: one automorphism) on 8 nodes; degrees 3 2 5 4 2 3 3 2.  With
# s = 1 a pair scores above the floor only if its degrees and its distances to every
# landmark are equal: here every node's (degree, distances to the landmarks) differs from
# every other's once the landmarks are the top nodes, so the true relabelling is the only
# assignment with no floored feature, round after round.
ASYM = [(0, 1), (0, 2), (0, 7), (1, 5), (2, 3), (2, 4), (2, 6), (2, 7), (3, 4), (3, 5),
        (3, 6), (5, 6)]  # fmt: skip


def asym() -> Graph:
    return Graph.from_edges(8, np.array(ASYM, dtype=np.int64))


def permuted(g: Graph, perm: np.ndarray) -> Graph:
    return Graph.from_edges(g.n_nodes, perm[g.edges()])


def one_to_one(mapping: np.ndarray) -> bool:
    m = mapping[mapping >= 0]
    return np.unique(m).size == m.size


def test_the_test_graph_is_asymmetric():
    assert asym().to_igraph().count_automorphisms_vf2() == 1


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    options=st.sampled_from([
        {}, {"s": 1.0}, {"s": 0.5}, {"landmarks": "fixed"}, {"weight": "posterior"},
    ]),
)  # fmt: skip
def test_identical_graphs_relabelled_are_recovered_in_full(seed, options):
    g = asym()
    perm = np.random.default_rng(seed).permutation(8)
    res = pfg(g, permuted(g, perm), truth=perm, **options)
    assert res.mapping.tolist() == perm.tolist()
    assert (res.correct, res.wrong, res.coverage, res.accuracy) == (8, 0, 1.0, 1.0)
    assert res.rounds == 3  # candidate sets 2, 4, 8


def test_rounds_double_up_to_every_node():
    assert _sizes(8) == [2, 4, 8]
    assert _sizes(9) == [2, 4, 8, 9]
    assert _sizes(2) == [2]
    assert _sizes(1) == [1]


def test_degree_table_with_s_1_is_minus_log_frequency_on_the_diagonal():
    # s = 1: the graphs are the parent; P(x, x | same) = p(x), P(x) = p(x)
    d1 = np.array([1, 1, 2, 3])
    d2 = np.array([1, 2, 2, 3])
    t = _degree_table(d1, d2, 1.0)
    p = np.bincount(np.concatenate([d1, d2])) / 8  # pooled: 1: 3/8, 2: 3/8, 3: 2/8
    for x in (1, 2, 3):
        assert t[x, x] == pytest.approx(-math.log(p[x]))
    assert t[1, 2] == pytest.approx(math.log(FLOOR) - math.log(p[1]) - math.log(p[2]))


def test_degree_table_prefers_equal_degrees_and_is_symmetric():
    rng = np.random.default_rng(3)
    d = rng.integers(1, 30, size=500)
    t = _degree_table(d, d, 0.8)
    assert np.allclose(t, t.T)
    for x in (5, 10, 20):  # the best partner of degree x is a nearby degree
        assert abs(int(np.argmax(t[x])) - x) <= 2


def test_distance_table_detour_model():
    freq = np.array([0, 10, 30, 40, 20])  # parent distances 1..4
    t = _distance_table(freq, 1.0)
    p = freq / freq.sum()
    for x in (1, 2, 3, 4):  # s = 1: distances unchanged
        assert t[x, x] == pytest.approx(-math.log(p[x]))
    assert t[1, 3] < 0
    # s < 1: a lost edge becomes a two-edge detour, so parent distance l gives l..2l.
    # Parent distances 1 and 2: (1, 2) can be one node (l = 1, one side detoured), (1, 3)
    # cannot (3 needs l = 2, which never shows as 1): floored
    t = _distance_table(np.array([0, 10, 10, 0, 0]), 0.9)
    assert t[1, 2] > -5 and t[1, 3] < math.log(FLOOR) / 2
    assert t[1, 1] > t[1, 2]


def _pair(n: int, p: float, seed: int, alpha: float, variant: str):
    g = Graph.from_networkx(nx.gnp_random_graph(n, p, seed=seed))
    return sample_pair(g, alpha, 0.8, seed=seed), variant


pairs = st.builds(
    _pair,
    st.integers(3, 40),
    st.floats(0.05, 0.5),
    st.integers(0, 10_000),
    st.sampled_from([0.6, 1.0]),
    st.sampled_from(["paper", "secgraph"]),
)


@settings(max_examples=30, deadline=None)
@given(pairs)
def test_mapping_is_one_to_one_and_maps_the_smaller_side(case):
    pair, variant = case
    truth = pair.truth_array()
    res = pfg(pair.aux, pair.san, truth=truth, variant=variant)
    n = min(pair.aux.n_nodes, pair.san.n_nodes)
    assert one_to_one(res.mapping)
    assert res.mapped == n
    assert res.mapping.max() < pair.san.n_nodes
    assert res.correct == int(((res.mapping >= 0) & (res.mapping == truth)).sum())
    assert res.wrong == res.mapped - res.correct
    assert res.coverage == pytest.approx(res.correct / int((truth >= 0).sum()))


def test_disconnected_graphs_and_isolated_nodes():
    g = Graph.from_edges(10, np.array([[0, 1], [1, 2], [2, 0], [0, 3], [5, 6], [6, 7]]))
    perm = np.random.default_rng(1).permutation(10)
    res = pfg(g, permuted(g, perm), truth=perm)
    assert res.mapped == 10 and one_to_one(res.mapping)
    res = pfg(g, permuted(g, perm), truth=perm, variant="secgraph")
    assert res.mapped == 10 and one_to_one(res.mapping)


def test_result_to_dict_has_the_settings_and_no_seeds():
    g = asym()
    d = pfg(g, g, truth=np.arange(8)).to_dict()
    assert d["method"] == "pfg" and d["seeds"] == 0 and d["variant"] == "paper"
    assert (d["s"], d["weight"], d["landmarks"]) == (0.9, "log-likelihood", "rechosen")
    assert d["correct"] == d["mapped"] == 8
    assert pfg(g, g).correct is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"s": 0}, "s = 0"),
        ({"s": 1.5}, "s = 1.5"),
        ({"s": "a"}, "s = 'a'"),
        ({"variant": "cosine"}, "variant = 'cosine'"),
        ({"weight": "max"}, "weight = 'max'"),
        ({"landmarks": "all"}, "landmarks = 'all'"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        pfg(asym(), asym(), **kwargs)


def test_bad_graphs_and_truth_are_refused():
    with pytest.raises(ConfigError, match="no nodes"):
        pfg(Graph.from_edges(0, np.zeros((0, 2), dtype=np.int64)), asym())
    with pytest.raises(InputError, match="truth"):
        pfg(asym(), asym(), truth=np.arange(3))
    with pytest.raises(InputError, match="truth names node 9"):
        pfg(asym(), asym(), truth=np.full(8, 9))
