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
from privlab.errors import ConfigError, InputError
from privlab.io.outputs import Input, Output

_SHOWN = (
    "method",
    "theta",
    "enrich",
    "ns_rule",
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


def read_communities(path: Path, n: int, graph: str) -> np.ndarray:
    """The community of every node of ``graph`` (n nodes) from a text file of ``node
    community`` lines: two integers ≥ 0 separated by blanks or a comma, '#' lines and blank
    lines skipped, every node 0..n−1 exactly once (what ``nka``'s ``communities1`` /
    ``communities2`` hold, or an Infomap run of your own).  Errors name the line.  O(n)."""
    out = np.full(n, -1, dtype=np.int64)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file; give 'node community' lines") from None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        parts = stripped.replace(",", " ").split()
        where = f"{path}, line {number}"
        try:
            if len(parts) != 2:
                raise ValueError
            node, comm = int(parts[0]), int(parts[1])
        except ValueError:
            raise InputError(
                f"{where}: {stripped[:60]!r} is not 'node community' (two integers)"
            ) from None
        if not 0 <= node < n:
            raise InputError(f"{where}: node {node} is not in {graph} (nodes 0..{n - 1})")
        if comm < 0:
            raise InputError(f"{where}: community {comm} is negative; use ids ≥ 0")
        if out[node] >= 0:
            raise InputError(f"{where}: node {node} is listed twice")
        out[node] = comm
    missing = np.flatnonzero(out < 0)
    if missing.size:
        raise InputError(
            f"{path}: no line for node {int(missing[0])} of {graph} ({missing.size} nodes "
            f"missing); give every node 0..{n - 1}"
        )
    return out


def _import_igraph_without_drawing() -> None:
    """Import igraph without its matplotlib drawing backend: python-igraph 0.11+ imports
    ``matplotlib.pyplot`` when it loads (about 1 s of CPU, more than NKA's propagation on
    a 3,000-node pair), and this command never draws.  matplotlib is hidden for the import
    only; nothing is done when igraph or matplotlib is loaded already, so a process that
    draws keeps igraph's matplotlib backend."""
    import sys

    if "igraph" in sys.modules or "matplotlib" in sys.modules:
        return
    sys.modules["matplotlib"] = None  # type: ignore[assignment]  # igraph: "not installed"
    try:
        import igraph  # noqa: F401
    finally:
        del sys.modules["matplotlib"]


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
    ns_rule: str = typer.Option(
        "secgraph",
        "--ns-rule",
        help="Node propagation rule: secgraph (Narayanan–Shmatikov's, as SecGraph: spread "
        "of all scores) or authors (the NKA code's: spread of the scored candidates only).",
    ),
    aux_communities: Path | None = typer.Option(
        None,
        "--aux-communities",
        help="Communities of aux.txt's nodes ('node community' lines) instead of detecting "
        "them; give --san-communities too.",
    ),
    san_communities: Path | None = typer.Option(
        None, "--san-communities", help="The same for san.txt (give both or neither)."
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
    found, by Narayanan–Shmatikov's rule as SecGraph computes it (--ns-rule authors: as
    the authors' code does).  --aux-communities/--san-communities give the communities instead of
    detecting them.  The result is scored against truth.csv.
    """
    from privlab.graph.attacks.nka import METHODS, NS_RULES, nka
    from privlab.validate import check_choice

    check_choice(communities, "--communities", METHODS)
    check_choice(ns_rule, "--ns-rule", NS_RULES)
    if (aux_communities is None) != (san_communities is None):
        raise ConfigError(
            "--aux-communities and --san-communities go together: give both or neither"
        )
    ga.guard_outputs([Output(output, "-o", stdout_ok=True)],
                     [Input(pair_dir, unit=True), aux_communities, san_communities],
                     json_out=json_out)  # fmt: skip
    _import_igraph_without_drawing()
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
        given = None
        if aux_communities is not None and san_communities is not None:
            given = (read_communities(aux_communities, g1.n_nodes, "aux.txt"),
                     read_communities(san_communities, g2.n_nodes, "san.txt"))  # fmt: skip
        return nka(
            g1,
            g2,
            s,
            theta=theta,
            community_theta=community_theta,
            method=communities,
            communities=given,
            enrich=enrich,
            ns_rule=ns_rule,
            seed=seed,
            trials=trials,
            **kw,
        )

    _run("NKA", attack, _SHOWN, pair_dir, (seeds, seeds_file, discover), output, json_out,
         inputs=inputs)  # fmt: skip
