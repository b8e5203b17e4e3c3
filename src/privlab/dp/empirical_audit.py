"""Empirical differential-privacy audit: a lower bound on ε from a distinguishing test.

If M is (ε, δ)-DP then for neighbouring inputs D, D' and every output event S,
P[M(D') ∈ S] ≤ e^ε P[M(D) ∈ S] + δ (and the same with D, D' swapped).  A test that says
"D'" when M's output falls in S has false-positive rate FPR = P[M(D) ∈ S] and
false-negative rate FNR = P[M(D') ∉ S], so

    ε ≥ ln((1 − δ − FNR) / FPR)      and      ε ≥ ln((1 − δ − FPR) / FNR).

The audit runs M N times on each input, chooses the test (a threshold on the output, or on a
histogram likelihood ratio) on one half of the samples, counts its errors on the other half,
and replaces FPR and FNR by one-sided Clopper–Pearson upper bounds at level β/2 each.  With
probability ≥ 1 − β both bounds hold, and then the ε above is a true lower bound: a correct
mechanism shows ε_lb > ε (a *violation*) with probability at most β.  Choosing the test on
separate samples keeps the bound valid.

Sources: Jagielski, Ullman & Oprea, "Auditing differentially private machine learning: how
private is private SGD?" (NeurIPS 2020, §3, Clopper–Pearson on FPR/FNR); Nasr, Song,
Thakurta, Papernot & Carlini, "Adversary instantiation: lower bounds for differentially
private machine learning" (IEEE S&P 2021, the ε lower bound with δ from both error rates);
Ding et al., "Detecting violations of differential privacy" (CCS 2018) for auditing
mechanisms on hand-picked neighbouring inputs.

The neighbours should be the worst case the guarantee covers: add or remove one privacy unit
with its maximal contribution (e.g. a row at the clamping bound).  The audit can only show
a mechanism is *not* private; a bound below ε is evidence, not a proof, of privacy.

Cost: O(N) mechanism runs per input (one vectorized call when ``batched``), then
O(N log N) for the test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
from scipy import stats

from privlab.dp.accountant import check_delta, check_epsilon
from privlab.dp.noise import secure_generator
from privlab.errors import ConfigError, InputError
from privlab.validate import check_choice, check_int, check_number_in

DISTINGUISHERS = ("threshold", "likelihood")
#: Most thresholds scanned on the selection half (quantiles of the pooled scores).
_MAX_THRESHOLDS = 2000


@dataclass(frozen=True)
class AuditResult:
    """The outcome of an empirical audit; ``epsilon_lower`` holds with confidence 1 − β."""

    epsilon_lower: float
    epsilon_claimed: float
    delta: float
    confidence: float
    samples: int
    distinguisher: str
    threshold: float
    event: str
    false_positive_rate: float
    false_negative_rate: float
    false_positive_upper: float
    false_negative_upper: float

    @property
    def violation(self) -> bool:
        """True when the lower bound exceeds the claimed ε: the claim is refuted."""
        return self.epsilon_lower > self.epsilon_claimed

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "violation": self.violation}


def clopper_pearson_upper(successes: Any, trials: int, alpha: float) -> np.ndarray:
    """One-sided (1 − α) Clopper–Pearson upper bound on a binomial rate.  O(len)."""
    k = np.asarray(successes, dtype=float)
    with np.errstate(invalid="ignore"):
        upper = stats.beta.ppf(1 - alpha, k + 1, np.maximum(trials - k, 1e-300))
    return np.where(k >= trials, 1.0, upper)


def _bound(fpr: np.ndarray, fnr: np.ndarray, delta: float) -> np.ndarray:
    """max(ln((1 − δ − FNR)/FPR), ln((1 − δ − FPR)/FNR), 0), elementwise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.log(np.maximum(1 - delta - fnr, 0) / fpr)
        b = np.log(np.maximum(1 - delta - fpr, 0) / fnr)
    return np.maximum(np.nan_to_num(np.maximum(a, b), nan=0.0, neginf=0.0, posinf=np.inf), 0)


def _as_scores(outputs: Any, name: str) -> np.ndarray:
    arr = np.asarray(outputs)
    if arr.ndim != 1:
        raise InputError(
            f"{name}: one real output per run expected, got shape {arr.shape}; pass a "
            "`statistic` that maps each output to one number"
        )
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise InputError(f"{name}: numeric outputs expected, got {arr.dtype}")
    arr = arr.astype(float)
    if not np.all(np.isfinite(arr)):
        raise InputError(f"{name}: NaN or infinite outputs; map them to numbers first")
    return arr


def _likelihood_scores(a1: np.ndarray, b1: np.ndarray, bins: int) -> Callable:
    """A score o ↦ log of the histogram likelihood ratio P̂_D'(bin(o)) / P̂_D(bin(o)),
    estimated on the selection half (add-½ smoothing)."""
    pooled = np.concatenate([a1, b1])
    values = np.unique(pooled)
    if values.size <= bins:  # discrete outputs: one bin per value seen
        edges = (values[1:] + values[:-1]) / 2
    else:
        edges = np.unique(np.quantile(pooled, np.linspace(0, 1, bins + 1)[1:-1]))
    ca = np.bincount(np.searchsorted(edges, a1), minlength=edges.size + 1) + 0.5
    cb = np.bincount(np.searchsorted(edges, b1), minlength=edges.size + 1) + 0.5
    ratio = np.log(cb / cb.sum()) - np.log(ca / ca.sum())
    return lambda x: ratio[np.searchsorted(edges, x)]


