"""The generalization lattice of a full-domain search, with the chosen transformation.

:func:`lattice_plot` draws a Hasse diagram (height = sum of levels upwards, one dot per
transformation coloured by status, an edge per one-step generalization) for lattices of at
most :data:`LATTICE_FULL_MAX_NODES` nodes, and a compact view for larger ones (e.g. Adult's
12,960 nodes): per height, stacked bars of anonymous / not anonymous / unknown nodes, beside
the optimum's level per quasi-identifier.  :func:`lattice_counts` gives the per-height
counts as a table, :func:`lattice_levels` the level vectors in lattice index order (that of
:class:`privlab.table.lattice.Lattice`), :func:`lattice_optimum_label` the optimum's
annotation.  O(nodes × d) to lay out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Integral as numbers_Integral
from typing import Any

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from privlab.errors import InputError
from privlab.report.plots.figure import _axes, _legend, _style
from privlab.table.lattice import mixed_radix, node_levels

#: Lattices with at most this many nodes are drawn as a full Hasse diagram; larger ones
#: (e.g. Adult's 12,960 nodes) get the compact view (counts per height + the optimum's levels).
LATTICE_FULL_MAX_NODES = 300

#: Node colours by status: 1 anonymous, -1 not anonymous, 0 unknown (pruned by the search).
LATTICE_COLORS: dict[int, str] = {1: "#2a9d8f", -1: "#e76f51", 0: "#c8c8c8"}
LATTICE_STATUS_LABELS: dict[int, str] = {1: "anonymous", -1: "not anonymous", 0: "unknown"}


def lattice_levels(heights: Sequence[int]) -> np.ndarray:
    """All level vectors ``0 ≤ l_j ≤ h_j`` as an (n_nodes × d) array, in lattice index order.

    The order is mixed radix with the last attribute fastest, the same as
    :class:`privlab.table.lattice.Lattice`, so row ``i`` is node ``i`` of a search.
    """
    sizes = np.asarray(heights, dtype=np.int64) + 1
    if sizes.ndim != 1 or sizes.size == 0 or (sizes < 1).any():
        raise InputError("lattice heights must be a non-empty list of non-negative integers")
    return node_levels(heights)


def _lattice_status(heights: Sequence[int], status: Any) -> tuple[np.ndarray, np.ndarray]:
    levels = lattice_levels(heights)
    st = np.sign(np.asarray(status, dtype=float)).astype(np.int8)
    if st.shape != (levels.shape[0],):
        raise InputError(
            f"lattice status needs one entry per node ({levels.shape[0]}), got shape {st.shape}"
        )
    return levels, st


def lattice_counts(heights: Sequence[int], status: Any) -> pl.DataFrame:
    """Per height (sum of levels): numbers of nodes, anonymous, not anonymous and unknown.

    ``status`` has one entry per node in lattice index order: > 0 anonymous, < 0 not
    anonymous, 0 unknown (never evaluated nor implied by the search).
    """
    levels, st = _lattice_status(heights, status)
    h = levels.sum(axis=1)
    n_h = int(np.sum(heights)) + 1
    counts = {
        name: np.bincount(h[st == s], minlength=n_h)
        for s, name in ((1, "anonymous"), (-1, "not_anonymous"), (0, "unknown"))
    }
    return pl.DataFrame(
        {"height": np.arange(n_h), "nodes": np.bincount(h, minlength=n_h), **counts}
    )


def _optimum_index(optimum: Any, heights: Sequence[int], names: Sequence[str] | None) -> int:
    sizes = np.asarray(heights, dtype=np.int64) + 1
    if isinstance(optimum, Mapping):
        if names is None:
            names = [str(k) for k in optimum]
        optimum = [optimum[k] for k in names]
    if isinstance(optimum, numbers_Integral):
        node = int(optimum)
        if not 0 <= node < int(np.prod(sizes)):
            raise InputError(f"optimum node {node} is outside the lattice")
        return node
    lv = np.asarray(optimum, dtype=np.int64)
    if lv.shape != sizes.shape or (lv < 0).any() or (lv >= sizes).any():
        raise InputError(f"optimum levels {list(lv)} do not fit the heights {list(heights)}")
    return int(lv @ mixed_radix(heights))


def lattice_optimum_label(
    levels: Sequence[int], value: float | None = None, metric: str = ""
) -> str:
    """``"(1, 0, 2)"`` and, with a value, ``"\\nloss = 0.1234"`` — the optimum's annotation."""
    text = "(" + ", ".join(str(int(v)) for v in levels) + ")"
    if value is not None:
        text += f"\n{metric or 'value'} = {float(value):.4g}"
    return text


