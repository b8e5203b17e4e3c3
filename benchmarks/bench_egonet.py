"""The learned egonet linker (seed 004 Chapter 3, Tables 3.2–3.5) on ego-Facebook and ca-GrQc.

Per graph: ``egonet_release(graph, 2·egos, scheme, min_size)`` under Scheme 1 and Scheme 2
(the same egos for both schemes), split into two disjoint halves of ``egos`` egonets — train
and test (§2.8: separate train and test egonets).  Per (graph, scheme) ``train_linker`` fits
one classifier per case plus "complete" (default; ``--cases complete`` fits one) with the
thesis's forest (400 trees × 600 + 600 pairs, 5 % features per split) on 1-hop 70 × 15
features (4 901).  Tests: up to ``--test-pairs`` identical pairs per case against as many
shared non-identical pairs, degree > 5.  Self-validation: train and test halves of the same
graph (Tables 3.2/3.3 style); cross-validation: the Facebook linker on the ca-GrQc test
egonets and vice versa (Tables 3.4/3.5 style).  The seed's Epinions/Pokec numbers are printed
beside for reference (different graphs, sizes and egonet thresholds: not a like-for-like
comparison).

    python3 benchmarks/bench_egonet.py                      # 80 + 80 egos, forest, per case
    python3 benchmarks/bench_egonet.py --egos 50 --cases complete --method gbm

Times are wall-clock seconds on this machine (2 threads); other processes slow them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import default_data, machine, peak_rss_mib

FP_LABELS = ("0.01", "0.1", "1", "10", "25")
CASE_ROWS = ((1, "1-hop"), (2, "1,2-hop"), (3, "2-hop"), ("complete", "Complete"))

# Seed 004 §3.2, TP % at FP 0.01/0.1/1/10/25 %: (Scheme 1 row, Scheme 2 row) per case.
SEED_TABLES = {
    "3.2 Epinions self-validation": {
        "1-hop": ((70.81, 90.39, 96.80, 99.38, 99.63), (35.08, 52.92, 82.87, 97.33, 100.00)),
        "1,2-hop": ((30.35, 46.82, 67.25, 87.15, 93.35), (11.37, 25.95, 62.11, 83.95, 93.70)),
        "2-hop": ((5.11, 17.36, 35.32, 68.42, 84.65), (1.86, 7.33, 47.71, 99.98, 100.00)),
        "Complete": ((4.41, 17.76, 35.67, 68.08, 83.79), (0.34, 5.89, 36.33, 94.99, 98.62)),
    },
    "3.3 Pokec self-validation": {
        "1-hop": ((27.50, 42.92, 51.04, 88.75, 93.96), (4.20, 16.26, 49.89, 97.20, 99.58)),
        "1,2-hop": ((5.25, 11.58, 36.16, 73.24, 88.68), (0.79, 6.41, 28.32, 73.88, 94.66)),
        "2-hop": ((0.00, 12.55, 23.15, 49.14, 69.96), (1.62, 12.12, 50.42, 99.96, 99.99)),
        "Complete": ((0.01, 10.44, 20.48, 47.60, 68.36), (0.68, 6.12, 21.14, 64.12, 86.10)),
    },
    "3.4 Pokec tested, trained on Epinions": {
        "1-hop": ((19.38, 27.29, 34.79, 57.92, 76.25), (2.11, 5.40, 12.29, 28.29, 60.26)),
        "1,2-hop": ((2.98, 10.10, 26.52, 70.37, 90.72), (0.18, 2.08, 14.34, 49.25, 70.76)),
        "2-hop": ((1.71, 4.18, 18.84, 39.12, 52.52), (3.02, 13.57, 45.45, 99.80, 100.00)),
        "Complete": ((1.89, 4.05, 16.83, 36.81, 50.76), (1.00, 5.61, 19.22, 56.90, 72.76)),
    },
    "3.5 Epinions tested, trained on Pokec": {
        "1-hop": ((17.86, 43.60, 53.45, 74.63, 85.34), (1.44, 6.56, 64.51, 93.64, 99.69)),
        "1,2-hop": ((2.71, 6.11, 19.79, 57.65, 78.54), (0.57, 3.27, 23.80, 82.46, 91.93)),
        "2-hop": ((0.13, 0.68, 5.99, 35.99, 64.20), (0.03, 1.17, 9.72, 99.69, 99.99)),
        "Complete": ((0.05, 1.87, 7.52, 33.40, 61.54), (0.72, 2.96, 23.42, 93.12, 97.75)),
    },
}
GRAPHS = (("facebook", "facebook_combined.txt"), ("ca-GrQc", "CA-GrQc.txt"))


def _header() -> str:
    cols = ["case"]
    for s in ("S1", "S2"):
        cols += [f"{s} AUC"] + [f"{s} {f}" if k == 0 else f for k, f in enumerate(FP_LABELS)]
    return "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols)


def _cells(r) -> list[str]:
    if r is None:
        return ["n/a"] * 6
    return [f"{r.auc:.3f}"] + [f"{100 * t:.2f}" for t in r.tp_rates]


def _print_table(title: str, res_s1: dict, res_s2: dict) -> None:
    print(f"**{title}** (TP % at FP %, AUC)\n")
    print(_header())
    for case, name in CASE_ROWS:
        a, b = res_s1.get(case), res_s2.get(case)
        n = "/".join(str(r.n_positive) if r else "0" for r in (a, b))
        print(f"| {name} ({n} id.) | " + " | ".join(_cells(a) + _cells(b)) + " |")
    print()


def _print_seed(title: str) -> None:
    print(f"*Seed Table {title}* (no AUC printed in the seed)\n")
    print(_header())
    for name, (s1, s2) in SEED_TABLES[title].items():
        cells = ["—", *(f"{x:.2f}" for x in s1), "—", *(f"{x:.2f}" for x in s2)]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument("--egos", type=int, default=80, help="egonets per half (train, test)")
    ap.add_argument("--min-size", type=int, default=100, help="min 2-hop egonet nodes")
    ap.add_argument("--method", default="forest", choices=("forest", "gbm"))
    ap.add_argument("--cases", default="per-case", choices=("per-case", "complete"))
    ap.add_argument("--trees", type=int, default=400, help="forest trees T (thesis: 400)")
    ap.add_argument("--per-class", type=int, default=600, help="pairs per class per tree")
    ap.add_argument("--train-identical", type=int, default=3000, help="pool per case")
    ap.add_argument("--train-non-identical", type=int, default=6000)
    ap.add_argument("--test-pairs", type=int, default=10_000, help="per class and case")
    ap.add_argument("--n-bins", type=int, default=70)
    ap.add_argument("--bin-width", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--n-jobs", type=int, default=2)
    args = ap.parse_args()

    from privlab.graph.attacks.egonet import egonet_release
    from privlab.graph.attacks.egonet_linker import evaluate_linker, train_linker
    from privlab.graph.core import read_graph

    cases = (1, 2, 3, "complete") if args.cases == "per-case" else "complete"
    clf_kw = {"n_jobs": args.n_jobs}
    if args.method == "forest":
        clf_kw.update(n_trees=args.trees, per_class=args.per_class)
    graphs = {}
    for name, fname in GRAPHS:
        path = Path(args.data) / "graphs" / fname
        if not path.is_file():
            sys.exit(f"{fname} not found under {args.data}/graphs (set PRIVLAB_DATA)")
        graphs[name] = read_graph(path).graph

    print(f"# Learned egonet linker (seed 004 Chapter 3) — {machine()}\n")
    print(
        f"{args.egos} train + {args.egos} test egonets per graph (disjoint egos, min_size "
        f"{args.min_size}), method {args.method}"
        + (f" ({args.trees} trees × {args.per_class} + {args.per_class})"
           if args.method == "forest" else "")
        + f", classifiers: {args.cases}, features {args.n_bins} × {args.bin_width} "
        f"({args.n_bins**2 + 1}), training pools {args.train_identical} identical per case + "
        f"{args.train_non_identical} non-identical, test ≤ {args.test_pairs} per class, "
        f"degree > 5, seed {args.seed}.\n"
    )  # fmt: skip

    releases, linkers, timing, counts = {}, {}, [], []
    for scheme in (1, 2):
        for name, g in graphs.items():
            t0 = time.perf_counter()
            rel = egonet_release(
                g, 2 * args.egos, scheme=scheme, min_size=args.min_size, seed=args.seed
            )
            train, test = rel.subset(range(args.egos)), rel.subset(range(args.egos, 2 * args.egos))
            t_rel = time.perf_counter() - t0
            releases[name, scheme] = test
            t0 = time.perf_counter()
            lk = train_linker(
                train, method=args.method, cases=cases,
                n_identical_per_case=args.train_identical,
                n_non_identical=args.train_non_identical, n_bins=args.n_bins,
                bin_width=args.bin_width, seed=args.seed + 1, **clf_kw,
            )  # fmt: skip
            t_train = time.perf_counter() - t0
            linkers[name, scheme] = lk
            tr = lk.training
            timing.append([f"{name} S{scheme}", t_rel, tr["feature_seconds"],
                           sum(tr["fit_seconds"].values()), t_train])  # fmt: skip
            counts.append((f"{name} S{scheme}", tr["available"], tr["pairs"]))

    results = {}
    test_seconds = {}
    for scheme in (1, 2):
        for train_name in graphs:
            for test_name in graphs:
                t0 = time.perf_counter()
                results[train_name, test_name, scheme] = evaluate_linker(
                    linkers[train_name, scheme], releases[test_name, scheme],
                    n_per_case=args.test_pairs, n_non_identical=args.test_pairs,
                    cases=(1, 2, 3, "complete"), seed=args.seed + 2,
                )  # fmt: skip
                test_seconds[train_name, test_name, scheme] = time.perf_counter() - t0

    print("## Self-validation (Tables 3.2/3.3 style)\n")
    for name in graphs:
        _print_table(
            f"{name}: trained and tested on disjoint {name} egonets",
            results[name, name, 1], results[name, name, 2],
        )  # fmt: skip
    _print_seed("3.2 Epinions self-validation")
    _print_seed("3.3 Pokec self-validation")
    print("## Cross-validation (Tables 3.4/3.5 style)\n")
    names = list(graphs)
    for train_name, test_name in ((names[0], names[1]), (names[1], names[0])):
        _print_table(
            f"{test_name} tested, trained on {train_name}",
            results[train_name, test_name, 1], results[train_name, test_name, 2],
        )  # fmt: skip
    _print_seed("3.4 Pokec tested, trained on Epinions")
    _print_seed("3.5 Epinions tested, trained on Pokec")

    print("## Training pairs (available → used per classifier; Table 3.8 style)\n")
    print("| release (train half) | available 1-hop / 1,2-hop / 2-hop / complete / non-id. "
          "| used identical per classifier | used non-identical |")  # fmt: skip
    print("|---|---|---|---|")
    for label, avail, used in counts:
        av = " / ".join(
            f"{avail.get(k, 0):,}" for k in ("1-hop", "1,2-hop", "2-hop", "complete",
                                              "non-identical")
        )  # fmt: skip
        ui = ", ".join(f"{k} {v['identical']}" for k, v in used.items())
        un = next(iter(used.values()))["non_identical"]
        print(f"| {label} | {av} | {ui} | {un:,} |")
    print("\n## Times (seconds, wall clock)\n")
    print("| (graph, scheme) | release | train features | fits | train total "
          "| test self | test cross |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for row in timing:
        name, scheme = row[0].split(" S")[0], int(row[0][-1])
        other = next(n for n in graphs if n != name)
        print(
            f"| {row[0]} | {row[1]:.1f} | {row[2]:.1f} | {row[3]:.1f} | {row[4]:.1f} | "
            f"{test_seconds[name, name, scheme]:.1f} | {test_seconds[name, other, scheme]:.1f} |"
        )
    total = sum(r[4] for r in timing) + sum(test_seconds.values())
    print(f"\nTotal train + test: {total:.0f} s; peak RSS {peak_rss_mib():.0f} MiB.")


if __name__ == "__main__":
    main()
