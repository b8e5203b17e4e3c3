"""The Zhang–Shasha tables kept by :func:`privlab.graph.tree_edit.tree_tables`: every subtree
distance against the textbook recursion (the table starts uninitialised, so a cell the
forest rows or the closed-form leaves miss would show), on bushy trees with runs of sibling
leaves (the cached leaf rows), and the spanning-tree attack's walk back of only the closest
tree pair against walking back every pair."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.graph.attacks.srivatsa_hicks import (
    hop_distances,
    random_bfs_tree,
    srivatsa_hicks,
    tree_of_levels,
)
from privlab.graph.tree_edit import ordered_tree, tree_edit_distance, tree_tables
from tests.graph.test_propagation import gnp
from tests.graph.test_srivatsa_hicks import T, build, forest_distance, valid_mapping


def subtrees_in_postorder(tree) -> list:
    """The nested-tuple subtree of each node, in postorder (build's numbering)."""
    out: list = []

    def walk(t) -> None:
        for c in t[1]:
            walk(c)
        out.append(t)

    walk(tree)
    return out


@st.composite
def random_trees(draw, n_max: int, hubs: bool):
    # hubs: parents drawn among the first few nodes — many leaves, often siblings of one
    # label; else among all earlier nodes — deeper trees, inner nodes with leaf last children
    n = draw(st.integers(1, n_max))
    top = draw(st.integers(1, 4)) if hubs else n
    labels = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    kids: dict[int, list[int]] = {i: [] for i in range(n)}
    for i in range(1, n):
        kids[draw(st.integers(0, min(i, top) - 1))].append(i)

    def nest(v):
        return T(labels[v], *[nest(c) for c in kids[v]])

    return nest(0)


def bushy_tree():
    return random_trees(12, hubs=True)


def deep_tree():
    return random_trees(11, hubs=False)


def check_every_cell(a, b) -> None:
    td = tree_tables(build(a), build(b)).td
    want = [[forest_distance((x,), (y,)) for y in subtrees_in_postorder(b)]
            for x in subtrees_in_postorder(a)]  # fmt: skip
    assert np.array_equal(td, np.array(want))


@settings(max_examples=60, deadline=None)
@given(bushy_tree(), bushy_tree())
def test_every_subtree_distance_is_the_recursions(a, b):
    check_every_cell(a, b)


@settings(max_examples=60, deadline=None)
@given(deep_tree(), deep_tree())
def test_every_subtree_distance_is_the_recursions_on_deeper_trees(a, b):
    check_every_cell(a, b)


def test_a_leaf_steps_into_a_subtree_whose_last_child_lacks_its_label():
    # T1 leaf 2 (off the root's leftmost path) maps to T2's inner node 2, whose only child
    # 3 lacks label 2: that column's subtree step is the one that wins
    a, b = T(0, T(1), T(2)), T(0, T(1), T(2, T(3)))
    assert tree_tables(build(a), build(b)).distance == 1 == forest_distance((a,), (b,))
    a = T(0, T(1), T(2), T(2))
    b = T(0, T(1), T(2, T(3)), T(2, T(3), T(4)))
    assert tree_tables(build(a), build(b)).distance == 3 == forest_distance((a,), (b,))
    # and with the last child holding the label, the insertion after it does as well
    a, b = T(0, T(1), T(2)), T(0, T(1), T(5, T(2)))
    assert tree_tables(build(a), build(b)).distance == 1 == forest_distance((a,), (b,))


@settings(max_examples=30, deadline=None)
@given(bushy_tree(), bushy_tree())
def test_tables_edit_is_tree_edit_distance(a, b):
    t1, t2 = build(a), build(b)
    tables = tree_tables(t1, t2)
    edit, direct = tables.edit(), tree_edit_distance(t1, t2)
    assert tables.distance == edit.distance == direct.distance == forest_distance((a,), (b,))
    assert np.array_equal(edit.mapping, direct.mapping)
    assert valid_mapping(t1, t2, edit.mapping)
    # the mapping costs exactly the distance: unmapped nodes plus relabelled pairs
    unmapped = t1.size + t2.size - 2 * len(edit.mapping)
    assert unmapped + edit.relabelled == edit.distance


def closest_pair_by_walking_back_every_pair(g1, g2, s, trees, seed, tree_nodes):
    """The spanning-tree variant's draws, each tree pair aligned with its full mapping, the
    first smallest distance kept (the loop before only the closest pair was walked back)."""
    rng = np.random.default_rng(seed)
    lab1 = np.full(g1.n_nodes, -1, dtype=np.int64)
    lab2 = np.full(g2.n_nodes, -1, dtype=np.int64)
    lab1[s[:, 0]] = np.arange(s.shape[0])
    lab2[s[:, 1]] = np.arange(s.shape[0])
    order = np.concatenate([rng.permutation(s.shape[0]) for _ in range(-(-trees // s.shape[0]))])
    best = None
    for t in range(trees):
        k = int(order[t])
        a = random_bfs_tree(g1, int(s[k, 0]), lab1, rng, tree_nodes)
        b = random_bfs_tree(g2, int(s[k, 1]), lab2, rng, tree_nodes)
        edit = tree_edit_distance(a, b)
        if best is None or edit.distance < best[0]:
            best = (edit.distance, edit.node_pairs(a, b))
    return best


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 5), st.sampled_from([None, 12]))
def test_spanning_trees_map_the_closest_pair_as_walking_back_every_pair(s, trees, cut):
    g1, g2 = gnp(45, 0.12, s), gnp(45, 0.12, s + 1)
    seeds = np.array([[0, 0], [1, 1], [2, 2]])
    res = srivatsa_hicks(g1, g2, seeds, variant="spanning-tree", trees=trees, seed=s,
                         tree_nodes=cut)  # fmt: skip
    dist, pairs = closest_pair_by_walking_back_every_pair(g1, g2, seeds, trees, s, cut)
    assert res.parameters["tree_distance"] == dist
    want = np.full(g1.n_nodes, -1, dtype=np.int64)
    want[seeds[:, 0]] = seeds[:, 1]
    free = ~np.isin(pairs[:, 0], seeds[:, 0]) & ~np.isin(pairs[:, 1], seeds[:, 1])
    want[pairs[free, 0]] = pairs[free, 1]
    assert np.array_equal(res.mapping, want)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 40), st.floats(0.0, 0.3))
def test_hop_distances_are_scipys_unweighted_shortest_paths(s, n, p):
    from scipy.sparse.csgraph import shortest_path

    g = gnp(n, p, s)
    root = s % n
    want = shortest_path(g.to_scipy(), indices=root, unweighted=True, directed=False)
    assert np.array_equal(hop_distances(g, root), want)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 40), st.integers(0, 3))
