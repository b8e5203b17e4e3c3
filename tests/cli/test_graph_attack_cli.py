"""``privlab graph pair`` and ``privlab graph attack ...``: JSON figures and bad input (exit 2)."""

from __future__ import annotations

import json
import shutil

import networkx as nx
import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.graph.attacks.active import default_k
from privlab.graph.attacks.subgraph import subgraph_knowledge_experiment
from privlab.graph.core import Graph, read_graph, write_graph

runner = CliRunner()


def _run(*args):
    return runner.invoke(app, ["graph", *map(str, args)])


def _ok(*args):
    result = _run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("graphs")
    karate, plc = folder / "karate.txt", folder / "plc.txt"
    write_graph(Graph.from_networkx(nx.karate_club_graph()), karate)
    write_graph(Graph.from_networkx(nx.powerlaw_cluster_graph(300, 4, 0.1, seed=1)), plc)
    return karate, plc


@pytest.fixture(scope="module")
def pair_dir(graphs, tmp_path_factory):
    out = tmp_path_factory.mktemp("pairs") / "plc_pair"
    summary = _ok("pair", graphs[1], "--alpha-v", 0.8, "--alpha-e", 0.8, "--seed", 1, "-o", out)
    return out, summary


@pytest.fixture
def pair_copy(pair_dir, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(pair_dir[0], out)
    return out


# ============================================================================ pair
def test_pair_writes_the_folder_the_attacks_read(pair_dir):
    out, summary = pair_dir
    assert sorted(p.name for p in out.iterdir()) == ["aux.txt", "pair.json", "san.txt", "truth.csv"]
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]  # no temp folder left
    assert summary["parameters"]["generator"] == "sharad"
    assert summary["parameters"]["measured_alpha_v"] == pytest.approx(0.8, abs=0.01)
    assert summary["aux_nodes"] == summary["san_nodes"] == 270  # (1 + α_V)/2 · 300
    truth = pl.read_csv(out / "truth.csv")
    assert truth.columns == ["aux", "san"] and truth.height == summary["common_nodes"] == 240
    assert truth["aux"].n_unique() == truth["san"].n_unique() == 240
    assert read_graph(out / "aux.txt").graph.n_edges == summary["aux_edges"]
    assert json.loads((out / "pair.json").read_text())["common_nodes"] == 240


def test_pair_with_a_scheme_and_secgraph(graphs, tmp_path):
    karate, plc = graphs
    rsw = _ok("pair", plc, "--alpha-v", 0.6, "--alpha-e", 1, "-s", "rsw", "--fraction", 0.2,
              "--seed", 2, "-o", tmp_path / "rsw")  # fmt: skip
    assert rsw["parameters"]["scheme"] == "rsw"
    assert rsw["scheme_details"]["edges_removed"] > 0
    assert rsw["san_edges"] == rsw["scheme_details"]["n_edges_after"]
    sec = _ok("pair", karate, "--secgraph", "--p", 0.5, "--seed", 3, "-o", tmp_path / "sec")
    truth = pl.read_csv(tmp_path / "sec" / "truth.csv")
    assert sec["common_nodes"] == 34 and (truth["aux"] == truth["san"]).all()
    assert sec["parameters"]["p"] == 0.5
    text = _run("pair", karate, "--secgraph", "-o", tmp_path / "sec", "--force")
    assert text.exit_code == 0 and "secgraph" in text.stdout


def test_pair_never_replaces_a_folder_it_did_not_write(graphs, tmp_path):
    out = tmp_path / "taken"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    args = ("pair", graphs[0], "--alpha-v", 0.5, "--alpha-e", 0.5, "-o", out)
    for extra in ((), ("--force",)):  # --force replaces only an earlier pair folder
        result = _run(*args, *extra)
        assert result.exit_code == 2 and "not a pair folder written by privlab" in result.output
        assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]


