"""CS, the cosine similarity of mapped neighbourhoods, and the sparse filter F of 3PSL.

Source: seed 004 §2.11 (thesis §5.3.3, L1451): CS(u, v | M) = |X ∩ Y| / √(|X|·|Y|), X the
images under M of u's mapped neighbours, Y the neighbours of v (directed graphs: CS over
successors + CS over predecessors).  A pair with CS > θ ≥ 0 has a common mapped
neighbour, so the filter reads F off the non-zeros of the sparse product A_aux·Π·A_sanᵀ
(Π the mapping as an aux × san 0/1 matrix), in row blocks of at most ``_CHUNK_WORK``
multiply-adds.  A round costs O(Σ_u Σ_{u' ~ u mapped} deg(map u')); memory O(|F| + n + m).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from scipy import sparse

from privlab.errors import InputError
from privlab.graph.attacks.threepsl._checks import _check_choice, _check_graphs
from privlab.graph.attacks.threepsl._mappings import _mapping_pairs
from privlab.graph.core import Graph

_CHUNK_WORK = 1 << 22  # multiply-adds per block of the sparse CS product


class _Cosine:
    """Sparse cosine similarities of mapped neighbourhoods (seed 004 §2.11, L1451)."""

    def __init__(self, aux: Graph, san: Graph, denominator: str):
        a = aux.to_scipy().astype(np.int32)
        s = san.to_scipy().astype(np.int32)
        self.n_aux, self.n_san = aux.n_nodes, san.n_nodes
        self.denominator = denominator
        self.dirs = [(a, s)]
        if aux.directed:
            self.dirs.append((a.T.tocsr(), s.T.tocsr()))
        self.degs = [(np.diff(x.indptr), np.diff(y.indptr)) for x, y in self.dirs]

    def candidates(
        self,
        mu: np.ndarray,
        mv: np.ndarray,
        rows: np.ndarray,
        cols: np.ndarray,
        theta: float,
        *,
        skip_rows: np.ndarray | None = None,
        skip_cols: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Pairs (u ∈ rows, v ∈ cols) with CS(u, v | mu→mv) > θ, and their CS.

        ``skip_rows``/``skip_cols`` (boolean over aux/san nodes): pairs with both flags set
        are left out (the earlier bands).  Rows are processed in blocks of bounded work.
        """
        empty = (np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.float64))
        if mu.size == 0 or rows.size == 0 or cols.size == 0:
            return empty
        p = sparse.csr_array(
            (np.ones(mu.size, dtype=np.int32), (mu, mv)), shape=(self.n_aux, self.n_san)
        )
        mapped_aux = np.zeros(self.n_aux, dtype=np.int32)
        mapped_aux[mu] = 1
        image = np.zeros(self.n_san, dtype=np.int32)
        image[mv] = 1
        # only rows with a mapped neighbour (in some direction) can have CS > 0
        active = np.zeros(rows.size, dtype=bool)
        for a, _ in self.dirs:
            active |= (a[rows] @ mapped_aux) > 0
        rows = rows[active]
        if rows.size == 0:
            return empty
        per_dir = []
        work = np.zeros(rows.size, dtype=np.int64)
        for (a, s), (da, ds) in zip(self.dirs, self.degs, strict=True):
            r = (a[rows] @ p).tocsr()  # row u: images of u's mapped neighbours
            b = s[cols]  # row v: neighbours of v
            bt = b.T.tocsr()  # san node y → the cols it is a neighbour of
            if self.denominator == "mapped":
                x = np.diff(r.indptr).astype(np.float64)
                y = (b @ image).astype(np.float64)
            else:
                x = da[rows].astype(np.float64)
                y = ds[cols].astype(np.float64)
            work += r @ np.diff(bt.indptr).astype(np.int64)
            per_dir.append((r, bt, x, y))
        bounds = _blocks(work, _CHUNK_WORK)
        out_u, out_v, out_c = [], [], []
        for lo, hi in itertools.pairwise(bounds.tolist()):
            rr, cc, vals = [], [], []
            for r, bt, x, y in per_dir:
                c = (r[lo:hi] @ bt).tocoo()
                if c.nnz == 0:
                    continue
                i = c.row.astype(np.int64)
                j = c.col.astype(np.int64)
                rr.append(i)
                cc.append(j)
                vals.append(c.data / np.sqrt(x[lo + i] * y[j]))
            if not rr:
                continue
            i = np.concatenate(rr)
            j = np.concatenate(cc)
            val = np.concatenate(vals)
            if len(rr) > 1:  # directed: CS(successors) + CS(predecessors)
                m = sparse.coo_array((val, (i, j)), shape=(hi - lo, cols.size)).tocsr()
                m.sum_duplicates()
                m = m.tocoo()
                i, j, val = m.row.astype(np.int64), m.col.astype(np.int64), m.data
            gu, gv = rows[lo + i], cols[j]
            keep = val > theta
            if skip_rows is not None:
                keep &= ~(skip_rows[gu] & skip_cols[gv])
            out_u.append(gu[keep])
            out_v.append(gv[keep])
            out_c.append(val[keep])
        if not out_u:
            return empty
        return np.concatenate(out_u), np.concatenate(out_v), np.concatenate(out_c)


