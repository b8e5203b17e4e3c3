"""Privacy metrics of a graph release: identity obfuscation, degree-and-clustering anonymity,
edge (link) disclosure and group re-identification.

* :func:`obfuscation` — Bonchi, Gionis & Tassa, *Identity obfuscation in graphs through the
  information theoretic lens* (ICDE 2011), and the (k,ε)-obfuscation of Boldi, Bonchi,
  Gionis & Tassa (VLDB 2012).  The adversary knows the degree ω of a target v in the
  original; the release model gives, for every release node u, the likelihood
  L(u, ω) = Pr(u looks as it does in the release | its preimage has degree ω).  The
  adversary's distribution over the images of v is X_v(u) = L(u, ω) / Σ_w L(w, ω), and v is
  **k-obfuscated** when the entropy H(X_v) ≥ log₂ k.  A release is a (k,ε)-obfuscation when at
  least (1 − ε)·n nodes are k-obfuscated.  Beside the entropy, the a-posteriori-belief
  measure of Hay et al. (seed 002 §A.2.8, ⌊1 / max_u X_v(u)⌋) is returned; Bonchi et al. prove
  2^H ≥ 1 / max_u X_v(u), which the tests check.
  Release models (:data:`OBFUSCATION_MODELS`):

  ``exact``     the release shows the degree unchanged (naive anonymization, or an adversary
                who assumes so): L(u, ω) = [deg'(u) = ω];
  ``rsp``       privlab's RSP: exactly m of the |E| original edges deleted uniformly, so the
                kept degree is Hypergeom(|E|, ω, |E| − m);
  ``rad``       privlab's RAD (Hay et al.'s m deletions, then m insertions among the
                non-edges of the interim graph), run forwards as Bonchi et al. do: kept ~
                Hypergeom(|E|, ω, |E| − m), then added ~ Hypergeom(N − |E| + m,
                n − 1 − kept, m) (N = n(n−1)/2; a deleted pair may come back);
  ``rad-hay``   the same release through Hay's possible-worlds posterior, Pr(preimage degree
                = ω | release degree) under a uniform prior over the worlds
                (:func:`privlab.graph.attacks.refinement.h1_posterior`, ``process``).  That
                prior makes a hub's many deletions improbable, so hubs stay exposed as m
                grows; the forward model does not;
  ``sparsify``  Bonchi et al.'s random sparsification: each edge kept independently with
                probability 1 − p: Binomial(ω, 1 − p);
  ``perturb``   Bonchi et al.'s random perturbation: each edge removed w.p. p, each non-edge
                added w.p. q: Binomial(ω, 1 − p) + Binomial(n − 1 − ω, q).

  :func:`uncertain_obfuscation` is the uncertain-graph version (Boldi et al.): the release is
  a graph whose edges carry probabilities and L(u, ω) is the Poisson-binomial probability
  that u has degree ω.
* :func:`degree_clustering_anonymity` — candidate sets when the adversary knows a target's
  degree and local clustering coefficient, the two properties Singh & Zhan's *topological
  anonymity* (GrC 2007) is built from.  The paper's own aggregate formula was not available
  to check (docs/graph/privacy-metrics.md), so privlab reports these candidate sets and does
  not claim to reproduce the paper's number.
* :func:`link_disclosure` — the edge-disclosure measure of seed 000 §7.2.1 (Fig. 7.2: Alice
  is A, B or D, Bob is C, all three are adjacent to C, so the edge is disclosed without
  identity disclosure) and Hay et al.'s link disclosure (seed 002 §6.1, L661–667): the
  probability that two targets are linked is the fraction of the pairs of their candidate
  sets (under H_i, exact matching) that are edges of the release.
* :func:`group_candidates` / :func:`group_reidentification` — Hay et al.'s group
  re-identification (seed 002 §6.1, L669–678): the feasible assignments of a *group* of
  targets are the injective ones, so cand(x, x') ⊊ cand(x) × cand(x') can single people
  out (cand(x) = {y, y'}, cand(x') = {y'} ⇒ x = y).  A candidate y stays for x iff the edge
  (x, y) lies in some matching that covers every target (Dulmage–Mendelsohn, computed from
  one maximum matching with strongly connected components).

Complexities are in each function's docstring.  Algorithms only: no printing, no files.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.refinement import _log_comb
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_choice, check_int, check_number_in

#: Release models of :func:`obfuscation`.
OBFUSCATION_MODELS: tuple[str, ...] = ("exact", "rsp", "rad", "rad-hay", "sparsify", "perturb")
#: The k values reported by default (Bonchi et al.'s Figs use k up to 20).
DEFAULT_KS: tuple[int, ...] = (2, 5, 10, 20)


# ============================================================================ obfuscation
@dataclass(frozen=True)
class Obfuscation:
    """Per original node: the entropy (bits) of the adversary's distribution over release
    nodes, and the a-posteriori-belief size ⌊1 / max probability⌋.

    ``entropy[v]`` is NaN and ``belief_size[v]`` 0 when no release node can be v's image
    under the model (``no_match``); such nodes count as not obfuscated.
    """

    model: str
    parameters: dict[str, Any]
    entropy: np.ndarray
    belief_size: np.ndarray
    ks: tuple[int, ...] = DEFAULT_KS
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return int(self.entropy.size)

    @property
    def no_match(self) -> np.ndarray:
        return np.isnan(self.entropy)

    @property
    def effective_k(self) -> np.ndarray:
        """2^H per node (0 where no node matches): the size of a uniform set as uncertain."""
        with np.errstate(invalid="ignore"):
            return np.where(self.no_match, 0.0, np.exp2(self.entropy))

    def obfuscated(self, k: float) -> np.ndarray:
        """Which nodes are k-obfuscated: H ≥ log₂ k (a 1e-9 bit tolerance for rounding)."""
        k = check_number_in(k, "k", 1.0, math.inf)
        with np.errstate(invalid="ignore"):
            return ~self.no_match & (self.entropy >= math.log2(k) - 1e-9)

    def obfuscated_fraction(self, k: float) -> float:
        return float(self.obfuscated(k).mean()) if self.n else 1.0

    def satisfies(self, k: float, eps: float) -> bool:
        """(k, ε)-obfuscation: at least (1 − ε)·n nodes are k-obfuscated."""
        eps = check_number_in(eps, "eps", 0.0, 1.0)
        return self.obfuscated_fraction(k) >= 1.0 - eps - 1e-12

    def min_eps(self, k: float) -> float:
        """The smallest ε for which the release is a (k, ε)-obfuscation."""
        return 1.0 - self.obfuscated_fraction(k)

    def to_dict(self) -> dict[str, Any]:
        h = self.entropy[~self.no_match]
        q = (lambda p: float(np.quantile(h, p))) if h.size else (lambda p: None)
        return {
            "model": self.model,
            "parameters": self.parameters,
            "n": self.n,
            "no_match_fraction": float(self.no_match.mean()) if self.n else 0.0,
            "obfuscated_fraction": {str(k): self.obfuscated_fraction(k) for k in self.ks},
            "min_eps": {str(k): self.min_eps(k) for k in self.ks},
            "entropy_bits": {"min": q(0.0), "p10": q(0.1), "median": q(0.5),
                             "mean": float(h.mean()) if h.size else None, "max": q(1.0)},
            "belief_unique_fraction": float((self.belief_size == 1).mean()) if self.n else 0.0,
            **self.extra,
        }  # fmt: skip


def _binom_log_pmf(k: np.ndarray, n: np.ndarray, p: float) -> np.ndarray:
    """log Binomial(n, p) at k (broadcast), −inf outside 0..n."""
    lc = _log_comb(n, k)
    with np.errstate(divide="ignore", invalid="ignore"):
        lp = np.where(k > 0, k * np.log(p) if p > 0 else -np.inf, 0.0)
        lq = np.where(n - k > 0, (n - k) * np.log1p(-p) if p < 1 else -np.inf, 0.0)
    return lc + lp + lq


def degree_likelihood(
    obs: np.ndarray, want: np.ndarray, *, model: str, n: int, release_edges: int,
    m: int = 0, p: float = 0.0, q: float = 0.0,
) -> np.ndarray:  # fmt: skip
    """L[i, j] = Pr(a release node shows degree ``obs[i]`` | its preimage had ``want[j]``)
    under ``model`` (module docstring); for ``rad-hay``, Hay's Pr(preimage degree = want[j]
    | release degree obs[i]).  O(|obs|·|want|); ``perturb``: O(|want|·n log n) by FFT;
    ``rad``: O(|obs|·Σ want); ``rad-hay``: O(|obs|·|want|·min(m, Δ))."""
    obs = np.asarray(obs, dtype=np.int64)
    want = np.asarray(want, dtype=np.int64)
    if model == "exact":
        return (obs[:, None] == want[None, :]).astype(float)
    if model == "rsp":
        total = release_edges + m  # |E| of the original
        o, w = obs[:, None], want[None, :]
        log = (
            _log_comb(w, o)
            + _log_comb(total - w, release_edges - o)
            - _log_comb(total, release_edges)
        )
        return np.exp(log)
    if model == "rad-hay":
        from privlab.graph.attacks.refinement import _degree_likelihood

        return _degree_likelihood(n, release_edges, m, obs, want, "process")
    if model == "rad":
        big_n = n * (n - 1) // 2
        pool = big_n - release_edges + m  # non-edges of the interim graph
        out = np.zeros((obs.size, want.size))
        for j, w in enumerate(want.tolist()):
            kept = np.arange(w + 1)
            log_k = _log_comb(w, kept) + _log_comb(release_edges - w, release_edges - m - kept)
            log_k = log_k - _log_comb(release_edges, release_edges - m)
            add = obs[:, None] - kept[None, :]
            succ = (n - 1 - kept)[None, :]
            log_a = _log_comb(succ, add) + _log_comb(pool - succ, m - add) - _log_comb(pool, m)
            out[:, j] = np.exp(log_k[None, :] + log_a).sum(axis=1)
        return out
    if model == "sparsify":
        return np.exp(_binom_log_pmf(obs[:, None], want[None, :], 1.0 - p))
    if model == "perturb":
        from scipy.signal import fftconvolve

        out = np.zeros((obs.size, want.size))
        grid = np.arange(n)
        for j, w in enumerate(want.tolist()):
            kept = np.exp(_binom_log_pmf(grid[: w + 1], np.full(w + 1, w), 1.0 - p))
            rest = n - 1 - w
            added = np.exp(_binom_log_pmf(grid[: rest + 1], np.full(rest + 1, rest), q))
            pmf = np.clip(fftconvolve(kept, added)[:n], 0.0, None)
            inside = (obs >= 0) & (obs < pmf.size)
            out[inside, j] = pmf[obs[inside]]
        return out
    check_choice(model, "model", OBFUSCATION_MODELS)
    raise AssertionError(model)  # unreachable: every model returns above


def _entropies(like: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per column j: entropy (bits) of the distribution over release nodes that gives each of
    the ``counts[i]`` nodes of row i the probability like[i, j] / Σ_i counts[i]·like[i, j],
    and ⌊1 / its maximum⌋ (NaN and 0 where the column sums to 0).  O(rows·cols)."""
    total = (like * counts[:, None]).sum(axis=0)
    ent = np.full(like.shape[1], np.nan)
    belief = np.zeros(like.shape[1], dtype=np.int64)
    ok = total > 0
    if ok.any():
        pr = like[:, ok] / total[ok]
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(pr > 0, counts[:, None] * pr * np.log2(pr), 0.0)
        ent[ok] = np.maximum(-terms.sum(axis=0), 0.0)
        belief[ok] = np.floor(1.0 / pr.max(axis=0) + 1e-9).astype(np.int64)
    return ent, belief


