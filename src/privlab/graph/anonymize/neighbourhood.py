"""k-neighbourhood anonymity (1-hop k-anonymity, "1HKA"), Zhou & Pei's greedy algorithm.

Source: B. Zhou and J. Pei, "Preserving privacy in social networks against neighborhood
attacks", ICDE 2008, §III (the model) and §IV (the greedy method); the journal version is
Knowl. Inf. Syst. 28 (2011).  Seed 004 §2.9 (Sharad's thesis, L1189–1202) benchmarks 1HKA
through a random-insertion stand-in (``--scheme insert``) because "the real scheme adds about
12 % of edges at k = 30 and is too slow for large, dense graphs"; this module is the real scheme.

**Definition.**  The *neighbourhood* N(u) of a node u is the subgraph induced by u's
neighbours (u itself excluded, as in the paper; equivalently the ego graph with u adjacent to
all of them and marked as the centre).  A graph is *k-neighbourhood anonymous* when for every
node u at least k − 1 other nodes v have N(v) isomorphic to N(u).  An adversary who knows a
target's neighbours and the ties among them then faces ≥ k candidates.
:func:`verify_k_neighbourhood` checks exactly this, with igraph's bliss canonical forms.

**Algorithm** (unlabelled graphs, so the paper's label generalization and its NCP term are
void; edges are only added, as in the paper).  Nodes are processed in descending order of
neighbourhood size (degree, then edges inside the neighbourhood, then id).  The first
unanonymized node is the *seed*; it is grouped with the k − 1 unanonymized nodes that are
cheapest to anonymize with it (all the remaining ones when fewer than 2k − 1 remain, so no
group is smaller than k).  The neighbourhoods of the group are made isomorphic pairwise:
seed with u1, then seed with u2, …, and every change the seed's neighbourhood takes while it
is matched with u_j is replayed on u1 … u_{j−1} through their isomorphisms (paper §IV-B).

*Anonymizing two neighbourhoods* N(s), N(v) (paper §IV-B.2): both are split into connected
components; identical components are matched first (the paper compares minimum DFS codes;
here exact bliss canonical forms, igraph ``canonical_permutation``, so a match is an
isomorphism, never a code collision).  The remaining components are paired greedily, largest
first, each with the most similar component of the other side by the anonymization cost of
that pairing; inside a pair the vertices are matched from a start pair of equal (else
closest) degree, highest degree first, then breadth-first, neighbours in descending degree.
Vertices left over on one side are matched with leftovers of the other; when one
neighbourhood has fewer vertices, new neighbours are added to it, chosen as the paper does
among the vertices outside it: unanonymized ones first, smallest degree first (then lowest
id, then outside the current group where possible).  Finally every edge of one
neighbourhood missing in the other under the matching is added, so both become identical
under it.

*Cost* (paper §IV-B.1): Cost(u, v) = α·NCP + β·(edges added inside the two neighbourhoods)
+ γ·(vertices added to them); NCP = 0 here.  Defaults β = γ = 1 (the paper's values for its
experiments could not be recovered from the sources available; β, γ are parameters).

**Deviations, each documented in docs/graph/neighbourhood-anonymity.md.**
(1) Candidate choice: the paper computes the exact pair cost from the seed to *every*
unanonymized node; here a vectorized lower-bound estimate γ·|Δdegree| + β·|Δ(edges inside
the neighbourhood)| ranks all of them and the exact greedy cost is computed for the
``shortlist``·(k − 1) best (default 3·(k − 1)).  (2) Ripple: an added edge a–b changes the
neighbourhoods of a, b and of every common neighbour of a and b, possibly of nodes in groups
already anonymized (and, inside a group, of members already matched).  The paper's greedy
pass does not say how it restores those; here a group is re-matched until its members are
isomorphic, and (``repair=True``) a finished group that an addition broke is re-matched with
the same members until no group is broken.  Every re-match of a non-isomorphic pair adds at
least one edge and edges are only added, so the procedure terminates (at worst at the
complete graph, which is n-neighbourhood anonymous); the release is then verified
(``verify=True``).  ``repair=False`` is the single greedy pass: its check may list violating
nodes.  (3) Overlap: shared neighbours of the two nodes being matched are matched to
themselves (and v to s when s ~ v) before the paper's component matching runs on the private
parts; otherwise an edge added on one side also lands in the other neighbourhood and the pair
never converges.  (4) ``max_added`` caps the added edges (fraction of |E|); past it a
ConfigError is raised, never a partial release.  Measured: on ca-GrQc (k = 5) and
ego-Facebook (k = 10) the ripple exceeds |E| added edges in the first groups, and small
graphs (karate, Les Misérables) end near the complete graph — see the docs page.

**Complexity.**  Per group: O(L · c(d)) for the shortlist of L = shortlist·(k − 1)
candidates, c(d) the matching cost of neighbourhoods of size d (bliss per component plus
O(d + e_N) Python work, e_N the edges inside the neighbourhood), plus O(k · e_N) for the
replays; O(n) numpy work per seed for the estimate.  Roughly O((n/k) · k · c(d_max)) overall
without ripple; ripple re-queues groups and can multiply this on dense graphs (the paper's own
remark; measured in docs).  Verification: one bliss canonical form per node,
O(Σ_u bliss(N(u))).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.errors import ConfigError
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_int, check_number_in

__all__ = [
    "NeighbourhoodAnonymityResult",
    "NeighbourhoodCheck",
    "NeighbourhoodInternalError",
    "neighbourhood_anonymize",
    "neighbourhood_classes",
    "verify_k_neighbourhood",
]


class _OverBudget(Exception):
    """More edges than ``max_added`` allows were needed."""


class NeighbourhoodInternalError(RuntimeError):
    """The release failed its own definition check (a bug, never a silent wrong release)."""


# ----------------------------------------------------------------------------- canonical forms
def _canonical(n: int, edges: list[tuple[int, int]]) -> tuple[bytes, list[int]]:
    """Exact canonical form (bliss) of a graph on 0..n−1: (key, perm) with perm[i] the
    canonical label of vertex i; equal keys ⇔ isomorphic graphs."""
    import igraph

    g = igraph.Graph(n=n, edges=edges)
    # igraph's vector lists, per canonical position, the vertex placed there; invert it
    label = np.empty(n, dtype=np.int64)
    label[g.canonical_permutation() if n > 1 else list(range(n))] = np.arange(n)
    perm = label.tolist()
    if edges:
        e = label[np.asarray(edges, dtype=np.int64)]
        e.sort(axis=1)
        e = e[np.lexsort((e[:, 1], e[:, 0]))]
        body = e.tobytes()
    else:
        body = b""
    return n.to_bytes(8, "little") + body, list(perm)


def _local(adj: list[set[int]], u: int) -> tuple[list[int], list[tuple[int, int]]]:
    """N(u): its vertices (sorted) and its edges in local indices."""
    verts = sorted(adj[u])
    index = {x: i for i, x in enumerate(verts)}
    vset = adj[u]
    edges = []
    for i, x in enumerate(verts):
        for y in adj[x] & vset:
            j = index[y]
            if i < j:
                edges.append((i, j))
    return verts, edges


# ------------------------------------------------------------------------------- verification
@dataclass(frozen=True)
class NeighbourhoodCheck:
    """The neighbourhood-isomorphism classes of a graph and whether they all have ≥ k nodes."""

    k: int
    classes: np.ndarray  # per node, its class id (0..n_classes−1)
    sizes: np.ndarray  # per class, its number of nodes

    @property
    def n_classes(self) -> int:
        return int(self.sizes.size)

    @property
    def min_class(self) -> int:
        return int(self.sizes.min()) if self.sizes.size else 0

    @property
    def violating(self) -> np.ndarray:
        """The nodes whose class has fewer than k nodes."""
        return np.flatnonzero(self.sizes[self.classes] < self.k) if self.classes.size else (
            np.zeros(0, dtype=np.int64))  # fmt: skip

    @property
    def ok(self) -> bool:
        return self.violating.size == 0

    def __bool__(self) -> bool:
        return self.ok

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "ok": self.ok,
            "classes": self.n_classes,
            "min_class": self.min_class,
            "violating_nodes": int(self.violating.size),
        }


def neighbourhood_classes(graph: Graph) -> np.ndarray:
    """Per node, the id of its neighbourhood-isomorphism class (ids by first appearance):
    u and v share an id iff N(u) ≅ N(v), decided by exact bliss canonical forms.
    O(Σ_u (d_u + Σ_{w∈N(u)} d_w) + bliss(N(u)))."""
    graph = as_graph(graph, "neighbourhood classes", undirected=True)
    adj = _adjacency(graph)
    ids: dict[bytes, int] = {}
    out = np.empty(graph.n_nodes, dtype=np.int64)
    for u in range(graph.n_nodes):
        verts, edges = _local(adj, u)
        key = _canonical(len(verts), edges)[0]
        out[u] = ids.setdefault(key, len(ids))
    return out


def verify_k_neighbourhood(graph: Graph, k: int) -> NeighbourhoodCheck:
    """Check k-neighbourhood anonymity exactly (Zhou & Pei's definition): every node's
    neighbourhood is isomorphic to those of at least k − 1 other nodes.  ``bool(result)`` is
    the verdict; ``result.violating`` lists the nodes in classes smaller than k."""
    graph = as_graph(graph, "k-neighbourhood check", undirected=True)
    k = check_int(k, "k", 1, "every node's neighbourhood must be shared by at least k nodes")
    classes = neighbourhood_classes(graph)
    sizes = np.bincount(classes) if classes.size else np.zeros(0, dtype=np.int64)
    return NeighbourhoodCheck(k, classes, sizes)


def _adjacency(graph: Graph) -> list[set[int]]:
    indptr, indices = graph.indptr, graph.indices
    return [set(indices[indptr[u] : indptr[u + 1]].tolist()) for u in range(graph.n_nodes)]


# ---------------------------------------------------------------------------------- the result
@dataclass(frozen=True, eq=False)
class NeighbourhoodAnonymityResult:
    """A k-neighbourhood-anonymous release: same nodes, the input's edges plus ``added``."""

    graph: Graph
    k: int
    original_edges: int
    added: np.ndarray  # (m, 2) the edges added, u < v
    groups: np.ndarray  # per node, the id of the group it was anonymized in
    check: NeighbourhoodCheck | None  # the release's exact classes (None: not verified)
    classes_before: int
    min_class_before: int
    beta: float
    gamma: float
    shortlist: int
    group_passes: int  # group matchings run (first passes and re-matches)
    groups_repaired: int  # re-matches of finished groups broken by a later addition
    seconds: float

    @property
    def edges_added(self) -> int:
        return int(self.added.shape[0])

    @property
    def fraction_added(self) -> float:
        return self.edges_added / self.original_edges if self.original_edges else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": "k-neighbourhood",
            "k": self.k,
            "nodes": self.graph.n_nodes,
            "original_edges": self.original_edges,
            "edges_added": self.edges_added,
            "edges_removed": 0,
            "fraction_added": self.fraction_added,
            "classes_before": self.classes_before,
            "min_class_before": self.min_class_before,
            "classes_after": None if self.check is None else self.check.n_classes,
            "min_class_after": None if self.check is None else self.check.min_class,
            "verified": self.check is not None and self.check.ok,
            "groups": int(self.groups.max()) + 1 if self.groups.size else 0,
            "group_passes": self.group_passes,
            "groups_repaired": self.groups_repaired,
            "beta": self.beta,
            "gamma": self.gamma,
            "shortlist": self.shortlist,
            "seconds": self.seconds,
        }


