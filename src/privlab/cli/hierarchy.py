"""``privlab table hierarchy KIND INPUT --column COL -o OUT.csv``: build a hierarchy file.

The hierarchy is built from the distinct values of one column with the builders of
:mod:`privlab.table.hierarchy_builders` and written in ARX's format (``;``-separated, one
row per value, one column per level), atomically: on any error nothing is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from privlab.cli.common import exits_on_bad_input, guard_outputs, print_json, summary_console
from privlab.cli.specs import (
    CLI_MISSING_LABEL,
    HierarchySpec,
    column_values,
    parse_sizes,
)
from privlab.cli.table_input import (
    COLUMNS_OPT,
    SHEET_OPT,
    TABLE_FILES,
    column_names,
    first_data_line,
)
from privlab.errors import ConfigError
from privlab.io.delimited import read_table
from privlab.io.outputs import Output
from privlab.table.hierarchy import Hierarchy
from privlab.table.hierarchy_builders import HIERARCHY_KINDS

#: Which command-line options each kind of hierarchy takes.
KIND_OPTIONS: dict[str, tuple[str, ...]] = {
    "interval": ("--width", "--fanout", "--levels", "--start", "--bottom", "--top"),
    "order": ("--group-size",),
    "masking": ("--char", "--pad", "--from-left"),
    "date": ("--date-format", "--date-levels"),
    "flat": (),
}


def _spec_from_options(kind: str, given: dict[str, Any]) -> HierarchySpec:
    """Check that each option given applies to ``kind`` and turn them into builder params."""
    kind = kind.strip().lower()
    if kind not in HIERARCHY_KINDS:
        raise ConfigError(
            f"KIND {kind!r}: unknown hierarchy kind; use {', '.join(HIERARCHY_KINDS)}"
        )
    for flag, value in given.items():
        if value is not None and flag not in KIND_OPTIONS[kind]:
            owner = next(k for k, flags in KIND_OPTIONS.items() if flag in flags)
            raise ConfigError(
                f"{flag} applies to {owner} hierarchies, not to {kind}; "
                f"a {kind} hierarchy takes {', '.join(KIND_OPTIONS[kind]) or 'no options'}"
            )
    params: dict[str, Any] = {}
    if kind == "interval":
        if given["--width"] is None:
            raise ConfigError("--width: an interval hierarchy needs the interval width, e.g. 5")
        for flag in KIND_OPTIONS["interval"]:
            if given[flag] is not None:
                params[flag[2:]] = given[flag]
    elif kind == "order":
        sizes = parse_sizes("--group-size", given["--group-size"] or "2")
        params["group_size"] = sizes[0] if len(sizes) == 1 else sizes
    elif kind == "masking":
        if given["--char"] is not None:
            params["char"] = given["--char"]
        if given["--pad"] is not None:
            params["pad"] = given["--pad"]
        params["from_right"] = not given["--from-left"]
    elif kind == "date":
        if given["--date-format"] is not None:
            params["format"] = given["--date-format"]
        if given["--date-levels"] is not None:
            params["levels"] = given["--date-levels"]
    return HierarchySpec(kind=kind, params=params)


@exits_on_bad_input
def hierarchy(
    kind: str = typer.Argument(..., help="interval | order | masking | date | flat"),
    input: Path = typer.Argument(..., help=f"Table file holding the column: {TABLE_FILES}."),
    column: str = typer.Option(..., "--column", "-c", help="Column to build the hierarchy for."),
    output: Path = typer.Option(
        ..., "-o", "--output", help="Hierarchy file to write (ARX CSV; - for stdout)."
    ),
    width: float | None = typer.Option(
        None, "--width", help="interval: width of level 1 (required for interval)."
    ),
    fanout: int | None = typer.Option(
        None, "--fanout", help="interval: intervals merged per level (default: 2)."
    ),
    levels: int | None = typer.Option(
        None, "--levels", help="interval: number of interval levels (default: until one)."
    ),
    start: float | None = typer.Option(
        None,
        "--start",
        help="interval: where the first interval starts (default: --bottom, else the "
        "largest multiple of the width not above the smallest value).",
    ),
    bottom: float | None = typer.Option(
        None, "--bottom", help="interval: values below B are coded '<B' (default: none)."
    ),
    top: float | None = typer.Option(
        None, "--top", help="interval: values from T on are coded '>=T' (default: none)."
    ),
    group_size: str | None = typer.Option(
        None,
        "--group-size",
        help="order: values per group (3), or per level (4,2) (default: 2).",
    ),
    char: str | None = typer.Option(
        None, "--char", help="masking: masking character (default: *)."
    ),
    pad: str | None = typer.Option(
        None, "--pad", help="masking: padding for shorter values (default: --char)."
    ),
    from_left: bool | None = typer.Option(
        None,
        "--from-left",
        help="masking: mask from the left, keeping suffixes (default: from the right).",
    ),
    date_format: str | None = typer.Option(
        None, "--date-format", help="date: strptime format (default: %Y-%m-%d)."
    ),
    date_levels: str | None = typer.Option(
        None,
        "--date-levels",
        help="date: levels, fine to coarse, from week, month, quarter, year, decade "
        "(default month,year,decade).",
    ),
    delimiter: str | None = typer.Option(
        None, "--delimiter", help="Field delimiter (default: sniffed)."
    ),
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    missing: str | None = typer.Option(
        None, "--missing", help="Missing cells: 'error' (default) or 'category' (leaf '?')."
    ),
    na: list[str] | None = typer.Option(
        None, "--na", help="Text that marks a missing cell (repeatable; default: empty)."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print a machine-readable summary."),
) -> None:
    """Build a generalization hierarchy for one column and write it in ARX's format.

    \b
    Examples:
      privlab table hierarchy interval data.csv --column age --width 5 --top 90 -o age.csv
      privlab table hierarchy masking data.csv --column zip -o zip.csv
      privlab table hierarchy date data.csv --column birth --date-levels month,year -o b.csv
    """
    spec = _spec_from_options(
        kind,
        {
            "--width": width,
            "--fanout": fanout,
            "--levels": levels,
            "--start": start,
            "--bottom": bottom,
            "--top": top,
            "--group-size": group_size,
            "--char": char,
            "--pad": pad,
            "--from-left": from_left,
            "--date-format": date_format,
            "--date-levels": date_levels,
        },
    )
    policy = (missing or "error").strip().lower()
    if policy not in ("error", "category"):
        raise ConfigError(f"--missing {missing!r}: use 'error' or 'category'")
    guard_outputs([Output(output, "-o", stdout_ok=True)], [input], json_out=json_out)
    names = column_names(columns)
    frame = read_table(
        input, delimiter=delimiter, expected_columns=[column], columns=names, sheet=sheet
    )
    cells = column_values(frame, column, source=str(input), na_values=na or ("",))
    result = spec.build(
        cells,
        column=column,
        source=str(input),
        missing_label=CLI_MISSING_LABEL if policy == "category" else None,
        first_line=first_data_line(names),
    )
    result.to_csv(output)
    summary = _summary(result, spec, column, input, output)
    if json_out:
        print_json(summary)
    else:
        _print_summary(result, summary, summary_console(output))


def _summary(
    result: Hierarchy, spec: HierarchySpec, column: str, input: Path, output: Path
) -> dict[str, Any]:
    return {
        "kind": spec.kind,
        "column": column,
        "input": str(input),
        "output": str(output),
        "leaves": result.n_leaves,
        "height": result.height,
        "groups_per_level": [result.n_groups(level) for level in range(result.height + 1)],
    }


def _print_summary(result: Hierarchy, summary: dict[str, Any], console: Console) -> None:
    grid = Table(
        title=f"{summary['kind']} hierarchy for {summary['column']!r} → {summary['output']}"
    )
    grid.add_column("level", justify="right")
    grid.add_column("groups", justify="right")
    grid.add_column("labels")
    for level in range(result.height + 1):
        labels = result.group_labels(level).tolist()
        shown = ", ".join(labels[:4]) + (", …" if len(labels) > 4 else "")
        grid.add_row(str(level), str(len(labels)), shown)
    console.print(grid)


__all__ = ["KIND_OPTIONS", "hierarchy"]