@dataclass(frozen=True)
class _DegreeModel:
    """Release degree classes ``obs`` (``counts`` nodes each, ``oinv``: each release node's
    class), original degrees ``want`` (``winv``: each original node's), the likelihood
    matrix L[obs, want] and the validated parameters."""

    obs: np.ndarray
    counts: np.ndarray
    oinv: np.ndarray
    want: np.ndarray
    winv: np.ndarray
    like: np.ndarray
    params: dict[str, Any]


def _degree_model(
    original: Graph, release: Graph, model: str, m: int | None, p: float, q: float
) -> _DegreeModel:
    """Check the model's parameters against the two graphs and build its likelihood."""
    check_choice(model, "model", OBFUSCATION_MODELS)
    n = release.n_nodes
    params: dict[str, Any] = {}
    if model in ("rsp", "rad", "rad-hay"):
        if model != "rsp" and m is None:
            raise ConfigError(f"m = None: the {model} model needs the public number m of edits")
        if m is None:
            m = original.n_edges - release.n_edges
        m = check_int(m, "m", 0, "the number of deleted edges")
        if model == "rsp" and m != original.n_edges - release.n_edges:
            raise InputError(
                f"m = {m}: RSP deletes edges only, so the release must have |E| − m = "
                f"{original.n_edges - m} edges; it has {release.n_edges}"
            )
        if model != "rsp" and m > release.n_edges:
            raise ConfigError(f"m = {m}: at most |E'| = {release.n_edges} insertions can be made")
        params["m"] = m
    if model in ("sparsify", "perturb"):
        p = check_number_in(p, "p", 0.0, 1.0, hint="the probability that an edge is removed")
        params["p"] = p
    if model == "perturb":
        q = check_number_in(q, "q", 0.0, 1.0, hint="the probability that a non-edge is added")
        params["q"] = q
    if model != "exact" and n != original.n_nodes:
        raise InputError(
            f"release: {n} nodes, original {original.n_nodes}; the {model} model keeps the node set"
        )
    obs, oinv, counts = np.unique(release.degrees(), return_inverse=True, return_counts=True)
    want, winv = np.unique(original.degrees(), return_inverse=True)
    like = degree_likelihood(obs, want, model=model, n=n, release_edges=release.n_edges,
                             m=int(m or 0), p=p, q=q)  # fmt: skip
    return _DegreeModel(obs, counts, oinv, want, winv, like, params)


