"""Grouped DP release with a privacy unit: privlab vs OpenDP, Tumult, PipelineDP, diffprivlib.

Issue 18's Acceptance workload, side by side in ONE run:

* **data** (generated with a fixed seed into a temporary directory, never committed):
  ``--rows`` rows (10^7), ``--groups`` groups (10^3), a privacy unit ``uid`` with
  ``--rows-per-unit`` rows each (10, so 10^6 units).  Every unit lies in exactly one group (units
  are dealt to the groups evenly, then the rows are shuffled), so ``max_groups_per_unit = 1`` and
  ``max_rows_per_unit = 10`` drop nothing and the exact answers are the true ones.  The value
  ``x`` is ``clip(round(μ_g + 15·N(0, 1), 2), 0, 100)`` with ``μ_g`` uniform in [20, 80].
* **release**: per group count, sum(x), mean(x) and median(x), clamping bounds [0, 100] fixed in
  advance, the keys public (all groups 0 … G-1), total ε = 1 over the four statistics and all
  groups (δ stated where an anchor needs one).
* **measured**, every row in a fresh subprocess: the timed call (wall and process-tree CPU, read
  from /proc so that threads and a JVM are included) from the data already loaded in the tool's
  own in-memory form to the answers collected in Python; the whole subprocess's CPU time and
  peak RSS from ``os.wait4`` (imports, reading the Parquet file, JVM start-up included; plus any
  child process still alive at the end, read from /proc, e.g. Spark's JVM); and the mean
  absolute error of each statistic over the groups against the exact answers, which this script
  computes with polars outside any timed call.  A group missing from a release, or a
  non-finite answer, is counted and left out of the MAE.

Rows (``--anchors``, comma-separated; default all but the fakes):

* ``privlab``: ``privlab.dp.groupby.grouped_release`` (issue 18's API) on a polars DataFrame;
  prints "privlab.dp.groupby not available on this checkout" where the module is missing.
* ``privlab-cli``: ``python -m privlab dp release DATA.parquet --groupby g --privacy-unit uid
  ...`` with ``-o`` a Parquet file; the whole command is the timed call (reading included).
* ``opendp``: OpenDP 0.16's polars API (``dp.Context`` with an identifier privacy unit,
  truncation per group and of the number of groups, public keys).
* ``tumult``: Tumult Analytics 0.21 (Spark local[2]), ``MaxRowsPerID`` / ``MaxGroupsPerID``,
  a ``KeySet`` of the public keys.
* ``pipelinedp``: PipelineDP 0.3 ``LocalBackend``, public partitions.
* ``diffprivlib``: no privacy unit; one call per group and statistic at ε_row = ε/10 (group
  privacy would give ε per unit only if no unit had more than 10 rows, which diffprivlib does
  not enforce): a different guarantee, printed as not comparable.
* ``fake-exact`` / ``fake-offset``: harness checks, a zero-noise "mechanism" (MAE must be 0)
  and one that adds 1 to every answer (MAE must be 1); ``--burn S`` makes their timed call spend
  S seconds of CPU.

The anchors are never privlab dependencies; they go in throw-away virtualenvs (their
dependencies clash: OpenDP 0.16 pins polars 1.x, diffprivlib needs scikit-learn < 1.8, Tumult
pins pyspark/pandas), the versions as in pyproject's ``dp-anchors`` extra::

    python3 -m venv /tmp/dpbench-anchors && /tmp/dpbench-anchors/bin/pip install \\
        "opendp[polars]>=0.16,<0.17" "diffprivlib>=0.6.6,<0.7" "scikit-learn>=1.3,<1.8" \\
        "pipeline-dp>=0.3.1,<0.4" pyarrow
    python3 -m venv /tmp/dpbench-tumult && /tmp/dpbench-tumult/bin/pip install \\
        "tmlt.analytics>=0.21,<0.22" pyarrow
    PYTHONPATH=src python3 benchmarks/bench_dp_groupby.py \\
        --anchors-python /tmp/dpbench-anchors/bin/python \\
        --anchors-python /tmp/dpbench-tumult/bin/python

Each row uses the first interpreter (the ``--anchors-python`` ones, then this one) that can
import its tool; a row whose tool imports nowhere prints why.  ``--quick``: 10^5 rows.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
LOW, HIGH = 0.0, 100.0
STATS = ("count", "sum", "mean", "median")
#: candidates of the median for the tools that need a finite set (OpenDP): a 0.1 grid
MEDIAN_STEP = 0.1
FOOTNOTE = (
    "\ncall = the release from data in memory to answers in Python (process-tree CPU from "
    "/proc); process = the whole subprocess (wait4 + live children such as a JVM); MAE over "
    "the groups against the exact clamped answers."
)
NOT_AVAILABLE = "privlab.dp.groupby not available on this checkout"

#: the module each row needs in its interpreter
MODULES = {
    "privlab": "privlab",
    "privlab-cli": "privlab",
    "opendp": "opendp",
    "tumult": "tmlt.analytics",
    "pipelinedp": "pipeline_dp",
    "diffprivlib": "diffprivlib",
    "fake-exact": "polars",
    "fake-offset": "polars",
}
DEFAULT_ANCHORS = ("privlab", "privlab-cli", "opendp", "tumult", "pipelinedp", "diffprivlib")


# ---------------------------------------------------------------- data and exact answers


def generate(directory: Path, rows: int, groups: int, rows_per_unit: int, seed: int = 18) -> dict:
    """Write ``data.parquet`` (uid, g, x) and ``keys.parquet`` (g) into ``directory``."""
    import numpy as np
    import polars as pl

    rng = np.random.default_rng(seed)
    units = -(-rows // rows_per_unit)
    unit_group = rng.permutation(np.arange(units) % groups)
    uid = np.repeat(np.arange(units, dtype=np.int64), rows_per_unit)[:rows]
    g = unit_group[uid].astype(np.int64)
    mu = rng.uniform(20, 80, size=groups)
    x = np.clip(np.round(mu[g] + rng.normal(0, 15, rows), 2), LOW, HIGH)
    order = rng.permutation(rows)
    pl.DataFrame({"uid": uid[order], "g": g[order], "x": x[order]}).write_parquet(
        directory / "data.parquet"
    )
    pl.DataFrame({"g": np.arange(groups, dtype=np.int64)}).write_parquet(directory / "keys.parquet")
    return {"rows": rows, "groups": groups, "units": units, "rows_per_unit": rows_per_unit}


def exact_answers(directory: Path) -> dict[int, list[float]]:
    """{group: [count, sum, mean, median]} of the clamped values (no noise, not timed)."""
    import polars as pl

    x = pl.col("x").clip(LOW, HIGH)
    frame = (
        pl.read_parquet(directory / "data.parquet")
        .group_by("g")
        .agg(pl.len().alias("count"), x.sum().alias("sum"), x.mean().alias("mean"),
             x.median().alias("median"))
    )  # fmt: skip
    return {int(r[0]): [float(v) for v in r[1:]] for r in frame.select("g", *STATS).iter_rows()}


def mae(answers: dict, exact: dict[int, list[float]]) -> dict:
    """Per statistic: mean |released − exact| over the groups released with a finite answer.

    ``answers`` is ``{"g": [...], "count": [...], ...}``; also returns how many groups were
    missing (not released) and how many answers were not finite, per statistic.
    """
    released = {int(g): i for i, g in enumerate(answers["g"])}
    out: dict = {"missing_groups": sum(g not in released for g in exact)}
    for s, stat in enumerate(STATS):
        errors, bad = [], 0
        for g, truth in exact.items():
            if g not in released:
                continue
            value = answers[stat][released[g]]
            if value is None or not math.isfinite(float(value)):
                bad += 1
                continue
            errors.append(abs(float(value) - truth[s]))
        out[stat] = sum(errors) / len(errors) if errors else float("nan")
        out[f"{stat} non-finite"] = bad
    return out


# ---------------------------------------------------------------- process-tree CPU (/proc)


def _proc_stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, utime + stime in seconds) of a live process, from /proc/PID/stat."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / tick


def descendants(root: int) -> list[int]:
    """Live descendants of ``root`` (a scan of /proc)."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _proc_stat(int(entry))
            if st:
                parent[int(entry)] = st[0]
    found, frontier = [], [root]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        found += kids
        frontier += kids
    return found


