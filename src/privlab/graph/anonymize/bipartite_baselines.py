"""The baselines the safe grouping has to beat (seed 001 §2.3, dissertation §4.3, L4264–4451).

Zhang's Chapter 4 first tries the existing techniques on a bipartite association graph
(authors × papers) and shows that each destroys the graph:

* :func:`tabular_k_anonymize` — §4.3.1, Table 4.2(b): the joined table (left id, right id,
  left attribute, right attribute) k-anonymized.  Ids have no hierarchy, so they can only be
  withheld (``flat``); privlab's optimal full-domain k-anonymization (ARX semantics, record
  suppression up to ``suppression``) stands in for the seed's unnamed algorithm.  Since
  every row is a distinct (left, right) pair, no k ≥ 2 release can keep both ids of a row:
  ``associations_kept`` is 0 by construction, and the result says how much else survived.
* :func:`matrix_k_anonymize` — §4.3.2, Table 4.2(c): the 0/1 adjacency matrix with one row
  per left node, k-anonymized by cell suppression: rows are clustered into groups of ≥ k
  and a cell survives only where every row of its cluster agrees.  What survives is a few
  negative associations, and the edges of right nodes adjacent to a whole cluster.  The
  seed does not say how it clustered; the default here sorts rows by their neighbour lists
  and cuts runs of k (the remainder joins the last run), or ``clusters`` is given (the
  seed's Table 4.2(c) uses {a1, a3, a5}, {a2, a4, a6}).  Optimal cell suppression is
  NP-hard (Meyerson & Williams 2004), so this is a heuristic.
* :func:`edge_group_permutation` — §4.3.3, Fig. 4.2: edges are put into groups and within
  each group the right endpoints are randomly permuted ("break every edge in the middle and
  rejoin the half-edges"), which keeps every degree.  ``mode="global"``: one group of all
  edges; ``mode="pairs"``: right nodes sorted by ``right_order`` (the seed: conference,
  year, then author count; default: degree) and the edges of each consecutive pair of right
  nodes form a group.  The result is a multiset of edges (a pair may repeat).
* :func:`coauthor_pair_counts` — Fig. 4.2's measure: for every pair of left nodes sharing a
  right neighbour, the number of right nodes they share (co-written papers).

Complexity: tabular — the optimal search of :func:`privlab.table.anonymize.anonymize` on
four flat columns (16 lattice nodes); matrix — O(m log m + n_left log n_left); permutation —
O(m log m); co-author counts — O(Σ_w deg(w)²).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
import polars as pl

from privlab.dp.noise import secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.grouping import Bipartite
from privlab.validate import check_choice, check_int, check_number_in

PERMUTATION_MODES = ("global", "pairs")


# ------------------------------------------------------------------------------ permutation


@dataclass(frozen=True, eq=False)
class EdgePermutation:
    """Edges after edge-group permutation: ``edges`` (m × 2, a pair may repeat) and the
    edge group of each; every left and right degree is unchanged."""

    edges: np.ndarray
    groups: np.ndarray
    mode: str
    n_left: int
    n_right: int

    @property
    def repeated_pairs(self) -> int:
        """Edges that repeat an earlier (left, right) pair (not a simple graph any more)."""
        return int(self.edges.shape[0] - np.unique(self.edges, axis=0).shape[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "edges": int(self.edges.shape[0]),
            "edge_groups": int(self.groups.max()) + 1 if self.groups.size else 0,
            "repeated_pairs": self.repeated_pairs,
        }


def edge_group_permutation(
    graph: Bipartite, mode: str = "global", *, right_order: Any = None, seed: Any = None
) -> EdgePermutation:
    """Permute the right endpoints of the edges within edge groups (seed 001 §4.3.3).

    ``mode``: ``global`` (one group) or ``pairs`` (the edges of consecutive pairs of right
    nodes in ``right_order`` — a sort key per right node, default the degree, ties by id).
    O(m log m).  See the module docstring.
    """
    mode = check_choice(mode, "mode", PERMUTATION_MODES)
    rng = secure_generator(seed)
    e = graph.edges
    if mode == "global":
        groups = np.zeros(e.shape[0], dtype=np.int64)
    else:
        key = graph.degrees("right") if right_order is None else np.asarray(right_order)
        if key.shape != (graph.n_right,):
            raise InputError(f"right_order: one sort key per right node ({graph.n_right})")
        rank = np.empty(graph.n_right, dtype=np.int64)
        rank[np.lexsort((np.arange(graph.n_right), key))] = np.arange(graph.n_right)
        groups = rank[e[:, 1]] // 2
    # both orders list the edges group by group; the second shuffles within each group
    dest = np.argsort(groups, kind="stable")
    source = np.lexsort((rng.random(e.shape[0]), groups))
    out = e.copy()
    out[dest, 1] = e[source, 1]
    return EdgePermutation(out, groups, mode, graph.n_left, graph.n_right)


def coauthor_pair_counts(edges: Any) -> np.ndarray:
    """Per pair of left nodes sharing ≥ 1 right neighbour: how many they share, descending.

    Fig. 4.2's measure (co-written papers per co-author pair).  A left node listed twice on
    one right node (possible after permutation) counts once.  O(Σ_w deg(w)²).
    """
    e = np.unique(np.asarray(edges, dtype=np.int64).reshape(-1, 2), axis=0)
    by_right = e[np.lexsort((e[:, 0], e[:, 1]))]
    cuts = np.flatnonzero(np.r_[True, by_right[1:, 1] != by_right[:-1, 1], True])
    pairs: Counter[tuple[int, int]] = Counter()
    for a, b in pairwise(cuts.tolist()):
        left = by_right[a:b, 0].tolist()
        for x in range(len(left)):
            for y in range(x + 1, len(left)):
                pairs[(left[x], left[y])] += 1
    return np.sort(np.fromiter(pairs.values(), dtype=np.int64, count=len(pairs)))[::-1]


# ------------------------------------------------------------------------------ matrix


@dataclass(frozen=True, eq=False)
class MatrixAnonymization:
    """The k-anonymized adjacency matrix, stored sparsely.

    ``clusters``: cluster of each left node (every cluster ≥ k rows).  A cell (v, w) is
    published as 1 when every row of v's cluster has an edge to w, 0 when none has, and
    suppressed otherwise.
    """

    clusters: np.ndarray
    k: int
    n_right: int
    revealed_edges: int
    revealed_non_edges: int
    suppressed_cells: int
    edges: int

    def released(self, graph: Bipartite) -> np.ndarray:
        """The released matrix as strings '0' / '1' / '*' (dense: small graphs only)."""
        n_l = self.clusters.size
        if n_l * self.n_right > 10**7:
            raise ConfigError("released(): the dense matrix is above 10^7 cells")
        adj = np.zeros((n_l, self.n_right), dtype=np.int64)
        adj[graph.edges[:, 0], graph.edges[:, 1]] = 1
        out = np.full((n_l, self.n_right), "*", dtype=object)
        for c in np.unique(self.clusters):
            rows = np.flatnonzero(self.clusters == c)
            col = adj[rows].sum(axis=0)
            out[np.ix_(rows, np.flatnonzero(col == 0))] = "0"
            out[np.ix_(rows, np.flatnonzero(col == rows.size))] = "1"
        return out

    def to_dict(self) -> dict[str, Any]:
        cells = self.clusters.size * self.n_right
        return {
            "k": self.k,
            "clusters": int(self.clusters.max()) + 1 if self.clusters.size else 0,
            "edges": self.edges,
            "revealed_edges": self.revealed_edges,
            "revealed_edge_fraction": self.revealed_edges / self.edges if self.edges else 0.0,
            "revealed_non_edges": self.revealed_non_edges,
            "suppressed_cells": self.suppressed_cells,
            "suppressed_fraction": self.suppressed_cells / cells if cells else 0.0,
        }


def matrix_k_anonymize(graph: Bipartite, k: int, *, clusters: Any = None) -> MatrixAnonymization:
    """k-anonymize the 0/1 adjacency matrix by cell suppression (seed 001 §4.3.2).

    ``clusters``: a cluster id per left node (each ≥ k rows), or None for the default
    (rows sorted by neighbour list, runs of k).  O(m log m + n_left log n_left).
    """
    k = check_int(k, "k", 1)
    n_l = graph.n_left
    if n_l < k:
        raise ConfigError(f"k = {k} but the graph has only {n_l} left nodes; lower k")
    if clusters is None:
        nbrs = graph.neighbours("left")
        order = sorted(range(n_l), key=lambda v: (nbrs[v].tolist(), v))
        cl = np.empty(n_l, dtype=np.int64)
        cl[np.asarray(order, dtype=np.int64)] = np.minimum(np.arange(n_l) // k, n_l // k - 1)
    else:
        cl = np.asarray(clusters, dtype=np.int64)
        if cl.shape != (n_l,):
            raise InputError(f"clusters: one id per left node ({n_l}) expected")
        _, cl = np.unique(cl, return_inverse=True)
        if np.bincount(cl).min() < k:
            raise ConfigError(f"clusters: every cluster needs ≥ k = {k} rows")
    size = np.bincount(cl)
    pairs = np.stack([cl[graph.edges[:, 0]], graph.edges[:, 1]], axis=1)
    uniq, counts = np.unique(pairs, axis=0, return_counts=True)
    full = counts == size[uniq[:, 0]]
    revealed = int((counts * full).sum())
    touched = np.bincount(uniq[:, 0], minlength=size.size)  # columns touched per cluster
    non_edges = int(((graph.n_right - touched) * size).sum())
    suppressed = n_l * graph.n_right - revealed - non_edges
    return MatrixAnonymization(
        cl, k, graph.n_right, revealed, non_edges, int(suppressed), graph.n_edges
    )


# ------------------------------------------------------------------------------ tabular


@dataclass(frozen=True, eq=False)
class TabularAnonymization:
    """The k-anonymized joined table and what survived of the associations."""

    table: pl.DataFrame
    k: int
    rows: int
    suppressed_rows: int
    associations_kept: int
    left_ids_kept: int
    right_ids_kept: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "rows": self.rows,
            "suppressed_rows": self.suppressed_rows,
            "associations_kept": self.associations_kept,
            "left_ids_kept": self.left_ids_kept,
            "right_ids_kept": self.right_ids_kept,
        }


def tabular_k_anonymize(
    graph: Bipartite,
    k: int,
    *,
    left_attribute: Any = None,
    right_attribute: Any = None,
    suppression: float = 0.0,
) -> TabularAnonymization:
    """k-anonymize the joined association table (seed 001 §4.3.1, Table 4.2(b)).

    One row per edge: ``left``, ``right`` (ids), and the optional entity attributes (one
    value per left / right node, e.g. location and venue), all quasi-identifiers with flat
    hierarchies (ids can only be withheld).  Optimal full-domain k-anonymity (least Loss)
    with record suppression up to ``suppression``.  See the module docstring.
    """
    from privlab.table.anonymize import anonymize

    k = check_int(k, "k", 1)
    suppression = check_number_in(suppression, "suppression", 0.0, 1.0)
    e = graph.edges
    cols: dict[str, Any] = {"left": e[:, 0].astype(str), "right": e[:, 1].astype(str)}
    for name, attr, n in (
        ("left_attribute", left_attribute, graph.n_left),
        ("right_attribute", right_attribute, graph.n_right),
    ):
        if attr is None:
            continue
        a = np.asarray(attr)
        if a.shape != (n,):
            raise InputError(f"{name}: one value per node ({n}) expected")
        cols[name] = a[e[:, 0] if name.startswith("left") else e[:, 1]].astype(str)
    frame = pl.DataFrame(cols)
    release = anonymize(
        frame,
        quasi_identifiers=list(cols),
        hierarchies={c: "flat" for c in cols},
        k=k,
        suppression_limit=suppression,
    )
    out = release.data
    kept_l = out["left"] != "*"
    kept_r = out["right"] != "*"
    return TabularAnonymization(
        table=out,
        k=k,
        rows=frame.height,
        suppressed_rows=int(np.asarray(release.suppressed_rows).size),
        associations_kept=int((kept_l & kept_r).sum()),
        left_ids_kept=int(kept_l.sum()),
        right_ids_kept=int(kept_r.sum()),
    )


__all__ = [
    "PERMUTATION_MODES",
    "EdgePermutation",
    "MatrixAnonymization",
    "TabularAnonymization",
    "coauthor_pair_counts",
    "edge_group_permutation",
    "matrix_k_anonymize",
    "tabular_k_anonymize",
]
