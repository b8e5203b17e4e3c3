"""Safe (k, ℓ)-groupings of bipartite graphs (seed 001 §2.3, dissertation chapter 4).

A bipartite graph G = (V, W, E) — authors and papers, customers and products — is published
as groups: every V node goes into a group of ≥ k nodes, every W node into a group of ≥ ℓ
nodes, node ids are replaced by random masked ids, and the edges are published between
masked ids together with each masked id's group (Def 4.4.2).  A grouping is **safe** when no
two members of a group share a neighbour (Def 4.4.3), so the edges between a V-group and a
W-group form a *matching*; then any given association holds in at most a 1/max(k, ℓ)
fraction of the identifications consistent with the release (Lemma 4.4.1).

Safety needs density |E| / (|V||W|) ≤ 1 / max(k, ℓ).  Finding a safe strict grouping is
NP-hard (Theorem 6); :func:`safe_grouping` is the dissertation's greedy algorithm (§4.4.5,
following the prose — Algorithm 5 is garbled): take nodes by decreasing degree, ties by their
sorted neighbour degrees (graph properties only, never entity attributes, L5069–5098); put
each into the first open group below the size cap that has no conflict with it, else open a
new group; dissolve groups smaller than k and re-run on their nodes with the cap raised by
one, until every group has ≥ k nodes.  Strict (sizes k or k + 1) when the cap never passed
k + 1.

Complexity: O(Σ_v deg(v) · open groups tried) per pass; the conflict test of node v against
a group is one set intersection of N(v) with the group's neighbourhood.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from privlab.dp.noise import secure_generator
from privlab.errors import ConfigError, InfeasibleError, InputError


@dataclass(frozen=True)
class Bipartite:
    """A bipartite graph: left nodes 0..n_left−1, right nodes 0..n_right−1, edges (v, w)."""

    n_left: int
    n_right: int
    edges: np.ndarray
    left_labels: np.ndarray | None = None
    right_labels: np.ndarray | None = None

    @classmethod
    def from_edges(
        cls, edges: Any, *, n_left: int | None = None, n_right: int | None = None, **labels: Any
    ) -> Bipartite:
        """From (v, w) pairs of integer codes; repeated pairs are an error.  O(m log m)."""
        e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        if e.size and e.min() < 0:
            raise InputError("edges: node codes must be ≥ 0")
        nl = int(e[:, 0].max()) + 1 if n_left is None and e.size else int(n_left or 0)
        nr = int(e[:, 1].max()) + 1 if n_right is None and e.size else int(n_right or 0)
        if e.size and (e[:, 0].max() >= nl or e[:, 1].max() >= nr):
            raise InputError("edges: a node code is outside n_left / n_right")
        uniq = np.unique(e, axis=0)
        if uniq.shape[0] != e.shape[0]:
            raise InputError("edges: a (left, right) pair is repeated; give each association once")
        return cls(nl, nr, uniq, labels.get("left_labels"), labels.get("right_labels"))

    @classmethod
    def from_frame(cls, frame: pl.DataFrame, left: str, right: str) -> Bipartite:
        """From a two-column table of associations (e.g. author, paper); a repeated
        association or a missing cell is an error naming its row."""
        for col in (left, right):
            if col not in frame.columns:
                raise InputError(f"no column {col!r}; the columns are {frame.columns}")
            if frame[col].null_count():
                i = int(frame[col].is_null().arg_max())
                raise InputError(f"row {i + 1}, column {col!r}: missing value")
        lv, lcodes = np.unique(frame[left].to_numpy(), return_inverse=True)
        rv, rcodes = np.unique(frame[right].to_numpy(), return_inverse=True)
        return cls.from_edges(
            np.stack([lcodes, rcodes], axis=1), n_left=lv.size, n_right=rv.size,
            left_labels=lv, right_labels=rv,
        )  # fmt: skip

    @property
    def n_edges(self) -> int:
        return int(self.edges.shape[0])

    def density(self) -> float:
        pairs = self.n_left * self.n_right
        return self.n_edges / pairs if pairs else 0.0

    def neighbours(self, side: str) -> list[np.ndarray]:
        """Per node of ``side`` ('left' or 'right'), its sorted neighbours on the other side."""
        a, b = (0, 1) if side == "left" else (1, 0)
        n = self.n_left if side == "left" else self.n_right
        order = np.lexsort((self.edges[:, b], self.edges[:, a]))
        src, dst = self.edges[order, a], self.edges[order, b]
        bounds = np.searchsorted(src, np.arange(n + 1))
        return [dst[bounds[i] : bounds[i + 1]] for i in range(n)]

    def degrees(self, side: str) -> np.ndarray:
        n = self.n_left if side == "left" else self.n_right
        return np.bincount(self.edges[:, 0 if side == "left" else 1], minlength=n)


def density_bound(k: int, ell: int) -> float:
    """The largest density a safe (k, ℓ)-grouping allows: 1 / max(k, ℓ) (seed 001 §2.3)."""
    return 1.0 / max(k, ell)


def _order(graph: Bipartite, side: str, rng: np.random.Generator) -> list[int]:
    """Decreasing degree; ties by decreasing sorted neighbour degrees, then at random."""
    deg = graph.degrees(side)
    other = graph.degrees("right" if side == "left" else "left")
    nbrs = graph.neighbours(side)
    tiebreak = rng.permutation(deg.size)
    keys = [
        (-int(deg[v]), tuple(sorted(-int(other[w]) for w in nbrs[v])), int(tiebreak[v]))
        for v in range(deg.size)
    ]
    return sorted(range(deg.size), key=keys.__getitem__)


def group_side(
    graph: Bipartite, side: str, k: int, *, max_cap: int | None = None, seed: Any = None
) -> np.ndarray:
    """Safe k-grouping of one side (greedy, §4.4.5): an array of group ids per node.

    Raises InfeasibleError (with the density bound) when no safe grouping is found with caps
    up to ``max_cap`` (default 2k).
    """
    n = graph.n_left if side == "left" else graph.n_right
    if int(k) != k or k < 1:
        raise ConfigError(f"k = {k!r}: give a group size ≥ 1")
    if k > n:
        raise ConfigError(f"group size {k} is larger than the {n} {side} nodes; lower it")
    cap_limit = 2 * k if max_cap is None else int(max_cap)
    nbrs = [set(a.tolist()) for a in graph.neighbours(side)]
    rng = secure_generator(seed)
    pending = _order(graph, side, rng)
    groups: list[list[int]] = []
    covered: list[set[int]] = []
    cap = k
    while pending:
        if cap > cap_limit:
            raise _infeasible(graph, side, k, cap_limit)
        for v in pending:
            for gi, members in enumerate(groups):
                if len(members) < cap and not (nbrs[v] & covered[gi]):
                    members.append(v)
                    covered[gi] |= nbrs[v]
                    break
            else:
                groups.append([v])
                covered.append(set(nbrs[v]))
        small = [gi for gi, members in enumerate(groups) if len(members) < k]
        pending = [v for gi in small for v in groups[gi]]
        keep = [gi for gi in range(len(groups)) if len(groups[gi]) >= k]
        groups = [groups[gi] for gi in keep]
        covered = [covered[gi] for gi in keep]
        cap += 1
    out = np.empty(n, dtype=np.int64)
    for gi, members in enumerate(groups):
        out[members] = gi
    return out


def _infeasible(graph: Bipartite, side: str, k: int, cap: int) -> InfeasibleError:
    dens = graph.density()
    return InfeasibleError(
        f"no safe {k}-grouping of the {side} side found with group sizes up to {cap}: "
        f"density |E|/(|V||W|) = {dens:.4g}"
        + (f" exceeds the bound 1/{k} = {1 / k:.4g}" if dens > 1 / k else f" (bound 1/{k})")
        + "; lower k, or retry with another seed (the greedy order breaks ties at random)"
    )


def is_safe(graph: Bipartite, groups: np.ndarray, side: str) -> bool:
    """No two members of a group share a neighbour (Def 4.4.3).  O(m log m)."""
    col = 0 if side == "left" else 1
    pairs = np.stack([groups[graph.edges[:, col]], graph.edges[:, 1 - col]], axis=1)
    return np.unique(pairs, axis=0).shape[0] == pairs.shape[0]


@dataclass
class GroupedGraph:
    """A safe (k, ℓ)-grouped graph and its relational publication (Def 4.4.2, L4541–4560).

    ``left_groups``/``right_groups``: group of each original node (H_V, H_W);
    ``left_mask``/``right_mask``: masked id of each original node (F_V, F_W — secret).
    """

    graph: Bipartite
    k: int
    ell: int
    left_groups: np.ndarray
    right_groups: np.ndarray
    left_mask: np.ndarray
    right_mask: np.ndarray
    strict: bool
    meta: dict[str, Any] = field(default_factory=dict)

    def masked_edges(self) -> np.ndarray:
        """E' = {(F_V(v), F_W(w))}, sorted (the order carries nothing)."""
        e = np.stack(
            [self.left_mask[self.graph.edges[:, 0]], self.right_mask[self.graph.edges[:, 1]]],
            axis=1,
        )
        return e[np.lexsort((e[:, 1], e[:, 0]))]

    def tables(self) -> dict[str, pl.DataFrame]:
        """The publication: entity → group (H), masked id → group (R), masked edges (E')."""
        g = self.graph
        left = g.left_labels if g.left_labels is not None else np.arange(g.n_left)
        right = g.right_labels if g.right_labels is not None else np.arange(g.n_right)
        r_v = np.empty(g.n_left, dtype=np.int64)
        r_v[self.left_mask] = self.left_groups
        r_w = np.empty(g.n_right, dtype=np.int64)
        r_w[self.right_mask] = self.right_groups
        e = self.masked_edges()
        return {
            "left_group": pl.DataFrame({"node": left, "group": self.left_groups}),
            "right_group": pl.DataFrame({"node": right, "group": self.right_groups}),
            "masked_edges": pl.DataFrame({"left_masked": e[:, 0], "right_masked": e[:, 1]}),
            "masked_left_group": pl.DataFrame({"left_masked": np.arange(g.n_left), "group": r_v}),
            "masked_right_group": pl.DataFrame(
                {"right_masked": np.arange(g.n_right), "group": r_w}
            ),
        }

    def group_pair_edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(i, j, c_ij) for every pair of groups joined by c_ij > 0 edges.  O(m log m)."""
        pairs = np.stack(
            [self.left_groups[self.graph.edges[:, 0]], self.right_groups[self.graph.edges[:, 1]]],
            axis=1,
        )
        uniq, counts = np.unique(pairs, axis=0, return_counts=True)
        return uniq[:, 0], uniq[:, 1], counts

    def to_dict(self) -> dict[str, Any]:
        sizes_l = np.bincount(self.left_groups)
        sizes_r = np.bincount(self.right_groups)
        return {
            "k": self.k,
            "l": self.ell,
            "strict": self.strict,
            "left_nodes": self.graph.n_left,
            "right_nodes": self.graph.n_right,
            "edges": self.graph.n_edges,
            "density": self.graph.density(),
            "density_bound": density_bound(self.k, self.ell),
            "left_groups": int(sizes_l.size),
            "right_groups": int(sizes_r.size),
            "left_group_sizes": [int(sizes_l.min()), int(sizes_l.max())],
            "right_group_sizes": [int(sizes_r.min()), int(sizes_r.max())],
            **self.meta,
        }


def safe_grouping(
    graph: Bipartite, k: int, ell: int, *, max_cap: int | None = None, seed: Any = None
) -> GroupedGraph:
    """A safe (k, ℓ)-grouping with random masked ids (seed 001 §2.3; see the module doc).

    ``k`` for the left side, ``ell`` for the right; 1 leaves a side exact (a (k, 1)-grouping
    still hides associations, §4.4.6).  Fails early, naming the bound, when the density
    exceeds 1/max(k, ℓ).  Verified safe before returning.
    """
    if graph.density() > density_bound(k, ell):
        raise InfeasibleError(
            f"density |E|/(|V||W|) = {graph.density():.4g} exceeds 1/max(k, l) = "
            f"{density_bound(k, ell):.4g}: no safe ({k}, {ell})-grouping exists; lower k or l"
        )
    rng = secure_generator(seed)
    left = group_side(graph, "left", k, max_cap=max_cap, seed=rng)
    right = group_side(graph, "right", ell, max_cap=max_cap, seed=rng)
    if not (is_safe(graph, left, "left") and is_safe(graph, right, "right")):
        raise AssertionError("internal error: the greedy grouping is not safe")  # never
    strict = bool(np.bincount(left).max() <= k + 1 and np.bincount(right).max() <= ell + 1)
    return GroupedGraph(
        graph, int(k), int(ell), left, right,
        rng.permutation(graph.n_left), rng.permutation(graph.n_right), strict,
    )  # fmt: skip


__all__ = [
    "Bipartite",
    "GroupedGraph",
    "density_bound",
    "group_side",
    "is_safe",
    "safe_grouping",
]
