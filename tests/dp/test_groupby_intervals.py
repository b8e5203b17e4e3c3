"""95 % intervals in grouped releases (privlab.dp.groupby + privlab.dp.accuracy): coverage by
simulation over many groups, the exact discrete-Laplace coverage for counts, and no interval
for a median."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from privlab.dp.accuracy import geometric_noise
from privlab.dp.groupby import Aggregation, grouped_release
from privlab.errors import ConfigError

GROUPS = 3000


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(12)
    g = rng.integers(0, GROUPS, 120000)
    return pl.DataFrame({"g": g, "x": rng.integers(0, 11, g.size),
                         "y": rng.uniform(-1, 3, g.size) + (g % 5)})  # fmt: skip


def _truth(table):
    return (
        table.with_columns(pl.col("y").clip(0, 4))
        .group_by("g")
        .agg(pl.len().alias("n"), pl.col("x").sum().alias("s"), pl.col("y").mean().alias("m"),
             pl.col("y").var(ddof=0).alias("v"))
        .sort("g")
    )


def _covered(frame, name, truth):
    return float(np.mean((frame[f"{name} ci_low"].to_numpy() <= truth)
                         & (truth <= frame[f"{name} ci_high"].to_numpy())))  # fmt: skip


@pytest.mark.parametrize("mechanism, delta", [("laplace", 0.0), ("gaussian", 1e-6)])
def test_interval_coverage_over_many_groups(table, mechanism, delta):
    aggs = [Aggregation("count"), Aggregation("sum", "x", 0, 10), Aggregation("mean", "y", 0, 4),
            Aggregation("variance", "y", 0, 4), Aggregation("std", "y", 0, 4)]  # fmt: skip
    r = grouped_release(table, by=["g"], aggregations=aggs, epsilon=10, delta=delta,
                        mechanism=mechanism, keys={"g": list(range(GROUPS))},
                        seed=np.random.default_rng(3))  # fmt: skip
    truth = _truth(table)
    assert r.frame["g"].to_list() == truth["g"].to_list()
    sd = np.sqrt(0.05 * 0.95 / GROUPS)
    cover = {name: _covered(r.frame, name, truth[col].to_numpy())
             for name, col in (("count", "n"), ("sum(x)", "s"), ("mean(y)", "m"),
                               ("variance(y)", "v"))}  # fmt: skip
    cover["std(y)"] = _covered(r.frame, "std(y)", np.sqrt(truth["v"].to_numpy()))
    # value ± margin (count, sum) and the union-bound boxes (mean, variance, std): ≥ 95 %
    for name, value in cover.items():
        assert value >= 0.95 - 4 * sd, (name, cover)
    # the intervals are not vacuous: narrower than the clamping range for most groups
    width = r.frame["mean(y) ci_high"] - r.frame["mean(y) ci_low"]
    assert float((width < 2).mean()) > 0.9


def test_count_coverage_matches_the_exact_discrete_laplace_coverage(table):
    r = grouped_release(table, by=["g"], aggregations=[Aggregation("count")], epsilon=0.5,
                        keys={"g": list(range(GROUPS))}, seed=np.random.default_rng(4))  # fmt: skip
    fig = r.aggregations[0]["figures"]["n"]
    law = geometric_noise(fig["scale"])
    margin = law.margin()
    half = (r.frame["count ci_high"] - r.frame["count ci_low"]).to_numpy() / 2
    assert np.all(half == margin)
    cover = _covered(r.frame, "count", _truth(table)["n"].to_numpy())
    exact = law.coverage()
    assert exact >= 0.95 and abs(cover - exact) <= 4 * np.sqrt(exact * (1 - exact) / GROUPS)


def test_median_gets_no_interval_and_confidence_none_drops_them(table):
    r = grouped_release(table, by=["g"], aggregations=[Aggregation("median", "x", 0, 10),
                        Aggregation("count")], epsilon=1, keys={"g": [0, 1]}, seed=1)  # fmt: skip
    assert r.frame.columns == ["g", "median(x)", "count", "count ci_low", "count ci_high"]
    bare = grouped_release(table, by=["g"], aggregations=[Aggregation("count")], epsilon=1,
                           keys={"g": [0, 1]}, confidence=None, seed=1)  # fmt: skip
    assert bare.frame.columns == ["g", "count"]
    with pytest.raises(ConfigError, match="confidence"):
        grouped_release(table, by=["g"], aggregations=[Aggregation("count")], epsilon=1,
                        keys={"g": [0]}, confidence=1.5)  # fmt: skip
