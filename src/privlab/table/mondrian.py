"""Mondrian multidimensional partitioning (local recoding), strict and relaxed.

Source: K. LeFevre, D. J. DeWitt and R. Ramakrishnan, "Mondrian Multidimensional
K-Anonymity", ICDE 2006 (greedy median partitioning; strict and relaxed multidimensional
partitioning); the privacy models and the roles of attributes are those of seed 000 §2.3
(``../shared/spec/seed-000-privacy-thesis.md``).  The utility measures are the normalized
certainty penalty of Xu et al., "Utility-Based Anonymization Using Local Recoding", KDD 2006,
its global form (GCP) of Ghinita et al., "Fast Data Anonymization with Low Information Loss",
VLDB 2007, and the discernibility penalty of Bayardo & Agrawal 2005 (LeFevre et al.'s C_DM).

**The algorithm.**  The table starts as one partition.  A partition is a box: for a *numeric*
quasi-identifier (listed in ``numeric``) the range [lo, hi] of the values of its records, for
a *categorical* one a node of the attribute's hierarchy — the lowest common ancestor of the
values of its records (the whole table starts at the LCA of all values, usually the top).  A
partition is split on one attribute at a time; the attributes are tried in decreasing order of
*normalized width* — numeric: (hi − lo) / (global max − global min); categorical: leaves under
the node / leaves of the hierarchy; ties in QI order — and the first *allowable* split is
taken.  A split is allowable when every part satisfies every privacy model
(:meth:`~privlab.table.models.PrivacyModel.class_ok` on the parts' sizes and sensitive
histograms, any combination of k-anonymity, ℓ-diversity, t-closeness, δ-disclosure and
(k,e)-anonymity).  A partition none of whose attributes has an allowable split is final: it is
released as one equivalence class, each numeric QI as ``"lo-hi"`` (or the single value when
lo = hi, written as in the input) and each categorical QI as the label of its node.

* *Numeric, strict* (``strict=True``): the parts are disjoint ranges.  With m the lower median
  of the partition's values, the candidates are "values ≤ m go left" and "values < m go left"
  (they differ only under ties); the better balanced one is taken if allowable, else the other.
  Under heavy ties these are the two most balanced splits by value that exist.
* *Numeric, relaxed* (``strict=False``): the records are ordered by value (ties by input
  order) and the first ⌊n/2⌋ go left, so equal values may go to both sides and the parts'
  ranges may overlap; a partition whose values are all equal still splits.
* *Categorical* (both modes): the node is replaced by its children (the groups at the next
  lower level that hold records); the split is allowable when every child part satisfies the
  models.  Because a partition's node is the LCA of its values, there are always ≥ 2 children.

Every model of :mod:`privlab.table.models` is union-closed, so released classes that happen to
share all their labels (possible in relaxed mode) still satisfy the models when merged.  If the
whole table does not satisfy the models, :class:`~privlab.errors.InfeasibleError` is raised
(Mondrian does not suppress records: ``suppressed`` is always 0 and every input row is released
in its original position; identifying columns are dropped).

**Implementation and complexity.**  Each attribute is encoded once to integer codes: numeric
values to the rank of the value among the distinct values, categorical leaves to their rank in
a depth-first order of the hierarchy, in which every group at every level is an interval of
ranks — so a partition's range and its node's LCA both come from the min and max code.  The
work list is processed breadth-first, *all partitions of a round at once*: the records are kept
in an array ordered by partition (each partition a contiguous slice), ranges come from
``np.minimum.reduceat``, the numeric medians from one sort of (partition, code) keys, the
children of categorical nodes from ``np.bincount`` on (partition, child) keys, and the models
are evaluated on the candidate parts of all partitions in one vectorized call per model.
Splitting reorders the slices with one stable argsort of the new partition ids; final
partitions leave the array.  There is no recursion and no loop over records or partitions in
Python.  With median splits there are O(log(N/k)) rounds; a round over M records costs
O(d·M) plus the sort of the keys of the numeric splits, so the total is O(d · N log N)
expected (O(N log² N) for the sorts in the worst case, LeFevre et al.'s bound is O(N log N)
with linear-time selection).  Memory is O((d + s) · N) for d QIs and s sensitive attributes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.io.delimited import bad_rows
from privlab.progress import ProgressFn
from privlab.table.data import MicroTable
from privlab.table.hierarchy import Hierarchy
from privlab.table.models import (
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    KEAnonymity,
    PrivacyModel,
    RecursiveCLDiversity,
    bind_models,
)

__all__ = [
    "MondrianResult",
    "categorical_ncp",
    "discernibility_penalty",
    "global_certainty_penalty",
    "mondrian",
    "ncp_by_attribute",
    "numeric_ncp",
]

#: Upper bound on the cells of the sensitive-value histograms built at once (int64 each).
HIST_CELLS = 1 << 22


# --------------------------------------------------------------------------------------------
# Utility metrics
# --------------------------------------------------------------------------------------------


def numeric_ncp(lo: np.ndarray, hi: np.ndarray, global_lo: float, global_hi: float) -> np.ndarray:
    """NCP of numeric ranges [lo, hi]: (hi − lo) / (global_hi − global_lo), 0 for a constant column.

    Xu et al., KDD 2006, §2: the share of the attribute's range a released interval covers;
    ``global_lo``/``global_hi`` are the minimum and maximum of the column in the input table.
    """
    span = float(global_hi) - float(global_lo)
    width = np.asarray(hi, dtype=np.float64) - np.asarray(lo, dtype=np.float64)
    if span <= 0:
        return np.zeros_like(width)
    return width / span


def categorical_ncp(leaves_under: np.ndarray, total_leaves: int) -> np.ndarray:
    """NCP of hierarchy nodes: (leaves under the node − 1) / (leaves of the hierarchy − 1).

    0 for a leaf (an original value), 1 for the top; 0 when the hierarchy has a single leaf.
    This is Xu et al.'s card(u)/|A| shifted so that an ungeneralized value costs exactly 0 and
    the top exactly 1 (as in Ghinita et al. 2007).
    """
    under = np.asarray(leaves_under, dtype=np.float64)
    if total_leaves <= 1:
        return np.zeros_like(under)
    return (under - 1.0) / (total_leaves - 1.0)


def ncp_by_attribute(sizes: np.ndarray, ncp: np.ndarray) -> np.ndarray:
    """Mean NCP over records for each QI: Σ_P |P|·NCP_j(P) / N (``ncp`` is partitions × QIs)."""
    sizes = np.asarray(sizes, dtype=np.float64)
    total = sizes.sum()
    if total == 0:
        return np.zeros(np.asarray(ncp).shape[1])
    return (sizes @ np.asarray(ncp, dtype=np.float64)) / total


def global_certainty_penalty(
    sizes: np.ndarray, ncp: np.ndarray, weights: Sequence[float] | None = None
) -> float:
    """GCP = Σ_P |P| · Σ_j w_j·NCP_j(P) / (d · N) (Ghinita et al. 2007), in [0, 1] for w_j ≤ 1.

    ``ncp`` is the (partitions × d) matrix of per-attribute NCPs and ``sizes`` the partition
    sizes.  With unit weights (the default) it equals the NCP of a record averaged over the
    QIs and the records — the figure reported as ``ncp``.
    """
    ncp = np.asarray(ncp, dtype=np.float64)
    sizes = np.asarray(sizes, dtype=np.float64)
    d = ncp.shape[1]
    n = sizes.sum()
    if d == 0 or n == 0:
        return 0.0
    w = np.ones(d) if weights is None else np.asarray(weights, dtype=np.float64)
    return float(sizes @ (ncp @ w) / (d * n))


def discernibility_penalty(class_sizes: np.ndarray) -> float:
    """Discernibility Σ_E |E|² over the released classes (no suppression in Mondrian)."""
    c = np.asarray(class_sizes, dtype=np.float64)
    return float(np.dot(c, c))


# --------------------------------------------------------------------------------------------
# Result
# --------------------------------------------------------------------------------------------


@dataclass
class MondrianResult:
    """A Mondrian release and its figures.

    ``release`` is of the input table's kind (polars or pandas), one row per input row in the
    input order, identifying columns dropped.  ``partition[i]`` is the partition of input row
    ``i``; partition ``p`` has ``partition_sizes[p]`` records, ``ranges[col][p]`` = (lo, hi)
    for a numeric QI, ``nodes[col][p]`` = (level, group index at that level as numbered by
    :meth:`Hierarchy.group_of_leaf`) for a categorical QI, and ``partition_ncp[p, j]`` its NCP
    on QI ``j``.  ``n_classes`` counts the distinct released QI tuples (equal to the number of
    partitions in strict mode unless labels repeat across hierarchy levels).
    """

    release: Any
    strict: bool
    qi: list[str]
    numeric: list[str]
    partition: np.ndarray
    partition_sizes: np.ndarray
    partition_ncp: np.ndarray
    ranges: dict[str, np.ndarray]
    nodes: dict[str, np.ndarray]
    class_sizes: np.ndarray
    n_records: int
    ncp: float
    ncp_per_qi: dict[str, float]
    gcp: float
    discernibility: float
    models: list[str] = field(default_factory=list)
    rounds: int = 0
    seconds: float = 0.0

    @property
    def n_partitions(self) -> int:
        return int(self.partition_sizes.size)

    @property
    def n_classes(self) -> int:
        return int(self.class_sizes.size)

    def to_dict(self) -> dict[str, object]:
        return {
            "algorithm": "mondrian",
            "strict": self.strict,
            "numeric": list(self.numeric),
            "partitions": self.n_partitions,
            "equivalence_classes": self.n_classes,
            "records": self.n_records,
            "suppressed": 0,
            "min_class_size": int(self.class_sizes.min()) if self.class_sizes.size else 0,
            "max_class_size": int(self.class_sizes.max()) if self.class_sizes.size else 0,
            "ncp": self.ncp,
            "ncp_per_qi": dict(self.ncp_per_qi),
            "gcp": self.gcp,
            "discernibility": self.discernibility,
            "models": list(self.models),
            "rounds": self.rounds,
            "seconds": self.seconds,
        }


# --------------------------------------------------------------------------------------------
# Attribute encodings
# --------------------------------------------------------------------------------------------


@dataclass
class _Numeric:
    name: str
    codes: np.ndarray  #: per record, rank of its value among the distinct values (int32)
    values: np.ndarray  #: distinct values present, ascending (float64)
    text: pl.Series  #: how each distinct value is written in the input

    @property
    def span(self) -> float:
        return float(self.values[-1] - self.values[0])


@dataclass
class _Categorical:
    name: str
    hierarchy: Hierarchy
    codes: np.ndarray  #: per record, depth-first rank of its leaf (int32)
    order: np.ndarray  #: leaf index at each depth-first rank
    groups: np.ndarray  #: (levels × leaves): group at level L of rank r, numbered depth-first
    under: np.ndarray  #: (levels × leaves): leaves under that group
    max_children: int


def _numeric_dim(table: MicroTable, j: int, col: str) -> _Numeric:
    h = table.hierarchies[col]
    codes = table.qi_codes[:, j]
    present = np.bincount(codes, minlength=h.n_leaves) > 0
    leaves = h.labels[:, 0]
    parsed = pl.Series(col, leaves.tolist(), dtype=pl.String).cast(pl.Float64, strict=False)
    if bool((parsed.is_null().to_numpy() & present).any()):
        table.numeric_values(col)  # raises counting and locating the non-numeric cells
        raise InputError(f"{table.source}, column {col!r}: not every value is a number")
    values = parsed.fill_null(0.0).to_numpy().astype(np.float64)
    bad = ~np.isfinite(values) & present
    if bad.any():
        raise InputError(
            f"{table.source}, column {col!r}: {bad_rows(bad[codes], table.first_line)} with a "
            "value that is not a finite number (nan or inf); a numeric quasi-identifier needs "
            "finite values — fix or remove those rows"
        )
    leaf_idx = np.flatnonzero(present)
    uniq, inverse = np.unique(values[leaf_idx], return_inverse=True)
    rank = np.zeros(h.n_leaves, dtype=np.int32)
    rank[leaf_idx] = inverse
    text = np.empty(uniq.size, dtype=object)
    text[inverse[::-1]] = leaves[leaf_idx[::-1]]  # first leaf written with each value wins
    return _Numeric(col, rank[codes], uniq, pl.Series(col, text.tolist(), dtype=pl.String))


def _categorical_dim(table: MicroTable, j: int, col: str) -> _Categorical:
    h = table.hierarchies[col]
    n = h.n_leaves
    levels = [h.group_of_leaf(level) for level in range(h.height + 1)]
    order = np.lexsort(tuple(levels))  # primary key: the top level, then downwards
    rank = np.empty(n, dtype=np.int32)
    rank[order] = np.arange(n, dtype=np.int32)
    groups = np.empty((h.height + 1, n), dtype=np.int32)
    under = np.empty((h.height + 1, n), dtype=np.int64)
    for level, g in enumerate(levels):
        along = g[order]
        ids = np.cumsum(np.r_[True, along[1:] != along[:-1]]) - 1
        groups[level] = ids
        under[level] = np.bincount(ids)[ids]
    max_children = 1
    for level in range(1, h.height + 1):
        first = np.flatnonzero(np.r_[True, groups[level - 1][1:] != groups[level - 1][:-1]])
        max_children = max(max_children, int(np.bincount(groups[level][first]).max()))
    return _Categorical(col, h, rank[table.qi_codes[:, j]], order, groups, under, max_children)


def _lca(dim: _Categorical, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Level of the lowest common ancestor of depth-first ranks ``lo`` and ``hi``."""
    same = dim.groups[:, lo] == dim.groups[:, hi]
    return (dim.groups.shape[0] - same.sum(axis=0)).astype(np.int64)


