"""Permutation-based publishing (seed 001): (k, e)-anonymous permutation and Anatomy.

* :func:`permute` — numeric sensitive attribute, (k, e)-anonymous groups from
  :func:`ke_partition` (min-sum, min-max, max-group, random, swap), values published per
  group in ascending order (seed 001 §2.1, §2.6).
* :func:`anatomy` — categorical sensitive attribute, ℓ-diverse groups (Xiao & Tao 2006);
  :func:`anatomy_count_bounds` for COUNT of a value over a QI selection.
* :func:`target_release` — publish subdomains that disguise the SA distribution as a target
  distribution (seed 001 ch. 3: :class:`SAHierarchy`, :func:`min_sum_of_range`,
  :func:`min_sor_fake`, :func:`shifted_hierarchy`).
* :func:`personalized_release` — per-row privacy requirements (seed 001 ch. 5:
  :func:`min_sor_bu`, :func:`min_sor_td`, :func:`exact_ppp` for small inputs).
* :class:`PermutationRelease` — QI table + SA table joined by group id; ``write``/``read``;
  ``bounds(agg, where)`` and ``help_table()`` via :mod:`privlab.bounds`.
"""

from privlab.table.permutation.anatomy import anatomy, anatomy_count_bounds, anatomy_groups
from privlab.table.permutation.ldiv_partition import LDiversityPartition, ldiversity_partition
from privlab.table.permutation.partition import (
    METHODS,
    Partition,
    exhaustive_partition,
    is_ke_anonymous,
    ke_partition,
)
from privlab.table.permutation.partition_exact import exact_min_max_partition
from privlab.table.permutation.personalized import (
    exact_ppp,
    min_gen_uniform_multi_group,
    min_gen_uniform_one_group,
    min_sor_bu,
    min_sor_td,
    personalized_release,
)
from privlab.table.permutation.release import (
    PermutationRelease,
    permute,
    release_from_groups,
)
from privlab.table.permutation.target import (
    SAHierarchy,
    max_m_bound_allocation,
    min_sor_fake,
    min_sum_of_range,
    shifted_hierarchy,
    target_release,
)
from privlab.table.permutation.target_categorical import (
    CategoricalHierarchy,
    categorical_target_release,
    min_sum_of_cardinality,
)

__all__ = [
    "METHODS",
    "CategoricalHierarchy",
    "LDiversityPartition",
    "Partition",
    "PermutationRelease",
    "SAHierarchy",
    "anatomy",
    "anatomy_count_bounds",
    "anatomy_groups",
    "categorical_target_release",
    "exact_min_max_partition",
    "exact_ppp",
    "exhaustive_partition",
    "is_ke_anonymous",
    "ke_partition",
    "ldiversity_partition",
    "max_m_bound_allocation",
    "min_gen_uniform_multi_group",
    "min_gen_uniform_one_group",
    "min_sor_bu",
    "min_sor_fake",
    "min_sor_td",
    "min_sum_of_cardinality",
    "min_sum_of_range",
    "permute",
    "personalized_release",
    "release_from_groups",
    "shifted_hierarchy",
    "target_release",
]
