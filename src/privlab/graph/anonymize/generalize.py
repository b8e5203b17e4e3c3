"""Supernode generalization (Hay, Miklau, Jensen, Towsley & Weis, VLDB 2008).

Source: M. Hay, G. Miklau, D. Jensen, D. Towsley and P. Weis, "Resisting structural
re-identification in anonymized social networks", VLDB 2008 (§5, "Graph generalization");
named in seed 004 §2.9 ("Hay et al. super-nodes and super-edges", thesis Ch. 2) and seed
002-003 (which records that the partition algorithm is in the VLDB paper, not in its file);
issue #16.

The nodes are partitioned into *supernodes* of at least k nodes each, and only this is
published: each supernode's size and number of internal edges, and for each pair of
supernodes the number of edges between them.  Who is in which supernode (the assignment) is
the publisher's secret, like the mapping of naive anonymization.  Any node is then
indistinguishable from the k − 1 or more others of its supernode, whatever structural
knowledge the adversary has: the release does not tell the members of a supernode apart.

Of all partitions with supernodes of size ≥ k, Hay et al. publish the one that maximizes the
likelihood of the original graph, i.e. minimizes the number of graphs consistent with the
release,

    log W = Σ_X log C(|X|(|X|−1)/2, d(X,X)) + Σ_{X<Y} log C(|X|·|Y|, d(X,Y)),

found by simulated annealing.  We anneal over partitions into ⌊n/k⌋ supernodes (each state
valid: sizes ≥ k), starting from a uniformly random one with sizes as equal as possible, with
two moves drawn with equal probability: move one node to another supernode (when its own
keeps ≥ k nodes) and swap two nodes of different supernodes; a move changing log W by Δ is accepted
with probability min(1, e^(−Δ/T)), T falling geometrically from ``t_start`` to ``t_end``.
Hay et al. also merge and split supernodes; here the number of supernodes stays ⌊n/k⌋, the
finest the constraint allows, and sizes vary through the moves.

:func:`sample_graph` draws a graph uniformly from the W graphs consistent with a release, for
utility measurement (Hay et al. §6 measure utility on such samples): node ids are release
ids, supernode by supernode.  :func:`check_generalization` verifies the definition against
the original graph.

Cost: O(m) to build the n/k × n/k super-edge count matrix; each move costs O(n/k + deg) with
vectorized log-binomials; ``steps`` moves in all (default 10·n).  Memory O((n/k)²).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import gammaln

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.perturb import _pair_from_index, _sample_distinct
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_int, check_number_in

MAX_SUPERNODES = 20_000  # (n/k)² counts are held in memory: k must be at least n / this


@dataclass(frozen=True)
class GeneralizedGraph:
    """A generalized graph: supernode sizes, internal and cross edge counts (published) and
    the node → supernode assignment (secret).

    ``superedges`` is an (r × 3) int array of rows (a, b, edges) with a < b and edges > 0.
    ``log_worlds`` = log W, the natural log of the number of graphs consistent with the
    release (the annealing's objective, lower is better).
    """

    sizes: np.ndarray
    internal: np.ndarray
    superedges: np.ndarray
    assignment: np.ndarray
    k: int
    log_worlds: float
    log_worlds_start: float
    steps: int
    accepted: int
    insecure_seed: bool = False

    @property
    def n_supernodes(self) -> int:
        return int(self.sizes.size)

    def release(self) -> dict[str, Any]:
        """The publishable part, as JSON-ready lists (no assignment)."""
        return {
            "format": "privlab-generalized-graph/1",
            "k": self.k,
            "supernodes": [{"id": i, "size": int(s), "internal_edges": int(e)}
                           for i, (s, e) in enumerate(zip(self.sizes, self.internal,
                                                          strict=True))],
            "superedges": [{"a": int(a), "b": int(b), "edges": int(c)}
                           for a, b, c in self.superedges.tolist()],
        }  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": "supernode", "k": self.k, "supernodes": self.n_supernodes,
            "nodes": int(self.sizes.sum()),
            "edges": int(self.internal.sum() + self.superedges[:, 2].sum()),
            "superedges": int(self.superedges.shape[0]), "min_size": int(self.sizes.min()),
            "max_size": int(self.sizes.max()), "log_worlds": self.log_worlds,
            "log_worlds_start": self.log_worlds_start, "steps": self.steps,
            "accepted": self.accepted, "insecure_seed": self.insecure_seed,
        }  # fmt: skip


def supernode_generalize(
    graph: Graph, k: int, *, steps: int | None = None, t_start: float = 1.0,
    t_end: float = 1e-3, seed: Any = None,
) -> GeneralizedGraph:  # fmt: skip
    """Hay et al.'s generalization: supernodes of ≥ k nodes chosen by simulated annealing on
    the likelihood (module docstring).  ``steps``: annealing moves (default 10·n).
    ConfigError if k > n or if n/k exceeds :data:`MAX_SUPERNODES`.  Cost: module docstring.
    """
    g = as_graph(graph, "supernode generalization (Hay et al.)", undirected=True)
    n = g.n_nodes
    k = check_int(k, "k", 1, hint="every supernode holds at least k nodes")
    if k > n:
        raise ConfigError(f"k = {k}: the graph has only {n} nodes; give k ≤ {n}")
    groups = n // k
    if groups > MAX_SUPERNODES:
        raise ConfigError(
            f"k = {k} makes {groups} supernodes of a {n}-node graph; their pairwise counts "
            f"would not fit in memory — give k ≥ {math.ceil(n / MAX_SUPERNODES)}"
        )
    steps = 10 * n if steps is None else check_int(steps, "steps", 0)
    t0 = check_number_in(t_start, "t_start", 0.0, 1e6, low_open=True)
    t1 = check_number_in(t_end, "t_end", 0.0, t0, low_open=True, hint="at most t_start")
    rng = secure_generator(seed)
    state = _Anneal(g, k, rng)
    start = state.cost()
    accepted = state.run(steps, t0, t1)
    d = state.d
    a, b = np.nonzero(np.triu(d, 1))
    superedges = np.stack([a, b, d[a, b]], axis=1).astype(np.int64)
    return GeneralizedGraph(
        sizes=state.sizes.copy(), internal=np.diag(d).astype(np.int64).copy(),
        superedges=superedges, assignment=state.assign.copy(), k=k, log_worlds=state.cost(),
        log_worlds_start=start, steps=steps, accepted=accepted,
        insecure_seed=is_insecure_seed(seed),
    )  # fmt: skip


def sample_graph(gen: GeneralizedGraph, *, seed: Any = None) -> Graph:
    """A graph drawn uniformly from those consistent with the release: in each supernode
    d(X,X) of its internal pairs, between each pair d(X,Y) of its cross pairs, uniform
    subsets.  Nodes 0..n−1 in release order (supernode 0's first).  O(|E| log |E|)."""
    rng = secure_generator(seed)
    offset = np.concatenate([[0], np.cumsum(gen.sizes)])
    parts = []
    for x, (s, e) in enumerate(zip(gen.sizes.tolist(), gen.internal.tolist(), strict=True)):
        if e:
            pairs = _pair_from_index(_sample_distinct(s * (s - 1) // 2, e, rng), s)
            parts.append(pairs + offset[x])
    for a, b, e in gen.superedges.tolist():
        cells = _sample_distinct(gen.sizes[a] * gen.sizes[b], e, rng)
        i, j = np.divmod(cells, gen.sizes[b])
        parts.append(np.stack([i + offset[a], j + offset[b]], axis=1))
    edges = np.concatenate(parts) if parts else np.empty((0, 2), dtype=np.int64)
    return Graph.from_edges(int(offset[-1]), edges)


def check_generalization(gen: GeneralizedGraph, graph: Graph) -> None:
    """InputError unless ``gen`` is a valid generalization of ``graph`` for its k: every node
    in exactly one supernode, every supernode of ≥ k nodes, and the published internal and
    cross edge counts equal to those of the graph under the assignment.  O(m + (n/k)²)."""
    g = as_graph(graph, "check generalization", undirected=True)
    if gen.assignment.shape != (g.n_nodes,):
        raise InputError(f"assignment covers {gen.assignment.size} nodes, graph has {g.n_nodes}")
    sizes = np.bincount(gen.assignment, minlength=gen.n_supernodes)
    if not np.array_equal(sizes, gen.sizes):
        raise InputError("published supernode sizes differ from the assignment's")
    if sizes.min() < gen.k:
        raise InputError(f"supernode {int(np.argmin(sizes))} has {sizes.min()} < k = {gen.k} nodes")
    d = _counts(g, gen.assignment, gen.n_supernodes)
    if not np.array_equal(np.diag(d), gen.internal):
        raise InputError("published internal edge counts differ from the graph's")
    a, b = np.nonzero(np.triu(d, 1))
    if not np.array_equal(np.stack([a, b, d[a, b]], axis=1), gen.superedges):
        raise InputError("published super-edge counts differ from the graph's")


# ============================================================================ annealing
def _counts(g: Graph, assign: np.ndarray, groups: int) -> np.ndarray:
    """d[X, Y]: edges between supernodes X ≠ Y (symmetric), d[X, X]: edges inside X."""
    e = g.edges()
    d = np.zeros((groups, groups), dtype=np.int64)
    np.add.at(d, (assign[e[:, 0]], assign[e[:, 1]]), 1)
    d = d + d.T
    d[np.diag_indices(groups)] //= 2
    return d


def _lbinom(total: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    total = np.asarray(total, dtype=np.float64)
    chosen = np.asarray(chosen, dtype=np.float64)
    return gammaln(total + 1) - gammaln(chosen + 1) - gammaln(total - chosen + 1)


class _Anneal:
    def __init__(self, g: Graph, k: int, rng: np.random.Generator) -> None:
        n = g.n_nodes
        self.g, self.k, self.rng = g, k, rng
        groups = n // k
        start = np.repeat(np.arange(groups), k)
        extra = rng.permutation(groups)[np.arange(n - start.size) % groups]  # the n mod k
        start = np.concatenate([start, extra])
        self.assign = rng.permutation(start).astype(np.int64)
        self.sizes = np.bincount(self.assign, minlength=groups).astype(np.int64)
        self.d = _counts(g, self.assign, groups)

    def cost(self) -> float:
        s, d = self.sizes, self.d
        inner = _lbinom(s * (s - 1) // 2, np.diag(d)).sum()
        cross = _lbinom(np.outer(s, s), d)
        np.fill_diagonal(cross, 0.0)
        return float(inner + cross.sum() / 2)

    def _local(self, x: int, y: int) -> float:
        """The terms of log W that involve supernode x or y."""
        s, d = self.sizes, self.d
        cx, cy = _lbinom(s[x] * s, d[x]), _lbinom(s[y] * s, d[y])
        cx[x] = _lbinom(s[x] * (s[x] - 1) // 2, d[x, x])
        cy[y] = _lbinom(s[y] * (s[y] - 1) // 2, d[y, y])
        return float(cx.sum() + cy.sum() - cx[y])

    def _move(self, v: int, b: int) -> None:
        a = int(self.assign[v])
        nb = self.g.indices[self.g.indptr[v] : self.g.indptr[v + 1]]
        e = np.bincount(self.assign[nb], minlength=self.sizes.size)
        d = self.d
        d[a] -= e
        d[:, a] -= e
        d[a, a] += e[a]  # internal: only e[a] edges left a (counted twice above)
        d[b] += e
        d[:, b] += e
        d[b, b] -= e[b]
        self.assign[v] = b
        self.sizes[a] -= 1
        self.sizes[b] += 1

    def run(self, steps: int, t0: float, t1: float) -> int:
        rng, n, groups = self.rng, self.assign.size, self.sizes.size
        if groups < 2 or steps == 0:
            return 0
        ratio = (t1 / t0) ** (1.0 / max(steps - 1, 1))
        temp, accepted = t0, 0
        verts = rng.integers(0, n, size=(steps, 2))
        targets = rng.integers(0, groups - 1, size=steps)
        swap = rng.random(steps) < 0.5
        coins = rng.random(steps)
        for i in range(steps):
            v, w = int(verts[i, 0]), int(verts[i, 1])
            a = int(self.assign[v])
            if swap[i]:
                b = int(self.assign[w])
                if a == b:
                    temp *= ratio
                    continue
                moves = [(v, b), (w, a)]
            else:
                b = int(targets[i]) + (int(targets[i]) >= a)  # uniform over the others
                if self.sizes[a] <= self.k:
                    temp *= ratio
                    continue
                moves = [(v, b)]
            before = self._local(a, b)
            for node, dest in moves:
                self._move(node, dest)
            delta = self._local(a, b) - before
            if delta <= 0 or coins[i] < math.exp(-delta / temp):
                accepted += 1
            else:
                for node, dest in reversed(moves):
                    self._move(node, b if dest == a else a)
            temp *= ratio
        return accepted


__all__ = [
    "MAX_SUPERNODES",
    "GeneralizedGraph",
    "check_generalization",
    "sample_graph",
    "supernode_generalize",
]
