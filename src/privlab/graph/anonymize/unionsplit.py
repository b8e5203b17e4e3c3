"""Union-split clustering and cluster-based degree anonymization (Thompson & Yao, ASIACCS 2009).

Source: B. Thompson and D. Yao, "The union-split algorithm and cluster-based anonymization of
social networks", ASIACCS 2009 (named in issue #16 and in SecGraph's scheme list as
``union``).  The paper's text is not among privlab's sources; what follows is recovered from
its abstract (i-hop degree knowledge, clusters with a minimum size, union-split clustering,
inter-cluster matching that adds and removes edges) and from SecGraph's implementation
(``anonymize/UnionSplit.java``, ``common/unionSplitClusteringAlg.java``, ``ClusterCenter``),
read to understand the behaviour, not copied.  Assumptions are marked *assumed*.

**Adversary and definition.**  The adversary knows a target's *i-hop degree*: for i = 0 its
degree, for i = 1 also the multiset of its neighbours' degrees.  Nodes are grouped into
clusters of at least k nodes and the graph is edited so that the members of a cluster are
indistinguishable by degree: **every cluster has ≥ k nodes and all its members have the same
degree in the release** (the degree the cluster's centre stands for).  Every degree of the
release is then held by ≥ k nodes (k-degree anonymity follows).  The i-hop degree is the
*distance* the clustering uses, so that nodes whose neighbourhoods look alike end up together
and the edits are small; the release guarantee is on the degree (0-hop), as in SecGraph's
``interClusterMatching`` (*assumed* to be the paper's guarantee: equalizing the neighbours'
degree multisets inside every cluster as well is not what either source describes).
:func:`check_cluster_degree_anonymity` verifies the release against this definition.

**Distance.**  A node's 1-hop feature is (deg v, its neighbours' degrees sorted in decreasing
order, padded with zeros); the distance is |deg u − deg v| + the L1 distance of the two sorted
vectors (SecGraph's ``ClusterCenter.getDistance``; with i = 0 only the first term).  A
cluster's centre is the member-wise mean of these vectors (*assumed*: SecGraph takes the
floor of the mean degree and the most common neighbour degrees).

**Union-split** (the paper's clustering).  Every node starts as its own cluster.  While some
cluster has fewer than k nodes, take one, C, at random and its nearest cluster C′ (centre
distance); if |C ∪ C′| < 2k they are replaced by their union, otherwise the union is *split*
into two clusters of ≥ k nodes each: the two members farthest apart are the two seeds and
the others go to the nearer seed, the boundary moved (by the difference of the two
distances) so that both sides keep ≥ k.  Each step lowers (number of clusters + number of
nodes in clusters smaller than k), so there are at most 2n steps, and every final cluster has
between k and 2k − 1 nodes (a merged cluster smaller than 2k, or one side of a split of fewer
than 3k nodes).  SecGraph's version splits with a cap that can leave a side below k and
stops on a flag that its own loop does not always clear.

**Inter-cluster matching** (the anonymization).  Cluster C's target degree t_C is the rounded
mean of its members' degrees; if Σ|C|·t_C is odd, the odd-sized cluster whose mean is
nearest the other rounding moves there (a degree sum must be even).  Edges then change only
between existing nodes, each step fixing two units of (target − degree):

1. remove edges between two nodes that both have too many;
2. add edges between two non-adjacent nodes that both have too few (largest need first);
3. *rotation* for a node u with too many and a node v with too few: an edge u–w becomes
   v–w (w keeps its degree);
4. two units of surplus left (u₁, u₂, possibly one node twice): u₁–w and u₂–w′ become w–w′;
5. two units of deficit left (v₁, v₂): an edge a–b becomes v₁–a and v₂–b.

If the local moves ever get stuck (tiny or nearly complete graphs), the target degrees are
realized by Havel–Hakimi started from G's edges and degree-preserving swaps towards G
(:func:`~privlab.graph.anonymize.kdegree.construct_graph`,
:func:`~privlab.graph.anonymize.kdegree.greedy_swap`); the sequence of cluster means is
majorized by the degree sequence, hence graphical up to the rounding — a target that is not
graphical raises :class:`~privlab.errors.InfeasibleError`.  SecGraph differs: its removal
loop for a leftover surplus runs ``for (l = 0; l < adjSize; l++)`` with adjSize < 0, i.e.
never, so such nodes keep too many edges; an unmatched deficit is wired to a *new node −1*
added to the release; and the floor of the mean is used without parity repair.  Its release
is therefore generally not cluster-degree anonymous (measured in
benchmarks/bench_graph_attacks.py, row ``union``).

The release keeps every node (same ids and labels); the result says which cluster each node
is in (``cluster_of`` — secret, like the relabelling's mapping) and what was edited.

**Complexity.**  Clustering: at most 2n union-split steps; a step computes the distance from
one centre to every live cluster in O(c · d_C) with d_C the largest degree in the cluster
(the part of the vectors beyond d_C comes from per-row cumulative sums, kept up to date in
O(d_max) per changed cluster), and a split costs O(k² · d_max) — O(n² · d̄) in all, with
O(n · d_max) memory for the vectors.  Matching: O(m + Σ|t − d| · d_max) set operations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InfeasibleError
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_choice, check_int

#: the i of the i-hop degree the clustering compares (0: degree; 1: + neighbours' degrees)
HOPS = (0, 1)


class UnionSplitInternalError(RuntimeError):
    """The release failed its own definition check (a privlab bug, never returned)."""


# ============================================================================ results
@dataclass(frozen=True)
class UnionSplitClustering:
    """Union-split's clusters: ``cluster_of[v]`` ∈ 0..n_clusters−1; unions and splits made."""

    cluster_of: np.ndarray
    k: int
    hops: int
    unions: int
    splits: int

    @property
    def n_clusters(self) -> int:
        return int(self.cluster_of.max()) + 1 if self.cluster_of.size else 0

    @property
    def sizes(self) -> np.ndarray:
        return np.bincount(self.cluster_of, minlength=self.n_clusters)


