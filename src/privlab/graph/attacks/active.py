"""The walk-based active attack on naively anonymized graphs (Backstrom, Dwork & Kleinberg).

Sources: seed 000 §2.10 (thesis Ch. 8, L5068–6250) after Backstrom, Dwork & Kleinberg,
"Wherefore art thou R3579X? Anonymized social networks, hidden patterns, and structural
steganography" (WWW 2007) [BDK07]; docs/graph/active-attack.md.

Before the release, the attacker creates k accounts ("sybils") X = {x_1..x_k} and edges
(:func:`plant_sybils`, §8.5.2):

1. k = ⌈(2+δ)·log₂ n⌉ sybils; each x_i gets an external degree Δ_i drawn uniformly from
   [d0, d1] (chosen to blend in — by default the inter-quartile range of the graph's
   degrees).
2. Every target w_j gets a *distinct* subset N_j ⊆ X (here of size ≥ 2, load-balanced, with
   x_i in at most Δ_i subsets) and an edge to each sybil of N_j.
3. Each x_i gets Δ_i − (its target edges) further edges to random non-target nodes, such
   that no node other than w_j is joined to exactly N_j (a node that would be is rewired:
   one of its sybil edges moves to a node without sybil neighbours).
4. Internal edges: the path x_i — x_{i+1}, and every other pair with probability ½.  The
   full degree of x_i is Δ'_i = Δ_i + its internal degree.

After the naive release (a random relabelling, :mod:`privlab.graph.anonymize.naive`),
:func:`recover` grows the search tree T of §8.5.3: the root's children are the nodes of
degree Δ'_1; a tree node at depth ℓ, standing for the path f(α_1)..f(α_ℓ), gets a child for
every neighbour v of f(α_ℓ) off the path with deg(v) = Δ'_{ℓ+1} and
(f(α_i), v) ∈ E ⇔ (x_i, x_{ℓ+1}) ∈ E' for all i ≤ ℓ.  A unique root-to-leaf path of length
k locates H = G[X] and labels x_1..x_k; target w_j is then the unique node outside X whose
neighbours in X are exactly N_j.

Errata and choices (seed 000 §2.10): the thesis's step 3 writes "exactly d_i edges" for Δ_i;
its step 3 of the search says α_0 corresponds to x_0 although α_0 is the dummy root (the
path α_1..α_k labels x_1..x_k); the path in T must be simple — the internal test alone does
not exclude revisiting a node that should be non-adjacent, so candidates on the path are
rejected explicitly; logarithms are base 2 (Theorem 8.1 needs n ≤ 2^{k/(2+δ)}).  Subsets of
size 1 are not used, so the rewiring of step 3 always terminates (a node with a single
sybil neighbour can never look like a target).

Complexity: planting O(m log m + kΔ); the search is level by level and vectorized — each
level gathers the neighbours of the frontier's last nodes (CSR), keeps those of the right
degree and tests the ≤ k internal edges by binary search in the sorted edge keys, so a level
costs O(Σ_frontier deg · k · log m); |T| = O(n^{1+ε}) w.h.p. (Theorem 8.4) and in practice
close to the number of nodes of degree Δ'_1.  ``max_tree`` bounds it (status
``"tree_limit"``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.dp.noise import secure_generator
from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.graph.anonymize.naive import naive_anonymize
from privlab.graph.core import Graph, as_graph

DEFAULT_DELTA = 0.5
DEFAULT_MAX_TREE = 500_000


# ============================================================================ results
@dataclass(frozen=True)
class SybilSecret:
    """What the attacker keeps: the sybils, their internal structure and degrees, the targets.

    ``sybils[i]`` is x_{i+1}'s id in the planted graph (before the release); ``internal`` is
    the k × k adjacency of H; ``external`` the Δ_i and ``degrees`` the full degrees Δ'_i;
    ``subsets[j]`` the sybil indices (0-based) of N_j, joined to ``targets[j]``.
    """

    n_original: int
    sybils: np.ndarray
    internal: np.ndarray
    external: np.ndarray
    degrees: np.ndarray
    targets: np.ndarray
    subsets: tuple[tuple[int, ...], ...]
    delta: float | None
    d0: int
    d1: int

    @property
    def k(self) -> int:
        return int(self.sybils.size)

    def internal_edges(self) -> np.ndarray:
        """H's edges as (i, j) sybil-index pairs, i < j."""
        i, j = np.nonzero(np.triu(self.internal, 1))
        return np.stack([i, j], axis=1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "delta": self.delta,
            "d0": self.d0,
            "d1": self.d1,
            "n_original": self.n_original,
            "sybils": self.sybils.tolist(),
            "internal_edges": self.internal_edges().tolist(),
            "external_degrees": self.external.tolist(),
            "degrees": self.degrees.tolist(),
            "targets": self.targets.tolist(),
            "subsets": [list(s) for s in self.subsets],
        }