def lattice_plot(
    heights: Sequence[int],
    status: Any,
    optimum: Any = None,
    *,
    names: Sequence[str] | None = None,
    value: float | None = None,
    metric: str = "",
    max_nodes: int = LATTICE_FULL_MAX_NODES,
    title: str = "",
    ax: Axes | None = None,
) -> Figure:
    """The generalization lattice of a full-domain search and the chosen transformation.

    ``heights`` are the hierarchy heights per quasi-identifier (``names``), ``status`` one
    entry per node in lattice index order (> 0 anonymous, < 0 not anonymous, 0 unknown —
    pruned by the search), ``optimum`` the chosen node (index, levels vector, or mapping
    QI → level such as ``SearchResult.levels``), labelled with its levels and ``metric`` =
    ``value``.

    Up to ``max_nodes`` nodes (default :data:`LATTICE_FULL_MAX_NODES`): a Hasse diagram —
    height (sum of levels) upwards, one dot per transformation, an edge where one attribute
    is generalized one step.  Larger lattices: a compact view — per height, stacked bars of
    anonymous / not anonymous / unknown nodes, and beside it the optimum's level per
    quasi-identifier against the hierarchy height (``ax=`` draws only the bars).
    O(nodes × d) to lay out.
    """
    levels, st = _lattice_status(heights, status)
    d = levels.shape[1]
    names = [str(c) for c in names] if names is not None else [f"QI {j + 1}" for j in range(d)]
    if len(names) != d:
        raise InputError(f"lattice_plot: {len(names)} names for {d} quasi-identifiers")
    node = None if optimum is None else _optimum_index(optimum, heights, names)
    label = None if node is None else lattice_optimum_label(levels[node], value, metric)
    if levels.shape[0] <= max_nodes:
        return _hasse(levels, st, node, label, names, title, ax)
    return _lattice_compact(heights, levels, st, node, label, names, title, ax)


def _hasse(
    levels: np.ndarray,
    st: np.ndarray,
    node: int | None,
    label: str | None,
    names: list[str],
    title: str,
    ax: Axes | None,
) -> Figure:
    from matplotlib.collections import LineCollection

    n, d = levels.shape
    h = levels.sum(axis=1)
    heights = levels.max(axis=0)
    row = np.bincount(h)
    # x: rank within the height row (lattice index order), centred; the widest row spans ±1
    rank = np.zeros(n)
    seen = np.zeros(row.size, dtype=np.int64)
    for i in range(n):
        rank[i] = seen[h[i]]
        seen[h[i]] += 1
    widest = max(int(row.max()) - 1, 1)
    x = (rank - (row[h] - 1) / 2) / widest * 2
    y = h.astype(float)
    fig, ax = _axes(
        ax,
        width=float(np.clip(0.45 * row.max() + 4.5, 7.0, 16.0)),
        height=float(np.clip(0.75 * row.size + 1.5, 3.5, 9.0)),
    )
    radix = mixed_radix(heights)
    segs = [
        ((x[i], y[i]), (x[i + radix[j]], y[i + radix[j]]))
        for i in range(n)
        for j in range(d)
        if levels[i, j] < heights[j]
    ]
    ax.add_collection(
        LineCollection(segs, colors="0.6", linewidths=0.8 if n <= 60 else 0.4, zorder=1)
    )
    size = float(np.clip(4000.0 / n, 14.0, 160.0))
    for s in (1, -1, 0):
        m = st == s
        ax.scatter(
            x[m], y[m], s=size, color=LATTICE_COLORS[s], edgecolors="white", linewidths=0.5,
            zorder=2, label=f"{LATTICE_STATUS_LABELS[s]} ({int(m.sum())})",
        )  # fmt: skip
    if n <= 40:
        for i in range(n):
            ax.annotate(
                "".join(str(int(v)) for v in levels[i]), (x[i], y[i]), textcoords="offset points",
                xytext=(0, -11), ha="center", fontsize="xx-small", color="0.3",
            )  # fmt: skip
    if node is not None:
        ax.scatter(
            [x[node]], [y[node]], s=size * 2.6, facecolors="none", edgecolors="black",
            linewidths=2.0, zorder=3, label="chosen transformation",
        )  # fmt: skip
        # the label goes beside the diagram, on the side away from the node, with an arrow
        left = bool(x[node] >= 0)
        text_xy = (-1.2 if left else 1.2, y[node] + 0.45)
        ax.annotate(
            "optimum " + str(label), (x[node], y[node]), xytext=text_xy,
            ha="right" if left else "left", va="center", fontsize="small", fontweight="bold",
            zorder=4, arrowprops={"arrowstyle": "-|>", "color": "black", "shrinkB": 8},
            bbox={"boxstyle": "round,pad=0.25", "fc": "white", "ec": "black", "alpha": 0.9},
        )  # fmt: skip
        ax.set_xlim(*((-2.6, 1.25) if left else (-1.25, 2.6)))
    else:
        ax.set_xlim(-1.25, 1.25)
    ax.set_ylim(-0.7, row.size - 0.3)
    ax.set_yticks(np.arange(row.size))
    ax.set_xticks([])
    _style(ax, "levels (" + ", ".join(names) + ")", "height (sum of levels)", title)
    ax.grid(False)
    ax.spines["bottom"].set_visible(False)
    ax.legend(
        frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0),
        markerscale=min(1.0, 60.0 / size),
    )  # fmt: skip
    return fig


