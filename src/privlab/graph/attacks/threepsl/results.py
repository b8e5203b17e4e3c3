"""What 3PSL returns: its progress reports, its result and the accuracy/coverage metrics.

Source: seed 004 §2.11 (thesis §5.3.3, L1441–1459) for the result and seed 004 §2.12
(thesis §5.4.1, L1519; Tables 5.6–5.9) for the metrics: accuracy = m_true/m_out,
coverage = m_true/m_tot.  :meth:`ThreePhaseResult.evaluate` is O(n).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.graph.attacks.threepsl._bands import _levels
from privlab.graph.attacks.threepsl._mappings import _pairs_of, _truth_array
from privlab.validate import check_int


@dataclass(frozen=True)
class IterationInfo:
    """What :func:`three_phase_attack` passes to ``progress`` after every round.

    ``iteration`` 0 of phase 1 is the initial Clean(D).  ``mapped`` counts the current
    phase's mappings, ``total`` all of them (Frozen ∪ Mk); ``filtered`` is |F| this round,
    ``scored`` the classifier calls this round; ``pairs`` the whole current mapping.
    """

    phase: int
    iteration: int
    mapped: int
    total: int
    filtered: int
    scored: int
    pairs: np.ndarray


class _AccuracyCoverage:
    """accuracy = m_true/m_out and coverage = m_true/m_tot (seed 004 §2.12); 0.0 over zero."""

    m_out: int
    m_true: int
    m_tot: int

    @property
    def accuracy(self) -> float:
        return self.m_true / self.m_out if self.m_out else 0.0

    @property
    def coverage(self) -> float:
        return self.m_true / self.m_tot if self.m_tot else 0.0


@dataclass(frozen=True)
class PhaseMetrics(_AccuracyCoverage):
    """Accuracy m_true/m_out and coverage m_true/m_tot of one phase (Tables 5.6–5.8)."""

    phase: int
    m_out: int
    m_true: int
    m_tot: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "m_out": self.m_out,
            "m_true": self.m_true,
            "m_tot": self.m_tot,
            "accuracy": self.accuracy,
            "coverage": self.coverage,
        }


@dataclass(frozen=True)
class ThreePhaseMetrics(_AccuracyCoverage):
    """Seed 004 §2.12: accuracy = m_true/m_out, coverage = m_true/m_tot.

    ``m_out``/``m_true`` count the output mappings whose two nodes both have degree
    > ``min_degree`` (all of them when ``min_degree`` ≤ t3, the default being t3);
    ``m_tot`` counts the true pairs with both degrees > ``min_degree`` (Table 5.8 style).
    ``coverage_all`` divides the correct mappings by all ``n_common`` true pairs (Table 5.9
    style).  ``phases`` gives the per-phase figures: the mappings made in phase k against
    the true pairs of band P_k.  A ratio with a zero denominator is 0.0.
    """

    min_degree: int
    m_out: int
    m_true: int
    m_tot: int
    n_common: int
    m_true_all: int
    phases: tuple[PhaseMetrics, PhaseMetrics, PhaseMetrics]

    @property
    def coverage_all(self) -> float:
        return self.m_true_all / self.n_common if self.n_common else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "min_degree": self.min_degree,
            "m_out": self.m_out,
            "m_true": self.m_true,
            "m_tot": self.m_tot,
            "accuracy": self.accuracy,
            "coverage": self.coverage,
            "n_common": self.n_common,
            "m_true_all": self.m_true_all,
            "coverage_all": self.coverage_all,
            "phases": [p.to_dict() for p in self.phases],
        }


@dataclass(frozen=True)
class ThreePhaseResult:
    """The mappings 3PSL found and what it cost.

    ``mapping[u]`` is the san node mapped to aux node u, or −1; ``phase_of[u]`` the phase
    (1–3) that mapped u, or 0.  ``initial_pairs`` (k × 2) is Clean(D), the Phase 1 start.
    Per phase (tuples of three): ``mapped`` mappings, ``iterations`` CS rounds run,
    ``converged`` (stable before ``max_iter``), ``candidate_pairs`` |P_k| (phases 2–3 are
    never materialized), ``pairs_filtered`` Σ|F| over rounds, ``pairs_scored`` classifier
    calls, ``phase_seconds``.  ``aux_degree``/``san_degree`` are the degrees used for the
    bands.  ``rerun`` describes the optional Phase 1 re-run (None if not asked).
    """

    mapping: np.ndarray
    phase_of: np.ndarray
    initial_pairs: np.ndarray
    aux_degree: np.ndarray
    san_degree: np.ndarray
    thresholds: tuple[int, int, int]
    score_cut: float
    cs_threshold: float
    cs_denominator: str
    order: str
    mapped: tuple[int, int, int]
    iterations: tuple[int, int, int]
    converged: tuple[bool, bool, bool]
    candidate_pairs: tuple[int, int, int]
    pairs_filtered: tuple[int, int, int]
    pairs_scored: tuple[int, int, int]
    phase_seconds: tuple[float, float, float]
    seconds: float
    rerun: dict[str, Any] | None = None

    @property
    def n_mapped(self) -> int:
        return int((self.mapping >= 0).sum())

    def pairs(self) -> np.ndarray:
        """(mapped × 2) int64 array of (aux node, san node), by aux node."""
        return _pairs_of(self.mapping)

    def band(self, u: Any, v: Any) -> np.ndarray:
        """The band (1, 2, 3; 0 = never attacked) of the pairs (u[i], v[i])."""
        la = _levels(self.aux_degree, self.thresholds)[np.asarray(u, dtype=np.int64)]
        ls = _levels(self.san_degree, self.thresholds)[np.asarray(v, dtype=np.int64)]
        m = np.minimum(la, ls)
        return np.where(m > 0, 4 - m, 0).astype(np.int64)

    def evaluate(self, truth: Any, *, min_degree: int | None = None) -> ThreePhaseMetrics:
        """Accuracy and coverage against the ground truth (seed 004 §2.12).

        ``truth``: a :class:`~privlab.graph.pairs.GraphPair`, an array over the aux nodes
        (true san counterpart or −1), or (k × 2) true pairs.  ``min_degree`` (default t3)
        restricts m_out, m_true and m_tot to pairs whose both degrees exceed it; the
        per-phase figures use the bands.  See :class:`ThreePhaseMetrics`.  O(n).
        """
        t = _truth_array(truth, self.mapping.size, self.san_degree.size)
        d = self.thresholds[2] if min_degree is None else check_int(min_degree, "min_degree", -1)
        mapped = np.flatnonzero(self.mapping >= 0)
        images = self.mapping[mapped]
        correct = t[mapped] == images
        ok_out = (self.aux_degree[mapped] > d) & (self.san_degree[images] > d)
        ta = np.flatnonzero(t >= 0)
        ts = t[ta]
        ok_tot = (self.aux_degree[ta] > d) & (self.san_degree[ts] > d)
        true_band = self.band(ta, ts)
        phase = self.phase_of[mapped]
        per = tuple(
            PhaseMetrics(
                k,
                int((phase == k).sum()),
                int((correct & (phase == k)).sum()),
                int((true_band == k).sum()),
            )
            for k in (1, 2, 3)
        )
        return ThreePhaseMetrics(
            min_degree=int(d),
            m_out=int(ok_out.sum()),
            m_true=int((correct & ok_out).sum()),
            m_tot=int(ok_tot.sum()),
            n_common=int(ta.size),
            m_true_all=int(correct.sum()),
            phases=per,  # type: ignore[arg-type]
        )

    def metrics(self, truth: Any, *, min_degree: int | None = None) -> dict[str, Any]:
        """:meth:`evaluate` as a plain dict."""
        return self.evaluate(truth, min_degree=min_degree).to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {
            "thresholds": list(self.thresholds),
            "score_cut": self.score_cut,
            "cs_threshold": self.cs_threshold,
            "cs_denominator": self.cs_denominator,
            "order": self.order,
            "initial_mappings": int(self.initial_pairs.shape[0]),
            "mapped": list(self.mapped),
            "mapped_total": self.n_mapped,
            "iterations": list(self.iterations),
            "converged": list(self.converged),
            "candidate_pairs": list(self.candidate_pairs),
            "pairs_filtered": list(self.pairs_filtered),
            "pairs_scored": list(self.pairs_scored),
            "phase_seconds": list(self.phase_seconds),
            "seconds": self.seconds,
            "rerun": None if self.rerun is None else dict(self.rerun),
        }
