"""Build generalization hierarchies from the data: intervals, orders, masking, dates.

Generalization (seed 000 §2.3: "ZIP 02139 → [02130, 02139], ages → decades", suppression
as "the most generic value" ``*``) needs one value generalization hierarchy per
quasi-identifier.  Writing them by hand is tedious and error-prone; these builders derive
them from the column's values, modelled on ARX's hierarchy builders
(``org.deidentifier.arx.aggregates``): ``HierarchyBuilderIntervalBased``,
``HierarchyBuilderOrderBased``, ``HierarchyBuilderRedactionBased`` and
``HierarchyBuilderDate``.  :func:`flat_hierarchy` (value → ``*``) is the explicit choice of
suppression only; :func:`automatic_interval_params` is the interval hierarchy privlab picks
for a numeric quasi-identifier given none (never a silent flat one).

Common conventions of every builder:

* ``values`` is a column (list, numpy array, polars or pandas Series); its values are
  deduplicated and **each distinct value becomes one leaf** (level 0 is the value's text,
  exactly as it appears in the data, so ``Hierarchy.encode`` finds it).
* The last level is the single top value ``*``.  Rows are sorted by the builder's natural
  order (numeric value, given order, date, text).
* A missing cell (``None``, NaN or the empty string) is an error naming its line, unless
  ``missing_label`` is given: then missing cells (and cells equal to ``missing_label``) are one
  extra leaf ``missing_label`` that stays ``missing_label`` at every level below the top (like
  ARX's null interval).  This matches ``MicroTable.from_data(missing="category")``.
* ``first_line`` is the file line of ``values[0]`` (2 for a CSV with a header, as in
  :meth:`Hierarchy.encode`); ``source`` (a file name) prefixes error messages.
* Bad data raises :class:`~privlab.errors.InputError` naming line, column and value; bad
  parameters raise :class:`~privlab.errors.ConfigError` naming the parameter.

Each builder costs O(n) to collect the distinct values of an ``n``-row column plus
O(d log d + d·h) for ``d`` distinct values and ``h`` levels; the result is validated by
:meth:`Hierarchy.from_rows` (nesting, single top).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_FLOOR, Decimal
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.table.hierarchy import Hierarchy

TOP = "*"
HIERARCHY_KINDS = ("interval", "order", "masking", "date", "flat")
DATE_LEVELS = ("week", "month", "quarter", "year", "decade")
DEFAULT_DATE_LEVELS = ("month", "year", "decade")


# ---------------------------------------------------------------------------- helpers
@dataclass(frozen=True)
class _Distinct:
    """Distinct non-missing values (first-appearance order), their first lines, missing seen."""

    values: list[str]
    lines: list[int]
    has_missing: bool


def _where(source: str | None, line: int, column: str) -> str:
    where = f"line {line}, column {column!r}"
    return f"{source}, {where}" if source else where


def _as_list(values: Any) -> list[Any]:
    if isinstance(values, str):
        raise ConfigError("values: expected a column of values, got a single string")
    if hasattr(values, "to_list"):  # polars / pandas Series
        return list(values.to_list())
    if isinstance(values, np.ndarray):
        return values.tolist()
    return list(values)


def _text(value: Any) -> str | None:
    """The cell as text, or None when it is missing (None, NaN, NaT, pandas NA, "")."""
    if value is None:
        return None
    if isinstance(value, str):
        return value or None
    try:
        if value != value:  # NaN and NaT are not equal to themselves
            return None
    except (TypeError, ValueError):  # pandas NA has no truth value
        return None
    return str(value)


def _string_series(items: list[Any]) -> pl.Series | None:
    """The column as a polars String series when every cell is text or None (the CSV case)."""
    if all(type(v) is str or v is None for v in items):
        return pl.Series(items, dtype=pl.String)
    return None


def _missing_error(source: str | None, line: int, column: str) -> InputError:
    return InputError(
        f"{_where(source, line, column)}: missing value; fill it, or keep missing values as a "
        "leaf of their own (missing_label=..., on the command line --missing category)"
    )


def _distinct(
    values: Any, *, column: str, first_line: int, source: str | None, missing_label: str | None
) -> _Distinct:
    """Distinct values with the line of their first occurrence; O(n), vectorized for text."""
    if isinstance(values, pl.Series) and values.dtype == pl.String:
        series: pl.Series | None = values
    else:
        items = _as_list(values)
        series = _string_series(items)
    if series is not None:
        missing = series.is_null() | (series == "")
        if missing_label is not None:
            missing = missing | (series == missing_label)
        missing_np = missing.fill_null(True).to_numpy()
        has_missing = bool(missing_np.any())
        if has_missing and missing_label is None:
            raise _missing_error(source, first_line + int(np.argmax(missing_np)), column)
        keep = np.flatnonzero(~missing_np)
        present = series.gather(keep)
        first = present.arg_unique().to_numpy()
        distinct_values = present.gather(first).to_list()
        lines = (keep[first] + first_line).tolist()
    else:
        seen: dict[str, int] = {}
        has_missing = False
        for i, v in enumerate(items):
            text = _text(v)
            if text is None or text == missing_label:
                if missing_label is None:
                    raise _missing_error(source, first_line + i, column)
                has_missing = True
                continue
            seen.setdefault(text, i)
        distinct_values = list(seen)
        lines = [first_line + i for i in seen.values()]
    if not distinct_values and not has_missing:
        raise InputError(f"column {column!r}: no values to build a hierarchy from")
    return _Distinct(values=distinct_values, lines=lines, has_missing=has_missing)


def _finish(
    leaves: Sequence[str],
    levels: Sequence[Sequence[str]],
    distinct: _Distinct,
    missing_label: str | None,
    source: str,
) -> Hierarchy:
    """Rows ``leaf, level 1 .. level h, *`` (+ the missing leaf) validated by from_rows."""
    columns = [list(leaves), *(list(level) for level in levels), [TOP] * len(leaves)]
    rows = [list(r) for r in zip(*columns, strict=True)]
    if distinct.has_missing and missing_label is not None:
        rows.append([missing_label] * (len(levels) + 1) + [TOP])
    return Hierarchy.from_rows(rows, source=source)


def _number_param(name: str, value: Any, *, positive: bool = False) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ConfigError(f"{name}: expected a number, got {value!r}")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name}: {value!r} is not a number") from None
    if not math.isfinite(x):
        raise ConfigError(f"{name}: {value!r} must be a finite number")
    if positive and x <= 0:
        raise ConfigError(f"{name}: must be greater than 0, got {value!r}")
    return x


def _int_param(name: str, value: Any, *, minimum: int) -> int:
    x = _number_param(name, value)
    if x is None or x != int(x):
        raise ConfigError(f"{name}: expected a whole number, got {value!r}")
    if x < minimum:
        raise ConfigError(f"{name}: must be at least {minimum}, got {value!r}")
    return int(x)


def _parse_numbers(
    distinct: _Distinct, *, column: str, source: str | None, kind: str
) -> np.ndarray:
    """float64 value of each distinct value; non-numbers are an error naming the first one's
    line and their count (never a value)."""
    series = pl.Series(distinct.values, dtype=pl.String)
    parsed = series.cast(pl.Float64, strict=False).to_numpy()
    bad = ~np.isfinite(parsed)
    if bad.any():
        i = int(np.argmax(bad))
        raise InputError(
            f"{_where(source, distinct.lines[i], column)}: not a finite number "
            f"({_distinct_count(bad)}); an {kind} hierarchy needs numeric values (use an order "
            "or masking hierarchy for text, or --missing category with --na for a marker of "
            "missing values)"
        )
    return parsed


def _distinct_count(bad: Any) -> str:
    """How many distinct values of the column are bad, for a message that shows none."""
    return f"{int(np.count_nonzero(bad))} distinct such value(s) in the column"


def _fmt(x: float) -> str:
    """A boundary as short text: integers without '.0', other numbers with 15 digits."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return format(float(x), ".15g")


