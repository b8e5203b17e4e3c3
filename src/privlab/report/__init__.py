"""HTML reports with plots: one self-contained file per report.

* :class:`Report` — build a report from Python objects (sections of text, tables, figures)
  and :meth:`Report.write` it atomically.
* :func:`report_from_results` — the report of a ``privlab bench`` results folder.
* :mod:`privlab.report.plots` — the plots (matplotlib, Agg).
"""

from __future__ import annotations

from privlab.report.html import Figure, Report, Section, Table, Text, markdown_to_html
from privlab.report.results import (
    aggregate_results,
    load_curves,
    load_manifest,
    load_results,
    report_from_results,
)

__all__ = [
    "Figure",
    "Report",
    "Section",
    "Table",
    "Text",
    "aggregate_results",
    "load_curves",
    "load_manifest",
    "load_results",
    "markdown_to_html",
    "report_from_results",
]
