"""Plots for privacy–utility reports (matplotlib, Agg; no pyplot, no global state).

Every function returns a :class:`matplotlib.figure.Figure` ready for
:meth:`privlab.report.Report.add_figure`; pass ``ax=`` to draw into an existing axes
instead (small multiples).  The plots are the ones of the seeds' experiments:

* :func:`metric_vs_parameter` — a metric against the swept parameter, one line per scheme,
  mean ± standard deviation over seeds (Hay et al. Figs 6, 8, 9; Li et al. Figs 2–6).
* :func:`roc_curves` and :func:`tp_at_fp_table` — attack ROC curves and true-positive rates
  at fixed false-positive rates (Sharad, Tables 4.1–4.3).
* :func:`candidate_set_buckets` — stacked bars of candidate-set sizes in the buckets
  1, 2–4, 5–10, 11–20, ≥21 (Hay et al. Fig. 5).
* :func:`degree_distributions` / :func:`loglog_curves` — degree distributions, original vs
  release, log-log.
* :func:`privacy_utility_frontier` — risk against loss with the Pareto front highlighted.
* :func:`risk_histograms` — per-record risk distributions.
* :func:`lattice_plot` — the generalization lattice of a full-domain search (Hasse diagram,
  or counts per height for big lattices) with the chosen transformation.

All are O(n log n) in the number of points at most (sorting); drawing dominates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from numbers import Integral as numbers_Integral
from typing import Any

import numpy as np
import polars as pl
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from privlab.errors import InputError
from privlab.table.lattice import mixed_radix, node_levels

__all__ = [
    "BUCKETS",
    "BUCKET_LABELS",
    "LATTICE_COLORS",
    "LATTICE_FULL_MAX_NODES",
    "bucket_fractions",
    "candidate_set_buckets",
    "degree_distributions",
    "degree_histogram",
    "lattice_counts",
    "lattice_levels",
    "lattice_optimum_label",
    "lattice_plot",
    "line_curves",
    "loglog_curves",
    "mean_std",
    "metric_vs_parameter",
    "new_figure",
    "pareto_front",
    "privacy_utility_frontier",
    "risk_histograms",
    "roc_curves",
    "tp_at_fp",
    "tp_at_fp_table",
]

#: Candidate-set size buckets (inclusive bounds) of Hay et al., Fig. 5.
BUCKETS: tuple[tuple[float, float], ...] = ((1, 1), (2, 4), (5, 10), (11, 20), (21, math.inf))
BUCKET_LABELS: tuple[str, ...] = ("1", "2–4", "5–10", "11–20", "≥21")

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


# --------------------------------------------------------------------------- aggregation


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


# --------------------------------------------------------------------------- candidate sets


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

    The darkest segment (size 1) is the re-identified fraction.  ``sizes`` maps a label (an
    adversary's knowledge, a scheme...) to per-node candidate-set sizes, or with ``counts``
    to a histogram (sizes → number of nodes).
    """
    from matplotlib import colormaps

    labels = list(sizes)
    fracs = np.array(
        [bucket_fractions(sizes[k], None if counts is None else counts[k]) for k in labels]
    ).reshape(len(labels), len(BUCKETS))
    fig, ax = _axes(ax, width=max(4.0, 0.9 * len(labels) + 2.5))
    cmap = colormaps["viridis"]
    colors = [cmap(i / (len(BUCKETS) - 1) * 0.9) for i in range(len(BUCKETS))]
    bottom = np.zeros(len(labels))
    xs = np.arange(len(labels))
    for b, (name, color) in enumerate(zip(BUCKET_LABELS, colors, strict=True)):
        ax.bar(xs, fracs[:, b], bottom=bottom, color=color, label=name, width=0.7)
        bottom += fracs[:, b]
    ax.set_xticks(xs, [str(k) for k in labels], rotation=30 if len(labels) > 5 else 0)
    ax.set_ylim(0, 1)
    _style(ax, x_label, "fraction of nodes", title)
    ax.grid(False, axis="x")
    ax.legend(
        title="candidate-set size", frameon=False, fontsize="small", title_fontsize="small",
        loc="upper left", bbox_to_anchor=(1.0, 1.0), reverse=True,
    )  # fmt: skip
    return fig


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


# --------------------------------------------------------------------------- frontier


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


def _require(df: Any, cols: Sequence[str], where: str) -> None:
    missing = [c for c in cols if c not in getattr(df, "columns", [])]
    if missing:
        raise InputError(f"{where}: data lacks column(s) {', '.join(missing)}")


# --------------------------------------------------------------------------- lattice

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
