"""Reading and writing tables with polars: delimited text, Parquet, Excel workbooks.

:func:`read_table` is the one door every table command and the Python API read through.
Formats (by name, checked against the first bytes: :mod:`privlab.io.formats`):

* CSV/TSV text (UTF-8), plain or compressed with gzip or zstd (``.csv.gz``, ``.tsv.zst``):
  all cells are read as text, so that values match hierarchy files exactly (``"007"`` stays
  ``"007"``).  The delimiter is sniffed from the first line (decompressed) unless given.
* Parquet: the columns keep their types.
* Excel ``.xlsx``: one sheet (the first unless named), every cell as text
  (:mod:`privlab.io.excel`).

The first line (row) names the columns, unless ``columns`` gives the names of a file without
a header line.  Anything else — an SQLite database, a PDF, binary data — is refused with a
message that says what the file is and how to get a table out of it.
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.io.atomic import atomic_path
from privlab.io.excel import read_sheet_grid
from privlab.io.formats import detect_format
from privlab.io.memory import check_fits
from privlab.io.outputs import is_stdout, stdout_binary

CANDIDATE_DELIMITERS = (",", ";", "\t", "|")


def _not_utf8(path: Path, reason: str) -> InputError:
    return InputError(f"{path}: not UTF-8 text ({reason}); re-encode it as UTF-8")


def _first_line(path: Path, compression: str | None) -> str:
    """The first line of a (possibly compressed) text file, decoded; reads only its start."""
    if compression is None:
        # utf-8-sig: a byte-order mark is not part of the first column's name (polars drops it)
        with path.open("r", encoding="utf-8-sig", newline="") as fh:
            try:
                return fh.readline().rstrip("\r\n")
            except UnicodeDecodeError as exc:
                raise _not_utf8(path, exc.reason) from exc
    # polars decompresses as it scans; NUL as the separator and no quoting: the whole line
    try:
        head = pl.scan_csv(
            path, has_header=False, separator="\x00", quote_char=None, infer_schema=False,
            n_rows=1,
        ).collect()  # fmt: skip
    except (pl.exceptions.PolarsError, OSError) as exc:
        if "utf-8" in str(exc).lower():
            raise _not_utf8(path, str(exc)) from None
        raise _damaged(path, compression, exc) from None
    if head.height == 0:
        raise InputError(f"{path}: empty once decompressed; expected a header line and data rows")
    if head.width > 1:
        raise InputError(
            f"{path}: binary data once decompressed (a NUL byte on line 1), not a table; "
            "compress a CSV/TSV text file (UTF-8)"
        )
    return head.item(0, 0) or ""


def _damaged(path: Path, compression: str | None, exc: Exception) -> InputError:
    return InputError(
        f"{path}: cannot decompress it ({compression}: {str(exc).splitlines()[0]}); the file "
        "is damaged or incomplete — compress the table again"
    )


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


def _check_header(where: str, columns: Sequence[str]) -> None:
    """Every name non-empty and unique; ``where`` places the names (``FILE, line 1``)."""
    seen: dict[str, int] = {}
    for i, name in enumerate(columns, start=1):
        if name.strip() == "":
            raise InputError(f"{where}, column {i}: empty column name; name every column")
        if name in seen:
            raise InputError(
                f"{where}: duplicate column name {name!r} (columns {seen[name]} and {i}); "
                "column names must be unique"
            )
        seen[name] = i


def _given_names(columns: Sequence[str] | None) -> list[str] | None:
    """``columns`` (names for a header-less file) checked; None when not given."""
    if columns is None:
        return None
    names = [str(c) for c in columns]
    if not names:
        raise ConfigError("--columns: no names given; write --columns a,b,c")
    try:
        _check_header("--columns", names)
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    return names


def _check_first_row(where: str, fields: Sequence[str | None], names: list[str]) -> None:
    """A header-less file's first row must hold as many fields as ``names``, and not be a
    header line that would be read as data."""
    if [f or "" for f in fields] == names:
        raise ConfigError(
            f"{where} already names the columns {names}; drop --columns (it is for files "
            "without a header line)"
        )
    if len(fields) != len(names):
        raise InputError(
            f"{where}: {len(fields)} fields, but --columns gives {len(names)} names {names}; "
            "give one name per column"
        )


def read_table(
    path: str | os.PathLike[str],
    *,
    delimiter: str | None = None,
    expected_columns: list[str] | None = None,
    columns: Sequence[str] | None = None,
    sheet: str | None = None,
) -> pl.DataFrame:
    """Read a CSV/TSV (plain, ``.gz`` or ``.zst``), Parquet or Excel file into a DataFrame.

    Delimited text and Excel cells are read as strings; Parquet keeps its types.
    ``delimiter=None`` sniffs it from the first line.  If ``expected_columns`` are given and
    missing while another delimiter would have produced them, the error says so.
    ``columns``: the names of the columns of a file without a header line (delimited text or
    an Excel sheet); its first line is then data.  ``sheet``: the Excel sheet to read
    (default: the first).  Complexity: O(file size).
    """
    path = Path(path)
    _check_file(path)
    fmt = detect_format(path)
    check_fits(path, fmt.kind if fmt.kind in ("parquet", "excel") else
               "compressed" if fmt.compression else "delimited")  # fmt: skip
    names = _given_names(columns)
    if sheet is not None and fmt.kind != "excel":
        raise ConfigError(f"--sheet {sheet!r}: {path} is not an Excel workbook (.xlsx)")
    if fmt.kind == "parquet":
        if names is not None:
            raise ConfigError(
                f"--columns: {path} is a Parquet file, which names its own columns; drop --columns"
            )
        frame = read_parquet(path)
        _check_header(str(path), frame.columns)
        return frame
    if fmt.kind == "excel":
        grid, name = read_sheet_grid(path, sheet)
        where = f"{path}, sheet {name!r}"
        frame = _named_grid(where, grid, names)
    else:
        frame = _read_delimited(path, fmt.compression, delimiter, expected_columns, names)
        where = str(path)
    if frame.height == 0:
        raise InputError(f"{where}: the file has a header but no data rows")
    return frame


def _named_grid(where: str, grid: pl.DataFrame, names: list[str] | None) -> pl.DataFrame:
    """A sheet's grid of cells with its columns named by its first row, or by ``names``."""
    if grid.height == 0:
        raise InputError(f"{where}: the sheet is empty; expected a header row and data rows")
    first = list(grid.row(0))
    if names is not None:
        _check_first_row(f"{where}, row 1", first, names)
        return grid.rename(dict(zip(grid.columns, names, strict=True)))
    # columns without a name and without data (spacers between blocks) carry nothing
    body = grid.slice(1)
    keep = [
        i
        for i, c in enumerate(grid.columns)
        if first[i] is not None or body[c].null_count() < body.height
    ]
    header = [first[i] or "" for i in keep]
    _check_header(f"{where}, row 1", header)
    return body.select([grid.columns[i] for i in keep]).rename(
        dict(zip([grid.columns[i] for i in keep], header, strict=True))
    )


