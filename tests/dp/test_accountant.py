"""Budgets, composition rules and the enforcing accountant."""

from __future__ import annotations

import contextlib
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from privlab.dp.accountant import (
    Accountant,
    Budget,
    advanced,
    amplify,
    parallel,
    sequential,
    unamplify,
)
from privlab.errors import BudgetExceeded, ConfigError

eps = st.floats(1e-4, 5.0)
deltas = st.floats(0.0, 1e-3)


def test_sequential_and_parallel_composition_by_hand():
    a, b = Budget(0.5, 1e-6), Budget(0.25, 2e-6)
    assert sequential([a, b]) == Budget(0.75, 3e-6) == a + b
    assert parallel([a, b]) == Budget(0.5, 2e-6)
    assert parallel([]) == Budget(0.0)


def test_advanced_composition_formula():
    # k = 100 mechanisms of ε = 0.01, δ' = 1e-6: √(2·100·ln 1e6)·0.01 + 100·0.01·(e^0.01 − 1)
    got = advanced([Budget(0.01)] * 100, 1e-6)
    want = math.sqrt(200 * math.log(1e6)) * 0.01 + 100 * 0.01 * math.expm1(0.01)
    assert got.epsilon == pytest.approx(want, rel=1e-12) and got.delta == pytest.approx(1e-6)
    assert got.epsilon < sequential([Budget(0.01)] * 100).epsilon  # 0.536 < 1.0


def test_amplification_matches_li_qardaji_su_theorem_1():
    # β = 0.1, ε = 1: ln(1 + 0.1 (e − 1)) = 0.15773...
    got = amplify(Budget(1.0, 1e-5), 0.1)
    assert got.epsilon == pytest.approx(math.log(1 + 0.1 * (math.e - 1)), rel=1e-14)
    assert got.delta == pytest.approx(1e-6)


@given(eps, deltas, st.floats(1e-3, 0.999))
def test_unamplify_inverts_amplify(e, d, beta):
    target = Budget(e, d * beta)
    back = amplify(unamplify(target, beta), beta)
    assert back.epsilon == pytest.approx(target.epsilon, rel=1e-9)
    assert back.delta == pytest.approx(target.delta, rel=1e-9, abs=1e-300)


@given(eps, st.floats(1e-3, 0.999))
def test_amplification_never_increases_epsilon(e, beta):
    assert amplify(Budget(e), beta).epsilon <= e


def test_accountant_refuses_before_release_and_records_nothing():
    acc = Accountant(Budget(1.0))
    for _ in range(10):
        acc.charge(0.1, label="count")  # ten 0.1 fit in 1.0 despite float sums
    assert acc.spent.epsilon == pytest.approx(1.0)
    with pytest.raises(BudgetExceeded, match="total ε = 1"):
        acc.charge(1e-6)
    assert len(acc.ledger) == 10


def test_spend_runs_the_mechanism_only_within_budget():
    acc = Accountant(Budget(1.0, 1e-6))
    calls = []

    def mechanism(x, *, epsilon, delta=0.0):
        calls.append((x, epsilon, delta))
        return x + 1

    assert acc.spend(mechanism, 1, epsilon=0.6, delta=5e-7) == 2
    with pytest.raises(BudgetExceeded):
        acc.spend(mechanism, 2, epsilon=0.6)
    assert calls == [(1, 0.6, 5e-7)]
    assert acc.ledger[0].label == "mechanism"

    def failing(*, epsilon):
        raise ConfigError("bad data")

    with pytest.raises(ConfigError):
        acc.spend(failing, epsilon=0.1)
    assert len(acc.ledger) == 1  # a mechanism that released nothing costs nothing


def test_delta_is_enforced_too():
    acc = Accountant(Budget(10.0, 1e-6))
    acc.charge(0.1, 1e-6)
    with pytest.raises(BudgetExceeded, match="δ"):
        acc.charge(0.1, 1e-9)
    acc.charge(0.1)  # pure ε still fits


def test_parallel_group_costs_its_most_expensive_partition():
    acc = Accountant(Budget(1.0))
    with acc.parallel("histogram by region"):
        for region in ("north", "south", "east"):
            acc.charge(0.5, label="count", partition=region)
        acc.charge(0.25, label="sum", partition="north")  # north: 0.75 in all
    assert acc.spent.epsilon == pytest.approx(0.75)
    acc.charge(0.25)
    with pytest.raises(BudgetExceeded):
        acc.charge(0.01)


def test_parallel_group_is_checked_while_open():
    acc = Accountant(Budget(1.0))
    with acc.parallel("by age"), pytest.raises(BudgetExceeded):
        acc.charge(0.6, partition="young")
        acc.charge(0.6, partition="young")  # the same partition twice: 1.2
    assert acc.spent.epsilon == pytest.approx(0.6)


def test_partition_only_inside_parallel_and_no_nesting():
    acc = Accountant(Budget(1.0))
    with pytest.raises(ConfigError, match="partition"):
        acc.charge(0.1, partition="a")
    with acc.parallel("g"):
        with pytest.raises(ConfigError, match="partition"):
            acc.charge(0.1)
        with pytest.raises(ConfigError, match="nested"), acc.parallel("h"):
            pass


def test_advanced_accountant_fits_more_small_releases():
    total = Budget(1.0, 1e-5)
    basic = Accountant(total)
    adv = Accountant(total, composition="advanced", delta_slack=1e-5)
    n_basic = n_adv = 0
    while basic.can_afford(0.01):
        basic.charge(0.01)
        n_basic += 1
    while adv.can_afford(0.01):
        adv.charge(0.01)
        n_adv += 1
    assert n_basic == 100
    assert n_adv == 400  # √(2 n ln 1e5)·0.01 + n·0.01·(e^0.01 − 1) ≤ 1 up to n = 400
    assert adv.spent.fits_in(total) and adv.spent.delta == pytest.approx(1e-5)


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: Budget(0.0 - 1), "ε must be"),
        (lambda: Budget(float("nan")), "ε must be"),
        (lambda: Budget(float("inf")), "ε must be"),
        (lambda: Budget(1.0, 1.0), "δ must be in [0, 1)"),
        (lambda: Budget(1.0, -1e-9), "δ must be in [0, 1)"),
        (lambda: amplify(Budget(1.0), 1.0), "β must be in (0, 1)"),
        (lambda: amplify(Budget(1.0), 0.0), "β must be in (0, 1)"),
        (lambda: Accountant(Budget(0.0)), "nothing to spend"),
        (lambda: Accountant(Budget(1.0), composition="renyi"), "'basic' or 'advanced'"),
        (lambda: Accountant(Budget(1.0), composition="advanced"), "0 < δ'"),
        (lambda: Accountant(Budget(1.0)).charge(0.0), "ε must be"),
        (lambda: advanced([Budget(0.1)], 0.0), "slack"),
    ],
)
def test_bad_parameters_are_named(make, fragment):
    with pytest.raises(ConfigError) as info:
        make()
    assert fragment in str(info.value)


@given(st.lists(st.tuples(eps, deltas), min_size=1, max_size=20))
def test_accountant_never_lets_the_spend_exceed_the_total(charges):
    acc = Accountant(Budget(2.0, 5e-3))
    for e, d in charges:
        with contextlib.suppress(BudgetExceeded):
            acc.charge(e, d)
    spent = sequential(c.cost for c in acc.ledger)
    assert spent.epsilon <= 2.0 * (1 + 1e-12) and spent.delta <= 5e-3 * (1 + 1e-12)
