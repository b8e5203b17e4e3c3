"""Reading and writing delimited text and Parquet tables with polars.

All cells of a CSV file are read as text, so that values match hierarchy files exactly
(``"007"`` stays ``"007"``).  The delimiter is sniffed from the header line unless given.
"""

from __future__ import annotations

import csv
import os
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl

from privlab.errors import InputError
from privlab.io.atomic import atomic_path

CANDIDATE_DELIMITERS = (",", ";", "\t", "|")


def _first_line(path: Path) -> str:
    # utf-8-sig: a byte-order mark is not part of the first column's name (polars drops it)
    with path.open("r", encoding="utf-8-sig", newline="") as fh:
        try:
            return fh.readline().rstrip("\r\n")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{path}: not UTF-8 text ({exc.reason}); re-encode it as UTF-8"
            ) from exc


def sniff_delimiter(line: str) -> str | None:
    """The candidate delimiter occurring most often in ``line`` (None if none occurs)."""
    counts = Counter({d: line.count(d) for d in CANDIDATE_DELIMITERS})
    delim, n = counts.most_common(1)[0]
    return delim if n > 0 else None


def _check_file(path: Path) -> None:
    if not path.exists():
        raise InputError(f"{path}: no such file")
    if path.is_dir():
        raise InputError(f"{path}: is a folder, expected a file")
    if path.stat().st_size == 0:
        raise InputError(f"{path}: the file is empty; expected a header line and data rows")


def _check_header(path: Path, columns: list[str]) -> None:
    seen: dict[str, int] = {}
    for i, name in enumerate(columns, start=1):
        if name.strip() == "":
            raise InputError(f"{path}, line 1, column {i}: empty column name; name every column")
        if name in seen:
            raise InputError(
                f"{path}, line 1: duplicate column name {name!r} (columns {seen[name]} and {i}); "
                "column names must be unique"
            )
        seen[name] = i


def read_table(
    path: str | os.PathLike[str],
    *,
    delimiter: str | None = None,
    expected_columns: list[str] | None = None,
) -> pl.DataFrame:
    """Read a CSV (all columns as strings) or Parquet file into a polars DataFrame.

    ``delimiter=None`` sniffs it from the header.  If ``expected_columns`` are given and
    missing while another delimiter would have produced them, the error says so.
    Complexity: O(file size).
    """
    path = Path(path)
    _check_file(path)
    if path.suffix.lower() in (".parquet", ".pq"):
        frame = read_parquet(path)
        _check_header(path, frame.columns)
        return frame
    header = _first_line(path)
    if header.strip() == "":
        raise InputError(f"{path}, line 1: empty header line; the first line must name the columns")
    sniffed = sniff_delimiter(header)
    delim = delimiter or sniffed or ","
    try:
        columns = next(csv.reader([header], delimiter=delim))
    except csv.Error as exc:
        raise _csv_error(path, 1, exc) from None
    if expected_columns:
        missing = [c for c in expected_columns if c not in columns]
        if missing and sniffed and sniffed != delim:
            alt = next(csv.reader([header], delimiter=sniffed))
            if all(c in alt for c in expected_columns):
                raise InputError(
                    f"{path}, line 1: columns {missing} not found with delimiter {delim!r}; "
                    f"the file looks {sniffed!r}-separated — pass --delimiter {sniffed!r}"
                )
    _check_header(path, columns)
    try:
        frame = pl.read_csv(
            path,
            separator=delim,
            infer_schema=False,
            has_header=True,
        )
    except pl.exceptions.PolarsError as exc:  # ComputeError, NoDataError, ...
        raise InputError(f"{path}: malformed CSV with delimiter {delim!r}: {exc}") from exc
    if frame.height == 0:
        raise InputError(f"{path}: the file has a header but no data rows")
    return frame


def read_parquet(path: Path) -> pl.DataFrame:
    """``pl.read_parquet``; a corrupt file is an InputError naming it.  O(file size)."""
    try:
        return pl.read_parquet(path)
    # polars raises several types for corrupt files, and panics (a BaseException) on some
    except (Exception, pl.exceptions.PanicException) as exc:
        raise InputError(f"{path}: cannot read Parquet file: {exc}") from None


def numeric_column(
    series: pl.Series, source: str, first_line: int = 2, *, allow_missing: bool = True
) -> np.ndarray:
    """A string or numeric column parsed as float64; InputError naming the first bad cell.

    ``nan`` and ``inf`` are refused; missing cells become NaN, or are refused when
    ``allow_missing`` is false.  Row i of the column is line ``first_line + i`` of
    ``source``.  O(n).
    """
    parsed = series.cast(pl.Float64, strict=False)
    bad = (parsed.is_null() & series.is_not_null()) | (
        parsed.is_nan() | parsed.is_infinite()
    ).fill_null(False)
    if bad.any():
        i = int(bad.arg_max())
        raise InputError(
            f"{source}, line {first_line + i}, column {series.name!r}: "
            f"{series[i]!r} is not a number; this attribute must be numeric"
        )
    if not allow_missing and series.is_null().any():
        i = int(series.is_null().arg_max())
        raise InputError(
            f"{source}, line {first_line + i}, column {series.name!r}: missing value; "
            "remove or impute such rows first"
        )
    return parsed.to_numpy()


def write_table(frame: pl.DataFrame, path: str | os.PathLike[str], *, delimiter: str = ",") -> Path:
    """Write ``frame`` as CSV (or Parquet, by suffix) atomically."""
    path = Path(path)
    with atomic_path(path) as tmp:
        if path.suffix.lower() in (".parquet", ".pq"):
            frame.write_parquet(tmp)
        else:
            frame.write_csv(tmp, separator=delimiter)
    return path


def read_rows(path: str | os.PathLike[str], *, delimiter: str = ";") -> list[list[str]]:
    """Read a header-less delimited file (such as an ARX hierarchy) into rows of strings."""
    path = Path(path)
    _check_file(path)
    # utf-8-sig: a byte-order mark (Excel writes one) must not become part of the first value
    with path.open("r", encoding="utf-8-sig", newline="") as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        try:
            return list(reader)
        except UnicodeDecodeError as exc:
            raise InputError(f"{path}: not UTF-8 text ({exc.reason})") from exc
        except csv.Error as exc:
            raise _csv_error(path, reader.line_num, exc) from None


def _csv_error(path: Path, line: int, exc: csv.Error) -> InputError:
    """The csv module's error (in practice: a field over its size limit) naming the line."""
    return InputError(
        f'{path}, line {line}: {exc}; a value that long usually means a quote (") was left '
        "open — close it, or shorten the value"
    )


def write_rows(
    rows: list[list[str]], path: str | os.PathLike[str], *, delimiter: str = ";"
) -> Path:
    """Write rows of strings as a header-less delimited file, atomically."""
    path = Path(path)
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter, lineterminator="\n").writerows(rows)
    return path
