"""Vertex refinement queries H_0, H_1, …, H* and the H_1 posterior under random perturbation.

Source: seed 002 Part A (Hay, Miklau, Jensen, Weis & Srivastava, *Anonymizing Social
Networks*, UMass TR 07-19, 2007): §A.2.2 candidate sets and K-candidate anonymity, §A.2.4
vertex refinement (L243–290), §A.2.6 the protocol and the buckets (L359–366, L420–424),
§A.2.8 possible worlds and candidate probabilities under perturbation (L516–580).

**Refinement.**  H_0(x) = ε for every node, H_1(x) = deg x, and H_i(x) is the multiset
{H_{i−1}(z) : z ~ x} — the node's own value is not included, but H_i(x) determines H_{i−1}(x)
(by induction), so every level refines the one before.  ≡_{H_i} partitions the nodes; the
candidate set of x under H_i is its class (Prop. 1), and the class sizes are the same in G
and in any naive anonymization of G.  H* is the fixed point, reached at the first level whose
partition has as many classes as the previous one (the *stable level*).

**Algorithm** (colour refinement on the changes only).  Round 1 splits the nodes by degree.
In round i, a class of H_{i−1} can only split if some member has a neighbour whose class
changed in round i−1, and two members of a class stay together iff the multisets L of the
*new* class ids of their changed neighbours are equal (the old multisets were equal, and new
ids are fresh).  So a round looks only at the neighbours of the nodes that moved: it gathers
(node, new id of moved neighbour) pairs, hashes each node's L (Σ splitmix64(id) mod 2^64),
groups the touched nodes by (class, |L|, hash) with one ``np.lexsort`` and then *verifies*
the grouping by comparing the sorted lists L entry by entry (a mismatch — a hash collision,
never observed — makes the round regroup by sorted tuples).  The partitions are therefore
exact.  Within a class that splits, the largest group keeps the class id and the other
groups get fresh ids, in a canonical order (class, untouched group first, then |L|, hash):
ids are isomorphism-invariant, so relabelling the graph permutes the ids' owners, never the
ids.  A node moves only into a group at most half the size of its class, so it moves at most
log₂ n times: the rounds gather O(m log n) pairs in all (Hopcroft's "smaller half"),
O(m log² n) time with the sorts, and each level is stored as the list of nodes that moved,
O(n log n) memory at worst.  Not counted: an O(n) scan for the untouched members of a class
in a round where they are not its largest group (rare in practice).  The
paper quotes "linear in |E|" per round (L489); rounds = stable level + 1, e.g. 6 on ca-GrQc,
but a path on n nodes needs n/2 rounds (≈ 0.2 ms each here).

**Perturbation** (§A.2.8).  :func:`h1_posterior` gives, for a target whose original degree δ
is known, the candidate probability C_x[y] ∝ Pr(deg_g(y) = δ | G_p, m) of every released node
y (Definition 6 with Q = H_1), and :func:`equivalent_candidate_size` gives ⌊1 / max_y C_x[y]⌋,
the largest k for which K-candidate anonymity holds for x (L573–576).  See :func:`h1_posterior`
for the model.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np
from scipy.special import gammaln

from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph, as_graph

#: Hay et al.'s candidate-set-size buckets (L420–424): [1], [2,4], [5,10], [11,20], [21,∞).
BUCKETS: tuple[tuple[int, float], ...] = ((1, 1), (2, 4), (5, 10), (11, 20), (21, math.inf))
BUCKET_LABELS: tuple[str, ...] = ("1", "2-4", "5-10", "11-20", "21+")
_BUCKET_EDGES = np.array([2, 5, 11, 21])  # np.searchsorted(edges, size, "right") = bucket


# ============================================================================ buckets
@dataclass(frozen=True)
class BucketCounts:
    """How many of ``n`` nodes have a candidate-set size in each of :data:`BUCKETS`."""

    counts: tuple[int, ...]
    n: int

    @property
    def fractions(self) -> tuple[float, ...]:
        return tuple(c / self.n if self.n else 0.0 for c in self.counts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "buckets": list(BUCKET_LABELS),
            "counts": list(self.counts),
            "fractions": list(self.fractions),
            "n": self.n,
        }

    def __str__(self) -> str:
        return "/".join(str(c) for c in self.counts)


def bucket_counts(sizes: Any) -> BucketCounts:
    """Bucket candidate-set sizes (integers ≥ 1) into [1], [2,4], [5,10], [11,20], [21,∞)."""
    s = np.asarray(sizes)
    if s.size and (s.min() < 1 or not np.issubdtype(s.dtype, np.integer)):
        raise InputError("sizes: candidate-set sizes must be integers ≥ 1")
    idx = np.searchsorted(_BUCKET_EDGES, s.ravel(), side="right")
    counts = np.bincount(idx, minlength=len(BUCKETS))
    return BucketCounts(tuple(int(c) for c in counts), int(s.size))


def class_sizes(colors: np.ndarray) -> np.ndarray:
    """The size of each node's class: the candidate-set size under the query."""
    c = np.asarray(colors)
    return np.bincount(c)[c] if c.size else np.zeros(0, dtype=np.int64)


