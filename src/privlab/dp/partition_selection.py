"""Differentially private partition selection: which groups of a group-by may be released
when the group keys themselves are private.

A group that exists only because of one unit would reveal that unit by merely appearing.
The fix (Korolova, Kenthapadi, Mishra & Ntoulas, WWW 2009; Wilson, Zhang, Lam, Desfontaines,
Simmons-Marengo & Gipson, "Differentially Private SQL with Bounded User Contribution",
PoPETs 2020, §4 and Algorithm 1; Desfontaines, Voss, Gipson & Mandayam, "Differentially
private partition selection", PoPETs 2022, §3–§5): count the *distinct units* of each group
(after contribution bounding, so one unit is in at most Δ₀ = max_groups groups), add noise,
and release a group only when its noisy count reaches a threshold τ.

**Laplace (pure ε + threshold δ).**  Noise Z ~ DLap(b), b = Δ₀/ε (the exact two-sided
geometric of :func:`privlab.dp.noise.discrete_laplace`; P(z) ∝ α^|z|, α = e^{−1/b}).  For
two neighbouring data sets D ∋ u and D' = D − u:

* on the groups present in both, the unit counts differ by at most 1 in at most Δ₀ groups
  (L1 ≤ Δ₀), so the noisy counts are ε-DP, and thresholding them is post-processing;
* at most Δ₀ groups exist only in D, each with count 1; it is released only if
  1 + Z ≥ τ.  With P[Z ≥ k] = α^k/(1 + α) (k ≥ 0, summing the geometric pmf), the union bound
  gives δ ≤ Δ₀·α^{τ−1}/(1 + α).

So τ is the smallest integer with Δ₀·α^{τ−1}/(1 + α) ≤ δ:
τ = 1 + ⌈b·ln(Δ₀ / (δ(1 + α)))⌉ — the discrete form of Wilson et al.'s
τ = 1 + (Δ₀/ε)·ln(Δ₀/(2δ)) (their continuous Laplace has tail ½e^{−k/b}; 1 + α → 2 as b grows).
Desfontaines et al. (Theorem 1) show the per-group optimum is slightly better than the
union bound, δ = 1 − (1 − p)^Δ₀; we keep the union bound, the simpler safe side.

**Gaussian (ρ-zCDP + threshold δ).**  Noise Y ~ N_ℤ(0, σ²) with σ² = Δ₀/(2ρ) (L2
sensitivity √Δ₀: Canonne, Kamath & Steinke, NeurIPS 2020, Theorem 4 and §2.2 for independent
coordinates); τ is the smallest integer with Δ₀·P[Y ≥ τ − 1] ≤ δ, P computed by summing the
discrete Gaussian pmf (as Google's and PipelineDP's Gaussian partition selection, with the
exact discrete tail instead of the normal one).  The ρ of the counts is converted to (ε, δ)
together with the rest of the release (:mod:`privlab.dp.groupby`).

Both need δ > 0: with δ = 0 no threshold can hide a group of one unit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.dp.accountant import check_delta, check_epsilon
from privlab.dp.accuracy import discrete_gaussian_tails, discrete_laplace_tail
from privlab.dp.noise import (
    discrete_gaussian,
    discrete_laplace,
    rational_at_least,
    rational_at_most,
)
from privlab.errors import ConfigError

#: Safety margin on δ against rounding in the floating-point tails.
_MARGIN = 1 - 1e-9


@dataclass(frozen=True)
class PartitionSelection:
    """The calibrated selection: noise, threshold and the δ it spends.

    ``scale``: b of the discrete Laplace, or σ of the discrete Gaussian.  ``single_unit``:
    the probability that a group holding one unit is released (≤ δ/Δ₀).
    """

    mechanism: str  #: "laplace" or "gaussian"
    max_groups: int  #: Δ₀, the most groups one unit is in
    delta: float  #: the δ of the threshold
    scale: float
    threshold: int  #: τ: released when the noisy unit count ≥ τ
    single_unit: float
    epsilon: float | None = None  #: of the Laplace counts
    rho: float | None = None  #: of the Gaussian counts
    _exact: Fraction | None = None  #: the scale (b) or σ² actually sampled with

    def to_dict(self) -> dict[str, Any]:
        return {
            "mechanism": self.mechanism,
            "epsilon": self.epsilon,
            "rho": self.rho,
            "delta": self.delta,
            "max_groups_per_unit": self.max_groups,
            "noise_scale" if self.mechanism == "laplace" else "sigma": self.scale,
            "threshold": self.threshold,
            "release_probability_of_a_one_unit_group": self.single_unit,
            "source": "Wilson et al. PoPETs 2020 §4; Desfontaines et al. PoPETs 2022",
        }

    def keep(self, unit_counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Which groups are released: noisy unit count ≥ threshold.  O(groups)."""
        counts = np.asarray(unit_counts, dtype=np.int64)
        if self.mechanism == "laplace":
            noise = discrete_laplace(self._exact, counts.shape, rng=rng)
        else:
            noise = discrete_gaussian(self._exact, counts.shape, rng=rng)
        return counts + np.asarray(noise) >= self.threshold


