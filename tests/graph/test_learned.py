"""Sharad's learned de-anonymization (seed 004 §2.6–2.10): features, forest, training, ROC."""

from __future__ import annotations

import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.learned import (
    PairFeatures,
    PairForest,
    PairScorer,
    degree_histograms,
    delta,
    delta_codes,
    directed_histograms,
    evaluation_pairs,
    histogram,
    iter_pair_features,
    make_classifier,
    node_features,
    pair_features,
    quantize,
    roc_summary,
    split_training_pairs,
    train_scorer,
)
from privlab.graph.attacks.learned.forest import leaf_posteriors
from privlab.graph.core import Graph
from privlab.graph.pairs import sample_pair


# ============================================================================ references
def bfs_histograms(g: Graph, n_bins: int, bin_width: int, blocks) -> np.ndarray:
    """Reference: networkx BFS distances, then the seed's bin formula by hand."""
    G = g.to_networkx()
    deg = dict(G.degree())
    out = np.zeros((g.n_nodes, len(blocks), n_bins), dtype=np.int64)
    for v in range(g.n_nodes):
        for w, d in nx.single_source_shortest_path_length(G, v, cutoff=max(blocks)).items():
            if d in blocks:
                b = min(max(math.ceil(deg[w] / bin_width) - 1, 0), n_bins - 1)
                out[v, blocks.index(d), b] += 1
    return out


def directed_reference(n, src, dst, n_bins, bin_width):
    succ = [set() for _ in range(n)]
    pred = [set() for _ in range(n)]
    for a, b in zip(src, dst, strict=True):
        succ[a].add(b)
        pred[b].add(a)
    ind = [len(p) for p in pred]
    outd = [len(s) for s in succ]

    def bin_of(d):
        return min(max(math.ceil(d / bin_width) - 1, 0), n_bins - 1)

    out = np.zeros((n, 12, n_bins), dtype=np.int64)
    for v in range(n):
        near = succ[v] | pred[v] | {v}
        cats = [succ[v], pred[v]]
        # succ-of-succ, succ-of-pred, pred-of-succ, pred-of-pred
        for first, second in ((succ, succ), (pred, succ), (succ, pred), (pred, pred)):
            reach = set()
            for w in first[v]:
                reach |= second[w]
            cats.append(reach - near)
        for k, members in enumerate(cats):
            for w in members:
                out[v, 2 * k, bin_of(ind[w])] += 1
                out[v, 2 * k + 1, bin_of(outd[w])] += 1
    return out


graphs = st.builds(
    lambda n, p, s: Graph.from_networkx(nx.gnp_random_graph(n, p, seed=s)),
    st.integers(1, 30),
    st.floats(0.0, 0.4),
    st.integers(0, 10_000),
)


# ============================================================================ histograms
@settings(max_examples=40, deadline=None)
@given(g=graphs, n_bins=st.integers(1, 5), bin_width=st.integers(1, 4))
def test_histograms_match_bfs_reference(g, n_bins, bin_width):
    for blocks in ((1, 2), (2, 3)):
        # tiny chunk_work / mark_bytes force many row blocks and sub-blocks
        got = degree_histograms(g, n_bins=n_bins, bin_width=bin_width, blocks=blocks,
                                chunk_work=5, mark_bytes=64, n_jobs=2)  # fmt: skip
        assert got.dtype == np.int32
        assert got.shape == (g.n_nodes, 2, n_bins)
        np.testing.assert_array_equal(got, bfs_histograms(g, n_bins, bin_width, blocks))
    default = degree_histograms(g, n_bins=n_bins, bin_width=bin_width)
    np.testing.assert_array_equal(
        default, degree_histograms(g, n_bins=n_bins, bin_width=bin_width, hops=2)
    )


def test_node_features_counts():
    g = Graph.from_networkx(nx.karate_club_graph())
    nf = node_features(g, n_bins=4, bin_width=5)
    np.testing.assert_array_equal(nf.hop1, g.degrees())
    np.testing.assert_array_equal(nf.hist[:, 0].sum(axis=1), g.degrees())
    G = g.to_networkx()
    two = [sum(1 for d in nx.single_source_shortest_path_length(G, v, 2).values() if d == 2)
           for v in range(g.n_nodes)]  # fmt: skip
    np.testing.assert_array_equal(nf.hop2, two)
    # blocks (2, 3) still report the 2-hop count
    np.testing.assert_array_equal(node_features(g, blocks=(2, 3)).hop2, two)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 20), p=st.floats(0.0, 0.4), s=st.integers(0, 10_000))
