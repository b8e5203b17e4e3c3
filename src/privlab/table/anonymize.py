"""One call from a data frame (or file) to an anonymized release.

``anonymize`` encodes the table, runs the chosen search and applies the transformation:
quasi-identifiers are replaced by their labels at the chosen levels, records of classes that
violate a model have every quasi-identifier replaced by the suppressed value ``*`` (ARX's
record suppression; the row stays, so no input row disappears unaccounted; which released
records count as suppressed is defined once in :mod:`privlab.table.suppression`),
identifying columns are removed, and the columns declared insensitive are released
unchanged.  A column without a role is refused (:mod:`privlab.table.roles`), so a release
never carries a column by default.  The output is of the same kind as the input (polars or
pandas; a path gives polars).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError
from privlab.table.data import MicroTable, MissingPolicy
from privlab.table.hierarchy import Hierarchy
from privlab.table.metrics import Metric
from privlab.table.models import KAnonymity, PrivacyModel
from privlab.table.search import (
    Problem,
    ProgressFn,
    SearchResult,
    datafly_search,
    optimal_search,
)
from privlab.table.suppression import (
    SUPPRESSED_VALUE,
    check_suppressed_value,
    suppressed_records,
)

ALGORITHMS = ("optimal", "datafly")


@dataclass
class Release:
    """The anonymized table and the figures of the transformation that produced it.

    ``suppressed_rows``: positions of the released records that read as suppressed (every QI
    holds the suppressed value), as ``table check`` and ``table risk`` count them.
    """

    data: Any
    result: SearchResult
    suppressed_rows: np.ndarray
    #: :meth:`MicroTable.notes`: automatic hierarchies (specs) and role warnings.
    notes: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        out = {**self.result.to_dict(), **self.notes}
        if self.suppressed_rows.size != self.result.suppressed:
            # every QI generalized to a top that reads as suppressed: no class is left
            out["suppressed"], out["equivalence_classes"] = int(self.suppressed_rows.size), 0
        return out


def release_frame(
    table: MicroTable,
    levels: Sequence[int],
    suppressed: np.ndarray,
    suppressed_value: str = SUPPRESSED_VALUE,
) -> pl.DataFrame:
    """Apply levels (one per QI) and suppression (boolean per record) to ``table``.

    A suppressed record gets ``suppressed_value`` in every QI cell, whatever the top label
    of the column's hierarchy.
    """
    columns = {}
    for j, col in enumerate(table.qi):
        h = table.hierarchies[col]
        labels = h.group_labels(int(levels[j]))[h.group_of_leaf(int(levels[j]))]
        out = pl.Series(col, labels.tolist(), dtype=pl.String).gather(table.qi_codes[:, j])
        if suppressed.any():
            out = out.scatter(np.flatnonzero(suppressed), suppressed_value)
        columns[col] = out
    keep = [c for c in table.frame.columns if c not in table.identifying]
    return table.frame.select(keep).with_columns([columns[c] for c in table.qi])


def suppressed_mask(problem: Problem, node: int) -> np.ndarray:
    """Per record: is it in a class that violates a model at ``node``?"""
    check = problem.check(node)
    positions = problem.groupify.record_classes(
        problem.table.qi_codes, problem.lattice.levels[node]
    )
    return ~check.kept[positions]


def anonymize(
    data: Any,
    *,
    quasi_identifiers: Sequence[str],
    hierarchies: Mapping[str, Hierarchy | str | os.PathLike[str]] | None = None,
    k: int | None = None,
    models: Sequence[PrivacyModel] = (),
    sensitive: Sequence[str] = (),
    identifying: Sequence[str] = (),
    insensitive: Sequence[str] = (),
    keep_other_columns: bool = False,
    suppression_limit: float = 0.0,
    suppressed_value: str = SUPPRESSED_VALUE,
    metric: Metric | None = None,
    algorithm: str = "optimal",
    missing: MissingPolicy | str = MissingPolicy.ERROR,
    progress: ProgressFn | None = None,
) -> Release:
    """Anonymize ``data`` by full-domain generalization and record suppression.

    Every column needs a role: ``quasi_identifiers``, ``sensitive``, ``identifying``
    (removed) or ``insensitive`` (released unchanged); ``keep_other_columns=True`` releases
    all undeclared columns unchanged.  An undeclared column is a ConfigError that lists it.
    ``hierarchies`` may name ``"flat"``; a numeric QI without one gets an automatic interval
    hierarchy, recorded in ``to_dict()["automatic_hierarchies"]`` (see
    :meth:`MicroTable.from_data`).  ``k`` adds k-anonymity to ``models``.  ``algorithm`` is
    ``optimal`` (ARX's optimum, see :func:`privlab.table.search.optimal_search`) or
    ``datafly``.  ``suppressed_value`` is written into every QI cell of a suppressed record
    (see :func:`anonymize_table`).
    """
    if algorithm not in ALGORITHMS:
        raise ConfigError(f"algorithm {algorithm!r}: use one of {', '.join(ALGORITHMS)}")
    all_models = list(models)
    if k is not None:
        all_models.insert(0, KAnonymity(k))
    table = MicroTable.from_data(
        data,
        quasi_identifiers=quasi_identifiers,
        hierarchies=hierarchies,
        sensitive=sensitive,
        identifying=identifying,
        insensitive=insensitive,
        keep_other_columns=keep_other_columns,
        missing=missing,
    )
    return anonymize_table(
        table,
        all_models,
        suppression_limit=suppression_limit,
        suppressed_value=suppressed_value,
        metric=metric,
        algorithm=algorithm,
        progress=progress,
    )


def anonymize_table(
    table: MicroTable,
    models: Sequence[PrivacyModel],
    *,
    suppression_limit: float = 0.0,
    suppressed_value: str = SUPPRESSED_VALUE,
    metric: Metric | None = None,
    algorithm: str = "optimal",
    progress: ProgressFn | None = None,
) -> Release:
    """Search the generalization lattice of an encoded table and apply the chosen node.

    Raises :class:`ConfigError` when ``suppressed_value`` is empty or a hierarchy uses it for
    only some of a column's values (a released cell could then not be told apart from a
    suppressed one; see :func:`privlab.table.suppression.check_suppressed_value`).
    """
    if algorithm not in ALGORITHMS:
        raise ConfigError(f"algorithm {algorithm!r}: use one of {', '.join(ALGORITHMS)}")
    check_suppressed_value(table.hierarchies, suppressed_value)
    problem = Problem(table, models, suppression_limit=suppression_limit, metric=metric)
    search = optimal_search if algorithm == "optimal" else datafly_search
    result = search(problem, progress=progress)
    mask = suppressed_mask(problem, result.node)
    frame = release_frame(table, problem.lattice.levels[result.node], mask, suppressed_value)
    rows = np.flatnonzero(suppressed_records(frame, table.qi, suppressed_value))
    return Release(table.as_input_kind(frame), result, rows, table.notes())
