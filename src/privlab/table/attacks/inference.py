"""Attribute disclosure: homogeneity and background-knowledge inference.

Source: seed 000 §2.3 (``../shared/spec/seed-000-privacy-thesis.md``; thesis L1989–1998):
the *homogeneity attack* (all members of a target's equivalence class share the sensitive
value) and the *background-knowledge attack* (side knowledge rules values out: "active in
sports, so not heart disease"), after Machanavajjhala et al., "ℓ-Diversity", TKDD 2007; the
range-based disclosure of numeric values that (k, e)-anonymity addresses (seed 001 §2.1).

**Adversary.**  The adversary knows the target's quasi-identifiers and that the target is in
the release, so locates its class (locatability, seed 000 Def 3.6); with no other knowledge
its posterior over the sensitive value is the class's value distribution (counts / size).
Background knowledge removes values: ``exclude`` (per target, values known not to be the
target's) and ``rule_out = b`` (the adversary knows b false statements "the target does not
have s" about the b least likely values present in the class other than the true one — the
worst case of Machanavajjhala et al.'s ℓ−1 pieces of knowledge).  The posterior is
renormalized over the remaining values.  A target's value is *disclosed* when the posterior of
its true value is ≥ ``tau`` (τ = 1: homogeneity, certainty).  For a numeric sensitive
attribute, ``e`` adds the (k, e) check: the value is *pinned within e* when the remaining
values span a range < e.

Complexity: O(n + T · V) for n released rows, T targets and V sensitive values (O(T · V log V)
with ``rule_out``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.table.attacks._match import (
    check_columns,
    encode_values,
    index_classes,
    match,
    numeric_values,
    sensitive_classes,
)
from privlab.table.data import to_polars
from privlab.validate import check_fraction, check_int

__all__ = [
    "InferenceResult",
    "disclosure_from_posterior",
    "homogeneity_attack",
    "permutation_inference",
]


@dataclass
class InferenceResult:
    """Per-target posteriors and disclosure, and a summary.

    Arrays are aligned to the targets: ``max_posterior``, ``true_posterior`` (NaN when the
    true value is unknown), ``disclosed`` (true posterior ≥ τ), ``homogeneous`` (one value
    left), ``n_values`` (values with positive posterior), ``most_likely`` (the adversary's
    guess), ``sa_range`` (numeric SA: range of the remaining values), ``pinned``
    (range < e).  ``posterior`` is the (targets × values) matrix over ``values``.
    """

    posterior: np.ndarray
    values: np.ndarray
    true_code: np.ndarray
    max_posterior: np.ndarray
    true_posterior: np.ndarray
    disclosed: np.ndarray
    homogeneous: np.ndarray
    n_values: np.ndarray
    most_likely: np.ndarray
    sa_range: np.ndarray | None
    pinned: np.ndarray | None
    parameters: dict[str, Any] = field(default_factory=dict)
    inconsistent: int = 0

    @property
    def n_targets(self) -> int:
        return int(self.max_posterior.size)

    def records(self) -> pl.DataFrame:
        """One row per target."""
        cols: dict[str, Any] = {
            "most_likely": self.most_likely.tolist(),
            "max_posterior": self.max_posterior,
            "true_posterior": self.true_posterior,
            "disclosed": self.disclosed,
            "homogeneous": self.homogeneous,
            "n_values": self.n_values,
        }
        if self.sa_range is not None:
            cols["sa_range"] = self.sa_range
            if self.pinned is not None:
                cols["pinned"] = self.pinned
        return pl.DataFrame(cols)

    def to_dict(self) -> dict[str, Any]:
        n = max(self.n_targets, 1)
        known = ~np.isnan(self.true_posterior)
        out: dict[str, Any] = {
            "targets": self.n_targets,
            "disclosure_rate": float(self.disclosed.sum() / n),
            "homogeneity_rate": float(self.homogeneous.sum() / n),
            "mean_max_posterior": float(self.max_posterior.mean()) if self.n_targets else 0.0,
            "max_max_posterior": float(self.max_posterior.max()) if self.n_targets else 0.0,
            "mean_true_posterior": (
                float(self.true_posterior[known].mean()) if known.any() else None
            ),
            "true_value_known": int(known.sum()),
            "inconsistent_knowledge": int(self.inconsistent),
            **self.parameters,
        }
        if self.sa_range is not None:
            out["mean_sa_range"] = float(np.nanmean(self.sa_range)) if self.n_targets else 0.0
            if self.pinned is not None:
                out["pinned_rate"] = float(self.pinned.sum() / n)
        return out


def _exclusion_mask(
    exclude: Mapping[int, Iterable[Any]] | None, n_targets: int, values: np.ndarray
) -> np.ndarray | None:
    if not exclude:
        return None
    index = {str(v): i for i, v in enumerate(values.tolist())}
    mask = np.zeros((n_targets, values.size), dtype=bool)
    for t, vals in exclude.items():
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t < n_targets:
            raise ConfigError(f"exclude: target {t!r} is not a target index 0..{n_targets - 1}")
        if isinstance(vals, (str, bytes)):
            vals = [vals]
        for v in vals:
            if str(v) not in index:
                raise ConfigError(
                    f"exclude[{t}]: {v!r} is not a sensitive value; the values are "
                    f"{values.tolist()[:20]}"
                )
            mask[t, index[str(v)]] = True
    return mask


def disclosure_from_posterior(
    posterior: np.ndarray,
    values: np.ndarray,
    true_code: np.ndarray | None = None,
    *,
    tau: float = 1.0,
    exclude: Mapping[int, Iterable[Any]] | None = None,
    rule_out: int = 0,
    e: float | None = None,
    numeric: bool = False,
    parameters: Mapping[str, Any] | None = None,
) -> InferenceResult:
    """Apply background knowledge to the adversary's ``posterior`` and measure disclosure.

    ``posterior``: (targets × values), rows summing to 1 (class or group distributions);
    ``true_code``: index of each target's true value in ``values`` (−1 or None: unknown).
    Knowledge that leaves no value (it excluded the truth) is inconsistent: that target's
    posterior is left unchanged and counted in ``inconsistent``.
    """
    tau = check_fraction(tau, "tau", hint="the posterior at which a value counts as disclosed")
    rule_out = check_int(rule_out, "rule_out", 0, hint="values ruled out per target")
    post = np.array(posterior, dtype=np.float64, copy=True)
    t_n, v_n = post.shape
    truth = np.full(t_n, -1, dtype=np.int64) if true_code is None else np.asarray(true_code)
    known = truth >= 0
    mask = _exclusion_mask(exclude, t_n, values)
    before = post.copy()
    if mask is not None:
        post[mask] = 0.0
    if rule_out and v_n:
        key = np.where(post > 0, post, np.inf)
        key[np.flatnonzero(known), truth[known]] = np.inf  # knowledge is true: never the truth
        order = np.argsort(key, axis=1, kind="stable")[:, :rule_out]
        drop = np.take_along_axis(key, order, axis=1) < np.inf
        rows = np.repeat(np.arange(t_n), order.shape[1])[drop.reshape(-1)]
        post[rows, order.reshape(-1)[drop.reshape(-1)]] = 0.0
    total = post.sum(axis=1)
    bad = total <= 0
    post[bad] = before[bad]
    total[bad] = post[bad].sum(axis=1)
    post /= np.where(total > 0, total, 1.0)[:, None]
    maxp = post.max(axis=1) if v_n else np.zeros(t_n)
    true_p = np.full(t_n, np.nan)
    true_p[known] = post[np.flatnonzero(known), truth[known]]
    n_values = (post > 0).sum(axis=1)
    sa_range = pinned = None
    if numeric:
        nums = numeric_values(pl.Series("sensitive", values.tolist()), "sensitive values")
        present = post > 0
        hi = np.where(present, nums[None, :], -np.inf).max(axis=1) if v_n else np.zeros(t_n)
        lo = np.where(present, nums[None, :], np.inf).min(axis=1) if v_n else np.zeros(t_n)
        sa_range = np.where(n_values > 0, hi - lo, np.nan)
        if e is not None:
            if isinstance(e, bool) or not isinstance(e, (int, float)) or e <= 0:
                raise ConfigError(f"e must be a positive number, got {e!r}")
            pinned = sa_range < e
    elif e is not None:
        raise ConfigError("e (the (k, e) range) needs numeric=True: a numeric sensitive column")
    params = {"tau": tau, "rule_out": rule_out, "excluded_targets": len(exclude or {})}
    if e is not None:
        params["e"] = float(e)
    params.update(parameters or {})
    return InferenceResult(
        posterior=post,
        values=values,
        true_code=truth,
        max_posterior=maxp,
        true_posterior=true_p,
        disclosed=np.where(known, np.nan_to_num(true_p) >= tau - 1e-12, False),
        homogeneous=n_values == 1,
        n_values=n_values,
        most_likely=values[post.argmax(axis=1)] if v_n else np.array([], dtype=str),
        sa_range=sa_range,
        pinned=pinned,
        parameters=params,
        inconsistent=int(bad.sum()),
    )


def homogeneity_attack(
    release: Any,
    quasi_identifiers: Iterable[str],
    sensitive: str,
    *,
    tau: float = 1.0,
    exclude: Mapping[int, Iterable[Any]] | None = None,
    rule_out: int = 0,
    numeric: bool = False,
    e: float | None = None,
) -> InferenceResult:
    """Homogeneity / background-knowledge inference against a generalized release.

    Every released row is a target (the data owner's evaluation: the adversary knows each
    person's QIs and presence, so locates the class; the released sensitive value is the
    truth).  ``release``: a polars/pandas frame with QI labels and the sensitive column, or
    an anonymize ``Release`` / ``MondrianResult``.  Suppressed rows (all ``*``) form a class
    of their own.  O(n + n · V).
    """
    _, c = sensitive_classes(release, quasi_identifiers, sensitive)
    post = (c.hist / c.sizes[:, None])[c.row_class]
    return disclosure_from_posterior(
        post,
        c.values,
        c.codes,
        tau=tau,
        exclude=exclude,
        rule_out=rule_out,
        e=e,
        numeric=numeric,
        parameters={"attack": "homogeneity", "classes": int(c.hist.shape[0])},
    )


def _group_posteriors(release: Any) -> tuple[np.ndarray, np.ndarray]:
    """(groups × values) distribution of each group's published multiset, and the values."""
    sa = release.sa
    gids = sa["group_id"].to_numpy()
    n_g = int(release.n_groups)
    if release.kind == "categorical":
        codes, values = encode_values(sa["value"])
        weights = sa["count"].to_numpy().astype(np.float64)
    else:  # numeric: each published value (lo == hi) or subdomain [lo, hi] counts once
        lo, hi = sa["lo"].to_numpy(), sa["hi"].to_numpy()
        text = pl.Series(
            [_num(a) if a == b else f"{_num(a)}-{_num(b)}" for a, b in zip(lo, hi, strict=True)]
        )
        codes, values = encode_values(text)
        weights = np.ones(sa.height)
    hist = np.zeros((n_g, values.size))
    np.add.at(hist, (gids, codes), weights)
    total = hist.sum(axis=1, keepdims=True)
    return hist / np.where(total > 0, total, 1.0), values


