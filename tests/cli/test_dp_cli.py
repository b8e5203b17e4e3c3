"""``privlab dp release``: queries on one budget, bins fixed in advance, bad input exits 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from privlab.cli.main import app

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
    assert "NOT private" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-q", "histogram:sex", "-e", "1"], "give its bins"),
        (["-q", "bogus", "-e", "1"], "not understood"),
        (["-q", "count", "-e", "0"], "--epsilon"),
        (["-q", "count", "-e", "1", "--delta", "1.5"], "--delta"),
        (["-q", "sum:nope:0:1", "-e", "1"], "no column 'nope'"),
        (["-q", "sum:sex:0:1", "-e", "1"], "line 2, column 'sex'"),
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
