"""Empirical DP audit of grouped releases, continued (medians: max_rows = G·R); the helpers
and the refutation test are in test_audit_groupby.py."""

from __future__ import annotations

from tests.dp.test_audit_groupby import PUBLIC, check, released, with_unit


def test_median_passes_the_audit():
    check(released("median", keys=PUBLIC), with_unit(["a"], 6))  # G·R = 1·3


def test_median_over_two_groups_per_unit_passes_the_audit():
    check(released("median", keys=PUBLIC, max_groups=2), with_unit(["a", "b"], 3))  # G·R = 6
