"""``privlab table ...``: anonymize, check and risk for microdata tables.

Options may also come from a TOML job file (``--job``); paths in it are relative to the job
file.  Options given on the command line win over the job file.  ``anonymize --save-job``
writes the effective job (every option, automatic hierarchies spelled out) that ``--job``
reads back to the same release.
"""

from __future__ import annotations

import json
import os
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from privlab.cli.common import (
    Quiet,
    comma_list,
    command_group,
    err_console,
    exits_on_bad_input,
    files_of_pairs,
    guard_outputs,
    note,
    out_console,
    print_json,
    progress_bar,
    spinner,
    summary_console,
)
from privlab.cli.risk_view import risk_table
from privlab.cli.specs import (
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
from privlab.cli.table_input import (
    COLUMNS_OPT,
    SHEET_OPT,
    TABLE_FILES,
    column_names,
    first_data_line,
)
from privlab.errors import ConfigError, InputError
from privlab.io.atomic import atomic_paths, write_text_atomic
from privlab.io.delimited import read_table, write_table
from privlab.io.outputs import Output, is_stdout
from privlab.table.anonymize import ALGORITHMS, anonymize_table
from privlab.table.assess import assess
from privlab.table.data import MicroTable, Purpose
from privlab.table.hierarchy import Hierarchy
from privlab.table.hierarchy_builders import HIERARCHY_KINDS
from privlab.table.models import KAnonymity, PrivacyModel
from privlab.table.suppression import SUPPRESSED_VALUE

app = command_group("Anonymize microdata tables and measure their risk.")



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
_BOOL = ("true or false", lambda v: isinstance(v, bool))
#: ``columns``: a list of names, or one string "a,b,c" split as --columns splits it
_NAMES = ('a list of column names or a string "a,b,c"', _TEXTS[1])

#: The keys of a job file: what each takes (as the option of the same name) and its check,
#: in the order ``--save-job`` writes them.
JOB_VALUES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "input": _TEXT, "output": _TEXT,
    **dict.fromkeys(("qi", "sensitive", "identifying", "insensitive"), _TEXTS),
    "keep_other_columns": _BOOL,
    "k": ("a whole number", lambda v: _is_number(v) and isinstance(v, int)),
    **dict.fromkeys(("l_diversity", "t_closeness", "delta_disclosure", "ke"), _TEXTS),
    "suppression": ('a fraction or a percentage, e.g. 0.02 or "2%"',
                    lambda v: _is_number(v) or _is_text(v)),
    "metric": _TEXT, "gs": ("a number", _is_number), "aggregation": _TEXT, "algorithm": _TEXT,
    "numeric": _TEXTS, "relaxed": _BOOL, "delimiter": _TEXT, "missing": _TEXT, "na": _TEXTS,
    "columns": _NAMES, "sheet": _TEXT,
    **dict.fromkeys(("hierarchy", "sensitive_hierarchy"), _FILES),
    "suppressed_value": _TEXT,
}  # fmt: skip
JOB_KEYS = tuple(JOB_VALUES)


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
    unknown = sorted(set(job) - set(JOB_KEYS))
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


def _given(value: Any) -> bool:
    """Whether an option was given (False, None and empty lists are not; 0 is)."""
    return not (value is None or value is False or (isinstance(value, list | tuple) and not value))


#: Column-list options that take ``a,b,c`` on the command line (a job file gives lists).
COLUMN_LISTS = ("qi", "sensitive", "identifying", "insensitive", "numeric")


def split_column_lists(opts: dict[str, Any]) -> dict[str, Any]:
    """``--qi a,b --qi c`` → ``qi = [a, b, c]`` for every option of :data:`COLUMN_LISTS`
    given on the command line."""
    return {k: comma_list(v) if k in COLUMN_LISTS and v else v for k, v in opts.items()}


