"""Permutation-based publishing (seed 001): (k, e)-anonymous permutation and Anatomy.

* :func:`permute` — numeric sensitive attribute, (k, e)-anonymous groups from
  :func:`ke_partition` (min-sum, min-max, max-group, random, swap), values published per
  group in ascending order (seed 001 §2.1, §2.6).
* :func:`anatomy` — categorical sensitive attribute, ℓ-diverse groups (Xiao & Tao 2006);
  :func:`anatomy_count_bounds` for COUNT of a value over a QI selection.
* :class:`PermutationRelease` — QI table + SA table joined by group id; ``write``/``read``;
  ``bounds(agg, where)`` and ``help_table()`` via :mod:`privlab.bounds`.
"""

from privlab.table.permutation.anatomy import anatomy, anatomy_count_bounds, anatomy_groups
from privlab.table.permutation.partition import (
    METHODS,
    Partition,
    exhaustive_partition,
    is_ke_anonymous,
    ke_partition,
)
from privlab.table.permutation.release import (
    PermutationRelease,
    permute,
    release_from_groups,
)

__all__ = [
    "METHODS",
    "Partition",
    "PermutationRelease",
    "anatomy",
    "anatomy_count_bounds",
    "anatomy_groups",
    "exhaustive_partition",
    "is_ke_anonymous",
    "ke_partition",
    "permute",
    "release_from_groups",
]
