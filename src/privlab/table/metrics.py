"""Utility (information-loss) metrics for full-domain generalization with suppression.

A metric scores a lattice node from its class table and the mask of classes that are kept
(the others are suppressed).  Metrics that can, also give a *static lower bound* for every
node, valid for the node itself and all its generalizations; the optimal search
(:mod:`privlab.table.search`) prunes with it.

Lower is better for every metric here.  The metrics and their names in :data:`METRICS` (used
by the CLI's ``--metric``; build one with :func:`make_metric`):

* ``loss`` — :class:`Loss`, ARX's default ``MetricMDNMLoss``;
* ``dm`` — :class:`Discernibility`, ``MetricSDNMDiscernability``;
* ``dm-star`` — :class:`DiscernibilityStar`, ``MetricSDDiscernability``;
* ``aecs`` — :class:`AECS`, ``MetricSDAECS``;
* ``entropy`` — :class:`NonUniformEntropy`, ``MetricMDNUNMEntropy`` / ``MetricMDNUEntropy``;
* ``precision`` — :class:`Precision`, ``MetricMDNMPrecision`` / ``MetricMDPrecision``;
* ``kl`` — :class:`KLDivergence`, ``MetricSDNMKLDivergence``;
* ``height`` — :class:`Height`, ``MetricMDHeight``

(ARX classes in ``org.deidentifier.arx.metric.v2``).  Each class docstring states how
suppressed records count, as read in ARX's source; the values match the ones ARX's own test
suite asserts on Adult (``tests/table/test_metrics.py``).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, fields

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


# --------------------------------------------------------------------------------------------
# Shared helpers for the metrics below
# --------------------------------------------------------------------------------------------

#: Aggregations of per-attribute losses (ARX's ``AggregateFunction`` minus RANK, which is
#: lexicographic rather than a number).  All are monotone in every argument ≥ 0, so per-attribute
#: lower bounds aggregate to a lower bound.
AGGREGATIONS = ("sum", "arithmetic", "geometric", "max")

#: Relative slack subtracted from bounds that are computed along a different floating-point path
#: than the value they bound (a bound may equal the value in exact arithmetic).
_SLACK = 1e-12


def _gs_factors(gs: float) -> tuple[float, float]:
    """ARX's (gFactor, sFactor) for the generalization/suppression factor ``gs`` ∈ [0, 1].

    ``Metric.java``: sFactor = 2·gs for gs < ½ else 1; gFactor = 1 for gs ≤ ½ else 1 − 2(gs − ½).
    """
    try:
        gs = float(gs)
    except (TypeError, ValueError):
        raise ConfigError(f"gs must be a number in [0, 1], got {gs!r}") from None
    if not 0.0 <= gs <= 1.0:
        raise ConfigError(f"gs must be in [0, 1], got {gs}")
    g_factor = 1.0 if gs <= 0.5 else 1.0 - 2.0 * (gs - 0.5)
    s_factor = 2.0 * gs if gs < 0.5 else 1.0
    return g_factor, s_factor


def _check_aggregation(aggregation: str, metric: str) -> None:
    if aggregation not in AGGREGATIONS:
        raise ConfigError(
            f"{metric}: aggregation {aggregation!r}: use one of {', '.join(AGGREGATIONS)}"
        )


def _aggregate_plain(per_attr: np.ndarray, how: str) -> np.ndarray:
    """Aggregate the last axis of ``per_attr`` as ARX's ``ILMultiDimensional*`` (weights 1).

    Accumulates attribute by attribute with elementwise operations, so a value computed for one
    node and the same node's entry in a vectorized bound are bit-identical.
    """
    per_attr = np.asarray(per_attr, dtype=np.float64)
    d = per_attr.shape[-1]
    cols = [per_attr[..., j] for j in range(d)]
    if how == "sum":
        acc = cols[0] + 0.0
        for c in cols[1:]:
            acc = acc + c
        return acc
    if how == "arithmetic":
        acc = cols[0] / d
        for c in cols[1:]:
            acc = acc + c / d
        return acc
    if how == "geometric":
        acc = (cols[0] + 1.0) ** (1.0 / d)
        for c in cols[1:]:
            acc = acc * (c + 1.0) ** (1.0 / d)
        return acc - 1.0
    acc = cols[0] + 0.0
    for c in cols[1:]:
        acc = np.maximum(acc, c)
    return acc


def _log2(x: np.ndarray | float) -> np.ndarray:
    """log2 as ARX computes it: ``Math.log(x) / Math.log(2)``."""
    return np.log(np.asarray(x, dtype=np.float64)) / math.log(2.0)


def _leaf_counts(g: Groupify, j: int) -> np.ndarray:
    """Records per hierarchy leaf of attribute ``j`` (float64, exact for < 2**53 records)."""
    h = g.hierarchies[j]
    return np.bincount(
        g.digits(g.bottom, j), weights=g.bottom.counts.astype(np.float64), minlength=h.n_leaves
    )


def _node_levels(g: Groupify) -> np.ndarray:
    return g.lattice.levels.astype(np.int64)


class _PartitionBounds:
    """Static bounds on the partition of the records at every lattice node.

    For a node n with levels l, its classes are a coarsening of the classes of every
    specialization — in particular of ``e_j(l_j)`` (attribute j at l_j, every other attribute at
    level 0) — and each class is identified by one group per attribute.  Hence:

    * ``max_classes[n]`` ≥ number of classes at n: the minimum of Π_j g_j(l_j) (g_j(v) =
      groups of attribute j at level v that occur in the data) and min_j classes(e_j(l_j));
    * ``min_sumsq[n]`` ≤ Σ_C |C|² at n: the maximum of max_j Σ_C∈e_j(l_j) |C|² (merging classes
      only increases a sum of squares) and, by Cauchy–Schwarz inside each group G of attribute j
      at level l_j (which the classes of n split into at most P_j = Π_{i≠j} g_i(l_i) parts),
      max_j Σ_G |G|² / P_j.

    Both are monotone along the lattice (``max_classes`` non-increasing, ``min_sumsq``
    non-decreasing), so they bound every generalization of n as well.  Building them costs
    Σ_j (h_j + 1) sorts of the bottom table plus O(nodes × d).
    """

    def __init__(self, g: Groupify) -> None:
        bottom = g.bottom
        weights = bottom.counts.astype(np.float64)
        levels = _node_levels(g)
        n_nodes = levels.shape[0]
        present: list[np.ndarray] = []
        group_sumsq: list[np.ndarray] = []
        axis_classes: list[np.ndarray] = []
        axis_sumsq: list[np.ndarray] = []
        for j, h in enumerate(g.hierarchies):
            leaf = g.digits(bottom, j)
            leaf_counts = _leaf_counts(g, j)
            pr, gsq, ac, asq = [], [], [], []
            for v in range(h.height + 1):
                grp = h.group_of_leaf(v).astype(np.int64)
                gc = np.bincount(grp, weights=leaf_counts, minlength=h.n_groups(v))
                pr.append(max(1, int(np.count_nonzero(gc))))
                gsq.append(float(np.dot(gc, gc)))
                keys = bottom.keys + (grp[leaf] - leaf) * g.key_radix[j]
                uniq, inverse = np.unique(keys, return_inverse=True)
                sizes = np.bincount(inverse, weights=weights, minlength=uniq.size)
                ac.append(int(uniq.size))
                asq.append(float(np.dot(sizes, sizes)))
            present.append(np.array(pr, dtype=np.float64))
            group_sumsq.append(np.array(gsq))
            axis_classes.append(np.array(ac, dtype=np.float64))
            axis_sumsq.append(np.array(asq))
        product = np.ones(n_nodes)
        for j in range(g.d):
            product = product * present[j][levels[:, j]]
        max_classes = product
        min_sumsq = np.zeros(n_nodes)
        for j in range(g.d):
            lv = levels[:, j]
            max_classes = np.minimum(max_classes, axis_classes[j][lv])
            others = product / present[j][lv]
            min_sumsq = np.maximum(min_sumsq, axis_sumsq[j][lv])
            min_sumsq = np.maximum(min_sumsq, group_sumsq[j][lv] / others)
        self.max_classes = max_classes
        self.min_sumsq = min_sumsq * (1.0 - _SLACK)


def _kept_split(table: ClassTable, kept: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    counts = table.counts.astype(np.int64)
    return counts[kept], counts[~kept]


# --------------------------------------------------------------------------------------------
# Class-size metrics: DM, DM*, AECS
# --------------------------------------------------------------------------------------------


@dataclass
class Discernibility(Metric):
    """Discernibility DM (Bayardo & Agrawal 2005), ARX's default ``MetricSDNMDiscernability``.

    ``DM = Σ_{released classes E} |E|² + N × (suppressed records)``: a released record costs
    the size of its class, a suppressed record costs N (it is indistinguishable from everyone).
    ARX: ``getInformationLossInternal`` adds ``count²`` for ``isNotOutlier`` classes and
    ``rows × count`` for suppressed ones (``rows`` = N).  Not monotone with suppression (ARX:
    monotonic with generalization only).  No gs factor (ARX fixes it at ½).

    Lower bound: DM ≥ Σ_{all classes} |E|² = DM* (each suppressed class has |E| ≤ N), which is
    monotone, so ``_PartitionBounds.min_sumsq`` bounds the node and all its generalizations.
    (ARX uses DM* of the node itself, which needs the node's class table; this bound is static.)
    Complexity: value O(m) for m classes; bounds O(Σ_j (h_j+1) × m₀ log m₀ + nodes × d).
    """

    name: str = field(default="dm", init=False)

    def bind(self, groupify: Groupify) -> None:
        super().bind(groupify)
        self._bounds: _PartitionBounds | None = None

    def value(self, table: ClassTable, kept: np.ndarray) -> float:
        released, suppressed = _kept_split(table, kept)
        n = int(self.g.n_records)
        return float(int(np.dot(released, released)) + n * int(suppressed.sum()))

    def lower_bounds(self) -> np.ndarray:
        if self._bounds is None:
            self._bounds = _PartitionBounds(self.g)
        return self._bounds.min_sumsq


@dataclass
class DiscernibilityStar(Metric):
    """ARX's monotonic discernibility DM* (``MetricSDDiscernability``, "Monotonic discernability").

    ``DM* = Σ_{all classes E} |E|²`` — suppression is *ignored*: a suppressed class costs |E|²
    like a released one (ARX computes it as the lower bound of ``MetricSDNMDiscernability``,
    which sums ``count²`` over every class with ``count > 0``, outlier or not).  Monotone with
    generalization and suppression.

    Lower bound: ``_PartitionBounds.min_sumsq`` (DM* of coarser partitions is larger).
    Complexity: value O(m); bounds as :class:`Discernibility`.
    """

    name: str = field(default="dm-star", init=False)

    def bind(self, groupify: Groupify) -> None:
        super().bind(groupify)
        self._bounds: _PartitionBounds | None = None

    def value(self, table: ClassTable, kept: np.ndarray) -> float:
        counts = table.counts.astype(np.int64)
        return float(int(np.dot(counts, counts)))

    def lower_bounds(self) -> np.ndarray:
        if self._bounds is None:
            self._bounds = _PartitionBounds(self.g)
        return self._bounds.min_sumsq


@dataclass
class AECS(Metric):
    """Average equivalence class size (LeFevre et al., Mondrian 2006), ARX's ``MetricSDAECS``.

    ``AECS = N / (released classes × sF + [any record suppressed] × gF)``: all suppressed
    records together form *one* extra class.  ARX deliberately swaps the factors here
    (released classes are weighted by the suppression factor sF, the suppressed class by the
    generalization factor gF; see ``_gs_factors``); with the default gs = ½ both are 1 and
    AECS = N / (released classes + [S > 0]).  Not normalized by k (ARX neither).  When the
    denominator is 0 (gs = 0 and nothing suppressed, or gs = 1 and everything suppressed) the
    value is +∞, as ARX's double division gives.

    Lower bound: the denominator never exceeds the number of classes at the node (kept classes
    weigh ≤ 1 each and the suppressed records fill ≥ 1 class), so AECS ≥ N / classes ≥
    N / ``_PartitionBounds.max_classes``; valid for every gs.  (ARX's own bound
    ``N / (classes × sF)`` is not: for gs < ½, one small suppressed class makes the value
    ``N / (kept·sF + 1)`` smaller than it.)
    Complexity: value O(m); bounds as :class:`Discernibility`.
    """

    gs: float = 0.5
    name: str = field(default="aecs", init=False)

    def __post_init__(self) -> None:
        self.g_factor, self.s_factor = _gs_factors(self.gs)

    def bind(self, groupify: Groupify) -> None:
        super().bind(groupify)
        self._bounds: _PartitionBounds | None = None

    def value(self, table: ClassTable, kept: np.ndarray) -> float:
        released, suppressed = _kept_split(table, kept)
        groups = float(np.count_nonzero(released > 0)) * self.s_factor
        if int(suppressed.sum()) > 0:
            groups = groups + 1.0 * self.g_factor
        n = float(self.g.n_records)
        return n / groups if groups > 0 else math.inf

    def lower_bounds(self) -> np.ndarray:
        if self._bounds is None:
            self._bounds = _PartitionBounds(self.g)
        n = float(self.g.n_records)
        return n / self._bounds.max_classes * (1.0 - _SLACK)

    def to_dict(self) -> dict[str, object]:
        return {"metric": self.name, "gs": self.gs}


# --------------------------------------------------------------------------------------------
# Per-attribute metrics: non-uniform entropy, precision, height
# --------------------------------------------------------------------------------------------


@dataclass
class _PerAttributeMetric(Metric):
    """A loss per quasi-identifier, weighed by ``gs`` and aggregated by ``aggregation``.

    What :class:`NonUniformEntropy` and :class:`Precision` share: the options, their checks
    and factors (:func:`_gs_factors`), the value (:func:`_aggregate_plain` of
    :meth:`per_attribute`) and ``to_dict``.  Subclasses set ``name`` and the default
    ``aggregation``.
    """

    monotonic: bool = False
    gs: float = 0.5
    aggregation: str = "sum"

    def __post_init__(self) -> None:
        self.g_factor, self.s_factor = _gs_factors(self.gs)
        _check_aggregation(self.aggregation, self.name)

    @abstractmethod
    def per_attribute(self, table: ClassTable, kept: np.ndarray) -> np.ndarray:
        """The loss of each quasi-identifier, before aggregation."""

    def value(self, table: ClassTable, kept: np.ndarray) -> float:
        return float(_aggregate_plain(self.per_attribute(table, kept), self.aggregation))

    def to_dict(self) -> dict[str, object]:
        return {
            "metric": self.name,
            "monotonic": self.monotonic,
            "gs": self.gs,
            "aggregation": self.aggregation,
        }


@dataclass
class NonUniformEntropy(_PerAttributeMetric):
    """Non-uniform entropy (de Waal & Willenborg 1999; Gionis & Tassa 2009), as in ARX.

    For attribute j at level l, the generalization part is
    ``H_j(l) = Σ_records −log2 P(original value | generalized value)
    = −Σ_leaves a·log2(a / b)`` with a = records holding the leaf and b = records whose value
    generalizes to the same group at level l, computed over *all* records, suppressed or not
    (``MetricMDNUEntropyPrecomputed.getInformationLossInternalRaw``), times gF.

    * ``monotonic=False`` (ARX's default, ``MetricMDNUNMEntropy``): suppressed records pay in
      addition, per attribute, ``sF × Σ_v c_v·log2(S / c_v)`` where S is the number of
      suppressed records and c_v those among them whose generalized value (at l) is v — the
      entropy of the values that suppression hides.
    * ``monotonic=True`` (``MetricMDNUEntropy``): suppression is ignored.

    Each per-attribute value is floored to 10 decimals (ARX's ``round``) and the attributes are
    aggregated by ``aggregation`` (ARX's default: sum).  Not normalized.

    Lower bound (ARX's too): the generalization part, floor10(gF·H_j(l_j)), aggregated — the
    suppression part is ≥ 0 and H_j grows with the level (coarser groups, larger conditional
    entropy).  For ``monotonic=True`` it equals the value.
    Complexity: bind O(Σ_j leaves_j × h_j); value O(m × d).
    """

    aggregation: str = "sum"
    name: str = field(default="entropy", init=False)

    def bind(self, groupify: Groupify) -> None:
        super().bind(groupify)
        self._raw = []  # _raw[j][level] = gF × Σ a·log2(a/b) (≤ 0, ARX's sign)
        for j, h in enumerate(groupify.hierarchies):
            a = _leaf_counts(groupify, j)
            present = a > 0
            raw = []
            for lv in range(h.height + 1):
                grp = h.group_of_leaf(lv)
                b = np.bincount(grp, weights=a, minlength=h.n_groups(lv))[grp]
                value = float(np.sum(a[present] * _log2(a[present] / b[present])))
                raw.append(value * self.g_factor)
            self._raw.append(np.array(raw))

    @staticmethod
    def _finish(raw: np.ndarray | float) -> np.ndarray:
        raw = np.asarray(raw, dtype=np.float64)
        return _floor10(np.where(raw == 0.0, 0.0, -raw))

    def per_attribute(self, table: ClassTable, kept: np.ndarray) -> np.ndarray:
        """Per-attribute entropy (after ARX's flooring)."""
        levels = table.levels.astype(np.int64)
        raw = np.array([self._raw[j][levels[j]] for j in range(self.g.d)])
        if not self.monotonic:
            counts = table.counts.astype(np.float64)
            suppressed = float(counts[~kept].sum())
            if suppressed > 0:
                for j in range(self.g.d):
                    digits = self.g.digits(table, j)[~kept]
                    c = np.bincount(digits, weights=counts[~kept])
                    c = c[c > 0]
                    raw[j] = raw[j] + float(np.sum(c * _log2(c / suppressed) * self.s_factor))
        return self._finish(raw)

    def lower_bounds(self) -> np.ndarray:
        levels = _node_levels(self.g)
        per_attr = np.stack(
            [self._finish(self._raw[j][levels[:, j]]) for j in range(self.g.d)], axis=1
        )
        return np.asarray(_aggregate_plain(per_attr, self.aggregation))


@dataclass
class Precision(_PerAttributeMetric):
    """Precision (Sweeney 2002, "Prec"), ARX's ``MetricMDNMPrecision`` / ``MetricMDPrecision``.

    For attribute j with hierarchy height h_j at level l_j (share 0 when h_j = 0):

    * ``monotonic=False`` (ARX's default): ``P_j = (K·(l_j/h_j)·gF + S·sF) / N`` with K released
      and S suppressed records — a suppressed record counts as fully generalized (level h_j)
      when gs = ½.
    * ``monotonic=True``: ``P_j = (l_j/h_j)·gF`` — suppression ignored.

    Aggregated by ``aggregation`` (ARX's default: arithmetic mean, i.e. Sweeney's
    ``1 − Prec``).  No flooring.

    Lower bound: ``min((l_j/h_j)·gF, sF)`` per attribute — every record costs at least that,
    and it grows with the level.  (ARX's bound ``(l_j/h_j)·gF`` is wrong for gs < ½, where
    suppressing costs sF < (l_j/h_j)·gF.)  For ``monotonic=True`` it equals the value.
    Complexity: value O(m + d); bounds O(nodes × d).
    """

    aggregation: str = "arithmetic"
    name: str = field(default="precision", init=False)

    def bind(self, groupify: Groupify) -> None:
        super().bind(groupify)
        self.heights = np.array([h.height for h in groupify.hierarchies], dtype=np.float64)

    def _share(self, levels: np.ndarray) -> np.ndarray:
        levels = np.asarray(levels, dtype=np.float64)
        safe = np.where(self.heights == 0, 1.0, self.heights)
        return np.where(self.heights == 0, 0.0, levels / safe)

    def per_attribute(self, table: ClassTable, kept: np.ndarray) -> np.ndarray:
        share = self._share(table.levels)
        if self.monotonic:
            return share * self.g_factor
        released, suppressed = _kept_split(table, kept)
        k, s = float(released.sum()), float(suppressed.sum())
        return ((k * share) * self.g_factor + s * self.s_factor) / float(self.g.n_records)

    def lower_bounds(self) -> np.ndarray:
        share = self._share(_node_levels(self.g))
        if self.monotonic:
            return np.asarray(_aggregate_plain(share * self.g_factor, self.aggregation))
        per_attr = np.minimum(share * self.g_factor, self.s_factor) * (1.0 - _SLACK)
        return np.asarray(_aggregate_plain(per_attr, self.aggregation))


@dataclass
class Height(Metric):
    """Height of the transformation (ARX's ``MetricMDHeight``): Σ_j l_j (aggregation "sum").

    Depends on the levels only; suppression is ignored (ARX: monotonic).  The lower bound is the
    value itself, which grows with every level.  Complexity: O(d) per node.
    """

    aggregation: str = "sum"
    name: str = field(default="height", init=False)

    def __post_init__(self) -> None:
        _check_aggregation(self.aggregation, "height")

    def value(self, table: ClassTable, kept: np.ndarray) -> float:
        return float(_aggregate_plain(table.levels.astype(np.float64), self.aggregation))

    def lower_bounds(self) -> np.ndarray:
        levels = self.g.lattice.levels.astype(np.float64)
        return np.asarray(_aggregate_plain(levels, self.aggregation))

    def to_dict(self) -> dict[str, object]:
        return {"metric": self.name, "aggregation": self.aggregation}


# --------------------------------------------------------------------------------------------
# KL divergence
# --------------------------------------------------------------------------------------------


@dataclass
class KLDivergence(Metric):
    """KL divergence of the release's maximum-entropy model from the data (Kifer & Gehrke 2006).

    p is the empirical distribution of the quasi-identifier tuples (p_x = c_x / N over the
    distinct tuples x).  The release is read as the distribution q that spreads each class
    uniformly over its cell of the domain, as ARX's ``MetricSDNMKLDivergence`` does:

    * a record in a released class C: ``q_x = (|C| / N) / area(C)``, area(C) = Π_j (hierarchy
      leaves under C's group of attribute j);
    * a suppressed record: all S suppressed records form one cell covering the whole domain,
      ``q_x = (S / N) / Π_j leaves_j``.

    ``arx_weights=False`` (default) gives the KL divergence ``Σ_x p_x log2(p_x / q_x)`` (≥ 0,
    0 when nothing is generalized or suppressed).  ``arx_weights=True`` reproduces ARX, which
    sums ``p_x log2(p_x / q_x)`` over *records* rather than distinct tuples, i.e. weighs tuple
    x by c_x·p_x instead of p_x (identical when all tuples are distinct).  Not monotone with
    suppression (ARX: monotonic with generalization only; ARX has no bound).

    Lower bound: for every record, −log2 q_x ≥ log2 area of its cell (N / |C| ≥ 1, N / S ≥ 1
    and the whole domain is at least as large as any cell), and cells only grow with the
    levels, so ``Σ_x w_x (log2 p_x + Σ_j log2 leaves_j(x at l_j))`` bounds the node and all its
    generalizations; for the true KL also 0 (q is a sub-probability, Gibbs' inequality).
    Complexity: value O(m × d) (with ``arx_weights``, O(m₀ × d) over the bottom table).
    """

    arx_weights: bool = False
    name: str = field(default="kl", init=False)

    def bind(self, groupify: Groupify) -> None:
        super().bind(groupify)
        bottom = groupify.bottom
        n = float(groupify.n_records)
        c = bottom.counts.astype(np.float64)
        p = c / n if n > 0 else c
        self._w = c * p if self.arx_weights else p  # weight of each distinct tuple
        self._const = float(np.sum(self._w * _log2(p))) if n > 0 else 0.0
        self._log_leaves = [
            [_log2(h.leaves_per_group(lv)) for lv in range(h.height + 1)]
            for h in groupify.hierarchies
        ]
        self._log_domain = float(sum(_log2(h.n_leaves) for h in groupify.hierarchies))
        self._terms = []  # _terms[j][level] = Σ_x w_x log2 leaves under x's group
        for j, h in enumerate(groupify.hierarchies):
            leaf = groupify.digits(bottom, j)
            self._terms.append(
                np.array(
                    [
                        float(np.dot(self._w, self._log_leaves[j][lv][h.group_of_leaf(lv)[leaf]]))
                        for lv in range(h.height + 1)
                    ]
                )
            )

    def _class_weights(self, table: ClassTable) -> np.ndarray:
        """Σ w_x over the distinct tuples x of each class."""
        n = float(self.g.n_records)
        if not self.arx_weights:
            return table.counts.astype(np.float64) / n
        g = self.g
        keys = np.zeros(g.bottom.n_classes, dtype=np.int64)
        for j, h in enumerate(g.hierarchies):
            group = h.group_of_leaf(int(table.levels[j])).astype(np.int64)
            keys += group[g.digits(g.bottom, j)] * g.key_radix[j]
        idx = np.searchsorted(table.keys, keys)
        return np.bincount(idx, weights=self._w, minlength=table.n_classes)

    def value(self, table: ClassTable, kept: np.ndarray) -> float:
        n = float(self.g.n_records)
        if n == 0:
            return 0.0
        counts = table.counts.astype(np.float64)
        weights = self._class_weights(table)
        log_area = np.zeros(table.n_classes)
        for j in range(self.g.d):
            log_area = log_area + self._log_leaves[j][int(table.levels[j])][self.g.digits(table, j)]
        total = self._const
        total += float(np.sum(weights[kept] * (_log2(n / counts[kept]) + log_area[kept])))
        suppressed = float(counts[~kept].sum())
        if suppressed > 0:
            total += float(weights[~kept].sum()) * (_log2(n / suppressed) + self._log_domain)
        return total if self.arx_weights else max(0.0, total)

    def lower_bounds(self) -> np.ndarray:
        levels = _node_levels(self.g)
        bound = np.full(levels.shape[0], self._const)
        scale = abs(self._const) + 1.0
        for j in range(self.g.d):
            bound = bound + self._terms[j][levels[:, j]]
            scale += float(np.max(np.abs(self._terms[j])))
        bound = bound - 1e-10 * scale
        return bound if self.arx_weights else np.maximum(bound, 0.0)

    def to_dict(self) -> dict[str, object]:
        return {"metric": self.name, "arx_weights": self.arx_weights}


# --------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------

#: Metric classes by the name the CLI and job files use.
METRICS: dict[str, type[Metric]] = {
    "loss": Loss,
    "dm": Discernibility,
    "dm-star": DiscernibilityStar,
    "aecs": AECS,
    "entropy": NonUniformEntropy,
    "precision": Precision,
    "kl": KLDivergence,
    "height": Height,
}


def metric_options(name: str) -> list[str]:
    """The keyword options metric ``name`` accepts."""
    cls = METRICS[name]
    return [f.name for f in fields(cls) if f.init]  # type: ignore[arg-type]


def make_metric(name: str, **options: object) -> Metric:
    """Build metric ``name`` (a key of :data:`METRICS`) with its keyword ``options``."""
    key = str(name).strip().lower()
    if key not in METRICS:
        raise ConfigError(f"unknown metric {name!r}: use one of {', '.join(METRICS)}")
    accepted = metric_options(key)
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        takes = ", ".join(accepted) if accepted else "no options"
        raise ConfigError(f"metric {key!r} has no option {', '.join(unknown)}; it takes: {takes}")
    return METRICS[key](**options)
