"""Algorithm 9.1 (seed 000 §2.11): k-degree anonymization by edge deletions only, through the
complement — checked against the literal algorithm on a materialised complement, against
exhaustive search over every subgraph of tiny graphs, and on a graph whose complement could
not be built."""

from __future__ import annotations

import itertools
import json

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.graph.anonymize.kdegree import (
    KDegreeInternalError,
    kdegree_anonymize,
    kdegree_subgraph,
    kdegree_supergraph,
    subgraph,
    supergraph,
    verify_kdegree,
)
from privlab.graph.anonymize.kdegree_sequence import (
    anonymize_degree_sequence,
    is_k_anonymous_sequence,
    subgraph_condition,
    supergraph_condition,
)
from privlab.graph.core import Graph


def edge_set(g: Graph) -> set[tuple[int, int]]:
    return set(map(tuple, g.edges().tolist()))


def complement(g: Graph) -> Graph:
    n = g.n_nodes
    have = edge_set(g)
    pairs = [(u, v) for u, v in itertools.combinations(range(n), 2) if (u, v) not in have]
    return Graph.from_edges(n, np.array(pairs, dtype=np.int64).reshape(-1, 2))


@st.composite
def small_graphs(draw, max_n: int = 11):
    n = draw(st.integers(2, max_n))
    pairs = list(itertools.combinations(range(n), 2))
    keep = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    edges = np.array([p for p, b in zip(pairs, keep, strict=True) if b], dtype=np.int64)
    return Graph.from_edges(n, edges.reshape(-1, 2))


# ============================================================ equals the literal algorithm
@settings(max_examples=80, deadline=None)
@given(small_graphs(), st.integers(1, 11), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_equals_supergraph_on_the_materialised_complement(g, k, probing, seed):
    """Same seed ⇒ exactly the complement of Alg 9.4 run on the complement (Alg 9.1)."""
    k = min(k, g.n_nodes)
    mine = kdegree_subgraph(g, k, probing=probing, seed=seed)
    literal = kdegree_supergraph(complement(g), k, probing=probing, seed=seed)
    assert edge_set(mine.graph) == edge_set(complement(literal.graph))
    assert (mine.probes, mine.dp_cost, mine.target_cost) == (
        literal.probes, literal.dp_cost, literal.target_cost
    )  # fmt: skip
    # the definition: k-degree anonymous, same nodes, only deletions
    assert is_k_anonymous_sequence(mine.graph.degrees(), k)
    assert mine.graph.n_nodes == g.n_nodes
    assert edge_set(mine.graph) <= edge_set(g)
    assert mine.edges_added == 0
    assert mine.edges_removed == g.n_edges - mine.graph.n_edges
    assert 2 * mine.edges_removed == mine.target_cost >= mine.dp_cost


@settings(max_examples=80, deadline=None)
@given(small_graphs(), st.integers(0, 2**32 - 1))
def test_condition_is_theorem_9_6_on_the_complement(g, seed):
    rng = np.random.default_rng(seed)
    n, d = g.n_nodes, g.degrees()
    gc = complement(g)
    for _ in range(6):
        t = d - rng.integers(0, 3, size=n)
        assert subgraph_condition(g, t) == supergraph_condition(gc, (n - 1) - t)
        out = subgraph(g, t, seed=seed)
        lit = supergraph(gc, (n - 1) - t, seed=seed)
        assert out.status == lit.status
        if out.status == "graph":
            assert np.array_equal(out.graph.degrees(), t)
            assert edge_set(out.graph) <= edge_set(g)
            assert edge_set(out.graph) == edge_set(complement(lit.graph))


# ============================================================================ optimality
def exhaustive_min_deletions(g: Graph, k: int) -> int:
    """Fewest edges whose deletion leaves a k-degree-anonymous graph (every subset tried)."""
    e = g.edges()
    n = g.n_nodes
    for r in range(e.shape[0] + 1):
        for gone in itertools.combinations(range(e.shape[0]), r):
            deg = g.degrees().astype(np.int64).copy()
            for i in gone:
                deg[e[i, 0]] -= 1
                deg[e[i, 1]] -= 1
            if is_k_anonymous_sequence(deg, k):
                return r
    raise AssertionError(f"no k-degree-anonymous subgraph of a {n}-node graph")  # pragma: no cover


def brute_force_decrease_only(d: np.ndarray, k: int) -> int:
    """Cheapest even-sum k-anonymous sequence below d (every sequence tried)."""
    grid = np.array(list(itertools.product(*(range(x + 1) for x in d))), dtype=np.int64)
    grid = grid[grid.sum(axis=1) % 2 == 0]
    s = np.sort(grid, axis=1)
    counts = (s[:, :, None] == s[:, None, :]).sum(axis=2)
    ok = counts.min(axis=1) >= k
    return int(np.abs(grid - d).sum(axis=1)[ok].min())


def test_optimum_equals_exhaustive_search_on_tiny_graphs():
    """The DP's L1 cost / 2 is a lower bound on the deletions; when no probe was needed the
    release attains it, so it is the exhaustive optimum (checked on 60 random graphs)."""
    attained = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(4, 8))
        g = Graph.from_networkx(nx.gnm_random_graph(n, int(rng.integers(3, 11)), seed=seed))
        k = int(rng.integers(2, 4))
        r = kdegree_subgraph(g, k, seed=seed)
        best = exhaustive_min_deletions(g, k)
        dc = (n - 1) - g.degrees()
        # the DP on the complement is the decrease-only optimum of G's degrees
        assert r.dp_cost == brute_force_decrease_only(g.degrees(), k)
        assert r.dp_cost == anonymize_degree_sequence(dc, k).cost
        assert r.dp_cost <= 2 * best <= 2 * r.edges_removed
        if r.probes == 0:
            assert r.edges_removed == best
            attained += 1
    assert attained >= 30  # the equality is really exercised


