"""Node signatures and the ad-hoc signature attack across egonets.

Source: seed 004 (Sharad, Cambridge TR-896), Chapter 3 — §2.4 (the ad-hoc signature attack,
thesis §3.2.3–3.2.4 L529–553) and §3.2 (Table 3.1, the signature attack's success).  The
user guide is docs/graph/egonet-linkage.md.

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

Complexity (k_i nodes in egonet i): signatures O(Σ_{v} Σ_{w ∈ N(v)} deg w) per egonet for the
nodes asked for; :func:`signature_attack` that for the nodes of the pairs plus the ego
detection of the egonets touched; :func:`signature_matches` that for all marked nodes plus
the declared links.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.graph.attacks.egonet._helpers import (
    DegreeScope,
    EgoPolicy,
    _check_nodes,
    _check_policy,
    _check_scope,
    _csr_lookup,
    _gather_rows,
    _groups,
)
from privlab.graph.attacks.egonet.attacker_view import attacker_one_hop, find_ego
from privlab.graph.attacks.egonet.linkage_pairs import CASE_NAMES, LinkagePairs
from privlab.graph.attacks.egonet.release import EgonetRelease
from privlab.graph.core import Graph
from privlab.validate import check_int


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
    min_len = check_int(min_signature_length, "min_signature_length", 1, "a signature length")
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
    min_len = check_int(min_signature_length, "min_signature_length", 1, "a signature length")
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


__all__ = [
    "SignatureAttackResult",
    "SignatureMatches",
    "node_signatures",
    "signature_attack",
    "signature_matches",
]
