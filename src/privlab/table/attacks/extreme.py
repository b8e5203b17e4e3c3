"""The extreme-value attack on clustering and local recoding (CLR).

Source: seed 003, Li, Qardaji & Su, "On Sampling, Anonymization, and Differential Privacy",
§3.1, Algorithm 1 and the attack after it (``../shared/seeds/003_*.txt`` L229–237;
``../shared/spec/seed-002-003-hay-li.md`` B.2): a CLR algorithm (Mondrian, distance-based
clustering) replaces each value by the range of its cluster's values, so a range endpoint *is*
a record's value.  If the adversary knows that only one individual of the population has a
net worth over $10M and a 20-anonymous release holds one class generalized to [900K, 35M], then
the individual is in the data, is in that class, and is worth exactly $35M — the 19 other
identical rows do not give 1/20 protection.

**Formalization (the clearest faithful reading).**  Column A is numeric and released as
ranges ``lo-hi`` (a single number when lo = hi; ``*`` for everything).  The adversary knows a
threshold τ and that the *targets* — the individuals with A > τ (``tail="upper"``; A < τ for
``"lower"``) — number m (the seed: m = 1).  The classes that can hold a target are those whose
range reaches beyond τ (hi > τ).  Per target:

* ``candidate_classes`` / ``candidate_rows``: how many classes / rows remain;
* ``located``: one candidate class — the target's class is identified;
* ``presence_disclosed``: with ``tight`` ranges (endpoints are attained values, as in CLR and
  :func:`privlab.table.mondrian.mondrian`) a range beyond τ proves that somebody beyond τ is
  in the data, i.e. the target (for m = 1);
* ``value_disclosed``: m = 1, located, tight, and the endpoint equals the target's true value
  — the exact value leaks although the class has ≥ k rows.

Against data-independent (full-domain, hierarchy) generalization the ranges are not tight: the
class may still be located but neither presence nor the value follows (pass ``tight=False``).
Targets are chosen by ``threshold`` or as the ``top`` most extreme records (τ = the next
value).  Complexity: O(n log n).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.table.attacks._match import (
    check_columns,
    index_classes,
    numeric_values,
    parse_range,
    release_frame,
)
from privlab.validate import check_int

__all__ = ["ExtremeValueResult", "extreme_value_attack"]

TAILS = ("upper", "lower")


@dataclass
class ExtremeValueResult:
    """Per target (records beyond τ, in row order ``targets``) and a summary."""

    targets: np.ndarray
    threshold: float
    tail: str
    candidate_classes: np.ndarray
    candidate_rows: np.ndarray
    class_size: np.ndarray
    located: np.ndarray
    presence_disclosed: np.ndarray
    inferred_value: np.ndarray
    value_disclosed: np.ndarray
    true_value: np.ndarray
    parameters: dict[str, Any] = field(default_factory=dict)

    @property
    def n_targets(self) -> int:
        return int(self.targets.size)

    def records(self) -> pl.DataFrame:
        return pl.DataFrame(
            {
                "row": self.targets,
                "true_value": self.true_value,
                "candidate_classes": self.candidate_classes,
                "candidate_rows": self.candidate_rows,
                "class_size": self.class_size,
                "located": self.located,
                "presence_disclosed": self.presence_disclosed,
                "inferred_value": self.inferred_value,
                "value_disclosed": self.value_disclosed,
            }
        )

    def to_dict(self) -> dict[str, Any]:
        n = max(self.n_targets, 1)
        return {
            "attack": "extreme-value",
            "tail": self.tail,
            "threshold": self.threshold,
            "targets": self.n_targets,
            "located_rate": float(self.located.sum() / n),
            "presence_disclosure_rate": float(self.presence_disclosed.sum() / n),
            "value_disclosure_rate": float(self.value_disclosed.sum() / n),
            "min_class_size_of_targets": int(self.class_size.min()) if self.n_targets else 0,
            "mean_candidate_rows": float(self.candidate_rows.mean()) if self.n_targets else 0.0,
            **self.parameters,
        }


def extreme_value_attack(
    release: Any,
    column: str,
    values: Any,
    *,
    quasi_identifiers: Any = None,
    threshold: float | None = None,
    top: int = 1,
    tail: str = "upper",
    tight: bool = True,
) -> ExtremeValueResult:
    """Locate the records with extreme values of ``column`` in a CLR / Mondrian release.

    ``release``: frame, ``MondrianResult`` (or anonymize ``Release``), one row per input row
    in input order.  ``values``: the true values of ``column`` per row (the owner's truth, e.g.
    ``table.numeric_values(column)``).  ``quasi_identifiers``: the columns that define the
    released classes (default: the ``MondrianResult``'s QIs, else just ``column``).
    """
    if tail not in TAILS:
        raise ConfigError(f"tail {tail!r}: use 'upper' or 'lower'")
    if quasi_identifiers is None:
        quasi_identifiers = getattr(release, "qi", None) if hasattr(release, "partition") else None
    frame, _ = release_frame(release)
    check_columns(frame, [column], "release", "numeric")
    qi = list(quasi_identifiers) if quasi_identifiers is not None else [column]
    if column not in qi:
        raise ConfigError(f"column {column!r} is not among the quasi-identifiers {qi}")
    check_columns(frame, qi, "release", "quasi-identifier")
    vals = (
        numeric_values(values, "values")
        if isinstance(values, pl.Series)
        else np.asarray(values, dtype=np.float64).reshape(-1)
    )
    if vals.size != frame.height:
        raise InputError(f"values: {vals.size} values for the release's {frame.height} rows")
    sign = 1.0 if tail == "upper" else -1.0
    s = sign * vals  # work on the upper tail
    if threshold is None:
        top = check_int(top, "top", 1, hint="the number of most extreme records targeted")
        desc = np.unique(s)[::-1]
        if desc.size <= 1:
            raise InputError(f"column {column!r}: all values are equal; nothing is extreme")
        top_rows = np.sort(s)[::-1][min(top, s.size) - 1]
        below = desc[desc < top_rows]
        tau_s = float(below[0]) if below.size else float(desc[-1]) - 1.0
    else:
        tau_s = sign * float(threshold)
    classes = index_classes(frame, qi)
    j = qi.index(column)
    rng = np.array([parse_range(str(u), column, "release") for u in classes.texts[j]])
    bounds = rng.reshape(-1, 2)[classes.label_ids[:, j]]
    reach = bounds[:, 1] if tail == "upper" else -bounds[:, 0]  # class reach beyond τ (upper)
    cand = reach > tau_s
    targets = np.flatnonzero(s > tau_s)
    m = targets.size
    n_cls = int(cand.sum())
    t_class = classes.row_class[targets]
    located = np.full(m, n_cls == 1)
    endpoint = bounds[t_class, 1] if tail == "upper" else bounds[t_class, 0]
    inferred = np.where(located & (m == 1) & tight, endpoint, np.nan)
    return ExtremeValueResult(
        targets=targets,
        threshold=float(sign * tau_s),
        tail=tail,
        candidate_classes=np.full(m, n_cls),
        candidate_rows=np.full(m, int(classes.sizes[cand].sum())),
        class_size=classes.sizes[t_class],
        located=located,
        presence_disclosed=np.full(m, bool(tight and n_cls > 0 and m == 1)),
        inferred_value=inferred,
        value_disclosed=~np.isnan(inferred) & (inferred == vals[targets]),
        true_value=vals[targets],
        parameters={"column": column, "tight": bool(tight), "known_targets": int(m)},
    )
