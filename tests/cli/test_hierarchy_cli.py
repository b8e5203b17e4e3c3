"""``privlab table hierarchy`` and inline ``--hierarchy COL=KIND:...`` specs: each kind is built
and read back; bad input exits 2 with one message naming file, line, column and value, and
writes nothing; anonymize with inline hierarchies works end to end."""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.cli.specs import parse_hierarchy_spec
from privlab.errors import ConfigError
from privlab.table.hierarchy import Hierarchy

runner = CliRunner()


def run(args: list[object]):
    return runner.invoke(app, [str(a) for a in args])


def make_data(path: Path, n: int = 120, seed: int = 7) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    day0 = date(1950, 1, 1)
    frame = pl.DataFrame(
        {
            "zip": [f"{z:05d}" for z in rng.choice([13053, 13068, 14853, 14850, 81667], n)],
            "age": [str(a) for a in rng.integers(17, 95, n)],
            "birth": [(day0 + timedelta(days=int(d))).isoformat() for d in rng.integers(0, 2e4, n)],
            "sex": rng.choice(["F", "M"], n).tolist(),
            "disease": rng.choice(["flu", "cold", "cancer"], n).tolist(),
        }
    )
    frame.write_csv(path)
    return frame


@pytest.fixture
def data(tmp_path) -> tuple[Path, pl.DataFrame]:
    path = tmp_path / "data.csv"
    return path, make_data(path)


def assert_rejected(result, out: Path, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output
    assert "Traceback" not in result.output
    assert not out.exists()


# ---------------------------------------------------------------------------- build command
@pytest.mark.parametrize(
    ("kind", "column", "options", "check"),
    [
        ("interval", "age", ["--width", "5", "--bottom", "20", "--top", "90"], ("17", "<20")),
        ("interval", "age", ["--width", "10", "--fanout", "3", "--levels", "2"], None),
        ("order", "sex", ["--group-size", "2"], ("F", "F-M")),
        ("masking", "zip", [], ("13053", "1305*")),
        ("masking", "zip", ["--from-left", "--char", "#"], ("13053", "#3053")),
        ("date", "birth", ["--date-levels", "month,year,decade"], None),
    ],
)
def test_build_each_kind_and_read_back(data, tmp_path, kind, column, options, check):
    path, frame = data
    out = tmp_path / f"{column}_h.csv"
    result = run(["table", "hierarchy", kind, path, "--column", column, "-o", out, *options])
    assert result.exit_code == 0, result.output
    h = Hierarchy.from_csv(out)  # ARX format, ';'-separated, validated on reading
    assert set(h.leaves) == set(frame[column].to_list())
    assert h.group_labels(h.height).tolist() == ["*"]
    assert ";" in out.read_text().splitlines()[0]
    if check is not None:
        value, label = check
        if value in h.leaves:
            assert h.labels[h.leaves.index(value), 1] == label
    if kind == "date":
        row = h.to_rows()[0]
        assert row[1] == row[0][:7] and row[2] == row[0][:4] and row[3].endswith("0s")
    if "--levels" in options:
        assert h.height == 3


def test_build_json_summary(data, tmp_path):
    path, _ = data
    out = tmp_path / "zip_h.csv"
    result = run(["table", "hierarchy", "masking", path, "-c", "zip", "-o", out, "--json"])
    assert result.exit_code == 0, result.output
    assert '"groups_per_level"' in result.stdout and '"height": 5' in result.stdout


def test_build_non_numeric_value_for_interval(tmp_path):
    path = tmp_path / "people.csv"
    path.write_text("name,age\nann,34\nbob,41\ncid,forty\ndan,50\n", encoding="utf-8")
    out = tmp_path / "age.csv"
    result = run(["table", "hierarchy", "interval", path, "--column", "age", "--width", "10",
                  "-o", out])  # fmt: skip
    assert_rejected(result, out, "people.csv, line 4", "'age'", "not a finite number")
    assert "forty" not in result.output  # the cell's value stays out of the message
    assert result.output.count("error:") == 1


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["interval", "--column", "age"], "--width"),
        (["masking", "--column", "zip", "--width", "5"], "--width applies to interval"),
        (["order", "--column", "sex", "--group-size", "1"], "--group-size"),
        (["pyramid", "--column", "age"], "unknown hierarchy kind"),
        (["interval", "--column", "agee", "--width", "5"], "'agee' not found"),
        (["interval", "--column", "age", "--width", "-5"], "width"),
        (["date", "--column", "birth", "--date-levels", "year,month"], "levels"),
        (["date", "--column", "birth", "--date-format", "%d/%m/%Y"], "line 2"),
        (["masking", "--column", "zip", "--missing", "sometimes"], "--missing"),
    ],
)
def test_build_bad_options(data, tmp_path, args, fragment):
    path, _ = data
    out = tmp_path / "h.csv"
    result = run(["table", "hierarchy", args[0], path, *args[1:], "-o", out])
    assert_rejected(result, out, fragment)


