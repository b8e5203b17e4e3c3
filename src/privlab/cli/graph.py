"""``privlab graph anonymize|pair|utility``: anonymize a graph, and compare a release with the
original (the group's table: :mod:`privlab.cli.graph_commands`).

Every scheme's output is also naively anonymized (node ids replaced by a uniformly random
permutation) unless ``--keep-ids``: the structural scheme protects against structural
re-identification, the relabelling against reading identities off the ids.  ``--mapping``
writes the secret release-id → original-id table for the data owner.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from privlab.cli import graph_dp_hrg, graph_neighbourhood, graph_symmetry, graph_union_split
from privlab.cli.common import (
    Quiet,
    comma_list,
    exits_on_bad_input,
    guard_outputs,
    note,
    print_json,
    progress_bar,
    spinner,
    summary_console,
)
from privlab.cli.diagnostics import NonPrivateDiagnostics, attach, print_section
from privlab.cli.graph_attack import (
    GRAPH_FILE_HELP,
    check_pair_output,
    emit,
    pair_table,
    read_input,
    write_pair_dir,
)
from privlab.cli.graph_perturb_schemes import SCHEMES as PERTURB_SCHEMES
from privlab.cli.graph_perturb_schemes import refuse_foreign
from privlab.errors import ConfigError
from privlab.graph.core import Graph, read_graph, write_graph
from privlab.io.outputs import Output, is_stdout


def _perturb(name: str) -> Callable[..., Any]:
    def run(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
        from privlab.graph.anonymize import perturb

        fn = {
            "rsp": perturb.random_sparsification,
            "rad": perturb.random_add_delete,
            "rsw": perturb.random_switch,
            "rep": perturb.random_edge_perturbation,
            "insert": perturb.random_insertion,
        }[name]
        fraction = _need(opts, "fraction", name)
        result = fn(graph, fraction, seed=seed)
        return result.graph, result.to_dict()

    return run


def _naive(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    return graph, {"scheme": "naive"}


def _kdegree(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    from privlab.graph.anonymize.kdegree import kdegree_anonymize

    k = _need(opts, "k", "kdegree")
    method = (opts.get("method") or "simultaneous_swap").replace("-", "_")
    result = kdegree_anonymize(graph, k, method=method, seed=seed, progress=opts.get("progress"))
    return result.graph, result.to_dict()


def _dp_dk2(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    from privlab.graph.anonymize.dp_dk import dp_dk2_graph

    epsilon = _need(opts, "epsilon", "dp-dk2")
    max_degree = _need(opts, "max_degree", "dp-dk2")
    threshold = opts.get("threshold") or 0
    if isinstance(threshold, str) and threshold != "auto":
        try:
            threshold = int(threshold)
        except ValueError:
            raise ConfigError(f"--threshold {threshold!r}: give an integer ≥ 0 or 'auto'") from None
    result = dp_dk2_graph(graph, epsilon, max_degree=max_degree, threshold=threshold, seed=seed)
    return result.graph, {"scheme": "dp-dk2", **result.to_dict()}


SCHEMES: dict[str, tuple[Callable[..., Any], str]] = {
    "naive": (_naive, "random relabelling only"),
    "rsp": (_perturb("rsp"), "random sparsification (--fraction)"),
    "rad": (_perturb("rad"), "random add/delete, Hay et al. (--fraction)"),
    "rsw": (_perturb("rsw"), "degree-preserving random switch (--fraction)"),
    "rep": (_perturb("rep"), "random edge perturbation (--fraction = flip probability p)"),
    "insert": (_perturb("insert"), "random edge insertion (--fraction)"),
    "kdegree": (_kdegree, "k-degree anonymity, Liu–Terzi (--k; --method simultaneous-swap, "
                "relaxed, supergraph, or subgraph: edge deletions only)"),
    "dp-dk2": (_dp_dk2, "ε-edge-DP synthetic graph from a noisy dK-2 series (--epsilon, "
               "--max-degree, optional --threshold)"),
    "ksymmetry": (graph_symmetry.ksymmetry, "k-symmetry, Wu et al.: orbit copying until every "
                  "automorphism orbit has ≥ k nodes (--k; adds nodes and edges)"),
    "kautomorphism": (graph_symmetry.kautomorphism, "k-automorphism, Zou et al.'s KM: k−1 "
                      "fixed-point-free automorphisms by edge copying (--k; --method bfs, degree "
                      "or random; adds noise nodes and edges)"),
    "kisomorphism": (graph_symmetry.kisomorphism, "k-isomorphism, Cheng et al.: k disjoint "
                     "isomorphic subgraphs (--k; --method as kautomorphism; removes the edges "
                     "between them, adds noise nodes and edges)"),
    **PERTURB_SCHEMES,
    "dp-hrg": (graph_dp_hrg.run, "ε-edge-DP hierarchical random graph, Xiao–Chen–Tan (--epsilon, "
               "the total; optional --hrg-share, --mcmc-steps, --small-subtrees)"),
    "union-split": (graph_union_split.union_split, graph_union_split.HELP),
    graph_neighbourhood.NAME: (graph_neighbourhood.k_neighbourhood, graph_neighbourhood.HELP),
}

#: Schemes whose release is differentially private: their output states no exact figure of
#: the input graph unless --non-private-diagnostics asks for it.
DP_SCHEMES = frozenset({"dp-dk2", "dp-hrg"})

FOREIGN = {
    "fraction": "--fraction", "k": "--k", "epsilon": "--epsilon", "max_degree": "--max-degree",
}  # fmt: skip


def _need(opts: dict[str, Any], key: str, scheme: str) -> Any:
    if opts.get(key) is None:
        raise ConfigError(f"--scheme {scheme} needs {FOREIGN[key]}")
    return opts[key]


@contextmanager
def _scheme_progress(name: str | None, opts: dict[str, Any], what: str) -> Iterator[Any]:
    """Progress while ``what`` runs scheme ``name``: a bar for k-degree anonymization (the
    swaps' edges in place, or SuperGraph's probes), a spinner otherwise; yields the bar's
    callback (None for a spinner)."""
    if name == "kdegree":
        supergraph = (opts.get("method") or "").replace("-", "_") in ("supergraph", "subgraph")
        unit = "probes" if supergraph else "edges in place"
        with progress_bar(f"{what}: k-degree anonymization", unit=unit) as progress:
            yield progress
    elif name == graph_neighbourhood.NAME:
        with progress_bar(f"{what}: k-neighbourhood anonymity", unit="nodes grouped") as progress:
            yield progress
    else:
        with spinner(f"{what} …"):
            yield None


def _scheme_help() -> str:
    return "; ".join(f"{name}: {text}" for name, (_, text) in SCHEMES.items())


def _resolve_scheme(scheme: str) -> tuple[str, Callable[..., Any]]:
    name = scheme.lower()
    if name not in SCHEMES:
        raise ConfigError(f"--scheme {scheme!r}: choose one of {', '.join(SCHEMES)}")
    return name, SCHEMES[name][0]


def _scheme_opts(fraction, k, method, epsilon, max_degree, threshold, **more) -> dict[str, Any]:
    return {
        "fraction": fraction, "k": k, "epsilon": epsilon, "max_degree": max_degree,
        "threshold": threshold, "method": method, **more,
    }  # fmt: skip


def _pair_scheme(scheme: str, opts: dict[str, Any], details: dict[str, Any]) -> Callable:
    """``scheme`` as :func:`~privlab.graph.pairs.sample_pair` calls it; its summary goes to
    ``details``."""
    name, run = _resolve_scheme(scheme)

    def scheme_fn(graph: Graph, *, seed: Any) -> Graph:
        released, summary = run(graph, opts, seed)
        details.update(summary)
        return released

    scheme_fn.__name__ = name
    return scheme_fn


# the scheme parameters, shared by ``anonymize`` and ``pair --scheme``
Fraction = Annotated[
    float | None,
    typer.Option(
        "--fraction", help="Perturbation strength (required by rsp, rad, rsw, rep, insert)."
    ),
]
KOption = Annotated[
    int | None,
    typer.Option(
        "--k",
        "-k",
        help="k, the smallest group (required by kdegree, ksymmetry, kautomorphism, "
        "kisomorphism, union-split and k-neighbourhood).",
    ),
]
Method = Annotated[
    str | None,
    typer.Option(
        "--method",
        help="kdegree: simultaneous-swap, relaxed, supergraph (additions only) or subgraph "
        "(deletions only) (default: simultaneous-swap); kautomorphism, kisomorphism: bfs, "
        "degree or random (default: bfs); union-split: one-hop or zero-hop (default: one-hop).",
    ),
]
Epsilon = Annotated[
    float | None,
    typer.Option(
        "--epsilon", "-e",
        help="ε for DP schemes (required by dp-dk2 and dp-hrg; for dp-hrg the total, split by "
        "--hrg-share).",
    ),
]
MaxDegree = Annotated[
    int | None,
    typer.Option(
        "--max-degree",
        help="dp-dk2: a public bound on the degrees, fixed in advance (required by dp-dk2).",
    ),
]
Threshold = Annotated[
    str | None,
    typer.Option(
        "--threshold",
        help="dp-dk2: drop noisy cells below this, an integer or 'auto' (default: 0).",
    ),
]
WalkLength = Annotated[
    int | None,
    typer.Option(
        "--walk-length",
        help="randwalk: the walk length t ≥ 1, 1 changes nothing (required by randwalk).",
    ),
]
Tolerance = Annotated[
    float | None,
    typer.Option(
        "--tolerance",
        help="spctr-ad, spctr-sw: also accept changes keeping λ1 and μ2 within this relative "
        "band of the original (default: 0, the paper's rule).",
    ),
]
Seed = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help="Fixed seed: reproducible, hence for tests and experiments only (default: fresh "
        "secure randomness).",
    ),
]
JsonOut = Annotated[
    bool, typer.Option("--json", help="Print the summary as JSON (nothing else on stdout).")
]


@exits_on_bad_input
def anonymize(
    input: Path = typer.Argument(..., help=f"The graph: {GRAPH_FILE_HELP}"),
    scheme: str = typer.Option(..., "--scheme", "-s", help="The scheme. " + _scheme_help()),
    output: Path = typer.Option(
        ...,
        "--output",
        "-o",
        help="Where to write the release: an edge list (nodes without edges on lines of their "
        "own; - for stdout), or GraphML / GML by the suffix .graphml / .gml.",
    ),
    fraction: Fraction = None,
    k: KOption = None,
    method: Method = None,
    epsilon: Epsilon = None,
    max_degree: MaxDegree = None,
    threshold: Threshold = None,
    walk_length: WalkLength = None,
    tolerance: Tolerance = None,
    hrg_share: graph_dp_hrg.HrgShare = None,
    mcmc_steps: graph_dp_hrg.McmcSteps = None,
    small_subtrees: graph_dp_hrg.SmallSubtrees = None,
    seed: Seed = None,
    mapping: Path | None = typer.Option(
        None,
        "--mapping",
        help="Write the secret release-id → original-id table here (CSV); without it the "
        "mapping is not kept.",
    ),
    keep_ids: bool = typer.Option(
        False, "--keep-ids", help="Do not relabel the nodes (research comparisons only)."
    ),
    directed: bool = typer.Option(False, "--directed", help="Read the edges as directed."),
    json_out: JsonOut = False,
    non_private_diagnostics: NonPrivateDiagnostics = False,
    quiet: Quiet = False,
) -> None:
    """Anonymize a graph with one scheme and write the release (and the mapping)."""
    from privlab.dp.noise import is_insecure_seed, secure_generator
    from privlab.graph.anonymize.naive import naive_anonymize

    name, run = _resolve_scheme(scheme)
    private = name in DP_SCHEMES
    if non_private_diagnostics and not private:
        raise ConfigError(
            f"--non-private-diagnostics goes with a differentially private scheme "
            f"({', '.join(sorted(DP_SCHEMES))}); {name} prints its exact figures anyway"
        )
    opts = _scheme_opts(fraction, k, method, epsilon, max_degree, threshold,
                        walk_length=walk_length, tolerance=tolerance, hrg_share=hrg_share,
                        mcmc_steps=mcmc_steps, small_subtrees=small_subtrees)  # fmt: skip
    refuse_foreign(name, opts)
    graph_dp_hrg.refuse_foreign(name, opts)
    if mapping is not None and keep_ids:
        raise ConfigError("--mapping is the relabelling's secret; it cannot go with --keep-ids")
    if mapping is not None and is_stdout(output):
        raise ConfigError(
            "-o - with --mapping: the release and its mapping are written together as files; "
            "give -o a file name"
        )
    guard_outputs(
        [Output(output, "-o", stdout_ok=True), Output(mapping, "--mapping")],
        [input],
        json_out=json_out,
    )
    if private:  # the reader's notes count removed lines: exact figures of the input
        read = read_graph(input, directed=directed)
        if read.report.warnings() and not non_private_diagnostics:
            note(
                f"{input}: self-loops or repeated edges were removed before the release; how "
                "many is an exact figure of the input, which --non-private-diagnostics shows"
            )
    else:
        read = read_input(input, directed=directed)
    rng = secure_generator(seed)
    with _scheme_progress(name, opts, f"{name}: anonymizing {input}") as progress:
        released, summary = run(read.graph, {**opts, "progress": progress}, rng)
    added = {key: summary.pop(key) for key in ("_origin", "_copy_of") if key in summary}
    original_labels = read.graph.labels
    if keep_ids:
        final = released
        secret = None
    else:
        naive = naive_anonymize(released, seed=rng)
        final, secret = naive.graph, naive.mapping
    exact = {"edges_before": read.graph.n_edges, "read": read.report.to_dict()}
    summary = {
        "input": str(input),
        "scheme": name,
        "nodes": final.n_nodes,
        "edges_after": final.n_edges,
        "relabelled": not keep_ids,
        "insecure_seed": is_insecure_seed(rng),
        **({} if private else exact),
        "details": summary,
        "output": str(output),
    }
    attach(summary, exact, private and non_private_diagnostics)
    released_graph = final if keep_ids else Graph(final.indptr, final.indices, final.directed)
    header = f"privlab graph anonymize --scheme {name}"
    if mapping is None or secret is None:
        write_graph(released_graph, output, header=header)
    else:
        import polars as pl

        from privlab.io.atomic import atomic_paths
        from privlab.io.delimited import write_table

        columns = graph_symmetry.mapping_columns(secret, original_labels, added)
        # the release and its secret mapping are published together or not at all
        with atomic_paths([output, mapping]) as (release_path, mapping_path):
            write_graph(released_graph, release_path, header=header, named=output)
            write_table(pl.DataFrame(columns), mapping_path)
        summary["mapping"] = str(mapping)
    if json_out:
        print_json(summary)
        return
    grid = Table(title=f"{input} → {output} ({name})", show_header=False)
    for key in ("nodes", "edges_before", "edges_after", "relabelled"):
        if key in summary:
            grid.add_row(key, str(summary[key]))
    console = summary_console(output)
    console.print(grid)
    print_section(summary, console)


@exits_on_bad_input
def pair(
    input: Path = typer.Argument(..., help=f"The source graph, undirected: {GRAPH_FILE_HELP}"),
    output: Path = typer.Option(..., "--output", "-o", help="The folder to write the pair to."),
    alpha_v: float | None = typer.Option(
        None,
        "--alpha-v",
        help="Node overlap α_V in (0, 1]: Jaccard of the two node sets (required without "
        "--secgraph).",
    ),
    alpha_e: float | None = typer.Option(
        None,
        "--alpha-e",
        help="Edge overlap α_E in (0, 1] on the common nodes (required without --secgraph).",
    ),
    scheme: str | None = typer.Option(
        None, "--scheme", "-s",
        help="Also anonymize the sanitized graph with this scheme (as `graph anonymize`; "
        "pass --alpha-e 1 to let the scheme be the only edge noise). Without it the pair is "
        "only sampled.",
    ),
    fraction: Fraction = None,
    k: KOption = None,
    method: Method = None,
    epsilon: Epsilon = None,
    max_degree: MaxDegree = None,
    threshold: Threshold = None,
    walk_length: WalkLength = None,
    tolerance: Tolerance = None,
    hrg_share: graph_dp_hrg.HrgShare = None,
    mcmc_steps: graph_dp_hrg.McmcSteps = None,
    small_subtrees: graph_dp_hrg.SmallSubtrees = None,
    secgraph: bool = typer.Option(
        False, "--secgraph", help="SecGraph's pair instead: two edge samples keeping a BFS "
        "tree, same node ids on both sides (--p).",
    ),
    p: float | None = typer.Option(
        None, "--p", help="--secgraph: probability of keeping each non-tree edge (default: 0.9)."
    ),
    seed: Seed = None,
    force: bool = typer.Option(
        False, "--force", help="Replace an earlier pair folder written by graph pair."
    ),
    json_out: JsonOut = False,
    quiet: Quiet = False,
) -> None:
    """Split a graph into an auxiliary and a sanitized graph with a known ground truth.

    Writes OUTPUT/aux.txt and OUTPUT/san.txt (edge lists on nodes 0..n−1, nodes without
    edges on lines of their own), OUTPUT/truth.csv
    (aux,san: the common nodes) and OUTPUT/pair.json, all at once (temporary folder, rename).
    """
    from privlab.graph.pairs import sample_pair, secgraph_pair

    check_pair_output(output, force, [input])
    if secgraph:
        extra = [flag for flag, v in (("--alpha-v", alpha_v), ("--alpha-e", alpha_e),
                                      ("--scheme", scheme)) if v is not None]  # fmt: skip
        if extra:
            raise ConfigError(f"--secgraph samples its own pair; drop {', '.join(extra)}")
    elif p is not None:
        raise ConfigError("--p is SecGraph's edge-keeping probability; it needs --secgraph")
    elif alpha_v is None or alpha_e is None:
        raise ConfigError("give --alpha-v and --alpha-e (the overlaps, in (0, 1]) or --secgraph")
    details: dict[str, Any] = {}
    opts = _scheme_opts(fraction, k, method, epsilon, max_degree, threshold,
                        walk_length=walk_length, tolerance=tolerance, hrg_share=hrg_share,
                        mcmc_steps=mcmc_steps, small_subtrees=small_subtrees)  # fmt: skip
    name = None if scheme is None else _resolve_scheme(scheme)[0]
    if name in graph_symmetry.NODE_ADDING_SCHEMES:
        raise ConfigError(
            f"--scheme {name} adds nodes to the release; a pair needs a scheme that keeps the "
            f"node set (anonymize with `graph anonymize --scheme {name}` instead)"
        )
    refuse_foreign(name or "no scheme", opts)
    graph_dp_hrg.refuse_foreign(name or "no scheme", opts)
    read = read_input(input)
    with _scheme_progress(name, opts, f"sampling a pair from {read.graph!r}") as progress:
        scheme_fn = None
        if scheme is not None:
            scheme_fn = _pair_scheme(scheme, {**opts, "progress": progress}, details)
        if secgraph:
            made = secgraph_pair(read.graph, 0.9 if p is None else p, seed=seed)
        else:
            made = sample_pair(read.graph, alpha_v, alpha_e, seed=seed, scheme=scheme_fn)
    summary = write_pair_dir(made, output, source=input, scheme_details=details or None,
                             force=force)  # fmt: skip
    emit(summary, json_out, pair_table)


@exits_on_bad_input
def utility(
    original: Path = typer.Argument(..., help=f"The original graph: {GRAPH_FILE_HELP}"),
    release: Path = typer.Argument(..., help="The released graph (same formats)."),
    metric: list[str] = typer.Option(
        [],
        "--metric",
        "-m",
        help="Metrics: a,b or repeat the option (default: all that apply).",
        show_default=False,
    ),
    sample: str = typer.Option(
        "auto",
        "--sample",
        help="BFS sources of the path metrics, closeness and betweenness: auto (every node up "
        "to 2,000 nodes, else 256 random ones, as privlab audit), all (exact) or a number.",
    ),
    seed: int = typer.Option(
        0, "--seed", help="Seed of the sampled sources (0, as in privlab audit)."
    ),
    directed: bool = typer.Option(False, "--directed", help="Read both graphs as directed."),
    json_out: bool = typer.Option(False, "--json", help="Print the comparison as JSON."),
    quiet: Quiet = False,
) -> None:
    """Compare a release with the original on the graph utility metrics.

    The numbers are those of `privlab audit` on the same two files (same reader, same
    sampling rule and seed).
    """
    from privlab.graph.utility import compare

    sources = _sample_option(sample)
    a = read_input(original, directed=directed)
    b = read_input(release, directed=directed)
    with progress_bar("utility metrics of both graphs", unit="metrics") as progress:
        result = compare(a.graph, b.graph, metrics=comma_list(metric) or None, sample=sources,
                         seed=seed, progress=progress)  # fmt: skip
    if json_out:
        print_json({"original": str(original), "release": str(release), **result.to_dict()})
        return
    typer.echo(result.to_markdown())


def _sample_option(sample: str) -> int | str | None:
    """``--sample``: "auto", "all" (exact: None) or a number of sources ≥ 1."""
    value = sample.strip().lower()
    if value in ("auto", "all"):
        return None if value == "all" else "auto"
    if value.isdecimal() and int(value) >= 1:
        return int(value)
    raise ConfigError(f"--sample {sample!r}: give auto, all or a number of BFS sources ≥ 1")

