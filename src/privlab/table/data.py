"""Microdata tables: attribute roles, missing-value policy, integer encoding.

Each column is encoded once to integer codes (numpy); every algorithm works on codes.
Quasi-identifiers are encoded as leaf indices of their hierarchy, so generalizing a column
to level ``l`` is one array look-up (``hierarchy.group_of_leaf(l)[codes]``).

Roles follow seed 000 §2.3: *identifying* attributes are removed, *quasi-identifying*
ones are generalized, *sensitive* ones are protected by the privacy models, *insensitive*
ones are released unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.io.delimited import bad_rows, numeric_column, read_table
from privlab.table.hierarchy import Hierarchy


class Role(StrEnum):
    IDENTIFYING = "identifying"
    QUASI = "quasi"
    SENSITIVE = "sensitive"
    INSENSITIVE = "insensitive"


class MissingPolicy(StrEnum):
    """What to do with missing cells (null, or a text listed in ``na_values``)."""

    ERROR = "error"  #: refuse the table, naming the first missing cell
    CATEGORY = "category"  #: treat missing as a value of its own (``missing_label``)


DEFAULT_NA_VALUES: tuple[str, ...] = ("",)


def to_polars(data: Any) -> tuple[pl.DataFrame, str]:
    """Return ``(frame, kind)`` where kind is 'polars', 'pandas' or 'path'; all cells as text."""
    if isinstance(data, pl.DataFrame):
        frame, kind = data, "polars"
    elif isinstance(data, (str, os.PathLike)):
        return read_table(data), "path"
    else:
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - pandas is optional
            pd = None
        if pd is not None and isinstance(data, pd.DataFrame):
            names = [str(c) for c in data.columns]
            if len(set(names)) != len(names):
                dup = sorted({n for n in names if names.count(n) > 1})
                raise InputError(f"data frame: duplicate column names {dup}; make them unique")
            frame, kind = pl.from_pandas(data.rename(columns=str)), "pandas"
        else:
            raise InputError(
                f"expected a polars or pandas DataFrame or a file path, got {type(data).__name__}"
            )
    if frame.height == 0:
        raise InputError("the table has no rows")
    return frame.with_columns(pl.all().cast(pl.String)), kind


def from_polars(frame: pl.DataFrame, kind: str) -> Any:
    """Convert back to the caller's kind of frame."""
    if kind == "pandas":
        return frame.to_pandas()
    return frame


