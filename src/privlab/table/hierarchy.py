"""Generalization hierarchies (value generalization hierarchies, VGHs).

A hierarchy is a table with one row per original value (a *leaf*) and one column per
level: column 0 is the value itself, the last column its most general form (a single
top value such as ``*``).  This is ARX's CSV format (``;``-separated, no header).

Groups are identified by their label within a level.  A valid hierarchy *nests*: all
leaves sharing a label at level ``i`` share their label at level ``i+1`` (each group at
level ``i+1`` is a union of groups at level ``i``), and the last level has one value.

Source: the generalization model of seed 000 §2.3 (k-anonymity by generalization), in the
full-domain form of Samarati/Sweeney and ARX.  Construction is O(leaves × levels).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl

from privlab.errors import InputError
from privlab.io.delimited import bad_rows, read_rows, write_rows


@dataclass(frozen=True, eq=False)
class Hierarchy:
    """A validated generalization hierarchy; build it with :meth:`from_rows` or a loader.

    ``labels[i, l]`` is the label of leaf ``i`` at level ``l``.
    """

    labels: np.ndarray
    source: str = "<hierarchy>"
    _leaf_index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_leaf_index", {v: i for i, v in enumerate(self.labels[:, 0].tolist())}
        )

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_rows(cls, rows: Iterable[Sequence[object]], source: str = "<hierarchy>") -> Hierarchy:
        """Validate rows (leaf first, then one label per level) and build a hierarchy.

        Errors name the line (1-based) and the value at fault.
        """
        rows = [[str(c) for c in r] for r in rows]
        rows_with_line = [(i + 1, r) for i, r in enumerate(rows) if any(c != "" for c in r)]
        if not rows_with_line:
            raise InputError(f"{source}: the hierarchy is empty; expected one row per value")
        width = len(rows_with_line[0][1])
        for line, r in rows_with_line:
            if len(r) != width:
                raise InputError(
                    f"{source}, line {line}: {len(r)} columns (the value and {len(r) - 1} "
                    f"levels above it), but line {rows_with_line[0][0]} has {width}; every row "
                    "needs one label per level"
                )
        first_line: dict[str, int] = {}
        for line, r in rows_with_line:
            if r[0] in first_line:
                raise InputError(
                    f"{source}, line {line}: value {r[0]!r} already listed on line "
                    f"{first_line[r[0]]}; each value must appear once"
                )
            first_line[r[0]] = line
        labels = np.array([r for _, r in rows_with_line], dtype=object)
        lines = [line for line, _ in rows_with_line]
        _check_nesting(labels, lines, source)
        top = set(labels[:, -1].tolist())
        if len(top) != 1:
            raise InputError(
                f"{source}: the last level has {len(top)} values {sorted(top)[:5]}; a hierarchy "
                "needs a single top value (add a final column such as '*')"
            )
        return cls(labels=labels, source=source)

    @classmethod
    def from_csv(cls, path: str | os.PathLike[str], *, delimiter: str = ";") -> Hierarchy:
        """Read an ARX hierarchy file (one row per value, one column per level)."""
        rows = read_rows(path, delimiter=delimiter)
        if rows and len(rows[0]) == 1 and delimiter not in rows[0][0]:
            for alt in (",", "\t", "|", ";"):
                if alt != delimiter and alt in rows[0][0]:
                    raise InputError(
                        f"{path}, line 1: only one level found with delimiter {delimiter!r}, "
                        f"but the line contains {alt!r}; ARX hierarchy files are ';'-separated — "
                        f"convert it (e.g. tr '{alt}' ';'), or from Python pass "
                        f"Hierarchy.from_csv(path, delimiter={alt!r})"
                    )
        return cls.from_rows(rows, source=str(path))

    @classmethod
    def flat(cls, values: Iterable[str], top: str = "*", source: str = "<flat>") -> Hierarchy:
        """Two-level hierarchy: each value, then ``top`` (suppression only)."""
        vals = list(dict.fromkeys(str(v) for v in values))
        return cls.from_rows([[v, top] for v in vals], source=source)

    def to_rows(self) -> list[list[str]]:
        return [list(r) for r in self.labels.tolist()]

    def to_csv(self, path: str | os.PathLike[str], *, delimiter: str = ";") -> Path:
        """Write in ARX's format, atomically."""
        return write_rows(self.to_rows(), path, delimiter=delimiter)

    # ------------------------------------------------------------------ structure
    @property
    def n_leaves(self) -> int:
        return int(self.labels.shape[0])

    @property
    def height(self) -> int:
        """Index of the top level (levels are ``0 .. height``)."""
        return int(self.labels.shape[1] - 1)

    @property
    def leaves(self) -> list[str]:
        return self.labels[:, 0].tolist()

    @cached_property
    def _groups(self) -> list[tuple[np.ndarray, np.ndarray]]:
        out = []
        for level in range(self.height + 1):
            uniq, first, inverse = np.unique(
                self.labels[:, level].astype(str), return_index=True, return_inverse=True
            )
            # number groups in order of first appearance, so group ids are stable and readable
            order = np.argsort(first, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(order.size)
            out.append((rank[inverse].astype(np.int32), uniq[order].astype(object)))
        return out

    def group_of_leaf(self, level: int) -> np.ndarray:
        """For each leaf, the index of its group at ``level`` (int32, groups numbered 0..)."""
        return self._groups[self._check_level(level)][0]

    def group_labels(self, level: int) -> np.ndarray:
        """Label of each group at ``level``."""
        return self._groups[self._check_level(level)][1]

    def n_groups(self, level: int) -> int:
        return int(self._groups[self._check_level(level)][1].size)

    def leaves_per_group(self, level: int) -> np.ndarray:
        """Number of hierarchy leaves under each group at ``level``."""
        return np.bincount(self.group_of_leaf(level), minlength=self.n_groups(level))

    def _check_level(self, level: int) -> int:
        if not 0 <= level <= self.height:
            raise InputError(f"{self.source}: level {level} outside 0..{self.height}")
        return level

    # ------------------------------------------------------------------ data
    def encode(
        self, values: Sequence[str] | pl.Series, *, column: str, first_line: int | None = 2
    ) -> np.ndarray:
        """Leaf index of each value; values not in the hierarchy raise, counted and located.

        ``first_line`` is the file line of ``values[0]`` (2 for a CSV with a header); None
        names no line (private data under DP).  The message never shows a value.
        Complexity: O(n) hash look-ups, vectorized by polars.
        """
        series = values if isinstance(values, pl.Series) else pl.Series(values, dtype=pl.String)
        codes = series.cast(pl.String).replace_strict(
            self._leaf_index, default=None, return_dtype=pl.Int32
        )
        unknown = codes.is_null()
        if unknown.any():
            raise InputError(
                f"column {column!r}: {bad_rows(unknown, first_line)} with a value that is not "
                f"in the hierarchy {self.source}; add a row for each such value to the hierarchy"
            )
        return codes.to_numpy()

    def generalize(self, values: Sequence[str], level: int, *, column: str = "?") -> np.ndarray:
        """Labels of ``values`` at ``level``."""
        return self.group_labels(level)[
            self.group_of_leaf(level)[self.encode(values, column=column)]
        ]


def _check_nesting(labels: np.ndarray, lines: list[int], source: str) -> None:
    """Each label at level l must map to one label at level l+1.

    Vectorized (polars hashing): per level, the number of distinct (child, parent) pairs must
    equal the number of distinct children.  Complexity O(leaves × levels); the row-by-row scan
    that names the offending line runs only when a level fails.
    """
    frame = pl.DataFrame({str(lv): labels[:, lv].tolist() for lv in range(labels.shape[1])})
    for level in range(labels.shape[1] - 1):
        child, up = str(level), str(level + 1)
        counts = frame.select(
            pl.col(child).n_unique().alias("c"), pl.struct(child, up).n_unique().alias("p")
        ).row(0)
        if counts[0] != counts[1]:
            _raise_nesting_error(labels, lines, source, level)


def _raise_nesting_error(labels: np.ndarray, lines: list[int], source: str, level: int) -> None:
    parent: dict[str, tuple[str, int]] = {}
    for row, line in zip(labels, lines, strict=True):
        child, up = row[level], row[level + 1]
        seen = parent.setdefault(child, (up, line))
        if seen[0] != up:
            raise InputError(
                f"{source}, line {line}: levels do not nest — {child!r} at level {level} "
                f"generalizes to {up!r} here but to {seen[0]!r} on line {seen[1]}; a group "
                f"at level {level + 1} must be a union of groups at level {level}"
            )
