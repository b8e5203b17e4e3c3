"""Training without ground truth, and the trained pair scorer (Sharad, seed 004 §2.8).

Source: seed 004 §2.8 (thesis Chapter 4 L1029, L1060 and Chapter 5 L1367, L1433, L1677):
the adversary has no identical pairs between G_aux and G_san, so it *splits* each released
graph with Sharad's own pair generator (§2.2, :func:`privlab.graph.pairs.sample_pair`, with
an estimated α_V and α_E) into two sub-graphs whose common nodes it knows, and learns from
those.  The released graphs are already perturbed, so they are "the closest available
distribution".

:func:`split_training_pairs` does one split and samples
* identical pairs: common nodes whose degree exceeds ``min_degree`` in *both* halves (the
  thesis links only degree > 5 nodes, L676, L1060), ``n_identical`` of them drawn uniformly
  without replacement, or all if fewer;
* non-identical pairs: uniformly random pairs (a, b), a in half A, b in half B, both with
  degree > ``min_degree``, that are not the same node; distinct pairs, ``n_non_identical``
  of them or all if fewer.
``degree_range=(lo, hi)`` further keeps only nodes with lo < degree ≤ hi on both sides (the
degree bands of 3PSL's phases, §2.11; ``hi=None`` means no upper bound).

:func:`train_scorer` pools split pairs from *both* released graphs (half of each count from
each), computes the pair features (:mod:`.features`) and fits the classifier
(:mod:`.forest`), returning a :class:`PairScorer`.

Choices where the seed is silent (also in docs/graph/learned-attack.md): the split uses the
same α_V and α_E as the attack's estimate; the default pool is 25 000 identical (as the
thesis) but 100 000 non-identical pairs (the thesis: 500 000), because a 400-tree forest
draws only 400 × 600 non-identical rows and the pool is kept in memory (1 byte per feature:
88 MB at 884 features).

Complexity: a split costs O(n + m log m); sampling O(n + pairs); features
O(histograms + pairs · features); then the classifier's fit.
"""

from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.learned.features import (
    DEFAULT_CHUNK,
    NodeFeatures,
    PairFeatures,
    check_pairs,
    node_features,
)
from privlab.graph.attacks.learned.forest import make_classifier
from privlab.graph.core import Graph, as_graph
from privlab.graph.pairs import GraphPair, sample_pair
from privlab.progress import ProgressFn
from privlab.validate import check_int

_PAIRS_HINT = "the number of pairs to sample"


# ============================================================================ split pairs
@dataclass(frozen=True, eq=False)
class TrainingPairs:
    """Labelled pairs between the two halves of one split: u[k] in graph_a, v[k] in graph_b.

    ``y[k]`` = 1 for identical pairs (listed first), 0 for non-identical ones.  ``split``
    is the :class:`~privlab.graph.pairs.GraphPair` of the two halves (its ground truth is
    what makes the labels known).
    """

    graph_a: Graph
    graph_b: Graph
    u: np.ndarray
    v: np.ndarray
    y: np.ndarray
    parameters: dict[str, Any] = field(default_factory=dict)
    split: GraphPair | None = field(default=None, repr=False)

    @property
    def n_identical(self) -> int:
        return int(self.y.sum())

    @property
    def n_non_identical(self) -> int:
        return int(self.y.size - self.y.sum())

    def to_dict(self) -> dict[str, Any]:
        return {
            "parameters": dict(self.parameters),
            "graph_a": {"nodes": self.graph_a.n_nodes, "edges": self.graph_a.n_edges},
            "graph_b": {"nodes": self.graph_b.n_nodes, "edges": self.graph_b.n_edges},
            "n_identical": self.n_identical,
            "n_non_identical": self.n_non_identical,
        }


