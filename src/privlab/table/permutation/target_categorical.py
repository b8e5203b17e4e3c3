"""Target distributions for a *categorical* sensitive attribute (seed 001 §2.2, §3.3 footnote).

Chapter 3 generalizes sensitive values to the subdomains of a privacy-annotated hierarchy
and minimizes the sum of their ranges (Problem 3.4.1).  For a categorical attribute a
subdomain is a set of categories and, by the footnote at L2697–2699, its "range" is its
*cardinality*.  :class:`CategoricalHierarchy` lays the categories out as the leaves of a
hierarchy, left to right, and numbers them 0..C−1; every node is then a contiguous run of
codes, i.e. an :class:`~privlab.table.permutation.target.SAHierarchy` over the codes, and
a node's cardinality is (hi − lo) + 1 of its codes.  Every tuple gets exactly one subdomain,
so Σ cardinality = Σ (code range) + |g|: minimizing one minimizes the other, and Algorithm 3
(MinSumOfRange, optimal by Theorem 5) solves the categorical problem unchanged —
:func:`min_sum_of_cardinality`.  Fake values (Algorithm 4) and the shift factor work the
same way on the codes.

:func:`categorical_target_release` publishes a table: its SA rows hold the code range
``[lo, hi]`` of each published category set, and ``parameters["categories"]`` the leaf
order that decodes it (:meth:`CategoricalHierarchy.decode`).  The numeric SUM/AVG bounds of
such a release are meaningless; COUNT is exact as always.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.table.permutation.release import PermutationRelease, as_polars
from privlab.table.permutation.target import SAHierarchy, _msor_nodes, target_release


@dataclass(frozen=True, eq=False)
class CategoricalHierarchy:
    """A privacy-annotated hierarchy over categories (leaves in ``categories`` order).

    ``tree`` is the same hierarchy over the codes 0..C−1.  Build with :meth:`balanced` or
    :meth:`from_nested`.
    """

    categories: tuple[str, ...]
    tree: SAHierarchy

    @classmethod
    def balanced(
        cls, categories: Iterable[Any], weights: Any = None, *, arity: int = 2
    ) -> CategoricalHierarchy:
        """A balanced tree over ``categories`` in the given order; ``weights`` as for
        :meth:`SAHierarchy.balanced` (one per category, in this order).  O(C log C)."""
        cats = tuple(str(c) for c in categories)
        if len(set(cats)) != len(cats) or not cats:
            raise ConfigError("categories: a non-empty list of distinct names expected")
        return cls(cats, SAHierarchy.balanced(range(len(cats)), weights, arity=arity))

    @classmethod
    def from_nested(cls, spec: Any) -> CategoricalHierarchy:
        """From nested ``(weight, child)`` pairs whose leaves are category names, e.g.
        ``[(1, [(1, "flu"), (1, "cold")]), (1, [(1, "hiv"), (1, "cancer")])]``.  O(|H|)."""
        cats: list[str] = []

        def code(s: Any) -> Any:
            if isinstance(s, (list, tuple)):
                return [
                    (item[0], code(item[1])) if isinstance(item, (list, tuple)) and len(item) == 2
                    else item  # malformed: SAHierarchy.from_nested names it
                    for item in s
                ]  # fmt: skip
            cats.append(str(s))
            return len(cats) - 1

        tree = SAHierarchy.from_nested(code(spec))
        if len(set(cats)) != len(cats):
            raise ConfigError("hierarchy: every category must appear as exactly one leaf")
        return cls(tuple(cats), tree)

    def encode(self, values: Any) -> np.ndarray:
        """Codes of ``values``; a value that is no leaf raises :class:`InputError` (naming
        the first such row, not the value).  O(n)."""
        index = {c: i for i, c in enumerate(self.categories)}
        vals = [str(v) for v in (values.to_list() if hasattr(values, "to_list") else values)]
        out = np.empty(len(vals), dtype=np.int64)
        for r, v in enumerate(vals):
            if v not in index:
                raise InputError(
                    f"row {r}: the sensitive value is not a category of the hierarchy "
                    f"({len(self.categories)} categories); add it as a leaf"
                )
            out[r] = index[v]
        return out

    def cardinality(self, node: int) -> int:
        """Categories under ``node`` (a leaf: 1)."""
        return int(self.tree.hi[node] - self.tree.lo[node]) + 1

    def decode(self, lo: float, hi: float) -> tuple[str, ...]:
        """The category set of a published code range."""
        return self.categories[int(lo) : int(hi) + 1]


def min_sum_of_cardinality(values: Any, hierarchy: CategoricalHierarchy) -> list[tuple[str, ...]]:
    """A P-private generalization of categorical ``values`` with least Σ cardinality.

    Seed 001 §2.2, Problem 3.4.1 with the §3.3 footnote's cardinality as the range;
    Algorithm 3 on the codes (see the module docstring for why it stays optimal).  Returns
    the multiset of category sets, sorted.  O(|g| + |H|).
    """
    if not isinstance(hierarchy, CategoricalHierarchy):
        raise ConfigError("hierarchy: a CategoricalHierarchy expected")
    codes = hierarchy.encode(values)
    t = hierarchy.tree
    nodes = _msor_nodes(t, t.counts(codes.astype(np.float64)), 0, int(codes.size))
    return sorted(hierarchy.decode(t.lo[n], t.hi[n]) for n in nodes)


def sum_of_cardinality(subsets: Iterable[Sequence[Any]]) -> int:
    """Σ |D| over a multiset of category sets."""
    return int(sum(len(s) for s in subsets))


def categorical_target_release(
    frame: Any, *, qi: Any, sensitive: str, hierarchy: CategoricalHierarchy, **options: Any
) -> PermutationRelease:
    """:func:`target_release` for a categorical ``sensitive`` column (seed 001 §3.3 footnote).

    The column is replaced by its codes, the release is made on ``hierarchy.tree`` (all of
    ``target_release``'s options: groups, mode, max_fakes, shift, seed, roles), and
    ``parameters`` gain ``categories`` (the leaf order that decodes every SA row's
    ``[lo, hi]``) and ``sum_of_cardinality`` (= sum of ranges + published SA rows).  O(n) on
    top of ``target_release``.
    """
    if not isinstance(hierarchy, CategoricalHierarchy):
        raise ConfigError("hierarchy: a CategoricalHierarchy expected")
    df = as_polars(frame)
    if sensitive not in df.columns:
        raise InputError(f"sensitive: column {sensitive!r} not found; the table has {df.columns}")
    coded = df.with_columns(pl.Series(sensitive, hierarchy.encode(df[sensitive])))
    rel = target_release(coded, qi=qi, sensitive=sensitive, hierarchy=hierarchy.tree, **options)
    rel.parameters["categories"] = list(hierarchy.categories)
    rel.parameters["sum_of_cardinality"] = (
        float(rel.parameters.get("sum_of_ranges", 0.0)) + rel.sa.height
    )
    return rel


__all__ = [
    "CategoricalHierarchy",
    "categorical_target_release",
    "min_sum_of_cardinality",
    "sum_of_cardinality",
]
