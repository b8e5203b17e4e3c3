"""``privlab table permute`` and ``privlab table query``: permutation releases (seed 001).

``permute`` publishes a table as a QI table plus per-group sensitive values — a (k, e)-
anonymous permutation of a numeric sensitive attribute or an ℓ-diverse Anatomy of a
categorical one — into a release directory.  ``query`` answers ``SELECT AGG(S) FROM t WHERE
C(QI)`` on a release with deterministic bounds, next to the bounds the generalized table of
the same partition would give (:mod:`privlab.table.query`).  Bad input exits with code 2 and
writes nothing.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import typer
from rich.table import Table

from privlab.cli.common import (
    Quiet,
    comma_list,
    exits_on_bad_input,
    guard_outputs,
    out_console,
    print_json,
    spinner,
)
from privlab.cli.table_input import (
    COLUMNS_OPT,
    SHEET_OPT,
    TABLE_FILES,
    column_names,
    first_data_line,
)
from privlab.errors import ConfigError, InputError
from privlab.io.delimited import numeric_column, read_table
from privlab.io.outputs import Output
from privlab.table.roles import assign_roles


def _null_na(series: pl.Series, na: set[str]) -> pl.Series:
    """A text column with the cells in ``na`` set to null.  O(n)."""
    return (
        series.to_frame()
        .select(
            pl.when(pl.col(series.name).is_in(sorted(na)))
            .then(None)
            .otherwise(pl.col(series.name))
            .alias(series.name)
        )
        .to_series()
    )


def _typed(series: pl.Series, na: set[str]) -> pl.Series:
    """A CSV text column as Int64 / Float64 when every present cell is a number, else text.

    Cells in ``na`` become null.  O(n).
    """
    if series.dtype != pl.String:
        return series
    s = _null_na(series, na)
    present = s.drop_nulls().str.strip_chars()
    if present.len() == 0:
        return s
    if present.str.contains(r"^[+-]?[0-9]+$").all():
        as_int = s.str.strip_chars().cast(pl.Int64, strict=False)
        if as_int.null_count() == s.null_count():
            return as_int
    as_float = s.str.strip_chars().cast(pl.Float64, strict=False)
    if as_float.null_count() == s.null_count() and as_float.is_finite().fill_null(True).all():
        return as_float
    return s


def _load_input(
    path: Path,
    qi: list[str],
    sensitive: str,
    *,
    delimiter: str | None,
    na: list[str] | None,
    numeric_sa: bool,
    columns: str | None = None,
    sheet: str | None = None,
) -> pl.DataFrame:
    """Every column of the file, the QIs typed and the SA parsed (the roles are checked by
    the library, which refuses columns without one)."""
    names = column_names(columns)
    frame = read_table(
        path, delimiter=delimiter, expected_columns=[*qi, sensitive], columns=names, sheet=sheet
    )
    missing = [c for c in [*qi, sensitive] if c not in frame.columns]
    if missing:
        raise InputError(f"{path}: column(s) {missing} not found; the file has {frame.columns}")
    na_set = set(na or ("",))
    cols = [_typed(frame[c], na_set) for c in qi]
    if numeric_sa:
        sa = frame[sensitive]
        if sa.dtype == pl.String:
            sa = _null_na(sa, na_set)
        values = numeric_column(sa, str(path), first_data_line(names), allow_missing=False)
        cols.append(pl.Series(sensitive, values))
    return frame.with_columns(cols)


@exits_on_bad_input
def permute(
    input: Path = typer.Argument(..., help=f"Table file to publish: {TABLE_FILES}."),
    qi: list[str] | None = typer.Option(
        None, "--qi", help="Quasi-identifiers: a,b,c (or repeat the option)."
    ),
    sensitive: str | None = typer.Option(
        None, "--sensitive", help="The sensitive column (one; required)."
    ),
    identifying: list[str] | None = typer.Option(
        None, "--identifying", help="Column left out of the release: a,b (or repeat)."
    ),
    insensitive: list[str] | None = typer.Option(
        None, "--insensitive", help="Column published unchanged in the QI table: a,b (or repeat)."
    ),
    keep_other_columns: bool = typer.Option(
        False, "--keep-other-columns", help="Publish every column without a role unchanged."
    ),
    anatomy: bool = typer.Option(
        False, "--anatomy", help="Anatomy: categorical SA, ℓ-diverse groups (needs --l)."
    ),
    l_div: int | None = typer.Option(
        None, "--l", help="Anatomy: ℓ, distinct values per group (required with --anatomy)."
    ),
    k: int | None = typer.Option(None, "--k", "-k", help="(k,e): distinct values per group."),
    e: float | None = typer.Option(None, "--e", "-e", help="(k,e): least value range per group."),
    partition: str | None = typer.Option(
        None,
        "--partition",
        help="(k,e): how to form the groups, min-sum | min-max | max-group | random | swap "
        "| exact-min-max (overlapping groups allowed; small tables only) (default: min-sum).",
    ),
    target: Path | None = typer.Option(
        None,
        "--target",
        help="Target distribution: CSV value,probability; each group's values are "
        "generalized to look drawn from it.",
    ),
    target_mode: str = typer.Option(
        "sa-only",
        "--target-mode",
        help="--target: sa-only, or qi-sa (each group first split into subgroups of "
        "identical quasi-identifiers).",
    ),
    groups: str | None = typer.Option(
        None,
        "--groups",
        help="--target: a column holding the owner's group of each row (default: one group).",
    ),
    fakes: float = typer.Option(
        0, "--fakes", min=0, help="--target: at most N fake values per group (or a fraction <1)."
    ),
    shift: float | None = typer.Option(
        None,
        "--shift",
        min=0,
        max=1,
        help="--target: shift factor x of an approximate target (default: the exact target).",
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Seed for random choices (default: fresh randomness)."
    ),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="Release directory (required)."
    ),
    overwrite: bool = typer.Option(
        False, "--overwrite", help="Replace an earlier release written by permute in -o DIR."
    ),
    delimiter: str | None = typer.Option(
        None, "--delimiter", help="Field delimiter (default: sniffed)."
    ),
    na: list[str] | None = typer.Option(
        None, "--na", help="Text that marks a missing cell (repeatable; default: empty)."
    ),
    columns: str | None = COLUMNS_OPT,
    sheet: str | None = SHEET_OPT,
    json_out: bool = typer.Option(False, "--json", help="Print a machine-readable summary."),
    quiet: Quiet = False,
) -> None:
    """Publish a table by permutation: (k,e)-anonymous groups, Anatomy or a target distribution.

    The quasi-identifiers are published exactly; the sensitive values are permuted within
    groups: (k,e)-anonymous groups of a numeric attribute, ℓ-diverse groups of a
    categorical one (--anatomy), or groups whose values are generalized to look drawn from
    a target distribution (--target).

    Every column needs a role: --qi, --sensitive, --identifying (left out)
    or --insensitive (published unchanged).
    """
    from privlab.cli.table import print_notes
    from privlab.table.permutation import METHODS
    from privlab.table.permutation import anatomy as run_anatomy
    from privlab.table.permutation import permute as run_permute
    from privlab.table.permutation.release import MANIFEST

    t0 = time.perf_counter()
    qis = comma_list(qi)
    if not qis:
        raise ConfigError("no quasi-identifiers; name them with --qi a,b,c")
    if not sensitive:
        raise ConfigError("no sensitive attribute; name it with --sensitive COLUMN")
    if output is None:
        raise ConfigError("no release directory; give -o DIR")
    if target is not None:
        for flag, value in (("--k", k), ("--e", e), ("--partition", partition),
                            ("--anatomy", anatomy or None), ("--l", l_div)):  # fmt: skip
            if value is not None:
                raise ConfigError(f"{flag} cannot be combined with --target; drop one of them")
        if target_mode not in ("sa-only", "qi-sa"):
            raise ConfigError(f"--target-mode {target_mode!r}: use sa-only or qi-sa")
    elif groups is not None or fakes or shift is not None:
        raise ConfigError("--groups, --fakes and --shift go with --target FILE")
    elif anatomy:
        for flag, value in (("--k", k), ("--e", e), ("--partition", partition)):
            if value is not None:
                raise ConfigError(
                    f"{flag} is for (k,e)-anonymous permutation, not --anatomy; "
                    "drop it or drop --anatomy"
                )
        if l_div is None:
            raise ConfigError("--anatomy needs --l (distinct sensitive values per group), e.g. 3")
    else:
        if l_div is not None:
            raise ConfigError("--l is for --anatomy; for a numeric attribute give --k and --e")
        if k is None or e is None:
            raise ConfigError(
                "give --k and --e for a (k,e)-anonymous permutation "
                "(or --anatomy --l L for a categorical attribute)"
            )
        method = partition or "min-sum"
        if method not in METHODS:
            raise ConfigError(f"--partition {method!r}: use one of {', '.join(METHODS)}")
    guard_outputs(
        [Output(output, "-o", folder=True, manifest=MANIFEST, replace=overwrite)],
        [input, target],
    )
    hierarchy = _read_target(target) if target is not None else None
    extra = [groups] if groups is not None and groups not in qis else []
    frame = _load_input(input, qis + extra, sensitive, delimiter=delimiter, na=na,
                        numeric_sa=not anatomy, columns=columns, sheet=sheet)  # fmt: skip
    roles = {
        "identifying": comma_list(identifying),
        "insensitive": comma_list(insensitive),
        "keep_other_columns": keep_other_columns,
    }
    # the roles are checked here first so that an error names the file, not the frame (the
    # library checks them again, with the same function)
    assign_roles(
        frame, quasi_identifiers=qis, sensitive=[sensitive], used=extra, source=str(input),
        **roles,
    )  # fmt: skip
    with spinner("forming the groups …"):
        if hierarchy is not None:
            from privlab.table.permutation import target_release

            release = target_release(
                frame, qi=qis, sensitive=sensitive, hierarchy=hierarchy, groups=groups,
                mode=target_mode, max_fakes=fakes if 0 < fakes < 1 else int(fakes),
                shift=shift, seed=seed, **roles,
            )  # fmt: skip
        elif anatomy:
            release = run_anatomy(frame, qi=qis, sensitive=sensitive, l=l_div, seed=seed, **roles)
        else:
            release = run_permute(
                frame, qi=qis, sensitive=sensitive, k=k, e=e, method=method, seed=seed, **roles
            )
    print_notes(release.warnings)
    release.write(output, overwrite=overwrite)
    summary = {
        **release.to_dict(),
        "warnings": list(release.warnings),
        "input": str(input),
        "output": str(output),
        "seconds_total": time.perf_counter() - t0,
    }
    if json_out:
        print_json(summary)
        return
    grid = Table(title="privlab table permute", show_header=False)
    for key, value in summary.items():
        if key == "warnings":  # already on stderr
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{a}={b}" for a, b in value.items() if not isinstance(b, list))
        grid.add_row(key, f"{value:.6g}" if isinstance(value, float) else str(value))
    out_console.print(grid)


def _read_target(path: Path):
    """The target distribution file: CSV with columns value, probability (one row per value)."""
    from privlab.table.permutation import SAHierarchy

    if not path.is_file():
        raise InputError(
            f"--target {path}: no such file; give a CSV with columns value,probability"
        )
    try:
        df = pl.read_csv(path, infer_schema_length=0)
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"--target {path}: cannot read it as CSV ({exc})") from None
    missing = [c for c in ("value", "probability") if c not in df.columns]
    if missing:
        raise InputError(
            f"--target {path}: missing column(s) {', '.join(missing)}; the header must be "
            "value,probability (one row per sensitive value, probabilities or weights)"
        )
    values, probs = [], []
    for line, (v, w) in enumerate(zip(df["value"], df["probability"], strict=True), start=2):
        try:
            values.append(float(v))
            probs.append(float(w))
        except (TypeError, ValueError):
            raise InputError(
                f"{path}, line {line}: value {v!r} / probability {w!r} must both be numbers"
            ) from None
    if len(set(values)) != len(values):
        raise InputError(f"--target {path}: a value is listed twice; list each value once")
    order = np.argsort(values)
    return SAHierarchy.balanced(np.asarray(values)[order], np.asarray(probs)[order].tolist())


@exits_on_bad_input
def query(
    release_dir: Path = typer.Argument(..., help="Release directory written by permute."),
    sql: str = typer.Argument(..., help="SELECT AGG(S) FROM t [WHERE condition on QIs]"),
    dsn: str | None = typer.Option(
        None,
        "--dsn",
        help="Run on PostgreSQL: postgresql://user@host/db (password: PGPASSWORD or .pgpass).",
    ),
    backend: str | None = typer.Option(
        None, "--backend", help="duckdb (default) | postgres (with --dsn) | python (reference)."
    ),
    generalization: Path | None = typer.Option(
        None,
        "--generalization",
        help="CSV of generalization labels (group_id + QI columns, e.g. [31-40], 271*, *) "
        "to compare with; default: each group's min–max box.",
    ),
    moments: bool = typer.Option(
        False,
        "--moments",
        help="Also give the mean and standard deviation of all the answers the release "
        "allows (every permutation inside each group; SUM, AVG and COUNT).",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print a machine-readable answer."),
    quiet: Quiet = False,
) -> None:
    """Bounds on an aggregate query over a permutation release.

    SUM, AVG, MIN, MAX and COUNT get deterministic lower and upper bounds (the QIs are
    exact, the sensitive values known per group), next to the bounds the generalized
    table of the same groups would give.
    """
    from privlab.table.permutation import PermutationRelease
    from privlab.table.query import (
        Generalization,
        bounded_query,
        parse_aggregate_query,
        query_moments,
    )

    release = PermutationRelease.read(release_dir)
    parse_aggregate_query(sql, release)  # bad SQL fails before any connection
    spread = query_moments(release, sql) if moments else None
    gen = None
    if generalization is not None:
        labels = read_table(generalization, expected_columns=["group_id"])
        if "group_id" not in labels.columns:
            raise InputError(f"{generalization}: needs a 'group_id' column")
        gid = labels["group_id"].cast(pl.Int64, strict=False)
        if gid.null_count():
            raise InputError(f"{generalization}: 'group_id' must hold integers")
        gen = Generalization.from_labels(release, labels.with_columns(gid))
    with spinner("loading the release and answering the query …"):
        answer = bounded_query(release, sql, backend=backend, dsn=dsn, generalization=gen)
    data = answer.to_dict()
    if spread is not None:
        data["possible_answers"] = spread.to_dict()
    if json_out:
        print_json(data)
        return
    grid = Table(title=sql, show_header=True)
    grid.add_column("")
    grid.add_column("lower")
    grid.add_column("upper")
    grid.add_column("exact")

    def fmt(v: Any) -> str:
        return "NULL" if v is None else f"{v:,.6g}"

    grid.add_row("permuted", fmt(answer.lower), fmt(answer.upper), fmt(answer.exact))
    g = answer.generalized
    grid.add_row(f"generalized ({answer.generalization})", fmt(g.lower), fmt(g.upper), fmt(g.exact))
    out_console.print(grid)
    if spread is not None:
        out_console.print(
            f"all possible answers: mean {fmt(spread.mean)}, standard deviation {fmt(spread.std)}",
            highlight=False,
        )
    out_console.print(
        f"{answer.hits} tuples selected in {answer.groups_touched} of {answer.groups} groups; "
        f"generalized table: {answer.generalized_covered} groups covered, "
        f"{answer.generalized_partial} partial; {answer.backend}, "
        f"{answer.seconds * 1000:.1f} ms (+ {answer.load_seconds * 1000:.1f} ms load)",
        highlight=False,
    )


__all__ = ["permute", "query"]
