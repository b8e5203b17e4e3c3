"""benchmarks/bench_nka.py's inputs for the authors' Java code, checked without Java: the Pajek
files (vertex names = true identities), the Infomap-format .tree files (the communities privlab
finds), the clique file (exactly the seeds privlab gets) and the mapping reader."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from privlab.cli.graph_attack import read_pair_dir, write_pair_dir
from privlab.graph.attacks.nka import detect_communities
from privlab.graph.core import Graph
from privlab.graph.pairs import sample_pair

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench_nka():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module("bench_nka")
    finally:
        sys.path.remove(str(BENCHMARKS))


def _pajek(path: Path) -> tuple[dict[int, str], list[tuple[int, int]]]:
    lines = path.read_text().splitlines()
    n = int(lines[0].split()[1])
    names = {}
    for line in lines[1 : n + 1]:
        pid, name = line.split()
        names[int(pid)] = name.strip('"')
    assert lines[n + 1] == "*Edges"
    return names, [tuple(map(int, e.split())) for e in lines[n + 2 :]]


def test_inputs_describe_the_pair(tmp_path, bench_nka):
    g = nx.stochastic_block_model([25] * 3, [[0.4, 0.02, 0.02], [0.02, 0.4, 0.02],
                                             [0.02, 0.02, 0.4]], seed=4)  # fmt: skip
    graph = Graph.from_edges(75, np.array(list(g.edges())))
    pair = sample_pair(graph, 0.8, 0.8, seed=2)  # different node sets on the two sides
    write_pair_dir(pair, tmp_path / "pair", source=tmp_path / "g.txt", scheme_details=None,
                   force=False)  # fmt: skip
    folder = read_pair_dir(tmp_path / "pair")
    truth = folder.truth_array()
    files = bench_nka.write_inputs(tmp_path / "pair", tmp_path / "w", 2, seed=1, trials=2)
    n1 = folder.aux.n_nodes
    names1, edges1 = _pajek(Path(files["nka_base1"] + ".net"))
    names2, edges2 = _pajek(Path(files["nka_base2"] + ".net"))
    assert len(edges1) == folder.aux.n_edges and len(edges2) == folder.san.n_edges
    assert all(names1[v + 1] == str(v) for v in range(n1))
    # a san node's name is the aux id of its true counterpart, else |V1| + its id
    for a in np.flatnonzero(truth >= 0).tolist():
        assert names2[int(truth[a]) + 1] == str(a)
    assert len(set(names2.values())) == folder.san.n_nodes
    # the .tree file: the communities privlab's CLI finds with the same seed and trials
    tree = Path(files["nka_base1"] + ".tree").read_text().splitlines()[1:]
    memb = detect_communities(folder.aux, "infomap", seed=1, trials=2)
    assert [int(line.split(":")[0]) - 1 for line in tree] == memb.tolist()
    assert [line.split()[2].strip('"') for line in tree] == [str(v) for v in range(n1)]
    # the clique file: exactly the seeds privlab gets, 4 per clique
    cliques = [list(map(int, line.split(", "))) for line in
               Path(files["nka_cliques"]).read_text().splitlines()]  # fmt: skip
    seeds = np.loadtxt(files["nka_seeds_csv"], delimiter=",", skiprows=1, dtype=np.int64)
    assert sorted(v for c in cliques for v in c) == sorted(seeds[:, 0].tolist())
    assert files["nka_nseeds"] == str(4 * len(cliques)) == str(seeds.shape[0])
    # the mapping reader turns the harness's names back into san ids
    out = tmp_path / "sg.txt"
    a = int(seeds[0, 0])
    out.write_text(f"{a} {a}\n{out} 1/1 {n1} {folder.san.n_nodes}\n")
    names = [int(x) for x in (tmp_path / "w" / "names2.json").read_text()[1:-1].split(",")]
    assert bench_nka.read_java_mapping(out, names) == {a: int(truth[a])}