def test_pair_force_replaces_an_earlier_pair_folder(graphs, tmp_path):
    out = tmp_path / "pair"
    args = ("pair", graphs[0], "--alpha-v", 0.5, "--alpha-e", 0.5, "-o", out)
    assert _run(*args, "--seed", 1).exit_code == 0
    first = (out / "truth.csv").read_text()
    result = _run(*args, "--seed", 2)
    assert result.exit_code == 2 and "--force" in result.output
    assert (out / "truth.csv").read_text() == first
    assert _run(*args, "--seed", 2, "--force").exit_code == 0
    assert (out / "truth.csv").read_text() != first
    assert [p.name for p in tmp_path.iterdir()] == ["pair"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--alpha-v", "1.5", "--alpha-e", "0.5"], "alpha_v"),
        (["--alpha-v", "0.5", "--alpha-e", "0"], "alpha_e"),
        (["--alpha-v", "0.5"], "--alpha-e"),
        (["--alpha-v", "0.5", "--alpha-e", "0.5", "--p", "0.9"], "--secgraph"),
        (["--secgraph", "--alpha-v", "0.5"], "--alpha-v"),
        (["--alpha-v", "0.5", "--alpha-e", "1", "-s", "rsw"], "needs --fraction"),
        (["--alpha-v", "0.5", "--alpha-e", "1", "-s", "bogus"], "choose one of"),
    ],
)
def test_pair_bad_input_exits_2_and_writes_nothing(graphs, tmp_path, args, message):
    out = tmp_path / "out"
    result = _run("pair", graphs[0], "-o", out, *args)
    assert result.exit_code == 2
    assert message in result.output
    assert list(tmp_path.iterdir()) == []


def test_missing_input_file_is_named(tmp_path):
    for args in (["pair", tmp_path / "nope.txt", "--alpha-v", "1", "--alpha-e", "1", "-o",
                  tmp_path / "out"], ["attack", "refine", tmp_path / "nope.txt"],
                 ["attack", "active", tmp_path / "nope.txt"]):  # fmt: skip
        result = _run(*args)
        assert result.exit_code == 2 and "nope.txt: no such file" in result.output
    assert list(tmp_path.iterdir()) == []


# ============================================================================ refine, h1-risk
def test_refine_reports_hay_et_al_buckets_on_the_karate_club(graphs):
    karate = graphs[0]
    out = _ok("attack", "refine", karate)
    assert out["stable_level"] == 2 and out["nodes"] == 34
    assert [row["level"] for row in out["levels"]] == ["H_1", "H_2", "H*"]
    assert out["levels"][0]["counts"] == [6, 5, 12, 11, 0]
    assert out["levels"][2]["counts"] == [23, 6, 5, 0, 0]
    assert all(sum(row["counts"]) == 34 for row in out["levels"])
    one = _ok("attack", "refine", karate, "--level", 1)["levels"]
    assert len(one) == 1 and one[0]["counts"] == [6, 5, 12, 11, 0] and not one[0]["is_star"]
    star = _ok("attack", "refine", karate, "--star")["levels"]
    assert star[0]["level"] == "H*" and star[0]["counts"] == [23, 6, 5, 0, 0]
    text = _run("attack", "refine", karate)
    assert text.exit_code == 0 and "H* = H_2" in text.stdout
    bad = _run("attack", "refine", karate, "--level", 1, "--star")
    assert bad.exit_code == 2 and "--star" in bad.output


def test_h1_risk_without_perturbation_is_the_h1_partition(graphs, tmp_path):
    karate = graphs[0]
    out = _ok("attack", "h1-risk", karate, karate, "--m", 0)
    assert out["buckets"]["counts"] == [6, 5, 12, 11, 0]
    rad = tmp_path / "rad.txt"
    made = _ok("anonymize", karate, "-s", "rad", "--fraction", 0.1, "--keep-ids", "--seed", 1,
               "-o", rad)  # fmt: skip
    m = made["details"]["edges_removed"]
    noisy = _ok("attack", "h1-risk", karate, rad, "--m", m)
    assert noisy["m"] == m and noisy["n_targets"] == 34
    assert noisy["buckets"]["counts"][0] <= 6  # noise only blurs the degrees
    other = tmp_path / "other.txt"
    other.write_text("0 1\n1 999\n")
    bad = _run("attack", "h1-risk", karate, other, "--m", 1)
    assert bad.exit_code == 2 and "node 999 is not in the original" in bad.output


# ============================================================================ subgraph
def test_subgraph_buckets_match_the_library_experiment(graphs):
    karate = graphs[0]
    out = _ok("attack", "subgraph", karate, "--facts", 4, "--seed", 5)
    assert out["max_facts"] == 4 and out["n_targets"] == 34 and out["exact_degrees"]
    assert [row["facts"] for row in out["buckets"]] == [0, 1, 2, 3, 4]
    assert out["buckets"][0]["counts"] == [0, 0, 0, 0, 34]  # no knowledge: everyone
    direct = subgraph_knowledge_experiment(read_graph(karate).graph, 4, seed=5)
    assert [row["counts"] for row in out["buckets"]] == [
        list(direct.buckets(b).counts) for b in range(5)
    ]  # the progress-bar chunks change nothing
    few = _ok("attack", "subgraph", karate, "--facts", 2, "--nodes", 10, "--degree-bounds")
    assert few["n_targets"] == 10 and not few["exact_degrees"]
    assert all(sum(row["counts"]) == 10 for row in few["buckets"])


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--facts", "0"], "--facts"), (["--nodes", "99"], "--nodes"), (["--nodes", "x"], "--nodes")],
)
def test_subgraph_bad_input(graphs, args, message):
    result = _run("attack", "subgraph", graphs[0], *args)
    assert result.exit_code == 2 and message in result.output