# ---------------------------------------------------------------------------- interval
def interval_hierarchy(
    values: Any,
    *,
    width: float,
    fanout: int = 2,
    levels: int | None = None,
    start: float | None = None,
    bottom: float | None = None,
    top: float | None = None,
    column: str = "?",
    first_line: int = 2,
    source: str | None = None,
    missing_label: str | None = None,
) -> Hierarchy:
    """Numeric intervals of ``width``, merged ``fanout`` at a time, then ``*``.

    Level 1 puts value ``x`` into ``[start + i·width, start + (i+1)·width)``; level ``j``
    into the aligned union of ``fanout**(j-1)`` adjacent level-1 intervals.  With
    ``levels=None`` levels are added until all (non-coded) values share one interval;
    otherwise exactly ``levels`` interval levels are built.  ``start`` defaults to
    ``bottom`` if given, else to the largest multiple of ``width`` not above the minimum.

    Top/bottom coding (ARX's ``Range``): values ``< bottom`` are ``"<bottom"`` and values
    ``>= top`` are ``">=top"`` at every level below the top; intervals are clipped to
    ``[bottom, top)``.

    **Labels.** Intervals are half-open, lower bound included, as in ARX.  When all values
    and all parameters are whole numbers the label lists the integers it holds: ``"20-24"``
    for ``[20, 25)`` (a single integer is written alone: ``"20"``).  Otherwise it is the
    half-open interval ``"[20.5, 25.5)"``.

    Source: seed 000 §2.3 (ages → decades); ARX ``HierarchyBuilderIntervalBased``.
    Complexity: O(n + d·h) for n cells, d distinct values, h levels.
    """
    if width is None:
        raise ConfigError("width: an interval hierarchy needs the interval width, e.g. width=5")
    width_ = float(_number_param("width", width, positive=True) or 0.0)
    fanout = _int_param("fanout", fanout, minimum=2)
    n_levels = None if levels is None else _int_param("levels", levels, minimum=1)
    # fanout >= 2: more than 53 levels exceed 2^52 without computing a huge power (a hang)
    if n_levels is not None and (n_levels > 53 or fanout ** (n_levels - 1) > 2**52):
        raise ConfigError(f"levels: {n_levels} levels of fanout {fanout} is too many")
    start_ = _number_param("start", start)
    bottom_ = _number_param("bottom", bottom)
    top_ = _number_param("top", top)
    if bottom_ is not None and top_ is not None and bottom_ >= top_:
        raise ConfigError(f"bottom ({_fmt(bottom_)}) must be below top ({_fmt(top_)})")

    distinct = _distinct(
        values, column=column, first_line=first_line, source=source, missing_label=missing_label
    )
    x = _parse_numbers(distinct, column=column, source=source, kind="interval")
    order = np.lexsort((np.array(distinct.values, dtype=object).astype(str), x))
    x = x[order]
    leaves = [distinct.values[i] for i in order]

    below = x < bottom_ if bottom_ is not None else np.zeros(x.size, dtype=bool)
    above = x >= top_ if top_ is not None else np.zeros(x.size, dtype=bool)
    inside = ~(below | above)
    params = [p for p in (width_, start_, bottom_, top_) if p is not None]
    integer = (
        bool(np.all(np.floor(x) == x))
        and bool(np.all(np.abs(x) < 2.0**53))  # exactly representable integers only
        and all(float(p).is_integer() and abs(p) < 2.0**53 for p in params)
    )

    # interval numbers (value / width) must stay exact in float64 and within int64
    magnitude = max([float(np.abs(x[inside]).max()) if inside.any() else 0.0]
                    + [abs(p) for p in (start_, bottom_) if p is not None])  # fmt: skip
    if magnitude / width_ > 2.0**52:
        raise ConfigError(
            f"width: {width!r} is too small for values as large as {_fmt(magnitude)} (more than "
            "2^52 widths from 0); use a larger width"
        )
    if start_ is None:
        if bottom_ is not None:
            start_ = bottom_
        elif inside.any():
            start_ = math.floor(float(x[inside].min()) / width_) * width_
        else:
            start_ = 0.0
    anchor = start_

    # boundaries are rounded far below the width's resolution, so that 0.1 + 2 * 0.1 is 0.3
    # and each value is compared with exactly the boundary its label shows
    decimals = max(0, 9 - math.floor(math.log10(width_)))

    def bound(m: np.ndarray | int) -> np.ndarray:
        return np.round(anchor + np.asarray(m, dtype=np.float64) * width_, decimals)

    # level-1 index, corrected so that bound(k) <= x < bound(k + 1) holds in floating point
    xi = x[inside]
    k = np.floor((xi - anchor) / width_)
    k = np.where(xi < bound(k), k - 1, k)
    k = np.where(xi >= bound(k + 1), k + 1, k).astype(np.int64)
    if n_levels is None and k.size and k.min() < 0 <= k.max():
        # aligned on start, intervals -1 and 0 never merge: levels would be added forever
        raise ConfigError(
            f"start ({_fmt(anchor)}) is above the smallest value ({_fmt(float(xi.min()))}), and "
            "intervals aligned on start never join the values on its two sides; give a start "
            "at or below the smallest value, or a number of levels"
        )

    def labels(first: np.ndarray, last: np.ndarray) -> np.ndarray:
        """Labels of the intervals [bound(first), bound(last)), clipped to [bottom, top)."""
        lo, hi = bound(first), bound(last)
        if bottom_ is not None:
            lo = np.maximum(lo, bottom_)
        if top_ is not None:
            hi = np.minimum(hi, top_)
        if integer:
            a, b = np.round(lo).astype(np.int64).tolist(), (np.round(hi) - 1).astype(np.int64)
            names = [str(p) if p == q else f"{p}-{q}" for p, q in zip(a, b.tolist(), strict=True)]
        else:
            names = [
                f"[{_fmt(p)}, {_fmt(q)})" for p, q in zip(lo.tolist(), hi.tolist(), strict=True)
            ]
        return np.array(names, dtype=object)

    level_labels: list[list[str]] = []
    low_label = f"<{_fmt(bottom_)}" if bottom_ is not None else ""
    high_label = f">={_fmt(top_)}" if top_ is not None else ""
    j = 1
    while True:
        span = fanout ** (j - 1)
        if span > 2**52:  # as for levels=N: such bounds are not exact in float64 (nor int64)
            raise ConfigError(
                f"fanout: {float(fanout):g} is too large; level {j} would join more than 2^52 "
                "intervals of the width — use a smaller fanout, or give a number of levels"
            )
        idx = k // span
        uniq, inverse = np.unique(idx, return_inverse=True)
        names = labels(uniq * span, (uniq + 1) * span)
        out = np.empty(x.size, dtype=object)
        out[below] = low_label
        out[above] = high_label
        out[inside] = names[inverse.reshape(-1)] if uniq.size else names[:0]
        level_labels.append(out.tolist())
        if (n_levels is not None and j >= n_levels) or (n_levels is None and uniq.size <= 1):
            break
        j += 1
    return _finish(
        leaves, level_labels, distinct, missing_label, f"<interval hierarchy for {column!r}>"
    )


