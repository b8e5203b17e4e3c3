"""Pan-private density estimation (seed 000 §2.8) with the noise where the proof needs it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privlab.dp.streams import MAX_EPSILON, DensityEstimator
from privlab.errors import ConfigError, InputError


def test_max_epsilon_is_the_root_of_claim_6_2():
    assert 1 - MAX_EPSILON / 2 - math.exp(-MAX_EPSILON) == pytest.approx(0, abs=1e-13)
    DensityEstimator(10, MAX_EPSILON, seed=0)  # allowed
    with pytest.raises(ConfigError, match=r"1\.5936"):
        DensityEstimator(10, 1.6, seed=0)


def test_estimate_is_unbiased_and_within_its_bound():
    size, seen = 20_000, 6_000
    est = DensityEstimator(size, 1.0, seed=1)
    est.update_many(np.arange(seen))
    est.update_many(np.arange(0, seen, 2))  # repeats only redraw: user-level
    values = [est.estimate() for _ in range(1)]
    bound = est.error_bound(0.999)
    assert abs(values[0] - seen / size) < bound
    # unbiasedness over independent runs
    runs = []
    for seed in range(40):
        e = DensityEstimator(5_000, 1.0, seed=100 + seed)
        e.update_many(np.arange(1_000))
        runs.append(e.estimate())
    sd = np.std(runs) / math.sqrt(len(runs))
    assert abs(np.mean(runs) - 0.2) < 5 * sd


def test_d1_probability_is_rounded_down_and_bits_follow_it():
    est = DensityEstimator(200_000, 1.2, seed=2)
    assert est.p1 <= 0.5 + 1.2 / 4 < est.p1 + 2**-51
    before = est.state
    assert abs(before.mean() - 0.5) < 5 * math.sqrt(0.25 / 200_000)
    est.update_many(np.arange(200_000))
    after = est.state
    assert abs(after.mean() - est.p1) < 5 * math.sqrt(0.25 / 200_000)
    after[:] = False  # the state property is a copy: the estimator is untouched
    assert est.state.mean() > 0.7


def test_guarantee_grows_with_each_output():
    est = DensityEstimator(["a", "b", "c"], 0.5, seed=3)
    assert est.guarantee.epsilon == 0.5
    est.update("b")
    est.estimate()
    assert est.guarantee.epsilon == pytest.approx(1.0)  # 2ε pan privacy after one output
    est.estimate()
    assert est.guarantee.epsilon == pytest.approx(1.5)
    assert est.insecure_seed and not DensityEstimator(3, 0.5).insecure_seed


def test_unknown_items_are_refused_counted_but_not_shown():
    est = DensityEstimator(["a", "b"], 0.5, seed=4)
    with pytest.raises(InputError, match=r"1 item\(s\) of the batch not in the universe") as err:
        est.update_many(["a", "zebra-secret"])
    assert "zebra-secret" not in str(err.value) and "position" not in str(err.value)
    est2 = DensityEstimator(5, 0.5, seed=4)
    with pytest.raises(InputError, match="outside the universe"):
        est2.update(7)
    with pytest.raises(ConfigError, match="distinct"):
        DensityEstimator(["a", "a"], 0.5)
