"""The textbook exponential mechanism, exp(εq/2Δ), over a finite and a continuous range.

Seed 000 §2.7 (Def 6.3, eq 6.2/6.3; McSherry & Talwar 2007): output r with probability
(density, for a continuous range R) proportional to exp(ε q(D, r) / (2Δq)), where Δq is the
score sensitivity (Def 6.2); Theorem 6.1 shows it is ε-DP — each of the two factors of the
probability ratio is at most e^{ε/2}.  §6.1.4 notes that sampling is tractable only for
simple scores, e.g. piecewise constant or linear over an interval, which is the
continuous form given here.

:func:`privlab.dp.mechanisms.exponential` samples by permute-and-flip (McKenna & Sheldon
2020), which is also ε-DP and never has larger expected error, but has a *different*
distribution; :func:`exponential_textbook` samples the textbook distribution itself, exactly
(rejection from the uniform proposal with exact Bernoulli(exp(−γ)) trials).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.dp.accountant import check_epsilon
from privlab.dp.mechanisms import Release, _numeric, check_sensitivity
from privlab.dp.noise import bernoulli_exp, is_insecure_seed, rational_at_most, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.validate import check_fraction


def _checked(scores: Any, sensitivity: float, epsilon: float) -> tuple[float, float, np.ndarray]:
    """(ε, Δ, scores as a flat numeric array), each checked."""
    arr = _numeric(scores, "scores").ravel()
    if arr.size == 0:
        raise InputError("scores: the exponential mechanism needs at least one candidate")
    return check_epsilon(epsilon), check_sensitivity(sensitivity), arr


def exponential_probabilities(scores: Any, sensitivity: float, epsilon: float) -> np.ndarray:
    """The textbook probabilities exp(εq_r/2Δ) / Σ_s exp(εq_s/2Δ) (floats).  O(n).

    For analysis and tests; the sampler below does not use them (it is exact).
    """
    eps, sens, arr = _checked(scores, sensitivity, epsilon)
    q = arr.astype(float)
    logits = eps * (q - q.max()) / (2 * sens)
    w = np.exp(logits)
    return w / w.sum()


def exponential_textbook(
    scores: Any, sensitivity: float, epsilon: float, *, seed: Any = None
) -> Release:
    """ε-DP index r drawn with probability ∝ exp(ε q_r / (2Δ)) (seed 000 §2.7, Def 6.3).

    Exact: propose r uniformly and accept with probability exp(−ε(q* − q_r)/(2Δ)), an exact
    Bernoulli trial on rationals (scores taken as exact binary fractions, ε rounded down).
    The accepted r has exactly the textbook distribution.  Expected proposals n / Z with
    Z = Σ_r exp(−ε(q* − q_r)/2Δ) ∈ [1, n]; proposals are drawn in vectorized batches, so
    the expected work is O(n).  Returns the chosen index as the release value.
    """
    eps, sens, arr = _checked(scores, sensitivity, epsilon)
    rng = secure_generator(seed)
    factor = rational_at_most(eps) / (2 * Fraction(sens))
    exact = [Fraction(int(v)) if isinstance(v, (int, np.integer)) else Fraction(float(v))
             for v in arr.tolist()]  # fmt: skip
    best = max(exact)
    gammas = [factor * (best - v) for v in exact]
    num = np.array([g.numerator for g in gammas], dtype=object)
    den = np.array([g.denominator for g in gammas], dtype=object)
    batch = min(max(arr.size, 16), 4096)
    while True:
        proposal = rng.integers(0, arr.size, size=batch)
        accept = bernoulli_exp(num[proposal], den[proposal], rng)
        if accept.any():
            chosen = int(proposal[int(np.argmax(accept))])
            break
    return Release(
        chosen,
        eps,
        0.0,
        "exponential (textbook)",
        {"sensitivity": sens, "candidates": int(arr.size)},
        is_insecure_seed(seed),
    )


# ---------------------------------------------------------------------------- continuous
@dataclass(frozen=True)
class PiecewiseScore:
    """A score constant on each interval [edges[i], edges[i+1]) of a bounded range."""

    edges: np.ndarray
    scores: np.ndarray

    def log_weights(self, sensitivity: float, epsilon: float) -> np.ndarray:
        """log(length_i) + ε q_i / (2Δ): each interval's unnormalized log mass."""
        lengths = np.diff(self.edges)
        with np.errstate(divide="ignore"):
            return np.log(lengths) + epsilon * self.scores / (2 * sensitivity)

    def cdf(self, x: np.ndarray, sensitivity: float, epsilon: float) -> np.ndarray:
        """The exact CDF of the mechanism's output (for tests).  O(k + len(x)·log k)."""
        logw = self.log_weights(sensitivity, epsilon)
        w = np.exp(logw - logw.max())
        cum = np.concatenate([[0.0], np.cumsum(w)]) / w.sum()
        x = np.clip(np.asarray(x, dtype=float), self.edges[0], self.edges[-1])
        i = np.clip(np.searchsorted(self.edges, x, side="right") - 1, 0, len(w) - 1)
        lengths = np.diff(self.edges)
        inside = np.divide(x - self.edges[i], lengths[i], out=np.zeros_like(x),
                           where=lengths[i] > 0)  # fmt: skip
        return cum[i] + inside * (cum[i + 1] - cum[i])


