"""The two tests that make a group of a numeric attribute (k, e)-feasible (seed 001 §2.1).

A group is (k, e)-anonymous when it holds at least k distinct values whose range is at least
e (Def 2.4.2).  Shared by the dynamic programs (:mod:`.partition_dp`), the baselines
(:mod:`.partition_baselines`) and the public API (:mod:`.partition`):

* :func:`_e_eff` — the threshold the range is actually compared with: ties within
  :data:`privlab.table.models.TIE_TOLERANCE` pass, as for :class:`KEAnonymity`.  O(1).
* :func:`_dense_ranks` — dense ranks of sorted values, so that the distinct count of a run
  x[j..i] is r[i] − r[j] + 1.  O(n).
"""

from __future__ import annotations

import numpy as np

from privlab.table.models import TIE_TOLERANCE


def _e_eff(e: float) -> float:
    """The threshold actually compared: ties within TIE_TOLERANCE pass (models.at_least)."""
    return e - TIE_TOLERANCE * max(1.0, abs(e))


def _dense_ranks(x: np.ndarray) -> np.ndarray:
    r = np.zeros(x.size, dtype=np.int64)
    np.cumsum(x[1:] != x[:-1], out=r[1:])
    return r
