"""Utility (information-loss) metrics for full-domain generalization with suppression.

A metric scores a lattice node from its class table and the mask of classes that are kept
(the others are suppressed).  Metrics that can, also give a *static lower bound* for every
node, valid for the node itself and all its generalizations; the optimal search
(:mod:`privlab.table.search`) prunes with it.

Lower is better for every metric here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

import numpy as np

from privlab.errors import ConfigError
from privlab.table.lattice import ClassTable, Groupify


class Metric(ABC):
    """Information loss of a transformation; lower is better."""

    name: str = "metric"

    def bind(self, groupify: Groupify) -> None:
        """Precompute what the metric needs from the encoded table."""
        self.g = groupify

    @abstractmethod
    def value(self, table: ClassTable, kept: np.ndarray) -> float:
        """Loss of the node whose classes are ``table``; ``kept`` masks released classes."""

    def lower_bounds(self) -> np.ndarray | None:
        """Per node, a bound ≤ the value of the node and of every generalization (or None)."""
        return None

    def to_dict(self) -> dict[str, object]:
        return {"metric": self.name}


def _floor10(x: np.ndarray | float) -> np.ndarray:
    """ARX floors each per-attribute loss to 10 decimals before aggregating."""
    return np.floor(np.asarray(x, dtype=np.float64) * 1e10) / 1e10


@dataclass
class Loss(Metric):
    """ARX's default "Loss" (``MetricMDNMLoss``), after Iyengar's loss metric.

    For attribute j, a released record with generalized value v costs share(v) × gFactor,
    where share(v) = leaves of the hierarchy under v / leaves of the hierarchy; a suppressed
    record costs sFactor.  With Σ_j the total over records and N the record count,
    ``L_j = (Σ_j − N·gF/|D_j|) / (N − N·gF/|D_j|)`` clipped to [0, 1] and floored to 10
    decimals, aggregated as ``(Π (1 + L_j))^(1/d) − 1`` (geometric) or the mean (arithmetic).
    ``gs`` ∈ [0, 1] weighs generalization against suppression: gFactor = 1 for gs ≤ ½ else
    2(1 − gs); sFactor = 1 for gs ≥ ½ else 2·gs.  Formula: ../shared/spec/REFERENCE_RESULTS.md.

    Static lower bound: every record released at the node's levels, each costing
    min(share × gF, sF) — monotone in the levels and never above the true value.
    Complexity: O(m × d) per node for m classes.
    """

    gs: float = 0.5
    aggregation: str = "geometric"
    name: str = field(default="loss", init=False)

    def __post_init__(self) -> None:
        if not 0.0 <= float(self.gs) <= 1.0:
            raise ConfigError(f"gs must be in [0, 1], got {self.gs}")
        if self.aggregation not in ("geometric", "arithmetic"):
            raise ConfigError(f"aggregation {self.aggregation!r}: use 'geometric' or 'arithmetic'")
        self.g_factor = 1.0 if self.gs <= 0.5 else 1.0 - 2.0 * (self.gs - 0.5)
        self.s_factor = 1.0 if self.gs >= 0.5 else 1.0 - 2.0 * (0.5 - self.gs)

    def bind(self, groupify: Groupify) -> None:
        super().bind(groupify)
        n = groupify.n_records
        self.shares = []  # shares[j][level] -> array over groups
        self.minimum = []
        lb_per_level = []
        bottom = groupify.bottom
        for j, h in enumerate(groupify.hierarchies):
            leaf_counts = np.bincount(
                groupify.digits(bottom, j), weights=bottom.counts, minlength=h.n_leaves
            )
            shares = [h.leaves_per_group(lv) / h.n_leaves for lv in range(h.height + 1)]
            self.shares.append(shares)
            mn = n * self.g_factor / h.n_leaves
            self.minimum.append(mn)
            sums = []
            for lv in range(h.height + 1):
                per_leaf = shares[lv][h.group_of_leaf(lv)] * self.g_factor
                sums.append(float(np.dot(leaf_counts, np.minimum(per_leaf, self.s_factor))))
            lb_per_level.append(np.array([self._normalize(s, j) for s in sums]))
        self._lb_per_level = lb_per_level

    def _normalize(self, total: float, j: int) -> float:
        n = self.g.n_records
        mn = self.minimum[j]
        if n - mn <= 0:
            return 0.0
        return float(min(1.0, max(0.0, (total - mn) / (n - mn))))

    def _aggregate(self, per_attr: np.ndarray) -> np.ndarray | float:
        per_attr = _floor10(per_attr)
        if self.aggregation == "arithmetic":
            return per_attr.mean(axis=-1)
        d = per_attr.shape[-1]
        return np.prod(1.0 + per_attr, axis=-1) ** (1.0 / d) - 1.0

    def per_attribute(self, table: ClassTable, kept: np.ndarray) -> np.ndarray:
        """L_j for each quasi-identifier (before flooring)."""
        suppressed = float(table.counts[~kept].sum())
        counts = table.counts[kept]
        out = np.empty(self.g.d)
        for j in range(self.g.d):
            share = self.shares[j][int(table.levels[j])]
            digits = self.g.digits(table, j)[kept]
            total = float(np.dot(counts, share[digits])) * self.g_factor
            out[j] = self._normalize(total + suppressed * self.s_factor, j)
        return out

    def value(self, table: ClassTable, kept: np.ndarray) -> float:
        return float(self._aggregate(self.per_attribute(table, kept)))

    def lower_bounds(self) -> np.ndarray:
        levels = self.g.lattice.levels
        per_attr = np.stack([self._lb_per_level[j][levels[:, j]] for j in range(self.g.d)], axis=1)
        return np.asarray(self._aggregate(per_attr), dtype=np.float64)

    def to_dict(self) -> dict[str, object]:
        return {"metric": self.name, "gs": self.gs, "aggregation": self.aggregation}
