"""``privlab dp node-degrees``: a degree histogram of a graph with node-level DP.

Every degree is first projected to at most ``--theta`` (edge-addition projection in the
order of the node ids), then each of the θ + 1 bins gets geometric noise of scale
(2θ + 1)/ε.  The command prints no exact figure of the graph (node or edge counts).
"""

from __future__ import annotations

from pathlib import Path

import typer

from privlab.cli.common import Quiet, exits_on_bad_input, note, out_console, print_json, spinner
from privlab.cli.dp import SEED_HELP, app
from privlab.errors import ConfigError


@app.command("node-degrees")
@exits_on_bad_input
def node_degrees(
    input: Path = typer.Argument(..., help="Graph file: an edge list, GraphML or GML."),
    theta: int = typer.Option(
        ..., "--theta", help="Degree bound θ, from public knowledge (higher degrees are cut)."
    ),
    epsilon: float = typer.Option(..., "--epsilon", "-e", help="ε of the release."),
    seed: int | None = typer.Option(None, "--seed", help=SEED_HELP.format("noise")),
    json_out: bool = typer.Option(False, "--json", help="Print the histogram as JSON."),
    quiet: Quiet = False,
) -> None:
    """Release a degree histogram with node-level differential privacy.

    One person's node and all their edges are protected. Degrees are projected to at most
    --theta first, so the noise stays bounded (scale (2θ + 1)/ε per bin).
    """
    import numpy as np

    from privlab.dp.accountant import check_epsilon
    from privlab.dp.node_dp import node_dp_degree_histogram
    from privlab.graph.core import read_graph
    from privlab.validate import check_int

    eps = check_epsilon(epsilon, "--epsilon")
    t = check_int(theta, "--theta", 1)
    if t > 100_000:
        raise ConfigError(f"--theta = {theta}: at most 100000 (the histogram has θ + 1 bins)")
    with spinner(f"reading {input.name} …"):
        read = read_graph(input)
    if read.report.warnings():
        note(f"{input}: self-loops or repeated edges were removed before the release")
    labels = np.asarray(read.graph.labels).astype(str)
    rank = np.argsort(np.argsort(labels, kind="stable"), kind="stable")  # order of the ids
    release = node_dp_degree_histogram(read.graph, t, eps, rank=rank, seed=seed)
    payload = {"input": str(input), **release.to_dict()}
    if json_out:
        print_json(payload)
    else:
        out_console.print(f"node-DP degree histogram (θ = {t}, ε = {eps:g}):")
        for degree, count in enumerate(np.asarray(release.value).tolist()):
            out_console.print(f"  degree {degree}{'+' if degree == t else ''}: {count}")
    if seed is not None:
        note("--seed given: the noise is reproducible, hence NOT private.", "warning")
