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

Modules: :mod:`~privlab.table.query.parse` (sqlglot parsing and validation),
:mod:`~privlab.table.query.polars_where` (the python backend's polars translation),
:mod:`~privlab.table.query.boxes` (the QI boxes of a generalized table),
:mod:`~privlab.table.query.generalization` (three-valued evaluation, generalized bounds),
:mod:`~privlab.table.query.postgres` (PostgreSQL helpers) and
:mod:`~privlab.table.query.engine` (the engine, its backends and the SQL rewrite).
"""

from privlab.table.query.engine import (
    QueryAnswer,
    QueryEngine,
    bounded_query,
    query_moments,
    rewrite_sql,
)
from privlab.table.query.generalization import Generalization, generalized_bounds
from privlab.table.query.parse import AGGREGATES, BACKENDS, ParsedQuery, parse_aggregate_query
from privlab.table.query.polars_where import to_polars
from privlab.table.query.postgres import _copy as _copy
from privlab.table.query.postgres import mask_dsn

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
    "query_moments",
    "rewrite_sql",
    "to_polars",
]