def _check_range(degree_range: Any) -> tuple[float, float] | None:
    if degree_range is None:
        return None
    try:
        lo, hi = degree_range
    except (TypeError, ValueError):
        raise ConfigError(
            f"degree_range = {degree_range!r}: give (lo, hi) meaning lo < degree ≤ hi "
            "(hi may be None)"
        ) from None
    hi = math.inf if hi is None else hi
    for name, x in (("lo", lo), ("hi", hi)):
        if isinstance(x, bool) or not isinstance(x, Real) or math.isnan(x):
            raise ConfigError(f"degree_range {name} = {x!r}: give a number")
    if not lo < hi:
        raise ConfigError(f"degree_range = {degree_range!r}: lo must be < hi (lo < degree ≤ hi)")
    return float(lo), float(hi)


def _eligible(deg: np.ndarray, min_degree: int, rng_: tuple[float, float] | None) -> np.ndarray:
    ok = deg > min_degree
    if rng_ is not None:
        ok &= (deg > rng_[0]) & (deg <= rng_[1])
    return ok


def split_training_pairs(
    graph: Graph,
    *,
    alpha_v: float,
    alpha_e: float,
    n_identical: int,
    n_non_identical: int,
    min_degree: int = 5,
    degree_range: tuple[float, float | None] | None = None,
    seed: Any = None,
) -> TrainingPairs:
    """Split a released graph and sample labelled training pairs (seed 004 §2.8).

    See the module docstring.  InputError when no identical or no non-identical pair is
    eligible (the message says which knob to turn); ConfigError for bad counts, min_degree
    or degree_range, and (from :func:`~privlab.graph.pairs.sample_pair`) α outside (0, 1].
    O(n + m log m + pairs).
    """
    graph = as_graph(graph, "split_training_pairs")
    n_id = check_int(n_identical, "n_identical", 1, _PAIRS_HINT)
    n_non = check_int(n_non_identical, "n_non_identical", 1, _PAIRS_HINT)
    check_int(min_degree, "min_degree", 0, "the thesis: 5")
    band = _check_range(degree_range)
    rng = secure_generator(seed)
    pair = sample_pair(graph, alpha_v, alpha_e, seed=rng)
    ga, gb = pair.aux, pair.san
    ok_a = _eligible(ga.degrees(), int(min_degree), band)
    ok_b = _eligible(gb.degrees(), int(min_degree), band)
    both = ok_a[pair.truth_aux] & ok_b[pair.truth_san]
    ia, ib = pair.truth_aux[both], pair.truth_san[both]
    cond = f"degree > {min_degree}" + (f" and in ({band[0]:g}, {band[1]:g}]" if band else "")
    if ia.size == 0:
        raise InputError(
            f"the split of this graph (α_V = {alpha_v}) has no common node with {cond} in "
            "both halves; lower min_degree, widen degree_range or raise alpha_v"
        )
    if ia.size > n_id:
        pick = np.sort(rng.choice(ia.size, n_id, replace=False))
        ia, ib = ia[pick], ib[pick]
    na, nb = _non_identical(pair.truth_array(), np.flatnonzero(ok_a), np.flatnonzero(ok_b),
                            int(both.sum()), n_non, rng)  # fmt: skip
    if na.size == 0:
        raise InputError(
            f"the split of this graph has no non-identical pair with {cond} on both sides; "
            "lower min_degree or widen degree_range"
        )
    u = np.concatenate([ia, na])
    v = np.concatenate([ib, nb])
    y = np.concatenate([np.ones(ia.size, np.int8), np.zeros(na.size, np.int8)])
    params = {
        "alpha_v": float(alpha_v),
        "alpha_e": float(alpha_e),
        "min_degree": int(min_degree),
        "degree_range": None if band is None else [band[0], band[1]],
        "eligible_identical": int(both.sum()),
        "eligible_a": int(ok_a.sum()),
        "eligible_b": int(ok_b.sum()),
        "insecure_seed": is_insecure_seed(seed),
    }
    return TrainingPairs(ga, gb, u, v, y, params, pair)


