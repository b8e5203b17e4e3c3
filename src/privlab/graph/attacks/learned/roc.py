"""ROC summaries of a pair classifier: AUC and true-positive rate at fixed false-positive rates.

Source: seed 004 §2.10 (thesis Chapter 4, L1041–1056): anonymity is measured by the ROC
curve and its AUC, and by the TP rate at FP = 0.001 %, 0.01 %, 0.1 %, 1 %, 10 % and 25 %,
over about 10⁶ random node pairs.

*TP rate at FP rate t* (the thesis gives no formula; this is the definition used here): the
largest TPR of a threshold classifier "score ≥ θ" whose FPR is ≤ t, i.e. the largest TPR
over the points of the full ROC curve (``sklearn.metrics.roc_curve`` with
``drop_intermediate=False``, one point per distinct score) with FPR ≤ t.  No interpolation
between points (that would need a randomized classifier); so with 10⁶ negatives, FP 0.001 %
allows at most 10 false positives.  AUC is ``sklearn.metrics.roc_auc_score`` (ties count
one half).  Cost O(N log N) for N scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError

#: The thesis's FP rates (as fractions): 0.001 %, 0.01 %, 0.1 %, 1 %, 10 %, 25 %.
FP_RATES = (1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.25)


@dataclass(frozen=True)
class RocSummary:
    """AUC, TP rate at each FP rate, and a downsampled ROC curve (see the module docstring)."""

    auc: float
    fp_rates: tuple[float, ...]
    tp_rates: tuple[float, ...]
    thresholds: tuple[float, ...]
    n_positive: int
    n_negative: int
    curve_fpr: np.ndarray = field(repr=False)
    curve_tpr: np.ndarray = field(repr=False)

    def tp_at(self, fp_rate: float) -> float:
        """The TP rate at one of the summary's FP rates."""
        for f, t in zip(self.fp_rates, self.tp_rates, strict=True):
            if np.isclose(f, fp_rate, rtol=1e-9, atol=0):
                return t
        raise ConfigError(f"fp_rate = {fp_rate!r} is not one of {list(self.fp_rates)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "auc": self.auc,
            "n_positive": self.n_positive,
            "n_negative": self.n_negative,
            "tp_at_fp": {_pct(f): t for f, t in zip(self.fp_rates, self.tp_rates, strict=True)},
            "thresholds": {
                _pct(f): th for f, th in zip(self.fp_rates, self.thresholds, strict=True)
            },
            "curve": {"fpr": self.curve_fpr.tolist(), "tpr": self.curve_tpr.tolist()},
        }

    def table_header(self, label: str = "configuration") -> str:
        """Markdown header + rule for :meth:`table` rows (FP in percent, as the thesis)."""
        cols = [label, "AUC"] + [f"TP@{_pct(f)}" for f in self.fp_rates]
        return "| " + " | ".join(cols) + " |\n|" + "---|" * len(cols)

    def table(self, label: str = "") -> str:
        """One markdown row: label, AUC (3 decimals), TP % at each FP rate (2 decimals)."""
        cells = [label, f"{self.auc:.3f}"] + [f"{100 * t:.2f}" for t in self.tp_rates]
        return "| " + " | ".join(cells) + " |"


def _pct(f: float) -> str:
    return f"{100 * f:g}%"


def binary_labels(y: np.ndarray, purpose: str) -> np.ndarray:
    """``y`` as int8 0/1 labels (1 = identical), both classes present; InputError otherwise."""
    bad = ~((y == 0) | (y == 1))
    if bad.any():
        k = int(np.argmax(bad))
        raise InputError(
            f"y[{k}] = {y[k].item()!r}: labels must be 1 (identical) or 0 (non-identical)"
        )
    yy = y.astype(np.int8)
    n_pos = int(yy.sum())
    if n_pos == 0 or n_pos == yy.size:
        which = "identical (1)" if n_pos == 0 else "non-identical (0)"
        raise InputError(f"y: no {which} pairs; {purpose} needs both classes")
    return yy


def roc_summary(
    scores: Any,
    y: Any,
    fp_rates: Sequence[float] = FP_RATES,
    *,
    curve_points: int = 200,
) -> RocSummary:
    """AUC, TP rate at each FP rate and a ≤ ``curve_points``-point ROC curve.

    ``scores``: higher = more likely identical; ``y``: 1 identical, 0 non-identical.
    ``thresholds[k]`` is the highest score cut θ (classify "score ≥ θ") reaching
    ``tp_rates[k]`` (+inf if no positive can be accepted).  The curve keeps the ROC points
    at FPR values spaced logarithmically from 1/n_negative to 1 (plus (0, 0) and (1, 1)),
    each with the best TPR at that FPR.  InputError for mismatched lengths, non-finite
    scores, labels other than 0/1 or a single class; ConfigError for FP rates outside
    [0, 1].  O(N log N).
    """
    from sklearn.metrics import roc_auc_score, roc_curve

    s = np.asarray(scores, dtype=np.float64).reshape(-1)
    yy = np.asarray(y).reshape(-1)
    if s.size != yy.size:
        raise InputError(f"scores has {s.size} entries and y {yy.size}; give one label per score")
    if s.size == 0:
        raise InputError("scores: empty; give the scores of at least one pair of each class")
    if not np.isfinite(s).all():
        k = int(np.argmax(~np.isfinite(s)))
        raise InputError(f"scores[{k}] = {s[k]!r}: scores must be finite")
    yy = binary_labels(yy, "a ROC curve")
    n_pos = int(yy.sum())
    n_neg = int(yy.size - n_pos)
    fps = []
    for f in fp_rates:
        if isinstance(f, bool) or not np.isfinite(f) or not 0.0 <= float(f) <= 1.0:
            raise ConfigError(f"fp_rates: {f!r} is not a rate in [0, 1] (0.001 % = 1e-5)")
        fps.append(float(f))
    cp = int(curve_points)
    if cp < 2:
        raise ConfigError(f"curve_points = {curve_points!r}: give at least 2")

    fpr, tpr, thr = roc_curve(yy, s, drop_intermediate=False)
    auc = float(roc_auc_score(yy, s))
    # fpr and tpr are non-decreasing: the best point with FPR ≤ t is the last one; compare
    # false-positive *counts* (FPR ≤ t ⇔ FP ≤ ⌊t·n_negative⌋), free of rounding.
    fp_count = np.rint(fpr * n_neg).astype(np.int64)
    tps, ths = [], []
    for f in fps:
        k = int(np.searchsorted(fp_count, np.floor(f * n_neg + 1e-9), side="right")) - 1
        k = int(np.searchsorted(tpr, tpr[k], side="left"))  # the highest cut with that TPR
        tps.append(float(tpr[k]))
        ths.append(float(thr[k]))
    grid = np.concatenate([[0.0], np.geomspace(1.0 / n_neg, 1.0, cp - 2), [1.0]])
    idx = np.unique(np.searchsorted(fp_count, np.floor(grid * n_neg + 1e-9), side="right") - 1)
    return RocSummary(
        auc=auc,
        fp_rates=tuple(fps),
        tp_rates=tuple(tps),
        thresholds=tuple(ths),
        n_positive=n_pos,
        n_negative=n_neg,
        curve_fpr=fpr[idx].copy(),
        curve_tpr=tpr[idx].copy(),
    )


__all__ = ["FP_RATES", "RocSummary", "roc_summary"]
