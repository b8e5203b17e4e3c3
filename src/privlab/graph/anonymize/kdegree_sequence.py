"""k-anonymous degree sequences: the Liu–Terzi dynamic program, realizability tests, noise.

Part 1 of k-degree anonymization (seed 000 §2.11, thesis Ch. 9 L6250–7100, after Liu &
Terzi, "Towards identity anonymization on graphs", SIGMOD 2008); the graph construction
(ConstructGraph, SuperGraph, GreedySwap) and the end-to-end algorithms are in
:mod:`privlab.graph.anonymize.kdegree`.

* :func:`anonymize_degree_sequence` — the optimal k-anonymous sequence.
  ``allow_decrease=False`` is DegreeAnonymization (§9.4, Problem 9.2: degrees only grow,
  group cost I(d[i,j]) = Σ_{ℓ=i..j} (d(i) − d(ℓ)) — the thesis prints the lower index as
  "ℓ=j", a typo); ``allow_decrease=True`` is OptimalDegreeAnon (§9.5.5: group cost
  Σ |d* − d(ℓ)| with d* the group median [Lee95]).  Both run the O(nk) recurrence of §9.4.1
  (Claim 9.3: a group of ≥ 2k nodes splits at no cost, so only groups of k..2k−1 nodes are
  tried):  DA(d[1,i]) = min_{max(k, i−2k+1) ≤ t ≤ i−k} DA(d[1,t]) + I(d[t+1,i])  for i ≥ 2k
  and DA(d[1,i]) = I(d[1,i]) for k ≤ i < 2k (eq 9.4/9.6; the printed eq 9.5/9.6 put the
  closing parenthesis after I, i.e. "DA(d[1,t] + I(...))" — read DA(d[1,t]) + I(...)).
* **Order.**  The DP needs the sequence in *descending* order (Claim 9.2 and the recurrence
  assume d(i) is the group maximum); the thesis's §7.3.2 calls degree sequences "monotonic
  increasing" but lists them descending.  Equal degrees are ordered by node id
  (``tie_order``), because the pairing of degrees with nodes decides which node gets which
  target degree — thesis L6786–6828, Fig. 9.2.
* **Parity** (erratum, §2.11 "Parity pitfall").  The printed DP ignores that a degree
  sequence needs an even sum: on Fig. 9.2's d = [3,3,3,2,2,1], k = 2 its optimum is
  [3,3,3,2,2,2] (cost 1, sum 15) which no graph has, while the thesis quotes [3,3,3,3,2,2]
  (cost 2).  With ``even_sum=True`` (the default) the DP carries the parity of the prefix sum
  as a second state and returns the optimum *among even-sum sequences*: exact, still O(nk).
  It is enough to let each group take its base value (its maximum, or its median) or, when
  the group has an odd size, the nearest value of the other parity (max + 1, or median ± 1):
  a larger move of the same parity only costs more (proof in docs/graph/kdegree.md).
  ``even_sum=False`` reproduces the printed DP.
* Complexity: O(n log n) to sort, then O(nk) arithmetic in O(n/k) numpy steps (all i of a
  block of k consecutive prefix lengths depend only on shorter prefixes); group costs are
  O(1) from prefix sums — the median of a window of a sorted sequence is its middle element.
  :class:`_DPState` lets the probing loop recompute only the suffix after the first changed
  position.

Also here: :func:`is_graphical` (Erdős–Gallai, Thm 9.5, vectorized O(n log n)),
:func:`supergraph_condition` (Theorem 9.6, the necessary test for "realizable subject to G",
O(n + m)), :func:`is_k_anonymous_sequence`, and :func:`add_random_noise`, the four probing
schemes of §9.5.3 / §9.7.2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np

from privlab.dp.noise import secure_generator
from privlab.errors import ConfigError, InputError
from privlab.validate import check_choice

TIE_ORDERS = ("ascending", "descending", "random")
PROBING_SCHEMES = (1, 2, 3, 4)
_INF = np.int64(1) << np.int64(60)


# ============================================================================ validation
def check_k(k: Any, n: int) -> int:
    """k as an int with 1 ≤ k ≤ n, else ConfigError naming the fix."""
    if isinstance(k, bool) or not isinstance(k, Integral):
        raise ConfigError(f"k = {k!r}: give the anonymity parameter as an integer ≥ 1")
    k = int(k)
    if k < 1:
        raise ConfigError(f"k = {k}: k-degree anonymity needs k ≥ 1 (k = 1 changes nothing)")
    if k > n:
        raise ConfigError(
            f"k = {k} exceeds the number of nodes n = {n}: no degree can be shared by {k} "
            f"nodes; choose k ≤ {n}"
        )
    return k


def _as_degrees(degrees: Any, name: str = "degrees") -> np.ndarray:
    d = np.asarray(degrees)
    if d.ndim != 1:
        raise InputError(f"{name}: give a one-dimensional sequence of degrees (got {d.shape})")
    if d.size and not np.issubdtype(d.dtype, np.integer):
        whole = np.isfinite(d) & (d == np.round(d))
        if not whole.all():
            bad = int(np.argmin(whole))
            raise InputError(f"{name}[{bad}] = {d[bad]!r}: degrees must be whole numbers")
    d = d.astype(np.int64)
    n = d.size
    bad = np.flatnonzero((d < 0) | (d > max(n - 1, 0)))
    if bad.size:
        i = int(bad[0])
        raise InputError(
            f"{name}[{i}] = {int(d[i])}: a simple graph on {n} nodes has degrees in "
            f"0..{max(n - 1, 0)}"
        )
    return d


# ============================================================================ sequences
def is_k_anonymous_sequence(values: Any, k: int) -> bool:
    """Def 9.1: every value that occurs occurs at least k times.  O(n + max)."""
    v = np.asarray(values, dtype=np.int64)
    if v.size == 0:
        return True
    counts = np.bincount(v - v.min())
    return bool(counts[counts > 0].min() >= k)


def degree_order(values: np.ndarray, tie_order: str = "ascending", secondary=None) -> np.ndarray:
    """Nodes by descending value, ties by node id (``ascending``/``descending``) or by
    ``secondary`` (a random key, for ``tie_order="random"``).  O(n log n)."""
    ids = np.arange(values.size)
    if tie_order == "descending":
        key = -ids
    elif tie_order == "random":
        key = ids if secondary is None else secondary
    else:
        key = ids
    return np.lexsort((key, -values))


@dataclass(frozen=True)
class KAnonymousSequence:
    """The optimal k-anonymous degree sequence and how it was obtained.

    ``target[v]`` is node v's anonymized degree; ``cost`` = L1(target, degrees).
    ``order`` lists the nodes in the descending order the DP used (ties per
    ``tie_order``); ``sorted_target`` = target[order].
    """

    target: np.ndarray
    degrees: np.ndarray
    k: int
    cost: int
    method: str
    even_sum: bool
    tie_order: str
    order: np.ndarray = field(repr=False)
    n_groups: int = 0

    @property
    def sorted_target(self) -> np.ndarray:
        return self.target[self.order]

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "k": self.k,
            "n_nodes": int(self.target.size),
            "cost": self.cost,
            "even_sum": self.even_sum,
            "target_sum": int(self.target.sum()),
            "n_groups": self.n_groups,
            "tie_order": self.tie_order,
            "target": self.target.tolist(),
        }


def anonymize_degree_sequence(
    degrees: Any,
    k: int,
    *,
    allow_decrease: bool = False,
    even_sum: bool = True,
    tie_order: str = "ascending",
    seed: Any = None,
) -> KAnonymousSequence:
    """The optimal k-anonymous degree sequence (DegreeAnonymization / OptimalDegreeAnon).

    Seed 000 §2.11 (thesis §9.4, §9.4.1, §9.5.5; Liu & Terzi 2008).  ``degrees[v]`` is node
    v's degree, in any order; values must lie in 0..n−1.  Returns target degrees minimizing
    L1(target, degrees) subject to: every target value is shared by ≥ k nodes; target ≥
    degrees (``allow_decrease=False``) or any values in 0..n−1 (``allow_decrease=True``);
    an even sum (``even_sum=True``, the erratum fix — see the module docstring).  Ties among
    equal degrees go by node id (``tie_order``: ``ascending`` as in the thesis's first
    listing of Fig. 9.2, ``descending``, or ``random`` drawn from ``seed``).
    O(n log n + nk).
    """
    d = _as_degrees(degrees)
    n = d.size
    k = check_k(k, n)
    check_choice(tie_order, "tie_order", TIE_ORDERS)
    secondary = secure_generator(seed).permutation(n) if tie_order == "random" else None
    order = degree_order(d, tie_order, secondary)
    target_sorted, cost, groups, _ = dp_sorted(d[order], k, allow_decrease, even_sum, n - 1)
    target = np.empty(n, dtype=np.int64)
    target[order] = target_sorted
    return KAnonymousSequence(
        target=target,
        degrees=d,
        k=k,
        cost=cost,
        method="OptimalDegreeAnon" if allow_decrease else "DegreeAnonymization",
        even_sum=bool(even_sum),
        tie_order=tie_order,
        order=order,
        n_groups=groups,
    )


# ============================================================================ the DP
@dataclass
class _DPState:
    """The DP tables of one run, reusable when only a suffix of the sequence changes."""

    d: np.ndarray
    k: int
    median: bool
    even: bool
    cap: int
    da: np.ndarray  # (2, n+1): best cost of prefix length i with prefix-sum parity p
    arg_t: np.ndarray  # (2, n+1): start t of the last group
    arg_o: np.ndarray  # (2, n+1): 0 = base value, 1 = base + 1, 2 = base − 1


def _runs(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each position: start and (exclusive) end of its run of equal values."""
    n = d.size
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    new = np.ones(n, dtype=bool)
    new[1:] = d[1:] != d[:-1]
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], n)
    run = np.cumsum(new) - 1
    return starts[run], ends[run]


