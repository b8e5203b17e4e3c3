"""The signature (colour-refinement) attack on a union of two safe groupings.

Sources: seed 001 §2.3, last part ("Unions of groupings", dissertation §4.5, L5323–5420) and
§3.3 (Fig. 4.9), after Cormode, Srivastava, Yu & Zhang, "Anonymizing bipartite graph data
using safe groupings" (VLDB 2008); docs/graph/active-attack.md.

A safe (k, 1)-grouping of a bipartite graph (authors grouped, papers exact) and a safe
(1, ℓ)-grouping (authors exact, papers grouped) are each private on their own
(:mod:`privlab.graph.anonymize.grouping`).  Published together they are two isomorphic
copies of the same graph, one with the authors exact and one with the papers exact, and
whoever matches a node between the copies learns its associations: "If an author has written
more papers than any other, she can be identified from the (1, ℓ) graph.  From its unique
degree, the same node can be located in the (k, 1)-grouped graph, revealing all the papers
written by that author."

Signatures (colour refinement, 1-dimensional Weisfeiler–Leman): every node starts with
signature 0; the next signature of a node is its current signature followed by the sorted
list of its neighbours' signatures, relabelled compactly (at most n distinct values).  The
procedure is deterministic and isomorphism-invariant, so a node whose signature no other node
shares is matched to the unique node with that signature in every isomorphic copy (one way
only: a shared signature does not mean the nodes cannot be told apart).  The signatures of
both copies are computed on their disjoint union, so they are comparable.

Choices (docs/graph/active-attack.md): the two sides of the bipartite graph are public (an
author is never a paper), so the initial signature is the side, 0 or 1.  The attacker also
holds the group tables of both releases, so by default (``use_groups=True``) a node starts
with its side *and its group*: an author's (k, 1)-group is known in the (k, 1) copy from the
masked-id → group table and in the (1, ℓ) copy from the author → group table, likewise a
paper's (1, ℓ)-group.  ``use_groups=False`` is the dissertation's structure-only attack
(as on an (m, 1) ∪ (1, n) release, where the groups say nothing).  Besides the uniquely
matched nodes the attack counts the *revealed edges*: if every (k, 1)-copy author of the
class of author v is adjacent to exact paper w, then (v, w) holds in every isomorphism
(v's possible images all lie in its class); symmetrically through the (1, ℓ) copy.  This
includes every edge at a uniquely matched node and, e.g., twin co-authors.

Vectorized refinement: a round replaces the sorted neighbour list by two 64-bit multiset
hashes (Σ over neighbours of a random 64-bit word per signature, modulo 2^64), keyed with
the current signature and relabelled by one lexsort; O(m + n log n) per round, at most n
rounds, usually a handful.  A hash collision can only merge classes, and the hashed
signature is still a deterministic function of the node's isomorphism class, so uniqueness
claims stay sound; :func:`colour_refinement_reference` is the literal tuple-sorting
procedure, and the two give the same partition in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.noise import secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.grouping import Bipartite, GroupedGraph, safe_grouping
from privlab.graph.core import Graph, as_graph

_HASH_SEED = 0x5EED_C010  # fixed: the hash words only need to be independent of the graph


# ============================================================================ refinement
@dataclass(frozen=True)
class Refinement:
    """Signatures after each round: ``history[0]`` is the initial colouring, ``colours`` the
    last.  ``stable`` when the last round split no class (further rounds change nothing)."""

    colours: np.ndarray
    history: list[np.ndarray]
    n_classes: list[int]
    stable: bool

    @property
    def rounds(self) -> int:
        return len(self.history) - 1


def _compact(*keys: np.ndarray) -> np.ndarray:
    """Relabel rows of equal keys 0..c−1, in lexicographic order of the keys."""
    n = keys[0].size
    if n == 0:
        return np.empty(0, dtype=np.int64)
    order = np.lexsort(keys[::-1])
    new = np.zeros(n, dtype=bool)
    for key in keys:
        s = key[order]
        new[1:] |= s[1:] != s[:-1]
    out = np.empty(n, dtype=np.int64)
    out[order] = np.cumsum(new)
    return out


def _initial(n: int, initial: Any) -> np.ndarray:
    if initial is None:
        return np.zeros(n, dtype=np.int64)
    init = np.asarray(initial)
    if init.shape != (n,):
        raise InputError(f"initial: {init.shape} colours given for {n} nodes; give one per node")
    return _compact(np.unique(init, return_inverse=True)[1].reshape(-1).astype(np.int64))


def colour_refinement(
    graph: Graph, initial: Any = None, *, max_rounds: int | None = None
) -> Refinement:
    """Refine signatures until stable (or ``max_rounds``); vectorized, see the module doc.

    ``initial``: starting colours (any values, one per node; default all 0).  Undirected
    graphs only.  O((m + n log n) · rounds).
    """
    graph = as_graph(graph, "colour refinement", undirected=True)
    if max_rounds is not None and (int(max_rounds) != max_rounds or max_rounds < 0):
        raise ConfigError(f"max_rounds = {max_rounds!r}: give a number of rounds ≥ 0")
    n = graph.n_nodes
    col = _initial(n, initial)
    history = [col]
    counts = [int(col.max()) + 1 if n else 0]
    rng = np.random.Generator(np.random.PCG64(_HASH_SEED))
    stable = False
    rounds = 0
    while max_rounds is None or rounds < max_rounds:
        words = rng.integers(0, 2**64, size=(2, counts[-1]), dtype=np.uint64)
        hashes = []
        for w in words:
            cs = np.zeros(graph.indices.size + 1, dtype=np.uint64)
            np.cumsum(w[col[graph.indices]], out=cs[1:])
            hashes.append(cs[graph.indptr[1:]] - cs[graph.indptr[:-1]])
        new = _compact(col, *hashes)
        rounds += 1
        c = int(new.max()) + 1 if n else 0
        if c == counts[-1]:
            stable = True
            break
        col = new
        history.append(col)
        counts.append(c)
    return Refinement(col, history, counts, stable)


def colour_refinement_reference(
    graph: Graph, initial: Any = None, *, max_rounds: int | None = None
) -> Refinement:
    """The dissertation's procedure literally: (signature, sorted neighbour signatures) as
    tuples, relabelled compactly in sorted order.  O(m log m) per round in Python."""
    graph = as_graph(graph, "colour refinement", undirected=True)
    n = graph.n_nodes
    col = _initial(n, initial).tolist()
    history = [np.asarray(col, dtype=np.int64)]
    counts = [len(set(col))]
    stable = False
    rounds = 0
    while max_rounds is None or rounds < max_rounds:
        sig = [
            (col[v], tuple(sorted(col[u] for u in graph.neighbors(v).tolist()))) for v in range(n)
        ]
        index = {s: i for i, s in enumerate(sorted(set(sig)))}
        new = [index[s] for s in sig]
        rounds += 1
        if len(index) == counts[-1]:
            stable = True
            break
        col = new
        history.append(np.asarray(col, dtype=np.int64))
        counts.append(len(index))
    return Refinement(np.asarray(col, dtype=np.int64), history, counts, stable)


def same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two colourings split the nodes into the same classes."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    pairs = _compact(a, b)
    return bool(np.unique(pairs).size == np.unique(a).size == np.unique(b).size)


def match_by_signatures(
    g1: Graph,
    g2: Graph,
    initial1: Any = None,
    initial2: Any = None,
    *,
    max_rounds: int | None = None,
) -> tuple[np.ndarray, Refinement]:
    """Nodes of g1 matched to g2 by unique signatures, computed on the disjoint union.

    Returns ``(match, refinement)``: ``match[v]`` is the g2 node with v's signature when
    that signature occurs exactly once in each graph, else −1; ``refinement`` covers the
    union (g1's nodes first).  Initial colours of both graphs share one vocabulary.
    """
    g1, g2 = as_graph(g1, "g1"), as_graph(g2, "g2")
    n1, n2 = g1.n_nodes, g2.n_nodes
    e = np.concatenate([g1.edges(), g2.edges() + n1])
    union = Graph.from_edges(n1 + n2, e)
    if initial1 is None and initial2 is None:
        init = None
    else:
        i1 = np.zeros(n1, dtype=np.int64) if initial1 is None else np.asarray(initial1)
        i2 = np.zeros(n2, dtype=np.int64) if initial2 is None else np.asarray(initial2)
        if i1.shape != (n1,) or i2.shape != (n2,):
            raise InputError("initial1/initial2: give one colour per node of each graph")
        init = np.concatenate([i1, i2])
    ref = colour_refinement(union, init, max_rounds=max_rounds)
    return _unique_match(ref.colours[:n1], ref.colours[n1:]), ref


def _unique_match(c1: np.ndarray, c2: np.ndarray) -> np.ndarray:
    size = int(max(c1.max(initial=-1), c2.max(initial=-1))) + 1
    cnt1 = np.bincount(c1, minlength=size)
    cnt2 = np.bincount(c2, minlength=size)
    where2 = np.full(size, -1, dtype=np.int64)
    where2[c2] = np.arange(c2.size)
    ok = (cnt1[c1] == 1) & (cnt2[c1] == 1)
    return np.where(ok, where2[c1], -1)


# ============================================================================ the attack
@dataclass(frozen=True)
class UnionAttackResult:
    """What matching a (k, 1) and a (1, ℓ) release by signatures exposes.

    ``left_identified`` / ``right_identified``: nodes matched uniquely between the copies
    (all correct: ``left_correct`` / ``right_correct`` check it against the secret masks).
    ``edges_revealed``: associations certain in every isomorphism (``edges_wrong`` counts
    any that is not a true edge — always 0).  ``left_class_sizes[s]``: authors whose class
    has s members per copy (``s = 1`` are the unique ones; Fig. 4.9 plots the cumulative
    fraction).  ``left_unique_by_round[r]``: authors unique after r rounds.
    """

    k: int
    ell: int
    use_groups: bool
    n_left: int
    n_right: int
    n_edges: int
    left_identified: int
    right_identified: int
    left_correct: int
    right_correct: int
    edges_revealed: int
    edges_wrong: int
    rounds: int
    left_unique_by_round: list[int]
    right_unique_by_round: list[int]
    left_class_sizes: dict[int, int]
    right_class_sizes: dict[int, int]
    left_match: np.ndarray
    right_match: np.ndarray

    def cumulative_left(self, sizes: tuple[int, ...] = (1, 2, 3, 4, 5, 10)) -> dict[int, float]:
        """Fraction of authors in signature classes of size ≤ s (Fig. 4.9's curve)."""
        total = max(self.n_left, 1)
        return {
            s: sum(c for size, c in self.left_class_sizes.items() if size <= s) / total
            for s in sizes
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "l": self.ell,
            "use_groups": self.use_groups,
            "left_nodes": self.n_left,
            "right_nodes": self.n_right,
            "edges": self.n_edges,
            "left_identified": self.left_identified,
            "right_identified": self.right_identified,
            "left_identified_fraction": self.left_identified / max(self.n_left, 1),
            "right_identified_fraction": self.right_identified / max(self.n_right, 1),
            "left_correct": self.left_correct,
            "right_correct": self.right_correct,
            "edges_revealed": self.edges_revealed,
            "edges_revealed_fraction": self.edges_revealed / max(self.n_edges, 1),
            "edges_wrong": self.edges_wrong,
            "rounds": self.rounds,
            "left_unique_by_round": list(self.left_unique_by_round),
            "right_unique_by_round": list(self.right_unique_by_round),
            "left_cumulative": {str(s): f for s, f in self.cumulative_left().items()},
        }


def union_of_groupings_attack(
    bipartite: Bipartite,
    k: int,
    ell: int,
    *,
    seed: Any = None,
    use_groups: bool = True,
    max_rounds: int | None = None,
) -> UnionAttackResult:
    """Publish a safe (k, 1) and a safe (1, ℓ) grouping of ``bipartite``; attack the pair.

    Both groupings come from :func:`~privlab.graph.anonymize.grouping.safe_grouping` (its
    errors — k or ℓ too large, density above 1/max(k, ℓ) — pass through).  The attacker
    sees only the two publications (masked edges and group tables); the secret masks are
    used afterwards to check every claim.  O(m log m) per refinement round.
    """
    rng = secure_generator(seed)
    rel_a = safe_grouping(bipartite, k, 1, seed=rng)  # authors grouped, papers exact
    rel_b = safe_grouping(bipartite, 1, ell, seed=rng)  # authors exact, papers grouped
    return attack_union(rel_a, rel_b, use_groups=use_groups, max_rounds=max_rounds)


def attack_union(
    rel_a: GroupedGraph,
    rel_b: GroupedGraph,
    *,
    use_groups: bool = True,
    max_rounds: int | None = None,
) -> UnionAttackResult:
    """The signature attack on a published (k, 1)-grouping ``rel_a`` and (1, ℓ)-grouping
    ``rel_b`` of the same bipartite graph (see :func:`union_of_groupings_attack`)."""
    g = rel_a.graph
    if rel_b.graph is not g and not (
        rel_b.graph.n_left == g.n_left
        and rel_b.graph.n_right == g.n_right
        and np.array_equal(rel_b.graph.edges, g.edges)
    ):
        raise InputError("rel_a and rel_b must be groupings of the same bipartite graph")
    if rel_a.ell != 1 or rel_b.k != 1:
        raise ConfigError(
            f"rel_a must be a (k, 1)-grouping and rel_b a (1, l)-grouping; got "
            f"({rel_a.k}, {rel_a.ell}) and ({rel_b.k}, {rel_b.ell})"
        )
    m, n = g.n_left, g.n_right
    # ---- what the attacker reads from the two publications
    a_edges = rel_a.masked_edges()  # (masked author, masked paper) of copy A
    b_edges = rel_b.masked_edges()
    a_left_group = _by_mask(rel_a.left_mask, rel_a.left_groups)  # R_V of A
    b_right_group = _by_mask(rel_b.right_mask, rel_b.right_groups)  # R_W of B
    # exact sides: a singleton group names the node (H⁻¹ ∘ R)
    a_right_node = _exact_side(rel_a.right_mask, rel_a.right_groups)  # masked paper -> paper
    b_left_node = _exact_side(rel_b.left_mask, rel_b.left_groups)  # masked author -> author
    # ---- the disjoint union A_left | A_right | B_left | B_right
    off = np.array([0, m, m + n, 2 * m + n])
    edges = np.concatenate(
        [
            np.stack([a_edges[:, 0] + off[0], a_edges[:, 1] + off[1]], axis=1),
            np.stack([b_edges[:, 0] + off[2], b_edges[:, 1] + off[3]], axis=1),
        ]
    )
    union = Graph.from_edges(2 * (m + n), edges)
    side = np.concatenate([np.zeros(m), np.ones(n), np.zeros(m), np.ones(n)]).astype(np.int64)
    if use_groups:
        group = np.concatenate(
            [
                a_left_group,  # A's masked authors: their (k,1) group from R_V
                rel_b.right_groups[a_right_node],  # A's exact papers: their (1,l) group, H_W
                rel_a.left_groups[b_left_node],  # B's exact authors: their (k,1) group, H_V
                b_right_group,  # B's masked papers: their (1,l) group from R_W
            ]
        )
        init = _compact(side, group)
    else:
        init = side
    ref = colour_refinement(union, init, max_rounds=max_rounds)
    col = ref.colours
    # ---- unique matches between the copies, per round
    left_by_round, right_by_round = [], []
    for c in ref.history:
        left_by_round.append(int((_unique_match(c[: off[1]], c[off[2] : off[3]]) >= 0).sum()))
        right_by_round.append(int((_unique_match(c[off[1] : off[2]], c[off[3] :]) >= 0).sum()))
    left_match = _unique_match(col[: off[1]], col[off[2] : off[3]])  # A author -> B author
    right_match = _unique_match(col[off[3] :], col[off[1] : off[2]])  # B paper -> A paper
    # ---- check against the secret: A masked author a is the author with left_mask == a
    a_true = np.empty(m, dtype=np.int64)
    a_true[rel_a.left_mask] = np.arange(m)
    b_true = np.empty(n, dtype=np.int64)
    b_true[rel_b.right_mask] = np.arange(n)
    hit_l = left_match >= 0
    left_correct = int(np.sum(b_left_node[left_match[hit_l]] == a_true[hit_l]))
    hit_r = right_match >= 0
    right_correct = int(np.sum(a_right_node[right_match[hit_r]] == b_true[hit_r]))
    # ---- revealed associations
    revealed = _revealed_edges(
        col[: off[1]], a_edges, a_right_node, col[off[2] : off[3]], b_left_node
    )
    revealed_b = _revealed_edges(
        col[off[3] :], b_edges[:, ::-1], b_left_node, col[off[1] : off[2]], a_right_node
    )[:, ::-1]
    pairs = np.unique(np.concatenate([revealed, revealed_b]), axis=0)
    true_keys = g.edges[:, 0] * n + g.edges[:, 1]
    wrong = int(np.sum(~np.isin(pairs[:, 0] * n + pairs[:, 1], true_keys)))
    return UnionAttackResult(
        rel_a.k, rel_b.ell, bool(use_groups), m, n, g.n_edges,
        int(hit_l.sum()), int(hit_r.sum()), left_correct, right_correct,
        int(pairs.shape[0]), wrong, ref.rounds, left_by_round, right_by_round,
        _class_sizes(col[: off[1]]), _class_sizes(col[off[1] : off[2]]),
        left_match, right_match,
    )  # fmt: skip


def _by_mask(mask: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """The masked-id → group table R from node → mask and node → group."""
    out = np.empty(mask.size, dtype=np.int64)
    out[mask] = groups
    return out


def _exact_side(mask: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """masked id → node on a side grouped with group size 1 (each group names one node)."""
    node_of_group = np.full(int(groups.max(initial=-1)) + 1, -1, dtype=np.int64)
    if np.bincount(groups).max(initial=1) != 1:
        raise ConfigError("the exact side of a (k, 1) / (1, l) grouping must have groups of 1")
    node_of_group[groups] = np.arange(groups.size)
    return node_of_group[_by_mask(mask, groups)]


def _revealed_edges(
    masked_col: np.ndarray,
    edges: np.ndarray,
    exact_node: np.ndarray,
    exact_col: np.ndarray,
    exact_ids: np.ndarray,
) -> np.ndarray:
    """(node, exact neighbour) pairs certain in every isomorphism.

    In the copy where side X is masked and side Y exact: if all c members of signature class
    C (on X) are adjacent to the exact node y, then every X node of class C — named in the
    other copy, where X is exact — is adjacent to y.
    """
    if edges.shape[0] == 0:
        return np.empty((0, 2), dtype=np.int64)
    size = int(max(masked_col.max(), exact_col.max())) + 1
    class_size = np.bincount(masked_col, minlength=size)
    cls = masked_col[edges[:, 0]]
    y = exact_node[edges[:, 1]]
    ny = int(exact_node.max()) + 1
    keys, counts = np.unique(cls * ny + y, return_counts=True)
    full = keys[counts == class_size[keys // ny]]
    if full.size == 0:
        return np.empty((0, 2), dtype=np.int64)
    full_cls, full_y = full // ny, full % ny
    # X nodes per class, named through the exact copy
    order = np.argsort(exact_col, kind="stable")
    starts = np.searchsorted(exact_col[order], full_cls)
    cnt = class_size[full_cls]
    rows = np.repeat(np.arange(full.size), cnt)
    offs = np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt)
    xs = exact_ids[order[np.repeat(starts, cnt) + offs]]
    return np.stack([xs, full_y[rows]], axis=1)


def _class_sizes(colours: np.ndarray) -> dict[int, int]:
    """Nodes per class size: {s: number of nodes whose class has s members}."""
    sizes = np.bincount(colours)[colours]
    s, c = np.unique(sizes, return_counts=True)
    return {int(a): int(b) for a, b in zip(s, c, strict=True)}


__all__ = [
    "Refinement",
    "UnionAttackResult",
    "attack_union",
    "colour_refinement",
    "colour_refinement_reference",
    "match_by_signatures",
    "same_partition",
    "union_of_groupings_attack",
]
