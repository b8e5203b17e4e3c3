"""Fuzzing permutation releases on disk (PermutationRelease.read) and the SQL query parser.

A release directory is three files; each is fuzzed on its own: ``release.json`` mutated or
replaced by any JSON value, and the Parquet tables corrupted byte-wise or rewritten with a
column of the wrong type, wrong values (negative, huge or repeated ids, NaN, nulls) or
missing.  A release that reads must answer queries.  The SQL fuzzer generates queries from
the supported grammar with wrong columns, types and literals mixed in, then mutates them.
"""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from hypothesis import strategies as st

from privlab.table.permutation import PermutationRelease, anatomy, release_from_groups
from privlab.table.query import bounded_query, parse_aggregate_query
from privlab.table.query.parse import ParsedQuery
from tests.fuzz.fuzzing import (
    TEXT,
    containers,
    fuzzes,
    mutated,
    mutated_text,
    raw_bytes,
    rejects_cleanly,
    run_cli,
)

_TMP = Path(tempfile.mkdtemp(prefix="privlab-fuzz-releases-"))

PEOPLE = pl.DataFrame({
    "age": [35, 38, 40, 41, 43, 47, 52, 53, 58],
    "zipcode": ["27101", "27120", "27130", "27229", "27269", "27243", "27656", "27686", "27635"],
    "gender": ["M", "M", "M", "F", "F", "M", "M", "F", "M"],
    "salary": [54.0, 55.0, 56.0, 65.0, 75.0, 70.0, 80.0, 75.0, 85.0],
    "disease": ["flu", "hiv", "cold", "flu", "hiv", "cold", "flu", "hiv", "cold"],
})  # fmt: skip
QI = ["age", "zipcode", "gender"]
NUMERIC = release_from_groups(PEOPLE.drop("disease"), qi=QI, sensitive="salary",
                              groups=[0, 0, 0, 1, 1, 1, 2, 2, 2], seed=1)  # fmt: skip
CATEGORICAL = anatomy(PEOPLE.drop("salary"), qi=QI, sensitive="disease", l=3, seed=1)
BASE = {"numeric": NUMERIC.write(_TMP / "numeric"), "categorical": CATEGORICAL.write(_TMP / "cat")}


def _copy(kind: str) -> Path:
    """A fresh copy of the base release of ``kind`` to damage."""
    target = _TMP / "fuzzed"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(BASE[kind], target)
    return target


def _queries_work(release: PermutationRelease) -> None:
    """A release that was read answers COUNT (and SUM when numeric), or fails cleanly."""
    sql = "SELECT COUNT(*) FROM t" if release.kind == "categorical" else "SELECT SUM(salary) FROM t"
    rejects_cleanly(bounded_query, release, sql, backend="python")


# ---------------------------------------------------------------------------- releases


@fuzzes("release_valid", st.integers(1, 30), st.integers(1, 5), st.integers(0, 2**32 - 1),
        st.booleans())  # fmt: skip
def test_releases_read_back(n, n_groups, seed, categorical):
    rng = np.random.default_rng(seed)
    frame = pl.DataFrame({
        "age": rng.integers(0, 99, n), "zip": [str(z) for z in rng.integers(10, 20, n)],
        "s": rng.normal(50, 10, n) if not categorical else rng.choice(["a", "b", "c"], n),
    })  # fmt: skip
    if categorical:
        release = rejects_cleanly(anatomy, frame, qi=["age", "zip"], sensitive="s", l=2, seed=1)
        if not isinstance(release, PermutationRelease):
            return  # too few distinct values for 2-diversity: refused, as it must be
    else:
        groups = rng.integers(0, n_groups, n)
        release = release_from_groups(frame, qi=["age", "zip"], sensitive="s", groups=groups)
    back = PermutationRelease.read(release.write(_TMP / "valid", overwrite=True))
    assert back.qi.equals(release.qi) and back.sa.equals(release.sa)
    assert (back.kind, back.sensitive) == (release.kind, release.sensitive)


def _json_values() -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | st.integers() | st.floats() | TEXT
    return st.recursive(scalars, containers, max_leaves=8)


