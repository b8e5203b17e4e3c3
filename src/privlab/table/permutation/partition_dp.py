"""Optimal (k, e)-anonymous partitions by dynamic programming (seed 001 §2.6).

The sorted-order partitioners behind :func:`~privlab.table.permutation.partition.ke_partition`
(the methods are described there): ``min-sum`` (§2.6.1, Problem 2.6.1, Lemma 2.6.1) —
:func:`_min_sum`; ``min-max`` over non-overlapping partitions (§2.6.2, Problem 2.6.3,
Theorem 4) — :func:`_min_max_value` for the optimum λ, then :func:`_window_min_sum` for the
least sum-of-error among partitions whose groups have range ≤ λ; ``max-group`` (L1866–1882) —
:func:`_max_group`.  Each returns, for every prefix length, the start of its last group;
:func:`_backtrack` turns that into segments [j, i) of sorted positions.

**Errata** of the printed Algorithm 1 (L1355–1390), fixed here (seed 001 §4): it initializes
``f[0] = ∞`` — so nothing is ever finite — and combines with ``temp = max(f[d−1], error)``,
which is the min-max recurrence.  Min-sum uses ``f[0] = 0`` and ``temp = f[d−1] + error``;
the ``max`` form with ``f[0] = 0`` is the non-overlapping min-max DP.

**Speed** (the printed DP is O(n²) time and space, Theorem 3).  With x sorted and r its dense
ranks, a segment x[j..i−1] is feasible iff r[i−1] − r[j] + 1 ≥ k and x[i−1] − x[j] ≥ e; both
are monotone in j, so the feasible starts of the prefix of length i are exactly j ≤ J(i), and
J is nondecreasing in i (one ``searchsorted`` each, :func:`last_starts`).  Then

* min-sum: f(i) = x[i−1] + min_{j ≤ J(i)} (f(j) − x[j]) — a running prefix minimum;
* max-group: g(i) = 1 + max_{j ≤ J(i)} g(j); g is nondecreasing on feasible prefixes, so
  g(i) = 1 + g(J(i)) (or 1 with j = 0 when the prefix J(i) is infeasible) — a pointer chase;
* min-max: f(i) = min_{j ≤ J(i)} max(f(j), x[i−1] − x[j]).  f is *not* monotone (k = 2,
  x = 0, 10, 10.5, 20: f(3) = 10.5 > f(4) = 10), so the crossing cannot be found on f
  directly.  But for any A and any nonincreasing B, min_{j ≤ D} max(A(j), B(j)) =
  min_{j ≤ D} max(SA(j), B(j)) with SA(j) = min A[j..D]: "≥" since SA ≤ A; "≤" since
  SA(j) = A(j') for some j' ≥ j and B(j') ≤ B(j).  SA is a step function, constant up to each
  suffix-minimum record of A, so only the records ("stair", :class:`_Stair`: A strictly
  increasing, B nonincreasing) need to be looked at, and there max(A, B) is
  unimodal; the crossing A(j) + x[j] ≥ x[i−1] is a binary search.

The recurrences depend on earlier values, but only on f(j) with j ≤ J(i) < i: all prefixes i
in a block [a, b] with J(b) < a are computed at once with numpy (O(n / lag) Python steps,
lag = i − J(i) ≥ k − 1; :func:`_blocks`).  The stair covers j ≤ J(a); starts in (J(a), J(i)]
are scanned densely, with blocks cut so that rows × columns stays below ``_DENSE_BUDGET``.
When the typical lag is below ``_SCALAR_LAG`` (:func:`_short_lag`) plain loops over Python
lists take over (the ``*_scalar`` kernels: same recurrences, same tie-breaking).

Complexity: time O(n log n) (one binary search per prefix; plus the caller's sort), memory
O(n); :func:`_min_sum` and :func:`_max_group` are O(n) given J.
"""

from __future__ import annotations

from bisect import bisect_left

import numpy as np

from privlab.table.permutation._ke_feasibility import _dense_ranks, _e_eff

_DENSE_BUDGET = 1 << 15
_SCALAR_LAG = 32  # below this median lag the plain-loop paths are faster


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


__all__ = ["last_starts"]
