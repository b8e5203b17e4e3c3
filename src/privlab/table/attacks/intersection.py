"""The intersection (composition) attack over several independent releases.

Source: seed 000 §2.4, Algorithm 3.1 (thesis L2186–2197, ``../shared/seeds/000_*.txt``;
after Ganta, Kasiviswanathan & Smith, "Composition attacks and auxiliary information in data
privacy", KDD 2008):

    for each individual i present in all releases R_1..R_n:
        for j = 1..n: e_ij ← GetEquivalenceClass(R_j, i); s_ij ← SensitiveValueSet(e_ij)
        S_i ← s_i1 ∩ … ∩ s_in

GetEquivalenceClass uses locatability (Def 3.6): the target's exact QIs are matched against
each release's labels as in :func:`~privlab.table.attacks.linkage.linkage_attack`; when several
classes cover the target (e.g. the class of suppressed rows as well) their value sets are
united, so the true value is never removed as long as the target is in every release it is
intersected over.  |S_i| = 1 is a perfect breach; otherwise the confidence is 1/|S_i|.

``presence`` (targets × releases) says which releases hold each target (the adversary's
knowledge that P is common to the releases); a release that does not hold a target adds no
constraint.  Without it, a target is taken to be in every release that has a class covering
it.  The core takes finished releases; :func:`independent_releases` makes some for
experiments.  Complexity: O(Σ_j (n_j log n_j + T' · C_j · d) + T · V · n).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError
from privlab.table.attacks._match import (
    check_columns,
    encode_values,
    index_classes,
    match,
    release_frame,
    release_levels,
)
from privlab.table.data import to_polars
from privlab.table.hierarchy import Hierarchy
from privlab.validate import check_fraction, check_int

__all__ = ["IntersectionResult", "ReleaseSample", "independent_releases", "intersection_attack"]


@dataclass
class IntersectionResult:
    """Per target: the remaining candidate sensitive values after intersecting the releases.

    ``candidates`` (targets × values, bool) over ``values``; ``set_size[:, m]`` is |S_i| after
    the first m + 1 releases (0 where the target is in none of them yet: no constraint, shown
    as the whole domain size in the summary); ``n_candidates``/``disclosed`` are final
    (disclosed iff one value remains); ``contains_truth`` when true values are known.
    """

    candidates: np.ndarray
    values: np.ndarray
    set_size: np.ndarray
    n_candidates: np.ndarray
    disclosed: np.ndarray
    releases_used: np.ndarray
    contains_truth: np.ndarray | None = None
    parameters: dict[str, Any] = field(default_factory=dict)

    @property
    def n_targets(self) -> int:
        return int(self.n_candidates.size)

    def candidate_values(self, i: int) -> list[str]:
        return self.values[self.candidates[i]].tolist()

    def records(self) -> pl.DataFrame:
        cols: dict[str, Any] = {
            "candidate_values": [self.candidate_values(i) for i in range(self.n_targets)],
            "n_candidates": self.n_candidates,
            "disclosed": self.disclosed,
            "releases_used": self.releases_used,
        }
        if self.contains_truth is not None:
            cols["contains_truth"] = self.contains_truth
        return pl.DataFrame(cols)

    def to_dict(self) -> dict[str, Any]:
        n = max(self.n_targets, 1)
        by_m = []
        for m in range(self.set_size.shape[1]):
            size = self.set_size[:, m]
            used = size > 0
            by_m.append(
                {
                    "releases": m + 1,
                    "mean_set_size": float(size[used].mean()) if used.any() else None,
                    "disclosure_rate": float((size == 1).sum() / n),
                }
            )
        out: dict[str, Any] = {
            "targets": self.n_targets,
            "releases": int(self.set_size.shape[1]),
            "domain_size": int(self.values.size),
            "disclosure_rate": float(self.disclosed.sum() / n),
            "mean_set_size": (
                float(self.n_candidates[self.releases_used > 0].mean())
                if (self.releases_used > 0).any()
                else None
            ),
            "by_releases": by_m,
            **self.parameters,
        }
        if self.contains_truth is not None:
            out["truth_kept_rate"] = float(self.contains_truth.sum() / n)
        return out


def intersection_attack(
    releases: Sequence[Any],
    targets: Any,
    quasi_identifiers: Iterable[str],
    sensitive: str,
    *,
    hierarchies: Mapping[str, Hierarchy | str] | None = None,
    numeric: Iterable[str] = (),
    presence: Any = None,
    true_values: Any = None,
    skip_suppressed: bool = False,
) -> IntersectionResult:
    """Seed 000 Algorithm 3.1 over ``releases`` for the ``targets`` (exact QI values).

    ``releases``: frames (or ``Release`` / ``MondrianResult``) holding the QI labels and the
    sensitive column.  ``true_values``: each target's true value (else the targets'
    ``sensitive`` column if present) — only for evaluation.  ``skip_suppressed``: the
    adversary assumes the target was not suppressed and ignores the all-``*`` class when
    another class covers the target (Algorithm 3.1's single GetEquivalenceClass); the truth
    can then be lost for suppressed targets.
    """
    releases = list(releases)
    if not releases:
        raise ConfigError("releases: give at least one release")
    qi = list(quasi_identifiers)
    numeric = [numeric] if isinstance(numeric, str) else list(numeric)
    tgt, _ = to_polars(targets)
    check_columns(tgt, qi, "targets", "quasi-identifier")
    frames = []
    for j, r in enumerate(releases):
        f, _ = release_frame(r, f"releases[{j}]")
        check_columns(f, qi, f"releases[{j}]", "quasi-identifier")
        check_columns(f, [sensitive], f"releases[{j}]", "sensitive")
        frames.append(f)
    values = np.unique(
        np.concatenate(
            [f[sensitive].cast(pl.String).fill_null("").to_numpy() for f in frames]
        ).astype(str)
    )
    n_t, n_r, n_v = tgt.height, len(frames), values.size
    if presence is None:
        pres = None
    else:
        pres = np.asarray(presence, dtype=bool)
        if pres.shape != (n_t, n_r):
            raise ConfigError(
                f"presence: shape {pres.shape}, expected (targets, releases) = ({n_t}, {n_r})"
            )
    cand = np.ones((n_t, n_v), dtype=bool)
    used = np.zeros(n_t, dtype=np.int64)
    set_size = np.zeros((n_t, n_r), dtype=np.int64)
    for j, f in enumerate(frames):
        classes = index_classes(f, qi)
        codes, _ = encode_values(f[sensitive], values)
        class_has = np.zeros((classes.n_classes, n_v), dtype=bool)
        class_has[classes.row_class, codes] = True  # SensitiveValueSet(e)
        m = match(classes, tgt, qi, hierarchies, numeric, "targets", release_levels(releases[j]))
        owner, cls = m.rows(), m.indices
        if skip_suppressed:
            sup = np.all(
                [classes.texts[q][classes.label_ids[:, q]] == "*" for q in range(len(qi))], axis=0
            )
            other = np.bincount(owner[~sup[cls]], minlength=n_t) > 0
            keep = ~(sup[cls] & other[owner])
            owner, cls = owner[keep], cls[keep]
        s = np.zeros((n_t, n_v), dtype=bool)
        np.logical_or.at(s, owner, class_has[cls])
        active = m.counts() > 0
        if pres is not None:
            active &= pres[:, j]
        cand[active] &= s[active]
        used += active
        set_size[:, j] = np.where(used > 0, cand.sum(axis=1), 0)
    n_cand = cand.sum(axis=1)
    result = IntersectionResult(
        candidates=cand,
        values=values,
        set_size=set_size,
        n_candidates=np.where(used > 0, n_cand, n_v),
        disclosed=(used > 0) & (n_cand == 1),
        releases_used=used,
        parameters={"attack": "intersection", "skip_suppressed": bool(skip_suppressed)},
    )
    truth = true_values
    if truth is None and sensitive in tgt.columns:
        truth = tgt[sensitive]
    if truth is not None:
        series = truth if isinstance(truth, pl.Series) else pl.Series(list(np.asarray(truth)))
        if series.len() != n_t:
            raise ConfigError(f"true_values: {series.len()} values for {n_t} targets")
        tcode, _ = encode_values(series, values)
        ok = tcode >= 0
        result.contains_truth = np.zeros(n_t, dtype=bool)
        result.contains_truth[ok] = cand[np.flatnonzero(ok), tcode[ok]]
    return result


@dataclass
class ReleaseSample:
    """Independent releases (anonymize ``Release`` objects; ``.data`` is the frame) of random
    subsamples: ``rows[j]`` input rows of release ``j``,
    ``presence`` (input rows × releases) their membership, ``results`` the anonymizer's
    figures."""

    releases: list[Any]
    rows: list[np.ndarray]
    presence: np.ndarray
    results: list[dict[str, Any]]


def independent_releases(
    data: Any,
    *,
    quasi_identifiers: Sequence[str],
    hierarchies: Mapping[str, Hierarchy | str],
    sensitive: str,
    n_releases: int,
    fraction: float = 0.5,
    k: int = 5,
    models: Sequence[Any] = (),
    suppression_limit: float = 0.0,
    seed: Any = None,
) -> ReleaseSample:
    """Make ``n_releases`` releases for experiments: each a Bernoulli(``fraction``) subsample of
    ``data`` anonymized independently with :func:`privlab.table.anonymize.anonymize`
    (k-anonymity plus ``models``, ARX's optimal search).  O(n_releases × anonymize)."""
    from privlab.table.anonymize import anonymize

    n_releases = check_int(n_releases, "n_releases", 1)
    fraction = check_fraction(fraction, "fraction", hint="each record's sampling probability")
    frame, _ = to_polars(data)
    rng = np.random.default_rng(seed)
    hier = {
        c: (h if isinstance(h, Hierarchy) else Hierarchy.from_csv(h))
        for c, h in hierarchies.items()
    }
    releases, rows, results = [], [], []
    presence = np.zeros((frame.height, n_releases), dtype=bool)
    for j in range(n_releases):
        sel = np.flatnonzero(rng.random(frame.height) < fraction)
        rel = anonymize(
            frame[sel],
            quasi_identifiers=quasi_identifiers,
            hierarchies=hier,
            sensitive=[sensitive],
            k=k,
            models=models,
            suppression_limit=suppression_limit,
        )
        releases.append(rel)
        rows.append(sel)
        presence[sel, j] = True
        results.append(rel.to_dict())
    return ReleaseSample(releases, rows, presence, results)