def permutation_inference(
    release: Any,
    *,
    original: Any = None,
    targets: Any = None,
    tau: float = 1.0,
    exclude: Mapping[int, Iterable[Any]] | None = None,
    rule_out: int = 0,
) -> InferenceResult:
    """Infer the sensitive value from an Anatomy / permutation release (seed 001 §2.1).

    The QIs are published exactly, so the adversary links a target to its QI row(s); the
    posterior of a row is its group's published multiset (count / total).  With ``targets``
    (an external frame with the QI columns, exact, and optionally the sensitive column as the
    truth) each target's candidates are the QI rows equal to its QIs and the posterior is
    their average (the target is any candidate with equal probability); a target that matches
    no row gets an all-zero posterior and ``n_values`` 0.  Without ``targets`` every published
    row is a target and ``original`` (the input frame; needs ``release.source_rows``) supplies
    the truth.  For Anatomy with ℓ every group holds ≥ ℓ distinct values, each once, so the
    max posterior of a published row is ≤ 1/ℓ.  O(n + T · V).
    """
    sensitive = release.sensitive
    group_post, values = _group_posteriors(release)
    row_group = release.qi["group_id"].to_numpy()
    params: dict[str, Any] = {"attack": "permutation", "groups": int(release.n_groups)}
    if targets is None:
        post = group_post[row_group]
        truth = None
        if original is not None:
            rows = release.source_rows
            if rows is None:
                raise ConfigError(
                    "original: the release has no source_rows (read from disk); evaluate on "
                    "the in-memory release or pass targets with their true values"
                )
            frame, _ = to_polars(original)
            check_columns(frame, [sensitive], "original", "sensitive")
            truth_text = frame[sensitive].cast(pl.String).gather(rows)
            truth, _ = encode_values(_as_text(truth_text, release.kind), values)
        return disclosure_from_posterior(
            post, values, truth, tau=tau, exclude=exclude, rule_out=rule_out, parameters=params
        )
    frame, _ = to_polars(targets)
    qi = check_columns(frame, release.qi_columns, "targets", "quasi-identifier")
    classes = index_classes(release.qi, qi)
    matches = match(classes, frame, qi, None, (), "targets")
    # class posterior = mean of its rows' group posteriors
    class_sum = np.zeros((classes.n_classes, values.size))
    np.add.at(class_sum, classes.row_class, group_post[row_group])
    rows_of_target = classes.sizes[matches.indices]
    post = np.zeros((frame.height, values.size))
    np.add.at(post, matches.rows(), class_sum[matches.indices])
    n_rows = np.bincount(matches.rows(), weights=rows_of_target, minlength=frame.height)
    post /= np.where(n_rows > 0, n_rows, 1.0)[:, None]
    truth = None
    if sensitive in frame.columns:
        truth, _ = encode_values(_as_text(frame[sensitive], release.kind), values)
    params["candidates_mean"] = float(n_rows.mean()) if frame.height else 0.0
    params["unmatched"] = int((n_rows == 0).sum())
    return disclosure_from_posterior(
        post, values, truth, tau=tau, exclude=exclude, rule_out=rule_out, parameters=params
    )


def _as_text(series: pl.Series, kind: str) -> pl.Series:
    if kind == "categorical":
        return series.cast(pl.String)
    try:
        return pl.Series([_num(float(v)) for v in series.to_list()])
    except (TypeError, ValueError):
        raise InputError(f"column {series.name!r}: the sensitive values are not numbers") from None


def _num(x: float) -> str:
    return repr(float(x))
