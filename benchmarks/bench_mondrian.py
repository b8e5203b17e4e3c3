"""Mondrian (strict and relaxed) on Adult and on 10^7 synthetic rows.

* Adult (30,162 rows, the 9 QIs of ARX's benchmark with ARX's hierarchies), k = 5: ``age``
  numeric (the other QIs along their hierarchies) and all 9 QIs hierarchical, strict and
  relaxed.  Time = median of ``--repeat`` runs after one warm-up, from the encoded table to the
  release frame (loading/encoding excluded); peak memory of one more run with tracemalloc
  (Python + numpy allocations).
* Synthetic: ``--rows`` rows (default 10^7) drawn with numpy (seed 2006) — 5 numeric QIs
  (age, income, hours, zip, days) and 3 hierarchical ones (region: 64 leaves in a 4-4-4 tree,
  occupation: 20 leaves in 5 groups, sex) plus a sensitive attribute with 10 values.  The
  table is encoded directly from the numpy codes (``MicroTable`` built from its fields; the
  time is printed separately).  Runs: k = 5 and k = 10 strict, k = 10 relaxed, and k = 10
  with distinct 3-diversity.  Each is timed once, under tracemalloc (its peak covers the
  numpy arrays — every large allocation of the algorithm — but not polars' memory, so the
  release frame's own size is printed next to it); the process's max RSS closes the table.

    python3 benchmarks/bench_mondrian.py [--repeat 5] [--rows 10000000] [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from pathlib import Path

import numpy as np
import polars as pl
from _machine import default_data, machine, peak_rss_mib

from privlab.table import adult
from privlab.table.data import MicroTable
from privlab.table.hierarchy import Hierarchy
from privlab.table.models import DistinctLDiversity, KAnonymity
from privlab.table.mondrian import mondrian

# ------------------------------------------------------------------------------------ Adult


def bench_adult(root: Path, repeat: int) -> None:
    table = adult.load_adult(root / "adult")
    print(f"\nAdult: {table.n_rows} rows, {len(table.qi)} QIs, k = 5")
    print(
        "| numeric | mode | partitions | classes | NCP | DM | median s | peak MiB (tracemalloc) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for numeric in (["age"], []):
        for strict in (True, False):

            def run(numeric=numeric, strict=strict):
                return mondrian(table, [KAnonymity(5)], numeric, strict=strict)

            run()
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                result = run()
                times.append(time.perf_counter() - t)
            tracemalloc.start()
            run()
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            print(
                f"| {','.join(numeric) or '—'} | {'strict' if strict else 'relaxed'} "
                f"| {result.n_partitions} | {result.n_classes} | {result.ncp:.4f} "
                f"| {result.discernibility:.0f} | {statistics.median(times):.3f} | {peak:.0f} |"
            )


# ------------------------------------------------------------------------------------ synthetic


def tree_hierarchy(name: str, fanouts: list[int]) -> Hierarchy:
    """Leaves ``name0..`` grouped by ``fanouts`` (bottom first), then ``*``."""
    n = int(np.prod(fanouts))
    rows = []
    for i in range(n):
        row, g = [f"{name}{i}"], i
        for level, f in enumerate(fanouts[:-1], start=1):
            g //= f
            row.append(f"{name}-L{level}-{g}")
        row.append("*")
        rows.append(row)
    return Hierarchy.from_rows(rows, source=f"<{name}>")


def synthetic_table(n: int, seed: int = 2006) -> MicroTable:
    rng = np.random.default_rng(seed)
    numeric = {
        "age": rng.integers(17, 91, n),
        "income": np.round(rng.lognormal(10.0, 1.0, n)).astype(np.int64),
        "hours": rng.integers(1, 100, n),
        "zip": rng.integers(10000, 100000, n),
        "days": rng.integers(0, 3651, n),
    }
    columns: dict[str, pl.Series] = {}
    hierarchies: dict[str, Hierarchy] = {}
    codes = []
    for col, v in numeric.items():
        values, inverse = np.unique(v, return_inverse=True)
        hierarchies[col] = Hierarchy.flat([str(x) for x in values.tolist()], source=f"<{col}>")
        codes.append(inverse.astype(np.int32))
        columns[col] = pl.Series(col, v).cast(pl.String)
    for col, fanouts in (("region", [4, 4, 4]), ("occupation", [4, 5]), ("sex", [2])):
        h = tree_hierarchy(col, fanouts)
        c = rng.integers(0, h.n_leaves, n).astype(np.int32)
        hierarchies[col] = h
        codes.append(c)
        columns[col] = pl.Series(col, h.leaves, dtype=pl.String).gather(c)
    diagnosis = rng.integers(0, 10, n).astype(np.int32)
    sa_values = np.array([f"d{i}" for i in range(10)])
    columns["diagnosis"] = pl.Series("diagnosis", sa_values.tolist()).gather(diagnosis)
    qi = [*numeric, "region", "occupation", "sex"]
    return MicroTable(
        frame=pl.DataFrame(columns),
        kind="polars",
        qi=qi,
        sensitive=["diagnosis"],
        identifying=[],
        hierarchies=hierarchies,
        qi_codes=np.stack(codes, axis=1),
        sa_codes={"diagnosis": diagnosis},
        sa_values={"diagnosis": sa_values},
        source="<synthetic>",
    )


def bench_synthetic(n: int) -> None:
    t = time.perf_counter()
    table = synthetic_table(n)
    build = time.perf_counter() - t
    print(
        f"\nSynthetic: {n:,} rows, 5 numeric + 3 hierarchical QIs "
        f"(generated and encoded in {build:.1f} s)"
    )
    print(
        "| models | mode | partitions | classes | rounds | NCP | seconds "
        "| peak MiB (numpy, tracemalloc) | release MiB (polars) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    numeric = ["age", "income", "hours", "zip", "days"]
    runs = [
        ([KAnonymity(5)], True),
        ([KAnonymity(10)], True),
        ([KAnonymity(10)], False),
        ([KAnonymity(10), DistinctLDiversity(sensitive="diagnosis", l=3)], True),
    ]
    for models, strict in runs:
        tracemalloc.start()
        t = time.perf_counter()
        result = mondrian(table, models, numeric, strict=strict)
        seconds = time.perf_counter() - t
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        release = result.release.estimated_size() / 2**20
        print(
            f"| {', '.join(m.describe() for m in models)} | {'strict' if strict else 'relaxed'} "
            f"| {result.n_partitions:,} | {result.n_classes:,} | {result.rounds} "
            f"| {result.ncp:.4f} | {seconds:.1f} | {peak:.0f} | {release:.0f} |"
        )
        del result
    rss = peak_rss_mib()
    print(f"process max RSS (including the table and imports): {rss:.0f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--skip-adult", action="store_true")
    ap.add_argument("--skip-synthetic", action="store_true")
    args = ap.parse_args()
    print(f"machine: {machine()}")
    if not args.skip_adult:
        if (Path(args.data) / "adult" / "adult.csv").is_file():
            bench_adult(Path(args.data), args.repeat)
        else:
            print(f"Adult not found under {args.data}; skipped")
    if not args.skip_synthetic:
        bench_synthetic(args.rows)


if __name__ == "__main__":
    main()
