"""Chapter 4's baselines (seed 001 §4.3): tabular and matrix k-anonymization of the
association table and edge-group permutation, on Table 4.2's example and random graphs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.bipartite_baselines import (
    coauthor_pair_counts,
    edge_group_permutation,
    matrix_k_anonymize,
    tabular_k_anonymize,
)
from privlab.graph.anonymize.grouping import Bipartite

# Table 4.2(a): authors a1..a6 (0..5), papers p1..p6 (0..5)
EDGES = [(0, 1), (0, 5), (1, 2), (1, 3), (2, 1), (2, 3), (3, 4), (4, 0), (4, 4), (5, 2), (5, 5)]
LOCATION = np.array(["US", "EU", "AS", "US", "EU", "AS"])
VENUE = np.array(["SIGMOD", "VLDB", "VLDB", "VLDB", "SIGMOD", "VLDB"])
# Table 4.2(c), bottom: the 3-anonymized matrix
TABLE_4_2C = [
    "**0***",
    "00****",
    "**0***",
    "00****",
    "**0***",
    "00****",
]


def table_4_1() -> Bipartite:
    return Bipartite.from_edges(EDGES, n_left=6, n_right=6)


def test_matrix_reproduces_table_4_2c():
    g = table_4_1()
    m = matrix_k_anonymize(g, 3, clusters=[0, 1, 0, 1, 0, 1])
    assert ["".join(row) for row in m.released(g)] == TABLE_4_2C
    d = m.to_dict()
    # "all that is left is a few negative associations"
    assert (d["revealed_edges"], d["revealed_non_edges"], d["suppressed_cells"]) == (0, 9, 27)


def test_matrix_reveals_the_edges_of_a_node_adjacent_to_a_whole_cluster():
    # right node 0 is adjacent to all three left nodes of the cluster: its column survives
    g = Bipartite.from_edges([(0, 0), (1, 0), (2, 0), (0, 1)], n_left=3, n_right=2)
    m = matrix_k_anonymize(g, 3)
    assert m.revealed_edges == 3 and m.suppressed_cells == 3
    assert ["".join(r) for r in m.released(g)] == ["1*", "1*", "1*"]


def test_tabular_k_anonymization_of_table_4_2a():
    t = tabular_k_anonymize(
        table_4_1(), 3, left_attribute=LOCATION, right_attribute=VENUE, suppression=0.5
    )
    assert t.associations_kept == 0 and t.left_ids_kept == 0 and t.right_ids_kept == 0
    kept = t.table.filter(t.table["left_attribute"] != "*")
    counts = kept.group_by(kept.columns).len()["len"]
    assert counts.min() >= 3  # every published combination appears ≥ k times
    assert t.to_dict()["rows"] == 11


@st.composite
def bipartite(draw):
    nl, nr = draw(st.integers(3, 25)), draw(st.integers(2, 25))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    m = draw(st.integers(1, nl * nr // 2))
    e = np.unique(np.stack([rng.integers(0, nl, m), rng.integers(0, nr, m)], 1), axis=0)
    return Bipartite.from_edges(e, n_left=nl, n_right=nr)


@given(bipartite(), st.integers(1, 3))
@settings(max_examples=40, deadline=None)
def test_matrix_release_is_k_anonymous_and_truthful(g, k):
    if g.n_left < k:
        with pytest.raises(ConfigError):
            matrix_k_anonymize(g, k)
        return
    m = matrix_k_anonymize(g, k)
    rel = m.released(g)
    assert np.bincount(m.clusters).min() >= k
    rows = {}
    for v in range(g.n_left):
        rows.setdefault(m.clusters[v], set()).add("".join(rel[v]))
    assert all(len(s) == 1 for s in rows.values())  # identical rows inside a cluster
    adj = np.zeros((g.n_left, g.n_right), dtype=int)
    adj[g.edges[:, 0], g.edges[:, 1]] = 1
    assert ((rel == "1") <= (adj == 1)).all() and ((rel == "0") <= (adj == 0)).all()
    assert m.revealed_edges == int((rel == "1").sum())
    assert m.suppressed_cells == int((rel == "*").sum())


@given(bipartite(), st.sampled_from(["global", "pairs"]), st.integers(0, 100))
@settings(max_examples=40, deadline=None)
def test_edge_group_permutation_keeps_degrees_and_groups(g, mode, seed):
    p = edge_group_permutation(g, mode, seed=seed)
    assert (p.edges[:, 0] == g.edges[:, 0]).all()
    assert (np.bincount(p.edges[:, 1], minlength=g.n_right) == g.degrees("right")).all()
    for grp in np.unique(p.groups):
        sel = p.groups == grp
        assert sorted(p.edges[sel, 1]) == sorted(g.edges[sel, 1])  # permuted inside the group
        if mode == "pairs":
            assert np.unique(g.edges[sel, 1]).size <= 2


def test_coauthor_counts_and_permutation_destroys_repeated_collaboration():
    assert coauthor_pair_counts(EDGES).tolist() == [1] * 5  # Table 4.1: five pairs, once each
    # authors 0 and 1 write 20 papers together; 40 other single-author papers by 2..41
    together = [(a, p) for p in range(20) for a in (0, 1)]
    solo = [(2 + i, 20 + i) for i in range(40)]
    g = Bipartite.from_edges(together + solo)
    assert coauthor_pair_counts(g.edges)[0] == 20
    shuffled = edge_group_permutation(g, "global", seed=3)
    assert coauthor_pair_counts(shuffled.edges)[0] < 20


def test_bad_input():
    g = table_4_1()
    with pytest.raises(ConfigError, match="mode"):
        edge_group_permutation(g, "random")
    with pytest.raises(InputError, match="right_order"):
        edge_group_permutation(g, "pairs", right_order=[1, 2])
    with pytest.raises(ConfigError, match="cluster"):
        matrix_k_anonymize(g, 3, clusters=[0, 0, 1, 1, 1, 1])
    with pytest.raises(InputError, match="left_attribute"):
        tabular_k_anonymize(g, 2, left_attribute=["US"])
