"""What kind of table file a path holds: by its name, checked against its first bytes.

``.parquet``/``.pq`` is Parquet, ``.xlsx``/``.xlsm`` an Excel workbook, a name ending in
``.gz``/``.zst`` delimited text compressed with gzip/zstd (``data.csv.gz``, ``data.tsv.zst``),
anything else delimited text.  The first bytes must agree: a file whose content is of another
kind (an SQLite database, a zip archive, a PDF, compressed data under a plain name, binary
data) is refused with an :class:`~privlab.errors.InputError` that names what the file is and
what to do with it, instead of failing later as "not UTF-8 text".  O(1): reads 8 KiB.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from privlab.errors import InputError

PARQUET_SUFFIXES = (".parquet", ".pq")
EXCEL_SUFFIXES = (".xlsx", ".xlsm")
COMPRESSION_SUFFIXES = {".gz": "gzip", ".gzip": "gzip", ".zst": "zstd", ".zstd": "zstd"}

#: Content kinds recognised by their leading bytes (checked in this order).
MAGIC: tuple[tuple[str, bytes], ...] = (
    ("sqlite", b"SQLite format 3\x00"),
    ("zip", b"PK\x03\x04"),
    ("gzip", b"\x1f\x8b"),
    ("zstd", b"\x28\xb5\x2f\xfd"),
    ("parquet", b"PAR1"),
    ("pdf", b"%PDF"),
    ("ole2", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"),
    ("utf16", b"\xff\xfe"),
    ("utf16", b"\xfe\xff"),
)

#: What each content kind is, and what to do to get a table privlab reads.
ADVICE = {
    "sqlite": (
        "an SQLite database",
        "export the table to CSV or Parquet, e.g. "
        "sqlite3 -header -csv {name} 'SELECT * FROM my_table' > my_table.csv",
    ),
    "zip": (
        "a zip archive",
        "an Excel workbook must be named .xlsx; any other archive must be unzipped first "
        "(unzip {name}) and the table inside given instead",
    ),
    "gzip": (
        "gzip-compressed data",
        "name it .csv.gz (or .tsv.gz) and privlab decompresses it, or decompress it first "
        "(gunzip -k {name})",
    ),
    "zstd": (
        "zstd-compressed data",
        "name it .csv.zst (or .tsv.zst) and privlab decompresses it, or decompress it first "
        "(zstd -d {name})",
    ),
    "parquet": ("a Parquet file", "name it .parquet"),
    "pdf": ("a PDF document", "export the table to CSV from the program that made the PDF"),
    "ole2": ("a legacy Office file (an Excel .xls workbook?)", "save it as .xlsx or as CSV"),
    "utf16": (
        "UTF-16 text",
        "re-encode it as UTF-8, e.g. iconv -f UTF-16 -t UTF-8 {name} > table.csv (in Excel: "
        "save as 'CSV UTF-8')",
    ),
    "binary": (
        "binary data (a NUL byte at byte {at})",
        "give a CSV/TSV text file (UTF-8), a Parquet file or an Excel .xlsx workbook",
    ),
}

#: What a name promises, and the fix when the content is plain text after all.
PROMISES = {
    "parquet": ("a Parquet file", "if it is CSV, name it .csv"),
    "zip": ("an Excel .xlsx workbook", "if it is CSV, name it .csv"),
    "gzip": ("gzip-compressed", "it is not compressed: drop the .gz suffix"),
    "zstd": ("zstd-compressed", "it is not compressed: drop the .zst suffix"),
}


@dataclass(frozen=True)
class TableFormat:
    """``kind`` is ``"delimited"``, ``"parquet"`` or ``"excel"``; ``compression`` is
    ``None``, ``"gzip"`` or ``"zstd"`` (delimited text only)."""

    kind: str
    compression: str | None = None


def format_by_name(path: Path) -> TableFormat:
    """The format a file's name promises (no I/O)."""
    suffix = path.suffix.lower()
    if suffix in PARQUET_SUFFIXES:
        return TableFormat("parquet")
    if suffix in EXCEL_SUFFIXES:
        return TableFormat("excel")
    return TableFormat("delimited", COMPRESSION_SUFFIXES.get(suffix))


def content_kind(head: bytes) -> str | None:
    """The kind of data ``head`` (a file's first bytes) starts with; ``"binary"`` for other
    data holding a NUL byte; ``None`` for what may be text."""
    for kind, magic in MAGIC:
        if head.startswith(magic):
            return kind
    return "binary" if b"\x00" in head else None


def detect_format(path: Path) -> TableFormat:
    """The format of ``path`` by its name, after checking that its first bytes agree.

    Raises :class:`InputError` naming what the file really is and the fix.
    """
    fmt = format_by_name(path)
    with path.open("rb") as fh:
        head = fh.read(8192)
    found = content_kind(head)
    expected = {"parquet": "parquet", "excel": "zip"}.get(fmt.kind, fmt.compression)
    if found == expected:
        return fmt
    if found is None:  # text where the name promised something else
        promised, fix = PROMISES[str(expected)]
        raise InputError(f"{path}: named as {promised}, but this is text; {fix}")
    what, fix = (t.format(name=path.name, at=head.find(b"\x00")) for t in ADVICE[found])
    if expected is None:
        raise InputError(f"{path}: this is {what}, not a UTF-8 CSV/TSV file; {fix}")
    raise InputError(f"{path}: named as {PROMISES[expected][0]}, but this is {what}; {fix}")
