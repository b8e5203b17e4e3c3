"""D4D-style egonet releases, the ad-hoc signature attack, and case-labelled linkage pairs.

Source: seed 004 (Sharad, Cambridge TR-896), Chapter 3 — §2.3 (the D4D anonymization schemes,
thesis §3.2.1 L491–511), §2.4 (the ad-hoc signature attack and the three node-pair cases,
§3.2.3–3.2.4 L529–553), §2.8 (how Chapter 3 builds its pairs, §3.4.1 L674–676) and §3.2
(Table 3.1, the signature attack's success; Tables 3.7–3.8, the pair counts).  The user guide
is docs/graph/egonet-linkage.md.

**The release** (:func:`egonet_release`).  Egos are drawn uniformly at random, without
replacement, among the nodes whose 2-hop ball has at least ``min_size`` nodes (the seed kept
egonets of more than 400 nodes on Epinions and 800 on Pokec: ``min_size=401`` / ``801``).
Each egonet is the node-induced subgraph on the ego's 2-hop ball.  Scheme 1 keeps every edge
among those nodes; Scheme 2 deletes every edge between two 2-hop nodes (call counts, durations
and directions do not exist here, and there are no public phones to remove).  Every egonet
gets its own uniformly random local ids, so egonets cannot be stitched by id.  The secret
truth — per egonet, the original node of each local id, the hop (0/1/2) of each local id and
the local id of the ego — is kept in the :class:`EgonetRelease` next to the graphs.

**The attacker's view.**  :func:`find_ego` returns every node from which all others are at
most 2 hops away (§2.4, "the single node from which all others are at most 2-hops away");
the true ego is always among them under both schemes (Scheme 2 keeps every ego–1-hop and
1-hop–2-hop edge, so distances from the ego are unchanged).  When there is more than one
candidate the attacker cannot tell which is the ego; :func:`attacker_one_hop` then marks,
with ``policy="all"``, only the nodes within one hop of *every* candidate (certainly 1-hop
nodes or the ego: sound but it may mark few nodes), or, with ``policy="any"`` (the attack's
default), the nodes within one hop of *some* candidate (every true 1-hop node, plus maybe
2-hop nodes whose signatures are truncated) — the seed's "this does not affect the attack":
a signature does not depend on which candidate is the ego, only on whether the node's
neighbourhood is complete.  On SNAP ego-Facebook (10 dense ego networks glued together) the
ego is *never* unique: a 2-hop egonet has a median of ~550 candidates.

**The signature.**  The seed: "the signature for each node consists of the sorted list of
degrees of all the nodes in its 1-hop network", e.g. a node with four friends of degree
3, 2, 2, 1 *in its 1-hop network* has signature {1, 2, 2, 3, 4}, and it is "invariant under
the anonymization procedure" for 1-hop nodes under Scheme 1.  Which degree is meant matters:

- ``degree_scope="local"`` (the default): the degree of each member of the closed
  neighbourhood N[v] counted *inside N[v]* (v's own degree is |N(v)|; a friend w counts v
  plus the common friends of v and w).  This is the reading that makes the seed's claim
  true: for a 1-hop node (or the ego) the whole of N[v] lies within 2 hops of the ego and
  Scheme 1 keeps every edge among those nodes, so the signature equals that of the original
  graph in *every* egonet where v is a 1-hop node or the ego.  The seed's example is
  consistent with it (no friend's degree exceeds |N[v]| − 1 = 4).  Scheme 2 breaks it: an
  edge between two friends of v that are both 2-hop nodes of the ego is deleted.
- ``degree_scope="egonet"``: each member's degree inside the whole released egonet.  This is
  *not* invariant even under Scheme 1: a friend w of a 1-hop node v may be a 2-hop node,
  and its degree inside the egonet then counts only its neighbours within 2 hops of this
  ego, which differs from egonet to egonet (and when v is the ego of one egonet every
  friend's degree is complete there but not in the other).  It is kept to measure that.

Two attacker-marked 1-hop nodes in different egonets are declared identical iff their
signatures are equal and have at least ``min_signature_length`` entries (the seed's "large
signatures"; the default 7 is the Chapter 3 rule that only nodes of degree > 5 are linked).

**Pairs** (:func:`sample_linkage_pairs`).  An *appearance* is an (egonet, local node) whose
degree inside its egonet exceeds ``min_degree`` (5, as in Chapter 3).  Identical pairs are two
appearances of the same original node in two egonets (a node appears at most once per
egonet), bucketed by the truth hops: Case 1 "1-hop" (both hops ≤ 1), Case 2 "1,2-hop"
(exactly one hop is 2), Case 3 "2-hop" (both 2); ``cases="complete"`` draws uniformly from
all identical pairs regardless of case.  Non-identical pairs are two appearances of
different original nodes in different egonets, not split by case (``non_identical_case``
restricts them to one structural case, as needed for Table 3.1).  Sampling is uniform
without replacement and never enumerates more than about twice the number of pairs asked
for: when fewer than twice the requested number exist they are enumerated, otherwise a
group (original node, or first appearance) is drawn with probability proportional to its
number of pairs, a pair is drawn uniformly inside it, and duplicates are rejected.

Complexity (n nodes, m edges, E egos, k_i nodes and m_i edges in egonet i):
:func:`two_hop_sizes` O(Σ_v deg(v)²) in row chunks (bounded memory);
:func:`egonet_release` that plus O(Σ_i (Σ_{u ∈ ball_i} deg u + m_i log m_i));
:func:`find_ego` O(k + Σ over candidate rows of their 2-hop work) — a cheap upper bound
(1 + deg v + Σ_{u ∈ N(v)} deg u ≥ k) filters candidates before the sparse product;
signatures O(Σ_{v} Σ_{w ∈ N(v)} deg w) per egonet for the nodes asked for;
:func:`sample_linkage_pairs` O(A log A) for A appearances plus O(requested pairs);
:func:`egonet_node_histograms` O(Σ degrees of the requested nodes + k_i per egonet touched).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any, Literal

import numpy as np
from scipy import sparse

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.learned.features import degree_bins
from privlab.graph.core import Graph

DEFAULT_MIN_SIZE = 100
"""Default minimum 2-hop egonet size (nodes, ego included).

