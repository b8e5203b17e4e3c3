"""DP k-means with an unknown number of rounds: halve the remaining budget (seed 000 §5.6)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.dp.queries import kmeans_halving
from privlab.errors import ConfigError, InputError


def _blobs(seed=0):
    rng = np.random.default_rng(seed)
    a = rng.normal([0.2, 0.2], 0.03, (2000, 2))
    b = rng.normal([0.8, 0.7], 0.03, (2000, 2))
    return np.vstack([a, b])


def test_budget_schedule_hand_computed():
    r = kmeans_halving(_blobs(), 2, 1.0, max_iterations=3, tolerance=0.0, seed=1)
    assert r.parameters["epsilon_per_round"] == [0.5, 0.25, 0.125]
    assert r.parameters["laplace_scales"] == [6.0, 12.0, 24.0]  # (d + 1)/(ε/2^i), d = 2
    assert r.epsilon == 0.875 and r.epsilon <= 1.0 and r.insecure_seed


@settings(max_examples=30, deadline=None)
@given(st.floats(0.01, 10.0), st.integers(1, 40), st.floats(0.0, 0.5))
def test_any_number_of_rounds_stays_within_epsilon(eps, rounds, tol):
    pts = np.random.default_rng(3).random((50, 3))
    r = kmeans_halving(pts, 3, eps, max_iterations=rounds, tolerance=tol, seed=2)
    spent = r.parameters["epsilon_per_round"]
    assert len(spent) <= rounds and sum(spent) <= eps
    assert all(b == pytest.approx(a / 2) for a, b in itertools.pairwise(spent))


def test_finds_separated_clusters_and_stops_by_itself():
    r = kmeans_halving(_blobs(), 2, 50.0, max_iterations=30, tolerance=0.01, seed=4)
    c = np.asarray(r.value)
    c = c[np.argsort(c[:, 0])]
    assert np.allclose(c, [[0.2, 0.2], [0.8, 0.7]], atol=0.05)
    assert r.parameters["iterations"] < 30  # converged: the centroids stopped moving


def test_bad_input():
    with pytest.raises(ConfigError, match="max_iterations"):
        kmeans_halving(_blobs(), 2, 1.0, max_iterations=0)
    with pytest.raises(ConfigError, match="tolerance"):
        kmeans_halving(_blobs(), 2, 1.0, tolerance=-1)
    with pytest.raises(InputError, match="n × d"):
        kmeans_halving(np.zeros(3), 2, 1.0)
