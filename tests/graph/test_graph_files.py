"""Graph files keep every node: edge lists with one-id lines, the header's node count,
GraphML / GML output, extra columns, and the errors that name the line."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InputError
from privlab.graph.core import Graph, read_graph, write_graph
from privlab.io.edgelist import integer_ids

# an edge-list id: one word, no ',' or ';', not starting with # or %
# no NUL: numpy's fixed-width strings drop trailing NULs, so "\x00" would become the empty label
_WORD = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters=",;\x00"),
    min_size=1,
    max_size=8,
).filter(lambda t: t[0] not in "#%" and not any(c.isspace() for c in t))
# a GraphML / GML id: any text XML can hold (tabs and line breaks included)
_XML_TEXT = st.text(
    st.characters(blacklist_categories=("Cs",)).filter(
        lambda c: c in "\t\n\r" or (c >= " " and c not in "\ufffe\uffff")
    ),
    max_size=8,
)


@st.composite
def labelled_graphs(draw, label_text=_WORD, directed=None):
    """A random simple graph with nodes of degree 0 and labels: none, integers or text."""
    n = draw(st.integers(1, 25))
    kind = draw(st.sampled_from(["none", "int", "text"]))
    labels = None
    if kind == "int":
        labels = np.array(draw(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=n,
                                        max_size=n, unique=True)))  # fmt: skip
    elif kind == "text":
        labels = np.array(draw(st.lists(label_text, min_size=n, max_size=n, unique=True)))
    is_directed = draw(st.booleans()) if directed is None else directed
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40))
    g = (nx.DiGraph if is_directed else nx.Graph)()
    g.add_nodes_from(range(n))
    g.add_edges_from((u, v) for u, v in pairs if u != v)
    edges = np.array(list(g.edges()), dtype=np.int64).reshape(-1, 2)
    return Graph.from_edges(n, edges, directed=is_directed, labels=labels)


def _ids(g: Graph) -> list[str]:
    return [str(v) for v in (g.labels.tolist() if g.labels is not None else range(g.n_nodes))]


def _edge_set(g: Graph) -> set:
    ids = _ids(g)
    pairs = [(ids[u], ids[v]) for u, v in g.edges().tolist()]
    return set(pairs) if g.directed else {frozenset(p) for p in pairs}


def assert_same_graph(back: Graph, g: Graph) -> None:
    """Same node ids (as text; integers stay integers), same edges between them."""
    assert back.n_nodes == g.n_nodes
    assert sorted(_ids(back)) == sorted(_ids(g))
    assert _edge_set(back) == _edge_set(g)
    if g.labels is None or g.labels.dtype.kind == "i":
        assert back.labels.dtype.kind == "i"


@given(labelled_graphs())
@settings(max_examples=120)
def test_edge_list_round_trip_keeps_every_node_label_and_edge(tmp_path_factory, g):
    path = tmp_path_factory.mktemp("rt") / "g.txt"
    write_graph(g, path, header="a header\nof two lines")
    read = read_graph(path, directed=g.directed)
    # ids come back as integers exactly when every one is written as an integer (documented)
    all_int = integer_ids(np.array(_ids(g))) is not None
    assert (read.graph.labels.dtype.kind == "i") == all_int
    assert_same_graph(read.graph, g)
    assert read.report.warnings() == []
    assert read.report.isolated == int((g.degrees() + g.in_degrees() * g.directed == 0).sum())


@pytest.mark.parametrize("suffix", ["graphml", "gml"])
@given(g=labelled_graphs(label_text=_XML_TEXT))
@settings(max_examples=60)
def test_graphml_and_gml_round_trip_keeps_every_node(tmp_path_factory, suffix, g):
    path = tmp_path_factory.mktemp("rt") / f"g.{suffix}"
    write_graph(g, path)
    back = read_graph(path, directed=g.directed).graph
    assert_same_graph(back, g)
    assert _ids(back) == _ids(g)  # markup keeps the node order too


def test_isolated_nodes_are_one_id_lines_that_networkx_skips(tmp_path):
    g = Graph.from_edges(6, [[0, 1], [1, 2]], labels=np.array([10, 11, 12, 13, 14, 15]))
    path = write_graph(g, tmp_path / "g.txt")
    lines = path.read_text().splitlines()
    assert lines[0] == "# Undirected graph: Nodes: 6 Edges: 2"
    assert lines[-4:] == ["# Nodes without edges, one id per line:", "13", "14", "15"]
    assert read_graph(path).graph.n_nodes == 6
    other = nx.read_edgelist(path, nodetype=int)  # the edges survive in networkx
    assert {frozenset(e) for e in other.edges()} == {frozenset((10, 11)), frozenset((11, 12))}


def test_header_count_restores_isolated_nodes_of_older_files(tmp_path):
    path = tmp_path / "old.txt"  # privlab before one-id lines: 3 and 5 have no line
    path.write_text("# privlab graph anonymize --scheme rsp\n"
                    "# Undirected graph: Nodes: 6 Edges: 3\n0\t1\n1\t2\n0\t4\n")  # fmt: skip
    read = read_graph(path)
    assert read.graph.n_nodes == 6 and read.graph.labels.tolist() == list(range(6))
    assert read.graph.degrees().tolist() == [2, 2, 1, 0, 1, 0]
    assert read.report.nodes_from_header == 2
    assert "the other 2 are read as nodes without edges" in read.report.warnings()[0]


def test_header_count_that_cannot_be_honoured_is_reported(tmp_path):
    path = tmp_path / "ids.txt"  # ids not in 0..N−1: the missing nodes are unknown
    path.write_text("# Nodes: 5 Edges: 2\n100\t200\n200\t300\n")
    read = read_graph(path)
    assert read.graph.n_nodes == 3
    assert "counts 5 nodes but the file names 3" in " ".join(read.report.warnings())


def test_weighted_and_three_column_lists_are_read_with_a_note(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("# u v weight\n1 2 0.5\n2 3 1.5 1700000000\n3 4\n7\n")
    read = read_graph(path)
    assert read.graph.labels.tolist() == [1, 2, 3, 4, 7]
    assert read.graph.n_edges == 3 and read.graph.degrees()[-1] == 0
    assert (read.report.extra_columns, read.report.first_extra_column_line) == (2, 2)
    assert (
        "ignored the columns after the two node ids on 2 line(s), first on line 2"
        in (read.report.warnings()[0])
    )


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("1 2\n2,3\n", r"bad\.txt, line 2: '2,3'"),
        ("1;2\n", r"bad\.txt, line 1: .*contain no ',' or ';'"),
        ("# c\nsource target\n1 2\n2 3\n", r"bad\.txt, line 2: 'source target' is not node ids"),
        ("# only comments\n\n", r"bad\.txt: no nodes or edges"),
    ],
)
def test_malformed_lines_are_named(tmp_path, content, match):
    path = tmp_path / "bad.txt"
    path.write_text(content)
    with pytest.raises(InputError, match=match):
        read_graph(path)


def test_words_everywhere_are_ids_not_a_header(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("alice bob\nbob carol\ndave\n")
    g = read_graph(path).graph
    assert g.labels.tolist() == ["alice", "bob", "carol", "dave"] and g.n_edges == 2


def test_padded_integers_stay_distinct_text_ids(tmp_path):
    path = tmp_path / "pad.txt"  # 007 and 7 are two people, not one
    path.write_text("007 7\n7 8\n")
    g = read_graph(path).graph
    assert g.labels.tolist() == ["007", "7", "8"] and g.n_edges == 2


@pytest.mark.parametrize("label", ["two words", "", "#x", "a,b"])
def test_a_label_no_edge_list_can_hold_is_refused_and_nothing_written(tmp_path, label):
    g = Graph.from_edges(2, [[0, 1]], labels=np.array(["ok", label], dtype=object))
    with pytest.raises(InputError, match=r"write GraphML instead \(g\.graphml\)"):
        write_graph(g, tmp_path / "g.txt")
    assert list(tmp_path.iterdir()) == []
    write_graph(g, tmp_path / "g.graphml")
    assert sorted(_ids(read_graph(tmp_path / "g.graphml").graph)) == sorted(["ok", label])


def test_words_on_the_first_edge_only_are_not_taken_for_a_header(tmp_path):
    g = Graph.from_edges(4, [[0, 1], [2, 3]], labels=np.array(["a", "b", "1", "2"]))
    back = read_graph(write_graph(g, tmp_path / "g.txt")).graph
    assert_same_graph(back, g)


def test_a_label_xml_cannot_hold_is_refused(tmp_path):
    g = Graph.from_edges(2, [[0, 1]], labels=np.array(["ok", "bell\x07"]))
    with pytest.raises(InputError, match="no control characters"):
        write_graph(g, tmp_path / "g.graphml")
    assert list(tmp_path.iterdir()) == []


def test_labels_equal_as_text_are_refused(tmp_path):
    g = Graph.from_edges(2, [[0, 1]], labels=np.array([1, "1"], dtype=object))
    with pytest.raises(InputError, match="two nodes have the label '1'"):
        write_graph(g, tmp_path / "g.graphml")


def test_write_graph_takes_networkx_and_igraph_graphs(tmp_path):
    import igraph as ig

    g = nx.path_graph(["a", "b", "c"])
    g.add_node("lonely")
    back = read_graph(write_graph(g, tmp_path / "nx.txt")).graph
    assert sorted(_ids(back)) == ["a", "b", "c", "lonely"] and back.n_edges == 2
    h = ig.Graph(n=5, edges=[(0, 1)])
    assert read_graph(write_graph(h, tmp_path / "ig.graphml")).graph.n_nodes == 5


@pytest.mark.parametrize("count", ["99999999999999999999999", str(2**40)])
def test_a_huge_header_count_is_reported_not_allocated(tmp_path, count):
    path = tmp_path / "huge.txt"
    path.write_text(f"# Nodes: {count} Edges: 1\n0 1\n")
    read = read_graph(path)
    assert read.graph.n_nodes == 2 and read.report.nodes_from_header == 0