@dataclass(frozen=True)
class UnionSplitAnonymization:
    """A cluster-degree-anonymous release (same nodes) and how it was made.

    ``target[c]`` is cluster c's degree in the release; ``edges_added`` = |Ê ∖ E|,
    ``edges_removed`` = |E ∖ Ê|; ``fallback`` says whether the local moves got stuck and the
    targets were realized by construction + swaps instead."""

    graph: Graph
    clustering: UnionSplitClustering
    target: np.ndarray
    edges_added: int
    edges_removed: int
    fallback: bool
    n_edges_before: int
    parameters: dict[str, Any] = field(default_factory=dict)
    insecure_seed: bool = False

    @property
    def cluster_of(self) -> np.ndarray:
        return self.clustering.cluster_of

    def to_dict(self) -> dict[str, Any]:
        sizes = self.clustering.sizes
        return {
            "scheme": "union-split",
            "k": self.clustering.k,
            "hops": self.clustering.hops,
            "n_nodes": self.graph.n_nodes,
            "n_edges_before": self.n_edges_before,
            "n_edges_after": self.graph.n_edges,
            "edges_added": self.edges_added,
            "edges_removed": self.edges_removed,
            "n_clusters": int(sizes.size),
            "smallest_cluster": int(sizes.min()) if sizes.size else 0,
            "largest_cluster": int(sizes.max()) if sizes.size else 0,
            "unions": self.clustering.unions,
            "splits": self.clustering.splits,
            "degree_classes": int(np.unique(self.graph.degrees()).size),
            "fallback_construction": self.fallback,
            "parameters": dict(self.parameters),
            "insecure_seed": self.insecure_seed,
        }


