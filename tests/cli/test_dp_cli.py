"""``privlab dp release``: queries on one budget, bins fixed in advance, bad input exits 2."""

from __future__ import annotations

import json
import math

import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.dp.sampling import delta
from privlab.table.sample import census_sample

runner = CliRunner()


@pytest.fixture
def people(tmp_path):
    path = tmp_path / "people.csv"
    rows = ["age,sex,income"] + [
        f"{20 + i % 50},{'F' if i % 3 else 'M'},{1000 * (i % 7)}" for i in range(3000)
    ]
    path.write_text("\n".join(rows) + "\n")
    return path


def _run(*args):
    return runner.invoke(app, ["dp", "release", *map(str, args)])


def test_release_splits_the_budget_and_answers_each_query(people):
    result = _run(
        people, "-q", "count", "-q", "histogram:sex", "-q", "sum:income:0:6000",
        "-q", "mean:age:0:100", "--bins", "sex=F,M,X", "-e", "2000", "--seed", "1", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["insecure_seed"] is True
    assert out["budget"]["spent"]["epsilon"] == pytest.approx(2000)
    answers = {r["query"]: r for r in out["releases"]}
    assert all(r["epsilon"] == pytest.approx(500) for r in answers.values())
    # ε = 500 per query: noise of scale ≤ 6000/500 — close to the truth
    assert abs(answers["count"]["value"] - 3000) <= 5
    assert answers["histogram:sex"]["parameters"]["bins"] == ["F", "M", "X"]
    hist = answers["histogram:sex"]["value"]
    assert abs(hist[0] - 2000) <= 5 and abs(hist[1] - 1000) <= 5 and abs(hist[2]) <= 5
    true_income = sum(1000 * (i % 7) for i in range(3000))
    assert abs(answers["sum:income:0:6000"]["value"] - true_income) < 200
    assert abs(answers["mean:age:0:100"]["value"] - 44.5) < 0.5


def test_numeric_bins_and_gaussian_with_delta(people):
    result = _run(people, "-q", "histogram:age", "--bins", "age=0:100:10", "-e", "1",
                  "--delta", "1e-6", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    (rel,) = json.loads(result.stdout)["releases"]
    assert rel["parameters"]["mechanism"] == "discrete_gaussian"
    assert rel["parameters"]["bins"][0] == "[0, 10)" and len(rel["value"]) == 10
    assert rel["delta"] == 1e-6


def test_table_output_warns_about_fixed_seeds(people):
    result = _run(people, "-q", "count", "-e", "1", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "NOT private" in result.stderr  # a warning, on stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-q", "histogram:sex", "-e", "1"], "give its bins"),
        (["-q", "bogus", "-e", "1"], "not understood"),
        (["-q", "count", "-e", "0"], "--epsilon"),
        (["-q", "count", "-e", "1", "--delta", "1.5"], "--delta"),
        (["-q", "sum:nope:0:1", "-e", "1"], "no column 'nope'"),
        (["-q", "sum:sex:0:1", "-e", "1"], "column 'sex': 3000 rows with a value that is not"),
        (["-q", "histogram:sex", "--bins", "sex=F", "-e", "1"], "none of the bins"),
        (["-q", "histogram:age", "--bins", "age=0:30:10", "-e", "1"], "outside the bins"),
        (["-q", "sum:age:5:1", "-e", "1"], "low < high"),
        (["-q", "sum:age", "-e", "1"], "clamping bounds"),
    ],
)
def test_bad_input_exits_2_with_a_message(people, args, message):
    result = _run(people, *args)
    assert result.exit_code == 2
    assert message in result.output


# ---------------------------------------------------------------------------- params
def test_params_from_delta_gives_the_tight_k():
    result = runner.invoke(app, ["dp", "params", "-e", "1", "--delta", "1e-5", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["k"] == 61  # ARX SafePub says 62; 61 already satisfies Theorem 3.9
    assert out["delta"] <= 1e-5
    assert out["beta"] == pytest.approx(1 - math.exp(-1))


def test_params_from_beta_and_k():
    result = runner.invoke(app, ["dp", "params", "-e", "2", "--beta", "0.8", "-k", "100"])
    assert result.exit_code == 0, result.output
    assert "100" in result.stdout and "0.8" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-e", "1"], "give --delta"),
        (["-e", "1", "--delta", "1e-5", "--beta", "0.5"], "not both"),
        (["-e", "0.5", "--beta", "0.9", "-k", "10"], "beta"),
        (["-e", "1", "--delta", "2"], "delta"),
    ],
)
def test_params_bad_input(args, message):
    result = runner.invoke(app, ["dp", "params", *args])
    assert result.exit_code == 2
    assert message in result.output


# ---------------------------------------------------------------------------- safe-kanon
@pytest.fixture
def census_files(tmp_path):
    s = census_sample(3000, seed=2)
    data = tmp_path / "census.csv"
    s.frame.write_csv(data)
    args = [str(data)]
    for c in s.quasi_identifiers:
        path = tmp_path / f"h_{c}.csv"
        s.hierarchies[c].to_csv(path)
        args += ["--qi", c, "--hierarchy", f"{c}={path}"]
    return [*args, "--identifying", "id", "--insensitive", "disease"]


def test_safe_kanon_strongly_safe_with_fixed_levels(census_files, tmp_path):
    args = census_files
    out = tmp_path / "release.csv"
    levels = "zip=3,age=2,sex=1,education=1,marital-status=1"
    result = runner.invoke(app, ["dp", "safe-kanon", *args, "-o", str(out), "-e", "1",
                                 "--beta", "0.5", "-k", "8", "--levels", levels, "--seed", "1",
                                 "--json", "--non-private-diagnostics"])  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    exact = summary["non_private_diagnostics"]
    assert exact["not_sampled"] + exact["suppressed"] + summary["released"] == 3000
    assert summary["delta"] == delta(8, 0.5, 1.0)
    release = pl.read_csv(out, infer_schema=False)
    assert release.height == summary["released"] and "id" not in release.columns
    assert release.group_by(release.columns).len()["len"].min() >= 8


def test_safe_kanon_eps_safe_chooses_levels(census_files, tmp_path):
    args = census_files
    out = tmp_path / "release.csv"
    result = runner.invoke(app, ["dp", "safe-kanon", *args, "-o", str(out), "-e", "2",
                                 "--delta", "1e-4", "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["selection"]["selection_epsilon"] == pytest.approx(0.2)
    assert summary["delta"] <= 1e-4 and summary["insecure_seed"] is False
    assert out.exists()


def test_safe_kanon_refuses_data_built_hierarchies_and_writes_nothing(census_files, tmp_path):
    args = census_files
    out = tmp_path / "release.csv"
    args = [a if not a.startswith("age=") else "age=interval:width=10" for a in args]
    result = runner.invoke(app, ["dp", "safe-kanon", *args, "-o", str(out), "-e", "1",
                                 "--delta", "1e-5"])  # fmt: skip
    assert result.exit_code == 2
    assert "void the differential-privacy guarantee" in result.output
    assert not out.exists()
