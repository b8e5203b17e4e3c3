"""Narayanan–Shmatikov propagation on ego-Facebook, against SecGraph (REFERENCE_RESULTS.md).

SecGraph's experiment: two independent 90 % edge samples of facebook_combined.txt, each
keeping the BFS spanning tree from the maximum-degree node (:func:`privlab.graph.pairs.\
secgraph_pair`), the same node ids on both sides, the 50 top-degree nodes as seeds, NS at
θ = 0.1 and θ = 1.  SecGraph (Java): 1,959 correct of 1,997 mapped in 35.8 s and 1.5 GB at
θ = 0.1; 102/102 in 31.3 s and 1.4 GB at θ = 1.  Acceptance target for privlab: as many
correct pairs at θ = 0.1 in ≤ 3.58 s (10× faster) and ≤ 300 MB.

    python3 benchmarks/bench_propagation.py                  # pair seed 0, 5 timed runs
    python3 benchmarks/bench_propagation.py --pairs 10       # + the spread over 10 pairs
    python3 benchmarks/bench_propagation.py --no-reference   # skip the pure-Python loops

Each configuration runs in a fresh subprocess of this interpreter, so that its peak resident
memory (``ru_maxrss``: interpreter, numpy/scipy, the graph, the pair and the attack — the
same scope as SecGraph's JVM figure) is its own.  Reported per row: correct / mapped
(seeds included, as SecGraph's output line), passes, the median wall time of the attack
call over ``--runs`` runs, the tracemalloc peak of one separate call (Python + numpy
allocations of the attack alone), the process's RSS before the attack and its peak.  The
pure-Python reference (:func:`~privlab.graph.attacks.propagation.propagate_reference`) runs
once on the same pair when it is expected to finish within ``--reference-limit`` seconds
(about 15 s here), and its mapping is compared with the fast one's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import default_data, machine, peak_rss_mib

SECGRAPH = {  # REFERENCE_RESULTS.md
    0.1: ("1,959 / 1,997", "35.8 s", "1.5 GB"),
    1.0: ("102 / 102", "31.3 s", "1.4 GB"),
}


def _load(data: str, pair_seed: int):
    from privlab.graph.attacks.propagation import top_degree_seeds
    from privlab.graph.core import read_graph
    from privlab.graph.pairs import secgraph_pair

    g = read_graph(Path(data) / "graphs" / "facebook_combined.txt").graph
    pair = secgraph_pair(g, 0.9, seed=pair_seed)
    return pair, top_degree_seeds(pair.aux, pair, 50)


def child(args: argparse.Namespace) -> None:
    """One configuration, printed as one JSON line."""
    from privlab.graph.attacks.propagation import propagate, propagate_reference

    fn = propagate if args.child == "fast" else propagate_reference
    pair, seeds = _load(args.data, args.pair_seed)
    rss_before = peak_rss_mib()
    times, res = [], None
    for _ in range(args.runs):
        t0 = time.perf_counter()
        res = fn(pair.aux, pair.san, seeds, args.theta, truth=pair)
        times.append(time.perf_counter() - t0)
    tracemalloc.start()
    fn(pair.aux, pair.san, seeds, args.theta, truth=pair)
    traced = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    out = {
        "correct": res.correct,
        "mapped": res.mapped,
        "passes": res.passes,
        "scored": res.scored,
        "seconds": statistics.median(times),
        "all_seconds": times,
        "traced_mib": traced,
        "rss_before_mib": rss_before,
        "rss_peak_mib": peak_rss_mib(),
        "digest": hashlib.sha256(res.mapping.tobytes()).hexdigest()[:16],
    }
    print(json.dumps(out))


def run_child(kind: str, theta: float, args: argparse.Namespace, runs: int) -> dict:
    cmd = [
        sys.executable, __file__, "--child", kind, "--theta", str(theta), "--runs", str(runs),
        "--pair-seed", str(args.pair_seed), "--data", args.data,
    ]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if proc.returncode:
        raise RuntimeError(proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def spread(args: argparse.Namespace) -> None:
    """correct / mapped over ``--pairs`` pair seeds, top-degree and discovered seeds."""
    from privlab.graph.attacks.propagation import discover_seeds, propagate, top_degree_seeds
    from privlab.graph.core import read_graph
    from privlab.graph.pairs import secgraph_pair

    g = read_graph(Path(args.data) / "graphs" / "facebook_combined.txt").graph
    print(f"\n### Spread over {args.pairs} pairs (pair seeds 0..{args.pairs - 1})\n")
    print(
        "| pair seed | θ = 0.1 correct / mapped | s | θ = 1 correct / mapped | s "
        "| discovered seeds correct | θ = 0.1 from discovered seeds | s (discovery + NS) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    lo, hi = [], []
    for ps in range(args.pairs):
        pair = secgraph_pair(g, 0.9, seed=ps)
        seeds = top_degree_seeds(pair.aux, pair, 50)
        a = propagate(pair.aux, pair.san, seeds, 0.1, truth=pair)
        b = propagate(pair.aux, pair.san, seeds, 1.0, truth=pair)
        t0 = time.perf_counter()
        found = discover_seeds(pair.aux, pair.san, 50)
        c = propagate(pair.aux, pair.san, found.pairs, 0.1, truth=pair)
        tc = time.perf_counter() - t0
        lo.append((a.correct, a.mapped))
        hi.append((b.correct, b.mapped))
        print(
            f"| {ps} | {a.correct:,} / {a.mapped:,} | {a.seconds:.2f} | {b.correct:,} / "
            f"{b.mapped:,} | {b.seconds:.2f} | {found.correct(pair)} / 50 | {c.correct:,} / "
            f"{c.mapped:,} | {tc:.2f} |"
        )
    med = np.median(np.array(lo), axis=0)
    med1 = np.median(np.array(hi), axis=0)
    print(
        f"\nmedian θ = 0.1: {med[0]:,.0f} / {med[1]:,.0f}; median θ = 1: {med1[0]:,.0f} / "
        f"{med1[1]:,.0f}  (SecGraph, one pair: 1,959 / 1,997 and 102 / 102)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument("--pair-seed", type=int, default=0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pairs", type=int, default=0, help="also show the spread over N pairs")
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--reference-limit", type=float, default=300.0)
    ap.add_argument("--child", choices=["fast", "reference"], help=argparse.SUPPRESS)
    ap.add_argument("--theta", type=float, default=0.1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    if not (Path(args.data) / "graphs" / "facebook_combined.txt").is_file():
        sys.exit(f"facebook_combined.txt not found under {args.data}/graphs (set PRIVLAB_DATA)")

    print(f"# NS propagation on ego-Facebook — {machine()}\n")
    print(
        f"Pair: secgraph_pair(facebook_combined, p = 0.9, seed = {args.pair_seed}); seeds: the "
        "50 top-degree nodes of G1 with their true counterparts.\n"
    )
    print(
        "| θ | implementation | correct / mapped | passes | nodes scored | time (median) "
        "| tracemalloc peak | RSS before → peak |"
    )
    print("|---|---|---|---|---|---|---|---|")
    digests = {}
    for theta in (0.1, 1.0):
        fast = run_child("fast", theta, args, args.runs)
        digests[theta] = fast["digest"]
        rows = [("privlab `propagate` (sparse)", fast)]
        if not args.no_reference:
            # the reference scores every unmapped node against all 4,039 in every pass:
            # ≈ 0.35 ms per scoring here; skip it if that would exceed the limit
            estimate = 0.35e-3 * 4039 * 2 * fast["passes"]
            if estimate <= args.reference_limit:
                ref = run_child("reference", theta, args, 1)
                same = "identical mapping" if ref["digest"] == fast["digest"] else "DIFFERENT"
                rows.append((f"privlab `propagate_reference` (pure Python; {same})", ref))
            else:
                print(f"| {theta} | reference skipped: ≈ {estimate:.0f} s expected |||||||")
        for name, r in rows:
            print(
                f"| {theta} | {name} | {r['correct']:,} / {r['mapped']:,} | {r['passes']} | "
                f"{r['scored']:,} | {r['seconds']:.3f} s | {r['traced_mib']:.1f} MiB | "
                f"{r['rss_before_mib']:.0f} → {r['rss_peak_mib']:.0f} MiB |"
            )
        c, t, m = SECGRAPH[theta]
        print(f"| {theta} | SecGraph NS (Java, REFERENCE_RESULTS) | {c} | | | {t} | | {m} |")
    if args.pairs:
        spread(args)


if __name__ == "__main__":
    main()