# ============================================================================ refinement
@dataclass(frozen=True, eq=False)
class VertexRefinement:
    """The partitions ≡_{H_0} … ≡_{H_s} of one graph, stored as the changes per level.

    ``level(i)[v]`` is v's class id under H_i.  ``complete`` is True when the fixed point was
    found: ``stable_level`` = s is then the first level whose partition equals the next
    one's, and H_i = H* for every i ≥ s.  Otherwise the run stopped at ``max_level`` and the
    levels beyond it are unknown.  ``moves[i−1]`` = (nodes, new ids) turns H_{i−1} into H_i;
    class ids are isomorphism-invariant (module docstring).
    """

    n_nodes: int
    moves: tuple[tuple[np.ndarray, np.ndarray], ...]
    final: np.ndarray
    complete: bool
    n_classes: tuple[int, ...]
    seconds: float
    hash_fallbacks: int = 0
    round_seconds: tuple[float, ...] = field(default=())

    @property
    def levels_computed(self) -> int:
        """The largest i whose H_i is known (= the stable level when complete)."""
        return len(self.moves)

    @property
    def stable_level(self) -> int | None:
        return len(self.moves) if self.complete else None

    def level(self, i: int | None = None) -> np.ndarray:
        """Class ids under H_i (``None``: H*), a read-only int64 array.  O(n + changes)."""
        top = len(self.moves)
        if i is None:
            if not self.complete:
                raise ConfigError(
                    f"i = None asks for H*, but the refinement stopped at max_level = {top} "
                    "before the fixed point; run vertex_refinement without max_level"
                )
            return self.final
        if not isinstance(i, Integral) or isinstance(i, bool) or i < 0:
            raise ConfigError(f"i = {i!r}: the refinement level must be an integer ≥ 0")
        if i >= top:
            if i == top or self.complete:
                return self.final
            raise ConfigError(
                f"i = {i}: only H_0..H_{top} were computed (max_level); run "
                "vertex_refinement with a larger max_level"
            )
        col = np.zeros(self.n_nodes, dtype=np.int64)
        for nodes, ids in self.moves[:i]:
            col[nodes] = ids
        col.flags.writeable = False
        return col

    def candidate_sizes(self, i: int | None = None) -> np.ndarray:
        """|cand_{H_i}(x)| for every node x (``None``: H*)."""
        return class_sizes(self.level(i))

    def candidate_set(self, node: int, i: int | None = None) -> np.ndarray:
        """The nodes equivalent to ``node`` under H_i (its candidate set), sorted."""
        _check_node(node, self.n_nodes, "node")
        c = self.level(i)
        return np.flatnonzero(c == c[node])

    def buckets(self, i: int | None = None) -> BucketCounts:
        """Hay et al.'s bucket counts of the candidate-set sizes under H_i."""
        return bucket_counts(self.candidate_sizes(i))

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_nodes": self.n_nodes,
            "complete": self.complete,
            "stable_level": self.stable_level,
            "n_classes": list(self.n_classes),
            "buckets": [self.buckets(i).to_dict() for i in range(len(self.moves) + 1)],
            "buckets_star": self.buckets().to_dict() if self.complete else None,
            "seconds": self.seconds,
            "hash_fallbacks": self.hash_fallbacks,
        }


