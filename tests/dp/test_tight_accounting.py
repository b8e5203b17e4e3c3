"""Tight accounting of mixed ledgers: basic, advanced, zCDP, RDP and PLD bounds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.dp import zcdp
from privlab.dp.accountant import Budget, advanced
from privlab.dp.mechanisms import analytic_gaussian_sigma, gaussian, laplace
from privlab.dp.tight_accounting import (
    PrivacyEvent,
    TightAccountant,
    compose,
    event_of_release,
    laplace_event,
    pure_event,
    zcdp_event,
)
from privlab.errors import BudgetExceeded, ConfigError


def exact_delta_of_pure_composition(k: int, eps: float, target: float) -> float:
    """δ(target) of k-fold ε-randomised response, the worst ε-DP mechanism: the privacy loss
    is ε(k − 2B), B ~ Bin(k, 1/(1 + e^ε)) under P (Kairouz, Oh & Viswanath 2015)."""
    b = np.arange(k + 1)
    loss = eps * (k - 2 * b)
    pmf = stats.binom.pmf(b, k, 1 / (1 + math.exp(eps)))
    return float(np.sum(pmf * np.clip(-np.expm1(target - loss), 0, None)))


def test_basic_and_advanced_by_hand():
    events = [pure_event(0.1, count=50), PrivacyEvent("approximate", 0.5, 1e-7)]
    got = compose(events, 1e-5, methods=("basic", "advanced"))
    assert got.by_method["basic"] == pytest.approx(5.5)
    want = advanced([Budget(0.1)] * 50 + [Budget(0.5, 1e-7)], 1e-5 - 1e-7).epsilon
    assert got.by_method["advanced"] == pytest.approx(want, rel=1e-12)
    assert got.basic == Budget(5.5, 1e-7)


def test_pld_of_pure_events_is_the_optimal_composition():
    """k = 100 ε = 0.1 releases at δ = 1e-6: the PLD bound is valid (the exact δ at it is
    ≤ 1e-6) and tight (0.01 less would need a larger δ)."""
    k, eps, delta = 100, 0.1, 1e-6
    got = compose([pure_event(eps, count=k)], delta)
    assert got.method == "pld"
    pld_eps = got.by_method["pld"]
    assert exact_delta_of_pure_composition(k, eps, pld_eps) <= delta * (1 + 1e-9)
    assert exact_delta_of_pure_composition(k, eps, pld_eps - 0.01) > delta
    assert pld_eps < got.by_method["zcdp"] < got.by_method["advanced"] < k * eps


def test_gaussian_event_matches_the_analytic_gaussian():
    """One Gaussian of σ calibrated to (1, 1e-5) by Balle & Wang's exact condition is
    (≈1, 1e-5)-DP by the PLD too — two independent computations of the same curve."""
    sigma = analytic_gaussian_sigma(1.0, 1.0, 1e-5)
    event = PrivacyEvent("gaussian", 1.0, 1e-5, noise_multiplier=sigma)
    got = compose([event], 1e-5, methods=("pld",))
    assert got.epsilon == pytest.approx(1.0, abs=2e-3)
    # zCDP: ρ = 1/(2σ²), converted
    z = compose([event], 1e-5, methods=("zcdp",))
    assert z.epsilon == pytest.approx(zcdp.epsilon(1 / (2 * sigma**2), 1e-5), rel=1e-12)


def test_rdp_matches_dp_accounting_for_poisson_subsampled_gaussian():
    import dp_accounting
    from dp_accounting import rdp

    q, sigma, steps = 0.01, 1.1, 500
    ev = PrivacyEvent("gaussian", 5.0, 1e-6, noise_multiplier=sigma, sampling_rate=q, count=steps)
    ours = compose([ev], 1e-5, methods=("rdp",)).epsilon
    acc = rdp.RdpAccountant()
    inner = dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma))
    acc.compose(dp_accounting.SelfComposedDpEvent(inner, steps))
    assert ours == pytest.approx(acc.get_epsilon(1e-5), rel=1e-12)
    # sampling helps: far below 500 unsampled steps
    plain = PrivacyEvent("gaussian", 5.0, 1e-6, noise_multiplier=sigma, count=steps)
    assert ours < compose([plain], 1e-5, methods=("rdp",)).epsilon / 5


def test_sampled_pure_event_is_amplified_as_li_qardaji_su():
    ev = pure_event(1.0, sampling_rate=0.1)
    assert ev.amplified.epsilon == pytest.approx(math.log(1 + 0.1 * math.expm1(1.0)), rel=1e-14)
    assert compose([ev], 0.0).by_method["basic"] == pytest.approx(ev.amplified.epsilon)


def test_zcdp_method_splits_delta_with_events_it_cannot_take():
    events = [zcdp_event(0.05, 1e-6), PrivacyEvent("approximate", 0.3, 2e-6)]
    got = compose(events, 1e-5, methods=("zcdp",))
    assert got.epsilon == pytest.approx(0.3 + zcdp.epsilon(0.05, 1e-5 - 2e-6), rel=1e-12)


def test_laplace_event_is_tighter_than_a_generic_pure_one():
    """Continuous Laplace noise has a smaller privacy-loss tail than ε-randomised response."""
    lap = compose([laplace_event(10.0, count=50)], 1e-6, methods=("pld",)).epsilon
    generic = compose([pure_event(0.1, count=50)], 1e-6, methods=("pld",)).epsilon
    assert lap < generic < 5.0


events = st.lists(
    st.one_of(
        st.builds(pure_event, st.floats(0.01, 1.0), count=st.integers(1, 5)),
        st.builds(laplace_event, st.floats(1.0, 50.0), count=st.integers(1, 5)),
        st.builds(pure_event, st.floats(0.01, 2.0), sampling_rate=st.floats(0.01, 1.0)),
        st.builds(laplace_event, st.floats(0.5, 20.0), sampling_rate=st.floats(0.01, 1.0)),
        st.builds(PrivacyEvent, st.just("approximate"), st.floats(0.01, 1.0), st.floats(0, 1e-7)),
        st.builds(zcdp_event, st.floats(1e-3, 0.5), st.just(1e-7)),
    ),
    min_size=1,
    max_size=5,
)


@given(events, st.sampled_from([1e-6, 1e-5, 1e-3]))
@settings(max_examples=30, deadline=None)
def test_tight_is_never_above_basic(ledger, delta):
    got = compose(ledger, delta, value_discretization_interval=1e-3)
    basic = sum(e.count * e.amplified.epsilon for e in ledger)
    if got.basic.delta <= delta:
        assert got.epsilon <= basic * (1 + 1e-12)
        # the PLD bound itself (not only the minimum) is within its discretisation of basic
        runs = sum(e.count for e in ledger)
        pld = got.by_method["pld"]
        assert pld is None or pld <= basic + runs * 1e-3 + 1e-9
        assert pld is not None or all(e.kind == "zcdp" for e in ledger)
    assert got.epsilon == min(v for v in got.by_method.values() if v is not None)


def test_accountant_refuses_and_records_nothing():
    acc = TightAccountant(Budget(1.0, 1e-6))
    for _ in range(4):
        acc.charge(pure_event(0.25, label="count"))
    with pytest.raises(BudgetExceeded, match="'sum'"):
        acc.charge(pure_event(0.25, label="sum"))
    assert len(acc.events) == 4
    # many small releases fit where basic composition would refuse them: 200 × 0.01 = 2
    many = TightAccountant(Budget(1.0, 1e-6))
    many.charge(pure_event(0.01, count=200, label="small"))
    assert many.spent.method in ("pld", "zcdp", "rdp") and many.spent.epsilon <= 1.0


def test_event_of_release():
    lap = laplace(np.int64(5), 1, 0.5, seed=1)
    assert event_of_release(lap).kind == "pure"
    dg = gaussian(np.int64(5), 1, 0.5, 1e-6, seed=1)
    ev = event_of_release(dg)
    assert ev.kind == "zcdp" and ev.rho == pytest.approx(1 / (2 * dg.parameters["sigma"] ** 2))
    cont = gaussian(5.5, 1.0, 0.5, 1e-6, seed=1)
    assert event_of_release(cont).kind == "approximate"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"kind": "magic", "epsilon": 1}, "kind"),
        ({"kind": "pure", "epsilon": 0}, "ε"),
        ({"kind": "pure", "epsilon": 1, "delta": 1e-6}, "δ = 0"),
        ({"kind": "gaussian", "epsilon": 1, "delta": 1e-6}, "noise_multiplier"),
        ({"kind": "zcdp", "epsilon": 1, "delta": 1e-6}, "rho"),
        ({"kind": "zcdp", "epsilon": 1, "delta": 1e-6, "rho": 0.1, "sampling_rate": 0.5}, "zCDP"),
        ({"kind": "pure", "epsilon": 1, "sampling_rate": 1.5}, "sampling_rate"),
        ({"kind": "pure", "epsilon": 1, "count": 0}, "count"),
    ],
)
def test_bad_events(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        PrivacyEvent(**kwargs)


def test_no_method_applies():
    with pytest.raises(BudgetExceeded, match="larger δ"):
        compose([PrivacyEvent("approximate", 1.0, 1e-3)], 1e-6, methods=("basic", "advanced"))
