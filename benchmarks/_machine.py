"""What the benchmark scripts print about the machine they ran on, and how they time a call."""

from __future__ import annotations

import os
import platform
import resource
import statistics
import time
from pathlib import Path
from typing import Any


def _proc_field(path: str, key: str) -> str | None:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def machine() -> str:
    """``Linux x86_64, nproc 2, AMD EPYC ..., 23.4 GiB RAM, Python 3.11.7`` (from /proc)."""
    cpu = _proc_field("/proc/cpuinfo", "model name") or "?"
    mem_kib = _proc_field("/proc/meminfo", "MemTotal")
    mem = f"{int(mem_kib.split()[0]) / 2**20:.1f} GiB RAM" if mem_kib else "? RAM"
    return (
        f"{platform.system()} {platform.machine()}, nproc {os.cpu_count()}, {cpu}, {mem}, "
        f"Python {platform.python_version()}"
    )


def default_data() -> str:
    """``$PRIVLAB_DATA``, else ``../shared/data`` next to the checkout."""
    return os.environ.get("PRIVLAB_DATA") or str(
        Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
    )


def median_time(fn: Any, repeat: int, *, warmup: bool = False) -> tuple[float, Any]:
    """``(median seconds, last result)`` of ``repeat`` timed calls of ``fn()``.

    With ``warmup``, one untimed call first (caches, lazy imports, JIT).
    """
    if warmup:
        fn()
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def peak_rss_mib() -> float:
    """The process's peak resident memory so far, MiB (``ru_maxrss`` is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
