"""Privacy–utility trade-off plots: the risk/loss frontier and per-record risk histograms.

* :func:`privacy_utility_frontier` — risk against loss for candidate releases with the
  Pareto front (:func:`pareto_front`, O(n log n)) highlighted.
* :func:`risk_histograms` — per-record risk distributions, one step histogram per label.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from privlab.errors import InputError
from privlab.report.plots.figure import _MARKERS, _axes, _colors, _legend, _style


def pareto_front(risk: Any, loss: Any) -> np.ndarray:
    """Indices of the Pareto-optimal points when both risk and loss are minimized.

    A point is on the front when no other point is at least as good in both and strictly
    better in one.  Returned in increasing risk.  O(n log n); NaN points are never on it.
    """
    risk, loss = np.asarray(risk, dtype=float), np.asarray(loss, dtype=float)
    valid = np.flatnonzero(~(np.isnan(risk) | np.isnan(loss)))
    order = valid[np.lexsort((loss[valid], risk[valid]))]
    front: list[int] = []
    best = math.inf
    for i in order:
        if loss[i] < best:  # sorted by risk, then loss: ties in risk never re-enter
            front.append(int(i))
            best = loss[i]
    return np.array(front, dtype=np.int64)


def privacy_utility_frontier(
    risk: Any,
    loss: Any,
    labels: Sequence[str] | None = None,
    *,
    groups: Sequence[str] | None = None,
    risk_label: str = "re-identification risk",
    loss_label: str = "information loss",
    title: str = "",
    ax: Axes | None = None,
) -> Figure:
    """Risk (x) against loss (y) for candidate releases, with the Pareto front highlighted.

    ``labels`` name the points (front points are annotated); ``groups`` (e.g. the scheme)
    colour them.  Lower-left is better; the front is the set of releases no other release
    beats in both.
    """
    risk, loss = np.asarray(risk, dtype=float), np.asarray(loss, dtype=float)
    if risk.shape != loss.shape:
        raise InputError("risk and loss differ in length")
    fig, ax = _axes(ax)
    if groups is None:
        ax.scatter(risk, loss, color="tab:blue", s=28, alpha=0.7, label="release")
    else:
        names = list(dict.fromkeys(groups))
        g = np.asarray(groups, dtype=object)
        for i, (name, color) in enumerate(zip(names, _colors(len(names)), strict=True)):
            m = g == name
            ax.scatter(
                risk[m], loss[m], color=color, s=28, alpha=0.75, label=str(name),
                marker=_MARKERS[i % len(_MARKERS)],
            )  # fmt: skip
    front = pareto_front(risk, loss)
    if len(front):
        ax.plot(
            risk[front], loss[front], color="crimson", linewidth=1.8, drawstyle="steps-post",
            zorder=4, label="Pareto front",
        )  # fmt: skip
        ax.scatter(
            risk[front], loss[front], s=70, facecolors="none", edgecolors="crimson",
            linewidths=1.6, zorder=5,
        )  # fmt: skip
        if labels is not None:
            for i in front[:15]:
                ax.annotate(
                    str(labels[i]), (risk[i], loss[i]), textcoords="offset points",
                    xytext=(5, 4), fontsize="x-small", color="crimson",
                )  # fmt: skip
    _style(ax, risk_label, loss_label, title)
    _legend(ax)
    return fig


# --------------------------------------------------------------------------- risk


def risk_histograms(
    risks: Mapping[str, Any],
    *,
    bins: int = 20,
    value_range: tuple[float, float] = (0.0, 1.0),
    x_label: str = "re-identification risk per record",
    title: str = "",
    ax: Axes | None = None,
) -> Figure:
    """Per-record risk distributions, one step histogram per label (fraction of records)."""
    fig, ax = _axes(ax)
    labels = list(risks)
    edges = np.linspace(value_range[0], value_range[1], bins + 1)
    for label, color in zip(labels, _colors(len(labels)), strict=True):
        r = np.asarray(risks[label], dtype=float)
        r = r[~np.isnan(r)]
        w = np.full(r.shape, 1.0 / max(len(r), 1))
        ax.hist(
            np.clip(r, value_range[0], value_range[1]), bins=edges, weights=w,
            histtype="step", linewidth=1.8, color=color, label=str(label),
        )  # fmt: skip
    ax.set_xlim(*value_range)
    _style(ax, x_label, "fraction of records", title)
    _legend(ax)
    return fig
