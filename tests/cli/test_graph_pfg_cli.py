"""``privlab graph attack pfg``: seedless, scored against truth.csv, the mapping file, both
variants, and bad input (exit 2, nothing written)."""

from __future__ import annotations

import polars as pl
import pytest

from tests.cli import test_graph_seeded_cli as seeded
from tests.cli.test_graph_attack_cli import _ok, _run

pair = seeded.pair  # the same pair folder fixture (a power-law graph, 0.8 / 0.8)


@pytest.mark.parametrize("variant", ["paper", "secgraph"])
def test_pfg_scores_its_mapping_against_the_truth(pair, tmp_path, variant):
    folder, summary = pair
    mapping = tmp_path / "mapping.csv"
    out = _ok("attack", "pfg", folder, "--variant", variant, "-o", mapping)
    assert out["seeding"] == {"kind": "none", "seeds": 0} and out["seeds"] == 0
    assert out["variant"] == variant and out["method"] == "pfg"
    assert out["true_pairs"] == summary["common_nodes"]
    assert out["mapped"] == min(summary["aux_nodes"], summary["san_nodes"])
    assert out["wrong"] == out["mapped"] - out["correct"]
    assert out["coverage"] == pytest.approx(out["correct"] / out["true_pairs"])
    found = pl.read_csv(mapping)
    assert found.height == out["mapped"] == found["san"].n_unique() == found["aux"].n_unique()
    truth = pl.read_csv(folder / "truth.csv")
    assert found.join(truth, on=["aux", "san"], how="inner").height == out["correct"]


def test_paper_settings_are_reported(pair):
    out = _ok("attack", "pfg", pair[0], "--s", "0.8", "--weight", "posterior",
              "--landmarks", "fixed")  # fmt: skip
    assert (out["s"], out["weight"], out["landmarks"]) == (0.8, "posterior", "fixed")


def test_table_output(pair):
    result = _run("attack", "pfg", pair[0])
    assert result.exit_code == 0, result.output
    assert "PFG without seeds" in result.stdout and "coverage" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--s", "0"], "--s = 0"),
        (["--s", "2"], "--s = 2"),
        (["--variant", "cosine"], "--variant"),
        (["--weight", "max"], "--weight"),
        (["--landmarks", "all"], "--landmarks"),
        (["--seeds", "5"], "--seeds"),
    ],
)
def test_bad_options_exit_2_and_write_nothing(pair, tmp_path, args, message):
    mapping = tmp_path / "mapping.csv"
    result = _run("attack", "pfg", pair[0], *args, "-o", mapping)
    assert result.exit_code == 2 and message in result.output
    assert not mapping.exists()


def test_not_a_pair_folder_exits_2(tmp_path):
    result = _run("attack", "pfg", tmp_path / "nope")
    assert result.exit_code == 2 and "nope" in result.output
