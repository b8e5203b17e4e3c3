"""The attacker's view of one released egonet: the ego candidates, the 1-hop nodes, the hops.

Source: seed 004 (Sharad, Cambridge TR-896), Chapter 3 — §2.4 (the ad-hoc signature attack's
ego detection, thesis §3.2.3–3.2.4 L529–553).  The user guide is docs/graph/egonet-linkage.md.

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

Complexity (k nodes, m edges in the egonet): :func:`find_ego` O(k + Σ over candidate rows of
their 2-hop work) — a cheap upper bound (1 + deg v + Σ_{u ∈ N(v)} deg u ≥ k) filters
candidates before the sparse product; :func:`attacker_one_hop` O(k + Σ_c deg c);
:func:`attacker_hops` O(k + m).
"""

from __future__ import annotations

import numpy as np

from privlab.graph.attacks.egonet._helpers import (
    _ROW_CHUNK,
    EgoPolicy,
    _check_policy,
    _closed_adjacency,
    _gather_rows,
)
from privlab.graph.core import Graph


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


__all__ = ["attacker_hops", "attacker_one_hop", "find_ego"]
