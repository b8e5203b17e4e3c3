"""Sampling + safe k-anonymization ⇒ (ε, δ)-differential privacy.

Source: Li, Qardaji & Su, "On Sampling, Anonymization, and Differential Privacy: Or,
k-Anonymization Meets Differential Privacy" (ASIACCS 2012); seed 003, summarized in
``seed-002-003-hay-li.md`` Part B (§B.2.9 safe k-anonymization, §B.2.10 Theorem 3.9 and its
proof A.2, Table 2).

**The mechanism** (*strongly-safe* k-anonymization, Definition 3.7): keep each input row
independently with probability β (Bernoulli sampling), map every kept row through a
generalization ``g`` that was fixed *without looking at the data* (here: one hierarchy level
per quasi-identifier, chosen in advance), then remove every released tuple that occurs fewer
than k times.  All released attributes count as quasi-identifiers (the paper's strengthened
k-anonymity, §B.2.8): classes are formed over the *whole* released row, and suppressed rows are
removed, not starred — otherwise a verbatim sensitive value of a suppressed row would reveal
that its owner was sampled.

**Theorem 3.9.**  For 0 < β < 1 and ε ≥ −ln(1 − β) the mechanism is (ε, δ)-DP with

    δ = d(k, β, ε) = max_{n ≥ n_m} Σ_{j > γn}^{n} f(j; n, β),
    γ = (e^ε − 1 + β) / e^ε = 1 − (1 − β)e^{−ε},   n_m = ⌈k/γ − 1⌉,

where f(j; n, β) is the binomial pmf.  The inequality j > γn is *strict*: j = γn is a good
outcome (the probability ratio n(1 − β)/(n − j) equals e^ε there, which (2) allows).  Without
sampling (β = 1) no strongly-safe k-anonymization is DP for any δ < 1 (Proposition 1).

**How d is computed (exactly, and where the maximum is).**  Let T(n) = P[Bin(n, β) > γn].

* *Group n by the smallest bad count.*  For n ≥ n_m the smallest bad count is
  j(n) = ⌊γn⌋ + 1 ≥ k (at n_m exactly k, since γn_m ∈ [k − γ, k)).  For each j ≥ k the n with
  j(n) = j form the run (j − 1)/γ ≤ n < j/γ, on which T(n) = P[Bin(n, β) ≥ j] *increases* with
  n.  So only the last n of each run can be a maximum:

      d(k, β, ε) = max_{j ≥ k} P[Bin(n_j, β) ≥ j],   n_j = max{n : γn < j} = ⌈j/γ⌉ − 1

  — the paper's "local maxima" ⌈(k + i)/γ − 1⌉, i = 0, 1, … (n_k = n_m).
* *Finite search (proof of where to stop).*  By the Chernoff–Hoeffding bound
  P[Bin(n, β) ≥ an] ≤ exp(−n·KL(a‖β)) for a ≥ β, and KL(a‖β) grows with a ≥ β.  As
  j/n_j > γ > β (γ − β = (1 − β)(1 − e^{−ε}) > 0), the j-th candidate is at most
  exp(−n_j·KL(γ‖β)), and n_j does not decrease with j.  Once n_J·KL(γ‖β) ≥ ln(1/best) for the
  best candidate found so far, no later candidate can exceed it, and the search stops.
  Since n_j ≥ j/γ − 1, the candidates needed are j = k … J with J ≤ γ(1 + ln(1/δ)/KL(γ‖β)):
  9 for Table 2's worst cell (β = 0.2, ε = 0.25), at most a few dozen in common settings.
  Each is one ``scipy.stats.binom.sf`` call, evaluated vectorized in chunks of 64, 128, …
  (so Table 2 costs one chunk per cell).  Complexity O(γ·ln(1/δ)/KL(γ‖β)) tail evaluations;
  KL(γ‖β) ≥ 2(γ − β)² ≥ 2β²(1 − β)² (Pinsker, and γ − β ≥ β(1 − β) under the theorem's
  condition) keeps this finite for every admissible (β, ε).  (In every Table 2 cell the
  maximum is at n_m, but not in general — e.g. k = 5, β = 0.3, ε = 1 peaks at n = 8 > n_m = 6;
  the tests check it against a brute force over all n.)
* *Exact boundaries.*  Whether γn < j decides which terms are summed.  For a float ε, γ is
  transcendental (Lindemann), so γn is never an integer — but it can be within rounding error
  of one.  The float test is used only when it is clear by a 10⁻¹² relative margin; otherwise
  the comparison e^ε < n(1 − β)/(n − j) is decided exactly with :mod:`decimal` (correctly
  rounded ``exp``) at increasing precision and exact :class:`~fractions.Fraction` bounds.
  With an exact rational ``exp_epsilon`` (e.g. e^ε = 2, β = 1/2 ⇒ γ = 3/4) γn *can* be an
  integer and the strict inequality is applied exactly.
* *Tail values.*  ``binom.sf`` (Boost's incomplete beta) has relative accuracy ~1e-15 also
  far in the upper tail (checked against exact rational sums in the tests down to 1e-33).
  Values below :data:`DELTA_FLOOR` (1e-300, near float underflow) are reported as
  :data:`DELTA_FLOOR` — an upper bound, never a claim of δ = 0.

**Parameters as ARX (SafePub) chooses them** (:func:`params`): β = 1 − e^{−ε} (the largest
sampling rate the theorem allows for ε) and the smallest k with d(k, β, ε) ≤ δ.  d is
non-increasing in k (a larger k only shrinks the set of candidates j ≥ k), so the smallest k
is found by doubling and bisection.  ARX's published table is one k too conservative in every
row checked; privlab returns the tight k.

**Use once.**  The guarantee covers this one release of this one sample: DPS guarantees do not
compose (§B.2.6).  Publish nothing else computed from the same sample, not even ε-DP answers;
for several releases draw fresh samples and compose their (ε, δ) guarantees.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
import polars as pl
from scipy.stats import binom

from privlab.dp import diagnostics
from privlab.dp.accountant import Budget, check_beta, check_delta, check_epsilon
from privlab.dp.noise import bernoulli, is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.table.anonymize import release_frame
from privlab.table.data import MicroTable

#: The largest ε of the exact δ(k, β, ε) arithmetic: e^ε is computed as a decimal, whose
#: exponent stops near 10^999999 (ε ≈ 2.3·10^6); an ε this large protects nothing anyway.
MAX_EXACT_EPSILON = 1e6

#: δ values below this are reported as this (an upper bound; float64 underflows near 1e-308).
DELTA_FLOOR = 1e-300

#: Relative margin within which a float comparison γn < j is re-decided exactly.
_MARGIN = 1e-12

#: Safety limit on the number of candidates j examined by one evaluation of d.
_MAX_CANDIDATES = 50_000_000

#: Largest k :func:`params` will consider.
_MAX_K = 10_000_000


# ---------------------------------------------------------------------------- parameters
def check_k(k: Any) -> int:
    """k as an int; ConfigError unless an integer ≥ 1."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise ConfigError(f"k = {k!r}: give an integer ≥ 1 (the smallest class size released)")
    return int(k)


