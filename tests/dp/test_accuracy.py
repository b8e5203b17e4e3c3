"""Accuracy of DP answers: exact tails, minimal margins, empirical coverage, mean intervals."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.dp import accuracy as acc
from privlab.dp.accuracy import Noise, mean_error_bound, ratio_interval
from privlab.dp.mechanisms import gaussian, laplace
from privlab.dp.noise import discrete_gaussian, discrete_laplace, secure_generator
from privlab.dp.queries import clamped_mean, clamped_sum, count, histogram
from privlab.errors import ConfigError

DRAWS = 20_000


def _binomial_ok(hits: int, n: int, p: float, sds: float = 4.5) -> bool:
    return abs(hits - n * p) <= sds * math.sqrt(n * p * (1 - p)) + 1


def _dlap_pmf(t: float, z: np.ndarray) -> np.ndarray:
    p = math.exp(-1 / t)
    return (1 - p) / (1 + p) * p ** np.abs(z)


def _dgauss_pmf(sigma: float, z: np.ndarray) -> np.ndarray:
    support = np.arange(-int(50 * sigma) - 5, int(50 * sigma) + 6)
    norm = np.exp(-(support.astype(float) ** 2) / (2 * sigma**2)).sum()
    return np.exp(-(z.astype(float) ** 2) / (2 * sigma**2)) / norm


@pytest.mark.parametrize("t", [0.3, 1.0, 2.5, 17.0])
def test_discrete_laplace_tail_is_the_summed_mass_and_the_margin_is_minimal(t):
    noise = Noise("discrete_laplace", t)
    z = np.arange(-4000, 4001)
    pmf = _dlap_pmf(t, z)
    for k in (0, 1, 3, 10):
        assert noise.tail(k) == pytest.approx(pmf[np.abs(z) > k].sum(), rel=1e-9, abs=1e-300)
    for level in (0.5, 0.9, 0.95, 0.99):
        m = int(noise.margin(level))
        assert noise.tail(m) <= 1 - level  # covers
        assert m == 0 or noise.tail(m - 1) > 1 - level  # and no smaller margin does
        assert noise.coverage(level) == pytest.approx(1 - noise.tail(m))


@pytest.mark.parametrize("sigma", [0.4, 1.0, 3.3, 25.0])
def test_discrete_gaussian_tail_is_the_summed_mass_and_the_margin_is_minimal(sigma):
    noise = Noise("discrete_gaussian", sigma)
    z = np.arange(-int(50 * sigma) - 5, int(50 * sigma) + 6)
    pmf = _dgauss_pmf(sigma, z)
    for k in (0, 1, 2, int(2 * sigma)):
        assert noise.tail(k) == pytest.approx(pmf[np.abs(z) > k].sum(), rel=1e-9)
    for level in (0.8, 0.95, 0.999):
        m = int(noise.margin(level))
        assert noise.tail(m) <= 1 - level
        assert m == 0 or noise.tail(m - 1) > 1 - level


def test_large_sigma_bound_is_above_the_exact_tail_and_close_to_it():
    sigma = acc.EXACT_SIGMA / 2  # still summed exactly: compare the bound with it
    for k in (0, int(sigma), int(1.96 * sigma), int(3 * sigma)):
        exact = acc._dgauss_tail(sigma, k)
        bound = acc._normal_tail(sigma, k)
        assert exact <= bound <= exact + 2 / sigma**2
    big = Noise("discrete_gaussian", 3 * acc.EXACT_SIGMA)
    m = big.margin()
    assert not big.exact
    assert m == pytest.approx(1.959964 * 3 * acc.EXACT_SIGMA, rel=1e-5)


def test_continuous_margins_are_the_textbook_quantiles():
    assert Noise("laplace", 2.0).margin(0.95) == pytest.approx(2 * math.log(20))
    assert Noise("gaussian", 3.0).margin(0.95) == pytest.approx(3 * 1.959963984540054)
    assert Noise("laplace", 1.0).tail(math.log(20)) == pytest.approx(0.05)


@pytest.mark.parametrize(
    ("noise", "sampler"),
    [
        (Noise("discrete_laplace", 2.0), lambda rng: discrete_laplace(2, DRAWS, rng=rng)),
        (Noise("discrete_gaussian", 3.0), lambda rng: discrete_gaussian(9, DRAWS, rng=rng)),
    ],
)
def test_empirical_distribution_matches_the_exact_cdf(noise, sampler):
    draws = np.asarray(sampler(np.random.default_rng(11)))
    m = int(noise.margin(0.95))
    hits = int(np.count_nonzero(np.abs(draws) <= m))
    assert _binomial_ok(hits, DRAWS, noise.coverage(0.95))
    # chi-square of |Z| binned 0, 1, ..., K−1, ≥ K against the exact tails
    edges = [k for k in range(40) if noise.tail(k) * DRAWS >= 5]
    k_max = edges[-1]
    expected = [1 - noise.tail(0)]
    expected += [noise.tail(k - 1) - noise.tail(k) for k in range(1, k_max + 1)]
    expected.append(noise.tail(k_max))
    observed = [np.count_nonzero(np.abs(draws) == k) for k in range(k_max + 1)]
    observed.append(np.count_nonzero(np.abs(draws) > k_max))
    _, p_value = stats.chisquare(observed, np.asarray(expected) * DRAWS)
    assert p_value > 1e-4


def _covered(release, truth) -> float:
    low, high = acc.interval(release.value, release.accuracy)
    low, high = np.asarray(low), np.asarray(high)
    return float(np.mean((low <= truth) & (truth <= high)))


@pytest.mark.parametrize("delta", [0.0, 1e-6])
def test_histogram_intervals_cover_at_the_stated_rate(delta):
    truth = np.arange(DRAWS) % 7
    codes = np.repeat(np.arange(DRAWS), truth)
    r = histogram(codes, DRAWS, 0.5, delta=delta, seed=5)
    rate = _covered(r, truth)
    assert r.accuracy["exact"] and r.accuracy["coverage"] >= 0.95
    assert _binomial_ok(round(rate * DRAWS), DRAWS, r.accuracy["coverage"])


@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_real_valued_intervals_cover_at_the_stated_rate(mechanism):
    truth = np.random.default_rng(3).uniform(-5, 5, DRAWS)
    if mechanism == "laplace":
        r = laplace(truth, 4.0, 2.0, seed=6)
    else:
        r = gaussian(truth, 4.0, 2.0, 1e-5, seed=6)
    assert r.accuracy["rounding"] == r.parameters["grid"] / 2
    rate = _covered(r, truth)
    assert _binomial_ok(round(rate * DRAWS), DRAWS, r.accuracy["coverage"])


def test_count_and_sum_records_carry_scale_and_interval():
    r = count(np.zeros(40), 0.5, seed=1)
    d = r.to_dict()
    assert d["accuracy"]["scale"] == 2.0 and d["accuracy"]["exact"]
    assert d["accuracy"]["ci_low"] == r.value - d["accuracy"]["margin"]
    assert {"value", "epsilon", "delta", "mechanism", "parameters", "insecure_seed"} <= set(d)
    s = clamped_sum(np.arange(10), 0, 5, 1.0, seed=2)  # an integer sum keeps its accuracy
    assert s.accuracy["noise"] == "discrete_laplace" and s.accuracy["scale"] == 5.0
    low, high = acc.interval(s.value, s.accuracy)
    assert high - low == 2 * s.accuracy["margin"]


def test_mean_interval_covers_at_least_the_level():
    rng = secure_generator(8)
    values = np.random.default_rng(9).uniform(0, 10, 30)
    truth = values.mean()
    trials = 600
    hits = 0
    for _ in range(trials):
        r = clamped_mean(values, 0, 10, 1.0, seed=rng)
        hits += r.accuracy["ci_low"] <= truth <= r.accuracy["ci_high"]
        assert 0 <= r.accuracy["ci_low"] <= r.value <= r.accuracy["ci_high"] <= 10
    assert hits >= trials * 0.95 - 4.5 * math.sqrt(trials * 0.05 * 0.95)


def test_ratio_interval_by_hand_and_when_the_count_says_nothing():
    assert ratio_interval(100, 10, 10, 2, 0, 100) == pytest.approx((90 / 12, 110 / 8))
    assert ratio_interval(100, 10, 10, 2, 0, 10) == (7.5, 10.0)  # clipped to [L, U]
    assert ratio_interval(5, -3, 1, 2, -1, 4) == (-1.0, 4.0)  # Ñ + m_N < 1
    lo, hi = ratio_interval(-50, 10, 5, 1, -100, 100)
    assert lo == pytest.approx(-55 / 9) and hi == pytest.approx(-45 / 11)
    # one call for many groups gives each group's own interval
    sums, counts = np.array([100, 100, 5, -50]), np.array([10, 10, -3, 10])
    lows, highs = ratio_interval(sums, counts, 10, 2, -100, 100)
    for i, (s, n) in enumerate(zip(sums, counts, strict=True)):
        assert (lows[i], highs[i]) == ratio_interval(int(s), int(n), 10, 2, -100, 100)


@given(
    n=st.integers(1, 200),
    ms=st.floats(0, 50),
    mc=st.integers(0, 20),
    bounds=st.tuples(st.floats(-20, 20), st.floats(0.1, 30)),
)
@settings(max_examples=60, deadline=None)
def test_mean_error_bound_holds_for_every_noise_inside_the_margins(n, ms, mc, bounds):
    low, high = bounds[0], bounds[0] + bounds[1]
    bound = mean_error_bound(n, ms, mc, low, high)
    for mu in (low, high, (low + high) / 2):
        for e_s in (-ms, 0.0, ms):
            for e_n in range(-mc, mc + 1):
                if n + e_n < 1:
                    continue
                released = min(max((mu * n + e_s) / (n + e_n), low), high)
                assert abs(released - mu) <= bound + 1e-9


def test_bad_parameters_are_config_errors():
    with pytest.raises(ConfigError, match="confidence"):
        Noise("laplace", 1.0).margin(1.0)
    with pytest.raises(ConfigError, match="confidence"):
        Noise("laplace", 1.0).margin(0)
    with pytest.raises(ConfigError, match="noise kind"):
        Noise("cauchy", 1.0)
    with pytest.raises(ConfigError, match="scale"):
        Noise("gaussian", -1.0)
