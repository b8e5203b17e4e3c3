"""Grouped differentially private releases: count, sum, mean, variance and standard
deviation per group, with a privacy unit, contribution bounding, and public or private keys.

The pipeline (:func:`grouped_release`), in the order of Tumult Analytics, OpenDP's polars
API and PipelineDP (Wilson et al., "Differentially Private SQL with Bounded User
Contribution", PoPETs 2020, §3–§4):

1. **Public keys** (``keys``): rows whose key is not in the key set are dropped (a stable,
   data-independent filter), and every key is in the output, an empty group with noise on 0.
2. **Contribution bounding** (:mod:`privlab.dp.contribution`): each privacy unit keeps at
   most G groups and R rows per group, uniformly at random.  Without a unit, one row is one
   person (G = R = 1).
3. **Private keys** (``keys=None``): DP partition selection on the noisy number of distinct
   units per group (:mod:`privlab.dp.partition_selection`); it needs δ > 0.
4. **Noisy statistics** per group.  Sensitivities over all groups for adding or removing one
   unit (L1 = G·R·c, L2 = √G·R·c for a per-row term bounded by c):

   ==========  ==========================================  =======================
   statistic   noisy figures (share of the aggregation's ε)  per-row bound c
   ==========  ==========================================  =======================
   count       rows n (all)                                   1
   sum         Σ clamp(x, L, U) (all)                         max(|L|, |U|)
   mean        n (½), Σ (x − m) (½), m = (L + U)/2            1; (U − L)/2
   variance    n, Σ (x − m), Σ ((x − m)² − h²/2) (⅓ each)     1; h; h²/2 (h = (U−L)/2)
   std         as variance, then √                            as variance
   median      one exponential-mechanism draw (all)           rank score, see below
   quantile    one exponential-mechanism draw (all)           rank score, see below
   ==========  ==========================================  =======================

   mean = m + Σ̃(x − m)/ñ clamped to [L, U]; variance = Σ̃(x − m)²/ñ − (Σ̃(x − m)/ñ)²
   clamped to [0, h²] (ñ: the noisy count, at least 1).  The *centred* sums have half the
   sensitivity of the plain ones when L = −U is not the case, as in OpenDP's
   ``make_mean``/``make_variance`` and Tumult's AVERAGE/VARIANCE ("sum of values minus the
   midpoint", Tumult Analytics docs, "Numerical aggregations"; OpenDP ``make_sized_bounded_
   variance``), and the figures are post-processed into mean and variance at no cost.

**Median and quantiles** (``kind="median"``, ``kind="quantile"`` with ``quantile=p``):
:func:`privlab.dp.quantiles.grouped_quantiles` on the bounded rows' group codes — the
exponential mechanism with Smith's rank score over 1025 public candidates evenly spaced in
[L, U] (Smith, STOC 2011; OpenDP's candidate score), vectorized over groups.  Its loss is
linear in the score change, so against a unit that adds r_g rows to group g it is at most
ε·Σ r_g / M with ``max_rows = M``; a unit touches ≤ G groups with ≤ R rows each, so
M = G·R makes all groups together ε-DP (equivalently ε/G per group with M = R).  Passing
M = R with the whole ε would be G·ε-DP.  With ``mechanism="gaussian"`` its ρ share buys
ε = √(2ρ) (pure ε-DP implies ε²/2-zCDP, Bun & Steinke 2016, Proposition 1.4).  An empty
group (public keys) gets a draw uniform over the candidates.

Noise: ``mechanism="laplace"`` — pure ε: the exact discrete Laplace (geometric) for
integer-valued figures (counts; sums of an integer column with integer bounds, centred on
2m so that they stay integers), floating-point-safe snapped Laplace otherwise
(:mod:`privlab.dp.noise`).  ``mechanism="gaussian"`` — ρ-zCDP with the exact discrete
Gaussian (σ² = Δ₂²/(2ρ); Canonne, Kamath & Steinke, NeurIPS 2020) or its snapped form for
reals; the release gets the largest ρ whose conversion to (ε, δ) by Canonne, Kamath &
Steinke's Corollary 13 stays within the budget (:func:`privlab.dp.zcdp.rho_for`; tighter than
Bun & Steinke's ε = ρ + 2√(ρ ln(1/δ))).

Budget: an aggregation with its own ``epsilon`` gets it; the rest of ε is split evenly
between the other aggregations and, with private keys, the partition selection (or give
``selection_epsilon``).  Laplace: the selection spends all of δ.  Gaussian: δ/2 for the
selection threshold (private keys), the rest for the zCDP → (ε, δ) conversion, and each
part's ρ is proportional to its share of ε.  Everything is charged to an enforcing
:class:`~privlab.dp.accountant.Accountant` before any noise is drawn.

Complexity: O(n log n) for the bounding (one numpy sort of pair keys; O(n) without a unit),
O(n) for the group codes (a polars hash join) and the per-group sums (np.bincount), O(groups)
for the noise.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl

from privlab.dp import noise
from privlab.dp.accountant import Accountant, Budget, check_delta, check_epsilon
from privlab.dp.accuracy import (
    CONFIDENCE,
    Noise,
    check_confidence,
    discrete_gaussian_noise,
    geometric_noise,
    ratio_interval,
    snapped_gaussian_noise,
    snapped_laplace_noise,
)
from privlab.dp.contribution import (
    ContributionBounds,
    Sensitivity,
    bound_codes,
    check_bounds,
    dense_codes,
    sensitivities,
    unit_codes,
)
from privlab.dp.partition_selection import (
    PartitionSelection,
    gaussian_selection,
    laplace_selection,
)
from privlab.dp.quantiles import DEFAULT_CANDIDATES, check_quantiles, grouped_quantiles
from privlab.dp.zcdp import rho_for
from privlab.errors import ConfigError, InputError
from privlab.validate import check_choice

KINDS = ("count", "sum", "mean", "variance", "std", "median", "quantile")
#: The noisy figures behind each statistic (see the module's docstring).
_FIGURES = {
    "count": ("n",),
    "sum": ("sum",),
    "mean": ("n", "csum"),
    "variance": ("n", "csum", "csq"),
    "std": ("n", "csum", "csq"),
    "median": ("q",),  # one exponential-mechanism draw per group
    "quantile": ("q",),
}
QUANTILE_KINDS = ("median", "quantile")
MECHANISMS = ("laplace", "gaussian")
#: integer sums are exact in float64 while n · max|term| stays below this.
_INT_LIMIT = 2**53


@dataclass(frozen=True)
class Aggregation:
    """One aggregation inside each group.  Bounds are required for all but ``count`` and
    must be fixed without looking at the data."""

    kind: str  #: one of KINDS
    column: str | None = None  #: the values (None for count)
    low: float | None = None  #: clamping bounds, required for all but count,
    high: float | None = None  #: never derived from the data
    quantile: float | None = None  #: for kind "quantile"
    epsilon: float | None = None  #: its own ε; None: an even share of the rest

    @property
    def name(self) -> str:
        """The result column: ``count``, ``sum(income)``, ``quantile0.9(income)``, ..."""
        if self.kind == "count":
            return "count"
        q = f"{self.quantile:g}" if self.kind == "quantile" else ""
        return f"{self.kind}{q}({self.column})"


@dataclass(frozen=True)
class GroupedRelease:
    """A grouped DP release: one row per released group in ``frame``, and how it was made.

    ``aggregations``: per aggregation its ε (or ρ) share and, per noisy figure, the
    sensitivities and the noise (scale b of the Laplace, or σ of the Gaussian).
    ``notes``: what a reader must know (the privacy unit; rows dropped by public keys).
    """

    frame: pl.DataFrame
    budget: Budget
    mechanism: str
    contribution: ContributionBounds
    keys: str  #: "public" or "private"
    selection: PartitionSelection | None
    aggregations: list[dict[str, Any]]
    ledger: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    rho: float | None = None
    insecure_seed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget": self.budget.to_dict(),
            "mechanism": self.mechanism,
            "rho": self.rho,
            **self.contribution.to_dict(),
            "keys": self.keys,
            "partition_selection": None if self.selection is None else self.selection.to_dict(),
            "aggregations": self.aggregations,
            "accountant": self.ledger,
            "notes": list(self.notes),
            "insecure_seed": self.insecure_seed,
            "groups": self.frame.to_dicts(),
        }


# ---------------------------------------------------------------------------- validation
def _as_polars(data: Any) -> pl.DataFrame | pl.LazyFrame:
    if isinstance(data, (pl.DataFrame, pl.LazyFrame)):
        return data
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a dependency
        pd = None
    if pd is not None and isinstance(data, pd.DataFrame):
        return pl.from_pandas(data)
    raise InputError(
        f"data: a polars DataFrame/LazyFrame or a pandas DataFrame expected, got "
        f"{type(data).__name__}"
    )


def _check_aggregation(agg: Any, columns: list[str]) -> Aggregation:
    if not isinstance(agg, Aggregation):
        raise ConfigError(f"aggregations: Aggregation objects expected, got {agg!r}")
    check_choice(agg.kind, "aggregation kind", KINDS)
    if agg.kind == "quantile":
        if agg.quantile is None:
            raise ConfigError(
                f"aggregation 'quantile' of {agg.column!r}: give its level, quantile=p with "
                "0 < p < 1 (or kind 'median')"
            )
        check_quantiles([agg.quantile], f"quantile level of {agg.column!r}")
    elif agg.quantile is not None:
        raise ConfigError(
            f"aggregation {agg.kind!r}: quantile={agg.quantile!r} is only for kind 'quantile'"
        )
    if agg.epsilon is not None:
        check_epsilon(agg.epsilon, f"epsilon of {agg.name}")
    if agg.kind == "count":
        return agg
    if not agg.column:
        raise ConfigError(f"aggregation {agg.kind!r}: name its column")
    if agg.column not in columns:
        raise InputError(
            f"aggregation {agg.name}: no column {agg.column!r}; the columns are {columns}"
        )
    if agg.low is None or agg.high is None:
        raise ConfigError(
            f"aggregation {agg.name}: clamping bounds low and high are required (fixed in "
            "advance from the column's public domain, never derived from the data)"
        )
    lo, hi = float(agg.low), float(agg.high)
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        raise ConfigError(
            f"aggregation {agg.name}: bounds [{agg.low!r}, {agg.high!r}]: give finite bounds "
            "with low < high"
        )
    if max(abs(lo), abs(hi)) > 1e15:
        raise ConfigError(
            f"aggregation {agg.name}: bounds [{lo:g}, {hi:g}] beyond ±10^15 make the noise "
            "swamp every answer; clamp to a realistic public range"
        )
    return agg


def _check_value_column(frame: pl.DataFrame, column: str) -> None:
    dtype = frame.schema[column]
    if dtype == pl.Boolean or not dtype.is_numeric():
        raise InputError(
            f"column {column!r} is {dtype}, not numeric; a sum, mean or variance needs numbers "
            "(convert it first)"
        )
    series = frame[column]
    missing = series.null_count()
    if dtype.is_float():
        missing += int((series.is_nan() | series.is_infinite()).sum())
    if missing:
        raise InputError(
            f"column {column!r}: {missing} missing, NaN or infinite value(s); remove or impute "
            "them first"
        )


def _public_keys(keys: Any, by: list[str], frame: pl.DataFrame) -> pl.DataFrame:
    """The key set as a DataFrame of the ``by`` columns with the data's dtypes, distinct."""
    if isinstance(keys, dict):
        unknown = set(keys) - set(by)
        if unknown or set(keys) != set(by):
            raise ConfigError(
                f"keys: give values for exactly the group-by columns {by} (got "
                f"{sorted(map(str, keys))})"
            )
        for col, values in keys.items():
            if isinstance(values, (str, bytes)) or not len(list(values)):
                raise ConfigError(f"keys[{col!r}]: give a non-empty list of values")
        combos = list(itertools.product(*(list(keys[c]) for c in by)))
        if len(combos) > 10**7:
            raise ConfigError(f"keys: {len(combos)} combinations; at most 10^7 groups")
        key_frame = pl.DataFrame(
            {c: [combo[i] for combo in combos] for i, c in enumerate(by)}, strict=False
        )
    elif isinstance(keys, pl.DataFrame):
        missing = [c for c in by if c not in keys.columns]
        if missing:
            raise ConfigError(f"keys: no column(s) {missing}; the key table needs {by}")
        key_frame = keys.select(by)
    else:
        raise ConfigError(
            "keys: give a polars DataFrame of the group-by columns or {column: [values]}"
        )
    if key_frame.height == 0:
        raise ConfigError("keys: the public key set is empty; give at least one key")
    out = {}
    for c in by:
        target = frame.schema[c]
        try:
            out[c] = key_frame[c].cast(target, strict=True)
        except Exception:  # polars raises several types for a failed cast
            raise ConfigError(
                f"keys: the values of {c!r} do not all convert to the column's type {target}"
            ) from None
    return pl.DataFrame(out).unique(maintain_order=True)


