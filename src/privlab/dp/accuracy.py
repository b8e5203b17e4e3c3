"""Accuracy of DP answers: the noise scale and a (1 − α) confidence interval of each answer.

Every privlab mechanism adds noise whose distribution is fixed by **public parameters only**
(sensitivity, ε, δ, clamping bounds, the grid of the floating-point-safe mechanisms), never
by the data.  The intervals below are therefore computed without touching the data and cost
**no privacy budget**: they are functions of the mechanism's parameters (and, for the mean,
of values already released).

The noise distributions, as privlab actually samples them (:mod:`privlab.dp.noise`):

* **discrete Laplace** (geometric mechanism, and ``laplace`` on real values, which is
  g·DLap(t) on a grid g): P(Z = z) = (1 − p)/(1 + p) · p^|z|, p = e^{−1/t}.  Its tail has
  the closed form P(|Z| > k) = 2p^{k+1}/(1 + p) (Ghosh, Roughgarden & Sundararajan, STOC
  2009; Canonne, Kamath & Steinke, NeurIPS 2020, §2), so the smallest integer margin m with
  P(|Z| ≤ m) ≥ 1 − α and its exact coverage are computed in O(1).
* **discrete Gaussian** N_ℤ(0, σ²) (``gaussian`` on integers, and on real values as
  g·N_ℤ(0, σ_g²)): P(Z = z) = e^{−z²/2σ²} / Σ_y e^{−y²/2σ²} (Canonne, Kamath & Steinke
  2020, Definition 1).  For σ ≤ 10^5 the tail is the normalized mass function summed to
  ±38σ (the terms beyond are below 10^-300): exact up to float rounding, O(σ).  Above, the
  tail is 2Φ(−(k + ½)/σ) (the midpoint rule), whose error is below 1/σ² < 10^-10
  (Euler–Maclaurin: the midpoint rule errs by at most ∫|f''|/24 ≈ 0.04/σ² per tail); the
  margin is chosen with that error added, so the interval stays conservative.
* **continuous Laplace** Lap(b) and **Gaussian** N(0, σ²) (for planning and for comparison
  with other libraries): margins b·ln(1/α) and σ·Φ^{-1}(1 − α/2).

Values rounded to a grid g before the noise (``snap_laplace``/``snap_gaussian``) are off
by at most g/2; that bound is added to the margin (``rounding``), so the interval covers the
true value, not only the rounded one, with probability ≥ P(|Z| ≤ m).

**Derived answers.**  A count or sum is value ± margin.  A clamped mean μ = S/n is released
as S̃/Ñ (each at half the budget) clipped to [L, U]; its interval splits α in two (union
bound): with probability ≥ 1 − α both |S̃ − S| ≤ m_S and |Ñ − n| ≤ m_N (each at level
1 − α/2), and then μ lies between the smallest and largest s/k over s ∈ [S̃ ± m_S],
k ∈ [max(1, Ñ − m_N), Ñ + m_N] (the extremes of s/k on a box with k > 0 are at its
corners), clipped to [L, U] — where every clamped mean lies.  The interval is conservative
(coverage ≥ 1 − α) and is post-processing of released values.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.errors import ConfigError
from privlab.validate import check_choice, check_number_in

#: Default confidence level of every interval.
CONFIDENCE = 0.95

KINDS = ("discrete_laplace", "discrete_gaussian", "laplace", "gaussian")

#: Largest σ (in grid steps) whose discrete Gaussian tail is summed exactly.
EXACT_SIGMA = 1e5


def check_confidence(confidence: float, name: str = "confidence") -> float:
    """Confidence level 1 − α as a float in (0, 1); ConfigError otherwise."""
    value = check_number_in(confidence, name, 0.0, 1.0, low_open=True, hint="e.g. 0.95")
    if value >= 1:
        raise ConfigError(f"{name} = {confidence!r}: give a level below 1 (e.g. 0.95)")
    return value


@dataclass(frozen=True)
class Noise:
    """The noise ``step · Z`` a mechanism adds, plus a bound on deterministic rounding.

    ``kind``: one of :data:`KINDS`; ``scale``: t of DLap(t) / b of Lap(b) / σ of the
    Gaussians, in units of ``step`` (1 for integer mechanisms, the grid g for snapped real
    values); ``rounding``: |value − rounded value| ≤ rounding (g/2 when snapped).
    """

    kind: str
    scale: float
    step: float = 1.0
    rounding: float = 0.0

    def __post_init__(self) -> None:
        check_choice(self.kind, "noise kind", KINDS)
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise ConfigError(f"noise scale = {self.scale!r}: give a finite number > 0")

    @property
    def discrete(self) -> bool:
        return self.kind.startswith("discrete")

    # ------------------------------------------------------------------ tails
    def tail(self, k: float) -> float:
        """P(|Z| > k), Z the noise in units of ``step``; k ≥ 0 (an integer if discrete)."""
        if self.kind == "discrete_laplace":
            return _dlap_tail(self.scale, int(k))
        if self.kind == "discrete_gaussian":
            return _dgauss_tail(self.scale, int(k))
        if self.kind == "laplace":
            return math.exp(-k / self.scale)
        from scipy import special

        return float(2 * special.ndtr(-k / self.scale))

    def _units(self, confidence: float) -> tuple[float, float]:
        """(m, P(|Z| ≤ m)): the smallest margin in steps with coverage ≥ ``confidence``."""
        alpha = 1 - check_confidence(confidence)
        if self.kind == "discrete_laplace":
            p_log = -1 / self.scale
            m = max(
                0, math.ceil(-self.scale * (math.log(alpha / 2) + math.log1p(math.exp(p_log))) - 1)
            )
            while _dlap_tail(self.scale, m) > alpha:
                m += 1
            while m > 0 and _dlap_tail(self.scale, m - 1) <= alpha:
                m -= 1
            return float(m), 1 - _dlap_tail(self.scale, m)
        if self.kind == "discrete_gaussian":
            m = _dgauss_margin(self.scale, alpha)
            return float(m), 1 - _dgauss_tail(self.scale, m)
        if self.kind == "laplace":
            return self.scale * math.log(1 / alpha), confidence
        from scipy import special

        return self.scale * float(special.ndtri(1 - alpha / 2)), confidence

    def margin(self, confidence: float = CONFIDENCE) -> float:
        """Half-width of the interval value ± margin covering the true value w.p. ≥ level."""
        m, _ = self._units(confidence)
        return m * self.step + self.rounding

    def coverage(self, confidence: float = CONFIDENCE) -> float:
        """P(|noise| ≤ margin − rounding): exact for the discrete kinds (≥ ``confidence``)."""
        return self._units(confidence)[1]

    @property
    def std(self) -> float:
        """Standard deviation of the noise (value units; exact for discrete Laplace, the
        continuous σ for the discrete Gaussian, whose variance is at most σ²)."""
        if self.kind == "discrete_laplace":
            p = math.exp(-1 / self.scale)
            return self.step * math.sqrt(2 * p) / (1 - p)
        if self.kind == "laplace":
            return self.step * self.scale * math.sqrt(2)
        return self.step * self.scale

    @property
    def exact(self) -> bool:
        """Whether the coverage is computed exactly (up to float rounding)."""
        return self.kind == "discrete_laplace" or (
            self.kind == "discrete_gaussian" and self.scale <= EXACT_SIGMA
        )

    def describe(self, confidence: float = CONFIDENCE) -> dict[str, Any]:
        """The accuracy record attached to a :class:`~privlab.dp.mechanisms.Release`."""
        m, cov = self._units(confidence)
        margin = m * self.step + self.rounding
        if self.step == 1 and self.rounding == 0 and self.discrete:
            margin = int(m)
        return {
            "confidence": confidence,
            "noise": self.kind,
            "scale": self.scale * self.step,
            "std": self.std,
            "margin": margin,
            "coverage": cov,
            "exact": self.exact,
            "step": self.step,
            "noise_scale_steps": self.scale,
            "rounding": self.rounding,
            "cost": "none: computed from public parameters only",
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Noise:
        """The noise behind an accuracy record made by :meth:`describe`."""
        return cls(record["noise"], record["noise_scale_steps"], record["step"], record["rounding"])


def _dlap_tail(t: float, k: int) -> float:
    """P(|Z| > k) = 2p^{k+1}/(1 + p) for Z ~ DLap(t), p = e^{−1/t}.  O(1)."""
    if k < 0:
        return 1.0
    return 2 * math.exp(-(k + 1) / t) / (1 + math.exp(-1 / t))


def _normal_tail(sigma: float, k: int) -> float:
    """2Φ(−(k + ½)/σ) + 1/σ²: above P(|Z| > k) for Z ~ N_ℤ(0, σ²) (midpoint rule + its
    error bound); used for σ > :data:`EXACT_SIGMA`."""
    from scipy import special

    return min(1.0, float(2 * special.ndtr(-(k + 0.5) / sigma)) + 1 / sigma**2)


@functools.lru_cache(maxsize=4)
def _dgauss_tails(sigma: float) -> np.ndarray:
    """tails[k] = P(|Z| > k), Z ~ N_ℤ(0, σ²), for k = 0 .. ⌊38σ⌋ + 2 (σ ≤ EXACT_SIGMA).

    The normalized mass summed from the far end, so small tails keep their relative
    precision; terms beyond 38σ are below 10^-300.  O(σ).
    """
    reach = int(38 * sigma) + 2
    z = np.arange(reach + 1, dtype=np.float64)
    w = np.exp(-(z * z) / (2 * sigma * sigma))
    total = w[0] + 2 * w[1:].sum()
    above = np.concatenate([np.cumsum(w[::-1])[::-1][1:], [0.0]])  # Σ_{z > k} w(z)
    tails = np.minimum(1.0, 2 * above / total)
    tails.setflags(write=False)
    return tails


def _dgauss_tail(sigma: float, k: int) -> float:
    """P(|Z| > k) for Z ~ N_ℤ(0, σ²): exact sum, or the bound above for large σ."""
    if k < 0:
        return 1.0
    if sigma > EXACT_SIGMA:
        return _normal_tail(sigma, k)
    tails = _dgauss_tails(sigma)
    return float(tails[k]) if k < tails.size else 0.0


def _dgauss_margin(sigma: float, alpha: float) -> int:
    """The smallest integer k ≥ 0 with P(|Z| > k) ≤ α (or its bound, for large σ)."""
    if sigma <= EXACT_SIGMA:
        tails = _dgauss_tails(sigma)
        return int(np.argmax(tails <= alpha))  # tails decrease; the last one is 0
    from scipy import special

    room = alpha - 1 / sigma**2
    if room <= 0:
        raise ConfigError(f"confidence 1 − {alpha:g}: too close to 1 for this noise")
    k = max(0, math.ceil(sigma * float(special.ndtri(1 - room / 2)) - 0.5))
    while _normal_tail(sigma, k) > alpha:
        k += 1
    while k > 0 and _normal_tail(sigma, k - 1) <= alpha:
        k -= 1
    return k


# ---------------------------------------------------------------------------- the mechanisms
def geometric_noise(scale: Fraction | float) -> Noise:
    """Noise of the geometric (discrete Laplace) mechanism with the sampler's scale t."""
    return Noise("discrete_laplace", float(scale))


