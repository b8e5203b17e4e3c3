"""Issue 15's bad-input census (benchmarks/bad_input_census.py), run in-process: every CLI
entry point meets at least 15 bad inputs, and each ends in a clear error (exit 2, no
traceback, nothing written, no private value quoted), or — for inputs that must work — in
success.  ``python3 benchmarks/bad_input_census.py`` runs the same cases as subprocesses."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

CENSUS = Path(__file__).resolve().parents[2] / "benchmarks" / "bad_input_census.py"


@pytest.fixture(scope="module")
def census():
    spec = importlib.util.spec_from_file_location("bad_input_census", CENSUS)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_entry_point_meets_at_least_15_bad_inputs(census):
    bad = Counter(c.command for c in census.cases() if not c.ok)
    assert set(bad) == set(census.ENTRY_POINTS)
    assert min(bad.values()) >= 15, bad


def test_every_bad_input_is_a_clear_error(census):
    results = census.census(in_process=True)
    failures = [
        f"[{r.outcome}] {r.case.command}: {r.case.label} (exit {r.code}) {r.message}"
        for r in results
        if r.outcome not in ("clear error", "accepted")
    ]
    assert not failures, "\n".join(failures)
    assert len(results) >= 15 * len(census.ENTRY_POINTS)
