"""``privlab graph attack ...``: re-identification attacks on graphs, and the pair folders.

One command per attack, each a thin shell over its library function: read the input, run
the attack (a spinner or a progress bar on stderr; ``--quiet`` silences them), print a
table or ``--json`` on stdout.

* ``refine`` — Hay et al.'s vertex refinement H_1 … H* (:mod:`privlab.graph.attacks.refinement`)
* ``h1-risk`` — the H_1 candidate probabilities after random perturbation (same module)
* ``subgraph`` — edge-fact knowledge (:mod:`privlab.graph.attacks.subgraph`)
* ``active`` — Backstrom et al.'s sybil attack (:mod:`privlab.graph.attacks.active`)
* ``propagate`` — Narayanan–Shmatikov propagation on a folder written by ``privlab graph
  pair`` (:mod:`privlab.graph.attacks.propagation`)
* ``kl``, ``dv``, ``yg`` — the other seed-based matching attacks, in
  :mod:`privlab.cli.graph_seeded` (same seeding options: :func:`seeded_inputs`)

To add an attack, write one more function (decorated with
:func:`~privlab.cli.common.exits_on_bad_input`), using :func:`read_input`, :func:`emit` and,
for candidate-set sizes, :func:`bucket_table`, and list it in
:data:`privlab.cli.graph_commands.ATTACKS`.

The pair folder (written by ``privlab graph pair``, read by ``propagate``): ``aux.txt`` and
``san.txt``, edge lists whose ids are the node numbers 0..n−1 (a node without edges is its id
alone on a line, as :func:`privlab.io.edgelist.write_edges` writes every graph; ``pair.json``
also gives the node counts), ``truth.csv`` with columns ``aux,san`` (one
row per common node, the secret ground truth) and ``pair.json`` (the generator's
parameters and the counts).  The folder is written into a temporary folder next to it and
renamed, so it is complete or absent.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import typer

from privlab.cli.common import (
    Quiet,
    exits_on_bad_input,
    guard_outputs,
    note,
    out_console,
    print_json,
    progress_bar,
    spinner,
    summary_console,
)
from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph, GraphFile, read_graph, write_graph
from privlab.io import strict_json
from privlab.io.atomic import atomic_folder
from privlab.io.outputs import Input, Manifest, Output

if TYPE_CHECKING:  # rich is imported when a table is printed, not with --json (cli-start.md)
    from rich.console import Console, Group, RenderableType
    from rich.table import Table

PAIR_FILES = ("aux.txt", "san.txt", "truth.csv", "pair.json")
GRAPH_FILE_HELP = (
    "an edge list (two ids per line, one id for a node without edges, # comments; extra "
    "columns ignored), GraphML (.graphml) or GML (.gml)."
)
JSON_HELP = "Print the result as JSON (nothing else on stdout; progress goes to stderr)."


# ============================================================================ shared plumbing
def read_input(path: Path, *, directed: bool = False) -> GraphFile:
    """Read a graph file and print the reader's notes (removed loops, repeats) on stderr
    (also under ``--quiet``: they tell what happened to lines of the input)."""
    read = read_graph(path, directed=directed)
    for warning in read.report.warnings():
        note(warning, always=True)
    return read


def emit(
    payload: dict[str, Any],
    json_out: bool,
    table: Callable[[dict[str, Any]], RenderableType],
    console: Console = out_console,
) -> None:
    """``--json``: the payload on stdout; otherwise the table built from it (on ``console``:
    stderr when an output goes to stdout)."""
    if json_out:
        print_json(payload)
    else:
        console.print(table(payload))


def bucket_table(title: str, first: str, rows: list[tuple[str, dict[str, Any]]]) -> Table:
    """Hay et al.'s five candidate-set-size buckets, one row per level (counts and %)."""
    from rich.table import Table

    grid = Table(title=title)
    grid.add_column(first)
    labels = rows[0][1]["buckets"] if rows else []
    for label in labels:
        grid.add_column(f"[{label}]", justify="right")
    for name, b in rows:
        cells = [f"{c} ({100 * f:.1f}%)" for c, f in zip(b["counts"], b["fractions"], strict=True)]
        grid.add_row(name, *cells)
    return grid


