"""Example 8 of seed 001 Ch. 4 (dissertation L5019–5033): bounds and expected value of "the
maximum number of single-author VLDB papers by a US author" over a safe grouping."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InfeasibleError, InputError
from privlab.graph.anonymize.grouping import Bipartite, GroupedGraph, is_safe, safe_grouping
from privlab.graph.grouping_bounds import type2_max


def hand_release() -> tuple[GroupedGraph, np.ndarray, np.ndarray]:
    # authors 0..3 in groups {0,1}, {2,3}; papers 0..5 (all single-author) in {0,1,2}, {3,4,5}
    edges = [(0, 0), (0, 3), (1, 1), (2, 4), (3, 2), (3, 5)]
    g = Bipartite.from_edges(edges, n_left=4, n_right=6)
    left, right = np.array([0, 0, 1, 1]), np.array([0, 0, 0, 1, 1, 1])
    assert is_safe(g, left, "left") and is_safe(g, right, "right")
    gg = GroupedGraph(g, 2, 3, left, right, np.arange(4), np.arange(6), True)
    us = np.array([True, False, False, False])  # a = (1, 0)
    vldb = np.array([True, True, True, True, False, False])  # b = (3, 1)
    return gg, us, vldb


def test_example_8_by_hand():
    gg, us, vldb = hand_release()
    single = gg.graph.degrees("right") == 1
    b = type2_max(gg, us, vldb, single)
    # author 0: papers in a fully-VLDB group (certain) and in a 1-of-3 group (possible)
    #   → counts [1, 2]; author 1: one paper in the fully-VLDB group → [1, 1]
    assert (b.lower, b.upper, b.true) == (1, 2, 2)
    # independence: π = 1/2 for authors 0 and 1; P(M ≥ 1) = 1 − ½·½, P(M ≥ 2) = ½·⅓
    assert b.expected == pytest.approx(0.75 + 1 / 6)
    assert b.worst_case_error == pytest.approx(0.25)
    none = type2_max(gg, np.zeros(4, dtype=bool), vldb)
    assert (none.lower, none.upper, none.expected, none.true) == (0, 0, 0, 0)


def test_lower_bound_uses_the_a_th_smallest_in_a_group():
    # group {2,3}: lower counts 0 (author 2) and 1 (author 3).  One US author there could be
    # author 2, so the group gives only 0; two US authors must include author 3: 1.
    gg, _, vldb = hand_release()
    one = type2_max(gg, np.array([False, False, True, False]), vldb)
    assert one.lower == 0 and one.true == 0
    both = type2_max(gg, np.array([False, False, True, True]), vldb)
    assert both.lower == 1 and both.true == 1


def test_expected_value_matches_enumeration_of_the_independence_model():
    gg, us, vldb = hand_release()
    g = gg.graph
    lg, rg = gg.left_groups, gg.right_groups
    pi = np.bincount(lg, weights=us)[lg] / np.bincount(lg)[lg]
    pj = np.bincount(rg, weights=vldb)[rg] / np.bincount(rg)[rg]
    total = 0.0
    for left_bits in itertools.product([0, 1], repeat=g.n_left):
        pl_ = np.prod([pi[v] if bit else 1 - pi[v] for v, bit in enumerate(left_bits)])
        for edge_bits in itertools.product([0, 1], repeat=g.n_edges):
            pe = np.prod(
                [
                    pj[w] if bit else 1 - pj[w]
                    for (_, w), bit in zip(g.edges, edge_bits, strict=True)
                ]
            )
            counts = np.zeros(g.n_left)
            for (v, _), bit in zip(g.edges, edge_bits, strict=True):
                counts[v] += bit
            m = max([counts[v] for v in range(g.n_left) if left_bits[v]], default=0)
            total += pl_ * pe * m
    assert type2_max(gg, us, vldb).expected == pytest.approx(total)


@st.composite
def case(draw):
    nl, nr = draw(st.integers(6, 30)), draw(st.integers(6, 50))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    m = draw(st.integers(1, max(1, nl * nr // 10)))
    e = np.unique(np.stack([rng.integers(0, nl, m), rng.integers(0, nr, m)], 1), axis=0)
    g = Bipartite.from_edges(e, n_left=nl, n_right=nr)
    return g, rng.random(nl) < draw(st.floats(0, 1)), rng.random(nr) < draw(st.floats(0, 1))


@given(case(), st.integers(1, 3), st.integers(1, 3), st.booleans())
@settings(max_examples=60, deadline=None)
def test_truth_lies_within_the_bounds(c, k, ell, single_only):
    g, p, q = c
    try:
        gg = safe_grouping(g, k, ell, seed=0)
    except InfeasibleError:
        return
    s = g.degrees("right") == 1 if single_only else None
    b = type2_max(gg, p, q, s)
    assert b.lower <= b.true <= b.upper
    assert 0 <= b.expected <= b.upper + 1e-9


def test_bad_masks_are_named():
    gg, us, vldb = hand_release()
    with pytest.raises(InputError, match="right_structural"):
        type2_max(gg, us, vldb, np.ones(3, dtype=bool))
