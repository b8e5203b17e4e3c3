"""``privlab audit``: findings checked against direct library calls, the CLI, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.audit import Thresholds, audit_graph, audit_table, edge_overlap
from privlab.cli.main import app
from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.perturb import random_add_delete
from privlab.graph.attacks.refinement import perturbation_h1_risk, release_candidate_sizes
from privlab.graph.core import Graph, write_graph
from privlab.table.anonymize import anonymize
from privlab.table.attacks import homogeneity_attack, linkage_attack, permutation_inference
from privlab.table.hierarchy import Hierarchy
from privlab.table.permutation import PermutationRelease, anatomy
from privlab.table.risk import risk_of_frame

QI = ["age", "zip", "sex"]
AGE = Hierarchy.from_rows(
    [[str(a), f"{a // 10 * 10}-{a // 10 * 10 + 9}", "*"] for a in range(20, 60)]
)
ZIP = Hierarchy.from_rows(
    [
        ["13053", "1305*", "130**", "*"],
        ["13068", "1306*", "130**", "*"],
        ["14850", "1485*", "148**", "*"],
        ["14853", "1485*", "148**", "*"],
    ]
)
SEX = Hierarchy.flat(["M", "F"])
HIER = {"age": AGE, "zip": ZIP, "sex": SEX}


@pytest.fixture(scope="module")
def table() -> pl.DataFrame:
    rng = np.random.default_rng(1)
    n = 300
    return pl.DataFrame(
        {
            "age": [str(a) for a in rng.integers(20, 60, n)],
            "zip": rng.choice(["13053", "13068", "14850", "14853"], n),
            "sex": rng.choice(["M", "F"], n),
            "disease": rng.choice(["flu", "cancer", "hiv", "cold"], n),
        }
    )


@pytest.fixture(scope="module")
def k_release(table):
    return anonymize(
        table, quasi_identifiers=QI, hierarchies=HIER, sensitive=["disease"], k=5,
        suppression_limit=0.05,
    )  # fmt: skip


@pytest.fixture(scope="module")
def karate() -> Graph:
    return Graph.from_networkx(nx.karate_club_graph())


# ------------------------------------------------------------------------------ tables
def test_table_audit_matches_library(table, k_release):
    res = audit_table(
        k_release.data, table, quasi_identifiers=QI, sensitive="disease", hierarchies=HIER
    )
    link = linkage_attack(table, k_release.data, QI, hierarchies=HIER).to_dict()
    f = res.finding("linkage")
    assert f.numbers["reidentification_rate"] == link["reidentification_rate"] == 0.0
    assert f.severity == "low"
    assert f.numbers["expected_success"] == pytest.approx(link["expected_success"])
    risk = risk_of_frame(k_release.data, QI).to_dict()
    r = res.finding("risk")
    assert r.numbers["prosecutor_highest_risk"] == risk["prosecutor_highest_risk"] <= 0.2
    assert r.numbers["suppressed"] == risk["suppressed"]
    hom = homogeneity_attack(k_release.data, QI, "disease").to_dict()
    h = res.finding("homogeneity:disease")
    assert h.numbers["disclosure_rate"] == hom["disclosure_rate"]
    assert h.numbers["mean_max_posterior"] == pytest.approx(hom["mean_max_posterior"])
    bg = homogeneity_attack(k_release.data, QI, "disease", rule_out=1).to_dict()
    assert res.finding("background:disease").numbers["disclosure_rate"] == bg["disclosure_rate"]
    assert res.finding("background:disease").severity in ("low", "medium")
    u = res.finding("utility")
    assert 0 < u.numbers["loss"] < 1 and u.severity == "info"
    # the levels recovered from the labels include the levels the anonymizer chose
    for j, c in enumerate(QI):
        assert k_release.result.levels[c] in res.details["utility"]["qi"][c]["levels"], j
    titles = [s.title for s in res.report.sections]
    assert titles[0] == "Summary" and "Re-identification" in titles and "Utility" in titles
    json.dumps(res.to_dict())  # serializable


def test_raw_table_is_high_risk(table):
    res = audit_table(table, table, quasi_identifiers=QI, sensitive="disease")
    link = linkage_attack(table, table, QI).to_dict()
    f = res.finding("linkage")
    assert f.numbers["reidentification_rate"] == link["reidentification_rate"] > 0.01
    assert f.severity == "high" and res.severity == "high"
    assert f"{100 * link['reidentification_rate']:.3g} %" in f.text
    assert res.finding("utility").numbers["loss"] == 0.0


def test_thresholds():
    th = Thresholds()
    assert th.singled_out(0.0) == "low" and th.singled_out(0.001) == "medium"
    assert th.singled_out(0.01) == "high"
    assert th.risk(0.2) == "low" and th.risk(0.25) == "medium" and th.risk(1.0) == "high"
    with pytest.raises(ConfigError):
        Thresholds(risk_medium=0.9, risk_high=0.5)


def test_generalized_labels_without_hierarchy_are_refused(table):
    rel = table.with_columns(pl.Series("zip", ZIP.generalize(table["zip"].to_list(), 1)))
    with pytest.raises(InputError, match="--hierarchy zip"):
        audit_table(rel, table, quasi_identifiers=QI, sensitive="disease")
    # ranges lo-hi over a numeric column are understood without a hierarchy (Mondrian)
    rel = table.with_columns(pl.Series("age", AGE.generalize(table["age"].to_list(), 1)))
    res = audit_table(rel, table, quasi_identifiers=QI, sensitive="disease")
    assert res.details["utility"]["qi"]["age"]["measure"] == "range (NCP)"
    assert res.finding("linkage").numbers["unmatched"] == 0


def test_permutation_audit(table, tmp_path):
    rel = anatomy(table, qi=QI, sensitive="disease", l=3, seed=1)
    rel.write(tmp_path / "perm")
    back = PermutationRelease.read(tmp_path / "perm")
    res = audit_table(back, table)
    assert res.kind == "permutation"
    direct = permutation_inference(back, targets=table).to_dict()
    f = res.finding("permutation:disease")
    assert f.numbers["disclosure_rate"] == direct["disclosure_rate"] == 0.0
    assert f.numbers["max_max_posterior"] == pytest.approx(direct["max_max_posterior"])
    assert f.numbers["max_max_posterior"] <= 1 / 3 + 1e-9
    link = linkage_attack(table, back.qi, QI).to_dict()
    assert res.finding("linkage").numbers["reidentification_rate"] == pytest.approx(
        link["reidentification_rate"]
    )
    assert res.details["utility"]["groups"] == back.n_groups


# ------------------------------------------------------------------------------ graphs
def test_graph_audit_rad(karate):
    pert = random_add_delete(karate, 0.1, seed=3)
    res = audit_graph(pert.graph, karate, sample=10, facts=(1, 3))
    assert res.details["aligned"]
    m = pert.edges_removed
    direct = perturbation_h1_risk(karate, pert.graph, m)
    f = res.finding("perturbation")
    assert f.numbers["m"] == m
    assert f.numbers["unique_fraction"] == pytest.approx(float((direct.sizes == 1).mean()))
    cross = release_candidate_sizes(karate, pert.graph)  # original knowledge vs the release
    for name, level in (("H1", 1), ("H2", 2), ("H*", None)):
        numbers = res.finding(f"refinement:{name}").numbers
        assert numbers["unique_fraction"] == float((cross[level] == 1).mean())
        assert numbers["no_match_fraction"] == float((cross[level] == 0).mean())
    assert res.details["subgraph"]["targets"] == 10
    assert res.finding("utility").numbers["hellinger_dd"] >= 0
    json.dumps(res.to_dict())


def test_graph_audit_relabelled_is_not_aligned(karate):
    rng = np.random.default_rng(0)
    perm = rng.permutation(karate.n_nodes)
    relab = Graph.from_edges(karate.n_nodes, perm[karate.edges()])
    assert edge_overlap(karate, relab) < 0.5
    res = audit_graph(relab, karate, sample=5, facts=(2,))
    assert not res.details["aligned"]
    assert "skipped" in res.details["perturbation"]
    with pytest.raises(KeyError):
        res.finding("perturbation")
    # a naive release has the original's structure: same H* buckets
    assert res.details["refinement"]["release"] == res.details["refinement"]["original"]


# ------------------------------------------------------------------------------ CLI
runner = CliRunner()


def _write_table_files(tmp_path, table, k_release):
    table.write_csv(tmp_path / "orig.csv")
    k_release.data.write_csv(tmp_path / "rel.csv")
    hdir = tmp_path / "hier"
    hdir.mkdir()
    for c, h in HIER.items():
        h.to_csv(hdir / f"{c}.csv")
    return hdir


def test_cli_table_happy_path(tmp_path, table, k_release):
    hdir = _write_table_files(tmp_path, table, k_release)
    out = tmp_path / "report.html"
    res = runner.invoke(
        app,
        ["audit", str(tmp_path / "rel.csv"), "--original", str(tmp_path / "orig.csv"),
         "-o", str(out), "--qi", "age,zip,sex", "--sensitive", "disease",
         "--hierarchies", str(hdir), "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    payload = json.loads(res.stdout)
    assert payload["kind"] == "table"
    keys = {f["key"] for f in payload["findings"]}
    assert {"linkage", "risk", "homogeneity:disease", "utility"} <= keys
    html = out.read_text()
    for title in ("Summary", "Re-identification", "Sensitive-value disclosure", "Utility"):
        assert title in html
    assert "<img" in html


def test_cli_permutation_and_graph(tmp_path, table, karate):
    table.write_csv(tmp_path / "orig.csv")
    anatomy(table, qi=QI, sensitive="disease", l=3, seed=1).write(tmp_path / "perm")
    out = tmp_path / "p.html"
    res = runner.invoke(
        app, ["audit", str(tmp_path / "perm"), "--original", str(tmp_path / "orig.csv"),
              "-o", str(out)],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "Overall" in res.stdout and out.is_file()
    write_graph(karate, tmp_path / "k.txt")
    write_graph(random_add_delete(karate, 0.1, seed=2).graph, tmp_path / "r.txt")
    out = tmp_path / "g.html"
    res = runner.invoke(
        app, ["audit", str(tmp_path / "r.txt"), "--original", str(tmp_path / "k.txt"),
              "-o", str(out), "--sample", "5", "--facts", "1,2"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    html = out.read_text()
    for title in ("Structural re-identification", "Perturbation posterior", "Subgraph knowledge"):
        assert title in html


@pytest.mark.parametrize(
    "case",
    ["missing", "mismatch", "no_sensitive", "no_qi", "no_hierarchy", "folder_output",
     "output_is_release", "output_is_original"],
)  # fmt: skip
def test_cli_bad_input_exits_2_and_writes_nothing(tmp_path, table, k_release, karate, case):
    _write_table_files(tmp_path, table, k_release)
    write_graph(karate, tmp_path / "k.txt")
    zipped = table.with_columns(pl.Series("zip", ZIP.generalize(table["zip"].to_list(), 2)))
    zipped.write_csv(tmp_path / "zip.csv")
    rel, orig = str(tmp_path / "rel.csv"), str(tmp_path / "orig.csv")
    out = tmp_path / "out.html"
    extra = ["--qi", "age,zip,sex", "--sensitive", "disease"]
    args = {
        "missing": [str(tmp_path / "nope.csv"), "--original", orig, *extra],
        "mismatch": [rel, "--original", str(tmp_path / "k.txt"), *extra],
        "no_sensitive": [rel, "--original", orig, "--qi", "age,zip,sex",
                         "--hierarchies", str(tmp_path / "hier")],
        "no_qi": [rel, "--original", orig, "--sensitive", "disease"],
        "no_hierarchy": [str(tmp_path / "zip.csv"), "--original", orig, *extra],
    }.get(case, [rel, "--original", orig, *extra])  # fmt: skip
    target = {"folder_output": tmp_path, "output_is_release": Path(rel),
              "output_is_original": Path(orig)}.get(case, out)  # fmt: skip
    before = {p: p.read_bytes() for p in tmp_path.glob("*.csv")}
    res = runner.invoke(app, ["audit", *args, "-o", str(target)])
    assert res.exit_code == 2, res.output
    assert "error" in res.output
    assert not out.exists()
    assert {p: p.read_bytes() for p in tmp_path.glob("*.csv")} == before
