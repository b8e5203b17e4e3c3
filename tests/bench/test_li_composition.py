"""The li-composition spec (Li et al. §2.6, §2.7, Prop. 1) reproduces the seed's numbers."""

from __future__ import annotations

import polars as pl
import pytest

from privlab.bench import load_spec, run_spec


@pytest.fixture(scope="module")
def reduced(tmp_path_factory):
    out = tmp_path_factory.mktemp("lic")
    run_spec(load_spec("li-composition").reduce(), out)
    return pl.read_csv(out / "results.csv")


def _val(res, experiment, value, metric):
    row = res.filter(
        (pl.col("experiment") == experiment) & (pl.col("value") == value)
        & (pl.col("metric") == metric)
    )  # fmt: skip
    return row["result"].item()


def test_parity_about_zero_against_a_quarter(reduced):
    # reduced: 2,000 tuples, threshold 200, β = ½; exact and simulated agree
    without, with_t = (_val(reduced, "parity", 0.5, f"parity_{w}") for w in ("without_t", "with_t"))
    assert without < 0.02 and with_t == pytest.approx(0.25, abs=0.01)
    sim = _val(reduced, "parity", 0.5, "parity_simulated_with_t")
    assert sim == pytest.approx(with_t, abs=0.01)


def test_fresh_sampling_fifty_rounds_is_one_epsilon(reduced):
    assert _val(reduced, "fresh", 50, "composed_epsilon") == pytest.approx(1.0)
    assert _val(reduced, "fresh", 1, "miss_probability") == pytest.approx(0.8)
    assert _val(reduced, "fresh", 50, "miss_probability") == pytest.approx(0.8**50)


def test_prop1_needs_delta_one_without_sampling(reduced):
    assert _val(reduced, "prop1", 1.0, "prop1_min_delta") == 1.0
    # Table 2's cell k = 20, β = 0.2, ε = 1: 6.03×10⁻⁹
    assert _val(reduced, "prop1", 1.0, "prop1_delta_sampled") == pytest.approx(6.03e-9, rel=5e-3)


def test_parity_metric_refuses_another_scheme(tmp_path):
    from privlab.bench import parse_text, run_spec
    from privlab.errors import ConfigError

    text = """
[spec]
name = "x"

[[experiment]]
name = "e"
data = "none"
schemes = ["fresh-sampling"]
parameter = "rounds"
values = [2]
metrics = ["parity_with_t"]
"""
    spec = parse_text(text, "x.toml")
    with pytest.raises(ConfigError, match="ParityResult"):
        run_spec(spec, tmp_path)