# ============================================================================ the definition
def check_cluster_degree_anonymity(
    release: Any, cluster_of: Any, k: int, *, n_nodes: int | None = None
) -> list[str]:
    """The definition, checked on a release: the problems found (empty list = it holds).

    ``cluster_of`` must be a partition of the release's nodes (one cluster id per node) into
    clusters of ≥ k nodes, and all members of a cluster must have one degree.  ``n_nodes``,
    if given, is the input's node count, which the release must keep.  O(n)."""
    g = as_graph(release, "union-split release", undirected=True)
    c = np.asarray(cluster_of, dtype=np.int64)
    problems = []
    if n_nodes is not None and g.n_nodes != n_nodes:
        problems.append(f"the release has {g.n_nodes} nodes, the input {n_nodes}")
    if c.shape != (g.n_nodes,):
        return [*problems, f"{c.size} cluster ids for {g.n_nodes} nodes"]
    if c.size == 0:
        return problems
    if c.min() < 0:
        return [*problems, "a negative cluster id"]
    sizes = np.bincount(c)
    used = sizes > 0
    small = np.flatnonzero(used & (sizes < k))
    if small.size:
        problems.append(
            f"{small.size} cluster(s) smaller than k = {k} (cluster {int(small[0])}: "
            f"{int(sizes[small[0]])} node(s))"
        )
    deg = g.degrees()
    lo = np.full(sizes.size, np.iinfo(np.int64).max)
    hi = np.full(sizes.size, -1)
    np.minimum.at(lo, c, deg)
    np.maximum.at(hi, c, deg)
    mixed = np.flatnonzero(used & (lo != hi))
    if mixed.size:
        problems.append(
            f"{mixed.size} cluster(s) whose members differ in degree (cluster "
            f"{int(mixed[0])}: degrees {int(lo[mixed[0]])}..{int(hi[mixed[0]])})"
        )
    return problems


# ============================================================================ features
def _features(g: Graph, hops: int) -> tuple[np.ndarray, np.ndarray]:
    """(degrees, n × d_max matrix of neighbour degrees sorted decreasing, 0-padded), float32;
    the matrix has 0 columns for hops = 0.  O(m log d_max)."""
    deg = g.degrees()
    n = g.n_nodes
    if hops == 0 or n == 0 or g.n_edges == 0:
        return deg.astype(np.float32), np.zeros((n, 0), dtype=np.float32)
    width = int(deg.max())
    nd = deg[g.indices].astype(np.float32)
    rows = np.repeat(np.arange(n), deg)
    order = np.lexsort((-nd, rows))  # by row, then neighbour degree decreasing
    pos = np.arange(nd.size) - np.repeat(g.indptr[:-1], deg)
    feat = np.zeros((n, width), dtype=np.float32)
    feat[rows, pos] = nd[order]
    return deg.astype(np.float32), feat


class _Centres:
    """Live cluster centres: degree, the vector, its cumulative row sums and support."""

    def __init__(self, deg: np.ndarray, feat: np.ndarray) -> None:
        self.deg = deg.copy()
        self.vec = feat.copy()
        self.cum = np.cumsum(self.vec, axis=1) if feat.shape[1] else self.vec
        self.support = (feat > 0).sum(axis=1).astype(np.int64)
        self.live = np.ones(deg.size, dtype=bool)

    def compact(self) -> np.ndarray:
        """Drop the dead rows; returns the old row of each new row."""
        keep = np.flatnonzero(self.live)
        self.deg, self.vec, self.cum = self.deg[keep], self.vec[keep], self.cum[keep]
        self.support, self.live = self.support[keep], self.live[keep]
        return keep

    def set(self, slot: int, deg: float, vec: np.ndarray) -> None:
        self.deg[slot] = deg
        if vec.size:
            self.vec[slot] = vec
            np.cumsum(vec, out=self.cum[slot])
            nz = np.flatnonzero(vec)
            self.support[slot] = int(nz[-1]) + 1 if nz.size else 0

    def nearest(self, slot: int) -> int:
        """The live cluster ≠ slot whose centre is nearest slot's centre (all rows at once,
        dead ones masked: slicing a column prefix is a view, gathering live rows would copy)."""
        dist = np.abs(self.deg - self.deg[slot])
        d = int(self.support[slot])
        if self.vec.shape[1]:
            if d:
                dist += np.abs(self.vec[:, :d] - self.vec[slot, :d]).sum(axis=1)
                dist += self.cum[:, -1] - self.cum[:, d - 1]
            else:
                dist += self.cum[:, -1]
        dist[~self.live] = np.inf
        dist[slot] = np.inf
        return int(np.argmin(dist))


