"""Random-walk perturbation (Mittal, Papamanthou & Song, NDSS 2013).

Source: P. Mittal, C. Papamanthou and D. Song, "Preserving link privacy in social network
based systems", NDSS 2013 (§IV, Algorithm 1); named among the perturbation schemes of seed
004 §2.9 ("Mittal et al. random-walk rewiring", thesis Ch. 2) and of issue #16.

Each edge is rewired along the graph's own structure instead of uniformly (RAD): for every
node u and every neighbour v of u, a random walk of length t − 1 starts at v and ends at some
z; the release gets the edge (u, z).  The walk is redrawn (from v again) while z = u or (u, z)
is already in the release, at most ``max_tries`` times; a proposal that never finds a valid z
adds nothing.  Every node proposes deg(u) edges and, by the symmetry of the walk's
stationary distribution (∝ degree), receives about as many; so that its degree is kept in
expectation, u's first successful proposal is always added (no node with edges loses them
all) and each later one with probability (deg(u)/2 − 1)/(deg(u) − 1): u adds deg(u)/2 edges
in expectation, and receives about deg(u)/2.  The paper's Algorithm 1, step by step; nodes
are visited in id order and neighbours in increasing id order.

t = 1 is no perturbation: a walk of length 0 ends where it starts, every proposal is the
original edge itself, and the graph is returned unchanged (run literally, the acceptance rule
would thin it instead — the rule exists to correct for each edge being proposed from both
ends by *different* walks).  As t grows the walk forgets v: the release tends to a random
graph with the original degrees in expectation, and the fraction of original edges kept
falls (``edges_removed``, measured).  There is no ``fraction``: t is the strength.

SecGraph's ``RandWalk`` differs in three ways we do not follow: a retry continues the walk
from where the previous one ended (so the k-th try is a walk of length k(t − 1)); a proposal
that succeeds on its last allowed try is dropped (``loop <= M`` is tested after the
increment); and it runs the acceptance rule at t = 1 too.

Cost: the first walk of every proposal is drawn for all 2|E| proposals at once (O(|E|·t)
numpy steps), and so are the first :data:`PREDRAWN_REDRAWS` redraws of each; the sequential
pass (the duplicate test depends on earlier additions) and further redraws are O(|E| + r·t)
Python steps for r such redraws.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.dp.noise import secure_generator
from privlab.graph.anonymize.perturb import (
    Perturbation,
    _graph_from_ids,
    _pair_index,
    _result,
)
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_int

PREDRAWN_REDRAWS = 3  # redraws per proposal walked in the vectorized pass (more: one by one)
MAX_WALK_LENGTH = 1000  # longer walks are indistinguishable from t = ∞ on any real graph


def random_walk_perturbation(
    graph: Graph, walk_length: int, *, max_tries: int = 10, seed: Any = None
) -> Perturbation:
    """Mittal et al.'s perturbation with walks of length t − 1 (t = ``walk_length`` ≥ 1).

    Returns a :class:`~privlab.graph.anonymize.perturb.Perturbation` (scheme ``"RW"``) whose
    ``parameters`` hold t, ``max_tries``, ``proposals`` (2|E|), ``failed`` (proposals that
    found no valid endpoint in ``max_tries`` walks) and ``redraws``.  Same nodes and labels;
    |E'| ≈ |E| and every degree is kept in expectation, not exactly.  Every released edge
    (u, z) joins two nodes linked by a walk of length t in the original.  Cost: module
    docstring.
    """
    g = as_graph(graph, "random-walk perturbation (Mittal et al.)", undirected=True)
    t = check_int(walk_length, "walk_length", 1, hint="t = 1 leaves the graph unchanged")
    if t > MAX_WALK_LENGTH:
        from privlab.errors import ConfigError

        raise ConfigError(
            f"walk_length = {t!r}: give an integer ≤ {MAX_WALK_LENGTH} (a walk this long "
            "has long forgotten its start; the release would be the same random graph)"
        )
    tries = check_int(max_tries, "max_tries", 1, hint="how often a walk is redrawn")
    rng = secure_generator(seed)
    n, edges = g.n_nodes, g.edges()
    params: dict[str, Any] = {"walk_length": t, "max_tries": tries,
                              "proposals": 2 * edges.shape[0]}  # fmt: skip
    if t == 1 or edges.shape[0] == 0:
        out = _graph_from_ids(g, _pair_index(edges, n))
        return _result(g, out, "RW", {**params, "failed": 0, "redraws": 0}, 0, 0, seed)
    deg = g.degrees()
    rows = np.repeat(np.arange(n, dtype=np.int64), deg)  # arc u → v in CSR order
    ends = _walk(g, g.indices.copy(), t - 1, rng)
    spare_n = min(tries - 1, PREDRAWN_REDRAWS)  # redraws drawn for all proposals at once
    spare = np.stack([_walk(g, g.indices.copy(), t - 1, rng) for _ in range(spare_n)], axis=1)
    spare = spare.reshape(rows.size, spare_n).tolist()
    coins = rng.random(rows.size)
    keep_p = np.zeros(n)
    big = deg > 1
    keep_p[big] = (0.5 * deg[big] - 1.0) / (deg[big] - 1.0)
    released: set[int] = set()
    failed = redraws = 0
    first = np.ones(n, dtype=bool)  # u has had no successful proposal yet
    for arc, (u, v, z) in enumerate(zip(rows.tolist(), g.indices.tolist(), ends.tolist(),
                                        strict=True)):  # fmt: skip
        key = _key(u, z, n)
        tries_left = tries - 1
        while (z == u or key in released) and tries_left:
            used = tries - 1 - tries_left
            z = spare[arc][used] if used < spare_n else int(_walk(g, np.array([v]), t - 1, rng)[0])
            key = _key(u, z, n)
            tries_left -= 1
            redraws += 1
        if z == u or key in released:
            failed += 1
            continue
        if first[u] or coins[arc] < keep_p[u]:
            released.add(key)
        first[u] = False
    ids = np.fromiter(released, dtype=np.int64, count=len(released))
    out = _graph_from_ids(g, ids)
    keys0 = _pair_index(edges, n)
    kept = int(np.isin(keys0, ids).sum())
    params.update(failed=failed, redraws=redraws)
    return _result(g, out, "RW", params, keys0.size - kept, ids.size - kept, seed)


def _walk(g: Graph, start: np.ndarray, steps: int, rng: np.random.Generator) -> np.ndarray:
    """Ends of independent simple random walks of ``steps`` steps from each node of
    ``start`` (all of degree ≥ 1, hence so is every node they reach)."""
    z = start
    deg = g.degrees()
    for _ in range(steps):
        pick = (rng.random(z.size) * deg[z]).astype(np.int64)
        z = g.indices[g.indptr[z] + pick]
    return z


def _key(u: int, z: int, n: int) -> int:
    lo, hi = (u, z) if u < z else (z, u)
    return lo * (2 * n - lo - 1) // 2 + (hi - lo - 1)


__all__ = ["MAX_WALK_LENGTH", "random_walk_perturbation"]
