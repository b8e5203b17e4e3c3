"""Subgraph knowledge: edge facts gathered breadth-first around a target, and its candidates.

Source: seed 002 Part A §A.2.5 (Hay, Miklau, Jensen, Weis & Srivastava, *Anonymizing Social
Networks*, UMass TR 07-19, 2007, L292–352) and §A.2.6 / §A.3.3–A.3.4 for the experiment
(Figs. 6 and 7: candidate-set sizes for 0..50 edge facts, with and without exact degrees).

**Knowledge** (:func:`gather_edge_facts`).  The adversary explores the hidden graph G from the
target x breadth-first.  A *pattern node* is popped from the queue; its graph edges other than
the one to its BFS parent are revealed one by one, in a random order (seeded; the paper leaves
the order open), each costing one edge fact and creating a new pattern node, queued.  This is
the paper's *tree version* (L336–339): the adversary does not recognize a person reached
twice, so every revealed edge creates a new pattern node and the pattern is a tree (a prefix
of the BFS unfolding of G at x) with b + 1 nodes after b facts.  A pattern node becomes
*exact* when its exploration has revealed all its edges — "with 4 edge facts he learns that Bob
has exactly 4 neighbours" (L330–334); a node with no edge left to reveal (a leaf of G) becomes
exact for free when the exploration reaches it before needing the (b+1)-th fact.  Otherwise the
knowledge is the lower bound deg ≥ (#children) + (1 if it has a parent).  With
``exact_degrees=False`` (Fig. 7, right) only the lower bounds are kept.  Knowledge at b facts
is a prefix of the knowledge at b + 1 facts (same seed), so candidate sets shrink weakly.

**Candidates** (:class:`SubgraphMatcher`).  y ∈ cand(x) iff the pattern embeds at y: a map φ
of pattern nodes to nodes of the released graph with φ(root) = y, φ(child) adjacent to
φ(parent), the children of every pattern node sent to *distinct* nodes that also differ from
the image of its parent (the disequalities of the paper's conjunctive query, L346–352), and
every degree constraint met.  Injectivity is required among siblings and against the parent,
not across the whole tree: in the tree version two pattern nodes may be the same person
(reached by two paths), so a globally injective embedding could reject the true node.  The
true node is always a candidate (φ = the exploration itself), and every node H*-equivalent to
it is one too (H* equivalence is equality of the degree-annotated unfolding trees).

Two exact matchers:

* ``method="hall"`` (default), vectorized over the graph.  For a pattern node t and a directed
  edge (v → w), E_t[v→w] says whether the subtree of t embeds with t at w and its parent at
  v.  Bottom-up, with the children of t grouped into types (identical subtrees and
  constraints, so identical E): the children fit into N(w) ∖ {v} injectively iff, by Hall's
  theorem, for every set S of types, #{u ∈ N(w), u ≠ v : some type of S fits at w→u} ≥
  Σ_{τ∈S} k_τ.  Each S costs a few numpy passes over the 2|E| directed edges (per-row counts
  by a cumulative sum, the exclusion of v through the reverse-edge index).  Subtrees are
  interned by canonical form, and their E arrays are cached across targets (bounded by
  ``cache_bytes``), so the many repeated small patterns cost nothing.  Per distinct subtree
  O(2^T · |E|) for T child types (T ≤ 3 in practice at 10 facts).
* ``method="backtrack"``: per candidate y, filtered first by the root's degree constraint, a
  recursive search down the pattern: the options of each child are the neighbours that meet
  its degree constraint (numpy filter) and recursively embed its subtree; the children then
  need distinct options, found by Kuhn's augmenting paths (a depth-first search that
  backtracks through earlier choices).  Results are memoized on (subtree form, node, parent
  image), and identical sibling subtrees share their option lists.  The literal reading of
  the definition, used as the reference: O(Σ over explored (t, w, v) of deg w · k_t) Python
  steps, about 350× slower than Hall on ca-GrQc.

**Graph version** (``mode="graph"``; seed 002 L336–349).  "Another important factor is whether
the adversary can recognize individuals discovered through different paths as identical.  This
determines whether the adversary learns of the existence of a subgraph around the target or
only learns about the tree expansion of the subgraph" (L336–338); formally, "the graph version
is expressed using additional equality conditions on variables" (L348–349).  Here the
adversary gathers the *same* b edge facts as in the tree version (same exploration, same
seed) but merges the pattern nodes that are the same person (:meth:`EdgeFacts.merged`): the
knowledge becomes the explored subgraph itself (k ≤ b + 1 people, ≤ b distinct edges; an edge
revealed from both ends is one edge).  A person is exact if any of its copies was exhausted,
otherwise its bound is its number of distinct known edges.  y ∈ cand(x) iff there is an
*injective* map φ of the people into the released graph, φ(x) = y, every known edge mapped to
an edge, every degree constraint met (a subgraph monomorphism; not an induced-subgraph test:
non-edges are known only through exact degrees, which the monomorphism then enforces).
Composing with the tree → graph quotient, every graph-version embedding is a tree-version one,
so graph candidates ⊆ tree candidates, and the true node stays a candidate (φ = identity).
Matcher: the tree-version mask is the pre-filter; a depth-one pattern (a star) needs nothing
more (sibling injectivity is global injectivity).  Otherwise, per remaining y, a backtracking
search maps the *core* (the root and every person with two or more known edges) in BFS order,
each person's options being the unused neighbours of its anchor's image that meet its degree
constraint and are adjacent to the images of its other mapped neighbours; the pendant people
are then placed by one bipartite matching (Kuhn), which is exact for them.  Exponential in the
core size in the worst case (subgraph isomorphism is NP-complete); at ≤ 10 facts the core has
a handful of people.  Results are cached per pattern.  The paper used the tree version and
"did not observe a significant empirical difference" with the graph version (L338–339).
"""

