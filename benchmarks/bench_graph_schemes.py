"""What graph anonymization costs in utility: Hay et al.'s Fig. 9 and Sharad's Table 4.3.

Two experiments on real SNAP graphs (../shared/data/graphs or $PRIVLAB_DATA):

``fig9`` — Hay, Miklau, Jensen, Weis & Srivastava (2007), Fig. 9 (seed 002 §A.3.6): random
add/delete (RAD) at 0, 5, 10 and 100 % of the edges, each perturbed level averaged over
``--runs`` graphs; the measures are the medians over nodes of degree, path length,
closeness and betweenness, the diameter, and the clustering coefficient (thesis eq. 7.1).
The paper used Enron (not public in its form); we use ca-GrQc's largest connected component.
The finding to reproduce is the *trend*: at 10 % the measures have moved a good part of the
way to their values on the random graph (100 %).

``table43`` — Sharad (2016), Table 4.3 (seed 004 §3.3): the Hellinger distance of the degree
distribution (DD) and of the joint degree distribution (JDD) between facebook_combined and
its release under the six schemes at three strengths each (RSP α_E = 0.75/0.50/0.25 as edge
deletion β = (1 − α_E)/(1 + α_E); RAD k; REP μ; 1HKA as random insertion μ; RSW k; KDA k),
averaged over ``--runs`` releases.  Sharad measured on graph pairs of a 40,000-node Facebook
crawl, so the numbers differ; the ordering and the DD = 0 of RSW are what carry over.
KDA here is SimultaneousSwap (Sharad used SuperGraph + GreedySwap, which does not scale to
k = 100 on this graph — docs/graph/kdegree.md).

    python3 benchmarks/bench_graph_schemes.py fig9 --runs 10
    python3 benchmarks/bench_graph_schemes.py table43 --runs 3

``timings`` — each perturbation scheme on facebook_combined at strength 0.1 and 1.0
(median of ``--runs`` runs, default 7).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import default_data, machine

from privlab.graph.anonymize import perturb
from privlab.graph.core import Graph, read_graph
from privlab.graph.utility import (
    betweenness_centrality,
    closeness_centrality,
    clustering_coefficient,
    hellinger_dd,
    hellinger_jdd,
    path_lengths,
)

FIG9_LEVELS = (0.0, 0.05, 0.10, 1.0)
HAY_ENRON = {  # seed 002 §A.3.6, for comparison of the trend
    "degree": (5.0, 4.5, 4.6, 5.0),
    "diameter": (9.0, 8.7, 7.6, 6.1),
    "path length": (4.0, 3.2, 3.0, 3.0),
    "closeness": (0.276, 0.293, 0.304, 0.337),
    "betweenness": (0.005, 0.009, 0.010, 0.014),
    "clustering": (0.286, 0.242, 0.191, 0.000),
}


def largest_component(g: Graph) -> Graph:
    ig = g.to_igraph()
    giant = ig.connected_components().giant()
    return Graph.from_igraph(giant)


def fig9_measures(g: Graph) -> dict[str, float]:
    paths = path_lengths(g)
    return {
        "degree": float(np.median(g.degrees())),
        "diameter": float(paths.diameter),
        "path length": float(paths.median),
        "closeness": float(np.median(closeness_centrality(g))),
        "betweenness": float(np.median(betweenness_centrality(g))),
        "clustering": float(clustering_coefficient(g, "cc")),
    }


def fig9(data: Path, runs: int) -> None:
    g = largest_component(read_graph(data / "graphs" / "CA-GrQc.txt").graph)
    print(f"ca-GrQc largest component: {g.n_nodes} nodes, {g.n_edges} edges; RAD; "
          f"{runs} runs per perturbed level\n")  # fmt: skip
    columns = []
    t0 = time.perf_counter()
    for level in FIG9_LEVELS:
        reps = 1 if level == 0 else runs
        values = [
            fig9_measures(g if level == 0 else perturb.random_add_delete(g, level, seed=r).graph)
            for r in range(reps)
        ]
        columns.append({k: statistics.fmean(v[k] for v in values) for k in values[0]})
    print("| measure | original | 5 % | 10 % | random (100 %) | moved at 10 % "
          "| Hay (Enron) moved at 10 % |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for name in columns[0]:
        row = [c[name] for c in columns]
        moved = _moved(row[0], row[2], row[3])
        hay = HAY_ENRON[name]
        print(f"| {name} | " + " | ".join(f"{v:.4g}" for v in row)
              + f" | {moved} | {_moved(hay[0], hay[2], hay[3])} |")  # fmt: skip
    print(f"\n{time.perf_counter() - t0:.1f} s")


def _moved(original: float, at10: float, random: float) -> str:
    span = random - original
    if abs(span) < 1e-12:
        return "—"
    return f"{(at10 - original) / span:.0%}"


def _schemes():
    from privlab.graph.anonymize import kdegree

    def rsp(alpha):
        return lambda g, s: perturb.random_sparsification(g, (1 - alpha) / (1 + alpha), seed=s)

    def kda(k):
        return lambda g, s: kdegree.kdegree_anonymize(g, k, seed=s).graph

    return [
        ("RSP α_E=0.75", rsp(0.75)), ("RSP α_E=0.50", rsp(0.50)), ("RSP α_E=0.25", rsp(0.25)),
        ("RAD k=0.10", lambda g, s: perturb.random_add_delete(g, 0.10, seed=s)),
        ("RAD k=0.25", lambda g, s: perturb.random_add_delete(g, 0.25, seed=s)),
        ("RAD k=0.50", lambda g, s: perturb.random_add_delete(g, 0.50, seed=s)),
        ("REP μ=1e-4", lambda g, s: perturb.random_edge_perturbation(g, 1e-4, seed=s)),
        ("REP μ=1e-3", lambda g, s: perturb.random_edge_perturbation(g, 1e-3, seed=s)),
        ("REP μ=1e-2", lambda g, s: perturb.random_edge_perturbation(g, 1e-2, seed=s)),
        ("1HKA μ=0.10", lambda g, s: perturb.random_insertion(g, 0.10, seed=s)),
        ("1HKA μ=0.25", lambda g, s: perturb.random_insertion(g, 0.25, seed=s)),
        ("1HKA μ=0.50", lambda g, s: perturb.random_insertion(g, 0.50, seed=s)),
        ("RSW k=0.20", lambda g, s: perturb.random_switch(g, 0.20, seed=s)),
        ("RSW k=0.50", lambda g, s: perturb.random_switch(g, 0.50, seed=s)),
        ("RSW k=0.85", lambda g, s: perturb.random_switch(g, 0.85, seed=s)),
        ("KDA k=10", kda(10)), ("KDA k=50", kda(50)), ("KDA k=100", kda(100)),
    ]  # fmt: skip


SHARAD_FACEBOOK = {  # Table 4.3, Facebook DD / JDD (seed 004 §3.3)
    "RSP α_E=0.75": (0.062, 0.295), "RSP α_E=0.50": (0.100, 0.340),
    "RSP α_E=0.25": (0.194, 0.477), "RAD k=0.10": (0.138, 0.283),
    "RAD k=0.25": (0.273, 0.336), "RAD k=0.50": (0.439, 0.478),
    "REP μ=1e-4": (0.280, 0.286), "REP μ=1e-3": (0.759, 0.630),
    "REP μ=1e-2": (0.999, 1.000), "1HKA μ=0.10": (0.141, 0.269),
    "1HKA μ=0.25": (0.281, 0.293), "1HKA μ=0.50": (0.428, 0.338),
    "RSW k=0.20": (0.000, 0.084), "RSW k=0.50": (0.000, 0.143),
    "RSW k=0.85": (0.000, 0.203), "KDA k=10": (0.056, 0.279),
    "KDA k=50": (0.125, 0.485), "KDA k=100": (0.175, 0.603),
}  # fmt: skip


def table43(data: Path, runs: int) -> None:
    g = read_graph(data / "graphs" / "facebook_combined.txt").graph
    print(f"facebook_combined: {g.n_nodes} nodes, {g.n_edges} edges; {runs} runs each\n")
    print("| scheme | DD | JDD | seconds per release | Sharad Facebook DD | JDD |")
    print("|---|---|---|---|---|---|")
    for name, fn in _schemes():
        dd, jdd, times = [], [], []
        for r in range(runs):
            t = time.perf_counter()
            out = fn(g, r)
            times.append(time.perf_counter() - t)
            release = out.graph if hasattr(out, "graph") else out
            dd.append(hellinger_dd(g, release))
            jdd.append(hellinger_jdd(g, release))
        ref = SHARAD_FACEBOOK[name]
        print(f"| {name} | {statistics.fmean(dd):.3f} | {statistics.fmean(jdd):.3f} | "
              f"{statistics.median(times):.2f} | {ref[0]:.3f} | {ref[1]:.3f} |")  # fmt: skip


def timings(data: Path, runs: int) -> None:
    g = read_graph(data / "graphs" / "facebook_combined.txt").graph
    print(f"facebook_combined: {g.n_nodes} nodes, {g.n_edges} edges; median of {runs}\n")
    print("| scheme | 0.1: seconds | edges out | 1.0: seconds | edges out |")
    print("|---|---|---|---|---|")
    for name, fn in [
        ("RSP", perturb.random_sparsification), ("RAD", perturb.random_add_delete),
        ("RSW", perturb.random_switch), ("REP", perturb.random_edge_perturbation),
        ("random insertion", perturb.random_insertion),
    ]:  # fmt: skip
        cells = []
        for strength in (0.1, 1.0):
            times, edges = [], 0
            for r in range(runs):
                t = time.perf_counter()
                edges = fn(g, strength, seed=r).graph.n_edges
                times.append(time.perf_counter() - t)
            cells.append(f"{statistics.median(times):.3f} | {edges:,}")
        print(f"| {name} | " + " | ".join(cells) + " |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("experiment", choices=["fig9", "table43", "timings"])
    ap.add_argument("--runs", type=int, default=None, help="releases per cell")
    ap.add_argument("--data", default=default_data())
    args = ap.parse_args()
    print(f"machine: {machine()}")
    if args.experiment == "fig9":
        fig9(Path(args.data), args.runs or 10)
    elif args.experiment == "timings":
        timings(Path(args.data), args.runs or 7)
    else:
        table43(Path(args.data), args.runs or 3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
