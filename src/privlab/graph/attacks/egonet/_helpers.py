"""Shared helpers of the egonet package: CSR row gathering and lookups, key grouping, the
type aliases of the attacker's options, and the parameter checks.

Source: seed 004 (Sharad, Cambridge TR-896), Chapter 3 (see the package docstring); these are
implementation helpers with no counterpart in the seed.  Complexity: :func:`_gather_rows`
O(Σ row lengths); :func:`_closed_adjacency` O(n + m); :func:`_csr_lookup` O(nnz + q log nnz)
for q lookups; :func:`_groups` O(q log q).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from scipy import sparse

from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph

_ROW_CHUNK = 512

EgoPolicy = Literal["all", "any"]
DegreeScope = Literal["local", "egonet"]


def _gather_rows(indptr, indices, rows, *, with_position: bool = False):
    """Concatenated CSR rows ``rows``: (neighbours, owner), owner = the row's node id or,
    with ``with_position``, its position in ``rows``.  O(Σ row lengths)."""
    rows = np.asarray(rows, dtype=np.int64)
    starts = indptr[rows]
    lens = indptr[rows + 1] - starts
    total = int(lens.sum())
    shift = np.repeat(starts - (np.cumsum(lens) - lens), lens)
    nb = indices[shift + np.arange(total)]
    owner = np.repeat(np.arange(rows.size) if with_position else rows, lens)
    return nb, owner


def _closed_adjacency(graph: Graph):
    n = graph.n_nodes
    data = np.ones(graph.indices.size, dtype=np.int32)
    a = sparse.csr_array((data, graph.indices, graph.indptr), shape=(n, n))
    return (a + sparse.identity(n, dtype=np.int32, format="csr")).tocsr()


def _csr_lookup(m, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """m[rows[t], cols[t]] for a CSR matrix with sorted indices (0 where absent)."""
    out = np.zeros(rows.size, dtype=np.int64)
    if rows.size == 0:
        return out
    # key search inside each row: global position = indptr[row] + searchsorted in the row
    keys = rows.astype(np.int64) * (m.shape[1] + 1) + cols
    rr = np.repeat(np.arange(m.shape[0], dtype=np.int64), np.diff(m.indptr))
    all_keys = rr * (m.shape[1] + 1) + m.indices
    pos = np.searchsorted(all_keys, keys)
    pos_c = np.minimum(pos, max(all_keys.size - 1, 0))
    hit = (pos < all_keys.size) & (all_keys[pos_c] == keys)
    out[hit] = m.data[pos_c[hit]]
    return out


def _groups(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort order, group starts and group sizes of ``keys``."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    if k.size == 0:
        return order, np.zeros(0, np.int64), np.zeros(0, np.int64)
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    sizes = np.diff(np.r_[starts, k.size])
    return order, starts, sizes


def _check_nodes(g: Graph, nodes: Any) -> np.ndarray:
    v = np.asarray(nodes, dtype=np.int64).reshape(-1)
    if v.size and (v.min() < 0 or v.max() >= g.n_nodes):
        raise InputError(f"nodes must lie in 0..{g.n_nodes - 1}")
    return v


def _check_scope(scope: Any) -> DegreeScope:
    if scope not in ("local", "egonet"):
        raise ConfigError(f"degree_scope = {scope!r}: give 'local' (invariant) or 'egonet'")
    return scope


def _check_policy(policy: Any) -> EgoPolicy:
    if policy not in ("all", "any"):
        raise ConfigError(
            f"ego_policy = {policy!r}: give 'all' (nodes adjacent to every ego candidate) or "
            "'any' (adjacent to some candidate)"
        )
    return policy


def _check_scheme(scheme: Any) -> int:
    if isinstance(scheme, bool) or scheme not in (1, 2):
        raise ConfigError(
            f"scheme = {scheme!r}: give 1 (D4D Scheme 1, all edges kept) or 2 (edges between "
            "2-hop nodes deleted)"
        )
    return int(scheme)
