"""What sampling-based privacy (DPS) does and does not compose with: three demonstrations.

Source: Li, Qardaji & Su, "On Sampling, Anonymization, and Differential Privacy" (ASIACCS
2012); seed 003, summarized in ``seed-002-003-hay-li.md`` Part B.

* :func:`parity_noncomposition` — §2.6 (§B.2.6, L167–189): a mechanism that is private under
  sampling (A₁ = r XOR s, r = "more males than females") and an ε-DP one (A₂, the male share
  with Laplace noise) each protect a tuple t, but together they reveal whether t is in the
  data: the event "A₁ = false ∧ A₂ ≥ ½" has probability ≈ 0 without t and ≈ ¼ with it.
  Computed exactly (binomial sums) and by Monte Carlo.
* :func:`fresh_sampling` — §2.7 (§B.2.7, L191–201) option 3: draw a fresh β-sample per release
  and discard it; each release is (ε, δ)-DP, so R of them compose sequentially to (Rε, Rδ).
  The seed's example: 50 × β = 0.2 with a (0.2, 0.02, 0)-DPS mechanism gives (1, 0)-DP, and
  with high probability every tuple is in some sample.
* :func:`proposition_1` — §3.2 (§B.2.9, L272–278): without sampling, no strongly-safe
  k-anonymization is (ε, δ)-DP for any δ < 1 — one tuple more or less changes the output
  with certainty.

These are demonstrations and calculators: nothing here releases data, so their randomness
(the Monte Carlo) takes an ordinary ``seed``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from privlab.dp.accountant import Budget, check_beta, check_delta, check_epsilon, sequential
from privlab.dp.sampling import check_k
from privlab.errors import ConfigError
from privlab.validate import check_int

# ----------------------------------------------------------------------------- §2.6 parity


@dataclass(frozen=True)
class ParityResult:
    """Probabilities of the event "A₁ = false ∧ A₂ ≥ ½" on D (t absent) and D' (t present).

    ``exact_*``: binomial sums; ``simulated_*``: Monte Carlo over ``trials`` samples.
    ``a1_false_*`` and ``a2_high_*`` are each mechanism alone (exact): nearly equal on D and
    D', which is why each passes an uncertainty-based notion on its own.
    """

    n_male: int
    n_female: int
    beta: float
    threshold: int
    epsilon: float
    trials: int
    exact_d: float
    exact_d_prime: float
    simulated_d: float
    simulated_d_prime: float
    a1_false_d: float
    a1_false_d_prime: float
    a2_high_d: float
    a2_high_d_prime: float

    def to_dict(self) -> dict[str, Any]:
        """Grouped: the set-up, the composed event, and each mechanism alone."""
        return {
            "setup": {"n_male": self.n_male, "n_female": self.n_female, "beta": self.beta,
                      "threshold": self.threshold, "epsilon": self.epsilon,
                      "trials": self.trials},
            "event": {"without_t": {"exact": self.exact_d, "simulated": self.simulated_d},
                      "with_t": {"exact": self.exact_d_prime,
                                 "simulated": self.simulated_d_prime}},
            "alone": {"a1_false": [self.a1_false_d, self.a1_false_d_prime],
                      "a2_high": [self.a2_high_d, self.a2_high_d_prime]},
        }  # fmt: skip


def _laplace_ge_zero(d: np.ndarray, epsilon: float) -> np.ndarray:
    """P[d + Lap(1/ε) ≥ 0] for integer d."""
    p = 0.5 * np.exp(-np.abs(d) * epsilon)
    return np.where(d >= 0, 1.0 - p, p)


def parity_noncomposition(
    n: int = 10_000, beta: float = 0.5, *, threshold: int = 1000, epsilon: float = 1.0,
    trials: int = 100_000, seed: Any = None,
) -> ParityResult:  # fmt: skip
    """Li et al. §2.6: a DPS mechanism and an ε-DP one that together reveal a tuple.

    D has ``n`` tuples, half male and half female (n even); D' is D with one female tuple
    replaced by the target t, also female, so both have the same gender counts and differ
    only in whether t is present (s(D) = false, s(D') = true).  Each mechanism sees the same
    Bernoulli(β) sample T:

    * A₁(T) = r(T) XOR s(T) if |T| ≥ ``threshold``, else false; r(T) = "more males than
      females in T", s(T) = "t ∈ T";
    * A₂(T) = (males − females in T) + Lap(1/ε): ε-DP (sensitivity 1 when one tuple is added
      or removed); A₂ ≥ 0 is the seed's "male percentage ≥ 0.5" (the seed leaves the noise
      scale open; the count difference keeps it exactly ε-DP).

    On D the event "A₁ = false ∧ A₂ ≥ 0" needs r false and the noisy difference ≥ 0 — only a
    near tie, so ≈ 0.  On D', when t is sampled (probability β) A₁ = ¬r and the event is
    "r ∧ A₂ ≥ 0" ≈ P[r] ≈ ½, so ≈ β/2 = ¼ at β = ½.

    Exact: the gender counts M ~ Bin(n/2, β) and F ~ Bin(n/2 − 1, β) (+ the replaced tuple,
    a female of D or t in D', when sampled) are
    summed over, O(n²) for the joint pmf in blocks (a few seconds at n = 10,000).  Monte Carlo:
    ``trials`` draws of (M, F, t sampled, noise), O(trials).
    """
    n = check_int(n, "n", 4, "the seed's example has 10,000 tuples")
    if n % 2:
        raise ConfigError(f"n = {n}: give an even number (half male, half female)")
    beta = check_beta(beta)
    threshold = check_int(threshold, "threshold", 0)
    epsilon = check_epsilon(epsilon)
    trials = check_int(trials, "trials", 1)
    half = n // 2
    m_vals = np.arange(half + 1)
    f_vals = np.arange(half)  # the n/2 − 1 other females
    pm = stats.binom.pmf(m_vals, half, beta)
    pf = stats.binom.pmf(f_vals, half - 1, beta)

    # exact: sum over M (rows, in blocks) and the other females F (columns); the replaced
    # tuple (a female of D, the target t in D') is sampled or not: ``extra`` adds it to F,
    # ``s`` says whether it is t
    def probs(extra: bool, s: bool) -> tuple[float, float, float]:
        ev = a1f = a2h = 0.0
        for lo in range(0, half + 1, 512):
            m = m_vals[lo : lo + 512, None]
            f = f_vals[None, :] + int(extra)
            w = pm[lo : lo + 512, None] * pf[None, :]
            a1 = ((m + f) >= threshold) & ((m > f) ^ s)
            high = _laplace_ge_zero(m - f, epsilon)
            ev += float((w * ~a1 * high).sum())
            a1f += float((w * ~a1).sum())
            a2h += float((w * high).sum())
        return ev, a1f, a2h

    unsampled = probs(False, False)
    other = probs(True, False)  # D: the replaced female sampled
    target = probs(True, True)  # D': t sampled
    absent = [(1 - beta) * u + beta * o for u, o in zip(unsampled, other, strict=True)]
    present = [(1 - beta) * u + beta * t for u, t in zip(unsampled, target, strict=True)]

    rng = np.random.default_rng(seed)

    def simulate(t_in_data: bool) -> float:
        m = rng.binomial(half, beta, trials)
        extra = rng.random(trials) < beta
        f = rng.binomial(half - 1, beta, trials) + extra
        s = extra if t_in_data else np.zeros(trials, dtype=bool)
        a1 = (m + f >= threshold) & ((m > f) ^ s)
        a2 = (m - f) + rng.laplace(0.0, 1.0 / epsilon, trials)
        return float(np.mean(~a1 & (a2 >= 0)))

    return ParityResult(
        half, half, beta, threshold, epsilon, trials, absent[0], present[0],
        simulate(False), simulate(True), absent[1], present[1], absent[2], present[2],
    )  # fmt: skip


# ----------------------------------------------------------------------------- §2.7 fresh samples


@dataclass(frozen=True)
class FreshSampling:
    """R releases, each on a fresh β-sample, and what they add up to.

    ``per_round``: each release's (ε, δ)-DP guarantee (the DPS mechanism's, which holds for
    A^β); ``total``: sequential composition of the R rounds; ``miss_probability``: the chance
    that a given tuple is in no sample, (1 − β)^R; ``expected_missed(n)`` for n tuples.
    ``outputs``: the mechanism's outputs, when one was run.
    """

    beta: float
    rounds: int
    per_round: Budget
    total: Budget
    miss_probability: float
    outputs: list[Any] = field(default_factory=list)

    def expected_missed(self, n: int) -> float:
        return check_int(n, "n", 0) * self.miss_probability

    def all_covered_probability(self, n: int) -> float:
        """P[every one of n tuples is in some sample] = (1 − (1 − β)^R)^n."""
        return float(np.exp(check_int(n, "n", 0) * np.log1p(-self.miss_probability)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "beta": self.beta,
            "rounds": self.rounds,
            "per_round": self.per_round.to_dict(),
            "total": self.total.to_dict(),
            "miss_probability": self.miss_probability,
            "outputs": len(self.outputs),
        }


def fresh_sampling(
    beta: float,
    rounds: int,
    epsilon: float,
    delta: float = 0.0,
    *,
    data: Sequence[Any] | np.ndarray | None = None,
    mechanism: Callable[[np.ndarray], Any] | None = None,
    seed: Any = None,
) -> FreshSampling:
    """Li et al. §2.7, option 3: repeat fresh sampling, compose the rounds.

    Each of ``rounds`` releases draws its own Bernoulli(``beta``) sample, applies a mechanism
    that is (β, ε, δ)-DPS — so the sampled release is (ε, δ)-DP — publishes, and discards the
    sample.  (ε, δ)-DP composes, so all R outputs together are (Rε, Rδ)-DP.  The seed's
    example: β = 0.2, R = 50, a (0.2, 0.02, 0)-DPS mechanism ⇒ (1, 0)-DP, and a tuple misses
    every sample with probability 0.8⁵⁰ ≈ 1.4×10⁻⁵.  For the strongly-safe k-anonymization of
    :mod:`privlab.dp.sampling`, pass ε and δ = ``sampling.achieved(ε, β, k).delta``.

    With ``data`` and ``mechanism`` the rounds are run: ``mechanism`` gets each fresh sample
    (the selected rows of ``data``) and must itself be (β, ε, δ)-DPS — nothing here checks
    that.  ``seed``: ``None`` draws the samples from the OS's entropy (as a release should).
    O(1) for the guarantee; O(R·n) plus the mechanism's cost for the rounds.
    """
    beta = check_beta(beta)
    rounds = check_int(rounds, "rounds", 1)
    per = Budget(check_epsilon(epsilon), check_delta(delta))
    if per.delta >= beta:
        raise ConfigError(
            f"delta = {per.delta!r}: (β, ε, δ)-DPS needs δ < β = {beta:g} (Li et al., "
            "Definition 3: any algorithm satisfies it when δ ≥ β)"
        )
    total = sequential([per] * rounds)
    miss = float((1.0 - beta) ** rounds)
    outputs: list[Any] = []
    if (data is None) != (mechanism is None):
        raise ConfigError("data and mechanism: give both (to run the rounds) or neither")
    if data is not None and mechanism is not None:
        from privlab.dp.noise import secure_generator

        arr = np.asarray(data)
        gen = secure_generator(seed)
        for _ in range(rounds):
            outputs.append(mechanism(arr[gen.random(len(arr)) < beta]))
    return FreshSampling(beta, rounds, per, total, miss, outputs)


# ----------------------------------------------------------------------------- §3.2 Prop. 1


def apply_generalization(keys: Sequence[Hashable], k: int) -> Counter[Hashable]:
    """Li et al.'s Apply(g, D, k) (L249–260) on already-generalized tuples g(t).

    The multiset of the keys, less every key that occurs fewer than k times.  O(n).
    """
    k = check_k(k)
    counts = Counter(keys)
    return Counter({key: c for key, c in counts.items() if c >= k})


@dataclass(frozen=True)
class Proposition1:
    """A(D) and A(D₋ₜ) for a strongly-safe k-anonymization without sampling.

    ``prob_d`` = P[A(D) = S] = 1 and ``prob_d_minus_t`` = P[A(D₋ₜ) = S] = 0 for S = A(D), so
    (ε, δ)-DP would need 1 ≤ e^ε·0 + δ: ``min_delta`` = 1 for every ε.  With Bernoulli(β)
    sampling first, the same g is (ε, d(k, β, ε))-DP: ``delta_with_sampling``.
    """

    k: int
    n: int
    output_d: dict[Hashable, int]
    output_d_minus_t: dict[Hashable, int]
    prob_d: float
    prob_d_minus_t: float
    min_delta: float
    beta: float | None
    epsilon: float | None
    delta_with_sampling: float | None

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["output_d"] = {str(k): v for k, v in self.output_d.items()}
        out["output_d_minus_t"] = {str(k): v for k, v in self.output_d_minus_t.items()}
        return out


def proposition_1(
    k: int,
    n: int | None = None,
    *,
    key: Hashable = "g(t)",
    others: Sequence[Hashable] = (),
    beta: float | None = None,
    epsilon: float | None = None,
) -> Proposition1:
    """Li et al. Proposition 1 (§3.2, L272–278), demonstrated.

    D holds ``n`` (default k + 1, > k as in the proof) tuples generalizing to ``key`` plus any
    ``others``; D₋ₜ removes one of them.  A strongly-safe k-anonymization is deterministic
    (:func:`apply_generalization` with a g fixed in advance), so A(D) = S with probability 1
    and A(D₋ₜ) = S with probability 0: no δ < 1 works.  ``beta`` and ``epsilon`` add the
    contrast with sampling (Theorem 3.9, ``privlab.dp.sampling.delta``).  O(n + |others|).
    """
    k = check_k(k)
    n = k + 1 if n is None else check_int(n, "n", k, "D must hold at least k tuples like t")
    d = [key] * n + list(others)
    d_minus_t = [key] * (n - 1) + list(others)
    out_d, out_m = apply_generalization(d, k), apply_generalization(d_minus_t, k)
    same = out_d == out_m
    prob_m = 1.0 if same else 0.0
    min_delta = 0.0 if same else 1.0
    dws = None
    if beta is not None or epsilon is not None:
        if beta is None or epsilon is None:
            raise ConfigError("beta and epsilon: give both for the contrast with sampling")
        from privlab.dp.sampling import delta as d_k

        dws = float(d_k(k, beta, epsilon))
    return Proposition1(k, n, dict(out_d), dict(out_m), 1.0, prob_m, min_delta, beta, epsilon, dws)


__all__ = [
    "FreshSampling",
    "ParityResult",
    "Proposition1",
    "apply_generalization",
    "fresh_sampling",
    "parity_noncomposition",
    "proposition_1",
]
