"""Mappings and ground truth of 3PSL as arrays: pairs ↔ an array over the aux nodes.

Source: seed 004 §2.11–2.12 (thesis §5.3.3 L1441–1459, §5.4.1 L1519): a mapping M is
one-to-one from aux to san nodes; it is given as (k × 2) pairs or as an array over the aux
nodes (san node or −1), the truth also as a :class:`~privlab.graph.pairs.GraphPair`.
Each conversion checks bounds and one-to-one-ness: O(n + k log k).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.errors import InputError


def _pairs_of(mapping: np.ndarray) -> np.ndarray:
    left = np.flatnonzero(mapping >= 0)
    return np.stack([left, mapping[left]], axis=1)


def _mapping_pairs(mapping: Any, n_aux: int, n_san: int) -> tuple[np.ndarray, np.ndarray]:
    m = np.asarray(mapping, dtype=np.int64)
    if m.ndim == 2 and m.shape[1] == 2:
        mu, mv = m[:, 0], m[:, 1]
    elif m.ndim == 1 and m.size == n_aux:
        mu = np.flatnonzero(m >= 0)
        mv = m[mu]
    else:
        raise InputError(
            f"mapping has shape {m.shape}: give (k × 2) pairs or an array over the {n_aux} "
            "aux nodes (−1 = unmapped)"
        )
    if mu.size and (mu.min() < 0 or mu.max() >= n_aux or mv.min() < 0 or mv.max() >= n_san):
        raise InputError("mapping names a node outside its graph")
    if np.unique(mu).size != mu.size or np.unique(mv).size != mv.size:
        raise InputError("mapping is not one-to-one: a node appears twice")
    return mu, mv


def _truth_array(truth: Any, n_aux: int, n_san: int) -> np.ndarray:
    if hasattr(truth, "truth_array"):
        t = np.asarray(truth.truth_array(), dtype=np.int64)
    else:
        t = np.asarray(truth, dtype=np.int64)
        if t.ndim == 2 and t.shape[1] == 2:
            mu, mv = _mapping_pairs(t, n_aux, n_san)
            t = np.full(n_aux, -1, dtype=np.int64)
            t[mu] = mv
    if t.shape != (n_aux,):
        raise InputError(
            f"truth has shape {t.shape}: give a GraphPair, an array over the {n_aux} aux "
            "nodes (true san node or −1) or (k × 2) true pairs"
        )
    known = t[t >= 0]
    if known.size and (known.max() >= n_san or np.unique(known).size != known.size):
        raise InputError("truth names a san node outside the graph or one san node twice")
    return t