def _non_identical(truth: np.ndarray, ea: np.ndarray, eb: np.ndarray, n_same: int, want: int,
                   rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``want`` distinct uniformly random pairs of ea × eb that are not identical."""
    total = ea.size * eb.size - n_same
    if total <= 0:
        return np.empty(0, np.int64), np.empty(0, np.int64)
    if want >= total:  # all of them
        a = np.repeat(ea, eb.size)
        b = np.tile(eb, ea.size)
        keep = truth[a] != b
        return a[keep], b[keep]
    keys = np.empty(0, dtype=np.int64)
    while keys.size < want:
        draw = int((want - keys.size) * 1.1) + 16
        k = rng.integers(0, ea.size * eb.size, size=draw, dtype=np.int64)
        k = k[truth[ea[k // eb.size]] != eb[k % eb.size]]
        keys = np.unique(np.concatenate([keys, k]))
    keys = rng.permutation(keys)[:want]  # a uniform subset of the distinct draws
    return ea[keys // eb.size], eb[keys % eb.size]


# ============================================================================ the scorer
class PairScorer:
    """A trained classifier plus its feature settings: P(identical) for node pairs.

    ``score(graph_a, graph_b, u, v)`` scores pairs (u[k] of graph_a, v[k] of graph_b) in
    chunks, computing only the feature columns the classifier uses; node features are
    cached per graph object (weakly).  ``bind(aux, san)`` returns ``f(u, v)`` for fixed
    graphs (what :func:`~privlab.graph.attacks.threepsl.three_phase_attack` takes).
    Scoring N pairs costs O(N · (used features + trees · depth)).
    """

    def __init__(
        self,
        classifier: Any,
        *,
        n_bins: int = 21,
        bin_width: int = 50,
        hops: int = 2,
        blocks: tuple[int, ...] | None = None,
        n_jobs: int = 2,
        training: dict[str, Any] | None = None,
    ):
        if not hasattr(classifier, "predict_proba_used"):
            raise ConfigError("classifier: give a fitted PairForest or PairGBM")
        self.classifier = classifier
        self.n_bins = int(n_bins)
        self.bin_width = int(bin_width)
        self.hops = int(hops)
        self.blocks = None if blocks is None else tuple(blocks)
        self.n_jobs = max(1, int(n_jobs))
        self.training = dict(training or {})
        self._cache: weakref.WeakKeyDictionary[Graph, NodeFeatures] = weakref.WeakKeyDictionary()

    def node_features(self, graph: Graph) -> NodeFeatures:
        """The node features of ``graph`` under this scorer's settings (cached)."""
        graph = as_graph(graph, "node_features")
        nf = self._cache.get(graph)
        if nf is None:
            nf = node_features(graph, n_bins=self.n_bins, bin_width=self.bin_width,
                               hops=self.hops, blocks=self.blocks, n_jobs=self.n_jobs)  # fmt: skip
            self._cache[graph] = nf
        return nf

    def pair_features(self, graph_a: Graph, graph_b: Graph) -> PairFeatures:
        pf = PairFeatures(self.node_features(graph_a), self.node_features(graph_b))
        want = getattr(self.classifier, "n_features_in_", pf.n_features)
        if pf.n_features != want:
            raise InputError(
                f"these graphs give {pf.n_features} pair features but the classifier was "
                f"trained on {want}; use graphs of the same directedness"
            )
        return pf

    def score(
        self,
        graph_a: Graph,
        graph_b: Graph,
        u: Any,
        v: Any,
        *,
        chunk_size: int = DEFAULT_CHUNK,
        progress: ProgressFn | None = None,
    ) -> np.ndarray:
        """P(identical) of pairs (u[k] in graph_a, v[k] in graph_b), float64;
        ``progress(pairs scored, pairs)`` after every few chunks."""
        graph_a, graph_b = as_graph(graph_a, "graph_a"), as_graph(graph_b, "graph_b")
        pf = self.pair_features(graph_a, graph_b)
        u, v = check_pairs(u, v, graph_a.n_nodes, graph_b.n_nodes)
        out = np.empty(u.size, dtype=np.float64)
        if u.size == 0:
            return out
        cols = self.classifier.used_features_
        clf = self.classifier
        forest_like = hasattr(clf, "_posterior")
        size = max(1, int(chunk_size))
        chunks = [slice(s, min(s + size, u.size)) for s in range(0, u.size, size)]

        def run(sl: slice) -> None:
            X = pf.transform(u[sl], v[sl], columns=cols, codes=True, chunk_size=size)
            out[sl] = clf._posterior(X) if forest_like else clf.predict_proba_used(X)

        parallel = forest_like and self.n_jobs > 1 and len(chunks) > 1
        batch = 4 * self.n_jobs if parallel else 1
        for b in range(0, len(chunks), batch):
            if parallel:
                from joblib import Parallel, delayed

                Parallel(n_jobs=self.n_jobs, prefer="threads")(
                    delayed(run)(sl) for sl in chunks[b : b + batch]
                )
            else:
                run(chunks[b])
            if progress is not None:
                progress(chunks[min(b + batch, len(chunks)) - 1].stop, u.size)
        return out

    def bind(self, aux: Graph, san: Graph) -> BoundScorer:
        """``f(u, v) -> P(identical)`` for aux nodes u and san nodes v."""
        aux, san = as_graph(aux, "aux"), as_graph(san, "san")
        self.pair_features(aux, san)  # computes and caches, checks compatibility
        return BoundScorer(self, aux, san)

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_bins": self.n_bins,
            "bin_width": self.bin_width,
            "hops": self.hops,
            "blocks": None if self.blocks is None else list(self.blocks),
            "classifier": self.classifier.to_dict(),
            "training": dict(self.training),
        }


