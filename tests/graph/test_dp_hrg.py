"""DP-HRG (Xiao, Chen & Tan, KDD 2014): the log-likelihood's sensitivity, the chain's
stationary distribution (the exponential mechanism), the Laplace step, reproducibility and
bad input."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from scipy.stats import chisquare

from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.dp_hrg import (
    Dendrogram,
    DendrogramChain,
    dp_hrg,
    hrg_sensitivity,
    log_likelihood,
    noisy_edge_counts,
)
from privlab.graph.core import Graph


# ---------------------------------------------------------------------------- reference
def _all_dendrograms(leaves: tuple[int, ...]) -> list:
    """Every unordered rooted binary tree on ``leaves`` as nested pairs ((2n − 3)!!)."""
    if len(leaves) == 1:
        return [leaves[0]]
    first, rest = leaves[0], leaves[1:]
    out = []
    # split into two non-empty sides, the side holding ``first`` named first (unordered)
    for r in range(len(rest)):
        for with_first in itertools.combinations(rest, r):
            left = (first, *with_first)
            right = tuple(v for v in rest if v not in with_first)
            if not right:
                continue
            for a in _all_dendrograms(left):
                for b in _all_dendrograms(right):
                    out.append((a, b))
    return out


def _leafset(t) -> frozenset:
    return frozenset((t,)) if isinstance(t, int) else _leafset(t[0]) | _leafset(t[1])


def _reference_logl(edges: set, tree) -> float:
    """log L by the definition: every internal node, its e_r and N_r counted by hand."""
    if isinstance(tree, int):
        return 0.0
    a, b = _leafset(tree[0]), _leafset(tree[1])
    e = sum(1 for u in a for v in b if (min(u, v), max(u, v)) in edges)
    big = len(a) * len(b)
    f = 0.0 if e in (0, big) else e * math.log(e / big) + (big - e) * math.log(1 - e / big)
    return f + _reference_logl(edges, tree[0]) + _reference_logl(edges, tree[1])


def _random_tree(leaves: list, rng):
    if len(leaves) == 1:
        return leaves[0]
    cut = int(rng.integers(1, len(leaves)))
    return (_random_tree(leaves[:cut], rng), _random_tree(leaves[cut:], rng))


def _graph(n: int, edges) -> Graph:
    return Graph.from_edges(n, np.array(sorted(edges), dtype=np.int64).reshape(-1, 2))


# ---------------------------------------------------------------------------- sensitivity
def test_log_likelihood_and_sensitivity_by_hand():
    # path 0-1-2-3 under ((0,1),(2,3)): the root owns 4 pairs with 1 edge, the two cherries
    # own 1 pair each, full: log L = ln(1/4) + 3 ln(3/4)
    path = _graph(4, [(0, 1), (1, 2), (2, 3)])
    tree = Dendrogram.from_nested(((0, 1), (2, 3)))
    by_hand = math.log(1 / 4) + 3 * math.log(3 / 4)
    assert log_likelihood(path, tree) == pytest.approx(by_hand, abs=1e-12)
    # removing the edge 1-2 empties the root: log L = 0, a change of exactly Δu(4)
    assert log_likelihood(_graph(4, [(0, 1), (2, 3)]), tree) == 0.0
    assert hrg_sensitivity(4) == pytest.approx(math.log(4) + 3 * math.log(4 / 3), abs=1e-12)
    assert hrg_sensitivity(4) == pytest.approx(-by_hand, abs=1e-12)
    # n = 5: N* = 2·3 = 6, attained by ((0,1),(2,(3,4))) and one edge across the root
    assert hrg_sensitivity(5) == pytest.approx(math.log(6) + 5 * math.log(6 / 5), abs=1e-12)
    tree5 = Dendrogram.from_nested(((0, 1), (2, (3, 4))))
    assert log_likelihood(_graph(5, [(0, 3)]), tree5) == pytest.approx(-hrg_sensitivity(5))
    assert hrg_sensitivity(2) == 0.0 and hrg_sensitivity(3) == pytest.approx(2 * math.log(2))


def test_sensitivity_is_the_exhaustive_maximum_for_four_nodes():
    """max over all 64 graphs, all 15 dendrograms and all 6 one-edge changes of
    |Δ log L| equals hrg_sensitivity(4), and no change exceeds it."""
    pairs = list(itertools.combinations(range(4), 2))
    trees = _all_dendrograms((0, 1, 2, 3))
    assert len(trees) == 15
    worst = 0.0
    for mask in range(1 << len(pairs)):
        edges = {p for i, p in enumerate(pairs) if mask >> i & 1}
        for tree in trees:
            base = _reference_logl(edges, tree)
            for p in pairs:
                worst = max(worst, abs(_reference_logl(edges ^ {p}, tree) - base))
    assert worst == pytest.approx(hrg_sensitivity(4), abs=1e-12)


def test_chain_log_likelihood_matches_the_definition():
    rng = np.random.default_rng(5)
    g = nx.gnp_random_graph(9, 0.4, seed=3)
    edges = {(min(u, v), max(u, v)) for u, v in g.edges()}
    graph = _graph(9, edges)
    for _ in range(5):
        tree = _random_tree(list(rng.permutation(9).tolist()), rng)
        assert log_likelihood(graph, Dendrogram.from_nested(tree)) == pytest.approx(
            _reference_logl(edges, tree), abs=1e-9
        )
    chain = DendrogramChain(graph, 0.7, rng=rng)
    for _ in range(5):  # after moves the incremental log L and the counts stay exact
        chain.run(400)
        running = chain.log_likelihood
        chain.refresh()
        assert running == pytest.approx(chain.log_likelihood, abs=1e-9)
        tree = chain.dendrogram()
        assert chain.log_likelihood == pytest.approx(log_likelihood(graph, tree), abs=1e-9)
        _assert_layout(chain)


def _assert_layout(chain) -> None:
    """Every subtree is a contiguous leaf range, its two children's ranges side by side, and
    the gap between them indexes the node."""
    assert sorted(chain.order) == list(range(chain.n))
    assert all(chain.order[chain.pos[v]] == v for v in range(chain.n))
    for r in range(chain.n - 1):
        (a0, a1), (b0, b1) = sorted((chain._range(chain.ch0[r]), chain._range(chain.ch1[r])))
        assert (a0, a1 == b0, b1) == (chain.lo[r], True, chain.hi[r])
        assert chain.gap_node[b0] == r
        for c in (chain.ch0[r], chain.ch1[r]):
            assert c < 0 or chain.par[c] == r


# ---------------------------------------------------------------------------- the chain
def _canonical(tree) -> frozenset:
    out = []

    def walk(t):
        if isinstance(t, int):
            return frozenset((t,))
        s = walk(t[0]) | walk(t[1])
        out.append(s)
        return s

    walk(tree)
    return frozenset(out)


@pytest.mark.parametrize(
    ("n", "edges", "epsilon1", "samples"),
    [
        (4, [(0, 1), (1, 2), (2, 3), (0, 2)], 6.0, 6000),
        (5, [(0, 1), (1, 2), (0, 2), (2, 3), (3, 4)], 5.0, 9000),
    ],
)
def test_chain_samples_the_exponential_mechanism(n, edges, epsilon1, samples):
    """Sampled dendrogram frequencies match exp(ε1·log L/(2Δu)) normalised over all
    (2n − 3)!! dendrograms (chi-square), and clearly differ from the uniform distribution."""
    edge_set = {(min(e), max(e)) for e in edges}
    trees = _all_dendrograms(tuple(range(n)))
    index = {_canonical(t): i for i, t in enumerate(trees)}
    assert len(index) == len(trees) == math.prod(range(1, 2 * n - 2, 2))
    temperature = epsilon1 / (2 * hrg_sensitivity(n))
    logl = np.array([_reference_logl(edge_set, t) for t in trees])
    target = np.exp(temperature * (logl - logl.max()))
    target /= target.sum()
    chain = DendrogramChain(_graph(n, edges), temperature, rng=np.random.default_rng(11))
    chain.run(2000)  # burn-in
    counts = np.zeros(len(trees))
    for _ in range(samples):
        chain.run(8)
        counts[index[chain.dendrogram().clusters()]] += 1
    assert chisquare(counts, samples * target).pvalue > 1e-3
    assert chisquare(counts).pvalue < 1e-9  # the test has power: not uniform


# ---------------------------------------------------------------------------- Laplace step
def test_edge_count_noise_is_discrete_laplace_of_scale_one_over_epsilon2():
    eps2 = 0.5
    counts = np.full(40_000, 7, dtype=np.int64)
    noise = noisy_edge_counts(counts, eps2, seed=3) - counts
    alpha = math.exp(-eps2)
    # two-sided geometric P(z) ∝ α^|z|: variance 2α/(1 − α)² (≈ 2/ε2², Laplace's 8)
    assert noise.var() == pytest.approx(2 * alpha / (1 - alpha) ** 2, rel=0.05)
    assert abs(noise.mean()) < 0.06
    assert np.mean(noise == 0) == pytest.approx((1 - alpha) / (1 + alpha), abs=0.01)
    release = dp_hrg(nx.karate_club_graph(), 1.0, hrg_share=0.5, steps=500, seed=1)
    assert release.to_dict()["laplace_scale"] == pytest.approx(1 / release.epsilon_edges)
    assert release.epsilon_hrg + release.epsilon_edges == pytest.approx(1.0)


def test_without_noise_the_model_keeps_every_count():
    """ε2 → ∞: p̃_r = e_r / N_r, so the model's expected edge count is the input's."""
    g = nx.karate_club_graph()
    release = dp_hrg(g, 2e9, hrg_share=0.5, steps=3000, seed=2)
    assert release.expected_edges == pytest.approx(g.number_of_edges(), abs=1e-6)
    assert release.graph.n_nodes == 34 and not release.graph.directed
    assert np.all((release.probabilities >= 0) & (release.probabilities <= 1))


def test_privhrg_collapse_keeps_the_budget_and_collapses_small_subtrees():
    g = nx.karate_club_graph()
    keep = dp_hrg(g, 1.0, steps=3000, seed=4)
    collapsed = dp_hrg(g, 1.0, steps=3000, seed=4, small_subtrees="privhrg")
    assert keep.collapsed_nodes == 0 and collapsed.collapsed_nodes > 0
    assert collapsed.epsilon == keep.epsilon == 1.0


# ---------------------------------------------------------------------------- seeds, input
def test_same_seed_same_release_and_the_seed_is_flagged():
    g = nx.les_miserables_graph()
    a = dp_hrg(g, 1.0, steps=4000, seed=9)
    b = dp_hrg(g, 1.0, steps=4000, seed=9)
    c = dp_hrg(g, 1.0, steps=4000, seed=10)
    assert np.array_equal(a.graph.edges(), b.graph.edges())
    assert a.dendrogram.clusters() == b.dendrogram.clusters()
    assert not np.array_equal(a.graph.edges(), c.graph.edges())
    assert a.insecure_seed and a.to_dict()["insecure_seed"] is True


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"epsilon": 0}, ConfigError, "epsilon = 0"),
        ({"epsilon": -1}, ConfigError, "epsilon = -1"),
        ({"epsilon": float("nan")}, ConfigError, "epsilon"),
        ({"epsilon": 1, "hrg_share": 0}, ConfigError, "hrg_share = 0"),
        ({"epsilon": 1, "hrg_share": 1}, ConfigError, "hrg_share = 1"),
        ({"epsilon": 1, "hrg_share": 1.5}, ConfigError, "hrg_share = 1.5"),
        ({"epsilon": 1, "steps": -1}, ConfigError, "steps = -1"),
        ({"epsilon": 1, "steps": 2.5}, ConfigError, "steps = 2.5"),
        ({"epsilon": 1, "small_subtrees": "er"}, ConfigError, "small_subtrees = 'er'"),
    ],
)
def test_bad_parameters(kwargs, error, text):
    with pytest.raises(error, match=text.replace("(", r"\(")):
        dp_hrg(nx.karate_club_graph(), **kwargs)


def test_bad_graphs():
    with pytest.raises(InputError, match="≥ 3 nodes"):
        dp_hrg(nx.path_graph(2), 1.0)
    with pytest.raises(InputError):
        dp_hrg(nx.DiGraph([(0, 1), (1, 2)]), 1.0)
    with pytest.raises(InputError, match="leaves"):
        log_likelihood(nx.path_graph(5), Dendrogram.from_nested(((0, 1), (2, 3))))
    with pytest.raises(InputError, match="each once"):
        Dendrogram.from_nested(((0, 1), (1, 3)))
    with pytest.raises(InputError, match="neither a leaf"):
        Dendrogram.from_nested(((0, 1, 2), 3))
