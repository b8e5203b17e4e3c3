"""A categorical sensitive attribute for target distributions, cardinality as the range
(seed 001 §3.3 footnote): hand cases, optimality against brute force, P-privacy."""

from __future__ import annotations

import itertools
from collections import Counter

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.table.permutation import (
    CategoricalHierarchy,
    categorical_target_release,
    min_sum_of_cardinality,
)
from privlab.table.permutation.target import is_p_private
from privlab.table.permutation.target_categorical import sum_of_cardinality

CATS = ["flu", "cold", "hiv", "cancer"]
H = CategoricalHierarchy.balanced(CATS)  # {flu, cold} | {hiv, cancer}, uniform


def test_hand_case_uniform():
    # {flu, flu, hiv, cancer}, uniform target: the right half is balanced (hiv, cancer stay
    # exact); two flu need a cold partner each → {flu, cold} × 2; Σ cardinality 2+2+1+1
    subs = min_sum_of_cardinality(["flu", "flu", "hiv", "cancer"], H)
    assert Counter(subs) == Counter({("flu", "cold"): 2, ("hiv",): 1, ("cancer",): 1})
    assert sum_of_cardinality(subs) == 6
    # a balanced multiset needs no generalization: Σ cardinality = |g|
    assert sum_of_cardinality(min_sum_of_cardinality(CATS, H)) == 4


def test_nested_with_weights():
    # target: flu 2/3 of the left half; {flu, flu, cold} is then exactly on target
    h = CategoricalHierarchy.from_nested([(3, [(2, "flu"), (1, "cold")]), (1, "hiv")])
    assert h.categories == ("flu", "cold", "hiv")
    subs = min_sum_of_cardinality(["flu", "flu", "cold", "hiv"], h)
    assert sum_of_cardinality(subs) == 4  # every value exact
    subs = min_sum_of_cardinality(["flu", "cold"], h)  # 1:1 is not 2:1 → both to the root
    assert subs == [("flu", "cold", "hiv")] * 2


def brute_force(values, h: CategoricalHierarchy) -> int:
    """Least Σ cardinality over every assignment of a node containing each value."""
    t = h.tree
    codes = h.encode(values)
    options = [[n for n in t.ancestors(int(t.leaf_of[c]))] for c in codes]
    best = None
    for choice in itertools.product(*options):
        subs = [t.subdomain(n) for n in choice]
        if is_p_private(subs, t):
            cost = sum(h.cardinality(n) for n in choice)
            best = cost if best is None else min(best, cost)
    return best


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(CATS), min_size=1, max_size=5))
def test_optimal_and_p_private(values):
    subs = min_sum_of_cardinality(values, H)
    assert sum_of_cardinality(subs) == brute_force(values, H)
    t = H.tree
    coded = [(float(CATS.index(s[0])), float(CATS.index(s[-1]))) for s in subs]
    assert is_p_private(coded, t)
    assert len(subs) == len(values)


def test_release_decodes_and_bad_input():
    df = pl.DataFrame({"zip": [1, 2, 3, 4], "d": ["flu", "flu", "hiv", "cancer"]})
    rel = categorical_target_release(df, qi=["zip"], sensitive="d", hierarchy=H, seed=1)
    assert rel.parameters["categories"] == CATS
    assert rel.parameters["sum_of_cardinality"] == 6
    sets = sorted(H.decode(lo, hi) for lo, hi in rel.sa.select("lo", "hi").iter_rows())
    assert sets == sorted(min_sum_of_cardinality(df["d"], H))
    with pytest.raises(InputError, match="row 1"):
        H.encode(["flu", "measles"])
    with pytest.raises(ConfigError, match="distinct"):
        CategoricalHierarchy.balanced(["a", "a"])
    with pytest.raises(ConfigError, match="CategoricalHierarchy"):
        min_sum_of_cardinality(["flu"], H.tree)
