"""``privlab table ...``: anonymize, check and risk for microdata tables.

Options may also come from a TOML job file (``--job``); paths in it are relative to the job
file.  Options given on the command line win over the job file.
"""

from __future__ import annotations

import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from privlab.cli.common import (
    err_console,
    exits_on_bad_input,
    out_console,
    print_json,
    progress_bar,
)
from privlab.cli.specs import (
    HIERARCHY_SPEC_HELP,
    build_hierarchies,
    is_existing_file,
    parse_delta,
    parse_fraction,
    parse_ke,
    parse_l_diversity,
    parse_metric,
    parse_pairs,
    parse_t_closeness,
)
from privlab.errors import ConfigError, InputError
from privlab.io.delimited import read_table, write_table
from privlab.table.anonymize import ALGORITHMS, anonymize_table
from privlab.table.assess import assess
from privlab.table.data import MicroTable
from privlab.table.hierarchy import Hierarchy
from privlab.table.hierarchy_builders import HIERARCHY_KINDS
from privlab.table.models import KAnonymity, PrivacyModel

app = typer.Typer(help="Anonymize microdata tables and measure their risk.", no_args_is_help=True)


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_TEXT = ("a string", _is_text)
_TEXTS = (
    "a string or a list of strings",
    lambda v: _is_text(v) or (isinstance(v, list) and all(map(_is_text, v))),
)
_FILES = (
    'a table of COLUMN = "FILE"',
    lambda v: isinstance(v, dict) and all(map(_is_text, v.values())),
)

#: The keys of a job file: what each takes (as the option of the same name) and its check.
JOB_VALUES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    **dict.fromkeys(("input", "output", "metric", "aggregation", "algorithm", "delimiter",
                     "missing"), _TEXT),
    **dict.fromkeys(("qi", "sensitive", "identifying", "l_diversity", "t_closeness",
                     "delta_disclosure", "ke", "numeric", "na"), _TEXTS),
    **dict.fromkeys(("hierarchy", "sensitive_hierarchy"), _FILES),
    "k": ("a whole number", lambda v: _is_number(v) and isinstance(v, int)),
    "gs": ("a number", _is_number),
    "relaxed": ("true or false", lambda v: isinstance(v, bool)),
    "suppression": ('a fraction or a percentage, e.g. 0.02 or "2%"',
                    lambda v: _is_number(v) or _is_text(v)),
}  # fmt: skip
JOB_KEYS = set(JOB_VALUES)


