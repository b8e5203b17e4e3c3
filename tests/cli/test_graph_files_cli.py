"""Graph releases keep every node through the CLI: ``graph anonymize`` (edge list and
GraphML), ``graph utility`` and ``audit`` reading the same files the same way."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.graph.core import Graph, read_graph, write_graph
from tests.conftest import data_root

runner = CliRunner()


def _json(*args):
    result = runner.invoke(app, [*map(str, args), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture
def sparse(tmp_path):
    """A graph whose rsp release is sure to have nodes without edges (a long path)."""
    g = nx.path_graph(200)
    nx.add_path(g, range(200, 260))
    g.add_nodes_from(range(260, 270))  # and some that never had an edge
    path = tmp_path / "sparse.txt"
    write_graph(Graph.from_networkx(g), path)
    return path


@pytest.mark.parametrize("suffix", ["txt", "graphml"])
def test_rsp_release_reads_back_with_the_header_s_node_count(sparse, tmp_path, suffix):
    out = tmp_path / f"rel.{suffix}"
    summary = _json("graph", "anonymize", sparse, "-s", "rsp", "--fraction", 0.5, "-o", out,
                    "--seed", 1)  # fmt: skip
    release = read_graph(out).graph
    assert release.n_nodes == summary["nodes"] == 270
    assert release.n_edges == summary["edges_after"] == 129
    if suffix == "txt":
        assert f"Nodes: {release.n_nodes} " in out.read_text().splitlines()[1]


def test_utility_mean_degree_counts_the_nodes_without_edges(sparse, tmp_path):
    out = tmp_path / "rel.txt"
    runner.invoke(app, ["graph", "anonymize", str(sparse), "-s", "rsp", "--fraction", "0.5",
                        "-o", str(out), "--seed", "1"])  # fmt: skip
    metrics = _json("graph", "utility", sparse, out)["metrics"]
    assert metrics["nodes"]["release"] == 270
    assert metrics["mean_degree"]["release"] == pytest.approx(2 * 129 / 270)


def _utility_and_audit(original, release, tmp_path):
    util = _json("graph", "utility", original, release)
    audit = _json("audit", release, "--original", original, "-o", tmp_path / "a.html",
                  "--sample", 3, "--facts", "1")  # fmt: skip
    return util, audit["details"]["utility"]


def test_utility_and_audit_agree_on_every_metric(sparse, tmp_path):
    out = tmp_path / "rel.txt"
    runner.invoke(app, ["graph", "anonymize", str(sparse), "-s", "rad", "--fraction", "0.3",
                        "-o", str(out), "--seed", "2", "--keep-ids"])  # fmt: skip
    util, audit = _utility_and_audit(sparse, out, tmp_path)
    assert util["sample"] == audit["sample"]
    assert set(util["metrics"]) == set(audit["metrics"])
    for name, values in util["metrics"].items():
        assert audit["metrics"][name] == values, name


def test_utility_sample_option(sparse):
    exact = _json("graph", "utility", sparse, sparse, "--sample", "all")
    assert exact["sample"] is None
    assert _json("graph", "utility", sparse, sparse, "--sample", 7)["sample"] == 7
    bad = runner.invoke(app, ["graph", "utility", str(sparse), str(sparse), "--sample", "x"])
    assert bad.exit_code == 2 and "give auto, all or a number" in bad.output


def test_weighted_edge_list_is_anonymized_with_a_note(tmp_path):
    path = tmp_path / "weighted.txt"
    path.write_text("# u v weight\n1 2 0.5\n2 3 0.25\n3 1 1.0\n4\n")
    out = tmp_path / "rel.txt"
    result = runner.invoke(app, ["graph", "anonymize", str(path), "-s", "naive", "-o", str(out),
                                 "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "ignored the columns after the two node ids on 3 line(s)" in result.stderr
    summary = json.loads(result.stdout)
    assert summary["read"]["extra_columns_ignored"] == 3 and summary["nodes"] == 4
    assert read_graph(out).graph.degrees().tolist().count(0) == 1


def test_keep_ids_with_labels_an_edge_list_cannot_hold_exits_2_and_writes_nothing(tmp_path):
    source = tmp_path / "names.graphml"
    write_graph(nx.path_graph(["Ada Lovelace", "Alan Turing", "Grace Hopper"]), source)
    out = tmp_path / "rel.txt"
    result = runner.invoke(app, ["graph", "anonymize", str(source), "-s", "naive", "--keep-ids",
                                 "-o", str(out)])  # fmt: skip
    assert result.exit_code == 2 and "write GraphML instead" in result.output
    assert not out.exists()
    ok = runner.invoke(app, ["graph", "anonymize", str(source), "-s", "naive", "--keep-ids",
                             "-o", str(tmp_path / "rel.graphml")])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    labels = read_graph(tmp_path / "rel.graphml").graph.labels.tolist()
    assert sorted(labels) == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


def test_ca_grqc_rsp_release_keeps_its_5242_nodes(tmp_path):
    root = data_root()
    source = None if root is None else root / "graphs" / "CA-GrQc.txt"
    if source is None or not source.is_file():
        pytest.skip("CA-GrQc.txt not found: set PRIVLAB_DATA or place it at ../shared/data")
    out = tmp_path / "rel.txt"
    _json("graph", "anonymize", source, "-s", "rsp", "--fraction", 0.5, "-o", out, "--seed", 1)
    assert read_graph(out).graph.n_nodes == 5242
    util, audit = _utility_and_audit(source, out, tmp_path)
    assert util["metrics"]["mean_degree"]["release"] == pytest.approx(2.763, abs=5e-4)
    for name in ("average_path_length", "diameter", "closeness_centrality", "nodes"):
        assert audit["metrics"][name] == util["metrics"][name], name
    assert np.isfinite(util["metrics"]["average_path_length"]["release"])


def test_h1_risk_aligns_graphml_ids_that_are_not_sorted(tmp_path):
    g = nx.relabel_nodes(nx.karate_club_graph(), lambda v: f"n{(v * 7) % 34:02d}")
    original = tmp_path / "orig.graphml"
    write_graph(g, original)  # file order n00, n07, n14, ...: not sorted
    release = tmp_path / "rel.graphml"
    runner.invoke(app, ["graph", "anonymize", str(original), "-s", "rad", "--fraction", "0.1",
                        "--keep-ids", "-o", str(release), "--seed", "3"])  # fmt: skip
    as_text = tmp_path / "orig.txt", tmp_path / "rel.txt"
    for src, dst in zip((original, release), as_text, strict=True):
        write_graph(read_graph(src).graph, dst)  # the same graphs as sorted edge lists
    risk = _json("graph", "attack", "h1-risk", original, release, "--m", 3)
    assert risk["buckets"] == _json("graph", "attack", "h1-risk", *as_text, "--m", 3)["buckets"]
