"""Post-processing: non-negative counts, least-squares consistent hierarchies (Hay et al.)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.dp.noise import discrete_laplace
from privlab.dp.postprocess import (
    consistent_frame,
    consistent_levels,
    consistent_tree,
    non_negative,
    non_negative_columns,
)
from privlab.errors import InputError


def _random_tree(draw_sizes: list[int]) -> np.ndarray:
    """parent array: node i > 0 hangs below one of the nodes before it (a tree)."""
    return np.array([-1] + [s % (i + 1) for i, s in enumerate(draw_sizes)], dtype=np.int64)


def _leaf_matrix(parent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A[i, j] = 1 when leaf j lies below (or is) node i: every consistent vector is A·l."""
    n = parent.size
    has_child = np.zeros(n, bool)
    has_child[parent[parent >= 0]] = True
    leaves = np.flatnonzero(~has_child)
    a = np.zeros((n, leaves.size))
    for j, leaf in enumerate(leaves):
        node = leaf
        while node >= 0:
            a[node, j] = 1
            node = parent[node]
    return a, leaves


def _children_sums(parent: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    inner = np.unique(parent[parent >= 0])
    sums = np.bincount(parent[parent >= 0], weights=x[parent >= 0], minlength=parent.size)
    return x[inner], sums[inner]


def test_two_leaves_by_hand():
    # minimize (a + b − 10)² + (a − 3)² + (b − 4)²: a = 4, b = 5, total 9
    r = consistent_tree([10, 3, 4], [-1, 0, 0])
    assert r.estimate == pytest.approx([9, 4, 5])
    assert r.variance == pytest.approx([2 / 3, 2 / 3, 2 / 3])  # (AᵀA)⁻¹ of this tree


@given(
    sizes=st.lists(st.integers(0, 10**6), min_size=1, max_size=25),
    seed=st.integers(0, 2**32 - 1),
    weighted=st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_parts_sum_to_totals_and_equal_the_brute_force_least_squares(sizes, seed, weighted):
    parent = _random_tree(sizes)
    rng = np.random.default_rng(seed)
    y = rng.normal(0, 10, parent.size)
    var = rng.uniform(0.5, 4, parent.size) if weighted else np.ones(parent.size)
    r = consistent_tree(y, parent, variances=var)
    totals, sums = _children_sums(parent, r.estimate)
    assert totals == pytest.approx(sums, abs=1e-8)
    a, _ = _leaf_matrix(parent)
    w = 1 / np.sqrt(var)
    leaves, *_ = np.linalg.lstsq(a * w[:, None], y * w, rcond=None)
    assert r.estimate == pytest.approx(a @ leaves, abs=1e-8)
    cov = a @ np.linalg.inv(a.T @ (a / var[:, None])) @ a.T  # GLS covariance
    assert r.variance == pytest.approx(np.diag(cov), rel=1e-8, abs=1e-10)


def test_consistency_lowers_the_error_of_a_binary_tree_of_noisy_counts():
    depth = 4  # a complete binary tree of 31 nodes, leaves at the bottom
    n = 2 ** (depth + 1) - 1
    parent = np.array([-1] + [(i - 1) // 2 for i in range(1, n)])
    rng = np.random.default_rng(1)
    leaves = rng.integers(0, 50, 2**depth)
    truth = np.zeros(n)
    truth[n - leaves.size :] = leaves
    for i in range(n - leaves.size - 1, -1, -1):
        truth[i] = truth[2 * i + 1] + truth[2 * i + 2]
    noise = np.asarray(discrete_laplace(4, (500, n), rng=rng))
    raw = ((noise) ** 2).mean()
    fixed = np.mean([((consistent_tree(truth + e, parent).estimate - truth) ** 2).mean()
                     for e in noise])  # fmt: skip
    assert fixed < 0.8 * raw  # the least-squares estimate beats the raw counts clearly


def test_a_node_without_a_measurement_is_the_sum_of_its_parts():
    r = consistent_tree([0, 2, 3, 7], [-1, 0, 0, -1], variances=[np.inf, 1, 1, 1])
    assert r.estimate == pytest.approx([5, 2, 3, 7])
    with pytest.raises(InputError, match="without a measurement"):
        consistent_tree([1, 2], [-1, 0], variances=[1, np.inf])


def test_non_negative_clips_and_keeps_the_type():
    assert non_negative(np.array([-3, 0, 5])).tolist() == [0, 0, 5]
    assert non_negative(np.array([-3, 0, 5])).dtype == np.int64
    assert non_negative(-2.5) == 0.0
    assert non_negative(pl.Series([-1, 4])).to_list() == [0, 4]
    frame = pl.DataFrame({"g": ["a", "b"], "count": [-2, 5], "count ci_low": [-9, -1],
                          "count ci_high": [5, 12], "sum(x)": [-3.0, 1.0]})  # fmt: skip
    out = non_negative_columns(frame, ["count"])
    assert out["count"].to_list() == [0, 5] and out["count ci_low"].to_list() == [0, 0]
    assert out["count ci_high"].to_list() == [5, 12] and out["sum(x)"].to_list() == [-3.0, 1.0]
    with pytest.raises(InputError, match="no column"):
        non_negative_columns(frame, ["n"])


def test_rollup_frame_is_made_consistent():
    frame = pl.DataFrame(
        {
            "region": [None, "N", "N", "S", "S"],
            "city": [None, None, "a", None, "b"],
            "count": [100.0, 58.0, 61.0, 40.0, 37.0],
        }
    )
    out = consistent_frame(frame, ["region", "city"], "count")
    got = dict(zip(zip(out["region"], out["city"], strict=True), out["count"], strict=True))
    assert got[(None, None)] == pytest.approx(got[("N", None)] + got[("S", None)])
    assert got[("N", None)] == pytest.approx(got[("N", "a")])
    a, _ = _leaf_matrix(np.array([-1, 0, 1, 0, 3]))
    leaves, *_ = np.linalg.lstsq(a, frame["count"].to_numpy(), rcond=None)
    assert out["count"].to_numpy() == pytest.approx(a @ leaves)


@pytest.mark.parametrize(
    ("values", "parent", "variances", "match"),
    [
        ([1, 2], [-1], None, "same length"),
        ([1, 2], [-1, 5], None, "indices"),
        ([1, 2, 3], [-1, 2, 1], None, "cycle"),
        ([1, 2], [-1, 1], None, "cycle"),
        ([1, np.nan], [-1, 0], None, "NaN"),
        (["a", "b"], [-1, 0], None, "numbers"),
        ([1, 2], [-1.0, 0.0], None, "integer"),
        ([1, 2], [-1, 0], [1, 0], "> 0"),
    ],
)
def test_bad_trees_are_input_errors(values, parent, variances, match):
    with pytest.raises(InputError, match=match):
        consistent_tree(values, parent, variances=variances)


def test_nested_grouped_releases_are_made_consistent_with_their_variances():
    total = pl.DataFrame({"count": [100.0]})
    regions = pl.DataFrame({"region": ["S", "N"], "count": [40.0, 58.0]})
    cities = pl.DataFrame({"city": ["b", "a"], "region": ["S", "N"], "count": [37, 61]})
    var = [4.0, 1.0, 2.0]
    out = consistent_levels([total, regions, cities], ["region", "city"], "count", variances=var)
    assert out[1]["region"].to_list() == ["S", "N"] and out[2]["city"].to_list() == ["b", "a"]
    t, (s, n), (b, a) = out[0]["count"][0], out[1]["count"], out[2]["count"]
    assert t == pytest.approx(s + n) and s == pytest.approx(b) and n == pytest.approx(a)
    tree = consistent_tree([100, 58, 61, 40, 37], [-1, 0, 1, 0, 3], variances=[4, 1, 2, 1, 2])
    assert [t, n, a, s, b] == pytest.approx(tree.estimate.tolist())
    with pytest.raises(InputError, match="give 3 releases"):
        consistent_levels([total, regions], ["region", "city"], "count")
    with pytest.raises(InputError, match="no column"):
        consistent_levels([total, cities.drop("region"), cities], ["region", "city"], "count")


def test_bad_rollups_are_input_errors():
    frame = pl.DataFrame({"a": [None, "x"], "b": ["y", None], "n": [1.0, 2.0]})
    with pytest.raises(InputError, match="null before"):
        consistent_frame(frame, ["a", "b"], "n")
    with pytest.raises(InputError, match="no column"):
        consistent_frame(frame, ["a"], "count")
    dup = pl.DataFrame({"a": ["x", "x"], "n": [1.0, 2.0]})
    with pytest.raises(InputError, match="duplicate"):
        consistent_frame(dup, ["a"], "n")
