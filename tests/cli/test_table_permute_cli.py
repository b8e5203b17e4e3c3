"""``privlab table permute`` / ``privlab table query``: happy paths and bad input (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from tests.table.conftest import postgres_dsn  # noqa: F401 - the session's PostgreSQL server

runner = CliRunner()

# Seed 001 Table 2.1 (names left out with --identifying name).
TABLE_2_1 = """name,age,zipcode,gender,salary
Alex,35,27101,M,54000
Bob,38,27120,M,55000
Carol,40,27130,M,56000
Debra,41,27229,F,65000
Evan,43,27269,F,75000
Frank,47,27243,M,70000
Gary,52,27656,M,80000
Henry,53,27686,F,75000
Ina,58,27635,M,85000
"""
TABLE_2_2 = "group_id,age,zipcode,gender\n0,[31-40],271*,*\n1,[41-50],272*,*\n2,[51-60],276*,*\n"
DISEASES = "age;zip;disease\n" + "".join(
    f"{20 + i};{13000 + i % 3};{d}\n" for i, d in enumerate(["flu", "hiv", "cold"] * 4)
)
Q2 = "SELECT SUM(salary) FROM t WHERE age BETWEEN 35 AND 55"


def run(args: list) -> object:
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    data = tmp_path / "t21.csv"
    data.write_text(TABLE_2_1, encoding="utf-8")
    labels = tmp_path / "t22.csv"
    labels.write_text(TABLE_2_2, encoding="utf-8")
    diseases = tmp_path / "diseases.csv"
    diseases.write_text(DISEASES, encoding="utf-8")
    return {"data": data, "labels": labels, "diseases": diseases, "out": tmp_path / "release"}


def permute(files, *extra, data=None):
    return run(
        [
            "table",
            "permute",
            data or files["data"],
            "--qi",
            "age,zipcode,gender",
            "--sensitive",
            "salary",
            "--identifying",
            "name",
            "-o",
            files["out"],
            *extra,
        ]
    )


def assert_rejected(result, files, *fragments, written=False):
    assert result.exit_code == 2, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output
    assert "Traceback" not in result.output
    if not written:
        assert not files["out"].exists()


@pytest.fixture
def release(files) -> Path:
    result = permute(files, "--k", "3", "--e", "1000", "--json")
    assert result.exit_code == 0, result.output
    return files["out"]


# ------------------------------------------------------------------ happy paths


def test_permute_writes_release_and_summary(files):
    result = permute(files, "--k", "3", "--e", "1000", "--partition", "min-sum", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["groups"] == 3 and summary["rows"] == 9 and summary["kind"] == "numeric"
    assert {p.name for p in files["out"].iterdir()} == {"qi.parquet", "sa.parquet", "release.json"}


@pytest.mark.parametrize("method", ["min-max", "max-group", "random", "swap", "exact-min-max"])
def test_permute_partitioners(files, method):
    result = permute(files, "--k", "2", "--e", "1000", "--partition", method, "--seed", "1")
    assert result.exit_code == 0, result.output
    q = run(["table", "query", files["out"], "SELECT COUNT(*) FROM t WHERE gender = 'F'", "--json"])
    assert q.exit_code == 0, q.output
    assert json.loads(q.output)["exact"] == 3


def test_query_json_reproduces_worked_example(release):
    result = run(["table", "query", release, Q2, "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert (answer["lower"], answer["upper"], answer["exact"]) == (530_000, 540_000, None)
    assert answer["generalized"]["lower"] == 375_000  # tightest box: group 1 is covered
    assert answer["generalized"]["upper"] == 615_000
    assert answer["backend"] == "duckdb" and "GROUP BY group_id" in answer["rewritten_sql"]


def test_query_with_seed_table_2_2_and_python_backend(release, files):
    result = run(
        [
            "table",
            "query",
            release,
            Q2,
            "--generalization",
            files["labels"],
            "--backend",
            "python",
            "--json",
        ]
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert (answer["generalized"]["lower"], answer["generalized"]["upper"]) == (210_000, 615_000)
    assert answer["generalized"]["source"] == "labels" and answer["backend"] == "python"


def test_query_table_output(release):
    result = run(["table", "query", release, "SELECT MIN(salary) FROM t WHERE gender = 'F'"])
    assert result.exit_code == 0, result.output
    assert "65,000" in result.output and "70,000" in result.output
    assert "generalized" in result.output


def test_query_on_postgres(release, postgres_dsn):  # noqa: F811
    result = run(["table", "query", release, Q2, "--dsn", postgres_dsn, "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["backend"] == "postgres"
    assert (answer["lower"], answer["upper"]) == (530_000, 540_000)


def test_anatomy_release_counts(files):
    result = run(
        [
            "table",
            "permute",
            files["diseases"],
            "--qi",
            "age",
            "--qi",
            "zip",
            "--sensitive",
            "disease",
            "--anatomy",
            "--l",
            "3",
            "-o",
            files["out"],
            "--json",
        ]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["kind"] == "categorical"
    q = run(["table", "query", files["out"], "SELECT COUNT(*) FROM t WHERE age < 26", "--json"])
    assert q.exit_code == 0, q.output
    assert json.loads(q.output)["exact"] == 6
    bad = run(["table", "query", files["out"], "SELECT SUM(disease) FROM t"])
    assert bad.exit_code == 2 and "categorical" in bad.output


# ------------------------------------------------------------ bad input: exit 2, nothing written


def test_infeasible_k(files):
    assert_rejected(permute(files, "--k", "20", "--e", "10"), files, "k = 20", "distinct")


def test_infeasible_e(files):
    assert_rejected(permute(files, "--k", "2", "--e", "1000000"), files, "e = 1e+06", "span")


def test_missing_columns(files):
    result = run(
        [
            "table",
            "permute",
            files["data"],
            "--qi",
            "age,height",
            "--sensitive",
            "salary",
            "--k",
            "2",
            "--e",
            "1",
            "-o",
            files["out"],
        ]
    )
    assert_rejected(result, files, "height", "not found")


def test_a_column_without_a_role_is_refused_naming_the_file(files):
    """Without --identifying name, 'name' has no role: the error names the input file (not
    the library's anonymous frame) and the column, and nothing is written."""
    result = run(
        ["table", "permute", files["data"], "--qi", "age,zipcode,gender", "--sensitive",
         "salary", "--k", "2", "--e", "1", "-o", files["out"]]
    )  # fmt: skip
    assert_rejected(result, files, str(files["data"].name), "'name'", "no role")
    assert "<data frame>" not in result.output


def test_non_numeric_sensitive_value(files, tmp_path):
    data = tmp_path / "bad.csv"
    data.write_text(TABLE_2_1.replace("55000", "lots"), encoding="utf-8")
    result = permute(files, "--k", "2", "--e", "1", data=data)
    assert_rejected(result, files, "column 'salary': 1 row (first at line 3)")
    assert "lots" not in result.output


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        ([], "give --k and --e"),
        (["--k", "3"], "give --k and --e"),
        (["--anatomy"], "--anatomy needs --l"),
        (["--anatomy", "--l", "2", "--k", "3"], "--k is for (k,e)"),
        (["--l", "2", "--k", "3", "--e", "1"], "--l is for --anatomy"),
        (["--k", "3", "--e", "1", "--partition", "best"], "--partition 'best'"),
    ],
)
def test_option_conflicts(files, extra, fragment):
    assert_rejected(permute(files, *extra), files, fragment)


