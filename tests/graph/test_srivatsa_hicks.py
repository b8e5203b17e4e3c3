"""Srivatsa–Hicks (SH) and the tree edit distance under its spanning-tree variant:
hand-checked cases, a brute-force reference, invariants (one-to-one, seeds kept), errors."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.distance_vector import distance_vector
from privlab.graph.attacks.srivatsa_hicks import random_bfs_tree, srivatsa_hicks
from privlab.graph.core import Graph
from privlab.graph.tree_edit import ordered_tree, tree_edit_distance
from tests.graph.test_propagation import gnp, relabelled


def graph(n: int, edges: list[tuple[int, int]]) -> Graph:
    return Graph.from_edges(n, np.array(edges, dtype=np.int64).reshape(-1, 2))


def one_to_one(mapping: np.ndarray) -> bool:
    m = mapping[mapping >= 0]
    return np.unique(m).size == m.size


# ------------------------------------------------------------------ trees as nested tuples
# a tree is (label, (child, child, ...)); ``build`` numbers it in preorder


def build(tree):
    children: dict[int, list[int]] = {}
    labels: dict[int, int] = {}

    def walk(t) -> int:
        v = len(labels)
        labels[v] = t[0]
        children[v] = [walk(c) for c in t[1]]
        return v

    walk(tree)
    return ordered_tree(0, children, labels)


def T(label, *kids):
    return (label, tuple(kids))


@cache
def forest_distance(f: tuple, g: tuple) -> int:
    """The textbook recursion on the rightmost roots (Zhang & Shasha's definition)."""

    def size(forest):
        return sum(1 + size(t[1]) for t in forest)

    if not f:
        return size(g)
    if not g:
        return size(f)
    v, w = f[-1], g[-1]
    return min(
        forest_distance(f[:-1] + v[1], g) + 1,
        forest_distance(f, g[:-1] + w[1]) + 1,
        forest_distance(f[:-1], g[:-1]) + forest_distance(v[1], w[1]) + int(v[0] != w[0]),
    )


def valid_mapping(t1, t2, pairs: np.ndarray) -> bool:
    """One-to-one, ancestry-preserving and order-preserving (postorder indices)."""
    if np.unique(pairs[:, 0]).size != len(pairs) or np.unique(pairs[:, 1]).size != len(pairs):
        return False

    def anc(t, a, b):  # a is a proper ancestor of b
        return t.lld[a] <= b < a

    for x1, y1 in pairs.tolist():
        for x2, y2 in pairs.tolist():
            if anc(t1, x1, x2) != anc(t2, y1, y2):
                return False
            if (x1 < x2) != (y1 < y2):  # postorder order of two kept nodes is kept
                return False
    return True


def random_tree(draw, n_max=7, labels=3):
    n = draw(st.integers(1, n_max))
    parents = [draw(st.integers(0, i - 1)) for i in range(1, n)]
    labs = [draw(st.integers(0, labels - 1)) for _ in range(n)]
    kids: dict[int, list[int]] = {i: [] for i in range(n)}
    for i, p in enumerate(parents, start=1):
        kids[p].append(i)

    def nest(v):
        return T(labs[v], *[nest(c) for c in kids[v]])

    return nest(0)


@st.composite
def tree_pairs(draw):
    return random_tree(draw), random_tree(draw)


# ============================================================================ tree edit
def test_zhang_shasha_example_costs_two():
    # Zhang & Shasha (1989), Fig. 1: f(d(a c(b)) e) vs f(c(d(a b)) e)
    a, b, c, d, e, f = range(6)
    t1 = build(T(f, T(d, T(a), T(c, T(b))), T(e)))
    t2 = build(T(f, T(c, T(d, T(a), T(b))), T(e)))
    edit = tree_edit_distance(t1, t2)
    assert edit.distance == 2
    assert valid_mapping(t1, t2, edit.mapping)
    assert len(edit.mapping) == 5 and edit.relabelled == 0  # delete c, insert c


def test_identical_trees_map_onto_themselves():
    t = build(T(0, T(1, T(2), T(3)), T(4, T(5))))
    edit = tree_edit_distance(t, t)
    assert edit.distance == 0
    assert edit.mapping.tolist() == [[i, i] for i in range(6)]


def test_one_node_against_a_chain():
    edit = tree_edit_distance(build(T(7)), build(T(1, T(7, T(2)))))
    assert edit.distance == 2  # insert two nodes, keep the 7
    assert edit.node_pairs(build(T(7)), build(T(1, T(7, T(2))))).tolist() == [[0, 1]]


@settings(max_examples=60, deadline=None)
@given(tree_pairs())
def test_distance_is_the_textbook_recursion_and_the_mapping_costs_it(pair):
    a, b = pair
    t1, t2 = build(a), build(b)
    edit = tree_edit_distance(t1, t2)
    assert edit.distance == forest_distance((a,), (b,))
    assert valid_mapping(t1, t2, edit.mapping)
    cost = t1.size + t2.size - 2 * len(edit.mapping) + edit.relabelled
    assert cost == edit.distance


def test_tree_edit_refuses_bad_trees():
    with pytest.raises(InputError):
        ordered_tree(0, {0: [1]}, {0: 1})  # node 1 has no label


# ============================================================================ the attack
SPIDER = graph(10, [(0, 1), (0, 2), (0, 3), (1, 4), (1, 5), (1, 6), (2, 7), (2, 8), (3, 9)])


def test_spanning_tree_recovers_a_permuted_tree():
    # a tree graph is its own BFS tree; the root's children have distinct degrees (4, 3, 2),
    # so the ordered trees agree up to the relabelling: distance 0, an isomorphism found —
    # the permutation itself on every node but the interchangeable leaves 4, 5, 6 and 7, 8
    perm = np.random.default_rng(5).permutation(10)
    g2 = graph(10, [(int(perm[u]), int(perm[v])) for u, v in SPIDER.edges().tolist()])
    res = srivatsa_hicks(SPIDER, g2, [[0, int(perm[0])]], variant="spanning-tree", trees=2,
                         seed=1, truth=perm)  # fmt: skip
    assert res.parameters["tree_distance"] == 0
    m = res.mapping
    assert sorted(m.tolist()) == list(range(10))
    assert all(g2.has_edge(int(m[u]), int(m[v])) for u, v in SPIDER.edges().tolist())
    assert m[[0, 1, 2, 3, 9]].tolist() == perm[[0, 1, 2, 3, 9]].tolist()
    assert sorted(m[[4, 5, 6]].tolist()) == sorted(perm[[4, 5, 6]].tolist())
    assert res.correct >= 5 and res.mapped == 10


def test_random_bfs_tree_is_a_shortest_path_tree():
    g = gnp(40, 0.15, 3)
    lab = np.full(40, -1)
    t = random_bfs_tree(g, 0, lab, np.random.default_rng(0))
    from scipy.sparse.csgraph import shortest_path

    dist = shortest_path(g.to_scipy(), indices=0, unweighted=True, directed=False)
    assert t.size == int(np.isfinite(dist).sum())
    assert t.nodes[-1] == 0  # the root is last in postorder
    # every node's parent (the first later node whose subtree holds it) is one hop nearer
    for p in range(t.size - 1):
        parent = next(q for q in range(p + 1, t.size) if t.lld[q] <= p)
        u, v = int(t.nodes[p]), int(t.nodes[parent])
        assert g.has_edge(u, v) and dist[v] == dist[u] - 1


# Seeds 0, 1, 2.  In G2, 3 and 4 both neighbour seeds 0 and 1, but 4 also neighbours seed 2,
# which u = 3 of G1 does not: mapping 3 to 4 would break an edge, 3 to 3 breaks none.
G1_BREAK = graph(5, [(0, 3), (1, 3), (0, 2)])
G2_BREAK = graph(5, [(0, 3), (1, 3), (0, 4), (1, 4), (2, 4), (0, 2)])


def test_subgraph_prefers_the_pair_that_breaks_no_edge():
    res = srivatsa_hicks(G1_BREAK, G2_BREAK, [[0, 0], [1, 1], [2, 2]], variant="subgraph")
    assert res.mapping.tolist() == [0, 1, 2, 3, -1]


def test_subgraph_needs_min_common_mapped_neighbours():
    kite = graph(5, [(0, 2), (1, 2), (0, 3), (2, 4)])  # 2 ~ 0, 1; 3 ~ 0; 4 ~ 2
    two = srivatsa_hicks(kite, kite, [[0, 0], [1, 1]], variant="subgraph", truth=np.arange(5))
    assert two.mapping.tolist() == [0, 1, 2, -1, -1]
    assert (two.correct, two.new_correct, two.rounds) == (3, 1, 3)
    one = srivatsa_hicks(kite, kite, [[0, 0], [1, 1]], variant="subgraph", min_common=1)
    assert one.mapping.tolist() == [0, 1, 2, 3, 4]


def test_distance_vector_variant_is_dv():
    g1 = gnp(60, 0.1, 4)
    g2, truth = relabelled(g1, 7)
    seeds = np.stack([np.arange(6), truth[:6]], axis=1)
    sh = srivatsa_hicks(g1, g2, seeds, truth=truth)
    dv = distance_vector(g1, g2, seeds, truth=truth)
    assert sh.mapping.tolist() == dv.mapping.tolist()
    assert sh.to_dict()["variant"] == "distance-vector" and sh.method == "srivatsa-hicks"


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["spanning-tree", "subgraph"]))
def test_one_to_one_and_seeds_kept(s, variant):
    g1 = gnp(30, 0.15, s)
    g2, truth = relabelled(g1, s + 1)
    seeds = np.stack([np.arange(3), truth[:3]], axis=1)
    res = srivatsa_hicks(g1, g2, seeds, variant=variant, seed=s, truth=truth, trees=2)
    assert one_to_one(res.mapping)
    assert res.mapping[seeds[:, 0]].tolist() == seeds[:, 1].tolist()
    assert res.correct + res.wrong == res.mapped


