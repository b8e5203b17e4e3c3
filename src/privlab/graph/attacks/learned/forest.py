"""Sharad's random decision forest for node pairs, and a gradient-boosting alternative.

Source: seed 004 §2.6 (Sharad, *Learning to de-anonymize social networks*, Cambridge
TR-896, §3.3.2, §3.3.4, §3.5.3; L581–658, L944–974).

:class:`PairForest` is the forest exactly as specified, with scikit-learn's
``DecisionTreeClassifier`` as the tree learner:

* T = 400 trees; each tree gets its own *class-balanced* sample: ``per_class`` identical and
  ``per_class`` non-identical pairs drawn without replacement (all of a class if it has
  fewer; L676, L844, L950) — bagging.
* Randomized node optimization: each split node considers a random 5 % of the features
  (``max_features=feature_fraction``, L647).  scikit-learn keeps drawing features beyond that
  fraction while all drawn ones are constant at the node; the thesis is silent on that case.
* Split objective: information gain with Shannon entropy (Eq. 3.1, ``criterion="entropy"``).
  Thresholds: the features are quantized to the grid {0, 0.05, …, 1}
  (:mod:`~privlab.graph.attacks.learned.features`), so the learner's midpoint thresholds are
  exactly the thesis's grid thresholds τ.  (The thesis sends δ ≤ τ right, scikit-learn
  left; the mirror image changes no prediction.)
* Stopping: a node with fewer than 10 % of the tree's root sample is a leaf
  (``min_samples_split = ⌈0.1 · sample size⌉``, L649); no depth limit.
* Leaves store the class distribution of their training pairs; the forest posterior is the
  mean over trees of the leaf distributions, p(c|v) = (1/T) Σ_t p_t(c|v) (Eq. 3.2, L608).

Prediction reads only the features the fitted trees use (``used_features_``); callers that
build features themselves can compute just those columns and call
:meth:`PairForest.predict_proba_used`.  Fit and predict run in threads (scikit-learn's tree
code releases the GIL).

:class:`PairGBM` (``method="gbm"``) is a faster, non-faithful option: scikit-learn's
``HistGradientBoostingClassifier`` on a class-balanced subsample (or with balanced class
weights on all pairs).

Complexity: fitting T trees on S = 2·per_class pairs and F features costs
O(T · S log S · F·fraction · depth); predicting N pairs costs O(N · T · depth) plus the
feature columns used.
"""

from __future__ import annotations

import math
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

from privlab.dp.noise import secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.learned.roc import binary_labels
from privlab.progress import ProgressFn
from privlab.validate import check_fraction, check_int

_PREDICT_CHUNK = 1 << 13
_FIT_BATCH = 8  # trees per thread between two progress reports


# ============================================================================ validation
def _check_jobs(value: Any) -> int:
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, Integral) or value == 0:
        raise ConfigError(f"n_jobs = {value!r}: give a positive number of threads, or -1 for all")
    return int(value) if value > 0 else max(1, (os.cpu_count() or 1) + 1 + int(value))


