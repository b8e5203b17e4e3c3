"""The ``privlab`` command line: a thin shell over the library.

The top-level commands are loaded lazily (:mod:`privlab.cli.lazy`): ``privlab --help`` lists
them from the table below without importing any of them (numpy, polars, scipy and the rest
stay unloaded), and ``privlab table ...`` imports only the table commands.  A test checks
that each entry's short help is the loaded command's own.
"""

from __future__ import annotations

from typing import Any

import typer

from privlab import __version__
from privlab.cli import lazy

#: name → (module, attribute, short help).  The attribute is a Typer app (a group of
#: commands) or a command function.
COMMANDS: lazy.CommandTable = {
    "table": ("privlab.cli.table", "app", "Anonymize microdata tables and measure their risk."),
    "dp": ("privlab.cli.dp", "app", "Differentially private releases and their parameters."),
    "graph": (
        "privlab.cli.graph_commands", "app",
        "Anonymize social graphs and measure what the release keeps.",
    ),
    "demo": (
        "privlab.cli.demo", "demo",
        "Generate a census sample, anonymize it and print the risk before and after.",
    ),
    "report": (
        "privlab.cli.report", "report",
        "Write one self-contained HTML report (tables and plots) of a benchmark results folder.",
    ),
    "bench": (
        "privlab.cli.bench", "bench",
        "Run the grid experiment × scheme × value × seed of a spec; tidy, resumable results.",
    ),
    "audit": (
        "privlab.cli.audit", "audit",
        "Run every attack that applies to RELEASE, measure utility against ORIGINAL, write the "
        "report and print a plain-language summary.",
    ),
}  # fmt: skip


def load_command(name: str) -> Any:
    """Import top-level command ``name`` and return it as a click command of Typer's."""
    return lazy.load_command(COMMANDS, name)


app = typer.Typer(
    name="privlab",
    cls=lazy.group_class(COMMANDS),
    # plain help everywhere: rich's help formatter alone costs more than the 0.3 s budget of
    # `privlab --help`, and it would read [brackets] in help texts as markup
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    help="Privacy-preserving data publishing: anonymize, attack and measure.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"privlab {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """privlab command line."""
