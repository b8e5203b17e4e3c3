"""``read_table`` reads the files people have — CSV/TSV plain or gzip/zstd-compressed, Excel
workbooks, header-less CSV — and names what any other file is, with the fix.

Every file is made here with a real writer: polars (CSV, gzip, zstd, Parquet), xlsxwriter
(Excel), the standard library (gzip, sqlite3, zipfile).
"""

from __future__ import annotations

import gzip
import sqlite3
import string
import zipfile
from pathlib import Path

import polars as pl
import pytest
import xlsxwriter
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.io.delimited import read_table

TABLE = pl.DataFrame({"zip": ["007", "13053", "14850"], "age": ["39", "50", "7"]})


def write_xlsx(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    """A workbook with one sheet per item, rows of cells (numbers stay numbers)."""
    with xlsxwriter.Workbook(path) as wb:
        for name, rows in sheets.items():
            ws = wb.add_worksheet(name)
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    if value is not None:
                        ws.write(r, c, value)
    return path


# ------------------------------------------------------------------ compressed delimited text


@pytest.mark.parametrize(
    ("name", "compression", "separator"),
    [
        ("t.csv.gz", "gzip", ";"),
        ("t.tsv.gz", "gzip", "\t"),
        ("t.csv.zst", "zstd", "|"),
        ("t.tsv.zst", "zstd", "\t"),
    ],
)
def test_compressed_text_reads_like_plain_text(tmp_path, name, compression, separator):
    path = tmp_path / name
    TABLE.write_csv(path, separator=separator, compression=compression)
    # the delimiter is sniffed from the decompressed header line
    assert read_table(path).equals(TABLE)
    assert read_table(path, expected_columns=["zip"]).equals(TABLE)


def test_gzip_from_the_standard_library_and_header_less(tmp_path):
    path = tmp_path / "t.csv.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write("007;39\n13053;50\n14850;7\n")
    assert read_table(path, columns=["zip", "age"]).equals(TABLE)


def test_compressed_binary_and_bad_utf8_are_named(tmp_path):
    tar_like = tmp_path / "t.csv.gz"
    tar_like.write_bytes(gzip.compress(b"data.csv\x00\x00\x00\x000000644\x00rest"))
    with pytest.raises(InputError, match="binary data once decompressed"):
        read_table(tar_like)
    latin1 = tmp_path / "l.csv.gz"
    latin1.write_bytes(gzip.compress("café,b\n1,2\n".encode("latin-1")))
    with pytest.raises(InputError, match=r"not UTF-8 text.*re-encode it as UTF-8"):
        read_table(latin1)


@pytest.mark.parametrize(("name", "compression"), [("t.csv.gz", "gzip"), ("t.csv.zst", "zstd")])
def test_damaged_compressed_file_is_named(tmp_path, name, compression):
    path = tmp_path / name
    numbers = pl.DataFrame({"n": [str(i * 7919 % 100003) for i in range(50_000)]})
    numbers.write_csv(path, compression=compression)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(InputError, match=f"cannot decompress it \\({compression}: .*incomplete"):
        read_table(path)


# ---------------------------------------------------------------------------------- Excel


def test_xlsx_first_sheet_by_default_cells_as_text(tmp_path):
    path = write_xlsx(
        tmp_path / "t.xlsx",
        {
            "people": [["zip", "age", "score"], ["007", 39, 3.5], ["13053", 50, 2.0]],
            "other": [["x"], ["y"]],
        },
    )
    frame = read_table(path)
    assert frame.columns == ["zip", "age", "score"]
    assert frame.schema == pl.Schema(dict.fromkeys(frame.columns, pl.String))
    # text as in a CSV export: "007" stays, numbers show without formatting
    assert frame.rows() == [("007", "39", "3.5"), ("13053", "50", "2")]


def test_xlsx_named_sheet_and_unknown_sheet(tmp_path):
    path = write_xlsx(
        tmp_path / "t.xlsx", {"first": [["a"], ["1"]], "Second sheet": [["b"], ["x"], ["y"]]}
    )
    assert read_table(path, sheet="Second sheet").to_dict(as_series=False) == {"b": ["x", "y"]}
    with pytest.raises(ConfigError, match=r"no sheet named 'nope'.*\['first', 'Second sheet'\]"):
        read_table(path, sheet="nope")


def test_xlsx_header_checks_and_header_less_sheet(tmp_path):
    dup = write_xlsx(tmp_path / "dup.xlsx", {"s": [["a", "a"], [1, 2]]})
    with pytest.raises(InputError, match=r"sheet 's', row 1: duplicate column name 'a'"):
        read_table(dup)
    unnamed = write_xlsx(tmp_path / "unnamed.xlsx", {"s": [["a", None, "c"], [1, 2, 3]]})
    with pytest.raises(InputError, match=r"row 1, column 2: empty column name"):
        read_table(unnamed)
    # a spacer column, with neither a name nor data, carries nothing and is left out
    spacer = write_xlsx(tmp_path / "spacer.xlsx", {"s": [["a", None, "c"], [1, None, 3]]})
    assert read_table(spacer).to_dict(as_series=False) == {"a": ["1"], "c": ["3"]}
    bare = write_xlsx(tmp_path / "bare.xlsx", {"s": [["007", 39], ["13053", 50], ["14850", 7]]})
    assert read_table(bare, columns=["zip", "age"]).equals(TABLE)
    empty = write_xlsx(tmp_path / "empty.xlsx", {"s": []})
    with pytest.raises(InputError, match="the sheet is empty"):
        read_table(empty)


def test_damaged_workbook_is_named(tmp_path):
    path = tmp_path / "t.xlsx"
    with zipfile.ZipFile(path, "w") as zf:  # a zip archive, but no workbook inside
        zf.writestr("word/document.xml", "<document/>")
    with pytest.raises(InputError, match=r"t.xlsx: cannot read this Excel workbook \(.+\)$"):
        read_table(path)


def test_sheet_is_only_for_workbooks(tmp_path):
    path = tmp_path / "t.csv"
    TABLE.write_csv(path)
    with pytest.raises(ConfigError, match=r"--sheet 'x': .*t.csv is not an Excel workbook"):
        read_table(path, sheet="x")


# ------------------------------------------------------------------------ header-less CSV


def test_header_less_csv_takes_the_given_names(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("007,39\n13053,50\n14850,7\n", encoding="utf-8")
    assert read_table(path, columns=["zip", "age"]).equals(TABLE)


@pytest.mark.parametrize(
    ("text", "columns", "error", "message"),
    [
        ("1,2,3\n4,5,6\n", ["a", "b"], InputError, r"line 1: 3 fields, but --columns gives 2"),
        ("a,b\n1,2\n", ["a", "b"], ConfigError, r"line 1 already names the columns"),
        ("1,2\n", ["a", ""], ConfigError, r"--columns, column 2: empty column name"),
        ("1,2\n", ["a", "a"], ConfigError, r"--columns: duplicate column name 'a'"),
        ("1,2\n", [], ConfigError, r"--columns: no names given"),
        ("\n1,2\n", ["a", "b"], InputError, r"line 1: empty line"),
    ],
)
def test_header_less_csv_errors(tmp_path, text, columns, error, message):
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(error, match=message):
        read_table(path, columns=columns)


def test_columns_refused_for_parquet(tmp_path):
    path = tmp_path / "t.parquet"
    TABLE.write_parquet(path)
    with pytest.raises(ConfigError, match="Parquet file, which names its own columns"):
        read_table(path, columns=["a", "b"])


# ------------------------------------------------------- other files: named, with the fix


def _sqlite(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE people (zip TEXT, age INTEGER)")
    con.execute("INSERT INTO people VALUES ('007', 39)")
    con.commit()
    con.close()


def _zip(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("people.csv", "zip,age\n007,39\n")


def _parquet(path: Path) -> None:
    TABLE.write_parquet(path)


def _gzip(path: Path) -> None:
    path.write_bytes(gzip.compress(b"zip,age\n007,39\n"))


def _zstd(path: Path) -> None:
    scratch = path.with_name("scratch.csv.zst")
    TABLE.write_csv(scratch, compression="zstd")
    path.write_bytes(scratch.read_bytes())


OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # the header of a legacy .xls workbook


def _bytes(data: bytes):
    def write(path: Path) -> None:
        path.write_bytes(data)

    return write


@pytest.mark.parametrize(
    ("name", "make", "what", "fix"),
    [
        ("people.csv", _sqlite, "an SQLite database", "sqlite3 -header -csv people.csv"),
        ("people.db", _sqlite, "an SQLite database", "export the table to CSV or Parquet"),
        ("people.csv", _zip, "a zip archive", "must be named .xlsx"),
        ("people.csv", _parquet, "a Parquet file", "name it .parquet"),
        ("people.csv", _gzip, "gzip-compressed data", "name it .csv.gz"),
        ("people.csv", _zstd, "zstd-compressed data", "name it .csv.zst"),
        ("report.csv", _bytes(b"%PDF-1.7\n%binary"), "a PDF document", "export the table"),
        ("old.csv", _bytes(OLE2 + bytes(64)), "legacy Office", "save it as .xlsx"),
        ("u16.csv", _bytes("zip,age\n007,39\n".encode("utf-16")), "UTF-16 text", "iconv"),
        ("blob.csv", _bytes(b"zip,age\n\x00\x01"), "a NUL byte at byte 8", "give a CSV/TSV"),
    ],
)
def test_non_text_files_are_named_with_the_fix(tmp_path, name, make, what, fix):
    path = tmp_path / name
    make(path)
    with pytest.raises(InputError) as info:
        read_table(path)
    message = str(info.value)
    assert message.startswith(str(path)) and what in message and fix in message
    assert "re-encode" not in message or what == "UTF-16 text"


@pytest.mark.parametrize(
    ("name", "make", "promise", "what"),
    [
        ("t.xlsx", _bytes(b"zip,age\n007,39\n"), "an Excel .xlsx workbook", "this is text"),
        ("t.xlsx", _sqlite, "an Excel .xlsx workbook", "an SQLite database"),
        ("t.parquet", _bytes(b"zip,age\n007,39\n"), "a Parquet file", "this is text"),
        ("t.csv.gz", _bytes(b"zip,age\n007,39\n"), "gzip-compressed", "drop the .gz suffix"),
        ("t.csv.zst", _gzip, "zstd-compressed", "gzip-compressed data"),
    ],
)
def test_names_that_lie_about_the_content(tmp_path, name, make, promise, what):
    path = tmp_path / name
    make(path)
    with pytest.raises(InputError, match=f"named as {promise}, but .*{what}"):
        read_table(path)


# ------------------------------------------------- property: every format, the same table

CELL = st.text(alphabet=string.ascii_letters + string.digits + " .-_/'\"", max_size=8).filter(
    lambda s: s.strip() == s and s != ""
)


@st.composite
def text_tables(draw) -> pl.DataFrame:
    n_cols = draw(st.integers(1, 4))
    names = draw(
        st.lists(
            st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=6),
            min_size=n_cols,
            max_size=n_cols,
            unique=True,
        )
    )
    n_rows = draw(st.integers(1, 6))
    return pl.DataFrame(
        {c: draw(st.lists(CELL, min_size=n_rows, max_size=n_rows)) for c in names},
        schema=dict.fromkeys(names, pl.String),
    )


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frame=text_tables())
def test_every_format_reads_the_same_table(tmp_path, frame):
    """A table written as CSV, CSV.gz, TSV.zst, Parquet and .xlsx reads back the same."""
    paths = []
    for name, kwargs in (
        ("t.csv", {}),
        ("t.csv.gz", {"compression": "gzip"}),
        ("t.tsv.zst", {"compression": "zstd", "separator": "\t"}),
    ):
        frame.write_csv(tmp_path / name, **kwargs)
        paths.append(tmp_path / name)
    frame.write_parquet(tmp_path / "t.parquet")
    paths.append(tmp_path / "t.parquet")
    paths.append(write_xlsx(tmp_path / "t.xlsx", {"s": [frame.columns, *frame.rows()]}))
    for path in paths:
        got = read_table(path)
        assert got.equals(frame), (path.name, got, frame)


# ------------------------------------------------------------------ blank lines at the end
def test_blank_lines_at_the_end_are_not_records(tmp_path):
    """UCI's adult.data ends with a blank line, which polars reads as a row of nulls."""
    path = tmp_path / "adult.data"
    path.write_text("39, Male, <=50K\n50, Female, >50K\n\n\n", encoding="utf-8")
    frame = read_table(path, columns=["age", "sex", "income"])
    assert frame.height == 2 and frame["age"].to_list() == ["39", "50"]


def test_a_line_of_delimiters_only_stays_a_record_with_missing_cells(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("a,b\n1,2\n,\n", encoding="utf-8")
    frame = read_table(path)
    assert frame.height == 2 and frame.row(1) == (None, None)
    middle = tmp_path / "m.csv"
    middle.write_text("a,b\n1,2\n\n3,4\n", encoding="utf-8")  # keeps its line numbers
    assert read_table(middle).height == 3
