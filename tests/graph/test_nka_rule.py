"""The NKA authors' propagation rule (``propagate(..., scoring="nka")``, NKA's
``ns_rule="authors"``): σ over the candidates that scored, a sole candidate always
eccentric, hand-checked against SecGraph's rule and against a literal loop.

Source: Nilizadeh, Kapadia & Ahn's ``Comm_Blind.propagationStep`` / ``matchScores`` /
``eccentricity`` (SecGraph's fork, "Shirin's community de-anonymization code/"); see
docs/graph/nka.md.
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError
from privlab.graph.attacks.nka import nka
from privlab.graph.attacks.propagation import _scored_best, propagate
from privlab.graph.core import Graph
from privlab.graph.pairs import secgraph_pair


# ---------------------------------------------------------------- the eccentricity
def test_scored_eccentricity_by_hand():
    u = np.array([5, 7, 9])
    # scores 3, 1, 1: mean 5/3, population variance (16/9 + 4/9 + 4/9) / 3 = 8/9,
    # eccentricity (3 − 1) / √(8/9) = 2.1213…
    ecc = 2 / math.sqrt(8 / 9)
    assert _scored_best(u, np.array([3.0, 1.0, 1.0]), ecc - 1e-9) == 5
    assert _scored_best(u, np.array([3.0, 1.0, 1.0]), ecc + 1e-9) == -1
    # two different scores: the eccentricity is always (a − b) / ((a − b) / 2) = 2
    assert _scored_best(u[:2], np.array([0.2, 0.1]), 2.0 - 1e-9) == 5
    assert _scored_best(u[:2], np.array([0.1, 0.2]), 2.0 + 1e-9) == -1
    # a sole candidate: s / 0 = +inf in the authors' float arithmetic
    assert _scored_best(u[:1], np.array([0.01]), 1e9) == 5


def test_scored_eccentricity_ties():
    u = np.array([9, 5, 7])
    # equal maxima: eccentricity 0, a match only for θ = 0, then the smallest id
    assert _scored_best(u, np.array([2.0, 2.0, 1.0]), 0.1) == -1
    assert _scored_best(u, np.array([2.0, 2.0, 1.0]), 0.0) == 5
    # every score equal: σ = 0, 0 / 0 is NaN, never a match (even at θ = 0)
    assert _scored_best(u, np.array([1.0, 1.0, 1.0]), 0.0) == -1


# ---------------------------------------------------------------- a graph by hand
def _star_of_two() -> Graph:
    """0 — 1 — 3, 0 — 2 — {4, 5}: deg(1) = 2, deg(2) = 3, leaves 3, 4, 5."""
    return Graph.from_edges(6, [[0, 1], [0, 2], [1, 3], [2, 4], [2, 5]])


def test_authors_rule_by_hand():
    """G1 = G2, seed (0, 0), θ = 0.5.

    Node 1's candidates through the seed: 1 and 2, scores 1/√2 and 1/√3.
    * Authors: two scored candidates, eccentricity 2 ≥ 0.5; the reverse is the same, so
      1 ↦ 1.  Then 2 has one candidate left (2): +∞, 2 ↦ 2; then 3 (sole candidate 3
      through 1): 3 ↦ 3.  Leaves 4 and 5 tie through 2 (σ = 0): never.
    * SecGraph: σ over all six scores (sample σ): (0.7071 − 0.5774) / 0.3342 = 0.388 < 0.5
      for node 1 and node 2 alike (both see candidates 1 and 2): nothing is added.
    """
    g = _star_of_two()
    seeds = np.array([[0, 0]])
    authors = propagate(g, g, seeds, 0.5, scoring="nka")
    assert authors.mapping.tolist() == [0, 1, 2, 3, -1, -1]
    assert authors.method == "nka"
    secgraph = propagate(g, g, seeds, 0.5)
    assert secgraph.mapping.tolist() == [0, -1, -1, -1, -1, -1]
    # at θ = 0.1 SecGraph's eccentricity 0.388 passes too, and both rules agree
    assert propagate(g, g, seeds, 0.1).mapping.tolist() == [0, 1, 2, 3, -1, -1]


# ---------------------------------------------------------------- against a literal loop
def _authors_loop(g1: Graph, g2: Graph, seeds: np.ndarray, theta: float) -> list[int]:
    """``Comm_Blind.NS`` written out: every pass visits the unmapped G1 nodes (ascending ids
    here; the code: Java HashMap order), scores the unmapped G2 nodes next to the images of
    their mapped neighbours by Σ 1/√deg, and keeps a pair when both directions are
    eccentric over the scored candidates and agree.  Passes repeat until one adds nothing."""
    adj1 = [set(g1.neighbors(v).tolist()) for v in range(g1.n_nodes)]
    adj2 = [set(g2.neighbors(v).tolist()) for v in range(g2.n_nodes)]
    fwd = {int(a): int(b) for a, b in seeds}
    back = {b: a for a, b in fwd.items()}

    def scores(v, adj_a, adj_b, amap, bmap):
        out: dict[int, float] = {}
        for nb in adj_a[v]:
            if nb in amap:
                for c in adj_b[amap[nb]]:
                    if c not in bmap:
                        out[c] = out.get(c, 0.0) + 1 / math.sqrt(len(adj_b[c]))
        return out

    def pick(sc):
        if not sc:
            return -1
        vals = np.array(list(sc.values()))
        best = max(sc.items(), key=lambda kv: (kv[1], -kv[0]))[0]
        if len(sc) == 1:
            return best
        sd = float(np.sqrt(np.mean((vals - vals.mean()) ** 2)))
        top = np.sort(vals)[::-1]
        if not sd > 0 or (top[0] - top[1]) / sd < theta:
            return -1
        return best

    while True:
        added = 0
        for v in range(g1.n_nodes):
            if v in fwd:
                continue
            r = pick(scores(v, adj1, adj2, fwd, back))
            if r < 0 or pick(scores(r, adj2, adj1, back, fwd)) != v:
                continue
            fwd[v], back[r] = r, v
            added += 1
        if not added:
            break
    return [fwd.get(v, -1) for v in range(g1.n_nodes)]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    p=st.sampled_from([0.6, 0.8, 1.0]),
    k=st.integers(1, 5),
    theta=st.sampled_from([0.1, 0.5, 1.0]),
)
def test_sparse_rule_equals_the_literal_loop(seed, p, k, theta):
    base = nx.gnm_random_graph(40, 110, seed=seed)
    g = Graph.from_edges(40, np.array(list(base.edges()), dtype=np.int64).reshape(-1, 2))
    pair = secgraph_pair(g, p, seed=seed)
    t = pair.truth_array()
    nodes = np.flatnonzero(t >= 0)[:k]
    seeds = np.stack([nodes, t[nodes]], axis=1)
    got = propagate(pair.aux, pair.san, seeds, theta, scoring="nka").mapping.tolist()
    assert got == _authors_loop(pair.aux, pair.san, seeds, theta)


# ---------------------------------------------------------------- NKA's option
def test_nka_rule_option_reaches_both_propagations():
    """Two communities {0..5} and {6..11}, each a copy of the hand graph (joined by 5 — 11),
    one seed in each; θ = 0.5.  Local NS inside each community is the hand case above: the
    authors' rule maps 1, 2, 3 (and 7, 8, 9), SecGraph's nothing.  The final propagation
    uses the same rule: the result records it."""
    g = Graph.from_edges(
        12,
        [[0, 1], [0, 2], [1, 3], [2, 4], [2, 5],
         [6, 7], [6, 8], [7, 9], [8, 10], [8, 11], [5, 11]],
    )  # fmt: skip
    memb = np.array([0] * 6 + [1] * 6)
    seeds = np.array([[0, 0], [6, 6]])
    truth = np.arange(12)
    kw = {"theta": 0.5, "communities": (memb, memb), "truth": truth}
    authors = nka(g, g, seeds, ns_rule="authors", **kw)
    secgraph = nka(g, g, seeds, **kw)  # the default
    assert authors.parameters["ns_rule"] == "authors"
    assert secgraph.parameters["ns_rule"] == "secgraph"
    assert authors.stages["local"] == 6 and secgraph.stages["local"] == 0
    assert authors.stages["before_global"] == authors.stages["before_global_correct"] == 8
    assert authors.mapping[[1, 2, 3, 7, 8, 9]].tolist() == [1, 2, 3, 7, 8, 9]
    assert authors.mapped == authors.correct  # nothing wrong on an identical pair
    assert secgraph.mapped == secgraph.correct


def test_bad_ns_rule():
    g = _star_of_two()
    with pytest.raises(ConfigError, match="ns_rule"):
        nka(g, g, np.array([[0, 0]]), ns_rule="thesis")
    with pytest.raises(ConfigError, match="scoring"):
        propagate(g, g, np.array([[0, 0]]), scoring="authors")