def tree_cpu() -> float:
    """CPU seconds of this process (all threads, reaped children) and its live descendants."""
    t = os.times()
    own = t.user + t.system + t.children_user + t.children_system
    return own + sum((_proc_stat(p) or (0, 0.0))[1] for p in descendants(os.getpid()))


def descendants_usage() -> tuple[float, float]:
    """(CPU seconds, Σ peak RSS MiB) of the live descendants, which ``wait4`` will not see."""
    cpu, rss = 0.0, 0.0
    for p in descendants(os.getpid()):
        st = _proc_stat(p)
        cpu += st[1] if st else 0.0
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    rss += int(line.split()[1]) / 1024
        except OSError:
            pass
    return cpu, rss


# ---------------------------------------------------------------- the workers (one per row)


def _frame_answers(frame, names: dict[str, str]) -> dict:
    """{"g": [...], stat: [...]} from a polars/pandas frame whose columns are ``names``."""
    cols = {stat: names[stat] for stat in STATS}
    return {
        "g": [int(v) for v in list(frame[names["g"]])],
        **{stat: [None if v is None else float(v) for v in list(frame[c])]
           for stat, c in cols.items()},
    }  # fmt: skip


def _find_column(frame, stat: str) -> str:
    """The column of ``stat`` in privlab's grouped frame: ``count``, ``sum(x)``, ``sum:x:…``."""
    for name in frame.columns:
        if name == stat or (name.startswith((f"{stat}(", f"{stat}:")) and " " not in name):
            return name
    raise KeyError(f"no column for {stat!r} among {list(frame.columns)}")


