"""``privlab report RESULTS_DIR -o report.html``: the HTML report of benchmark results."""

from __future__ import annotations

from pathlib import Path

import typer

from privlab.cli.common import Quiet, err_console, exits_on_bad_input, guard_outputs, spinner
from privlab.io.outputs import Output
from privlab.io.results_folder import FOLDER_FILES


@exits_on_bad_input
def report(
    results: Path = typer.Argument(
        ..., help="Results folder written by `privlab bench` (holds results.csv)."
    ),
    output: Path = typer.Option(..., "-o", "--output", help="HTML file to write (- for stdout)."),
    title: str | None = typer.Option(None, "--title", help="Report title (default: the spec's)."),
    quiet: Quiet = False,
) -> None:
    """Write one self-contained HTML report (tables and plots) of a benchmark results folder.

    Bad input (missing files or columns, non-numeric values) exits with code 2 and writes
    nothing.
    """
    from privlab.report import report_from_results

    folder = results.parent if results.is_file() else results
    guard_outputs(
        [Output(output, "-o", stdout_ok=True)],
        [results, *(folder / name for name in FOLDER_FILES)],
    )
    with spinner("drawing the report …"):
        doc = report_from_results(results, title=title)
        path = doc.write(output)
    figures = sum(b.kind == "figure" for s in doc.sections for b in s.blocks)
    if not quiet:
        err_console.print(
            f"wrote {path} ({len(doc.sections)} sections, {figures} figures)", highlight=False
        )