def vertex_refinement(graph: Graph, max_level: int | None = None) -> VertexRefinement:
    """Compute the partitions of H_0, H_1, … up to the fixed point H* (or ``max_level``).

    Seed 002 §A.2.4.  Exact (hash, then verify); class ids are isomorphism-invariant.
    O(m log² n) time and O(n log n + m) memory (module docstring); when
    ``max_level`` is given, one more round is run to tell whether H_{max_level} is H*.
    """
    graph = as_graph(graph, "vertex refinement", undirected=True)
    if max_level is not None and (
        not isinstance(max_level, Integral) or isinstance(max_level, bool) or max_level < 0
    ):
        raise ConfigError(f"max_level = {max_level!r}: give an integer ≥ 0 or None")
    t0 = time.perf_counter()
    st = _State(graph)
    moves: list[tuple[np.ndarray, np.ndarray]] = []
    n_classes = [st.k]
    rounds: list[float] = []
    complete = False
    while True:
        tr = time.perf_counter()
        moved = st.first_round() if not moves else st.next_round(moves[-1][0])
        rounds.append(time.perf_counter() - tr)
        if moved.size == 0:
            complete = True
            break
        if max_level is not None and len(moves) == max_level:
            break  # H_{max_level + 1} differs: not the fixed point; drop that round
        moves.append((moved, st.col[moved].copy()))
        n_classes.append(st.k)
    final = np.zeros(graph.n_nodes, dtype=np.int64)
    for nodes, ids in moves:
        final[nodes] = ids
    final.flags.writeable = False
    return VertexRefinement(
        graph.n_nodes, tuple(moves), final, complete, tuple(n_classes),
        time.perf_counter() - t0, st.fallbacks, tuple(rounds),
    )  # fmt: skip


def _color_hash(colors: np.ndarray) -> np.ndarray:
    """splitmix64 of the class ids: a fixed bijection of uint64 with good mixing."""
    with np.errstate(over="ignore"):
        z = colors.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


