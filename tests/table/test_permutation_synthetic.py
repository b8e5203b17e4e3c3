"""The documented synthetic (age, capital loss) generator of Figs 2.8–2.10 (seed 001 §2.7)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from privlab.errors import ConfigError
from privlab.table.permutation.synthetic import age_capital_loss


def test_ranges_grid_and_determinism():
    df = age_capital_loss(3000, noise=5, seed=1)
    assert df.columns == ["age", "capital_loss"]
    assert df["age"].min() >= 17 and df["age"].max() <= 79
    assert df["capital_loss"].min() >= 155 and df["capital_loss"].max() <= 3900
    assert df["capital_loss"].n_unique() <= 89
    assert df.equals(age_capital_loss(3000, noise=5, seed=1))


def test_noise_zero_is_a_deterministic_function_of_age():
    # σ = 0: age 17 → 155, age 79 → 3,900, linear in between on the 89-value grid
    df = age_capital_loss(500, noise=0, seed=2)
    per_age = df.group_by("age").agg(pl.col("capital_loss").n_unique().alias("k"))
    assert per_age["k"].max() == 1
    lo = df.filter(df["age"] == 17)["capital_loss"]
    assert lo.len() == 0 or lo[0] == 155


def test_correlation_weakens_with_noise_and_vanishes_without():
    def corr(noise):
        df = age_capital_loss(20_000, noise=noise, seed=3)
        return np.corrcoef(df["age"].to_numpy(), df["capital_loss"].to_numpy())[0, 1]

    c5, c40, c_none = corr(5), corr(40), corr(None)
    assert c5 > 0.9 > c40 > 0.3 and abs(c_none) < 0.05


def test_bad_parameters():
    with pytest.raises(ConfigError, match="noise"):
        age_capital_loss(10, noise=-1)
    with pytest.raises(ConfigError, match="levels"):
        age_capital_loss(10, levels=1)