def obfuscation(
    original: Graph,
    release: Graph,
    *,
    model: str = "exact",
    m: int | None = None,
    p: float = 0.0,
    q: float = 0.0,
    ks: tuple[int, ...] = DEFAULT_KS,
) -> Obfuscation:
    """k-obfuscation of every original node under degree knowledge (Bonchi et al. 2011).

    ``model``: one of :data:`OBFUSCATION_MODELS`; ``m`` = the public number of deleted edges
    (``rsp``: |E| − |E'| by default; ``rad``: required), ``p``/``q`` the probabilities of
    ``sparsify``/``perturb``.  The release is matched against degrees only, so node ids need
    not align.  O(n + D'·D) for D' distinct release degrees and D distinct original degrees
    (``perturb``: O(D·n log n); ``rad``: ×min(m, Δ)).
    """
    original = as_graph(original, "obfuscation (original)", undirected=True)
    release = as_graph(release, "obfuscation (release)", undirected=True)
    ks = tuple(check_int(k, "k", 1) for k in ks)
    dm = _degree_model(original, release, model, m, p, q)
    ent, belief = _entropies(dm.like, dm.counts.astype(float))
    return Obfuscation(model, dm.params, ent[dm.winv], belief[dm.winv], ks)


def uncertain_obfuscation(
    original: Graph, n: int, edges: Any, probabilities: Any, *, ks: tuple[int, ...] = DEFAULT_KS
) -> Obfuscation:
    """(k, ε)-obfuscation of an uncertain-graph release (Boldi, Bonchi, Gionis & Tassa 2012).

    The release has nodes 0..n−1 and ``edges`` (m × 2) present with ``probabilities``; node
    u's degree is Poisson-binomial over its incident edges, X_u(ω), and the adversary's
    distribution for a target of degree ω is X_u(ω) / Σ_w X_w(ω).  O(Σ_u deg(u)² + n·D).
    """
    original = as_graph(original, "uncertain obfuscation (original)", undirected=True)
    n = check_int(n, "n", 1)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    pr = np.asarray(probabilities, dtype=float).ravel()
    if pr.size != e.shape[0]:
        raise InputError(f"probabilities: {pr.size} given for {e.shape[0]} edges")
    if pr.size and (not np.isfinite(pr).all() or pr.min() < 0 or pr.max() > 1):
        raise InputError("probabilities: every edge probability must be in [0, 1]")
    if e.size and (e.min() < 0 or e.max() >= n or (e[:, 0] == e[:, 1]).any()):
        raise InputError(f"edges: node ids must be in 0..{n - 1}, no self-loops")
    ends = np.concatenate([e[:, 0], e[:, 1]])
    probs = np.concatenate([pr, pr])
    order = np.argsort(ends, kind="stable")
    starts = np.searchsorted(ends[order], np.arange(n + 1))
    want, winv = np.unique(original.degrees(), return_inverse=True)
    like = np.zeros((n, want.size))
    for u in range(n):
        pmf = np.ones(1)
        for x in probs[order[starts[u] : starts[u + 1]]].tolist():
            pmf = np.concatenate([pmf * (1 - x), [0.0]]) + np.concatenate([[0.0], pmf * x])
        inside = want < pmf.size
        like[u, inside] = pmf[want[inside]]
    ent, belief = _entropies(like, np.ones(n))
    return Obfuscation("uncertain", {"edges": int(e.shape[0])}, ent[winv], belief[winv], ks)