The seed used > 400 nodes on Epinions (75 879 nodes) and > 800 on Pokec (1.6 M nodes).  On
the two SNAP graphs shipped with the project the seed's rule is unusable or toothless:
ca-GrQc has *no* node with a 2-hop ball of 400 nodes (294 have ≥ 100, 79 have ≥ 200), while
on ego-Facebook 3 209 of 4 039 nodes pass 400 (3 947 pass 100; the median ball is 766).
100 keeps ca-GrQc usable (294 eligible egos) and still drops the trivial egonets; pass
``min_size=401`` to reproduce the Epinions setting."""

CASE_NAMES = {0: "non-identical", 1: "1-hop", 2: "1,2-hop", 3: "2-hop"}
_ROW_CHUNK = 512
_ENUM_LIMIT = 50_000_000


# ============================================================================ the release
@dataclass(frozen=True, eq=False)
class EgonetRelease:
    """A list of anonymized egonets plus the secret truth about them.

    ``graphs[i]`` is egonet i with its own random local ids 0..k_i−1.  The truth is stored
    flat: the local node x of egonet i is *appearance* ``offsets[i] + x``, with original node
    ``original[offsets[i] + x]`` and hop ``hops[offsets[i] + x]`` (0 = the ego, 1, 2);
    ``ego_local[i]`` is the ego's local id and ``egos[i]`` its original id.  Only the graphs
    would be published; everything else is the ground truth for evaluation.
    """

    graphs: list[Graph]
    offsets: np.ndarray
    original: np.ndarray
    hops: np.ndarray
    ego_local: np.ndarray
    egos: np.ndarray
    scheme: int
    parameters: dict[str, Any] = field(default_factory=dict)

    @property
    def n_egonets(self) -> int:
        return len(self.graphs)

    @property
    def n_appearances(self) -> int:
        return int(self.original.size)

    def __len__(self) -> int:
        return self.n_egonets

    def local_graph(self, i: int) -> Graph:
        """Egonet i as released (random local ids, no labels)."""
        return self.graphs[self._check_index(i)]

    def original_of(self, i: int) -> np.ndarray:
        """Truth: the original node id of every local node of egonet i (a view)."""
        i = self._check_index(i)
        return self.original[self.offsets[i] : self.offsets[i + 1]]

    def hops_of(self, i: int) -> np.ndarray:
        """Truth: the hop (0 = ego, 1, 2) of every local node of egonet i (a view)."""
        i = self._check_index(i)
        return self.hops[self.offsets[i] : self.offsets[i + 1]]

    def sizes(self) -> np.ndarray:
        """Number of nodes of every egonet."""
        return np.diff(self.offsets)

    def local_degrees(self) -> np.ndarray:
        """Degree inside its egonet of every appearance (flat, like ``original``)."""
        if not self.graphs:
            return np.zeros(0, dtype=np.int64)
        return np.concatenate([g.degrees() for g in self.graphs])

    def appearance_egonet(self) -> np.ndarray:
        """Egonet index of every appearance (flat)."""
        return np.repeat(np.arange(self.n_egonets, dtype=np.int64), self.sizes())

    def subset(self, indices: Any) -> EgonetRelease:
        """The release restricted to the egonets ``indices`` (in that order), e.g. to keep
        train and test egonets apart as Chapter 3 does.  Local ids are unchanged."""
        idx = np.asarray(indices, dtype=np.int64).reshape(-1)
        if idx.size and (idx.min() < 0 or idx.max() >= self.n_egonets):
            raise InputError(
                f"egonet indices must lie in 0..{self.n_egonets - 1}; got {idx.min()}..{idx.max()}"
            )
        if np.unique(idx).size != idx.size:
            raise InputError("egonet indices repeat; give each egonet at most once")
        sizes = self.sizes()[idx]
        offsets = np.zeros(idx.size + 1, dtype=np.int64)
        np.cumsum(sizes, out=offsets[1:])
        parts = [np.arange(self.offsets[i], self.offsets[i + 1]) for i in idx]
        flat = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        params = dict(self.parameters, subset_of=self.n_egonets, n_egos=int(idx.size))
        return EgonetRelease(
            [self.graphs[i] for i in idx], offsets, self.original[flat], self.hops[flat],
            self.ego_local[idx], self.egos[idx], self.scheme, params,
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        sizes = self.sizes()
        return {
            "parameters": dict(self.parameters),
            "scheme": self.scheme,
            "egonets": self.n_egonets,
            "appearances": self.n_appearances,
            "distinct_nodes": int(np.unique(self.original).size),
            "mean_egonet_nodes": float(sizes.mean()) if sizes.size else 0.0,
            "mean_egonet_edges": (
                float(np.mean([g.n_edges for g in self.graphs])) if self.graphs else 0.0
            ),
        }

    def _check_index(self, i: Any) -> int:
        if isinstance(i, bool) or not isinstance(i, Integral) or not 0 <= i < self.n_egonets:
            raise InputError(f"egonet index {i!r}: give an integer in 0..{self.n_egonets - 1}")
        return int(i)


def two_hop_sizes(graph: Graph) -> np.ndarray:
    """Number of nodes within 2 hops of every node (itself included).

    Row-chunked nnz of (A + I)²; O(Σ_v deg(v)²) time, O(chunk · n) memory.
    """
    graph.require_undirected("two_hop_sizes")
    a = _closed_adjacency(graph)
    n = graph.n_nodes
    out = np.empty(n, dtype=np.int64)
    for lo in range(0, n, _ROW_CHUNK):
        hi = min(n, lo + _ROW_CHUNK)
        out[lo:hi] = np.diff((a[lo:hi] @ a).indptr)
    return out


def egonet_release(
    graph: Graph,
    n_egos: int | None = None,
    *,
    scheme: int = 1,
    min_size: int = DEFAULT_MIN_SIZE,
    egos: Any = None,
    seed: Any = None,
) -> EgonetRelease:
    """Release ``n_egos`` 2-hop egonets of ``graph`` under D4D Scheme 1 or 2.

    Seed 004 §2.3 (thesis §3.2.1) and §2.8 (§3.4.1): egos uniform without replacement among
    the nodes whose 2-hop ball has ≥ ``min_size`` nodes (:data:`DEFAULT_MIN_SIZE`); each
    egonet is the node-induced subgraph on that ball; Scheme 2 also deletes every edge
    between two 2-hop nodes; fresh random local ids per egonet.  ``egos`` (instead of
    ``n_egos``) releases the egonets of the given nodes, in that order, whatever their size
    (for experiments and tests).  ``parameters`` records the settings, the number of
    eligible egos and the edges Scheme 2 deleted; a fixed ``seed`` is flagged
    ``insecure_seed``.

    ConfigError for a scheme other than 1/2, n_egos < 1, min_size < 1, or both/neither of
    n_egos and egos; InputError for a directed graph, bad ``egos``, or when fewer than
    ``n_egos`` nodes are eligible (the message gives how many are).
    O(Σ_v deg(v)² + Σ_i (Σ_{u ∈ ball_i} deg u + m_i log m_i)).
    """
    graph.require_undirected("the D4D egonet release (seed 004 §2.3)")
    scheme = _check_scheme(scheme)
    min_size = _check_int(min_size, "min_size", 1, "the minimum 2-hop egonet size in nodes")
    if (n_egos is None) == (egos is None):
        raise ConfigError("give either n_egos (random egos) or egos (chosen egos), not both")
    rng = secure_generator(seed)
    if egos is not None:
        egos = np.asarray(egos).reshape(-1)
        if egos.size == 0 or egos.dtype.kind not in "iu":
            raise InputError(f"egos = {egos!r}: give a non-empty list of node ids (integers)")
        egos = egos.astype(np.int64)
        if egos.min() < 0 or egos.max() >= graph.n_nodes:
            raise InputError(f"egos must be nodes of the graph, in 0..{graph.n_nodes - 1}")
        if np.unique(egos).size != egos.size:
            raise InputError("egos repeat; give each ego once")
        n_egos = int(egos.size)
        n_eligible = None
    else:
        n_egos = _check_int(n_egos, "n_egos", 1, "the number of egonets to release")
        sizes = two_hop_sizes(graph)
        eligible = np.flatnonzero(sizes >= min_size)
        n_eligible = int(eligible.size)
        if eligible.size < n_egos:
            raise InputError(
                f"n_egos = {n_egos}: only {eligible.size} of {graph.n_nodes} nodes have a "
                f"2-hop egonet of at least min_size = {min_size} nodes (largest: "
                f"{int(sizes.max(initial=0))}); lower n_egos or min_size"
            )
        egos = rng.choice(eligible, size=n_egos, replace=False).astype(np.int64)

    n = graph.n_nodes
    hop_scratch = np.full(n, -1, dtype=np.int8)
    local_scratch = np.full(n, -1, dtype=np.int64)
    graphs: list[Graph] = []
    originals: list[np.ndarray] = []
    hops: list[np.ndarray] = []
    ego_local = np.empty(n_egos, dtype=np.int64)
    deleted = 0
    for i, ego in enumerate(egos.tolist()):
        n1 = graph.neighbors(ego)
        n2, _ = _gather_rows(graph.indptr, graph.indices, n1)
        ball = np.unique(np.concatenate([n2, n1, [ego]]))
        hop_scratch[ball] = 2
        hop_scratch[n1] = 1
        hop_scratch[ego] = 0
        k = ball.size
        perm = rng.permutation(k)
        local_scratch[ball] = perm
        dst, src = _gather_rows(graph.indptr, graph.indices, ball)
        keep = (local_scratch[dst] >= 0) & (src < dst)
        src, dst = src[keep], dst[keep]
        if scheme == 2:
            both2 = (hop_scratch[src] == 2) & (hop_scratch[dst] == 2)
            deleted += int(both2.sum())
            src, dst = src[~both2], dst[~both2]
        edges = np.stack([local_scratch[src], local_scratch[dst]], axis=1)
        graphs.append(Graph.from_edges(k, edges))
        orig = np.empty(k, dtype=np.int64)
        orig[perm] = ball
        hop = np.empty(k, dtype=np.int8)
        hop[perm] = hop_scratch[ball]
        originals.append(orig)
        hops.append(hop)
        ego_local[i] = local_scratch[ego]
        hop_scratch[ball] = -1
        local_scratch[ball] = -1

    offsets = np.zeros(n_egos + 1, dtype=np.int64)
    np.cumsum([o.size for o in originals], out=offsets[1:])
    params = {
        "scheme": scheme,
        "n_egos": n_egos,
        "min_size": min_size,
        "eligible_egos": n_eligible,
        "chosen_egos": n_eligible is None,
        "source_nodes": n,
        "source_edges": graph.n_edges,
        "scheme2_deleted_edges": deleted,
        "insecure_seed": is_insecure_seed(seed),
    }
    return EgonetRelease(
        graphs, offsets, np.concatenate(originals), np.concatenate(hops), ego_local, egos,
        scheme, params,
    )  # fmt: skip


# ============================================================================ attacker view
EgoPolicy = Literal["all", "any"]


def find_ego(egonet: Graph) -> np.ndarray:
    """Every node of ``egonet`` from which all nodes are at most 2 hops away (sorted).

    Seed 004 §2.4 (thesis §3.2.3): the attacker's ego detection.  One entry = the ego is
    identified; several = ambiguous (the seed: "we cannot detect the ego accurately"), and
    the caller decides (:func:`attacker_one_hop` keeps only nodes adjacent to all of them);
    an empty array = no node qualifies (not an egonet).  On a release of
    :func:`egonet_release` the true ego is always a candidate, under both schemes.
    O(k + Σ_v deg v) for the filter plus the sparse product on the surviving rows.
    """
    egonet.require_undirected("find_ego")
    k = egonet.n_nodes
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    deg = egonet.degrees()
    # |ball_2(v)| ≤ 1 + deg v + Σ_{u ∈ N(v)} deg u: a cheap upper bound discards most rows
    owner = np.repeat(np.arange(k), deg)
    bound = 1 + deg + np.bincount(owner, weights=deg[egonet.indices], minlength=k)
    cand = np.flatnonzero(bound >= k)
    if cand.size == 0:
        return cand.astype(np.int64)
    a = _closed_adjacency(egonet)
    full = np.zeros(cand.size, dtype=bool)
    for lo in range(0, cand.size, _ROW_CHUNK):
        rows = cand[lo : lo + _ROW_CHUNK]
        full[lo : lo + rows.size] = np.diff((a[rows] @ a).indptr) == k
    return cand[full].astype(np.int64)


def attacker_one_hop(
    egonet: Graph, candidates: np.ndarray | None = None, *, policy: EgoPolicy = "all"
) -> np.ndarray:
    """Boolean mask of the nodes the attacker treats as the ego or 1-hop nodes.

    With a unique ego candidate: the ego and its neighbours.  With several (ambiguous ego),
    ``policy="all"`` keeps the nodes at distance ≤ 1 from *every* candidate — the true ego is
    one of them, so these are 1-hop nodes or the ego for sure (sound, fewer nodes);
    ``policy="any"`` keeps the nodes at distance ≤ 1 from *some* candidate — every true
    1-hop node is kept, plus possibly 2-hop nodes whose neighbourhood is truncated (the
    seed's "if more than one node satisfies this relation we cannot detect the ego
    accurately; however, this does not affect the attack": the signature does not depend on
    which candidate is the ego).  No candidate: nothing.  O(k + Σ_c deg c).
    """
    pol = _check_policy(policy)
    cands = find_ego(egonet) if candidates is None else np.asarray(candidates, np.int64)
    k = egonet.n_nodes
    if cands.size == 0:
        return np.zeros(k, dtype=bool)
    count = np.zeros(k, dtype=np.int64)
    count[cands] += 1
    nb, _ = _gather_rows(egonet.indptr, egonet.indices, cands)
    np.add.at(count, nb, 1)
    return count == cands.size if pol == "all" else count > 0


def attacker_hops(egonet: Graph, candidates: np.ndarray | None = None) -> np.ndarray:
    """Hop of every node as the attacker infers it: 0 the ego, 1, 2; −1 where the ego is
    ambiguous and the node is not certainly within one hop (the attacker's case labels for
    a learned classifier).  With a unique candidate this equals the truth on both schemes.
    O(k + m)."""
    cands = find_ego(egonet) if candidates is None else np.asarray(candidates, np.int64)
    k = egonet.n_nodes
    out = np.full(k, -1 if cands.size != 1 else 2, dtype=np.int8)
    if cands.size == 0:
        return out
    one = attacker_one_hop(egonet, cands)
    out[one] = 1
    if cands.size == 1:
        out[int(cands[0])] = 0
    return out


# ============================================================================ signatures
DegreeScope = Literal["local", "egonet"]


def node_signatures(
    egonet: Graph, nodes: Any, *, degree_scope: DegreeScope = "local"
) -> list[np.ndarray]:
    """Signature of each of ``nodes``: the sorted degrees of its closed 1-hop neighbourhood.

    Seed 004 §2.4 (thesis §3.2.3): a node with four friends of degree 3, 2, 2, 1 has
    signature (1, 2, 2, 3, 4).  ``degree_scope`` picks the degree: ``"local"`` inside the
    node's closed neighbourhood N[v] (invariant for 1-hop nodes under Scheme 1), or
    ``"egonet"`` inside the whole egonet (not invariant); see the module docstring.
    Vectorized per call: O(Σ_v Σ_{w ∈ N(v)} deg w) for "local", O(Σ_v deg v) for "egonet".
    """
    scope = _check_scope(degree_scope)
    v = _check_nodes(egonet, nodes)
    nb, owner = _gather_rows(egonet.indptr, egonet.indices, v, with_position=True)
    deg = egonet.degrees()
    if scope == "egonet":
        vals = deg[nb]
    else:
        a = egonet.to_scipy().astype(np.int32)
        common = (a[v] @ a).tocsr()  # common[r, w] = |N(v_r) ∩ N(w)|
        common.sort_indices()
        vals = 1 + _csr_lookup(common, owner, nb)
    counts = deg[v]
    order = np.lexsort((vals, owner))
    vals = vals[order]
    bounds = np.concatenate([[0], np.cumsum(counts)])
    out = []
    for r in range(v.size):
        s = np.empty(counts[r] + 1, dtype=np.int64)
        seg = vals[bounds[r] : bounds[r + 1]]
        # own degree is |N(v)| in both scopes; insert it into the sorted list
        j = int(np.searchsorted(seg, counts[r]))
        s[:j], s[j], s[j + 1 :] = seg[:j], counts[r], seg[j:]
        out.append(s)
    return out


def _signature_codes(
    release: EgonetRelease,
    ego_idx: np.ndarray,
    node_idx: np.ndarray,
    scope: DegreeScope,
    min_len: int,
    policy: EgoPolicy,
    book: dict[bytes, int],
    view: dict[int, tuple[np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray]:
    """Signature code per appearance (codes from the shared ``book``), −1 where the attack
    does not apply (not an attacker-marked 1-hop node, or a signature shorter than
    ``min_len``), and the attacker-marked flag.  ``view`` caches, per egonet touched, the
    ego candidates and the attacker's 1-hop mask."""
    codes = np.full(ego_idx.size, -1, dtype=np.int64)
    marked = np.zeros(ego_idx.size, dtype=bool)
    order = np.argsort(ego_idx, kind="stable")
    es = ego_idx[order]
    if es.size == 0:
        return codes, marked
    starts = np.flatnonzero(np.r_[True, es[1:] != es[:-1]])
    for s, e in zip(starts, np.r_[starts[1:], es.size], strict=True):
        i = int(es[s])
        rows = order[s:e]
        g = release.graphs[i]
        if i not in view:
            cands = find_ego(g)
            view[i] = (cands, attacker_one_hop(g, cands, policy=policy))
        ok = view[i][1][node_idx[rows]]
        marked[rows] = ok
        ok &= g.degrees()[node_idx[rows]] + 1 >= min_len
        use = rows[ok]
        if use.size == 0:
            continue
        uniq, inv = np.unique(node_idx[use], return_inverse=True)
        sigs = node_signatures(g, uniq, degree_scope=scope)
        c = np.array([book.setdefault(x.tobytes(), len(book)) for x in sigs], dtype=np.int64)
        codes[use] = c[inv]
    return codes, marked