@dataclass(frozen=True)
class Planted:
    """The graph with the sybils added (nodes n..n+k−1) and the attacker's secret.

    Unpacks as ``graph, secret = plant_sybils(...)``.
    """

    graph: Graph
    secret: SybilSecret

    def __iter__(self) -> Iterator[Any]:
        return iter((self.graph, self.secret))


@dataclass(frozen=True)
class Recovery:
    """The outcome of the search for H in a released graph.

    ``status``: ``"unique"`` (one path of length k: H located), ``"ambiguous"`` (several),
    ``"not_found"`` (none) or ``"tree_limit"`` (the search tree outgrew ``max_tree``).
    ``sybils``: released ids of x_1..x_k (empty unless unique).  ``targets[j]``: released id
    of target j or −1; ``target_status[j]``: ``"found"``, ``"ambiguous"`` (several nodes
    joined to exactly N_j), ``"missing"`` or ``"no_h"`` (H not located).
    ``tree_size``: nodes of T below the root; ``level_sizes``: per depth.
    """

    status: str
    sybils: np.ndarray
    n_matches: int
    tree_size: int
    level_sizes: list[int]
    targets: np.ndarray
    target_status: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "sybils": self.sybils.tolist(),
            "n_matches": self.n_matches,
            "tree_size": self.tree_size,
            "root_children": self.level_sizes[0] if self.level_sizes else 0,
            "level_sizes": list(self.level_sizes),
            "targets": self.targets.tolist(),
            "targets_found": sum(s == "found" for s in self.target_status),
        }


@dataclass(frozen=True)
class ActiveAttackResult:
    """One run of plant → naive release → recover, scored against the truth.

    ``success_rate`` = targets re-identified correctly / targets; ``sybils_exact``: the
    recovered x_1..x_k are exactly the planted sybils, in order.
    """

    n_nodes: int
    k: int
    n_targets: int
    status: str
    sybils_exact: bool
    targets_found: int
    targets_correct: int
    tree_size: int
    root_children: int
    secret: SybilSecret = field(repr=False)
    recovery: Recovery = field(repr=False)

    @property
    def success_rate(self) -> float:
        return self.targets_correct / self.n_targets if self.n_targets else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_nodes": self.n_nodes,
            "k": self.k,
            "n_targets": self.n_targets,
            "status": self.status,
            "sybils_exact": self.sybils_exact,
            "targets_found": self.targets_found,
            "targets_correct": self.targets_correct,
            "success_rate": self.success_rate,
            "tree_size": self.tree_size,
            "root_children": self.root_children,
        }


@dataclass(frozen=True)
class KSweepRow:
    """Success of the attack at one k, over ``trials`` independent runs."""

    k: int
    trials: int
    n_targets: int
    success_rate: float
    unique_rate: float
    sybils_exact_rate: float
    mean_tree_size: float
    max_tree_size: int
    statuses: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "k": self.k,
            "trials": self.trials,
            "n_targets": self.n_targets,
            "success_rate": self.success_rate,
            "unique_rate": self.unique_rate,
            "sybils_exact_rate": self.sybils_exact_rate,
            "mean_tree_size": self.mean_tree_size,
            "max_tree_size": self.max_tree_size,
            "statuses": dict(self.statuses),
        }


