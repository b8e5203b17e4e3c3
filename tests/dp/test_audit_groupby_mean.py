"""Empirical DP audit of grouped releases, continued (a mean, on the snapped Laplace path);
the helpers and the refutation test are in test_audit_groupby.py."""

from __future__ import annotations

from tests.dp.test_audit_groupby import PUBLIC, check, released, with_unit


def test_mean_passes_the_audit():
    check(released("mean", keys=PUBLIC), with_unit(["a"], 6))
