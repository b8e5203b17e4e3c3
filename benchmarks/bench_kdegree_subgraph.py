"""Algorithm 9.1 (k-degree anonymization by edge deletions only, through the complement):
how many probes and deletions it needs on small real graphs, and whether it finishes on the
SNAP graphs within a probe budget.

    python3 benchmarks/bench_kdegree_subgraph.py                 # karate, Les Misérables
    python3 benchmarks/bench_kdegree_subgraph.py --snap --max-probes 1500  # + SNAP graphs

Prints one line per (graph, probing scheme, k): DP cost, edges removed (of m), probes, CPU s.
"""

from __future__ import annotations

import argparse
import time

import networkx as nx

from privlab.bench.registry import dataset_available, load_dataset
from privlab.errors import InfeasibleError
from privlab.graph.anonymize.kdegree import kdegree_subgraph
from privlab.graph.core import Graph


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--snap", action="store_true", help="also ego-Facebook, ca-GrQc")
    ap.add_argument("--max-probes", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cases = [
        ("karate", Graph.from_networkx(nx.karate_club_graph()), (2, 5, 10)),
        ("les-miserables", Graph.from_networkx(nx.les_miserables_graph()), (2, 5, 10)),
    ]
    if args.snap:
        for key, k in (("facebook", 5), ("ca-grqc", 2)):
            if dataset_available(key) is None:
                cases.append((key, load_dataset(key, {}), (k,)))
    for name, g, ks in cases:
        for probing in (4, 1):
            for k in ks:
                t = time.process_time()
                try:
                    r = kdegree_subgraph(g, k, probing=probing, max_probes=args.max_probes,
                                         seed=args.seed)  # fmt: skip
                    what = (f"dp_cost {r.dp_cost}, removed {r.edges_removed} of {g.n_edges}, "
                            f"probes {r.probes}")  # fmt: skip
                except InfeasibleError:
                    what = f"no graph within {args.max_probes} probes"
                print(
                    f"{name} (n {g.n_nodes}, m {g.n_edges}) scheme {probing} k {k}: {what}, "
                    f"{time.process_time() - t:.2f} s CPU",
                    flush=True,
                )


if __name__ == "__main__":
    main()
