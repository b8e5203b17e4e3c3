"""`privlab graph attack propagate --discover-clique K` (NS09 clique seeds) and
`--scoring thesis|secgraph` on a pair folder."""

from __future__ import annotations

import networkx as nx
import polars as pl
import pytest

from privlab.graph.core import Graph, write_graph
from tests.cli.test_graph_attack_cli import _ok, _run


@pytest.fixture(scope="module")
def pair_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nsseed")
    src = folder / "plc.txt"
    write_graph(Graph.from_networkx(nx.powerlaw_cluster_graph(300, 4, 0.5, seed=1)), src)
    out = folder / "pair"
    _ok("pair", src, "--secgraph", "--p", "0.95", "--seed", 1, "-o", out)
    return out


def test_clique_seeds_are_true_and_propagate(pair_dir, tmp_path):
    out = _ok("attack", "propagate", pair_dir, "--discover-clique", 3,
              "--clique-tolerance", 0.3, "--theta", 0.1, "-o", tmp_path / "m.csv")  # fmt: skip
    seeding = out["seeding"]
    assert seeding["kind"] == "clique" and seeding["status"] == "unique"
    assert seeding["seeds"] == 3 and len(seeding["targets"]) == 3
    truth = dict(pl.read_csv(pair_dir / "truth.csv").iter_rows())
    mapping = pl.read_csv(tmp_path / "m.csv")
    seeds = mapping.filter(pl.col("aux").is_in(seeding["targets"]))
    correct = sum(truth.get(a) == s for a, s in seeds.iter_rows())
    assert correct == seeding["seeds_correct"] and mapping.height == out["mapped"] >= 3


def test_no_unique_clique_exits_2_and_writes_nothing(pair_dir, tmp_path):
    target = tmp_path / "m.csv"
    r = _run("attack", "propagate", pair_dir, "--discover-clique", 3,
             "--clique-tolerance", 1.0, "-o", target)  # fmt: skip
    assert r.exit_code == 2 and "--clique-tolerance" in r.output and not target.exists()
    assert "Traceback" not in r.output


def test_scoring_option_reaches_the_attack(pair_dir):
    sec = _ok("attack", "propagate", pair_dir, "--seeds", 10)
    th = _ok("attack", "propagate", pair_dir, "--seeds", 10, "--scoring", "thesis")
    assert sec["method"] == "sparse" and th["method"] == "thesis"
    assert th["correct"] <= th["mapped"] and sec["correct"] <= sec["mapped"]
    r = _run("attack", "propagate", pair_dir, "--seeds", 10, "--scoring", "cosine")
    assert r.exit_code == 2 and "--scoring" in r.output
