"""``privlab bench``: run a benchmark spec (a TOML file or a built-in name) into a directory."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from privlab.cli.common import (
    Quiet,
    Terminated,
    err_console,
    exits_on_bad_input,
    guard_outputs,
    live_console,
    out_console,
    print_json,
)
from privlab.errors import ConfigError


@exits_on_bad_input
def bench(
    spec: str | None = typer.Argument(
        None, help="A spec file (.toml) or the name of a built-in spec (see --list)."
    ),
    output: Path | None = typer.Option(
        None,
        "--output",
        "-o",
        help="Results directory (results.csv, manifest.json, ...); required to run a spec.",
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Continue an interrupted run in the directory (same spec)."
    ),
    reduced: bool = typer.Option(
        False, "--reduced", help="Apply the spec's [experiment.reduced] sizes (quick runs)."
    ),
    seeds: int | None = typer.Option(
        None, "--seeds", help="Repeat every cell with N seeds (default: the spec's seeds)."
    ),
    list_specs: bool = typer.Option(False, "--list", help="List the built-in specs and exit."),
    as_json: bool = typer.Option(False, "--json", help="Print a JSON summary on stdout."),
    quiet: Quiet = False,
    no_report: bool = typer.Option(
        False, "--no-report", help="Do not write DIR/report.html (tables and plots)."
    ),
) -> None:
    """Run the grid experiment × scheme × value × seed of a spec; tidy, resumable results."""
    from privlab.bench import builtin_specs, load_spec, run_spec

    if list_specs:
        specs = builtin_specs()
        if as_json:
            print_json({"specs": specs})
        else:
            for name, title in specs.items():
                out_console.print(f"{name:16} {title}", highlight=False, soft_wrap=True)
        return
    if spec is None:
        raise ConfigError("give a spec file or a built-in spec name (privlab bench --list)")
    if output is None:
        raise ConfigError("give the results directory with -o DIR")
    from privlab.bench.runner import results_output

    guard_outputs([results_output(output, "-o")], [spec])
    s = load_spec(spec)
    if reduced:
        s = s.reduce()
    if seeds is not None:
        s = s.with_seeds(seeds)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[cell]}"),
        console=live_console(),
        transient=True,
        disable=quiet,
    ) as bar:
        task = bar.add_task(s.name, total=s.n_cells, cell="")

        def progress(done: int, total: int, cell: object) -> None:
            bar.update(task, completed=done, total=total, cell="" if cell is None else str(cell))

        try:
            summary = run_spec(s, output, resume=resume, progress=progress)
        except (KeyboardInterrupt, Terminated) as stop:
            err_console.print(
                f"{'interrupted' if isinstance(stop, KeyboardInterrupt) else 'terminated'}: "
                f"finished cells are kept in {output}; continue with "
                f"privlab bench {spec} -o {output} --resume"
                + (" --reduced" if reduced else "")
                + (f" --seeds {seeds}" if seeds is not None else "")
            )
            raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 143) from None
    report_path = None
    if not no_report and summary.complete:
        from privlab.report import report_from_results

        report_path = output / "report.html"
        report_from_results(output).write(report_path)
    if as_json:
        print_json({"spec": s.name, "reduced": s.is_reduced, **summary.to_dict(),
                    "report": None if report_path is None else str(report_path)})  # fmt: skip
    else:
        out_console.print(
            f"{s.name}: {summary.total} cells ({summary.computed} computed, {summary.resumed} "
            f"kept from an earlier run) in {summary.seconds:.1f} s; wrote {output}/results.csv, "
            "results.parquet, summary.csv, curves.csv, manifest.json"
            + ("" if report_path is None else ", report.html (tables and plots)"),
            highlight=False,
        )