def _merge(cli: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    merged = dict(job)
    for key, value in cli.items():
        if _given(value):
            merged[key] = value
    return merged


def dump_job(job: Mapping[str, Any]) -> str:
    """A job as TOML text (values: text, numbers, booleans, lists of text, tables of text).

    Tables (``hierarchy``) come last, as TOML requires; the text is checked by reading it.
    """

    def text(value: Any) -> str:
        if isinstance(value, (bool, int, float)):
            return json.dumps(value)
        if isinstance(value, Sequence) and not isinstance(value, str):
            return "[" + ", ".join(text(v) for v in value) + "]"
        # JSON string escapes are TOML's; DEL is the one control character JSON leaves raw
        return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")

    lines = [f"{k} = {text(v)}" for k, v in job.items() if not isinstance(v, Mapping)]
    for key, table in job.items():
        if isinstance(table, Mapping):
            lines += ["", f"[{key}]", *(f"{text(c)} = {text(v)}" for c, v in table.items())]
    out = "\n".join(lines) + "\n"
    tomllib.loads(out)  # the job must stay valid TOML
    return out


def effective_job(opts: Mapping[str, Any], table: MicroTable, path: Path) -> dict[str, Any]:
    """Every option given (CLI and job) as a job file at ``path`` reads it back: paths
    relative to its folder, automatic hierarchies spelled out as specs."""
    base = path.resolve().parent

    def rel(p: Any) -> str:
        try:
            return os.path.relpath(Path(p).resolve(), base)
        except ValueError:  # another drive (Windows): keep the absolute path
            return str(Path(p).resolve())

    job: dict[str, Any] = {}
    for key in JOB_KEYS:
        value = opts.get(key)
        if not _given(value):
            continue
        if key in ("input", "output"):
            value = rel(value)
        elif key in ("hierarchy", "sensitive_hierarchy"):
            pairs = parse_pairs("--" + key.replace("_", "-"), value)
            value = {c: rel(v) if Path(v).is_file() else v for c, v in pairs.items()}
        elif key == "insensitive":
            value = comma_list(value)
        elif isinstance(value, tuple):
            value = list(value)
        job[key] = value
    if table.automatic_hierarchies:
        job["hierarchy"] = {**job.get("hierarchy", {}), **table.automatic_hierarchies}
    return job


def build_table(
    opts: dict[str, Any], *, purpose: Purpose = Purpose.RELEASE, name_lines: bool = True
) -> MicroTable:
    """The encoded table described by CLI/job options, for ``purpose`` (a private release
    takes hierarchies from files only, see :func:`~privlab.cli.specs.build_hierarchies`;
    ``name_lines=False``: error messages name no line, as a DP release requires)."""
    if not opts.get("input"):
        raise ConfigError("no input file; give INPUT or 'input' in the job file")
    if not opts.get("qi"):
        raise ConfigError("no quasi-identifiers; name them with --qi a,b,c")
    path = Path(opts["input"])
    with spinner(f"reading {path.name} …"):
        return _encoded_table(opts, path, purpose, name_lines)


def _encoded_table(
    opts: dict[str, Any], path: Path, purpose: Purpose, name_lines: bool
) -> MicroTable:
    insensitive = comma_list(opts.get("insensitive"))
    expected = [*(opts.get("qi") or []), *(opts.get("sensitive") or []),
                *(opts.get("identifying") or []), *insensitive]  # fmt: skip
    names = column_names(opts.get("columns"))
    frame = read_table(
        path,
        delimiter=opts.get("delimiter"),
        expected_columns=expected,
        columns=names,
        sheet=opts.get("sheet"),
    )
    hier = build_hierarchies(
        "--hierarchy",
        opts.get("hierarchy") or [],
        frame,
        source=str(path),
        missing=opts.get("missing"),
        na_values=opts.get("na") or ("",),
        files_only=purpose is Purpose.PRIVATE_RELEASE,
        first_line=first_data_line(names),
    )
    return MicroTable.from_data(
        frame,
        quasi_identifiers=opts["qi"],
        hierarchies=hier,
        sensitive=opts.get("sensitive") or [],
        identifying=opts.get("identifying") or [],
        insensitive=insensitive,
        keep_other_columns=bool(opts.get("keep_other_columns")),
        missing=opts.get("missing") or "error",
        na_values=opts.get("na") or ("",),
        source=str(path),
        purpose=purpose,
        numeric=opts.get("numeric") or (),
        first_line=first_data_line(names) if name_lines else None,
    )


def print_notes(warnings: Sequence[str], automatic: Mapping[str, str] | None = None) -> None:
    """Role warnings and automatic hierarchy choices, on stderr."""
    for text in warnings:
        note(text, "warning")
    for col, spec in (automatic or {}).items():
        note(
            f"{col}: no hierarchy given; using {spec} (pass --hierarchy {col}=... to choose "
            "another; --save-job FILE records this one)"
        )


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


QI_OPT = typer.Option(None, "--qi", help="Quasi-identifying columns: a,b,c or repeat the option.")
HIER_OPT = typer.Option(
    None,
    "--hierarchy",
    help="COLUMN=FILE (ARX hierarchy CSV) or COLUMN=SPEC built from the data (repeatable); "
    "SPEC is interval:width=W[,...], order[:...], masking[:...], date[:...] or flat, with "
    "the parameters of docs/hierarchies.md. Default: an interval hierarchy for a numeric QI "
    "(announced and recorded); a text QI needs one.",
)
SENS_OPT = typer.Option(None, "--sensitive", help="Sensitive columns: a,b or repeat the option.")
IDENT_OPT = typer.Option(
    None,
    "--identifying",
    help="Identifying columns, removed from the output: a,b or repeat the option.",
)
INSENS_OPT = typer.Option(
    None,
    "--insensitive",
    help="Columns released unchanged, by choice: a,b or repeat the option. Every column "
    "needs a role: --qi, --sensitive, --identifying or --insensitive.",
)
KEEP_OPT = typer.Option(
    None,
    "--keep-other-columns",
    help="Release every column without a role unchanged (default: refuse them).",
)
DELIM_OPT = typer.Option(None, "--delimiter", help="Field delimiter (default: sniffed).")
MISSING_OPT = typer.Option(
    None, "--missing", help="Missing values: 'error' (default) or 'category'."
)
NA_OPT = typer.Option(
    None, "--na", help="Text that marks a missing cell (repeatable; default: empty)."
)
JSON_OPT = typer.Option(
    False, "--json", help="Print a machine-readable JSON summary (nothing else on stdout)."
)
SUPPRESSED_OPT = typer.Option(
    "*",
    "--suppressed-value",
    help="Records whose quasi-identifiers all hold this value are suppressed: excluded "
    "from the classes and counted apart ('' to treat none as suppressed).",
)


@app.command()
@exits_on_bad_input
def anonymize(
    input: Path | None = typer.Argument(None, help=f"Table file to anonymize: {TABLE_FILES}."),
    qi: list[str] | None = QI_OPT,
    hierarchy: list[str] | None = HIER_OPT,
    k: int | None = typer.Option(None, "-k", help="k-anonymity: smallest class size."),
    l_diversity: list[str] | None = typer.Option(
        None,
        "--l-diversity",
        help="ℓ-diversity of a sensitive column: SA:distinct:L | SA:entropy:L | "
        "SA:recursive:C:L (repeatable).",
    ),
    t_closeness: list[str] | None = typer.Option(
        None,
        "--t-closeness",
        help="t-closeness: SA:equal:T | SA:ordered:T | SA:hierarchical:T (repeatable).",
    ),
    delta_disclosure: list[str] | None = typer.Option(
        None, "--delta-disclosure", help="δ-disclosure privacy: SA:DELTA (repeatable)."
    ),
    ke: list[str] | None = typer.Option(None, "--ke", help="(k,e)-anonymity: SA:K:E (repeatable)."),
    sensitive: list[str] | None = SENS_OPT,
    sensitive_hierarchy: list[str] | None = typer.Option(
        None, "--sensitive-hierarchy", help="SA=FILE hierarchy for hierarchical t-closeness."
    ),
    identifying: list[str] | None = IDENT_OPT,
    insensitive: list[str] | None = INSENS_OPT,
    keep_other_columns: bool | None = KEEP_OPT,
    suppression: str | None = typer.Option(
        None,
        "--suppression",
        help="Record suppression limit: a fraction or percent (0.02, 2%); default 0 (none).",
    ),
    suppressed_value: str | None = typer.Option(
        None,
        "--suppressed-value",
        help="Written into every quasi-identifier cell of a suppressed record (default: *).",
    ),
    metric: str | None = typer.Option(
        None,
        "--metric",
        help="Utility metric: loss, dm, dm-star, aecs, entropy, precision, kl, height "
        "(default: loss, ARX's Loss).",
    ),
    gs: float | None = typer.Option(
        None,
        "--gs",
        help="gs in [0, 1]: weight of generalization against suppression (loss, aecs, "
        "entropy, precision; default 0.5).",
    ),
    aggregation: str | None = typer.Option(
        None,
        "--aggregation",
        help="geometric | arithmetic | sum | max (default: the metric's own, geometric for "
        "loss; see docs/metrics.md).",
    ),
    algorithm: str | None = typer.Option(
        None, "--algorithm", help="optimal | datafly | mondrian (default: optimal)."
    ),
    numeric: list[str] | None = typer.Option(
        None,
        "--numeric",
        help="Mondrian: QIs split on numeric values, a,b or repeat the option (default: "
        "none; each QI is split along its hierarchy).",
    ),
    relaxed: bool = typer.Option(
        False, "--relaxed", help="Mondrian: relaxed partitioning (the median's class may split)."
    ),
    output: Path | None = typer.Option(
        None,
        "-o",
        "--output",
        help="Where to write the release (.csv or .parquet; - for stdout). Without it only "
        "the summary is printed.",
    ),
    job: Path | None = typer.Option(
        None, "--job", help="TOML job file with these options (the command line wins)."
    ),
    save_job: Path | None = typer.Option(
        None,
        "--save-job",
        help="Write the effective job (all options, automatic hierarchies spelled out) to "
        "this TOML file; --job FILE repeats the run.",
    ),
    delimiter: str | None = DELIM_OPT,
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    missing: str | None = MISSING_OPT,
    na: list[str] | None = NA_OPT,
    json_out: bool = JSON_OPT,
    quiet: Quiet = False,
) -> None:
    """Anonymize a table: generalize quasi-identifiers, suppress outliers, write the release.

    Every column needs a role: quasi-identifier (--qi), sensitive
    (--sensitive), identifying (--identifying, removed) or insensitive
    (--insensitive, released unchanged); a column without one is refused.
    """
    t0 = time.perf_counter()
    cli = dict(locals())
    for key in ("cli", "t0", "job", "json_out", "save_job", "quiet"):
        cli.pop(key, None)
    opts = _merge(split_column_lists(cli), load_job(job) if job else {})
    _declare_sensitive(opts)
    algo = opts.get("algorithm") or "optimal"
    if algo not in (*ALGORITHMS, "mondrian"):
        raise ConfigError(f"--algorithm {algo!r}: use optimal, datafly or mondrian")
    _check_algorithm_options(algo, opts)
    _guard_release(opts, job, save_job, json_out)
    limit = parse_fraction("--suppression", opts.get("suppression") or 0)
    metric_obj = parse_metric(opts.get("metric") or "loss", opts.get("gs"), opts.get("aggregation"))
    table = build_table(opts)
    models = _build_models(opts, required=True)
    print_notes(table.warnings, table.automatic_hierarchies)
    if algo == "mondrian":
        summary, frame = _run_mondrian(table, models, opts)
        summary.update(table.notes())
    else:
        with progress_bar(f"{algo} search of the lattice", unit="nodes") as progress:
            release = anonymize_table(
                table,
                models,
                suppression_limit=limit,
                suppressed_value=_suppressed_value(opts),
                metric=metric_obj,
                algorithm=algo,
                progress=progress,
            )
        frame, summary = release.data, release.to_dict()
    job_text = dump_job(effective_job(opts, table, save_job)) if save_job else None
    _write_release(frame, opts, save_job, job_text)
    if opts.get("output"):
        summary["output"] = str(opts["output"])
    if job_text is not None:
        summary["job"] = str(save_job)
    summary["seconds_total"] = time.perf_counter() - t0
    if json_out:
        print_json(summary)
    else:
        _print_summary(summary, summary_console(opts.get("output")))


def _write_release(
    frame: Any, opts: dict[str, Any], save_job: Path | None, job_text: str | None
) -> None:
    """The release and the saved job, committed together (one fails: neither appears)."""
    output, delimiter = opts.get("output"), opts.get("delimiter") or ","
    if output and job_text is not None and not is_stdout(output):
        with atomic_paths([output, save_job]) as (release_path, job_path):
            write_table(frame, release_path, delimiter=delimiter, named=output)
            job_path.write_text(job_text, encoding="utf-8")
        return
    if output:
        write_table(frame, output, delimiter=delimiter)
    if job_text is not None:
        write_text_atomic(save_job, job_text)


def _guard_release(
    opts: dict[str, Any], job: Path | None, save_job: Path | None, json_out: bool
) -> None:
    """The release and the saved job may be neither an input (data, hierarchy, job) nor a
    folder, nor the same file."""
    output = opts.get("output")
    guard_outputs(
        [Output(Path(output) if output else None, "-o", stdout_ok=True),
         Output(save_job, "--save-job")],
        [opts.get("input"), job, *files_of_pairs(opts.get("hierarchy")),
         *files_of_pairs(opts.get("sensitive_hierarchy"))],
        json_out=json_out,
    )  # fmt: skip


#: Options that only one kind of algorithm understands.
LATTICE_ONLY = {"suppression": "--suppression", "metric": "--metric", "gs": "--gs",
                "aggregation": "--aggregation",
                "suppressed_value": "--suppressed-value"}  # fmt: skip
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


def _suppressed_value(opts: dict[str, Any]) -> str:
    value = opts.get("suppressed_value")
    return SUPPRESSED_VALUE if value is None else str(value)


def _verb(options: list[str]) -> str:
    return "applies" if len(options) == 1 else "apply"


def _run_mondrian(table: MicroTable, models: list[PrivacyModel], opts: dict[str, Any]):
    from privlab.table.mondrian import mondrian

    with progress_bar("Mondrian partitioning", unit="records") as progress:
        result = mondrian(
            table,
            models,
            numeric=opts.get("numeric") or [],
            strict=not opts.get("relaxed"),
            progress=progress,
        )
    return result.to_dict(), result.release


def _print_summary(summary: dict[str, Any], console: Console) -> None:
    grid = Table(title="privlab table anonymize", show_header=False)
    for key, value in summary.items():
        if key == "warnings" or value in ({}, []):  # warnings went to stderr
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{c}={v}" for c, v in value.items())
        elif isinstance(value, float):
            value = f"{value:.10g}"
        grid.add_row(key, str(value))
    console.print(grid)


@app.command()
@exits_on_bad_input
def check(
    input: Path = typer.Argument(..., help=f"Table file to check: {TABLE_FILES}."),
    qi: list[str] | None = QI_OPT,
    sensitive: list[str] | None = SENS_OPT,
    k: int | None = typer.Option(None, "-k", help="Also test k-anonymity with this k."),
    l_diversity: list[str] | None = typer.Option(
        None, "--l-diversity", help="Also test this ℓ-diversity: SA:distinct:L, ... (repeatable)."
    ),
    t_closeness: list[str] | None = typer.Option(
        None, "--t-closeness", help="Also test this t-closeness: SA:equal:T, ... (repeatable)."
    ),
    suppressed_value: str = SUPPRESSED_OPT,
    delimiter: str | None = DELIM_OPT,
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    missing: str | None = MISSING_OPT,
    na: list[str] | None = NA_OPT,
    json_out: bool = JSON_OPT,
    quiet: Quiet = False,
) -> None:
    """Which models the table already satisfies, and with which parameters."""
    opts = split_column_lists(dict(locals()))
    opts.pop("json_out")
    opts.pop("quiet")
    _declare_sensitive(opts)
    table = build_table(opts, purpose=Purpose.ASSESS)
    report = assess(
        table, _build_models(opts, required=False), suppressed_value=suppressed_value or None
    )
    if json_out:
        print_json(report.to_dict())
        return
    grid = Table(
        title=f"{input}: {report.records} records, {report.suppressed} suppressed, "
        f"{report.classes} classes"
    )
    grid.add_column("model")
    grid.add_column("strongest parameter that holds")
    if report.k is None:
        grid.add_row("every model", "— (no class: every record is suppressed)")
    else:
        grid.add_row("k-anonymity", f"k = {report.k}")
    for s in report.sensitive if report.k is not None else ():
        grid.add_row(f"distinct ℓ-diversity ({s.attribute})", f"ℓ = {s.distinct_l}")
        grid.add_row(f"entropy ℓ-diversity ({s.attribute})", f"ℓ = {s.entropy_l:.4g}")
        guess = f"min-entropy ℓ, best guess 1/ℓ ({s.attribute})"
        grid.add_row(guess, f"ℓ = {s.min_entropy_l:.4g}")
        c = "—" if s.recursive_c_for_l2 is None else f"c > {s.recursive_c_for_l2:.4g}"
        grid.add_row(f"recursive (c,2)-diversity ({s.attribute})", c)
        grid.add_row(f"t-closeness, equal ({s.attribute})", f"t = {s.t_equal:.4g}")
        grid.add_row(f"t-closeness, ordered ({s.attribute})", f"t = {s.t_ordered:.4g}")
        grid.add_row(f"δ-disclosure ({s.attribute})", f"δ > {s.delta:.4g}")
        if s.ke is not None:
            grid.add_row(f"(k,e)-anonymity ({s.attribute})", f"k = {s.ke[0]}, e = {s.ke[1]:g}")
    for name, ok in report.models.items():
        verdict = Text("satisfied", style="green") if ok else Text("violated", style="red")
        grid.add_row(name, verdict)
    out_console.print(grid)


@app.command()
@exits_on_bad_input
def risk(
    input: Path = typer.Argument(..., help=f"Table file to analyse: {TABLE_FILES}."),
    qi: list[str] | None = QI_OPT,
    population: int | None = typer.Option(
        None,
        "--population",
        help="Population size (default: none; it or --sampling-fraction enables the "
        "population-based estimates).",
    ),
    population_table: Path | None = typer.Option(
        None,
        "--population-table",
        help="CSV/Parquet of the population with the same quasi-identifier columns, coded "
        "like INPUT: each class's size in it is the journalist's F_j.",
    ),
    sampling_fraction: float | None = typer.Option(
        None,
        "--sampling-fraction",
        help="Sample size / population size (default: none; or give --population).",
    ),
    threshold: float = typer.Option(
        0.2, "--threshold", help="Risk threshold for 'records at risk'."
    ),
    suppressed_value: str = SUPPRESSED_OPT,
    delimiter: str | None = DELIM_OPT,
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    missing: str | None = MISSING_OPT,
    na: list[str] | None = NA_OPT,
    json_out: bool = JSON_OPT,
    quiet: Quiet = False,
) -> None:
    """Re-identification risk of a table: prosecutor, journalist, marketer, uniqueness."""
    opts = split_column_lists(dict(locals()))
    table = build_table(opts, purpose=Purpose.ASSESS)
    with spinner("estimating the re-identification risk …"):
        report = _risk(table, opts)
    if json_out:
        print_json(report.to_dict())
        return
    data = report.to_dict()
    title = f"{input}: re-identification risk (threshold {data['threshold']:g})"
    out_console.print(risk_table(title, {"": data}))


def _risk(table: MicroTable, opts: dict[str, Any]):
    """The risk report of ``table`` (against ``--population-table`` when given)."""
    from privlab.table.risk import risk_of_frame, risk_report

    population_table = opts.get("population_table")
    common = {
        "suppressed_value": opts.get("suppressed_value") or None,
        "population_size": opts.get("population"),
        "sampling_fraction": opts.get("sampling_fraction"),
        "threshold": opts["threshold"],
    }
    if population_table is None:
        return risk_report(table, **common)
    # the population's cells go through the same missing-value policy as the sample's
    pop = build_table(
        {**opts, "input": population_table, "hierarchy": None}, purpose=Purpose.ASSESS
    )
    return risk_of_frame(table.frame, table.qi, population=pop.frame, **common)


from privlab.cli.hierarchy import hierarchy as _hierarchy_command  # noqa: E402

app.command("hierarchy")(_hierarchy_command)

from privlab.cli.table_permute import permute as _permute_command  # noqa: E402
from privlab.cli.table_permute import query as _query_command  # noqa: E402

app.command("permute")(_permute_command)
app.command("query")(_query_command)

__all__ = ["app", "err_console"]
