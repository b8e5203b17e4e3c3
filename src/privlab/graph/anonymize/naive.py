"""Naive anonymization: a truly random relabelling (seed 002 §A.2.1, seed 000 §2.10).

SecGraph's "ID removal" is not random (REFERENCE_RESULTS.md); here the permutation is drawn
uniformly from a cryptographically seeded generator and the edge order is shuffled too, so
neither ids nor file order carry the original identities.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.noise import secure_generator
from privlab.graph.core import Graph, as_graph


@dataclass(frozen=True)
class NaiveRelease:
    """A naively anonymized graph and the secret mapping (release id → original node)."""

    graph: Graph
    mapping: np.ndarray

    def original(self, released: int) -> int:
        return int(self.mapping[released])


def naive_anonymize(graph: Graph, *, seed: Any = None) -> NaiveRelease:
    """Replace node ids by a uniformly random permutation; labels are dropped.

    Seed 002 §A.2.1 / seed 000 §2.10: the release is isomorphic to the original; only the
    ids change.  The permutation comes from a cryptographically seeded generator unless a
    seed is given.  Returns the relabelled graph and ``mapping[new] = old`` (keep it
    secret).  O(m log m).
    """
    graph = as_graph(graph, "naive anonymization")
    rng = secure_generator(seed)
    perm = rng.permutation(graph.n_nodes)  # old -> new
    mapping = np.empty_like(perm)
    mapping[perm] = np.arange(graph.n_nodes)
    e = graph.edges()
    new = perm[e]
    new = new[rng.permutation(new.shape[0])]
    return NaiveRelease(Graph.from_edges(graph.n_nodes, new, directed=graph.directed), mapping)


__all__ = ["NaiveRelease", "naive_anonymize"]
