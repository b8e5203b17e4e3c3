"""Community-enhanced de-anonymization (NKA): match communities first, then nodes.

Source: Nilizadeh, Kapadia & Ahn, *Community-enhanced de-anonymization of online social
networks*, CCS 2014 (cited by seed 004 §2.13 "Enhancement"), and the authors' Java code
(``deAnon.matching.Comm_Enhanced``, ``Comm_Blind``, ``MyGraph``, ``Config``; SecGraph's fork,
"Shirin's community de-anonymization code/"), which SecGraph's ``-m d -a Community`` calls.
The paper's idea: partition both graphs into communities, map the communities, then run the
seed-based propagation of Narayanan & Shmatikov (NS) inside each pair of mapped communities
(small graphs, little noise from the rest of the network) and finally over the whole graphs
with every pair found so far as seeds.  The steps, as the authors' code runs them (its
``communityAware_deAnon_alg_overlappedNodeSets``, the variant for two graphs with different
node sets such as privlab's pairs):

1. **Communities** of G1 and of G2, detected independently (the code reads Infomap ``.tree``
   files; here igraph's :meth:`~igraph.Graph.community_infomap`, ``method="infomap"``, or
   Louvain, :meth:`~igraph.Graph.community_multilevel`, ``method="louvain"``), or given.
2. **Community graphs**: one node per community, an edge between two communities that share
   an edge, weighted by the number of edges between them (``MyGraph.createGraphOfCommunities``).
3. **Seed communities**: each seed (l, r) votes for (community of l, community of r); each
   community of G1 holding seeds is mapped to the G2 community with the most votes
   (``map_comms_basedOn_KnownSeeds_``).  The code lets two G1 communities take the same G2
   community; here they are taken by decreasing vote count (ties: smaller ids) and a G2
   community already taken is skipped, so the community mapping is one-to-one.
4. **Community propagation** (``Comm_Blind.NS_comm`` / ``ImprovedPropagationStep``): NS on the
   community graphs, where an unmapped community u scores a candidate v through each mapped
   neighbour a of u with image b ~ v:  (1 − |√w₁(a, u) − √w₂(b, v)|) / (√d₁(u)·√d₂(v))  (w: edge
   weight, d: degree in the community graph); v must be unmapped.  The eccentricity is
   (best − second) / σ over the candidates that scored (σ the population standard
   deviation, as the code); u ↔ v is mapped when it is ≥ ``community_theta`` (the code's
   ``thr_comm_ecc`` = 0) in both directions and the reverse best of v is u.  Rounds repeat
   until one maps nothing.  Candidates are visited by ascending id; among equal best scores
   the smallest id wins (the code takes the first in Java ``HashMap`` order).
5. **Seed enrichment** (``enrich=True``; off by default, see below; the code's
   ``findSeedNodes_overlappedSets``): inside each pair of
   mapped communities (c₁, c₂), an unmapped node n₁ of c₁ is matched to the node n₂ of c₂ whose
   degree inside c₂ is closest to n₁'s inside c₁, if the distance eccentricity
   (second smallest − smallest) / σ over all of c₂ is ≥ ``theta`` and, from n₂'s side against
   all of c₁, the same holds and the closest is n₁; then the same with local clustering
   coefficients.  **The code's reverse check is wrong**: it looks n₂ up in c₁'s score table
   (``S.get(n2)`` with S keyed by c₁'s nodes, and the S2 it builds for the reverse direction
   is never read), so it tests an unrelated G1 node that happens to share n₂'s number; here
   the reverse is computed as the code evidently meant.  Off by default: the step is not in
   the paper's outline and it costs accuracy where measured — on a planted-partition graph
   (6 × 60 nodes, SecGraph pair p = 0.8, one known 4-clique) 33 correct of 346 mapped with
   it against 330 of 359 without; on ego-Facebook 90/90 from 50 top-degree seeds 1,526 of
   2,041 against 1,919 of 1,979 (docs/graph/nka.md).
6. **Local NS** in each mapped community pair: :func:`~privlab.graph.attacks.propagation.
   propagate` on the induced subgraphs G1[c₁], G2[c₂], from the seeds (and enriched pairs)
   lying in c₁ × c₂, threshold ``theta`` (the code's ``thr_node_ecc`` = 0.1).
7. **Global NS**: :func:`~privlab.graph.attacks.propagation.propagate` on G1, G2 from every pair
   found so far (``reIdentifyRemainingNodes``).

Node-level NS (steps 6 and 7), ``ns_rule``: ``"secgraph"`` (default) is privlab's
:func:`propagate`, i.e. Narayanan & Shmatikov's rule as their S&P 2009 pseudo-code states it
and SecGraph computes it (Σ 1/√deg₂(r); every node of G2 has a score, zeros included, and σ
is taken over all |V₂| of them; mapped nodes never revisited).  ``"authors"`` is the authors'
``Comm_Blind.propagationStep``/``matchScores``/``eccentricity`` (``propagate(...,
scoring="nka")``): the same scores and loop, but the scores live in a map of the candidates
that scored, so σ is the population standard deviation of those only, a sole candidate has
eccentricity s / 0 = +∞ (always a match, both directions checked) and equal scores everywhere
never match; its extra factor 1/√deg₁(l) is the same for every candidate and changes nothing.
On a large graph σ over all |V₂| scores, mostly zeros, is far smaller than σ over the few
that scored, so SecGraph's eccentricity is the larger one and the authors' rule the stricter
(except for a sole candidate); on a small community it can be the other way round
(tests/graph/test_nka_rule.py has both).  The paper says it runs NS's propagation; the NS09
definition is the default, the code's variant an option.  Which finds more depends on the
pair (docs/graph/nka.md): ego-Facebook 90/90 from 4 known 4-cliques, SecGraph pair seed 1:
2,674 correct / 125 wrong against 2,505 / 104; seed 0: 1,754 / 123 against 2,846 / 125; the
0.5/0.5 Sharad pair 49 / 526 against 43 / 479.  The authors' Java run finds 2,944 / 280 on
the seed-1 pair because its enrichment's reverse check (step 5), on a pair whose G2 ids equal
the true G1 ids, reads the *true counterpart's* row — a leak of the ground truth; with G2's
ids permuted it finds 2,520 / 113 (privlab: 2,674 / 125).  The code's community
*similarity* variants (``matching``, ``matching_Float``) and its degree-of-anonymity measures
are not called by its attack path and are not built.

Visiting order.  NS (steps 6 and 7) visits G1's unmapped nodes by ascending id; the authors'
code visits them in Java ``HashMap`` order of the vertex numbers as strings.  Neither paper
fixes the order, and it decides a lot: with one or two seeds in a community the first node
visited next to a seed takes whatever it meets (the authors' sole candidate is +∞), and on
ego-Facebook the final propagation either enters one large ego network or stalls, about
1,000 pairs apart (10 random orders on the seed-0 pair: 1,611–2,982 correct with the authors'
rule).  Replayed in the Java order, privlab's steps give the Java run's result to the pair
(2,690 / 180 on that pair; ``benchmarks/nka_visit_order.py``, docs/graph/nka.md).

Cost: community detection (Infomap O(m) per trial and level in practice; Louvain O(m) per
level), community graphs O(n + m), community propagation O(rounds · k₁ · k₁·k₂) dense on
k₁ × k₂ communities (small), enrichment O(Σ |c₁|·|c₂|) per matched pair, local NS on the
induced subgraphs, then one global NS (:func:`propagate`'s cost); memory O(n + m + k₁·k₂ +
max |c₁|·|c₂|).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from privlab.errors import InputError
from privlab.graph.attacks.propagation import propagate
from privlab.graph.attacks.seeded import MatchingResult, initial_maps, prepare, score_mapping
from privlab.graph.core import Graph, as_graph
from privlab.graph.utility.centrality import local_clustering
from privlab.progress import ProgressFn
from privlab.validate import check_choice, check_int, check_number_in

METHODS = ("infomap", "louvain")
#: node-level NS rules: the NKA authors' (σ over the scored candidates) or SecGraph's
NS_RULES = {"authors": "nka", "secgraph": "secgraph"}


# ============================================================================ result
@dataclass(frozen=True)
class NKAResult(MatchingResult):
    """The final mapping (``mapping``, scored as every seed-based attack) and the stages.

    ``communities1``/``communities2``: the community of every node (0..k−1);
    ``community_map[c₁]``: the G2 community mapped to G1 community c₁, or −1;
    ``stages``: pairs mapped after each step (``seed_communities``, ``communities_mapped``,
    ``enriched``, ``local``, ``global``) and, with a truth, how many are correct.
    """

    communities1: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    communities2: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    community_map: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    stages: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), **self.stages}


# ============================================================================ communities
def detect_communities(
    g: Graph, method: str = "infomap", *, seed: int = 0, trials: int = 10
) -> np.ndarray:
    """The community of every node (ids 0..k−1, by first appearance), by igraph.

    ``method``: ``"infomap"`` (Rosvall & Bergstrom's map equation, igraph's
    ``community_infomap(trials=trials)``; what the NKA authors ran) or ``"louvain"``
    (``community_multilevel``).  igraph draws from Python's :mod:`random`; it is seeded with
    ``seed`` for the call and restored after, so the result is reproducible.  Isolated
    nodes get a community each.  Cost: Infomap about O(trials · m · levels), Louvain
    O(m · levels).
    """
    check_choice(method, "method", METHODS)
    t = check_int(trials, "trials", 1)
    g = as_graph(g, "communities", undirected=True)
    ig = g.to_igraph()
    gen = random.Random(int(seed))
    import igraph

    igraph.set_random_number_generator(gen)
    try:
        cl = ig.community_infomap(trials=t) if method == "infomap" else ig.community_multilevel()
    finally:
        igraph.set_random_number_generator(random)
    return _relabel(np.asarray(cl.membership, dtype=np.int64))


def _relabel(m: np.ndarray) -> np.ndarray:
    _, first, inv = np.unique(m, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))  # communities renumbered by first node
    return order[inv].astype(np.int64)


def community_graph(g: Graph, membership: np.ndarray) -> np.ndarray:
    """The k × k matrix of edge counts between communities (diagonal 0).  O(n + m + k²)."""
    k = int(membership.max(initial=-1)) + 1
    a = g.to_scipy().tocoo()
    ca, cb = membership[a.row], membership[a.col]
    off = ca != cb
    w = sp.coo_matrix((np.ones(int(off.sum())), (ca[off], cb[off])), shape=(k, k)).toarray()
    return w  # each undirected edge is in both CSR rows: (a, b) and (b, a) counted once each


# ============================================================================ the attack
def nka(
    g1: Graph,
    g2: Graph,
    seeds: Any,
    *,
    theta: float = 0.1,
    community_theta: float = 0.0,
    method: str = "infomap",
    communities: tuple[Any, Any] | None = None,
    enrich: bool = False,
    ns_rule: str = "secgraph",
    seed: int = 0,
    trials: int = 10,
    truth: Any = None,
    progress: ProgressFn | None = None,
) -> NKAResult:
    """Community-enhanced de-anonymization of G1 into G2 from ``seeds`` (module docstring).

    ``theta``: NS's eccentricity threshold for nodes (the code's 0.1), also the enrichment's;
    ``community_theta``: the community propagation's (the code's 0).  ``method``,
    ``seed``, ``trials``: the community detection (:func:`detect_communities`), unless
    ``communities`` gives both membership arrays (length |V1| and |V2|, integers ≥ 0).
    ``enrich``: step 5.  ``ns_rule``: the node-level NS of steps 6 and 7, ``"secgraph"``
    (NS09 as SecGraph computes it) or ``"authors"`` (the authors' code; module docstring).
    ``seeds``/``truth`` as :func:`propagate`'s.  ``rounds`` in the
    result: the community propagation's rounds.  ``progress(done, total)``: G1 nodes
    mapped of |V1|, from the final propagation.
    """
    t0 = time.perf_counter()
    th = check_number_in(theta, "theta", 0.0, math.inf, hint="an eccentricity threshold ≥ 0")
    cth = check_number_in(community_theta, "community_theta", 0.0, math.inf,
                          hint="an eccentricity threshold ≥ 0")  # fmt: skip
    check_choice(ns_rule, "ns_rule", NS_RULES)
    scoring = NS_RULES[ns_rule]
    g1, g2, s, tr = prepare(g1, g2, seeds, truth, "nka")
    if communities is None:
        m1 = detect_communities(g1, method, seed=seed, trials=trials)
        m2 = detect_communities(g2, method, seed=seed, trials=trials)
    else:
        m1, m2 = _memberships(communities, g1.n_nodes, g2.n_nodes)
    w1, w2 = community_graph(g1, m1), community_graph(g2, m2)
    cmap = seed_communities(m1, m2, s)
    stages: dict[str, Any] = {
        "communities1": int(w1.shape[0]),
        "communities2": int(w2.shape[0]),
        "seed_communities": int((cmap >= 0).sum()),
    }
    rounds = community_propagation(w1, w2, cmap, cth)
    stages["communities_mapped"] = int((cmap >= 0).sum())
    if tr is not None:
        stages["communities_correct"] = _communities_correct(m1, m2, cmap, tr)
    map12, map21 = initial_maps(g1.n_nodes, g2.n_nodes, s)
    enriched = local = 0
    for c1 in np.flatnonzero(cmap >= 0).tolist():
        nodes1 = np.flatnonzero(m1 == c1)
        nodes2 = np.flatnonzero(m2 == cmap[c1])
        img1 = map12[nodes1]
        if not enrich and not (m2[img1[img1 >= 0]] == cmap[c1]).any():
            continue  # no pair inside c₁ × c₂ to propagate from: skip the subgraphs
        sub1, sub2 = g1.induced(nodes1), g2.induced(nodes2)
        if enrich:
            enriched += _enrich(sub1, sub2, nodes1, nodes2, map12, map21, th)
        loc1 = np.full(g1.n_nodes, -1, dtype=np.int64)
        loc1[nodes1] = np.arange(nodes1.size)
        loc2 = np.full(g2.n_nodes, -1, dtype=np.int64)
        loc2[nodes2] = np.arange(nodes2.size)
        inside = (map12[nodes1] >= 0) & (loc2[np.maximum(map12[nodes1], 0)] >= 0)
        if not inside.any():
            continue
        lseeds = np.stack([loc1[nodes1[inside]], loc2[map12[nodes1[inside]]]], axis=1)
        res = propagate(sub1, sub2, lseeds, th, scoring=scoring)
        img = nodes2[np.maximum(res.mapping, 0)]
        # a G2 node of c₂ may be taken already by a seed from another community
        new = (res.mapping >= 0) & (map12[nodes1] < 0) & (map21[img] < 0)
        map12[nodes1[new]] = nodes2[res.mapping[new]]
        map21[nodes2[res.mapping[new]]] = nodes1[new]
        local += int(new.sum())
    stages["enriched"] = enriched
    stages["local"] = local
    found = np.flatnonzero(map12 >= 0)
    stages["before_global"] = int(found.size)
    if tr is not None:
        stages["before_global_correct"] = int((tr[found] == map12[found]).sum())
    final = propagate(g1, g2, np.stack([found, map12[found]], axis=1), th, progress=progress,
                      scoring=scoring)  # fmt: skip
    correct, new_correct, n_true = score_mapping(final.mapping, s, tr)
    params = {"theta": th, "community_theta": cth, "method": method if communities is None
              else "given", "enrich": bool(enrich), "ns_rule": ns_rule}  # fmt: skip
    return NKAResult(
        final.mapping, s, "nka", rounds, time.perf_counter() - t0, params, correct,
        new_correct, n_true, m1, m2, cmap, stages,
    )  # fmt: skip


# ============================================================================ steps
def seed_communities(m1: np.ndarray, m2: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """Step 3: ``cmap[c₁]`` = the G2 community most of c₁'s seeds fall in, one-to-one
    (by decreasing votes, ties by smaller ids), −1 for none.  O(k log k)."""
    k1 = int(m1.max(initial=-1)) + 1
    cmap = np.full(k1, -1, dtype=np.int64)
    if not seeds.shape[0]:
        return cmap
    pairs, votes = np.unique(
        np.stack([m1[seeds[:, 0]], m2[seeds[:, 1]]], axis=1), axis=0, return_counts=True
    )
    taken: set[int] = set()
    for i in np.lexsort((pairs[:, 1], pairs[:, 0], -votes)).tolist():
        a, b = int(pairs[i, 0]), int(pairs[i, 1])
        if cmap[a] < 0 and b not in taken:
            cmap[a] = b
            taken.add(b)
    return cmap


def community_propagation(
    w1: np.ndarray, w2: np.ndarray, cmap: np.ndarray, theta: float, max_rounds: int = 1000
) -> int:
    """Step 4, in place on ``cmap``; returns the rounds run.  Each round visits the unmapped
    G1 communities by id; O(k₁·(k₁·k₂)) per round (dense, the community graphs are small)."""
    inv = np.full(w2.shape[0], -1, dtype=np.int64)
    inv[cmap[cmap >= 0]] = np.flatnonzero(cmap >= 0)
    d1 = (w1 > 0).sum(axis=1).astype(np.float64)
    d2 = (w2 > 0).sum(axis=1).astype(np.float64)
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        added = 0
        for u in np.flatnonzero(cmap < 0).tolist():
            v = _community_best(u, w1, w2, d1, d2, cmap, inv, theta)
            if v < 0 or _community_best(v, w2, w1, d2, d1, inv, cmap, theta) != u:
                continue
            cmap[u], inv[v] = v, u
            added += 1
        if not added:
            break
    return rounds


def _community_best(u, wa, wb, da, db, fmap, rmap, theta) -> int:
    """The best candidate of community u (the other side's unmapped communities), or −1."""
    nb = np.flatnonzero((wa[u] > 0) & (fmap >= 0))
    if not nb.size:
        return -1
    img = fmap[nb]
    reach = (wb[img] > 0) & (rmap < 0)[None, :]  # |nb| × k_b: candidate v ~ image b
    if not reach.any():
        return -1
    term = (1.0 - np.abs(np.sqrt(wa[u, nb])[:, None] - np.sqrt(wb[img]))) * reach
    cand = np.flatnonzero(reach.any(axis=0))
    score = term.sum(axis=0)[cand] / (math.sqrt(da[u]) * np.sqrt(db[cand]))
    return _eccentric_best(cand, score, theta, largest=True)


def _eccentric_best(cand: np.ndarray, score: np.ndarray, theta: float, largest: bool) -> int:
    """The best candidate (largest or smallest score; ties: smallest id) if (best − second)
    / σ ≥ θ with σ the population standard deviation of ``score``; one candidate: its
    score / 0 (the code's float arithmetic: +∞ if positive, never a match otherwise)."""
    if not cand.size:
        return -1
    key = -score if largest else score
    order = np.lexsort((cand, key))
    best = int(cand[order[0]])
    if cand.size == 1:
        return best if largest and score[order[0]] > 0 else -1
    sd = float(score.std())
    if not sd > 0.0:
        return -1
    gap = abs(float(score[order[1]] - score[order[0]]))
    return best if gap / sd >= theta else -1


def _enrich(sub1, sub2, nodes1, nodes2, map12, map21, theta) -> int:
    """Step 5 on one community pair, in place; returns the pairs added.  Degrees inside the
    communities, then local clustering coefficients.  O(|c₁|·|c₂|)."""
    added = 0
    for f1, f2 in (
        (sub1.degrees().astype(np.float64), sub2.degrees().astype(np.float64)),
        (local_clustering(sub1), local_clustering(sub2)),
    ):
        dist = np.abs(f1[:, None] - f2[None, :])  # |c₁| × |c₂|
        best12 = _closest(dist, theta)
        best21 = _closest(dist.T, theta)
        for i in range(nodes1.size):
            j = best12[i]
            if j < 0 or map12[nodes1[i]] >= 0 or map21[nodes2[j]] >= 0 or best21[j] != i:
                continue
            map12[nodes1[i]], map21[nodes2[j]] = nodes2[j], nodes1[i]
            added += 1
    return added


def _closest(dist: np.ndarray, theta: float) -> np.ndarray:
    """Per row: the column of the smallest distance (ties: smallest column) if (second −
    smallest) / σ(row) ≥ θ, else −1.  Rows of one column: never (σ = 0)."""
    rows, cols = dist.shape
    out = np.full(rows, -1, dtype=np.int64)
    if cols < 2:
        return out
    part = np.partition(dist, 1, axis=1)
    sd = dist.std(axis=1)
    ok = sd > 0
    ecc = np.zeros(rows)
    ecc[ok] = (part[ok, 1] - part[ok, 0]) / sd[ok]
    arg = dist.argmin(axis=1)
    good = ok & (ecc >= theta)
    out[good] = arg[good]
    return out


def _communities_correct(m1, m2, cmap, truth) -> int:
    """Mapped community pairs (c₁, c₂) where c₂ holds the plurality of c₁'s true
    counterparts (a community mapping is 'correct' when it follows most of its people)."""
    has = truth >= 0
    if not has.any():
        return 0
    pairs, votes = np.unique(
        np.stack([m1[has], m2[truth[has]]], axis=1), axis=0, return_counts=True
    )
    order = np.lexsort((pairs[:, 1], -votes, pairs[:, 0]))
    first = np.ones(order.size, dtype=bool)
    first[1:] = pairs[order[1:], 0] != pairs[order[:-1], 0]
    top = pairs[order[first]]
    right = np.full(cmap.size, -2, dtype=np.int64)
    right[top[:, 0]] = top[:, 1]
    return int(((cmap >= 0) & (cmap == right)).sum())


# ============================================================================ seeds
def clique_seeds(
    g1: Graph, truth: Any, n_cliques: int, *, size: int = 4, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The authors' seed model: the attacker knows ``n_cliques`` ``size``-cliques of G1 and
    their true counterparts (``Comm_Enhanced`` draws num_seeds/4 random 4-cliques of its
    clique file).  Returns (cliques: n_cliques × size G1 nodes, seeds: the (k × 2) pairs).

    The cliques are disjoint, drawn at random (``seed``) among nodes that have a true
    counterpart: a random start node, then a random common neighbour of the nodes chosen so
    far, ``size`` times.  The code draws *maximal* cliques of exactly four nodes from a
    precomputed list (networkx ``find_cliques``); enumerating the maximal cliques of
    ego-Facebook takes minutes (igraph did not finish in 120 s), so any 4-clique is
    accepted here — docs/graph/nka.md.  InputError when 100 · n_cliques draws do not find
    them.  Cost: O(tries · size · d_max).
    """
    g1 = as_graph(g1, "nka (g1)", undirected=True)
    n = check_int(n_cliques, "n_cliques", 1, "the number of known cliques")
    k = check_int(size, "size", 2, "the clique size")
    from privlab.graph.attacks.seeded import truth_array

    t = truth_array(truth, g1.n_nodes, None)
    rng = np.random.default_rng(seed)
    free = t >= 0
    free &= g1.degrees() >= k - 1
    cliques: list[list[int]] = []
    tries = 0
    while len(cliques) < n and tries < 100 * n:
        tries += 1
        pool = np.flatnonzero(free)
        if not pool.size:
            break
        chosen = [int(rng.choice(pool))]
        cand = g1.neighbors(chosen[0])
        cand = cand[free[cand]]
        while len(chosen) < k and cand.size:
            v = int(rng.choice(cand))
            chosen.append(v)
            cand = np.intersect1d(cand, g1.neighbors(v), assume_unique=True)
        if len(chosen) == k:
            cliques.append(chosen)
            free[chosen] = False
    if len(cliques) < n:
        raise InputError(
            f"n_cliques = {n}: found only {len(cliques)} disjoint {k}-cliques of aux nodes with "
            "a true counterpart; ask for fewer"
        )
    c = np.asarray(cliques, dtype=np.int64)
    flat = c.ravel()
    return c, np.stack([flat, t[flat]], axis=1)


# ============================================================================ checks


def _memberships(communities: Any, n1: int, n2: int) -> tuple[np.ndarray, np.ndarray]:
    try:
        a, b = communities
    except (TypeError, ValueError):
        raise InputError("communities: give two membership arrays (G1's, G2's)") from None
    out = []
    for m, n, name in ((a, n1, "G1"), (b, n2, "G2")):
        arr = np.asarray(m)
        if arr.shape != (n,) or (n and arr.dtype.kind not in "iu"):
            raise InputError(
                f"communities of {name}: give one integer community per node ({n} of them)"
            )
        if n and arr.min() < 0:
            raise InputError(f"communities of {name}: community ids must be ≥ 0")
        out.append(_relabel(arr.astype(np.int64)) if n else arr.astype(np.int64))
    return out[0], out[1]


__all__ = [
    "METHODS",
    "NKAResult",
    "clique_seeds",
    "community_graph",
    "community_propagation",
    "detect_communities",
    "nka",
    "seed_communities",
]
