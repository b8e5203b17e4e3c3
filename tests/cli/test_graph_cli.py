"""``privlab graph anonymize`` and ``privlab graph utility``."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.graph.core import Graph, read_graph, write_graph

runner = CliRunner()


@pytest.fixture
def karate(tmp_path):
    path = tmp_path / "karate.txt"
    g = Graph.from_networkx(nx.karate_club_graph())
    labelled = Graph(g.indptr, g.indices, False, np.arange(100, 134))
    write_graph(labelled, path)
    return path


@pytest.mark.parametrize("scheme", ["naive", "rsp", "rad", "rsw", "rep", "insert"])
def test_each_scheme_writes_a_relabelled_release_and_its_mapping(karate, tmp_path, scheme):
    out, mapping = tmp_path / "out.txt", tmp_path / "map.csv"
    args = ["graph", "anonymize", str(karate), "-s", scheme, "-o", str(out), "--mapping",
            str(mapping), "--seed", "3", "--json"]  # fmt: skip
    if scheme != "naive":
        args += ["--fraction", "0.2" if scheme != "rep" else "0.01"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    release = read_graph(out).graph
    assert release.n_edges == summary["edges_after"]
    table = pl.read_csv(mapping)
    assert sorted(table["original"].to_list()) == list(range(100, 134))
    if scheme in ("naive", "rsw"):  # degrees survive, node by node through the mapping
        original = read_graph(karate).graph
        deg_orig = dict(zip(original.labels.tolist(), original.degrees().tolist(), strict=True))
        deg_rel = release.degrees()
        ids = release.labels.tolist()
        back = dict(zip(table["release_id"].to_list(), table["original"].to_list(), strict=True))
        assert all(deg_rel[i] == deg_orig[back[rid]] for i, rid in enumerate(ids))


@pytest.mark.parametrize("method", ["simultaneous-swap", "relaxed", "supergraph"])
def test_kdegree_scheme_releases_a_k_degree_anonymous_graph(karate, tmp_path, method):
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["graph", "anonymize", str(karate), "-s", "kdegree", "-k", "4",
                                 "--method", method, "-o", str(out), "--seed", "2"])  # fmt: skip
    assert result.exit_code == 0, result.output
    degrees = read_graph(out).graph.degrees()
    assert np.bincount(degrees)[np.bincount(degrees) > 0].min() >= 4


def test_dp_dk2_scheme(karate, tmp_path):
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["graph", "anonymize", str(karate), "-s", "dp-dk2", "-e", "1e6",
                                 "--max-degree", "40", "-o", str(out), "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["details"]["sensitivity"] == 4 * 40 - 3
    assert read_graph(out).graph.n_edges == summary["edges_after"]


def test_utility_compares_two_files(karate, tmp_path):
    out = tmp_path / "out.txt"
    runner.invoke(app, ["graph", "anonymize", str(karate), "-s", "rad", "--fraction", "0.3",
                        "-o", str(out), "--seed", "1"])  # fmt: skip
    result = runner.invoke(app, ["graph", "utility", str(karate), str(out), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["release"] == str(out)
    text = runner.invoke(app, ["graph", "utility", str(karate), str(karate), "-m",
                               "degree_distribution"])  # fmt: skip
    assert text.exit_code == 0 and "degree_distribution" in text.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "rad"], "needs --fraction"),
        (["-s", "rad", "--fraction", "1.5"], "fraction"),
        (["-s", "bogus"], "choose one of"),
        (["-s", "dp-dk2", "-e", "1"], "needs --max-degree"),
        (["-s", "kdegree"], "needs --k"),
        (["-s", "kdegree", "-k", "99"], "k"),
        (["-s", "naive", "--keep-ids", "--mapping", "m.csv"], "cannot go with --keep-ids"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(karate, tmp_path, args, message):
    out = tmp_path / "out.txt"
    result = runner.invoke(app, ["graph", "anonymize", str(karate), "-o", str(out), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert not out.exists()


def test_malformed_line_is_named(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2\n2,3\n")  # a third column is a weight now; a comma is not an id
    result = runner.invoke(app, ["graph", "anonymize", str(bad), "-s", "naive", "-o",
                                 str(tmp_path / "o.txt")])  # fmt: skip
    assert result.exit_code == 2 and "line 2" in result.output
    assert not (tmp_path / "o.txt").exists()