def _spec(tool: str, guarantee: str, call, **extra) -> dict:
    """What a worker returns: the tool, its guarantee, the call to time (and extra fields)."""
    return {"tool": tool, "guarantee": guarantee, "call": call, **extra}


def worker_fake(ctx: dict, offset: float) -> dict:
    import polars as pl

    frame = pl.read_parquet(ctx["dir"] / "data.parquet")

    def call():
        end = time.process_time() + ctx["burn"]
        while time.process_time() < end:
            pass
        out = frame.group_by("g").agg(
            pl.len().cast(pl.Float64).alias("count"), pl.col("x").clip(LOW, HIGH).sum(),
            pl.col("x").clip(LOW, HIGH).mean().alias("mean"),
            pl.col("x").clip(LOW, HIGH).median().alias("median"),
        )  # fmt: skip
        out = out.rename({"x": "sum"}).with_columns(pl.col(*STATS) + offset)
        return _frame_answers(out, {"g": "g", **{s: s for s in STATS}})

    return _spec(
        f"fake mechanism (exact answers + {offset:g})",
        "none (harness check)",
        call,
    )


def worker_privlab(ctx: dict) -> dict:
    import polars as pl

    try:
        from privlab.dp.groupby import Aggregation, grouped_release
    except ImportError:
        return {"unavailable": NOT_AVAILABLE}
    import privlab

    frame = pl.read_parquet(ctx["dir"] / "data.parquet")
    keys = pl.read_parquet(ctx["dir"] / "keys.parquet")
    aggs = [
        Aggregation("count"),
        Aggregation("sum", "x", LOW, HIGH),
        Aggregation("mean", "x", LOW, HIGH),
        Aggregation("median", "x", LOW, HIGH),
    ]

    def call():
        rel = grouped_release(
            frame, by=["g"], aggregations=aggs, epsilon=ctx["epsilon"], privacy_unit="uid",
            max_rows_per_unit=ctx["rows_per_unit"], max_groups_per_unit=1, keys=keys,
            mechanism="laplace",
        )  # fmt: skip
        names = {"g": "g", **{s: _find_column(rel.frame, s) for s in STATS}}
        return _frame_answers(rel.frame, names)

    return _spec(
        f"privlab {getattr(privlab, '__version__', '?')} grouped_release",
        "pure ε = 1, add/remove one privacy unit (≤ 10 rows, 1 group)",
        call,
    )


