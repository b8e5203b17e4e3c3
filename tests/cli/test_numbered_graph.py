"""Reading a pair folder's edge list as the graph whose node v is the id v: the CSR arrays
carried over from the reader equal the graph built from the renamed edges, with gaps in the
ids and the extra nodes pair.json counts."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.cli.graph_attack import _numbered_graph
from privlab.graph.core import Graph


@settings(max_examples=60, deadline=None)
@given(
    pairs=st.sets(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=60),
    extra=st.integers(0, 5),
)
def test_numbered_graph_equals_the_graph_of_the_renamed_edges(tmp_path_factory, pairs, extra):
    edges = sorted({(min(a, b), max(a, b)) for a, b in pairs if a != b})
    if not edges:
        return
    path = tmp_path_factory.mktemp("pair") / "aux.txt"
    rng = np.random.default_rng(len(edges))
    order = rng.permutation(len(edges))  # lines in any order, ids with gaps
    path.write_text("".join(f"{edges[i][0]} {edges[i][1]}\n" for i in order))
    n = max(max(e) for e in edges) + 1 + extra
    got = _numbered_graph(path, n)
    want = Graph.from_edges(n, np.array(edges))
    np.testing.assert_array_equal(got.indptr, want.indptr)
    np.testing.assert_array_equal(got.indices, want.indices)
    assert got.labels is None and not got.directed and got.indices.dtype == np.int64
    assert got.n_edges == len(edges)
