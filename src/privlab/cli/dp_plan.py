"""``privlab dp plan``: the ± error of a query for an ε, or the ε for a ± error.

Planning reads no data: the error follows from the query's sensitivity (clamping bounds,
privacy-unit bounds), the mechanism and ε alone (:mod:`privlab.dp.accuracy`), so it costs
no privacy budget.  With ``--error X`` the smallest ε is found by bisection on the exact
error (the discrete Laplace and discrete Gaussian tails), and the ε returned is checked:
its error is at most X.
"""

from __future__ import annotations

import typer
from rich.table import Table

from privlab.cli.common import Quiet, exits_on_bad_input, out_console, print_json
from privlab.cli.dp import app
from privlab.errors import ConfigError

PLAN_QUERY_HELP = (
    "count | histogram | sum:LOW:HIGH | mean:LOW:HIGH (a mean also needs --n). LOW and HIGH "
    "are the clamping bounds, fixed in advance."
)


def parse_plan_query(text: str) -> tuple[str, float | None, float | None]:
    """``count``, ``histogram``, ``sum:LOW:HIGH`` or ``mean:LOW:HIGH`` → (kind, low, high)."""
    parts = text.strip().split(":")
    kind = parts[0].strip().lower()
    if kind in ("count", "histogram") and len(parts) == 1:
        return kind, None, None
    if kind in ("sum", "mean") and len(parts) == 3:
        try:
            return kind, float(parts[1]), float(parts[2])
        except ValueError:
            raise ConfigError(f"query {text!r}: LOW and HIGH must be numbers") from None
    if kind in ("sum", "mean"):
        raise ConfigError(
            f"query {text!r}: a {kind} needs its clamping bounds, {kind}:LOW:HIGH (e.g. "
            f"{kind}:0:100)"
        )
    raise ConfigError(f"query {text!r}: not understood; give {PLAN_QUERY_HELP}")


@app.command()
@exits_on_bad_input
def plan(
    query: str = typer.Argument(..., help=PLAN_QUERY_HELP),
    epsilon: float | None = typer.Option(
        None, "--epsilon", "-e",
        help="ε of the query: print its ± error (required without --error).",
    ),
    error: float | None = typer.Option(
        None, "--error",
        help="Target ± error: print the smallest ε that reaches it (required without --epsilon).",
    ),
    delta: float = typer.Option(0.0, "--delta", help="δ; > 0 plans the Gaussian mechanism."),
    mechanism: str | None = typer.Option(
        None, "--mechanism", help="laplace (pure ε, the default) or gaussian (needs --delta)."
    ),
    confidence: float = typer.Option(0.95, "--confidence", help="Confidence level 1 − α."),
    n: int | None = typer.Option(
        None, "--n", help="Number of rows (public, or a lower bound): required for a mean."
    ),
    max_rows_per_unit: int = typer.Option(
        1, "--max-rows-per-unit", help="Rows a privacy unit may add (per group with G)."
    ),
    max_groups_per_unit: int = typer.Option(
        1, "--max-groups-per-unit", help="Groups G a privacy unit may add rows to."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print the plan as JSON."),
    quiet: Quiet = False,
) -> None:
    """The ± error of a query at a confidence level, or the ε that gives a target error.

    Give exactly one of --epsilon and --error. Reads no data and spends no budget. A
    privacy unit's bounds multiply the sensitivity: L1 = G·R·base, L2 = √G·R·base.
    """
    from privlab.dp.accountant import check_delta, check_epsilon
    from privlab.dp.accuracy import check_confidence, epsilon_for_error, query_error
    from privlab.validate import check_int, check_number_in

    if (epsilon is None) == (error is None):
        raise ConfigError("give exactly one of --epsilon E (→ the error) and --error X (→ ε)")
    kind, low, high = parse_plan_query(query)
    # the library checks these again; here the messages name the options
    if epsilon is not None:
        check_epsilon(epsilon, "--epsilon")
    else:
        check_number_in(error, "--error", 0.0, float("inf"), low_open=True)
    check_delta(delta, "--delta")
    check_confidence(confidence, "--confidence")
    check_int(max_rows_per_unit, "--max-rows-per-unit", 1)
    check_int(max_groups_per_unit, "--max-groups-per-unit", 1)
    if n is not None:
        check_int(n, "--n", 1, "the number of rows, or a lower bound on it")
    options = {
        "low": low, "high": high, "delta": delta, "mechanism": mechanism,
        "confidence": confidence, "n": n, "rows_per_unit": max_rows_per_unit,
        "groups_per_unit": max_groups_per_unit,
    }  # fmt: skip
    if epsilon is not None:
        result = query_error(kind, epsilon, **options)
    else:
        result = epsilon_for_error(error, kind, **options)
    payload = {**result.to_dict(), "query": query, "kind": kind}
    if json_out:
        print_json(payload)
        return
    grid = Table(title=f"dp plan: {query} (no data read, no budget spent)", show_header=False)
    rows = [
        ("mechanism", result.mechanism),
        ("ε", f"{result.epsilon:.6g}"),
        ("δ", f"{result.delta:g}"),
        ("L1 / L2 sensitivity", f"{result.l1_sensitivity:g} / {result.l2_sensitivity:.6g}"),
        (f"± error at {result.confidence:g}", f"{result.error:.6g}"),
    ]
    if "scale" in result.noise:
        rows.insert(4, ("noise scale", f"{result.noise['scale']:.6g} ({result.noise['noise']})"))
        rows.append(("exact", str(result.noise["exact"])))
    if result.target_error is not None:
        rows.append(("target ± error", f"{result.target_error:g}"))
    for key, value in rows:
        grid.add_row(key, value)
    out_console.print(grid)
