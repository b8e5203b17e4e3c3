"""The graph audit is honest: approximate attacks, the worst verdict, no LOW without the truth.

Exact structural matching finds no one once a perturbation changes people's structure; the
audit runs Narayanan–Shmatikov propagation (and, on request, the learned attack), scores them
with the truth, and takes the most severe finding as the verdict.  Without the truth the
strong attacks cannot be scored and the verdict is "not established", never low.
"""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
from matplotlib.colors import to_rgba
from typer.testing import CliRunner

from privlab.audit import SEVERITIES, AuditResult, Finding, audit_graph
from privlab.cli.main import app
from privlab.errors import ConfigError
from privlab.graph.anonymize.perturb import random_add_delete, random_switch
from privlab.graph.core import Graph, write_graph
from privlab.report import Report, plots

EXACT = ("refinement:H1", "refinement:H2", "refinement:H*", "subgraph")


@pytest.fixture(scope="module")
def regular() -> Graph:
    """A random 6-regular graph: exact structural matching cannot tell its people apart."""
    return Graph.from_networkx(nx.random_regular_graph(6, 200, seed=1))


@pytest.fixture(scope="module")
def switched(regular) -> Graph:
    """5 % of its edges switched: degrees kept, the structure changed a little."""
    return random_switch(regular, 0.05, seed=2).graph


def _quick(release: Graph, original: Graph, **kw) -> AuditResult:
    return audit_graph(release, original, sample=10, facts=(1, 3), utility_sample=20, **kw)


# ------------------------------------------------------------------------------ ego-Facebook
def test_rad_5pct_facebook_is_not_low_when_propagation_reidentifies_most(facebook_graph):
    release = random_add_delete(facebook_graph, 0.05, seed=1).graph
    res = audit_graph(release, facebook_graph, sample=5, facts=(1, 2), utility_sample=64)
    prop = res.finding("propagation")
    assert prop.numbers["reidentified_fraction"] > 0.5  # most of the people who are not seeds
    assert prop.numbers["correct"] > prop.numbers["targets"] / 2
    assert prop.numbers["beats_chance"] and prop.severity == "high"
    assert "50 highest-degree people" in prop.text  # the seed assumption is stated
    assert res.severity != "low"
    assert res.severity == "high"
    assert not res.summary().splitlines()[0].startswith("Overall: LOW")


# ------------------------------------------------------------------------------ the verdict
def test_verdict_is_the_worst_across_attacks(regular, switched):
    from privlab.audit.graph_attacks import default_seed_count

    res = _quick(switched, regular)
    # every exact matching check finds no one to single out on a regular graph ...
    assert {res.finding(k).severity for k in EXACT} == {"low"}
    assert res.finding("perturbation").severity == "low"
    # ... while propagation from the 20 top-degree people re-identifies nearly everyone
    prop = res.finding("propagation")
    assert prop.numbers["seeds"] == default_seed_count(regular.n_nodes) == 20
    assert prop.numbers["reidentified_fraction"] > 0.9
    assert prop.severity == "high"
    rank = {s: i for i, s in enumerate(SEVERITIES)}
    worst = min((f.severity for f in res.findings), key=rank.__getitem__)
    assert res.severity == worst == "high"
    assert res.summary().startswith("Overall: HIGH")
    assert res.to_dict()["severity"] == "high"


def test_severity_order_puts_not_established_between_medium_and_low():
    def verdict(*levels: str) -> str:
        fs = [Finding(f"k{i}", "t", s, "x") for i, s in enumerate(levels)]
        return AuditResult("graph", fs, {}, Report("r")).severity

    assert verdict("low", "not established", "info") == "not established"
    assert verdict("not established", "medium") == "medium"
    assert verdict("high", "not established", "low") == "high"
    assert verdict("low", "info") == "low"


def test_unknown_truth_gives_no_low(regular, switched):
    res = _quick(switched, regular, aligned=False)
    assert {res.finding(k).severity for k in EXACT} == {"low"}
    prop = res.finding("propagation")
    assert prop.severity == "not established"
    assert "Not scored" in prop.text
    assert res.severity == "not established"
    verdict = res.summary().splitlines()[0]
    assert "NOT ESTABLISHED" in verdict and "LOW" not in verdict
    assert res.details["propagation"]["scored"] is False
    html = res.report.render()
    assert "NOT ESTABLISHED" in html and "Not scored" in html


