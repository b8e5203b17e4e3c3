"""``privlab graph attack kl|dv|yg``: the seed-based matching attacks on a pair folder.

Each command is ``propagate``'s shell around another library function, with the same
seeding options (``--seeds N`` / ``--seeds-file`` / ``--discover N``, through
:func:`~privlab.cli.graph_attack.seeded_inputs`), the same ``-o`` mapping CSV, ``--json``
and ``--quiet``:

* ``kl`` — Korula–Lattanzi reconciliation (:mod:`privlab.graph.attacks.reconciliation`)
* ``dv`` — SecGraph's distance vector (:mod:`privlab.graph.attacks.distance_vector`)
* ``yg`` — Yartseva–Grossglauser percolation (:mod:`privlab.graph.attacks.percolation`)

Listed in :data:`privlab.cli.graph_commands.ATTACKS`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from privlab.cli.common import Quiet, exits_on_bad_input, progress_bar, summary_console
from privlab.cli.graph_attack import (
    DISCOVER_OPT,
    JSON_HELP,
    MAPPING_OUT_OPT,
    PAIR_DIR_ARG,
    SEEDS_FILE_OPT,
    SEEDS_OPT,
    _summary_table,
    emit,
    seeded_inputs,
    write_mapping,
)

_SHOWN = ("mapped", "correct", "wrong", "true_pairs", "accuracy", "coverage", "rounds", "seconds")


def _run(
    title: str,
    attack: Callable[..., Any],
    settings: tuple[str, ...],
    pair_dir: Path,
    seeding_options: tuple[int | None, Path | None, int | None],
    output: Path | None,
    json_out: bool,
    *,
    unit: str = "aux nodes mapped",
    inputs: tuple[Any, Any, dict[str, Any]] | None = None,
) -> None:
    """Seeds, the attack (``attack(aux, san, seed_pairs, truth=…, progress=…)``), the
    mapping CSV and the summary — the same steps and payload as ``propagate``.  ``unit``: what
    the progress bar counts; ``inputs``: (pair, seed pairs, seeding summary) already made by
    the caller (``seeding_options`` are then not used)."""
    pair, seed_pairs, seeding = inputs or seeded_inputs(pair_dir, *seeding_options, output,
                                                        json_out)  # fmt: skip
    with progress_bar(f"{title} from {seed_pairs.shape[0]} seeds", unit) as bar:
        result = attack(pair.aux, pair.san, seed_pairs, truth=pair.truth_array(), progress=bar)
    payload = {"pair": str(pair_dir), "seeding": seeding, **result.to_dict()}
    write_mapping(result.pairs(), output, payload)
    emit(payload, json_out, lambda p: _summary_table(
        f"{p['pair']}: {title} from {p['seeding']['seeds']} {p['seeding']['kind']} seeds",
        p, (*settings, *_SHOWN)), summary_console(output))  # fmt: skip


@exits_on_bad_input
def kl(
    pair_dir: Path = PAIR_DIR_ARG,
    seeds: int | None = SEEDS_OPT,
    seeds_file: Path | None = SEEDS_FILE_OPT,
    discover: int | None = DISCOVER_OPT,
    threshold: int = typer.Option(
        2, "--threshold", "-T", min=1, help="Fewest similarity witnesses for a match (paper)."
    ),
    iterations: int | None = typer.Option(
        None, "--iterations", min=1, help="Sweeps over the degree buckets (default: until stable)."
    ),
    variant: str = typer.Option(
        "paper", "--variant", help="paper (Korula–Lattanzi's Algorithm 1) or secgraph."
    ),
    window: int = typer.Option(
        50, "--window", min=1, help="secgraph: nodes compared per side (SecGraph's -nTest)."
    ),
    output: Path | None = MAPPING_OUT_OPT,
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Korula–Lattanzi reconciliation: match the pairs with the most common mapped neighbours.

    From the seeds, by decreasing degree buckets (degree ≥ 2^j), every pair that has more
    similarity witnesses (mapped neighbour pairs) than any other pair of either node, and
    at least --threshold of them, is matched; sweeps repeat until nothing changes.
    --variant secgraph runs SecGraph's `Reconciliation` instead (every node gets matched).
    The result is scored against truth.csv.
    """
    from privlab.graph.attacks.reconciliation import VARIANTS, reconcile
    from privlab.validate import check_choice

    check_choice(variant, "--variant", VARIANTS)
    settings = ("variant", "window") if variant == "secgraph" else ("variant", "threshold")

    def attack(g1, g2, s, **kw):
        return reconcile(g1, g2, s, threshold=threshold, iterations=iterations,
                         variant=variant, window=window, **kw)  # fmt: skip

    _run("KL reconciliation", attack, settings, pair_dir, (seeds, seeds_file, discover),
         output, json_out)  # fmt: skip


