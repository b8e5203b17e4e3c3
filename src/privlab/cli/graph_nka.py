"""``privlab graph attack nka``: Nilizadeh et al.'s community-enhanced de-anonymization.

``propagate``'s shell around :func:`privlab.graph.attacks.nka.nka`: the same seeding options
(``--seeds N`` / ``--seeds-file`` / ``--discover N`` / ``--discover-clique K``, through
:func:`~privlab.cli.graph_attack.seeded_inputs`) plus ``--seed-cliques N``, the authors' seed
model (N known 4-cliques with their true counterparts); the same ``-o`` mapping CSV,
``--json`` and ``--quiet``.  Listed in :data:`privlab.cli.graph_commands.ATTACKS`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import typer

from privlab.cli import graph_attack as ga
from privlab.cli.common import Quiet, exits_on_bad_input
from privlab.cli.graph_seeded import _run
from privlab.errors import ConfigError

_SHOWN = (
    "method",
    "theta",
    "enrich",
    "communities1",
    "communities2",
    "communities_mapped",
    "communities_correct",
    "before_global",
)  # then _run's own: mapped, correct, …


def _clique_seeding(
    pair_dir: Path, n_cliques: int, seed: int, others: tuple[Any, ...], output, json_out
) -> tuple[Any, np.ndarray, dict[str, Any]]:
    """``--seed-cliques N``: refuse another seeding, then check and read as seeded_inputs."""
    from privlab.graph.attacks.nka import clique_seeds
    from privlab.io.outputs import Input, Output

    if any(v is not None for v in others):
        raise ConfigError(
            "give one way to seed: --seed-cliques N or one of --seeds, --seeds-file, "
            "--discover, --discover-clique (got --seed-cliques and another)"
        )
    ga.guard_outputs([Output(output, "-o", stdout_ok=True)], [Input(pair_dir, unit=True)],
                  json_out=json_out)  # fmt: skip
    pair = ga.read_pair_dir(pair_dir)
    truth = pair.truth_array()
    _, pairs = clique_seeds(pair.aux, truth, n_cliques, seed=seed)
    seeding = {"kind": "4-cliques", "cliques": n_cliques, "seeds": int(pairs.shape[0]),
               "seeds_correct": int(pairs.shape[0])}  # fmt: skip
    return pair, pairs, seeding


@exits_on_bad_input
def nka_command(
    pair_dir: Path = ga.PAIR_DIR_ARG,
    seeds: int | None = ga.SEEDS_OPT,
    seeds_file: Path | None = ga.SEEDS_FILE_OPT,
    discover: int | None = ga.DISCOVER_OPT,
    discover_clique: int | None = ga.DISCOVER_CLIQUE_OPT,
    clique_tolerance: float = ga.CLIQUE_TOLERANCE_OPT,
    seed_cliques: int | None = typer.Option(
        None,
        "--seed-cliques",
        min=1,
        help="Seed with N random disjoint 4-cliques of aux nodes and their true matches "
        "(the authors' seed model: 4·N seeds).",
    ),
    communities: str = typer.Option(
        "infomap", "--communities", help="Community detection: infomap (the authors') or louvain."
    ),
    trials: int = typer.Option(10, "--trials", min=1, help="Infomap trials (igraph)."),
    theta: float = typer.Option(
        0.1, "--theta", min=0.0, help="Node eccentricity threshold θ ≥ 0 (NS and enrichment)."
    ),
    community_theta: float = typer.Option(
        0.0, "--community-theta", min=0.0, help="Eccentricity threshold of community matching."
    ),
    enrich: bool = typer.Option(
        False,
        "--enrich/--no-enrich",
        help="Also add seeds inside matched communities by degree and clustering (the "
        "authors' code; off: it costs accuracy).",
    ),
    seed: int = typer.Option(
        0, "--seed", help="Seed of the community detection and of --seed-cliques."
    ),
    output: Path | None = ga.MAPPING_OUT_OPT,
    json_out: bool = typer.Option(False, "--json", help=ga.JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Community-enhanced de-anonymization (Nilizadeh, Kapadia & Ahn, CCS 2014).

    Both graphs are split into communities; the seeds map their communities, and the
    other communities are matched by propagation on the community graphs.  Inside each
    matched pair of communities, nodes are matched by Narayanan–Shmatikov propagation
    from the seeds there; finally propagation runs over the whole graphs from every pair
    found.  The result is scored against truth.csv.
    """
    from privlab.graph.attacks.nka import METHODS, nka
    from privlab.validate import check_choice

    check_choice(communities, "--communities", METHODS)
    if seed_cliques is not None:
        inputs = _clique_seeding(
            pair_dir,
            seed_cliques,
            seed,
            (seeds, seeds_file, discover, discover_clique),
            output,
            json_out,
        )
    else:
        inputs = ga.seeded_inputs(
            pair_dir,
            seeds,
            seeds_file,
            discover,
            output,
            json_out,
            discover_clique,
            clique_tolerance,
        )

    def attack(g1, g2, s, **kw):
        return nka(
            g1,
            g2,
            s,
            theta=theta,
            community_theta=community_theta,
            method=communities,
            enrich=enrich,
            seed=seed,
            trials=trials,
            **kw,
        )

    _run("NKA", attack, _SHOWN, pair_dir, (seeds, seeds_file, discover), output, json_out,
         inputs=inputs)  # fmt: skip
