"""Safe by default on the command line: every column needs a role (anonymize, permute,
safe-kanon agree), identifier-like columns are named with the fix, automatic hierarchies
are announced and recorded, and ``--save-job`` reproduces the release."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.cli.specs import parse_hierarchy_spec
from tests.cli.test_hierarchy_cli import assert_rejected as assert_refused

runner = CliRunner()


def run(args: list[object]):
    return runner.invoke(app, [str(a) for a in args])


def make_people(path: Path, n: int = 60, seed: int = 5) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pl.DataFrame(
        {
            "name": [f"Person {i}" for i in range(n)],
            "age": [str(a) for a in rng.integers(17, 91, n)],
            "zip": rng.choice(["13053", "13068", "14853"], n).tolist(),
            "sex": rng.choice(["F", "M"], n).tolist(),
            "severity": rng.choice(["low", "medium", "high", "critical"], n).tolist(),
            "salary": [str(s) for s in rng.integers(20, 90, n) * 1000],
        }
    )
    frame.write_csv(path)
    return frame


@pytest.fixture
def people(tmp_path):
    path = tmp_path / "people.csv"
    return path, make_people(path), tmp_path / "out.csv"


def anonymize(path: Path, out: Path, *extra: object):
    return run(["table", "anonymize", path, "--qi", "age", "--qi", "zip",
                "--hierarchy", "zip=masking", "-k", "3", "--suppression", "20%",
                "-o", out, *extra])  # fmt: skip


# ---------------------------------------------------------------------------- roles
def test_undeclared_columns_are_refused_and_listed(people):
    path, _, out = people
    result = anonymize(path, out, "--sensitive", "salary")
    assert_refused(result, out, "3 columns have no role", "'name'", "'sex'", "'severity'",
                   "--identifying name", "--insensitive sex", "--keep-other-columns")  # fmt: skip
    # the identifier-like column comes first, with its reason
    lines = result.output.splitlines()
    assert "'name' looks like a person's name" in lines[1]


@pytest.mark.parametrize(
    "declare",
    [["--insensitive", "sex,severity"], ["--insensitive", "sex", "--insensitive", "severity"],
     ["--keep-other-columns"]],
)  # fmt: skip
def test_insensitive_or_keep_other_columns_release_them_unchanged(people, declare):
    path, frame, out = people
    result = anonymize(path, out, "--sensitive", "salary", "--identifying", "name", *declare)
    assert result.exit_code == 0, result.output
    release = pl.read_csv(out, infer_schema=False)
    assert release.columns == ["age", "zip", "sex", "severity", "salary"]
    assert release["severity"].to_list() == frame["severity"].to_list()


def test_kept_identifier_is_warned_about_with_the_fix(people):
    path, _, out = people
    result = anonymize(path, out, "--sensitive", "salary", "--keep-other-columns", "--json")
    assert result.exit_code == 0, result.output
    assert "warning: column 'name' is released unchanged (--keep-other-columns)" in result.stderr
    assert "--identifying name" in result.stderr
    assert any("'name'" in w for w in json.loads(result.stdout)["warnings"])


def test_nearly_unique_text_column_is_named(people, tmp_path):
    _, frame, out = people
    notes = frame.with_columns(pl.Series("remark", [f"called {i} times" for i in range(60)]))
    data = tmp_path / "notes.csv"
    notes.write_csv(data)
    result = anonymize(data, out, "--sensitive", "salary", "--identifying", "name",
                       "--insensitive", "sex,severity")  # fmt: skip
    assert_refused(result, out, "'remark' is text with a distinct value on 100% of its rows",
                   "--identifying remark")  # fmt: skip


def test_permute_and_anonymize_refuse_the_same_columns(people, tmp_path):
    path, _, out = people
    rel = tmp_path / "release"
    perm = run(["table", "permute", path, "--qi", "age,zip", "--sensitive", "salary",
                "--k", "3", "--e", "5000", "-o", rel])  # fmt: skip
    anon = anonymize(path, out, "--sensitive", "salary")
    assert perm.exit_code == anon.exit_code == 2
    assert perm.output.splitlines()[1:] == anon.output.splitlines()[1:]
    assert not rel.exists() and not out.exists()
    # declared alike, both release the insensitive column and leave the identifying one out
    roles = ["--identifying", "name", "--insensitive", "sex,severity"]
    perm = run(["table", "permute", path, "--qi", "age,zip", "--sensitive", "salary",
                "--k", "3", "--e", "5000", "-o", rel, *roles])  # fmt: skip
    assert perm.exit_code == 0, perm.output
    qi = pl.read_parquet(rel / "qi.parquet")
    assert qi.columns == ["tuple_id", "age", "zip", "sex", "severity", "group_id"]
    assert json.loads((rel / "release.json").read_text())["insensitive"] == ["sex", "severity"]
    assert anonymize(path, out, "--sensitive", "salary", *roles).exit_code == 0
    assert "name" not in pl.read_csv(out).columns


def test_safe_kanon_refuses_undeclared_columns(people, tmp_path):
    path, _, out = people
    hier = tmp_path / "sex.csv"
    hier.write_text("F;*\nM;*\n", encoding="utf-8")
    args = ["dp", "safe-kanon", path, "-o", out, "--qi", "sex", "--hierarchy", f"sex={hier}",
            "-e", "1", "--beta", "0.5", "-k", "2", "--levels", "sex=1", "--seed", "1"]  # fmt: skip
    assert_refused(run(args), out, "have no role", "'name'", "--identifying name", "'salary'")
    ok = run([*args, "--identifying", "name", "--insensitive", "age,zip,severity,salary"])
    assert ok.exit_code == 0, ok.output
    assert "warning: column 'zip' is released unchanged (--insensitive)" in ok.stderr


# ---------------------------------------------------------------------------- hierarchies
def test_numeric_qi_gets_an_announced_and_recorded_interval_hierarchy(people):
    path, _, out = people
    result = anonymize(path, out, "--sensitive", "salary", "--identifying", "name",
                       "--insensitive", "sex,severity", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    note = "note: age: no hierarchy given; using interval:width=10,fanout=2,start=10"
    assert note in result.stderr and "--hierarchy age=" in result.stderr
    summary = json.loads(result.stdout)
    assert summary["automatic_hierarchies"] == {"age": "interval:width=10,fanout=2,start=10"}
    ages = set(pl.read_csv(out, infer_schema=False)["age"].to_list())
    assert ages <= {"*"} | {f"{a}-{a + w - 1}" for w in (10, 20, 40, 80, 160) for a in
                            range(10, 100, w)}  # fmt: skip


def test_save_job_round_trip_gives_the_identical_release(people, tmp_path):
    path, _, out = people
    job = tmp_path / "jobs" / "job.toml"
    job.parent.mkdir()
    result = anonymize(path, out, "--sensitive", "salary", "--identifying", "name",
                       "--insensitive", "sex", "--insensitive", "severity",
                       "--save-job", job, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    saved = tomllib.loads(job.read_text(encoding="utf-8"))
    assert saved["input"] == "../people.csv" and saved["insensitive"] == ["sex", "severity"]
    assert saved["hierarchy"] == {"zip": "masking", "age": "interval:width=10,fanout=2,start=10"}
    assert saved["k"] == 3 and saved["suppression"] == "20%"
    again = tmp_path / "again.csv"
    rerun = run(["table", "anonymize", "--job", job, "-o", again, "--json"])
    assert rerun.exit_code == 0, rerun.output
    assert again.read_bytes() == out.read_bytes()
    first, second = json.loads(result.stdout), json.loads(rerun.stdout)
    for key in ("levels", "value", "suppressed", "equivalence_classes"):
        assert first[key] == second[key]
    assert second["automatic_hierarchies"] == {}  # the job spells the choice out
    assert "note:" not in rerun.stderr


def test_save_job_is_not_written_on_error(people, tmp_path):
    path, _, out = people
    job = tmp_path / "job.toml"
    result = anonymize(path, out, "--sensitive", "salary", "--save-job", job)
    assert_refused(result, out, "no role")
    assert not job.exists()


def test_job_file_declares_roles(people, tmp_path):
    _, _, out = people
    job = tmp_path / "job.toml"
    job.write_text(
        'input = "people.csv"\nqi = ["zip"]\nidentifying = "name"\nkeep_other_columns = true\n'
        'k = 3\n[hierarchy]\nzip = "masking"\n',
        encoding="utf-8",
    )
    result = run(["table", "anonymize", "--job", job, "-o", out])
    assert result.exit_code == 0, result.output
    assert pl.read_csv(out).columns == ["age", "zip", "sex", "severity", "salary"]


def test_text_qi_without_hierarchy_is_refused_naming_the_builders(people):
    path, _, out = people
    result = anonymize(path, out, "--qi", "sex", "--sensitive", "salary",
                       "--identifying", "name", "--insensitive", "severity")  # fmt: skip
    assert_refused(result, out, "quasi-identifier 'sex' has no hierarchy", "sex=FILE",
                   "sex=order", "sex=masking", "sex=date", "interval:width=W",
                   "sex=flat")  # fmt: skip


def test_flat_hierarchy_is_accepted(people):
    path, _, out = people
    result = anonymize(path, out, "--qi", "sex", "--hierarchy", "sex=flat", "--sensitive",
                       "salary", "--identifying", "name", "--insensitive", "severity",
                       "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["levels"]["sex"] in (0, 1)
    assert set(pl.read_csv(out)["sex"].to_list()) <= {"F", "M", "*"}


def test_order_with_an_explicit_value_order(people):
    spec = parse_hierarchy_spec("order:values=low/medium/high/critical,group=2")
    assert spec.params == {"group_size": 2, "order": ["low", "medium", "high", "critical"]}
    h = spec.build(["high", "low", "critical", "medium"], column="severity")
    assert h.to_rows() == [
        ["low", "low-medium", "low-critical", "*"],
        ["medium", "low-medium", "low-critical", "*"],
        ["high", "high-critical", "low-critical", "*"],
        ["critical", "high-critical", "low-critical", "*"],
    ]
    path, _, out = people
    result = anonymize(path, out, "--qi", "severity", "--sensitive", "salary",
                       "--hierarchy", "severity=order:values=low/medium/high/critical",
                       "--identifying", "name", "--insensitive", "sex", "-k", "25",
                       "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    level = json.loads(result.stdout)["levels"]["severity"]
    released = set(pl.read_csv(out)["severity"].to_list())
    labels = [{"low", "medium", "high", "critical"}, {"low-medium", "high-critical"},
              {"low-critical"}, {"*"}]  # fmt: skip
    assert released <= labels[level] | {"*"}


def test_order_values_must_cover_the_column(people):
    path, _, out = people
    result = anonymize(path, out, "--qi", "severity", "--sensitive", "salary",
                       "--hierarchy", "severity=order:values=low/medium/high",
                       "--identifying", "name", "--insensitive", "sex")  # fmt: skip
    assert_refused(result, out, "not in the given order")


# ---------------------------------------------------------------------------- assessment
def test_check_and_risk_accept_extra_columns_and_no_hierarchy(people):
    path, _, _ = people
    check = run(["table", "check", path, "--qi", "age", "--qi", "sex", "--json"])
    assert check.exit_code == 0, check.output
    assert json.loads(check.stdout)["records"] == 60
    risk = run(["table", "risk", path, "--qi", "age", "--qi", "sex", "--json"])
    assert risk.exit_code == 0, risk.output
    assert "warning" not in risk.output and "note:" not in risk.output