def test_directed_histograms_match_reference(n, p, s):
    G = nx.gnp_random_graph(n, p, seed=s, directed=True)
    e = np.array(list(G.edges()), dtype=np.int64).reshape(-1, 2)
    ref = directed_reference(n, e[:, 0], e[:, 1], 3, 2)
    got = directed_histograms(n, e[:, 0], e[:, 1], n_bins=3, bin_width=2)
    assert got.shape == (n, 12, 3)
    np.testing.assert_array_equal(got, ref)
    small = directed_histograms(n, e[:, 0], e[:, 1], n_bins=3, bin_width=2, chunk_work=3,
                                mark_bytes=40, n_jobs=2)  # fmt: skip
    np.testing.assert_array_equal(small, ref)


def test_directed_symmetric_equals_undirected():
    g = Graph.from_networkx(nx.gnp_random_graph(40, 0.12, seed=3))
    e = g.edges()
    src = np.concatenate([e[:, 0], e[:, 1]])
    dst = np.concatenate([e[:, 1], e[:, 0]])
    d = directed_histograms(g.n_nodes, src, dst, n_bins=5, bin_width=2)
    u = degree_histograms(g, n_bins=5, bin_width=2)
    for k in range(2):  # succ, pred (in/out degree = degree) = 1-hop
        np.testing.assert_array_equal(d[:, k], u[:, 0])
    for k in range(4, 12):  # the 2-step blocks = the 2-hop block
        np.testing.assert_array_equal(d[:, k], u[:, 1])
    dg = Graph.from_edges(g.n_nodes, np.stack([src, dst], 1), directed=True)
    nf = node_features(dg, n_bins=5, bin_width=2)
    np.testing.assert_array_equal(nf.hist, d)
    np.testing.assert_array_equal(nf.hop1, g.degrees())
    np.testing.assert_array_equal(nf.hop2, node_features(g).hop2)


def test_seed_worked_example_follows_the_formula():
    degrees = [1, 1, 3, 3, 5, 6, 7, 13, 16, 20, 21, 30, 65, 69, 72, 1030, 1100]
    v = histogram(degrees, n_bins=70, bin_width=15)
    expected = np.zeros(70, dtype=np.int32)
    expected[:5] = (8, 4, 0, 0, 3)
    # The seed prints (…, 0, 2): the formula puts 1030 in bin 68 (1020 < 1030 ≤ 1035).
    expected[68] = expected[69] = 1
    np.testing.assert_array_equal(v, expected)


# ============================================================================ δ and codes
def test_delta_formula():
    np.testing.assert_allclose(delta([0, 3, 4, 0, 5], [0, 3, 2, 7, 0]), [0, 0, 0.5, 1, 1])


@settings(max_examples=200, deadline=None)
@given(x=st.integers(0, 3_000_000), y=st.integers(0, 3_000_000))
def test_codes_are_the_grid_split(x, y):
    exact = Fraction(0) if x == y == 0 else Fraction(abs(x - y), max(x, y))
    code = int(delta_codes(np.array([x]), np.array([y]))[0])
    q = float(quantize(delta(x, y)))
    assert code == math.ceil(20 * exact)
    assert q == code / 20
    for k in range(21):  # δ ≤ τ  ⇔  code ≤ 20τ  ⇔  q ≤ τ, for every grid τ = k/20
        assert (exact <= Fraction(k, 20)) == (code <= k) == (q <= k / 20)


def test_codes_on_float32_and_float64_paths_agree():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 1000, 5000)
    y = rng.integers(0, 1000, 5000)
    small = delta_codes(x, y)
    big = delta_codes(np.append(x, 1 << 20), np.append(y, 0))[:-1]  # forces float64
    np.testing.assert_array_equal(small, big)
    np.testing.assert_array_equal(small, np.rint(quantize(delta(x, y)) * 20))


