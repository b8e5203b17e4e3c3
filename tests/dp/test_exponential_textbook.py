"""Textbook exponential mechanism exp(εq/2Δ): discrete (exact sampler) and continuous range."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.dp.exponential import (
    PiecewiseScore,
    exponential_continuous,
    exponential_probabilities,
    exponential_textbook,
    private_quantile,
    quantile_score,
    sample_piecewise,
)
from privlab.dp.mechanisms import exponential
from privlab.errors import ConfigError, InputError


def test_probabilities_hand_computed():
    # ε = 2, Δ = 1: weights exp(q) → scores 0, 1 give 1/(1+e), e/(1+e)
    p = exponential_probabilities([0, 1], 1, 2.0)
    assert p == pytest.approx([1 / (1 + math.e), math.e / (1 + math.e)])
    assert exponential_probabilities([5, 5, 5], 3, 0.1) == pytest.approx([1 / 3] * 3)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-20, 20), min_size=2, max_size=8),
    st.data(),
    st.floats(0.05, 3.0),
)
def test_neighbouring_scores_change_each_probability_by_at_most_e_eps(scores, data, eps):
    shift = data.draw(st.lists(st.sampled_from([-1, 0, 1]), min_size=len(scores),
                               max_size=len(scores)))  # fmt: skip
    p = exponential_probabilities(scores, 1, eps)
    q = exponential_probabilities([a + b for a, b in zip(scores, shift, strict=True)], 1, eps)
    assert np.max(np.abs(np.log(p / q))) <= eps + 1e-9


def _counts(sampler, n_candidates, runs, seed):
    rng = np.random.default_rng(seed)
    counts = np.zeros(n_candidates, dtype=np.int64)
    for _ in range(runs):
        counts[sampler(rng).value] += 1
    return counts


def test_textbook_sampler_follows_exp_eps_q_over_2delta():
    scores, eps, runs = [0, 1, 2, 4], 1.5, 3000
    counts = _counts(lambda r: exponential_textbook(scores, 1, eps, seed=r), 4, runs, 11)
    expected = exponential_probabilities(scores, 1, eps) * runs
    assert stats.chisquare(counts, expected).pvalue > 1e-4
    # the same test tells it apart from permute-and-flip, a different distribution
    pf = _counts(lambda r: exponential(scores, 1, eps, seed=r), 4, runs, 12)
    assert stats.chisquare(pf, expected).pvalue < 1e-6


def test_textbook_release_carries_its_guarantee():
    r = exponential_textbook([3.5, 1.25], 0.5, 1.0, seed=1)
    assert r.mechanism == "exponential (textbook)" and r.value in (0, 1)
    assert r.insecure_seed and r.epsilon == 1.0 and r.delta == 0.0
    assert exponential_textbook([7], 1, 1.0).value == 0
    with pytest.raises(InputError, match="at least one"):
        exponential_textbook([], 1, 1.0)
    with pytest.raises(ConfigError, match="sensitivity"):
        exponential_textbook([1, 2], 0, 1.0)


def test_continuous_mass_hand_computed_and_ks():
    # ε = 2, Δ = 1 on [0,1) score 1 and [1,3) score 0: masses e·1 and 1·2
    score = PiecewiseScore(np.array([0.0, 1.0, 3.0]), np.array([1.0, 0.0]))
    assert score.cdf(np.array([1.0]), 1, 2.0)[0] == pytest.approx(math.e / (math.e + 2))
    draws = sample_piecewise(score, 1, 2.0, np.random.default_rng(5), size=4000)
    assert stats.kstest(draws, lambda x: score.cdf(x, 1, 2.0)).pvalue > 1e-4
    # the factor ε/Δ (no 1/2) is a different law, and the test sees it
    assert stats.kstest(draws, lambda x: score.cdf(x, 1, 4.0)).pvalue < 1e-6
    r = exponential_continuous([0, 1, 3], [1, 0], 1, 2.0, seed=3)
    assert 0 <= r.value <= 3 and r.mechanism == "exponential (continuous range)"


def test_quantile_score_is_minus_rank_distance():
    s = quantile_score([5, 1, 9, 3], 0, 10, 0.5)
    assert s.edges.tolist() == [0, 1, 3, 5, 9, 10]
    assert s.scores.tolist() == [-2, -1, 0, -1, -2]
    with pytest.raises(ConfigError, match="low < high"):
        quantile_score([1], 5, 5, 0.5)
    with pytest.raises(ConfigError, match="quantile"):
        quantile_score([1], 0, 5, 1.5)


def test_private_median_follows_its_law_and_is_accurate():
    values = np.random.default_rng(0).integers(0, 101, 1001).astype(float) + 0.5
    score = quantile_score(values, 0, 102, 0.5)
    draws = sample_piecewise(score, 1.0, 1.0, np.random.default_rng(9), size=3000)
    assert stats.kstest(draws, lambda x: score.cdf(x, 1.0, 1.0)).pvalue > 1e-4
    true = float(np.median(values))
    hits = [abs(private_quantile(values, 0, 102, 1.0, seed=s).value - true) <= 5
            for s in range(50)]  # fmt: skip
    assert sum(hits) >= 48
