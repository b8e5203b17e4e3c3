"""Differentially private queries: counts, clamped sums and means, histograms, k-means,
degree sequences and degree histograms.

Neighbouring data sets differ by adding or removing one row (seed 000 §2.6, Def 5.2); for
graphs, by up to k edges (k-edge adjacency, seed 000 §2.9 Def 7.12; k = 1 is edge DP).
Sensitivities used, each with its argument:

* count: 1.
* histogram over any fixed partition: **1, whatever the number of bins** — one row moves
  one bin by one (seed 000 §2.6, "Histogram queries").  Bins must be fixed in advance
  (data-independent), so a category absent from the data still gets a noisy count.
* sum of values clamped to [L, U]: max(|L|, |U|).  Mean: a noisy sum and a noisy count,
  each with half of ε (sequential composition), the ratio clamped to [L, U].
* DP k-means on points in a box (seed 000 §5.6, Algorithm 5.2): per iteration a histogram
  of counts (sensitivity 1) and a histogram of coordinate sums (sensitivity d after
  rescaling the box to [0,1]^d), i.e. d + 1 per iteration; N iterations split ε evenly, so
  every noisy figure gets Lap((d+1)N/ε).
* degree sequence (sorted descending) under k-edge adjacency: 2k (k edges change 2k
  endpoint degrees by one each; sorting does not increase the L1 distance).
* degree histogram under k-edge adjacency: **4k**, not the thesis's 2k — one edge moves
  two nodes to another bin, changing up to four bin counts by one (seed 000 §2.9, reviewer
  note on §7.4.2).

Counts, histograms, sums and means take ``delta``: 0 (the default) gives pure ε-DP with
Laplace/geometric noise; δ > 0 gives (ε, δ)-DP with the analytically calibrated Gaussian
mechanism, whose L2 sensitivities here equal the L1 ones (one row changes one coordinate).

Every function returns a :class:`~privlab.dp.mechanisms.Release` whose (ε, δ) is what the
query as a whole spends.  Sums are exact (no int64 wrap-around), and error messages about
the data give counts, never a value or a row position: the rows are private.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from privlab.dp.accountant import check_delta, check_epsilon
from privlab.dp.accuracy import Noise, mean_accuracy
from privlab.dp.mechanisms import Release, gaussian, geometric, laplace
from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError


def _column(values: Any, name: str) -> np.ndarray:
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise InputError(f"{name}: a one-dimensional column of values expected")
    return arr


def _bounds(low: float, high: float) -> tuple[float, float]:
    lo, hi = float(low), float(high)
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        raise ConfigError(
            f"bounds [{low!r}, {high!r}]: give finite clamping bounds with low < high, fixed "
            "without looking at the data"
        )
    return lo, hi


def _noisy(value: Any, sensitivity: float, epsilon: float, delta: float, seed: Any) -> Release:
    """Laplace (δ = 0) or Gaussian (δ > 0) noise for an L1 = L2 sensitivity."""
    if delta > 0:
        return gaussian(value, sensitivity, epsilon, delta, seed=seed)
    return laplace(value, sensitivity, epsilon, seed=seed)


def count(values: Any, epsilon: float, *, delta: float = 0.0, seed: Any = None) -> Release:
    """Noisy number of rows: n + DLap(1/ε) (exact geometric mechanism).  O(1)."""
    n = len(values) if not isinstance(values, (int, np.integer)) else int(values)
    return _renamed(_noisy(np.int64(n), 1, epsilon, delta, seed), "count", sensitivity=1)


def histogram(
    values: Any,
    bins: Sequence[Any] | int,
    epsilon: float,
    *,
    delta: float = 0.0,
    seed: Any = None,
    name: str = "values",
) -> Release:
    """Noisy counts over fixed bins, sensitivity 1 (seed 000 §2.6).

    O(n + b) for integer codes, O(n log b + b) for labels.

    ``bins``: the categories (any values, counted by equality), or an int b for integer
    codes 0..b−1.  A value outside the bins is an error — it would otherwise be dropped
    silently; the message (about ``name``) counts such values but shows none.  The release
    value is an int64 array aligned with the bins.
    """
    arr = _column(values, name)
    if isinstance(bins, (int, np.integer)):
        if bins < 1:
            raise ConfigError(f"bins = {bins!r}: give at least one bin")
        labels = np.arange(int(bins))
        counts = _code_counts(arr, int(bins), name)
    else:
        labels = np.asarray(list(bins))
        if labels.size == 0 or np.unique(labels).size != labels.size:
            raise ConfigError("bins: give distinct bin labels (at least one)")
        counts = _label_counts(arr, labels, name)
    release = _noisy(counts, 1, epsilon, delta, seed)
    return _renamed(release, "histogram", sensitivity=1, bins=labels.tolist())


def _outside(name: str, outside: np.ndarray) -> InputError:
    return InputError(
        f"{name}: {int(np.count_nonzero(outside))} value(s) in none of the bins; add their "
        "categories to the bins (bins must be fixed in advance, from the public domain, not "
        "read from the data)"
    )


def _code_counts(arr: np.ndarray, bins: int, name: str) -> np.ndarray:
    """Counts of integer codes 0..bins−1 by one bincount.  O(n + bins)."""
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise InputError(f"{name}: integer codes 0..{bins - 1} expected, got {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= bins):
        raise _outside(name, (arr < 0) | (arr >= bins))
    return np.bincount(arr, minlength=bins).astype(np.int64)


def _label_counts(arr: np.ndarray, labels: np.ndarray, name: str) -> np.ndarray:
    """Counts of arbitrary labels by binary search in the sorted labels.  O(n log b)."""
    order = np.argsort(labels, kind="stable")
    sorted_labels = labels[order]
    try:
        pos = np.searchsorted(sorted_labels, arr)
    except TypeError:
        raise InputError(f"{name}: their type does not match the bin labels") from None
    pos_clipped = np.minimum(pos, labels.size - 1)
    outside = (pos >= labels.size) | (sorted_labels[pos_clipped] != arr)
    if outside.any():
        raise _outside(name, outside)
    counts = np.empty(labels.size, dtype=np.int64)
    counts[order] = np.bincount(pos_clipped, minlength=labels.size)
    return counts


def clamped_sum(
    values: Any,
    low: float,
    high: float,
    epsilon: float,
    *,
    delta: float = 0.0,
    seed: Any = None,
) -> Release:
    """Noisy sum of values clamped to [low, high]; sensitivity max(|low|, |high|).  O(n).

    The bounds must be fixed without looking at the data.  Integer data with integer
    bounds stay integers (geometric or discrete Gaussian noise) and are summed exactly
    (:func:`_exact_int_sum`: no int64 wrap-around; the release value is a Python int, which
    may exceed int64); otherwise the clamped values are summed in float64 with
    floating-point-safe Laplace noise, and bounds whose worst-case sum would overflow
    float64 are refused.
    """
    lo, hi = _bounds(low, high)
    arr = _column(values, "values")
    if not np.issubdtype(arr.dtype, np.number) or arr.dtype == bool:
        raise InputError(f"values: numbers expected, got {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating) and np.isnan(arr).any():
        n_nan = int(np.count_nonzero(np.isnan(arr)))
        raise InputError(f"values: {n_nan} NaN value(s); remove or impute them first")
    sensitivity = max(abs(lo), abs(hi))
    if np.issubdtype(arr.dtype, np.integer) and lo.is_integer() and hi.is_integer():
        total = _exact_int_sum(arr, int(lo), int(hi))
        # the noise of the mechanism, added to the exact sum (which int64 may not hold)
        noise = _noisy(np.int64(0), sensitivity, epsilon, delta, seed)
        release = replace(noise, value=total + noise.value)
    else:
        if arr.size * sensitivity > np.finfo(np.float64).max:
            raise ConfigError(
                f"bounds [{lo:g}, {hi:g}]: the clamped sum could overflow float64; give "
                "smaller bounds"
            )
        total = float(np.clip(arr.astype(np.float64), lo, hi).sum())
        release = _noisy(total, sensitivity, epsilon, delta, seed)
    return _renamed(release, "sum", sensitivity=sensitivity, low=lo, high=hi)


def _exact_int_sum(arr: np.ndarray, lo: int, hi: int) -> int:
    """Σ clip(arr, lo, hi) exactly, as a Python int, for any integer dtype.  O(n).

    The clipped values are summed in blocks of at most ⌊(2⁶³ − 1)/max(|lo|, |hi|)⌋ values
    (2⁶⁴ − 1 for unsigned data), whose sums cannot overflow the accumulator; the block sums
    are added as Python integers.  (A plain ``.sum()`` wraps around silently: 10⁶ values of
    10¹³ gave −8.4·10¹⁸.)  Bounds outside the dtype's range are narrowed to it first.
    """
    info = np.iinfo(arr.dtype)
    if lo > info.max or hi < info.min:  # every value clamps to the same bound
        return (lo if lo > info.max else hi) * int(arr.size)
    a, b = max(lo, int(info.min)), min(hi, int(info.max))
    clipped = np.clip(arr, arr.dtype.type(a), arr.dtype.type(b))
    acc = np.uint64 if info.min == 0 else np.int64
    block = int(np.iinfo(acc).max) // max(abs(a), abs(b), 1)
    if block < 1:  # |a| = 2⁶³: no int64 block is safe
        return int(clipped.astype(object).sum())
    return sum(int(clipped[i : i + block].sum(dtype=acc)) for i in range(0, clipped.size, block))


def clamped_mean(
    values: Any,
    low: float,
    high: float,
    epsilon: float,
    *,
    delta: float = 0.0,
    seed: Any = None,
) -> Release:
    """Noisy mean: noisy clamped sum / noisy count, (ε/2, δ/2) each, clamped to [low, high].

    The release carries the whole (ε, δ) it spends.  O(n).
    """
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    rng = secure_generator(seed)
    total = clamped_sum(values, low, high, eps / 2, delta=dlt / 2, seed=rng)
    n = count(values, eps / 2, delta=dlt / 2, seed=rng)
    lo, hi = _bounds(low, high)
    mean = float(np.clip(total.value / max(n.value, 1), lo, hi))
    accuracy = mean_accuracy(
        total.value, n.value, Noise.from_record(total.accuracy), Noise.from_record(n.accuracy),
        lo, hi,
    )  # fmt: skip
    return Release(
        mean,
        eps,
        dlt,
        "mean",
        {"low": lo, "high": hi, "noisy_sum": total.value, "noisy_count": n.value},
        is_insecure_seed(seed),
        accuracy,
    )


def _renamed(release: Release, query: str, **extra: Any) -> Release:
    params = {"mechanism": release.mechanism, **release.parameters, **extra}
    return Release(
        release.value, release.epsilon, release.delta, query, params, release.insecure_seed,
        release.accuracy,
    )  # fmt: skip


# ---------------------------------------------------------------------------- k-means
def _unit_cube(points: Any, k: int, bounds: tuple[Any, Any] | None) -> tuple:
    """Points rescaled from ``bounds`` (default the unit cube) to [0,1]^d and clipped."""
    x = np.asarray(points, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] == 0:
        raise InputError("points: a non-empty n × d array expected")
    if not np.all(np.isfinite(x)):
        raise InputError("points: NaN or infinite coordinates; remove them")
    if int(k) != k or k < 1:
        raise ConfigError(f"k = {k!r}: give a positive integer")
    d = x.shape[1]
    lower, upper = (
        (np.zeros(d), np.ones(d))
        if bounds is None
        else (
            np.broadcast_to(np.asarray(bounds[0], dtype=np.float64), (d,)),
            np.broadcast_to(np.asarray(bounds[1], dtype=np.float64), (d,)),
        )
    )
    if np.any(upper <= lower):
        raise ConfigError("bounds: every upper coordinate must exceed the lower one")
    return np.clip((x - lower) / (upper - lower), 0.0, 1.0), lower, upper


def _kmeans_round(
    unit: np.ndarray, centroids: np.ndarray, epsilon: float, rng: np.random.Generator
) -> np.ndarray:
    """One private Lloyd step: noisy counts and sums, Lap((d+1)/ε) each (seed 000 §5.6)."""
    k, d = centroids.shape
    dist = ((unit[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    label = dist.argmin(axis=1)
    counts = np.bincount(label, minlength=k).astype(np.float64)
    sums = np.zeros((k, d))
    np.add.at(sums, label, unit)
    query = np.concatenate([counts, sums.ravel()])
    noisy = np.asarray(laplace(query, d + 1, epsilon, seed=rng).value)
    noisy_counts, noisy_sums = noisy[:k], noisy[k:].reshape(k, d)
    ok = noisy_counts >= 1
    out = centroids.copy()
    out[ok] = np.clip(noisy_sums[ok] / noisy_counts[ok, None], 0.0, 1.0)
    return out


def kmeans(
    points: Any,
    k: int,
    epsilon: float,
    *,
    bounds: tuple[Any, Any] | None = None,
    iterations: int = 5,
    seed: Any = None,
) -> Release:
    """DP k-means (seed 000 §5.6, Algorithm 5.2 with the Laplace per-iteration queries).

    Points are rescaled from ``bounds`` = (lower corner, upper corner) — fixed in advance,
    default the unit cube — to [0,1]^d and clipped.  Initial centroids are uniform in the
    cube (data-independent).  Each of the N = ``iterations`` rounds asks, with fresh noise
    Lap((d+1)N/ε) on every figure, the per-cluster counts and coordinate sums, and sets each
    centroid to noisy sum / noisy count (an empty or negative cluster keeps its centroid).
    Returns the k × d centroids in the original units.  O(N·n·k·d).
    """
    eps = check_epsilon(epsilon)
    if int(iterations) != iterations or iterations < 1:
        raise ConfigError(f"iterations = {iterations!r}: give a positive integer")
    unit, lower, upper = _unit_cube(points, k, bounds)
    rng = secure_generator(seed)
    centroids = rng.random((int(k), unit.shape[1]))  # data-independent start
    per_figure = eps / iterations  # each round: one vector query of L1 sensitivity d + 1
    for _ in range(int(iterations)):
        centroids = _kmeans_round(unit, centroids, per_figure, rng)
    result = lower + centroids * (upper - lower)
    return Release(
        result,
        eps,
        0.0,
        "kmeans",
        {
            "k": int(k),
            "iterations": int(iterations),
            "laplace_scale": (unit.shape[1] + 1) * iterations / eps,
        },
        is_insecure_seed(seed),
    )


def kmeans_halving(
    points: Any,
    k: int,
    epsilon: float,
    *,
    bounds: tuple[Any, Any] | None = None,
    max_iterations: int = 5,
    tolerance: float = 0.01,
    seed: Any = None,
) -> Release:
    """DP k-means when the number of rounds N is not known in advance (seed 000 §5.6).

    "Halve the remaining budget each round": round i answers its two histogram queries
    (counts, coordinate sums; L1 sensitivity d + 1) with Lap((d+1)/(ε/2^i)), so any number
    of rounds costs Σ ε/2^i < ε.  It stops when no (noisy, released) centroid moved more than
    ``tolerance`` (in the unit cube) or after ``max_iterations`` rounds; the stopping rule
    reads released values only, so it is post-processing.  Round i's noise scale is
    2^i (d+1)/ε, so late rounds are mostly noise: keep ``max_iterations`` small (about
    log₂(nε/(d+1)) rounds carry signal).  Same set-up as :func:`kmeans`.  O(N·n·k·d).
    """
    eps = check_epsilon(epsilon)
    if int(max_iterations) != max_iterations or not 1 <= max_iterations <= 60:
        raise ConfigError(f"max_iterations = {max_iterations!r}: give an integer in [1, 60]")
    tol = float(tolerance)
    if not math.isfinite(tol) or tol < 0:
        raise ConfigError(f"tolerance = {tolerance!r}: give a finite number ≥ 0")
    unit, lower, upper = _unit_cube(points, k, bounds)
    rng = secure_generator(seed)
    centroids = rng.random((int(k), unit.shape[1]))
    budgets: list[float] = []
    for i in range(1, int(max_iterations) + 1):
        budgets.append(eps / 2**i)
        moved = _kmeans_round(unit, centroids, budgets[-1], rng)
        shift = float(np.abs(moved - centroids).max())
        centroids = moved
        if shift <= tol:
            break
    d = unit.shape[1]
    return Release(
        lower + centroids * (upper - lower),
        float(sum(budgets)),
        0.0,
        "kmeans (halving budget)",
        {
            "k": int(k),
            "iterations": len(budgets),
            "epsilon_per_round": budgets,
            "laplace_scales": [(d + 1) / b for b in budgets],
            "epsilon_given": eps,
        },
        is_insecure_seed(seed),
    )


# ---------------------------------------------------------------------------- degrees
def _degrees(degrees: Any) -> np.ndarray:
    if hasattr(degrees, "indptr") and callable(getattr(degrees, "degrees", None)):
        degrees = degrees.degrees()  # a privlab Graph
    elif hasattr(degrees, "degree") and hasattr(degrees, "nodes"):  # a networkx graph
        degrees = [d for _, d in degrees.degree()]
    arr = np.asarray(degrees)
    if arr.ndim != 1 or (arr.size and (not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0)):
        raise InputError(
            "degrees: a graph (privlab or networkx) or a 1-D array of non-negative integer "
            "degrees expected"
        )
    return arr.astype(np.int64)


def check_k_edges(k_edges: Any) -> int:
    """k of k-edge adjacency; ConfigError unless a positive integer (1 = edge DP)."""
    try:
        ok = not isinstance(k_edges, bool) and int(k_edges) == k_edges and k_edges >= 1
    except (TypeError, ValueError, OverflowError):
        ok = False
    if not ok:
        raise ConfigError(f"k_edges = {k_edges!r}: give a positive integer (1 = edge DP)")
    return int(k_edges)


def degree_sequence(degrees: Any, epsilon: float, *, k_edges: int = 1, seed: Any = None) -> Release:
    """Noisy descending degree sequence under k-edge DP: sensitivity 2k.  O(n log n)."""
    k = check_k_edges(k_edges)
    seq = np.sort(_degrees(degrees))[::-1].copy()
    release = geometric(seq, 2 * k, epsilon, seed=seed)
    return _renamed(release, "degree_sequence", k_edges=k)


def degree_histogram(
    degrees: Any, epsilon: float, *, max_degree: int, k_edges: int = 1, seed: Any = None
) -> Release:
    """Noisy counts of nodes of degree 0..max_degree under k-edge DP: sensitivity 4k.

    The thesis gives 2k; one edge moves each endpoint to the next bin, changing up to four
    counts, so 4k is the correct bound (seed 000 §2.9, reviewer note).  ``max_degree`` must
    be fixed in advance (e.g. n − 1); larger degrees are an error.  O(n + max_degree).
    """
    k = check_k_edges(k_edges)
    deg = _degrees(degrees)
    if int(max_degree) != max_degree or max_degree < 0:
        raise ConfigError(f"max_degree = {max_degree!r}: give a non-negative integer")
    if deg.size and deg.max() > max_degree:
        raise InputError(
            f"degrees: {int(np.count_nonzero(deg > max_degree))} node(s) have a degree above "
            f"max_degree = {max_degree}; raise max_degree (fix it without looking at the "
            "data, e.g. n − 1)"
        )
    counts = np.bincount(deg, minlength=int(max_degree) + 1).astype(np.int64)
    release = geometric(counts, 4 * k, epsilon, seed=seed)
    return _renamed(release, "degree_histogram", k_edges=k)


__all__ = [
    "check_k_edges",
    "clamped_mean",
    "clamped_sum",
    "count",
    "degree_histogram",
    "degree_sequence",
    "histogram",
    "kmeans",
]