@dataclass(frozen=True, eq=False)
class BoundScorer:
    """A :class:`PairScorer` bound to (aux, san): call it as ``f(u, v)``."""

    scorer: PairScorer
    aux: Graph
    san: Graph

    def __call__(self, u: Any, v: Any) -> np.ndarray:
        return self.scorer.score(self.aux, self.san, u, v)


# ============================================================================ training
def train_scorer(
    aux: Graph,
    san: Graph,
    *,
    alpha_v: float,
    alpha_e: float,
    method: str = "forest",
    n_bins: int = 21,
    bin_width: int = 50,
    hops: int = 2,
    blocks: tuple[int, ...] | None = None,
    n_identical: int = 25_000,
    n_non_identical: int = 100_000,
    min_degree: int = 5,
    degree_range: tuple[float, float | None] | None = None,
    n_splits: int = 1,
    n_jobs: int = 2,
    seed: Any = None,
    progress: ProgressFn | None = None,
    **classifier_kw: Any,
) -> PairScorer:
    """Train a :class:`PairScorer` by splitting both released graphs (seed 004 §2.8).

    Each of ``aux`` and ``san`` is split ``n_splits`` times, independently, with
    :func:`split_training_pairs` (α_V, α_E: the adversary's estimates), asking for
    ⌈n / (2·n_splits)⌉ identical and non-identical pairs from each split.  On a small
    release one split yields few identical pairs (≈ 1,500 on half of ego-Facebook, against
    the thesis's 25,000); more splits of the same release add independent samples of the
    anonymizer's noise at no risk (the adversary owns the splits).  The pooled pairs'
    features (``n_bins``, ``bin_width``, ``hops``/``blocks``, see
    :func:`~.features.node_features`) train ``make_classifier(method, **classifier_kw)``
    (``n_jobs`` and ``seed`` are passed on).  ``training`` in the result records the pair
    counts and the seconds spent on splitting, features and fitting.  Errors as in
    :func:`split_training_pairs` and the classifier.  Cost: 2·n_splits splits, the node
    features of 4·n_splits half-graphs, O(pairs · features), and the fit.
    ``progress(done, total)`` counts steps: each of the 2·n_splits splits with its features,
    then the classifier's fit (a forest's trees, or one step for gbm).
    """
    rng = secure_generator(seed)
    n_id = check_int(n_identical, "n_identical", 1, _PAIRS_HINT)
    n_non = check_int(n_non_identical, "n_non_identical", 1, _PAIRS_HINT)
    splits = check_int(n_splits, "n_splits", 1, "splits of each released graph")
    clf = make_classifier(method, n_jobs=n_jobs, seed=rng, **classifier_kw)
    t0 = time.perf_counter()
    parts, feats = [], []
    t_split = t_feat = 0.0
    total = 2 * splits + clf.fit_units
    for step, g in enumerate([aux, san] * splits, start=1):
        t = time.perf_counter()
        tp = split_training_pairs(
            g, alpha_v=alpha_v, alpha_e=alpha_e, n_identical=math.ceil(n_id / (2 * splits)),
            n_non_identical=math.ceil(n_non / (2 * splits)), min_degree=min_degree,
            degree_range=degree_range, seed=rng,
        )  # fmt: skip
        t_split += time.perf_counter() - t
        t = time.perf_counter()
        kw = dict(n_bins=n_bins, bin_width=bin_width, hops=hops, blocks=blocks, n_jobs=n_jobs)
        pf = PairFeatures(node_features(tp.graph_a, **kw), node_features(tp.graph_b, **kw))
        feats.append(pf.transform(tp.u, tp.v, codes=True))
        t_feat += time.perf_counter() - t
        parts.append(tp)
        if progress is not None:
            progress(step, total)
    X = np.concatenate(feats)
    y = np.concatenate([tp.y for tp in parts])
    del feats
    t = time.perf_counter()
    fitted = None if progress is None else (lambda done, _: progress(2 * splits + done, total))
    clf.fit(X, y, progress=fitted)
    t_fit = time.perf_counter() - t
    training = {
        "method": method,
        "alpha_v": float(alpha_v),
        "alpha_e": float(alpha_e),
        "min_degree": int(min_degree),
        "degree_range": parts[0].parameters["degree_range"],
        "n_identical": int(y.sum()),
        "n_non_identical": int(y.size - y.sum()),
        "n_features": int(X.shape[1]),
        "n_splits": splits,
        "splits": [tp.to_dict() for tp in parts],
        "seconds_split": t_split,
        "seconds_features": t_feat,
        "seconds_fit": t_fit,
        "seconds_total": time.perf_counter() - t0,
        "insecure_seed": is_insecure_seed(seed),
    }
    return PairScorer(clf, n_bins=n_bins, bin_width=bin_width, hops=hops, blocks=blocks,
                      n_jobs=n_jobs, training=training)  # fmt: skip


