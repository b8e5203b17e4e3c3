"""The per-group QI boxes of a generalized table and how they are built (seed 001 §2.5).

A numeric quasi-identifier is boxed as an interval per group (:class:`_NumBox`), a text or
boolean one as a set of values (:class:`_CatBox`); either comes from the data (the tightest
box) or from published labels such as the seed's Table 2.2 (``[31-40]``, ``271*``, ``*``),
which must cover the group's values.  :class:`~privlab.table.query.Generalization` holds
them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError


@dataclass(frozen=True, eq=False)
class _NumBox:
    """A numeric QI per group: the closed interval [lo, hi] (±inf for '*')."""

    lo: np.ndarray
    hi: np.ndarray
    has_null: np.ndarray
    has_value: np.ndarray
    labels: list[str] | None = None


@dataclass(frozen=True, eq=False)
class _CatBox:
    """A text/boolean QI per group: a set of values (pairs group → domain index) or '*'."""

    domain: np.ndarray  # object array of the values
    pair_group: np.ndarray
    pair_value: np.ndarray
    top: np.ndarray
    has_null: np.ndarray
    has_value: np.ndarray
    labels: list[str] | None = None


def _normalized_qi(qi: pl.DataFrame, kinds: dict[str, str]) -> pl.DataFrame:
    """Categorical/Enum → String, floats → Float64, integers → Int64 (one semantics)."""
    casts = []
    schema = qi.schema
    for c, k in kinds.items():
        dt = schema[c]
        if k == "string" and dt != pl.String:
            casts.append(pl.col(c).cast(pl.String))
        elif k == "numeric" and dt.is_float() and dt != pl.Float64:
            casts.append(pl.col(c).cast(pl.Float64))
        elif k == "numeric" and dt.is_integer() and dt != pl.Int64:
            casts.append(pl.col(c).cast(pl.Int64))
        elif k == "numeric" and dt.is_decimal():
            casts.append(pl.col(c).cast(pl.Float64))
    for c in ("tuple_id", "group_id"):
        if c in schema and schema[c] != pl.Int64:
            casts.append(pl.col(c).cast(pl.Int64))
    return qi.with_columns(casts) if casts else qi


def _box_from_data(qi: pl.DataFrame, col: str, kind: str, gids: np.ndarray) -> _NumBox | _CatBox:
    stats = (
        qi.group_by("group_id")
        .agg(
            pl.col(col).min().alias("lo") if kind == "numeric" else pl.lit(0).alias("lo"),
            pl.col(col).max().alias("hi") if kind == "numeric" else pl.lit(0).alias("hi"),
            pl.col(col).null_count().alias("nulls"),
            pl.len().alias("n"),
        )
        .sort("group_id")
    )
    has_null = stats["nulls"].to_numpy() > 0
    has_value = stats["nulls"].to_numpy() < stats["n"].to_numpy()
    if kind == "numeric":
        lo = stats["lo"].cast(pl.Float64).fill_null(np.nan).to_numpy()
        hi = stats["hi"].cast(pl.Float64).fill_null(np.nan).to_numpy()
        return _NumBox(lo, hi, has_null, has_value)
    if kind not in ("string", "boolean"):
        inf = np.full(gids.size, np.inf)
        return _NumBox(-inf, inf, np.ones(gids.size, bool), np.ones(gids.size, bool))
    pairs = qi.select("group_id", col).drop_nulls().unique()
    domain = np.array(sorted(set(pairs[col].to_list())), dtype=object)
    value_index = {v: i for i, v in enumerate(domain.tolist())}
    pg = np.searchsorted(gids, pairs["group_id"].to_numpy())
    pv = np.array([value_index[v] for v in pairs[col].to_list()], dtype=np.int64)
    return _CatBox(domain, pg, pv, np.zeros(gids.size, bool), has_null, has_value)


def _labels_table(labels: Any, gids: np.ndarray, kinds: dict[str, str]) -> dict[str, list[Any]]:
    if isinstance(labels, pl.DataFrame):
        if "group_id" not in labels.columns:
            raise InputError("generalization labels: a 'group_id' column is required")
        rows = {int(r["group_id"]): {k: v for k, v in r.items() if k != "group_id"}
                for r in labels.iter_rows(named=True)}  # fmt: skip
    elif isinstance(labels, Mapping):
        rows = {int(k): dict(v) for k, v in labels.items()}
    else:
        raise ConfigError("generalization labels: give a polars DataFrame or a mapping")
    missing = [int(g) for g in gids if int(g) not in rows]
    if missing:
        raise InputError(f"generalization labels: no row for group(s) {missing[:5]}; "
                         "label every group of the release")  # fmt: skip
    unknown = sorted({c for r in rows.values() for c in r} - set(kinds))
    if unknown:
        raise InputError(f"generalization labels: unknown column(s) {unknown}; "
                         f"the quasi-identifiers are {list(kinds)}")  # fmt: skip
    cols = sorted({c for r in rows.values() for c in r})
    return {c: [rows[int(g)].get(c) for g in gids] for c in cols}


_INTERVAL_RE = re.compile(
    r"^\s*([\[\(\]])\s*(-?[0-9.eE+]+|-?inf)\s*(?:,|\.\.|\s-\s|-)\s*(-?[0-9.eE+]+|inf)\s*([\]\)\[])\s*$"
)


def _num_box_from_labels(
    qi: pl.DataFrame, col: str, gids: np.ndarray, labels: list[Any]
) -> _NumBox:
    data = _box_from_data(qi, col, "numeric", gids)
    is_int = qi.schema[col].is_integer()
    absmax = qi[col].abs().max()
    width = len(str(int(absmax))) if absmax is not None else 1
    lo = np.empty(gids.size)
    hi = np.empty(gids.size)
    shown = []
    for i, label in enumerate(labels):
        if label is None:
            lo[i], hi[i] = data.lo[i], data.hi[i]
            shown.append(f"[{lo[i]:g}, {hi[i]:g}]")
            continue
        lo[i], hi[i] = _parse_num_label(label, col, int(gids[i]), is_int, width)
        shown.append(str(label))
        if data.has_value[i] and (data.lo[i] < lo[i] or data.hi[i] > hi[i]):
            bad = data.lo[i] if data.lo[i] < lo[i] else data.hi[i]
            raise InputError(f"generalization of group {int(gids[i])}, column {col!r}: label "
                             f"{label!r} does not contain the value {bad:g}; a generalization "
                             "must cover its group's values")  # fmt: skip
    return _NumBox(lo, hi, data.has_null, data.has_value, shown)


def _parse_num_label(
    label: Any, col: str, gid: int, is_int: bool, width: int
) -> tuple[float, float]:
    where = f"generalization of group {gid}, column {col!r}: label {label!r}"
    if isinstance(label, tuple | list) and len(label) == 2:
        return float(label[0]), float(label[1])
    if isinstance(label, int | float) and not isinstance(label, bool):
        return float(label), float(label)
    text = str(label).strip()
    if text == "*":
        return -math.inf, math.inf
    m = re.fullmatch(r"(-?)([0-9]+)(\*+)", text)
    if m:
        digits = m.group(2)
        masked = max(len(m.group(3)), width - len(digits))
        a = int(digits) * 10**masked
        b = a + 10**masked - 1
        return (float(-b), float(-a)) if m.group(1) else (float(a), float(b))
    m = _INTERVAL_RE.match(text)
    if m:
        lo, hi = float(m.group(2)), float(m.group(3))
        if m.group(1) in "(]":
            lo = lo + 1 if is_int else lo
        if m.group(4) in ")[":
            hi = hi - 1 if is_int else hi
        if lo > hi:
            raise InputError(f"{where}: empty interval")
        return lo, hi
    try:
        v = float(text)
    except ValueError:
        raise InputError(f"{where}: not understood; use *, [a-b], [a, b), a number or a masked "
                         "code such as 271*") from None  # fmt: skip
    return v, v


def _cat_box_from_labels(qi: pl.DataFrame, col: str, kind: str, gids: np.ndarray,
                         labels: list[Any]) -> _CatBox:  # fmt: skip
    data = _box_from_data(qi, col, kind, gids)
    assert isinstance(data, _CatBox)
    domain = list(data.domain.tolist())
    index = {v: i for i, v in enumerate(domain)}
    actual: dict[int, set[int]] = {}
    for g, v in zip(data.pair_group.tolist(), data.pair_value.tolist(), strict=True):
        actual.setdefault(g, set()).add(v)
    pg: list[int] = []
    pv: list[int] = []
    top = np.zeros(gids.size, bool)
    shown = []

    def conv(v: Any) -> Any:
        if kind == "boolean" and isinstance(v, str):
            if v.strip().lower() not in ("true", "false"):
                raise InputError(f"generalization label for boolean {col!r}: {v!r}")
            return v.strip().lower() == "true"
        return v if kind == "boolean" else str(v)

    for i, label in enumerate(labels):
        if label is None:
            values = actual.get(i, set())
            shown.append("{" + ", ".join(str(domain[v]) for v in sorted(values)) + "}")
        elif isinstance(label, str) and label.strip() == "*":
            top[i] = True
            shown.append("*")
            continue
        else:
            if isinstance(label, set | frozenset | list | tuple):
                members = [conv(v) for v in label]
            elif isinstance(label, str) and label.strip().startswith("{"):
                body = label.strip()[1:-1] if label.strip().endswith("}") else label.strip()[1:]
                members = [conv(v.strip()) for v in body.split(",") if v.strip()]
            elif isinstance(label, str) and kind == "string" and label.endswith("*"):
                prefix = label[:-1]
                members = [v for v in domain if v.startswith(prefix)]
            else:
                members = [conv(label)]
            values = set()
            for v in members:
                if v not in index:
                    index[v] = len(domain)
                    domain.append(v)
                values.add(index[v])
            shown.append(str(label))
            missing = actual.get(i, set()) - values
            if missing:
                raise InputError(f"generalization of group {int(gids[i])}, column {col!r}: label "
                                 f"{label!r} does not contain the value "
                                 f"{domain[min(missing)]!r}; a generalization must cover its "
                                 "group's values")  # fmt: skip
        pg.extend([i] * len(values))
        pv.extend(sorted(values))
    dom = np.empty(len(domain), dtype=object)
    dom[:] = domain
    return _CatBox(dom, np.asarray(pg, np.int64), np.asarray(pv, np.int64), top,
                   data.has_null, data.has_value | top, shown)  # fmt: skip