class _State:
    """Colour-refinement state: class of every node, class sizes, class count."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.n = graph.n_nodes
        self.deg = graph.degrees()
        self.col = np.zeros(self.n, dtype=np.int64)
        self.size = np.zeros(self.n + 1, dtype=np.int64)  # ≤ n classes ever
        self.size[0] = self.n
        self.k = 1 if self.n else 0
        self.fallbacks = 0

    def first_round(self) -> np.ndarray:
        """H_1: split class 0 by degree; the largest degree class keeps id 0."""
        if self.n == 0:
            return np.zeros(0, dtype=np.int64)
        _, inv, cnt = np.unique(self.deg, return_inverse=True, return_counts=True)
        if cnt.size == 1:
            return np.zeros(0, dtype=np.int64)
        keep = int(np.argmax(cnt))  # the smallest degree among the largest classes
        newid = np.empty(cnt.size, dtype=np.int64)
        others = np.delete(np.arange(cnt.size), keep)
        newid[keep] = 0
        newid[others] = np.arange(1, cnt.size)
        self.col = newid[inv.ravel()]
        self.size[newid] = cnt
        self.k = int(cnt.size)
        return np.flatnonzero(inv.ravel() != keep)

    def next_round(self, moved: np.ndarray) -> np.ndarray:
        """One round from the nodes that changed class in the previous one (module doc)."""
        g, col, size, deg = self.graph, self.col, self.size, self.deg
        lens = deg[moved]
        pos = _segments(g.indptr[moved], lens)
        v = g.indices[pos]
        ids = np.repeat(col[moved], lens)
        act = size[col[v]] > 1  # a singleton class cannot split
        v, ids = v[act], ids[act]
        if v.size == 0:
            return np.zeros(0, dtype=np.int64)
        o = np.lexsort((ids, v))
        v, ids = v[o], ids[o]
        first = np.flatnonzero(np.r_[True, v[1:] != v[:-1]])
        tn = v[first]  # touched nodes, ascending
        cnt = np.diff(np.r_[first, v.size])
        with np.errstate(over="ignore"):
            hc = np.zeros(v.size + 1, dtype=np.uint64)
            np.cumsum(_color_hash(ids), out=hc[1:])
            hsum = hc[first + cnt] - hc[first]
        c = col[tn]
        # group the touched nodes by (class, |L|, hash of L), L = new ids of moved neighbours
        o2 = np.lexsort((hsum, cnt, c))
        c2, n2, h2 = c[o2], cnt[o2], hsum[o2]
        gstart = np.r_[True, (c2[1:] != c2[:-1]) | (n2[1:] != n2[:-1]) | (h2[1:] != h2[:-1])]
        tg = np.cumsum(gstart) - 1  # touched group of o2[j], groups in (class, key) order
        if not self._verified(o2, tg, gstart, first, cnt, ids):
            self.fallbacks += 1
            o2, tg, gstart = self._exact_groups(c, first, cnt, ids)
            c2 = c[o2]
        g_first = np.flatnonzero(gstart)
        g_class = c2[g_first]
        g_size = np.diff(np.r_[g_first, o2.size])
        # untouched members of each touched class form one more group (L = ∅), ordered first
        tcls, tcount = np.unique(c, return_counts=True)
        u_size = size[tcls] - tcount
        has_u = u_size > 0
        all_class = np.r_[tcls[has_u], g_class]
        all_flag = np.r_[np.zeros(int(has_u.sum()), np.int64), np.ones(g_class.size, np.int64)]
        all_seq = np.r_[np.zeros(int(has_u.sum()), np.int64), np.arange(g_class.size)]
        all_size = np.r_[u_size[has_u], g_size]
        order = np.lexsort((all_seq, all_flag, all_class))  # canonical order of the groups
        cls_o, size_o = all_class[order], all_size[order]
        cstart = np.r_[True, cls_o[1:] != cls_o[:-1]]
        n_groups = np.diff(np.r_[np.flatnonzero(cstart), cls_o.size])
        split = np.repeat(n_groups > 1, n_groups)  # groups of classes that really split
        if not split.any():
            return np.zeros(0, dtype=np.int64)
        # the largest group of a class keeps its id (first in canonical order on ties)
        rank = np.arange(cls_o.size)
        best = np.lexsort((rank, -size_o, cls_o))
        kept = np.zeros(cls_o.size, dtype=bool)
        kept[best[np.r_[True, cls_o[best][1:] != cls_o[best][:-1]]]] = True
        renamed = split & ~kept
        newid = np.full(cls_o.size, -1, dtype=np.int64)
        newid[renamed] = self.k + np.arange(int(renamed.sum()))
        gid_new = np.empty(cls_o.size, dtype=np.int64)
        gid_new[order] = newid  # by index into all_* arrays
        flag_o = all_flag[order]
        # members of renamed untouched groups: scan (they are never the largest group)
        moved_u = np.zeros(0, dtype=np.int64)
        ids_u = np.zeros(0, dtype=np.int64)
        u_ren = renamed & (flag_o == 0)
        if u_ren.any():
            ren_cls = cls_o[u_ren]
            cand = np.flatnonzero(np.isin(col, ren_cls))
            cand = cand[~np.isin(cand, tn, assume_unique=True)]
            lut = dict(zip(ren_cls.tolist(), newid[u_ren].tolist(), strict=True))
            moved_u = cand
            ids_u = np.array([lut[x] for x in col[cand].tolist()], dtype=np.int64)
        n_u = int(has_u.sum())
        tg_new = gid_new[n_u + tg]  # new id of each touched node's group (−1: stays)
        mv = tg_new >= 0
        moved_t = tn[o2[mv]]
        ids_t = tg_new[mv]
        # update sizes: kept groups keep their class with its new size
        keep_split = split & kept
        size[cls_o[keep_split]] = size_o[keep_split]
        size[newid[renamed]] = size_o[renamed]
        col[moved_u] = ids_u
        col[moved_t] = ids_t
        self.k += int(renamed.sum())
        out = np.concatenate([moved_u, moved_t])
        out.sort()
        return out

    @staticmethod
    def _verified(o2, tg, gstart, first, cnt, ids) -> bool:
        """Do all touched nodes of a group have the same sorted list L (exact check)?"""
        rep = o2[np.flatnonzero(gstart)][tg]  # the group's first member, per o2 entry
        same = rep != o2
        if not same.any():
            return True
        a, b = o2[same], rep[same]
        lens = cnt[a]
        pa = _segments(first[a], lens)
        pb = _segments(first[b], lens)
        return bool(np.array_equal(ids[pa], ids[pb]))

    @staticmethod
    def _exact_groups(c, first, cnt, ids):
        """The grouping by sorted tuples (fallback after a hash collision)."""
        keys = [
            (int(c[j]), int(cnt[j]), tuple(ids[first[j] : first[j] + cnt[j]].tolist()))
            for j in range(c.size)
        ]
        o2 = np.array(sorted(range(c.size), key=keys.__getitem__), dtype=np.int64)
        ks = [keys[j] for j in o2.tolist()]
        gstart = np.array([True] + [ks[j] != ks[j - 1] for j in range(1, len(ks))])
        return o2, np.cumsum(gstart) - 1, gstart


def _segments(starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Concatenation of the ranges starts[j] .. starts[j]+lens[j]−1."""
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offs = np.concatenate([[0], np.cumsum(lens)[:-1]])
    return np.repeat(starts - offs, lens) + np.arange(total, dtype=np.int64)


