"""Where a de-anonymization mapping goes wrong: error proximity and 2-hop neighbourhood overlap.

Sharad (seed 004 §2.12 and §3.4.5; thesis §5.4, Figs 5.11–5.15, and §3.4.5) explains an
attack's errors with two measures on the pair (G_aux, G_san) and its ground truth:

* **Error proximity.**  G_aux and G_san are merged on their common nodes into G_comp; for
  every output pair (u, v) the shortest-path length in G_comp between u and v is measured —
  0 when v is u's true counterpart.  The thesis finds almost every output within 2 hops of
  the true node, errors clustering at distance 2 ("false positives are socially close to
  the true match").
* **2-hop neighbourhood overlap.**  The Jaccard coefficient of the two nodes' 2-hop
  neighbourhoods, compared in G_comp's node ids (so a san node's neighbours count as the
  same people as their aux counterparts).  For a true pair (u, t(u)) it says how much of
  u's surroundings survived into the sanitized graph; Fig 5.15 groups the true pairs by the
  attack's outcome (correct / wrong / not mapped) and finds correct ones clearly higher.
  §3.4.5 bins scored pairs by the same coefficient (identical and non-identical alike).

The 2-hop neighbourhood of x is every node at distance 1 or 2, x itself excluded; a node
whose neighbourhood is empty in both graphs has overlap 0.  Distances beyond ``max_hops``
(or to another component) are reported together as "farther".

Costs: building G_comp is O(n + m).  Proximity runs one BFS per output pair, cut at
``max_hops`` (scipy's csgraph, batched): O(k · (n + m)) worst case for k pairs, far less
when most pairs are near.  Overlap builds each batch of 2-hop rows with one sparse product,
O(Σ over the batch of Σ_{y ∈ N(x)} deg(y)) per graph.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.graph.core import Graph
from privlab.io.edgelist import simplify_edges
from privlab.validate import check_int

OUTCOMES = ("correct", "wrong", "unmapped")
JACCARD_BANDS = (0.0, 0.05, 0.10, 0.15, 1.0)  # §3.4.5's bands: < 0.05, …, ≥ 0.15


@dataclass(frozen=True)
class Composite:
    """G_comp and the maps of both graphs' nodes into it."""

    graph: Graph
    aux_id: np.ndarray  # aux node → G_comp node (the identity)
    san_id: np.ndarray  # san node → G_comp node


def composite_graph(aux: Graph, san: Graph, truth: np.ndarray) -> Composite:
    """G_comp: aux's nodes keep their ids; a san node with a true aux counterpart becomes
    it, every other san node a new node after them; edges are the union.  ``truth[u]`` is
    u's san counterpart or −1.  O(n + m)."""
    return _composite(aux, san, _truth(aux, san, truth))


def _composite(aux: Graph, san: Graph, truth: np.ndarray) -> Composite:
    """:func:`composite_graph` for a checked ``truth``."""
    san_id = np.full(san.n_nodes, -1, dtype=np.int64)
    common = np.flatnonzero(truth >= 0)
    san_id[truth[common]] = common
    only = np.flatnonzero(san_id < 0)
    san_id[only] = aux.n_nodes + np.arange(only.size)
    n = aux.n_nodes + only.size
    union = simplify_edges(np.concatenate([aux.edges(), san_id[san.edges()]])).edges
    return Composite(Graph.from_edges(n, union), np.arange(aux.n_nodes), san_id)


def error_proximity(
    aux: Graph, san: Graph, truth: np.ndarray, pairs: np.ndarray, *, max_hops: int = 6
) -> np.ndarray:
    """The G_comp distance of every (aux, san) pair in ``pairs``: 0 = correct, −1 = farther
    than ``max_hops`` or unreachable.  See the module docstring."""
    check_int(max_hops, "max_hops", 1)
    return _distances(composite_graph(aux, san, truth), _pairs(aux, san, pairs), max_hops)


def _distances(comp: Composite, pairs: np.ndarray, max_hops: int) -> np.ndarray:
    """:func:`error_proximity` on a built G_comp and checked pairs."""
    from scipy.sparse.csgraph import dijkstra

    src, dst = comp.aux_id[pairs[:, 0]], comp.san_id[pairs[:, 1]]
    out = np.full(pairs.shape[0], -1, dtype=np.int64)
    if not pairs.shape[0]:
        return out
    adj = comp.graph.to_scipy()
    batch = max(1, 2**22 // max(comp.graph.n_nodes, 1))  # rows of the distance block at once
    for lo in range(0, src.size, batch):
        s = src[lo : lo + batch]
        sources, inverse = np.unique(s, return_inverse=True)
        dist = dijkstra(adj, directed=False, unweighted=True, indices=sources,
                        limit=max_hops + 0.5)  # fmt: skip
        d = dist[inverse.ravel(), dst[lo : lo + batch]]
        ok = np.isfinite(d)
        out[lo : lo + batch][ok] = d[ok].astype(np.int64)
    return out


def two_hop_jaccard(
    aux: Graph, san: Graph, truth: np.ndarray, pairs: np.ndarray, *, batch: int = 1024
) -> np.ndarray:
    """Jaccard coefficient of the 2-hop neighbourhoods (in G_comp ids) of each (aux, san)
    pair.  See the module docstring."""
    comp = composite_graph(aux, san, truth)
    return _overlaps(aux, san, comp, _pairs(aux, san, pairs), batch)


def _overlaps(aux: Graph, san: Graph, comp: Composite, pairs: np.ndarray, batch: int):
    """:func:`two_hop_jaccard` on a built G_comp and checked pairs."""
    out = np.zeros(pairs.shape[0])
    n = comp.graph.n_nodes
    a, s = _two_hop_rows(aux, comp.aux_id, n), _two_hop_rows(san, comp.san_id, n)
    for lo in range(0, pairs.shape[0], batch):
        ra = a(pairs[lo : lo + batch, 0])
        rs = s(pairs[lo : lo + batch, 1])
        inter = np.asarray(ra.multiply(rs).sum(axis=1)).ravel()
        union = np.asarray(ra.sum(axis=1)).ravel() + np.asarray(rs.sum(axis=1)).ravel() - inter
        out[lo : lo + batch] = inter / np.maximum(union, 1)  # 0 / 1 when both are empty
    return out


@dataclass(frozen=True)
class MappingErrors:
    """A mapping's errors explained (seed 004 §2.12, Figs 5.11–5.15).

    ``proximity``: distance → number of output pairs (seeds excluded; −1 = farther);
    ``overlap``: per outcome of the true pairs, the 2-hop Jaccard values' count, mean,
    median and their histogram over :data:`JACCARD_BANDS`."""

    proximity: dict[int, int]
    overlap: dict[str, dict[str, Any]]
    max_hops: int
    outputs: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_hops": self.max_hops,
            "outputs": self.outputs,
            "proximity": {("farther" if d < 0 else str(d)): c for d, c in self.proximity.items()},
            "overlap": self.overlap,
        }


