"""Empirical DP audit of grouped releases, continued (a sum); the helpers and the
refutation test are in test_audit_groupby.py."""

from __future__ import annotations

from tests.dp.test_audit_groupby import PUBLIC, check, released, with_unit


def test_sum_passes_the_audit():
    check(released("sum", keys=PUBLIC), with_unit(["a"], 6))