# ============================================================================ pairs
@dataclass(frozen=True, eq=False)
class LinkagePairs:
    """Labelled node pairs across egonets, ready for a pair classifier.

    Pair r links local node ``node_a[r]`` of egonet ``ego_a[r]`` with local node
    ``node_b[r]`` of egonet ``ego_b[r]`` (``ego_a < ego_b``; the ``ego_*`` arrays are egonet
    *indices* in the release, not ego node ids).  ``label`` is 1 for identical (the same
    original node), 0 otherwise; ``case`` is 1 "1-hop", 2 "1,2-hop", 3 "2-hop" for identical
    pairs and 0 for non-identical ones; ``hop_a``/``hop_b`` are the truth hops (the attacker
    can infer them, :func:`attacker_hops`).  ``available`` counts every pair that could have
    been drawn (the seed's Table 3.8 "train" column), ``drawn`` what was drawn.
    """

    ego_a: np.ndarray
    node_a: np.ndarray
    ego_b: np.ndarray
    node_b: np.ndarray
    label: np.ndarray
    case: np.ndarray
    hop_a: np.ndarray
    hop_b: np.ndarray
    available: dict[str, int] = field(default_factory=dict)
    drawn: dict[str, int] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.label.size)

    @property
    def structural_case(self) -> np.ndarray:
        """Case 1/2/3 from the hops, for every pair (also the non-identical ones)."""
        return _case_of(self.hop_a, self.hop_b)

    def select(self, case: int | str) -> LinkagePairs:
        """The identical pairs of one case (1, 2, 3 or ``"complete"`` = all identical)
        together with all non-identical pairs — the test set of one row of Tables 3.2–3.5."""
        if case == "complete":
            keep = np.ones(len(self), dtype=bool)
        elif case in (1, 2, 3):
            keep = (self.label == 0) | (self.case == case)
        else:
            raise ConfigError(f"case = {case!r}: give 1, 2, 3 or 'complete'")
        return self.take(np.flatnonzero(keep))

    def take(self, rows: Any) -> LinkagePairs:
        """The pairs at ``rows``."""
        r = np.asarray(rows, dtype=np.int64)
        return LinkagePairs(
            self.ego_a[r], self.node_a[r], self.ego_b[r], self.node_b[r], self.label[r],
            self.case[r], self.hop_a[r], self.hop_b[r], dict(self.available),
            _drawn_counts(self.label[r], self.case[r]), dict(self.parameters),
        )  # fmt: skip

    def as_array(self) -> np.ndarray:
        """(n × 6) int64: ego_a, node_a, ego_b, node_b, label, case."""
        return np.stack(
            [self.ego_a, self.node_a, self.ego_b, self.node_b, self.label, self.case], axis=1
        ).astype(np.int64)

    def to_dict(self) -> dict[str, Any]:
        return {
            "parameters": dict(self.parameters),
            "available": dict(self.available),
            "drawn": dict(self.drawn),
            "pairs": len(self),
        }


