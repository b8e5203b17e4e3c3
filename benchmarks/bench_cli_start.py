"""CPU time of ``privlab --help`` and of every command's ``--help``, next to ``python3 -c pass``.

Each line runs the command ``--repeat`` times in a fresh interpreter (as a user's shell does)
and reports the median CPU time of the child (user + system, from ``wait4``'s rusage) and
its median wall time, plus the heavy libraries its help loaded (none of SciPy,
scikit-learn, DuckDB or matplotlib may load; numpy and polars may).  The interpreter's
``.pyc`` caches are warm (one untimed run first).

    python3 benchmarks/bench_cli_start.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "cli"))
# the commands the tests check, and their probe: ``privlab ARGS`` as the console script
# runs it, then a line "LOADED <heavy modules>" on stdout
from test_fast_start import COMMAND_PATHS, HEAVY, PROBE


def run(args: list[str]) -> tuple[float, float, str]:
    """(CPU seconds of the child, wall seconds, the heavy modules it loaded)."""
    t = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read()  # until the child exits
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.stdout.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    loaded = next((ln.split()[1:] for ln in out.splitlines() if ln.startswith("LOADED")), [])
    return usage.ru_utime + usage.ru_stime, wall, " ".join(loaded)


def measure(args: list[str], repeat: int) -> tuple[float, float, str]:
    run(args)  # warm the caches
    cpu, wall, loaded = zip(*(run(args) for _ in range(repeat)), strict=True)
    return statistics.median(cpu), statistics.median(wall), loaded[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (median)")
    opts = parser.parse_args()
    probe = [sys.executable, "-c", PROBE.format(heavy=HEAVY)]
    rows = [("python3 -c pass", *measure([sys.executable, "-c", "pass"], opts.repeat))]
    for path in ["", *COMMAND_PATHS]:
        label = f"privlab {path} --help".replace("  ", " ")
        rows.append((label, *measure([*probe, *path.split(), "--help"], opts.repeat)))
    base = rows[0][1]
    print(machine())
    print(f"median of {opts.repeat} runs each, after one warm-up run\n")
    print("| command | CPU s | − python3 -c pass | wall s | heavy modules loaded |")
    print("|---|---|---|---|---|")
    for label, cpu, wall, loaded in rows:
        print(f"| `{label}` | {cpu:.3f} | {cpu - base:+.3f} | {wall:.3f} | {loaded or '—'} |")


if __name__ == "__main__":
    main()
