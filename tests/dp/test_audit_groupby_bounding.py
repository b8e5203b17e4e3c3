"""Empirical DP audit of grouped releases, continued (group bounding, partition selection);
the helpers and the refutation test are in test_audit_groupby.py."""

from __future__ import annotations

from tests.dp.test_audit_groupby import PUBLIC, check, released, with_unit


def test_count_with_group_bounding_passes_the_audit():
    check(released("count", keys=PUBLIC), with_unit(["a", "b", "z"], 3))  # G = 1


def test_partition_selection_passes_the_audit():
    check(released("count", keys=None, delta=1e-3, group="z"), with_unit(["z"], 3), 1e-3)
