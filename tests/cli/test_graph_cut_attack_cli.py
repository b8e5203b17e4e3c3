"""``privlab graph attack cut``: the JSON summary of runs on a small-world graph (every target
re-identified with the default 3b + 3 sybils), and option errors (exit 2, no traceback)."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.graph.core import Graph, write_graph

runner = CliRunner()


@pytest.fixture
def small_world(tmp_path):
    path = tmp_path / "g.txt"
    write_graph(Graph.from_networkx(nx.connected_watts_strogatz_graph(150, 6, 0.2, seed=4)), path)
    return path


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_runs_report_success_and_the_paper_k(small_world):
    result = run("graph", "attack", "cut", small_world, "--targets", "3", "--trials", "2",
                 "--seed", "2", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["k"] == 12 and out["n_targets"] == 3 and out["trials"] == 2
    assert out["success_rate"] == 1.0 and out["statuses"] == {"unique": 2}
    assert all(r["targets_correct"] == 3 and r["h_separable"] for r in out["runs"])


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--targets", "5", "-k", "3"], "its own sybil"),
     (["-k", "100000"], "at most 300 sybils"),
     (["--targets", "1000"], "only 150 nodes"),
     (["--max-draws", "0"], "--max-draws")],
)  # fmt: skip
def test_option_errors_exit_2(small_world, args, message):
    result = run("graph", "attack", "cut", small_world, *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