def check_training(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """X as a 2-D numeric array and y as 0/1 int8 labels with both classes, else an error."""
    X = np.asarray(X)
    if X.ndim != 2:
        raise InputError(f"X: expected a 2-D (pairs × features) array, got shape {X.shape}")
    if X.shape[0] == 0:
        raise InputError("X: the pair list is empty; give at least one pair of each class")
    if not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
        raise InputError(f"X: features must be numeric, got dtype {X.dtype}")
    yy = np.asarray(y).reshape(-1)
    if yy.size != X.shape[0]:
        raise InputError(f"y has {yy.size} labels for {X.shape[0]} pairs; give one per pair")
    return X, binary_labels(yy, "the classifier")


def _check_predict(X: Any, n_features: int, what: str) -> np.ndarray:
    X = np.asarray(X)
    if X.ndim != 2 or X.shape[1] != n_features:
        raise InputError(f"X: expected shape (pairs, {n_features}) ({what}), got {X.shape}")
    return X


def _parallel(n_jobs: int):
    from joblib import Parallel

    return Parallel(n_jobs=n_jobs, prefer="threads")


# ============================================================================ shared part
class _PairClassifier(ABC):
    """What :class:`PairForest` and :class:`PairGBM` share once fitted: the fitted check,
    prediction from all feature columns, and the fitted summary of ``to_dict``.

    A subclass sets ``_fitted_attr`` (the attribute ``fit`` creates) and sets
    ``n_features_in_``, ``used_features_``, ``n_identical_`` and ``n_non_identical_`` in
    ``fit``.
    """

    _fitted_attr = ""
    n_features_in_: int
    used_features_: np.ndarray
    n_identical_: int
    n_non_identical_: int

    def _check_fitted(self) -> None:
        if not hasattr(self, self._fitted_attr):
            raise ConfigError(f"this {type(self).__name__} is not fitted yet; call fit(X, y) first")

    def _check_used(self, X_used: Any) -> np.ndarray:
        """The fitted check, then X_used as a (pairs, used_features_) array."""
        self._check_fitted()
        return _check_predict(X_used, self.used_features_.size, "the used_features_ columns")

    def predict_proba(self, X: Any) -> np.ndarray:
        """P(identical) of each row of X (all ``n_features_in_`` columns), float64."""
        self._check_fitted()
        X = _check_predict(X, self.n_features_in_, "all features")
        return self.predict_proba_used(X[:, self.used_features_])

    @abstractmethod
    def predict_proba_used(self, X_used: Any) -> np.ndarray:
        """P(identical) of each row of X_used (the ``used_features_`` columns only)."""

    def _fitted_summary(self) -> dict[str, int]:
        return {
            "n_features": self.n_features_in_,
            "used_features": int(self.used_features_.size),
            "n_identical": self.n_identical_,
            "n_non_identical": self.n_non_identical_,
        }


# ============================================================================ the forest
class PairForest(_PairClassifier):
    """Sharad's class-balanced random decision forest (seed 004 §2.6), see module docstring.

    ``fit(X, y)`` with y = 1 for identical pairs; ``predict_proba(X)`` returns float64
    P(identical), the mean of the trees' leaf distributions (Eq. 3.2).  ``seed``: None
    (fresh entropy), an int or a numpy Generator.
    """

    _fitted_attr = "estimators_"

    def __init__(
        self,
        n_trees: int = 400,
        per_class: int = 600,
        feature_fraction: float = 0.05,
        min_split_fraction: float = 0.10,
        criterion: str = "entropy",
        n_jobs: int | None = 2,
        seed: Any = None,
    ):
        self.n_trees = check_int(n_trees, "n_trees", 1, "the number of trees T, e.g. 400")
        self.per_class = check_int(
            per_class, "per_class", 1, "pairs of each class per tree, e.g. 600"
        )
        self.feature_fraction = check_fraction(
            feature_fraction, "feature_fraction",
            hint="share of features tried per split, e.g. 0.05",
        )  # fmt: skip
        self.min_split_fraction = check_fraction(
            min_split_fraction, "min_split_fraction",
            hint="nodes below this share of the tree's sample are leaves, e.g. 0.10",
        )  # fmt: skip
        if criterion not in ("entropy", "gini", "log_loss"):
            raise ConfigError(
                f"criterion = {criterion!r}: give 'entropy' (the thesis, Eq. 3.1) or 'gini'"
            )
        self.criterion = criterion
        self.n_jobs = _check_jobs(n_jobs)
        self.seed = seed

    # ------------------------------------------------------------------ fit
    def tree_samples(self, y: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
        """Row indices of each tree's class-balanced sample (sorted).  O(T · per_class)."""
        pos = np.flatnonzero(y == 1)
        neg = np.flatnonzero(y == 0)
        out = []
        for _ in range(self.n_trees):
            parts = []
            for cls in (pos, neg):
                if cls.size <= self.per_class:
                    parts.append(cls)
                else:
                    parts.append(rng.choice(cls, self.per_class, replace=False))
            out.append(np.sort(np.concatenate(parts)))
        return out

    @property
    def fit_units(self) -> int:
        """What ``fit`` reports to ``progress``: its T trees."""
        return self.n_trees

    def fit(self, X: Any, y: Any, progress: ProgressFn | None = None) -> PairForest:
        """Fit the T trees, in parallel threads; ``progress(trees fitted, T)`` after every
        batch of trees.  Returns self."""
        from sklearn.tree import DecisionTreeClassifier

        X, y = check_training(X, y)
        rng = secure_generator(self.seed)
        samples = self.tree_samples(y, rng)
        states = rng.integers(0, 2**31 - 1, size=self.n_trees)

        def fit_one(rows: np.ndarray, state: int):
            tree = DecisionTreeClassifier(
                criterion=self.criterion,
                max_features=self.feature_fraction,
                min_samples_split=max(2, math.ceil(self.min_split_fraction * rows.size)),
                random_state=int(state),
            )
            return tree.fit(np.ascontiguousarray(X[rows], dtype=np.float32), y[rows])

        self.estimators_ = []
        batch = _FIT_BATCH * self.n_jobs
        for b in range(0, self.n_trees, batch):
            self.estimators_ += _parallel(self.n_jobs)(
                _delayed(fit_one)(rows, s)
                for rows, s in zip(samples[b : b + batch], states[b : b + batch], strict=True)
            )
            if progress is not None:
                progress(len(self.estimators_), self.n_trees)
        self.n_features_in_ = int(X.shape[1])
        self.sample_sizes_ = np.array([r.size for r in samples], dtype=np.int64)
        self.n_identical_ = int(y.sum())
        self.n_non_identical_ = int(y.size - y.sum())
        self._compile()
        return self

    def _compile(self) -> None:
        """Per tree: leaf P(identical), and a copy reading the compact used-feature columns."""
        feats = [est.tree_.feature for est in self.estimators_]
        used = np.unique(np.concatenate([f[f >= 0] for f in feats])) if feats else np.array([])
        self.used_features_ = used.astype(np.int64)
        remap = np.full(self.n_features_in_, -1, dtype=np.int64)
        remap[self.used_features_] = np.arange(self.used_features_.size)
        self._leaf_p = []
        self._compact = []
        for est in self.estimators_:
            t = est.tree_
            val = t.value[:, 0, :]
            tot = val.sum(axis=1)
            col = int(np.flatnonzero(est.classes_ == 1)[0])
            self._leaf_p.append(np.where(tot > 0, val[:, col] / np.where(tot > 0, tot, 1), 0.0))
            self._compact.append(_remapped_tree(t, remap, max(1, self.used_features_.size)))

    # ------------------------------------------------------------------ predict
    def predict_proba_used(self, X_used: Any) -> np.ndarray:
        """P(identical) from only the columns ``used_features_`` (in that order)."""
        X_used = self._check_used(X_used)
        n = X_used.shape[0]
        out = np.empty(n, dtype=np.float64)
        if n == 0:
            return out
        chunks = [slice(s, min(s + _PREDICT_CHUNK, n)) for s in range(0, n, _PREDICT_CHUNK)]

        def run(sl: slice) -> None:
            out[sl] = self._posterior(X_used[sl])

        _parallel(min(self.n_jobs, len(chunks)))(_delayed(run)(sl) for sl in chunks)
        return out

    def _posterior(self, X_used: np.ndarray) -> np.ndarray:
        """Eq. 3.2 on one chunk: mean over trees of the leaf P(identical)."""
        Xc = np.asarray(X_used, dtype=np.float32)
        if Xc.shape[1] == 0:
            Xc = np.zeros((Xc.shape[0], 1), dtype=np.float32)
        # Column-major: the trees' top splits then read whole columns sequentially, which
        # makes Tree.apply about 4× faster than on row-major rows of a few hundred features.
        Xc = np.asfortranarray(Xc)
        acc = np.zeros(Xc.shape[0], dtype=np.float64)
        for tree, leaf_p in zip(self._compact, self._leaf_p, strict=True):
            acc += leaf_p[tree.apply(Xc)]
        return acc / len(self._compact)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "method": "forest",
            "n_trees": self.n_trees,
            "per_class": self.per_class,
            "feature_fraction": self.feature_fraction,
            "min_split_fraction": self.min_split_fraction,
            "criterion": self.criterion,
        }
        if hasattr(self, "estimators_"):
            d.update(
                self._fitted_summary(),
                mean_leaves=float(np.mean([e.get_n_leaves() for e in self.estimators_])),
                mean_depth=float(np.mean([e.get_depth() for e in self.estimators_])),
            )
        return d


def _delayed(f):
    from joblib import delayed

    return delayed(f)


def _remapped_tree(tree: Any, remap: np.ndarray, n_features: int):
    """A copy of a fitted sklearn ``Tree`` whose split features index the compact columns.

    Uses the Tree's pickling state (``__reduce__``/``__setstate__``, stable across
    scikit-learn ≥ 1.3); only the ``feature`` field of the split nodes changes.
    """
    cls, args, state = tree.__reduce__()
    nodes = state["nodes"].copy()
    split = nodes["left_child"] != -1
    nodes["feature"][split] = remap[nodes["feature"][split]]
    new = cls(n_features, *args[1:])
    new.__setstate__({**state, "nodes": nodes})
    return new


# ============================================================================ GBM option
class PairGBM(_PairClassifier):
    """Gradient boosting on pairs (``method="gbm"``): not in the thesis, a fast alternative.

    scikit-learn's ``HistGradientBoostingClassifier`` fitted on at most ``per_class`` pairs
    of each class (drawn without replacement) with balanced class weights, so that both
    classes carry the same total weight as in the thesis's 1:1 training.  Constant feature
    columns of that sample are dropped first (``used_features_``).  ``predict_proba``
    returns float64 P(identical) — a boosted score, not a mean of leaf distributions.
    Extra keyword arguments go to the scikit-learn estimator.  Cost O(max_iter · pairs ·
    features) to fit (on binned features), O(pairs · max_iter · depth) to predict.
    """

    _fitted_attr = "model_"

    def __init__(
        self,
        per_class: int = 20_000,
        max_iter: int = 300,
        learning_rate: float = 0.1,
        max_leaf_nodes: int = 31,
        early_stopping: bool | str = "auto",
        n_jobs: int | None = 2,
        seed: Any = None,
        **hgb_kw: Any,
    ):
        self.per_class = check_int(per_class, "per_class", 1, "pairs of each class, e.g. 20000")
        self.max_iter = check_int(max_iter, "max_iter", 1, "boosting iterations, e.g. 300")
        if (
            isinstance(learning_rate, bool)
            or not isinstance(learning_rate, Real)
            or not (learning_rate > 0)
        ):
            raise ConfigError(f"learning_rate = {learning_rate!r}: give a number > 0, e.g. 0.1")
        self.learning_rate = float(learning_rate)
        self.max_leaf_nodes = check_int(
            max_leaf_nodes, "max_leaf_nodes", 2, "leaves per boosting tree, e.g. 31"
        )
        self.early_stopping = early_stopping
        self.n_jobs = _check_jobs(n_jobs)
        self.seed = seed
        self.hgb_kw = hgb_kw

    #: What ``fit`` reports to ``progress``: one unit, the whole fit.
    fit_units = 1

    def fit(self, X: Any, y: Any, progress: ProgressFn | None = None) -> PairGBM:
        """Fit on a per-class-capped sample with balanced class weights; ``progress(1, 1)``
        when done.  Returns self."""
        from sklearn.ensemble import HistGradientBoostingClassifier

        X, y = check_training(X, y)
        rng = secure_generator(self.seed)
        rows = np.sort(np.concatenate([
            c if c.size <= self.per_class else rng.choice(c, self.per_class, replace=False)
            for c in (np.flatnonzero(y == 1), np.flatnonzero(y == 0))
        ]))  # fmt: skip
        Xs = X[rows]
        varies = (Xs != Xs[:1]).any(axis=0)
        self.used_features_ = np.flatnonzero(varies).astype(np.int64)
        if self.used_features_.size == 0:
            self.used_features_ = np.array([0], dtype=np.int64)
        self.model_ = HistGradientBoostingClassifier(
            max_iter=self.max_iter,
            learning_rate=self.learning_rate,
            max_leaf_nodes=self.max_leaf_nodes,
            early_stopping=self.early_stopping,
            class_weight="balanced",
            random_state=int(rng.integers(0, 2**31 - 1)),
            **self.hgb_kw,
        )
        Xu = np.asarray(Xs[:, self.used_features_], dtype=np.float32)
        _with_threads(self.n_jobs, lambda: self.model_.fit(Xu, y[rows]))
        self.n_features_in_ = int(X.shape[1])
        self.n_identical_ = int(y[rows].sum())
        self.n_non_identical_ = int(rows.size - y[rows].sum())
        if progress is not None:
            progress(1, 1)
        return self

    def predict_proba_used(self, X_used: Any) -> np.ndarray:
        """P(identical) from only the columns ``used_features_`` (in that order)."""
        X_used = self._check_used(X_used)
        if X_used.shape[0] == 0:
            return np.empty(0, dtype=np.float64)
        col = int(np.flatnonzero(self.model_.classes_ == 1)[0])
        Xf = np.asarray(X_used, dtype=np.float32)
        p = _with_threads(self.n_jobs, lambda: self.model_.predict_proba(Xf)[:, col])
        return np.asarray(p, dtype=np.float64)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "method": "gbm",
            "per_class": self.per_class,
            "max_iter": self.max_iter,
            "learning_rate": self.learning_rate,
            "max_leaf_nodes": self.max_leaf_nodes,
        }
        if hasattr(self, "model_"):
            d.update(
                self._fitted_summary(),
                iterations=int(self.model_.n_iter_),
            )
        return d


