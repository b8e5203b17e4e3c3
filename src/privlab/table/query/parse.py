"""Parsing and validation of bounded aggregate queries with sqlglot (seed 001 §2.5).

:func:`parse_aggregate_query` checks ``SELECT AGG(S) FROM t [WHERE C]`` against a
permutation release and returns a :class:`ParsedQuery`: the aggregate, and the WHERE
condition with its columns resolved to the release's quasi-identifiers and its types
checked (the supported subset is in :mod:`privlab.table.query`).  Also the column-kind and
literal helpers the other modules share, and the sqlglot import guard: they take ``exp``
from here, so a missing sqlglot gives a readable error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import polars as pl

from privlab.errors import ConfigError

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


def _like_regex(pattern: str, ignore_case: bool) -> str:
    out = []
    for ch in pattern:
        out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
    return ("(?si)" if ignore_case else "(?s)") + "^" + "".join(out) + "$"
