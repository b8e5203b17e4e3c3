"""The learned linker across D4D-style egonets (seed 004 Chapter 3, Tables 3.2–3.5).

Source: seed 004 (Sharad, Cambridge TR-896) §2.4 (the three node-pair cases), §2.5 (the
learning formulation: train on a black-box release of a similar graph, no seeds), §2.6 (the
random decision forest and the δ pair feature, Eq. 3.3), §2.7 (Chapter 3's node features:
1-hop neighbour-degree histograms with n = 70 bins of width b = 15, degrees counted *inside
the released egonet*, 1 hop only because "features beyond 1 hop sharply increased false
positives", L961), §2.8 (pairs: only degree > 5 nodes, 400 trees × (600 identical + 600
non-identical) per classifier, separate train and test egonets) and §3.2 (Tables 3.2–3.5:
TP % at FP = 0.01 / 0.1 / 1 / 10 / 25 % per case, self- and cross-validation; Table 3.12:
the n × b sensitivity).  User guide: docs/graph/egonet-linkage.md, "The learned linker".

**Features** (:func:`egonet_pair_features`).  For a pair (local node x of egonet a, local
node y of egonet b): x's and y's n-bin histograms h_x, h_y (:func:`egonet_node_histograms`)
and degrees d_x, d_y inside their egonets.  Feature ``i·n + j`` is δ(h_x[i], h_y[j]) for all
n² cross-bin pairs (i, j) — i ≠ j included — and feature n² is δ(d_x, d_y): n² + 1 = 4 901
features at n = 70.  δ and its quantization to the τ grid {0, 0.05, …, 1} are the learned
package's (:class:`~privlab.graph.attacks.learned.features.PairFeatures`, one histogram
block, the 2-hop count column dropped), so δ is not re-implemented here.

**Training** (:func:`train_linker`).  Identical pairs of each requested case plus one shared
set of non-identical pairs (not split by case, §2.8) are drawn with
:func:`sample_linkage_pairs`; one classifier is trained per entry of ``cases``: case c uses
the identical pairs of case c, ``"complete"`` uses identical pairs drawn uniformly from all
cases; every classifier uses all the non-identical pairs.  *Default*: one classifier per
case and one for "complete" — ``cases=(1, 2, 3, "complete")`` — as Chapter 3 ("per
classifier: 400 trees × (600 identical + 600 non-identical)"); a single ``cases="complete"``
is 4× cheaper and scores every case with the one classifier.  The forest's per-tree
class-balanced bagging draws its 600 + 600 pairs from these pools; the pool defaults (3 000
identical per case, 6 000 non-identical) are a choice — the thesis used all available pairs
(Table 3.8), which the 600 + 600 bagging never needs in full.

**Evaluation** (:func:`evaluate_linker`).  Fresh pairs from the (test) release: up to
``n_per_case`` identical pairs of each case plus ``n_per_case`` drawn from all identical
pairs for "complete", against ``n_non_identical`` shared non-identical pairs; row c of
Tables 3.2–3.5 is the ROC (:func:`roc_summary`) of case c's identical pairs against the
non-identical ones, scored by case c's classifier (or the "complete" one when no case-c
classifier exists).  Scores are P(identical) (§2.6: the thesis's polarity is inconsistent;
higher = more likely identical here).  Cases with no identical test pair are left out of
the result.

Complexity (P pairs, F = n² + 1 features, U ≤ F features used by the trees, T trees):
features O(Σ degrees of the pair nodes + P·F) (1 byte per feature as codes);
training O(pairs + T · S log S · 0.05·F · depth) per classifier with S = 1 200 rows per tree;
scoring O(P · (U + T · depth)), in chunks so memory stays O(chunk · U).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.egonet import (
    CASE_NAMES,
    EgonetRelease,
    LinkagePairs,
    egonet_node_histograms,
    sample_linkage_pairs,
)
from privlab.graph.attacks.learned.features import NodeFeatures, PairFeatures
from privlab.graph.attacks.learned.forest import make_classifier
from privlab.graph.attacks.learned.roc import RocSummary, roc_summary
from privlab.validate import check_int

#: The FP rates of Tables 3.2–3.5 (fractions): 0.01 %, 0.1 %, 1 %, 10 %, 25 %.
CHAPTER3_FP_RATES = (1e-4, 1e-3, 1e-2, 0.1, 0.25)
#: Chapter 3's egonet histogram setting (seed 004 §2.7): n = 70 bins of width b = 15.
CHAPTER3_BINS = (70, 15)
#: Default classifiers: one per case plus "complete" (seed 004 §2.8, Tables 3.2–3.5).
DEFAULT_CASES: tuple[int | str, ...] = (1, 2, 3, "complete")
_SCORE_CHUNK = 4096

Case = int | str


# ============================================================================ features
def _pair_arrays(pairs: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(ego_a, node_a, ego_b, node_b) from LinkagePairs, a (P × ≥4) array or a 4-tuple."""
    if isinstance(pairs, LinkagePairs):
        cols = (pairs.ego_a, pairs.node_a, pairs.ego_b, pairs.node_b)
    else:
        if isinstance(pairs, tuple) and len(pairs) == 4:
            cols = tuple(np.asarray(c).reshape(-1) for c in pairs)
        else:
            arr = np.asarray(pairs)
            if arr.ndim != 2 or arr.shape[1] < 4:
                raise InputError(
                    "pairs: give LinkagePairs, a (pairs × 4) array of ego_a, node_a, ego_b, "
                    f"node_b, or a tuple of those 4 arrays; got shape {arr.shape}"
                )
            cols = tuple(arr[:, k] for k in range(4))
        sizes = {c.size for c in cols}
        if len(sizes) != 1:
            raise InputError(f"pairs: the 4 arrays differ in length ({sorted(sizes)})")
        for name, c in zip(("ego_a", "node_a", "ego_b", "node_b"), cols, strict=True):
            if c.size and c.dtype.kind not in "iu":
                raise InputError(f"pairs: {name} must hold integers, got dtype {c.dtype}")
    out = tuple(np.asarray(c, dtype=np.int64).reshape(-1) for c in cols)
    if out[0].size == 0:
        raise InputError("pairs: empty; give at least one (ego_a, node_a, ego_b, node_b) pair")
    return out  # type: ignore[return-value]


