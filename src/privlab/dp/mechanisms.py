"""Differentially private mechanisms on exact noise: Laplace, geometric, Gaussian,
exponential (permute-and-flip), randomized response.

Every mechanism returns a :class:`Release`: the noisy value and the guarantee it carries
((ε, δ), the mechanism, the noise parameters actually used, and whether the noise came from
a fixed — insecure — seed).  Parameters are rounded only on the safe side (noise up, ε
down; :mod:`privlab.dp.noise`), so the stated guarantee always holds.

Sources: seed 000 §2.6 (Laplace mechanism, Theorem 5.2: Lap(Δf/ε) per coordinate gives
ε-DP for L1 sensitivity Δf) and §2.7 (exponential mechanism, Def 6.3); Ghosh, Roughgarden &
Sundararajan (STOC 2009, geometric mechanism); Balle & Wang, "Improving the Gaussian
mechanism for differential privacy: analytical calibration and optimal denoising" (ICML
2018, Theorem 8); Canonne, Kamath & Steinke (NeurIPS 2020, Theorem 7: privacy of the
discrete Gaussian); McKenna & Sheldon, "Permute-and-flip" (NeurIPS 2020); Warner (1965) and
Kairouz, Oh & Viswanath (2016) for k-ary randomized response.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.dp.accountant import Budget, _as_float, check_delta, check_epsilon
from privlab.dp.accuracy import (
    discrete_gaussian_noise,
    geometric_noise,
    snapped_gaussian_noise,
    snapped_laplace_noise,
    with_interval,
)
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
from privlab.errors import ConfigError, InputError


@dataclass(frozen=True)
class Release:
    """A differentially private output and the guarantee it carries."""

    value: Any
    epsilon: float
    delta: float
    mechanism: str
    parameters: dict[str, Any] = field(default_factory=dict)
    insecure_seed: bool = False
    #: noise scale and 95 % interval (:mod:`privlab.dp.accuracy`), from public parameters
    accuracy: dict[str, Any] | None = None

    @property
    def budget(self) -> Budget:
        return Budget(self.epsilon, self.delta)

    def to_dict(self) -> dict[str, Any]:
        value = self.value
        if isinstance(value, np.ndarray):
            value = value.tolist()
        elif isinstance(value, np.generic):
            value = value.item()
        return {
            "value": value,
            "epsilon": self.epsilon,
            "delta": self.delta,
            "mechanism": self.mechanism,
            "parameters": dict(self.parameters),
            "insecure_seed": self.insecure_seed,
            **({"accuracy": with_interval(self.value, self.accuracy)} if self.accuracy else {}),
        }


def check_sensitivity(sensitivity: float, name: str = "sensitivity") -> float:
    """Sensitivity as a float; ConfigError unless finite and > 0."""
    value = _as_float(sensitivity, name, "a number > 0")
    if not math.isfinite(value) or value <= 0:
        raise ConfigError(f"{name} = {sensitivity!r}: the sensitivity must be finite and > 0")
    return value


def _numeric(value: Any, name: str = "value") -> np.ndarray:
    arr = np.asarray(value)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise InputError(f"{name}: numbers expected, got {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
        raise InputError(f"{name}: NaN or infinite entries cannot be released; remove them")
    return arr


def _shape_like(noisy: np.ndarray, original: Any) -> Any:
    if np.ndim(original) == 0:
        return noisy.reshape(()).item()
    return noisy


def _is_integral(x: float) -> bool:
    return float(x).is_integer()


# ---------------------------------------------------------------------------- Laplace
def geometric(value: Any, sensitivity: int, epsilon: float, *, seed: Any = None) -> Release:
    """ε-DP integer release: value + two-sided geometric noise of scale Δ/ε (exact).

    The geometric mechanism (Ghosh et al. 2009) is the discrete Laplace mechanism; for
    integer-valued queries it is exactly ε-DP with integer outputs.  O(d) for d coordinates.
    """
    eps = check_epsilon(epsilon)
    sens = check_sensitivity(sensitivity)
    arr = _numeric(value)
    if not np.issubdtype(arr.dtype, np.integer) or not _is_integral(sens):
        raise InputError(
            "geometric mechanism: integer values and an integer sensitivity are required; "
            "use laplace() for real values"
        )
    rng = secure_generator(seed)
    scale = Fraction(int(sens)) / rational_at_most(eps)
    noisy = arr.astype(np.int64) + np.asarray(discrete_laplace(scale, arr.shape, rng=rng))
    return Release(
        _shape_like(noisy, value),
        eps,
        0.0,
        "geometric",
        {"sensitivity": int(sens), "scale": float(scale)},
        is_insecure_seed(seed),
        geometric_noise(rational_at_least(scale)).describe(),
    )


def laplace(value: Any, sensitivity: float, epsilon: float, *, seed: Any = None) -> Release:
    """ε-DP release with Laplace noise of scale Δ/ε per coordinate (seed 000 Theorem 5.2).

    ``sensitivity`` is the L1 sensitivity Δ of the whole vector.  Integer values with an
    integer Δ get the exact geometric mechanism; real values get floating-point-safe
    Laplace noise on a grid (:func:`privlab.dp.noise.snap_laplace`).  O(d).
    """
    arr = _numeric(value)
    sens = check_sensitivity(sensitivity)
    if np.issubdtype(arr.dtype, np.integer) and _is_integral(sens):
        return geometric(value, int(sens), epsilon, seed=seed)
    eps = check_epsilon(epsilon)
    rng = secure_generator(seed)
    noisy, grid = snap_laplace(arr, sens, eps, rng=rng)
    return Release(
        _shape_like(noisy, value),
        eps,
        0.0,
        "laplace",
        {"sensitivity": sens, "scale": sens / eps, "grid": grid},
        is_insecure_seed(seed),
        snapped_laplace_noise(sens, eps, grid, max(1, arr.size)).describe(),
    )


# ---------------------------------------------------------------------------- Gaussian
def _gaussian_delta(sigma: float, sensitivity: float, epsilon: float) -> float:
    """Exact δ of the Gaussian mechanism (Balle & Wang 2018, Theorem 8)."""
    from scipy import special  # imported here: `import privlab.dp` stays free of SciPy

    a = sensitivity / (2 * sigma)
    b = epsilon * sigma / sensitivity
    return float(special.ndtr(a - b) - math.exp(epsilon + special.log_ndtr(-a - b)))


def analytic_gaussian_sigma(sensitivity: float, epsilon: float, delta: float) -> float:
    """The smallest σ for which N(0, σ²) noise is (ε, δ)-DP for L2 sensitivity Δ.

    Balle & Wang's analytic calibration: solve Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) = δ
    (the condition is necessary and sufficient; δ(σ) decreases in σ).  Unlike the classical
    σ = Δ√(2 ln(1.25/δ))/ε it holds for every ε > 0 and is never larger.  The root is
    bracketed and found by Brent's method, then nudged up until δ(σ) ≤ δ holds in floating
    point.  O(log(1/tolerance)).
    """
    sens = check_sensitivity(sensitivity, "l2_sensitivity")
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    if dlt == 0:
        raise ConfigError("delta = 0: the Gaussian mechanism needs δ > 0; use laplace()")
    from scipy import optimize

    lo, hi = sens * 1e-6, sens
    while _gaussian_delta(hi, sens, eps) > dlt:
        lo, hi = hi, hi * 2
    sigma = optimize.brentq(lambda s: _gaussian_delta(s, sens, eps) - dlt, lo, hi, xtol=1e-15)
    while _gaussian_delta(sigma, sens, eps) > dlt:
        sigma = math.nextafter(sigma, math.inf) * (1 + 1e-12)
    return sigma


def _discrete_gaussian_delta(sigma2: Fraction, sensitivity: int, epsilon: float) -> float:
    """δ of the discrete Gaussian mechanism N_ℤ(0, σ²) (Canonne et al. 2020, Theorem 7).

    δ = P[Y > εσ²/Δ − Δ/2] − e^ε P[Y > εσ²/Δ + Δ/2], Y ~ N_ℤ(0, σ²), summed over the
    support within ±(40σ + Δ) (the rest weighs less than e^-800).  O(σ).
    """
    s2 = float(sigma2)
    sigma = math.sqrt(s2)
    reach = int(40 * sigma + sensitivity + epsilon * s2 / sensitivity) + 1
    y = np.arange(-reach, reach + 1, dtype=np.float64)
    weight = np.exp(-(y * y) / (2 * s2))
    weight /= weight.sum()
    c = epsilon * s2 / sensitivity
    upper = weight[y > c - sensitivity / 2].sum()
    lower = weight[y > c + sensitivity / 2].sum()
    if lower == 0:
        return float(upper)
    log_term = epsilon + math.log(lower)  # e^ε alone overflows a float for ε > 709
    return float(upper - math.exp(log_term)) if log_term < 709 else -math.inf


def gaussian(
    value: Any, l2_sensitivity: float, epsilon: float, delta: float, *, seed: Any = None
) -> Release:
    """(ε, δ)-DP release with Gaussian noise, analytically calibrated (Balle & Wang).

    Integer values with an integer Δ₂ get the exact discrete Gaussian; its δ is checked with
    Canonne et al.'s exact formula (Theorem 7) for σ ≤ 10^5 and σ² raised by 0.1 % steps
    until it holds.  Real values get floating-point-safe Gaussian noise on a grid.  O(d + σ).
    """
    arr = _numeric(value)
    sens = check_sensitivity(l2_sensitivity, "l2_sensitivity")
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    sigma = analytic_gaussian_sigma(sens, eps, dlt)
    rng = secure_generator(seed)
    params: dict[str, Any] = {"l2_sensitivity": sens, "sigma": sigma}
    if np.issubdtype(arr.dtype, np.integer) and _is_integral(sens):
        sigma2 = rational_at_least(sigma * sigma, "sigma2", bounded=False)
        if sigma <= 1e5:
            while _discrete_gaussian_delta(sigma2, int(sens), eps) > dlt:
                sigma2 = rational_at_least(float(sigma2) * 1.001, "sigma2", bounded=False)
        noisy = arr.astype(np.int64) + np.asarray(discrete_gaussian(sigma2, arr.shape, rng=rng))
        params["sigma"] = math.sqrt(float(sigma2))
        mechanism = "discrete_gaussian"
        noise = discrete_gaussian_noise(sigma2)
    else:
        noisy, grid = snap_gaussian(arr, sigma, sens, rng=rng)
        params["grid"] = grid
        mechanism = "gaussian"
        noise = snapped_gaussian_noise(sigma, sens, grid, max(1, arr.size))
    return Release(
        _shape_like(noisy, value), eps, dlt, mechanism, params, is_insecure_seed(seed),
        noise.describe(),
    )  # fmt: skip


# ---------------------------------------------------------------------------- exponential
def exponential(
    scores: Any,
    sensitivity: float,
    epsilon: float,
    *,
    monotonic: bool = False,
    seed: Any = None,
) -> Release:
    """ε-DP choice of an index with high score: the exponential mechanism (seed 000 §2.7).

    Sampled by permute-and-flip (McKenna & Sheldon 2020): visit the candidates in random
    order and accept r with probability exp(ε(q_r − q*)/(2Δ)) (ε(q_r − q*)/Δ when the
    score is ``monotonic`` in the data set, e.g. counts); the best candidate is always
    accepted.  Its expected error is never worse than the exponential mechanism's and the
    Bernoulli trials are exact (scores taken as exact rationals).  All trials are drawn at
    once and the first success in the random order wins — the same distribution.  O(n).
    Returns the chosen index as the release value.
    """
    eps = check_epsilon(epsilon)
    sens = check_sensitivity(sensitivity)
    arr = _numeric(scores, "scores").ravel()
    if arr.size == 0:
        raise InputError("scores: the exponential mechanism needs at least one candidate")
    rng = secure_generator(seed)
    e = rational_at_most(eps)
    factor = e / (Fraction(sens) * (1 if monotonic else 2))  # γ_r = factor · (q* − q_r)
    if np.issubdtype(arr.dtype, np.integer):
        gap = (arr.max() - arr).astype(object)
    else:
        best = Fraction(float(arr.max()))
        gap = np.array([best - Fraction(float(q)) for q in arr], dtype=object)
    num = np.array([(factor * g).numerator for g in gap], dtype=object)
    den = np.array([(factor * g).denominator for g in gap], dtype=object)
    accept = bernoulli_exp(num, den, rng)
    order = rng.permutation(arr.size)
    chosen = int(order[np.argmax(accept[order])])
    return Release(
        chosen,
        eps,
        0.0,
        "exponential (permute-and-flip)",
        {"sensitivity": sens, "monotonic": monotonic, "candidates": int(arr.size)},
        is_insecure_seed(seed),
    )


# ---------------------------------------------------------------------------- randomized response
def randomized_response(
    values: Any, categories: int, epsilon: float, *, seed: Any = None
) -> Release:
    """ε-local-DP k-ary randomized response on integer codes 0..k−1.

    Each value is kept with probability e^ε/(e^ε + k − 1) and otherwise replaced by one of
    the k − 1 others uniformly.  Sampled exactly by rejection: propose a uniform category,
    accept the true one always and any other with Bernoulli(e^−ε).  ``unbias`` the counts
    with :func:`rr_frequencies`.  O(n) expected (O(n·k·e^ε/(e^ε + k − 1)⁻¹) proposals).
    """
    eps = check_epsilon(epsilon)
    k = int(categories)
    if k < 2 or k != categories:
        raise ConfigError(f"categories = {categories!r}: give an integer ≥ 2")
    arr = _numeric(values, "values")
    if not np.issubdtype(arr.dtype, np.integer):
        raise InputError("values: integer category codes 0..k−1 expected")
    bad = (arr < 0) | (arr >= k)
    if bad.any():
        raise InputError(
            f"values: {int(np.count_nonzero(bad))} code(s) outside 0..{k - 1}; encode every "
            f"value as one of the {k} categories first"
        )
    rng = secure_generator(seed)
    e = rational_at_most(eps)
    flat = arr.ravel().astype(np.int64)
    out = np.empty_like(flat)
    pending = np.arange(flat.size)
    while pending.size:
        proposal = rng.integers(0, k, size=pending.size)
        ok = proposal == flat[pending]
        others = np.flatnonzero(~ok)
        if others.size:
            ok[others] = bernoulli_exp(e.numerator, np.full(others.size, e.denominator), rng)
        out[pending[ok]] = proposal[ok]
        pending = pending[~ok]
    keep = math.exp(float(e)) / (math.exp(float(e)) + k - 1)
    return Release(
        out.reshape(arr.shape),
        eps,
        0.0,
        "randomized_response",
        {"categories": k, "keep_probability": keep, "epsilon_used": float(e)},
        is_insecure_seed(seed),
    )


def rr_frequencies(release: Release) -> np.ndarray:
    """Unbiased category frequencies from a randomized-response release.

    E[observed share of c] = p·f_c + (1 − p)(1 − f_c)/(k − 1), solved for f_c.  O(n + k).
    """
    k = release.parameters["categories"]
    p = release.parameters["keep_probability"]
    observed = np.bincount(np.asarray(release.value).ravel(), minlength=k) / np.size(release.value)
    q = (1 - p) / (k - 1)
    return (observed - q) / (p - q)


__all__ = [
    "Release",
    "analytic_gaussian_sigma",
    "check_sensitivity",
    "exponential",
    "gaussian",
    "geometric",
    "laplace",
    "randomized_response",
    "rr_frequencies",
]
