"""Structure-aware perturbation schemes against plain RAD/RSW on the SNAP graphs.

For each scheme and level: wall time, edges removed/added, λ1 and μ2 (of the largest
connected component) of the release minus the original's, and the Hellinger distance of the
degree distributions (``privlab graph utility``'s degree_distribution).  Levels are Sharad's
(seed 004 §2.9: RAD 0.10/0.25/0.50, RSW 0.20/0.50/0.85) for the spectrum schemes and their
plain counterparts; t = 2, 3, 5 for the random walk; k = 5, 10 for supernodes (measured on a
graph sampled from the release).

    PYTHONPATH=src PRIVLAB_DATA=../shared/data python3 benchmarks/bench_perturbation_schemes.py \
        --graph facebook_combined.txt --scheme spctr-ad --scheme rad [--values 0.1,0.25]

Prints one markdown row per run (and --json FILE writes them all).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

LEVELS = {
    "rad": [0.10, 0.25, 0.50], "spctr-ad": [0.10, 0.25, 0.50],
    "rsw": [0.20, 0.50, 0.85], "spctr-sw": [0.20, 0.50, 0.85],
    "randwalk": [2, 3, 5], "supernode": [5, 10],
}  # fmt: skip


def run(graph, scheme: str, value, seed: int) -> tuple[object, dict]:
    from privlab.graph.anonymize import perturb, randomwalk, spectrum
    from privlab.graph.anonymize.generalize import sample_graph, supernode_generalize

    if scheme == "supernode":
        gen = supernode_generalize(graph, int(value), seed=seed)
        return sample_graph(gen, seed=seed), {"log_worlds": gen.log_worlds,
                                              "log_worlds_start": gen.log_worlds_start}
    fn = {
        "rad": perturb.random_add_delete, "rsw": perturb.random_switch,
        "spctr-ad": spectrum.spectrum_add_delete, "spctr-sw": spectrum.spectrum_switch,
        "randwalk": randomwalk.random_walk_perturbation,
    }[scheme]  # fmt: skip
    r = fn(graph, value, seed=seed)
    return r.graph, {"edges_removed": r.edges_removed, "edges_added": r.edges_added}


def main() -> None:
    from privlab.errors import PrivlabError
    from privlab.graph.anonymize.spectrum import spectral_summary
    from privlab.graph.core import read_graph
    from privlab.graph.utility import compare

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--graph", required=True, help="file name under $PRIVLAB_DATA/graphs")
    ap.add_argument("--scheme", action="append", required=True, choices=sorted(LEVELS))
    ap.add_argument("--values", help="comma-separated levels (default: the scheme's)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    data = Path(os.environ.get("PRIVLAB_DATA", "../shared/data"))
    g = read_graph(data / "graphs" / args.graph).graph
    s0 = spectral_summary(g)
    print(f"{args.graph}: n = {g.n_nodes}, |E| = {g.n_edges}, λ1 = {s0.lambda1:.4f}, "
          f"μ2 = {s0.mu2:.5f} (largest component: {s0.mu2_nodes} nodes)")  # fmt: skip
    print("| scheme | level | seconds | removed | added | Δλ1 | Δμ2 | DD Hellinger |")
    print("|---|---|---|---|---|---|---|---|")
    rows = []
    for scheme in args.scheme:
        levels = LEVELS[scheme] if not args.values else [
            (int if scheme in ("randwalk", "supernode") else float)(v)
            for v in args.values.split(",")
        ]  # fmt: skip
        for value in levels:
            t = time.perf_counter()
            try:
                out, extra = run(g, scheme, value, args.seed)
            except PrivlabError as e:  # e.g. no acceptable switch left near fraction 1
                print(f"| {scheme} | {value} | {time.perf_counter() - t:.2f} | error: {e} |")
                rows.append({"graph": args.graph, "scheme": scheme, "level": value,
                             "error": str(e)})  # fmt: skip
                continue
            seconds = time.perf_counter() - t
            s = spectral_summary(out)
            dd = compare(g, out, metrics=["degree_distribution"]).to_dict()
            row = {
                "graph": args.graph, "scheme": scheme, "level": value, "seconds": seconds,
                "d_lambda1": s.lambda1 - s0.lambda1, "d_mu2": s.mu2 - s0.mu2,
                "mu2_nodes": s.mu2_nodes,
                "dd_hellinger": dd["metrics"]["degree_distribution"]["difference"], **extra,
            }  # fmt: skip
            rows.append(row)
            print(f"| {scheme} | {value} | {seconds:.2f} | {row.get('edges_removed', '—')} | "
                  f"{row.get('edges_added', '—')} | {row['d_lambda1']:+.4f} | "
                  f"{row['d_mu2']:+.5f} | {row['dd_hellinger']:.4f} |", flush=True)  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
