"""Each bad input gets its own clear message, exit code 2, and no output file."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from privlab.cli.main import app

runner = CliRunner()

DATA = (
    "zip;age;sex;disease\n"
    + "\n".join(
        f"{z};{a};{s};{d}"
        for z, a, s, d in [
            ("13053", "28", "F", "flu"),
            ("13068", "29", "M", "flu"),
            ("13068", "21", "F", "cold"),
            ("13053", "23", "M", "cancer"),
            ("14853", "50", "F", "flu"),
            ("14853", "55", "M", "cold"),
        ]
    )
    + "\n"
)
ZIP_H = "13053;1305*;130**;*\n13068;1306*;130**;*\n14853;1485*;148**;*\n"


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return p


def run(args: list[str]):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def files(tmp_path):
    return {
        "data": write(tmp_path, "data.csv", DATA),
        "zip": write(tmp_path, "zip.csv", ZIP_H),
        "out": tmp_path / "out.csv",
    }


def anonymize(files, *extra, data=None, zip_h=None):
    """Anonymize on the QI zip; every other column of DATA is declared (sensitive disease,
    insensitive age and sex)."""
    return run(
        ["table", "anonymize", data or files["data"], "--qi", "zip",
         "--hierarchy", f"zip={zip_h or files['zip']}", "--sensitive", "disease",
         "--insensitive", "age,sex", "-o", files["out"], *extra]
    )  # fmt: skip


def assert_rejected(result, files, *fragments):
    assert result.exit_code == 2, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output
    assert not files["out"].exists()
    assert "Traceback" not in result.output


def test_good_input_writes_release(files):
    result = anonymize(files, "-k", "2")
    assert result.exit_code == 0, result.output
    assert files["out"].read_text().splitlines()[0] == "zip,age,sex,disease"


def test_unknown_hierarchy_value(files, tmp_path):
    h = write(tmp_path, "zip_short.csv", "13053;1305*;130**;*\n13068;1306*;130**;*\n")
    result = anonymize(files, "-k", "2", zip_h=h)
    assert_rejected(result, files, "data.csv, column 'zip'", "(first at line 6)", "hierarchy")
    assert "14853" not in result.output  # the cell's value stays out of the message


def test_missing_value_under_error_policy(files, tmp_path):
    d = write(tmp_path, "miss.csv", DATA.replace("13068;21", ";21"))
    assert_rejected(anonymize(files, "-k", "2", data=d), files, "line 4", "'zip'", "missing")


def test_wrong_delimiter(files):
    assert_rejected(anonymize(files, "-k", "2", "--delimiter", ","), files, "';'", "--delimiter")


def test_k_larger_than_table(files):
    assert_rejected(anonymize(files, "-k", "7"), files, "k = 7", "6 rows")


def test_empty_file(files, tmp_path):
    d = write(tmp_path, "empty.csv", "")
    assert_rejected(anonymize(files, "-k", "2", data=d), files, "empty")


def test_header_only_file(files, tmp_path):
    d = write(tmp_path, "header.csv", "zip;age\n")
    assert_rejected(anonymize(files, "-k", "2", data=d), files, "no data rows")


def test_duplicate_column_names(files, tmp_path):
    d = write(tmp_path, "dup.csv", DATA.replace("zip;age;sex", "zip;age;zip", 1))
    assert_rejected(anonymize(files, "-k", "2", data=d), files, "duplicate column name 'zip'")


def test_levels_that_do_not_nest(files, tmp_path):
    h = write(
        tmp_path, "bad.csv", "13053;1305*;130**;*\n13068;1305*;148**;*\n14853;1485*;148**;*\n"
    )
    assert_rejected(anonymize(files, "-k", "2", zip_h=h), files, "do not nest", "line 2", "'1305*'")


def test_unknown_column(files):
    assert_rejected(anonymize(files, "-k", "2", "--qi", "zipcode"), files, "'zipcode' not found")


def test_bad_suppression_limit(files):
    assert_rejected(anonymize(files, "-k", "2", "--suppression", "150%"), files, "--suppression")


def test_bad_l_diversity_spec(files):
    assert_rejected(anonymize(files, "--l-diversity", "disease:often:2"), files, "--l-diversity")


def test_infeasible_model(files):
    # 4 distinct diseases but only 3 in the data: no transformation is 4-diverse
    r = anonymize(files, "--l-diversity", "disease:distinct:4")
    assert_rejected(r, files, "no transformation satisfies")


def test_job_file_with_unknown_key(files, tmp_path):
    job = write(tmp_path, "job.toml", 'input = "data.csv"\nqi = ["zip"]\nkk = 2\n')
    assert_rejected(run(["table", "anonymize", "--job", job]), files, "unknown keys ['kk']")


@pytest.mark.parametrize(
    "job_text",
    [
        pytest.param(
            'qi = ["zip"]\ninsensitive = ["age", "sex", "disease"]\nk = 3\n'
            '[hierarchy]\nzip = "zip.csv"\n',
            id="hierarchy-file",
        ),
        pytest.param(
            'qi = ["age"]\ninsensitive = "zip,sex"\nsensitive = "disease"\nk = 2\n'
            '[hierarchy]\nage = "interval:width=10,fanout=2"\n',
            id="inline-hierarchy-spec",
        ),
    ],
)
def test_job_file_runs(files, tmp_path, job_text):
    job = write(tmp_path, "job.toml", 'input = "data.csv"\noutput = "out.csv"\n' + job_text)
    result = run(["table", "anonymize", "--job", job, "--json"])
    assert result.exit_code == 0, result.output
    assert '"levels"' in result.stdout and files["out"].exists()


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--algorithm", "mondrian", "--suppression", "2%"], "--suppression applies to the"),
        (["--algorithm", "mondrian", "--metric", "dm"], "--metric applies to the lattice"),
        (["--relaxed"], "--relaxed applies to --algorithm mondrian only"),
        (["--algorithm", "datafly", "--numeric", "zip"], "--numeric applies to --algorithm"),
    ],
)
def test_options_of_another_algorithm_are_refused(files, extra, fragment):
    assert_rejected(anonymize(files, "-k", "2", *extra), files, fragment)


@pytest.mark.parametrize("relaxed", [False, True])
def test_mondrian_strict_and_relaxed(files, relaxed):
    extra = ["--relaxed"] if relaxed else []
    result = anonymize(files, "-k", "2", "--algorithm", "mondrian", "--json", *extra)
    assert result.exit_code == 0, result.output
    lines = files["out"].read_text().splitlines()
    assert len(lines) == 7  # header + every input row
