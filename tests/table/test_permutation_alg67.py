"""Algorithms 6 and 7 of seed 001 Ch. 5 as their own functions: MinGenUniformOneGrp (one group
per maximal requirement domain) and MinGenUniformMultiGrp (Algorithm 6 per QI group)."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.table.permutation import (
    min_gen_uniform_multi_group,
    min_gen_uniform_one_group,
)
from privlab.table.permutation.personalized import (
    exact_ppp,
    is_valid,
    min_sor_td,
    personalized_release,
)
from privlab.table.permutation.target import SAHierarchy

H8 = SAHierarchy.balanced(range(1, 9))


def test_algorithm_6_hand_case():
    # values 1, 3 requiring [1–4] (height 2) and 6 requiring itself: big domains [1–4], {6};
    # uniform on [1–4] for {1, 3}: {1–2, 3–4} (ranges 1 + 1); 6 stays exact
    res = min_gen_uniform_one_group([1, 3, 6], [2, 2, 0], H8)
    assert res.method == "MinGenUniformOneGrp"
    assert sorted(map(sorted, res.groups)) == [[0, 1], [2]]
    assert res.cost == 2 and is_valid(res, [1, 3, 6], [2, 2, 0], H8)
    subs = sorted(tuple(map(float, d)) for g in range(2) for d in res.subdomains(g))
    assert subs == [(1, 2), (3, 4), (6, 6)]


def test_algorithm_6_on_counterexample_1():
    # L5823–5900: {(1, 1–8) × 4, (2, 2), …, (8, 8)} gives {1..8} ∪ {1–8}×3 (cost 21)
    values = [1] * 4 + list(range(2, 9))
    req = [(1, 8)] * 4 + [(v, v) for v in range(2, 9)]
    res = min_gen_uniform_one_group(values, req, H8)
    assert len(res.groups) == 1 and res.cost == 21
    assert min_sor_td(values, req, H8).cost == res.cost


def test_algorithm_7_hand_case():
    # QI groups {0, 1} and {2, 3}; each alone: 1 and 2 needing [1–2] → exact {1, 2}, cost 0;
    # 1 and 1 needing [1–2] → both to [1–2], cost 2
    values, req = [1, 2, 1, 1], [1, 1, 1, 1]
    res = min_gen_uniform_multi_group(values, req, H8, ["a", "a", "b", "b"])
    assert res.method == "MinGenUniformMultiGrp" and res.cost == 2
    assert sorted(map(sorted, res.groups)) == [[0, 1], [2, 3]]
    assert is_valid(res, values, req, H8)
    # one group (Algorithm 6) mixes them: {1, 2, 1, 1} needs uniform on [1–2]: cost 2 too
    assert min_gen_uniform_one_group(values, req, H8).cost == 2


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 8), st.integers(0, 3), st.sampled_from("xyz")),
        min_size=1,
        max_size=6,
    )
)
def test_algorithm_7_valid_never_mixes_keys_and_never_beats_exact(rows):
    values, heights, keys = (list(c) for c in zip(*rows, strict=True))
    res = min_gen_uniform_multi_group(values, heights, H8, keys)
    assert is_valid(res, values, heights, H8)
    for g in res.groups:
        assert len({keys[i] for i in g}) == 1
    assert res.cost >= exact_ppp(values, heights, H8).cost - 1e-9
    one = min_gen_uniform_one_group(values, heights, H8)
    assert is_valid(one, values, heights, H8)


def test_release_by_qi_groups():
    df = pl.DataFrame({"zip": ["a", "a", "b", "b"], "v": [1, 2, 1, 1], "h": [1, 1, 1, 1]})
    rel = personalized_release(
        df, qi=["zip"], sensitive="v", requirements="h", hierarchy=H8, method="qi-groups"
    )
    assert rel.parameters["method"] == "MinGenUniformMultiGrp"
    assert rel.parameters["sum_of_ranges"] == 2
    g = rel.qi["group_id"].to_numpy()
    z = rel.qi["zip"].to_numpy()
    assert all(len(set(z[g == k])) == 1 for k in np.unique(g))