def _blocks(work: np.ndarray, budget: int) -> np.ndarray:
    """Row boundaries 0 = b0 < b1 < … < n with each block's work ≤ budget (or one row)."""
    n = work.size
    cum = np.cumsum(work)
    bounds = [0]
    while bounds[-1] < n:
        lo = bounds[-1]
        base = cum[lo - 1] if lo else 0
        hi = int(np.searchsorted(cum, base + budget, side="right"))
        bounds.append(max(hi, lo + 1))
    return np.asarray(bounds, dtype=np.int64)


def cosine_similarity(
    aux: Graph,
    san: Graph,
    mapping: Any,
    u: Any,
    v: Any,
    *,
    cs_denominator: str = "mapped",
) -> np.ndarray:
    """CS(u[i], v[i] | M) for given pairs, M given as (k × 2) pairs or an aux → san array.

    X = images under M of u's mapped neighbours, Y = neighbours of v; |X ∩ Y| / √(|X|·|Y|)
    with |X|, |Y| counting mapped neighbours only (``"mapped"``: Y = neighbours of v that
    are images in M) or all neighbours (``"all"``).  Directed graphs: the sum over
    successors and predecessors.  0 where a set is empty.  Seed 004 §2.11 (L1451).
    O(nnz of the sparse product A_aux·Π·A_sanᵀ over the rows asked).
    """
    aux, san = _check_graphs(aux, san)
    den = _check_choice(cs_denominator, "cs_denominator", ("mapped", "all"))
    mu, mv = _mapping_pairs(mapping, aux.n_nodes, san.n_nodes)
    uu = np.asarray(u, dtype=np.int64).ravel()
    vv = np.asarray(v, dtype=np.int64).ravel()
    if uu.size != vv.size:
        raise InputError(f"u and v have sizes {uu.size} and {vv.size}")
    if uu.size and (uu.min() < 0 or uu.max() >= aux.n_nodes or vv.min() < 0
                    or vv.max() >= san.n_nodes):  # fmt: skip
        raise InputError("u or v names a node outside its graph")
    cs = _Cosine(aux, san, den)
    rows = np.unique(uu)
    cols = np.unique(vv)
    cu, cv, cc = cs.candidates(mu, mv, rows, cols, -1.0)
    key = cu * san.n_nodes + cv
    order = np.argsort(key)
    key, cc = key[order], cc[order]
    q = uu * san.n_nodes + vv
    pos = np.searchsorted(key, q)
    pos_c = np.minimum(pos, max(key.size - 1, 0))
    hit = (pos < key.size) & (key[pos_c] == q) if key.size else np.zeros(q.size, bool)
    out = np.zeros(q.size, dtype=np.float64)
    out[hit] = cc[pos_c[hit]]
    return out