def _piecewise(edges: Any, scores: Any) -> PiecewiseScore:
    e = _numeric(edges, "edges").astype(float).ravel()
    q = _numeric(scores, "scores").astype(float).ravel()
    if e.size < 2 or q.size != e.size - 1:
        raise InputError(
            f"edges/scores: {e.size} edge(s) and {q.size} score(s); k intervals need k + 1 "
            "edges and k scores"
        )
    if np.any(np.diff(e) < 0) or not e[-1] > e[0]:
        raise InputError("edges: must be non-decreasing and span a range of positive length")
    return PiecewiseScore(e, q)


def sample_piecewise(
    score: PiecewiseScore, sensitivity: float, epsilon: float, rng: np.random.Generator,
    size: int | None = None,
) -> np.ndarray | float:  # fmt: skip
    """Draw from density ∝ exp(εq(r)/2Δ) on the range: an interval by mass, then uniform.

    O(k + size) for k intervals.  Floating point (the output is a real number).
    """
    logw = score.log_weights(sensitivity, epsilon)
    p = np.exp(logw - logw.max())
    p /= p.sum()
    n = 1 if size is None else size
    idx = rng.choice(p.size, size=n, p=p)
    lo, hi = score.edges[idx], score.edges[idx + 1]
    out = lo + rng.random(n) * (hi - lo)
    return float(out[0]) if size is None else out


def exponential_continuous(
    edges: Any, scores: Any, sensitivity: float, epsilon: float, *, seed: Any = None
) -> Release:
    """ε-DP real output with density ∝ exp(ε q(r) / (2Δ)) over [edges[0], edges[-1]].

    The continuous-range exponential mechanism (seed 000 §2.7, eq 6.3, the integral form)
    for a score that is constant on each interval [edges[i], edges[i+1]) — the tractable
    case named in §6.1.4.  O(k) for k intervals.
    """
    eps = check_epsilon(epsilon)
    sens = check_sensitivity(sensitivity)
    score = _piecewise(edges, scores)
    rng = secure_generator(seed)
    value = sample_piecewise(score, sens, eps, rng)
    return Release(
        value, eps, 0.0, "exponential (continuous range)",
        {"sensitivity": sens, "intervals": int(score.scores.size)}, is_insecure_seed(seed),
    )  # fmt: skip


def quantile_score(values: Any, low: float, high: float, quantile: float) -> PiecewiseScore:
    """The rank score of a quantile: on the interval between the i-th and (i+1)-th sorted
    values (clamped to [low, high]) the score is −|i − p·n|.

    Sensitivity ≤ max(p, 1 − p) ≤ 1 under adding or removing one row (the rank of every
    interval above the new value and the target p·n move together).  O(n log n).
    """
    x = _numeric(values, "values").astype(float).ravel()
    lo, hi = float(low), float(high)
    if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
        raise ConfigError(
            f"low = {low!r}, high = {high!r}: give finite bounds with low < high, fixed from "
            "the column's public domain (not from the data)"
        )
    p = check_fraction(quantile, "quantile", low_open=False)
    edges = np.concatenate([[lo], np.sort(np.clip(x, lo, hi)), [hi]])
    ranks = np.arange(x.size + 1, dtype=float)
    return PiecewiseScore(edges, -np.abs(ranks - p * x.size))


def private_quantile(
    values: Any, low: float, high: float, epsilon: float, *, quantile: float = 0.5,
    seed: Any = None,
) -> Release:  # fmt: skip
    """ε-DP p-quantile of values clamped to [low, high] by the continuous exponential
    mechanism with the rank score (Smith, STOC 2011; seed 000 §2.7).  O(n log n)."""
    eps = check_epsilon(epsilon)
    score = quantile_score(values, low, high, quantile)
    rng = secure_generator(seed)
    value = sample_piecewise(score, 1.0, eps, rng)
    return Release(
        value, eps, 0.0, "exponential (continuous range, quantile)",
        {"sensitivity": 1.0, "quantile": float(quantile), "low": float(low), "high": float(high)},
        is_insecure_seed(seed),
    )  # fmt: skip
