"""(k, e)-anonymous partitioners (seed 001 §2.6) on 10^6 values and on Adult's capital loss.

* Synthetic: ``--rows`` values (default 10^6) with exactly ``--distinct`` distinct integers
  (default 10^5; every value once, the rest uniform, shuffled; numpy seed 2007), k = 10,
  e = ``--e-frac`` × range (default 1 %).  For min-sum, min-max and max-group: median
  seconds of ``--repeat`` runs of :func:`ke_partition` (input array to group ids, validation
  included), then one more run under tracemalloc for the peak (numpy + Python allocations).
  random and swap (Python loops) are timed once.  Goal (issue 5): min-sum < 10 s, O(n) memory.
* Adult: the clean rows of the UCI file (``adult/uci/adult.data``, rows with '?' dropped)
  with capital-loss > 0 — the seed's subset (L1652–1654) — with k = 4, e = 100 (Figs 2.6–2.7):
  groups, sum and max of the group ranges per method.

* Bounded queries (issue 5, :mod:`privlab.table.query`): a ``--query-rows`` (10^6) release
  ((10, 0) min-sum) loaded once into DuckDB, the python reference and PostgreSQL; per-query
  median time of the whole call and of its SQL alone.  Then the seed's overhead experiment
  (Figs 2.11–2.12): 10,000 tuples, (20, 0) partition with 38 groups, range spans 10–50, the
  rewritten query against the raw query on the raw table, DuckDB and PostgreSQL (``--dsn``,
  else a throwaway local server when ``initdb`` is installed).

    python3 benchmarks/bench_permutation.py [--rows 1000000] [--distinct 100000] [--repeat 3]
                                            [--data ../shared/data] [--query-rows 1000000]
                                            [--dsn postgresql://...] [--skip-query]
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from _machine import default_data, machine, median_time

from privlab.table.permutation import is_ke_anonymous, ke_partition

ADULT_COLUMNS = [
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education_num",
    "marital_status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital_gain",
    "capital_loss",
    "hours_per_week",
    "native_country",
    "income",
]
OPTIMIZERS = ("min-sum", "min-max", "max-group")
BASELINES = ("random", "swap")


def synthetic(rows: int, distinct: int) -> np.ndarray:
    rng = np.random.default_rng(2007)
    x = np.concatenate([np.arange(distinct), rng.integers(0, distinct, rows - distinct)])
    rng.shuffle(x)
    return x.astype(np.float64)


def bench_synthetic(rows: int, distinct: int, e_frac: float, repeat: int) -> None:
    x = synthetic(rows, distinct)
    e = e_frac * float(np.ptp(x))
    k = 10
    print(
        f"\nSynthetic: {x.size:,} values, {np.unique(x).size:,} distinct, k = {k}, e = {e:g} "
        f"({e_frac:.1%} of the range)"
    )
    print("| method | groups | sum of error | max of error | median s | peak MiB (tracemalloc) |")
    print("|---|---|---|---|---|---|")
    for method in OPTIMIZERS + BASELINES:
        runs = repeat if method in OPTIMIZERS else 1
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            part = ke_partition(x, k, e, method=method, seed=1)
            times.append(time.perf_counter() - t)
        peak = "—"
        if method in OPTIMIZERS:
            tracemalloc.start()
            ke_partition(x, k, e, method=method, seed=1)
            peak = f"{tracemalloc.get_traced_memory()[1] / 2**20:.0f}"
            tracemalloc.stop()
            assert is_ke_anonymous(x, part.groups, k, e).all()
        print(
            f"| {method} | {part.n_groups:,} | {part.sum_of_error:,.0f} | "
            f"{part.max_of_error:,.0f} | {statistics.median(times):.2f} | {peak} |"
        )
    print(f"(input array: {x.nbytes / 2**20:.0f} MiB)")


def adult_capital_loss(root: Path) -> np.ndarray:
    path = root / "adult" / "uci" / "adult.data"
    df = pl.read_csv(
        path, has_header=False, new_columns=ADULT_COLUMNS, infer_schema_length=0
    ).with_columns(pl.all().str.strip_chars())
    df = df.filter(pl.col("age").is_not_null() & (pl.col("age") != ""))
    clean = df.filter(~pl.any_horizontal(pl.all() == "?"))
    loss = clean["capital_loss"].cast(pl.Int64)
    print(
        f"\nAdult ({path}): {df.height:,} rows, {clean.height:,} without '?'; "
        f"capital-loss > 0 on {int((loss > 0).sum()):,}"
    )
    return loss.filter(loss > 0).to_numpy().astype(np.float64)


def bench_adult(root: Path) -> None:
    x = adult_capital_loss(root)
    print(
        f"subset: {x.size:,} rows, {np.unique(x).size} distinct values, "
        f"range {x.min():g}–{x.max():g}; k = 4, e = 100"
    )
    print("| method | groups | sum of error | max of error | mean group size | s |")
    print("|---|---|---|---|---|---|")
    for method in OPTIMIZERS + BASELINES:
        t = time.perf_counter()
        part = ke_partition(x, 4, 100, method=method, seed=1)
        dt = time.perf_counter() - t
        if method != "swap":
            assert is_ke_anonymous(x, part.groups, 4, 100).all()
        print(
            f"| {method} | {part.n_groups:,} | {part.sum_of_error:,.0f} | "
            f"{part.max_of_error:,.0f} | {x.size / part.n_groups:.1f} | {dt:.3f} |"
        )
    print("(swap: one group per row; error = width of the row's published interval)")


# ------------------------------------------------------------------ bounded queries (SQL)


def _query_table(rows: int, distinct: int, seed: int) -> pl.DataFrame:
    """age 17–90, zip 5 digits, sex F/M independent of salary; salary has ``distinct`` values."""
    rng = np.random.default_rng(seed)
    sal = np.concatenate([np.arange(distinct), rng.integers(0, distinct, rows - distinct)])
    rng.shuffle(sal)
    return pl.DataFrame(
        {
            "age": rng.integers(17, 91, rows),
            "zip": rng.integers(27000, 28000, rows),
            "sex": rng.choice(["F", "M"], rows),
            "salary": (155 + sal).astype(np.float64),
        }
    )


def _start_postgres() -> tuple[str, Any] | None:
    """A throwaway server (Unix socket in a temporary folder), or None without binaries."""
    import glob
    import os
    import shutil
    import subprocess
    import tempfile

    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    initdb = bins[-1] if bins else shutil.which("initdb")
    if not initdb:
        return None
    pg_ctl = str(Path(initdb).with_name("pg_ctl"))
    base = Path(tempfile.mkdtemp(prefix="privlab-bench-pg-"))
    pre: list[str] = []
    if os.geteuid() == 0:
        import pwd

        pw = pwd.getpwnam("postgres")
        os.chown(base, pw.pw_uid, pw.pw_gid)
        pre = ["runuser", "-u", "postgres", "--"]
    data = base / "data"
    subprocess.run([*pre, initdb, "-D", str(data), "-U", "postgres", "--auth=trust",
                    "--locale=C", "--no-sync"], check=True, capture_output=True)  # fmt: skip
    opts = f"-k {base} -c listen_addresses='' -c fsync=off -c shared_buffers=256MB"
    subprocess.run([*pre, pg_ctl, "-D", str(data), "-o", opts, "-l", str(base / "log"), "-w",
                    "start"], check=True, capture_output=True)  # fmt: skip

    def stop() -> None:
        subprocess.run([*pre, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True)  # fmt: skip
        shutil.rmtree(base, ignore_errors=True)

    return f"postgresql://postgres@/postgres?host={base}", stop


def _median_seconds(fn: Any, repeat: int) -> float:
    """Median seconds of ``repeat`` calls after one warm-up."""
    return median_time(fn, repeat, warmup=True)[0]


def bench_query_scale(rows: int, dsn: str | None, repeat: int) -> None:
    """A bounded query over a 10^6-row release: one-off load, then per-query time."""
    from privlab.table.permutation import permute
    from privlab.table.query import QueryEngine

    frame = _query_table(rows, rows // 10, 2008)
    t = time.perf_counter()
    release = permute(frame, qi=["age", "zip", "sex"], sensitive="salary", k=10, e=0,
                      method="min-sum")  # fmt: skip
    print(f"\nBounded queries over a {rows:,}-row release ({release.n_groups:,} groups, "
          f"(10, 0) min-sum partition in {time.perf_counter() - t:.1f} s)")  # fmt: skip
    queries = [
        "SELECT SUM(salary) FROM t WHERE age BETWEEN 30 AND 39",
        "SELECT AVG(salary) FROM t WHERE age >= 40 AND sex = 'F' AND zip < 27500",
        "SELECT MIN(salary) FROM t WHERE zip BETWEEN 27100 AND 27199 OR age > 85",
        "SELECT COUNT(*) FROM t WHERE sex = 'M'",
    ]
    print("| backend | load s (PT + HT, once) | query | median s (whole call) | "
          "of which SQL s | bounds |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    backends = [("duckdb", None), ("python", None)] + ([("postgres", dsn)] if dsn else [])
    for backend, d in backends:
        with QueryEngine(backend, dsn=d) as eng:
            load = eng.load(release)
            for sql in queries:
                ans = eng.query(release, sql)
                med = _median_seconds(lambda eng=eng, sql=sql: eng.query(release, sql), repeat)
                if ans.rewritten_sql:
                    rsql = ans.rewritten_sql
                    sql_s = _median_seconds(lambda eng=eng, r=rsql: eng._run(r), repeat)
                else:
                    sql_s = float("nan")
                print(f"| {backend} | {load:.2f} | `{sql}` | {med:.3f} | {sql_s:.3f} | "
                      f"[{ans.lower:,.6g}, {ans.upper:,.6g}] |")  # fmt: skip
                load = 0.0


def bench_query_overhead(dsn: str | None, repeat: int) -> None:
    """Seed 001 Figs 2.11–2.12: the rewrite vs the raw query on the raw table.

    10,000 tuples, a (20, 0)-anonymous min-sum partition (38 groups, as in the seed: 770
    distinct salaries), range queries ``age BETWEEN X AND X + span`` with span 10..50.  Times
    are the database's only (statement execution + fetch), median of ``repeat``.
    """
    from privlab.table.permutation import permute
    from privlab.table.query import QueryEngine

    frame = _query_table(10_000, 770, 2011)
    release = permute(frame, qi=["age", "zip", "sex"], sensitive="salary", k=20, e=0,
                      method="min-sum")  # fmt: skip
    print(f"\nRewrite overhead: 10,000 tuples, (20, 0) min-sum partition, "
          f"{release.n_groups} groups; SUM(salary) WHERE age BETWEEN X AND X + span")  # fmt: skip
    print("| backend | span | raw query ms | rewritten ms | ratio | groups touched |")
    print("|---|---|---|---|---|---|")
    raw = frame.with_columns(pl.Series("tuple_id", np.arange(frame.height)))
    backends = [("duckdb", None)] + ([("postgres", dsn)] if dsn else [])
    for backend, d in backends:
        with QueryEngine(backend, dsn=d) as eng:
            eng.load(release)
            if backend == "duckdb":
                eng._con.register("raw_src", raw.to_arrow())
                eng._con.execute("CREATE TABLE raw_table AS SELECT * FROM raw_src")
            else:
                from privlab.table.query import _copy

                with eng._con.cursor() as cur:
                    cur.execute("CREATE TEMPORARY TABLE raw_table (age BIGINT, zip BIGINT, sex "
                                "TEXT, salary DOUBLE PRECISION, tuple_id BIGINT)")  # fmt: skip
                    _copy(cur, "raw_table", raw)
                    cur.execute("ANALYZE raw_table")
            for span in (10, 20, 30, 40, 50):
                x = 40 - span // 2
                sql = f"SELECT SUM(salary) FROM t WHERE age BETWEEN {x} AND {x + span}"
                ans = eng.query(release, sql)
                raw_sql = sql.replace("FROM t", "FROM raw_table")
                t_raw = _median_seconds(lambda eng=eng, q=raw_sql: eng._run(q), repeat)
                t_rw = _median_seconds(lambda eng=eng, q=ans.rewritten_sql: eng._run(q), repeat)
                print(f"| {backend} | {span} | {t_raw * 1e3:.2f} | {t_rw * 1e3:.2f} | "
                      f"{t_rw / t_raw:.1f}× | {ans.groups_touched} |")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--distinct", type=int, default=100_000)
    ap.add_argument("--e-frac", type=float, default=0.01)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-adult", action="store_true")
    ap.add_argument("--skip-synthetic", action="store_true")
    ap.add_argument("--query-rows", type=int, default=1_000_000)
    ap.add_argument("--dsn", default=None, help="PostgreSQL for the query benchmarks "
                    "(default: a throwaway local server when initdb is installed)")
    ap.add_argument("--skip-query", action="store_true")
    args = ap.parse_args()
    print(f"machine: {machine()}")
    if not args.skip_synthetic:
        bench_synthetic(args.rows, args.distinct, args.e_frac, args.repeat)
    if not args.skip_adult:
        if (Path(args.data) / "adult" / "uci" / "adult.data").is_file():
            bench_adult(Path(args.data))
        else:
            print(f"Adult (uci/adult.data) not found under {args.data}; skipped")
    if not args.skip_query:
        dsn, stop = args.dsn, None
        if dsn is None:
            started = _start_postgres()
            if started:
                dsn, stop = started
            else:
                print("PostgreSQL binaries not found: query benchmarks on DuckDB only")
        try:
            bench_query_scale(args.query_rows, dsn, args.repeat)
            bench_query_overhead(dsn, max(args.repeat, 50))
        finally:
            if stop:
                stop()


if __name__ == "__main__":
    main()
