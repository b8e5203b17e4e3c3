"""Graph core: CSR construction, SNAP reading with reported clean-up, conversions, naive
anonymization."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InputError
from privlab.graph.anonymize.naive import naive_anonymize
from privlab.graph.core import Graph, read_graph, write_graph
from privlab.io.edgelist import simplify_edges


@given(st.integers(1, 30), st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=80),
       st.booleans())  # fmt: skip
@settings(max_examples=80)
def test_csr_matches_networkx(n, pairs, directed):
    pairs = [(u % n, v % n) for u, v in pairs]
    simple = simplify_edges(np.array(pairs, dtype=np.int64).reshape(-1, 2), directed=directed)
    g = Graph.from_edges(n, simple.edges, directed=directed)
    ref = (nx.DiGraph if directed else nx.Graph)()
    ref.add_nodes_from(range(n))
    ref.add_edges_from((u, v) for u, v in pairs if u != v)
    assert g.n_edges == ref.number_of_edges()
    degrees = [d for _, d in (ref.out_degree() if directed else ref.degree())]
    assert g.degrees().tolist() == degrees
    for u, v in ref.edges():
        assert g.has_edge(u, v)
    assert len(simple.self_loops) == sum(u == v for u, v in pairs)
    back = Graph.from_networkx(g.to_networkx())
    assert np.array_equal(back.edges(), g.edges())
    via_igraph = Graph.from_igraph(g.to_igraph())
    assert np.array_equal(via_igraph.edges(), g.edges())


def test_reader_reports_loops_and_duplicates_with_lines(tmp_path):
    path = tmp_path / "g.txt"
    path.write_bytes(b"# comment\r\n1\t2\r\n2 1\r\n3 3\r\n\r\n2   4\r\n")
    r = read_graph(path)
    assert r.graph.n_nodes == 4 and r.graph.n_edges == 2
    assert r.graph.labels.tolist() == [1, 2, 3, 4]  # node 3 kept, isolated
    assert (r.report.duplicates, r.report.first_duplicate_line) == (1, 3)
    assert (r.report.self_loops, r.report.first_self_loop_line) == (1, 4)
    assert len(r.report.warnings()) == 2
    directed = read_graph(path, directed=True)
    assert directed.graph.n_edges == 3 and directed.report.duplicates == 0


def test_string_ids_and_round_trip(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("alice bob\nbob carol\n")
    g = read_graph(path).graph
    assert g.labels.tolist() == ["alice", "bob", "carol"]
    out = write_graph(g, tmp_path / "out.txt")
    again = read_graph(out).graph
    assert np.array_equal(again.edges(), g.edges()) and again.labels.tolist() == g.labels.tolist()


def test_from_edges_refuses_loops_and_out_of_range():
    with pytest.raises(InputError, match="self-loop"):
        Graph.from_edges(3, [[0, 0]])
    with pytest.raises(InputError, match="repeated"):
        Graph.from_edges(3, [[0, 1], [1, 0]])
    with pytest.raises(InputError, match=r"outside 0\.\.2"):
        Graph.from_edges(3, [[0, 5]])
    with pytest.raises(InputError, match="undirected"):
        Graph.from_edges(2, [[0, 1]], directed=True).require_undirected("RSW")


def test_naive_anonymization_is_an_isomorphism_with_random_ids():
    g = Graph.from_networkx(nx.karate_club_graph())
    r = naive_anonymize(g, seed=1)
    # mapping[new] = old turns the release back into the original
    back = r.mapping[r.graph.edges()]
    assert {tuple(sorted(e)) for e in back.tolist()} == {tuple(e) for e in g.edges().tolist()}
    assert r.graph.labels is None
    assert np.array_equal(np.sort(r.graph.degrees()), np.sort(g.degrees()))


def test_naive_anonymization_keeps_few_original_edges(facebook_graph):
    # a uniformly random relabelling keeps an edge with its ids with probability ≈ density
    g = facebook_graph
    kept = []
    for seed in range(3):
        r = naive_anonymize(g, seed=seed)
        e = r.graph.edges()
        kept.append(np.mean([g.has_edge(int(u), int(v)) for u, v in e[:5000]]))
    assert np.mean(kept) < 5 * g.density() + 0.01


@pytest.mark.parametrize("suffix", ["graphml", "gml"])
def test_graphml_and_gml_are_read_with_loops_reported(tmp_path, suffix):
    g = nx.karate_club_graph()
    g.add_edge(0, 0)
    path = tmp_path / f"k.{suffix}"
    (nx.write_graphml if suffix == "graphml" else nx.write_gml)(g, path)
    r = read_graph(path)
    assert r.graph.n_nodes == 34 and r.graph.n_edges == 78
    assert r.report.self_loops == 1


def test_malformed_graphml_is_named(tmp_path):
    path = tmp_path / "bad.graphml"
    path.write_text("<graphml><graph><node id='a'/><edge source='a'")
    with pytest.raises(InputError, match=r"bad\.graphml: cannot read GRAPHML"):
        read_graph(path)


def test_induced_subgraph_relabels_in_the_given_order():
    import networkx as nx

    g = Graph.from_edges(6, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (0, 5), (1, 4)])
    nodes = [4, 1, 2, 5]
    sub = g.induced(nodes)
    want = nx.relabel_nodes(g.to_networkx().subgraph(nodes), {v: i for i, v in enumerate(nodes)})
    assert sub.n_nodes == 4 and not sub.directed and sub.labels is None
    assert {tuple(sorted(e)) for e in sub.edges().tolist()} == {
        tuple(sorted(e)) for e in want.edges()
    }
    assert all(np.all(np.diff(sub.neighbors(v)) > 0) for v in range(sub.n_nodes))