def worker_privlab_cli(ctx: dict) -> dict:
    import polars as pl

    probe = subprocess.run(
        [sys.executable, "-m", "privlab", "dp", "release", "--help"],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    if "--groupby" not in probe.stdout or "--privacy-unit" not in probe.stdout:
        return {"unavailable": NOT_AVAILABLE + " (`privlab dp release` has no --groupby / "
                "--privacy-unit)"}  # fmt: skip
    out = ctx["dir"] / "cli-release.parquet"
    bounds = f"x:{LOW:g}:{HIGH:g}"
    cmd = [
        sys.executable, "-m", "privlab", "dp", "release", str(ctx["dir"] / "data.parquet"),
        "--groupby", "g", "--privacy-unit", "uid",
        "--max-rows-per-unit", str(ctx["rows_per_unit"]), "--max-groups-per-unit", "1",
        "--keys", str(ctx["dir"] / "keys.parquet"), "--epsilon", str(ctx["epsilon"]),
        "-q", "count", "-q", f"sum:{bounds}", "-q", f"mean:{bounds}", "-q", f"median:{bounds}",
        "-o", str(out),
    ]  # fmt: skip

    def call():
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
        frame = pl.read_parquet(out)
        return _frame_answers(frame, {"g": "g", **{s: _find_column(frame, s) for s in STATS}})

    return _spec(
        "privlab CLI `dp release --groupby --privacy-unit` (Parquet in and out)",
        "pure ε = 1, add/remove one privacy unit (≤ 10 rows, 1 group)",
        call,
        command=" ".join(cmd[1:]),
    )


def _version(dist: str) -> str:
    from importlib.metadata import version

    try:
        return version(dist)
    except Exception:
        return "?"


def worker_opendp(ctx: dict) -> dict:
    import opendp.prelude as dp
    import polars as pl

    dp.enable_features("contrib")
    frame = pl.read_parquet(ctx["dir"] / "data.parquet")
    keys = pl.read_parquet(ctx["dir"] / "keys.parquet")
    lf = frame.lazy()
    rpu = ctx["rows_per_unit"]
    n_cand = round((HIGH - LOW) / MEDIAN_STEP) + 1
    candidates = [round(LOW + i * MEDIAN_STEP, 10) for i in range(n_cand)]
    context = dp.Context.compositor(
        data=lf,
        # one identifier per person; the rows per identifier are bounded by the truncations
        privacy_unit=dp.unit_of(contributions=1, identifier=pl.col("uid")),
        privacy_loss=dp.loss_of(epsilon=ctx["epsilon"]),
        split_evenly_over=1,
        # a public bound on the rows of a group (float sums need one): the table's size
        margins=[dp.polars.Margin(by=["g"], max_length=frame.height)],
    )  # fmt: skip
    x = pl.col("x").fill_null(0.0).fill_nan(0.0)
    query = (
        context.query()
        .truncate_per_group(rpu)
        # OpenDP 0.16 bugs: keep="sample" (the default) fails with one grouping column (it builds
        # pl.struct(struct.hash(), struct), two fields named "g"), and the filter it builds,
        # rank("dense").over(id) < k, keeps k - 1 groups (ranks start at 1): k = 1 keeps no
        # row.  k = 2 keeps the one group of each unit, and OpenDP then accounts for 2 groups
        # per unit: its count and sum noise is twice what 1 group needs (still ε = 1).
        .truncate_num_groups(2, by=["g"], keep="first")
        .group_by("g")
        .agg(
            dp.len(signed=True).alias("count"),  # unclamped noisy count (no bias at 0)
            x.dp.sum((LOW, HIGH)).alias("sum"),
            x.dp.mean((LOW, HIGH)).alias("mean"),
            x.dp.median(candidates).alias("median"),
        )
        .with_keys(keys, on=["g"])
    )

    def call():
        out = query.release().collect()
        return _frame_answers(out, {"g": "g", **{s: s for s in STATS}})

    return _spec(
        f"OpenDP {_version('opendp')} polars API (polars {pl.__version__})",
        "pure ε = 1 (max divergence), add/remove one identifier, "
        "truncated to 10 rows per group; accounted as ≤ 2 groups per unit (OpenDP bug, see code)",
        call,
    )


def worker_tumult(ctx: dict) -> dict:
    from pyspark.sql import SparkSession
    from tmlt.analytics import (
        AddRowsWithID,
        KeySet,
        MaxGroupsPerID,
        MaxRowsPerID,
        PureDPBudget,
        QueryBuilder,
        Session,
    )

    # Spark's Python workers must be this interpreter (the virtualenv with tmlt), not `python3`
    os.environ["PYSPARK_PYTHON"] = os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"  # loopback only
    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.driver.memory", "8g")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.warehouse.dir", str(ctx["dir"] / "spark-warehouse"))  # not the cwd
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    data = spark.read.parquet(str(ctx["dir"] / "data.parquet")).cache()
    data.count()  # materialized in memory before the timed call
    groups = [int(r[0]) for r in spark.read.parquet(str(ctx["dir"] / "keys.parquet")).collect()]
    rpu, eps = ctx["rows_per_unit"], ctx["epsilon"]

    def call():
        session = Session.from_dataframe(
            privacy_budget=PureDPBudget(eps), source_id="data", dataframe=data,
            protected_change=AddRowsWithID(id_column="uid"),
        )  # fmt: skip
        keyset = KeySet.from_dict({"g": groups})
        query = (
            QueryBuilder("data")
            .enforce(MaxRowsPerID(rpu))
            .enforce(MaxGroupsPerID("g", 1))
            .groupby(keyset)
            .count(name="count")
        )
        results = {}
        per_query = eps / 4
        results["count"] = session.evaluate(query, PureDPBudget(per_query))
        base = QueryBuilder("data").enforce(MaxRowsPerID(rpu)).enforce(MaxGroupsPerID("g", 1))
        for stat, method in (("sum", "sum"), ("mean", "average"), ("median", "median")):
            q = getattr(base.groupby(keyset), method)("x", LOW, HIGH, name=stat)
            results[stat] = session.evaluate(q, PureDPBudget(per_query))
            base = QueryBuilder("data").enforce(MaxRowsPerID(rpu)).enforce(MaxGroupsPerID("g", 1))
        merged: dict = {}
        for stat, frame in results.items():
            for row in frame.collect():
                merged.setdefault(int(row["g"]), {})[stat] = row[stat]
        gs = sorted(merged)
        return {"g": gs, **{s: [None if merged[g].get(s) is None else float(merged[g][s])
                                for g in gs] for s in STATS}}  # fmt: skip

    return _spec(
        f"Tumult Analytics {_version('tmlt.analytics')} (Spark local[2])",
        "pure ε = 1 (PureDPBudget), AddRowsWithID (add/remove one ID), "
        "MaxRowsPerID 10 + MaxGroupsPerID 1; ε/4 per statistic",
        call,
    )


