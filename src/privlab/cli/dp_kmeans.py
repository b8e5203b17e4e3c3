"""``privlab dp kmeans``: differentially private k-means over numeric columns.

Each feature needs public bounds (``--bounds COL=LOW:HIGH``), fixed before seeing the data;
values are clamped to them.  Without ``--iterations`` the number of rounds is left open and
each round gets half of the remaining budget; with it, N rounds share ε equally.
"""

from __future__ import annotations

from pathlib import Path

import typer

from privlab.cli.common import Quiet, exits_on_bad_input, note, out_console, print_json, spinner
from privlab.cli.dp import DELIM_OPT, SEED_HELP, app
from privlab.cli.table_input import COLUMNS_OPT, SHEET_OPT, TABLE_FILES, column_names
from privlab.errors import ConfigError, InputError


def _bounds(specs: list[str], features: list[str]) -> tuple[list[float], list[float]]:
    given: dict[str, tuple[float, float]] = {}
    for spec in specs:
        col, sep, rng = spec.partition("=")
        lo, sep2, hi = rng.partition(":")
        try:
            low, high = float(lo), float(hi)
        except ValueError:
            low = high = float("nan")
        if not sep or not sep2 or not (low < high) or abs(high - low) == float("inf"):
            raise ConfigError(f"--bounds {spec!r}: write COL=LOW:HIGH with finite LOW < HIGH")
        given[col.strip()] = (low, high)
    missing = [f for f in features if f not in given]
    if missing:
        raise ConfigError(
            f"--bounds: give public bounds for {', '.join(missing)} (COL=LOW:HIGH), from the "
            "columns' domains, not from the data"
        )
    return [given[f][0] for f in features], [given[f][1] for f in features]


@app.command()
@exits_on_bad_input
def kmeans(
    input: Path = typer.Argument(..., help=f"Table file: {TABLE_FILES}."),
    features: str = typer.Option(..., "--features", help="Numeric columns to cluster: a,b."),
    k: int = typer.Option(..., "--k", "-k", help="Number of clusters."),
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="Total ε."),
    bounds: list[str] = typer.Option(
        ..., "--bounds", help="Public bounds of each feature, COL=LOW:HIGH (repeatable)."
    ),
    iterations: int | None = typer.Option(
        None,
        "--iterations",
        help="Fixed number of rounds sharing ε equally (default: each round half of the "
        "remaining budget, stopping when the centroids settle or after --max-iterations).",
    ),
    max_iterations: int = typer.Option(
        5, "--max-iterations", help="Most rounds when halving (round i's noise grows as 2^i)."
    ),
    delimiter: str | None = DELIM_OPT,
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    seed: int | None = typer.Option(None, "--seed", help=SEED_HELP.format("noise")),
    json_out: bool = typer.Option(False, "--json", help="Print the centroids as JSON."),
    quiet: Quiet = False,
) -> None:
    """Cluster numeric columns with ε-differential privacy (noisy Lloyd rounds)."""
    import numpy as np

    from privlab.dp.accountant import check_epsilon
    from privlab.dp.queries import kmeans as fixed_kmeans
    from privlab.dp.queries import kmeans_halving
    from privlab.io.delimited import numeric_column, read_table
    from privlab.validate import check_int

    eps = check_epsilon(epsilon, "--epsilon")
    kk = check_int(k, "--k", 1)
    if kk > 1000:
        raise ConfigError(f"--k = {k}: at most 1000 clusters")
    check_int(max_iterations, "--max-iterations", 1)
    if max_iterations > 60:
        raise ConfigError(f"--max-iterations = {max_iterations}: at most 60 halvings")
    if iterations is not None:
        check_int(iterations, "--iterations", 1)
        if iterations > 1000:
            raise ConfigError(f"--iterations = {iterations}: at most 1000 rounds")
    names = [f.strip() for f in features.split(",") if f.strip()]
    if not names or len(set(names)) != len(names):
        raise ConfigError(f"--features {features!r}: give distinct column names a,b")
    lower, upper = _bounds(bounds, names)
    with spinner(f"reading {input.name} …"):
        frame = read_table(input, delimiter=delimiter, columns=column_names(columns), sheet=sheet)
    cols = []
    for name in names:
        if name not in frame.columns:
            raise InputError(f"{input}: no column {name!r}; the columns are {frame.columns}")
        cols.append(numeric_column(frame[name], str(input), None, allow_missing=False))
    points = np.column_stack(cols)
    if iterations is None:
        release = kmeans_halving(points, kk, eps, bounds=(lower, upper),
                                 max_iterations=max_iterations, seed=seed)  # fmt: skip
    else:
        release = fixed_kmeans(points, kk, eps, bounds=(lower, upper), iterations=iterations,
                               seed=seed)  # fmt: skip
    payload = {"input": str(input), "features": names, **release.to_dict()}
    if json_out:
        print_json(payload)
    else:
        out_console.print(f"{release.mechanism}: ε spent {release.epsilon:g}")
        for i, c in enumerate(np.asarray(release.value)):
            out_console.print(f"  centroid {i}: " + ", ".join(
                f"{n} = {v:.4g}" for n, v in zip(names, c, strict=True)))  # fmt: skip
    if seed is not None:
        note("--seed given: the noise is reproducible, hence NOT private.", "warning")
