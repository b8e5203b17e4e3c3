"""The exact minimum max-of-error (k, e)-anonymous partition (seed 001 §2.6.2, Algorithm 2).

:func:`exact_min_max_partition` solves Problem 2.6.1 with F = max *without* the
non-overlapping restriction of ``ke_partition(method="min-max")`` (Problem 2.6.3, within 2×
by Theorem 4).  Optimal groups may overlap: for {1, 2, 3, 5, 5, 6, 6, 8} and (4, 5) the only
optimum is {1, 2, 5, 6}, {3, 5, 6, 8} (max error 5); the best non-overlapping partition is
the single group (error 7).  It is meant for small inputs and as the test oracle of the
heuristic partitioners.

**What the seed gives, and what is built.**  Lemma 2.6.2 (L1426): some optimum has no range
contained in another and no value inside more than two ranges, so sorted by their minima
the groups form a chain in which only neighbours overlap.  The seed then defines the
generalized subproblem (Problem 2.6.2: the first group only needs k − d distinct values
and range e − r, and costs E + r) and a recurrence g(d, r, i) (L1532), and prints
Algorithm 2 (L1533–1583, five nested loops, O(n⁶), value only).  The printed recurrence
passes ``d − #`` and ``r − (x_{u+1} − x_v)`` to the subproblem while the printed loop
passes ``#`` and ``x_{max1+1} − x_{min2}``; the loop is the right one (the next group's
overlapping part G2f already holds # distinct values and reaches down to x_{min2}).  The
seed leaves # ("move as many values … to G2f as possible as long as G1 keeps k − d
distinct values") and duplicate values unspecified.  Here:

* the DP runs over the D distinct values w_0 < … < w_{D−1} with multiplicities c_j (every
  copy of a value lies in one window, so ties are exact);
* a state is (i, d, p): values w_i… are left; the group that is still open started at
  w_p (p < i; p = i when no group is open) and already holds d distinct values (capped at
  k); its cost is max(w_u − w_p, g(next)) — the group's real range, so the range test
  w_u − w_p ≥ e is made on the group itself, not on e − r;
* a transition closes the open group at w_u (u ≥ i) and either starts the next group after
  w_u (no overlap: next state (u + 1, 0, u + 1)) or at some w_v, i ≤ v ≤ u (overlap: the
  values in [w_v, w_u] are split between the two groups, next state (u + 1, #, v));
* # is computed exactly: a value with c ≥ 2 copies goes to both groups (it counts as
  distinct in each), a single copy to one of them; w_u stays with the closing group, w_v
  goes to the next, w_i to the closing group when it has no earlier part; the closing group
  keeps just enough of the free single values to reach k distinct values and the rest go to
  the next group — # is then the largest possible, which is optimal because g is
  nonincreasing in d.

Complexity: O(D²·k) states, O(D²) transitions each with # in O(1) from prefix counts —
O(D⁴·k) time (below the seed's O(n⁶)), O(D²·k) memory; ``max_distinct`` (default 300) guards
against running it on real tables.  The optimality was checked against
:func:`~privlab.table.permutation.partition.exhaustive_partition` (every set partition) in
the tests.
"""

from __future__ import annotations

import sys
import time
from functools import cache
from typing import Any

import numpy as np

from privlab.errors import ConfigError
from privlab.table.permutation._ke_feasibility import _e_eff
from privlab.table.permutation.partition import (
    Partition,
    _check_feasible,
    _check_ke,
    _check_values,
    _group_errors,
)
from privlab.validate import check_int

_INF = float("inf")


def _split(c: np.ndarray, k: int, i: int, u: int, v: int, d: int, pending: bool):
    """(G1 singles kept, #) when the group closing at w_u overlaps the next one from w_v.

    None when infeasible.  ``c`` are the multiplicities; see the module docstring.
    """
    if c[v] == 1 and (v == u or (not pending and v == i)):
        return None  # the one copy of w_v cannot also be the closing group's max or min
    a = v - i  # distinct values below w_v: all stay with the closing group
    multi = int(np.count_nonzero(c[v : u + 1] >= 2))
    f1 = 1 if (c[u] == 1 and u != v) else 0
    f2 = 1 if (c[v] == 1 and u != v) else 0
    free = int(np.count_nonzero(c[v + 1 : u] == 1)) if u > v + 1 else 0
    y = max(0, k - d - (a + multi + f1))
    if y > free:
        return None
    return y, multi + f2 + free - y