# ============================================================================ parameters
def default_k(n: int, delta: float = DEFAULT_DELTA) -> int:
    """k = ⌈(2+δ)·log₂ n⌉, the number of sybils of Theorem 8.1 (at least 2)."""
    if not (isinstance(delta, int | float) and math.isfinite(delta) and delta > 0):
        raise ConfigError(f"delta = {delta!r}: give a number > 0 (k = (2+delta)·log2 n)")
    if n < 2:
        raise InputError(f"the graph has {n} node(s); the attack needs a larger graph")
    return max(2, math.ceil((2 + delta) * math.log2(n)))


def max_targets(k: int) -> int:
    """How many targets k sybils can tell apart: distinct subsets of size ≥ 2, 2^k − k − 1."""
    return (1 << k) - k - 1 if k >= 2 else 0


def _degree_range(graph: Graph, d0: int | None, d1: int | None) -> tuple[int, int]:
    deg = graph.degrees()
    if d0 is None:
        d0 = max(1, int(np.percentile(deg, 25))) if deg.size else 1
    if d1 is None:
        d1 = max(int(d0), int(np.percentile(deg, 75))) if deg.size else int(d0)
    for name, v in (("d0", d0), ("d1", d1)):
        if int(v) != v or v < 1:
            raise ConfigError(f"{name} = {v!r}: give an external sybil degree ≥ 1")
    if d0 > d1:
        raise ConfigError(f"d0 = {d0} > d1 = {d1}: the external degrees are drawn from [d0, d1]")
    return int(d0), int(d1)


# ============================================================================ planting
def plant_sybils(
    graph: Graph,
    targets: Sequence[int] | np.ndarray,
    *,
    k: int | None = None,
    delta: float = DEFAULT_DELTA,
    d0: int | None = None,
    d1: int | None = None,
    seed: Any = None,
) -> Planted:
    """Add the attacker's sybils X and edges to ``graph`` before its release (§8.5.2).

    ``targets``: node ids of ``graph`` to re-identify later.  ``k`` defaults to
    ⌈(2+δ)·log₂ n⌉; the external degrees Δ_i are uniform in [d0, d1] (default: the lower
    and upper quartile of the degrees, so the sybils blend in).  The sybils become nodes
    n..n+k−1 of the returned graph (labels are dropped: the release strips them anyway).
    Raises InputError for unknown or repeated targets or a directed graph, ConfigError for a
    bad k / δ / [d0, d1], InfeasibleError when the graph is too small (k ≥ n, more targets
    than 2^k − k − 1 subsets, Δ_i too small to reach the targets, too few nodes to attach
    the external edges).  O(m log m + k·d1).
    """
    graph = as_graph(graph, "the walk-based active attack", undirected=True)
    n = graph.n_nodes
    rng = secure_generator(seed)
    tg = np.asarray(targets)
    if tg.ndim != 1 or (tg.size and not np.issubdtype(tg.dtype, np.integer)):
        raise InputError("targets: give a list of integer node ids")
    tg = tg.astype(np.int64)
    if tg.size and (tg.min() < 0 or tg.max() >= n):
        bad = int(tg[(tg < 0) | (tg >= n)][0])
        raise InputError(f"targets: node {bad} is not in the graph (nodes are 0..{n - 1})")
    if np.unique(tg).size != tg.size:
        raise InputError("targets: a node is listed twice; give each target once")
    if k is None:
        k = default_k(n, delta)
        used_delta: float | None = float(delta)
    else:
        used_delta = None
    if int(k) != k or k < 2:
        raise ConfigError(f"k = {k!r}: give at least 2 sybils")
    k = int(k)
    if k >= n:
        raise InfeasibleError(
            f"k = {k} sybils for a graph of {n} nodes: the graph is too small for this attack "
            "(k must be < n; the attack is meant for k ≈ (2+δ)·log2 n ≪ n)"
        )
    if tg.size > max_targets(k):
        raise InfeasibleError(
            f"{tg.size} targets, but {k} sybils give only 2^k − k − 1 = {max_targets(k)} "
            "distinct sybil subsets of size ≥ 2; add sybils (k) or pick fewer targets"
        )
    d0, d1 = _degree_range(graph, d0, d1)
    external = rng.integers(d0, d1 + 1, size=k)

    subsets = _choose_subsets(k, tg.size, external, rng)
    load = np.zeros(k, dtype=np.int64)
    for s in subsets:
        load[list(s)] += 1
    non_targets = np.setdiff1d(np.arange(n), tg)
    extra = external - load
    if extra.max(initial=0) > non_targets.size:
        raise InfeasibleError(
            f"a sybil needs {int(extra.max())} edges to non-target nodes but the graph has only "
            f"{non_targets.size}; lower d1 (now {d1}) or use a larger graph"
        )
    attach = _attach_external(k, extra, non_targets, subsets, rng)

    # internal edges: the path, then every other pair with probability 1/2
    internal = np.zeros((k, k), dtype=bool)
    idx = np.arange(k - 1)
    internal[idx, idx + 1] = True
    iu, ju = np.triu_indices(k, 2)
    coin = rng.random(iu.size) < 0.5
    internal[iu[coin], ju[coin]] = True
    internal |= internal.T

    sybils = np.arange(n, n + k, dtype=np.int64)
    e_int = np.stack(np.nonzero(np.triu(internal, 1)), axis=1) + n
    e_tgt = [(int(w), n + i) for w, s in zip(tg.tolist(), subsets, strict=True) for i in s]
    e_ext = [(v, n + i) for i, nodes in enumerate(attach) for v in nodes]
    edges = np.concatenate(
        [
            graph.edges(),
            e_int.reshape(-1, 2),
            np.asarray(e_tgt, dtype=np.int64).reshape(-1, 2),
            np.asarray(e_ext, dtype=np.int64).reshape(-1, 2),
        ]
    )
    planted = Graph.from_edges(n + k, edges)
    degrees = external + internal.sum(axis=1)
    secret = SybilSecret(
        n, sybils, internal, external.astype(np.int64), degrees.astype(np.int64), tg,
        tuple(subsets), used_delta, d0, d1,
    )  # fmt: skip
    return Planted(planted, secret)


