"""``privlab graph attack sh``: the Srivatsa–Hicks attack on a pair folder.

``propagate``'s shell (through :func:`~privlab.cli.graph_seeded._run`: the same seeding
options, ``-o`` mapping CSV, ``--json`` and ``--quiet``) around
:func:`privlab.graph.attacks.srivatsa_hicks.srivatsa_hicks`, with ``--variant
distance-vector`` (SecGraph's DV, the variant of Sharad's Table 5.9), ``spanning-tree`` or
``subgraph``.  Listed in :data:`privlab.cli.graph_commands.ATTACKS`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from privlab.cli.common import Quiet, exits_on_bad_input
from privlab.cli.graph_attack import (
    DISCOVER_OPT,
    JSON_HELP,
    MAPPING_OUT_OPT,
    PAIR_DIR_ARG,
    SEEDS_FILE_OPT,
    SEEDS_OPT,
)
from privlab.cli.graph_seeded import DV_BLOCK_OPT, DV_KEEP_OPT, DV_MODE_OPT, _run


@exits_on_bad_input
def sh(
    pair_dir: Path = PAIR_DIR_ARG,
    seeds: int | None = SEEDS_OPT,
    seeds_file: Path | None = SEEDS_FILE_OPT,
    discover: int | None = DISCOVER_OPT,
    variant: str = typer.Option(
        "distance-vector",
        "--variant",
        help="distance-vector (SecGraph's DV, the variant Sharad's thesis ranks), "
        "spanning-tree (random shortest-path trees from the landmarks aligned by tree edit "
        "distance) or subgraph (recursive subgraph matching from the landmarks).",
    ),
    trees: int = typer.Option(
        4, "--trees", min=1, help="spanning-tree: tree pairs drawn and aligned (SecGraph's -n)."
    ),
    max_nodes: int = typer.Option(
        5000,
        "--max-nodes",
        min=1,
        help="spanning-tree: refuse trees of more nodes — a graph's component, or --tree-nodes "
        "(one tree edit distance takes about 20·n1·n2 bytes and time growing as n1·n2·depth²).",
    ),
    tree_nodes: int | None = typer.Option(
        None,
        "--tree-nodes",
        min=1,
        help="spanning-tree: cut each tree to its N nodes nearest the landmark (whole levels "
        "outwards, the last one by decreasing degree); the edit distance then costs at most "
        "about N²·depth² instead of n1·n2·depth² (default: whole trees).",
    ),
    min_common: int = typer.Option(
        2, "--min-common", min=1, help="subgraph: mapped neighbours a pair must share."
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="spanning-tree: seed of the random trees (default: fresh)."
    ),
    block: int = DV_BLOCK_OPT,  # distance-vector only, as `graph attack dv`
    keep: int = DV_KEEP_OPT,
    mode: str = DV_MODE_OPT,
    output: Path | None = MAPPING_OUT_OPT,
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Srivatsa–Hicks: landmarks (the seeds), then one of three structural mappings.

    distance-vector matches nodes by their hop distances to the landmarks (as `graph attack
    dv`); spanning-tree aligns random shortest-path trees grown from a landmark in each
    graph by their tree edit distance and keeps the closest alignment; subgraph grows the
    mapping from the landmarks, always adding the pair that keeps the most edges and breaks
    the fewest between the mapped nodes.  The result is scored against truth.csv.
    """
    from privlab.graph.attacks.distance_vector import MODES
    from privlab.graph.attacks.srivatsa_hicks import VARIANTS, srivatsa_hicks
    from privlab.validate import check_choice

    check_choice(variant, "--variant", VARIANTS)
    check_choice(mode, "--mode", MODES)
    settings = {
        "distance-vector": ("variant", "block", "keep", "mode"),
        "spanning-tree": ("variant", "trees", "tree_nodes", "tree_distance"),
        "subgraph": ("variant", "min_common"),
    }[variant]

    def attack(g1, g2, s, **kw):
        return srivatsa_hicks(g1, g2, s, variant=variant, trees=trees, min_common=min_common,
                              seed=seed, block=block, keep=keep, mode=mode,
                              max_nodes=max_nodes, tree_nodes=tree_nodes, **kw)  # fmt: skip

    unit = "‰ of the tree pairs aligned" if variant == "spanning-tree" else "aux nodes mapped"
    _run(f"Srivatsa–Hicks {variant}", attack, settings, pair_dir,
         (seeds, seeds_file, discover), output, json_out, unit=unit)  # fmt: skip