def _read_delimited(
    path: Path,
    compression: str | None,
    delimiter: str | None,
    expected_columns: list[str] | None,
    names: list[str] | None,
) -> pl.DataFrame:
    first = _first_line(path, compression)
    if first.strip() == "":
        raise InputError(
            f"{path}, line 1: empty header line; the first line must name the columns"
            if names is None
            else f"{path}, line 1: empty line; the first line of a file read with --columns "
            "must be data"
        )
    sniffed = sniff_delimiter(first)
    delim = delimiter or sniffed or ","
    try:
        fields = next(csv.reader([first], delimiter=delim))
    except csv.Error as exc:
        raise _csv_error(path, 1, exc) from None
    if names is not None:
        _check_first_row(f"{path}, line 1", fields, names)
    else:
        if expected_columns:
            missing = [c for c in expected_columns if c not in fields]
            if missing and sniffed and sniffed != delim:
                alt = next(csv.reader([first], delimiter=sniffed))
                if all(c in alt for c in expected_columns):
                    raise InputError(
                        f"{path}, line 1: columns {missing} not found with delimiter {delim!r}; "
                        f"the file looks {sniffed!r}-separated — pass --delimiter {sniffed!r}"
                    )
        _check_header(f"{path}, line 1", fields)
    try:
        frame = pl.read_csv(
            path,
            separator=delim,
            infer_schema=False,
            has_header=names is None,
            new_columns=names,
        )
        return _without_trailing_blank_lines(frame, path)
    except pl.exceptions.PolarsError as exc:
        if "utf-8" in str(exc).lower():
            raise _not_utf8(path, str(exc).splitlines()[0]) from None
        raise InputError(f"{path}: malformed CSV with delimiter {delim!r}: {exc}") from exc
    except OSError as exc:  # polars reports a damaged compressed stream so
        if compression is None:
            raise
        raise _damaged(path, compression, exc) from None


