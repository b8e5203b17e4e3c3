"""Population uniqueness: the estimates of Pitman, Zayatz and Dankar et al.

The number of population records that are unique on the quasi-identifiers, estimated from
the sample's class-size histogram with Pitman's model (Hoshino, "Applying Pitman's sampling
formula to microdata disclosure risk assessment", J. Official Statistics 17(4), 2001; ARX
``ModelPitman``) and Zayatz's method (Zayatz, "Estimation of the percent of unique
population elements on a microdata file using the sample", US Census Bureau SRD Report
CENSUS/SRD/RR-91/08, 1991; ARX ``ModelZayatz``), combined with Dankar et al.'s decision rule
(Dankar, El Emam, Neisa & Roffey, "Estimating the re-identification risk of clinical data
sets", BMC Medical Informatics and Decision Making 12:66, 2012; ARX
``RiskModelPopulationUniqueness``).  ARX's third model, SNB (Chen & Keller-McNulty 1998), is
not implemented; see :func:`dankar_uniques`.

Complexity: Pitman O(u + distinct sizes) per likelihood evaluation, a few hundred
evaluations at most; Zayatz O(distinct sizes); Dankar that of the models it calls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import digamma, gammaln, polygamma
from scipy.stats import hypergeom

from privlab.table.risk.classes import _sizes, class_size_histogram

#: Sampling fraction at or below which Dankar et al.'s rule picks Pitman's model.
DANKAR_PITMAN_LIMIT = 0.1


@dataclass(frozen=True)
class UniquenessEstimate:
    """Estimated number (``uniques``) and share (``fraction``) of population uniques.

    ``uniques`` and ``fraction`` are ``None`` when the model has no valid estimate (the
    solver diverged, or the estimate left ``[0, N]``); ``parameters`` holds the fitted
    parameters (Pitman's θ and α, Zayatz's conditional uniqueness) and ``model`` the model
    used (for Dankar's rule, the model the rule picked).
    """

    model: str
    uniques: float | None
    fraction: float | None
    parameters: dict[str, float | bool] = field(default_factory=dict)


class _PitmanLikelihood:
    """Log-likelihood of Pitman's sampling formula, its gradient and Hessian in (θ, α).

    ``L = Σ_{i<u} log(θ + iα) − Σ_{i<n} log(θ + i) + Σ_j c_j Σ_{i<j} log(i − α)``; the first
    sum is taken term by term (O(u)), the others through log-gamma and polygamma functions.
    θ stays below 1e9, where ``lgamma(θ + n) − lgamma(θ + 1)`` keeps ~1e-6 absolute accuracy.
    """

    def __init__(self, sz: np.ndarray, cnt: np.ndarray) -> None:
        self.sz = sz.astype(np.float64)
        self.cnt = cnt.astype(np.float64)
        self.u = int(cnt.sum())
        self.n = int(np.dot(sz, cnt))
        self.i = np.arange(1, self.u, dtype=np.float64)

    def value(self, t: float, a: float) -> float:
        d = t + self.i * a
        if np.any(d <= 0.0):
            return -math.inf
        return (
            float(np.log(d).sum())
            - float(gammaln(t + self.n) - gammaln(t + 1.0))
            + float(np.dot(self.cnt, gammaln(self.sz - a) - gammaln(1.0 - a)))
        )

    def gradient(self, t: float, a: float) -> np.ndarray:
        d = t + self.i * a
        g_t = float((1.0 / d).sum()) - float(digamma(t + self.n) - digamma(t + 1.0))
        g_a = float((self.i / d).sum()) - float(
            np.dot(self.cnt, digamma(self.sz - a) - digamma(1.0 - a))
        )
        return np.array([g_t, g_a])

    def hessian(self, t: float, a: float) -> np.ndarray:
        d2 = (t + self.i * a) ** 2
        h_tt = -float((1.0 / d2).sum()) + float(polygamma(1, t + 1.0) - polygamma(1, t + self.n))
        h_ta = -float((self.i / d2).sum())
        h_aa = -float((self.i**2 / d2).sum()) - float(
            np.dot(self.cnt, polygamma(1, 1.0 - a) - polygamma(1, self.sz - a))
        )
        return np.array([[h_tt, h_ta], [h_ta, h_aa]])

    def scale(self, t: float, a: float) -> np.ndarray:
        """Magnitudes of the terms of the gradient, to judge it relatively."""
        d = t + self.i * a
        return np.array([float((1.0 / d).sum()) + 1e-300, float((self.i / d).sum()) + 1e-300])


_PITMAN_MAX_THETA = 1e9

_PITMAN_MAX_ALPHA = 1.0 - 1e-9


def _pitman_fit(lik: _PitmanLikelihood, starts: list[tuple[float, float]]):
    """Maximize the likelihood: L-BFGS-B in (log θ, α) from each start, then Newton polish."""

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        t, a = math.exp(float(x[0])), float(x[1])
        value = lik.value(t, a)
        if not math.isfinite(value):
            return 1e300, np.zeros(2)
        g = lik.gradient(t, a)
        return -value, -np.array([g[0] * t, g[1]])

    bounds = [(math.log(1e-12), math.log(_PITMAN_MAX_THETA)), (0.0, _PITMAN_MAX_ALPHA)]
    best = None
    for t0, a0 in starts:
        res = minimize(
            objective,
            np.array([math.log(t0), a0]),
            jac=True,
            method="L-BFGS-B",
            bounds=bounds,
            options={"ftol": 1e-14, "gtol": 1e-10, "maxiter": 2000},
        )
        if best is None or res.fun < best.fun:
            best = res
    t, a = math.exp(float(best.x[0])), float(best.x[1])
    value = lik.value(t, a)
    for _ in range(50):  # Newton polish with step halving, inside the bounds
        g, h = lik.gradient(t, a), lik.hessian(t, a)
        try:
            step = np.linalg.solve(h, -g)
        except np.linalg.LinAlgError:
            break
        if not np.all(np.isfinite(step)):
            break
        for _ in range(40):
            t1, a1 = t + step[0], a + step[1]
            feasible = t1 + (lik.u - 1) * min(a1, 0.0) > 0.0  # every θ + iα > 0
            if 0.0 < t1 <= _PITMAN_MAX_THETA and a1 <= _PITMAN_MAX_ALPHA and feasible:
                v1 = lik.value(t1, a1)
                if v1 >= value:
                    break
            step = step / 2.0
        else:
            break
        if (t1, a1) == (t, a):
            break
        t, a, value = t1, a1, v1
    return t, a


def pitman_uniques(sizes: Any, population_size: int) -> UniquenessEstimate:
    """Population uniques under Pitman's sampling formula (Hoshino 2001).

    The sample partition (``c_j`` classes of size ``j``, ``u`` classes, ``n`` records) has
    log-likelihood ``Σ_{i<u} log(θ + iα) − Σ_{i<n} log(θ + i) + Σ_j c_j Σ_{i<j} log(i − α)``;
    θ and α are its maximum-likelihood estimates over ``0 < θ ≤ 1e9``, ``α < 1`` with every
    ``θ + iα > 0`` (L-BFGS-B in ``(log θ, α ≥ 0)`` with the analytic gradient, from ARX's
    moment guess and two fixed starts, then Newton steps with the analytic Hessian, which may
    cross into ``α < 0`` as ARX's solver does), and the expected number of
    population uniques is ``Γ(θ+1)/Γ(θ+α) · N^α`` (Hoshino's large-N formula; ARX
    ``ModelPitman``).  No sample uniques → 0 uniques (ARX).  There is no estimate when every
    class is unique (the likelihood grows without bound in θ), when the fit does not reach a
    stationary point (relative gradient ≤ 1e-6), or when the estimate leaves ``[0, N]``.
    ARX solves the same equations by Newton–Raphson from its moment guess only, and reports 0
    when that fails; privlab's fit also finds the maximum in cases where ARX's solver
    diverges (or stops at a root where some ``θ + iα < 0``).  Complexity: O(u + distinct
    sizes) per likelihood evaluation, a few hundred evaluations at most.
    """
    sz, cnt = class_size_histogram(sizes)
    u = int(cnt.sum())
    n = int(np.dot(sz, cnt))
    big_n = int(population_size)
    c1 = int(cnt[sz == 1].sum())
    c2 = int(cnt[sz == 2].sum())
    if c1 == 0:
        return UniquenessEstimate("pitman", 0.0, 0.0, {})
    if u == n or big_n < n:
        return UniquenessEstimate("pitman", None, None, {"converged": False})
    lik = _PitmanLikelihood(sz, cnt)
    starts = [(1.0, 0.5), (float(u), 0.5)]
    # ARX's initial guess (moment-type estimates from c1, c2, u, n)
    c = c1 * (c1 - 1.0) / (c2 if c2 else 1.0)
    denom = 2.0 * c1 * u + c1 * c - n * c
    t0 = (n * u * c - c1 * (n - 1.0) * (2.0 * u + c)) / denom if denom else math.nan
    a0 = (t0 * (c1 - n) + (n - 1.0) * c1) / (n * u)
    if math.isfinite(t0) and 0.0 < t0 < _PITMAN_MAX_THETA and math.isfinite(a0) and 0 < a0 < 1:
        starts.insert(0, (t0, a0))
    theta, alpha = _pitman_fit(lik, starts)
    g = lik.gradient(theta, alpha) / lik.scale(theta, alpha)
    stationary = abs(g[0]) <= 1e-6 and abs(g[1]) <= 1e-6
    converged = stationary and theta < _PITMAN_MAX_THETA * (1 - 1e-9)
    params: dict[str, float | bool] = {
        "theta": float(theta),
        "alpha": float(alpha),
        "converged": bool(converged),
    }
    if not converged:
        return UniquenessEstimate("pitman", None, None, params)
    log_uniques = gammaln(theta + 1.0) - gammaln(theta + alpha) + alpha * math.log(big_n)
    uniques = math.exp(log_uniques) if log_uniques < 700 else math.inf
    if not (0.0 <= uniques <= big_n):
        return UniquenessEstimate("pitman", None, None, params)
    return UniquenessEstimate("pitman", uniques, uniques / big_n, params)


def zayatz_uniques(sizes: Any, population_size: int) -> UniquenessEstimate:
    """Population uniques by Zayatz's (1991) method.

    Assuming the population's class-size distribution equals the sample's, the probability
    that a sample unique is a population unique is
    ``P(unique | f = 1) = (c_1 · h(1; N, 1, n)) / Σ_j c_j · h(1; N, j, n)``, where
    ``h(1; N, j, n)`` is the hypergeometric probability that a sample of ``n`` from ``N``
    holds exactly one member of a class of ``j``; the population uniques are
    ``c_1 · P(unique | f = 1) / π`` with ``π = n / N`` (ARX ``ModelZayatz``).  The estimate
    never exceeds ``c_1 / π``, so the share of population uniques never exceeds the share of
    sample uniques.  Complexity: O(distinct class sizes).
    """
    sz, cnt = class_size_histogram(sizes)
    n = int(np.dot(sz, cnt))
    big_n = int(population_size)
    c1 = int(cnt[sz == 1].sum())
    if c1 == 0:
        return UniquenessEstimate("zayatz", 0.0, 0.0, {})
    if big_n < n:
        return UniquenessEstimate("zayatz", None, None, {})
    prob = hypergeom.pmf(1, big_n, sz, n)
    total = float(np.dot(cnt, prob))
    if not (total > 0.0 and math.isfinite(total)):
        return UniquenessEstimate("zayatz", None, None, {})
    conditional = c1 * float(prob[0]) / total  # sz[0] == 1 since c1 > 0
    uniques = c1 * conditional * big_n / n
    return UniquenessEstimate(
        "zayatz", uniques, uniques / big_n, {"conditional_uniqueness": conditional}
    )


def dankar_uniques(
    sizes: Any,
    population_size: int,
    *,
    pitman: UniquenessEstimate | None = None,
    zayatz: UniquenessEstimate | None = None,
) -> UniquenessEstimate:
    """Population uniques by Dankar et al.'s (2012) decision rule.

    With sampling fraction ``π = n/N ≤ 0.1`` use Pitman's estimate, falling back to Zayatz's
    when Pitman has none; above 0.1 Dankar et al. (and ARX) take the smaller of Zayatz's and
    SNB's estimates.  privlab has no SNB model, so it reports Zayatz's there — never below
    the rule's value, i.e. conservative.  ``model`` names the model used.  Pass the
    already-computed ``pitman`` / ``zayatz`` estimates to avoid recomputing them.
    Complexity: that of the models it calls.
    """
    f = _sizes(sizes)
    n = int(f.sum())
    if not np.any(f == 1):
        return UniquenessEstimate("dankar", 0.0, 0.0, {})
    if n <= DANKAR_PITMAN_LIMIT * int(population_size):
        est = pitman if pitman is not None else pitman_uniques(f, population_size)
        if est.uniques is not None:
            return UniquenessEstimate("pitman", est.uniques, est.fraction, dict(est.parameters))
    est = zayatz if zayatz is not None else zayatz_uniques(f, population_size)
    return UniquenessEstimate("zayatz", est.uniques, est.fraction, dict(est.parameters))
