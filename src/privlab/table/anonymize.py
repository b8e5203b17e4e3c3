"""One call from a data frame (or file) to an anonymized release.

``anonymize`` encodes the table, runs the chosen search and applies the transformation:
quasi-identifiers are replaced by their labels at the chosen levels, records of classes that
violate a model have every quasi-identifier replaced by the hierarchy's top value (ARX's
record suppression; the row stays, so no input row disappears unaccounted), identifying
columns are removed, and the other columns are released unchanged.  The output is of the
same kind as the input (polars or pandas; a path gives polars).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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

ALGORITHMS = ("optimal", "datafly")


@dataclass
class Release:
    """The anonymized table and the figures of the transformation that produced it."""

    data: Any
    result: SearchResult
    suppressed_rows: np.ndarray

    def to_dict(self) -> dict[str, object]:
        return self.result.to_dict()


def release_frame(table: MicroTable, levels: Sequence[int], suppressed: np.ndarray) -> pl.DataFrame:
    """Apply levels (one per QI) and suppression (boolean per record) to ``table``."""
    columns = {}
    for j, col in enumerate(table.qi):
        h = table.hierarchies[col]
        labels = h.group_labels(int(levels[j]))[h.group_of_leaf(int(levels[j]))]
        out = pl.Series(col, labels.tolist(), dtype=pl.String).gather(table.qi_codes[:, j])
        if suppressed.any():
            out = out.scatter(np.flatnonzero(suppressed), h.labels[0, -1])
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
    suppression_limit: float = 0.0,
    metric: Metric | None = None,
    algorithm: str = "optimal",
    missing: MissingPolicy | str = MissingPolicy.ERROR,
    progress: ProgressFn | None = None,
) -> Release:
    """Anonymize ``data`` by full-domain generalization and record suppression.

    ``k`` adds k-anonymity to ``models``.  ``algorithm`` is ``optimal`` (ARX's optimum, see
    :func:`privlab.table.search.optimal_search`) or ``datafly``.
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
        missing=missing,
    )
    return anonymize_table(
        table,
        all_models,
        suppression_limit=suppression_limit,
        metric=metric,
        algorithm=algorithm,
        progress=progress,
    )


def anonymize_table(
    table: MicroTable,
    models: Sequence[PrivacyModel],
    *,
    suppression_limit: float = 0.0,
    metric: Metric | None = None,
    algorithm: str = "optimal",
    progress: ProgressFn | None = None,
) -> Release:
    """Search the generalization lattice of an encoded table and apply the chosen node."""
    if algorithm not in ALGORITHMS:
        raise ConfigError(f"algorithm {algorithm!r}: use one of {', '.join(ALGORITHMS)}")
    problem = Problem(table, models, suppression_limit=suppression_limit, metric=metric)
    if algorithm == "optimal":
        result = optimal_search(problem, progress=progress)
    else:
        result = datafly_search(problem)
    mask = suppressed_mask(problem, result.node)
    frame = release_frame(table, problem.lattice.levels[result.node], mask)
    return Release(table.as_input_kind(frame), result, np.flatnonzero(mask))