def test_build_missing_cells(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("id,age\n1,20\n2,\n3,?\n4,35\n", encoding="utf-8")
    out = tmp_path / "age.csv"
    base = ["table", "hierarchy", "interval", path, "-c", "age", "--width", "10", "-o", out]
    assert_rejected(run(base), out, "line 3", "missing value")
    assert_rejected(run([*base, "--na", "?", "--na", ""]), out, "line 3", "missing value")
    # under --missing category, missing cells and '?' are one leaf '?' (MicroTable's label)
    result = run([*base, "--missing", "category"])
    assert result.exit_code == 0, result.output
    h = Hierarchy.from_csv(out)
    assert h.leaves == ["20", "35", "?"]
    assert h.to_rows()[-1] == ["?", "?", "?", "*"]


def test_build_refuses_to_overwrite_input(data):
    path, _ = data
    before = path.read_text()
    result = run(["table", "hierarchy", "masking", path, "-c", "zip", "-o", path])
    assert result.exit_code == 2 and "would destroy the input" in result.output
    assert path.read_text() == before


# ---------------------------------------------------------------------------- inline specs
def test_parse_hierarchy_spec_forms():
    s = parse_hierarchy_spec("interval:width=5,top=90,fanout=3")
    assert (s.kind, s.params) == ("interval", {"width": 5.0, "top": 90.0, "fanout": 3})
    assert parse_hierarchy_spec("order:group=4/2").params == {"group_size": [4, 2]}
    assert parse_hierarchy_spec("order").params == {"group_size": 2}
    assert parse_hierarchy_spec("masking").params == {}
    assert parse_hierarchy_spec("masking:from=left,char=#").params == {
        "from_right": False,
        "char": "#",
    }
    assert parse_hierarchy_spec("date:month,year").params == {"levels": ("month", "year")}
    assert parse_hierarchy_spec("date:format=%d.%m.%Y,year").params == {
        "format": "%d.%m.%Y",
        "levels": ("year",),
    }


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("interval", "width=W"),
        ("interval:width=five", "'five' is not a number"),
        ("interval:width=5,colour=red", "unknown parameter 'colour'"),
        ("interval:width=5,fanout=2.5", "whole number"),
        ("order:group=1", "group sizes"),
        ("masking:from=middle", "from must be"),
        ("tree", "unknown hierarchy kind"),
        ("interval:width=5,width=6", "given twice"),
    ],
)
def test_parse_hierarchy_spec_errors(spec, fragment):
    with pytest.raises(ConfigError) as err:
        parse_hierarchy_spec(spec, column="age")
    assert fragment in str(err.value) and f"--hierarchy age={spec}" in str(err.value)


def anonymize(path: Path, out: Path, *extra: object):
    return run(["table", "anonymize", path, "-o", out, *extra])


