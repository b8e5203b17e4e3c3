"""Power-law exponent of a degree sequence: Clauset, Shalizi & Newman (2009), discrete case.

Seed 000 §2.9: p(x) ∝ x^−α for x ≥ x_min, estimated with CSN's method but with x_min
fixed at 3; the experiments report the change in α.  Both are offered here: a fixed x_min
(default 3) or x_min chosen by minimizing the Kolmogorov–Smirnov distance (CSN §3.3).

Discrete MLE (CSN eq. 3.5): α maximizes L(α) = −n ln ζ(α, x_min) − α Σ ln x_i, where ζ is
the Hurwitz zeta function; L is concave, so the bounded Brent search finds the unique
maximum.  ``method="approx"`` is CSN eq. 3.7, α ≈ 1 + n / Σ ln(x_i / (x_min − ½)).
Standard error (CSN eq. 3.6): σ = 1/sqrt(n · d²/dα² ln ζ(α, x_min)).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph, as_graph
from privlab.graph.utility._base import check_choice

_ALPHA_MAX = 50.0
_METRIC = "power-law exponent"


@dataclass(frozen=True)
class PowerLawFit:
    """α and x_min, the tail size, CSN's standard error σ and the KS distance of the fit."""

    alpha: float
    x_min: int
    n_tail: int
    n: int
    sigma: float
    ks_distance: float
    method: str
    x_min_fitted: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def power_law_exponent(data: Any, *, x_min: int | str = 3, method: str = "mle") -> PowerLawFit:
    """Fit p(x) ∝ x^−α, x ≥ x_min, to the degrees of an undirected graph or to a 1-D array
    of non-negative integers (values below x_min are left out, as CSN do).

    ``x_min``: an integer ≥ 1 (default 3, seed 000 §2.9) or ``"fit"`` (KS minimization
    over the distinct values, CSN §3.3).  ``method``: ``"mle"`` (exact discrete MLE) or
    ``"approx"`` (CSN eq. 3.7).  InputError if the tail has fewer than two distinct values
    (α is then unbounded).  Cost: O(n log n + u·z) for a fixed x_min, O(u²·z) fitted, with
    u distinct values and z the cost of a Hurwitz zeta evaluation.
    """
    check_choice(method, ("mle", "approx"), "method", _METRIC)
    x = np.sort(_values(data))
    if isinstance(x_min, str):
        check_choice(x_min, ("fit",), "x_min", _METRIC)
        return _fit_x_min(x, method)
    if isinstance(x_min, bool) or not isinstance(x_min, int | np.integer) or x_min < 1:
        raise ConfigError(f"{_METRIC}: x_min = {x_min!r}: give an integer ≥ 1 or 'fit'")
    tail = x[np.searchsorted(x, int(x_min)) :]
    if np.unique(tail).size < 2:
        raise InputError(
            f"{_METRIC}: the tail x ≥ x_min = {x_min} has {tail.size} values and "
            f"{np.unique(tail).size} distinct ones; α needs at least two distinct values "
            "(lower x_min or use x_min='fit')"
        )
    alpha, ks = _fit_tail(tail, int(x_min), method)
    return PowerLawFit(
        alpha, int(x_min), tail.size, x.size, _sigma(alpha, int(x_min), tail.size), ks,
        method, False,
    )  # fmt: skip


def _values(data: Any) -> np.ndarray:
    is_graph = isinstance(data, Graph) or type(data).__module__.split(".", 1)[0] in (
        "networkx",
        "igraph",
    )
    if is_graph:
        return as_graph(data, _METRIC, undirected=True).degrees().astype(np.int64)
    x = np.asarray(data)
    if x.ndim != 1 or x.dtype.kind not in "iuf":
        raise InputError(f"{_METRIC}: give a graph or a 1-D array of non-negative integers")
    if x.dtype.kind == "f" and not np.all(np.isfinite(x) & (x == np.round(x))):
        raise InputError(f"{_METRIC}: the values must be integers (discrete power law)")
    if x.size and x.min() < 0:
        raise InputError(f"{_METRIC}: the values must be non-negative")
    return x.astype(np.int64)


def _fit_tail(tail: np.ndarray, x_min: int, method: str) -> tuple[float, float]:
    """(α, KS distance) for a sorted tail with at least two distinct values."""
    from scipy.optimize import minimize_scalar
    from scipy.special import zeta

    n = tail.size
    log_sum = float(np.log(tail).sum())
    if method == "approx":
        alpha = 1.0 + n / float(np.log(tail / (x_min - 0.5)).sum())
    else:
        res = minimize_scalar(
            lambda a: n * np.log(zeta(a, x_min)) + a * log_sum,
            bounds=(1.0 + 1e-9, _ALPHA_MAX),
            method="bounded",
            options={"xatol": 1e-10},
        )
        alpha = float(res.x)
    values, counts = np.unique(tail, return_counts=True)
    empirical = np.cumsum(counts) / n
    z0 = zeta(alpha, x_min)
    model_at = 1.0 - zeta(alpha, values + 1) / z0  # P(X ≤ u_i)
    model_gap = 1.0 - zeta(alpha, values[1:]) / z0  # P(X ≤ u_{i+1} − 1)
    ks = max(
        float(np.max(np.abs(empirical - model_at))),
        float(np.max(np.abs(empirical[:-1] - model_gap))) if values.size > 1 else 0.0,
    )
    return alpha, ks


def _sigma(alpha: float, x_min: int, n: int) -> float:
    from scipy.special import zeta

    h = 1e-4 * max(1.0, alpha)
    if alpha - h <= 1.0:
        return float("nan")
    f = [np.log(zeta(a, x_min)) for a in (alpha - h, alpha, alpha + h)]
    second = (f[0] - 2 * f[1] + f[2]) / h**2
    return float(1 / np.sqrt(n * second)) if second > 0 else float("nan")


def _fit_x_min(x: np.ndarray, method: str) -> PowerLawFit:
    positive = x[x >= 1]
    candidates = np.unique(positive)[:-1]  # the tail needs two distinct values
    if candidates.size == 0:
        raise InputError(f"{_METRIC}: fitting x_min needs at least two distinct values ≥ 1")
    best: tuple[float, int, float] | None = None
    for c in candidates:
        tail = positive[np.searchsorted(positive, c) :]
        alpha, ks = _fit_tail(tail, int(c), method)
        if best is None or ks < best[0]:
            best = (ks, int(c), alpha)
    ks, xm, alpha = best  # type: ignore[misc]
    n_tail = int(positive.size - np.searchsorted(positive, xm))
    return PowerLawFit(alpha, xm, n_tail, x.size, _sigma(alpha, xm, n_tail), ks, method, True)


__all__ = ["PowerLawFit", "power_law_exponent"]
