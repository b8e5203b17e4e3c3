"""Mechanisms: calibration, distributions, guarantees carried by every release."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from privlab.dp.mechanisms import (
    Release,
    analytic_gaussian_sigma,
    exponential,
    gaussian,
    geometric,
    laplace,
    randomized_response,
    rr_frequencies,
)
from privlab.errors import ConfigError, InputError


def test_geometric_release_is_integer_and_carries_its_guarantee():
    r = geometric(np.arange(5), 2, 0.5, seed=1)
    assert isinstance(r, Release)
    assert r.value.dtype == np.int64 and r.value.shape == (5,)
    assert (r.epsilon, r.delta, r.mechanism) == (0.5, 0.0, "geometric")
    assert r.parameters["scale"] == 4.0
    assert r.insecure_seed  # fixed seed flagged
    assert not geometric(3, 1, 1.0).insecure_seed
    d = r.to_dict()
    assert d["value"] == r.value.tolist() and d["epsilon"] == 0.5


def test_laplace_picks_exact_integers_or_snapped_reals():
    assert laplace(10, 1, 1.0, seed=2).mechanism == "geometric"
    real = laplace(10.25, 1, 1.0, seed=2)
    assert real.mechanism == "laplace" and isinstance(real.value, float)
    assert (real.value / real.parameters["grid"]).is_integer()


def test_laplace_noise_has_the_right_spread():
    values = np.zeros(100_000)
    noisy = np.asarray(laplace(values, 2.0, 0.5, seed=3).value)
    # scale Δ/ε = 4 per coordinate
    assert stats.kstest(noisy, stats.laplace(scale=4.0).cdf).pvalue > 1e-4


@pytest.mark.parametrize(("eps", "delta"), [(1.0, 1e-5), (0.1, 1e-6), (5.0, 1e-3)])
def test_analytic_gaussian_is_tight(eps, delta):
    from privlab.dp.mechanisms import _gaussian_delta

    sigma = analytic_gaussian_sigma(1.0, eps, delta)
    assert _gaussian_delta(sigma, 1.0, eps) <= delta
    assert _gaussian_delta(sigma * 0.999, 1.0, eps) > delta
    if eps < 1:  # the classical bound is valid (and larger) only for ε < 1
        assert sigma < math.sqrt(2 * math.log(1.25 / delta)) / eps


def test_analytic_gaussian_reference_value():
    # Balle & Wang's calibration for Δ = 1, ε = 1, δ = 1e-5 gives σ ≈ 3.73
    assert analytic_gaussian_sigma(1, 1, 1e-5) == pytest.approx(3.7306, abs=1e-3)


def test_discrete_gaussian_release_meets_delta():
    from fractions import Fraction

    from privlab.dp.mechanisms import _discrete_gaussian_delta

    r = gaussian(np.zeros(3, dtype=np.int64), 1, 1.0, 1e-5, seed=4)
    assert r.mechanism == "discrete_gaussian" and r.delta == 1e-5
    sigma2 = Fraction(r.parameters["sigma"] ** 2)
    assert _discrete_gaussian_delta(sigma2, 1, 1.0) <= 1e-5 * (1 + 1e-9)
    noisy = np.asarray(gaussian(np.zeros(50_000), 1.0, 1.0, 1e-5, seed=5).value)
    assert stats.kstest(noisy, stats.norm(scale=3.7306).cdf).pvalue > 1e-4


def test_gaussian_needs_delta():
    with pytest.raises(ConfigError, match="delta"):
        gaussian(1.0, 1.0, 1.0, 0.0)


def test_permute_and_flip_two_candidates_exact_probabilities():
    # scores (1, 0), Δ = 1, ε = 2: the runner-up is accepted w.p. e^{-1} when visited
    # first, so P(runner-up) = e^{-1}/2.
    picks = np.array([exponential([1, 0], 1, 2.0, seed=i).value for i in range(6000)])
    p = math.exp(-1) / 2
    assert abs(picks.mean() - p) < 5 * math.sqrt(p * (1 - p) / 6000)


def test_exponential_with_real_scores_and_monotonic_flag():
    r = exponential(np.array([0.5, 3.25, 3.0]), 0.5, 1.0, monotonic=True, seed=7)
    assert r.value in (0, 1, 2) and r.parameters["monotonic"]
    # a huge ε always picks the best
    assert exponential(np.array([0.1, 9.0, 8.9]), 1.0, 5000.0, seed=8).value == 1
    with pytest.raises(InputError):
        exponential([], 1, 1.0)


def test_randomized_response_frequencies_and_unbiasing():
    truth = np.repeat(np.arange(4), [50_000, 30_000, 15_000, 5_000])
    r = randomized_response(truth, 4, 1.0, seed=9)
    p = math.e / (math.e + 3)
    assert r.parameters["keep_probability"] == pytest.approx(p)
    kept = (r.value == truth).mean()
    assert abs(kept - p) < 5 * math.sqrt(p * (1 - p) / truth.size)
    est = rr_frequencies(r)
    assert np.allclose(est, [0.5, 0.3, 0.15, 0.05], atol=0.02)


def test_randomized_response_rejects_codes_outside_range():
    with pytest.raises(InputError, match=r"outside 0\.\.2"):
        randomized_response(np.array([0, 3]), 3, 1.0)
    with pytest.raises(ConfigError):
        randomized_response(np.array([0]), 1, 1.0)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: laplace(1.0, 0, 1.0), "sensitivity"),
        (lambda: laplace(1.0, 1, -1.0), "epsilon"),
        (lambda: laplace(np.array([1.0, np.nan]), 1, 1.0), "NaN"),
        (lambda: laplace("a", 1, 1.0), "numbers"),
        (lambda: geometric(1.5, 1, 1.0), "integer"),
    ],
)
def test_bad_input_is_named(call, match):
    with pytest.raises((ConfigError, InputError), match=match):
        call()
