"""Personalized privacy on a generalization hierarchy (seed 001 §2.4, dissertation Ch. 5).

Every tuple i with sensitive value vᵢ picks a requirement node Rᵢ — the ancestor of its leaf
at height hᵢ (0 = the leaf itself) — and a grouping of the tuples is published, each group
as a permuted multiset of hierarchy subdomains.  A multiset G *respects* Rᵢ (Def 5.3.1,
L5620) if all values of Rᵢ are equally likely under G, where a published subdomain D spreads
its probability uniformly over its values: P(t | G) = (1/|G|) Σ_{D∈G} [t∈D] / |D|.  The
*Personalized Privacy Problem* (PPP, Problem 5.4.1, L5671) asks for a grouping and a
generalization Dᵢ ∋ vᵢ of every tuple (the bijection of Def 5.3.2) such that every group
respects all its members' requirements, minimizing the sum of ranges Σ (max Dᵢ − min Dᵢ).
Its complexity is open (L5909–5918).

* :func:`min_gen_uniform_one_group` — Algorithm 6 MinGenUniformOneGrp + Theorem 9: one
  group per maximal requirement domain, generalized by Ch. 3's Algorithm 3 with a uniform
  target on that domain; :func:`min_sor_td` (Algorithm 9, top-down) comes out the same.
* :func:`min_gen_uniform_multi_group` — Algorithm 7: Algorithm 6 per group of identical QIs.
* :func:`min_sor_bu` — Algorithm 8 MinSORbu (bottom-up, maximum *average* saving,
  L5860); ``FindMinGroup`` is left undefined by the text — see its docstring for ours.
* :func:`exact_ppp` — exhaustive optimum for ≤ 8 tuples, to measure the heuristics' gap.
* :func:`personalized_release` — a :class:`PermutationRelease` from any of them.

Choices where the text is silent: Def 5.3.1 is read strictly (*every* value of Rᵢ equally
likely, which is positive because vᵢ ∈ Rᵢ has positive probability); the target is uniform
(the formal definition, although §5.2 speaks of "following P"); published subdomains are
hierarchy nodes; ranges are max − min as in Ch. 3 (|D| in the text's savings).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import reduce
from typing import Any

import numpy as np
import polars as pl

from privlab.dp.noise import is_insecure_seed
from privlab.errors import ConfigError, InputError
from privlab.table.permutation.release import (
    PermutationRelease,
    as_polars,
    check_roles,
    numeric_sensitive,
    publish,
)
from privlab.table.permutation.target import SAHierarchy, Subdomain, _msor_nodes

__all__ = [
    "PersonalizedResult",
    "exact_ppp",
    "is_valid",
    "min_gen_uniform_multi_group",
    "min_gen_uniform_one_group",
    "min_sor_bu",
    "min_sor_td",
    "personalized_release",
    "requirement_nodes",
    "respects",
]

EXACT_LIMIT = 8


@dataclass(frozen=True)
class PersonalizedResult:
    """A grouping and generalization of the tuples (PPP, seed 001 §2.4).

    ``groups``: tuple indices per group; ``domains[i]``: the hierarchy node tuple i is
    generalized to (so ``values[i]`` ∈ its subdomain — the bijection of Def 5.3.2);
    ``cost``: Σ ranges; ``method``: which algorithm produced it.
    """

    groups: list[list[int]]
    domains: np.ndarray
    cost: float
    method: str
    hierarchy: SAHierarchy

    def subdomains(self, group: int) -> list[Subdomain]:
        """The published multiset of group ``group`` (sorted)."""
        return sorted(self.hierarchy.subdomain(int(self.domains[i])) for i in self.groups[group])

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "cost": self.cost,
            "groups": [[list(d) for d in self.subdomains(g)] for g in range(len(self.groups))],
        }


# ---------------------------------------------------------------------------- model


def requirement_nodes(
    values: Any, requirements: Sequence[Any], hierarchy: SAHierarchy
) -> np.ndarray:
    """The requirement node Rᵢ of every tuple.

    ``requirements[i]`` is a height hᵢ ≥ 0 (the hᵢ-th ancestor of vᵢ's leaf; 0 = no
    generalization needed) or a subdomain ``(lo, hi)`` that must be a node containing vᵢ.
    O(n · depth).
    """
    leaves = hierarchy.leaf_of[hierarchy.locate(values)]
    if len(requirements) != leaves.size:
        raise InputError(
            f"requirements: one per value ({leaves.size}) expected, got {len(requirements)}"
        )
    out = np.empty(leaves.size, dtype=np.int64)
    for i, (leaf, req) in enumerate(zip(leaves, requirements, strict=True)):
        anc = hierarchy.ancestors(int(leaf))
        if isinstance(req, (int, np.integer)) and not isinstance(req, bool):
            if not 0 <= req < len(anc):
                raise InputError(
                    f"requirements[{i}] = {req}: height must be in 0..{len(anc) - 1} for that "
                    f"row's value (0 = the value itself, {len(anc) - 1} = the root)"
                )
            out[i] = anc[int(req)]
        elif isinstance(req, (tuple, list)) and len(req) == 2:
            node = hierarchy.node_of(float(req[0]), float(req[1]))
            if node not in anc:
                raise InputError(
                    f"requirements[{i}] = {tuple(req)}: does not contain that row's value; a "
                    "requirement is an ancestor of the value"
                )
            out[i] = node
        else:
            raise InputError(
                f"requirements[{i}] = {req!r}: give a height (int ≥ 0) or a subdomain (lo, hi)"
            )
    return out


def _probabilities(subdomains: Sequence[Subdomain], hierarchy: SAHierarchy) -> list[Fraction]:
    dom = hierarchy.values
    p = [Fraction(0)] * dom.size
    for lo, hi in subdomains:
        a = int(np.searchsorted(dom, lo, side="left"))
        b = int(np.searchsorted(dom, hi, side="right"))
        if b <= a:
            raise InputError(f"subdomain [{lo:g}, {hi:g}] holds no domain value")
        share = Fraction(1, b - a)
        for j in range(a, b):
            p[j] += share
    return p


def respects(G: Sequence[Subdomain], R: Subdomain, hierarchy: SAHierarchy) -> bool:
    """Def 5.3.1: do all domain values of R have the same probability under G?

    Subdomains spread uniformly over their domain values; exact arithmetic.  O(|G|·|D|).
    """
    if not G:
        return False
    p = _probabilities(G, hierarchy)
    dom = hierarchy.values
    a = int(np.searchsorted(dom, R[0], side="left"))
    b = int(np.searchsorted(dom, R[1], side="right"))
    vals = p[a:b]
    return bool(vals) and vals[0] > 0 and all(v == vals[0] for v in vals)


def is_valid(
    result: PersonalizedResult, values: Any, requirements: Sequence[Any], hierarchy: SAHierarchy
) -> bool:
    """A partition of all tuples, each vᵢ inside its Dᵢ, every group respecting every Rᵢ
    of its members (Def 5.3.2), and ``cost`` = Σ ranges."""
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    req = requirement_nodes(x, requirements, hierarchy)
    seen = sorted(i for g in result.groups for i in g)
    if seen != list(range(x.size)):
        return False
    h = hierarchy
    for i, d in enumerate(result.domains):
        if not h.lo[d] <= x[i] <= h.hi[d]:
            return False
    for g in range(len(result.groups)):
        subs = result.subdomains(g)
        for i in result.groups[g]:
            if not respects(subs, h.subdomain(int(req[i])), h):
                return False
    cost = sum(h.range(int(d)) for d in result.domains)
    return math.isclose(cost, result.cost, abs_tol=1e-9)


# ---------------------------------------------------------------------------- helpers


def _uniform_weights(h: SAHierarchy) -> list[int]:
    """Edge weights of the uniform target: leaves below each node."""
    sizes = np.zeros(h.n_nodes, dtype=np.int64)
    for n in range(h.n_nodes - 1, -1, -1):
        sizes[n] = 1 if not h.children[n] else sum(int(sizes[c]) for c in h.children[n])
    return [int(s) for s in sizes]


def _leaf_counts(h: SAHierarchy, leaves: np.ndarray, members: Sequence[int]) -> np.ndarray:
    c = np.zeros(h.n_nodes, dtype=np.int64)
    np.add.at(c, leaves[np.asarray(members, dtype=np.int64)], 1)
    for n in range(h.n_nodes - 1, 0, -1):
        c[h.parent[n]] += c[n]
    return c


def _assign(
    h: SAHierarchy, leaves: np.ndarray, req_range: np.ndarray, members: list[int], nodes: list[int]
) -> dict[int, int]:
    """Give every member one of ``nodes`` containing its value, deepest nodes first.

    Feasible whenever ``nodes`` came from Algorithm 3 on ``members`` (an ancestor contains
    all leftovers of its subtree).  Among candidates the smallest requirement goes first, so
    large requirements meet large domains.  O(|nodes| · |members|).
    """
    free = sorted(members, key=lambda i: (req_range[i], i))
    out: dict[int, int] = {}
    for node in sorted(nodes, key=lambda n: -int(h.depth[n])):
        lo, hi = h.lo[node], h.hi[node]
        for pos, i in enumerate(free):
            if lo <= h.lo[leaves[i]] <= hi:
                out[i] = node
                del free[pos]
                break
        else:  # pragma: no cover - guarded by Algorithm 3's construction
            raise AssertionError("no member fits a generalized subdomain")
    return out


def _prepare(values: Any, requirements: Sequence[Any], hierarchy: SAHierarchy):
    if not isinstance(hierarchy, SAHierarchy):
        raise ConfigError("hierarchy: an SAHierarchy expected (see SAHierarchy.balanced)")
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    leaves = hierarchy.leaf_of[hierarchy.locate(x)]
    req = requirement_nodes(x, requirements, hierarchy)
    req_range = np.array([hierarchy.range(int(r)) for r in req])
    return x, leaves, req, req_range


def _is_under(h: SAHierarchy, node: int, top: int) -> bool:
    return bool(
        h.lo[top] <= h.lo[node] and h.hi[node] <= h.hi[top] and h.depth[node] >= h.depth[top]
    )


# ---------------------------------------------------------------------------- Algorithm 9


def min_gen_uniform_one_group(
    values: Any, requirements: Sequence[Any], hierarchy: SAHierarchy
) -> PersonalizedResult:
    """Algorithm 6 MinGenUniformOneGrp (seed 001 §2.4, dissertation L5712–5740).

    One owner group, uniform target.  Every pair is put at its requirement node; by
    Theorem 9 every tuple under a requirement node B may be raised to B, so
    ``GetBigDomains`` ("details omitted") is read as the maximal requirement nodes — the
    requirement nodes with no requirement node above them; they are disjoint and hold every
    tuple.  Each is generalized on its own by Ch. 3's Algorithm 3 (uniform target on B) —
    the text's observation that the values under different big domains can be separate
    subgroups — so the result has one group per big domain.  On the text's first
    counterexample it yields {1..8} ∪ {1–8}×3 as stated (L5900).
    O(n·depth + |H|) plus the assignment of tuples to subdomains, O(n²) worst case.
    """
    x, leaves, req, req_range = _prepare(values, requirements, hierarchy)
    h = hierarchy
    w = _uniform_weights(h)
    req_set = set(int(r) for r in req)
    big = [r for r in sorted(req_set) if not any(a in req_set for a in h.ancestors(r)[1:])]
    domains = np.empty(x.size, dtype=np.int64)
    groups: list[list[int]] = []
    for b in big:
        members = [i for i in range(x.size) if _is_under(h, int(leaves[i]), b)]
        counts = _leaf_counts(h, leaves, members)
        nodes = _msor_nodes(h, counts, b, len(members), w)
        for i, d in _assign(h, leaves, req_range, members, nodes).items():
            domains[i] = d
        groups.append(sorted(members))
    cost = float(sum(h.range(int(d)) for d in domains))
    return PersonalizedResult(groups, domains, cost, "MinGenUniformOneGrp", h)


def min_gen_uniform_multi_group(
    values: Any, requirements: Sequence[Any], hierarchy: SAHierarchy, keys: Sequence[Any]
) -> PersonalizedResult:
    """Algorithm 7 MinGenUniformMultiGrp (seed 001 §2.4, dissertation L5756–5770).

    Tuples are grouped by their quasi-identifier values (``keys``: one hashable per tuple,
    e.g. a tuple of its QI values) and :func:`min_gen_uniform_one_group` runs on each group;
    a query then selects all or none of a group's tuples.  The seed notes this ignores the
    sensitive values, so its sum of ranges is usually above the single-group one.
    O(n log n) for the grouping plus Algorithm 6 on every group.
    """
    x = np.asarray(values, dtype=np.float64).reshape(-1)
    reqs = list(requirements)
    key_list = list(keys)
    if len(key_list) != x.size or len(reqs) != x.size:
        raise InputError(
            f"keys and requirements: one per value ({x.size}), got {len(key_list)} keys and "
            f"{len(reqs)} requirements"
        )
    by_key: dict[Any, list[int]] = {}
    for i, key in enumerate(key_list):
        by_key.setdefault(key, []).append(i)
    domains = np.empty(x.size, dtype=np.int64)
    groups: list[list[int]] = []
    for members in by_key.values():
        sub = min_gen_uniform_one_group(x[members], [reqs[i] for i in members], hierarchy)
        for j, d in enumerate(sub.domains):
            domains[members[j]] = d
        groups.extend([members[j] for j in grp] for grp in sub.groups)
    cost = float(sum(hierarchy.range(int(d)) for d in domains))
    return PersonalizedResult(groups, domains, cost, "MinGenUniformMultiGrp", hierarchy)


def min_sor_td(
    values: Any, requirements: Sequence[Any], hierarchy: SAHierarchy
) -> PersonalizedResult:
    """Algorithm 9 MinSORtd (seed 001 §2.4, L5885), read as Algorithm 6 + Theorem 9.

    While some tuple's requirement is at the current root, the text emits a "global
    generalization" group whose largest domains go to the tuples with the largest Rᵢ, then
    recurses into the subtrees.  By Theorem 9 every tuple under a requirement node B may be
    raised to B, so the global generalization of *all* values under B (Ch. 3 Algorithm 3,
    uniform target on B) respects everybody there; the tuples under B are thus one group,
    and the recursion continues only into subtrees without a requirement above them — i.e.
    one group per maximal requirement domain: exactly :func:`min_gen_uniform_one_group`
    (Algorithm 6).  O(n·depth + |H|) plus the assignment, O(n²) worst case.
    """
    return replace(min_gen_uniform_one_group(values, requirements, hierarchy), method="MinSORtd")


# ---------------------------------------------------------------------------- Algorithm 8


def _frontier(h: SAHierarchy, top: int, depth: int) -> list[int]:
    """Nodes under ``top`` at ``depth``, or leaves above it (the 'leaf level' at depth)."""
    out, stack = [], [top]
    while stack:
        n = stack.pop()
        if h.depth[n] == depth or not h.children[n]:
            out.append(n)
        else:
            stack.extend(h.children[n])
    return out


def _find_min_group(
    h: SAHierarchy,
    top: int,
    alive: list[int],
    leaves: np.ndarray,
    req: np.ndarray,
    req_range: np.ndarray,
    leaf_load: dict[int, int],
) -> tuple[Fraction, int, list[tuple[int, int]]] | None:
    """Best candidate group uniform over ``top``: (average saving, size, [(tuple, node)])."""
    eligible = [i for i in alive if _is_under(h, int(req[i]), top)]
    if not eligible:
        return None
    best = None
    max_depth = max(int(h.depth[leaves[i]]) for i in eligible)
    for d in range(int(h.depth[top]), max_depth + 1):
        blocks = _frontier(h, top, d)
        sizes = [len(h.leaves_under(b)) for b in blocks]
        g = reduce(math.gcd, sizes, 0)
        chosen: list[tuple[int, int]] = []
        saving = 0.0
        ok = True
        for b, s in zip(blocks, sizes, strict=True):
            cand = [i for i in eligible if _is_under(h, int(leaves[i]), b)]
            need = s // g
            if len(cand) < need:
                ok = False
                break
            # largest requirement first; ties toward the most crowded leaf (the text's
            # "keep the remaining values balanced", L5866), then the lowest index
            cand.sort(key=lambda i: (-req_range[i], -leaf_load[int(leaves[i])], i))
            for i in cand[:need]:
                chosen.append((i, b))
                saving += req_range[i] - h.range(b)
        if not ok:
            continue
        avg = Fraction(saving).limit_denominator(10**9) / len(chosen)
        key = (avg, len(chosen))
        if best is None or key > (best[0], best[1]):
            best = (avg, len(chosen), chosen)
    return best


def min_sor_bu(
    values: Any, requirements: Sequence[Any], hierarchy: SAHierarchy
) -> PersonalizedResult:
    """Algorithm 8 MinSORbu, bottom-up by maximum average saving (seed 001 §2.4, L5860).

    The saving of tuple i generalized to D is sᵢ = range(Rᵢ) − range(D) (may be < 0); a
    group's average saving is Σsᵢ/|g| — the text's fix of the maximum-total-saving rule
    (L5840–5850).  ``FindMinGroup`` is not defined in the text; ours, for every node U with
    remaining tuples and every level below U: take the level's blocks under U (a leaf above
    the level is its own block), |B|/gcd copies of each block B, each filled by a remaining
    tuple with value in B and Rᵢ ⊆ U — largest Rᵢ first, ties toward the most crowded leaf
    (the text's balancing suggestion, L5866).  Such a group is uniform on U, hence respects
    every member's Rᵢ ⊆ U.  The candidate with the largest average (then the larger group)
    is extracted; repeat until no tuple is left.  A tuple alone at its own Rᵢ is always a
    candidate, so the loop ends.  Step 2 of the early variant (extract full-leaf partitions
    first) is dropped as the text does after its counterexample.
    O(n · |H| · depth · n) — meant for small groups and for studying the heuristic.
    """
    x, leaves, req, req_range = _prepare(values, requirements, hierarchy)
    h = hierarchy
    alive = list(range(x.size))
    domains = np.empty(x.size, dtype=np.int64)
    groups: list[list[int]] = []
    while alive:
        load: dict[int, int] = {}
        for i in alive:
            load[int(leaves[i])] = load.get(int(leaves[i]), 0) + 1
        tops = sorted({a for i in alive for a in h.ancestors(int(leaves[i]))})
        best = None
        for top in tops:
            cand = _find_min_group(h, top, alive, leaves, req, req_range, load)
            if cand is not None and (best is None or (cand[0], cand[1]) > (best[0], best[1])):
                best = cand
        assert best is not None
        members = [i for i, _ in best[2]]
        for i, b in best[2]:
            domains[i] = b
        groups.append(sorted(members))
        taken = set(members)
        alive = [i for i in alive if i not in taken]
    cost = float(sum(h.range(int(d)) for d in domains))
    return PersonalizedResult(groups, domains, cost, "MinSORbu", h)


# ---------------------------------------------------------------------------- exact


def exact_ppp(
    values: Any, requirements: Sequence[Any], hierarchy: SAHierarchy
) -> PersonalizedResult:
    """The optimum of PPP by exhaustion, for at most 8 tuples.

    For every subset of tuples, the cheapest generalization respecting all its members
    (every tuple to an ancestor-or-self of its leaf; vectorized over all choices with integer
    probabilities), then the best set partition by dynamic programming over subsets.
    O(Σ_T Π_{i∈T}(depth_i+1) · |D| + 3ⁿ); a few seconds for 8 tuples on 16 leaves.
    """
    x, leaves, req, _ = _prepare(values, requirements, hierarchy)
    n = x.size
    if n > EXACT_LIMIT:
        raise ConfigError(
            f"exact_ppp: {n} values given; the exhaustive search is limited to {EXACT_LIMIT} "
            "(use min_sor_bu / min_sor_td for larger inputs)"
        )
    h = hierarchy
    if n == 0:
        return PersonalizedResult([], np.empty(0, dtype=np.int64), 0.0, "exact", h)
    sizes = np.array([len(h.leaves_under(v)) for v in range(h.n_nodes)], dtype=np.int64)
    lcm = reduce(math.lcm, (int(s) for s in sizes), 1)
    contrib = np.zeros((h.n_nodes, h.values.size), dtype=np.int64)
    for v in range(h.n_nodes):
        contrib[v, h.leaves_under(v)] = lcm // sizes[v]
    ranges = np.array([h.range(v) for v in range(h.n_nodes)])
    anc = [np.array(h.ancestors(int(leaf)), dtype=np.int64) for leaf in leaves]
    req_cols = [h.leaves_under(int(r)) for r in req]

    full = (1 << n) - 1
    gcost = np.full(full + 1, np.inf)
    gchoice: dict[int, np.ndarray] = {}
    for mask in range(1, full + 1):
        members = [i for i in range(n) if mask >> i & 1]
        grids = np.meshgrid(*[anc[i] for i in members], indexing="ij")
        choice = np.stack([g.reshape(-1) for g in grids], axis=1)  # (C, |T|)
        prob = np.zeros((choice.shape[0], h.values.size), dtype=np.int64)  # (C, |D|)
        for k in range(choice.shape[1]):
            prob += contrib[choice[:, k]]
        ok = np.ones(choice.shape[0], dtype=bool)
        for i in members:
            cols = prob[:, req_cols[i]]
            ok &= cols.min(axis=1) == cols.max(axis=1)
        if not ok.any():  # pragma: no cover - all-root always respects
            continue
        cost = ranges[choice].sum(axis=1)
        cost[~ok] = np.inf
        j = int(np.argmin(cost))
        gcost[mask] = cost[j]
        gchoice[mask] = choice[j]

    best = np.full(full + 1, np.inf)
    arg = np.zeros(full + 1, dtype=np.int64)
    best[0] = 0.0
    for mask in range(1, full + 1):
        low = mask & -mask
        rest = mask ^ low
        sub = rest
        while True:
            part = sub | low
            c = gcost[part] + best[mask ^ part]
            if c < best[mask]:
                best[mask], arg[mask] = c, part
            if sub == 0:
                break
            sub = (sub - 1) & rest
    domains = np.empty(n, dtype=np.int64)
    groups: list[list[int]] = []
    mask = full
    while mask:
        part = int(arg[mask])
        members = [i for i in range(n) if part >> i & 1]
        for i, d in zip(members, gchoice[part], strict=True):
            domains[i] = d
        groups.append(members)
        mask ^= part
    return PersonalizedResult(groups, domains, float(best[full]), "exact", h)


# ---------------------------------------------------------------------------- publishing

METHODS = {
    "bu": min_sor_bu,
    "td": min_sor_td,
    "exact": exact_ppp,
    "one-group": min_gen_uniform_one_group,
    "qi-groups": min_gen_uniform_multi_group,
}


def personalized_release(
    frame: Any,
    *,
    qi: Any,
    sensitive: str,
    requirements: Any,
    hierarchy: SAHierarchy,
    method: str = "bu",
    seed: Any = None,
    identifying: Any = (),
    insensitive: Any = (),
    keep_other_columns: bool = False,
) -> PermutationRelease:
    """Publish ``frame`` meeting every row's personal requirement (seed 001 §2.4, Ch. 5).

    ``requirements``: a column name or one entry per row (a height ≥ 0 or a subdomain
    ``(lo, hi)``, see :func:`requirement_nodes`).  ``method``: ``"bu"`` (:func:`min_sor_bu`),
    ``"td"`` (:func:`min_sor_td`), ``"exact"`` (≤ 8 rows), ``"one-group"`` (Algorithm 6,
    :func:`min_gen_uniform_one_group`) or ``"qi-groups"`` (Algorithm 7,
    :func:`min_gen_uniform_multi_group` on the rows' QI values).  Each group of the result is one
    release group whose SA rows are its members' subdomains; the QI rows are shuffled as in
    every permutation release.  Complexity: that of the method.
    """
    if method not in METHODS:
        raise ConfigError(f"method: {method!r} unknown; use one of {sorted(METHODS)}")
    df = as_polars(frame)
    roles = check_roles(
        df, qi, sensitive, identifying=identifying, insensitive=insensitive,
        keep_other_columns=keep_other_columns,
        used=requirements if isinstance(requirements, str) else (),
    )  # fmt: skip
    qi = roles.quasi_identifiers
    x = numeric_sensitive(df, sensitive)
    if isinstance(requirements, str):
        if requirements not in df.columns:
            raise InputError(
                f"requirements: column {requirements!r} not found; the table has {df.columns}"
            )
        reqs = df[requirements].to_list()
    else:
        reqs = list(requirements)
    hierarchy.locate(x, what="row")
    if method == "qi-groups":
        keys = list(df.select(qi).iter_rows())
        res = min_gen_uniform_multi_group(x, reqs, hierarchy, keys)
    else:
        res = METHODS[method](x, reqs, hierarchy)
    gid = np.empty(x.size, dtype=np.int64)
    rows_g, rows_lo, rows_hi = [], [], []
    for g, members in enumerate(res.groups):
        gid[members] = g
        for lo, hi in res.subdomains(g):
            rows_g.append(g)
            rows_lo.append(lo)
            rows_hi.append(hi)
    sa = pl.DataFrame(
        {"group_id": rows_g, "lo": rows_lo, "hi": rows_hi},
        schema={"group_id": pl.Int64, "lo": pl.Float64, "hi": pl.Float64},
    )
    params = {
        "model": "personalized",
        "method": res.method,
        "n_groups": len(res.groups),
        "sum_of_ranges": res.cost,
        "insecure_seed": is_insecure_seed(seed),
    }
    return publish(df, roles, gid, sa, "numeric", params, seed)
