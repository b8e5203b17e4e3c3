"""Empirical DP audit of grouped releases (privlab.dp.groupby.grouped_release): neighbouring
datasets that differ by one privacy unit with its maximal contribution, and the
likelihood-ratio distinguisher of privlab.dp.empirical_audit.  The measured ε lower bound
must stay under the claimed ε (0 violations at β = 10^-3), and an understated claim must
be refuted (so the audit can fail).  Code of the quantiles author, with median cases.  The
cases are spread over five files (test_audit_groupby*.py) to keep each under ~20 s of CPU;
about 4 ms of CPU per grouped release, 2000 releases per case."""

from __future__ import annotations

import polars as pl

from privlab.dp.empirical_audit import audit
from privlab.dp.groupby import Aggregation, grouped_release

BASE = pl.DataFrame({"unit": [u for u in range(12) for _ in range(2)],
                     "g": ["a", "b"] * 12, "x": [float(v % 7) for v in range(24)]})  # fmt: skip
PUBLIC = pl.DataFrame({"g": ["a", "b", "z"]})


def with_unit(groups, rows_each, x=10.0):
    """D' = D + unit 99 with its maximal contribution to ``groups``."""
    n = len(groups) * rows_each
    extra = pl.DataFrame({"unit": [99] * n, "g": [g for g in groups for _ in range(rows_each)],
                          "x": [x] * n})  # fmt: skip
    return pl.concat([BASE, extra])


def released(kind, *, keys, delta=0.0, group="a", max_groups=1):
    agg = Aggregation(kind) if kind == "count" else Aggregation(kind, "x", 0, 10)

    def run(data, rng):
        r = grouped_release(data, by=["g"], aggregations=[agg], epsilon=1.0, delta=delta,
                            privacy_unit="unit", max_rows_per_unit=3,
                            max_groups_per_unit=max_groups, keys=keys, confidence=None,
                            seed=rng)  # fmt: skip
        released_groups = r.frame["g"].to_list()
        if group not in released_groups:
            return -1e6  # not released: an output of its own
        return float(r.frame[agg.name][released_groups.index(group)])

    return run


def check(mech, d2, delta=0.0):
    """The audit at ε = 1 with 1000 runs on each side (fewer no longer refute ε = 0.25)."""
    r = audit(mech, BASE, d2, epsilon=1.0, delta=delta, samples=1000, beta=1e-3,
              distinguisher="likelihood", bins=20, seed=11)  # fmt: skip
    assert not r.violation, r.to_dict()


def test_count_with_row_bounding_passes_the_audit():
    check(released("count", keys=PUBLIC), with_unit(["a"], 6))  # R = 3 bounding


def test_grouped_release_audit_refutes_an_understated_claim():
    r = audit(released("count", keys=PUBLIC), BASE, with_unit(["a"], 6), epsilon=0.25,
              samples=1000, beta=1e-3, distinguisher="likelihood", bins=20, seed=12)  # fmt: skip
    assert r.violation
