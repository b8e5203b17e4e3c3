"""``privlab dp ...``: differentially private releases from a table.

``release`` answers several queries on one budget: ε (and δ) are split evenly between the
queries (sequential composition) and every query is charged to an enforcing accountant
before it runs.  Bins of histograms and bounds of sums must be given on the command line:
they must not be read from the data.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.table import Table

from privlab.cli.common import exits_on_bad_input, out_console, print_json
from privlab.dp.accountant import Accountant, Budget, check_delta, check_epsilon
from privlab.dp.mechanisms import Release
from privlab.dp.noise import secure_generator
from privlab.dp.queries import clamped_mean, clamped_sum, count, histogram
from privlab.errors import ConfigError, InputError
from privlab.io.delimited import numeric_column, read_table

app = typer.Typer(
    help="Differentially private releases and their parameters.", no_args_is_help=True
)

QUERY_HELP = (
    "A query (repeatable): count | histogram:COL | sum:COL:LOW:HIGH | mean:COL:LOW:HIGH. "
    "Histogram bins come from --bins COL=a,b,c (categories) or --bins COL=LOW:HIGH:WIDTH "
    "(numeric intervals [LOW, LOW+WIDTH), ...)."
)


@dataclass(frozen=True)
class Query:
    """One parsed ``--query``."""

    kind: str
    column: str | None = None
    low: float | None = None
    high: float | None = None

    @property
    def label(self) -> str:
        if self.kind == "count":
            return "count"
        if self.kind == "histogram":
            return f"histogram:{self.column}"
        return f"{self.kind}:{self.column}:{self.low:g}:{self.high:g}"


def parse_query(text: str) -> Query:
    """Parse ``count``, ``histogram:COL``, ``sum:COL:LOW:HIGH`` or ``mean:COL:LOW:HIGH``."""
    parts = text.split(":")
    kind = parts[0].strip().lower()
    if kind == "count" and len(parts) == 1:
        return Query("count")
    if kind == "histogram" and len(parts) == 2 and parts[1]:
        return Query("histogram", parts[1])
    if kind in ("sum", "mean") and len(parts) == 4 and parts[1]:
        try:
            low, high = float(parts[2]), float(parts[3])
        except ValueError:
            raise ConfigError(f"--query {text!r}: LOW and HIGH must be numbers") from None
        return Query(kind, parts[1], low, high)
    if kind in ("sum", "mean"):
        raise ConfigError(
            f"--query {text!r}: a {kind} needs clamping bounds fixed in advance, "
            f"{kind}:COL:LOW:HIGH (each value is clamped to [LOW, HIGH]; the noise scales "
            "with max(|LOW|, |HIGH|))"
        )
    raise ConfigError(f"--query {text!r}: not understood. {QUERY_HELP}")


def parse_bins(specs: list[str]) -> dict[str, Any]:
    """``COL=a,b,c`` → categories; ``COL=LOW:HIGH:WIDTH`` → interval edges."""
    bins: dict[str, Any] = {}
    for spec in specs:
        column, sep, value = spec.partition("=")
        if not sep or not column or not value:
            raise ConfigError(f"--bins {spec!r}: write COL=a,b,c or COL=LOW:HIGH:WIDTH")
        if value.count(":") == 2 and "," not in value:
            try:
                low, high, width = (float(v) for v in value.split(":"))
            except ValueError:
                raise ConfigError(f"--bins {spec!r}: LOW:HIGH:WIDTH must be numbers") from None
            if not (high > low and width > 0) or (high - low) / width > 10**7:
                raise ConfigError(
                    f"--bins {spec!r}: need HIGH > LOW, WIDTH > 0 and at most 10^7 bins"
                )
            bins[column] = np.arange(low, high + width / 2, width)
        else:
            labels = value.split(",")
            if len(set(labels)) != len(labels):
                raise ConfigError(f"--bins {spec!r}: the categories must be distinct")
            bins[column] = labels
    return bins


def _column(frame: Any, name: str, source: str) -> Any:
    if name not in frame.columns:
        raise InputError(f"{source}: no column {name!r}; the columns are {frame.columns}")
    return frame[name]


def _answer(
    query: Query, frame: Any, source: str, bins: dict[str, Any], epsilon: float, delta: float,
    rng: np.random.Generator,
) -> Release:  # fmt: skip
    if query.kind == "count":
        return count(frame.height, epsilon, delta=delta, seed=rng)
    series = _column(frame, query.column, source)
    if query.kind == "histogram":
        if query.column not in bins:
            raise ConfigError(
                f"--query histogram:{query.column}: give its bins with --bins "
                f"{query.column}=a,b,c or --bins {query.column}=LOW:HIGH:WIDTH — bins read "
                "from the data would leak which values occur"
            )
        spec = bins[query.column]
        if isinstance(spec, list):
            values = series.cast(str).fill_null("").to_numpy()
            labels = spec
        else:
            x = numeric_column(series, source, allow_missing=False)
            edges = spec
            idx = np.floor((x - edges[0]) / (edges[1] - edges[0])).astype(np.int64)
            outside = (x < edges[0]) | (x >= edges[-1])
            if outside.any():
                i = int(np.argmax(outside))
                raise InputError(
                    f"{source}, line {2 + i}, column {query.column!r}: {x[i]:g} is outside "
                    f"the bins [{edges[0]:g}, {edges[-1]:g}); widen --bins"
                )
            values, labels = idx, len(edges) - 1
        release = histogram(values, labels, epsilon, delta=delta, seed=rng)
        if isinstance(spec, list):
            return release
        intervals = [f"[{a:g}, {b:g})" for a, b in itertools.pairwise(spec)]
        return replace(release, parameters={**release.parameters, "bins": intervals})
    x = numeric_column(series, source, allow_missing=False)
    if query.kind == "sum":
        return clamped_sum(x, query.low, query.high, epsilon, delta=delta, seed=rng)
    return clamped_mean(x, query.low, query.high, epsilon, delta=delta, seed=rng)


@app.command()
@exits_on_bad_input
def release(
    input: Path = typer.Argument(..., help="CSV or Parquet file."),
    query: list[str] = typer.Option(..., "--query", "-q", help=QUERY_HELP),
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="Total ε for all the queries."),
    delta: float = typer.Option(
        0.0,
        "--delta",
        help="Total δ; > 0 uses the analytically calibrated Gaussian mechanism instead of "
        "Laplace (pays off for many queries answered together).",
    ),
    bins: list[str] = typer.Option([], "--bins", help="Histogram bins, per column."),
    delimiter: str | None = typer.Option(None, "--delimiter", help="Field delimiter."),
    seed: int | None = typer.Option(
        None, "--seed", help="Fixed noise seed: INSECURE, for tests and demos only."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print the releases as JSON."),
) -> None:
    """Answer queries with differential privacy on one (ε, δ) budget split evenly."""
    eps = check_epsilon(epsilon, "--epsilon")
    dlt = check_delta(delta, "--delta")
    queries = [parse_query(q) for q in query]
    bin_specs = parse_bins(bins)
    frame = read_table(input, delimiter=delimiter)
    accountant = Accountant(Budget(eps, dlt))
    share_eps, share_delta = eps / len(queries), dlt / len(queries)
    rng = secure_generator(seed)
    releases = []
    for q in queries:
        accountant.charge(share_eps, share_delta, q.label)
        releases.append((q, _answer(q, frame, str(input), bin_specs, share_eps, share_delta, rng)))
    payload = {
        "input": str(input),
        "rows_read": frame.height,
        "budget": accountant.to_dict(),
        "insecure_seed": seed is not None,
        "releases": [{"query": q.label, **r.to_dict()} for q, r in releases],
    }
    if json_out:
        print_json(payload)
        return
    grid = Table(title=f"{input}: differentially private answers ({Budget(eps, dlt)})")
    for col in ("query", "answer", "ε", "δ", "mechanism"):
        grid.add_column(col)
    for q, r in releases:
        value = r.value
        if isinstance(value, np.ndarray):
            labels = r.parameters.get("bins", [])
            value = ", ".join(f"{lab}: {v}" for lab, v in zip(labels, value.tolist(), strict=True))
        elif isinstance(value, float):
            value = f"{value:.6g}"
        mechanism = r.parameters.get("mechanism", r.mechanism)
        grid.add_row(q.label, str(value), f"{r.epsilon:g}", f"{r.delta:g}", mechanism)
    out_console.print(grid)
    if seed is not None:
        out_console.print("[yellow]--seed given: the noise is reproducible, hence NOT private.[/]")
