"""The graph audit's privacy metrics (privlab.audit.graph_privacy): the release model follows
from the edits, and the findings are the library's numbers."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest

from privlab.audit import audit_graph
from privlab.audit.graph_privacy import privacy_metrics_check, release_model
from privlab.graph.anonymize.perturb import random_add_delete, random_sparsification
from privlab.graph.core import Graph, as_graph
from privlab.graph.privacy_metrics import link_disclosure, obfuscation


@pytest.fixture(scope="module")
def karate() -> Graph:
    return as_graph(nx.karate_club_graph())


def test_audit_has_the_metrics(karate):
    pert = random_add_delete(karate, 0.1, seed=3)
    res = audit_graph(pert.graph, karate, sample=5, facts=(1,), thetas=(0.1,))
    assert res.details["privacy_metrics"]["release_model"]["model"] == "rad"
    assert {"obfuscation", "degree-clustering", "edge-disclosure"} <= {
        f.key for f in res.findings}  # fmt: skip
    json.dumps(res.to_dict())


def _check(original, release, aligned, removed):
    from privlab.audit.findings import Thresholds
    from privlab.report import Report

    found, details = privacy_metrics_check(
        original, release, aligned=aligned, removed=removed, th=Thresholds(),
        section=Report("t").add_section("s"),
    )  # fmt: skip
    return {f.key: f for f in found}, details


@pytest.mark.parametrize(("scheme", "model"), [(random_add_delete, "rad"),
                                               (random_sparsification, "rsp")])  # fmt: skip
def test_check_models_the_release(karate, scheme, model):
    pert = scheme(karate, 0.1, seed=3)
    res, details = _check(karate, pert.graph, True, pert.edges_removed)
    spec = details["release_model"]
    assert spec["model"] == model and spec["m"] == pert.edges_removed
    direct = obfuscation(karate, pert.graph, model=model, m=pert.edges_removed)
    f = res["obfuscation"]
    assert f.numbers["not_2_obfuscated"] == pytest.approx(1 - direct.obfuscated_fraction(2))
    e = res["edge-disclosure"].numbers
    assert e["disclosed_H1"] == link_disclosure(karate, pert.graph).to_dict()["disclosed_fraction"]


def test_audit_relabelled_release_uses_exact_model(karate):
    perm = np.random.default_rng(0).permutation(karate.n_nodes)
    relab = Graph.from_edges(karate.n_nodes, perm[karate.edges()])
    res, details = _check(karate, relab, False, 0)
    assert details["release_model"]["model"] == "exact"
    # a relabelling keeps every degree: obfuscation is that of the original itself
    same = obfuscation(karate, karate)
    assert res["obfuscation"].numbers["obfuscated_2"] == same.obfuscated_fraction(2)
    assert res["degree-clustering"].severity in ("high", "medium")


def test_release_model_rules(karate):
    assert release_model(karate, karate, True, 0)["model"] == "exact"
    more = Graph.from_edges(karate.n_nodes, np.concatenate([karate.edges(), [[0, 9]]]))
    assert release_model(karate, more, True, 0)["model"] == "exact"  # insertions only
    assert "no random-edit model" in release_model(karate, more, True, 0)["why"]


def test_check_adds_the_model_row_for_a_perturbed_release(karate):
    pert = random_sparsification(karate, 0.2, seed=5)
    _, details = _check(karate, pert.graph, True, pert.edges_removed)
    rows = details["edge_disclosure"]
    assert set(rows) == {"H1", "H*", "degree, rsp model"}
    assert rows["degree, rsp model"]["no_match_fraction"] == 0.0


def test_unaligned_edited_release_is_not_established(karate):
    """Without aligned ids, a unique (degree, clustering) match on an edited release may be
    the wrong person: not established, never low and never counted as singling out."""
    from privlab.graph.anonymize.perturb import random_switch

    sw = random_switch(karate, 0.2, seed=1).graph
    perm = np.random.default_rng(0).permutation(karate.n_nodes)
    relab = Graph.from_edges(karate.n_nodes, perm[sw.edges()])
    res, details = _check(karate, relab, False, 0)
    assert not details["degree_clustering"]["same_profile"]
    assert res["degree-clustering"].severity in ("not established", "low")
    assert "not established" in res["degree-clustering"].text or (
        res["degree-clustering"].numbers["unique_fraction"] == 0
    )
