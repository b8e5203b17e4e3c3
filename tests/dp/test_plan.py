"""``privlab.dp.accuracy`` planning: the error for an ε, the ε for an error (round trips)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privlab.dp.accuracy import EPSILON_RANGE, epsilon_for_error, query_error
from privlab.dp.queries import clamped_sum, count
from privlab.errors import ConfigError


def test_count_error_is_the_discrete_laplace_margin_by_hand():
    # DLap(1/ε): P(|Z| > k) = 2p^{k+1}/(1 + p), p = e^{−ε}; ε = 1: k = 3 is the first ≤ 5 %
    p = math.exp(-1)
    assert 2 * p**3 / (1 + p) > 0.05 >= 2 * p**4 / (1 + p)
    assert query_error("count", 1.0).error == 3


def test_plan_and_release_use_the_same_noise():
    plan = query_error("count", 0.7)
    release = count(np.zeros(5), 0.7, seed=1)
    assert plan.error == release.accuracy["margin"]
    s_plan = query_error("sum", 0.3, low=-2.5, high=4.0)
    s_release = clamped_sum(np.array([0.5, 1.5]), -2.5, 4.0, 0.3, seed=1)
    assert s_plan.error == pytest.approx(s_release.accuracy["margin"])
    assert s_plan.l1_sensitivity == 4.0


def test_privacy_unit_bounds_multiply_the_sensitivity():
    base = query_error("histogram", 1.0, delta=1e-6)
    unit = query_error("histogram", 1.0, delta=1e-6, rows_per_unit=3, groups_per_unit=4)
    assert (unit.l1_sensitivity, unit.l2_sensitivity) == (12.0, 6.0)
    assert unit.noise["scale"] > 5.9 * base.noise["scale"]  # σ grows linearly in Δ₂
    lap = query_error("sum", 1.0, low=0, high=10, rows_per_unit=5)
    assert lap.l1_sensitivity == 50 and lap.noise["scale"] == 50


@pytest.mark.parametrize(
    ("kind", "target", "options"),
    [
        ("count", 5.0, {}),
        ("count", 2.5, {"confidence": 0.99}),
        ("histogram", 40.0, {"delta": 1e-6, "groups_per_unit": 4}),
        ("sum", 50.0, {"low": 0, "high": 100}),
        ("sum", 7.5, {"low": -1.5, "high": 2.25}),
        ("sum", 500.0, {"low": 0, "high": 100, "delta": 1e-5}),
        ("mean", 1.0, {"low": 0, "high": 100, "n": 1000}),
        ("mean", 0.2, {"low": 0, "high": 10, "n": 500, "delta": 1e-6}),
    ],
)
def test_epsilon_for_error_round_trip_is_valid_and_tight(kind, target, options):
    plan = epsilon_for_error(target, kind, **options)
    assert plan.target_error == target
    assert plan.error <= target  # error(ε(X)) ≤ X
    assert query_error(kind, plan.epsilon, **options).error == plan.error
    # tight: a hair less ε misses the target
    assert plan.epsilon_below is not None and plan.epsilon_below >= plan.epsilon / (1 + 2e-6)
    assert query_error(kind, plan.epsilon_below, **options).error > target


def test_an_easy_target_returns_the_smallest_epsilon_searched():
    plan = epsilon_for_error(10**9, "count")
    assert plan.epsilon == EPSILON_RANGE[0] and plan.error <= 10**9


def test_error_decreases_with_epsilon():
    errors = [query_error("sum", e, low=0, high=1000, delta=1e-6).error for e in (0.1, 0.5, 2, 8)]
    assert errors == sorted(errors, reverse=True)


def test_bad_plans_are_config_errors():
    with pytest.raises(ConfigError, match="n"):
        query_error("mean", 1.0, low=0, high=1)
    with pytest.raises(ConfigError, match="bounds"):
        query_error("sum", 1.0, low=5, high=1)
    with pytest.raises(ConfigError, match="δ > 0"):
        query_error("count", 1.0, mechanism="gaussian")
    with pytest.raises(ConfigError, match="pure"):
        query_error("count", 1.0, mechanism="laplace", delta=1e-6)
    with pytest.raises(ConfigError, match="out of reach"):
        epsilon_for_error(1e-9, "sum", low=0.5, high=1.5)  # the grid rounding alone is more
    with pytest.raises(ConfigError, match="target error"):
        epsilon_for_error(-1, "count")
