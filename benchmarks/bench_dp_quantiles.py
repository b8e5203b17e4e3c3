"""Grouped DP quantiles at scale, and the empirical audit's ε lower bounds per mechanism.

    PYTHONPATH=src python3 benchmarks/bench_dp_quantiles.py [--rows 10000000] [--groups 1000]
    PYTHONPATH=src python3 benchmarks/bench_dp_quantiles.py --audit [--samples 100000]
    PYTHONPATH=src python3 benchmarks/bench_dp_quantiles.py --joint

The first form times :func:`privlab.dp.quantiles.grouped_quantiles` (CPU seconds of the
call, wall seconds, peak RSS of the process) on normal values in uniformly drawn groups and
reports the mean absolute error against the exact per-group quantiles.  The second prints
the audit's ε lower bound (confidence 1 − β) for each mechanism on worst-case neighbours;
the third compares the joint mechanism's error with the ε/k split's.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np


def _exact_group_quantiles(codes, n_groups, values, qs):
    order = np.lexsort((values, codes))
    sorted_values = values[order]
    starts = np.searchsorted(codes[order], np.arange(n_groups + 1))
    out = np.full((n_groups, len(qs)), np.nan)
    for g in range(n_groups):
        chunk = sorted_values[starts[g] : starts[g + 1]]
        if chunk.size:
            out[g] = np.quantile(chunk, qs)
    return out


def timing(args) -> None:
    from privlab.dp.quantiles import grouped_quantiles

    rng = np.random.default_rng(args.seed)
    codes = rng.integers(0, args.groups, args.rows)
    values = rng.normal(50, 10, args.rows)
    qs = [float(q) for q in args.quantiles.split(",")]
    cpu, wall = time.process_time(), time.perf_counter()
    release = grouped_quantiles(codes, args.groups, values, qs, 0, 100, args.epsilon,
                                candidates=args.candidates)  # fmt: skip
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    exact = _exact_group_quantiles(codes, args.groups, values, qs)
    mae = np.nanmean(np.abs(release.value - exact), axis=0)
    print(f"grouped_quantiles: {args.rows:,} values, {args.groups:,} groups, q = {qs}, "
          f"ε = {args.epsilon:g} per group, {args.candidates} candidates in [0, 100]")  # fmt: skip
    print(f"  call: {cpu:.2f} s CPU, {wall:.2f} s wall; process peak RSS {peak:.0f} MiB")
    print("  mean absolute error per quantile: "
          + ", ".join(f"q={q:g}: {e:.3f}" for q, e in zip(qs, mae, strict=True)))  # fmt: skip


def audits(args) -> None:
    from privlab.dp.empirical_audit import audit
    from privlab.dp.exponential import private_quantile
    from privlab.dp.mechanisms import gaussian, geometric, laplace
    from privlab.dp.quantiles import grouped_quantiles
    from privlab.dp.queries import clamped_mean, clamped_sum, count

    d = np.array([3, 7, 1, 9, 4, 5, 6])
    d_plus = np.append(d, 10)

    def replicated(q, rows):
        def run(data, n, rng):
            data = np.asarray(data, dtype=float)
            codes = np.repeat(np.arange(n), data.size)
            release = grouped_quantiles(codes, n, np.tile(data, n), [q], 0, 10, 1.0,
                                        candidates=21, max_rows=rows, seed=rng)  # fmt: skip
            return release.value[:, 0]

        return run

    def vector(noise, *params):
        return lambda x, k, r: noise(np.full(k, x), *params, seed=r).value

    def call(query, *params):
        return lambda x, r: query(x, *params, seed=r).value

    four = np.append(d, [10, 10, 10, 10])
    n, slow = args.samples, args.slow_samples
    cases = [
        ("geometric, noise 4x too small", vector(geometric, 1, 4.0), 0, 1, n, True, 0),
        ("geometric", vector(geometric, 1, 1.0), 0, 1, n, True, 0),
        ("snapped Laplace", vector(laplace, 1.0, 1.0), 0.0, 1.0, n, True, 0),
        ("discrete Gaussian (δ = 1e-5)", vector(gaussian, 1, 1.0, 1e-5), 0, 1, n, True, 1e-5),
        ("count (per call)", call(count, 1.0), d, d_plus, slow, False, 0),
        ("clamped sum (per call)", call(clamped_sum, 0, 10, 1.0), d, d_plus, slow, False, 0),
        ("clamped mean (per call)", call(clamped_mean, 0, 10, 1.0), d, d_plus, slow, False, 0),
        ("continuous median (per call)", call(private_quantile, 0, 10, 1.0), d, d_plus, slow,
         False, 0),
        ("grouped median, 1 row/unit", replicated(0.5, 1), d, d_plus, n, True, 0),
        ("grouped 0.9-quantile", replicated(0.9, 1), d, d_plus, n, True, 0),
        ("grouped median, unit adds 4 rows, max_rows=1 (broken)", replicated(0.5, 1), d, four,
         n, True, 0),
        ("grouped median, unit adds 4 rows, max_rows=4", replicated(0.5, 4), d, four, n, True,
         0),
    ]
    print(f"claimed ε = 1; β = {args.beta:g} (confidence {1 - args.beta:g}); likelihood-ratio "
          "and threshold distinguishers (β/2 each), the larger bound shown")  # fmt: skip
    for name, mech, a, b, samples, batched, delta in cases:
        cpu = time.process_time()
        results = [audit(mech, a, b, epsilon=1.0, delta=delta, samples=samples,
                         batched=batched, beta=args.beta / 2, distinguisher=dist,
                         seed=args.seed) for dist in ("threshold", "likelihood")]  # fmt: skip
        best = max(results, key=lambda r: r.epsilon_lower)
        verdict = "VIOLATION" if best.violation else "ok"
        print(f"  {name:55s} ε_lb = {best.epsilon_lower:.3f}  samples {samples:>7,}  "
              f"{verdict:9s} ({time.process_time() - cpu:.1f} s CPU)")  # fmt: skip


def joint_vs_split(args) -> None:
    from privlab.dp.quantiles import joint_quantiles, private_quantiles

    rng = np.random.default_rng(args.seed)
    print("mean absolute error of k quantiles (levels evenly spaced in (0, 1)), normal values "
          "(σ = 10) on [0, 100], 1025 candidates, 20 runs each")  # fmt: skip
    for n in (1000, 10_000):
        x = rng.normal(50, 10, n)
        for k in (3, 9, 19):
            qs = np.linspace(0, 1, k + 2)[1:-1]
            true = np.quantile(x, qs)
            for eps in (0.1, 1.0):
                row = []
                methods = (("split, continuous", private_quantiles, {}),
                           ("split, candidates", private_quantiles, {"candidates": 1025}),
                           ("joint", joint_quantiles, {}))  # fmt: skip
                for name, fn, kw in methods:
                    cpu = time.process_time()
                    err = np.mean([np.abs(fn(x, 0, 100, qs, eps, seed=s, **kw).value - true).mean()
                                   for s in range(20)])  # fmt: skip
                    row.append(f"{name} {err:.3f} ({(time.process_time() - cpu) / 20:.3f} s)")
                print(f"  n = {n:>6,}  k = {k:>2}  ε = {eps:<4g} " + " | ".join(row))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--quantiles", default="0.25,0.5,0.75")
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument("--candidates", type=int, default=1025)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--audit", action="store_true", help="run the audits instead")
    parser.add_argument("--joint", action="store_true",
                        help="compare the joint mechanism with the ε/k split instead")  # fmt: skip
    parser.add_argument("--samples", type=int, default=100_000)
    parser.add_argument("--slow-samples", type=int, default=5_000,
                        help="runs per input for mechanisms called once per run")  # fmt: skip
    parser.add_argument("--beta", type=float, default=1e-3)
    args = parser.parse_args()
    if args.audit:
        audits(args)
    elif args.joint:
        joint_vs_split(args)
    else:
        timing(args)


if __name__ == "__main__":
    main()
