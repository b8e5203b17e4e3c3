"""``privlab graph attack pfg``: seedless Bayesian matching (Pedarsani–Figueiredo–Grossglauser).

The shell around :func:`privlab.graph.attacks.pfg.pfg`: a pair folder as ``propagate``
reads it, no seeds, the same ``-o`` mapping CSV, ``--json`` and ``--quiet``, scored against
truth.csv.  Listed in :data:`privlab.cli.graph_commands.ATTACKS`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from privlab.cli.common import (
    Quiet,
    exits_on_bad_input,
    guard_outputs,
    progress_bar,
    summary_console,
)
from privlab.cli.graph_attack import (
    JSON_HELP,
    MAPPING_OUT_OPT,
    PAIR_DIR_ARG,
    _summary_table,
    emit,
    read_pair_dir,
    write_mapping,
)
from privlab.io.outputs import Input, Output

_SHOWN = ("mapped", "correct", "wrong", "true_pairs", "accuracy", "coverage", "rounds", "seconds")


@exits_on_bad_input
def pfg(
    pair_dir: Path = PAIR_DIR_ARG,
    s: float = typer.Option(
        0.9, "--s", help="The model's edge-keeping probability, 0 < s ≤ 1 (paper variant)."
    ),
    variant: str = typer.Option(
        "paper", "--variant", help="paper (the Bayesian posterior) or secgraph (its cosine rule)."
    ),
    weight: str = typer.Option(
        "log-likelihood",
        "--weight",
        help="paper: what the assignment maximizes, log-likelihood (ratio) or posterior.",
    ),
    landmarks: str = typer.Option(
        "rechosen",
        "--landmarks",
        help="paper: landmarks rechosen each round (the best half) or fixed once mapped.",
    ),
    output: Path | None = MAPPING_OUT_OPT,
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """PFG: seedless Bayesian matching by degree and landmark-distance fingerprints.

    In rounds over the 2, 4, 8, … highest-degree nodes of each graph, every pair gets the
    posterior probability of being the same node given its degrees and its distances to
    the landmarks (pairs mapped in the round before, the most probable half); an optimal
    assignment maps them.  The last round maps every node of the smaller graph.  No seeds
    are needed.  --variant secgraph runs SecGraph's `Bayesian` (cosine similarity) rule.
    The result is scored against truth.csv.
    """
    from privlab.graph.attacks.pfg import LANDMARKS, VARIANTS, WEIGHTS
    from privlab.graph.attacks.pfg import pfg as run_pfg
    from privlab.validate import check_choice, check_fraction

    check_choice(variant, "--variant", VARIANTS)
    check_choice(weight, "--weight", WEIGHTS)
    check_choice(landmarks, "--landmarks", LANDMARKS)
    check_fraction(s, "--s", hint="the probability that the model keeps an edge")
    guard_outputs(
        [Output(output, "-o", stdout_ok=True)], [Input(pair_dir, unit=True)], json_out=json_out
    )
    pair = read_pair_dir(pair_dir)
    with progress_bar("PFG matching without seeds", "aux nodes mapped") as bar:
        result = run_pfg(pair.aux, pair.san, s=s, variant=variant, weight=weight,
                         landmarks=landmarks, truth=pair.truth_array(), progress=bar)  # fmt: skip
    payload = {"pair": str(pair_dir), "seeding": {"kind": "none", "seeds": 0}, **result.to_dict()}
    write_mapping(result.pairs(), output, payload)
    settings = ("variant", "s", "weight", "landmarks") if variant == "paper" else ("variant",)
    emit(payload, json_out, lambda p: _summary_table(
        f"{p['pair']}: PFG without seeds", p, (*settings, *_SHOWN)),
        summary_console(output))  # fmt: skip
