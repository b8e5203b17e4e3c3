"""Narayanan–Shmatikov seed identification by clique matching (NS09).

Seed 000 (the privacy thesis), §10.3.1 "Individual auxiliary information" (summary
seed-000 §2.12, option A): the attacker knows a k-clique of people present in both graphs,
each one's degree and, for each pair, their number of common neighbours.  The sanitized
graph is searched for the *unique* k-clique whose degrees and common-neighbour counts
match these values; its nodes are the seeds.  As in NS09, a value x matches a known value
a when it lies within the tolerance factor 1 ± ε: |x − a| ≤ ε·a.

:func:`pick_clique` plays the attacker's individual knowledge: a greedy clique of
high-degree aux nodes (optionally restricted to people who are in both graphs and whose
clique edges exist in both, the premise of §10.3.1).  :func:`clique_seeds` does the
search: ordered backtracking over the clique positions, every candidate of position i a
common neighbour of the nodes already chosen (so a clique), with a matching degree and
matching common-neighbour counts to them.  It stops at the second match (the answer is
then "ambiguous") or after ``max_steps`` candidate tests ("budget").  Cost: at most
``max_steps`` tests of O(d_max) each (a set intersection), plus O(n + m) to build the
neighbour sets.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_int, check_number_in

#: The outcomes of a search: one match (the seeds), none, more than one, or out of budget.
STATUSES = ("unique", "none", "ambiguous", "budget")


@dataclass(frozen=True)
class CliqueSeeds:
    """The outcome of a clique search.

    ``targets``: the k aux nodes of the known clique; ``pairs`` (k × 2: aux node, san
    node): the seeds if ``status == "unique"``, else an empty (0 × 2) array.
    ``matches``: matches found (0, 1, or 2 = stopped at the second); ``steps``: candidate
    tests made.
    """

    targets: np.ndarray
    pairs: np.ndarray
    status: str
    matches: int
    steps: int
    tolerance: float
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "clique": int(self.targets.size),
            "status": self.status,
            "matches": self.matches,
            "steps": self.steps,
            "tolerance": self.tolerance,
            "seconds": self.seconds,
        }


def pick_clique(aux: Graph, k: int, *, san: Graph | None = None, truth: Any = None) -> np.ndarray:
    """The attacker's known clique: k aux nodes, greedily from the highest degree down.

    Start at the highest-degree eligible node; repeatedly add the highest-degree eligible
    neighbour adjacent to every node chosen (ties by lower id); if that dead-ends before k,
    restart from the next eligible node.  With ``san`` and ``truth`` (length-|V_aux| array
    of the san counterpart, −1 for none), a node is eligible only if it has a counterpart
    and every clique edge also exists between the counterparts in san — the thesis's
    "a clique of k nodes which are present in both".  InputError if there is no such
    clique among the starts tried.  O(n log n + Σ over starts of k·d_max).
    """
    aux = as_graph(aux, "aux")
    k = check_int(k, "k", 2, "a clique needs at least 2 nodes")
    deg = aux.degrees()
    t = None
    if truth is not None:
        t = np.asarray(truth, dtype=np.int64)
    eligible = np.ones(aux.n_nodes, dtype=bool) if t is None else t >= 0
    order = np.lexsort((np.arange(aux.n_nodes), -deg))
    order = order[eligible[order] & (deg[order] >= k - 1)]

    def both(u: int, v: int) -> bool:
        return san is None or t is None or san.has_edge(int(t[u]), int(t[v]))

    for start in order[:1000].tolist():
        chosen = [start]
        cand = aux.neighbors(start)
        cand = cand[eligible[cand] & (deg[cand] >= k - 1)]
        cand = cand[np.lexsort((cand, -deg[cand]))].tolist()
        for c in cand:
            if all(aux.has_edge(c, x) and both(c, x) for x in chosen):
                chosen.append(c)
                if len(chosen) == k:
                    return np.asarray(chosen, dtype=np.int64)
    raise InputError(
        f"k = {k}: found no {k}-clique among the high-degree aux nodes"
        + (" present in both graphs" if t is not None else "")
        + "; ask for a smaller clique"
    )


def clique_seeds(
    aux: Graph,
    san: Graph,
    k: int = 5,
    tolerance: float = 0.1,
    *,
    targets: Any = None,
    truth: Any = None,
    max_steps: int = 2_000_000,
) -> CliqueSeeds:
    """Seeds from the unique san k-clique matching a known aux clique (NS09, seed 000 §10.3.1).

    ``targets``: the k aux nodes of the known clique (they must form a clique in aux);
    default :func:`pick_clique` (with ``truth``, restricted to a clique present in both).
    What the attacker knows: deg_aux(t_i) and cn_aux(t_i, t_j) = |N(t_i) ∩ N(t_j)|.  A san
    k-clique (x_1 … x_k) matches if |deg_san(x_i) − deg_aux(t_i)| ≤ ε·deg_aux(t_i) and
    |cn_san(x_i, x_j) − cn_aux(t_i, t_j)| ≤ ε·cn_aux(t_i, t_j) for all i, j (ε =
    ``tolerance`` in [0, 1]).  Only a unique match gives seeds (status "unique"); "none",
    "ambiguous" (a second match was found) and "budget" (``max_steps`` candidate tests
    spent) give an empty ``pairs``.  The positions are searched in the given order, so
    put distinctive (high-degree) nodes first, as :func:`pick_clique` does.
    Cost: see the module docstring.
    """
    t0 = time.perf_counter()
    aux, san = as_graph(aux, "aux"), as_graph(san, "san")
    if aux.directed or san.directed:
        raise InputError("clique seeds need undirected graphs; symmetrize them first")
    eps = check_number_in(tolerance, "tolerance", 0.0, 1.0, hint="the relative slack ε")
    budget = check_int(max_steps, "max_steps", 1)
    if targets is None:
        tg = pick_clique(aux, k, san=san if truth is not None else None, truth=truth)
    else:
        tg = _check_targets(aux, targets)
    k = tg.size
    da = aux.degrees()[tg]
    nb_aux = [set(aux.neighbors(int(v)).tolist()) for v in tg]
    cn_aux = [[len(nb_aux[i] & nb_aux[j]) for j in range(k)] for i in range(k)]
    deg_s = san.degrees()
    nb_cache: dict[int, set[int]] = {}

    def nb(v: int) -> set[int]:
        s = nb_cache.get(v)
        if s is None:
            s = nb_cache[v] = set(san.neighbors(v).tolist())
        return s

    def ok(x: int, a: int) -> bool:
        return abs(x - a) <= eps * a

    first = np.flatnonzero(np.abs(deg_s - da[0]) <= eps * da[0]).tolist()
    found: list[list[int]] = []
    steps = 0
    stack: list[tuple[list[int], list[int]]] = [([], first)]
    status = "none"
    while stack:
        chosen, cands = stack.pop()
        i = len(chosen)
        for x in cands:
            steps += 1
            if steps > budget:
                status = "budget"
                stack.clear()
                break
            if x in chosen or not ok(int(deg_s[x]), int(da[i])):
                continue
            nx_ = nb(x)
            if not all(ok(len(nx_ & nb(y)), cn_aux[i][j]) for j, y in enumerate(chosen)):
                continue
            path = [*chosen, x]
            if i + 1 == k:
                found.append(path)
                if len(found) == 2:
                    stack.clear()
                    break
                continue
            common = set(nx_)
            for y in chosen:
                common &= nb(y)
            stack.append((path, sorted(common)))
        if status == "budget" or len(found) == 2:
            break
    if status != "budget":
        status = {0: "none", 1: "unique"}.get(len(found), "ambiguous")
    pairs = np.empty((0, 2), dtype=np.int64)
    if status == "unique":
        pairs = np.stack([tg, np.asarray(found[0], dtype=np.int64)], axis=1)
    return CliqueSeeds(
        tg, pairs, status, len(found), min(steps, budget), eps, time.perf_counter() - t0
    )


def _check_targets(aux: Graph, targets: Any) -> np.ndarray:
    try:
        tg = np.asarray(targets, dtype=np.int64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise InputError(f"targets = {targets!r}: give a list of aux node ids") from exc
    if tg.size < 2 or np.unique(tg).size != tg.size:
        raise InputError(f"targets = {targets!r}: give at least 2 distinct aux nodes")
    if tg.min() < 0 or tg.max() >= aux.n_nodes:
        raise InputError(f"targets = {targets!r}: aux has nodes 0…{aux.n_nodes - 1}")
    for a in range(tg.size):
        for b in range(a + 1, tg.size):
            if not aux.has_edge(int(tg[a]), int(tg[b])):
                raise InputError(
                    f"targets = {targets!r}: {tg[a]} and {tg[b]} are not adjacent in aux; "
                    "the known nodes must form a clique"
                )
    return tg


__all__ = ["STATUSES", "CliqueSeeds", "clique_seeds", "pick_clique"]
