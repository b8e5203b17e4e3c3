"""Refuse, with a message, a table too large for the memory left — before reading it.

polars aborts the whole process (SIGABRT and a Rust backtrace, no message) when an
allocation fails, and nothing in Python can catch that.  So the readers estimate the memory a
file needs from its size and format and compare it with what the machine has left
(``MemAvailable`` of /proc/meminfo, the cgroup's ``memory.max`` less ``memory.current``, the
process's address-space limit), and refuse a file that cannot fit with an
:class:`~privlab.errors.InputError` that names it and the two figures.

The estimate is a ceiling measured on privlab's readers (peak memory / file size on a 3·10⁶
row table: plain CSV ≈ 3.5, gzip CSV ≈ 9 per compressed byte); a refusal can be overridden
with ``PRIVLAB_MEMORY_LIMIT`` — a size such as ``64G`` to set the budget, or ``none`` to turn
the check off.  O(1).
"""

from __future__ import annotations

import os
import resource
from pathlib import Path

from privlab.errors import ConfigError, InputError

#: Peak memory of reading a file, per byte of the file, by format (a ceiling; see above).
BYTES_PER_FILE_BYTE = {"delimited": 4, "compressed": 10, "parquet": 6, "excel": 20}

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _parse_size(text: str) -> int | None:
    value = text.strip().upper().removesuffix("B").removesuffix("I")
    if value in ("NONE", "OFF"):
        return None
    unit = value[-1:] if value[-1:] in _UNITS else ""
    try:
        number = float(value[: len(value) - len(unit)])
    except ValueError:
        number = -1.0
    if not number > 0:
        raise ConfigError(
            f"PRIVLAB_MEMORY_LIMIT={text!r}: give a size such as 512M or 64G, or 'none'"
        )
    return int(number * _UNITS[unit])


def _read_int(path: str) -> int | None:
    try:
        text = Path(path).read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def available_memory() -> int | None:
    """Bytes this process may still allocate (None: unknown, or the check is turned off)."""
    setting = os.environ.get("PRIVLAB_MEMORY_LIMIT")
    if setting:
        return _parse_size(setting)
    limits: list[int] = []
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                limits.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    cgroup_max = _read_int("/sys/fs/cgroup/memory.max")
    if cgroup_max is not None:
        limits.append(cgroup_max - (_read_int("/sys/fs/cgroup/memory.current") or 0))
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        limits.append(soft)
    return min(limits) if limits else None


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def check_fits(path: str | os.PathLike[str], kind: str) -> None:
    """InputError if reading ``path`` (``kind``: a key of :data:`BYTES_PER_FILE_BYTE`) would
    need more memory than is left."""
    available = available_memory()
    if available is None:
        return
    need = Path(path).stat().st_size * BYTES_PER_FILE_BYTE[kind]
    if need > available:
        raise InputError(
            f"{path}: reading it needs about {_size(need)} of memory and {_size(available)} "
            "is left; free memory, use a machine with more, split the file, or set "
            "PRIVLAB_MEMORY_LIMIT (e.g. 64G, or 'none') if the estimate is too cautious"
        )
