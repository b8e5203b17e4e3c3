"""Mean and variance of all possible answers of a permutation query (seed 001 §2.5.1).

Checked against brute-force enumeration of every permutation inside every group of tiny
releases, and by hand on the worked example (Tables 2.1–2.4, query Q2).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.bounds import GroupedValues
from privlab.errors import ConfigError
from privlab.table.permutation import permute
from privlab.table.query import query_moments

from .seed001_tables import QI, TABLE_2_1


def brute_force(groups: list[list[float]], selected: list[list[bool]], agg: str):
    """Every combination of one permutation per group: the answers' mean and variance."""
    answers = []
    for perms in itertools.product(*(itertools.permutations(g) for g in groups)):
        picked = [
            v
            for perm, sel in zip(perms, selected, strict=True)
            for v, s in zip(perm, sel, strict=True)
            if s
        ]
        total = sum(picked)
        answers.append(total / len(picked) if agg == "avg" else total)
    a = np.array(answers)
    return a.mean(), a.var()


def grouped(groups: list[list[float]]) -> GroupedValues:
    gid = [i for i, g in enumerate(groups) for _ in g]
    return GroupedValues.from_groups(gid, [v for g in groups for v in g])


def test_q2_by_hand():
    # Q2 selects 3, 3 and 2 rows of {54,55,56}K, {65,70,75}K, {75,80,85}K.  Groups 1–2 are
    # fully covered (variance 0); two of {75,80,85} sum to 155, 160 or 165 (mean 160,
    # variance (25 + 0 + 25)/3).
    gv = grouped([[54, 55, 56], [65, 70, 75], [75, 80, 85]])
    mom = gv.moments("sum", [3, 3, 2])
    assert mom.mean == pytest.approx(535)
    assert mom.variance == pytest.approx(50 / 3)
    avg = gv.moments("avg", [3, 3, 2])
    assert avg.mean == pytest.approx(535 / 8)
    assert avg.variance == pytest.approx(50 / 3 / 64)
    assert gv.moments("count", [3, 3, 2]).to_dict() == {
        "aggregate": "count",
        "mean": 8.0,
        "variance": 0.0,
        "std": 0.0,
    }
    none = gv.moments("sum", [0, 0, 0])
    assert none.mean is None and none.variance is None and none.std is None


@pytest.mark.parametrize(
    ("groups", "selected"),
    [
        ([[1, 2, 3, 10]], [[True, False, True, False]]),
        ([[5, 5, 9], [0, 4, 4, 8]], [[True, False, False], [False, True, True, True]]),
        (
            [[2, 7], [1, 1, 6], [3, 4, 11]],
            [[True, False], [True, True, False], [False, True, True]],
        ),
    ],
)
@pytest.mark.parametrize("agg", ["sum", "avg"])
def test_matches_enumeration_of_all_permutations(groups, selected, agg):
    hits = [sum(s) for s in selected]
    mom = grouped(groups).moments(agg, hits)
    mean, var = brute_force(groups, selected, agg)
    assert mom.mean == pytest.approx(mean)
    assert mom.variance == pytest.approx(var, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(-20, 20), min_size=1, max_size=4).flatmap(
            lambda g: st.tuples(
                st.just(g), st.lists(st.booleans(), min_size=len(g), max_size=len(g))
            )
        ),
        min_size=1,
        max_size=3,
    ),
    st.sampled_from(["sum", "avg"]),
)
def test_property_equals_brute_force(spec, agg):
    groups = [list(map(float, g)) for g, _ in spec]
    selected = [s for _, s in spec]
    hits = [sum(s) for s in selected]
    mom = grouped(groups).moments(agg, hits)
    if sum(hits) == 0:
        assert mom.mean is None
        return
    mean, var = brute_force(groups, selected, agg)
    assert mom.mean == pytest.approx(mean, abs=1e-9)
    assert mom.variance == pytest.approx(var, abs=1e-9)
    # the mean lies within the deterministic bounds of the same query
    b = grouped(groups).aggregate(agg, hits)
    assert b.lower - 1e-9 <= mom.mean <= b.upper + 1e-9


def test_release_and_sql_query():
    rel = permute(
        TABLE_2_1.drop("name"), qi=QI, sensitive="salary", k=3, e=0, groups=np.repeat([1, 2, 3], 3)
    )
    mom = query_moments(rel, "SELECT SUM(salary) FROM t WHERE age BETWEEN 35 AND 55")
    assert mom.mean == pytest.approx(535_000)
    assert mom.std == pytest.approx(np.sqrt(50 / 3) * 1000)
    assert rel.moments("avg").mean == pytest.approx(TABLE_2_1["salary"].mean())
    assert rel.moments("avg").variance == pytest.approx(0.0, abs=1e-6)  # everything selected


def test_rejects_min_max_and_subdomains():
    gv = grouped([[1, 2, 3]])
    with pytest.raises(ConfigError, match="not min"):
        gv.moments("min", [1])
    sub = GroupedValues.from_groups([0, 0], [1.0, 2.0], [3.0, 2.0])
    with pytest.raises(ConfigError, match="subdomains"):
        sub.moments("sum", [1])


def test_query_without_where_selects_everything():
    rel = permute(
        TABLE_2_1.drop("name"), qi=QI, sensitive="salary", k=3, e=0, groups=np.repeat([1, 2, 3], 3)
    )
    mom = query_moments(rel, "SELECT SUM(salary) FROM t")
    assert mom.mean == pytest.approx(TABLE_2_1["salary"].sum()) and mom.variance == 0