# ---------------------------------------------------------------------------- order
def order_hierarchy(
    values: Any,
    *,
    group_size: int | Sequence[int],
    order: Sequence[str] | None = None,
    separator: str = "-",
    column: str = "?",
    first_line: int = 2,
    source: str | None = None,
    missing_label: str | None = None,
) -> Hierarchy:
    """Consecutive groups of values in a given order, groups of groups, ..., then ``*``.

    Values are sorted by ``order`` (a sequence listing every value; an unlisted value is an
    error naming its line) or, without it, naturally: by number if every value is a finite
    number, else by text.  ``group_size`` is either one size ``g`` — level 1 groups ``g``
    consecutive values, level 2 groups ``g`` level-1 groups, ... until one group remains —
    or one size per level (``(4, 2)``: groups of 4 values, then pairs of those groups).

    A group is labelled ``"first-last"`` (its first and last value joined by ``separator``);
    a group of one value is labelled by that value.  Labels that collide (values containing
    the separator) are an error suggesting another separator.

    Source: seed 000 §2.3; ARX ``HierarchyBuilderOrderBased`` (grouping by a total order).
    Complexity: O(n + d log d + d·h).
    """
    if isinstance(group_size, str) or np.ndim(group_size) == 0:
        sizes: list[int] | None = None
        repeat = _int_param("group_size", group_size, minimum=2)
    else:
        sizes = [_int_param("group_size", g, minimum=2) for g in group_size]
        if not sizes:
            raise ConfigError("group_size: give one group size, or one size per level")
        repeat = 0
    if not separator:
        raise ConfigError("separator: must not be empty")

    distinct = _distinct(
        values, column=column, first_line=first_line, source=source, missing_label=missing_label
    )
    vals = distinct.values
    if order is not None:
        rank: dict[str, int] = {}
        for i, v in enumerate(str(o) for o in _as_list(order)):
            if v in rank:
                raise ConfigError(f"order: value {v!r} is listed twice")
            rank[v] = i
        absent = [v not in rank for v in vals]
        if any(absent):
            line = distinct.lines[absent.index(True)]
            raise InputError(
                f"{_where(source, line, column)}: a value not in the given order "
                f"({_distinct_count(absent)}); add each such value to the order"
            )
        perm = np.argsort(np.array([rank[v] for v in vals], dtype=np.int64), kind="stable")
    else:
        text = np.array(vals, dtype=object).astype(str)
        nums = pl.Series(vals, dtype=pl.String).cast(pl.Float64, strict=False).to_numpy()
        if np.isfinite(nums).all():
            perm = np.lexsort((text, nums))
        else:
            perm = np.argsort(text, kind="stable")
    leaves = [vals[i] for i in perm]
    n = len(leaves)

    level_labels: list[list[str]] = []
    span = 1
    level = 0
    while True:
        size = sizes[level] if sizes is not None else repeat
        span = min(span * size, n)  # a span of n or more is one group: keep it within int64
        group = np.arange(n) // span
        firsts = np.arange(0, n, span)
        lasts = np.minimum(firsts + span, n) - 1
        names = [
            leaves[a] if a == b else f"{leaves[a]}{separator}{leaves[b]}"
            for a, b in zip(firsts.tolist(), lasts.tolist(), strict=True)
        ]
        if len(set(names)) != len(names):
            dup = next(s for s in names if names.count(s) > 1)
            raise InputError(
                f"column {column!r}: two groups at level {level + 1} are both labelled {dup!r} "
                f"because values contain the separator {separator!r}; choose another separator"
            )
        level_labels.append([names[g] for g in group.tolist()])
        level += 1
        if (sizes is not None and level == len(sizes)) or (sizes is None and len(names) <= 1):
            break
    return _finish(
        leaves, level_labels, distinct, missing_label, f"<order hierarchy for {column!r}>"
    )


