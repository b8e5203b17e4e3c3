"""Korula–Lattanzi (KL), distance vector (DV) and percolation (YG): hand-checked small cases,
the definitions (witnesses, marks, one-to-one, every node matched), identical graphs, errors."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.distance_vector import distance_vector, seed_distances
from privlab.graph.attacks.percolation import percolate
from privlab.graph.attacks.propagation import top_degree_seeds
from privlab.graph.attacks.reconciliation import java_hash_order, reconcile, secgraph_order
from privlab.graph.core import Graph
from privlab.graph.pairs import sample_pair, secgraph_pair
from tests.graph.test_propagation import gnp, relabelled

IDENTITY_SEEDS = np.array([[0, 0], [1, 1]])


def graph(n: int, edges: list[tuple[int, int]]) -> Graph:
    return Graph.from_edges(n, np.array(edges, dtype=np.int64).reshape(-1, 2))


def witnesses(g1: Graph, g2: Graph, mapping: np.ndarray, u: int, v: int) -> int:
    """Matched pairs (u', v') with u' ~ u in G1 and v' ~ v in G2."""
    img = mapping[g1.neighbors(u)]
    return int(np.isin(img[img >= 0], g2.neighbors(v)).sum())


def one_to_one(mapping: np.ndarray) -> bool:
    m = mapping[mapping >= 0]
    return np.unique(m).size == m.size


# Seeds 0, 1; node 2 ~ 0, 1 (two witnesses); node 3 ~ 0 only (one); node 4 ~ 2.
KITE = graph(5, [(0, 2), (1, 2), (0, 3), (2, 4)])
# Nodes 2 and 3 are twins: both ~ 0 and 1.
TWINS = graph(4, [(0, 2), (1, 2), (0, 3), (1, 3)])


# ============================================================================ KL
def test_kl_matches_the_pair_with_two_witnesses_only():
    res = reconcile(KITE, KITE, IDENTITY_SEEDS, truth=np.arange(5))
    # (2, 2) has 2 witnesses; (3, 3) one (< T = 2); 4 has degree 1 (buckets end at 2^1)
    assert res.mapping.tolist() == [0, 1, 2, -1, -1]
    assert (res.mapped, res.correct, res.new_correct, res.wrong) == (3, 3, 1, 0)
    assert res.coverage == pytest.approx(3 / 5) and res.accuracy == 1.0
    assert res.pairs().tolist() == [[0, 0], [1, 1], [2, 2]]
    none = reconcile(KITE, KITE, IDENTITY_SEEDS, threshold=3)
    assert none.new_mapped == 0


def test_kl_never_breaks_a_tie():
    res = reconcile(TWINS, TWINS, IDENTITY_SEEDS)  # (2,2), (2,3), (3,2), (3,3): 2 each
    assert res.new_mapped == 0


def test_kl_degree_buckets_go_from_high_to_low():
    # hub 2 (degree 4) and node 3 (degree 2) both see seeds 0 and 1: scored together, the
    # four pairs tie at 2 witnesses; but bucket 4 scores the hub alone first, then bucket 2
    # finds (3, 3) without its rival
    g = graph(6, [(0, 2), (1, 2), (2, 4), (2, 5), (0, 3), (1, 3)])
    res = reconcile(g, g, IDENTITY_SEEDS)
    assert res.mapping.tolist() == [0, 1, 2, 3, -1, -1]  # 4, 5: degree 1
    assert res.rounds == 2  # the second sweep adds nothing


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 40), p=st.floats(0.1, 0.6), seed=st.integers(0, 10**6),
       k=st.integers(1, 6), t=st.integers(1, 3))  # fmt: skip
def test_kl_on_identical_graphs_is_never_wrong_and_every_match_has_t_witnesses(n, p, seed, k, t):
    g = gnp(n, p, seed)
    g2, truth = relabelled(g, seed + 1)
    seeds = top_degree_seeds(g, truth, min(k, n))
    res = reconcile(g, g2, seeds, threshold=t, truth=truth)
    assert one_to_one(res.mapping)
    assert res.correct == res.mapped  # the true pair always ties a wrong one or beats it
    new = np.setdiff1d(np.flatnonzero(res.mapping >= 0), seeds[:, 0])
    for u in new.tolist():
        assert witnesses(g, g2, res.mapping, u, int(res.mapping[u])) >= t
        assert g.degrees()[u] >= 2


def test_kl_on_a_medium_secgraph_pair():
    g = Graph.from_networkx(nx.powerlaw_cluster_graph(400, 6, 0.3, seed=2))
    pair = secgraph_pair(g, 0.9, seed=3)
    res = reconcile(pair.aux, pair.san, top_degree_seeds(pair.aux, pair, 20), truth=pair)
    assert res.mapped > 200 and res.accuracy > 0.9


# ============================================================================ KL, SecGraph
def test_java_hash_order():
    # capacity 16: buckets 17 → 1, 3 → 3, 20 → 4, 32 → 0
    assert java_hash_order(np.array([3, 17, 20, 32])).tolist() == [32, 17, 3, 20]
    # 13 elements: capacity 32 (12 is the threshold of 16)
    nodes = np.array([*range(12), 40])
    assert java_hash_order(nodes).tolist() == [*range(9), 40, 9, 10, 11]  # 40 & 31 = 8
    # above 2^16 the hash folds the high half in: 65536 ^ 1 = 65537 → bucket 1
    assert java_hash_order(np.array([65536, 0, 2])).tolist() == [0, 65536, 2]


def test_secgraph_order_is_by_degree_then_hash_order():
    g = graph(20, [(17, 3), (17, 5), (3, 5), (0, 1)])  # 17, 3, 5 degree 2; 0, 1 degree 1
    free = np.ones(20, dtype=bool)
    assert secgraph_order(g, free)[:5] == [17, 3, 5, 0, 1]


def test_secgraph_variant_matches_every_node_window_by_window():
    # KITE: free nodes by degree: 2 (3), 3 (1), 4 (1); window 3 holds them all
    res = reconcile(KITE, KITE, IDENTITY_SEEDS, variant="secgraph", window=3)
    assert res.mapped == 5 and one_to_one(res.mapping)
    assert res.mapping[2] == 2  # 2 witnesses, the window's best
    # then (3, 3) and (4, 4) have 1 witness each, (3, 4) and (4, 3) none: first max wins
    assert res.mapping.tolist() == [0, 1, 2, 3, 4]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 30), p=st.floats(0.1, 0.6), seed=st.integers(0, 10**6),
       w=st.integers(1, 12))  # fmt: skip
def test_secgraph_variant_is_one_to_one_and_complete(n, p, seed, w):
    g = gnp(n, p, seed)
    pair = sample_pair(g, 0.8, 0.8, seed=seed)
    known = np.flatnonzero(pair.truth_array() >= 0)
    seeds = top_degree_seeds(pair.aux, pair, min(2, known.size))
    res = reconcile(pair.aux, pair.san, seeds, variant="secgraph", window=w, truth=pair)
    assert one_to_one(res.mapping)
    free = min(pair.aux.n_nodes, pair.san.n_nodes) - seeds.shape[0]
    assert res.new_mapped == free and res.rounds == free


# ============================================================================ DV
PATH = graph(5, [(0, 1), (1, 2), (2, 3), (3, 4)])  # seeds 0 and 4 at the ends


def test_dv_distance_vectors_and_cosine_assignment():
    seeds = np.array([[0, 0], [4, 4]])
    d = seed_distances(PATH, np.array([0, 4]))
    assert d.tolist() == [[0, 4], [1, 3], [2, 2], [3, 1], [4, 0]]
    res = distance_vector(PATH, PATH, seeds, block=3, keep=3, truth=np.arange(5))
    # cos((1,3), (2,2)) = 0.894, cos((1,3), (3,1)) = 0.6: the identity is the best assignment
    assert res.mapping.tolist() == [0, 1, 2, 3, 4] and res.rounds == 1
    one = distance_vector(PATH, PATH, seeds, block=3, keep=1)
    assert one.mapping.tolist() == [0, 1, 2, 3, 4] and one.rounds == 3  # one pair a block


def test_dv_unreachable_seed_distance_is_the_largest_plus_one():
    g = graph(5, [(0, 1), (1, 2), (3, 4)])
    assert seed_distances(g, np.array([0])).ravel().tolist() == [0, 1, 2, 3, 3]


def test_dv_block_and_queue_mode():
    # a star of 6 leaves around seed 0 plus a seed 7 ~ leaf 1: leaves 2..6 are identical
    g = graph(8, [(0, i) for i in range(1, 7)] + [(7, 1)])
    seeds = np.array([[0, 0], [7, 7]])
    for mode in ("queue", "stack"):
        res = distance_vector(g, g, seeds, block=2, keep=1, mode=mode, truth=np.arange(8))
        assert res.mapping[1] == 1  # the only leaf at distance 1 from seed 7
        assert one_to_one(res.mapping) and res.mapped == 8


def test_dv_equal_cosines_are_decided_by_degree_agreement():
    # one seed (0): every free node's vector is parallel to every other's at the same
    # distance, so all cosines of the first block (nodes 1, 2 at distance 1) are 1.
    # Node 1 has degree 5 in G1 but lost two leaves in G2 (degree 3); node 2 has 4 on both
    # sides, so G2's queue puts 2 before 1.
    g1 = graph(10, [(0, 1), (0, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 7), (2, 8), (2, 9)])
    g2 = graph(10, [(0, 1), (0, 2), (1, 3), (1, 4), (2, 7), (2, 8), (2, 9)])
    seeds = np.array([[0, 0]])
    kw = {"block": 2, "keep": 2, "truth": np.arange(10)}
    deg = distance_vector(g1, g2, seeds, ties="degree", **kw)
    # agreement 3/5 + 4/4 = 1.6 for the identity against 4/5 + 3/4 = 1.55 crossed
    assert deg.mapping[[1, 2]].tolist() == [1, 2]
    none = distance_vector(g1, g2, seeds, ties="none", **kw)
    assert none.mapping[[1, 2]].tolist() == [2, 1]  # queue order: 1 meets G2's first, 2
    assert deg.to_dict()["ties"] == "degree" and none.to_dict()["ties"] == "none"


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 40), p=st.floats(0.05, 0.6), seed=st.integers(0, 10**6),
       b=st.integers(1, 12))  # fmt: skip
def test_dv_degree_ties_keep_each_block_cosine_optimal(n, p, seed, b):
    # the tie-breaker never trades cosine for degree: with keep = block every block's
    # assignment must reach the same total cosine as the plain rule's on the same block
    g = gnp(n, p, seed)
    pair = sample_pair(g, 0.9, 0.8, seed=seed)
    known = np.flatnonzero(pair.truth_array() >= 0)
    seeds = top_degree_seeds(pair.aux, pair, min(2, known.size))
    d1 = seed_distances(pair.aux, seeds[:, 0]).astype(float)
    d2 = seed_distances(pair.san, seeds[:, 1]).astype(float)
    u1 = d1 / np.linalg.norm(d1, axis=1, keepdims=True)
    u2 = d2 / np.linalg.norm(d2, axis=1, keepdims=True)
    totals = []
    for ties in ("degree", "none"):
        res = distance_vector(pair.aux, pair.san, seeds, block=b, keep=b, ties=ties)
        m = res.mapping
        free = np.setdiff1d(np.flatnonzero(m >= 0), seeds[:, 0])
        totals.append((u1[free] * u2[m[free]]).sum())
    # keep = block: the blocks are the same queue slices for both rules, so the totals agree
    assert totals[0] == pytest.approx(totals[1], abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 40), p=st.floats(0.05, 0.6), seed=st.integers(0, 10**6),
       b=st.integers(1, 12), k=st.integers(1, 12),
       mode=st.sampled_from(["queue", "stack"]))  # fmt: skip
def test_dv_is_one_to_one_and_matches_the_smaller_side(n, p, seed, b, k, mode):
    g = gnp(n, p, seed)
    pair = sample_pair(g, 0.7, 0.8, seed=seed)
    known = np.flatnonzero(pair.truth_array() >= 0)
    seeds = top_degree_seeds(pair.aux, pair, min(3, known.size))
    res = distance_vector(pair.aux, pair.san, seeds, block=b, keep=min(k, b), mode=mode,
                          truth=pair)  # fmt: skip
    assert one_to_one(res.mapping)
    assert res.mapped == min(pair.aux.n_nodes, pair.san.n_nodes)
    assert (res.mapping[seeds[:, 0]] == seeds[:, 1]).all()


def test_dv_on_identical_graphs_with_distinct_vectors_is_exact():
    g = gnp(120, 0.05, 4)
    g2, truth = relabelled(g, 5)
    seeds = top_degree_seeds(g, truth, 25)
    d = seed_distances(g, seeds[:, 0])
    free = np.setdiff1d(np.arange(120), seeds[:, 0])
    unit = d[free] / np.linalg.norm(d[free], axis=1, keepdims=True)
    sim = unit @ unit.T
    np.fill_diagonal(sim, 0)
    assert sim.max() < 1 - 1e-9  # no two free nodes have parallel vectors
    res = distance_vector(g, g2, seeds, block=len(free), keep=len(free), truth=truth)
    assert res.correct == res.mapped == 120  # one assignment: the identity scores n


# ============================================================================ YG
@pytest.mark.parametrize("order", ["random", "most-marks"])
def test_yg_marks_and_threshold(order):
    res = percolate(KITE, KITE, IDENTITY_SEEDS, order=order, seed=0, truth=np.arange(5))
    # (2, 2) gets a mark from each seed; (3, 3) only one; then (4, 4) one from (2, 2)
    assert res.mapping.tolist() == [0, 1, 2, -1, -1] and res.rounds == 3
    for s in range(5):  # r = 1: (2, 3) and (3, 2) qualify too, whichever comes first
        one = percolate(KITE, KITE, IDENTITY_SEEDS, r=1, order=order, seed=s)
        assert one_to_one(one.mapping) and set(one.mapping[2:4].tolist()) == {2, 3}
    assert percolate(KITE, KITE, IDENTITY_SEEDS, r=3, order=order).new_mapped == 0
    huge = percolate(KITE, KITE, IDENTITY_SEEDS, r=10**30, order=order)  # seeds only
    assert huge.mapped == 2 and huge.parameters == {"r": 10**30, "order": order}


def test_yg_most_marks_uses_the_best_supported_pair_first():
    # identical graphs, seeds 0, 1, 2; node 3 ~ 0, 1, 2; node 4 ~ 0, 1.  At r = 2 the pool
    # is (3,3) with 3 marks and (3,4), (4,3), (4,4) with 2 each.
    g = graph(5, [(0, 3), (1, 3), (2, 3), (0, 4), (1, 4)])
    seeds = np.array([[0, 0], [1, 1], [2, 2]])
    best = percolate(g, g, seeds, truth=np.arange(5))  # most-marks, the default
    assert best.mapping.tolist() == [0, 1, 2, 3, 4] and best.wrong == 0
    assert best.parameters == {"r": 2, "order": "most-marks"}
    # the random order draws (3,4) or (4,3) first with probability 1/2, and then the other
    outcomes = {tuple(percolate(g, g, seeds, order="random", seed=s).mapping.tolist())
                for s in range(30)}  # fmt: skip
    assert outcomes == {(0, 1, 2, 3, 4), (0, 1, 2, 4, 3)}


def test_yg_most_marks_breaks_ties_by_degree_then_key():
    # G1: 2 ~ 0, 1 (degree 2); 3 ~ 0, 1, 4 (degree 3).  G2 is G1 with 2 and 3 swapped.
    # After the seeds all four pairs of {2, 3} have 2 marks; the keys alone would pick
    # (2, 2) (wrong), the degrees pick (2, 3) (|2 − 2| = 0 < |2 − 3|) and then (3, 2).
    g1 = graph(5, [(0, 2), (1, 2), (0, 3), (1, 3), (3, 4)])
    g2 = graph(5, [(0, 3), (1, 3), (0, 2), (1, 2), (2, 4)])
    res = percolate(g1, g2, IDENTITY_SEEDS, truth=np.array([0, 1, 3, 2, 4]))
    assert res.mapping.tolist() == [0, 1, 3, 2, -1] and res.wrong == 0
    # TWINS is its own image under 2 <-> 3: with the same degree and marks, the smaller
    # key (2, 2) goes first, so an automorphism can make an identical pair "wrong"
    swap = percolate(TWINS, TWINS, IDENTITY_SEEDS, truth=np.array([0, 1, 3, 2]))
    assert swap.mapping.tolist() == [0, 1, 2, 3] and swap.wrong == 2


def yg_case(n: int, p: float, seed: int, identical: bool):
    """G(n, p) and a relabelled copy, or a sampled pair of it; 3 top-degree true seeds."""
    g = gnp(n, p, seed)
    if identical:
        g2, truth = relabelled(g, seed + 1)
        g1 = g
    else:
        pair = sample_pair(g, 0.8, 0.7, seed=seed)
        g1, g2, truth = pair.aux, pair.san, pair.truth_array()
    known = np.flatnonzero(truth >= 0)
    return g1, g2, truth, top_degree_seeds(g1, truth, min(3, known.size))


def reference_most_marks(g1: Graph, g2: Graph, seeds: np.ndarray, r: int):
    """The rule written out slowly: after the seeds, repeatedly match the unmatched pair
    with the most marks (≥ r), ties by |deg₁ − deg₂| then key; returns the mapping and the
    steps (i, j, marks at use, the best marks then available in row i)."""
    n1, n2 = g1.n_nodes, g2.n_nodes
    d1, d2 = g1.degrees(), g2.degrees()
    m12, m21 = np.full(n1, -1), np.full(n2, -1)
    marks = np.zeros((n1, n2), dtype=np.int64)

    def spread(i: int, j: int) -> None:
        for a in g1.neighbors(i).tolist():
            for b in g2.neighbors(j).tolist():
                if m12[a] < 0 and m21[b] < 0:
                    marks[a, b] += 1

    for i, j in seeds.tolist():
        m12[i], m21[j] = j, i
    for i, j in seeds.tolist():
        spread(i, j)
    steps = []
    while True:
        cands = [(-int(marks[i, j]), abs(int(d1[i]) - int(d2[j])), i * n2 + j)
                 for i in range(n1) if m12[i] < 0 for j in range(n2)
                 if m21[j] < 0 and marks[i, j] >= r]  # fmt: skip
        if not cands:
            return m12, steps
        _, _, key = min(cands)
        i, j = divmod(key, n2)
        steps.append((i, j, int(marks[i, j])))
        m12[i], m21[j] = j, i
        spread(i, j)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 30), p=st.floats(0.05, 0.6), seed=st.integers(0, 10**6),
       r=st.integers(1, 3), identical=st.booleans())  # fmt: skip
def test_yg_most_marks_follows_its_definition(n, p, seed, r, identical):
    g1, g2, truth, seeds = yg_case(n, p, seed, identical)
    res = percolate(g1, g2, seeds, r=r, truth=truth)
    want, steps = reference_most_marks(g1, g2, seeds, r)
    assert res.mapping.tolist() == want.tolist()
    assert res.rounds == len(seeds) + len(steps)
    assert one_to_one(res.mapping)
    assert all(m >= r for _, _, m in steps)  # ≥ r marks at the time of use
    if identical:
        # while every match so far is right, the true pair (i, truth[i]) has every mark
        # any pair of row i has, and |deg₁ − deg₂| = 0: a wrong match can only be a tie
        # with it (an automorphism), never a pair with more marks
        mapping = np.full(g1.n_nodes, -1)
        mapping[seeds[:, 0]] = seeds[:, 1]
        for i, j, m in steps:
            if j != truth[i]:
                assert witnesses(g1, g2, mapping, i, int(truth[i])) == m
                assert g1.degrees()[i] == g2.degrees()[j]
                break
            mapping[i] = j


def test_yg_twins_are_matched_in_a_random_order():
    outcomes = set()
    for s in range(12):
        res = percolate(TWINS, TWINS, IDENTITY_SEEDS, order="random", seed=s)
        assert res.new_mapped == 2 and one_to_one(res.mapping)
        outcomes.add(tuple(res.mapping.tolist()))
        again = percolate(TWINS, TWINS, IDENTITY_SEEDS, order="random", seed=s)
        assert np.array_equal(again.mapping, res.mapping)  # the seed fixes the order
    assert outcomes == {(0, 1, 2, 3), (0, 1, 3, 2)}


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 40), p=st.floats(0.05, 0.6), seed=st.integers(0, 10**6),
       r=st.integers(1, 3), identical=st.booleans(),
       order=st.sampled_from(["random", "most-marks"]))  # fmt: skip
def test_yg_every_match_has_r_matched_neighbour_pairs(n, p, seed, r, identical, order):
    g1, g2, truth, seeds = yg_case(n, p, seed, identical)
    res = percolate(g1, g2, seeds, r=r, order=order, seed=seed, truth=truth)
    assert one_to_one(res.mapping)
    new = np.setdiff1d(np.flatnonzero(res.mapping >= 0), seeds[:, 0])
    for u in new.tolist():
        assert witnesses(g1, g2, res.mapping, u, int(res.mapping[u])) >= r


def test_yg_percolates_through_an_identical_sparse_graph():
    # G(500, 0.02) from 30 random seeds at r = 3: above the critical seed set, the
    # percolation reaches almost every node, and wrong pairs rarely collect 3 marks
    g = gnp(500, 0.02, 1)
    g2, truth = relabelled(g, 2)
    left = np.random.default_rng(0).choice(500, 30, replace=False)
    for order in ("random", "most-marks"):
        res = percolate(g, g2, np.stack([left, truth[left]], axis=1), r=3, order=order,
                        seed=0, truth=truth)  # fmt: skip
        assert res.mapped > 450 and res.accuracy > 0.95


# ============================================================================ errors
@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: reconcile(KITE, KITE, IDENTITY_SEEDS, threshold=0), ConfigError, "threshold"),
        (lambda: reconcile(KITE, KITE, IDENTITY_SEEDS, threshold=True), ConfigError, "threshold"),
        (lambda: reconcile(KITE, KITE, IDENTITY_SEEDS, iterations=0), ConfigError, "iterations"),
        (lambda: reconcile(KITE, KITE, IDENTITY_SEEDS, variant="x"), ConfigError, "variant"),
        (lambda: reconcile(KITE, KITE, IDENTITY_SEEDS, variant="secgraph", window=0),
         ConfigError, "window"),
        (lambda: reconcile(KITE, KITE, [[0, 9]]), InputError, "unknown in G2"),
        (lambda: distance_vector(KITE, KITE, IDENTITY_SEEDS, block=0), ConfigError, "block"),
        (lambda: distance_vector(KITE, KITE, IDENTITY_SEEDS, block=2, keep=3), ConfigError,
         "keep = 3"),
        (lambda: distance_vector(KITE, KITE, IDENTITY_SEEDS, mode="heap"), ConfigError, "mode"),
        (lambda: distance_vector(KITE, KITE, IDENTITY_SEEDS, ties="id"), ConfigError, "ties"),
        (lambda: distance_vector(KITE, KITE, []), InputError, "seeds"),
        (lambda: percolate(KITE, KITE, IDENTITY_SEEDS, r=0), ConfigError, "r = 0"),
        (lambda: percolate(KITE, KITE, IDENTITY_SEEDS, max_cells=10), InputError, "max_cells"),
        (lambda: percolate(KITE, KITE, IDENTITY_SEEDS, order="max"), ConfigError, "order"),
        (lambda: percolate(KITE, KITE, [[0, 0], [1, 0]]), InputError, "more than one"),
        (lambda: percolate(Graph.from_edges(3, [[0, 1]], directed=True), KITE, [[0, 0]]),
         InputError, "directed"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_with_the_parameter_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ============================================================================ literal loops
def _score(g1, g2, m12, u, v):
    return sum(1 for w in g1.neighbors(u).tolist()
               if m12.get(w, -1) >= 0 and g2.has_edge(m12[w], v))  # fmt: skip


def kl_paper_loops(g1, g2, seeds, t):
    """Algorithm 1 as nested loops over every eligible pair, sweeps until stable."""
    m12 = {int(a): int(b) for a, b in seeds}
    d1, d2 = g1.degrees(), g2.degrees()
    top = int(max(d1.max(initial=0), d2.max(initial=0)))
    while True:
        before = len(m12)
        for j in range(top.bit_length() - 1, 0, -1):
            taken = set(m12.values())
            e1 = [u for u in range(g1.n_nodes) if u not in m12 and d1[u] >= 2**j]
            e2 = [v for v in range(g2.n_nodes) if v not in taken and d2[v] >= 2**j]
            sc = {(u, v): _score(g1, g2, m12, u, v) for u in e1 for v in e2}
            new = []
            for (u, v), x in sc.items():
                if x < t:
                    continue
                rivals = [y for (a, b), y in sc.items() if (a == u or b == v) and (a, b) != (u, v)]
                if all(y < x for y in rivals):  # the strict best pair of u and of v
                    new.append((u, v))
            m12.update(new)
        if len(m12) == before:
            break
    out = np.full(g1.n_nodes, -1, dtype=np.int64)
    for a, b in m12.items():
        out[a] = b
    return out


def kl_secgraph_loops(g1, g2, seeds, window):
    """SecGraph's UserMatching as written: lists, a window, the half-moving loop."""
    m12 = {int(a): int(b) for a, b in seeds}
    l1 = secgraph_order(g1, np.isin(np.arange(g1.n_nodes), seeds[:, 0], invert=True))
    l2 = secgraph_order(g2, np.isin(np.arange(g2.n_nodes), seeds[:, 1], invert=True))
    c1, c2 = [], []

    def best():
        top, pick = -1, None
        for u in c1:
            for v in c2:
                x = _score(g1, g2, m12, u, v)
                if x > top:
                    top, pick = x, (u, v)
        m12[pick[0]] = pick[1]
        c1.remove(pick[0])
        c2.remove(pick[1])

    while l1 and l2:
        if len(c1) + len(l1) > window and len(c2) + len(l2) > window:
            while len(c1) < window and l1 and l2:
                c1.append(l1.pop(0))
                c2.append(l2.pop(0))
            best()
        else:
            i = 0
            while i < len(l1) and l2:
                c1.append(l1.pop(0))
                c2.append(l2.pop(0))
                i += 1
            while c1 and c2:
                best()
    while c1 and c2:
        best()
    out = np.full(g1.n_nodes, -1, dtype=np.int64)
    for a, b in m12.items():
        out[a] = b
    return out


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 30), p=st.floats(0.1, 0.6), seed=st.integers(0, 10**6),
       t=st.integers(1, 3), w=st.integers(1, 8), identical=st.booleans())  # fmt: skip
def test_kl_equals_the_literal_loops(n, p, seed, t, w, identical):
    g = gnp(n, p, seed)
    if identical:
        g1, g2 = g, g
        seeds = top_degree_seeds(g, np.arange(n), min(3, n))
    else:
        pair = sample_pair(g, 0.8, 0.7, seed=seed)
        g1, g2 = pair.aux, pair.san
        known = np.flatnonzero(pair.truth_array() >= 0)
        seeds = top_degree_seeds(g1, pair, min(3, known.size))
    paper = reconcile(g1, g2, seeds, threshold=t)
    np.testing.assert_array_equal(paper.mapping, kl_paper_loops(g1, g2, seeds, t))
    sg = reconcile(g1, g2, seeds, variant="secgraph", window=w)
    np.testing.assert_array_equal(sg.mapping, kl_secgraph_loops(g1, g2, seeds, w))