def worker_pipelinedp(ctx: dict) -> dict:
    import pipeline_dp
    import pyarrow.parquet as pq

    table = pq.read_table(ctx["dir"] / "data.parquet")
    rows = list(zip(table["uid"].to_pylist(), table["g"].to_pylist(), table["x"].to_pylist(),
                    strict=True))  # fmt: skip
    del table
    groups = [int(v) for v in pq.read_table(ctx["dir"] / "keys.parquet")["g"].to_pylist()]
    rpu, eps = ctx["rows_per_unit"], ctx["epsilon"]

    def call():
        backend = pipeline_dp.LocalBackend()
        accountant = pipeline_dp.NaiveBudgetAccountant(total_epsilon=eps, total_delta=0)
        engine = pipeline_dp.DPEngine(accountant, backend)
        params = pipeline_dp.AggregateParams(
            noise_kind=pipeline_dp.NoiseKind.LAPLACE,
            metrics=[pipeline_dp.Metrics.COUNT, pipeline_dp.Metrics.SUM,
                     pipeline_dp.Metrics.MEAN, pipeline_dp.Metrics.PERCENTILE(50)],
            max_partitions_contributed=1, max_contributions_per_partition=rpu,
            min_value=LOW, max_value=HIGH,
        )  # fmt: skip
        extractors = pipeline_dp.DataExtractors(
            privacy_id_extractor=lambda r: r[0], partition_extractor=lambda r: r[1],
            value_extractor=lambda r: r[2],
        )  # fmt: skip
        result = engine.aggregate(rows, params, extractors, public_partitions=groups)
        accountant.compute_budgets()
        out = sorted(list(result), key=lambda kv: kv[0])
        metrics = [m for _, m in out]
        names = {"count": "count", "sum": "sum", "mean": "mean", "median": "percentile_50"}
        return {"g": [int(k) for k, _ in out],
                **{s: [float(getattr(m, names[s])) for m in metrics] for s in STATS}}  # fmt: skip

    return _spec(
        f"PipelineDP {_version('pipeline-dp')} LocalBackend",
        "pure ε = 1 (Laplace, δ = 0, public partitions), add/remove one privacy "
        "id, max_partitions_contributed 1, max_contributions_per_partition 10",
        call,
    )


