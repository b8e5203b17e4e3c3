"""Shared fixtures: locating ../shared/data (or $PRIVLAB_DATA) and loading Adult."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ADULT_QIS = [
    "sex",
    "age",
    "race",
    "marital-status",
    "education",
    "native-country",
    "workclass",
    "occupation",
    "salary-class",
]


def data_root() -> Path | None:
    env = os.environ.get("PRIVLAB_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(Path(__file__).resolve().parents[1] / ".." / "shared" / "data")
    for c in candidates:
        if c.is_dir():
            return c.resolve()
    return None


@pytest.fixture(scope="session")
def adult_dir() -> Path:
    root = data_root()
    if root is None or not (root / "adult" / "adult.csv").is_file():
        pytest.skip("Adult data not found: set PRIVLAB_DATA or place it at ../shared/data/adult")
    return root / "adult"


@pytest.fixture(scope="session")
def adult_table(adult_dir):
    from privlab.table.data import MicroTable
    from privlab.table.hierarchy import Hierarchy

    hier = {c: Hierarchy.from_csv(adult_dir / f"adult_hierarchy_{c}.csv") for c in ADULT_QIS}
    return MicroTable.from_data(
        adult_dir / "adult.csv", quasi_identifiers=ADULT_QIS, hierarchies=hier
    )
