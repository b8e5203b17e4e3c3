"""DP aggregates of 10^6 integers (ε = 1): privlab vs OpenDP and diffprivlib, like with like.

REFERENCE_RESULTS.md's data (10^6 integers in [0, 100), ε = 1), measured so that every library
does the same work on the same input (issue 17, fidelity item 5):

* **numpy input on every side.**  privlab and diffprivlib take the int64 array; OpenDP's
  vector API takes it as ``vector_domain(atom_domain(T="i64"))`` (one copy into Rust), and
  OpenDP's polars API gets ``pl.LazyFrame({"x": array})``.
* **real aggregations**, each a pass over the data:
  ``count x < 50`` (rows matching a predicate: privlab counts ``data[data < 50]``, diffprivlib
  ``count_nonzero(data < 50)``, OpenDP polars ``filter(x < 50).select(dp.len())``; OpenDP's
  vector API has no row filter and is left out of this row), ``sum`` (clamped to [0, 99],
  sensitivity 99) and ``histogram`` (100 bins, public keys).
* **OpenDP's polars API** two ways: the measurement built once (``query.resolve()``) and then
  invoked on the frame — the execution, comparable to the other rows — and
  ``query.release().collect()``, which builds the measurement every time (about 2 s of CPU
  per query at any size, in OpenDP 0.16: what a user of the Context API pays per release).
* **CPU time and wall time** of the release call (``time.process_time``, which counts every
  thread of the process, and ``time.perf_counter``), each the median of ``--repeat`` runs after
  one warm-up, every library timed inside its own process.  On a loaded machine the wall time
  moves with the load; the CPU time is the figure to compare.

Two rows are kept apart and labelled, because they do not compare like with like:
``count (all rows)`` — privlab's ``count`` is ``len()`` plus noise, O(1), where OpenDP's
vector count copies the array first — and ``OpenDP, Python list input``, the earlier headline
(OpenDP's O(n) conversion of a Python list).

The anchors run in their own virtualenv (never a privlab dependency):

    python3 -m venv /tmp/dpanchors
    /tmp/dpanchors/bin/pip install "opendp[polars]==0.16.*" "diffprivlib==0.6.6" "scikit-learn<1.8"
    python3 benchmarks/bench_dp.py --anchors-python /tmp/dpanchors/bin/python

Without ``--anchors-python`` only privlab is measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine

from privlab.dp.queries import clamped_sum, count, histogram

N = 10**6
BINS = 100
QUERIES = ("count x < 50", "sum", "histogram", "count (all rows)")

#: run inside the anchors' interpreter: prints {library: {query: [wall, cpu]}, "versions": ...}
ANCHOR_SCRIPT = r"""
import json, statistics, sys, time, warnings
import numpy as np
warnings.filterwarnings("ignore")
n, bins, repeat, which = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = np.random.default_rng(0).integers(0, bins, size=n)

def timed(fn):
    fn()
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w); cpus.append(time.process_time() - c)
    return [statistics.median(walls), statistics.median(cpus)]

out = {}
if which.startswith("opendp"):
    import opendp.prelude as dp
    dp.enable_features("contrib")
    version = getattr(dp, "__version__", None)
    if version is None:
        from importlib.metadata import version as _v
        version = _v("opendp")
    out["version"] = version
if which == "opendp":
    space = dp.vector_domain(dp.atom_domain(T="i64")), dp.symmetric_distance()
    m_sum = (space >> dp.t.then_clamp((0, bins - 1)) >> dp.t.then_sum()
             >> dp.m.then_laplace(scale=float(bins - 1)))
    m_hist = (space >> dp.t.then_count_by_categories(categories=list(range(bins)))
              >> dp.m.then_laplace(scale=1.0))
    m_count = space >> dp.t.then_count() >> dp.m.then_laplace(scale=1.0)
    out["sum"] = timed(lambda: m_sum(data))
    out["histogram"] = timed(lambda: m_hist(data))
    out["count (all rows)"] = timed(lambda: m_count(data))
elif which == "opendp-list":
    space = dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance()
    values = data.tolist()
    m_count = space >> dp.t.then_count() >> dp.m.then_laplace(scale=1.0)
    m_hist = (space >> dp.t.then_count_by_categories(categories=list(range(bins)))
              >> dp.m.then_laplace(scale=1.0))
    out["count (all rows)"] = timed(lambda: m_count(values))
    out["histogram"] = timed(lambda: m_hist(values))