# ---------------------------------------------------------------------------- budget
def _shares(
    aggregations: list[Aggregation], epsilon: float, selection: bool, selection_epsilon: Any
) -> tuple[list[float], float]:
    """ε of each aggregation and of the selection (0 without): explicit ones first, the
    rest evenly."""
    fixed = sum(a.epsilon for a in aggregations if a.epsilon is not None)
    if selection and selection_epsilon is not None:
        fixed += check_epsilon(selection_epsilon, "selection_epsilon")
    free = sum(a.epsilon is None for a in aggregations) + (selection and selection_epsilon is None)
    rest = epsilon - fixed
    if rest < -1e-12 * epsilon or (free and rest <= 1e-12 * epsilon):
        raise ConfigError(
            f"the per-aggregation ε (sum {fixed:g}) leave nothing of the total ε = {epsilon:g}"
            + (" for the other parts" if free else "")
            + "; lower them or raise epsilon"
        )
    even = rest / free if free else 0.0
    shares = [a.epsilon if a.epsilon is not None else even for a in aggregations]
    sel = 0.0
    if selection:
        sel = even if selection_epsilon is None else float(selection_epsilon)
    return shares, sel


# ---------------------------------------------------------------------------- figures
@dataclass(frozen=True)
class _Figure:
    """One noisy figure of an aggregation: the per-row term summed in each group (a
    function of the column's values; None for the row count), the per-row bound c, and
    whether it is an exact integer."""

    key: str
    term: Any
    per_row: float
    integer: bool
    factor: float = 1.0  #: the figure counts in units of 1/factor (integer centring)


