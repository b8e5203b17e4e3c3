"""The cut-based active attack on naively anonymized graphs (Backstrom, Dwork & Kleinberg).

Source: Backstrom, Dwork & Kleinberg, "Wherefore art thou R3579X? Anonymized social networks,
hidden patterns, and structural steganography", WWW 2007 [BDK07], the cut-based attack; seed
000 §2.10 (thesis Ch. 8, §8.3) names it without describing it.  The construction is taken
from [BDK07] as SecGraph implements it (``deAnonymize/TheCutBasedAttack.java``, read for its
behaviour): the walk-based attack is in :mod:`privlab.graph.attacks.active`.

**Planting** (:func:`plant_cut_subgraph`).  To re-identify b targets w_1..w_b the attacker
creates k = 3b + 3 sybils (the paper's choice; ``k`` may be set), joins every pair of them
with probability ½ (H = G(k, ½)), and joins each target w_j to its own sybil x_{a_j} (b
distinct sybils, chosen at random).  H is then attached to the rest of the graph by exactly
b edges, while every cut *inside* H has more than b edges with high probability (a cut
splitting off s sybils has about s(k − s)/2 ≥ (k − 1)/2 = 1.5b + 1 edges in expectation).

**Recovery** (:func:`recover_cut`).  In the released graph, two nodes u, v are
*(b+1)-connected* when their local edge connectivity λ(u, v) (max number of edge-disjoint
paths = min u–v cut) exceeds b.  The classes of this equivalence are the components of the
Gomory–Hu (or any flow-equivalent) tree once its edges of weight ≤ b are deleted — the
paper's use of the Gomory–Hu tree.  The cut of b edges around H and H's larger internal cuts
make H's sybils exactly one class of k nodes.  Every class of exactly k nodes whose induced
subgraph is isomorphic to H is a candidate; a unique candidate locates H, every isomorphism
onto it labels x_1..x_k, and target w_j is the one neighbour of x_{a_j} outside H.  The
isomorphism test (igraph's VF2) and automorphisms of H that move an attached sybil make a
target ``ambiguous`` rather than guessed.

**Computing the classes fast.**  Only min(λ, b + 1) matters, so the flows run on a sparse
certificate: the union of b + 1 greedy maximal spanning forests F_1 ∪ … ∪ F_{b+1} (F_i a
spanning forest of G minus the earlier forests) has at most (b + 1)(n − 1) edges and keeps
min(λ(u, v), b + 1) for every pair (Nagamochi & Ibaraki 1992; Nishizeki & Poljak 1994).  The
flow-equivalent tree is Gusfield's (1990): n − 1 maximum flows (scipy's Dinic) on the
certificate, each followed by one BFS of the residual graph.  Cost O(n · (b + 1) · n) for
the flows in the worst case — about 10 s of CPU on ego-Facebook (4 039 nodes, 88 234 edges)
with b = 4 — plus the isomorphism tests on the few k-node classes.  SecGraph builds the whole
Gomory–Hu tree with the Python-2 package ``pygraph`` through ``python python/cutTree.py``
and tests isomorphism by trying all k! permutations (k = 3b + 3 = 12 already means 4.8 · 10⁸).

What the attack needs from the graph: k ≤ n is not needed (H is new), but b ≥ 1 distinct
targets and an undirected graph.  As in [BDK07], this attack uses far fewer sybils than the
walk-based one (3b + 3 instead of (2 + δ) log₂ n), at the cost of the flow computation, and
its H is easy to spot for a curator who looks for small cuts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order, maximum_flow, minimum_spanning_tree

from privlab.dp.noise import secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.anonymize.naive import naive_anonymize
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_int

#: Largest H planted: k² / 4 internal edges and the isomorphism tests stay small.
MAX_K = 300


# ============================================================================ results
@dataclass(frozen=True)
class CutSecret:
    """What the attacker keeps: sybil ids (nodes n..n+k−1 before the release), H's k × k
    adjacency, ``attach[j]`` the sybil index joined to ``targets[j]``."""

    n_original: int
    sybils: np.ndarray
    internal: np.ndarray
    attach: np.ndarray
    targets: np.ndarray
    draws: int = 1
    h_ok: bool = True

    @property
    def k(self) -> int:
        return int(self.sybils.size)

    @property
    def b(self) -> int:
        return int(self.targets.size)

    def to_dict(self) -> dict[str, Any]:
        i, j = np.nonzero(np.triu(self.internal, 1))
        return {
            "k": self.k,
            "b": self.b,
            "n_original": self.n_original,
            "sybils": self.sybils.tolist(),
            "internal_edges": np.stack([i, j], axis=1).tolist(),
            "attach": self.attach.tolist(),
            "targets": self.targets.tolist(),
            "draws": self.draws,
            "h_ok": self.h_ok,
        }


@dataclass(frozen=True)
class CutPlanted:
    """The graph with H added and the attacker's secret; unpacks as ``graph, secret``."""

    graph: Graph
    secret: CutSecret

    def __iter__(self):
        return iter((self.graph, self.secret))