elif which in ("opendp-polars", "opendp-polars-release"):
    import polars as pl
    lf = pl.LazyFrame({"x": data})
    reps = repeat if which == "opendp-polars" else min(repeat, 3)
    ctx = dp.Context.compositor(
        data=lf, privacy_unit=dp.unit_of(contributions=1),
        privacy_loss=dp.loss_of(epsilon=1.0 * 4 * (reps + 1)),
        split_evenly_over=4 * (reps + 1),
        margins=[dp.polars.Margin(by=[], max_length=n),
                 dp.polars.Margin(by=["x"], invariant="keys", max_length=n)])
    queries = {
        "count x < 50": ctx.query().filter(pl.col("x") < 50).select(dp.len()),
        "sum": ctx.query().select(pl.col("x").fill_null(0).dp.sum((0, bins - 1))),
        "histogram": ctx.query().group_by("x").agg(dp.len()),
        "count (all rows)": ctx.query().select(dp.len()),
    }
    for name, q in queries.items():
        if which == "opendp-polars":  # the measurement built once, then invoked on the frame
            m = q.resolve()
            out[name] = timed(lambda: m(lf).collect())
        else:  # what query.release() costs: building the measurement, every time
            repeat = reps
            out[name] = timed(lambda: q.release().collect())
    out["version"] += f", polars {pl.__version__}"
elif which == "diffprivlib":
    import diffprivlib as dpl
    from diffprivlib.tools import count_nonzero, histogram
    from diffprivlib.tools import sum as dp_sum
    out["count x < 50"] = timed(lambda: count_nonzero(data < 50, epsilon=1.0))
    out["sum"] = timed(lambda: dp_sum(data, bounds=(0, bins - 1), epsilon=1.0))
    out["histogram"] = timed(lambda: histogram(data, bins=bins, range=(0, bins), epsilon=1.0))
    out["count (all rows)"] = timed(lambda: count_nonzero(np.ones(n), epsilon=1.0))
    out["version"] = dpl.__version__
print(json.dumps(out))
"""

ANCHORS = (
    ("opendp-polars", "OpenDP {v} polars API, measurement built once (LazyFrame of the array)"),
    (
        "opendp-polars-release",
        "OpenDP {v} polars API, `query.release()` (builds the measurement "
        "each time; median of ≤ 3)",
    ),
    ("opendp", "OpenDP {v} vector API (numpy int64)"),
    ("diffprivlib", "diffprivlib {v} (numpy; float noise, not exact)"),
    ("opendp-list", "OpenDP {v} vector API, **Python list input** (earlier headline)"),
)


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    """[median wall seconds, median CPU seconds] of ``repeat`` calls after one warm-up."""
    fn()
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return [statistics.median(walls), statistics.median(cpus)]


def privlab_row(data: np.ndarray, repeat: int) -> dict[str, list[float]]:
    """privlab's four queries on the numpy array (exact integer noise, OS-seeded)."""
    return {
        "count x < 50": timed(lambda: count(data[data < 50], 1.0), repeat),
        "sum": timed(lambda: clamped_sum(data, 0, BINS - 1, 1.0), repeat),
        "histogram": timed(lambda: histogram(data, BINS, 1.0), repeat),
        "count (all rows)": timed(lambda: count(data, 1.0), repeat),
    }


def run_anchor(python: str, which: str, repeat: int) -> dict:
    proc = subprocess.run(
        [python, "-c", ANCHOR_SCRIPT, str(N), str(BINS), str(repeat), which],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed"}
    return json.loads(proc.stdout)


def _cell(r: dict, q: str, base: dict) -> str:
    if q not in r:
        return "—"
    wall, cpu = r[q]
    ratio = cpu / base[q][1] if base[q][1] > 0 else float("nan")
    return f"{cpu * 1e3:.2f} / {wall * 1e3:.2f} ms ({ratio:,.1f}×)"


def table(rows: dict[str, dict]) -> str:
    base = rows["privlab (numpy int64)"]
    lines = [
        "| library | " + " | ".join(QUERIES) + " |",
        "|---|" + "---|" * len(QUERIES),
    ]
    for name, r in rows.items():
        if "error" in r:
            lines.append(f"| {name} | failed: {r['error']} |" + " |" * (len(QUERIES) - 1))
            continue
        lines.append(f"| {name} | " + " | ".join(_cell(r, q, base) for q in QUERIES) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchors-python", help="python of the virtualenv with the anchors")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--n", type=int, default=N, help="rows (default 10^6)")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.n < 1:
        parser.error("--repeat and --n must be ≥ 1")
    globals()["N"] = args.n

    data = np.random.default_rng(0).integers(0, BINS, size=args.n)
    rows: dict[str, dict] = {"privlab (numpy int64)": privlab_row(data, args.repeat)}
    if args.anchors_python:
        for which, label in ANCHORS:
            result = run_anchor(args.anchors_python, which, args.repeat)
            rows[label.format(v=result.get("version", "?"))] = result

    print(f"machine: {machine()}")
    print(f"{args.n:,} integers in [0, {BINS}), ε = 1; CPU / wall time of the release call, "
          f"median of {args.repeat} runs after a warm-up; (×) = CPU time over "
          "privlab's\n")  # fmt: skip
    print(table(rows))
    print("\ncount (all rows): privlab's count is len() + noise (O(1)); not a pass over "
          "the data.  Python list input: OpenDP's conversion of a list, kept only for "
          "reference.")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
