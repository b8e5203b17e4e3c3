"""Issue 15, scope 10: every option that names columns takes ``a,b`` as well as a repeated
option; a job file keeps its lists (a column name may hold a comma there)."""

from __future__ import annotations

import json

import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.table.sample import census_sample, domain_hierarchies

runner = CliRunner()
QI = ["zip", "age", "sex", "education", "marital-status"]


@pytest.fixture(scope="module")
def census(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lists")
    frame = census_sample(800, 5).frame.with_columns(pl.lit("x").alias("note"))
    frame.write_csv(folder / "census.csv")
    for col, h in domain_hierarchies().items():
        h.to_csv(folder / f"h_{col}.csv")
    return folder


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


def hier(folder, columns=QI):
    return [x for c in columns for x in ("--hierarchy", f"{c}={folder / f'h_{c}.csv'}")]


def split_forms(option: str, values: list[str]) -> tuple[list[str], list[str]]:
    """``--opt a,b --opt c`` and ``--opt a --opt b --opt c``."""
    joined = [option, ",".join(values[:2]), *[x for v in values[2:] for x in (option, v)]]
    repeated = [x for v in values for x in (option, v)]
    return joined, repeated


@pytest.mark.parametrize("algorithm", ["optimal", "mondrian"])
def test_anonymize_reads_comma_lists(census, algorithm):
    outs = []
    for i, (qi, ins) in enumerate(zip(split_forms("--qi", QI),
                                      split_forms("--identifying", ["id", "note"]),
                                      strict=True)):  # fmt: skip
        out = census / f"rel-{algorithm}-{i}.csv"
        run("table", "anonymize", census / "census.csv", *qi, *hier(census), "--sensitive",
            "disease", *ins, "-k", "4", "--algorithm", algorithm, "-o", out, "-q")  # fmt: skip
        outs.append(pl.read_csv(out, infer_schema_length=0))
    assert outs[0].equals(outs[1])
    assert outs[0].columns == [c for c in [*QI, "disease"] if c in outs[0].columns]
    assert "id" not in outs[0].columns and "note" not in outs[0].columns


def test_insensitive_and_sensitive_lists(census):
    out = census / "rel-ins.csv"
    run("table", "anonymize", census / "census.csv", "--qi", "zip,age,sex", *hier(census, QI[:3]),
        "--sensitive", "disease", "--insensitive", "education,marital-status,note",
        "--identifying", "id", "-k", "3", "-o", out, "-q")  # fmt: skip
    released = pl.read_csv(out, infer_schema_length=0)
    original = pl.read_csv(census / "census.csv", infer_schema_length=0)
    assert released["education"].equals(original["education"])
    report = json.loads(run("table", "check", out, "--qi", "zip,age,sex",
                            "--sensitive", "disease", "--json").stdout)  # fmt: skip
    assert report["k_anonymity"] >= 3


def test_check_and_risk_read_comma_lists(census):
    for command in ("check", "risk"):
        joined, repeated = split_forms("--qi", QI)
        a = run("table", command, census / "census.csv", *joined, "--json").stdout
        b = run("table", command, census / "census.csv", *repeated, "--json").stdout
        assert json.loads(a) == json.loads(b)


def test_safe_kanon_reads_comma_lists(census):
    outs = []
    for i, qi in enumerate(split_forms("--qi", ["age", "sex", "zip"])):
        out = census / f"dp-{i}.csv"
        run("dp", "safe-kanon", census / "census.csv", *qi, *hier(census, ["age", "sex", "zip"]),
            "--identifying", "id,education,marital-status,disease,note", "-e", "1",
            "--delta", "1e-5", "--seed", "3", "-o", out)  # fmt: skip
        outs.append(out.read_text())
    assert outs[0] == outs[1]


def test_a_job_file_keeps_a_column_name_with_a_comma(tmp_path):
    frame = pl.DataFrame({"age": [str(20 + i % 30) for i in range(120)],
                          "zip, code": [f"{100 + i % 4}" for i in range(120)],
                          "disease": ["flu", "cold", "none"] * 40})  # fmt: skip
    frame.write_csv(tmp_path / "t.csv")
    job = tmp_path / "job.toml"
    job.write_text('input = "t.csv"\nqi = ["age", "zip, code"]\nsensitive = ["disease"]\n'
                   'k = 2\n[hierarchy]\n"zip, code" = "flat"\n')  # fmt: skip
    summary = json.loads(run("table", "anonymize", "--job", job, "--json", "-q").stdout)
    assert set(summary["levels"]) == {"age", "zip, code"}
    # on the command line the comma separates two names, neither of which exists
    args = ["table", "anonymize", str(tmp_path / "t.csv"), "--qi", "age", "--qi", "zip, code",
            "--sensitive", "disease", "-k", "2"]  # fmt: skip
    bad = runner.invoke(app, args)
    assert bad.exit_code == 2 and "zip" in bad.output
