"""Lemma 4.4.1's static security of a safe grouping, measured (seed 001 §2.3, L4768–4800).

An attacker who sees a (k, ℓ)-grouped graph can identify the k_i entities of a left group
with its k_i masked nodes in any of k_i! ways, and likewise on the right; nothing published
breaks the symmetry (the entity tables carry no graph data).  For entities v (left group i)
and w (right group j), F(v) is uniform over the group's masked nodes and F(w) over its own,
independently, so (v, w) is an edge in exactly a c_ij/(k_i ℓ_j) fraction of the feasible
identifications, c_ij the edges between the two groups.  In a safe grouping those edges
form a matching, c_ij ≤ min(k_i, ℓ_j), so the fraction is at most 1/max(k_i, ℓ_j) — and
(k, 1) gives the same static guarantee as (k, k).

:func:`static_security` measures this on a release: the largest fraction over all group
pairs (the attacker's best guess at any association), its bound, the pairs with a certain
association (singleton–singleton), and the mean over the true edges.  O(m log m).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.graph.anonymize.grouping import GroupedGraph


@dataclass(frozen=True)
class StaticSecurity:
    """Lemma 4.4.1 on one release (see the module docstring).

    ``max_fraction``: max over group pairs of c_ij/(k_i ℓ_j) — no association is more likely
    than this; ``bound``: 1/max(k, ℓ) of the smallest groups (the lemma's guarantee);
    ``within_bound``: every pair meets its own 1/max(k_i, ℓ_j); ``certain_pairs``: group
    pairs whose association is certain (fraction 1); ``mean_edge_fraction``: mean of the
    fraction over the true edges (the attacker's average confidence in a real association).
    """

    max_fraction: float
    bound: float
    within_bound: bool
    certain_pairs: int
    mean_edge_fraction: float
    group_pairs: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_fraction": self.max_fraction,
            "bound": self.bound,
            "within_bound": self.within_bound,
            "certain_pairs": self.certain_pairs,
            "mean_edge_fraction": self.mean_edge_fraction,
            "group_pairs": self.group_pairs,
        }


def static_security(grouped: GroupedGraph) -> StaticSecurity:
    """Measure Lemma 4.4.1 (seed 001 L4768): the fraction of identifications with each
    association, per group pair.  O(m log m)."""
    k_i = np.bincount(grouped.left_groups)
    l_j = np.bincount(grouped.right_groups)
    i, j, c = grouped.group_pair_edges()
    frac = c / (k_i[i] * l_j[j])
    per_pair_bound = 1.0 / np.maximum(k_i[i], l_j[j])
    e = grouped.graph.edges
    lookup = {(int(a), int(b)): float(f) for a, b, f in zip(i, j, frac, strict=True)}
    edge_frac = [
        lookup[(int(grouped.left_groups[v]), int(grouped.right_groups[w]))] for v, w in e.tolist()
    ]
    bound = 1.0 / max(int(k_i.min()) if k_i.size else 1, int(l_j.min()) if l_j.size else 1)
    return StaticSecurity(
        max_fraction=float(frac.max()) if frac.size else 0.0,
        bound=bound,
        within_bound=bool((frac <= per_pair_bound + 1e-12).all()),
        certain_pairs=int((frac >= 1.0).sum()),
        mean_edge_fraction=float(np.mean(edge_frac)) if edge_frac else 0.0,
        group_pairs=int(frac.size),
    )


__all__ = ["StaticSecurity", "static_security"]
