"""KL, DV and YG on ego-Facebook, against SecGraph (REFERENCE_RESULTS.md), side by side.

Two pairs of facebook_combined.txt, 50 top-degree seeds each (the G1 nodes of highest
degree with their true counterparts, :func:`~privlab.graph.attacks.propagation.\
top_degree_seeds`):

* SecGraph's: two independent 90 % edge samples keeping a BFS tree, same node ids
  (:func:`~privlab.graph.pairs.secgraph_pair`, ``privlab graph pair --secgraph --p 0.9``);
  SecGraph (Java, REFERENCE_RESULTS.md, its own pair): KL 590 / 4,039 in 18.4 s and 1.5 GB,
  DV (queue) 536 / 4,039 in 17.2 s and 1.0 GB.
* Sharad's 0.5 / 0.5: :func:`~privlab.graph.pairs.sample_pair` with α_V = α_E = 0.5.

Rows: privlab's KL (the paper's Algorithm 1, and ``variant="secgraph"`` with window 50), DV
(block 100, keep 10, queue) and YG (most-marks and random order, r = 2, 3 and 5); correct /
wrong / mapped, coverage, the wall and CPU time of the call and the tracemalloc peak of a
second call.

``--secgraph-classes DIR``: also run SecGraph's own ``deAnonymize.UserMatching`` (-nTest 50)
and ``deAnonymize.DV`` (100, 10, queue) on the *same* pair and seed files, compiled outside
this repository (javac 17; UserMatching and DV need only ``common.{Graph, Pair, Utilities,
MinWeightHungarianAlgorithm, TreeNode}``), and report how many of their pairs privlab's
mapping shares, with their wall time, CPU time (user + sys of the JVM) and peak RSS.

    python3 benchmarks/bench_seeded_attacks.py [--pair-seed 0] [--secgraph-classes DIR]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import default_data, machine

SECGRAPH = {"kl": ("590 / 4,039", "18.4 s", "1.5 GB"), "dv": ("536 / 4,039", "17.2 s", "1.0 GB")}


def attacks():
    from privlab.graph.attacks.distance_vector import distance_vector
    from privlab.graph.attacks.percolation import percolate
    from privlab.graph.attacks.reconciliation import reconcile

    return [
        ("KL (paper, T = 2)", lambda a, b, s, t: reconcile(a, b, s, truth=t)),
        ("KL (secgraph, window 50)",
         lambda a, b, s, t: reconcile(a, b, s, variant="secgraph", window=50, truth=t)),
        ("DV (100, 10, queue)", lambda a, b, s, t: distance_vector(a, b, s, truth=t)),
        *[(f"YG ({o}, r = {r})",
           lambda a, b, s, t, r=r, o=o: percolate(a, b, s, r=r, order=o, seed=0, truth=t))
          for o in ("most-marks", "random") for r in (2, 3, 5)],
    ]  # fmt: skip


def measure(fn, pair, seeds):
    truth = pair.truth_array()
    w0, c0 = time.perf_counter(), time.process_time()
    res = fn(pair.aux, pair.san, seeds, truth)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    tracemalloc.start()
    fn(pair.aux, pair.san, seeds, truth)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return res, wall, cpu, peak


def java(classes: Path, work: Path, cls: str, args: list[str]) -> tuple[dict, float, float, float]:
    """Run a SecGraph class; (its mapping G1 → G2, wall s, CPU s, peak RSS MiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(["java", "-cp", str(classes), cls, *args], cwd=work, check=True,
                   capture_output=True, timeout=3600)  # fmt: skip
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = {}
    for line in (work / args[-2 if cls.endswith("DV") else -1]).read_text().splitlines():
        a = line.split()
        if len(a) == 2 and all(x.lstrip("-").isdigit() for x in a):
            out[int(a[0])] = int(a[1])
    if cls.endswith("DV"):  # DV writes the seeds, then G2 node → G1 node (identity seeds here)
        out = {v: k for k, v in out.items()}
    return out, wall, cpu, after.ru_maxrss / 1024


def secgraph_rows(classes: Path, pair, seeds, mine: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, g in (("g1.txt", pair.aux), ("g2.txt", pair.san)):
            (work / name).write_text("".join(f"{a} {b}\n" for a, b in g.edges().tolist()))
        (work / "seeds.txt").write_text("".join(f"{a} {b}\n" for a, b in seeds.tolist()))
        truth = pair.truth_array()
        runs = [("SecGraph UserMatching (-nTest 50)", "deAnonymize.UserMatching",
                 ["g1.txt", "g2.txt", "seeds.txt", "50", "kl.out"], "KL (secgraph, window 50)"),
                ("SecGraph DV (100, 10, queue)", "deAnonymize.DV",
                 ["g1.txt", "g2.txt", "seeds.txt", "100", "10", "dv.out", "queue"],
                 "DV (100, 10, queue)")]  # fmt: skip
        for label, cls, args, ours in runs:
            got, wall, cpu, rss = java(classes, work, cls, args)
            correct = sum(1 for a, b in got.items() if truth[a] == b)
            shared = sum(1 for a, b in got.items() if mine[ours].get(a) == b)
            n_true = max(int((truth >= 0).sum()), 1)
            print(f"| {label} | {correct:,} | {len(got) - correct:,} | {len(got):,} | "
                  f"{correct / n_true:.4f} | {wall:.2f} s | {cpu:.2f} s | {rss:.0f} MiB (RSS) "
                  f"| {shared:,} pairs shared with {ours} |")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument("--pair-seed", type=int, default=0)
    ap.add_argument("--secgraph-classes", type=Path, default=None)
    args = ap.parse_args()
    from privlab.graph.attacks.propagation import top_degree_seeds
    from privlab.graph.core import read_graph
    from privlab.graph.pairs import sample_pair, secgraph_pair

    source = Path(args.data) / "graphs" / "facebook_combined.txt"
    if not source.is_file():
        sys.exit(f"{source} not found (set PRIVLAB_DATA)")
    g = read_graph(source).graph
    pairs = [
        (f"secgraph_pair(p = 0.9, seed = {args.pair_seed})",
         secgraph_pair(g, 0.9, seed=args.pair_seed)),
        (f"sample_pair(α_V = 0.5, α_E = 0.5, seed = {args.pair_seed})",
         sample_pair(g, 0.5, 0.5, seed=args.pair_seed)),
    ]  # fmt: skip
    print(f"# KL, DV, YG on ego-Facebook — {machine()}\n")
    for title, pair in pairs:
        seeds = top_degree_seeds(pair.aux, pair, 50)
        n_true = int((pair.truth_array() >= 0).sum())
        print(f"\n## {title}: {pair.aux.n_nodes:,} / {pair.san.n_nodes:,} nodes, "
              f"{n_true:,} true pairs, 50 top-degree seeds\n")  # fmt: skip
        print("| attack | correct | wrong | mapped | coverage | wall | CPU | memory | |")
        print("|---|---|---|---|---|---|---|---|---|")
        mine = {}
        for name, fn in attacks():
            res, wall, cpu, peak = measure(fn, pair, seeds)
            mine[name] = {int(a): int(b) for a, b in res.pairs()}
            print(f"| privlab {name} | {res.correct:,} | {res.wrong:,} | {res.mapped:,} | "
                  f"{res.coverage:.4f} | {wall:.2f} s | {cpu:.2f} s | "
                  f"{peak:.1f} MiB (tracemalloc) | {res.rounds} rounds |")  # fmt: skip
        if pair.aux.n_nodes == pair.san.n_nodes and np.array_equal(
            pair.truth_array(), np.arange(pair.aux.n_nodes)
        ):
            for key, (c, t, m) in SECGRAPH.items():
                print(f"| SecGraph {key.upper()} (REFERENCE_RESULTS, its own pair) | {c} | | | "
                      f"| {t} | | {m} | |")  # fmt: skip
            if args.secgraph_classes is not None:
                secgraph_rows(args.secgraph_classes, pair, seeds, mine)


if __name__ == "__main__":
    main()
