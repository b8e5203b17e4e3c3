"""The utility metrics of seed 001's Ch. 4 experiments (dissertation L5179–5190): the worst-case
error bound (U − L)/(2Q) of answering the midpoint and the expected error |E − T|/T."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privlab.graph.grouping_bounds import Bounds, expected_error, worst_case_error


def test_hand_cases():
    # bounds [2, 194] on a true answer of 102 (the docs' example): (194 − 2) / 204
    assert worst_case_error(2, 194, 102) == pytest.approx(192 / 204)
    assert expected_error(98.86, 102) == pytest.approx(3.14 / 102)
    assert worst_case_error(5, 5, 5) == 0 and expected_error(5, 5) == 0
    assert worst_case_error(0, 3, 0) is None and expected_error(1, 0) is None
    b = Bounds(lower=10, upper=30, expected=25, true=20)
    assert (b.worst_case_error, b.expected_error) == (0.5, 0.25)
    assert b.to_dict()["worst_case_error"] == 0.5
    assert Bounds(1, 2, 1.5).worst_case_error is None  # no truth given


@given(
    st.integers(1, 10**6),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
)
def test_worst_case_error_bounds_the_midpoint_error(true, below, above):
    lo, hi = true - below, true + above
    mid = (lo + hi) / 2
    wce = worst_case_error(lo, hi, true)
    assert abs(mid - true) / true <= wce + 1e-12
    assert expected_error(mid, true) == pytest.approx(abs(mid - true) / true)