def _check_node(node: Any, n: int, name: str) -> int:
    if not isinstance(node, Integral) or isinstance(node, bool) or not 0 <= node < n:
        raise InputError(f"{name} = {node!r}: not a node id; the graph has nodes 0..{n - 1}")
    return int(node)


def release_candidate_sizes(
    original: Graph, release: Graph, levels: Any = (1, 2, None)
) -> dict[int | None, np.ndarray]:
    """Hay et al.'s attack on a release: the adversary knows H_i of each target *in the
    original* and looks for release nodes with the same H_i.

    Seed 002 §A.2.2/§A.2.4: cand(x) = {y ∈ release : H_i^release(y) = H_i^original(x)}.  For a
    naive anonymization this equals the class sizes of the original; for a perturbed or
    k-degree release the knowledge may match several nodes, one, or none (0: the release
    changed the target's structure).  Computed exactly by refining the disjoint union of the
    two graphs once (class ids are canonical across both).  Returns, per level (``None`` =
    H* of the union), an int64 array over the original's nodes.  O((m + m') log²(n + n')).
    """
    original = as_graph(original, "the release attack (original)", undirected=True)
    release = as_graph(release, "the release attack (release)", undirected=True)
    n0 = original.n_nodes
    union = Graph.from_edges(
        n0 + release.n_nodes, np.concatenate([original.edges(), release.edges() + n0])
    )
    ref = vertex_refinement(union)
    out: dict[int | None, np.ndarray] = {}
    for i in levels:
        col = ref.level(i)
        ids, inv = np.unique(col, return_inverse=True)
        in_release = np.bincount(inv[n0:], minlength=ids.size)
        out[i] = in_release[inv[:n0]].astype(np.int64)
    return out


# ============================================================================ perturbation
MODELS = ("process", "no-reinsertion")


