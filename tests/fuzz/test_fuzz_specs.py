"""Fuzzing the command line's small spec parsers: fractions, model specs, metrics, DP queries.

Each spec is drawn from its grammar with parts replaced by wrong ones (odd numbers, missing
or extra fields, unknown words) and then mutated; valid specs must parse to the values
they spell.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from privlab.cli.dp import Query, parse_bins, parse_query
from privlab.cli.specs import (
    parse_fraction,
    parse_ke,
    parse_l_diversity,
    parse_metric,
    parse_t_closeness,
)
from privlab.table.hierarchy import Hierarchy
from privlab.table.metrics import AGGREGATIONS, METRICS, Metric
from privlab.table.models import PrivacyModel
from tests.fuzz.fuzzing import NUMBER_TEXT as NUMBER
from tests.fuzz.fuzzing import fuzzes, mutated_text, rejects_cleanly, run_cli

_TMP = Path(tempfile.mkdtemp(prefix="privlab-fuzz-specs-"))


def words(*valid: str) -> st.SearchStrategy[str]:
    """One of ``valid`` three times in four, else an unknown or empty word."""
    odd = st.sampled_from(["", "bogus", valid[0].upper(), "equal", "distinct"])
    return st.one_of(st.sampled_from(valid), st.sampled_from(valid), st.sampled_from(valid), odd)


L_KINDS = words("distinct", "entropy", "recursive")
T_KINDS = words("equal", "ordered", "hierarchical")
COLUMN = st.sampled_from(["disease", "disease", "disease", "", "a b", "é", "x:y"])


def spec(*parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Fields joined by ':' (three times in five), or with the last one dropped or repeated,
    or mutated."""
    exact = st.tuples(*parts).map(":".join)
    variant = st.tuples(*parts).flatmap(
        lambda fs: st.sampled_from([":".join(fs[:-1]), ":".join((*fs, fs[-1]))])
    )
    return st.one_of(exact, exact, exact, variant, mutated_text(exact, b":,"))


def _finite(*values: float) -> None:
    assert all(np.isfinite(float(v)) for v in values), values


# ---------------------------------------------------------------------------- fractions


@fuzzes("fraction", NUMBER | NUMBER.map(lambda s: s + "%") | spec(NUMBER))
def test_parse_fraction(text):
    value = rejects_cleanly(parse_fraction, "--suppression", text)
    if isinstance(value, float):
        assert 0.0 <= value <= 1.0


def test_parse_fraction_well_formed():
    assert parse_fraction("--suppression", "2%") == 0.02
    assert parse_fraction("--suppression", "0.25") == 0.25
    assert parse_fraction("--suppression", 1) == 1.0


# ---------------------------------------------------------------------------- models


@fuzzes("l_diversity", spec(COLUMN, L_KINDS, NUMBER) | spec(COLUMN, L_KINDS, NUMBER, NUMBER))
def test_parse_l_diversity(text):
    model = rejects_cleanly(parse_l_diversity, text)
    if isinstance(model, PrivacyModel):
        _finite(model.l, getattr(model, "c", 1))


@fuzzes("t_closeness", spec(COLUMN, T_KINDS, NUMBER), st.booleans())
def test_parse_t_closeness(text, with_hierarchy):
    hierarchies = {"disease": Hierarchy.flat(["flu", "hiv"])} if with_hierarchy else {}
    model = rejects_cleanly(parse_t_closeness, text, hierarchies)
    if isinstance(model, PrivacyModel):
        _finite(model.t)


@fuzzes("ke", spec(COLUMN, NUMBER, NUMBER))
def test_parse_ke(text):
    model = rejects_cleanly(parse_ke, text)
    if isinstance(model, PrivacyModel):
        _finite(model.k, model.e)


def test_model_specs_well_formed():
    assert parse_l_diversity("disease:distinct:3").l == 3
    assert parse_l_diversity("disease:recursive:2.5:3").c == 2.5
    assert parse_t_closeness("disease:ordered:0.2", {}).t == 0.2
    ke = parse_ke("salary:5:1000")
    assert (ke.k, ke.e) == (5, 1000.0)