def sample_linkage_pairs(
    release: EgonetRelease,
    *,
    n_identical_per_case: int,
    n_non_identical: int,
    min_degree: int = 5,
    cases: Sequence[int] | str = (1, 2, 3),
    non_identical_case: int | None = None,
    seed: Any = None,
) -> LinkagePairs:
    """Draw identical pairs per case and non-identical pairs across the egonets of a release.

    Seed 004 §2.4 (the cases) and §2.8 (thesis §3.4.1 L674–676): only appearances of degree
    > ``min_degree`` inside their egonet are linked; identical pairs = the same original node
    in two egonets, ``n_identical_per_case`` uniformly without replacement from each case in
    ``cases`` (all of them when fewer exist, as the seed's "if fewer than 600 pairs exist,
    all available pairs are used"); ``cases="complete"`` draws ``n_identical_per_case``
    uniformly from all identical pairs instead.  Non-identical: ``n_non_identical`` uniform
    pairs of different original nodes in different egonets, from all appearances, or, with
    ``non_identical_case`` = 1/2/3, only pairs of that structural case (Table 3.1 compares
    its Case 1 identical pairs with non-identical pairs of 1-hop nodes).  Pairs are ordered
    identical first, then non-identical; shuffle them yourself if order matters.

    ConfigError for negative counts or min_degree, an unknown case; O(A log A + requested
    pairs) for A appearances (see the module docstring for the sampler).
    """
    n_id = _check_int(n_identical_per_case, "n_identical_per_case", 0, "a number of pairs")
    n_non = _check_int(n_non_identical, "n_non_identical", 0, "a number of pairs")
    min_degree = _check_int(min_degree, "min_degree", 0, "the degree threshold (seed: 5)")
    if isinstance(cases, str):
        if cases != "complete":
            raise ConfigError(f"cases = {cases!r}: give a list of 1, 2, 3 or 'complete'")
        case_list: list[int | str] = ["complete"]
    else:
        case_list = list(dict.fromkeys(cases))
        if not all(c in (1, 2, 3) and not isinstance(c, bool) for c in case_list):
            raise ConfigError(f"cases = {cases!r}: give a list of 1, 2, 3 or 'complete'")
    if non_identical_case is not None and (
        isinstance(non_identical_case, bool) or non_identical_case not in (1, 2, 3)
    ):
        raise ConfigError(f"non_identical_case = {non_identical_case!r}: give None, 1, 2 or 3")
    rng = secure_generator(seed)

    deg = release.local_degrees()
    app = np.flatnonzero(deg > min_degree)  # appearance ids, sorted => by egonet
    eg_all = release.appearance_egonet()
    orig_all = release.original
    near = release.hops[app] <= 1
    sets = {"near": app[near], "far": app[~near], "all": app}

    chosen_a: list[np.ndarray] = []
    chosen_b: list[np.ndarray] = []
    available: dict[str, int] = {}
    for c in case_list:
        if c == "complete":
            a, b, total = _within_pairs(sets["all"], orig_all, n_id, rng)
        elif c == 1:
            a, b, total = _within_pairs(sets["near"], orig_all, n_id, rng)
        elif c == 3:
            a, b, total = _within_pairs(sets["far"], orig_all, n_id, rng)
        else:
            a, b, total = _across_pairs(sets["near"], sets["far"], orig_all, n_id, rng)
        available[CASE_NAMES[c] if c != "complete" else "complete"] = total
        chosen_a.append(a)
        chosen_b.append(b)
    if non_identical_case in (None, 1, 3):
        key = {None: "all", 1: "near", 3: "far"}[non_identical_case]
        a, b, total = _different_pairs(sets[key], None, eg_all, orig_all, n_non, rng)
    else:
        a, b, total = _different_pairs(sets["near"], sets["far"], eg_all, orig_all, n_non, rng)
    available["non-identical"] = total
    n_ident = sum(x.size for x in chosen_a)
    pa = np.concatenate([*chosen_a, a])
    pb = np.concatenate([*chosen_b, b])
    swap = eg_all[pa] > eg_all[pb]
    pa, pb = np.where(swap, pb, pa), np.where(swap, pa, pb)
    label = np.zeros(pa.size, dtype=np.int8)
    label[:n_ident] = 1
    hop_a, hop_b = release.hops[pa], release.hops[pb]
    case = np.where(label == 1, _case_of(hop_a, hop_b), 0).astype(np.int8)
    off = release.offsets
    params = {
        "n_identical_per_case": n_id,
        "n_non_identical": n_non,
        "min_degree": min_degree,
        "cases": [c for c in case_list],
        "non_identical_case": non_identical_case,
        "eligible_appearances": int(app.size),
        "scheme": release.scheme,
        "insecure_seed": is_insecure_seed(seed),
    }
    return LinkagePairs(
        eg_all[pa], pa - off[eg_all[pa]], eg_all[pb], pb - off[eg_all[pb]], label, case,
        hop_a, hop_b, available, _drawn_counts(label, case), params,
    )  # fmt: skip


