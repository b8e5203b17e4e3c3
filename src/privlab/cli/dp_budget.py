"""Per-query budgets and the persistent budget ledger of ``privlab dp release``;
``privlab dp budget init|show``.

``-q count@0.2 -q sum:age:0:100@0.5 -q mean:age:0:100 -e 1``: a query with ``@ε`` spends
that ε; the others share what is left of ``--epsilon`` evenly.  δ is split evenly between
all the queries.  ``--budget-file FILE`` charges the release to a ledger
(:mod:`privlab.dp.ledger`): checked under an exclusive lock *before* any noise is drawn,
written atomically after; a release over the ledger's total exits 2 and writes nothing.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from privlab.cli.common import command_group, exits_on_bad_input, out_console, print_json
from privlab.cli.dp import Query, app, parse_query
from privlab.dp.accountant import TOLERANCE, Budget, check_delta, check_epsilon
from privlab.errors import ConfigError, InputError

if TYPE_CHECKING:
    from privlab.dp.tight_accounting import PrivacyEvent

budget_app = command_group("A privacy-budget ledger kept across releases (--budget-file).")
app.add_typer(budget_app, name="budget")


# ---------------------------------------------------------------------------- -q Q@ε
def split_query_budget(text: str) -> tuple[str, float | None]:
    """``"sum:age:0:100@0.5"`` → (``"sum:age:0:100"``, 0.5); no ``@`` → (text, None)."""
    body, sep, share = text.rpartition("@")
    if not sep:
        return text, None
    if not body:
        raise ConfigError(f"--query {text!r}: write QUERY@EPSILON, e.g. count@0.2")
    try:
        value = float(share)
    except ValueError:
        raise ConfigError(
            f"--query {text!r}: {share!r} after @ is not a number; write QUERY@EPSILON, "
            "e.g. count@0.2"
        ) from None
    return body, check_epsilon(value, f"--query {text!r}: ε after @")


def plan_queries(
    texts: list[str], epsilon: float, delta: float
) -> list[tuple[Query, float, float]]:
    """Each query with its (ε, δ): ``@ε`` as given, the rest of ``epsilon`` shared evenly.

    ConfigError naming the queries when the given ε's exceed ``epsilon``, or leave nothing
    for the queries without ``@``.  δ is split evenly.  O(queries).
    """
    if not texts:
        raise ConfigError("--query: give at least one query")
    parsed = [(text, *split_query_budget(text)) for text in texts]
    queries = [(text, parse_query(body), eps) for text, body, eps in parsed]
    fixed = [(text, eps) for text, _, eps in queries if eps is not None]
    given = math.fsum(eps for _, eps in fixed)
    free = [text for text, _, eps in queries if eps is None]
    over = given > epsilon * (1 + TOLERANCE)
    if over or (free and given >= epsilon * (1 - TOLERANCE)):
        named = ", ".join(text for text, _ in fixed)
        left = f"and leave nothing for {', '.join(free)}" if not over else "over the total"
        raise ConfigError(
            f"--query: {named} spend ε = {given:g} of --epsilon {epsilon:g}, {left}; lower "
            "their @ε or raise --epsilon"
        )
    share = (epsilon - given) / len(free) if free else 0.0
    d = delta / len(queries)
    return [
        (replace(q, epsilon=eps), eps, d) if eps is not None else (q, share, d)
        for _, q, eps in queries
    ]


# ---------------------------------------------------------------------------- the ledger
def _event(label: str, epsilon: float, delta: float) -> PrivacyEvent:
    """The ledger entry of one planned release: pure for δ = 0, else (ε, δ) as calibrated."""
    from privlab.dp.tight_accounting import PrivacyEvent

    if delta == 0:
        return PrivacyEvent("pure", epsilon, label=label)
    return PrivacyEvent("approximate", epsilon, delta, label=label)


def _total(total_epsilon: float | None, total_delta: float | None) -> Budget | None:
    if total_epsilon is None:
        if total_delta is not None:
            raise ConfigError("--total-delta goes with --total-epsilon (the ledger's total)")
        return None
    eps = check_epsilon(total_epsilon, "--total-epsilon")
    dlt = check_delta(0.0 if total_delta is None else total_delta, "--total-delta")
    return Budget(eps, dlt)


@contextlib.contextmanager
def charged(
    budget_file: Path | None,
    total_epsilon: float | None,
    total_delta: float | None,
    plan: list[tuple[str, float, float]],
    input: Path,
) -> Iterator[Any]:
    """Reserve the planned releases (label, ε, δ) in the ledger (if any) before the block
    draws noise; write them when the block succeeds.  Yields the session (None without a
    ledger)."""
    from privlab.dp.ledger import open_ledger, precheck

    if budget_file is None:
        if total_epsilon is not None or total_delta is not None:
            raise ConfigError(
                "--total-epsilon/--total-delta set a ledger's total: give --budget-file"
            )
        yield None
        return
    if str(budget_file) == "-":
        raise ConfigError("--budget-file -: the ledger must be a file, not standard output")
    with contextlib.suppress(OSError):
        if os.path.samefile(budget_file, input):
            raise InputError(f"--budget-file {budget_file}: is the input file; give another name")
    total = _total(total_epsilon, total_delta)
    events = [_event(label, e, d) for label, e, d in plan]
    precheck(budget_file, events, create_total=total)  # refused here: no file is touched
    with open_ledger(budget_file, create_total=total) as session:
        session.reserve(events, input_name=input.name)
        yield session


def name_mechanisms(session: Any, mechanisms: list[str]) -> None:
    """Record the mechanism each release really used (after it ran)."""
    if session is None:
        return
    start = len(session.pending) - len(mechanisms)
    for i, mech in enumerate(mechanisms):
        session.pending[start + i] = replace(session.pending[start + i], mechanism=mech)


# ---------------------------------------------------------------------------- commands
@budget_app.command("init")
@exits_on_bad_input
def init(
    file: Path = typer.Argument(..., help="The ledger file to create (JSON)."),
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="Total ε of all the releases."),
    delta: float = typer.Option(0.0, "--delta", help="Total δ of all the releases."),
    json_out: bool = typer.Option(False, "--json", help="Print the new ledger's status as JSON."),
) -> None:
    """Create a budget ledger holding a total (ε, δ) and no release yet."""
    from privlab.dp.ledger import init_ledger

    total = Budget(check_epsilon(epsilon, "--epsilon"), check_delta(delta, "--delta"))
    ledger = init_ledger(file, total)
    if json_out:
        print_json({"file": str(file), **ledger.status()})
        return
    out_console.print(f"{file}: budget ledger created, total {total}")


@budget_app.command("show")
@exits_on_bad_input
def show(
    file: Path = typer.Argument(..., help="A ledger file (privlab dp budget init)."),
    json_out: bool = typer.Option(False, "--json", help="Print the status and releases as JSON."),
) -> None:
    """Print the spent and remaining budget (basic and tightest composition) and the releases."""
    from privlab.dp.ledger import read_ledger

    ledger = read_ledger(file)
    status = ledger.status()
    if json_out:
        print_json({"file": str(file), **status,
                    "ledger": [e.to_dict() for e in ledger.entries]})  # fmt: skip
        return
    basic, tight = status["basic"], status["tight"]
    grid = Table(title=f"{file}: total {ledger.total}, {len(ledger.entries)} release(s)")
    for col in ("composition", "spent ε", "spent δ", "remaining ε"):
        grid.add_column(col)
    grid.add_row("basic", f"{basic['spent']['epsilon']:.6g}", f"{basic['spent']['delta']:.3g}",
                 f"{basic['remaining']['epsilon']:.6g}")  # fmt: skip
    grid.add_row(f"tightest ({tight['method']})", f"{tight['spent']['epsilon']:.6g}",
                 f"{tight['spent']['delta']:.3g}", f"{tight['remaining_epsilon']:.6g}")  # fmt: skip
    out_console.print(grid)
    if ledger.entries:
        rel = Table(title="releases")
        for col in ("time", "query", "input", "mechanism", "ε", "δ"):
            rel.add_column(col)
        for e in ledger.entries:
            rel.add_row(e.time, e.query, e.input, e.mechanism, f"{e.event.epsilon:g}",
                        f"{e.event.delta:g}")  # fmt: skip
        out_console.print(rel)
