"""The empirical DP audit: it catches a broken mechanism, and privlab's releases pass it.

Every audit states its confidence: ``beta`` = 1e-3, so a correct mechanism shows a
violation with probability ≤ 0.1 % (the seeds are fixed, so the tests are deterministic).
Neighbours add one unit with its maximal contribution (a row at the clamping bound).
"""

from __future__ import annotations

import numpy as np
import pytest

from privlab.dp.empirical_audit import audit, clopper_pearson_upper, empirical_epsilon
from privlab.dp.exponential import private_quantile
from privlab.dp.mechanisms import gaussian, geometric, laplace
from privlab.dp.quantiles import grouped_quantiles, joint_quantiles, private_quantiles
from privlab.dp.queries import clamped_mean, clamped_sum, count
from privlab.errors import ConfigError, InputError

BETA = 1e-3


def _geometric(epsilon):
    return lambda d, n, rng: geometric(np.full(n, d), 1, epsilon, seed=rng).value


def _laplace(epsilon):
    return lambda d, n, rng: laplace(np.full(n, d), 1.0, epsilon, seed=rng).value


def _replicated_quantile(q, max_rows, candidates=21):
    """n groups that each hold the data set: n independent draws in one vectorized call."""

    def run(d, n, rng):
        d = np.asarray(d, dtype=float)
        codes = np.repeat(np.arange(n), d.size)
        release = grouped_quantiles(codes, n, np.tile(d, n), [q], 0, 10, 1.0,
                                    candidates=candidates, max_rows=max_rows, seed=rng)  # fmt: skip
        return release.value[:, 0]

    return run


def test_clopper_pearson_upper_by_hand():
    # no success in n trials: the bound solves (1 − p)^n = α
    assert clopper_pearson_upper(0, 100, 0.05) == pytest.approx(1 - 0.05 ** (1 / 100))
    assert clopper_pearson_upper(100, 100, 0.05) == 1.0
    assert clopper_pearson_upper(50, 100, 0.05) > 0.5


def test_bound_on_two_known_coins():
    # P[1] = 0.1 under D, 0.9 under D': the best test has ε = ln 9 ≈ 2.197
    rng = np.random.default_rng(0)
    a, b = rng.random(200_000) < 0.1, rng.random(200_000) < 0.9
    r = empirical_epsilon(a.astype(int), b.astype(int), epsilon=1.0, beta=BETA, seed=1)
    assert 2.0 < r.epsilon_lower <= np.log(9) and r.violation
    assert r.confidence == 1 - BETA and r.to_dict()["violation"] is True


@pytest.mark.parametrize("distinguisher", ["threshold", "likelihood"])
@pytest.mark.parametrize("make", [_geometric, _laplace])
def test_noise_four_times_too_small_is_caught(make, distinguisher):
    r = audit(make(4.0), 0, 1, epsilon=1.0, samples=50_000, batched=True, beta=BETA,
              distinguisher=distinguisher, seed=2)  # fmt: skip
    assert r.violation and r.epsilon_lower > 2.5


@pytest.mark.parametrize("distinguisher", ["threshold", "likelihood"])
@pytest.mark.parametrize("make", [_geometric, _laplace])
def test_correct_noise_passes_and_the_bound_is_close(make, distinguisher):
    r = audit(make(1.0), 0, 1, epsilon=1.0, samples=100_000, batched=True, beta=BETA,
              distinguisher=distinguisher, seed=3)  # fmt: skip
    assert not r.violation and r.epsilon_lower > 0.8  # tight: the audit has power


def test_discrete_gaussian_with_delta_passes():
    run = lambda d, n, rng: gaussian(np.full(n, d), 1, 1.0, 1e-5, seed=rng).value  # noqa: E731
    r = audit(run, 0, 1, epsilon=1.0, delta=1e-5, samples=20_000, batched=True, beta=BETA,
              seed=4)  # fmt: skip
    assert not r.violation and r.delta == 1e-5


D = np.array([3, 7, 1, 9, 4, 5, 6])
D_PLUS = np.append(D, 10)  # one more row, at the upper clamping bound


@pytest.mark.parametrize(
    "name, run",
    [
        ("count", lambda d, rng: count(d, 1.0, seed=rng).value),
        ("sum", lambda d, rng: clamped_sum(d, 0, 10, 1.0, seed=rng).value),
        ("mean", lambda d, rng: clamped_mean(d, 0, 10, 1.0, seed=rng).value),
        ("quantile", lambda d, rng: private_quantile(d, 0, 10, 1.0, seed=rng).value),
        ("quantiles", lambda d, rng: private_quantiles(d, 0, 10, [0.5, 0.9], 1.0, seed=rng).value),
        ("joint", lambda d, rng: joint_quantiles(d, 0, 10, [0.25, 0.75], 1.0, candidates=11,
                                                 seed=rng).value),
    ],
)
def test_privlab_queries_end_to_end_pass(name, run):
    # the real query functions, one call per run (slow: few samples, a loose bound)
    stat = (lambda o: o[:, 0] + 100 * o[:, 1]) if name in ("quantiles", "joint") else None
    r = audit(run, D, D_PLUS, epsilon=1.0, samples=200, statistic=stat, beta=BETA,
              distinguisher="likelihood", bins=20, seed=5)  # fmt: skip
    assert not r.violation, r.to_dict()