# ---------------------------------------------------------------------------- masking
def masking_hierarchy(
    values: Any,
    *,
    char: str = "*",
    from_right: bool = True,
    pad: str | None = None,
    column: str = "?",
    first_line: int = 2,
    source: str | None = None,
    missing_label: str | None = None,
) -> Hierarchy:
    """Mask one more character per level: ``81667 → 8166* → 816** → 81*** → 8**** → *``.

    Values shorter than the longest (length ``L``) are first padded to ``L`` with ``pad``
    (default: ``char``, as ARX's API does), on the side where masking starts: ``"123"`` with
    ``L = 5`` becomes ``"123**"`` when masking from the right.  Level ``j`` (1 ≤ j < L) masks
    ``j`` characters of the padded value, from the right (``from_right=True``, keeping
    prefixes, as for ZIP codes) or from the left (keeping suffixes).  The fully masked level is
    the top ``*`` itself, so a hierarchy has ``L`` levels above the leaves.

    Source: seed 000 §2.3 (ZIP 02139 → 0213*); ARX ``HierarchyBuilderRedactionBased``
    (left-aligned, redacted right to left by default).  Complexity: O(n + d·L²) characters.
    """
    if not isinstance(char, str) or len(char) != 1:
        raise ConfigError(f"char: the masking character must be one character, got {char!r}")
    pad = char if pad is None else pad
    if not isinstance(pad, str) or len(pad) != 1:
        raise ConfigError(f"pad: the padding character must be one character, got {pad!r}")
    distinct = _distinct(
        values, column=column, first_line=first_line, source=source, missing_label=missing_label
    )
    leaves = sorted(distinct.values)
    length = max((len(v) for v in leaves), default=1)
    if from_right:
        base = [v.ljust(length, pad) for v in leaves]
        levels = [[b[: length - j] + char * j for b in base] for j in range(1, length)]
    else:
        base = [v.rjust(length, pad) for v in leaves]
        levels = [[char * j + b[j:] for b in base] for j in range(1, length)]
    return _finish(leaves, levels, distinct, missing_label, f"<masking hierarchy for {column!r}>")


