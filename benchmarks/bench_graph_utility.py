"""Every graph utility metric on SNAP ca-GrQc (5,242 nodes, 14,484 edges): value and time.

Goal: all metrics together (exact, plus the sampled variants) under 10 s on one core.
Then ``compare()`` of the graph with a perturbed release (10 % of the edges deleted and as
many random non-edges added), exact and sampled.

    python benchmarks/bench_graph_utility.py [--data DIR] [--sample 500] [--seed 0]

Each figure is the median of ``--repeat`` runs (default 1; the heavy metrics take ~1 s, so
one run is representative).  The igraph twin of the graph is built once (first row) and
reused by the igraph-based metrics, as the library does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import default_data, machine, median_time

from privlab.graph import utility as U
from privlab.graph.core import Graph, read_graph
from privlab.graph.utility._base import igraph_of


def perturbed(g: Graph, fraction: float, seed: int) -> Graph:
    """Delete ``fraction`` of the edges at random and add as many random non-edges."""
    rng = np.random.default_rng(seed)
    edges = g.edges()
    keep = edges[rng.permutation(len(edges))[int(fraction * len(edges)) :]]
    existing = set(map(tuple, edges.tolist()))
    added: set[tuple[int, int]] = set()
    while len(added) < len(edges) - len(keep):
        u, v = sorted(rng.integers(0, g.n_nodes, 2).tolist())
        if u != v and (u, v) not in existing:
            added.add((u, v))
    return Graph.from_edges(g.n_nodes, np.vstack([keep, np.array(sorted(added))]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument("--sample", type=int, default=500, help="BFS sources for sampled metrics")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    path = Path(args.data) / "graphs" / "CA-GrQc.txt"
    if not path.is_file():
        sys.exit(f"{path} not found: pass --data or set PRIVLAB_DATA")
    g = read_graph(path).graph
    k, seed, r = args.sample, args.seed, args.repeat

    def median(x):
        return f"median {np.median(x):.4g}, max {np.max(x):.4g}"

    def lengths_summary(p):
        return (
            f"APL {p.average():.4f} (connected pairs {p.average('exclude'):.4f}), "
            f"diameter {p.diameter}, effective {p.effective_diameter():.3f}, median {p.median:g}"
        )

    def fit_summary(f):
        return (
            f"α {f.alpha:.4f} ± {f.sigma:.4f}, x_min {f.x_min}, tail {f.n_tail}, "
            f"KS {f.ks_distance:.4f}"
        )

    rows = [
        ("igraph twin (built once)", lambda: igraph_of(g), lambda h: f"{h.vcount()} nodes"),
        ("density", lambda: U.density(g), lambda v: f"{v:.6g}"),
        ("degree sequence", lambda: U.degree_sequence(g), lambda s: f"max {s[0]}, min {s[-1]}"),
        ("degree distribution", lambda: U.degree_distribution(g),
         lambda p: f"{p.size} degrees, p(1) = {p[1]:.4f}"),
        ("joint degree distribution", lambda: U.joint_degree_distribution(g),
         lambda j: f"{j.p.size} degree pairs"),
        ("average degree connectivity", lambda: U.average_degree_connectivity(g),
         lambda c: f"knn(1) = {c.knn[c.degree == 1][0]:.3f}, knn(max) = {c.knn[-1]:.3f}"),
        ("degree centrality", lambda: U.degree_centrality(g), median),
        ("eigenvector centrality", lambda: U.eigenvector_centrality(g), median),
        ("closeness centrality (exact)", lambda: U.closeness_centrality(g), median),
        ("betweenness centrality (exact)", lambda: U.betweenness_centrality(g), median),
        (f"betweenness centrality (k = {k})",
         lambda: U.betweenness_centrality(g, sample=k, seed=seed), median),
        ("clustering CC / CC1 / CC2", lambda: U.clustering_coefficients(g),
         lambda c: f"{c.cc:.4f} / {c.cc1:.4f} / {c.cc2:.4f}, {c.triangles} triangles"),
        ("path lengths (exact)", lambda: U.path_lengths(g), lengths_summary),
        (f"path lengths (k = {k})", lambda: U.path_lengths(g, sample=k, seed=seed),
         lengths_summary),
        ("power-law exponent (x_min = 3)", lambda: U.power_law_exponent(g), fit_summary),
        ("power-law exponent (x_min fitted)", lambda: U.power_law_exponent(g, x_min="fit"),
         fit_summary),
    ]  # fmt: skip
    print(f"# Graph utility metrics on ca-GrQc ({g.n_nodes} nodes, {g.n_edges} edges)\n")
    print(f"Machine: {machine()}\n")
    print("| metric | value | seconds |\n|---|---|---|")
    total = 0.0
    for name, fn, show in rows:
        seconds, value = median_time(fn, r)
        total += seconds
        print(f"| {name} | {show(value)} | {seconds:.3f} |")
    release = perturbed(g, 0.10, seed)
    for name, fn in [
        ("Hellinger DD (vs release)", lambda: U.hellinger_dd(g, release)),
        ("Hellinger JDD (vs release)", lambda: U.hellinger_jdd(g, release)),
    ]:
        seconds, value = median_time(fn, r)
        total += seconds
        print(f"| {name} | {value:.4f} | {seconds:.3f} |")
    print(f"| **all metrics** | | **{total:.2f}** |")

    print("\n## compare(original, release): 10 % of edges deleted, as many random ones added\n")
    t_exact, exact = median_time(lambda: U.compare(g, release), r)
    t_sampled, sampled = median_time(lambda: U.compare(g, release, sample=k, seed=seed), r)
    print(f"compare exact: {t_exact:.2f} s; compare with sample = {k}: {t_sampled:.2f} s\n")
    print(exact.to_markdown())
    print(f"\nSampled (k = {k}, seed = {seed}):\n")
    print(sampled.to_markdown())


if __name__ == "__main__":
    main()