def test_pair_features_layout():
    rng = np.random.default_rng(1)
    n_a, n_b, blocks, bins = 7, 9, 2, 4
    ha = rng.integers(0, 6, (n_a, blocks, bins))
    hb = rng.integers(0, 6, (n_b, blocks, bins))
    da, db = rng.integers(0, 9, n_a), rng.integers(0, 9, n_b)
    ta, tb = rng.integers(0, 30, n_a), rng.integers(0, 30, n_b)
    u = rng.integers(0, n_a, 50)
    v = rng.integers(0, n_b, 50)
    X = pair_features(ha, da, ta, hb, db, tb, u, v)
    assert X.dtype == np.float32 and X.shape == (50, blocks * bins**2 + 2)
    for b in range(blocks):
        for i in range(bins):
            for j in range(bins):
                col = b * bins**2 + i * bins + j
                ref = quantize(delta(ha[u, b, i], hb[v, b, j])).astype(np.float32)
                np.testing.assert_array_equal(X[:, col], ref)
    np.testing.assert_array_equal(X[:, -2], quantize(delta(da[u], db[v])).astype(np.float32))
    np.testing.assert_array_equal(X[:, -1], quantize(delta(ta[u], tb[v])).astype(np.float32))
    cols = [33, 0, 5, 17]
    np.testing.assert_array_equal(pair_features(ha, da, ta, hb, db, tb, u, v, columns=cols),
                                  X[:, cols])  # fmt: skip
    codes = pair_features(ha, da, ta, hb, db, tb, u, v, codes=True)
    assert codes.dtype == np.uint8
    np.testing.assert_array_equal(codes, np.rint(X * 20))
    parts = list(iter_pair_features(ha, da, ta, hb, db, tb, u, v, chunk_size=7))
    assert [sl.start for sl, _ in parts] == list(range(0, 50, 7))
    np.testing.assert_array_equal(np.concatenate([x for _, x in parts]), X)


def test_chapter4_feature_count():
    g = Graph.from_networkx(nx.karate_club_graph())
    nf = node_features(g)
    assert PairFeatures(nf, nf).n_features == 2 * 21**2 + 2 == 884


# ============================================================================ forest
def _easy_data(n_pos=300, n_neg=3000, n_feat=40, seed=0):
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, np.int8), np.zeros(n_neg, np.int8)]
    X = rng.integers(0, 21, (y.size, n_feat)).astype(np.float32) / 20
    X[:, 3] = np.where(y == 1, rng.integers(0, 8, y.size), rng.integers(5, 21, y.size)) / 20
    return X, y


def test_tree_samples_are_class_balanced():
    y = np.r_[np.ones(1000, np.int8), np.zeros(5000, np.int8)]
    f = PairForest(n_trees=20, per_class=100)
    for rows in f.tree_samples(y, np.random.default_rng(0)):
        assert rows.size == np.unique(rows).size == 200
        assert y[rows].sum() == 100
    y_few = np.r_[np.ones(50, np.int8), np.zeros(5000, np.int8)]
    for rows in f.tree_samples(y_few, np.random.default_rng(0)):  # fewer than per_class
        assert y_few[rows].sum() == 50 and rows.size == 150


def test_forest_trees_follow_the_thesis_settings():
    X, y = _easy_data()
    f = PairForest(n_trees=12, per_class=120, seed=1).fit(X, y)
    assert len(f.estimators_) == 12
    for est in f.estimators_:
        t = est.tree_
        assert t.n_node_samples[0] == 240
        np.testing.assert_allclose(t.value[0, 0], [0.5, 0.5])  # balanced root
        assert est.min_samples_split == 24  # ⌈10 % of 240⌉
        assert est.max_features_ == 2  # 5 % of 40 features
        split = t.children_left != -1
        assert (t.n_node_samples[split] >= 24).all()
        # on quantized features every learned split "q ≤ θ" is a grid split "δ ≤ τ" on the
        # raw δ (the thesis's threshold search, §2.6): τ = the largest grid value ≤ θ
        raw = np.random.default_rng(0).random(2000)
        raw[:21] = np.arange(21) / 20  # the grid points themselves
        q = quantize(raw).astype(np.float32)
        grid32 = (np.arange(21) / 20).astype(np.float32)
        for theta in t.threshold[split]:
            assert 0 <= theta < 1
            tau = np.flatnonzero(grid32 <= theta).max() / 20
            np.testing.assert_array_equal(q <= theta, raw <= tau + 1e-12)


