"""One sheet of an Excel workbook (``.xlsx``/``.xlsm``) as a grid of text cells.

Read with polars' ``calamine`` engine (the ``fastexcel`` package).  Every cell is read as
text, as in a CSV file, so that values match hierarchy files exactly: a number shows without
formatting (``39``, ``3.5``), a date as ``2020-01-02 00:00:00``, an empty cell as missing.
Rows whose cells are all empty are left out, as a spreadsheet shows them.  O(cells).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from privlab.errors import ConfigError, InputError


def sheet_names(path: Path) -> list[str]:
    """The names of the workbook's sheets, in order."""
    import fastexcel

    try:
        return list(fastexcel.read_excel(path).sheet_names)
    except Exception as exc:  # fastexcel raises its own error types for damaged workbooks
        reason = str(exc).splitlines()[0]
        raise InputError(f"{path}: cannot read this Excel workbook ({reason})") from None


def read_sheet_grid(path: Path, sheet: str | None) -> tuple[pl.DataFrame, str]:
    """``(grid, name)``: sheet ``sheet`` (default: the first) as text columns ``column_0``,
    ``column_1``, ...; its first row is the sheet's first row (a header, if it has one)."""
    names = sheet_names(path)
    if sheet is None:
        name = names[0]
    elif sheet in names:
        name = sheet
    else:
        raise ConfigError(
            f"{path}: no sheet named {sheet!r}; the sheets are {names} — choose one with "
            "--sheet NAME"
        )
    try:
        grid = pl.read_excel(
            path,
            sheet_name=name,
            engine="calamine",
            has_header=False,
            infer_schema_length=0,
            drop_empty_cols=False,
            raise_if_empty=False,
        )
    except Exception as exc:  # as above
        reason = str(exc).splitlines()[0]
        raise InputError(f"{path}, sheet {name!r}: cannot read it ({reason})") from None
    return grid, name
