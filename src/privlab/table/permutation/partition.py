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

**Errata** of the printed Algorithm 1 (L1355–1390), fixed here (seed 001 §4): it initializes
``f[0] = ∞`` — so nothing is ever finite — and combines with ``temp = max(f[d−1], error)``,
which is the min-max recurrence.  Min-sum uses ``f[0] = 0`` and ``temp = f[d−1] + error``;
the ``max`` form with ``f[0] = 0`` is the non-overlapping min-max DP.

**Speed** (the printed DP is O(n²) time and space).  With x sorted and r its dense ranks, a
segment x[j..i−1] is feasible iff r[i−1] − r[j] + 1 ≥ k and x[i−1] − x[j] ≥ e; both are
monotone in j, so the feasible starts of the prefix of length i are exactly j ≤ J(i), and
J is nondecreasing in i (one ``searchsorted`` each).  Then

* min-sum: f(i) = x[i−1] + min_{j ≤ J(i)} (f(j) − x[j]) — a running prefix minimum;
* max-group: g(i) = 1 + max_{j ≤ J(i)} g(j); g is nondecreasing on feasible prefixes, so
  g(i) = 1 + g(J(i)) (or 1 with j = 0 when the prefix J(i) is infeasible) — a pointer chase;
* min-max: f(i) = min_{j ≤ J(i)} max(f(j), x[i−1] − x[j]).  f is *not* monotone (k = 2,
  x = 0, 10, 10.5, 20: f(3) = 10.5 > f(4) = 10), so the crossing cannot be found on f
  directly.  But for any A and any nonincreasing B, min_{j ≤ D} max(A(j), B(j)) =
  min_{j ≤ D} max(SA(j), B(j)) with SA(j) = min A[j..D]: "≥" since SA ≤ A; "≤" since
  SA(j) = A(j') for some j' ≥ j and B(j') ≤ B(j).  SA is a step function, constant up to each
  suffix-minimum record of A, so only the records ("stair": A strictly increasing, B
  nonincreasing) need to be looked at, and there max(A, B) is
  unimodal; the crossing A(j) + x[j] ≥ x[i−1] is a binary search.

The recurrences depend on earlier values, but only on f(j) with j ≤ J(i) < i: all prefixes i
in a block [a, b] with J(b) < a are computed at once with numpy (O(n / lag) Python steps,
lag = i − J(i) ≥ k − 1).  The stair covers j ≤ J(a); starts in (J(a), J(i)] are scanned
densely, with blocks cut so that rows × columns stays below a budget.  Time O(n log n)
(sorting, plus one binary search per prefix), memory O(n).

Duplicates: equal values may be split across groups (the sorted positions, not the values,
are partitioned); a group's distinct count is what (k, e) constrains.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.table.models import TIE_TOLERANCE

METHODS = ("min-sum", "min-max", "max-group", "random", "swap")
_DENSE_BUDGET = 1 << 15
_SCALAR_LAG = 32  # below this median lag the plain-loop paths are faster


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
        row = int(np.flatnonzero(bad)[0])
        what = "missing (None/NaN)" if np.isnan(x[row]) else f"not finite ({x[row]})"
        raise InputError(
            f"row {row}: the sensitive value is {what}; {int(bad.sum())} such row(s) — "
            "remove or impute them first"
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


def _e_eff(e: float) -> float:
    """The threshold actually compared: ties within TIE_TOLERANCE pass (models.at_least)."""
    return e - TIE_TOLERANCE * max(1.0, abs(e))


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


# ------------------------------------------------------------------------------ helpers


def _dense_ranks(x: np.ndarray) -> np.ndarray:
    r = np.zeros(x.size, dtype=np.int64)
    np.cumsum(x[1:] != x[:-1], out=r[1:])
    return r


def _count_le_diff(x: np.ndarray, t: np.ndarray, thr: float, ge: bool) -> np.ndarray:
    """For each t: #j with fl(x[t] − x[j]) ≥ thr (ge) — or the first j with ≤ thr (not ge).

    ``searchsorted`` on x[t] − thr, then corrected so the count agrees with the floating
    point comparison actually used (rounding of x[t] − x[j] is monotone in x[j]).
    """
    n = x.size
    xt = x[t]
    if ge:  # count of j (a prefix) with xt - x[j] >= thr
        c = np.searchsorted(x, xt - thr, side="right")
        for _ in range(64):
            down = (c > 0) & ~(xt - x[np.maximum(c - 1, 0)] >= thr)
            up = (c < n) & (xt - x[np.minimum(c, n - 1)] >= thr)
            if not (down.any() or up.any()):
                break
            c = c - down + up
        return c
    # first j with xt - x[j] <= thr (j's with that property form a suffix)
    c = np.searchsorted(x, xt - thr, side="left")
    for _ in range(64):
        down = (c > 0) & (xt - x[np.maximum(c - 1, 0)] <= thr)
        up = (c < n) & ~(xt - x[np.minimum(c, n - 1)] <= thr)
        if not (down.any() or up.any()):
            break
        c = c - down + up
    return c


def last_starts(x: np.ndarray, k: int, e: float) -> np.ndarray:
    """J[i] (i = 0..n): the largest j with x[j..i−1] (k, e)-feasible, −1 if none; J[0] = −1.

    ``x`` sorted ascending.  J is nondecreasing.  O(n log n).
    """
    n = x.size
    r = _dense_ranks(x)
    t = np.arange(n)
    c1 = np.searchsorted(r, r - k + 1, side="right")
    c2 = _count_le_diff(x, t, _e_eff(e), ge=True)
    j = np.minimum(np.minimum(c1, c2), t + 1) - 1
    out = np.empty(n + 1, dtype=np.int64)
    out[0] = -1
    out[1:] = j
    return out


def _blocks(j_last: np.ndarray, dense: bool):
    """Blocks [a, b] of prefix lengths whose starts j ≤ J[i] are all < a (computed)."""
    n = j_last.size - 1
    a = 1
    while a <= n:
        b = int(np.searchsorted(j_last, a - 1, side="right")) - 1
        if dense and b > a:
            hi = min(b, a + _DENSE_BUDGET)
            seg = j_last[a : hi + 1]
            cost = np.arange(1, seg.size + 1) * (seg - max(int(j_last[a]), -1))
            b = a + max(0, int(np.searchsorted(cost, _DENSE_BUDGET, side="right")) - 1)
        yield a, b
        a = b + 1


def _backtrack(choice: np.ndarray, n: int) -> list[tuple[int, int]]:
    """Segments [j, i) from the start chosen for each prefix length, left to right."""
    segs = []
    i = n
    while i > 0:
        j = int(choice[i])
        if j < 0 or j >= i:  # pragma: no cover - guarded by the feasibility check
            raise AssertionError("backtracking reached an infeasible prefix")
        segs.append((j, i))
        i = j
    segs.reverse()
    return segs


# ------------------------------------------------------------------------------ min-sum


def _min_sum(x: np.ndarray, J: np.ndarray, scalar: bool | None = None) -> np.ndarray:
    """Choice of the last group's start for every prefix (min sum-of-error).  O(n)."""
    if _short_lag(J) if scalar is None else scalar:
        return _min_sum_scalar(x, J)
    n = x.size
    f = np.full(n + 1, np.inf)
    f[0] = 0.0
    pm = np.empty(n)  # prefix minimum of h[j] = f[j] − x[j], j = 0..n−1
    pa = np.empty(n, dtype=np.int64)  # its (latest) argmin
    pm[0], pa[0] = -x[0], 0
    choice = np.full(n + 1, -1, dtype=np.int64)
    for a, b in _blocks(J, dense=False):
        ji = J[a : b + 1]
        ok = ji >= 0
        jc = np.maximum(ji, 0)
        f[a : b + 1] = np.where(ok, x[a - 1 : b] + pm[jc], np.inf)
        choice[a : b + 1] = np.where(ok, pa[jc], -1)
        top = min(b, n - 1)
        if top >= a:
            hb = f[a : top + 1] - x[a : top + 1]
            run = np.minimum.accumulate(np.concatenate(([pm[a - 1]], hb)))
            pm[a : top + 1] = run[1:]
            idx = np.where(hb <= run[:-1], np.arange(a, top + 1), -1)
            idx = np.maximum.accumulate(idx)
            pa[a : top + 1] = np.where(idx < 0, pa[a - 1], idx)
    return choice


# ------------------------------------------------------------------------------ max-group


def _max_group(J: np.ndarray) -> np.ndarray:
    """g(i) = 1 + g(J(i)) (j = J(i) if that prefix is feasible, else j = 0).  O(n)."""
    jc = np.maximum(J, 0)
    feasible_prefix = J >= 0  # prefix of length i ≥ 1 is feasible iff J[i] ≥ 0
    feasible_prefix[0] = True
    choice = np.where(feasible_prefix[jc], jc, 0)
    choice[J < 0] = -1
    return choice


# ------------------------------------------------------------------------------ min-max


class _Stair:
    """Suffix-minimum records of a growing array A[0..end] (strictly increasing values).

    ``extend`` appends A[end+1..new_end]; entries not strictly below every later value are
    dropped (the later one wins ties).  Amortized O(1) per element.
    """

    def __init__(self, n: int, x: np.ndarray) -> None:
        self.idx = np.empty(n, dtype=np.int64)
        self.val = np.empty(n)
        self.key = np.empty(n)  # val + x[idx]
        self.x = x
        self.size = 0
        self.end = -1

    def extend(self, a_vals: np.ndarray, new_end: int) -> None:
        if new_end <= self.end:
            return
        w = a_vals[self.end + 1 : new_end + 1]
        rev = np.minimum.accumulate(w[::-1])[::-1]
        nxt = np.empty_like(rev)
        nxt[:-1] = rev[1:]
        nxt[-1] = np.inf
        keep = np.flatnonzero(w < nxt)
        s = int(np.searchsorted(self.val[: self.size], rev[0], side="left"))
        m = keep.size
        ids = keep + self.end + 1
        self.idx[s : s + m] = ids
        self.val[s : s + m] = w[keep]
        self.key[s : s + m] = w[keep] + self.x[ids]
        self.size = s + m
        self.end = new_end


def _min_max_value(x: np.ndarray, J: np.ndarray, scalar: bool | None = None) -> float:
    """f(n) of f(i) = min_{j ≤ J(i)} max(f(j), x[i−1] − x[j]), f(0) = 0.  O(n log n)."""
    if _short_lag(J) if scalar is None else scalar:
        return _min_max_value_scalar(x, J)
    n = x.size
    f = np.full(n + 1, np.inf)
    f[0] = 0.0
    stair = _Stair(n + 1, x)
    for a, b in _blocks(J, dense=True):
        ji = J[a : b + 1]
        xi = x[a - 1 : b]
        ja = int(ji[0])
        best = np.full(ji.size, np.inf)
        if ja >= 0:
            stair.extend(f, ja)
        if stair.size:
            s = stair.size
            pos = np.searchsorted(stair.key[:s], xi, side="left")
            for d in (-2, -1, 0, 1):
                c = np.clip(pos + d, 0, s - 1)
                v = np.maximum(stair.val[c], xi - x[stair.idx[c]])
                best = np.minimum(best, v)
        jb = int(ji[-1])
        if jb > ja:
            cols = np.arange(max(ja, -1) + 1, jb + 1)
            mat = np.maximum(f[cols][None, :], xi[:, None] - x[cols][None, :])
            mat[cols[None, :] > ji[:, None]] = np.inf
            best = np.minimum(best, mat.min(axis=1))
        best[ji < 0] = np.inf
        f[a : b + 1] = best
    return float(f[n])


def _first_starts(x: np.ndarray, lam: float) -> np.ndarray:
    """L[i]: the first j with x[i−1] − x[j] ≤ lam (L[0] = 0).  Nondecreasing."""
    out = np.empty(x.size + 1, dtype=np.int64)
    out[0] = 0
    out[1:] = _count_le_diff(x, np.arange(x.size), lam, ge=False)
    return out


def _window_min_sum(
    x: np.ndarray, J: np.ndarray, lam: float, scalar: bool | None = None
) -> np.ndarray:
    """Min sum-of-error over non-overlapping partitions whose groups have range ≤ ``lam``.

    f(i) = x[i−1] + min_{L(i) ≤ j ≤ J(i)} (f(j) − x[j]), L(i) the first j with
    x[i−1] − x[j] ≤ lam (nondecreasing).  The minimum over [L(i), J(a)] is the first stair
    record at index ≥ L(i); (J(a), J(i)] is scanned densely.  O(n log n).
    """
    n = x.size
    lo_start = _first_starts(x, lam)
    if _short_lag(J) if scalar is None else scalar:
        return _window_min_sum_scalar(x, J, lo_start)
    f = np.full(n + 1, np.inf)
    f[0] = 0.0
    h = np.full(n + 1, np.inf)  # h[j] = f[j] − x[j]
    h[0] = -x[0]
    choice = np.full(n + 1, -1, dtype=np.int64)
    stair = _Stair(n + 1, x)
    for a, b in _blocks(J, dense=True):
        ji = J[a : b + 1]
        li = lo_start[a : b + 1]
        ja = int(ji[0])
        best = np.full(ji.size, np.inf)
        arg = np.full(ji.size, -1, dtype=np.int64)
        if ja >= 0:
            stair.extend(h, ja)
        if stair.size:
            s = stair.size
            q = np.searchsorted(stair.idx[:s], li, side="left")
            ok = (q < s) & (li <= ja)
            qc = np.minimum(q, s - 1)
            best = np.where(ok, stair.val[qc], np.inf)
            arg = np.where(ok, stair.idx[qc], -1)
        jb = int(ji[-1])
        if jb > ja:
            cols = np.arange(max(ja, -1) + 1, jb + 1)
            mat = np.broadcast_to(h[cols][None, :], (ji.size, cols.size)).copy()
            mat[(cols[None, :] > ji[:, None]) | (cols[None, :] < li[:, None])] = np.inf
            last = cols.size - 1 - np.argmin(mat[:, ::-1], axis=1)  # latest argmin
            dv = mat[np.arange(ji.size), last]
            take = dv <= best
            best = np.where(take, dv, best)
            arg = np.where(take & np.isfinite(dv), cols[last], arg)
        bad = (ji < 0) | (li > ji) | ~np.isfinite(best)
        fb = np.where(bad, np.inf, x[a - 1 : b] + best)
        f[a : b + 1] = fb
        choice[a : b + 1] = np.where(bad, -1, arg)
        top = min(b, n - 1)
        if top >= a:
            h[a : top + 1] = f[a : top + 1] - x[a : top + 1]
    return choice


# ------------------------------------------------------------------------------ scalar paths
# When the lag i − J(i) is short (k small, e ≈ 0), numpy blocks hold only a few prefixes and
# per-call overhead dominates; these plain loops over Python lists (about 1 µs per prefix for
# min-sum, a few µs for min-max) take over.  Same recurrences, same tie-breaking.


def _min_sum_scalar(x: np.ndarray, J: np.ndarray) -> np.ndarray:
    n = x.size
    xs, jl = x.tolist(), J.tolist()
    pm, pa = [0.0] * n, [0] * n
    cur, cur_arg = -xs[0], 0
    pm[0] = cur
    choice = [-1] * (n + 1)
    inf = float("inf")
    for i in range(1, n + 1):
        j = jl[i]
        if j >= 0:
            fi = xs[i - 1] + pm[j]
            choice[i] = pa[j]
        else:
            fi = inf
        if i < n:
            h = fi - xs[i]
            if h <= cur:
                cur, cur_arg = h, i
            pm[i], pa[i] = cur, cur_arg
    return np.asarray(choice, dtype=np.int64)


def _min_max_value_scalar(x: np.ndarray, J: np.ndarray) -> float:
    n = x.size
    xs, jl = x.tolist(), J.tolist()
    inf = float("inf")
    f = [inf] * (n + 1)
    f[0] = 0.0
    s_val: list[float] = []  # stair of f over [0..end]: strictly increasing values
    s_key: list[float] = []  # val + x[idx]
    s_x: list[float] = []
    end = -1
    for i in range(1, n + 1):
        j = jl[i]
        if j < 0:
            continue
        while end < j:
            end += 1
            v = f[end]
            if v == inf:
                continue
            while s_val and s_val[-1] >= v:
                s_val.pop()
                s_key.pop()
                s_x.pop()
            s_val.append(v)
            s_key.append(v + xs[end])
            s_x.append(xs[end])
        if not s_val:
            continue
        xi = xs[i - 1]
        pos = bisect_left(s_key, xi)
        best = inf
        for c in range(max(pos - 2, 0), min(pos + 2, len(s_val))):
            v = s_val[c]
            d = xi - s_x[c]
            if d > v:
                v = d
            if v < best:
                best = v
        f[i] = best
    return f[n]


def _window_min_sum_scalar(x: np.ndarray, J: np.ndarray, lo_start: np.ndarray) -> np.ndarray:
    n = x.size
    xs, jl, ll = x.tolist(), J.tolist(), lo_start.tolist()
    inf = float("inf")
    h = [inf] * (n + 1)
    h[0] = -xs[0]
    s_val: list[float] = []
    s_idx: list[int] = []
    end = -1
    choice = [-1] * (n + 1)
    for i in range(1, n + 1):
        j = jl[i]
        lo = ll[i]
        fi = inf
        if j >= 0 and lo <= j:
            while end < j:
                end += 1
                v = h[end]
                if v == inf:
                    continue
                while s_val and s_val[-1] >= v:
                    s_val.pop()
                    s_idx.pop()
                s_val.append(v)
                s_idx.append(end)
            q = bisect_left(s_idx, lo)
            if q < len(s_idx):
                fi = xs[i - 1] + s_val[q]
                choice[i] = s_idx[q]
        if i < n:
            h[i] = fi - xs[i]
    return np.asarray(choice, dtype=np.int64)


def _short_lag(J: np.ndarray) -> bool:
    """Whether the typical block (lag i − J(i)) is too short for numpy to pay off."""
    i = np.arange(J.size)
    ok = J >= 0
    if not ok.any():
        return False
    return float(np.median(i[ok] - J[ok])) < _SCALAR_LAG


# ------------------------------------------------------------------------------ random, swap


def _random_scan(x: np.ndarray, k: int, e: float, seed: Any) -> np.ndarray:
    """The seed's random partitioner: scan, close a group at k distinct values and range ≥ e.

    Returns group ids per input position; the unfinished tail joins the last group.  O(n)
    (a Python loop: about 0.5 s per 10^6 rows).
    """
    n = x.size
    order = np.arange(n) if seed is None else np.random.default_rng(seed).permutation(n)
    thr = _e_eff(e)
    groups = np.empty(n, dtype=np.int64)
    ids = np.empty(n, dtype=np.int64)
    g, start = 0, 0
    seen: set[float] = set()
    lo, hi = np.inf, -np.inf
    vals = x[order].tolist()
    for t, v in enumerate(vals):
        seen.add(v)
        if v < lo:
            lo = v
        if v > hi:
            hi = v
        if len(seen) >= k and hi - lo >= thr:
            ids[start : t + 1] = g
            g += 1
            start = t + 1
            seen = set()
            lo, hi = np.inf, -np.inf
    if start < n:
        ids[start:] = g - 1
    groups[order] = ids
    return groups


def _swap_windows(x: np.ndarray, k: int, e: float) -> np.ndarray:
    """l(p): the least l with sorted positions [p − l, p + l] (clipped) (k, e)-feasible."""
    n = x.size
    r = _dense_ranks(x)
    thr = _e_eff(e)
    p = np.arange(n)

    def ok(l_: np.ndarray) -> np.ndarray:
        lo = np.maximum(p - l_, 0)
        hi = np.minimum(p + l_, n - 1)
        return (r[hi] - r[lo] + 1 >= k) & (x[hi] - x[lo] >= thr)

    lo_l = np.zeros(n, dtype=np.int64)
    hi_l = np.full(n, n, dtype=np.int64)  # l = n always covers everything (feasible)
    while True:
        open_ = lo_l < hi_l
        if not open_.any():
            break
        mid = (lo_l + hi_l) // 2
        good = ok(mid)
        hi_l = np.where(open_ & good, mid, hi_l)
        lo_l = np.where(open_ & ~good, mid + 1, lo_l)
    return hi_l


def _rank_swap(x: np.ndarray, k: int, e: float, seed: Any) -> dict[str, Any]:
    """Rank swapping (seed L1866–1882): returns swapped values and published intervals."""
    n = x.size
    order = np.argsort(x, kind="stable")
    xs = x[order]
    win = _swap_windows(xs, k, e)
    rng = np.random.default_rng(seed)
    partner = np.arange(n)
    swapped = np.zeros(n, dtype=bool)
    draws = rng.random((n, 4)).tolist()
    wl = win.tolist()
    for pos in range(n):
        if swapped[pos]:
            continue
        w = min(wl[pos], n - 1 - pos)
        if w <= 0:
            continue
        q = -1
        for u in draws[pos]:
            cand = pos + 1 + int(u * w)
            if not swapped[cand]:
                q = cand
                break
        if q < 0:
            free = np.flatnonzero(~swapped[pos + 1 : pos + w + 1])
            if free.size == 0:
                continue
            q = pos + 1 + int(free[int(draws[pos][0] * free.size)])
        partner[pos], partner[q] = q, pos
        swapped[pos] = swapped[q] = True
    # released value of the row at sorted position p is xs[partner[p]]
    released_sorted = xs[partner]
    window = int(win.max())
    # published interval: ±window ranks around every position holding the released value
    first = np.searchsorted(xs, released_sorted, side="left")
    last = np.searchsorted(xs, released_sorted, side="right") - 1
    lo_s = xs[np.maximum(first - window, 0)]
    hi_s = xs[np.minimum(last + window, n - 1)]
    out_val = np.empty(n)
    out_lo = np.empty(n)
    out_hi = np.empty(n)
    out_val[order] = released_sorted
    out_lo[order] = lo_s
    out_hi[order] = hi_s
    return {
        "swapped": out_val,
        "lo": out_lo,
        "hi": out_hi,
        "window": window,
        "swapped_rows": int(swapped.sum()),
    }


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
    its errata fixed) and the comparators of L1866–1882; see the module docstring for the
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
