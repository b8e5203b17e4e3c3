"""Shared figure helpers for the plots: the canvas, the house style, colours and markers.

:func:`new_figure` makes a figure on the Agg canvas (no pyplot, no global state) with an
array of axes; the private helpers below it are used by every plot module of
:mod:`privlab.report.plots`: :func:`_axes` (draw into ``ax=`` or a new figure),
:func:`_style` (labels, title, light grid, no top/right spines), :func:`_legend` (only when
something is labelled), :func:`_finish_xy` (log scales, then style and legend),
:func:`_colors` (tab10, or tab20 past ten series), ``_MARKERS`` and :func:`_require`
(the columns a data frame must have).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from privlab.errors import InputError

_MARKERS = "osD^v<>ph*"


def new_figure(
    nrows: int = 1, ncols: int = 1, *, width: float = 6.4, height: float = 4.0
) -> tuple[Figure, np.ndarray]:
    """A figure on the Agg canvas with an ``nrows × ncols`` array of axes (panel size given)."""
    fig = Figure(figsize=(width * ncols, height * nrows), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, axes


def _axes(ax: Axes | None, **size: float) -> tuple[Figure, Axes]:
    if ax is not None:
        return ax.figure, ax  # type: ignore[return-value]
    fig, axes = new_figure(**size)  # type: ignore[arg-type]
    return fig, axes[0, 0]


def _style(ax: Axes, x_label: str, y_label: str, title: str = "") -> None:
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    if title:
        ax.set_title(title, fontsize="medium")
    ax.grid(True, which="major", alpha=0.3)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _legend(ax: Axes, **kw: Any) -> None:
    handles, _ = ax.get_legend_handles_labels()
    if handles:
        ax.legend(frameon=False, fontsize="small", **kw)


def _finish_xy(ax: Axes, x_label: str, y_label: str, title: str, log_x: bool, log_y: bool) -> None:
    """Log scales where asked, then labels, title and legend (:func:`_style`, :func:`_legend`)."""
    if log_x:
        ax.set_xscale("log")
    if log_y:
        ax.set_yscale("log")
    _style(ax, x_label, y_label, title)
    _legend(ax)


def _colors(n: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def _require(df: Any, cols: Sequence[str], where: str) -> None:
    missing = [c for c in cols if c not in getattr(df, "columns", [])]
    if missing:
        raise InputError(f"{where}: data lacks column(s) {', '.join(missing)}")