# ============================================================================ degree + clustering
def local_clustering(graph: Graph) -> np.ndarray:
    """Local clustering coefficient ∆(v) / C(d(v), 2), 0 where d(v) < 2 (seed 000 §2.9,
    eq 7.1's terms).  O(Σ_v d(v)²) through sparse A² ⊙ A."""
    graph = as_graph(graph, "local clustering", undirected=True)
    n = graph.n_nodes
    a = sparse.csr_array((np.ones(graph.indices.size), graph.indices, graph.indptr), shape=(n, n))
    tri2 = np.asarray((a @ a).multiply(a).sum(axis=1)).ravel()  # 2·triangles at v
    d = graph.degrees().astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        cc = np.where(d >= 2, tri2 / (d * (d - 1)), 0.0)
    return cc


@dataclass(frozen=True)
class CandidateSizes:
    """Candidate-set size of every original node under one kind of knowledge (0: matches
    no release node)."""

    knowledge: str
    sizes: np.ndarray
    #: release node v matches original node v (same node set only): with ``sizes == 1``, the
    #: only candidate is the person — a re-identification when node ids align
    self_match: np.ndarray | None = None
    #: the release shows exactly the original's multiset of knowledge values, as a mere
    #: relabelling does: then a unique match is the person even when ids do not align
    same_profile: bool = False

    def to_dict(self) -> dict[str, Any]:
        from privlab.graph.attacks.refinement import bucket_counts

        s = self.sizes
        out = {
            "knowledge": self.knowledge,
            "n": int(s.size),
            "unique_fraction": float((s == 1).mean()) if s.size else 0.0,
            "no_match_fraction": float((s == 0).mean()) if s.size else 0.0,
            "buckets": bucket_counts(s[s > 0]).to_dict(),
            "same_profile": self.same_profile,
        }
        if self.self_match is not None:
            hit = (s == 1) & self.self_match
            out["reidentified_fraction"] = float(hit.mean()) if s.size else 0.0
        return out


