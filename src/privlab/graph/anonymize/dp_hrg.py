"""Differentially private hierarchical random graphs (DP-HRG).

Source: Qian Xiao, Rui Chen & Kian-Lee Tan, "Differentially private network data release via
structural inference", KDD 2014 (pp. 911–920; the issue's "CODASPY 2014" is a slip — the
method, its sensitivity and its MCMC are the KDD paper's, also chapter 4 of Xiao's NUS
thesis), on the hierarchical random graph (HRG) of Clauset, Moore & Newman, "Hierarchical
structure and the prediction of missing links in networks", Nature 453 (2008).  The
authors' C++ program privHRG (reached by SecGraph's ``-m a -a XiaoDP``) was read to check
the constants; nothing of it is copied here.

**The model.**  A dendrogram T is a rooted binary tree whose n leaves are the graph's
nodes; each internal node r splits its leaves into a left set L_r and a right set R_r.
Every pair of nodes has exactly one lowest common ancestor, so r "owns" the
N_r = |L_r|·|R_r| pairs between its two sides, e_r of which are edges of G.  The HRG puts
an edge on each owned pair independently with probability p_r, and the maximum-likelihood
p_r = e_r / N_r gives

    log L(T) = Σ_r f(e_r, N_r),   f(e, N) = e·ln(e/N) + (N − e)·ln(1 − e/N)   (0·ln 0 = 0).

**Budget.**  ε = ε1 + ε2 (sequential composition), both on edge-neighbouring graphs (one
edge added or removed; the node set — hence n — is public).  Default ε1 = ε2 = ε/2, the
split of the authors' examples (privHRG README: ``-epsilonHRG 0.5 -epsilonE 0.5``);
``hrg_share`` changes it.

**Step 1, dendrogram (ε1): the exponential mechanism with u(T) = log L(T).**  Sensitivity
(the paper's derivation): one edge changes the count e_r of exactly one internal node r
(the lowest common ancestor of its endpoints) by one, so
|Δ log L| = |f(e + 1, N_r) − f(e, N_r)|.  f is convex in e with f′(e) = ln(e/(N − e)), so
the step is largest at an end, e = 0 → 1 (or N − 1 → N), where it is
g(N) = ln N + (N − 1)·ln(N/(N − 1)); g grows with N and N_r ≤ ⌊n/2⌋·⌈n/2⌉, hence

    Δu = ln N* + (N* − 1)·ln(N*/(N* − 1)),   N* = ⌊n/2⌋·⌈n/2⌉   (:func:`hrg_sensitivity`),

attained by a root splitting the nodes in halves and one edge across it (≈ ln N* + 1).  The
mechanism samples T with probability ∝ exp(ε1·log L(T)/(2Δu)).  The (2n − 3)!! dendrograms
cannot be enumerated, so — as in the paper — a Metropolis chain simulates it: a move picks
one of the n − 2 internal edges (x, y) (y a child of x) uniformly, y's children a, b and
y's sibling k; it re-pairs these three subtrees, y := (s, k) and x := (y, o) with
{s, o} = {a, b} chosen by a fair coin (Clauset et al.'s two alternative configurations).
Every dendrogram has 2(n − 2) distinct neighbours and each move is undone by one move, so
the proposal is symmetric and accepting with min(1, exp(ε1·Δ log L/(2Δu))) makes the
exponential-mechanism distribution the chain's stationary distribution.  Caveat (the
paper's own): the output is ε1-DP only once the chain has mixed; a finite run
approximates it.  The number of steps is fixed in advance (default 1000·n, privHRG's
minimum before its convergence test, and at least 100,000) — privHRG instead stops on a test
of the log-likelihood trace, a data-dependent stopping rule we do not copy.

**Step 2, probabilities (ε2): Laplace noise on the counts.**  One edge changes one e_r by
one, so the vector (e_r) has L1 sensitivity 1; each e_r gets integer Laplace
(two-sided geometric, P(z) ∝ e^(−ε2|z|), the exact discrete Laplace of scale 1/ε2 —
:func:`privlab.dp.mechanisms.laplace` on integer counts) and p̃_r = clip(ẽ_r / N_r, 0, 1).
``small_subtrees="privhrg"`` adds privHRG's heuristic (not in the paper): top-down, a node
whose noise scale 1/(ε2·N_r) ≥ 0.05 and whose subtree has at most 1/(0.01·ε2) pairs is
replaced, subtree and all, by one Erdős–Rényi block — one noisy count of the subtree's edges
over its pairs.  The counts noised are still disjoint (sensitivity 1), so ε2 is unchanged.

**Step 3, the graph** (post-processing, free): every pair owned by r is an edge with
probability p̃_r.  Sampled per node as a Binomial(N_r, p̃_r) count of distinct pairs chosen
uniformly — the same law as N_r Bernoulli trials, in O(n + edges) instead of O(n²).

**Layout.**  The chain keeps the leaves in an order in which every subtree is a contiguous
range (``order``/``pos``) and indexes internal nodes by their split position (the gap
between the last leaf of the left child and the first of the right), so e(s, k) is a count
over the smaller range's adjacency, and re-pairing three adjacent blocks is at most one
swap of two adjacent blocks (the smaller end with the middle).  The chain's state lives in
Python lists, not numpy arrays: a step reads and writes a handful of single entries, which
lists do about ten times faster (3.3x less CPU per step than the same chain on numpy arrays,
measured on karate: 7.8 µs against 26 µs); the bulk passes (counts, noise, sampling) are numpy.

Complexity: a chain step costs O(min(vol s, vol k) + |moved block|) — O(d̄·h) on typical
dendrograms of height h; initial counts O(n log n + m) (range-minimum query over the split
depths); noise O(n); sampling O(n + M) for M released edges; memory O(n + m).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.accountant import check_epsilon
from privlab.dp.mechanisms import laplace
from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_choice, check_int, check_number_in

#: Default number of MCMC steps per node (privHRG's -eq default) and the floor.
STEPS_PER_NODE = 1000
MIN_STEPS = 100_000

#: privHRG's thresholds for collapsing a subtree into one Erdős–Rényi block.
_PRIVHRG_SCALE = 0.05
_PRIVHRG_COMMUNITY_SCALE = 0.01


# ---------------------------------------------------------------------------- likelihood
def _f(e: float, n_pairs: float) -> float:
    """f(e, N) = e ln(e/N) + (N − e) ln(1 − e/N), 0 at e ∈ {0, N}."""
    if e <= 0 or e >= n_pairs:
        return 0.0
    p = e / n_pairs
    return e * math.log(p) + (n_pairs - e) * math.log1p(-p)


def _f_vec(e: np.ndarray, n_pairs: np.ndarray) -> np.ndarray:
    e = np.asarray(e, dtype=np.float64)
    n_pairs = np.asarray(n_pairs, dtype=np.float64)
    out = np.zeros(e.shape)
    inner = (e > 0) & (e < n_pairs)
    p = e[inner] / n_pairs[inner]
    out[inner] = e[inner] * np.log(p) + (n_pairs[inner] - e[inner]) * np.log1p(-p)
    return out


def hrg_sensitivity(n: int) -> float:
    """Δu: the largest change of log L(T) when one edge of an n-node graph is added or
    removed, over all dendrograms T — ln N* + (N* − 1)·ln(N*/(N* − 1)) with
    N* = ⌊n/2⌋·⌈n/2⌉ (module docstring; 0 for n ≤ 2, where log L is always 0).  O(1)."""
    n = check_int(n, "n", 0)
    big = (n // 2) * ((n + 1) // 2)
    if big <= 1:
        return 0.0
    return math.log(big) - (big - 1) * math.log1p(-1.0 / big)


# ---------------------------------------------------------------------------- dendrograms
@dataclass(frozen=True, eq=False)
class Dendrogram:
    """A dendrogram over leaves 0..n−1: internal node r has children ``left[r]`` and
    ``right[r]``, each an internal node (≥ 0) or a leaf v coded ~v = −v − 1; node 0 is the
    root.  Build one from nested pairs with :meth:`from_nested`."""

    left: np.ndarray
    right: np.ndarray

    @property
    def n_leaves(self) -> int:
        return int(self.left.size) + 1

    @classmethod
    def from_nested(cls, tree: Any) -> Dendrogram:
        """From nested 2-tuples of leaves 0..n−1, e.g. ``((0, 1), (2, 3))``.  O(n)."""
        left: list[int] = []
        right: list[int] = []
        seen: list[int] = []

        def walk(t: Any) -> int:
            if isinstance(t, (int, np.integer)) and not isinstance(t, bool):
                seen.append(int(t))
                return ~int(t)
            if not (isinstance(t, (tuple, list)) and len(t) == 2):
                raise InputError(f"dendrogram: {t!r} is neither a leaf (int) nor a pair")
            r = len(left)
            left.append(0)
            right.append(0)
            left[r], right[r] = walk(t[0]), walk(t[1])
            return r

        walk(tree)
        if sorted(seen) != list(range(len(seen))) or len(seen) < 2:
            raise InputError("dendrogram: the leaves must be 0..n−1, each once, n ≥ 2")
        return cls(np.array(left, dtype=np.int64), np.array(right, dtype=np.int64))

    def clusters(self) -> frozenset[frozenset[int]]:
        """The leaf sets of the internal nodes: a canonical form (two dendrograms are the
        same unordered tree iff their clusters are equal).  O(n·h)."""
        out: list[frozenset[int]] = []

        def leaves(c: int) -> frozenset[int]:
            if c < 0:
                return frozenset((~c,))
            s = leaves(int(self.left[c])) | leaves(int(self.right[c]))
            out.append(s)
            return s

        leaves(0)
        return frozenset(out)


def _check_dendrogram(dendrogram: Any, n: int) -> Dendrogram:
    if not isinstance(dendrogram, Dendrogram):
        raise InputError(
            f"dendrogram: got {type(dendrogram).__name__}; give a Dendrogram "
            "(Dendrogram.from_nested(((0, 1), (2, 3))))"
        )
    if dendrogram.n_leaves != n:
        raise InputError(f"dendrogram has {dendrogram.n_leaves} leaves but the graph has {n} nodes")
    return dendrogram


# ---------------------------------------------------------------------------- the chain
class DendrogramChain:
    """Metropolis chain over the dendrograms of ``graph`` with stationary distribution
    ∝ exp(temperature · log L(T)) (module docstring).  ``start``: a :class:`Dendrogram`, or
    None for a random balanced one.  ``temperature`` = ε1/(2Δu) for the DP mechanism.

    Step cost O(min(vol s, vol k) + moved block); :meth:`run` draws its random numbers in
    batches.
    """

    def __init__(
        self, graph: Graph, temperature: float, *, start: Dendrogram | None = None,
        rng: np.random.Generator,
    ) -> None:  # fmt: skip
        n = graph.n_nodes
        if n < 3:
            raise InputError(f"the HRG chain needs ≥ 3 nodes (there is one dendrogram for {n})")
        self.n = n
        self.temperature = float(temperature)
        self.rng = rng
        self._indptr = graph.indptr
        self._indices = graph.indices
        m = n - 1
        self.ch0 = [0] * m
        self.ch1 = [0] * m
        self.par = [-1] * m
        # Python lists: the chain reads and writes single entries, which lists do ~10x
        # faster than numpy arrays
        self.lo = [0] * m
        self.hi = [0] * m
        self.gap_node = [-1] * (n + 1)
        self._adj = np.split(graph.indices, graph.indptr[1:-1])
        self._adj = [a.tolist() for a in self._adj]
        if start is None:
            order = rng.permutation(n).tolist()
            self._build_balanced(order)
        else:
            order = self._build_from(_check_dendrogram(start, n))
        self.order = order
        self.pos = [0] * n
        for i, v in enumerate(order):
            self.pos[v] = i
        self.refresh()
        self.steps = 0
        self.accepted = 0

    # -- construction
    def _build_balanced(self, order: list[int]) -> None:
        count = [0]

        def build(lo: int, hi: int, parent: int) -> int:
            if hi - lo == 1:
                return ~order[lo]
            r = count[0]
            count[0] += 1
            mid = (lo + hi) // 2
            self.par[r] = parent
            self.lo[r], self.hi[r] = lo, hi
            self.gap_node[mid] = r
            self.ch0[r] = build(lo, mid, r)
            self.ch1[r] = build(mid, hi, r)
            return r

        build(0, self.n, -1)

    def _build_from(self, d: Dendrogram) -> list[int]:
        order: list[int] = []
        left, right = d.left.tolist(), d.right.tolist()

        def walk(c: int, parent: int) -> None:
            if c < 0:
                order.append(~c)
                return
            self.par[c] = parent
            self.ch0[c], self.ch1[c] = left[c], right[c]
            self.lo[c] = len(order)
            walk(left[c], c)
            self.gap_node[len(order)] = c
            walk(right[c], c)
            self.hi[c] = len(order)

        walk(0, -1)
        return order

    def refresh(self) -> None:
        """Recompute every e_r and log L from scratch (range-minimum query).  O(n log n + m)."""
        self.e = edge_counts(self._indptr, self._indices, np.asarray(self.pos),
                             np.asarray(self.gap_node), self._depths()).tolist()  # fmt: skip
        sizes = [h - lo for lo, h in zip(self.lo, self.hi, strict=True)]
        self.pairs = [self._pairs(r, sizes) for r in range(self.n - 1)]
        self.logl = [_f(e, p) for e, p in zip(self.e, self.pairs, strict=True)]

    def _pairs(self, r: int, sizes: list[int]) -> int:
        return self._size(self.ch0[r], sizes) * self._size(self.ch1[r], sizes)

    @staticmethod
    def _size(c: int, sizes: list[int]) -> int:
        return 1 if c < 0 else sizes[c]

    def _depths(self) -> np.ndarray:
        depth = np.zeros(self.n - 1, dtype=np.int64)
        stack = [0]
        while stack:
            r = stack.pop()
            for c in (self.ch0[r], self.ch1[r]):
                if c >= 0:
                    depth[c] = depth[r] + 1
                    stack.append(c)
        return depth

    @property
    def log_likelihood(self) -> float:
        return float(sum(self.logl))

    def dendrogram(self) -> Dendrogram:
        """The current state."""
        return Dendrogram(np.array(self.ch0, dtype=np.int64), np.array(self.ch1, dtype=np.int64))

    # -- the move
    def _range(self, c: int) -> tuple[int, int]:
        if c >= 0:
            return self.lo[c], self.hi[c]
        p = self.pos[~c]
        return p, p + 1

    def _between(self, l1: int, h1: int, l2: int, h2: int) -> int:
        """Edges between leaf ranges [l1, h1) and [l2, h2): scan the smaller's adjacency."""
        if h1 - l1 > h2 - l2:
            l1, h1, l2, h2 = l2, h2, l1, h1
        pos, adj = self.pos, self._adj
        count = 0
        for v in self.order[l1:h1]:
            for w in adj[v]:
                if l2 <= pos[w] < h2:
                    count += 1
        return count

    def _swap(self, p: int, q: int, r: int) -> None:
        """Blocks [p, q) and [q, r) change places (leaves, and internal nodes by split)."""
        lo, hi, gap_node, order, pos = self.lo, self.hi, self.gap_node, self.order, self.pos
        first = gap_node[p + 1 : q]
        second = gap_node[q + 1 : r]
        right, left = r - q, q - p
        for node in first:
            lo[node] += right
            hi[node] += right
        for node in second:
            lo[node] -= left
            hi[node] -= left
        mid = p + right
        gap_node[p + 1 : mid] = second
        gap_node[mid + 1 : r] = first
        order[p:r] = order[q:r] + order[p:q]
        for i in range(p, r):
            pos[order[i]] = i

    def run(self, steps: int) -> None:
        """``steps`` Metropolis steps."""
        steps = check_int(steps, "steps", 0)
        chunk = 65536
        while steps > 0:
            k = min(chunk, steps)
            ys = self.rng.integers(1, self.n - 1, size=k).tolist()
            coins = (self.rng.random(k) < 0.5).tolist()
            us = self.rng.random(k).tolist()
            for y, coin, u in zip(ys, coins, us, strict=True):
                self._step(y, coin, u)
            steps -= k

    def _step(self, y: int, coin: bool, u: float) -> None:
        self.steps += 1
        x = self.par[y]
        k = self.ch1[x] if self.ch0[x] == y else self.ch0[x]
        s, o = (self.ch0[y], self.ch1[y]) if coin else (self.ch1[y], self.ch0[y])
        ls, hs = self._range(s)
        lk, hk = self._range(k)
        lo_, ho = self._range(o)
        size_s, size_k, size_o = hs - ls, hk - lk, ho - lo_
        e_y = self._between(ls, hs, lk, hk)
        n_y = size_s * size_k
        n_x = (size_s + size_k) * size_o
        e_x = self.e[x] + self.e[y] - e_y
        new_ly, new_lx = _f(e_y, n_y), _f(e_x, n_x)
        delta = new_ly + new_lx - self.logl[x] - self.logl[y]
        if delta < 0 and u >= math.exp(self.temperature * delta):
            return
        self.accepted += 1
        # layout: s and k must be adjacent; if o sits between them, swap it with the
        # smaller end block
        if lo_ > min(ls, lk) and lo_ < max(ls, lk):
            (l1, h1), (l3, h3) = sorted(((ls, hs), (lk, hk)))
            if h1 - l1 <= h3 - l3:
                self._swap(l1, lo_, ho)
            else:
                self._swap(lo_, ho, h3)
            ls, hs = self._range(s)
            lk, hk = self._range(k)
            lo_, ho = self._range(o)
        lx = self.lo[x]
        self.ch0[y], self.ch1[y] = s, k
        self.ch0[x], self.ch1[x] = y, o
        if s >= 0:
            self.par[s] = y
        if k >= 0:
            self.par[k] = y
        if o >= 0:
            self.par[o] = x
        ly = min(ls, lk)
        self.lo[y], self.hi[y] = ly, max(hs, hk)
        self.gap_node[max(ls, lk)] = y
        self.gap_node[ho if lo_ == lx else lo_] = x
        self.e[x], self.e[y] = e_x, e_y
        self.pairs[x], self.pairs[y] = n_x, n_y
        self.logl[x], self.logl[y] = new_lx, new_ly


