"""``privlab graph attack nka``: --ns-rule reaches the attack, given community files give the
result of the same communities detected, and bad community files are refused (exit 2)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from privlab.graph.core import Graph, write_graph
from tests.cli.test_graph_attack_cli import _ok, _run


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nka")
    source = folder / "planted.txt"
    sbm = nx.stochastic_block_model([40] * 4, (np.full((4, 4), 0.01) + np.eye(4) * 0.29).tolist(),
                                    seed=2)  # fmt: skip
    write_graph(Graph.from_networkx(sbm), source)
    out = folder / "pair"
    _ok("pair", source, "--secgraph", "--p", 0.85, "--seed", 3, "-o", out)
    return out


def test_ns_rule_and_given_communities(pair, tmp_path):
    from privlab.cli.graph_attack import read_pair_dir
    from privlab.graph.attacks.nka import detect_communities

    base = ["attack", "nka", pair, "--seed-cliques", 2, "--communities", "louvain", "--seed", 1]
    default = _ok(*base)
    authors = _ok(*base, "--ns-rule", "authors")
    assert default["ns_rule"] == "secgraph" and authors["ns_rule"] == "authors"
    assert default["seeding"]["seeds"] == authors["seeding"]["seeds"] == 8
    # the same Louvain partitions, written to files, give the same attack
    folder = read_pair_dir(pair)
    files = []
    for g, name in ((folder.aux, "aux.comm"), (folder.san, "san.comm")):
        memb = detect_communities(g, "louvain", seed=1)
        path = tmp_path / name
        path.write_text("# node community\n" + "".join(f"{v},{c}\n" for v, c in enumerate(memb)))
        files.append(path)
    given = _ok(*base, "--aux-communities", files[0], "--san-communities", files[1])
    assert given["method"] == "given"
    for key in ("mapped", "correct", "communities_mapped", "before_global"):
        assert given[key] == default[key], key


def test_bad_community_files(pair, tmp_path):
    bad = tmp_path / "bad.comm"
    bad.write_text("0 1\n0 2\n")
    out = tmp_path / "m.csv"
    for extra, said in (
        (["--aux-communities", bad], "go together"),
        (["--aux-communities", bad, "--san-communities", bad], "listed twice"),
    ):
        r = _run("attack", "nka", pair, "--seeds", 4, *extra, "-o", out)
        assert r.exit_code == 2 and said in r.output, r.output
        assert not out.exists()