def test_relabelled_release_without_mapping_is_not_established(regular, switched):
    perm = np.random.default_rng(5).permutation(regular.n_nodes)
    relabelled = Graph.from_edges(regular.n_nodes, perm[switched.edges()])
    res = _quick(relabelled, regular, learned=True)  # detection: ids do not align
    assert not res.details["aligned"]
    assert res.finding("propagation").severity == "not established"
    assert res.finding("learned").severity == "not established"
    assert res.severity == "not established"


def test_a_destroyed_structure_is_not_scored_as_reidentification():
    g = Graph.from_networkx(nx.powerlaw_cluster_graph(300, 4, 0.3, seed=3))
    noise = random_add_delete(g, 1.0, seed=4).graph  # a uniform random graph, same ids
    res = _quick(noise, g, aligned=True)
    prop = res.finding("propagation")
    for row in res.details["propagation"]["by_theta"]:  # luck only
        assert not row["beats_chance"]
        assert row["correct"] <= 5
    assert prop.severity == "low"


# ------------------------------------------------------------------------------ seeds
def test_seed_assumptions(regular, switched):
    res = _quick(switched, regular, seeds=30, thetas=(0.1,))
    d = res.details["propagation"]
    assert d["seeds"] == 30 and d["seeding"] == "top-degree"
    assert [r["theta"] for r in d["by_theta"]] == [0.1]
    assert res.finding("propagation").numbers["targets"] == regular.n_nodes - 30
    res = _quick(switched, regular, seeds=10, seeding="discovered")
    d = res.details["propagation"]
    assert d["seeding"] == "discovered" and 0 <= d["seeds_correct"] <= 10
    assert "knows no one" in res.finding("propagation").text
    assert res.finding("propagation").numbers["targets"] == regular.n_nodes
    for bad in ({"seeds": 0}, {"seeds": 200}, {"seeding": "oracle"}, {"thetas": (-1,)}):
        with pytest.raises(ConfigError):
            _quick(switched, regular, **bad)


def test_default_seed_count_and_chance():
    from privlab.audit.graph_attacks import chance, default_seed_count

    assert [default_seed_count(n) for n in (2, 34, 200, 500, 4039, 10**6)] == [1, 4, 20, 50, 50, 50]
    lam, p = chance(1, 100, 100)
    assert lam == 1.0 and p == pytest.approx(1 - np.exp(-1))
    assert chance(0, 10, 100) == (0.1, 1.0)
    assert chance(20, 100, 100)[1] < 1e-15


def test_shuffled_release_hides_ids_and_keeps_structure(switched):
    from privlab.audit.graph_attacks import shuffle_release

    s = shuffle_release(switched, 0)
    assert s.graph.n_edges == switched.n_edges
    # node i of the release is node truth[i] of the shuffled graph: the same edges
    mapped = {tuple(sorted(e)) for e in s.truth[switched.edges()].tolist()}
    assert mapped == {tuple(sorted(e)) for e in s.graph.edges().tolist()}
    assert not np.array_equal(s.truth, np.arange(switched.n_nodes))


def test_progress_reaches_its_total(regular, switched):
    calls: list[tuple[int, int]] = []
    _quick(switched, regular, progress=lambda done, total: calls.append((done, total)))
    assert [c[0] for c in calls] == list(range(1, len(calls) + 1))
    assert calls[-1][0] == calls[-1][1] == 4 + 2  # 4 checks + propagation at two θ


# ------------------------------------------------------------------------------ the chart
def _legend(fig) -> dict[str, tuple[float, ...]]:
    leg = fig.axes[0].get_legend()
    return {
        t.get_text(): tuple(to_rgba(h.get_facecolor()))
        for t, h in zip(leg.get_texts(), leg.legend_handles, strict=True)
    }