@st.composite
def release_json(draw: st.DrawFn) -> tuple[str, bytes]:
    """release.json of a base release mutated byte-wise, or with any value for one key."""
    kind = draw(st.sampled_from(sorted(BASE)))
    text = (BASE[kind] / "release.json").read_bytes()
    if draw(st.booleans()):
        return kind, draw(mutated(text, separators=b",:[]{} "))
    meta = json.loads(text)
    how = draw(st.sampled_from(["value", "drop", "whole"]))
    if how == "whole":
        return kind, json.dumps(draw(_json_values())).encode()
    key = draw(st.sampled_from(["sensitive", "kind", "qi", "parameters", "format"]))
    if how == "drop":
        meta.pop(key, None)
    else:
        meta[key] = draw(_json_values() | st.just(["age", "age"]) | st.just(["tuple_id"]))
    return kind, json.dumps(meta).encode()


@fuzzes("release_json", release_json())
def test_release_json_fuzzed_fails_cleanly(case):
    kind, data = case
    d = _copy(kind)
    (d / "release.json").write_bytes(data)
    release = rejects_cleanly(PermutationRelease.read, d)
    if isinstance(release, PermutationRelease):
        _queries_work(release)


#: Values that break ids and numbers: negative, just out of range, huge, non-finite, null.
_BAD_VALUES = (-1, 0, 3, 9, 10, 2**40, 2**63 - 1, -(2**63), None, float("nan"), float("inf"),
               float("-inf"), -0.0, 1e308, "x", "")  # fmt: skip


