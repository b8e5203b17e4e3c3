"""Shared fixtures: locating ../shared/data (or $PRIVLAB_DATA) and loading Adult."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from privlab.table.adult import ADULT_COLUMNS

# Property tests check correctness; speed is measured in benchmarks/.  A per-example deadline
# only turns a slow first call (igraph's import, a cold cache on a shared 2-core CI machine)
# into a spurious failure, so no test has one.
settings.register_profile("privlab", deadline=None)
settings.load_profile("privlab")

ADULT_QIS = list(ADULT_COLUMNS)


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
    from privlab.table.adult import load_adult

    return load_adult(adult_dir)


def _snap_graph(name: str):
    from privlab.graph.core import read_graph

    root = data_root()
    path = None if root is None else root / "graphs" / name
    if path is None or not path.is_file():
        pytest.skip(f"{name} not found: set PRIVLAB_DATA or place it at ../shared/data/graphs")
    return read_graph(path).graph


@pytest.fixture(scope="session")
def facebook_graph():
    """SNAP ego-Facebook (facebook_combined.txt): 4,039 nodes, 88,234 edges."""
    return _snap_graph("facebook_combined.txt")


@pytest.fixture(scope="session")
def grqc_graph():
    """SNAP ca-GrQc (CA-GrQc.txt): 5,242 nodes, 14,484 edges after removing self-loops."""
    return _snap_graph("CA-GrQc.txt")
