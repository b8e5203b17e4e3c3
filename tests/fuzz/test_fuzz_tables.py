"""Fuzzing the table readers: CSV/Parquet tables, ARX hierarchy files, inline hierarchy specs.

Malformed input must end in a PrivlabError (the CLI: exit 2, a message, no traceback), never
another exception or a hang; well-formed input must keep reading back what was written.  The
CSV reader's acceptance rules are changing (header-less files, more formats), so for CSV only
the error contract is asserted, plus the round trip of plain well-formed files.
"""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path

import polars as pl
from hypothesis import strategies as st

from privlab.cli.specs import HIERARCHY_SPEC_HELP, HierarchySpec, parse_hierarchy_spec
from privlab.errors import PrivlabError
from privlab.io.delimited import read_rows, read_table
from privlab.table.hierarchy import Hierarchy
from tests.fuzz.fuzzing import (
    NAME,
    NUMBER_TEXT,
    TEXT,
    fuzzes,
    mutated,
    mutated_text,
    raw_bytes,
    rejects_cleanly,
    run_cli,
)
from tests.strategies import hierarchies

_TMP = Path(tempfile.mkdtemp(prefix="privlab-fuzz-tables-"))


def _file(name: str, data: bytes) -> Path:
    path = _TMP / name
    path.write_bytes(data)
    return path


# ---------------------------------------------------------------------------- CSV tables


@st.composite
def csv_tables(draw: st.DrawFn) -> tuple[bytes, str, list[str], list[list[str]]]:
    """A well-formed CSV file: (bytes, delimiter, header, rows), quoted by the csv module."""
    delim = draw(st.sampled_from([",", ";", "\t", "|"]))
    header = draw(st.lists(NAME, min_size=1, max_size=5, unique=True))
    cell = TEXT.filter(lambda s: s.strip() != "" and "\r" not in s)
    rows = draw(st.lists(st.lists(cell, min_size=len(header), max_size=len(header)),
                         min_size=1, max_size=8))  # fmt: skip
    out = io.StringIO()
    line_end = draw(st.sampled_from(["\n", "\r\n"]))
    writer = csv.writer(out, delimiter=delim, lineterminator=line_end, quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8"), delim, header, rows


@fuzzes("read_table_valid", csv_tables(), st.booleans())
def test_read_table_reads_back_well_formed_files(table, sniff):
    data, delim, header, rows = table
    # the delimiter is sniffed from the header, which a one-column file does not show
    given = None if sniff and len(header) > 1 else delim
    frame = read_table(_file("valid.csv", data), delimiter=given)
    assert frame.columns == header
    assert frame.rows() == [tuple(r) for r in rows]


@fuzzes("read_table_mutated", csv_tables().flatmap(lambda t: mutated(t[0])), st.booleans())
def test_read_table_mutated_files_fail_cleanly(data, sniff):
    rejects_cleanly(read_table, _file("mutated.csv", data), delimiter=None if sniff else ",")


@fuzzes("read_table_bytes", raw_bytes(), st.sampled_from([None, ",", ";"]))
def test_read_table_random_bytes_fail_cleanly(data, delimiter):
    rejects_cleanly(read_table, _file("bytes.csv", data), delimiter=delimiter)


def _parquet_bytes() -> bytes:
    out = io.BytesIO()
    pl.DataFrame({"a": ["x", "y"], "b": [1, 2]}).write_parquet(out)
    return out.getvalue()


@fuzzes("read_table_parquet", mutated(_parquet_bytes()) | raw_bytes())
def test_read_table_corrupt_parquet_fails_cleanly(data):
    rejects_cleanly(read_table, _file("bytes.parquet", data))


@fuzzes("read_rows_mutated", csv_tables().flatmap(lambda t: mutated(t[0])) | raw_bytes())
def test_read_rows_fails_cleanly(data):
    rejects_cleanly(read_rows, _file("rows.csv", data), delimiter=";")


# ---------------------------------------------------------------------------- hierarchy files


def _hierarchy_bytes(h: Hierarchy) -> bytes:
    out = io.StringIO()
    csv.writer(out, delimiter=";", lineterminator="\n").writerows(h.to_rows())
    return out.getvalue().encode("utf-8")


@fuzzes("hierarchy_valid", hierarchies(max_leaves=8, max_height=4), st.booleans())
def test_hierarchy_files_read_back(h, crlf):
    data = _hierarchy_bytes(h)
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    back = Hierarchy.from_csv(_file("h.csv", data))
    assert back.to_rows() == h.to_rows()


@fuzzes("hierarchy_mutated", hierarchies(max_leaves=8).map(_hierarchy_bytes).flatmap(mutated))
def test_hierarchy_mutated_files_fail_cleanly(data):
    result = rejects_cleanly(Hierarchy.from_csv, _file("h.csv", data))
    if isinstance(result, Hierarchy):  # what was accepted is a valid hierarchy
        assert len(set(result.labels[:, -1].tolist())) == 1
        assert len(set(result.leaves)) == result.n_leaves


@fuzzes("hierarchy_bytes", raw_bytes())
def test_hierarchy_random_bytes_fail_cleanly(data):
    rejects_cleanly(Hierarchy.from_csv, _file("h.csv", data))


# ---------------------------------------------------------------------------- inline specs

_KEYS = {
    "interval": ("width", "fanout", "levels", "start", "bottom", "top"),
    "order": ("group",),
    "masking": ("char", "pad", "from"),
    "date": ("format",),
}
_WORDS = ("left", "right", "week", "month", "quarter", "year", "decade", "day", "3", "4/2")
_TEXT_VALUES = ("#", "**", "", "%d.%m.%Y", "%Y", "%d %d", "left", "4/2", "2/inf", "%")


@st.composite
def hierarchy_specs(draw: st.DrawFn) -> str:
    """Inline specs from the grammar: mostly the kind's own keys, with odd numbers and values,
    some keys of other kinds and bare words mixed in."""
    kind = draw(st.sampled_from(["interval", "interval", "order", "masking", "date", "bogus"]))
    own = _KEYS.get(kind, ("width",))
    items = [f"width={draw(NUMBER_TEXT)}"] if kind == "interval" and draw(st.integers(0, 3)) else []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.integers(0, 3)):
            key = draw(st.sampled_from(own) | st.sampled_from([k for ks in _KEYS.values()
                                                               for k in ks] + [""]))  # fmt: skip
            items.append(f"{key}={draw(NUMBER_TEXT | st.sampled_from(_TEXT_VALUES))}")
        else:
            items.append(draw(st.sampled_from(_WORDS)))
    return kind + (":" + ",".join(items) if items or draw(st.booleans()) else "")


