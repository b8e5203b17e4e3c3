"""``privlab graph attack sh --variant spanning-tree --tree-nodes N``: the cut reaches the
library and bounds the mapping; bad values exit 2 and write nothing."""

from __future__ import annotations

import networkx as nx
import polars as pl

from privlab.graph.core import Graph, write_graph
from tests.cli.test_graph_attack_cli import _ok, _run


def _pair(tmp_path):
    source = tmp_path / "plc.txt"
    write_graph(Graph.from_networkx(nx.powerlaw_cluster_graph(150, 3, 0.1, seed=2)), source)
    out = tmp_path / "pair"
    _ok("pair", source, "--alpha-v", 0.8, "--alpha-e", 0.8, "--seed", 1, "-o", out)
    return out


def test_tree_nodes_bounds_the_mapping_and_bad_values_exit_2(tmp_path):
    folder = _pair(tmp_path)
    mapping = tmp_path / "mapping.csv"
    out = _ok("attack", "sh", folder, "--seeds", 5, "--variant", "spanning-tree", "--trees", 2,
              "--seed", 0, "--tree-nodes", 20, "-o", mapping)  # fmt: skip
    assert out["tree_nodes"] == 20 and out["variant"] == "spanning-tree"
    # the aligned tree holds 20 nodes (one of them the root seed) plus the other 4 seeds
    assert 5 <= out["mapped"] <= 24
    assert pl.read_csv(mapping).height == out["mapped"]
    whole = _ok("attack", "sh", folder, "--seeds", 5, "--variant", "spanning-tree", "--trees",
                2, "--seed", 0)  # fmt: skip
    assert whole["tree_nodes"] is None and whole["mapped"] > out["mapped"]
    for bad, said in ((["--tree-nodes", "0"], "--tree-nodes"),
                      (["--tree-nodes", "50", "--max-nodes", "10"], "max_nodes")):  # fmt: skip
        bad_out = tmp_path / "bad.csv"
        result = _run("attack", "sh", folder, "--seeds", 5, "--variant", "spanning-tree", *bad,
                      "-o", bad_out)  # fmt: skip
        assert result.exit_code == 2 and said in result.output, result.output
        assert not bad_out.exists()