def _pair_table(release: EgonetRelease, pairs: Any, n_bins: int, bin_width: int) -> PairFeatures:
    """A PairFeatures whose node k of 'graph A' is pair k's first node, of 'B' its second."""
    ea, na, eb, nb = _pair_arrays(pairs)
    ha, da = egonet_node_histograms(release, ea, na, n_bins, bin_width)
    hb, db = egonet_node_histograms(release, eb, nb, n_bins, bin_width)
    zero = np.zeros(ea.size, dtype=np.int64)  # no 2-hop count in Chapter 3 (1 hop only)
    fa = NodeFeatures(ha[:, None, :], da, zero, False, ("h1",), n_bins, bin_width)
    fb = NodeFeatures(hb[:, None, :], db, zero, False, ("h1",), n_bins, bin_width)
    return PairFeatures(fa, fb)


def n_egonet_features(n_bins: int = 70) -> int:
    """Number of egonet pair features: n² cross-bin δ's plus δ(degree)."""
    return int(n_bins) ** 2 + 1


def egonet_pair_features(
    release: EgonetRelease,
    pairs: Any,
    *,
    n_bins: int = 70,
    bin_width: int = 15,
    columns: Any = None,
    codes: bool = False,
) -> np.ndarray:
    """Chapter 3's 1-hop pair features of node pairs across the egonets of ``release``.

    Seed 004 §2.6 (δ, Eq. 3.3, all n² cross-bin pairs) and §2.7 (n = 70, b = 15, degrees
    inside the released egonet, 1 hop only).  ``pairs``: :class:`LinkagePairs`, a (P × 4)
    array of (ego_a, node_a, ego_b, node_b) — egonet indices and local node ids — or a tuple
    of those 4 arrays.  Returns a (P × (n² + 1)) array: column ``i·n_bins + j`` is
    δ(h_a[i], h_b[j]), column n² is δ(deg_a, deg_b), each quantized to the τ grid (float32
    q ∈ {0, 0.05, …, 1}; with ``codes=True`` uint8 c = 20·q), computed by the learned
    package's :class:`PairFeatures`.  ``columns`` selects feature columns (e.g. a fitted
    classifier's ``used_features_``).  Table 3.12's alternatives: (n_bins, bin_width) =
    (21, 50), (35, 30), (105, 10).

    InputError for empty or malformed pairs or nodes outside their egonets; ConfigError for
    bad n_bins/bin_width or columns.  O(Σ degrees of the pair nodes + P · columns).
    """
    n_bins, bin_width = _check_bins(n_bins, bin_width)
    pf = _pair_table(release, pairs, n_bins, bin_width)
    idx = np.arange(pf.a.n_nodes)
    return pf.transform(idx, idx, columns=_columns(columns, n_bins), codes=codes)


