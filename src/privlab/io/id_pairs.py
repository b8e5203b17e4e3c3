"""Tables of node ids (truth, seeds, mappings: ``aux,san`` CSV) read and written with numpy.

A graph attack reads ``truth.csv`` and a seeds file and writes a mapping; through polars that
costs its import (about 0.2 s of CPU, as much as a small attack on ego-Facebook).  The plain
shape these files have when privlab or SecGraph-style tools write them — a header line, then
``int,int`` lines — is read here without polars; anything else (spaces, quotes, empty cells,
another header, non-ASCII text, a Parquet file) returns None and the caller reads the file
with :func:`privlab.io.delimited.read_table`, which has the full checks and messages.  Ids
keep their meaning either way: ``007`` is 7 for both readers.  O(file size).
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import numpy as np

from privlab.io.atomic import atomic_path
from privlab.io.outputs import is_stdout, stdout_binary

_PLAIN_ROWS = re.compile(r"(?:[0-9]{1,18},[0-9]{1,18}\r?\n)*(?:[0-9]{1,18},[0-9]{1,18})?")
PARQUET_SUFFIXES = (".parquet", ".pq")


def read_plain_pairs(path: str | os.PathLike[str], names: tuple[str, str]) -> np.ndarray | None:
    """The (k × 2) int64 rows of a CSV whose header is ``names`` and whose every other line
    is two unsigned integers of at most 18 digits; None for any other file."""
    p = Path(path)
    if p.suffix.lower() in PARQUET_SUFFIXES:
        return None
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # the full reader reports it
    header, _, body = text.partition("\n")
    if not text.isascii() or header.rstrip("\r") != ",".join(names):
        return None
    if _PLAIN_ROWS.fullmatch(body) is None:
        return None
    return np.array(body.replace(",", " ").split(), dtype=np.int64).reshape(-1, 2)


def write_pairs(
    pairs: np.ndarray, path: str | os.PathLike[str], names: tuple[str, str] = ("aux", "san")
) -> None:
    """Write (k × 2) integer rows as CSV with the header ``names`` (``-``: standard output),
    atomically; a ``.parquet``/``.pq`` name is written as Parquet through polars."""
    if not is_stdout(path) and Path(path).suffix.lower() in PARQUET_SUFFIXES:
        import polars as pl

        from privlab.io.delimited import write_table

        write_table(pl.DataFrame({names[0]: pairs[:, 0], names[1]: pairs[:, 1]}), path)
        return
    buf = io.StringIO()
    np.savetxt(buf, np.asarray(pairs, dtype=np.int64).reshape(-1, 2), fmt="%d", delimiter=",",
               header=",".join(names), comments="")  # fmt: skip
    data = buf.getvalue().encode("ascii")
    if is_stdout(path):
        stdout_binary().write(data)
        return
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
