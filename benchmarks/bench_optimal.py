"""Optimal full-domain search on Adult, the way REFERENCE_RESULTS.md timed ARX.

All 9 columns are quasi-identifiers with ARX's hierarchies, Loss (gs = 0.5, geometric),
k = 5, suppression limits 0 % and 2 %.  Time = median of the search (problem set-up
included, data loading excluded) after 2 warm-ups, as for ARX's ``anonymize`` call.
Peak memory is measured separately with tracemalloc (Python + numpy allocations).

    python3 benchmarks/bench_optimal.py [--repeat 7] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from pathlib import Path

from _machine import default_data, machine, peak_rss_mib

from privlab.table import adult
from privlab.table.data import MicroTable
from privlab.table.models import KAnonymity
from privlab.table.search import Problem, optimal_search

# ARX 3.9.2 on a 2-core machine of this kind (REFERENCE_RESULTS.md): medians in seconds.
ARX_MEDIAN = {0.0: 0.13, 0.02: 1.27}


def load_adult(root: Path) -> MicroTable:
    """Adult, all 9 columns as QIs with ARX's hierarchies (``root`` holds ``adult/``)."""
    return adult.load_adult(root / "adult")


def run(table: MicroTable, limit: float):
    return optimal_search(Problem(table, [KAnonymity(5)], suppression_limit=limit))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    table = load_adult(Path(args.data))
    print(f"machine: {machine()}")
    print(
        "| k | limit | levels | Loss | suppressed | classes | nodes checked | median s "
        "| ARX median s quoted (REFERENCE_RESULTS; see bench_arx.py for a side-by-side run) "
        "| quoted ARX / privlab | peak MiB (tracemalloc) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for limit in (0.0, 0.02):
        for _ in range(2):
            run(table, limit)
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            result = run(table, limit)
            times.append(time.perf_counter() - t)
        tracemalloc.start()
        run(table, limit)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        med = statistics.median(times)
        levels = ",".join(str(v) for v in result.levels.values())
        print(
            f"| 5 | {limit:.0%} | {levels} | {result.value!r} | {result.suppressed} "
            f"| {result.n_classes} | {result.nodes_checked} | {med:.3f} "
            f"| {ARX_MEDIAN[limit]} | {ARX_MEDIAN[limit] / med:.1f}× | {peak:.0f} |"
        )
    rss = peak_rss_mib()
    print(f"process max RSS (including data loading and imports): {rss:.0f} MiB")


if __name__ == "__main__":
    main()
