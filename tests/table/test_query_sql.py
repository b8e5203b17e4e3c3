"""Bounded aggregate queries as SQL (seed 001 §2.5): worked example, backends, bad input."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from privlab.errors import ConfigError, InputError
from privlab.table.permutation.release import PermutationRelease, release_from_groups
from privlab.table.query import (
    Generalization,
    QueryEngine,
    bounded_query,
    generalized_bounds,
    mask_dsn,
    parse_aggregate_query,
    to_polars,
)

from .seed001_tables import PARTITION, TABLE_2_1, TABLE_2_4

K = 1000.0

# Seed 001 Table 2.2 (L547–559): age in ranges of width 10, zip code 3 digits, gender "*".
TABLE_2_2 = pl.DataFrame(
    {
        "group_id": [0, 1, 2],
        "age": ["[31-40]", "[41-50]", "[51-60]"],
        "zipcode": ["271*", "272*", "276*"],
        "gender": ["*", "*", "*"],
    }
)

Q1 = "SELECT AVG(salary) FROM t WHERE age > 50"
Q2 = "SELECT SUM(salary) FROM t WHERE age BETWEEN 35 AND 55"
Q3 = "SELECT MIN(salary) FROM t WHERE gender = 'F'"


@pytest.fixture(scope="module")
def table21() -> PermutationRelease:
    return release_from_groups(
        TABLE_2_1.drop("name"),
        qi=["age", "zipcode", "gender"],
        sensitive="salary",
        groups=np.array(PARTITION),
    )


@pytest.fixture(params=["duckdb", "python", "postgres"])
def engine(request):
    if request.param == "postgres":
        eng = QueryEngine(dsn=request.getfixturevalue("postgres_dsn"))
    else:
        eng = QueryEngine(request.param)
    yield eng
    eng.close()


# ------------------------------------------------------------------ worked example (§2.2)


def test_q1_average_over_fifty_is_exact(engine, table21):
    gen = Generalization.from_labels(table21, TABLE_2_2)
    a = engine.query(table21, Q1, generalization=gen)
    assert (a.lower, a.upper, a.exact) == (80 * K, 80 * K, 80 * K)
    assert a.generalized.exact == 80 * K  # group 3 fully covered in Table 2.2 as well
    assert a.hits == 3 and a.groups_touched == 1


def test_q2_sum_permuted_vs_table_2_2(engine, table21):
    gen = Generalization.from_labels(table21, TABLE_2_2)
    a = engine.query(table21, Q2, generalization=gen)
    assert (a.lower, a.upper) == (530 * K, 540 * K)
    assert a.exact is None
    assert (a.generalized.lower, a.generalized.upper) == (210 * K, 615 * K)
    assert (a.generalized_covered, a.generalized_partial) == (1, 2)
    assert a.hits == 8  # 3 + 3 + 2


def test_q3_min_of_females_permuted_vs_suppressed_gender(engine, table21):
    gen = Generalization.from_labels(table21, TABLE_2_2)
    a = engine.query(table21, Q3, generalization=gen)
    assert (a.lower, a.upper) == (65 * K, 70 * K)
    assert (a.generalized.lower, a.generalized.upper) == (54 * K, 85 * K)
    assert a.groups_touched == 2  # two females in group 2, one in group 3


def test_tightest_box_is_narrower_than_table_2_2(table21):
    """With the min–max box, age [35, 40] lies inside [35, 55]: group 1 is covered."""
    with QueryEngine("duckdb") as eng:
        q2 = eng.query(table21, Q2)
        q3 = eng.query(table21, Q3)
    assert (q2.generalized.lower, q2.generalized.upper) == (375 * K, 615 * K)
    assert q2.generalization == "min-max"
    # gender {M} in group 1 excludes it; groups 2 and 3 are partial
    assert (q3.generalized.lower, q3.generalized.upper) == (65 * K, 85 * K)
    gen = Generalization.from_release(table21)
    assert gen.describe(0) == {"age": "[35, 40]", "zipcode": "[27101, 27130]", "gender": "{M}"}


def test_table_2_2_labels_parse(table21):
    gen = Generalization.from_labels(table21, TABLE_2_2)
    zbox = gen.boxes["zipcode"]
    assert (zbox.lo.tolist(), zbox.hi.tolist()) == (
        [27100, 27200, 27600],
        [27199, 27299, 27699],
    )
    assert gen.describe(1) == {"age": "[41-50]", "zipcode": "272*", "gender": "*"}


def test_help_table_is_table_2_4(engine, table21):
    ht = engine.fetch_help_table(table21)
    expected = TABLE_2_4
    got = [
        (
            r["group_id"],
            r["hits"],
            r["sum_lb"] / K,
            r["sum_ub"] / K,
            r["min_lb"] / K,
            r["min_ub"] / K,
        )
        for r in ht.iter_rows(named=True)
    ]
    assert got == expected
    # MAX columns (not printed in the seed): m-th smallest value, largest value
    assert (ht["max_lb"] / K).to_list() == [54, 55, 56, 65, 70, 75, 75, 80, 85]
    assert (ht["max_ub"] / K).to_list() == [56] * 3 + [75] * 3 + [85] * 3


def test_rewrite_is_the_seeds_two_steps(table21):
    with QueryEngine("duckdb") as eng:
        a = eng.query(table21, Q2)
        names = eng.table_names(table21)
    sql = a.rewritten_sql
    assert f"SELECT group_id, COUNT(*) AS hits FROM {names['pt']} WHERE" in sql
    assert "GROUP BY group_id" in sql
    assert f"JOIN {names['ht']} AS ht ON ht.group_id = r1.group_id AND ht.hits = r1.hits" in sql
    assert "SUM(ht.sum_lb), SUM(ht.sum_ub)" in sql


def test_count_and_empty_selection(engine, table21):
    a = engine.query(table21, "SELECT COUNT(*) FROM people WHERE gender = 'F' AND age < 50")
    assert (a.lower, a.upper, a.exact, a.hits) == (2.0, 2.0, 2.0, 2)
    empty = engine.query(table21, "SELECT SUM(salary) FROM t WHERE age > 99")
    assert (empty.lower, empty.upper, empty.exact, empty.hits) == (None, None, None, 0)
    assert empty.generalized.lower is None  # no group can hold age > 99 either
    every = engine.query(table21, "SELECT AVG(salary) FROM t")
    assert every.exact == pytest.approx(sum(TABLE_2_1["salary"]) / 9)


def test_bounded_query_one_shot_and_to_dict(table21):
    a = bounded_query(table21, Q2)
    d = a.to_dict()
    assert d["lower"] == 530 * K and d["upper"] == 540 * K and d["backend"] == "duckdb"
    assert d["generalized"]["lower"] == 375 * K
    assert d["load_seconds"] > 0 and d["seconds"] >= 0
    b = bounded_query(table21, Q2, backend="python")
    assert (b.lower, b.upper) == (a.lower, a.upper) and b.rewritten_sql is None


def test_release_is_loaded_once_per_engine(table21):
    with QueryEngine("duckdb") as eng:
        first = eng.query(table21, Q1)
        second = eng.query(table21, Q2)
    assert first.load_seconds > 0 and second.load_seconds == 0.0


def test_release_written_and_read_back(tmp_path, table21):
    table21.write(tmp_path / "rel")
    back = PermutationRelease.read(tmp_path / "rel")
    assert bounded_query(back, Q2).bounds == bounded_query(table21, Q2).bounds


# ------------------------------------------------------------------ generalized bounds rules


def _ht(groups: list[list[float]], sizes: list[int]):
    from privlab.bounds import GroupedValues

    gid = [g for g, vals in enumerate(groups) for _ in vals]
    vals = [v for vs in groups for v in vs]
    gv = GroupedValues.from_groups(gid, vals, n_groups=len(groups))
    return gv.help_table(np.array(sizes))


def test_generalized_sum_keeps_negative_values_of_partial_groups():
    ht = _ht([[-5, 1, 4], [10, 20]], [3, 2])
    b = generalized_bounds("SUM", np.array([-1, 1]), ht, np.array([3, 2]))
    assert (b.lower, b.upper) == (30 - 5, 30 + 5)


def test_generalized_avg_is_tight_and_beats_the_seed_heuristic():
    # covered {0}; partial {10, 10}: the average can reach (0 + 10 + 10) / 3
    ht = _ht([[0], [10, 10]], [1, 2])
    b = generalized_bounds("AVG", np.array([1, -1]), ht, np.array([1, 2]))
    assert b.lower == 0 and b.upper == pytest.approx(20 / 3)
    # no covered group: at least one tuple of a partial group is selected
    ht = _ht([[1, 5], [3, 9]], [2, 2])
    b = generalized_bounds("AVG", np.array([-1, -1]), ht, np.array([2, 2]))
    assert (b.lower, b.upper) == (1, 9)


def test_generalized_min_max_count():
    ht = _ht([[1, 5], [3, 9], [4, 6]], [2, 2, 2])
    st = np.array([-1, 1, 0])
    assert generalized_bounds("MIN", st, ht, np.array([2, 2, 2])).to_dict()["lower"] == 1
    assert generalized_bounds("MIN", st, ht, np.array([2, 2, 2])).upper == 3
    assert (
        generalized_bounds("MAX", st, ht, np.array([2, 2, 2])).lower,
        generalized_bounds("MAX", st, ht, np.array([2, 2, 2])).upper,
    ) == (9, 9)
    c = generalized_bounds("COUNT", st, ht, np.array([2, 2, 2]))
    assert (c.lower, c.upper, c.exact) == (2, 4, None)


# ------------------------------------------------------------------ random releases


def _random_case(seed: int):
    """A random table, a random partition (fakes, subdomains), its release and a coarse
    generalization; returns (original frame with the true salary, release, labels)."""
    rng = np.random.default_rng(seed)
    n = 160
    age = rng.integers(18, 80, n)
    zips = rng.integers(10000, 10100, n).astype(float)
    zips[rng.random(n) < 0.1] = np.nan
    sex = rng.choice(["F", "M", "Fx", "m", "x_y"], n).astype(object)
    sex[rng.random(n) < 0.1] = None
    score = np.round(rng.normal(50, 20, n), 1)
    member = rng.random(n) < 0.4
    salary = rng.integers(-20, 200, n) * 10
    frame = pl.DataFrame(
        {
            "age": age,
            "zip": pl.Series(zips).fill_nan(None).cast(pl.Int64),
            "sex": pl.Series(sex.tolist(), dtype=pl.String),
            "score": score,
            "member": member,
            "salary": salary,
        }
    )
    key = age + rng.normal(0, 3 if seed % 2 else 40, n)  # correlated or scattered groups
    order = np.argsort(key, kind="stable")
    groups = np.empty(n, dtype=np.int64)
    pos, g = 0, 0
    while pos < n:
        size = int(rng.integers(1, 7))
        groups[order[pos : pos + size]] = g
        pos, g = pos + size, g + 1
    sa_g, sa_lo, sa_hi = [], [], []
    for gi in range(g):
        vals = salary[groups == gi].astype(float)
        width = rng.integers(0, 40, vals.size) if rng.random() < 0.2 else np.zeros(vals.size)
        lo, hi = vals - width, vals + width[::-1] if width.any() else vals
        fakes = rng.integers(-20, 200, int(rng.integers(0, 3))) * 10.0 if rng.random() < 0.2 else []
        sa_g += [gi] * (vals.size + len(fakes))
        sa_lo += [*lo, *fakes]
        sa_hi += [*np.maximum(hi, vals), *fakes]
    sa = pl.DataFrame(
        {"group_id": sa_g, "lo": sa_lo, "hi": sa_hi},
        schema={"group_id": pl.Int64, "lo": pl.Float64, "hi": pl.Float64},
    ).sort("group_id", "lo")
    qi = frame.drop("salary").select(
        pl.Series("tuple_id", np.arange(n, dtype=np.int64)),
        pl.all(),
        pl.Series("group_id", groups),
    )
    release = PermutationRelease(qi=qi, sa=sa, sensitive="salary", kind="numeric")
    release.validate()
    boxes = qi.group_by("group_id").agg(
        pl.col("age").min().alias("alo"),
        pl.col("age").max().alias("ahi"),
        pl.col("score").min().alias("slo"),
        pl.col("score").max().alias("shi"),
    )
    labels = {}
    for r in boxes.iter_rows(named=True):
        labels[r["group_id"]] = {
            "age": (r["alo"] - int(rng.integers(0, 5)), r["ahi"] + int(rng.integers(0, 5))),
            "score": "*" if rng.random() < 0.3 else (r["slo"] - 1.0, r["shi"] + 0.5),
            "sex": "*" if rng.random() < 0.5 else ["F", "M", "Fx", "m", "x_y"],
            "zip": "100*",
        }
    return frame, release, labels


def _random_condition(rng: np.random.Generator, depth: int = 0) -> str:
    if depth < 2 and rng.random() < 0.45:
        op = rng.choice(["AND", "OR"])
        left = _random_condition(rng, depth + 1)
        right = _random_condition(rng, depth + 1)
        cond = f"({left} {op} {right})"
        return f"NOT {cond}" if rng.random() < 0.15 else cond
    a = int(rng.integers(15, 85))
    b = a + int(rng.integers(0, 25))
    cmp = str(rng.choice(["=", "<>", "<", "<=", ">", ">="]))
    atoms = [
        f"age {cmp} {a}",
        f"age BETWEEN {a} AND {b}",
        f"age NOT BETWEEN {a} AND {b}",
        f"age IN ({a}, {b}, {a + 1})",
        f"zip {cmp} {10000 + a}",
        "zip IS NULL",
        "zip IS NOT NULL",
        f"zip - 10000 < {a}",
        f"sex {cmp} '{rng.choice(['F', 'M', 'Fx', 'G'])}'",
        "sex IN ('F', 'x_y')",
        "sex NOT IN ('M', 'm')",
        f"sex LIKE '{rng.choice(['F%', '%x%', '_', 'x_y', '%'])}'",
        "sex ILIKE 'f%'",
        f"score {cmp} {a}.5",
        f"score * 2 <= {2 * a}.3",
        f"score / 4 > {a / 4}",
        f"-score < -{a}",
        f"age + score > {a + 40}",
        "member",
        "NOT member",
        "member = TRUE",
        "age > NULL",
    ]
    return str(rng.choice(atoms))


def _random_queries(seed: int, count: int) -> list[str]:
    rng = np.random.default_rng(10_000 + seed)
    out = []
    for _ in range(count):
        agg = str(
            rng.choice(["COUNT(*)", "SUM(salary)", "AVG(salary)", "MIN(salary)", "MAX(salary)"])
        )
        where = "" if rng.random() < 0.05 else f" WHERE {_random_condition(rng)}"
        out.append(f"SELECT {agg} FROM t{where}")
    return out


def _true_answer(frame: pl.DataFrame, release: PermutationRelease, sql: str) -> float | None:
    parsed = parse_aggregate_query(sql, release)
    sel = frame.filter(to_polars(parsed.where))["salary"]
    if parsed.aggregate == "COUNT":
        return float(sel.len())
    if sel.len() == 0:
        return None
    return float(
        {"SUM": sel.sum, "AVG": sel.mean, "MIN": sel.min, "MAX": sel.max}[parsed.aggregate]()
    )


def _key(a):
    return (
        a.lower,
        a.upper,
        a.exact,
        a.hits,
        a.groups_touched,
        a.generalized,
        a.generalized_covered,
        a.generalized_partial,
    )


SEEDS = range(5)
PER_SEED = 60  # 300 random queries in all


def _within(lo, hi, value, slack=1e-9):
    return lo - slack * max(1, abs(lo)) <= value <= hi + slack * max(1, abs(hi))


def test_random_queries_duckdb_equals_python_and_bounds_hold():
    for seed in SEEDS:
        frame, release, labels = _random_case(seed)
        coarse = Generalization.from_labels(release, labels)
        with QueryEngine("duckdb") as duck, QueryEngine("python") as ref:
            for sql in _random_queries(seed, PER_SEED):
                d, p = duck.query(release, sql), ref.query(release, sql)
                assert _key(d) == _key(p), sql
                truth = _true_answer(frame, release, sql)
                if truth is None:
                    assert d.lower is None and d.hits == 0, sql
                else:
                    assert _within(d.lower, d.upper, truth), (sql, truth, d)
                for gb in (
                    d.generalized,
                    duck.query(release, sql, generalization=coarse).generalized,
                ):
                    # Theorem 2: the generalized bounds contain the permuted bounds
                    if d.lower is not None:
                        assert gb.lower is not None, sql
                        assert _within(gb.lower, gb.upper, d.lower), (sql, gb, d)
                        assert _within(gb.lower, gb.upper, d.upper), (sql, gb, d)


def test_random_queries_postgres_equals_python(postgres_dsn):
    for seed in SEEDS:
        _, release, labels = _random_case(seed)
        coarse = Generalization.from_labels(release, labels)
        with QueryEngine(dsn=postgres_dsn) as pg, QueryEngine("python") as ref:
            for sql in _random_queries(seed, PER_SEED):
                assert _key(pg.query(release, sql)) == _key(ref.query(release, sql)), sql
            a = pg.query(release, "SELECT SUM(salary) FROM t WHERE age < 40", generalization=coarse)
            b = ref.query(
                release, "SELECT SUM(salary) FROM t WHERE age < 40", generalization=coarse
            )
            assert _key(a) == _key(b)


def test_postgres_tables_are_dropped_on_close(postgres_dsn, table21):
    import psycopg

    with psycopg.connect(postgres_dsn, autocommit=True) as con:
        eng = QueryEngine(connection=con, backend="postgres")
        names = eng.table_names(table21)
        assert eng.query(table21, Q2).lower == 530 * K
        eng.close()
        left = con.execute(
            "SELECT count(*) FROM pg_class WHERE relname = ANY(%s)", [list(names.values())]
        ).fetchone()[0]
        assert left == 0 and not con.closed


def test_categorical_release_counts_exactly(engine):
    qi = pl.DataFrame({"tuple_id": [0, 1, 2, 3], "age": [20, 30, 40, 50], "group_id": [0, 0, 1, 1]})
    sa = pl.DataFrame(
        {"group_id": [0, 0, 1, 1], "value": ["flu", "hiv", "flu", "cold"], "count": [1, 1, 1, 1]}
    )
    rel = PermutationRelease(qi=qi, sa=sa, sensitive="disease", kind="categorical")
    a = engine.query(rel, "SELECT COUNT(*) FROM t WHERE age >= 30")
    assert (a.lower, a.exact, a.groups_touched) == (3.0, 3.0, 2)
    assert (a.generalized.lower, a.generalized.upper) == (2.0, 4.0)
    with pytest.raises(ConfigError, match="categorical"):
        engine.query(rel, "SELECT MIN(disease) FROM t")


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("sql", "fragments"),
    [
        ("SELEC SUM(salary) FROM t", ["cannot parse", "SELEC SUM"]),
        ("SELECT SUM(salary) FROM t WHERE", ["cannot parse"]),
        ("SELECT SUM(salary) FROM t GROUP BY age", ["GROUP"]),
        ("SELECT SUM(salary) FROM t JOIN u ON t.age = u.age", ["JOIN"]),
        ("SELECT SUM(salary), COUNT(*) FROM t", ["2 select items"]),
        ("SELECT age FROM t", ["not an aggregate"]),
        ("SELECT SUM(salary) FROM t ORDER BY 1 LIMIT 3", ["LIMIT", "ORDER"]),
        ("SELECT SUM(salary) FROM (SELECT * FROM t)", ["FROM clause must name one table"]),
        ("SELECT SUM(salary) FROM t; SELECT 1", ["2 statements"]),
        ("DELETE FROM t", ["DELETE"]),
        ("SELECT SUM(age) FROM t", ["must be the sensitive attribute 'salary'", "SUM(salary)"]),
        ("SELECT COUNT(DISTINCT salary) FROM t", ["DISTINCT"]),
        (
            "SELECT SUM(salary) FROM t WHERE height > 3",
            ["unknown column 'height'", "age, zipcode, gender"],
        ),
        ("SELECT SUM(salary) FROM t WHERE group_id = 1", ["not a quasi-identifier"]),
        ("SELECT SUM(salary) FROM t WHERE u.age > 3", ["refers to table 'u'"]),
        ("SELECT SUM(salary) FROM t WHERE age = 'x'", ["compares numeric with string"]),
        ("SELECT SUM(salary) FROM t WHERE age LIKE '3%'", ["LIKE on non-text"]),
        ("SELECT SUM(salary) FROM t WHERE abs(age) > 3", ["not supported in WHERE"]),
        ("SELECT SUM(salary) FROM t WHERE age IN (SELECT 1)", ["subquery"]),
        ("SELECT SUM(salary) FROM t WHERE age", ["is not a condition"]),
        ("SELECT SUM(salary) FROM t WHERE gender LIKE 'a\\%'", ["backslash"]),
    ],
)
def test_bad_queries(table21, sql, fragments):
    with pytest.raises(ConfigError) as info:
        parse_aggregate_query(sql, table21)
    message = str(info.value)
    assert repr(sql) in message
    for fragment in fragments:
        assert fragment in message, message


@pytest.mark.parametrize(
    "where", ["salary > 60000", "age > 40 AND SALARY < 3", 't."salary" = 1', "salary IS NULL"]
)
def test_sensitive_attribute_in_where_is_refused(table21, where):
    with pytest.raises(ConfigError) as info:
        bounded_query(table21, f"SELECT AVG(salary) FROM t WHERE {where}")
    assert (
        "the sensitive attribute salary cannot appear in WHERE: its link to tuples is "
        "hidden by the permutation; filter on quasi-identifiers only"
    ) in str(info.value)


def test_dsn_that_cannot_connect(table21):
    dsn = "postgresql://alice:s3cret@127.0.0.1:1/nodb?connect_timeout=3"
    with pytest.raises(InputError) as info:
        bounded_query(table21, Q2, dsn=dsn)
    message = str(info.value)
    assert "cannot connect to PostgreSQL at postgresql://alice:***@127.0.0.1:1/nodb" in message
    assert "s3cret" not in message
    assert "refused" in message.lower() or "failed" in message.lower()


def test_bad_dsn_syntax_and_backend_options(table21):
    with pytest.raises(InputError, match="password=\\*\\*\\*"):
        QueryEngine(dsn="host=/nonexistent password=hunter2 bogus_option=1")
    with pytest.raises(ConfigError, match="DSN is for the postgres backend"):
        QueryEngine("duckdb", dsn="postgresql://x@localhost/db")
    with pytest.raises(ConfigError, match="needs a DSN"):
        QueryEngine("postgres")
    with pytest.raises(ConfigError, match="backend 'sqlite'"):
        QueryEngine("sqlite")


def test_mask_dsn():
    assert mask_dsn("postgresql://u:p@h:5/d") == "postgresql://u:***@h:5/d"
    assert mask_dsn("postgresql://u@h/d") == "postgresql://u@h/d"
    assert mask_dsn("host=h password='a b' user=u") == "host=h password=*** user=u"


def test_generalization_labels_must_cover_the_data(table21):
    bad = TABLE_2_2.with_columns(pl.Series("age", ["[31-39]", "[41-50]", "[51-60]"]))
    with pytest.raises(InputError, match="does not contain the value 40"):
        Generalization.from_labels(table21, bad)
    with pytest.raises(InputError, match="no row for group"):
        Generalization.from_labels(table21, {0: {"age": "*"}})
    with pytest.raises(InputError, match="unknown column"):
        Generalization.from_labels(table21, {g: {"height": "*"} for g in range(3)})
    with pytest.raises(InputError, match="does not contain the value 'F'"):
        Generalization.from_labels(table21, {0: {}, 1: {"gender": "M"}, 2: {}})


def test_odd_column_names_and_types(engine):
    """Quoted mixed-case / hyphenated names, Categorical, Float32, Int8 and Boolean QIs."""
    qi = pl.DataFrame(
        {
            "tuple_id": list(range(6)),
            "Marital-Status": pl.Series(["a", "b", "a", "c", "b", "a"], dtype=pl.Categorical),
            "Hours": pl.Series([10.5, 20.25, 30.0, 40.0, 50.5, 60.0], dtype=pl.Float32),
            "kids": pl.Series([0, 1, 2, 0, 1, 3], dtype=pl.Int8),
            "owner": [True, False, True, True, False, None],
            "group_id": [0, 0, 1, 1, 2, 2],
        }
    )
    sa = pl.DataFrame(
        {"group_id": [0, 0, 1, 1, 2, 2], "lo": [1.0, 2, 3, 4, 5, 6], "hi": [1.0, 2, 3, 4, 5, 6]}
    )
    rel = PermutationRelease(qi=qi, sa=sa, sensitive="Income", kind="numeric")
    sql = (
        'SELECT SUM(income) FROM t AS x WHERE (x."Marital-Status" = \'a\' OR hours > 45.25) '
        "AND kids * 2 <= 4 AND owner IS NOT NULL"
    )
    a = engine.query(rel, sql)
    # selected rows: 0 (a), 2 (a), 3 (hours 40 no, status c) ✗, 4 (50.5 > 45.25) → groups 0, 1, 2
    assert (a.hits, a.groups_touched) == (3, 3)
    assert (a.lower, a.upper) == (1 + 3 + 5, 2 + 4 + 6)
    assert engine.query(rel, "SELECT COUNT(*) FROM t WHERE owner").exact == 3
    with pytest.raises(ConfigError, match="unknown column 'marital-status'"):
        engine.query(rel, 'SELECT COUNT(*) FROM t WHERE "marital-status" = \'a\'')