def _with_threads(n: int, fn):
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        return fn()
    with threadpool_limits(limits=n, user_api="openmp"):
        return fn()


# ============================================================================ factory
def make_classifier(method: str = "forest", **kw: Any) -> PairForest | PairGBM:
    """``"forest"``: :class:`PairForest` (the thesis); ``"gbm"``: :class:`PairGBM`."""
    if method == "forest":
        return PairForest(**kw)
    if method == "gbm":
        return PairGBM(**kw)
    raise ConfigError(f"method = {method!r}: give 'forest' (Sharad's forest) or 'gbm'")


@dataclass(frozen=True)
class LeafCheck:
    """For tests/inspection: each tree's leaf index and leaf P(identical) for rows of X."""

    leaves: np.ndarray
    leaf_p: np.ndarray


def leaf_posteriors(forest: PairForest, X: Any) -> LeafCheck:
    """(T, rows) leaf ids and leaf P(identical), from the *original* sklearn trees."""
    forest._check_fitted()
    X = np.ascontiguousarray(_check_predict(X, forest.n_features_in_, "all features"),
                             dtype=np.float32)  # fmt: skip
    leaves = np.stack([e.apply(X) for e in forest.estimators_])
    probs = np.stack([e.predict_proba(X)[:, int(np.flatnonzero(e.classes_ == 1)[0])]
                      for e in forest.estimators_])  # fmt: skip
    return LeafCheck(leaves, probs)


__all__ = [
    "LeafCheck",
    "PairForest",
    "PairGBM",
    "check_training",
    "leaf_posteriors",
    "make_classifier",
]
