"""One definition of a suppressed record (privlab.table.suppression) across anonymize, check,
risk and audit: suppressed rows hold the suppressed value in every QI cell, belong to no class
and are counted apart."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from privlab.audit import audit_table
from privlab.cli.main import app
from privlab.errors import ConfigError, InfeasibleError
from privlab.table.adult import ADULT_COLUMNS
from privlab.table.anonymize import anonymize, anonymize_table
from privlab.table.assess import assess
from privlab.table.data import MicroTable, Purpose
from privlab.table.hierarchy import Hierarchy
from privlab.table.metrics import Loss
from privlab.table.models import (
    DeltaDisclosure,
    DistinctLDiversity,
    EntropyLDiversity,
    KAnonymity,
    KEAnonymity,
    RecursiveCLDiversity,
    TCloseness,
)
from privlab.table.risk import risk_of_frame
from tests.strategies import small_tables

runner = CliRunner()


def _records(release: pl.DataFrame, qi: list[str], sensitive: list[str] = ()) -> MicroTable:
    """A release read back as ``table check`` reads it (flat hierarchies, all text)."""
    return MicroTable.from_data(
        release, quasi_identifiers=qi, sensitive=list(sensitive), purpose=Purpose.ASSESS
    )


def _outlier_table() -> pl.DataFrame:
    """Four classes of six records (flu and cold in each) and one outlier with hiv."""
    rows = [
        (z, s, "flu" if i % 2 else "cold")
        for z in ("13053", "13068")
        for s in ("F", "M")
        for i in range(6)
    ]
    rows.append(("14850", "F", "hiv"))
    return pl.DataFrame(rows, schema=["zip", "sex", "disease"], orient="row")


ZIP = Hierarchy.from_rows(
    [["13053", "130**", "*"], ["13068", "130**", "*"], ["14850", "148**", "*"]]
)
#: zip generalized, sex kept or suppressed
HIER = {"zip": ZIP, "sex": "flat"}


# ------------------------------------------------------------------ check (assess)
def test_check_leaves_suppressed_rows_out_of_k_l_and_t():
    frame = _outlier_table()
    release = anonymize(
        frame, quasi_identifiers=["zip", "sex"], hierarchies=HIER,
        sensitive=["disease"], k=5, suppression_limit=0.2,
    )  # fmt: skip
    assert release.suppressed_rows.tolist() == [24]
    report = assess(_records(release.data, ["zip", "sex"], ["disease"]))
    # the lone suppressed record would be a class of 1 with a single, rare disease
    assert (report.records, report.suppressed, report.classes, report.k) == (25, 1, 4, 6)
    s = report.sensitive[0]
    assert s.distinct_l == 2
    # every class is half flu, half cold; overall 12 flu, 12 cold, 1 hiv
    assert s.t_equal == pytest.approx(0.04)
    d = report.to_dict()
    assert (d["suppressed"], d["equivalence_classes"], d["k_anonymity"]) == (1, 4, 6)


def test_every_sensitive_model_leaves_the_suppressed_record_out():
    """The outlier's lone salary would fail each model as a class of its own."""
    frame = _outlier_table().with_columns(
        pl.when(pl.col("disease") == "flu").then(pl.lit("10")).otherwise(pl.lit("20"))
        .alias("salary")
    )  # fmt: skip
    release = anonymize(
        frame, quasi_identifiers=["zip", "sex"], hierarchies=HIER, sensitive=["salary"],
        insensitive=["disease"], k=5, suppression_limit=0.2,
    )  # fmt: skip
    salary = Hierarchy.from_rows([["10", "low", "*"], ["20", "low", "*"]])
    models = [
        EntropyLDiversity("salary", 1.9),
        RecursiveCLDiversity("salary", c=2.0, l=2),
        TCloseness("salary", 0.1, distance="hierarchical", hierarchy=salary),
        DeltaDisclosure("salary", 1.0),
        KEAnonymity("salary", k=2, e=10.0),
    ]
    report = assess(_records(release.data, ["zip", "sex"], ["salary"]), models)
    assert report.suppressed == 1 and all(report.models.values()), report.models
    s = report.sensitive[0]
    assert s.entropy_l == pytest.approx(2.0) and s.ke == (2, 10.0)
    assert s.delta < 1.0 and s.recursive_c_for_l2 == pytest.approx(1.0)


