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
from dataclasses import dataclass, replace
from fractions import Fraction
from numbers import Real
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
    ok = not isinstance(confidence, bool) and isinstance(confidence, Real)
    if not (ok and 0 < confidence < 1):  # False for NaN
        raise ConfigError(
            f"{name} = {confidence!r}: give a confidence level strictly between 0 and 1 (e.g. 0.95)"
        )
    return float(confidence)


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
            return discrete_laplace_tail(self.scale, int(k))
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
            while discrete_laplace_tail(self.scale, m) > alpha:
                m += 1
            while m > 0 and discrete_laplace_tail(self.scale, m - 1) <= alpha:
                m -= 1
            return float(m), 1 - discrete_laplace_tail(self.scale, m)
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


def discrete_laplace_tail(t: float, k: int) -> float:
    """P(|Z| > k) = 2p^{k+1}/(1 + p) for Z ~ DLap(t), p = e^{−1/t}.  O(1)."""
    if k < 0:
        return 1.0
    return 2 * math.exp(-(k + 1) / t) / (1 + math.exp(-1 / t))


def _normal_tail(sigma: float, k: int) -> float:
    """2Φ(−(k + ½)/σ) + 1/σ²: above P(|Z| > k) for Z ~ N_ℤ(0, σ²) (midpoint rule + its
    error bound); used for σ > :data:`EXACT_SIGMA`."""
    from scipy import special

    return min(1.0, float(2 * special.ndtr(-(k + 0.5) / sigma)) + 1 / sigma**2)


def discrete_gaussian_tails(sigma: float) -> np.ndarray:
    """tails[k] = P(|Z| > k) for Z ~ N_ℤ(0, σ²), k = 0 .. ⌊38σ⌋ + 2, exact (read-only).

    Kept for the last few small σ (a release, its plan and a partition selection ask for
    the same σ again and again; large tables are not kept: up to 30 MB).  O(σ).
    """
    return _small_tables(sigma) if sigma <= 1e4 else _dgauss_tail_table(sigma)


def _dgauss_tail_table(sigma: float) -> np.ndarray:
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


_small_tables = functools.lru_cache(maxsize=8)(_dgauss_tail_table)


def _dgauss_tail(sigma: float, k: int) -> float:
    """P(|Z| > k) for Z ~ N_ℤ(0, σ²): exact sum, or the bound above for large σ."""
    if k < 0:
        return 1.0
    if sigma > EXACT_SIGMA:
        return _normal_tail(sigma, k)
    tails = discrete_gaussian_tails(sigma)
    return float(tails[k]) if k < tails.size else 0.0


def _dgauss_margin(sigma: float, alpha: float) -> int:
    """The smallest integer k ≥ 0 with P(|Z| > k) ≤ α (or its bound, for large σ)."""
    if sigma <= EXACT_SIGMA:
        tails = discrete_gaussian_tails(sigma)
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
    noisy_sum: Any,
    noisy_count: Any,
    sum_margin: float,
    count_margin: float,
    low: float,
    high: float,
) -> tuple[Any, Any]:
    """Range of s/k over s ∈ [S̃ ± m_S], k ∈ [max(1, Ñ − m_N), Ñ + m_N], clipped to [L, U].

    The extremes of s/k on a box with k > 0 are at its corners.  When Ñ + m_N < 1 the data
    says nothing: [L, U].  Scalars give floats; arrays (one entry per group, for grouped
    means) give arrays.  O(1) per entry.
    """
    s = np.asarray(noisy_sum, dtype=np.float64)
    k = np.asarray(noisy_count, dtype=np.float64)
    k_hi = k + count_margin
    k_lo = np.maximum(1.0, k - count_margin)
    safe_hi = np.maximum(k_hi, 1.0)  # the corners are unused where k_hi < 1
    corners = np.stack(
        [(s - sum_margin) / k_lo, (s - sum_margin) / safe_hi,
         (s + sum_margin) / k_lo, (s + sum_margin) / safe_hi]
    )  # fmt: skip
    nothing = k_hi < 1
    lo = np.where(nothing, low, np.clip(corners.min(axis=0), low, high))
    hi = np.where(nothing, high, np.clip(corners.max(axis=0), low, high))
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


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


# ---------------------------------------------------------------------------- planning
PLAN_KINDS = ("count", "histogram", "sum", "mean")
PLAN_MECHANISMS = ("laplace", "gaussian")


@dataclass(frozen=True)
class Plan:
    """The ± error of one query at a confidence level, for a given ε (or the ε found)."""

    query: str
    mechanism: str
    epsilon: float
    delta: float
    confidence: float
    error: float
    l1_sensitivity: float
    l2_sensitivity: float
    noise: dict[str, Any]
    n: int | None = None
    rows_per_unit: int = 1
    groups_per_unit: int = 1
    target_error: float | None = None
    epsilon_below: float | None = None  # a slightly smaller ε whose error exceeds the target

    def to_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["cost"] = "none: planning reads no data"
        return out


def _plan_noise(
    kind: str, integer: bool, l1: float, l2: float, epsilon: float, delta: float
) -> tuple[str, Noise]:
    """(mechanism, noise) exactly as privlab's own mechanism would use them.

    The mechanism is called on the value 0 (the value drawn is discarded) and its accuracy
    record read back, so the plan and a release can never disagree on the noise.
    """
    from privlab.dp.mechanisms import gaussian, laplace

    zero: Any = np.int64(0) if integer else 0.0
    if delta > 0:
        release = gaussian(zero, l2, epsilon, delta, seed=0)
    else:
        release = laplace(zero, l1, epsilon, seed=0)
    return release.mechanism, Noise.from_record(release.accuracy)