@st.composite
def damaged_frame(draw: st.DrawFn, frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with one column damaged: a cell set to a bad value, a type changed, the
    column dropped, repeated under another name, or the rows cut or repeated."""
    ids = [c for c in ("group_id", "tuple_id") if c in frame.columns]
    col = draw(st.sampled_from(frame.columns + ids * 2))  # ids are where damage hurts most
    how = draw(st.sampled_from(["cell", "cell", "cast", "drop", "rename", "rows", "column"]))
    if how == "drop":
        return frame.drop(col)
    if how == "rename":  # onto another column (which it replaces) or a new name
        name = draw(st.sampled_from(["tuple_id", "group_id", "x", col + "_"]))
        return frame.drop([c for c in (name,) if c != col and c in frame.columns]).rename(
            {col: name}
        )
    if how == "rows":
        return draw(st.sampled_from([frame.head(0), frame.head(1), frame.tail(-1),
                                     pl.concat([frame, frame])]))  # fmt: skip
    if how == "cast":
        dtype = draw(st.sampled_from([pl.Int32, pl.Int64, pl.UInt64, pl.Float64, pl.String,
                                      pl.Boolean, pl.Categorical]))  # fmt: skip
        try:
            return frame.with_columns(frame[col].cast(dtype, strict=False))
        except pl.exceptions.PolarsError:
            return frame
    if how == "column":
        return frame.with_columns(pl.Series(col, [draw(st.sampled_from(_BAD_VALUES))]
                                            * frame.height, strict=False))  # fmt: skip
    values = frame[col].to_list()
    i = draw(st.integers(0, len(values) - 1)) if values else 0
    if values:
        values[i] = draw(st.sampled_from(_BAD_VALUES))
    return frame.with_columns(pl.Series(col, values, dtype=frame[col].dtype, strict=False))


def _parquet(frame: pl.DataFrame) -> bytes:
    out = io.BytesIO()
    frame.write_parquet(out)
    return out.getvalue()


@st.composite
def release_tables(draw: st.DrawFn) -> tuple[str, str, bytes]:
    """(kind, file, bytes): qi.parquet or sa.parquet of a base release, damaged."""
    kind = draw(st.sampled_from(sorted(BASE)))
    name = draw(st.sampled_from(["qi.parquet", "sa.parquet"]))
    frame = pl.read_parquet(BASE[kind] / name)
    if draw(st.integers(0, 3)) == 0:
        return kind, name, draw(mutated(_parquet(frame)) | raw_bytes())
    return kind, name, _parquet(draw(damaged_frame(frame)))


@fuzzes("release_parquet", release_tables())
def test_release_tables_fuzzed_fail_cleanly(case):
    kind, name, data = case
    d = _copy(kind)
    (d / name).write_bytes(data)
    release = rejects_cleanly(PermutationRelease.read, d)
    if isinstance(release, PermutationRelease):
        _queries_work(release)


# ---------------------------------------------------------------------------- SQL

_COLUMNS = ("age", "zipcode", "gender", "salary", "AGE", '"age"', "t.age", "x.age", "tuple_id",
            "group_id", "nosuch")  # fmt: skip
_LITERALS = ("0", "40", "-1", "2.5", "1e3", "1e999", "9" * 30, "'27101'", "'M'", "''", "NULL",
             "TRUE", "'%'", "'a\\b'", "0x10", "'2720%'")  # fmt: skip


@st.composite
def conditions(draw: st.DrawFn, depth: int = 0) -> str:
    """A WHERE condition from the supported grammar, with any column and literal."""
    col, lit = st.sampled_from(_COLUMNS), st.sampled_from(_LITERALS)
    term = st.one_of(col, lit, st.tuples(col, st.sampled_from("+-*/"), lit).map(" ".join),
                     col.map(lambda c: f"-{c}"))  # fmt: skip
    form = draw(st.integers(0, 8 if depth < 2 else 5))
    if form <= 1:
        return f"{draw(term)} {draw(st.sampled_from(['=', '<>', '<', '<=', '>', '>=', '!=']))} {draw(term)}"  # noqa: E501
    if form == 2:
        return f"{draw(col)} BETWEEN {draw(lit)} AND {draw(lit)}"
    if form == 3:
        items = ", ".join(draw(st.lists(lit, min_size=1, max_size=3)))
        return f"{draw(col)} {draw(st.sampled_from(['IN', 'NOT IN']))} ({items})"
    if form == 4:
        return f"{draw(col)} {draw(st.sampled_from(['LIKE', 'ILIKE', 'NOT LIKE']))} {draw(lit)}"
    if form == 5:
        return f"{draw(col)} IS {draw(st.sampled_from(['NULL', 'NOT NULL', 'TRUE']))}"
    if form == 6:
        return f"NOT ({draw(conditions(depth + 1))})"
    op = draw(st.sampled_from(["AND", "OR"]))
    return f"({draw(conditions(depth + 1))}) {op} {draw(conditions(depth + 1))}"


@st.composite
def queries(draw: st.DrawFn) -> str:
    agg = draw(st.sampled_from(["COUNT", "SUM", "AVG", "MIN", "MAX", "MEDIAN", "count"]))
    arg = draw(st.sampled_from(["*", "salary", "age", "DISTINCT salary", "salary + 1", ""]))
    sql = f"SELECT {agg}({arg}) FROM {draw(st.sampled_from(['t', 'people p', 't, u']))}"
    if draw(st.integers(0, 4)):
        sql += f" WHERE {draw(conditions())}"
    return sql + draw(st.sampled_from(["", ";", " GROUP BY age", " LIMIT 1", "; SELECT 1"]))


def _parse_and_answer(sql: str) -> None:
    parsed = rejects_cleanly(parse_aggregate_query, sql, NUMERIC)
    if isinstance(parsed, ParsedQuery):  # what parses runs, and both backends count alike
        python = rejects_cleanly(bounded_query, NUMERIC, sql, backend="python")
        duck = rejects_cleanly(bounded_query, NUMERIC, sql, backend="duckdb")
        if not isinstance(python, Exception) and not isinstance(duck, Exception):
            assert python.hits == duck.hits, sql


@fuzzes("sql", queries() | mutated_text(queries(), b" (),") | st.text(max_size=60))
def test_queries_parse_and_run_or_fail_cleanly(sql):
    _parse_and_answer(sql)


# ---------------------------------------------------------------------------- the CLI


@fuzzes("cli_query", st.tuples(release_json().map(lambda c: (c[0], "release.json", c[1]))
                               | release_tables(), queries()))  # fmt: skip
def test_cli_query_on_fuzzed_releases_and_sql(case):
    (kind, name, data), sql = case
    d = _copy(kind)
    (d / name).write_bytes(data)
    run_cli(["table", "query", d, sql])
