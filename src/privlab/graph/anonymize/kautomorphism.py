"""k-automorphism (Zou, Chen & Özsu, *K-automorphism: a general framework for privacy
preserving network publication*, VLDB 2009).

Source: the paper, cited in seed 004 §2 (Sharad's thesis, L349–361: "k-automorphism … can
insert up to (k−1)·E edges"); automorphic equivalence is seed 002 §A.2.3.

**Definition.**  A graph G* is *k-automorphic* when it has k−1 automorphisms F_1 … F_{k−1}
such that for every node v, F_i(v) ≠ v and F_i(v) ≠ F_j(v) (i ≠ j): every node has k−1
structurally indistinguishable stand-ins, whatever structural knowledge the adversary has
about a target (its neighbourhood, any subgraph around it).

**The KM algorithm, as built here.**  KM arranges the nodes in an *alignment vertex table*
(AVT): s = ⌈n/k⌉ rows of k columns, adding k·s − n *noise nodes* when k does not divide n.
F_t moves every node t columns to the right (cyclically) along its row.  G* is the closure
of E under the cyclic group {F_0, …, F_{k−1}}: an edge between the cells (r₁, c₁) and
(r₂, c₂) brings the k edges (r₁, c₁ + t) – (r₂, c₂ + t); the paper's *block alignment* (the
edges inside a block, a column here) and *edge copy* (the edges crossing blocks) are the two
halves of that closure.  Each F_t is then an automorphism by construction, fixed-point free
for t ≠ 0, and F_i(v) ≠ F_j(v) because the columns differ — the definition holds for any
table; the table only decides how many edges are added.  The closure has one class of k
edges per distinct (row pair, column offset), so |E*| ≤ k·|E| (at most (k−1)·|E| added).

KM fills the table by METIS graph partitioning into blocks and a greedy alignment of the
blocks by minimum DFS codes; privlab has no METIS and fills it in one of three ways:

* ``table="bfs"`` (default): k breadth-first searches in lockstep.  A row (x_0 … x_{k−1})
  spawns rows (y_0 … y_{k−1}) with y_c an unplaced neighbour of x_c (highest degree
  first), so the k copies of every search-tree edge are original edges; each search starts
  from k pairwise non-adjacent unplaced nodes of highest degree (k disjoint copies of a
  graph are thus aligned without an added edge).  O(m log m).
* ``table="degree"``: rows of k nodes in order of decreasing degree, each row's nodes put in
  columns by an optimal assignment (``scipy.optimize.linear_sum_assignment``) maximizing
  their edges to earlier rows that fall into an edge class already present.  O(m·k² + s·k³).
* ``table="random"``: a uniformly random table, the baseline.

The noise nodes always complete the last row.  Whatever the table, the release is checked
against the definition (``verify=True``: each F_t maps E* onto itself, moves every node, and
the images of a node are all different).  O(k·m log(k·m)) for the closure and the check.
On ca-GrQc (k = 2) the bfs table adds 8 569 edges, the random one 14 471 (of at most 14 484).

**What the release contains.**  Nodes 0..n−1 are the original nodes (same ids and labels),
nodes n..k·s−1 the noise nodes (labelled ``noise1``, … when the input is labelled); every
original edge is kept (E ⊆ E*).  ``automorphisms[t − 1][v]`` = F_t(v).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError
from privlab.graph.anonymize.ksymmetry import MAX_RELEASE_EDGES, GrowingRelease
from privlab.graph.automorphism import is_automorphism, is_fixed_point_free
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_choice, check_int

TABLES = ("bfs", "degree", "random")


class KAutomorphismInternalError(RuntimeError):
    """The release failed its own definition check (a bug, never a silent wrong release)."""


@dataclass(frozen=True, eq=False)
class KAutomorphismResult(GrowingRelease):
    """A k-automorphic release with its AVT (``row``, ``column`` per release node) and the
    k−1 automorphisms ``automorphisms[t − 1]`` = F_t."""

    graph: Graph
    k: int
    table: str
    original_nodes: int
    original_edges: int
    row: np.ndarray
    column: np.ndarray
    automorphisms: np.ndarray
    verified: bool
    seconds: float
    insecure_seed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": "kautomorphism",
            "k": self.k,
            "table": self.table,
            **self.growth(),
            "rows": int(self.row.max()) + 1 if self.row.size else 0,
            "verified": self.verified,
            "seconds": self.seconds,
            "insecure_seed": self.insecure_seed,
        }


def kautomorphism_anonymize(
    graph: Graph, k: int, *, table: str = "bfs", seed: Any = None, verify: bool = True
) -> KAutomorphismResult:
    """Make ``graph`` k-automorphic (Zou, Chen & Özsu, VLDB 2009; module docstring).

    ``table``: how the alignment vertex table is filled (:data:`TABLES`: "bfs", "degree",
    "random"; module docstring).  ``seed`` only breaks ties ("bfs", "degree") or draws the
    table ("random").  ``verify`` checks every F_t against the definition and
    raises :class:`KAutomorphismInternalError` on failure.
    """
    t0 = time.perf_counter()
    graph, k, rng, cells = prepare_table(graph, k, table, seed, "k-automorphism",
                                         "every node gets k−1 automorphic stand-ins")  # fmt: skip
    n, edges, total = graph.n_nodes, graph.edges(), cells.size
    row, column = cells // k, cells % k  # of release nodes 0..total−1 (originals first)
    # closure: edge (r1, c1)–(r2, c2) ⇒ (r1, c1 + t)–(r2, c2 + t) for every t
    t = np.arange(k)
    u, v = edges[:, 0], edges[:, 1]
    cu = (column[u][:, None] + t) % k
    cv = (column[v][:, None] + t) % k
    at = np.empty(total, dtype=np.int64)
    at[cells] = np.arange(total)  # release node in each cell
    a = at[row[u][:, None] * k + cu].ravel()
    b = at[row[v][:, None] * k + cv].ravel()
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    key = np.unique(lo * max(total, 1) + hi)
    closure = np.stack([key // max(total, 1), key % max(total, 1)], axis=1)
    release = Graph.from_edges(total, closure, labels=noise_labels(graph, total))
    autos = np.stack([at[row * k + (column + i) % k] for i in range(1, k)]) if k > 1 else (
        np.zeros((0, total), dtype=np.int64)
    )  # fmt: skip
    if verify:
        _verify(release, autos, k)
    return KAutomorphismResult(
        release, k, table, n, int(edges.shape[0]), row, column, autos, verify,
        time.perf_counter() - t0, is_insecure_seed(rng),
    )  # fmt: skip


def prepare_table(
    graph: Graph, k: int, table: str, seed: Any, what: str, hint: str
) -> tuple[Graph, int, np.random.Generator, np.ndarray]:
    """Check the parameters of a scheme on the alignment table and fill the table: the
    graph (undirected), k, the generator and :func:`alignment_table`'s cells."""
    graph = as_graph(graph, what, undirected=True)
    k = check_int(k, "k", 1, hint)
    check_choice(table, "table", TABLES)
    rng = secure_generator(seed)
    return graph, k, rng, alignment_table(graph, k, table, rng, what)


