"""Structural re-identification (Hay et al., seed 002 Part A): vertex refinement H_1..H_4, H*,
subgraph knowledge (edge facts) and the H_1 risk under random perturbation.

    python3 benchmarks/bench_structural.py                    # everything
    python3 benchmarks/bench_structural.py --skip-synthetic --facts 20 --backtrack-sample 10

Goals (2-core machine): H* of a 10^6-edge graph in < 5 s; the candidate sets of every node of
ca-GrQc at 10 edge facts in < 60 s.  Data: <data>/graphs/CA-GrQc.txt and
facebook_combined.txt (``--data`` or $PRIVLAB_DATA, default ../shared/data).  The synthetic
graph is Chung–Lu (numpy): expected degrees w_i ∝ (i + i0)^(−1/(γ−1)), endpoints drawn
∝ w_i w_j, self-loops and repeats dropped until exactly m edges remain; two shapes, γ = 2.5
with mean degree 20 (10^5 nodes) and γ = 2.1 with mean degree ≈ 2.9 (7·10^5 nodes, of which
≈ 162k isolated; many leaves and chains: more refinement rounds); plus a uniform random
recursive tree with 10^6 edges (the slowest shape we found: deep, and every round moves many
nodes).  Timings are medians of ``--repeat`` runs; subgraph runs start from a fresh matcher
(empty caches).  Prints markdown tables.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import default_data, machine, median_time

from privlab.graph.anonymize.perturb import random_add_delete
from privlab.graph.attacks.refinement import (
    BUCKET_LABELS,
    BucketCounts,
    perturbation_h1_risk,
    vertex_refinement,
)
from privlab.graph.attacks.subgraph import (
    SubgraphMatcher,
    gather_edge_facts,
    subgraph_knowledge_experiment,
)
from privlab.graph.core import Graph, read_graph


def chung_lu(n: int, m: int, gamma: float, seed: int = 0) -> Graph:
    """A Chung–Lu power-law graph with exactly m edges (numpy, O(m log m))."""
    rng = np.random.default_rng(seed)
    w = (np.arange(n) + 1.0 + n / 100) ** (-1.0 / (gamma - 1.0))
    cum = np.cumsum(w / w.sum())
    keys = np.zeros(0, dtype=np.int64)
    while keys.size < m:
        k = int(1.2 * (m - keys.size)) + 1000
        u = np.searchsorted(cum, rng.random(k), side="right").clip(0, n - 1)
        v = np.searchsorted(cum, rng.random(k), side="right").clip(0, n - 1)
        ok = u != v
        lo, hi = np.minimum(u[ok], v[ok]), np.maximum(u[ok], v[ok])
        keys = np.unique(np.concatenate([keys, lo * n + hi]))
    keys = rng.permutation(keys)[:m]
    return Graph.from_edges(n, np.column_stack([keys // n, keys % n]))


def recursive_tree(n: int, seed: int = 0) -> Graph:
    """Uniform random recursive tree: node v > 0 attaches to a uniform node < v.  O(n log n)."""
    rng = np.random.default_rng(seed)
    v = np.arange(1, n, dtype=np.int64)
    return Graph.from_edges(n, np.column_stack([(rng.random(n - 1) * v).astype(np.int64), v]))


def fmt_buckets(b: BucketCounts) -> str:
    return " | ".join(f"{c:,} ({100 * f:.1f}%)" for c, f in zip(b.counts, b.fractions, strict=True))


def refinement_section(graphs, repeat: int) -> None:
    print("\n## Vertex refinement H_i and H*\n")
    print("| graph | n | m | H* time | rounds | stable level s | classes at H_1 … H* |")
    print("|---|---|---|---|---|---|---|")
    results = {}
    for name, g in graphs:
        sec, r = median_time(lambda g=g: vertex_refinement(g), repeat)
        results[name] = r
        cls = " → ".join(f"{c:,}" for c in r.n_classes[1:])
        print(f"| {name} | {g.n_nodes:,} | {g.n_edges:,} | {sec:.3f} s | "
              f"{len(r.round_seconds)} | {r.stable_level} | {cls} |", flush=True)  # fmt: skip
    print("\nCandidate-set sizes, nodes per bucket (share of n):\n")
    print("| graph | query | " + " | ".join(BUCKET_LABELS) + " |")
    print("|---|---|" + "---|" * len(BUCKET_LABELS))
    for name, _ in graphs:
        r = results[name]
        for i in (1, 2, 3, 4):
            print(f"| {name} | H_{i} | {fmt_buckets(r.buckets(i))} |")
        print(f"| {name} | H* (= H_{r.stable_level}) | {fmt_buckets(r.buckets())} |")


def subgraph_section(graphs, facts: int, step: int, backtrack_targets: int) -> None:
    print(f"\n## Subgraph knowledge: breadth-first edge facts 0..{facts} (tree version)\n")
    print("| graph | exact degrees | targets | time (all budgets) | time at "
          f"{facts} facts only |")  # fmt: skip
    print("|---|---|---|---|---|")
    rows = []
    for name, g in graphs:
        for exact in (True, False):
            t = time.perf_counter()
            res = subgraph_knowledge_experiment(g, facts, exact_degrees=exact)
            sec_all = time.perf_counter() - t
            m = SubgraphMatcher(g)
            t = time.perf_counter()
            for x in range(g.n_nodes):
                m.candidate_mask(gather_edge_facts(g, x, facts, exact_degrees=exact))
            sec_last = time.perf_counter() - t
            print(f"| {name} | {exact} | {g.n_nodes:,} | {sec_all:.2f} s | {sec_last:.2f} s |",
                  flush=True)  # fmt: skip
            rows.append((name, exact, res))
    print("\nCandidate-set sizes per number of edge facts, nodes per bucket (share of n):\n")
    print("| graph | exact degrees | facts | " + " | ".join(BUCKET_LABELS) + " |")
    print("|---|---|---|" + "---|" * len(BUCKET_LABELS))
    for name, exact, res in rows:
        for b in sorted(set(range(0, facts + 1, step)) | {facts}):
            print(f"| {name} | {exact} | {b} | {fmt_buckets(res.buckets(b))} |")
    if backtrack_targets:
        print(f"\nReference matcher (backtracking) against Hall at {facts} facts, exact degrees "
              "(fresh matchers):\n")  # fmt: skip
        print("| graph | targets | backtracking | Hall (vectorized) | same candidate sets |")
        print("|---|---|---|---|---|")
        for name, g in graphs:
            if backtrack_targets < 0 or backtrack_targets >= g.n_nodes:
                targets = np.arange(g.n_nodes)
            else:
                rng = np.random.default_rng(0)
                targets = np.sort(rng.choice(g.n_nodes, backtrack_targets, replace=False))
            knowledge = [gather_edge_facts(g, x, facts) for x in targets.tolist()]
            masks = {}
            for method in ("backtrack", "hall"):
                m = SubgraphMatcher(g)
                t = time.perf_counter()
                masks[method] = [m.candidate_mask(f, method=method) for f in knowledge]
                masks[method + "_s"] = time.perf_counter() - t
            same = all(
                np.array_equal(a, b) for a, b in zip(masks["backtrack"], masks["hall"], strict=True)
            )
            print(f"| {name} | {targets.size:,} | {masks['backtrack_s']:.1f} s | "
                  f"{masks['hall_s']:.2f} s | {same} |", flush=True)  # fmt: skip


def perturbation_section(graphs, fractions, seed: int) -> None:
    print("\n## H_1 under random perturbation (RAD: m deletions, then m insertions)\n")
    print("Equivalent candidate-set size ⌊1 / max_y C_x[y]⌋ (seed 002 §A.2.8), one perturbed "
          "graph per level:\n")  # fmt: skip
    print("| graph | m / \\|E\\| | m | time | " + " | ".join(BUCKET_LABELS) + " |")
    print("|---|---|---|---|" + "---|" * len(BUCKET_LABELS))
    for name, g in graphs:
        for f in fractions:
            pert = random_add_delete(g, f, seed=seed)
            m = pert.parameters["m"]
            t = time.perf_counter()
            risk = perturbation_h1_risk(g, pert.graph, m)
            sec = time.perf_counter() - t
            print(f"| {name} | {100 * f:g}% | {m:,} | {sec:.2f} s | {fmt_buckets(risk.buckets)} |",
                  flush=True)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument("--facts", type=int, default=10)
    ap.add_argument("--step", type=int, default=1, help="edge-fact step in the bucket table")
    ap.add_argument(
        "--backtrack-targets",
        type=int,
        default=500,
        help="compare the backtracking matcher on this many random targets (−1: all; 0: skip)",
    )
    ap.add_argument("--perturb", type=float, nargs="*", default=[0.0, 0.01, 0.02, 0.05, 0.1])
    ap.add_argument("--synthetic-edges", type=int, default=10**6)
    ap.add_argument("--skip-synthetic", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    real: list[tuple[str, Graph]] = []
    for name, file in (("ego-Facebook", "facebook_combined.txt"), ("ca-GrQc", "CA-GrQc.txt")):
        path = Path(args.data) / "graphs" / file
        if path.is_file():
            real.append((name, read_graph(path).graph))
        else:
            print(f"({name} not found at {path}; skipped)")
    synthetic: list[tuple[str, Graph]] = []
    gen_notes = []
    if not args.skip_synthetic:
        m = args.synthetic_edges
        for gamma, n in ((2.5, m // 10), (2.1, int(0.7 * m))):
            t = time.perf_counter()
            g = chung_lu(n, m, gamma, seed=args.seed)
            synthetic.append((f"Chung–Lu γ={gamma}", g))
            gen_notes.append(f"Chung–Lu γ={gamma}: {time.perf_counter() - t:.1f} s")
        synthetic.append(("random recursive tree", recursive_tree(m + 1, seed=args.seed)))

    print(f"Machine: {machine()}")
    if gen_notes:
        print(f"\n(generating the synthetic graphs, not timed below: {'; '.join(gen_notes)})")
    refinement_section(real + synthetic, args.repeat)
    order = sorted(real, key=lambda x: x[0] != "ca-GrQc")  # ca-GrQc first: the timing goal
    subgraph_section(order, args.facts, args.step, args.backtrack_targets)
    if args.perturb:
        perturbation_section(real, args.perturb, args.seed)


if __name__ == "__main__":
    main()
