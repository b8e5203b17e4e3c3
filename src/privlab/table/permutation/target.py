"""Target-distribution privacy: generalize and permute an SA so it *looks like* a target P.

Seed 001 §2.2 (dissertation Ch. 3, L2217–3320).  The owner gives a partition of the table and,
per group, a target distribution P over the numeric sensitive domain, encoded as a
*privacy-annotated hierarchy* (:class:`SAHierarchy`): nodes are contiguous subdomains, children
partition their parent, leaves are single values, and the integer edge weights of siblings
are in the ratio of their target probabilities (L2580–2590).  Each tuple's value is
generalized to a node containing it so that the published multiset G of subdomains is
*P-private* (Def 3.3.1: P(x=t) = (1/n) Σᵢ P(x=t | x∈Dᵢ) for every t) and the sum of ranges is
minimal (Problem 3.4.1, solved by :func:`min_sum_of_range`, Algorithm 3).  Fake values may
be added to a group to reduce generalization (Problem 3.5.1, :func:`min_sor_fake`,
Algorithm 4), and the target may be relaxed per node by a shift factor
(:func:`shifted_hierarchy`, §3.6).  :func:`target_release` publishes the result as a
:class:`~privlab.table.permutation.release.PermutationRelease` whose SA table holds one
``[lo, hi]`` row per published subdomain (fake values included).

Errata of the dissertation fixed here (see ``docs/models/target-distribution.md``):

* Algorithm 4's root multiplier is ``|g| + k − u − v − r`` (printed ``|g| − u − v − r``,
  L3108) and its right-child call is ``minSORFake(g_D2, k − x, r₂)`` with
  ``r₂ = |g_D2| + (k − x) − v`` (printed with ``x`` and ``|g_D1|``, L3103–3111).
* §3.6 uses the per-node conditional fraction ``p = |g_D1| / (|g_D1| + |g_D2|)`` (the text's
  ``|g_D1| / |S|`` contradicts its own experiments, L3727–3735).
* The worked example's target is uniform on {30K, 40K, 50K, 60K} (L2329 prints 50K twice).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce
from typing import Any

import numpy as np
import polars as pl

from privlab.dp.noise import is_insecure_seed
from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.io.delimited import bad_rows
from privlab.table.permutation.release import (
    PermutationRelease,
    as_polars,
    check_roles,
    dense_group_ids,
    numeric_sensitive,
    publish,
)

Subdomain = tuple[float, float]
MODES = ("sa-only", "qi-sa")
SPLITS = ("equal-width", "equal-frequency")
GROUP_TARGETS = ("source", "uniform")
GROUP_DOMAINS = ("values", "range", "table")

__all__ = [
    "MODES",
    "SPLITS",
    "FakeResult",
    "SAHierarchy",
    "contiguous_bands",
    "has_bijection",
    "is_p_private",
    "max_m_bound_allocation",
    "min_sor_fake",
    "min_sum_of_range",
    "shifted_hierarchy",
    "sum_of_range",
    "target_release",
    "target_release_by_groups",
]


# ---------------------------------------------------------------------------- hierarchy


def _to_fraction(x: Any, name: str, max_denominator: int | None) -> Fraction:
    if isinstance(x, bool):
        raise ConfigError(f"{name}: a number expected, got {x!r}")
    if isinstance(x, (int, np.integer)):
        f = Fraction(int(x))
    elif isinstance(x, Fraction):
        f = x
    else:
        try:
            xf = float(x)
        except (TypeError, ValueError):
            raise ConfigError(f"{name}: a number expected, got {x!r}") from None
        if not math.isfinite(xf):
            raise ConfigError(f"{name}: {xf} is not a finite number")
        # decimal reading (0.1 → 1/10), not the binary expansion of the float
        f = Fraction(repr(xf))
    if max_denominator is not None and f.denominator > max_denominator:
        f = f.limit_denominator(max_denominator)
    if f < 0:
        raise ConfigError(f"{name}: weights and probabilities must be ≥ 0, got {x!r}")
    return f


def _integer_weights(fracs: Sequence[Fraction]) -> list[int]:
    """Scale a list of fractions to the smallest integers in the same ratio."""
    lcm = reduce(math.lcm, (f.denominator for f in fracs), 1)
    ints = [int(f * lcm) for f in fracs]
    g = reduce(math.gcd, ints, 0)
    return [i // g for i in ints] if g > 1 else ints


@dataclass(frozen=True, eq=False)
class SAHierarchy:
    """A privacy-annotated hierarchy over a numeric sensitive domain (seed 001 §2.2).

    Nodes are numbered in preorder (root = 0, every child after its parent).  Per node:
    ``lo``/``hi`` (the subdomain's smallest and largest domain value), ``weight`` (integer
    edge weight from its parent; the root's is 1), ``children`` and ``parent``.  ``values``
    is the sorted domain; ``leaf_of[j]`` is the leaf node of ``values[j]``.  Sibling weights
    are in the ratio of the target probabilities; P(t | x∈D) is the product of normalized
    weights on the path from D down to t (L2580–2590).  Build with :meth:`balanced` or
    :meth:`from_nested`.
    """

    values: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    weight: tuple[int, ...]
    children: tuple[tuple[int, ...], ...]
    parent: np.ndarray
    leaf_of: np.ndarray
    depth: np.ndarray = field(repr=False)

    # ------------------------------------------------------------------ builders

    @classmethod
    def balanced(
        cls,
        values_domain: Iterable[Any],
        weights: Any = None,
        *,
        arity: int = 2,
        max_denominator: int | None = None,
    ) -> SAHierarchy:
        """A balanced ``arity``-ary tree over the sorted distinct domain values.

        ``weights`` is the target: ``None`` or ``"uniform"`` (every value equally likely),
        an array of one probability (or non-negative weight) per sorted distinct value, or a
        callable ``value → weight``.  Leaf probabilities are turned into exact integers
        (decimal reading of floats, optionally rounded to ``max_denominator``); each edge
        weight is the total probability of the child's subtree, so the tree represents the
        target exactly.  O(|D| log |D|).
        """
        if not isinstance(arity, (int, np.integer)) or arity < 2:
            raise ConfigError(f"arity: an integer ≥ 2 expected, got {arity!r}")
        dom = _domain(values_domain)
        d = dom.size
        if weights is None or (isinstance(weights, str) and weights == "uniform"):
            leaf = [1] * d
        elif isinstance(weights, str):
            raise ConfigError(
                f"weights: {weights!r} unknown; use None/'uniform', an array of one "
                "probability per domain value, or a callable value → probability"
            )
        else:
            if callable(weights):
                raw = [weights(float(v)) for v in dom]
            else:
                raw = list(np.asarray(weights, dtype=object).reshape(-1))
                if len(raw) != d:
                    raise ConfigError(
                        f"weights: {len(raw)} leaf probabilities given for {d} distinct "
                        "domain values; give exactly one per value, in ascending value order"
                    )
            fr = [
                _to_fraction(w, f"weights[value {dom[i]:g}]", max_denominator)
                for i, w in enumerate(raw)
            ]
            if sum(fr) == 0:
                raise ConfigError("weights: all leaf probabilities are 0; the total must be > 0")
            leaf = _integer_weights(fr)

        nodes: list[tuple[int, int, int]] = []  # (start, stop, parent) in preorder
        kids: list[list[int]] = []

        def build(start: int, stop: int, parent: int) -> None:
            me = len(nodes)
            nodes.append((start, stop, parent))
            kids.append([])
            if stop - start == 1:
                return
            parts = min(arity, stop - start)
            bounds = [start + (stop - start) * i // parts for i in range(parts + 1)]
            for a, b in itertools.pairwise(bounds):
                kids[me].append(len(nodes))
                build(a, b, me)

        build(0, d, -1)
        csum = np.concatenate([[0], np.cumsum(np.asarray(leaf, dtype=object))])
        weight = [int(csum[b] - csum[a]) for a, b, _ in nodes]
        # edge weights: reduce sibling weights by their gcd (ratios are what matters)
        for ch in kids:
            if ch:
                g = reduce(math.gcd, (weight[c] for c in ch), 0)
                if g > 1:
                    for c in ch:
                        weight[c] //= g
        weight[0] = 1
        return cls._make(dom, nodes, kids, weight)

    @classmethod
    def from_nested(cls, spec: Any) -> SAHierarchy:
        """A general hierarchy from nested lists: a leaf is a number, an inner node a list of
        ``(weight, child)`` pairs whose subdomains must be contiguous and ascending.

        Example: ``[(1, [(2, 30), (1, 40)]), (1, [(1, 50), (1, 60)])]`` is Fig. 3.1 with
        P(30K | {30K, 40K}) = 2/3.  O(|H|).
        """
        dom_list: list[float] = []
        nodes: list[tuple[int, int, int]] = []
        kids: list[list[int]] = []
        weight: list[int] = []

        def walk(s: Any, parent: int, w: int, path: str) -> None:
            me = len(nodes)
            start = len(dom_list)
            nodes.append((start, start, parent))
            kids.append([])
            weight.append(w)
            if isinstance(s, (list, tuple)):
                if len(s) < 2:
                    raise ConfigError(f"hierarchy node {path}: needs ≥ 2 children, has {len(s)}")
                for i, item in enumerate(s):
                    if not (isinstance(item, (list, tuple)) and len(item) == 2):
                        raise ConfigError(
                            f"hierarchy node {path}[{i}]: expected a (weight, child) pair"
                        )
                    cw = _to_fraction(item[0], f"hierarchy weight at {path}[{i}]", None)
                    if cw.denominator != 1:
                        raise ConfigError(
                            f"hierarchy weight at {path}[{i}] = {item[0]!r}: integer edge "
                            "weights are expected (scale the siblings' weights)"
                        )
                    kids[me].append(len(nodes))
                    walk(item[1], me, int(cw), f"{path}[{i}]")
                if w > 0 and sum(weight[c] for c in kids[me]) == 0:
                    raise ConfigError(
                        f"hierarchy node {path}: all child weights are 0; at least one must be > 0"
                    )
            else:
                try:
                    v = float(s)
                except (TypeError, ValueError):
                    raise ConfigError(
                        f"hierarchy leaf {path}: a number expected, got {s!r}"
                    ) from None
                if dom_list and v <= dom_list[-1]:
                    raise ConfigError(
                        f"hierarchy leaf {path} = {v:g}: leaves must be strictly ascending "
                        "left to right (children partition contiguous subdomains)"
                    )
                dom_list.append(v)
            nodes[me] = (start, len(dom_list), parent)

        walk(spec, -1, 1, "root")
        return cls._make(np.asarray(dom_list, dtype=np.float64), nodes, kids, weight)

    @classmethod
    def _make(
        cls,
        dom: np.ndarray,
        nodes: list[tuple[int, int, int]],
        kids: list[list[int]],
        weight: list[int],
    ) -> SAHierarchy:
        lo = np.array([dom[a] for a, _, _ in nodes], dtype=np.float64)
        hi = np.array([dom[b - 1] for _, b, _ in nodes], dtype=np.float64)
        parent = np.array([p for _, _, p in nodes], dtype=np.int64)
        leaf_of = np.zeros(dom.size, dtype=np.int64)
        depth = np.zeros(len(nodes), dtype=np.int64)
        for i, (a, _b, p) in enumerate(nodes):
            if p >= 0:
                depth[i] = depth[p] + 1
            if not kids[i]:
                leaf_of[a] = i
        return cls(
            dom, lo, hi, tuple(weight), tuple(tuple(c) for c in kids), parent, leaf_of, depth
        )

    # ------------------------------------------------------------------ structure

    @property
    def n_nodes(self) -> int:
        return int(self.lo.size)

    def is_leaf(self, node: int) -> bool:
        return not self.children[node]

    def range(self, node: int) -> float:
        """max − min of the subdomain (a leaf has range 0)."""
        return float(self.hi[node] - self.lo[node])

    def subdomain(self, node: int) -> Subdomain:
        return (float(self.lo[node]), float(self.hi[node]))

    def node_of(self, lo: float, hi: float) -> int:
        """The node whose subdomain is exactly [lo, hi]; :class:`InputError` if none."""
        hits = np.flatnonzero((self.lo == lo) & (self.hi == hi))
        if hits.size == 0:
            raise InputError(f"[{lo:g}, {hi:g}] is not a subdomain of the hierarchy")
        return int(hits[-1])  # the deepest if a chain of single children

    def leaves_under(self, node: int) -> np.ndarray:
        """Indices into ``values`` of the leaves below ``node``."""
        a = int(np.searchsorted(self.values, self.lo[node], side="left"))
        b = int(np.searchsorted(self.values, self.hi[node], side="right"))
        return np.arange(a, b)

    def ancestors(self, node: int) -> list[int]:
        """``node`` and its ancestors up to the root, bottom-up."""
        out = [node]
        while self.parent[out[-1]] >= 0:
            out.append(int(self.parent[out[-1]]))
        return out

    def locate(self, values: Any, what: str = "value") -> np.ndarray:
        """Index into ``values`` (the domain) of each given value; counts the outsiders and
        names the first one's position (never its value)."""
        x = np.asarray(values, dtype=np.float64).reshape(-1)
        idx = np.searchsorted(self.values, x)
        idx_c = np.minimum(idx, self.values.size - 1)
        bad = (idx >= self.values.size) | (self.values[idx_c] != x)
        if bad.any():
            raise InputError(
                f"{bad_rows(bad, 0, what, where=what)} not in the hierarchy's domain "
                f"({self.values.size} values from {self.values[0]:g} to {self.values[-1]:g}); "
                "add such values to the domain or recode them"
            )
        return idx_c.astype(np.int64)

    def counts(self, values: Any) -> np.ndarray:
        """|g_D| for every node D (values inside each subdomain).  O(|g| + |H|)."""
        leaf_counts = np.bincount(self.locate(values), minlength=self.values.size)
        c = np.zeros(self.n_nodes, dtype=np.int64)
        c[self.leaf_of] = leaf_counts
        for node in range(self.n_nodes - 1, 0, -1):  # preorder: children after parents
            c[self.parent[node]] += c[node]
        return c

    def conditional(self, node: int, weights: Sequence[int] | None = None) -> dict[float, Fraction]:
        """P(x = t | x ∈ node) for every leaf value t under ``node`` (exact).  O(|H_node|)."""
        w = self.weight if weights is None else weights
        out: dict[float, Fraction] = {}
        stack = [(node, Fraction(1))]
        while stack:
            n, p = stack.pop()
            ch = self.children[n]
            if not ch:
                out[float(self.lo[n])] = p
                continue
            tot = sum(w[c] for c in ch)
            if tot == 0:
                raise ConfigError(
                    f"subdomain [{self.lo[n]:g}, {self.hi[n]:g}]: all child weights are 0"
                )
            for c in ch:
                if w[c]:
                    stack.append((c, p * Fraction(w[c], tot)))
        return out

    def has_mass(self, node: int) -> bool:
        """Does the subdomain have positive target probability?  O(depth + |H_node|)."""
        for a in self.ancestors(node)[:-1]:
            if self.weight[a] == 0:
                return False
        stack = [node]
        while stack:
            n = stack.pop()
            if not self.children[n]:
                return True
            stack.extend(c for c in self.children[n] if self.weight[c] > 0)
        return False

    def target(self) -> dict[float, Fraction]:
        """The target distribution P over the domain (exact)."""
        return self.conditional(0)

    def with_weights(self, weights: Sequence[int]) -> SAHierarchy:
        """The same tree with other integer edge weights (one per node)."""
        if len(weights) != self.n_nodes:
            raise ConfigError(f"weights: one per node ({self.n_nodes}) expected")
        w = tuple(int(x) for x in weights)
        if any(x < 0 for x in w):
            raise ConfigError("weights: edge weights must be ≥ 0")
        _check_reachable(self.children, w, self.lo, self.hi)
        return SAHierarchy(
            self.values, self.lo, self.hi, w, self.children, self.parent, self.leaf_of, self.depth
        )


def _check_reachable(children: Sequence[Sequence[int]], w: Sequence[int], lo: Any, hi: Any) -> None:
    """Every node of positive target mass needs a child of positive weight."""
    stack = [0]
    while stack:
        n = stack.pop()
        ch = children[n]
        if not ch:
            continue
        live = [c for c in ch if w[c] > 0]
        if not live:
            raise ConfigError(
                f"weights: subdomain [{lo[n]:g}, {hi[n]:g}] has positive target probability "
                "but all its children have weight 0; give one child a positive weight"
            )
        stack.extend(live)


def _domain(values_domain: Iterable[Any]) -> np.ndarray:
    try:
        dom = np.unique(np.asarray(list(values_domain), dtype=np.float64))
    except (TypeError, ValueError):
        raise ConfigError("values_domain: numeric values expected") from None
    if dom.size == 0:
        raise ConfigError("values_domain: the domain is empty; give at least one value")
    if not np.isfinite(dom).all():
        raise ConfigError("values_domain: values must be finite numbers")
    return dom


# ---------------------------------------------------------------------------- Algorithm 3


def max_m_bound_allocation(N: Sequence[int], W: Sequence[int], m: int) -> tuple[int, ...]:
    """The maximum m-bound allocation (seed 001 Def 3.4.1, L2705).

    The largest (n'₁…n'_k) with n'ᵢ ≤ nᵢ, n' exactly proportional to W and Σn'ᵢ ≤ m:
    c·W/gcd(W) with c = min(minᵢ ⌊nᵢ/w'ᵢ⌋, ⌊m/Σw'ᵢ⌋) (zero weights get 0).
    ``max_m_bound_allocation((3,6,5), (1,2,1), 10) == (2,4,2)``.  O(k).
    """
    if len(N) != len(W):
        raise ConfigError(f"N and W: same length expected, got {len(N)} and {len(W)}")
    if any(int(w) < 0 for w in W) or any(int(n) < 0 for n in N) or m < 0:
        raise ConfigError("N, W and m must be non-negative")
    g = reduce(math.gcd, (int(w) for w in W), 0)
    if g == 0:
        raise ConfigError("W: all weights are 0; at least one must be > 0")
    w = [int(x) // g for x in W]
    c = m // sum(w)
    for ni, wi in zip(N, w, strict=True):
        if wi:
            c = min(c, int(ni) // wi)
    return tuple(c * wi for wi in w)


def _msor_nodes(
    h: SAHierarchy, counts: np.ndarray, node: int, m: int, weights: Sequence[int] | None = None
) -> list[int]:
    """Algorithm 3 MinSumOfRange(g, H_node, m) on precomputed counts; the emitted node ids."""
    w = h.weight if weights is None else weights
    out: list[int] = []
    stack = [(node, m)]
    while stack:
        d, mm = stack.pop()
        ch = h.children[d]
        if not ch:
            out.extend([d] * mm)
            continue
        alloc = max_m_bound_allocation([int(counts[c]) for c in ch], [w[c] for c in ch], mm)
        out.extend([d] * (mm - sum(alloc)))
        stack.extend((c, a) for c, a in zip(ch, alloc, strict=True) if a > 0)
    return out


def min_sum_of_range(values: Any, hierarchy: SAHierarchy) -> list[Subdomain]:
    """A P-private generalization of ``values`` with minimum sum of ranges (Algorithm 3).

    Seed 001 §2.2, Problem 3.4.1 / Algorithm 3 MinSumOfRange (L2758–2780), optimal by
    Theorem 5.  Returns the multiset of subdomains ``(lo, hi)`` sorted ascending; only the
    multiset matters since it is published permuted.  O(|g| + |H|).
    """
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    counts = hierarchy.counts(x)
    nodes = _msor_nodes(hierarchy, counts, 0, int(x.size))
    return sorted(hierarchy.subdomain(n) for n in nodes)


def sum_of_range(subdomains: Iterable[Subdomain]) -> float:
    """Σ (hi − lo) over a multiset of subdomains."""
    return float(sum(hi - lo for lo, hi in subdomains))


def is_p_private(subdomains: Sequence[Subdomain], hierarchy: SAHierarchy) -> bool:
    """Def 3.3.1: P(x=t) = (1/n) Σᵢ P(x=t | x∈Dᵢ) for every t (exact arithmetic).

    Every subdomain must be a node of the hierarchy.  O(n · |H|).
    """
    n = len(subdomains)
    if n == 0:
        return True
    mix: dict[float, Fraction] = {}
    cache: dict[int, dict[float, Fraction]] = {}
    for lo, hi in subdomains:
        node = hierarchy.node_of(lo, hi)
        if node not in cache:
            if not hierarchy.has_mass(node):
                return False  # P(· | x ∈ D) undefined: D has target probability 0
            cache[node] = hierarchy.conditional(node)
        for t, p in cache[node].items():
            mix[t] = mix.get(t, Fraction(0)) + p
    target = hierarchy.target()
    keys = set(mix) | set(target)
    return all(mix.get(t, Fraction(0)) / n == target.get(t, Fraction(0)) for t in keys)


def has_bijection(values: Any, subdomains: Sequence[Subdomain]) -> bool:
    """Is there a bijection values → subdomains with each value inside its subdomain?

    Points-to-intervals matching: scan values ascending and give each the open interval with
    the smallest ``hi`` (exchange argument).  O(n log n).
    """
    import heapq

    x = sorted(float(v) for v in np.asarray(values, dtype=np.float64).reshape(-1))
    if len(x) != len(subdomains):
        return False
    ivs = sorted((float(lo), float(hi)) for lo, hi in subdomains)
    heap: list[float] = []
    j = 0
    for v in x:
        while j < len(ivs) and ivs[j][0] <= v:
            heapq.heappush(heap, ivs[j][1])
            j += 1
        while heap and heap[0] < v:
            return False  # an interval ends before any remaining value can use it
        if not heap:
            return False
        heapq.heappop(heap)
    return j == len(ivs) and not heap


# ---------------------------------------------------------------------------- Algorithm 4


@dataclass(frozen=True)
class FakeResult:
    """Best fake values for one group (Problem 3.5.1 via Algorithm 4).

    ``fakes`` = number of fake values added (the best k ≤ max_fakes; the smallest among
    ties), ``fake_values`` the materialized fakes, ``subdomains`` the published multiset
    (|g| + fakes entries), ``cost`` its sum of ranges, ``costs[k]`` the optimum with exactly
    k fakes.
    """

    fakes: int
    cost: float
    fake_values: list[float]
    subdomains: list[Subdomain]
    costs: list[float]

    def to_dict(self) -> dict[str, Any]:
        return {"fakes": self.fakes, "cost": self.cost, "fake_values": self.fake_values}


def _compositions(k: int, parts: int) -> Iterable[tuple[int, ...]]:
    if parts == 1:
        yield (k,)
        return
    for first in range(k + 1):
        for rest in _compositions(k - first, parts - 1):
            yield (first, *rest)


class _FakeDP:
    """Memoized Algorithm 4 minSORFake(g_D, k, r, H_D) with the corrected recursion."""

    def __init__(self, h: SAHierarchy, counts: np.ndarray, weights: Sequence[int]):
        self.h, self.counts, self.w = h, counts, weights
        self.memo: dict[tuple[int, int, int], tuple[float, tuple[int, ...], tuple[int, ...]]] = {}

    def solve(self, node: int, k: int, r: int) -> float:
        key = (node, k, r)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        h = self.h
        ch = h.children[node]
        total = int(self.counts[node]) + k
        if not ch:
            self.memo[key] = (0.0, (), ())
            return 0.0
        best: tuple[float, tuple[int, ...], tuple[int, ...]] | None = None
        ws = [self.w[c] for c in ch]
        rng = h.range(node)
        for xs in _compositions(k, len(ch)):
            sizes = [int(self.counts[c]) + x for c, x in zip(ch, xs, strict=True)]
            alloc = max_m_bound_allocation(sizes, ws, total - r)
            # corrected root multiplier |g| + k − u − v − r (printed |g| − u − v − r, L3108)
            cost = (total - r - sum(alloc)) * rng
            if best is not None and cost >= best[0]:
                continue
            for c, x, s, a in zip(ch, xs, sizes, alloc, strict=True):
                # corrected: child i gets its own fakes x_i and r_i = |g_Di| + x_i − n_i
                cost += self.solve(c, x, s - a)
                if best is not None and cost >= best[0]:
                    break
            if best is None or cost < best[0] - 1e-12 * max(1.0, abs(best[0])):
                best = (cost, xs, alloc)
        assert best is not None
        self.memo[key] = best
        return best[0]

    def rebuild(self, node: int, k: int, r: int, out: list[int], fakes: list[float]) -> None:
        self.solve(node, k, r)
        stack = [(node, k, r)]
        while stack:
            d, kk, rr = stack.pop()
            self.solve(d, kk, rr)
            _, xs, alloc = self.memo[(d, kk, rr)]
            total = int(self.counts[d]) + kk
            if not self.h.children[d]:
                out.extend([d] * (total - rr))
                fakes.extend([float(self.h.lo[d])] * kk)
                continue
            out.extend([d] * (total - rr - sum(alloc)))
            for c, x, a in zip(self.h.children[d], xs, alloc, strict=True):
                stack.append((c, x, int(self.counts[c]) + x - a))


def min_sor_fake(values: Any, hierarchy: SAHierarchy, max_fakes: int) -> FakeResult:
    """Problem 3.5.1: add ≤ ``max_fakes`` fake values minimizing the minimum sum of ranges.

    Seed 001 §2.2, Algorithm 4 minSORFake (L3117–3160) with the corrected root multiplier
    ``|g| + k − u − v − r`` and right-child recursion ``(k − x, |g_D2| + k − x − v)``; solved as
    min over k = 0..t of minSORFake(g, k, 0, H).  For k = 0 it equals Algorithm 3.

    *Materialization* (the dissertation never builds the fakes): the memoized argmin split
    of the k fakes among the children is followed down to the leaves, so every fake is the
    leaf value of the subtree where the optimum needs it; a fake that the optimum then pushes
    up (a "removed" value) is still that leaf's value and is published inside an ancestor
    subdomain.  Ties go to the fewest fakes, then to the leftmost split.  Arbitrary arity
    (fakes split over compositions).  Time O(t² (|g| + t) |H|) for binary trees (L3207–3253).
    """
    if isinstance(max_fakes, bool) or not isinstance(max_fakes, (int, np.integer)):
        raise ConfigError(f"max_fakes: a non-negative integer expected, got {max_fakes!r}")
    if max_fakes < 0:
        raise ConfigError(f"max_fakes: must be ≥ 0, got {max_fakes}")
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    counts = hierarchy.counts(x)
    dp = _FakeDP(hierarchy, counts, hierarchy.weight)
    costs = [dp.solve(0, k, 0) for k in range(int(max_fakes) + 1)]
    best_k = min(range(len(costs)), key=lambda k: (round(costs[k], 9), k))
    nodes: list[int] = []
    fakes: list[float] = []
    dp.rebuild(0, best_k, 0, nodes, fakes)
    subs = sorted(hierarchy.subdomain(n) for n in nodes)
    return FakeResult(best_k, float(costs[best_k]), sorted(fakes), subs, [float(c) for c in costs])


# ---------------------------------------------------------------------------- §3.6


def shifted_hierarchy(
    hierarchy: SAHierarchy,
    values: Any,
    shift: float | Callable[[float, float, int], float],
) -> SAHierarchy:
    """The approximate target P_anony for shift factor x (seed 001 §3.6, L3255–3320).

    At every inner node with data, q = target child fractions and p = the data's per-node
    conditional fractions |g_Di| / Σⱼ|g_Dj| (erratum: the text's |g_D1|/|S| contradicts its
    experiments, L3727–3735).  The new fractions are q' = q + τ(p − q) with the largest
    τ ∈ [0, 1] keeping every |q'ᵢ − qᵢ| ≤ x; for a binary node this is exactly
    q' = clamp(p, q − x, q + x).  Nodes without data keep their weights.  Fractions are exact
    and scaled to the smallest integers per node.  ``shift`` is a number in [0, 1] or a
    callable (lo, hi, depth) → x for a per-node factor.  O(|g| + |H|).
    """
    counts = hierarchy.counts(values)
    new_w = list(hierarchy.weight)
    for node, ch in enumerate(hierarchy.children):
        if not ch:
            continue
        xs = (
            shift(float(hierarchy.lo[node]), float(hierarchy.hi[node]), int(hierarchy.depth[node]))
            if callable(shift)
            else shift
        )
        xf = _to_fraction(xs, "shift", None)
        if xf > 1:
            raise ConfigError(f"shift: a factor in [0, 1] expected, got {xs!r}")
        tot_c = sum(int(counts[c]) for c in ch)
        if tot_c == 0:
            continue
        tot_w = sum(hierarchy.weight[c] for c in ch)
        p = [Fraction(int(counts[c]), tot_c) for c in ch]
        if tot_w == 0:  # no target mass below: any split is as close as another; use p
            q, tau = p, Fraction(1)
        else:
            q = [Fraction(hierarchy.weight[c], tot_w) for c in ch]
            dev = max(abs(pi - qi) for pi, qi in zip(p, q, strict=True))
            tau = Fraction(1) if dev <= xf else xf / dev
        qn = [qi + tau * (pi - qi) for pi, qi in zip(p, q, strict=True)]
        for c, wi in zip(ch, _integer_weights(qn), strict=True):
            new_w[c] = wi
    return hierarchy.with_weights(new_w)


# ---------------------------------------------------------------------------- publishing


def _group_ids(df: pl.DataFrame, groups: Any) -> np.ndarray:
    n = df.height
    if groups is None:
        return np.zeros(n, dtype=np.int64)
    if isinstance(groups, str):
        if groups not in df.columns:
            raise InputError(f"groups: column {groups!r} not found; the table has {df.columns}")
        col = df[groups]
        if col.null_count():
            raise InputError(f"groups: column {groups!r} has missing values")
        _, gid = np.unique(col.cast(pl.String).to_numpy().astype(str), return_inverse=True)
        return gid.astype(np.int64).reshape(-1)
    return dense_group_ids(groups, n, "integer group ids (or a column name)")


def _qi_subgroups(df: pl.DataFrame, qi: list[str], gid: np.ndarray) -> np.ndarray:
    """Split every group into subgroups of identical QI values (§3.4.2)."""
    keys = df.select(qi).with_columns(pl.Series("_g", gid), pl.Series("_r", np.arange(df.height)))
    parts = keys.group_by(["_g", *qi], maintain_order=True).agg(pl.col("_r"))
    out = np.empty(df.height, dtype=np.int64)
    for i, rows in enumerate(parts["_r"].to_list()):
        out[np.asarray(rows, dtype=np.int64)] = i
    return out


def target_release(
    frame: Any,
    *,
    qi: Any,
    sensitive: str,
    hierarchy: SAHierarchy,
    groups: Any = None,
    mode: str = "sa-only",
    max_fakes: int | float = 0,
    shift: Any = None,
    seed: Any = None,
    identifying: Any = (),
    insensitive: Any = (),
    keep_other_columns: bool = False,
) -> PermutationRelease:
    """Publish ``frame`` so each group's SA looks drawn from the hierarchy's target.

    Seed 001 §2.2 (Ch. 3).  ``groups``: ``None`` (one group, the whole table), one integer
    id per row, or a column name — the owner's partition.  ``mode="qi-sa"`` first splits
    every group into subgroups of identical QI values (§3.4.2).  Per (sub)group the SA
    values are generalized by Algorithm 3, or with ``max_fakes`` > 0 by Algorithm 4 (an
    integer: at most that many fakes per group; a float in (0, 1): at most
    ⌊max_fakes·|group|⌋, the experiments' "+x%").  ``shift`` relaxes the target per group
    (§3.6, :func:`shifted_hierarchy`).  ``hierarchy`` is one target for every group, or a
    list of one :class:`SAHierarchy` per owner group (ascending group id; QI-SA subgroups
    take their owner group's) — seed 001 §3.7 Fig. 3.5's "different targets per part",
    built by :func:`target_release_by_groups`.  The SA table has one ``[lo, hi]`` row per published
    subdomain, fake values included, so a group may publish more rows than it has tuples;
    :mod:`privlab.bounds` then uses the m smallest ``lo`` / largest ``hi`` (§3.3.3).
    O(n log n + G·|H|) without fakes; with fakes see :func:`min_sor_fake`.
    """
    if mode not in MODES:
        raise ConfigError(f"mode: {mode!r} unknown; use one of {list(MODES)}")
    per_group = not isinstance(hierarchy, SAHierarchy)
    if per_group and not (
        isinstance(hierarchy, (list, tuple))
        and hierarchy
        and all(isinstance(h, SAHierarchy) for h in hierarchy)
    ):
        raise ConfigError(
            "hierarchy: an SAHierarchy expected (see SAHierarchy.balanced), or a list of "
            "one per owner group"
        )
    if isinstance(max_fakes, bool) or not isinstance(max_fakes, (int, float, np.number)):
        raise ConfigError(f"max_fakes: an integer ≥ 0 or a fraction in (0, 1), got {max_fakes!r}")
    if max_fakes < 0 or (isinstance(max_fakes, (float, np.floating)) and max_fakes >= 1):
        raise ConfigError(
            f"max_fakes: {max_fakes!r}; give an integer ≥ 0 (fakes per group) or a float in "
            "(0, 1) (fraction of the group's size)"
        )
    df = as_polars(frame)
    roles = check_roles(
        df, qi, sensitive, identifying=identifying, insensitive=insensitive,
        keep_other_columns=keep_other_columns,
        used=groups if isinstance(groups, str) else (),
    )  # fmt: skip
    qi = roles.quasi_identifiers
    x = numeric_sensitive(df, sensitive)
    gid = _group_ids(df, groups)
    if per_group:
        n_owner = int(gid.max()) + 1
        if len(hierarchy) != n_owner:
            raise ConfigError(
                f"hierarchy: {len(hierarchy)} hierarchies given for {n_owner} owner groups; "
                "give one per group, in ascending group-id order"
            )
        for g, h_g in enumerate(hierarchy):
            h_g.locate(x[gid == g], what=f"row of group {g}")
    else:
        hierarchy.locate(x, what="row")
    owner = gid
    if mode == "qi-sa":
        gid = _qi_subgroups(df, qi, gid)
    n_groups = int(gid.max()) + 1
    owner_of = np.zeros(n_groups, dtype=np.int64)
    owner_of[gid] = owner
    order = np.argsort(gid, kind="stable")
    bounds_ = np.searchsorted(gid[order], np.arange(n_groups + 1))
    sa_g: list[int] = []
    sa_lo: list[float] = []
    sa_hi: list[float] = []
    total_cost = 0.0
    total_fakes = 0
    for g in range(n_groups):
        vals = x[order[bounds_[g] : bounds_[g + 1]]]
        h0 = hierarchy[int(owner_of[g])] if per_group else hierarchy
        h = h0 if shift is None else shifted_hierarchy(h0, vals, shift)
        if isinstance(max_fakes, (float, np.floating)):
            t = math.floor(max_fakes * vals.size)
        else:
            t = int(max_fakes)
        if t > 0:
            res = min_sor_fake(vals, h, t)
            subs, cost = res.subdomains, res.cost
            total_fakes += res.fakes
        else:
            subs = min_sum_of_range(vals, h)
            cost = sum_of_range(subs)
        total_cost += cost
        for lo, hi in subs:
            sa_g.append(g)
            sa_lo.append(lo)
            sa_hi.append(hi)
    if len(sa_g) < x.size:  # pragma: no cover - Algorithm 3 emits one subdomain per value
        raise InfeasibleError("internal: fewer subdomains than values")
    sa = pl.DataFrame(
        {"group_id": sa_g, "lo": sa_lo, "hi": sa_hi},
        schema={"group_id": pl.Int64, "lo": pl.Float64, "hi": pl.Float64},
    ).sort(["group_id", "lo", "hi"])
    params = {
        "model": "target-distribution",
        "mode": mode,
        "n_groups": n_groups,
        "sum_of_ranges": total_cost,
        "fake_values": total_fakes,
        "max_fakes": max_fakes,
        "shift": shift if isinstance(shift, (int, float, type(None))) else "per-node",
        "insecure_seed": is_insecure_seed(seed),
    }
    return publish(df, roles, gid, sa, "numeric", params, seed)


# ---------------------------------------------------------------------------- Fig. 3.5


def contiguous_bands(values: Any, n_groups: int, split: str = "equal-width") -> np.ndarray:
    """One group id per row: ``n_groups`` contiguous bands of a numeric column (e.g. age).

    ``equal-width``: band ⌊(v − min)·g / (max − min)⌋ (the maximum joins the last band), so
    the bands are age ranges of equal length; a band with no row is dropped.
    ``equal-frequency``: band ⌊r·g / n⌋ with r the number of values strictly below v, so
    the bands hold about n/g rows each and equal values never straddle two bands.  Either
    way the ids are renumbered 0..G'−1 in ascending value order (G' ≤ g).  O(n log n).
    """
    if isinstance(n_groups, bool) or not isinstance(n_groups, (int, np.integer)) or n_groups < 1:
        raise ConfigError(f"n_groups: an integer ≥ 1 expected, got {n_groups!r}")
    if split not in SPLITS:
        raise ConfigError(f"split: {split!r} unknown; use one of {list(SPLITS)}")
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    if v.size == 0:
        raise InputError("the table has no row to split into groups")
    if not np.isfinite(v).all():
        raise InputError("the grouping column has missing or non-finite values")
    g = int(n_groups)
    if split == "equal-width":
        lo, hi = float(v.min()), float(v.max())
        band = (
            np.zeros(v.size, dtype=np.int64)
            if hi == lo
            else np.floor((v - lo) * g / (hi - lo)).astype(np.int64)
        )
    else:
        below = np.searchsorted(np.sort(v), v, side="left")
        band = (below * g) // v.size
    return dense_group_ids(np.minimum(band, g - 1), v.size)


def target_release_by_groups(
    frame: Any,
    *,
    qi: Any,
    sensitive: str,
    by: str,
    n_groups: int,
    target: Any = "source",
    split: str = "equal-width",
    domain: str = "values",
    arity: int = 2,
    mode: str = "sa-only",
    max_fakes: int | float = 0,
    seed: Any = None,
    identifying: Any = (),
    insensitive: Any = (),
    keep_other_columns: bool = False,
) -> PermutationRelease:
    """Split the rows into contiguous bands of ``by`` and give every band its OWN target.

    Seed 001 §3.7, "Different targets per part" (Fig. 3.5; summary
    ``shared/spec/seed-001-permutation-thesis.md`` §3.2 item 5): Adult split by age into 2
    and 10 groups, each released with the group's own capital-loss distribution as its
    target (3.5a), or correlated synthetic data with a uniform target per group (3.5b).

    * Groups: :func:`contiguous_bands` of column ``by`` (which must be a QI or left out).
      ``split="equal-width"`` is the default because the seed splits "by age" with no
      mention of group sizes, and equal age ranges are what an owner partitioning by age
      (and a range query on age) sees; ``"equal-frequency"`` (≈ n/g rows a band) is kept
      for comparison (on uniform ages the two coincide).
    * Per group, a balanced ``arity``-ary :class:`SAHierarchy` over ``domain``: ``values``
      (the group's distinct SA values; default), ``range`` (every integer from the group's
      minimum to its maximum) or ``table`` (the whole table's distinct values, one domain
      for all) — with leaf weights ``target``: ``"source"`` (the group's own counts),
      ``"uniform"``, or a callable ``values → SAHierarchy`` that builds the group's
      hierarchy itself (the bench rounds node ratios this way).  With ``"source"`` and exact
      weights Algorithm 3 keeps every value (sum of ranges 0): the target equals the source.
    * Each group is released by :func:`target_release` with its hierarchy (``mode``,
      ``max_fakes`` as there; QI-SA subgroups use their band's target), so the result is one
      :class:`PermutationRelease` queried like every other target release.
      ``n_groups = 1`` (any ``split``) equals ``target_release`` with the table's own
      hierarchy.  ``parameters`` add ``owner_groups`` (bands actually used), ``split``,
      ``group_target`` and ``group_domain``.

    O(n log n + Σ_g |H_g| + G·|H|) without fakes.
    """
    if split not in SPLITS:
        raise ConfigError(f"split: {split!r} unknown; use one of {list(SPLITS)}")
    if domain not in GROUP_DOMAINS:
        raise ConfigError(f"domain: {domain!r} unknown; use one of {list(GROUP_DOMAINS)}")
    if not callable(target) and target not in GROUP_TARGETS:
        raise ConfigError(
            f"target: {target!r} unknown; use one of {list(GROUP_TARGETS)} or a callable "
            "values → SAHierarchy"
        )
    df = as_polars(frame)
    check_roles(
        df, qi, sensitive, identifying=identifying, insensitive=insensitive,
        keep_other_columns=keep_other_columns,
    )  # fmt: skip
    if not isinstance(by, str) or by not in df.columns:
        raise InputError(f"by: column {by!r} not found; the table has {df.columns}")
    if df[by].null_count():
        raise InputError(f"by: column {by!r} has missing values")
    if not df[by].dtype.is_numeric():
        raise InputError(f"by: column {by!r} must be numeric (the bands are value ranges)")
    x = numeric_sensitive(df, sensitive)
    gid = contiguous_bands(df[by].to_numpy(), n_groups, split)
    table_dom = np.unique(x)
    hierarchies: list[SAHierarchy] = []
    for g in range(int(gid.max()) + 1):
        vals = x[gid == g]
        if callable(target):
            h = target(vals)
            if not isinstance(h, SAHierarchy):
                raise ConfigError("target: the callable must return an SAHierarchy")
            hierarchies.append(h)
            continue
        if domain == "values":
            dom = np.unique(vals)
        elif domain == "range":
            dom = np.arange(math.floor(vals.min()), math.ceil(vals.max()) + 1, dtype=np.float64)
            dom = np.union1d(dom, vals)
        else:
            dom = table_dom
        weights = None
        if target == "source":
            weights = [int(c) for c in np.bincount(np.searchsorted(dom, vals), minlength=dom.size)]
        hierarchies.append(SAHierarchy.balanced(dom, weights, arity=arity))
    rel = target_release(
        df, qi=qi, sensitive=sensitive, hierarchy=hierarchies, groups=gid, mode=mode,
        max_fakes=max_fakes, seed=seed, identifying=identifying, insensitive=insensitive,
        keep_other_columns=keep_other_columns,
    )  # fmt: skip
    rel.parameters.update(
        owner_groups=len(hierarchies),
        split=split,
        group_target=target if isinstance(target, str) else "custom",
        group_domain=domain,
    )
    return rel
