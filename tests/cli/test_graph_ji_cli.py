"""``privlab graph attack jls|jlsb``: the figures against truth.csv, the mapping file, the
centrality files (the same numbers as computing them), seedless JLSB, bad input (exit 2,
nothing written)."""

from __future__ import annotations

import networkx as nx
import polars as pl
import pytest

from privlab.graph.core import Graph, write_graph
from tests.cli.test_graph_attack_cli import _ok, _run


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ji")
    source = folder / "plc.txt"
    write_graph(Graph.from_networkx(nx.powerlaw_cluster_graph(150, 3, 0.1, seed=1)), source)
    out = folder / "pair"
    summary = _ok("pair", source, "--alpha-v", 0.8, "--alpha-e", 0.8, "--seed", 1, "-o", out)
    return out, summary


def centrality_file(path, g: Graph) -> None:
    """SNAP's / SecGraph's format: node, degree, closeness, betweenness (tab-separated)."""
    ig = g.to_igraph()
    clo, btw, deg = ig.closeness(), ig.betweenness(), ig.degree()
    rows = [f"{v}\t{deg[v]}\t{0.0 if clo[v] != clo[v] else clo[v]!r}\t{btw[v]!r}"
            for v in range(g.n_nodes)]  # fmt: skip
    path.write_text("#NId\tDegree\tCloseness\tBetweenness\n" + "\n".join(rows) + "\n")


@pytest.mark.parametrize(
    ("name", "extra"),
    [("jls", ["--seeds", "8"]), ("jls", ["--seeds", "8", "--variant", "isc"]),
     ("jlsb", []), ("jlsb", ["--seeds", "8"])],
)  # fmt: skip
def test_attack_scores_its_mapping_against_the_truth(pair, tmp_path, name, extra):
    folder, summary = pair
    mapping = tmp_path / "mapping.csv"
    out = _ok("attack", name, folder, *extra, "--block", 20, "--keep", 5, "-o", mapping)
    seeds = 8 if extra else 0
    assert out["seeding"]["seeds"] == seeds and out["seeding"]["seeds_correct"] == seeds
    assert out["true_pairs"] == summary["common_nodes"]
    assert out["mapped"] == min(summary["aux_nodes"], summary["san_nodes"])
    assert seeds <= out["correct"] <= out["mapped"]
    assert out["coverage"] == pytest.approx(out["correct"] / out["true_pairs"])
    found = pl.read_csv(mapping)
    assert found.height == out["mapped"] == found["san"].n_unique()
    truth = pl.read_csv(folder / "truth.csv")
    assert found.join(truth, on=["aux", "san"], how="inner").height == out["correct"]
    if name == "jlsb":
        assert out["seedless"] is (not extra)


def test_centrality_files_give_the_computed_result(pair, tmp_path):
    from privlab.cli.graph_attack import read_pair_dir

    folder = pair[0]
    p = read_pair_dir(folder)
    centrality_file(tmp_path / "a.tsv", p.aux)
    centrality_file(tmp_path / "b.tsv", p.san)
    args = ("attack", "jls", folder, "--seeds", 8, "--variant", "secgraph", "--block", 20)
    computed = _ok(*args)
    given = _ok(*args, "--aux-centrality", tmp_path / "a.tsv", "--san-centrality",
                tmp_path / "b.tsv")  # fmt: skip
    assert (given["mapped"], given["correct"]) == (computed["mapped"], computed["correct"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["jls", "--seeds", "5", "--variant", "ada"], "--variant"),
        (["jls"], "give one way to seed"),
        (["jls", "--seeds", "5", "--block", "4", "--keep", "5"], "keep = 5"),
        (["jls", "--seeds", "5", "--aux-centrality", "x.tsv"], "give both or neither"),
        (["jls", "--seeds", "5", "--inherit-weight", "0", "--distance-weight", "0",
          "--structure-weight", "0"], "all 0"),
        (["jlsb", "--mode", "heap"], "--mode"),
        (["jlsb", "--landmarks", "0"], "--landmarks"),
        (["jlsb", "--seeds", "3", "--discover", "3"], "--seeds, --discover"),
    ],
)  # fmt: skip
def test_bad_options_exit_2_and_write_nothing(pair, tmp_path, args, message):
    mapping = tmp_path / "mapping.csv"
    result = _run("attack", args[0], pair[0], *args[1:], "-o", mapping)
    assert result.exit_code == 2 and message in result.output
    assert not mapping.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0\t1\t0.5\n", "3 fields"),
        ("0\t1\tx\t1\n", "not 'node degree closeness betweenness'"),
        ("0\t1\t0.5\t-1\n", "finite and ≥ 0"),
        ("0\t1\t0.5\t1\n0\t1\t0.5\t1\n", "listed twice"),
        ("999\t1\t0.5\t1\n", "node 999 is not in aux.txt"),
        ("0\t1\t0.5\t1\n", "no line for node 1"),
    ],
)  # fmt: skip
def test_bad_centrality_file(pair, tmp_path, text, message):
    bad = tmp_path / "c.tsv"
    bad.write_text(text)
    mapping = tmp_path / "mapping.csv"
    result = _run("attack", "jls", pair[0], "--seeds", 5, "--aux-centrality", bad,
                  "--san-centrality", bad, "-o", mapping)  # fmt: skip
    assert result.exit_code == 2 and message in result.output, result.output
    assert not mapping.exists()