def edge_counts(
    indptr: np.ndarray, indices: np.ndarray, pos: np.ndarray, gap_node: np.ndarray,
    depth: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """e_r for every internal node: each edge (u, v), pos[u] < pos[v], belongs to the
    shallowest internal node whose split lies in (pos[u], pos[v]] — a range-minimum query
    over split depths with a sparse table.  O(n log n + m)."""
    n = pos.size
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    keep = rows < indices
    a, b = pos[rows[keep]], pos[indices[keep]]
    lo, hi = np.minimum(a, b) + 1, np.maximum(a, b) + 1  # gaps [lo, hi)
    gd = np.full(n + 1, n, dtype=np.int64)  # sentinel deeper than any node (depth ≤ n − 2)
    gd[1:n] = depth[gap_node[1:n]]
    key = gd * (n + 1) + np.arange(n + 1)  # depth, then position: argmin by value
    table = [key]
    span = 1
    while 2 * span <= n + 1:
        prev = table[-1]
        table.append(np.minimum(prev[:-span], prev[span:]))
        span *= 2
    length = hi - lo
    level = np.zeros(length.size, dtype=np.int64)
    if length.size:
        level = np.floor(np.log2(np.maximum(length, 1))).astype(np.int64)
    best = np.empty(length.size, dtype=np.int64)
    for j in np.unique(level).tolist():
        sel = level == j
        t = table[j]
        best[sel] = np.minimum(t[lo[sel]], t[hi[sel] - (1 << j)])
    owner = gap_node[best % (n + 1)]
    return np.bincount(owner, minlength=n - 1).astype(np.int64)


def log_likelihood(graph: Any, dendrogram: Dendrogram) -> float:
    """log L(T) of ``graph`` under ``dendrogram`` with the maximum-likelihood p_r = e_r/N_r
    (Clauset et al. 2008).  O(n log n + m)."""
    g = as_graph(graph, "the HRG log-likelihood", undirected=True)
    _check_dendrogram(dendrogram, g.n_nodes)
    if g.n_nodes < 3:
        return 0.0
    chain = DendrogramChain(g, 0.0, start=dendrogram, rng=np.random.default_rng(0))
    return chain.log_likelihood


# ---------------------------------------------------------------------------- the release
@dataclass(frozen=True)
class HRGRelease:
    """The DP-HRG release: the sampled dendrogram, its noisy probabilities, and one graph
    drawn from them.  Nothing here is an exact statistic of the input beyond n (public
    under edge DP)."""

    graph: Graph
    dendrogram: Dendrogram
    probabilities: np.ndarray  # p̃_r per internal node, in [0, 1]
    pairs: np.ndarray  # N_r = |L_r|·|R_r|: a function of the (private) dendrogram, DP
    epsilon: float
    epsilon_hrg: float
    epsilon_edges: float
    sensitivity: float
    temperature: float
    steps: int
    small_subtrees: str
    collapsed_nodes: int
    insecure_seed: bool

    @property
    def expected_edges(self) -> float:
        """Σ_r p̃_r·N_r: the noisy model's expected edge count (post-processing of the DP
        output, not the input's edge count)."""
        return float(np.dot(self.probabilities, self.pairs))

    def to_dict(self) -> dict[str, Any]:
        return {
            "scheme": "dp-hrg",
            "epsilon": self.epsilon,
            "epsilon_hrg": self.epsilon_hrg,
            "epsilon_edges": self.epsilon_edges,
            "sensitivity": self.sensitivity,
            "temperature": self.temperature,
            "laplace_scale": 1.0 / self.epsilon_edges,
            "mcmc_steps": self.steps,
            "small_subtrees": self.small_subtrees,
            "collapsed_nodes": self.collapsed_nodes,
            "nodes": self.graph.n_nodes,
            "expected_edges": round(self.expected_edges, 3),
            "released_edges": self.graph.n_edges,
            "insecure_seed": self.insecure_seed,
        }


def noisy_edge_counts(counts: Any, epsilon_edges: float, *, seed: Any = None) -> np.ndarray:
    """ε2-DP release of disjoint per-node edge counts (L1 sensitivity 1 under edge DP):
    each count plus integer Laplace noise P(z) ∝ exp(−ε2·|z|) — the two-sided geometric
    mechanism, the exact discrete Laplace of scale 1/ε2 (:func:`privlab.dp.mechanisms.laplace`
    on integers).  O(len(counts))."""
    arr = np.asarray(counts, dtype=np.int64)
    return np.asarray(laplace(arr, 1, check_epsilon(epsilon_edges, "epsilon_edges"),
                              seed=seed).value, dtype=np.int64)  # fmt: skip


def _noisy_probabilities(
    chain: DendrogramChain, eps2: float, small_subtrees: str, seed: Any,
) -> tuple[np.ndarray, int]:  # fmt: skip
    """p̃_r for every internal node (clip((e_r + Lap(1/ε2)) / N_r, 0, 1)), and the number
    of nodes inside collapsed subtrees (privHRG's heuristic).  O(n)."""
    m = chain.n - 1
    e = np.asarray(chain.e, dtype=np.int64)
    pairs = np.asarray(chain.pairs, dtype=np.int64)
    if small_subtrees == "keep":
        noisy = noisy_edge_counts(e, eps2, seed=seed).astype(np.float64)
        return np.clip(noisy / pairs, 0.0, 1.0), 0
    # privHRG: top-down; a node with large relative noise and a small subtree becomes one
    # Erdős–Rényi block; its whole subtree gets the block's probability
    size = np.asarray(chain.hi, dtype=np.int64) - np.asarray(chain.lo, dtype=np.int64)
    total = size * (size - 1) // 2
    collapse_here = (1.0 / (pairs * eps2) >= _PRIVHRG_SCALE) & (
        1.0 / (eps2 * total) >= _PRIVHRG_COMMUNITY_SCALE
    )
    head = np.full(m, -1, dtype=np.int64)  # the collapsed ancestor heading each node
    stack = [(0, -1)]
    while stack:
        r, h = stack.pop()
        if h < 0 and collapse_here[r]:
            h = r
        head[r] = h
        for c in (chain.ch0[r], chain.ch1[r]):
            if c >= 0:
                stack.append((c, h))
    heads = np.flatnonzero(head == np.arange(m))
    free = np.flatnonzero(head < 0)
    below = np.bincount(np.where(head >= 0, head, m), weights=e, minlength=m + 1)[:m]
    counts = np.concatenate([e[free], below[heads].astype(np.int64)])
    noisy = noisy_edge_counts(counts, eps2, seed=seed).astype(np.float64)
    p = np.zeros(m)
    p[free] = np.clip(noisy[: free.size] / pairs[free], 0.0, 1.0)
    block = np.zeros(m)
    block[heads] = np.clip(noisy[free.size :] / total[heads], 0.0, 1.0)
    inside = head >= 0
    p[inside] = block[head[inside]]
    return p, int(inside.sum())


def sample_hrg_graph(
    chain: DendrogramChain, probabilities: np.ndarray, rng: np.random.Generator
) -> Graph:
    """A graph from the HRG: each pair owned by r is an edge with probability p_r.  Per
    node a Binomial(N_r, p_r) number of distinct pairs, uniformly.  O(n + M)."""
    n = chain.n
    parts: list[np.ndarray] = []
    counts = rng.binomial(np.asarray(chain.pairs, dtype=np.int64), probabilities)
    order = np.asarray(chain.order, dtype=np.int64)
    for r in np.flatnonzero(counts).tolist():
        c = int(counts[r])
        left, right = chain.ch0[r], chain.ch1[r]
        l0, l1 = chain._range(left)
        r0, r1 = chain._range(right)
        n_right = r1 - r0
        total = (l1 - l0) * n_right
        cells = _distinct(total, c, rng)
        parts.append(np.stack([order[l0 + cells // n_right],
                               order[r0 + cells % n_right]], axis=1))  # fmt: skip
    edges = np.concatenate(parts) if parts else np.zeros((0, 2), dtype=np.int64)
    return Graph.from_edges(n, edges)


def _distinct(total: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` distinct integers from [0, total), uniformly.  O(count) expected."""
    if count * 2 > total:
        return np.sort(rng.permutation(total)[:count]) if count < total else np.arange(total)
    got = np.unique(rng.integers(0, total, size=count))
    while got.size < count:
        more = rng.integers(0, total, size=2 * (count - got.size))
        got = np.unique(np.concatenate([got, more]))
    if got.size > count:
        got = rng.choice(got, size=count, replace=False)
    return got


def dp_hrg(
    graph: Any,
    epsilon: float,
    *,
    hrg_share: float = 0.5,
    steps: int | None = None,
    small_subtrees: str = "keep",
    seed: Any = None,
) -> HRGRelease:
    """ε-edge-DP synthetic graph by Xiao, Chen & Tan's DP-HRG (KDD 2014; module docstring).

    ``epsilon`` is the total; ε1 = hrg_share·ε samples the dendrogram (MCMC simulating the
    exponential mechanism on log L, sensitivity :func:`hrg_sensitivity`), ε2 = ε − ε1
    noises the per-node edge counts (Laplace, sensitivity 1).  ``steps``: MCMC steps
    (default max(1000·n, 100,000)).  ``small_subtrees``: "keep" (the paper) or "privhrg"
    (the authors' program's Erdős–Rényi collapse of small subtrees).  ``seed``: for tests
    only (flagged insecure).  The node count n is public.  O(steps·d̄·h + n log n + m + M).
    """
    eps = check_epsilon(epsilon)
    hint = "the fraction of epsilon spent on the dendrogram; the rest noises the edge counts"
    try:
        share = check_number_in(hrg_share, "hrg_share", 0.0, 1.0, low_open=True)
    except ConfigError:
        share = math.nan
    if not 0.0 < share < 1.0:
        raise ConfigError(f"hrg_share = {hrg_share!r}: give a number in (0, 1) ({hint})")
    small_subtrees = check_choice(small_subtrees, "small_subtrees", ("keep", "privhrg"))
    g = as_graph(graph, "DP-HRG", undirected=True)
    n = g.n_nodes
    if n < 3:
        raise InputError(f"DP-HRG needs a graph with ≥ 3 nodes (got {n})")
    n_steps = max(STEPS_PER_NODE * n, MIN_STEPS) if steps is None else check_int(steps, "steps", 0)
    eps1 = eps * share
    eps2 = eps - eps1
    rng = secure_generator(seed)
    sens = hrg_sensitivity(n)
    temperature = eps1 / (2.0 * sens)
    chain = DendrogramChain(g, temperature, rng=rng)
    chain.run(n_steps)
    chain.refresh()
    probabilities, collapsed = _noisy_probabilities(chain, eps2, small_subtrees, rng)
    released = sample_hrg_graph(chain, probabilities, rng)
    return HRGRelease(
        released,
        chain.dendrogram(),
        probabilities,
        np.asarray(chain.pairs, dtype=np.int64),
        eps,
        eps1,
        eps2,
        sens,
        temperature,
        n_steps,
        small_subtrees,
        collapsed,
        is_insecure_seed(seed),
    )


__all__ = [
    "Dendrogram",
    "DendrogramChain",
    "HRGRelease",
    "dp_hrg",
    "edge_counts",
    "hrg_sensitivity",
    "log_likelihood",
    "noisy_edge_counts",
    "sample_hrg_graph",
]
