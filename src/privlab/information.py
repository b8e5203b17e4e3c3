"""Information-theoretic measures: self-information, Shannon, min- and Rényi entropy,
statistical distance — for distributions and, row by row, for count matrices (the sensitive
values of each equivalence class of a release).

Seed 000 §2.1 (thesis Ch. 2):

* self-information ``I(E) = −log₂ Pr[E]`` (§2.2.1; a fair coin gives 1 bit, a fair die
  log₂ 6 ≈ 2.585 bits);
* Shannon entropy ``H(X) = −Σ p(x) log₂ p(x)``, with 0 log 0 = 0 (§2.2.2, Def 2.11);
* min-entropy ``H∞(X) = −log₂ max_x p(x)`` (§2.2.3, Def 2.12) — the right "hard to guess"
  measure: one outcome at 0.99 leaves H∞ ≈ 0.0145 bits however high H is; both are Rényi
  entropies (α = 1 and α = ∞);
* statistical distance ``Δ(X, Y) = max_A |Pr[X∈A] − Pr[Y∈A]| = ½ Σ_s |p(s) − q(s)|``
  (§2.6, Lemma 2.11), which no function of X and Y can increase (Property 2.12).

As release metrics (:func:`privlab.table.assess.assess`): the min-entropy of a class's
sensitive values gives the adversary's best single guess, ``2^{−H∞} = max_s p(E, s)``; its
"min-entropy ℓ" ``2^{H∞}`` is never above the entropy ℓ of ℓ-diversity (Def 3.4).  The
statistical distance of a class's distribution from the table's is the t of t-closeness with
equal ground distance.  Every function is O(size of its input).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError


def _log(x: np.ndarray, base: float) -> np.ndarray:
    return np.log(x) / math.log(base)


def _check_base(base: float) -> float:
    if isinstance(base, bool) or not isinstance(base, (int, float)) or not base > 1:
        raise ConfigError(f"base = {base!r}: give a logarithm base > 1 (2 for bits, e for nats)")
    return float(base)


def distribution(p: Any, name: str = "p") -> np.ndarray:
    """``p`` as a probability vector: non-negative finite weights (counts or probabilities),
    normalized to sum 1.  InputError if empty, negative, non-finite or all zero."""
    arr = np.asarray(p, dtype=float).ravel()
    if arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise InputError(f"{name}: give non-negative finite weights (counts or probabilities)")
    total = arr.sum()
    if total <= 0:
        raise InputError(f"{name}: the weights sum to 0; there is no distribution")
    return arr / total


def self_information(probability: float, *, base: float = 2) -> float:
    """I(E) = −log Pr[E] (bits by default); infinite for an impossible event."""
    b = _check_base(base)
    pr = float(probability)
    if not 0 <= pr <= 1:
        raise ConfigError(f"probability = {probability!r}: give a number in [0, 1]")
    return math.inf if pr == 0 else -math.log(pr) / math.log(b) + 0.0


def shannon_entropy(p: Any, *, base: float = 2) -> float:
    """H(X) = −Σ p log p, 0 log 0 = 0 (Def 2.11).  ``p``: probabilities or counts."""
    b = _check_base(base)
    q = distribution(p)
    nz = q[q > 0]
    return float(-np.sum(nz * _log(nz, b))) + 0.0


def min_entropy(p: Any, *, base: float = 2) -> float:
    """H∞(X) = −log max_x p(x) (Def 2.12)."""
    b = _check_base(base)
    return float(-_log(distribution(p).max(), b)) + 0.0


def renyi_entropy(p: Any, alpha: float, *, base: float = 2) -> float:
    """H_α(X) = log(Σ p^α) / (1 − α); α = 1 is Shannon, α = ∞ is min-entropy."""
    b = _check_base(base)
    a = float(alpha)
    if math.isnan(a) or a < 0:
        raise ConfigError(f"alpha = {alpha!r}: give an order α ≥ 0 (or inf)")
    if a == 1:
        return shannon_entropy(p, base=b)
    if math.isinf(a):
        return min_entropy(p, base=b)
    q = distribution(p)
    q = q[q > 0]
    return float(_log(np.sum(q**a), b) / (1 - a)) + 0.0


def statistical_distance(p: Any, q: Any) -> float:
    """Δ(X, Y) = ½ Σ_s |p(s) − q(s)| over a common support (Lemma 2.11), in [0, 1]."""
    a, b = distribution(p, "p"), distribution(q, "q")
    if a.shape != b.shape:
        raise InputError(
            f"p, q: {a.size} and {b.size} outcomes; give both over the same outcomes in the "
            "same order (zeros for outcomes one of them never takes)"
        )
    return float(0.5 * np.abs(a - b).sum())


# ---------------------------------------------------------------------------- row-wise
def _rows(hist: Any) -> np.ndarray:
    h = np.asarray(hist, dtype=float)
    if h.ndim != 2 or np.any(h < 0) or not np.all(np.isfinite(h)):
        raise InputError("hist: give a 2-D array of non-negative counts, one row per class")
    totals = h.sum(axis=1, keepdims=True)
    if np.any(totals <= 0):
        raise InputError("hist: every row (class) needs at least one record")
    return h / totals


def row_min_entropy(hist: Any, *, base: float = 2) -> np.ndarray:
    """H∞ of each row's distribution: −log max_s p(row, s).  O(rows × columns)."""
    return -_log(_rows(hist).max(axis=1), _check_base(base)) + 0.0


def row_shannon_entropy(hist: Any, *, base: float = 2) -> np.ndarray:
    """H of each row's distribution (0 log 0 = 0).  O(rows × columns)."""
    p = _rows(hist)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * _log(np.where(p > 0, p, 1.0), _check_base(base)), 0.0)
    return -terms.sum(axis=1) + 0.0


def row_statistical_distance(hist: Any, q: Any) -> np.ndarray:
    """Δ between each row's distribution and ``q`` (e.g. the whole table's)."""
    p = _rows(hist)
    ref = distribution(q, "q")
    if ref.size != p.shape[1]:
        raise InputError(f"q: {ref.size} outcomes, the rows have {p.shape[1]}")
    return 0.5 * np.abs(p - ref[None, :]).sum(axis=1)