def test_tree_of_levels_is_ordered_trees_walk(s, k, extra):
    # a random rooted tree on k of the n = k + extra nodes (the others outside it), its
    # siblings in a random order: the level-wise numbering is the node-by-node walk's
    rng = np.random.default_rng(s)
    n = k + extra
    ids = rng.permutation(n)[:k]  # ids[0] the root
    root = int(ids[0])
    parent = {int(ids[v]): int(ids[rng.integers(0, v)]) for v in range(1, k)}
    depth = np.full(n, np.inf)
    depth[root] = 0
    for v in ids[1:].tolist():  # parents come earlier in ids
        depth[v] = depth[parent[v]] + 1
    child = np.array(list(parent), dtype=np.int64)
    par = np.array([parent[v] for v in child.tolist()], dtype=np.int64)
    by = np.lexsort((rng.random(child.size), par))
    child, par = child[by], par[by]
    children: dict[int, list[int]] = {}
    for c, p in zip(child.tolist(), par.tolist(), strict=True):
        children.setdefault(p, []).append(c)
    labels = rng.integers(-1, 3, n)
    got = tree_of_levels(root, child, par, depth, labels)
    want = ordered_tree(root, children, labels)
    assert np.array_equal(got.nodes, want.nodes)
    assert np.array_equal(got.lld, want.lld)
    assert np.array_equal(got.labels, want.labels)
