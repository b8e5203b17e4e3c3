"""``privlab dp release`` grouped: -q median/quantile, interval columns, --non-negative."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from tests.cli.test_dp_groupby_cli import _run


@pytest.fixture
def visits(tmp_path):
    """400 people with 1–3 visits in 2 regions; integer costs in [0, 1024]."""
    rng = np.random.default_rng(6)
    person = np.repeat(np.arange(400), rng.integers(1, 4, 400))
    region = rng.choice(["north", "south"], person.size)
    frame = pl.DataFrame({"person": person, "region": region,
                          "cost": rng.integers(0, 1025, person.size)})  # fmt: skip
    frame.write_csv(tmp_path / "visits.csv")
    return tmp_path, frame


def test_median_and_quantile_per_group_at_huge_epsilon(visits):
    d, frame = visits
    result = _run(d / "visits.csv", "-q", "median:cost:0:1024", "-q", "quantile:cost:0:1024:0.9",
                  "--groupby", "region", "--key", "region=north,south", "-e", "1e7",
                  "--privacy-unit", "person", "--max-rows-per-unit", "3",
                  "--max-groups-per-unit", "2", "--seed", "1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    med = payload["aggregations"][0]
    assert med["name"] == "median(cost)" and med["figures"]["q"]["max_rows"] == 6
    for row in payload["groups"]:
        x = np.sort(frame.filter(pl.col("region") == row["region"])["cost"].to_numpy())
        # the rank of the released candidate is within a rounding of the true rank
        below = np.searchsorted(x, row["median(cost)"], side="left")
        above = x.size - np.searchsorted(x, row["median(cost)"], side="right")
        assert abs(below - above) <= 1
        assert abs(np.searchsorted(x, row["quantile0.9(cost)"]) - 0.9 * x.size) <= 2


def test_a_median_alone_is_a_grouped_release(visits):
    d, _ = visits
    result = _run(d / "visits.csv", "-q", "median:cost:0:1024@0.5", "-e", "1", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert list(payload["groups"][0]) == ["median(cost)"]
    assert payload["aggregations"][0]["epsilon"] == 0.5


@pytest.mark.parametrize(
    "query, message",
    [
        ("median:cost", "clamping bounds"),
        ("median:cost:0:x", "must be numbers"),
        ("median:cost:9:1", "low < high"),
        ("quantile:cost:0:100", "quantile:COL:LOW:HIGH:P"),
        ("quantile:cost:0:100:1.5", "must be in [0, 1]"),
        ("quantile:cost:0:100:p", "must be numbers"),
        ("median:region:0:1", "not a finite number"),
        ("quantile::0:1:0.5", "quantile:COL:LOW:HIGH:P"),
    ],
)
def test_bad_quantile_queries_exit_2_and_write_nothing(visits, query, message):
    d, _ = visits
    result = _run(d / "visits.csv", "-e", "1", "-q", query, "--groupby", "region",
                  "--key", "region=north", "-o", d / "res.csv")  # fmt: skip
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not (d / "res.csv").exists()


def test_non_negative_clips_counts_sums_and_their_intervals_only(visits):
    d, _ = visits
    args = [d / "visits.csv", "-q", "count", "-q", "sum:cost:0:1024", "-q", "sum:person:-500:500",
            "-q", "mean:cost:0:1024", "--groupby", "region",
            "--key", "region=north,south," + ",".join(f"e{i}" for i in range(40)),
            "-e", "0.3", "--seed", "2", "--json"]  # fmt: skip
    raw = json.loads(_run(*args).stdout)
    result = _run(*args, "--non-negative")
    assert result.exit_code == 0, result.output
    clipped = json.loads(result.stdout)
    assert any("--non-negative" in n for n in clipped["notes"])
    assert clipped["budget"] == raw["budget"]  # post-processing: the same spend
    before = pl.DataFrame(raw["groups"])
    after = pl.DataFrame(clipped["groups"])
    for col in ("count", "sum(cost)"):
        for name in (col, f"{col} ci_low", f"{col} ci_high"):
            assert after[name].to_list() == before[name].clip(lower_bound=0).to_list()
    # the empty groups' counts were negative somewhere before (else the test shows nothing)
    assert (before["count"] < 0).any()
    for name in ("sum(person)", "sum(person) ci_low", "mean(cost)"):  # LOW < 0; a mean
        assert after[name].to_list() == before[name].to_list()
    assert (before["sum(person) ci_low"] < 0).any()
