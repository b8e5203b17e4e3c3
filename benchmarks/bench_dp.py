"""DP count and 100-bin histogram of 10^6 integers (ε = 1): privlab vs OpenDP and diffprivlib.

REFERENCE_RESULTS.md's set-up.  The anchors run in their own virtualenv (never a privlab
dependency), each timed inside its own process around the release call only, with the data
already in the form the library takes (a Python list for OpenDP, a numpy array for
diffprivlib and privlab):

    python3 -m venv /tmp/dpanchors
    /tmp/dpanchors/bin/pip install "opendp==0.16.*" "diffprivlib==0.6.6" "scikit-learn<1.8"
    # (or: pip install -e ".[dp-anchors]" in a separate virtualenv)
    python3 benchmarks/bench_dp.py --anchors-python /tmp/dpanchors/bin/python

privlab is timed twice: from a numpy array, and from the same Python list OpenDP gets
(conversion included).  Each figure is the median of ``--repeat`` runs after one warm-up.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine, median_time

from privlab.dp.queries import count, histogram

N = 10**6
BINS = 100

ANCHOR_SCRIPT = r"""
import json, statistics, sys, time, warnings
import numpy as np
warnings.filterwarnings("ignore")
n, bins, repeat, which = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = np.random.default_rng(0).integers(0, bins, size=n)
out = {}

def timed(fn):
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter(); fn(); times.append(time.perf_counter() - t)
    return statistics.median(times)

if which == "opendp":
    import opendp.prelude as dp
    dp.enable_features("contrib")
    values = data.tolist()
    space = dp.vector_domain(dp.atom_domain(T=int)), dp.symmetric_distance()
    meas_count = space >> dp.t.then_count() >> dp.m.then_laplace(scale=1.0)
    cats = list(range(bins))
    meas_hist = (space >> dp.t.then_count_by_categories(categories=cats)
                 >> dp.m.then_laplace(scale=1.0))
    out["count"] = timed(lambda: meas_count(values))
    out["histogram"] = timed(lambda: meas_hist(values))
    out["version"] = dp.__version__ if hasattr(dp, "__version__") else "0.16"
elif which == "diffprivlib":
    import diffprivlib as dpl
    from diffprivlib.tools import count_nonzero, histogram
    ones = np.ones(n)
    out["count"] = timed(lambda: count_nonzero(ones, epsilon=1.0))
    out["histogram"] = timed(lambda: histogram(data, bins=bins, range=(0, bins), epsilon=1.0))
    out["version"] = dpl.__version__
print(json.dumps(out))
"""


def timed(fn, repeat: int) -> float:
    """Median seconds of ``repeat`` calls after one warm-up."""
    return median_time(fn, repeat, warmup=True)[0]


def run_anchor(python: str, which: str, repeat: int) -> dict:
    proc = subprocess.run(
        [python, "-c", ANCHOR_SCRIPT, str(N), str(BINS), str(repeat), which],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr else "failed"}
    return json.loads(proc.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchors-python", help="python of the virtualenv with the anchors")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    data = np.random.default_rng(0).integers(0, BINS, size=N)
    as_list = data.tolist()
    rows = {
        "privlab (numpy array)": {
            "count": timed(lambda: count(data, 1.0), args.repeat),
            "histogram": timed(lambda: histogram(data, BINS, 1.0), args.repeat),
        },
        "privlab (Python list)": {
            "count": timed(lambda: count(np.asarray(as_list), 1.0), args.repeat),
            "histogram": timed(lambda: histogram(np.asarray(as_list), BINS, 1.0), args.repeat),
        },
    }
    if args.anchors_python:
        for which in ("opendp", "diffprivlib"):
            result = run_anchor(args.anchors_python, which, args.repeat)
            rows[f"{which} {result.get('version', '')}".strip()] = result

    base = rows["privlab (numpy array)"]
    print(f"machine: {machine()}")
    print(f"{N:,} integers in [0, {BINS}), ε = 1, median of {args.repeat} runs\n")
    print("| library | count | histogram (100 bins) | count vs privlab | histogram vs privlab |")
    print("|---|---|---|---|---|")
    for name, r in rows.items():
        if "error" in r:
            print(f"| {name} | failed: {r['error']} | | | |")
            continue
        print(
            f"| {name} | {r['count'] * 1e3:.3f} ms | {r['histogram'] * 1e3:.2f} ms | "
            f"{r['count'] / base['count']:.0f}× | {r['histogram'] / base['histogram']:.1f}× |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
