"""NS09 seed identification by clique matching (seed 000 §10.3.1) and the thesis's
propagation scoring (Algorithm 10.1 / Listing 10.1) against a literal reference loop."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.propagation import propagate
from privlab.graph.attacks.seed_identification import clique_seeds, pick_clique
from privlab.graph.core import Graph

# Triangles {0,1,2} and {0,1,3}: deg 0 = 4, deg 1 = 3, deg 2 = deg 3 = 3; every pair of
# either triangle has the same common-neighbour counts (cn(0,1) = 2, the others 1).
TWINS = [(0, 1), (0, 2), (1, 2), (0, 3), (0, 4), (1, 3), (2, 5), (3, 6)]


def g(n, edges):
    return Graph.from_edges(n, edges)


def relabel(graph: Graph, perm: np.ndarray) -> Graph:
    e = graph.edges()
    return Graph.from_edges(graph.n_nodes, perm[e])


def test_twin_triangles_are_ambiguous_and_a_degree_breaks_the_tie():
    r = clique_seeds(g(8, TWINS), g(8, TWINS), targets=[0, 1, 2], tolerance=0.0)
    assert r.status == "ambiguous" and r.matches == 2 and r.pairs.shape == (0, 2)
    distinct = g(8, [*TWINS, (3, 7)])  # deg 3 becomes 4: only {0,1,2} has the pattern
    r = clique_seeds(distinct, distinct, targets=[0, 1, 2], tolerance=0.0)
    assert r.status == "unique" and r.pairs.tolist() == [[0, 0], [1, 1], [2, 2]]
    # |4 − 3| = 1 ≤ 0.34·3: a third of slack makes the twin match again
    assert clique_seeds(distinct, distinct, targets=[0, 1, 2], tolerance=0.34).status == (
        "ambiguous"
    )
    assert clique_seeds(distinct, distinct, targets=[0, 1, 2], tolerance=0.33).status == "unique"


def test_tolerance_admits_a_perturbed_degree():
    aux = g(8, [*TWINS, (3, 7)])
    san = g(9, [*TWINS, (3, 7), (2, 8)])  # the sanitized node 2 has degree 4, not 3
    assert clique_seeds(aux, san, targets=[0, 1, 2], tolerance=0.0).status == "none"
    # |4 − 3| ≤ 0.34·3, but then node 3 (degree 4) matches too: two cliques
    assert clique_seeds(aux, san, targets=[0, 1, 2], tolerance=0.34).status == "ambiguous"


def test_the_budget_stops_the_search_and_gives_no_seeds():
    aux = g(8, [*TWINS, (3, 7)])
    r = clique_seeds(aux, aux, targets=[0, 1, 2], tolerance=0.0, max_steps=2)
    assert r.status == "budget" and r.steps == 2 and r.pairs.size == 0


def test_pick_clique_is_a_clique_of_high_degree_nodes_present_in_both():
    aux = Graph.from_networkx(nx.powerlaw_cluster_graph(200, 4, 0.5, seed=3))
    tg = pick_clique(aux, 4)
    assert all(aux.has_edge(int(a), int(b)) for a in tg for b in tg if a != b)
    assert tg[0] == int(np.argmax(aux.degrees()))
    # restricted to people with a counterpart: nodes without one are never chosen
    truth = np.arange(aux.n_nodes)
    truth[tg[0]] = -1
    tg2 = pick_clique(aux, 4, san=aux, truth=truth)
    assert tg[0] not in tg2.tolist()


def test_bad_inputs_name_the_parameter():
    aux = g(8, TWINS)
    with pytest.raises(ConfigError, match="tolerance"):
        clique_seeds(aux, aux, 3, 1.5)
    with pytest.raises(ConfigError, match="k = 1"):
        clique_seeds(aux, aux, 1)
    with pytest.raises(InputError, match="not adjacent"):
        clique_seeds(aux, aux, targets=[0, 1, 4])
    with pytest.raises(InputError, match="no 6-clique"):
        clique_seeds(aux, aux, 6)


@settings(max_examples=25, deadline=None)
@given(st.integers(20, 60), st.floats(0.1, 0.4), st.integers(3, 4), st.integers(0, 10**6))
def test_identical_graphs_a_unique_clique_is_the_truth(n, p, k, seed):
    aux = Graph.from_networkx(nx.gnp_random_graph(n, p, seed=seed))
    perm = np.random.default_rng(seed).permutation(n)
    san = relabel(aux, perm)
    try:
        r = clique_seeds(aux, san, k, 0.0)
    except InputError:  # no k-clique among the starts: nothing to check
        return
    assert r.status in ("unique", "ambiguous")  # the true image always matches exactly
    if r.status == "unique":
        assert (perm[r.pairs[:, 0]] == r.pairs[:, 1]).all()


# ============================================================================ thesis scoring
def thesis_reference(g1, g2, seeds, theta, max_passes=100):
    """Listing 10.1 with Algorithm 10.1's cosine, literally: all scores of all nodes."""
    a1 = [set(g1.neighbors(v).tolist()) for v in range(g1.n_nodes)]
    a2 = [set(g2.neighbors(v).tolist()) for v in range(g2.n_nodes)]
    fwd = {int(a): int(b) for a, b in seeds}
    inv = {b: a for a, b in fwd.items()}
    fixed = set(fwd)

    def scores(v, adj_v, adj_dst, m, m_inv):
        a = {m[x] for x in adj_v[v] if x in m}
        out = []
        for r in range(len(adj_dst)):
            b = {y for y in adj_dst[r] if y in m_inv}
            out.append(len(a & b) / math.sqrt(len(a) * len(b)) if a and b else 0.0)
        return out

    def pick(sc):
        s = np.asarray(sc)
        sd = s.std(ddof=1)
        if not sd > 0:
            return -1
        top2 = np.sort(s)[-2:]
        return int(s.argmax()) if (top2[1] - top2[0]) / sd >= theta else -1

    for _ in range(max_passes):
        changed = 0
        for lnode in range(g1.n_nodes):
            if lnode in fixed:
                continue
            r = pick(scores(lnode, a1, a2, fwd, inv))
            if r < 0 or fwd.get(lnode) == r:
                continue
            if pick(scores(r, a2, a1, inv, fwd)) != lnode:
                continue
            owner = inv.get(r)
            if owner in fixed:
                continue
            if lnode in fwd:
                del inv[fwd.pop(lnode)]
            if owner is not None:
                del fwd[owner], inv[r]
            fwd[lnode], inv[r] = r, lnode
            changed += 1
        if not changed:
            break
    out = np.full(g1.n_nodes, -1)
    for a, b in fwd.items():
        out[a] = b
    return out


