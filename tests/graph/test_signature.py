"""Signatures (colour refinement) and the attack on unions of groupings (seed 001 §2.3)."""

from __future__ import annotations

import numpy as np
import pytest

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.graph.anonymize.grouping import Bipartite, is_safe, safe_grouping
from privlab.graph.attacks.active import random_graph
from privlab.graph.attacks.signature import (
    attack_union,
    colour_refinement,
    colour_refinement_reference,
    match_by_signatures,
    same_partition,
    union_of_groupings_attack,
)
from privlab.graph.core import Graph

# Authors A0..A5, papers P0..P9.  A0 wrote five papers, everybody else two: A0 is the
# "most prolific author" of §4.5.
PROLIFIC = [
    (0, 0), (1, 0), (0, 1), (2, 1), (0, 2), (0, 3), (3, 3), (0, 4),
    (1, 5), (2, 6), (3, 6), (4, 7), (5, 8), (4, 9), (5, 9),
]  # fmt: skip


def random_bipartite(m: int, n: int, seed: int) -> Bipartite:
    """Papers with 1–4 authors, authors drawn with heavy-tailed activity."""
    rng = np.random.default_rng(seed)
    act = rng.pareto(1.5, m) + 1
    p = act / act.sum()
    pairs = set()
    for w in range(n):
        for v in rng.choice(m, int(rng.integers(1, 5)), replace=False, p=p):
            pairs.add((int(v), w))
    return Bipartite.from_edges(np.array(sorted(pairs)), n_left=m, n_right=n)


# ---------------------------------------------------------------------------- refinement
def test_refinement_starts_at_zero_and_separates_by_degree_then_structure():
    # path 0-1-2-3-4: round 1 splits ends from inner nodes, round 2 the centre
    g = Graph.from_edges(5, [(0, 1), (1, 2), (2, 3), (3, 4)])
    ref = colour_refinement(g)
    assert np.all(ref.history[0] == 0)
    assert ref.n_classes == [1, 2, 3]
    assert ref.stable
    c = ref.colours
    assert c[0] == c[4] and c[1] == c[3] and len({c[0], c[1], c[2]}) == 3


def test_vectorized_refinement_matches_the_literal_procedure():
    for s in range(6):
        g = random_graph(300 + 50 * s, 2 + s % 3, seed=s)
        fast, ref = colour_refinement(g), colour_refinement_reference(g)
        assert fast.n_classes == ref.n_classes
        assert all(same_partition(a, b) for a, b in zip(fast.history, ref.history, strict=True))
    init = np.arange(400) % 3
    g = random_graph(400, 3, seed=9)
    assert same_partition(
        colour_refinement(g, init).colours, colour_refinement_reference(g, init).colours
    )
    two = colour_refinement(g, max_rounds=2)
    assert two.rounds == 2 and not two.stable


def test_unique_signatures_match_an_isomorphic_copy():
    g = random_graph(400, 3, seed=4)
    perm = np.random.default_rng(4).permutation(400)
    h = Graph.from_edges(400, perm[g.edges()])
    match, _ = match_by_signatures(g, h)
    hit = match >= 0
    assert hit.sum() > 100
    assert np.array_equal(match[hit], perm[hit])  # every unique match is right


# ---------------------------------------------------------------------------- the attack
def test_most_prolific_author_is_found_although_each_grouping_is_safe():
    b = Bipartite.from_edges(PROLIFIC, n_left=6, n_right=10)
    rel_a = safe_grouping(b, 2, 1, seed=1)  # authors in pairs, papers exact
    rel_b = safe_grouping(b, 1, 2, seed=1)  # authors exact, papers in pairs
    # each release alone is safe: A0 hides among >= 2 authors in (2,1), its papers among
    # >= 2 papers each in (1,2)
    assert is_safe(b, rel_a.left_groups, "left") and is_safe(b, rel_b.right_groups, "right")
    assert np.bincount(rel_a.left_groups).min() >= 2
    assert np.bincount(rel_b.right_groups).min() >= 2
    r = attack_union(rel_a, rel_b, use_groups=False)  # structure only, as in §4.5
    # A0's masked id in the (2,1) copy is matched to A0 in the (1,2) copy ...
    a0_masked_a = rel_a.left_mask[0]
    a0_masked_b = rel_b.left_mask[0]
    assert r.left_match[a0_masked_a] == a0_masked_b
    assert r.left_unique_by_round[1] >= 1  # found by its unique degree in one round
    # ... which reveals all five of A0's papers
    assert r.edges_revealed >= 5 and r.edges_wrong == 0
    assert r.left_correct == r.left_identified
    assert r.right_correct == r.right_identified


def test_one_time_single_author_papers_stay_private():
    """§4.5: authors who only wrote one single-author paper cannot be linked to it."""
    b = Bipartite.from_edges([(i, i) for i in range(12)])
    r = union_of_groupings_attack(b, 4, 4, seed=3, use_groups=False)
    assert r.left_identified == r.right_identified == r.edges_revealed == 0
    assert r.left_class_sizes == {12: 12}


def test_union_identifies_most_of_a_skewed_author_paper_graph():
    b = random_bipartite(400, 700, seed=5)
    plain = union_of_groupings_attack(b, 3, 3, seed=7, use_groups=False)
    grouped = union_of_groupings_attack(b, 3, 3, seed=7, use_groups=True)
    for r in (plain, grouped):
        assert r.left_correct == r.left_identified > 0
        assert r.right_correct == r.right_identified > 0
        assert r.edges_wrong == 0
        # uniqueness only grows with the rounds
        assert r.left_unique_by_round == sorted(r.left_unique_by_round)
        assert sum(r.left_class_sizes.values()) == 400
        assert r.cumulative_left()[1] == pytest.approx(r.left_identified / 400)
    # knowing the group tables can only help
    assert grouped.left_identified >= plain.left_identified
    assert grouped.edges_revealed >= plain.edges_revealed
    assert plain.left_identified / 400 > 0.3
    d = plain.to_dict()
    assert d["edges_revealed_fraction"] == plain.edges_revealed / b.n_edges


# ---------------------------------------------------------------------------- errors
def test_errors():
    b = Bipartite.from_edges(PROLIFIC, n_left=6, n_right=10)
    with pytest.raises(InfeasibleError, match="density"):
        union_of_groupings_attack(b, 6, 1, seed=1)
    sparse = Bipartite.from_edges([(0, 0), (1, 1), (2, 2)], n_left=3, n_right=100)
    with pytest.raises(ConfigError, match="larger than the 3 left nodes"):
        union_of_groupings_attack(sparse, 4, 1, seed=1)
    with pytest.raises(ConfigError, match="k = 0"):
        union_of_groupings_attack(b, 0, 2, seed=1)
    rel = safe_grouping(b, 2, 2, seed=1)
    with pytest.raises(ConfigError, match=r"\(k, 1\)"):
        attack_union(rel, rel)
    g = Graph.from_edges(3, [(0, 1), (1, 2)])
    with pytest.raises(InputError, match="one per node"):
        colour_refinement(g, [0, 1])
    with pytest.raises(ConfigError, match="max_rounds"):
        colour_refinement(g, max_rounds=-1)
    with pytest.raises(InputError, match="undirected"):
        colour_refinement(Graph.from_edges(3, [(0, 1)], directed=True))
