"""``privlab dp above-threshold``: the sparse vector technique over counting queries.

Each ``--query COL=VALUE`` counts the rows whose column COL equals VALUE.  Only "above" or
"below" the threshold is printed for each query asked, never a count; the run stops after
``--max-answers`` answers "above" and the remaining queries are reported as not asked.
Counts all grow (or stay) when a row is added, so they are monotonic and get the smaller
query noise.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from privlab.cli.common import QuietLong, exits_on_bad_input, note, out_console, print_json, spinner
from privlab.cli.dp import DELIM_OPT, SEED_HELP, app
from privlab.cli.table_input import COLUMNS_OPT, SHEET_OPT, TABLE_FILES, column_names
from privlab.errors import ConfigError, InputError

COUNT_QUERY_HELP = (
    "A counting query (repeatable, asked in order): COL=VALUE counts the rows whose column "
    "COL equals VALUE."
)


def parse_count_query(text: str) -> tuple[str, str]:
    """``COL=VALUE`` → (COL, VALUE)."""
    column, sep, value = text.partition("=")
    if not sep or not column.strip():
        raise ConfigError(f"--query {text!r}: write COL=VALUE (count of rows with COL = VALUE)")
    return column.strip(), value


@app.command("above-threshold")
@exits_on_bad_input
def above_threshold(
    input: Path = typer.Argument(..., help=f"Table file: {TABLE_FILES}."),
    query: list[str] = typer.Option(..., "--query", "-q", help=COUNT_QUERY_HELP),
    threshold: int = typer.Option(
        ..., "--threshold", "-t", help="Public threshold T, fixed before seeing the data."
    ),
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="Total ε of the whole run."),
    max_answers: int = typer.Option(
        1, "--max-answers", "-c", help="Stop after this many answers above the threshold."
    ),
    delimiter: str | None = DELIM_OPT,
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    seed: int | None = typer.Option(None, "--seed", help=SEED_HELP.format("noise")),
    json_out: bool = typer.Option(False, "--json", help="Print the answers as JSON."),
    quiet: QuietLong = False,
) -> None:
    """Report which counting queries are above a threshold, paying only for the hits.

    The sparse vector technique (AboveThreshold): ε is spent on at most --max-answers
    answers "above", however many queries come out "below" before them.
    """
    import numpy as np

    from privlab.dp.accountant import check_epsilon
    from privlab.dp.sparse_vector import sparse_vector
    from privlab.io.delimited import read_table
    from privlab.validate import check_int

    eps = check_epsilon(epsilon, "--epsilon")
    c = check_int(max_answers, "--max-answers", 1)
    if abs(threshold) > 2**62:
        raise ConfigError(f"--threshold = {threshold}: give an integer of magnitude ≤ 2^62")
    parsed = [parse_count_query(q) for q in query]
    with spinner(f"reading {input.name} …"):
        frame = read_table(input, delimiter=delimiter, columns=column_names(columns), sheet=sheet)
    answers = []
    for column, value in parsed:
        if column not in frame.columns:
            raise InputError(f"{input}: no column {column!r}; the columns are {frame.columns}")
        if frame[column].null_count():
            raise InputError(
                f"{input}: column {column!r} has empty cells; a count over it would depend "
                "on how they are read — fill them (e.g. with a 'missing' category) first"
            )
        cells = frame[column].cast(str).to_numpy()
        answers.append(int(np.count_nonzero(cells == value)))
    result = sparse_vector(answers, threshold, eps, max_positives=c, monotonic=True, seed=seed)
    labels = [f"{col}={val}" for col, val in parsed]
    status = ["above" if a else "below" for a in result.above]
    status += ["not asked"] * result.not_asked
    payload = {
        "input": str(input),
        **result.to_dict(),
        "queries": [{"query": q, "answer": s} for q, s in zip(labels, status, strict=True)],
    }
    if json_out:
        print_json(payload)
        return
    grid = Table(title=f"{input}: above threshold {threshold}? (sparse vector, ε = {eps:g})")
    grid.add_column("query")
    grid.add_column("answer")
    for q, s in zip(labels, status, strict=True):
        grid.add_row(q, s)
    out_console.print(grid)
    if seed is not None:
        note("--seed given: the noise is reproducible, hence NOT private.", "warning")