def _check_beta(beta: Any, epsilon: float | None = None) -> float:
    """β in (0, 1); β = 1 gets its own explanation (no sampling, no guarantee)."""
    try:
        is_one = float(beta) == 1.0
    except (TypeError, ValueError):
        is_one = False
    if is_one:
        hint = f" (at most max_beta({epsilon:g}) = {max_beta(epsilon):.6g})" if epsilon else ""
        raise ConfigError(
            "beta = 1: without sampling no strongly-safe k-anonymization is differentially "
            "private for any δ < 1 (Li et al., Proposition 1); sample with a probability "
            f"β < 1{hint}"
        )
    return check_beta(beta)


def _check_exp_epsilon(exp_epsilon: Any) -> Fraction:
    try:
        value = Fraction(exp_epsilon)
    except (TypeError, ValueError, ZeroDivisionError):
        raise ConfigError(
            f"exp_epsilon = {exp_epsilon!r}: give e^ε as a rational number > 1, e.g. 2 or '11/10'"
        ) from None
    if value <= 1:
        raise ConfigError(f"exp_epsilon = {exp_epsilon!r}: e^ε must be > 1 (ε > 0)")
    return value


class _Gamma:
    """γ = 1 − (1 − β)e^{−ε} for one (β, ε), with exact decisions of γ·n < j.

    ε is either a float (its exact binary value is meant) or given exactly as the rational
    ``exp_e`` = e^ε.
    """

    def __init__(self, beta: float, epsilon: float, exp_e: Fraction | None = None) -> None:
        self.beta = beta
        self.epsilon = epsilon
        self._exp_e = exp_e
        self._one_minus_beta = 1 - Fraction(beta)
        self._exp_cache: dict[int, Fraction] = {}
        if exp_e is not None:
            one_minus_gamma = float(self._one_minus_beta / exp_e)
            self.value = float(1 - self._one_minus_beta / exp_e)
        else:
            # two positive terms: no cancellation, a few ulps of relative error
            one_minus_gamma = (1 - beta) * math.exp(-epsilon)
            self.value = -math.expm1(-epsilon) + beta * math.exp(-epsilon)
        gamma = self.value
        # KL(γ‖β), the Chernoff exponent of the bad tail
        kl = gamma * math.log(gamma / beta)
        if one_minus_gamma > 0:
            kl += one_minus_gamma * (math.log(one_minus_gamma) - math.log1p(-beta))
        self.kl = kl

    # -- exact comparisons --------------------------------------------------------------
    def _exp(self, prec: int) -> Fraction:
        if prec not in self._exp_cache:
            ctx = Context(prec=prec, Emax=MAX_EMAX, Emin=MIN_EMIN)
            self._exp_cache[prec] = Fraction(ctx.exp(Decimal(self.epsilon)))
        return self._exp_cache[prec]

    def exp_eps_sign(self, q: Fraction) -> int:
        """sign(e^ε − q), decided exactly (0 only for an exact ``exp_epsilon`` equal to q)."""
        if self._exp_e is not None:
            return (self._exp_e > q) - (self._exp_e < q)
        prec = 40
        while prec <= 10_000:
            y = self._exp(prec)  # correctly rounded: |y − e^ε| ≤ ½·10^{1−prec}·y
            r = Fraction(1, 10 ** (prec - 2))
            if y * (1 + r) < q:
                return -1
            if y * (1 - r) > q:
                return 1
            prec *= 4
        # e^ε is transcendental for a rational ε ≠ 0, so this needs |e^ε − q| < 10^-9998
        raise ArithmeticError(f"cannot separate e^{self.epsilon!r} from {q}")  # pragma: no cover

    def lt(self, n: int, j: int) -> bool:
        """Is γ·n < j?  Float test with a margin, exact when it is too close to call."""
        v = self.value * n
        if v < j * (1 - _MARGIN):
            return True
        if v > j * (1 + _MARGIN):
            return False
        if n <= j:
            return True  # γ < 1
        # γn < j  ⟺  e^{−ε} > (n − j)/(n(1 − β))  ⟺  e^ε < n(1 − β)/(n − j)
        return self.exp_eps_sign(n * self._one_minus_beta / (n - j)) < 0

    def allows(self) -> bool:
        """Theorem 3.9's condition ε ≥ −ln(1 − β), i.e. e^ε(1 − β) ≥ 1, decided exactly."""
        return self.exp_eps_sign(1 / self._one_minus_beta) >= 0

    def n_below(self, js: np.ndarray) -> np.ndarray:
        """n_j = max{n : γn < j} for each j (vectorized; exact near the boundaries)."""
        x = js / self.value
        ns = np.ceil(x).astype(np.int64) - 1
        close = np.abs(x - np.rint(x)) <= 1e-9 * x
        for i in np.flatnonzero(close):
            j, n = int(js[i]), int(ns[i])
            while not self.lt(n, j):
                n -= 1
            while self.lt(n + 1, j):
                n += 1
            ns[i] = n
        return ns


