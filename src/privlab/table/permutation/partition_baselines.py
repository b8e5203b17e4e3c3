"""Baseline (k, e)-anonymizers the seed compares against (seed 001 §2.6, L1866–1882).

``random``
    :func:`_random_scan` — the seed's scan: rows in input order (or a seeded shuffle of it);
    a group closes as soon as it has k distinct values and range ≥ e; the unfinished tail
    joins the last closed group (the seed leaves this case open).  O(n), a Python loop.
``swap``
    :func:`_rank_swap` — rank-based swapping [Moore 1996] as the seed uses it: each row gets
    a window of ±l ranks, l the least that makes the window (k, e)-anonymous
    (:func:`_swap_windows`, a vectorized binary search, O(n log n)); rows are swapped with a
    random unswapped partner within their window (O(n) Python loop after an O(n log n)
    sort).  The published interval of each row is privlab's conservative reading of the
    seed's qualitative description (L1968–1976); see
    :class:`~privlab.table.permutation.partition.Partition`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.table.permutation._ke_feasibility import _dense_ranks, _e_eff


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
