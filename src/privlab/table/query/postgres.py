"""PostgreSQL helpers of the query engine (seed 001 §2.5): connecting, COPY, messages.

Connections are made with psycopg 3 (``pip install 'privlab[postgres]'``); DSNs are shown
with their password masked (:func:`mask_dsn`).
"""

from __future__ import annotations

import re
from typing import Any

import polars as pl

from privlab.errors import ConfigError, InputError


def mask_dsn(dsn: str) -> str:
    """``dsn`` with any password replaced by ``***`` (URL and key=value forms)."""
    out = re.sub(r"(://[^:/@?#]*:)[^@/?#]*@", r"\1***@", dsn)
    out = re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", r"\1***", out, flags=re.I)
    return out


def _pg_message(exc: BaseException) -> str:
    diag = getattr(exc, "diag", None)
    primary = getattr(diag, "message_primary", None) if diag is not None else None
    text = primary or str(exc).strip() or type(exc).__name__
    return " ".join(text.split())


def _pg_connect(dsn: str) -> Any:
    try:
        import psycopg
    except ImportError:
        raise ConfigError(
            "the postgres backend needs psycopg: pip install 'privlab[postgres]'"
        ) from None
    try:
        con = psycopg.connect(dsn, autocommit=True, connect_timeout=10)
    except Exception as exc:  # psycopg.OperationalError, ProgrammingError (bad DSN syntax)
        raise InputError(f"cannot connect to PostgreSQL at {mask_dsn(dsn)}: "
                         f"{mask_dsn(_pg_message(exc))}") from None  # fmt: skip
    return con


def _copy(cur: Any, table: str, frame: pl.DataFrame, chunk: int = 200_000) -> None:
    """COPY ``frame`` into ``table`` as CSV (NULL = unquoted empty; "" = empty text)."""
    with cur.copy(f"COPY {table} FROM STDIN (FORMAT csv)") as cp:
        for start in range(0, frame.height, chunk):
            cp.write(frame.slice(start, chunk).write_csv(include_header=False).encode("utf-8"))
