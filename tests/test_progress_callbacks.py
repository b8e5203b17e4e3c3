"""Issue 15, scope 10: the long-running library functions report ``progress(done, total)``
(:mod:`privlab.progress`) and compute exactly the same result with or without it."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from privlab.dp.safe_search import eps_safe_k_anonymize, lattice_scores
from privlab.graph.anonymize.kdegree import greedy_swap, kdegree_anonymize
from privlab.graph.attacks.learned import train_scorer
from privlab.graph.attacks.propagation import propagate, top_degree_seeds
from privlab.graph.core import Graph
from privlab.graph.pairs import sample_pair
from privlab.graph.utility import compare
from privlab.table.anonymize import anonymize_table
from privlab.table.lattice import Groupify
from privlab.table.models import DistinctLDiversity, EntropyLDiversity, KAnonymity
from privlab.table.mondrian import mondrian
from privlab.table.sample import census_sample


class Calls(list):
    """A progress callback that records its calls."""

    def __call__(self, done: int, total: int) -> None:
        self.append((done, total))

    def check(self, *, total: int | None = None, monotone: bool = True) -> None:
        """Called at least once; 0 ≤ done ≤ total; one total (``total`` if given)."""
        assert self, "progress was never called"
        totals = {t for _, t in self}
        assert len(totals) == 1, totals
        if total is not None:
            assert totals == {total}
        (t,) = totals
        assert all(0 <= d <= t for d, _ in self), self
        if monotone:
            done = [d for d, _ in self]
            assert done == sorted(done), done


@pytest.fixture(scope="module")
def table():
    return census_sample(1500, 3).micro_table()


@pytest.fixture(scope="module")
def social():
    return Graph.from_networkx(nx.powerlaw_cluster_graph(400, 4, 0.5, seed=2))


@pytest.mark.parametrize("algorithm", ["optimal", "datafly"])
@pytest.mark.parametrize(
    "models", [[KAnonymity(5)], [KAnonymity(3), EntropyLDiversity("disease", 1.5)]]
)
def test_lattice_search_reports_nodes_and_ends_at_the_total(table, algorithm, models):
    calls = Calls()
    with_bar = anonymize_table(table, models, suppression_limit=0.05, algorithm=algorithm,
                               progress=calls)  # fmt: skip
    without = anonymize_table(table, models, suppression_limit=0.05, algorithm=algorithm)
    calls.check()
    assert calls[-1][0] == calls[-1][1]  # finished: the whole lattice (or Σ heights)
    assert with_bar.result.node == without.result.node
    assert with_bar.data.equals(without.data)


def test_optimal_search_reports_after_every_check_of_a_non_monotone_model(table):
    calls = Calls()
    release = anonymize_table(table, [KAnonymity(2), EntropyLDiversity("disease", 1.8)],
                              suppression_limit=0.1, progress=calls)  # fmt: skip
    assert len(calls) >= release.result.nodes_checked // 2  # one report per visited check


def test_mondrian_reports_records_in_final_classes(table):
    calls = Calls()
    models = [KAnonymity(4), DistinctLDiversity("disease", 2)]
    with_bar = mondrian(table, models, numeric=["age"], progress=calls)
    calls.check(total=table.n_rows)
    assert calls[-1] == (table.n_rows, table.n_rows)
    assert len(calls) == with_bar.rounds
    without = mondrian(table, models, numeric=["age"])
    assert with_bar.release.equals(without.release)


@pytest.mark.parametrize("method", ["simultaneous_swap", "relaxed"])
def test_kdegree_swaps_report_the_edges_in_place(social, method):
    calls = Calls()
    with_bar = kdegree_anonymize(social, 10, method=method, seed=4, progress=calls)
    calls.check(total=with_bar.graph.n_edges)
    assert calls[-1][0] == with_bar.parameters["overlap_final"]
    without = kdegree_anonymize(social, 10, method=method, seed=4)
    assert np.array_equal(with_bar.graph.edges(), without.graph.edges())


def test_greedy_swap_reports_every_256_samples(social):
    start = kdegree_anonymize(social, 5, method="relaxed", seed=1, max_swaps=0).graph
    calls = Calls()
    out = greedy_swap(start, social, seed=2, patience=600, progress=calls)
    calls.check(total=start.n_edges)
    assert len(calls) == out.samples // 256 + 1


def test_supergraph_reports_failed_probes(social):
    calls = Calls()
    result = kdegree_anonymize(social, 20, method="supergraph", seed=3, max_probes=500,
                               progress=calls)  # fmt: skip
    assert len(calls) == result.probes  # one report per failed probe
    assert all(t == 501 for _, t in calls)


def test_propagation_reports_mapped_aux_nodes(social):
    pair = sample_pair(social, 0.6, 0.8, seed=5)
    seeds = top_degree_seeds(pair.aux, pair, 15)
    calls = Calls()
    with_bar = propagate(pair.aux, pair.san, seeds, 0.1, truth=pair, progress=calls)
    calls.check(total=pair.aux.n_nodes)
    assert calls[-1][0] == with_bar.mapped
    assert len(calls) >= with_bar.passes
    without = propagate(pair.aux, pair.san, seeds, 0.1, truth=pair)
    assert np.array_equal(with_bar.pairs(), without.pairs())


@pytest.mark.parametrize(("method", "units"), [("forest", 40), ("gbm", 1)])
def test_learned_training_reports_splits_then_the_fit(social, method, units):
    pair = sample_pair(social, 0.6, 0.8, seed=6)
    kw = dict(alpha_v=0.6, alpha_e=0.8, method=method, n_jobs=1, n_non_identical=2000, seed=7)
    if method == "forest":
        kw["n_trees"] = units
    else:
        kw["max_iter"] = 20
    calls = Calls()
    with_bar = train_scorer(pair.aux, pair.san, progress=calls, **kw)
    calls.check(total=2 + units)
    assert calls[:2] == [(1, 2 + units), (2, 2 + units)]  # the two splits with features
    assert calls[-1] == (2 + units, 2 + units)
    without = train_scorer(pair.aux, pair.san, **kw)
    u = np.arange(min(pair.aux.n_nodes, pair.san.n_nodes))
    scores = Calls()
    got = with_bar.score(pair.aux, pair.san, u, u, chunk_size=64, progress=scores)
    scores.check(total=u.size)
    assert scores[-1] == (u.size, u.size)
    assert np.array_equal(got, without.score(pair.aux, pair.san, u, u))


def test_eps_safe_search_reports_every_lattice_node(table):
    calls = Calls()
    groupify = Groupify([table.hierarchies[c] for c in table.qi], table.qi_codes)
    scores = lattice_scores(groupify, 5, calls)
    calls.check(total=scores.size)
    assert calls[-1] == (scores.size, scores.size)
    assert np.array_equal(scores, lattice_scores(groupify, 5))
    release_calls = Calls()
    eps_safe_k_anonymize(table, k=20, beta=0.5, epsilon=1.5, selection_epsilon=0.1, rng=1,
                         progress=release_calls)  # fmt: skip
    release_calls.check(total=scores.size)


def test_graph_utility_reports_each_metric(social):
    other = kdegree_anonymize(social, 5, seed=8).graph
    calls = Calls()
    with_bar = compare(social, other, sample=50, seed=1, progress=calls)
    assert calls == [(i, len(with_bar.metrics)) for i in range(1, len(with_bar.metrics) + 1)]
    assert with_bar.to_dict() == compare(social, other, sample=50, seed=1).to_dict()