def _case_of(hop_a: np.ndarray, hop_b: np.ndarray) -> np.ndarray:
    far = (np.asarray(hop_a) == 2).astype(np.int8) + (np.asarray(hop_b) == 2).astype(np.int8)
    return (far + 1).astype(np.int8)


def _drawn_counts(label: np.ndarray, case: np.ndarray) -> dict[str, int]:
    out = {CASE_NAMES[c]: int(np.sum((label == 1) & (case == c))) for c in (1, 2, 3)}
    out["identical"] = int(np.sum(label == 1))
    out["non-identical"] = int(np.sum(label == 0))
    return out


def _groups(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort order, group starts and group sizes of ``keys``."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    if k.size == 0:
        return order, np.zeros(0, np.int64), np.zeros(0, np.int64)
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    sizes = np.diff(np.r_[starts, k.size])
    return order, starts, sizes


def _first_distinct(keys: np.ndarray, n: int) -> np.ndarray:
    """Indices of the first ``n`` distinct values of ``keys`` in draw order."""
    _, first = np.unique(keys, return_index=True)
    return np.sort(first)[:n]


def _within_pairs(members: np.ndarray, orig: np.ndarray, n: int, rng) -> tuple:
    """Uniform n unordered pairs of ``members`` (appearance ids) sharing an original node."""
    order, starts, sizes = _groups(orig[members])
    srt = members[order]
    counts = sizes * (sizes - 1) // 2
    total = int(counts.sum())
    if n == 0 or total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), total
    if n * 2 >= total:
        keep = sizes > 1
        st, sz = starts[keep], sizes[keep]
        # element at in-group position p pairs with positions p+1..k−1
        pos = np.concatenate([np.arange(s, s + k) for s, k in zip(st, sz, strict=True)])
        rep = np.concatenate([np.arange(k - 1, -1, -1) for k in sz])
        first = np.repeat(pos, rep)
        csum = np.cumsum(rep)
        second = first + 1 + (np.arange(first.size) - np.repeat(csum - rep, rep))
        pick = rng.choice(first.size, size=min(n, first.size), replace=False)
        return srt[first[pick]], srt[second[pick]], total
    cum = np.cumsum(counts)
    keys_all = np.zeros(0, np.int64)
    while True:
        m = 2 * n + 64
        g = np.searchsorted(cum, rng.integers(0, total, size=m), side="right")
        p = rng.integers(0, sizes[g])
        q = rng.integers(0, sizes[g] - 1)
        q = q + (q >= p)
        i, j = starts[g] + np.minimum(p, q), starts[g] + np.maximum(p, q)
        keys_all = np.concatenate([keys_all, i * srt.size + j])
        sel = _first_distinct(keys_all, n)
        if sel.size >= n:
            k = keys_all[sel]
            return srt[k // srt.size], srt[k % srt.size], total


def _across_pairs(left: np.ndarray, right: np.ndarray, orig: np.ndarray, n: int, rng) -> tuple:
    """Uniform n pairs (l ∈ left, r ∈ right) with the same original node."""
    lo, ls, lz = _groups(orig[left])
    ro, rs, rz = _groups(orig[right])
    lsrt, rsrt = left[lo], right[ro]
    lkey = lsrt[ls] if ls.size else ls
    rkey = rsrt[rs] if rs.size else rs
    _, li, ri = np.intersect1d(orig[lkey], orig[rkey], return_indices=True)
    lst, lsz, rst, rsz = ls[li], lz[li], rs[ri], rz[ri]
    counts = lsz * rsz
    total = int(counts.sum())
    if n == 0 or total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), total
    if n * 2 >= total:
        firsts = np.concatenate(
            [np.repeat(np.arange(s, s + k), r) for s, k, r in zip(lst, lsz, rsz, strict=True)]
        )
        seconds = np.concatenate(
            [np.tile(np.arange(s, s + r), k) for s, k, r in zip(rst, lsz, rsz, strict=True)]
        )
        pick = rng.choice(firsts.size, size=min(n, firsts.size), replace=False)
        return lsrt[firsts[pick]], rsrt[seconds[pick]], total
    cum = np.cumsum(counts)
    keys_all = np.zeros(0, np.int64)
    while True:
        m = 2 * n + 64
        g = np.searchsorted(cum, rng.integers(0, total, size=m), side="right")
        i = lst[g] + rng.integers(0, lsz[g])
        j = rst[g] + rng.integers(0, rsz[g])
        keys_all = np.concatenate([keys_all, i * rsrt.size + j])
        sel = _first_distinct(keys_all, n)
        if sel.size >= n:
            k = keys_all[sel]
            return lsrt[k // rsrt.size], rsrt[k % rsrt.size], total


def _different_pairs(
    left: np.ndarray,
    right: np.ndarray | None,
    egonet: np.ndarray,
    orig: np.ndarray,
    n: int,
    rng,
) -> tuple:
    """Uniform n pairs of appearances in different egonets with different original nodes:
    unordered pairs within ``left`` when ``right`` is None, else (l ∈ left, r ∈ right).

    A first element a is drawn with probability ∝ its number of other-egonet partners, the
    partner uniformly among them (so ordered cross-egonet pairs are uniform); same-node pairs
    and duplicates are rejected.  ``left``/``right`` must be sorted (hence by egonet)."""
    same_set = right is None
    rset = left if same_set else right
    if left.size == 0 or rset.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), 0
    reg = egonet[rset]
    lo = np.searchsorted(reg, egonet[left], side="left")
    hi = np.searchsorted(reg, egonet[left], side="right")
    w = rset.size - (hi - lo)
    ordered = int(w.sum())
    # ordered pairs with the same original node (always in different egonets)
    lkeys, lcounts = np.unique(orig[left], return_counts=True)
    if same_set:
        same = int(np.sum(lcounts * (lcounts - 1)))
        total = (ordered - same) // 2
    else:
        rkeys, rcounts = np.unique(orig[rset], return_counts=True)
        _, li, ri = np.intersect1d(lkeys, rkeys, return_indices=True)
        same = int(np.sum(lcounts[li] * rcounts[ri]))
        total = ordered - same
    if n == 0 or total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), total
    if n * 2 >= total:
        if ordered > _ENUM_LIMIT:
            raise InputError(
                f"{ordered} candidate non-identical pairs to enumerate for only {total} valid "
                "ones; lower n_non_identical"
            )
        ai = np.repeat(np.arange(left.size), w)
        csum = np.cumsum(w)
        r = np.arange(ai.size) - np.repeat(csum - w, w)
        bi = np.where(r < lo[ai], r, r + (hi - lo)[ai])
        ok = orig[left[ai]] != orig[rset[bi]]
        if same_set:
            ok &= ai < bi
        ai, bi = ai[ok], bi[ok]
        pick = rng.choice(ai.size, size=min(n, ai.size), replace=False)
        return left[ai[pick]], rset[bi[pick]], total
    cum = np.cumsum(w)
    keys_all = np.zeros(0, np.int64)
    size = max(left.size, rset.size)
    while True:
        m = 2 * n + 64
        ai = np.searchsorted(cum, rng.integers(0, ordered, size=m), side="right")
        r = rng.integers(0, w[ai])
        bi = np.where(r < lo[ai], r, r + (hi - lo)[ai])
        ok = orig[left[ai]] != orig[rset[bi]]
        ai, bi = ai[ok], bi[ok]
        if same_set:
            ai, bi = np.minimum(ai, bi), np.maximum(ai, bi)
        keys_all = np.concatenate([keys_all, ai * size + bi])
        sel = _first_distinct(keys_all, n)
        if sel.size >= n:
            k = keys_all[sel]
            return left[k // size], rset[k % size], total


# ============================================================================ the attack
@dataclass(frozen=True, eq=False)
class SignatureAttackResult:
    """The ad-hoc signature attack's decisions on a set of pairs (seed 004 Table 3.1).

    ``declared[r]`` is True when pair r was declared identical; ``applicable[r]`` when both
    nodes are attacker-marked 1-hop nodes with a long enough signature (otherwise the attack
    says nothing and the pair counts as declared non-identical).  ``success_identical`` is the
    fraction of identical pairs declared identical (per case in ``by_case``);
    ``success_non_identical`` the fraction of non-identical pairs declared non-identical.
    """

    declared: np.ndarray
    applicable: np.ndarray
    success_identical: float
    success_non_identical: float
    by_case: dict[str, dict[str, float]]
    n_identical: int
    n_non_identical: int
    ambiguous_egonets: int
    parameters: dict[str, Any] = field(default_factory=dict)

    def table_row(self) -> dict[str, float]:
        """Table 3.1's two columns, in percent."""
        return {
            "identical": 100.0 * self.success_identical,
            "non-identical": 100.0 * self.success_non_identical,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "parameters": dict(self.parameters),
            "success_identical": self.success_identical,
            "success_non_identical": self.success_non_identical,
            "by_case": {k: dict(v) for k, v in self.by_case.items()},
            "n_identical": self.n_identical,
            "n_non_identical": self.n_non_identical,
            "applicable": int(self.applicable.sum()),
            "ambiguous_egonets": self.ambiguous_egonets,
        }


def signature_attack(
    release: EgonetRelease,
    pairs: LinkagePairs,
    *,
    min_signature_length: int = 7,
    degree_scope: DegreeScope = "local",
    ego_policy: EgoPolicy = "any",
) -> SignatureAttackResult:
    """Run the ad-hoc signature attack on ``pairs`` and score it like Table 3.1.

    Seed 004 §2.4 (thesis §3.2.3): per egonet the attacker finds the ego
    (:func:`find_ego`), marks the 1-hop nodes (:func:`attacker_one_hop`), and declares two
    marked nodes in different egonets identical iff their signatures
    (:func:`node_signatures`) are equal and have ≥ ``min_signature_length`` entries (7 =
    degree > 5).  Only the released graphs are used; the truth only scores the decisions.
    O(signature cost of the nodes in ``pairs`` + ego detection of the egonets touched).
    """
    scope = _check_scope(degree_scope)
    policy = _check_policy(ego_policy)
    min_len = _check_int(min_signature_length, "min_signature_length", 1, "a signature length")
    book: dict[bytes, int] = {}
    cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    ego_idx = np.concatenate([pairs.ego_a, pairs.ego_b]).astype(np.int64)
    node_idx = np.concatenate([pairs.node_a, pairs.node_b]).astype(np.int64)
    if ego_idx.size and (ego_idx.min() < 0 or ego_idx.max() >= release.n_egonets):
        raise InputError("pairs name egonets outside this release; sample them from it")
    codes, _ = _signature_codes(release, ego_idx, node_idx, scope, min_len, policy, book, cache)
    ca, cb = codes[: len(pairs)], codes[len(pairs) :]
    applicable = (ca >= 0) & (cb >= 0)
    declared = applicable & (ca == cb)
    ident = pairs.label == 1
    non = ~ident
    by_case = {}
    for c in (1, 2, 3):
        sel = ident & (pairs.case == c)
        if sel.any():
            by_case[CASE_NAMES[c]] = {
                "pairs": int(sel.sum()),
                "success": float(declared[sel].mean()),
                "applicable": float(applicable[sel].mean()),
            }
    ambiguous = sum(1 for cands, _ in cache.values() if cands.size != 1)
    params = {
        "min_signature_length": min_len,
        "degree_scope": scope,
        "ego_policy": policy,
        "scheme": release.scheme,
        "egonets_touched": len(cache),
        "distinct_signatures": len(book),
    }
    return SignatureAttackResult(
        declared, applicable,
        float(declared[ident].mean()) if ident.any() else math.nan,
        float((~declared[non]).mean()) if non.any() else math.nan,
        by_case, int(ident.sum()), int(non.sum()), ambiguous, params,
    )  # fmt: skip


@dataclass(frozen=True, eq=False)
class SignatureMatches:
    """Every cross-egonet link the signature attack declares on a whole release.

    Arrays as in :class:`LinkagePairs` (``correct`` = the truth says identical).
    ``precision`` = correct / declared; ``recall`` = correct / all Case 1 identical pairs
    between attacker-marked nodes with long enough signatures (``reachable``).
    """

    ego_a: np.ndarray
    node_a: np.ndarray
    ego_b: np.ndarray
    node_b: np.ndarray
    correct: np.ndarray
    precision: float
    recall: float
    reachable: int
    parameters: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "parameters": dict(self.parameters),
            "declared": int(self.correct.size),
            "correct": int(self.correct.sum()),
            "precision": self.precision,
            "recall": self.recall,
            "reachable": self.reachable,
        }


