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
