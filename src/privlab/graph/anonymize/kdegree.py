"""k-degree anonymization (Liu & Terzi, SIGMOD 2008, as implemented in seed 000 Ch. 9).

A graph is *k-degree anonymous* when every degree that occurs is held by at least k nodes
(Def 9.2), so an adversary who knows only a target's degree faces ≥ k candidates.  Three
algorithms, all on the same nodes (``labels`` kept — strip them with
:func:`~privlab.graph.anonymize.naive.naive_anonymize` before publishing):

===================================  ==========================================================
function                             thesis algorithm
===================================  ==========================================================
:func:`kdegree_supergraph`           Alg 9.4: DegreeAnonymization → SuperGraph (Alg 9.3), probing;
                                     edges are only *added* (E ⊆ Ê)
:func:`kdegree_relaxed`              Alg 9.7: DegreeAnonymization → ConstructGraph (Alg 9.2),
                                     probing → GreedySwap (Alg 9.6); Ê ≈ E
:func:`kdegree_simultaneous_swap`    Alg 9.8: OptimalDegreeAnon (median DP, degrees may fall)
                                     → ConstructGraph, probing → GreedySwap
:func:`kdegree_subgraph`             Alg 9.1: Alg 9.4 on the complement, complemented back —
                                     edges are only *deleted* (Ê ⊆ E); the complement is
                                     never built (:func:`subgraph`, :func:`subgraph_condition`)
===================================  ==========================================================

Every result is checked before it is returned: each degree class has ≥ k nodes, the graph is
simple and (SuperGraph) contains the input or (SubGraph) is contained in it; a violation raises
:class:`KDegreeInternalError` — never a silently wrong release (SecGraph's KDA leaves classes
smaller than k, REFERENCE_RESULTS.md).

Building blocks:

* :func:`construct_graph` — Havel–Hakimi with a random (or highest/lowest) node each round,
  connected to the r nodes of highest residual degree (Alg 9.2, with the printed bug fixed:
  "d(v) := 0" came before d(v) was used).  Residuals live in a bucket-sorted array (the
  thesis's "hash table keyed by degree"): a decrement swaps the node to the end of its
  bucket, O(1), so a run costs O(n + Σd) = O(n·d_max).  A realizability oracle (Kleitman–Wang:
  any node may be laid off first).  With ``prefer=G``, ties in the boundary bucket go to
  G-neighbours of the node first (still Havel–Hakimi, so still exact) — the start graph then
  shares more edges with G and GreedySwap has less to do.
* :func:`supergraph` — Alg 9.3 on the residuals a = d̂ − d (the thesis's line 12 says "the
  highest entries in d̂"; its text says highest residual a — residual is right), skipping
  nodes already adjacent to v in Ê; Theorem 9.6 first ("No"), "Unknown" when the greedy
  gets stuck.  O(n + m + Σa) with hash-set adjacency.
* :func:`greedy_swap` — Alg 9.6.  A valid swap (Def 9.6; the conditions are lost from the
  seed, taken from Liu & Terzi) replaces Ê-edges (i,j),(x,y) by (i,x),(j,y) or (i,y),(j,x)
  when those are absent; its gain is the change of |Ê ∩ E|.  FindMaxSwap is sampled (thesis
  L6960: O(log|E|) edges; default ⌈½·log2|Ê|⌉).  ``sampling="targeted"`` (default) samples
  edges of Ê ∖ E and, for each, the swap through a missing edge (i,x) ∈ E ∖ Ê and a second
  surplus edge (x,y) — every candidate gains 1 or 2 (2 when (j,y) is missing too, found by
  one set intersection); ``sampling="uniform"`` is the thesis's literal version (uniform
  edges of Ê, all pairs, both swaps).  Algorithm 9.6 stops at the first FindMaxSwap without
  a positive gain; sampled, that stops at the first unlucky sample, so the loop stops after
  ``patience`` (default 10) consecutive empty samples instead.  Degrees never change.
  O(swaps · sample size) hash operations; ~0.7 swaps per edge from a Havel–Hakimi start.

Probing (Alg 9.4, schemes 1–4 of §9.5.3/§9.7.2, default 4 as in the thesis's §9.8): while
the construction fails, raise one degree of the *input* sequence
(:func:`~privlab.graph.anonymize.kdegree_sequence.add_random_noise`) and rerun the DP.  The
noise accumulates (the thesis assigns d := AddRandomNoise(d)).  ConstructGraph is an oracle,
so Relaxed and SimultaneousSwap test each probe with Erdős–Gallai in O(n log n) and build
once; SuperGraph tests Erdős–Gallai and Theorem 9.6 before running the greedy.  Node
identity: every degree stays paired with its node (thesis L6786–6828), ties by node id
(``tie_order``).

Randomness comes from :func:`privlab.dp.noise.secure_generator` (OS entropy unless ``seed``
is given; a given seed is flagged ``insecure_seed``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.graph.anonymize.kdegree_sequence import (
    PROBING_SCHEMES,
    TIE_ORDERS,
    _subgraph_condition,
    _supergraph_condition,
    add_random_noise,
    check_k,
    degree_order,
    dp_sorted,
    is_graphical,
    is_k_anonymous_sequence,
    subgraph_condition,
    supergraph_condition,
)
from privlab.graph.core import Graph, as_graph
from privlab.progress import ProgressFn
from privlab.validate import check_choice, check_int

CONSTRUCT_ORDERS = ("random", "highest", "lowest")
SAMPLINGS = ("targeted", "uniform")
_CAP = 2  # missing neighbours of i tried per sampled surplus edge (i, j)


class KDegreeInternalError(RuntimeError):
    """A k-degree result failed its final check — a bug in privlab, never returned."""


# ============================================================================ results
@dataclass(frozen=True)
class KDegreeAnonymization:
    """A k-degree-anonymous graph and how it was made.

    ``edges_added`` = |Ê ∖ E|, ``edges_removed`` = |E ∖ Ê|.  ``probes`` = AddRandomNoise
    calls; ``attempts`` = sequences tested for realizability (probes + 1); ``constructions``
    = runs of ConstructGraph/SuperGraph's greedy.  ``dp_cost`` = L1 between the input degrees
    and the optimal (noise-free) k-anonymous sequence, ``target_cost`` = L1 to the degrees
    released — their difference is what probing cost (the thesis's L1(d̂, d̂')).
    """

    graph: Graph
    method: str
    k: int
    edges_added: int
    edges_removed: int
    probes: int
    attempts: int
    constructions: int
    dp_cost: int
    target_cost: int
    swaps: int = 0
    swap_samples: int = 0
    parameters: dict[str, Any] = field(default_factory=dict)
    insecure_seed: bool = False
    n_edges_before: int = 0

    @property
    def degree_classes(self) -> dict[int, int]:
        """Degree → number of nodes with it."""
        values, counts = np.unique(self.graph.degrees(), return_counts=True)
        return dict(zip(values.tolist(), counts.tolist(), strict=True))

    def to_dict(self) -> dict[str, Any]:
        classes = self.degree_classes
        return {
            "method": self.method,
            "k": self.k,
            "n_nodes": self.graph.n_nodes,
            "n_edges_before": self.n_edges_before,
            "n_edges_after": self.graph.n_edges,
            "edges_added": self.edges_added,
            "edges_removed": self.edges_removed,
            "probes": self.probes,
            "attempts": self.attempts,
            "constructions": self.constructions,
            "dp_cost": self.dp_cost,
            "target_cost": self.target_cost,
            "swaps": self.swaps,
            "swap_samples": self.swap_samples,
            "degree_classes": len(classes),
            "smallest_class": min(classes.values()) if classes else 0,
            "parameters": dict(self.parameters),
            "insecure_seed": self.insecure_seed,
        }


@dataclass(frozen=True)
class SupergraphOutcome:
    """Alg 9.3's three answers: ``graph`` (a supergraph with the target degrees), ``no``
    (Theorem 9.6 or Erdős–Gallai fails: none exists) or ``unknown`` (the greedy got stuck)."""

    status: str
    graph: Graph | None = None


@dataclass(frozen=True)
class SwapOutcome:
    """GreedySwap's result: the swapped graph, swaps made, FindMaxSwap calls, overlaps."""

    graph: Graph
    swaps: int
    samples: int
    overlap_before: int
    overlap_after: int


