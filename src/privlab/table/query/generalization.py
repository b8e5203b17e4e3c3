"""Bounds from the generalized table of the same partition (seed 001 §2.5, §2.1 L960–1016).

:class:`Generalization` holds the QI boxes of every group; its :meth:`~Generalization.status`
evaluates a WHERE condition on each box in three-valued (Kleene) logic by abstract
interpretation of the sqlglot AST (covered, excluded or partial group), and
:func:`generalized_bounds` turns those statuses and the help table into bounds
(Theorem 2, L1166).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from privlab.bounds import Bounds
from privlab.errors import ConfigError
from privlab.table.query.boxes import (
    _box_from_data,
    _cat_box_from_labels,
    _CatBox,
    _labels_table,
    _normalized_qi,
    _num_box_from_labels,
    _NumBox,
)
from privlab.table.query.parse import (
    _COMPARISONS,
    AGGREGATES,
    READ_DIALECT,
    ParsedQuery,
    _column_kinds,
    _like_regex,
    _literal_value,
    exp,
)


@dataclass(frozen=True, eq=False)
class Generalization:
    """The QI boxes of the generalized table of a release's partition (seed 001 L960–1016).

    ``group_ids`` are the release's group ids (sorted); ``boxes`` one entry per quasi-
    identifier.  Build with :meth:`from_release` (tightest box: numeric [min, max], text and
    boolean the set of the group's values) or :meth:`from_labels` (explicit labels, e.g.
    the seed's Table 2.2).  A label ``*`` means *any value* — also values absent from the
    data (the attribute is suppressed).  NULLs are taken from the data: a group holding a
    NULL in a column may hold it in the generalized table too.
    """

    group_ids: np.ndarray
    boxes: dict[str, _NumBox | _CatBox]
    source: str = "min-max"

    @property
    def n_groups(self) -> int:
        return int(self.group_ids.size)

    @classmethod
    def from_release(cls, release: Any) -> Generalization:
        """The tightest box of every group: numeric [min, max]; text/boolean: its value set.

        O(n log n) (one group-by per quasi-identifier).
        """
        qi = _normalized_qi(release.qi, _column_kinds(release))
        gids = np.unique(qi["group_id"].to_numpy())
        boxes = {c: _box_from_data(qi, c, k, gids) for c, k in _column_kinds(release).items()}
        return cls(gids, boxes, "min-max")

    @classmethod
    def from_labels(
        cls,
        release: Any,
        labels: pl.DataFrame | Mapping[Any, Mapping[str, Any]],
    ) -> Generalization:
        """A published generalization: per group and QI, a label that must cover the data.

        ``labels`` is a frame with ``group_id`` and one column per generalized QI, or a
        mapping ``{group_id: {column: label}}``.  QIs without a label keep the tightest box.
        Labels (strings, or Python values):

        * ``*`` — any value (suppressed);
        * numeric QI: ``[a-b]`` / ``[a, b]`` (closed), ``[a, b)`` / ``[a, b[`` (half-open;
          on an integer column read as [a, b−1]), a number, a ``(lo, hi)`` tuple, or a
          masked code ``271*``: the digits are a prefix of the column's fixed-width decimal
          code (ARX masking), the width being that of the column's widest value, so on
          5-digit zip codes ``271*`` = ``271**`` = [27100, 27199];
        * text / boolean QI: a value, ``{a, b}``, a Python set/list, or a prefix ``ab*``
          (the column's values in the release that start with ``ab`` — the domain is public).

        Every group's actual values must lie in its box (else :class:`InputError`).  O(n + G).
        """
        kinds = _column_kinds(release)
        qi = _normalized_qi(release.qi, kinds)
        gids = np.unique(qi["group_id"].to_numpy())
        table = _labels_table(labels, gids, kinds)
        boxes: dict[str, _NumBox | _CatBox] = {}
        for col, kind in kinds.items():
            if col not in table:
                boxes[col] = _box_from_data(qi, col, kind, gids)
            elif kind == "numeric":
                boxes[col] = _num_box_from_labels(qi, col, gids, table[col])
            elif kind in ("string", "boolean"):
                boxes[col] = _cat_box_from_labels(qi, col, kind, gids, table[col])
            else:
                raise ConfigError(f"generalization label for {col!r}: type "
                                  f"{qi.schema[col]} is not supported")  # fmt: skip
        return cls(gids, boxes, "labels")

    def describe(self, group: int) -> dict[str, str]:
        """The box of one group, as labels (for display)."""
        i = int(np.searchsorted(self.group_ids, group))
        out = {}
        for col, box in self.boxes.items():
            if box.labels is not None:
                out[col] = box.labels[i]
            elif isinstance(box, _NumBox):
                out[col] = "*" if np.isinf(box.lo[i]) else f"[{box.lo[i]:g}, {box.hi[i]:g}]"
            else:
                vals = box.domain[box.pair_value[box.pair_group == i]]
                out[col] = "*" if box.top[i] else "{" + ", ".join(map(str, vals)) + "}"
        return out

    def status(self, parsed: ParsedQuery) -> np.ndarray:
        """Per group: 1 covered (C TRUE on the whole box), 0 excluded, −1 partial.  O(G·|C|)."""
        g = self.n_groups
        if parsed.where is None:
            return np.ones(g, dtype=np.int8)
        truth = _Abstract(self).truth(parsed.where)
        t, f, n = (np.broadcast_to(np.asarray(a, dtype=bool), (g,)) for a in truth)
        out = np.full(g, -1, dtype=np.int8)
        out[t & ~f & ~n] = 1
        out[~t] = 0
        return out


# ------------------------------------------------------------------ abstract interpretation


@dataclass
class _Num:
    lo: Any
    hi: Any
    val: Any  # a non-null value is possible
    nul: Any  # NULL is possible


@dataclass
class _Cat:
    box: _CatBox


@dataclass
class _Const:
    value: Any  # str or bool


@dataclass
class _Truth:
    t: Any
    f: Any
    n: Any


class _Abstract:
    """Evaluate a condition over every group's box at once (numpy vectors over groups).

    Values are over-approximated (intervals, value sets); a condition's result is the set of
    SQL truth values {TRUE, FALSE, NULL} it may take on the box, as three boolean vectors.
    """

    def __init__(self, gen: Generalization):
        self.gen = gen
        self.g = gen.n_groups

    def truth(self, n: exp.Expression) -> tuple[Any, Any, Any]:
        r = self._truth(n)
        return r.t, r.f, r.n

    # -- values
    def _value(self, n: exp.Expression) -> _Num | _Cat | _Const | None:
        if isinstance(n, exp.Paren):
            return self._value(n.this)
        if isinstance(n, exp.Column):
            box = self.gen.boxes[n.name]
            if isinstance(box, _NumBox):
                return _Num(box.lo, box.hi, box.has_value, box.has_null)
            return _Cat(box)
        if isinstance(n, exp.Null):
            return None
        if isinstance(n, exp.Literal | exp.Cast | exp.Boolean):
            v = _literal_value(n)
            if isinstance(v, str | bool):
                return _Const(v)
            return _Num(np.float64(v), np.float64(v), True, False)
        if isinstance(n, exp.Neg):
            a = self._value(n.this)
            return None if a is None else _Num(-a.hi, -a.lo, a.val, a.nul)
        a, b = self._value(n.this), self._value(n.expression)
        if a is None or b is None:
            return None
        assert isinstance(a, _Num) and isinstance(b, _Num)
        val, nul = a.val & b.val, a.nul | b.nul
        if isinstance(n, exp.Add):
            return _Num(a.lo + b.lo, a.hi + b.hi, val, nul)
        if isinstance(n, exp.Sub):
            return _Num(a.lo - b.hi, a.hi - b.lo, val, nul)
        if isinstance(n, exp.Mul):
            with np.errstate(invalid="ignore"):
                c = np.array([np.multiply(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)])
            c = np.where(np.isnan(c), 0.0, c)  # 0 · inf: the finite factor is 0
            return _Num(c.min(axis=0), c.max(axis=0), val, nul)
        assert isinstance(n, exp.Div)
        blo, bhi = np.asarray(b.lo, float), np.asarray(b.hi, float)
        spans_zero = (blo <= 0) & (bhi >= 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            c = np.array([np.divide(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)])
        lo = np.where(spans_zero, -np.inf, np.nanmin(np.where(np.isnan(c), np.inf, c), axis=0))
        hi = np.where(spans_zero, np.inf, np.nanmax(np.where(np.isnan(c), -np.inf, c), axis=0))
        # x / 0 may be ±inf or NaN (0/0) in the engines: make everything possible
        return _Num(lo, hi, val, nul | spans_zero)

    # -- conditions
    def _truth(self, n: exp.Expression) -> _Truth:
        no, yes = False, True
        if isinstance(n, exp.Paren):
            return self._truth(n.this)
        if isinstance(n, exp.Boolean):
            return _Truth(bool(n.this), not n.this, no)
        if isinstance(n, exp.Null):
            return _Truth(no, no, yes)
        if isinstance(n, exp.Column):  # a boolean column used as a condition
            return self._compare(exp.EQ, self._value(n), _Const(True))
        if isinstance(n, exp.Not):
            a = self._truth(n.this)
            return _Truth(a.f, a.t, a.n)
        if isinstance(n, exp.And):
            a, b = self._truth(n.this), self._truth(n.expression)
            return _Truth(a.t & b.t, a.f | b.f, (a.n & (b.t | b.n)) | (b.n & (a.t | a.n)))
        if isinstance(n, exp.Or):
            a, b = self._truth(n.this), self._truth(n.expression)
            return _Truth(a.t | b.t, a.f & b.f, (a.n & (b.f | b.n)) | (b.n & (a.f | a.n)))
        if isinstance(n, exp.Is):
            v = self._value(n.this)
            if v is None:
                return _Truth(yes, no, no)
            if isinstance(v, _Const):
                return _Truth(no, yes, no)
            val = v.box.has_value if isinstance(v, _Cat) else v.val
            nul = v.box.has_null if isinstance(v, _Cat) else v.nul
            return _Truth(nul, val, no)
        if isinstance(n, exp.Between):
            x = n.this
            return self._truth(exp.and_(exp.GTE(this=x, expression=n.args["low"]),
                                        exp.LTE(this=x, expression=n.args["high"])))  # fmt: skip
        if isinstance(n, exp.In):
            out = None
            for v in n.expressions:
                term = exp.EQ(this=n.this, expression=v)
                out = term if out is None else exp.or_(out, term)
            return self._truth(out)
        if isinstance(n, exp.Like | exp.ILike):
            rx = re.compile(_like_regex(n.expression.this, isinstance(n, exp.ILike)))
            return self._pred(self._value(n.this), lambda v: rx.match(v) is not None)
        for cls in _COMPARISONS:
            if type(n) is cls:
                return self._compare(cls, self._value(n.this), self._value(n.expression))
        raise ConfigError(
            f"unsupported condition {n.sql(dialect=READ_DIALECT)!r}"
        )  # pragma: no cover

    def _pred(self, v: Any, fn: Any) -> _Truth:
        """Truth set of a one-column predicate ``fn(value)`` on a value-set box."""
        if v is None:
            return _Truth(False, False, True)
        if isinstance(v, _Const):
            r = bool(fn(v.value))
            return _Truth(r, not r, False)
        box = v.box
        p = np.fromiter((bool(fn(x)) for x in box.domain), dtype=bool, count=box.domain.size)
        hit = p[box.pair_value]
        t = np.bincount(box.pair_group[hit], minlength=self.g) > 0
        f = np.bincount(box.pair_group[~hit], minlength=self.g) > 0
        return _Truth(t | box.top, f | box.top, box.has_null)

    def _compare(self, cls: type, a: Any, b: Any) -> _Truth:
        if a is None or b is None:
            return _Truth(False, False, True)
        if isinstance(a, _Num) and isinstance(b, _Num):
            val, nul = a.val & b.val, a.nul | b.nul
            if cls in (exp.GT, exp.GTE):  # a > b  <=>  b < a
                a, b = b, a
                cls = exp.LT if cls is exp.GT else exp.LTE
            if cls is exp.LT:
                t, f = a.lo < b.hi, a.hi >= b.lo
            elif cls is exp.LTE:
                t, f = a.lo <= b.hi, a.hi > b.lo
            else:
                overlap = (a.lo <= b.hi) & (b.lo <= a.hi)
                point = (a.lo == a.hi) & (b.lo == b.hi) & (a.lo == b.lo)
                t, f = (overlap, ~point) if cls is exp.EQ else (~point, overlap)
            return _Truth(t & val, f & val, nul)
        flip = {exp.GT: exp.LT, exp.GTE: exp.LTE, exp.LT: exp.GT, exp.LTE: exp.GTE}
        if isinstance(a, _Const) and isinstance(b, _Cat):
            a, b, cls = b, a, flip.get(cls, cls)
        op = {exp.EQ: "__eq__", exp.NEQ: "__ne__", exp.GT: "__gt__", exp.GTE: "__ge__",
              exp.LT: "__lt__", exp.LTE: "__le__"}[cls]  # fmt: skip
        if isinstance(b, _Const):
            c = b.value
            return self._pred(a, lambda x: getattr(x, op)(c) is True)
        # two value-set columns: anything is possible where both have values
        assert isinstance(a, _Cat) and isinstance(b, _Cat)
        val = a.box.has_value & b.box.has_value
        return _Truth(val, val, a.box.has_null | b.box.has_null)


def generalized_bounds(
    aggregate: str,
    status: np.ndarray,
    help_rows: Mapping[str, np.ndarray],
    sizes: np.ndarray,
) -> Bounds:
    """Bounds of ``aggregate`` from the generalized table (seed 001 L960–1016, Theorem 2).

    ``status`` per group (dense index): 1 covered, 0 excluded, −1 partial; ``help_rows`` the
    help table (dense group index, hits 1..size); ``sizes`` the QI rows per group.  A covered
    group has m = |g| hits, an excluded one 0, a partial one any m ∈ 0..|g| (and any m of its
    published values).  The bounds are the tightest over all such choices:

    * COUNT: [Σ_cov |g|, Σ_cov |g| + Σ_part |g|];
    * SUM: Σ_cov SUM bounds at m = |g|, plus per partial group the least (greatest) prefix
      sum of its values: with non-negative values "include none for the lower bound, all for
      the upper" (the seed's rule: Q2 → [210K, 615K]);
    * MIN: lower = the smallest value of any covered or partial group; upper = the least
      covered group's MIN upper bound (partial groups then add nothing) — or, with no covered
      group, the largest value of any partial group (a single selected tuple): Q3 with
      gender suppressed → [54K, 85K];
    * MAX: symmetric;
    * AVG: covered groups fixed, partial groups may add any of their values.  The minimum
      average adds the k smallest partial values for the best k (a prefix of the sorted
      pool, since adding a value below the running mean lowers it), the maximum the k
      largest; k ≥ 1 when no group is covered.  The seed's experiments (§2.7, L1749) instead
      assume a partial group contributes "no tuple or only the maximum" — not a bound in
      general (covered {0}, partial {10, 10}: the average can reach 6.67 > 5), so it is not
      used; on the worked example (Q1: no partial group) both give exactly $80,000.

    SUM/AVG/MIN/MAX are ``None`` when no group is covered or partial (SQL NULL).
    O(H log H) for H help-table rows of partial groups (AVG), O(H) otherwise.
    """
    agg = aggregate.upper()
    status = np.asarray(status)
    sizes = np.asarray(sizes, dtype=np.int64)
    cov, part = status == 1, status == -1
    if agg == "COUNT":
        lo = float(sizes[cov].sum())
        return Bounds.of(lo, lo + float(sizes[part].sum()))
    if not (cov.any() or part.any()):
        return Bounds(None, None, None)
    gid, hits = help_rows["group_id"], help_rows["hits"]
    row_full = hits == sizes[gid]
    in_cov = cov[gid] & row_full
    in_part = part[gid]
    first_part = in_part & (hits == 1)

    def pick(col: str, mask: np.ndarray) -> np.ndarray:
        return np.asarray(help_rows[col])[mask]

    if agg == "SUM":
        lo = pick("sum_lb", in_cov).sum()
        hi = pick("sum_ub", in_cov).sum()
        if in_part.any():
            g_part = gid[in_part]
            # per partial group: min over m ∈ 0..|g| of sum_lb(m) — prefix sums, with m = 0
            mins = np.zeros(status.size)
            maxs = np.zeros(status.size)
            np.minimum.at(mins, g_part, pick("sum_lb", in_part))
            np.maximum.at(maxs, g_part, pick("sum_ub", in_part))
            lo += mins.sum()
            hi += maxs.sum()
        return Bounds.of(lo, hi)
    if agg == "MIN":
        lo = min(
            pick("min_lb", in_cov).min(initial=np.inf),
            pick("min_lb", first_part).min(initial=np.inf),
        )
        # no covered group: a single tuple of one partial group may be all that is selected
        hi = pick("min_ub", in_cov).min() if cov.any() else pick("min_ub", first_part).max()
        return Bounds.of(lo, hi)
    if agg == "MAX":
        hi = max(
            pick("max_ub", in_cov).max(initial=-np.inf),
            pick("max_ub", first_part).max(initial=-np.inf),
        )
        lo = pick("max_lb", in_cov).max() if cov.any() else pick("max_lb", first_part).min()
        return Bounds.of(lo, hi)
    if agg != "AVG":
        raise ConfigError(f"aggregate {aggregate!r}: use one of {AGGREGATES}")
    n = float(sizes[cov].sum())
    base_lo = pick("sum_lb", in_cov).sum()
    base_hi = pick("sum_ub", in_cov).sum()
    # increments of sum_lb (the m-th smallest lo) = max_lb(m); of sum_ub = min_ub(m)
    pool_lo = np.sort(pick("max_lb", in_part))
    pool_hi = np.sort(pick("min_ub", in_part))[::-1]
    k = np.arange(pool_lo.size + 1, dtype=float)
    cs_lo = np.concatenate([[0.0], np.cumsum(pool_lo)])
    cs_hi = np.concatenate([[0.0], np.cumsum(pool_hi)])
    start = 0 if n > 0 else 1
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = ((base_lo + cs_lo) / (n + k))[start:].min()
        hi = ((base_hi + cs_hi) / (n + k))[start:].max()
    return Bounds.of(lo, hi)
