"""The learned egonet linker (seed 004 Chapter 3): features, training, evaluation, errors."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.egonet import (
    egonet_node_histograms,
    egonet_release,
    sample_linkage_pairs,
)
from privlab.graph.attacks.egonet_linker import (
    EgonetLinker,
    egonet_pair_features,
    evaluate_linker,
    n_egonet_features,
    train_linker,
)
from privlab.graph.attacks.learned import delta, pair_features, quantize
from privlab.graph.core import Graph


def _preferential_graph(n: int = 300, k: int = 5, seed: int = 0) -> Graph:
    """A small Barabási–Albert-like graph: heterogeneous degrees, overlapping egonets."""
    rng = np.random.default_rng(seed)
    ends: list[int] = []
    edges = []
    for v in range(k, n):
        t: set[int] = set()
        while len(t) < k:
            t.add(int(rng.choice(ends)) if ends and rng.random() < 0.8 else int(rng.integers(v)))
        for u in t:
            edges.append((u, v))
            ends += [u, v]
    return Graph.from_edges(n, np.array(edges))


@pytest.fixture(scope="module")
def release():
    g = _preferential_graph()
    return egonet_release(g, egos=np.arange(1, 300, 5), scheme=1, seed=1)


@pytest.fixture(scope="module")
def pairs(release):
    return sample_linkage_pairs(
        release, n_identical_per_case=20, n_non_identical=30, cases=(1, 2, 3), seed=2
    )


def test_feature_shape_and_layout(release, pairs):
    X = egonet_pair_features(release, pairs)
    assert X.shape == (len(pairs), 70 * 70 + 1) == (len(pairs), n_egonet_features())
    assert X.dtype == np.float32
    assert X.min() >= 0 and X.max() <= 1
    assert np.allclose(X * 20, np.round(X * 20))  # on the τ grid
    X2 = egonet_pair_features(release, pairs, n_bins=21, bin_width=50, codes=True)
    assert X2.shape == (len(pairs), 21 * 21 + 1) and X2.dtype == np.uint8
    # layout: column i·n + j is δ(h_a[i], h_b[j]); the last column is δ(deg_a, deg_b)
    n = 70
    ha, da = egonet_node_histograms(release, pairs.ego_a, pairs.node_a)
    hb, db = egonet_node_histograms(release, pairs.ego_b, pairs.node_b)
    for r in (0, len(pairs) - 1):
        for i, j in ((0, 0), (0, 1), (3, 0), (69, 2)):
            want = quantize(delta(ha[r, i], hb[r, j]))
            assert X[r, i * n + j] == pytest.approx(float(want))
        assert X[r, -1] == pytest.approx(float(quantize(delta(da[r], db[r]))))


def test_features_equal_learned_package(release, pairs):
    X = egonet_pair_features(release, pairs, codes=True)
    ha, da = egonet_node_histograms(release, pairs.ego_a, pairs.node_a)
    hb, db = egonet_node_histograms(release, pairs.ego_b, pairs.node_b)
    zero = np.zeros(len(pairs), dtype=np.int64)
    idx = np.arange(len(pairs))
    direct = pair_features(ha[:, None, :], da, zero, hb[:, None, :], db, zero, idx, idx,
                           codes=True)  # fmt: skip
    assert np.array_equal(X, direct[:, :-1])  # the learned layout adds δ(2-hop count) last
    cols = np.array([5, 4900, 71])
    sub = egonet_pair_features(release, pairs, columns=cols, codes=True)
    assert np.array_equal(sub, X[:, cols])
    # a plain (P × 4) array gives the same features
    assert np.array_equal(egonet_pair_features(release, pairs.as_array(), codes=True), X)


def test_linker_separates_case_1(release):
    train = release.subset(range(30))
    test = release.subset(range(30, 60))
    lk = train_linker(
        train, cases=(1, "complete"), n_identical_per_case=300, n_non_identical=600,
        seed=3, n_trees=40, per_class=150,
    )  # fmt: skip
    assert isinstance(lk, EgonetLinker)
    assert set(lk.classifiers) == {1, "complete"}
    assert lk.training["pairs"]["1-hop"]["non_identical"] == 600
    res = evaluate_linker(lk, test, n_per_case=300, n_non_identical=600, seed=4)
    assert set(res) <= {1, 2, 3, "complete"} and 1 in res
    assert res[1].auc > 0.8
    assert len(res[1].tp_rates) == 5
    assert lk.classifier_for(2) is lk.classifiers["complete"]


def test_linker_gbm_complete(release):
    lk = train_linker(
        release.subset(range(30)), method="gbm", cases="complete", n_identical_per_case=200,
        n_non_identical=300, n_bins=20, bin_width=2, seed=5, max_iter=30,
    )  # fmt: skip
    res = evaluate_linker(lk, release.subset(range(30, 60)), n_per_case=100,
                          n_non_identical=200, cases=(1, "complete"), seed=6)  # fmt: skip
    assert set(res) <= {1, "complete"}
    assert res[1].auc > 0.55  # smoke test of the gbm path; a single "complete" classifier
    assert lk.to_dict()["cases"] == ["complete"]


def test_errors(release, pairs):
    with pytest.raises(InputError, match="pairs: empty"):
        egonet_pair_features(release, np.zeros((0, 4), dtype=np.int64))
    with pytest.raises(InputError, match="pairs"):
        egonet_pair_features(release, np.zeros((3, 2), dtype=np.int64))
    with pytest.raises(ConfigError, match="n_bins"):
        egonet_pair_features(release, pairs, n_bins=0)
    with pytest.raises(ConfigError, match="columns"):
        egonet_pair_features(release, pairs, columns=[4901])
    with pytest.raises(ConfigError, match="cases: unknown case 4"):
        train_linker(release, cases=4)
    with pytest.raises(ConfigError, match="cases: unknown case 'all'"):
        train_linker(release, cases=("all",))
    with pytest.raises(ConfigError, match="method"):
        train_linker(release, method="svm")
    with pytest.raises(ConfigError, match="n_identical_per_case"):
        train_linker(release, n_identical_per_case=0)
    lk = EgonetLinker({1: object()})
    with pytest.raises(ConfigError, match="case = 2"):
        lk.classifier_for(2)
    with pytest.raises(ConfigError, match="linker"):
        evaluate_linker(object(), release)
    with pytest.raises(ConfigError, match="cases: unknown case 0"):
        evaluate_linker(lk, release, cases=0)
    # one egonet: no cross-egonet pair at all
    one = release.subset([0])
    with pytest.raises(InputError, match="no non-identical pair"):
        train_linker(one, cases=1, seed=1)
