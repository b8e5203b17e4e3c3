"""``privlab dp ...``: differentially private releases from a table.

``params`` gives sampling-rate / class-size parameters of Li, Qardaji & Su's theorem;
``safe-kanon`` releases a safely k-anonymized sample with its (ε, δ) guarantee.
``release`` answers several queries on one budget: ε (and δ) are split evenly between the
queries (sequential composition) and every query is charged to an enforcing accountant
before it runs.  Bins of histograms and bounds of sums must be given on the command line:
they must not be read from the data.  Outputs carry no exact statistic of the input (such
as its number of rows) unless ``--non-private-diagnostics`` asks for them, marked as not
private; error messages name columns and counts, never a row or a cell's value.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.table import Table

from privlab.cli import dp_groupby as grouped
from privlab.cli.common import (
    Quiet,
    QuietLong,
    command_group,
    exits_on_bad_input,
    files_of_pairs,
    guard_outputs,
    note,
    out_console,
    print_json,
    progress_bar,
    spinner,
    summary_console,
)
from privlab.cli.diagnostics import NonPrivateDiagnostics, attach, print_section
from privlab.cli.table_input import (
    COLUMNS_OPT,
    SHEET_OPT,
    TABLE_FILES,
    column_names,
    first_data_line,
)
from privlab.dp.accountant import Accountant, Budget, check_delta, check_epsilon
from privlab.dp.mechanisms import Release
from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.dp.queries import clamped_mean, clamped_sum, count, histogram
from privlab.errors import ConfigError, InputError
from privlab.io.delimited import numeric_column, read_table
from privlab.io.outputs import Output

app = command_group("Differentially private releases and their parameters.")

DELIM_OPT = typer.Option(None, "--delimiter", help="Field delimiter (default: sniffed).")
SEED_HELP = "Fixed {} seed: INSECURE, for tests and demos only (default: fresh secure randomness)."

QUERY_HELP = (
    "A query (repeatable): count | histogram:COL | sum:COL:LOW:HIGH | mean:COL:LOW:HIGH | "
    "variance:COL:LOW:HIGH | std:COL:LOW:HIGH | median:COL:LOW:HIGH | "
    "quantile:COL:LOW:HIGH:P (variance to quantile: grouped releases). "
    "Histogram bins come from --bins COL=a,b,c (categories) or --bins COL=LOW:HIGH:WIDTH "
    "(numeric intervals [LOW, LOW+WIDTH), ...). QUERY@EPS gives the query its own ε; the "
    "others share the rest of --epsilon evenly."
)


BOUNDED_KINDS = ("sum", "mean", "variance", "std", "median")


@dataclass(frozen=True)
class Query:
    """One parsed ``--query``."""

    kind: str
    column: str | None = None
    low: float | None = None
    high: float | None = None
    epsilon: float | None = None  # its own ε (QUERY@EPS); None: a share of the rest
    quantile: float | None = None  # the level P of quantile:COL:LOW:HIGH:P

    @property
    def label(self) -> str:
        if self.kind == "count":
            return "count"
        if self.kind == "histogram":
            return f"histogram:{self.column}"
        level = f":{self.quantile:g}" if self.quantile is not None else ""
        return f"{self.kind}:{self.column}:{self.low:g}:{self.high:g}{level}"


def parse_query(text: str) -> Query:
    """Parse ``count``, ``histogram:COL``, or ``KIND:COL:LOW:HIGH`` for a sum, mean, variance
    or std."""
    parts = text.split(":")
    kind = parts[0].strip().lower()
    if kind == "count" and len(parts) == 1:
        return Query("count")
    if kind == "histogram" and len(parts) == 2 and parts[1]:
        return Query("histogram", parts[1])
    if kind == "quantile":
        return grouped.parse_quantile_query(text, parts)
    if kind in BOUNDED_KINDS and len(parts) == 4 and parts[1]:
        try:
            low, high = float(parts[2]), float(parts[3])
        except ValueError:
            raise ConfigError(f"--query {text!r}: LOW and HIGH must be numbers") from None
        return Query(kind, parts[1], low, high)
    if kind in BOUNDED_KINDS:
        why = (
            "its candidate answers are spread over [LOW, HIGH]"
            if kind == "median"
            else "the noise scales with max(|LOW|, |HIGH|)"
        )
        raise ConfigError(
            f"--query {text!r}: a {kind} needs clamping bounds fixed in advance, "
            f"{kind}:COL:LOW:HIGH (each value is clamped to [LOW, HIGH]; {why})"
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
            finite = np.isfinite([low, high, width]).all()
            if not (finite and high > low and width > 0) or (high - low) / width > 10**7:
                raise ConfigError(
                    f"--bins {spec!r}: need finite numbers, HIGH > LOW, WIDTH > 0 and at most "
                    "10^7 bins"
                )
            # edges LOW, LOW + WIDTH, ... up to HIGH + WIDTH/2, as np.arange(LOW, HIGH + WIDTH/2,
            # WIDTH), without the overflow of HIGH + WIDTH/2 near the largest float
            with np.errstate(over="ignore"):  # an edge beyond the largest float: inf, refused
                edges = low + width * np.arange(np.ceil((high - low) / width + 0.5))
            if edges.size < 2 or not np.isfinite(edges[-1]) or not (np.diff(edges) > 0).all():
                raise ConfigError(
                    f"--bins {spec!r}: no bins; WIDTH must be at most HIGH - LOW, and large "
                    "enough for LOW + WIDTH to differ from LOW"
                )
            bins[column] = edges
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
    rng: np.random.Generator, first_line: int = 2,
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
        where = f"{source}, column {query.column!r}"
        if isinstance(spec, list):
            values = series.cast(str).fill_null("").to_numpy()
            labels = spec
        else:
            x = numeric_column(series, source, None, allow_missing=False)
            edges = spec
            idx = np.floor((x - edges[0]) / (edges[1] - edges[0])).astype(np.int64)
            outside = (x < edges[0]) | (x >= edges[-1])
            if outside.any():
                raise InputError(
                    f"{where}: {int(outside.sum())} value(s) outside the bins "
                    f"[{edges[0]:g}, {edges[-1]:g}); widen --bins (from the column's public "
                    "domain, not from the data)"
                )
            values, labels = idx, len(edges) - 1
        release = histogram(values, labels, epsilon, delta=delta, seed=rng, name=where)
        if isinstance(spec, list):
            return release
        intervals = [f"[{a:g}, {b:g})" for a, b in itertools.pairwise(spec)]
        return replace(release, parameters={**release.parameters, "bins": intervals})
    x = numeric_column(series, source, None, allow_missing=False)
    if query.kind == "sum":
        return clamped_sum(x, query.low, query.high, epsilon, delta=delta, seed=rng)
    return clamped_mean(x, query.low, query.high, epsilon, delta=delta, seed=rng)


@app.command()
@exits_on_bad_input
def release(
    input: Path = typer.Argument(..., help=f"Table file: {TABLE_FILES}."),
    query: list[str] = typer.Option(..., "--query", "-q", help=QUERY_HELP),
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="Total ε for all the queries."),
    delta: float = typer.Option(
        0.0,
        "--delta",
        help="Total δ; > 0 uses the analytically calibrated Gaussian mechanism instead of "
        "Laplace (pays off for many queries answered together).",
    ),
    bins: list[str] = typer.Option(
        [],
        "--bins",
        help="Histogram bins of a column, COL=a,b,c or COL=LOW:HIGH:WIDTH (repeatable); "
        "required for each histogram.",
        show_default=False,
    ),
    delimiter: str | None = DELIM_OPT,
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    seed: int | None = typer.Option(None, "--seed", help=SEED_HELP.format("noise")),
    json_out: bool = typer.Option(False, "--json", help="Print the releases as JSON."),
    non_private_diagnostics: NonPrivateDiagnostics = False,
    quiet: QuietLong = False,
    budget_file: Path | None = typer.Option(
        None,
        "--budget-file",
        help="A budget ledger (JSON) charged with this release; "
        "refused, writing nothing, if it would pass the ledger's total (without it no ledger "
        "is kept).",
    ),
    total_epsilon: float | None = typer.Option(
        None,
        "--total-epsilon",
        help="Total ε of a --budget-file created by this run (without it the file must exist).",
    ),
    total_delta: float | None = typer.Option(
        None, "--total-delta", help="Total δ of a --budget-file created by this run (default 0)."
    ),
    groupby: list[str] = grouped.GROUPBY_OPT,
    privacy_unit: str | None = grouped.UNIT_OPT,
    max_rows_per_unit: int | None = grouped.MAX_ROWS_OPT,
    max_groups_per_unit: int | None = grouped.MAX_GROUPS_OPT,
    keys: Path | None = grouped.KEYS_OPT,
    key: list[str] = grouped.KEY_OPT,
    mechanism: str | None = grouped.MECHANISM_OPT,
    output: Path | None = grouped.OUTPUT_OPT,
    non_negative: bool = grouped.NON_NEGATIVE_OPT,
) -> None:
    """Answer queries with differential privacy on one (ε, δ) budget (QUERY@EPS or even split).

    With --groupby, --privacy-unit or -o: one row per group, each unit's contribution
    bounded, public keys (--keys/--key) or DP partition selection (privlab.dp.groupby).
    """
    from privlab.cli.dp_budget import charged, name_mechanisms, plan_queries

    eps = check_epsilon(epsilon, "--epsilon")
    dlt = check_delta(delta, "--delta")
    plan = plan_queries(query, eps, dlt)
    queries = [q for q, _, _ in plan]
    grouped_options = {
        "groupby": groupby, "privacy_unit": privacy_unit, "max_rows": max_rows_per_unit,
        "max_groups": max_groups_per_unit, "keys_file": keys, "key": key,
        "mechanism": mechanism, "output": output, "non_negative": non_negative,
    }  # fmt: skip
    if grouped.wants_grouped(queries, **grouped_options):
        # the grouped release spends at most (ε, δ) in all (partition selection included):
        # the ledger is charged that whole budget, before any noise is drawn
        whole = "grouped: " + ", ".join(q.label for q in queries)
        with charged(budget_file, total_epsilon, total_delta, [(whole, eps, dlt)], input):
            grouped.run(
                input=input, queries=queries, epsilon=eps, delta=dlt, **grouped_options,
                delimiter=delimiter, names=column_names(columns), sheet=sheet, seed=seed,
                json_out=json_out, non_private_diagnostics=non_private_diagnostics,
            )  # fmt: skip
        return
    bin_specs = parse_bins(bins)
    names = column_names(columns)
    with spinner(f"reading {input.name} …"):
        frame = read_table(input, delimiter=delimiter, columns=names, sheet=sheet)
    accountant = Accountant(Budget(eps, dlt))
    releases = []
    labelled = [(q.label, e, d) for q, e, d in plan]
    with charged(budget_file, total_epsilon, total_delta, labelled, input) as ledger:
        rng = secure_generator(seed)
        for q, share_eps, share_delta in plan:
            accountant.charge(share_eps, share_delta, q.label)
            answer = _answer(
                q, frame, str(input), bin_specs, share_eps, share_delta, rng,
                first_data_line(names),
            )  # fmt: skip
            releases.append((q, answer))
        name_mechanisms(ledger, [r.parameters.get("mechanism", r.mechanism) for _, r in releases])
    payload = {
        "input": str(input),
        "budget": accountant.to_dict(),
        "insecure_seed": is_insecure_seed(rng),
        "releases": [{"query": q.label, **r.to_dict()} for q, r in releases],
    }
    if ledger is not None:
        payload["budget_file"] = {"file": str(budget_file), **ledger.ledger.status()}
    attach(payload, {"rows_read": frame.height}, non_private_diagnostics)
    if json_out:
        print_json(payload)
        return
    grid = Table(title=f"{input}: differentially private answers ({Budget(eps, dlt)})")
    for col in ("query", "answer", "±95 %", "ε", "δ", "mechanism"):
        grid.add_column(col)
    for q, r in releases:
        value = r.value
        if isinstance(value, np.ndarray):
            labels = r.parameters.get("bins", [])
            value = ", ".join(f"{lab}: {v}" for lab, v in zip(labels, value.tolist(), strict=True))
        elif isinstance(value, float):
            value = f"{value:.6g}"
        mechanism = r.parameters.get("mechanism", r.mechanism)
        grid.add_row(
            q.label, str(value), _error_bar(r.accuracy), f"{r.epsilon:g}", f"{r.delta:g}",
            mechanism,
        )  # fmt: skip
    out_console.print(grid)
    print_section(payload)
    if seed is not None:
        note("--seed given: the noise is reproducible, hence NOT private.", "warning")


def _error_bar(accuracy: dict[str, Any] | None) -> str:
    """The 95 % error bar of an answer: ±margin, or [low, high] for a mean (no cost)."""
    if not accuracy:
        return ""
    if "margin" not in accuracy:
        return f"[{accuracy['ci_low']:.6g}, {accuracy['ci_high']:.6g}]"
    return f"±{accuracy['margin']:.6g}"


# ---------------------------------------------------------------------------- params
BETA_OPT = typer.Option(None, "--beta", help="Sampling rate (with --k).")
K_OPT = typer.Option(None, "--k", "-k", help="Smallest class size (with --beta).")


def _beta_and_k(
    epsilon: float, delta: float | None, beta: float | None, k: int | None
) -> tuple[float, int]:
    """β and k from a target δ at ``epsilon`` (tight k), or as given with --beta/--k."""
    from privlab.dp.sampling import max_beta
    from privlab.dp.sampling import params as safe_params

    if delta is not None and (beta is not None or k is not None):
        raise ConfigError("give either --delta, or --beta and --k — not both")
    if delta is not None:
        b, kk, _ = safe_params(epsilon, delta)
        return b, kk
    if beta is not None and k is not None:
        return beta, k
    raise ConfigError(
        "give --delta D (to find beta and k), or --beta B and --k K; "
        f"for ε = {epsilon:g} the largest beta allowed is {max_beta(epsilon):.6g}"
    )


@app.command()
@exits_on_bad_input
def params(
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="Target ε."),
    delta: float | None = typer.Option(None, "--delta", help="Target δ: find β and the tight k."),
    beta: float | None = BETA_OPT,
    k: int | None = K_OPT,
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Sampling + safe k-anonymization parameters (Li, Qardaji & Su 2012).

    With --delta: β = 1 − e^−ε and the smallest k with d(k, β, ε) ≤ δ (ARX SafePub's recipe,
    but the tight k). With --beta and --k: the exact δ they achieve at ε.
    """
    from privlab.dp.sampling import delta_detail

    eps = check_epsilon(epsilon, "--epsilon")
    b, kk = _beta_and_k(eps, delta, beta, k)
    mode = "from (epsilon, delta)" if delta is not None else "from (beta, k)"
    detail = delta_detail(kk, b, eps)
    payload = {
        "epsilon": eps,
        "beta": b,
        "k": kk,
        "delta": detail.delta,
        "mode": mode,
        "worst_case": {"n": detail.n, "j": detail.j, "gamma": detail.gamma, "n_m": detail.n_m},
    }
    if delta is not None:
        payload["delta_target"] = delta
    if json_out:
        print_json(payload)
        return
    grid = Table(title="sampling + safe k-anonymization (Li, Qardaji & Su 2012, Thm 3.9)")
    grid.add_column("ε")
    grid.add_column("β (sampling rate)")
    grid.add_column("k")
    grid.add_column("δ = d(k, β, ε)")
    grid.add_row(f"{eps:g}", f"{b:.6g}", str(kk), f"{detail.delta:.6g}")
    out_console.print(grid)


