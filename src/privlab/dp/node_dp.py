"""Node-level DP degree histogram by edge-addition projection to degree ≤ θ.

Seed 000 §2.9 (thesis §7.4, Defs 7.9–7.10): node neighbours differ by one node and all its
edges, so a plain degree statistic has unbounded node sensitivity (the empty graph and the
n-star are neighbours) — "node-DP is usually too noisy".  The thesis stops there; the
remedy, projection to bounded degree, is [EXTERNAL]: Day, Li & Lyu, "Publishing graph degree
distribution with node differential privacy" (SIGMOD 2016, edge-addition projection;
the bound below is their stated sensitivity), after Kasiviswanathan et al. (TCC 2013) and
Blocki et al. (ITCS 2013) on truncation.

**Projection.**  Visit the edges in a *stable* order — fixed by the node identities alone,
here by a public rank of each node — and keep an edge iff both its ends still have fewer
than θ kept edges.  Every degree of the projection G^θ is ≤ θ.

**Sensitivity.**  Adding a node v (with any edges) changes the degree histogram of G^θ,
over the bins 0..θ, by at most 2θ + 1 in L1: v itself is one new entry; each of its ≤ θ
kept edges can block one later edge, whose other end then takes one later edge, and so on —
a chain along which every inner node keeps its degree, so each chain moves at most one node
by one bin (2 in L1).  The release adds two-sided geometric noise of scale (2θ + 1)/ε to
each of the θ + 1 bins: ε-node-DP.  ``tests/dp/test_node_dp.py`` checks the bound by
brute force on random small graphs (every node removed).

Complexity: O(m log m) for the order, O(m) for the projection, O(θ) for the noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.accountant import check_epsilon
from privlab.dp.mechanisms import Release, geometric
from privlab.errors import InputError
from privlab.validate import check_int


@dataclass(frozen=True)
class Projection:
    """The kept edges (rows of the edge array) and the projected degrees."""

    kept: np.ndarray
    degrees: np.ndarray


def edge_addition_projection(
    edges: Any, n_nodes: int, theta: int, *, rank: Any = None
) -> Projection:
    """Keep an edge iff both ends have < θ kept edges, in the stable order of ``rank``.

    ``edges``: m × 2 node indices of an undirected simple graph; ``rank``: a public
    ordering of the nodes (default: the node index).  Edges are visited by (lower rank,
    higher rank).  O(m log m).
    """
    t = check_int(theta, "theta", 1)
    n = check_int(n_nodes, "n_nodes", 0)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if e.size and (e.min() < 0 or e.max() >= n):
        raise InputError(f"edges: node indices must lie in 0..{n - 1}")
    r = np.arange(n) if rank is None else np.asarray(rank, dtype=np.int64)
    if r.shape != (n,):
        raise InputError(f"rank: one rank per node ({n}) expected")
    ru, rw = r[e[:, 0]], r[e[:, 1]]
    order = np.lexsort((np.maximum(ru, rw), np.minimum(ru, rw)))
    deg = np.zeros(n, dtype=np.int64)
    kept = np.zeros(len(e), dtype=bool)
    for i in order.tolist():
        u, w = int(e[i, 0]), int(e[i, 1])
        if u != w and deg[u] < t and deg[w] < t:
            deg[u] += 1
            deg[w] += 1
            kept[i] = True
    return Projection(kept, deg)


def projected_histogram(edges: Any, n_nodes: int, theta: int, *, rank: Any = None) -> np.ndarray:
    """Exact degree histogram (bins 0..θ) of the θ-projection — not private."""
    p = edge_addition_projection(edges, n_nodes, theta, rank=rank)
    return np.bincount(p.degrees, minlength=int(theta) + 1)


def node_dp_degree_histogram(
    graph: Any, theta: int, epsilon: float, *, rank: Any = None, seed: Any = None
) -> Release:
    """ε-node-DP degree histogram: project to degree ≤ θ, add geometric noise of scale
    (2θ + 1)/ε per bin (Day, Li & Lyu 2016's stated sensitivity 2θ + 1).

    ``graph``: a :class:`privlab.graph.core.Graph` (or anything ``as_graph`` accepts).
    Degrees above θ are lost to the projection (bias); choose θ from public knowledge.
    O(m log m + θ).
    """
    from privlab.graph.core import as_graph

    eps = check_epsilon(epsilon)
    t = check_int(theta, "theta", 1)
    g = as_graph(graph, undirected=True)
    hist = projected_histogram(g.edges(), g.n_nodes, t, rank=rank)
    release = geometric(hist.astype(np.int64), 2 * t + 1, eps, seed=seed)
    return Release(
        release.value,
        eps,
        0.0,
        "node-DP degree histogram (edge-addition projection)",
        {"theta": t, "sensitivity": 2 * t + 1, "scale": (2 * t + 1) / eps, "bins": t + 1},
        release.insecure_seed,
    )