def _figures(agg: Aggregation, integer_column: bool, n_rows: int) -> list[_Figure]:
    """The figures of ``agg``.  Integer terms are summed exactly in float64 while
    n·c < 2^53 (every partial sum is then an exact integer); beyond, the real path."""
    if agg.kind == "count":
        return [_Figure("n", None, 1, True)]
    lo, hi = float(agg.low), float(agg.high)
    integral = integer_column and lo.is_integer() and hi.is_integer()
    w, h, m = hi - lo, (hi - lo) / 2, (hi + lo) / 2
    figures = []
    for key in _FIGURES[agg.kind]:
        if key == "n":
            figures.append(_Figure("n", None, 1, True))
        elif key == "sum":
            c = max(abs(lo), abs(hi))
            exact = integral and n_rows * c < _INT_LIMIT
            figures.append(_Figure("sum", lambda x: np.clip(x, lo, hi), c, exact))
        elif key == "csum":
            if integral and n_rows * w < _INT_LIMIT:  # 2(x − m) = 2x − (L + U), an integer
                figures.append(_Figure("csum", lambda x: 2 * np.clip(x, lo, hi) - (lo + hi), w,
                                       True, 2.0))  # fmt: skip
            else:
                figures.append(_Figure("csum", lambda x: np.clip(x, lo, hi) - m, h, False))
        elif integral and n_rows * w * w < _INT_LIMIT:  # csq: 2y² − w², y = 2(x − m)
            figures.append(_Figure(
                "csq", lambda x: 2 * (2 * np.clip(x, lo, hi) - (lo + hi)) ** 2 - w * w, w * w,
                True, 8.0,
            ))  # fmt: skip
        else:
            figures.append(
                _Figure(
                    "csq", lambda x: (np.clip(x, lo, hi) - m) ** 2 - h * h / 2, h * h / 2, False
                )
            )
    return figures


