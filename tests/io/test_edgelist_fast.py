"""The edge-list reader's fast path reads exactly what the line-by-line reader reads.

``privlab.io.edgelist._parse_fast`` handles the common shape (comments first, then lines of
two ids) without a Python loop; anything else falls back to ``_parse``.  When the fast path
answers, every field must equal the line-by-line answer, and its int64 ids must be what
``integer_ids`` makes of the same tokens (then the strings themselves are not built) —
otherwise a graph read from a clean file would differ from the same graph read from a file
with one odd line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.io.edgelist import (
    _parse,
    _parse_fast,
    integer_ids,
    loops_and_duplicates,
    pair_keys,
    read_edges,
)

ID = st.one_of(
    st.integers(0, 10**6).map(str),
    st.integers(-50, 50).map(str),
    st.sampled_from(
        ["007", "0", "+3", "1e3", "a", "node_1", "x" * 5, "9" * 19, "12345678901234567"]
    ),
)
SPACE = st.sampled_from([" ", "\t", "  ", " \t "])
EDGE = st.tuples(ID, SPACE, ID).map("".join)
ODD = st.sampled_from(["", "   ", "# note", "% note", "5", "1 2 0.5", "3,4", "1\t2\t7"])
HEADER = st.lists(st.sampled_from(["# Nodes: 9 Edges: 3", "# a comment, with a comma", "", "% x"]))


def _same(text: str) -> None:
    lines = text.splitlines()
    fast = _parse_fast(lines, text)
    if fast is None:
        return
    slow = _parse(Path("x"), lines, any(c in text for c in ",;"))
    assert list(fast.edge_at) == slow.edge_at
    assert fast.singles == slow.singles == [] and fast.extra_at == slow.extra_at == []
    assert fast.declared == slow.declared
    if fast.ints is None:
        assert fast.sources == slow.sources and fast.targets == slow.targets
    else:  # the ids as numbers only (the strings are not built)
        assert fast.sources == fast.targets == []
        expected = integer_ids(np.array(slow.sources + slow.targets, dtype=str))
        assert expected is not None and np.array_equal(fast.ints, expected)


@settings(max_examples=300, deadline=None)
@given(
    HEADER, st.lists(EDGE, min_size=1, max_size=30), st.sampled_from(["\n", "\r\n"]), st.booleans()
)
def test_clean_files_read_the_same_both_ways(header, edges, end, final_newline):
    text = end.join(header + edges) + (end if final_newline else "")
    lines = text.splitlines()
    if all(x in ("",) or x.startswith(("#", "%")) for x in header):
        _same(text)
        assert _parse_fast(lines, text) is not None  # this shape is the fast path's


@settings(max_examples=300, deadline=None)
@given(HEADER, st.lists(st.one_of(EDGE, ODD), min_size=1, max_size=30))
def test_any_file_reads_the_same_or_falls_back(header, body):
    _same("\n".join(header + body) + "\n")


def test_an_odd_line_anywhere_falls_back():
    for odd in ["5", "1 2 3", "", "# late comment", "1,2", "\x0c"]:
        text = f"0 1\n{odd}\n2 3\n"
        assert _parse_fast(text.splitlines(), text) is None, odd


def test_leading_zeros_and_long_ids_are_not_fast_integers(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("007 1\n1 2\n")
    assert list(read_edges(f).labels) == ["007", "1", "2"]  # text ids, sorted as text
    f.write_text(f"{'9' * 18} 1\n1 2\n")
    assert read_edges(f).labels.dtype.kind == "i"
    f.write_text(f"{'9' * 19} 1\n1 2\n")
    assert read_edges(f).labels.dtype.kind != "i"  # over int64: text, as before


def test_the_header_node_count_still_adds_isolated_nodes(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("# Nodes: 5 Edges: 1\n0\t1\n")
    g = read_edges(f)
    assert list(g.labels) == [0, 1, 2, 3, 4] and g.report.nodes_from_header == 3


def _repeats_by_loop(e: np.ndarray, directed: bool) -> tuple[list[int], list[int]]:
    seen: set[tuple[int, int]] = set()
    loops, repeats = [], []
    for i, (u, v) in enumerate(e.tolist()):
        key = (u, v) if directed else (min(u, v), max(u, v))
        if u == v:
            loops.append(i)
        elif key in seen:
            repeats.append(i)
        seen.add(key)
    return loops, repeats


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=40),
    st.booleans(),
    st.sampled_from([0, 4_000_000_000]),
)
def test_loops_and_repeats_are_found_as_by_a_plain_loop(pairs, directed, offset):
    """The one-integer keys find the same loops and repeats as comparing the pairs, also
    for ids so large that u·n + v would overflow (then the keys are ranks)."""
    e = np.array(pairs, dtype=np.int64).reshape(-1, 2) + offset
    loops, repeats = loops_and_duplicates(e, directed)
    assert (loops.tolist(), repeats.tolist()) == _repeats_by_loop(e, directed)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=30), st.booleans())
def test_pair_keys_order_the_pairs(pairs, huge):
    e = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    n = 4_000_000_000 if huge else 6
    keys = pair_keys(e[:, 0], e[:, 1], n)
    for i in range(len(pairs)):
        for j in range(len(pairs)):
            assert (keys[i] < keys[j]) == (pairs[i] < pairs[j])