# ============================================================================ bucket array
class _Buckets:
    """Nodes in descending order of a residual, with O(1) decrement (bucket-sorted array).

    ``node[p]`` is the node at position p, ``pos[u]`` its position, ``hi[b]`` the number of
    nodes with residual ≥ b (bucket b occupies positions hi[b+1]..hi[b]−1).
    """

    __slots__ = ("hi", "node", "pos", "res")

    def __init__(self, res: np.ndarray):
        n = res.size
        order = np.argsort(-res, kind="stable")
        self.node = order.tolist()
        pos = np.empty(n, dtype=np.int64)
        pos[order] = np.arange(n)
        self.pos = pos.tolist()
        self.res = res.tolist()
        top = int(res.max()) if n else 0
        counts = np.bincount(res, minlength=top + 2)
        self.hi = (n - np.concatenate([[0], np.cumsum(counts)[:-1]])).tolist()
        self.hi.append(0)

    def dec(self, u: int) -> None:
        res, pos, node, hi = self.res, self.pos, self.node, self.hi
        b = res[u]
        p = pos[u]
        last = hi[b] - 1
        w = node[last]
        node[p] = w
        pos[w] = p
        node[last] = u
        pos[u] = last
        hi[b] = last
        res[u] = b - 1


def _laid_off(bk: _Buckets, order: list[int]):
    """Alg 9.2/9.3's outer loop: each node v of ``order`` with a positive residual r, after
    its residual is set to 0 (r saved first: the printed "d(v) := 0" came before its use)."""
    res, dec = bk.res, bk.dec
    for v in order:
        r = res[v]
        if r == 0:
            continue
        for _ in range(r):
            dec(v)
        yield v, r


