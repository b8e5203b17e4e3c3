"""``privlab dp quantile`` with several -p values sharing ε."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from privlab.cli.main import app

runner = CliRunner()


@pytest.fixture
def ages(tmp_path):
    path = tmp_path / "ages.csv"
    path.write_text("age\n" + "\n".join(str(i % 101) for i in range(2020)) + "\n")
    return path


def _run(path, *extra):
    return runner.invoke(app, ["dp", "quantile", str(path), "--column", "age", "--low", "0",
                               "--high", "100", "-e", "3", "--seed", "4", *extra])  # fmt: skip


def test_several_quantiles_share_the_budget_and_come_out_sorted(ages):
    result = _run(ages, "-p", "0.9", "-p", "0.1", "-p", "0.5", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    p90, p10, p50 = out["value"]
    assert out["epsilon"] == 3.0 and out["parameters"]["epsilon_per_quantile"] == 1.0
    assert out["parameters"]["quantiles"] == [0.9, 0.1, 0.5]
    assert p10 <= p50 <= p90
    # uniform 0..100 over 2020 rows: ±10 ranks per unit of value; ε = 1 each
    assert abs(p10 - 10) < 3 and abs(p50 - 50) < 3 and abs(p90 - 90) < 3
    text = _run(ages, "-p", "0.9", "-p", "0.1")
    assert text.exit_code == 0 and text.stdout.count("quantile ≈") == 2
    assert "ε = 1.5 of 3" in text.stdout


def test_one_quantile_is_released_as_before(ages):
    out = json.loads(_run(ages, "-p", "0.25", "--json").stdout)
    assert isinstance(out["value"], float)
    assert out["mechanism"] == "exponential (continuous range, quantile)"
    assert out["parameters"]["quantile"] == 0.25


def test_repeated_or_bad_levels_are_refused(ages):
    for extra, message in ((["-p", "0.5", "-p", "0.5"], "once"),
                           (["-p", "0.5", "-p", "1.5"], "--quantile")):  # fmt: skip
        result = _run(ages, *extra)
        assert result.exit_code == 2 and message in result.output


def test_joint_release_spends_the_whole_budget_at_once(ages):
    result = _run(ages, "-p", "0.1", "-p", "0.5", "-p", "0.9", "--joint", "--candidates",
                  "101", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["mechanism"].startswith("joint") and out["parameters"]["candidates"] == 101
    p10, p50, p90 = out["value"]
    assert p10 <= p50 <= p90 and abs(p10 - 10) < 3 and abs(p90 - 90) < 3
    assert all(float(v).is_integer() for v in out["value"])  # grid 0, 1, …, 100
    for extra in (["--joint", "--candidates", "1"], ["--candidates", "50"]):
        bad = _run(ages, *extra)
        assert bad.exit_code == 2 and "--candidates" in bad.output
