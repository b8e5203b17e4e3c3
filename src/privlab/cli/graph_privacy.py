"""``privlab graph attack obfuscation|links|group|passive``: what a release discloses
beyond one-target re-identification (:mod:`privlab.graph.privacy_metrics`).

* ``obfuscation`` — Bonchi et al.'s k-obfuscation of every person under degree knowledge, for
  a stated release model (exact, rsp, rad, sparsify, perturb).
* ``links`` — edge disclosure (seed 000 §7.2.1; Hay et al. §6.1): how sure an adversary who
  knows two friends' H_i is that they are linked, without re-identifying them.
* ``group`` — Hay et al.'s group re-identification (§6.1): candidate sets refined by the
  one-to-one assignment of a group of targets.
* ``passive`` — Backstrom, Dwork & Kleinberg's passive coalition attack
  (:mod:`privlab.graph.attacks.passive`).

These commands are listed in :data:`privlab.cli.graph_commands.ATTACKS`, follow the
conventions of :mod:`privlab.cli.graph_attack` (:func:`read_input`, :func:`emit`,
``--json``, ``--quiet``) and write no file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Group
from rich.table import Table
from rich.text import Text

from privlab.cli.common import Quiet, exits_on_bad_input, spinner
from privlab.cli.graph_attack import (
    GRAPH_FILE_HELP,
    JSON_HELP,
    _on_nodes_of,
    _targets,
    emit,
    read_input,
)
from privlab.errors import ConfigError

MODELS_HELP = (
    "How the release was made, as the adversary models it: exact (degrees unchanged: naive "
    "or k-degree), rsp (m edges deleted), rad (m deleted, m added), sparsify (each edge "
    "removed w.p. --p), perturb (--p, and each non-edge added w.p. --q)."
)


def _ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise ConfigError(f"-k {text!r}: give comma-separated integers ≥ 1, e.g. 2,5,10") from None
    if not ks or min(ks) < 1:
        raise ConfigError(f"-k {text!r}: give comma-separated integers ≥ 1, e.g. 2,5,10")
    return ks


def _rows_table(title: str, rows: list[dict[str, Any]]) -> Group:
    grid = Table()
    for key in rows[0] if rows else ():
        grid.add_column(key, justify="right")
    for row in rows:
        grid.add_row(*(f"{v:.4g}" if isinstance(v, float) else "—" if v is None else str(v)
                       for v in row.values()))  # fmt: skip
    return Group(Text(title, style="italic"), grid)


# ============================================================================ obfuscation
@exits_on_bad_input
def obfuscation(
    original: Path = typer.Argument(..., help="The original graph: " + GRAPH_FILE_HELP),
    release: Path = typer.Argument(..., help="The release: " + GRAPH_FILE_HELP),
    model: str = typer.Option("exact", "--model", help=MODELS_HELP),
    m: int | None = typer.Option(
        None,
        "--m",
        min=0,
        help="rsp/rad: the public number of deleted edges (rsp: |E| − |E'| by default).",
    ),
    p: float = typer.Option(0.0, "--p", help="sparsify/perturb: edge removal probability."),
    q: float = typer.Option(0.0, "--q", help="perturb: non-edge addition probability."),
    ks: str = typer.Option("2,5,10,20", "-k", help="The k values to report, comma-separated."),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """k-obfuscation under degree knowledge (Bonchi, Gionis & Tassa, ICDE 2011).

    For each person, the entropy H of the adversary's distribution over the release's nodes
    given their original degree; the person is k-obfuscated when H ≥ log₂ k, and the release
    is a (k, ε)-obfuscation for every ε ≥ the fraction not k-obfuscated.
    """
    from privlab.graph.privacy_metrics import obfuscation as run

    ks_t = _ks(ks)
    a = read_input(original).graph
    b = read_input(release).graph
    with spinner("computing the obfuscation …"):
        res = run(a, b, model=model, m=m, p=p, q=q, ks=ks_t)
    payload = {"original": str(original), "release": str(release), **res.to_dict()}
    emit(payload, json_out, lambda d: _rows_table(
        f"{d['release']}: k-obfuscation under the {d['model']} model "
        f"({100 * d['no_match_fraction']:.1f}% match no node)",
        [{"k": k, "obfuscated": d["obfuscated_fraction"][k], "min ε": d["min_eps"][k]}
         for k in d["obfuscated_fraction"]]))  # fmt: skip


# ============================================================================ links
@exits_on_bad_input
def links(
    original: Path = typer.Argument(..., help="The original graph: " + GRAPH_FILE_HELP),
    release: Path | None = typer.Argument(
        None, help="The release (default: a naive anonymization of the original)."
    ),
    level: int | None = typer.Option(
        None,
        "--level",
        "-l",
        min=1,
        help="The adversary knows H_i of both ends (default: 1 and H*).",
    ),
    star: bool = typer.Option(False, "--star", help="Only H*, the whole structure."),
    non_edges: int = typer.Option(
        1000, "--non-edges", min=0, help="Sampled non-adjacent pairs to score as well."
    ),
    seed: int = typer.Option(0, "--seed", min=0, help="Draws the non-edges."),
    model: str | None = typer.Option(
        None,
        "--model",
        help="Also the degree-knowledge figure under this release model (as `obfuscation "
        "--model`, with --m, --p, --q): each end placed by its obfuscation distribution "
        "(default: exact matching only).",
    ),
    m: int | None = typer.Option(
        None, "--m", min=0, help="rsp/rad: the number m of edits (default: rsp, |E| − |E'|)."
    ),
    p: float = typer.Option(0.0, "--p", help="sparsify/perturb: edge removal probability."),
    q: float = typer.Option(0.0, "--q", help="perturb: non-edge addition probability."),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Edge disclosure: how sure an adversary is that two friends are linked.

    Each end's candidate set is the release's nodes with the same H_i; the probability of
    the link is the fraction of candidate pairs that are edges of the release.  The edge can
    be certain while neither person is re-identified (Hay et al.).
    """
    from privlab.graph.privacy_metrics import link_disclosure, link_disclosure_model

    if level is not None and star:
        raise ConfigError("--level and --star each pick one level; give one of them")
    if model is not None:
        from privlab.graph.privacy_metrics import OBFUSCATION_MODELS
        from privlab.validate import check_choice

        check_choice(model, "--model", OBFUSCATION_MODELS)
    a = read_input(original).graph
    b = None if release is None else read_input(release).graph
    levels: list[int | None] = [level] if level is not None else [None] if star else [1, None]
    rows = []
    with spinner("refining both graphs …"):
        for lv in levels:
            rows.append(link_disclosure(a, b, level=lv, non_edges=non_edges, seed=seed).to_dict())
        if model is not None:
            rows.append(link_disclosure_model(
                a, a if b is None else b, model=model, m=m, p=p, q=q, non_edges=non_edges,
                seed=seed).to_dict())  # fmt: skip
    payload = {"original": str(original), "release": None if release is None else str(release),
               "levels": rows}  # fmt: skip
    emit(payload, json_out, lambda d: _rows_table(
        f"{d['release'] or d['original'] + ' (naive)'}: edge disclosure of "
        f"{d['levels'][0]['edges']} edges",
        [{"knowledge": r["knowledge"], "certain": r["disclosed_fraction"],
          "≥ 1/2": r["at_least_half_fraction"], "mean p": r["mean_probability"],
          "non-edges mean p": r["non_edge_mean_probability"], "density": r["baseline_density"],
          "no match": r["no_match_fraction"]} for r in d["levels"]]))  # fmt: skip


