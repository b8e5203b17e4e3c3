"""``graph anonymize --scheme k-neighbourhood`` and ``graph pair --scheme k-neighbourhood``:
the written release passes the definition check and keeps the input's edges; bad input
exits 2 and writes nothing."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from privlab.graph.anonymize.neighbourhood import verify_k_neighbourhood
from privlab.graph.core import Graph, read_graph, write_graph
from tests.cli.test_graph_attack_cli import _ok, _run


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("graphs") / "g.txt"
    g = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 6), (3, 7), (6, 7)])
    write_graph(Graph.from_networkx(g), path)
    return path


def test_anonymize_release_passes_the_definition(graph_file, tmp_path):
    out, key = tmp_path / "r.txt", tmp_path / "m.csv"
    summary = _ok("anonymize", graph_file, "-s", "k-neighbourhood", "--k", 2, "-o", out,
                  "--mapping", key, "--seed", 1)  # fmt: skip
    details = summary["details"]
    assert summary["scheme"] == "k-neighbourhood" and details["verified"] is True
    release = read_graph(out).graph
    assert verify_k_neighbourhood(release, 2).ok
    assert summary["edges_after"] == summary["edges_before"] + details["edges_added"]
    # through the secret mapping, every input edge is in the release
    rows = key.read_text().split()[1:]
    original = {int(r.split(",")[0]): int(r.split(",")[1]) for r in rows}
    back = {tuple(sorted((original[u], original[v]))) for u, v in release.edges().tolist()}
    source = read_graph(graph_file).graph
    assert {tuple(sorted(e)) for e in source.edges().tolist()} <= back


def test_pair_with_the_scheme(graph_file, tmp_path):
    folder = tmp_path / "pair"
    summary = _ok("pair", graph_file, "--alpha-v", 1, "--alpha-e", 1, "-s", "k-neighbourhood",
                  "--k", 2, "--seed", 3, "-o", folder)  # fmt: skip
    san = read_graph(folder / "san.txt").graph
    assert verify_k_neighbourhood(san, 2).ok
    meta = json.loads((folder / "pair.json").read_text())
    assert "k-neighbourhood" in json.dumps(meta) and summary


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "needs --k"),
        (["--k", "0"], "k = 0"),
        (["--k", "99"], "choose k ≤ 8"),
        (["--k", "2", "--fraction", "-1"], "max_added"),
        (["--k", "2", "--fraction", "0.0001", "-s", "k-neighbourhood"], None),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(graph_file, tmp_path, args, message):
    out = tmp_path / "r.txt"
    if message is None:  # a 1-edge budget: enough or a clear refusal, never a traceback
        result = _run("anonymize", graph_file, "-s", "k-neighbourhood", *args[:4], "-o", out)
        assert result.exit_code in (0, 2) and "Traceback" not in result.output
        return
    result = _run("anonymize", graph_file, "-s", "k-neighbourhood", *args, "-o", out)
    assert result.exit_code == 2 and message in result.output and not out.exists()
