"""Degree bands of 3PSL: total degree and the level of each node.

Source: seed 004 §2.11 (thesis §5.3.3, L1441–1459): pair (u, v) is in band P1 when both
degrees exceed t1, P2 when both exceed t2 (and not P1), P3 when both exceed t3; a node's
*level* (3, 2, 1, 0) is how many thresholds its degree exceeds, so the band of a pair is
4 − min(levels).  Degree of a node in a directed graph: in-degree + out-degree.  O(n).
"""

from __future__ import annotations

import numpy as np

from privlab.graph.core import Graph


def _total_degree(g: Graph) -> np.ndarray:
    d = g.degrees().astype(np.int64)
    return d + g.in_degrees() if g.directed else d


def _levels(deg: np.ndarray, th: tuple[int, int, int]) -> np.ndarray:
    """3 if deg > t1, 2 if > t2, 1 if > t3, else 0."""
    return ((deg > th[0]).astype(np.int8) + (deg > th[1]) + (deg > th[2])).astype(np.int8)