def _errors(sa: np.ndarray, sb: np.ndarray, t: np.ndarray, upper: bool) -> tuple:
    """False positives (D's samples in S) and false negatives (D''s samples not in S) for
    S = {score ≥ t} (``upper``) or {score ≤ t}, per threshold."""
    sa, sb = np.sort(sa), np.sort(sb)
    if upper:
        fp = sa.size - np.searchsorted(sa, t, side="left")
        fn = np.searchsorted(sb, t, side="left")
    else:
        fp = np.searchsorted(sa, t, side="right")
        fn = sb.size - np.searchsorted(sb, t, side="right")
    return fp, fn


def empirical_epsilon(
    outputs_d: Any, outputs_d_prime: Any, *, epsilon: float, delta: float = 0.0,
    beta: float = 0.05, distinguisher: str = "threshold", bins: int = 50, seed: Any = None,
) -> AuditResult:  # fmt: skip
    """ε lower bound (confidence 1 − β) from samples of M(D) and M(D') (one number each).

    The samples are shuffled and halved; the test (``threshold``: S = {o ≥ t} or {o ≤ t};
    ``likelihood``: the same on the log histogram likelihood ratio of ``bins`` bins, fitted
    on the first half) and its threshold are chosen on the first halves to maximize the
    bound, and the bound is computed on the second halves only.  ``epsilon`` is the claim
    compared against.  O(N log N).
    """
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    b = check_number_in(beta, "beta", 0.0, 0.5, low_open=True, hint="the confidence is 1 − beta")
    check_choice(distinguisher, "distinguisher", DISTINGUISHERS)
    nbins = check_int(bins, "bins", 2, "histogram bins of the likelihood distinguisher")
    a = _as_scores(outputs_d, "outputs_d")
    c = _as_scores(outputs_d_prime, "outputs_d_prime")
    if min(a.size, c.size) < 20:
        raise InputError(
            f"outputs: {a.size} and {c.size} sample(s); give at least 20 per input (thousands "
            "for a useful bound)"
        )
    rng = np.random.default_rng(seed)
    a, c = rng.permutation(a), rng.permutation(c)
    a1, a2 = a[: a.size // 2], a[a.size // 2 :]
    c1, c2 = c[: c.size // 2], c[c.size // 2 :]
    if distinguisher == "likelihood":
        score = _likelihood_scores(a1, c1, nbins)
        a1, a2, c1, c2 = score(a1), score(a2), score(c1), score(c2)
    pooled = np.unique(np.concatenate([a1, c1]))
    if pooled.size > _MAX_THRESHOLDS:
        pooled = np.unique(np.quantile(pooled, np.linspace(0, 1, _MAX_THRESHOLDS)))
    alpha = b / 2
    best = (-1.0, 0.0, True)
    for upper in (True, False):
        fp, fn = _errors(a1, c1, pooled, upper)
        lb = _bound(clopper_pearson_upper(fp, a1.size, alpha),
                    clopper_pearson_upper(fn, c1.size, alpha), dlt)  # fmt: skip
        i = int(np.argmax(lb))
        if lb[i] > best[0]:
            best = (float(lb[i]), float(pooled[i]), upper)
    _, t, upper = best
    fp, fn = (int(v[0]) for v in _errors(a2, c2, np.array([t]), upper))
    fpr_u = float(clopper_pearson_upper(fp, a2.size, alpha))
    fnr_u = float(clopper_pearson_upper(fn, c2.size, alpha))
    lower = float(_bound(np.array(fpr_u), np.array(fnr_u), dlt))
    event = f"{'likelihood ratio' if distinguisher == 'likelihood' else 'output'} " \
            f"{'≥' if upper else '≤'} {t:g}"  # fmt: skip
    return AuditResult(
        lower, eps, dlt, 1 - b, int(min(a.size, c.size)), distinguisher, t, event,
        fp / a2.size, fn / c2.size, fpr_u, fnr_u,
    )  # fmt: skip


def audit(
    mechanism: Callable, d: Any, d_prime: Any, *, epsilon: float, delta: float = 0.0,
    samples: int = 100_000, batched: bool = False, statistic: Callable | None = None,
    beta: float = 0.05, distinguisher: str = "threshold", bins: int = 50, seed: Any = None,
) -> AuditResult:  # fmt: skip
    """Run ``mechanism`` ``samples`` times on D and on D' and bound ε from below.

    ``mechanism(data, rng)`` returns one output; with ``batched=True``,
    ``mechanism(data, size, rng)`` returns ``size`` independent outputs at once (much
    faster; e.g. a noise sampler drawn as a vector).  ``statistic`` maps the stacked outputs
    (one per row) to one number per run, e.g. ``lambda o: o[:, 0]``.  ``seed`` seeds the
    mechanism's generator and the halving.  See :func:`empirical_epsilon` for the test.
    """
    if not callable(mechanism):
        raise ConfigError(f"mechanism = {mechanism!r}: give a function (data, rng) → output")
    n = check_int(samples, "samples", 40, "runs per input; thousands for a useful bound")
    rng = secure_generator(seed)
    runs = []
    for data in (d, d_prime):
        if batched:
            out = np.asarray(mechanism(data, n, rng))
        else:
            out = np.asarray([mechanism(data, rng) for _ in range(n)])
        if statistic is not None:
            out = np.asarray(statistic(out))
        runs.append(out)
    return empirical_epsilon(
        runs[0], runs[1], epsilon=epsilon, delta=delta, beta=beta, distinguisher=distinguisher,
        bins=bins, seed=rng,
    )  # fmt: skip


__all__ = ["DISTINGUISHERS", "AuditResult", "audit", "clopper_pearson_upper", "empirical_epsilon"]