def evaluation_pairs(
    aux: Graph, san: Graph, truth: Any, *, n_non_identical: int, min_degree: int = 5,
    seed: Any = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Test pairs of seed 004 §2.8 (L1060): (u, v, y) over aux × san nodes.

    Every true pair in ``truth`` ((k × 2) aux, san) whose nodes both have degree >
    ``min_degree`` (y = 1), then up to ``n_non_identical`` distinct non-identical pairs drawn
    uniformly among the pairs of such nodes (y = 0).  InputError when no true pair
    qualifies.  O(k + n_non_identical log n_non_identical).
    """
    aux, san = as_graph(aux, "aux"), as_graph(san, "san")
    rng = secure_generator(seed)
    n_non = check_int(n_non_identical, "n_non_identical", 1, _PAIRS_HINT)
    t = np.asarray(truth, dtype=np.int64).reshape(-1, 2)
    da, ds = aux.degrees(), san.degrees()
    ok = (da[t[:, 0]] > min_degree) & (ds[t[:, 1]] > min_degree)
    iu, iv = t[ok, 0], t[ok, 1]
    ea, es = np.flatnonzero(da > min_degree), np.flatnonzero(ds > min_degree)
    if iu.size == 0:
        raise InputError(
            f"no true pair has degree > {min_degree} on both sides; use a larger graph or a "
            "smaller min_degree"
        )
    match = np.full(aux.n_nodes, -1, dtype=np.int64)
    match[t[:, 0]] = t[:, 1]
    nu, nv = _non_identical(match, ea, es, iu.size, n_non, rng)
    u = np.concatenate([iu, nu])
    v = np.concatenate([iv, nv])
    y = np.r_[np.ones(iu.size, np.int8), np.zeros(nu.size, np.int8)]
    return u, v, y


__all__ = [
    "BoundScorer",
    "PairScorer",
    "TrainingPairs",
    "evaluation_pairs",
    "split_training_pairs",
    "train_scorer",
]