_METRIC_NAMES = st.sampled_from([*METRICS, "LOSS", " dm ", "", "bogus"])
_GS = st.none() | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, 0.5, 1])
_AGGREGATION = st.none() | st.sampled_from([*AGGREGATIONS, "", "GEOMETRIC", "median"])


@fuzzes("metric", _METRIC_NAMES | mutated_text(_METRIC_NAMES, b" -"), _GS, _AGGREGATION)
def test_parse_metric(name, gs, aggregation):
    metric = rejects_cleanly(parse_metric, name, gs, aggregation)
    if isinstance(metric, Metric) and hasattr(metric, "gs"):
        assert 0.0 <= metric.gs <= 1.0


def test_parse_metric_well_formed():
    assert parse_metric("loss", 0.25, "arithmetic").gs == 0.25


# ---------------------------------------------------------------------------- DP queries

_KIND = st.sampled_from(["count", "histogram", "sum", "mean", "COUNT", "median", ""])


@fuzzes("dp_query", st.just("count") | spec(_KIND, COLUMN) | spec(_KIND, COLUMN, NUMBER, NUMBER))
def test_parse_query(text):
    query = rejects_cleanly(parse_query, text)  # the bounds are checked by dp.queries
    if isinstance(query, Query):
        assert query.label


_BINS = (st.tuples(NUMBER, NUMBER, NUMBER).map(":".join)
         | st.lists(st.sampled_from(["a", "b", "", "a b", "1"]), min_size=1, max_size=4).map(
             ",".join))  # fmt: skip


@fuzzes("dp_bins", st.lists(st.tuples(COLUMN, _BINS).map("=".join) | spec(COLUMN, _BINS).map(
    lambda s: s.replace(":", "=", 1)), min_size=1, max_size=3))  # fmt: skip
def test_parse_bins(specs):
    bins = rejects_cleanly(parse_bins, specs)
    if isinstance(bins, dict):
        for value in bins.values():
            if isinstance(value, np.ndarray):  # numeric bins: finite, strictly increasing edges
                assert value.size >= 2 and np.isfinite(value).all()
                assert (np.diff(value) > 0).all(), specs


def test_dp_specs_well_formed():
    assert parse_query("sum:income:0:1000") == Query("sum", "income", 0.0, 1000.0)
    assert parse_bins(["age=0:100:10"])["age"].tolist() == list(range(0, 101, 10))
    assert parse_bins(["sex=F,M"]) == {"sex": ["F", "M"]}


# ---------------------------------------------------------------------------- the CLI

_DATA = _TMP / "data.csv"
_DATA.write_text(
    "zip,age,disease,income\n" + "".join(
        f"{13053 + i % 3},{20 + i},{['flu', 'hiv', 'cold'][i % 3]},{1000 * i}\n"
        for i in range(12)),
    encoding="utf-8",
)  # fmt: skip
_OPTION_SPECS = st.one_of(
    st.tuples(st.just("--l-diversity"), spec(COLUMN, L_KINDS, NUMBER)),
    st.tuples(st.just("--t-closeness"), spec(COLUMN, T_KINDS, NUMBER)),
    st.tuples(st.just("--ke"), spec(COLUMN, NUMBER, NUMBER)),
    st.tuples(st.just("--suppression"), NUMBER | NUMBER.map(lambda s: s + "%")),
    st.tuples(st.just("--metric"), _METRIC_NAMES),
)


@fuzzes("cli_model_specs", _OPTION_SPECS)
def test_cli_anonymize_with_fuzzed_model_specs(option):
    flag, value = option
    run_cli(["table", "anonymize", _DATA, "--qi", "age", "--hierarchy", "age=interval:width=10",
             "-k", "2", flag, value, "-o", _TMP / "out.csv"])  # fmt: skip


@fuzzes("cli_dp_specs", spec(_KIND, COLUMN, NUMBER, NUMBER), _BINS)
def test_cli_dp_release_with_fuzzed_queries(query, bins):
    run_cli(["dp", "release", _DATA, "-q", query, "--bins", f"age={bins}", "-e", "1", "--seed",
             "1"])  # fmt: skip
