"""Supernode generalization (Hay et al., VLDB 2008): the release satisfies its definition
(every supernode ≥ k nodes, edge counts equal to the original's), the objective is the
exact log-count of consistent graphs, annealing finds planted cliques, the sampler draws
consistent graphs uniformly, errors."""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize import generalize as G
from privlab.graph.anonymize.generalize import (
    GeneralizedGraph,
    check_generalization,
    sample_graph,
    supernode_generalize,
)
from privlab.graph.core import Graph
from tests.graph.test_perturb import graphs


def brute_log_worlds(g: Graph, assign: np.ndarray) -> float:
    groups = int(assign.max()) + 1
    sizes = np.bincount(assign, minlength=groups)
    d = Counter()
    for u, v in g.edges().tolist():
        d[tuple(sorted((assign[u], assign[v])))] += 1
    total = 0.0
    for x in range(groups):
        total += math.log(math.comb(int(sizes[x] * (sizes[x] - 1) // 2), d[(x, x)]))
    for x, y in itertools.combinations(range(groups), 2):
        total += math.log(math.comb(int(sizes[x] * sizes[y]), d[(x, y)]))
    return total


@given(graphs(max_nodes=24, max_edges=80), st.integers(1, 6), st.integers(0, 2**16))
@settings(max_examples=50, deadline=None)
def test_every_release_satisfies_the_definition(g, k, seed):
    if k > g.n_nodes:
        with pytest.raises(ConfigError, match="k = "):
            supernode_generalize(g, k, seed=seed)
        return
    r = supernode_generalize(g, k, seed=seed, steps=200)
    check_generalization(r, g)  # sizes ≥ k, counts recomputed from the graph
    assert r.sizes.sum() == g.n_nodes and r.n_supernodes == g.n_nodes // k
    assert r.internal.sum() + r.superedges[:, 2].sum() == g.n_edges
    assert r.log_worlds == pytest.approx(brute_log_worlds(g, r.assignment), abs=1e-6)
    assert "assignment" not in str(r.release())


def test_annealing_recovers_planted_cliques():
    """Four disjoint 5-cliques, k = 5: the only partitions with log W = 0 (a single
    consistent graph) are the cliques themselves."""
    g = Graph.from_networkx(nx.disjoint_union_all([nx.complete_graph(5) for _ in range(4)]))
    r = supernode_generalize(g, 5, seed=3, steps=6000)
    assert r.log_worlds == pytest.approx(0.0, abs=1e-9)
    assert r.log_worlds < r.log_worlds_start
    groups = {frozenset(np.flatnonzero(r.assignment == x).tolist()) for x in range(4)}
    assert groups == {frozenset(range(5 * i, 5 * i + 5)) for i in range(4)}


def test_annealing_lowers_the_objective_on_a_real_structure():
    g = Graph.from_networkx(nx.karate_club_graph())
    r = supernode_generalize(g, 4, seed=1, steps=3000)
    assert r.log_worlds < r.log_worlds_start
    check_generalization(r, g)


def release_order(gen: GeneralizedGraph) -> GeneralizedGraph:
    """The generalization with the sampler's node order (supernode 0's nodes first)."""
    assign = np.repeat(np.arange(gen.n_supernodes), gen.sizes)
    return dataclasses.replace(gen, assignment=assign)


def test_samples_are_consistent_with_the_release():
    g = Graph.from_networkx(nx.les_miserables_graph())
    r = supernode_generalize(g, 3, seed=2, steps=500)
    for seed in range(3):
        h = sample_graph(r, seed=seed)
        assert h.n_nodes == g.n_nodes and h.n_edges == g.n_edges
        check_generalization(release_order(r), h)


def test_sampler_is_uniform_over_consistent_graphs():
    # one supernode of 4 nodes with 2 internal edges: C(6, 2) = 15 consistent graphs
    gen = GeneralizedGraph(
        sizes=np.array([4]), internal=np.array([2]), superedges=np.empty((0, 3), np.int64),
        assignment=np.zeros(4, np.int64), k=4, log_worlds=math.log(15), log_worlds_start=0.0,
        steps=0, accepted=0,
    )  # fmt: skip
    rng = np.random.default_rng(5)
    counts = Counter(tuple(map(tuple, sample_graph(gen, seed=rng).edges().tolist()))
                     for _ in range(1200))  # fmt: skip
    assert len(counts) == 15
    assert stats.chisquare(list(counts.values())).pvalue > 1e-3


def test_tampered_releases_fail_the_check():
    g = Graph.from_networkx(nx.karate_club_graph())
    r = supernode_generalize(g, 4, seed=1, steps=100)
    bad_k = dataclasses.replace(r, k=r.sizes.min() + 1)
    with pytest.raises(InputError, match="< k"):
        check_generalization(bad_k, g)
    internal = r.internal.copy()
    internal[0] += 1
    with pytest.raises(InputError, match="internal"):
        check_generalization(dataclasses.replace(r, internal=internal), g)
    cross = r.superedges.copy()
    cross[0, 2] += 1
    with pytest.raises(InputError, match="super-edge"):
        check_generalization(dataclasses.replace(r, superedges=cross), g)


def test_release_and_summary_serialize():
    g = Graph.from_networkx(nx.karate_club_graph())
    r = supernode_generalize(g, 5, seed=1, steps=100)
    rel = r.release()
    assert rel["k"] == 5 and sum(s["size"] for s in rel["supernodes"]) == 34
    edges = sum(s["internal_edges"] for s in rel["supernodes"]) + sum(
        e["edges"] for e in rel["superedges"]
    )
    assert edges == g.n_edges
    assert r.to_dict()["min_size"] >= 5 and r.to_dict()["insecure_seed"] is True


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"k": 0}, "k"), ({"k": 2.5}, "k"), ({"k": 40}, "k = 40"),
     ({"k": 2, "steps": -1}, "steps"), ({"k": 2, "t_start": 0.0}, "t_start"),
     ({"k": 2, "t_end": 5.0}, "t_end")],
)  # fmt: skip
def test_bad_parameters_are_config_errors(kwargs, name):
    g = Graph.from_networkx(nx.karate_club_graph())
    with pytest.raises(ConfigError, match=name):
        supernode_generalize(g, seed=1, **kwargs)


def test_too_many_supernodes_are_refused(monkeypatch):
    monkeypatch.setattr(G, "MAX_SUPERNODES", 5)
    g = Graph.from_networkx(nx.karate_club_graph())
    with pytest.raises(ConfigError, match="give k ≥ 7"):
        supernode_generalize(g, 2, seed=1)
