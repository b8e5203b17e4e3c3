"""The passive (coalition) attack (privlab.graph.attacks.passive; seed 000 §2.10, §8.9;
BDK07): the coalition is connected and knows its structure, the generalized search tree
always contains the coalition itself, a dense random graph lets a 12-member coalition find
itself and re-identify most of its neighbours, a sparse one leaves small coalitions
ambiguous, and the active attack's search is unchanged."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.active import random_graph, search_tree
from privlab.graph.attacks.passive import (
    _mask_pattern,
    _pattern,
    coalition,
    neighbour_signatures,
    passive_attack,
    passive_success_vs_k,
)
from privlab.graph.core import Graph, as_graph


@pytest.mark.parametrize("seed", range(5))
def test_coalition_is_connected_and_known(seed: int) -> None:
    g = as_graph(nx.les_miserables_graph())
    c = coalition(g, 7, seed=seed)
    assert np.unique(c.members).size == 7 and c.parents[0] == -1
    for i in range(1, 7):
        assert 0 <= c.parents[i] < i and g.has_edge(int(c.members[i]), int(c.members[c.parents[i]]))
    for i in range(7):
        for j in range(7):
            assert c.internal[i, j] == g.has_edge(int(c.members[i]), int(c.members[j]))
    assert (c.degrees == g.degrees()[c.members]).all()


@pytest.mark.parametrize("seed", range(6))
def test_search_always_finds_the_coalition_itself(seed: int) -> None:
    g = random_graph(400, 8, seed=seed)
    c = coalition(g, 6, seed=seed)
    frontier, _, _, status = search_tree(g, c.degrees, c.internal, c.parents)
    assert status in ("unique", "ambiguous")
    assert any((row == c.members).all() for row in frontier)
    # the friend-set filter keeps the coalition and drops look-alikes that differ
    truth = _pattern(neighbour_signatures(g, c.members))
    kept = [row for row in frontier if _pattern(neighbour_signatures(g, row.astype(np.int64)))
            == truth]  # fmt: skip
    assert any((row == c.members).all() for row in kept) and len(kept) <= len(frontier)
    # the vectorized pattern is the same test as the dictionary one
    for row in frontier[:30]:
        r = row.astype(np.int64)
        same = _pattern(neighbour_signatures(g, r)) == truth
        assert same == (_mask_pattern(g, r) == _mask_pattern(g, c.members))


def test_dense_random_graph_coalition_finds_itself() -> None:
    g = random_graph(300, 150, seed=1)  # G(n, 1/2): internal structure as random as H's
    rows = passive_success_vs_k(g, [12], trials=8, seed=2, friend_sets=False)
    assert rows[0]["located_exactly_rate"] >= 0.75
    assert rows[0]["success_rate"] >= 0.6


def test_sparse_graph_small_coalitions_stay_hidden() -> None:
    g = random_graph(2000, 10, seed=1)
    rows = passive_success_vs_k(g, [3], trials=8, seed=2)
    assert rows[0]["unique_rate"] <= 0.25


@pytest.mark.parametrize("seed", range(4))
def test_every_reidentification_is_right_when_located(seed: int) -> None:
    g = random_graph(200, 100, seed=seed)
    r = passive_attack(g, 10, seed=seed)
    if r.located_exactly:
        assert r.correct == r.reidentified
    assert 0 <= r.correct <= r.reidentified <= r.neighbours
    assert r.to_dict()["k"] == 10


def test_walk_order_is_the_default() -> None:
    # parents None ≡ the path order of the walk-based attack
    g = random_graph(200, 20, seed=3)
    path = [0]
    while len(path) < 6:
        nxt = [int(v) for v in g.neighbors(path[-1]) if int(v) not in path]
        path.append(nxt[0])
    m = np.asarray(path)
    internal = np.array([[g.has_edge(int(a), int(b)) for b in m] for a in m])
    a = search_tree(g, g.degrees()[m], internal)
    b = search_tree(g, g.degrees()[m], internal, np.arange(-1, 5))
    assert (a[0] == b[0]).all() and a[1:] == b[1:]


def test_errors() -> None:
    g = as_graph(nx.path_graph(4))
    with pytest.raises(ConfigError, match="k = 1"):
        coalition(g, 1)
    with pytest.raises(InputError, match="only 4 nodes"):
        coalition(g, 5)
    with pytest.raises(InputError, match="no edges"):
        coalition(Graph.from_edges(3, np.zeros((0, 2))), 2)
    two = Graph.from_edges(4, [(0, 1), (2, 3)])
    with pytest.raises(InputError, match="component has 2 nodes"):
        coalition(two, 3, seed=0)
    # a coalition never starts in a component too small for it
    mixed = Graph.from_edges(7, [(0, 1), (2, 3), (3, 4), (4, 5), (5, 6)])
    for s in range(10):
        assert set(coalition(mixed, 4, seed=s).members.tolist()) <= {2, 3, 4, 5, 6}
    with pytest.raises(ConfigError, match="ks"):
        passive_success_vs_k(g, [1])