def test_output_directory_not_empty(files):
    files["out"].mkdir()
    (files["out"] / "keep.txt").write_text("x")
    for extra in ((), ("--overwrite",)):  # --overwrite replaces only an earlier release
        result = permute(files, "--k", "3", "--e", "1000", *extra)
        assert_rejected(result, files, "not empty", "not a permutation release", written=True)
        assert [p.name for p in files["out"].iterdir()] == ["keep.txt"]


def test_overwrite_replaces_an_earlier_release_only(files):
    assert permute(files, "--k", "3", "--e", "1000").exit_code == 0
    result = permute(files, "--k", "2", "--e", "1000")
    assert_rejected(result, files, "holds a previous permutation release", "--overwrite",
                    written=True)  # fmt: skip
    assert permute(files, "--k", "2", "--e", "1000", "--overwrite").exit_code == 0


def test_output_directory_holding_the_input_is_refused(files, tmp_path):
    folder = files["data"].parent
    result = run(["table", "permute", files["data"], "--qi", "age,zipcode", "--sensitive",
                  "salary", "--k", "3", "--e", "1000", "-o", folder, "--overwrite"])  # fmt: skip
    assert result.exit_code == 2 and "holds the input" in result.output
    assert files["data"].is_file()


def test_where_on_sensitive_attribute(release, files):
    result = run(["table", "query", release, "SELECT AVG(salary) FROM t WHERE salary > 60000"])
    assert_rejected(
        result,
        files,
        "the sensitive attribute salary cannot appear in WHERE",
        "filter on quasi-identifiers only",
        written=True,
    )