def _choose_subsets(
    k: int, b: int, capacity: np.ndarray, rng: np.random.Generator
) -> list[tuple[int, ...]]:
    """b distinct subsets of {0..k−1} of size ≥ 2, smallest sizes first, x_i in ≤ Δ_i."""
    chosen: list[tuple[int, ...]] = []
    load = np.zeros(k, dtype=np.int64)
    seen: set[tuple[int, ...]] = set()
    for size in range(2, k + 1):
        if len(chosen) == b:
            break
        total = math.comb(k, size)
        if total <= 50_000:
            cands = list(itertools.combinations(range(k), size))
            order = rng.permutation(len(cands))
            pool: Iterator[tuple[int, ...]] = (cands[i] for i in order)
        else:
            pool = (
                tuple(sorted(rng.choice(k, size, replace=False).tolist())) for _ in range(50_000)
            )
        for s in pool:
            if s in seen:
                continue
            members = list(s)
            if np.any(load[members] >= capacity[members]):
                continue
            seen.add(s)
            chosen.append(s)
            load[members] += 1
            if len(chosen) == b:
                break
        if (load < capacity).sum() < size + 1:
            break
    if len(chosen) < b:
        raise InfeasibleError(
            f"cannot give {b} targets distinct sybil subsets with each sybil x_i in at most "
            f"Δ_i subsets (Σ Δ_i = {int(capacity.sum())}); raise d0/d1 or k, or pick fewer targets"
        )
    return chosen


def _attach_external(
    k: int,
    extra: np.ndarray,
    non_targets: np.ndarray,
    subsets: list[tuple[int, ...]],
    rng: np.random.Generator,
) -> list[set[int]]:
    """Each sybil's external non-target neighbours; no node joined to exactly some N_j."""
    attach = [set(rng.choice(non_targets, int(extra[i]), replace=False).tolist()) for i in range(k)]
    forbidden = set(subsets)
    while True:
        owners: dict[int, list[int]] = {}
        for i, nodes in enumerate(attach):
            for v in nodes:
                owners.setdefault(v, []).append(i)
        clash = [v for v, s in owners.items() if tuple(sorted(s)) in forbidden]
        if not clash:
            return attach
        fresh = np.setdiff1d(non_targets, np.fromiter(owners, dtype=np.int64, count=len(owners)))
        if fresh.size < len(clash):
            raise InfeasibleError(
                "too few nodes to attach the sybils' external edges without mimicking a "
                "target's sybil subset; use a larger graph or lower d1"
            )
        new = rng.choice(fresh, len(clash), replace=False)
        for v, w in zip(clash, new.tolist(), strict=True):
            i = max(owners[v])
            attach[i].discard(v)
            attach[i].add(int(w))


