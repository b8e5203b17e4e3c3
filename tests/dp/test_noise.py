"""Exact samplers match their distributions; parameters are rounded on the safe side."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.dp.noise import (
    bernoulli_exp,
    discrete_gaussian,
    discrete_laplace,
    is_insecure_seed,
    rational_at_least,
    rational_at_most,
    secure_generator,
    snap_gaussian,
    snap_laplace,
)
from privlab.errors import ConfigError

N = 200_000


def _chi_square_p(samples: np.ndarray, pmf) -> float:
    """p-value of a chi-square goodness-of-fit test over the support, tails pooled."""
    lo, hi = int(samples.min()), int(samples.max())
    support = np.arange(lo, hi + 1)
    expected = pmf(support) * samples.size
    observed = np.bincount(samples - lo, minlength=support.size).astype(float)
    keep = expected >= 20
    pooled_obs = np.append(observed[keep], observed[~keep].sum())
    pooled_exp = np.append(expected[keep], samples.size - expected[keep].sum())
    if pooled_exp[-1] < 20:  # merge a thin tail bucket into the last kept one
        pooled_obs = np.append(pooled_obs[:-2], pooled_obs[-2:].sum())
        pooled_exp = np.append(pooled_exp[:-2], pooled_exp[-2:].sum())
    return float(stats.chisquare(pooled_obs, pooled_exp).pvalue)


def _dlap_pmf(scale: float):
    p = math.exp(-1 / scale)
    return lambda z: (1 - p) / (1 + p) * p ** np.abs(z)


def _dgauss_pmf(sigma2: float):
    reach = int(60 * math.sqrt(sigma2)) + 60
    ys = np.arange(-reach, reach + 1)
    norm = np.exp(-(ys**2) / (2 * sigma2)).sum()
    return lambda z: np.exp(-(z.astype(float) ** 2) / (2 * sigma2)) / norm


@pytest.mark.parametrize("scale", [0.3, 1, 2.5, 40])
def test_discrete_laplace_matches_its_pmf(scale):
    samples = discrete_laplace(scale, N, rng=secure_generator(11))
    assert samples.dtype == np.int64
    assert _chi_square_p(samples, _dlap_pmf(scale)) > 1e-4


@pytest.mark.parametrize("sigma2", [0.25, 1, 7.3, 2500.0])
def test_discrete_gaussian_matches_its_pmf(sigma2):
    samples = discrete_gaussian(sigma2, N, rng=secure_generator(12))
    assert _chi_square_p(samples, _dgauss_pmf(sigma2)) > 1e-4


def test_discrete_gaussian_big_integer_path_matches_variance():
    # σ² = 10^8: the acceptance test needs more than int64 and runs on Python integers
    samples = discrete_gaussian(1e8, 20_000, rng=secure_generator(13))
    var = samples.astype(float).var()
    # variance of a sample variance: 2σ⁴/(n−1); 5 standard errors
    assert abs(var - 1e8) < 5 * 1e8 * math.sqrt(2 / 20_000)
    assert abs(samples.mean()) < 5 * 1e4 / math.sqrt(20_000)


@pytest.mark.parametrize(("n", "d"), [(0, 1), (1, 3), (3, 4), (1, 1), (5, 2), (7, 3)])
def test_bernoulli_exp_frequency(n, d):
    draws = bernoulli_exp(np.full(N, n), d, secure_generator(14))
    p = math.exp(-n / d)
    assert abs(draws.mean() - p) < 5 * math.sqrt(p * (1 - p) / N) + 1e-12


def test_bernoulli_exp_with_big_integers():
    n = 10**30 + 7
    d = 2 * 10**30
    draws = bernoulli_exp(
        np.full(50_000, n, dtype=object), np.full(50_000, d, dtype=object), secure_generator(15)
    )
    p = math.exp(-n / d)
    assert abs(draws.mean() - p) < 5 * math.sqrt(p * (1 - p) / 50_000)


def test_bernoulli_exp_rejects_bad_arguments():
    with pytest.raises(ConfigError):
        bernoulli_exp(-1, 2, secure_generator(0))
    with pytest.raises(ConfigError):
        bernoulli_exp(1, 0, secure_generator(0))


@given(st.floats(1e-6, 1e9, allow_nan=False))
@settings(max_examples=200)
def test_rationals_round_on_the_safe_side(x):
    up, down = rational_at_least(x), rational_at_most(x)
    exact = Fraction(x)
    assert down <= exact <= up
    assert up <= exact * (1 + Fraction(1, 2**20))
    assert down >= exact * (1 - Fraction(1, 2**20))
    assert up.denominator < 2**44 and up.numerator < 2**44


def test_rational_errors_name_the_parameter():
    with pytest.raises(ConfigError, match="scale"):
        rational_at_least(0)
    with pytest.raises(ConfigError, match="scale"):
        rational_at_least(float("inf"))
    with pytest.raises(ConfigError, match="epsilon"):
        rational_at_most(-1.0)


def test_snapped_laplace_lands_on_its_grid_and_has_laplace_spread():
    values = np.full(N, 0.3)
    noisy, grid = snap_laplace(values, 1.0, 2.0, rng=secure_generator(16))
    steps = noisy / grid
    assert np.array_equal(steps, np.rint(steps))  # every output is a grid point
    # Laplace(0.5): variance 2·0.5² (plus rounding's < 2^-20 relative)
    assert abs((noisy - 0.3).var() - 0.5) < 0.5 * 5 * math.sqrt(5 / N)
    assert stats.kstest(noisy - 0.3, stats.laplace(scale=0.5).cdf).pvalue > 1e-4


def test_snapped_gaussian_matches_normal():
    noisy, grid = snap_gaussian(np.zeros(20_000), 3.0, 1.0, rng=secure_generator(17))
    assert np.array_equal(noisy / grid, np.rint(noisy / grid))
    assert stats.kstest(noisy, stats.norm(scale=3.0).cdf).pvalue > 1e-4


def test_secure_generator_is_fresh_and_seeds_are_flagged():
    a = secure_generator().integers(0, 2**62, size=4)
    b = secure_generator().integers(0, 2**62, size=4)
    assert not np.array_equal(a, b)
    assert not is_insecure_seed(None)
    assert is_insecure_seed(3)
    rng = np.random.default_rng(0)
    assert secure_generator(rng) is rng
    assert np.array_equal(
        discrete_laplace(2, 10, rng=secure_generator(5)),
        discrete_laplace(2, 10, rng=secure_generator(5)),
    )
