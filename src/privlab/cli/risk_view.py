"""The re-identification risk table people read: ``table risk`` and ``demo`` print it.

One labelled row per figure of :class:`privlab.table.risk.RiskReport`, in sections
(classes, prosecutor, journalist, marketer, uniqueness), one column per report; a figure no
report has (e.g. population uniqueness without a population size) is left out, and a figure
only some have shows ``—``.  See docs/risk.md for what each figure means.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.table import Table

#: (section, label, key of ``RiskReport.to_dict()``, format)
RISK_ROWS = (
    ("classes", "records analysed", "records", "d"),
    ("classes", "records suppressed", "suppressed", "d"),
    ("classes", "equivalence classes", "classes", "d"),
    ("classes", "smallest class", "smallest_class", "d"),
    ("classes", "average class size", "average_class_size", ".4g"),
    ("prosecutor", "highest risk", "prosecutor_highest_risk", ".4f"),
    ("prosecutor", "average risk", "prosecutor_average_risk", ".4f"),
    ("prosecutor", "records above the threshold", "prosecutor_records_at_risk", ".2%"),
    ("journalist", "model", "journalist_model", "s"),
    ("journalist", "highest risk", "journalist_highest_risk", ".4f"),
    ("journalist", "average risk", "journalist_average_risk", ".4f"),
    ("journalist", "records above the threshold", "journalist_records_at_risk", ".2%"),
    ("marketer", "expected share re-identified", "marketer_risk", ".4f"),
    ("uniqueness", "sample uniques", "sample_uniques_fraction", ".2%"),
    ("uniqueness", "population size", "population_size", ",d"),
    ("uniqueness", "population uniques (Pitman)", "population_uniques_fraction_pitman", ".2%"),
    ("uniqueness", "population uniques (Zayatz)", "population_uniques_fraction_zayatz", ".2%"),
    ("uniqueness", "population uniques (Dankar)", "population_uniques_fraction_dankar", ".2%"),
)


def _fmt(value: Any, spec: str) -> str:
    if value is None:
        return "—"
    if isinstance(value, float) and spec.endswith("d"):
        value = int(value)
    return format(value, spec)


def risk_table(title: str, reports: Mapping[str, Mapping[str, Any]]) -> Table:
    """The risk figures of one or more reports (``{column heading: report.to_dict()}``)."""
    grid = Table(title=title, show_header=len(reports) > 1)
    grid.add_column("")
    grid.add_column("")
    for heading in reports:
        grid.add_column(heading, justify="right")
    rows = [
        (name, label, [_fmt(r.get(key), spec) for r in reports.values()])
        for name, label, key, spec in RISK_ROWS
        if any(r.get(key) is not None for r in reports.values())  # e.g. no population given
    ]
    for i, (name, label, cells) in enumerate(rows):
        first = i == 0 or rows[i - 1][0] != name
        last = i == len(rows) - 1 or rows[i + 1][0] != name
        grid.add_row(name if first else "", label, *cells, end_section=last)
    return grid