def _columns(columns: Any, n_bins: int) -> np.ndarray:
    nf = n_egonet_features(n_bins)
    if columns is None:
        return np.arange(nf, dtype=np.int64)
    c = np.asarray(columns)
    if c.size and c.dtype.kind not in "iu":
        raise ConfigError(f"columns: give integer feature indices, got dtype {c.dtype}")
    c = c.astype(np.int64).reshape(-1)
    if c.size and (c.min() < 0 or c.max() >= nf):
        bad = int(np.argmax((c < 0) | (c >= nf)))
        raise ConfigError(f"columns[{bad}] = {int(c[bad])} is not a feature 0..{nf - 1}")
    return c


# ============================================================================ the linker
@dataclass(eq=False)
class EgonetLinker:
    """Trained pair classifiers for egonet linkage, one per case (seed 004 §2.8).

    ``classifiers`` maps a case (1, 2, 3 or ``"complete"``) to a fitted PairForest/PairGBM
    over the :func:`egonet_pair_features` layout (uint8 codes); ``training`` records the
    pair counts, sampler settings and fit seconds.
    """

    classifiers: dict[Case, Any]
    n_bins: int = 70
    bin_width: int = 15
    min_degree: int = 5
    method: str = "forest"
    training: dict[str, Any] = field(default_factory=dict)

    def classifier_for(self, case: Case) -> Any:
        """The classifier that scores ``case``: its own, else the "complete" one."""
        _check_case(case, "case")
        if case in self.classifiers:
            return self.classifiers[case]
        if "complete" in self.classifiers:
            return self.classifiers["complete"]
        raise ConfigError(
            f"case = {case!r}: this linker has classifiers for {list(self.classifiers)} only; "
            "train with that case or with 'complete'"
        )

    def score(self, release: EgonetRelease, pairs: Any, *, case: Case = "complete") -> np.ndarray:
        """P(identical) of ``pairs`` by the classifier for ``case``, float64.

        Computes only the feature columns that classifier uses, in chunks of 4 096 pairs.
        O(P · (used features + trees · depth)).
        """
        clf = self.classifier_for(case)
        pf = _pair_table(release, pairs, self.n_bins, self.bin_width)
        return _scores(clf, pf, np.arange(pf.a.n_nodes))

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "n_bins": self.n_bins,
            "bin_width": self.bin_width,
            "min_degree": self.min_degree,
            "cases": [str(c) for c in self.classifiers],
            "classifiers": {str(c): clf.to_dict() for c, clf in self.classifiers.items()},
            "training": dict(self.training),
        }


