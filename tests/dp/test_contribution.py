"""Contribution bounding (privlab.dp.contribution) and DP partition selection
(privlab.dp.partition_selection): bounds hold, choices are uniform, sensitivities cover one
unit's worst contribution, and the selection threshold's δ is computed exactly."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.dp.contribution import (
    ContributionBounds,
    bound_codes,
    bound_contributions,
    check_bounds,
    sensitivities,
)
from privlab.dp.partition_selection import (
    gaussian_selection,
    gaussian_tail,
    laplace_selection,
    laplace_tail,
)
from privlab.errors import ConfigError

# ---------------------------------------------------------------------------- bounding


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4)), min_size=1, max_size=80),
    st.integers(1, 4),
    st.integers(1, 3),
    st.integers(0, 2**32),
)
def test_bounding_keeps_at_most_r_rows_per_pair_and_g_groups_per_unit(rows, r, g, seed):
    units = np.array([u for u, _ in rows])
    groups = np.array([k for _, k in rows])
    kept = bound_codes(units, groups, 5, ContributionBounds("u", r, g), np.random.default_rng(seed))
    pairs = Counter(zip(units[kept.rows].tolist(), groups[kept.rows].tolist(), strict=True))
    assert max(pairs.values()) <= r
    per_unit = Counter(u for u, _ in pairs)
    assert max(per_unit.values()) <= g
    # nothing more is dropped than needed: each pair keeps min(R, its rows); each unit
    # keeps min(G, its pairs)
    original = Counter(zip(units.tolist(), groups.tolist(), strict=True))
    for pair, n in pairs.items():
        assert n == min(r, original[pair])
    for u in set(units.tolist()):
        assert per_unit[u] == min(g, len({k for (v, k) in original if v == u}))
    # the pairs listed for the unit counts are the kept pairs
    assert sorted(kept.pair_group.tolist()) == sorted(k for _, k in pairs)


def test_rows_within_the_bounds_are_all_kept_and_no_unit_means_no_bounding():
    units = np.array([0, 0, 1, 2, 2])
    groups = np.array([0, 1, 0, 1, 1])
    kept = bound_codes(units, groups, 2, ContributionBounds("u", 2, 2), np.random.default_rng(0))
    assert sorted(kept.rows.tolist()) == [0, 1, 2, 3, 4]
    alone = bound_codes(None, groups, 2, ContributionBounds(None, 1, 1), np.random.default_rng(0))
    assert alone.rows is None and alone.pair_group.tolist() == groups.tolist()


def _chi_square_p(counts: Counter, outcomes: list) -> float:
    observed = np.array([counts[o] for o in outcomes])
    return stats.chisquare(observed).pvalue


def test_kept_rows_are_a_uniform_subset():
    """One unit with 5 rows in one group, R = 2: each of the C(5,2) = 10 pairs of rows is
    kept with probability 1/10 (chi-square, 3000 draws)."""
    units, groups = np.array([7] * 5 + [8]), np.zeros(6, dtype=np.int64)
    bounds = ContributionBounds("u", 2, 1)
    rng = np.random.default_rng(11)
    seen = Counter()
    for _ in range(3000):
        rows = sorted(bound_codes(units, groups, 1, bounds, rng).rows.tolist())
        assert 5 in rows  # the other unit is untouched
        seen[tuple(r for r in rows if r != 5)] += 1
    outcomes = list(itertools.combinations(range(5), 2))
    assert set(seen) == set(outcomes)
    assert _chi_square_p(seen, outcomes) > 1e-3


def test_bounding_a_polars_frame_keeps_its_columns():
    frame = pl.DataFrame({"u": ["a"] * 5 + ["b"], "g": ["x", "y", "y", "z", "z", "x"]})
    kept = bound_contributions(
        frame, ContributionBounds("u", 1, 2), ["g"], np.random.default_rng(1)
    )
    assert kept.columns == ["u", "g"]
    assert kept.filter(pl.col("u") == "a").height == 2  # 2 of a's 3 groups, 1 row each
    assert kept.filter(pl.col("u") == "b").height == 1
    assert kept.group_by("u", "g").len()["len"].max() == 1
    same = bound_contributions(frame, ContributionBounds(None, 1, 1), ["g"], None)
    assert same.equals(frame)


def test_kept_groups_are_uniform_among_the_units_groups():
    """A unit in 4 groups with 1, 2, 3 and 4 rows, G = 1: each group is kept with
    probability 1/4 whatever its number of rows (chi-square, 4000 draws)."""
    groups = np.array([0, 1, 1, 2, 2, 2, 3, 3, 3, 3])
    units = np.zeros(groups.size, dtype=np.int64)
    rng = np.random.default_rng(5)
    seen = Counter()
    for _ in range(4000):
        kept = bound_codes(units, groups, 4, ContributionBounds("u", 10, 1), rng)
        assert kept.pair_group.size == 1
        assert set(groups[kept.rows].tolist()) == set(kept.pair_group.tolist())
        seen[int(kept.pair_group[0])] += 1
    assert _chi_square_p(seen, [0, 1, 2, 3]) > 1e-3


@pytest.mark.parametrize("r,g", [(1, 1), (3, 2), (2, 5)])
def test_sensitivities_cover_the_largest_contribution_of_one_unit(r, g):
    """Removing one unit changes the bounded per-group counts and clamped sums by at most
    the stated L1 and L2 sensitivities (checked for every unit)."""
    rng = np.random.default_rng(r * 10 + g)
    n = 3000
    units, groups = rng.integers(0, 100, n), rng.integers(0, 8, n)
    values = rng.uniform(-50, 80, n)
    bounds = ContributionBounds("u", r, g)
    kept = bound_codes(units, groups, 8, bounds, rng).rows
    lo, hi = -20.0, 60.0
    sens_count, sens_sum = sensitivities(bounds, 1), sensitivities(bounds, max(abs(lo), abs(hi)))
    assert (sens_count.l1, sens_count.l2) == (g * r, math.sqrt(g) * r)
    for u in range(100):
        mine = kept[units[kept] == u]
        count = np.bincount(groups[mine], minlength=8)
        total = np.bincount(groups[mine], weights=np.clip(values[mine], lo, hi), minlength=8)
        assert np.abs(count).sum() <= sens_count.l1
        assert np.sqrt((count**2).sum()) <= sens_count.l2 + 1e-9
        assert np.abs(total).sum() <= sens_sum.l1 + 1e-9
        assert np.sqrt((total**2).sum()) <= sens_sum.l2 + 1e-9


@pytest.mark.parametrize(
    "unit,rows,groups,grouped,message",
    [
        ("u", None, 2, True, "max_rows_per_unit"),
        ("u", 2, None, True, "max_groups_per_unit"),
        ("u", 0, 2, True, "max_rows_per_unit"),
        ("u", 2.5, 2, True, "max_rows_per_unit"),
        ("u", 2, 10**7, True, r"10\^6"),
        (None, 3, None, True, "without a privacy unit"),
        (None, None, 2, False, "without a privacy unit"),
    ],
)
def test_contribution_options_are_checked(unit, rows, groups, grouped, message):
    with pytest.raises(ConfigError, match=message):
        check_bounds(unit, rows, groups, grouped=grouped)


def test_statements_say_who_is_protected():
    assert "one row is one person" in check_bounds(None, None, None, grouped=True).statement
    assert check_bounds("u", 3, None, grouped=False).max_groups == 1


# ---------------------------------------------------------------------------- selection
def _dlap_tail(scale: float, k: int) -> float:
    """P[Z ≥ k] by summing the discrete Laplace pmf (independent of laplace_tail)."""
    z = np.arange(-4000, 4001)
    w = np.exp(-np.abs(z) / scale)
    return float(w[z >= k].sum() / w.sum())


@pytest.mark.parametrize("eps,delta,g", [(1.0, 1e-6, 1), (0.5, 1e-5, 4), (2.0, 1e-9, 3)])
def test_laplace_threshold_releases_a_one_unit_group_with_probability_at_most_delta(eps, delta, g):
    sel = laplace_selection(eps, delta, g)
    assert sel.scale == pytest.approx(g / eps, rel=1e-5)
    # a group of one unit: noisy count 1 + Z ≥ τ, exactly computed from the pmf
    p = _dlap_tail(sel.scale, sel.threshold - 1)
    assert p == pytest.approx(sel.single_unit, rel=1e-9)
    assert g * p <= delta
    # τ is the smallest such threshold
    assert g * _dlap_tail(sel.scale, sel.threshold - 2) > delta
    # and close to Wilson et al.'s continuous τ = 1 + (Δ₀/ε) ln(Δ₀/(2δ))
    assert abs(sel.threshold - (1 + g / eps * math.log(g / (2 * delta)))) <= 1 + g / eps


@pytest.mark.parametrize("rho,delta,g", [(0.1, 1e-6, 1), (0.02, 1e-5, 4)])
def test_gaussian_threshold_releases_a_one_unit_group_with_probability_at_most_delta(rho, delta, g):
    sel = gaussian_selection(rho, delta, g)
    sigma2 = g / (2 * rho)
    assert sel.scale == pytest.approx(math.sqrt(sigma2), rel=1e-5)
    y = np.arange(-3000, 3001)
    w = np.exp(-(y**2) / (2 * sel.scale**2))
    tail = lambda k: w[y >= k].sum() / w.sum()  # noqa: E731
    assert g * tail(sel.threshold - 1) <= delta
    assert g * tail(sel.threshold - 2) > delta
    assert gaussian_tail(sel.scale**2, sel.threshold - 1) == pytest.approx(tail(sel.threshold - 1))


def test_the_selection_keeps_one_unit_groups_at_the_computed_rate_and_large_groups():
    """With a loose δ (0.05) the rate is observable: 40000 one-unit groups are kept at
    the computed probability (within 5 standard errors); groups of 1000 units always."""
    sel = laplace_selection(1.0, 0.05, 1)
    rng = np.random.default_rng(3)
    kept = sel.keep(np.ones(40000, dtype=np.int64), rng)
    se = math.sqrt(sel.single_unit * (1 - sel.single_unit) / 40000)
    assert abs(kept.mean() - sel.single_unit) < 5 * se
    assert laplace_tail(sel.scale, sel.threshold - 1) == pytest.approx(sel.single_unit)
    assert sel.keep(np.full(1000, 1000), rng).all()
    gauss = gaussian_selection(0.5, 0.05, 1)
    kept = gauss.keep(np.ones(40000, dtype=np.int64), rng)
    se = math.sqrt(gauss.single_unit * (1 - gauss.single_unit) / 40000)
    assert abs(kept.mean() - gauss.single_unit) < 5 * se


@pytest.mark.parametrize("make", [laplace_selection, gaussian_selection])
def test_selection_needs_delta(make):
    with pytest.raises(ConfigError, match="δ > 0"):
        make(1.0, 0.0, 1)
    with pytest.raises(ConfigError, match="max_groups"):
        make(1.0, 1e-6, 0)