def query_error(
    kind: str,
    epsilon: float,
    *,
    low: float | None = None,
    high: float | None = None,
    delta: float = 0.0,
    mechanism: str | None = None,
    confidence: float = CONFIDENCE,
    n: int | None = None,
    rows_per_unit: int = 1,
    groups_per_unit: int = 1,
) -> Plan:
    """The ± error at ``confidence`` of a count / histogram / clamped sum / clamped mean.

    Sensitivities: base 1 (count, histogram cell) or max(|low|, |high|) (sum); times
    ``rows_per_unit`` R; with ``groups_per_unit`` G, L1 = G·R·base and L2 = √G·R·base (a
    unit adds at most R rows to each of at most G groups — also valid when R bounds its
    rows in total).  Integers (count, histogram, a sum with integer bounds) get the exact
    geometric / discrete Gaussian noise, real sums the floating-point-safe noise on a grid.
    A mean needs ``n``, the number of rows (or a lower bound on it): the error bound is
    :func:`mean_error_bound` with each part at ε/2, δ/2 and level 1 − α/2.  No data is read:
    the plan costs no budget.  O(σ) for the discrete Gaussian, else O(1).
    """
    from privlab.dp.accountant import check_delta, check_epsilon
    from privlab.validate import check_int

    check_choice(kind, "query kind", PLAN_KINDS)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    level = check_confidence(confidence)
    _check_mechanism(mechanism, dlt)
    r = check_int(rows_per_unit, "max rows per unit", 1)
    g = check_int(groups_per_unit, "max groups per unit", 1)
    base, integer = 1.0, True
    if kind in ("sum", "mean"):
        lo, hi = _plan_bounds(kind, low, high)
        base = max(abs(lo), abs(hi))
        integer = float(lo).is_integer() and float(hi).is_integer()
    l1, l2 = g * r * base, math.sqrt(g) * r * base
    if kind != "mean":
        name, noise = _plan_noise(kind, integer, l1, l2, eps, dlt)
        return Plan(
            kind, name, eps, dlt, level, noise.margin(level), l1, l2, noise.describe(level),
            None, r, g,
        )  # fmt: skip
    if n is None:
        raise ConfigError(
            "a mean's error depends on the number of rows n: give n (public, or a lower "
            "bound on it)"
        )
    rows = check_int(n, "n", 1, "the number of rows, or a lower bound on it")
    c1, c2 = g * r, math.sqrt(g) * r
    part = 1 - (1 - level) / 2
    name, sum_noise = _plan_noise("sum", integer, l1, l2, eps / 2, dlt / 2)
    _, count_noise = _plan_noise("count", True, c1, c2, eps / 2, dlt / 2)
    error = mean_error_bound(rows, sum_noise.margin(part), count_noise.margin(part), lo, hi)
    record = {"sum": sum_noise.describe(part), "count": count_noise.describe(part)}
    return Plan("mean", f"mean ({name})", eps, dlt, level, error, l1, l2, record, rows, r, g)


def _check_mechanism(mechanism: str | None, delta: float) -> str:
    mech = mechanism or ("gaussian" if delta > 0 else "laplace")
    check_choice(mech, "mechanism", PLAN_MECHANISMS)
    if mech == "gaussian" and delta == 0:
        raise ConfigError("mechanism = 'gaussian' needs δ > 0 (e.g. 1e-6); or use laplace")
    if mech == "laplace" and delta > 0:
        raise ConfigError(f"mechanism = 'laplace' is pure ε-DP: δ = {delta:g} must be 0")
    return mech


def _plan_bounds(kind: str, low: float | None, high: float | None) -> tuple[float, float]:
    from privlab.dp.queries import _bounds  # the same check as the release's

    if low is None or high is None:
        raise ConfigError(f"a {kind} needs clamping bounds LOW and HIGH fixed in advance")
    return _bounds(low, high)


#: Range of ε searched by :func:`epsilon_for_error`.
EPSILON_RANGE = (1e-4, 1e3)


def epsilon_for_error(target: float, kind: str, *, rtol: float = 1e-6, **options: Any) -> Plan:
    """The smallest ε whose ± error at the confidence level is at most ``target``.

    The error is non-increasing in ε (a larger ε means less noise); the search brackets ε
    in :data:`EPSILON_RANGE` and bisects on log ε until the bracket is within ``rtol``.
    The returned plan always satisfies error ≤ target (it is evaluated, not predicted),
    and ``epsilon_below`` = ε/(1 + rtol) or less gives an error above it (tightness).
    ``options`` are those of :func:`query_error`.  O(log(1/rtol)) evaluations.
    """
    x = check_number_in(target, "target error", 0.0, math.inf, low_open=True)

    def at(eps: float) -> Plan:
        return query_error(kind, eps, **options)

    lo, hi = EPSILON_RANGE
    best = at(hi)
    if best.error > x:
        raise ConfigError(
            f"target error ±{x:g}: out of reach — even ε = {hi:g} gives ±{best.error:.6g}; "
            "ask for a larger error or a lower confidence"
        )
    first = at(lo)
    if first.error <= x:
        return replace(first, target_error=x)
    while hi / lo > 1 + rtol:
        mid = math.sqrt(lo * hi)
        plan = at(mid)
        if plan.error <= x:
            hi, best = mid, plan
        else:
            lo = mid
    return replace(best, target_error=x, epsilon_below=lo)


__all__ = [
    "CONFIDENCE",
    "KINDS",
    "Noise",
    "Plan",
    "check_confidence",
    "discrete_gaussian_noise",
    "discrete_gaussian_tails",
    "discrete_laplace_tail",
    "epsilon_for_error",
    "geometric_noise",
    "interval",
    "mean_accuracy",
    "mean_error_bound",
    "query_error",
    "ratio_interval",
    "snapped_gaussian_noise",
    "snapped_laplace_noise",
    "with_interval",
]