def test_identical_graphs_are_recovered_by_subgraph_matching():
    g = gnp(80, 0.08, 11)
    seeds = np.stack([np.arange(8), np.arange(8)], axis=1)
    res = srivatsa_hicks(g, g, seeds, variant="subgraph", truth=np.arange(80))
    assert res.wrong == 0


def test_bad_input():
    g = gnp(20, 0.2, 1)
    s = [[0, 0], [1, 1]]
    with pytest.raises(ConfigError, match="variant"):
        srivatsa_hicks(g, g, s, variant="rst")
    with pytest.raises(ConfigError, match="trees"):
        srivatsa_hicks(g, g, s, variant="spanning-tree", trees=0)
    with pytest.raises(ConfigError, match="min_common"):
        srivatsa_hicks(g, g, s, variant="subgraph", min_common=0)
    with pytest.raises(InputError, match="max_nodes"):
        srivatsa_hicks(g, g, s, variant="spanning-tree", max_nodes=10)
    with pytest.raises(InputError, match="max_cells"):
        srivatsa_hicks(g, g, s, variant="subgraph", max_cells=10)
    with pytest.raises(InputError, match="seed"):
        srivatsa_hicks(g, g, [[0, 0], [0, 1]], variant="subgraph")
    with pytest.raises(InputError):
        srivatsa_hicks(g, g, [], variant="spanning-tree")