def test_posterior_is_mean_of_leaf_distributions():
    X, y = _easy_data(seed=2)
    f = PairForest(n_trees=7, per_class=80, seed=3, n_jobs=1).fit(X, y)
    Xt = X[::11]
    manual = np.zeros(Xt.shape[0])
    for est in f.estimators_:  # Eq. 3.2 by hand, from the leaves' class counts
        leaves = est.apply(Xt)
        counts = est.tree_.value[leaves, 0, :] * est.tree_.weighted_n_node_samples[leaves, None]
        manual += counts[:, 1] / counts.sum(axis=1)
    manual /= 7
    np.testing.assert_allclose(f.predict_proba(Xt), manual, rtol=1e-12)
    np.testing.assert_allclose(leaf_posteriors(f, Xt).leaf_p.mean(axis=0), manual, rtol=1e-12)
    np.testing.assert_allclose(f.predict_proba_used(Xt[:, f.used_features_]), manual,
                               rtol=1e-12)  # fmt: skip


def test_forest_is_reproducible_and_separates():
    X, y = _easy_data(seed=4)
    a = PairForest(n_trees=30, per_class=100, seed=9).fit(X, y).predict_proba(X)
    b = PairForest(n_trees=30, per_class=100, seed=9, n_jobs=1).fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(a, b)
    assert roc_summary(a, y).auc > 0.9


def test_gbm_option():
    X, y = _easy_data(seed=5)
    m = make_classifier("gbm", max_iter=30, seed=0).fit(X, y)
    p = m.predict_proba(X)
    assert p.dtype == np.float64 and ((p >= 0) & (p <= 1)).all()
    assert roc_summary(p, y).auc > 0.9


# ============================================================================ training
@pytest.fixture(scope="module")
def ba_graph():
    return Graph.from_networkx(nx.barabasi_albert_graph(700, 8, seed=11))


def test_split_training_pairs_labels_and_degrees(ba_graph):
    tp = split_training_pairs(ba_graph, alpha_v=0.5, alpha_e=0.75, n_identical=100,
                              n_non_identical=500, min_degree=5, seed=1)  # fmt: skip
    truth = tp.split.truth_array()
    assert tp.n_identical == 100 and tp.n_non_identical == 500
    assert (truth[tp.u[tp.y == 1]] == tp.v[tp.y == 1]).all()
    assert (truth[tp.u[tp.y == 0]] != tp.v[tp.y == 0]).all()
    assert (tp.graph_a.degrees()[tp.u] > 5).all() and (tp.graph_b.degrees()[tp.v] > 5).all()
    keys = tp.u * tp.graph_b.n_nodes + tp.v
    assert np.unique(keys).size == keys.size
    band = split_training_pairs(ba_graph, alpha_v=0.5, alpha_e=0.75, n_identical=10**6,
                                n_non_identical=50, degree_range=(9, 20), seed=2)  # fmt: skip
    da, db = band.graph_a.degrees()[band.u], band.graph_b.degrees()[band.v]
    assert ((da > 9) & (da <= 20) & (db > 9) & (db <= 20)).all()
    assert band.n_identical == band.parameters["eligible_identical"]  # all of them


