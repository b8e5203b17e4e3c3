"""Symmetry schemes on real graphs: orbits vs H*, k-symmetry, k-automorphism, k-isomorphism.

    PYTHONPATH=src PRIVLAB_DATA=../shared/data python3 benchmarks/bench_symmetry.py [--k 2 5]

Prints one Markdown table per part: the orbits of karate, ca-GrQc and ego-Facebook next to
their H* classes, and for each scheme and k the nodes and edges added, whether the release
passed its definition check, and the time.  Every release is checked by its definition
(k-symmetry: every bliss orbit ≥ k; k-automorphism: each F_t a fixed-point-free
automorphism; k-isomorphism: no edge between the k subgraphs, each isomorphic to the first)
inside the scheme.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import networkx as nx

from privlab.graph.anonymize.kautomorphism import kautomorphism_anonymize
from privlab.graph.anonymize.kisomorphism import kisomorphism_anonymize
from privlab.graph.anonymize.ksymmetry import ksymmetry_anonymize
from privlab.graph.attacks.refinement import vertex_refinement
from privlab.graph.automorphism import automorphism_orbits
from privlab.graph.core import Graph, read_graph


def graphs() -> dict[str, Graph]:
    root = Path(os.environ.get("PRIVLAB_DATA", Path(__file__).resolve().parents[2] / "shared"
                               / "data")) / "graphs"  # fmt: skip
    out = {"karate": Graph.from_networkx(nx.karate_club_graph())}
    for name, file in (("ca-GrQc", "CA-GrQc.txt"), ("ego-Facebook", "facebook_combined.txt")):
        if (root / file).is_file():
            out[name] = read_graph(root / file).graph
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=[2, 5])
    args = parser.parse_args()
    data = graphs()
    print("| graph | nodes | edges | H* classes | orbits | H* classes split | log10 |Aut| "
          "| orbits s |\n|---|---|---|---|---|---|---|---|")  # fmt: skip
    for name, g in data.items():
        o = automorphism_orbits(g)
        star = vertex_refinement(g)
        n_star = star.n_classes[-1]
        print(f"| {name} | {g.n_nodes} | {g.n_edges} | {n_star} | {o.n_orbits} | "
              f"{o.n_orbits - n_star} | {o.to_dict()['log10_group_size']:.1f} | "
              f"{o.seconds:.2f} |")  # fmt: skip
    print("\n| graph | scheme | k | nodes added | edges added | edges removed | release edges "
          "| verified | s |\n|---|---|---|---|---|---|---|---|---|")  # fmt: skip
    for name, g in data.items():
        for k in args.k:
            for scheme, run in (
                ("ksymmetry", lambda g, k: ksymmetry_anonymize(g, k)),
                ("kautomorphism (bfs)", lambda g, k: kautomorphism_anonymize(g, k, seed=0)),
                ("kautomorphism (random)",
                 lambda g, k: kautomorphism_anonymize(g, k, table="random", seed=0)),
                ("kisomorphism (bfs)", lambda g, k: kisomorphism_anonymize(g, k, seed=0)),
                ("kisomorphism (random)",
                 lambda g, k: kisomorphism_anonymize(g, k, table="random", seed=0)),
            ):  # fmt: skip
                t0 = time.perf_counter()
                r = run(g, k)
                d = r.to_dict()
                print(f"| {name} | {scheme} | {k} | {d['nodes_added']} | {d['edges_added']} | "
                      f"{d['edges_removed']} | {r.graph.n_edges} | {d['verified']} | "
                      f"{time.perf_counter() - t0:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
