"""Fuzzing the graph readers: SNAP edge lists, GraphML and GML (privlab.graph.core.read_graph).

The edge-list format is growing (one-field lines for isolated nodes, a third column), so
mutated files are held to the error contract only — PrivlabError or success — and the round
trip is checked for plain two-column files, which every version of the format reads.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import networkx as nx
from hypothesis import strategies as st

from privlab.graph.core import GraphFile, read_graph
from privlab.io.edgelist import read_edges, read_markup
from tests.fuzz.fuzzing import fuzzes, mutated, raw_bytes, rejects_cleanly, run_cli

_TMP = Path(tempfile.mkdtemp(prefix="privlab-fuzz-graphs-"))


def _file(name: str, data: bytes) -> Path:
    path = _TMP / name
    path.write_bytes(data)
    return path


#: Node ids: SNAP's integers, or any tokens.
_IDS = st.integers(0, 60).map(str), st.sampled_from(["a", "b", "node-1", "é", "x_y", "7"])


@st.composite
def edge_lists(draw: st.DrawFn) -> tuple[bytes, list[tuple[str, str]]]:
    """A well-formed edge list (comments, blank lines, tabs or spaces, LF or CRLF) and its
    edges, loops and repeats included."""
    ids = draw(st.sampled_from(_IDS))
    edges = draw(st.lists(st.tuples(ids, ids), min_size=1, max_size=30))
    lines = []
    if draw(st.booleans()):
        lines.append("# Undirected graph: a comment")
    for u, v in edges:
        sep = draw(st.sampled_from(["\t", " ", "  ", " \t"]))
        lines.append(f"{u}{sep}{v}")
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(["", "% comment", "  ", "#"])))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    return (end.join(lines) + end).encode("utf-8"), edges


def _expected(edges: list[tuple[str, str]]) -> set[frozenset[str]]:
    """The simple undirected graph of ``edges``, with integer ids compared as integers."""
    numeric = all(t.isdigit() for e in edges for t in e)
    norm = (lambda t: str(int(t))) if numeric else str
    return {frozenset((norm(u), norm(v))) for u, v in edges if norm(u) != norm(v)}


@fuzzes("edges_valid", edge_lists())
def test_edge_lists_read_back(case):
    data, edges = case
    read = read_graph(_file("valid.txt", data))
    labels = [str(x) for x in read.graph.labels.tolist()]
    got = {frozenset((labels[u], labels[v])) for u, v in read.graph.edges().tolist()}
    assert got == _expected(edges)
    assert read.report.self_loops + read.report.duplicates + len(got) == len(edges)


@fuzzes("edges_mutated", edge_lists().flatmap(lambda c: mutated(c[0], separators=b"\t ")),
        st.booleans())  # fmt: skip
def test_edge_lists_mutated_fail_cleanly(data, directed):
    result = rejects_cleanly(read_graph, _file("mutated.txt", data), directed=directed)
    if isinstance(result, GraphFile):  # what was read is a simple graph on its labels
        assert result.graph.n_nodes == len(result.graph.labels)


@fuzzes("edges_bytes", raw_bytes())
def test_edge_lists_random_bytes_fail_cleanly(data):
    rejects_cleanly(read_edges, _file("bytes.txt", data))


def _markup(fmt: str) -> bytes:
    g = nx.Graph()
    g.add_edges_from([(0, 1), (1, 2), (2, 0), (2, 3)])
    g.add_node(4)
    g.nodes[0]["name"] = "a"
    g.edges[0, 1]["weight"] = 1.5
    lines = nx.generate_graphml(g) if fmt == "graphml" else nx.generate_gml(g)
    return "\n".join(lines).encode("utf-8")


@fuzzes("graphml_mutated", mutated(_markup("graphml"), separators=b" <>=") | raw_bytes())
def test_graphml_mutated_fails_cleanly(data):
    rejects_cleanly(read_markup, _file("g.graphml", data))


@fuzzes("gml_mutated", mutated(_markup("gml"), separators=b" []") | raw_bytes())
def test_gml_mutated_fails_cleanly(data):
    rejects_cleanly(read_graph, _file("g.gml", data))


def test_the_markup_seeds_read():
    for fmt in ("graphml", "gml"):
        read = read_graph(_file(f"seed.{fmt}", _markup(fmt)))
        assert (read.graph.n_nodes, read.graph.n_edges) == (5, 4)


# ---------------------------------------------------------------------------- the CLI


@fuzzes("cli_graph_utility",
        st.sampled_from(["txt", "graphml", "gml"]).flatmap(lambda s: st.tuples(st.just(s), (
            edge_lists().flatmap(lambda c: mutated(c[0])) if s == "txt"
            else mutated(_markup(s))) | raw_bytes(200))))  # fmt: skip
def test_cli_graph_utility_on_fuzzed_files(case):
    suffix, data = case
    path = _file(f"cli.{suffix}", data)
    run_cli(["graph", "utility", path, path, "-m", "nodes", "-m", "edges", "-m", "density"])
