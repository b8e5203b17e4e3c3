"""DP queries: sensitivities (with the seed's corrections), bins fixed in advance, accuracy."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.dp.queries import (
    clamped_mean,
    clamped_sum,
    count,
    degree_histogram,
    degree_sequence,
    histogram,
    kmeans,
)
from privlab.errors import ConfigError, InputError

HUGE = 60.0  # noise scale 1/60: P(any noise) ≈ 2e^{-60}, i.e. the exact answer


@given(st.lists(st.sampled_from(["a", "b", "c"]), max_size=50))
@settings(max_examples=50)
def test_histogram_with_huge_epsilon_is_exact_and_keeps_empty_bins(values):
    r = histogram(np.array(values, dtype=object), ["c", "a", "b", "z"], HUGE, seed=1)
    expected = [values.count(x) for x in ["c", "a", "b", "z"]]
    assert r.value.tolist() == expected
    assert r.parameters["sensitivity"] == 1  # whatever the number of bins


def test_histogram_rejects_values_outside_the_bins_counting_them():
    with pytest.raises(InputError, match=r"values: 2 value\(s\) in none of the bins") as err:
        histogram(np.array([0, 1, 7, 9]), 3, 1.0)
    assert "row" not in str(err.value) and "7" not in str(err.value)
    with pytest.raises(ConfigError):
        histogram(np.array([0]), ["a", "a"], 1.0)


def test_count_and_its_noise():
    noisy = np.array([count(np.zeros(1000), 1.0, seed=i).value for i in range(2000)])
    assert abs(noisy.mean() - 1000) < 0.2
    assert count(np.zeros(10), HUGE, seed=0).value == 10


def test_clamped_sum_clamps_and_uses_max_abs_bound():
    values = np.array([-5.0, 0.5, 2.0, 100.0])
    r = clamped_sum(values, -1, 3, 30_000.0, seed=2)  # Laplace scale 1e-4
    assert r.parameters["sensitivity"] == 3
    assert r.value == pytest.approx(-1 + 0.5 + 2 + 3, abs=1e-2)
    assert clamped_sum(np.array([1, 2, 9]), 0, 5, HUGE * 5, seed=3).value == 8


def test_clamped_mean_spends_epsilon_once():
    r = clamped_mean(np.full(10_000, 4.0), 0, 10, 1.0, seed=4)
    assert r.epsilon == 1.0
    assert abs(r.value - 4.0) < 0.05
    with pytest.raises(ConfigError, match="bounds"):
        clamped_mean(np.ones(3), 2, 1, 1.0)


def test_kmeans_finds_separated_clusters():
    rng = np.random.default_rng(0)
    centres = np.array([[0.2, 0.2], [0.8, 0.8]])
    points = np.concatenate([c + 0.02 * rng.standard_normal((5000, 2)) for c in centres])
    r = kmeans(points, 2, 10.0, iterations=5, seed=5)
    found = np.sort(r.value[:, 0])
    assert r.parameters["laplace_scale"] == pytest.approx(3 * 5 / 10.0)
    assert np.allclose(found, [0.2, 0.8], atol=0.05)


def test_kmeans_rescales_bounds():
    points = np.array([[10.0, 100.0]] * 2000 + [[20.0, 200.0]] * 2000)
    r = kmeans(points, 1, 20.0, bounds=([0, 0], [30, 300]), iterations=2, seed=6)
    assert np.allclose(r.value[0], [15, 150], rtol=0.02)


def test_degree_sensitivities_use_the_corrections():
    g = nx.karate_club_graph()
    seq = degree_sequence(g, HUGE * 4, k_edges=2, seed=7)
    assert seq.parameters["sensitivity"] == 4  # 2k
    assert seq.value.tolist() == sorted((d for _, d in g.degree()), reverse=True)
    hist = degree_histogram(g, HUGE * 8, max_degree=33, k_edges=2, seed=8)
    assert hist.parameters["sensitivity"] == 8  # 4k, not the thesis's 2k
    assert hist.value.sum() == 34


def test_degree_histogram_one_edge_moves_four_counts():
    # the argument for 4k: adding one edge between two degree-1 nodes of a path
    before = np.bincount([1, 2, 2, 1], minlength=4)
    after = np.bincount([2, 2, 2, 2], minlength=4)
    assert np.abs(before - after).sum() == 4
    before = np.bincount([1, 3, 3, 3], minlength=5)
    after = np.bincount([2, 4, 3, 3], minlength=5)  # edge between a degree-1 and a degree-3 node
    assert np.abs(before - after).sum() == 4


def test_degree_histogram_needs_fixed_max_degree():
    with pytest.raises(InputError, match="max_degree"):
        degree_histogram([1, 5], 1.0, max_degree=3)
    with pytest.raises(InputError):
        degree_sequence([1, -1], 1.0)
