"""Group → bounds arithmetic shared by permutation publishing and safe graph groupings.

A release that publishes, per group, the *multiset* of sensitive values (exact values or
subdomains ``[lo, hi]``) but not which member holds which value, and lets the analyst count
exactly how many members of each group a query selects (the group's *hits* m), admits
deterministic bounds for monotone aggregates (seed 001 §2.5.1, L1141–1175):

* per group with m hits — SUM lower = Σ of the m smallest ``lo``, SUM upper = Σ of the m
  largest ``hi``; MIN in [smallest ``lo``, m-th largest ``hi``]; MAX in [m-th smallest ``lo``,
  largest ``hi``]; a group with m = 0 contributes nothing;
* combined — SUM adds the per-group bounds, AVG = SUM bounds / Σm (the count is exact), MIN =
  (min of the lowers, min of the uppers) over the groups with m > 0, MAX symmetric, COUNT =
  Σm exactly.

A group may publish more values than it has members (fake values, seed 001 ch. 3): the bounds
then choose m of the group's published values, which is what the formulas above do.

Layout: groups in CSR form — ``offsets`` (G + 1, int64) and two value arrays ``lo`` and ``hi``,
each sorted ascending inside every group (sorted *separately*, so the j-th smallest ``lo`` and
the j-th smallest ``hi`` may belong to different entries).  Prefix sums over the two arrays
make every per-group bound an O(1) lookup: building is O(E log E) for E published values
(O(E) when the values come sorted), a query O(G).

The help table HT of seed 001 §2.5.2 (Table 2.4) — one row per (group, hits) — is
:func:`help_table`; SQL back ends join it with per-group hit counts.

Besides the bounds, the seed notes (§2.5.1, L1172–1174) that the mean and variance of all
the possible answers of a SUM/AVG query can be computed; it gives no formula.
:meth:`GroupedValues.moments` computes them: every permutation inside a group is equally
likely, so a group of n exact values with m hits contributes the sum of a uniform m-subset
drawn without replacement — mean m·μ, variance m·(n − m)/(n − 1)·σ² (σ² the population
variance of the group's values) — and the groups are independent, so means and variances
add.  AVG divides by Σm (and the variance by (Σm)²).

This module sits below ``privlab.table`` and ``privlab.graph`` and imports only numpy and
:mod:`privlab.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError

AGGREGATES = ("count", "sum", "avg", "min", "max")


@dataclass(frozen=True)
class Bounds:
    """Deterministic bounds on an aggregate; ``exact`` is set when they coincide.

    ``lower``/``upper`` are ``None`` when no row is selected (SQL's NULL for SUM/AVG/MIN/MAX);
    COUNT is then ``0`` and exact.
    """

    lower: float | None
    upper: float | None
    exact: float | None = None

    @classmethod
    def of(cls, lower: Any, upper: Any) -> Bounds:
        """``[lower, upper]`` as floats, ``exact`` set when they coincide; all None if either is."""
        if lower is None or upper is None:
            return cls(None, None, None)
        lower, upper = float(lower), float(upper)
        return cls(lower, upper, lower if lower == upper else None)

    @property
    def width(self) -> float | None:
        if self.lower is None or self.upper is None:
            return None
        return self.upper - self.lower

    def contains(self, value: float, tol: float = 1e-9) -> bool:
        """Whether ``value`` lies in [lower, upper] up to a relative tolerance."""
        if self.lower is None or self.upper is None:
            return False
        slack = tol * max(1.0, abs(self.lower), abs(self.upper))
        return self.lower - slack <= value <= self.upper + slack

    def to_dict(self) -> dict[str, Any]:
        return {"lower": self.lower, "upper": self.upper, "exact": self.exact}


@dataclass(frozen=True)
class Moments:
    """Mean and variance of all the possible answers of a SUM or AVG query (exact).

    Every permutation of the published values inside each group counts once (seed 001
    §2.5.1).  ``None`` when no row is selected (SQL's NULL).  COUNT is exact (variance 0).
    """

    aggregate: str
    mean: float | None
    variance: float | None

    @property
    def std(self) -> float | None:
        return None if self.variance is None else float(np.sqrt(max(self.variance, 0.0)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "aggregate": self.aggregate,
            "mean": self.mean,
            "variance": self.variance,
            "std": self.std,
        }


@dataclass(frozen=True, eq=False)
class GroupedValues:
    """Per-group sorted published values in CSR form, with prefix sums.

    ``offsets[g]:offsets[g+1]`` are group g's entries; ``lo`` and ``hi`` are each sorted
    ascending inside every group.  For exact values ``lo is hi``.
    """

    offsets: np.ndarray
    lo: np.ndarray
    hi: np.ndarray

    def __post_init__(self) -> None:
        csum_lo = np.zeros(self.lo.size + 1)
        np.cumsum(self.lo, out=csum_lo[1:])
        if self.hi is self.lo:
            csum_hi = csum_lo
        else:
            csum_hi = np.zeros(self.hi.size + 1)
            np.cumsum(self.hi, out=csum_hi[1:])
        object.__setattr__(self, "_csum_lo", csum_lo)
        object.__setattr__(self, "_csum_hi", csum_hi)

    @classmethod
    def from_groups(
        cls,
        group_ids: Any,
        lo: Any,
        hi: Any = None,
        n_groups: int | None = None,
    ) -> GroupedValues:
        """Build from one entry per published value: its group id and value (or [lo, hi]).

        O(E log E).  Groups with no entry get an empty slice.
        """
        g = np.asarray(group_ids, dtype=np.int64)
        lo_a = np.asarray(lo, dtype=np.float64)
        hi_a = lo_a if hi is None else np.asarray(hi, dtype=np.float64)
        if g.shape != lo_a.shape or g.shape != hi_a.shape or g.ndim != 1:
            raise InputError("group ids, lo and hi must be 1-d arrays of the same length")
        if g.size and g.min() < 0:
            raise InputError(f"group ids must be ≥ 0, got {int(g.min())}")
        if np.isnan(lo_a).any() or np.isnan(hi_a).any():
            raise InputError("published values must not be NaN")
        if hi is not None and (lo_a > hi_a).any():
            bad = int(np.flatnonzero(lo_a > hi_a)[0])
            raise InputError(f"entry {bad}: lo = {lo_a[bad]} exceeds hi = {hi_a[bad]}")
        n_g = int(g.max()) + 1 if g.size else 0
        if n_groups is not None:
            if n_groups < n_g:
                raise InputError(f"n_groups = {n_groups} but a group id {n_g - 1} occurs")
            n_g = n_groups
        offsets = np.zeros(n_g + 1, dtype=np.int64)
        np.cumsum(np.bincount(g, minlength=n_g), out=offsets[1:])
        lo_s = lo_a[np.lexsort((lo_a, g))]
        hi_s = lo_s if hi is None else hi_a[np.lexsort((hi_a, g))]
        return cls(offsets, lo_s, hi_s)

    @property
    def n_groups(self) -> int:
        return int(self.offsets.size - 1)

    @property
    def sizes(self) -> np.ndarray:
        """Published entries per group."""
        return np.diff(self.offsets)

    def _check_hits(self, hits: Any) -> np.ndarray:
        m = np.asarray(hits, dtype=np.int64)
        if m.shape != (self.n_groups,):
            raise InputError(f"hits: one count per group ({self.n_groups}) expected")
        if (m < 0).any() or (m > self.sizes).any():
            g = int(np.flatnonzero((m < 0) | (m > self.sizes))[0])
            raise InputError(
                f"group {g}: {int(m[g])} hits but the group publishes {int(self.sizes[g])} values"
            )
        return m

    # ---------------------------------------------------------------- per-group bounds, O(G)

    def sum_bounds(self, hits: Any) -> tuple[np.ndarray, np.ndarray]:
        """Per group: (Σ of the m smallest lo, Σ of the m largest hi); 0 where m = 0."""
        m = self._check_hits(hits)
        start, end = self.offsets[:-1], self.offsets[1:]
        lower = self._csum_lo[start + m] - self._csum_lo[start]
        upper = self._csum_hi[end] - self._csum_hi[end - m]
        return lower, upper

    def min_bounds(self, hits: Any) -> tuple[np.ndarray, np.ndarray]:
        """Per group: (smallest lo, m-th largest hi); +inf where m = 0."""
        m = self._check_hits(hits)
        start, end = self.offsets[:-1], self.offsets[1:]
        has = m > 0
        lower = np.full(m.size, np.inf)
        upper = np.full(m.size, np.inf)
        lower[has] = self.lo[start[has]]
        upper[has] = self.hi[end[has] - m[has]]
        return lower, upper

    def max_bounds(self, hits: Any) -> tuple[np.ndarray, np.ndarray]:
        """Per group: (m-th smallest lo, largest hi); −inf where m = 0."""
        m = self._check_hits(hits)
        start, end = self.offsets[:-1], self.offsets[1:]
        has = m > 0
        lower = np.full(m.size, -np.inf)
        upper = np.full(m.size, -np.inf)
        lower[has] = self.lo[start[has] + m[has] - 1]
        upper[has] = self.hi[end[has] - 1]
        return lower, upper

    def sum_moments(self, hits: Any) -> tuple[np.ndarray, np.ndarray]:
        """Per group: mean and variance of the sum of m of its values, all choices equal.

        Seed 001 §2.5.1 (L1172–1174: "the mean and variance of all possible answers").  A
        permutation inside a group of n exact values makes the m selected rows a uniform
        m-subset of the values, so (sampling without replacement) the sum has mean m·μ and
        variance m·(n − m)/(n − 1)·σ², σ² = Σ(v − μ)²/n; 0 where m = 0 or n = 1.  Needs exact
        values (``lo == hi``); a subdomain (ch. 3) release raises :class:`ConfigError`.
        O(E) time and memory.
        """
        m = self._check_hits(hits)
        if self.hi is not self.lo and not np.array_equal(self.lo, self.hi):
            raise ConfigError(
                "the mean and variance of the possible answers need exact published values; "
                "this release publishes subdomains [lo, hi] (a target-distribution release)"
            )
        n = self.sizes
        gid = np.repeat(np.arange(self.n_groups), n)
        total = np.bincount(gid, weights=self.lo, minlength=self.n_groups)
        mu = np.divide(total, n, out=np.zeros(self.n_groups), where=n > 0)
        ss = np.bincount(gid, weights=(self.lo - mu[gid]) ** 2, minlength=self.n_groups)
        sigma2 = np.divide(ss, n, out=np.zeros(self.n_groups), where=n > 0)
        mf = m.astype(np.float64)
        fpc = np.divide(n - mf, n - 1.0, out=np.zeros(self.n_groups), where=n > 1)
        return mf * mu, mf * fpc * sigma2

    def moments(self, agg: str, hits: Any) -> Moments:
        """Mean and variance of all the possible answers of ``agg`` ∈ {count, sum, avg}.

        The groups are independent, so the per-group means and variances of
        :meth:`sum_moments` add; AVG divides the mean by Σm and the variance by (Σm)²
        (the count is exact).  MIN and MAX raise :class:`ConfigError` (the seed names SUM and
        AVG only).  O(E).
        """
        agg = _check_agg(agg)
        if agg in ("min", "max"):
            raise ConfigError(
                f"the mean and variance of the possible answers cover count, sum and avg, "
                f"not {agg}; use the bounds for {agg}"
            )
        m = self._check_hits(hits)
        total = int(m.sum())
        if agg == "count":
            return Moments(agg, float(total), 0.0)
        if total == 0:
            return Moments(agg, None, None)
        mean, var = self.sum_moments(m)
        div = float(total) if agg == "avg" else 1.0
        return Moments(agg, float(mean.sum()) / div, float(var.sum()) / div**2)

    # ---------------------------------------------------------------- combined, O(G)

    def aggregate(self, agg: str, hits: Any) -> Bounds:
        """Bounds on ``agg`` ∈ {count, sum, avg, min, max} over the selected rows.

        The per-group bounds of the groups with hits, combined by :func:`combine_help_rows`
        (the rule of the seed's SQL rewrite).
        """
        agg = _check_agg(agg)
        m = self._check_hits(hits)
        rows: dict[str, np.ndarray] = {}
        if agg != "count":
            key = "sum" if agg == "avg" else agg
            per_group = {"sum": self.sum_bounds, "min": self.min_bounds, "max": self.max_bounds}
            lo, hi = per_group[key](m)
            has = m > 0
            rows = {f"{key}_lb": lo[has], f"{key}_ub": hi[has]}
        return combine_help_rows(agg, rows, m)

    def help_table(self, sizes: Any = None) -> dict[str, np.ndarray]:
        """:func:`help_table` of these groups (``sizes`` = QI rows per group, default all)."""
        return help_table(self.offsets, self.lo, self.hi, self.sizes if sizes is None else sizes)


def _check_agg(agg: str) -> str:
    a = str(agg).lower()
    if a not in AGGREGATES:
        raise ConfigError(f"aggregate {agg!r} is not supported; use one of {list(AGGREGATES)}")
    return a


def help_table(offsets: Any, lo_sorted: Any, hi_sorted: Any, sizes: Any) -> dict[str, np.ndarray]:
    """The help table HT of seed 001 §2.5.2 (Table 2.4): one row per (group, hits).

    Columns: ``group_id``, ``hits`` (1..sizes[g], the group's QI rows), ``sum_lb``,
    ``sum_ub``, ``min_lb``, ``min_ub``, ``max_lb``, ``max_ub`` (AVG = SUM / Σ hits is left to
    the query).  Groups with size 0 have no rows; Σ sizes rows in all.  O(E + Σ sizes).
    """
    off = np.asarray(offsets, dtype=np.int64)
    lo = np.asarray(lo_sorted, dtype=np.float64)
    hi = np.asarray(hi_sorted, dtype=np.float64)
    size = np.asarray(sizes, dtype=np.int64)
    n_g = off.size - 1
    if size.shape != (n_g,):
        raise InputError(f"sizes: one entry per group ({n_g}) expected")
    published = np.diff(off)
    if (size < 0).any() or (size > published).any():
        g = int(np.flatnonzero((size < 0) | (size > published))[0])
        raise InputError(
            f"group {g}: {int(size[g])} rows but only {int(published[g])} published values"
        )
    gid = np.repeat(np.arange(n_g, dtype=np.int64), size)
    first = np.zeros(n_g, dtype=np.int64)
    if n_g:
        np.cumsum(size[:-1], out=first[1:])
    m = np.arange(gid.size, dtype=np.int64) - np.repeat(first, size) + 1
    csum_lo = np.concatenate([[0.0], np.cumsum(lo)])
    csum_hi = csum_lo if hi is lo else np.concatenate([[0.0], np.cumsum(hi)])
    start, end = off[gid], off[gid + 1]
    return {
        "group_id": gid,
        "hits": m,
        "sum_lb": csum_lo[start + m] - csum_lo[start],
        "sum_ub": csum_hi[end] - csum_hi[end - m],
        "min_lb": lo[start],
        "min_ub": hi[end - m],
        "max_lb": lo[start + m - 1],
        "max_ub": hi[end - 1],
    }


def combine_help_rows(agg: str, rows: dict[str, np.ndarray], hits: Any) -> Bounds:
    """Combine per-group help-table rows (one per group with m > 0) as the SQL rewrite does."""
    agg = _check_agg(agg)
    m = np.asarray(hits, dtype=np.int64)
    total = int(m.sum())
    if agg == "count":
        return Bounds(float(total), float(total), float(total))
    if total == 0:
        return Bounds(None, None, None)
    if agg in ("sum", "avg"):
        div = total if agg == "avg" else 1
        return Bounds.of(rows["sum_lb"].sum() / div, rows["sum_ub"].sum() / div)
    if agg == "min":
        return Bounds.of(rows["min_lb"].min(), rows["min_ub"].min())
    return Bounds.of(rows["max_lb"].max(), rows["max_ub"].max())


__all__ = [
    "AGGREGATES",
    "Bounds",
    "GroupedValues",
    "Moments",
    "combine_help_rows",
    "help_table",
]
