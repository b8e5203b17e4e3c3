"""The ``privlab`` command line: a thin shell over the library.

The top-level commands are loaded lazily: ``privlab --help`` lists them from the table below
without importing any of them (numpy, polars, scipy and the rest stay unloaded), and
``privlab table ...`` imports only the table commands.  A test checks that each entry's
short help is the loaded command's own.
"""

from __future__ import annotations

import importlib
from typing import Any

import typer
from typer.core import TyperGroup

from privlab import __version__

#: name → (module, attribute, short help).  The attribute is a Typer app (a group of
#: commands) or a command function.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "table": ("privlab.cli.table", "app", "Anonymize microdata tables and measure their risk."),
    "dp": ("privlab.cli.dp", "app", "Differentially private releases and their parameters."),
    "graph": (
        "privlab.cli.graph", "app", "Anonymize social graphs and measure what the release keeps."
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
    """Import command ``name`` and return it as a click command of Typer's."""
    module, attribute, _ = COMMANDS[name]
    target = getattr(importlib.import_module(module), attribute)
    if isinstance(target, typer.Typer):
        return typer.main.get_command(target)
    single = typer.Typer(add_completion=False, rich_markup_mode=None)  # as command_group's
    single.command(name)(target)
    return typer.main.get_command(single)


class LazyGroup(TyperGroup):
    """A group whose commands are imported when one is run, not when help is listed."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in COMMANDS:
            return None
        if getattr(self, "_listing", False):
            short = COMMANDS[cmd_name][2]
            return typer.core.TyperCommand(name=cmd_name, help=short, short_help=short)
        return load_command(cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True  # list the commands from the table, without importing them
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


app = typer.Typer(
    name="privlab",
    cls=LazyGroup,
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