def _gamma(beta: Any, epsilon: Any, exp_epsilon: Any) -> _Gamma:
    """Validate (β, ε) — or (β, e^ε) — and the theorem's condition ε ≥ −ln(1 − β)."""
    if (epsilon is None) == (exp_epsilon is None):
        raise ConfigError("give exactly one of epsilon and exp_epsilon (e^ε as a rational)")
    if exp_epsilon is not None:
        exp_e = _check_exp_epsilon(exp_epsilon)
        eps = math.log(exp_e.numerator) - math.log(exp_e.denominator)
    else:
        exp_e, eps = None, check_epsilon(epsilon, maximum=MAX_EXACT_EPSILON)
    b = _check_beta(beta, eps)
    g = _Gamma(b, eps, exp_e)
    if not g.allows():
        raise ConfigError(
            f"epsilon = {eps:.6g} is below −ln(1 − beta) = {-math.log1p(-b):.6g} for beta = {b:g}: "
            "sampling at this rate cannot reach this ε (Theorem 3.9 needs ε ≥ −ln(1 − β)). "
            f"Lower beta to at most {max_beta(eps):.6g}, or raise epsilon to at least "
            f"{-math.log1p(-b):.6g}"
        )
    return g


def max_beta(epsilon: float) -> float:
    """The largest float β with ε ≥ −ln(1 − β): ARX's β = 1 − e^{−ε}, rounded down if needed.

    A β computed as ``1 - math.exp(-epsilon)`` may round *up* past the theorem's limit; this
    one never does (checked exactly).
    """
    eps = check_epsilon(epsilon, maximum=MAX_EXACT_EPSILON)
    beta = -math.expm1(-eps)

    def ok(b: float) -> bool:
        return 0 < b < 1 and _Gamma(b, eps).allows()

    while not ok(beta):
        beta = math.nextafter(beta, 0.0)
    while ok(math.nextafter(beta, 1.0)):
        beta = math.nextafter(beta, 1.0)
    return beta