def _without_trailing_blank_lines(frame: pl.DataFrame, path: Path) -> pl.DataFrame:
    """Blank lines at the end of a file are not records (UCI's adult.data ends with one).

    polars reads a blank line as a row of nulls.  Trailing all-null rows are dropped when the
    file's last lines really are blank — a line of delimiters only is a record whose cells
    are all missing, and stays (the missing-value policy decides).  A blank line in the
    middle stays too, so that every row keeps its line number in messages.  O(1) unless the
    frame ends in an all-null row, then O(file size) for the check.
    """
    empty = frame.select(pl.all_horizontal(pl.all().is_null())).to_series()
    trailing = 0
    for value in reversed(empty.to_list()):
        if not value:
            break
        trailing += 1
    if trailing == 0:
        return frame
    # each line as one cell (NUL never occurs in text): a blank line is a null cell
    lines = pl.scan_csv(
        path, has_header=False, separator="\x00", quote_char=None, infer_schema=False
    ).collect()
    blank = 0
    for value in reversed(lines.to_series().to_list()):
        if value is not None:
            break
        blank += 1
    return frame.head(frame.height - min(trailing, blank))


def bad_rows(
    bad: pl.Series | np.ndarray, first_line: int | None, what: str = "row", where: str = "line"
) -> str:
    """``"3 rows (first at line 7)"`` for a mask of offending rows — or, when
    ``first_line`` is None (the rows are private, e.g. under differential privacy), only
    ``"3 rows"``.  Position i is ``where`` ``first_line + i`` (a file line, or a row of a data
    frame with ``where="row"``, ``first_line=0``).  Error messages name rows this way, never
    by a cell's value."""
    mask = bad.to_numpy() if isinstance(bad, pl.Series) else np.asarray(bad)
    n = int(np.count_nonzero(mask))
    text = f"{n} {what}{'' if n == 1 else 's'}"
    if first_line is None:
        return text
    return f"{text} (first at {where} {first_line + int(np.argmax(mask))})"


def read_parquet(path: Path) -> pl.DataFrame:
    """``pl.read_parquet``; a corrupt file is an InputError naming it.  O(file size)."""
    try:
        return pl.read_parquet(path)
    # polars raises several types for corrupt files, and panics (a BaseException) on some
    except (Exception, pl.exceptions.PanicException) as exc:
        raise InputError(f"{path}: cannot read Parquet file: {exc}") from None


def numeric_column(
    series: pl.Series, source: str, first_line: int | None = 2, *, allow_missing: bool = True
) -> np.ndarray:
    """A string or numeric column parsed as float64; InputError naming the bad rows.

    ``nan`` and ``inf`` are refused; missing cells become NaN, or are refused when
    ``allow_missing`` is false.  Row i of the column is line ``first_line + i`` of
    ``source``; ``first_line=None`` names no line (for private data under DP).  Messages
    give the column, the number of offending rows and the first one's line, never a cell's
    value.  O(n).
    """
    parsed = series.cast(pl.Float64, strict=False)
    bad = (parsed.is_null() & series.is_not_null()) | (
        parsed.is_nan() | parsed.is_infinite()
    ).fill_null(False)
    if bad.any():
        raise InputError(
            f"{source}, column {series.name!r}: {bad_rows(bad, first_line)} with a value that "
            "is not a finite number; this attribute must be numeric — fix or remove those rows"
        )
    if not allow_missing and series.is_null().any():
        raise InputError(
            f"{source}, column {series.name!r}: {bad_rows(series.is_null(), first_line)} with "
            "a missing value; remove or impute such rows first"
        )
    return parsed.to_numpy()


def write_table(
    frame: pl.DataFrame,
    path: str | os.PathLike[str],
    *,
    delimiter: str = ",",
    named: str | os.PathLike[str] | None = None,
) -> Path:
    """Write ``frame`` as CSV (or Parquet, by suffix) atomically; ``-`` is standard output
    (CSV).  ``named``: the final name that decides the format, when ``path`` is a temporary
    file of :func:`privlab.io.atomic.atomic_paths`."""
    if is_stdout(path):
        frame.write_csv(stdout_binary(), separator=delimiter)
        return Path(path)
    path = Path(path)
    parquet = Path(named or path).suffix.lower() in (".parquet", ".pq")
    with atomic_path(path) as tmp:
        if parquet:
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
    """Write rows of strings as a header-less delimited file, atomically (``-``: stdout)."""
    if is_stdout(path):
        out = io.TextIOWrapper(stdout_binary(), encoding="utf-8", newline="")
        try:
            csv.writer(out, delimiter=delimiter, lineterminator="\n").writerows(rows)
        finally:
            out.detach()
        return Path(path)
    path = Path(path)
    with atomic_path(path) as tmp, tmp.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, delimiter=delimiter, lineterminator="\n").writerows(rows)
    return path
