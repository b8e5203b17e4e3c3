"""The general type-1 structural-predicate query over a safe grouping (seed 001 §4.2.3,
§4.4.4; Queries A and B of §4.4.7): hand cases, the truth inside the bounds, COUNT exact."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.graph.anonymize.grouping import Bipartite, GroupedGraph, safe_grouping
from privlab.graph.grouping_bounds import (
    neighbours_with,
    structural_values,
    type1_degree_sum,
    type1_query,
)


def release() -> GroupedGraph:
    # papers (right) 0..3 in one group; paper degrees 1, 1, 2, 3 (0 and 1 single-author)
    edges = [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3), (6, 3)]
    g = Bipartite.from_edges(edges, n_left=7, n_right=4)
    return GroupedGraph(
        g, 1, 4, np.arange(7), np.zeros(4, dtype=np.int64), np.arange(7), np.arange(4), False
    )


def test_query_b_single_author_papers_by_hand():
    gg = release()
    vldb = np.array([True, False, False, True])  # a = 2 of 4; s = 2 single-author papers
    b = type1_query(gg, "right", vldb, "single")
    # L = max(0, a + s − ℓ) = 0, U = min(a, s) = 2, E = a·s/ℓ = 1; truth: paper 0 only
    assert (b.lower, b.upper, b.expected, b.true) == (0, 2, 1, 1)
    three = type1_query(gg, "right", np.array([True, True, True, False]), "single")
    assert (three.lower, three.upper) == (1, 2)  # 3 + 2 − 4 = 1


def test_query_a_average_authors_by_hand():
    gg = release()
    vldb = np.array([True, False, False, True])
    b = type1_query(gg, "right", vldb, "degree", "avg")
    # degrees {1, 1, 2, 3}; two selected: sum in [1 + 1, 2 + 3] → avg in [1, 2.5]; truth 2
    assert (b.lower, b.upper, b.true) == (1, 2.5, 2)
    assert b.expected == pytest.approx(0.5 * 7 / 2)
    count = type1_query(gg, "right", vldb, "count")
    assert count.lower == count.upper == count.true == 2


def test_callable_structural_value_and_neighbours_with():
    gg = release()
    single = gg.graph.degrees("right") == 1
    per_author = neighbours_with(gg.graph, "left", single)
    assert per_author.tolist() == [1, 1, 0, 0, 0, 0, 0]
    f = structural_values(gg.graph, "left", lambda g: neighbours_with(g, "left", single))
    assert f.tolist() == per_author.tolist()
    with pytest.raises(InputError, match="one number per left node"):
        structural_values(gg.graph, "left", lambda g: np.ones(3))
    with pytest.raises(ConfigError, match="value"):
        structural_values(gg.graph, "left", "betweenness")
    with pytest.raises(ConfigError, match="agg"):
        type1_query(gg, "left", np.ones(7, dtype=bool), "degree", "median")


@st.composite
def case(draw):
    nl, nr = draw(st.integers(6, 30)), draw(st.integers(6, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    m = draw(st.integers(1, max(1, nl * nr // 10)))
    e = np.unique(np.stack([rng.integers(0, nl, m), rng.integers(0, nr, m)], 1), axis=0)
    g = Bipartite.from_edges(e, n_left=nl, n_right=nr)
    return g, rng.random(nl) < draw(st.floats(0, 1)), rng.random(nr) < draw(st.floats(0, 1))


@given(
    case(),
    st.integers(1, 3),
    st.integers(1, 3),
    st.sampled_from(["degree", "single", "count"]),
    st.sampled_from(["sum", "avg", "count"]),
)
@settings(max_examples=60, deadline=None)
def test_truth_within_bounds_on_both_sides(c, k, ell, value, agg):
    g, p, q = c
    try:
        gg = safe_grouping(g, k, ell, seed=1)
    except InfeasibleError:
        return
    for side, pred in (("left", p), ("right", q)):
        b = type1_query(gg, side, pred, value, agg)
        if b.true is None:
            assert not pred.any()
            continue
        assert b.lower - 1e-9 <= b.true <= b.upper + 1e-9
        assert b.lower - 1e-9 <= b.expected <= b.upper + 1e-9
    assert type1_degree_sum(gg, p) == type1_query(gg, "left", p, "degree")
