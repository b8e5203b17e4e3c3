"""``privlab dp quantile`` and ``privlab dp mode``: the exponential mechanism on a column.

``quantile`` draws a private p-quantile of a numeric column clamped to public bounds from
the continuous-range exponential mechanism (rank score, sensitivity 1).  ``mode`` picks the
most frequent of a public list of categories (score = count, sensitivity 1) with the
textbook exponential mechanism or with permute-and-flip.  Neither prints a count or a
value of the data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from privlab.cli.common import Quiet, exits_on_bad_input, note, out_console, print_json, spinner
from privlab.cli.dp import DELIM_OPT, SEED_HELP, app
from privlab.cli.table_input import COLUMNS_OPT, SHEET_OPT, TABLE_FILES, column_names
from privlab.errors import ConfigError, InputError

MECHANISMS = ("textbook", "permute-and-flip")


def _read_column(
    input: Path, column: str, delimiter: str | None, columns: str | None, sheet: str | None
) -> Any:
    from privlab.io.delimited import read_table

    with spinner(f"reading {input.name} …"):
        frame = read_table(input, delimiter=delimiter, columns=column_names(columns), sheet=sheet)
    if column not in frame.columns:
        raise InputError(f"{input}: no column {column!r}; the columns are {frame.columns}")
    return frame[column]


def _finish(payload: dict, text: str, json_out: bool, seed: int | None) -> None:
    if json_out:
        print_json(payload)
    else:
        out_console.print(text)
    if seed is not None:
        note("--seed given: the noise is reproducible, hence NOT private.", "warning")


@app.command()
@exits_on_bad_input
def quantile(
    input: Path = typer.Argument(..., help=f"Table file: {TABLE_FILES}."),
    column: str = typer.Option(..., "--column", help="Numeric column."),
    low: float = typer.Option(..., "--low", help="Public lower bound (values are clamped)."),
    high: float = typer.Option(..., "--high", help="Public upper bound (values are clamped)."),
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="ε of the release."),
    p: list[float] = typer.Option(
        [0.5], "--quantile", "-p",
        help="Which quantile, in [0, 1]; repeat (-p 0.25 -p 0.75) for several sharing ε evenly.",
    ),
    joint: bool = typer.Option(
        False, "--joint",
        help="Draw all -p levels at once with the joint exponential mechanism over "
        "--candidates evenly spaced values (no ε/k split; better for many levels).",
    ),
    candidates: int | None = typer.Option(
        None, "--candidates", help="With --joint: how many evenly spaced candidate values "
        "(default 1025)."
    ),
    delimiter: str | None = DELIM_OPT,
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    seed: int | None = typer.Option(None, "--seed", help=SEED_HELP.format("noise")),
    json_out: bool = typer.Option(False, "--json", help="Print the release as JSON."),
    quiet: Quiet = False,
) -> None:
    """Release a quantile of a column (the median by default) with ε-differential privacy.

    The continuous-range exponential mechanism with the rank score: the answer is a real
    number in [--low, --high], drawn with density proportional to exp(-ε·|rank error|/2).
    Several -p values share ε: each quantile gets ε/k (sequential composition), and the
    answers are sorted to be monotone in p.  With --joint they are drawn together from
    --candidates grid values by the joint exponential mechanism (Gillenwater et al. 2021).
    """
    from privlab.dp.accountant import check_epsilon
    from privlab.dp.exponential import private_quantile
    from privlab.dp.quantiles import JOINT_MAX_CANDIDATES, joint_quantiles, private_quantiles
    from privlab.io.delimited import numeric_column
    from privlab.validate import check_fraction

    eps = check_epsilon(epsilon, "--epsilon")
    for level in p:
        check_fraction(level, "--quantile", low_open=False)
    if len(set(p)) != len(p):
        raise ConfigError(f"--quantile {' '.join(f'{q:g}' for q in p)}: give each level once")
    if candidates is not None and not joint:
        raise ConfigError(f"--candidates {candidates}: applies to --joint only; add --joint")
    candidates = 1025 if candidates is None else candidates
    if joint and not 2 <= candidates <= JOINT_MAX_CANDIDATES:
        raise ConfigError(
            f"--candidates {candidates}: give a number of grid values in "
            f"2..{JOINT_MAX_CANDIDATES} (the joint mechanism holds m × m tables)"
        )
    if not (abs(low) < float("inf") and abs(high) < float("inf") and high > low):
        raise ConfigError(
            f"--low {low:g} --high {high:g}: give finite bounds with LOW < HIGH, from the "
            "column's public domain"
        )
    series = _read_column(input, column, delimiter, columns, sheet)
    x = numeric_column(series, str(input), None, allow_missing=False)
    if joint:
        release = joint_quantiles(x, low, high, p, eps, candidates=candidates, seed=seed)
        text = "\n".join(
            f"{column}: private {q:g}-quantile ≈ {v:.6g} (jointly, ε = {eps:g} in all)"
            for q, v in zip(p, release.value, strict=True)
        )
    elif len(p) == 1:
        release = private_quantile(x, low, high, eps, quantile=p[0], seed=seed)
        text = f"{column}: private {p[0]:g}-quantile ≈ {release.value:.6g} (ε = {eps:g})"
    else:
        release = private_quantiles(x, low, high, p, eps, seed=seed)
        text = "\n".join(
            f"{column}: private {q:g}-quantile ≈ {v:.6g} (ε = {eps / len(p):g} of {eps:g})"
            for q, v in zip(p, release.value, strict=True)
        )
    payload = {"input": str(input), "column": column, **release.to_dict()}
    _finish(payload, text, json_out, seed)


@app.command()
@exits_on_bad_input
def mode(
    input: Path = typer.Argument(..., help=f"Table file: {TABLE_FILES}."),
    column: str = typer.Option(..., "--column", help="Categorical column."),
    candidates: str = typer.Option(
        ..., "--candidates", help="The public categories to choose from: a,b,c."
    ),
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="ε of the choice."),
    mechanism: str = typer.Option(
        "textbook", "--mechanism", help="textbook (exp(ε·count/2)) or permute-and-flip."
    ),
    delimiter: str | None = DELIM_OPT,
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    seed: int | None = typer.Option(None, "--seed", help=SEED_HELP.format("noise")),
    json_out: bool = typer.Option(False, "--json", help="Print the choice as JSON."),
    quiet: Quiet = False,
) -> None:
    """Choose the most frequent category of a column with ε-differential privacy.

    The exponential mechanism with the count as score: the textbook form, or
    permute-and-flip (never worse in expected count, a different distribution).
    """
    import numpy as np

    from privlab.dp.accountant import check_epsilon
    from privlab.dp.exponential import exponential_textbook
    from privlab.dp.mechanisms import exponential
    from privlab.validate import check_choice

    eps = check_epsilon(epsilon, "--epsilon")
    check_choice(mechanism, "--mechanism", MECHANISMS)
    labels = candidates.split(",")
    if not candidates or len(set(labels)) != len(labels):
        raise ConfigError(f"--candidates {candidates!r}: give distinct categories a,b,c")
    series = _read_column(input, column, delimiter, columns, sheet)
    if series.null_count():
        raise InputError(
            f"{input}: column {column!r} has empty cells; fill them (e.g. with a 'missing' "
            "category, listed in --candidates if it may win) first"
        )
    cells = series.cast(str).to_numpy()
    counts = np.array([np.count_nonzero(cells == c) for c in labels], dtype=np.int64)
    if mechanism == "textbook":
        release = exponential_textbook(counts, 1, eps, seed=seed)
    else:  # counts only grow when a row is added: monotonic
        release = exponential(counts, 1, eps, monotonic=True, seed=seed)
    chosen = labels[release.value]
    payload = {"input": str(input), "column": column, **release.to_dict(), "value": chosen}
    _finish(payload, f"{column}: private mode = {chosen} (ε = {eps:g}, {release.mechanism})",
            json_out, seed)  # fmt: skip