def worker_diffprivlib(ctx: dict) -> dict:
    import warnings

    import diffprivlib
    import numpy as np
    import pyarrow.parquet as pq
    from diffprivlib.tools import count_nonzero, mean, median
    from diffprivlib.tools import sum as dp_sum

    warnings.filterwarnings("ignore")
    table = pq.read_table(ctx["dir"] / "data.parquet", columns=["g", "x"])
    g = table["g"].to_numpy()
    x = table["x"].to_numpy()
    order = np.argsort(g, kind="stable")
    bounds = np.searchsorted(g[order], np.arange(int(g.max()) + 2))
    eps_row = ctx["epsilon"] / ctx["rows_per_unit"] / 4  # ε/10 per row, split over 4 statistics

    def call():
        xs = x[order]
        out: dict = {"g": [], "count": [], "sum": [], "mean": [], "median": []}
        for k in range(len(bounds) - 1):
            part = xs[bounds[k] : bounds[k + 1]]
            out["g"].append(k)
            out["count"].append(float(count_nonzero(part >= LOW, epsilon=eps_row)))
            out["sum"].append(float(dp_sum(part, epsilon=eps_row, bounds=(LOW, HIGH))))
            out["mean"].append(float(mean(part, epsilon=eps_row, bounds=(LOW, HIGH))))
            out["median"].append(float(median(part, epsilon=eps_row, bounds=(LOW, HIGH))))
        return out

    return _spec(
        f"diffprivlib {diffprivlib.__version__} (one call per group and statistic)",
        "NOT COMPARABLE: ε_row = 0.1 per row (no privacy unit, no contribution "
        "bounding; ε = 1 per unit only if no unit had > 10 rows, not enforced)",
        call,
    )


WORKERS = {
    "privlab": worker_privlab,
    "privlab-cli": worker_privlab_cli,
    "opendp": worker_opendp,
    "tumult": worker_tumult,
    "pipelinedp": worker_pipelinedp,
    "diffprivlib": worker_diffprivlib,
    "fake-exact": lambda ctx: worker_fake(ctx, 0.0),
    "fake-offset": lambda ctx: worker_fake(ctx, 1.0),
}


def run_worker(name: str, ctx: dict, out_path: Path) -> None:
    """In the row's subprocess: set up, time the call, write the answers as JSON."""
    result: dict
    try:
        spec = WORKERS[name](ctx)
        if "unavailable" in spec:
            result = {"unavailable": spec["unavailable"]}
        else:
            call = spec.pop("call")
            c0, w0 = tree_cpu(), time.perf_counter()
            answers = call()
            wall, cpu = time.perf_counter() - w0, tree_cpu() - c0
            result = {**spec, "call_wall": wall, "call_cpu": cpu, "answers": answers}
    except Exception as exc:  # report, never hide, why an anchor failed
        result = {"error": f"{type(exc).__name__}: {str(exc).strip()[:400]}"}
    result["descendants_cpu"], result["descendants_rss_mib"] = descendants_usage()
    out_path.write_text(json.dumps(result))
    sys.stdout.flush()
    os._exit(0)  # no waiting for a JVM: its CPU and memory are read above


