"""The three attacker scenarios: prosecutor, journalist and marketer risk.

Sources: El Emam & Dankar, "Protecting privacy using k-anonymity" (JAMIA 2008) and El Emam,
*Guide to the De-Identification of Personal Health Information* (2013), as implemented by
ARX (Prasser & Kohlmayer; ``RiskModelSampleSummary``: ``getProsecutorRisk``,
``getJournalistRisk``, ``getMarketerRisk``).  A record is at risk when its risk is strictly
greater than the threshold (ARX: ``1d / groupSize > threshold``).  Where ARX falls back to
the sample, a known sampling fraction gives instead the Benedetti–Franconi estimate
``E[1/F | f]`` (Benedetti & Franconi, "Statistical and technological solutions for
controlled data dissemination", NTTS 1998; the "individual risk" of μ-ARGUS and sdcMicro):
:func:`estimated_record_risk`.

Complexity: O(m) for m classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import gammaln, hyp2f1

from privlab.table.risk.classes import (
    _check_fraction,
    _check_threshold,
    _population_class_sizes,
    _sizes,
)


@dataclass(frozen=True)
class AttackerRisk:
    """Risk figures of one attacker scenario (ARX's ``RiskSummary``).

    ``fraction_at_risk`` is the fraction of records whose risk exceeds the threshold
    (strictly); ``classes_at_risk`` counts the classes whose risk exceeds it.
    """

    highest: float
    average: float
    lowest: float
    fraction_at_risk: float
    classes_at_risk: int

    def to_dict(self, prefix: str) -> dict[str, float | int]:
        return {
            f"{prefix}_highest_risk": self.highest,
            f"{prefix}_average_risk": self.average,
            f"{prefix}_lowest_risk": self.lowest,
            f"{prefix}_records_at_risk": self.fraction_at_risk,
            f"{prefix}_classes_at_risk": self.classes_at_risk,
        }


def prosecutor_risk(sizes: Any, threshold: float = 0.2) -> AttackerRisk:
    """Prosecutor risk: each record is re-identified with probability ``1/f`` of its class.

    Highest = ``1/min f``, lowest = ``1/max f``, average = classes / records (the mean of
    ``1/f`` over records).  Source: El Emam & Dankar (2008); ARX
    ``RiskModelSampleSummary.getProsecutorRisk``.  Complexity: O(m) for m classes.
    """
    f = _sizes(sizes)
    t = _check_threshold(threshold)
    if f.size == 0:
        return AttackerRisk(0.0, 0.0, 0.0, 0.0, 0)
    n = int(f.sum())
    risky = 1.0 / f > t
    return AttackerRisk(
        highest=1.0 / int(f.min()),
        average=f.size / n,
        lowest=1.0 / int(f.max()),
        fraction_at_risk=float(f[risky].sum()) / n,
        classes_at_risk=int(risky.sum()),
    )


def estimated_record_risk(sizes: Any, sampling_fraction: float) -> np.ndarray:
    """Per class, the expected journalist risk ``E[1/F | f]`` of a record in it.

    Benedetti & Franconi (1998): given a sample class of size ``f`` drawn with fraction
    ``π``, the unseen population members ``F − f`` follow a negative binomial
    ``NegBin(f, π)``, so ``E[1/F | f] = π ∫₀¹ s^(f−1) / (π + (1−π) s) ds
    = (π/f) ₂F₁(1, 1; f+1; 1−π)``.  For ``f = 1`` this is ``π ln(1/π) / (1−π)``; at
    ``π = 1`` it is ``1/f``; it never exceeds ``1/f``.  Evaluated with SciPy's ``hyp2f1``
    for ``f < 20`` and with the hypergeometric series (60 terms, truncation error below
    1e-18 relative) for larger ``f``, where ``hyp2f1`` loses accuracy near ``1−π → 1``.
    Complexity: O(m) for m classes.
    """
    f = _sizes(sizes)
    pi = _check_fraction(sampling_fraction)
    out = np.empty(f.size, dtype=np.float64)
    if f.size == 0:
        return out
    z = 1.0 - pi
    small = f < 20
    fs = f[small].astype(np.float64)
    out[small] = pi / fs * hyp2f1(1.0, 1.0, fs + 1.0, z)
    if np.any(~small):
        fl = f[~small].astype(np.float64)[:, None]
        k = np.arange(60, dtype=np.float64)[None, :]
        # term k of ₂F₁(1,1;f+1;z) is k! z^k / (f+1)_k
        log_terms = gammaln(k + 1.0) + gammaln(fl + 1.0) - gammaln(fl + 1.0 + k)
        terms = np.exp(log_terms) * z**k  # numpy: 0.0**0 == 1
        out[~small] = pi / fl[:, 0] * terms.sum(axis=1)
    return np.minimum(out, 1.0 / f)


def journalist_risk(
    sizes: Any,
    population_sizes: Any | None = None,
    *,
    sampling_fraction: float | None = None,
    threshold: float = 0.2,
) -> AttackerRisk:
    """Journalist risk: each record is re-identified with probability ``1/F`` of its class.

    ``population_sizes`` gives ``F_j`` aligned to ``sizes`` (the class's size in the
    population the attacker links against; ``F_j ≥ f_j``).  Without it, a
    ``sampling_fraction`` makes each class's risk the Benedetti–Franconi estimate
    :func:`estimated_record_risk` (with ``E[F_j] = f_j/π`` in the average); with neither,
    ``F_j = f_j`` (ARX's fallback: the prosecutor figures).  Average =
    ``max(classes / Σ F_j, (1/n) Σ f_j/F_j)`` (ARX ``getJournalistRisk``).
    Complexity: O(m) for m classes.
    """
    f = _sizes(sizes)
    t = _check_threshold(threshold)
    if f.size == 0:
        return AttackerRisk(0.0, 0.0, 0.0, 0.0, 0)
    n = int(f.sum())
    if population_sizes is not None:
        big_f = _population_class_sizes(f, population_sizes)
        risk = 1.0 / big_f
        total_pop = float(big_f.sum())
    elif sampling_fraction is not None:
        pi = _check_fraction(sampling_fraction)
        risk = estimated_record_risk(f, pi)
        total_pop = n / pi
    else:
        risk = 1.0 / f
        total_pop = float(n)
    risky = risk > t
    return AttackerRisk(
        highest=float(risk.max()),
        average=max(f.size / total_pop, float(np.dot(f, risk)) / n),
        lowest=float(risk.min()),
        fraction_at_risk=float(f[risky].sum()) / n,
        classes_at_risk=int(risky.sum()),
    )


def marketer_risk(
    sizes: Any, population_sizes: Any | None = None, *, sampling_fraction: float | None = None
) -> float:
    """Marketer risk ``(1/n) Σ_j f_j / F_j``: the expected share of records re-identified.

    With neither population class sizes nor a sampling fraction, ``F_j = f_j`` and the result
    is classes / records (ARX ``getMarketerRisk``); with a sampling fraction, ``1/F_j`` is the
    Benedetti–Franconi estimate (:func:`estimated_record_risk`).  Complexity: O(m).
    """
    f = _sizes(sizes)
    if f.size == 0:
        return 0.0
    if population_sizes is not None:
        risk = 1.0 / _population_class_sizes(f, population_sizes)
    elif sampling_fraction is not None:
        risk = estimated_record_risk(f, sampling_fraction)
    else:
        risk = 1.0 / f
    return float(np.dot(f, risk)) / int(f.sum())