def test_star_hand_checked():
    """K_{1,4}, k = 2: the centre must lose 3 of its 4 edges (degrees 1,1,0,0,0); keeping
    two edges leaves degree 2 alone.  The release is one edge of the star."""
    g = Graph.from_networkx(nx.star_graph(4))
    assert exhaustive_min_deletions(g, 2) == 3
    for seed in range(6):
        r = kdegree_subgraph(g, 2, seed=seed)
        assert edge_set(r.graph) <= edge_set(g)
        assert sorted(r.graph.degrees().tolist()) in ([0, 0, 0, 1, 1], [0, 0, 0, 0, 0])
        if r.probes == 0:
            assert r.graph.n_edges == 1 and r.edges_removed == 3


# ============================================================================ scale
def test_no_dense_complement_is_built():
    """30,000 nodes: the complement would have 4.5·10⁸ edges; Alg 9.1 runs on G's edges.
    Nodes 0 and 1 (adjacent) are the only ones of degree 4 and nodes 8, 12 have degree 3:
    for k = 3 the optimum lowers 0 and 1 to 3, i.e. deletes the one edge (0, 1)."""
    n = 30_000
    star = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 5], [1, 6], [1, 7]]
    star += [[8, 9], [8, 10], [8, 11], [12, 13], [12, 14], [12, 15]]
    pairs = np.arange(16, n).reshape(-1, 2)  # the rest: a perfect matching (degree 1)
    g = Graph.from_edges(n, np.concatenate([np.array(star), pairs]))
    r = kdegree_subgraph(g, 3, seed=0)
    assert (r.probes, r.dp_cost, r.edges_removed, r.edges_added) == (0, 2, 1, 0)
    assert edge_set(g) - edge_set(r.graph) == {(0, 1)}
    assert is_k_anonymous_sequence(r.graph.degrees(), 3)


# ============================================================================ interface and errors
def test_dispatch_dict_and_errors():
    g = Graph.from_networkx(nx.les_miserables_graph())
    r = kdegree_anonymize(g, 2, method="subgraph", seed=2)
    d = r.to_dict()
    assert d["method"] == "subgraph" and d["edges_added"] == 0 and d["smallest_class"] >= 2
    assert np.array_equal(r.graph.labels, g.labels)
    with pytest.raises(ConfigError, match="exceeds the number of nodes"):
        kdegree_subgraph(g, g.n_nodes + 1)
    with pytest.raises(ConfigError, match="probing"):
        kdegree_subgraph(g, 2, probing=7)
    with pytest.raises(InputError, match="undirected"):
        kdegree_subgraph(Graph.from_edges(3, [(0, 1), (1, 2)], directed=True), 2)
    star = Graph.from_networkx(nx.star_graph(5))  # the first DP sequence needs probing
    with pytest.raises(InfeasibleError, match="max_probes = 0"):
        kdegree_subgraph(star, 2, max_probes=0, seed=1)
    assert kdegree_subgraph(star, 2, seed=1).probes >= 1
    with pytest.raises(InputError, match="target"):
        subgraph(g, [1, 2, 3])


def test_verify_refuses_an_added_edge():
    g = Graph.from_edges(4, [(0, 1), (2, 3)])
    bigger = Graph.from_edges(4, [(0, 1), (2, 3), (0, 2), (1, 3)])
    with pytest.raises(KDegreeInternalError, match="not in the input"):
        verify_kdegree(bigger, g, 1, subgraph=True)
    verify_kdegree(g, bigger, 1, subgraph=True)


def test_cli_method_subgraph(tmp_path):
    from typer.testing import CliRunner

    from privlab.cli.main import app
    from privlab.graph.core import read_graph, write_graph

    src, out = tmp_path / "karate.txt", tmp_path / "out.txt"
    write_graph(Graph.from_networkx(nx.karate_club_graph()), src)
    res = CliRunner().invoke(app, ["graph", "anonymize", str(src), "-s", "kdegree", "-k", "3",
                                   "--method", "subgraph", "-o", str(out), "--seed", "4",
                                   "--json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    before, after = read_graph(src).graph, read_graph(out).graph
    assert is_k_anonymous_sequence(after.degrees(), 3)

    details = json.loads(res.stdout)["details"]
    assert details["method"] == "subgraph" and details["edges_added"] == 0
    assert after.n_edges == before.n_edges - details["edges_removed"] < before.n_edges
