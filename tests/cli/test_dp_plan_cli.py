"""``privlab dp plan`` (the error for ε, the ε for an error) and the error bars of
``privlab dp release``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.dp.accuracy import query_error

runner = CliRunner()


def _plan(*args):
    return runner.invoke(app, ["dp", "plan", *map(str, args)])


def test_plan_for_an_epsilon_prints_the_exact_count_error():
    result = _plan("count", "-e", "1", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["error"] == 3 and out["mechanism"] == "geometric" and out["noise"]["exact"]
    assert out["query"] == "count" and "no data" in out["cost"]


def test_plan_for_an_error_round_trips():
    result = _plan("sum:0:100", "--error", "50", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["error"] <= 50 and out["target_error"] == 50
    assert query_error("sum", out["epsilon_below"], low=0, high=100).error > 50


def test_plan_of_a_mean_with_a_privacy_unit_and_gaussian_noise():
    args = ["mean:0:10", "-e", "1", "--delta", "1e-6", "--n", "2000", "--max-rows-per-unit", "3"]
    result = _plan(*args, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["l2_sensitivity"] == 30 and out["n"] == 2000
    expected = query_error("mean", 1, low=0, high=10, delta=1e-6, n=2000, rows_per_unit=3)
    assert out["error"] == pytest.approx(expected.error)
    table = _plan(*args)
    assert table.exit_code == 0 and "± error at 0.95" in table.stdout


def test_plan_bad_input_exits_2_without_traceback():
    for args in (["count"], ["mean:0:1", "-e", "1"], ["count", "-e", "1", "--confidence", "2"]):
        result = _plan(*args)
        assert result.exit_code == 2 and "Traceback" not in result.output


def test_release_shows_the_95_percent_error_bars(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("x\n" + "\n".join(str(i % 10) for i in range(200)) + "\n")
    args = ["dp", "release", str(path), "-q", "count", "-q", "mean:x:0:10", "-e", "1"]
    result = runner.invoke(app, [*args, "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    count, mean = json.loads(result.stdout)["releases"]
    acc = count["accuracy"]
    assert acc["ci_low"] == count["value"] - acc["margin"] and acc["margin"] >= 1
    assert mean["accuracy"]["ci_low"] <= mean["value"] <= mean["accuracy"]["ci_high"]
    table = runner.invoke(app, [*args, "--seed", "2"])
    assert table.exit_code == 0 and "±95 %" in table.stdout and f"±{acc['margin']}" in table.stdout
