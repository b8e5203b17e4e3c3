"""zCDP: composition, the classic and the tighter conversion to (ε, δ), inverses."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.dp import zcdp
from privlab.errors import ConfigError

rhos = st.floats(1e-4, 5.0)
deltas = st.floats(1e-12, 1e-2)


def test_classic_conversion_by_hand():
    # ρ = 0.5, δ = 1e-6: 0.5 + 2·√(0.5·ln 1e6) = 0.5 + 2·√6.9078 = 5.7565
    assert zcdp.epsilon_classic(0.5, 1e-6) == pytest.approx(
        0.5 + 2 * math.sqrt(0.5 * math.log(1e6)), rel=1e-14
    )


def test_pure_and_gaussian_rho():
    assert zcdp.pure_to_rho(1.0) == 0.5
    # σ = 2, Δ = 1: ρ = 1/8
    assert zcdp.gaussian_rho(2.0) == 0.125
    assert zcdp.gaussian_rho(2.0, 3.0) == pytest.approx(9 / 8)
    assert zcdp.compose([0.1, 0.2, 0.3]) == pytest.approx(0.6)


def test_tighter_conversion_by_hand_at_one_order():
    # at the order α the infimum is at most the expression evaluated there
    rho, delta, alpha = 0.1, 1e-5, 10.0
    at_alpha = alpha * rho + (
        math.log(1 / delta) + (alpha - 1) * math.log(1 - 1 / alpha) - math.log(alpha)
    ) / (alpha - 1)
    assert zcdp.epsilon(rho, delta) <= at_alpha + 1e-12
    # ... and is attained near the classic optimum α = 1 + √(ln(1/δ)/ρ)
    grid = [1 + math.exp(t / 200) for t in range(-2000, 2000)]
    best = min(
        a * rho + (math.log(1 / delta) + (a - 1) * math.log(1 - 1 / a) - math.log(a)) / (a - 1)
        for a in grid
    )
    assert best - 1e-5 <= zcdp.epsilon(rho, delta) <= best


@given(rhos, deltas)
@settings(max_examples=60, deadline=None)
def test_tighter_never_above_classic_and_delta_inverts(rho, delta):
    eps = zcdp.epsilon(rho, delta)
    assert 0 <= eps <= zcdp.epsilon_classic(rho, delta) + 1e-12
    if eps > 0:
        assert zcdp.delta(rho, eps) == pytest.approx(delta, rel=1e-5)


@pytest.mark.parametrize(("rho", "delta"), [(0.5, 1e-6), (0.01, 1e-5), (2.0, 1e-9), (0.1, 1e-3)])
def test_against_dp_accounting_rdp_of_a_zcdp_event(rho, delta):
    """dp-accounting applies the same conversion on a grid of orders: never better than ours,
    and within 0.1 %."""
    import dp_accounting
    from dp_accounting import rdp

    acc = rdp.RdpAccountant()
    acc.compose(dp_accounting.ZCDpEvent(rho))
    theirs = acc.get_epsilon(delta)
    ours = zcdp.epsilon(rho, delta)
    assert ours <= theirs + 1e-9
    assert ours == pytest.approx(theirs, rel=1e-3)


def test_rho_for_is_the_largest_rho_within_the_budget():
    rho = zcdp.rho_for(1.0, 1e-6)
    assert zcdp.epsilon(rho, 1e-6) <= 1.0
    assert zcdp.epsilon(rho * (1 + 1e-6), 1e-6) > 1.0 - 1e-9
    # by the classic conversion ρ would be smaller: ρ + 2√(ρ ln 1e6) = 1
    x = (-math.sqrt(math.log(1e6)) + math.sqrt(math.log(1e6) + 1)) ** 2
    assert rho > x


@pytest.mark.parametrize("bad", [-1, float("nan"), float("inf"), "x"])
def test_bad_rho(bad):
    with pytest.raises(ConfigError, match="rho"):
        zcdp.epsilon(bad, 1e-6)


def test_zero_rho_costs_nothing():
    assert zcdp.epsilon(0.0, 1e-6) == 0.0 and zcdp.delta(0.0, 0.5) == 0.0


def test_zero_delta_is_refused():
    with pytest.raises(ConfigError, match="δ > 0"):
        zcdp.epsilon(0.1, 0.0)