# ============================================================================ ConstructGraph
def construct_graph(
    degrees: Any,
    *,
    order: str = "random",
    seed: Any = None,
    prefer: Graph | None = None,
    labels: Any = None,
) -> Graph | None:
    """ConstructGraph (Alg 9.2): a simple graph with exactly these degrees, or None.

    Each round takes a node v with positive residual r — uniformly at random (``order=
    "random"``, the thesis's choice), the highest (classic Havel–Hakimi, dense core) or the
    lowest positive — sets its residual to 0 and joins it to the r other nodes of highest
    residual.  None iff the sequence is not graphical (Erdős–Gallai; Kleitman–Wang).  Ties in
    the last bucket used go to G-neighbours of v when ``prefer=G`` is given.  O(n + Σd).
    """
    check_choice(order, "order", CONSTRUCT_ORDERS)
    d = np.asarray(degrees, dtype=np.int64)
    n = d.size
    if n == 0:
        return Graph.from_edges(0, np.zeros((0, 2), np.int64), labels=labels)
    if d.min() < 0 or d.max() > n - 1 or int(d.sum()) & 1:
        return None
    rng = secure_generator(seed)
    bk = _Buckets(d)
    res, node, hi, dec = bk.res, bk.node, bk.hi, bk.dec
    if prefer is not None:
        ptr = prefer.indptr.tolist()
        ind = prefer.indices.tolist()
    eu: list[int] = []
    ev: list[int] = []
    # "random": a uniform order (= a uniform pick among the remaining positive nodes each
    # round); otherwise a counter, the node being read from the bucket array
    sequence = rng.permutation(n).tolist() if order == "random" else range(n)
    for item in sequence:
        if order == "random":
            v = item
        elif order == "highest":
            v = node[0]
        else:
            if hi[1] == 0:
                break
            v = node[hi[1] - 1]
        r = res[v]
        if r == 0:
            if order == "random":
                continue
            break
        for _ in range(r):
            dec(v)
        if hi[1] < r:  # fewer than r other nodes with a positive residual
            return None
        x = res[node[r - 1]]
        top = hi[x + 1]
        chosen = node[:top]
        c = r - top
        if c:
            lo, end = top, hi[x]
            if prefer is not None and c < end - lo:
                pref = [w for w in ind[ptr[v] : ptr[v + 1]] if res[w] == x][:c]
                taken = set(pref)
                chosen.extend(pref)
                p = end - 1
                while len(chosen) < r:
                    w = node[p]
                    if w not in taken:
                        chosen.append(w)
                    p -= 1
            else:
                chosen.extend(node[end - c : end])
        for w in chosen:
            dec(w)
            eu.append(v)
            ev.append(w)
    if any(res):  # pragma: no cover - the loop empties every residual
        return None
    edges = np.column_stack([np.asarray(eu, np.int64), np.asarray(ev, np.int64)])
    return Graph.from_edges(n, edges, labels=labels)


# ============================================================================ SuperGraph
def _residuals(graph: Any, target: Any, what: str, sign: int, check: bool):
    """(graph, a) with a = sign·(target − d), the edges each node gains (sign 1) or loses
    (sign −1); a is None when the answer is "no": a < 0, target outside 0..n − 1, Σa odd,
    or (``check``) target not graphical or Theorem 9.6 failing (on the complement for −1)."""
    graph = as_graph(graph, what, undirected=True)
    t = np.asarray(target, dtype=np.int64)
    n = graph.n_nodes
    if t.shape != (n,):
        raise InputError(f"target: {t.size} degrees given for a graph of {n} nodes")
    a = sign * (t - graph.degrees().astype(np.int64))
    if np.any(a < 0) or np.any(t < 0) or np.any(t > n - 1) or int(a.sum()) & 1:
        return graph, None
    condition = supergraph_condition if sign > 0 else subgraph_condition
    if check and (not is_graphical(t) or not condition(graph, t)):
        return graph, None
    return graph, a


def supergraph(
    graph: Graph, target: Any, *, seed: Any = None, check: bool = True
) -> SupergraphOutcome:
    """SuperGraph (Alg 9.3): a supergraph of ``graph`` whose degrees are ``target``.

    a = target − d.  ``no`` if Σa is odd, a < 0 somewhere, target is not graphical or
    Theorem 9.6 fails (``check=False`` skips the last two); otherwise, repeatedly: a random
    node v with a(v) > 0 is joined to the a(v) nodes of highest residual that are not
    already its neighbours in Ê; ``unknown`` when there are not enough of them.  A node id
    is kept with every residual (thesis L6786–6828).  O(n + m + Σa).
    """
    graph, a = _residuals(graph, target, "SuperGraph", 1, check)
    if a is None:
        return SupergraphOutcome("no")
    n = graph.n_nodes
    rng = secure_generator(seed)
    bk = _Buckets(a)
    node, hi, dec = bk.node, bk.hi, bk.dec
    ptr = graph.indptr.tolist()
    ind = graph.indices.tolist()
    added: dict[int, set[int]] = {}
    eu: list[int] = []
    ev: list[int] = []
    for v, r in _laid_off(bk, rng.permutation(n).tolist()):
        near = set(ind[ptr[v] : ptr[v + 1]])
        near.update(added.get(v, ()))
        chosen: list[int] = []
        p, lim = 0, hi[1]
        while len(chosen) < r and p < lim:
            w = node[p]
            if w not in near:
                chosen.append(w)
            p += 1
        if len(chosen) < r:
            return SupergraphOutcome("unknown")
        for w in chosen:
            dec(w)
            added.setdefault(v, set()).add(w)
            added.setdefault(w, set()).add(v)
            eu.append(v)
            ev.append(w)
    new = np.column_stack([np.asarray(eu, np.int64), np.asarray(ev, np.int64)])
    edges = np.concatenate([graph.edges(), new.reshape(-1, 2)])
    return SupergraphOutcome("graph", Graph.from_edges(n, edges, labels=graph.labels))


