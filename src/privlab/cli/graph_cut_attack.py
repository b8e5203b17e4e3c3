"""``privlab graph attack cut``: Backstrom, Dwork & Kleinberg's cut-based active attack
(:mod:`privlab.graph.attacks.cut`), beside the walk-based ``graph attack active``.
Listed in :data:`privlab.cli.graph_commands.ATTACKS`."""

from __future__ import annotations

from pathlib import Path

import typer

from privlab.cli.common import Quiet, exits_on_bad_input, spinner
from privlab.cli.graph_attack import JSON_HELP, emit_sybil_runs, read_input


@exits_on_bad_input
def cut(
    input: Path = typer.Argument(..., help="The graph before its release (edge list)."),
    targets: int = typer.Option(4, "--targets", "-t", min=1, help="Targets per run (b)."),
    k: int | None = typer.Option(
        None, "--k", "-k", min=2, help="Sybils to plant (default 3b + 3, as in the paper)."
    ),
    trials: int = typer.Option(
        1, "--trials", "-r", min=1, help="Independent runs (new sybils, targets, release)."
    ),
    max_draws: int = typer.Option(
        200,
        "--max-draws",
        min=1,
        help="Redraw the sybil subgraph until its edge connectivity exceeds b and it has no "
        "symmetry, at most this many times (1: the single random draw).",
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Fixed seed, for reproducible runs (default: fresh randomness)."
    ),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Backstrom et al.'s cut-based attack: plant a small random subgraph joined to the
    targets by one edge each, release naively, find it by its small cut (flow-equivalent /
    Gomory–Hu tree) and read off the targets.
    """
    from privlab.dp.noise import secure_generator
    from privlab.errors import ConfigError
    from privlab.graph.attacks.cut import cut_attack

    graph = read_input(input).graph
    if targets > graph.n_nodes:
        raise ConfigError(f"--targets {targets}: the graph has only {graph.n_nodes} nodes")
    if k is not None and k < targets:
        raise ConfigError(f"--k {k}: each of the {targets} targets needs its own sybil; "
                          f"give --k ≥ {targets}")  # fmt: skip
    rng = secure_generator(seed)
    runs = []
    with spinner("cut-based attack …") as status:
        for r in range(trials):
            status(f"cut-based attack: run {r + 1}/{trials} …")
            runs.append(cut_attack(graph, targets, k=k, max_draws=max_draws, seed=rng))
    emit_sybil_runs(input, graph, runs, targets, seed, json_out, "cut-based attack")
