"""Grouped DP releases (privlab.dp.groupby): public and private keys, the statistics and
their noise calibration, the budget, and clear errors on bad input."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.dp import zcdp
from privlab.dp.groupby import Aggregation, grouped_release
from privlab.errors import ConfigError, InputError

COUNT = Aggregation("count")


@pytest.fixture(scope="module")
def visits():
    """2000 people with 1–6 visits each in 5 regions; integer and real values."""
    rng = np.random.default_rng(2)
    per = rng.integers(1, 7, 2000)
    person = np.repeat(np.arange(2000), per)
    n = person.size
    return pl.DataFrame(
        {
            "person": person,
            "region": rng.choice(["north", "south", "east", "west", "centre"], n),
            "cost": rng.integers(0, 500, n),
            "hours": rng.uniform(0, 8, n),
        }
    )


def _truth(frame, by, col):
    return (
        frame.group_by(by)
        .agg(
            pl.len().alias("n"),
            pl.col(col).sum().alias("sum"),
            pl.col(col).mean().alias("mean"),
            pl.col(col).var(ddof=0).alias("var"),
        )
        .sort(by)
    )


@pytest.mark.parametrize("column,low,high", [("cost", 0, 500), ("hours", 0.0, 8.0)])
@pytest.mark.parametrize("mechanism", ["laplace", "gaussian"])
def test_statistics_are_the_exact_ones_plus_small_noise_at_a_large_epsilon(
    visits, column, low, high, mechanism
):
    aggs = [
        COUNT,
        Aggregation("sum", column, low, high),
        Aggregation("mean", column, low, high),
        Aggregation("variance", column, low, high),
        Aggregation("std", column, low, high),
    ]
    release = grouped_release(
        visits, by=["region"], aggregations=aggs, epsilon=5000, delta=1e-6, seed=4,
        keys={"region": ["centre", "east", "north", "south", "west"]}, mechanism=mechanism,
    )  # fmt: skip
    got = release.frame
    want = _truth(visits, ["region"], column)
    assert got["region"].to_list() == want["region"].to_list()
    assert np.allclose(got["count"], want["n"], atol=3)
    assert np.allclose(got[f"sum({column})"], want["sum"], rtol=1e-3, atol=3)
    assert np.allclose(got[f"mean({column})"], want["mean"], rtol=1e-3)
    assert np.allclose(got[f"variance({column})"], want["var"], rtol=1e-2)
    assert np.allclose(got[f"std({column})"], np.sqrt(want["var"]), rtol=1e-2)
    assert got["count"].dtype == pl.Int64
    integer = column == "cost"
    assert got[f"sum({column})"].dtype == (pl.Int64 if integer else pl.Float64)
    figures = release.aggregations[0]["figures"]["n"]["noise"]
    assert figures == ("discrete_laplace" if mechanism == "laplace" else "discrete_gaussian")


def test_public_keys_give_every_key_in_order_and_drop_the_other_rows(visits):
    keys = pl.DataFrame({"region": ["west", "atlantis", "north"]})
    release = grouped_release(
        visits, by=["region"], aggregations=[COUNT], epsilon=2000, keys=keys, seed=1
    )
    frame = release.frame
    assert frame["region"].to_list() == ["west", "atlantis", "north"]
    truth = dict(visits.group_by("region").len().iter_rows())
    assert abs(frame["count"][0] - truth["west"]) <= 2
    assert abs(frame["count"][1]) <= 2  # an empty group: noise on 0
    assert abs(frame["count"][2] - truth["north"]) <= 2
    assert release.keys == "public"
    assert any("dropped" in note for note in release.notes)


def test_crossed_public_keys_from_a_dict(visits):
    frame = visits.with_columns((pl.col("cost") % 2).alias("parity"))
    release = grouped_release(
        frame, by=["region", "parity"], aggregations=[COUNT], epsilon=1000,
        keys={"region": ["north", "south"], "parity": [0, 1]}, seed=3,
    )  # fmt: skip
    assert release.frame.select("region", "parity").rows() == [
        ("north", 0), ("north", 1), ("south", 0), ("south", 1)
    ]  # fmt: skip


def test_private_keys_release_large_groups_and_hide_a_group_of_one_unit(visits):
    lone = pl.DataFrame(
        {"person": [99999], "region": ["island"], "cost": [1], "hours": [1.0]}
    ).cast(visits.schema)
    frame = pl.concat([visits, lone])
    release = grouped_release(
        frame, by=["region"], aggregations=[COUNT], epsilon=1.0, delta=1e-9,
        privacy_unit="person", max_rows_per_unit=3, max_groups_per_unit=2, seed=8,
    )  # fmt: skip
    # each large region holds hundreds of people, far above τ; "island" (1 person) is
    # released with probability ≤ 1e-9 / 2
    assert release.frame["region"].to_list() == ["centre", "east", "north", "south", "west"]
    sel = release.selection
    assert release.keys == "private" and sel.max_groups == 2
    assert sel.single_unit * 2 <= 1e-9
    ledger = {c["label"]: c for c in release.ledger["ledger"]}
    assert ledger["partition selection"]["delta"] == 1e-9
    assert ledger["partition selection"]["epsilon"] == pytest.approx(0.5)
    assert ledger["count"]["epsilon"] == pytest.approx(0.5)


def test_count_noise_is_calibrated_to_the_contribution_bounds():
    """5000 empty public groups: the noise of each count is DLap(G·R/ε); its sample variance
    matches 2α/(1 − α)², α = e^{−ε/(G·R)}: within 4 standard errors (the relative standard
    error of a sample variance is √((κ − 1)/n), κ ≈ 6 for the Laplace: 0.032)."""
    frame = pl.DataFrame({"u": [1, 1, 2], "g": [0, 0, 1]})
    release = grouped_release(
        frame, by=["g"], aggregations=[COUNT], epsilon=1.0, keys={"g": list(range(2, 5002))},
        privacy_unit="u", max_rows_per_unit=2, max_groups_per_unit=3, seed=12,
    )  # fmt: skip
    info = release.aggregations[0]["figures"]["n"]
    assert info["l1_sensitivity"] == 6 and info["scale"] == pytest.approx(6.0)
    alpha = math.exp(-1 / 6)
    variance = 2 * alpha / (1 - alpha) ** 2
    noise = release.frame["count"].to_numpy()
    assert abs(noise.var() / variance - 1) < 4 * math.sqrt(5 / 5000)
    assert abs(noise.mean()) < 4 * math.sqrt(variance / 5000)


def test_bounding_changes_the_answer_as_the_bounds_say():
    """Each of 300 people has 10 rows in one group; with R = 2 the count is 600 (exact at a
    huge ε), and the mean of rows is unchanged."""
    frame = pl.DataFrame({"u": np.repeat(np.arange(300), 10), "g": ["a"] * 3000, "x": 5})
    release = grouped_release(
        frame, by=["g"], aggregations=[COUNT, Aggregation("mean", "x", 0, 10)],
        epsilon=10000, keys={"g": ["a"]}, privacy_unit="u", max_rows_per_unit=2,
        max_groups_per_unit=1, seed=1,
    )  # fmt: skip
    assert abs(release.frame["count"][0] - 600) <= 2
    assert release.frame["mean(x)"][0] == pytest.approx(5, abs=0.05)
    assert "at most 2 row(s)" in release.contribution.statement


def test_budget_split_explicit_shares_and_the_gaussian_conversion(visits):
    aggs = [
        COUNT,
        Aggregation("sum", "cost", 0, 500, epsilon=0.5),
        Aggregation("mean", "cost", 0, 500),
    ]
    release = grouped_release(visits, by=[], aggregations=aggs, epsilon=1.0, seed=1)
    shares = [a["epsilon"] for a in release.aggregations]
    assert shares == pytest.approx([0.25, 0.5, 0.25])
    assert release.budget.epsilon == pytest.approx(1.0) and release.budget.delta == 0
    assert release.frame.height == 1 and "one row is one person" in release.notes[0]
    mean_figs = release.aggregations[2]["figures"]
    assert mean_figs["n"]["epsilon"] == pytest.approx(0.125)
    assert mean_figs["csum"]["l1_sensitivity"] == 500  # 2(x − m) ∈ [−500, 500]
    gauss = grouped_release(
        visits, by=[], aggregations=[COUNT], epsilon=1.0, delta=1e-6, mechanism="gaussian", seed=1
    )
    rho = gauss.rho  # the tight conversion's ρ: within (1, 1e-6), more than Bun–Steinke's
    assert rho == zcdp.rho_for(1.0, 1e-6)
    assert zcdp.epsilon(rho, 1e-6) == pytest.approx(1.0) and zcdp.epsilon(rho, 1e-6) <= 1.0
    bun_steinke = (math.sqrt(math.log(1e6) + 1) - math.sqrt(math.log(1e6))) ** 2
    assert rho > bun_steinke
    sigma = gauss.aggregations[0]["figures"]["n"]["sigma"]
    assert sigma == pytest.approx(1 / math.sqrt(2 * rho), rel=1e-5)
    over = [Aggregation("count", epsilon=0.7), Aggregation("sum", "cost", 0, 1, epsilon=0.6)]
    with pytest.raises(ConfigError, match="leave nothing"):
        grouped_release(visits, by=[], epsilon=1.0, aggregations=over)


def test_pandas_and_lazy_inputs_and_the_seed_flag(visits):
    aggs = [Aggregation("sum", "cost", 0, 500)]
    keys = {"region": ["north"]}
    a = grouped_release(visits.to_pandas(), by=["region"], aggregations=aggs, epsilon=1,
                        keys=keys, seed=5)  # fmt: skip
    b = grouped_release(visits.lazy(), by=["region"], aggregations=aggs, epsilon=1,
                        keys=keys, seed=5)  # fmt: skip
    assert a.frame.equals(b.frame) and a.insecure_seed
    secure = grouped_release(visits, by=["region"], aggregations=aggs, epsilon=1, keys=keys)
    assert secure.insecure_seed is False
    assert secure.to_dict()["groups"][0]["region"] == "north"


BAD = [
    ({"aggregations": [Aggregation("sum", "nope", 0, 1)]}, InputError, "no column 'nope'"),
    ({"by": ["nope"]}, InputError, "no column 'nope'"),
    ({"aggregations": [Aggregation("sum", "cost")]}, ConfigError, "bounds"),
    ({"aggregations": [Aggregation("mean", "cost", 5, 1)]}, ConfigError, "low < high"),
    ({"aggregations": [Aggregation("mean", "cost", 0, math.inf)]}, ConfigError, "finite"),
    ({"aggregations": [Aggregation("sum", "region", 0, 1)]}, InputError, "not numeric"),
    ({"aggregations": [Aggregation("quantile", "cost", 0, 1)]}, ConfigError, "quantile=p"),
    ({"aggregations": [Aggregation("quantile", "cost", 0, 9, quantile=1.5)]}, ConfigError,
     "quantile level"),
    ({"aggregations": [Aggregation("median", "cost", 0, 9, quantile=0.5)]}, ConfigError,
     "only for kind 'quantile'"),
    ({"aggregations": [Aggregation("median", "cost")]}, ConfigError, "bounds"),
    ({"aggregations": [Aggregation("median", "region", 0, 1)]}, InputError, "not numeric"),
    ({"aggregations": [Aggregation("total")]}, ConfigError, "choose one of"),
    ({"aggregations": []}, ConfigError, "at least one"),
    ({"keys": None, "delta": 0.0}, ConfigError, "partition selection needs δ > 0"),
    ({"mechanism": "gaussian"}, ConfigError, "needs delta > 0"),
    ({"mechanism": "cauchy"}, ConfigError, "choose one of"),
    ({"epsilon": 0}, ConfigError, "ε must be"),
    ({"privacy_unit": "person"}, ConfigError, "max_rows_per_unit"),
    ({"max_rows_per_unit": 3}, ConfigError, "without a privacy unit"),
    ({"keys": {"region": []}}, ConfigError, "non-empty"),
    ({"keys": {"cost": [1]}}, ConfigError, "exactly the group-by columns"),
    ({"keys": {"region": ["a"]}, "by": ["region", "region"]}, ConfigError, "distinct"),
    ({"keys": "north"}, ConfigError, "keys: give"),
    ({"data": [1, 2]}, InputError, "polars DataFrame"),
]


@pytest.mark.parametrize("change,error,message", BAD)
def test_bad_input_gives_a_clear_error(visits, change, error, message):
    kwargs = {
        "data": visits, "by": ["region"], "aggregations": [COUNT], "epsilon": 1.0,
        "keys": {"region": ["north"]},
    }  # fmt: skip
    kwargs.update(change)
    with pytest.raises(error, match=message):
        grouped_release(kwargs.pop("data"), **kwargs)


def test_missing_values_and_public_keys_of_the_wrong_type_are_refused():
    frame = pl.DataFrame({"g": [1, 2], "x": [1.0, float("nan")], "u": [1, None]})
    with pytest.raises(InputError, match="NaN"):
        grouped_release(frame, by=["g"], aggregations=[Aggregation("sum", "x", 0, 1)],
                        epsilon=1, keys={"g": [1]})  # fmt: skip
    with pytest.raises(InputError, match="privacy unit"):
        grouped_release(frame, by=["g"], aggregations=[COUNT], epsilon=1, keys={"g": [1]},
                        privacy_unit="u", max_rows_per_unit=1, max_groups_per_unit=1)  # fmt: skip
    with pytest.raises(ConfigError, match="do not all convert"):
        grouped_release(frame, by=["g"], aggregations=[COUNT], epsilon=1, keys={"g": ["x"]})


def test_integer_sums_stay_exact_integers():
    big = 10**12
    frame = pl.DataFrame({"x": [big] * 3000})
    release = grouped_release(
        frame, by=[], aggregations=[Aggregation("sum", "x", 0, big)], epsilon=1e6, seed=2
    )
    value = release.frame["sum(x)"][0]
    assert isinstance(value, int) and abs(value - 3000 * big) <= 10**7


def test_a_missing_key_is_a_group_and_empty_data_releases_no_private_group():
    frame = pl.DataFrame({"g": ["a"] * 500 + [None] * 500, "x": [1.0] * 1000})
    release = grouped_release(frame, by=["g"], aggregations=[COUNT], epsilon=1, delta=1e-6, seed=2)
    assert release.frame["g"].to_list() == ["a", None]  # sorted, the missing key last
    empty = frame.clear()
    private = grouped_release(empty, by=["g"], aggregations=[COUNT], epsilon=1, delta=1e-6)
    assert private.frame.height == 0 and private.frame.columns == [
        "g", "count", "count ci_low", "count ci_high"]
    public = grouped_release(empty, by=["g"], aggregations=[COUNT], epsilon=1, keys={"g": ["a"]})
    assert public.frame["g"].to_list() == ["a"]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=0, max_size=40),
    st.floats(-100, 100),
    st.floats(0.5, 200),
    st.floats(0.01, 10),
    st.integers(0, 2**32),
)
def test_released_means_variances_and_stds_stay_in_their_ranges(values, low, width, eps, seed):
    """Whatever the data and the noise: mean ∈ [L, U], variance ∈ [0, ((U − L)/2)²],
    std = √variance (post-processing of the noisy figures)."""
    high = low + width
    frame = pl.DataFrame({"g": [i % 3 for i in range(len(values))], "x": values},
                         schema={"g": pl.Int64, "x": pl.Float64})  # fmt: skip
    aggs = [Aggregation(k, "x", low, high) for k in ("mean", "variance", "std")]
    out = grouped_release(
        frame, by=["g"], aggregations=aggs, epsilon=eps, keys={"g": [0, 1, 2]}, seed=seed
    ).frame
    assert ((out["mean(x)"] >= low) & (out["mean(x)"] <= high)).all()
    assert ((out["variance(x)"] >= 0) & (out["variance(x)"] <= (width / 2) ** 2 + 1e-9)).all()
    assert (out["std(x)"] <= width / 2 + 1e-9).all()
