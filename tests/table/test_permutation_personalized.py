"""Personalized privacy (seed 001 §2.4, dissertation Ch. 5)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.table.permutation.personalized import (
    PersonalizedResult,
    exact_ppp,
    is_valid,
    min_sor_bu,
    min_sor_td,
    requirement_nodes,
    respects,
)
from privlab.table.permutation.target import SAHierarchy

H4 = SAHierarchy.balanced([1, 2, 3, 4])
H8 = SAHierarchy.balanced(range(1, 9))
H16 = SAHierarchy.balanced(range(1, 17))

# the text's counterexamples (L5823–5870); "(a, b) × c" = c tuples of value a, requirement b
EX1 = ([1] * 4 + list(range(2, 9)), [(1, 8)] * 4 + [(v, v) for v in range(2, 9)], H8)
EX2 = (
    [1, 5, 6, 7, 8, 9, 10, 11, 12, 16],
    [(1, 16)] + [(5, 8)] * 4 + [(9, 12)] * 4 + [(1, 16)],
    H16,
)
EX3 = ([1, 3, 4, 4, 5, 8], [(1, 8), (3, 4), (3, 4), (3, 4), (5, 6), (7, 8)], H8)


def test_def_531_example():
    assert respects([(1, 2), (1, 2), (3, 3), (4, 4)], (3, 4), H4)
    assert respects([(1, 2), (1, 2), (3, 3), (4, 4)], (1, 4), H4)
    assert not respects([(1, 2), (3, 3), (4, 4)], (1, 4), H4)
    assert not respects([(1, 1), (2, 2)], (1, 4), H4)  # 3, 4 have probability 0


def test_requirement_nodes_heights_and_subdomains():
    req = requirement_nodes([1, 3, 8], [0, 1, (1, 8)], H8)
    assert [H8.subdomain(int(r)) for r in req] == [(1, 1), (3, 4), (1, 8)]
    with pytest.raises(InputError, match=r"requirements\[0\] = 4: height must be in 0..3"):
        requirement_nodes([1], [4], H8)
    with pytest.raises(InputError, match="does not contain that row's value"):
        requirement_nodes([1], [(5, 8)], H8)
    with pytest.raises(InputError, match="one per value"):
        requirement_nodes([1, 2], [0], H8)


def _hand(groups, domains, h):
    doms = np.array([h.node_of(lo, hi) for lo, hi in domains])
    cost = float(sum(h.range(int(d)) for d in doms))
    return PersonalizedResult(groups, doms, cost, "hand", h)


def test_counterexample_1_records_gap():
    values, req, h = EX1
    # the text's optimum: {1–4 ×4, 5, 6, 7, 8}, {2}, {3}, {4}: cost 12
    opt = _hand(
        [[0, 1, 2, 3, 7, 8, 9, 10], [4], [5], [6]],
        [(1, 4)] * 4 + [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8)],
        h,
    )
    assert is_valid(opt, values, req, h) and opt.cost == 12
    td, bu = min_sor_td(values, req, h), min_sor_bu(values, req, h)
    assert is_valid(td, values, req, h) and is_valid(bu, values, req, h)
    # both heuristics fall for it (the text: "{1..8}, {1–8}×3"): 21 vs 12
    assert td.cost == bu.cost == 21
    assert sorted(td.subdomains(0)).count((1.0, 8.0)) == 3


def test_counterexample_2_average_saving():
    values, req, h = EX2
    opt = _hand(
        [[0, 9], [1, 2, 3, 4], [5, 6, 7, 8]],
        [(1, 8)] + [(v, v) for v in range(5, 13)] + [(9, 16)],
        h,
    )
    assert is_valid(opt, values, req, h) and opt.cost == 14
    bu = min_sor_bu(values, req, h)
    assert is_valid(bu, values, req, h)
    assert bu.cost == 14  # average saving (8 vs 6) picks {1–8, 9–16} as the text intends
    td = min_sor_td(values, req, h)
    assert is_valid(td, values, req, h) and td.cost == 54


def test_counterexample_3_ties():
    values, req, h = EX3
    exact = exact_ppp(values, req, h)
    bu, td = min_sor_bu(values, req, h), min_sor_td(values, req, h)
    for r in (exact, bu, td):
        assert is_valid(r, values, req, h)
    assert exact.cost == 4 and bu.cost == 4 and td.cost == 18


def test_exact_limit():
    with pytest.raises(ConfigError, match="limited to 8"):
        exact_ppp([*range(1, 9), 1], [0] * 9, H8)


@st.composite
def instances(draw, max_size=6):
    n = draw(st.integers(1, max_size))
    values = draw(st.lists(st.integers(1, 8), min_size=n, max_size=n))
    heights = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return values, heights


@settings(max_examples=30, deadline=None)
@given(inst=instances())
def test_heuristics_valid_and_never_below_exact(inst):
    values, heights = inst
    exact = exact_ppp(values, heights, H8)
    assert is_valid(exact, values, heights, H8)
    for fn in (min_sor_bu, min_sor_td):
        res = fn(values, heights, H8)
        assert is_valid(res, values, heights, H8)
        assert res.cost >= exact.cost - 1e-9


def test_exact_on_singletons_is_zero_and_root_requirements():
    assert exact_ppp([1, 2, 3], [0, 0, 0], H8).cost == 0
    # two values both requiring the whole domain 1..4: cheapest uniform group is {1–2, 3–4}
    res = exact_ppp([1, 3], [2, 2], H4)
    assert res.cost == 2 and is_valid(res, [1, 3], [2, 2], H4)


def test_personalized_release_publishes_groups():
    import polars as pl

    from privlab.table.permutation.personalized import personalized_release

    values, req, h = EX2
    df = pl.DataFrame({"age": list(range(20, 30)), "s": values})
    rel = personalized_release(df, qi="age", sensitive="s", requirements=req, hierarchy=h, seed=4)
    rel.validate()
    assert rel.n_groups == 3 and rel.sa.height == 10
    assert rel.parameters["sum_of_ranges"] == 14
    b = rel.bounds("sum", None)
    assert b.contains(float(sum(values)))
    with pytest.raises(ConfigError, match="method"):
        personalized_release(df, qi="age", sensitive="s", requirements=req, hierarchy=h,
                             method="x")  # fmt: skip
