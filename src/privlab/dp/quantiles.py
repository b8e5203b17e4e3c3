"""Several private quantiles of one column, and quantiles per group, vectorized over groups.

**Mechanism.**  The exponential mechanism (McSherry & Talwar 2007; seed 000 §2.7, Def 6.3)
with the rank score of Smith ("Privacy-preserving statistical estimation with optimal
convergence rates", STOC 2011), over a *bounded, public* candidate set c_0 < … < c_{m−1} in
[low, high] — the approach of OpenDP (``make_quantile_score_candidates``).  For a
p-quantile the score of candidate c is

    u(D, c) = −| (1 − p)·#{x ∈ D : x < c}  −  p·#{x ∈ D : x > c} |

(OpenDP's form: with no ties it equals −|#{x < c} − p·n|, and values equal to c count on
neither side, so a column of identical values puts its quantile on that value).

**Sensitivity.**  Adding or removing one row moves #{x < c} or #{x > c} by one, so u moves
by at most max(p, 1 − p) ≤ 1.  When a privacy unit contributes at most ``max_rows`` rows to
a group (contribution bounding, done by the caller), Δ = max_rows · max(p, 1 − p).  The
candidate c is drawn with probability ∝ exp(ε_p u(D, c) / (2Δ)), which is ε_p-DP.

**Several quantiles** share the budget by sequential composition: each of the k quantiles
gets ε/k.  The released values are then sorted against the
sorted quantile levels — post-processing, free — so the answers are monotone in p.  The
joint exponential mechanism of Gillenwater, Joseph & Kulesza ("Differentially private
quantiles", ICML 2021, "JointExp") and the recursive splitting of Kaplan, Schnapp & Stemmer
("Differentially private approximate quantiles", ICML 2022) are more accurate for many
quantiles; they are not implemented here.

**Groups.**  Groups are disjoint sets of rows, so a unit whose rows all lie in one group is
protected by parallel composition: ε in total.  More generally the exponential mechanism's
privacy loss is linear in the actual score change: a unit adding r_g rows to group g costs
group g at most ε·r_g/max_rows.  So if a unit contributes at most M rows **in total**
(over all groups), ``max_rows=M`` makes the whole grouped release ε-DP; with at most G
groups of at most R rows each, ``max_rows=R`` and ``epsilon/G`` per group is the same thing.

**Sampling.**  :func:`grouped_quantiles` counts every (group, candidate slot) in one
``np.bincount`` pass, forms the scores of all groups as one array, and samples every group's
candidate at once by the Gumbel-max trick (argmax of log-weight + Gumbel noise has exactly
the exponential mechanism's law).  The Gumbel draws are floating point (diffprivlib's
exponential mechanism is floating point too); the exact (rational-arithmetic) sampler for
one candidate set is :func:`privlab.dp.exponential.exponential_textbook`.  With no candidate set,
:func:`private_quantiles` uses the continuous-range exponential mechanism of
:func:`privlab.dp.exponential.private_quantile` for each quantile.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from privlab.dp.accountant import check_epsilon
from privlab.dp.exponential import quantile_score, sample_piecewise
from privlab.dp.mechanisms import Release, _numeric
from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.validate import check_fraction, check_int

#: Candidates of the grid used when none are given to :func:`grouped_quantiles`.
DEFAULT_CANDIDATES = 1025
#: Most candidates of the joint mechanism (its tables are m × m floats: 134 MB at 4097).
JOINT_MAX_CANDIDATES = 4097
#: Largest number of (group, quantile, candidate) weights held at once (memory ≈ 8 bytes each).
_BLOCK = 1 << 22


def _bounds(low: float, high: float) -> tuple[float, float]:
    try:
        lo, hi = float(low), float(high)
    except (TypeError, ValueError):
        lo = hi = math.nan
    if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
        raise ConfigError(
            f"low = {low!r}, high = {high!r}: give finite bounds with low < high, fixed from "
            "the column's public domain (not from the data)"
        )
    return lo, hi


def check_quantiles(qs: Any, name: str = "qs") -> np.ndarray:
    """The quantile levels as a float array of at least one value in [0, 1]."""
    levels = np.atleast_1d(np.asarray(qs, dtype=object)).ravel()
    if levels.size == 0:
        raise ConfigError(f"{name}: give at least one quantile level in [0, 1]")
    return np.array([check_fraction(q, name, low_open=False) for q in levels], dtype=float)


def candidate_grid(low: float, high: float, candidates: Any = None) -> np.ndarray:
    """The public candidate set: ``None`` → :data:`DEFAULT_CANDIDATES` evenly spaced points
    of [low, high]; an int m ≥ 2 → m evenly spaced points; an array → its distinct values,
    sorted, all inside [low, high].  O(m log m)."""
    lo, hi = _bounds(low, high)
    if candidates is None:
        return np.linspace(lo, hi, DEFAULT_CANDIDATES)
    if isinstance(candidates, (int, np.integer)) and not isinstance(candidates, bool):
        m = check_int(int(candidates), "candidates", 2, "the number of evenly spaced points")
        return np.linspace(lo, hi, m)
    grid = np.unique(_numeric(candidates, "candidates").astype(float).ravel())
    if grid.size == 0:
        raise ConfigError("candidates: give at least one candidate value")
    if grid[0] < lo or grid[-1] > hi:
        raise ConfigError(
            f"candidates: values from {grid[0]:g} to {grid[-1]:g} fall outside [low, high] = "
            f"[{lo:g}, {hi:g}]; give public candidates inside the clamping bounds"
        )
    return grid


def quantile_sensitivity(q: float, max_rows: int = 1) -> float:
    """Δ of the candidate rank score: max_rows · max(q, 1 − q) (add/remove one unit)."""
    return max_rows * max(q, 1.0 - q)


def slot_counts(
    codes: np.ndarray, n_groups: int, values: np.ndarray, grid: np.ndarray
) -> np.ndarray:
    """Counts (n_groups × (2m + 1)) of values per group in the slots of the grid.

    Slot 2j holds the values strictly between c_{j−1} and c_j (slot 0: below c_0, slot 2m:
    above c_{m−1}); slot 2j + 1 the values equal to c_j.  One ``searchsorted`` and one
    ``bincount`` pass: O(n log m + n_groups·m).
    """
    m = grid.size
    pos = np.searchsorted(grid, values, side="left")
    slot = 2 * pos
    slot += np.append(grid, np.inf)[pos] == values  # +inf: pos = m is never "at" a candidate
    flat = codes.astype(np.int64) * (2 * m + 1) + slot
    return np.bincount(flat, minlength=n_groups * (2 * m + 1)).reshape(n_groups, 2 * m + 1)


def rank_scores(counts: np.ndarray, qs: np.ndarray) -> np.ndarray:
    """Scores (groups × k × m): −|(1 − p)·#{x < c_j} − p·#{x > c_j}| from slot counts."""
    m = (counts.shape[1] - 1) // 2
    cum = np.cumsum(counts, axis=1)
    below = cum[:, 0 : 2 * m : 2]  # slots 0..2j
    n = cum[:, -1:]
    above = n - cum[:, 1 : 2 * m + 1 : 2]  # all but slots 0..2j+1
    p = qs[None, :, None]
    return -np.abs((1 - p) * below[:, None, :] - p * above[:, None, :])


