"""Re-identification risk of a microdata table: prosecutor, journalist, marketer, uniqueness.

Every figure here is a function of the *equivalence classes* of the released records: the
groups of records that share one combination of quasi-identifier values (seed 000 §2.3,
Def 3.2).  A record in a class of ``f`` records is re-identified by an attacker who knows the
target's quasi-identifiers with probability ``1/f`` if the target is known to be in the data,
and ``1/F`` if the attacker links against a population in which the class has ``F ≥ f``
members.  The three attacker scenarios are those of El Emam & Dankar, "Protecting privacy
using k-anonymity" (JAMIA 2008) and El Emam, *Guide to the De-Identification of Personal
Health Information* (2013), as implemented by ARX (Prasser & Kohlmayer;
``org.deidentifier.arx.risk``):

* **prosecutor** — the target is known to be in the sample: risk ``1/f_j``;
* **journalist** — the target is someone in the population: risk ``1/F_j``;
* **marketer** — re-identify as many records as possible: ``(1/n) Σ_j f_j / F_j``.

Population uniqueness — the share of the population that is unique on the quasi-identifiers
— is estimated from the sample's class-size histogram with Pitman's model (Hoshino,
"Applying Pitman's sampling formula to microdata disclosure risk assessment", J. Official
Statistics 17(4), 2001) and Zayatz's method (Zayatz, "Estimation of the percent of unique
population elements on a microdata file using the sample", US Census Bureau SRD Report
CENSUS/SRD/RR-91/08, 1991), combined with Dankar et al.'s decision rule (Dankar, El Emam,
Neisa & Roffey, "Estimating the re-identification risk of clinical data sets", BMC Medical
Informatics and Decision Making 12:66, 2012).

Conventions (checked against ARX's ``RiskModelSampleSummary``, ``RiskModelSampleRisks``,
``RiskModelPopulationUniqueness``, ``ModelPitman`` and ``ModelZayatz``):

* a record is *at risk* when its risk is **strictly greater** than the threshold
  (ARX: ``1d / groupSize > threshold``); "records at risk" is a fraction of the records;
* suppressed records (all quasi-identifiers replaced by ``*``) are not part of any class:
  they are excluded from every figure and counted in ``suppressed`` (ARX skips outliers);
* with no population information the journalist scenario falls back to the sample
  (``F_j = f_j``), as ARX does, so it equals the prosecutor scenario and the marketer risk is
  ``classes / records``;
* the journalist's average risk is ``max(classes / Σ F_j, (1/n) Σ f_j / F_j)`` (ARX);
* a sampling fraction ``π`` defines the population size ``N = round(rows / π)`` over all
  rows of the sample (ARX's ``ARXPopulationModel.create(sampleSize, π)``); the estimators use
  the effective fraction ``records / N`` over the records that are not suppressed.

What privlab adds where ARX has no answer: when only a sampling fraction (or population size)
is known, the journalist figures use the Benedetti–Franconi estimate of each record's risk,
``E[1/F_j | f_j]`` under ``F_j − f_j ~ NegBin(f_j, π)`` (Benedetti & Franconi, "Statistical
and technological solutions for controlled data dissemination", NTTS 1998; the "individual
risk" of μ-ARGUS and sdcMicro), instead of ARX's sample fallback.  ARX's third population
model, SNB (Chen & Keller-McNulty 1998), is not implemented; see :func:`dankar_uniques`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl
from scipy.optimize import minimize
from scipy.special import digamma, gammaln, hyp2f1, polygamma
from scipy.stats import hypergeom

from privlab.errors import ConfigError, InputError
from privlab.table.data import MicroTable, to_polars

#: Value that marks a suppressed quasi-identifier cell in a release (ARX and privlab).
SUPPRESSED_VALUE = "*"

#: Sampling fraction at or below which Dankar et al.'s rule picks Pitman's model.
DANKAR_PITMAN_LIMIT = 0.1

_NULL = "\x00<null>"  # stands for a missing cell when grouping, so nulls form a class


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class AttackerRisk:
    """Risk figures of one attacker scenario (ARX's ``RiskSummary``).

    ``fraction_at_risk`` is the fraction of records whose risk exceeds the threshold
    (strictly); ``classes_at_risk`` counts the classes whose risk exceeds it.
    """

    highest: float
    average: float
    lowest: float
    fraction_at_risk: float
    classes_at_risk: int

    def to_dict(self, prefix: str) -> dict[str, float | int]:
        return {
            f"{prefix}_highest_risk": self.highest,
            f"{prefix}_average_risk": self.average,
            f"{prefix}_lowest_risk": self.lowest,
            f"{prefix}_records_at_risk": self.fraction_at_risk,
            f"{prefix}_classes_at_risk": self.classes_at_risk,
        }


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


@dataclass
class RiskReport:
    """All risk figures of one release; ``to_dict()`` is flat except for two nested dicts.

    ``records`` counts the analysed records (not suppressed); ``suppressed`` the excluded
    ones.  ``population_size`` and ``sampling_fraction`` (effective: ``records / N``) are
    ``None`` when no population information was given; the population-uniqueness estimates
    are then ``None`` too.
    """

    records: int
    suppressed: int
    classes: int
    threshold: float
    histogram: dict[int, int]
    prosecutor: AttackerRisk
    journalist: AttackerRisk
    journalist_model: str
    marketer: float
    sample_uniques: int
    population_size: int | None = None
    sampling_fraction: float | None = None
    pitman: UniquenessEstimate | None = None
    zayatz: UniquenessEstimate | None = None
    dankar: UniquenessEstimate | None = None

    @property
    def sample_uniques_fraction(self) -> float:
        """Records in classes of size 1 / records (ARX's ``RiskModelSampleUniqueness``)."""
        return self.sample_uniques / self.records if self.records else 0.0

    def to_dict(self) -> dict[str, Any]:
        sizes = sorted(self.histogram)
        out: dict[str, Any] = {
            "records": self.records,
            "suppressed": self.suppressed,
            "classes": self.classes,
            "smallest_class": sizes[0] if sizes else 0,
            "largest_class": sizes[-1] if sizes else 0,
            "average_class_size": self.records / self.classes if self.classes else 0.0,
            "threshold": self.threshold,
            **self.prosecutor.to_dict("prosecutor"),
            "journalist_model": self.journalist_model,
            **self.journalist.to_dict("journalist"),
            "marketer_risk": self.marketer,
            "sample_uniques": self.sample_uniques,
            "sample_uniques_fraction": self.sample_uniques_fraction,
            "population_size": self.population_size,
            "sampling_fraction": self.sampling_fraction,
        }
        for name in ("pitman", "zayatz", "dankar"):
            est: UniquenessEstimate | None = getattr(self, name)
            out[f"population_uniques_{name}"] = None if est is None else est.uniques
            out[f"population_uniques_fraction_{name}"] = None if est is None else est.fraction
        out["dankar_model"] = None if self.dankar is None else self.dankar.model
        out["class_size_histogram"] = {str(s): self.histogram[s] for s in sizes}
        out["pitman_parameters"] = None if self.pitman is None else dict(self.pitman.parameters)
        return out


# --------------------------------------------------------------------------- validation
def _sizes(sizes: Any) -> np.ndarray:
    arr = np.asarray(sizes)
    if arr.ndim != 1:
        raise InputError(f"class sizes must be a one-dimensional array, got shape {arr.shape}")
    if (
        arr.size
        and not np.issubdtype(arr.dtype, np.integer)
        and (not np.issubdtype(arr.dtype, np.floating) or not np.all(arr == np.round(arr)))
    ):
        raise InputError("class sizes must be whole numbers of records")
    arr = arr.astype(np.int64)
    if arr.size and arr.min() < 1:
        raise InputError(
            f"class sizes must be at least 1; got {int(arr.min())} "
            "(drop empty classes before the risk analysis)"
        )
    return arr


def _check_threshold(threshold: float) -> float:
    t = float(threshold)
    if not (0.0 < t <= 1.0):
        raise ConfigError(f"--threshold {threshold!r}: the risk threshold must be in (0, 1]")
    return t


def _check_fraction(sampling_fraction: float) -> float:
    pi = float(sampling_fraction)
    if not (0.0 < pi <= 1.0):  # also rejects NaN
        raise ConfigError(
            f"--sampling-fraction {sampling_fraction!r}: the sampling fraction (sample size / "
            "population size) must be in (0, 1]"
        )
    return pi


def _population_size(
    rows: int, population_size: int | None, sampling_fraction: float | None
) -> int | None:
    """Population size N from ``--population`` or ``--sampling-fraction`` (``round(rows/π)``)."""
    if population_size is not None and sampling_fraction is not None:
        raise ConfigError(
            "give either --population or --sampling-fraction, not both "
            "(the sampling fraction is records / population size)"
        )
    if sampling_fraction is not None:
        # Java's Math.round (half up), as ARX's ARXPopulationModel
        return max(math.floor(rows / _check_fraction(sampling_fraction) + 0.5), rows)
    if population_size is None:
        return None
    if isinstance(population_size, float) and not population_size.is_integer():
        raise ConfigError(f"--population {population_size!r}: the population size is a count")
    n_pop = int(population_size)
    if n_pop < rows:
        raise ConfigError(
            f"--population {n_pop}: the population must be at least as large as the sample "
            f"({rows} rows)"
        )
    return n_pop


# --------------------------------------------------------------------------- building blocks
def class_size_histogram(sizes: Any) -> tuple[np.ndarray, np.ndarray]:
    """Distinct class sizes (ascending) and how many classes have each size.

    ARX's ``RiskModelHistogram``.  Complexity: O(m log m) for m classes.
    """
    arr = _sizes(sizes)
    return np.unique(arr, return_counts=True)


def prosecutor_risk(sizes: Any, threshold: float = 0.2) -> AttackerRisk:
    """Prosecutor risk: each record is re-identified with probability ``1/f`` of its class.

    Highest = ``1/min f``, lowest = ``1/max f``, average = classes / records (the mean of
    ``1/f`` over records).  Source: El Emam & Dankar (2008); ARX
    ``RiskModelSampleSummary.getProsecutorRisk``.  Complexity: O(m) for m classes.
    """
    f = _sizes(sizes)
    t = _check_threshold(threshold)
    if f.size == 0:
        return AttackerRisk(0.0, 0.0, 0.0, 0.0, 0)
    n = int(f.sum())
    risky = 1.0 / f > t
    return AttackerRisk(
        highest=1.0 / int(f.min()),
        average=f.size / n,
        lowest=1.0 / int(f.max()),
        fraction_at_risk=float(f[risky].sum()) / n,
        classes_at_risk=int(risky.sum()),
    )


def estimated_record_risk(sizes: Any, sampling_fraction: float) -> np.ndarray:
    """Per class, the expected journalist risk ``E[1/F | f]`` of a record in it.

    Benedetti & Franconi (1998): given a sample class of size ``f`` drawn with fraction
    ``π``, the unseen population members ``F − f`` follow a negative binomial
    ``NegBin(f, π)``, so ``E[1/F | f] = π ∫₀¹ s^(f−1) / (π + (1−π) s) ds
    = (π/f) ₂F₁(1, 1; f+1; 1−π)``.  For ``f = 1`` this is ``π ln(1/π) / (1−π)``; at
    ``π = 1`` it is ``1/f``; it never exceeds ``1/f``.  Evaluated with SciPy's ``hyp2f1``
    for ``f < 20`` and with the hypergeometric series (60 terms, truncation error below
    1e-18 relative) for larger ``f``, where ``hyp2f1`` loses accuracy near ``1−π → 1``.
    Complexity: O(m) for m classes.
    """
    f = _sizes(sizes)
    pi = _check_fraction(sampling_fraction)
    out = np.empty(f.size, dtype=np.float64)
    if f.size == 0:
        return out
    z = 1.0 - pi
    small = f < 20
    fs = f[small].astype(np.float64)
    out[small] = pi / fs * hyp2f1(1.0, 1.0, fs + 1.0, z)
    if np.any(~small):
        fl = f[~small].astype(np.float64)[:, None]
        k = np.arange(60, dtype=np.float64)[None, :]
        # term k of ₂F₁(1,1;f+1;z) is k! z^k / (f+1)_k
        log_terms = gammaln(k + 1.0) + gammaln(fl + 1.0) - gammaln(fl + 1.0 + k)
        terms = np.exp(log_terms) * z**k  # numpy: 0.0**0 == 1
        out[~small] = pi / fl[:, 0] * terms.sum(axis=1)
    return np.minimum(out, 1.0 / f)


def journalist_risk(
    sizes: Any,
    population_sizes: Any | None = None,
    *,
    sampling_fraction: float | None = None,
    threshold: float = 0.2,
) -> AttackerRisk:
    """Journalist risk: each record is re-identified with probability ``1/F`` of its class.

    ``population_sizes`` gives ``F_j`` aligned to ``sizes`` (the class's size in the
    population the attacker links against; ``F_j ≥ f_j``).  Without it, a
    ``sampling_fraction`` makes each class's risk the Benedetti–Franconi estimate
    :func:`estimated_record_risk` (with ``E[F_j] = f_j/π`` in the average); with neither,
    ``F_j = f_j`` (ARX's fallback: the prosecutor figures).  Average =
    ``max(classes / Σ F_j, (1/n) Σ f_j/F_j)`` (ARX ``getJournalistRisk``).
    Complexity: O(m) for m classes.
    """
    f = _sizes(sizes)
    t = _check_threshold(threshold)
    if f.size == 0:
        return AttackerRisk(0.0, 0.0, 0.0, 0.0, 0)
    n = int(f.sum())
    if population_sizes is not None:
        big_f = _population_class_sizes(f, population_sizes)
        risk = 1.0 / big_f
        total_pop = float(big_f.sum())
    elif sampling_fraction is not None:
        pi = _check_fraction(sampling_fraction)
        risk = estimated_record_risk(f, pi)
        total_pop = n / pi
    else:
        risk = 1.0 / f
        total_pop = float(n)
    risky = risk > t
    return AttackerRisk(
        highest=float(risk.max()),
        average=max(f.size / total_pop, float(np.dot(f, risk)) / n),
        lowest=float(risk.min()),
        fraction_at_risk=float(f[risky].sum()) / n,
        classes_at_risk=int(risky.sum()),
    )


def marketer_risk(
    sizes: Any, population_sizes: Any | None = None, *, sampling_fraction: float | None = None
) -> float:
    """Marketer risk ``(1/n) Σ_j f_j / F_j``: the expected share of records re-identified.

    With neither population class sizes nor a sampling fraction, ``F_j = f_j`` and the result
    is classes / records (ARX ``getMarketerRisk``); with a sampling fraction, ``1/F_j`` is the
    Benedetti–Franconi estimate (:func:`estimated_record_risk`).  Complexity: O(m).
    """
    f = _sizes(sizes)
    if f.size == 0:
        return 0.0
    if population_sizes is not None:
        risk = 1.0 / _population_class_sizes(f, population_sizes)
    elif sampling_fraction is not None:
        risk = estimated_record_risk(f, sampling_fraction)
    else:
        risk = 1.0 / f
    return float(np.dot(f, risk)) / int(f.sum())


def _population_class_sizes(f: np.ndarray, population_sizes: Any) -> np.ndarray:
    big_f = np.asarray(population_sizes)
    if big_f.shape != f.shape:
        raise InputError(
            f"population class sizes: {big_f.size} values for {f.size} sample classes; "
            "give one population size per sample class, in the same order"
        )
    big_f = big_f.astype(np.float64)
    bad = ~(big_f >= f)  # also catches NaN
    if np.any(bad):
        j = int(np.argmax(bad))
        raise InputError(
            f"population class sizes: class {j} has {int(f[j])} records in the sample but "
            f"{big_f[j]:g} in the population; the population must contain the sample"
        )
    return big_f


# --------------------------------------------------------------------------- population models
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


# --------------------------------------------------------------------------- whole reports
def risk_from_class_sizes(
    sizes: Any,
    *,
    population_sizes: Any | None = None,
    population_size: int | None = None,
    sampling_fraction: float | None = None,
    threshold: float = 0.2,
    suppressed: int = 0,
) -> RiskReport:
    """Every risk figure from the sizes of the equivalence classes (one entry per class).

    ``suppressed`` is the number of suppressed rows of the sample (not in any class; they
    count towards the sample size when ``sampling_fraction`` defines the population size).
    ``population_size`` or ``sampling_fraction`` (not both) enable the journalist estimate
    and the population-uniqueness models; ``population_sizes`` (``F_j`` per class) gives the
    exact journalist and marketer risks.  Raises :class:`ConfigError` for a population smaller
    than the sample or a sampling fraction outside (0, 1].  Complexity: O(m log m + u) for
    m classes (u for Pitman's likelihood).
    """
    f = _sizes(sizes)
    t = _check_threshold(threshold)
    if int(suppressed) < 0:
        raise ConfigError(f"suppressed rows: {suppressed} is negative")
    records = int(f.sum())
    rows = records + int(suppressed)
    big_n = _population_size(rows, population_size, sampling_fraction)
    pi = records / big_n if big_n else None
    sz, cnt = np.unique(f, return_counts=True)
    if population_sizes is not None:
        journalist_model = "population table"
        j_risk = journalist_risk(f, population_sizes, threshold=t)
        m_risk = marketer_risk(f, population_sizes)
    elif pi is not None and records:
        journalist_model = "estimated (Benedetti-Franconi)"
        j_risk = journalist_risk(f, sampling_fraction=pi, threshold=t)
        m_risk = marketer_risk(f, sampling_fraction=pi)
    else:
        journalist_model = "sample (no population information)"
        j_risk = journalist_risk(f, threshold=t)
        m_risk = marketer_risk(f)
    report = RiskReport(
        records=records,
        suppressed=int(suppressed),
        classes=int(f.size),
        threshold=t,
        histogram={int(s): int(c) for s, c in zip(sz, cnt, strict=True)},
        prosecutor=prosecutor_risk(f, t),
        journalist=j_risk,
        journalist_model=journalist_model,
        marketer=m_risk,
        sample_uniques=int(cnt[sz == 1].sum()),
        population_size=big_n,
        sampling_fraction=pi,
    )
    if big_n is not None:
        report.pitman = pitman_uniques(f, big_n)
        report.zayatz = zayatz_uniques(f, big_n)
        report.dankar = dankar_uniques(f, big_n, pitman=report.pitman, zayatz=report.zayatz)
    return report


def _suppressed_mask(suppressed: Any, n_rows: int) -> np.ndarray:
    arr = np.asarray(suppressed)
    if arr.dtype == bool:
        if arr.shape != (n_rows,):
            raise InputError(
                f"suppressed-row mask: {arr.size} values for {n_rows} rows; give one per row"
            )
        return arr
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise InputError("suppressed rows: give a boolean mask or integer row positions")
    idx = arr.astype(np.int64).ravel()
    if idx.size and (idx.min() < 0 or idx.max() >= n_rows):
        raise InputError(f"suppressed rows: positions must be in 0..{n_rows - 1}")
    mask = np.zeros(n_rows, dtype=bool)
    mask[idx] = True
    return mask


def class_sizes_of_frame(
    frame: Any,
    quasi_identifiers: Sequence[str],
    *,
    suppressed: Any | None = None,
    suppressed_value: str | None = SUPPRESSED_VALUE,
) -> tuple[pl.DataFrame, int]:
    """Equivalence classes of a (released) table: ``(classes, suppressed_count)``.

    ``classes`` is a polars frame with the quasi-identifier columns (as text; missing cells
    form a value of their own) and ``size``, one row per class.  Rows flagged by
    ``suppressed`` (boolean mask or row positions) — or, when it is ``None``, rows whose
    quasi-identifiers are all ``suppressed_value`` — are left out and counted.
    Complexity: O(n) hashing (polars group-by).
    """
    data, _ = to_polars(frame)
    qis = list(quasi_identifiers)
    if not qis:
        raise ConfigError("no quasi-identifiers given; name at least one with --qi COLUMN")
    missing = [c for c in qis if c not in data.columns]
    if missing:
        raise ConfigError(
            f"quasi-identifier columns {missing} not found; the columns are {data.columns}"
        )
    keys = data.select([pl.col(c).cast(pl.String).fill_null(_NULL) for c in qis])
    if suppressed is not None:
        mask = _suppressed_mask(suppressed, keys.height)
    elif suppressed_value is not None:
        mask = (
            keys.select(pl.all_horizontal([pl.col(c) == suppressed_value for c in qis]))
            .to_series()
            .to_numpy()
        )
    else:
        mask = np.zeros(keys.height, dtype=bool)
    n_suppressed = int(mask.sum())
    if n_suppressed:
        keys = keys.filter(pl.Series(~mask))
    classes = keys.group_by(qis, maintain_order=True).len(name="size")
    return classes, n_suppressed


def risk_of_frame(
    frame: Any,
    quasi_identifiers: Sequence[str],
    *,
    suppressed: Any | None = None,
    suppressed_value: str | None = SUPPRESSED_VALUE,
    population: Any | None = None,
    population_size: int | None = None,
    sampling_fraction: float | None = None,
    threshold: float = 0.2,
) -> RiskReport:
    """Risk report of a table (polars/pandas DataFrame or path), classes by distinct QI values.

    Suppressed rows (``suppressed`` mask or positions, e.g. ``Release.suppressed_rows``; by
    default rows whose quasi-identifiers are all ``*``) are excluded and counted.
    ``population`` is an optional population table with the same quasi-identifier columns,
    coded like the sample (same generalization): each sample class's size in it is ``F_j``,
    and its row count is the population size unless ``population_size`` is given.
    Complexity: O(n) grouping + that of :func:`risk_from_class_sizes`.
    """
    classes, n_suppressed = class_sizes_of_frame(
        frame, quasi_identifiers, suppressed=suppressed, suppressed_value=suppressed_value
    )
    big_f = None
    if population is not None:
        pop, _ = to_polars(population)
        qis = list(quasi_identifiers)
        absent = [c for c in qis if c not in pop.columns]
        if absent:
            raise ConfigError(
                f"population table: quasi-identifier columns {absent} not found; "
                f"its columns are {pop.columns}"
            )
        pop_classes = (
            pop.select([pl.col(c).cast(pl.String).fill_null(_NULL) for c in qis])
            .group_by(qis)
            .len(name="population_size")
        )
        joined = classes.join(pop_classes, on=qis, how="left", maintain_order="left")
        lost = joined.filter(pl.col("population_size").is_null())
        if lost.height:
            example = {c: lost[c][0] for c in qis}
            raise InputError(
                f"population table: {lost.height} sample classes do not occur in it, e.g. "
                f"{example}; the population must contain the sample, coded the same way"
            )
        big_f = joined["population_size"].to_numpy()
        if population_size is None and sampling_fraction is None:
            population_size = pop.height
    return risk_from_class_sizes(
        classes["size"].to_numpy(),
        population_sizes=big_f,
        population_size=population_size,
        sampling_fraction=sampling_fraction,
        threshold=threshold,
        suppressed=n_suppressed,
    )


def class_sizes_of_codes(codes: np.ndarray) -> np.ndarray:
    """Sizes of the classes of distinct rows of an (n × d) integer code matrix.

    Rows are packed into mixed-radix int64 keys when the code space fits (else grouped
    with ``np.unique(axis=0)``).  Complexity: O(n log n).
    """
    codes = np.asarray(codes, dtype=np.int64)
    if codes.ndim != 2:
        raise InputError(f"codes must be an (n × d) matrix, got shape {codes.shape}")
    if codes.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    radix = codes.max(axis=0) + 1
    if float(np.prod(radix.astype(np.float64))) < 2.0**62:
        weights = np.ones(codes.shape[1], dtype=np.int64)
        for j in range(codes.shape[1] - 2, -1, -1):
            weights[j] = weights[j + 1] * radix[j + 1]
        _, counts = np.unique(codes @ weights, return_counts=True)
    else:
        _, counts = np.unique(codes, axis=0, return_counts=True)
    return counts.astype(np.int64)


def risk_report(
    table: MicroTable,
    population_size: int | None = None,
    sampling_fraction: float | None = None,
    threshold: float = 0.2,
    *,
    suppressed: Any | None = None,
    suppressed_value: str | None = SUPPRESSED_VALUE,
) -> RiskReport:
    """Risk report of an encoded table at its current level of detail (``privlab table risk``).

    Classes are the distinct combinations of quasi-identifier codes.  Rows flagged by
    ``suppressed`` — or, when ``None``, rows whose quasi-identifiers are all
    ``suppressed_value`` (a release's suppressed records) — are excluded and counted.
    See :func:`risk_from_class_sizes` for the figures.  Complexity: O(n log n).
    """
    codes = table.qi_codes
    if suppressed is not None:
        mask = _suppressed_mask(suppressed, table.n_rows)
    elif suppressed_value is not None:
        mask = np.ones(table.n_rows, dtype=bool)
        for j, col in enumerate(table.qi):
            leaf_is_star = table.hierarchies[col].labels[:, 0].astype(str) == suppressed_value
            mask &= leaf_is_star[codes[:, j]]
    else:
        mask = np.zeros(table.n_rows, dtype=bool)
    sizes = class_sizes_of_codes(codes[~mask])
    return risk_from_class_sizes(
        sizes,
        population_size=population_size,
        sampling_fraction=sampling_fraction,
        threshold=threshold,
        suppressed=int(mask.sum()),
    )


__all__ = [
    "DANKAR_PITMAN_LIMIT",
    "SUPPRESSED_VALUE",
    "AttackerRisk",
    "RiskReport",
    "UniquenessEstimate",
    "class_size_histogram",
    "class_sizes_of_codes",
    "class_sizes_of_frame",
    "dankar_uniques",
    "estimated_record_risk",
    "journalist_risk",
    "marketer_risk",
    "pitman_uniques",
    "prosecutor_risk",
    "risk_from_class_sizes",
    "risk_of_frame",
    "risk_report",
    "zayatz_uniques",
]