def snapped_laplace_noise(sensitivity: float, epsilon: float, grid: float, d: int) -> Noise:
    """Noise of :func:`privlab.dp.noise.snap_laplace`: g·DLap(t_g), values rounded to g."""
    from privlab.dp.noise import snap_laplace_scale

    scale = snap_laplace_scale(sensitivity, epsilon, grid, d)
    return Noise("discrete_laplace", float(scale), grid, grid / 2)


def discrete_gaussian_noise(sigma2: Fraction | float) -> Noise:
    """Noise of the discrete Gaussian mechanism N_ℤ(0, σ²)."""
    return Noise("discrete_gaussian", math.sqrt(float(sigma2)))


def snapped_gaussian_noise(sigma: float, l2_sensitivity: float, grid: float, d: int) -> Noise:
    """Noise of :func:`privlab.dp.noise.snap_gaussian`: g·N_ℤ(0, σ_g²), values rounded to g.

    The sampler rounds σ_g² up by at most 2^-20 relative; σ_g is raised by that much here.
    """
    from privlab.dp.noise import PRECISION_BITS, snap_gaussian_sigma

    sigma_grid = float(snap_gaussian_sigma(sigma, l2_sensitivity, grid, d))
    return Noise("discrete_gaussian", sigma_grid * (1 + 2.0**-PRECISION_BITS), grid, grid / 2)


