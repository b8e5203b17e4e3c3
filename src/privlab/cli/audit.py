"""``privlab audit RELEASE --original ORIGINAL -o report.html``: audit a release.

Detects what the release is — a table (CSV / Parquet), a permutation release (a directory
with ``qi.parquet``, ``sa.parquet``, ``release.json``) or a graph (edge list, GraphML, GML) —
runs every attack of :mod:`privlab.audit` that applies, writes the HTML report atomically and
prints a plain-language summary (or ``--json``).  Bad input exits with code 2 and writes
nothing.  See ``docs/audit.md``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import typer

from privlab.cli.common import (
    Quiet,
    comma_list,
    err_console,
    exits_on_bad_input,
    files_of_pairs,
    guard_outputs,
    print_json,
    progress_bar,
    spinner,
    summary_console,
)
from privlab.cli.table_input import COLUMNS_HELP, SHEET_HELP, column_names, first_data_line
from privlab.errors import ConfigError, InputError
from privlab.io.formats import COMPRESSION_SUFFIXES
from privlab.io.outputs import Input, Output, is_stdout

TABLE_SUFFIXES = (".csv", ".tsv", ".parquet", ".pq", ".xlsx", ".xlsm")
GRAPH_SUFFIXES = (".graphml", ".gml", ".txt", ".edges", ".edgelist", ".el", ".snap")


def detect_kind(path: Path) -> str:
    """``"permutation"`` (a release directory), ``"table"`` or ``"graph"`` for a path.

    By suffix (``.csv .tsv .parquet .pq .xlsx .xlsm`` → table; ``.graphml .gml .txt .edges
    .edgelist .el .snap`` → graph; a compressed file by the suffix before ``.gz``/``.zst``);
    otherwise by the first line that is not a ``#`` comment: numbers separated by whitespace
    (an edge list's ids, one for a node without edges, and any weight columns) or two or
    three comma-separated numbers make an edge list, anything else a table header.
    """
    if not path.exists():
        raise InputError(f"{path}: not found")
    if path.is_dir():
        if (path / "release.json").is_file():
            return "permutation"
        raise InputError(
            f"{path}: a directory, but not a permutation release (no release.json); give a "
            "table file, a graph file or a directory written by 'privlab table permute'"
        )
    suffix = path.suffix.lower()
    if suffix in COMPRESSION_SUFFIXES:  # data.csv.gz: the suffix before the compression's
        suffix = Path(path.stem).suffix.lower()
    if suffix in TABLE_SUFFIXES:
        return "table"
    if suffix in GRAPH_SUFFIXES:
        return "graph"
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.strip() and not line.lstrip().startswith(("#", "%")):
                    tokens = re.split(r"[\s,;]+", line.strip())
                    numeric = all(re.fullmatch(r"[-+]?\d+(\.\d*)?", t) for t in tokens)
                    spaced = not re.search(r"[,;]", line)
                    return "graph" if numeric and (spaced or len(tokens) in (2, 3)) else "table"
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc})") from None
    raise InputError(f"{path}: empty file")


def _hierarchy_files(directory: Path, qi: list[str]) -> list[str]:
    """``COLUMN=FILE`` items for the QIs that have a hierarchy in ``directory``.

    A QI's file is ``COLUMN.csv`` or ARX's ``*_hierarchy_COLUMN.csv``.
    """
    if not directory.is_dir():
        raise InputError(f"--hierarchies {directory}: not a directory")
    items = []
    for c in qi:
        hits = [directory / f"{c}.csv", *sorted(directory.glob(f"*_hierarchy_{c}.csv"))]
        found = [h for h in hits if h.is_file()]
        if found:
            items.append(f"{c}={found[0]}")
    return items


def _aligned_release(original: Any, release: Any, mapping: Path | None) -> Any:
    """The release on the original's node indices when its labels name the original's
    nodes one-to-one.

    Labels are compared as text; with ``mapping`` (``release_id,original`` CSV from
    ``privlab graph anonymize --mapping``) release labels are translated first.  Returns
    the release unchanged when the node sets differ (no node is invented: the utility
    metrics stay those of ``privlab graph utility`` on the same files).
    """
    from privlab.graph.core import Graph

    if original.labels is None or release.labels is None:
        return release
    index = {str(lab): i for i, lab in enumerate(original.labels.tolist())}
    rel_labels = [str(x) for x in release.labels.tolist()]
    if mapping is not None:
        from privlab.io.delimited import read_table

        table = read_table(mapping, expected_columns=["release_id", "original"])
        for col in ("release_id", "original"):
            if col not in table.columns:
                raise InputError(f"--mapping {mapping}: column {col!r} missing")
        translate = dict(
            zip(table["release_id"].to_list(), table["original"].to_list(), strict=True)
        )
        missing = [lab for lab in rel_labels if lab not in translate]
        if missing:
            raise InputError(
                f"--mapping {mapping}: release node {missing[0]!r} is not in the mapping; is it "
                "the mapping of this release?"
            )
        rel_labels = [str(translate[lab]) for lab in rel_labels]
    perm = np.array([index.get(lab, -1) for lab in rel_labels], dtype=np.int64)
    if (perm < 0).any() or np.unique(perm).size != perm.size or perm.size != original.n_nodes:
        if mapping is not None:
            raise InputError(
                f"--mapping {mapping}: it does not map the release's nodes one-to-one onto "
                "the original's"
            )
        return release
    edges = perm[release.edges()] if release.n_edges else np.zeros((0, 2), dtype=np.int64)
    return Graph.from_edges(
        original.n_nodes, edges, directed=release.directed, labels=original.labels
    )


@exits_on_bad_input
def audit(
    release: Path = typer.Argument(
        ...,
        help="The release: a CSV/Parquet table, a permutation release directory, or a "
        "graph (edge list, GraphML, GML).",
    ),
    original: Path = typer.Option(
        ..., "--original", help="The original the release was made from (same kind)."
    ),
    output: Path = typer.Option(..., "-o", "--output", help="HTML report to write (- for stdout)."),
    json_out: bool = typer.Option(False, "--json", help="Print the findings as JSON."),
    kind: str | None = typer.Option(
        None,
        "--kind",
        help="table | graph: override the detection (default: detected from the file; a "
        "directory is always a permutation release).",
    ),
    qi: list[str] | None = typer.Option(
        None, "--qi", help="Tables: quasi-identifier column (repeatable or comma-separated)."
    ),
    sensitive: list[str] | None = typer.Option(
        None, "--sensitive", help="Tables: sensitive columns, a,b or repeat the option."
    ),
    hierarchy: list[str] | None = typer.Option(
        None,
        "--hierarchy",
        help="Tables: COLUMN=FILE (ARX hierarchy CSV) or COLUMN=SPEC, the "
        "hierarchy the column was generalized with (repeatable).",
    ),
    hierarchies: Path | None = typer.Option(
        None,
        "--hierarchies",
        help="Tables: folder of hierarchies, COLUMN.csv or *_hierarchy_COLUMN.csv (default: "
        "none; --hierarchy names them one by one).",
    ),
    numeric: list[str] | None = typer.Option(
        None,
        "--numeric",
        help="Tables: QIs released as ranges lo-hi, a,b or repeat (default: detected).",
    ),
    tau: float = typer.Option(
        1.0, "--tau", help="Tables: a sensitive value is disclosed at posterior ≥ tau."
    ),
    rule_out: int = typer.Option(
        1, "--rule-out", help="Tables: background knowledge, values ruled out per person (0: skip)."
    ),
    sampling_fraction: float | None = typer.Option(
        None,
        "--sampling-fraction",
        help="Tables: release size / population size, for journalist and marketer risk "
        "(default: none, those are left out).",
    ),
    suppressed_value: str = typer.Option(
        "*",
        "--suppressed-value",
        help="Tables: released rows whose quasi-identifiers all hold this value are "
        "suppressed records ('' for none).",
    ),
    delimiter: str | None = typer.Option(
        None, "--delimiter", help="Tables: CSV delimiter (default: sniffed)."
    ),
    columns: str | None = typer.Option(
        None, "--columns", help=f"Tables, --original: {COLUMNS_HELP}"
    ),
    sheet: str | None = typer.Option(None, "--sheet", help=f"Tables, --original: {SHEET_HELP}"),
    mapping: Path | None = typer.Option(
        None,
        "--mapping",
        help="Graphs: the release-id → original-id CSV of 'privlab graph "
        "anonymize --mapping', to align the node ids (default: none; ids the release "
        "shares with the original are aligned).",
    ),
    no_aligned: bool = typer.Option(
        False,
        "--no-aligned-ids",
        help="Graphs: never treat release node ids as the original's (skips the "
        "perturbation posterior; propagation then cannot be scored).",
    ),
    perturbations: int | None = typer.Option(
        None,
        "--perturbations",
        help="Graphs: m, edges deleted and added (default: the "
        "original edges missing from the release).",
    ),
    facts: str = typer.Option(
        "1,2,5,10", "--facts", help="Graphs: edge-fact counts for the subgraph attack."
    ),
    sample: int = typer.Option(50, "--sample", help="Graphs: subgraph-attack targets."),
    time_budget: float = typer.Option(
        20.0, "--time-budget", help="Graphs: seconds for the subgraph attack."
    ),
    seed: int = typer.Option(
        0, "--seed", help="Graphs: random seed (target sample, relabelling, training)."
    ),
    seeds: int | None = typer.Option(
        None,
        "--seeds",
        help="Graphs: people the propagation adversary starts from (default: 50, at most a "
        "tenth of the nodes).",
    ),
    seeding: str = typer.Option(
        "top-degree",
        "--seeding",
        help="Graphs: seed assumption — top-degree (the adversary knows who the --seeds "
        "highest-degree people are) or discovered (knows no one, matches top-degree nodes).",
    ),
    learned: bool = typer.Option(
        False,
        "--learned",
        help="Graphs: also run the learned attack (trains a classifier; minutes on a "
        "4,000-node graph).",
    ),
    title: str = typer.Option("Release audit", "--title", help="Report title."),
    quiet: Quiet = False,
) -> None:
    """Run every attack that applies to RELEASE, measure utility against ORIGINAL, write the
    report and print a plain-language summary.  Bad input exits 2 and writes nothing."""

    guard_outputs(
        [Output(output, "-o", stdout_ok=True)],
        [Input(release, unit=release.is_dir()), original, mapping, hierarchies,
         *files_of_pairs(hierarchy)],
        json_out=json_out,
    )  # fmt: skip
    found = detect_kind(release)
    if kind is not None:
        if kind not in ("table", "graph"):
            raise ConfigError(f"--kind {kind!r}: use table or graph")
        if found != "permutation":
            found = kind
    orig_kind = detect_kind(original) if kind is None else kind
    if orig_kind == "permutation":
        raise InputError(f"--original {original}: a release directory; give the original table")
    want = "graph" if found == "graph" else "table"
    if orig_kind != want:
        raise InputError(
            f"kind mismatch: the release {release} is a {found} but --original {original} is "
            f"a {orig_kind}; audit a release against the original it was made from"
        )
    meta = {"release": str(release), "original": str(original)}
    if want == "graph":
        attacks = {"seeds": seeds, "seeding": seeding, "learned": learned}
        with progress_bar("auditing", unit="steps") as progress:
            result = _graph(
                release, original, mapping, no_aligned, perturbations, facts, sample,
                time_budget, seed, title, meta, attacks, progress,
            )  # fmt: skip
    else:
        with spinner("auditing the table release …"):
            result = _table(
                found, release, original, comma_list(qi), comma_list(sensitive), hierarchy or [],
                hierarchies, comma_list(numeric) if numeric else None, tau, rule_out,
                sampling_fraction, delimiter, title, meta, suppressed_value,
                column_names(columns), sheet,
            )  # fmt: skip
    path = result.report.write(output)
    if json_out:
        print_json({"report": str(path), **result.to_dict()})
        return
    summary_console(output).print(result.summary(), soft_wrap=True)
    if not is_stdout(output) and not quiet:
        err_console.print(f"wrote {path}")


def _table(
    found: str,
    release: Path,
    original: Path,
    qi: list[str],
    sensitive: list[str],
    hierarchy: list[str],
    hierarchies: Path | None,
    numeric: list[str] | None,
    tau: float,
    rule_out: int,
    sampling_fraction: float | None,
    delimiter: str | None,
    title: str,
    meta: dict[str, Any],
    suppressed_value: str,
    names: list[str] | None = None,
    sheet: str | None = None,
):
    from privlab.audit import audit_table
    from privlab.cli.specs import build_hierarchies
    from privlab.io.delimited import read_table

    if rule_out < 0:
        raise ConfigError(f"--rule-out {rule_out}: give 0 (skip) or more values")
    if found == "permutation":
        from privlab.table.permutation import PermutationRelease

        rel = PermutationRelease.read(release)
        qi = qi or rel.qi_columns
        orig = read_table(
            original, delimiter=delimiter, expected_columns=[*qi, rel.sensitive], columns=names,
            sheet=sheet,
        )  # fmt: skip
        return audit_table(
            rel, orig, quasi_identifiers=qi, sensitive=sensitive or None, tau=tau,
            rule_out=rule_out, sampling_fraction=sampling_fraction, title=title, meta=meta,
        )  # fmt: skip
    if not qi:
        raise ConfigError(
            "a table audit needs the quasi-identifiers, the columns an adversary may know "
            "(age, ZIP code...): name them with --qi COLUMN"
        )
    rel = read_table(release, delimiter=delimiter, expected_columns=qi)
    orig = read_table(
        original, delimiter=delimiter, expected_columns=qi, columns=names, sheet=sheet
    )
    others = [c for c in rel.columns if c not in qi]
    if not sensitive and others:
        raise ConfigError(
            f"the release has columns {others} besides the quasi-identifiers; name the "
            "sensitive one(s) with --sensitive COLUMN so the audit can measure what the "
            "release discloses about them"
        )
    items = list(hierarchy)
    if hierarchies is not None:
        named = {i.split("=", 1)[0].strip() for i in items}
        items += [i for i in _hierarchy_files(hierarchies, qi) if i.split("=", 1)[0] not in named]
    hier = build_hierarchies(
        "--hierarchy", items, orig, source=str(original), first_line=first_data_line(names)
    )
    return audit_table(
        rel, orig, quasi_identifiers=qi, sensitive=sensitive, hierarchies=hier,
        numeric=numeric, tau=tau, rule_out=rule_out, sampling_fraction=sampling_fraction,
        title=title, meta=meta, suppressed_value=suppressed_value or None,
    )  # fmt: skip


def _graph(
    release: Path,
    original: Path,
    mapping: Path | None,
    no_aligned: bool,
    perturbations: int | None,
    facts: str,
    sample: int,
    time_budget: float,
    seed: int,
    title: str,
    meta: dict[str, Any],
    attacks: dict[str, Any],
    progress: Any,
):
    from privlab.audit import audit_graph
    from privlab.cli.graph_attack import read_input  # the reader of `privlab graph utility`

    try:
        fact_list = [int(x) for x in facts.split(",") if x.strip()]
    except ValueError:
        raise ConfigError(
            f"--facts {facts!r}: give comma-separated integers, e.g. 1,2,5,10"
        ) from None
    if mapping is not None and no_aligned:
        raise ConfigError("--mapping aligns the node ids; it cannot go with --no-aligned-ids")
    if mapping is not None and not mapping.is_file():
        raise InputError(f"--mapping {mapping}: not found")
    orig = read_input(original).graph
    rel = read_input(release).graph
    if not no_aligned:
        rel = _aligned_release(orig, rel, mapping)
    return audit_graph(
        rel, orig, aligned=False if no_aligned else (True if mapping is not None else None),
        perturbations=perturbations, facts=fact_list, sample=sample, time_budget=time_budget,
        seed=seed, title=title, meta=meta, progress=progress, **attacks,
    )  # fmt: skip
