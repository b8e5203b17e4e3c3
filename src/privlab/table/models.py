"""Privacy models for microdata, evaluated per equivalence class, vectorized over classes.

Every model here is *union-closed*: if two classes satisfy it, so does their union, so
"every class satisfies the models" is monotone over the generalization lattice.  With record
suppression, monotonicity also needs a class merged with *any* class to pass as soon as one
part passes (then the suppressed records can only fall as the transformation is generalized):
``monotone_with_suppression`` says which models have that property (ARX's
``isMonotonicWithSuppression``).  The optimal search prunes with it (Kohlmayer et al., Flash;
LeFevre et al., Incognito).

Sources (see ``docs/models.md``):

* k-anonymity — seed 000 §2.3, Def 3.3 (Sweeney).
* distinct and entropy ℓ-diversity — seed 000 §2.3, Def 3.4; recursive (c,ℓ)-diversity —
  Machanavajjhala et al. 2007 (not in the seeds).
* t-closeness — seed 000 §2.3, Def 3.5; the EMD formulas are Li, Li & Venkatasubramanian 2007
  (equal, ordered and hierarchical ground distance).
* δ-disclosure privacy — Brickell & Shmatikov 2008.
* (k,e)-anonymity — seed 001 §2.1 (Def 2.4.2): ≥ k distinct sensitive values and a range ≥ e.

**ARX parity** (``docs/adr/0001-arx-semantics.md``).  Each model was checked line by line
against ARX's ``org.deidentifier.arx.criteria`` class of the same name; the docstrings say
where privlab follows ARX and where it deliberately follows the paper instead.  One rule for
thresholds: a statistic within a relative 1e-12 of its threshold is treated as *equal* to it
and the definition's comparison decides (≥ and ≤ pass, < fails).  ARX compares raw doubles,
so the two can disagree only on such exact ties (e.g. ARX rejects a class with two values
three times each for entropy 2-diversity, on rounding).

Each ``class_ok`` call is O(m × |domain|) for m classes.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from privlab.errors import ConfigError
from privlab.table.hierarchy import Hierarchy


@dataclass
class SensitiveDomain:
    """What a model needs to know about its sensitive attribute over the whole table."""

    name: str
    values: np.ndarray  #: distinct values (strings), code i is values[i]
    global_counts: np.ndarray  #: count of each value in the whole input table
    numeric: np.ndarray | None = None  #: values parsed as numbers, if they all parse

    @property
    def size(self) -> int:
        return int(self.values.size)


class PrivacyModel(ABC):
    """A per-class privacy criterion; ``sensitive`` names the attribute it protects, if any."""

    sensitive: str | None = None
    #: A class merged with a passing class always passes (see the module docstring).
    monotone_with_suppression: ClassVar[bool] = False

    def bind(self, domain: SensitiveDomain | None, n_records: int) -> None:  # noqa: B027
        """Receive the sensitive attribute's domain before evaluation (default: nothing)."""

    @abstractmethod
    def class_ok(self, counts: np.ndarray, hist: np.ndarray | None) -> np.ndarray:
        """Boolean mask: which classes (sizes ``counts``, SA histograms ``hist``) satisfy it."""

    @abstractmethod
    def describe(self) -> str:
        """Short human-readable form, e.g. ``5-anonymity``."""

    def to_dict(self) -> dict[str, object]:
        return {"model": type(self).__name__, "description": self.describe()}


def sensitive_domain(name: str, codes: np.ndarray, values: np.ndarray) -> SensitiveDomain:
    """Domain of a sensitive attribute from its codes and distinct values (over all records)."""
    counts = np.bincount(codes, minlength=values.size)
    try:
        numeric = values.astype(np.float64)
    except ValueError:
        numeric = None
    return SensitiveDomain(name, values, counts, numeric)


def bind_models(
    models: list[PrivacyModel],
    sa_codes: dict[str, np.ndarray],
    sa_values: dict[str, np.ndarray],
    n_records: int,
) -> list[str]:
    """Bind each model to its sensitive attribute; return the sensitive attributes used, in order.

    Raises ConfigError when a model names a column that is not declared sensitive.
    """
    used: list[str] = []
    for m in models:
        if m.sensitive:
            if m.sensitive not in sa_codes:
                raise ConfigError(
                    f"{m.describe()}: column {m.sensitive!r} is not a sensitive attribute; "
                    f"declare it with --sensitive {m.sensitive}"
                )
            if m.sensitive not in used:
                used.append(m.sensitive)
            m.bind(
                sensitive_domain(m.sensitive, sa_codes[m.sensitive], sa_values[m.sensitive]),
                n_records,
            )
        else:
            m.bind(None, n_records)
    return used


