"""What the seed-based matching attacks share: checked inputs, the scored result.

The attacks (:mod:`~privlab.graph.attacks.reconciliation` — Korula–Lattanzi,
:mod:`~privlab.graph.attacks.distance_vector` — SecGraph's DV,
:mod:`~privlab.graph.attacks.percolation` — Yartseva–Grossglauser) all take two undirected
graphs, seed pairs (G1 node, G2 node) and an optional ground truth, and return a
one-to-one partial mapping of G1 into G2.  They are scored exactly as
:class:`~privlab.graph.attacks.propagation.PropagationResult` is: ``mapped``/``correct``
count the seeds too (SecGraph's "r/size" line), ``accuracy`` = correct / mapped,
``coverage`` = correct / number of true pairs (seed 004 §2.12).  The checks on seeds and
truth (:func:`seed_pairs`, :func:`truth_array`) are shared with propagation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.graph.core import Graph, as_graph


class MappingScores:
    """The figures of a partial mapping G1 → G2 (``mapping``, −1 for none) found from
    ``seeds``, given ``correct`` and ``n_true`` (None without a truth); shared by
    :class:`MatchingResult` and :class:`~privlab.graph.attacks.propagation.PropagationResult`."""

    mapping: np.ndarray
    seeds: np.ndarray
    correct: int | None
    n_true: int | None

    @property
    def mapped(self) -> int:
        return int((self.mapping >= 0).sum())

    @property
    def new_mapped(self) -> int:
        return self.mapped - int(self.seeds.shape[0])

    @property
    def accuracy(self) -> float | None:
        if self.correct is None:
            return None
        return self.correct / self.mapped if self.mapped else 0.0

    @property
    def coverage(self) -> float | None:
        if self.correct is None or not self.n_true:
            return None
        return self.correct / self.n_true

    def pairs(self) -> np.ndarray:
        """(mapped × 2) int64 array of (G1 node, G2 node), by G1 node."""
        left = np.flatnonzero(self.mapping >= 0)
        return np.stack([left, self.mapping[left]], axis=1)


@dataclass(frozen=True)
class MatchingResult(MappingScores):
    """A seed-based attack's mapping and how good it is.

    ``mapping[l]`` is the G2 node matched to G1 node l, or −1.  ``parameters`` are the
    attack's settings as given; ``rounds`` its own count of steps (documented per attack).
    ``correct``, ``new_correct`` (seeds excluded), ``accuracy`` and ``coverage`` are None
    without a ground truth.
    """

    mapping: np.ndarray
    seeds: np.ndarray
    method: str
    rounds: int
    seconds: float
    parameters: dict[str, Any] = field(default_factory=dict)
    correct: int | None = None
    new_correct: int | None = None
    n_true: int | None = None

    @property
    def wrong(self) -> int | None:
        return None if self.correct is None else self.mapped - self.correct

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            **self.parameters,
            "seeds": int(self.seeds.shape[0]),
            "mapped": self.mapped,
            "correct": self.correct,
            "wrong": self.wrong,
            "new_mapped": self.new_mapped,
            "new_correct": self.new_correct,
            "true_pairs": self.n_true,
            "accuracy": self.accuracy,
            "coverage": self.coverage,
            "rounds": self.rounds,
            "seconds": self.seconds,
        }


def score_mapping(
    mapping: np.ndarray, seeds: np.ndarray, truth: np.ndarray | None
) -> tuple[int | None, int | None, int | None]:
    """(correct, correct excluding seeds, number of true pairs); Nones without a truth."""
    if truth is None:
        return None, None, None
    hit = (mapping >= 0) & (mapping == truth)
    is_seed = np.zeros(mapping.size, dtype=bool)
    is_seed[seeds[:, 0]] = True
    return int(hit.sum()), int((hit & ~is_seed).sum()), int((truth >= 0).sum())


def prepare(
    g1: Any, g2: Any, seeds: Any, truth: Any, what: str
) -> tuple[Graph, Graph, np.ndarray, np.ndarray | None]:
    """Both graphs (undirected), the (k × 2) seed pairs and the truth array (or None)."""
    g1 = as_graph(g1, f"{what} (g1)", undirected=True)
    g2 = as_graph(g2, f"{what} (g2)", undirected=True)
    s = seed_pairs(seeds, g1.n_nodes, g2.n_nodes)
    tr = None if truth is None else truth_array(truth, g1.n_nodes, g2.n_nodes)
    return g1, g2, s, tr


def result(
    mapping: np.ndarray,
    seeds: np.ndarray,
    truth: np.ndarray | None,
    *,
    method: str,
    rounds: int,
    seconds: float,
    parameters: dict[str, Any],
) -> MatchingResult:
    correct, new_correct, n_true = score_mapping(mapping, seeds, truth)
    return MatchingResult(
        mapping, seeds, method, rounds, seconds, parameters, correct, new_correct, n_true
    )


def seed_pairs(seeds: Any, n1: int, n2: int) -> np.ndarray:
    """The (k × 2) int64 seed pairs (G1 node, G2 node), checked: integers, known nodes, no
    node in two pairs.  ``seeds``: an array, a list of pairs or a dict.  O(k log k)."""
    if isinstance(seeds, dict):
        seeds = list(seeds.items())
    try:
        raw = np.asarray(seeds)
        s = raw.astype(np.int64)
    except (TypeError, ValueError):
        raise InputError("seeds: give (G1 node, G2 node) pairs as integers") from None
    if raw.dtype.kind not in "iu" and (raw.dtype.kind != "f" or not np.array_equal(s, raw)):
        raise InputError("seeds: give (G1 node, G2 node) pairs as integers")
    if s.size == 0:
        raise InputError("seeds: none given; the attack needs at least one seed pair")
    if s.ndim != 2 or s.shape[1] != 2:
        raise InputError(f"seeds: shape {s.shape}; give a (k × 2) array of (G1, G2) pairs")
    for col, n, name in ((0, n1, "G1"), (1, n2, "G2")):
        bad = np.flatnonzero((s[:, col] < 0) | (s[:, col] >= n))
        if bad.size:
            i = int(bad[0])
            raise InputError(
                f"seed {i} = {tuple(s[i].tolist())} names node {s[i, col]}, unknown in "
                f"{name} (nodes 0..{n - 1})"
            )
        uniq, counts = np.unique(s[:, col], return_counts=True)
        if (counts > 1).any():
            v = int(uniq[counts > 1][0])
            raise InputError(f"seeds: {name} node {v} appears in more than one seed pair")
    return s


def truth_array(truth: Any, n1: int, n2: int | None) -> np.ndarray:
    """The true G2 node of every G1 node (−1: none) from an array, (k × 2) pairs or an
    object with ``truth_array()``; checked against the node counts.  O(n1 + k)."""
    if hasattr(truth, "truth_array"):
        t = np.asarray(truth.truth_array(), dtype=np.int64)
    else:
        t = np.asarray(truth, dtype=np.int64)
        if t.ndim == 2 and t.shape[1] == 2:
            pairs = t
            t = np.full(max(n1, int(pairs[:, 0].max(initial=-1)) + 1), -1, dtype=np.int64)
            t[pairs[:, 0]] = pairs[:, 1]
    if t.ndim != 1 or t.size < n1:
        raise InputError(
            f"truth: give a length-{n1} array (−1 for no counterpart) or (k × 2) true pairs"
        )
    if n2 is not None and t.size and t.max() >= n2:
        raise InputError(f"truth names node {int(t.max())}, unknown in G2 (nodes 0..{n2 - 1})")
    return t[:n1]


def initial_maps(n1: int, n2: int, seeds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """map12 (G1 → G2, −1 free) and map21 holding the seeds."""
    map12 = np.full(n1, -1, dtype=np.int64)
    map21 = np.full(n2, -1, dtype=np.int64)
    map12[seeds[:, 0]] = seeds[:, 1]
    map21[seeds[:, 1]] = seeds[:, 0]
    return map12, map21


def by_degree(g: Graph, free: np.ndarray, key: np.ndarray | None = None) -> np.ndarray:
    """The nodes where ``free`` is True, by decreasing degree, ties by lower id; with
    ``key`` (one number per node of ``g``), equal degrees by decreasing key first, then
    by lower id.  O(n log n)."""
    nodes = np.flatnonzero(free)
    if key is None:
        return nodes[np.lexsort((nodes, -g.degrees()[nodes]))]
    return nodes[np.lexsort((nodes, -np.asarray(key)[nodes], -g.degrees()[nodes]))]


__all__ = [
    "MappingScores",
    "MatchingResult",
    "by_degree",
    "initial_maps",
    "prepare",
    "result",
    "score_mapping",
    "seed_pairs",
    "truth_array",
]