def train_linker(
    release: EgonetRelease,
    *,
    method: str = "forest",
    cases: Case | Sequence[Case] = DEFAULT_CASES,
    n_identical_per_case: int = 3000,
    n_non_identical: int = 6000,
    min_degree: int = 5,
    n_bins: int = 70,
    bin_width: int = 15,
    seed: Any = None,
    **classifier_kw: Any,
) -> EgonetLinker:
    """Train Chapter 3's egonet linker on a (training) release.

    Seed 004 §2.5 (train on a release of a similar graph), §2.6 (the forest: defaults T =
    400, 600 + 600 pairs per tree — pass ``n_trees``/``per_class`` etc. in
    ``classifier_kw`` to :func:`make_classifier`), §2.7 (features, :func:`egonet_pair_features`)
    and §2.8 (degree > ``min_degree`` nodes only; one classifier per case).  ``cases``: one
    of 1, 2, 3, ``"complete"`` or a sequence of them (default: all four, the thesis's one
    classifier per table row); case c trains on up to ``n_identical_per_case`` identical
    pairs of case c, ``"complete"`` on as many drawn from all identical pairs, each against
    all ``n_non_identical`` shared non-identical pairs.

    ConfigError for an unknown case or method, bad counts or bins; InputError when the
    release has no identical pair of a requested case or no non-identical pair (the message
    names the case).  O(sampling + P·F features + fits), see the module docstring.
    """
    case_list = _check_cases(cases)
    n_bins, bin_width = _check_bins(n_bins, bin_width)
    n_id = _check_count(n_identical_per_case, "n_identical_per_case")
    n_non = _check_count(n_non_identical, "n_non_identical")
    if method not in ("forest", "gbm"):
        raise ConfigError(f"method = {method!r}: give 'forest' (Sharad's forest) or 'gbm'")
    rng = secure_generator(seed)
    t0 = time.perf_counter()
    pairs = _draw(release, case_list, n_id, n_non, min_degree, rng)
    t_sample = time.perf_counter() - t0
    neg = np.flatnonzero(pairs.label == 0)
    if neg.size == 0:
        raise InputError(
            "the training release has no non-identical pair of degree > "
            f"{min_degree} nodes; release more or larger egonets"
        )
    positives = {c: _identical_rows(pairs, c) for c in case_list}
    for c, pos in positives.items():
        if pos.size == 0:
            raise InputError(
                f"cases: the training release has no identical pair of case {_name(c)!r} "
                f"(degree > {min_degree}); drop that case or release more egonets"
            )
    X = egonet_pair_features(
        release, pairs, n_bins=n_bins, bin_width=bin_width, codes=True
    )  # all training rows at once: (P × F) uint8
    t_feat = time.perf_counter() - t0 - t_sample
    classifiers: dict[Case, Any] = {}
    counts: dict[str, dict[str, int]] = {}
    fit_seconds: dict[str, float] = {}
    for c in case_list:
        pos = positives[c]
        rows = np.concatenate([pos, neg])
        kw = dict(classifier_kw)
        kw.setdefault("seed", int(rng.integers(0, 2**63 - 1)))
        clf = make_classifier(method, **kw)
        t1 = time.perf_counter()
        clf.fit(X[rows], pairs.label[rows])
        fit_seconds[_name(c)] = time.perf_counter() - t1
        classifiers[c] = clf
        counts[_name(c)] = {"identical": int(pos.size), "non_identical": int(neg.size)}
    training = {
        "pairs": counts,
        "available": dict(pairs.available),
        "egonets": release.n_egonets,
        "scheme": release.scheme,
        "n_features": int(X.shape[1]),
        "sample_seconds": t_sample,
        "feature_seconds": t_feat,
        "fit_seconds": fit_seconds,
        "total_seconds": time.perf_counter() - t0,
        "insecure_seed": is_insecure_seed(seed),
    }
    return EgonetLinker(classifiers, n_bins, bin_width, min_degree, method, training)


def evaluate_linker(
    linker: EgonetLinker,
    release: EgonetRelease,
    *,
    n_per_case: int = 10_000,
    n_non_identical: int = 10_000,
    cases: Case | Sequence[Case] = DEFAULT_CASES,
    fp_rates: Sequence[float] = CHAPTER3_FP_RATES,
    seed: Any = None,
) -> dict[Case, RocSummary]:
    """Tables 3.2–3.5 rows: per case, ROC of its identical pairs vs shared non-identical ones.

    Seed 004 §3.2: test egonets separate from the training ones (pass a disjoint release,
    or a release of another graph for cross-validation); up to ``n_per_case`` identical
    pairs per case (Table 3.8: 10 000) and ``n_non_identical`` non-identical pairs, nodes of
    degree > the linker's ``min_degree``.  Returns ``{case: RocSummary}`` with TP rates at
    ``fp_rates`` (default 0.01/0.1/1/10/25 %) — case c scored by
    ``linker.classifier_for(c)``; a case with no identical test pair is omitted.

    ConfigError for an unknown case or bad counts; InputError when the release has no
    non-identical test pair.  O(sampling + P · (used features + trees · depth)).
    """
    if not isinstance(linker, EgonetLinker):
        raise ConfigError(f"linker: give an EgonetLinker from train_linker, not {linker!r}")
    case_list = _check_cases(cases)
    n_id = _check_count(n_per_case, "n_per_case")
    n_non = _check_count(n_non_identical, "n_non_identical")
    rng = secure_generator(seed)
    pairs = _draw(release, case_list, n_id, n_non, linker.min_degree, rng)
    neg = np.flatnonzero(pairs.label == 0)
    if neg.size == 0:
        raise InputError(
            f"the test release has no non-identical pair of degree > {linker.min_degree} "
            "nodes; release more or larger egonets"
        )
    pf = _pair_table(release, pairs, linker.n_bins, linker.bin_width)  # once for all cases
    neg_scores: dict[int, np.ndarray] = {}
    out: dict[Case, RocSummary] = {}
    for c in case_list:
        pos = _identical_rows(pairs, c)
        if pos.size == 0:
            continue
        clf = linker.classifier_for(c)
        key = id(clf)
        if key not in neg_scores:
            neg_scores[key] = _scores(clf, pf, neg)
        s_pos = _scores(clf, pf, pos)
        scores = np.concatenate([s_pos, neg_scores[key]])
        y = np.r_[np.ones(pos.size, np.int8), np.zeros(neg.size, np.int8)]
        out[c] = roc_summary(scores, y, fp_rates)
    return out


