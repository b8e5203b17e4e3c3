"""``privlab graph anonymize --scheme dp-hrg`` and ``graph pair --scheme dp-hrg``: the
release prints no exact statistic of the input, --seed reproduces it, bad input exits 2 and
writes nothing."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.graph.core import Graph, read_graph, write_graph

runner = CliRunner()

#: Every key the dp-hrg summary may hold: ε and its split, public or noisy figures only.
ALLOWED_DETAILS = {
    "scheme", "epsilon", "epsilon_hrg", "epsilon_edges", "sensitivity", "temperature",
    "laplace_scale", "mcmc_steps", "small_subtrees", "collapsed_nodes", "nodes",
    "expected_edges", "released_edges", "insecure_seed",
}  # fmt: skip


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def karate(tmp_path):
    path = tmp_path / "karate.txt"
    write_graph(Graph.from_networkx(nx.karate_club_graph()), path)
    return path


def _hrg(path, out, *extra):
    return run("graph", "anonymize", path, "-s", "dp-hrg", "-e", "1", "--mcmc-steps", "3000",
               "-o", out, *extra)  # fmt: skip


def test_dp_hrg_prints_no_exact_figure_of_the_input(karate, tmp_path):
    out = tmp_path / "out.txt"
    plain = _hrg(karate, out, "--json")
    assert plain.exit_code == 0, plain.output
    summary = json.loads(plain.stdout)
    assert "edges_before" not in summary and "read" not in summary
    assert set(summary["details"]) <= ALLOWED_DETAILS
    assert summary["details"]["epsilon_hrg"] + summary["details"]["epsilon_edges"] == 1.0
    assert summary["edges_after"] == read_graph(out).graph.n_edges  # the release's own count
    human = _hrg(karate, out)
    assert human.exit_code == 0 and "edges_before" not in human.stdout
    assert "degree" not in human.stdout and "likelihood" not in human.stdout
    asked = _hrg(karate, out, "--json", "--non-private-diagnostics", "--seed", "2")
    summary = json.loads(asked.stdout)
    assert summary["non_private_diagnostics"]["edges_before"] == 78
    assert summary["insecure_seed"] is True and summary["details"]["insecure_seed"] is True


def test_dp_hrg_reader_notes_give_no_counts(tmp_path):
    path = tmp_path / "loops.txt"
    path.write_text("0 1\n1 2\n2 2\n3 3\n2 3\n1 0\n")
    result = _hrg(path, tmp_path / "out.txt")
    assert result.exit_code == 0, result.output
    assert "removed before the release" in result.output
    assert "self-loop(s)" not in result.output


def test_dp_hrg_seed_reproduces_the_release(karate, tmp_path):
    a, b, c = (tmp_path / f"{x}.txt" for x in "abc")
    for out, seed in ((a, 5), (b, 5), (c, 6)):
        result = _hrg(karate, out, "--seed", seed, "--hrg-share", "0.3")
        assert result.exit_code == 0, result.output
    assert a.read_text() == b.read_text()
    assert a.read_text() != c.read_text()


def test_dp_hrg_pair(karate, tmp_path):
    out = tmp_path / "pair"
    result = run("graph", "pair", karate, "--alpha-v", "1", "--alpha-e", "1", "-s", "dp-hrg",
                 "-e", "2", "--mcmc-steps", "2000", "--seed", "3", "-o", out, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "pair.json").read_text())
    assert "dp-hrg" in json.dumps(meta)
    assert read_graph(out / "san.txt").graph.n_nodes == 34


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "dp-hrg"], "needs --epsilon"),
        (["-s", "dp-hrg", "-e", "0"], "epsilon"),
        (["-s", "dp-hrg", "-e", "1", "--hrg-share", "1"], "hrg_share = 1"),
        (["-s", "dp-hrg", "-e", "1", "--hrg-share", "0"], "hrg_share = 0"),
        (["-s", "dp-hrg", "-e", "1", "--mcmc-steps", "-5"], "steps = -5"),
        (["-s", "dp-hrg", "-e", "1", "--small-subtrees", "er"], "small_subtrees"),
        (["-s", "rsp", "--fraction", "0.1", "--hrg-share", "0.5"], "goes with --scheme dp-hrg"),
        (["-s", "dp-dk2", "-e", "1", "--max-degree", "40", "--mcmc-steps", "9"], "dp-hrg"),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(karate, tmp_path, args, message):
    out = tmp_path / "out.txt"
    result = run("graph", "anonymize", karate, "-o", out, *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not out.exists()


def test_too_small_graph_exits_2(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("0 1\n")
    result = _hrg(path, tmp_path / "out.txt")
    assert result.exit_code == 2 and "≥ 3 nodes" in result.output
