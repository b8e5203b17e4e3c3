"""``privlab graph ...``: anonymize a graph, and compare a release with the original.

Every scheme's output is also naively anonymized (node ids replaced by a uniformly random
permutation) unless ``--keep-ids``: the structural scheme protects against structural
re-identification, the relabelling against reading identities off the ids.  ``--mapping``
writes the secret release-id → original-id table for the data owner.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import typer
from rich.table import Table

from privlab.cli.common import err_console, exits_on_bad_input, out_console, print_json
from privlab.errors import ConfigError
from privlab.graph.core import Graph, read_graph, write_graph

app = typer.Typer(help="Anonymize social graphs and measure what the release keeps.",
                  no_args_is_help=True)  # fmt: skip


def _perturb(name: str) -> Callable[..., Any]:
    def run(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
        from privlab.graph.anonymize import perturb

        fn = {
            "rsp": perturb.random_sparsification,
            "rad": perturb.random_add_delete,
            "rsw": perturb.random_switch,
            "rep": perturb.random_edge_perturbation,
            "insert": perturb.random_insertion,
        }[name]
        fraction = _need(opts, "fraction", name)
        result = fn(graph, fraction, seed=seed)
        return result.graph, result.to_dict()

    return run


def _naive(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    return graph, {"scheme": "naive"}


def _kdegree(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    from privlab.graph.anonymize.kdegree import kdegree_anonymize

    k = _need(opts, "k", "kdegree")
    method = (opts.get("method") or "simultaneous_swap").replace("-", "_")
    result = kdegree_anonymize(graph, k, method=method, seed=seed)
    return result.graph, result.to_dict()


def _dp_dk2(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    from privlab.graph.anonymize.dp_dk import dp_dk2_graph

    epsilon = _need(opts, "epsilon", "dp-dk2")
    max_degree = _need(opts, "max_degree", "dp-dk2")
    threshold = opts.get("threshold") or 0
    if isinstance(threshold, str) and threshold != "auto":
        try:
            threshold = int(threshold)
        except ValueError:
            raise ConfigError(f"--threshold {threshold!r}: give an integer ≥ 0 or 'auto'") from None
    result = dp_dk2_graph(graph, epsilon, max_degree=max_degree, threshold=threshold, seed=seed)
    return result.graph, {"scheme": "dp-dk2", **result.to_dict()}


SCHEMES: dict[str, tuple[Callable[..., Any], str]] = {
    "naive": (_naive, "random relabelling only"),
    "rsp": (_perturb("rsp"), "random sparsification (--fraction)"),
    "rad": (_perturb("rad"), "random add/delete, Hay et al. (--fraction)"),
    "rsw": (_perturb("rsw"), "degree-preserving random switch (--fraction)"),
    "rep": (_perturb("rep"), "random edge perturbation (--fraction = flip probability p)"),
    "insert": (_perturb("insert"), "random edge insertion (--fraction)"),
    "kdegree": (_kdegree, "k-degree anonymity, Liu–Terzi (--k; --method simultaneous-swap, "
                "relaxed or supergraph)"),
    "dp-dk2": (_dp_dk2, "ε-edge-DP synthetic graph from a noisy dK-2 series (--epsilon, "
               "--max-degree, optional --threshold)"),
}

FOREIGN = {
    "fraction": "--fraction", "k": "--k", "epsilon": "--epsilon", "max_degree": "--max-degree",
}  # fmt: skip


def _need(opts: dict[str, Any], key: str, scheme: str) -> Any:
    if opts.get(key) is None:
        raise ConfigError(f"--scheme {scheme} needs {FOREIGN[key]}")
    return opts[key]


def _scheme_help() -> str:
    return "; ".join(f"{name}: {text}" for name, (_, text) in SCHEMES.items())


@app.command()
@exits_on_bad_input
def anonymize(
    input: Path = typer.Argument(..., help="SNAP edge list (two ids per line, # comments)."),
    scheme: str = typer.Option(..., "--scheme", "-s", help="The scheme. " + _scheme_help()),
    output: Path = typer.Option(..., "--output", "-o", help="Where to write the release."),
    fraction: float | None = typer.Option(None, "--fraction", help="Perturbation strength."),
    k: int | None = typer.Option(None, "--k", "-k", help="k for k-degree anonymity."),
    method: str | None = typer.Option(
        None, "--method", help="kdegree: simultaneous-swap (default), relaxed or supergraph."
    ),
    epsilon: float | None = typer.Option(None, "--epsilon", "-e", help="ε for DP schemes."),
    max_degree: int | None = typer.Option(
        None, "--max-degree", help="dp-dk2: a public bound on the degrees, fixed in advance."
    ),
    threshold: str | None = typer.Option(
        None, "--threshold", help="dp-dk2: drop noisy cells below this (integer or 'auto')."
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Fixed seed: reproducible, hence for tests and experiments only."
    ),
    mapping: Path | None = typer.Option(
        None, "--mapping", help="Write the secret release-id → original-id table here (CSV)."
    ),
    keep_ids: bool = typer.Option(
        False, "--keep-ids", help="Do not relabel the nodes (research comparisons only)."
    ),
    directed: bool = typer.Option(False, "--directed", help="Read the edges as directed."),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Anonymize a graph with one scheme and write the release (and the mapping)."""
    from privlab.dp.noise import secure_generator
    from privlab.graph.anonymize.naive import naive_anonymize

    name = scheme.lower()
    if name not in SCHEMES:
        raise ConfigError(f"--scheme {scheme!r}: choose one of {', '.join(SCHEMES)}")
    opts = {
        "fraction": fraction, "k": k, "epsilon": epsilon, "max_degree": max_degree,
        "threshold": threshold, "method": method,
    }  # fmt: skip
    if mapping is not None and keep_ids:
        raise ConfigError("--mapping is the relabelling's secret; it cannot go with --keep-ids")
    read = read_graph(input, directed=directed)
    for warning in read.report.warnings():
        err_console.print(f"[yellow]note:[/] {warning}")
    rng = secure_generator(seed)
    run, _ = SCHEMES[name]
    with err_console.status(f"{name}: anonymizing {read.graph!r} …", spinner="dots"):
        released, summary = run(read.graph, opts, rng)
    original_labels = read.graph.labels
    if keep_ids:
        final = released
        secret = None
    else:
        naive = naive_anonymize(released, seed=rng)
        final, secret = naive.graph, naive.mapping
    summary = {
        "input": str(input),
        "scheme": name,
        "nodes": final.n_nodes,
        "edges_before": read.graph.n_edges,
        "edges_after": final.n_edges,
        "relabelled": not keep_ids,
        "insecure_seed": seed is not None,
        "read": read.report.to_dict(),
        "details": summary,
        "output": str(output),
    }
    write_graph(final if keep_ids else Graph(final.indptr, final.indices, final.directed),
                output, header=f"privlab graph anonymize --scheme {name}")  # fmt: skip
    if mapping is not None and secret is not None:
        from privlab.io.delimited import write_table

        originals = original_labels[secret] if original_labels is not None else secret
        write_table(pl.DataFrame({"release_id": np.arange(secret.size), "original": originals}),
                    mapping)  # fmt: skip
        summary["mapping"] = str(mapping)
    if json_out:
        print_json(summary)
        return
    grid = Table(title=f"{input} → {output} ({name})", show_header=False)
    for key in ("nodes", "edges_before", "edges_after", "relabelled"):
        grid.add_row(key, str(summary[key]))
    out_console.print(grid)


@app.command()
@exits_on_bad_input
def utility(
    original: Path = typer.Argument(..., help="The original graph (edge list)."),
    release: Path = typer.Argument(..., help="The released graph (edge list)."),
    metric: list[str] = typer.Option(
        [], "--metric", "-m", help="Metric (repeatable; default all that apply)."
    ),
    sample: int | None = typer.Option(
        None, "--sample", help="BFS-based metrics from this many random sources (faster)."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed for --sample."),
    directed: bool = typer.Option(False, "--directed", help="Read both graphs as directed."),
    json_out: bool = typer.Option(False, "--json", help="Print the comparison as JSON."),
) -> None:
    """Compare a release with the original on the graph utility metrics."""
    from privlab.graph.utility import compare

    a = read_graph(original, directed=directed)
    b = read_graph(release, directed=directed)
    with err_console.status("computing the utility metrics of both graphs …", spinner="dots"):
        result = compare(a.graph, b.graph, metrics=metric or None, sample=sample, seed=seed)
    if json_out:
        print_json({"original": str(original), "release": str(release), **result.to_dict()})
        return
    typer.echo(result.to_markdown())