@dataclass(frozen=True)
class CutRecovery:
    """``status``: ``unique`` (one class of k nodes isomorphic to H), ``ambiguous`` (several)
    or ``not_found``.  ``sybils``: released ids of x_1..x_k (one isomorphism; empty unless
    unique).  ``targets[j]``: released id of target j or −1; ``target_status[j]``:
    ``found``, ``ambiguous`` (H's automorphisms move x_{a_j} to sybils with other outside
    neighbours), ``missing`` (x_{a_j} has no single outside neighbour) or ``no_h``.
    ``classes_of_size_k``: the (b+1)-connected classes of exactly k nodes examined."""

    status: str
    sybils: np.ndarray
    n_matches: int
    classes_of_size_k: int
    largest_class: int
    targets: np.ndarray
    target_status: list[str]

    def to_dict(self) -> dict[str, Any]:
        plain = ("status", "n_matches", "classes_of_size_k", "largest_class")
        out: dict[str, Any] = {name: getattr(self, name) for name in plain}
        out.update(sybils=self.sybils.tolist(), targets=self.targets.tolist(),
                   targets_found=sum(s == "found" for s in self.target_status))  # fmt: skip
        return out


@dataclass(frozen=True)
class CutAttackResult:
    """One run of plant → naive release → recover, scored against the truth (the planted
    ``secret`` and the ``recovery``, in planted ids): ``success_rate`` = targets re-identified
    correctly / targets; ``sybils_exact``: the recovered x_1..x_k are the planted sybils, in
    order."""

    n_nodes: int
    secret: CutSecret = field(repr=False)
    recovery: CutRecovery = field(repr=False)
    sybils_exact: bool = False
    targets_correct: int = 0

    @property
    def status(self) -> str:
        return self.recovery.status

    @property
    def success_rate(self) -> float:
        return self.targets_correct / self.secret.b

    def to_dict(self) -> dict[str, Any]:
        rec, sec = self.recovery, self.secret
        return {
            "n_nodes": self.n_nodes, "k": sec.k, "n_targets": sec.b, "status": rec.status,
            "sybils_exact": self.sybils_exact,
            "targets_found": sum(s == "found" for s in rec.target_status),
            "targets_correct": self.targets_correct, "success_rate": self.success_rate,
            "classes_of_size_k": rec.classes_of_size_k, "h_draws": sec.draws,
            "h_separable": sec.h_ok,
        }  # fmt: skip


# ============================================================================ planting
def default_k(b: int) -> int:
    """[BDK07]'s k = 3b + 3 sybils for b targets."""
    return 3 * int(b) + 3


def _h_ok(internal: np.ndarray, b: int) -> bool:
    """H separates itself: edge connectivity ≥ b + 1 (every internal cut beats the b edges
    to the targets) and no automorphism but the identity (the labelling is recoverable)."""
    import igraph as ig

    i, j = np.nonzero(np.triu(internal, 1))
    h = ig.Graph(n=internal.shape[0], edges=list(zip(i.tolist(), j.tolist(), strict=True)))
    return h.edge_connectivity() >= b + 1 and h.count_automorphisms() == 1