def signature_matches(
    release: EgonetRelease,
    *,
    min_signature_length: int = 7,
    degree_scope: DegreeScope = "local",
    ego_policy: EgoPolicy = "any",
    max_links: int = 5_000_000,
) -> SignatureMatches:
    """The signature attack in bulk: link every pair of attacker-marked 1-hop nodes in
    different egonets whose (long enough) signatures are equal.

    Seed 004 §2.4.  Signatures are grouped by exact value; InputError if more than
    ``max_links`` links would be declared (lower the release size or raise the minimum
    length).  O(signatures of all marked nodes + declared links).
    """
    scope = _check_scope(degree_scope)
    policy = _check_policy(ego_policy)
    min_len = _check_int(min_signature_length, "min_signature_length", 1, "a signature length")
    eg = release.appearance_egonet()
    local = np.arange(release.n_appearances) - release.offsets[eg]
    book: dict[bytes, int] = {}
    cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    codes, marked = _signature_codes(release, eg, local, scope, min_len, policy, book, cache)
    use = np.flatnonzero(codes >= 0)
    order, starts, sizes = _groups(codes[use])
    srt = use[order]
    n_links = int(np.sum(sizes * (sizes - 1) // 2))
    if n_links > max_links:
        raise InputError(
            f"{n_links} links would be declared (more than max_links = {max_links}); raise "
            "min_signature_length or max_links"
        )
    a_list, b_list = [], []
    for s, k in zip(starts[sizes > 1], sizes[sizes > 1], strict=True):
        i, j = np.triu_indices(int(k), 1)
        a_list.append(srt[s + i])
        b_list.append(srt[s + j])
    pa = np.concatenate(a_list) if a_list else np.zeros(0, np.int64)
    pb = np.concatenate(b_list) if b_list else np.zeros(0, np.int64)
    cross = eg[pa] != eg[pb]
    pa, pb = pa[cross], pb[cross]
    correct = release.original[pa] == release.original[pb]
    # reachable: same original node, both usable appearances
    _, _, gs = _groups(release.original[use])
    reachable = int(np.sum(gs * (gs - 1) // 2))
    params = {
        "min_signature_length": min_len,
        "degree_scope": scope,
        "ego_policy": policy,
        "scheme": release.scheme,
        "marked_appearances": int(marked.sum()),
        "usable_appearances": int(use.size),
    }
    return SignatureMatches(
        eg[pa], local[pa], eg[pb], local[pb], correct,
        float(correct.mean()) if correct.size else math.nan,
        float(correct.sum() / reachable) if reachable else math.nan,
        reachable, params,
    )  # fmt: skip


# ============================================================================ features
def egonet_node_histograms(
    release: EgonetRelease,
    ego_idx: Any,
    node_idx: Any,
    n_bins: int = 70,
    bin_width: int = 15,
) -> tuple[np.ndarray, np.ndarray]:
    """1-hop neighbour-degree histograms inside the egonet, and the node's own degree.

    Seed 004 §2.7 (thesis §3.3.3, L622–633) with the Chapter 3 egonet setting n = 70,
    b = 15: c_i counts the neighbours whose degree d (inside the released egonet) satisfies
    i·b < d ≤ (i+1)·b; degrees above n·b go into the last bin.  Returns ``(hist, degree)``:
    an (len × n_bins) int32 array and the (len,) int32 degree of each node inside its
    egonet.  Vectorized per egonet; O(Σ degrees of the nodes + k_i per egonet touched).
    """
    n_bins = _check_int(n_bins, "n_bins", 1, "the number of histogram bins (seed: 70)")
    bin_width = _check_int(bin_width, "bin_width", 1, "the bin width (seed: 15)")
    eg = np.asarray(ego_idx, dtype=np.int64).reshape(-1)
    nd = np.asarray(node_idx, dtype=np.int64).reshape(-1)
    if eg.shape != nd.shape:
        raise InputError(f"ego_idx has {eg.size} entries but node_idx has {nd.size}")
    hist = np.zeros((eg.size, n_bins), dtype=np.int32)
    degree = np.zeros(eg.size, dtype=np.int32)
    if eg.size == 0:
        return hist, degree
    if eg.min() < 0 or eg.max() >= release.n_egonets:
        raise InputError(f"ego_idx must lie in 0..{release.n_egonets - 1} (egonet indices)")
    sizes = release.sizes()
    if np.any(nd < 0) or np.any(nd >= sizes[eg]):
        bad = int(np.flatnonzero((nd < 0) | (nd >= sizes[eg]))[0])
        raise InputError(
            f"node_idx[{bad}] = {nd[bad]} is not a node of egonet {eg[bad]} "
            f"({sizes[eg[bad]]} nodes)"
        )
    order = np.argsort(eg, kind="stable")
    es = eg[order]
    starts = np.flatnonzero(np.r_[True, es[1:] != es[:-1]])
    for s, e in zip(starts, np.r_[starts[1:], es.size], strict=True):
        rows = order[s:e]
        g = release.graphs[int(es[s])]
        deg = g.degrees()
        v = nd[rows]
        nb, owner = _gather_rows(g.indptr, g.indices, v, with_position=True)
        b = degree_bins(deg[nb], n_bins, bin_width)  # the learned features' binning
        flat = np.bincount(owner * n_bins + b, minlength=v.size * n_bins)
        hist[rows] = flat.reshape(v.size, n_bins)
        degree[rows] = deg[v]
    return hist, degree


# ============================================================================ helpers
def _gather_rows(indptr, indices, rows, *, with_position: bool = False):
    """Concatenated CSR rows ``rows``: (neighbours, owner), owner = the row's node id or,
    with ``with_position``, its position in ``rows``.  O(Σ row lengths)."""
    rows = np.asarray(rows, dtype=np.int64)
    starts = indptr[rows]
    lens = indptr[rows + 1] - starts
    total = int(lens.sum())
    shift = np.repeat(starts - (np.cumsum(lens) - lens), lens)
    nb = indices[shift + np.arange(total)]
    owner = np.repeat(np.arange(rows.size) if with_position else rows, lens)
    return nb, owner


def _closed_adjacency(graph: Graph):
    n = graph.n_nodes
    data = np.ones(graph.indices.size, dtype=np.int32)
    a = sparse.csr_array((data, graph.indices, graph.indptr), shape=(n, n))
    return (a + sparse.identity(n, dtype=np.int32, format="csr")).tocsr()


def _csr_lookup(m, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """m[rows[t], cols[t]] for a CSR matrix with sorted indices (0 where absent)."""
    out = np.zeros(rows.size, dtype=np.int64)
    if rows.size == 0:
        return out
    # key search inside each row: global position = indptr[row] + searchsorted in the row
    keys = rows.astype(np.int64) * (m.shape[1] + 1) + cols
    rr = np.repeat(np.arange(m.shape[0], dtype=np.int64), np.diff(m.indptr))
    all_keys = rr * (m.shape[1] + 1) + m.indices
    pos = np.searchsorted(all_keys, keys)
    pos_c = np.minimum(pos, max(all_keys.size - 1, 0))
    hit = (pos < all_keys.size) & (all_keys[pos_c] == keys)
    out[hit] = m.data[pos_c[hit]]
    return out


def _check_nodes(g: Graph, nodes: Any) -> np.ndarray:
    v = np.asarray(nodes, dtype=np.int64).reshape(-1)
    if v.size and (v.min() < 0 or v.max() >= g.n_nodes):
        raise InputError(f"nodes must lie in 0..{g.n_nodes - 1}")
    return v


def _check_scope(scope: Any) -> DegreeScope:
    if scope not in ("local", "egonet"):
        raise ConfigError(f"degree_scope = {scope!r}: give 'local' (invariant) or 'egonet'")
    return scope


def _check_policy(policy: Any) -> EgoPolicy:
    if policy not in ("all", "any"):
        raise ConfigError(
            f"ego_policy = {policy!r}: give 'all' (nodes adjacent to every ego candidate) or "
            "'any' (adjacent to some candidate)"
        )
    return policy


def _check_scheme(scheme: Any) -> int:
    if isinstance(scheme, bool) or scheme not in (1, 2):
        raise ConfigError(
            f"scheme = {scheme!r}: give 1 (D4D Scheme 1, all edges kept) or 2 (edges between "
            "2-hop nodes deleted)"
        )
    return int(scheme)


def _check_int(value: Any, name: str, low: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < low:
        raise ConfigError(f"{name} = {value!r}: give {what}, an integer ≥ {low}")
    return int(value)


__all__ = [
    "CASE_NAMES",
    "DEFAULT_MIN_SIZE",
    "EgonetRelease",
    "LinkagePairs",
    "SignatureAttackResult",
    "SignatureMatches",
    "attacker_hops",
    "attacker_one_hop",
    "egonet_node_histograms",
    "egonet_release",
    "find_ego",
    "node_signatures",
    "sample_linkage_pairs",
    "signature_attack",
    "signature_matches",
    "two_hop_sizes",
]
