"""The benchmark runner: end to end, determinism, interruption and resume, built-in specs."""

from __future__ import annotations

import json

import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.bench import builtin_specs, load_spec, parse_text, registry, run_spec
from privlab.bench.runner import read_journal
from privlab.cli.main import app
from privlab.errors import ConfigError

TINY = """
[spec]
name = "tiny"
title = "Tiny synthetic benchmark"

[[experiment]]
name = "g"
title = "powerlaw graph"
data = "synthetic:powerlaw"
data_options = { n = 150, m = 3 }
schemes = ["rad", "rsw"]
parameter = "fraction"
values = [0.0, 0.05, 0.2]
metrics = ["clustering", "avg_path_length", "dd_hellinger"]
seeds = 2
x_label = "fraction"
y_labels = { clustering = "CC" }
options = { path_sample = 30 }

[[experiment]]
name = "h"
data = "synthetic:gnm"
data_options = { n = 100, m = 300 }
schemes = ["rad"]
parameter = "fraction"
values = [0.0, 0.1]
attacks = ["h1"]
seeds = 1
"""


class Counter:
    """Wraps registry.run_cell and records the cells it computed."""

    def __init__(self):
        self.calls: list[tuple] = []

    def __call__(self, data, **kw):
        self.calls.append((kw["scheme"], kw["value"], kw["seed"]))
        return registry.run_cell(data, **kw)


@pytest.fixture
def tiny():
    return parse_text(TINY, "tiny.toml")


def test_tiny_spec_end_to_end(tiny, tmp_path):
    summary = run_spec(tiny, tmp_path / "out")
    assert summary.complete and summary.computed == tiny.n_cells == 14
    out = tmp_path / "out"
    res = pl.read_csv(out / "results.csv")
    assert res.columns == ["experiment", "scheme", "parameter", "value", "metric", "seed",
                           "result"]  # fmt: skip
    # one row per measurement: g has 3 metrics, h has the 5 buckets + mean top probability
    assert res.height == 2 * 3 * 2 * 3 + 2 * 6
    g = res.filter((pl.col("experiment") == "g") & (pl.col("metric") == "dd_hellinger"))
    assert g.filter(pl.col("value") == 0.0)["result"].to_list() == [0.0] * 4
    rsw = g.filter((pl.col("scheme") == "rsw") & (pl.col("value") > 0))["result"]
    assert (rsw == 0.0).all()  # random switch keeps every degree
    h = res.filter(pl.col("experiment") == "h")
    sums = (
        h.filter(pl.col("metric").str.starts_with("h1_bucket"))
        .group_by("value")
        .agg(pl.col("result").sum())
    )
    assert sums["result"].to_list() == pytest.approx([1.0, 1.0])  # bucket fractions
    assert pl.read_parquet(out / "results.parquet").equals(res)
    m = json.loads((out / "manifest.json").read_text())
    assert m["spec"] == "tiny" and m["complete"] and m["title"] == tiny.title
    assert m["experiments"]["g"]["y_label"]["clustering"] == "CC"
    assert m["experiments"]["g"]["x_label"] == "fraction"
    summ = pl.read_csv(out / "summary.csv")
    assert summ.filter(pl.col("experiment") == "g")["n"].unique().to_list() == [2]
    assert pl.read_csv(out / "curves.csv").columns == ["experiment", "scheme", "value", "seed",
                                                       "curve", "x", "y"]  # fmt: skip