def _summary_table(title: str, payload: dict[str, Any], keys: tuple[str, ...]) -> Group:
    """A title line over a two-column table of ``payload[key]`` for ``keys``."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    grid = Table(show_header=False)
    for key in keys:
        value = payload.get(key)
        grid.add_row(key, f"{value:.4g}" if isinstance(value, float) else str(value))
    return Group(Text(title, style="italic"), grid)


# ============================================================================ pair folders
#: A pair folder is recognised by its pair.json (before --force may replace it).
PAIR_MANIFEST = Manifest("pair folder", "pair.json", "format", "privlab graph pair")


def check_pair_output(folder: Path, force: bool, inputs: list[Path] = ()) -> None:
    """Refuse, before any work is done, a file, a folder that holds an input, or a non-empty
    folder other than an earlier pair folder replaced with ``force``."""
    guard_outputs(
        [Output(folder, "-o", folder=True, manifest=PAIR_MANIFEST, replace=force,
                replace_flag="--force")],
        list(inputs),
    )  # fmt: skip


def write_pair_dir(
    made: Any, folder: Path, *, source: Path, scheme_details: dict[str, Any] | None, force: bool
) -> dict[str, Any]:
    """Write a :class:`~privlab.graph.pairs.GraphPair` as a pair folder; return pair.json."""
    from privlab.io.atomic import write_text_atomic
    from privlab.io.id_pairs import write_pairs

    check_pair_output(folder, force, [source])
    summary = {
        "format": PAIR_MANIFEST.value,
        "source": str(source),
        **made.to_dict(),
        "scheme_details": scheme_details,
        "files": {"aux": "aux.txt", "san": "san.txt", "truth": "truth.csv"},
    }
    with atomic_folder(folder) as tmp:
        for side, g in (("aux", made.aux), ("san", made.san)):
            header = (
                f"privlab graph pair: the {'auxiliary' if side == 'aux' else 'sanitized'} graph "
                f"of {source.name}, nodes 0..{g.n_nodes - 1}"
            )
            write_graph(Graph(g.indptr, g.indices, False), tmp / f"{side}.txt", header=header)
        write_pairs(np.stack([made.truth_aux, made.truth_san], axis=1), tmp / "truth.csv")
        write_text_atomic(tmp / "pair.json", strict_json.dumps(summary) + "\n")
    return {**summary, "output": str(folder)}


def pair_table(summary: dict[str, Any]) -> Group:
    params = summary["parameters"]
    rows = {
        "generator": params.get("generator"),
        "aux nodes / edges": f"{summary['aux_nodes']} / {summary['aux_edges']}",
        "san nodes / edges": f"{summary['san_nodes']} / {summary['san_edges']}",
        "common nodes": summary["common_nodes"],
    }
    shown = ("measured_alpha_v", "measured_alpha_e", "scheme", "p")
    rows.update({key: params[key] for key in shown if params.get(key) is not None})
    return _summary_table(f"{summary['source']} → {summary['output']}", rows, tuple(rows))


@dataclass(frozen=True)
class PairFolder:
    """A pair folder read back: both graphs on their written node numbers, and the truth."""

    aux: Graph
    san: Graph
    truth: np.ndarray  # (k × 2) int64 (aux node, san node)
    meta: dict[str, Any]

    def truth_array(self) -> np.ndarray:
        """Per aux node, its sanitized counterpart or −1."""
        out = np.full(self.aux.n_nodes, -1, dtype=np.int64)
        out[self.truth[:, 0]] = self.truth[:, 1]
        return out


def read_pair_dir(folder: Path) -> PairFolder:
    """Read a folder written by ``privlab graph pair``; InputError naming what is wrong."""
    if not folder.is_dir():
        raise InputError(f"{folder}: no such folder; give a folder written by `privlab graph pair`")
    missing = [name for name in PAIR_FILES[:3] if not (folder / name).is_file()]
    if missing:
        raise InputError(
            f"{folder}: missing {', '.join(missing)}; a pair folder holds "
            f"{', '.join(PAIR_FILES)} (write one with `privlab graph pair`)"
        )
    meta: dict[str, Any] = {}
    if (folder / "pair.json").is_file():
        try:
            meta = json.loads((folder / "pair.json").read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InputError(f"{folder / 'pair.json'}: not valid JSON ({exc})") from None
        if not isinstance(meta, dict):
            raise InputError(f"{folder / 'pair.json'}: expected a JSON object")
    aux = _numbered_graph(folder / "aux.txt", meta.get("aux_nodes"))
    san = _numbered_graph(folder / "san.txt", meta.get("san_nodes"))
    truth = read_id_pairs(folder / "truth.csv", aux.n_nodes, san.n_nodes, empty="truth")
    return PairFolder(aux, san, truth, meta)


def _numbered_graph(path: Path, n_nodes: Any) -> Graph:
    """The edge list as a graph whose node v is the id v written in the file (pair.json's
    count adds the nodes without edges of folders written before they had lines)."""
    read = read_input(path)
    labels = read.graph.labels
    if labels is None or not np.issubdtype(labels.dtype, np.integer) or labels.min() < 0:
        raise InputError(f"{path}: node ids must be the integers 0..n−1 written by graph pair")
    n = int(labels.max()) + 1
    if n_nodes is not None:
        if not isinstance(n_nodes, int) or n_nodes < n:
            raise InputError(
                f"{path}: names node {n - 1} but pair.json gives {n_nodes!r} nodes for it"
            )
        n = n_nodes
    g = read.graph
    if not g.directed and (labels.size < 2 or bool((labels[1:] > labels[:-1]).all())):
        # ids sorted (the reader's order): renaming keeps every row sorted, so the CSR
        # arrays carry over with empty rows for the missing ids — O(n + m), no re-sort
        indptr = np.zeros(n + 1, dtype=np.int64)
        deg = np.zeros(n, dtype=np.int64)
        deg[labels] = g.degrees()
        np.cumsum(deg, out=indptr[1:])
        return Graph(indptr, labels[g.indices].astype(np.int64))
    return Graph.from_edges(n, labels[g.edges()])


def read_id_pairs(path: Path, n_aux: int, n_san: int, *, empty: str | None = None) -> np.ndarray:
    """An ``aux,san`` CSV of node pairs as a (k × 2) int64 array; errors name the line.

    ``empty="truth"``: a header-only file means the graphs share no node (its own error).
    """
    from privlab.io.id_pairs import read_plain_pairs

    plain = read_plain_pairs(path, ("aux", "san"))  # None: read by the full table reader
    if empty == "truth" and (_data_lines(path) if plain is None else plain.shape[0]) == 0:
        raise InputError(
            f"{path}: no pairs — the two graphs have no common node, so there is no one to "
            "re-identify; sample the pair again with a larger --alpha-v"
        )
    columns = _id_columns(path) if plain is None else {"aux": plain[:, 0], "san": plain[:, 1]}
    cols = []
    for col, n, graph in (("aux", n_aux, "aux.txt"), ("san", n_san, "san.txt")):
        v = columns[col]
        out = np.flatnonzero((v < 0) | (v >= n))
        if out.size:
            i = int(out[0])
            raise InputError(
                f"{path}, line {i + 2}: {col} node {v[i]} is not in {graph} (nodes 0..{n - 1})"
            )
        _, first, counts = np.unique(v, return_index=True, return_counts=True)
        if (counts > 1).any():
            again = np.setdiff1d(np.arange(v.size), first)[0]
            raise InputError(
                f"{path}, line {int(again) + 2}: {col} node {v[again]} appears in an earlier "
                "line too; each node can be paired once"
            )
        cols.append(v.astype(np.int64))
    return np.stack(cols, axis=1)


def _id_columns(path: Path) -> dict[str, np.ndarray]:
    """The aux and san columns of any CSV the table reader takes, as int64; InputError
    naming the line and column of a cell that is not an integer."""
    import polars as pl

    from privlab.io.delimited import read_table

    frame = read_table(path, expected_columns=["aux", "san"])
    for col in ("aux", "san"):
        if col not in frame.columns:
            raise InputError(f"{path}, line 1: no column {col!r}; the header must be aux,san")
    columns = {}
    for col in ("aux", "san"):
        raw = frame[col].str.strip_chars()
        ids = raw.cast(pl.Int64, strict=False)
        bad = ids.is_null()
        if bad.any():
            i = int(bad.arg_max())
            raise InputError(
                f"{path}, line {i + 2}, column {col!r}: {raw[i]!r} is not a node id (an integer)"
            )
        columns[col] = ids.to_numpy()
    return columns


def _data_lines(path: Path) -> int:
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    with path.open(encoding="utf-8", errors="replace") as fh:
        return sum(1 for line in fh if line.strip()) - 1


# ============================================================================ refine
@exits_on_bad_input
def refine(
    input: Path = typer.Argument(..., help="The released graph (SNAP edge list)."),
    level: int | None = typer.Option(
        None,
        "--level",
        "-l",
        min=0,
        help="Only H_i, the refinement at this level (default: every level up to H*).",
    ),
    star: bool = typer.Option(False, "--star", help="Only H*, the fixed point."),
    orbits: bool = typer.Option(
        False, "--orbits", help="Also the automorphism orbits (exact, bliss): the candidate "
        "sets of an adversary with complete structural knowledge, never coarser than H*.",
    ),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Candidate-set sizes under vertex refinement H_1, H_2, …, H* (Hay et al.).

    An adversary who knows a target's degree (H_1), its neighbours' degrees (H_2), … rules
    out every node that differs; the rest is the candidate set.  Sizes are counted in the
    buckets [1], [2,4], [5,10], [11,20], [21,∞): a size of 1 is a re-identification.
    With --orbits, one more row: automorphic equivalence (each orbit lies in one H* class).
    """
    from privlab.graph.attacks.refinement import vertex_refinement

    if level is not None and star:
        raise ConfigError("--level and --star each pick one level; give one of them")
    read = read_input(input)
    with spinner(f"refining {read.graph!r} …"):
        ref = vertex_refinement(read.graph, max_level=level)
    stable = ref.stable_level
    if level is not None:
        wanted: list[int | None] = [level]
    elif star:
        wanted = [None]
    else:
        wanted = [*range(1, max(stable or 0, 1) + 1), None]
    rows = []
    for i in wanted:
        top = len(ref.n_classes) - 1
        rows.append({
            "level": "H*" if i is None else f"H_{i}",
            "is_star": i is None or (ref.complete and i >= (stable or 0)),
            "classes": ref.n_classes[top if i is None else min(i, top)],
            **ref.buckets(i).to_dict(),
        })  # fmt: skip
    payload = {
        "input": str(input),
        "nodes": read.graph.n_nodes,
        "edges": read.graph.n_edges,
        "stable_level": stable,
        "complete": ref.complete,
        "levels": rows,
        "seconds": ref.seconds,
    }
    if orbits:
        from privlab.graph.attacks.refinement import bucket_counts
        from privlab.graph.automorphism import automorphism_orbits

        with spinner(f"automorphism orbits of {read.graph!r} …"):
            aut = automorphism_orbits(read.graph)
        payload["orbits"] = aut.to_dict()
        if ref.complete:  # H* classes holding more than one orbit (0: H* = ≡_A here)
            star_ids = ref.level(None)
            pairs = np.unique(np.stack([star_ids, aut.orbit]), axis=1).shape[1]
            payload["orbits"]["hstar_classes_split"] = int(
                pairs - np.unique(star_ids).size if star_ids.size else 0
            )
        rows.append({"level": "orbits", "is_star": False, "classes": aut.n_orbits,
                     **bucket_counts(aut.candidate_sizes()).to_dict()})  # fmt: skip
    emit(payload, json_out, _refine_table)


