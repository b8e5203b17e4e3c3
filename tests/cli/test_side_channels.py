"""No secrets in side channels (issue 15): the DP commands print no exact statistic of the
input unless ``--non-private-diagnostics`` asks for it, flag ``insecure_seed`` consistently,
and no command prints a private cell value in an error (DP commands not even a line)."""

from __future__ import annotations

import json
import re

import networkx as nx
import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.graph.core import Graph, write_graph
from privlab.table.sample import census_sample

runner = CliRunner()

SECRET = "SECRET-4471"
ROWS = 2917  # distinctive: an exact row count printed anywhere would show


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def people(tmp_path):
    path = tmp_path / "people.csv"
    rows = ["age,sex,income"] + [
        f"{20 + i % 50},{'F' if i % 3 else 'M'},{1000 * (i % 7)}" for i in range(ROWS)
    ]
    path.write_text("\n".join(rows) + "\n")
    return path


def _with_cell(path, line, column, value, tmp_path):
    """A copy of the CSV ``path`` with the cell at file line ``line`` of ``column`` replaced."""
    frame = pl.read_csv(path, infer_schema=False)
    cells = frame[column].to_list()
    cells[line - 2] = value
    out = tmp_path / f"bad_{column}.csv"
    frame.with_columns(pl.Series(column, cells, dtype=pl.String)).write_csv(out)
    return out


# ---------------------------------------------------------------------------- dp release
def _mentions(text: str, number: int) -> bool:
    """Does ``text`` print ``number`` as a whole number (not inside 0.300 or 1300)?"""
    return re.search(rf"(?<![\d.]){number}(?![\d.])", text) is not None


def test_release_prints_no_row_count_unless_asked(people):
    # a fixed (insecure) seed: the mean's noisy count is a DP figure that, unseeded, equals the
    # exact 2917 about one run in eight and would read as a leak
    args = [people, "-q", "histogram:sex", "-q", "mean:age:0:100", "--bins", "sex=F,M", "-e", "1",
            "--seed", "4"]  # fmt: skip
    plain = run("dp", "release", *args, "--json")
    assert plain.exit_code == 0, plain.output
    payload = json.loads(plain.stdout)
    assert "rows_read" not in payload and "non_private_diagnostics" not in payload
    assert not _mentions(plain.stdout, ROWS)
    human = run("dp", "release", *args)
    assert human.exit_code == 0 and not _mentions(human.stdout, ROWS)
    asked = run("dp", "release", *args, "--json", "--non-private-diagnostics")
    section = json.loads(asked.stdout)["non_private_diagnostics"]
    assert section["rows_read"] == ROWS
    assert section["warning"].startswith("NOT differentially private")
    shown = run("dp", "release", *args, "--non-private-diagnostics")
    assert "NOT differentially private" in shown.stdout and str(ROWS) in shown.stdout