# ---------------------------------------------------------------------------- intervals
def interval(value: Any, record: dict[str, Any]) -> tuple[Any, Any]:
    """(low, high) of an answer from its accuracy record: value ± margin (vectors too)."""
    if "ci_low" in record:
        return record["ci_low"], record["ci_high"]
    margin = record["margin"]
    if isinstance(value, (np.ndarray, list, tuple)):
        arr = np.asarray(value)
        return (arr - margin).tolist(), (arr + margin).tolist()
    if isinstance(value, np.generic):
        value = value.item()
    return value - margin, value + margin


def with_interval(value: Any, record: dict[str, Any] | None) -> dict[str, Any] | None:
    """The record with ``ci_low``/``ci_high`` of ``value`` (for Release.to_dict)."""
    if record is None:
        return None
    low, high = interval(value, record)
    return {**record, "ci_low": low, "ci_high": high}


def ratio_interval(
    noisy_sum: float,
    noisy_count: float,
    sum_margin: float,
    count_margin: float,
    low: float,
    high: float,
) -> tuple[float, float]:
    """Range of s/k over s ∈ [S̃ ± m_S], k ∈ [max(1, Ñ − m_N), Ñ + m_N], clipped to [L, U].

    The extremes of s/k on a box with k > 0 are at its corners.  When Ñ + m_N < 1 the data
    says nothing: [L, U].  O(1).
    """
    k_hi = noisy_count + count_margin
    if k_hi < 1:
        return float(low), float(high)
    k_lo = max(1.0, noisy_count - count_margin)
    corners = [
        s / k for s in (noisy_sum - sum_margin, noisy_sum + sum_margin) for k in (k_lo, k_hi)
    ]
    lo, hi = min(corners), max(corners)
    return float(min(max(lo, low), high)), float(min(max(hi, low), high))


