"""The sparse vector technique (AboveThreshold / Sparse) for interactive queries.

A curator answers a long stream of queries but reports only *whether* each answer is above a
public threshold T, and pays ε for the first c "above" answers — however many "below"
answers come before them.  This is the answer to seed 000's lesson that a budget must be
tracked per query (§2.6, adaptive composition, Theorem 5.3): when only a few of many queries
matter, the sparse vector technique pays for those few.  [EXTERNAL to seed 000, which names
interactive release but not this algorithm: Dwork & Roth, "The Algorithmic Foundations of
Differential Privacy" (2014), §3.6 Algorithms 1 (AboveThreshold) and 2 (Sparse); the form
used here is Lyu, Su & Li, "Understanding the Sparse Vector Technique for Differential
Privacy" (PVLDB 2017), Algorithm 1, which is ε-DP (their Theorem 2) and does not re-draw the
threshold noise after each positive answer.]

With ε₁ for the threshold and ε₂ for the queries (ε = ε₁ + ε₂, by default ε/2 each):

    ρ  ~ Lap(Δ/ε₁)                  once
    νᵢ ~ Lap(2cΔ/ε₂)                per query (cΔ/ε₂ when every query is monotonic)
    answer ⊤ if qᵢ(D) + νᵢ ≥ T + ρ, else ⊥; stop after c answers ⊤.

Queries must be integer-valued with an integer sensitivity Δ (counts are the usual case;
scale other queries to integers first): the noise is then the exact two-sided geometric
distribution (discrete Laplace), and the privacy proof (shift ρ and νᵢ by ±Δ) carries over
to the integer lattice unchanged.  Never reveal the noisy answers themselves — only ⊤/⊥.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.dp.accountant import check_epsilon
from privlab.dp.noise import discrete_laplace, is_insecure_seed, rational_at_most, secure_generator
from privlab.errors import BudgetExceeded, ConfigError, InputError
from privlab.validate import check_int, check_number_in


@dataclass(frozen=True)
class SVTScales:
    """The noise scales of one sparse-vector run (public: they depend on ε, Δ, c only)."""

    threshold_scale: Fraction
    query_scale: Fraction

    def to_dict(self) -> dict[str, float]:
        return {
            "threshold_scale": float(self.threshold_scale),
            "query_scale": float(self.query_scale),
        }


def svt_scales(
    epsilon: float,
    *,
    sensitivity: int = 1,
    max_positives: int = 1,
    monotonic: bool = False,
    threshold_share: float = 0.5,
) -> SVTScales:
    """Scales of ρ and νᵢ: Δ/ε₁ and 2cΔ/ε₂ (cΔ/ε₂ for monotonic queries).  O(1).

    ε is rounded down to a rational (less ε is more privacy), so the scales are never
    smaller than the exact ones.  Lyu, Su & Li (2017), Algorithm 1 / Theorem 2.
    """
    eps = check_epsilon(epsilon)
    sens = check_int(sensitivity, "sensitivity", 1)
    c = check_int(max_positives, "max_positives", 1)
    share = check_number_in(threshold_share, "threshold_share", 0.0, 1.0, low_open=True)
    if share >= 1:
        raise ConfigError(
            f"threshold_share = {threshold_share!r}: the part of ε spent on the threshold noise "
            "must lie strictly between 0 and 1 (0.5 is the usual choice)"
        )
    e = rational_at_most(eps)
    e1 = rational_at_most(Fraction(e) * Fraction(share))
    e2 = e - e1
    if e2 <= 0:
        raise ConfigError(f"threshold_share = {threshold_share!r} leaves no ε for the queries")
    per_query = (1 if monotonic else 2) * c * sens
    return SVTScales(Fraction(sens) / e1, Fraction(per_query) / e2)


class AboveThreshold:
    """Interactive sparse vector: feed true answers one at a time, get ⊤/⊥ back.

    ``ask(answer)`` returns True (⊤, above the noisy threshold) or False (⊥).  After
    ``max_positives`` answers ⊤ the budget is spent and further questions raise
    :class:`~privlab.errors.BudgetExceeded`.  The whole run is ε-DP whatever the number
    of queries and however they were chosen (adaptively, from earlier ⊤/⊥ answers).
    O(1) per query.  Source: Lyu, Su & Li (2017) Algorithm 1; Dwork & Roth (2014) §3.6.
    """

    def __init__(
        self,
        threshold: int,
        epsilon: float,
        *,
        sensitivity: int = 1,
        max_positives: int = 1,
        monotonic: bool = False,
        threshold_share: float = 0.5,
        seed: Any = None,
    ) -> None:
        self.threshold = check_int(threshold, "threshold", -(2**62))
        if self.threshold > 2**62:
            raise ConfigError(f"threshold = {threshold!r}: give an integer of magnitude ≤ 2^62")
        self.epsilon = check_epsilon(epsilon)
        self.scales = svt_scales(
            epsilon, sensitivity=sensitivity, max_positives=max_positives,
            monotonic=monotonic, threshold_share=threshold_share,
        )  # fmt: skip
        self.sensitivity = int(sensitivity)
        self.max_positives = int(max_positives)
        self.monotonic = bool(monotonic)
        self.insecure_seed = is_insecure_seed(seed)
        self._rng = secure_generator(seed)
        self._rho = int(discrete_laplace(self.scales.threshold_scale, rng=self._rng))
        self.positives = 0
        self.asked = 0

    @property
    def halted(self) -> bool:
        return self.positives >= self.max_positives

    def ask(self, answer: int) -> bool:
        """⊤ (True) if answer + ν ≥ T + ρ.  The true answer is never returned or stored."""
        if self.halted:
            raise BudgetExceeded(
                f"the sparse vector has given its {self.max_positives} answer(s) above the "
                "threshold; its budget is spent — start a new one with fresh ε"
            )
        value = _integer(answer, "answer")
        nu = int(discrete_laplace(self.scales.query_scale, rng=self._rng))
        self.asked += 1
        above = value + nu >= self.threshold + self._rho
        if above:
            self.positives += 1
        return bool(above)

    def run(self, answers: Any) -> SparseVectorResult:
        """Ask a fixed list of answers at once (vectorized); only on a fresh instance."""
        if self.asked:
            raise ConfigError("run() needs a fresh AboveThreshold; this one was already asked")
        arr = np.asarray(answers)
        if arr.ndim != 1 or arr.size == 0:
            raise InputError("answers: give a non-empty list of integer query answers")
        if arr.dtype == bool or not (
            np.issubdtype(arr.dtype, np.integer)
            or (np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr))
                and np.all(arr == np.round(arr)))
        ):  # fmt: skip
            raise InputError(
                "answers: the sparse vector takes integer query answers (counts); scale real "
                "answers to integers and their sensitivity with them"
            )
        noise = np.asarray(discrete_laplace(self.scales.query_scale, arr.size, rng=self._rng))
        hits = (arr.astype(np.int64) + noise) >= self.threshold + self._rho
        idx = np.flatnonzero(hits)
        stop = arr.size if idx.size < self.max_positives else int(idx[self.max_positives - 1]) + 1
        above = [bool(h) for h in hits[:stop]]
        self.asked, self.positives = stop, int(np.count_nonzero(hits[:stop]))
        return SparseVectorResult(
            above, int(arr.size - stop), self.epsilon, self.threshold, self.sensitivity,
            self.max_positives, self.monotonic, self.scales, self.insecure_seed,
        )  # fmt: skip


def _integer(value: Any, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            return int(value)
        raise InputError(
            f"{name}: the sparse vector takes integer query answers (counts); scale real "
            "answers to integers and their sensitivity with them"
        )
    return int(value)


@dataclass(frozen=True)
class SparseVectorResult:
    """⊤/⊥ for each query asked, in order; queries after the last ⊤ were not asked."""

    above: list[bool]
    not_asked: int
    epsilon: float
    threshold: int
    sensitivity: int
    max_positives: int
    monotonic: bool
    scales: SVTScales
    insecure_seed: bool = False

    @property
    def positives(self) -> list[int]:
        """Indices of the queries answered ⊤."""
        return [i for i, a in enumerate(self.above) if a]

    def to_dict(self) -> dict[str, Any]:
        return {
            "mechanism": "sparse vector (AboveThreshold)",
            "above": list(self.above),
            "positives": self.positives,
            "asked": len(self.above),
            "not_asked": self.not_asked,
            "epsilon": self.epsilon,
            "delta": 0.0,
            "threshold": self.threshold,
            "sensitivity": self.sensitivity,
            "max_positives": self.max_positives,
            "monotonic": self.monotonic,
            **self.scales.to_dict(),
            "insecure_seed": self.insecure_seed,
        }


def sparse_vector(
    answers: Any, threshold: int, epsilon: float, **options: Any
) -> SparseVectorResult:
    """Run the sparse vector over a fixed list of true answers (non-adaptive use).

    ``options`` are :class:`AboveThreshold`'s (sensitivity, max_positives, monotonic,
    threshold_share, seed).  Same distribution as asking the answers one by one; the query
    noise is drawn for all of them at once.  O(m) for m queries.
    """
    return AboveThreshold(threshold, epsilon, **options).run(answers)