def mapping_errors(
    aux: Graph,
    san: Graph,
    truth: np.ndarray,
    mapping: np.ndarray,
    *,
    seeds: np.ndarray | None = None,
    max_hops: int = 6,
) -> MappingErrors:
    """Error proximity of the output pairs and 2-hop overlap of the true pairs by outcome.

    ``mapping``: (k × 2) output pairs (aux, san).  ``seeds`` (optional, (s × 2)): pairs the
    attacker was given; left out of both measures, as they were not found.
    """
    truth = _truth(aux, san, truth)
    pairs = _pairs(aux, san, mapping)
    given = np.zeros(aux.n_nodes, dtype=bool)
    if seeds is not None and len(seeds):
        given[_pairs(aux, san, seeds)[:, 0]] = True
    found = pairs[~given[pairs[:, 0]]]
    check_int(max_hops, "max_hops", 1)
    comp = _composite(aux, san, truth)
    dist = _distances(comp, found, max_hops)
    values, counts = np.unique(dist, return_counts=True)
    proximity = {int(v): int(c) for v, c in zip(values, counts, strict=True)}
    image = np.full(aux.n_nodes, -1, dtype=np.int64)
    image[found[:, 0]] = found[:, 1]
    true_u = np.flatnonzero((truth >= 0) & ~given)
    jc = _overlaps(aux, san, comp, np.stack([true_u, truth[true_u]], axis=1), 1024)
    got = image[true_u]
    outcome = np.where(got < 0, 2, np.where(got == truth[true_u], 0, 1))
    overlap = {}
    for code, name in enumerate(OUTCOMES):
        v = jc[outcome == code]
        hist, _ = np.histogram(v, bins=JACCARD_BANDS)
        overlap[name] = {
            "pairs": int(v.size),
            "mean": float(v.mean()) if v.size else None,
            "median": float(np.median(v)) if v.size else None,
            "bands": {_band(i): int(h) for i, h in enumerate(hist)},
        }
    return MappingErrors(proximity, overlap, max_hops, int(found.shape[0]))


def _band(i: int) -> str:
    lo, hi = JACCARD_BANDS[i], JACCARD_BANDS[i + 1]
    if hi >= 1.0:
        return f"≥ {lo:.2f}"
    return f"< {hi:.2f}" if lo == 0.0 else f"{lo:.2f}–{hi:.2f}"


def _two_hop_rows(g: Graph, ids: np.ndarray, n: int):
    """A function: nodes of g → their 2-hop neighbourhoods as 0/1 sparse rows over G_comp."""
    import scipy.sparse as sp

    adj = g.to_scipy().tocsr().astype(np.int32)
    relabel = sp.csr_matrix(
        (np.ones(g.n_nodes, dtype=np.int32), (np.arange(g.n_nodes), ids)), shape=(g.n_nodes, n)
    )

    def rows(nodes: np.ndarray):
        near = adj[nodes]
        reach = (near + near @ adj).tocsr()
        reach.data[:] = 1
        itself = sp.csr_matrix(
            (np.ones(nodes.size, dtype=np.int32), (np.arange(nodes.size), nodes)), shape=reach.shape
        )
        reach = (reach - reach.multiply(itself)).tocsr()  # the node is not its own neighbour
        reach.eliminate_zeros()
        out = (reach @ relabel).tocsr()
        out.data[:] = 1
        return out

    return rows


def _truth(aux: Graph, san: Graph, truth: Any) -> np.ndarray:
    t = np.asarray(truth, dtype=np.int64)
    if t.shape != (aux.n_nodes,):
        raise InputError(f"truth: expected one entry per aux node ({aux.n_nodes}), got {t.shape}")
    if t.size and (t.max() >= san.n_nodes or t.min() < -1):
        raise InputError("truth: an entry names no san node (use −1 for none)")
    common = t[t >= 0]
    if np.unique(common).size != common.size:
        raise InputError("truth: a san node is the counterpart of two aux nodes")
    return t


def _pairs(aux: Graph, san: Graph, pairs: Any) -> np.ndarray:
    p = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    if p.size and (p[:, 0].min() < 0 or p[:, 0].max() >= aux.n_nodes
                   or p[:, 1].min() < 0 or p[:, 1].max() >= san.n_nodes):  # fmt: skip
        raise InputError("mapping: a pair names a node outside the pair's graphs")
    return p