DV_BLOCK_OPT = typer.Option(
    100, "--block", min=1, help="Nodes per side in one assignment (SecGraph's -bSize)."
)
DV_KEEP_OPT = typer.Option(
    10, "--keep", min=1, help="Best pairs matched per block (SecGraph's -nKeep), ≤ --block."
)
DV_MODE_OPT = typer.Option(
    "queue", "--mode", help="Where unmatched nodes go back: queue (end) or stack (front)."
)


@exits_on_bad_input
def dv(
    pair_dir: Path = PAIR_DIR_ARG,
    seeds: int | None = SEEDS_OPT,
    seeds_file: Path | None = SEEDS_FILE_OPT,
    discover: int | None = DISCOVER_OPT,
    block: int = DV_BLOCK_OPT,
    keep: int = DV_KEEP_OPT,
    mode: str = DV_MODE_OPT,
    ties: str = typer.Option(
        "degree",
        "--ties",
        help="Pairs of equal cosine: degree (the pair whose degrees agree best wins, in the "
        "assignment and among the pairs kept) or none (left to the solver and queue order).",
    ),
    output: Path | None = MAPPING_OUT_OPT,
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Distance vector (SecGraph's DV): match nodes by their distances to the seeds.

    Each node's vector of hop distances to the seeds is compared by cosine similarity;
    the unmatched nodes, by decreasing degree, are matched --block at a time by an optimal
    assignment, keeping the --keep most similar pairs of each.  Every node of the smaller
    graph ends up matched.  The result is scored against truth.csv.
    """
    from privlab.graph.attacks.distance_vector import MODES, TIES, distance_vector
    from privlab.validate import check_choice

    check_choice(mode, "--mode", MODES)
    check_choice(ties, "--ties", TIES)

    def attack(g1, g2, s, **kw):
        return distance_vector(g1, g2, s, block=block, keep=keep, mode=mode, ties=ties, **kw)

    _run("distance vector", attack, ("block", "keep", "mode", "ties"), pair_dir,
         (seeds, seeds_file, discover), output, json_out)  # fmt: skip


@exits_on_bad_input
def yg(
    pair_dir: Path = PAIR_DIR_ARG,
    seeds: int | None = SEEDS_OPT,
    seeds_file: Path | None = SEEDS_FILE_OPT,
    discover: int | None = DISCOVER_OPT,
    r: int = typer.Option(2, "--r", "-r", min=1, help="Marks (matched neighbour pairs) needed."),
    order: str = typer.Option(
        "most-marks",
        "--order",
        help="Which pair with --r marks is matched next: most-marks (the one with the most "
        "marks, deterministic; Kazemi et al. 2015) or random (the COSN 2013 paper's PGM).",
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        help="--order random: seed of the order, for reproducible runs (default: fresh).",
    ),
    output: Path | None = MAPPING_OUT_OPT,
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Yartseva–Grossglauser percolation graph matching.

    Every matched pair gives a mark to each pair of its neighbours; a pair with --r marks
    is matched in turn (by default the one with the most marks first; --order random: in
    a random order; a pair whose node is taken is dropped), until no pair is left.  The
    result is scored against truth.csv.
    """
    from privlab.graph.attacks.percolation import ORDERS, percolate
    from privlab.validate import check_choice

    check_choice(order, "--order", ORDERS)

    def attack(g1, g2, s, **kw):
        return percolate(g1, g2, s, r=r, order=order, seed=seed, **kw)

    _run("percolation", attack, ("r", "order"), pair_dir, (seeds, seeds_file, discover), output,
         json_out)  # fmt: skip