def _refine_table(payload: dict[str, Any]) -> Table:
    stable = payload["stable_level"]
    note = f"H* = H_{stable}" if stable is not None else "stopped before H*"
    return bucket_table(f"{payload['input']}: candidate-set sizes ({note})", "query",
                        [(r["level"], r) for r in payload["levels"]])  # fmt: skip


# ============================================================================ h1-risk
@exits_on_bad_input
def h1_risk(
    original: Path = typer.Argument(..., help="The original graph (edge list)."),
    release: Path = typer.Argument(
        ..., help="Its random perturbation, same node ids (e.g. `graph anonymize -s rad "
        "--keep-ids`).",
    ),
    m: int = typer.Option(
        ..., "--m", min=0, help="The public number of perturbations (RAD: edges_removed)."
    ),
    model: str = typer.Option(
        "process", "--model", help="process (exact) or no-reinsertion (the paper's approximation)."
    ),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Candidate-set sizes under H_1 (degree knowledge) after a random perturbation.

    The release is the original with m edges deleted and m inserted at random (Hay et al.;
    m is public); each node's equivalent candidate-set size is ⌊1 / its largest candidate
    probability⌋.
    """
    from privlab.graph.attacks.refinement import perturbation_h1_risk

    a = read_input(original).graph
    b = _on_nodes_of(a, read_input(release).graph, release)
    with spinner("computing the H_1 posteriors …"):
        risk = perturbation_h1_risk(a, b, m, model=model)
    payload = {"original": str(original), "release": str(release), **risk.to_dict()}
    emit(payload, json_out, lambda p: bucket_table(
        f"{p['release']}: H_1 candidate sets after m = {p['m']} perturbations", "model",
        [(p["model"], p["buckets"])]))  # fmt: skip


def _on_nodes_of(original: Graph, release: Graph, path: Path) -> Graph:
    """``release`` renumbered onto ``original``'s nodes through the labels (ids in files)."""
    a, b = original.labels, release.labels
    if a is None or b is None or a.dtype.kind != b.dtype.kind:
        raise InputError(f"{path}: its node ids are not of the same kind as the original's")
    order = np.argsort(a, kind="stable")  # sorted from edge lists, file order from GraphML
    at = np.minimum(np.searchsorted(a[order], b), a.size - 1)
    pos, ok = order[at], a[order[at]] == b
    if not ok.all():
        raise InputError(
            f"{path}: node {b[np.argmin(ok)]} is not in the original graph; the release must "
            "keep the node ids (graph anonymize --keep-ids)"
        )
    return Graph.from_edges(original.n_nodes, pos[release.edges()])


# ============================================================================ subgraph
@exits_on_bad_input
def subgraph(
    input: Path = typer.Argument(..., help="The released graph (SNAP edge list)."),
    facts: int = typer.Option(
        10, "--facts", "-b", min=1, help="Edge facts the adversary gathers (all budgets 0..b)."
    ),
    exact_degrees: bool = typer.Option(
        True, "--exact-degrees/--degree-bounds",
        help="The adversary knows the exact degree of each fully explored node, or only a "
        "lower bound.",
    ),
    nodes: str = typer.Option(
        "all", "--nodes", help="Targets: 'all', or N random nodes (drawn with --seed)."
    ),
    mode: str = typer.Option(
        "tree", "--mode", help="tree: the adversary knows the tree expansion (Hay et al.'s "
        "experiments); graph: he recognizes people reached twice, so the explored subgraph "
        "itself must embed injectively (Hay et al., the graph version of the query).",
    ),
    seed: int = typer.Option(0, "--seed", min=0, help="Orders the exploration; draws targets."),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Candidate-set sizes when the adversary knows b edges around each target (Hay et al.).

    The knowledge is gathered breadth-first from the target; the candidates are the nodes
    where that tree-shaped pattern embeds.
    """
    from privlab.graph.attacks.subgraph import (
        MODES,
        SubgraphKnowledgeResult,
        SubgraphMatcher,
        subgraph_knowledge_experiment,
    )

    if mode not in MODES:
        raise ConfigError(f"--mode {mode!r}: choose one of {', '.join(MODES)}")
    graph = read_input(input).graph
    targets = _targets(nodes, graph.n_nodes, seed)
    matcher = SubgraphMatcher(graph)
    sizes, seconds = [], 0.0
    chunks = np.array_split(targets, max(1, min(100, targets.size)))
    with progress_bar("subgraph knowledge", unit="targets") as progress:
        done = 0
        for chunk in chunks:
            # each target's exploration is seeded by (seed, target): chunks change nothing
            part = subgraph_knowledge_experiment(
                graph, facts, exact_degrees=exact_degrees, targets=chunk, seed=seed,
                matcher=matcher, mode=mode,
            )  # fmt: skip
            sizes.append(part.sizes)
            seconds += part.seconds
            done += chunk.size
            progress(done, targets.size)
    result = SubgraphKnowledgeResult(
        targets, np.concatenate(sizes) if sizes else np.zeros((0, facts + 1), np.int64),
        exact_degrees, "hall", seed, seconds, mode,
    )  # fmt: skip
    payload = {"input": str(input), "nodes": graph.n_nodes, "edges": graph.n_edges,
               **result.to_dict()}  # fmt: skip
    for b, row in enumerate(payload["buckets"]):
        row["facts"] = b
    emit(payload, json_out, lambda p: bucket_table(
        f"{p['input']}: candidate-set sizes of {p['n_targets']} targets under b edge facts "
        f"({'exact degrees' if p['exact_degrees'] else 'degree bounds'}, {p['mode']} version)",
        "b", [(str(r["facts"]), r) for r in p["buckets"]]))  # fmt: skip


def _targets(nodes: str, n: int, seed: int) -> np.ndarray:
    if nodes.strip().lower() == "all":
        return np.arange(n, dtype=np.int64)
    try:
        count = int(nodes)
    except ValueError:
        raise ConfigError(f"--nodes {nodes!r}: give 'all' or a number of targets") from None
    if not 1 <= count <= n:
        raise ConfigError(f"--nodes {count}: give a number of targets in 1..{n} (or 'all')")
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(n, count, replace=False)).astype(np.int64)


# ============================================================================ active
@exits_on_bad_input
def active(
    input: Path = typer.Argument(..., help="The graph before its release (edge list)."),
    k: int | None = typer.Option(
        None, "--k", "-k", min=2, help="Sybils to plant (default ⌈(2+δ)·log2 n⌉, δ = 0.5)."
    ),
    targets: int = typer.Option(10, "--targets", "-t", min=1, help="Targets per run."),
    trials: int = typer.Option(
        1, "--trials", "-r", min=1, help="Independent runs (new sybils, targets, release)."
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Fixed seed, for reproducible runs (default: fresh randomness)."
    ),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Backstrom et al.'s walk-based attack: plant sybils, release naively, find the targets.

    Each run picks random targets, links the sybils to them, relabels the graph at random
    (the naive release) and searches the release for the sybils and then the targets.
    """
    from privlab.dp.noise import secure_generator
    from privlab.graph.attacks.active import active_attack

    graph = read_input(input).graph
    rng = secure_generator(seed)
    runs = []
    with spinner("active attack …") as status:
        for r in range(trials):
            status(f"active attack: run {r + 1}/{trials} …")
            runs.append(active_attack(graph, targets, k=k, seed=rng))
    emit_sybil_runs(input, graph, runs, targets, seed, json_out, "active attack")


def emit_sybil_runs(input: Path, graph: Graph, runs: list, targets: int, seed: Any,
                    json_out: bool, what: str) -> None:  # fmt: skip
    """The summary of active (sybil) attack runs — ``active`` and ``cut`` — as JSON or a table:
    each run's ``to_dict()`` and the rates over runs."""
    statuses = Counter(run.status for run in runs)
    k = runs[0].to_dict()["k"]
    payload = {
        "input": str(input), "nodes": graph.n_nodes, "edges": graph.n_edges, "k": k,
        "n_targets": targets, "trials": len(runs),
        "success_rate": float(np.mean([run.success_rate for run in runs])),
        "unique_rate": statuses["unique"] / len(runs),
        "sybils_exact_rate": float(np.mean([run.sybils_exact for run in runs])),
        "statuses": dict(statuses), "runs": [run.to_dict() for run in runs],
        "insecure_seed": seed is not None,
    }  # fmt: skip
    emit(payload, json_out, lambda p: _summary_table(
        f"{p['input']}: {what}, k = {p['k']} sybils, {p['n_targets']} targets", p,
        ("nodes", "n_targets", "trials", "success_rate", "unique_rate", "sybils_exact_rate",
         "statuses")))  # fmt: skip


# ============================================================================ seeded attacks
#: What every seed-based attack on a pair folder takes (propagate, kl, dv, yg).
PAIR_DIR_ARG = typer.Argument(..., help="A folder written by `privlab graph pair`.")
SEEDS_OPT = typer.Option(
    None,
    "--seeds",
    min=1,
    help="Seed with the N top-degree aux nodes and their true match (give this, "
    "--seeds-file or --discover).",
)
SEEDS_FILE_OPT = typer.Option(
    None, "--seeds-file", help="Seed pairs from a CSV with columns aux,san."
)
DISCOVER_OPT = typer.Option(
    None, "--discover", min=1, help="Find N seeds by matching the top-degree nodes."
)
DISCOVER_CLIQUE_OPT = typer.Option(
    None,
    "--discover-clique",
    min=2,
    help="Find K seeds as the unique sanitized K-clique matching a known aux clique (NS09); "
    "without it, another seeding is required.",
)
CLIQUE_TOLERANCE_OPT = typer.Option(
    0.1,
    "--clique-tolerance",
    min=0.0,
    max=1.0,
    help="--discover-clique: degrees and common-neighbour counts match within 1 ± this.",
)
SCORINGS = ("secgraph", "thesis")
SCORING_OPT = typer.Option(
    "secgraph",
    "--scoring",
    help="secgraph (Σ 1/√deg) or thesis (Alg. 10.1: cosine of the mapped neighbourhoods).",
)
MAPPING_OUT_OPT = typer.Option(
    None,
    "--output",
    "-o",
    help="Write the mapping found (CSV aux,san) here; - for stdout (default: the summary only).",
)


def seeded_inputs(
    pair_dir: Path,
    seeds: int | None,
    seeds_file: Path | None,
    discover: int | None,
    output: Path | None,
    json_out: bool,
    clique: int | None = None,
    tolerance: float = 0.1,
) -> tuple[PairFolder, np.ndarray, dict[str, Any]]:
    """Check the seeding options and the output, read the pair folder, make the seeds:
    (pair, (k × 2) seed pairs, the ``seeding`` summary of the payload).  ``clique``: NS09's
    clique matching (``--discover-clique K``, offered by propagate)."""
    from privlab.graph.attacks.propagation import discover_seeds, top_degree_seeds

    given = [name for name, v in (("--seeds", seeds), ("--seeds-file", seeds_file),
                                  ("--discover", discover), ("--discover-clique", clique))
             if v is not None]  # fmt: skip
    if len(given) != 1:
        raise ConfigError(
            "give one way to seed: --seeds N (top-degree nodes and their truth), "
            f"--seeds-file CSV, --discover N or (propagate) --discover-clique K "
            f"(got {', '.join(given) or 'none'})"
        )
    guard_outputs(
        [Output(output, "-o", stdout_ok=True)],
        [Input(pair_dir, unit=True), seeds_file],
        json_out=json_out,
    )
    pair = read_pair_dir(pair_dir)
    truth = pair.truth_array()
    seeding: dict[str, Any]
    if seeds is not None:
        seed_pairs = top_degree_seeds(pair.aux, truth, seeds)
        seeding = {"kind": "top-degree", "requested": seeds}
    elif seeds_file is not None:
        seed_pairs = read_id_pairs(seeds_file, pair.aux.n_nodes, pair.san.n_nodes)
        seeding = {"kind": "file", "file": str(seeds_file)}
    elif clique is not None:
        from privlab.cli.graph_seed_identification import clique_seed_pairs

        seed_pairs, seeding = clique_seed_pairs(pair, clique, tolerance)
    else:
        with spinner("discovering seeds …"):
            found = discover_seeds(pair.aux, pair.san, discover)
        seed_pairs = found.pairs
        seeding = {"kind": "discovered", **found.to_dict()}
    seeding["seeds"] = int(seed_pairs.shape[0])
    seeding["seeds_correct"] = int((truth[seed_pairs[:, 0]] == seed_pairs[:, 1]).sum())
    return pair, seed_pairs, seeding


def write_mapping(pairs: np.ndarray, output: Path | None, payload: dict[str, Any]) -> None:
    """With ``-o``: the (aux, san) pairs as CSV aux,san, and its name in the payload."""
    if output is None:
        return
    from privlab.io.id_pairs import write_pairs

    write_pairs(pairs, output)
    payload["output"] = str(output)


# ============================================================================ propagate
@exits_on_bad_input
def propagate(
    pair_dir: Path = PAIR_DIR_ARG,
    seeds: int | None = SEEDS_OPT,
    seeds_file: Path | None = SEEDS_FILE_OPT,
    discover: int | None = DISCOVER_OPT,
    discover_clique: int | None = DISCOVER_CLIQUE_OPT,
    clique_tolerance: float = CLIQUE_TOLERANCE_OPT,
    theta: float = typer.Option(
        0.1, "--theta", min=0.0, help="Eccentricity threshold θ ≥ 0 (higher: fewer, surer)."
    ),
    scoring: str = SCORING_OPT,
    output: Path | None = MAPPING_OUT_OPT,
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Narayanan–Shmatikov seed-and-propagate de-anonymization of the sanitized graph.

    Starting from the seed pairs, every aux node is matched to the sanitized node its mapped
    neighbours point to, when that match stands out (eccentricity ≥ θ) both ways.  The
    result is scored against truth.csv.
    """
    from privlab.graph.attacks.propagation import propagate as run_propagation
    from privlab.validate import check_choice

    check_choice(scoring, "--scoring", SCORINGS)
    pair, seed_pairs, seeding = seeded_inputs(pair_dir, seeds, seeds_file, discover, output,
                                              json_out, discover_clique,
                                              clique_tolerance)  # fmt: skip
    truth = pair.truth_array()
    what = f"propagating from {seed_pairs.shape[0]} seeds"
    with progress_bar(what, unit="aux nodes mapped") as progress:
        result = run_propagation(
            pair.aux, pair.san, seed_pairs, theta, truth=truth, progress=progress, scoring=scoring
        )
    payload = {"pair": str(pair_dir), "seeding": seeding, **result.to_dict()}
    write_mapping(result.pairs(), output, payload)
    emit(payload, json_out, lambda p: _summary_table(
        f"{p['pair']}: propagation from {p['seeding']['seeds']} {p['seeding']['kind']} seeds",
        p, ("theta", "mapped", "correct", "true_pairs", "accuracy", "coverage", "passes",
            "seconds")), summary_console(output))  # fmt: skip


@exits_on_bad_input
def learned(
    pair_dir: Path = typer.Argument(..., help="A folder written by `privlab graph pair`."),
    method: str = typer.Option("forest", "--method", help="forest (Sharad's, 400 trees) or gbm."),
    alpha_v: float = typer.Option(
        0.5, "--alpha-v", help="The attacker's estimate of the node overlap, for training splits."
    ),
    alpha_e: float = typer.Option(
        0.5, "--alpha-e", help="The attacker's estimate of the edge overlap, for training splits."
    ),
    non_identical: int = typer.Option(
        100_000, "--non-identical", min=1, help="Random non-identical test pairs (degree > 5)."
    ),
    threepsl: bool = typer.Option(
        False, "--3psl", help="Also run the seedless 3PSL attack (one scorer per degree band)."
    ),
    thresholds: str = typer.Option("30,9,5", "--thresholds", help="3PSL degree bands t1,t2,t3."),
    score_cut: float = typer.Option(
        0.7, "--score-cut", min=0.0, max=1.0, help="3PSL's phase-1 score cut (the thesis: 0.95)."
    ),
    per_band: bool = typer.Option(
        False, "--per-band", help="3PSL: train one scorer per degree band (the thesis's design)."
    ),
    order: str = typer.Option(
        "score", "--order", help="3PSL: order the CS rounds' Clean by classifier score or by cs."
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Seed, for reproducible runs (default: fresh randomness)."
    ),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Sharad's learned attack: train by splitting the releases, score pairs, ROC / TP@FP.

    With --3psl the same scorer serves all three phases unless --per-band (on ego-Facebook
    per-band forests never reach a useful score; see docs/graph/threepsl.md).

    No ground truth is used for training: each released graph is split again with the
    estimated α_V, α_E.  truth.csv is used only to measure (AUC, TP at fixed FP and, with
    --3psl, accuracy and coverage of the mappings).
    """
    from privlab.graph.attacks.learned import evaluation_pairs, roc_summary, train_scorer
    from privlab.graph.attacks.threepsl import three_phase_attack

    if method not in ("forest", "gbm"):
        raise ConfigError(f"--method {method!r}: choose forest or gbm")
    if order not in ("score", "cs"):
        raise ConfigError(f"--order {order!r}: choose score (the thesis) or cs")
    try:
        t = tuple(int(x) for x in thresholds.split(","))
    except ValueError:
        raise ConfigError(f"--thresholds {thresholds!r}: give three integers t1,t2,t3") from None
    if len(t) != 3 or not t[0] > t[1] > t[2] >= 0:
        raise ConfigError(
            f"--thresholds {thresholds!r}: give three degree thresholds t1 > t2 > t3 ≥ 0 "
            "(the default is 30,9,5)"
        )
    pair = read_pair_dir(pair_dir)
    with progress_bar("training by splitting the releases", unit="steps") as progress:
        scorer = train_scorer(pair.aux, pair.san, alpha_v=alpha_v, alpha_e=alpha_e,
                              method=method, seed=seed, progress=progress)  # fmt: skip
    u, v, y = evaluation_pairs(pair.aux, pair.san, pair.truth, n_non_identical=non_identical,
                               seed=seed)  # fmt: skip
    iu = int(y.sum())
    with progress_bar("scoring the test pairs", unit="pairs") as progress:
        roc = roc_summary(scorer.score(pair.aux, pair.san, u, v, progress=progress), y)
    payload: dict[str, Any] = {"pair": str(pair_dir), "method": method,
                               "alpha_v_estimate": alpha_v, "alpha_e_estimate": alpha_e,
                               "identical_pairs": iu, "non_identical_pairs": int(y.size) - iu,
                               **roc.to_dict()}  # fmt: skip
    payload.pop("curve", None)
    if threepsl:
        scorers = [scorer.bind(pair.aux, pair.san)] * 3  # the scorer trained above
        if per_band:
            bands = [(t[0], None), (t[1], t[0]), (t[2], t[1])]  # None: no upper bound
            trained = []
            for i, band in enumerate(bands):
                with progress_bar(f"training the scorer of band {i + 1}/3", unit="steps") as bar:
                    trained.append(train_scorer(
                        pair.aux, pair.san, alpha_v=alpha_v, alpha_e=alpha_e, method=method,
                        degree_range=band, seed=None if seed is None else seed + 1 + i,
                        progress=bar,
                    ))  # fmt: skip
            scorers = [sc.bind(pair.aux, pair.san) for sc in trained]
        with spinner("running 3PSL …") as status:

            def rounds(info: Any) -> None:
                status(f"3PSL phase {info.phase}, round {info.iteration}: {info.total:,} mapped …")

            res = three_phase_attack(pair.aux, pair.san, scorers, thresholds=t,
                                     score_cut=score_cut, order=order, progress=rounds)  # fmt: skip
        payload["threepsl"] = {**res.to_dict(), **res.evaluate(pair.truth).to_dict()}
    emit(payload, json_out, _learned_table)


def _learned_table(p: dict[str, Any]) -> Group:
    flat = {**p, **{f"TP at FP {k}": v for k, v in p["tp_at_fp"].items()}}
    keys = ["auc", "identical_pairs", "non_identical_pairs"]
    keys += [f"TP at FP {k}" for k in p["tp_at_fp"]]
    if "threepsl" in p:
        flat.update({f"3PSL {k}": v for k, v in p["threepsl"].items()})
        keys += [f"3PSL {k}" for k in ("mapped", "m_out", "m_true", "accuracy", "coverage",
                                       "coverage_all", "seconds")]  # fmt: skip
    return _summary_table(f"{p['pair']}: learned attack ({p['method']})", flat, tuple(keys))
