"""D4D egonet releases (seed 004 §2.3), ego detection and the signature attack (§2.4),
case-labelled pair sampling (§2.4/§2.8) and egonet histograms (§2.7) — contents against
networkx, the Scheme 2 edge rule, the signature invariant, the cases on a hand-built example,
the samplers against brute force, errors."""

from __future__ import annotations

import itertools
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.egonet import (
    EgonetRelease,
    attacker_hops,
    attacker_one_hop,
    egonet_node_histograms,
    egonet_release,
    find_ego,
    node_signatures,
    sample_linkage_pairs,
    signature_attack,
    signature_matches,
    two_hop_sizes,
)
from privlab.graph.core import Graph


@pytest.fixture(scope="module")
def nxg():
    return nx.powerlaw_cluster_graph(300, 4, 0.4, seed=11)


@pytest.fixture(scope="module")
def g(nxg):
    return Graph.from_networkx(nxg)  # nodes 0..n−1 in order


@pytest.fixture(scope="module")
def rel1(g):
    return egonet_release(g, 25, scheme=1, min_size=40, seed=5)


@pytest.fixture(scope="module")
def rel2(g):
    return egonet_release(g, 25, scheme=2, min_size=40, seed=5)


def original_edges(release: EgonetRelease, i: int) -> set[tuple[int, int]]:
    orig = release.original_of(i)
    return {(min(a, b), max(a, b)) for a, b in orig[release.local_graph(i).edges()].tolist()}


def case_of(h1: int, h2: int) -> int:
    return 1 + (h1 == 2) + (h2 == 2)


# ============================================================================ release
def test_two_hop_sizes_match_networkx(nxg, g):
    sizes = two_hop_sizes(g)
    for v in range(0, g.n_nodes, 7):
        assert sizes[v] == len(nx.single_source_shortest_path_length(nxg, v, cutoff=2))


def test_scheme1_egonets_are_networkx_ego_graphs(nxg, rel1):
    assert rel1.n_egonets == 25 and rel1.scheme == 1
    sizes = two_hop_sizes(Graph.from_networkx(nxg))
    assert np.all(sizes[rel1.egos] >= 40)
    assert np.unique(rel1.egos).size == 25
    for i, ego in enumerate(rel1.egos.tolist()):
        ref = nx.ego_graph(nxg, ego, radius=2)
        orig = rel1.original_of(i)
        assert sorted(orig.tolist()) == sorted(ref.nodes())
        assert original_edges(rel1, i) == {(min(a, b), max(a, b)) for a, b in ref.edges()}
        dist = nx.single_source_shortest_path_length(nxg, ego, cutoff=2)
        assert rel1.hops_of(i).tolist() == [dist[v] for v in orig.tolist()]
        assert orig[rel1.ego_local[i]] == ego and rel1.hops_of(i)[rel1.ego_local[i]] == 0


def test_scheme2_deletes_exactly_the_two_hop_edges(rel1, rel2):
    assert np.array_equal(rel1.egos, rel2.egos)  # same seed, same egos
    deleted = 0
    for i in range(rel2.n_egonets):
        full = original_edges(rel1, i)
        hop = dict(zip(rel1.original_of(i).tolist(), rel1.hops_of(i).tolist(), strict=True))
        kept = {e for e in full if not (hop[e[0]] == 2 and hop[e[1]] == 2)}
        assert original_edges(rel2, i) == kept
        assert sorted(rel2.original_of(i).tolist()) == sorted(hop)
        deleted += len(full) - len(kept)
    assert deleted > 0 and rel2.parameters["scheme2_deleted_edges"] == deleted


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 18), p=st.floats(0.0, 0.6), scheme=st.sampled_from([1, 2]),
       seed=st.integers(0, 2**32 - 1))  # fmt: skip
