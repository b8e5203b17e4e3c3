"""Options of every command that reads a table: ``--columns`` (a file without a header line)
and ``--sheet`` (the sheet of an Excel workbook); see :func:`privlab.io.delimited.read_table`."""

from __future__ import annotations

from collections.abc import Sequence

import typer

TABLE_FILES = "CSV/TSV (also .gz, .zst), Parquet or Excel .xlsx"
COLUMNS_HELP = (
    "The column names of a file without a header line, a,b,c (its first line is then data)."
)
SHEET_HELP = "Excel workbook (.xlsx): the sheet to read (default: the first)."

COLUMNS_OPT = typer.Option(None, "--columns", help=COLUMNS_HELP)
SHEET_OPT = typer.Option(None, "--sheet", help=SHEET_HELP)


def column_names(value: str | Sequence[str] | None) -> list[str] | None:
    """``--columns a,b,c`` (or a job file's list of names) as a list; None when not given.

    Empty names are kept, so that :func:`~privlab.io.delimited.read_table` refuses them.
    """
    if value is None:
        return None
    names = value.split(",") if isinstance(value, str) else [str(v) for v in value]
    return [n.strip() for n in names]


def first_data_line(names: Sequence[str] | None) -> int:
    """The file line of a table's first data row: 1 without a header line, else 2."""
    return 1 if names else 2
