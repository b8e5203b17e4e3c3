"""Naive output noise: repeated noisy answers average away (why a budget must be tracked).

Seed 000 §2.2 (thesis §3.2): "if a repeated query gets fresh, independent, zero-mean noise
each time, averaging the answers recovers the true value" — the motivation for the privacy
budget of Ch. 5 (adaptive composition, Theorem 5.3: k answers at ε each cost kε).

:class:`NaiveNoisyCurator` answers the same count again and again, each time with fresh
ε-DP geometric noise (each answer on its own is ε-DP) and no accountant;
:func:`averaging_attack` asks it k times and rounds the mean.  The standard error of the
mean is σ/√k with σ² = 2e^{−ε}/(1 − e^{−ε})² (the two-sided geometric variance, scale 1/ε),
so the true count comes out exactly once σ/√k is well below ½.  The cure is the enforcing
:class:`privlab.dp.accountant.Accountant`, which refuses the (k+1)-th charge once kε is spent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.accountant import check_epsilon
from privlab.dp.mechanisms import geometric
from privlab.dp.noise import secure_generator
from privlab.errors import InputError
from privlab.validate import check_int


def geometric_sd(epsilon: float, sensitivity: int = 1) -> float:
    """Standard deviation of the two-sided geometric noise of scale Δ/ε.  O(1)."""
    a = math.exp(-check_epsilon(epsilon) / sensitivity)
    return math.sqrt(2 * a) / (1 - a)


class NaiveNoisyCurator:
    """Answers one integer statistic with fresh ε-DP noise per question — and no budget."""

    def __init__(self, value: int, epsilon: float, *, seed: Any = None) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InputError("value: the naive curator answers an integer count")
        self._value = int(value)
        self.epsilon = check_epsilon(epsilon)
        self._rng = secure_generator(seed)
        self.asked = 0

    def ask(self, times: int = 1) -> np.ndarray:
        """``times`` fresh noisy answers (each ε-DP on its own; together times·ε)."""
        k = check_int(times, "times", 1)
        self.asked += k
        return np.asarray(geometric(np.full(k, self._value), 1, self.epsilon, seed=self._rng).value)

    @property
    def epsilon_spent(self) -> float:
        """What the answers given so far really cost (sequential composition)."""
        return self.asked * self.epsilon


@dataclass(frozen=True)
class AveragingResult:
    """The averaged estimate, its rounding and the predicted standard error."""

    estimate: float
    rounded: int
    repeats: int
    standard_error: float
    epsilon_each: float

    @property
    def epsilon_spent(self) -> float:
        return self.repeats * self.epsilon_each

    def to_dict(self) -> dict[str, Any]:
        return {
            "estimate": self.estimate,
            "rounded": self.rounded,
            "repeats": self.repeats,
            "standard_error": self.standard_error,
            "epsilon_each": self.epsilon_each,
            "epsilon_spent": self.epsilon_spent,
        }


def averaging_attack(curator: NaiveNoisyCurator, repeats: int) -> AveragingResult:
    """Ask the same query ``repeats`` times and average: the noise cancels.  O(repeats)."""
    k = check_int(repeats, "repeats", 1)
    answers = curator.ask(k)
    mean = float(answers.mean())
    return AveragingResult(
        mean, round(mean), k, geometric_sd(curator.epsilon) / math.sqrt(k), curator.epsilon
    )