from __future__ import annotations

import itertools
import time
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.refinement import BucketCounts, bucket_counts
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_choice

METHODS = ("hall", "backtrack")
#: Query versions (seed 002 L336–349): tree expansion, or the subgraph with identities merged.
MODES = ("tree", "graph")


# ============================================================================ knowledge
@dataclass(frozen=True, eq=False)
class EdgeFacts:
    """A tree-shaped subgraph query around ``target`` (pattern node 0 is the target).

    ``parent[t]`` is the pattern parent (−1 for the root); ``degree[t]`` is t's exact degree
    when ``exact[t]``, else a lower bound.  ``node[t]`` is the node of G the exploration
    reached (the truth, kept for tests and reports; matching never uses it).
    ``n_facts`` = number of edges = number of pattern nodes − 1; it is smaller than
    ``requested`` only when the target's component is a tree that was fully explored.
    """

    target: int
    requested: int
    exact_degrees: bool
    parent: np.ndarray
    node: np.ndarray
    exact: np.ndarray
    degree: np.ndarray

    @property
    def n_facts(self) -> int:
        return int(self.parent.size - 1)

    def children(self) -> list[list[int]]:
        kids: list[list[int]] = [[] for _ in range(self.parent.size)]
        for t, p in enumerate(self.parent.tolist()):
            if p >= 0:
                kids[p].append(t)
        return kids

    def merged(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The graph version of this knowledge: (people, edges, exact, degree).

        ``people[i]`` is the graph node of person i (person 0 is the target, the others in
        first-reached order); ``edges`` the distinct known edges as (i, j) rows, i < j;
        ``exact[i]`` is true if any copy of person i was exhausted, and then ``degree[i]`` is
        its degree, else its number of distinct known edges (a lower bound).  O(b log b).
        """
        people, first, inv = np.unique(self.node, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")  # person numbering: first-reached order
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        pid = rank[inv.reshape(-1)]
        child = np.flatnonzero(self.parent >= 0)
        a, b = pid[child], pid[self.parent[child]]
        edges = np.unique(np.column_stack([np.minimum(a, b), np.maximum(a, b)]), axis=0)
        edges = edges.reshape(-1, 2).astype(np.int64)
        k = order.size
        known = np.bincount(edges.ravel(), minlength=k).astype(np.int64)
        exact = np.zeros(k, dtype=bool)
        np.logical_or.at(exact, pid, self.exact)
        degree = known.copy()
        hit = np.flatnonzero(self.exact)
        degree[pid[hit]] = self.degree[hit]
        return people[order].astype(np.int64), edges, exact, degree

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "requested": self.requested,
            "n_facts": self.n_facts,
            "exact_degrees": self.exact_degrees,
            "parent": self.parent.tolist(),
            "exact": self.exact.tolist(),
            "degree": self.degree.tolist(),
        }


@dataclass(frozen=True, eq=False)
class _Exploration:
    """The BFS exploration of one target up to ``max_facts``; prefixes give each budget."""

    target: int
    max_facts: int
    node: np.ndarray  # graph node of pattern node t (t = the fact that created it)
    parent: np.ndarray
    exhausted_at: np.ndarray  # facts spent when t became exact (max_facts + 1: never)

    def facts(self, b: int, exact_degrees: bool) -> EdgeFacts:
        k = min(b, self.node.size - 1) + 1
        parent = self.parent[:k]
        n_kids = np.bincount(parent[1:], minlength=k) if k > 1 else np.zeros(1, np.int64)
        lower = n_kids + (parent >= 0)
        exact = (self.exhausted_at[:k] <= b) if exact_degrees else np.zeros(k, dtype=bool)
        return EdgeFacts(
            self.target, int(b), bool(exact_degrees), parent.copy(), self.node[:k].copy(),
            exact, lower.astype(np.int64),
        )  # fmt: skip


def _explore(graph: Graph, target: int, max_facts: int, rng: np.random.Generator) -> _Exploration:
    """Breadth-first tree exploration (module docstring).  O(max_facts + Σ explored degrees)."""
    node = [target]
    parent = [-1]
    exhausted = [max_facts + 1]
    queue = deque([0])
    facts = 0
    while queue:
        t = queue.popleft()
        u = node[t]
        nb = graph.neighbors(u)
        if parent[t] >= 0:
            nb = nb[nb != node[parent[t]]]
        if nb.size > 1:
            nb = rng.permutation(nb)
        for w in nb.tolist():
            if facts == max_facts:
                return _Exploration(target, max_facts, *map(np.asarray, (node, parent, exhausted)))
            facts += 1
            node.append(w)
            parent.append(t)
            exhausted.append(max_facts + 1)
            queue.append(len(node) - 1)
        exhausted[t] = facts
    return _Exploration(target, max_facts, *map(np.asarray, (node, parent, exhausted)))


def gather_edge_facts(
    graph: Graph, target: int, n_facts: int, *, exact_degrees: bool = True, seed: Any = 0
) -> EdgeFacts:
    """The adversary's knowledge about ``target`` after ``n_facts`` breadth-first edge facts.

    ``seed`` (an integer ≥ 0) fixes the order in which each node's edges are revealed: the
    generator is seeded by (seed, target), as in :func:`subgraph_knowledge_experiment`.  The
    default 0 makes experiments reproducible; the order is the adversary's choice, not a
    privacy mechanism.
    O(n_facts + Σ degrees of the explored nodes).
    """
    graph = as_graph(graph, "subgraph knowledge", undirected=True)
    target = _check_node(target, graph.n_nodes, "target")
    n_facts = _check_facts(n_facts, "n_facts")
    rng = np.random.default_rng([_check_seed(seed), target])
    return _explore(graph, target, n_facts, rng).facts(n_facts, exact_degrees)


# ============================================================================ matching
class SubgraphMatcher:
    """Candidate sets of tree-shaped subgraph queries in one released graph.

    Build once per graph; the cache of subtree results is shared by all queries.
    ``cache_bytes`` bounds it (least recently used entries are dropped).
    """

    def __init__(self, graph: Any, *, cache_bytes: int = 256 * 2**20) -> None:
        graph = as_graph(graph, "subgraph matching", undirected=True)
        self.graph = graph
        self.deg = graph.degrees()
        self.n = graph.n_nodes
        indptr, indices = graph.indptr, graph.indices
        self._indptr = indptr
        self._dst = indices
        src = np.repeat(np.arange(self.n, dtype=np.int64), self.deg)
        # reverse edge: position of (w, v) for the position of (v, w); rows are sorted
        order = np.lexsort((src, indices))  # sorted by (dst, src) = positions of (w, v)
        rev = np.empty(indices.size, dtype=np.int64)
        rev[order] = np.arange(indices.size, dtype=np.int64)
        self._rev = rev
        self._dst_deg = self.deg[indices]
        self._intern: dict[tuple, int] = {}
        self._shape: list[tuple] = []
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._cache_bytes = int(cache_bytes)
        self._cached = 0
        self._root_cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._graph_cache: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._adj_lists: dict[int, list[int]] = {}
        self._adj_sets: dict[int, frozenset[int]] = {}
        self.stats = {"subtrees": 0, "subtree_hits": 0, "roots": 0, "root_hits": 0,
                      "graphs": 0, "graph_hits": 0}  # fmt: skip

    # ------------------------------------------------------------------ public
    def candidates(
        self, facts: EdgeFacts, *, method: str = "hall", mode: str = "tree"
    ) -> np.ndarray:
        """The sorted node ids where ``facts`` embeds (the candidate set).

        ``mode="tree"``: the tree expansion embeds; ``mode="graph"``: the explored subgraph,
        people merged, embeds injectively (module docstring, *Graph version*).
        """
        return np.flatnonzero(self.candidate_mask(facts, method=method, mode=mode))

    def candidate_mask(
        self, facts: EdgeFacts, *, method: str = "hall", mode: str = "tree"
    ) -> np.ndarray:
        check_choice(mode, "mode", MODES)
        if mode == "graph":
            return self._graph_mask(facts, method)
        if method not in METHODS:
            raise ConfigError(f"method = {method!r}: choose one of {', '.join(METHODS)}")
        if method == "backtrack":
            return _backtrack_mask(self.graph, self.deg, facts)
        root = self._intern_pattern(facts)
        return self._memo(self._root_cache, root, "root", lambda: self._root_mask(root))

    def _memo(self, cache: OrderedDict, key: Any, stat: str, compute: Any) -> np.ndarray:
        """``compute()`` through a bounded LRU ``cache`` (4096 entries), counted in stats."""
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
            self.stats[stat + "_hits"] += 1
            return hit
        self.stats[stat + "s"] += 1
        ok = compute()
        ok.flags.writeable = False
        cache[key] = ok
        if len(cache) > 4096:
            cache.popitem(last=False)
        return ok

    def _root_mask(self, root: int) -> np.ndarray:
        exact, d, kids = self._shape[root]
        ok = self._cons(self.deg, exact, d)
        for need, fit in self._hall_sets(kids):
            cnt = _row_sums(fit, self._indptr)
            ok &= cnt >= need
        return ok

    # ------------------------------------------------------------------ internals
    def _graph_mask(self, facts: EdgeFacts, method: str) -> np.ndarray:
        tree = self.candidate_mask(facts, method=method, mode="tree")
        if bool((facts.parent <= 0).all()):  # a star: sibling injectivity is global
            return tree
        people, edges, exact, degree = facts.merged()
        key = (edges.tobytes(), exact.tobytes(), degree.tobytes(), people.size)

        def compute() -> np.ndarray:
            ok = np.zeros(self.n, dtype=bool)
            search = _MonoSearch(self, edges, exact, degree)
            for y in np.flatnonzero(tree).tolist():
                ok[y] = search.embeds_at(y)
            return ok

        return self._memo(self._graph_cache, key, "graph", compute)

    def _adj(self, v: int) -> list[int]:
        got = self._adj_lists.get(v)
        if got is None:
            got = self._dst[self._indptr[v] : self._indptr[v + 1]].tolist()
            self._adj_lists[v] = got
        return got

    def _adj_set(self, v: int) -> frozenset[int]:
        got = self._adj_sets.get(v)
        if got is None:
            got = frozenset(self._adj(v))
            self._adj_sets[v] = got
        return got

    @staticmethod
    def _cons(deg: np.ndarray, exact: bool, d: int) -> np.ndarray:
        return deg == d if exact else deg >= d

    def _intern_pattern(self, facts: EdgeFacts) -> int:
        kids = facts.children()
        ids = [0] * facts.parent.size
        for t in range(facts.parent.size - 1, -1, -1):  # children have larger ids
            key = (
                bool(facts.exact[t]),
                int(facts.degree[t]),
                tuple(sorted(Counter(ids[c] for c in kids[t]).items())),
            )
            got = self._intern.get(key)
            if got is None:
                got = len(self._shape)
                self._intern[key] = got
                self._shape.append(key)
            ids[t] = got
        return ids[0]

    def _hall_sets(self, kids: tuple[tuple[int, int], ...]):
        """(Σ k_τ over S, fit mask over directed edges) for every non-empty set S of types."""
        if not kids:
            return
        fits = [(k, self._edge_fit(tau)) for tau, k in kids]
        # A type that fits everywhere (e.g. an unexplored leaf: deg ≥ 1) makes the union of
        # any S containing it the whole neighbourhood; of those S only the full set (largest
        # Σ k_τ) can fail first, so the others are skipped.
        every = [bool(f.all()) for _, f in fits]
        total = len(fits)
        for r in range(1, total + 1):
            for idx in itertools.combinations(range(total), r):
                if r < total and any(every[i] for i in idx):
                    continue
                need = sum(fits[i][0] for i in idx)
                fit = fits[idx[0]][1]
                if r > 1:
                    fit = np.logical_or.reduce([fits[i][1] for i in idx])
                yield need, fit

    def _edge_fit(self, tau: int) -> np.ndarray:
        """E_τ over directed edges (v → w): τ's subtree embeds at w with its parent at v."""
        hit = self._cache.get(tau)
        if hit is not None:
            self._cache.move_to_end(tau)
            self.stats["subtree_hits"] += 1
            return hit
        self.stats["subtrees"] += 1
        exact, d, kids = self._shape[tau]
        ok = self._cons(self._dst_deg, exact, d)
        dst = self._dst
        for need, fit in self._hall_sets(kids):
            if not ok.any():
                break
            cnt = _row_sums(fit, self._indptr)  # per node w: #u ∈ N(w) that fit
            ok &= (cnt[dst] - fit[self._rev]) >= need  # minus the parent v, if it fitted
        ok.flags.writeable = False
        self._cache[tau] = ok
        self._cached += ok.nbytes
        while self._cached > self._cache_bytes and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cached -= old.nbytes
        return ok


class _MonoSearch:
    """Injective embeddings of a small graph pattern (graph version), one root image at a time.

    Core people (the root and every person with ≥ 2 known edges) are mapped by backtracking
    in BFS order; pendant people (one known edge) are then placed by a bipartite matching,
    which is exact because each only needs an unused neighbour of its anchor's image.
    """

    def __init__(self, m: SubgraphMatcher, edges: np.ndarray, exact: np.ndarray,
                 degree: np.ndarray) -> None:  # fmt: skip
        self.m = m
        k = exact.size
        nbr: list[list[int]] = [[] for _ in range(k)]
        for a, b in edges.tolist():
            nbr[a].append(b)
            nbr[b].append(a)
        self.exact = exact.tolist()
        self.degree = degree.tolist()
        core = [i == 0 or len(nbr[i]) >= 2 for i in range(k)]
        order, seen, q = [0], {0}, deque([0])  # BFS over the core (it is connected)
        while q:
            i = q.popleft()
            for j in nbr[i]:
                if core[j] and j not in seen:
                    seen.add(j)
                    order.append(j)
                    q.append(j)
        pos = {p: r for r, p in enumerate(order)}
        self.order = order
        # for each core person after the root: its anchor and its other earlier neighbours
        self.links = [
            [pos[j] for j in nbr[i] if core[j] and pos[j] < pos[i]] for i in order
        ]  # fmt: skip
        self.pendant = [(i, pos[nbr[i][0]]) for i in range(k) if not core[i]]

    def fits(self, i: int, v: int) -> bool:
        d = int(self.m.deg[v])
        return d == self.degree[i] if self.exact[i] else d >= self.degree[i]

    def embeds_at(self, y: int) -> bool:
        if not self.fits(self.order[0], y):
            return False
        img = [y]
        used = {y}
        return self._extend(1, img, used)

    def _extend(self, r: int, img: list[int], used: set[int]) -> bool:
        if r == len(self.order):
            return self._place_pendants(img, used)
        i = self.order[r]
        anchor, *others = self.links[r]
        checks = [self.m._adj_set(img[o]) for o in others]
        for v in self.m._adj(img[anchor]):
            if v in used or not self.fits(i, v) or not all(v in c for c in checks):
                continue
            img.append(v)
            used.add(v)
            if self._extend(r + 1, img, used):
                return True
            img.pop()
            used.discard(v)
        return False

    def _place_pendants(self, img: list[int], used: set[int]) -> bool:
        options = []
        for i, a in self.pendant:
            opts = [v for v in self.m._adj(img[a]) if v not in used and self.fits(i, v)]
            if not opts:
                return False
            options.append(opts)
        return _distinct_assignment(options)


def _row_sums(flags: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    cs = np.zeros(flags.size + 1, dtype=np.int64)
    np.cumsum(flags, out=cs[1:])
    return cs[indptr[1:]] - cs[indptr[:-1]]


def _backtrack_mask(graph: Graph, deg: np.ndarray, facts: EdgeFacts) -> np.ndarray:
    """Reference matcher: degree filter on the root, then a recursive search per candidate."""
    kids = facts.children()
    exact = facts.exact.tolist()
    dval = facts.degree.tolist()
    canon: list[tuple] = [()] * facts.parent.size  # identical subtrees share their results
    for t in range(facts.parent.size - 1, -1, -1):
        canon[t] = (exact[t], dval[t], tuple(sorted(canon[c] for c in kids[t])))
    memo: dict[tuple[tuple, int, int], bool] = {}

    def fit(t: int, d: np.ndarray) -> np.ndarray:
        return d == dval[t] if exact[t] else d >= dval[t]

    def embeds(t: int, w: int, v: int) -> bool:
        """Does t's subtree embed with t at w and t's parent at v?  (w fits t already.)"""
        key = (canon[t], w, v)
        got = memo.get(key)
        if got is not None:
            return got
        nb = graph.neighbors(w)
        nb = nb[nb != v]
        ok = nb.size >= len(kids[t])
        options: list[list[int]] = []
        by_canon: dict[tuple, list[int]] = {}
        for c in kids[t] if ok else ():
            opts = by_canon.get(canon[c])
            if opts is None:
                cand = nb[fit(c, deg[nb])].tolist()  # degree pruning
                opts = [u for u in cand if embeds(c, u, w)] if kids[c] else cand
                by_canon[canon[c]] = opts
            if not opts:
                ok = False
                break
            options.append(opts)
        ok = ok and _distinct_assignment(options)
        memo[key] = ok
        return ok

    mask = np.zeros(graph.n_nodes, dtype=bool)
    for y in np.flatnonzero(fit(0, deg)).tolist():
        mask[y] = embeds(0, y, -1)
    return mask


def _distinct_assignment(options: list[list[int]]) -> bool:
    """Can every child get its own node from its options?  Kuhn's augmenting paths: a
    depth-first search that backtracks through earlier choices.  O(k · Σ |options|)."""
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for u in options[i]:
            if u in seen:
                continue
            seen.add(u)
            j = owner.get(u)
            if j is None or place(j, seen):
                owner[u] = i
                return True
        return False

    return all(place(i, set()) for i in sorted(range(len(options)), key=lambda i: len(options[i])))


def subgraph_candidates(
    graph: Graph, facts: EdgeFacts, *, method: str = "hall", mode: str = "tree"
) -> np.ndarray:
    """Candidate set of ``facts`` in ``graph`` (sorted node ids).  See :class:`SubgraphMatcher`."""
    return SubgraphMatcher(graph).candidates(facts, method=method, mode=mode)


# ============================================================================ experiment
@dataclass(frozen=True)
class SubgraphKnowledgeResult:
    """Candidate-set sizes ``sizes[j, b]`` of target ``targets[j]`` after b edge facts."""

    targets: np.ndarray
    sizes: np.ndarray
    exact_degrees: bool
    method: str
    seed: int
    seconds: float
    mode: str = "tree"

    @property
    def max_facts(self) -> int:
        return int(self.sizes.shape[1] - 1)

    def buckets(self, b: int) -> BucketCounts:
        if not isinstance(b, Integral) or not 0 <= b <= self.max_facts:
            raise ConfigError(f"b = {b!r}: edge facts must be in 0..{self.max_facts}")
        return bucket_counts(self.sizes[:, b])

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_targets": int(self.targets.size),
            "max_facts": self.max_facts,
            "exact_degrees": self.exact_degrees,
            "method": self.method,
            "mode": self.mode,
            "seed": self.seed,
            "seconds": self.seconds,
            "buckets": [self.buckets(b).to_dict() for b in range(self.max_facts + 1)],
        }


def subgraph_knowledge_experiment(
    graph: Graph,
    max_facts: int = 10,
    *,
    exact_degrees: bool = True,
    targets: Any = None,
    seed: int = 0,
    method: str = "hall",
    matcher: SubgraphMatcher | None = None,
    mode: str = "tree",
) -> SubgraphKnowledgeResult:
    """Seed 002 §A.2.6 with subgraph queries: every target's candidate-set size at 0..max_facts.

    Each target is explored once (its own generator, seeded by (seed, target), so a target's
    knowledge does not depend on which other targets are run) and the budgets are prefixes of
    that exploration.  The released graph is ``graph`` itself (naive anonymization does not
    change the class sizes).  Cost: one matcher query per (target, budget), most served by
    the caches.  ``mode`` is ``"tree"`` (the paper's experiments) or ``"graph"`` (people
    reached twice recognized; candidates ⊆ the tree ones, module docstring).
    """
    graph = as_graph(graph, "subgraph knowledge", undirected=True)
    max_facts = _check_facts(max_facts, "max_facts")
    if method not in METHODS:
        raise ConfigError(f"method = {method!r}: choose one of {', '.join(METHODS)}")
    check_choice(mode, "mode", MODES)
    n = graph.n_nodes
    t = np.arange(n, dtype=np.int64) if targets is None else np.asarray(targets)
    if t.size and (not np.issubdtype(t.dtype, np.integer) or t.min() < 0 or t.max() >= n):
        raise InputError(f"targets: node ids must be integers in 0..{n - 1}")
    m = matcher if matcher is not None else SubgraphMatcher(graph)
    t0 = time.perf_counter()
    sizes = np.zeros((t.size, max_facts + 1), dtype=np.int64)
    base = _check_seed(seed)
    for j, x in enumerate(t.tolist()):
        ex = _explore(graph, x, max_facts, np.random.default_rng([base, x]))
        for b in range(max_facts + 1):
            f = ex.facts(b, exact_degrees)
            sizes[j, b] = int(m.candidate_mask(f, method=method, mode=mode).sum())
    return SubgraphKnowledgeResult(
        t.astype(np.int64), sizes, bool(exact_degrees), method, seed,
        time.perf_counter() - t0, mode,
    )  # fmt: skip


def _check_node(node: Any, n: int, name: str) -> int:
    if not isinstance(node, Integral) or isinstance(node, bool) or not 0 <= node < n:
        raise InputError(f"{name} = {node!r}: not a node id; the graph has nodes 0..{n - 1}")
    return int(node)


def _check_seed(seed: Any) -> int:
    if not isinstance(seed, Integral) or isinstance(seed, bool) or seed < 0:
        raise ConfigError(f"seed = {seed!r}: give an integer ≥ 0 (it orders the exploration)")
    return int(seed)


def _check_facts(b: Any, name: str) -> int:
    if not isinstance(b, Integral) or isinstance(b, bool) or b < 0:
        raise ConfigError(f"{name} = {b!r}: the number of edge facts must be an integer ≥ 0")
    return int(b)


__all__ = [
    "METHODS",
    "MODES",
    "EdgeFacts",
    "SubgraphKnowledgeResult",
    "SubgraphMatcher",
    "gather_edge_facts",
    "subgraph_candidates",
    "subgraph_knowledge_experiment",
]
