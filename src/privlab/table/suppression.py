"""Which records of a release are suppressed: one definition for anonymize, check, risk, audit.

A released record is *suppressed* when every one of its quasi-identifier cells holds the
*suppressed value* (``*`` by default, ARX's suppression string).  ``privlab table
anonymize`` writes that value into every QI cell of a record it suppresses (never the
hierarchy's top label, which may be a range or a number); ``table check``, ``table risk``
and ``audit`` read a release with the same rule, leave those records out of every
equivalence class and of every model parameter (k, ℓ, t, δ, (k,e)) and report them apart
as ``suppressed`` — ARX's treatment of outliers (its risk and privacy models skip them).

Corner cases, all decided by what the released file shows:

* every QI generalized to a top labelled with the suppressed value (e.g. all roots ``*``):
  the rows are indistinguishable from suppressed ones, so they *are* counted as suppressed
  (no class is left); ``anonymize``'s summary reports them the same way;
* every record suppressed: there is no class, so k, ℓ, t, δ and (k,e) have no value
  (``None``) and every model holds vacuously, as ARX accepts a transformation whose
  records are all suppressed within the limit;
* a data set whose QI genuinely holds the suppressed value: ``anonymize`` refuses it
  (:func:`check_suppressed_value`) — choose another suppressed value; when checking such a
  table, give another ``--suppressed-value`` (or ``''``: no record is suppressed).

Sensitive values of suppressed records are published unchanged (ARX suppresses the QIs
only), so the overall distribution that t-closeness and δ-disclosure compare with is that
of all records, as during anonymization.  Complexity: O(n × d) for n rows and d QIs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import polars as pl

from privlab.errors import ConfigError
from privlab.table.hierarchy import Hierarchy

#: Value that marks a suppressed quasi-identifier cell in a release (ARX and privlab).
SUPPRESSED_VALUE = "*"


def suppressed_records(
    frame: pl.DataFrame, quasi_identifiers: Sequence[str], suppressed_value: str | None
) -> np.ndarray:
    """Per row: do all its quasi-identifier cells hold ``suppressed_value``?

    ``None`` or ``''`` means no record is suppressed.  Cells are compared as text; a missing
    cell is never the suppressed value.
    """
    if not suppressed_value or not quasi_identifiers:
        return np.zeros(frame.height, dtype=bool)
    cells = [pl.col(c).cast(pl.String) == suppressed_value for c in quasi_identifiers]
    every = pl.all_horizontal([cell.fill_null(False) for cell in cells])
    return frame.select(every).to_series().to_numpy().astype(bool)


def check_suppressed_value(hierarchies: Mapping[str, Hierarchy], suppressed_value: str) -> None:
    """Refuse a suppressed value a generalized cell could also read as.

    A label equal to ``suppressed_value`` that stands for only some of a column's values (a
    data value, or a group below the top) would make a generalized cell look suppressed.
    A label that covers every value (the top, or a level with one group) is allowed: such a
    cell tells nothing either.  Raises :class:`ConfigError` naming the column.
    """
    if not isinstance(suppressed_value, str) or not suppressed_value:
        raise ConfigError(
            f"suppressed value {suppressed_value!r}: give a non-empty text such as '*', "
            "written into every quasi-identifier cell of a suppressed record"
        )
    for column, h in hierarchies.items():
        for level in range(h.height + 1):
            hit = h.group_labels(level).astype(str) == suppressed_value
            if hit.any() and int(h.leaves_per_group(level)[hit].min()) < h.n_leaves:
                where = (
                    f"{suppressed_value!r} is one of its values (hierarchy {h.source})"
                    if level == 0
                    else f"its hierarchy {h.source} labels a group of level {level} "
                    f"{suppressed_value!r}"
                )
                raise ConfigError(
                    f"column {column!r}: {where}, so a released cell {suppressed_value!r} could "
                    "be a value or a suppressed record; choose another suppressed value "
                    "(--suppressed-value, e.g. '#')"
                )