def _ranges(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Concatenation of ``arange(s, s + n)`` for each (s, n)."""
    total = int(sizes.sum())
    offsets = np.cumsum(sizes) - sizes
    return np.repeat(starts - offsets, sizes) + np.arange(total, dtype=np.int64)


def _min_class_size(models: Sequence[PrivacyModel]) -> int:
    """A size below which no class can satisfy all the models (1 when unknown)."""
    size = 1
    for m in models:
        if isinstance(m, (KAnonymity, KEAnonymity)):
            size = max(size, int(m.k))
        elif isinstance(m, (DistinctLDiversity, RecursiveCLDiversity)):
            size = max(size, int(m.l))
        elif isinstance(m, EntropyLDiversity):
            size = max(size, math.ceil(m.l))
    return size


# --------------------------------------------------------------------------------------------
# The partitioner
# --------------------------------------------------------------------------------------------


class _Partitioner:
    """Breadth-first Mondrian over the records of a table (see the module docstring)."""

    def __init__(
        self,
        dims: list[_Numeric | _Categorical],
        sa_codes: list[np.ndarray],
        sa_sizes: list[int],
        models: list[PrivacyModel],
        hist_index: dict[str | None, int],
        strict: bool,
    ) -> None:
        self.dims = dims
        self.d = len(dims)
        self.sa_sizes = sa_sizes
        self.models = models
        self.hist_index = hist_index
        self.strict = strict
        self.min_size = _min_class_size(models)
        self.n = int(dims[0].codes.size)
        self.index_dtype = np.int32 if self.n < 2**31 else np.int64
        # the active layout: records of unfinished partitions, grouped by partition
        self.rows = np.arange(self.n, dtype=self.index_dtype)
        self.x = [dim.codes.astype(np.int32, copy=False) for dim in dims]
        for dim in dims:  # the partitioner owns the codes now (frees N × d ints after round 1)
            dim.codes = np.empty(0, dtype=np.int32)
        self.s = [c.astype(np.int32, copy=False) for c in sa_codes]
        self.rounds = 0

    # ---------------------------------------------------------------- models
    def allowed(self, counts: np.ndarray, hists: list[np.ndarray]) -> np.ndarray:
        ok = np.ones(counts.size, dtype=bool)
        for m in self.models:
            hist = hists[self.hist_index[m.sensitive]] if m.sensitive else None
            ok &= np.asarray(m.class_ok(counts, hist), dtype=bool)
        return ok

    def _hists(self, part: np.ndarray, n_parts: int, idx: np.ndarray) -> list[np.ndarray]:
        out = []
        for codes, size in zip(self.s, self.sa_sizes, strict=True):
            flat = np.bincount(part * size + codes[idx], minlength=n_parts * size)
            out.append(flat.reshape(n_parts, size))
        return out

    # ---------------------------------------------------------------- splits
    def _layout(self, segs: np.ndarray, start: np.ndarray, size: np.ndarray):
        n = size[segs]
        idx = _ranges(start[segs], n)
        q = np.repeat(np.arange(segs.size, dtype=np.int64), n)
        off = np.cumsum(n) - n
        return n, idx, q, off

    def _binary_ok(self, valid, n_left, n, left, q, idx, totals) -> np.ndarray:
        """Are both parts of each ``valid`` split allowed (``left()`` gives the left records)?"""
        out = np.zeros(n.size, dtype=bool)
        sel = np.flatnonzero(valid)
        if sel.size == 0:
            return out
        counts = np.concatenate([n_left[sel], (n - n_left)[sel]]).astype(np.int64)
        hists = []
        if self.s:
            mask = left()
            for lh, th in zip(self._hists(q[mask], n.size, idx[mask]), totals, strict=True):
                lh = lh[sel]
                hists.append(np.concatenate([lh, th[sel] - lh]))
        ok = self.allowed(counts, hists)
        out[sel] = ok[: sel.size] & ok[sel.size :]
        return out

    def split_numeric(self, j: int, segs: np.ndarray, start: np.ndarray, size: np.ndarray):
        """Median split of each partition in ``segs`` on numeric attribute ``j``."""
        n, idx, q, off = self._layout(segs, start, size)
        x = self.x[j][idx]
        u = int(self.dims[j].values.size)
        base = np.arange(segs.size, dtype=np.int64) * u
        keys = q * u + x
        keys.sort()
        totals = self._hists(q, segs.size, idx) if self.s else []
        if self.strict:
            med = keys[off + (n - 1) // 2] - base  # lower median
            le = np.searchsorted(keys, base + med, side="right") - off
            lt = np.searchsorted(keys, base + med, side="left") - off
            valid_a, valid_b = le < n, lt > 0  # a: values <= median go left; b: values < median
            ok_a = self._binary_ok(valid_a, le, n, lambda: x <= med[q], q, idx, totals)
            ok_b = self._binary_ok(valid_b, lt, n, lambda: x < med[q], q, idx, totals)
            big = np.iinfo(np.int64).max
            bal_a = np.where(valid_a, np.abs(2 * le - n), big)
            bal_b = np.where(valid_b, np.abs(2 * lt - n), big)
            use_a = ok_a & ((bal_a <= bal_b) | ~ok_b)
            right = x >= (med + use_a)[q]
            return ok_a | ok_b, right, np.full(segs.size, 2, dtype=np.int64), idx
        n_left = n // 2
        last = keys[off + n_left - 1] - base  # value of the last record going left
        lt = np.searchsorted(keys, base + last, side="left") - off
        last_q = last[q]
        eq = x == last_q
        c = np.cumsum(eq, dtype=np.int64)
        before = c[off] - eq[off]
        # values below `last` go left, and the first (n_left - lt) records equal to it
        left = (x < last_q) | (eq & (c - before[q] <= (n_left - lt)[q]))
        ok = self._binary_ok(n_left > 0, n_left, n, lambda: left, q, idx, totals)
        return ok, ~left, np.full(segs.size, 2, dtype=np.int64), idx

    def split_categorical(
        self,
        j: int,
        segs: np.ndarray,
        start: np.ndarray,
        size: np.ndarray,
        lca: np.ndarray,
        lo: np.ndarray,
    ):
        """Split each partition in ``segs`` into the children of its node on attribute ``j``."""
        dim = self.dims[j]
        assert isinstance(dim, _Categorical)
        _, idx, q, _ = self._layout(segs, start, size)
        x = self.x[j][idx]
        leaves = dim.groups.shape[1]
        flat = dim.groups.ravel()
        # the children of a node are consecutive depth-first groups: number them from the
        # first one present (the child holding the smallest rank, lo)
        row = (lca - 1) * leaves
        first_child = flat[row + lo]
        fan = dim.max_children
        keys = q * fan + (flat[row[q] + x] - first_child[q])
        m = segs.size
        if m * fan <= 4 * keys.size + 1024:
            counts_all = np.bincount(keys, minlength=m * fan)
            present = counts_all > 0
            number = np.cumsum(present) - 1
            uniq = np.flatnonzero(present)
            counts = counts_all[uniq]
            inverse = number[keys]
        else:
            uniq, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
        part_seg = uniq // fan
        hists = self._hists(inverse, uniq.size, idx) if self.s else []
        ok_part = self.allowed(counts.astype(np.int64), hists)
        ok = np.bincount(part_seg, weights=~ok_part, minlength=m) == 0
        first = np.searchsorted(part_seg, np.arange(m))
        part = inverse - first[q]
        return ok, part, np.bincount(part_seg, minlength=m).astype(np.int64), idx

    def _chunks(self, segs: np.ndarray, j: int) -> list[np.ndarray]:
        if not self.s:
            return [segs]
        dim = self.dims[j]
        fan = dim.max_children if isinstance(dim, _Categorical) else 2
        per = max(1, HIST_CELLS // (fan * sum(self.sa_sizes)))
        return [segs[i : i + per] for i in range(0, segs.size, per)]

    # ---------------------------------------------------------------- rounds
    def _boxes(self, start: np.ndarray):
        p = start.size
        lo = np.empty((p, self.d), dtype=np.int32)
        hi = np.empty((p, self.d), dtype=np.int32)
        for j, x in enumerate(self.x):
            lo[:, j] = np.minimum.reduceat(x, start)
            hi[:, j] = np.maximum.reduceat(x, start)
        return lo, hi

    def _widths(self, lo: np.ndarray, hi: np.ndarray):
        p = lo.shape[0]
        width = np.empty((p, self.d))
        splittable = np.empty((p, self.d), dtype=bool)
        lca = np.zeros((p, self.d), dtype=np.int64)
        for j, dim in enumerate(self.dims):
            if isinstance(dim, _Numeric):
                span = dim.span
                w = dim.values[hi[:, j]] - dim.values[lo[:, j]]
                width[:, j] = w / span if span > 0 else 0.0
                splittable[:, j] = (hi[:, j] > lo[:, j]) if self.strict else True
            else:
                lca[:, j] = _lca(dim, lo[:, j], hi[:, j])
                width[:, j] = dim.under[lca[:, j], lo[:, j]] / dim.groups.shape[1]
                splittable[:, j] = lca[:, j] > 0
        width[~splittable] = -1.0
        return width, splittable, lca

    def run(self, progress: ProgressFn | None = None):
        """Partition the records; return (partition of each row, sizes, lo codes, hi codes).

        ``progress(done, total)``: after each round, the records in final partitions."""
        start = np.zeros(1, dtype=np.int64)
        size = np.array([self.n], dtype=np.int64)
        partition = np.empty(self.n, dtype=np.int64)
        done_lo, done_hi, done_size = [], [], []
        n_done = 0
        while size.size:
            self.rounds += 1
            p = size.size
            m = int(size.sum())
            lo, hi = self._boxes(start)
            width, splittable, lca = self._widths(lo, hi)
            part = np.full(m, -1, dtype=np.int32)
            n_parts = np.zeros(p, dtype=np.int64)
            undecided = size >= 2 * self.min_size
            if undecided.any():
                rows = np.arange(p)
                for _attempt in range(self.d):
                    # the widest attribute not tried yet (ties: the first in QI order)
                    dim_a = np.argmax(width, axis=1)
                    undecided &= splittable[rows, dim_a]
                    if not undecided.any():
                        break
                    width[rows, dim_a] = -2.0
                    splittable[rows, dim_a] = False
                    for j in range(self.d):
                        segs = np.flatnonzero(undecided & (dim_a == j))
                        if segs.size == 0:
                            continue
                        for chunk in self._chunks(segs, j):
                            if isinstance(self.dims[j], _Numeric):
                                ok, sub, k, idx = self.split_numeric(j, chunk, start, size)
                            else:
                                ok, sub, k, idx = self.split_categorical(
                                    j, chunk, start, size, lca[chunk, j], lo[chunk, j]
                                )
                            won = chunk[ok]
                            n_parts[won] = k[ok]
                            undecided[won] = False
                            if ok.all():
                                part[idx] = sub
                            elif ok.any():
                                rec = np.repeat(ok, size[chunk])
                                part[idx[rec]] = sub[rec]
            final = np.flatnonzero(n_parts == 0)
            if final.size:
                recs = _ranges(start[final], size[final])
                ids = np.arange(n_done, n_done + final.size, dtype=np.int64)
                partition[self.rows[recs]] = np.repeat(ids, size[final])
                done_lo.append(lo[final])
                done_hi.append(hi[final])
                done_size.append(size[final])
                n_done += final.size
            if progress is not None:
                progress(self.n - int(size[n_parts > 0].sum()), self.n)
            if final.size == p:
                break
            seg = np.repeat(np.arange(p, dtype=np.int64), size)
            keep = np.flatnonzero(part >= 0)
            first_part = np.cumsum(n_parts) - n_parts
            new_id = first_part[seg[keep]] + part[keep]
            src = keep[np.argsort(new_id, kind="stable")]
            size = np.bincount(new_id, minlength=int(n_parts.sum())).astype(np.int64)
            start = np.cumsum(size) - size
            self.rows = self.rows[src]
            self.x = [x[src] for x in self.x]
            self.s = [s[src] for s in self.s]
        return (
            partition,
            np.concatenate(done_size),
            np.concatenate(done_lo),
            np.concatenate(done_hi),
        )


# --------------------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------------------


def _check_numeric(table: MicroTable, numeric: Sequence[str] | str) -> list[str]:
    cols = [numeric] if isinstance(numeric, str) else list(numeric)
    out: list[str] = []
    for c in cols:
        c = str(c)
        if c not in table.frame.columns:
            raise ConfigError(
                f"numeric column {c!r} not found in {table.source}; the columns are "
                f"{table.frame.columns}"
            )
        if c not in table.qi:
            raise ConfigError(
                f"numeric column {c!r} is not a quasi-identifier (they are {table.qi}); "
                f"add it with --qi {c} or remove it from --numeric"
            )
        if c not in out:
            out.append(c)
    return out


def mondrian(
    table: MicroTable,
    models: Sequence[PrivacyModel],
    numeric: Sequence[str] = (),
    *,
    strict: bool = True,
    progress: ProgressFn | None = None,
) -> MondrianResult:
    """Anonymize ``table`` by Mondrian multidimensional partitioning (LeFevre et al., ICDE 2006).

    ``models``: any combination of :mod:`privlab.table.models`; every released class satisfies
    all of them.  ``numeric``: the QIs split on numeric values (released as ranges); the other
    QIs are split along their hierarchies.  ``strict=False`` gives relaxed Mondrian.  See the
    module docstring for the rules, the metrics and the complexity, O(d · N log N) expected.
    ``progress(done, total)`` is called after each round with the records whose class is
    final.

    Raises ConfigError for bad parameters (no model, unknown or non-QI numeric column),
    InputError for a non-numeric value in a numeric column (naming its line) and
    InfeasibleError when the whole table already violates the models.
    """
    t0 = time.perf_counter()
    models = list(models)
    if not models:
        raise ConfigError("no privacy model given; add at least k-anonymity (-k K)")
    num = _check_numeric(table, numeric)
    sensitive = bind_models(models, table.sa_codes, table.sa_values, table.n_rows)
    hist_index: dict[str | None, int] = {s: i for i, s in enumerate(sensitive)}
    sa_codes = [table.sa_codes[s] for s in sensitive]
    sa_sizes = [int(table.sa_values[s].size) for s in sensitive]

    # the whole table is the coarsest partition: it must satisfy the models
    counts = np.array([table.n_rows], dtype=np.int64)
    hists = [np.bincount(c, minlength=k)[None, :] for c, k in zip(sa_codes, sa_sizes, strict=True)]
    failing = [
        m.describe()
        for m in models
        if not bool(m.class_ok(counts, hists[hist_index[m.sensitive]] if m.sensitive else None)[0])
    ]
    if failing:
        raise InfeasibleError(
            f"the whole table ({table.n_rows} records) does not satisfy {', '.join(failing)}; "
            "Mondrian only splits the table into smaller classes, so no release can satisfy "
            "it — relax the models (e.g. a smaller k, ℓ or a larger t)"
        )

    dims: list[_Numeric | _Categorical] = [
        _numeric_dim(table, j, c) if c in num else _categorical_dim(table, j, c)
        for j, c in enumerate(table.qi)
    ]
    part = _Partitioner(dims, sa_codes, sa_sizes, models, hist_index, strict=bool(strict))
    partition, sizes, lo, hi = part.run(progress)

    labels = _describe(dims, lo, hi)
    label_ids, label_text, ncp = labels.ids, labels.text, labels.ncp
    class_sizes = _class_sizes(label_ids, sizes)
    per_qi = ncp_by_attribute(sizes, ncp)
    gcp = global_certainty_penalty(sizes, ncp)

    columns = [
        label_text[j].gather(label_ids[:, j][partition]).alias(col)
        for j, col in enumerate(table.qi)
    ]
    keep = [c for c in table.frame.columns if c not in table.identifying]
    frame = table.frame.select(keep).with_columns(columns)

    return MondrianResult(
        release=table.as_input_kind(frame),
        strict=bool(strict),
        qi=list(table.qi),
        numeric=num,
        partition=partition,
        partition_sizes=sizes,
        partition_ncp=ncp,
        ranges=labels.ranges,
        nodes=labels.nodes,
        class_sizes=class_sizes,
        n_records=table.n_rows,
        ncp=float(per_qi.mean()) if per_qi.size else 0.0,
        ncp_per_qi={c: float(v) for c, v in zip(table.qi, per_qi, strict=True)},
        gcp=gcp,
        discernibility=discernibility_penalty(class_sizes),
        models=[m.describe() for m in models],
        rounds=part.rounds,
        seconds=time.perf_counter() - t0,
    )


@dataclass
class _Labels:
    ids: np.ndarray  #: (partitions × d) index of each partition's label in ``text[j]``
    text: list[pl.Series]  #: distinct released labels per QI
    ncp: np.ndarray  #: (partitions × d) normalized certainty penalty
    ranges: dict[str, np.ndarray]
    nodes: dict[str, np.ndarray]


def _describe(dims: list[_Numeric | _Categorical], lo: np.ndarray, hi: np.ndarray) -> _Labels:
    """Labels, NCPs, ranges and nodes of the final partitions (min/max codes ``lo``/``hi``)."""
    n_parts = lo.shape[0]
    out = _Labels(
        np.empty((n_parts, len(dims)), dtype=np.int64), [], np.empty((n_parts, len(dims))), {}, {}
    )
    for j, dim in enumerate(dims):
        lo_j, hi_j = lo[:, j], hi[:, j]
        if isinstance(dim, _Numeric):
            a, b = dim.values[lo_j], dim.values[hi_j]
            out.ranges[dim.name] = np.stack([a, b], axis=1)
            out.ncp[:, j] = numeric_ncp(a, b, dim.values[0], dim.values[-1])
            u = dim.values.size
            keys, inverse = np.unique(lo_j.astype(np.int64) * u + hi_j, return_inverse=True)
            text = _range_labels(dim.text, keys // u, keys % u)
        else:
            h = dim.hierarchy
            level = _lca(dim, lo_j, hi_j)
            leaf = dim.order[lo_j]
            out.ncp[:, j] = categorical_ncp(dim.under[level, lo_j], h.n_leaves)
            group = np.empty(n_parts, dtype=np.int64)
            for lv in np.unique(level).tolist():
                sel = level == lv
                group[sel] = h.group_of_leaf(lv)[leaf[sel]]
            out.nodes[dim.name] = np.stack([level, group], axis=1)
            _, first, inverse = np.unique(
                level * h.n_leaves + group, return_index=True, return_inverse=True
            )
            text = pl.Series(h.labels[leaf[first], level[first]].tolist(), dtype=pl.String)
        inverse = inverse.reshape(-1)
        if text.is_duplicated().any():
            # identical texts (possible across hierarchy levels) are one released value
            uniq, remap = np.unique(np.array(text.to_list(), dtype=object), return_inverse=True)
            text, inverse = pl.Series(uniq.tolist(), dtype=pl.String), remap.reshape(-1)[inverse]
        out.ids[:, j] = inverse
        out.text.append(text)
    return out


def _range_labels(text: pl.Series, lo: np.ndarray, hi: np.ndarray) -> pl.Series:
    """``"lo-hi"`` for each pair of value indices, or the value alone when lo = hi."""
    frame = pl.DataFrame({"lo": text.gather(lo), "hi": text.gather(hi), "same": lo == hi})
    return frame.select(
        pl.when(pl.col("same"))
        .then(pl.col("lo"))
        .otherwise(pl.concat_str([pl.col("lo"), pl.col("hi")], separator="-"))
    ).to_series()


def _class_sizes(label_ids: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Sizes of the released classes: partitions with identical label tuples merged."""
    cols = [f"q{j}" for j in range(label_ids.shape[1])]
    frame = pl.DataFrame({c: label_ids[:, j] for j, c in enumerate(cols)}).with_columns(
        pl.Series("n", sizes)
    )
    merged = frame.group_by(cols, maintain_order=True).agg(pl.col("n").sum())
    return merged["n"].to_numpy().astype(np.int64)