# ---------------------------------------------------------------------------- d(k, β, ε)
@dataclass(frozen=True)
class DeltaSearch:
    """d(k, β, ε) with where its maximum is: the sum Σ_{j' ≥ j} f(j'; n, β) is largest."""

    delta: float
    n: int  #: the maximizing number of rows sharing the target's generalized tuple
    j: int  #: the smallest bad count at that n, ⌊γn⌋ + 1
    gamma: float
    n_m: int  #: ⌈k/γ − 1⌉, the paper's first candidate
    candidates: int  #: how many candidates j were evaluated

    def to_dict(self) -> dict[str, float | int]:
        return {
            "delta": self.delta,
            "n": self.n,
            "j": self.j,
            "gamma": self.gamma,
            "n_m": self.n_m,
            "candidates": self.candidates,
        }


def _search(k: int, g: _Gamma) -> DeltaSearch:
    kl = g.kl * (1 - 1e-9)  # a hair smaller: the stopping bound stays valid under rounding
    best, best_n, best_j = -1.0, 0, 0
    n_m = int(g.n_below(np.array([k]))[0])
    j0, chunk, seen = k, 64, 0
    while True:
        js = np.arange(j0, j0 + chunk, dtype=np.int64)
        ns = g.n_below(js)
        tails = binom.sf(js - 1, ns, g.beta)
        i = int(np.argmax(tails))
        if tails[i] > best:
            best, best_n, best_j = float(tails[i]), int(ns[i]), int(js[i])
        seen += chunk
        # every later candidate is ≤ exp(−n_j·KL(γ‖β)) ≤ exp(−ns[-1]·KL) (n_j non-decreasing)
        if ns[-1] * kl >= -math.log(max(best, DELTA_FLOOR)):
            break
        if seen >= _MAX_CANDIDATES:  # pragma: no cover - needs β or ε near 0
            raise ConfigError(
                f"d(k={k}, beta={g.beta:g}, epsilon={g.epsilon:g}) needs more than "
                f"{_MAX_CANDIDATES} terms; raise beta or epsilon"
            )
        j0 += chunk
        chunk = min(chunk * 2, 1 << 16)
    return DeltaSearch(max(best, DELTA_FLOOR), best_n, best_j, g.value, n_m, seen)


