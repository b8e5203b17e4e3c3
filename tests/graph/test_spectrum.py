"""Spectrum-preserving randomization (Ying & Wu 2008): the eigen-solvers against dense
numpy, the acceptance rule, the invariants of Spctr Add/Del and Spctr Switch, and the
property the scheme exists for — λ1 and μ2 of the release closer to the original than plain
RAD/RSW at the same fraction — measured on seeded graphs."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.graph.anonymize import spectrum as S
from privlab.graph.anonymize.perturb import random_add_delete, random_switch
from privlab.graph.anonymize.spectrum import (
    adjacency_lambda1,
    laplacian_mu2,
    spectral_summary,
    spectrum_add_delete,
    spectrum_switch,
)
from privlab.graph.core import Graph
from tests.graph.test_perturb import graphs

SCHEMES = [spectrum_add_delete, spectrum_switch]


def edge_set(g: Graph) -> set[tuple[int, int]]:
    return set(map(tuple, g.edges().tolist()))


def dense_lambda1_mu2(g: Graph, nodes=None) -> tuple[float, float]:
    a = g.to_scipy().toarray().astype(float)
    lam = float(np.linalg.eigvalsh(a)[-1])
    idx = np.arange(g.n_nodes) if nodes is None else np.flatnonzero(nodes)
    sub = a[np.ix_(idx, idx)]
    lap = np.diag(sub.sum(axis=1)) - sub
    return lam, float(np.linalg.eigvalsh(lap)[1])


def small_world(n=300, seed=1) -> Graph:
    return Graph.from_networkx(nx.connected_watts_strogatz_graph(n, 6, 0.2, seed=seed))


# ---------------------------------------------------------------------------- eigen-solvers
@pytest.mark.parametrize("n", [12, 120])  # dense path, then ARPACK
def test_lambda1_and_mu2_match_dense_numpy(n):
    g = Graph.from_networkx(nx.gnm_random_graph(n, 3 * n, seed=n))
    mask = S.largest_component(g)
    lam, x = adjacency_lambda1(g)
    mu, y = laplacian_mu2(g, mask)
    ref_lam, ref_mu = dense_lambda1_mu2(g, mask)
    assert lam == pytest.approx(ref_lam, rel=1e-8)
    assert mu == pytest.approx(ref_mu, rel=1e-6, abs=1e-9)
    a = g.to_scipy().toarray()
    assert np.allclose(a @ x, lam * x, atol=1e-6) and x.sum() > 0
    assert np.linalg.norm(y) == pytest.approx(1.0) and np.all(y[~mask] == 0)


def test_warm_started_lobpcg_agrees_with_shift_invert(monkeypatch):
    g = Graph.from_networkx(nx.connected_watts_strogatz_graph(400, 6, 0.3, seed=4))
    y = laplacian_mu2(g)[1]
    h = random_add_delete(g, 0.05, seed=2).graph
    ref = laplacian_mu2(h)[0]
    monkeypatch.setattr(S, "LOBPCG_FROM", 0)
    assert laplacian_mu2(h, start=y)[0] == pytest.approx(ref, rel=1e-6)


def test_known_spectra():
    # K_n: λ1 = n − 1, μ2 = n; the path P_n: μ2 = 2 − 2cos(π/n); a star: μ2 = 1
    k = Graph.from_networkx(nx.complete_graph(7))
    assert spectral_summary(k).lambda1 == pytest.approx(6) and spectral_summary(k).mu2 == (
        pytest.approx(7)
    )
    p = Graph.from_networkx(nx.path_graph(50))
    assert spectral_summary(p).mu2 == pytest.approx(2 - 2 * np.cos(np.pi / 50))
    star = Graph.from_networkx(nx.star_graph(40))
    assert spectral_summary(star).mu2 == pytest.approx(1.0)
    # disconnected: μ2 of the largest component, not 0
    two = Graph.from_edges(9, [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 6), (6, 7), (7, 3)])
    summ = spectral_summary(two)
    assert summ.mu2_nodes == 5 and summ.mu2 == pytest.approx(2 - 2 * np.cos(2 * np.pi / 5))


def test_first_order_estimates_are_the_papers_table_conditions():
    """Δλ1 ≈ 2(x_t − x_u)(x_v − x_w) for the switch (t,w),(u,v) → (t,v),(u,w); the estimate
    has the sign of the exact change for small changes on a large graph."""
    g = small_world(300, seed=5)
    lam, x = adjacency_lambda1(g)
    mu, y = laplacian_mu2(g)
    rng = np.random.default_rng(0)
    e = g.edges()
    agree_l = agree_m = total = 0
    for _ in range(40):
        i1, i2 = rng.choice(e.shape[0], 2, replace=False)
        (t, w), (u, v) = e[i1], e[i2]
        if len({t, w, u, v}) < 4 or g.has_edge(t, v) or g.has_edge(u, w):
            continue
        est_l = 2 * (x[t] - x[u]) * (x[v] - x[w])
        est_m = -2 * (y[t] - y[u]) * (y[v] - y[w])
        es = edge_set(g) - {(min(t, w), max(t, w)), (min(u, v), max(u, v))}
        es |= {(min(t, v), max(t, v)), (min(u, w), max(u, w))}
        h = Graph.from_edges(g.n_nodes, sorted(es))
        new_l, new_m = adjacency_lambda1(h)[0], laplacian_mu2(h)[0]
        total += 1
        agree_l += np.sign(est_l) == np.sign(new_l - lam)
        agree_m += np.sign(est_m) == np.sign(new_m - mu)
    assert total >= 20 and agree_l >= 0.9 * total and agree_m >= 0.8 * total


# ---------------------------------------------------------------------------- the rule
@pytest.mark.parametrize(
    ("cur", "target", "delta", "tol", "ok"),
    [
        (5.0, 4.0, -0.1, 0.0, True),  # above: going down
        (5.0, 4.0, 0.1, 0.0, False),  # above: going up
        (3.0, 4.0, 0.1, 0.0, True),  # below: going up
        (3.0, 4.0, -0.1, 0.0, False),
        (4.0, 4.0, 0.3, 0.0, True),  # at the original: either way
        (4.0, 4.0, -0.3, 0.0, True),
        (4.0, 4.0, 0.3, 0.1, True),  # inside the band
        (4.1, 4.0, 0.2, 0.1, True),  # going away, but 4.3 is inside the band [3.6, 4.4]
        (4.1, 4.0, 0.5, 0.1, False),  # 4.6 outside the band and going away
    ],
)
def test_moves_back_rule(cur, target, delta, tol, ok):
    assert S._moves_back(cur, target, delta, tol) is ok


# ---------------------------------------------------------------------------- invariants
@given(graphs(max_nodes=16, max_edges=50), st.sampled_from([0.0, 0.2, 0.5]), st.integers(0, 2**16))
@settings(max_examples=30, deadline=None)
def test_invariants_on_random_graphs(g, fraction, seed):
    for scheme in SCHEMES:
        try:
            r = scheme(g, fraction, seed=seed, refreshes=2)
        except (InfeasibleError, ConfigError):
            continue  # no valid change left, or more insertions than non-edges
        out = r.graph
        before, after = edge_set(g), edge_set(out)
        assert out.n_nodes == g.n_nodes and out.n_edges == g.n_edges
        assert len(before - after) == r.edges_removed and len(after - before) == r.edges_added
        rows = np.repeat(np.arange(out.n_nodes), out.degrees())
        assert not np.any(rows == out.indices)  # no self-loop
        if scheme is spectrum_switch:
            assert np.array_equal(out.degrees(), g.degrees())
            assert r.edges_removed == 2 * r.parameters["s"]
        else:
            assert r.edges_removed == r.parameters["m"]


def test_fraction_zero_is_the_identity_and_results_serialize():
    g = small_world(60)
    for scheme in SCHEMES:
        r = scheme(g, 0.0, seed=1)
        assert edge_set(r.graph) == edge_set(g)
        d = r.to_dict()
        assert d["parameters"]["lambda1_release"] == pytest.approx(
            d["parameters"]["lambda1_original"]
        )
        assert d["insecure_seed"] is True


def test_seeds_reproduce_and_differ():
    g = small_world(120)
    for scheme in SCHEMES:
        a, b, c = (scheme(g, 0.2, seed=s).graph for s in (7, 7, 8))
        assert edge_set(a) == edge_set(b) != edge_set(c)


def test_switch_keeps_every_degree_and_changes_exactly_2s_edges():
    g = small_world(300)
    r = spectrum_switch(g, 0.3, seed=2)
    assert np.array_equal(r.graph.degrees(), g.degrees())
    s = r.parameters["s"]
    assert s == round(0.3 * (g.n_edges // 2))
    assert len(edge_set(g) - edge_set(r.graph)) == 2 * s == len(edge_set(r.graph) - edge_set(g))


def test_add_delete_deletes_originals_and_inserts_non_edges():
    g = small_world(300)
    r = spectrum_add_delete(g, 0.3, seed=2)
    m = r.parameters["m"]
    assert r.graph.n_edges == g.n_edges
    assert len(edge_set(g) - edge_set(r.graph)) == m == len(edge_set(r.graph) - edge_set(g))


# ---------------------------------------------------------------------------- the point
@pytest.mark.parametrize(
    ("spectral", "plain"), [(spectrum_add_delete, random_add_delete),
                            (spectrum_switch, random_switch)],
)  # fmt: skip
def test_release_spectrum_is_closer_than_plain_randomization(spectral, plain):
    """Mean |Δλ1| and |Δμ2| over seeds: the spectral scheme beats the plain one at the same
    fraction — the reason the scheme exists, measured on the release with exact solvers."""
    g = small_world(300, seed=3)
    s0 = spectral_summary(g)
    err = {"spectral": np.zeros(2), "plain": np.zeros(2)}
    for seed in range(3):
        for name, fn in (("spectral", spectral), ("plain", plain)):
            s = spectral_summary(fn(g, 0.3, seed=seed).graph)
            err[name] += [abs(s.lambda1 - s0.lambda1), abs(s.mu2 - s0.mu2)]
    assert np.all(err["spectral"] < 0.5 * err["plain"]), err


def test_reported_release_values_are_exact():
    g = small_world(200)
    r = spectrum_add_delete(g, 0.2, seed=4)
    lam, mu = dense_lambda1_mu2(r.graph, S.largest_component(r.graph))
    assert r.parameters["lambda1_release"] == pytest.approx(lam, rel=1e-8)
    assert r.parameters["mu2_release"] == pytest.approx(mu, rel=1e-6)


def test_paper_mode_without_refreshes_and_a_tolerance_band_run():
    g = small_world(150)
    r = spectrum_switch(g, 0.2, seed=1, refreshes=0, tolerance=0.02)
    assert r.parameters["refreshes"] == 0 and r.parameters["tolerance"] == 0.02


# ---------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("kwargs", "name"),
    [({"fraction": 1.5}, "fraction"), ({"fraction": -0.1}, "fraction"),
     ({"fraction": float("nan")}, "fraction"), ({"fraction": "0.1"}, "fraction"),
     ({"fraction": 0.1, "tolerance": 2.0}, "tolerance"),
     ({"fraction": 0.1, "tolerance": -1e-3}, "tolerance"),
     ({"fraction": 0.1, "refreshes": -1}, "refreshes"),
     ({"fraction": 0.1, "refreshes": 2.5}, "refreshes")],
)  # fmt: skip
def test_bad_parameters_are_config_errors_naming_them(kwargs, name):
    g = small_world(40)
    for scheme in SCHEMES:
        with pytest.raises(ConfigError, match=name):
            scheme(g, seed=1, **kwargs)


def test_directed_graphs_are_refused():
    g = Graph.from_edges(3, [(0, 1), (1, 2)], directed=True)
    for scheme in SCHEMES:
        with pytest.raises(InputError, match="undirected"):
            scheme(g, 0.1, seed=1)


def test_a_switch_with_no_valid_move_is_infeasible():
    star = Graph.from_networkx(nx.star_graph(6))  # every switch makes a loop or a repeat
    with pytest.raises(InfeasibleError, match="Spctr Switch"):
        spectrum_switch(star, 0.5, seed=1)


def test_switches_never_join_the_mu2_component_to_another():
    """With the eigenvectors computed once, the component whose μ2 is controlled keeps its
    node set: no released edge joins it to the other component (RSW does join them)."""
    big = nx.connected_watts_strogatz_graph(150, 6, 0.2, seed=2)
    small = nx.relabel_nodes(nx.cycle_graph(40), {i: 150 + i for i in range(40)})
    g = Graph.from_networkx(nx.union(big, small))
    inside = np.arange(g.n_nodes) < 150
    for seed in range(3):
        e = spectrum_switch(g, 0.4, seed=seed, refreshes=0).graph.edges()
        assert not np.any(inside[e[:, 0]] != inside[e[:, 1]])
    e = random_switch(g, 0.4, seed=0).graph.edges()
    assert np.any(inside[e[:, 0]] != inside[e[:, 1]])
