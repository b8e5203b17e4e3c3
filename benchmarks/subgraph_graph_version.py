"""Subgraph knowledge, tree vs graph version (seed 002 L336–349): fraction of targets uniquely
identified after b = 1, 2, 5, 10 breadth-first edge facts (exact degrees), on ca-GrQc and
ego-Facebook, naive anonymization (the release is the graph itself).

    PYTHONPATH=src python3 benchmarks/subgraph_graph_version.py [--targets N] [--seed S]

Data: $PRIVLAB_DATA/graphs (default /work/shared/data/graphs).  --targets 0 = every node.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from privlab.graph.attacks.subgraph import SubgraphMatcher, subgraph_knowledge_experiment
from privlab.graph.core import read_graph

BUDGETS = (1, 2, 5, 10)
GRAPHS = {"ca-GrQc": "CA-GrQc.txt", "ego-Facebook": "facebook_combined.txt"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--targets", type=int, default=0, help="random targets (0: all nodes)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--graphs", default=",".join(GRAPHS))
    args = ap.parse_args()
    root = Path(os.environ.get("PRIVLAB_DATA", "/work/shared/data")) / "graphs"
    print(f"{'graph':14s} {'mode':5s} {'targets':>7s} "
          + " ".join(f"b={b:<5d}" for b in BUDGETS) + "  seconds")  # fmt: skip
    for name in args.graphs.split(","):
        g = read_graph(root / GRAPHS[name]).graph
        targets = None
        if 0 < args.targets < g.n_nodes:
            rng = np.random.default_rng(args.seed)
            targets = np.sort(rng.choice(g.n_nodes, args.targets, replace=False))
        m = SubgraphMatcher(g)
        for mode in ("tree", "graph"):
            t0 = time.perf_counter()
            res = subgraph_knowledge_experiment(
                g, max(BUDGETS), targets=targets, seed=args.seed, matcher=m, mode=mode
            )
            unique = [(res.sizes[:, b] == 1).mean() for b in BUDGETS]
            print(f"{name:14s} {mode:5s} {res.targets.size:7d} "
                  + " ".join(f"{u:7.4f}" for u in unique)
                  + f"  {time.perf_counter() - t0:7.1f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
