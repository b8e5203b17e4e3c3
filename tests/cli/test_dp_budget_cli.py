"""``privlab dp release -q Q@ε --budget-file`` and ``privlab dp budget init|show``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from privlab.cli.dp_budget import plan_queries
from privlab.cli.main import app
from privlab.errors import ConfigError

runner = CliRunner()
SECRET = 987654


@pytest.fixture
def people(tmp_path):
    path = tmp_path / "people.csv"
    rows = ["age,income"] + [f"{20 + i % 50},{SECRET if i == 7 else 1000 * (i % 7)}"
                             for i in range(500)]  # fmt: skip
    path.write_text("\n".join(rows) + "\n")
    return path


def _run(*args):
    return runner.invoke(app, [*map(str, args)])


def test_per_query_budgets_and_the_even_share():
    plan = plan_queries(["count@0.2", "sum:age:0:100@0.5", "mean:age:0:100", "count"], 1.0, 1e-6)
    assert [round(e, 12) for _, e, _ in plan] == [0.2, 0.5, 0.15, 0.15]
    assert all(d == pytest.approx(2.5e-7) for _, _, d in plan)
    assert plan[1][0].label == "sum:age:0:100"


@pytest.mark.parametrize(
    ("queries", "match"),
    [
        (["count@0.6", "sum:age:0:1@0.6"], "count@0.6, sum:age:0:1@0.6 spend ε = 1.2"),
        (["count@1", "mean:age:0:1"], "leave nothing for mean:age:0:1"),
        (["count@x"], "not a number"),
        (["count@0"], "ε"),
        (["@0.5"], "QUERY@EPSILON"),
    ],
)
def test_bad_per_query_budgets(queries, match):
    with pytest.raises(ConfigError, match=match):
        plan_queries(queries, 1.0, 0.0)


def test_release_with_budget_file_until_refused(people, tmp_path):
    ledger = tmp_path / "budget.json"
    first = _run("dp", "release", people, "-q", "count@0.2", "-q", "sum:income:0:6000", "-e",
                 "0.6", "--budget-file", ledger, "--total-epsilon", "1", "--json")  # fmt: skip
    assert first.exit_code == 0, first.output
    out = json.loads(first.stdout)
    assert [r["epsilon"] for r in out["releases"]] == pytest.approx([0.2, 0.4])
    assert out["budget_file"]["basic"]["remaining"]["epsilon"] == pytest.approx(0.4)
    text = ledger.read_text()
    data = json.loads(text)
    assert [r["query"] for r in data["releases"]] == ["count", "sum:income:0:6000"]
    assert {r["input"] for r in data["releases"]} == {"people.csv"}
    assert {r["mechanism"] for r in data["releases"]} <= {"geometric", "laplace"}
    assert str(SECRET) not in text and str(tmp_path) not in text  # no data, no folder
    # the second run would reach 1.2 > 1: exit 2, the ledger unchanged, no answer printed
    before = ledger.read_bytes()
    second = _run("dp", "release", people, "-q", "count", "-e", "0.6", "--budget-file", ledger)
    assert second.exit_code == 2
    assert "over the total" in second.output and "'count'" in second.output
    assert ledger.read_bytes() == before and "answer" not in second.output
    # what fits still goes through
    third = _run("dp", "release", people, "-q", "count", "-e", "0.4", "--budget-file", ledger)
    assert third.exit_code == 0, third.output
    assert len(json.loads(ledger.read_text())["releases"]) == 3


def test_budget_init_and_show(tmp_path, people):
    ledger = tmp_path / "b.json"
    made = _run("dp", "budget", "init", ledger, "--epsilon", "2", "--delta", "1e-6")
    assert made.exit_code == 0, made.output
    for _ in range(20):
        r = _run("dp", "release", people, "-q", "count", "-e", "0.05", "--budget-file", ledger)
        assert r.exit_code == 0, r.output
    shown = _run("dp", "budget", "show", ledger, "--json")
    assert shown.exit_code == 0, shown.output
    status = json.loads(shown.stdout)
    assert status["releases"] == 20
    assert status["basic"]["spent"]["epsilon"] == pytest.approx(1.0)
    # twenty ε = 0.05 releases cost less than 1 by the tight bound at δ = 1e-6
    assert status["tight"]["spent"]["epsilon"] < 1.0
    assert status["tight"]["method"] in ("pld", "zcdp", "rdp")
    human = _run("dp", "budget", "show", ledger)
    assert human.exit_code == 0 and "remaining" in human.output
    again = _run("dp", "budget", "init", ledger, "--epsilon", "5")
    assert again.exit_code == 2 and "exists already" in again.output


def test_ledger_options_need_each_other(people, tmp_path):
    r = _run("dp", "release", people, "-q", "count", "-e", "1", "--total-epsilon", "1")
    assert r.exit_code == 2 and "--budget-file" in r.output
    missing = tmp_path / "none.json"
    r = _run("dp", "release", people, "-q", "count", "-e", "1", "--budget-file", missing)
    assert r.exit_code == 2 and "budget init" in r.output and not missing.exists()
    assert not (tmp_path / "none.json.lock").exists()


def test_gaussian_releases_are_recorded_with_their_delta(people, tmp_path):
    ledger = tmp_path / "b.json"
    args = ["dp", "release", people, "-q", "count", "-q", "histogram:age", "--bins",
            "age=0:100:10", "-e", "0.5", "--delta", "2e-7", "--budget-file", ledger]  # fmt: skip
    first = _run(*args, "--total-epsilon", "1", "--total-delta", "1e-6")
    assert first.exit_code == 0, first.output
    entries = json.loads(ledger.read_text())["releases"]
    assert [e["kind"] for e in entries] == ["approximate", "approximate"]
    assert [e["delta"] for e in entries] == pytest.approx([1e-7, 1e-7])
    assert {e["mechanism"] for e in entries} == {"discrete_gaussian"}
    # a total δ of 0 cannot hold a δ > 0 release: refused, nothing created
    zero = tmp_path / "zero.json"
    r = _run(*args[:-1], zero, "--total-epsilon", "5")
    assert r.exit_code == 2 and "δ" in r.output and not zero.exists()
