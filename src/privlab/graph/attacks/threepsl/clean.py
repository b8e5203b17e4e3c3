"""*Clean*, the greedy 1-to-1 matching of scored pairs that every 3PSL round ends with.

Source: seed 004 §2.11 (thesis §5.3.3, L1449): sort by score, descending, and accept a
pair when neither of its nodes is used yet.  O(p log p) time, O(p + max u + max v) memory.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.errors import InputError


def clean_pairs(u: Any, v: Any, key: Any, secondary: Any = None) -> np.ndarray:
    """Greedy 1-to-1 cleaning of scored pairs (seed 004 §2.11, thesis L1449).

    Pairs (u[i], v[i]) are visited by ``key`` descending, then ``secondary`` descending
    (if given), then u ascending, then v ascending; a pair is accepted when neither u nor v
    has been accepted before.  Returns the indices of the accepted pairs, in the order
    they were accepted.  Two stable sorts and one pass over the sorted pairs:
    O(p log p) time, O(p + max u + max v) memory (10⁶ pairs take well under a second).
    """
    uu = np.asarray(u, dtype=np.int64).ravel()
    vv = np.asarray(v, dtype=np.int64).ravel()
    kk = np.asarray(key, dtype=np.float64).ravel()
    if not (uu.size == vv.size == kk.size):
        raise InputError(f"clean_pairs: u, v and key have sizes {uu.size}, {vv.size}, {kk.size}")
    if uu.size == 0:
        return np.empty(0, dtype=np.int64)
    if uu.min() < 0 or vv.min() < 0:
        raise InputError("clean_pairs: node ids must be ≥ 0")
    if np.isnan(kk).any():
        raise InputError("clean_pairs: key contains NaN")
    ss = None
    if secondary is not None:
        ss = np.asarray(secondary, dtype=np.float64).ravel()
        if ss.size != uu.size or np.isnan(ss).any():
            raise InputError("clean_pairs: secondary must match u and be free of NaN")
    nu, nv = int(uu.max()) + 1, int(vv.max()) + 1
    order = np.argsort(-kk)
    if (np.diff(kk[order]) == 0).any():  # ties: the full lexicographic order
        # least significant key first, each later sort stable
        order = np.argsort(uu * nv + vv, kind="stable")
        if ss is not None:
            order = order[np.argsort(-ss[order], kind="stable")]
        order = order[np.argsort(-kk[order], kind="stable")]
    cap = min(np.count_nonzero(np.bincount(uu)), np.count_nonzero(np.bincount(vv)))
    used_u = bytearray(nu)
    used_v = bytearray(nv)
    accepted: list[int] = []
    step = 1 << 16
    for lo in range(0, order.size, step):
        blk = order[lo : lo + step]
        for i, a, b in zip(blk.tolist(), uu[blk].tolist(), vv[blk].tolist(), strict=True):
            if used_u[a] or used_v[b]:
                continue
            used_u[a] = 1
            used_v[b] = 1
            accepted.append(i)
        if len(accepted) == cap:
            break
    return np.asarray(accepted, dtype=np.int64)
