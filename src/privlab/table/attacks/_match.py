"""Shared core of the tabular attacks: released classes, coverage of exact values, posteriors.

A *released class* is a distinct tuple of released quasi-identifier labels.  An exact value
``v`` of a QI is *covered* by a released label ``u`` when

* ``u`` is the suppressed value ``*`` of a suppressed record
  (:mod:`privlab.table.suppression`; another value can be given);
* the column has a hierarchy and ``u`` is the label of ``v``'s group at some level of it
  (full-domain releases of :mod:`privlab.table.anonymize`, categorical Mondrian nodes);
* the column is numeric and ``u`` is a range ``"lo-hi"`` (Mondrian) or a single number
  containing ``v``;
* otherwise ``u`` equals ``v`` as text.

An exact record is covered by a class when each of its QI values is covered by the class's
label (Sweeney's linkage; seed 000 §2.3, §2.4 locatability, Def 3.6).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.table.data import to_polars
from privlab.table.hierarchy import Hierarchy
from privlab.table.suppression import SUPPRESSED_VALUE

#: Cells of the (targets × classes) coverage matrix built at once.
CHUNK_CELLS = 1 << 22
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_RANGE = re.compile(rf"^\s*({_NUM})\s*-\s*({_NUM})\s*$")
_SINGLE = re.compile(rf"^\s*({_NUM})\s*$")


def release_levels(release: Any) -> dict[str, int] | None:
    """The generalization levels of an anonymize ``Release`` (full-domain), else None."""
    levels = getattr(getattr(release, "result", None), "levels", None)
    return dict(levels) if isinstance(levels, Mapping) else None


def release_frame(release: Any, name: str = "release") -> tuple[pl.DataFrame, str]:
    """A release as a polars frame (all text) and its kind.

    Accepts a polars/pandas frame, an :class:`~privlab.table.anonymize.Release` (``.data``)
    or a :class:`~privlab.table.mondrian.MondrianResult` (``.release``).
    """
    for attr in ("data", "release"):
        inner = getattr(release, attr, None)
        if inner is not None and not isinstance(release, (pl.DataFrame, str)):
            release = inner
            break
    try:
        return to_polars(release)
    except InputError as exc:
        raise InputError(f"{name}: {exc}") from None


def check_columns(frame: pl.DataFrame, columns: Sequence[str], name: str, role: str) -> list[str]:
    cols = [columns] if isinstance(columns, str) else list(columns)
    if role == "quasi-identifier" and not cols:
        raise ConfigError("quasi_identifiers: name at least one quasi-identifier column")
    for c in cols:
        if c not in frame.columns:
            raise InputError(
                f"{name}: {role} column {c!r} not found; the columns are {frame.columns}"
            )
    return cols


def range_bounds(label: str) -> tuple[float, float] | None:
    """``"lo-hi"``, a single number, or ``*`` (everything) as a closed interval; else None."""
    if label == SUPPRESSED_VALUE:
        return -np.inf, np.inf
    m = _RANGE.match(label)
    if m:
        lo, hi = float(m.group(1)), float(m.group(2))
        if lo <= hi:
            return lo, hi
    m = _SINGLE.match(label)
    if m:
        v = float(m.group(1))
        return v, v
    return None


def parse_range(label: str, column: str, name: str) -> tuple[float, float]:
    """:func:`range_bounds` of a released label; InputError naming ``column`` if it has none."""
    bounds = range_bounds(label)
    if bounds is not None:
        return bounds
    raise InputError(
        f"{name}, column {column!r}: label {label!r} is neither a number, a range 'lo-hi' nor "
        f"'*'; numeric columns need Mondrian-style labels (or drop {column!r} from numeric)"
    )


def numeric_values(series: pl.Series, name: str) -> np.ndarray:
    vals = series.cast(pl.Float64, strict=False)
    bad = vals.is_null() & series.is_not_null()
    if bad.any() or series.null_count():
        i = int(np.flatnonzero((bad | series.is_null()).to_numpy())[0])
        raise InputError(
            f"{name}, row {i}, column {series.name!r}: {series[i]!r} is not a number; the "
            "column is numeric"
        )
    return vals.to_numpy().astype(np.float64)


@dataclass
class Classes:
    """Distinct released QI tuples: ``labels[c][j]`` index into ``texts[c]``."""

    row_class: np.ndarray  #: class of each released row
    sizes: np.ndarray  #: rows per class
    label_ids: np.ndarray  #: (classes × QIs) index into ``texts[j]``
    texts: list[np.ndarray]  #: distinct released labels per QI (str)

    @property
    def n_classes(self) -> int:
        return int(self.sizes.size)


def index_classes(frame: pl.DataFrame, qi: Sequence[str]) -> Classes:
    """Group released rows into classes by their QI labels.  O(n log n)."""
    ids, texts = [], []
    for c in qi:
        uniq, inv = np.unique(frame[c].cast(pl.String).to_numpy().astype(str), return_inverse=True)
        ids.append(inv.reshape(-1))
        texts.append(uniq)
    rows = np.stack(ids, axis=1).astype(np.int64)
    label_ids, row_class = np.unique(rows, axis=0, return_inverse=True)
    row_class = row_class.reshape(-1)
    return Classes(row_class, np.bincount(row_class), label_ids, texts)


def coverage(
    column: str,
    labels: np.ndarray,
    exact: pl.Series,
    hierarchy: Hierarchy | None,
    numeric: bool,
    name: str,
    level: int | None = None,
    suppressed_value: str | None = SUPPRESSED_VALUE,
) -> tuple[np.ndarray, np.ndarray]:
    """``(value_ids, cover)``: per exact cell its distinct-value index, and cover[v, u].

    ``suppressed_value`` covers every value.  With ``level`` (a full-domain release) a
    hierarchy label covers the leaves of its group at that level, and the top label covers
    every leaf; otherwise a label covers the leaves of its groups at every level where it
    occurs.
    """
    text = exact.cast(pl.String)
    if text.null_count():
        i = int(np.flatnonzero(text.is_null().to_numpy())[0])
        raise InputError(f"{name}, row {i}, column {column!r}: missing value")
    uniq, inv = np.unique(text.to_numpy().astype(str), return_inverse=True)
    inv = inv.reshape(-1)
    everything = labels == suppressed_value if suppressed_value else np.zeros(labels.size, bool)
    if numeric:
        vals = numeric_values(pl.Series(column, uniq.tolist()), name)
        rng = np.array(
            [
                (-np.inf, np.inf) if all_ else parse_range(str(u), column, "release")
                for u, all_ in zip(labels.tolist(), everything.tolist(), strict=True)
            ]
        ).reshape(-1, 2)
        cover = (vals[:, None] >= rng[None, :, 0]) & (vals[:, None] <= rng[None, :, 1])
        return inv, cover
    if hierarchy is None:
        return inv, (uniq[:, None] == labels[None, :]) | everything[None, :]
    try:
        # distinct values: their positions are no lines of the input
        leaf = hierarchy.encode(pl.Series(column, uniq.tolist()), column=column, first_line=None)
    except InputError as exc:
        raise InputError(f"{name}: {exc}") from None
    covered: dict[str, set[int]] = {}
    table = hierarchy.labels
    if level is not None:
        table = table[:, [hierarchy._check_level(int(level)), hierarchy.height]]
    for i, row in enumerate(table.tolist()):
        for lab in row:
            covered.setdefault(str(lab), set()).add(i)
    cover = np.zeros((uniq.size, labels.size), dtype=bool)
    cover[:, everything] = True
    for u, lab in enumerate(labels.tolist()):
        if everything[u]:
            continue
        leaves = covered.get(lab)
        if leaves is None:
            raise InputError(
                f"release, column {column!r}: label {lab!r} is not in the hierarchy "
                f"{hierarchy.source}; give the hierarchy the release was made with"
            )
        cover[:, u] = np.isin(leaf, np.fromiter(leaves, dtype=np.int64))
    return inv, cover


@dataclass
class Matches:
    """Classes covering each target, in CSR form: ``indices[indptr[t]:indptr[t+1]]``."""

    indptr: np.ndarray
    indices: np.ndarray

    def counts(self) -> np.ndarray:
        return np.diff(self.indptr)

    def rows(self) -> np.ndarray:
        """Target of each entry of ``indices``."""
        return np.repeat(np.arange(self.indptr.size - 1), self.counts())


def match(
    classes: Classes,
    targets: pl.DataFrame,
    qi: Sequence[str],
    hierarchies: Mapping[str, Hierarchy] | None,
    numeric: Sequence[str],
    name: str = "external",
    levels: Mapping[str, int] | None = None,
    suppressed_value: str | None = SUPPRESSED_VALUE,
) -> Matches:
    """The released classes that cover each target's exact QI values.

    Distinct target tuples are matched once; the (tuples × classes) coverage is built in
    chunks of at most ``CHUNK_CELLS`` cells per QI.  O(T' · C · d) for T' distinct target
    tuples, C classes and d QIs.
    """
    # hierarchies of other columns (e.g. a full set of them) are not used
    hierarchies = {c: h for c, h in (hierarchies or {}).items() if c in qi}
    unknown = [c for c in numeric if c not in qi]
    if unknown:
        raise ConfigError(f"numeric names {unknown}, which are not quasi-identifiers {qi}")
    per_col, covers = [], []
    for j, c in enumerate(qi):
        h = hierarchies.get(c)
        if h is not None and not isinstance(h, Hierarchy):
            h = Hierarchy.from_csv(h)
        level = None if levels is None or h is None else levels.get(c)
        inv, cov = coverage(
            c, classes.texts[j], targets[c], h, c in numeric, name, level, suppressed_value
        )
        per_col.append(inv)
        covers.append(cov)
    tuples, tuple_of = np.unique(np.stack(per_col, axis=1), axis=0, return_inverse=True)
    tuple_of = tuple_of.reshape(-1)
    n_c = classes.n_classes
    step = max(1, CHUNK_CELLS // max(n_c, 1))
    rows_out, cols_out = [], []
    for s in range(0, tuples.shape[0], step):
        block = tuples[s : s + step]
        ok = np.ones((block.shape[0], n_c), dtype=bool)
        for j in range(len(qi)):
            ok &= covers[j][block[:, j]][:, classes.label_ids[:, j]]
        r, c = np.nonzero(ok)
        rows_out.append(r + s)
        cols_out.append(c)
    t_rows = np.concatenate(rows_out) if rows_out else np.empty(0, dtype=np.int64)
    t_cols = np.concatenate(cols_out) if cols_out else np.empty(0, dtype=np.int64)
    # expand from distinct tuples to targets
    per_tuple = np.bincount(t_rows, minlength=tuples.shape[0])
    tuple_ptr = np.concatenate([[0], np.cumsum(per_tuple)])
    counts = per_tuple[tuple_of]
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    starts = np.repeat(tuple_ptr[tuple_of], counts)
    offsets = np.arange(int(counts.sum())) - np.repeat(indptr[:-1], counts)
    return Matches(indptr, t_cols[starts + offsets].astype(np.int64))


def encode_values(series: pl.Series, vocabulary: np.ndarray | None = None):
    """Codes of a text column in a sorted vocabulary (built when not given); -1 if absent."""
    text = series.cast(pl.String).fill_null("").to_numpy().astype(str)
    if vocabulary is None:
        vocabulary, codes = np.unique(text, return_inverse=True)
        return codes.reshape(-1).astype(np.int64), vocabulary
    pos = np.searchsorted(vocabulary, text)
    pos = np.minimum(pos, max(vocabulary.size - 1, 0))
    found = vocabulary.size > 0
    codes = np.where(found & (vocabulary[pos] == text), pos, -1) if found else pos - 1
    return codes.astype(np.int64), vocabulary


@dataclass
class SensitiveClasses:
    """A release's equivalence classes and the sensitive values in each: per row its class,
    per class its size and its histogram over the sorted ``values`` (``codes``: each row's)."""

    row_class: np.ndarray
    sizes: np.ndarray  # float64
    hist: np.ndarray  # classes × values, float64
    values: np.ndarray
    codes: np.ndarray


def sensitive_classes(
    release: Any, quasi_identifiers: Sequence[str], sensitive: str
) -> tuple[pl.DataFrame, SensitiveClasses]:
    """The release's frame and :class:`SensitiveClasses`; the columns are checked (the
    sensitive one may not be a QI).  O(n + classes × values)."""
    frame, _ = release_frame(release)
    qi = check_columns(frame, list(quasi_identifiers), "release", "quasi-identifier")
    check_columns(frame, [sensitive], "release", "sensitive")
    if sensitive in qi:
        raise ConfigError(f"sensitive column {sensitive!r} is also a quasi-identifier")
    cls = index_classes(frame, qi)
    codes, values = encode_values(frame[sensitive])
    v = values.size
    hist = np.bincount(cls.row_class * v + codes, minlength=cls.n_classes * v)
    hist = hist.reshape(cls.n_classes, v).astype(np.float64)
    return frame, SensitiveClasses(cls.row_class, cls.sizes.astype(np.float64), hist, values, codes)