def alignment_table(
    graph: Graph, k: int, table: str, rng: np.random.Generator, what: str
) -> np.ndarray:
    """The cell (row·k + column) of each release node 0..k·⌈n/k⌉−1 — the originals, then
    the noise nodes — filled as ``table`` says (module docstring).  Refuses (ConfigError) a
    k whose release could exceed :data:`MAX_RELEASE_EDGES` nodes or k·|E| edges."""
    n, m = graph.n_nodes, graph.n_edges
    s = -(-n // k)
    total = s * k
    if max(total, k * m) > MAX_RELEASE_EDGES:
        raise ConfigError(
            f"k = {k}: the {what} release could have {total:,} nodes and up to {k * m:,} "
            f"edges (k·|E|); the limit is {MAX_RELEASE_EDGES:,} of each — choose a smaller k"
        )
    if table == "random":
        return rng.permutation(total)
    if table == "bfs":
        return _bfs_table(graph, k, s, rng)
    return _degree_table(graph, k, s, rng)


def noise_labels(graph: Graph, total: int) -> np.ndarray | None:
    """Labels of a release with noise nodes: the input's, then ``noise1``, ``noise2``, …"""
    if graph.labels is None:
        return None
    n = graph.n_nodes
    labels = np.empty(total, dtype=object)
    labels[:n] = graph.labels.tolist()
    labels[n:] = [f"noise{i}" for i in range(1, total - n + 1)]
    return labels


def _verify(release: Graph, autos: np.ndarray, k: int) -> None:
    """The definition: each F_t an automorphism without fixed points, F_i(v) ≠ F_j(v)."""
    for i, f in enumerate(autos, 1):
        if not is_automorphism(release, f) or not is_fixed_point_free(f):
            raise KAutomorphismInternalError(f"k-automorphism: F_{i} is not a fixed-point-free "
                                             "automorphism of the release")  # fmt: skip
    if k > 1 and release.n_nodes:
        images = np.vstack([np.arange(release.n_nodes), autos])
        if np.any(np.diff(np.sort(images, axis=0), axis=0) == 0):
            raise KAutomorphismInternalError("k-automorphism: F_i(v) = F_j(v) for some v")


def _bfs_table(graph: Graph, k: int, s: int, rng: np.random.Generator) -> np.ndarray:
    """Cells of the release nodes by k breadth-first searches in lockstep: a row (x_0 …
    x_{k−1}) spawns rows (y_0 … y_{k−1}) with y_c an unplaced neighbour of x_c (highest
    degree first), so every edge x_c – y_c of the search trees falls into one edge class —
    the k copies of a tree edge are all original edges.  Each search starts from k unplaced
    nodes of highest degree (:func:`_seeds`); the noise nodes fill the last row."""
    from collections import deque

    n = graph.n_nodes
    total = s * k
    deg = graph.degrees()
    by_degree = np.lexsort((rng.random(n), -deg)).tolist()
    placed = np.zeros(n, dtype=bool)
    rows: list[list[int]] = []
    nbrs = [None] * n  # neighbour lists by degree, built on demand

    def ordered(x: int) -> list[int]:
        if nbrs[x] is None:
            nb = graph.neighbors(x)
            nbrs[x] = nb[np.lexsort((nb, -deg[nb]))].tolist()
        return nbrs[x]

    cursor = 0
    while True:
        while cursor < n and placed[by_degree[cursor]]:
            cursor += 1
        seeds = _seeds(graph, by_degree, placed, cursor, k)
        if len(seeds) < k:  # the last, partial row: the noise nodes complete it
            if seeds:
                rows.append(seeds + list(range(n, n + k - len(seeds))))
            break
        placed[seeds] = True
        rows.append(seeds)
        queue = deque([seeds])
        while queue:
            parent = queue.popleft()
            lists = [ordered(x) for x in parent]
            ptr = [0] * k
            while True:
                child: list[int] = []
                for c in range(k):
                    lst = lists[c]
                    while ptr[c] < len(lst) and placed[lst[ptr[c]]]:
                        ptr[c] += 1
                    if ptr[c] == len(lst):
                        break
                    y = lst[ptr[c]]
                    placed[y] = True  # taken for this row (released below if it fails)
                    child.append(y)
                if len(child) < k:
                    placed[child] = False
                    break
                rows.append(child)
                queue.append(child)
    cells = np.empty(total, dtype=np.int64)
    for r, members in enumerate(rows):
        cells[members] = r * k + np.arange(len(members))
    return cells


def _seeds(graph: Graph, by_degree: list[int], placed: np.ndarray, cursor: int, k: int) -> list:
    """k unplaced nodes of highest degree for a new lockstep search, pairwise non-adjacent
    if possible among the next 64·k candidates (the searches then start in different
    places: k disjoint copies of a graph are aligned without a single added edge)."""
    n = len(by_degree)
    seeds: list[int] = []
    near: set[int] = set()
    skipped: list[int] = []
    j = cursor
    while j < n and len(seeds) < k and j - cursor < 64 * k:
        x = by_degree[j]
        j += 1
        if placed[x]:
            continue
        if x in near:
            skipped.append(x)
            continue
        seeds.append(x)
        near.update(graph.neighbors(x).tolist())
    for x in [*skipped, *by_degree[j:]]:
        if len(seeds) == k:
            break
        if not placed[x] and x not in seeds:
            seeds.append(x)
    return seeds


def _degree_table(graph: Graph, k: int, s: int, rng: np.random.Generator) -> np.ndarray:
    """Cells (row·k + column) of the release nodes 0..s·k−1 (originals, then noise): rows
    of like degree; each row's columns by an assignment maximizing the edges to earlier rows
    that land in an edge class already present."""
    from scipy.optimize import linear_sum_assignment

    n = graph.n_nodes
    total = s * k
    deg = graph.degrees()
    order = np.lexsort((rng.random(n), -deg))  # by degree, ties at random
    order = np.concatenate([order, np.arange(n, total)])  # noise nodes last
    row = np.empty(total, dtype=np.int64)
    row[order] = np.arange(total) // k
    column = np.full(total, -1, dtype=np.int64)
    classes: set[tuple[int, int, int]] = set()
    for r in range(s):
        members = order[r * k : (r + 1) * k]
        gain = np.zeros((k, k))
        for i, x in enumerate(members.tolist()):
            if x >= n:
                continue
            for w in graph.neighbors(x).tolist():
                if column[w] < 0:
                    continue
                rw, cw = int(row[w]), int(column[w])
                for c in range(k):
                    if (rw, r, (c - cw) % k) in classes:
                        gain[i, c] += 1
        _, cols = linear_sum_assignment(gain, maximize=True)
        column[members] = cols
        for i, x in enumerate(members.tolist()):
            if x >= n:
                continue
            for w in graph.neighbors(x).tolist():
                if column[w] >= 0 and row[w] <= r and w != x:
                    classes.add(_class(int(row[w]), int(column[w]), r, int(cols[i]), k))
    return row * k + column


def _class(r1: int, c1: int, r2: int, c2: int, k: int) -> tuple[int, int, int]:
    """The edge class of (r1, c1)–(r2, c2) under the column shifts, with r1 ≤ r2 first."""
    if r1 > r2:
        r1, c1, r2, c2 = r2, c2, r1, c1
    d = (c2 - c1) % k
    return (r1, r2, min(d, (k - d) % k) if r1 == r2 else d)


__all__ = [
    "TABLES",
    "KAutomorphismInternalError",
    "KAutomorphismResult",
    "alignment_table",
    "kautomorphism_anonymize",
    "noise_labels",
    "prepare_table",
]
