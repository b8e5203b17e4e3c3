"""``privlab graph attack kl|dv|yg``: the figures against truth.csv, the mapping file, the
seeding options shared with ``propagate``, and bad input (exit 2, nothing written)."""

from __future__ import annotations

import networkx as nx
import polars as pl
import pytest

from privlab.graph.core import Graph, write_graph
from tests.cli.test_graph_attack_cli import _ok, _run

ATTACKS = {
    "kl": ["--threshold", "2"],
    "dv": ["--block", "20", "--keep", "5"],
    "yg": ["--r", "2", "--seed", "1"],
}


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seeded")
    source = folder / "plc.txt"
    write_graph(Graph.from_networkx(nx.powerlaw_cluster_graph(300, 4, 0.1, seed=1)), source)
    out = folder / "pair"
    summary = _ok("pair", source, "--alpha-v", 0.8, "--alpha-e", 0.8, "--seed", 1, "-o", out)
    return out, summary


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_scores_its_mapping_against_the_truth(pair, tmp_path, name):
    folder, summary = pair
    mapping = tmp_path / "mapping.csv"
    out = _ok("attack", name, folder, "--seeds", 10, *ATTACKS[name], "-o", mapping)
    assert out["seeding"] == {"kind": "top-degree", "requested": 10, "seeds": 10,
                              "seeds_correct": 10}  # fmt: skip
    assert out["true_pairs"] == summary["common_nodes"]
    assert 10 <= out["correct"] <= out["mapped"]
    assert out["wrong"] == out["mapped"] - out["correct"]
    assert out["accuracy"] == pytest.approx(out["correct"] / out["mapped"])
    assert out["coverage"] == pytest.approx(out["correct"] / out["true_pairs"])
    found = pl.read_csv(mapping)
    assert found.height == out["mapped"] == found["san"].n_unique()
    truth = pl.read_csv(folder / "truth.csv")
    assert found.join(truth, on=["aux", "san"], how="inner").height == out["correct"]
    if name == "dv":  # every node of the smaller graph is matched
        assert out["mapped"] == min(summary["aux_nodes"], summary["san_nodes"])


def test_kl_secgraph_variant_and_a_seeds_file(pair, tmp_path):
    folder, summary = pair
    seeds = tmp_path / "seeds.csv"
    pl.read_csv(folder / "truth.csv").head(12).write_csv(seeds)
    out = _ok("attack", "kl", folder, "--seeds-file", seeds, "--variant", "secgraph",
              "--window", 20)  # fmt: skip
    assert out["seeding"]["kind"] == "file" and out["seeding"]["seeds_correct"] == 12
    assert out["variant"] == "secgraph" and out["window"] == 20
    assert out["mapped"] == min(summary["aux_nodes"], summary["san_nodes"])


def test_yg_is_reproducible_with_a_seed(pair):
    a = _ok("attack", "yg", pair[0], "--seeds", 10, "--order", "random", "--seed", 3)
    b = _ok("attack", "yg", pair[0], "--seeds", 10, "--order", "random", "--seed", 3)
    assert (a["mapped"], a["correct"]) == (b["mapped"], b["correct"])
    assert a["order"] == "random"


def test_yg_order_option_reaches_the_library(pair):
    from privlab.cli.graph_attack import read_pair_dir
    from privlab.graph.attacks.percolation import percolate
    from privlab.graph.attacks.propagation import top_degree_seeds

    folder = pair[0]
    default = _ok("attack", "yg", folder, "--seeds", 10, "--r", 2)
    assert default["order"] == "most-marks" and default["r"] == 2
    again = _ok("attack", "yg", folder, "--seeds", 10, "--r", 2, "--seed", 9)
    p = read_pair_dir(folder)
    truth = p.truth_array()
    want = percolate(p.aux, p.san, top_degree_seeds(p.aux, truth, 10), r=2,
                     order="most-marks", truth=truth)  # fmt: skip
    for out in (default, again):  # deterministic: --seed does not change most-marks
        got = (out["mapped"], out["correct"], out["rounds"])
        assert got == (want.mapped, want.correct, want.rounds)


def test_table_output_and_mapping_on_stdout(pair):
    result = _run("attack", "dv", pair[0], "--seeds", 5, "-o", "-")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("aux,san")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["kl", "--seeds", "5", "--variant", "greedy"], "--variant"),
        (["kl", "--seeds", "5", "--threshold", "0"], "--threshold"),
        (["dv", "--seeds", "5", "--block", "4", "--keep", "5"], "keep = 5"),
        (["dv", "--seeds", "5", "--mode", "heap"], "--mode"),
        (["dv", "--seeds", "5", "--ties", "id"], "--ties"),
        (["yg", "--seeds", "5", "--r", "0"], "--r"),
        (["yg", "--seeds", "5", "--order", "max"], "--order"),
        (["yg"], "give one way to seed"),
        (["kl", "--seeds", "5", "--discover", "5"], "--seeds, --discover"),
    ],
)
def test_bad_options_exit_2_and_write_nothing(pair, tmp_path, args, message):
    mapping = tmp_path / "mapping.csv"
    result = _run("attack", args[0], pair[0], *args[1:], "-o", mapping)
    assert result.exit_code == 2 and message in result.output
    assert not mapping.exists()