@settings(max_examples=15, deadline=None)
@given(st.integers(15, 40), st.floats(0.1, 0.3), st.integers(0, 10**6))
def test_thesis_scoring_equals_the_literal_listing(n, p, seed):
    rng = np.random.default_rng(seed)
    base = nx.gnp_random_graph(n, p, seed=seed)
    drop = lambda: [e for e in base.edges if rng.random() < 0.85]  # noqa: E731
    g1, g2 = g(n, drop()), g(n, drop())
    seeds = np.stack([np.arange(3), np.arange(3)], axis=1)
    got = propagate(g1, g2, seeds, 0.5, scoring="thesis")
    assert got.mapping.tolist() == thesis_reference(g1, g2, seeds, 0.5).tolist()


def test_thesis_scoring_on_identical_graphs_is_exact_and_default_is_secgraph():
    aux = Graph.from_networkx(nx.powerlaw_cluster_graph(150, 3, 0.3, seed=2))
    top = np.argsort(-aux.degrees(), kind="stable")[:5]
    seeds = np.stack([top, top], axis=1)
    th = propagate(aux, aux, seeds, 0.1, scoring="thesis", truth=np.arange(150))
    assert th.method == "thesis" and th.correct == int((th.mapping >= 0).sum()) > 100
    assert propagate(aux, aux, seeds, 0.1).method == "sparse"
    with pytest.raises(ConfigError, match="scoring"):
        propagate(aux, aux, seeds, scoring="cosine")