# ------------------------------------------------------------------------------- the algorithm
_NEW = -1  # a matched position whose vertex is still to be drawn from outside


class _State:
    """The working graph (adjacency sets) and the bookkeeping of the greedy pass."""

    def __init__(self, graph: Graph, beta: float, gamma: float) -> None:
        self.n = graph.n_nodes
        self.adj = _adjacency(graph)
        self.deg = graph.degrees().astype(np.int64)
        self.m = np.array([sum(len(self.adj[x] & self.adj[u]) for x in self.adj[u]) // 2
                           for u in range(self.n)], dtype=np.int64)  # fmt: skip
        self.beta, self.gamma = beta, gamma
        self.anonymized = np.zeros(self.n, dtype=bool)
        self.group_of = np.full(self.n, -1, dtype=np.int64)
        self.groups: dict[int, list[int]] = {}
        self.added: list[tuple[int, int]] = []
        self.touched: set[int] = set()
        self.keys: dict[int, bytes] = {}
        self.budget = 0

    # -- edits
    def add_edge(self, a: int, b: int) -> bool:
        if a == b or b in self.adj[a]:
            return False
        common = self.adj[a] & self.adj[b]
        for w in common:
            self.m[w] += 1
            self.keys.pop(w, None)
        self.m[a] += len(common)
        self.m[b] += len(common)
        self.adj[a].add(b)
        self.adj[b].add(a)
        self.deg[a] += 1
        self.deg[b] += 1
        self.keys.pop(a, None)
        self.keys.pop(b, None)
        self.touched.update(common)
        self.touched.update((a, b))
        self.added.append((a, b) if a < b else (b, a))
        if len(self.added) > self.budget:
            raise _OverBudget
        return True

    def key(self, u: int) -> bytes:
        if u not in self.keys:
            verts, edges = _local(self.adj, u)
            self.keys[u] = _canonical(len(verts), edges)[0]
        return self.keys[u]

    def uniform(self, nodes: list[int]) -> bool:
        first = self.key(nodes[0])
        return all(self.key(u) == first for u in nodes[1:])

    # -- outside vertices (paper: unanonymized first, smallest degree first)
    def draw(self, centre: int, count: int, avoid: set[int], other: int = -1) -> list[int]:
        """``count`` vertices outside N(centre) ∪ {centre, other}, outside ``avoid`` if
        possible; unanonymized first, then smallest degree, then lowest id (the paper)."""
        if count <= 0:
            return []
        banned = np.zeros(self.n, dtype=bool)
        banned[list(self.adj[centre])] = True
        banned[centre] = True
        if other >= 0:
            banned[other] = True
        soft = np.zeros(self.n, dtype=bool)
        soft[list(avoid)] = True
        free = np.flatnonzero(~banned)
        if free.size < count:  # cannot happen: N(centre) is the smaller side (< n − 1)
            raise NeighbourhoodInternalError(
                f"node {centre} needs {count} new neighbours, {free.size} are free"
            )
        order = np.lexsort((free, self.deg[free], self.anonymized[free], soft[free]))
        return free[order[:count]].tolist()

    # -- matching two neighbourhoods
    def match(self, s: int, v: int) -> tuple[list[int], list[int], float]:
        """Align N(s) and N(v): equal-length lists A (s side) and B (v side), _NEW where a
        vertex must be added; and the anonymization cost of the alignment (new vertices
        taken as isolated in their neighbourhood)."""
        vs, es = _local(self.adj, s)
        vv, ev = _local(self.adj, v)
        ks, ps = _canonical(len(vs), es)
        kv, pv = _canonical(len(vv), ev)
        if ks == kv:  # already isomorphic: the exact isomorphism through canonical labels
            inv = np.empty(len(vv), dtype=np.int64)
            inv[pv] = np.arange(len(vv))
            return vs, [vv[int(inv[c])] for c in ps], 0.0
        # shared neighbours to themselves and, if s ~ v, v to s: an edge added on one side
        # is then its own mirror; the paper's matching aligns the private parts
        index_s = {x: i for i, x in enumerate(vs)}
        index_v = {x: i for i, x in enumerate(vv)}
        common = sorted(self.adj[s] & self.adj[v])
        fixed_s = [index_s[c] for c in common]
        fixed_v = [index_v[c] for c in common]
        if v in index_s:
            fixed_s.append(index_s[v])
            fixed_v.append(index_v[s])
        own_s = sorted(set(range(len(vs))) - set(fixed_s))
        own_v = sorted(set(range(len(vv))) - set(fixed_v))
        sub_s, sub_v = _restrict(own_s, es), _restrict(own_v, ev)
        ps_, pv_ = _align(len(own_s), sub_s, len(own_v), sub_v)
        pairs_s = fixed_s + [own_s[i] if i >= 0 else -1 for i in ps_]
        pairs_v = fixed_v + [own_v[j] if j >= 0 else -1 for j in pv_]
        a = [vs[i] if i >= 0 else _NEW for i in pairs_s]
        b = [vv[j] if j >= 0 else _NEW for j in pairs_v]
        pos_s = {i: p for p, i in enumerate(pairs_s) if i >= 0}
        pos_v = {j: p for p, j in enumerate(pairs_v) if j >= 0}
        set_s = {_pair(pos_s[i], pos_s[j]) for i, j in es}
        set_v = {_pair(pos_v[i], pos_v[j]) for i, j in ev}
        new = pairs_s.count(-1) + pairs_v.count(-1)
        cost = self.beta * len(set_s ^ set_v) + self.gamma * new
        return a, b, cost

    def apply(self, s: int, v: int, a: list[int], b: list[int], avoid: set[int]) -> list[int]:
        """Add the new vertices and the missing edges so N(s) and N(v) become identical
        under the alignment (a, b), completed in place.  An added edge can itself change
        N(s) or N(v) (shared neighbours, or s and v adjacent): the alignment is then kept
        and extended to the new neighbours, and the edges equalized again, until the two
        neighbourhoods are isomorphic (monotone: this ends)."""
        while True:
            for centre, side, other in ((s, a, v), (v, b, s)):
                holes = [p for p, x in enumerate(side) if x == _NEW]
                soft = avoid | self.adj[other]
                for p, x in zip(holes, self.draw(centre, len(holes), soft, other), strict=True):
                    side[p] = x
                for p in holes:
                    self.add_edge(centre, side[p])
            changed = self._equalize(a, b)
            extra_a = sorted(self.adj[s] - set(a), key=lambda x: (-int(self.deg[x]), x))
            extra_b = sorted(self.adj[v] - set(b), key=lambda x: (-int(self.deg[x]), x))
            if not extra_a and not extra_b and not changed:
                if self.key(s) != self.key(v):  # cannot happen: identical under (a, b)
                    raise NeighbourhoodInternalError(f"nodes {s}, {v}: alignment is no isomorphism")
                return a
            size = max(len(extra_a), len(extra_b))
            a.extend(extra_a + [_NEW] * (size - len(extra_a)))
            b.extend(extra_b + [_NEW] * (size - len(extra_b)))

    def _equalize(self, a: list[int], b: list[int]) -> int:
        """Add the edges one side has and the other lacks under (a, b); the number added."""
        pos_a = {x: p for p, x in enumerate(a)}
        pos_b = {x: p for p, x in enumerate(b)}
        sa, sb = set(a), set(b)
        ea = {_pair(pos_a[x], pos_a[y]) for x in a for y in self.adj[x] & sa}
        eb = {_pair(pos_b[x], pos_b[y]) for x in b for y in self.adj[x] & sb}
        count = 0
        for p, q in sorted(ea - eb):
            count += self.add_edge(b[p], b[q])
        for p, q in sorted(eb - ea):
            count += self.add_edge(a[p], a[q])
        return count


