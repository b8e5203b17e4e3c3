"""Sparse vector (AboveThreshold): scales, the exact output distribution, the ε-DP ratio."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.dp.sparse_vector import AboveThreshold, sparse_vector, svt_scales
from privlab.errors import BudgetExceeded, ConfigError, InputError


def _pmf(scale: float, support: np.ndarray) -> np.ndarray:
    a = math.exp(-1.0 / scale)
    return (1 - a) / (1 + a) * a ** np.abs(support)


def _cdf_below(scale: float, x: np.ndarray) -> np.ndarray:
    """P(ν < x) for the two-sided geometric distribution, x integer (vectorized)."""
    a = math.exp(-1.0 / scale)
    x = np.asarray(x, dtype=float)
    # P(ν ≤ y) = 1 − a^{y+1}/(1+a) for y ≥ 0, a^{−y}/(1+a) for y < 0; here y = x − 1
    y = x - 1
    return np.where(y >= 0, 1 - a ** (y + 1) / (1 + a), a ** (-y) / (1 + a))


def exact_first_above(answers, threshold, rho_scale, nu_scale) -> np.ndarray:
    """P(first ⊤ at query i) for i = 0..m−1, then P(no ⊤), by summing over ρ (c = 1)."""
    rho = np.arange(-int(80 * rho_scale), int(80 * rho_scale) + 1)
    p_rho = _pmf(rho_scale, rho)
    below_all = np.ones_like(p_rho)
    out = []
    for q in answers:
        below = _cdf_below(nu_scale, threshold + rho - q)  # ν < T + ρ − q
        out.append(float(np.sum(p_rho * below_all * (1 - below))))
        below_all = below_all * below
    out.append(float(np.sum(p_rho * below_all)))
    return np.array(out)


def test_scales_are_dwork_roth_for_one_answer_and_scale_with_c():
    s = svt_scales(1.0)
    assert (s.threshold_scale, s.query_scale) == (Fraction(2), Fraction(4))  # Lap(2Δ/ε), Lap(4Δ/ε)
    assert svt_scales(1.0, monotonic=True).query_scale == 2
    three = svt_scales(0.5, sensitivity=2, max_positives=3)
    assert three.threshold_scale == 8 and three.query_scale == 48  # Δ/ε₁; 2cΔ/ε₂
    assert svt_scales(1.0, threshold_share=0.25).threshold_scale == 4


def test_exact_distribution_sums_to_one_and_favours_large_answers():
    p = exact_first_above([0, 20, 0], 10, 2.0, 4.0)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    assert p[1] > 0.8 and p[0] < 0.1


def test_first_above_position_follows_the_exact_distribution():
    answers, threshold, runs = [3, 9, 6, 14], 10, 3000
    counts = np.zeros(len(answers) + 1, dtype=np.int64)
    rng = np.random.default_rng(20261128)
    for _ in range(runs):
        r = sparse_vector(answers, threshold, 1.0, seed=rng)
        counts[r.positives[0] if r.positives else len(answers)] += 1
    expected = exact_first_above(answers, threshold, 2.0, 4.0) * runs
    assert stats.chisquare(counts, expected).pvalue > 1e-4
    # the same test rejects a wrong model (query noise of scale 2 instead of 4)
    wrong = exact_first_above(answers, threshold, 2.0, 2.0) * runs
    assert stats.chisquare(counts, wrong * runs / wrong.sum()).pvalue < 1e-6


def test_interactive_and_batch_have_the_same_distribution():
    answers, threshold, runs = [5, 8, 12], 9, 2000
    rng = np.random.default_rng(7)
    counts = np.zeros(4, dtype=np.int64)
    for _ in range(runs):
        svt = AboveThreshold(threshold, 1.0, seed=rng)
        pos = next((i for i, q in enumerate(answers) if svt.ask(q)), 3)
        counts[pos] += 1
    expected = exact_first_above(answers, threshold, 2.0, 4.0) * runs
    assert stats.chisquare(counts, expected).pvalue > 1e-4


@pytest.mark.parametrize("monotonic", [False, True])
def test_output_probabilities_of_neighbours_differ_by_at_most_e_eps(monotonic):
    eps, answers, threshold = 1.0, [4, 7, 5], 6
    sc = svt_scales(eps, monotonic=monotonic)
    base = exact_first_above(answers, threshold, float(sc.threshold_scale), float(sc.query_scale))
    shifts = [(1, 1, 1), (-1, -1, -1)] if monotonic else itertools.product((-1, 0, 1), repeat=3)
    worst = 0.0
    for shift in shifts:
        other = exact_first_above(
            [a + s for a, s in zip(answers, shift, strict=True)], threshold,
            float(sc.threshold_scale), float(sc.query_scale),
        )  # fmt: skip
        worst = max(worst, float(np.max(np.abs(np.log(base / other)))))
    assert worst <= eps + 1e-9
    assert worst > 0.3 * eps  # the bound is not vacuous here


def test_monotonic_scale_is_not_private_for_non_monotonic_queries():
    """Halving the query noise is only allowed when all answers move the same way."""
    eps, threshold = 1.0, 0
    sc = svt_scales(eps, monotonic=True)
    m = 12
    base = exact_first_above([-1] * (m - 1) + [1], threshold, 2.0, float(sc.query_scale))
    other = exact_first_above([0] * (m - 1) + [0], threshold, 2.0, float(sc.query_scale))
    assert abs(math.log(base[m - 1] / other[m - 1])) > eps


def test_halts_after_c_positives_and_refuses_more_questions():
    svt = AboveThreshold(0, 1.0, max_positives=2, seed=3)
    assert svt.ask(10**6) and not svt.halted
    assert not svt.ask(-(10**6))
    assert svt.ask(10**6) and svt.halted
    with pytest.raises(BudgetExceeded, match="fresh"):
        svt.ask(0)
    r = sparse_vector([10**6, -(10**6), 10**6, 10**6, 10**6], 0, 1.0, max_positives=2, seed=4)
    assert r.above == [True, False, True] and r.not_asked == 2 and r.positives == [0, 2]
    d = r.to_dict()
    assert d["asked"] == 3 and d["insecure_seed"] and "answers" not in d


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-50, 50), min_size=1, max_size=30),
    st.integers(-20, 20),
    st.integers(1, 4),
    st.integers(0, 10**6),
)
def test_never_more_than_c_positives_and_stops_right_after_the_last(answers, t, c, seed):
    r = sparse_vector(answers, t, 0.5, max_positives=c, seed=seed)
    assert len(r.positives) <= c
    assert len(r.above) + r.not_asked == len(answers)
    if r.not_asked:
        assert len(r.positives) == c and r.above[-1]


def test_bad_input_is_refused_with_the_parameter_named():
    with pytest.raises(InputError, match="integer"):
        sparse_vector([1.5, 2], 0, 1.0)
    with pytest.raises(InputError, match="integer"):
        AboveThreshold(0, 1.0).ask(0.25)
    with pytest.raises(InputError, match="non-empty"):
        sparse_vector([], 0, 1.0)
    with pytest.raises(ConfigError, match="max_positives"):
        sparse_vector([1], 0, 1.0, max_positives=0)
    with pytest.raises(ConfigError, match="threshold_share"):
        svt_scales(1.0, threshold_share=1.0)
    with pytest.raises(ConfigError, match="epsilon"):
        sparse_vector([1], 0, 0.0)
