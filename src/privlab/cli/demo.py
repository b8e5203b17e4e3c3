"""``privlab demo``: the main job end to end on a generated sample (no files, no network).

Generates a synthetic census table (:func:`privlab.table.sample.census_sample`), measures
its re-identification risk, anonymizes it with the optimal lattice search (k-anonymity plus
distinct ℓ-diversity on the disease, record suppression, ARX's Loss) and measures the risk
of the release.  With ``-o DIR`` it also writes the sample, its hierarchies (ARX CSV), the
release, a job file that reproduces the run with ``privlab table anonymize --job`` and the
JSON summary.  ``--write-examples DIR`` instead writes the README's example inputs
(:mod:`privlab.examples`) into DIR, so that each README command runs as written from there.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table
from rich.text import Text

from privlab import examples
from privlab.cli.common import (
    Quiet,
    exits_on_bad_input,
    guard_outputs,
    out_console,
    print_json,
    progress_bar,
)
from privlab.cli.risk_view import risk_table
from privlab.cli.specs import parse_fraction
from privlab.cli.table import dump_job
from privlab.errors import ConfigError
from privlab.io import strict_json
from privlab.io.atomic import atomic_folder, write_text_atomic
from privlab.io.delimited import write_table
from privlab.io.outputs import Manifest, Output
from privlab.table.anonymize import anonymize_table
from privlab.table.models import DistinctLDiversity, KAnonymity
from privlab.table.sample import census_sample

if TYPE_CHECKING:  # the risk measures load SciPy: imported when the demo runs, not for --help
    from privlab.table.risk import RiskReport


def _risk(frame: Any, qis: list[str], suppressed: Any, population: int, threshold: float):
    from privlab.table.risk import risk_of_frame

    return risk_of_frame(
        frame, qis, suppressed=suppressed, population_size=population, threshold=threshold
    )


def _risk_table(before: RiskReport, after: RiskReport, threshold: float) -> Table:
    return risk_table(
        f"re-identification risk (threshold {threshold:g})",
        {"sample": before.to_dict(), "release": after.to_dict()},
    )


#: A demo folder is recognised by its summary.json (before --overwrite may replace it).
DEMO_MANIFEST = Manifest("demo folder", "summary.json", "format", "privlab demo")
#: An examples folder by its examples.json (see :mod:`privlab.examples`).
EXAMPLES_MANIFEST = Manifest(
    "folder of examples", examples.MANIFEST_FILE, "format", examples.FORMAT
)


def _write_outputs(out: Path, sample, release, summary: dict[str, Any], job: dict) -> None:
    """Everything is computed before the first file is written; the folder appears whole
    (temporary folder, then rename)."""
    text = dump_job(job)
    with atomic_folder(out) as tmp:
        write_table(sample.frame, tmp / "sample.csv")
        for col, h in sample.hierarchies.items():
            h.to_csv(tmp / f"hierarchy_{col}.csv")
        write_table(release.data, tmp / "release.csv")
        write_text_atomic(tmp / "job.toml", text)
        manifest = {"format": DEMO_MANIFEST.value, **summary}
        write_text_atomic(tmp / "summary.json", strict_json.dumps(manifest) + "\n")


@exits_on_bad_input
def demo(
    rows: int = typer.Option(5000, "--rows", help="Records in the generated sample."),
    seed: int = typer.Option(7, "--seed", help="Random seed of the sample."),
    k: int = typer.Option(5, "-k", help="k-anonymity: smallest class size."),
    l_div: int = typer.Option(2, "-l", help="Distinct ℓ-diversity of the disease."),
    suppression: str = typer.Option("5%", "--suppression", help="Record suppression limit."),
    population: int | None = typer.Option(
        None, "--population", help="Population size for journalist risk (default 100 × rows)."
    ),
    threshold: float = typer.Option(0.2, "--threshold", help="Risk threshold."),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="Folder for sample, hierarchies, release, job and summary."
    ),
    write_examples: Path | None = typer.Option(
        None,
        "--write-examples",
        help="Write the README's example input files (census.csv with its hierarchies, "
        "people.csv, salaries.csv, social.txt) into this folder and stop, instead of running "
        "the demo: each README command then runs as written from there.",
    ),
    overwrite: bool = typer.Option(
        False,
        "--overwrite",
        help="Replace the folder of an earlier `privlab demo -o` (or --write-examples).",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print a machine-readable summary."),
    quiet: Quiet = False,
) -> None:
    """Generate a census sample, anonymize it and print the risk before and after."""
    t0 = time.perf_counter()
    if write_examples is not None:
        _write_examples(write_examples, output, overwrite, json_out)
        return
    guard_outputs(
        [Output(output, "-o", folder=True, manifest=DEMO_MANIFEST, replace=overwrite)], []
    )
    if k < 1:
        raise ConfigError(f"-k {k}: k must be at least 1")
    if l_div < 1:
        raise ConfigError(f"-l {l_div}: ℓ must be at least 1")
    if not 0 <= threshold <= 1:
        raise ConfigError(f"--threshold {threshold}: give a probability in [0, 1]")
    limit = parse_fraction("--suppression", suppression)
    sample = census_sample(rows, seed)
    population = population if population is not None else 100 * rows
    if population < rows:
        raise ConfigError(f"--population {population}: smaller than the sample ({rows} rows)")
    qis = sample.quasi_identifiers
    before = _risk(sample.frame, qis, None, population, threshold)
    table = sample.micro_table()
    models = [KAnonymity(k), DistinctLDiversity(sample.sensitive, l_div)]
    with progress_bar("optimal search of the lattice", unit="nodes") as progress:
        release = anonymize_table(table, models, suppression_limit=limit, progress=progress)
    after = _risk(release.data, qis, release.suppressed_rows, population, threshold)
    summary = {
        "sample": {"rows": rows, "seed": seed, "population_size": population},
        "anonymization": release.to_dict(),
        "risk_before": before.to_dict(),
        "risk_after": after.to_dict(),
    }
    if output is not None:
        job = {
            "input": "sample.csv",
            "output": "release.csv",
            "qi": qis,
            "identifying": [sample.identifying],
            "sensitive": [sample.sensitive],
            "k": k,
            "l_diversity": [f"{sample.sensitive}:distinct:{l_div}"],
            "suppression": str(limit),
            "hierarchy": {c: f"hierarchy_{c}.csv" for c in qis},
        }
        _write_outputs(output, sample, release, summary, job)
    summary["seconds_total"] = time.perf_counter() - t0
    if json_out:
        print_json(summary)
        return
    res = release.to_dict()
    out_console.print(
        Text("privlab demo", style="bold")
        + Text(
            f": {rows} synthetic census records (seed {seed}); "
            f"quasi-identifiers {', '.join(qis)}; sensitive: {sample.sensitive}; "
            f"'{sample.identifying}' removed"
        )
    )
    levels = ", ".join(f"{c}={v}" for c, v in res["levels"].items())
    out_console.print(
        f"optimal {k}-anonymity + distinct {l_div}-diversity, suppression ≤ {limit:.0%}: "
        f"levels {levels}; {res['suppressed']} rows suppressed; "
        f"{res['equivalence_classes']} classes; Loss {res['value']:.4f}; "
        f"{res['nodes_checked']} of {res['lattice_size']} nodes checked"
    )
    out_console.print(_risk_table(before, after, threshold))
    if output is not None:
        out_console.print(f"wrote {output}/: sample.csv, hierarchy_*.csv, release.csv, job.toml")
    out_console.print(f"{summary['seconds_total']:.2f} s")


def _write_examples(folder: Path, output: Path | None, overwrite: bool, json_out: bool) -> None:
    """``--write-examples DIR``: the README's inputs into DIR (guarded like ``-o``)."""
    if output is not None:
        raise ConfigError(
            "--write-examples writes the example files and stops; it cannot go with -o "
            "(run the demo separately)"
        )
    guard_outputs(
        [Output(folder, "--write-examples", folder=True, manifest=EXAMPLES_MANIFEST,
                replace=overwrite)],
        [],
    )  # fmt: skip
    manifest = examples.write_examples(folder)
    if json_out:
        print_json({"output": str(folder), **manifest})
        return
    out_console.print(f"wrote {folder}/:")
    for name, what in manifest["files"].items():
        out_console.print(f"  {name:38} {what}", soft_wrap=True)
    out_console.print(f"Run the README's commands from {folder}/ (cd {folder}).", soft_wrap=True)
