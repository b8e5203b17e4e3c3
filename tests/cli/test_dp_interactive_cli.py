"""``privlab dp above-threshold`` (and the other interactive DP commands of seed 000)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from privlab.cli.main import app

runner = CliRunner()


@pytest.fixture
def towns(tmp_path):
    path = tmp_path / "towns.csv"
    towns = ["Oslo"] * 600 + ["Rome"] * 3 + ["Bergen"] * 400
    path.write_text("town\n" + "\n".join(towns) + "\n")
    return path


def test_above_threshold_reports_hits_only_and_stops(towns):
    result = runner.invoke(app, [
        "dp", "above-threshold", str(towns), "-q", "town=Rome", "-q", "town=Oslo",
        "-q", "town=Bergen", "-q", "town=Paris", "-t", "200", "-e", "1", "-c", "2",
        "--seed", "5", "--json",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    # counts 3, 600, 400, 0 against 200: the noise (scales 2 and 4) cannot bridge ~200
    assert [q["answer"] for q in out["queries"]] == ["below", "above", "above", "not asked"]
    assert out["epsilon"] == 1.0 and out["insecure_seed"] is True
    for exact in ("600", "400", "1003"):
        assert exact not in result.stdout  # no exact statistic of the input


def test_above_threshold_refuses_empty_cells(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("town,x\nOslo,1\n,2\n")
    result = runner.invoke(app, ["dp", "above-threshold", str(path), "-q", "town=Oslo",
                                 "-t", "1", "-e", "1"])  # fmt: skip
    assert result.exit_code == 2 and "empty cells" in result.output


def test_quantile_and_mode_release_no_exact_statistic(towns, tmp_path):
    mode = runner.invoke(app, ["dp", "mode", str(towns), "--column", "town", "--candidates",
                               "Rome,Oslo,Bergen", "-e", "1", "--seed", "1", "--json"])  # fmt: skip
    assert mode.exit_code == 0, mode.output
    out = json.loads(mode.stdout)
    # Oslo leads Bergen by 200: exp(-200/2) makes anything else vanishingly unlikely
    assert out["value"] == "Oslo" and out["mechanism"] == "exponential (textbook)"
    assert "600" not in mode.stdout and "400" not in mode.stdout
    path = tmp_path / "ages.csv"
    path.write_text("age\n" + "\n".join(str(20 + i % 41) for i in range(2001)) + "\n")
    q = runner.invoke(app, ["dp", "quantile", str(path), "--column", "age", "--low", "0",
                            "--high", "120", "-e", "1", "--seed", "2", "--json"])  # fmt: skip
    assert q.exit_code == 0, q.output
    value = json.loads(q.stdout)["value"]
    assert 35 <= value <= 45  # true median 40; ±5 ranks of 2001 cost exp(-1000/2)


def test_kmeans_halving_from_the_command_line(tmp_path):
    path = tmp_path / "pts.csv"
    rows = [f"{10 + i % 3},{20 + i % 2}" for i in range(1500)]
    rows += [f"{80 + i % 3},{90 + i % 2}" for i in range(1500)]
    path.write_text("x,y\n" + "\n".join(rows) + "\n")
    args = ["dp", "kmeans", str(path), "--features", "x,y", "-k", "2", "-e", "20",
            "--bounds", "x=0:100", "--bounds", "y=0:100", "--seed", "3", "--json"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["mechanism"] == "kmeans (halving budget)" and out["epsilon"] <= 20
    got = sorted(out["value"])
    assert abs(got[0][0] - 11) < 5 and abs(got[1][0] - 81) < 5
    fixed = runner.invoke(app, [*args, "--iterations", "4"])
    assert json.loads(fixed.stdout)["parameters"]["iterations"] == 4


def test_node_degrees_prints_a_noisy_histogram_of_theta_plus_one_bins(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("".join(f"0 {i}\n" for i in range(1, 400)))  # a star: one hub, 399 leaves
    result = runner.invoke(app, ["dp", "node-degrees", str(path), "--theta", "3", "-e", "5",
                                 "--seed", "2", "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["parameters"]["sensitivity"] == 7 and len(out["value"]) == 4
    # projected: the hub keeps 3 edges → degrees 3, 1, 1, 1 and 396 × 0 (scale 7/5 noise)
    assert abs(out["value"][0] - 396) < 25 and abs(out["value"][1] - 3) < 25
    assert "399" not in result.stdout and "400" not in result.stdout
