"""The D4D egonet release (Scheme 1 and 2) and the secret truth kept next to it.

Source: seed 004 (Sharad, Cambridge TR-896), Chapter 3 — §2.3 (the D4D anonymization schemes,
thesis §3.2.1 L491–511) and §2.8 (how Chapter 3 builds its egonets and pairs, §3.4.1
L674–676).  The user guide is docs/graph/egonet-linkage.md.

**The release** (:func:`egonet_release`).  Egos are drawn uniformly at random, without
replacement, among the nodes whose 2-hop ball has at least ``min_size`` nodes (the seed kept
egonets of more than 400 nodes on Epinions and 800 on Pokec: ``min_size=401`` / ``801``).
Each egonet is the node-induced subgraph on the ego's 2-hop ball.  Scheme 1 keeps every edge
among those nodes; Scheme 2 deletes every edge between two 2-hop nodes (call counts, durations
and directions do not exist here, and there are no public phones to remove).  Every egonet
gets its own uniformly random local ids, so egonets cannot be stitched by id.  The secret
truth — per egonet, the original node of each local id, the hop (0/1/2) of each local id and
the local id of the ego — is kept in the :class:`EgonetRelease` next to the graphs.

Complexity (n nodes, m edges, E egos, k_i nodes and m_i edges in egonet i):
:func:`two_hop_sizes` O(Σ_v deg(v)²) in row chunks (bounded memory);
:func:`egonet_release` that plus O(Σ_i (Σ_{u ∈ ball_i} deg u + m_i log m_i)).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.egonet._helpers import (
    _ROW_CHUNK,
    _check_scheme,
    _closed_adjacency,
    _gather_rows,
)
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_int

DEFAULT_MIN_SIZE = 100
"""Default minimum 2-hop egonet size (nodes, ego included).

The seed used > 400 nodes on Epinions (75 879 nodes) and > 800 on Pokec (1.6 M nodes).  On
the two SNAP graphs shipped with the project the seed's rule is unusable or toothless:
ca-GrQc has *no* node with a 2-hop ball of 400 nodes (294 have ≥ 100, 79 have ≥ 200), while
on ego-Facebook 3 209 of 4 039 nodes pass 400 (3 947 pass 100; the median ball is 766).
100 keeps ca-GrQc usable (294 eligible egos) and still drops the trivial egonets; pass
``min_size=401`` to reproduce the Epinions setting."""


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
    graph = as_graph(graph, "two_hop_sizes", undirected=True)
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
    graph = as_graph(graph, "the D4D egonet release (seed 004 §2.3)", undirected=True)
    scheme = _check_scheme(scheme)
    min_size = check_int(min_size, "min_size", 1, "the minimum 2-hop egonet size in nodes")
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
        n_egos = check_int(n_egos, "n_egos", 1, "the number of egonets to release")
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


__all__ = ["DEFAULT_MIN_SIZE", "EgonetRelease", "egonet_release", "two_hop_sizes"]