@pytest.mark.parametrize(("seed", "insecure"), [([], False), (["--seed", "4"], True)])
def test_release_insecure_seed_is_the_same_at_the_top_and_in_every_answer(people, seed, insecure):
    result = run("dp", "release", people, "-q", "count", "-q", "sum:income:0:6000",
                 "-q", "mean:age:0:100", "-q", "histogram:sex", "--bins", "sex=F,M",
                 "-e", "1", "--delta", "1e-6", *seed, "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["insecure_seed"] is insecure
    assert [r["insecure_seed"] for r in payload["releases"]] == [insecure] * 4


def test_release_mean_with_delta_states_the_delta_it_spent(people):
    result = run("dp", "release", people, "-q", "mean:age:0:100", "-e", "1", "--delta", "1e-6",
                 "--json")  # fmt: skip
    (answer,) = json.loads(result.stdout)["releases"]
    assert answer["delta"] == 1e-6 == json.loads(result.stdout)["budget"]["spent"]["delta"]


@pytest.mark.parametrize(
    ("column", "value", "query"),
    [
        ("income", SECRET, ["-q", "sum:income:0:6000"]),
        ("income", "", ["-q", "mean:income:0:6000"]),
        ("sex", SECRET, ["-q", "histogram:sex", "--bins", "sex=F,M"]),
        ("age", "987654321", ["-q", "histogram:age", "--bins", "age=0:100:10"]),
    ],
)
def test_release_errors_show_no_value_and_no_line(people, tmp_path, column, value, query):
    bad = _with_cell(people, 7, column, value, tmp_path)
    result = run("dp", "release", bad, *query, "-e", "1")
    assert result.exit_code == 2, result.output
    assert f"column '{column}'" in result.output and "1 " in result.output
    assert value == "" or value not in result.output
    assert "line" not in result.output and "row 5" not in result.output


# ---------------------------------------------------------------------------- safe-kanon
@pytest.fixture
def census(tmp_path):
    s = census_sample(1500, seed=2)
    data = tmp_path / "census.csv"
    s.frame.write_csv(data)
    args = []
    for c in s.quasi_identifiers:
        path = tmp_path / f"h_{c}.csv"
        s.hierarchies[c].to_csv(path)
        args += ["--qi", c, "--hierarchy", f"{c}={path}"]
    return data, [*args, "--identifying", "id", "--insensitive", "disease"]


def _safe_kanon(data, args, out, *extra):
    levels = "zip=3,age=2,sex=1,education=1,marital-status=1"
    return run("dp", "safe-kanon", data, *args, "-o", out, "-e", "1", "--beta", "0.5", "-k",
               "8", "--levels", levels, *extra)  # fmt: skip


EXACT = ("rows", "sampled", "not_sampled", "suppressed")


def test_safe_kanon_prints_no_exact_figure_of_the_input_unless_asked(census, tmp_path):
    data, args = census
    out = tmp_path / "release.csv"
    plain = _safe_kanon(data, args, out, "--json")
    assert plain.exit_code == 0, plain.output
    summary = json.loads(plain.stdout)
    assert not set(EXACT) & set(summary) and "non_private_diagnostics" not in summary
    assert summary["released"] == pl.read_csv(out).height  # public: the published file
    assert summary["insecure_seed"] is False
    human = _safe_kanon(data, args, out)
    assert human.exit_code == 0 and "not_sampled" not in human.stdout
    assert "suppressed" not in human.stdout
    asked = _safe_kanon(data, args, out, "--json", "--non-private-diagnostics", "--seed", "1")
    summary = json.loads(asked.stdout)
    section = summary["non_private_diagnostics"]
    assert section["rows"] == 1500 == section["not_sampled"] + section["sampled"]
    assert section["sampled"] == section["suppressed"] + summary["released"]
    assert summary["insecure_seed"] is True
    shown = _safe_kanon(data, args, out, "--non-private-diagnostics")
    assert "NOT differentially private" in shown.stdout and "not_sampled" in shown.stdout


def test_eps_safe_kanon_keeps_the_exact_scores_out(census, tmp_path):
    data, args = census
    result = run("dp", "safe-kanon", data, *args, "-o", tmp_path / "r.csv", "-e", "2",
                 "--delta", "1e-3", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    selection = json.loads(result.stdout)["selection"]
    assert "chosen_score" not in selection and "best_score" not in selection


@pytest.mark.parametrize("value", [SECRET, ""])
def test_safe_kanon_errors_show_no_value_and_no_line(census, tmp_path, value):
    data, args = census
    bad = _with_cell(data, 40, "zip", value, tmp_path)
    out = tmp_path / "release.csv"
    result = _safe_kanon(bad, args, out)
    assert result.exit_code == 2, result.output
    assert "column 'zip': 1 row with a" in result.output
    assert SECRET not in result.output and "line" not in result.output
    assert not out.exists()


# ---------------------------------------------------------------------------- graph dp-dk2
@pytest.fixture
def karate(tmp_path):
    path = tmp_path / "karate.txt"
    write_graph(Graph.from_networkx(nx.karate_club_graph()), path)
    return path


def _dk2(path, out, *extra):
    return run("graph", "anonymize", path, "-s", "dp-dk2", "-e", "1e6", "--max-degree", "40",
               "-o", out, *extra)  # fmt: skip


def test_dp_dk2_prints_no_exact_figure_of_the_input_unless_asked(karate, tmp_path):
    out = tmp_path / "out.txt"
    plain = _dk2(karate, out, "--json")
    assert plain.exit_code == 0, plain.output
    summary = json.loads(plain.stdout)
    assert "edges_before" not in summary and "read" not in summary
    assert summary["insecure_seed"] is False and summary["details"]["insecure_seed"] is False
    human = _dk2(karate, out)
    assert human.exit_code == 0 and "edges_before" not in human.stdout
    asked = _dk2(karate, out, "--json", "--non-private-diagnostics", "--seed", "2")
    summary = json.loads(asked.stdout)
    assert summary["non_private_diagnostics"]["edges_before"] == 78
    assert summary["non_private_diagnostics"]["read"]["edges"] == 78
    assert summary["insecure_seed"] is True and summary["details"]["insecure_seed"] is True


def test_dp_dk2_reader_notes_give_no_counts(tmp_path):
    path = tmp_path / "loops.txt"
    path.write_text("0 1\n1 2\n2 2\n3 3\n2 3\n1 0\n")
    result = _dk2(path, tmp_path / "out.txt")
    assert result.exit_code == 0, result.output
    assert "removed before the release" in result.output
    assert "self-loop(s)" not in result.output and "first on line" not in result.output


def test_non_private_diagnostics_belongs_to_dp_schemes(karate, tmp_path):
    result = run("graph", "anonymize", karate, "-s", "rsp", "--fraction", "0.1", "-o",
                 tmp_path / "o.txt", "--non-private-diagnostics")  # fmt: skip
    assert result.exit_code == 2 and "dp-dk2" in result.output


def test_dp_dk2_degree_error_shows_no_degree(tmp_path):
    path = tmp_path / "star.txt"
    write_graph(Graph.from_networkx(nx.star_graph(871)), path)
    result = _dk2(path, tmp_path / "out.txt")
    assert result.exit_code == 2, result.output
    assert "1 node(s) have a degree above" in result.output and "871" not in result.output


# ---------------------------------------------------------------------------- non-DP commands
def test_table_anonymize_error_names_the_line_not_the_value(census, tmp_path):
    data, args = census
    bad = _with_cell(data, 40, "zip", SECRET, tmp_path)
    out = tmp_path / "release.csv"
    result = run("table", "anonymize", bad, *args, "-k", "2", "-o", out)
    assert result.exit_code == 2, result.output
    assert "column 'zip': 1 row (first at line 40)" in result.output
    assert SECRET not in result.output


def test_table_permute_error_names_the_line_not_the_value(people, tmp_path):
    bad = _with_cell(people, 12, "income", SECRET, tmp_path)
    result = run("table", "permute", bad, "--qi", "age,sex", "--sensitive", "income",
                 "--k", "2", "--e", "1", "-o", tmp_path / "out")  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "column 'income': 1 row (first at line 12)" in result.output
    assert SECRET not in result.output


def test_hierarchy_build_error_names_the_line_not_the_value(people, tmp_path):
    bad = _with_cell(people, 9, "age", SECRET, tmp_path)
    result = run("table", "hierarchy", "interval", bad, "--column", "age", "--width", "10",
                 "-o", tmp_path / "h.csv")  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "line 9, column 'age'" in result.output and SECRET not in result.output


def test_bench_input_error_counts_bad_cells_without_quoting_them(tmp_path, monkeypatch):
    from privlab.bench.registry.datasets import load_dataset
    from privlab.errors import InputError

    row = "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, "
    row += "White, Male, 0, {loss}, 40, United-States, <=50K"
    data = tmp_path / "adult" / "uci" / "adult.data"
    data.parent.mkdir(parents=True)
    data.write_text("\n".join(row.format(loss=v) for v in ("1902", SECRET, "0")) + "\n")
    monkeypatch.setenv("PRIVLAB_DATA", str(tmp_path))
    with pytest.raises(InputError, match="column 'capital-loss': 1 row") as err:
        load_dataset("adult-capital-loss", {})
    assert SECRET not in str(err.value)