# ============================================================================ recovery
def recover(released: Graph, secret: SybilSecret, *, max_tree: int = DEFAULT_MAX_TREE) -> Recovery:
    """Find H in the released graph by the search tree T, then the targets (§8.5.3).

    Uses only what the attacker knows: the full degrees Δ'_i, H's internal edges and the
    subsets N_j.  The search never raises on failure: a missing, ambiguous or too large
    search is reported in ``status``.  See the module doc for the cost.
    """
    released = as_graph(released, "the walk-based active attack", undirected=True)
    frontier, level_sizes, tree_size, status = search_tree(
        released, secret.degrees, secret.internal, max_tree=max_tree
    )
    b = len(secret.subsets)
    if status != "unique":
        matches = int(frontier.shape[0]) if status == "ambiguous" else 0
        none = np.full(b, -1, dtype=np.int64)
        return Recovery(
            status, np.empty(0, dtype=np.int64), matches, tree_size, level_sizes, none,
            ["no_h"] * b,
        )  # fmt: skip
    found = frontier[0].astype(np.int64)
    targets, tstatus = _find_targets(released, found, secret.subsets)
    return Recovery(status, found, 1, tree_size, level_sizes, targets, tstatus)


def search_tree(
    released: Graph,
    degrees: np.ndarray,
    internal: np.ndarray,
    parents: np.ndarray | None = None,
    *,
    max_tree: int = DEFAULT_MAX_TREE,
) -> tuple[np.ndarray, list[int], int, str]:
    """The search tree T of §8.5.3 for a pattern H with full degrees ``degrees`` and k × k
    adjacency ``internal``: every sequence of released nodes v_1..v_k with deg(v_i) =
    degrees[i] whose adjacencies equal H's, grown so that v_i is a neighbour of
    v_{parents[i]} (default parents[i] = i − 1, the walk of the active attack; any order in
    which each node has an earlier neighbour works — the passive coalition of
    :mod:`privlab.graph.attacks.passive`).  Returns (the complete sequences, the number of
    tree nodes per depth, the tree size, status): ``"unique"``, ``"ambiguous"``,
    ``"not_found"`` or ``"tree_limit"`` (more than ``max_tree`` tree nodes).  Cost in the
    module docstring.
    """
    if int(max_tree) != max_tree or max_tree < 1:
        raise ConfigError(f"max_tree = {max_tree!r}: give a positive number of tree nodes")
    k = len(degrees)
    want = np.asarray(degrees)
    adj = np.asarray(internal)
    par = np.arange(-1, k - 1) if parents is None else np.asarray(parents)
    n = released.n_nodes
    deg = released.degrees()
    keys = np.repeat(np.arange(n, dtype=np.int64), deg) * n + released.indices

    def has_edge(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        q = u * n + v
        if keys.size == 0:
            return np.zeros(q.shape, dtype=bool)
        pos = np.minimum(np.searchsorted(keys, q), keys.size - 1)
        return keys[pos] == q

    idx_t = np.int32 if n < 2**31 else np.int64  # tree paths: k ids per frontier node
    frontier = np.flatnonzero(deg == want[0]).astype(idx_t).reshape(-1, 1)
    level_sizes = [int(frontier.shape[0])]
    tree_size = level_sizes[0]
    for level in range(1, k):
        if frontier.shape[0] == 0 or tree_size > max_tree:
            break
        parts = []
        grown = 0
        p = int(par[level])
        # chunk so that the gathered neighbour lists stay moderate
        cnt_all = deg[frontier[:, p]]
        for lo, hi in _chunks(cnt_all, 1 << 22):
            if tree_size + grown > max_tree:
                break
            block = frontier[lo:hi]
            last = block[:, p]
            cnt = cnt_all[lo:hi]
            rows = np.repeat(np.arange(block.shape[0]), cnt)
            offs = np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            cand = released.indices[np.repeat(released.indptr[last], cnt) + offs]
            ok = deg[cand] == want[level]
            rows, cand = rows[ok], cand[ok]
            for i in range(level):
                if i == p:
                    continue
                u = block[rows, i].astype(np.int64)
                e = has_edge(u, cand)
                ok = e if adj[i, level] else (~e & (u != cand))
                rows, cand = rows[ok], cand[ok]
            parts.append(np.concatenate([block[rows], cand[:, None].astype(idx_t)], axis=1))
            grown += rows.size
        frontier = np.concatenate(parts) if parts else np.empty((0, level + 1), dtype=idx_t)
        level_sizes.append(grown)
        tree_size += grown
    if tree_size > max_tree:
        status = "tree_limit"
    elif len(level_sizes) < k or frontier.shape[0] == 0:
        status = "not_found"
    elif frontier.shape[0] > 1:
        status = "ambiguous"
    else:
        status = "unique"
    return frontier, level_sizes, tree_size, status


def _chunks(counts: np.ndarray, budget: int) -> list[tuple[int, int]]:
    if counts.size == 0:
        return []
    cs = np.cumsum(counts)
    out = []
    lo = 0
    while lo < counts.size:
        base = cs[lo - 1] if lo else 0
        hi = int(np.searchsorted(cs, base + budget, side="right"))
        hi = max(hi, lo + 1)
        out.append((lo, hi))
        lo = hi
    return out


def _find_targets(
    released: Graph, sybils: np.ndarray, subsets: tuple[tuple[int, ...], ...]
) -> tuple[np.ndarray, list[str]]:
    in_x = set(sybils.tolist())
    nbr_sets: dict[int, list[int]] = {}
    for i, x in enumerate(sybils.tolist()):
        for v in released.neighbors(x).tolist():
            if v not in in_x:
                nbr_sets.setdefault(v, []).append(i)
    by_set: dict[tuple[int, ...], list[int]] = {}
    for v, s in nbr_sets.items():
        by_set.setdefault(tuple(sorted(s)), []).append(v)
    out = np.full(len(subsets), -1, dtype=np.int64)
    status = []
    for j, s in enumerate(subsets):
        nodes = by_set.get(tuple(s), [])
        if len(nodes) == 1:
            out[j] = nodes[0]
            status.append("found")
        else:
            status.append("ambiguous" if nodes else "missing")
    return out, status


# ============================================================================ the whole attack
def active_attack(
    graph: Graph,
    n_targets: int,
    *,
    k: int | None = None,
    delta: float = DEFAULT_DELTA,
    d0: int | None = None,
    d1: int | None = None,
    seed: Any = None,
    max_tree: int = DEFAULT_MAX_TREE,
) -> ActiveAttackResult:
    """Plant sybils next to ``n_targets`` random targets, release naively, recover, score.

    The curator's release is :func:`~privlab.graph.anonymize.naive.naive_anonymize`; the
    score compares the recovered ids, mapped back through the release's secret mapping, with
    the planted sybils and the targets.  A failed search is a result (``status``), not an
    error.  Parameters as :func:`plant_sybils` and :func:`recover`.
    """
    graph = as_graph(graph, "the walk-based active attack", undirected=True)
    if int(n_targets) != n_targets or n_targets < 1:
        raise ConfigError(f"n_targets = {n_targets!r}: give at least one target")
    if n_targets > graph.n_nodes:
        raise InfeasibleError(
            f"n_targets = {n_targets} but the graph has only {graph.n_nodes} nodes"
        )
    rng = secure_generator(seed)
    targets = rng.choice(graph.n_nodes, int(n_targets), replace=False)
    planted, secret = plant_sybils(graph, targets, k=k, delta=delta, d0=d0, d1=d1, seed=rng)
    release = naive_anonymize(planted, seed=rng)
    rec = recover(release.graph, secret, max_tree=max_tree)
    exact = rec.status == "unique" and bool(
        np.array_equal(release.mapping[rec.sybils], secret.sybils)
    )
    found = rec.targets >= 0
    correct = int(np.sum(release.mapping[rec.targets[found]] == secret.targets[found]))
    return ActiveAttackResult(
        graph.n_nodes, secret.k, int(n_targets), rec.status, exact, int(found.sum()), correct,
        rec.tree_size, rec.level_sizes[0] if rec.level_sizes else 0, secret, rec,
    )  # fmt: skip


def success_vs_k(
    graph: Graph,
    ks: Sequence[int],
    *,
    n_targets: int = 10,
    trials: int = 10,
    d0: int | None = None,
    d1: int | None = None,
    seed: Any = None,
    max_tree: int = DEFAULT_MAX_TREE,
) -> list[KSweepRow]:
    """The experiment of §8.7: success of the attack against the number of sybils k.

    For each k, ``trials`` independent runs of :func:`active_attack` (new sybils, targets
    and release each time); ``n_targets`` is capped at 2^k − k − 1 for small k.  Reports the
    mean success rate (targets re-identified correctly), how often H was located uniquely,
    how often exactly, and the search-tree size.  Cost: Σ_k trials × one attack.
    """
    if int(trials) != trials or trials < 1:
        raise ConfigError(f"trials = {trials!r}: give at least one trial")
    graph = as_graph(graph, "the walk-based active attack", undirected=True)
    rng = secure_generator(seed)
    rows = []
    for k in ks:
        b = min(int(n_targets), max_targets(int(k)))
        statuses: dict[str, int] = {}
        success, unique, exact, sizes = [], [], [], []
        for _ in range(int(trials)):
            try:
                r = active_attack(graph, b, k=int(k), d0=d0, d1=d1, seed=rng, max_tree=max_tree)
            except InfeasibleError:  # e.g. the drawn Δ_i cannot reach b distinct subsets
                statuses["infeasible"] = statuses.get("infeasible", 0) + 1
                success.append(0.0)
                unique.append(False)
                exact.append(False)
                sizes.append(0)
                continue
            statuses[r.status] = statuses.get(r.status, 0) + 1
            success.append(r.success_rate)
            unique.append(r.status == "unique")
            exact.append(r.sybils_exact)
            sizes.append(r.tree_size)
        row = KSweepRow(
            int(k), int(trials), b, float(np.mean(success)), float(np.mean(unique)),
            float(np.mean(exact)), float(np.mean(sizes)), int(np.max(sizes)), statuses,
        )  # fmt: skip
        rows.append(row)
    return rows


def random_graph(n: int, avg_degree: float, *, seed: Any = None) -> Graph:
    """An Erdős–Rényi G(n, m) graph with m = ⌊n·avg_degree/2⌉ uniform edges.  O(m log m)."""
    if int(n) != n or n < 2:
        raise ConfigError(f"n = {n!r}: give at least 2 nodes")
    m = round(n * avg_degree / 2)
    if not 0 <= m <= n * (n - 1) // 2:
        raise ConfigError(f"avg_degree = {avg_degree!r}: give a value in [0, n − 1]")
    rng = secure_generator(seed)
    keys = np.empty(0, dtype=np.int64)
    while keys.size < m:
        draw = int((m - keys.size) * 1.2) + 16
        u = rng.integers(0, n, draw)
        v = rng.integers(0, n, draw)
        ok = u != v
        lo, hi = np.minimum(u, v)[ok], np.maximum(u, v)[ok]
        keys = np.unique(np.concatenate([keys, lo * n + hi]))
    keys = rng.choice(keys, m, replace=False)
    return Graph.from_edges(n, np.stack([keys // n, keys % n], axis=1))


__all__ = [
    "ActiveAttackResult",
    "KSweepRow",
    "Planted",
    "Recovery",
    "SybilSecret",
    "active_attack",
    "default_k",
    "max_targets",
    "plant_sybils",
    "random_graph",
    "recover",
    "search_tree",
    "success_vs_k",
]
