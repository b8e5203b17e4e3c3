"""Seed 000 §3.2: fresh noise on a repeated query averages away; the accountant stops it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from privlab.dp.accountant import Accountant, Budget
from privlab.dp.naive import NaiveNoisyCurator, averaging_attack, geometric_sd
from privlab.errors import BudgetExceeded, InputError


def test_geometric_sd_hand_computed():
    a = math.exp(-1)
    assert geometric_sd(1.0) == pytest.approx(math.sqrt(2 * a) / (1 - a))  # ≈ 1.3570
    assert geometric_sd(1.0) == pytest.approx(1.3570, abs=1e-4)


def test_one_answer_hides_the_count_many_answers_reveal_it():
    truth, eps = 137, 0.5
    one = [averaging_attack(NaiveNoisyCurator(truth, eps, seed=s), 1).rounded == truth
           for s in range(200)]  # fmt: skip
    assert sum(one) < 60  # P(noise = 0) = (1 − e^−½)/(1 + e^−½) ≈ 0.245
    many = [averaging_attack(NaiveNoisyCurator(truth, eps, seed=s), 2000) for s in range(30)]
    assert all(r.rounded == truth for r in many)  # the breach: exact, every time
    assert many[0].epsilon_spent == pytest.approx(1000.0) and many[0].standard_error < 0.07


def test_the_error_of_the_mean_shrinks_as_one_over_root_k():
    eps, k = 1.0, 400
    errors = np.array([averaging_attack(NaiveNoisyCurator(0, eps, seed=s), k).estimate
                       for s in range(400)])  # fmt: skip
    # the means are ≈ normal with sd σ/√k (CLT); KS against it with a fixed seed
    assert (
        stats.kstest(errors, stats.norm(scale=geometric_sd(eps) / math.sqrt(k)).cdf).pvalue > 1e-4
    )


def test_the_accountant_refuses_what_the_naive_curator_gives():
    acc = Accountant(Budget(1.0))
    for _ in range(4):
        acc.charge(0.25, 0.0, "count")
    with pytest.raises(BudgetExceeded):
        acc.charge(0.25, 0.0, "count")
    curator = NaiveNoisyCurator(5, 0.25, seed=1)
    curator.ask(5)
    assert curator.epsilon_spent == 1.25  # the naive one just kept answering


def test_bad_input():
    with pytest.raises(InputError, match="integer"):
        NaiveNoisyCurator(2.5, 1.0)