#: Values the parsed specs are built on: numbers, codes and dates (one column per kind).
_VALUES = {
    "interval": ["17", "23", "35", "35", "61", "90"],
    "order": ["a", "b", "c", "d", "e"],
    "masking": ["13053", "13068", "14853", "1485"],
    "date": ["2020-01-05", "2021-07-30", "1999-12-31"],
}


@fuzzes("hierarchy_spec", hierarchy_specs() | mutated_text(hierarchy_specs(), b",:=")
        | st.text(max_size=40))  # fmt: skip
def test_hierarchy_specs_parse_and_build_or_fail_cleanly(spec):
    parsed = rejects_cleanly(parse_hierarchy_spec, spec, column="c")
    if isinstance(parsed, HierarchySpec):
        built = rejects_cleanly(parsed.build, _VALUES[parsed.kind], column="c")
        assert isinstance(built, Hierarchy | PrivlabError)


def test_the_spec_grammar_in_the_help_parses():
    for spec in ("interval:width=5,top=90", "order:group=4/2", "masking:char=#,from=left",
                 "date:format=%Y-%m-%d,year,decade"):  # fmt: skip
        assert isinstance(parse_hierarchy_spec(spec), HierarchySpec), HIERARCHY_SPEC_HELP


# ---------------------------------------------------------------------------- the CLI

_DATA = "zip;age;sex\n13053;28;F\n13068;29;M\n13068;21;F\n13053;23;M\n14853;50;F\n"
_ZIP = b"13053;1305*;130**;*\n13068;1306*;130**;*\n14853;1485*;148**;*\n"


def _data_file() -> Path:
    path = _TMP / "data.csv"
    if not path.exists():
        path.write_text(_DATA, encoding="utf-8")
    return path


@fuzzes("cli_table_check", csv_tables().flatmap(lambda t: mutated(t[0])) | raw_bytes(200))
def test_cli_table_check_on_fuzzed_csv(data):
    path = _file("cli.csv", data)
    run_cli(["table", "check", path, "--qi", "zip", "--missing", "category"])


@fuzzes("cli_dp_release", csv_tables().flatmap(lambda t: mutated(t[0])) | raw_bytes(200))
def test_cli_dp_release_on_fuzzed_csv(data):
    path = _file("cli-dp.csv", data)
    run_cli(["dp", "release", path, "-q", "count", "-e", "1", "--seed", "1"])


@fuzzes("cli_hierarchy_file", mutated(_ZIP) | raw_bytes(200))
def test_cli_anonymize_with_fuzzed_hierarchy_file(data):
    h = _file("cli-h.csv", data)
    out = _TMP / "cli-out.csv"
    run_cli(["table", "anonymize", _data_file(), "--qi", "zip", "--hierarchy", f"zip={h}",
             "-k", "2", "-o", out])  # fmt: skip


@fuzzes("cli_hierarchy_spec", mutated_text(hierarchy_specs(), b",:=") | hierarchy_specs())
def test_cli_anonymize_with_fuzzed_inline_hierarchy(spec):
    out = _TMP / "cli-spec-out.csv"
    run_cli(["table", "anonymize", _data_file(), "--qi", "age", "--hierarchy", f"age={spec}",
             "-k", "2", "-o", out])  # fmt: skip