# ============================================================================ active
def test_active_attack_plants_and_recovers(graphs):
    out = _ok("attack", "active", graphs[1], "--targets", 5, "--trials", 2, "--seed", 1)
    assert out["k"] == default_k(300) and out["trials"] == 2 and len(out["runs"]) == 2
    assert 0.0 <= out["success_rate"] <= 1.0
    assert sum(out["statuses"].values()) == 2
    assert all(run["targets_correct"] <= run["n_targets"] == 5 for run in out["runs"])
    assert out["insecure_seed"] is True


def test_active_attack_on_a_graph_too_small(tmp_path):
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("1 2\n2 3\n3 4\n4 5\n")
    result = _run("attack", "active", tiny, "--targets", 2, "--seed", 1)
    assert result.exit_code == 2 and "too small" in result.output
    result = _run("attack", "active", tiny, "--k", 3, "--targets", 9)
    assert result.exit_code == 2 and "n_targets = 9" in result.output


# ============================================================================ propagate
def test_propagate_from_top_degree_seeds_scores_against_the_truth(pair_dir, tmp_path):
    folder, summary = pair_dir
    mapping = tmp_path / "mapping.csv"
    out = _ok("attack", "propagate", folder, "--seeds", 10, "--theta", 0.1, "-o", mapping)
    assert out["seeding"] == {"kind": "top-degree", "requested": 10, "seeds": 10,
                              "seeds_correct": 10}  # fmt: skip
    assert out["true_pairs"] == summary["common_nodes"]
    assert 10 <= out["correct"] <= out["mapped"]
    assert out["accuracy"] == pytest.approx(out["correct"] / out["mapped"])
    assert out["coverage"] == pytest.approx(out["correct"] / out["true_pairs"])
    assert out["seconds"] >= 0
    found = pl.read_csv(mapping)
    assert found.height == out["mapped"]
    truth = pl.read_csv(folder / "truth.csv")
    hits = found.join(truth, on=["aux", "san"], how="inner").height
    assert hits == out["correct"]


def test_propagate_from_a_seeds_file_and_from_discovered_seeds(pair_dir, tmp_path):
    folder = pair_dir[0]
    seeds = tmp_path / "seeds.csv"
    pl.read_csv(folder / "truth.csv").head(15).write_csv(seeds)
    out = _ok("attack", "propagate", folder, "--seeds-file", seeds)
    assert out["seeding"]["kind"] == "file" and out["seeding"]["seeds_correct"] == 15
    assert out["correct"] >= 15
    disc = _ok("attack", "propagate", folder, "--discover", 10, "--theta", 0.5)
    assert disc["seeding"]["kind"] == "discovered" and disc["seeding"]["seeds"] == 10
    assert 0 <= disc["seeding"]["seeds_correct"] <= 10 and disc["theta"] == 0.5


def test_propagate_bad_seeds_file_names_the_line(pair_dir, tmp_path):
    folder = pair_dir[0]
    seeds, mapping = tmp_path / "seeds.csv", tmp_path / "mapping.csv"
    seeds.write_text("aux,san\n0,1\n5000,2\n")
    result = _run("attack", "propagate", folder, "--seeds-file", seeds, "-o", mapping)
    assert result.exit_code == 2
    assert "line 3" in result.output and "aux node 5000" in result.output
    seeds.write_text("aux,san\n0,1\n2,x\n")
    result = _run("attack", "propagate", folder, "--seeds-file", seeds, "-o", mapping)
    assert result.exit_code == 2 and "line 3" in result.output and "'x'" in result.output
    seeds.write_text("aux,san\n0,1\n2,1\n")
    result = _run("attack", "propagate", folder, "--seeds-file", seeds, "-o", mapping)
    assert result.exit_code == 2 and "line 3" in result.output and "san node 1" in result.output
    assert not mapping.exists()


@pytest.mark.parametrize("missing", ["truth.csv", "aux.txt"])
def test_propagate_on_an_incomplete_pair_folder(pair_copy, tmp_path, missing):
    (pair_copy / missing).unlink()
    mapping = tmp_path / "mapping.csv"
    result = _run("attack", "propagate", pair_copy, "--seeds", 5, "-o", mapping)
    assert result.exit_code == 2 and f"missing {missing}" in result.output
    assert not mapping.exists()