def test_train_scorer_separates_an_easy_pair():
    # no edge noise and a large node overlap: identical nodes have near-identical features
    g = Graph.from_networkx(nx.powerlaw_cluster_graph(700, 6, 0.3, seed=11))
    pair = sample_pair(g, 0.8, 1.0, seed=5)
    scorer = train_scorer(pair.aux, pair.san, alpha_v=0.8, alpha_e=1.0, n_bins=10,
                          bin_width=10, n_identical=600, n_non_identical=4000,
                          n_trees=60, per_class=200, seed=6)  # fmt: skip
    assert isinstance(scorer, PairScorer)
    da, ds = pair.aux.degrees(), pair.san.degrees()
    ok = (da[pair.truth_aux] > 5) & (ds[pair.truth_san] > 5)
    rng = np.random.default_rng(0)
    nu = np.flatnonzero(da > 5)[rng.integers(0, (da > 5).sum(), 5000)]
    nv = np.flatnonzero(ds > 5)[rng.integers(0, (ds > 5).sum(), 5000)]
    keep = pair.truth_array()[nu] != nv
    u = np.concatenate([pair.truth_aux[ok], nu[keep]])
    v = np.concatenate([pair.truth_san[ok], nv[keep]])
    y = np.r_[np.ones(ok.sum()), np.zeros(keep.sum())]
    f = scorer.bind(pair.aux, pair.san)
    p = f(u, v)
    assert p.shape == u.shape and ((p >= 0) & (p <= 1)).all()
    assert roc_summary(p, y).auc > 0.9
    # the compact path equals the full-feature path
    X = scorer.pair_features(pair.aux, pair.san).transform(u[:300], v[:300], codes=True)
    np.testing.assert_allclose(scorer.classifier.predict_proba(X), p[:300], rtol=1e-12)
    # node features are cached per graph object; empty input gives empty output
    assert scorer.node_features(pair.aux) is scorer.node_features(pair.aux)
    assert f(np.empty(0, np.int64), np.empty(0, np.int64)).shape == (0,)
    with pytest.raises(InputError, match=r"u\[1\] = 100000"):
        f(np.array([0, 100_000]), np.array([0, 1]))


def test_train_scorer_pools_several_splits_of_each_release():
    g = Graph.from_networkx(nx.powerlaw_cluster_graph(400, 6, 0.3, seed=3))
    pair = sample_pair(g, 0.8, 0.9, seed=2)
    kw = dict(alpha_v=0.8, alpha_e=0.9, n_bins=8, bin_width=10, n_identical=400,
              n_non_identical=2000, n_trees=10, per_class=50, seed=4)  # fmt: skip
    one = train_scorer(pair.aux, pair.san, **kw).training
    three = train_scorer(pair.aux, pair.san, n_splits=3, **kw).training
    assert one["n_splits"] == 1 and len(one["splits"]) == 2  # aux and san, once each
    assert three["n_splits"] == 3 and len(three["splits"]) == 6
    # a single split caps the identical pairs at the common nodes; three splits find more
    assert three["n_identical"] > one["n_identical"]
    with pytest.raises(ConfigError, match="n_splits"):
        train_scorer(pair.aux, pair.san, n_splits=0, **kw)


# ============================================================================ ROC
def test_roc_summary_by_hand():
    # ranked: 0.9 P, 0.85 N, 0.8 P, 0.5 N, 0.4 P, 0.2 N, 0.1 N
    scores = [0.9, 0.8, 0.4, 0.85, 0.5, 0.2, 0.1]
    y = [1, 1, 1, 0, 0, 0, 0]
    r = roc_summary(scores, y, fp_rates=(0.0, 0.25, 0.49, 0.5, 1.0))
    assert r.auc == pytest.approx(9 / 12)
    # FP allowed: 0, 1, 1 (⌊0.49·4⌋), 2, 4 negatives
    assert r.tp_rates == pytest.approx((1 / 3, 2 / 3, 2 / 3, 1.0, 1.0))
    assert r.thresholds == pytest.approx((0.9, 0.8, 0.8, 0.4, 0.4))
    assert r.n_positive == 3 and r.n_negative == 4
    d = r.to_dict()
    assert d["tp_at_fp"]["25%"] == pytest.approx(2 / 3)
    assert r.tp_at(0.5) == 1.0
    assert r.table("x").startswith("| x | 0.750 | 33.33 | 66.67 | 66.67 | 100.00 |")
    assert r.table_header().splitlines()[0].count("|") == r.table("x").count("|")
    assert r.curve_fpr[0] == 0 and r.curve_fpr[-1] == 1 and r.curve_tpr[-1] == 1
    assert (np.diff(r.curve_fpr) >= 0).all() and (np.diff(r.curve_tpr) >= 0).all()


