"""``--non-private-diagnostics``: exact figures of the input next to a DP release, on request.

One design for every DP command (``dp release``, ``dp safe-kanon``, ``graph anonymize -s
dp-dk2``): by default they print only what the guarantee covers.  With the flag, the exact
figures go — in JSON — under the key ``non_private_diagnostics``, whose first entry is a
warning, and — in the human output — into a separate table headed "NOT differentially
private" (:mod:`privlab.dp.diagnostics`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from privlab.cli.common import out_console
from privlab.dp.diagnostics import KEY, WARNING, non_private

NonPrivateDiagnostics = Annotated[
    bool,
    typer.Option(
        "--non-private-diagnostics",
        help="Also print exact figures of the input (rows read, rows sampled or suppressed, "
        "edges...) under a heading that says they are NOT differentially private: for the "
        "data owner's checks, never for publication.",
    ),
]


def attach(payload: dict[str, Any], figures: Mapping[str, Any], enabled: bool) -> None:
    """Put ``figures`` into ``payload`` under the non-private key, when ``enabled``."""
    if enabled:
        payload[KEY] = non_private(figures)


def _rows(figures: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    for key, value in figures.items():
        if isinstance(value, Mapping):
            yield from _rows(value, f"{prefix}{key}.")
        elif key != "warning":
            yield f"{prefix}{key}", str(value)


def print_section(payload: Mapping[str, Any], console: Console = out_console) -> None:
    """Human output: the payload's non-private figures, if any, in their own table."""
    figures = payload.get(KEY)
    if not figures:
        return
    heading, _, rest = WARNING.partition(":")
    console.print(Text(heading, style="bold red") + Text(f":{rest}"))
    grid = Table(show_header=False)
    for key, value in _rows(figures):
        grid.add_row(key, value)
    console.print(grid)


__all__ = ["NonPrivateDiagnostics", "attach", "print_section"]