def delta_detail(
    k: int, beta: float, epsilon: float | None = None, *, exp_epsilon: Any = None
) -> DeltaSearch:
    """d(k, β, ε) of Theorem 3.9 with the maximizing n; see the module docstring.

    ``exp_epsilon`` gives e^ε exactly as a rational (int, Fraction or ``'11/10'``) instead of
    ``epsilon``.  Complexity O(γ·ln(1/δ)/KL(γ‖β)) binomial tail evaluations.
    """
    kk = check_k(k)
    return _search(kk, _gamma(beta, epsilon, exp_epsilon))


def delta(k: int, beta: float, epsilon: float | None = None, *, exp_epsilon: Any = None) -> float:
    """δ = d(k, β, ε): strongly-safe k-anonymization of a Bernoulli(β) sample is (ε, δ)-DP.

    Li, Qardaji & Su 2012, Theorem 3.9 (seed 003, §B.2.10).  Needs 0 < β < 1 and
    ε ≥ −ln(1 − β).  Exact up to binomial-tail rounding (~1e-15 relative); values below
    :data:`DELTA_FLOOR` are reported as it.
    """
    return delta_detail(k, beta, epsilon, exp_epsilon=exp_epsilon).delta


def achieved(epsilon: float, beta: float, k: int) -> Budget:
    """The guarantee (ε, d(k, β, ε)) of strongly-safe k-anonymization on a β-sample."""
    eps = check_epsilon(epsilon, maximum=MAX_EXACT_EPSILON)
    return Budget(eps, delta(k, beta, eps))


class SafeParams(NamedTuple):
    """Sampling rate, class size and the δ they achieve (unpacks as ``beta, k, delta``)."""

    beta: float
    k: int
    delta: float


def params(epsilon: float, delta: float) -> SafeParams:
    """ARX SafePub's parameters for a target (ε, δ), with the *tight* k.

    β = 1 − e^{−ε} (:func:`max_beta`), k = the smallest k with d(k, β, ε) ≤ δ; returns
    ``(beta, k, d(k, beta, epsilon))``.  d is non-increasing in k, so k is found by doubling
    and bisection: O(log k) evaluations of d.
    """
    eps = check_epsilon(epsilon, maximum=MAX_EXACT_EPSILON)
    target = check_delta(delta)
    if target == 0:
        raise ConfigError(
            "delta = 0: d(k, β, ε) > 0 for every k; give a δ > 0 such as 1e-6 (well below 1/n)"
        )
    if target < DELTA_FLOOR:
        raise ConfigError(f"delta = {delta!r}: δ below {DELTA_FLOOR:g} cannot be certified")
    beta = max_beta(eps)
    g = _Gamma(beta, eps)

    def d(k: int) -> float:
        return _search(k, g).delta

    hi = 1
    while d(hi) > target:
        if hi >= _MAX_K:  # pragma: no cover - d → 0 as k grows
            raise ConfigError(f"no k ≤ {_MAX_K} reaches delta = {target:g} at epsilon = {eps:g}")
        hi *= 2
    lo = hi // 2  # d(lo) > target, or lo = 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if d(mid) <= target:
            hi = mid
        else:
            lo = mid
    return SafeParams(beta, hi, d(hi))


# ---------------------------------------------------------------------------- the pipeline
def _levels(table: MicroTable, levels: Sequence[int] | Mapping[str, int]) -> list[int]:
    if isinstance(levels, Mapping):
        unknown = [c for c in levels if c not in table.qi]
        missing = [c for c in table.qi if c not in levels]
        if unknown or missing:
            raise ConfigError(
                f"levels: give one level for each quasi-identifier {table.qi}"
                + (f"; {unknown} are not quasi-identifiers" if unknown else "")
                + (f"; {missing} have no level" if missing else "")
            )
        values = [levels[c] for c in table.qi]
    else:
        values = list(levels)
        if len(values) != len(table.qi):
            raise ConfigError(
                f"levels: {len(values)} given for {len(table.qi)} quasi-identifiers {table.qi}"
            )
    out = []
    for col, lv in zip(table.qi, values, strict=True):
        height = table.hierarchies[col].height
        if isinstance(lv, bool) or not isinstance(lv, (int, np.integer)) or not 0 <= lv <= height:
            raise ConfigError(
                f"levels[{col!r}] = {lv!r}: give an integer from 0 (original) to {height} "
                "(its hierarchy's top)"
            )
        out.append(int(lv))
    return out