def _pairwise(deg: np.ndarray, feat: np.ndarray) -> np.ndarray:
    """All distances among a few nodes (rows of deg / feat).  O(s² · width)."""
    dist = np.abs(deg[:, None] - deg[None, :])
    if feat.shape[1]:
        width = int((feat > 0).sum(axis=1).max(initial=0))
        f = feat[:, :width]
        dist = dist + np.abs(f[:, None, :] - f[None, :, :]).sum(axis=2)
    return dist


def _split(members: np.ndarray, deg: np.ndarray, feat: np.ndarray, k: int):
    """Two clusters of ≥ k nodes each from ≥ 2k nodes: the farthest pair are the seeds, the
    rest go to the nearer one, the boundary moved so that both sides keep ≥ k."""
    dist = _pairwise(deg[members], feat[members])
    a, b = np.unravel_index(int(np.argmax(dist)), dist.shape)
    margin = dist[:, a] - dist[:, b]  # < 0: nearer a
    margin[a], margin[b] = -np.inf, np.inf
    order = np.argsort(margin, kind="stable")
    cut = int(np.clip(np.count_nonzero(margin < 0), k, members.size - k))
    return members[order[:cut]], members[order[cut:]]


def union_split_clustering(
    graph: Any, k: int, *, hops: int = 1, seed: Any = None
) -> UnionSplitClustering:
    """Thompson & Yao's union-split clustering: clusters of k..2k−1 nodes (all nodes in one
    cluster if n < 2k), nodes with similar i-hop degrees together (module docstring).
    O(n² · d̄) time, O(n · d_max) memory."""
    g = as_graph(graph, "union-split", undirected=True)
    k = check_int(k, "k", 1)
    hops = check_choice(hops, "hops", HOPS)
    n = g.n_nodes
    if k > n:
        raise ConfigError(f"k = {k}: the graph has only {n} nodes; give k ≤ {n}")
    rng = secure_generator(seed)
    deg, feat = _features(g, hops)
    members: list[np.ndarray] = [np.array([v]) for v in range(n)]
    unions = splits = 0
    if k > 1:
        centres = _Centres(deg, feat)
        small = [v for v in range(n)]  # slots that may be smaller than k
        dead = 0
        while small:
            if dead > 256 and 2 * dead > centres.live.size:  # keep the scans over live rows
                keep = centres.compact()
                new_of = np.full(len(members), -1)
                new_of[keep] = np.arange(keep.size)
                members = [members[i] for i in keep.tolist()]
                small = [int(new_of[s]) for s in small if new_of[s] >= 0]
                dead = 0
                continue
            i = int(rng.integers(len(small)))
            small[i], small[-1] = small[-1], small[i]
            c = small.pop()
            if not centres.live[c] or members[c].size >= k:
                continue
            other = centres.nearest(c)
            both = np.concatenate([members[c], members[other]])
            if both.size < 2 * k:
                unions += 1
                centres.live[other] = False
                members[other] = members[other][:0]
                dead += 1
                parts = [(c, both)]
            else:
                splits += 1
                left, right = _split(both, deg, feat, k)
                parts = [(c, left), (other, right)]
            for slot, nodes in parts:
                members[slot] = nodes
                centres.set(slot, float(deg[nodes].mean()), feat[nodes].mean(axis=0))
                if nodes.size < k:
                    small.append(slot)
    cluster_of = np.empty(n, dtype=np.int64)
    live = [m for m in members if m.size]
    for cid, nodes in enumerate(live):
        cluster_of[nodes] = cid
    return UnionSplitClustering(cluster_of, k, hops, unions, splits)