def degree_clustering_anonymity(
    original: Graph, release: Graph | None = None, *, decimals: int = 2
) -> CandidateSizes:
    """Candidate sets under knowledge of (degree, local clustering coefficient).

    The two properties of Singh & Zhan's topological anonymity (GrC 2007); the coefficient is
    rounded to ``decimals`` places (an adversary rarely knows it to more).  cand(x) = release
    nodes with the same pair as x in the original (``release=None``: the original itself, a
    naive anonymization).  O(Σ d² + n log n).
    """
    original = as_graph(original, "degree-clustering anonymity (original)", undirected=True)
    decimals = check_int(decimals, "decimals", 0, "decimal places of the clustering coefficient")
    release = original if release is None else as_graph(release, "release", undirected=True)

    def keys(g: Graph) -> np.ndarray:
        cc = np.round(local_clustering(g) * 10**decimals).astype(np.int64)
        return g.degrees().astype(np.int64) * (10**decimals + 1) + cc

    ko, kr = keys(original), keys(release)
    vals, counts = np.unique(kr, return_counts=True)
    sizes = np.zeros(ko.size, dtype=np.int64)
    if vals.size:
        at = np.minimum(np.searchsorted(vals, ko), vals.size - 1)
        sizes = np.where(vals[at] == ko, counts[at], 0)
    same = ko == kr if ko.size == kr.size else None
    profile = ko.size == kr.size and bool(np.array_equal(np.sort(ko), np.sort(kr)))
    return CandidateSizes(f"degree and clustering coefficient ({decimals} decimals)",
                          np.asarray(sizes, dtype=np.int64), same, profile)  # fmt: skip


# ============================================================================ link disclosure
@dataclass(frozen=True)
class LinkDisclosure:
    """For every original edge (a, b): the probability that a and b are linked in the
    release given their candidate sets, ``probability`` (NaN where a candidate set is empty).
    ``baseline`` is the release density: the probability for two people the adversary knows
    nothing about."""

    level: int | None
    probability: np.ndarray
    edges: np.ndarray
    baseline: float
    non_edge_probability: np.ndarray = field(default_factory=lambda: np.zeros(0))
    model: str | None = None  # None: exact matching of H_level; else link_disclosure_model

    def to_dict(self) -> dict[str, Any]:
        p = self.probability
        ok = ~np.isnan(p)
        pk = p[ok]
        ne = self.non_edge_probability
        ne = ne[~np.isnan(ne)]
        knowledge = "H*" if self.level is None else f"H_{self.level}"
        return {
            "knowledge": knowledge if self.model is None else f"degree, {self.model} model",
            "edges": int(p.size),
            "no_match_fraction": float((~ok).mean()) if p.size else 0.0,
            "disclosed_fraction": float((pk >= 1 - 1e-12).sum() / p.size) if p.size else 0.0,
            "at_least_half_fraction": float((pk >= 0.5).sum() / p.size) if p.size else 0.0,
            "mean_probability": float(pk.mean()) if pk.size else None,
            "baseline_density": self.baseline,
            "non_edge_mean_probability": float(ne.mean()) if ne.size else None,
            "non_edge_sampled": int(self.non_edge_probability.size),
        }


def _union_colors(original: Graph, release: Graph, level: int | None) -> np.ndarray:
    """H_level class ids of the disjoint union original ⊔ release (canonical across both)."""
    from privlab.graph.attacks.refinement import vertex_refinement

    n0 = original.n_nodes
    union = Graph.from_edges(
        n0 + release.n_nodes, np.concatenate([original.edges(), release.edges() + n0])
    )
    return np.asarray(vertex_refinement(union, max_level=level).level(level))