def _check(delta: float, max_groups: int) -> tuple[float, int]:
    dlt = check_delta(delta)
    if dlt == 0:
        raise ConfigError(
            "delta = 0: private group keys need δ > 0 for partition selection (a group of "
            "one unit is released with probability ≤ δ); give δ (e.g. 1e-6, below 1/units) "
            "or public keys"
        )
    if isinstance(max_groups, bool) or int(max_groups) != max_groups or max_groups < 1:
        raise ConfigError(f"max_groups = {max_groups!r}: give a whole number ≥ 1")
    return dlt, int(max_groups)


def _one_sided(two_sided: Callable[[int], float], k: int) -> float:
    """P[Z ≥ k] of a noise symmetric about 0 from T(j) = P(|Z| > j): T(k − 1)/2 for k ≥ 1,
    1 − T(−k)/2 for k ≤ 0."""
    return two_sided(k - 1) / 2 if k >= 1 else 1 - two_sided(-k) / 2


def laplace_tail(scale: Fraction | float, k: int) -> float:
    """P[Z ≥ k] for Z ~ DLap(scale): α^k/(1 + α) for k ≥ 1, α = e^{−1/scale}.  O(1)."""
    return _one_sided(lambda j: discrete_laplace_tail(float(scale), j), k)


def _gaussian_two_sided(sigma2: Fraction | float) -> Callable[[int], float]:
    tails = discrete_gaussian_tails(math.sqrt(float(sigma2)))
    return lambda j: float(tails[j]) if j < tails.size else 0.0


def gaussian_tail(sigma2: Fraction | float, k: int) -> float:
    """P[Y ≥ k] for Y ~ N_ℤ(0, σ²), from the exact tail table of
    :func:`privlab.dp.accuracy.discrete_gaussian_tails` (the pmf summed out to 38σ).  O(σ)."""
    return _one_sided(_gaussian_two_sided(sigma2), k)


def laplace_selection(epsilon: float, delta: float, max_groups: int = 1) -> PartitionSelection:
    """Thresholded discrete Laplace selection spending (ε, δ) (see the module's docstring).
    O(log(1/δ))."""
    eps = check_epsilon(epsilon)
    dlt, g = _check(delta, max_groups)
    scale = rational_at_least(Fraction(g) / rational_at_most(eps), "scale")
    alpha = math.exp(-1 / float(scale))
    target = dlt / g * _MARGIN
    k = max(0, math.ceil(float(scale) * math.log(1 / (target * (1 + alpha)))))
    while laplace_tail(scale, k) > target:
        k += 1
    while k > 0 and laplace_tail(scale, k - 1) <= target:
        k -= 1
    return PartitionSelection(
        "laplace", g, dlt, float(scale), 1 + k, laplace_tail(scale, k), epsilon=eps, _exact=scale
    )


def gaussian_selection(rho: float, delta: float, max_groups: int = 1) -> PartitionSelection:
    """Thresholded discrete Gaussian selection: ρ-zCDP for the counts plus δ for the
    threshold (see the module's docstring).  O(σ)."""
    r = check_epsilon(rho, "rho")
    dlt, g = _check(delta, max_groups)
    sigma2 = rational_at_least(g / (2 * r), "sigma2", bounded=False)
    target = dlt / g * _MARGIN
    sigma = math.sqrt(float(sigma2))
    tails = discrete_gaussian_tails(sigma)  # tails[j] = P(|Y| > j), so P[Y ≥ k] = tails[k − 1]/2
    k = 1 + int(np.argmax(tails / 2 <= target))  # the last entry is 0: always found
    if gaussian_tail(sigma2, 0) <= target:
        k = 0
    return PartitionSelection(
        "gaussian", g, dlt, sigma, 1 + k, gaussian_tail(sigma2, k), rho=r, _exact=sigma2
    )


__all__ = [
    "PartitionSelection",
    "gaussian_selection",
    "gaussian_tail",
    "laplace_selection",
    "laplace_tail",
]