def exact_min_max_partition(values: Any, k: int, e: float, *, max_distinct: int = 300) -> Partition:
    """The (k, e)-anonymous partition of least max-of-error, overlapping groups allowed.

    Source: seed 001 §2.6.2 — Lemma 2.6.2, Problem 2.6.2 and Algorithm 2 (L1399–1583), with
    the loop's reading of the subproblem (see the module docstring for what was filled in).
    O(D⁴·k) time, O(D²·k) memory for D distinct values; refuses D > ``max_distinct``.
    Returns a :class:`Partition` (``method="exact-min-max"``, ``objective`` = the max error;
    among optima, any one).  Raises :class:`InfeasibleError` when the table itself is not
    (k, e)-anonymous, :class:`ConfigError` for bad parameters or too many distinct values.
    """
    x = _check_values(values)
    k, e = _check_ke(k, e)
    max_distinct = check_int(max_distinct, "max_distinct", 1)
    _check_feasible(x, k, e)
    t0 = time.perf_counter()
    w, inv, c = np.unique(x, return_inverse=True, return_counts=True)
    n_d = int(w.size)
    if n_d > max_distinct:
        raise ConfigError(
            f"the exact min max-of-error partition is O(D⁴·k); the sensitive column has {n_d} "
            f"distinct values, above max_distinct = {max_distinct}; use the min-max partition "
            "(within 2× of the optimum: --partition min-max, or method='min-max' from Python), "
            "or, from Python, a larger max_distinct"
        )
    thr = _e_eff(e)
    wl = w.tolist()

    @cache
    def g(i: int, d: int, p: int) -> tuple[float, tuple[Any, ...] | None]:
        if i == n_d:
            return (0.0, None) if p == i else (_INF, None)
        pending = p < i
        best: tuple[float, tuple[Any, ...] | None] = (_INF, None)
        for u in range(i, n_d):
            err = wl[u] - wl[p]
            if err >= best[0]:
                break  # errors only grow with u
            if not err >= thr:
                continue
            if d + (u - i + 1) >= k:  # no overlap: the group takes all of w_i..w_u
                cost = max(err, g(u + 1, 0, u + 1)[0])
                if cost < best[0]:
                    best = (cost, (u, None, 0))
            if u + 1 >= n_d:
                continue
            for v in range(i, u + 1):
                sp = _split(c, k, i, u, v, d, pending)
                if sp is None:
                    continue
                y, moved = sp
                cost = max(err, g(u + 1, min(moved, k), v)[0])
                if cost < best[0]:
                    best = (cost, (u, v, y))
        return best

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * n_d + 100))
    try:
        value = g(0, 0, 0)[0]
        steps = []
        i, d, p = 0, 0, 0
        while i < n_d:
            choice = g(i, d, p)[1]
            if choice is None:  # pragma: no cover - feasibility was checked above
                raise AssertionError("no exact partition found for a feasible input")
            u, v, y = choice
            steps.append((i, u, v, y, p < i))
            if v is None:
                i, d, p = u + 1, 0, u + 1
            else:
                sp = _split(c, k, i, u, v, d, p < i)
                assert sp is not None
                i, d, p = u + 1, min(sp[1], k), v
    finally:
        g.cache_clear()
        sys.setrecursionlimit(limit)
    groups = _labels(inv, c, steps)
    seconds = time.perf_counter() - t0
    n_groups = int(groups.max()) + 1
    errors = _group_errors(x, groups, n_groups)
    return Partition(
        groups=groups,
        n_groups=n_groups,
        errors=errors,
        objective=float(value),
        method="exact-min-max",
        k=k,
        e=e,
        seconds=seconds,
        extra={"distinct_values": n_d},
    )


def _labels(inv: np.ndarray, c: np.ndarray, steps: list[tuple[Any, ...]]) -> np.ndarray:
    """Group id of every input position from the DP's choices (copies of a value in order)."""
    # group of each copy of each distinct value: a list per value
    copies: list[list[int]] = [[] for _ in range(c.size)]
    gid = 0
    for i, u, v, y, _pending in steps:
        closing, nxt = gid, gid + 1
        if v is None:
            for j in range(i, u + 1):
                copies[j].extend([closing] * int(c[j]))
            gid += 1
            continue
        kept = 0
        for j in range(i, u + 1):
            cj = int(c[j])
            if j < v:
                copies[j].extend([closing] * cj)
            elif cj >= 2:
                copies[j].extend([closing] + [nxt] * (cj - 1))
            elif j == u and j != v:
                copies[j].append(closing)
            elif j == v:
                copies[j].append(nxt)
            elif kept < y:
                copies[j].append(closing)
                kept += 1
            else:
                copies[j].append(nxt)
        gid += 1
    out = np.empty(inv.size, dtype=np.int64)
    cursor = [0] * c.size
    for pos, j in enumerate(inv.tolist()):
        out[pos] = copies[j][cursor[j]]
        cursor[j] += 1
    return out


__all__ = ["exact_min_max_partition"]