@pytest.mark.parametrize(
    "query, exact",
    [
        (lambda d, rng: count(d, 1.0, seed=rng), len),
        (lambda d, rng: clamped_sum(d, 0, 10, 1.0, seed=rng), lambda d: int(np.sum(d))),
    ],
)
def test_query_noise_at_its_stated_sensitivity_passes(query, exact):
    # many runs at once: the exact answer plus the noise of the sensitivity the query states
    # (a query understating its sensitivity fails here)
    def run(d, n, rng):
        stated = query(d, rng).parameters["sensitivity"]
        return geometric(np.full(n, exact(d)), int(stated), 1.0, seed=rng).value

    r = audit(run, D, D_PLUS, epsilon=1.0, samples=50_000, batched=True, beta=BETA, seed=8)
    assert not r.violation and r.epsilon_lower > 0.7


@pytest.mark.parametrize("q", [0.5, 0.9])
def test_grouped_quantile_passes(q):
    r = audit(_replicated_quantile(q, 1), D, D_PLUS, epsilon=1.0, samples=50_000,
              batched=True, beta=BETA, distinguisher="likelihood", seed=6)  # fmt: skip
    assert not r.violation and r.epsilon_lower > 0.1


def test_grouped_quantile_contribution_bound_matters():
    # a unit adding four rows breaks the max_rows = 1 claim, and passes with max_rows = 4
    four = np.append(D, [10, 10, 10, 10])
    broken = audit(_replicated_quantile(0.5, 1), D, four, epsilon=1.0, samples=50_000,
                   batched=True, beta=BETA, seed=7)  # fmt: skip
    bounded = audit(_replicated_quantile(0.5, 4), D, four, epsilon=1.0, samples=50_000,
                    batched=True, beta=BETA, seed=7)  # fmt: skip
    assert broken.violation and broken.epsilon_lower > 1.5
    assert not bounded.violation


def test_bad_input():
    with pytest.raises(ConfigError, match="mechanism"):
        audit("laplace", 0, 1, epsilon=1.0)
    with pytest.raises(ConfigError, match="samples"):
        audit(_geometric(1.0), 0, 1, epsilon=1.0, samples=10, batched=True)
    with pytest.raises(InputError, match="statistic"):
        audit(lambda d, n, rng: np.zeros((n, 2)), 0, 1, epsilon=1.0, samples=100, batched=True)
    with pytest.raises(ConfigError, match="distinguisher"):
        empirical_epsilon(np.zeros(50), np.ones(50), epsilon=1.0, distinguisher="svm")
    with pytest.raises(ConfigError, match="beta"):
        empirical_epsilon(np.zeros(50), np.ones(50), epsilon=1.0, beta=0.9)
    with pytest.raises(InputError, match="at least 20"):
        empirical_epsilon(np.zeros(5), np.ones(5), epsilon=1.0)
    with pytest.raises(InputError, match="NaN"):
        empirical_epsilon(np.full(50, np.nan), np.ones(50), epsilon=1.0)


def test_grouped_quantile_total_row_bound_covers_a_unit_in_two_groups():
    # the unit adds 2 rows to each of two groups: max_rows = 4 (its total) covers the whole
    # release at ε; max_rows = 1 is refuted.  The output is both groups' medians together.
    d0, d1 = np.array([3.0, 7, 1, 9, 4, 5, 6]), np.array([2.0, 8, 5, 5, 6, 3, 1])

    def world(extra):
        return np.append(d0, [10.0] * extra), np.append(d1, [10.0] * extra)

    def mechanism(max_rows):
        def run(d, n, rng):
            one = np.concatenate(d)
            pair = np.repeat([0, 1], [d[0].size, d[1].size])
            codes = (pair[None, :] + 2 * np.arange(n)[:, None]).ravel()
            release = grouped_quantiles(codes, 2 * n, np.tile(one, n), [0.5], 0, 10, 1.0,
                                        candidates=11, max_rows=max_rows, seed=rng)  # fmt: skip
            v = release.value[:, 0]
            return v[0::2] + 100 * v[1::2]

        return run

    for max_rows, refuted in ((4, False), (1, True)):
        r = audit(mechanism(max_rows), world(0), world(2), epsilon=1.0, samples=30_000,
                  batched=True, beta=BETA, distinguisher="likelihood", bins=500,
                  seed=9)  # fmt: skip
        assert r.violation is refuted, (max_rows, r.epsilon_lower)
