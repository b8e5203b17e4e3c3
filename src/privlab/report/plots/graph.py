"""Graph plots: candidate-set size buckets and degree distributions.

* :func:`candidate_set_buckets` — stacked bars of candidate-set sizes in the buckets
  1, 2–4, 5–10, 11–20, ≥21 (:data:`BUCKETS`, :func:`bucket_fractions`; Hay et al. Fig. 5),
  plus a segment of its own for size 0 (the knowledge matches nobody, :data:`NO_MATCH_LABEL`).
* :func:`degree_distributions` / :func:`loglog_curves` — degree distributions
  (:func:`degree_histogram`), original vs release, log-log.

O(n) in the number of nodes or sizes (bucketing, ``bincount``); drawing dominates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from privlab.errors import InputError
from privlab.report.plots.curves import _curve_list
from privlab.report.plots.figure import _MARKERS, _axes, _colors, _legend, _style

#: Candidate-set size buckets (inclusive bounds) of Hay et al., Fig. 5.
BUCKETS: tuple[tuple[float, float], ...] = ((1, 1), (2, 4), (5, 10), (11, 20), (21, math.inf))
BUCKET_LABELS: tuple[str, ...] = ("1", "2–4", "5–10", "11–20", "≥21")
#: Legend entries of the size-1 segment and of the size-0 segment (drawn only when present).
SINGLED_OUT_LABEL = "1 (singled out)"
NO_MATCH_LABEL = "0 (matches nobody)"
#: The size-0 segment's colour: a light grey outside the viridis range of the size buckets, so
#: "matches nobody" never reads as "singled out" (the darkest segment).
NO_MATCH_COLOR = "#d0d0d0"


def bucket_fractions(sizes: Any, counts: Any | None = None) -> np.ndarray:
    """Fractions of nodes whose candidate-set size falls in each of :data:`BUCKETS`.

    ``counts`` (optional) weighs each size, for data given as a histogram.  Sizes must be
    ≥ 1 (the true node is always a candidate); anything else is an error.
    """
    sizes = np.asarray(sizes, dtype=float)
    weights = np.ones_like(sizes) if counts is None else np.asarray(counts, dtype=float)
    if sizes.shape != weights.shape:
        raise InputError("candidate-set sizes and counts differ in length")
    if (sizes < 1).any():
        raise InputError(
            f"candidate-set sizes must be at least 1, found {sizes[sizes < 1].min():g}"
        )
    total = weights.sum()
    if total <= 0:
        return np.zeros(len(BUCKETS))
    return np.array([weights[(sizes >= lo) & (sizes <= hi)].sum() / total for lo, hi in BUCKETS])


def candidate_set_buckets(
    sizes: Mapping[str, Any],
    counts: Mapping[str, Any] | None = None,
    *,
    x_label: str = "",
    title: str = "",
    ax: Axes | None = None,
) -> Figure:
    """Stacked bars: per label, the fraction of nodes by candidate-set size bucket.

    The darkest segment (size 1) is the singled-out fraction.  ``sizes`` maps a label (an
    adversary's knowledge, a scheme...) to per-node candidate-set sizes, or with ``counts``
    to a histogram (sizes → number of nodes).  A size of 0 — the knowledge matches no node,
    e.g. after a perturbation changed the person's structure — gets a light grey segment on
    top with its own legend entry (:data:`NO_MATCH_LABEL`), drawn only when some label has
    one; it is not a re-identification, and not a proof of safety either.
    """
    from matplotlib import colormaps

    labels = list(sizes)
    split = [_split_no_match(sizes[k], None if counts is None else counts[k]) for k in labels]
    none = np.array([z for z, _ in split])
    fracs = np.array([f for _, f in split]).reshape(len(labels), len(BUCKETS))
    fig, ax = _axes(ax, width=max(4.0, 0.9 * len(labels) + 2.5))
    cmap = colormaps["viridis"]
    colors = [cmap(i / (len(BUCKETS) - 1) * 0.9) for i in range(len(BUCKETS))]
    names = (SINGLED_OUT_LABEL, *BUCKET_LABELS[1:])
    bottom = np.zeros(len(labels))
    xs = np.arange(len(labels))
    for b, (name, color) in enumerate(zip(names, colors, strict=True)):
        ax.bar(xs, fracs[:, b], bottom=bottom, color=color, label=name, width=0.7)
        bottom += fracs[:, b]
    if none.any():
        ax.bar(xs, none, bottom=bottom, color=NO_MATCH_COLOR, label=NO_MATCH_LABEL, width=0.7,
               hatch="//", edgecolor="white")  # fmt: skip
    ax.set_xticks(xs, [str(k) for k in labels], rotation=30 if len(labels) > 5 else 0)
    ax.set_ylim(0, 1)
    _style(ax, x_label, "fraction of nodes", title)
    ax.grid(False, axis="x")
    ax.legend(
        title="candidate-set size", frameon=False, fontsize="small", title_fontsize="small",
        loc="upper left", bbox_to_anchor=(1.0, 1.0), reverse=True,
    )  # fmt: skip
    return fig


def _split_no_match(sizes: Any, counts: Any | None) -> tuple[float, np.ndarray]:
    """(fraction of size 0, fractions of the :data:`BUCKETS`), both over all nodes."""
    s = np.asarray(sizes, dtype=float)
    w = np.ones_like(s) if counts is None else np.asarray(counts, dtype=float)
    if s.shape != w.shape:
        raise InputError("candidate-set sizes and counts differ in length")
    zero = s == 0
    total = w.sum()
    none = float(w[zero].sum() / total) if total > 0 else 0.0
    return none, bucket_fractions(s[~zero], w[~zero]) * (1.0 - none)


# --------------------------------------------------------------------------- degrees


def degree_histogram(degrees: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(d, fraction of nodes with degree d)`` for the degrees ``d > 0`` that occur."""
    deg = np.asarray(degrees, dtype=np.int64)
    if deg.size == 0:
        return np.array([]), np.array([])
    if (deg < 0).any():
        raise InputError("degrees must be non-negative")
    counts = np.bincount(deg)
    d = np.nonzero(counts)[0]
    d = d[d > 0]
    return d.astype(float), counts[d] / deg.size


def loglog_curves(
    curves: Mapping[str, Any],
    *,
    x_label: str = "degree",
    y_label: str = "fraction of nodes",
    highlight: Sequence[str] = ("original",),
    title: str = "",
    ax: Axes | None = None,
) -> Figure:
    """Curves on log-log axes; labels in ``highlight`` are drawn thick and black.

    ``curves`` maps a label to one ``(x, y)`` pair or several; non-positive points are dropped.
    """
    fig, ax = _axes(ax)
    labels = list(curves)
    others = [k for k in labels if k not in highlight]
    palette = dict(zip(others, _colors(len(others)), strict=True))
    for i, label in enumerate(labels):
        hl = label in highlight
        for j, (x, y) in enumerate(_curve_list(curves[label])):
            keep = (x > 0) & (y > 0)
            ax.plot(
                x[keep],
                y[keep],
                color="black" if hl else palette[label],
                linewidth=2.2 if hl else 1.2,
                marker="" if hl else _MARKERS[i % len(_MARKERS)],
                markersize=3,
                alpha=1.0 if hl else 0.85,
                label=str(label) if j == 0 else None,
                zorder=3 if hl else 2,
            )
    ax.set_xscale("log")
    ax.set_yscale("log")
    _style(ax, x_label, y_label, title)
    _legend(ax)
    return fig


def degree_distributions(
    original: Any, releases: Mapping[str, Any], *, title: str = "", ax: Axes | None = None
) -> Figure:
    """Degree distribution of the original graph against those of releases (log-log).

    ``original`` and each release are degree sequences (one degree per node).
    """
    curves = {"original": degree_histogram(original)}
    curves.update({str(k): degree_histogram(v) for k, v in releases.items()})
    return loglog_curves(curves, title=title, ax=ax)
