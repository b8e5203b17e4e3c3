"""The 3PSL entry point, :func:`three_phase_attack`, and its defaults.

Source: seed 004 §2.11 (thesis §5.3.3, L1441–1459; parameters §5.6 L1657).  It checks the
arguments, runs Phase 1, Phase 2 (optionally the Epinions re-run of Phase 1, L1564, and
Phase 2 again) and Phase 3, and assembles the
:class:`~privlab.graph.attacks.threepsl.results.ThreePhaseResult`.  Complexity: Phase 1
scores |P1| pairs (the classifier dominates: runtime is linear in the pairs classified,
L1683); see the package docstring for the rest.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from privlab.errors import ConfigError
from privlab.graph.attacks.threepsl._checks import (
    PairMask,
    Scorer,
    _check_choice,
    _check_graphs,
    _check_max_iter,
    _check_scorers,
    _check_thresholds,
)
from privlab.graph.attacks.threepsl._run import _Run
from privlab.graph.attacks.threepsl.results import IterationInfo, ThreePhaseResult
from privlab.graph.core import Graph
from privlab.validate import check_int, check_number_in

DEFAULT_MAX_PAIRS = 50_000_000
DEFAULT_CS_THRESHOLD = 0.2


def three_phase_attack(
    aux: Graph,
    san: Graph,
    scorers: Sequence[Scorer],
    *,
    thresholds: Sequence[int] = (30, 9, 5),
    score_cut: float = 0.95,
    cs_threshold: float = DEFAULT_CS_THRESHOLD,
    cs_denominator: str = "mapped",
    order: str = "score",
    max_iter: int | Sequence[int] = 10,
    max_pairs: int = DEFAULT_MAX_PAIRS,
    batch_size: int = 1 << 18,
    pair_mask: PairMask | None = None,
    rerun_phase1: bool = False,
    progress: Callable[[IterationInfo], None] | None = None,
) -> ThreePhaseResult:
    """Sharad's 3PSL: seedless, degree-stratified, classifier + cosine filtering.

    Seed 004 §2.11 (thesis §5.3.3, L1441–1459); the steps, the choices made where the seed
    is silent and the complexity are in the package docstring.  ``scorers``: three
    callables, one per phase, ``f(u, v) -> P(identical)`` for aux nodes ``u[i]`` and san
    nodes ``v[i]`` (int64 arrays; called in batches of at most ``batch_size``), e.g. a
    bound ``PairScorer`` of :mod:`privlab.graph.attacks.learned`.  ``thresholds`` = (t1,
    t2, t3), default Table 5.3 (Flickr/Epinions).  ``max_iter``: one bound for every phase
    or three.  ``progress`` is called with an :class:`IterationInfo` after each round.

    ConfigError for thresholds that are not strictly decreasing non-negative integers,
    ``score_cut`` or ``cs_threshold`` outside [0, 1] ([0, 2] for directed graphs), not
    three scorers, an unknown ``cs_denominator``/``order``, bad ``max_iter``/``max_pairs``,
    or when |P1| or a filtered set F exceeds ``max_pairs``; InputError for graphs of mixed
    directedness or a scorer that returns the wrong shape or values outside [0, 1].
    """
    t_start = time.perf_counter()
    aux, san = _check_graphs(aux, san)
    th = _check_thresholds(thresholds)
    cut = check_number_in(score_cut, "score_cut", 0.0, 1.0)
    cs_max = 2.0 if aux.directed else 1.0
    theta = check_number_in(cs_threshold, "cs_threshold", 0.0, cs_max)
    den = _check_choice(cs_denominator, "cs_denominator", ("mapped", "all"))
    ordering = _check_choice(order, "order", ("score", "cs"))
    iters = _check_max_iter(max_iter)
    cap = check_int(max_pairs, "max_pairs", 1)
    batch = check_int(batch_size, "batch_size", 1)
    funcs = _check_scorers(scorers)
    if pair_mask is not None and not callable(pair_mask):
        raise ConfigError("pair_mask must be a callable f(u, v) -> boolean array, or None")

    run = _Run(aux, san, th, funcs, cut, theta, den, ordering, iters, cap, batch, pair_mask,
               progress)  # fmt: skip
    initial = run.phase1()
    m2 = run.later_phase(2)
    rerun_info = None
    if rerun_phase1:
        t0 = time.perf_counter()
        first = (int(run.phase_count[0]), int(m2[0].size))
        run.rerun_phase1(m2)
        run.reset_phase(2)
        m2 = run.later_phase(2)
        rerun_info = {
            "phase1_before": first[0],
            "phase2_discarded": first[1],
            "phase1_after": int(run.phase_count[0]),
            "iterations": run.rerun_iterations,
            "converged": run.rerun_converged,
            "seconds": time.perf_counter() - t0,
        }
    run.later_phase(3)
    mapping = np.full(aux.n_nodes, -1, dtype=np.int64)
    fu, fv, fp = run.frozen_arrays()
    mapping[fu] = fv
    phase_of = np.zeros(aux.n_nodes, dtype=np.int8)
    phase_of[fu] = fp
    return ThreePhaseResult(
        mapping=mapping,
        phase_of=phase_of,
        initial_pairs=initial,
        aux_degree=run.deg_a,
        san_degree=run.deg_s,
        thresholds=th,
        score_cut=cut,
        cs_threshold=theta,
        cs_denominator=den,
        order=ordering,
        mapped=tuple(int(x) for x in run.phase_count),  # type: ignore[arg-type]
        iterations=tuple(run.iterations),  # type: ignore[arg-type]
        converged=tuple(run.converged),  # type: ignore[arg-type]
        candidate_pairs=run.band_sizes(),
        pairs_filtered=tuple(run.filtered),  # type: ignore[arg-type]
        pairs_scored=tuple(run.scored),  # type: ignore[arg-type]
        phase_seconds=tuple(run.seconds),  # type: ignore[arg-type]
        seconds=time.perf_counter() - t_start,
        rerun=rerun_info,
    )
