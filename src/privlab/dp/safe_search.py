"""ε-safe k-anonymization of a sample: the levels chosen from the data with the exponential
mechanism, the result still (ε, δ)-differentially private.

Source: Li, Qardaji & Su (ASIACCS 2012), Definition 3.10 and Theorem 3.11 (seed 003 summary
§B.2.11): if the choice of generalization A_m is ε₁-DP, sampling with rate β followed by
k-anonymization with the chosen generalization is (ε, d(k, β, ε − ε₁))-DP for every
ε ≥ −ln(1 − β) + ε₁.  The paper suggests the exponential mechanism over candidate schemes
but gives no quality function; ARX's SafePub (Bild, Kuhn & Prasser, PoPETs 2018) does the same
over the full-domain lattice.  Here A_m runs on the *sample* (the natural reading of the
proof, seed summary §B.2.11) and candidates are all nodes of the generalization lattice.

**Quality function and its sensitivity.**  For a node g, each sampled record costs
``loss_g(t)`` = the mean over quasi-identifiers of (leaves under its generalized value − 1) /
(leaves of the hierarchy − 1) — 0 when kept exact, 1 when fully generalized — if its class
(over the quasi-identifiers) has at least k records, and 1 if the class is suppressed.
score(g) = −Σ_t cost_g(t).  Adding one record t* to class C of size c changes the score by:
−1 if c + 1 < k (t* suppressed); −ℓ_C ∈ [−1, 0] if c ≥ k; and (k − 1) − k·ℓ_C ∈ [−1, k − 1]
if c + 1 = k (the k − 1 suppressed records and t* are released).  Other classes do not move.
So the sensitivity is Δ = max(1, k − 1), and the selection is ε₁-DP with permute-and-flip
(:func:`privlab.dp.mechanisms.exponential`).  The released classes are then formed over all
released columns (as the strongly-safe pipeline does); the score's classes over the
quasi-identifiers only are a utility estimate, which does not affect privacy.

Complexity: one class table per lattice node, rolled up from cached specializations
(:class:`privlab.table.lattice.Groupify`): O(|lattice| · m log m) for m distinct sampled
QI combinations (Adult, 12,960 nodes: about 3 s), then O(rows) for the release.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.dp.accountant import Budget, check_beta, check_epsilon
from privlab.dp.mechanisms import exponential
from privlab.dp.noise import bernoulli, is_insecure_seed, secure_generator
from privlab.dp.sampling import check_k, delta, release_sample
from privlab.errors import ConfigError, InputError
from privlab.progress import ProgressFn
from privlab.table.data import MicroTable
from privlab.table.lattice import Groupify

EPS_SAFE = (
    "epsilon-safe k-anonymization of a Bernoulli(beta) sample, levels chosen by the "
    "exponential mechanism (Li, Qardaji & Su 2012, Theorem 3.11)"
)


def score_sensitivity(k: int) -> int:
    """Δ of :func:`lattice_scores`: max(1, k − 1) (derivation in the module docstring)."""
    return max(1, int(k) - 1)


def lattice_scores(groupify: Groupify, k: int, progress: ProgressFn | None = None) -> np.ndarray:
    """score(g) = −(suppressed records + Σ released records' generalization loss), per node.

    Nodes in lattice index order, so each class table is rolled up from a cached
    specialization.  O(|lattice| · m log m).  ``progress(nodes scored, lattice nodes)`` every
    64 nodes and at the end (the lattice's size is public: the hierarchies are).
    """
    per_level = []
    for h in groupify.hierarchies:
        denom = max(h.n_leaves - 1, 1)
        per_level.append([(h.leaves_per_group(lv) - 1) / denom for lv in range(h.height + 1)])
    n_nodes = groupify.lattice.levels.shape[0]
    scores = np.empty(n_nodes)
    for node in range(n_nodes):
        t = groupify.table(node)
        kept = t.counts >= k
        loss = np.zeros(int(kept.sum()))
        for j in range(groupify.d):
            loss += per_level[j][int(t.levels[j])][groupify.digits(t, j)[kept]]
        loss /= groupify.d
        scores[node] = -(float(t.counts[~kept].sum()) + float(np.dot(t.counts[kept], loss)))
        if progress is not None and (node % 64 == 63 or node == n_nodes - 1):
            progress(node + 1, n_nodes)
    return scores


def eps_safe_k_anonymize(
    table: MicroTable,
    *,
    k: int,
    beta: float,
    epsilon: float,
    selection_epsilon: float,
    rng: Any = None,
    progress: ProgressFn | None = None,
):
    """Sample with rate β, choose the levels ε₁-privately, k-anonymize: (ε, δ)-DP.

    ``epsilon`` is the total ε of the guarantee and ``selection_epsilon`` the ε₁ spent on
    choosing the levels; δ = d(k, β, ε − ε₁) (Theorem 3.11), which needs
    ε − ε₁ ≥ −ln(1 − β).  The hierarchies must be fixed without looking at the data (only the
    choice among their levels may depend on it).  Returns a
    :class:`~privlab.dp.sampling.SafeRelease` whose ``selection`` records ε₁, the score
    sensitivity, the number of candidates and the chosen node's score.  ``progress`` goes
    to :func:`lattice_scores`.
    """
    if not isinstance(table, MicroTable):
        raise InputError(
            f"table: expected a MicroTable (privlab.table.data.MicroTable.from_data), "
            f"got {type(table).__name__}"
        )
    kk = check_k(k)
    b = check_beta(beta)
    eps = check_epsilon(epsilon)
    eps1 = check_epsilon(selection_epsilon, "selection_epsilon")
    if eps1 >= eps:
        raise ConfigError(
            f"selection_epsilon = {eps1:g} must be below epsilon = {eps:g}: the rest pays for "
            "the sampling (Theorem 3.11); e.g. selection_epsilon = epsilon / 10"
        )
    rest = eps - eps1
    d = delta(kk, b, rest)  # raises, naming beta/epsilon, if rest < −ln(1 − β)
    if d >= b:
        raise ConfigError(
            f"k = {kk}: δ = d(k, β, ε − ε₁) = {d:.3g} is not below beta = {b:g}; raise k"
        )
    generator = secure_generator(rng)
    sampled = np.flatnonzero(bernoulli(table.n_rows, b, generator))
    groupify = Groupify([table.hierarchies[c] for c in table.qi], table.qi_codes[sampled])
    scores = lattice_scores(groupify, kk, progress)
    sens = score_sensitivity(kk)
    choice = exponential(scores, sens, eps1, seed=generator)
    node = int(choice.value)
    levels = [int(v) for v in groupify.lattice.levels[node]]
    selection = {
        "selection_epsilon": eps1,
        "score_sensitivity": sens,
        "candidates": int(scores.size),
        "chosen_score": float(scores[node]),
        "best_score": float(scores.max()),
    }
    return release_sample(
        table,
        sampled,
        levels,
        k=kk,
        beta=b,
        guarantee=Budget(eps, d),
        insecure_seed=is_insecure_seed(rng),
        mechanism=EPS_SAFE,
        selection=selection,
    )


__all__ = ["eps_safe_k_anonymize", "lattice_scores", "score_sensitivity"]