def test_propagate_without_common_nodes(pair_copy):
    (pair_copy / "truth.csv").write_text("aux,san\n")
    result = _run("attack", "propagate", pair_copy, "--seeds", 5)
    assert result.exit_code == 2 and "no common node" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seeds", "5", "--theta", "-0.5"], "--theta"),
        ([], "give one way to seed"),
        (["--seeds", "5", "--discover", "5"], "--seeds, --discover"),
    ],
)
def test_propagate_bad_options(pair_dir, args, message):
    result = _run("attack", "propagate", pair_dir[0], *args)
    assert result.exit_code == 2 and message in result.output


def test_propagate_on_a_folder_that_does_not_exist(tmp_path):
    result = _run("attack", "propagate", tmp_path / "nowhere", "--seeds", 5)
    assert result.exit_code == 2 and "nowhere: no such folder" in result.output


def test_pair_folder_files_hold_every_node(graphs, tmp_path):
    """A node that lost all its edges is its id alone on a line of aux.txt."""
    out = tmp_path / "sparse"
    summary = _ok("pair", graphs[0], "--alpha-v", 1, "--alpha-e", 0.2, "--seed", 4, "-o", out)
    aux = read_graph(out / "aux.txt").graph
    assert aux.n_nodes == summary["aux_nodes"] == 34 and (aux.degrees() == 0).any()
    lonely = [line for line in (out / "aux.txt").read_text().splitlines() if line.isdigit()]
    assert sorted(map(int, lonely)) == np.flatnonzero(aux.degrees() == 0).tolist()
    res = _ok("attack", "propagate", out, "--seeds", 3)
    assert res["true_pairs"] == 34 and np.isfinite(res["seconds"])


def test_pair_folder_without_node_lines_is_still_read(graphs, tmp_path):
    """Folders written before nodes without edges had lines: pair.json gives the count."""
    out = tmp_path / "old"
    _ok("pair", graphs[0], "--alpha-v", 1, "--alpha-e", 0.2, "--seed", 4, "-o", out)
    for side in ("aux.txt", "san.txt"):
        text = (out / side).read_text().split("# Nodes without edges")[0]
        (out / side).write_text(text.replace("Nodes:", "Vertices:"))  # no count either
    res = _ok("attack", "propagate", out, "--seeds", 3)
    assert res["true_pairs"] == 34


# ============================================================================ learned
def test_learned_attack_scores_the_pair_and_runs_3psl(pair_dir):
    out = _ok("attack", "learned", pair_dir[0], "--alpha-v", 0.8, "--alpha-e", 0.8,
              "--non-identical", 3000, "--seed", 1, "--3psl", "--thresholds", "12,8,5",
              "--score-cut", 0.5, "--order", "cs", "--per-band")  # fmt: skip
    assert out["method"] == "forest" and out["identical_pairs"] > 50
    assert 0.5 < out["auc"] <= 1.0  # better than guessing on an easy pair (α_E = 0.8)
    assert list(out["tp_at_fp"]) == ["0.001%", "0.01%", "0.1%", "1%", "10%", "25%"]
    assert all(0 <= t <= 1 for t in out["tp_at_fp"].values())
    tp = list(out["tp_at_fp"].values())
    assert tp == sorted(tp)  # TP at a larger FP budget is never lower
    three = out["threepsl"]
    assert three["m_true"] <= three["m_out"] == sum(three["mapped"])
    assert 0 <= three["accuracy"] <= 1 and 0 <= three["coverage_all"] <= 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--method", "svm"], "choose forest or gbm"),
        (["--3psl", "--order", "degree"], "choose score"),
        (["--3psl", "--thresholds", "a,b"], "three integers"),
        (["--3psl", "--thresholds", "5,9,30"], "thresholds"),
    ],
)
def test_learned_bad_options(pair_dir, args, message):
    result = _run("attack", "learned", pair_dir[0], "--non-identical", 100, *args)
    assert result.exit_code == 2 and message in result.output, result.output


def test_learned_3psl_with_one_shared_scorer(pair_dir):
    out = _ok("attack", "learned", pair_dir[0], "--alpha-v", 0.8, "--alpha-e", 0.8,
              "--non-identical", 2000, "--seed", 2, "--3psl", "--thresholds", "12,8,5",
              "--score-cut", 0.5, "--order", "cs")  # fmt: skip
    three = out["threepsl"]
    assert sum(three["pairs_scored"]) > 0 and three["m_true"] <= three["m_out"]
