"""Random edge perturbation of undirected graphs: RSP, RAD, RSW, REP and random insertion.

The five edge-level schemes benchmarked by Sharad (seed 004 §2.9; thesis §2.6 L316–347,
§4.3 L1062–1225) — k-degree anonymization (KDA), the sixth, lives in its own module:

==========================  ======  =========================================================
function                    scheme  what ``fraction`` (REP: ``p``) controls
==========================  ======  =========================================================
random_sparsification       RSP     m = ⌊f·|E|⌉ edges deleted, a uniform m-subset
random_add_delete           RAD     m = ⌊f·|E|⌉ deletions, then m insertions (Hay et al.)
random_switch               RSW     s = ⌊f·⌊|E|/2⌋⌉ degree-preserving switches of edge pairs
random_edge_perturbation    REP     every edge removed, every non-edge added, w.p. p
random_insertion            RI      m = ⌊f·|E|⌉ uniform non-edges added (the 1HKA proxy)
==========================  ======  =========================================================

⌊x⌉ is the nearest integer, halves rounded up.  Every function takes an undirected
:class:`~privlab.graph.core.Graph` and returns a :class:`Perturbation`: the perturbed graph
(same nodes, same ``labels`` — strip them with :func:`~privlab.graph.anonymize.naive.\
naive_anonymize` before publishing), the parameters actually used and the exact number of
edges removed from and added to the original.  Randomness comes from
:func:`privlab.dp.noise.secure_generator`: OS entropy unless a seed is given, and a given
seed is flagged ``insecure_seed`` (whoever knows it can undo the perturbation).

Non-edges are sampled exactly uniformly without touching the n(n−1)/2 pairs: pairs u < v
are numbered 0..N−1 row by row, the k-th absent pair is found from the sorted ids of the
present ones by a binary search over ``id − rank`` (the number of absent ids below it), and
k distinct ranks are drawn with O(k) memory (:func:`_sample_distinct`).  No pair is ever
rejected for being present; k non-edges of a graph with m edges cost O(m + k log(k + m)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InfeasibleError
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_fraction

_UNCHANGED = "0 leaves the graph unchanged"  # hint of the fraction/p errors


@dataclass(frozen=True)
class Perturbation:
    """A perturbed graph and what was done to it.

    ``edges_removed`` = |E \\ E'| and ``edges_added`` = |E' \\ E| are measured against the
    original edge set (a pair deleted and re-inserted by RAD counts in neither).
    ``parameters`` holds the scheme's parameter and the derived counts (m, s, ...).
    """

    graph: Graph
    scheme: str
    parameters: dict[str, Any]
    edges_removed: int
    edges_added: int
    insecure_seed: bool = False
    n_edges_before: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": self.scheme,
            "parameters": dict(self.parameters),
            "n_nodes": self.graph.n_nodes,
            "n_edges_before": self.n_edges_before,
            "n_edges_after": self.graph.n_edges,
            "edges_removed": self.edges_removed,
            "edges_added": self.edges_added,
            "insecure_seed": self.insecure_seed,
        }


# ============================================================================ the schemes
def random_sparsification(graph: Graph, fraction: float, *, seed: Any = None) -> Perturbation:
    """RSP: delete m = ⌊fraction·|E|⌉ edges, a uniformly random m-subset of E.

    Seed 004 §2.9 (thesis L320, "deletes a fraction of graph edges at random") and §2.2 step 4
    (the default noise of its graph-pair generator: β = (1−α_E)/(1+α_E) per copy).  Exactly
    m edges go, so |E'| = |E| − m.  O(m log m).
    """
    graph = as_graph(graph, "random sparsification (RSP)", undirected=True)
    f = check_fraction(fraction, "fraction", low_open=False, hint=_UNCHANGED)
    rng = secure_generator(seed)
    edges = graph.edges()
    m = _count(f, edges.shape[0])
    keep = np.ones(edges.shape[0], dtype=bool)
    keep[_sample_distinct(edges.shape[0], m, rng)] = False
    out = _graph_from_ids(graph, _pair_index(edges[keep], graph.n_nodes))
    return _result(graph, out, "RSP", {"fraction": f, "m": m}, m, 0, seed)


def random_add_delete(graph: Graph, fraction: float, *, seed: Any = None) -> Perturbation:
    """RAD (Hay et al.'s random perturbation): m deletions, then m insertions.

    Seed 002 §A.2.7 (Hay et al. 2007, L506–514) and seed 004 §2.9 (thesis L321): with
    m = ⌊fraction·|E|⌉, delete a uniformly random m-subset of E, then insert a uniformly random
    m-subset of the non-edges of the interim graph (V, E \\ E⁻).  The interim graph's
    non-edges include the m deleted pairs, so a deleted pair can come back — exactly Hay et
    al.'s process, whose possible-worlds prior C(|E|, m)·C(|Ē| + m, m) (§A.2.8) assumes it.
    |E'| = |E| always; the net change |E \\ E'| = |E' \\ E| = m − ``reinserted``
    (``parameters["reinserted"]``, ≈ m²/|Ē| in expectation, usually 0).  fraction = 1 gives
    a uniform random graph with |E| edges (seed 004 L1096).  O((m + |E|) log |E|).
    """
    graph = as_graph(graph, "random add/delete (RAD)", undirected=True)
    f = check_fraction(fraction, "fraction", low_open=False, hint=_UNCHANGED)
    rng = secure_generator(seed)
    n, edges = graph.n_nodes, graph.edges()
    keys = _pair_index(edges, n)  # ascending: edges() is row-major with u < v
    m = _count(f, keys.size)
    gone = np.zeros(keys.size, dtype=bool)
    gone[_sample_distinct(keys.size, m, rng)] = True
    interim = keys[~gone]
    inserted = _sample_absent(n, interim, m, rng)
    reinserted = int(np.isin(inserted, keys[gone], assume_unique=True).sum())
    out = _graph_from_ids(graph, np.concatenate([interim, inserted]))
    params = {"fraction": f, "m": m, "reinserted": reinserted}
    return _result(graph, out, "RAD", params, m - reinserted, m - reinserted, seed)


def random_insertion(graph: Graph, fraction: float, *, seed: Any = None) -> Perturbation:
    """RI: add m = ⌊fraction·|E|⌉ non-edges, a uniformly random m-subset of Ē.

    Seed 004 §2.9 (thesis L1189–1202): Sharad's stand-in for 1-hop k-anonymity (Zhou & Pei),
    whose greedy algorithm does not scale; random insertion gives a lower bound on
    de-anonymizability and an upper bound on utility relative to the real scheme.  Levels
    tested: 0.10, 0.25, 0.50.  ConfigError if m exceeds the number of non-edges.
    O((m + |E|) log |E|).
    """
    graph = as_graph(graph, "random insertion (RI, the 1HKA proxy)", undirected=True)
    f = check_fraction(fraction, "fraction", low_open=False, hint=_UNCHANGED)
    rng = secure_generator(seed)
    n, edges = graph.n_nodes, graph.edges()
    keys = _pair_index(edges, n)
    m = _count(f, keys.size)
    _check_insertions(f, m, _n_pairs(n) - keys.size, keys.size)
    inserted = _sample_absent(n, keys, m, rng)
    out = _graph_from_ids(graph, np.concatenate([keys, inserted]))
    params = {"fraction": f, "m": m, "proxy_for": "1HKA"}
    return _result(graph, out, "RI", params, 0, m, seed)


def random_edge_perturbation(graph: Graph, p: float, *, seed: Any = None) -> Perturbation:
    """REP (Xue et al., CIKM 2012): remove each edge and add each non-edge with probability p.

    Seed 004 §2.9 (thesis L333, L1135): "removing a fraction of edges and adding the same
    fraction of non-edges"; Xue et al. define it by a perturbation probability known to the
    data recipient, i.e. every pair is flipped independently with probability p.  Drawn
    exactly: the number of deletions is Binomial(|E|, p) and of insertions Binomial(|Ē|, p),
    each set then a uniform subset of that size.  Because |Ē| ≫ |E|, the edge count grows
    about p·n²/2: Sharad's levels p = 1e-4, 1e-3, 1e-2 add ≈ 0.8k, 8k, 80k edges to
    ego-Facebook (|E| = 88k) and p = 1 yields the complement graph.  Time and memory
    O((|E| + k) log(|E| + k)) for k insertions.
    """
    graph = as_graph(graph, "random edge perturbation (REP)", undirected=True)
    prob = check_fraction(p, "p", low_open=False, hint=_UNCHANGED)
    rng = secure_generator(seed)
    n, edges = graph.n_nodes, graph.edges()
    keys = _pair_index(edges, n)
    free = _n_pairs(n) - keys.size
    n_del = int(rng.binomial(keys.size, prob)) if keys.size else 0
    n_add = int(rng.binomial(free, prob)) if free else 0
    keep = np.ones(keys.size, dtype=bool)
    keep[_sample_distinct(keys.size, n_del, rng)] = False
    inserted = _sample_absent(n, keys, n_add, rng)
    out = _graph_from_ids(graph, np.concatenate([keys[keep], inserted]))
    params = {"p": prob, "deleted": n_del, "inserted": n_add}
    return _result(graph, out, "REP", params, n_del, n_add, seed)


def random_switch(graph: Graph, fraction: float, *, seed: Any = None) -> Perturbation:
    """RSW: s = ⌊fraction·⌊|E|/2⌋⌉ degree-preserving switches of disjoint edge pairs.

    Seed 004 §2.9 (thesis L322, Fig. 2.1; levels "a fraction k = 0.20, 0.50, 0.85 of the
    number of edge pairs", L1105).  A switch replaces edges (a, b), (c, d) by (a, d), (c, b)
    or by (a, c), (b, d) — orientation drawn uniformly — when the two new pairs are not
    self-loops and are absent from both the current and the original graph.  Each original
    edge is switched at most once (as SecGraph's RandSw intends; its loop never runs, see
    REFERENCE_RESULTS.md), so a fraction f of the ⌊|E|/2⌋ disjoint edge pairs is switched
    and exactly 2s original edges are replaced: |E \\ E'| = |E' \\ E| = 2s, and every node
    keeps its degree.

    Algorithm.  Rounds of vectorized proposals: i.i.d. uniform ordered pairs of unswitched
    edges with a uniform orientation, checked against the sorted ids of the original and
    created edges, accepted in order unless an earlier accepted proposal of the round took
    one of their edges or new pairs (:func:`_greedy_in_order`).  That is exactly the
    sequential process "repeatedly apply a uniformly random valid switch of two unswitched
    edges", batched.  Near fraction 1 the unswitched edges left over cluster at hubs and in
    dense ego networks and pair poorly; the tail then also switches them with created edges
    (most constrained edge first when the candidates are few enough to check them all).
    Such a switch replaces one more original edge by a non-original one, so
    ``parameters["switches"]`` may exceed s by a few (≈ 0.4 % at fraction 1 on ego-Facebook)
    while exactly 2s edges are replaced.  InfeasibleError if no valid switch is left (a
    star, a clique, a 4-cycle at fraction 1) or, when every edge must go, if a node has more
    neighbours than non-neighbours.  Phase 1 costs O(s log |E|) per round for a few rounds;
    ego-Facebook (88k edges) takes about 0.01 s at fraction 0.1 and 0.1 s at fraction 1.
    """
    graph = as_graph(graph, "random switch (RSW)", undirected=True)
    f = check_fraction(fraction, "fraction", low_open=False, hint=_UNCHANGED)
    rng = secure_generator(seed)
    n, edges = graph.n_nodes, graph.edges()
    pairs = edges.shape[0] // 2
    s = _count(f, pairs)
    if s and 2 * s == edges.shape[0]:  # every edge replaced: each node needs new neighbours
        deg = graph.degrees()
        bad = np.flatnonzero(2 * deg > n - 1)
        if bad.size:
            v = int(bad[np.argmax(deg[bad])])
            raise InfeasibleError(
                f"random switch with fraction = {f!r} replaces every edge, but node {v} has "
                f"{int(deg[v])} neighbours and only {n - 1 - int(deg[v])} non-neighbours to "
                "move them to; lower `fraction`"
            )
    state = _Switcher(n, edges, rng)
    state.run(2 * s)
    out = _graph_from_ids(graph, state.result_ids())
    params = {
        "fraction": f, "edge_pairs": pairs, "s": s, "switches": state.switches,
        "rounds": state.rounds,
    }  # fmt: skip
    return _result(graph, out, "RSW", params, 2 * s, 2 * s, seed)


# ============================================================================ random switch
class _Switcher:
    """State of an RSW run: original edges, which of them are switched, the created edges."""

    TAIL_EXHAUSTIVE = 500_000  # tail candidate moves checked all at once (≈ 40 MB)
    TAIL_RANDOM = 64  # random partners per leftover edge per tail round
    TAIL_TRIES = 32  # random tail rounds without progress before giving up

    def __init__(self, n: int, edges: np.ndarray, rng: np.random.Generator) -> None:
        self.n = n
        self.rng = rng
        self.e0 = edges
        self.keys0 = _pair_index(edges, n)  # sorted
        self.switched = np.zeros(edges.shape[0], dtype=bool)
        self.created = np.empty(0, dtype=np.int64)  # sorted ids of created edges
        self.rewired = 0
        self.switches = 0
        self.rounds = 0

    # -- checks
    def _new_pairs(self, a, b, c, d):
        """Ids of (a, d) and (c, b) and whether the switch is valid against the current state."""
        ok = (a != c) & (a != d) & (b != c) & (b != d)
        k1 = _pair_index_uv(a, d, self.n)
        k2 = _pair_index_uv(c, b, self.n)
        for k in (k1, k2):
            ok &= ~_member(self.keys0, k)
            ok &= ~_member(self.created, k)
        return k1, k2, ok

    # -- phase 1: pairs of original edges, vectorized
    def run(self, target: int) -> None:
        """Switch until ``target`` original edges are replaced (phase 1, then the tail).

        A round draws i.i.d. proposals — an ordered pair of not-yet-switched edges (with
        replacement) and an orientation — and accepts them in order when valid and when no
        earlier accepted proposal of the round used one of their edges or created one of
        their pairs.  That is rejection sampling of the sequential process "pick a uniformly
        random valid switch among the unswitched edges", batched.
        """
        self.target = target
        while self.rewired < target:
            need = (target - self.rewired) // 2
            pool = np.flatnonzero(~self.switched)
            if need == 0 or pool.size < 2:
                break
            self.rounds += 1
            proposals = need + need // 2 + 64
            i = pool[self.rng.integers(0, pool.size, size=proposals)]
            j = pool[self.rng.integers(0, pool.size, size=proposals)]
            a, b = self.e0[i, 0], self.e0[i, 1]
            flip = self.rng.random(proposals) < 0.5
            c = np.where(flip, self.e0[j, 1], self.e0[j, 0])
            d = np.where(flip, self.e0[j, 0], self.e0[j, 1])
            k1, k2, ok = self._new_pairs(a, b, c, d)
            m = self.e0.shape[0]  # resources: edges 0..m−1, then new pair ids shifted by m
            accepted = _greedy_in_order(np.stack([i, j, k1 + m, k2 + m], axis=1), ok)[:need]
            if accepted.size == 0:
                break
            self.switched[i[accepted]] = True
            self.switched[j[accepted]] = True
            self.created = np.sort(np.concatenate([self.created, k1[accepted], k2[accepted]]))
            self.rewired += 2 * accepted.size
            self.switches += accepted.size
            if accepted.size < max(1, proposals // 1000) and pool.size < 4 * need + 64:
                break  # random pairing has stalled: the leftovers need the tail
        if self.rewired < target:
            self._tail()

    # -- phase 2: leftover original edges against any current edge
    def _tail(self) -> None:
        created = set(self.created.tolist())
        keys0 = self.keys0
        tries = 0
        while self.rewired < self.target:
            left = np.flatnonzero(~self.switched)
            ck = np.fromiter(created, dtype=np.int64, count=len(created))
            cur = np.concatenate([self.e0[left], _pair_from_index(ck, self.n)])
            cur_keys = np.concatenate([keys0[left], ck])
            is_orig = np.zeros(cur.shape[0], dtype=bool)
            is_orig[: left.size] = True
            n_left, n_cur = left.size, cur.shape[0]
            exhaustive = n_left * n_cur * 2 <= self.TAIL_EXHAUSTIVE
            if exhaustive:
                ii, jj = np.divmod(np.arange(n_left * n_cur, dtype=np.int64), n_cur)
                ii, jj = np.repeat(ii, 2), np.repeat(jj, 2)
                flip = np.tile(np.array([False, True]), n_left * n_cur)
            else:
                ii = np.repeat(np.arange(n_left), self.TAIL_RANDOM)
                jj = self.rng.integers(0, n_cur, size=ii.size)
                flip = self.rng.random(ii.size) < 0.5
            keep = ii != jj
            ii, jj, flip = ii[keep], jj[keep], flip[keep]
            a, b = cur[ii, 0], cur[ii, 1]
            c = np.where(flip, cur[jj, 1], cur[jj, 0])
            d = np.where(flip, cur[jj, 0], cur[jj, 1])
            self.created = np.sort(ck)
            k1, k2, ok = self._new_pairs(a, b, c, d)
            if self.target - self.rewired == 1:
                ok &= ~is_orig[jj]  # one edge to go: the partner must be a created edge
            moves = np.flatnonzero(ok)
            if moves.size == 0:
                tries += 1
                if exhaustive or tries >= self.TAIL_TRIES:
                    self._give_up(exhaustive)
                continue
            if exhaustive:
                # most constrained first: one move of the leftover edge with fewest options
                per_edge = np.bincount(ii[moves], minlength=n_left)
                per_edge[per_edge == 0] = moves.size + 1
                hardest = np.flatnonzero(per_edge == per_edge.min())
                pick = self.rng.choice(hardest)
                moves = self.rng.permutation(moves[ii[moves] == pick])[:1]
            used: set[int] = set()
            progress = False
            for t in self.rng.permutation(moves).tolist():
                x, y, n1, n2 = int(ii[t]), int(jj[t]), int(k1[t]), int(k2[t])
                gain = 1 + int(is_orig[y])
                if x in used or y in used or n1 in created or n2 in created:
                    continue
                if gain > self.target - self.rewired:
                    continue
                self.switched[left[x]] = True
                if is_orig[y]:
                    self.switched[left[y]] = True
                else:
                    created.discard(int(cur_keys[y]))
                created.update((n1, n2))
                used.update((x, y))
                self.rewired += gain
                self.switches += 1
                progress = True
                if self.rewired == self.target:
                    break
            self.rounds += 1
            tries = 0 if progress else tries + 1
        self.created = np.sort(np.fromiter(created, dtype=np.int64, count=len(created)))

    def _give_up(self, exhaustive: bool) -> None:
        how = "no valid switch exists" if exhaustive else (
            f"{self.TAIL_TRIES} rounds of {self.TAIL_RANDOM} random partners each found none"
        )  # fmt: skip
        raise InfeasibleError(
            f"random switch: {self.rewired} of the {self.target} edges to replace are replaced, "
            f"then {how} for the {int((~self.switched).sum())} edges left (every switch would "
            "make a self-loop or an edge that exists or existed); lower `fraction`"
        )

    def result_ids(self) -> np.ndarray:
        return np.concatenate([self.keys0[~self.switched], self.created])


def _greedy_in_order(resources: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Indices of the proposals a sequential pass would accept: proposal t (a row of
    ``resources``, the ids it claims) is accepted iff ``ok[t]`` and no accepted proposal
    before it claims one of its ids.

    Computed in parallel rounds: a proposal that is the earliest undecided claimant of each
    of its ids is accepted (the sequential pass accepts it too, since every earlier rival
    was rejected), proposals sharing an id with it are rejected, and the rest go again.
    Each round settles at least the earliest undecided proposal; a few rounds suffice.
    """
    n_prop = ok.size
    order = np.arange(n_prop, dtype=np.int64)
    _, res = np.unique(resources.ravel(), return_inverse=True)
    res = res.reshape(resources.shape)
    accepted = np.zeros(n_prop, dtype=bool)
    undecided = ok.copy()
    first = np.empty(int(res.max()) + 1 if res.size else 0, dtype=np.int64)
    while undecided.any():
        live = np.flatnonzero(undecided)
        first.fill(n_prop)
        np.minimum.at(first, res[live].ravel(), np.repeat(live, res.shape[1]))
        win = live[(first[res[live]] == order[live, None]).all(axis=1)]
        accepted[win] = True
        held = np.zeros(first.size, dtype=bool)
        held[res[win].ravel()] = True
        undecided[live] = ~held[res[live]].any(axis=1)
    return np.flatnonzero(accepted)


# ============================================================================ pair ids
def _n_pairs(n: int) -> int:
    return n * (n - 1) // 2


def _pair_index_uv(u: np.ndarray, v: np.ndarray, n: int) -> np.ndarray:
    """Id of the unordered pair {u, v} (u ≠ v) among the n(n−1)/2 pairs, row by row."""
    lo = np.minimum(u, v).astype(np.int64)
    hi = np.maximum(u, v).astype(np.int64)
    return lo * (2 * n - lo - 1) // 2 + (hi - lo - 1)


def _pair_index(edges: np.ndarray, n: int) -> np.ndarray:
    return _pair_index_uv(edges[:, 0], edges[:, 1], n)


def _pair_from_index(t: np.ndarray, n: int) -> np.ndarray:
    """Inverse of :func:`_pair_index`: (k × 2) pairs u < v.  Float guess, integer fix-up."""
    t = np.asarray(t, dtype=np.int64)
    if t.size == 0:
        return np.empty((0, 2), dtype=np.int64)
    b = 2.0 * n - 1.0
    u = np.floor((b - np.sqrt(np.maximum(b * b - 8.0 * t, 0.0))) / 2.0).astype(np.int64)
    u = np.clip(u, 0, max(n - 2, 0))

    def start(x):
        return x * (2 * n - x - 1) // 2

    for _ in range(64):  # the guess is off by at most a few rows
        low = start(u) > t
        high = start(u + 1) <= t
        if not (low.any() or high.any()):
            break
        u = u - low + high
    v = t - start(u) + u + 1
    return np.stack([u, v], axis=1)


def _member(sorted_keys: np.ndarray, q: np.ndarray) -> np.ndarray:
    if sorted_keys.size == 0:
        return np.zeros(q.shape, dtype=bool)
    pos = np.searchsorted(sorted_keys, q)
    pos = np.minimum(pos, sorted_keys.size - 1)
    return sorted_keys[pos] == q


# ============================================================================ sampling
def _sample_distinct(pop: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """k distinct integers drawn uniformly from 0..pop−1 (a uniform k-subset), sorted.

    Draws with replacement and tops up until k distinct values are seen, then keeps a
    uniform k-subset of them; by exchangeability the result is a uniform k-subset.  Memory
    and expected time O(k log k) for k ≤ pop/2; larger k samples the complement.
    """
    if k < 0 or k > pop:
        raise ValueError(f"cannot draw {k} distinct values from {pop}")
    if k == 0:
        return np.empty(0, dtype=np.int64)
    if 2 * k > pop:
        out = np.ones(pop, dtype=bool)
        out[_sample_distinct(pop, pop - k, rng)] = False
        return np.flatnonzero(out).astype(np.int64)
    seen = _sorted_unique(rng.integers(0, pop, size=k, dtype=np.int64))
    while seen.size < k:
        missing = k - seen.size
        draws = int(missing * pop / (pop - seen.size) * 1.1) + 16
        more = rng.integers(0, pop, size=draws, dtype=np.int64)
        seen = _sorted_unique(np.concatenate([seen, more]))
    if seen.size > k:
        seen = np.sort(rng.choice(seen, size=k, replace=False))
    return seen


def _sorted_unique(x: np.ndarray) -> np.ndarray:
    """Sorted distinct values (sort-based; numpy 2's hashing np.unique is slower here)."""
    x = np.sort(x)
    if x.size:
        x = x[np.concatenate([[True], x[1:] != x[:-1]])]
    return x


def _sample_absent(n: int, present: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k pair ids drawn uniformly without replacement from those not in ``present`` (sorted,
    distinct ids of the graph's edges).  The r-th absent id is r + #{present ids p with
    p − rank(p) ≤ r}: one binary search per draw, no rejection."""
    free = _n_pairs(n) - present.size
    ranks = _sample_distinct(free, k, rng)
    shifted = present - np.arange(present.size, dtype=np.int64)  # absent ids below each
    return ranks + np.searchsorted(shifted, ranks, side="right")


# ============================================================================ helpers
def _count(fraction: float, total: int) -> int:
    """⌊fraction·total⌉, halves up, never above total."""
    return min(math.floor(fraction * total + 0.5), total)


def _check_insertions(f: float, m: int, free: int, n_edges: int) -> None:
    """ConfigError if ``fraction`` = f asks for m insertions among only ``free`` non-edges."""
    if m > free:
        raise ConfigError(
            f"fraction = {f!r} asks for {m} new edges but the graph has only {free} non-edges; "
            f"use fraction ≤ {free / max(n_edges, 1):.6g}"
        )


def _graph_from_ids(graph: Graph, ids: np.ndarray) -> Graph:
    """The undirected Graph on graph's nodes (and labels) whose edges are the pair ids
    ``ids`` (distinct, possibly a concatenation of sorted runs).

    Builds the CSR directly — the ids are distinct pairs u < v, so the graph is simple by
    construction — instead of :meth:`Graph.from_edges`' lexsort of 2m entries and its
    checks: O(m) plus one stable sort; the tests compare it with ``from_edges``.
    """
    n = graph.n_nodes
    ids = np.sort(np.asarray(ids, dtype=np.int64), kind="stable")  # merges sorted runs
    pairs = _pair_from_index(ids, n)
    u, v = pairs[:, 0], pairs[:, 1]
    m = ids.size
    up = np.bincount(u, minlength=n)  # row u: its neighbours v > u, ascending (ids sorted)
    low = np.bincount(v, minlength=n)  # row v: its neighbours u < v, before the upper ones
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(up + low, out=indptr[1:])
    indices = np.empty(2 * m, dtype=np.int64)
    within = np.arange(m, dtype=np.int64)
    indices[indptr[u] + low[u] + within - (np.cumsum(up) - up)[u]] = v
    small = v.astype(np.uint16) if n <= 1 << 16 else v  # radix sort for ≤ 16 bits
    order = np.argsort(small, kind="stable")  # by v, then u (ids sorted by u first)
    vs = v[order]
    indices[indptr[vs] + within - (np.cumsum(low) - low)[vs]] = u[order]
    return Graph(indptr, indices, False, graph.labels)


def _result(graph, out, scheme, params, removed, added, seed) -> Perturbation:
    return Perturbation(
        graph=out, scheme=scheme, parameters=params, edges_removed=int(removed),
        edges_added=int(added), insecure_seed=is_insecure_seed(seed),
        n_edges_before=graph.n_edges,
    )  # fmt: skip


__all__ = [
    "Perturbation",
    "random_add_delete",
    "random_edge_perturbation",
    "random_insertion",
    "random_sparsification",
    "random_switch",
]