def test_spanning_tree_progress_climbs_to_the_total():
    g = gnp(40, 0.15, 2)
    seen: list[tuple[int, int]] = []
    srivatsa_hicks(g, g, [[0, 0], [1, 1]], variant="spanning-tree", trees=3, seed=0,
                   progress=lambda d, t: seen.append((d, t)))  # fmt: skip
    assert seen[-1] == (3000, 3000)
    done = [d for d, _ in seen]
    assert done == sorted(done) and all(t == 3000 for _, t in seen)


# ------------------------------------------------------------------ trees cut to N nodes
def tree_parents(t) -> dict[int, int]:
    """node -> its parent's node id in an OrderedTree (the root is absent)."""
    out = {}
    for p in range(t.size - 1):
        parent = next(q for q in range(p + 1, t.size) if t.lld[q] <= p)
        out[int(t.nodes[p])] = int(t.nodes[parent])
    return out


def test_cut_tree_keeps_whole_levels_then_the_highest_degrees():
    # SPIDER from 0: level 1 is 1 (degree 4), 2 (3), 3 (2); level 2 the six leaves
    lab = np.full(10, -1)
    t3 = random_bfs_tree(SPIDER, 0, lab, np.random.default_rng(0), 3)
    assert sorted(t3.nodes.tolist()) == [0, 1, 2]
    assert tree_parents(t3) == {1: 0, 2: 0}
    assert t3.nodes.tolist() == [1, 2, 0]  # children by decreasing degree
    for s in range(5):
        t6 = random_bfs_tree(SPIDER, 0, lab, np.random.default_rng(s), 6)
        kept = set(t6.nodes.tolist())
        assert len(kept) == 6 and {0, 1, 2, 3} <= kept  # level 1 whole, two leaves
        assert all(SPIDER.has_edge(u, v) and v in kept for u, v in tree_parents(t6).items())
    whole = random_bfs_tree(SPIDER, 0, lab, np.random.default_rng(0))
    for size in (10, 50):
        assert random_bfs_tree(SPIDER, 0, lab, np.random.default_rng(0), size).size == whole.size


