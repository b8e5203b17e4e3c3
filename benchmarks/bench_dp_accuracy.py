"""Accuracy of privlab's DP answers, measured: interval coverage, plan round trips, and the
error saved by hierarchical consistency (issue 18, scope item 5).

* **coverage**: the fraction of ``--draws`` releases whose 95 % interval holds the true
  value, beside the coverage the accuracy record states (exact for the discrete noises,
  a lower bound for the mean).  Vector releases give many independent draws in one call.
* **plan**: ``epsilon_for_error`` for a few targets — ε found, its error, the error at
  ``epsilon_below`` (must exceed the target) and the CPU time of the search.
* **consistency**: mean squared error of the raw noisy counts and of the least-squares
  consistent estimate on a complete binary tree (Hay et al. 2010), and the CPU time of
  ``consistent_tree`` on a tree of ``--tree-nodes`` nodes.

    PYTHONPATH=src python3 benchmarks/bench_dp_accuracy.py [--draws 100000] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from privlab.dp.accuracy import epsilon_for_error, interval, query_error
from privlab.dp.mechanisms import gaussian, laplace
from privlab.dp.noise import discrete_laplace, secure_generator
from privlab.dp.postprocess import consistent_tree
from privlab.dp.queries import clamped_mean, histogram


def _covered(release, truth) -> float:
    low, high = (np.asarray(b) for b in interval(release.value, release.accuracy))
    return float(np.mean((low <= truth) & (truth <= high)))


def coverage(draws: int, means: int) -> list[dict]:
    rng = np.random.default_rng(1)
    counts = rng.integers(0, 20, draws)
    codes = np.repeat(np.arange(draws), counts)
    reals = rng.uniform(-5, 5, draws)
    rows = []
    for name, release, truth in (
        ("histogram, geometric ε=0.5", histogram(codes, draws, 0.5, seed=2), counts),
        ("histogram, discrete Gaussian ε=0.5 δ=1e-6",
         histogram(codes, draws, 0.5, delta=1e-6, seed=3), counts),
        ("real vector, Laplace on a grid Δ=4 ε=2", laplace(reals, 4.0, 2.0, seed=4), reals),
        ("real vector, Gaussian on a grid Δ₂=4 ε=2 δ=1e-5",
         gaussian(reals, 4.0, 2.0, 1e-5, seed=5), reals),
    ):  # fmt: skip
        rows.append({"release": name, "stated": release.accuracy["coverage"],
                     "measured": _covered(release, truth), "draws": draws})  # fmt: skip
    values = rng.uniform(0, 10, 30)
    gen = secure_generator(6)
    hits = 0
    for _ in range(means):
        r = clamped_mean(values, 0, 10, 1.0, seed=gen)
        hits += r.accuracy["ci_low"] <= values.mean() <= r.accuracy["ci_high"]
    rows.append({"release": "clamped mean of 30 values in [0, 10], ε=1", "stated": "≥ 0.95",
                 "measured": hits / means, "draws": means})  # fmt: skip
    return rows


def plans() -> list[dict]:
    rows = []
    for kind, target, options in (
        ("count", 5.0, {}),
        ("sum", 50.0, {"low": 0, "high": 100}),
        ("mean", 1.0, {"low": 0, "high": 100, "n": 1000}),
        ("histogram", 40.0, {"delta": 1e-6, "groups_per_unit": 4, "rows_per_unit": 2}),
    ):
        start = time.process_time()
        plan = epsilon_for_error(target, kind, **options)
        cpu = time.process_time() - start
        below = query_error(kind, plan.epsilon_below, **options).error
        rows.append({"query": kind, "options": options, "target": target,
                     "epsilon": plan.epsilon, "error": plan.error, "error_below": below,
                     "cpu_s": round(cpu, 3)})  # fmt: skip
    return rows


def consistency(trials: int, nodes: int) -> dict:
    depth = 6
    n = 2 ** (depth + 1) - 1
    parent = np.array([-1] + [(i - 1) // 2 for i in range(1, n)])
    rng = np.random.default_rng(7)
    truth = np.zeros(n)
    truth[n - 2**depth :] = rng.integers(0, 100, 2**depth)
    for i in range(n - 2**depth - 1, -1, -1):
        truth[i] = truth[2 * i + 1] + truth[2 * i + 2]
    noise = np.asarray(discrete_laplace(depth + 1, (trials, n), rng=rng))
    fixed = np.array([consistent_tree(truth + e, parent).estimate - truth for e in noise])
    leaves = slice(n - 2**depth, n)
    big_parent = np.array([-1] + [(i - 1) // 4 for i in range(1, nodes)])
    y = rng.normal(size=nodes)
    start = time.process_time()
    consistent_tree(y, big_parent)
    cpu = time.process_time() - start
    return {
        "tree": f"complete binary, depth {depth} ({n} nodes), DLap({depth + 1}) at every node",
        "trials": trials,
        "mse_raw": float((noise**2).mean()),
        "mse_consistent": float((fixed**2).mean()),
        "mse_raw_root": float((noise[:, 0] ** 2).mean()),
        "mse_consistent_root": float((fixed[:, 0] ** 2).mean()),
        "mse_raw_leaves": float((noise[:, leaves] ** 2).mean()),
        "mse_consistent_leaves": float((fixed[:, leaves] ** 2).mean()),
        "large_tree_nodes": nodes,
        "large_tree_cpu_s": round(cpu, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=100_000)
    parser.add_argument("--means", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--tree-nodes", type=int, default=10**6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {
        "coverage": coverage(args.draws, args.means),
        "plan": plans(),
        "consistency": consistency(args.trials, args.tree_nodes),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for row in result["coverage"]:
        print(f"coverage  {row['release']:<48} stated {row['stated']!s:<22} "
              f"measured {row['measured']:.4f} ({row['draws']} draws)")  # fmt: skip
    for row in result["plan"]:
        print(f"plan      {row['query']:<9} ±{row['target']:<5g} → ε = {row['epsilon']:.6g} "
              f"(error {row['error']:.6g}; at ε_below {row['error_below']:.6g}) "
              f"{row['cpu_s']} s CPU")  # fmt: skip
    c = result["consistency"]
    print(f"consistency {c['tree']}, {c['trials']} trials: MSE raw {c['mse_raw']:.3f} → "
          f"consistent {c['mse_consistent']:.3f} (root {c['mse_raw_root']:.2f} → "
          f"{c['mse_consistent_root']:.2f}, leaves {c['mse_raw_leaves']:.2f} → "
          f"{c['mse_consistent_leaves']:.2f}); {c['large_tree_nodes']} nodes in "
          f"{c['large_tree_cpu_s']} s CPU")  # fmt: skip


if __name__ == "__main__":
    main()