def _sample_non_edges(graph: Graph, count: int, seed: Any) -> tuple[np.ndarray, np.ndarray]:
    """Up to ``count`` uniformly drawn non-adjacent pairs (u ≠ v) of ``graph``."""
    n = graph.n_nodes
    rng = np.random.default_rng(seed)
    u = rng.integers(0, n, size=4 * count + 16)
    v = rng.integers(0, n, size=u.size)
    keep = u != v
    u, v = u[keep], v[keep]
    adj = np.fromiter((graph.has_edge(int(x), int(y)) for x, y in zip(u, v, strict=True)),
                      dtype=bool, count=u.size)  # fmt: skip
    return u[~adj][:count], v[~adj][:count]


def link_disclosure(
    original: Graph,
    release: Graph | None = None,
    *,
    level: int | None = 1,
    non_edges: int = 0,
    seed: Any = 0,
) -> LinkDisclosure:
    """Edge disclosure under H_``level`` knowledge (seed 000 §7.2.1; seed 002 §6.1).

    For targets a, b with candidate sets A = cand(a), B = cand(b) in the release (release
    nodes whose H_i equals the target's H_i in the original; ``level=None``: H*), the
    adversary's probability that a and b are linked is the fraction of the candidate pairs
    {x, y}, x ∈ A, y ∈ B, x ≠ y, that are edges of the release — e(A, B) / (|A|·|B|) for
    A ≠ B, e(A) / C(|A|, 2) for A = B — each candidate pair being equally likely, as under
    Hay's uniform candidate probabilities.  Candidate sets under H_i
    are classes, so A and B are equal or disjoint.  Returned for every original edge and for
    ``non_edges`` sampled non-adjacent pairs (the false-alarm side).  ``release=None``: the
    naive anonymization of the original.  O((m + m') log²(n + n')) for the refinement, then
    O(m + m') with one class-pair count.
    """
    original = as_graph(original, "link disclosure (original)", undirected=True)
    release = original if release is None else as_graph(release, "release", undirected=True)
    if level is not None:
        level = check_int(level, "level", 1, "the refinement level i of H_i; H* is None")
    non_edges = check_int(non_edges, "non_edges", 0)
    n0, n1 = original.n_nodes, release.n_nodes
    col = _union_colors(original, release, level)
    ids, inv = np.unique(col, return_inverse=True)
    co, cr = inv[:n0], inv[n0:]
    size_r = np.bincount(cr, minlength=ids.size).astype(float)
    er = release.edges()
    a, b = cr[er[:, 0]], cr[er[:, 1]]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    k = ids.size
    pair_keys, pair_counts = np.unique(lo.astype(np.int64) * k + hi, return_counts=True)

    def prob(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        cu, cv = co[u], co[v]
        lo_, hi_ = np.minimum(cu, cv), np.maximum(cu, cv)
        key = lo_.astype(np.int64) * k + hi_
        if pair_keys.size:
            at = np.minimum(np.searchsorted(pair_keys, key), pair_keys.size - 1)
            e = np.where(pair_keys[at] == key, pair_counts[at], 0).astype(float)
        else:
            e = np.zeros(key.size)
        su, sv = size_r[cu], size_r[cv]
        same = cu == cv
        # unordered candidate pairs: |A||B| if A ≠ B, C(|A|, 2) if A = B
        pairs = np.where(same, su * (su - 1) / 2, su * sv)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(pairs > 0, e / pairs, np.nan)

    eo = original.edges()
    p_edges = prob(eo[:, 0], eo[:, 1]) if eo.size else np.zeros(0)
    p_non = np.zeros(0)
    if non_edges and n0 >= 2:
        u, v = _sample_non_edges(original, non_edges, seed)
        p_non = prob(u, v)
    dens = release.n_edges / (n1 * (n1 - 1) / 2) if n1 >= 2 else 0.0
    return LinkDisclosure(level, p_edges, eo, float(dens), p_non)


def link_disclosure_model(
    original: Graph,
    release: Graph,
    *,
    model: str = "exact",
    m: int | None = None,
    p: float = 0.0,
    q: float = 0.0,
    non_edges: int = 0,
    seed: Any = 0,
) -> LinkDisclosure:
    """Edge disclosure under degree knowledge and a release model (:func:`obfuscation`'s).

    The adversary places each end of a pair at release nodes with the obfuscation
    distributions X_a, X_b (independently, conditioned on x ≠ y) and reads the probability
    that the pair is linked: Σ_{x≠y} X_a(x) X_b(y) [xy ∈ E'] / (1 − Σ_x X_a(x) X_b(x)).
    Under ``exact`` this is :func:`link_disclosure` at H_1; under ``rsp``/``rad``/… it
    gives a perturbed release the edge-disclosure figure that exact matching cannot (exact
    matching finds no one whose degree changed).  X depends on the release degree only, so
    with E[i, j] = release edges between degree classes i and j (both orders):
    O(n + m' + D'²·D + D·D'·D) for D' release and D original degree classes.
    """
    original = as_graph(original, "link disclosure (original)", undirected=True)
    release = as_graph(release, "link disclosure (release)", undirected=True)
    non_edges = check_int(non_edges, "non_edges", 0)
    dm = _degree_model(original, release, model, m, p, q)
    c = dm.counts.astype(float)
    total = (dm.like * c[:, None]).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(total > 0, dm.like / total, 0.0)  # per node of class i, per want j
    er = release.edges()
    k = dm.obs.size
    cls = np.zeros((k, k))
    if er.size:
        np.add.at(cls, (dm.oinv[er[:, 0]], dm.oinv[er[:, 1]]), 1.0)
    cls = cls + cls.T  # ordered pairs (x, y) with x ~ y
    linked = w.T @ cls @ w  # D × D: Σ_{x,y} X_a(x) X_b(y) A[x, y]
    same = (w * c[:, None]).T @ w  # Σ_x X_a(x) X_b(x)
    ok = total > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        prob = np.where(ok[:, None] & ok[None, :], linked / (1.0 - same), np.nan)

    def at(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.clip(prob[dm.winv[u], dm.winv[v]], 0.0, 1.0)

    eo = original.edges()
    p_edges = at(eo[:, 0], eo[:, 1]) if eo.size else np.zeros(0)
    p_non = np.zeros(0)
    n0 = original.n_nodes
    if non_edges and n0 >= 2:
        u, v = _sample_non_edges(original, non_edges, seed)
        p_non = at(u, v)
    n1 = release.n_nodes
    dens = release.n_edges / (n1 * (n1 - 1) / 2) if n1 >= 2 else 0.0
    return LinkDisclosure(1, p_edges, eo, float(dens), p_non, model)


# ============================================================================ group re-id
def group_candidates(masks: Any) -> tuple[np.ndarray, bool]:
    """Refine individual candidate sets by the injectivity of a group assignment.

    ``masks`` is a (T × N) boolean matrix: target t may be release node y.  Returns (refined,
    consistent): refined[t, y] is True iff some one-to-one assignment of every target to a
    candidate maps t to y (Hay et al. §6.1: cand(x, x') ≠ cand(x) × cand(x')).  When no
    assignment covers every target the knowledge is inconsistent with the release
    (``consistent=False``) and the masks come back unchanged.

    Method: one maximum bipartite matching M (Hopcroft–Karp); orient non-matching edges
    target → node and matching edges node → target; an edge (t, y) ∉ M lies in some covering
    matching iff y reaches a free node (an even alternating path) or t and y share a strongly
    connected component (an alternating cycle).  O(E·√V) for the matching, O(E) after.
    """
    from scipy.sparse.csgraph import (
        breadth_first_order,
        connected_components,
        maximum_bipartite_matching,
    )

    mk = np.asarray(masks)
    if mk.ndim != 2 or mk.dtype != bool:
        raise InputError("masks: give a two-dimensional boolean matrix (targets × nodes)")
    t, nn = mk.shape
    if t == 0:
        return mk.copy(), True
    bi = sparse.csr_array(mk.astype(np.int8))
    match = maximum_bipartite_matching(bi, perm_type="column")  # target → node or −1
    if (match < 0).any():
        return mk.copy(), False
    rows, cols = bi.nonzero()
    matched = match[rows] == cols
    # vertices: targets 0..t−1, nodes t..t+nn−1
    src = np.concatenate([rows[~matched], cols[matched] + t])
    dst = np.concatenate([cols[~matched] + t, rows[matched]])
    g = sparse.csr_array((np.ones(src.size, dtype=np.int8), (src, dst)), shape=(t + nn, t + nn))
    _, comp = connected_components(g, directed=True, connection="strong")
    free = np.ones(nn, dtype=bool)
    free[match] = False
    reach = np.zeros(t + nn, dtype=bool)  # can reach a free node: BFS on the reversed graph
    free_ids = np.flatnonzero(free) + t
    if free_ids.size:
        rev = g.T.tocsr()
        hub = t + nn  # a virtual source joined to every free node
        rev = sparse.vstack([
            sparse.hstack([rev, sparse.csr_array((t + nn, 1), dtype=np.int8)]),
            sparse.csr_array((np.ones(free_ids.size, dtype=np.int8),
                              (np.zeros(free_ids.size, dtype=np.int64), free_ids)),
                             shape=(1, t + nn + 1)),
        ]).tocsr()  # fmt: skip
        order = breadth_first_order(rev, hub, directed=True, return_predecessors=False)
        reach[order[order < t + nn]] = True
    keep = matched | reach[cols + t] | (comp[rows] == comp[cols + t])
    out = np.zeros_like(mk)
    out[rows[keep], cols[keep]] = True
    return out, True


@dataclass(frozen=True)
class GroupReidentification:
    """Individual and group candidate-set sizes of the targets."""

    targets: np.ndarray
    knowledge: str
    individual: np.ndarray
    group: np.ndarray
    consistent: bool
    correct: np.ndarray | None = None  # group set is {the target itself} (aligned ids)

    def to_dict(self) -> dict[str, Any]:
        ind, grp = self.individual, self.group
        out = {
            "knowledge": self.knowledge,
            "targets": int(self.targets.size),
            "consistent": self.consistent,
            "unique_individual": int((ind == 1).sum()),
            "unique_group": int((grp == 1).sum()),
            "shrunk": int((grp < ind).sum()),
            "median_individual": float(np.median(ind)) if ind.size else None,
            "median_group": float(np.median(grp)) if grp.size else None,
        }
        if self.correct is not None:
            out["reidentified_group"] = int(self.correct.sum())
        return out


KNOWLEDGE: tuple[str, ...] = ("degree-at-least", "facts")


def group_reidentification(
    original: Graph,
    release: Graph,
    targets: Any,
    *,
    knowledge: str = "degree-at-least",
    facts: int = 5,
    aligned: bool = False,
    seed: Any = 0,
) -> GroupReidentification:
    """Group re-identification (seed 002 §6.1) of ``targets`` (original node ids).

    ``knowledge``: ``"degree-at-least"`` — the adversary has seen ``facts`` of a target's
    edges, so knows deg ≥ min(facts, deg) (Hay et al.'s subgraph knowledge *without* exact
    degrees, §A.3.4: nested, overlapping candidate sets); ``"facts"`` — ``facts`` edge facts
    breadth-first with exact degrees once a node is exhausted
    (:func:`privlab.graph.attacks.subgraph.gather_edge_facts`).  Under H_i knowledge the sets
    are equal or disjoint and grouping never helps (L673–675), so H_i is not offered.
    ``aligned``: release node i is original node i, so the result is scored.  O(T·N) for the
    masks, then :func:`group_candidates`.
    """
    original = as_graph(original, "group re-identification (original)", undirected=True)
    release = as_graph(release, "group re-identification (release)", undirected=True)
    check_choice(knowledge, "knowledge", KNOWLEDGE)
    facts = check_int(facts, "facts", 1, "the number of edges the adversary knows per target")
    t = np.asarray(targets)
    if t.ndim != 1 or (t.size and (not np.issubdtype(t.dtype, np.integer) or t.min() < 0
                                   or t.max() >= original.n_nodes)):  # fmt: skip
        raise InputError(f"targets: give node ids in 0..{original.n_nodes - 1}")
    if np.unique(t).size != t.size:
        raise InputError("targets: a node appears twice; a group lists each person once")
    if aligned and release.n_nodes != original.n_nodes:
        raise InputError("aligned: the release must have the original's nodes")
    deg_o, deg_r = original.degrees(), release.degrees()
    if knowledge == "degree-at-least":
        need = np.minimum(deg_o[t], facts)
        masks = deg_r[None, :] >= need[:, None]
        label = f"degree ≥ min(deg, {facts})"
    else:
        from privlab.graph.attacks.subgraph import SubgraphMatcher, gather_edge_facts

        matcher = SubgraphMatcher(release)
        masks = np.stack([matcher.candidate_mask(gather_edge_facts(original, int(x), facts,
                                                                    seed=seed))
                          for x in t.tolist()]) if t.size else np.zeros((0, release.n_nodes),
                                                                        dtype=bool)  # fmt: skip
        label = f"{facts} edge facts (breadth-first, exact degrees)"
    refined, ok = group_candidates(masks)
    correct = None
    if aligned:
        gs = refined.sum(axis=1)
        correct = (gs == 1) & refined[np.arange(t.size), t]
    return GroupReidentification(t.astype(np.int64), label, masks.sum(axis=1),
                                 refined.sum(axis=1), ok, correct)  # fmt: skip


__all__ = [
    "DEFAULT_KS",
    "KNOWLEDGE",
    "OBFUSCATION_MODELS",
    "CandidateSizes",
    "GroupReidentification",
    "LinkDisclosure",
    "Obfuscation",
    "degree_clustering_anonymity",
    "degree_likelihood",
    "group_candidates",
    "group_reidentification",
    "link_disclosure",
    "link_disclosure_model",
    "local_clustering",
    "obfuscation",
    "uncertain_obfuscation",
]
