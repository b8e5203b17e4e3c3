"""``privlab graph attack errors PAIR MAPPING``: why a de-anonymization mapping is wrong where
it is wrong (:mod:`privlab.graph.attacks.mapping_errors`, Sharad's error proximity and 2-hop
overlap).  Listed in :data:`privlab.cli.graph_commands.ATTACKS`; writes no file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Group
from rich.table import Table

from privlab.cli.common import Quiet, exits_on_bad_input, spinner
from privlab.cli.graph_attack import JSON_HELP, emit, read_id_pairs, read_pair_dir


@exits_on_bad_input
def errors(
    pair_dir: Path = typer.Argument(
        ..., metavar="PAIR", help="The pair folder the mapping was made on (`graph pair`)."
    ),
    mapping: Path = typer.Argument(
        ..., metavar="MAPPING", help="The attack's output: a CSV aux,san (`graph attack … -o`)."
    ),
    seeds_file: Path | None = typer.Option(
        None,
        "--seeds-file",
        help="The seed pairs the attack was given (CSV aux,san): left "
        "out of both measures, as they were not found by the attack (default: none, the "
        "seeds in the mapping count as correct outputs).",
    ),
    max_hops: int = typer.Option(
        6, "--max-hops", min=1, help="Distances beyond this are counted as 'farther'."
    ),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Error proximity and 2-hop overlap of a mapping (Sharad's thesis, chapters 3 and 5).

    Proximity: the two graphs are merged on their common nodes and, for every output pair,
    the shortest-path length between its two nodes is counted (0 = correct; a wrong match
    at distance 2 is a friend of a friend of the true person). Overlap: the Jaccard
    coefficient of each true pair's 2-hop neighbourhoods, by what the attack did with the
    pair (correct, wrong, not mapped) — how much of a person's surroundings survived
    decides whether an attack can find them.
    """
    from privlab.graph.attacks.mapping_errors import mapping_errors

    pair = read_pair_dir(pair_dir)
    pairs = read_id_pairs(mapping, pair.aux.n_nodes, pair.san.n_nodes)
    seeds = None
    if seeds_file is not None:
        seeds = read_id_pairs(seeds_file, pair.aux.n_nodes, pair.san.n_nodes)
    with spinner("measuring distances and overlaps …"):
        found = mapping_errors(
            pair.aux, pair.san, pair.truth_array(), pairs, seeds=seeds, max_hops=max_hops
        )
    payload = {"pair": str(pair_dir), "mapping": str(mapping), **found.to_dict()}
    emit(payload, json_out, _tables)


def _tables(p: dict[str, Any]) -> Group:
    prox = Table(title=f"error proximity of {p['outputs']} output pairs (distance in G_comp)")
    prox.add_column("distance")
    prox.add_column("pairs", justify="right")
    prox.add_column("%", justify="right")
    total = max(p["outputs"], 1)
    for d, c in p["proximity"].items():
        label = "0 (correct)" if d == "0" else (f"> {p['max_hops']}" if d == "farther" else d)
        prox.add_row(label, str(c), f"{100 * c / total:.1f}")
    over = Table(title="2-hop neighbourhood overlap (Jaccard) of the true pairs, by outcome")
    bands = list(next(iter(p["overlap"].values()))["bands"])
    for col in ("outcome", "pairs", "mean", "median", *bands):
        over.add_column(col, justify="left" if col == "outcome" else "right")
    for name, o in p["overlap"].items():
        mean = "—" if o["mean"] is None else f"{o['mean']:.3f}"
        median = "—" if o["median"] is None else f"{o['median']:.3f}"
        over.add_row(name, str(o["pairs"]), mean, median, *(str(o["bands"][b]) for b in bands))
    return Group(prox, over)
