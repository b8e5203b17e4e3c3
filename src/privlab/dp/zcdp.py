"""Zero-concentrated differential privacy (zCDP): composition and conversion to (ε, δ).

A mechanism is ρ-zCDP when the Rényi divergence of order α between its output
distributions on neighbouring inputs is at most αρ for every α > 1 (Bun & Steinke,
"Concentrated differential privacy: simplifications, extensions, and lower bounds",
TCC 2016, Definition 1.1).  Facts used here:

* composition adds: ρ₁-zCDP then ρ₂-zCDP is (ρ₁ + ρ₂)-zCDP (Bun & Steinke, Lemma 2.3);
* pure ε-DP implies ε²/2-zCDP (Bun & Steinke, Proposition 1.4);
* the Gaussian mechanism with L2 sensitivity Δ and standard deviation σ is Δ²/(2σ²)-zCDP
  (Bun & Steinke, Proposition 1.6), and so is the discrete Gaussian (Canonne, Kamath &
  Steinke, "The discrete Gaussian for differential privacy", NeurIPS 2020, Theorem 4);
* ρ-zCDP implies (ρ + 2√(ρ ln(1/δ)), δ)-DP for every δ > 0 (Bun & Steinke,
  Proposition 1.3) — the classic conversion;
* and the tighter conversion (Canonne, Kamath & Steinke 2020, Proposition 12 /
  Corollary 13): ρ-zCDP implies (ε, δ)-DP with
  δ = inf_{α>1} exp((α−1)(αρ − ε)) / α · (1 − 1/α)^{α−1}, i.e. for a given δ
  ε = inf_{α>1} αρ + (ln(1/δ) + (α−1) ln(1 − 1/α) − ln α) / (α − 1).
  The same expression with αρ replaced by an RDP curve τ(α) is the conversion Google's
  ``dp-accounting`` applies to RDP (there over a fixed grid of orders; here the infimum is
  taken over all real α > 1, so the value here is never above the grid's).

Every function is O(1): the infimum over α is a bounded one-dimensional minimisation of a
smooth function (Brent's method on ln(α − 1), started from the classic optimum).
"""

from __future__ import annotations

import math

from scipy import optimize

from privlab.dp.accountant import check_delta, check_epsilon
from privlab.errors import ConfigError
from privlab.validate import check_number_in


def check_rho(rho: float, name: str = "rho", *, allow_zero: bool = False) -> float:
    """ρ as a float; ConfigError unless finite and > 0 (≥ 0 with ``allow_zero``)."""
    hint = "ρ of zCDP; ε-DP gives ρ = ε²/2, typical ρ 0.005 to 2"
    return check_number_in(rho, name, 0.0, math.inf, low_open=not allow_zero, hint=hint)


def pure_to_rho(epsilon: float) -> float:
    """ε-DP ⇒ ε²/2-zCDP (Bun & Steinke 2016, Proposition 1.4)."""
    eps = check_epsilon(epsilon)
    return eps * eps / 2


def gaussian_rho(sigma: float, sensitivity: float = 1.0) -> float:
    """ρ = Δ²/(2σ²) of (discrete or continuous) Gaussian noise of standard deviation σ."""
    s = check_rho(sigma, "sigma")
    d = check_rho(sensitivity, "sensitivity")
    return d * d / (2 * s * s)


def compose(rhos: list[float]) -> float:
    """Sequential composition of zCDP guarantees: Σ ρᵢ (Bun & Steinke, Lemma 2.3)."""
    return math.fsum(check_rho(r, allow_zero=True) for r in rhos)


def _target_delta(delta: float) -> float:
    dlt = check_delta(delta)
    if dlt == 0:
        raise ConfigError("delta = 0: a zCDP guarantee converts to (ε, δ)-DP only for δ > 0")
    return dlt


def epsilon_classic(rho: float, delta: float) -> float:
    """ε = ρ + 2√(ρ ln(1/δ)) (Bun & Steinke 2016, Proposition 1.3)."""
    r = check_rho(rho, allow_zero=True)
    dlt = _target_delta(delta)
    return r + 2 * math.sqrt(r * math.log(1 / dlt))


def _cks_epsilon_at(alpha: float, rho: float, log_inv_delta: float) -> float:
    """αρ + (ln(1/δ) + (α−1) ln(1 − 1/α) − ln α)/(α − 1) for one order α > 1."""
    am1 = alpha - 1
    return alpha * rho + (log_inv_delta + am1 * math.log1p(-1 / alpha) - math.log(alpha)) / am1


def epsilon(rho: float, delta: float) -> float:
    """The smallest ε the tighter conversion gives (Canonne, Kamath & Steinke, Cor. 13).

    Never above :func:`epsilon_classic` (the classic optimum α = 1 + √(ln(1/δ)/ρ) is one of
    the orders tried) and never negative.  O(1).
    """
    r = check_rho(rho, allow_zero=True)
    dlt = _target_delta(delta)
    if r == 0:
        return 0.0
    lid = math.log(1 / dlt)
    start = 1 + math.sqrt(lid / r)
    best = min(_cks_epsilon_at(start, r, lid), epsilon_classic(r, dlt))

    def objective(t: float) -> float:
        return _cks_epsilon_at(1 + math.exp(t), r, lid)

    t0 = math.log(start - 1)
    found = optimize.minimize_scalar(
        objective, bounds=(t0 - 12, t0 + 12), method="bounded", options={"xatol": 1e-10}
    )
    if found.success and math.isfinite(found.fun):
        best = min(best, float(found.fun))
    return max(0.0, best)


def delta(rho: float, epsilon_: float) -> float:
    """The smallest δ with (ε, δ)-DP implied by ρ-zCDP (Canonne, Kamath & Steinke, Cor. 13).

    δ = inf_{α>1} exp((α−1)(αρ − ε)) / α · (1 − 1/α)^{α−1}, capped at 1.  O(1).
    """
    r = check_rho(rho, allow_zero=True)
    eps = check_epsilon(epsilon_, "epsilon", allow_zero=True)
    if r == 0:
        return 0.0

    def log_delta(t: float) -> float:
        a = 1 + math.exp(t)
        return (a - 1) * (a * r - eps) - math.log(a) + (a - 1) * math.log1p(-1 / a)

    # the classic optimum of α for this ε: (ε + ρ)/(2ρ)
    t0 = math.log(max((eps + r) / (2 * r) - 1, 1e-9))
    found = optimize.minimize_scalar(
        log_delta, bounds=(t0 - 12, t0 + 12), method="bounded", options={"xatol": 1e-10}
    )
    value = min(log_delta(t0), float(found.fun)) if found.success else log_delta(t0)
    return min(1.0, math.exp(value)) if value < 700 else 1.0


def rho_for(epsilon_: float, delta_: float) -> float:
    """The largest ρ whose tighter conversion is (ε, δ)-DP: the zCDP budget of (ε, δ).  O(1)."""
    eps = check_epsilon(epsilon_, "epsilon")
    dlt = _target_delta(delta_)
    hi = eps  # ρ = ε gives ε' > ε (the αρ term alone is > ρ)
    while epsilon(hi, dlt) < eps:
        hi *= 2
    rho = float(optimize.brentq(lambda r: epsilon(r, dlt) - eps, 0.0, hi, xtol=1e-15))
    while rho > 0 and epsilon(rho, dlt) > eps:
        rho = math.nextafter(rho, 0.0) * (1 - 1e-12)
    return rho


__all__ = [
    "check_rho",
    "compose",
    "delta",
    "epsilon",
    "epsilon_classic",
    "gaussian_rho",
    "pure_to_rho",
    "rho_for",
]
