"""Srivatsa–Hicks (SH): landmarks, then one of three structural mappings.

Source: M. Srivatsa & M. Hicks, *Deanonymizing mobility traces: using social network as a
side-channel*, CCS 2012; seed 004 §2.13 (Sharad's thesis: "landmark nodes found by
centrality, then mapping; about 7 hours for a 125-node graph") and §3.5 / Table 5.9 ("SH
uses its distance-vector variant").  SecGraph (Ji et al., USENIX Security 2015) ships the
distance vector (``deAnonymize.DV``), a randomized-spanning-tree attack
(``deAnonymize.RandomizedSpanningTree``, calling RTED) and an empty
``RecursiveSubGraphMatching``; its code was read, not copied.  The CCS paper itself could not
be reached from this project; what is assumed below is said so (docs/graph/srivatsa-hicks.md).

Landmarks are the seeds (``seeds``; the CLI's ``--seeds N`` takes the top-degree true pairs,
as the paper's centrality landmarks).  Then ``variant``:

``"distance-vector"``
    :func:`~privlab.graph.attacks.distance_vector.distance_vector` unchanged (SecGraph's DV;
    the variant of Sharad's Table 5.9).

``"spanning-tree"``
    ``trees`` times: draw a seed pair k (without replacement while pairs remain), grow in each
    graph a random shortest-path tree from the pair's node (every node picks a uniformly
    random neighbour one hop closer to the root as its parent; ``seed``), order every node's
    children by decreasing degree in its graph (ties at random), label each landmark by its
    pair and every other node alike, and align the two trees by the unit-cost ordered tree
    edit distance (:mod:`privlab.graph.tree_edit`).  The alignment of the tree pair with the
    smallest distance is the mapping (SecGraph keeps the lowest of its tree pairs too; the
    first on ties; only its tables are walked back into a mapping), less any pair touching
    a landmark (landmarks stay with their partners).  ``tree_nodes``
    = N cuts each tree to its N nodes nearest the root (whole levels, then the last level's
    highest degrees; a subtree, since parents lie a level nearer), bounding the work as
    SecGraph's trees are bounded — by accident there: ``TreeNode.add`` compares ``Integer``
    parents with ``==`` and drops every subtree hung under a duplicate queue entry, leaving
    trees of about 500–2,000 of ego-Facebook's 4,039 nodes (docs/graph/srivatsa-hicks.md,
    "What SecGraph's RST does, exactly").  N is ours; the paper's tree size is unknown here.
    Assumed where
    SecGraph differs: SecGraph roots its trees at random nodes, draws them by a randomized
    traversal, compares all trees² pairs and orders children by node id — which, on pairs
    whose two graphs share ids (SecGraph's own), leaks the answer into the alignment.

``"subgraph"`` (recursive subgraph matching)
    From the landmarks, grow the mapping one pair at a time, always adding the unmapped pair
    (u, v) that keeps the mapped subgraphs most alike: its score is the edges it preserves
    minus the edges it breaks between the new node and the mapped ones,
    ``2·c(u, v) − m₁(u) − m₂(v)``, with c the mapped neighbours of u whose partners are
    neighbours of v and m the mapped neighbours of each.  A pair needs c ≥ ``min_common``.
    Each new pair is at once a landmark for its neighbours, so the growth recurses outwards
    from the landmarks; ties go to the smaller u, then the smaller v.  Assumed: the paper's
    recursion also backtracks over ambiguous choices (hence its hours on 125 nodes); this
    one commits greedily, which bounds it by the cost below.

Cost: distance-vector as DV.  spanning-tree: ``trees`` breadth-first searches, O(trees·m),
and ``trees`` tree edit distances, O(n₁·n₂·h²) with h the trees' depth-or-leaves bound
(:mod:`privlab.graph.tree_edit`), O(n₁·n₂) memory, where n₁, n₂ are the tree sizes (the
component's, or min(component, ``tree_nodes``)): trees over ``max_nodes`` nodes are refused
(the CLI says how to raise it).  subgraph: O(Σ over matched pairs of deg₁·deg₂) to count,
plus O(n₂) per row rescored; O(n₁·n₂) small counters (refused over ``max_cells``).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.graph.attacks.distance_vector import distance_vector
from privlab.graph.attacks.seeded import MatchingResult, initial_maps, prepare, result
from privlab.graph.core import Graph
from privlab.graph.tree_edit import OrderedTree, TreeTables, tree_tables
from privlab.progress import ProgressFn
from privlab.validate import check_choice, check_int

VARIANTS = ("distance-vector", "spanning-tree", "subgraph")
MAX_TREE_NODES = 5_000
MAX_CELLS = 400_000_000


def srivatsa_hicks(
    g1: Graph,
    g2: Graph,
    seeds: Any,
    *,
    variant: str = "distance-vector",
    trees: int = 4,
    min_common: int = 2,
    seed: int | np.random.Generator | None = None,
    block: int = 100,
    keep: int = 10,
    mode: str = "queue",
    max_nodes: int = MAX_TREE_NODES,
    max_cells: int = MAX_CELLS,
    tree_nodes: int | None = None,
    truth: Any = None,
    progress: ProgressFn | None = None,
) -> MatchingResult:
    """The Srivatsa–Hicks attack of G1 into G2 from the landmark ``seeds`` (module docstring).

    ``variant``: ``"distance-vector"`` (``block``, ``keep``, ``mode`` as DV's),
    ``"spanning-tree"`` (``trees`` ≥ 1 tree pairs, drawn with ``seed``; each tree cut to its
    ``tree_nodes`` nodes nearest the landmark, or whole when None; trees of at most
    ``max_nodes`` nodes) or ``"subgraph"`` (``min_common`` ≥ 1; at most ``max_cells``
    node pairs).  ``seeds``, ``truth`` as in :func:`~privlab.graph.attacks.propagation.
    propagate`.  ``rounds``: DV's blocks, the tree pairs aligned, or the pairs matched
    (seeds included).  ``progress(done, total)``: DV's; for spanning-tree, thousandths of
    the alignments (1000 per tree pair, advancing keyroot by keyroot); for subgraph, G1
    nodes mapped of |V1|.
    """
    check_choice(variant, "variant", VARIANTS)
    if variant == "distance-vector":
        res = distance_vector(g1, g2, seeds, block=block, keep=keep, mode=mode, truth=truth,
                              progress=progress)  # fmt: skip
        return dataclasses.replace(res, method="srivatsa-hicks",
                                   parameters={"variant": variant, **res.parameters})  # fmt: skip
    if variant == "spanning-tree":
        return _spanning_trees(g1, g2, seeds, trees, seed, max_nodes, tree_nodes, truth, progress)
    return _subgraph(g1, g2, seeds, min_common, max_cells, truth, progress)


def _spanning_trees(
    g1, g2, seeds, trees, seed, max_nodes, tree_nodes, truth, progress
) -> MatchingResult:
    t0 = time.perf_counter()
    nt = check_int(trees, "trees", 1, "the tree pairs drawn and aligned, e.g. 4")
    cap = check_int(max_nodes, "max_nodes", 1)
    if tree_nodes is not None:
        why = "the nodes kept in each tree, nearest the landmark first, e.g. 300"
        tree_nodes = check_int(tree_nodes, "tree_nodes", 1, why)
    g1, g2, s, tr = prepare(g1, g2, seeds, truth, "Srivatsa–Hicks spanning trees")
    n1, n2 = g1.n_nodes, g2.n_nodes
    k1, k2 = (n1, n2) if tree_nodes is None else (min(n1, tree_nodes), min(n2, tree_nodes))
    if max(k1, k2) > cap:
        raise InputError(
            f"spanning-tree: the trees may hold {k1:,} and {k2:,} nodes, over max_nodes = "
            f"{cap:,}: one tree edit distance costs O(n1·n2·depth²) time and about "
            f"{k1 * k2 * 20 / 1e6:,.0f} MB; raise max_nodes if the time is there, cut the "
            "trees (tree_nodes), attack a subgraph, or use another variant"
        )
    rng = np.random.default_rng(seed)
    map12, map21 = initial_maps(n1, n2, s)
    lab1 = np.full(n1, -1, dtype=np.int64)
    lab2 = np.full(n2, -1, dtype=np.int64)
    lab1[s[:, 0]] = np.arange(s.shape[0])
    lab2[s[:, 1]] = np.arange(s.shape[0])
    order = np.concatenate([rng.permutation(s.shape[0]) for _ in range(-(-nt // s.shape[0]))])
    best: TreeTables | None = None  # only the closest pair's tables are walked back
    for t in range(nt):
        k = int(order[t])
        a = random_bfs_tree(g1, int(s[k, 0]), lab1, rng, tree_nodes)
        b = random_bfs_tree(g2, int(s[k, 1]), lab2, rng, tree_nodes)
        step = None
        if progress is not None:

            def step(done: int, total: int, t: int = t) -> None:
                progress(t * 1000 + 1000 * done // max(total, 1), nt * 1000)

        tables = tree_tables(a, b, progress=step)
        if best is None or tables.distance < best.distance:
            best = tables
        del tables
        if progress is not None:
            progress((t + 1) * 1000, nt * 1000)
    assert best is not None
    pairs = best.edit().node_pairs(best.t1, best.t2)
    free = (map12[pairs[:, 0]] < 0) & (map21[pairs[:, 1]] < 0)
    map12[pairs[free, 0]] = pairs[free, 1]
    params = {"variant": "spanning-tree", "trees": nt, "tree_nodes": tree_nodes,
              "tree_distance": best.distance}  # fmt: skip
    return result(map12, s, tr, method="srivatsa-hicks", rounds=nt,
                  seconds=time.perf_counter() - t0, parameters=params)  # fmt: skip


def random_bfs_tree(
    g: Graph,
    root: int,
    labels: np.ndarray,
    rng: np.random.Generator,
    size: int | None = None,
) -> OrderedTree:
    """A random shortest-path tree of ``root``'s component: each node's parent is a uniform
    random neighbour one hop nearer the root; children ordered by decreasing degree, ties
    at random.  ``size``: keep only the ``size`` nodes nearest the root — whole levels
    outwards, and of the last level reached its highest-degree nodes (ties at random) —
    which is a subtree, since every kept node's parent lies a level nearer.  O(m) (one BFS,
    one sort of the edges)."""
    dist = hop_distances(g, root)
    n = g.n_nodes
    deg = g.degrees()
    if size is not None and size < np.isfinite(dist).sum():
        near = np.lexsort((rng.random(n), -deg, dist))[:size]  # inf sorts last
        keep = np.zeros(n, dtype=bool)
        keep[near] = True
        dist = np.where(keep, dist, np.inf)
    src = np.repeat(np.arange(n), np.diff(g.indptr))
    dst = np.asarray(g.indices, dtype=np.int64)
    up = np.isfinite(dist[src]) & (dist[dst] == dist[src] - 1)
    child, par = src[up], dst[up]
    key = rng.random(child.size)
    pick = np.lexsort((key, child))
    child, par = child[pick], par[pick]
    first = np.ones(child.size, dtype=bool)
    first[1:] = child[1:] != child[:-1]
    child, par = child[first], par[first]
    tie = rng.random(child.size)
    by = np.lexsort((tie, -deg[child], par))  # children grouped by parent, in order
    return tree_of_levels(root, child[by], par[by], dist, labels)


def tree_of_levels(
    root: int, child: np.ndarray, par: np.ndarray, depth: np.ndarray, labels: np.ndarray
) -> OrderedTree:
    """The :class:`OrderedTree` of the tree with edges ``child``→``par``, given grouped by
    parent with the siblings in order, ``depth[v]`` each node's depth (finite on the tree) —
    the tree :func:`~privlab.graph.tree_edit.ordered_tree` builds, without its node-by-node
    walk: subtree sizes bottom-up a level at a time; preorder numbers top-down (a node's is
    its parent's + 1 + the sizes of its earlier siblings); postorder = preorder − depth +
    size − 1, and a subtree is the postorder block ending at its root.  O(n·levels)."""
    n = depth.size
    lev = depth[child].astype(np.int64)
    top = int(lev.max(initial=0))
    size = np.zeros(n, dtype=np.int64)
    size[root] = 1
    size[child] = 1
    for d in range(top, 0, -1):  # a level's sizes are whole once the level below is added
        at = lev == d
        size += np.bincount(par[at], weights=size[child[at]], minlength=n).astype(np.int64)
    pre = np.zeros(n, dtype=np.int64)
    for d in range(1, top + 1):
        at = np.flatnonzero(lev == d)
        c, p = child[at], par[at]
        before = np.cumsum(size[c]) - size[c]
        first = np.ones(c.size, dtype=bool)
        first[1:] = p[1:] != p[:-1]
        pre[c] = pre[p] + 1 + before - before[first][np.cumsum(first) - 1]
    tree = np.concatenate([[root], child]).astype(np.int64)
    post = pre[tree] - depth[tree].astype(np.int64) + size[tree] - 1
    nodes = np.empty(tree.size, dtype=np.int64)
    nodes[post] = tree
    lld = np.arange(tree.size) - size[nodes] + 1
    return OrderedTree(nodes, np.asarray(labels, dtype=np.int64)[nodes], lld)


def hop_distances(g: Graph, root: int) -> np.ndarray:
    """Hop distances from ``root`` in the undirected graph ``g`` (float64, inf where
    unreachable): a breadth-first search level by level on the CSR arrays, O(n + m), without
    importing scipy (0.5 s of start-up, more than the search on ego-Facebook)."""
    dist = np.full(g.n_nodes, np.inf)
    dist[root] = 0
    front = np.array([root], dtype=np.int64)
    level = 0
    while front.size:
        level += 1
        lo, hi = g.indptr[front], g.indptr[front + 1]
        take = hi - lo
        at = np.repeat(lo - np.cumsum(take) + take, take) + np.arange(int(take.sum()))
        nb = np.unique(g.indices[at])
        front = nb[np.isinf(dist[nb])].astype(np.int64)
        dist[front] = level
    return dist


def _subgraph(g1, g2, seeds, min_common, max_cells, truth, progress) -> MatchingResult:
    t0 = time.perf_counter()
    need = check_int(min_common, "min_common", 1, "mapped neighbours a pair must share, e.g. 2")
    cap = check_int(max_cells, "max_cells", 1)
    g1, g2, s, tr = prepare(g1, g2, seeds, truth, "Srivatsa–Hicks subgraph matching")
    n1, n2 = g1.n_nodes, g2.n_nodes
    if n1 * n2 > cap:
        raise InputError(
            f"subgraph matching keeps a counter per node pair: {n1:,} × {n2:,} = {n1 * n2:,} "
            f"is over max_cells = {cap:,}; raise max_cells if the memory is there"
        )
    map12, map21 = initial_maps(n1, n2, s)
    grow = _Growth(g1, g2, map12, map21, need)
    for a, b in s.tolist():
        grow.anchor(a, b)
    grow.rescore(np.flatnonzero(map12 < 0))
    matched = int(s.shape[0])
    while True:
        u = int(grow.score.argmax())
        if grow.score[u] == _NONE:
            break
        v = int(grow.col[u])
        map12[u], map21[v] = v, u
        matched += 1
        rows = grow.anchor(u, v)
        touched = grow.cols_touched
        stale = np.flatnonzero(np.isin(grow.col, touched) | (grow.col == v))
        grow.rescore(np.union1d(rows, stale))
        if progress is not None and matched % 256 == 0:
            progress(int(np.count_nonzero(map12 >= 0)), n1)
    params = {"variant": "subgraph", "min_common": need}
    return result(map12, s, tr, method="srivatsa-hicks", rounds=matched,
                  seconds=time.perf_counter() - t0, parameters=params)  # fmt: skip


_NONE = np.iinfo(np.int64).min


class _Growth:
    """The counters of subgraph matching: ``common[u, v]`` (mapped neighbours of u whose
    partners neighbour v), ``m1``/``m2`` (mapped neighbours of each node), and each free G1
    row's best pair (``score``, ``col``; ``_NONE`` when it has none)."""

    def __init__(self, g1: Graph, g2: Graph, map12, map21, need: int) -> None:
        self.g1, self.g2, self.map12, self.map21, self.need = g1, g2, map12, map21, need
        top = int(min(g1.degrees().max(initial=0), g2.degrees().max(initial=0)))
        self.common = np.zeros((g1.n_nodes, g2.n_nodes),
                               dtype=np.uint16 if top < 65_535 else np.int64)  # fmt: skip
        self.m1 = np.zeros(g1.n_nodes, dtype=np.int64)
        self.m2 = np.zeros(g2.n_nodes, dtype=np.int64)
        self.score = np.full(g1.n_nodes, _NONE, dtype=np.int64)
        self.col = np.full(g1.n_nodes, -1, dtype=np.int64)
        self.cols_touched = np.zeros(0, dtype=np.int64)

    def anchor(self, a: int, b: int) -> np.ndarray:
        """(a, b) is mapped: count it for the free neighbours; the G1 rows it changed."""
        g1, g2 = self.g1, self.g2
        r = g1.indices[g1.indptr[a] : g1.indptr[a + 1]]
        c = g2.indices[g2.indptr[b] : g2.indptr[b + 1]]
        self.m1[r] += 1
        self.m2[c] += 1
        r = r[self.map12[r] < 0]
        c = c[self.map21[c] < 0]
        if r.size and c.size:
            self.common[np.ix_(r, c)] += 1
        self.score[a] = _NONE
        self.cols_touched = c
        return r

    def rescore(self, rows: np.ndarray) -> None:
        rows = rows[self.map12[rows] < 0]
        taken = self.map21 >= 0
        for at in range(0, rows.size, 256):
            part = rows[at : at + 256]
            c = self.common[part].astype(np.int64)
            sc = 2 * c - self.m1[part, None] - self.m2[None, :]
            sc[(c < self.need) | taken[None, :]] = _NONE
            best = sc.argmax(axis=1)
            self.col[part] = best
            self.score[part] = sc[np.arange(part.size), best]


__all__ = [
    "MAX_CELLS",
    "MAX_TREE_NODES",
    "VARIANTS",
    "hop_distances",
    "random_bfs_tree",
    "srivatsa_hicks",
    "tree_of_levels",
]
