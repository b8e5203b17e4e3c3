"""Safe (k, ℓ)-groupings of bipartite graphs and the bounds they give (seed 001 §2.3)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.graph.anonymize.grouping import Bipartite, is_safe, safe_grouping
from privlab.graph.grouping_bounds import learned_links, type1_degree_sum, type2_count


@st.composite
def sparse_bipartite(draw):
    nl, nr = draw(st.integers(6, 40)), draw(st.integers(6, 60))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    m = draw(st.integers(1, max(1, (nl * nr) // 12)))
    e = np.unique(np.stack([rng.integers(0, nl, m), rng.integers(0, nr, m)], axis=1), axis=0)
    g = Bipartite.from_edges(e, n_left=nl, n_right=nr)
    p = rng.random(nl) < draw(st.floats(0, 1))
    q = rng.random(nr) < draw(st.floats(0, 1))
    return g, p, q, seed


@given(sparse_bipartite(), st.integers(1, 3), st.integers(1, 3))
@settings(max_examples=80, deadline=None)
def test_grouping_is_safe_and_the_truth_lies_within_the_bounds(case, k, ell):
    g, p, q, seed = case
    try:
        gg = safe_grouping(g, k, ell, seed=seed)
    except InfeasibleError:
        return
    assert is_safe(g, gg.left_groups, "left") and is_safe(g, gg.right_groups, "right")
    assert np.bincount(gg.left_groups).min() >= k and np.bincount(gg.right_groups).min() >= ell
    for b in (type2_count(gg, p, q), type1_degree_sum(gg, p)):
        assert b.lower - 1e-9 <= b.true <= b.upper + 1e-9


def test_group_pairs_form_matchings():
    rng = np.random.default_rng(3)
    e = np.unique(np.stack([rng.integers(0, 200, 500), rng.integers(0, 300, 500)], 1), axis=0)
    gg = safe_grouping(Bipartite.from_edges(e, n_left=200, n_right=300), 4, 3, seed=2)
    *_, c = gg.group_pair_edges()
    assert c.max() <= 3  # ≤ min(k, ℓ) edges between two groups
    assert gg.strict


def test_publication_tables_rebuild_the_group_pair_counts():
    rng = np.random.default_rng(4)
    e = np.unique(np.stack([rng.integers(0, 90, 200), rng.integers(0, 120, 200)], 1), axis=0)
    gg = safe_grouping(Bipartite.from_edges(e, n_left=90, n_right=120), 3, 3, seed=5)
    t = gg.tables()
    joined = (
        t["masked_edges"]
        .join(t["masked_left_group"], on="left_masked")
        .join(t["masked_right_group"], on="right_masked", suffix="_right")
        .group_by(["group", "group_right"])
        .len()
        .sort(["group", "group_right"])
    )
    *_, c = gg.group_pair_edges()
    assert joined["len"].to_list() == c.tolist()
    # masked ids are a permutation, not the original ids
    assert not np.array_equal(gg.left_mask, np.arange(90))


def test_lower_bound_takes_the_maximum_over_left_groups_not_the_sum():
    # one right group {0,1} (ℓ = 2), two left groups {0,1},{2,3} (k = 2), all predicates
    # true, each left group joined to both right nodes by a matching: the text's Σ would
    # count 2 + 2 = 4 papers, but only 2 exist.
    e = np.array([[0, 0], [1, 1], [2, 0], [3, 1]])
    g = Bipartite.from_edges(e)
    gg = safe_grouping(g, 2, 2, seed=0)
    b = type2_count(gg, np.ones(4, bool), np.ones(2, bool))
    assert b.lower == 2 == b.true == b.upper


def test_density_bound_and_bad_sizes_are_named():
    full = Bipartite.from_edges([[0, 0], [0, 1], [1, 0], [1, 1]])
    with pytest.raises(InfeasibleError, match=r"1/max\(k, l\) = 0\.5"):
        safe_grouping(full, 2, 2)
    sparse = Bipartite.from_edges([[0, 0], [1, 1]], n_left=2, n_right=9)
    with pytest.raises(ConfigError, match="larger than the 2 left nodes"):
        safe_grouping(sparse, 3, 1)
    with pytest.raises(InputError, match="repeated"):
        Bipartite.from_edges([[0, 0], [0, 0]])


def test_from_frame_and_learned_links():
    frame = pl.DataFrame({"author": ["a", "b", "c", "d", "a"], "paper": ["p", "q", "r", "s", "t"]})
    g = Bipartite.from_frame(frame, "author", "paper")
    gg = safe_grouping(g, 2, 2, seed=1)
    out = learned_links(gg, g.edges[:1])
    assert out["revealed"] == 1 and out["theorem_7_guarantee"] == [1, 1]
    with pytest.raises(InputError, match="not an edge"):
        learned_links(gg, [[0, 3]] if not (g.edges == [0, 3]).all(axis=1).any() else [[3, 0]])