def h1_posterior(released: Graph, degree: int, m: int, *, model: str = "process") -> np.ndarray:
    """C_x[y] for every released node y, for a target x of original degree ``degree``.

    Seed 002 §A.2.8, Definition 6 with Q = H_1: C_x[y] ∝ Pr(deg_g(y) = δ) over the possible
    worlds g of the release G_p under m perturbations (m deletions, then m insertions drawn
    from the non-edges of the interim graph, :func:`~privlab.graph.anonymize.perturb.\
random_add_delete`; m and the process are public).

    ``model="process"`` (default) is exact under a uniform prior on graphs with |E_p| edges:
    every (g, E⁻, E⁺) producing G_p is then equally likely, so the adversary's view of the
    process run backwards is: E⁺ a uniform m-subset of E_p, E⁻ a uniform m-subset of the
    non-edges of E_p ∖ E⁺.  For a node y of released degree d′, with n nodes, M = |E_p|,
    N = n(n−1)/2, the inserted edges at y are a ~ Hypergeom(M, d′, m) and, given a, the
    deleted pairs at y are b ~ Hypergeom(N − M + m, n − 1 − d′ + a, m); deg_g(y) = d′ − a + b.
    This marginal is exact (a test enumerates every (E⁺, E⁻) on small graphs).  The paper's
    literal "every possible world equally likely" counts a world reachable by several
    (E⁻, E⁺) — those re-inserting deleted pairs — once; the two differ only through
    re-insertions, O(m²/N).

    ``model="no-reinsertion"`` is seed 002's approximation: b ~ Hypergeom(N − M, n − 1 − d′, m)
    independent of a (re-insertions ignored).

    Returns float64 probabilities summing to 1.  O(n + D·min(m, Δ)) for D distinct released
    degrees and maximum degree Δ.
    """
    released = as_graph(released, "the H_1 posterior", undirected=True)
    n = released.n_nodes
    if not isinstance(degree, Integral) or isinstance(degree, bool) or not 0 <= degree < max(n, 1):
        raise InputError(f"degree = {degree!r}: an original degree must be in 0..{n - 1}")
    obs, inv = np.unique(released.degrees(), return_inverse=True)
    p = _degree_likelihood(n, released.n_edges, _check_m(m, released), obs, np.array([degree]),
                           model)[:, 0]  # fmt: skip
    w = p[inv]
    total = w.sum()
    if total <= 0:
        raise InputError(
            f"degree = {degree}: no released node can have had this degree under m = {m} "
            "perturbations"
        )
    return w / total


def equivalent_candidate_size(posterior: Any) -> int:
    """⌊1 / max_y C_x[y]⌋: the largest k for which K-candidate anonymity holds (L573–576)."""
    p = np.asarray(posterior, dtype=float)
    if p.size == 0 or p.max() <= 0:
        raise InputError("posterior: needs at least one positive probability")
    return math.floor(1.0 / p.max() + 1e-9)


@dataclass(frozen=True)
class PerturbationRisk:
    """Equivalent candidate-set sizes of every target under H_1 after m perturbations."""

    m: int
    model: str
    sizes: np.ndarray  # equivalent candidate-set size per target
    targets: np.ndarray
    top_probability: np.ndarray  # max_y C_x[y] per target

    @property
    def buckets(self) -> BucketCounts:
        return bucket_counts(self.sizes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "m": self.m,
            "model": self.model,
            "n_targets": int(self.targets.size),
            "buckets": self.buckets.to_dict(),
            "mean_top_probability": float(self.top_probability.mean())
            if self.top_probability.size else None,
        }  # fmt: skip


