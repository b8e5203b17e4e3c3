"""The exact minimum max-of-error partition (seed 001 §2.6.2, Algorithm 2) and its use as the
oracle of the heuristic partitioners: every heuristic's max error is ≥ the exact optimum, and
the non-overlapping min-max is within 2× of it (Theorem 4)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InfeasibleError
from privlab.table.permutation import (
    exact_min_max_partition,
    exhaustive_partition,
    is_ke_anonymous,
    ke_partition,
)


def check(values, k, e):
    part = exact_min_max_partition(values, k, e)
    assert is_ke_anonymous(values, part.groups, k, e).all()
    assert part.objective == part.max_of_error
    return part


def test_seed_overlap_example():
    # L1413–1417: the only optimum of {1,2,3,5,5,6,6,8} for (4, 5) is {1,2,5,6}, {3,5,6,8}
    x = [1, 2, 3, 5, 5, 6, 6, 8]
    part = check(x, 4, 5)
    assert part.objective == 5
    groups = sorted(sorted(np.asarray(x)[part.groups == g].tolist()) for g in range(2))
    assert groups == [[1, 2, 5, 6], [3, 5, 6, 8]]
    assert ke_partition(x, 4, 5, method="min-max").objective == 7  # non-overlapping: 7
    assert ke_partition(x, 4, 5, method="exact-min-max").objective == 5


def test_hand_cases():
    # k = 1, e = 0: every value alone, error 0
    assert check([4, 4, 9, 1], 1, 0).objective == 0
    # k = 2 on {0, 1, 10, 11}: {0,1}, {10,11} (error 1), not an overlap
    assert check([10, 0, 11, 1], 2, 0).objective == 1
    # {5,5,6,6} with k = 2: error 1 (one group, or {5,6} twice)
    part = check([5, 6, 5, 6], 2, 0)
    assert part.objective == 1


@pytest.mark.parametrize("seed", range(6))
def test_matches_every_set_partition(seed):
    rng = np.random.default_rng(seed)
    for _ in range(8):
        n = int(rng.integers(2, 8))
        x = rng.integers(0, int(rng.integers(2, 9)), n).astype(float)
        k, e = int(rng.integers(1, 4)), float(rng.integers(0, 4))
        best = exhaustive_partition(x, k, e, "max")
        if best is None:
            with pytest.raises(InfeasibleError):
                exact_min_max_partition(x, k, e)
            continue
        assert check(x, k, e).objective == best[0]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 40), min_size=2, max_size=40),
    st.integers(1, 5),
    st.integers(0, 12),
)
def test_oracle_heuristics_never_beat_the_exact_optimum(values, k, e):
    x = np.asarray(values, dtype=float)
    assume(np.unique(x).size >= k and x.max() - x.min() >= e)
    exact = check(x, k, e).objective
    for method in ("min-sum", "min-max", "max-group", "random"):
        assert ke_partition(x, k, e, method=method, seed=0).max_of_error >= exact - 1e-9
    assert ke_partition(x, k, e, method="min-max").objective <= 2 * exact + 1e-9  # Theorem 4


def test_guards():
    with pytest.raises(ConfigError, match="max_distinct"):
        exact_min_max_partition(np.arange(50.0), 2, 0, max_distinct=10)
    with pytest.raises(ConfigError, match="k must be"):
        exact_min_max_partition([1, 2], 0, 0)
    with pytest.raises(InfeasibleError):
        exact_min_max_partition([1, 1, 1], 2, 0)