def _add_noise(
    values: np.ndarray, fig: _Figure, sens: Sensitivity, mechanism: str, budget: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, dict[str, Any], Noise]:  # fmt: skip
    """Noise on one figure's vector.  ``budget``: ε (laplace) or ρ (gaussian).  The
    :class:`~privlab.dp.accuracy.Noise` returned is the noise's law in the figure's units
    (after dividing by ``fig.factor``), for the intervals."""
    info: dict[str, Any] = {"l1_sensitivity": sens.l1, "l2_sensitivity": sens.l2}
    n = values.size
    if mechanism == "laplace":
        if fig.integer:
            exact = Fraction(int(sens.l1)) / noise.rational_at_most(budget)
            scale = noise.rational_at_least(exact, "scale")
            draws = np.asarray(noise.discrete_laplace(scale, n, rng=rng), dtype=np.int64)
            noisy = values.astype(np.int64) + draws
            info |= {"noise": "discrete_laplace", "epsilon": budget, "scale": float(scale)}
            law = geometric_noise(scale)
        else:
            noisy, grid = noise.snap_laplace(values.astype(np.float64), sens.l1, budget, rng=rng)
            info |= {"noise": "laplace (snapped)", "epsilon": budget,
                     "scale": sens.l1 / budget, "grid": grid}  # fmt: skip
            law = snapped_laplace_noise(sens.l1, budget, grid, max(1, n))
        b = info["scale"] / fig.factor
        info["std"] = math.sqrt(2) * b
    else:
        sigma = sens.l2 / math.sqrt(2 * budget)
        if fig.integer:
            sigma2 = noise.rational_at_least(Fraction(sigma * sigma), "sigma2", bounded=False)
            draws = np.asarray(noise.discrete_gaussian(sigma2, n, rng=rng), dtype=np.int64)
            noisy = values.astype(np.int64) + draws
            info |= {"noise": "discrete_gaussian", "rho": budget,
                     "sigma": math.sqrt(float(sigma2))}  # fmt: skip
            law = discrete_gaussian_noise(sigma2)
        else:
            noisy, grid = noise.snap_gaussian(values.astype(np.float64), sigma, sens.l2, rng=rng)
            info |= {"noise": "gaussian (snapped)", "rho": budget, "sigma": sigma, "grid": grid}
            law = snapped_gaussian_noise(sigma, sens.l2, grid, max(1, n))
        info["std"] = info["sigma"] / fig.factor
    law = replace(law, step=law.step / fig.factor, rounding=law.rounding / fig.factor)
    return noisy, info, law


