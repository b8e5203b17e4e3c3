"""(k, e)-anonymous partitions of a numeric sensitive attribute (seed 001 §2.1, §2.6).

A group is (k, e)-anonymous when it holds at least k distinct values whose range
(max − min) is at least e (Def 2.4.2; both bounds inclusive, ties within
:data:`privlab.table.models.TIE_TOLERANCE` passing, as for :class:`KEAnonymity`).  The error
of a group is its range (Problem 2.6.1).  Partitioners (:func:`ke_partition`):

``min-sum``
    Minimum sum-of-error, optimal (§2.6.1, Lemma 2.6.1: some optimum consists of contiguous
    runs of the sorted values).
``min-max``
    Minimum max-of-error over *non-overlapping* partitions (Problem 2.6.3), within 2× of the
    unrestricted optimum (Theorem 4).  Among the partitions reaching that maximum, the one
    with the least sum-of-error is returned.
``max-group``
    The most groups among contiguous (non-overlapping) partitions — the seed's DP
    (L1866–1882); overlapping groups can be more numerous ({4,4,5,5,7,7}, (2, 2)).  Among
    those, the last group is always the smallest feasible one.
``random``
    The seed's scan (L1866–1882): rows in input order (or a seeded shuffle of it when
    ``seed`` is given); a group closes as soon as it has k distinct values and range ≥ e; the
    unfinished tail joins the last closed group (the seed leaves this case open).
``swap``
    Rank-based swapping [Moore 1996] as the seed uses it (L1866–1882): each row gets a window
    of ±l ranks, l the least that makes the window (k, e)-anonymous; rows are swapped with a
    random unswapped partner within their window.  See :class:`Partition` for the release.
``exact-min-max``
    The exact minimum max-of-error partition, overlapping groups allowed (§2.6.2,
    Algorithm 2): :func:`~privlab.table.permutation.partition_exact.exact_min_max_partition`,
    O(D⁴·k) for D distinct values — for small tables and as the oracle of ``min-max``.

The partitioners live in sibling modules; this one holds the public API, the input checks
and the glue:

* :mod:`.partition_dp` — min-sum, min-max and max-group: the dynamic programs of Algorithm 1
  with its errata fixed (``f[0] = 0``, ``+`` for min-sum), in O(n log n) instead of the
  seed's O(n²) (§2.6.1, §2.6.2);
* :mod:`.partition_baselines` — the random scan and rank swapping (L1866–1882);
* ``_ke_feasibility`` — the distinct-count and range tests every module shares.

Complexity: :func:`ke_partition` O(n log n) time, O(n) memory (random and swap: O(n) Python
loops); :func:`is_ke_anonymous` O(n log n); :func:`exhaustive_partition` Bell(n) (n ≤ 10).

Duplicates: equal values may be split across groups (the sorted positions, not the values,
are partitioned); a group's distinct count is what (k, e) constrains.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.io.delimited import bad_rows
from privlab.table.permutation._ke_feasibility import _e_eff
from privlab.table.permutation.partition_baselines import _random_scan, _rank_swap
from privlab.table.permutation.partition_dp import (
    _backtrack,
    _max_group,
    _min_max_value,
    _min_sum,
    _window_min_sum,
    last_starts,
)

METHODS = ("min-sum", "min-max", "max-group", "random", "swap", "exact-min-max")


@dataclass(frozen=True, eq=False)
class Partition:
    """A (k, e)-anonymous partition of the input positions.

    ``groups`` is the group id of each input position (input order); ids run 0..n_groups−1
    (for the sorted-order methods in increasing order of the groups' values).  ``errors`` is
    each group's range.  ``objective`` is the method's own: Σ errors (min-sum, random), max
    error (min-max), number of groups (max-group), Σ interval widths (swap).

    For ``swap``: every row is its own group; ``swapped`` holds the released (swapped) value
    of each row and ``lo``/``hi`` a published interval that surely contains the row's true
    value — the values within ±``window`` ranks of the released value, ``window`` being the
    largest swap window.  This conservative reading is privlab's; the seed describes the
    bounds after swapping only qualitatively (L1968–1976).
    """

    groups: np.ndarray
    n_groups: int
    errors: np.ndarray
    objective: float
    method: str
    k: int
    e: float
    seconds: float
    swapped: np.ndarray | None = None
    lo: np.ndarray | None = None
    hi: np.ndarray | None = None
    window: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def sum_of_error(self) -> float:
        return float(self.errors.sum())

    @property
    def max_of_error(self) -> float:
        return float(self.errors.max()) if self.errors.size else 0.0

    def to_dict(self) -> dict[str, Any]:
        out = {
            "method": self.method,
            "k": self.k,
            "e": self.e,
            "n": int(self.groups.size),
            "n_groups": self.n_groups,
            "objective": self.objective,
            "sum_of_error": self.sum_of_error,
            "max_of_error": self.max_of_error,
            "seconds": self.seconds,
        }
        if self.window is not None:
            out["window"] = self.window
        out.update(self.extra)
        return out


# ------------------------------------------------------------------------------ validation


def _check_values(values: Any) -> np.ndarray:
    if hasattr(values, "to_numpy"):
        values = values.to_numpy()
    try:
        x = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"sensitive values must be numeric: {exc}") from None
    if x.ndim != 1:
        raise InputError(f"sensitive values: a 1-d array expected, got shape {x.shape}")
    if x.size == 0:
        raise InputError("sensitive values: the table has no rows")
    bad = ~np.isfinite(x)
    if bad.any():
        raise InputError(
            f"sensitive values: {bad_rows(bad, 0, where='row')} missing (None/NaN) or not "
            "finite; remove or impute them first"
        )
    return x


def _check_ke(k: Any, e: Any) -> tuple[int, float]:
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ConfigError(f"k must be an integer ≥ 1, got {k!r}")
    try:
        e_f = float(e)
    except (TypeError, ValueError):
        raise ConfigError(f"e must be a number ≥ 0, got {e!r}") from None
    if not np.isfinite(e_f) or e_f < 0:
        raise ConfigError(f"e must be a finite number ≥ 0, got {e!r}")
    return int(k), e_f


def _check_feasible(x: np.ndarray, k: int, e: float) -> None:
    n_distinct = int(np.unique(x).size)
    if n_distinct < k:
        raise InfeasibleError(
            f"k = {k} but the sensitive attribute has only {n_distinct} distinct value"
            f"{'s' if n_distinct != 1 else ''}; lower k"
        )
    span = float(x.max() - x.min())
    if not span >= _e_eff(e):
        raise InfeasibleError(
            f"e = {e:g} but the sensitive values span only {span:g} "
            f"({x.min():g} to {x.max():g}); lower e"
        )


# ------------------------------------------------------------------------------ public API


def _segments_to_groups(order: np.ndarray, segs: list[tuple[int, int]], n: int) -> np.ndarray:
    bounds = np.array([j for j, _ in segs] + [n], dtype=np.int64)
    ids_sorted = np.repeat(np.arange(len(segs), dtype=np.int64), np.diff(bounds))
    groups = np.empty(n, dtype=np.int64)
    groups[order] = ids_sorted
    return groups


def _group_errors(x: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    hi = np.full(n_groups, -np.inf)
    lo = np.full(n_groups, np.inf)
    np.maximum.at(hi, groups, x)
    np.minimum.at(lo, groups, x)
    return hi - lo


def ke_partition(
    values: Any,
    k: int,
    e: float,
    *,
    method: str = "min-sum",
    seed: Any = None,
) -> Partition:
    """Partition ``values`` (numeric, one per row) into (k, e)-anonymous groups.

    Source: seed 001 §2.6 (Problems 2.6.1 and 2.6.3, Lemma 2.6.1, Theorem 4, Algorithm 1 with
    its errata fixed) and the comparators of L1866–1882; see :mod:`.partition_dp` for the
    O(n log n) reformulation.  Time O(n log n), memory O(n) for min-sum, min-max and
    max-group; random and swap are O(n) Python loops.  ``seed`` is used by ``random`` (scan
    order: input order when None) and ``swap`` (partners).

    Raises :class:`InfeasibleError` when the whole table is not (k, e)-anonymous (fewer than
    k distinct values or a range below e), :class:`ConfigError` for bad k, e or method, and
    :class:`InputError` for missing or non-finite values (naming the first such row).
    """
    if method not in METHODS:
        raise ConfigError(f"unknown partition method {method!r}; use one of {list(METHODS)}")
    x = _check_values(values)
    k, e = _check_ke(k, e)
    _check_feasible(x, k, e)
    if method == "exact-min-max":
        from privlab.table.permutation.partition_exact import exact_min_max_partition

        return exact_min_max_partition(x, k, e)
    t0 = time.perf_counter()
    n = x.size
    extra: dict[str, Any] = {}
    if method == "swap":
        sw = _rank_swap(x, k, e, seed)
        seconds = time.perf_counter() - t0
        errors = sw["hi"] - sw["lo"]
        return Partition(
            groups=np.arange(n, dtype=np.int64),
            n_groups=n,
            errors=errors,
            objective=float(errors.sum()),
            method=method,
            k=k,
            e=e,
            seconds=seconds,
            swapped=sw["swapped"],
            lo=sw["lo"],
            hi=sw["hi"],
            window=sw["window"],
            extra={"swapped_rows": sw["swapped_rows"]},
        )
    if method == "random":
        groups = _random_scan(x, k, e, seed)
        n_groups = int(groups.max()) + 1
    else:
        order = np.argsort(x, kind="stable")
        xs = x[order]
        J = last_starts(xs, k, e)
        if method == "min-sum":
            choice = _min_sum(xs, J)
        elif method == "max-group":
            choice = _max_group(J)
        else:
            lam = _min_max_value(xs, J)
            extra["min_max_dp_value"] = lam
            choice = _window_min_sum(xs, J, lam)
        segs = _backtrack(choice, n)
        groups = _segments_to_groups(order, segs, n)
        n_groups = len(segs)
    seconds = time.perf_counter() - t0
    errors = _group_errors(x, groups, n_groups)
    objective = {
        "min-sum": float(errors.sum()),
        "random": float(errors.sum()),
        "min-max": float(errors.max()),
        "max-group": float(n_groups),
    }[method]
    return Partition(
        groups=groups,
        n_groups=n_groups,
        errors=errors,
        objective=objective,
        method=method,
        k=k,
        e=e,
        seconds=seconds,
        extra=extra,
    )


def is_ke_anonymous(values: Any, groups: Any, k: int, e: float) -> np.ndarray:
    """Per group: does it hold ≥ k distinct values spanning ≥ e?  O(n log n)."""
    x = np.asarray(values, dtype=np.float64)
    g = np.asarray(groups, dtype=np.int64)
    n_g = int(g.max()) + 1
    pairs = np.unique(np.stack([g, x], axis=1), axis=0)
    distinct = np.bincount(pairs[:, 0].astype(np.int64), minlength=n_g)
    span = _group_errors(x, g, n_g)
    return (distinct >= k) & (span >= _e_eff(e))


# ------------------------------------------------------------------------------ brute force


def _set_partitions(n: int):
    """All set partitions of range(n) as restricted growth strings."""
    a = [0] * n

    def rec(i: int, m: int):
        if i == n:
            yield list(a)
            return
        for v in range(m + 1):
            a[i] = v
            yield from rec(i + 1, max(m, v + 1))

    if n:
        yield from rec(0, 0)


def exhaustive_partition(
    values: Any, k: int, e: float, objective: str = "sum", *, contiguous: bool = False
) -> tuple[float, np.ndarray] | None:
    """Brute-force optimum for tests (n ≤ 10): ``objective`` ∈ {sum, max, groups}.

    Searches every set partition (Bell(n)), or with ``contiguous`` only runs of the sorted
    order (2^(n−1)).  Returns (best value, group ids in input order) or None if infeasible;
    ``groups`` is maximized, the others minimized.
    """
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    if n > 10:
        raise ConfigError("exhaustive_partition is exponential; use n ≤ 10")
    thr = _e_eff(float(e))
    order = np.argsort(x, kind="stable")
    best: tuple[float, np.ndarray] | None = None

    def score(labels: np.ndarray) -> float | None:
        errs = []
        for g in range(int(labels.max()) + 1):
            v = x[labels == g]
            if np.unique(v).size < k or not v.max() - v.min() >= thr:
                return None
            errs.append(v.max() - v.min())
        if objective == "sum":
            return float(sum(errs))
        if objective == "max":
            return float(max(errs))
        if objective == "groups":
            return -float(len(errs))
        raise ConfigError(f"objective must be sum, max or groups, got {objective!r}")

    if contiguous:
        candidates = []
        for m in range(n):
            for cuts in combinations(range(1, n), m):
                lab_sorted = np.zeros(n, dtype=np.int64)
                for c in cuts:
                    lab_sorted[c:] += 1
                lab = np.empty(n, dtype=np.int64)
                lab[order] = lab_sorted
                candidates.append(lab)
    else:
        candidates = (np.array(rgs, dtype=np.int64) for rgs in _set_partitions(n))
    for lab in candidates:
        s = score(lab)
        if s is not None and (best is None or s < best[0]):
            best = (s, lab)
    if best is None:
        return None
    value = -best[0] if objective == "groups" else best[0]
    return value, best[1]


__all__ = [
    "METHODS",
    "Partition",
    "exhaustive_partition",
    "is_ke_anonymous",
    "ke_partition",
    "last_starts",
]
