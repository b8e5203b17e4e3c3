"""Auxiliary/sanitized graph pairs with known ground truth, for de-anonymization experiments.

Two generators:

:func:`sample_pair` — Sharad's construction (seed 004 §2.2, thesis §2.7 L365–377, after
Narayanan & Shmatikov): partition V at random into V_A, V_B, V_C of sizes
(1−α_V)/2·|V|, α_V·|V|, (1−α_V)/2·|V|; V1 = V_A ∪ V_B, V2 = V_B ∪ V_C (so the Jaccard
coefficient of the node sets is α_V); delete, independently from two copies of E, a uniformly
random fraction β = (1−α_E)/(1+α_E) of the edges (RSP), so that the edge sets agree with
Jaccard coefficient α_E on the common nodes in expectation; project copy 1 onto V1 (the
auxiliary graph) and copy 2 onto V2 (the sanitized graph); strip the identifiers.  An optional
anonymization ``scheme`` is then applied to the sanitized graph (Chapter 4 replaces the RSP
noise by the scheme under test: pass ``alpha_e=1`` for that), and both graphs are relabelled
by uniformly random permutations (:func:`~privlab.graph.anonymize.naive.naive_anonymize`).
The ground truth (aux id → sanitized id for the α_V·|V| common nodes) is kept aside in the
:class:`GraphPair`.

:func:`secgraph_pair` — the pair SecGraph's evaluation uses (``common.Graph.sampleGraph``;
REFERENCE_RESULTS.md, "SecGraph ... on SNAP ego-Facebook"): each of the two graphs keeps the
BFS spanning tree from the maximum-degree node and every other edge independently with
probability p; the node ids are the same on both sides, so the ground truth is the identity.

Rounding: |V_B| = ⌊α_V·|V|⌉ (nearest, halves up), |V_A| = ⌊(|V| − |V_B|)/2⌋, |V_C| the rest;
RSP deletes exactly ⌊β·|E|⌉ edges of each copy (:func:`~privlab.graph.anonymize.perturb.\
random_sparsification`).  Both generators cost O(n + m log m).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from numbers import Real
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.naive import naive_anonymize
from privlab.graph.anonymize.perturb import random_sparsification
from privlab.graph.core import Graph, as_graph


@dataclass(frozen=True, eq=False)
class GraphPair:
    """An auxiliary graph, a sanitized graph and the secret ground truth between them.

    ``truth_aux[i]`` (a node of ``aux``) and ``truth_san[i]`` (a node of ``san``) are the
    same person, for every common node; the arrays are sorted by the aux id.
    ``aux_original`` / ``san_original`` give, per node, the node of the source graph it
    came from (keep them secret too).  ``parameters`` records what was asked and measured.
    """

    aux: Graph
    san: Graph
    truth_aux: np.ndarray
    truth_san: np.ndarray
    aux_original: np.ndarray
    san_original: np.ndarray
    parameters: dict[str, Any] = field(default_factory=dict)

    @property
    def n_common(self) -> int:
        return int(self.truth_aux.size)

    def truth_array(self) -> np.ndarray:
        """int64 array over the aux nodes: the sanitized counterpart, or −1 if none."""
        out = np.full(self.aux.n_nodes, -1, dtype=np.int64)
        out[self.truth_aux] = self.truth_san
        return out

    def truth_pairs(self) -> np.ndarray:
        """(n_common × 2) int64 array of (aux node, sanitized node)."""
        return np.stack([self.truth_aux, self.truth_san], axis=1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "parameters": dict(self.parameters),
            "aux_nodes": self.aux.n_nodes,
            "aux_edges": self.aux.n_edges,
            "san_nodes": self.san.n_nodes,
            "san_edges": self.san.n_edges,
            "common_nodes": self.n_common,
        }


# ============================================================================ Sharad / NS
def sample_pair(
    graph: Graph,
    alpha_v: float,
    alpha_e: float,
    *,
    seed: Any = None,
    scheme: Callable[..., Any] | None = None,
) -> GraphPair:
    """Sharad's auxiliary/sanitized pair with node overlap α_V and edge overlap α_E.

    Seed 004 §2.2 (thesis §2.7 L365–377), steps 1–6 exactly; see the module docstring.
    ``scheme``, if given, is called as ``scheme(sanitized_graph, seed=generator)`` after the
    projection and must return a Graph on the same nodes, or an object with such a
    ``.graph`` (every scheme in :mod:`privlab.graph.anonymize` does, e.g.
    ``functools.partial(random_switch, fraction=0.2)``).  Both graphs are then relabelled by
    uniformly random permutations.  ``parameters`` records α_V, α_E, β, the deleted edge
    counts, the scheme's name and the measured overlaps: ``measured_alpha_v`` (Jaccard of
    the node sets) and ``measured_alpha_e`` (Jaccard of the edge sets restricted to the
    common nodes, before the scheme).  A fixed ``seed`` is flagged ``insecure_seed``.

    ConfigError for α outside (0, 1]; InputError for a directed graph or when the rounding
    leaves no common node.  O(n + m log m) plus the scheme.
    """
    graph = as_graph(graph, "the graph-pair generator (seed 004 §2.2)", undirected=True)
    av = _check_alpha(alpha_v, "alpha_v")
    ae = _check_alpha(alpha_e, "alpha_e")
    n = graph.n_nodes
    n_b = math.floor(av * n + 0.5)
    if n_b == 0:
        raise InputError(
            f"alpha_v = {alpha_v!r} on {n} nodes leaves no common node (⌊α_V·|V|⌉ = 0); "
            "raise alpha_v or use a larger graph"
        )
    rng = secure_generator(seed)
    n_a = (n - n_b) // 2
    perm = rng.permutation(n)
    v1 = np.sort(perm[: n_a + n_b])  # V_A ∪ V_B
    v2 = np.sort(perm[n_a:])  # V_B ∪ V_C
    common = np.sort(perm[n_a : n_a + n_b])

    beta = (1.0 - ae) / (1.0 + ae)
    copy1 = random_sparsification(graph, beta, seed=rng)
    copy2 = random_sparsification(graph, beta, seed=rng)
    g1 = copy1.graph.induced(v1)
    g2 = copy2.graph.induced(v2)
    measured_e = _edge_jaccard(g1, v1, g2, v2, common)

    scheme_name = None
    if scheme is not None:
        out = scheme(g2, seed=rng)
        g2s = getattr(out, "graph", out)
        if not isinstance(g2s, Graph) or g2s.n_nodes != g2.n_nodes:
            raise InputError(
                "scheme must return a Graph on the same nodes (or a result with such a "
                f".graph); got {type(out).__name__}"
            )
        scheme_name = (
            getattr(out, "scheme", None)
            or getattr(scheme, "__name__", None)
            or getattr(getattr(scheme, "func", None), "__name__", None)
            or repr(scheme)
        )
        g2 = g2s

    r1 = naive_anonymize(g1, seed=rng)
    r2 = naive_anonymize(g2, seed=rng)
    aux_original = v1[r1.mapping]
    san_original = v2[r2.mapping]
    aux_of = np.full(n, -1, dtype=np.int64)
    aux_of[aux_original] = np.arange(aux_original.size)
    san_of = np.full(n, -1, dtype=np.int64)
    san_of[san_original] = np.arange(san_original.size)
    ta, ts = aux_of[common], san_of[common]
    order = np.argsort(ta)
    params = {
        "generator": "sharad",
        "alpha_v": av,
        "alpha_e": ae,
        "beta": beta,
        "deleted_aux_copy": copy1.edges_removed,
        "deleted_san_copy": copy2.edges_removed,
        "scheme": scheme_name,
        "measured_alpha_v": n_b / (v1.size + v2.size - n_b),
        "measured_alpha_e": measured_e,
        "source_nodes": n,
        "source_edges": graph.n_edges,
        "insecure_seed": is_insecure_seed(seed),
    }
    return GraphPair(r1.graph, r2.graph, ta[order], ts[order], aux_original, san_original, params)


# ============================================================================ SecGraph
def secgraph_pair(graph: Graph, p: float = 0.9, *, seed: Any = None) -> GraphPair:
    """SecGraph's pair: two independent edge samples that both keep a BFS spanning tree.

    REFERENCE_RESULTS.md (SecGraph's ``common.Graph.sampleGraph``): the BFS tree from the
    maximum-degree node (the lowest id among ties, as ``findLargestNode``) is kept in both
    graphs; every other edge is kept independently with probability ``p``, independently in
    each graph.  Node ids are unchanged, so the ground truth is the identity on all nodes
    (nodes outside the root's component keep their ids too; SecGraph's files would drop
    the isolated ones).  ConfigError unless 0 ≤ p ≤ 1; InputError if directed.  O(n + m).
    """
    graph = as_graph(graph, "SecGraph's pair generator", undirected=True)
    if isinstance(p, bool) or not isinstance(p, Real) or not (0.0 <= float(p) <= 1.0):
        raise ConfigError(f"p = {p!r}: give the edge-keeping probability, a number in [0, 1]")
    rng = secure_generator(seed)
    n = graph.n_nodes
    edges = graph.edges()
    tree = np.zeros(edges.shape[0], dtype=bool)
    root = -1
    if n and edges.size:
        from scipy.sparse.csgraph import breadth_first_order

        root = int(np.argmax(graph.degrees()))
        order, pred = breadth_first_order(
            graph.to_scipy(), root, directed=False, return_predecessors=True
        )
        child = order[1:]
        par = pred[child]
        lo, hi = np.minimum(child, par), np.maximum(child, par)
        key = edges[:, 0] * n + edges[:, 1]  # edges() is sorted row-major with u < v
        tree[np.searchsorted(key, lo * n + hi)] = True
    sides = []
    for _ in range(2):
        keep = tree | (rng.random(edges.shape[0]) < float(p))
        sides.append(_subgraph_edges(graph, edges[keep]))
    ident = np.arange(n, dtype=np.int64)
    params = {
        "generator": "secgraph",
        "p": float(p),
        "root": root,
        "tree_edges": int(tree.sum()),
        "aux_edges": sides[0].n_edges,
        "san_edges": sides[1].n_edges,
        "source_nodes": n,
        "source_edges": graph.n_edges,
        "insecure_seed": is_insecure_seed(seed),
    }
    return GraphPair(sides[0], sides[1], ident, ident.copy(), ident.copy(), ident.copy(), params)


# ============================================================================ helpers
def _check_alpha(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ConfigError(f"{name} = {value!r}: give an overlap in (0, 1]")
    x = float(value)
    if not math.isfinite(x) or not 0.0 < x <= 1.0:
        raise ConfigError(f"{name} = {value!r}: give an overlap in (0, 1] (1 = identical)")
    return x


def _subgraph_edges(graph: Graph, edges: np.ndarray) -> Graph:
    return Graph.from_edges(graph.n_nodes, edges, directed=False)


def _edge_jaccard(g1: Graph, v1: np.ndarray, g2: Graph, v2: np.ndarray, common) -> float:
    """Jaccard coefficient of the two edge sets restricted to the common nodes."""
    n = int(max(v1.max(initial=0), v2.max(initial=0))) + 1
    is_common = np.zeros(n, dtype=bool)
    is_common[common] = True

    def keys(g: Graph, v: np.ndarray) -> np.ndarray:
        e = v[g.edges()]
        e = e[is_common[e].all(axis=1)]
        return np.minimum(e[:, 0], e[:, 1]) * n + np.maximum(e[:, 0], e[:, 1])

    k1, k2 = keys(g1, v1), keys(g2, v2)
    union = np.union1d(k1, k2).size
    return float(np.intersect1d(k1, k2).size / union) if union else 1.0


__all__ = ["GraphPair", "sample_pair", "secgraph_pair"]