# ============================================================================ SubGraph
def subgraph(
    graph: Graph, target: Any, *, seed: Any = None, check: bool = True
) -> SupergraphOutcome:
    """SuperGraph (Alg 9.3) run on the complement of ``graph`` and complemented back — the
    graph step of Algorithm 9.1 (edge deletions only) — without building the complement.

    a = d − target.  On the complement, SuperGraph joins a random v to the a(v) nodes of
    highest residual that are not yet its neighbours there; those are exactly v's remaining
    G-neighbours, so here v *loses* its edges to the a(v) remaining G-neighbours of highest
    residual (ties in the same bucket-array order as :func:`supergraph`, so the result is
    the complement of ``supergraph(complement, n − 1 − target)`` with the same seed).
    ``no`` if a < 0 or target < 0 somewhere, Σa is odd, or (``check``) target is not
    graphical or :func:`subgraph_condition` fails; ``unknown`` when v has too few
    G-neighbours left with a positive residual.  O(n + m log m) instead of the complement's
    O(n²) edges.
    """
    graph, a = _residuals(graph, target, "SubGraph", -1, check)
    if a is None:
        return SupergraphOutcome("no")
    e, n = graph.edges(), graph.n_nodes
    bk = _Buckets(a)
    res, pos, dec = bk.res, bk.pos, bk.dec
    rng = secure_generator(seed)
    both = (a[e[:, 0]] > 0) & (a[e[:, 1]] > 0)  # only such edges can be deleted
    adj: dict[int, set[int]] = {}
    for u, v in e[both].tolist():
        adj.setdefault(u, set()).add(v)
        adj.setdefault(v, set()).add(u)
    gone: list[int] = []
    for v, r in _laid_off(bk, rng.permutation(n).tolist()):
        near = adj.get(v, set())
        cand = [w for w in near if res[w] > 0]
        if len(cand) < r:
            return SupergraphOutcome("unknown")
        cand.sort(key=pos.__getitem__)
        for w in cand[:r]:
            dec(w)
            near.discard(w)
            adj[w].discard(v)
            gone.append(min(v, w) * n + max(v, w))
    keys = e[:, 0] * n + e[:, 1]
    kept = e[~np.isin(keys, np.asarray(gone, dtype=np.int64))]
    return SupergraphOutcome("graph", Graph.from_edges(n, kept, labels=graph.labels))


# ============================================================================ GreedySwap
class _SwapState:
    """Ê as a hash set of pair keys, plus E ∖ Ê ("missing") and Ê ∖ E ("surplus") per node."""

    def __init__(self, initial: Graph, original: Graph, uniform: bool):
        n = initial.n_nodes
        self.n = n
        he, ee = initial.edges(), original.edges()
        hk = (he[:, 0] * n + he[:, 1]).tolist()
        ek = (ee[:, 0] * n + ee[:, 1]).tolist()
        self.E = set(ek)
        self.H = set(hk)
        self.surplus: list[set[int]] = [set() for _ in range(n)]
        self.missing: list[set[int]] = [set() for _ in range(n)]
        self.sur_list: list[int] = []
        self.sur_pos: dict[int, int] = {}
        for key in hk:
            if key not in self.E:
                self._add_surplus(key)
        for key in ek:
            if key not in self.H:
                u, v = divmod(key, n)
                self.missing[u].add(v)
                self.missing[v].add(u)
        self.uniform = uniform
        if uniform:
            self.all_list = list(hk)
            self.all_pos = {key: i for i, key in enumerate(hk)}

    def key(self, u: int, v: int) -> int:
        return u * self.n + v if u < v else v * self.n + u

    def _add_surplus(self, key: int) -> None:
        u, v = divmod(key, self.n)
        self.surplus[u].add(v)
        self.surplus[v].add(u)
        self.sur_pos[key] = len(self.sur_list)
        self.sur_list.append(key)

    def _drop(self, lst: list[int], pos: dict[int, int], key: int) -> None:
        i = pos.pop(key)
        last = lst.pop()
        if last != key:
            lst[i] = last
            pos[last] = i

    def remove(self, u: int, v: int) -> None:
        key = self.key(u, v)
        self.H.remove(key)
        if self.uniform:
            self._drop(self.all_list, self.all_pos, key)
        if key in self.E:
            self.missing[u].add(v)
            self.missing[v].add(u)
        else:
            self.surplus[u].discard(v)
            self.surplus[v].discard(u)
            self._drop(self.sur_list, self.sur_pos, key)

    def add(self, u: int, v: int) -> None:
        key = self.key(u, v)
        self.H.add(key)
        if self.uniform:
            self.all_pos[key] = len(self.all_list)
            self.all_list.append(key)
        if key in self.E:
            self.missing[u].discard(v)
            self.missing[v].discard(u)
        else:
            self._add_surplus(key)

    def swap(self, i: int, j: int, x: int, y: int) -> None:
        """(i,j),(x,y) → (i,x),(j,y)."""
        self.remove(i, j)
        self.remove(x, y)
        self.add(i, x)
        self.add(j, y)