# ---------------------------------------------------------------------------- safe-kanon
@app.command("safe-kanon")
@exits_on_bad_input
def safe_kanon(
    input: Path = typer.Argument(..., help=f"Table file: {TABLE_FILES}."),
    output: Path = typer.Option(
        ..., "--output", "-o", help="Where to write the release (.csv or .parquet; - for stdout)."
    ),
    qi: list[str] = typer.Option(
        ..., "--qi", help="Quasi-identifying columns: a,b,c or repeat the option."
    ),
    hierarchy: list[str] = typer.Option(
        ...,
        "--hierarchy",
        help="COLUMN=FILE: an ARX hierarchy written from the public domain (or COLUMN=flat: "
        "keep or suppress only).",
    ),
    identifying: list[str] = typer.Option(
        [], "--identifying", help="Columns to remove: a,b or repeat the option.", show_default=False
    ),
    insensitive: list[str] = typer.Option(
        [],
        "--insensitive",
        help="Columns released unchanged: a,b or repeat the option.",
        show_default=False,
    ),
    keep_other_columns: bool = typer.Option(
        False, "--keep-other-columns", help="Release every column without a role unchanged."
    ),
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="Total ε of the release."),
    delta: float | None = typer.Option(None, "--delta", help="Target δ (finds β and k)."),
    beta: float | None = BETA_OPT,
    k: int | None = K_OPT,
    levels: str | None = typer.Option(
        None,
        "--levels",
        help="COL=LEVEL,... fixed in advance: strongly safe. Without it the levels are chosen "
        "from the sample with the exponential mechanism (ε-safe).",
    ),
    selection_epsilon: float | None = typer.Option(
        None, "--selection-epsilon", help="ε₁ for choosing the levels (default ε/10)."
    ),
    delimiter: str | None = DELIM_OPT,
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    seed: int | None = typer.Option(None, "--seed", help=SEED_HELP.format("sampling")),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    non_private_diagnostics: NonPrivateDiagnostics = False,
    quiet: Quiet = False,
) -> None:
    """Sample, k-anonymize safely, release with an (ε, δ) guarantee (Li, Qardaji & Su).

    All released columns count as quasi-identifiers for the class-size test; rows of classes
    smaller than k are removed, never starred. Hierarchies must come from files written
    from each column's public domain: one built from the data would void the guarantee.
    Every column needs a role (--qi, --identifying or --insensitive).
    """
    from privlab.cli.table import build_table, print_notes, split_column_lists
    from privlab.dp.safe_search import eps_safe_k_anonymize
    from privlab.dp.sampling import safe_k_anonymize
    from privlab.io.delimited import write_table
    from privlab.table.data import Purpose

    guard_outputs(
        [Output(output, "-o", stdout_ok=True)], [input, *files_of_pairs(hierarchy)],
        json_out=json_out,
    )  # fmt: skip
    eps = check_epsilon(epsilon, "--epsilon")
    eps1 = None
    if levels is None:
        eps1 = (
            eps / 10
            if selection_epsilon is None
            else check_epsilon(selection_epsilon, "--selection-epsilon")
        )
    elif selection_epsilon is not None:
        raise ConfigError("--selection-epsilon chooses levels; it cannot go with --levels")
    rest = eps - (eps1 or 0.0)  # what pays for the sampling (Theorem 3.11)
    if rest <= 0:
        raise ConfigError("--selection-epsilon must be below --epsilon (e.g. ε/10)")
    b, kk = _beta_and_k(rest, delta, beta, k)
    opts = {
        "input": input, "qi": qi, "hierarchy": hierarchy, "identifying": identifying,
        "insensitive": insensitive, "keep_other_columns": keep_other_columns,
        "delimiter": delimiter, "columns": columns, "sheet": sheet,
    }  # fmt: skip
    table = build_table(split_column_lists(opts), purpose=Purpose.PRIVATE_RELEASE, name_lines=False)
    print_notes(table.warnings)
    rng = secure_generator(seed)
    if levels is None:
        with progress_bar("choosing the levels (ε-safe)", unit="lattice nodes") as progress:
            result = eps_safe_k_anonymize(
                table, k=kk, beta=b, epsilon=eps, selection_epsilon=eps1, rng=rng,
                progress=progress,
            )  # fmt: skip
    else:
        result = safe_k_anonymize(
            table, _parse_levels(levels, table.qi), k=kk, beta=b, epsilon=eps, rng=rng
        )
    summary = {
        **result.to_dict(non_private_diagnostics=non_private_diagnostics),
        "output": str(output),
    }
    write_table(result.data, output)
    if json_out:
        print_json(summary)
        return
    grid = Table(title=f"{input} → {output}", show_header=False)
    for key in ("epsilon", "delta", "beta", "k", "levels", "released", "classes"):
        grid.add_row(key, str(summary[key]))
    summary_console(output).print(grid)
    print_section(summary)
    if seed is not None:
        note("--seed given: the sample is reproducible, hence NOT private.", "warning")


def _parse_levels(text: str, qi: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in text.split(","):
        column, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise ConfigError(f"--levels {text!r}: write COL=LEVEL,COL=LEVEL,... (integers)")
        out[column.strip()] = int(value)
    return out


from privlab.cli import dp_budget as _budget  # noqa: E402, F401  (registers budget)
from privlab.cli.dp_interactive import above_threshold as _svt  # noqa: E402, F401  (registers it)
from privlab.cli.dp_kmeans import kmeans as _kmeans  # noqa: E402, F401  (registers kmeans)
from privlab.cli.dp_node import node_degrees as _node  # noqa: E402, F401  (registers it)
from privlab.cli.dp_plan import plan as _plan  # noqa: E402, F401  (registers plan)
from privlab.cli.dp_select import mode as _mode  # noqa: E402, F401  (registers quantile, mode)