def plant_cut_subgraph(
    graph: Any,
    targets: Sequence[int] | np.ndarray,
    *,
    k: int | None = None,
    max_draws: int = 200,
    seed: Any = None,
) -> CutPlanted:
    """Add H = G(k, ½) on new nodes n..n+k−1 and one edge from each target to its own sybil.
    ``k`` defaults to 3b + 3 and must be ≥ b (one sybil per target).

    The attacker knows H before planting it, so H is redrawn (up to ``max_draws`` times,
    *assumed* — [BDK07] argue the properties hold w.h.p. for large b, SecGraph keeps its first
    draw) until its edge connectivity exceeds b and it has no non-trivial automorphism;
    ``max_draws=1`` is the literal single draw.  If no draw qualifies, the last one is
    planted and ``secret.h_ok`` is False.  O(m log m + max_draws · k³)."""
    g = as_graph(graph, "the cut-based active attack", undirected=True)
    t = np.asarray(targets)
    if t.ndim != 1 or t.size == 0 or not np.issubdtype(t.dtype, np.integer):
        raise InputError("targets: give a non-empty list of node ids")
    t = t.astype(np.int64)
    if t.min() < 0 or t.max() >= g.n_nodes:
        raise InputError(f"targets: ids must be in 0..{g.n_nodes - 1}")
    if np.unique(t).size != t.size:
        raise InputError("targets: a node is named twice; give distinct targets")
    b = int(t.size)
    k = default_k(b) if k is None else check_int(k, "k", 2)
    if k < b:
        raise ConfigError(f"k = {k}: each of the {b} targets needs its own sybil; give k ≥ {b}")
    if k > MAX_K:
        raise ConfigError(
            f"k = {k}: at most {MAX_K} sybils (k = 3b + 3 by default: give at most "
            f"{(MAX_K - 3) // 3} targets, or a smaller k)"
        )
    max_draws = check_int(max_draws, "max_draws", 1)
    rng = secure_generator(seed)
    n = g.n_nodes
    iu, ju = np.triu_indices(k, 1)
    # a k-node graph with edge connectivity > b needs minimum degree > b: no draw qualifies
    feasible = k >= b + 2
    draw, ok = 0, False
    while draw < max_draws and not ok:
        draw += 1
        on = rng.random(iu.size) < 0.5
        internal = np.zeros((k, k), dtype=bool)
        internal[iu[on], ju[on]] = internal[ju[on], iu[on]] = True
        ok = feasible and _h_ok(internal, b)
        if not feasible:
            break
    attach = rng.choice(k, b, replace=False).astype(np.int64)
    sybils = np.arange(n, n + k, dtype=np.int64)
    new = np.concatenate(
        [g.edges(), np.stack([iu[on] + n, ju[on] + n], axis=1), np.stack([t, attach + n], axis=1)]
    )
    planted = Graph.from_edges(n + k, new)
    return CutPlanted(planted, CutSecret(n, sybils, internal, attach, t, draw, bool(ok)))


# ============================================================================ the classes
def _certificate(g: Graph, c: int) -> np.ndarray:
    """Edges of the union of c greedy maximal spanning forests (keeps min(λ, c)).  O(c·m·α)."""
    n = g.n_nodes
    rest = g.edges()
    keep = []
    for _ in range(c):
        if rest.shape[0] == 0:
            break
        a = sp.coo_matrix((np.ones(rest.shape[0]), (rest[:, 0], rest[:, 1])), shape=(n, n))
        f = minimum_spanning_tree(a.tocsr()).tocoo()
        fe = np.stack([np.minimum(f.row, f.col), np.maximum(f.row, f.col)], axis=1)
        keep.append(fe.astype(np.int64))
        rest = rest[~np.isin(rest[:, 0] * n + rest[:, 1], fe[:, 0] * n + fe[:, 1])]
    return np.concatenate(keep) if keep else np.zeros((0, 2), dtype=np.int64)


def connectivity_classes(graph: Any, threshold: int) -> np.ndarray:
    """Class id per node of the relation λ(u, v) ≥ ``threshold`` (local edge connectivity),
    from Gusfield's flow-equivalent tree on a sparse certificate (module docstring): the
    components of the Gomory–Hu tree without its edges of weight < threshold.
    O(n · maxflow on ≤ threshold·n edges)."""
    g = as_graph(graph, "connectivity classes", undirected=True)
    threshold = check_int(threshold, "threshold", 1)
    n = g.n_nodes
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    cert = _certificate(g, threshold)
    rows = np.concatenate([cert[:, 0], cert[:, 1]])
    cols = np.concatenate([cert[:, 1], cert[:, 0]])
    cap = sp.csr_matrix((np.ones(rows.size, dtype=np.int32), (rows, cols)), shape=(n, n))
    cap.sort_indices()
    parent = np.zeros(n, dtype=np.int64)
    weight = np.zeros(n, dtype=np.int64)
    ids = np.arange(n)
    for s in range(1, n):
        t = int(parent[s])
        res = maximum_flow(cap, s, t, method="dinic")
        weight[s] = res.flow_value
        resid = cap - res.flow
        resid.data[resid.data < 0] = 0
        resid.eliminate_zeros()
        side = np.zeros(n, dtype=bool)
        side[breadth_first_order(resid, s, directed=True, return_predecessors=False)] = True
        parent[(ids > s) & side & (parent == t)] = s
    strong = (weight >= threshold) & (ids > 0)
    tree = sp.coo_matrix((np.ones(int(strong.sum())), (ids[strong], parent[strong])), shape=(n, n))
    _, label = sp.csgraph.connected_components(tree, directed=False)
    return label.astype(np.int64)


