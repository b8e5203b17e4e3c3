"""Translation of a resolved WHERE condition to a polars expression (seed 001 §2.5).

:func:`to_polars` is what the ``python`` backend (the pure reference of
:class:`~privlab.table.query.QueryEngine`) filters PT with, with SQL NULL semantics.
"""

from __future__ import annotations

import polars as pl

from privlab.errors import ConfigError
from privlab.table.query.parse import (
    READ_DIALECT,
    _like_regex,
    _literal_value,
    exp,
)


def to_polars(node: exp.Expression | None) -> pl.Expr:
    """Translate a resolved WHERE condition to a polars expression (SQL NULL semantics).

    Polars' boolean operators follow Kleene logic on nulls like SQL, and ``filter`` drops
    nulls like WHERE; IN is expanded into ORed equalities so that NULL IN (...) stays NULL.
    O(|C|).
    """
    if node is None:
        return pl.lit(True)
    return _pl(node)


def _pl(n: exp.Expression) -> pl.Expr:
    if isinstance(n, exp.Paren):
        return _pl(n.this)
    if isinstance(n, exp.Column):
        return pl.col(n.name)
    if isinstance(n, exp.Literal | exp.Cast | exp.Boolean | exp.Null):
        value = _literal_value(n)
        return pl.lit(value) if value is not None else pl.lit(None, dtype=pl.Null)
    if isinstance(n, exp.Neg):
        return -_pl(n.this)
    if isinstance(n, exp.Add):
        return _pl(n.this) + _pl(n.expression)
    if isinstance(n, exp.Sub):
        return _pl(n.this) - _pl(n.expression)
    if isinstance(n, exp.Mul):
        return _pl(n.this) * _pl(n.expression)
    if isinstance(n, exp.Div):
        return _pl(n.this).cast(pl.Float64) / _pl(n.expression).cast(pl.Float64)
    if isinstance(n, exp.And):
        return _pl(n.this) & _pl(n.expression)
    if isinstance(n, exp.Or):
        return _pl(n.this) | _pl(n.expression)
    if isinstance(n, exp.Not):
        return ~_pl(n.this)
    if isinstance(n, exp.Is):
        return _pl(n.this).is_null()
    if isinstance(n, exp.Between):
        x = _pl(n.this)
        return (x >= _pl(n.args["low"])) & (x <= _pl(n.args["high"]))
    if isinstance(n, exp.In):
        x = _pl(n.this)
        terms = [x == _pl(v) for v in n.expressions]
        out = terms[0]
        for term in terms[1:]:
            out = out | term
        return out
    if isinstance(n, exp.Like | exp.ILike):
        regex = _like_regex(n.expression.this, isinstance(n, exp.ILike))
        return _pl(n.this).str.contains(regex)
    ops = {exp.EQ: "__eq__", exp.NEQ: "__ne__", exp.GT: "__gt__", exp.GTE: "__ge__",
           exp.LT: "__lt__", exp.LTE: "__le__"}  # fmt: skip
    for cls, op in ops.items():
        if type(n) is cls:
            return getattr(_pl(n.this), op)(_pl(n.expression))
    raise ConfigError(f"unsupported expression {n.sql(dialect=READ_DIALECT)!r}")  # pragma: no cover
