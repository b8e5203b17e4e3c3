"""Li, Qardaji & Su (seed 003): non-composition (§2.6), fresh sampling (§2.7), Prop. 1 (§3.2)."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.dp.dps import (
    apply_generalization,
    fresh_sampling,
    parity_noncomposition,
    proposition_1,
)
from privlab.dp.sampling import achieved, delta
from privlab.errors import ConfigError

# ----------------------------------------------------------------------------- §2.6


def test_parity_hand_computed_four_tuples():
    """n = 4 (2 male, 2 female), β = ½, no threshold, negligible noise (ε = 50).

    M ~ Bin(2, ½); F = F_other + extra ~ Bin(1, ½) + Bern(½).  On D the event needs M = F and
    then A₂ = 0 + noise ≥ 0 with probability ½: P[M = F] = ¼² + ½² + ¼² = 3/8, so 3/16.
    On D': t unsampled (½): M = F_other, P = (¼ + ½)·½ = 3/8 → ×½ = 3/16; t sampled (½):
    A₁ = ¬r, event = M > F_other + 1 = P[M = 2]·P[F_other = 0] = 1/8.  Total ½·3/16 + ½·1/8.
    """
    r = parity_noncomposition(4, 0.5, threshold=0, epsilon=50.0, trials=100_000, seed=3)
    assert r.exact_d == pytest.approx(3 / 16, abs=1e-12)
    assert r.exact_d_prime == pytest.approx(0.5 * 3 / 16 + 0.5 * 1 / 8, abs=1e-12)
    assert r.simulated_d == pytest.approx(r.exact_d, abs=0.01)
    assert r.simulated_d_prime == pytest.approx(r.exact_d_prime, abs=0.01)
    assert json.loads(json.dumps(r.to_dict()))["event"]["with_t"]["exact"] == r.exact_d_prime


def test_parity_seed_example_is_about_zero_against_a_quarter():
    """The seed's numbers: 10,000 tuples, β = ½, threshold 1000: ≈ 0 against ≈ ¼."""
    r = parity_noncomposition(10_000, 0.5, threshold=1000, epsilon=1.0, trials=40_000, seed=7)
    assert r.exact_d < 0.01 and r.exact_d_prime == pytest.approx(0.25, abs=0.005)
    assert r.simulated_d < 0.015 and r.simulated_d_prime == pytest.approx(0.25, abs=0.01)
    # each mechanism alone barely tells D from D' (A₂ not at all: same gender counts)
    assert r.a1_false_d == pytest.approx(r.a1_false_d_prime, abs=0.01)
    assert r.a2_high_d == pytest.approx(r.a2_high_d_prime, abs=1e-12)
    # the composed event: a ratio no small ε can cover
    assert r.exact_d_prime / r.exact_d > 30


@settings(max_examples=25, deadline=None)
@given(half=st.integers(2, 40), beta=st.floats(0.05, 0.95), eps=st.floats(0.1, 5.0))
def test_parity_a2_alone_is_identical_and_probabilities_are_probabilities(half, beta, eps):
    r = parity_noncomposition(2 * half, beta, threshold=0, epsilon=eps, trials=10, seed=0)
    for p in (r.exact_d, r.exact_d_prime, r.a1_false_d, r.a1_false_d_prime):
        assert -1e-12 <= p <= 1 + 1e-12
    assert r.a2_high_d == pytest.approx(r.a2_high_d_prime, abs=1e-12)
    # the event is a sub-event of "A₁ = false"
    assert r.exact_d <= r.a1_false_d + 1e-12 and r.exact_d_prime <= r.a1_false_d_prime + 1e-12


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [({"n": 5}, "even"), ({"n": 2}, "n = 2"), ({"beta": 1.0}, "beta"), ({"epsilon": 0}, "epsilon")],
)
def test_parity_rejects_bad_parameters(kwargs, fragment):
    with pytest.raises(ConfigError, match=fragment):
        parity_noncomposition(**kwargs)


# ----------------------------------------------------------------------------- §2.7