# ============================================================================ recovery
def recover_cut(released: Any, secret: CutSecret) -> CutRecovery:
    """Find H in a release by its cut (module docstring) and read off the targets.  Uses only
    what the attacker knows: H's internal edges, which sybil each target is joined to, and b.
    O(flow-equivalent tree + isomorphism tests on the k-node classes)."""
    import igraph as ig

    g = as_graph(released, "the released graph", undirected=True)
    k, b = secret.k, secret.b
    label = connectivity_classes(g, b + 1)
    sizes = np.bincount(label)
    candidates = np.flatnonzero(sizes == k)
    hi, hj = np.nonzero(np.triu(secret.internal, 1))
    h = ig.Graph(n=k, edges=list(zip(hi.tolist(), hj.tolist(), strict=True)))
    edges = g.edges()
    matches: list[tuple[np.ndarray, list[list[int]]]] = []
    for c in candidates.tolist():
        nodes = np.flatnonzero(label == c)
        local = np.full(g.n_nodes, -1)
        local[nodes] = np.arange(k)
        inside = (local[edges[:, 0]] >= 0) & (local[edges[:, 1]] >= 0)
        sub = ig.Graph(n=k, edges=local[edges[inside]].tolist())
        if sub.ecount() != h.ecount() or not sub.isomorphic(h):
            continue
        maps = sub.get_isomorphisms_vf2(h)  # maps[i][x] = sub vertex playing sybil x
        matches.append((nodes, maps))
    none = np.full(b, -1, dtype=np.int64)
    if len(matches) != 1:
        status = "not_found" if not matches else "ambiguous"
        return CutRecovery(status, np.zeros(0, np.int64), len(matches), int(candidates.size),
                           int(sizes.max()), none, ["no_h"] * b)  # fmt: skip
    nodes, maps = matches[0]
    member = np.zeros(g.n_nodes, dtype=bool)
    member[nodes] = True
    out, status_j = none.copy(), []
    for j, x in enumerate(secret.attach.tolist()):
        found = set()
        for m in maps:
            v = int(nodes[m[x]])
            outside = [int(w) for w in g.neighbors(v) if not member[w]]
            found.add(outside[0] if len(outside) == 1 else -1)
        if len(found) == 1 and -1 not in found:
            out[j] = found.pop()
            status_j.append("found")
        else:
            status_j.append("ambiguous" if len(found) > 1 else "missing")
    sybils = nodes[np.asarray(maps[0], dtype=np.int64)]
    return CutRecovery("unique", sybils, 1, int(candidates.size), int(sizes.max()), out,
                       status_j)  # fmt: skip


# ============================================================================ the whole attack
def cut_attack(
    graph: Any, n_targets: int, *, k: int | None = None, max_draws: int = 200, seed: Any = None
) -> CutAttackResult:
    """Plant H next to ``n_targets`` random targets, release naively, recover, score against
    the release's secret mapping.  A failed search is a result (``status``), not an error."""
    g = as_graph(graph, "the cut-based active attack", undirected=True)
    b = check_int(n_targets, "n_targets", 1)
    if b > g.n_nodes:
        raise ConfigError(f"n_targets = {b}: the graph has only {g.n_nodes} nodes")
    rng = secure_generator(seed)
    targets = rng.choice(g.n_nodes, b, replace=False)
    planted, secret = plant_cut_subgraph(g, targets, k=k, max_draws=max_draws, seed=rng)
    release = naive_anonymize(planted, seed=rng)
    rec = recover_cut(release.graph, secret)
    exact = rec.status == "unique" and bool(
        np.array_equal(release.mapping[rec.sybils], secret.sybils)
    )
    found = rec.targets >= 0
    correct = int(np.sum(release.mapping[rec.targets[found]] == secret.targets[found]))
    return CutAttackResult(g.n_nodes, secret, rec, exact, correct)


def cut_success_vs_k(
    graph: Any,
    ks: Sequence[int],
    *,
    n_targets: int,
    trials: int = 10,
    max_draws: int = 200,
    seed: Any = None,
) -> list[dict[str, Any]]:
    """Success of the cut-based attack against the number of sybils k (b fixed): per k, the
    mean success rate and how often H was located uniquely, over ``trials`` runs."""
    trials = check_int(trials, "trials", 1)
    rng = secure_generator(seed)
    rows = []
    for k in ks:
        runs = [cut_attack(graph, n_targets, k=int(k), max_draws=max_draws, seed=rng)
                for _ in range(trials)]  # fmt: skip
        rows.append({
            "k": int(k),
            "n_targets": int(n_targets),
            "trials": trials,
            "success_rate": float(np.mean([r.success_rate for r in runs])),
            "unique_rate": float(np.mean([r.status == "unique" for r in runs])),
            "sybils_exact_rate": float(np.mean([r.sybils_exact for r in runs])),
        })  # fmt: skip
    return rows


__all__ = [
    "CutAttackResult",
    "CutPlanted",
    "CutRecovery",
    "CutSecret",
    "connectivity_classes",
    "cut_attack",
    "cut_success_vs_k",
    "default_k",
    "plant_cut_subgraph",
    "recover_cut",
]