# ============================================================================ matching
def cluster_targets(degrees: Any, cluster_of: Any) -> np.ndarray:
    """Each cluster's release degree: its rounded mean degree, one odd-sized cluster moved to
    its other rounding if the degree sum would be odd.  O(n)."""
    d = np.asarray(degrees, dtype=np.int64)
    c = np.asarray(cluster_of, dtype=np.int64)
    sizes = np.bincount(c)
    mean = np.bincount(c, weights=d) / np.maximum(sizes, 1)
    target = np.floor(mean + 0.5).astype(np.int64)
    if int((sizes * target).sum()) & 1:
        other = np.where(mean >= target, target + 1, target - 1)
        n = d.size
        ok = (sizes % 2 == 1) & (other >= 0) & (other <= n - 1)
        cost = np.where(ok, np.abs(other - mean) - np.abs(target - mean), np.inf)
        best = int(np.argmin(cost))
        if not np.isfinite(cost[best]):  # cannot happen for n ≥ 2: some odd cluster exists
            raise InfeasibleError("union-split: no cluster degree can make the degree sum even")
        target[best] = other[best]
    return target


class _Stuck(Exception):
    """The local edge moves found no way forward (the caller falls back to construction)."""


def _match(g: Graph, want: np.ndarray, rng: np.random.Generator) -> list[set[int]]:
    """Steps 1–5 of the module docstring on adjacency sets; _Stuck if a step finds no move."""
    n = g.n_nodes
    adj = [set(g.neighbors(v).tolist()) for v in range(n)]
    need = (want - g.degrees()).astype(np.int64).tolist()  # > 0 too few, < 0 too many

    def cut(u: int, w: int) -> None:
        adj[u].discard(w)
        adj[w].discard(u)

    def join(u: int, w: int) -> None:
        adj[u].add(w)
        adj[w].add(u)

    # 1. remove edges between two nodes with a surplus, largest surplus first
    for u in sorted((v for v in range(n) if need[v] < 0), key=lambda v: need[v]):
        for w in sorted(adj[u], key=lambda x: need[x]):
            if need[u] >= 0:
                break
            if need[w] < 0:
                cut(u, w)
                need[u] += 1
                need[w] += 1
    # 2. add edges between two non-adjacent nodes with a deficit, largest need first
    pending = sorted((v for v in range(n) if need[v] > 0), key=lambda v: -need[v])
    for u in pending:
        if need[u] <= 0:
            continue
        for w in pending:
            if need[u] <= 0:
                break
            if w != u and need[w] > 0 and w not in adj[u]:
                join(u, w)
                need[u] -= 1
                need[w] -= 1
        pending = [v for v in pending if need[v] > 0] if need[u] <= 0 else pending
    surplus = [v for v in range(n) for _ in range(-need[v])]
    deficit = [v for v in range(n) for _ in range(need[v])]
    # 3. rotations: u–w becomes v–w
    while surplus and deficit:
        u, v = surplus.pop(), deficit.pop()
        w = next((w for w in adj[u] if w != v and w not in adj[v]), None)
        if w is None:
            raise _Stuck
        cut(u, w)
        join(v, w)
    # 4. surplus pairs: u1–w, u2–w2 become w–w2
    while len(surplus) >= 2:
        u1, u2 = surplus.pop(), surplus.pop()
        move = next(
            ((w, w2) for w in adj[u1] if w != u2 for w2 in adj[u2]
             if w2 not in (u1, w) and w2 not in adj[w] and not (u1 == u2 and w2 == w)),
            None,
        )  # fmt: skip
        if move is None:
            raise _Stuck
        w, w2 = move
        cut(u1, w)
        cut(u2, w2)
        join(w, w2)
    # 5. deficit pairs: a–b becomes v1–a, v2–b (edges sampled at random)
    edges = g.edges()
    while len(deficit) >= 2:
        v1, v2 = deficit.pop(), deficit.pop()
        for _ in range(64 + 4 * edges.shape[0]):
            a, b = (int(x) for x in edges[int(rng.integers(edges.shape[0]))])
            if rng.random() < 0.5:
                a, b = b, a
            if (b in adj[a] and {a, b}.isdisjoint((v1, v2))
                    and a not in adj[v1] and b not in adj[v2]):  # fmt: skip
                cut(a, b)
                join(v1, a)
                join(v2, b)
                break
        else:
            raise _Stuck
    if surplus or deficit:
        raise _Stuck
    return adj


