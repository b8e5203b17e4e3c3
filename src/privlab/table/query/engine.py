"""The query engine: bounded aggregate queries executed as SQL (seed 001 §2.5.2).

:class:`QueryEngine` loads a release's PT and HT once per backend (DuckDB, PostgreSQL, or
the pure python reference), rewrites each query into the seed's two steps
(:func:`rewrite_sql`) and returns a :class:`QueryAnswer`; :func:`bounded_query` is its
one-shot form.  The rewrite, the backends and the complexity are described in
:mod:`privlab.table.query`.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

from privlab.bounds import Bounds, GroupedValues, Moments
from privlab.errors import ConfigError, InputError
from privlab.table.query.boxes import _normalized_qi
from privlab.table.query.generalization import Generalization, generalized_bounds
from privlab.table.query.parse import (
    BACKENDS,
    ParsedQuery,
    _column_kinds,
    exp,
    parse_aggregate_query,
)
from privlab.table.query.polars_where import to_polars
from privlab.table.query.postgres import _copy, _pg_connect, _pg_message, mask_dsn

if TYPE_CHECKING:  # pragma: no cover
    from privlab.table.permutation.release import PermutationRelease


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


def query_moments(release: PermutationRelease, sql: str) -> Moments:
    """Mean and variance of all possible answers of ``SELECT SUM|AVG|COUNT(S) ... WHERE C``.

    Seed 001 §2.5.1 (L1172–1174): every permutation of each group's values is one possible
    original table; the answers of the query over all of them have this mean and variance
    (:meth:`privlab.bounds.GroupedValues.moments`).  The hits are counted with polars (the
    python backend's translation of C).  O(n + E).  MIN/MAX and subdomain releases raise
    :class:`ConfigError`; an Anatomy release too.
    """
    parsed = parse_aggregate_query(sql, release)
    if release.kind != "numeric":
        raise ConfigError(
            "the mean and variance of the possible answers need a numeric release "
            "(an Anatomy release publishes counts per value)"
        )
    where = None if parsed.where is None else to_polars(parsed.where)
    return release.grouped_values().moments(parsed.aggregate.lower(), release.hits(where))
