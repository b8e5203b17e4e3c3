"""Which privacy models a table already satisfies, and with which parameters.

Treats each distinct combination of quasi-identifier values as an equivalence class (the
table as released, with no further generalization) and reports the strongest parameter of
each model that holds for every class: k = smallest class, distinct ℓ = fewest distinct
sensitive values, entropy ℓ = smallest exp(entropy), min-entropy ℓ = smallest 2^H∞ (one over
the adversary's best single guess of a sensitive value, :mod:`privlab.information`),
recursive (c,2): the smallest c such that r_1 < c·(r_2 + …) (strict), t = largest EMD
(equal and ordered ground distance),
δ = largest |ln p(s|class) − ln p(s)|, and (k,e) = fewest distinct values and smallest range
of a numeric sensitive attribute.  Suppressed records (every QI holds the suppressed value,
:mod:`privlab.table.suppression`) belong to no class and are counted apart, as in ARX and
``table risk``; the overall distribution of t and δ is that of all records, as during
anonymization.  With every record suppressed there is no class: the parameters are ``None``
and the given models hold vacuously.  Complexity: O(N log N + classes × |domain|).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from privlab.information import row_min_entropy
from privlab.table.data import MicroTable
from privlab.table.lattice import Groupify
from privlab.table.models import (
    PrivacyModel,
    SensitiveDomain,
    TCloseness,
    bind_models,
    class_entropy,
    disclosure_delta,
    sensitive_domain,
)
from privlab.table.suppression import SUPPRESSED_VALUE, suppressed_records


@dataclass
class SensitiveAssessment:
    """The strongest parameters per sensitive attribute; ``None`` when there is no class."""

    attribute: str
    distinct_l: int | None = None
    entropy_l: float | None = None
    min_entropy_l: float | None = None
    recursive_c_for_l2: float | None = None
    t_equal: float | None = None
    t_ordered: float | None = None
    delta: float | None = None
    ke: tuple[int, float] | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "attribute": self.attribute,
            "distinct_l": self.distinct_l,
            "entropy_l": self.entropy_l,
            "min_entropy_l": self.min_entropy_l,
            "best_guess": None if self.min_entropy_l is None else 1 / self.min_entropy_l,
            "recursive_c_for_l2": self.recursive_c_for_l2,
            "t_closeness_equal": self.t_equal,
            "t_closeness_ordered": self.t_ordered,
            "delta_disclosure": self.delta,
            "ke_anonymity": None if self.ke is None else {"k": self.ke[0], "e": self.ke[1]},
        }


@dataclass
class Assessment:
    """``records`` counts every row, ``suppressed`` those in no class; ``k`` is ``None``
    when there is no class."""

    records: int
    suppressed: int
    classes: int
    k: int | None
    sensitive: list[SensitiveAssessment] = field(default_factory=list)
    models: dict[str, bool] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "records": self.records,
            "suppressed": self.suppressed,
            "equivalence_classes": self.classes,
            "k_anonymity": self.k,
            "sensitive": [s.to_dict() for s in self.sensitive],
            "models": self.models,
        }


def assess(
    table: MicroTable,
    models: Sequence[PrivacyModel] = (),
    *,
    suppressed_value: str | None = SUPPRESSED_VALUE,
) -> Assessment:
    """Assess ``table`` at its current level of detail; also test the given ``models``.

    Rows whose quasi-identifiers all hold ``suppressed_value`` (``None``: none) are left out
    of the classes and counted as suppressed.
    """
    sensitive = list(table.sensitive)
    kept = ~suppressed_records(table.frame, table.qi, suppressed_value)
    models = list(models)
    if models:
        bind_models(models, table.sa_codes, table.sa_values, table.n_rows)
    out = Assessment(table.n_rows, int(table.n_rows - kept.sum()), 0, None)
    if not kept.any():
        out.sensitive = [SensitiveAssessment(name) for name in sensitive]
        out.models = {m.describe(): True for m in models}
        return out
    bottom = Groupify(
        [table.hierarchies[c] for c in table.qi],
        table.qi_codes[kept],
        [table.sa_codes[s][kept] for s in sensitive],
        [table.sa_values[s].size for s in sensitive],
    ).bottom
    out.classes, out.k = bottom.n_classes, int(bottom.counts.min())
    for i, name in enumerate(sensitive):
        dom = sensitive_domain(name, table.sa_codes[name], table.sa_values[name])
        out.sensitive.append(_sensitive(dom, bottom.sa_hist[i], table.n_rows))
    for m in models:
        hist = bottom.sa_hist[sensitive.index(m.sensitive)] if m.sensitive else None
        out.models[m.describe()] = bool(np.all(m.class_ok(bottom.counts, hist)))
    return out


def _sensitive(dom: SensitiveDomain, hist: np.ndarray, n: int) -> SensitiveAssessment:
    """The strongest parameters of one sensitive attribute over the class histograms."""
    r = -np.sort(-hist, axis=1)
    tail = r[:, 1:].sum(axis=1)
    rec_c = None if np.any(tail == 0) else float(np.max(r[:, 0] / tail))
    t_eq, t_ord = (_max_emd(dom, hist, d, n) for d in ("equal", "ordered"))
    ke = None
    if dom.numeric is not None:
        present = hist > 0
        hi = np.where(present, dom.numeric[None, :], -np.inf).max(axis=1)
        lo = np.where(present, dom.numeric[None, :], np.inf).min(axis=1)
        ke = (int(np.count_nonzero(present, axis=1).min()), float((hi - lo).min()))
    return SensitiveAssessment(
        dom.name,
        int(np.count_nonzero(hist, axis=1).min()),
        float(np.exp(class_entropy(hist).min())),
        float(2.0 ** row_min_entropy(hist).min()),
        rec_c,
        t_eq,
        t_ord,
        float(np.max(disclosure_delta(hist, dom.global_counts))),
        ke,
    )


def _max_emd(dom, hist: np.ndarray, distance: str, n: int) -> float:
    model = TCloseness(sensitive=dom.name, t=0.0, distance=distance)
    model.bind(dom, n)
    return float(model.emd(hist).max())