def _targeted_candidate(st: _SwapState, i: int, j: int, cap: int):
    """A swap (i,j),(x,y) → (i,x),(j,y) with (i,x) ∈ E∖Ê and (x,y) ∈ Ê∖E: gain 2 if one
    exists among ``cap`` missing neighbours x of i (then y ∈ surplus(x) ∩ missing(j), so
    (j,y) ∈ E∖Ê as well), else the first of gain 1, else None.  The four nodes differ:
    x ∈ missing(i) and (i,j) ∈ Ê give x ≠ j; y ∈ surplus(x) gives y ≠ i; y = j is skipped."""
    surplus = st.surplus
    mj = st.missing[j]
    first = None
    for seen, x in enumerate(st.missing[i], 1):
        sx = surplus[x]
        if sx:
            if mj and not sx.isdisjoint(mj):
                return (2, i, j, x, next(iter(sx & mj)))
            if first is None:
                H, n = st.H, st.n
                for y in sx:
                    if y != j and (j * n + y if j < y else y * n + j) not in H:
                        first = (1, i, j, x, y)
                        break
        if seen == cap:
            break
    return first


def _uniform_candidate(st: _SwapState, keys: list[int]):
    """The thesis's FindMaxSwap on a sample: all pairs of sampled edges, both swaps.

    (a,b),(c,d) → (a,c),(b,d) or (a,d),(b,c), returned as (gain, i, j, x, y) meaning
    (i,j),(x,y) → (i,x),(j,y).
    """
    n, H, E, key = st.n, st.H, st.E, st.key
    best = None
    pairs = [divmod(x, n) for x in keys]
    for x in range(len(pairs)):
        a, b = pairs[x]
        old_ab = keys[x] in E
        for y in range(x + 1, len(pairs)):
            c, d = pairs[y]
            if len({a, b, c, d}) < 4:
                continue
            old = old_ab + (keys[y] in E)
            for x_, y_ in ((c, d), (d, c)):  # new edges (a,x_), (b,y_)
                k1, k2 = key(a, x_), key(b, y_)
                if k1 in H or k2 in H:
                    continue
                gain = (k1 in E) + (k2 in E) - old
                if best is None or gain > best[0]:
                    best = (gain, a, b, x_, y_)
    return best


def default_sample_size(n_edges: int) -> int:
    """FindMaxSwap's sample: ⌈½·log2(|Ê| + 1)⌉ edges, at least 2 — O(log|E|) as in the
    thesis (L6960); the ½ halves the time at the same final overlap (benchmarks)."""
    return max(2, math.ceil(0.5 * math.log2(n_edges + 1)))


def _floats(rng: np.random.Generator):
    """Uniform [0, 1) floats drawn 8192 at a time (one numpy call, not one per swap)."""
    while True:
        yield from rng.random(8192).tolist()