def _statistic(agg: Aggregation, noisy: dict[str, np.ndarray], figs: dict[str, _Figure]):
    if agg.kind == "count":
        return pl.Series(agg.name, noisy["n"], dtype=pl.Int64)
    if agg.kind == "sum":
        dtype = pl.Int64 if figs["sum"].integer else pl.Float64
        return pl.Series(agg.name, noisy["sum"], dtype=dtype)
    lo, hi = float(agg.low), float(agg.high)
    m, h = (lo + hi) / 2, (hi - lo) / 2
    n = np.maximum(noisy["n"].astype(np.float64), 1.0)
    centred_mean = noisy["csum"].astype(np.float64) / figs["csum"].factor / n
    if agg.kind == "mean":
        return pl.Series(agg.name, np.clip(m + centred_mean, lo, hi))
    csq = figs["csq"]
    offset = (hi - lo) ** 2 if csq.integer else h * h / 2  # undo the centring of the squares
    mean_square = (noisy["csq"].astype(np.float64) / n + offset) / csq.factor
    variance = np.clip(mean_square - centred_mean**2, 0.0, h * h)
    if agg.kind == "variance":
        return pl.Series(agg.name, variance)
    return pl.Series(agg.name, np.sqrt(variance))


def _quantile_rows(bounds: ContributionBounds) -> int:
    """The ``max_rows`` given to :func:`~privlab.dp.quantiles.grouped_quantiles`: G·R.

    Each group's exponential mechanism with ``max_rows = M`` has privacy loss at most
    ε·r/M against a unit that adds or removes r rows of that group (the score moves by at
    most r·max(p, 1 − p) = (r/M)·Δ; the loss of the mechanism is linear in it).  One unit
    touches at most G groups with at most R rows each, so the loss of all groups together is
    at most ε·G·R/M: M = G·R gives ε in total (the same as ε/G per group with M = R).
    ``max_rows = R`` with the whole ε would be G·ε-DP: wrong by the number of groups.
    """
    return bounds.max_groups * bounds.max_rows


def _quantile_draws(
    agg: Aggregation, group_of: np.ndarray, n_groups: int, column: np.ndarray,
    bounds: ContributionBounds, epsilon: float, rng: np.random.Generator,
) -> np.ndarray:  # fmt: skip
    """One ε-DP quantile per group of the bounded rows (:func:`_quantile_rows`).  An empty
    group's answer is uniform over the candidates.  O(n log m + groups·m)."""
    level = 0.5 if agg.kind == "median" else float(agg.quantile)
    result = grouped_quantiles(
        group_of, n_groups, column.astype(np.float64), [level], float(agg.low),
        float(agg.high), epsilon, max_rows=_quantile_rows(bounds), seed=rng,
    )  # fmt: skip
    return result.value[:, 0]


