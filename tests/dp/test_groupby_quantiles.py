"""Grouped median and quantiles in privlab.dp.groupby.grouped_release: exact answers at huge
ε, the privacy-unit rule (max_rows = G·R), the zCDP conversion, and private keys."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from privlab.dp.groupby import Aggregation, grouped_release

# bounds [0, 1024]: the 1025 candidates are exactly the integers 0..1024
LOW, HIGH = 0, 1024


@pytest.fixture(scope="module")
def small():
    return pl.DataFrame({
        "g": ["a"] * 3 + ["b"] * 5,
        "x": [1, 5, 9, 100, 200, 300, 400, 500],
        "u": [0, 1, 2, 3, 4, 5, 6, 7],
    })  # fmt: skip


def test_median_and_quantile_are_exact_at_huge_epsilon(small):
    aggs = [Aggregation("median", "x", LOW, HIGH),
            Aggregation("quantile", "x", LOW, HIGH, quantile=0.9),
            Aggregation("quantile", "x", LOW, HIGH, quantile=0.0)]  # fmt: skip
    # the 0-quantile: every candidate ≤ the smallest value scores 0 (ties): uniform on them
    r = grouped_release(small, by=["g"], aggregations=aggs, epsilon=1e7,
                        keys={"g": ["a", "b"]}, seed=3)  # fmt: skip
    out = {row["g"]: row for row in r.frame.to_dicts()}
    # a: {1, 5, 9} → median 5; b: median 300; the 0.9-quantile of 5 values: the largest
    # (score −|0.1·4 − 0.9·0| = −0.4 beats −0.5 just below it)
    assert out["a"]["median(x)"] == 5 and out["b"]["median(x)"] == 300
    assert out["a"]["quantile0.9(x)"] == 9 and out["b"]["quantile0.9(x)"] == 500
    assert out["a"]["quantile0(x)"] <= 1 and out["b"]["quantile0(x)"] <= 100
    assert r.frame.columns == ["g", "median(x)", "quantile0.9(x)", "quantile0(x)"]


def test_answers_are_candidates_inside_the_bounds_and_vary_at_small_epsilon(small):
    aggs = [Aggregation("median", "x", LOW, HIGH)]
    seen = set()
    for seed in range(20):
        r = grouped_release(small, by=["g"], aggregations=aggs, epsilon=0.5,
                            keys={"g": ["a", "b", "empty"]}, seed=seed)  # fmt: skip
        values = r.frame["median(x)"].to_numpy()
        assert np.all((values >= LOW) & (values <= HIGH)) and np.all(values == np.rint(values))
        seen.add(float(values[2]))
    assert len(seen) > 10  # the empty group's answer is uniform over 1025 candidates


def test_privacy_unit_rule_gives_each_group_max_rows_g_times_r():
    rng = np.random.default_rng(5)
    frame = pl.DataFrame({"u": np.repeat(np.arange(300), 4), "g": rng.integers(0, 3, 1200),
                          "x": rng.integers(0, 100, 1200)})  # fmt: skip
    r = grouped_release(frame, by=["g"], aggregations=[Aggregation("median", "x", 0, 100)],
                        epsilon=1.0, privacy_unit="u", max_rows_per_unit=2,
                        max_groups_per_unit=3, keys={"g": [0, 1, 2]}, seed=1)  # fmt: skip
    fig = r.aggregations[0]["figures"]["q"]
    # one unit: ≤ 3 groups × ≤ 2 rows; the exponential mechanism's loss is linear in the
    # rows it adds, so M = 3·2 = 6 rows with the whole ε is ε-DP over all groups
    assert fig["max_rows"] == 6 and fig["sensitivity"] == 3.0 and fig["epsilon"] == 1.0
    assert r.budget.epsilon == pytest.approx(1.0)
    one = grouped_release(frame, by=["g"], aggregations=[Aggregation("median", "x", 0, 100)],
                          epsilon=1.0, keys={"g": [0, 1, 2]}, seed=1)  # fmt: skip
    assert one.aggregations[0]["figures"]["q"]["max_rows"] == 1


def test_gaussian_mechanism_gives_the_quantile_epsilon_of_its_rho_share(small):
    aggs = [Aggregation("count"), Aggregation("median", "x", LOW, HIGH)]
    r = grouped_release(small, by=["g"], aggregations=aggs, epsilon=1.0, delta=1e-6,
                        mechanism="gaussian", keys={"g": ["a", "b"]}, seed=2)  # fmt: skip
    med = r.aggregations[1]
    # half of ρ for each aggregation; ε-DP ⇒ ε²/2-zCDP, so ε = √(2·ρ/2)
    assert med["figures"]["q"]["epsilon"] == pytest.approx(math.sqrt(r.rho))
    assert med["rho"] == pytest.approx(r.rho / 2)
    assert r.aggregations[0]["rho"] + med["rho"] == pytest.approx(r.rho)


def test_private_keys_release_medians_of_the_selected_groups_only():
    rng = np.random.default_rng(8)
    big = pl.DataFrame({"g": ["big"] * 2000 + ["tiny"], "x": [7] * 2000 + [900],
                        "u": np.arange(2001)})  # fmt: skip
    r = grouped_release(big, by=["g"], aggregations=[Aggregation("median", "x", LOW, HIGH)],
                        epsilon=1e3, delta=1e-9, seed=rng)  # fmt: skip
    assert r.frame["g"].to_list() == ["big"] and r.frame["median(x)"].item() == 7
