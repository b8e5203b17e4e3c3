"""``privlab graph anonymize --scheme spctr-ad | spctr-sw | randwalk`` and the same schemes in
``graph pair``: releases, the summary's figures, and option errors (exit 2, nothing written)."""

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
    write_graph(Graph.from_networkx(nx.connected_watts_strogatz_graph(80, 6, 0.2, seed=1)), path)
    return path


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.parametrize(
    ("scheme", "extra"),
    [("spctr-ad", ["--fraction", "0.2"]), ("spctr-sw", ["--fraction", "0.2"]),
     ("spctr-sw", ["--fraction", "0.2", "--tolerance", "0.05"]),
     ("randwalk", ["--walk-length", "3"])],
)  # fmt: skip
def test_each_scheme_writes_a_release_and_reports_its_figures(small_world, tmp_path, scheme,
                                                              extra):  # fmt: skip
    out = tmp_path / "out.txt"
    result = run("graph", "anonymize", small_world, "-s", scheme, *extra, "-o", out, "--seed",
                 "4", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    original, release = read_graph(small_world).graph, read_graph(out).graph
    assert release.n_nodes == original.n_nodes and release.n_edges == summary["edges_after"]
    details = summary["details"]
    if scheme == "spctr-sw":  # the relabelling hides who is who, not the degree sequence
        assert sorted(release.degrees()) == sorted(original.degrees())
    if scheme.startswith("spctr"):
        p = details["parameters"]
        assert {"lambda1_original", "lambda1_release", "mu2_original", "mu2_release"} <= set(p)
        assert p["tolerance"] == (0.05 if "--tolerance" in extra else 0.0)
    else:
        assert details["parameters"]["walk_length"] == 3


def test_walk_length_one_releases_the_same_graph_up_to_relabelling(small_world, tmp_path):
    out = tmp_path / "out.txt"
    result = run("graph", "anonymize", small_world, "-s", "randwalk", "--walk-length", "1",
                 "-o", out, "--keep-ids", "--seed", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    a, b = read_graph(small_world).graph, read_graph(out).graph
    assert np.array_equal(a.edges(), b.edges())


@pytest.mark.parametrize(
    ("args", "message"),
    [(["-s", "randwalk"], "needs --walk-length"),
     (["-s", "spctr-ad"], "needs --fraction"),
     (["-s", "rsp", "--fraction", "0.1", "--walk-length", "2"], "--walk-length goes with"),
     (["-s", "randwalk", "--walk-length", "2", "--tolerance", "0.1"], "--tolerance goes with"),
     (["-s", "randwalk", "--walk-length", "0"], "walk_length = 0"),
     (["-s", "spctr-sw", "--fraction", "0.1", "--tolerance", "-1"], "tolerance = -1"),
     (["-s", "spctr-ad", "--fraction", "1.5"], "fraction = 1.5"),
     (["-s", "union-split"], "needs --k"), (["-s", "union-split", "--k", "0"], "k = 0"),
     (["-s", "union-split", "--k", "1000"], "only 80 nodes"),
     (["-s", "union-split", "--k", "3", "--method", "two-hop"], "one-hop"),
     (["-s", "union-split", "--k", "3", "--walk-length", "2"], "--walk-length goes with")],
)  # fmt: skip
def test_option_errors_exit_2_and_write_nothing(small_world, tmp_path, args, message):
    out = tmp_path / "out.txt"
    result = run("graph", "anonymize", small_world, *args, "-o", out)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_pair_with_a_random_walk_scheme(small_world, tmp_path):
    folder = tmp_path / "pair"
    args = ["--alpha-v", "0.8", "--alpha-e", "1", "-s", "randwalk", "--walk-length", "2"]
    result = run("graph", "pair", small_world, *args, "-o", folder, "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    meta = json.loads((folder / "pair.json").read_text())
    assert "RW" in json.dumps(meta)
    bad = run("graph", "pair", small_world, "--alpha-v", "0.8", "--alpha-e", "1",
              "--walk-length", "2", "-o", tmp_path / "p2")  # fmt: skip
    assert bad.exit_code == 2 and "--walk-length goes with" in bad.output


# ---------------------------------------------------------------------------- graph generalize
def test_generalize_writes_a_release_that_matches_the_graph(small_world, tmp_path):
    rel, sample, mapping = tmp_path / "r.json", tmp_path / "s.txt", tmp_path / "m.csv"
    result = run("graph", "generalize", small_world, "-k", "4", "--steps", "300", "-o", rel,
                 "--sample", sample, "--mapping", mapping, "--seed", "2", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    release = json.loads(rel.read_text())
    g = read_graph(small_world).graph
    sizes = [s["size"] for s in release["supernodes"]]
    assert release["k"] == 4 and min(sizes) >= 4 and sum(sizes) == g.n_nodes
    assert summary["supernodes"] == len(sizes) == g.n_nodes // 4
    # the published counts are the graph's under the secret assignment
    import polars as pl

    table = pl.read_csv(mapping)
    where = dict(zip(table["original"].to_list(), table["supernode"].to_list(), strict=True))
    counts: dict[tuple[int, int], int] = {}
    for u, v in g.edges().tolist():
        a, b = sorted((where[int(g.labels[u])], where[int(g.labels[v])]))
        counts[(a, b)] = counts.get((a, b), 0) + 1
    published = {(s["id"], s["id"]): s["internal_edges"] for s in release["supernodes"]
                 if s["internal_edges"]}  # fmt: skip
    published |= {(e["a"], e["b"]): e["edges"] for e in release["superedges"]}
    assert published == counts
    drawn = read_graph(sample).graph
    assert drawn.n_nodes == g.n_nodes and drawn.n_edges == g.n_edges
    assert "assignment" not in rel.read_text() and "original" not in rel.read_text()


def test_generalize_errors_write_nothing(small_world, tmp_path):
    rel = tmp_path / "r.json"
    for args, message in ((["-k", "0"], "k = 0"), (["-k", "81"], "only 80 nodes")):
        result = run("graph", "generalize", small_world, *args, "-o", rel)
        assert result.exit_code == 2 and message in result.output
        assert not rel.exists()
