"""Which privacy models a table already satisfies, and with which parameters.

Treats each distinct combination of quasi-identifier values as an equivalence class (the
table as released, with no further generalization) and reports the strongest parameter of
each model that holds for every class: k = smallest class, distinct ℓ = fewest distinct
sensitive values, entropy ℓ = smallest exp(entropy), recursive (c,2): the smallest c such
that r_1 < c·(r_2 + …) (strict), t = largest EMD (equal and ordered ground distance),
δ = largest |ln p(s|class) − ln p(s)|, and (k,e) = fewest distinct values and smallest range
of a numeric sensitive attribute.  Complexity: O(N log N + classes × |domain|).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from privlab.table.data import MicroTable
from privlab.table.lattice import Groupify
from privlab.table.models import (
    PrivacyModel,
    TCloseness,
    bind_models,
    class_entropy,
    disclosure_delta,
    sensitive_domain,
)


@dataclass
class SensitiveAssessment:
    attribute: str
    distinct_l: int
    entropy_l: float
    recursive_c_for_l2: float | None
    t_equal: float
    t_ordered: float
    delta: float
    ke: tuple[int, float] | None

    def to_dict(self) -> dict[str, object]:
        return {
            "attribute": self.attribute,
            "distinct_l": self.distinct_l,
            "entropy_l": self.entropy_l,
            "recursive_c_for_l2": self.recursive_c_for_l2,
            "t_closeness_equal": self.t_equal,
            "t_closeness_ordered": self.t_ordered,
            "delta_disclosure": self.delta,
            "ke_anonymity": None if self.ke is None else {"k": self.ke[0], "e": self.ke[1]},
        }


@dataclass
class Assessment:
    records: int
    classes: int
    k: int
    sensitive: list[SensitiveAssessment] = field(default_factory=list)
    models: dict[str, bool] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "records": self.records,
            "equivalence_classes": self.classes,
            "k_anonymity": self.k,
            "sensitive": [s.to_dict() for s in self.sensitive],
            "models": self.models,
        }


def assess(table: MicroTable, models: Sequence[PrivacyModel] = ()) -> Assessment:
    """Assess ``table`` at its current level of detail; also test the given ``models``."""
    sensitive = list(table.sensitive)
    g = Groupify(
        [table.hierarchies[c] for c in table.qi],
        table.qi_codes,
        [table.sa_codes[s] for s in sensitive],
        [table.sa_values[s].size for s in sensitive],
    )
    bottom = g.bottom
    out = Assessment(table.n_rows, bottom.n_classes, int(bottom.counts.min()))
    for i, name in enumerate(sensitive):
        hist = bottom.sa_hist[i]
        dom = sensitive_domain(name, table.sa_codes[name], table.sa_values[name])
        r = -np.sort(-hist, axis=1)
        tail = r[:, 1:].sum(axis=1)
        rec_c = None if np.any(tail == 0) else float(np.max(r[:, 0] / tail))
        t_eq, t_ord = (_max_emd(dom, hist, d, table.n_rows) for d in ("equal", "ordered"))
        delta = float(np.max(disclosure_delta(hist, dom.global_counts)))
        ke = None
        if dom.numeric is not None:
            present = hist > 0
            hi = np.where(present, dom.numeric[None, :], -np.inf).max(axis=1)
            lo = np.where(present, dom.numeric[None, :], np.inf).min(axis=1)
            ke = (int(np.count_nonzero(present, axis=1).min()), float((hi - lo).min()))
        out.sensitive.append(
            SensitiveAssessment(
                name,
                int(np.count_nonzero(hist, axis=1).min()),
                float(np.exp(class_entropy(hist).min())),
                rec_c,
                t_eq,
                t_ord,
                delta,
                ke,
            )
        )
    if models:
        models = list(models)
        bind_models(models, table.sa_codes, table.sa_values, table.n_rows)
        for m in models:
            hist = bottom.sa_hist[sensitive.index(m.sensitive)] if m.sensitive else None
            out.models[m.describe()] = bool(np.all(m.class_ok(bottom.counts, hist)))
    return out


def _max_emd(dom, hist: np.ndarray, distance: str, n: int) -> float:
    model = TCloseness(sensitive=dom.name, t=0.0, distance=distance)
    model.bind(dom, n)
    return float(model.emd(hist).max())