def _check_codes(codes: Any, n_groups: int, size: int) -> np.ndarray:
    arr = np.asarray(codes)
    if arr.ndim != 1 or arr.size != size:
        raise InputError(
            f"codes: {arr.size} group code(s) for {size} value(s); give one code per value"
        )
    if arr.size and (not np.issubdtype(arr.dtype, np.integer) or arr.dtype == bool):
        raise InputError(f"codes: integer group ids 0..{n_groups - 1} expected, got {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= n_groups):
        bad = int(np.count_nonzero((arr < 0) | (arr >= n_groups)))
        raise InputError(
            f"codes: {bad} code(s) outside 0..{n_groups - 1}; give n_groups larger than every "
            "group id"
        )
    return arr


def grouped_quantiles(
    codes: Any,
    n_groups: int,
    values: Any,
    qs: Any,
    low: float,
    high: float,
    epsilon: float,
    *,
    candidates: Any = None,
    max_rows: int = 1,
    seed: Any = None,
) -> Release:
    """ε-DP quantiles of ``values`` in every group, chosen from a public candidate set.

    ``codes[i]`` ∈ [0, n_groups) is the group of ``values[i]``; values are clamped to
    [low, high]; ``qs`` the quantile levels (k of them); ``epsilon`` the budget **per
    group**, split evenly over the k quantiles (ε/k each, sequential composition; groups
    compose in parallel); ``candidates``: None (1025 evenly spaced points), an int m, or an
    array of public values in [low, high]; ``max_rows``: the most rows a privacy unit
    contributes to one group (the score sensitivity is max_rows · max(p, 1 − p)).

    Returns a :class:`Release` whose value is a float array of shape (n_groups, k): row g
    holds group g's quantiles, sorted against the sorted levels (post-processing).  A group
    with no rows gets draws uniform over the candidates.  Source: Smith 2011 / OpenDP's
    candidate score; see the module docstring.

    O(n log m + n_groups·k·m) time (plus O(n log n) to sort the rows by group when
    n_groups·m is large); memory O(n + min(n_groups·m, 2^22)): counts and weights are
    processed in blocks of groups.  10^7 values in 10^3 groups: about 1.5 s of CPU.
    """
    eps = check_epsilon(epsilon)
    groups = check_int(n_groups, "n_groups", 1, "the number of groups")
    rows = check_int(max_rows, "max_rows", 1, "the most rows one privacy unit adds to a group")
    levels = check_quantiles(qs)
    lo, hi = _bounds(low, high)
    grid = candidate_grid(lo, hi, candidates)
    x = _numeric(values, "values").ravel()
    if x.dtype != np.float64:
        x = x.astype(np.float64)
    g = _check_codes(codes, groups, x.size)
    x = np.clip(x, lo, hi)
    rng = secure_generator(seed)
    k, m = levels.size, grid.size
    step = max(1, _BLOCK // (k * m))
    if groups * (2 * m + 1) <= _BLOCK:  # one counting pass for all groups
        counts = slot_counts(g, groups, x, grid)
        block_counts = lambda a, b: counts[a:b]  # noqa: E731
    else:  # many groups: rows sorted by group once, counted a block of groups at a time
        order = np.argsort(g, kind="stable")
        g, x = g[order], x[order]
        cut = np.searchsorted(g, np.arange(groups + 1))
        block_counts = lambda a, b: slot_counts(  # noqa: E731
            g[cut[a] : cut[b]] - a, b - a, x[cut[a] : cut[b]], grid
        )
    per_q = eps / k
    sens = np.array([quantile_sensitivity(q, rows) for q in levels])
    factor = (per_q / (2 * sens))[None, :, None]
    chosen = np.empty((groups, k), dtype=np.int64)
    for start in range(0, groups, step):
        block = block_counts(start, min(start + step, groups))
        logits = factor * rank_scores(block, levels)
        logits += rng.gumbel(size=logits.shape)
        chosen[start : start + step] = logits.argmax(axis=2)
    out = grid[chosen]
    order = np.argsort(levels, kind="stable")
    out[:, order] = np.sort(out, axis=1)
    return Release(
        out,
        eps,
        0.0,
        "exponential (quantiles over candidates, Gumbel-max)",
        {
            "quantiles": levels.tolist(),
            "epsilon_per_quantile": per_q,
            "sensitivity": sens.tolist(),
            "max_rows": rows,
            "candidates": int(m),
            "low": lo,
            "high": hi,
            "groups": groups,
        },
        is_insecure_seed(seed),
    )


def private_quantiles(
    values: Any, low: float, high: float, qs: Any, epsilon: float, *,
    candidates: Any = None, max_rows: int = 1, seed: Any = None,
) -> Release:  # fmt: skip
    """ε-DP quantiles (k levels ``qs``) of one column clamped to [low, high], ε/k each.

    ``candidates=None``: the continuous-range exponential mechanism of
    :func:`privlab.dp.exponential.private_quantile` (rank score −|i − p·n| on the intervals
    between sorted values, Δ = max_rows) for each level — O(k·n log n); real outputs.
    Otherwise the candidate-set mechanism of :func:`grouped_quantiles` with one group.
    The answers are sorted against the sorted levels (post-processing).  Value: a float
    array of length k aligned with ``qs``.
    """
    eps = check_epsilon(epsilon)
    levels = check_quantiles(qs)
    rows = check_int(max_rows, "max_rows", 1, "the most rows one privacy unit contributes")
    if candidates is not None:
        x = _numeric(values, "values").ravel()
        release = grouped_quantiles(
            np.zeros(x.size, dtype=np.int64), 1, x, levels, low, high, eps,
            candidates=candidates, max_rows=rows, seed=seed,
        )  # fmt: skip
        params = {k: v for k, v in release.parameters.items() if k != "groups"}
        return Release(release.value[0], eps, 0.0, release.mechanism, params,
                       release.insecure_seed)  # fmt: skip
    lo, hi = _bounds(low, high)
    rng = secure_generator(seed)
    per_q = eps / levels.size
    out = np.array([
        sample_piecewise(quantile_score(values, lo, hi, q), float(rows), per_q, rng)
        for q in levels
    ])  # fmt: skip
    order = np.argsort(levels, kind="stable")
    out[order] = np.sort(out)
    return Release(
        out,
        eps,
        0.0,
        "exponential (continuous range, quantiles)",
        {"quantiles": levels.tolist(), "epsilon_per_quantile": per_q,
         "sensitivity": float(rows), "low": lo, "high": hi},
        is_insecure_seed(seed),
    )  # fmt: skip


# ---------------------------------------------------------------------------- joint
def joint_log_weights(below: np.ndarray, n: int, qs: np.ndarray, scale: float) -> list:
    """Forward tables of the joint mechanism: ``alpha[j][t]`` = log Σ over ordered
    o_1 ≤ … ≤ o_{j+1} = c_t of exp(scale · score of the first j + 1 gaps), and the log
    weight of each last candidate with the final gap.  ``below[t]`` = #{x < c_t}; ``qs``
    strictly increasing.  O(k·m²).
    """
    targets = np.diff(np.concatenate([[0.0], qs, [1.0]])) * n
    gap = below[None, :] - below[:, None]  # [t', t]: #{c_t' ≤ x < c_t}
    allowed = np.triu(np.ones(gap.shape, dtype=bool))  # t' ≤ t
    alpha = [-scale * np.abs(below - targets[0])]
    for d in targets[1:-1]:
        step = np.where(allowed, alpha[-1][:, None] - scale * np.abs(gap - d), -np.inf)
        top = step.max(axis=0)
        alpha.append(top + np.log(np.exp(step - top).sum(axis=0)))
    alpha.append(alpha[-1] - scale * np.abs(n - below - targets[-1]))
    return alpha


def joint_quantiles(
    values: Any, low: float, high: float, qs: Any, epsilon: float, *,
    candidates: Any = None, max_rows: int = 1, seed: Any = None,
) -> Release:  # fmt: skip
    """ε-DP quantiles drawn **jointly**: one exponential mechanism over ordered tuples.

    The joint exponential mechanism of Gillenwater, Joseph & Kulesza ("Differentially
    private quantiles", ICML 2021, "JointExp"), over a public candidate set instead of the
    intervals between data points: the output o_1 ≤ … ≤ o_k (candidates, ties allowed) has
    probability ∝ exp(ε u(o) / (2Δ)) with

        u(o) = −Σ_{j=1}^{k+1} | #{x : o_{j−1} ≤ x < o_j} − (p_j − p_{j−1})·n |,

    o_0 = low, o_{k+1} = high (inclusive), p_0 = 0, p_{k+1} = 1.  Every row falls in exactly
    one gap, and the targets move by n's change times Σ(p_j − p_{j−1}) = 1, so Δ = 2 per row,
    2·``max_rows`` per unit (add/remove).  The whole ε buys all k quantiles at once (no ε/k
    split).  Sampled exactly in law (floating point) by the forward sums of
    :func:`joint_log_weights` and backward sampling, last quantile first.

    Distinct ``qs`` only; the value is aligned with ``qs``.  Rows equal to a candidate count
    in the gap that starts there: many ties at candidates blur the score (the paper
    assumes distinct values).  O(n log m + k·m²) for m candidates (None → 1025).
    """
    eps = check_epsilon(epsilon)
    levels = check_quantiles(qs)
    if np.unique(levels).size != levels.size:
        raise ConfigError("qs: give each quantile level once")
    rows = check_int(max_rows, "max_rows", 1, "the most rows one privacy unit contributes")
    lo, hi = _bounds(low, high)
    grid = candidate_grid(lo, hi, candidates)
    if grid.size > JOINT_MAX_CANDIDATES:
        raise ConfigError(
            f"candidates: {grid.size} values; the joint mechanism holds m × m tables, so give "
            f"at most {JOINT_MAX_CANDIDATES}"
        )
    x = np.clip(_numeric(values, "values").astype(float).ravel(), lo, hi)
    below = np.searchsorted(np.sort(x), grid, side="left").astype(float)
    order = np.argsort(levels)
    sens = 2.0 * rows
    alpha = joint_log_weights(below, x.size, levels[order], eps / (2 * sens))
    rng = secure_generator(seed)
    k = levels.size
    chosen = np.empty(k, dtype=np.int64)
    t = int(np.argmax(alpha[-1] + rng.gumbel(size=grid.size)))
    chosen[k - 1] = t
    targets = np.diff(np.concatenate([[0.0], levels[order], [1.0]])) * x.size
    for j in range(k - 2, -1, -1):  # o_{j+1} ≤ o_{j+2} = c_t
        logw = alpha[j][: t + 1] - eps / (2 * sens) * np.abs(below[t] - below[: t + 1]
                                                              - targets[j + 1])  # fmt: skip
        t = int(np.argmax(logw + rng.gumbel(size=t + 1)))
        chosen[j] = t
    out = np.empty(k)
    out[order] = grid[chosen]
    return Release(
        out, eps, 0.0, "joint exponential (quantiles over candidates)",
        {"quantiles": levels.tolist(), "sensitivity": sens, "max_rows": rows,
         "candidates": int(grid.size), "low": lo, "high": hi},
        is_insecure_seed(seed),
    )  # fmt: skip


__all__ = [
    "DEFAULT_CANDIDATES",
    "JOINT_MAX_CANDIDATES",
    "candidate_grid",
    "check_quantiles",
    "grouped_quantiles",
    "joint_log_weights",
    "joint_quantiles",
    "private_quantiles",
    "quantile_sensitivity",
    "rank_scores",
    "slot_counts",
]
