"""``graph attack refine --orbits`` and the symmetry schemes of ``graph anonymize``: JSON
figures checked against the library and the definitions, and bad input (exit 2)."""

from __future__ import annotations

import networkx as nx
import pytest

from privlab.graph.core import Graph, write_graph
from tests.cli.test_graph_attack_cli import _ok, _run


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("graphs")
    karate, c6t = folder / "karate.txt", folder / "c6t.txt"
    write_graph(Graph.from_networkx(nx.karate_club_graph()), karate)
    cyc = [(i, (i + 1) % 6) for i in range(6)]
    tri = [(6, 7), (7, 8), (8, 6), (9, 10), (10, 11), (11, 9)]
    write_graph(Graph.from_edges(12, cyc + tri), c6t)
    return karate, c6t


# ============================================================================ refine --orbits
def test_refine_orbits_reports_the_classes_h_star_cannot_split(graphs):
    out = _ok("attack", "refine", graphs[1], "--orbits")
    star, orbits = out["levels"][-2], out["levels"][-1]
    assert star["level"] == "H*" and star["classes"] == 1 and star["counts"] == [0, 0, 0, 12, 0]
    assert orbits["level"] == "orbits" and orbits["classes"] == 2
    assert orbits["counts"] == [0, 0, 12, 0, 0]  # two orbits of 6
    assert out["orbits"]["group_size"] == 12 * 72 and out["orbits"]["hstar_classes_split"] == 1


def test_refine_orbits_on_karate_refine_h_star(graphs):
    out = _ok("attack", "refine", graphs[0], "--orbits", "--star")
    star, orbits = out["levels"]
    assert orbits["classes"] >= star["classes"]
    assert orbits["counts"][0] >= star["counts"][0]  # never fewer singletons than H*
    assert out["orbits"]["hstar_classes_split"] == orbits["classes"] - star["classes"]
    text = _run("attack", "refine", graphs[0], "--orbits")
    assert text.exit_code == 0 and "orbits" in text.stdout
    without = _ok("attack", "refine", graphs[0])
    assert "orbits" not in without and all(r["level"] != "orbits" for r in without["levels"])


# ============================================================================ anonymize
def test_anonymize_ksymmetry_release_and_mapping(graphs, tmp_path):
    import polars as pl

    from privlab.graph.automorphism import automorphism_orbits
    from privlab.graph.core import read_graph

    rel, key = tmp_path / "rel.txt", tmp_path / "map.csv"
    out = _ok("anonymize", graphs[0], "-s", "ksymmetry", "--k", 3, "-o", rel, "--mapping", key,
              "--seed", 1)  # fmt: skip
    d = out["details"]
    release = read_graph(rel).graph
    assert out["nodes"] == release.n_nodes == 34 + d["nodes_added"]
    assert out["edges_after"] == release.n_edges == 78 + d["edges_added"]
    assert d["verified"] and d["min_orbit_after"] >= 3
    assert automorphism_orbits(release).sizes.min() >= 3  # the definition, on the file
    m = pl.read_csv(key)
    assert m.columns == ["release_id", "original", "copy_of"] and m.height == release.n_nodes
    # every input node once in "original"; each added node names the node it copies instead
    assert sorted(m["original"].drop_nulls().to_list()) == list(range(34))
    assert (m["original"].is_null() == m["copy_of"].is_not_null()).all()
    assert m["copy_of"].drop_nulls().is_in(list(range(34))).all()


def test_anonymize_ksymmetry_keep_ids_labels_the_copies(graphs, tmp_path):
    rel = tmp_path / "rel.txt"
    _ok("anonymize", graphs[1], "-s", "ksymmetry", "--k", 7, "-o", rel, "--keep-ids")
    text = rel.read_text()
    assert "0'1" in text  # the copy of node 0 (cycle and triangles: orbits of 6 → one copy)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "ksymmetry"], "needs --k"),
        (["-s", "ksymmetry", "--k", "0"], "k = 0"),
        (["-s", "ksymmetry", "--k", "100000"], "choose a smaller k"),
    ],
)
def test_anonymize_ksymmetry_bad_input(graphs, tmp_path, args, message):
    result = _run("anonymize", graphs[0], *args, "-o", tmp_path / "o.txt")
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "o.txt").exists()


def test_pair_refuses_a_node_adding_scheme(graphs, tmp_path):
    result = _run("pair", graphs[0], "--alpha-v", 1, "--alpha-e", 1, "-s", "ksymmetry", "--k",
                  2, "-o", tmp_path / "p")  # fmt: skip
    assert result.exit_code == 2 and "adds nodes" in result.output
    assert not (tmp_path / "p").exists()


def test_anonymize_kautomorphism_release_and_mapping(graphs, tmp_path):
    import polars as pl

    from privlab.graph.automorphism import automorphism_orbits
    from privlab.graph.core import read_graph

    rel, key = tmp_path / "rel.txt", tmp_path / "map.csv"
    out = _ok("anonymize", graphs[0], "-s", "kautomorphism", "--k", 4, "-o", rel, "--mapping",
              key, "--method", "degree", "--seed", 2)  # fmt: skip
    d = out["details"]
    release = read_graph(rel).graph
    assert d["table"] == "degree" and d["verified"]
    assert out["nodes"] == release.n_nodes == 36 == 34 + d["nodes_added"]  # 4·⌈34/4⌉
    assert out["edges_after"] == release.n_edges == 78 + d["edges_added"] <= 4 * 78
    assert automorphism_orbits(release).sizes.min() >= 4
    m = pl.read_csv(key)
    assert sorted(m["original"].drop_nulls().to_list()) == list(range(34))
    assert m["original"].null_count() == 2 and m["copy_of"].null_count() == 36  # noise


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "kautomorphism"], "needs --k"),
        (["-s", "kautomorphism", "--k", "0"], "k = 0"),
        (["-s", "kautomorphism", "--k", "2", "--method", "metis"], "choose one of"),
    ],
)
def test_anonymize_kautomorphism_bad_input(graphs, tmp_path, args, message):
    result = _run("anonymize", graphs[0], *args, "-o", tmp_path / "o.txt")
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "o.txt").exists()


def test_anonymize_kisomorphism_release_is_k_disjoint_isomorphic_subgraphs(graphs, tmp_path):
    import igraph as ig

    from privlab.graph.core import read_graph

    rel = tmp_path / "rel.txt"
    out = _ok("anonymize", graphs[0], "-s", "kisomorphism", "--k", 3, "-o", rel, "--seed", 4)
    d = out["details"]
    release = read_graph(rel).graph
    assert d["verified"] and out["nodes"] == release.n_nodes == 36
    assert release.n_edges == 78 - d["edges_removed"] + d["edges_added"] == 3 * d["block_edges"]
    # the file is relabelled: check the definition on its structure — the k disjoint
    # isomorphic subgraphs make every isomorphism type of component occur a multiple of 3 times
    h = ig.Graph(n=release.n_nodes, edges=release.edges().tolist())
    types: list[list] = []  # [representative component, count]
    for part in h.connected_components():
        comp = h.induced_subgraph(part)
        for t in types:
            if t[0].vcount() == comp.vcount() and t[0].isomorphic(comp):
                t[1] += 1
                break
        else:
            types.append([comp, 1])
    assert all(count % 3 == 0 for _, count in types)
    bad = _run("anonymize", graphs[0], "-s", "kisomorphism", "-o", tmp_path / "o.txt")
    assert bad.exit_code == 2 and "needs --k" in bad.output
