"""``privlab dp release --groupby/--privacy-unit/--key(s)/-o``: grouped releases from a file."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app

runner = CliRunner()


@pytest.fixture
def visits(tmp_path):
    """600 people with 1–4 visits in 3 regions, as CSV and Parquet."""
    rng = np.random.default_rng(4)
    person = np.repeat(np.arange(600), rng.integers(1, 5, 600))
    frame = pl.DataFrame(
        {
            "person": person,
            "region": rng.choice(["north", "south", "east"], person.size),
            "cost": rng.integers(0, 100, person.size),
        }
    )
    frame.write_csv(tmp_path / "visits.csv")
    frame.write_parquet(tmp_path / "visits.parquet")
    return tmp_path, frame


def _run(*args):
    return runner.invoke(app, ["dp", "release", *map(str, args)])


def test_public_keys_to_a_csv_file(visits):
    d, frame = visits
    out = d / "res.csv"
    result = _run(
        d / "visits.csv", "-q", "count", "-q", "mean:cost:0:100", "-q", "std:cost:0:100",
        "--groupby", "region", "--key", "region=north,south,west", "-e", "3000", "--seed", "1",
        "-o", out, "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["insecure_seed"] is True and payload["keys"] == "public"
    assert payload["privacy_unit"] is None and "one row is one person" in payload["statement"]
    written = pl.read_csv(out)
    assert written.columns == [
        "region", *(f"{n}{ci}" for n in ("count", "mean(cost)", "std(cost)")
                    for ci in ("", " ci_low", " ci_high"))]  # fmt: skip
    assert written["region"].to_list() == ["north", "south", "west"]
    truth = dict(frame.group_by("region").len().iter_rows())
    assert abs(written["count"][0] - truth["north"]) <= 2
    assert abs(written["count"][2]) <= 2  # no row in "west": noise on 0
    mean_north = frame.filter(pl.col("region") == "north")["cost"].mean()
    assert written["mean(cost)"][0] == pytest.approx(mean_north, abs=0.5)


def test_privacy_unit_with_private_keys_from_parquet(visits):
    d, _ = visits
    out = d / "res.parquet"
    result = _run(
        d / "visits.parquet", "-q", "count", "-q", "sum:cost:0:100", "--groupby", "region",
        "--privacy-unit", "person", "--max-rows-per-unit", "2", "--max-groups-per-unit", "1",
        "-e", "1", "--delta", "1e-6", "-o", out, "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["keys"] == "private" and payload["max_groups_per_unit"] == 1
    sel = payload["partition_selection"]
    assert sel["delta"] == 1e-6 and sel["threshold"] > 1
    # every region holds about 200 people, far above the threshold
    assert pl.read_parquet(out)["region"].sort().to_list() == ["east", "north", "south"]
    labels = [c["label"] for c in payload["accountant"]["ledger"]]
    assert labels == ["partition selection", "count", "sum(cost)"]
    assert payload["budget"] == {"epsilon": pytest.approx(1.0), "delta": 1e-6}


def test_keys_file_and_a_variance_without_groups(visits):
    d, _ = visits
    (d / "keys.csv").write_text("region\neast\nnorth\n")
    result = _run(d / "visits.csv", "-q", "count", "--groupby", "region", "--keys",
                  d / "keys.csv", "-e", "1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert [g["region"] for g in json.loads(result.stdout)["groups"]] == ["east", "north"]
    result = _run(d / "visits.csv", "-q", "variance:cost:0:100", "-e", "1")
    assert result.exit_code == 0, result.output
    assert "variance(cost)" in result.stdout and "one row is one person" in result.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["-q", "count", "--groupby", "region"], "--delta 0 with private keys"),
        (["-q", "count", "--groupby", "nope", "--delta", "1e-6"], "no column(s) ['nope']"),
        (["-q", "sum:nope:0:1", "--groupby", "region", "--key", "region=a"], "nope"),
        (["-q", "variance:cost", "--groupby", "region"], "clamping bounds"),
        (["-q", "mean:region:0:1", "--privacy-unit", "person", "--max-rows-per-unit", "1"],
         "not a finite number"),
        (["-q", "count", "--key", "region=a"], "add --groupby"),
        (["-q", "count", "--groupby", "region", "--key", "region=a", "--keys", "k.csv"],
         "either"),
        (["-q", "count", "--max-rows-per-unit", "2"], "without a privacy unit"),
        (["-q", "count", "--privacy-unit", "person"], "--max-rows-per-unit"),
        (["-q", "count", "--groupby", "region", "--key", "region=a", "--mechanism", "gaussian"],
         "needs --delta > 0"),
        (["-q", "histogram:region", "--groupby", "region"], "--groupby region -q count"),
        (["-q", "count", "--groupby", "region", "--key", "region"], "COL=a,b,c"),
        (["-q", "count", "--groupby", "region,region", "--delta", "1e-6"], "distinct"),
    ],
)  # fmt: skip
def test_bad_grouped_input_exits_2_and_writes_nothing(visits, args, message):
    d, _ = visits
    (d / "k.csv").write_text("region\na\n")
    result = _run(d / "visits.csv", "-e", "1", *args, "-o", d / "res.csv")
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not (d / "res.csv").exists()


def test_output_over_the_input_is_refused(visits):
    d, _ = visits
    before = (d / "visits.csv").read_bytes()
    result = _run(d / "visits.csv", "-q", "count", "--groupby", "region", "--key",
                  "region=north", "-e", "1", "-o", d / "visits.csv")  # fmt: skip
    assert result.exit_code == 2
    assert (d / "visits.csv").read_bytes() == before


def test_grouped_release_charges_the_ledger_and_honours_per_query_budgets(visits):
    """QUERY@EPS reaches the grouped aggregation; the whole (ε, δ) is charged to the ledger
    before noise is drawn, and a grouped release over the ledger's total writes nothing."""
    d, _ = visits
    ledger = d / "ledger.json"
    result = _run(
        d / "visits.csv", "-q", "count@0.2", "-q", "mean:cost:0:100", "--groupby", "region",
        "--key", "region=north,south", "-e", "1", "--budget-file", ledger,
        "--total-epsilon", "1.5", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    spent = {a["name"]: a["epsilon"] for a in json.loads(result.stdout)["aggregations"]}
    assert spent == {"count": pytest.approx(0.2), "mean(cost)": pytest.approx(0.8)}
    entries = json.loads(ledger.read_text())["releases"]
    assert [e["epsilon"] for e in entries] == [1.0]
    before = ledger.read_bytes()
    out = d / "again.csv"
    again = _run(
        d / "visits.csv", "-q", "count", "--groupby", "region", "--key", "region=north",
        "-e", "1", "--budget-file", ledger, "-o", out,
    )  # fmt: skip
    assert again.exit_code == 2 and "over the total" in again.output
    assert ledger.read_bytes() == before and not out.exists()