def test_two_runs_write_identical_results(tiny, tmp_path):
    run_spec(tiny, tmp_path / "a")
    run_spec(tiny, tmp_path / "b")
    for f in ("results.csv", "summary.csv", "curves.csv"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes()


def test_interrupt_then_resume_recomputes_nothing_finished(tiny, tmp_path):
    out = tmp_path / "out"

    def stop_after_five(done, total, cell):
        if done == 5:
            raise KeyboardInterrupt

    first = Counter()
    with pytest.raises(KeyboardInterrupt):
        run_spec(tiny, out, progress=stop_after_five, cell_fn=first)
    assert len(first.calls) == 5 and len(read_journal(out)) == 5
    partial = json.loads((out / "manifest.json").read_text())
    assert partial["cells"] == 5 and not partial["complete"]
    with pytest.raises(ConfigError, match="--resume"):
        run_spec(tiny, out)
    second = Counter()
    seen = []
    summary = run_spec(tiny, out, resume=True, cell_fn=second,
                       progress=lambda d, t, c: seen.append(d))  # fmt: skip
    assert summary.resumed == 5 and summary.computed == tiny.n_cells - 5 and summary.complete
    assert len(second.calls) == tiny.n_cells - 5
    assert not set(first.calls) & set(second.calls)
    assert seen[0] == 5 and seen[-1] == tiny.n_cells
    run_spec(tiny, tmp_path / "whole")
    assert (out / "results.csv").read_bytes() == (tmp_path / "whole" / "results.csv").read_bytes()
    # resuming a finished run computes nothing and rebuilds the same outputs
    third = Counter()
    assert run_spec(tiny, out, resume=True, cell_fn=third).computed == 0 and not third.calls


def test_truncated_journal_line_is_dropped_on_resume(tiny, tmp_path):
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        run_spec(tiny, out, progress=lambda d, t, c: (_ for _ in ()).throw(KeyboardInterrupt)
                 if d == 3 else None)  # fmt: skip
    with open(out / "cells.jsonl", "a") as f:
        f.write('{"key": ["g", "rad"')  # a crash mid-write
    summary = run_spec(tiny, out, resume=True)
    assert summary.resumed == 3 and summary.complete
    assert len((out / "cells.jsonl").read_text().splitlines()) == tiny.n_cells


def test_resume_refuses_a_different_spec(tiny, tmp_path):
    out = tmp_path / "out"
    run_spec(tiny, out)
    other = parse_text(TINY.replace("seeds = 2", "seeds = 3"), "other.toml")
    before = (out / "results.csv").read_bytes()
    with pytest.raises(ConfigError, match="different spec"):
        run_spec(other, out, resume=True)
    assert (out / "results.csv").read_bytes() == before


LEARNED = """
[spec]
name = "{name}"
[[experiment]]
name = "pl"
data = "synthetic:powerlaw"
data_options = {{ n = {n}, m = {m}, p = 0.3 }}
schemes = ["{scheme}"]
parameter = "{parameter}"
values = [{value}]
metrics = ["{metric}"]
attacks = ["learned"]
options = {{ alpha_v = 0.7, n_identical = {n_identical}, n_non_identical = {n_non_identical}, n_test_non_identical = {n_test}, n_trees = {n_trees}, per_class = {per_class}, n_bins = 8, bin_width = 8, n_jobs = 1, curve_points = 20 }}
"""  # noqa: E501


@pytest.mark.parametrize(
    ("fields", "min_auc"),
    [
        pytest.param(
            {"name": "learned", "n": 400, "m": 5, "scheme": "rad", "parameter": "fraction",
             "value": 0.1, "metric": "jdd_hellinger", "n_identical": 150,
             "n_non_identical": 600, "n_test": 800, "n_trees": 15, "per_class": 80},
            0.5,
            id="rad",
        ),
        # Sharad's RSP deletes β from *both* copies (seed 004 L1065); applied to the sanitized
        # side only, the adversary's splits never see the one-sided degree loss and the AUC
        # fell below 0.5 on ego-Facebook at α_E = 0.25.
        pytest.param(
            {"name": "rsp", "n": 600, "m": 8, "scheme": "rsp-alpha", "parameter": "strength",
             "value": 0.25, "metric": "dd_hellinger", "n_identical": 300,
             "n_non_identical": 1200, "n_test": 2000, "n_trees": 30, "per_class": 100},
            0.6,
            id="rsp-is-the-pair-generators-two-sided-noise",
        ),
    ],
)  # fmt: skip
def test_learned_attack_writes_auc_and_roc_curve(fields, min_auc, tmp_path):
    run_spec(parse_text(LEARNED.format(**fields), f"{fields['name']}.toml"), tmp_path)
    res = pl.read_csv(tmp_path / "results.csv")
    auc = res.filter(pl.col("metric") == "learned_auc")["result"].item()
    assert min_auc < auc <= 1.0
    curve = pl.read_csv(tmp_path / "curves.csv")
    assert set(curve["curve"]) == {"roc"} and 2 < curve.height <= 20
    assert curve["x"].is_sorted() and curve["y"].is_sorted()


# ---------------------------------------------------------------------------- CLI


def test_cli_runs_a_spec_file_and_rejects_bad_input(tmp_path):
    runner = CliRunner()
    spec = tmp_path / "tiny.toml"
    spec.write_text(TINY.replace("seeds = 2", "seeds = 1"), encoding="utf-8")
    out = tmp_path / "out"
    r = runner.invoke(app, ["bench", str(spec), "-o", str(out), "--json", "--seeds", "1"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert summary["complete"] is True and summary["report"] == str(out / "report.html")
    assert (out / "results.csv").is_file()
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") >= 1  # the plots, embedded
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.replace('"rad", "rsw"', '"rad", "nope"'), encoding="utf-8")
    r = runner.invoke(app, ["bench", str(bad), "-o", str(tmp_path / "bad")])
    assert r.exit_code == 2 and "nope" in r.output and not (tmp_path / "bad").exists()
    r = runner.invoke(app, ["bench", str(spec), "-o", str(out)])  # exists, no --resume
    assert r.exit_code == 2 and "--resume" in r.output
    r = runner.invoke(app, ["bench", "--list"])
    assert r.exit_code == 0 and "hay-fig9" in r.output and "li-delta" in r.output
    r = runner.invoke(app, ["bench", "li-delta"])
    assert r.exit_code == 2 and "-o DIR" in r.output


# ---------------------------------------------------------------------------- built-ins


def _run_reduced(name, tmp_path):
    """Run built-in spec ``name``, reduced, into ``tmp_path`` (skip when a data set is missing);
    the spec and the run's summary."""
    spec = load_spec(name).reduce()
    for e in spec.experiments:
        reason = registry.dataset_available(e.data)
        if reason:
            pytest.skip(reason)
    return spec, run_spec(spec, tmp_path)


@pytest.mark.parametrize("name", sorted(builtin_specs()))
def test_builtin_spec_runs_reduced(name, tmp_path):
    spec, summary = _run_reduced(name, tmp_path)
    assert summary.complete
    res = pl.read_csv(tmp_path / "results.csv")
    want = sum(e.n_cells * len(e.outputs) for e in spec.experiments)
    assert res.height == want and res["result"].is_not_nan().all()


def test_li_delta_decreases_in_k_and_epsilon(tmp_path):
    run_spec(load_spec("li-delta").reduce(), tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["experiments"]["beta-0.2"]["log_y"] is True  # δ spans decades
    res = pl.read_csv(tmp_path / "results.csv").filter(pl.col("experiment") == "beta-0.2")
    for k_small, k_big in [(5, 10), (10, 20), (20, 50)]:
        a = res.filter(pl.col("scheme") == f"safe-k:k={k_small}").sort("value")["result"]
        b = res.filter(pl.col("scheme") == f"safe-k:k={k_big}").sort("value")["result"]
        assert (b <= a).all() and a.is_sorted(descending=True)


# ---------------------------------------------------------------------------- Hay Figs 5–7,
# Zhang ch. 2, ℓ-diversity / t-closeness


STRUCTURAL = """
[spec]
name = "structural"

[[experiment]]
name = "h"
data = "synthetic:powerlaw"
data_options = { n = 120, m = 2 }
schemes = ["none"]
parameter = "level"
values = [1, 2, 3]
attacks = ["refinement"]
options = { star = 3 }

[[experiment]]
name = "sub"
data = "synthetic:powerlaw"
data_options = { n = 120, m = 2 }
schemes = ["none"]
parameter = "edge_facts"
values = [0, 4]
attacks = ["subgraph"]
options = { exact_degrees = true, targets = 15 }
"""


def test_refinement_and_subgraph_adapters_match_the_library(tmp_path):
    from privlab.graph.attacks.refinement import vertex_refinement

    spec = parse_text(STRUCTURAL, "structural.toml")
    run_spec(spec, tmp_path)
    res = pl.read_csv(tmp_path / "results.csv")
    g = registry.load_dataset("synthetic:powerlaw", {"n": 120, "m": 2})
    vr = vertex_refinement(g)
    h = res.filter(pl.col("experiment") == "h")
    for level, want in ((1, vr.buckets(1)), (2, vr.buckets(2)), (3, vr.buckets(None))):
        got = h.filter((pl.col("value") == level) & pl.col("metric").str.starts_with("refine_b"))
        assert got["result"].to_list() == pytest.approx(list(want.fractions))
    sub = res.filter((pl.col("experiment") == "sub") & (pl.col("value") == 0))
    # no edge facts: every node is a candidate
    assert sub.filter(pl.col("metric") == "subgraph_bucket_21+")["result"].item() == 1.0
    assert sub.filter(pl.col("metric") == "subgraph_median_size")["result"].item() == 120
    curves = pl.read_csv(tmp_path / "curves.csv")
    assert set(curves["curve"]) == {"candidate_set_size"}
    one = curves.filter((pl.col("experiment") == "h") & (pl.col("value") == 1))
    assert one["y"].sum() == 120  # nodes per candidate-set size


def test_refinement_attack_refuses_a_perturbed_release():
    bad = STRUCTURAL.replace('schemes = ["none"]', 'schemes = ["rad"]', 1)
    with pytest.raises(ConfigError, match="refinement"):
        parse_text(bad, "bad.toml")


def _reduced_results(name, tmp_path):
    _run_reduced(name, tmp_path)
    return pl.read_csv(tmp_path / "results.csv")


def test_zhang_ch2_permuted_error_falls_with_span_and_beats_generalized(tmp_path):
    res = _reduced_results("zhang-ch2", tmp_path)
    assert set(res["scheme"]) == {"min-sum", "min-max", "max-group", "random",
                                  "l-diversity-partition"}  # fmt: skip
    perm = res.filter(pl.col("metric") == "range_avg_error")
    gen = res.filter(pl.col("metric") == "range_avg_error_generalized")
    for scheme in ("min-sum", "min-max", "max-group"):
        p = perm.filter(pl.col("scheme") == scheme).sort("value")["result"]
        g = gen.filter(pl.col("scheme") == scheme).sort("value")["result"]
        assert p[0] > p[-1] > 0  # span 5 is harder than span 50
        assert (p < g).all()  # the permuted release answers AVG ranges more tightly
    # Fig. 2.7: the ℓ-diversity baseline partition is far behind the optimizers at span 5
    ldiv = perm.filter(pl.col("scheme") == "l-diversity-partition").sort("value")["result"]
    best = perm.filter(pl.col("scheme") == "min-sum").sort("value")["result"]
    assert ldiv[0] > 2 * best[0]


def test_zhang_ch2_synthetic_figs_2_8_to_2_10(tmp_path):
    res = _reduced_results("zhang-ch2-synthetic", tmp_path)

    def val(exp, scheme, value):
        row = res.filter(
            (pl.col("experiment") == exp) & (pl.col("scheme") == scheme)
            & (pl.col("value") == value)
        )  # fmt: skip
        return row["result"].item()

    # Fig. 2.8: on correlated data the optimizers and the ℓ-diverse age partition are close,
    # the random scan ignores the correlation and is far behind
    assert val("corr-5", "random", 30) > 5 * val("corr-5", "min-sum", 30)
    assert val("corr-5", "l-diversity-partition", 30) < val("corr-5", "random", 30)
    # Figs 2.9–2.10: swapping is behind the optimizer at every k, random at every e (the
    # seed's "e barely matters to min-sum" does not hold on this generator: see the docs)
    for k in (4, 40):
        assert val("k", "swap", k) > val("k", "min-sum", k)
    for e in (40, 200):
        assert val("e", "random", e) > 3 * val("e", "min-sum", e)


def test_zhang_ch3_targets_figs_3_4_and_3_5(tmp_path):
    res = _reduced_results("zhang-ch3-targets", tmp_path)
    err = res.filter(pl.col("metric") == "range_avg_error")

    def val(exp, value, scheme_part=""):
        row = err.filter(
            (pl.col("experiment") == exp) & (pl.col("value") == value)
            & pl.col("scheme").str.contains(scheme_part, literal=True)
        )  # fmt: skip
        return row["result"].item()

    assert val("fig3.4a", 16) > val("fig3.4a", 1)  # a narrower normal target costs more
    assert val("fig3.4b", 2.0) > val("fig3.4b", 0.1)  # best when the target is the source
    # binary beats ternary (more, smaller subdomains)
    assert val("fig3.4c", 50, "arity=2") < val("fig3.4c", 50, "arity=3")
    # Fig. 3.5: a target per age band (its own distribution on Adult, uniform on correlated
    # data): 10 bands beat 1 for both methods, and SA-only beats QI-SA
    for exp in ("fig3.5a", "fig3.5b"):
        for mode in ("mode=sa-only", "mode=qi-sa"):
            assert val(exp, 10, mode) < 0.8 * val(exp, 1, mode)
        for bands in (1, 10):
            assert val(exp, bands, "mode=sa-only") < val(exp, bands, "mode=qi-sa")


def test_adult_ldiv_t_models_hold_and_cost_more_when_stronger(tmp_path):
    res = _reduced_results("adult-ldiv-t", tmp_path)

    def val(scheme, value, metric):
        row = res.filter(
            (pl.col("scheme") == scheme) & (pl.col("value") == value) & (pl.col("metric") == metric)
        )
        return row["result"].item()

    # ℓ-diversity (ℓ ≥ 2) leaves no homogeneous class; a stronger ℓ costs at least as much
    assert val("l-diversity", 2, "attr_homogeneous") == 0
    assert val("l-diversity", 4, "loss") >= val("l-diversity", 2, "loss")
    # t-closeness caps the adversary's confidence below what 5-anonymity allows
    t_max = val("t-closeness", 0.2, "attr_max_posterior")
    assert t_max < val("k-anonymity", 5, "attr_max_posterior")


def test_zhang_ch3_fakes_help_and_shift_factor_knees(tmp_path):
    res = _reduced_results("zhang-ch3", tmp_path)

    def val(exp, scheme, value, metric):
        row = res.filter(
            (pl.col("experiment") == exp) & (pl.col("scheme") == scheme)
            & (pl.col("value") == value) & (pl.col("metric") == metric)
        )  # fmt: skip
        return row["result"].item()

    # up to +10 % fakes (Algorithm 4) lowers the sum of ranges and the query error
    none, ten = (f"target:target=uniform,mode=qi-sa,fakes={f}" for f in ("0", "0.1"))
    assert val("fakes", ten, 5, "fake_values") > 0
    assert val("fakes", ten, 5, "sum_of_ranges") < val("fakes", none, 5, "sum_of_ranges")
    assert val("fakes", ten, 50, "range_avg_error") < val("fakes", none, 50, "range_avg_error")

    # Fig. 3.6a knees: the sum of ranges collapses at x ≈ 0.3 (normal), 0.5 (uniform), and
    # only by 0.9 for Zipf
    def sor(target, x):
        return val("shift", f"target:target={target},domain=range", x, "sum_of_ranges")

    assert sor("normal,r=4", 0.3) < 0.3 * sor("normal,r=4", 0.2)
    assert sor("uniform", 0.5) < 0.35 * sor("uniform", 0.4)
    assert sor("uniform", 0.4) > 2 * sor("normal,r=4", 0.4)
    assert sor("zipf,s=1", 0.5) > 3 * sor("zipf,s=1", 0.9)
    assert sor("zipf,s=1", 0.9) <= sor("uniform", 0.5)

    # Fig. 3.2b (non-correlated): QI-SA is flat in span, SA-only wins on wide ranges
    sa, qi = "target:target=source,mode=sa-only", "target:target=source,mode=qi-sa"
    assert val("synthetic", sa, 50, "range_avg_error") < val("synthetic", qi, 50, "range_avg_error")
    assert val("synthetic", qi, 5, "range_avg_error") < val("synthetic", sa, 5, "range_avg_error")


def test_suppressed_fraction_agrees_with_the_risk_of_an_all_star_release():
    """A release generalized to '*' everywhere reads as all suppressed, in the risk measures
    and in the suppressed fraction alike (it was 0 % suppressed with prosecutor risk 0)."""
    from privlab.bench.registry.cells import Release as CellRelease
    from privlab.bench.registry.metrics import _suppressed
    from privlab.table.anonymize import anonymize
    from privlab.table.risk import risk_of_frame

    frame = pl.DataFrame({"zip": ["1", "2", "3", "4"], "sex": ["F", "M", "F", "M"]})
    release = anonymize(frame, quasi_identifiers=["zip", "sex"], k=4,
                        hierarchies={"zip": "flat", "sex": "flat"})  # fmt: skip
    risk = risk_of_frame(release.data, ["zip", "sex"])
    assert risk.suppressed == 4
    assert _suppressed(None, CellRelease(release), None) == 1.0


def test_naive_defences_are_breached(tmp_path):
    """Seed 000 §3.2: the differencing/tracker attack recovers every value whatever m; the
    rounded mean of 1,000 noisy repeats is exact; most of a plain sample is re-identified."""
    res = _reduced_results("naive-defences", tmp_path)

    def result(metric, value):
        return res.filter((pl.col("metric") == metric) & (pl.col("value") == value))["result"]

    for m in (1, 50):
        assert (result("differencing_recovered", m) == 1.0).all()
    for m in (1, 50):  # |Q| = n is refused (n > n − m): the tracker after two refusals
        assert (result("differencing_queries", m) == 6).all()
    assert (result("audited_recovered", 50) == 0.0).all()  # simulatable auditing stops it
    assert (result("audited_denied", 50) >= 1).all()
    assert (result("averaging_exact", 1) < 0.6).all()
    assert (result("averaging_exact", 1000) == 1.0).all()
    assert (result("sample_exposed_rate", 0.5) > 0.5).all()


def test_adult_ldiv_attacks_find_skewed_and_similar_classes(tmp_path):
    res = _reduced_results("adult-ldiv-attacks", tmp_path)

    def one(scheme, metric):
        return res.filter((pl.col("scheme") == scheme) & (pl.col("metric") == metric))[
            "result"
        ].item()

    for scheme in ("l-diversity", "t-closeness"):
        assert 0 <= one(scheme, "skewed_rate") <= 1 and one(scheme, "skew_max_lift") >= 1
        assert 0 < one(scheme, "similarity_mean_posterior") <= 1
    # t-closeness (t = 0.2) bounds the gap to the overall distribution: nobody's occupation
    # gets 3× its prior where 2-diversity lets it
    assert one("t-closeness", "skew_max_lift") <= one("l-diversity", "skew_max_lift")
