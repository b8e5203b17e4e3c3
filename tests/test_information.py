"""Self-information, Shannon / min / Rényi entropy, statistical distance (seed 000 Ch. 2),
and the min-entropy ℓ of a release in ``assess`` / ``table check``."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.errors import ConfigError, InputError
from privlab.information import (
    min_entropy,
    renyi_entropy,
    row_min_entropy,
    row_shannon_entropy,
    row_statistical_distance,
    self_information,
    shannon_entropy,
    statistical_distance,
)
from privlab.table.assess import assess
from privlab.table.data import MicroTable, Purpose

weights = st.lists(st.integers(0, 20), min_size=1, max_size=7).filter(lambda w: sum(w) > 0)


def test_hand_computed_values_of_the_thesis():
    assert self_information(0.5) == 1.0  # a coin
    assert self_information(1 / 6) == pytest.approx(2.585, abs=5e-4)  # a die
    assert self_information(0.0) == math.inf and self_information(1.0) == 0.0
    assert shannon_entropy([1, 1, 2]) == 1.5  # Table 3.2's classes: (¼, ¼, ½)
    assert min_entropy([1, 1, 2]) == 1.0
    assert statistical_distance([1, 0], [0.5, 0.5]) == 0.5
    assert shannon_entropy([1, 1], base=math.e) == pytest.approx(math.log(2))


def test_min_entropy_is_the_guessing_measure_shannon_is_not():
    """One outcome at 0.99: H∞ ≈ 0.0145 bits, while H is large with many rare outcomes."""
    p = np.concatenate([[0.99], np.full(10**6, 0.01 / 10**6)])
    assert min_entropy(p) == pytest.approx(-math.log2(0.99))
    assert shannon_entropy(p) > 0.2 and shannon_entropy(p) > 10 * min_entropy(p)


@settings(max_examples=80, deadline=None)
@given(weights)
def test_min_entropy_le_shannon_le_log_support(w):
    support = sum(1 for x in w if x > 0)
    assert min_entropy(w) <= shannon_entropy(w) + 1e-12
    assert shannon_entropy(w) <= math.log2(support) + 1e-12
    assert renyi_entropy(w, 1.0) == shannon_entropy(w)
    assert renyi_entropy(w, 2.0) <= renyi_entropy(w, 0.5) + 1e-12  # non-increasing in α
    assert renyi_entropy(w, 1 + 1e-7) == pytest.approx(shannon_entropy(w), abs=1e-5)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.data())
def test_statistical_distance_is_the_max_over_events(n, data):
    p = np.array(data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(any)), float)
    q = np.array(data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(any)), float)
    p, q = p / p.sum(), q / q.sum()
    best = max(
        abs(p[list(a)].sum() - q[list(a)].sum())
        for r in range(n + 1)
        for a in itertools.combinations(range(n), r)
    )
    assert statistical_distance(p, q) == pytest.approx(best)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.data())
def test_no_function_increases_statistical_distance(n, data):
    """Property 2.12 for a deterministic f: merging outcomes never increases Δ."""
    p = data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(any))
    q = data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(any))
    f = data.draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
    fp, fq = np.bincount(f, weights=p, minlength=n), np.bincount(f, weights=q, minlength=n)
    assert statistical_distance(fp, fq) <= statistical_distance(p, q) + 1e-12


def test_row_wise_forms_agree_with_the_scalar_ones():
    hist = np.array([[1, 1, 2], [4, 0, 0], [3, 3, 2]])
    assert row_min_entropy(hist).tolist() == [min_entropy(r) for r in hist]
    assert row_shannon_entropy(hist) == pytest.approx([shannon_entropy(r) for r in hist])
    total = hist.sum(axis=0)
    assert row_statistical_distance(hist, total) == pytest.approx(
        [statistical_distance(r, total) for r in hist]
    )


def test_bad_input_names_the_problem():
    with pytest.raises(InputError, match="non-negative"):
        shannon_entropy([1, -1])
    with pytest.raises(InputError, match="sum to 0"):
        min_entropy([0, 0])
    with pytest.raises(InputError, match="same outcomes"):
        statistical_distance([1, 2], [1, 2, 3])
    with pytest.raises(ConfigError, match="base"):
        shannon_entropy([1], base=1)
    with pytest.raises(ConfigError, match="probability"):
        self_information(1.5)
    with pytest.raises(InputError, match="at least one record"):
        row_min_entropy([[0, 0], [1, 1]])


def _table_3_2() -> pl.DataFrame:
    zips = ["1305*"] * 4 + ["1485*"] * 4 + ["1306*"] * 4
    ages = ["<=40"] * 4 + [">40"] * 4 + ["<=40"] * 4
    dis = ["HD", "VI", "C", "C", "C", "HD", "VI", "VI", "HD", "VI", "C", "C"]
    return pl.DataFrame({"zip": zips, "age": ages, "disease": dis})


def test_release_metric_on_table_3_2():
    """Each class is (¼, ¼, ½): entropy ℓ = 2^1.5 ≈ 2.83, min-entropy ℓ = 2 (best guess ½)."""
    t = MicroTable.from_data(
        _table_3_2(), quasi_identifiers=["zip", "age"], sensitive=["disease"],
        purpose=Purpose.ASSESS,
    )  # fmt: skip
    s = assess(t).sensitive[0]
    assert s.entropy_l == pytest.approx(2**1.5)
    assert s.min_entropy_l == pytest.approx(2.0)
    assert s.to_dict()["best_guess"] == pytest.approx(0.5)
    # t with equal ground distance is the statistical distance from the whole table
    hist = np.array([[1, 1, 2], [1, 2, 1], [1, 1, 2]])  # counts of HD, VI, C per class
    assert s.t_equal == pytest.approx(row_statistical_distance(hist, hist.sum(axis=0)).max())


def test_table_check_prints_the_min_entropy_l(tmp_path):
    path = tmp_path / "t32.csv"
    _table_3_2().write_csv(path)
    args = ["table", "check", str(path), "--qi", "zip,age", "--sensitive", "disease"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)["sensitive"][0]
    assert s["min_entropy_l"] == pytest.approx(2.0) and s["best_guess"] == pytest.approx(0.5)
    text = CliRunner().invoke(app, args, env={"COLUMNS": "160"})
    assert "min-entropy ℓ" in text.stdout
