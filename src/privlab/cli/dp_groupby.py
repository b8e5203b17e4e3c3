"""``privlab dp release`` with ``--groupby``, ``--privacy-unit`` or ``-o``: grouped releases.

The options are declared here and used by :func:`privlab.cli.dp.release`; a release with
any of them (or a ``variance``/``std`` query) is answered by :func:`run` through
:func:`privlab.dp.groupby.grouped_release`.  One table comes out: one row per released
group, a column per query; ``-o`` writes it as CSV or Parquet through the output guard
(never over an input).  Column values read from delimited text are strings: the columns
the queries aggregate are parsed as numbers (integers stay integers, so their sums get the
exact discrete noise); group keys and units stay as read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import typer
from rich.table import Table

from privlab.cli.common import guard_outputs, note, print_json, summary_console
from privlab.errors import ConfigError, InputError
from privlab.io.delimited import numeric_column, read_table, write_table
from privlab.io.outputs import Output


def _option(default: Any, name: str, text: str, *aliases: str) -> Any:
    return typer.Option(default, name, *aliases, help=text, show_default=False)


GROUPBY_OPT = _option(
    [], "--groupby", "Group-by columns: a,b or repeat the option (default: none, one group)."
)
UNIT_OPT, MAX_ROWS_OPT, MAX_GROUPS_OPT, KEYS_OPT = (
    _option(None, name, text)
    for name, text in (
        ("--privacy-unit", "The column naming whom DP protects (a person with many rows); "
         "default: one row is one person."),
        ("--max-rows-per-unit", "With --privacy-unit: the most rows a unit keeps per group "
         "(chosen uniformly at random); required with it."),
        ("--max-groups-per-unit", "With --privacy-unit and --groupby: the most groups a unit "
         "keeps (chosen uniformly at random); required with both."),
        ("--keys", "Public group keys: a table file with the --groupby columns. Without "
         "--keys/--key (the default) the keys are private: groups are chosen by DP "
         "partition selection (needs --delta)."),
    )
)  # fmt: skip
KEY_OPT = _option(
    [], "--key", "Public keys of one group-by column, COL=a,b,c (repeatable; default: see --keys)."
)
MECHANISM_OPT = _option(
    None, "--mechanism", "laplace (pure ε; the default) or gaussian (ρ-zCDP, needs --delta)."
)
NON_NEGATIVE_OPT = typer.Option(
    False, "--non-negative",
    help="Clip noisy counts (and sums with LOW >= 0) and their intervals below at 0: "
    "post-processing, no budget (default: the raw noisy values).",
)  # fmt: skip
OUTPUT_OPT = _option(
    None,
    "--output",
    "Write the grouped results (.csv or .parquet; - for stdout); without it: shown only.",
    "-o",
)

GROUPED_ONLY = ("variance", "std", "median", "quantile")


def parse_quantile_query(text: str, parts: list[str]) -> Any:
    """``quantile:COL:LOW:HIGH:P`` as a Query (LOW < HIGH finite, 0 ≤ P ≤ 1 are checked by
    the library, naming the query)."""
    from privlab.cli.dp import Query

    if len(parts) != 5 or not parts[1]:
        raise ConfigError(
            f"--query {text!r}: a quantile needs clamping bounds fixed in advance and its "
            "level, quantile:COL:LOW:HIGH:P (e.g. quantile:age:0:120:0.9; median:COL:LOW:HIGH "
            "for P = 0.5)"
        )
    try:
        low, high, level = float(parts[2]), float(parts[3]), float(parts[4])
    except ValueError:
        raise ConfigError(f"--query {text!r}: LOW, HIGH and P must be numbers") from None
    if not 0 <= level <= 1:
        raise ConfigError(f"--query {text!r}: the level P = {parts[4]} must be in [0, 1]")
    return Query("quantile", parts[1], low, high, quantile=level)


def wants_grouped(queries: list[Any], **options: Any) -> bool:
    """Is this a grouped release: a grouped option given, or a query only grouped answers?"""
    return any(bool(v) for v in options.values()) or any(q.kind in GROUPED_ONLY for q in queries)


def split_names(items: list[str], option: str) -> list[str]:
    """``a,b`` and repeated options as one list of distinct, non-empty names."""
    names = [n.strip() for item in items for n in item.split(",")]
    if any(not n for n in names) or len(set(names)) != len(names):
        raise ConfigError(f"{option} {','.join(items)!r}: give distinct column names, a,b,c")
    return names


def parse_keys(specs: list[str]) -> dict[str, list[str]]:
    """``--key COL=a,b,c`` items as {column: [values]}."""
    keys: dict[str, list[str]] = {}
    for spec in specs:
        column, sep, values = spec.partition("=")
        if not sep or not column.strip() or not values:
            raise ConfigError(f"--key {spec!r}: write COL=a,b,c (the public values of COL)")
        labels = values.split(",")
        if column.strip() in keys or len(set(labels)) != len(labels):
            raise ConfigError(f"--key {spec!r}: give each column once, with distinct values")
        keys[column.strip()] = labels
    return keys


def _numeric(frame: pl.DataFrame, column: str, source: str) -> pl.Series:
    """A query column as numbers: numeric columns as they are, text parsed (integers stay
    integers); InputError naming the column, never a value."""
    series = frame[column]
    if series.dtype.is_numeric() and series.dtype != pl.Boolean:
        return series
    values = numeric_column(series, source, None, allow_missing=False)
    if np.all(np.mod(values, 1) == 0) and np.abs(values).max(initial=0) < 2**53:
        return pl.Series(column, values.astype(np.int64))
    return pl.Series(column, values)


def _aggregations(queries: list[Any]) -> list[Any]:
    from privlab.dp.groupby import Aggregation

    out = []
    for q in queries:
        if q.kind == "histogram":
            raise ConfigError(
                f"--query histogram:{q.column}: in a grouped release write --groupby "
                f"{q.column} -q count (with --key {q.column}=a,b,c for fixed bins)"
            )
        eps = getattr(q, "epsilon", None)  # a per-query budget, where the parser gives one
        level = getattr(q, "quantile", None)
        out.append(Aggregation(q.kind, q.column, q.low, q.high, quantile=level, epsilon=eps))
    return out


def run(
    *, input: Path, queries: list[Any], epsilon: float, delta: float, groupby: list[str],
    privacy_unit: str | None, max_rows: int | None, max_groups: int | None,
    keys_file: Path | None, key: list[str], mechanism: str | None, output: Path | None,
    non_negative: bool = False, delimiter: str | None, names: list[str] | None,
    sheet: str | None, seed: int | None,
    json_out: bool, non_private_diagnostics: bool,
) -> None:  # fmt: skip
    """Answer ``queries`` per group (see the module's docstring)."""
    from privlab.cli.diagnostics import attach, print_section
    from privlab.dp.groupby import grouped_release
    from privlab.dp.noise import secure_generator

    guard_outputs([Output(output, "-o", stdout_ok=True)], [input, keys_file], json_out=json_out)
    by = split_names(groupby, "--groupby")
    aggregations = _aggregations(queries)
    if (keys_file is not None or key) and not by:
        raise ConfigError("--keys/--key give the keys of groups: add --groupby COL")
    if keys_file is not None and key:
        raise ConfigError("give the public keys either as --keys FILE or as --key COL=a,b,c")
    private = bool(by) and keys_file is None and not key
    if private and delta == 0:
        raise ConfigError(
            "--delta 0 with private keys (--groupby without --keys or --key): DP partition "
            "selection needs δ > 0 (e.g. --delta 1e-6, below 1/number of units), or give the "
            "public keys with --keys FILE / --key COL=a,b,c"
        )
    keys: Any = parse_keys(key) if key else None
    frame = read_table(input, delimiter=delimiter, columns=names, sheet=sheet)
    source = str(input)
    needed = [*by, *([privacy_unit] if privacy_unit else [])]
    needed += [a.column for a in aggregations if a.column]
    _require(frame.columns, list(dict.fromkeys(needed)), source, "")
    if keys_file is not None:
        key_frame = read_table(keys_file)
        _require(
            key_frame.columns, by, str(keys_file), "; the key file needs the --groupby columns"
        )
        keys = key_frame.select(by)
    rows_read = frame.height
    value_columns = dict.fromkeys(a.column for a in aggregations if a.column)
    frame = frame.select(list(dict.fromkeys(needed))).with_columns(
        [_numeric(frame, c, source) for c in value_columns]
    )
    rng = secure_generator(seed)
    try:
        release = grouped_release(
            frame, by=by, aggregations=aggregations, epsilon=epsilon, delta=delta,
            privacy_unit=privacy_unit, max_rows_per_unit=max_rows,
            max_groups_per_unit=max_groups, keys=keys, mechanism=mechanism or "laplace",
            seed=rng,
        )  # fmt: skip
    except (ConfigError, InputError) as exc:  # name the file and the options
        raise type(exc)(f"{source}: {_as_options(str(exc))}") from None
    if non_negative:
        release = clip_non_negative(release, aggregations)
    payload = {
        "input": source,
        **({"output": str(output)} if output is not None else {}),
        **release.to_dict(),
    }
    attach(payload, {"rows_read": rows_read}, non_private_diagnostics)
    if output is not None:
        write_table(release.frame, output)
    if json_out:
        print_json(payload)
    else:
        _print(release, source, output)
        print_section(payload)
    if seed is not None:
        note("--seed given: the noise is reproducible, hence NOT private.", "warning")


def clip_non_negative(release: Any, aggregations: list[Any]) -> Any:
    """The release with its counts, and its sums of values clamped to LOW ≥ 0, clipped
    below at 0 with their intervals (privlab.dp.postprocess.non_negative_columns): the true
    figures are ≥ 0, so the clipped intervals keep their coverage.  Post-processing of the
    released frame: no budget.  O(groups)."""
    from dataclasses import replace

    from privlab.dp.postprocess import non_negative_columns

    columns = [a.name for a in aggregations
               if a.kind == "count" or (a.kind == "sum" and float(a.low) >= 0)]  # fmt: skip
    if not columns:
        return release
    note_text = (f"--non-negative: {', '.join(columns)} (and their intervals) clipped below "
                 "at 0; post-processing, no budget")  # fmt: skip
    return replace(release, frame=non_negative_columns(release.frame, columns),
                   notes=[*release.notes, note_text])  # fmt: skip


def _require(columns: list[str], wanted: list[str], where: str, why: str) -> None:
    absent = [c for c in wanted if c not in columns]
    if absent:
        raise InputError(f"{where}: no column(s) {absent}{why}; the columns are {columns}")


_OPTION_NAMES = {
    "max_rows_per_unit": "--max-rows-per-unit", "max_groups_per_unit": "--max-groups-per-unit",
    "privacy_unit": "--privacy-unit", "keys:": "--keys/--key:", "mechanism =": "--mechanism =",
    "needs delta > 0": "needs --delta > 0",
}  # fmt: skip


def _as_options(message: str) -> str:
    """A library message in the CLI's words (parameter names → option names)."""
    for name, option in _OPTION_NAMES.items():
        message = message.replace(name, option)
    return message


def _print(release: Any, source: str, output: Path | None, limit: int = 40) -> None:
    console = summary_console(output)
    frame = release.frame
    grid = Table(title=f"{source}: differentially private answers per group ({release.budget})")
    for col in frame.columns:
        grid.add_column(col)
    for row in frame.head(limit).iter_rows():
        grid.add_row(*(f"{v:.6g}" if isinstance(v, float) else str(v) for v in row))
    console.print(grid)
    if frame.height > limit:
        where = f"all in {output}" if output is not None else "write them all with -o FILE"
        console.print(f"… {frame.height - limit} more group(s): {where}")
    for text in release.notes:
        console.print(f"note: {text}")
    if release.selection is not None:
        sel = release.selection
        console.print(
            f"note: private keys: a group is released when its noisy number of units reaches "
            f"{sel.threshold} ({sel.mechanism} partition selection, δ = {sel.delta:g})"
        )
