"""The readers of benchmarks/bench_graph_attacks.py on hand-written SecGraph output.

The fixtures are written here in the formats SecGraph's ``UndirectionedPropagation``,
``UserMatching``, ``Percolation`` (pairs, then ``<out> r/size |G1| |G2|``), ``DV`` (a
``g2ToG1seeds :`` header, the seeds, then every pair as ``g2 g1``) and ``Graph.writeGraph``
(each edge in both directions) produce; SecGraph itself is not needed.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module("bench_graph_attacks")
    finally:
        sys.path.remove(str(BENCHMARKS))


NS_OUT = """\
3 3
7 7
12 9
/tmp/run dir/ns out.txt 2/3 15 15
"""

DV_OUT = (
    "g2ToG1seeds : \n"
    + """\
1 1
4 4
1 1
4 4
9 12
6 6
dv.txt 3/4 10 10
"""
)


def test_ns_output_pairs_and_summary(bench):
    got = bench.parse_secgraph_mapping(NS_OUT)
    assert got.pairs == {3: 3, 7: 7, 12: 9}
    # the output path has spaces: the summary is read from the right
    assert (got.reported_correct, got.reported_mapped) == (2, 3)
    assert (got.reported_n1, got.reported_n2) == (15, 15)
    # SecGraph's count (equal ids) is what the pairs give
    assert sum(a == b for a, b in got.pairs.items()) == got.reported_correct


def test_dv_output_is_g2_first_with_seeds_repeated(bench):
    got = bench.parse_secgraph_mapping(DV_OUT, g2_first=True)
    # the seeds appear twice and count once; "9 12" is G2 node 9 matched to G1 node 12
    assert got.pairs == {1: 1, 4: 4, 12: 9, 6: 6}
    assert (got.reported_correct, got.reported_mapped) == (3, 4)
    assert len(got.pairs) == got.reported_mapped


def test_file_without_summary_and_empty_file(bench):
    assert bench.parse_secgraph_mapping("5 6\n").reported_mapped is None
    empty = bench.parse_secgraph_mapping("")
    assert empty.pairs == {} and empty.reported_correct is None


@pytest.mark.parametrize(
    "text",
    [
        "1 2 3\n",  # three numbers, not a pair nor a summary
        "end node 4 4mapped\n",  # SecGraph's stdout, not its -gO file
        "1 2\n1 3\n",  # G1 node 1 matched twice
        "out x/3 4 4\n",  # summary with a non-number count
    ],
)
def test_malformed_lines_are_refused(bench, text):
    with pytest.raises(ValueError, match="line"):
        bench.parse_secgraph_mapping(text)


def test_read_edges_dedups_both_directions(bench, tmp_path):
    # Graph.writeGraph writes each edge twice; privlab writes # headers and lone ids
    f = tmp_path / "g.txt"
    f.write_text("# header\n0 1\n1 0\n2 1\n1 2\n5\n3 3\n")
    edges = bench.read_edges(f)
    assert edges == {(0, 1), (1, 2)}
    assert bench.degrees(edges) == {0: 1, 1: 2, 2: 1}


def test_attack_only_line(bench, tmp_path):
    f = tmp_path / "err"
    f.write_text("warning\nATTACK_ONLY wall_s=1.5 cpu_s=0.25 calls=1\n")
    assert bench.attack_only(f) == {"wall_s": 1.5, "cpu_s": 0.25, "calls": 1.0}
    f.write_text("ATTACK_ONLY unavailable: no module\n")
    assert bench.attack_only(f) == {}


def test_argv_templates_keep_paths_with_spaces_whole(bench):
    argv = bench.fmt("-gA {gA} -theta 0.1", {"gA": "/a dir/g A.txt"})
    assert argv == ["-gA", "/a dir/g A.txt", "-theta", "0.1"]
    # every row's templates name only placeholders the bench fills
    nka = ("nka_seeds_csv", "nka_base1", "nka_base2", "nka_cliques", "nka_dir", "nka_nseeds")
    files = {k: "x" for k in ("pair", "gA", "gB", "seeds_txt", "seeds_csv", "out", "gA_cen",
                              "gB_cen", *nka)}  # fmt: skip
    for row in bench.ATTACKS:
        for template in (row.privlab, row.secgraph, row.timer):
            bench.fmt(template, files)
    fill = {k: "x" for k in ("input", "out", "seed", "mapping")}
    for row in bench.SCHEMES:
        bench.fmt(row.privlab, fill)
        bench.fmt(row.secgraph, fill)


def test_rst_output_ends_with_its_count_line(bench):
    # RandomizedSpanningTree writes its aligned pairs g1 g2, then "number correct = N"
    m = bench.parse_secgraph_mapping("4 7\n5 5\nnumber correct = 1\n")
    assert m.pairs == {4: 7, 5: 5} and m.reported_correct == 1 and m.reported_mapped is None
