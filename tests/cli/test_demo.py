"""``privlab demo``: the README's first command, end to end on the generated sample."""

from __future__ import annotations

import json

import polars as pl
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.table.assess import assess
from privlab.table.data import MicroTable
from privlab.table.hierarchy import Hierarchy
from privlab.table.models import DistinctLDiversity, KAnonymity

runner = CliRunner()


def test_demo_prints_risk_before_and_after():
    result = runner.invoke(app, ["demo", "--rows", "2000"])
    assert result.exit_code == 0, result.output
    assert "re-identification risk" in result.stdout
    assert "sample" in result.stdout and "release" in result.stdout


def test_demo_json_shows_risk_falls(tmp_path):
    result = runner.invoke(app, ["demo", "--rows", "3000", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    before, after = summary["risk_before"], summary["risk_after"]
    assert before["prosecutor_highest_risk"] == 1.0
    assert after["prosecutor_highest_risk"] <= 1 / 5
    assert after["smallest_class"] >= 5
    assert after["records"] + after["suppressed"] == 3000
    assert after["suppressed"] == summary["anonymization"]["suppressed"] <= 0.05 * 3000
    assert after["prosecutor_average_risk"] < before["prosecutor_average_risk"]


def test_demo_writes_a_job_that_reproduces_the_release(tmp_path):
    out = tmp_path / "demo"
    result = runner.invoke(app, ["demo", "--rows", "1500", "-k", "3", "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    levels = json.loads(result.stdout)["anonymization"]["levels"]
    again = runner.invoke(
        app, ["table", "anonymize", "--job", str(out / "job.toml"), "-o", str(tmp_path / "r.csv"),
              "--json"]
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["levels"] == levels
    first = pl.read_csv(out / "release.csv", infer_schema=False)
    second = pl.read_csv(tmp_path / "r.csv", infer_schema=False)
    assert first.equals(second)
    assert "id" not in first.columns
    # the released (not suppressed) records really satisfy the models
    kept = first.filter(pl.col("zip") != "*")
    hier = {c: Hierarchy.flat(kept[c].unique().to_list()) for c in kept.columns[:-1]}
    table = MicroTable.from_data(
        kept, quasi_identifiers=list(hier), hierarchies=hier, sensitive=["disease"]
    )
    report = assess(table, [KAnonymity(3), DistinctLDiversity("disease", 2)])
    assert report.k >= 3 and all(report.models.values()), report.models


def test_demo_bad_parameters_exit_2_and_write_nothing(tmp_path):
    out = tmp_path / "demo"
    for args in (["-k", "0"], ["--suppression", "2"], ["--rows", "3"], ["--population", "10"]):
        result = runner.invoke(app, ["demo", "-o", str(out), *args])
        assert result.exit_code == 2, (args, result.output)
        assert "error" in result.output
    assert not out.exists()