# ---------------------------------------------------------------- the parent


def can_import(python: str, module: str) -> bool:
    probe = f"import importlib.util as u, sys; sys.exit(0 if u.find_spec({module!r}) else 1)"
    try:
        return (
            subprocess.run([python, "-c", probe], capture_output=True, timeout=60).returncode == 0
        )
    except (OSError, subprocess.TimeoutExpired):
        return False


def run_row(python: str, name: str, args: argparse.Namespace, directory: Path) -> dict:
    """Run one row in a fresh subprocess; adds wait4's CPU and peak RSS to its JSON."""
    out_path = directory / f"result-{name}.json"
    out_path.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(HERE.parents[1] / "src"), os.environ.get("PYTHONPATH")) if p
        ),
    }
    cmd = [python, str(HERE), "--worker", name, "--dir", str(directory),
           "--epsilon", str(args.epsilon), "--rows-per-unit", str(args.rows_per_unit),
           "--burn", str(args.burn)]  # fmt: skip
    log = open(directory / f"log-{name}.txt", "w")  # noqa: SIM115 (closed below)
    start = time.perf_counter()
    # a session of its own, so that a timeout ends the worker and its children (a JVM) together
    proc = subprocess.Popen(
        cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - start > args.timeout:
            kids_cpu = sum((_proc_stat(p) or (0, 0.0))[1] for p in descendants(proc.pid))
            os.killpg(proc.pid, 9)
            pid, status, usage = os.wait4(proc.pid, 0)
            log.close()
            cpu = usage.ru_utime + usage.ru_stime + kids_cpu
            return {"error": f"timed out after {args.timeout:g} s of wall time, having used "
                    f"{cpu:.0f} s of CPU (the machine's load decides the wall time)"}  # fmt: skip
        time.sleep(0.05)
    proc.returncode = os.waitstatus_to_exitcode(status)
    log.close()
    wall = time.perf_counter() - start
    if not out_path.exists():
        tail = (directory / f"log-{name}.txt").read_text().strip().splitlines()[-3:]
        return {"error": f"exit {proc.returncode}: " + " | ".join(tail)}
    result = json.loads(out_path.read_text())
    result["process_wall"] = wall
    result["process_cpu"] = usage.ru_utime + usage.ru_stime + result["descendants_cpu"]
    result["peak_rss_mib"] = usage.ru_maxrss / 1024 + result["descendants_rss_mib"]
    result["python"] = python
    return result


def choose_python(name: str, pythons: list[str]) -> str | None:
    """The first interpreter that imports the row's module; privlab's own rows (and the fakes)
    run in this interpreter first — an anchors' virtualenv can import privlab through
    PYTHONPATH but has other versions of numpy/polars and no typer."""
    if name.startswith(("privlab", "fake")):
        pythons = [sys.executable, *pythons]
    for python in pythons:
        if can_import(python, MODULES[name]):
            return python
    return None


def format_table(rows: dict[str, dict]) -> str:
    head = ("row", "guarantee", "call CPU s", "call wall s", "process CPU s", "peak RSS MiB",
            *(f"MAE {s}" for s in STATS), "groups missing")  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, r in rows.items():
        if "answers" not in r:
            why = r.get("unavailable") or r.get("error") or "?"
            lines.append(f"| {name} | n/a: {why} |" + " |" * (len(head) - 2))
            continue
        m = r["mae"]
        nonfinite = {s: f" ({m[f'{s} non-finite']} non-finite)" if m[f"{s} non-finite"] else ""
                     for s in STATS}  # fmt: skip
        cells = [
            f"{name}: {r['tool']}",
            r["guarantee"],
            f"{r['call_cpu']:.2f}",
            f"{r['call_wall']:.2f}",
            f"{r['process_cpu']:.2f}",
            f"{r['peak_rss_mib']:.0f}",
            *(f"{m[s]:.4g}{nonfinite[s]}" for s in STATS),
            str(m["missing_groups"]),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> dict[str, dict]:
    """Generate the data, run every requested row, return {row: result with its MAE}."""
    sys.path.insert(0, str(HERE.parent))
    from _machine import machine

    pythons = [*args.anchors_python, sys.executable]
    tmp = Path(tempfile.mkdtemp(prefix="bench-dp-groupby-", dir=args.tmp))
    try:
        t = time.perf_counter()
        info = generate(tmp, args.rows, args.groups, args.rows_per_unit)
        exact = exact_answers(tmp)
        if not args.quiet:
            print(f"machine: {machine()}")
            print(f"data: {info['rows']:,} rows, {len(exact):,} groups, {info['units']:,} units "
                  f"of ≤ {args.rows_per_unit} rows, x in [{LOW:g}, {HIGH:g}]; ε = "
                  f"{args.epsilon:g}; generated + exact answers in "
                  f"{time.perf_counter() - t:.1f} s (not timed)\n")  # fmt: skip
        rows: dict[str, dict] = {}
        for name in args.anchors:
            python = choose_python(name, pythons)
            if python is None:
                rows[name] = {"unavailable": f"{MODULES[name]} cannot be imported by "
                              f"{', '.join(pythons)}"}  # fmt: skip
            else:
                rows[name] = _median_row(
                    [run_row(python, name, args, tmp) for _ in range(args.repeats)]
                )
            if "answers" in rows[name]:
                rows[name]["mae"] = mae(rows[name]["answers"], exact)
            if not args.quiet:
                r = rows[name]
                status = (f"call CPU {r['call_cpu']:.2f} s" if "answers" in r
                          else r.get("unavailable") or r.get("error"))  # fmt: skip
                print(f"  {name}: {status}", flush=True)
        return rows
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    parser.add_argument("--groups", type=int, default=10**3)
    parser.add_argument("--rows-per-unit", type=int, default=10)
    parser.add_argument("--epsilon", type=float, default=1.0)
    parser.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="runs of each row (fresh subprocess each); the median is shown",
    )
    parser.add_argument(
        "--anchors",
        default=",".join(DEFAULT_ANCHORS),
        help=f"comma-separated rows among {', '.join(WORKERS)}",
    )
    parser.add_argument(
        "--anchors-python",
        action="append",
        default=[],
        help="interpreter of a virtualenv with anchors (repeatable)",
    )
    parser.add_argument("--quick", action="store_true", help="10^5 rows")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per row")
    parser.add_argument("--burn", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the temporary data directory")
    parser.add_argument("--tmp", default=None, help="parent of the temporary data directory")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--dir", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.rows = 10**5
    args.anchors = [a.strip() for a in args.anchors.split(",") if a.strip()]
    unknown = [a for a in args.anchors if a not in WORKERS]
    if unknown:
        parser.error(f"--anchors: unknown {unknown}; choose among {', '.join(WORKERS)}")
    for opt in ("rows", "groups", "rows_per_unit", "repeats"):
        if getattr(args, opt) < 1:
            parser.error(f"--{opt.replace('_', '-')} must be ≥ 1")
    if not (args.epsilon > 0 and math.isfinite(args.epsilon)):
        parser.error("--epsilon must be a positive number")
    if args.groups * args.rows_per_unit > args.rows:
        parser.error("--rows must be at least --groups × --rows-per-unit (a unit in every group)")
    return args


def _median_row(runs: list[dict]) -> dict:
    ok = [r for r in runs if "answers" in r]
    if not ok:
        return runs[0]
    ok.sort(key=lambda r: r["call_cpu"])
    return ok[len(ok) // 2]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        ctx = {"dir": Path(args.dir), "epsilon": args.epsilon,
               "rows_per_unit": args.rows_per_unit, "burn": args.burn}  # fmt: skip
        run_worker(args.worker, ctx, Path(args.dir) / f"result-{args.worker}.json")
        return 0
    rows = run(args)
    if args.json:
        summary = {n: {k: v for k, v in r.items() if k != "answers"} for n, r in rows.items()}
        print(json.dumps(summary, indent=1))
        return 0
    print(format_table(rows))
    print(FOOTNOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
