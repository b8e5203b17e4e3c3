"""Every table command reads the same table from a CSV file, a header-less CSV (``--columns``
or the job key ``columns``), a sheet of an Excel workbook (``--sheet``) and a gzip-compressed
CSV, and gives the same result; other files exit 2 naming what they are."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import polars as pl
import pytest
import xlsxwriter
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.table.sample import census_sample

runner = CliRunner()
QI = ["zip", "age", "sex"]


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("inputs")
    s = census_sample(600, seed=4)
    frame = s.frame
    frame.write_csv(tmp / "headed.csv")
    frame.write_csv(tmp / "bare.csv", include_header=False)
    frame.write_csv(tmp / "packed.csv.gz", separator=";", compression="gzip")
    with xlsxwriter.Workbook(tmp / "book.xlsx") as wb:
        pl.DataFrame({"note": ["made by the census office"]}).write_excel(wb, worksheet="notes")
        # ages as numbers, as a spreadsheet holds them: read back as the text "39"
        frame.with_columns(pl.col("age").cast(pl.Int64)).write_excel(wb, worksheet="data")
    hier = []
    for c in s.quasi_identifiers:
        s.hierarchies[c].to_csv(tmp / f"h_{c}.csv")
        hier.append(f"{c}={tmp / f'h_{c}.csv'}")
    return {"dir": tmp, "columns": ",".join(frame.columns), "hier": hier}


def sources(files) -> dict[str, list[str]]:
    """The same table, four ways: a path and the options that read it."""
    d = files["dir"]
    return {
        "csv": [d / "headed.csv"],
        "header-less": [d / "bare.csv", "--columns", files["columns"]],
        "xlsx": [d / "book.xlsx", "--sheet", "data"],
        "csv.gz": [d / "packed.csv.gz"],
    }


def qi_options(files) -> list[str]:
    return [x for c in QI for x in ("--qi", c)] + hierarchy_options(files)


def hierarchy_options(files) -> list[str]:
    return [x for item in files["hier"] if item.split("=")[0] in QI for x in ("--hierarchy", item)]


def test_anonymize_reads_every_source_alike(files, tmp_path):
    outputs = {}
    for name, source in sources(files).items():
        out = tmp_path / f"{name}.csv"
        result = run(
            "table", "anonymize", *source, *qi_options(files), "--identifying", "id",
            "--keep-other-columns", "-k", "5", "--suppression", "5%", "-o", out,
        )  # fmt: skip
        assert result.exit_code == 0, (name, result.output)
        outputs[name] = out.read_bytes()
    job = tmp_path / "job.toml"
    names = json.dumps(files["columns"].split(","))
    job.write_text(
        f'input = "{files["dir"] / "bare.csv"}"\ncolumns = {names}\n'
        f'identifying = "id"\nkeep_other_columns = true\nk = 5\nsuppression = "5%"\n'
        f'output = "job.csv"\n'
        f"qi = {json.dumps(QI)}\n[hierarchy]\n"
        + "".join(f'{c} = "{files["dir"] / f"h_{c}.csv"}"\n' for c in QI),
        encoding="utf-8",
    )
    result = run("table", "anonymize", "--job", job)
    assert result.exit_code == 0, result.output
    outputs["job"] = (tmp_path / "job.csv").read_bytes()
    assert len(set(outputs.values())) == 1, list(outputs)


@pytest.mark.parametrize("command", ["check", "risk"])
def test_check_and_risk_read_every_source_alike(files, command):
    reports = {}
    for name, source in sources(files).items():
        result = run("table", command, *source, "--qi", "zip", "--qi", "age", "--json")
        assert result.exit_code == 0, (name, result.output)
        reports[name] = json.loads(result.stdout)
    assert all(r == reports["csv"] for r in reports.values())


def test_hierarchy_reads_every_source_alike(files, tmp_path):
    outputs = {}
    for name, (path, *options) in sources(files).items():
        out = tmp_path / f"{name}.csv"
        result = run(
            "table", "hierarchy", "interval", path, *options, "--column", "age", "--width", "10",
            "-o", out,
        )  # fmt: skip
        assert result.exit_code == 0, (name, result.output)
        outputs[name] = out.read_bytes()
    assert len(set(outputs.values())) == 1


def test_permute_reads_every_source_alike(files, tmp_path):
    releases = {}
    for name, source in sources(files).items():
        out = tmp_path / name
        result = run(
            "table", "permute", *source, "--qi", "zip,age", "--sensitive", "disease",
            "--identifying", "id", "--insensitive", "sex,education,marital-status",
            "--anatomy", "--l", "2", "--seed", "1", "-o", out,
        )  # fmt: skip
        assert result.exit_code == 0, (name, result.output)
        releases[name] = [pl.read_parquet(out / f) for f in ("qi.parquet", "sa.parquet")]
    for qi, sa in releases.values():
        assert qi.equals(releases["csv"][0]) and sa.equals(releases["csv"][1])


def test_dp_release_reads_every_source_alike(files):
    answers = {}
    for name, source in sources(files).items():
        result = run(
            "dp", "release", *source, "-q", "count", "-q", "mean:age:0:100", "-e", "1",
            "--seed", "3", "--json",
        )  # fmt: skip
        assert result.exit_code == 0, (name, result.output)
        answers[name] = json.loads(result.stdout)["releases"]
    assert all(a == answers["csv"] for a in answers.values())


def test_dp_safe_kanon_reads_every_source_alike(files, tmp_path):
    outputs = {}
    for name, source in sources(files).items():
        out = tmp_path / f"{name}.csv"
        result = run(
            "dp", "safe-kanon", *source, *qi_options(files), "--identifying", "id",
            "--keep-other-columns", "-o", out,
            "-e", "1", "--beta", "0.5", "-k", "8", "--levels", "zip=3,age=2,sex=1",
            "--seed", "1",
        )  # fmt: skip
        assert result.exit_code == 0, (name, result.output)
        outputs[name] = out.read_bytes()
    assert len(set(outputs.values())) == 1


def test_audit_reads_a_header_less_original(files, tmp_path):
    release = tmp_path / "release.csv"
    result = run(
        "table", "anonymize", files["dir"] / "headed.csv", *qi_options(files),
        "--identifying", "id", "--sensitive", "disease", "--insensitive",
        "education,marital-status", "-k", "5", "--suppression", "5%", "-o", release,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    findings = {}
    for name, source in sources(files).items():
        result = run(
            "audit", release, "--original", source[0], *source[1:], "-o", tmp_path / "r.html",
            "--qi", ",".join(QI), "--sensitive", "disease", *hierarchy_options(files), "--json",
        )  # fmt: skip
        assert result.exit_code == 0, (name, result.output)
        findings[name] = json.loads(result.stdout)["findings"]
    assert all(f == findings["csv"] for f in findings.values())


def test_header_less_errors_name_the_file_line(tmp_path, files):
    bare = tmp_path / "bare.csv"
    bare.write_text("13053,28\n13068,29\n13068,\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    result = run("table", "anonymize", bare, "--columns", "zip,age", "--qi", "age",
                 "--insensitive", "zip", "-k", "1", "-o", out)  # fmt: skip
    assert result.exit_code == 2
    assert "column 'age': 1 row (first at line 3)" in result.output  # the third row
    assert not out.exists()


def test_other_files_exit_2_naming_what_they_are(tmp_path, files):
    db = tmp_path / "people.csv"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE people (zip TEXT)")
    con.commit()
    con.close()
    out = tmp_path / "out.csv"
    result = run("table", "anonymize", db, "--qi", "zip", "-k", "2", "-o", out)
    assert result.exit_code == 2 and not out.exists()
    assert "an SQLite database" in result.output and "sqlite3 -header -csv" in result.output
    result = run("table", "check", files["dir"] / "book.xlsx", "--sheet", "Data", "--qi", "zip")
    assert result.exit_code == 2
    assert "no sheet named 'Data'; the sheets are ['notes', 'data']" in result.output
