"""What the benchmark scripts print about the machine they ran on."""

from __future__ import annotations

import os
import platform
from pathlib import Path


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
