"""The ``privlab`` command line: a thin shell over the library."""

from __future__ import annotations

import typer

from privlab import __version__
from privlab.cli import dp as dp_cli
from privlab.cli import graph as graph_cli
from privlab.cli import table as table_cli
from privlab.cli.audit import audit
from privlab.cli.bench import bench
from privlab.cli.demo import demo
from privlab.cli.report import report

app = typer.Typer(
    name="privlab",
    help="Privacy-preserving data publishing: anonymize, attack and measure.",
    no_args_is_help=True,
    add_completion=False,
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


app.add_typer(table_cli.app, name="table")
app.add_typer(dp_cli.app, name="dp")
app.add_typer(graph_cli.app, name="graph")
app.command("demo")(demo)
app.command("report")(report)
app.command("bench")(bench)
app.command("audit")(audit)
