"""PFG: seedless Bayesian graph matching by degree and distance fingerprints.

Source: P. Pedarsani, D. R. Figueiredo and M. Grossglauser, *A Bayesian method for
matching two similar graphs without seeds*, Allerton 2013; seed 004 §2.13 ("PFG:
Bayesian; degree fingerprints, then distances to mapped nodes; O(n³ log n)").  SecGraph
ships it as ``deAnonymize.BayesianUsingCosSim`` (``-m d -a Bayesian``), with the posterior
written out in ``deAnonymize.BayesianMethod`` (not reachable from its command line); both
were read to compare behaviour (docs/graph/pfg.md).

Model (the paper's): a hidden parent graph G on n nodes; G1 and G2 keep each edge of G
independently with probability ``s``.  A node's *fingerprint* is its degree and its hop
distances to the nodes mapped so far (the landmarks, mapped in both graphs), the features
taken as independent.  For a G1 node u and a G2 node v the posterior that they are the
same node is

    P(u ≡ v | f1(u), f2(v)) = A / (A + B),
    A = (1/n)·P(f1, f2 | same node),   B = (1 − 1/n)·P(f1)·P(f2),

with, for the degree, P(x1, x2 | same) = Σ_d p(d)·Bin(x1; d, s)·Bin(x2; d, s) and
P(x) = Σ_d p(d)·Bin(x; d, s) (p: the parent's degree distribution), and for the distance
to a landmark the same sums over the parent distance l with the *detour* model
q(x | l) = C(l, x − l)·(1 − s)^(x−l)·s^x, l ≤ x ≤ 2l: each of the l edges of a shortest
path survives (probability s) or is lost and replaced by a two-edge detour that survives
(probability (1 − s)·s²) — the model SecGraph's ``BayesianMethod`` also tabulates.

Rounds: round r takes the c = 2^r highest-degree nodes of each graph (ties by lower id),
computes the posterior of every pair of their *unmapped* nodes, and solves the assignment
(:func:`scipy.optimize.linear_sum_assignment`) maximizing the total posterior (or, with
``weight="log-likelihood"``, the total log-likelihood ratio — the joint MAP of the pairs).
Of the pairs assigned, the most probable are mapped, enough to bring the mapped pairs to
c/2; they become landmarks, adding a distance feature to every fingerprint.  The last
round takes every node (c ≥ max(n1, n2)) and maps every pair assigned, so all
min(n1, n2) nodes of the smaller side end up mapped.

What the paper does not pin down (its body could not be consulted; the abstract, seed
004 and SecGraph's code were) and is assumed here:
* ``s`` is a parameter (default 0.9, SecGraph's 90 % pairs), not estimated;
* the parent degree distribution p(d) is the pooled degrees of G1 and G2 divided by s
  (rounded), the parent distance distribution the pooled finite landmark distances seen
  in G1 and G2 (distances only grow under sampling: a mild over-estimate);
* q(x | l) is normalized over x (the unnormalized remainder is the path lost outright);
* probabilities are floored at ``1e-12`` so that a pair the model calls impossible (it
  happens on pairs not made by edge sampling) costs much but stays assignable;
* a distance to a landmark that one side cannot reach (another component) is no evidence;
* mapped pairs stay mapped (landmarks accumulate); SecGraph re-chooses its anchors.

``variant="secgraph"`` runs SecGraph's ``BayesianUsingCosSim`` rule instead: the same
doubling rounds, but the fingerprint (degree, distances to the anchors) compared by cosine
similarity, normalized as R / √(row sum · column sum), every round re-matching all c
candidates, and the anchors of the next round the c/2 assigned pairs of *lowest*
normalized score (SecGraph polls a min-priority queue: the least similar pairs become its
anchors — kept here for the comparison, see docs/graph/pfg.md).  Its last round's
assignment is the mapping.

Cost: log₂ n rounds.  Round c: the landmark distances (one breadth-first search per new
landmark, O(m) each, O(n·m) over the whole run), the posterior matrix O(c²·K·V) (K
landmarks, V distinct distances, by V dense products) and the assignment O(c³).  Bounded by
O(n³ log n) (the paper's figure), dominated in practice by the last round:
O(n³·V/4 + n³).  Memory O(n² + n·K).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from privlab.errors import ConfigError
from privlab.graph.attacks.distance_vector import one_blas_thread, seed_distances
from privlab.graph.attacks.seeded import MatchingResult, result, truth_array
from privlab.graph.core import Graph, as_graph
from privlab.progress import ProgressFn
from privlab.validate import check_choice, check_fraction

VARIANTS = ("paper", "secgraph")
WEIGHTS = ("posterior", "log-likelihood")
LANDMARKS = ("fixed", "rechosen")
FLOOR = 1e-12  # smallest probability the model may give


def pfg(
    g1: Any,
    g2: Any,
    *,
    s: float = 0.9,
    variant: str = "paper",
    weight: str = "log-likelihood",
    landmarks: str = "rechosen",
    truth: Any = None,
    progress: ProgressFn | None = None,
) -> MatchingResult:
    """Match G1 into G2 without seeds, Pedarsani–Figueiredo–Grossglauser (module docstring).

    ``s``: the edge-keeping probability of the model, 0 < s ≤ 1 (paper variant only).
    ``variant``: ``"paper"`` or ``"secgraph"`` (SecGraph's ``BayesianUsingCosSim``).
    ``weight`` (paper): what the assignment maximizes, ``"posterior"`` (the paper's
    posterior probabilities) or ``"log-likelihood"`` (their log-likelihood ratios).
    ``truth``: the true G2 node of every G1 node (−1: none) or (k × 2) true pairs, for the
    scores.  ``rounds`` in the result: the rounds run.  ``progress(done, total)``: after each
    round, G1 nodes mapped of min(|V1|, |V2|).
    """
    t0 = time.perf_counter()
    s = check_fraction(s, "s", hint="the probability that the model keeps an edge")
    check_choice(variant, "variant", VARIANTS)
    check_choice(weight, "weight", WEIGHTS)
    check_choice(landmarks, "landmarks", LANDMARKS)
    g1 = as_graph(g1, "pfg (g1)", undirected=True)
    g2 = as_graph(g2, "pfg (g2)", undirected=True)
    tr = None if truth is None else truth_array(truth, g1.n_nodes, g2.n_nodes)
    if min(g1.n_nodes, g2.n_nodes) == 0:
        raise ConfigError("pfg: a graph has no nodes; give two graphs with nodes to match")
    with one_blas_thread():
        if variant == "paper":
            mapping, rounds = _paper(g1, g2, s, weight, landmarks, progress)
            params: dict[str, Any] = {"variant": variant, "s": s, "weight": weight,
                                      "landmarks": landmarks}  # fmt: skip
        else:
            mapping, rounds = _secgraph(g1, g2, progress)
            params = {"variant": variant}
    seeds = np.zeros((0, 2), dtype=np.int64)
    return result(mapping, seeds, tr, method="pfg", rounds=rounds,
                  seconds=time.perf_counter() - t0, parameters=params)  # fmt: skip


# ============================================================================ the paper
def _order(g: Graph) -> np.ndarray:
    """All nodes by decreasing degree, ties by lower id."""
    nodes = np.arange(g.n_nodes)
    return nodes[np.lexsort((nodes, -g.degrees()))]


def _sizes(n: int) -> list[int]:
    """Candidate set sizes 2, 4, 8, … up to the first ≥ n, which is n."""
    out, c = [], 2
    while c < n:
        out.append(c)
        c *= 2
    return [*out, n]


def _binom_pmf(x: np.ndarray, d: np.ndarray, s: float) -> np.ndarray:
    """Bin(x; d, s) on the grid x (rows) × d (columns); 0 where x > d."""
    from scipy.special import gammaln

    xx, dd = np.meshgrid(x.astype(np.float64), d.astype(np.float64), indexing="ij")
    ok = xx <= dd
    k = np.where(ok, xx, 0.0)
    logc = gammaln(dd + 1) - gammaln(k + 1) - gammaln(dd - k + 1)
    if s == 1:
        logp = np.where(dd == k, logc, -np.inf)
    else:
        logp = logc + k * math.log(s) + (dd - k) * math.log1p(-s)
    return np.where(ok, np.exp(logp), 0.0)


def _log_ratio_table(q1: np.ndarray, q2: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """log P(x1, x2 | same) − log P(x1) − log P(x2) for every (x1, x2), from the
    likelihoods q_i[x, parent value] and the parent prior; floored at FLOOR."""
    joint = (q1 * prior) @ q2.T
    m1, m2 = q1 @ prior, q2 @ prior
    lf = math.log(FLOOR)
    return (
        np.log(np.maximum(joint, FLOOR))
        - np.maximum(np.log(np.maximum(m1, FLOOR)), lf)[:, None]
        - np.maximum(np.log(np.maximum(m2, FLOOR)), lf)[None, :]
    )


def _degree_table(deg1: np.ndarray, deg2: np.ndarray, s: float) -> np.ndarray:
    """Degree log-likelihood ratio for every (G1 degree, G2 degree) value pair."""
    pooled = np.rint(np.concatenate([deg1, deg2]) / s).astype(np.int64)
    pooled = np.maximum(pooled, np.concatenate([deg1, deg2]))
    prior = np.bincount(pooled).astype(np.float64)
    prior /= prior.sum()
    d = np.arange(prior.size)
    q1 = _binom_pmf(np.arange(deg1.max() + 1), d, s)
    q2 = _binom_pmf(np.arange(deg2.max() + 1), d, s)
    return _log_ratio_table(q1, q2, prior)


def _distance_table(freq: np.ndarray, s: float) -> np.ndarray:
    """Distance log-likelihood ratio for every (x1, x2) in 0..L (index 0 unused) from the
    frequencies ``freq[l]`` of the finite landmark distances l ≥ 1 seen (detour model)."""
    top = freq.size - 1
    prior = freq.astype(np.float64) / max(freq.sum(), 1)
    x = np.arange(top + 1)[:, None]
    lv = np.arange(top + 1)[None, :]
    k = x - lv
    ok = (k >= 0) & (k <= lv)
    from scipy.special import comb

    q = np.where(ok, comb(lv, np.clip(k, 0, None)) * (1 - s) ** np.clip(k, 0, None)
                 * float(s) ** x, 0.0)  # fmt: skip
    col = q.sum(axis=0)
    q = np.divide(q, col, out=np.zeros_like(q), where=col > 0)  # normalized over x
    return _log_ratio_table(q, q, prior)


def _paper(g1: Graph, g2: Graph, s: float, weight: str, landmarks: str,
           progress) -> tuple[np.ndarray, int]:  # fmt: skip
    from scipy.optimize import linear_sum_assignment

    n1, n2 = g1.n_nodes, g2.n_nodes
    deg1, deg2 = g1.degrees(), g2.degrees()
    order1, order2 = _order(g1), _order(g2)
    deg_llr = _degree_table(deg1, deg2, s)
    log_prior_odds = -math.log(max(max(n1, n2) - 1, 1))
    map12 = np.full(n1, -1, dtype=np.int64)
    map21 = np.full(n2, -1, dtype=np.int64)
    cols1, cols2 = _Columns(g1), _Columns(g2)
    lm = np.zeros((0, 2), dtype=np.int64)  # the landmark pairs
    fixed = landmarks == "fixed"
    sizes = _sizes(max(n1, n2))
    for r, c in enumerate(sizes, start=1):
        last = r == len(sizes)
        c1 = order1[: min(c, n1)]
        c2 = order2[: min(c, n2)]
        if fixed:
            c1 = c1[map12[c1] < 0]
            c2 = c2[map21[c2] < 0]
        else:
            map12[:], map21[:] = -1, -1
        if c1.size == 0 or c2.size == 0:
            continue
        llr = deg_llr[deg1[c1][:, None], deg2[c2][None, :]]
        if lm.size:
            d1, d2 = cols1.get(lm[:, 0]), cols2.get(lm[:, 1])
            llr = llr + _distance_llr(d1[c1], d2[c2], d1, d2, s)
        post = _expit(llr + log_prior_odds)
        w = post if weight == "posterior" else llr
        rows, cols = linear_sum_assignment(w, maximize=True)
        # most probable first; ties by larger log-likelihood ratio, then lower G1 id
        order = np.lexsort((c1[rows], -llr[rows, cols], -post[rows, cols]))
        rows, cols = rows[order], cols[order]
        if last:
            take = rows.size
        elif fixed:
            take = max(c // 2 - int((map12 >= 0).sum()), 1)
        else:
            take = max(c // 2, 1)
        u, v = c1[rows[:take]], c2[cols[:take]]
        if not last:
            new = np.stack([u, v], axis=1)
            lm = np.concatenate([lm, new]) if fixed else new
        if not fixed and last:
            map12[:], map21[:] = -1, -1
        map12[u], map21[v] = v, u
        if progress is not None:
            progress(int((map12 >= 0).sum()), min(n1, n2))
    return map12, len(sizes)


class _Columns:
    """Hop distances to landmark nodes of one graph, each breadth-first search run once."""

    def __init__(self, g: Graph) -> None:
        self.g = g
        self.cache: dict[int, np.ndarray] = {}

    def get(self, nodes: np.ndarray) -> np.ndarray:
        """(n × len(nodes)) int16; −1 where unreachable."""
        todo = np.array([v for v in nodes.tolist() if v not in self.cache], dtype=np.int64)
        if todo.size:
            d = seed_distances(self.g, todo, unreachable=-1).astype(np.int16)
            for i, v in enumerate(todo.tolist()):
                self.cache[v] = d[:, i]
        return np.stack([self.cache[v] for v in nodes.tolist()], axis=1)


def _expit(x: np.ndarray) -> np.ndarray:
    from scipy.special import expit

    return expit(x)


def _distance_llr(a: np.ndarray, b: np.ndarray, all1: np.ndarray, all2: np.ndarray,
                  s: float) -> np.ndarray:  # fmt: skip
    """Σ over landmarks k of T[a[i, k], b[j, k]] for every (i, j); an unreachable side
    (−1) adds nothing.  One dense (|a| × K) · (K × |b|) product per distinct distance."""
    top = int(max(all1.max(initial=0), all2.max(initial=0), 1))
    freq = np.bincount(all1[all1 >= 0].ravel(), minlength=top + 1)
    freq = freq + np.bincount(all2[all2 >= 0].ravel(), minlength=top + 1)
    t = _distance_table(freq, s).astype(np.float32)
    bb = np.where(b >= 0, b, 0)
    out = np.zeros((a.shape[0], b.shape[0]), dtype=np.float32)
    for x in np.unique(a[a >= 0]):
        row = np.where(b >= 0, t[x][bb], np.float32(0.0))  # T[x, b[j, k]], 0 if unreachable
        out += (a == x).astype(np.float32) @ row.T
    return out.astype(np.float64)


# ============================================================================ SecGraph's
def _secgraph(g1: Graph, g2: Graph, progress) -> tuple[np.ndarray, int]:
    """SecGraph's ``BayesianUsingCosSim`` rule (module docstring)."""
    from scipy.optimize import linear_sum_assignment

    n1, n2 = g1.n_nodes, g2.n_nodes
    n = min(n1, n2)
    deg1, deg2 = g1.degrees().astype(np.float64), g2.degrees().astype(np.float64)
    order1, order2 = _order(g1), _order(g2)
    anchors = np.zeros((0, 2), dtype=np.int64)
    map12 = np.full(n1, -1, dtype=np.int64)
    c, rounds = 2, 0
    while True:
        rounds += 1
        c1, c2 = order1[: min(c, n1)], order2[: min(c, n2)]
        f1 = _cos_fingerprint(g1, deg1, c1, anchors[:, 0])
        f2 = _cos_fingerprint(g2, deg2, c2, anchors[:, 1])
        norm = np.outer(np.sqrt((f1 * f1).sum(axis=1)), np.sqrt((f2 * f2).sum(axis=1)))
        with np.errstate(invalid="ignore", divide="ignore"):
            cos = (f1 @ f2.T) / norm
            score = cos / np.sqrt(np.outer(cos.sum(axis=1), cos.sum(axis=0)))
        score = np.nan_to_num(score, nan=0.0)
        rows, cols = linear_sum_assignment(score, maximize=True)
        order = np.lexsort((c1[rows], score[rows, cols]))  # lowest score first, as polled
        rows, cols = rows[order], cols[order]
        anchors = np.stack([c1[rows[: c // 2]], c2[cols[: c // 2]]], axis=1)
        map12[:] = -1
        map12[c1[rows]] = c2[cols]
        if progress is not None:
            progress(int(rows.size), n)
        if rows.size >= n:
            return map12, rounds
        c = min(c * 2, n)


def _cos_fingerprint(g: Graph, deg: np.ndarray, cand: np.ndarray, anchors: np.ndarray):
    """(|cand| × (1 + K)) float64: degree, then hop distances to the anchors."""
    if anchors.size == 0:
        return deg[cand][:, None]
    d = seed_distances(g, anchors)[cand].astype(np.float64)
    return np.concatenate([deg[cand][:, None], d], axis=1)


__all__ = ["LANDMARKS", "VARIANTS", "WEIGHTS", "pfg"]