def test_anonymize_with_inline_hierarchies_end_to_end(data, tmp_path):
    path, frame = data
    out = tmp_path / "release.csv"
    k = 4
    result = anonymize(
        path, out, "--qi", "age", "--qi", "zip", "--qi", "birth", "--qi", "sex",
        "--hierarchy", "age=interval:width=5,top=90",
        "--hierarchy", "zip=masking",
        "--hierarchy", "birth=date:month,year,decade",
        "--hierarchy", "sex=order:group=2",
        "--sensitive", "disease", "-k", k, "--suppression", "10%", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    release = pl.read_csv(out, infer_schema=False)
    assert release.height == frame.height  # no row lost
    assert release["disease"].to_list() == frame["disease"].to_list()
    qis = ["age", "zip", "birth", "sex"]
    keys = list(zip(*(release[c].to_list() for c in qis), strict=True))
    suppressed = {key for key in keys if all(v == "*" for v in key)}
    counts = Counter(key for key in keys if key not in suppressed)
    assert all(c >= k for c in counts.values()), counts
    # every released value is a label of its inline hierarchy
    for col, spec in (("age", "interval:width=5,top=90"), ("zip", "masking")):
        h = parse_hierarchy_spec(spec).build(frame[col].to_list(), column=col)
        assert set(release[col].to_list()) <= set(h.labels.ravel().tolist())


def test_anonymize_mixes_inline_spec_and_file(data, tmp_path):
    path, _ = data
    zip_h = tmp_path / "zip.csv"
    assert run(["table", "hierarchy", "masking", path, "-c", "zip", "-o", zip_h]).exit_code == 0
    out = tmp_path / "release.csv"
    result = anonymize(path, out, "--qi", "age", "--qi", "zip",
                       "--hierarchy", "age=interval:width=10", "--hierarchy", f"zip={zip_h}",
                       "--identifying", "birth", "--insensitive", "sex", "--sensitive", "disease",
                       "-k", "3")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert out.exists()


def test_anonymize_inline_interval_with_non_numeric_value(data, tmp_path):
    _, frame = data
    ages = frame["age"].to_list()
    ages[6] = "n/a"  # data line 8
    bad = tmp_path / "bad.csv"
    frame.with_columns(pl.Series("age", ages)).write_csv(bad)
    out = tmp_path / "release.csv"
    result = anonymize(bad, out, "--qi", "age", "--hierarchy", "age=interval:width=10", "-k", "2")
    assert_rejected(result, out, "bad.csv, line 8", "column 'age'", "not a finite number")
    assert "n/a" not in result.output
    assert result.output.count("error:") == 1


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("age=interval:width=0", "--hierarchy age=interval:width=0: width"),
        ("age=intervall:width=5", "'intervall' is not a hierarchy kind"),
        ("age=interval", "needs width"),
        ("agee=interval:width=5", "'agee' not found"),
        ("age=nofile.csv", "nofile.csv: no such file"),
    ],
)
def test_anonymize_bad_inline_specs(data, tmp_path, spec, fragment):
    path, _ = data
    out = tmp_path / "release.csv"
    result = anonymize(path, out, "--qi", "age", "--hierarchy", spec, "-k", "2")
    assert_rejected(result, out, fragment)


def test_anonymize_inline_hierarchy_with_missing_category(tmp_path):
    rows = ["age,disease"] + [f"{20 + i % 30},flu" for i in range(30)] + [",cold", "?,flu"]
    path = tmp_path / "m.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "release.csv"
    args = ["--qi", "age", "--hierarchy", "age=interval:width=10", "-k", "2",
            "--sensitive", "disease"]  # fmt: skip
    assert_rejected(anonymize(path, out, *args), out, "line 32", "missing value")
    result = anonymize(path, out, *args, "--missing", "category", "--na", "", "--na", "?")
    assert result.exit_code == 0, result.output
    released = pl.read_csv(out, infer_schema=False)["age"].to_list()
    assert released.count("?") + released.count("*") >= 2