def _restrict(verts: list[int], edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The edges among ``verts`` (sorted local indices), renumbered 0..len(verts)−1."""
    index = {x: i for i, x in enumerate(verts)}
    return [(index[i], index[j]) for i, j in edges if i in index and j in index]


def _pair(p: int, q: int) -> tuple[int, int]:
    return (p, q) if p < q else (q, p)


def _components(n: int, edges: list[tuple[int, int]]) -> tuple[list[list[int]], list[list[int]]]:
    """Connected components (vertex lists) and the local adjacency lists of a small graph."""
    nb: list[list[int]] = [[] for _ in range(n)]
    for i, j in edges:
        nb[i].append(j)
        nb[j].append(i)
    seen = [False] * n
    comps = []
    for r in range(n):
        if seen[r]:
            continue
        seen[r] = True
        stack, comp = [r], []
        while stack:
            x = stack.pop()
            comp.append(x)
            for y in nb[x]:
                if not seen[y]:
                    seen[y] = True
                    stack.append(y)
        comps.append(sorted(comp))
    return comps, nb


def _comp_key(comp: list[int], nb: list[list[int]]) -> tuple[bytes, list[int]]:
    index = {x: i for i, x in enumerate(comp)}
    edges = [(index[x], index[y]) for x in comp for y in nb[x] if x < y]
    return _canonical(len(comp), edges)


def _bfs_order(comp: list[int], nb: list[list[int]], start: int) -> list[int]:
    """Breadth-first from ``start``, each vertex's unvisited neighbours in descending degree
    (then id); the vertices it cannot reach (none: comp is connected) follow."""
    order, seen, head = [start], {start}, 0
    while head < len(order):
        x = order[head]
        head += 1
        for y in sorted((y for y in nb[x] if y not in seen), key=lambda y: (-len(nb[y]), y)):
            seen.add(y)
            order.append(y)
    order.extend(x for x in comp if x not in seen)
    return order


def _start_pair(c1: list[int], c2: list[int], nb1: list[list[int]], nb2: list[list[int]]):
    """The paper's start: a pair of equal degree, highest first; else the closest degrees."""
    d1 = {len(nb1[x]) for x in c1}
    common = d1 & {len(nb2[y]) for y in c2}
    if common:
        d = max(common)
        return (min(x for x in c1 if len(nb1[x]) == d), min(y for y in c2 if len(nb2[y]) == d))
    return min((abs(len(nb1[x]) - len(nb2[y])), -len(nb1[x]), x, y) for x in c1 for y in c2)[2:]


def _zip_components(c1, c2, nb1, nb2) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Vertex matching of two components (BFS from the start pair); leftovers of each."""
    x0, y0 = _start_pair(c1, c2, nb1, nb2)
    o1, o2 = _bfs_order(c1, nb1, x0), _bfs_order(c2, nb2, y0)
    n = min(len(o1), len(o2))
    return list(zip(o1[:n], o2[:n], strict=True)), o1[n:], o2[n:]


def _pair_cost(pairs, nb1, nb2, extra: int) -> int:
    """Edges missing on either side under a partial matching, plus the size difference."""
    f = dict(pairs)
    g = {y: x for x, y in pairs}
    miss = sum(1 for x, y in pairs for x2 in nb1[x] if x2 in f and f[x2] not in nb2[y])
    miss += sum(1 for x, y in pairs for y2 in nb2[y] if y2 in g and g[y2] not in nb1[x])
    return miss // 2 + extra


_PARTNERS = 8  # components of the other side tried per unmatched component


def _best_partner(tries, nbs1, nbs2):
    """The cheapest of the candidate component matchings (first on ties): (index, it)."""
    costs = [_pair_cost(pairs, nbs1, nbs2, len(l1) + len(l2)) for pairs, l1, l2 in tries]
    idx = costs.index(min(costs))
    return idx, tries[idx]


def _align(n1: int, e1: list[tuple[int, int]], n2: int, e2: list[tuple[int, int]]):
    """Alignment of two neighbourhoods (local indices; −1 = a vertex to add), paper §IV-B.2."""
    comps1, nb1 = _components(n1, e1)
    comps2, nb2 = _components(n2, e2)
    nbs1 = [set(x) for x in nb1]
    nbs2 = [set(x) for x in nb2]
    out1: list[int] = []
    out2: list[int] = []
    # 1. perfect matches: identical components, through their canonical labellings
    keyed2: dict[bytes, list[tuple[list[int], list[int]]]] = {}
    for c in comps2:
        key, perm = _comp_key(c, nb2)
        keyed2.setdefault(key, []).append((c, perm))
    rest1 = []
    for c in comps1:
        key, perm = _comp_key(c, nb1)
        if keyed2.get(key):
            c2, perm2 = keyed2[key].pop()
            inv = {lab: c2[i] for i, lab in enumerate(perm2)}
            for i, x in enumerate(c):
                out1.append(x)
                out2.append(inv[perm[i]])
        else:
            rest1.append(c)
    rest2 = [c for lst in keyed2.values() for c, _ in lst]
    rest1.sort(key=lambda c: (-len(c), c[0]))
    rest2.sort(key=lambda c: (-len(c), c[0]))
    left1: list[int] = []
    left2: list[int] = []
    # 2. the other components, largest first, each with its cheapest partner
    while rest1 and rest2:
        if len(rest1[0]) >= len(rest2[0]):
            c = rest1.pop(0)
            idx, (pairs, l1, l2) = _best_partner(
                [_zip_components(c, c2, nb1, nb2) for c2 in rest2[:_PARTNERS]], nbs1, nbs2
            )
            rest2.pop(idx)
        else:
            c2 = rest2.pop(0)
            idx, (pairs, l1, l2) = _best_partner(
                [_zip_components(c, c2, nb1, nb2) for c in rest1[:_PARTNERS]], nbs1, nbs2
            )
            rest1.pop(idx)
        for x, y in pairs:
            out1.append(x)
            out2.append(y)
        left1.extend(l1)
        left2.extend(l2)
    for c in rest1:
        left1.extend(c)
    for c in rest2:
        left2.extend(c)
    # 3. leftovers with leftovers (descending degree), the rest with vertices to add
    left1.sort(key=lambda x: (-len(nb1[x]), x))
    left2.sort(key=lambda y: (-len(nb2[y]), y))
    size = max(len(left1), len(left2))
    out1.extend(left1 + [-1] * (size - len(left1)))
    out2.extend(left2 + [-1] * (size - len(left2)))
    return out1, out2


# ------------------------------------------------------------------------------ entry point
def neighbourhood_anonymize(
    graph: Graph,
    k: int,
    *,
    beta: float = 1.0,
    gamma: float = 1.0,
    shortlist: int = 3,
    repair: bool = True,
    max_added: float = 1.0,
    verify: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> NeighbourhoodAnonymityResult:
    """Make ``graph`` k-neighbourhood anonymous by adding edges (Zhou & Pei, ICDE 2008;
    module docstring for the algorithm, its deviations and its complexity).

    Deterministic (ties broken by node id).  ``beta``, ``gamma``: the cost weights of an
    added edge and of an added neighbour.  ``shortlist``: the exact pair cost is computed for
    the ``shortlist``·(k − 1) candidates with the best estimate.  ``verify`` recomputes the
    release's classes exactly (bliss) and raises :class:`NeighbourhoodInternalError` if one
    has fewer than k nodes.  ``progress(done, total)`` reports the anonymized nodes.
    ConfigError if k exceeds the number of nodes.
    """
    graph = as_graph(graph, "k-neighbourhood anonymity", undirected=True)
    k = check_int(k, "k", 1, "every node's neighbourhood will be shared by at least k nodes")
    beta = check_number_in(beta, "beta", 0.0, 1e6, hint="the cost of an added edge")
    gamma = check_number_in(gamma, "gamma", 0.0, 1e6, hint="the cost of an added neighbour")
    shortlist = check_int(shortlist, "shortlist", 1, "the exact cost is computed for "
                          "shortlist·(k − 1) candidates per seed")  # fmt: skip
    max_added = check_number_in(
        max_added,
        "max_added",
        0.0,
        1e6,
        hint="the most edges the scheme may add, as a fraction of the input's edges",
    )
    n = graph.n_nodes
    if k > n:
        raise ConfigError(
            f"k = {k}: the graph has only {n} node(s), so no neighbourhood can be shared by "
            f"{k} nodes; choose k ≤ {n}"
        )
    import igraph  # noqa: F401  (imported before the clock starts)

    t0 = time.perf_counter()
    before = verify_k_neighbourhood(graph, k)
    st = _State(graph, beta, gamma)
    st.budget = max(1, int(max_added * graph.n_edges))
    try:
        passes, repaired = _greedy(st, n, k, beta, gamma, shortlist, repair, progress)
    except _OverBudget:
        raise ConfigError(
            f"k = {k}: k-neighbourhood anonymity needed more than max_added = {max_added:g} × "
            f"{graph.n_edges:,} edges (added edges change other nodes' neighbourhoods, which "
            f"must be re-matched in turn); choose a smaller k or raise max_added (CLI: --fraction)"
        ) from None
    edges = graph.edges()
    added = np.asarray(sorted(st.added), dtype=np.int64).reshape(-1, 2)
    release = Graph.from_edges(n, np.concatenate([edges, added]), labels=graph.labels)
    groups = np.empty(n, dtype=np.int64)
    for new_id, g in enumerate(sorted(st.groups)):
        groups[st.groups[g]] = new_id
    check = None
    if verify:
        check = verify_k_neighbourhood(release, k)
        if repair and not check.ok:
            raise NeighbourhoodInternalError(
                f"k-neighbourhood: {check.violating.size} node(s) of the release are in "
                f"classes smaller than k = {k}"
            )
    return NeighbourhoodAnonymityResult(
        release, k, int(edges.shape[0]), added, groups, check, before.n_classes,
        before.min_class, beta, gamma, shortlist, passes, repaired, time.perf_counter() - t0,
    )  # fmt: skip


def _greedy(
    st: _State,
    n: int,
    k: int,
    beta: float,
    gamma: float,
    shortlist: int,
    repair: bool,
    progress: Callable[[int, int], None] | None,
) -> tuple[int, int]:
    """The greedy pass (module docstring); returns (group passes, groups repaired)."""
    passes = repaired = 0
    next_group = 0
    while True:
        rest = np.flatnonzero(~st.anonymized)
        if progress is not None:
            progress(n - rest.size, n)
        if rest.size == 0:
            break
        order = np.lexsort((rest, -st.m[rest], -st.deg[rest]))
        seed = int(rest[order[0]])
        others = rest[rest != seed]
        if others.size >= 2 * k - 1:
            est = gamma * np.abs(st.deg[others] - st.deg[seed]) + beta * np.abs(
                st.m[others] - st.m[seed]
            )
            short = others[np.lexsort((others, est))[: shortlist * (k - 1)]]
            costs = sorted((st.match(seed, v)[2], v) for v in short.tolist())
            members = [v for _, v in costs[: k - 1]]
        else:
            members = others.tolist()
        group = [seed, *members]
        st.touched = set()
        passes += _anonymize_group(st, group)
        gid = next_group
        next_group += 1
        st.groups[gid] = group
        st.anonymized[group] = True
        st.group_of[group] = gid
        # ripple: finished groups whose neighbourhoods an addition changed are re-matched,
        # same members, until no group is broken (each re-match adds ≥ 1 edge: this ends)
        broken = _broken(st, gid) if repair else set()
        while broken:
            g = min(broken)
            broken.discard(g)
            st.touched = set()
            passes += _anonymize_group(st, st.groups[g])
            repaired += 1
            broken = {b for b in broken | _broken(st, g) if not st.uniform(st.groups[b])}
    return passes, repaired


def _broken(st: _State, gid: int) -> set[int]:
    """Finished groups (other than ``gid``) with a member whose neighbourhood an addition
    since ``st.touched`` was reset changed, and that are no longer isomorphic."""
    hit = {int(st.group_of[t]) for t in st.touched if st.group_of[t] >= 0} - {gid}
    return {g for g in hit if not st.uniform(st.groups[g])}


def _anonymize_group(st: _State, group: list[int]) -> int:
    """Make the neighbourhoods of ``group`` isomorphic (seed = group[0]); returns the number
    of passes.  Each pass matches the seed with u1, u2, … and replays the seed's changes on
    the members already matched; passes repeat until the members are isomorphic (each pass
    over a non-isomorphic group adds ≥ 1 edge, so this ends)."""
    seed, members = group[0], group[1:]
    avoid = set(group)
    passes = 0
    while True:
        passes += 1
        maps: list[tuple[int, dict[int, int]]] = []
        for u in members:
            size_before, inner_before = int(st.deg[seed]), int(st.m[seed])
            a, b, _ = st.match(seed, u)
            a = st.apply(seed, u, a, b, avoid)
            if maps and (st.deg[seed] != size_before or st.m[seed] != inner_before):
                for w, phi in maps:
                    _replay(st, seed, w, phi, avoid)
            maps.append((u, dict(zip(a, b, strict=True))))
        if not members or st.uniform(group):
            return passes


def _replay(st: _State, seed: int, w: int, phi: dict[int, int], avoid: set[int]) -> None:
    """Carry the seed's new neighbours and new inner edges over to member w through its
    isomorphism ``phi`` (seed's neighbour → w's neighbour)."""
    fresh = [x for x in sorted(st.adj[seed]) if x not in phi]
    used = set(phi.values())
    # w's neighbours no seed neighbour maps to yet (the seed itself last)
    spare = sorted(
        st.adj[w] - used, key=lambda y: (y == seed, bool(st.anonymized[y]), int(st.deg[y]), y)
    )
    extra = st.draw(w, max(0, len(fresh) - len(spare)), avoid | used)
    for x, y in zip(fresh, spare + extra, strict=False):
        phi[x] = y
        st.add_edge(w, y)
    nbrs = st.adj[seed]
    for x in sorted(nbrs):
        if x not in phi:
            continue
        for y in st.adj[x] & nbrs:
            if x < y and y in phi:
                st.add_edge(phi[x], phi[y])