def mean_accuracy(
    noisy_sum: float,
    noisy_count: float,
    sum_noise: Noise,
    count_noise: Noise,
    low: float,
    high: float,
    confidence: float = CONFIDENCE,
) -> dict[str, Any]:
    """Accuracy record of a clamped mean S̃/Ñ: the union-bound interval (module docstring).

    Each part gets α/2; coverage ≥ 1 − α.  Uses released values and public parameters only.
    """
    alpha = 1 - check_confidence(confidence)
    part = 1 - alpha / 2
    ms, mc = sum_noise.margin(part), count_noise.margin(part)
    ci_low, ci_high = ratio_interval(noisy_sum, noisy_count, ms, mc, low, high)
    return {
        "confidence": confidence,
        "method": "union bound: sum and count each at 1 − α/2, ratio over the box, clipped",
        "ci_low": ci_low,
        "ci_high": ci_high,
        "coverage": f"≥ {confidence:g}",
        "exact": False,
        "sum": sum_noise.describe(part),
        "count": count_noise.describe(part),
        "cost": "none: computed from released values and public parameters only",
    }


def mean_error_bound(
    n: int, sum_margin: float, count_margin: float, low: float, high: float
) -> float:
    """Bound on |clip(S̃/Ñ) − μ| when |S̃ − S| ≤ m_S and |Ñ − n| ≤ m_N, for n ≥ ``n``.

    S̃/Ñ − S/n = (e_S − μ e_N)/(n + e_N), so the error is at most
    (m_S + max(|L|, |U|)·m_N)/(n − m_N) when n > m_N, and never more than U − L (both lie
    in [L, U]).  Decreasing in n: a lower bound on n gives a valid bound.  O(1).
    """
    width = high - low
    if n <= count_margin:
        return width
    return min(width, (sum_margin + max(abs(low), abs(high)) * count_margin) / (n - count_margin))


__all__ = [
    "CONFIDENCE",
    "KINDS",
    "Noise",
    "check_confidence",
    "discrete_gaussian_noise",
    "geometric_noise",
    "interval",
    "mean_accuracy",
    "mean_error_bound",
    "ratio_interval",
    "snapped_gaussian_noise",
    "snapped_laplace_noise",
    "with_interval",
]