# ---------------------------------------------------------------------------- date
_DATE_RANK = {"week": 1, "month": 1, "quarter": 2, "year": 3, "decade": 4}
_DATE_LABEL: dict[str, Callable[[datetime], str]] = {
    "week": lambda d: f"{d.year:04d}-W{d.strftime('%W')}",
    "month": lambda d: f"{d.year:04d}-{d.month:02d}",
    "quarter": lambda d: f"{d.year:04d}-Q{(d.month - 1) // 3 + 1}",
    "year": lambda d: f"{d.year:04d}",
    "decade": lambda d: f"{d.year // 10 * 10}s",
}


def _date_levels(levels: str | Iterable[str]) -> list[str]:
    names = levels.split(",") if isinstance(levels, str) else list(levels)
    names = [str(n).strip().lower() for n in names if str(n).strip()]
    if not names:
        raise ConfigError(f"levels: give at least one of {', '.join(DATE_LEVELS)}")
    for name in names:
        if name not in _DATE_RANK:
            raise ConfigError(f"levels: unknown date level {name!r}; use {', '.join(DATE_LEVELS)}")
    for a, b in itertools.pairwise(names):
        if _DATE_RANK[b] <= _DATE_RANK[a] or (a == "week" and b in ("month", "quarter")):
            hint = (
                "weeks cross month boundaries, so week can only be followed by year or decade"
                if a == "week"
                else f"order them from fine to coarse: {', '.join(DATE_LEVELS)}"
            )
            raise ConfigError(f"levels: {a!r} cannot be followed by {b!r}; {hint}")
    return names