def test_roc_ties_are_not_split():
    # a tie between a positive and a negative cannot be half-accepted
    r = roc_summary([0.5, 0.5, 0.1], [1, 0, 0], fp_rates=(0.0, 0.5))
    assert r.tp_rates == (0.0, 1.0)
    assert r.auc == pytest.approx(0.75)


# ============================================================================ errors
def test_errors_name_the_parameter():
    g = Graph.from_networkx(nx.karate_club_graph())
    with pytest.raises(ConfigError, match="n_bins"):
        degree_histograms(g, n_bins=0)
    with pytest.raises(ConfigError, match="bin_width"):
        degree_histograms(g, bin_width=0)
    with pytest.raises(ConfigError, match="blocks"):
        degree_histograms(g, blocks=(2, 1))
    with pytest.raises(InputError, match="directed_histograms"):
        degree_histograms(Graph.from_edges(3, [(0, 1)], directed=True))
    with pytest.raises(InputError, match=r"dst\[1\] = 9"):
        directed_histograms(3, [0, 1], [1, 9])
    with pytest.raises(ConfigError, match="feature_fraction"):
        PairForest(feature_fraction=0)
    with pytest.raises(ConfigError, match="feature_fraction"):
        PairForest(feature_fraction=1.5)
    with pytest.raises(ConfigError, match="per_class"):
        PairForest(per_class=0)
    with pytest.raises(ConfigError, match="method"):
        make_classifier("svm")
    X = np.zeros((4, 3), np.float32)
    with pytest.raises(InputError, match=r"y\[2\] = 2"):
        PairForest().fit(X, [0, 1, 2, 0])
    with pytest.raises(InputError, match="both classes"):
        PairForest().fit(X, [1, 1, 1, 1])
    with pytest.raises(InputError, match="empty"):
        PairForest().fit(np.zeros((0, 3)), [])
    with pytest.raises(ConfigError, match="not fitted"):
        PairForest().predict_proba(X)
    nf = node_features(g)
    with pytest.raises(InputError, match=r"v\[0\] = 34 is not a node"):
        PairFeatures(nf, nf).transform([0], [34])
    with pytest.raises(InputError, match="both classes"):
        roc_summary([0.1, 0.2], [1, 1])
    with pytest.raises(ConfigError, match="fp_rates"):
        roc_summary([0.1, 0.2], [1, 0], fp_rates=(2.0,))
    with pytest.raises(ConfigError, match="n_identical"):
        split_training_pairs(g, alpha_v=0.5, alpha_e=1.0, n_identical=0, n_non_identical=5)
    with pytest.raises(ConfigError, match="degree_range"):
        split_training_pairs(g, alpha_v=0.5, alpha_e=1.0, n_identical=5, n_non_identical=5,
                             degree_range=(5, 5))  # fmt: skip
    with pytest.raises(InputError, match="min_degree"):
        split_training_pairs(g, alpha_v=0.5, alpha_e=1.0, n_identical=5, n_non_identical=5,
                             min_degree=100, seed=0)  # fmt: skip


def test_evaluation_pairs_follow_the_thesis_protocol():
    g = Graph.from_networkx(nx.powerlaw_cluster_graph(300, 6, 0.2, seed=8))
    pair = sample_pair(g, 0.7, 0.8, seed=1)
    u, v, y = evaluation_pairs(pair.aux, pair.san, pair.truth_pairs(), n_non_identical=2000,
                               seed=3)  # fmt: skip
    da, ds = pair.aux.degrees(), pair.san.degrees()
    assert (da[u] > 5).all() and (ds[v] > 5).all()
    truth = pair.truth_array()
    assert ((truth[u] == v) == (y == 1)).all()  # labels are the truth
    ok = (da[pair.truth_aux] > 5) & (ds[pair.truth_san] > 5)
    assert y.sum() == ok.sum()  # every qualifying identical pair, once
    assert (y == 0).sum() == 2000
    assert len({(a, b) for a, b in zip(u[y == 0], v[y == 0], strict=True)}) == 2000  # distinct
    with pytest.raises(InputError, match="degree > 500"):
        evaluation_pairs(pair.aux, pair.san, pair.truth_pairs(), n_non_identical=10,
                         min_degree=500)  # fmt: skip
