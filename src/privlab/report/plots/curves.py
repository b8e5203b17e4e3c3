"""Curves: a metric against the swept parameter, attack ROC curves, generic lines.

* :func:`metric_vs_parameter` — a metric against the swept parameter, one line per scheme,
  mean ± standard deviation over seeds (:func:`mean_std`; Hay et al. Figs 6, 8, 9; Li et
  al. Figs 2–6).
* :func:`roc_curves` and :func:`tp_at_fp_table` — attack ROC curves and true-positive rates
  at fixed false-positive rates (:func:`tp_at_fp`; Sharad, Tables 4.1–4.3).
* :func:`line_curves` — generic curves, one colour per label.

A label maps to one ``(x, y)`` pair or several (e.g. one per seed), read by
:func:`_curve_list` (also used by :mod:`privlab.report.plots.graph`).  O(n log n) in the
number of points (sorting each curve); drawing dominates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from privlab.errors import InputError
from privlab.report.plots.figure import (
    _MARKERS,
    _axes,
    _colors,
    _finish_xy,
    _legend,
    _require,
    _style,
)


def mean_std(
    df: pl.DataFrame, by: Sequence[str], value: str = "result", sort: Sequence[str] = ()
) -> pl.DataFrame:
    """Mean, sample standard deviation (0 for one seed) and count of ``value`` per group.

    Groups keep the order in which they first appear, then are sorted stably by ``sort``.
    """
    out = df.group_by(list(by), maintain_order=True).agg(
        mean=pl.col(value).mean(),
        std=pl.col(value).std(ddof=1).fill_null(0.0),
        n=pl.len(),
    )
    if sort:
        out = out.sort(list(sort), maintain_order=True)
    return out


# --------------------------------------------------------------------------- metric vs parameter


def metric_vs_parameter(
    data: pl.DataFrame,
    *,
    x_label: str = "parameter",
    y_label: str = "result",
    title: str = "",
    log_x: bool = False,
    log_y: bool = False,
    ax: Axes | None = None,
) -> Figure:
    """A metric against the swept parameter: one line per scheme, mean ± std over seeds.

    ``data`` has columns ``scheme``, ``value`` and ``result`` (one row per seed and value);
    rows with the same scheme and value are aggregated.
    """
    _require(data, ("scheme", "value", "result"), "metric_vs_parameter")
    agg = mean_std(data, ["scheme", "value"]).sort("value", maintain_order=True)
    schemes = list(dict.fromkeys(agg["scheme"].to_list()))
    fig, ax = _axes(ax)
    for i, (scheme, color) in enumerate(zip(schemes, _colors(len(schemes)), strict=True)):
        part = agg.filter(pl.col("scheme") == scheme)
        ax.errorbar(
            part["value"].to_numpy(),
            part["mean"].to_numpy(),
            yerr=part["std"].to_numpy(),
            label=str(scheme),
            color=color,
            marker=_MARKERS[i % len(_MARKERS)],
            markersize=5,
            capsize=3,
            linewidth=1.5,
        )
    _finish_xy(ax, x_label, y_label, title, log_x, log_y)
    return fig


# --------------------------------------------------------------------------- ROC


def _curve_list(v: Any) -> list[tuple[np.ndarray, np.ndarray]]:
    """One (x, y) pair, or a sequence of pairs (e.g. one per seed), as a list of arrays."""
    try:
        first = np.asarray(v[0], dtype=float)
        single = first.ndim == 1 and len(v) == 2
    except (ValueError, TypeError):
        single = False
    pairs = [v] if single else list(v)
    out = []
    for x, y in pairs:
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
        if x.shape != y.shape or x.ndim != 1:
            raise InputError(f"a curve needs x and y of the same length, got {x.shape}, {y.shape}")
        order = np.argsort(x, kind="stable")
        out.append((x[order], y[order]))
    return out


def tp_at_fp(fpr: Any, tpr: Any, level: float) -> float:
    """The best true-positive rate among ROC points whose false-positive rate is ≤ ``level``.

    A step (conservative) reading: only operating points actually on the curve count, no
    interpolation between them.  0 when no point is at or below ``level``.
    """
    fpr, tpr = np.asarray(fpr, dtype=float), np.asarray(tpr, dtype=float)
    ok = fpr <= level * (1 + 1e-12)
    return float(tpr[ok].max()) if ok.any() else 0.0


def tp_at_fp_table(
    curves: Mapping[str, Any], levels: Sequence[float] = (0.001, 0.01, 0.1)
) -> pl.DataFrame:
    """TP@FP for each label and level: long table ``label, fp, tp_mean, tp_std, n``.

    ``curves`` maps a label to one ``(fpr, tpr)`` pair or to several (mean and standard
    deviation over them, e.g. over seeds).
    """
    rows = []
    for label, v in curves.items():
        for level in levels:
            tps = np.array([tp_at_fp(x, y, level) for x, y in _curve_list(v)])
            std = float(tps.std(ddof=1)) if len(tps) > 1 else 0.0
            rows.append((str(label), float(level), float(tps.mean()), std, len(tps)))
    return pl.DataFrame(rows, schema=["label", "fp", "tp_mean", "tp_std", "n"], orient="row")


def roc_curves(
    curves: Mapping[str, Any],
    *,
    log_x: bool = False,
    title: str = "",
    ax: Axes | None = None,
) -> Figure:
    """ROC curves (false-positive rate → true-positive rate), one colour per label.

    ``curves`` maps a label to one ``(fpr, tpr)`` pair or several (one per seed, drawn in the
    same colour).  ``log_x`` puts the false-positive rate on a log scale, where the low-FP
    region that matters for de-anonymization is visible; points with FPR 0 are then dropped.
    """
    fig, ax = _axes(ax)
    labels = list(curves)
    for i, (label, color) in enumerate(zip(labels, _colors(len(labels)), strict=True)):
        pairs = _curve_list(curves[label])
        alpha = 1.0 if len(pairs) == 1 else max(0.35, 1.0 / math.sqrt(len(pairs)))
        for j, (x, y) in enumerate(pairs):
            if log_x:
                keep = x > 0
                x, y = x[keep], y[keep]
            ax.plot(
                x,
                y,
                color=color,
                alpha=alpha,
                linewidth=1.6,
                linestyle=("-", "--", "-.", ":")[i // 10 % 4],
                label=str(label) if j == 0 else None,
            )
    if log_x:
        ax.set_xscale("log")
        lo = min(
            (float(x[x > 0].min()) for v in curves.values() for x, _ in _curve_list(v)
             if (x > 0).any()),
            default=1e-3,
        )  # fmt: skip
        ax.set_xlim(max(lo, 1e-6), 1.0)
        grid = np.logspace(math.log10(max(lo, 1e-6)), 0, 50)
        ax.plot(grid, grid, color="grey", linestyle=":", linewidth=1, label="chance")
    else:
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1, label="chance")
        ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    _style(ax, "false-positive rate" + (" (log)" if log_x else ""), "true-positive rate", title)
    _legend(ax, loc="lower right")
    return fig


# --------------------------------------------------------------------------- generic curves


def line_curves(
    curves: Mapping[str, Any],
    *,
    x_label: str = "x",
    y_label: str = "y",
    log_x: bool = False,
    log_y: bool = False,
    title: str = "",
    ax: Axes | None = None,
) -> Figure:
    """Generic curves, one colour per label (one ``(x, y)`` pair or several per label)."""
    fig, ax = _axes(ax)
    labels = list(curves)
    for label, color in zip(labels, _colors(len(labels)), strict=True):
        for j, (x, y) in enumerate(_curve_list(curves[label])):
            ax.plot(x, y, color=color, linewidth=1.5, label=str(label) if j == 0 else None)
    _finish_xy(ax, x_label, y_label, title, log_x, log_y)
    return fig
