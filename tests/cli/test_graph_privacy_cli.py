"""``privlab graph attack obfuscation|links|group``: the library's numbers as JSON, bad input
exits 2."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.graph.anonymize.perturb import random_add_delete
from privlab.graph.core import Graph, write_graph
from privlab.graph.privacy_metrics import group_reidentification, link_disclosure, obfuscation

runner = CliRunner()


def _ok(*args):
    result = runner.invoke(app, ["graph", "attack", *map(str, args), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("g")
    g = Graph.from_networkx(nx.les_miserables_graph())
    rad = random_add_delete(g, 0.1, seed=2)
    write_graph(g, folder / "g.txt")
    write_graph(rad.graph, folder / "r.txt")
    return g, rad, folder / "g.txt", folder / "r.txt"


def test_obfuscation_json(files):
    g, rad, gp, rp = files
    m = rad.parameters["m"]
    out = _ok("obfuscation", gp, rp, "--model", "rad", "--m", m, "-k", "2,10")
    want = obfuscation(g, rad.graph, model="rad", m=m, ks=(2, 10)).to_dict()
    assert out["obfuscated_fraction"] == pytest.approx(want["obfuscated_fraction"])
    assert out["model"] == "rad" and out["parameters"] == {"m": m}


def test_links_json(files):
    g, _rad, gp, rp = files
    out = _ok("links", gp)
    assert [r["knowledge"] for r in out["levels"]] == ["H_1", "H*"]
    assert out["levels"][0]["disclosed_fraction"] == link_disclosure(g).to_dict()[
        "disclosed_fraction"]  # fmt: skip
    out = _ok("links", gp, rp, "--level", "1", "--non-edges", "0")
    assert len(out["levels"]) == 1 and out["levels"][0]["non_edge_sampled"] == 0


def test_group_json(files):
    g, _rad, gp, _rp = files
    out = _ok("group", gp, gp, "--nodes", "all", "--facts", "4", "--aligned-ids")
    want = group_reidentification(g, g, range(g.n_nodes), facts=4, aligned=True).to_dict()
    assert out["unique_group"] == want["unique_group"]
    assert out["reidentified_group"] == want["reidentified_group"]
    assert out["targets"] == g.n_nodes


@pytest.mark.parametrize(
    "args",
    [["obfuscation", "{g}", "{r}", "--model", "rad"], ["obfuscation", "{g}", "{r}", "-k", "x"],
     ["links", "{g}", "--level", "2", "--star"], ["group", "{g}", "{r}", "--knowledge", "x"],
     ["group", "{g}", "{r}", "--nodes", "0"], ["links", "{g}/nope"]],
)  # fmt: skip
def test_bad_input_exits_2(files, args):
    _, _, gp, rp = files
    argv = [a.format(g=gp, r=rp) for a in args]
    result = runner.invoke(app, ["graph", "attack", *argv])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_passive_json(files):
    _, _, gp, _ = files
    out = _ok("passive", gp, "-k", "3,4", "--trials", "2", "--seed", "1")
    assert [r["k"] for r in out["rows"]] == [3, 4] and out["insecure_seed"]
    assert all(0 <= r["success_rate"] <= 1 for r in out["rows"])
    bad = runner.invoke(app, ["graph", "attack", "passive", str(gp), "-k", "1"])
    assert bad.exit_code == 2


def test_links_with_a_model(files):
    _g, rad, gp, rp = files
    out = _ok("links", gp, rp, "--level", "1", "--model", "rad", "--m", rad.parameters["m"])
    assert [r["knowledge"] for r in out["levels"]] == ["H_1", "degree, rad model"]
    bad = runner.invoke(app, ["graph", "attack", "links", str(gp), "--model", "x"])
    assert bad.exit_code == 2
