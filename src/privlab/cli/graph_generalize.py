"""``privlab graph generalize``: Hay et al.'s supernode generalization.

A generalized graph is not an edge list, so it has its own command and release format: a
JSON file ``{"format": "privlab-generalized-graph/1", "k": k, "supernodes": [{"id", "size",
"internal_edges"}], "superedges": [{"a", "b", "edges"}]}``.  ``--sample`` also writes one
graph drawn uniformly from those consistent with the release (an edge list, for utility
measurement with ``graph utility``); ``--mapping`` writes the secret original-node →
supernode table.  All files are written together or not at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from privlab.cli.common import Quiet, exits_on_bad_input, guard_outputs, print_json, spinner
from privlab.cli.common import summary_console as _console
from privlab.cli.graph_attack import GRAPH_FILE_HELP, read_input
from privlab.io.outputs import Output


@exits_on_bad_input
def generalize(
    input: Path = typer.Argument(..., help=f"The graph, undirected: {GRAPH_FILE_HELP}"),
    k: int = typer.Option(..., "--k", "-k", help="Every supernode holds at least k nodes."),
    output: Path = typer.Option(
        ..., "--output", "-o", help="Where to write the release (JSON: supernodes, super-edges)."
    ),
    sample: Path | None = typer.Option(
        None, "--sample", help="Also write a graph drawn from the release here (an edge list); "
        "without it none is drawn.",
    ),
    mapping: Path | None = typer.Option(
        None, "--mapping", help="Write the secret node → supernode table here (CSV); without "
        "it the assignment is not kept.",
    ),
    steps: int | None = typer.Option(
        None, "--steps", help="Simulated-annealing moves (default: 10 per node)."
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Fixed seed: reproducible, hence for tests and experiments only "
        "(default: fresh secure randomness).",
    ),
    json_out: bool = typer.Option(
        False, "--json", help="Print the summary as JSON (nothing else on stdout)."
    ),
    quiet: Quiet = False,
) -> None:
    """Partition the nodes into supernodes of ≥ k nodes (Hay et al., VLDB 2008) and publish
    only supernode sizes and edge counts."""
    import numpy as np
    import polars as pl

    from privlab.dp.noise import secure_generator
    from privlab.graph.anonymize.generalize import sample_graph, supernode_generalize
    from privlab.graph.core import Graph, write_graph
    from privlab.io import strict_json
    from privlab.io.atomic import atomic_paths
    from privlab.io.delimited import write_table

    outs = [Output(output, "-o"), Output(sample, "--sample"), Output(mapping, "--mapping")]
    guard_outputs(outs, [input], json_out=json_out)
    read = read_input(input)
    rng = secure_generator(seed)
    with spinner(f"generalizing {input} into supernodes of ≥ {k} nodes …"):
        gen = supernode_generalize(read.graph, k, steps=steps, seed=rng)
        drawn = None if sample is None else sample_graph(gen, seed=rng)
    targets = [p for p in (output, sample, mapping) if p is not None]
    with atomic_paths(targets) as paths:
        where = dict(zip(map(str, targets), paths, strict=True))
        Path(where[str(output)]).write_text(strict_json.dumps(gen.release()) + "\n",
                                            encoding="utf-8")  # fmt: skip
        if drawn is not None:
            plain = Graph(drawn.indptr, drawn.indices, False)
            write_graph(plain, where[str(sample)], header="privlab graph generalize --sample",
                        named=sample)  # fmt: skip
        if mapping is not None:
            labels = read.graph.labels
            nodes = labels if labels is not None else np.arange(read.graph.n_nodes)
            write_table(pl.DataFrame({"original": nodes, "supernode": gen.assignment}),
                        where[str(mapping)])  # fmt: skip
    summary: dict[str, Any] = {"input": str(input), "output": str(output), **gen.to_dict()}
    if sample is not None:
        summary["sample"] = str(sample)
    if mapping is not None:
        summary["mapping"] = str(mapping)
    if json_out:
        print_json(summary)
        return
    grid = Table(title=f"{input} → {output} (supernodes, k = {k})", show_header=False)
    for key in ("supernodes", "min_size", "max_size", "superedges", "edges", "log_worlds",
                "log_worlds_start"):  # fmt: skip
        grid.add_row(key, f"{summary[key]:.6g}" if isinstance(summary[key], float)
                     else str(summary[key]))  # fmt: skip
    _console(output).print(grid)
