"""Bounded aggregate queries over permutation releases, executed as SQL (seed 001 §2.5).

A permutation release (:class:`~privlab.table.permutation.release.PermutationRelease`)
publishes every tuple's quasi-identifiers exactly, a group id per tuple, and each group's
multiset of sensitive values.  For ``SELECT AGG(S) FROM t WHERE C(QI...)`` the number of
selected tuples of every group (its *hits* m) is therefore exact, and deterministic bounds
on SUM / AVG / MIN / MAX / COUNT follow from the group's sorted values (seed 001 §2.5.1,
L1141–1175; the arithmetic lives in :mod:`privlab.bounds`).

Execution follows §2.5.2 (L1176–1243).  Three relations are loaded once per release and
engine (cached, keyed by the release object):

``PT(tuple_id, QI..., group_id)``
    ``release.qi`` verbatim.  The seed keeps the group in a separate mapping table
    ``MT(tupleID, groupID)``; PT carries ``group_id`` as a column instead (MT is its
    projection), so step 1 needs no ``tupleID IN (...)`` semi-join.
``HT(group_id, hits, sum_lb, sum_ub, min_lb, min_ub, max_lb, max_ub)``
    :func:`privlab.bounds.help_table`: one row per (group, hits ∈ 1..|group|), Table 2.4;
    primary key (group_id, hits).

and every query is rewritten into the seed's two steps (step 1 as a CTE rather than
``SELECT ... INTO R1``, which is the same plan without a temporary table)::

    WITH r1 AS (SELECT group_id, COUNT(*) AS hits FROM PT WHERE C GROUP BY group_id)
    SELECT SUM(ht.sum_lb), SUM(ht.sum_ub), SUM(r1.hits), COUNT(*)
    FROM r1 JOIN HT AS ht ON ht.group_id = r1.group_id AND ht.hits = r1.hits

(MIN uses MIN(min_lb), MIN(min_ub); MAX uses MAX(max_lb), MAX(max_ub); AVG divides the SUM
bounds by Σ hits; COUNT is Σ hits, exact).  The WHERE clause is parsed with sqlglot in the
DuckDB dialect and transpiled to the backend's dialect.  Backends:

``duckdb`` (default)
    embedded, in-memory; polars frames are registered through Arrow and materialized.
``postgres``
    given a DSN (psycopg 3): PT and HT are loaded with ``COPY`` into session-temporary
    tables (they vanish with the connection; :meth:`QueryEngine.close` drops them too).
``python``
    the pure reference: C is translated to a polars expression, hits counted with polars
    and combined with :meth:`privlab.bounds.GroupedValues.aggregate`.

All three give identical answers (integer-valued data: bit-identical; otherwise up to
floating-point summation order).  To keep them identical, the supported WHERE subset is:
comparisons, BETWEEN, IN (lists), LIKE/ILIKE (no backslash in patterns, ASCII for ILIKE),
IS [NOT] NULL, AND/OR/NOT, unary minus and ``+ - * /`` on numeric columns and literals.
Decimal literals are read as DOUBLE (so ``age * 0.1`` is IEEE arithmetic everywhere), ``/``
is true division, and text is compared by code point (PostgreSQL columns get ``COLLATE "C"``).
Division by zero is the backend's business (DuckDB and polars give ±inf, PostgreSQL an error).

**Generalization bounds** (seed 001 §2.1 "Bounds from a QI-generalized table", L960–1016,
Theorem 2 L1166).  For comparison, :class:`Generalization` describes the generalized table
of the *same* partition: per group a box of QI values — by default the tightest one
(numeric QI: [min, max] of the group; text/boolean QI: the set of its values), or explicit
labels such as the seed's Table 2.2 (``[31-40]``, ``271*``, ``*``).  C is evaluated on each
box in three-valued (Kleene) logic by abstract interpretation of the sqlglot AST: TRUE when
every point of the box satisfies C (the group is *covered*: all its tuples are selected),
FALSE when none does (*excluded*), UNKNOWN otherwise (*partial*: any number of its tuples,
0..|group|, may be selected).  The evaluation is sound but not always tight (interval
arithmetic; a tautology such as ``age < 40 OR age >= 40`` over a box straddling 40 is
UNKNOWN), which only widens the generalized bounds.  See :func:`generalized_bounds` for the
per-aggregate rules.

Complexity: loading is O(n) rows (plus O(n) help-table rows); a query is one scan of PT, a
hash aggregate and a join with the touched groups' HT rows — O(n) — plus O(G · |C|) numpy
work for the generalization bounds (G groups, |C| the size of the condition).
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from privlab.bounds import Bounds, GroupedValues
from privlab.errors import ConfigError, InputError

if TYPE_CHECKING:  # pragma: no cover
    from privlab.table.permutation.release import PermutationRelease

try:  # sqlglot is a core dependency; keep the import error readable anyway
    import sqlglot
    from sqlglot import exp
    from sqlglot.errors import SqlglotError
except ImportError as _exc:  # pragma: no cover
    raise ImportError("privlab.table.query needs sqlglot: pip install 'sqlglot>=25'") from _exc

AGGREGATES = ("COUNT", "SUM", "AVG", "MIN", "MAX")
BACKENDS = ("duckdb", "postgres", "python")
#: The dialect user queries are read in.
READ_DIALECT = "duckdb"

_AGG_CLASSES = {exp.Count: "COUNT", exp.Sum: "SUM", exp.Avg: "AVG", exp.Min: "MIN",
                exp.Max: "MAX"}  # fmt: skip
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)
_ARITH = (exp.Add, exp.Sub, exp.Mul, exp.Div)
_SUPPORTED_HELP = (
    "comparisons (= <> < <= > >=), BETWEEN, IN (list), LIKE/ILIKE, IS [NOT] NULL, "
    "AND/OR/NOT, + - * / and unary minus on numeric quasi-identifiers and literals"
)


# =========================================================================== parsing


@dataclass(frozen=True)
class ParsedQuery:
    """A validated ``SELECT AGG(S) FROM t [WHERE C]``.

    ``where`` is the condition with every column reference resolved to the release's exact
    column name (quoted identifiers) and decimal literals cast to DOUBLE; ``columns`` are the
    quasi-identifiers it references.
    """

    sql: str
    aggregate: str
    argument: str | None
    table: str
    where: exp.Expression | None
    columns: tuple[str, ...]

    def where_sql(self, dialect: str = READ_DIALECT) -> str | None:
        """The condition in ``dialect`` (``duckdb``, ``postgres``, ...), or None."""
        return None if self.where is None else self.where.sql(dialect=dialect)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sql": self.sql,
            "aggregate": self.aggregate,
            "argument": self.argument,
            "table": self.table,
            "where": self.where_sql(),
            "columns": list(self.columns),
        }


def _kind_of(dtype: pl.DataType) -> str:
    if dtype == pl.Boolean:
        return "boolean"
    if dtype.is_numeric():
        return "numeric"
    if dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum | pl.Categorical):
        return "string"
    return "other"


def _qi_columns(release: Any) -> list[str]:
    return [c for c in release.qi.columns if c not in ("tuple_id", "group_id")]


def _column_kinds(release: Any) -> dict[str, str]:
    schema = release.qi.schema
    return {c: _kind_of(schema[c]) for c in _qi_columns(release)}


def _err(sql: str, problem: str, fix: str) -> ConfigError:
    return ConfigError(f"query {sql!r}: {problem}; {fix}")


def parse_aggregate_query(sql: str, release: Any) -> ParsedQuery:
    """Parse and validate ``SELECT AGG(S) FROM <table> [WHERE C]`` against ``release``.

    AGG ∈ COUNT, SUM, AVG, MIN, MAX; its argument must be the sensitive attribute (COUNT(*)
    is allowed); the table name is free; C may reference quasi-identifiers only (seed 001
    §2.0 query model: selection on QIs, aggregation of S).  Raises
    :class:`~privlab.errors.ConfigError` naming the problem and the fix.  O(|sql|).
    """
    if not isinstance(sql, str) or not sql.strip():
        raise ConfigError("empty query; write SELECT AGG(S) FROM t WHERE <condition on QIs>")
    sensitive = release.sensitive
    kinds = _column_kinds(release)
    try:
        statements = [s for s in sqlglot.parse(sql, read=READ_DIALECT) if s is not None]
    except SqlglotError as exc:
        first = str(exc).splitlines()[0]
        raise _err(sql, f"cannot parse the SQL ({first})",
                   "write SELECT AGG(S) FROM t WHERE <condition>") from None  # fmt: skip
    if len(statements) != 1:
        raise _err(sql, f"{len(statements)} statements", "send exactly one SELECT")
    tree = statements[0]
    if not isinstance(tree, exp.Select):
        raise _err(sql, f"a {type(tree).__name__.upper()} statement is not supported",
                   "send one SELECT AGG(S) FROM t [WHERE ...]")  # fmt: skip
    shape_fix = "only SELECT AGG(S) FROM t [WHERE <condition on quasi-identifiers>] is supported"
    extra = sorted(k for k, v in tree.args.items()
                   if v and k not in ("expressions", "from", "from_", "where"))  # fmt: skip
    if extra:
        names = ", ".join(k.rstrip("_").upper().replace("_", " ") for k in extra)
        raise _err(sql, f"unsupported clause(s): {names}", shape_fix)
    if len(tree.expressions) != 1:
        raise _err(
            sql, f"{len(tree.expressions)} select items", f"select one aggregate; {shape_fix}"
        )
    item = tree.expressions[0]
    if isinstance(item, exp.Alias):
        item = item.this
    agg = next((name for cls, name in _AGG_CLASSES.items() if type(item) is cls), None)
    if agg is None:
        raise _err(sql, f"{item.sql(dialect=READ_DIALECT)!r} is not an aggregate of {AGGREGATES}",
                   f"select one of COUNT(*), SUM({sensitive}), AVG({sensitive}), "
                   f"MIN({sensitive}), MAX({sensitive})")  # fmt: skip
    arg = item.this
    argument: str | None
    if isinstance(arg, exp.Star) and agg == "COUNT":
        argument = None
    elif isinstance(arg, exp.Column) and _names_sensitive(arg, sensitive, kinds):
        argument = sensitive
    elif isinstance(arg, exp.Distinct):
        raise _err(sql, f"{agg}(DISTINCT ...) is not supported",
                   f"use {agg}({sensitive}); values are published without owners")  # fmt: skip
    else:
        what = arg.sql(dialect=READ_DIALECT) if arg is not None else ""
        raise _err(sql, f"{agg}({what}): the aggregate's argument must be the sensitive "
                   f"attribute {sensitive!r}",
                   f"write {agg}({sensitive})" + (" or COUNT(*)" if agg == "COUNT" else "")
                   + "; quasi-identifiers are published exactly, aggregate them with "
                   "ordinary SQL")  # fmt: skip
    if release.kind == "categorical" and agg != "COUNT":
        raise _err(sql, f"{agg} needs a numeric sensitive attribute but {sensitive!r} is "
                   "categorical (Anatomy release)", "use COUNT(*)")  # fmt: skip
    frm = tree.args.get("from_") or tree.args.get("from")
    source = frm.this if frm is not None else None
    if not isinstance(source, exp.Table) or frm.args.get("expressions"):
        raise _err(sql, "the FROM clause must name one table", shape_fix)
    table_name = source.name
    alias = source.alias_or_name
    where_node = tree.args.get("where")
    where = None
    used: list[str] = []
    if where_node is not None:
        where = _resolve_where(sql, where_node.this.copy(), release, kinds, {table_name, alias},
                               used)  # fmt: skip
        _check_types(sql, where, kinds, expect_bool=True)
    return ParsedQuery(sql, agg, argument, table_name, where, tuple(dict.fromkeys(used)))


def _names_sensitive(col: exp.Column, sensitive: str, kinds: dict[str, str]) -> bool:
    """Whether ``col`` is the sensitive attribute (unquoted names match case-insensitively)."""
    if col.name == sensitive:
        return True
    quoted = bool(col.this.args.get("quoted"))
    return not quoted and col.name not in kinds and col.name.lower() == sensitive.lower()


def _resolve_column(sql: str, col: exp.Column, release: Any, kinds: dict[str, str],
                    tables: set[str]) -> str:  # fmt: skip
    qualifier = col.table
    if qualifier and qualifier not in tables:
        raise _err(sql, f"column {col.sql(dialect=READ_DIALECT)} refers to table {qualifier!r}",
                   f"qualify columns with {sorted(tables)[0]!r} or not at all")  # fmt: skip
    name = col.name
    sensitive = release.sensitive
    quoted = bool(col.this.args.get("quoted"))
    candidates = [name] if name in kinds or name == sensitive or quoted else [
        c for c in [*kinds, sensitive] if c.lower() == name.lower()
    ]  # fmt: skip
    if len(candidates) == 1 and candidates[0] == sensitive:
        raise _err(sql, f"the sensitive attribute {sensitive} cannot appear in WHERE: its link to "
                   "tuples is hidden by the permutation", "filter on quasi-identifiers only "
                   f"({', '.join(kinds)})")  # fmt: skip
    if len(candidates) != 1 or candidates[0] not in kinds:
        hint = ""
        if name in ("tuple_id", "group_id"):
            hint = f" ({name} is release bookkeeping, not a quasi-identifier)"
        raise _err(sql, f"unknown column {name!r} in WHERE{hint}",
                   f"the quasi-identifiers are {', '.join(kinds)}")  # fmt: skip
    real = candidates[0]
    if kinds[real] == "other":
        raise _err(
            sql,
            f"column {real!r} has type {release.qi.schema[real]}, which WHERE does not support",
            "filter on numeric, text or boolean quasi-identifiers",
        )
    return real


def _resolve_where(sql: str, node: exp.Expression, release: Any, kinds: dict[str, str],
                   tables: set[str], used: list[str]) -> exp.Expression:  # fmt: skip
    """Check the node types; resolve columns to quoted exact names; decimals → DOUBLE."""
    for sub in node.walk():
        if isinstance(sub, exp.Column):
            continue
        if isinstance(sub, exp.Identifier) and isinstance(sub.parent, exp.Column):
            continue
        if isinstance(sub, exp.Div) and sub.args.get("typed"):
            raise _err(sql, "integer division is not supported", "use / (true division)")
        if isinstance(sub, exp.Between) and sub.args.get("symmetric"):
            raise _err(sql, "BETWEEN SYMMETRIC is not supported", "order the bounds")
        if isinstance(sub, exp.In) and (sub.args.get("query") or sub.args.get("unnest")
                                        or sub.args.get("field")):  # fmt: skip
            raise _err(sql, "IN with a subquery is not supported", "list the values: IN (1, 2)")
        if isinstance(sub, exp.Like | exp.ILike):
            pat = sub.expression
            if not (isinstance(pat, exp.Literal) and pat.is_string):
                raise _err(sql, "LIKE needs a string literal pattern", "write x LIKE 'ab%'")
            if "\\" in pat.this:
                raise _err(sql, "backslashes in LIKE patterns are not supported (escape rules "
                           "differ between backends)", "match without a backslash")  # fmt: skip
        if isinstance(sub, exp.Literal) and not sub.is_string:
            try:
                float(sub.this)
            except ValueError:
                raise _err(sql, f"bad number {sub.this!r}", "write a plain number") from None
        if not isinstance(sub, _ALLOWED_NODES):
            raise _err(sql, f"{sub.sql(dialect=READ_DIALECT)!r} ({type(sub).__name__}) is not "
                       "supported in WHERE", f"use {_SUPPORTED_HELP}")  # fmt: skip
        if isinstance(sub, exp.Is) and not isinstance(sub.expression, exp.Null):
            raise _err(sql, "IS is supported with NULL only", "write x IS [NOT] NULL or x = v")

    def fix(n: exp.Expression) -> exp.Expression:
        if isinstance(n, exp.Column):
            real = _resolve_column(sql, n, release, kinds, tables)
            used.append(real)
            return exp.column(real, quoted=True)
        if isinstance(n, exp.Literal) and not n.is_string and not _INT_RE.fullmatch(n.this):
            return exp.cast(exp.Literal.number(n.this), exp.DataType.Type.DOUBLE)
        return n

    return node.transform(fix, copy=False)


_INT_RE = re.compile(r"[0-9]+")
_ALLOWED_NODES = (
    exp.And, exp.Or, exp.Not, exp.Paren, *_COMPARISONS, exp.Between, exp.In, exp.Like,
    exp.ILike, exp.Is, exp.Column, exp.Identifier, exp.Literal, exp.Boolean, exp.Null,
    *_ARITH, exp.Neg,
)  # fmt: skip


def _literal_value(node: exp.Expression) -> Any:
    """The Python value of a literal (after :func:`_resolve_where`), else raise KeyError."""
    if isinstance(node, exp.Paren):
        return _literal_value(node.this)
    if isinstance(node, exp.Cast):
        return float(node.this.this)
    if isinstance(node, exp.Literal):
        if node.is_string:
            return node.this
        return int(node.this) if _INT_RE.fullmatch(node.this) else float(node.this)
    if isinstance(node, exp.Boolean):
        return bool(node.this)
    if isinstance(node, exp.Null):
        return None
    raise KeyError(type(node).__name__)


def _check_types(sql: str, node: exp.Expression, kinds: dict[str, str], *,
                 expect_bool: bool = False) -> str:  # fmt: skip
    """Static type of a WHERE sub-expression: numeric, string, boolean or null.

    Mixed comparisons (a number column against a string) are rejected rather than left to
    each backend's implicit casts, so that every backend evaluates the same thing.
    """

    def t(n: exp.Expression) -> str:
        return _check_types(sql, n, kinds)

    if isinstance(node, exp.Paren):
        kind = t(node.this)
    elif isinstance(node, exp.Column):
        kind = kinds[node.name]
    elif isinstance(node, exp.Cast):
        kind = "numeric"
    elif isinstance(node, exp.Literal):
        kind = "string" if node.is_string else "numeric"
    elif isinstance(node, exp.Boolean):
        kind = "boolean"
    elif isinstance(node, exp.Null):
        kind = "null"
    elif isinstance(node, exp.Neg | exp.Add | exp.Sub | exp.Mul | exp.Div):
        for part in (node.this, node.args.get("expression")):
            if part is not None and t(part) not in ("numeric", "null"):
                raise _err(sql, f"arithmetic on non-numeric {part.sql(dialect=READ_DIALECT)!r}",
                           "use + - * / on numeric quasi-identifiers only")  # fmt: skip
        kind = "numeric"
    elif isinstance(node, exp.And | exp.Or):
        for part in (node.this, node.expression):
            if t(part) not in ("boolean", "null"):
                raise _err(sql, f"{part.sql(dialect=READ_DIALECT)!r} is not a condition",
                           "combine comparisons with AND/OR")  # fmt: skip
        kind = "boolean"
    elif isinstance(node, exp.Not):
        if t(node.this) not in ("boolean", "null"):
            raise _err(sql, f"NOT {node.this.sql(dialect=READ_DIALECT)!r} is not a condition",
                       "negate a comparison")  # fmt: skip
        kind = "boolean"
    elif isinstance(node, exp.Is):
        t(node.this)
        kind = "boolean"
    elif isinstance(node, (*_COMPARISONS, exp.Between, exp.In, exp.Like, exp.ILike)):
        if isinstance(node, exp.Between):
            parts = [node.this, node.args["low"], node.args["high"]]
        elif isinstance(node, exp.In):
            parts = [node.this, *node.expressions]
        else:
            parts = [node.this, node.expression]
        types = {t(p) for p in parts} - {"null"}
        if isinstance(node, exp.Like | exp.ILike) and types - {"string"}:
            raise _err(sql, f"LIKE on non-text {node.this.sql(dialect=READ_DIALECT)}",
                       "use LIKE on text quasi-identifiers")  # fmt: skip
        if len(types) > 1:
            what = node.sql(dialect=READ_DIALECT)
            raise _err(sql, f"{what} compares {' with '.join(sorted(types))}",
                       "compare numbers with numbers and text with quoted 'text'")  # fmt: skip
        kind = "boolean"
    else:  # pragma: no cover - _resolve_where filters the node types
        raise _err(sql, f"unsupported {type(node).__name__}", f"use {_SUPPORTED_HELP}")
    if expect_bool and kind not in ("boolean", "null"):
        raise _err(sql, f"WHERE {node.sql(dialect=READ_DIALECT)!r} is not a condition",
                   "write a comparison such as age > 50")  # fmt: skip
    return kind


# =========================================================================== polars (python)


def _like_regex(pattern: str, ignore_case: bool) -> str:
    out = []
    for ch in pattern:
        out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
    return ("(?si)" if ignore_case else "(?s)") + "^" + "".join(out) + "$"


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


# =========================================================================== generalization


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


# =========================================================================== bounds


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
        hi = lo + float(sizes[part].sum())
        return Bounds(lo, hi, lo if lo == hi else None)
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
        return _mk(lo, hi)
    if agg == "MIN":
        lo = min(
            pick("min_lb", in_cov).min(initial=np.inf),
            pick("min_lb", first_part).min(initial=np.inf),
        )
        # no covered group: a single tuple of one partial group may be all that is selected
        hi = pick("min_ub", in_cov).min() if cov.any() else pick("min_ub", first_part).max()
        return _mk(lo, hi)
    if agg == "MAX":
        hi = max(
            pick("max_ub", in_cov).max(initial=-np.inf),
            pick("max_ub", first_part).max(initial=-np.inf),
        )
        lo = pick("max_lb", in_cov).max() if cov.any() else pick("max_lb", first_part).min()
        return _mk(lo, hi)
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
    return _mk(lo, hi)


def _mk(lo: float, hi: float) -> Bounds:
    lo, hi = float(lo), float(hi)
    return Bounds(lo, hi, lo if lo == hi else None)


@dataclass(frozen=True)
class QueryAnswer:
    """Bounds on one aggregate query over a permutation release.

    ``lower``/``upper`` bound the true answer (``exact`` when they coincide; COUNT is always
    exact); ``hits`` is the number of selected tuples, ``groups_touched`` the groups with at
    least one hit.  ``generalized`` are the bounds the generalized table of the same
    partition would give (Theorem 2: they contain ``[lower, upper]``), with the numbers of
    groups it covers fully and partially.  ``seconds`` is the query time (the one-off load is
    ``load_seconds``, 0 when cached).
    """

    sql: str
    aggregate: str
    sensitive: str
    backend: str
    lower: float | None
    upper: float | None
    exact: float | None
    hits: int
    groups_touched: int
    groups: int
    generalized: Bounds
    generalized_covered: int
    generalized_partial: int
    generalization: str
    seconds: float
    load_seconds: float = 0.0
    rewritten_sql: str | None = None

    @property
    def bounds(self) -> Bounds:
        return Bounds(self.lower, self.upper, self.exact)

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.sql,
            "aggregate": self.aggregate,
            "sensitive": self.sensitive,
            "backend": self.backend,
            "lower": self.lower,
            "upper": self.upper,
            "exact": self.exact,
            "hits": self.hits,
            "groups_touched": self.groups_touched,
            "groups": self.groups,
            "generalized": {
                **self.generalized.to_dict(),
                "covered_groups": self.generalized_covered,
                "partial_groups": self.generalized_partial,
                "source": self.generalization,
            },
            "seconds": self.seconds,
            "load_seconds": self.load_seconds,
            "rewritten_sql": self.rewritten_sql,
        }


# =========================================================================== engine


@dataclass(eq=False)
class _Loaded:
    """Per-release state, built once: normalized PT, HT (numpy), group index, names."""

    release: Any
    qi: pl.DataFrame
    kinds: dict[str, str]
    group_ids: np.ndarray  # sorted release group ids; dense index = position
    sizes: np.ndarray
    values: GroupedValues | None
    help_rows: dict[str, np.ndarray] | None
    generalization: Generalization
    tables: dict[str, str] = field(default_factory=dict)  # backend table names
    load_seconds: float = 0.0


def _prepare(release: Any) -> _Loaded:
    for attr in ("qi", "sa", "sensitive", "kind"):
        if not hasattr(release, attr):
            raise InputError(f"not a permutation release: no attribute {attr!r}")
    qi = release.qi
    if not isinstance(qi, pl.DataFrame):
        raise InputError("release.qi must be a polars DataFrame")
    for c in ("tuple_id", "group_id"):
        if c not in qi.columns:
            raise InputError(f"release.qi has no {c!r} column")
    if release.kind not in ("numeric", "categorical"):
        raise InputError(f"release.kind {release.kind!r}: expected 'numeric' or 'categorical'")
    kinds = _column_kinds(release)
    qi = _normalized_qi(qi.select("tuple_id", *kinds, "group_id"), kinds)
    for c, k in kinds.items():
        if k == "numeric" and qi.schema[c].is_float() and qi[c].is_nan().any():
            raise InputError(f"release.qi column {c!r} holds NaN; use null for missing values")
    sa_ids = release.sa["group_id"].cast(pl.Int64).to_numpy()
    gids = np.unique(qi["group_id"].to_numpy())
    stray = np.setdiff1d(np.unique(sa_ids), gids)
    if stray.size:
        raise InputError(f"release.sa has values for group(s) {stray[:5].tolist()} that have no "
                         "tuple in release.qi")  # fmt: skip
    sizes = np.bincount(np.searchsorted(gids, qi["group_id"].to_numpy()), minlength=gids.size)
    values = help_rows = None
    if release.kind == "numeric":
        sa = release.sa
        for c in ("lo", "hi"):
            if c not in sa.columns:
                raise InputError(f"numeric release.sa has no {c!r} column")
        values = GroupedValues.from_groups(
            np.searchsorted(gids, sa_ids), sa["lo"].cast(pl.Float64).to_numpy(),
            sa["hi"].cast(pl.Float64).to_numpy(), n_groups=gids.size,
        )  # fmt: skip
        help_rows = values.help_table(sizes)
    gen = Generalization.from_release(release)
    return _Loaded(release, qi, kinds, gids, sizes, values, help_rows, gen)


_SQL_TYPES = {
    "duckdb": {"numeric_int": "BIGINT", "numeric_float": "DOUBLE", "string": "VARCHAR",
               "boolean": "BOOLEAN"},
    "postgres": {"numeric_int": "BIGINT", "numeric_float": "DOUBLE PRECISION",
                 "string": 'TEXT COLLATE "C"', "boolean": "BOOLEAN"},
}  # fmt: skip
_counter = itertools.count(1)
_counter_lock = threading.Lock()


def _quote(name: str, dialect: str) -> str:
    return exp.to_identifier(name, quoted=True).sql(dialect=dialect)


def rewrite_sql(parsed: ParsedQuery, pt: str, ht: str, dialect: str, kind: str = "numeric") -> str:
    """The seed's two-step rewrite (§2.5.2, L1219–1227) of ``parsed`` for ``dialect``.

    Step 1 counts hits per group in PT under C; step 2 joins them with HT on (group_id, hits)
    and combines the bounds.  Returns one statement (step 1 as a CTE).  O(|C|).
    """
    where = parsed.where_sql(dialect)
    step1 = f"SELECT group_id, COUNT(*) AS hits FROM {pt}" + (f" WHERE {where}" if where else "")
    step1 += " GROUP BY group_id"
    cols = {"SUM": ("SUM(ht.sum_lb)", "SUM(ht.sum_ub)"),
            "AVG": ("SUM(ht.sum_lb)", "SUM(ht.sum_ub)"),
            "MIN": ("MIN(ht.min_lb)", "MIN(ht.min_ub)"),
            "MAX": ("MAX(ht.max_lb)", "MAX(ht.max_ub)"),
            }.get(parsed.aggregate)  # fmt: skip
    if cols is None or kind != "numeric":
        return f"WITH r1 AS ({step1}) SELECT NULL, NULL, SUM(r1.hits), COUNT(*) FROM r1"
    return (
        f"WITH r1 AS ({step1}) SELECT {cols[0]}, {cols[1]}, SUM(r1.hits), COUNT(*) "
        f"FROM r1 JOIN {ht} AS ht ON ht.group_id = r1.group_id AND ht.hits = r1.hits"
    )


def mask_dsn(dsn: str) -> str:
    """``dsn`` with any password replaced by ``***`` (URL and key=value forms)."""
    out = re.sub(r"(://[^:/@?#]*:)[^@/?#]*@", r"\1***@", dsn)
    out = re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", r"\1***", out, flags=re.I)
    return out


class QueryEngine:
    """Answers bounded aggregate queries over permutation releases on one backend.

    ``backend``: ``duckdb`` (default without DSN; in-memory unless ``connection`` is given),
    ``postgres`` (default with a DSN; or pass an open psycopg ``connection``), ``python``.
    PT and HT are loaded once per release (cached by release object while the engine lives).
    Use as a context manager or call :meth:`close`.
    """

    def __init__(self, backend: str | None = None, *, dsn: str | None = None,
                 connection: Any = None) -> None:  # fmt: skip
        if backend is None:
            backend = "postgres" if dsn else "duckdb"
        backend = str(backend).lower()
        if backend not in BACKENDS:
            raise ConfigError(f"backend {backend!r}: use one of {', '.join(BACKENDS)}")
        if dsn and backend != "postgres":
            raise ConfigError(f"a DSN is for the postgres backend, not {backend!r}; drop --dsn or "
                              "use --backend postgres")  # fmt: skip
        if backend == "postgres" and not dsn and connection is None:
            raise ConfigError("the postgres backend needs a DSN, e.g. "
                              "postgresql://user@localhost/db")  # fmt: skip
        self.backend = backend
        self.dsn = dsn
        self._owns = connection is None
        self._con = connection
        self._cache: dict[int, _Loaded] = {}
        if backend == "duckdb" and self._con is None:
            import duckdb

            self._con = duckdb.connect(":memory:")
        elif backend == "postgres" and self._con is None:
            self._con = _pg_connect(dsn or "")

    # -- lifecycle
    def __enter__(self) -> QueryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Drop the loaded tables and close the connection if the engine opened it."""
        if self._con is not None and self.backend != "python":
            for loaded in self._cache.values():
                for name in loaded.tables.values():
                    with contextlib.suppress(Exception):  # best effort while closing
                        self._execute(f"DROP TABLE IF EXISTS {name}")
            if self._owns:
                self._con.close()
        self._cache.clear()
        self._con = None

    # -- loading
    def load(self, release: PermutationRelease) -> float:
        """Load PT and HT of ``release`` (once); return the seconds spent (0 when cached).

        O(n): one bulk load of n PT rows and n HT rows.
        """
        key = id(release)
        if key in self._cache and self._cache[key].release is release:
            return 0.0
        t0 = time.perf_counter()
        loaded = _prepare(release)
        if self.backend != "python":
            if self._con is None:
                raise ConfigError("the engine is closed")
            with _counter_lock:
                n = next(_counter)
            loaded.tables = {"pt": f"privlab_pt_{n}", "ht": f"privlab_ht_{n}"}
            if self.backend == "duckdb":
                self._load_duckdb(loaded)
            else:
                self._load_postgres(loaded)
        loaded.load_seconds = time.perf_counter() - t0
        self._cache[key] = loaded
        return loaded.load_seconds

    def _frames(self, loaded: _Loaded) -> tuple[pl.DataFrame, pl.DataFrame | None]:
        ht = None
        if loaded.help_rows is not None:
            rows = loaded.help_rows
            ht = pl.DataFrame({
                "group_id": loaded.group_ids[rows["group_id"]].astype(np.int64),
                **{c: rows[c] for c in ("hits", "sum_lb", "sum_ub", "min_lb", "min_ub",
                                        "max_lb", "max_ub")},
            })  # fmt: skip
        return loaded.qi, ht

    def _columns_ddl(self, loaded: _Loaded, dialect: str) -> str:
        types = _SQL_TYPES[dialect]
        cols = ["tuple_id BIGINT"]
        for c, k in loaded.kinds.items():
            dt = loaded.qi.schema[c]
            if k == "numeric":
                sql_t = types["numeric_float" if dt.is_float() else "numeric_int"]
            elif k in ("string", "boolean"):
                sql_t = types[k]
            elif dt == pl.Date:
                sql_t = "DATE"
            elif isinstance(dt, pl.Datetime):
                sql_t = "TIMESTAMP"
            else:
                sql_t = types["string"]
            cols.append(f"{_quote(c, dialect)} {sql_t}")
        cols.append("group_id BIGINT")
        return ", ".join(cols)

    def _load_duckdb(self, loaded: _Loaded) -> None:
        pt, ht = self._frames(loaded)
        con = self._con
        names = loaded.tables
        con.register("privlab_pt_src", pt.to_arrow())
        try:
            con.execute(f"CREATE TABLE {names['pt']} ({self._columns_ddl(loaded, 'duckdb')})")
            con.execute(f"INSERT INTO {names['pt']} SELECT * FROM privlab_pt_src")
        finally:
            con.unregister("privlab_pt_src")
        if ht is not None:
            con.register("privlab_ht_src", ht.to_arrow())
            try:
                con.execute(f"CREATE TABLE {names['ht']} AS SELECT * FROM privlab_ht_src")
            finally:
                con.unregister("privlab_ht_src")

    def _load_postgres(self, loaded: _Loaded) -> None:
        pt, ht = self._frames(loaded)
        names = loaded.tables
        with self._con.cursor() as cur:
            try:
                cur.execute(f"CREATE TEMPORARY TABLE {names['pt']} "
                            f"({self._columns_ddl(loaded, 'postgres')})")  # fmt: skip
                _copy(cur, names["pt"], pt)
                if ht is not None:
                    cur.execute(
                        f"CREATE TEMPORARY TABLE {names['ht']} (group_id BIGINT, hits BIGINT, "
                        "sum_lb DOUBLE PRECISION, sum_ub DOUBLE PRECISION, min_lb DOUBLE "
                        "PRECISION, min_ub DOUBLE PRECISION, max_lb DOUBLE PRECISION, max_ub "
                        "DOUBLE PRECISION, PRIMARY KEY (group_id, hits))"
                    )
                    _copy(cur, names["ht"], ht)
                cur.execute(f"ANALYZE {names['pt']}")
                if ht is not None:
                    cur.execute(f"ANALYZE {names['ht']}")
            except Exception as exc:
                raise InputError(f"PostgreSQL at {mask_dsn(self.dsn or '?')}: cannot load the "
                                 f"release: {_pg_message(exc)}") from None  # fmt: skip

    def table_names(self, release: PermutationRelease) -> dict[str, str]:
        """Names of the loaded PT (``pt``) and HT (``ht``) tables of ``release`` (loads it)."""
        self.load(release)
        return dict(self._cache[id(release)].tables)

    def fetch_help_table(self, release: PermutationRelease) -> pl.DataFrame:
        """HT as stored in the backend (the python backend: as computed), by group and hits."""
        self.load(release)
        loaded = self._cache[id(release)]
        if loaded.help_rows is None:
            raise ConfigError("a categorical (Anatomy) release has no help table")
        if self.backend == "python":
            return self._frames(loaded)[1].sort("group_id", "hits")
        cols = ("group_id", "hits", "sum_lb", "sum_ub", "min_lb", "min_ub", "max_lb", "max_ub")
        rows = self._execute(
            f"SELECT {', '.join(cols)} FROM {loaded.tables['ht']} ORDER BY group_id, hits"
        )
        return pl.DataFrame(rows, schema=dict.fromkeys(cols), orient="row")

    def _execute(self, sql: str) -> list[tuple[Any, ...]]:
        if self.backend == "duckdb":
            return self._con.execute(sql).fetchall()
        with self._con.cursor() as cur:
            cur.execute(sql)
            return cur.fetchall() if cur.description else []

    # -- querying
    def query(
        self,
        release: PermutationRelease,
        sql: str,
        *,
        generalization: Generalization | None = None,
    ) -> QueryAnswer:
        """Bounds on ``sql`` over ``release`` (seed 001 §2.5; see the module docstring).

        ``generalization`` overrides the comparison table (default: the tightest box of the
        release's own partition, :meth:`Generalization.from_release`).  O(n) for the scan of
        PT plus O(G·|C|) for the generalized bounds, after the one-off O(n) :meth:`load`.
        """
        parsed = parse_aggregate_query(sql, release)
        load_seconds = self.load(release)
        loaded = self._cache[id(release)]
        gen = generalization or loaded.generalization
        if not np.array_equal(gen.group_ids, loaded.group_ids):
            raise InputError("the generalization's groups differ from the release's; build it "
                             "from the same release")  # fmt: skip
        t0 = time.perf_counter()
        rewritten = None
        if self.backend == "python":
            lower, upper, hits, touched = self._python(loaded, parsed)
        else:
            dialect = "duckdb" if self.backend == "duckdb" else "postgres"
            rewritten = rewrite_sql(parsed, loaded.tables["pt"], loaded.tables["ht"], dialect,
                                    release.kind)  # fmt: skip
            row = self._run(rewritten)
            lower, upper, hits, touched = self._finish(parsed, row)
        status = gen.status(parsed)
        if loaded.help_rows is not None:
            gb = generalized_bounds(parsed.aggregate, status, loaded.help_rows, loaded.sizes)
        else:
            gb = generalized_bounds("COUNT", status, {}, loaded.sizes)
        seconds = time.perf_counter() - t0
        exact = lower if lower is not None and lower == upper else None
        return QueryAnswer(
            sql=sql, aggregate=parsed.aggregate, sensitive=release.sensitive,
            backend=self.backend, lower=lower, upper=upper, exact=exact, hits=hits,
            groups_touched=touched, groups=int(loaded.group_ids.size), generalized=gb,
            generalized_covered=int((status == 1).sum()),
            generalized_partial=int((status == -1).sum()), generalization=gen.source,
            seconds=seconds, load_seconds=load_seconds, rewritten_sql=rewritten,
        )  # fmt: skip

    def _run(self, sql: str) -> tuple[Any, ...]:
        if self.backend == "duckdb":
            import duckdb

            try:
                return self._con.execute(sql).fetchone()
            except duckdb.Error as exc:
                msg = " ".join(str(exc).split())
                raise InputError(f"DuckDB rejected the query: {msg}") from None
        try:
            with self._con.cursor() as cur:
                cur.execute(sql)
                return cur.fetchone()
        except Exception as exc:
            raise InputError(f"PostgreSQL at {mask_dsn(self.dsn or '?')} rejected the query: "
                             f"{_pg_message(exc)}") from None  # fmt: skip

    @staticmethod
    def _finish(parsed: ParsedQuery, row: tuple[Any, ...]) -> tuple[Any, Any, int, int]:
        lo, hi, hits, touched = row
        hits = int(hits or 0)
        touched = int(touched or 0)
        if parsed.aggregate == "COUNT":
            return float(hits), float(hits), hits, touched
        if hits == 0 or lo is None:
            return None, None, hits, touched
        lo, hi = float(lo), float(hi)
        if parsed.aggregate == "AVG":
            lo, hi = lo / hits, hi / hits
        return lo, hi, hits, touched

    @staticmethod
    def _python(loaded: _Loaded, parsed: ParsedQuery) -> tuple[Any, Any, int, int]:
        counts = (
            loaded.qi.lazy()
            .filter(to_polars(parsed.where))
            .group_by("group_id")
            .agg(pl.len().alias("hits"))
            .collect()
        )
        m = np.zeros(loaded.group_ids.size, dtype=np.int64)
        idx = np.searchsorted(loaded.group_ids, counts["group_id"].to_numpy())
        m[idx] = counts["hits"].to_numpy()
        hits, touched = int(m.sum()), int((m > 0).sum())
        if loaded.values is None or parsed.aggregate == "COUNT":
            return float(hits), float(hits), hits, touched
        b = loaded.values.aggregate(parsed.aggregate.lower(), m)
        return b.lower, b.upper, hits, touched


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


def bounded_query(
    release: PermutationRelease,
    sql: str,
    *,
    backend: str | None = None,
    dsn: str | None = None,
    generalization: Generalization | None = None,
    engine: QueryEngine | None = None,
) -> QueryAnswer:
    """Bounds on ``SELECT AGG(S) FROM t [WHERE C]`` over a permutation release.

    One-shot form of :class:`QueryEngine` (pass ``engine`` to reuse loaded tables).
    DuckDB by default; PostgreSQL when ``dsn`` is given; ``backend="python"`` is the pure
    reference.  See the module docstring for the rewrite and its complexity.
    """
    if engine is not None:
        return engine.query(release, sql, generalization=generalization)
    parse_aggregate_query(sql, release)  # fail on bad SQL before connecting anywhere
    with QueryEngine(backend, dsn=dsn) as eng:
        return eng.query(release, sql, generalization=generalization)


__all__ = [
    "AGGREGATES",
    "BACKENDS",
    "Generalization",
    "ParsedQuery",
    "QueryAnswer",
    "QueryEngine",
    "bounded_query",
    "generalized_bounds",
    "mask_dsn",
    "parse_aggregate_query",
    "rewrite_sql",
    "to_polars",
]
