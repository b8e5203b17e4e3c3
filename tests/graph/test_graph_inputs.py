"""Every public graph function takes a privlab Graph, a networkx graph or an igraph graph
(privlab.graph.core.as_graph) and gives the same result for the same graph."""

from __future__ import annotations

import dataclasses
import math

import igraph as ig
import networkx as nx
import numpy as np
import pytest

from privlab.audit import audit_graph
from privlab.errors import InputError
from privlab.graph.anonymize import perturb
from privlab.graph.anonymize.dp_dk import dk2_series, dp_dk2_graph, private_dk2
from privlab.graph.anonymize.kdegree import kdegree_anonymize
from privlab.graph.anonymize.naive import naive_anonymize
from privlab.graph.attacks import active, propagation, refinement, signature, subgraph
from privlab.graph.attacks.egonet.release import egonet_release, two_hop_sizes
from privlab.graph.attacks.learned import (
    degree_histograms,
    evaluation_pairs,
    node_features,
    split_training_pairs,
)
from privlab.graph.attacks.threepsl import cosine_similarity
from privlab.graph.core import Graph, as_graph
from privlab.graph.pairs import sample_pair, secgraph_pair
from privlab.graph.utility import compare

NX = nx.relabel_nodes(nx.powerlaw_cluster_graph(120, 3, 0.3, seed=2), lambda v: f"p{v}")
NX.add_nodes_from(["lonely", "alone"])  # isolated nodes ride along
GRAPH = Graph.from_networkx(NX)
IGRAPH = GRAPH.to_igraph()  # vertex attribute "label" holds the ids
SEEDS = np.array([[v, v] for v in np.argsort(-GRAPH.degrees())[:8]])
TRUTH = np.stack([np.arange(GRAPH.n_nodes)] * 2, axis=1)


def canon(x):
    """A comparable form of a result: graphs as edge lists, arrays as lists, no timings."""
    if isinstance(x, Graph):
        return x.n_nodes, x.edges().tolist(), None if x.labels is None else x.labels.tolist()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if hasattr(x, "to_dict"):
        return canon(x.to_dict())
    if dataclasses.is_dataclass(x):
        return canon({f.name: getattr(x, f.name) for f in dataclasses.fields(x)})
    if isinstance(x, dict):
        return {k: canon(v) for k, v in x.items() if "seconds" not in str(k)}
    if isinstance(x, list | tuple):
        return [canon(v) for v in x]
    if isinstance(x, float) and math.isnan(x):
        return "nan"
    return x


ONE = {
    "rsp": lambda g: perturb.random_sparsification(g, 0.2, seed=1),
    "rad": lambda g: perturb.random_add_delete(g, 0.2, seed=1),
    "insert": lambda g: perturb.random_insertion(g, 0.2, seed=1),
    "rep": lambda g: perturb.random_edge_perturbation(g, 0.01, seed=1),
    "rsw": lambda g: perturb.random_switch(g, 0.2, seed=1),
    "naive": lambda g: naive_anonymize(g, seed=1),
    "kdegree": lambda g: kdegree_anonymize(g, 3, seed=1),
    "dk2_series": dk2_series,
    "private_dk2": lambda g: private_dk2(g, 1.0, max_degree=60, seed=1).value,
    "dp_dk2_graph": lambda g: dp_dk2_graph(g, 5.0, max_degree=60, seed=1).graph,
    "vertex_refinement": lambda g: refinement.vertex_refinement(g).n_classes,
    "h1_posterior": lambda g: refinement.h1_posterior(g, 3, 2),
    "gather_edge_facts": lambda g: subgraph.gather_edge_facts(g, 0, 4, seed=0),
    "subgraph_candidates": lambda g: subgraph.subgraph_candidates(
        g, subgraph.gather_edge_facts(GRAPH, 0, 4, seed=0)
    ),
    "subgraph_matcher": lambda g: subgraph.SubgraphMatcher(g).n,
    "subgraph_knowledge": lambda g: subgraph.subgraph_knowledge_experiment(
        g, 3, targets=[0, 5, 9], seed=0
    ).sizes,
    "active_attack": lambda g: active.active_attack(g, 3, seed=1),
    "success_vs_k": lambda g: active.success_vs_k(g, [10], n_targets=2, trials=1, seed=1),
    "plant_sybils": lambda g: active.plant_sybils(g, [0, 1], seed=1).graph,
    "top_degree_seeds": lambda g: propagation.top_degree_seeds(g, TRUTH, 5),
    "colour_refinement": lambda g: signature.colour_refinement(g).colours,
    "sample_pair": lambda g: sample_pair(g, 0.8, 0.8, seed=1).san,
    "secgraph_pair": lambda g: secgraph_pair(g, 0.9, seed=1).aux,
    "two_hop_sizes": two_hop_sizes,
    "egonet_release": lambda g: egonet_release(g, 2, min_size=5, seed=1).graphs,
    "node_features": lambda g: node_features(g).hist,
    "degree_histograms": degree_histograms,
    "split_training_pairs": lambda g: split_training_pairs(
        g, alpha_v=0.8, alpha_e=0.8, n_identical=5, n_non_identical=5, min_degree=1, seed=1
    ).y,
}  # fmt: skip

TWO = {
    "compare": lambda g, h: compare(g, h),
    "audit_graph": lambda g, h: audit_graph(g, h, sample=3, facts=(1, 2)).details["utility"],
    "release_candidate_sizes": lambda g, h: refinement.release_candidate_sizes(g, h, [1]),
    "perturbation_h1_risk": lambda g, h: refinement.perturbation_h1_risk(g, h, 2).sizes,
    "propagate": lambda g, h: propagation.propagate(g, h, SEEDS, 0.1).mapping,
    "discover_seeds": lambda g, h: propagation.discover_seeds(g, h, 4).pairs,
    "match_by_signatures": lambda g, h: signature.match_by_signatures(g, h)[0],
    "evaluation_pairs": lambda g, h: evaluation_pairs(
        g, h, TRUTH, n_non_identical=20, min_degree=1, seed=1
    ),
    "cosine_similarity": lambda g, h: cosine_similarity(g, h, SEEDS, [0, 1, 2], [0, 1, 2]),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(ONE))
def test_one_graph_functions_take_networkx_and_igraph(name):
    fn = ONE[name]
    expected = canon(fn(GRAPH))
    assert canon(fn(NX)) == expected
    assert canon(fn(IGRAPH)) == expected


@pytest.mark.parametrize("name", sorted(TWO))
def test_two_graph_functions_take_networkx_and_igraph(name):
    fn = TWO[name]
    expected = canon(fn(GRAPH, GRAPH))
    assert canon(fn(NX, IGRAPH)) == expected
    assert canon(fn(IGRAPH, NX)) == expected


def test_as_graph_keeps_ids_as_labels_and_names_what_it_refuses():
    g = as_graph(NX)
    assert g.labels.tolist() == list(NX.nodes()) and g.n_nodes == 122
    assert as_graph(GRAPH) is GRAPH
    assert as_graph(ig.Graph(n=3, edges=[(0, 1)])).n_nodes == 3
    with pytest.raises(InputError, match=r"random switch \(RSW\): expected a privlab Graph"):
        perturb.random_switch([[0, 1]], 0.1)
    with pytest.raises(InputError, match="needs an undirected graph"):
        perturb.random_switch(nx.DiGraph([(0, 1)]), 0.1)