def dp_sorted(
    d: np.ndarray,
    k: int,
    median: bool,
    even: bool,
    cap: int,
    state: _DPState | None = None,
) -> tuple[np.ndarray, int, int, _DPState]:
    """The O(nk) DP on a descending sequence ``d``.  Returns (target, cost, groups, state).

    ``state`` from a previous call on a sequence of the same length and settings is reused
    from the first position where the sequences differ (probing changes one entry).
    """
    d = np.ascontiguousarray(d, dtype=np.int64)
    n = d.size
    if n and np.any(d[1:] > d[:-1]):
        raise ValueError("dp_sorted needs a descending sequence")
    if k == 1:  # every node its own group; fix the parity with one unit if needed
        target = d.copy()
        if even and n and int(target.sum()) & 1:
            below = np.flatnonzero(target < cap)
            if below.size:  # additions: +1 on the lowest node that can grow
                target[below[-1]] += 1
            else:  # every degree is n−1 with an odd sum: only a decrease helps
                target[-1] -= 1
            if not median and np.any(target < d):  # pragma: no cover - n(n-1) is even
                raise ValueError("no even-sum sequence above d")
        groups = int(np.unique(target).size)
        return target, int(np.abs(target - d).sum()), groups, None  # type: ignore[return-value]

    prefix = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(d, out=prefix[1:])
    start = k
    same = (
        state is not None
        and state.d.size == n
        and (state.k, state.median, state.even, state.cap) == (k, median, even, cap)
    )
    if same:
        diff = np.flatnonzero(state.d != d)
        first = int(diff[0]) if diff.size else n
        start = max(k, first + 1)
        da, arg_t, arg_o = state.da, state.arg_t, state.arg_o
        da[:, start:] = _INF
    else:
        da = np.full((2, n + 1), _INF, dtype=np.int64)
        da[0, 0] = 0
        arg_t = np.full((2, n + 1), -1, dtype=np.int64)
        arg_o = np.zeros((2, n + 1), dtype=np.int8)
    runs = _runs(d) if median else None
    npar = 2 if even else 1
    flat = da.reshape(-1)  # a view: flat[p·(n+1) + t] = da[p, t]
    # group costs depend on d only: computed for a chunk of blocks at once, then the
    # sequential part per block is a gather, an add and an argmin per parity
    chunk = k * max(1, (1 << 16) // (k * k))
    for c0 in range(start, n + 1, chunk):
        rows = np.arange(c0, min(c0 + chunk, n + 1))
        t_all, c_all, q_all, o_all = _group_costs(d, prefix, runs, rows, k, median, even, cap)
        # gather index into flat for each parity p of the prefix: da[p ^ q, t]
        idx = np.stack([q_all * (n + 1) + t_all, (q_all ^ 1) * (n + 1) + t_all])[:npar]
        for b in range(0, rows.size, k):
            sl = slice(b, min(b + k, rows.size))
            i = rows[sl]
            total = flat[idx[:, sl]] + c_all[sl]  # (parities, rows, candidates)
            col = total.argmin(axis=2)
            r = np.arange(i.size)
            da[:npar, i] = np.minimum(total.min(axis=2), _INF)
            arg_t[:npar, i] = t_all[sl][r, col]
            arg_o[:npar, i] = o_all[sl][r, col]

    new_state = _DPState(d.copy(), k, median, even, cap, da, arg_t, arg_o)
    if n and da[0, n] >= _INF:  # pragma: no cover - n ≥ k always has a solution
        raise ValueError("no k-anonymous sequence")
    target = np.empty(n, dtype=np.int64)
    pos, p, groups = n, 0, 0
    while pos > 0:
        t0, o = int(arg_t[p, pos]), int(arg_o[p, pos])
        size = pos - t0
        value = int(d[t0 + (size - 1) // 2]) if median else int(d[t0])  # median / maximum
        value += 1 if o == 1 else -1 if o == 2 else 0
        target[t0:pos] = value
        if even:
            p ^= (size * value) & 1
        pos, groups = t0, groups + 1
    return target, int(da[0, n]) if n else 0, groups, new_state


def _group_costs(d, prefix, runs, rows, k, median, even, cap):
    """For each prefix length i in ``rows`` and each candidate last group [t, i) (k ≤ i−t ≤
    2k−1, t = 0 or t ≥ k) and value option: start t, cost, parity of the group's degree sum
    and option code (0 base, 1 base + 1, 2 base − 1).  Invalid cells cost _INF.  O(|rows|·k).
    """
    n = d.size
    ii = rows[:, None]
    t = ii - k - np.arange(k)[None, :]  # t = i−k … i−2k+1
    valid = (t == 0) | (t >= k)
    t = np.where(valid, t, 0)
    s = ii - t
    seg = prefix[ii] - prefix[t]
    if median:
        mpos = t + (s - 1) // 2
        base = d[mpos]
        upper = prefix[mpos] - prefix[t]
        c0 = upper - (mpos - t) * base + (ii - mpos) * base - (seg - upper)
    else:
        base = d[np.minimum(t, n - 1)]
        c0 = s * base - seg
    q0 = (s * base) & 1 if even else np.zeros_like(s)
    costs, pars, opts = [np.where(valid, c0, _INF)], [q0], [np.zeros_like(s)]
    if even:
        odd = valid & ((s & 1) == 1)
        if median:
            run_start, run_end = runs
            gt = np.maximum(0, run_start[mpos] - t)  # members above the median
            lt = np.maximum(0, ii - run_end[mpos])  # members below it
            costs.append(np.where(odd & (base + 1 <= cap), c0 + s - 2 * gt, _INF))
            costs.append(np.where(odd & (base - 1 >= 0), c0 + s - 2 * lt, _INF))
            pars += [q0 ^ 1, q0 ^ 1]
            opts += [np.ones_like(s), np.full_like(s, 2)]
        else:
            costs.append(np.where(odd & (base + 1 <= cap), c0 + s, _INF))
            pars.append(q0 ^ 1)
            opts.append(np.ones_like(s))
    w = len(costs)
    return (
        np.tile(t, w),
        np.concatenate(costs, axis=1),
        np.concatenate(pars, axis=1),
        np.concatenate(opts, axis=1).astype(np.int8),
    )


# ============================================================================ realizability
def is_graphical(degrees: Any) -> bool:
    """Erdős–Gallai (Thm 9.5): some simple graph has exactly these degrees.

    Even sum, 0 ≤ d ≤ n−1, and for every ℓ: Σ_{i≤ℓ} d(i) ≤ ℓ(ℓ−1) + Σ_{i>ℓ} min(ℓ, d(i))
    on the descending sequence.  The right-hand side is evaluated for all ℓ at once from
    prefix sums (the d(i) ≥ ℓ form a prefix).  O(n log n).
    """
    d = np.sort(np.asarray(degrees, dtype=np.int64))[::-1]
    n = d.size
    if n == 0:
        return True
    if d[-1] < 0 or d[0] > n - 1 or int(d.sum()) & 1:
        return False
    prefix = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(d, out=prefix[1:])
    ell = np.arange(1, n + 1, dtype=np.int64)
    ge = n - np.searchsorted(d[::-1], ell, side="left")  # #{i : d(i) ≥ ℓ}
    cut = np.maximum(ell, ge)
    rhs = ell * (ell - 1) + ell * np.maximum(0, ge - ell) + (prefix[n] - prefix[cut])
    return bool(np.all(prefix[1:] <= rhs))


def supergraph_condition(graph: Any, target: Any) -> bool:
    """Theorem 9.6 (Liu & Terzi): the necessary test for "realizable subject to G".

    With a = target − d (d the degrees of ``graph``), V_ℓ the ℓ nodes of largest a, and
    d_ℓ(i) the number of G-edges from i into V_ℓ: Σa even and, for 1 ≤ ℓ ≤ n−1,
    Σ_{V_ℓ} a(i) ≤ Σ_{V_ℓ} (ℓ − 1 − d_ℓ(i)) + Σ_{V∖V_ℓ} min(ℓ − d_ℓ(i), a(i))   (eq 9.8).
    Necessary for *any* ℓ-set (each side counts the new edges inside V_ℓ and leaving it), so
    the tie order does not matter.  Only nodes with a > 0 enter the outer sum, and for
    ℓ ≥ #{a > 0} the right side only grows, so ℓ runs to #{a > 0}; the outer sum is kept
    incrementally (T(i) = a(i) + d_ℓ(i), excess Σ max(0, T − ℓ)).  O(n + m).
    Returns False also when a < 0 somewhere or the sum is odd.
    """
    return _supergraph_condition(graph.degrees().astype(np.int64), graph.edges(), target)


def _supergraph_condition(degrees: np.ndarray, e: np.ndarray, target: Any) -> bool:
    """:func:`supergraph_condition` on a graph's degrees and (m × 2) edge array."""
    a = np.asarray(target, dtype=np.int64) - degrees
    n = a.size
    if np.any(a < 0) or int(a.sum()) & 1:
        return False
    if np.any(np.asarray(target) > n - 1):
        return False
    order = np.lexsort((np.arange(n), -a))
    p = int(np.count_nonzero(a > 0))
    if p == 0:
        return True
    pos_nodes = order[:p]
    rank = np.full(n, -1, dtype=np.int64)
    rank[pos_nodes] = np.arange(p)
    # G restricted to the positive nodes, by rank; each edge filed under its lower rank
    ru, rv = rank[e[:, 0]], rank[e[:, 1]]
    keep = (ru >= 0) & (rv >= 0)
    lo, hi = np.minimum(ru[keep], rv[keep]), np.maximum(ru[keep], rv[keep])
    inside = np.cumsum(np.bincount(hi + 1, minlength=p + 1))  # G-edges inside V_ℓ, by ℓ
    by_lo = np.argsort(lo, kind="stable")
    hi_sorted = hi[by_lo]
    start = np.searchsorted(lo[by_lo], np.arange(p + 1)).tolist()
    av = a[pos_nodes].tolist()
    lhs = np.cumsum(a[pos_nodes]).tolist()
    total = int(a.sum())
    tval = list(av)  # T(i) = a(i) + d_ℓ(i)
    limit = int(max(av)) + p + 2
    cnt = [0] * (limit + 1)  # outside nodes by T value
    for x in tval:
        cnt[x] += 1
    # "above" = outside nodes with T > ℓ: count and sum of T
    above_c = p  # ℓ = 0: every a > 0
    above_s = sum(tval)
    inside = inside.tolist()
    for ell in range(1, min(p, n - 1) + 1):
        u = ell - 1  # node entering V_ℓ (rank u)
        tu = tval[u]
        cnt[tu] -= 1
        if tu > ell - 1:
            above_c -= 1
            above_s -= tu
        for w in hi_sorted[start[u] : start[u + 1]].tolist():  # its neighbours still outside
            tw = tval[w]
            cnt[tw] -= 1
            cnt[tw + 1] += 1
            tval[w] = tw + 1
            if tw > ell - 1:
                above_s += 1
            elif tw + 1 > ell - 1:
                above_c += 1
                above_s += tw + 1
        # threshold ℓ−1 → ℓ: nodes with T == ℓ are no longer above
        c = cnt[ell] if ell <= limit else 0
        above_c -= c
        above_s -= c * ell
        excess = above_s - ell * above_c
        rhs = ell * (ell - 1) - 2 * inside[ell] + (total - lhs[u]) - excess
        if lhs[u] > rhs:
            return False
    return True


def subgraph_condition(graph: Any, target: Any) -> bool:
    """Theorem 9.6 on the complement of ``graph``: the necessary test for a subgraph of G with
    degrees ``target`` (edge deletions only, Algorithm 9.1), without building the complement.

    With a = d − target (edges each node must lose), V_ℓ the ℓ nodes of largest a (ties by
    node id) and d_ℓ(i) the number of G-edges from i into V_ℓ, eq. 9.8 on the complement
    (whose d_ℓ is ℓ − 1 − d_ℓ(i) inside V_ℓ and ℓ − d_ℓ(i) outside) reads
    Σ_{V_ℓ} a(i) ≤ Σ_{V_ℓ} d_ℓ(i) + Σ_{V∖V_ℓ} min(d_ℓ(i), a(i)): the deletions charged to
    V_ℓ fit in the G-edges inside it and those leaving it.  Σa even, 0 ≤ target ≤ d.  The
    same answer as :func:`supergraph_condition` on the complement, ℓ by ℓ, in O(n + m log m)
    instead of O(n²): the outside sum is a difference array (each of the first a(w)
    lower-ranked G-neighbours of w adds 1 from its own rank + 1 up to w's rank).
    """
    return _subgraph_condition(graph.degrees().astype(np.int64), graph.edges(), target)


def _subgraph_condition(degrees: np.ndarray, e: np.ndarray, target: Any) -> bool:
    """:func:`subgraph_condition` on a graph's degrees and (m × 2) edge array."""
    t = np.asarray(target, dtype=np.int64)
    a = degrees - t
    n = a.size
    if np.any(a < 0) or np.any(t < 0) or int(a.sum()) & 1:
        return False
    p = int(np.count_nonzero(a > 0))
    if p == 0:
        return True
    order = np.lexsort((np.arange(n), -a))
    rank = np.full(n, -1, dtype=np.int64)
    rank[order[:p]] = np.arange(p)
    ru, rv = rank[e[:, 0]], rank[e[:, 1]]
    keep = (ru >= 0) & (rv >= 0)
    lo, hi = np.minimum(ru[keep], rv[keep]), np.maximum(ru[keep], rv[keep])
    inside = np.cumsum(np.bincount(hi + 1, minlength=p + 1))  # G-edges inside V_ℓ, by ℓ
    # the j-th lowest-ranked G-neighbour of w (rank hi) counts for ℓ in [lo + 1, hi] if j < a(w)
    srt = np.lexsort((lo, hi))
    lo, hi = lo[srt], hi[srt]
    j = np.arange(hi.size) - np.searchsorted(hi, hi)
    live = j < a[order[hi]]
    diff = np.zeros(p + 2, dtype=np.int64)
    np.add.at(diff, lo[live] + 1, 1)
    np.add.at(diff, hi[live] + 1, -1)
    outside = np.cumsum(diff)
    ell = np.arange(1, min(p, n - 1) + 1)
    lhs = np.cumsum(a[order[:p]])[ell - 1]
    return bool(np.all(lhs <= 2 * inside[ell] + outside[ell]))


# ============================================================================ probing noise
def add_random_noise(
    noisy: np.ndarray,
    order: np.ndarray,
    scheme: int,
    rng: np.random.Generator,
    max_delta: int,
) -> tuple[int, int]:
    """AddRandomNoise, probing schemes 1–4 (thesis Alg. 9.5 L6894; §9.7.2 L7290–7330).

    Raises one node's degree in ``noisy`` (in place), capped at n − 1, and returns
    (node, increase).  ``order`` is the current descending order (ties resolved).

    1. a uniformly random node, by a uniform amount in 1..max_delta (Alg. 9.5);
    2. odd degree sum: a random node by 1; even sum: a random node by an even amount
       2..max_delta (2 if max_delta < 2);
    3. the last (lowest-degree) node by 1;
    4. a random node of the second half of the sequence by 1 (the thesis's choice for all
       later algorithms).

    Only nodes below n − 1 are drawn (drawing a capped node would change nothing), so every
    call makes progress and probing ends at the complete graph at the latest.
    """
    n = noisy.size
    cap = n - 1
    below = noisy < cap
    if not below.any():
        return -1, 0
    if scheme == 3:
        cand = order[below[order]]
        node = int(cand[-1])
        delta = 1
    elif scheme == 4:
        half = order[n // 2 :]
        cand = half[below[half]]
        if cand.size == 0:
            cand = np.flatnonzero(below)
        node = int(cand[rng.integers(cand.size)])
        delta = 1
    else:
        cand = np.flatnonzero(below)
        node = int(cand[rng.integers(cand.size)])
        if scheme == 1:
            delta = int(rng.integers(1, max_delta + 1))
        elif int(noisy.sum()) & 1:
            delta = 1
        else:
            delta = 2 * int(rng.integers(1, max(1, max_delta // 2) + 1))
    new = min(cap, int(noisy[node]) + delta)
    inc = new - int(noisy[node])
    noisy[node] = new
    return node, inc


__all__ = [
    "PROBING_SCHEMES",
    "TIE_ORDERS",
    "KAnonymousSequence",
    "add_random_noise",
    "anonymize_degree_sequence",
    "degree_order",
    "is_graphical",
    "is_k_anonymous_sequence",
    "subgraph_condition",
    "supergraph_condition",
]
