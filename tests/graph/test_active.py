"""The walk-based active attack (seed 000 §2.10; Backstrom, Dwork & Kleinberg 2007)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.graph.anonymize.naive import naive_anonymize
from privlab.graph.attacks.active import (
    active_attack,
    default_k,
    max_targets,
    plant_sybils,
    random_graph,
    recover,
    success_vs_k,
)
from privlab.graph.core import Graph


@pytest.fixture(scope="module")
def er3000() -> Graph:
    return random_graph(3000, 10, seed=11)


def test_default_k_is_2_plus_delta_log2_n():
    assert default_k(4039) == math.ceil(2.5 * math.log2(4039)) == 30
    assert default_k(2000, delta=1.0) == math.ceil(3 * math.log2(2000)) == 33
    assert max_targets(2) == 1 and max_targets(3) == 4 and max_targets(10) == 1013


def test_planted_graph_has_the_construction_of_section_8_5_2(er3000):
    g = er3000
    targets = [5, 17, 230, 1999, 2500]
    planted, secret = plant_sybils(g, targets, seed=3)
    n, k = g.n_nodes, secret.k
    assert k == default_k(n)
    assert planted.n_nodes == n + k
    assert np.array_equal(secret.sybils, np.arange(n, n + k))
    # the original edges are kept
    orig = g.edges()
    assert all(planted.has_edge(int(u), int(v)) for u, v in orig[:500])
    sub = np.array(
        [[planted.has_edge(int(a), int(b)) for b in secret.sybils] for a in secret.sybils]
    )
    assert np.array_equal(sub, secret.internal)
    assert all(secret.internal[i, i + 1] for i in range(k - 1))  # the path x_i — x_{i+1}
    deg = planted.degrees()
    assert np.array_equal(deg[secret.sybils], secret.degrees)
    assert np.array_equal(secret.degrees, secret.external + secret.internal.sum(axis=1))
    assert secret.external.min() >= secret.d0 and secret.external.max() <= secret.d1
    # distinct subsets of size >= 2; x_i in at most Δ_i of them
    assert len(set(secret.subsets)) == len(targets)
    assert min(len(s) for s in secret.subsets) >= 2
    load = np.bincount([i for s in secret.subsets for i in s], minlength=k)
    assert np.all(load <= secret.external)
    # each node's sybil neighbours: targets exactly N_j, nobody else mimics a target
    xset = set(secret.sybils.tolist())
    sets: dict[int, tuple[int, ...]] = {}
    for i, x in enumerate(secret.sybils.tolist()):
        for v in planted.neighbors(x).tolist():
            if v not in xset:
                sets[v] = (*sets.get(v, ()), i)
    for w, s in zip(secret.targets.tolist(), secret.subsets, strict=True):
        assert sets[w] == s
        assert [v for v, t in sets.items() if t == s] == [w]


def test_recover_on_the_planted_graph_itself_labels_x1_to_xk(er3000):
    planted, secret = plant_sybils(er3000, [1, 2, 3], seed=5)
    rec = recover(planted, secret)
    assert rec.status == "unique"
    assert np.array_equal(rec.sybils, secret.sybils)
    assert np.array_equal(rec.targets, [1, 2, 3])
    assert rec.tree_size >= secret.k and rec.level_sizes[-1] == 1


def test_attack_succeeds_on_random_graphs_with_2_plus_delta_log_n_sybils():
    results = []
    for s in range(8):
        g = random_graph(2000 + 250 * s, 8 + s, seed=100 + s)
        results.append(active_attack(g, 12, seed=200 + s))
    assert all(r.k == default_k(r.n_nodes) for r in results)
    unique = [r for r in results if r.status == "unique"]
    assert len(unique) >= 7  # "nearly always" (all 8 with these seeds)
    # when H is located uniquely it is exactly the planted sybils, in order
    assert all(r.sybils_exact for r in unique)
    assert np.mean([r.success_rate for r in results]) >= 0.85
    assert all(r.targets_correct == r.targets_found for r in unique)


def test_too_few_sybils_fails_gracefully(er3000):
    for s in range(4):
        r = active_attack(er3000, 1, k=2, seed=s)
        assert r.status in {"ambiguous", "not_found"}  # a report, not an exception
        assert r.success_rate == 0.0 and not r.sybils_exact
        assert np.all(r.recovery.targets == -1)
        assert r.recovery.target_status == ["no_h"]
        assert r.to_dict()["status"] == r.status


def test_search_tree_limit_is_reported(er3000):
    r = active_attack(er3000, 3, k=6, seed=1, max_tree=10)
    assert r.status == "tree_limit" and r.success_rate == 0.0
    assert r.tree_size > 10


def test_success_grows_with_k(er3000):
    rows = success_vs_k(er3000, [2, 12], n_targets=8, trials=4, seed=9)
    assert [r.k for r in rows] == [2, 12]
    assert rows[0].n_targets == 1 and rows[1].n_targets == 8
    assert rows[0].success_rate == 0.0
    assert rows[1].success_rate == 1.0 and rows[1].sybils_exact_rate == 1.0
    assert sum(rows[1].statuses.values()) == 4
    assert rows[1].to_dict()["unique_rate"] == 1.0


def test_attack_on_ego_facebook(facebook_graph):
    r = active_attack(facebook_graph, 10, seed=2024)
    assert r.k == 30
    assert r.status == "unique" and r.sybils_exact and r.success_rate == 1.0


def test_release_hides_nothing_from_the_search(er3000):
    """The naive release is isomorphic: the recovered ids map back to the planted ones."""
    planted, secret = plant_sybils(er3000, [10, 20], k=15, seed=8)
    rel = naive_anonymize(planted, seed=8)
    rec = recover(rel.graph, secret)
    assert rec.status == "unique"
    assert np.array_equal(rel.mapping[rec.sybils], secret.sybils)
    assert np.array_equal(rel.mapping[rec.targets], [10, 20])


# ---------------------------------------------------------------------------- errors
def test_errors_name_the_problem(er3000):
    small = random_graph(20, 3, seed=1)
    with pytest.raises(InputError, match="targets: node 3000 is not in the graph"):
        plant_sybils(er3000, [1, 3000], seed=1)
    with pytest.raises(InputError, match="listed twice"):
        plant_sybils(er3000, [1, 1], seed=1)
    with pytest.raises(InfeasibleError, match="too small"):
        plant_sybils(small, [1], k=20, seed=1)
    with pytest.raises(InfeasibleError, match=r"2\^k − k − 1 = 4"):
        plant_sybils(er3000, list(range(5)), k=3, seed=1)
    with pytest.raises(ConfigError, match="k = 1"):
        plant_sybils(er3000, [1], k=1, seed=1)
    with pytest.raises(ConfigError, match="delta"):
        plant_sybils(er3000, [1], delta=0, seed=1)
    with pytest.raises(ConfigError, match="d0 = 9 > d1 = 3"):
        plant_sybils(er3000, [1], d0=9, d1=3, seed=1)
    with pytest.raises(InfeasibleError, match="Δ_i"):
        plant_sybils(er3000, list(range(40)), k=8, d0=1, d1=1, seed=1)
    with pytest.raises(ConfigError, match="n_targets"):
        active_attack(er3000, 0, seed=1)
    with pytest.raises(InputError, match="undirected"):
        plant_sybils(Graph.from_edges(3, [(0, 1), (1, 2)], directed=True), [0], k=2)
    planted, secret = plant_sybils(er3000, [1], k=5, seed=1)
    with pytest.raises(ConfigError, match="max_tree"):
        recover(planted, secret, max_tree=0)
