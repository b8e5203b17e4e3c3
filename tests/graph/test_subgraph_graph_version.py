"""Graph version of subgraph knowledge (seed 002 L336–349, ``mode="graph"``): the merged
pattern, a triangle against a hexagon (tree and graph versions differ), brute force over
injective maps, graph candidates ⊆ tree candidates with the true node kept, and the CLI."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.errors import ConfigError
from privlab.graph.attacks.subgraph import (
    SubgraphMatcher,
    gather_edge_facts,
    subgraph_candidates,
    subgraph_knowledge_experiment,
)
from privlab.graph.core import Graph
from tests.graph.test_subgraph import graphs

# a triangle {0,1,2} and a hexagon {3..8}: 2-regular, so the tree version never tells apart
TRI_HEX = [(0, 1), (1, 2), (2, 0)] + [(3 + i, 3 + (i + 1) % 6) for i in range(6)]


def tri_hex() -> Graph:
    return Graph.from_edges(9, np.array(TRI_HEX))


def brute_force_graph(g: Graph, facts) -> np.ndarray:
    """Every injective map of the merged people into g, checked against the definition."""
    _, edges, exact, degree = facts.merged()
    deg = g.degrees()
    k = exact.size
    out = np.zeros(g.n_nodes, dtype=bool)
    for phi in itertools.permutations(range(g.n_nodes), k):
        if out[phi[0]]:
            continue
        ok = all((deg[phi[i]] == degree[i]) if exact[i] else (deg[phi[i]] >= degree[i])
                 for i in range(k))  # fmt: skip
        if ok and all(g.has_edge(phi[a], phi[b]) for a, b in edges.tolist()):
            out[phi[0]] = True
    return out


def test_merged_pattern_of_a_triangle():
    f = gather_edge_facts(tri_hex(), 0, 4)
    # tree: 0 -> 1, 0 -> 2, then 1 -> 2' and 2 -> 1' (the triangle edge seen from both ends)
    assert f.node.tolist() == [0, 1, 2, 2, 1]
    people, edges, exact, degree = f.merged()
    assert people.tolist() == [0, 1, 2]
    assert edges.tolist() == [[0, 1], [0, 2], [1, 2]]  # one edge, though revealed twice
    assert exact.tolist() == [True, True, True] and degree.tolist() == [2, 2, 2]


def test_triangle_and_hexagon_differ_between_versions():
    g = tri_hex()
    for b in range(0, 9):
        for x in (0, 3):
            f = gather_edge_facts(g, x, b)
            tree = subgraph_candidates(g, f).tolist()
            graph = subgraph_candidates(g, f, mode="graph").tolist()
            assert tree == list(range(9))  # 2-regular: every unfolding tree is the same
            if b <= 2:  # a star (≤ 2 edges at the target): the versions agree
                assert graph == tree
            elif x == 0:  # the triangle closed: only triangle nodes carry a triangle
                assert graph == [0, 1, 2]
            else:  # a path of 4 distinct people cannot fit in the triangle
                assert graph == [3, 4, 5, 6, 7, 8]


def test_cousins_must_be_distinct_people():
    """Tree version allows two cousins on one node; the graph version does not."""
    # y = 0 with neighbours 1, 2 sharing the single further neighbour 3 (a 4-cycle);
    # x = 4 with neighbours 5, 6 that each have their own further neighbour 7, 8.
    g = Graph.from_edges(9, np.array([(0, 1), (0, 2), (1, 3), (2, 3),
                                      (4, 5), (4, 6), (5, 7), (6, 8)]))  # fmt: skip
    f = gather_edge_facts(g, 4, 4, exact_degrees=False)
    assert sorted(f.node.tolist()) == [4, 5, 6, 7, 8]
    assert 0 in subgraph_candidates(g, f).tolist()  # 7 and 8 both mapped to node 3
    assert subgraph_candidates(g, f, mode="graph").tolist() == [4]


@settings(max_examples=40, deadline=None)
@given(graphs(max_n=9), st.integers(0, 6), st.booleans(), st.integers(0, 50))
def test_graph_version_equals_brute_force(g, b, exact, seed):
    m = SubgraphMatcher(g)
    for x in range(min(g.n_nodes, 3)):
        f = gather_edge_facts(g, x, b, exact_degrees=exact, seed=seed)
        if f.merged()[0].size > 6:
            continue
        got = m.candidate_mask(f, mode="graph")
        assert np.array_equal(got, brute_force_graph(g, f))


@settings(max_examples=40, deadline=None)
@given(graphs(max_n=14), st.booleans(), st.integers(0, 50))
def test_graph_candidates_within_tree_candidates_and_keep_the_target(g, exact, seed):
    m = SubgraphMatcher(g)
    for x in range(g.n_nodes):
        for b in (1, 2, 5, 10):
            f = gather_edge_facts(g, x, b, exact_degrees=exact, seed=seed)
            tree = m.candidate_mask(f)
            graph = m.candidate_mask(f, mode="graph")
            assert graph[x]
            assert not (graph & ~tree).any()
            # backtracking as the tree pre-filter gives the same answer
            assert np.array_equal(graph, m.candidate_mask(f, method="backtrack", mode="graph"))


def test_experiment_graph_mode_and_bad_mode():
    g = tri_hex()
    tree = subgraph_knowledge_experiment(g, 4)
    graph = subgraph_knowledge_experiment(g, 4, mode="graph")
    assert graph.mode == "graph" and graph.to_dict()["mode"] == "graph"
    assert tree.sizes[:, 4].tolist() == [9] * 9
    assert graph.sizes[:, 4].tolist() == [3] * 3 + [6] * 6
    assert (graph.sizes <= tree.sizes).all()
    with pytest.raises(ConfigError, match="mode = 'induced'"):
        subgraph_knowledge_experiment(g, 2, mode="induced")
    with pytest.raises(ConfigError, match="mode"):
        SubgraphMatcher(g).candidates(gather_edge_facts(g, 0, 1), mode="")


def test_cli_graph_mode(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("".join(f"{a}\t{b}\n" for a, b in TRI_HEX))
    runner = CliRunner()
    out = {}
    for mode in ("tree", "graph"):
        r = runner.invoke(app, ["graph", "attack", "subgraph", str(path), "--facts", "4",
                                "--mode", mode, "--json"])  # fmt: skip
        assert r.exit_code == 0, r.output
        out[mode] = json.loads(r.stdout)
        assert out[mode]["mode"] == mode
    # buckets [1], [2,4], [5,10], [11,20], [21,∞): tree: all 9 alike; graph: 3 + 6
    assert out["tree"]["buckets"][4]["counts"] == [0, 0, 9, 0, 0]
    assert out["graph"]["buckets"][4]["counts"] == [0, 3, 6, 0, 0]
    r = runner.invoke(app, ["graph", "attack", "subgraph", str(path), "--mode", "induced"])
    assert r.exit_code == 2 and "mode" in r.output


def bench_spec() -> str:
    """Two experiments on the same generated graph, same cells, differing only in the mode."""
    fields = {"data": '"synthetic:powerlaw"', "data_options": "{ n = 80, m = 2 }",
              "schemes": '["none"]', "parameter": '"edge_facts"', "values": "[8]",
              "attacks": '["subgraph"]'}  # fmt: skip
    parts = ['[spec]\nname = "subgraph-modes"\n']
    for mode in ("tree", "graph"):
        body = "".join(f"{k} = {v}\n" for k, v in fields.items())
        opts = f'options = {{ exact_degrees = true, mode = "{mode}" }}\n'
        parts.append(f'[[experiment]]\nname = "{mode}"\n{body}{opts}')
    return "\n".join(parts)


def test_bench_subgraph_attack_takes_the_mode(tmp_path):
    import polars as pl

    from privlab.bench import parse_text, run_spec

    run_spec(parse_text(bench_spec(), "modes.toml"), tmp_path)
    res = pl.read_csv(tmp_path / "results.csv")

    def metric(mode: str, name: str) -> float:
        row = res.filter((pl.col("experiment") == mode) & (pl.col("metric") == name))
        return row["result"].item()

    # the same targets and exploration seed in both experiments: graph sets ⊆ tree sets
    assert metric("graph", "subgraph_bucket_1") >= metric("tree", "subgraph_bucket_1")
    assert metric("graph", "subgraph_median_size") <= metric("tree", "subgraph_median_size")
    # and the option reaches the library: on this graph the graph version splits large sets
    assert metric("graph", "subgraph_bucket_21+") < metric("tree", "subgraph_bucket_21+")
