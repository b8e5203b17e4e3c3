"""Narayanan–Shmatikov seed-and-propagate de-anonymization with SecGraph's scoring.

Sources: seed 000 §2.12 (thesis Ch. 10, L7470–7810; Narayanan & Shmatikov, S&P 2009 [NS09],
and Narayanan, Shi & Rubinstein, IJCNN 2011 [NSR11]) for the attack — seeds, propagation
scores, eccentricity θ, the reverse match — and REFERENCE_RESULTS.md for the exact scoring
rule of SecGraph's ``deAnonymize.UndirectionedPropagation`` (Ji et al., USENIX Security 2015),
whose numbers on ego-Facebook privlab reproduces.

The rule.  The mapping starts from the seeds.  In one *pass* every node l of G1 that is not
mapped yet is visited in ascending id order and scored against every node r of G2:
score(l, r) = Σ 1/√deg_G2(r) over the pairs (l', r') of the mapping with l' ~ l in G1 and
r' ~ r in G2, r unmapped (mapped nodes of G2 score 0).  The eccentricity of the |G2| scores
is (max − second max) / σ with σ the sample standard deviation (n − 1 degrees of freedom,
zeros included).  If it is at least θ, the best r (the largest id among equal maxima, as
SecGraph's ``findNode``) is scored back against G1 with the graphs and the mapping swapped
(weights 1/√deg_G1); the pair (l, r) is added when that eccentricity is also at least θ
and the best node back is l.  A new pair is used at once by the nodes visited after it.
Passes repeat until one adds nothing.  Like SecGraph, mapped nodes are not revisited (the
thesis's Listing 10.1 revisits them, see docs/graph/propagation.md).  Where SecGraph
divides 0 by σ = 0 (a node without mapped neighbours) it gets NaN, which passes its
``ecc < θ`` test; here an undefined eccentricity is never a match.

Speed.  :func:`propagate` never touches a pair (l, r) that scores 0.  A fresh scoring of l
(:class:`_Fresh`) is a sparse product: the mapped neighbours of l, mapped into G2, and their
G2 adjacency rows (gathered from per-row views; the rows are compacted at the start of each
pass to the nodes still unmapped) count the paths C(l, r) to each candidate r; the score,
1/√deg(r) added C(l, r) times in a row, is read from a table of running sums, so it is
bit-identical to the reference's repeated addition.  What the test needs of the |G2|
scores is kept as a summary (:class:`_Summaries`): the sum S and sum of squares Q of the
non-zero scores, the top, the second and the best candidate; σ² = (Q − S²/n)/(n − 1) with
the n − k zeros included.  A node is looked at again only if something it depends on
changed since its last verdict: one of its neighbours got mapped (the summary is dropped
and l is scored afresh), one of its candidates got mapped (the summary is updated in O(1):
S − s, Q − s², unless that candidate was the best or scored at least the second, when it
is dropped), or the same happened on the reverse side of the best candidate it had — the
reverse side keeps summaries of the G2 nodes the same way.  A rejection whose inputs did not
change is certain to repeat and is skipped.  So a pass costs O(Σ over freshly scored l of
Σ_{l' ~ l mapped} live deg_G2(map l')) plus O(p) per match for the p (node, path) pairs it
touches, memory O(n + m); :func:`propagate_reference` is the literal O(|V1|·|V2|)-per-pass
loop and must give the same mapping (tests compare them on random pairs).

Seeds: :func:`top_degree_seeds` (SecGraph's experiment: the top-degree nodes with their true
counterparts) or :func:`discover_seeds` (NSR11's seed identification, seed 000 §2.12
option B: top-degree nodes of both graphs, cosine similarities of their neighbourhoods as
edge weights, weighted graph matching).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.seeded import MappingScores, prepare, score_mapping, truth_array
from privlab.graph.core import Graph, as_graph
from privlab.progress import ProgressFn
from privlab.validate import check_choice, check_int


# ============================================================================ results
@dataclass(frozen=True)
class PropagationResult(MappingScores):
    """The mapping found and how good it is.

    ``mapping[l]`` is the G2 node matched to G1 node l, or −1.  ``mapped`` and ``correct``
    count the seeds too (as SecGraph's "r/size" line); ``new_mapped`` / ``new_correct``
    exclude them.  ``correct``, ``accuracy`` (correct / mapped) and ``coverage`` (correct /
    number of true pairs, seed 004 §2.12) are None without a ground truth.
    """

    mapping: np.ndarray
    seeds: np.ndarray
    theta: float
    passes: int
    seconds: float
    method: str
    scored: int
    correct: int | None = None
    new_correct: int | None = None
    n_true: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "theta": self.theta,
            "seeds": int(self.seeds.shape[0]),
            "mapped": self.mapped,
            "correct": self.correct,
            "new_mapped": self.new_mapped,
            "new_correct": self.new_correct,
            "true_pairs": self.n_true,
            "accuracy": self.accuracy,
            "coverage": self.coverage,
            "passes": self.passes,
            "scored": self.scored,
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class SeedDiscovery:
    """Seeds found by weighted graph matching of the top-degree nodes.

    ``pairs`` (k × 2: G1 node, G2 node) are sorted by ``residual``: the mean absolute
    difference between a pair's similarities to the other matched nodes in G1 and in G2,
    plus its degree term (0 = perfectly consistent).  ``objective`` is the matching cost
    of the whole pool; ``swaps`` the local-search moves made.
    """

    pairs: np.ndarray
    residual: np.ndarray
    pool: int
    objective: float
    swaps: int
    seconds: float

    def correct(self, truth: Any) -> int:
        t = truth_array(truth, int(self.pairs[:, 0].max(initial=-1)) + 1, None)
        return int((t[self.pairs[:, 0]] == self.pairs[:, 1]).sum())

    def to_dict(self) -> dict[str, Any]:
        return {
            "seeds": int(self.pairs.shape[0]),
            "pool": self.pool,
            "objective": self.objective,
            "swaps": self.swaps,
            "max_residual": float(self.residual.max(initial=0.0)),
            "seconds": self.seconds,
        }


# ============================================================================ the fast attack
def propagate(
    g1: Graph,
    g2: Graph,
    seeds: Any,
    theta: float = 0.1,
    *,
    truth: Any = None,
    progress: ProgressFn | None = None,
    scoring: str = "secgraph",
    max_passes: int = 100,
) -> PropagationResult:
    """Narayanan–Shmatikov propagation with SecGraph's scoring, computed sparsely.

    ``scoring="thesis"``: seed 000's Algorithm 10.1 and Listing 10.1 instead — see
    :func:`_propagate_thesis` (``max_passes`` bounds its passes; SecGraph's loop ignores it).
    ``scoring="nka"``: the eccentricity of the NKA authors' NS (Nilizadeh et al., CCS 2014,
    their ``Comm_Blind.propagationStep``/``eccentricity``): the same scores and loop, but σ
    is the population standard deviation of the candidates that *scored* (not of all |V2|
    scores), a sole candidate has eccentricity s / 0 = +∞ (a match, as the code's float
    division), equal scores everywhere (σ = 0) never match, and among equal maxima the
    smallest id wins (the code: Java ``HashMap`` order; it matters only for θ = 0).  On a
    large graph it is the stricter rule (SecGraph's σ over mostly zeros is small), on a
    small one it can be the more eager.  Same cost.

    ``seeds``: (k × 2) pairs (G1 node, G2 node), a dict, or a list of pairs.  ``truth``
    (optional): a :class:`~privlab.graph.pairs.GraphPair`, a length-|V1| array of the true
    G2 counterpart (−1 for none) or (k × 2) true pairs — used only to count correct pairs.
    See the module docstring for the rule and the cost.  InputError for directed graphs,
    empty seeds, seeds naming unknown nodes or one node twice; ConfigError for θ < 0.
    ``progress(done, total)``: G1 nodes mapped so far of |V1|, every 4,096 nodes scored
    and after each pass.
    """
    t0 = time.perf_counter()
    check_choice(scoring, "scoring", ("secgraph", "thesis", "nka"))
    g1, g2, th, s, tr = _validate(g1, g2, seeds, theta, truth)
    if scoring == "thesis":
        limit = check_int(max_passes, "max_passes", 1)
        return _propagate_thesis(g1, g2, s, th, tr, progress, limit, t0)
    n1, n2 = g1.n_nodes, g2.n_nodes
    ip1, ix1, ip2, ix2 = g1.indptr, g1.indices, g2.indptr, g2.indices
    map12, map21 = _start(s, n1, n2)
    fwd = _Fresh(g1, g2)
    back = _Fresh(g2, g1)
    # the score vectors of the nodes of each side, summarized (_Summaries); a summary is
    # kept current as candidates get mapped, and dropped when a neighbour gets mapped
    nka = scoring == "nka"  # its verdict needs the scores themselves: no summaries
    memo1 = _Summaries(n1, n2)
    memo2 = _Summaries(n2, n1)
    adj1, adj2 = _row_views(ip1, ix1), _row_views(ip2, ix2)
    # staleness clocks: a node is re-scored only if a match made after its last scoring
    # touched its forward inputs (dirty1) or the reverse inputs of its best candidate (dirty2)
    clock = 0
    scored_at = np.full(n1, -1, dtype=np.int64)
    dirty1 = np.zeros(n1, dtype=np.int64)
    dirty2 = np.zeros(n2, dtype=np.int64)
    last_r = np.full(n1, -1, dtype=np.int64)
    passes = scored = visits = 0
    while True:
        passes += 1
        added = 0
        todo = np.flatnonzero(map12 < 0)
        fwd.compact(map21)
        back.compact(map12)
        for lnode in todo.tolist():
            t = scored_at[lnode]
            if dirty1[lnode] <= t:
                r = last_r[lnode]
                if r < 0 or dirty2[r] <= t:
                    continue
            scored_at[lnode] = clock
            scored += 1
            visits += 1
            if progress is not None and visits % 4096 == 0:
                progress(int(np.count_nonzero(map12 >= 0)), n1)
            r = fwd.pick(lnode, map12, map21, None if nka else memo1, th)
            last_r[lnode] = r
            if r < 0:
                continue
            scored += 1
            if back.pick(r, map21, map12, None if nka else memo2, th) != lnode:
                continue
            map12[lnode] = r
            map21[r] = lnode
            clock += 1
            added += 1
            nl = ix1[ip1[lnode] : ip1[lnode + 1]]
            nr = ix2[ip2[r] : ip2[r + 1]]
            dirty1[nl] = clock  # a neighbour of theirs is now mapped
            memo1.ok[nl] = False
            dirty2[nr] = clock
            memo2.ok[nr] = False
            m = map21[nr]
            paths = _cat(adj1, m[m >= 0])  # r was their candidate (once per path)
            dirty1[paths] = clock
            m = map12[nl]
            paths2 = _cat(adj2, m[m >= 0])  # lnode was a candidate back
            dirty2[paths2] = clock
            if not nka:
                memo1.drop(paths, fwd, r)
                memo2.drop(paths2, back, lnode)
        if progress is not None:
            progress(int(np.count_nonzero(map12 >= 0)), n1)
        if not added:
            break
    method = "nka" if scoring == "nka" else "sparse"
    return _result(map12, s, th, passes, time.perf_counter() - t0, method, scored, tr)


def _propagate_thesis(g1, g2, s, th, tr, progress, max_passes, t0) -> PropagationResult:
    """Propagation as seed 000 writes it (§10.4: Algorithm 10.1, eccentricity, Listing 10.1).

    Score (Alg. 10.1, undirected graphs: every node crawled, N⁻ = N⁺ = N): the cosine
    similarity |A ∩ B| / √(|A|·|B|) of A = the images of l's mapped neighbours and B = r's
    neighbours that are images of the mapping.  Against SecGraph's Σ 1/√deg_G2(r) it
    differs in the normalization — r's *mapped* neighbours, not its degree (the factor
    1/√|A| is the same for every r and changes neither the argmax nor the eccentricity) —
    and in the loop (Listing 10.1): every node of G1 is visited in each pass, mapped ones
    included ("revisiting lets early mistakes be corrected"), and every node of G2 is a
    candidate, mapped ones included.  The reverse check is the same as SecGraph's.  A new
    match l → r replaces l's previous match and r's previous pre-image, so the mapping
    stays one-to-one (the thesis leaves this open); seeds are never replaced.  Passes
    repeat until one changes nothing, at most ``max_passes``.
    Cost per pass O(Σ_l Σ over l's mapped neighbours of their degree), both directions;
    no staleness skipping (a new match changes the weights of all of its neighbours).
    """
    n1, n2 = g1.n_nodes, g2.n_nodes
    ip1, ix1, ip2, ix2 = g1.indptr, g1.indices, g2.indptr, g2.indices
    map12, map21 = _start(s, n1, n2)
    fixed = np.zeros(n1, dtype=bool)
    fixed[s[:, 0]] = True
    # mapped-neighbour counts: m1[x] = |N(x) ∩ dom(map)|, m2[y] = |N(y) ∩ img(map)|
    m1 = np.bincount(_gather(ip1, ix1, s[:, 0]), minlength=n1).astype(np.float64)
    m2 = np.bincount(_gather(ip2, ix2, s[:, 1]), minlength=n2).astype(np.float64)
    fwd = _Scorer(g1, g2, mapped_degree=m2)
    back = _Scorer(g2, g1, mapped_degree=m1)

    def unset(l_: int) -> None:
        r_ = int(map12[l_])
        map12[l_] = map21[r_] = -1
        np.subtract.at(m1, ix1[ip1[l_] : ip1[l_ + 1]], 1.0)
        np.subtract.at(m2, ix2[ip2[r_] : ip2[r_ + 1]], 1.0)

    passes = scored = 0
    while passes < max_passes:
        passes += 1
        changed = 0
        for lnode in np.flatnonzero(~fixed).tolist():
            scored += 1
            r = fwd.best(lnode, map12, map21, th)
            if r < 0 or r == map12[lnode]:
                continue
            scored += 1
            if back.best(r, map21, map12, th) != lnode:
                continue
            owner = int(map21[r])
            if owner >= 0 and fixed[owner]:
                continue  # a seed's image is not taken over
            if map12[lnode] >= 0:
                unset(lnode)
            if owner >= 0:
                unset(owner)
            map12[lnode], map21[r] = r, lnode
            np.add.at(m1, ix1[ip1[lnode] : ip1[lnode + 1]], 1.0)
            np.add.at(m2, ix2[ip2[r] : ip2[r + 1]], 1.0)
            changed += 1
            if progress is not None and changed % 4096 == 0:
                progress(int(np.count_nonzero(map12 >= 0)), n1)
        if progress is not None:
            progress(int(np.count_nonzero(map12 >= 0)), n1)
        if not changed:
            break
    return _result(map12, s, th, passes, time.perf_counter() - t0, "thesis", scored, tr)


#: count candidates densely (bincount over |V_dst|) when |V_dst| ≤ _DENSE × the paths
_DENSE = 4


class _Summaries:
    """What the eccentricity test needs of each node's scores, kept current.

    For node v, as of its last scoring: the sum S and the sum of squares Q of its non-zero
    scores, the top score, the second one (0 if there is one candidate) and the best
    candidate (the largest id among equal tops).  When a candidate r of v gets mapped, its
    score s (w_r added C(v, r) times) drops to 0: S − s, Q − s².  The top, second and best
    stay unless r was the best or scored at least the second (ties included): then the
    summary is dropped (``ok`` False) and v is scored afresh at its next visit, as is a
    node that gets a new mapped neighbour (the caller clears ``ok``).  So the last
    candidate is never removed here, and S = Q = 0 means no candidate.  Verdict:
    σ² = (Q − S²/n)/(n − 1) (n = |V_dst|, zeros included), ecc = (top − second)/σ, the best
    if ecc ≥ θ.  The top and second are the exact scores (``drop`` reads s from the same
    running sums as :class:`_Fresh`), so ties and their order are those of a fresh
    scoring; σ may differ from a fresh two-pass σ in the last bits.  O(1) per verdict;
    per mapped candidate O(p + min(p log p, |V_src|)) for its p (node, path) pairs; memory
    O(|V_src|).
    """

    def __init__(self, n_src: int, n_dst: int) -> None:
        self.n = n_dst
        self.ok = np.zeros(n_src, dtype=bool)
        self.total = np.zeros(n_src)
        self.square = np.zeros(n_src)
        self.top = np.zeros(n_src)
        self.second = np.zeros(n_src)
        self.best = np.full(n_src, -1, dtype=np.int64)

    def verdict(self, v: int, theta: float) -> int:
        n = self.n
        total = float(self.total[v])
        ss = float(self.square[v]) - total * total / n
        if n < 2 or not ss > 0.0:  # no candidate: S = Q = 0
            return -1
        ecc = (float(self.top[v]) - float(self.second[v])) / math.sqrt(ss / (n - 1))
        return int(self.best[v]) if ecc >= theta else -1

    def drop(self, paths: np.ndarray, scores: _Fresh, r: int) -> None:
        """Candidate r got mapped; ``paths`` holds each node v once per mapped neighbour of
        v whose image neighbours r (C(v, r) times)."""
        if not paths.size:
            return
        if paths.size * 8 >= self.ok.size:
            count = np.bincount(paths, minlength=self.ok.size)
            nodes = np.flatnonzero((count > 0) & self.ok)
            count = count[nodes]
        else:
            nodes, count = np.unique(paths, return_counts=True)
            live = self.ok[nodes]
            nodes, count = nodes[live], count[live]
        if not nodes.size:
            return
        s = scores.tab[scores.toff[r] + count]
        moved = (self.best[nodes] == r) | (s >= self.second[nodes])
        self.ok[nodes[moved]] = False
        keep = ~moved
        nodes, s = nodes[keep], s[keep]
        self.total[nodes] -= s
        self.square[nodes] -= s * s


class _Fresh:
    """Fresh scores of one node of ``src`` against all of ``dst``, kept as a summary.

    SecGraph's weights 1/√deg_dst(r), mapped candidates excluded.  The mapped neighbours of
    v, moved to their images, and the images' adjacency rows (CSR gather) give the count
    C(v, r) of paths to each candidate r (``np.add.at`` into a scratch vector, cleared
    after use); the score 1/√deg(r) added C(v, r) times in a row is read from ``tab`` (for
    every degree d of ``dst``, the d running sums of 1/√d: O(m) in all, since C(v, r) ≤
    deg r), so it is bit-identical to the repeated addition of the reference loop.
    :meth:`compact`, at the start of each pass, removes the mapped nodes from the adjacency
    lists that are gathered (mapped stays mapped), so late passes gather only live
    candidates.  Cost O(Σ over v's mapped neighbours of their live degree) per node,
    O(m) per compaction, memory O(n + m).
    """

    def __init__(self, src: Graph, dst: Graph) -> None:
        self.ip, self.ix = src.indptr, src.indices
        self.dip, self.dix = dst.indptr, dst.indices
        self.n = dst.n_nodes
        deg = dst.degrees().astype(np.int64)
        self.owner = np.repeat(np.arange(self.n), deg)  # the row of each adjacency entry
        self.rows = _row_views(self.dip, self.dix)  # the gather below concatenates views
        ds = np.unique(deg[deg > 0])
        start = np.zeros(int(ds.max(initial=0)) + 1, dtype=np.int64)
        start[ds] = np.cumsum(ds) - ds
        self.tab = np.empty(int(ds.sum()))
        for d, o in zip(ds.tolist(), start[ds].tolist(), strict=True):
            self.tab[o : o + d] = np.full(d, 1.0 / np.sqrt(np.float64(d))).cumsum()
        self.toff = start[deg] - 1  # score of count c for node r: tab[toff[r] + c]
        self.count = np.zeros(self.n, dtype=np.int64)  # scratch, cleared after each use
        self.last = np.zeros(self.n, dtype=np.int64)
        self.ar = np.arange(max(int(dst.indptr[-1]), 1), dtype=np.int64)

    def compact(self, rmap: np.ndarray) -> None:
        """Drop the mapped nodes from ``dst``'s adjacency lists (they score 0 and stay
        mapped), so that later gathers skip them.  O(m)."""
        keep = rmap[self.dix] < 0
        self.dix = self.dix[keep]
        self.owner = self.owner[keep]
        self.dip = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.owner, minlength=self.n), out=self.dip[1:])
        self.rows = _row_views(self.dip, self.dix)

    def scores(self, v: int, fmap: np.ndarray, rmap: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Node v's live candidates in ``dst`` and their scores (both empty: none)."""
        img = fmap[self.ix[self.ip[v] : self.ip[v + 1]]]
        img = img[img >= 0]
        if not img.size:
            return img, np.zeros(0)
        c = _cat(self.rows, img)
        if _DENSE * c.size >= self.n:  # dense counts: O(|V_dst|), fewer numpy calls
            count = np.bincount(c, minlength=self.n)
            u = count.nonzero()[0]
            u = u[rmap[u] < 0]
            count = count[u]
        else:
            np.add.at(self.count, c, 1)
            ar = self.ar[: c.size]
            self.last[c] = ar
            u = c[self.last[c] == ar]  # each candidate once
            count = self.count[u]
            self.count[u] = 0
            live = rmap[u] < 0
            u, count = u[live], count[live]
        return u, self.tab[self.toff[u] + count]

    def pick(
        self, v: int, fmap: np.ndarray, rmap: np.ndarray, memo: _Summaries | None, theta: float
    ) -> int:
        """v's match if its eccentricity is ≥ θ, else −1: from v's summary in ``memo``
        (scored afresh if dropped), or, with ``memo`` None, from fresh scores by the NKA
        authors' rule (:func:`_scored_best`, which needs the scores themselves)."""
        if memo is None:
            return _scored_best(*self.scores(v, fmap, rmap), theta)
        if not memo.ok[v]:
            self.summarize(v, fmap, rmap, memo)
        return memo.verdict(v, theta)

    def summarize(self, v: int, fmap: np.ndarray, rmap: np.ndarray, memo: _Summaries) -> None:
        """Score node v of ``src`` afresh and keep its summary in ``memo``."""
        memo.ok[v] = True
        memo.total[v] = memo.square[v] = 0.0
        u, s = self.scores(v, fmap, rmap)
        if not u.size:
            return
        top = np.maximum.reduce(s)
        at_top = (s == top).nonzero()[0]
        memo.total[v] = np.add.reduce(s)
        memo.square[v] = s @ s
        memo.top[v] = top
        if at_top.size > 1:
            memo.best[v] = np.maximum.reduce(u[at_top])
            memo.second[v] = top
        else:
            memo.best[v] = u[at_top[0]]
            s[at_top[0]] = 0.0
            memo.second[v] = np.maximum.reduce(s)


class _Scorer:
    """The thesis's scores (:func:`_propagate_thesis`) of one node of ``src`` against every
    node of ``dst``, kept sparse: weights 1/√mapped_degree[r] (``mapped_degree``, an array
    the caller keeps current), every candidate kept.  (SecGraph's scores: :class:`_Fresh`.)"""

    def __init__(self, src: Graph, dst: Graph, mapped_degree: np.ndarray) -> None:
        self.mdeg = mapped_degree
        self.ip, self.ix = src.indptr, src.indices
        self.dip, self.dix = dst.indptr, dst.indices
        self.n = dst.n_nodes
        self.acc = np.zeros(self.n)
        self.last = np.zeros(self.n, dtype=np.int64)
        self.ar = np.arange(max(int(dst.indptr[-1]), 1), dtype=np.int64)

    def best(self, v: int, fmap: np.ndarray, rmap: np.ndarray, theta: float) -> int:
        """The best match of v if its eccentricity is ≥ θ, else −1."""
        img = fmap[self.ix[self.ip[v] : self.ip[v + 1]]]
        img = img[img >= 0]
        if not img.size or self.n < 2:
            return -1
        c = _gather(self.dip, self.dix, img)
        w = 1.0 / np.sqrt(self.mdeg[c])  # ≥ 1: c neighbours a mapped node
        k = c.size
        if not k:
            return -1
        acc = self.acc
        np.add.at(acc, c, w)  # repeated addition, as the reference loop
        ar = self.ar[:k]
        self.last[c] = ar
        u = c[self.last[c] == ar]  # each candidate once
        s = acc[u]
        acc[u] = 0.0
        n = self.n
        mu = s.sum() / n
        d = s - mu
        ss = float(d @ d) + (n - u.size) * mu * mu
        if not ss > 0.0:
            return -1
        i = int(s.argmax())
        top = s[i]
        if u.size == 1:
            second, best = 0.0, int(u[0])
        else:
            at_top = s == top
            if int(at_top.sum()) > 1:
                second, best = top, int(u[at_top].max())
            else:
                s[i] = -1.0
                second, best = max(float(s.max()), 0.0), int(u[i])
        ecc = (top - second) / math.sqrt(ss / (n - 1))
        return best if ecc >= theta else -1


def _scored_best(u: np.ndarray, s: np.ndarray, theta: float) -> int:
    """The NKA authors' pick among the scored candidates ``u`` (scores ``s`` > 0, a copy):
    (best − second) / σ(s) ≥ θ, σ the population standard deviation; one candidate: +∞;
    σ = 0: never; equal maxima: the smallest id.  O(k), a handful of numpy calls (np.std's
    own overhead would dominate on these short vectors)."""
    k = u.size
    if k <= 1:  # no candidate, or a sole one: eccentricity +∞
        return int(u[0]) if k else -1
    d = s - s.sum() / k
    var = float(d @ d) / k
    if not var > 0.0:
        return -1
    i = int(s.argmax())
    top = float(s[i])
    s[i] = -math.inf
    second = float(s.max())
    if second == top:  # equal maxima: eccentricity 0
        s[i] = top
        return int(u[s == top].min()) if theta <= 0.0 else -1
    return int(u[i]) if (top - second) / math.sqrt(var) >= theta else -1


def _start(s: np.ndarray, n1: int, n2: int) -> tuple[np.ndarray, np.ndarray]:
    """The mapping and its inverse (−1: unmapped), holding the seed pairs ``s``."""
    map12 = np.full(n1, -1, dtype=np.int64)
    map21 = np.full(n2, -1, dtype=np.int64)
    map12[s[:, 0]] = s[:, 1]
    map21[s[:, 1]] = s[:, 0]
    return map12, map21


def _row_views(ip: np.ndarray, ix: np.ndarray) -> list[np.ndarray]:
    """The adjacency rows as a list of views, for gathers of few rows: one
    ``np.concatenate`` of list items instead of the index arithmetic of :func:`_gather`.
    O(n) Python objects, no copy."""
    bounds = ip.tolist()
    return [ix[a:b] for a, b in pairwise(bounds)]


def _cat(views: list[np.ndarray], rows: np.ndarray) -> np.ndarray:
    """The concatenated rows ``rows`` of :func:`_row_views` (with repetition)."""
    if rows.size == 1:
        return views[int(rows[0])]
    if not rows.size:
        return np.zeros(0, dtype=np.int64)
    return np.concatenate([views[r] for r in rows.tolist()])


def _gather(ip: np.ndarray, ix: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The concatenated CSR rows ``rows`` (with repetition).  O(len(rows) + output)."""
    if rows.size == 1:
        r = int(rows[0])
        return ix[ip[r] : ip[r + 1]]
    starts = ip[rows]
    lens = ip[rows + 1] - starts
    total = int(lens.sum())
    if not total:
        return ix[:0]
    ends = np.cumsum(lens)
    return ix[np.repeat(starts - ends + lens, lens) + np.arange(total)]


# ============================================================================ the reference
def propagate_reference(
    g1: Graph, g2: Graph, seeds: Any, theta: float = 0.1, *, truth: Any = None
) -> PropagationResult:
    """The same attack as :func:`propagate`, written as the literal loops (pure Python).

    Every unmapped node of G1 is scored against all |V2| nodes in every pass, exactly as
    REFERENCE_RESULTS.md describes SecGraph's NS; O(|V1|·|V2| + Σ deg²) per pass.  Meant for
    tests and for checking :func:`propagate` on small and medium graphs.
    """
    t0 = time.perf_counter()
    g1, g2, th, s, tr = _validate(g1, g2, seeds, theta, truth)
    adj1 = [g1.neighbors(v).tolist() for v in range(g1.n_nodes)]
    adj2 = [g2.neighbors(v).tolist() for v in range(g2.n_nodes)]
    w1 = [1 / math.sqrt(len(a)) if a else 0.0 for a in adj1]
    w2 = [1 / math.sqrt(len(a)) if a else 0.0 for a in adj2]
    mapping = {int(a): int(b) for a, b in s}
    inverse = {b: a for a, b in mapping.items()}
    passes = scored = 0
    while True:
        passes += 1
        before = len(mapping)
        for lnode in range(g1.n_nodes):
            if lnode in mapping:
                continue
            scored += 1
            scores = _ref_scores(lnode, adj1, adj2, w2, mapping, inverse)
            ecc = _ref_eccentricity(scores)
            if ecc is None or ecc < th:
                continue
            rnode = _ref_argmax(scores)
            scored += 1
            back = _ref_scores(rnode, adj2, adj1, w1, inverse, mapping)
            ecc = _ref_eccentricity(back)
            if ecc is None or ecc < th or _ref_argmax(back) != lnode:
                continue
            mapping[lnode] = rnode
            inverse[rnode] = lnode
        if len(mapping) == before:
            break
    out = np.full(g1.n_nodes, -1, dtype=np.int64)
    for a, b in mapping.items():
        out[a] = b
    return _result(out, s, th, passes, time.perf_counter() - t0, "reference", scored, tr)


def _ref_scores(v, adj_src, adj_dst, w_dst, mapping, inverse) -> list[float]:
    scores = [0.0] * len(adj_dst)
    for nb in adj_src[v]:
        if nb not in mapping:
            continue
        for cand in adj_dst[mapping[nb]]:
            if cand in inverse:
                continue
            scores[cand] += w_dst[cand]
    return scores


def _ref_eccentricity(scores: list[float]) -> float | None:
    """(max − second max) / sample standard deviation; None when undefined."""
    n = len(scores)
    if n < 2:
        return None
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / (n - 1)
    if not var > 0.0:
        return None
    first = second = -math.inf
    for x in scores:
        if x > first:
            first, second = x, first
        elif x > second:
            second = x
    return (first - second) / math.sqrt(var)


def _ref_argmax(scores: list[float]) -> int:
    """The last index holding the maximum (SecGraph's ``findNode`` uses ≥)."""
    best, where = -math.inf, -1
    for i, x in enumerate(scores):
        if x >= best:
            best, where = x, i
    return where


# ============================================================================ seeds
def top_degree_seeds(g1: Graph, truth: Any, k: int = 50) -> np.ndarray:
    """SecGraph's seeds: the k highest-degree nodes of G1 that have a true counterpart,
    paired with it (ties by lower id).  (k × 2) int64.  O(n log n)."""
    g1 = as_graph(g1, "g1")
    t = truth_array(truth, g1.n_nodes, None)
    if isinstance(k, bool) or int(k) != k or k < 1:
        raise ConfigError(f"k = {k!r}: give the number of seeds, an integer ≥ 1")
    cand = np.flatnonzero(t >= 0)
    order = np.lexsort((cand, -g1.degrees()[cand]))[: int(k)]
    top = cand[order]
    return np.stack([top, t[top]], axis=1)


def discover_seeds(
    g1: Graph,
    g2: Graph,
    n_seeds: int = 50,
    *,
    pool: int | None = None,
    degree_weight: float = 5.0,
    max_swaps: int | None = None,
) -> SeedDiscovery:
    """Seed identification by weighted graph matching (NSR11; seed 000 §2.12, option B).

    1. Take the ``pool`` highest-degree nodes of each graph (default 3·n_seeds; ties by
       lower id): they largely correspond.
    2. Within each graph, weight every pair of them by the cosine similarity of their
       neighbour sets, W[x, y] = |N(x) ∩ N(y)| / √(|N(x)|·|N(y)|).
    3. Weighted graph matching: a bijection π of the two pools minimizing the differences
       between corresponding weights, Σ_ij |W1[i, j] − W2[π(i), π(j)]|, plus
       ``degree_weight`` · Σ_i |log d1(i) − log d2(π(i))| (the degrees of the top nodes are
       the other fact NSR11 relies on; 0 turns the term off).  The problem is a quadratic
       assignment (NP-hard); it is solved by a linear assignment
       (:func:`scipy.optimize.linear_sum_assignment`) on permutation-invariant node
       signatures — the L1 distance of the sorted similarity rows plus the degree term —
       followed by best-improvement 2-swap local search on the full objective.
    4. Keep the ``n_seeds`` pairs most consistent with the rest (smallest residual: the
       pair's share of the objective); nodes in only one top list match badly.

    Why L1 and not the squared differences (FAQ, :func:`scipy.optimize.
    quadratic_assignment`): on ego-Facebook's top nodes (dense ego circles of near-twins)
    the squared-difference optimum is degenerate — wrong permutations beat the truth and
    FAQ finds 6–27 correct seeds of 50 — while the L1 objective with degrees finds about
    42–46 at pool 150 (docs/graph/propagation.md).

    Cost O(pool·(n + pool²)) for the similarities, O(pool²) per improving swap (the
    row-cost matrix is updated, not recomputed), at most ``max_swaps`` (default 50·pool).
    """
    from scipy.optimize import linear_sum_assignment
    from scipy.spatial.distance import cdist

    t0 = time.perf_counter()
    g1, g2 = _check_graphs(g1, g2)
    if isinstance(n_seeds, bool) or int(n_seeds) != n_seeds or n_seeds < 1:
        raise ConfigError(f"n_seeds = {n_seeds!r}: give an integer ≥ 1")
    n_seeds = int(n_seeds)
    size = 3 * n_seeds if pool is None else pool
    if isinstance(size, bool) or int(size) != size or size < n_seeds:
        raise ConfigError(f"pool = {pool!r}: give an integer ≥ n_seeds = {n_seeds}")
    lam = float(degree_weight)
    if not math.isfinite(lam) or lam < 0:
        raise ConfigError(f"degree_weight = {degree_weight!r}: give a number ≥ 0")
    size = min(int(size), g1.n_nodes, g2.n_nodes)
    if size < n_seeds:
        raise InputError(
            f"n_seeds = {n_seeds} but the smaller graph has only {size} nodes; ask for fewer"
        )
    top1, top2 = _top_degree(g1, size), _top_degree(g2, size)
    w1, w2 = _cosine(g1, top1), _cosine(g2, top2)
    f1 = np.log(np.maximum(g1.degrees()[top1], 1).astype(np.float64))
    f2 = np.log(np.maximum(g2.degrees()[top2], 1).astype(np.float64))
    sig = cdist(-np.sort(-w1, axis=1), -np.sort(-w2, axis=1), "cityblock")
    _, start = linear_sum_assignment(sig + lam * np.abs(f1[:, None] - f2[None, :]))
    limit = 50 * size if max_swaps is None else int(max_swaps)
    perm, swaps = _two_swap_l1(w1, w2, f1, f2, lam, start, limit)
    w2p = w2[np.ix_(perm, perm)]
    resid = (np.abs(w1 - w2p).sum(axis=1) + lam * np.abs(f1 - f2[perm])) / max(size - 1, 1)
    keep = np.argsort(resid, kind="stable")[:n_seeds]
    pairs = np.stack([top1[keep], top2[perm[keep]]], axis=1)
    objective = float(np.abs(w1 - w2p).sum() + lam * np.abs(f1 - f2[perm]).sum())
    return SeedDiscovery(pairs, resid[keep], size, objective, swaps, time.perf_counter() - t0)


def _two_swap_l1(a, b, f1, f2, lam, perm, limit):
    """Best-improvement 2-swap local search for min Σ|A − B[π][:, π]| + λ Σ|f1 − f2[π]|.

    D[x, y] = Σ_j |A[x, j] − Bπ[y, j]| (row x of A against row y of the aligned B); the
    gain of swapping π(a), π(b) is read off D in O(1) per pair, and after a swap D is
    updated in O(n²): only the columns j ∈ {a, b} of the other rows, and rows a, b, change.
    """
    perm = np.asarray(perm, dtype=np.int64).copy()
    n = perm.size
    bp = b[np.ix_(perm, perm)]
    d = np.empty((n, n))
    for y in range(n):
        d[:, y] = np.abs(a - bp[y][None, :]).sum(axis=1)
    swaps = 0
    while swaps < limit and n > 1:
        dd = np.diag(d)
        gain = 2 * (d + d.T - dd[:, None] - dd[None, :] - 2 * (a + bp) + 2 * np.abs(a - bp))
        if lam:
            fp = np.abs(f1[:, None] - f2[perm][None, :])
            fd = np.diag(fp)
            gain += lam * (fp + fp.T - fd[:, None] - fd[None, :])
        np.fill_diagonal(gain, 0.0)
        i, j = np.unravel_index(int(np.argmin(gain)), gain.shape)
        if not gain[i, j] < -1e-12:
            break
        rest = np.ones(n, dtype=bool)
        rest[[i, j]] = False
        ai, aj = a[:, i][:, None], a[:, j][:, None]
        bi, bj = bp[rest, i][None, :], bp[rest, j][None, :]
        d[:, rest] += np.abs(ai - bj) + np.abs(aj - bi) - np.abs(ai - bi) - np.abs(aj - bj)
        perm[[i, j]] = perm[[j, i]]
        bp = b[np.ix_(perm, perm)]
        d[:, i] = np.abs(a - bp[i][None, :]).sum(axis=1)
        d[:, j] = np.abs(a - bp[j][None, :]).sum(axis=1)
        swaps += 1
    return perm, swaps


def _top_degree(g: Graph, k: int) -> np.ndarray:
    deg = g.degrees()
    return np.lexsort((np.arange(deg.size), -deg))[:k]


def _cosine(g: Graph, nodes: np.ndarray) -> np.ndarray:
    x = g.to_scipy()[nodes].astype(np.float64)
    inter = (x @ x.T).toarray()
    deg = g.degrees()[nodes].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        sim = inter / np.sqrt(np.outer(deg, deg))
    sim[~np.isfinite(sim)] = 0.0
    np.fill_diagonal(sim, 0.0)
    return sim


# ============================================================================ validation
def _check_graphs(g1: Any, g2: Any) -> tuple[Graph, Graph]:
    return (
        as_graph(g1, "propagation (g1)", undirected=True),
        as_graph(g2, "propagation (g2)", undirected=True),
    )


def _validate(g1, g2, seeds, theta, truth):
    g1, g2, s, tr = prepare(g1, g2, seeds, truth, "propagation")
    try:
        th = float(theta)
    except (TypeError, ValueError):
        raise ConfigError(f"theta = {theta!r}: give a number ≥ 0") from None
    if isinstance(theta, bool) or not math.isfinite(th) or th < 0:
        raise ConfigError(f"theta = {theta!r}: the eccentricity threshold must be a number ≥ 0")
    return g1, g2, th, s, tr


def _result(mapping, seeds, theta, passes, seconds, method, scored, truth) -> PropagationResult:
    correct, new_correct, n_true = score_mapping(mapping, seeds, truth)
    return PropagationResult(
        mapping, seeds, theta, passes, seconds, method, scored, correct, new_correct, n_true
    )


__all__ = [
    "PropagationResult",
    "SeedDiscovery",
    "discover_seeds",
    "propagate",
    "propagate_reference",
    "top_degree_seeds",
]
