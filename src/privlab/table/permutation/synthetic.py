"""Synthetic (age, capital loss) tables for seed 001's Figs 2.8–2.10 and 3.5b.

The seed (§2.7, L1925–2010) describes its synthetic data in one sentence each: for Fig. 2.8
"the larger a tuple's age attribute, the larger its capital-loss, with a certain variance,
which controls the strength of the correlation" (variance 5, 10, then increasing); for
Figs 2.9–2.10 "a synthetic random data set … [whose] ranges are the same as in the adult
database"; for Ch. 3's correlated set (§3.7, L3380–3400) 63 equal buckets of the capital
loss domain, one per age 17–79, a tuple of age a drawn around the centre of bucket a − 17
with an unstated spread.  Neither the table size nor the units of the "variance" are given.

:func:`age_capital_loss` is privlab's documented reading of all three:

* ``age`` uniform on the integers ``age_lo``..``age_hi`` (17..79: Adult's subset after the
  seed removed age ≥ 80);
* ``noise`` = None (uncorrelated, Figs 2.9–2.10): capital loss uniform on the grid;
* ``noise`` = σ ≥ 0 (correlated, Fig. 2.8 and Ch. 3): the *age* is jittered by N(0, σ²)
  years and mapped linearly onto [``loss_lo``, ``loss_hi``] — the mean rises with age and σ,
  in years of age, is the seed's "variance" (σ = 5: neighbours within about ±5 years share
  values; large σ: almost no correlation);
* the loss is rounded to a grid of ``levels`` equally spaced values (Adult's subset has 89
  distinct values on 155..3,900), clipped to the range.

O(n).  Deterministic for a given ``seed``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError
from privlab.validate import check_int, check_number_in


def age_capital_loss(
    n: int = 2000,
    *,
    noise: float | None = None,
    levels: int = 89,
    age_lo: int = 17,
    age_hi: int = 79,
    loss_lo: float = 155.0,
    loss_hi: float = 3900.0,
    seed: Any = 0,
) -> pl.DataFrame:
    """A synthetic table with columns ``age`` and ``capital_loss`` (both Int64).

    See the module docstring for the generator (seed 001 §2.7 Figs 2.8–2.10, §3.7).  O(n).
    """
    n = check_int(n, "n", 1)
    levels = check_int(levels, "levels", 2)
    if not age_lo < age_hi:
        raise ConfigError(f"age_lo = {age_lo} must be below age_hi = {age_hi}")
    if not loss_lo < loss_hi:
        raise ConfigError(f"loss_lo = {loss_lo} must be below loss_hi = {loss_hi}")
    rng = np.random.default_rng(seed)
    age = rng.integers(age_lo, age_hi + 1, size=n)
    if noise is None:
        t = rng.integers(0, levels, size=n) / (levels - 1)
    else:
        sigma = check_number_in(noise, "noise", 0.0, 1e6)
        jitter = age + rng.normal(0.0, sigma, size=n) if sigma > 0 else age.astype(float)
        t = np.clip((jitter - age_lo) / (age_hi - age_lo), 0.0, 1.0)
        t = np.rint(t * (levels - 1)) / (levels - 1)
    loss = np.rint(loss_lo + t * (loss_hi - loss_lo)).astype(np.int64)
    return pl.DataFrame({"age": age.astype(np.int64), "capital_loss": loss})


__all__ = ["age_capital_loss"]