def test_fresh_sampling_seed_example():
    """50 × β = 0.2 with a (0.2, 0.02, 0)-DPS mechanism: (1, 0)-DP; 0.8⁵⁰ ≈ 1.43×10⁻⁵."""
    f = fresh_sampling(0.2, 50, 0.02)
    assert f.total.epsilon == pytest.approx(1.0) and f.total.delta == 0
    assert f.miss_probability == pytest.approx(0.8**50) and f.miss_probability < 1.5e-5
    assert f.expected_missed(10_000) == pytest.approx(10_000 * 0.8**50)
    assert f.all_covered_probability(10_000) == pytest.approx((1 - 0.8**50) ** 10_000)


def test_fresh_sampling_runs_rounds_on_fresh_samples():
    data = np.arange(2000)
    f = fresh_sampling(0.2, 5, 0.5, data=data, mechanism=lambda s: s.copy(), seed=1)
    assert len(f.outputs) == 5
    sizes = [o.size for o in f.outputs]
    assert all(300 < s < 500 for s in sizes)  # ≈ 400 each
    assert not all(np.array_equal(f.outputs[0], o) for o in f.outputs[1:])  # fresh samples


def test_fresh_sampling_with_safe_k_anonymization_composes_delta():
    per = achieved(1.0, 0.2, 20)
    f = fresh_sampling(0.2, 50, per.epsilon, per.delta)
    assert f.total.epsilon == pytest.approx(50.0)
    assert f.total.delta == pytest.approx(50 * delta(20, 0.2, 1.0))


@settings(max_examples=40, deadline=None)
@given(beta=st.floats(0.01, 0.99), rounds=st.integers(1, 200), eps=st.floats(0.001, 2.0))
def test_fresh_sampling_total_is_rounds_times_each(beta, rounds, eps):
    f = fresh_sampling(beta, rounds, eps)
    assert f.total.epsilon == pytest.approx(rounds * eps)
    assert 0 <= f.miss_probability <= 1 - beta + 1e-15


@pytest.mark.parametrize(
    ("args", "kwargs", "fragment"),
    [
        ((0.2, 0, 1.0), {}, "rounds"),
        ((1.0, 5, 1.0), {}, "beta"),
        ((0.2, 5, 1.0, 0.3), {}, "δ < β"),
        ((0.2, 5, 1.0), {"data": [1, 2]}, "both"),
    ],
)
def test_fresh_sampling_rejects_bad_parameters(args, kwargs, fragment):
    with pytest.raises(ConfigError, match=fragment):
        fresh_sampling(*args, **kwargs)


# ----------------------------------------------------------------------------- §3.2


def test_apply_removes_keys_below_k():
    assert apply_generalization(["a", "a", "a", "b", "b", "c"], 2) == Counter({"a": 3, "b": 2})


def test_proposition_1_hand_case():
    p = proposition_1(5)  # n = 6 > k
    assert p.output_d == {"g(t)": 6} and p.output_d_minus_t == {"g(t)": 5}
    assert (p.prob_d, p.prob_d_minus_t, p.min_delta) == (1.0, 0.0, 1.0)
    # n = k: removing t suppresses the whole group
    q = proposition_1(5, 5, others=["x"] * 7)
    assert q.output_d == {"g(t)": 5, "x": 7} and q.output_d_minus_t == {"x": 7}
    # sampling first restores a small δ (Theorem 3.9)
    r = proposition_1(20, beta=0.2, epsilon=1.0)
    assert r.delta_with_sampling == pytest.approx(6.03e-9, rel=5e-3)  # Table 2's cell


@settings(max_examples=40, deadline=None)
@given(k=st.integers(1, 30), extra=st.integers(0, 30), others=st.lists(st.sampled_from("xyz")))
def test_proposition_1_no_delta_below_one(k, extra, others):
    p = proposition_1(k, k + extra, others=others)
    assert p.output_d != p.output_d_minus_t and p.min_delta == 1.0
    assert all(c >= k for c in p.output_d.values())
