"""Attacks on tabular releases: linkage, homogeneity / background knowledge, permutation
(Anatomy) inference, the intersection attack and the extreme-value attack on clustering.

Each attack returns a dataclass with per-record disclosure aligned to its targets and a
``to_dict()`` summary.  See ``docs/attacks/tabular.md``.
"""

from privlab.table.attacks.extreme import ExtremeValueResult, extreme_value_attack
from privlab.table.attacks.inference import (
    InferenceResult,
    disclosure_from_posterior,
    homogeneity_attack,
    permutation_inference,
)
from privlab.table.attacks.intersection import (
    IntersectionResult,
    ReleaseSample,
    independent_releases,
    intersection_attack,
)
from privlab.table.attacks.linkage import (
    BUCKETS,
    LinkageResult,
    candidate_buckets,
    linkage_attack,
)

__all__ = [
    "BUCKETS",
    "ExtremeValueResult",
    "InferenceResult",
    "IntersectionResult",
    "LinkageResult",
    "ReleaseSample",
    "candidate_buckets",
    "disclosure_from_posterior",
    "extreme_value_attack",
    "homogeneity_attack",
    "independent_releases",
    "intersection_attack",
    "linkage_attack",
    "permutation_inference",
]
