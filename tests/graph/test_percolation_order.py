"""YG most-marks (the default order) equals its rule written out in matrix form.

The fast order (privlab.graph.attacks.percolation._most_marks) keeps per-row bests, updates
them from the block a used pair marks, and rescans the rows whose best column was taken only
when their (stale) bound reaches the top.  The reference here recomputes every mark from the
matching at every step: the marks of an unmatched pair (a, b) are the matched pairs (i, j)
with a ~ i in G1 and b ~ j in G2, i.e. (A₁ P A₂ᵀ)[a, b] for the matching's 0/1 matrix P; the
next pair is the unmatched pair with ≥ r marks that is first by (most marks, smallest
|deg₁ − deg₂|, smallest G1 node, smallest G2 node).  Graphs of unequal sizes, unrelated or
correlated, dense enough for many ties and many taken best columns.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.graph.attacks.percolation import percolate
from privlab.graph.attacks.propagation import top_degree_seeds
from privlab.graph.core import Graph
from privlab.graph.pairs import sample_pair


def reference(g1: Graph, g2: Graph, seeds: np.ndarray, r: int) -> tuple[np.ndarray, int]:
    """The mapping and the pairs used (seeds included), recomputing all marks per step."""
    a1 = g1.to_scipy().toarray().astype(float)  # BLAS products; the counts stay exact
    a2 = g2.to_scipy().toarray().astype(float)
    d1, d2 = g1.degrees(), g2.degrees()
    m12 = np.full(g1.n_nodes, -1)
    m21 = np.full(g2.n_nodes, -1)
    m12[seeds[:, 0]] = seeds[:, 1]
    m21[seeds[:, 1]] = seeds[:, 0]
    used = len(seeds)
    while True:
        left = np.flatnonzero(m12 >= 0)
        marks = np.rint(a1[:, left] @ a2[:, m12[left]].T).astype(np.int64)
        ok = (marks >= r) & (m12 < 0)[:, None] & (m21 < 0)[None, :]
        if not ok.any():
            return m12, used
        a, b = np.nonzero(ok & (marks == marks[ok].max()))  # the most marks, then:
        first = np.lexsort((b, a, np.abs(d1[a] - d2[b]), -marks[a, b]))[0]
        i, j = int(a[first]), int(b[first])
        m12[i], m21[j] = j, i
        used += 1


def random_graph(n: int, p: float, rng: np.random.Generator) -> Graph:
    iu = np.triu_indices(n, 1)
    keep = rng.random(iu[0].size) < p
    return Graph.from_edges(n, np.stack([iu[0][keep], iu[1][keep]], axis=1))


@st.composite
def cases(draw):
    """(g1, g2, seeds, r): unrelated graphs of unequal size, or a sampled correlated pair."""
    seed = draw(st.integers(0, 10**6))
    rng = np.random.default_rng(seed)
    n1 = draw(st.integers(2, 28))
    p = draw(st.floats(0.1, 0.8))
    if draw(st.booleans()):
        g1 = random_graph(n1, p, rng)
        g2 = random_graph(draw(st.integers(2, 28)), draw(st.floats(0.1, 0.8)), rng)
    else:
        pair = sample_pair(random_graph(n1, p, rng), draw(st.floats(0.5, 1.0)),
                           draw(st.floats(0.5, 1.0)), seed=seed)  # fmt: skip
        g1, g2 = pair.aux, pair.san
    k = draw(st.integers(1, min(g1.n_nodes, g2.n_nodes)))
    seeds = np.stack([rng.choice(g1.n_nodes, k, replace=False),
                      rng.choice(g2.n_nodes, k, replace=False)], axis=1)  # fmt: skip
    return g1, g2, seeds, draw(st.integers(1, 4))


@settings(max_examples=120, deadline=None)
@given(case=cases())
def test_most_marks_equals_the_matrix_reference(case):
    g1, g2, seeds, r = case
    res = percolate(g1, g2, seeds, r=r)
    want, used = reference(g1, g2, seeds, r)
    assert res.mapping.tolist() == want.tolist()
    assert res.rounds == used


def test_most_marks_equals_the_reference_on_a_hub_graph():
    # Barabási–Albert hubs give rows whose best column is taken again and again (the
    # stale-bound rescans), and many ties in marks; 300 nodes, two 80 % edge samples.
    g = Graph.from_networkx(nx.barabasi_albert_graph(300, 4, seed=3))
    pair = sample_pair(g, 1.0, 0.8, seed=4)
    truth = pair.truth_array()
    seeds = top_degree_seeds(pair.aux, truth, 10)
    for r in (2, 3):
        res = percolate(pair.aux, pair.san, seeds, r=r, truth=truth)
        want, used = reference(pair.aux, pair.san, seeds, r)
        assert res.mapping.tolist() == want.tolist() and res.rounds == used
        assert res.new_mapped > 50  # the case percolates: it tests the order, not the seeds


def test_a_row_whose_best_column_is_taken_waits_for_its_rescan():
    # Seeds 0, 1, 2 (identity).  G1: 3 ~ 0, 1, 2; 4 ~ 0, 1; 5 ~ 2.  G2: 3 ~ 0, 1, 2;
    # 4 ~ 2; 5 ~ 0, 2.  Marks after the seeds (r = 1): (3,3) = 3, (4,3) = 2, (3,5) = 2,
    # (4,5) = 1, (5,3) = (5,4) = (5,5) = 1, (3,4) = 1.  (3,3) goes first; row 4's best,
    # (4,3), is gone, its next is (4,5) with 1 mark and |2 − 2| = 0.  Row 5 has (5,4) with
    # 1 mark and |1 − 1| = 0 and (5,5) with |1 − 2| = 1: (4,5) and (5,4) tie in score and
    # row 4 < row 5 goes first, then (5,4).
    g1 = Graph.from_edges(6, np.array([[0, 3], [1, 3], [2, 3], [0, 4], [1, 4], [2, 5]]))
    g2 = Graph.from_edges(6, np.array([[0, 3], [1, 3], [2, 3], [2, 4], [0, 5], [2, 5]]))
    seeds = np.array([[0, 0], [1, 1], [2, 2]])
    res = percolate(g1, g2, seeds, r=1)
    assert res.mapping.tolist() == [0, 1, 2, 3, 5, 4] == reference(g1, g2, seeds, 1)[0].tolist()
    # at r = 2 only (3,3), (3,5) and (4,3) qualify; (3,3) takes row 3 and column 3
    two = percolate(g1, g2, seeds, r=2)
    assert two.mapping.tolist() == [0, 1, 2, 3, -1, -1]