# ============================================================================ helpers
def _scores(clf: Any, pf: PairFeatures, rows: np.ndarray) -> np.ndarray:
    """P(identical) of the pairs ``rows`` of a :func:`_pair_table` by ``clf``, float64.

    Only the feature columns ``clf`` uses are computed, ``_SCORE_CHUNK`` pairs at a time.
    """
    out = np.empty(rows.size, dtype=np.float64)
    for sl, X in pf.iter_chunks(rows, rows, chunk_size=_SCORE_CHUNK,
                                columns=clf.used_features_, codes=True):  # fmt: skip
        out[sl] = clf.predict_proba_used(X)
    return out


def _draw(release, case_list, n_id, n_non, min_degree, rng) -> LinkagePairs:
    """Identical pairs of the int cases + shared non-identical pairs, then (if asked) the
    "complete" identical pairs; "complete" identical rows get case −1 to keep them apart."""
    ints = [c for c in case_list if c != "complete"]
    p = sample_linkage_pairs(
        release, n_identical_per_case=n_id if ints else 0, n_non_identical=n_non,
        min_degree=min_degree, cases=ints or (1,), seed=rng,
    )  # fmt: skip
    if not ints:
        p.available.pop("1-hop", None)  # only the shared non-identical pairs were asked for
    if "complete" not in case_list:
        return p
    q = sample_linkage_pairs(
        release, n_identical_per_case=n_id, n_non_identical=0, min_degree=min_degree,
        cases="complete", seed=rng,
    )  # fmt: skip
    avail = dict(p.available)
    avail["complete"] = q.available.get("complete", 0)
    case_q = np.full(len(q), -1, dtype=np.int8)
    cat = [np.concatenate([getattr(p, k), getattr(q, k)]) for k in
           ("ego_a", "node_a", "ego_b", "node_b", "label")]  # fmt: skip
    hop_a = np.concatenate([p.hop_a, q.hop_a])
    hop_b = np.concatenate([p.hop_b, q.hop_b])
    return LinkagePairs(
        *cat, np.concatenate([p.case, case_q]), hop_a, hop_b, avail, {}, dict(p.parameters)
    )


def _identical_rows(pairs: LinkagePairs, case: Case) -> np.ndarray:
    code = -1 if case == "complete" else int(case)
    return np.flatnonzero((pairs.label == 1) & (pairs.case == code))


def _name(case: Case) -> str:
    return "complete" if case == "complete" else CASE_NAMES[int(case)]


def _check_case(case: Any, name: str) -> Case:
    if case == "complete" and isinstance(case, str):
        return case
    if isinstance(case, bool) or not isinstance(case, Integral) or case not in (1, 2, 3):
        raise ConfigError(
            f"{name}: unknown case {case!r}; give 1 ('1-hop'), 2 ('1,2-hop'), 3 ('2-hop') "
            "or 'complete'"
        )
    return int(case)


def _check_cases(cases: Any) -> list[Case]:
    if isinstance(cases, (str, Integral)):
        return [_check_case(cases, "cases")]
    try:
        items = list(cases)
    except TypeError:
        raise ConfigError(f"cases = {cases!r}: give 1, 2, 3, 'complete' or a list") from None
    if not items:
        raise ConfigError("cases: empty; give at least one of 1, 2, 3, 'complete'")
    return list(dict.fromkeys(_check_case(c, "cases") for c in items))


def _check_count(value: Any, name: str) -> int:
    return check_int(value, name, 1, "a number of pairs")


def _check_bins(n_bins: Any, bin_width: Any) -> tuple[int, int]:
    return (
        check_int(n_bins, "n_bins", 1, "Chapter 3: 70"),
        check_int(bin_width, "bin_width", 1, "Chapter 3: 15"),
    )


__all__ = [
    "CHAPTER3_BINS",
    "CHAPTER3_FP_RATES",
    "DEFAULT_CASES",
    "EgonetLinker",
    "egonet_pair_features",
    "evaluate_linker",
    "n_egonet_features",
    "train_linker",
]