def test_release_invariants_on_random_graphs(n, p, scheme, seed):
    nxg = nx.gnp_random_graph(n, p, seed=seed)
    g = Graph.from_networkx(nxg)
    egos = np.random.default_rng(seed).permutation(n)[: max(1, n // 3)]
    rel = egonet_release(g, egos=egos, scheme=scheme, seed=seed)
    for i, ego in enumerate(egos.tolist()):
        dist = nx.single_source_shortest_path_length(nxg, ego, cutoff=2)
        orig = rel.original_of(i)
        assert sorted(orig.tolist()) == sorted(dist)
        assert rel.hops_of(i).tolist() == [dist[v] for v in orig.tolist()]
        ref = {(min(a, b), max(a, b)) for a, b in nxg.subgraph(dist).edges()}
        if scheme == 2:
            ref = {e for e in ref if not (dist[e[0]] == 2 and dist[e[1]] == 2)}
        assert original_edges(rel, i) == ref
        assert rel.ego_local[i] in find_ego(rel.local_graph(i)).tolist()
    pairs = sample_linkage_pairs(
        rel, n_identical_per_case=3, n_non_identical=3, min_degree=0, seed=seed
    )
    ia = rel.offsets[pairs.ego_a] + pairs.node_a
    ib = rel.offsets[pairs.ego_b] + pairs.node_b
    assert np.all((rel.original[ia] == rel.original[ib]) == (pairs.label == 1))


def test_local_ids_are_random_and_unlabelled(rel1):
    moved = 0
    for i in range(rel1.n_egonets):
        orig = rel1.original_of(i)
        assert rel1.local_graph(i).labels is None
        assert np.unique(orig).size == orig.size
        moved += not np.array_equal(orig, np.sort(orig))
    assert moved == rel1.n_egonets
    # the same original node gets unrelated local ids in different egonets
    a, b = rel1.original_of(0), rel1.original_of(1)
    common = np.intersect1d(a, b)
    la = {v: x for x, v in enumerate(a.tolist())}
    lb = {v: x for x, v in enumerate(b.tolist())}
    assert common.size == 0 or any(la[v] != lb[v] for v in common.tolist())


def test_release_is_reproducible_and_subset(g, rel1):
    again = egonet_release(g, 25, scheme=1, min_size=40, seed=5)
    assert np.array_equal(again.original, rel1.original)
    sub = rel1.subset([3, 0])
    assert sub.n_egonets == 2 and sub.egos.tolist() == [rel1.egos[3], rel1.egos[0]]
    assert np.array_equal(sub.original_of(1), rel1.original_of(0))
    assert np.array_equal(sub.hops_of(0), rel1.hops_of(3))
    assert sub.local_graph(0) is rel1.local_graph(3)
    d = rel1.to_dict()
    assert d["egonets"] == 25 and d["parameters"]["insecure_seed"] is True


# ============================================================================ ego detection
def test_find_ego_contains_the_true_ego(rel1, rel2):
    for rel in (rel1, rel2):
        n_unique = 0
        for i in range(rel.n_egonets):
            cands = find_ego(rel.local_graph(i))
            assert rel.ego_local[i] in cands.tolist()
            n_unique += cands.size == 1
            if cands.size == 1:
                assert np.array_equal(attacker_hops(rel.local_graph(i)), rel.hops_of(i))
        assert n_unique > rel.n_egonets // 2


def test_find_ego_against_brute_force(rel1):
    for i in range(0, rel1.n_egonets, 5):
        h = rel1.local_graph(i).to_networkx()
        ecc = nx.eccentricity(h)
        assert find_ego(rel1.local_graph(i)).tolist() == sorted(v for v, e in ecc.items() if e <= 2)


def test_find_ego_ambiguous_and_none():
    star = Graph.from_edges(4, [(0, 1), (0, 2), (0, 3)])
    assert find_ego(star).tolist() == [0, 1, 2, 3]  # every node reaches all in 2 hops
    assert attacker_one_hop(star, policy="all").tolist() == [True, False, False, False]
    assert attacker_one_hop(star, policy="any").all()
    assert attacker_hops(star).tolist() == [1, -1, -1, -1]
    path = Graph.from_edges(6, [(i, i + 1) for i in range(5)])
    assert find_ego(path).size == 0 and not attacker_one_hop(path).any()
    p5 = Graph.from_edges(5, [(i, i + 1) for i in range(4)])
    assert find_ego(p5).tolist() == [2]
    assert attacker_hops(p5).tolist() == [2, 1, 0, 1, 2]
    assert find_ego(Graph.from_edges(0, [])).size == 0


# ============================================================================ signatures
def test_signature_example_from_the_seed():
    # v = 0 has four friends; inside N[0] they have degrees 3 (1), 2 (2), 2 (3), 1 (4)
    e = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (4, 5), (5, 6)]
    h = Graph.from_edges(7, e)
    assert node_signatures(h, [0])[0].tolist() == [1, 2, 2, 3, 4]
    # degrees inside the whole graph instead: friend 4 has degree 2 there
    assert node_signatures(h, [0], degree_scope="egonet")[0].tolist() == [2, 2, 2, 3, 4]


def test_local_signatures_against_brute_force(nxg, g):
    nodes = list(range(0, g.n_nodes, 3))
    got = node_signatures(g, nodes)
    for v, sig in zip(nodes, got, strict=True):
        sub = nxg.subgraph([v, *nxg.neighbors(v)])
        assert sig.tolist() == sorted(d for _, d in sub.degree())
    got_e = node_signatures(g, nodes, degree_scope="egonet")
    for v, sig in zip(nodes, got_e, strict=True):
        assert sig.tolist() == sorted([nxg.degree(v)] + [nxg.degree(w) for w in nxg[v]])


def all_case1_pairs(rel: EgonetRelease, min_degree: int = 5):
    return sample_linkage_pairs(
        rel, n_identical_per_case=10**9, n_non_identical=2000, cases=(1,),
        non_identical_case=1, min_degree=min_degree, seed=1,
    )  # fmt: skip


def test_signature_is_invariant_for_one_hop_nodes_under_scheme1(rel1):
    """Degrees counted inside N[v] make the signature invariant (all Case 1 pairs match);
    degrees counted inside the whole egonet do not (a 2-hop friend's degree is truncated
    differently in different egonets)."""
    pairs = all_case1_pairs(rel1)
    assert pairs.available["1-hop"] == pairs.drawn["1-hop"] > 50
    local = signature_attack(rel1, pairs, degree_scope="local", ego_policy="any")
    assert local.success_identical == 1.0
    assert local.by_case["1-hop"]["applicable"] == 1.0
    assert local.success_non_identical > 0.97
    ego = signature_attack(rel1, pairs, degree_scope="egonet", ego_policy="any")
    assert ego.success_identical < 0.5
    # the sound policy may skip nodes when the ego is ambiguous, but never errs on them
    strict = signature_attack(rel1, pairs, ego_policy="all")
    assert np.all(strict.declared[pairs.label == 1] == strict.applicable[pairs.label == 1])
    assert local.table_row()["identical"] == 100.0


def test_signature_attack_breaks_on_scheme2(rel1, rel2):
    s1 = signature_attack(rel1, all_case1_pairs(rel1))
    s2 = signature_attack(rel2, all_case1_pairs(rel2))
    assert s1.success_identical == 1.0
    assert s2.success_identical < 0.5


def test_signature_matches_bulk(rel1):
    m = signature_matches(rel1, ego_policy="all")
    assert m.recall == 1.0  # the invariant: every reachable identical pair is linked
    assert 0.0 < m.precision <= 1.0
    assert np.all(m.ego_a != m.ego_b)
    same = (
        rel1.original[rel1.offsets[m.ego_a] + m.node_a]
        == (rel1.original[rel1.offsets[m.ego_b] + m.node_b])
    )
    assert np.array_equal(same, m.correct)


# ============================================================================ pairs
@pytest.fixture(scope="module")
def path_release():
    # path 0–…–6, egos 1, 3, 5: hops  E1 {1:0, 0:1, 2:1, 3:2}  E3 {3:0, 2:1, 4:1, 1:2, 5:2}
    # E5 {5:0, 4:1, 6:1, 3:2}
    p = Graph.from_edges(7, [(i, i + 1) for i in range(6)])
    return egonet_release(p, egos=[1, 3, 5], seed=0)


def test_cases_on_a_hand_built_example(path_release):
    pairs = sample_linkage_pairs(
        path_release, n_identical_per_case=100, n_non_identical=1000, min_degree=0, seed=2
    )
    assert pairs.available == {"1-hop": 2, "1,2-hop": 4, "2-hop": 1, "non-identical": 49}
    assert pairs.drawn["identical"] == 7 and pairs.drawn["non-identical"] == 49
    rel = path_release
    orig_a = rel.original[rel.offsets[pairs.ego_a] + pairs.node_a]
    orig_b = rel.original[rel.offsets[pairs.ego_b] + pairs.node_b]
    ego_a, ego_b = rel.egos[pairs.ego_a], rel.egos[pairs.ego_b]
    got = Counter(
        (int(o), int(x), int(y), int(c))
        for o, x, y, c, lab in zip(orig_a, ego_a, ego_b, pairs.case, pairs.label, strict=True)
        if lab == 1
    )
    assert got == Counter(
        {(2, 1, 3, 1): 1, (4, 3, 5, 1): 1, (1, 1, 3, 2): 1, (3, 1, 3, 2): 1, (3, 3, 5, 2): 1,
         (5, 3, 5, 2): 1, (3, 1, 5, 3): 1}
    )  # fmt: skip
    non = pairs.label == 0
    assert np.all(orig_a[non] != orig_b[non]) and np.all(pairs.case[non] == 0)
    assert np.all(pairs.ego_a < pairs.ego_b)
    assert np.array_equal(pairs.select(2).label, np.r_[np.ones(4), np.zeros(49)])
    assert len(pairs.select("complete")) == 56
    assert pairs.as_array().shape == (56, 6)


def brute_force_pairs(rel: EgonetRelease, min_degree: int):
    deg = rel.local_degrees()
    eg = rel.appearance_egonet()
    apps = np.flatnonzero(deg > min_degree).tolist()
    ident, non = Counter(), 0
    for a, b in itertools.combinations(apps, 2):
        if eg[a] == eg[b]:
            continue
        if rel.original[a] == rel.original[b]:
            ident[case_of(int(rel.hops[a]), int(rel.hops[b]))] += 1
        else:
            non += 1
    return ident, non


@pytest.mark.parametrize("min_degree", [3, 6])
def test_available_counts_against_brute_force(g, min_degree):
    rel = egonet_release(g, 6, scheme=2, min_size=40, seed=8)
    ident, non = brute_force_pairs(rel, min_degree)
    pairs = sample_linkage_pairs(
        rel, n_identical_per_case=5, n_non_identical=5, min_degree=min_degree, seed=3
    )
    assert pairs.available["1-hop"] == ident[1]
    assert pairs.available["1,2-hop"] == ident[2]
    assert pairs.available["2-hop"] == ident[3]
    assert pairs.available["non-identical"] == non
    complete = sample_linkage_pairs(
        rel, n_identical_per_case=5, n_non_identical=0, cases="complete",
        min_degree=min_degree, seed=3,
    )  # fmt: skip
    assert complete.available["complete"] == sum(ident.values())


@pytest.mark.parametrize("non_case", [None, 1, 2, 3])
def test_sampled_pairs_are_valid_and_distinct(rel1, non_case):
    pairs = sample_linkage_pairs(
        rel1, n_identical_per_case=150, n_non_identical=400, non_identical_case=non_case,
        seed=4,
    )  # fmt: skip
    rel = rel1
    ia = rel.offsets[pairs.ego_a] + pairs.node_a
    ib = rel.offsets[pairs.ego_b] + pairs.node_b
    deg = rel.local_degrees()
    assert np.all(deg[ia] > 5) and np.all(deg[ib] > 5)
    assert np.all(pairs.ego_a < pairs.ego_b)
    assert np.all(pairs.node_a < rel.sizes()[pairs.ego_a])
    assert np.all((rel.original[ia] == rel.original[ib]) == (pairs.label == 1))
    assert np.array_equal(pairs.hop_a, rel.hops[ia]) and np.array_equal(pairs.hop_b, rel.hops[ib])
    ident = pairs.label == 1
    assert np.array_equal(pairs.case[ident], pairs.structural_case[ident])
    assert np.all(pairs.case[~ident] == 0)
    for c in (1, 2, 3):
        assert pairs.drawn[{1: "1-hop", 2: "1,2-hop", 3: "2-hop"}[c]] == min(
            150, pairs.available[{1: "1-hop", 2: "1,2-hop", 3: "2-hop"}[c]]
        )
    assert pairs.drawn["non-identical"] == 400
    if non_case is not None:
        assert np.all(pairs.structural_case[~ident] == non_case)
    keys = np.minimum(ia, ib) * rel.n_appearances + np.maximum(ia, ib)
    assert np.unique(keys).size == keys.size


def test_sampling_is_roughly_uniform(path_release):
    """Drawing 1 of the 4 Case 2 pairs many times hits each about equally often; the same
    for non-identical pairs drawn through the rejection sampler."""
    hits = Counter()
    for s in range(400):
        p = sample_linkage_pairs(
            path_release, n_identical_per_case=1, n_non_identical=0, cases=(2,),
            min_degree=0, seed=s,
        )  # fmt: skip
        hits[(int(p.ego_a[0]), int(p.node_a[0]), int(p.ego_b[0]), int(p.node_b[0]))] += 1
    assert len(hits) == 4 and min(hits.values()) > 60


def test_non_identical_rejection_sampler_is_uniform(rel1):
    sub = rel1.subset([0, 1, 2])
    total = sample_linkage_pairs(
        sub, n_identical_per_case=0, n_non_identical=1, non_identical_case=1, seed=0
    ).available["non-identical"]
    assert total > 40
    hits = Counter()
    n = total // 4  # below half: the rejection sampler runs
    for s in range(60):
        p = sample_linkage_pairs(
            sub, n_identical_per_case=0, n_non_identical=n, non_identical_case=1, seed=s
        )
        rows = zip(
            p.ego_a.tolist(), p.node_a.tolist(), p.ego_b.tolist(), p.node_b.tolist(), strict=True
        )
        hits.update(rows)
    assert len(hits) == total  # every pair reachable
    counts = np.array(list(hits.values()))
    assert abs(counts.mean() - 60 * n / total) < 1e-9
    assert counts.min() > 0.3 * counts.mean() and counts.max() < 2.2 * counts.mean()


# ============================================================================ histograms
def test_histograms_against_brute_force(rel2):
    rng = np.random.default_rng(0)
    eg = rng.integers(0, rel2.n_egonets, size=60)
    nd = np.array([rng.integers(0, rel2.sizes()[e]) for e in eg])
    hist, deg = egonet_node_histograms(rel2, eg, nd, n_bins=4, bin_width=3)
    assert hist.shape == (60, 4) and hist.dtype == np.int32 and deg.dtype == np.int32
    for r, (e, v) in enumerate(zip(eg.tolist(), nd.tolist(), strict=True)):
        h = rel2.local_graph(e)
        d = h.degrees()
        ref = np.zeros(4, dtype=int)
        for w in h.neighbors(v).tolist():
            ref[min((d[w] - 1) // 3, 3)] += 1  # i·b < d ≤ (i+1)·b, overflow in the last bin
        assert hist[r].tolist() == ref.tolist() and deg[r] == d[v]
    h70, _ = egonet_node_histograms(rel2, eg, nd)
    assert h70.shape == (60, 70) and np.array_equal(h70.sum(axis=1), deg)


def test_histogram_bin_edges():
    # node 0 with neighbours of degree 1, 15, 16 and 40 (stars hung on them)
    edges, nxt = [], 5
    for u, d in zip([1, 2, 3, 4], [1, 15, 16, 40], strict=True):
        edges.append((0, u))
        for _ in range(d - 1):
            edges.append((u, nxt))
            nxt += 1
    h = Graph.from_edges(nxt, edges)
    rel = EgonetRelease(
        [h], np.array([0, nxt]), np.arange(nxt), np.zeros(nxt, np.int8), np.array([0]),
        np.array([0]), 1,
    )  # fmt: skip
    hist, deg = egonet_node_histograms(rel, [0], [0], n_bins=2, bin_width=15)
    assert hist[0].tolist() == [2, 2] and deg[0] == 4  # 1, 15 | 16, 40 (overflow)


# ============================================================================ errors
def test_errors(g, rel1):
    with pytest.raises(ConfigError, match="scheme"):
        egonet_release(g, 3, scheme=3)
    with pytest.raises(ConfigError, match="n_egos"):
        egonet_release(g, 0)
    with pytest.raises(InputError, match=r"only \d+ of 300 nodes"):
        egonet_release(g, 10, min_size=10_000)
    with pytest.raises(ConfigError, match="either n_egos"):
        egonet_release(g, 3, egos=[1, 2, 3])
    with pytest.raises(InputError, match="repeat"):
        egonet_release(g, egos=[1, 1])
    directed = Graph.from_edges(3, [(0, 1), (1, 2)], directed=True)
    with pytest.raises(InputError, match="undirected"):
        egonet_release(directed, 1)
    with pytest.raises(ConfigError, match="min_degree"):
        sample_linkage_pairs(rel1, n_identical_per_case=1, n_non_identical=1, min_degree=-1)
    with pytest.raises(ConfigError, match="cases"):
        sample_linkage_pairs(rel1, n_identical_per_case=1, n_non_identical=1, cases=(4,))
    with pytest.raises(ConfigError, match="non_identical_case"):
        sample_linkage_pairs(rel1, n_identical_per_case=1, n_non_identical=1, non_identical_case=0)
    with pytest.raises(ConfigError, match="n_non_identical"):
        sample_linkage_pairs(rel1, n_identical_per_case=1, n_non_identical=-2)
    pairs = sample_linkage_pairs(rel1, n_identical_per_case=2, n_non_identical=2, seed=0)
    with pytest.raises(ConfigError, match="degree_scope"):
        signature_attack(rel1, pairs, degree_scope="global")
    with pytest.raises(ConfigError, match="ego_policy"):
        signature_attack(rel1, pairs, ego_policy="first")
    with pytest.raises(InputError, match="outside this release"):
        signature_attack(rel1.subset([0]), pairs)
    with pytest.raises(InputError, match="not a node of egonet"):
        egonet_node_histograms(rel1, [0], [10_000])
    with pytest.raises(ConfigError, match="n_bins"):
        egonet_node_histograms(rel1, [0], [0], n_bins=0)
    with pytest.raises(InputError, match="egonet index"):
        rel1.local_graph(99)
    with pytest.raises(ConfigError, match="case"):
        pairs.select(5)


# ============================================================================ real data
def test_facebook_scheme1_case1_signatures_match(facebook_graph):
    rel = egonet_release(facebook_graph, 8, scheme=1, min_size=401, seed=3)
    pairs = sample_linkage_pairs(
        rel, n_identical_per_case=200, n_non_identical=500, cases=(1,), non_identical_case=1,
        seed=3,
    )  # fmt: skip
    if pairs.drawn["1-hop"] == 0:
        pytest.skip("no Case 1 pair among these egonets")
    res = signature_attack(rel, pairs)
    assert res.success_identical == 1.0 and res.success_non_identical > 0.95
