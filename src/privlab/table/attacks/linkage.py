"""Linkage (re-identification) attack: join an external table to a release on the QIs.

Source: Sweeney's linkage of the Massachusetts GIC data with the Cambridge voter list (seed 000
§2.2–2.3, ``../shared/spec/seed-000-privacy-thesis.md``; L. Sweeney, "k-anonymity: a model for
protecting privacy", IJUFKS 2002), under the prosecutor model of El Emam & Dankar (the target
is known to be in the release; see ``privlab.table.risk``).

The adversary holds an *external* table: identifiers and exact QI values.  A released row is a
*candidate* for an external record when each of the record's QI values is covered by the row's
released label (:mod:`privlab.table.attacks._match`: hierarchy labels at any level, numeric
ranges, ``*``).  The candidates of a record are the union of the classes that cover it, so
their number is the size of its class (plus any other class that also covers it, such as the
class of suppressed rows).  The record is *re-identified* when exactly one row is a candidate;
otherwise the adversary guesses, succeeding with probability 1/|candidates|.

Complexity: O(n log n) to index the release and O(T' · C · d) to match T' distinct external QI
tuples against C released classes on d QIs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.table.attacks._match import (
    Matches,
    check_columns,
    index_classes,
    match,
    release_frame,
    release_levels,
)
from privlab.table.data import to_polars
from privlab.table.hierarchy import Hierarchy
from privlab.table.suppression import SUPPRESSED_VALUE

__all__ = ["BUCKETS", "LinkageResult", "candidate_buckets", "linkage_attack"]

#: Candidate-set size buckets (as in Hay et al.'s candidate-set plots); 0 = no match.
BUCKETS: tuple[tuple[str, int, float], ...] = (
    ("0", 0, 0),
    ("1", 1, 1),
    ("2-4", 2, 4),
    ("5-10", 5, 10),
    ("11-20", 11, 20),
    ("21+", 21, np.inf),
)


def candidate_buckets(candidates: np.ndarray) -> dict[str, int]:
    """Number of records per candidate-set size bucket."""
    c = np.asarray(candidates)
    return {name: int(((c >= lo) & (c <= hi)).sum()) for name, lo, hi in BUCKETS}


@dataclass
class LinkageResult:
    """Per external record: candidate rows, matched classes, re-identification.

    ``candidates[i]`` released rows cover record ``i`` (``classes[i]`` classes);
    ``reidentified[i]`` iff exactly one; ``success[i]`` = 1/candidates (0 with no candidate).
    With ``true_rows`` given: ``true_in_candidates`` (the true row is a candidate) and
    ``correct`` (re-identified and the only candidate is the true row).
    ``class_of_row`` maps released rows to classes and ``matches`` lists each record's classes.
    """

    candidates: np.ndarray
    classes: np.ndarray
    reidentified: np.ndarray
    success: np.ndarray
    matches: Matches
    class_of_row: np.ndarray
    class_sizes: np.ndarray
    ids: pl.DataFrame | None = None
    true_in_candidates: np.ndarray | None = None
    correct: np.ndarray | None = None
    parameters: dict[str, Any] = field(default_factory=dict)

    @property
    def n_records(self) -> int:
        return int(self.candidates.size)

    def candidate_rows(self, i: int) -> np.ndarray:
        """Released row positions that are candidates for external record ``i``."""
        cls = self.matches.indices[self.matches.indptr[i] : self.matches.indptr[i + 1]]
        return np.flatnonzero(np.isin(self.class_of_row, cls))

    def records(self) -> pl.DataFrame:
        cols = {
            "candidates": self.candidates,
            "classes": self.classes,
            "reidentified": self.reidentified,
            "success": self.success,
        }
        if self.true_in_candidates is not None:
            cols["true_in_candidates"] = self.true_in_candidates
            cols["correct"] = self.correct
        frame = pl.DataFrame(cols)
        return frame if self.ids is None else pl.concat([self.ids, frame], how="horizontal")

    def to_dict(self) -> dict[str, Any]:
        n = max(self.n_records, 1)
        out: dict[str, Any] = {
            "records": self.n_records,
            "released_rows": int(self.class_of_row.size),
            "released_classes": int(self.class_sizes.size),
            "matched": int((self.candidates > 0).sum()),
            "reidentification_rate": float(self.reidentified.sum() / n),
            "expected_success": float(self.success.mean()) if self.n_records else 0.0,
            "mean_candidates": (
                float(self.candidates[self.candidates > 0].mean())
                if (self.candidates > 0).any()
                else 0.0
            ),
            "buckets": candidate_buckets(self.candidates),
            **self.parameters,
        }
        if self.correct is not None:
            out["true_in_candidates_rate"] = float(self.true_in_candidates.sum() / n)
            out["correct_reidentification_rate"] = float(self.correct.sum() / n)
        return out


def linkage_attack(
    external: Any,
    release: Any,
    quasi_identifiers: Iterable[str],
    *,
    hierarchies: Mapping[str, Hierarchy | str] | None = None,
    numeric: Iterable[str] = (),
    identifiers: Iterable[str] = (),
    true_rows: Any = None,
    suppressed_value: str | None = SUPPRESSED_VALUE,
) -> LinkageResult:
    """Link each ``external`` record (exact QIs) to the rows of a generalized ``release``.

    ``release``: a polars/pandas frame of released labels, an anonymize ``Release`` or a
    ``MondrianResult`` (its numeric QIs are taken as ``numeric`` unless given).
    ``hierarchies``: the hierarchies the release was generalized with (a column without one
    matches exact text or ``*``); ``numeric``: QIs released as Mondrian ranges ``lo-hi``.
    A permutation release's ``qi`` table works as is (exact QIs, no hierarchies).
    ``identifiers``: external columns carried into :meth:`LinkageResult.records`.
    ``true_rows``: the released row of each external record (−1 if absent), the owner's
    ground truth for evaluation.  ``suppressed_value`` (``*``) in a released cell covers
    every value (a suppressed record; ``None``: no such value).
    """
    numeric = [numeric] if isinstance(numeric, str) else list(numeric)
    if not numeric and hasattr(release, "numeric") and hasattr(release, "partition"):
        numeric = list(release.numeric)
    rel, _ = release_frame(release)
    ext, _ = to_polars(external)
    qi = list(quasi_identifiers)
    check_columns(rel, qi, "release", "quasi-identifier")
    check_columns(ext, qi, "external", "quasi-identifier")
    ids = check_columns(ext, list(identifiers), "external", "identifier")
    classes = index_classes(rel, qi)
    matches = match(
        classes, ext, qi, hierarchies, numeric, "external", release_levels(release),
        suppressed_value,
    )  # fmt: skip
    n_classes = matches.counts()
    cand = np.bincount(
        matches.rows(), weights=classes.sizes[matches.indices], minlength=ext.height
    ).astype(np.int64)
    result = LinkageResult(
        candidates=cand,
        classes=n_classes,
        reidentified=cand == 1,
        success=np.where(cand > 0, 1.0 / np.maximum(cand, 1), 0.0),
        matches=matches,
        class_of_row=classes.row_class,
        class_sizes=classes.sizes,
        ids=ext.select(ids) if ids else None,
        parameters={"attack": "linkage", "model": "prosecutor"},
    )
    if true_rows is not None:
        truth = np.asarray(true_rows, dtype=np.int64).reshape(-1)
        if truth.size != ext.height:
            raise ConfigError(
                f"true_rows: {truth.size} entries for {ext.height} external records; give one "
                "released row (or −1) per record"
            )
        if (truth >= rel.height).any() or (truth < -1).any():
            raise InputError(f"true_rows: entries must be −1 or a row 0..{rel.height - 1}")
        present = truth >= 0
        true_class = np.where(present, classes.row_class[np.maximum(truth, 0)], -1)
        hit = np.zeros(ext.height, dtype=bool)
        owner = matches.rows()
        ok = matches.indices == true_class[owner]
        hit[owner[ok]] = True
        result.true_in_candidates = hit
        result.correct = hit & (cand == 1)
    return result