# ============================================================================ group
@exits_on_bad_input
def group(
    original: Path = typer.Argument(..., help="The original graph: " + GRAPH_FILE_HELP),
    release: Path = typer.Argument(..., help="The release: " + GRAPH_FILE_HELP),
    knowledge: str = typer.Option(
        "degree-at-least",
        "--knowledge",
        help="degree-at-least (the adversary has seen --facts of each target's edges: a degree "
        "lower bound) or facts (--facts edge facts breadth-first, exact degrees).",
    ),
    facts: int = typer.Option(5, "--facts", "-b", min=1, help="Edges known per target."),
    nodes: str = typer.Option(
        "auto",
        "--nodes",
        help="The group: 'auto' (50 random people, or everyone in a smaller graph), 'all', or "
        "N random people (drawn with --seed).",
    ),
    seed: int = typer.Option(0, "--seed", min=0, help="Draws the group; orders the facts."),
    aligned: bool = typer.Option(
        False,
        "--aligned-ids",
        help="The release keeps the original's node ids (`graph anonymize --keep-ids`): "
        "score the group re-identifications.",
    ),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Group re-identification (Hay et al.): targets attacked together.

    A group's assignment is one-to-one, so a candidate that only fits if two targets share a
    node is ruled out: cand(x) = {y, y'} and cand(x') = {y'} give x = y.
    """
    from privlab.graph.privacy_metrics import KNOWLEDGE, group_reidentification
    from privlab.validate import check_choice

    check_choice(knowledge, "--knowledge", KNOWLEDGE)
    a = read_input(original).graph
    b = read_input(release).graph
    if aligned:
        b = _on_nodes_of(a, b, release)
    auto = nodes.strip().lower() == "auto"
    targets = _targets(str(min(50, a.n_nodes)) if auto else nodes, a.n_nodes, seed)
    with spinner(f"matching a group of {targets.size} …"):
        res = group_reidentification(a, b, targets, knowledge=knowledge, facts=facts,
                                     aligned=aligned, seed=seed)  # fmt: skip
    payload = {"original": str(original), "release": str(release), **res.to_dict()}
    emit(payload, json_out, lambda d: _rows_table(
        f"{d['release']}: a group of {d['targets']} under {d['knowledge']}"
        + ("" if d["consistent"] else " (no one-to-one assignment fits: knowledge inconsistent"
           " with the release)"),
        [{"candidate sets": "individual", "unique": d["unique_individual"],
          "median": d["median_individual"]},
         {"candidate sets": "group", "unique": d["unique_group"], "median": d["median_group"]}]
        + ([{"candidate sets": "re-identified", "unique": d["reidentified_group"],
             "median": ""}] if "reidentified_group" in d else [])))  # fmt: skip


# ============================================================================ passive
@exits_on_bad_input
def passive(
    input: Path = typer.Argument(..., help="The graph before its release: " + GRAPH_FILE_HELP),
    k: str = typer.Option("4,6,8", "-k", help="Coalition sizes, comma-separated (each ≥ 2)."),
    trials: int = typer.Option(10, "--trials", "-r", min=1, help="Coalitions per size."),
    friend_sets: bool = typer.Option(
        True,
        "--friend-sets/--structure-only",
        help="Also match the pattern of the coalition's outside friends (who is linked to "
        "which members), or only degrees and internal edges.",
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Fixed seed, for reproducible runs (default: fresh randomness)."
    ),
    json_out: bool = typer.Option(False, "--json", help=JSON_HELP),
    quiet: Quiet = False,
) -> None:
    """Backstrom et al.'s passive attack: a coalition of k friends finds itself in the naive
    release and re-identifies its other friends.

    No account is created: k users who know each other pool their friendships and degrees,
    search the relabelled graph for that pattern and, once located, name every outside
    friend whose set of coalition friends no other node has.
    """
    from privlab.graph.attacks.passive import passive_success_vs_k

    sizes = _ks(k)
    if min(sizes) < 2:
        raise ConfigError(f"-k {k!r}: a coalition has at least 2 members")
    graph = read_input(input).graph
    with spinner("passive attack …"):
        rows = passive_success_vs_k(graph, sizes, trials=trials, friend_sets=friend_sets,
                                    seed=seed)  # fmt: skip
    payload = {"input": str(input), "nodes": graph.n_nodes, "edges": graph.n_edges,
               "friend_sets": friend_sets, "rows": rows,
               "insecure_seed": seed is not None}  # fmt: skip
    emit(payload, json_out, lambda d: _rows_table(
        f"{d['input']}: passive coalition attack ({trials} coalitions per k)",
        [{"k": r["k"], "located": r["located_exactly_rate"], "unique": r["unique_rate"],
          "neighbours": r["mean_neighbours"], "re-identified": r["success_rate"]}
         for r in d["rows"]]))  # fmt: skip


__all__ = ["group", "links", "obfuscation", "passive"]
