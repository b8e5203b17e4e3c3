"""Re-identification risk (privlab.table.risk): hand-computed cases, ARX reference values on
Adult, properties, validation and the ``privlab table risk`` command."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.errors import ConfigError, InputError
from privlab.table.adult import ADULT_COLUMNS
from privlab.table.data import MicroTable
from privlab.table.risk import (
    class_size_histogram,
    class_sizes_of_codes,
    class_sizes_of_frame,
    dankar_uniques,
    estimated_record_risk,
    journalist_risk,
    marketer_risk,
    pitman_uniques,
    prosecutor_risk,
    risk_from_class_sizes,
    risk_of_frame,
    risk_report,
    zayatz_uniques,
)

ADULT_RISK_QIS = [c for c in ADULT_COLUMNS if c != "salary-class"]

# Population-uniqueness estimates on raw Adult (8 QIs, salary-class excluded) from ARX's own
# classes (RiskModelPopulationUniqueness with ARXPopulationModel.create(30162, π); ModelPitman,
# ModelZayatz and ModelSNB compiled from arx-deidentifier/arx master and fed the class-size
# histogram): π -> (population size, Pitman uniques, Zayatz uniques, Dankar model).
ARX_ADULT_UNIQUES = {
    0.001: (30_162_000, 1812314.125249091, 6540934.915220771, "pitman"),
    0.01: (3_016_200, 361577.91902222, 674264.1641676627, "pitman"),
    0.1: (301_620, 72139.03467560843, 82637.15166337995, "pitman"),
    0.5: (60_324, 23381.33228432046, 23198.999762168965, "zayatz"),
    1.0: (30_162, 14392.583313719526, 14021.0, "zayatz"),  # ARX: SNB, 14020.99999999
}

runner = CliRunner()


def brute_sizes(rows: list[tuple]) -> list[int]:
    return sorted(Counter(rows).values())


def brute_expected_inverse(f: int, pi: float) -> float:
    """E[1/F] for F = f + NegBin(f, π) by summing the pmf directly (far into the tail)."""
    terms = int((f + 15 * math.sqrt(f) + 50) / pi)
    h = np.arange(f, f + terms, dtype=np.float64)
    from scipy.special import gammaln

    log_pmf = (
        gammaln(h) - gammaln(f) - gammaln(h - f + 1) + f * math.log(pi) + (h - f) * math.log1p(-pi)
    )
    return float(np.sum(np.exp(log_pmf) / h))


def pitman_log_likelihood(sizes, theta: float, alpha: float) -> float:
    """Pitman's sampling formula, summed term by term (independent of the module's closed forms)."""
    counts = Counter(int(s) for s in sizes)
    u, n = sum(counts.values()), sum(s * c for s, c in counts.items())
    ll = sum(math.log(theta + i * alpha) for i in range(1, u))
    ll -= sum(math.log(theta + i) for i in range(1, n))
    for size, c in counts.items():
        ll += c * sum(math.log(i - alpha) for i in range(1, size))
    return ll


# --------------------------------------------------------------------------- hand-computed
SIZES = [1, 1, 2, 4]  # 8 records, 4 classes


def test_histogram_and_prosecutor_by_hand():
    sz, cnt = class_size_histogram(SIZES)
    assert sz.tolist() == [1, 2, 4] and cnt.tolist() == [2, 1, 1]
    p = prosecutor_risk(SIZES, threshold=0.2)
    assert (p.highest, p.average, p.lowest) == (1.0, 0.5, 0.25)
    assert p.fraction_at_risk == 1.0 and p.classes_at_risk == 4  # 1/4 > 0.2
    # ARX counts a record at risk only when 1/f is strictly above the threshold
    p = prosecutor_risk(SIZES, threshold=0.25)
    assert p.fraction_at_risk == 0.5 and p.classes_at_risk == 3
    p = prosecutor_risk(SIZES, threshold=0.5)
    assert p.fraction_at_risk == 0.25 and p.classes_at_risk == 2


def test_report_without_population_by_hand():
    r = risk_from_class_sizes(SIZES, threshold=0.2)
    d = r.to_dict()
    assert d["records"] == 8 and d["classes"] == 4 and d["suppressed"] == 0
    assert d["sample_uniques"] == 2 and d["sample_uniques_fraction"] == 0.25
    assert d["smallest_class"] == 1 and d["largest_class"] == 4
    assert d["average_class_size"] == 2.0
    assert d["marketer_risk"] == 0.5  # classes / records
    # no population information: the journalist uses the sample (ARX), i.e. the prosecutor
    assert r.journalist == r.prosecutor
    assert d["population_uniques_pitman"] is None and d["dankar_model"] is None
    assert d["class_size_histogram"] == {"1": 2, "2": 1, "4": 1}
    json.dumps(d)  # plain JSON, no numpy scalars or NaN


def test_journalist_and_marketer_with_population_table_by_hand():
    big_f = [2, 5, 4, 8]
    j = journalist_risk(SIZES, big_f, threshold=0.2)
    assert j.highest == 0.5 and j.lowest == 0.125
    marketer = (1 / 2 + 1 / 5 + 2 / 4 + 4 / 8) / 8
    assert marketer_risk(SIZES, big_f) == pytest.approx(marketer)
    assert j.average == pytest.approx(max(4 / 19, marketer))  # ARX: max(u / ΣF, marketer)
    assert j.fraction_at_risk == 3 / 8 and j.classes_at_risk == 2  # 0.2 is not > 0.2
    r = risk_from_class_sizes(SIZES, population_sizes=big_f)
    assert r.journalist_model == "population table" and r.marketer == pytest.approx(marketer)


def test_zayatz_by_hand():
    # N = 16 (π = 0.5): h(1; N, j, n) = j C(N-j, n-1) / C(N, n)
    n, big_n = 8, 16

    def h(j: int) -> float:
        return j * math.comb(big_n - j, n - 1) / math.comb(big_n, n)

    cond = 2 * h(1) / (2 * h(1) + h(2) + h(4))
    z = zayatz_uniques(SIZES, big_n)
    assert z.uniques == pytest.approx(2 * cond / 0.5, rel=1e-12)
    assert z.fraction == pytest.approx(2 * cond / 0.5 / 16, rel=1e-12)
    # π = 1: every sample unique is a population unique
    assert zayatz_uniques(SIZES, 8).uniques == pytest.approx(2.0)


def test_no_sample_uniques_means_no_population_uniques():
    for est in (pitman_uniques([2, 3], 100), zayatz_uniques([2, 3], 100), dankar_uniques([2], 9)):
        assert est.uniques == 0.0 and est.fraction == 0.0


def test_pitman_has_no_estimate_when_every_class_is_unique():
    est = pitman_uniques([1, 1, 1, 1], 400)
    assert est.uniques is None and est.fraction is None
    r = risk_from_class_sizes([1, 1, 1, 1], population_size=400)
    assert r.dankar.model == "zayatz" and r.dankar.uniques == r.zayatz.uniques


@pytest.mark.parametrize("pi", [1e-6, 0.001, 0.01, 0.3, 0.9, 1.0])
def test_estimated_record_risk_matches_the_negative_binomial_sum(pi):
    sizes = np.array([1, 2, 3, 7, 19, 20, 21, 50, 400])
    got = estimated_record_risk(sizes, pi)
    if pi == 1.0:
        np.testing.assert_allclose(got, 1.0 / sizes, rtol=1e-14)
        return
    assert got[0] == pytest.approx(pi * math.log(1 / pi) / (1 - pi), rel=1e-12)
    if pi >= 0.001:
        expected = [brute_expected_inverse(int(f), pi) for f in sizes]
        np.testing.assert_allclose(got, expected, rtol=1e-9)
    assert np.all(got <= 1.0 / sizes) and np.all(np.diff(got) < 0)


def test_pitman_fit_is_the_likelihood_maximum():
    sizes = [1] * 30 + [2] * 8 + [3] * 4 + [5, 5, 9, 14]
    est = pitman_uniques(sizes, 10_000)
    assert est.parameters["converged"] and est.uniques is not None
    t, a = est.parameters["theta"], est.parameters["alpha"]
    best = pitman_log_likelihood(sizes, t, a)
    for dt, da in [(1e-3, 0), (-1e-3, 0), (0, 1e-3), (0, -1e-3), (1e-3, 1e-3), (-1e-3, 1e-3)]:
        assert pitman_log_likelihood(sizes, t * (1 + dt), a + da) <= best + 1e-12
    expected = math.exp(math.lgamma(t + 1) - math.lgamma(t + a)) * 10_000**a
    assert est.uniques == pytest.approx(expected, rel=1e-12)


def test_dankar_rule_picks_by_sampling_fraction():
    sizes = [1] * 30 + [2] * 8 + [3] * 4 + [5, 5, 9, 14]  # n = 93
    low = dankar_uniques(sizes, 93 * 20)  # π = 0.05 → Pitman
    assert low.model == "pitman" and low.uniques == pitman_uniques(sizes, 93 * 20).uniques
    high = dankar_uniques(sizes, 93 * 4)  # π = 0.25 → Zayatz (no SNB: conservative)
    assert high.model == "zayatz" and high.uniques == zayatz_uniques(sizes, 93 * 4).uniques


# --------------------------------------------------------------------------- frames and tables
def test_frame_excludes_and_counts_suppressed_rows():
    frame = pl.DataFrame(
        {
            "a": ["x", "x", "y", "*", "*", "y", "z"],
            "b": ["1", "1", "2", "*", "*", "3", "*"],
            "s": ["p", "q", "r", "s", "t", "u", "v"],
        }
    )
    r = risk_of_frame(frame, ["a", "b"])
    assert (r.records, r.suppressed, r.classes) == (5, 2, 4)
    assert r.histogram == {1: 3, 2: 1}  # ("z", "*") is a class, not a suppressed row
    # an explicit mask (or row positions, as in Release.suppressed_rows) wins over detection
    mask = np.zeros(7, dtype=bool)
    mask[[0, 1]] = True
    by_mask = risk_of_frame(frame, ["a", "b"], suppressed=mask)
    by_rows = risk_of_frame(frame, ["a", "b"], suppressed=np.array([0, 1]))
    assert by_mask.to_dict() == by_rows.to_dict()
    assert (by_mask.records, by_mask.suppressed, by_mask.histogram) == (5, 2, {1: 3, 2: 1})
    # detection off: the '*' rows form a class of their own
    assert risk_of_frame(frame, ["a", "b"], suppressed_value=None).histogram == {1: 3, 2: 2}
    # a pandas frame gives the same report
    assert risk_of_frame(frame.to_pandas(), ["a", "b"]).to_dict() == r.to_dict()
    # so does the encoded table
    table = MicroTable.from_data(frame, quasi_identifiers=["a", "b"], purpose="assess")
    assert risk_report(table).to_dict() == r.to_dict()


def test_population_frame_gives_population_class_sizes():
    population = pl.DataFrame(
        {"a": ["x"] * 5 + ["y"] * 3 + ["z"] * 2, "b": ["1"] * 5 + ["2"] * 3 + ["1"] * 2}
    )
    sample = population[[0, 1, 5, 8]]
    r = risk_of_frame(sample, ["a", "b"], population=population)
    assert r.population_size == 10 and r.journalist_model == "population table"
    # classes (x,1): f=2, F=5; (y,2): f=1, F=3; (z,1): f=1, F=2
    assert r.marketer == pytest.approx((2 / 5 + 1 / 3 + 1 / 2) / 4)
    assert r.journalist.highest == 0.5 and r.journalist.lowest == 0.2
    with pytest.raises(InputError, match="do not occur"):
        risk_of_frame(pl.DataFrame({"a": ["w"], "b": ["1"]}), ["a", "b"], population=population)


def test_release_suppression_is_counted(tmp_path):
    from privlab.table.anonymize import anonymize

    rng = np.random.default_rng(3)
    frame = pl.DataFrame(
        {
            "zip": rng.choice(["13053", "13068", "14853"], 60).tolist(),
            "sex": rng.choice(["F", "M"], 60).tolist(),
        }
    )
    frame = pl.concat([frame, pl.DataFrame({"zip": ["99999"], "sex": ["F"]})])
    release = anonymize(
        frame,
        quasi_identifiers=["zip", "sex"],
        hierarchies={"zip": "flat", "sex": "flat"},
        k=3,
        suppression_limit=0.05,
    )
    auto = risk_of_frame(release.data, ["zip", "sex"])
    given_rows = risk_of_frame(release.data, ["zip", "sex"], suppressed=release.suppressed_rows)
    assert auto.suppressed == given_rows.suppressed == release.suppressed_rows.size >= 1
    assert auto.records + auto.suppressed == frame.height
    assert auto.prosecutor.highest <= 1 / 3


# --------------------------------------------------------------------------- Adult
@pytest.mark.adult
def test_adult_reference_values(adult_dir):
    table = MicroTable.from_data(
        adult_dir / "adult.csv", quasi_identifiers=ADULT_RISK_QIS, purpose="assess"
    )
    r = risk_report(table)
    assert r.records == 30_162 and r.classes == 18_109 and r.suppressed == 0
    assert round(r.prosecutor.average, 4) == 0.6004
    assert round(100 * r.sample_uniques_fraction, 2) == 46.49
    assert r.prosecutor.highest == 1.0
    assert risk_of_frame(adult_dir / "adult.csv", ADULT_RISK_QIS).to_dict() == r.to_dict()


@pytest.mark.adult
@pytest.mark.parametrize("pi", sorted(ARX_ADULT_UNIQUES))
def test_adult_population_uniqueness_matches_arx(adult_dir, pi):
    big_n, pitman, zayatz, model = ARX_ADULT_UNIQUES[pi]
    r = risk_of_frame(adult_dir / "adult.csv", ADULT_RISK_QIS, sampling_fraction=pi)
    assert r.population_size == big_n and r.sampling_fraction == pytest.approx(pi)
    assert r.pitman.uniques == pytest.approx(pitman, rel=1e-7)
    assert r.zayatz.uniques == pytest.approx(zayatz, rel=1e-7)
    assert r.dankar.model == model
    assert r.zayatz.fraction <= r.sample_uniques_fraction + 1e-12
    by_size = risk_of_frame(adult_dir / "adult.csv", ADULT_RISK_QIS, population_size=big_n)
    assert by_size.to_dict() == r.to_dict()


# --------------------------------------------------------------------------- validation
def test_bad_parameters_raise_config_errors():
    with pytest.raises(ConfigError, match="--population"):
        risk_from_class_sizes(SIZES, population_size=7)
    for bad in (0, 0.0, -0.1, 1.5, float("nan")):
        with pytest.raises(ConfigError, match="--sampling-fraction"):
            risk_from_class_sizes(SIZES, sampling_fraction=bad)
    with pytest.raises(ConfigError, match="not both"):
        risk_from_class_sizes(SIZES, population_size=100, sampling_fraction=0.08)
    with pytest.raises(ConfigError, match="--threshold"):
        risk_from_class_sizes(SIZES, threshold=0)
    # the population must hold the suppressed rows too
    with pytest.raises(ConfigError, match="--population"):
        risk_from_class_sizes(SIZES, population_size=9, suppressed=2)


def test_bad_inputs_raise_input_errors():
    with pytest.raises(InputError, match="at least 1"):
        prosecutor_risk([1, 0, 2])
    with pytest.raises(InputError, match="whole numbers"):
        prosecutor_risk([1.5, 2])
    with pytest.raises(InputError, match="population must contain"):
        journalist_risk(SIZES, [1, 1, 1, 8])
    with pytest.raises(InputError, match="one population size per"):
        journalist_risk(SIZES, [3, 3])
    frame = pl.DataFrame({"a": ["x", "y"]})
    with pytest.raises(InputError, match="mask"):
        risk_of_frame(frame, ["a"], suppressed=np.array([True]))
    with pytest.raises(ConfigError, match="not found"):
        risk_of_frame(frame, ["b"])


def test_everything_suppressed_gives_zero_risk():
    r = risk_of_frame(pl.DataFrame({"a": ["*", "*"], "b": ["*", "*"]}), ["a", "b"])
    assert (r.records, r.suppressed, r.classes) == (0, 2, 0)
    assert r.prosecutor.highest == 0.0 and r.marketer == 0.0
    json.dumps(r.to_dict())


# --------------------------------------------------------------------------- properties
class_sizes = st.lists(st.integers(1, 60), min_size=1, max_size=80)


@settings(max_examples=150, deadline=None)
@given(sizes=class_sizes, threshold=st.sampled_from([0.05, 0.1, 0.2, 1 / 3, 0.5, 1.0]))
def test_prosecutor_properties(sizes, threshold):
    r = risk_from_class_sizes(sizes, threshold=threshold)
    p = r.prosecutor
    assert p.average == pytest.approx(len(sizes) / sum(sizes))
    assert p.average == pytest.approx(np.mean(np.repeat(1.0 / np.array(sizes), sizes)))
    assert p.highest >= p.average - 1e-15 and p.average >= p.lowest - 1e-15
    assert 0.0 <= p.fraction_at_risk <= 1.0 and 0 <= p.classes_at_risk <= len(sizes)
    assert 0.0 <= r.sample_uniques_fraction <= 1.0
    assert r.sample_uniques == sizes.count(1)
    assert sum(s * c for s, c in r.histogram.items()) == sum(sizes)


@settings(max_examples=150, deadline=None)
@given(
    sizes=class_sizes,
    extra=st.lists(st.integers(0, 200), min_size=80, max_size=80),
    threshold=st.sampled_from([0.05, 0.2, 0.5]),
)
def test_journalist_never_exceeds_prosecutor(sizes, extra, threshold):
    f = np.array(sizes)
    big_f = f + np.array(extra[: f.size])
    p = prosecutor_risk(f, threshold)
    j = journalist_risk(f, big_f, threshold=threshold)
    assert j.highest <= p.highest and j.lowest <= p.lowest
    assert j.average <= p.average + 1e-15
    assert j.fraction_at_risk <= p.fraction_at_risk
    assert marketer_risk(f, big_f) <= marketer_risk(f) + 1e-15
    assert j.highest >= j.average - 1e-15 >= j.lowest - 2e-15


@settings(max_examples=100, deadline=None)
@given(sizes=class_sizes, pi=st.floats(1e-4, 1.0))
def test_estimated_journalist_risk_properties(sizes, pi):
    f = np.array(sizes)
    r = estimated_record_risk(f, pi)
    assert np.all(r > 0) and np.all(r <= 1.0 / f + 1e-15)
    # more of the population sampled -> each class is (weakly) riskier
    assert np.all(estimated_record_risk(f, min(1.0, pi * 1.5)) >= r - 1e-15)
    j = journalist_risk(f, sampling_fraction=pi)
    assert j.highest <= prosecutor_risk(f).highest + 1e-15
    assert marketer_risk(f, sampling_fraction=pi) <= marketer_risk(f) + 1e-15


@settings(max_examples=60, deadline=None)
@given(sizes=class_sizes, pi=st.sampled_from([0.001, 0.01, 0.05, 0.2, 0.7, 1.0]))
def test_population_uniqueness_properties(sizes, pi):
    r = risk_from_class_sizes(sizes, sampling_fraction=pi)
    n, big_n = sum(sizes), r.population_size
    assert big_n == max(math.floor(n / pi + 0.5), n)
    z = r.zayatz
    assert 0.0 <= z.uniques <= sizes.count(1) * big_n / n * (1 + 1e-12)
    assert z.fraction <= r.sample_uniques_fraction * (1 + 1e-12)
    if big_n == n:
        assert z.uniques == pytest.approx(sizes.count(1))
    p = r.pitman
    if p.uniques is not None:
        assert 0.0 <= p.uniques <= big_n and 0.0 <= p.fraction <= 1.0
        if sizes.count(1):
            assert p.parameters["converged"] and p.parameters["alpha"] < 1.0
    assert r.dankar.model in ("pitman", "zayatz", "dankar")
    assert r.dankar.uniques in (p.uniques, z.uniques)


@st.composite
def small_frames(draw):
    d = draw(st.integers(1, 3))
    n = draw(st.integers(1, 50))
    values = st.sampled_from(["a", "b", "c", "*"])
    cols = {f"q{j}": draw(st.lists(values, min_size=n, max_size=n)) for j in range(d)}
    return pl.DataFrame(cols), [f"q{j}" for j in range(d)]


@settings(max_examples=100, deadline=None)
@given(data=small_frames())
def test_frame_classes_match_brute_force(data):
    frame, qis = data
    rows = list(zip(*[frame[c].to_list() for c in qis], strict=True))
    kept = [r for r in rows if not all(v == "*" for v in r)]
    classes, suppressed = class_sizes_of_frame(frame, qis)
    assert suppressed == len(rows) - len(kept)
    assert sorted(classes["size"].to_list()) == brute_sizes(kept)
    codes = np.array([[ord(v) for v in r] for r in rows], dtype=np.int64)
    assert sorted(class_sizes_of_codes(codes).tolist()) == brute_sizes(rows)
    if kept:
        table = MicroTable.from_data(frame, quasi_identifiers=qis, purpose="assess")
        assert risk_report(table).to_dict() == risk_of_frame(frame, qis).to_dict()


# --------------------------------------------------------------------------- CLI
def run(args: list[object]):
    return runner.invoke(app, ["table", "risk", *[str(a) for a in args]])


def write_tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.csv"
    rows = [("13053", "F"), ("13053", "F"), ("13068", "M"), ("14853", "F")] * 1
    rows += [("14850", "M")] * 4
    path.write_text("zip,sex\n" + "\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_cli_tiny_csv(tmp_path):
    path = write_tiny(tmp_path)
    result = run([path, "--qi", "zip", "--qi", "sex", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    # classes 2, 1, 1, 4 (the hand-computed SIZES)
    assert d["records"] == 8 and d["classes"] == 4 and d["sample_uniques"] == 2
    assert d["prosecutor_average_risk"] == 0.5 and d["prosecutor_highest_risk"] == 1.0
    assert d["prosecutor_records_at_risk"] == 1.0
    result = run([path, "--qi", "zip", "--qi", "sex", "--population", "16", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["population_size"] == 16 and d["sampling_fraction"] == 0.5
    assert d["population_uniques_zayatz"] == pytest.approx(zayatz_uniques(SIZES, 16).uniques)
    result = run([path, "--qi", "zip", "--qi", "sex"])  # the table view, labelled
    assert result.exit_code == 0, result.output
    assert "prosecutor" in result.stdout and "average risk" in result.stdout


def test_cli_suppressed_records_are_counted_apart(tmp_path):
    path = write_tiny(tmp_path)
    with path.open("a", encoding="utf-8") as f:
        f.write("*,*\n*,*\n*,*\n")
    d = json.loads(run([path, "--qi", "zip", "--qi", "sex", "--json"]).stdout)
    assert (d["records"], d["suppressed"], d["classes"]) == (8, 3, 4)
    result = run([path, "--qi", "zip", "--qi", "sex", "--suppressed-value", "", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert (d["records"], d["suppressed"], d["classes"]) == (11, 0, 5)


def test_cli_population_table(tmp_path):
    path = write_tiny(tmp_path)
    pop = tmp_path / "population.csv"
    # the sample's classes (2, 1, 1, 4) have population sizes 4, 2, 1, 8 (+ 5 other people)
    rows = ["13053,F"] * 4 + ["13068,M"] * 2 + ["14853,F"] + ["14850,M"] * 8 + ["99999,F"] * 5
    pop.write_text("zip,sex\n" + "\n".join(rows) + "\n", encoding="utf-8")
    args = [path, "--qi", "zip", "--qi", "sex", "--population-table", pop, "--json"]
    result = run(args)
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["journalist_model"] == "population table" and d["population_size"] == 20
    assert d["journalist_highest_risk"] == 1.0  # the unique 14853,F is unique in the population
    assert d["marketer_risk"] == pytest.approx((2 / 4 + 1 / 2 + 1 / 1 + 4 / 8) / 8)
    pop.write_text("zip,sex\n13053,F\n", encoding="utf-8")
    result = run(args)
    assert result.exit_code == 2 and "do not occur in it" in result.output


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--sampling-fraction", "0"], "--sampling-fraction"),
        (["--sampling-fraction", "1.5"], "--sampling-fraction"),
        (["--population", "3"], "--population"),
        (["--threshold", "0"], "--threshold"),
        (["--population", "100", "--sampling-fraction", "0.08"], "not both"),
    ],
)
def test_cli_bad_input_exits_2(tmp_path, args, fragment):
    path = write_tiny(tmp_path)
    result = run([path, "--qi", "zip", "--qi", "sex", *args, "--json"])
    assert result.exit_code == 2, result.output
    assert fragment in result.output and "Traceback" not in result.output
    assert result.stdout.strip() == "" or "{" not in result.stdout


@pytest.mark.adult
def test_cli_adult(adult_dir):
    qis = [x for c in ADULT_RISK_QIS for x in ("--qi", c)]
    result = run([adult_dir / "adult.csv", *qis, "--sampling-fraction", "0.01", "--json"])
    assert result.exit_code == 0, result.output
    d = json.loads(result.stdout)
    assert d["classes"] == 18_109 and round(d["prosecutor_average_risk"], 4) == 0.6004
    assert round(100 * d["sample_uniques_fraction"], 2) == 46.49
    assert d["population_uniques_pitman"] == pytest.approx(361577.91902222, rel=1e-7)
    assert d["population_uniques_zayatz"] == pytest.approx(674264.1641676627, rel=1e-7)
    assert d["dankar_model"] == "pitman"
