"""The risk report of a release: every figure of :mod:`privlab.table.risk` at once.

From the class sizes (:func:`risk_from_class_sizes`), from a table given as a frame or path
(:func:`risk_of_frame`, with an optional population table that gives each class's ``F_j``)
or from an encoded :class:`~privlab.table.data.MicroTable` (:func:`risk_report`,
``privlab table risk``).  Conventions are ARX's (``RiskModelSampleSummary``,
``RiskModelSampleRisks``, ``RiskModelPopulationUniqueness``): the journalist figures use the
population table, else the Benedetti–Franconi estimate when the population size is known,
else the sample (ARX's fallback); the population-uniqueness estimates need the population
size.

Complexity: O(m log m + u) from m class sizes (u for Pitman's likelihood), plus O(n)
grouping of a frame or O(n log n) of an encoded table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.table.data import MicroTable, to_polars
from privlab.table.risk.attackers import (
    AttackerRisk,
    journalist_risk,
    marketer_risk,
    prosecutor_risk,
)
from privlab.table.risk.classes import (
    _NULL,
    SUPPRESSED_VALUE,
    _check_threshold,
    _population_size,
    _sizes,
    _suppressed_mask,
    class_sizes_of_codes,
    class_sizes_of_frame,
)
from privlab.table.risk.uniqueness import (
    UniquenessEstimate,
    dankar_uniques,
    pitman_uniques,
    zayatz_uniques,
)
from privlab.table.suppression import suppressed_records


@dataclass
class RiskReport:
    """All risk figures of one release; ``to_dict()`` is flat except for two nested dicts.

    ``records`` counts the analysed records (not suppressed); ``suppressed`` the excluded
    ones.  ``population_size`` and ``sampling_fraction`` (effective: ``records / N``) are
    ``None`` when no population information was given; the population-uniqueness estimates
    are then ``None`` too.
    """

    records: int
    suppressed: int
    classes: int
    threshold: float
    histogram: dict[int, int]
    prosecutor: AttackerRisk
    journalist: AttackerRisk
    journalist_model: str
    marketer: float
    sample_uniques: int
    population_size: int | None = None
    sampling_fraction: float | None = None
    pitman: UniquenessEstimate | None = None
    zayatz: UniquenessEstimate | None = None
    dankar: UniquenessEstimate | None = None

    @property
    def sample_uniques_fraction(self) -> float:
        """Records in classes of size 1 / records (ARX's ``RiskModelSampleUniqueness``)."""
        return self.sample_uniques / self.records if self.records else 0.0

    def to_dict(self) -> dict[str, Any]:
        sizes = sorted(self.histogram)
        out: dict[str, Any] = {
            "records": self.records,
            "suppressed": self.suppressed,
            "classes": self.classes,
            "smallest_class": sizes[0] if sizes else 0,
            "largest_class": sizes[-1] if sizes else 0,
            "average_class_size": self.records / self.classes if self.classes else 0.0,
            "threshold": self.threshold,
            **self.prosecutor.to_dict("prosecutor"),
            "journalist_model": self.journalist_model,
            **self.journalist.to_dict("journalist"),
            "marketer_risk": self.marketer,
            "sample_uniques": self.sample_uniques,
            "sample_uniques_fraction": self.sample_uniques_fraction,
            "population_size": self.population_size,
            "sampling_fraction": self.sampling_fraction,
        }
        for name in ("pitman", "zayatz", "dankar"):
            est: UniquenessEstimate | None = getattr(self, name)
            out[f"population_uniques_{name}"] = None if est is None else est.uniques
            out[f"population_uniques_fraction_{name}"] = None if est is None else est.fraction
        out["dankar_model"] = None if self.dankar is None else self.dankar.model
        out["class_size_histogram"] = {str(s): self.histogram[s] for s in sizes}
        out["pitman_parameters"] = None if self.pitman is None else dict(self.pitman.parameters)
        return out


def risk_from_class_sizes(
    sizes: Any,
    *,
    population_sizes: Any | None = None,
    population_size: int | None = None,
    sampling_fraction: float | None = None,
    threshold: float = 0.2,
    suppressed: int = 0,
) -> RiskReport:
    """Every risk figure from the sizes of the equivalence classes (one entry per class).

    ``suppressed`` is the number of suppressed rows of the sample (not in any class; they
    count towards the sample size when ``sampling_fraction`` defines the population size).
    ``population_size`` or ``sampling_fraction`` (not both) enable the journalist estimate
    and the population-uniqueness models; ``population_sizes`` (``F_j`` per class) gives the
    exact journalist and marketer risks.  Raises :class:`ConfigError` for a population smaller
    than the sample or a sampling fraction outside (0, 1].  Complexity: O(m log m + u) for
    m classes (u for Pitman's likelihood).
    """
    f = _sizes(sizes)
    t = _check_threshold(threshold)
    if int(suppressed) < 0:
        raise ConfigError(f"suppressed rows: {suppressed} is negative")
    records = int(f.sum())
    rows = records + int(suppressed)
    big_n = _population_size(rows, population_size, sampling_fraction)
    pi = records / big_n if big_n else None
    sz, cnt = np.unique(f, return_counts=True)
    if population_sizes is not None:
        journalist_model = "population table"
        j_risk = journalist_risk(f, population_sizes, threshold=t)
        m_risk = marketer_risk(f, population_sizes)
    elif pi is not None and records:
        journalist_model = "estimated (Benedetti-Franconi)"
        j_risk = journalist_risk(f, sampling_fraction=pi, threshold=t)
        m_risk = marketer_risk(f, sampling_fraction=pi)
    else:
        journalist_model = "sample (no population information)"
        j_risk = journalist_risk(f, threshold=t)
        m_risk = marketer_risk(f)
    report = RiskReport(
        records=records,
        suppressed=int(suppressed),
        classes=int(f.size),
        threshold=t,
        histogram={int(s): int(c) for s, c in zip(sz, cnt, strict=True)},
        prosecutor=prosecutor_risk(f, t),
        journalist=j_risk,
        journalist_model=journalist_model,
        marketer=m_risk,
        sample_uniques=int(cnt[sz == 1].sum()),
        population_size=big_n,
        sampling_fraction=pi,
    )
    if big_n is not None:
        report.pitman = pitman_uniques(f, big_n)
        report.zayatz = zayatz_uniques(f, big_n)
        report.dankar = dankar_uniques(f, big_n, pitman=report.pitman, zayatz=report.zayatz)
    return report


def risk_of_frame(
    frame: Any,
    quasi_identifiers: Sequence[str],
    *,
    suppressed: Any | None = None,
    suppressed_value: str | None = SUPPRESSED_VALUE,
    population: Any | None = None,
    population_size: int | None = None,
    sampling_fraction: float | None = None,
    threshold: float = 0.2,
) -> RiskReport:
    """Risk report of a table (polars/pandas DataFrame or path), classes by distinct QI values.

    Suppressed rows (``suppressed`` mask or positions, e.g. ``Release.suppressed_rows``; by
    default rows whose quasi-identifiers are all ``*``) are excluded and counted.
    ``population`` is an optional population table with the same quasi-identifier columns,
    coded like the sample (same generalization): each sample class's size in it is ``F_j``,
    and its row count is the population size unless ``population_size`` is given.
    Complexity: O(n) grouping + that of :func:`risk_from_class_sizes`.
    """
    classes, n_suppressed = class_sizes_of_frame(
        frame, quasi_identifiers, suppressed=suppressed, suppressed_value=suppressed_value
    )
    big_f = None
    if population is not None:
        pop, _ = to_polars(population)
        qis = list(quasi_identifiers)
        absent = [c for c in qis if c not in pop.columns]
        if absent:
            raise ConfigError(
                f"population table: quasi-identifier columns {absent} not found; "
                f"its columns are {pop.columns}"
            )
        pop_classes = (
            pop.select([pl.col(c).cast(pl.String).fill_null(_NULL) for c in qis])
            .group_by(qis)
            .len(name="population_size")
        )
        joined = classes.join(pop_classes, on=qis, how="left", maintain_order="left")
        lost = joined.filter(pl.col("population_size").is_null())
        if lost.height:
            example = {c: lost[c][0] for c in qis}
            raise InputError(
                f"population table: {lost.height} sample classes do not occur in it, e.g. "
                f"{example}; the population must contain the sample, coded the same way"
            )
        big_f = joined["population_size"].to_numpy()
        if population_size is None and sampling_fraction is None:
            population_size = pop.height
    return risk_from_class_sizes(
        classes["size"].to_numpy(),
        population_sizes=big_f,
        population_size=population_size,
        sampling_fraction=sampling_fraction,
        threshold=threshold,
        suppressed=n_suppressed,
    )


def risk_report(
    table: MicroTable,
    population_size: int | None = None,
    sampling_fraction: float | None = None,
    threshold: float = 0.2,
    *,
    suppressed: Any | None = None,
    suppressed_value: str | None = SUPPRESSED_VALUE,
) -> RiskReport:
    """Risk report of an encoded table at its current level of detail (``privlab table risk``).

    Classes are the distinct combinations of quasi-identifier codes.  Rows flagged by
    ``suppressed`` — or, when ``None``, rows whose quasi-identifiers are all
    ``suppressed_value`` (a release's suppressed records) — are excluded and counted.
    See :func:`risk_from_class_sizes` for the figures.  Complexity: O(n log n).
    """
    if suppressed is not None:
        mask = _suppressed_mask(suppressed, table.n_rows)
    else:
        mask = suppressed_records(table.frame, table.qi, suppressed_value)
    sizes = class_sizes_of_codes(table.qi_codes[~mask])
    return risk_from_class_sizes(
        sizes,
        population_size=population_size,
        sampling_fraction=sampling_fraction,
        threshold=threshold,
        suppressed=int(mask.sum()),
    )
