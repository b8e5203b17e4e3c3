"""Privacy metrics of a graph release (privlab.graph.privacy_metrics): k-obfuscation (Bonchi,
Gionis & Tassa 2011; Boldi et al. 2012), degree-and-clustering candidate sets, edge/link
disclosure (seed 000 §7.2.1, seed 002 §6.1) and group re-identification (seed 002 §6.1).

Hand-computed small cases, the invariants of the brief (a cycle is maximally obfuscated, a
star's centre is unique), Bonchi et al.'s entropy ≥ belief theorem, model limits (p = 0,
m = 0 give the exact model), group refinement against brute-force enumeration."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom

from privlab.errors import ConfigError, InputError
from privlab.graph import privacy_metrics as pm
from privlab.graph.anonymize.perturb import random_add_delete, random_sparsification
from privlab.graph.core import Graph, as_graph


def g_of(edges, n=None) -> Graph:
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    return Graph.from_edges(n if n is not None else int(e.max()) + 1, e)


def H(p) -> float:
    p = np.asarray(p, dtype=float)
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


# ============================================================================ obfuscation
def test_cycle_every_node_maximally_obfuscated() -> None:
    n = 12
    c = as_graph(nx.cycle_graph(n))
    ob = pm.obfuscation(c, c)
    assert np.allclose(ob.entropy, math.log2(n))
    assert ob.obfuscated_fraction(n) == 1.0 and ob.obfuscated_fraction(n + 1) == 0.0
    assert (ob.belief_size == n).all() and ob.satisfies(n, 0.0)


def test_star_centre_unique_leaves_hidden() -> None:
    s = as_graph(nx.star_graph(6))  # centre 0, leaves 1..6
    ob = pm.obfuscation(s, s)
    assert ob.entropy[0] == 0.0 and ob.belief_size[0] == 1
    assert np.allclose(ob.entropy[1:], math.log2(6))
    assert ob.obfuscated_fraction(2) == pytest.approx(6 / 7)
    assert ob.min_eps(2) == pytest.approx(1 / 7)
    assert ob.satisfies(2, 1 / 7) and not ob.satisfies(2, 0.1)


def test_sparsify_hand_computed() -> None:
    # original path 0-1-2 (degrees 1, 2, 1); release keeps only 0-1 (degrees 1, 1, 0)
    orig, rel = g_of([(0, 1), (1, 2)]), g_of([(0, 1)], 3)
    p = 0.5  # removal probability
    ob = pm.obfuscation(orig, rel, model="sparsify", p=p)
    # centre (ω = 2): L(1|2) = 2(1−p)p = 0.5 for nodes 0, 1; L(0|2) = p² = 0.25 for node 2
    assert ob.entropy[1] == pytest.approx(H([0.4, 0.4, 0.2]))
    assert ob.belief_size[1] == 2  # ⌊1 / 0.4⌋
    # ends (ω = 1): L(1|1) = 1−p = 0.5, L(0|1) = p = 0.5 → uniform over 3 nodes
    assert ob.entropy[0] == pytest.approx(math.log2(3))


def test_perturb_hand_computed() -> None:
    # n = 3; original path 0-1-2, release = the triangle; remove w.p. p, add w.p. q
    orig, rel = g_of([(0, 1), (1, 2)]), g_of([(0, 1), (1, 2), (0, 2)])
    ob = pm.obfuscation(orig, rel, model="perturb", p=0.2, q=0.3)
    # every release node has degree 2: uniform, whatever the likelihood
    assert np.allclose(ob.entropy, math.log2(3))
    # the likelihood itself: ω = 1, n = 3: Bin(1, 0.8) + Bin(1, 0.3) at 2 = 0.8·0.3
    like = pm.degree_likelihood(np.array([0, 1, 2]), np.array([1]), model="perturb", n=3,
                                release_edges=3, p=0.2, q=0.3)  # fmt: skip
    assert like[:, 0] == pytest.approx([0.2 * 0.7, 0.8 * 0.7 + 0.2 * 0.3, 0.8 * 0.3])


def test_rsp_likelihood_is_hypergeometric() -> None:
    like = pm.degree_likelihood(np.arange(6), np.array([3, 5]), model="rsp", n=10,
                                release_edges=12, m=8)  # fmt: skip
    for j, w in enumerate((3, 5)):
        assert like[:, j] == pytest.approx(hypergeom(20, w, 12).pmf(np.arange(6)))


def test_rad_forward_likelihood_by_enumeration() -> None:
    """Every (deletion, insertion) of RAD with m = 1 on the path 0-1-2-3, equally likely:
    the released degree of node 1 (degree 2) and of node 0 (degree 1)."""
    n, edges = 4, {(0, 1), (1, 2), (2, 3)}
    pairs = list(itertools.combinations(range(n), 2))
    counts = {1: np.zeros(n), 2: np.zeros(n)}
    for gone in edges:
        interim = edges - {gone}
        for new in (p for p in pairs if p not in interim):
            final = interim | {new}
            for node, w in ((1, 2), (0, 1)):
                counts[w][sum(node in e for e in final)] += 1
    like = pm.degree_likelihood(np.arange(n), np.array([1, 2]), model="rad", n=n,
                                release_edges=3, m=1)  # fmt: skip
    for j, w in enumerate((1, 2)):
        assert like[:, j] == pytest.approx(counts[w] / counts[w].sum())


@pytest.mark.parametrize(
    ("model", "kw"),
    [("sparsify", {"p": 0.0}), ("perturb", {"p": 0.0, "q": 0.0}), ("rsp", {"m": 0}),
     ("rad", {"m": 0}), ("rad-hay", {"m": 0})],
)  # fmt: skip
def test_no_noise_is_the_exact_model(model: str, kw: dict) -> None:
    g = as_graph(nx.karate_club_graph())
    exact = pm.obfuscation(g, g)
    other = pm.obfuscation(g, g, model=model, **kw)
    assert np.allclose(other.entropy, exact.entropy)
    assert (other.belief_size == exact.belief_size).all()


def test_exact_model_no_match_counts_as_not_obfuscated() -> None:
    orig, rel = g_of([(0, 1), (1, 2)]), g_of([(0, 1), (1, 2), (0, 2)])
    ob = pm.obfuscation(orig, rel)
    # the ends (degree 1) match no node of the triangle; the centre matches all three
    assert ob.no_match.tolist() == [True, False, True]
    assert ob.obfuscated_fraction(1) == pytest.approx(1 / 3)
    assert ob.entropy[1] == pytest.approx(math.log2(3))
    assert ob.to_dict()["no_match_fraction"] == pytest.approx(2 / 3)


def test_noise_raises_obfuscation_on_a_real_release() -> None:
    g = as_graph(nx.les_miserables_graph())
    rel = random_sparsification(g, 0.2, seed=1)
    ob = pm.obfuscation(g, rel.graph, model="rsp")
    base = pm.obfuscation(g, g)
    assert ob.obfuscated_fraction(5) >= base.obfuscated_fraction(5)
    assert np.nanmean(ob.entropy) > np.nanmean(base.entropy)
    assert not ob.no_match.any()  # every original degree can arise under RSP


@settings(max_examples=25, deadline=None)
@given(st.integers(5, 30), st.floats(0.05, 0.5), st.integers(0, 2**31),
       st.sampled_from(["exact", "rsp", "rad", "rad-hay", "sparsify", "perturb"]))  # fmt: skip
def test_entropy_at_least_belief(n: int, dens: float, seed: int, model: str) -> None:
    """Bonchi et al.: the entropy measure is never below the a-posteriori-belief one,
    2^H(X_v) ≥ 1 / max_u X_v(u) ≥ ⌊·⌋, and H ≤ log₂ n."""
    g = as_graph(nx.gnp_random_graph(n, dens, seed=seed))
    if model in ("rsp", "rad", "rad-hay"):
        if g.n_edges == 0:
            return
        scheme = random_sparsification if model == "rsp" else random_add_delete
        rel = scheme(g, 0.3, seed=seed)
        kw = {"m": rel.parameters["m"]}
        release = rel.graph
    else:
        release = g
        kw = {"p": 0.3, "q": 0.05} if model != "exact" else {}
        if model == "sparsify":
            kw = {"p": 0.3}
    ob = pm.obfuscation(g, release, model=model, **kw)
    ok = ~ob.no_match
    assert (np.exp2(ob.entropy[ok]) >= ob.belief_size[ok] - 1e-6).all()
    assert (ob.entropy[ok] <= math.log2(n) + 1e-9).all()


def test_uncertain_graph() -> None:
    g = as_graph(nx.karate_club_graph())
    e = g.edges()
    certain = pm.uncertain_obfuscation(g, g.n_nodes, e, np.ones(len(e)))
    assert np.allclose(certain.entropy, pm.obfuscation(g, g).entropy)
    # one uncertain edge 0-1 (p = 0.5) and a certain 1-2: X_0 = (.5, .5, 0), X_1 = (0, .5, .5),
    # X_2 = (0, 1, 0); a target of degree 1 (node 0 or 2 of the path 0-1-2):
    orig = g_of([(0, 1), (1, 2)])
    ob = pm.uncertain_obfuscation(orig, 3, [(0, 1), (1, 2)], [0.5, 1.0])
    assert ob.entropy[0] == pytest.approx(H(np.array([0.5, 0.5, 1.0]) / 2))
    assert ob.entropy[1] == pytest.approx(H([0.0, 1.0]))  # degree 2: only node 1 (p = .5)
    with pytest.raises(InputError, match="probabilit"):
        pm.uncertain_obfuscation(orig, 3, [(0, 1)], [1.5])


def test_obfuscation_errors() -> None:
    g = as_graph(nx.path_graph(4))
    with pytest.raises(ConfigError, match="model"):
        pm.obfuscation(g, g, model="noise")
    with pytest.raises(ConfigError, match="m = None"):
        pm.obfuscation(g, g, model="rad")
    with pytest.raises(ConfigError, match=r"p = 1\.5"):
        pm.obfuscation(g, g, model="sparsify", p=1.5)
    with pytest.raises(InputError, match="RSP deletes"):
        pm.obfuscation(g, g, model="rsp", m=1)
    with pytest.raises(ConfigError, match="k = 0"):
        pm.obfuscation(g, g, ks=(0,))


# ============================================================================ degree + clustering
def test_local_clustering_matches_networkx() -> None:
    nxg = nx.les_miserables_graph()
    g = as_graph(nxg)
    ref = nx.clustering(nx.convert_node_labels_to_integers(nxg))
    assert np.allclose(pm.local_clustering(g), [ref[i] for i in range(g.n_nodes)])


def test_degree_clustering_hand_case() -> None:
    # triangle 0-1-2 with a tail 2-3 and a separate path 4-5-6: degrees 2,2,3,1,1,2,1,
    # clustering 1,1,1/3,0,0,0,0 → keys (2,1)×2, (3,.33), (1,0)×3, (2,0)
    g = g_of([(0, 1), (1, 2), (0, 2), (2, 3), (4, 5), (5, 6)])
    res = pm.degree_clustering_anonymity(g)
    assert res.sizes.tolist() == [2, 2, 1, 3, 3, 1, 3]
    # knowing the degree alone would give class sizes 3, 3, 1, 3, 3, 3, 3
    relabelled = g_of([(6, 5), (5, 4), (6, 4), (4, 3), (2, 1), (1, 0)])
    assert pm.degree_clustering_anonymity(g, relabelled).sizes.tolist() == res.sizes.tolist()
    edited = pm.degree_clustering_anonymity(g, g_of([(0, 1)], 7))
    assert edited.sizes.tolist() == [0, 0, 0, 2, 2, 0, 2]
    # aligned ids: nodes 2 and 5 are alone in their class, and the class holds themselves
    assert res.to_dict()["reidentified_fraction"] == pytest.approx(2 / 7)
    assert edited.to_dict()["reidentified_fraction"] == 0.0


# ============================================================================ link disclosure
def fig72() -> Graph:
    """Seed 000 Fig. 7.2's situation: A, B, D have degree 2, C degree 3, A, B, D all adjacent
    to C (the figure is lost in the text; E closes the degrees)."""
    a, b, c, d, e = range(5)
    return g_of([(a, c), (b, c), (d, c), (a, b), (d, e)])


def test_fig72_edge_disclosed_without_identity() -> None:
    g = fig72()
    ld = pm.link_disclosure(g)
    probs = dict(zip(map(tuple, ld.edges.tolist()), ld.probability.tolist(), strict=True))
    assert probs[(0, 2)] == 1.0 and probs[(1, 2)] == 1.0 and probs[(2, 3)] == 1.0
    assert probs[(0, 1)] == pytest.approx(1 / 3)  # 1 edge among C(3, 2) pairs of {A, B, D}
    assert probs[(3, 4)] == pytest.approx(1 / 3)  # D–E: {A, B, D} × {E}, one edge of three
    d = ld.to_dict()
    assert d["disclosed_fraction"] == pytest.approx(3 / 5)
    assert d["baseline_density"] == pytest.approx(5 / 10)
    # Alice (degree 2) is not singled out: her candidate set has 3 nodes
    assert pm.obfuscation(g, g).belief_size[0] == 3


def test_cycle_links_are_at_density() -> None:
    n = 9
    c = as_graph(nx.cycle_graph(n))
    ld = pm.link_disclosure(c, level=None, non_edges=10, seed=1)
    assert np.allclose(ld.probability, 2 / (n - 1))  # n edges among C(n, 2) pairs
    assert np.allclose(ld.non_edge_probability, 2 / (n - 1))
    assert ld.to_dict()["disclosed_fraction"] == 0.0


def test_link_disclosure_of_a_release() -> None:
    g = as_graph(nx.karate_club_graph())
    rel = random_add_delete(g, 0.1, seed=3).graph
    ld = pm.link_disclosure(g, rel, level=1)
    p = ld.probability
    assert np.isnan(p).any() or (p >= 0).all()
    assert ((p[~np.isnan(p)] >= 0) & (p[~np.isnan(p)] <= 1)).all()
    # H_2 knowledge is finer: at least as many edges disclosed with certainty on the original
    d1 = pm.link_disclosure(g, level=1).to_dict()["disclosed_fraction"]
    d2 = pm.link_disclosure(g, level=2).to_dict()["disclosed_fraction"]
    assert d2 >= d1


def test_link_disclosure_brute_force() -> None:
    g = as_graph(nx.les_miserables_graph())
    ld = pm.link_disclosure(g, level=1)
    deg = g.degrees()
    for (a, b), p in list(zip(ld.edges.tolist(), ld.probability.tolist(), strict=True))[:40]:
        A, B = np.flatnonzero(deg == deg[a]), np.flatnonzero(deg == deg[b])
        pairs = {frozenset((x, y)) for x in A for y in B if x != y}
        hits = sum(g.has_edge(*tuple(s)) for s in pairs)
        assert p == pytest.approx(hits / len(pairs))


# ============================================================================ group re-id
def brute(masks: np.ndarray) -> np.ndarray:
    t, n = masks.shape
    out = np.zeros_like(masks)
    for assign in itertools.permutations(range(n), t):
        if all(masks[i, y] for i, y in enumerate(assign)):
            for i, y in enumerate(assign):
                out[i, y] = True
    return out


def test_hay_group_example() -> None:
    # cand(x) = {y, y'}, cand(x') = {y'}  ⇒  x = y  (seed 002 §6.1, L671–672)
    refined, ok = pm.group_candidates(np.array([[1, 1], [0, 1]], dtype=bool))
    assert ok and refined.tolist() == [[True, False], [False, True]]


def test_inconsistent_group() -> None:
    masks = np.array([[1, 0, 0], [1, 0, 0]], dtype=bool)
    refined, ok = pm.group_candidates(masks)
    assert not ok and (refined == masks).all()


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.integers(0, 2**31), st.floats(0.2, 0.8))
def test_group_candidates_equal_enumeration(t: int, n: int, seed: int, p: float) -> None:
    rng = np.random.default_rng(seed)
    masks = rng.random((t, n)) < p
    refined, ok = pm.group_candidates(masks)
    want = brute(masks)
    assert ok == bool(want.any())  # some assignment covers every target
    assert (refined == (want if ok else masks)).all()


def test_group_reidentification_degree_at_least() -> None:
    # a star with two extra chords: degrees distinct enough that nested lower bounds help
    g = as_graph(nx.les_miserables_graph())
    t = np.argsort(-g.degrees())[:8]
    res = pm.group_reidentification(g, g, t, knowledge="degree-at-least", facts=100,
                                    aligned=True)  # fmt: skip
    assert res.consistent
    assert (res.group <= res.individual).all()
    assert res.to_dict()["unique_group"] >= res.to_dict()["unique_individual"]
    # with the true degree as a lower bound, the top-degree node is unique individually
    assert res.individual[0] == 1 and res.correct[0]
    # correct knowledge: the truth always stays a candidate
    res2 = pm.group_reidentification(g, g, np.arange(20), knowledge="facts", facts=3,
                                     aligned=True)  # fmt: skip
    assert res2.consistent and (res2.group >= 1).all()


def test_group_reidentification_shrinks_nested_sets() -> None:
    # path 0-1-2-3 plus leaf 4 on 1: degrees 1,3,2,1,1; lower bounds from 2 facts:
    # target 1 → deg ≥ 2 → {1, 2}; target 2 → deg ≥ 2 → {1, 2}; target 0 → deg ≥ 1 → all
    g = g_of([(0, 1), (1, 2), (2, 3), (1, 4)])
    res = pm.group_reidentification(g, g, [1, 2, 0], facts=2, aligned=True)
    assert res.individual.tolist() == [2, 2, 5]
    assert res.group.tolist() == [2, 2, 3]  # node 0 can no longer be 1 or 2
    with pytest.raises(InputError, match="twice"):
        pm.group_reidentification(g, g, [1, 1])
    with pytest.raises(ConfigError, match="knowledge"):
        pm.group_reidentification(g, g, [1], knowledge="H1")


@pytest.mark.parametrize("seed", [None, 3])
def test_model_link_disclosure_exact_is_h1(seed) -> None:
    g = as_graph(nx.les_miserables_graph())
    rel = g if seed is None else random_add_delete(g, 0.1, seed=seed).graph
    a = pm.link_disclosure(g, rel, level=1, non_edges=50, seed=1)
    b = pm.link_disclosure_model(g, rel, model="exact", non_edges=50, seed=1)
    assert np.allclose(a.probability, b.probability, equal_nan=True)
    assert np.allclose(a.non_edge_probability, b.non_edge_probability, equal_nan=True)
    assert pm.link_disclosure_model(fig72(), fig72()).probability.tolist() == pytest.approx(
        pm.link_disclosure(fig72()).probability.tolist()
    )


def test_model_link_disclosure_on_a_perturbed_release() -> None:
    g = as_graph(nx.les_miserables_graph())
    rel = random_sparsification(g, 0.2, seed=4)
    ld = pm.link_disclosure_model(g, rel.graph, model="rsp", non_edges=500, seed=2)
    d = ld.to_dict()
    assert d["knowledge"] == "degree, rsp model" and d["no_match_fraction"] == 0.0
    assert ((ld.probability >= 0) & (ld.probability <= 1)).all()
    # degrees still carry signal: true edges look likelier than non-edges
    assert d["mean_probability"] > d["non_edge_mean_probability"]


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 40), st.floats(0.05, 0.6), st.integers(0, 2**31))
def test_a_relabelling_changes_no_metric(n: int, dens: float, seed: int) -> None:
    """Invariance: every metric of a naive release equals that of the original itself."""
    from privlab.graph.anonymize.naive import naive_anonymize

    g = as_graph(nx.gnp_random_graph(n, dens, seed=seed))
    rel = naive_anonymize(g, seed=seed).graph
    for level in (1, None):
        a = pm.link_disclosure(g, level=level).probability
        b = pm.link_disclosure(g, rel, level=level).probability
        assert np.allclose(a, b, equal_nan=True)
        assert np.nanmin(a, initial=0) >= 0 and np.nanmax(a, initial=0) <= 1
    assert np.allclose(pm.obfuscation(g, rel).entropy, pm.obfuscation(g, g).entropy)
    assert (pm.degree_clustering_anonymity(g, rel).sizes
            == pm.degree_clustering_anonymity(g).sizes).all()  # fmt: skip