def _quantile_meta(
    agg: Aggregation, share: float, epsilon: float, bounds: ContributionBounds, zcdp: bool
) -> dict[str, Any]:
    rows = _quantile_rows(bounds)
    level = 0.5 if agg.kind == "median" else float(agg.quantile)
    entry = {"name": agg.name, "kind": agg.kind, "column": agg.column, "low": agg.low,
             "high": agg.high, "quantile": level, "epsilon": share}  # fmt: skip
    entry["figures"] = {"q": {
        "noise": "exponential (rank score over candidates, Gumbel-max)", "epsilon": epsilon,
        "max_rows": rows, "sensitivity": rows * max(level, 1 - level),
        "candidates": DEFAULT_CANDIDATES,
    }}  # fmt: skip
    if zcdp:
        entry["rho"] = epsilon * epsilon / 2
    return entry


def _interval_columns(
    agg: Aggregation, noisy: dict[str, np.ndarray], figs: dict[str, _Figure],
    laws: dict[str, Noise], confidence: float = CONFIDENCE,
) -> list[pl.Series]:  # fmt: skip
    """The ``<name> ci_low`` / ``<name> ci_high`` columns: a ``confidence`` interval per
    group for the statistic of the bounded rows, from the noise laws (public parameters)
    and the released figures only — post-processing, no budget.  Vectorized over groups.

    count, sum: value ± margin (exact coverage for the discrete noise).  mean: each of ñ
    and Σ̃(x − m) at 1 − α/2 (union bound), m + the range of s/k over the box
    (:func:`privlab.dp.accuracy.ratio_interval`).  variance: each of the three figures at
    1 − α/3; with the box holding, variance = C/n + h²/2 − (S/n)² (C = Σ((x − m)² − h²/2))
    lies between [min C/n + h²/2 − max (S/n)², max C/n + h²/2 − min (S/n)²], clipped to
    [0, h²]; std: the square roots.  Conservative: coverage ≥ ``confidence``.  O(groups).
    """
    alpha = 1 - confidence
    name = agg.name
    if agg.kind in ("count", "sum"):
        key = "n" if agg.kind == "count" else "sum"
        margin = laws[key].margin(confidence)
        value = noisy[key].astype(np.float64)
        low, high = value - margin, value + margin
    else:
        lo, hi = float(agg.low), float(agg.high)
        m, h = (lo + hi) / 2, (hi - lo) / 2
        level = 1 - alpha / len(figs)
        mn = laws["n"].margin(level)
        centred = noisy["csum"].astype(np.float64) / figs["csum"].factor
        c_lo, c_hi = ratio_interval(centred, noisy["n"], laws["csum"].margin(level), mn, -h, h)
        if agg.kind == "mean":
            low, high = m + c_lo, m + c_hi
        else:
            sq = noisy["csq"].astype(np.float64) / figs["csq"].factor
            # integer path: Σ(8(x − m)² − 4h²)/8 = Σ((x − m)² − h²/2), as the real path
            q_lo, q_hi = ratio_interval(sq, noisy["n"], laws["csq"].margin(level), mn,
                                        -h * h / 2, h * h / 2)  # fmt: skip
            sq_lo = np.where((c_lo <= 0) & (c_hi >= 0), 0.0, np.minimum(c_lo**2, c_hi**2))
            sq_hi = np.maximum(c_lo**2, c_hi**2)
            low = np.clip(q_lo + h * h / 2 - sq_hi, 0.0, h * h)
            high = np.clip(q_hi + h * h / 2 - sq_lo, 0.0, h * h)
            if agg.kind == "std":
                low, high = np.sqrt(low), np.sqrt(high)
    return [pl.Series(f"{name} ci_low", np.asarray(low, dtype=np.float64)),
            pl.Series(f"{name} ci_high", np.asarray(high, dtype=np.float64))]  # fmt: skip


