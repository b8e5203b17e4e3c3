"""The skewness and similarity attacks on ℓ-diverse releases (the motivation of t-closeness).

Seed 000 §2.3 (thesis §3.3.2, L2097–2133), after Li, Li & Venkatasubramanian, "t-Closeness:
privacy beyond k-anonymity and ℓ-diversity" (ICDE 2007, §3.1):

* **Skewness.**  ℓ-diversity ignores the overall distribution.  If 1 % of the table is
  positive, a class with 50 % positives is 2-diverse yet raises everyone's posterior of
  being positive from 1 % to 50 %.  :func:`skewness_attack` reports, per record, the
  posterior of a sensitive value in its class against the value's share of the whole
  release (its *lift*), for a given value or for each record's own value.
* **Similarity.**  The values of a class may be distinct but semantically close (gastric
  ulcer, gastritis, stomach cancer; salaries 3K–5K): the adversary learns "a stomach disease"
  or "a low salary".  :func:`similarity_attack` maps the values to categories (e.g. one level
  of the sensitive attribute's hierarchy) or, for a numeric attribute, measures the class's
  range, and reports the records whose category is disclosed with posterior ≥ τ or whose
  value is pinned to a range narrower than ``width``.

The adversary knows each target's QIs and presence, so locates its class; every released row
is a target (the data owner's evaluation, as in :func:`~privlab.table.attacks.inference.
homogeneity_attack`).  O(n + classes × values).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError
from privlab.table.attacks._match import (
    numeric_values,
    sensitive_classes,
)
from privlab.validate import check_fraction


@dataclass
class SkewnessResult:
    """Per record: the posterior of the attacked value in its class, the prior, the lift."""

    posterior: np.ndarray
    prior: np.ndarray
    lift: np.ndarray
    distinct: np.ndarray  # distinct sensitive values in the record's class (its distinct ℓ)
    min_lift: float
    parameters: dict[str, Any] = field(default_factory=dict)

    @property
    def skewed(self) -> np.ndarray:
        """Records whose posterior is at least ``min_lift`` times the prior."""
        return self.lift >= self.min_lift

    def to_dict(self) -> dict[str, Any]:
        n = max(self.lift.size, 1)
        diverse = self.distinct >= 2
        return {
            "records": int(self.lift.size),
            "min_lift": self.min_lift,
            "skewed_rate": float(self.skewed.sum() / n),
            "skewed_in_diverse_classes_rate": float((self.skewed & diverse).sum() / n),
            "max_lift": float(self.lift.max()) if self.lift.size else 0.0,
            "max_posterior": float(self.posterior.max()) if self.lift.size else 0.0,
            **self.parameters,
        }


def skewness_attack(
    release: Any,
    quasi_identifiers: Iterable[str],
    sensitive: str,
    *,
    value: Any = None,
    min_lift: float = 10.0,
) -> SkewnessResult:
    """Posterior against prior of ``value`` (None: each record's own value) per record.

    The prior is the value's share of the whole release; the posterior its share of the
    record's class.  O(n + classes × values).
    """
    lift_min = float(min_lift)
    if not lift_min > 1:
        raise ConfigError(f"min_lift = {min_lift!r}: give a factor > 1 (e.g. 10)")
    _, c = sensitive_classes(release, quasi_identifiers, sensitive)
    prior_all = c.hist.sum(axis=0) / c.sizes.sum()
    post_all = c.hist / c.sizes[:, None]
    if value is None:
        col = c.codes
    else:
        hit = np.flatnonzero(c.values.astype(str) == str(value))
        if hit.size == 0:
            raise InputError(
                f"value: {sensitive!r} has no released row with the value given; name a value "
                "that occurs in the release"
            )
        col = np.full(c.codes.size, int(hit[0]))
    post = post_all[c.row_class, col]
    prior = prior_all[col]
    distinct = np.count_nonzero(c.hist, axis=1)[c.row_class]
    params = {"attack": "skewness", "value": None if value is None else str(value)}
    return SkewnessResult(post, prior, post / prior, distinct, lift_min, params)


@dataclass
class SimilarityResult:
    """Per record: the largest category posterior in its class, and what is disclosed."""

    category_posterior: np.ndarray  # posterior of the record's own category
    category_disclosed: np.ndarray  # own category's posterior ≥ τ
    range_pinned: np.ndarray  # numeric: the class's range < width
    distinct: np.ndarray
    parameters: dict[str, Any] = field(default_factory=dict)

    @property
    def disclosed(self) -> np.ndarray:
        return self.category_disclosed | self.range_pinned

    def to_dict(self) -> dict[str, Any]:
        n = max(self.distinct.size, 1)
        diverse = self.distinct >= 2
        return {
            "records": int(self.distinct.size),
            "disclosed_rate": float(self.disclosed.sum() / n),
            "disclosed_in_diverse_classes_rate": float((self.disclosed & diverse).sum() / n),
            "category_disclosed_rate": float(self.category_disclosed.sum() / n),
            "range_pinned_rate": float(self.range_pinned.sum() / n),
            "mean_category_posterior": float(self.category_posterior.mean())
            if self.distinct.size
            else 0.0,
            **self.parameters,
        }


def similarity_attack(
    release: Any,
    quasi_identifiers: Iterable[str],
    sensitive: str,
    *,
    categories: Mapping[Any, Any] | None = None,
    width: float | None = None,
    tau: float = 1.0,
) -> SimilarityResult:
    """Category disclosure (``categories``: value → semantic group) and, for a numeric
    sensitive attribute, range disclosure (class range < ``width``).  O(n + classes × V)."""
    if categories is None and width is None:
        raise ConfigError("give categories (value → group) or a width for a numeric attribute")
    t = check_fraction(tau, "tau")
    frame, c = sensitive_classes(release, quasi_identifiers, sensitive)
    n = c.codes.size
    distinct = np.count_nonzero(c.hist, axis=1)[c.row_class]
    cat_post = np.zeros(n)
    cat_hit = np.zeros(n, dtype=bool)
    if categories is not None:
        labels = {str(k): str(v) for k, v in categories.items()}
        missing = [str(v) for v in c.values if str(v) not in labels]
        if missing:
            raise InputError(
                f"categories: {len(missing)} released value(s) of {sensitive!r} have no "
                "category; map every value of the attribute's domain"
            )
        group_codes, groups = encode_values_of([labels[str(v)] for v in c.values])
        ghist = np.zeros((c.hist.shape[0], groups.size))
        for j, g in enumerate(group_codes):
            ghist[:, g] += c.hist[:, j]
        gpost = ghist / c.sizes[:, None]
        own = group_codes[c.codes]
        cat_post = gpost[c.row_class, own]
        cat_hit = cat_post >= t
    pinned = np.zeros(n, dtype=bool)
    if width is not None:
        w = float(width)
        if not w > 0:
            raise ConfigError(f"width = {width!r}: give a positive range width")
        x = numeric_values(frame[sensitive], sensitive)
        hi = np.full(c.sizes.size, -np.inf)
        lo = np.full(c.sizes.size, np.inf)
        np.maximum.at(hi, c.row_class, x)
        np.minimum.at(lo, c.row_class, x)
        pinned = ((hi - lo) < w)[c.row_class]
    params = {"attack": "similarity", "tau": t, "width": width}
    return SimilarityResult(cat_post, cat_hit, pinned, distinct, params)


def encode_values_of(labels: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Codes of ``labels`` and the distinct labels, in first-seen order."""
    groups, codes = np.unique(np.asarray(labels, dtype=object).astype(str), return_inverse=True)
    return codes.astype(np.int64), groups