def test_unknown_column_and_bad_sql(release, files):
    result = run(["table", "query", release, "SELECT SUM(salary) FROM t WHERE height > 3"])
    assert_rejected(result, files, "unknown column 'height'", "age, zipcode, gender", written=True)
    result = run(["table", "query", release, "SELECT SUM(salary) FROM t GROUP BY age"])
    assert_rejected(result, files, "GROUP", written=True)


def test_dsn_that_cannot_connect(release, files):
    dsn = "postgresql://bob:topsecret@127.0.0.1:1/db?connect_timeout=3"
    result = run(["table", "query", release, Q2, "--dsn", dsn])
    assert_rejected(
        result, files, "cannot connect to PostgreSQL", "bob:***@127.0.0.1:1", written=True
    )
    assert "topsecret" not in result.output


def test_query_on_a_directory_that_is_no_release(files, tmp_path):
    result = run(["table", "query", tmp_path, Q2])
    assert_rejected(result, files, "release.json")


# ------------------------------------------------------------ --target (seed 001 ch. 3)
# Seed 001 Table 3.1's salary domain {30, 40, 50, 60}K under a uniform target; a zip-code
# group {40, 30, 50} is published as {[30–60], [30–40], [50–60]} (Table 3.2).
TARGET_DATA = "zip,gender,salary\n" + "".join(
    f"{z},{g},{s}\n"
    for z, g, s in [(91110, "F", 40), (91110, "M", 30), (91110, "F", 50),
                    (91120, "M", 40), (91120, "F", 60), (91120, "M", 60), (91120, "F", 60)]
)  # fmt: skip


def target_files(tmp_path, target_text):
    data, target = tmp_path / "t31.csv", tmp_path / "target.csv"
    data.write_text(TARGET_DATA, encoding="utf-8")
    target.write_text(target_text, encoding="utf-8")
    return data, target, tmp_path / "trel"


def permute_target(data, target, out, *extra):
    return run(["table", "permute", data, "--qi", "zip,gender", "--sensitive", "salary",
                "--target", target, "-o", out, *extra])  # fmt: skip


def test_target_release_generalizes_each_group_to_the_target(tmp_path):
    uniform = "value,probability\n30,0.25\n40,0.25\n50,0.25\n60,0.25\n"
    data, target, out = target_files(tmp_path, uniform)
    result = permute_target(data, target, out, "--groups", "zip", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["parameters"]["model"] == "target-distribution" and summary["groups"] == 2
    sa = pl.read_parquet(out / "sa.parquet")
    group = sa.join(pl.read_parquet(out / "qi.parquet").filter(pl.col("zip") == 91110)
                    .select("group_id").unique(), on="group_id")  # fmt: skip
    assert sorted(zip(group["lo"], group["hi"], strict=True)) == [(30, 40), (30, 60), (50, 60)]
    q = run(["table", "query", out, "SELECT AVG(salary) FROM t WHERE zip = 91110", "--json"])
    answer = json.loads(q.output)
    assert answer["lower"] <= 40 <= answer["upper"]  # the true average lies in the bounds


@pytest.mark.parametrize(
    ("target_text", "extra", "fragment"),
    [
        ("value,probability\n30,0.5\n40,x\n", [], "line 3"),
        ("value,weight\n30,1\n", [], "missing column(s) probability"),
        ("value,probability\n30,0.5\n40,0.5\n", [], "not in the hierarchy's domain"),
        ("value,probability\n30,1\n40,1\n50,1\n60,1\n", ["--k", "2"], "cannot be combined"),
        ("value,probability\n30,1\n40,1\n50,1\n60,1\n", ["--target-mode", "x"], "qi-sa"),
    ],
)
def test_target_bad_input(tmp_path, target_text, extra, fragment):
    data, target, out = target_files(tmp_path, target_text)
    result = permute_target(data, target, out, *extra)
    assert result.exit_code == 2 and fragment in result.output, result.output
    assert not out.exists()


def test_query_moments_of_the_possible_answers(release):
    # Q2: two of {75, 80, 85}K are summed with 165K + 210K: mean 535K, variance 50/3 (K²)
    result = run(["table", "query", release, Q2, "--moments", "--json"])
    assert result.exit_code == 0, result.output
    spread = json.loads(result.output)["possible_answers"]
    assert spread["mean"] == pytest.approx(535_000)
    assert spread["std"] == pytest.approx((50 / 3) ** 0.5 * 1000)
    text = run(["table", "query", release, Q2, "--moments"])
    assert text.exit_code == 0 and "all possible answers: mean 535,000" in text.output
    bad = run(["table", "query", release, "SELECT MIN(salary) FROM t", "--moments"])
    assert bad.exit_code == 2 and "not min" in bad.output and "Traceback" not in bad.output
