"""Empirical privacy audit: each mechanism on neighbouring data sets, no ε violation.

For every output event S (a value, or a bin of real outputs) the audit checks
P[M(D) ∈ S] ≤ e^ε P[M(D') ∈ S] + δ in both directions, using one-sided Clopper–Pearson
bounds at level 1e-6 per event (so sampling error cannot fail a correct mechanism, and a
mechanism off by a factor e in its likelihood ratio is still caught — see the last test).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from privlab.dp.mechanisms import exponential, gaussian, geometric, laplace, randomized_response
from privlab.dp.noise import discrete_laplace, secure_generator
from privlab.dp.queries import histogram
from privlab.dp.streams import DensityEstimator

ALPHA = 1e-6
N = 100_000


def _violations(a: np.ndarray, b: np.ndarray, epsilon: float, delta: float = 0.0) -> list:
    """Events whose frequencies prove a violation of (ε, δ)-DP, in either direction."""
    values = np.union1d(a, b)
    ca = np.array([np.count_nonzero(a == v) for v in values])
    cb = np.array([np.count_nonzero(b == v) for v in values])
    bad = []
    for counts_x, n_x, counts_y, n_y in ((ca, a.size, cb, b.size), (cb, b.size, ca, a.size)):
        lower_x = np.where(counts_x > 0, stats.beta.ppf(ALPHA, counts_x, n_x - counts_x + 1), 0)
        upper_y = np.where(
            counts_y < n_y, stats.beta.ppf(1 - ALPHA, counts_y + 1, n_y - counts_y), 1
        )
        worse = lower_x > math.exp(epsilon) * upper_y + delta
        bad += [v for v, w in zip(values, worse, strict=True) if w]
    return bad


def _runs(fn, n=N):
    return np.array([fn(i) for i in range(n)])


def test_geometric_count_on_neighbours():
    a = np.asarray(geometric(np.full(N, 10), 1, 1.0, seed=1).value)
    b = np.asarray(geometric(np.full(N, 11), 1, 1.0, seed=2).value)
    assert _violations(a, b, 1.0) == []


def test_snapped_laplace_on_neighbours_binned():
    a = np.asarray(laplace(np.full(N, 0.3), 1.0, 1.0, seed=3).value)
    b = np.asarray(laplace(np.full(N, 1.3), 1.0, 1.0, seed=4).value)
    edges = np.arange(-6, 8, 0.5)
    assert _violations(np.digitize(a, edges), np.digitize(b, edges), 1.0) == []


def test_discrete_gaussian_on_neighbours():
    a = np.asarray(gaussian(np.zeros(N, dtype=np.int64), 1, 1.0, 1e-5, seed=5).value)
    b = np.asarray(gaussian(np.ones(N, dtype=np.int64), 1, 1.0, 1e-5, seed=6).value)
    assert _violations(a, b, 1.0, 1e-5) == []


def test_exponential_mechanism_on_neighbouring_scores():
    # scores move by at most Δ = 1 between neighbours
    a = _runs(lambda i: exponential([5, 4, 3], 1, 1.0, seed=10 + i).value, 20_000)
    b = _runs(lambda i: exponential([4, 4, 4], 1, 1.0, seed=40_000 + i).value, 20_000)
    assert _violations(a, b, 1.0) == []


def test_randomized_response_on_neighbours():
    a = np.asarray(randomized_response(np.zeros(N, dtype=int), 3, 0.7, seed=7).value)
    b = np.asarray(randomized_response(np.ones(N, dtype=int), 3, 0.7, seed=8).value)
    assert _violations(a, b, 0.7) == []


def test_histogram_bin_on_neighbours():
    base = np.array(["a", "a", "b"])
    a = _runs(lambda i: histogram(base, ["a", "b"], 0.5, seed=i).value[1], 8_000)
    b = _runs(
        lambda i: histogram(np.append(base, "b"), ["a", "b"], 0.5, seed=10**6 + i).value[1],
        8_000,
    )
    assert _violations(a, b, 0.5) == []


def test_pan_private_state_bit_on_neighbouring_streams():
    eps = 1.5
    seen, unseen = [], []
    for i in range(400):
        est = DensityEstimator(500, eps, seed=i)
        est.update_many(range(250))  # items 0..249 seen in D, not in D'
        bits = est.state
        seen.append(bits[:250])
        unseen.append(bits[250:])
    assert _violations(np.concatenate(seen).astype(int), np.concatenate(unseen).astype(int),
                       eps) == []  # fmt: skip


def test_continuous_outputs_share_one_support():
    ra = laplace(np.full(5000, 0.1), 1.0, 1.0, seed=9)
    rb = laplace(np.full(5000, 1.1), 1.0, 1.0, seed=9)
    grid = ra.parameters["grid"]
    assert rb.parameters["grid"] == grid  # the grid depends on (Δ, ε, d), never on the values
    for out in (ra.value, rb.value):
        steps = np.asarray(out) / grid
        assert np.array_equal(steps, np.rint(steps))  # every output is a grid point


def test_the_audit_catches_a_mechanism_with_too_little_noise():
    rng = secure_generator(11)
    a = 10 + np.asarray(discrete_laplace(1 / 2.7, N, rng=rng))  # really ε = 2.7
    b = 11 + np.asarray(discrete_laplace(1 / 2.7, N, rng=rng))
    assert _violations(a, b, 1.0) != []  # claimed ε = 1: caught
