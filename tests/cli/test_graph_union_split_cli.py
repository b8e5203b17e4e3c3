"""``privlab graph anonymize --scheme union-split`` and ``graph pair --scheme union-split``:
the release keeps every node and every degree is held by ≥ k nodes (what the cluster-degree
definition implies — the clusters themselves are checked in tests/graph/test_unionsplit.py);
option errors exit 2 and write nothing."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.graph.core import Graph, read_graph, write_graph

runner = CliRunner()


@pytest.fixture
def small_world(tmp_path):
    path = tmp_path / "g.txt"
    write_graph(Graph.from_networkx(nx.connected_watts_strogatz_graph(60, 6, 0.3, seed=2)), path)
    return path


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("method", [None, "zero-hop"])
def test_release_keeps_the_nodes_and_is_k_degree_anonymous(small_world, tmp_path, method):
    out, key = tmp_path / "out.txt", tmp_path / "key.csv"
    extra = [] if method is None else ["--method", method]
    result = run("graph", "anonymize", small_world, "-s", "union-split", "--k", "4", *extra,
                 "-o", out, "--mapping", key, "--seed", "5", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    details = json.loads(result.stdout)["details"]
    original, release = read_graph(small_world).graph, read_graph(out).graph
    assert release.n_nodes == original.n_nodes == details["n_nodes"]
    _, counts = np.unique(release.degrees(), return_counts=True)
    assert counts.min() >= 4 and details["smallest_cluster"] >= 4
    assert details["hops"] == (0 if method else 1)
    assert release.n_edges == details["n_edges_after"]
    assert "cluster_of" not in json.dumps(details)  # the clusters would undo the relabelling


def test_pair_with_union_split(small_world, tmp_path):
    folder = tmp_path / "pair"
    args = ["--alpha-v", "0.9", "--alpha-e", "1", "-s", "union-split", "--k", "3"]
    result = run("graph", "pair", small_world, *args, "-o", folder, "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    san = read_graph(folder / "san.txt").graph
    _, counts = np.unique(san.degrees(), return_counts=True)
    assert counts.min() >= 3