def test_cut_trees_map_only_their_nodes():
    # cut to 4 nodes, both trees are the root and its three children of distinct degrees:
    # distance 0 and exactly those four nodes mapped, all correctly
    perm = np.random.default_rng(5).permutation(10)
    g2 = graph(10, [(int(perm[u]), int(perm[v])) for u, v in SPIDER.edges().tolist()])
    res = srivatsa_hicks(SPIDER, g2, [[0, int(perm[0])]], variant="spanning-tree", trees=1,
                         tree_nodes=4, seed=3, truth=perm)  # fmt: skip
    assert res.parameters["tree_distance"] == 0 and res.parameters["tree_nodes"] == 4
    m = res.mapping
    assert np.flatnonzero(m >= 0).tolist() == [0, 1, 2, 3]
    assert m[[0, 1, 2, 3]].tolist() == perm[[0, 1, 2, 3]].tolist()
    assert res.mapped == 4 and res.correct == 4


@given(st.integers(0, 10_000), st.integers(1, 30))
@settings(max_examples=25, deadline=None)
def test_cut_trees_one_to_one_within_the_cut(s, k):
    g1, g2 = gnp(30, 0.15, s), gnp(30, 0.15, s + 1)
    res = srivatsa_hicks(g1, g2, [[0, 0], [1, 1]], variant="spanning-tree", trees=2,
                         tree_nodes=k, seed=s)  # fmt: skip
    assert one_to_one(res.mapping)
    assert res.mapping[0] == 0 and res.mapping[1] == 1
    assert np.count_nonzero(res.mapping >= 0) <= max(k, 2) + 1  # the cut, and the other seed


def test_tree_nodes_bad_input_and_max_nodes():
    g = gnp(20, 0.2, 1)
    s = [[0, 0], [1, 1]]
    with pytest.raises(ConfigError, match="tree_nodes"):
        srivatsa_hicks(g, g, s, variant="spanning-tree", tree_nodes=0)
    with pytest.raises(InputError, match="max_nodes"):
        srivatsa_hicks(g, g, s, variant="spanning-tree", max_nodes=10, tree_nodes=15)
    res = srivatsa_hicks(g, g, s, variant="spanning-tree", max_nodes=10, tree_nodes=10, seed=0)
    assert res.parameters["tree_nodes"] == 10


@st.composite
def bigger_tree_pairs(draw):
    return random_tree(draw, n_max=11, labels=2), random_tree(draw, n_max=11, labels=2)


@settings(max_examples=40, deadline=None)
@given(bigger_tree_pairs())
def test_batched_keyroot_tables_match_the_recursion_on_bushier_trees(pair):
    # trees of up to 11 nodes nest keyroots three or four deep: the rows of T1's leftmost
    # paths then go range group by range group, and every group must see the inner ones
    a, b = pair
    t1, t2 = build(a), build(b)
    assert tree_edit_distance(t1, t2, mapping=False).distance == forest_distance((a,), (b,))
    assert tree_edit_distance(t2, t1, mapping=False).distance == forest_distance((b,), (a,))


def test_tables_split_in_chunks_give_the_same_distances(monkeypatch):
    # with a one-cell budget every T2 keyroot gets its own chunk: the leftmost-path rows of
    # an outer chunk must read what the inner chunks stored
    from privlab.graph import tree_edit

    rng = np.random.default_rng(7)

    def rtree(n):
        kids = [[] for _ in range(n)]
        for v in range(1, n):
            kids[int(rng.integers(0, v))].append(v)
        labs = rng.integers(0, 2, n).tolist()

        def nest(v):
            return T(labs[v], *[nest(c) for c in kids[v]])

        return nest(0)

    pairs = [(rtree(int(rng.integers(1, 12))), rtree(int(rng.integers(1, 12)))) for _ in range(30)]
    whole = [tree_edit_distance(build(a), build(b)).distance for a, b in pairs]
    monkeypatch.setattr(tree_edit, "_TABLE_CELLS", 1)
    for (a, b), d in zip(pairs, whole, strict=True):
        edit = tree_edit_distance(build(a), build(b))
        assert edit.distance == d == forest_distance((a,), (b,))
        assert valid_mapping(build(a), build(b), edit.mapping)
