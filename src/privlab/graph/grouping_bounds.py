"""Answering queries on a safe (k, ℓ)-grouped bipartite graph: exact where the release
allows it, otherwise deterministic lower and upper bounds and an expected value.

Source: seed 001 §2.3 (dissertation §4.4.4, Examples 7–10, Theorem 7).  The release fixes,
per group, how many members satisfy an attribute predicate (entity attributes and groups are
public) but not which; between a left group i (k_i nodes, a_i satisfying) and a right group
j (ℓ_j nodes, b_j satisfying) the c_ij edges form a matching, so:

* **type 2** — "how many right nodes satisfying Q have a neighbour satisfying P" (Example 7,
  e.g. SIGMOD papers with a US author): U_ij = min(a_i, b_j, c_ij), U_j = min(Σ_i U_ij, b_j);
  L_ij = max(0, a_i + b_j + c_ij − k_i − ℓ_j), L_j = max_i L_ij (the text's "Σ_i L_i" is a
  typo); E_ij = a_i b_j c_ij / (k_i ℓ_j²), E_j = ℓ_j (1 − Π_i (1 − E_ij)) assuming
  independence; totals are sums over j.  O(number of group pairs with an edge) ≤ O(m).
* **type 1** — an attribute predicate P on one side and any structural value of its nodes
  (:func:`type1_query`; e.g. papers of US authors = Σ degree, single-author papers
  satisfying Pa = Σ [degree = 1]): the values of a group's masked members are public as a
  multiset, so the sum lies between the a_i smallest and the a_i largest of them; expected
  a_i/k_i of the group's total.  O(m).
* **type 0** — structure only (e.g. average degree) is exact.
* **max per node** (Example 8, e.g. the most single-author VLDB papers by a US author):
  :func:`type2_max` — upper and lower counts per node from its exact neighbourhood,
  combined over the groups; expected value of the maximum under independence.

Errors of an answer (L5179–5190): worst case (U − L)/(2Q) using (U + L)/2; expected |E − Q|/Q.
The type-1 group → bounds arithmetic lives in :mod:`privlab.bounds`, shared with permutation
publishing (seed 001 §2.1, issue 5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.bounds import GroupedValues
from privlab.errors import InputError
from privlab.graph.anonymize.grouping import Bipartite, GroupedGraph
from privlab.validate import check_choice


def worst_case_error(lower: float, upper: float, true: float) -> float | None:
    """(U − L)/(2Q): the error bound of answering (U + L)/2 when the truth is Q.

    Seed 001 §2.3, dissertation L5179–5190 (the utility metric of Figs 4.6–4.8).  Relative to
    |Q| (the seed's answers are counts, Q ≥ 0); ``None`` when Q = 0 (undefined).  Since
    L ≤ Q ≤ U, |(U + L)/2 − Q| ≤ (U − L)/2, so the value bounds the midpoint's relative
    error.  O(1).
    """
    if not true:
        return None
    return (float(upper) - float(lower)) / (2 * abs(float(true)))


def expected_error(expected: float, true: float) -> float | None:
    """|E − T|/T: the relative error of the expected value (seed 001 L5179–5190).

    ``None`` when T = 0 (undefined).  O(1).
    """
    if not true:
        return None
    return abs(float(expected) - float(true)) / abs(float(true))


@dataclass(frozen=True)
class Bounds:
    """Deterministic bounds, an expected value and (for the data owner) the true answer."""

    lower: float
    upper: float
    expected: float
    true: float | None = None

    @property
    def worst_case_error(self) -> float | None:
        """(U − L)/(2Q): the error of answering (U + L)/2 (seed 001 L5179)."""
        return None if self.true is None else worst_case_error(self.lower, self.upper, self.true)

    @property
    def expected_error(self) -> float | None:
        """|E − Q|/Q (seed 001 L5179)."""
        return None if self.true is None else expected_error(self.expected, self.true)

    def to_dict(self) -> dict[str, Any]:
        return {
            "lower": self.lower,
            "upper": self.upper,
            "expected": self.expected,
            "true": self.true,
            "worst_case_error": self.worst_case_error,
            "expected_error": self.expected_error,
        }


def _mask(pred: Any, n: int, name: str) -> np.ndarray:
    arr = np.asarray(pred)
    if arr.dtype != bool or arr.shape != (n,):
        raise InputError(f"{name}: a boolean array with one entry per node ({n}) expected")
    return arr


def type2_count(grouped: GroupedGraph, left_pred: Any, right_pred: Any) -> Bounds:
    """Bounds on |{w : Q(w) and w has a neighbour v with P(v)}| (Example 7)."""
    g = grouped.graph
    p = _mask(left_pred, g.n_left, "left_pred")
    q = _mask(right_pred, g.n_right, "right_pred")
    k_i = np.bincount(grouped.left_groups)
    l_j = np.bincount(grouped.right_groups)
    a = np.bincount(grouped.left_groups, weights=p, minlength=k_i.size)
    b = np.bincount(grouped.right_groups, weights=q, minlength=l_j.size)
    i, j, c = grouped.group_pair_edges()
    u_ij = np.minimum(np.minimum(a[i], b[j]), c)
    l_ij = np.maximum(0, a[i] + b[j] + c - k_i[i] - l_j[j])
    e_ij = a[i] * b[j] * c / (k_i[i] * l_j[j] ** 2)
    n_j = l_j.size
    upper = np.minimum(np.bincount(j, weights=u_ij, minlength=n_j), b).sum()
    lower_j = np.zeros(n_j)
    np.maximum.at(lower_j, j, l_ij)
    log_miss = np.zeros(n_j)
    with np.errstate(divide="ignore"):  # E_ij = 1: the group surely has a hit (log 0)
        np.add.at(log_miss, j, np.log1p(-np.minimum(e_ij, 1.0)))
    expected = (l_j * (1 - np.exp(log_miss))).sum()
    hit = np.zeros(g.n_right, dtype=bool)
    hit[g.edges[p[g.edges[:, 0]], 1]] = True
    return Bounds(float(lower_j.sum()), float(upper), float(expected), float((hit & q).sum()))


STRUCTURAL = ("degree", "single", "count")
TYPE1_AGGREGATES = ("sum", "avg", "count")


def structural_values(graph: Bipartite, side: str, value: Any) -> np.ndarray:
    """Per node of ``side``: a value computed from the graph structure alone.

    ``value``: ``"degree"``; ``"single"`` (1 for a node of degree 1 — single-author papers);
    ``"count"`` (1 for every node); or a callable ``graph → array`` (one number per node of
    ``side``) for any other structural predicate or measure, e.g.
    ``lambda g: neighbours_with(g, "left", g.degrees("right") == 1)`` (an author's
    single-author papers).  Structure is published exactly (up to the masking, which keeps
    it), so these values are exact per masked node.  O(m).
    """
    side = check_choice(side, "side", ("left", "right"))
    n = graph.n_left if side == "left" else graph.n_right
    if callable(value):
        out = np.asarray(value(graph), dtype=np.float64)
        if out.shape != (n,):
            raise InputError(f"structural value: one number per {side} node ({n}) expected")
        return out
    value = check_choice(value, "value", STRUCTURAL)
    deg = graph.degrees(side).astype(np.float64)
    if value == "degree":
        return deg
    if value == "single":
        return (deg == 1).astype(np.float64)
    return np.ones(n)


def neighbours_with(graph: Bipartite, side: str, other_mask: Any) -> np.ndarray:
    """Per node of ``side``: its neighbours satisfying a predicate of the other side (a
    structural one, such as degree 1).  O(m)."""
    side = check_choice(side, "side", ("left", "right"))
    other = "right" if side == "left" else "left"
    n_other = graph.n_right if side == "left" else graph.n_left
    q = _mask(other_mask, n_other, f"{other}_mask")
    me, them = (0, 1) if side == "left" else (1, 0)
    n = graph.n_left if side == "left" else graph.n_right
    e = graph.edges
    return np.bincount(e[:, me], weights=q[e[:, them]], minlength=n).astype(np.float64)


def type1_query(
    grouped: GroupedGraph, side: str, attr_pred: Any, value: Any = "count", agg: str = "sum"
) -> Bounds:
    """Bounds on AGG over the ``side`` nodes with attribute predicate P of a structural value.

    The general type-1 query of seed 001 §2.3 (dissertation §4.2.3 and §4.4.4, Queries A and
    B of §4.4.7): e.g. the total number of single-author papers satisfying Pa
    (``side="right"``, ``value="single"``), the average number of authors of papers
    satisfying Pa (``value="degree"``, ``agg="avg"``), the papers of US authors
    (``side="left"``, ``value="degree"``).  A group of k_i nodes publishes the multiset of
    its members' structural values; a_i of them satisfy P, which ones is hidden.  So
    (:class:`privlab.bounds.GroupedValues`) SUM lies between the a_i smallest and the a_i
    largest values of each group, expected (a_i/k_i)·Σ group values; COUNT = Σ a_i is exact;
    AVG = SUM / Σ a_i.  With "single" this gives L_j = max(0, a_j + s_j − ℓ_j),
    U_j = min(a_j, s_j) for s_j single nodes.  ``value`` as in :func:`structural_values`.
    O(m + n log n).
    """
    side = check_choice(side, "side", ("left", "right"))
    agg = check_choice(agg, "agg", TYPE1_AGGREGATES)
    g = grouped.graph
    n = g.n_left if side == "left" else g.n_right
    p = _mask(attr_pred, n, "attr_pred")
    vals = structural_values(g, side, value)
    groups = grouped.left_groups if side == "left" else grouped.right_groups
    gv = GroupedValues.from_groups(groups, vals)
    a = np.bincount(groups, weights=p, minlength=gv.n_groups).astype(np.int64)
    total_a = int(a.sum())
    true_sum = float(vals[p].sum())
    if agg == "count":
        return Bounds(float(total_a), float(total_a), float(total_a), float(total_a))
    lo, hi = gv.sum_bounds(a)
    sizes = gv.sizes
    total = np.bincount(groups, weights=vals, minlength=gv.n_groups)
    expected = float(np.where(sizes > 0, a / np.maximum(sizes, 1) * total, 0.0).sum())
    div = float(total_a) if agg == "avg" else 1.0
    if div == 0:
        return Bounds(0.0, 0.0, 0.0, None)
    return Bounds(float(lo.sum()) / div, float(hi.sum()) / div, expected / div, true_sum / div)


def type1_degree_sum(grouped: GroupedGraph, left_pred: Any) -> Bounds:
    """Bounds on Σ_{v : P(v)} deg(v) (e.g. papers of US authors, counted per author).

    :func:`type1_query` with the left side's degrees (a group's masked degrees are its
    published multiset and its a_i members satisfying P its hits).  O(n log n).
    """
    return type1_query(grouped, "left", left_pred, "degree", "sum")


def _poisson_binomial_tail(probs: np.ndarray) -> np.ndarray:
    """P(C ≥ t) for t = 0..len(probs), C a sum of independent Bernoulli(probs).  O(d²)."""
    pmf = np.zeros(probs.size + 1)
    pmf[0] = 1.0
    for q in probs.tolist():
        pmf[1:] = pmf[1:] * (1 - q) + pmf[:-1] * q
        pmf[0] *= 1 - q
    return np.cumsum(pmf[::-1])[::-1]


def type2_max(
    grouped: GroupedGraph, left_pred: Any, right_pred: Any, right_structural: Any = None
) -> Bounds:
    """Bounds on max over left nodes v with P(v) of |{w ∈ N(v) : Q(w) and S(w)}| (Example 8).

    Seed 001 §2.3 (dissertation Example 8, L5019–5033): "the maximum number of single-author
    VLDB papers by a US author" — P = US (left attribute), Q = VLDB (right attribute),
    S = a structural predicate on the right side (single author: degree 1; exact, since the
    graph structure is published; ``None`` = every right node).  Each left node's
    S-neighbours are known exactly; a neighbour w in a right group with ℓ_j nodes of which
    b_j satisfy Q counts
      * towards the node's upper count when b_j ≥ 1, towards its lower count when b_j = ℓ_j
        (the text's "fewer than ℓ_j" reads inverted; with b_j < ℓ_j the neighbour may fail Q);
      * with probability b_j/ℓ_j towards its expected count.
    Combining over nodes (a left group with k_i nodes, a_i of them satisfying P):
      * U = max of the upper counts over the groups with a_i ≥ 1 (only they hold P-nodes);
      * L = max over groups with a_i ≥ 1 of the a_i-th *smallest* lower count in the group —
        whichever a_i members satisfy P, the largest of their counts is at least that (the
        seed says only "these imply bounds on the global maximum");
      * E = E[max] when each node satisfies P with probability a_i/k_i and each neighbour Q
        with b_j/ℓ_j, all independent (the seed's model): Σ_t≥1 (1 − Π_v (1 − π_v P(C_v ≥ t))),
        C_v Poisson-binomial.
    The answer is 0 when no left node satisfies P.  ``true`` is the data owner's answer.
    O(m) for the bounds; the expectation adds O(Σ_v d_v²) over the S-neighbourhoods.
    """
    g = grouped.graph
    p = _mask(left_pred, g.n_left, "left_pred")
    q = _mask(right_pred, g.n_right, "right_pred")
    s = (
        np.ones(g.n_right, dtype=bool)
        if right_structural is None
        else _mask(right_structural, g.n_right, "right_structural")
    )
    lg, rg = grouped.left_groups, grouped.right_groups
    k_i = np.bincount(lg)
    l_j = np.bincount(rg)
    a = np.bincount(lg, weights=p, minlength=k_i.size)
    b = np.bincount(rg, weights=q, minlength=l_j.size)
    e = g.edges[s[g.edges[:, 1]]]
    v, w = e[:, 0], e[:, 1]
    j = rg[w]
    up = np.bincount(v, weights=b[j] >= 1, minlength=g.n_left)
    lo = np.bincount(v, weights=b[j] == l_j[j], minlength=g.n_left)
    cand = a[lg] >= 1
    upper = float(up[cand].max()) if cand.any() else 0.0
    lower = 0.0
    for gi in np.flatnonzero(a >= 1):
        members = np.sort(lo[lg == gi])
        lower = max(lower, float(members[int(a[gi]) - 1]))
    # expectation under independence
    pi = a[lg] / k_i[lg]
    order = np.argsort(v, kind="stable")
    v_s, prob = v[order], (b[j] / l_j[j])[order]
    starts = np.searchsorted(v_s, np.arange(g.n_left + 1))
    t_max = int(upper)
    log_none = np.zeros(t_max + 1)  # Σ_v log(1 − π_v P(C_v ≥ t))
    for node in np.flatnonzero(cand & (starts[1:] > starts[:-1])):
        tail = _poisson_binomial_tail(prob[starts[node] : starts[node + 1]])
        t = min(tail.size, t_max + 1)
        with np.errstate(divide="ignore"):
            log_none[:t] += np.log1p(-np.minimum(pi[node] * tail[:t], 1.0))
    expected = float((1 - np.exp(log_none[1:])).sum())
    hits = np.bincount(v, weights=q[w], minlength=g.n_left)
    true = float(hits[p].max()) if p.any() else 0.0
    return Bounds(lower, upper, expected, true)


def learned_links(grouped: GroupedGraph, revealed: Any) -> dict[str, Any]:
    """What r revealed true edges expose (Theorem 7), simulated on this release.

    A revealed edge (v, w) places v and w in their groups; if it is the only edge between
    the two groups (c_ij = 1) the masked endpoints are pinned, so v and w become singletons.
    Returns the singletons split off and the smallest remaining group sizes; Theorem 7
    guarantees at least a (k − r, ℓ − r)*(r, r)-grouping.  O(m + r).
    """
    e = np.asarray(revealed, dtype=np.int64).reshape(-1, 2)
    g = grouped.graph
    edge_set = {(int(v), int(w)) for v, w in g.edges.tolist()}
    for v, w in e.tolist():
        if (v, w) not in edge_set:
            raise InputError(f"revealed edge ({v}, {w}) is not an edge of the graph")
    i, j, c = grouped.group_pair_edges()
    single = {(int(a), int(b)) for a, b, n in zip(i, j, c, strict=True) if n == 1}
    pinned_left, pinned_right = set(), set()
    for v, w in e.tolist():
        if (int(grouped.left_groups[v]), int(grouped.right_groups[w])) in single:
            pinned_left.add(v)
            pinned_right.add(w)
    left_sizes = np.bincount(grouped.left_groups).astype(np.int64)
    right_sizes = np.bincount(grouped.right_groups).astype(np.int64)
    for v in pinned_left:
        left_sizes[grouped.left_groups[v]] -= 1
    for w in pinned_right:
        right_sizes[grouped.right_groups[w]] -= 1
    r = int(e.shape[0])
    return {
        "revealed": r,
        "left_singletons": len(pinned_left),
        "right_singletons": len(pinned_right),
        "smallest_left_group": int(left_sizes[left_sizes > 0].min()) if left_sizes.any() else 0,
        "smallest_right_group": int(right_sizes[right_sizes > 0].min()) if right_sizes.any() else 0,
        "theorem_7_guarantee": [max(grouped.k - r, 1), max(grouped.ell - r, 1)],
    }


__all__ = [
    "STRUCTURAL",
    "Bounds",
    "expected_error",
    "learned_links",
    "neighbours_with",
    "structural_values",
    "type1_degree_sum",
    "type1_query",
    "type2_count",
    "type2_max",
    "worst_case_error",
]