STRONGLY_SAFE = (
    "strongly-safe k-anonymization of a Bernoulli(beta) sample (Li, Qardaji & Su 2012, "
    "Theorem 3.9)"
)


#: Figures of :attr:`SafeRelease.selection` computed exactly from the sample (not private).
EXACT_SELECTION_FIGURES = ("chosen_score", "best_score")


@dataclass
class SafeRelease:
    """A strongly-safe k-anonymous release of a Bernoulli(β) sample and its (ε, δ) guarantee.

    Every input row is counted once: ``not_sampled + suppressed + released == n_rows``.
    ``released`` and ``n_classes`` can be read off the published release, so they are public;
    ``n_rows``, ``not_sampled``, ``suppressed`` (and ``sampled``) are exact figures of the
    private input that the guarantee does not cover — :meth:`to_dict` gives them only on
    request, marked as not private.  ``released_rows`` / ``suppressed_rows`` are input row
    positions (for auditing only: never publish them — which rows were sampled is exactly
    what the guarantee hides).  The release rows are sorted (the output is a multiset; input
    order must not show through).
    """

    data: Any
    levels: dict[str, int]
    k: int
    beta: float
    guarantee: Budget
    n_rows: int
    not_sampled: int
    suppressed: int
    released: int
    n_classes: int
    released_rows: np.ndarray
    suppressed_rows: np.ndarray
    insecure_seed: bool = False
    mechanism: str = STRONGLY_SAFE
    #: for the ε-safe variant: how the levels were chosen (ε₁, score sensitivity, candidates;
    #: and the exact scores, :data:`EXACT_SELECTION_FIGURES`, which are not private)
    selection: dict[str, Any] | None = None

    @property
    def sampled(self) -> int:
        return self.suppressed + self.released

    def to_dict(self, *, non_private_diagnostics: bool = False) -> dict[str, Any]:
        """The release's public description: guarantee, parameters, and what the published
        release itself shows (its rows and classes).  ``non_private_diagnostics`` adds the
        exact figures of the input under :data:`privlab.dp.diagnostics.KEY`."""
        selection = dict(self.selection or {})
        exact = {key: selection.pop(key) for key in EXACT_SELECTION_FIGURES if key in selection}
        out = {
            "mechanism": self.mechanism,
            "levels": dict(self.levels),
            "k": self.k,
            "beta": self.beta,
            **self.guarantee.to_dict(),
            "released": self.released,
            "classes": self.n_classes,
            "insecure_seed": self.insecure_seed,
            **({"selection": selection} if selection else {}),
        }
        if non_private_diagnostics:
            out[diagnostics.KEY] = diagnostics.non_private(
                {
                    "rows": self.n_rows,
                    "sampled": self.sampled,
                    "not_sampled": self.not_sampled,
                    "suppressed": self.suppressed,
                    **({"selection": exact} if exact else {}),
                }
            )
        return out