def test_cli_check_on_a_suppression_release_reports_the_k_asked_for(tmp_path):
    _outlier_table().write_csv(tmp_path / "in.csv")
    ZIP.to_csv(tmp_path / "zip.csv")
    out = tmp_path / "rel.csv"
    qi = ["--qi", "zip", "--qi", "sex"]
    res = runner.invoke(
        app, ["table", "anonymize", str(tmp_path / "in.csv"), *qi, "--hierarchy",
              f"zip={tmp_path / 'zip.csv'}", "--hierarchy", "sex=flat", "--sensitive", "disease",
              "-k", "5",
              "--suppression", "20%", "-o", str(out), "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    check = runner.invoke(
        app, ["table", "check", str(out), *qi, "--sensitive", "disease", "-k", "5",
              "--l-diversity", "disease:distinct:2", "--json"],
    )  # fmt: skip
    assert check.exit_code == 0, check.output
    c = json.loads(check.stdout)
    risk = json.loads(runner.invoke(app, ["table", "risk", str(out), *qi, "--json"]).stdout)
    assert c["suppressed"] == risk["suppressed"] == summary["suppressed"] == 1
    assert c["equivalence_classes"] == risk["classes"] == summary["equivalence_classes"] == 4
    assert c["k_anonymity"] >= 5 and c["sensitive"][0]["distinct_l"] == 2
    assert all(c["models"].values()), c["models"]
    table = runner.invoke(app, ["table", "check", str(out), *qi, "--sensitive", "disease"])
    assert "1 suppressed" in table.stdout and "k = 6" in table.stdout


# ------------------------------------------------------ hierarchy roots that are not '*'
def _ages() -> pl.DataFrame:
    rng = np.random.default_rng(4)
    ages = [str(a) for a in rng.integers(20, 40, 60)] + ["95"]
    sexes = rng.choice(["F", "M"], 61).tolist()
    return pl.DataFrame({"age": ages, "sex": sexes})


def _age_hierarchy(root: str) -> Hierarchy:
    return Hierarchy.from_rows(
        [[str(a), f"{a // 10 * 10}-{a // 10 * 10 + 9}", root] for a in range(0, 100)]
    )


@pytest.mark.parametrize("root", ["0-99", "100"])
def test_release_writes_the_suppressed_value_not_the_hierarchy_root(tmp_path, root):
    frame = _ages()
    hier = {"age": _age_hierarchy(root), "sex": "flat"}
    release = anonymize(
        frame, quasi_identifiers=["age", "sex"], hierarchies=hier, k=5, suppression_limit=0.1
    )
    rows = release.suppressed_rows
    assert rows.size == release.result.suppressed >= 1
    data = release.data
    assert data["age"].gather(rows).to_list() == ["*"] * rows.size
    assert data["sex"].gather(rows).to_list() == ["*"] * rows.size
    assert root not in data["age"].to_list()
    risk = risk_of_frame(data, ["age", "sex"])
    report = assess(_records(data, ["age", "sex"]))
    assert risk.suppressed == report.suppressed == rows.size
    assert risk.classes == report.classes == release.result.n_classes
    # the command line reads the written file the same way
    data.write_csv(tmp_path / "rel.csv")
    args = ["table", "risk", str(tmp_path / "rel.csv"), "--qi", "age", "--qi", "sex", "--json"]
    d = json.loads(runner.invoke(app, args).stdout)
    assert (d["suppressed"], d["classes"]) == (rows.size, release.result.n_classes)


@pytest.mark.adult
def test_adult_with_a_range_root_matches_arx_counts(adult_dir, tmp_path):
    """REFERENCE_RESULTS' k = 5, 2 % release (506 suppressed, 222 classes) with the age
    hierarchy's top relabelled "0-99": risk and check still count 506 suppressed rows."""
    rows = [r.split(";") for r in (adult_dir / "adult_hierarchy_age.csv").read_text().split()]
    age = Hierarchy.from_rows([[*r[:-1], "0-99"] for r in rows])
    hier = {c: Hierarchy.from_csv(adult_dir / f"adult_hierarchy_{c}.csv") for c in ADULT_COLUMNS}
    hier["age"] = age
    table = MicroTable.from_data(
        adult_dir / "adult.csv", quasi_identifiers=ADULT_COLUMNS, hierarchies=hier
    )
    release = anonymize_table(table, [KAnonymity(5)], suppression_limit=0.02)
    assert (release.result.suppressed, release.result.n_classes) == (506, 222)
    path = tmp_path / "adult_k5.csv"
    release.data.write_csv(path)
    qi = [a for c in ADULT_COLUMNS for a in ("--qi", c)]
    risk = json.loads(runner.invoke(app, ["table", "risk", str(path), *qi, "--json"]).stdout)
    check = json.loads(runner.invoke(app, ["table", "check", str(path), *qi, "--json"]).stdout)
    assert (risk["suppressed"], risk["classes"], risk["smallest_class"]) == (506, 222, 5)
    assert (check["suppressed"], check["equivalence_classes"], check["k_anonymity"]) == (
        506, 222, 5,
    )  # fmt: skip


# ------------------------------------------------------------- --suppressed-value
def test_a_chosen_suppressed_value_is_written_and_read_back(tmp_path):
    frame = _outlier_table()
    release = anonymize(
        frame, quasi_identifiers=["zip", "sex"], hierarchies=HIER, insensitive=["disease"], k=5,
        suppression_limit=0.2, suppressed_value="#",
    )  # fmt: skip
    assert release.data.row(24)[:2] == ("#", "#")
    table = _records(release.data, ["zip", "sex"])
    assert assess(table, suppressed_value="#").suppressed == 1
    assert assess(table).suppressed == 0  # '*' marks nothing here
    assert risk_of_frame(release.data, ["zip", "sex"], suppressed_value="#").suppressed == 1

    frame.write_csv(tmp_path / "in.csv")
    out = tmp_path / "rel.csv"
    qi = ["--qi", "zip", "--qi", "sex"]
    res = runner.invoke(
        app, ["table", "anonymize", str(tmp_path / "in.csv"), *qi, "--hierarchy", "zip=flat",
              "--hierarchy", "sex=flat", "--insensitive", "disease", "-k", "5",
              "--suppression", "20%", "--suppressed-value", "#", "-o", str(out), "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    n = json.loads(res.stdout)["suppressed"]
    assert n >= 1 and pl.read_csv(out, infer_schema=False).filter(pl.col("zip") == "#").height == n
    for command in ("check", "risk"):
        got = runner.invoke(
            app, ["table", command, str(out), *qi, "--suppressed-value", "#", "--json"]
        )
        assert got.exit_code == 0, got.output
        assert json.loads(got.stdout)["suppressed"] == n, command


def test_suppressed_value_in_a_job_file(tmp_path):
    _outlier_table().write_csv(tmp_path / "in.csv")
    (tmp_path / "job.toml").write_text(
        'input = "in.csv"\nqi = ["zip", "sex"]\ninsensitive = ["disease"]\nk = 5\n'
        'suppression = "20%"\nsuppressed_value = "#"\noutput = "rel.csv"\n'
        '[hierarchy]\nzip = "flat"\nsex = "flat"\n'
    )
    res = runner.invoke(app, ["table", "anonymize", "--job", str(tmp_path / "job.toml")])
    assert res.exit_code == 0, res.output
    assert pl.read_csv(tmp_path / "rel.csv", infer_schema=False).row(24)[:2] == ("#", "#")


def test_a_genuine_suppressed_value_in_the_data_is_refused(tmp_path):
    frame = _outlier_table().with_columns(
        pl.when(pl.col("zip") == "13068").then(pl.lit("*")).otherwise(pl.col("zip")).alias("zip")
    )
    flat = {"zip": "flat", "sex": "flat"}
    with pytest.raises(ConfigError, match=r"column 'zip'.*--suppressed-value"):
        anonymize(frame, quasi_identifiers=["zip", "sex"], hierarchies=flat,
                  insensitive=["disease"], k=5, suppression_limit=0.2)  # fmt: skip
    release = anonymize(
        frame, quasi_identifiers=["zip", "sex"], hierarchies=flat, insensitive=["disease"], k=5,
        suppression_limit=0.2, suppressed_value="#",
    )  # fmt: skip
    assert assess(_records(release.data, ["zip", "sex"]), suppressed_value="#").suppressed == 1
    # from the command line: exit 2, nothing written
    frame.write_csv(tmp_path / "in.csv")
    out = tmp_path / "rel.csv"
    res = runner.invoke(
        app, ["table", "anonymize", str(tmp_path / "in.csv"), "--qi", "zip", "--qi", "sex",
              "--hierarchy", "zip=flat", "--hierarchy", "sex=flat", "--insensitive", "disease",
              "-k", "5", "--suppression", "20%", "-o", str(out)],
    )  # fmt: skip
    assert res.exit_code == 2 and "--suppressed-value" in res.output and not out.exists()


def test_a_hierarchy_label_equal_to_the_suppressed_value_below_the_top():
    frame = _outlier_table()
    partial = Hierarchy.from_rows(
        [["13053", "130**", "*", "*"], ["13068", "130**", "*", "*"],
         ["14850", "148**", "148", "*"]]
    )  # fmt: skip
    with pytest.raises(ConfigError, match=r"column 'zip'.*level 2.*suppressed value"):
        anonymize(frame, quasi_identifiers=["zip"], hierarchies={"zip": partial}, k=5,
                  keep_other_columns=True)  # fmt: skip
    # a level whose one group is '*' covers every value, like the top: nothing to confuse
    whole = Hierarchy.from_rows(
        [["13053", "130**", "*", "ALL"], ["13068", "130**", "*", "ALL"],
         ["14850", "148**", "*", "ALL"]]
    )  # fmt: skip
    anonymize(frame, quasi_identifiers=["zip"], hierarchies={"zip": whole}, k=5,
              keep_other_columns=True)  # fmt: skip
    with pytest.raises(ConfigError, match="non-empty"):
        anonymize(frame, quasi_identifiers=["zip"], hierarchies={"zip": ZIP}, k=5,
                  keep_other_columns=True, suppressed_value="")  # fmt: skip


def test_mondrian_refuses_a_suppressed_value(tmp_path):
    _outlier_table().write_csv(tmp_path / "in.csv")
    res = runner.invoke(
        app, ["table", "anonymize", str(tmp_path / "in.csv"), "--qi", "zip", "-k", "2",
              "--algorithm", "mondrian", "--suppressed-value", "#"],
    )  # fmt: skip
    assert res.exit_code == 2 and "--suppressed-value applies to the lattice" in res.output


# ---------------------------------------------------------------------- corner cases
def test_every_qi_at_a_star_top_reads_as_suppressed_everywhere():
    """At the top of every '*'-rooted hierarchy a row looks suppressed: the summary says so."""
    frame = _outlier_table()
    release = anonymize(frame, quasi_identifiers=["zip", "sex"], k=25,
                        hierarchies={"zip": "flat", "sex": "flat"}, insensitive=["disease"])
    assert release.result.suppressed == 0 and release.result.n_classes == 1
    d = release.to_dict()
    assert (d["suppressed"], d["equivalence_classes"]) == (25, 0)
    report = assess(_records(release.data, ["zip", "sex"]), [KAnonymity(25)])
    risk = risk_of_frame(release.data, ["zip", "sex"])
    assert report.suppressed == risk.suppressed == release.suppressed_rows.size == 25
    assert (report.classes, report.k, report.models) == (0, None, {"25-anonymity": True})
    # a top labelled otherwise is one class of everybody
    other = Hierarchy.from_rows([[z, "130**", "ALL"] for z in ("13053", "13068", "14850")])
    release = anonymize(frame, quasi_identifiers=["zip"], hierarchies={"zip": other}, k=25,
                        keep_other_columns=True)
    assert release.to_dict()["suppressed"] == 0 and release.to_dict()["equivalence_classes"] == 1
    assert assess(_records(release.data, ["zip"])).k == 25


def test_every_record_suppressed(tmp_path):
    frame = _outlier_table()
    four = DistinctLDiversity("disease", 4)  # three diseases: no class can pass
    release = anonymize(
        frame, quasi_identifiers=["zip", "sex"], hierarchies=HIER,
        sensitive=["disease"], k=2, models=[four], suppression_limit=1.0,
    )  # fmt: skip
    assert release.result.suppressed == release.suppressed_rows.size == 25
    assert release.to_dict()["equivalence_classes"] == 0
    report = assess(
        _records(release.data, ["zip", "sex"], ["disease"]),
        [KAnonymity(25), DistinctLDiversity("disease", 4)],
    )
    assert (report.suppressed, report.classes, report.k) == (25, 0, None)
    assert report.sensitive[0].distinct_l is None and report.sensitive[0].t_equal is None
    assert all(report.models.values())
    release.data.write_csv(tmp_path / "rel.csv")
    res = runner.invoke(
        app, ["table", "check", str(tmp_path / "rel.csv"), "--qi", "zip", "--qi", "sex",
              "--sensitive", "disease"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "every record is suppressed" in res.stdout


# ---------------------------------------------------------------------------- audit
def test_audit_counts_the_suppressed_rows_of_a_range_rooted_release(tmp_path):
    frame = _ages().with_columns(pl.Series("disease", ["flu", "cold"] * 30 + ["hiv"]))
    hier = {"age": _age_hierarchy("0-99"), "sex": "flat"}
    release = anonymize(
        frame, quasi_identifiers=["age", "sex"], hierarchies=hier, sensitive=["disease"],
        k=5, suppression_limit=0.1,
    )  # fmt: skip
    n = release.suppressed_rows.size
    for audited in (release.data, release):  # a file's frame, or the Release with its levels
        res = audit_table(
            audited, frame, quasi_identifiers=["age", "sex"], sensitive="disease",
            hierarchies=hier,
        )  # fmt: skip
        details = res.details
        assert details["risk"]["suppressed"] == details["utility"]["suppressed_rows"] == n
        assert details["risk"]["classes"] == release.result.n_classes
        # a suppressed cell covers every value: every original record has candidates
        assert details["linkage"]["matched"] == frame.height


def test_cli_audit_reads_a_chosen_suppressed_value(tmp_path):
    frame = _outlier_table()
    release = anonymize(
        frame, quasi_identifiers=["zip", "sex"], hierarchies=HIER,
        sensitive=["disease"], k=5, suppression_limit=0.2, suppressed_value="#",
    )  # fmt: skip
    frame.write_csv(tmp_path / "orig.csv")
    release.data.write_csv(tmp_path / "rel.csv")
    ZIP.to_csv(tmp_path / "zip.csv")
    res = runner.invoke(
        app, ["audit", str(tmp_path / "rel.csv"), "--original", str(tmp_path / "orig.csv"),
              "-o", str(tmp_path / "r.html"), "--qi", "zip,sex", "--sensitive", "disease",
              "--hierarchy", f"zip={tmp_path / 'zip.csv'}", "--suppressed-value", "#",
              "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    details = json.loads(res.stdout)["details"]
    assert details["risk"]["suppressed"] == details["utility"]["suppressed_rows"] == 1
    assert details["risk"]["classes"] == 4


# ------------------------------------------------------------------------- property
@st.composite
def _releases(draw):
    frame, qi, hier, sa = draw(small_tables(max_qis=3, max_rows=30))
    assume(frame.height >= 4)
    if draw(st.booleans()):  # an ARX-style top that is not '*'
        hier = {
            c: Hierarchy.from_rows([[*r[:-1], "0-99"] for r in h.to_rows()])
            for c, h in hier.items()
        }
    k = draw(st.integers(2, 4))
    l_div = draw(st.integers(1, 2))
    t = draw(st.sampled_from([None, 0.3, 0.6, 0.9]))
    distance = draw(st.sampled_from(["equal", "ordered"]))
    limit = draw(st.sampled_from([0.0, 0.2, 0.4, 0.6, 1.0]))
    gs = draw(st.sampled_from([0.0, 0.1, 0.5]))  # below ½ suppression is cheap
    return frame, qi, hier, sa, k, l_div, t, distance, limit, gs


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_releases())
def test_check_on_any_release_reports_what_was_asked(case):
    frame, qi, hier, sa, k, l_div, t, distance, limit, gs = case
    models = [DistinctLDiversity(sa, l_div)]
    if t is not None:
        models.append(TCloseness(sa, t, distance=distance))
    try:
        release = anonymize(
            frame, quasi_identifiers=qi, hierarchies=hier, sensitive=[sa], k=k, models=models,
            suppression_limit=limit, metric=Loss(gs=gs),
        )  # fmt: skip
    except InfeasibleError:
        assume(False)
    n = frame.height
    sup = release.suppressed_rows.size
    event("no record suppressed" if sup == 0 else "all suppressed" if sup == n else "some")
    # the release's suppressed rows are the search's, or all rows when every cell reads '*'
    assert release.suppressed_rows.size in (release.result.suppressed, n)
    report = assess(_records(release.data, qi, [sa]))
    risk = risk_of_frame(release.data, qi)
    summary = release.to_dict()
    assert report.suppressed == risk.suppressed == summary["suppressed"]
    assert report.suppressed == release.suppressed_rows.size
    assert report.classes == risk.classes == summary["equivalence_classes"]
    if report.k is None:  # every record suppressed: nothing is published about anybody
        assert report.suppressed == n
        return
    s = report.sensitive[0]
    assert report.k >= k and s.distinct_l >= l_div
    if t is not None:
        got = s.t_equal if distance == "equal" else s.t_ordered
        assert got <= t + 1e-9