def perturbation_h1_risk(
    original: Graph,
    released: Graph,
    m: int,
    *,
    targets: Any = None,
    model: str = "process",
) -> PerturbationRisk:
    """Equivalent candidate-set size of every target (default: every node of ``original``).

    Seed 002 §A.3.5 (Fig. 8): the adversary knows each target's original degree (H_1) and
    the public m; ``released`` is the perturbed graph on the same node set.  At m = 0 the
    sizes are the H_1 class sizes.  O(n + D·T·min(m, Δ)) for D distinct released and T
    distinct target degrees.
    """
    original = as_graph(original, "the H_1 perturbation risk (original)", undirected=True)
    released = as_graph(released, "the H_1 perturbation risk (released)", undirected=True)
    n = released.n_nodes
    if original.n_nodes != n:
        raise InputError(
            f"released: {n} nodes, but original has {original.n_nodes}; perturbation keeps "
            "the node set"
        )
    mm = _check_m(m, released)
    t = np.arange(n) if targets is None else np.asarray(targets)
    if t.size and (not np.issubdtype(t.dtype, np.integer) or t.min() < 0 or t.max() >= n):
        raise InputError(f"targets: node ids must be integers in 0..{n - 1}")
    obs, obs_count = np.unique(released.degrees(), return_counts=True)
    tdeg = original.degrees()[t]
    want, winv = np.unique(tdeg, return_inverse=True)
    like = _degree_likelihood(n, released.n_edges, mm, obs, want, model)  # D × T
    total = (like * obs_count[:, None]).sum(axis=0)
    if np.any(total <= 0):
        bad = int(want[np.argmax(total <= 0)])
        raise InputError(
            f"original: degree {bad} cannot arise in the release under m = {m}; is "
            "released really a perturbation of original with this m?"
        )
    top = like.max(axis=0) / total
    top_t = top[winv]
    sizes = np.floor(1.0 / top_t + 1e-9).astype(np.int64)
    return PerturbationRisk(mm, model, sizes, t.astype(np.int64), top_t)


def _check_m(m: Any, released: Graph) -> int:
    mm = released.n_edges
    if not isinstance(m, Integral) or isinstance(m, bool) or m < 0:
        raise ConfigError(f"m = {m!r}: the number of perturbations must be an integer ≥ 0")
    if m > mm:
        raise ConfigError(f"m = {m}: at most |E| = {mm} deletions can be made")
    return int(m)


def _log_comb(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log C(a, b), −inf outside 0 ≤ b ≤ a."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    ok = (b >= 0) & (b <= a)
    out = np.full(np.broadcast(a, b).shape, -np.inf)
    aa, bb = np.broadcast_arrays(a, b)
    out[ok] = gammaln(aa[ok] + 1) - gammaln(bb[ok] + 1) - gammaln(aa[ok] - bb[ok] + 1)
    return out


def _degree_likelihood(
    n: int, n_edges: int, m: int, obs: np.ndarray, want: np.ndarray, model: str
) -> np.ndarray:
    """P[i, j] = Pr(original degree = want[j] | released degree = obs[i]) (module docstring)."""
    if model not in MODELS:
        raise ConfigError(f"model = {model!r}: choose one of {', '.join(MODELS)}")
    big_n = n * (n - 1) // 2
    out = np.zeros((obs.size, want.size))
    if m == 0:
        return (obs[:, None] == want[None, :]).astype(float)
    lc_m = _log_comb(np.array(n_edges), np.array(m))
    for i, d in enumerate(obs.tolist()):
        a = np.arange(0, min(m, d) + 1)
        log_pa = _log_comb(d, a) + _log_comb(n_edges - d, m - a) - lc_m  # inserted at y
        b = want[None, :] - d + a[:, None]  # deletions at y needed to reach want[j]
        if model == "process":
            pop, succ = big_n - n_edges + m, (n - 1 - d) + a[:, None]
        else:
            pop, succ = big_n - n_edges, np.full((a.size, 1), n - 1 - d)
        log_pb = _log_comb(succ, b) + _log_comb(pop - succ, m - b) - _log_comb(pop, m)
        out[i] = np.exp(log_pa[:, None] + log_pb).sum(axis=0)
    return out


__all__ = [
    "BUCKETS",
    "BUCKET_LABELS",
    "MODELS",
    "BucketCounts",
    "PerturbationRisk",
    "VertexRefinement",
    "bucket_counts",
    "class_sizes",
    "equivalent_candidate_size",
    "h1_posterior",
    "perturbation_h1_risk",
    "vertex_refinement",
]