def _lattice_compact(
    heights: Sequence[int],
    levels: np.ndarray,
    st: np.ndarray,
    node: int | None,
    label: str | None,
    names: list[str],
    title: str,
    ax: Axes | None,
) -> Figure:
    from matplotlib.ticker import MaxNLocator

    counts = lattice_counts(heights, st)
    if ax is None:
        fig = Figure(figsize=(11.0, 4.2), layout="constrained")
        FigureCanvasAgg(fig)
        bars_ax, levels_ax = fig.subplots(1, 2, width_ratios=[2.2, 1])
    else:
        fig, bars_ax, levels_ax = ax.figure, ax, None  # type: ignore[assignment]
    hs = counts["height"].to_numpy()
    bottom = np.zeros(hs.size)
    for s, col in ((1, "anonymous"), (-1, "not_anonymous"), (0, "unknown")):
        v = counts[col].to_numpy().astype(float)
        bars_ax.bar(
            hs, v, bottom=bottom, width=0.8, color=LATTICE_COLORS[s],
            label=f"{LATTICE_STATUS_LABELS[s]} ({int(v.sum()):,})",
        )  # fmt: skip
        bottom += v
    if node is not None:
        hn = int(levels[node].sum())
        bars_ax.annotate(
            "optimum " + str(label), (hn, bottom[hn]), textcoords="offset points", xytext=(0, 26),
            ha="center", fontsize="small", fontweight="bold",
            arrowprops={"arrowstyle": "-|>", "color": "black"},
            bbox={"boxstyle": "round,pad=0.25", "fc": "white", "ec": "black", "alpha": 0.9},
        )  # fmt: skip
        bars_ax.set_ylim(0, float(bottom.max()) * 1.35)
    _style(
        bars_ax, "height (sum of levels)", "transformations",
        title or f"lattice of {levels.shape[0]:,} transformations",
    )  # fmt: skip
    bars_ax.grid(False, axis="x")
    bars_ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    _legend(bars_ax, loc="upper right")
    if levels_ax is not None:
        ys = np.arange(len(names))[::-1]
        top = np.asarray(heights, dtype=float)
        levels_ax.barh(ys, top, color="0.9", height=0.7, label="hierarchy height")
        if node is not None:
            lv = levels[node].astype(float)
            levels_ax.barh(ys, lv, color="#264653", height=0.7, label="chosen level")
            for yy, a, b in zip(ys, lv, top, strict=True):
                levels_ax.text(b + 0.1, yy, f"{int(a)}/{int(b)}", va="center", fontsize="small")
        levels_ax.set_yticks(ys, names)
        levels_ax.set_xlim(0, float(top.max()) + 1.0)
        _style(levels_ax, "generalization level", "", "chosen transformation")
        levels_ax.grid(False, axis="y")
    return fig
