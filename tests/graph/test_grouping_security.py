"""Lemma 4.4.1 measured (seed 001 L4768): the fraction of feasible identifications holding an
association equals c_ij/(k_i ℓ_j) — checked against enumeration of every identification —
and stays within 1/max(k, ℓ) on safe groupings."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InfeasibleError
from privlab.graph.anonymize.grouping import Bipartite, GroupedGraph, safe_grouping
from privlab.graph.grouping_security import static_security


def enumerate_fraction(gg: GroupedGraph, v: int, w: int) -> float:
    """Over every identification of entities with masked nodes inside their groups: the
    fraction in which (v, w) is a published (masked) edge."""
    masked = {tuple(x) for x in gg.masked_edges().tolist()}
    lg, rg = gg.left_groups, gg.right_groups
    mask_l = {g: sorted(gg.left_mask[lg == g].tolist()) for g in np.unique(lg)}
    mask_r = {g: sorted(gg.right_mask[rg == g].tolist()) for g in np.unique(rg)}
    hits = total = 0
    for fv in itertools.permutations(mask_l[lg[v]]):
        for fw in itertools.permutations(mask_r[rg[w]]):
            # v takes the position of its rank among its group's entities
            pos_v = list(np.flatnonzero(lg == lg[v])).index(v)
            pos_w = list(np.flatnonzero(rg == rg[w])).index(w)
            total += 1
            hits += (fv[pos_v], fw[pos_w]) in masked
    return hits / total


def test_hand_case_and_enumeration():
    # left groups {0,1,2}, {3}; right groups {0,1}, {2}: a matching of 2 edges between the
    # first two groups (fraction 2/6), one edge between the singletons (certain)
    edges = [(0, 0), (1, 1), (3, 2)]
    g = Bipartite.from_edges(edges, n_left=4, n_right=3)
    gg = GroupedGraph(
        g, 1, 1, np.array([0, 0, 0, 1]), np.array([0, 0, 1]),
        np.array([2, 0, 1, 3]), np.array([1, 0, 2]), False,
    )  # fmt: skip
    s = static_security(gg)
    assert s.max_fraction == 1.0 and s.certain_pairs == 1 and s.group_pairs == 2
    assert s.mean_edge_fraction == pytest.approx((2 / 6 + 2 / 6 + 1) / 3)
    assert s.within_bound and s.bound == 1.0
    for v, w in itertools.product(range(3), range(2)):
        assert enumerate_fraction(gg, v, w) == pytest.approx(2 / 6)


@given(st.integers(0, 10**6), st.integers(2, 3), st.integers(1, 3))
@settings(max_examples=25, deadline=None)
def test_safe_groupings_meet_the_lemma(seed, k, ell):
    rng = np.random.default_rng(seed)
    e = np.unique(np.stack([rng.integers(0, 12, 14), rng.integers(0, 15, 14)], 1), axis=0)
    g = Bipartite.from_edges(e, n_left=12, n_right=15)
    try:
        gg = safe_grouping(g, k, ell, seed=seed)
    except InfeasibleError:
        return
    s = static_security(gg)
    assert s.within_bound and s.max_fraction <= s.bound + 1e-12
    assert s.max_fraction <= 1 / max(k, ell) + 1e-12
    assert s.certain_pairs == 0
    v, w = (int(x) for x in e[0])
    lg, rg = gg.left_groups, gg.right_groups
    if np.sum(lg == lg[v]) <= 3 and np.sum(rg == rg[w]) <= 3:
        c = sum(lg[a] == lg[v] and rg[b] == rg[w] for a, b in e.tolist())
        want = c / (np.sum(lg == lg[v]) * np.sum(rg == rg[w]))
        assert enumerate_fraction(gg, v, w) == pytest.approx(want)
