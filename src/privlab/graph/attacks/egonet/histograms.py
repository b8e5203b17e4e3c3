"""Per-node neighbour-degree histograms inside released egonets (the learned linker's features).

Source: seed 004 (Sharad, Cambridge TR-896), Chapter 3 — §2.7 (thesis §3.3.3, L622–633), with
the Chapter 3 egonet setting n = 70 bins of width b = 15.  The user guide is
docs/graph/egonet-linkage.md.

Complexity: :func:`egonet_node_histograms` O(Σ degrees of the requested nodes + k_i per
egonet touched).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.graph.attacks.egonet._helpers import _gather_rows
from privlab.graph.attacks.egonet.release import EgonetRelease
from privlab.graph.attacks.learned.features import degree_bins
from privlab.validate import check_int


def egonet_node_histograms(
    release: EgonetRelease,
    ego_idx: Any,
    node_idx: Any,
    n_bins: int = 70,
    bin_width: int = 15,
) -> tuple[np.ndarray, np.ndarray]:
    """1-hop neighbour-degree histograms inside the egonet, and the node's own degree.

    Seed 004 §2.7 (thesis §3.3.3, L622–633) with the Chapter 3 egonet setting n = 70,
    b = 15: c_i counts the neighbours whose degree d (inside the released egonet) satisfies
    i·b < d ≤ (i+1)·b; degrees above n·b go into the last bin.  Returns ``(hist, degree)``:
    an (len × n_bins) int32 array and the (len,) int32 degree of each node inside its
    egonet.  Vectorized per egonet; O(Σ degrees of the nodes + k_i per egonet touched).
    """
    n_bins = check_int(n_bins, "n_bins", 1, "the number of histogram bins, seed: 70")
    bin_width = check_int(bin_width, "bin_width", 1, "the bin width, seed: 15")
    eg = np.asarray(ego_idx, dtype=np.int64).reshape(-1)
    nd = np.asarray(node_idx, dtype=np.int64).reshape(-1)
    if eg.shape != nd.shape:
        raise InputError(f"ego_idx has {eg.size} entries but node_idx has {nd.size}")
    hist = np.zeros((eg.size, n_bins), dtype=np.int32)
    degree = np.zeros(eg.size, dtype=np.int32)
    if eg.size == 0:
        return hist, degree
    if eg.min() < 0 or eg.max() >= release.n_egonets:
        raise InputError(f"ego_idx must lie in 0..{release.n_egonets - 1} (egonet indices)")
    sizes = release.sizes()
    if np.any(nd < 0) or np.any(nd >= sizes[eg]):
        bad = int(np.flatnonzero((nd < 0) | (nd >= sizes[eg]))[0])
        raise InputError(
            f"node_idx[{bad}] = {nd[bad]} is not a node of egonet {eg[bad]} "
            f"({sizes[eg[bad]]} nodes)"
        )
    order = np.argsort(eg, kind="stable")
    es = eg[order]
    starts = np.flatnonzero(np.r_[True, es[1:] != es[:-1]])
    for s, e in zip(starts, np.r_[starts[1:], es.size], strict=True):
        rows = order[s:e]
        g = release.graphs[int(es[s])]
        deg = g.degrees()
        v = nd[rows]
        nb, owner = _gather_rows(g.indptr, g.indices, v, with_position=True)
        b = degree_bins(deg[nb], n_bins, bin_width)  # the learned features' binning
        flat = np.bincount(owner * n_bins + b, minlength=v.size * n_bins)
        hist[rows] = flat.reshape(v.size, n_bins)
        degree[rows] = deg[v]
    return hist, degree


__all__ = ["egonet_node_histograms"]
