"""(k, e)-anonymous partitioners (seed 001 §2.6): optimality against brute force, the errata
of Algorithm 1, the overlap example, the fast paths against the plain O(n²) recurrence."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import privlab.table.permutation.partition_dp as dp
from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.table.permutation import exhaustive_partition, is_ke_anonymous, ke_partition


def printed_algorithm_1(values, k, e, f0, combine):
    """Algorithm 1 exactly as printed (L1355–1390), parametrized by f[0] and the combiner."""
    x = sorted(values)
    n = len(x)
    inf = float("inf")
    f = [f0] + [inf] * n
    part = [0] * (n + 1)
    for i in range(1, n + 1):
        part[i] = part[i - 1]
        for d in range(1, i + 1):
            ok = len(set(x[d - 1 : i])) >= k and x[i - 1] - x[d - 1] >= e
            error = x[i - 1] - x[d - 1] if ok else inf
            temp = combine(f[d - 1], error)
            if temp < f[i]:
                f[i] = temp
                part[i] = d
    ranges, i = [], n
    while i > 0 and f[n] < inf:
        d = part[i]
        ranges.append(x[i - 1] - x[d - 1])
        i = d - 1
    return f[n], sum(ranges)


def quadratic_reference(values, k, e, objective):
    """The corrected O(n²) recurrence (distinct counts built on the fly, O(n) memory)."""
    x = np.sort(np.asarray(values, dtype=float))
    n = x.size
    inf = float("inf")
    f = [0.0] + [inf] * n
    for i in range(1, n + 1):
        seen = set()
        for d in range(i, 0, -1):
            seen.add(x[d - 1])
            err = x[i - 1] - x[d - 1]
            if len(seen) < k or err < e or f[d - 1] == inf:
                continue
            if objective == "sum":
                f[i] = min(f[i], f[d - 1] + err)
            elif objective == "max":
                f[i] = min(f[i], max(f[d - 1], err))
            else:  # groups, maximized: store the negative count
                f[i] = min(f[i], f[d - 1] - 1)
    return f[n] if objective != "groups" else -f[n]


# ----------------------------------------------------------------------------- errata


def test_printed_algorithm_1_errata():
    x = [0, 10, 11, 12, 13, 14]
    # as printed: f[0] = ∞ makes every f[i] infinite — no partition at all
    assert printed_algorithm_1(x, 2, 0, float("inf"), max)[0] == float("inf")
    # f[0] = 0 with max is the non-overlapping min-max DP: max error 10, but its partition
    # {0,10},{11..14} has sum 13, not the minimum sum 12 ({0,10},{11,12},{13,14})
    value, partition_sum = printed_algorithm_1(x, 2, 0, 0.0, max)
    assert (value, partition_sum) == (10, 13)
    # the erratum's fix: f[0] = 0 and temp = f[d−1] + error
    assert printed_algorithm_1(x, 2, 0, 0.0, lambda a, b: a + b)[0] == 12
    ms = ke_partition(x, 2, 0)
    assert ms.objective == 12 == exhaustive_partition(x, 2, 0, "sum")[0]
    assert ms.n_groups == 3
    mm = ke_partition(x, 2, 0, method="min-max")
    # privlab's min-max: the max-of-error optimum, then the least sum among such partitions
    assert mm.objective == 10 and mm.sum_of_error == 12


def test_overlap_example_of_the_seed():
    x = [1, 2, 3, 5, 5, 6, 6, 8]
    best, labels = exhaustive_partition(x, 4, 5, "max")
    assert best == 5  # G1 = {1,2,5,6}, G2 = {3,5,6,8}: overlapping ranges
    assert sorted(sorted(np.asarray(x)[labels == g].tolist()) for g in range(2)) == [
        [1, 2, 5, 6],
        [3, 5, 6, 8],
    ]
    assert exhaustive_partition(x, 4, 5, "max", contiguous=True)[0] == 7
    mm = ke_partition(x, 4, 5, method="min-max")
    assert mm.objective == 7 and mm.n_groups == 1
    assert mm.objective <= 2 * best  # Theorem 4


def test_min_max_f_is_not_monotone_but_the_dp_is_right():
    # k = 2: f(3) = 10.5 ({0,10,10.5}) > f(4) = 10 ({0,10},{10.5,20}); a binary search on f
    # itself would be wrong, the stair of suffix minima is not
    x = [0, 10, 10.5, 20]
    assert quadratic_reference(x[:3], 2, 0, "max") == 10.5
    assert quadratic_reference(x, 2, 0, "max") == 10
    assert ke_partition(x, 2, 0, method="min-max").objective == 10
    assert ke_partition([*x, 21], 2, 0, method="min-max").objective == 10.5


# ----------------------------------------------------------------------------- brute force


small_case = st.tuples(
    st.lists(st.integers(0, 9), min_size=1, max_size=7),
    st.integers(1, 4),
    st.integers(0, 6),
)


@given(small_case)
@settings(max_examples=120, deadline=None)
def test_optimal_partitions_equal_brute_force(case):
    values, k, e = case
    x = np.array(values, dtype=float)
    best_sum = exhaustive_partition(x, k, e, "sum")
    if best_sum is None:
        with pytest.raises(InfeasibleError):
            ke_partition(x, k, e)
        return
    ms = ke_partition(x, k, e, method="min-sum")
    assert ms.objective == pytest.approx(best_sum[0])
    mm = ke_partition(x, k, e, method="min-max")
    assert mm.objective == exhaustive_partition(x, k, e, "max", contiguous=True)[0]
    assert mm.objective <= 2 * exhaustive_partition(x, k, e, "max")[0]  # Theorem 4
    mg = ke_partition(x, k, e, method="max-group")
    assert mg.n_groups == exhaustive_partition(x, k, e, "groups", contiguous=True)[0]
    for p in (ms, mm, mg, ke_partition(x, k, e, method="random", seed=3)):
        assert p.groups.shape == x.shape
        assert np.array_equal(np.unique(p.groups), np.arange(p.n_groups))
        assert is_ke_anonymous(x, p.groups, k, e).all()
        assert p.errors == pytest.approx([np.ptp(x[p.groups == g]) for g in range(p.n_groups)])


medium_case = st.tuples(
    st.integers(0, 2**32 - 1),
    st.integers(1, 150),
    st.integers(2, 60),
    st.integers(1, 6),
    st.integers(0, 25),
    st.booleans(),
)


@pytest.mark.parametrize("scalar_lag", [0, 10**9])  # numpy blocks / plain loops
@given(case=medium_case)
@settings(max_examples=40, deadline=None)
def test_fast_paths_match_the_quadratic_recurrence(scalar_lag, case):
    seed, n, n_values, k, e, real = case
    rng = np.random.default_rng(seed)
    x = rng.random(n) * n_values if real else rng.integers(0, n_values, n).astype(float)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dp, "_SCALAR_LAG", scalar_lag)
        mp.setattr(dp, "_DENSE_BUDGET", 7)  # exercise block splitting
        try:
            ms = ke_partition(x, k, e)
        except InfeasibleError:
            assert np.unique(x).size < k or np.ptp(x) < e
            return
        mm = ke_partition(x, k, e, method="min-max")
        mg = ke_partition(x, k, e, method="max-group")
    assert ms.objective == pytest.approx(quadratic_reference(x, k, e, "sum"))
    assert mm.objective == quadratic_reference(x, k, e, "max")
    assert mg.n_groups == quadratic_reference(x, k, e, "groups")
    for p in (ms, mm, mg):
        assert is_ke_anonymous(x, p.groups, k, e).all()


def test_min_max_breaks_ties_by_the_least_sum():
    rng = np.random.default_rng(11)
    x = rng.integers(0, 40, 60).astype(float)
    mm = ke_partition(x, 3, 5, method="min-max")
    lam = mm.objective
    # min sum over contiguous partitions whose groups all have range ≤ λ, by brute recurrence
    xs = np.sort(x)
    f = [0.0] + [np.inf] * xs.size
    for i in range(1, xs.size + 1):
        for d in range(i, 0, -1):
            r = xs[i - 1] - xs[d - 1]
            if len(set(xs[d - 1 : i])) >= 3 and 5 <= r <= lam:
                f[i] = min(f[i], f[d - 1] + r)
    assert mm.sum_of_error == pytest.approx(f[-1])
    assert mm.sum_of_error >= ke_partition(x, 3, 5).objective


# ----------------------------------------------------------------------------- other methods


def test_random_scan_closes_groups_in_input_order_and_merges_the_tail():
    x = [1, 2, 3, 10, 11, 12, 5]
    p = ke_partition(x, 3, 2, method="random")
    # {1,2,3} closes, {10,11,12} closes, the tail {5} joins the last group
    assert p.groups.tolist() == [0, 0, 0, 1, 1, 1, 1]
    q = ke_partition(x, 3, 2, method="random", seed=5)  # seeded scan order
    assert is_ke_anonymous(np.array(x, float), q.groups, 3, 2).all()
    assert np.array_equal(q.groups, ke_partition(x, 3, 2, method="random", seed=5).groups)


def test_rank_swap_windows_are_ke_and_intervals_contain_the_truth():
    rng = np.random.default_rng(2)
    x = rng.integers(0, 300, 500).astype(float)
    p = ke_partition(x, 4, 20, method="swap", seed=1)
    assert p.n_groups == x.size and p.window >= 1
    assert p.extra["swapped_rows"] > 0.9 * x.size
    assert np.all((p.lo <= x) & (x <= p.hi))
    assert np.all((p.lo <= p.swapped) & (p.swapped <= p.hi))
    assert sorted(p.swapped.tolist()) == sorted(x.tolist())  # a permutation of the values
    xs = np.sort(x)
    for i in rng.integers(0, x.size, 30):
        inside = xs[(xs >= p.lo[i]) & (xs <= p.hi[i])]
        assert np.unique(inside).size >= 4 and np.ptp(inside) >= 20


# ----------------------------------------------------------------------------- bad input


def test_infeasible_and_bad_parameters_say_why():
    with pytest.raises(InfeasibleError, match="k = 5 but the sensitive attribute has only 3"):
        ke_partition([1, 2, 3, 3], 5, 0)
    with pytest.raises(InfeasibleError, match="e = 100 but the sensitive values span only 2"):
        ke_partition([1, 2, 3], 2, 100)
    with pytest.raises(ConfigError, match="k must be an integer"):
        ke_partition([1, 2], 0, 0)
    with pytest.raises(ConfigError, match="e must be a finite number"):
        ke_partition([1, 2], 1, -1)
    with pytest.raises(ConfigError, match="unknown partition method"):
        ke_partition([1, 2], 1, 0, method="greedy")
    with pytest.raises(InputError, match=r"1 row \(first at row 2\) missing \(None/NaN\)"):
        ke_partition([1.0, 2.0, None, 4.0], 2, 0)
    with pytest.raises(InputError, match=r"first at row 1\) .*not finite"):
        ke_partition([1.0, np.inf], 1, 0)
    with pytest.raises(InputError, match="numeric"):
        ke_partition(["a", "b"], 1, 0)


def test_ties_within_tolerance_pass_like_the_ke_model():
    x = [0.1, 0.2, 0.3]
    p = ke_partition(x, 3, 0.3 - 0.1)  # 0.3 − 0.1 is 0.19999999999999998 in floats
    assert p.n_groups == 1