def date_hierarchy(
    values: Any,
    *,
    format: str = "%Y-%m-%d",
    levels: str | Sequence[str] = DEFAULT_DATE_LEVELS,
    column: str = "?",
    first_line: int = 2,
    source: str | None = None,
    missing_label: str | None = None,
) -> Hierarchy:
    """Dates generalized to calendar units, then ``*``.

    Each value is parsed with :func:`datetime.strptime` and ``format``; a value that does
    not parse is an error naming its line.  ``levels`` (fine to coarse, a list or a comma
    string) are among: ``week`` ``"2020-W09"`` (week of the calendar year, Monday first;
    days before the year's first Monday are week 00, so weeks nest in years), ``month``
    ``"2020-03"``, ``quarter`` ``"2020-Q1"``, ``year`` ``"2020"`` and ``decade``
    ``"2020s"``.  Because weeks cross month boundaries, ``week`` may only be followed by
    ``year`` or ``decade``.

    Source: seed 000 §2.3 (generalizing dates of birth); ARX ``HierarchyBuilderDate``
    (granularities week/month/quarter/year/decade).  Complexity: O(n + d·h).
    """
    if not isinstance(format, str) or not format:
        raise ConfigError(f"format: expected a strptime format such as '%Y-%m-%d', got {format!r}")
    names = _date_levels(levels)
    distinct = _distinct(
        values, column=column, first_line=first_line, source=source, missing_label=missing_label
    )
    dates: list[datetime | None] = []
    for v in distinct.values:
        try:
            dates.append(datetime.strptime(v, format))
        except re.error as exc:  # the format repeats a directive (strptime builds a regex)
            raise ConfigError(
                f"format {format!r}: not a usable strptime format ({exc}); give each "
                "directive once, e.g. '%Y-%m-%d'"
            ) from None
        except ValueError:  # its message quotes the value
            dates.append(None)
    bad = [d is None for d in dates]
    if any(bad):
        line = distinct.lines[bad.index(True)]
        raise InputError(
            f"{_where(source, line, column)}: not a date in the format {format!r} "
            f"({_distinct_count(bad)}); fix such values or give the right format"
        )
    perm = sorted(range(len(dates)), key=lambda i: (dates[i], distinct.values[i]))
    leaves = [distinct.values[i] for i in perm]
    level_labels = [[_DATE_LABEL[name](dates[i]) for i in perm] for name in names]
    return _finish(
        leaves, level_labels, distinct, missing_label, f"<date hierarchy for {column!r}>"
    )


# ---------------------------------------------------------------------------- flat
def flat_hierarchy(
    values: Any,
    *,
    column: str = "?",
    first_line: int = 2,
    source: str | None = None,
    missing_label: str | None = None,
) -> Hierarchy:
    """Each value, then ``*``: the quasi-identifier is kept exactly or suppressed, nothing between.

    Chosen explicitly (``--hierarchy COL=flat``), never by default.  Complexity: O(n + d).
    """
    distinct = _distinct(
        values, column=column, first_line=first_line, source=source, missing_label=missing_label
    )
    return _finish(distinct.values, [], distinct, missing_label, f"<flat hierarchy for {column!r}>")


