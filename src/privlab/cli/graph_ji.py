"""``privlab graph attack jls|jlsb``: Ji et al.'s structural attacks on a pair folder.

* ``jls`` — JLS+ (Ji, Li, Srivatsa, He & Beyah, ISC 2014), seeded, variants isc / adaptive
  and SecGraph's two (:func:`privlab.graph.attacks.ji.jls`);
* ``jlsb`` — JLSB (Ji, Li, Srivatsa & Beyah, CCS 2014), seedless unless seeds are given
  (:func:`privlab.graph.attacks.ji.jlsb`).

Seeding options, ``-o``, ``--json`` and ``--quiet`` as ``propagate``.  ``jls`` may read the
closeness and betweenness of both graphs from centrality files in SNAP's / SecGraph's
format (``--aux-centrality``/``--san-centrality``), so that both tools can be given the same
numbers; without them it computes them (igraph).  Listed in
:data:`privlab.cli.graph_commands.ATTACKS`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import typer

from privlab.cli.common import (
    Quiet,
    exits_on_bad_input,
    guard_outputs,
    progress_bar,
    summary_console,
)
from privlab.cli.graph_attack import (
    DISCOVER_OPT,
    JSON_HELP,
    MAPPING_OUT_OPT,
    PAIR_DIR_ARG,
    SEEDS_FILE_OPT,
    SEEDS_OPT,
    _summary_table,
    emit,
    read_pair_dir,
    write_mapping,
)
from privlab.cli.graph_seeded import _SHOWN, DV_BLOCK_OPT, DV_KEEP_OPT, DV_MODE_OPT, _run
from privlab.errors import InputError
from privlab.io.outputs import Input, Output


def _weight(default: float, flag: str, what: str) -> Any:
    return typer.Option(default, flag, min=0.0, help=f"Weight of the {what} similarity.")


def read_centrality(path: Path, n: int, graph: str) -> np.ndarray:
    """(n × 2) closeness and betweenness from a SNAP / SecGraph centrality file: tab- or
    space-separated lines ``node degree closeness betweenness ...``, '#' lines skipped, every
    node 0..n−1 exactly once.  Errors name the line.  O(n)."""
    out = np.full((n, 2), np.nan)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file; give a centrality file") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or "#" in line:
            continue
        parts = line.split()
        where = f"{path}, line {number}"
        if len(parts) < 4:
            raise InputError(
                f"{where}: {len(parts)} fields; give node, degree, closeness, betweenness"
            )
        try:
            node = int(parts[0])
            values = (float(parts[2]), float(parts[3]))
        except ValueError:
            raise InputError(
                f"{where}: {line.strip()[:60]!r} is not 'node degree closeness betweenness' "
                "with an integer node and numbers"
            ) from None
        if not 0 <= node < n:
            raise InputError(f"{where}: node {node} is not in {graph} (nodes 0..{n - 1})")
        if not all(math.isfinite(v) and v >= 0 for v in values):
            raise InputError(f"{where}: closeness and betweenness must be finite and ≥ 0")
        if not np.isnan(out[node, 0]):
            raise InputError(f"{where}: node {node} is listed twice")
        out[node] = values
    missing = np.flatnonzero(np.isnan(out[:, 0]))
    if missing.size:
        raise InputError(
            f"{path}: no line for node {int(missing[0])} of {graph} ({missing.size} nodes "
            f"missing); give every node 0..{n - 1}"
        )
    return out


@exits_on_bad_input
def jls_command(
    pair_dir: Path = PAIR_DIR_ARG,
    seeds: int | None = SEEDS_OPT,
    seeds_file: Path | None = SEEDS_FILE_OPT,
    discover: int | None = DISCOVER_OPT,
    variant: str = typer.Option(
        "adaptive",
        "--variant",
        help="adaptive (ADA: 2-hop candidates, the variant Sharad's thesis compares), isc "
        "(DA: all nodes), secgraph or secgraph-adaptive (what SecGraph's SJISC2014 / "
        "SJISCA2014 compute: no inherited similarity).",
    ),
    block: int = DV_BLOCK_OPT,
    keep: int = DV_KEEP_OPT,
    mode: str = DV_MODE_OPT,
    distance_weight: float = _weight(0.8, "--distance-weight", "seed-distance"),
    structure_weight: float = _weight(
        0.1, "--structure-weight", "structural (closeness, betweenness, degree)"
    ),
    inherit_weight: float = _weight(0.1, "--inherit-weight", "inherited (matched neighbours)"),
    aux_centrality: Path | None = typer.Option(
        None,
        "--aux-centrality",
        help="Closeness and betweenness of aux.txt's nodes (SNAP/SecGraph centrality file: "
        "node, degree, closeness, betweenness); default: computed.",
    ),
    san_centrality: Path | None = typer.Option(
        None, "--san-centrality", help="The same for san.txt (give both or neither)."
    ),
    output: Path | None = MAPPING_OUT_OPT,
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """JLS+ (Ji et al., ISC 2014): match by seed distances, centralities and matched neighbours.

    Every pair's similarity is a weighted sum of the cosine of the two nodes' hop distances
    to the seeds, the cosine of their (closeness, betweenness, degree), and the score they
    inherit from matched neighbour pairs.  The unmatched nodes, by decreasing degree, are
    matched --block at a time by an optimal assignment, keeping the --keep most similar
    pairs of each; --variant adaptive takes the candidates from the 2-hop neighbourhood of
    the matched nodes, round after round.  The result is scored against truth.csv.
    """
    from privlab.errors import ConfigError
    from privlab.graph.attacks.ji import JLS_VARIANTS, MODES, jls
    from privlab.validate import check_choice

    check_choice(variant, "--variant", JLS_VARIANTS)
    check_choice(mode, "--mode", MODES)
    if (aux_centrality is None) != (san_centrality is None):
        raise ConfigError("--aux-centrality and --san-centrality go together: give both or neither")
    guard_outputs([Output(output, "-o", stdout_ok=True)],
                  [Input(pair_dir, unit=True), aux_centrality, san_centrality])  # fmt: skip

    def attack(g1, g2, s, **kw):
        centrality = None
        if aux_centrality is not None and san_centrality is not None:
            centrality = (read_centrality(aux_centrality, g1.n_nodes, "aux.txt"),
                          read_centrality(san_centrality, g2.n_nodes, "san.txt"))  # fmt: skip
        return jls(g1, g2, s, variant=variant, block=block, keep=keep, mode=mode,
                   distance_weight=distance_weight, structure_weight=structure_weight,
                   inherit_weight=inherit_weight, centrality=centrality, **kw)  # fmt: skip

    _run("JLS+", attack, ("variant", "block", "keep", "mode"), pair_dir,
         (seeds, seeds_file, discover), output, json_out)  # fmt: skip


@exits_on_bad_input
def jlsb_command(
    pair_dir: Path = PAIR_DIR_ARG,
    seeds: int | None = typer.Option(
        None,
        "--seeds",
        min=1,
        help="Seed with the N top-degree aux nodes and their true match (default: no seeds).",
    ),
    seeds_file: Path | None = SEEDS_FILE_OPT,
    discover: int | None = DISCOVER_OPT,
    block: int = DV_BLOCK_OPT,
    keep: int = DV_KEEP_OPT,
    mode: str = DV_MODE_OPT,
    degree_weight: float = _weight(0.1, "--degree-weight", "degree"),
    neighbour_weight: float = _weight(0.1, "--neighbour-weight", "neighbours' degrees"),
    distance_weight: float = _weight(0.8, "--distance-weight", "landmark-distance"),
    neighbours: int = typer.Option(
        10, "--neighbours", min=1, help="Neighbour degrees compared (SecGraph's -nNei)."
    ),
    landmarks: int = typer.Option(
        50, "--landmarks", min=1, help="Without seeds: the first matched pairs made landmarks."
    ),
    order: str = typer.Option(
        "structure",
        "--order",
        help="Equal degrees in the queues: structure (by the sum of the compared neighbour "
        "degrees, then id) or id (the former rule).",
    ),
    output: Path | None = MAPPING_OUT_OPT,
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """JLSB (Ji et al., CCS 2014): seedless matching by degrees and distances to landmarks.

    Every pair's similarity is a weighted sum of a degree similarity, the cosine of the
    degrees of the two nodes' highest-degree neighbours, and the cosine of their hop
    distances to landmarks.  Without seeds (the paper's cold start) the first matched pairs
    become the landmarks; with --seeds / --seeds-file / --discover the seeds are (as in
    SecGraph's SJCCS2014).  Nodes are matched --block at a time by decreasing degree (equal
    degrees by --order), keeping the --keep most similar pairs of each assignment.  The
    result is scored against truth.csv.
    """
    from privlab.graph.attacks.ji import MODES, ORDERS, jlsb
    from privlab.validate import check_choice

    check_choice(mode, "--mode", MODES)
    check_choice(order, "--order", ORDERS)

    def attack(g1, g2, s, **kw):
        return jlsb(g1, g2, s, block=block, keep=keep, mode=mode, degree_weight=degree_weight,
                    neighbour_weight=neighbour_weight, distance_weight=distance_weight,
                    neighbours=neighbours, landmarks=landmarks, order=order, **kw)  # fmt: skip

    settings = ("block", "keep", "mode", "landmarks", "order")
    if seeds is not None or seeds_file is not None or discover is not None:
        _run("JLSB", attack, settings, pair_dir, (seeds, seeds_file, discover), output,
             json_out)  # fmt: skip
        return
    guard_outputs([Output(output, "-o", stdout_ok=True)], [Input(pair_dir, unit=True)],
                  json_out=json_out)  # fmt: skip
    pair = read_pair_dir(pair_dir)
    with progress_bar("JLSB without seeds", "aux nodes mapped") as bar:
        result = attack(pair.aux, pair.san, None, truth=pair.truth_array(), progress=bar)
    payload = {"pair": str(pair_dir), "seeding": {"kind": "no", "seeds": 0, "seeds_correct": 0},
               **result.to_dict()}  # fmt: skip
    write_mapping(result.pairs(), output, payload)
    emit(payload, json_out, lambda p: _summary_table(
        f"{p['pair']}: JLSB without seeds", p, (*settings, *_SHOWN)),
        summary_console(output))  # fmt: skip
