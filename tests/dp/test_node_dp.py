"""Node-DP degree histogram by edge-addition projection: hand example, the stated
sensitivity 2θ + 1 checked by brute force, the release's guarantee."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.dp.node_dp import (
    edge_addition_projection,
    node_dp_degree_histogram,
    projected_histogram,
)
from privlab.errors import ConfigError, InputError


def test_star_projected_by_hand():
    star = [(0, 1), (0, 2), (0, 3), (0, 4)]  # K_{1,4}, θ = 2: (0,1), (0,2) kept, the rest not
    p = edge_addition_projection(star, 5, 2)
    assert p.kept.tolist() == [True, True, False, False]
    assert p.degrees.tolist() == [2, 1, 1, 0, 0]
    assert projected_histogram(star, 5, 2).tolist() == [2, 2, 1]
    # the public order decides which edges survive: rank node 4 first
    assert edge_addition_projection(star, 5, 2, rank=[1, 2, 3, 4, 0]).kept.tolist() == [
        True, False, False, True]  # fmt: skip


def _without(edges, n, v):
    """The graph without node v (and its edges), indices above v shifted down."""
    keep = [(a - (a > v), b - (b > v)) for a, b in edges if v not in (a, b)]
    return keep, n - 1


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 9), st.integers(1, 4), st.data())
def test_node_sensitivity_is_at_most_2theta_plus_1(n, theta, data):
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    edges = data.draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    rank = data.draw(st.permutations(range(n)))
    full = projected_histogram(edges, n, theta, rank=rank)
    assert edge_addition_projection(edges, n, theta, rank=rank).degrees.max(initial=0) <= theta
    for v in range(n):
        sub, m = _without(edges, n, v)
        sub_rank = [r for i, r in enumerate(rank) if i != v]  # the same public order
        h = projected_histogram(sub, m, theta, rank=sub_rank)
        assert np.abs(full - h).sum() <= 2 * theta + 1


def test_the_bound_is_reached_so_the_noise_is_not_oversized():
    """A path 1-2-…: adding node 0 joined to the path's ends shows a chain of blocks."""
    worst = 0
    rng = np.random.default_rng(0)
    for _ in range(300):
        g = nx.gnp_random_graph(9, 0.45, seed=int(rng.integers(1 << 30)))
        edges = list(g.edges())
        for v in range(9):
            sub, m = _without(edges, 9, v)
            d = np.abs(projected_histogram(edges, 9, 2) - projected_histogram(sub, m, 2)).sum()
            worst = max(worst, int(d))
    assert 3 <= worst <= 5  # 2θ + 1 = 5 bounds it and the bound is not loose by much


def test_release_carries_scale_2theta_plus_1_over_eps():
    g = nx.star_graph(20)
    r = node_dp_degree_histogram(g, 3, 0.5, seed=1)
    assert r.parameters == {"theta": 3, "sensitivity": 7, "scale": 14.0, "bins": 4}
    assert len(r.value) == 4 and r.insecure_seed and r.epsilon == 0.5
    with pytest.raises(ConfigError, match="theta"):
        node_dp_degree_histogram(g, 0, 1.0)
    with pytest.raises(InputError, match=r"0\.\.2"):
        edge_addition_projection([(0, 5)], 3, 1)