#: Relative tolerance within which a statistic counts as equal to its threshold.
TIE_TOLERANCE = 1e-12


def _tol(bound: float | np.ndarray) -> float | np.ndarray:
    return TIE_TOLERANCE * np.maximum(1.0, np.abs(bound))


def at_least(x: np.ndarray, bound: float | np.ndarray) -> np.ndarray:
    """``x ≥ bound``, ties (within :data:`TIE_TOLERANCE`) passing."""
    return x >= bound - _tol(bound)


def at_most(x: np.ndarray, bound: float | np.ndarray) -> np.ndarray:
    """``x ≤ bound``, ties passing."""
    return x <= bound + _tol(bound)


def below(x: np.ndarray, bound: float | np.ndarray) -> np.ndarray:
    """``x < bound`` strictly, ties failing."""
    return x < bound - _tol(bound)


def _positive_int(name: str, value: object, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ConfigError(f"{name} must be an integer ≥ {minimum}, got {value!r}")
    return int(value)


def _positive_float(name: str, value: object, *, allow_zero: bool = False) -> float:
    try:
        v = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ConfigError(f"{name} must be a number, got {value!r}") from None
    if not np.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        raise ConfigError(f"{name} must be {'≥' if allow_zero else '>'} 0, got {value!r}")
    return v


@dataclass
class KAnonymity(PrivacyModel):
    """Every class has at least ``k`` records (seed 000 Def 3.3).

    ARX: ``criteria/KAnonymity.java`` — k is ARX's *minimal class size*
    (``getMinimalClassSize``); ``HashGroupify.isPrivacyModelFulfilled`` fails a class with
    ``count < k``, i.e. the same ``count ≥ k``.  Unlike ARX, ``k`` larger than the table is
    rejected up front (no transformation could satisfy it without suppressing everything).
    """

    k: int
    monotone_with_suppression: ClassVar[bool] = True

    def __post_init__(self) -> None:
        self.k = _positive_int("k", self.k)

    def bind(self, domain: SensitiveDomain | None, n_records: int) -> None:
        if self.k > n_records:
            raise ConfigError(
                f"k = {self.k} is larger than the table ({n_records} rows); choose k ≤ {n_records}"
            )

    def class_ok(self, counts: np.ndarray, hist: np.ndarray | None) -> np.ndarray:
        return counts >= self.k

    def describe(self) -> str:
        return f"{self.k}-anonymity"


@dataclass
class _SensitiveModel(PrivacyModel):
    sensitive: str = field(default="")
    _domain: SensitiveDomain | None = field(default=None, init=False, repr=False)

    def bind(self, domain: SensitiveDomain | None, n_records: int) -> None:
        if domain is None:
            raise ConfigError(
                f"{self.describe()}: {self.sensitive!r} must be a sensitive attribute"
            )
        self._domain = domain

    @property
    def domain(self) -> SensitiveDomain:
        if self._domain is None:
            raise ConfigError(f"{self.describe()} was used before being bound to a table")
        return self._domain


@dataclass
class DistinctLDiversity(_SensitiveModel):
    """Each class has at least ℓ distinct sensitive values (seed 000 §2.3, simplified Def 3.4).

    ARX: ``criteria/DistinctLDiversity.java`` — ``distribution.size() >= l``; identical.
    """

    l: int = 2  # noqa: E741 - the literature's name
    monotone_with_suppression: ClassVar[bool] = True

    def __post_init__(self) -> None:
        self.l = _positive_int("l", self.l)

    def class_ok(self, counts: np.ndarray, hist: np.ndarray | None) -> np.ndarray:
        assert hist is not None
        return np.count_nonzero(hist, axis=1) >= self.l

    def describe(self) -> str:
        return f"distinct-{self.l}-diversity({self.sensitive})"


def class_entropy(hist: np.ndarray) -> np.ndarray:
    """Shannon entropy (nats) of each row of a count matrix."""
    totals = hist.sum(axis=1, keepdims=True).astype(np.float64)
    p = np.divide(hist, totals, out=np.zeros(hist.shape), where=totals > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(p), 0.0)
    return -terms.sum(axis=1)


@dataclass
class EntropyLDiversity(_SensitiveModel):
    """Entropy of each class's sensitive distribution ≥ log ℓ (seed 000 Def 3.4).

    ℓ may be fractional (Table 3.2 of seed 000 is 2^1.5 ≈ 2.83-diverse).  The base of the
    logarithm cancels (natural logs here).  A class also needs ⌈ℓ⌉ distinct values — implied
    by the entropy bound (k values have entropy ≤ log k), checked exactly as ARX does.

    ARX: ``criteria/EntropyLDiversity.java`` with the default ``EntropyEstimator.SHANNON``:
    fail when fewer than ⌈ℓ⌉ values, else pass iff Σ n·ln n ≤ N·(ln N − ln ℓ), which is
    H ≥ ln ℓ.  Same definition; ARX has no tie tolerance and, on rounding, rejects some
    classes exactly at the bound (two values three times each, ℓ = 2), which the definition
    accepts and privlab accepts.  ARX's optional ``GRASSBERGER`` estimator (Stammler et al.,
    PSD 2016) is not the paper's definition and not offered: it is not union-closed (classes
    with counts (5,5) and (3,3) estimate 0.908 and 1.067 nats, their union (8,8) 0.691), so
    the optimal search could not prune with it — ARX flags it monotone all the same.
    """

    l: float = 2.0  # noqa: E741

    def __post_init__(self) -> None:
        self.l = _positive_float("l", self.l)
        if self.l < 1:
            raise ConfigError(f"l must be ≥ 1 for entropy l-diversity, got {self.l}")

    def class_ok(self, counts: np.ndarray, hist: np.ndarray | None) -> np.ndarray:
        assert hist is not None
        enough = np.count_nonzero(hist, axis=1) >= math.ceil(self.l)
        return enough & at_least(class_entropy(hist), math.log(self.l))

    def describe(self) -> str:
        return f"entropy-{self.l:g}-diversity({self.sensitive})"


@dataclass
class RecursiveCLDiversity(_SensitiveModel):
    """Recursive (c,ℓ)-diversity: r_1 < c·(r_ℓ + … + r_m) with counts sorted descending.

    Source: Machanavajjhala et al., "ℓ-Diversity", TKDD 2007, Def 4.2 (not in the seeds).
    Strict: a class exactly at r_1 = c·(r_ℓ + … + r_m) fails.  A class with fewer than ℓ
    distinct values has an empty tail and fails.

    ARX: ``criteria/RecursiveCLDiversity.java`` — fewer than ℓ values fail, else
    ``r_1 < c · (r_ℓ + … + r_m)``; identical, except that ARX compares the double ``c·tail``
    as is, so a tie broken by rounding (c = 1.1, counts (55, 50), ℓ = 2: 1.1·50 =
    55.00000000000001) passes in ARX and fails here, as the definition says.
    """

    c: float = 3.0
    l: int = 2  # noqa: E741

    def __post_init__(self) -> None:
        self.c = _positive_float("c", self.c)
        self.l = _positive_int("l", self.l)

    def class_ok(self, counts: np.ndarray, hist: np.ndarray | None) -> np.ndarray:
        assert hist is not None
        r = -np.sort(-hist, axis=1)
        tail = r[:, self.l - 1 :].sum(axis=1) if self.l <= r.shape[1] else np.zeros(r.shape[0])
        enough = np.count_nonzero(hist, axis=1) >= self.l
        return enough & below(r[:, 0].astype(np.float64), self.c * tail)

    def describe(self) -> str:
        return f"recursive-({self.c:g},{self.l})-diversity({self.sensitive})"


@dataclass
class TCloseness(_SensitiveModel):
    """Earth mover's distance between each class's and the table's distribution ≤ t.

    ``distance``: ``equal`` (½ Σ|p−q|), ``ordered`` (values in numeric order when they all
    parse as numbers, else in text order; ground distance |i−j|/(m−1) over the m distinct
    values of the table), or ``hierarchical`` (ground distance = height of the lowest common
    ancestor / tree height, over ``hierarchy``).  A class exactly at t passes (≤).
    Source: seed 000 Def 3.5; formulas from Li et al., ICDE 2007, §4.

    ARX: ``criteria/EqualDistanceTCloseness.java`` (½·(1 + Σ_{p_i>0}(|q_i−p_i| − q_i)) ≤ t,
    the same quantity), ``criteria/OrderedDistanceTCloseness.java`` (Σ|cumulative p−q| ≤
    t·(m−1) with m the size of the attribute's dictionary) and
    ``criteria/HierarchicalDistanceTCloseness.java`` (Li et al.'s Σ level(N)/H ·
    min(pos, neg) over inner nodes, on integer counts, H = hierarchy columns − 1); the
    global distribution is over all input records in both.  Differences: ARX orders values
    for the ordered distance by the attribute's declared ``DataType`` (default ``STRING``:
    "10" < "9"), privlab numerically whenever every value parses; and ARX registers a
    hierarchy's inner labels in the attribute's dictionary when hierarchical t-closeness is
    also used on it, which inflates ARX's m for an ordered model on the same attribute.
    """

    t: float = 0.2
    distance: str = "equal"
    hierarchy: Hierarchy | None = None
    _order: np.ndarray | None = field(default=None, init=False, repr=False)
    _tree: list[np.ndarray] | None = field(default=None, init=False, repr=False)
    _parents: list[np.ndarray] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        self.t = _positive_float("t", self.t, allow_zero=True)
        if self.distance not in ("equal", "ordered", "hierarchical"):
            raise ConfigError(
                f"t-closeness distance {self.distance!r}: use equal, ordered or hierarchical"
            )
        if self.distance == "hierarchical" and self.hierarchy is None:
            raise ConfigError(
                "hierarchical t-closeness needs a hierarchy for the sensitive attribute "
                "(--sensitive-hierarchy COL=FILE)"
            )

    def bind(self, domain: SensitiveDomain | None, n_records: int) -> None:
        super().bind(domain, n_records)
        dom = self.domain
        if self.distance == "ordered":
            key = dom.numeric if dom.numeric is not None else dom.values
            self._order = np.argsort(key, kind="stable")
        elif self.distance == "hierarchical":
            assert self.hierarchy is not None
            h = self.hierarchy
            leaf_of = h.encode(list(dom.values), column=dom.name)
            # indicator (domain value -> group) per level, and (group -> parent group) per step
            self._tree = [
                np.eye(h.n_groups(level))[h.group_of_leaf(level)[leaf_of]]
                for level in range(h.height + 1)
            ]
            self._parents = [
                np.eye(h.n_groups(level + 1))[_parent_map(h, level)] for level in range(h.height)
            ]

    def emd(self, hist: np.ndarray) -> np.ndarray:
        """EMD of each class (row of ``hist``) to the global distribution."""
        dom = self.domain
        q = dom.global_counts / dom.global_counts.sum()
        totals = hist.sum(axis=1, keepdims=True).astype(np.float64)
        p = np.divide(hist, totals, out=np.zeros(hist.shape), where=totals > 0)
        diff = p - q[None, :]
        if self.distance == "equal":
            return 0.5 * np.abs(diff).sum(axis=1)
        if self.distance == "ordered":
            m = dom.size
            if m <= 1:
                return np.zeros(hist.shape[0])
            cum = np.cumsum(diff[:, self._order], axis=1)
            return np.abs(cum).sum(axis=1) / (m - 1)
        return self._hierarchical_emd(diff)

    def _hierarchical_emd(self, diff: np.ndarray) -> np.ndarray:
        """Li et al. 2007, Eq. (4): Σ over inner nodes N of level(N)/H · min(pos, neg).

        pos (neg) is the summed positive (negative) extra mass p−q of N's children.
        """
        assert self._tree is not None and self.hierarchy is not None
        big_h = self.hierarchy.height
        total = np.zeros(diff.shape[0])
        for level in range(1, big_h + 1):
            extra = diff @ self._tree[level - 1]  # extra mass of each child group
            parent = self._parents[level - 1]
            pos = np.clip(extra, 0, None) @ parent
            neg = np.clip(-extra, 0, None) @ parent
            total += (level / big_h) * np.minimum(pos, neg).sum(axis=1)
        return total

    def class_ok(self, counts: np.ndarray, hist: np.ndarray | None) -> np.ndarray:
        assert hist is not None
        return at_most(self.emd(hist), self.t)

    def describe(self) -> str:
        return f"{self.t:g}-closeness[{self.distance}]({self.sensitive})"


def _parent_map(h: Hierarchy, level: int) -> np.ndarray:
    """Group index at ``level + 1`` of each group at ``level``."""
    out = np.zeros(h.n_groups(level), dtype=np.int64)
    out[h.group_of_leaf(level)] = h.group_of_leaf(level + 1)
    return out


def disclosure_delta(hist: np.ndarray, global_counts: np.ndarray) -> np.ndarray:
    """Per class, max over sensitive values s of |log₂(p(s|class) / p(s))|.

    Values absent from the whole table are skipped; a value of the table absent from the
    class gives +∞ (log 0).  The ratio is formed from integer products, so exact ratios
    such as 2 give exact logarithms.  A class is δ-disclosure-private iff the result is < δ.
    """
    present = global_counts > 0
    h = hist[:, present].astype(np.float64)
    n = h.sum(axis=1, keepdims=True)
    big_n = float(global_counts.sum())
    ratio = (h * big_n) / (n * global_counts[present].astype(np.float64)[None, :])
    with np.errstate(divide="ignore"):
        return np.abs(np.log2(ratio)).max(axis=1, initial=0.0)


@dataclass
class DeltaDisclosure(_SensitiveModel):
    """δ-disclosure privacy: |log₂(p(s|class) / p(s))| < δ for every value s.

    Source: Brickell & Shmatikov, KDD 2008, Def. 4.

    Strict: a class exactly at δ fails.  A value of the table absent from a class gives
    log 0 = −∞ and fails, as in the definition ("for all s ∈ S"): every class must contain
    every sensitive value, which is what makes the model union-closed.

    ARX: ``criteria/DDisclosurePrivacy.java`` — the logarithm is base 2 (the paper writes
    ``log`` without a base; privlab follows ARX, and the bits convention of seed 000 §2.2).
    Deliberate difference: ARX only loops over the values *present* in the class, so a
    class missing a sensitive value can pass in ARX; that contradicts the definition (and is
    why ARX flags the model as not monotone even without suppression).  Across ARX and
    privlab, results agree on every class that contains all sensitive values.
    """

    delta: float = 1.0

    def __post_init__(self) -> None:
        self.delta = _positive_float("delta", self.delta)

    def class_ok(self, counts: np.ndarray, hist: np.ndarray | None) -> np.ndarray:
        assert hist is not None
        return below(disclosure_delta(hist, self.domain.global_counts), self.delta)

    def describe(self) -> str:
        return f"{self.delta:g}-disclosure({self.sensitive})"


@dataclass
class KEAnonymity(_SensitiveModel):
    """(k,e)-anonymity: ≥ k distinct sensitive values spanning a range ≥ e (seed 001 Def 2.4.2).

    Both bounds are inclusive, as in seed 001 §2.1 (Def 2.3.3 / 2.4.2).  Not in ARX.
    """

    k: int = 2
    e: float = 0.0
    monotone_with_suppression: ClassVar[bool] = True

    def __post_init__(self) -> None:
        self.k = _positive_int("k", self.k)
        self.e = _positive_float("e", self.e, allow_zero=True)

    def bind(self, domain: SensitiveDomain | None, n_records: int) -> None:
        super().bind(domain, n_records)
        if self.domain.numeric is None:
            raise ConfigError(
                f"(k,e)-anonymity needs a numeric sensitive attribute; {self.sensitive!r} "
                "has non-numeric values"
            )

    def class_ok(self, counts: np.ndarray, hist: np.ndarray | None) -> np.ndarray:
        assert hist is not None
        num = self.domain.numeric
        assert num is not None
        present = hist > 0
        hi = np.where(present, num[None, :], -np.inf).max(axis=1)
        lo = np.where(present, num[None, :], np.inf).min(axis=1)
        return (np.count_nonzero(present, axis=1) >= self.k) & at_least(hi - lo, self.e)

    def describe(self) -> str:
        return f"({self.k},{self.e:g})-anonymity({self.sensitive})"