def load_job(path: Path) -> dict[str, Any]:
    """Read a TOML job; resolve its paths relative to the job file's folder."""
    try:
        job = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: job file not found") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason}); save it as UTF-8") from None
    except ValueError as exc:  # TOMLDecodeError, or an integer of more than 4300 digits
        raise InputError(f"{path}: invalid TOML: {exc}") from None
    unknown = sorted(set(job) - JOB_KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown keys {unknown}; known keys: {sorted(JOB_KEYS)}")
    for key, value in job.items():
        takes, check = JOB_VALUES[key]
        if not check(value):
            shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
            raise ConfigError(f"{path}: {key} = {shown}: give {takes}")
    base = path.parent

    def rel(p: str) -> str:
        return str(base / p) if not Path(p).is_absolute() else p

    for key in ("input", "output"):
        if key in job:
            job[key] = rel(job[key])
    for key in ("hierarchy", "sensitive_hierarchy"):
        if key in job:
            job[key] = [f"{c}={_job_hierarchy(base, f)}" for c, f in job[key].items()]
    for key, value in job.items():
        if JOB_VALUES[key] is _TEXTS and isinstance(value, str):
            job[key] = [value]
    return job


def _job_hierarchy(base: Path, value: str) -> str:
    """A job's hierarchy entry: a file relative to the job, or an inline ``KIND:...`` spec."""
    if Path(value).is_absolute() or is_existing_file(base / value):
        return str(base / value)
    if value.partition(":")[0].strip().lower() in HIERARCHY_KINDS:
        return value
    return str(base / value)


def _merge(cli: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    merged = dict(job)
    for key, value in cli.items():
        if value not in (None, [], ()):
            merged[key] = value
    return merged


def build_table(opts: dict[str, Any], *, files_only: bool = False) -> MicroTable:
    """The encoded table described by CLI/job options (``files_only``: hierarchies from
    files only, see :func:`~privlab.cli.specs.build_hierarchies`)."""
    if not opts.get("input"):
        raise ConfigError("no input file; give INPUT or 'input' in the job file")
    if not opts.get("qi"):
        raise ConfigError("no quasi-identifiers; name them with --qi COLUMN (repeatable)")
    path = Path(opts["input"])
    expected = list(opts.get("qi") or []) + list(opts.get("sensitive") or [])
    frame = read_table(path, delimiter=opts.get("delimiter"), expected_columns=expected)
    hier = build_hierarchies(
        "--hierarchy",
        opts.get("hierarchy") or [],
        frame,
        source=str(path),
        missing=opts.get("missing"),
        na_values=opts.get("na") or ("",),
        files_only=files_only,
    )
    table = MicroTable.from_data(
        frame,
        quasi_identifiers=opts["qi"],
        hierarchies=hier,
        sensitive=opts.get("sensitive") or [],
        identifying=opts.get("identifying") or [],
        missing=opts.get("missing") or "error",
        na_values=opts.get("na") or ("",),
        source=str(path),
    )
    return table


def _build_models(opts: dict[str, Any], required: bool) -> list[PrivacyModel]:
    sens_h = {
        c: Hierarchy.from_csv(f)
        for c, f in parse_pairs(
            "--sensitive-hierarchy", opts.get("sensitive_hierarchy") or []
        ).items()
    }
    models: list[PrivacyModel] = []
    if opts.get("k") is not None:
        models.append(KAnonymity(opts["k"]))
    models += [parse_l_diversity(s) for s in opts.get("l_diversity") or []]
    models += [parse_t_closeness(s, sens_h) for s in opts.get("t_closeness") or []]
    models += [parse_delta(s) for s in opts.get("delta_disclosure") or []]
    models += [parse_ke(s) for s in opts.get("ke") or []]
    if required and not models:
        raise ConfigError("no privacy model; give at least -k K (or --l-diversity, --t-closeness)")
    return models


def _declare_sensitive(opts: dict[str, Any]) -> None:
    """Columns named by sensitive-attribute models are sensitive even if not listed."""
    names = list(opts.get("sensitive") or [])
    for key in ("l_diversity", "t_closeness", "delta_disclosure", "ke"):
        for spec in opts.get(key) or []:
            sa = str(spec).split(":", 1)[0]
            if sa and sa not in names:
                names.append(sa)
    opts["sensitive"] = names


QI_OPT = typer.Option(None, "--qi", help="Quasi-identifying column (repeatable).")
HIER_OPT = typer.Option(
    None,
    "--hierarchy",
    help=f"COLUMN=FILE (ARX hierarchy CSV) or COLUMN=SPEC built from the data, SPEC = "
    f"{HIERARCHY_SPEC_HELP} (repeatable).",
)
SENS_OPT = typer.Option(None, "--sensitive", help="Sensitive column (repeatable).")
DELIM_OPT = typer.Option(None, "--delimiter", help="Field delimiter (default: sniffed).")
MISSING_OPT = typer.Option(
    None, "--missing", help="Missing values: 'error' (default) or 'category'."
)
NA_OPT = typer.Option(
    None, "--na", help="Text that marks a missing cell (repeatable; default: empty)."
)
JSON_OPT = typer.Option(False, "--json", help="Print a machine-readable JSON summary.")


@app.command()
@exits_on_bad_input
def anonymize(
    input: Path | None = typer.Argument(None, help="CSV or Parquet file to anonymize."),
    qi: list[str] | None = QI_OPT,
    hierarchy: list[str] | None = HIER_OPT,
    k: int | None = typer.Option(None, "-k", help="k-anonymity: smallest class size."),
    l_diversity: list[str] | None = typer.Option(
        None, "--l-diversity", help="SA:distinct:L | SA:entropy:L | SA:recursive:C:L"
    ),
    t_closeness: list[str] | None = typer.Option(
        None, "--t-closeness", help="SA:equal:T | SA:ordered:T | SA:hierarchical:T"
    ),
    delta_disclosure: list[str] | None = typer.Option(None, "--delta-disclosure", help="SA:DELTA"),
    ke: list[str] | None = typer.Option(None, "--ke", help="(k,e)-anonymity: SA:K:E"),
    sensitive: list[str] | None = SENS_OPT,
    sensitive_hierarchy: list[str] | None = typer.Option(
        None, "--sensitive-hierarchy", help="SA=FILE hierarchy for hierarchical t-closeness."
    ),
    identifying: list[str] | None = typer.Option(
        None, "--identifying", help="Identifying column, removed from the output (repeatable)."
    ),
    suppression: str | None = typer.Option(
        None, "--suppression", help="Record suppression limit: fraction or percent (0.02, 2%)."
    ),
    metric: str | None = typer.Option(
        None,
        "--metric",
        help="Utility metric: loss, dm, dm-star, aecs, entropy, precision, kl, height.",
    ),
    gs: float | None = typer.Option(
        None,
        "--gs",
        help="gs in [0, 1]: generalization vs suppression (loss, aecs, entropy, precision).",
    ),
    aggregation: str | None = typer.Option(
        None,
        "--aggregation",
        help="geometric | arithmetic | sum | max (which ones: docs/metrics.md)",
    ),
    algorithm: str | None = typer.Option(None, "--algorithm", help="optimal | datafly | mondrian"),
    numeric: list[str] | None = typer.Option(
        None, "--numeric", help="Mondrian: QI split on numeric values (repeatable)."
    ),
    relaxed: bool = typer.Option(
        False, "--relaxed", help="Mondrian: relaxed partitioning (the median's class may split)."
    ),
    output: Path | None = typer.Option(None, "-o", "--output", help="Where to write the release."),
    job: Path | None = typer.Option(None, "--job", help="TOML job file with these options."),
    delimiter: str | None = DELIM_OPT,
    missing: str | None = MISSING_OPT,
    na: list[str] | None = NA_OPT,
    json_out: bool = JSON_OPT,
) -> None:
    """Anonymize a table: generalize quasi-identifiers, suppress outliers, write the release."""
    t0 = time.perf_counter()
    cli = dict(locals())
    for key in ("cli", "t0", "job", "json_out"):
        cli.pop(key, None)
    opts = _merge(cli, load_job(job) if job else {})
    _declare_sensitive(opts)
    algo = opts.get("algorithm") or "optimal"
    if algo not in (*ALGORITHMS, "mondrian"):
        raise ConfigError(f"--algorithm {algo!r}: use optimal, datafly or mondrian")
    _check_algorithm_options(algo, opts)
    limit = parse_fraction("--suppression", opts.get("suppression") or 0)
    metric_obj = parse_metric(opts.get("metric") or "loss", opts.get("gs"), opts.get("aggregation"))
    table = build_table(opts)
    models = _build_models(opts, required=True)
    if opts.get("output") and Path(opts["output"]).resolve() == Path(opts["input"]).resolve():
        raise ConfigError("the output file is the input file; choose another -o")
    if algo == "mondrian":
        summary, frame = _run_mondrian(table, models, opts)
    else:
        with progress_bar("searching lattice", enabled=not json_out) as progress:
            release = anonymize_table(
                table,
                models,
                suppression_limit=limit,
                metric=metric_obj,
                algorithm=algo,
                progress=progress,
            )
        frame, summary = release.data, release.to_dict()
    if opts.get("output"):
        write_table(frame, opts["output"], delimiter=opts.get("delimiter") or ",")
        summary["output"] = str(opts["output"])
    summary["seconds_total"] = time.perf_counter() - t0
    if json_out:
        print_json(summary)
    else:
        _print_summary(summary)


#: Options that only one kind of algorithm understands.
LATTICE_ONLY = {"suppression": "--suppression", "metric": "--metric", "gs": "--gs",
                "aggregation": "--aggregation"}  # fmt: skip
MONDRIAN_ONLY = {"numeric": "--numeric", "relaxed": "--relaxed"}


def _check_algorithm_options(algo: str, opts: dict[str, Any]) -> None:
    """Refuse options the chosen algorithm would ignore, rather than ignore them silently."""
    foreign = MONDRIAN_ONLY if algo != "mondrian" else LATTICE_ONLY
    given = [flag for key, flag in foreign.items() if opts.get(key) not in (None, False, [], "")]
    if given:
        if algo == "mondrian":
            raise ConfigError(
                f"{', '.join(given)} {_verb(given)} to the lattice algorithms (optimal, datafly); "
                "Mondrian neither suppresses records nor optimizes a metric (see NCP/GCP in "
                "its summary)"
            )
        raise ConfigError(f"{', '.join(given)} {_verb(given)} to --algorithm mondrian only")


def _verb(options: list[str]) -> str:
    return "applies" if len(options) == 1 else "apply"


def _run_mondrian(table: MicroTable, models: list[PrivacyModel], opts: dict[str, Any]):
    from privlab.table.mondrian import mondrian

    result = mondrian(
        table, models, numeric=opts.get("numeric") or [], strict=not opts.get("relaxed")
    )
    return result.to_dict(), result.release


def _print_summary(summary: dict[str, Any]) -> None:
    grid = Table(title="privlab table anonymize", show_header=False)
    for key, value in summary.items():
        if key == "levels":
            value = ", ".join(f"{c}={v}" for c, v in value.items())
        elif isinstance(value, float):
            value = f"{value:.10g}"
        grid.add_row(key, str(value))
    out_console.print(grid)


@app.command()
@exits_on_bad_input
def check(
    input: Path = typer.Argument(..., help="CSV or Parquet file to check."),
    qi: list[str] | None = QI_OPT,
    sensitive: list[str] | None = SENS_OPT,
    k: int | None = typer.Option(None, "-k", help="Also test k-anonymity with this k."),
    l_diversity: list[str] | None = typer.Option(None, "--l-diversity", help="Also test this."),
    t_closeness: list[str] | None = typer.Option(None, "--t-closeness", help="Also test this."),
    delimiter: str | None = DELIM_OPT,
    missing: str | None = MISSING_OPT,
    na: list[str] | None = NA_OPT,
    json_out: bool = JSON_OPT,
) -> None:
    """Which models the table already satisfies, and with which parameters."""
    opts = dict(locals())
    opts.pop("json_out")
    _declare_sensitive(opts)
    table = build_table(opts)
    report = assess(table, _build_models(opts, required=False))
    if json_out:
        print_json(report.to_dict())
        return
    grid = Table(title=f"{input}: {report.records} records, {report.classes} classes")
    grid.add_column("model")
    grid.add_column("strongest parameter that holds")
    grid.add_row("k-anonymity", f"k = {report.k}")
    for s in report.sensitive:
        grid.add_row(f"distinct ℓ-diversity ({s.attribute})", f"ℓ = {s.distinct_l}")
        grid.add_row(f"entropy ℓ-diversity ({s.attribute})", f"ℓ = {s.entropy_l:.4g}")
        c = "—" if s.recursive_c_for_l2 is None else f"c > {s.recursive_c_for_l2:.4g}"
        grid.add_row(f"recursive (c,2)-diversity ({s.attribute})", c)
        grid.add_row(f"t-closeness, equal ({s.attribute})", f"t = {s.t_equal:.4g}")
        grid.add_row(f"t-closeness, ordered ({s.attribute})", f"t = {s.t_ordered:.4g}")
        grid.add_row(f"δ-disclosure ({s.attribute})", f"δ > {s.delta:.4g}")
        if s.ke is not None:
            grid.add_row(f"(k,e)-anonymity ({s.attribute})", f"k = {s.ke[0]}, e = {s.ke[1]:g}")
    for name, ok in report.models.items():
        grid.add_row(name, "[green]satisfied[/]" if ok else "[red]violated[/]")
    out_console.print(grid)


@app.command()
@exits_on_bad_input
def risk(
    input: Path = typer.Argument(..., help="CSV or Parquet file to analyse."),
    qi: list[str] | None = QI_OPT,
    population: int | None = typer.Option(None, "--population", help="Population size."),
    population_table: Path | None = typer.Option(
        None,
        "--population-table",
        help="CSV/Parquet of the population with the same quasi-identifier columns, coded "
        "like INPUT: each class's size in it is the journalist's F_j.",
    ),
    sampling_fraction: float | None = typer.Option(
        None, "--sampling-fraction", help="Sample size / population size."
    ),
    threshold: float = typer.Option(
        0.2, "--threshold", help="Risk threshold for 'records at risk'."
    ),
    suppressed_value: str = typer.Option(
        "*",
        "--suppressed-value",
        help="Records whose quasi-identifiers all hold this value are suppressed: excluded "
        "from the classes and counted apart ('' to treat none as suppressed).",
    ),
    delimiter: str | None = DELIM_OPT,
    missing: str | None = MISSING_OPT,
    na: list[str] | None = NA_OPT,
    json_out: bool = JSON_OPT,
) -> None:
    """Re-identification risk of a table: prosecutor, journalist, marketer, uniqueness."""
    from privlab.table.risk import risk_of_frame, risk_report

    opts = dict(locals())
    table = build_table(opts)
    if population_table is None:
        report = risk_report(
            table,
            population_size=population,
            sampling_fraction=sampling_fraction,
            threshold=threshold,
            suppressed_value=suppressed_value or None,
        )
    else:
        # the population's cells go through the same missing-value policy as the sample's
        pop = build_table({**opts, "input": population_table, "hierarchy": None})
        report = risk_of_frame(
            table.frame,
            table.qi,
            suppressed_value=suppressed_value or None,
            population=pop.frame,
            population_size=population,
            sampling_fraction=sampling_fraction,
            threshold=threshold,
        )
    if json_out:
        print_json(report.to_dict())
        return
    grid = Table(title=f"{input}: re-identification risk", show_header=False)
    for key, value in report.to_dict().items():
        if isinstance(value, dict):
            continue
        grid.add_row(key, f"{value:.6g}" if isinstance(value, float) else str(value))
    out_console.print(grid)


from privlab.cli.hierarchy import hierarchy as _hierarchy_command  # noqa: E402

app.command("hierarchy")(_hierarchy_command)

from privlab.cli.table_permute import permute as _permute_command  # noqa: E402
from privlab.cli.table_permute import query as _query_command  # noqa: E402

app.command("permute")(_permute_command)
app.command("query")(_query_command)

__all__ = ["app", "err_console"]
