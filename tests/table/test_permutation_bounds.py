"""Bounded aggregates over permutation releases (seed 001 §2.5): the worked example of
Tables 2.1–2.4, the truth always inside the bounds, the release's invariants, and I/O."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.bounds import GroupedValues, combine_help_rows, help_table
from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.table.permutation import (
    PermutationRelease,
    is_ke_anonymous,
    ke_partition,
    permute,
    release_from_groups,
)

from .seed001_tables import QI, TABLE_2_1, TABLE_2_4


def table_2_1() -> pl.DataFrame:
    """Seed 001 Table 2.1 (L490–502), names dropped."""
    return TABLE_2_1.drop("name")


@pytest.fixture
def seed_release() -> PermutationRelease:
    # the partition {1–3}, {4–6}, {7–9} of Tables 2.2/2.3
    return permute(table_2_1(), qi=QI, sensitive="salary", k=3, e=0, groups=np.repeat([1, 2, 3], 3))


# ----------------------------------------------------------------------------- Tables 2.1–2.4


def test_query_1_average_salary_over_50_is_exact(seed_release):
    b = seed_release.bounds("avg", pl.col("age") > 50)
    assert b.lower == b.upper == b.exact == 80_000


def test_query_2_sum_of_salaries_between_35_and_55(seed_release):
    assert seed_release.hits(pl.col("age").is_between(35, 55)).tolist() == [3, 3, 2]
    b = seed_release.bounds("sum", pl.col("age").is_between(35, 55))
    assert (b.lower, b.upper, b.exact) == (530_000, 540_000, None)


def test_query_3_minimum_salary_of_females(seed_release):
    assert seed_release.hits(pl.col("gender") == "F").tolist() == [0, 2, 1]
    b = seed_release.bounds("min", pl.col("gender") == "F")
    assert (b.lower, b.upper) == (65_000, 70_000)
    assert seed_release.bounds("count", pl.col("gender") == "F").exact == 3


def test_help_table_is_table_2_4(seed_release):
    ht = seed_release.help_table()
    k = 1000
    expected = TABLE_2_4  # groups from 0, values in $K
    got = ht.select("group_id", "hits", "sum_lb", "sum_ub", "min_lb", "min_ub").rows()
    assert got == [(g, h, a * k, b * k, c * k, d * k) for g, h, a, b, c, d in expected]
    # MAX columns (not printed in the seed): m-th smallest and the largest value
    assert ht.filter(pl.col("group_id") == 1)["max_lb"].to_list() == [65_000, 70_000, 75_000]
    assert set(ht["max_ub"].to_list()) == {56_000, 75_000, 85_000}


def test_help_table_rows_combine_like_the_sql_rewrite(seed_release):
    ht = seed_release.help_table()
    m = seed_release.hits(pl.col("age").is_between(35, 55))
    sel = ht.join(
        pl.DataFrame({"group_id": np.flatnonzero(m), "hits": m[m > 0]}),
        on=["group_id", "hits"],
    )
    rows = {c: sel[c].to_numpy() for c in sel.columns}
    for agg in ("sum", "avg", "min", "max", "count"):
        assert combine_help_rows(agg, rows, m) == seed_release.bounds(
            agg, pl.col("age").is_between(35, 55)
        )


def test_release_tables_of_the_example(seed_release):
    assert seed_release.qi.columns == ["tuple_id", *QI, "group_id"]
    assert seed_release.qi["tuple_id"].to_list() == list(range(9))
    rows = seed_release.source_rows  # the owner's secret: published row → input row
    assert seed_release.qi["age"].to_list() == table_2_1()["age"][rows].to_list()  # original QIs
    # values per group in ascending order, never in tuple order (group 2 is 65, 75, 70)
    assert seed_release.sa.filter(pl.col("group_id") == 1)["lo"].to_list() == [
        65_000,
        70_000,
        75_000,
    ]
    assert seed_release.parameters["partitioner"] == "given"
    with pytest.raises(InfeasibleError, match="not \\(3, 20000\\)-anonymous"):
        permute(
            table_2_1(), qi=QI, sensitive="salary", k=3, e=20_000, groups=np.repeat([1, 2, 3], 3)
        )


# ----------------------------------------------------------------------------- bounds module


def test_intervals_and_fake_values():
    # group 0 publishes 3 values for 2 rows (one fake), group 1 an interval entry
    gv = GroupedValues.from_groups([0, 0, 0, 1, 1], [5, 1, 3, 10, 0], [5, 1, 3, 12, 2])
    lo, hi = gv.sum_bounds([2, 1])
    assert lo.tolist() == [4, 0] and hi.tolist() == [8, 12]
    assert gv.aggregate("min", [2, 0]).to_dict() == {"lower": 1, "upper": 3, "exact": None}
    assert gv.aggregate("max", [1, 1]).lower == 1 and gv.aggregate("max", [1, 1]).upper == 12
    assert gv.aggregate("sum", [0, 0]).lower is None
    assert gv.aggregate("count", [0, 0]).exact == 0
    ht = help_table(gv.offsets, gv.lo, gv.hi, [2, 2])
    assert ht["hits"].tolist() == [1, 2, 1, 2]
    assert ht["sum_ub"].tolist() == [5, 8, 12, 14]
    with pytest.raises(InputError, match="group 0: 4 hits"):
        gv.sum_bounds([4, 0])
    with pytest.raises(ConfigError, match="median"):
        gv.aggregate("median", [1, 1])


@st.composite
def released_table(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(2, 60))
    n_values = draw(st.integers(2, 40))
    sal = rng.integers(0, n_values, n) * 100
    frame = pl.DataFrame(
        {
            "age": rng.integers(18, 80, n),
            "zip": rng.integers(0, 5, n).astype(str),
            "salary": sal,
        }
    )
    k = draw(st.integers(1, 4))
    e = draw(st.sampled_from([0, 100, 300]))
    method = draw(st.sampled_from(["given", "min-sum", "min-max", "max-group", "random", "swap"]))
    return frame, k, e, method, rng


def random_ke_groups(x, k, e, rng):
    """A random partition satisfying (k, e): random labels, infeasible groups merged away."""
    labels = rng.integers(0, max(1, x.size // max(k, 1)), x.size)
    while True:
        _, labels = np.unique(labels, return_inverse=True)
        ok = is_ke_anonymous(x, labels, k, e)
        if ok.all():
            return labels
        bad = int(np.flatnonzero(~ok)[0])
        others = np.flatnonzero(np.arange(ok.size) != bad)
        labels[labels == bad] = rng.choice(others) if others.size else 0


def _true(agg, values):
    if values.size == 0:
        return None
    return {
        "sum": values.sum(),
        "avg": values.mean(),
        "min": values.min(),
        "max": values.max(),
        "count": values.size,
    }[agg]


@given(released_table())
@settings(max_examples=80, deadline=None)
def test_truth_lies_within_the_bounds_on_random_releases(case):
    frame, k, e, method, rng = case
    x = frame["salary"].to_numpy().astype(float)
    if np.unique(x).size < k or np.ptp(x) < e:
        with pytest.raises(InfeasibleError):
            m = "min-sum" if method == "given" else method
            permute(frame, qi=["age", "zip"], sensitive="salary", k=k, e=e, method=m)
        return
    groups = random_ke_groups(x, k, e, rng) if method == "given" else None
    kw = {"groups": groups} if method == "given" else {"method": method, "seed": 1}
    rel = permute(frame, qi=["age", "zip"], sensitive="salary", k=k, e=e, **kw)
    qi = rel.qi
    # every input row exactly once, QIs unchanged
    assert qi["tuple_id"].to_list() == list(range(frame.height))
    rows = rel.source_rows
    assert sorted(rows.tolist()) == list(range(frame.height))
    assert qi["age"].to_list() == frame["age"][rows].to_list()
    g = qi["group_id"].to_numpy()
    x = x[rows]  # the true values in published order
    if method != "swap":
        # per group, the published multiset is the true one, in ascending order; (k,e) holds
        for gid in range(rel.n_groups):
            pub = rel.sa.filter(pl.col("group_id") == gid)
            assert pub["lo"].to_list() == sorted(x[g == gid].tolist())
            assert pub["lo"].to_list() == pub["hi"].to_list()
        assert is_ke_anonymous(x, g, k, e).all()
    for _ in range(6):
        mask = rng.random(frame.height) < rng.random()
        for agg in ("sum", "avg", "min", "max", "count"):
            b = rel.bounds(agg, mask)
            truth = _true(agg, x[mask])
            if truth is None:
                assert b.lower is None if agg != "count" else b.exact == 0
                continue
            if agg == "count":
                assert b.exact == truth
            else:
                assert b.contains(float(truth)), (agg, b, truth)


# ----------------------------------------------------------------------------- I/O


def test_write_read_round_trip(tmp_path, seed_release):
    out = seed_release.write(tmp_path / "rel")
    assert sorted(p.name for p in out.iterdir()) == ["qi.parquet", "release.json", "sa.parquet"]
    back = PermutationRelease.read(out)
    assert back.qi.equals(seed_release.qi) and back.sa.equals(seed_release.sa)
    assert (back.sensitive, back.kind) == ("salary", "numeric")
    assert back.parameters == json.loads(json.dumps(seed_release.parameters))
    assert back.bounds("sum", pl.col("age").is_between(35, 55)).lower == 530_000
    with pytest.raises(ConfigError, match="holds a previous permutation release"):
        seed_release.write(out)
    seed_release.write(out, overwrite=True)
    assert PermutationRelease.read(out).qi.equals(seed_release.qi)
    assert [p.name for p in tmp_path.iterdir()] == ["rel"]  # no temporary leftovers
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(ConfigError, match="not a permutation release"):
        seed_release.write(other, overwrite=True)  # only an earlier release is replaced
    assert [p.name for p in other.iterdir()] == ["notes.txt"]


def test_failed_write_leaves_nothing(tmp_path, seed_release):
    bad = PermutationRelease(
        qi=seed_release.qi,
        sa=seed_release.sa,
        sensitive="salary",
        kind="numeric",
        parameters={"oops": object()},  # not JSON serializable: fails after the parquet files
    )
    with pytest.raises(TypeError):
        bad.write(tmp_path / "rel")
    assert list(tmp_path.iterdir()) == []
    seed_release.write(tmp_path / "keep")
    with pytest.raises(TypeError):
        bad.write(tmp_path / "keep", overwrite=True)
    assert PermutationRelease.read(tmp_path / "keep").qi.equals(seed_release.qi)
    assert [p.name for p in tmp_path.iterdir()] == ["keep"]


def test_read_names_the_file_and_column(tmp_path, seed_release):
    d = seed_release.write(tmp_path / "rel")
    seed_release.sa.drop("hi").write_parquet(d / "sa.parquet")
    with pytest.raises(InputError, match=r"sa\.parquet: column 'hi' missing"):
        PermutationRelease.read(d)
    seed_release.sa.head(7).write_parquet(d / "sa.parquet")
    with pytest.raises(InputError, match=r"group 2 has 3 rows in qi\.parquet but only 1"):
        PermutationRelease.read(d)
    seed_release.sa.write_parquet(d / "sa.parquet")
    seed_release.qi.with_columns(pl.col("group_id").cast(pl.Int32)).write_parquet(d / "qi.parquet")
    with pytest.raises(InputError, match=r"qi\.parquet: column 'group_id' has type Int32"):
        PermutationRelease.read(d)
    (d / "release.json").unlink()
    with pytest.raises(InputError, match=r"release\.json: missing"):
        PermutationRelease.read(d)


# ----------------------------------------------------------------------------- input handling


def test_pandas_input_and_bad_columns():
    pd = pytest.importorskip("pandas")
    df = table_2_1().to_pandas()
    rel = permute(df, qi=QI, sensitive="salary", k=3, e=2000)
    assert rel.n_rows == 9 and rel.parameters["sum_of_error"] == rel.parameters["objective"]
    with pytest.raises(InputError, match="column 'income' not found"):
        permute(df, qi=QI, sensitive="income", k=3, e=0)
    with pytest.raises(InputError, match="column 'town' not found"):
        permute(df, qi=["town"], sensitive="salary", k=3, e=0)
    with pytest.raises(ConfigError, match="both a quasi-identifier and the sensitive"):
        permute(df, qi=["salary"], sensitive="salary", k=3, e=0)
    with pytest.raises(InputError, match=r"'salary': 1 row \(first at row 1\) with a missing"):
        permute(
            pd.DataFrame({"a": [1, 2], "salary": [1.0, None]}),
            qi=["a"],
            sensitive="salary",
            k=1,
            e=0,
        )
    with pytest.raises(InputError, match=r"1 row \(first at row 1\) with a non-numeric value;"):
        permute(
            pl.DataFrame({"a": [1, 2], "salary": ["1", "x"]}),
            qi=["a"],
            sensitive="salary",
            k=1,
            e=0,
        )
    rel = release_from_groups(table_2_1(), qi=QI, sensitive="salary", groups=np.zeros(9, int))
    with pytest.raises(ConfigError, match="sensitive attribute 'salary'"):
        rel.bounds("sum", pl.col("salary") > 3)


def test_swap_release_publishes_intervals_per_row():
    rng = np.random.default_rng(4)
    frame = pl.DataFrame({"age": rng.integers(20, 70, 200), "loss": rng.integers(1, 50, 200) * 10})
    rel = permute(frame, qi=["age"], sensitive="loss", k=3, e=30, method="swap", seed=2)
    assert rel.n_groups == 200 and (rel.sa["lo"] < rel.sa["hi"]).all()
    assert rel.parameters["model"] == "rank-swapping" and rel.parameters["window"] >= 1
    part = ke_partition(frame["loss"], 3, 30, method="swap", seed=2)
    assert np.array_equal(part.lo, rel.sa["lo"].to_numpy())


def test_published_row_order_does_not_follow_the_input_order():
    """Table 2.1 arrives sorted by salary (order correlation ≈ 0.97): publishing its rows in
    input order would let row ids line up with each group's ascending values."""
    frame = table_2_1()
    orders = set()
    for _ in range(20):
        rel = permute(frame, qi=QI, sensitive="salary", k=3, e=0, groups=np.repeat([0, 1, 2], 3))
        assert rel.parameters["order_correlation"] > 0.9
        assert sorted(rel.source_rows.tolist()) == list(range(9))
        assert rel.qi["age"].to_list() == frame["age"][rel.source_rows].to_list()
        orders.add(tuple(rel.source_rows.tolist()))
    assert len(orders) > 15  # fresh secure randomness each time
    a = permute(frame, qi=QI, sensitive="salary", k=3, e=0, groups=np.repeat([0, 1, 2], 3), seed=7)
    b = permute(frame, qi=QI, sensitive="salary", k=3, e=0, groups=np.repeat([0, 1, 2], 3), seed=7)
    assert a.source_rows.tolist() == b.source_rows.tolist() and a.parameters["insecure_seed"]
