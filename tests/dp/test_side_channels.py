"""DP releases say nothing beside what their guarantee covers (issue 15, "no secrets in side
channels"): no exact figure of the input, no private value or row position in an error, the
(ε, δ) actually spent, exact integer sums, and an honest ``insecure_seed``."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from privlab.dp.diagnostics import KEY, WARNING
from privlab.dp.mechanisms import randomized_response
from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.dp.queries import (
    _exact_int_sum,
    clamped_mean,
    clamped_sum,
    count,
    degree_histogram,
    degree_sequence,
    histogram,
    kmeans,
)
from privlab.dp.safe_search import eps_safe_k_anonymize
from privlab.dp.sampling import achieved, safe_k_anonymize
from privlab.dp.streams import DensityEstimator
from privlab.errors import InputError
from privlab.graph.anonymize.dp_dk import dp_dk2_graph, private_dk2
from privlab.graph.core import Graph
from privlab.table.sample import census_sample

PATH6 = nx.path_graph(6)
HUGE = 60.0  # noise scale 1/60 per unit of sensitivity: the exact answer, almost surely
LEVELS = {"zip": 3, "age": 2, "sex": 1, "education": 1, "marital-status": 1}


# ---------------------------------------------------------------------------- exact sums
def test_clamped_sum_of_a_million_values_of_ten_to_the_13_is_exact():
    x = np.full(10**6, 10**13, dtype=np.int64)  # the sum, 10^19, does not fit int64
    r = clamped_sum(x, 0, 10**13, HUGE * 10**13, seed=1)
    assert r.value == 10**19  # a plain int64 .sum() wraps around to −8.4e18
    assert r.parameters["mechanism"] == "geometric" and r.parameters["sensitivity"] == 10**13


def test_clamped_sum_of_negative_int64_extremes_is_exact():
    x = np.array([-(2**63), -(2**63), 2**63 - 1], dtype=np.int64)
    assert clamped_sum(x, -(2**63), 0, 1e30, seed=2).value == -(2**64)


@st.composite
def _int_arrays_and_bounds(draw):
    dtype = draw(st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64]))
    arr = draw(hnp.arrays(dtype, st.integers(0, 300)))
    edge = st.integers(-(2**70), 2**70)
    lo, hi = sorted((draw(edge), draw(edge)))
    return arr, lo, hi + 1


@given(_int_arrays_and_bounds())
@settings(max_examples=300, deadline=None)
def test_exact_int_sum_equals_the_python_sum_for_every_dtype_and_bound(case):
    arr, lo, hi = case
    assert _exact_int_sum(arr, lo, hi) == sum(min(max(int(v), lo), hi) for v in arr)


# ---------------------------------------------------------------------------- (ε, δ) stated
def _census_table():
    return census_sample(600, seed=5).micro_table()


RELEASES = {
    "count": (lambda: count(np.arange(50), 0.4), (0.4, 0.0)),
    "count, δ": (lambda: count(np.arange(50), 0.4, delta=1e-6), (0.4, 1e-6)),
    "sum": (lambda: clamped_sum(np.arange(50.0), 0, 10, 0.3), (0.3, 0.0)),
    "sum, δ": (lambda: clamped_sum(np.arange(50), 0, 10, 0.3, delta=1e-7), (0.3, 1e-7)),
    "mean": (lambda: clamped_mean(np.arange(50.0), 0, 100, 0.8), (0.8, 0.0)),
    "mean, δ": (lambda: clamped_mean(np.arange(50.0), 0, 100, 0.8, delta=2e-6), (0.8, 2e-6)),
    "histogram": (lambda: histogram(np.array(["a", "b"]), ["a", "b"], 0.5), (0.5, 0.0)),
    "histogram, δ": (
        lambda: histogram(np.array([0, 1]), 2, 0.5, delta=1e-5),
        (0.5, 1e-5),
    ),
    "kmeans": (lambda: kmeans(np.random.default_rng(0).random((40, 2)), 2, 0.9), (0.9, 0.0)),
    "degree sequence": (lambda: degree_sequence([1, 2, 1], 0.6), (0.6, 0.0)),
    "degree histogram": (lambda: degree_histogram([1, 2, 1], 0.6, max_degree=3), (0.6, 0.0)),
    "dK-2": (lambda: private_dk2(Graph.from_networkx(PATH6), 0.7, max_degree=4), (0.7, 0.0)),
}


@pytest.mark.parametrize("name", list(RELEASES))
def test_every_release_states_the_epsilon_and_delta_it_spent(name):
    make, (eps, delta) = RELEASES[name]
    r = make()
    assert (r.epsilon, r.delta) == pytest.approx((eps, delta), rel=1e-12, abs=0)
    assert r.to_dict()["epsilon"] == r.epsilon and r.to_dict()["delta"] == r.delta


def test_clamped_mean_with_delta_reports_the_delta_of_its_two_halves():
    r = clamped_mean(np.arange(1000.0), 0, 1000, 1.0, delta=1e-6, seed=3)
    assert r.delta == 1e-6  # the sum and the count spend δ/2 each; it was reported as 0


def test_dp_dk2_graph_safe_kanon_and_pan_privacy_state_their_budget():
    g = Graph.from_networkx(nx.karate_club_graph())
    report = dp_dk2_graph(g, 2.0, max_degree=40, threshold="auto").to_dict()
    assert (report["epsilon"], report["delta"]) == (2.0, 0.0)
    table = _census_table()
    strong = safe_k_anonymize(table, LEVELS, k=5, beta=0.3, epsilon=1.0)
    assert strong.to_dict()["delta"] == achieved(1.0, 0.3, 5).delta
    est = DensityEstimator(100, 0.5)
    est.estimate()
    assert (est.guarantee.epsilon, est.guarantee.delta) == (1.0, 0.0)


# ---------------------------------------------------------------------------- insecure_seed
SEEDED = [
    lambda seed: count(np.arange(9), 1.0, seed=seed),
    lambda seed: clamped_mean(np.arange(9.0), 0, 9, 1.0, delta=1e-6, seed=seed),
    lambda seed: histogram(np.array([0, 1]), 2, 1.0, seed=seed),
    lambda seed: kmeans(np.full((5, 1), 0.5), 1, 1.0, seed=seed),
    lambda seed: private_dk2(Graph.from_networkx(nx.path_graph(4)), 1.0, max_degree=3,
                             seed=seed),
]  # fmt: skip


@pytest.mark.parametrize("release", SEEDED)
def test_insecure_seed_is_false_only_for_os_entropy(release):
    assert release(None).insecure_seed is False
    # a generator handed on from secure_generator() is OS entropy too (the CLI does this)
    assert release(secure_generator()).insecure_seed is False
    assert release(secure_generator(3)).insecure_seed is True
    assert release(7).insecure_seed is True
    assert release(np.random.default_rng(7)).insecure_seed is True


def test_secure_generators_stay_secure_through_the_pipelines():
    rng = secure_generator()
    assert not is_insecure_seed(rng)
    table = _census_table()
    assert not safe_k_anonymize(table, LEVELS, k=5, beta=0.3, epsilon=1.0, rng=rng).insecure_seed
    assert DensityEstimator(10, 0.5, seed=rng).insecure_seed is False


# ---------------------------------------------------------------------------- errors
SECRET = "SECRET-4471"
BAD_INPUT = {
    "histogram label": lambda: histogram(np.array(["a", SECRET, "a"]), ["a", "b"], 1.0),
    "histogram code": lambda: histogram(np.array([0, 4471, 1]), 3, 1.0),
    "sum NaN": lambda: clamped_sum(np.array([1.0, 2.0, np.nan]), 0, 5, 1.0),
    "degree histogram": lambda: degree_histogram([1, 4471, 2], 1.0, max_degree=10),
    "dK-2": lambda: private_dk2(Graph.from_networkx(nx.star_graph(4471)), 1.0, max_degree=100),
    "randomized response": lambda: randomized_response(np.array([0, 4471, 1]), 3, 1.0),
    "stream item": lambda: DensityEstimator(["a", "b"], 0.5).update_many(["a", SECRET]),
    "stream code": lambda: DensityEstimator(5, 0.5).update_many([1, 4471]),
}


@pytest.mark.parametrize("name", list(BAD_INPUT))
def test_dp_errors_show_no_value_and_no_position(name):
    with pytest.raises(InputError) as err:
        BAD_INPUT[name]()
    msg = str(err.value)
    assert "4471" not in msg and SECRET not in msg
    for position in ("row", "line", "entry", "position"):
        assert position not in msg, msg
    assert "1 " in msg  # it says how many values are at fault


# ---------------------------------------------------------------------------- exact figures
def test_safe_release_publishes_no_exact_figure_of_the_input_unless_asked():
    table = _census_table()
    r = eps_safe_k_anonymize(table, k=5, beta=0.4, epsilon=2.0, selection_epsilon=0.2, rng=1)
    d = r.to_dict()
    for key in ("rows", "sampled", "not_sampled", "suppressed"):
        assert key not in d
    assert "chosen_score" not in d["selection"] and "best_score" not in d["selection"]
    assert d["released"] == r.data.height  # public: it is the published file's row count
    assert KEY not in d
    exact = r.to_dict(non_private_diagnostics=True)[KEY]
    assert exact["warning"] == WARNING
    assert exact["rows"] == 600 == exact["not_sampled"] + exact["suppressed"] + d["released"]
    assert exact["selection"]["chosen_score"] == r.selection["chosen_score"]


def test_the_pan_private_state_keeps_no_count_of_updates():
    est = DensityEstimator(50, 0.5, seed=1)
    est.update_many(range(20))
    # everything an intruder could read is private: the bits, and no exact tally beside them
    assert "updates" not in vars(est)
