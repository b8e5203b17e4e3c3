"""Error proximity and 2-hop overlap (Sharad §2.12, §3.4.5): hand-checked cases, networkx
cross-checks on random pairs, and the CLI."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.errors import InputError
from privlab.graph.attacks.mapping_errors import (
    composite_graph,
    error_proximity,
    mapping_errors,
    two_hop_jaccard,
)
from privlab.graph.core import Graph


def path(n: int) -> Graph:
    return Graph.from_edges(n, [(i, i + 1) for i in range(n - 1)])


def test_on_a_path_a_wrong_match_is_as_far_as_the_true_node():
    g = path(6)
    truth = np.arange(6)
    d = error_proximity(g, g, truth, np.array([[0, 0], [0, 1], [0, 3], [5, 0]]))
    assert d.tolist() == [0, 1, 3, 5]
    assert error_proximity(g, g, truth, np.array([[5, 0]]), max_hops=4).tolist() == [-1]


def test_the_composite_merges_common_nodes_and_appends_the_others():
    aux = Graph.from_edges(3, [(0, 1), (1, 2)])
    san = Graph.from_edges(3, [(0, 1), (1, 2)])  # san 0 = aux 2, san 1 = aux 1, san 2 is new
    comp = composite_graph(aux, san, np.array([-1, 1, 0]))
    assert comp.san_id.tolist() == [2, 1, 3]
    assert comp.graph.n_nodes == 4 and comp.graph.n_edges == 3  # (1,2) is in both graphs
    # aux 0 and san 2 meet only through the merged node 1: distance 2
    assert error_proximity(aux, san, np.array([-1, 1, 0]), np.array([[0, 2]])).tolist() == [2]


def test_identical_graphs_overlap_fully_and_disjoint_surroundings_not_at_all():
    g = path(5)
    jc = two_hop_jaccard(g, g, np.arange(5), np.array([[i, i] for i in range(5)]))
    assert np.allclose(jc, 1.0)
    # node 0's 2-hop set is {1, 2}; node 4's is {2, 3}: Jaccard 1/3
    assert two_hop_jaccard(g, g, np.arange(5), np.array([[0, 4]])).tolist() == [
        pytest.approx(1 / 3)
    ]
    lonely = Graph.from_edges(2, [])
    assert two_hop_jaccard(lonely, lonely, np.arange(2), np.array([[0, 1]])).tolist() == [0.0]


def _random_pair(data):
    n = data.draw(st.integers(3, 14))
    edges = data.draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=30))
    e1 = [(a, b) for a, b in edges if a < b]
    edges2 = data.draw(
        st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=30)
    )
    e2 = [(a, b) for a, b in edges2 if a < b]
    truth = np.array(data.draw(st.permutations(range(n))), dtype=np.int64)
    truth[data.draw(st.lists(st.integers(0, n - 1), max_size=n // 2))] = -1
    return Graph.from_edges(n, e1), Graph.from_edges(n, e2), truth


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_distances_and_overlaps_match_networkx_on_random_pairs(data):
    aux, san, truth = _random_pair(data)
    comp = composite_graph(aux, san, truth)
    nxg = comp.graph.to_networkx()
    pairs = np.array([[u, v] for u in range(aux.n_nodes) for v in range(san.n_nodes)])
    d = error_proximity(aux, san, truth, pairs, max_hops=3)
    jc = two_hop_jaccard(aux, san, truth, pairs, batch=7)
    for (u, v), got, j in zip(pairs, d, jc, strict=True):
        a, b = int(comp.aux_id[u]), int(comp.san_id[v])
        try:
            want = nx.shortest_path_length(nxg, a, b)
        except nx.NetworkXNoPath:
            want = -1
        assert got == (want if want <= 3 else -1)
        assert (got == 0) == (truth[u] == v)
        near_a = set(nx.single_source_shortest_path_length(aux.to_networkx(), int(u), 2)) - {int(u)}
        near_b = set(nx.single_source_shortest_path_length(san.to_networkx(), int(v), 2)) - {int(v)}
        sa = {int(comp.aux_id[x]) for x in near_a}
        sb = {int(comp.san_id[x]) for x in near_b}
        union = sa | sb
        assert j == pytest.approx(len(sa & sb) / len(union) if union else 0.0)


def test_mapping_errors_sorts_true_pairs_by_outcome_and_leaves_seeds_out():
    g = path(6)
    truth = np.arange(6)
    mapping = np.array([[0, 0], [1, 1], [2, 3], [3, 2]])  # a seed, a find, a swapped pair
    out = mapping_errors(g, g, truth, mapping, seeds=np.array([[0, 0]]))
    assert out.outputs == 3 and out.proximity == {0: 1, 1: 2}
    assert {k: v["pairs"] for k, v in out.overlap.items()} == {
        "correct": 1,
        "wrong": 2,
        "unmapped": 2,
    }
    assert json.loads(json.dumps(out.to_dict()))["proximity"] == {"0": 1, "1": 2}


def test_bad_mappings_and_truths_are_refused():
    g = path(4)
    with pytest.raises(InputError, match="outside"):
        mapping_errors(g, g, np.arange(4), np.array([[0, 9]]))
    with pytest.raises(InputError, match="one entry per aux node"):
        mapping_errors(g, g, np.arange(3), np.array([[0, 0]]))
    with pytest.raises(InputError, match="two aux nodes"):
        mapping_errors(g, g, np.array([0, 0, 1, 2]), np.array([[0, 0]]))


def test_cli_reports_proximity_and_overlap(tmp_path):
    src = tmp_path / "g.txt"
    rng = np.random.default_rng(3)
    edges = {tuple(sorted(rng.choice(60, 2, replace=False))) for _ in range(240)}
    src.write_text("".join(f"{a}\t{b}\n" for a, b in sorted(edges)))
    runner = CliRunner()
    made = runner.invoke(app, ["graph", "pair", str(src), "--alpha-v", "0.8", "--alpha-e", "0.7",
                               "--seed", "1", "-o", str(tmp_path / "pair"), "--quiet"])  # fmt: skip
    assert made.exit_code == 0, made.output
    mapped = runner.invoke(app, ["graph", "attack", "yg", str(tmp_path / "pair"), "--seeds", "6",
                                 "-o", str(tmp_path / "m.csv"), "--quiet", "--json"])  # fmt: skip
    assert mapped.exit_code == 0, mapped.output
    res = runner.invoke(app, ["graph", "attack", "errors", str(tmp_path / "pair"),
                              str(tmp_path / "m.csv"), "--json", "--quiet"])  # fmt: skip
    assert res.exit_code == 0, res.output
    payload = json.loads(res.stdout)
    correct = json.loads(mapped.stdout)["correct"]
    assert payload["proximity"].get("0", 0) == correct
    assert (
        sum(payload["proximity"].values())
        == payload["outputs"]
        == json.loads(mapped.stdout)["mapped"]
    )
    table = runner.invoke(app, ["graph", "attack", "errors", str(tmp_path / "pair"),
                                str(tmp_path / "m.csv"), "--quiet"])  # fmt: skip
    assert table.exit_code == 0 and "error proximity" in table.stdout
    assert not list(tmp_path.glob("*.tmp*"))