def safe_k_anonymize(
    table: MicroTable,
    levels: Sequence[int] | Mapping[str, int],
    *,
    k: int,
    beta: float,
    epsilon: float,
    rng: Any = None,
) -> SafeRelease:
    """Sample with probability β, generalize to fixed ``levels``, drop classes smaller than k.

    ``levels`` (one per quasi-identifier, a list in ``table.qi`` order or a mapping) and the
    hierarchies must be fixed *without looking at the data* — from domain knowledge, a
    published standard, or another data set; a hierarchy built from this table's values
    (e.g. intervals from its min/max) is data-dependent and voids the guarantee.  Classes are
    formed over every released column (identifying columns are removed; sensitive and
    insensitive ones are released unchanged and so count as quasi-identifiers), and rows of
    classes smaller than k are removed.  The result carries (ε, d(k, β, ε)) — Theorem 3.9 —
    for this single release.

    ``rng``: ``None`` (default) draws the sample from the OS's entropy; a seed or Generator is
    for tests and is flagged as ``insecure_seed``.  Complexity O(rows × columns) (one pass to
    sample, one to generalize with :func:`privlab.table.anonymize.release_frame`, one hash
    group-by over the release).
    """
    if not isinstance(table, MicroTable):
        raise InputError(
            f"table: expected a MicroTable (privlab.table.data.MicroTable.from_data), "
            f"got {type(table).__name__}"
        )
    kk = check_k(k)
    lv = _levels(table, levels)
    guarantee = achieved(epsilon, beta, kk)
    b = check_beta(beta)
    if guarantee.delta >= b:
        raise ConfigError(
            f"k = {kk}: δ = d(k, β, ε) = {guarantee.delta:.3g} is not below beta = {b:g}, so the "
            "release gives no protection beyond sampling (Li et al., Definition 3); raise k"
        )
    generator = secure_generator(rng)
    sampled = np.flatnonzero(bernoulli(table.n_rows, b, generator))
    return release_sample(
        table, sampled, lv, k=kk, beta=b, guarantee=guarantee, insecure_seed=is_insecure_seed(rng)
    )


def sample_table(table: MicroTable, sampled: np.ndarray) -> MicroTable:
    """The rows ``sampled`` (input positions) of an encoded table, codes included.  O(rows)."""
    return replace(
        table,
        frame=table.frame[sampled],
        qi_codes=table.qi_codes[sampled],
        sa_codes={c: v[sampled] for c, v in table.sa_codes.items()},
    )


def release_sample(
    table: MicroTable,
    sampled: np.ndarray,
    levels: list[int],
    *,
    k: int,
    beta: float,
    guarantee: Budget,
    insecure_seed: bool,
    mechanism: str = STRONGLY_SAFE,
    selection: dict[str, Any] | None = None,
) -> SafeRelease:
    """Generalize the sampled rows to ``levels`` and drop classes smaller than k.

    Classes are formed over every released column; the release is sorted.  Shared by the
    strongly-safe and the ε-safe pipelines.  O(rows × columns).
    """
    n = table.n_rows
    sub = sample_table(table, sampled)
    frame = release_frame(sub, levels, np.zeros(sampled.size, dtype=bool))
    columns = frame.columns
    counted = frame.with_columns(
        pl.len().over(columns).alias("__class_size"),
        pl.Series("__row", sampled, dtype=pl.Int64),
    )
    kept = counted.filter(pl.col("__class_size") >= k).sort(columns, nulls_last=True)
    released_rows = kept["__row"].to_numpy()
    in_release = np.zeros(n, dtype=bool)
    in_release[released_rows] = True
    suppressed_rows = sampled[~in_release[sampled]]
    release = kept.select(columns)
    return SafeRelease(
        data=table.as_input_kind(release),
        levels=dict(zip(table.qi, levels, strict=True)),
        k=k,
        beta=beta,
        guarantee=guarantee,
        n_rows=n,
        not_sampled=n - int(sampled.size),
        suppressed=int(suppressed_rows.size),
        released=int(released_rows.size),
        n_classes=int(release.n_unique()) if release.height else 0,
        released_rows=released_rows,
        suppressed_rows=suppressed_rows,
        insecure_seed=insecure_seed,
        mechanism=mechanism,
        selection=selection,
    )


__all__ = [
    "DELTA_FLOOR",
    "EXACT_SELECTION_FIGURES",
    "DeltaSearch",
    "SafeParams",
    "SafeRelease",
    "achieved",
    "check_k",
    "delta",
    "delta_detail",
    "max_beta",
    "params",
    "release_sample",
    "safe_k_anonymize",
    "sample_table",
]
