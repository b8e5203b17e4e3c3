"""UCI Adult in ARX's form: the benchmark table of ARX, of REFERENCE_RESULTS.md and of the docs.

The files (``adult.csv``, 30,162 rows, and ``adult_hierarchy_<column>.csv`` per column) ship
with ARX's examples; privlab does not ship them.  :func:`load_adult` reads a folder that holds
them, e.g. ``../shared/data/adult`` here.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from privlab.errors import InputError
from privlab.table.data import MicroTable
from privlab.table.hierarchy import Hierarchy

#: The 9 columns in ARX's order; ARX's benchmark uses all of them as quasi-identifiers.
ADULT_COLUMNS: tuple[str, ...] = (
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
    "salary-class",
)


def load_adult(
    folder: str | os.PathLike[str],
    quasi_identifiers: Sequence[str] = ADULT_COLUMNS,
    *,
    sensitive: Sequence[str] = (),
) -> MicroTable:
    """Adult with ARX's hierarchy for every quasi-identifier.  Complexity O(rows × columns).

    The Adult columns that are neither quasi-identifiers nor sensitive are declared
    insensitive (released unchanged), as the attributes ARX's benchmark leaves out.
    """
    root = Path(folder)
    if not (root / "adult.csv").is_file():
        raise InputError(
            f"{root}: no adult.csv here; give the folder with ARX's Adult files "
            "(adult.csv and adult_hierarchy_<column>.csv)"
        )
    hierarchies = {
        c: Hierarchy.from_csv(root / f"adult_hierarchy_{c}.csv") for c in quasi_identifiers
    }
    return MicroTable.from_data(
        root / "adult.csv",
        quasi_identifiers=list(quasi_identifiers),
        hierarchies=hierarchies,
        sensitive=sensitive,
        insensitive=[c for c in ADULT_COLUMNS if c not in {*quasi_identifiers, *sensitive}],
    )