@dataclass
class MicroTable:
    """A table with attribute roles, encoded to integer codes.

    Build it with :meth:`from_data`.  ``qi_codes[:, j]`` holds leaf indices into
    ``hierarchies[qi[j]]``; ``sa_codes[name]`` codes into ``sa_values[name]``.
    Error messages place a cell by its line as in a CSV file with a header: row ``i`` of the
    table (file or data frame) is line ``first_line + i``; ``first_line=None`` names no line
    (the rows of a table released with differential privacy are private).  They never show
    a cell's value.
    """

    frame: pl.DataFrame
    kind: str
    qi: list[str]
    sensitive: list[str]
    identifying: list[str]
    hierarchies: dict[str, Hierarchy]
    qi_codes: np.ndarray
    sa_codes: dict[str, np.ndarray] = field(default_factory=dict)
    sa_values: dict[str, np.ndarray] = field(default_factory=dict)
    source: str = "<data frame>"
    first_line: int | None = 2

    @property
    def n_rows(self) -> int:
        return int(self.frame.height)

    @property
    def insensitive(self) -> list[str]:
        taken = set(self.qi) | set(self.sensitive) | set(self.identifying)
        return [c for c in self.frame.columns if c not in taken]

    def role(self, column: str) -> Role:
        if column in self.qi:
            return Role.QUASI
        if column in self.sensitive:
            return Role.SENSITIVE
        if column in self.identifying:
            return Role.IDENTIFYING
        return Role.INSENSITIVE

    @classmethod
    def from_data(
        cls,
        data: Any,
        *,
        quasi_identifiers: Sequence[str],
        hierarchies: Mapping[str, Hierarchy | str | os.PathLike[str]] | None = None,
        sensitive: Sequence[str] = (),
        identifying: Sequence[str] = (),
        missing: MissingPolicy | str = MissingPolicy.ERROR,
        na_values: Sequence[str] = DEFAULT_NA_VALUES,
        missing_label: str = "?",
        source: str | None = None,
        first_line: int | None = 2,
    ) -> MicroTable:
        """Validate roles and encode ``data`` (a polars/pandas DataFrame or a CSV/Parquet path).

        QIs without a hierarchy get a flat one (value → ``*``), i.e. suppression only.
        ``source`` names the data in error messages (default: the path, or ``<data frame>``);
        ``first_line`` is the line of row 0 there (None: name no line, for DP releases).
        Complexity: O(rows × columns).
        """
        if isinstance(data, (str, os.PathLike)):
            expected = list(quasi_identifiers) + list(sensitive) + list(identifying)
            frame, kind, source = read_table(data, expected_columns=expected), "path", str(data)
        else:
            (frame, kind), source = to_polars(data), source or "<data frame>"
        try:
            policy = MissingPolicy(missing)
        except ValueError:
            raise ConfigError(
                f"missing: unknown policy {missing!r}; use 'error' or 'category'"
            ) from None
        qi = list(quasi_identifiers)
        _check_roles(frame, source, qi, list(sensitive), list(identifying))
        hierarchies = dict(hierarchies or {})
        unknown = [c for c in hierarchies if c not in qi]
        if unknown:
            raise ConfigError(
                f"hierarchy given for {unknown}, which are not quasi-identifiers {qi}; "
                "add them with --qi or drop the hierarchy"
            )
        frame = _apply_missing(
            frame, qi + list(sensitive), policy, na_values, missing_label, source, first_line
        )
        hier: dict[str, Hierarchy] = {}
        codes = np.empty((frame.height, len(qi)), dtype=np.int32)
        for j, col in enumerate(qi):
            h = hierarchies.get(col)
            if h is None:
                h = Hierarchy.flat(
                    frame[col].unique(maintain_order=True).to_list(), source=f"<flat {col}>"
                )
            elif not isinstance(h, Hierarchy):
                h = Hierarchy.from_csv(h)
            hier[col] = h
            try:
                codes[:, j] = h.encode(frame[col], column=col, first_line=first_line)
            except InputError as exc:
                raise InputError(f"{source}, {exc}") from None
        sa_codes, sa_values = {}, {}
        for col in sensitive:
            values = frame[col].unique().sort()
            sa_codes[col] = (
                frame[col]
                .replace_strict(values, pl.int_range(values.len(), dtype=pl.Int32, eager=True))
                .to_numpy()
            )
            sa_values[col] = values.to_numpy().astype(str)
        return cls(
            frame=frame,
            kind=kind,
            qi=qi,
            sensitive=list(sensitive),
            identifying=list(identifying),
            hierarchies=hier,
            qi_codes=codes,
            sa_codes=sa_codes,
            sa_values=sa_values,
            source=source,
            first_line=first_line,
        )

    def numeric_values(self, column: str) -> np.ndarray:
        """The column parsed as float64; raises counting (and locating) non-numeric cells.

        ``nan`` and ``inf`` are refused too: they have no place in an ordered range.
        """
        return numeric_column(self.frame[column], self.source, self.first_line)


def _check_roles(
    frame: pl.DataFrame, source: str, qi: list[str], sa: list[str], ident: list[str]
) -> None:
    if not qi:
        raise ConfigError("no quasi-identifiers given; name at least one with --qi COLUMN")
    columns = set(frame.columns)
    for role, cols in (("quasi-identifier", qi), ("sensitive", sa), ("identifying", ident)):
        for c in cols:
            if c not in columns:
                raise ConfigError(
                    f"{source}: {role} column {c!r} not found; the columns are {frame.columns}"
                )
    seen: dict[str, str] = {}
    for role, cols in (("quasi-identifier", qi), ("sensitive", sa), ("identifying", ident)):
        for c in cols:
            if c in seen:
                raise ConfigError(f"column {c!r} is both {seen[c]} and {role}; give it one role")
            seen[c] = role


def _apply_missing(
    frame: pl.DataFrame,
    columns: list[str],
    policy: MissingPolicy,
    na_values: Sequence[str],
    label: str,
    source: str,
    first_line: int | None,
) -> pl.DataFrame:
    na = list(na_values)
    updates = []
    for col in columns:
        is_missing = frame[col].is_null() | frame[col].is_in(na)
        if not is_missing.any():
            continue
        if policy is MissingPolicy.ERROR:
            raise InputError(
                f"{source}, column {col!r}: {bad_rows(is_missing, first_line)} with a missing "
                f"value; fill them, or use --missing category to treat missing as the value "
                f"{label!r} (its hierarchy then needs a row for {label!r})"
            )
        updates.append(
            pl.when(pl.col(col).is_null() | pl.col(col).is_in(na))
            .then(pl.lit(label))
            .otherwise(pl.col(col))
            .alias(col)
        )
    return frame.with_columns(updates) if updates else frame


def load_hierarchies(spec: Mapping[str, str | os.PathLike[str]]) -> dict[str, Hierarchy]:
    """Read ``{column: path}`` ARX hierarchy files."""
    return {col: Hierarchy.from_csv(Path(p)) for col, p in spec.items()}
