"""Plots for privacy–utility reports (matplotlib, Agg; no pyplot, no global state).

Every function returns a :class:`matplotlib.figure.Figure` ready for
:meth:`privlab.report.Report.add_figure`; pass ``ax=`` to draw into an existing axes
instead (small multiples).  The plots are the ones of the seeds' experiments:

* :func:`metric_vs_parameter` — a metric against the swept parameter, one line per scheme,
  mean ± standard deviation over seeds (Hay et al. Figs 6, 8, 9; Li et al. Figs 2–6).
* :func:`roc_curves` and :func:`tp_at_fp_table` — attack ROC curves and true-positive rates
  at fixed false-positive rates (Sharad, Tables 4.1–4.3).
* :func:`candidate_set_buckets` — stacked bars of candidate-set sizes in the buckets
  1, 2–4, 5–10, 11–20, ≥21 (Hay et al. Fig. 5), and 0 ("matches nobody") in its own colour.
* :func:`degree_distributions` / :func:`loglog_curves` — degree distributions, original vs
  release, log-log.
* :func:`privacy_utility_frontier` — risk against loss with the Pareto front highlighted.
* :func:`risk_histograms` — per-record risk distributions.
* :func:`lattice_plot` — the generalization lattice of a full-domain search (Hasse diagram,
  or counts per height for big lattices) with the chosen transformation.

All are O(n log n) in the number of points at most (sorting); drawing dominates.

Modules, each importing only those above it in this list:

* :mod:`~privlab.report.plots.figure` — :func:`new_figure` and the shared style helpers;
* :mod:`~privlab.report.plots.curves` — :func:`mean_std`, :func:`metric_vs_parameter`,
  :func:`roc_curves`, :func:`tp_at_fp`, :func:`tp_at_fp_table`, :func:`line_curves`;
* :mod:`~privlab.report.plots.graph` — candidate-set buckets and degree distributions;
* :mod:`~privlab.report.plots.tradeoff` — :func:`pareto_front`,
  :func:`privacy_utility_frontier`, :func:`risk_histograms`;
* :mod:`~privlab.report.plots.lattice` — :func:`lattice_plot` and its tables.
"""

from __future__ import annotations

from privlab.report.plots.curves import (
    line_curves,
    mean_std,
    metric_vs_parameter,
    roc_curves,
    tp_at_fp,
    tp_at_fp_table,
)
from privlab.report.plots.figure import new_figure
from privlab.report.plots.graph import (
    BUCKET_LABELS,
    BUCKETS,
    NO_MATCH_COLOR,
    NO_MATCH_LABEL,
    SINGLED_OUT_LABEL,
    bucket_fractions,
    candidate_set_buckets,
    degree_distributions,
    degree_histogram,
    loglog_curves,
)
from privlab.report.plots.lattice import (
    LATTICE_COLORS,
    LATTICE_FULL_MAX_NODES,
    lattice_counts,
    lattice_levels,
    lattice_optimum_label,
    lattice_plot,
)
from privlab.report.plots.lattice import (
    LATTICE_STATUS_LABELS as LATTICE_STATUS_LABELS,  # public, not in __all__ (as before)
)
from privlab.report.plots.tradeoff import pareto_front, privacy_utility_frontier, risk_histograms

__all__ = [
    "BUCKETS",
    "BUCKET_LABELS",
    "LATTICE_COLORS",
    "LATTICE_FULL_MAX_NODES",
    "NO_MATCH_COLOR",
    "NO_MATCH_LABEL",
    "SINGLED_OUT_LABEL",
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