# ---------------------------------------------------------------------------- release
def grouped_release(
    data: Any,
    *,
    by: list[str],
    aggregations: list[Aggregation],
    epsilon: float,
    delta: float = 0.0,
    privacy_unit: str | None = None,
    max_rows_per_unit: int | None = None,
    max_groups_per_unit: int | None = None,
    keys: Any = None,
    mechanism: str = "laplace",
    selection_epsilon: float | None = None,
    confidence: float | None = CONFIDENCE,
    seed: Any = None,
) -> GroupedRelease:
    """Release per-group statistics with (ε, δ)-DP for the privacy unit (module docstring).

    ``data``: polars DataFrame/LazyFrame or pandas DataFrame.  ``by``: the group-by columns
    ([] for one global group).  ``keys``: public keys (a DataFrame of the ``by`` columns,
    or {column: [values]}, crossed), or None for private keys with partition selection.
    ``confidence``: the level of the ``<name> ci_low``/``<name> ci_high`` columns of count,
    sum, mean, variance and std (:func:`_interval_columns`; public parameters only, no
    budget); None: no interval columns.  Median and quantiles get none: the exponential
    mechanism's error depends on the data around the candidates, not on public parameters.
    ``seed``: a fixed seed makes the noise reproducible and the release NOT private
    (``insecure_seed``).  O(n) for the data, O(groups) for the noise.
    """
    eps = check_epsilon(epsilon)
    if confidence is not None:
        confidence = check_confidence(confidence)
    dlt = check_delta(delta)
    check_choice(mechanism, "mechanism", MECHANISMS)
    if isinstance(by, str):
        by = [by]
    by = list(by)
    if len(set(by)) != len(by) or any(not isinstance(c, str) or not c for c in by):
        raise ConfigError(f"by = {by!r}: give distinct column names")
    if not aggregations:
        raise ConfigError("aggregations: give at least one (e.g. Aggregation('count'))")
    source = _as_polars(data)
    columns = list(source.collect_schema().names())
    for col in [*by, *([privacy_unit] if privacy_unit is not None else [])]:
        if col not in columns:
            raise InputError(f"no column {col!r}; the columns are {columns}")
    aggs = [_check_aggregation(a, columns) for a in aggregations]
    names = [a.name for a in aggs]
    if len(set(names)) != len(names):
        raise ConfigError(f"aggregations: {names} repeats one; give each once")
    if set(names) & set(by):
        raise ConfigError(f"aggregations: a result column {names} clashes with a group-by column")
    bounds = check_bounds(privacy_unit, max_rows_per_unit, max_groups_per_unit, grouped=bool(by))
    private = keys is None and bool(by)
    if mechanism == "gaussian" and dlt == 0:
        raise ConfigError("mechanism 'gaussian' needs delta > 0 (ρ-zCDP is converted to (ε, δ))")
    if private and dlt == 0:
        raise ConfigError(
            "delta = 0 with private keys: partition selection needs δ > 0 (a group of one "
            "unit is released with probability ≤ δ); give δ (e.g. 1e-6, below 1/units) or "
            "public keys (keys=..., --keys/--key)"
        )
    needed = list(dict.fromkeys([*by, *([privacy_unit] if privacy_unit else []),
                                 *(a.column for a in aggs if a.column)]))  # fmt: skip
    frame = source.select(needed)
    if isinstance(frame, pl.LazyFrame):
        frame = frame.collect()
    for col in dict.fromkeys(a.column for a in aggs if a.column):
        _check_value_column(frame, col)
    if privacy_unit is not None and frame[privacy_unit].null_count():
        raise InputError(
            f"column {privacy_unit!r} (the privacy unit): {frame[privacy_unit].null_count()} "
            "missing value(s); every row needs its unit"
        )
    notes = [bounds.statement]
    key_frame = None
    if by and not private:
        key_frame = _public_keys(keys, by, frame)
        notes.append(
            "public keys: every key is released (empty groups get noise on 0); rows whose "
            "key is not in the key set were dropped before the release"
        )
    elif not by and keys is not None:
        raise ConfigError("keys: public keys need group-by columns (by)")

    # ---- budget, charged before any noise is drawn
    shares, sel_eps = _shares(aggs, eps, private, selection_epsilon)
    accountant = Accountant(Budget(eps, dlt))
    rho = None
    if mechanism == "laplace":
        sel_delta = dlt if private else 0.0
        if private:
            accountant.charge(sel_eps, sel_delta, "partition selection")
        for a, share in zip(aggs, shares, strict=True):
            accountant.charge(share, 0.0, a.name)
        budgets = [share / len(_FIGURES[a.kind]) for a, share in zip(aggs, shares, strict=True)]
    else:
        sel_delta = dlt / 2 if private else 0.0
        rho = rho_for(eps, dlt - sel_delta)
        accountant.charge(
            eps, dlt, f"ρ = {rho:.6g}-zCDP (discrete Gaussian) → (ε, {dlt - sel_delta:g})"
            + (f" + δ = {sel_delta:g} of the selection threshold" if private else "")
        )  # fmt: skip
        budgets = [rho * share / eps / len(_FIGURES[a.kind])
                   for a, share in zip(aggs, shares, strict=True)]  # fmt: skip
        # the exponential mechanism is pure: ε-DP implies ε²/2-zCDP (Bun & Steinke, TCC 2016,
        # Proposition 1.4), so a ρ share buys ε = √(2ρ)
        budgets = [math.sqrt(2 * b) if a.kind in QUANTILE_KINDS else b
                   for a, b in zip(aggs, budgets, strict=True)]  # fmt: skip
    selection = None
    if private:
        if mechanism == "laplace":
            selection = laplace_selection(sel_eps, sel_delta, bounds.max_groups)
        else:
            selection = gaussian_selection(rho * sel_eps / eps, sel_delta, bounds.max_groups)

    # ---- group codes, bounding, and the exact per-group figures
    rng = noise.secure_generator(seed)
    if key_frame is not None:
        coded = frame.join(
            key_frame.with_row_index("__code"), on=by, how="inner", nulls_equal=True
        )  # public keys: rows outside the key set are dropped here
        frame, codes = coded.drop("__code"), coded["__code"].cast(pl.Int64).to_numpy()
        groups = key_frame
    else:
        codes, groups = dense_codes(frame, by)
    n_groups = groups.height if by else 1
    units = unit_codes(frame[privacy_unit]) if privacy_unit is not None else None
    kept = bound_codes(units, codes, n_groups, bounds, rng)
    rows = kept.rows
    group_of = codes if rows is None else codes[rows]
    n_kept = group_of.size
    table: dict[str, np.ndarray] = {
        "__units": np.bincount(kept.pair_group, minlength=n_groups).astype(np.int64)
    }
    per_agg = []
    for a in aggs:
        column = None
        if a.column is not None:
            column = frame[a.column].to_numpy()
            column = column if rows is None else column[rows]
        if a.kind in QUANTILE_KINDS:  # drawn now, over every group; filtered below like the rest
            table[f"{a.name}|q"] = _quantile_draws(a, group_of, n_groups, column, bounds,
                                                   budgets[len(per_agg)], rng)  # fmt: skip
            per_agg.append([])
            continue
        figs = _figures(a, column is not None and np.issubdtype(column.dtype, np.integer), n_kept)
        for f in figs:
            if f.term is None:
                total = np.bincount(group_of, minlength=n_groups)
            else:
                total = np.bincount(group_of, weights=f.term(column.astype(np.float64)),
                                    minlength=n_groups)  # fmt: skip
            table[f"{a.name}|{f.key}"] = np.rint(total).astype(np.int64) if f.integer else total
        per_agg.append(figs)
    if private:  # groups in sorted key order: no data-dependent order in the output
        released = selection.keep(table["__units"], rng)
        groups = groups.filter(pl.Series(released))
        table = {k: v[released] for k, v in table.items()}

    # ---- noise and the statistics
    columns_out = [groups[c] for c in by]
    meta = []
    for a, figs, share, budget in zip(aggs, per_agg, shares, budgets, strict=True):
        if a.kind in QUANTILE_KINDS:
            columns_out.append(pl.Series(a.name, table[f"{a.name}|q"], dtype=pl.Float64))
            meta.append(_quantile_meta(a, share, budget, bounds, rho is not None))
            continue
        noisy, fig_info, laws = {}, {}, {}
        for f in figs:
            sens = sensitivities(bounds, f.per_row)
            values = table[f"{a.name}|{f.key}"]
            noisy[f.key], fig_info[f.key], laws[f.key] = _add_noise(
                values, f, sens, mechanism, budget, rng
            )
        columns_out.append(_statistic(a, noisy, {f.key: f for f in figs}))
        if confidence is not None:
            columns_out += _interval_columns(a, noisy, {f.key: f for f in figs}, laws, confidence)
        entry = {"name": a.name, "kind": a.kind, "column": a.column, "low": a.low,
                 "high": a.high, "epsilon": share, "figures": fig_info}  # fmt: skip
        if rho is not None:
            entry["rho"] = budget * len(figs)
        meta.append(entry)
    return GroupedRelease(
        frame=pl.DataFrame(columns_out),
        budget=accountant.spent,
        mechanism=mechanism,
        contribution=bounds,
        keys="private" if private else "public",
        selection=selection,
        aggregations=meta,
        ledger=accountant.to_dict(),
        notes=notes,
        rho=rho,
        insecure_seed=noise.is_insecure_seed(seed),
    )


__all__ = [
    "KINDS",
    "MECHANISMS",
    "QUANTILE_KINDS",
    "Aggregation",
    "GroupedRelease",
    "grouped_release",
]
