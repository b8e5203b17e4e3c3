"""The "a sample is anonymous" fallacy: releasing a random subsample exposes everyone in it.

Seed 000 §2.2 (thesis §3.2): "Sampling.  Release a random subsample.  Every sampled
individual is fully exposed."  A sample keeps each row unchanged, so an adversary who knows
a participant's quasi-identifiers finds their row by exact match — and a combination that
is unique in the population stays unique in any sample that contains it.  (Sampling does
help once the sample is *also* safely k-anonymized: :mod:`privlab.dp.sampling`.)

:func:`sample_linkage_attack` draws a β-sample of a population table, then links every
population record (identities and exact QIs, the external table) to it with
:func:`privlab.table.attacks.linkage.linkage_attack`, and reports:

* *prosecutor* (the target is known to be in the sample): the share of sampled people
  re-identified — their row, hence every sensitive value, is found with certainty;
* *journalist* (membership unknown): of the unique matches the adversary claims, the share
  that are right.

Complexity: O(N log N + linkage) for N population rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.table.attacks.linkage import LinkageResult, linkage_attack
from privlab.table.data import to_polars
from privlab.validate import check_fraction


@dataclass(frozen=True)
class SampleLinkageResult:
    """What a plain random sample gives away."""

    population: int
    sampled: int
    exposed: int  # sampled people re-identified (unique exact match = their row)
    claims: int  # population records with exactly one candidate in the sample
    correct_claims: int
    linkage: LinkageResult

    @property
    def exposed_rate(self) -> float:
        return self.exposed / self.sampled if self.sampled else 0.0

    @property
    def claim_precision(self) -> float:
        return self.correct_claims / self.claims if self.claims else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "population": self.population,
            "sampled": self.sampled,
            "exposed": self.exposed,
            "exposed_rate": self.exposed_rate,
            "claims": self.claims,
            "correct_claims": self.correct_claims,
            "claim_precision": self.claim_precision,
        }


def sample_linkage_attack(
    population: Any,
    quasi_identifiers: Iterable[str],
    beta: float,
    *,
    seed: Any = None,
    sample_rows: Any = None,
) -> SampleLinkageResult:
    """Release a Bernoulli(β) sample of ``population`` unchanged and link it back.

    ``sample_rows`` (row positions) fixes the sample instead of drawing it.
    """
    frame, _ = to_polars(population)
    qi = list(quasi_identifiers)
    n = frame.height
    if sample_rows is None:
        b = check_fraction(beta, "beta")
        rows = np.flatnonzero(np.random.default_rng(seed).random(n) < b)
    else:
        rows = np.unique(np.asarray(sample_rows, dtype=np.int64))
    sample = frame[rows.tolist()]
    truth = np.full(n, -1, dtype=np.int64)
    truth[rows] = np.arange(rows.size)
    link = linkage_attack(frame.select(qi), sample.select(qi), qi, true_rows=truth,
                          suppressed_value=None)  # fmt: skip
    in_sample = truth >= 0
    return SampleLinkageResult(
        n, int(rows.size), int(np.count_nonzero(link.correct & in_sample)),
        int(np.count_nonzero(link.reidentified)), int(np.count_nonzero(link.correct)), link,
    )  # fmt: skip
