"""``privlab graph anonymize --scheme dp-hrg`` (and ``graph pair --scheme dp-hrg``): the
differentially private hierarchical random graph of Xiao, Chen & Tan (KDD 2014), see
:mod:`privlab.graph.anonymize.dp_hrg`.  Registered in :data:`privlab.cli.graph.SCHEMES`
with the runner signature ``(graph, opts, seed) -> (release, summary)`` of the others.

The summary states only what the guarantee covers: ε and its split, the sensitivity, the
MCMC steps, the public node count and figures of the noisy model and the released graph —
never the input's edge count, degrees or the dendrogram's exact log-likelihood."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from privlab.errors import ConfigError
from privlab.graph.core import Graph

#: option key → flag; all belong to dp-hrg only
OPTIONS = {
    "hrg_share": "--hrg-share",
    "mcmc_steps": "--mcmc-steps",
    "small_subtrees": "--small-subtrees",
}

HrgShare = Annotated[
    float | None,
    typer.Option(
        "--hrg-share",
        help="dp-hrg: the fraction of --epsilon spent on sampling the dendrogram, the rest "
        "noises the edge counts (default: 0.5, as the authors' examples).",
    ),
]
McmcSteps = Annotated[
    int | None,
    typer.Option(
        "--mcmc-steps",
        help="dp-hrg: Markov chain steps before the dendrogram is taken (default: "
        "max(1000·nodes, 100000)).",
    ),
]
SmallSubtrees = Annotated[
    str | None,
    typer.Option(
        "--small-subtrees",
        help="dp-hrg: keep (the paper: every internal node gets its own noisy probability) or "
        "privhrg (the authors' program: small, noisy subtrees become one random block) "
        "(default: keep).",
    ),
]


#: the other schemes' options, which dp-hrg would ignore
IGNORED = {
    "fraction": "--fraction", "k": "--k", "method": "--method", "max_degree": "--max-degree",
    "threshold": "--threshold", "walk_length": "--walk-length", "tolerance": "--tolerance",
}  # fmt: skip


def refuse_foreign(scheme: str, opts: dict[str, Any]) -> None:
    """ConfigError, before the graph is read, if a dp-hrg option is given to another scheme
    or another scheme's option to dp-hrg."""
    if scheme == "dp-hrg":
        for key, flag in IGNORED.items():
            if opts.get(key) is not None:
                raise ConfigError(f"{flag} does not apply to --scheme dp-hrg; drop it")
        return
    for key, flag in OPTIONS.items():
        if opts.get(key) is not None:
            raise ConfigError(f"{flag} goes with --scheme dp-hrg, not {scheme}; drop it")


def run(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    """The dp-hrg runner: ``--epsilon`` (total) required."""
    from privlab.graph.anonymize.dp_hrg import dp_hrg

    if opts.get("epsilon") is None:
        raise ConfigError("--scheme dp-hrg needs --epsilon (the total budget, e.g. 1)")
    share = opts.get("hrg_share")
    small = opts.get("small_subtrees")
    result = dp_hrg(
        graph,
        opts["epsilon"],
        hrg_share=0.5 if share is None else share,
        steps=opts.get("mcmc_steps"),
        small_subtrees="keep" if small is None else small,
        seed=seed,
    )
    return result.graph, result.to_dict()