# ---------------------------------------------------------------------------- automatic
#: Intervals aimed at on the first level of an automatic interval hierarchy.
AUTO_INTERVALS = 10
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
#: A leading zero marks a code (ZIP code, record number), not a quantity, even if all digits.
LEADING_ZERO = r"^[+-]?0\d"
_CODE = re.compile(LEADING_ZERO)


def _decimal_text(x: Decimal) -> str:
    """Plain decimal text without exponent or trailing zeros: 10, 0.05, -20."""
    text = format(x.normalize(), "f")
    return "0" if text in ("-0", "+0") else text


def automatic_interval_params(
    values: Any,
    *,
    column: str = "?",
    first_line: int = 2,
    source: str | None = None,
    missing_label: str | None = None,
) -> dict[str, str] | None:
    """The interval hierarchy privlab chooses for a numeric column, or None if it is not one.

    A column is numeric when every present value is a plain decimal number (``42``, ``-1.5``,
    ``3e4``) and none has a leading zero (``02139`` is a code).  The choice, from the range
    ``[min, max]`` of the values: ``width`` is the smallest of 1, 2, 5 × 10^k that is at
    least ``(max − min) / 10`` (about ten intervals on level 1; at least 1 when all values are
    whole numbers; 1 when all values are equal), ``fanout`` 2 (each level merges two
    intervals, until one holds every value), and ``start`` the largest multiple of the width
    not above the minimum.  The parameters are returned as exact decimal text, as
    :func:`interval_spec` writes them, so that the spec rebuilds the same hierarchy.
    Complexity: O(n + d).
    """
    distinct = _distinct(
        values, column=column, first_line=first_line, source=source, missing_label=missing_label
    )
    if not distinct.values or any(
        not _NUMBER.fullmatch(v) or _CODE.match(v) or not math.isfinite(float(v))
        for v in distinct.values
    ):
        return None
    numbers = [Decimal(v) for v in distinct.values]
    lo, hi = min(numbers), max(numbers)
    integer = all(n == n.to_integral_value() for n in numbers)
    raw = (hi - lo) / AUTO_INTERVALS
    if raw == 0:
        width = Decimal(1)
    else:
        exponent = math.floor(math.log10(raw))
        width = next(w for m in (1, 2, 5, 10) if (w := Decimal(m).scaleb(exponent)) >= raw)
    if integer:
        width = max(width, Decimal(1))
    start = (lo / width).to_integral_value(rounding=ROUND_FLOOR) * width
    return {"width": _decimal_text(width), "fanout": "2", "start": _decimal_text(start)}


def interval_spec(params: dict[str, str]) -> str:
    """The inline spec of an interval hierarchy, as ``--hierarchy COL=SPEC`` reads it."""
    return "interval:" + ",".join(f"{k}={v}" for k, v in params.items())


# ---------------------------------------------------------------------------- dispatch
BUILDERS: dict[str, Callable[..., Hierarchy]] = {
    "interval": interval_hierarchy,
    "order": order_hierarchy,
    "masking": masking_hierarchy,
    "date": date_hierarchy,
    "flat": flat_hierarchy,
}


def build_hierarchy(kind: str, values: Any, **params: Any) -> Hierarchy:
    """Build a hierarchy of ``kind`` (interval, order, masking, date, flat) with its parameters."""
    builder = BUILDERS.get(str(kind).lower())
    if builder is None:
        raise ConfigError(f"unknown hierarchy kind {kind!r}; use {', '.join(HIERARCHY_KINDS)}")
    return builder(values, **params)


__all__ = [
    "AUTO_INTERVALS",
    "BUILDERS",
    "DATE_LEVELS",
    "DEFAULT_DATE_LEVELS",
    "HIERARCHY_KINDS",
    "LEADING_ZERO",
    "TOP",
    "automatic_interval_params",
    "build_hierarchy",
    "date_hierarchy",
    "flat_hierarchy",
    "interval_hierarchy",
    "interval_spec",
    "masking_hierarchy",
    "order_hierarchy",
]