def _graph_from_adj(g: Graph, adj: list[set[int]]) -> Graph:
    pairs = [(u, w) for u in range(len(adj)) for w in adj[u] if u < w]
    e = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    return Graph.from_edges(g.n_nodes, e, labels=g.labels)


def _edge_keys(g: Graph) -> np.ndarray:
    e = g.edges()
    return e[:, 0] * g.n_nodes + e[:, 1]


def union_split_anonymize(
    graph: Any, k: int, *, hops: int = 1, seed: Any = None, verify: bool = True
) -> UnionSplitAnonymization:
    """Union-split clustering, then inter-cluster matching: a release on the same nodes in
    which every cluster (≥ k nodes) shares one degree (module docstring).  ``verify`` checks
    the definition on the release and raises :class:`UnionSplitInternalError` if it fails.
    O(n² · d̄ + m + Σ|t − d| · d_max)."""
    g = as_graph(graph, "union-split", undirected=True)
    k = check_int(k, "k", 1)
    hops = check_choice(hops, "hops", HOPS)
    rng = secure_generator(seed)
    clustering = union_split_clustering(g, k, hops=hops, seed=rng)
    target = cluster_targets(g.degrees(), clustering.cluster_of)
    want = target[clustering.cluster_of]
    fallback = False
    try:
        release = _graph_from_adj(g, _match(g, want, rng))
    except _Stuck:
        from privlab.graph.anonymize.kdegree import construct_graph, greedy_swap

        fallback = True
        built = construct_graph(want, order="highest", seed=rng, prefer=g, labels=g.labels)
        if built is None:
            raise InfeasibleError(
                f"union-split: the clusters' degrees (k = {k}) are not realizable by any "
                "simple graph on these nodes; try another k"
            ) from None
        release = greedy_swap(built, g, seed=rng).graph
    if verify:
        problems = check_cluster_degree_anonymity(
            release, clustering.cluster_of, k, n_nodes=g.n_nodes
        )
        if problems:
            raise UnionSplitInternalError(
                "union-split release fails its definition: "
                + "; ".join(problems)
                + " — a privlab bug, please report it"
            )
    before, after = _edge_keys(g), _edge_keys(release)
    return UnionSplitAnonymization(
        graph=release,
        clustering=clustering,
        target=target,
        edges_added=int(np.setdiff1d(after, before).size),
        edges_removed=int(np.setdiff1d(before, after).size),
        fallback=fallback,
        n_edges_before=g.n_edges,
        parameters={"k": k, "hops": hops},
        insecure_seed=is_insecure_seed(seed),
    )


__all__ = [
    "HOPS",
    "UnionSplitAnonymization",
    "UnionSplitClustering",
    "UnionSplitInternalError",
    "check_cluster_degree_anonymity",
    "cluster_targets",
    "union_split_anonymize",
    "union_split_clustering",
]