def test_chart_has_its_own_matches_nobody_entry():
    fig = plots.candidate_set_buckets(
        {"original H*": [1, 1, 2, 3], "release H*": [0, 0, 0, 1]}, x_label="knowledge"
    )
    legend = _legend(fig)
    nobody = [k for k in legend if "matches nobody" in k]
    singled = [k for k in legend if "singled out" in k]
    assert len(nobody) == 1 and len(singled) == 1
    colour = legend[nobody[0]]
    assert colour != legend[singled[0]]
    assert colour not in {c for k, c in legend.items() if k != nobody[0]}
    # the segment is as tall as the share of size 0: 3 of 4 on the release bar
    bars = [p for p in fig.axes[0].patches if tuple(to_rgba(p.get_facecolor())) == colour]
    assert [round(p.get_height(), 6) for p in bars] == [0.0, 0.75]
    # without a size 0 the chart is as before: no such entry
    plain = _legend(plots.candidate_set_buckets({"a": [1, 2]}))
    assert not any("matches nobody" in k for k in plain)


def test_audit_counts_matches_nobody_apart_from_singled_out(regular):
    release = random_add_delete(regular, 0.05, seed=3).graph  # degrees change: H* matches nobody
    res = _quick(release, regular)
    star = res.details["refinement"]["release"]["H*"]["fractions"]
    assert star["0"] == res.finding("refinement:H*").numbers["no_match_fraction"] > 0.5
    assert star["1"] == res.finding("refinement:H*").numbers["unique_fraction"]
    assert sum(star.values()) == pytest.approx(1.0)
    assert res.finding("refinement:H*").title.startswith("Exact structural matching")


# ------------------------------------------------------------------------------ CLI
runner = CliRunner()


def test_cli_seeds_and_report(tmp_path, regular, switched):
    write_graph(regular, tmp_path / "o.txt")
    write_graph(switched, tmp_path / "r.txt")
    out = tmp_path / "a.html"
    base = ["audit", str(tmp_path / "r.txt"), "--original", str(tmp_path / "o.txt"), "-o",
            str(out), "--sample", "5", "--facts", "1"]  # fmt: skip
    res = runner.invoke(app, [*base, "--seeds", "12", "--json"])
    assert res.exit_code == 0, res.output
    payload = json.loads(res.stdout)
    assert payload["severity"] == "high"
    prop = next(f for f in payload["findings"] if f["key"] == "propagation")
    assert prop["numbers"]["seeds"] == 12 and "12 highest-degree people" in prop["text"]
    assert not any(f["key"] == "learned" for f in payload["findings"])  # opt-in
    html = out.read_text()
    for text in ("Propagation (Narayanan–Shmatikov)", "Seed assumption", "12 highest-degree",
                 "Learned attack", "--learned"):  # fmt: skip
        assert text in html
    out.unlink()
    res = runner.invoke(app, [*base, "--no-aligned-ids"])
    assert res.exit_code == 0, res.output
    assert "NOT ESTABLISHED" in res.stdout and "Overall: LOW" not in res.stdout


@pytest.mark.parametrize("bad", [["--seeds", "0"], ["--seeds", "500"], ["--seeding", "oracle"]])
def test_cli_bad_seed_options_exit_2_and_write_nothing(tmp_path, regular, switched, bad):
    write_graph(regular, tmp_path / "o.txt")
    write_graph(switched, tmp_path / "r.txt")
    out = tmp_path / "a.html"
    res = runner.invoke(
        app, ["audit", str(tmp_path / "r.txt"), "--original", str(tmp_path / "o.txt"),
              "-o", str(out), *bad],
    )  # fmt: skip
    assert res.exit_code == 2, res.output
    assert "error" in res.output and not out.exists()


def test_cli_learned_attack_is_opt_in(tmp_path):
    g = Graph.from_networkx(nx.powerlaw_cluster_graph(600, 10, 0.3, seed=1))
    write_graph(g, tmp_path / "o.txt")
    write_graph(random_add_delete(g, 0.05, seed=2).graph, tmp_path / "r.txt")
    res = runner.invoke(
        app, ["audit", str(tmp_path / "r.txt"), "--original", str(tmp_path / "o.txt"),
              "-o", str(tmp_path / "a.html"), "--sample", "3", "--facts", "1", "--learned",
              "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    payload = json.loads(res.stdout)
    learned = next(f for f in payload["findings"] if f["key"] == "learned")
    n = learned["numbers"]
    assert n["correct"] <= n["matches"] <= 600 and n["targets"] == 600
    assert n["beats_chance"] and n["reidentified_fraction"] > 0.5
    assert learned["severity"] == "high"
    assert "threepsl" in payload["details"]["learned"]