def greedy_swap(
    initial: Graph,
    original: Graph,
    *,
    sampling: str = "targeted",
    sample_size: int | None = None,
    patience: int = 10,
    max_swaps: int | None = None,
    seed: Any = None,
    progress: ProgressFn | None = None,
) -> SwapOutcome:
    """GreedySwap (Alg 9.6): degree-preserving swaps that raise |Ê ∩ E|.

    Repeats FindMaxSwap on a sample of ``sample_size`` edges (default
    :func:`default_sample_size`, O(log|Ê|) as in thesis L6960) and applies the best swap
    while its gain is positive; stops after ``patience`` consecutive samples without one,
    or after ``max_swaps``.  See the module docstring for the two samplings.  Every node
    keeps its degree.  O(swaps · sample_size) expected hash operations with ``targeted``;
    O(samples · sample_size²) with ``uniform``.  ``progress(done, total)`` is called every
    256 samples with the edges of ``original`` in place so far out of |Ê|.
    """
    check_choice(sampling, "sampling", SAMPLINGS)
    patience = check_int(patience, "patience", 1)
    initial = as_graph(initial, "GreedySwap (initial)", undirected=True)
    original = as_graph(original, "GreedySwap (original)", undirected=True)
    if initial.n_nodes != original.n_nodes:
        raise InputError(
            f"GreedySwap: the start graph has {initial.n_nodes} nodes, the original "
            f"{original.n_nodes}; both must be on the same nodes"
        )
    rng = secure_generator(seed)
    st = _SwapState(initial, original, sampling == "uniform")
    m_hat = len(st.H)
    s = sample_size if sample_size is not None else default_sample_size(m_hat)
    s = check_int(s, "sample_size", 2)
    rand = _floats(rng)
    cap = _CAP
    overlap_before = m_hat - len(st.sur_list)
    swaps = samples = misses = 0
    n = st.n
    while misses < patience and (max_swaps is None or swaps < max_swaps):
        pool = st.all_list if st.uniform else st.sur_list
        if len(pool) < (2 if st.uniform else 1):
            break
        samples += 1
        if progress is not None and samples % 256 == 0:
            progress(m_hat - len(st.sur_list), m_hat)
        best = None
        size = len(pool)
        if st.uniform:
            keys = dict.fromkeys(pool[int(next(rand) * size)] for _ in range(s))
            best = _uniform_candidate(st, list(keys))
        else:
            for _ in range(s):
                u, v = divmod(pool[int(next(rand) * size)], n)
                if next(rand) < 0.5:
                    u, v = v, u
                cand = _targeted_candidate(st, u, v, cap) or _targeted_candidate(st, v, u, cap)
                if cand is not None and (best is None or cand[0] > best[0]):
                    best = cand
                    if best[0] == 2:
                        break
        if best is None or best[0] <= 0:
            misses += 1
            continue
        misses = 0
        _, i, j, x, y = best
        st.swap(i, j, x, y)
        swaps += 1
    if progress is not None:
        progress(m_hat - len(st.sur_list), m_hat)
    keys = np.fromiter(st.H, dtype=np.int64, count=len(st.H))
    keys.sort()
    edges = np.column_stack([keys // n, keys % n])
    out = Graph.from_edges(n, edges, labels=initial.labels)
    return SwapOutcome(out, swaps, samples, overlap_before, m_hat - len(st.sur_list))


# ============================================================================ drivers
def _edge_keys(g: Graph) -> np.ndarray:
    e = g.edges()
    return e[:, 0] * g.n_nodes + e[:, 1]


def verify_kdegree(
    result: Graph, original: Graph, k: int, *, supergraph: bool = False, subgraph: bool = False
) -> None:
    """The final check of every k-degree algorithm; KDegreeInternalError on any violation."""
    if result.directed or result.n_nodes != original.n_nodes:
        raise KDegreeInternalError("k-degree output is directed or has other nodes")
    deg = result.degrees()
    if not is_k_anonymous_sequence(deg, k):
        values, counts = np.unique(deg, return_counts=True)
        bad = values[counts < k]
        raise KDegreeInternalError(
            f"k-degree output is not {k}-degree anonymous: degree {int(bad[0])} is held by "
            f"{int(counts[counts < k][0])} node(s) — a privlab bug, please report it"
        )
    if supergraph and not np.all(np.isin(_edge_keys(original), _edge_keys(result))):
        raise KDegreeInternalError("SuperGraph output lost an input edge — a privlab bug")
    if subgraph and not np.all(np.isin(_edge_keys(result), _edge_keys(original))):
        raise KDegreeInternalError("SubGraph output has an edge not in the input — a privlab bug")


def _probe(
    d: np.ndarray,
    k: int,
    *,
    allow_decrease: bool,
    build,
    quick,
    probing: int,
    max_delta: int,
    max_probes: int,
    tie_order: str,
    rng: np.random.Generator,
    method: str,
    progress: ProgressFn | None = None,
):
    """Alg 9.4's loop: DP → (quick test) → build, with AddRandomNoise between attempts;
    ``progress(probe + 1, max_probes + 1)`` after each failed probe.  ``d``: the degrees
    the DP anonymizes (the complement's for Algorithm 9.1)."""
    d = np.asarray(d, dtype=np.int64)
    n = d.size
    noisy = d.copy()
    secondary = rng.permutation(n) if tie_order == "random" else None
    state = None
    dp_cost = -1
    constructions = 0
    order = degree_order(noisy, tie_order, secondary)
    for probe in range(max_probes + 1):
        if probe:
            add_random_noise(noisy, order, probing, rng, max_delta)
            order = degree_order(noisy, tie_order, secondary)
        sorted_target, _, _, state = dp_sorted(
            noisy[order], k, allow_decrease, True, n - 1, state
        )
        target = np.empty(n, dtype=np.int64)
        target[order] = sorted_target
        if dp_cost < 0:
            dp_cost = int(np.abs(target - d).sum())
        if quick(target):
            constructions += 1
            out = build(target)
            if out is not None:
                return out, target, probe, constructions, dp_cost
        if progress is not None:
            progress(probe + 1, max_probes + 1)
    raise InfeasibleError(
        f"{method}: no k = {k} anonymous graph found within max_probes = {max_probes} "
        f"probes (probing scheme {probing}); raise max_probes, or use probing = 1 with a "
        f"larger max_delta, or kdegree_relaxed / kdegree_simultaneous_swap"
    )


def _common(graph: Any, k: Any, what: str, probing, max_delta, max_probes, tie_order):
    graph = as_graph(graph, what, undirected=True)
    k = check_k(k, graph.n_nodes)
    check_choice(probing, "probing", PROBING_SCHEMES)
    max_delta = check_int(max_delta, "max_delta", 1)
    max_probes = check_int(max_probes, "max_probes", 0)
    check_choice(tie_order, "tie_order", TIE_ORDERS)
    return graph, k, max_delta, max_probes


def _result(graph, out, method, k, probe, constructions, dp_cost, target, params, seed,
            swaps=0, samples=0) -> KDegreeAnonymization:  # fmt: skip
    before, after = _edge_keys(graph), _edge_keys(out)
    common = int(np.isin(before, after, assume_unique=True).sum())
    return KDegreeAnonymization(
        graph=out,
        method=method,
        k=k,
        edges_added=int(after.size - common),
        edges_removed=int(before.size - common),
        probes=probe,
        attempts=probe + 1,
        constructions=constructions,
        dp_cost=dp_cost,
        target_cost=int(np.abs(target - graph.degrees()).sum()),
        swaps=swaps,
        swap_samples=samples,
        parameters=params,
        insecure_seed=is_insecure_seed(seed),
        n_edges_before=graph.n_edges,
    )


def kdegree_supergraph(
    graph: Graph,
    k: int,
    *,
    probing: int = 4,
    max_delta: int = 10,
    max_probes: int = 100_000,
    tie_order: str = "ascending",
    complement: bool = False,
    seed: Any = None,
    progress: ProgressFn | None = None,
) -> KDegreeAnonymization:
    """k-degree anonymization by edge additions only: Alg 9.4 (probing + SuperGraph).

    Seed 000 §2.11 (thesis §9.5.2–9.5.3; Liu & Terzi 2008).  The even-sum optimal sequence
    (DegreeAnonymization) is tried first; if no supergraph is found, the input degrees get
    AddRandomNoise (``probing`` scheme 1–4, ``max_delta`` for schemes 1–2) and the DP is
    rerun.  The result contains every input edge; ``edges_removed`` is 0.  InfeasibleError
    after ``max_probes`` failed probes (the thesis notes the scheme "will not scale well to
    large graphs and values of k").  Each probe O(nk + m); the greedy O(n + m + Σa).
    ``progress(done, total)`` is called after each failed probe (probes of max_probes + 1).

    ``complement=True`` is Algorithm 9.1 (edge deletions only; see :func:`kdegree_subgraph`):
    all of the above on the complement of G, complemented back, without building it.
    """
    what = "SubGraph, deletions only" if complement else "SuperGraph"
    graph, k, max_delta, max_probes = _common(
        graph, k, f"k-degree anonymization ({what})", probing, max_delta, max_probes,
        tie_order,
    )  # fmt: skip
    rng = secure_generator(seed)
    degrees, edges = graph.degrees().astype(np.int64), graph.edges()
    top = graph.n_nodes - 1
    # Alg 9.1: the DP and the probing see the complement's degrees n − 1 − d; a sequence t_c
    # of the complement is the sequence n − 1 − t_c of G
    flip = (lambda t: top - t) if complement else (lambda t: t)
    condition = _subgraph_condition if complement else _supergraph_condition
    step = subgraph if complement else supergraph

    def quick(target):
        t = flip(target)
        return is_graphical(t) and condition(degrees, edges, t)

    def build(target):
        return step(graph, flip(target), seed=rng, check=False).graph

    out, target, probe, cons, dp_cost = _probe(
        flip(degrees), k, allow_decrease=False, build=build, quick=quick, probing=probing,
        max_delta=max_delta, max_probes=max_probes, tie_order=tie_order, rng=rng,
        method="kdegree_subgraph" if complement else "kdegree_supergraph", progress=progress,
    )  # fmt: skip
    verify_kdegree(out, graph, k, supergraph=not complement, subgraph=complement)
    params = {"probing": probing, "max_delta": max_delta, "tie_order": tie_order}
    method = "subgraph" if complement else "supergraph"
    return _result(graph, out, method, k, probe, cons, dp_cost, flip(target), params, seed)


def kdegree_subgraph(graph: Graph, k: int, **options: Any) -> KDegreeAnonymization:
    """k-degree anonymization by edge deletions only: Algorithm 9.1 (seed 000 §2.11).

    The thesis complements G, runs the additions-only algorithm (Alg 9.4: DegreeAnonymization,
    probing, SuperGraph) and complements the result.  Degree classes map one to one under
    d ↦ n − 1 − d, so the complement of a k-degree-anonymous graph is k-degree anonymous, and
    a supergraph of the complement is the complement of a subgraph of G.  The complement of
    a sparse graph is dense (ego-Facebook's has 8.1M edges, a 10⁶-node graph's 5·10¹¹), so
    nothing here builds it:

    * the DP and the probing run on the complement's degree sequence n − 1 − d (n numbers);
      in G's terms the DP lowers degrees (group cost Σ (d(ℓ) − group minimum)) and probing
      scheme 4 lowers one degree among the highest half by 1;
    * Theorem 9.6 on the complement is :func:`subgraph_condition`, O(n + m log m);
    * SuperGraph on the complement is :func:`subgraph`, which deletes G-edges, O(n + m log m).

    The random choices are the literal algorithm's: with the same ``seed`` the release is
    exactly the complement of ``kdegree_supergraph(complement of G, k, seed)`` (tested).  The
    result is a subgraph of G (``edges_added`` = 0).  Probing always ends (at the empty graph
    at the latest); InfeasibleError after ``max_probes``.  Each probe O(nk + m log m).
    ``options`` as :func:`kdegree_supergraph` (``probing``, ``max_delta``, ``max_probes``,
    ``tie_order``, ``seed``, ``progress``).
    """
    if "complement" in options:
        raise ConfigError("kdegree_subgraph always works on the complement: drop 'complement'")
    return kdegree_supergraph(graph, k, complement=True, **options)


def _construct_and_swap(graph, k, method, allow_decrease, probing, max_delta, max_probes,
                        tie_order, order, sampling, sample_size, patience, max_swaps,
                        prefer_original, seed, progress) -> KDegreeAnonymization:  # fmt: skip
    graph, k, max_delta, max_probes = _common(
        graph, k, f"k-degree anonymization ({method})", probing, max_delta, max_probes,
        tie_order,
    )  # fmt: skip
    check_choice(order, "order", CONSTRUCT_ORDERS)
    check_choice(sampling, "sampling", SAMPLINGS)
    rng = secure_generator(seed)

    def build(target):
        g0 = construct_graph(
            target, order=order, seed=rng, prefer=graph if prefer_original else None,
            labels=graph.labels,
        )  # fmt: skip
        if g0 is None:  # pragma: no cover - Erdős–Gallai passed, and the oracle is exact
            raise KDegreeInternalError("ConstructGraph refused a graphical sequence")
        return g0

    g0, target, probe, cons, dp_cost = _probe(
        graph.degrees(), k, allow_decrease=allow_decrease, build=build, quick=is_graphical,
        probing=probing, max_delta=max_delta, max_probes=max_probes, tie_order=tie_order,
        rng=rng, method=f"kdegree_{method}",
    )  # fmt: skip
    sw = greedy_swap(
        g0, graph, sampling=sampling, sample_size=sample_size, patience=patience,
        max_swaps=max_swaps, seed=rng, progress=progress,
    )  # fmt: skip
    if not np.array_equal(sw.graph.degrees(), target):
        raise KDegreeInternalError("GreedySwap changed a degree — a privlab bug")
    verify_kdegree(sw.graph, graph, k)
    params = {
        "probing": probing, "max_delta": max_delta, "tie_order": tie_order, "order": order,
        "sampling": sampling, "sample_size": sample_size, "patience": patience,
        "prefer_original": prefer_original, "overlap_initial": sw.overlap_before,
        "overlap_final": sw.overlap_after,
    }  # fmt: skip
    return _result(graph, sw.graph, method, k, probe, cons, dp_cost, target, params, seed,
                   sw.swaps, sw.samples)  # fmt: skip


def kdegree_relaxed(
    graph: Graph,
    k: int,
    *,
    probing: int = 4,
    max_delta: int = 10,
    max_probes: int = 100_000,
    tie_order: str = "ascending",
    order: str = "random",
    sampling: str = "targeted",
    sample_size: int | None = None,
    patience: int = 10,
    max_swaps: int | None = None,
    prefer_original: bool = True,
    seed: Any = None,
    progress: ProgressFn | None = None,
) -> KDegreeAnonymization:
    """RelaxedConstruction (Alg 9.7): DegreeAnonymization → ConstructGraph → GreedySwap.

    Seed 000 §2.11 (thesis §9.5.4).  Degrees only grow in the DP, but the graph need not
    contain G: ConstructGraph builds a graph with the (probed) sequence, then GreedySwap
    moves it towards G (Ê ≈ E).  ``order`` is ConstructGraph's node choice,
    ``prefer_original`` its tie rule (see :func:`construct_graph`); ``sampling``,
    ``sample_size``, ``patience``, ``max_swaps`` and ``progress`` (the swaps' progress) go to
    :func:`greedy_swap`.  O(nk) per probe + O(n + m) construction + the swaps.
    """
    return _construct_and_swap(
        graph, k, "relaxed", False, probing, max_delta, max_probes, tie_order, order,
        sampling, sample_size, patience, max_swaps, prefer_original, seed, progress,
    )  # fmt: skip


def kdegree_simultaneous_swap(
    graph: Graph,
    k: int,
    *,
    probing: int = 4,
    max_delta: int = 10,
    max_probes: int = 100_000,
    tie_order: str = "ascending",
    order: str = "random",
    sampling: str = "targeted",
    sample_size: int | None = None,
    patience: int = 10,
    max_swaps: int | None = None,
    prefer_original: bool = True,
    seed: Any = None,
    progress: ProgressFn | None = None,
) -> KDegreeAnonymization:
    """SimultaneousSwap (Alg 9.8): OptimalDegreeAnon → ConstructGraph → GreedySwap.

    Seed 000 §2.11 (thesis §9.5.5): as :func:`kdegree_relaxed`, but the DP uses the median
    group cost, so degrees may also fall (edge additions *and* deletions) — the cheapest
    sequence, and the thesis's best utility on diameter, APL and density.
    """
    return _construct_and_swap(
        graph, k, "simultaneous_swap", True, probing, max_delta, max_probes, tie_order,
        order, sampling, sample_size, patience, max_swaps, prefer_original, seed, progress,
    )  # fmt: skip


METHODS = {
    "supergraph": kdegree_supergraph,
    "relaxed": kdegree_relaxed,
    "simultaneous_swap": kdegree_simultaneous_swap,
    "subgraph": kdegree_subgraph,
}


def kdegree_anonymize(
    graph: Graph, k: int, *, method: str = "simultaneous_swap", **options: Any
) -> KDegreeAnonymization:
    """Dispatch to :func:`kdegree_supergraph`, :func:`kdegree_relaxed`,
    :func:`kdegree_simultaneous_swap` or :func:`kdegree_subgraph` (``method``); ``options``
    (``progress`` too) go to that function."""
    check_choice(method, "method", tuple(METHODS))
    return METHODS[method](graph, k, **options)


__all__ = [
    "CONSTRUCT_ORDERS",
    "METHODS",
    "SAMPLINGS",
    "KDegreeAnonymization",
    "KDegreeInternalError",
    "SupergraphOutcome",
    "SwapOutcome",
    "construct_graph",
    "greedy_swap",
    "kdegree_anonymize",
    "kdegree_relaxed",
    "kdegree_simultaneous_swap",
    "kdegree_subgraph",
    "kdegree_supergraph",
    "subgraph",
    "supergraph",
    "verify_kdegree",
]
