"""Anatomy (Xiao & Tao 2006): ℓ-diverse groups, every row accounted for, count bounds."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.table.permutation import (
    PermutationRelease,
    anatomy,
    anatomy_count_bounds,
    anatomy_groups,
)


@st.composite
def eligible_codes(draw):
    l = draw(st.integers(2, 5))  # noqa: E741
    n_values = draw(st.integers(l, 9))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = draw(st.integers(l, 120))
    codes = rng.integers(0, n_values, n)
    # make it eligible: cap every value at ⌊n/l⌋ rows by recoding the excess round-robin
    cap = n // l
    counts = np.zeros(n_values, dtype=int)
    for i, c in enumerate(codes):
        if counts[c] >= cap:
            c = int(np.argmin(counts))
            codes[i] = c
        counts[c] += 1
    return codes, l, seed


@given(eligible_codes())
@settings(max_examples=100, deadline=None)
def test_groups_are_l_diverse_and_cover_every_row(case):
    codes, l, seed = case  # noqa: E741
    if np.bincount(codes).max() * l > codes.size:
        with pytest.raises(InfeasibleError):
            anatomy_groups(codes, l, seed)
        return
    g = anatomy_groups(codes, l, seed)
    assert g.shape == codes.shape and (g >= 0).all()
    n_groups = g.max() + 1
    assert n_groups == codes.size // l  # one group per l rows, residue spread
    for gid in range(n_groups):
        vals = codes[g == gid]
        assert vals.size >= l
        assert np.unique(vals).size == vals.size  # all different: ℓ-diverse in every sense


def test_release_tables_and_count_bounds():
    rng = np.random.default_rng(7)
    n = 600
    frame = pl.DataFrame(
        {
            "age": rng.integers(18, 90, n),
            "sex": rng.choice(["F", "M"], n),
            "disease": rng.choice(["flu", "hiv", "cold", "ulcer", "gastritis"], n),
        }
    )
    rel = anatomy(frame, qi=["age", "sex"], sensitive="disease", l=4, seed=3)
    assert rel.kind == "categorical" and rel.parameters["l"] == 4
    assert rel.qi.columns == ["tuple_id", "age", "sex", "group_id"]
    assert rel.qi["tuple_id"].to_list() == list(range(n))
    assert rel.sa.columns == ["group_id", "value", "count"]
    # the SA table holds exactly the true multiset of each group
    truth = (
        pl.DataFrame({"group_id": rel.qi["group_id"], "value": frame["disease"][rel.source_rows]})
        .group_by(["group_id", "value"])
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .sort(["group_id", "value"])
    )
    assert rel.sa.equals(truth)
    per_group = rel.sa.group_by("group_id").agg(pl.len(), pl.col("count").max().alias("mx"))
    assert per_group["len"].min() >= 4 and per_group["mx"].max() == 1
    for cond in (
        pl.col("age") > 50,
        pl.col("sex") == "F",
        (pl.col("age") < 30) & (pl.col("sex") == "M"),
    ):
        mask = frame.select(cond.alias("m"))["m"].to_numpy()  # over input rows
        for value in ("flu", "hiv", "ulcer"):
            b = anatomy_count_bounds(rel, cond, value)
            true = int((mask & (frame["disease"] == value).to_numpy()).sum())
            assert b.lower <= true <= b.upper
    # selecting a whole group pins its count
    one = rel.qi["group_id"].to_numpy() == 0
    vals = rel.sa.filter(pl.col("group_id") == 0)["value"].to_list()
    assert anatomy_count_bounds(rel, one, vals[0]).exact == 1


def test_ineligible_input_names_the_value_and_its_count():
    frame = pl.DataFrame({"zip": list(range(10)), "d": ["flu"] * 6 + ["hiv", "cold", "flu", "x"]})
    with pytest.raises(InfeasibleError, match=r"'flu' occurs on 7 rows"):
        anatomy(frame, qi=["zip"], sensitive="d", l=2)
    with pytest.raises(ConfigError, match="l must be an integer ≥ 2"):
        anatomy(frame, qi=["zip"], sensitive="d", l=1)
    with pytest.raises(InputError, match="row 1: column 'd' is missing"):
        anatomy(pl.DataFrame({"zip": [1, 2], "d": ["a", None]}), qi=["zip"], sensitive="d", l=2)
    with pytest.raises(InputError, match="column 'disease' not found"):
        anatomy(frame, qi=["zip"], sensitive="disease", l=2)


def test_anatomy_round_trip(tmp_path):
    frame = pl.DataFrame({"zip": list(range(9)), "d": list("abcabcabc")})
    rel = anatomy(frame, qi=["zip"], sensitive="d", l=3, seed=0)
    back = PermutationRelease.read(rel.write(tmp_path / "a"))
    assert back.kind == "categorical" and back.sa.equals(rel.sa) and back.qi.equals(rel.qi)
    with pytest.raises(ConfigError):
        back.bounds("sum")
