"""benchmarks/bench_dp_groupby.py: its data, exact answers, MAE and timing are right.

The harness is checked on fake "mechanisms" run like the anchors (a fresh subprocess each):
one with zero noise must score MAE 0, one adding 1 to every answer MAE 1, and a call that
burns a known CPU time must be measured at least that long.  Anchors are run only where they
can be imported by this interpreter (they live in throw-away virtualenvs otherwise).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_dp_groupby as bench


def test_generated_units_have_bounded_rows_and_one_group_each(tmp_path):
    info = bench.generate(tmp_path, rows=2_000, groups=7, rows_per_unit=10)
    data = pl.read_parquet(tmp_path / "data.parquet")
    assert data.height == 2_000 and info["units"] == 200
    per_unit = data.group_by("uid").agg(pl.len(), pl.col("g").n_unique().alias("groups"))
    assert per_unit["len"].max() == 10 and per_unit["groups"].max() == 1
    assert data["x"].min() >= bench.LOW and data["x"].max() <= bench.HIGH
    keys = pl.read_parquet(tmp_path / "keys.parquet")["g"].to_list()
    assert keys == list(range(7)) and sorted(data["g"].unique().to_list()) == keys
    # same seed, same file
    again = tmp_path / "again"
    again.mkdir()
    bench.generate(again, rows=2_000, groups=7, rows_per_unit=10)
    assert pl.read_parquet(again / "data.parquet").equals(data)


def test_exact_answers_match_numpy(tmp_path):
    bench.generate(tmp_path, rows=3_000, groups=5, rows_per_unit=10)
    data = pl.read_parquet(tmp_path / "data.parquet")
    exact = bench.exact_answers(tmp_path)
    g, x = data["g"].to_numpy(), data["x"].to_numpy()
    assert sum(v[0] for v in exact.values()) == 3_000
    for k, (cnt, total, mean, median) in exact.items():
        part = x[g == k]
        assert cnt == part.size
        assert total == pytest.approx(part.sum())
        assert mean == pytest.approx(part.mean())
        assert median == pytest.approx(np.median(part))


def test_mae_by_hand():
    exact = {0: [10.0, 100.0, 10.0, 9.0], 1: [20.0, 50.0, 2.5, 3.0], 2: [5.0, 5.0, 1.0, 1.0]}
    answers = {
        "g": [1, 0],  # group 2 not released, order differs from the exact answers
        "count": [22.0, 7.0],
        "sum": [50.0, 104.0],
        "mean": [float("nan"), 11.0],
        "median": [None, 9.5],
    }
    m = bench.mae(answers, exact)
    assert m["missing_groups"] == 1
    assert m["count"] == pytest.approx((2 + 3) / 2)
    assert m["sum"] == pytest.approx(2.0)
    assert m["mean"] == pytest.approx(1.0) and m["mean non-finite"] == 1
    assert m["median"] == pytest.approx(0.5) and m["median non-finite"] == 1


@pytest.fixture(scope="module")
def quick_rows():
    """One --quick run (10^5 rows) of the fakes and the privlab row, each in a subprocess."""
    args = bench.parse_args(
        ["--quick", "--anchors", "fake-exact,fake-offset,privlab", "--burn", "0.3", "--quiet"]
    )
    return bench.run(args)


def test_zero_noise_scores_zero_and_offset_scores_one(quick_rows):
    exact, offset = quick_rows["fake-exact"], quick_rows["fake-offset"]
    for stat in bench.STATS:
        assert exact["mae"][stat] == 0.0
        assert offset["mae"][stat] == pytest.approx(1.0, abs=1e-9)
    assert exact["mae"]["missing_groups"] == 0 and len(exact["answers"]["g"]) == 1_000


def test_times_and_memory_are_measured(quick_rows):
    r = quick_rows["fake-exact"]
    # the call burns 0.3 s of CPU: both clocks see it, the whole process at least as much
    assert 0.3 <= r["call_cpu"] <= r["process_cpu"]
    assert r["call_wall"] >= 0.3 * 0.5  # wall ≥ CPU / 2 cores
    assert r["process_wall"] >= r["call_wall"]
    assert 20 < r["peak_rss_mib"] < 4_000  # polars + 10^5 rows: tens to hundreds of MiB


def test_privlab_row_runs_or_says_why(quick_rows):
    r = quick_rows["privlab"]
    if importlib.util.find_spec("privlab.dp.groupby") is None:
        assert r["unavailable"] == bench.NOT_AVAILABLE and "answers" not in r
        return
    assert r["mae"]["missing_groups"] == 0
    # ε = 1, 10 rows per unit: the count's Laplace noise has scale ≈ 40, never hundreds
    assert 0 < r["mae"]["count"] < 200


@pytest.mark.parametrize("anchor", ["opendp", "pipelinedp", "diffprivlib"])
def test_installed_anchor_releases_every_group(anchor, tmp_path):
    if importlib.util.find_spec(bench.MODULES[anchor]) is None:
        pytest.skip(f"{bench.MODULES[anchor]} is not installed in this interpreter")
    args = bench.parse_args(
        [
            "--rows",
            "20000",
            "--groups",
            "20",
            "--anchors",
            anchor,
            "--quiet",
            "--tmp",
            str(tmp_path),
        ]
    )
    r = bench.run(args)[anchor]
    assert "answers" in r, r
    assert r["mae"]["missing_groups"] == 0 and r["call_cpu"] > 0


def test_a_row_over_its_time_limit_is_ended_and_reported(tmp_path):
    args = bench.parse_args(
        [
            "--rows",
            "2000",
            "--groups",
            "5",
            "--anchors",
            "fake-exact",
            "--burn",
            "60",
            "--timeout",
            "3",
            "--quiet",
            "--tmp",
            str(tmp_path),
        ]
    )
    r = bench.run(args)["fake-exact"]
    assert "answers" not in r and r["error"].startswith("timed out after 3 s")
