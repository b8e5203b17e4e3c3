"""The passive (coalition) attack on naively anonymized graphs (Backstrom, Dwork & Kleinberg).

Sources: seed 000 §2.10 (thesis §8.9: "an existing coalition locates itself; only its
neighbours can be re-identified"; "a moderately sized coalition can locate itself uniquely")
after Backstrom, Dwork & Kleinberg, "Wherefore art thou R3579X?" (WWW 2007) [BDK07], whose
passive attack this module follows: no account is created; k users who already know each
other collude.

1. **The coalition** (:func:`coalition`): x_1 is a uniformly random node of a connected
   component with at least k nodes, and each further
   member a uniformly random neighbour of the members so far (so G[X] is connected; BDK07
   grow their coalitions the same way).  The coalition knows its internal edges, each
   member's full degree, and which of its members each outside friend is linked to.
2. **Finding itself** in the naive release: the search tree of the walk-based attack
   (:func:`privlab.graph.attacks.active.search_tree`), with member i grown from the member
   it joined through (``parents[i]``) instead of from x_{i−1}: a unique complete sequence
   locates X and labels every member.
3. **Re-identifying neighbours**: an outside node w is re-identified when its set of
   coalition friends S_w = N(w) ∩ X is shared by no other outside node of the release
   (the coalition knows S_w for each of its friends).  Only neighbours of X can be reached,
   the limit the thesis stresses.

Unlike the active attack, the coalition's structure is not designed to be unique: it is
whatever the friendships are, so success depends on k and on the graph (small coalitions of
typical-degree users are ambiguous; larger ones almost always unique).

Complexity: as the walk-based search (module :mod:`~privlab.graph.attacks.active`), plus
O(Σ_{x∈X} deg x) to group the neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.dp.noise import secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.naive import naive_anonymize
from privlab.graph.attacks.active import DEFAULT_MAX_TREE, search_tree
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_int


@dataclass(frozen=True)
class Coalition:
    """k colluding users: ``members[i]`` (ids in the original), ``parents[i]`` the index of
    the member x_{i+1} joined through (−1 for x_1), what they know (``degrees``, the k × k
    ``internal`` adjacency) and their outside friends with the members each is linked to."""

    members: np.ndarray
    parents: np.ndarray
    degrees: np.ndarray
    internal: np.ndarray

    @property
    def k(self) -> int:
        return int(self.members.size)


def coalition(graph: Graph, k: int, *, seed: Any = None) -> Coalition:
    """Grow a connected coalition of ``k`` users (module docstring, step 1).  O(k·Δ)."""
    graph = as_graph(graph, "the passive attack", undirected=True)
    k = check_int(k, "k", 2, "the coalition size")
    rng = secure_generator(seed)
    n = graph.n_nodes
    if k > n:
        raise InputError(f"k = {k}: the graph has only {n} nodes")
    deg = graph.degrees()
    if not (deg > 0).any():
        raise InputError("the graph has no edges: a coalition of friends cannot form")
    from scipy.sparse.csgraph import connected_components

    _, comp = connected_components(graph.to_scipy(), directed=False)
    big = np.bincount(comp)[comp] >= k  # x_1 in a component that can hold the coalition
    if not big.any():
        raise InputError(
            f"k = {k}: the largest connected component has {int(np.bincount(comp).max())} "
            "nodes; give a smaller coalition"
        )
    start = rng.choice(np.flatnonzero(big))
    members, parents = [int(start)], [-1]
    index = {int(start): 0}
    for _ in range(1, k):
        # a uniformly random (member, outside neighbour) edge: each outside neighbour is
        # drawn in proportion to its number of coalition friends, as BDK07's growth
        edges = [(i, int(v)) for i, x in enumerate(members) for v in graph.neighbors(x).tolist()
                 if int(v) not in index]  # fmt: skip
        if not edges:
            raise InputError(
                f"k = {k}: the component of node {members[0]} has only {len(members)} nodes; "
                "give a smaller coalition"
            )
        i, v = edges[int(rng.integers(len(edges)))]
        index[v] = len(members)
        members.append(v)
        parents.append(i)
    m = np.asarray(members, dtype=np.int64)
    internal = np.zeros((k, k), dtype=bool)
    for i, x in enumerate(members):
        nb = graph.neighbors(x)
        internal[i] = np.isin(m, nb)
    return Coalition(m, np.asarray(parents, dtype=np.int64), deg[m].astype(np.int64), internal)


def neighbour_signatures(graph: Graph, members: np.ndarray) -> dict[tuple[int, ...], list[int]]:
    """Outside nodes grouped by their set of coalition friends (member indices).  O(Σ deg)."""
    inside = {int(x): i for i, x in enumerate(members.tolist())}
    sets: dict[int, list[int]] = {}
    for i, x in enumerate(members.tolist()):
        for v in graph.neighbors(x).tolist():
            if v not in inside:
                sets.setdefault(int(v), []).append(i)
    by: dict[tuple[int, ...], list[int]] = {}
    for v, s in sets.items():
        by.setdefault(tuple(sorted(s)), []).append(v)
    return by


def _pattern(signatures: dict[tuple[int, ...], list[int]]) -> dict[tuple[int, ...], int]:
    return {sig: len(nodes) for sig, nodes in signatures.items()}


def _mask_pattern(graph: Graph, members: np.ndarray) -> tuple[tuple[int, int], ...]:
    """The coalition's friend-set pattern as sorted (bitmask of members, count) pairs: the
    vectorized form of :func:`_pattern` over :func:`neighbour_signatures` (k ≤ 62).
    O(Σ_X deg · log)."""
    deg = graph.degrees()[members]
    ids = np.concatenate([graph.neighbors(int(x)) for x in members.tolist()])
    bits = np.repeat(np.left_shift(np.int64(1), np.arange(members.size, dtype=np.int64)), deg)
    out = ~np.isin(ids, members)
    ids, bits = ids[out], bits[out]
    nodes, inv = np.unique(ids, return_inverse=True)
    masks = np.zeros(nodes.size, dtype=np.int64)
    np.add.at(masks, inv, bits)  # each (node, member) pair once: the sum is the OR
    vals, counts = np.unique(masks, return_counts=True)
    return tuple(zip(vals.tolist(), counts.tolist(), strict=True))


@dataclass(frozen=True)
class PassiveAttackResult:
    """One run: coalition → naive release → search → neighbours, scored with the truth.

    ``status`` of the search (``unique``, ``ambiguous``, ``not_found``, ``tree_limit``);
    ``located_exactly``: the unique match is the coalition, member by member.  Of the
    coalition's ``neighbours`` (outside friends), ``reidentified`` have a set of coalition
    friends no other outside node has (in the release), ``correct`` of those are right.
    """

    n_nodes: int
    k: int
    status: str
    located_exactly: bool
    neighbours: int
    reidentified: int
    correct: int
    tree_size: int
    members: np.ndarray = field(repr=False)

    @property
    def success_rate(self) -> float:
        """Neighbours correctly re-identified / neighbours."""
        return self.correct / self.neighbours if self.neighbours else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_nodes": self.n_nodes,
            "k": self.k,
            "status": self.status,
            "located_exactly": self.located_exactly,
            "neighbours": self.neighbours,
            "reidentified": self.reidentified,
            "correct": self.correct,
            "success_rate": self.success_rate,
            "tree_size": self.tree_size,
        }


def passive_attack(
    graph: Graph,
    k: int,
    *,
    friend_sets: bool = True,
    seed: Any = None,
    max_tree: int = DEFAULT_MAX_TREE,
    max_filter: int = 2000,
) -> PassiveAttackResult:
    """A coalition of ``k`` forms, the graph is released naively, the coalition searches for
    itself and re-identifies its neighbours (module docstring).  ``friend_sets``: when the
    search leaves several matches, keep those whose outside nodes show the coalition's own
    pattern of friend sets (how many outside friends are linked to exactly each subset of
    members — knowledge the members pool; ``False``: BDK07's degrees and internal edges
    only; skipped, leaving the search ambiguous, above ``max_filter`` matches).  A failed
    search is a result (``status``), not an error.  Cost: the search tree, O(n + m) for the
    release, O(matches · Σ_X deg · log) for the friend-set filter."""
    graph = as_graph(graph, "the passive attack", undirected=True)
    rng = secure_generator(seed)
    c = coalition(graph, k, seed=rng)
    release = naive_anonymize(graph, seed=rng)  # mapping[release id] = original id
    frontier, _, tree_size, status = search_tree(
        release.graph, c.degrees, c.internal, c.parents, max_tree=max_tree
    )
    truth = neighbour_signatures(graph, c.members)
    n_nb = sum(len(v) for v in truth.values())
    if friend_sets and status == "ambiguous":
        pattern = _pattern(truth)
        keep = [
            row
            for row in frontier
            if _pattern(neighbour_signatures(release.graph, row.astype(np.int64))) == pattern
        ]
        frontier = np.asarray(keep).reshape(len(keep), c.k)
        status = "unique" if len(keep) == 1 else "ambiguous" if keep else "not_found"
    if status != "unique":
        return PassiveAttackResult(graph.n_nodes, c.k, status, False, n_nb, 0, 0, tree_size,
                                   c.members)  # fmt: skip
    found = frontier[0].astype(np.int64)
    exact = bool(np.array_equal(release.mapping[found], c.members))
    seen = neighbour_signatures(release.graph, found)
    unique = [(sig, nodes[0]) for sig, nodes in seen.items() if len(nodes) == 1]
    reid = len(unique)
    correct = sum(truth.get(sig) == [int(release.mapping[v])] for sig, v in unique)
    return PassiveAttackResult(graph.n_nodes, c.k, status, exact, n_nb, reid, correct,
                               tree_size, c.members)  # fmt: skip


def passive_success_vs_k(
    graph: Graph, ks: Any, *, trials: int = 10, friend_sets: bool = True, seed: Any = None,
    max_tree: int = DEFAULT_MAX_TREE,
) -> list[dict[str, Any]]:  # fmt: skip
    """BDK07's passive experiment: for each coalition size k, ``trials`` independent
    coalitions and releases; the fraction that locate themselves uniquely (and exactly) and
    the mean fraction of their neighbours re-identified correctly."""
    trials = check_int(trials, "trials", 1)
    graph = as_graph(graph, "the passive attack", undirected=True)
    rng = secure_generator(seed)
    rows = []
    for k in _check_ks(ks):
        runs = [passive_attack(graph, k, friend_sets=friend_sets, seed=rng, max_tree=max_tree)
                for _ in range(trials)]  # fmt: skip
        rows.append({
            "k": int(k), "trials": trials,
            "unique_rate": float(np.mean([r.status == "unique" for r in runs])),
            "located_exactly_rate": float(np.mean([r.located_exactly for r in runs])),
            "mean_neighbours": float(np.mean([r.neighbours for r in runs])),
            "success_rate": float(np.mean([r.success_rate for r in runs])),
            "statuses": {s: sum(r.status == s for r in runs) for s in {r.status for r in runs}},
        })  # fmt: skip
    return rows


def _check_ks(ks: Any) -> list[int]:
    try:
        out = [int(k) for k in ks]
    except (TypeError, ValueError):
        raise ConfigError(f"ks = {ks!r}: give coalition sizes ≥ 2") from None
    if not out or min(out) < 2:
        raise ConfigError(f"ks = {ks!r}: give coalition sizes ≥ 2")
    return out


__all__ = [
    "Coalition",
    "PassiveAttackResult",
    "coalition",
    "neighbour_signatures",
    "passive_attack",
    "passive_success_vs_k",
]
