"""Seed 000 §3.2's naive defences failing: query-set-size restriction (differencing and the
tracker) and "a sample is anonymous" (plain linkage of a random sample)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InputError
from privlab.table.attacks.differencing import SizeRestrictedCurator, differencing_attack
from privlab.table.attacks.sample_linkage import sample_linkage_attack
from privlab.table.sample import census_sample

HIV = [0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0]  # 12 people; the target X is row 4 (HIV+)


def test_thesis_example_how_many_are_hiv_minus_how_many_not_named_x():
    curator = SizeRestrictedCurator(HIV, min_size=3, symmetric=False)
    target = np.arange(12) == 4
    r = differencing_attack(curator, target)
    assert r.value == 1.0 and r.method == "difference"  # 4 − 3
    assert [(q.size, q.answered) for q in r.queries] == [(12, True), (11, True)]


def test_symmetric_restriction_falls_to_the_tracker():
    curator = SizeRestrictedCurator(HIV, min_size=3)  # answers 3 ≤ |Q| ≤ 9 only
    target = np.arange(12) == 4
    tracker = np.arange(12) % 2 == 0  # |T| = 6: 2m ≤ 6 ≤ n − 2m
    r = differencing_attack(curator, target, tracker=tracker)
    # by hand: C∨T = T (row 4 is even): rows 0,2,4,6,8,10 sum 1; C∨¬T = odds + row 4:
    # 1+0+1+0+1+0 + 1 = 4; T = 1; ¬T = 3 → 1 + 4 − 1 − 3 = 1
    assert r.value == 1.0 and r.method == "tracker"
    assert [q.answered for q in r.queries] == [False, False, True, True, True, True]
    assert r.to_dict() == {"succeeded": True, "method": "tracker", "queries": 6, "refused": 2}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 1000), min_size=8, max_size=60),
    st.data(),
)
def test_every_value_is_recovered_whatever_the_restriction(values, data):
    n = len(values)
    m = data.draw(st.integers(1, n // 4))
    who = data.draw(st.integers(0, n - 1))
    seed = data.draw(st.integers(0, 2**31))
    curator = SizeRestrictedCurator(values, m, symmetric=data.draw(st.booleans()))
    r = differencing_attack(curator, np.arange(n) == who, seed=seed)
    assert r.value == values[who]
    assert all(q.answered == curator.allowed(q.size) for q in r.queries)


def test_curator_refuses_small_sets_and_names_bad_masks():
    c = SizeRestrictedCurator([1, 2, 3, 4], 2)
    assert c.sum([True, False, False, False]) is None and c.sum([1, 1, 0, 0]) == 3.0
    with pytest.raises(InputError, match="4 rows"):
        c.sum([True])
    with pytest.raises(InputError, match="target"):
        differencing_attack(c, [False] * 4)


def test_a_sample_exposes_the_sampled_hand_example():
    pop = pl.DataFrame({
        "zip": ["1", "1", "2", "3", "3", "4"], "age": ["30", "30", "40", "50", "51", "60"],
        "disease": ["flu", "hiv", "cold", "flu", "hiv", "cold"],
    })  # fmt: skip
    r = sample_linkage_attack(pop, ["zip", "age"], 0.5, sample_rows=[0, 2, 4])
    # row 0 shares (1, 30) with row 1: two candidates in the population, one in the sample
    # → its QIs match one sample row: a claim for rows 0 and 1, right only for row 0.
    # rows 2 and 4 are unique: exposed.  Rows 3 and 5 match nothing.
    assert (r.sampled, r.exposed, r.claims, r.correct_claims) == (3, 3, 4, 3)
    assert r.exposed_rate == 1.0 and r.claim_precision == 0.75


def test_most_sampled_census_records_are_exposed():
    pop = census_sample(3000, seed=5).frame
    qi = ["zip", "age", "sex", "education", "marital-status"]
    for beta in (0.05, 0.3):
        r = sample_linkage_attack(pop, qi, beta, seed=11)
        assert r.sampled > 0 and r.exposed_rate > 0.5  # "fully exposed"
        assert r.claim_precision > 0.5
    # the exposure is a property of the data, not of β: uniqueness in the population bounds it
    counts = pop.group_by(qi).len()
    unique = counts.filter(pl.col("len") == 1).height / pop.height
    assert sample_linkage_attack(pop, qi, 0.3, seed=11).exposed_rate >= unique - 0.05
