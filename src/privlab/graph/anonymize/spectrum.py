"""Spectrum-preserving randomization: Spctr Add/Del and Spctr Switch (Ying & Wu, SDM 2008).

Source: X. Ying and X. Wu, "Randomizing social networks: a spectrum preserving approach",
SDM 2008 (§4, Tables 2–3 and Algorithm 1); named among the perturbation schemes of seed 004
§2.9 ("Ying & Wu spectrum-preserving RAD/RSW", thesis Ch. 2) and of issue #16.

Plain RAD and RSW (:mod:`privlab.graph.anonymize.perturb`) move the graph's spectrum at
random.  Ying & Wu keep two eigenvalues that summarise much of a graph's structure close to
the original's: the largest adjacency eigenvalue λ1 (tied to paths, diameter, epidemic
threshold) and the algebraic connectivity μ2, the second-smallest Laplacian eigenvalue (tied
to connectivity and cuts).  A candidate change — one deletion plus one insertion, or one
switch — is accepted only when its first-order effect moves each eigenvalue back towards its
original value.  With x the unit principal eigenvector of A and y the unit Fiedler vector of
L = D − A, standard first-order perturbation theory gives, for a change that adds the pairs
E⁺ and removes the pairs E⁻,

    Δλ1 ≈ 2·(Σ_{(a,b)∈E⁺} x_a x_b − Σ_{(a,b)∈E⁻} x_a x_b),
    Δμ2 ≈ Σ_{(a,b)∈E⁺} (y_a − y_b)² − Σ_{(a,b)∈E⁻} (y_a − y_b)².

For a switch (t,w),(u,v) → (t,v),(u,w) these are Δλ1 ≈ 2(x_t − x_u)(x_v − x_w) and
Δμ2 ≈ −2(y_t − y_u)(y_v − y_w): exactly the paper's Table 3 conditions ("(x_t − x_u)(x_v −
x_w) > 0 increases λ1"); for Add/Del the paper's Table 2.  The paper's rule (Algorithm 1,
rows 6–11): while the perturbed value λ̃1 is above λ1, choose a change that decreases it,
else one that increases it; the same for μ2.  We accept a random candidate iff, for both
eigenvalues, its estimated change has the sign the rule asks for (any sign while the value
equals the original) — or, with ``tolerance`` τ > 0, iff the estimated new value stays inside
the band [v·(1 − τ), v·(1 + τ)] around the original v (the paper's "within a bound").

The current values are tracked by adding the estimated changes; every ⌈changes/refreshes⌉
accepted changes the eigenpairs are recomputed exactly on the current graph (ARPACK
``eigsh``; dense ``eigh`` below :data:`DENSE_UP_TO` nodes), which the paper does once (its
row 2; ``refreshes=0`` reproduces that).  Refreshes solve to full accuracy: an unconverged
iterative estimate of μ2 is a Rayleigh quotient, biased upwards, and a controller fed values
that are too high pushes the true μ2 below the original (measured on ca-GrQc).  The result
reports the exact λ1 and μ2 of the original and of the release: the property the scheme
exists for is measured, not assumed.

μ2 of a disconnected graph is 0 whatever the change, and a single deletion that cuts off a
leaf would make it 0 for good; so μ2 is, throughout, the algebraic connectivity of the largest
connected component of the graph at hand (the original's, the current graph's at each
refresh, the release's), as it is usually reported for real, disconnected graphs (ca-GrQc
has 355 components).  Pairs with an end outside that component do not enter the μ2
estimate.  A switch joining that component to another one changes the component itself,
which no first-order estimate sees (a pendant path hung on it can divide μ2 by ten), so
Spctr Switch proposes no switch that creates an edge between the component and the rest;
measured on ca-GrQc at fraction 0.2 this took Δμ2 from −0.033 to +0.007.  Spctr Add/Del
keeps such insertions: its deletions cut leaves off the component, and the insertions that
hang nodes back on are what keeps μ2 from rising (the same measurement went from −0.002 to
+0.045 without them).  Deletions may split the component; the refreshes then follow the new
largest one.  The component sizes are reported with the values.

Counts are those of RAD and RSW, so releases compare at equal ``fraction``: Spctr Add/Del
makes m = ⌊f·|E|⌉ deletions of original edges and m insertions of original non-edges
(|E \\ E'| = |E' \\ E| = m, |E'| = |E|); Spctr Switch makes s = ⌊f·⌊|E|/2⌋⌉ switches of
two not-yet-switched original edges into two pairs that are non-edges of the original and of
the release so far (|E \\ E'| = |E' \\ E| = 2s, every degree kept).

Cost: candidates are drawn and scored in vectorized batches, then accepted in one sequential
pass (the acceptance of each depends on the running estimate): O(c) for c candidates plus
O(m log m) bookkeeping and (refreshes + 1) eigensolves of the sparse A and L (Lanczos; L by
shift-invert, one sparse LU each).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.noise import secure_generator
from privlab.errors import InfeasibleError
from privlab.graph.anonymize.perturb import (
    _UNCHANGED,
    Perturbation,
    _check_insertions,
    _count,
    _graph_from_ids,
    _member,
    _n_pairs,
    _pair_index,
    _pair_index_uv,
    _result,
    _sample_absent,
)
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_int, check_number_in

DENSE_UP_TO = 32  # nodes: dense eigh up to this (ARPACK needs more nodes than eigenpairs)
STALL_BATCHES = 50  # batches in a row without an accepted candidate before giving up
LOBPCG_FROM = 2000  # nodes: warm-started LOBPCG above this (below, a sparse LU is cheap)
MIN_BATCH = 4096  # candidates scored at once (the acceptable ones can be rare near the end)


# ============================================================================ the spectrum
@dataclass(frozen=True)
class SpectralSummary:
    """λ1 of the adjacency matrix and μ2 of the Laplacian of the subgraph on ``mu2_nodes``."""

    lambda1: float
    mu2: float
    mu2_nodes: int

    def to_dict(self) -> dict[str, Any]:
        return {"lambda1": self.lambda1, "mu2": self.mu2, "mu2_nodes": self.mu2_nodes}


def largest_component(graph: Graph) -> np.ndarray:
    """Boolean mask of the largest connected component (the lowest-numbered on ties).  O(m)."""
    from scipy.sparse.csgraph import connected_components

    if graph.n_nodes == 0:
        return np.zeros(0, dtype=bool)
    _, comp = connected_components(graph.to_scipy(), directed=False)
    return comp == np.argmax(np.bincount(comp))


def adjacency_lambda1(graph: Graph, start: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """λ1, the largest eigenvalue of the adjacency matrix, and a unit eigenvector with a
    non-negative sum (Perron vector of the component that attains λ1).  Lanczos from
    ``start`` (default: all ones), O(m) per iteration; dense up to :data:`DENSE_UP_TO`
    nodes."""
    n = graph.n_nodes
    if n == 0:
        return 0.0, np.zeros(0)
    a = graph.to_scipy().astype(np.float64)
    if n <= DENSE_UP_TO:
        w, v = np.linalg.eigh(a.toarray())
        val, vec = float(w[-1]), v[:, -1]
    else:
        from scipy.sparse.linalg import eigsh

        v0 = np.ones(n) if start is None or not np.any(start) else np.abs(start) + 1e-9
        w, v = eigsh(a, k=1, which="LA", v0=v0, tol=1e-10)
        val, vec = float(w[0]), v[:, 0]
    return val, vec if vec.sum() >= 0 else -vec


def laplacian_mu2(
    graph: Graph, nodes: np.ndarray | None = None, start: np.ndarray | None = None,
    *, exact: bool = True,
) -> tuple[float, np.ndarray]:  # fmt: skip
    """μ2, the second-smallest eigenvalue of the Laplacian of the subgraph induced by the mask
    ``nodes`` (default: all), and a unit Fiedler vector on all nodes (zero outside ``nodes``).

    Without ``start``: shift-invert Lanczos about σ = −10⁻³ (one sparse LU with a symmetric
    minimum-degree ordering, then O(fill) per iteration) — fast on real graphs, whose LU
    stays sparse.  With ``start`` (a previous Fiedler vector): first LOBPCG on L restricted
    to the complement of the constant vector, Jacobi-preconditioned, started from it (O(m)
    per iteration; random edges make the LU of a perturbed graph fill in, LOBPCG does not
    care; below :data:`LOBPCG_FROM` nodes the LU is cheap and always used); ``exact=False``
    returns its estimate after 200 iterations unchecked, otherwise it is kept
    only when its residual ‖Ly − μ2·y‖ is below 10⁻⁶·(1 + max degree), else shift-invert
    decides.  Dense up to :data:`DENSE_UP_TO` nodes.  0 with a
    zero vector for fewer than two nodes.
    """
    n = graph.n_nodes
    mask = np.ones(n, dtype=bool) if nodes is None else np.asarray(nodes, dtype=bool)
    idx = np.flatnonzero(mask)
    out = np.zeros(n)
    if idx.size < 2:
        return 0.0, out
    from scipy import sparse

    a = graph.to_scipy().astype(np.float64)[idx][:, idx]
    deg = np.asarray(a.sum(axis=1)).ravel()
    lap = (sparse.diags(deg) - a).tocsr()
    if idx.size <= DENSE_UP_TO:
        w, v = np.linalg.eigh(lap.toarray())
        val, vec = float(w[1]), v[:, 1]
    else:
        val, vec = _fiedler_sparse(lap, deg, None if start is None else start[idx], exact)
    out[idx] = vec / max(np.linalg.norm(vec), 1e-300)
    return max(val, 0.0), out


def _fiedler_sparse(lap, deg, start, exact: bool) -> tuple[float, np.ndarray]:
    import warnings

    from scipy import sparse
    from scipy.sparse.linalg import LinearOperator, eigsh, lobpcg, splu

    k = lap.shape[0]
    rng = np.random.default_rng(0)  # numerical start only: the result does not depend on it
    x = rng.standard_normal((k, 3))
    if start is not None and np.any(start):
        x[:, 0] = start
    precond = sparse.diags(1.0 / np.maximum(deg, 1.0))
    limit = 1e-6 * (1.0 + float(deg.max()))
    if start is not None and np.any(start) and k > LOBPCG_FROM:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                w, v = lobpcg(lap, x, Y=np.ones((k, 1)), M=precond, largest=False,
                              tol=1e-9, maxiter=1000 if exact else 200)  # fmt: skip
            except (np.linalg.LinAlgError, ValueError):
                w = None
        if w is not None:
            i = int(np.argmin(w))
            vec = v[:, i]
            if not exact or np.linalg.norm(lap @ vec - w[i] * vec) <= limit * np.linalg.norm(vec):
                return float(w[i]), vec
    shifted = (lap + 1e-3 * sparse.identity(k, format="csr")).tocsc()
    lu = splu(shifted, permc_spec="MMD_AT_PLUS_A", options={"SymmetricMode": True})
    op = LinearOperator((k, k), matvec=lu.solve, dtype=np.float64)
    w, v = eigsh(lap, k=2, sigma=-1e-3, which="LM", OPinv=op, tol=1e-10,
                 v0=np.linspace(1.0, 2.0, k))  # fmt: skip
    order = np.argsort(w)
    return float(w[order[1]]), v[:, order[1]]


def spectral_summary(graph: Any, nodes: np.ndarray | None = None) -> SpectralSummary:
    """λ1 and μ2 of an undirected graph; μ2 on the mask ``nodes`` (default: the largest
    connected component, so that a disconnected graph does not give 0)."""
    g = as_graph(graph, "spectral summary", undirected=True)
    mask = largest_component(g) if nodes is None else np.asarray(nodes, dtype=bool)
    return SpectralSummary(adjacency_lambda1(g)[0], laplacian_mu2(g, mask)[0], int(mask.sum()))


# ============================================================================ the schemes
def spectrum_add_delete(
    graph: Graph, fraction: float, *, tolerance: float = 0.0, refreshes: int = 10,
    seed: Any = None,
) -> Perturbation:  # fmt: skip
    """Spctr Add/Del (Ying & Wu 2008, Algorithm 1 with Table 2): m = ⌊fraction·|E|⌉ pairs of
    one deletion of an original edge and one insertion of an original non-edge, each pair
    accepted only when it moves λ1 and μ2 towards their original values (module docstring).

    ``tolerance`` τ ∈ [0, 1]: also accept changes whose estimated new values stay within a
    relative band τ of the originals.  ``refreshes`` ≥ 0: exact eigensolves during the run.
    ConfigError if m exceeds the non-edges; InfeasibleError if no candidate is accepted for
    :data:`STALL_BATCHES` batches in a row.  Cost: module docstring.
    """
    what = "spectrum-preserving add/delete (Spctr Add/Del)"
    g, f, tol, refreshes, rng = _inputs(graph, fraction, tolerance, refreshes, seed, what)
    n, edges = g.n_nodes, g.edges()
    keys0 = _pair_index(edges, n)
    m = _count(f, keys0.size)
    free = _n_pairs(n) - keys0.size
    _check_insertions(f, m, free, keys0.size)
    run = _Controller(g, tol, refreshes, m, "Spctr Add/Del")
    deleted = np.zeros(keys0.size, dtype=bool)
    added: set[int] = set()
    while run.done < m:
        batch = max(MIN_BATCH, 2 * (m - run.done))
        pool = np.flatnonzero(~deleted)
        di = pool[rng.integers(0, pool.size, size=batch)]
        ins = _sample_absent(n, keys0, min(batch, free), rng)
        ins = rng.permutation(ins)
        batch = min(batch, ins.size)
        di = di[:batch]
        p, q = _pairs(ins, n)
        i, j = edges[di, 0], edges[di, 1]
        dl = 2.0 * (run.x[p] * run.x[q] - run.x[i] * run.x[j])
        dm = run.c(p, q) - run.c(i, j)
        d_list, k_list = di.tolist(), ins.tolist()
        for c in run.scan(dl, dm):
            if deleted[d_list[c]] or k_list[c] in added:
                continue
            deleted[d_list[c]] = True
            added.add(k_list[c])
            if run.take(dl[c], dm[c], lambda: _graph_from_ids(g, _ids(keys0[~deleted], added))):
                break  # done, or rescore the rest with the refreshed eigenvectors
        run.end_batch(batch)
    out = _graph_from_ids(g, _ids(keys0[~deleted], added))
    params = {"fraction": f, "m": m, **run.report(out), "candidates": run.tried}
    return _result(g, out, "SPCTR-AD", params, m, m, seed)


def spectrum_switch(
    graph: Graph, fraction: float, *, tolerance: float = 0.0, refreshes: int = 10,
    seed: Any = None,
) -> Perturbation:  # fmt: skip
    """Spctr Switch (Ying & Wu 2008, Algorithm 1 with Table 3): s = ⌊fraction·⌊|E|/2⌋⌉
    degree-preserving switches (t,w),(u,v) → (t,v),(u,w) of two not-yet-switched original
    edges into two pairs that are non-edges of the original and of the release so far, each
    accepted only when it moves λ1 and μ2 towards their original values.

    Every degree is kept and |E \\ E'| = |E' \\ E| = 2s, as plain RSW at the same fraction
    (:func:`~privlab.graph.anonymize.perturb.random_switch`).  ``tolerance`` and
    ``refreshes``: :func:`spectrum_add_delete`.  InfeasibleError if no candidate is accepted
    for :data:`STALL_BATCHES` batches in a row (near fraction 1 the leftover edges may admit
    no valid switch; RSW's tail is not repeated here).  Cost: module docstring.
    """
    what = "spectrum-preserving switch (Spctr Switch)"
    g, f, tol, refreshes, rng = _inputs(graph, fraction, tolerance, refreshes, seed, what)
    n, edges = g.n_nodes, g.edges()
    keys0 = _pair_index(edges, n)
    s = _count(f, edges.shape[0] // 2)
    run = _Controller(g, tol, refreshes, s, "Spctr Switch")
    switched = np.zeros(keys0.size, dtype=bool)
    created: set[int] = set()
    while run.done < s:
        pool = np.flatnonzero(~switched)
        if pool.size < 2:
            run.stalled()
        batch = max(MIN_BATCH, 3 * (s - run.done))
        i1 = pool[rng.integers(0, pool.size, size=batch)]
        i2 = pool[rng.integers(0, pool.size, size=batch)]
        flip = rng.random(batch) < 0.5
        t, w = edges[i1, 0], edges[i1, 1]
        u = np.where(flip, edges[i2, 1], edges[i2, 0])
        v = np.where(flip, edges[i2, 0], edges[i2, 1])
        k1, k2 = _pair_index_uv(t, v, n), _pair_index_uv(u, w, n)
        valid = (i1 != i2) & (t != u) & (t != v) & (w != u) & (w != v) & (k1 != k2)
        valid &= ~_member(keys0, k1) & ~_member(keys0, k2)
        valid &= ~run.straddles(t, v) & ~run.straddles(u, w)  # module docstring
        x = run.x
        dl = 2.0 * (x[t] - x[u]) * (x[v] - x[w])
        dm = run.c(t, v) + run.c(u, w) - run.c(t, w) - run.c(u, v)
        cand = np.flatnonzero(valid)
        e1s, e2s, n1s, n2s = (col[cand].tolist() for col in (i1, i2, k1, k2))
        dl, dm = dl[cand], dm[cand]
        for c in run.scan(dl, dm):
            e1, e2, n1, n2 = e1s[c], e2s[c], n1s[c], n2s[c]
            if switched[e1] or switched[e2] or n1 in created or n2 in created:
                continue
            switched[e1] = switched[e2] = True
            created.update((n1, n2))
            if run.take(dl[c], dm[c], lambda: _graph_from_ids(g, _ids(keys0[~switched], created))):
                break
        run.tried += batch - cand.size  # the invalid ones
        run.end_batch(cand.size)
    out = _graph_from_ids(g, _ids(keys0[~switched], created))
    params = {"fraction": f, "edge_pairs": edges.shape[0] // 2, "s": s, **run.report(out),
              "candidates": run.tried}  # fmt: skip
    return _result(g, out, "SPCTR-SW", params, 2 * s, 2 * s, seed)


# ============================================================================ machinery
class _Controller:
    """The eigen-estimates of a run: targets, current values, eigenvectors, acceptance rule."""

    def __init__(self, g: Graph, tol: float, refreshes: int, total: int, name: str) -> None:
        self.name, self.total = name, total
        self.done = self.tried = self.accepted = self.stall = self.valid = 0
        self.mask = largest_component(g)
        self.lam0, self.x = adjacency_lambda1(g)
        self.mu0, self.y = laplacian_mu2(g, self.mask)
        self.nodes0 = int(self.mask.sum())
        self.lam, self.mu = self.lam0, self.mu0
        self.tol = tol
        self.every = math.ceil(total / refreshes) if refreshes and total else 0
        self.since = 0
        self.refreshes = 0
        self.y_in = np.where(self.mask, self.y, np.nan)  # NaN outside: no μ2 contribution

    def straddles(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Pairs with one end in the μ2 component and one outside it."""
        return self.mask[a] != self.mask[b]

    def c(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(y_a − y_b)² for pairs inside the μ2 component, else 0."""
        d = (self.y_in[a] - self.y_in[b]) ** 2
        return np.nan_to_num(d, nan=0.0)

    def ok(self, dl: float, dm: float) -> bool:
        return _moves_back(self.lam, self.lam0, dl, self.tol) and _moves_back(
            self.mu, self.mu0, dm, self.tol
        )

    def scan(self, dl: np.ndarray, dm: np.ndarray) -> Iterator[int]:
        """The batch's candidates the rule allows, in order, judged against the values as
        they stand when each is reached (the caller accepts them through :meth:`take`).
        With tolerance 0 the rule depends only on the side of the original each value is
        on, so the candidates allowed on each side are found at once and only they are
        visited (on ego-Facebook the rule refuses > 99 % of them)."""
        count = dl.size
        self.tried += count
        if self.tol:
            yield from (c for c in range(count) if self.ok(float(dl[c]), float(dm[c])))
            return
        allowed: dict[tuple[int, int], np.ndarray] = {}
        pos = 0
        while pos < count:
            side = self.side()
            if side not in allowed:
                allowed[side] = np.flatnonzero(_fits(dl, side[0]) & _fits(dm, side[1]))
            idx = allowed[side]
            moved = False
            for c in idx[np.searchsorted(idx, pos) :].tolist():
                pos = c + 1
                yield c
                if self.side() != side:
                    moved = True
                    break
            if not moved:
                return

    def side(self) -> tuple[int, int]:
        return _side(self.lam, self.lam0), _side(self.mu, self.mu0)

    def take(self, dl: float, dm: float, current) -> bool:
        """Account for an accepted change; True when the batch must end: all changes made,
        or a refresh (on ``current()``, the graph now) made the batch's scores stale."""
        self.lam += float(dl)
        self.mu += float(dm)
        self.since += 1
        self.done += 1
        self.accepted += 1
        if self.done == self.total:
            return True
        if self.every and self.since >= self.every:
            self.refresh(current())
            return True
        return False

    def end_batch(self, valid: int) -> None:
        """After a batch with ``valid`` candidates that were valid changes of the graph."""
        self.valid = 0 if self.accepted else self.valid + valid
        self.stall = 0 if self.accepted else self.stall + 1
        self.accepted = 0
        if self.stall >= STALL_BATCHES:
            self.stalled()

    def stalled(self) -> None:
        why = (
            "none was a valid change (each would make a self-loop or an edge that exists or "
            "existed); lower `fraction`"
            if self.valid == 0
            else f"{self.valid} were valid but none moved λ1 and μ2 back towards the "
            "original; lower `fraction` or raise `tolerance`"
        )
        raise InfeasibleError(
            f"{self.name}: {self.done} of the {self.total} changes made, then "
            f"{STALL_BATCHES} batches of candidates ({self.tried} tried in all): {why}"
        )

    def refresh(self, current: Graph) -> None:
        self.lam, self.x = adjacency_lambda1(current, self.x)
        self.mask = largest_component(current)
        self.mu, self.y = laplacian_mu2(current, self.mask, self.y)
        self.y_in = np.where(self.mask, self.y, np.nan)
        self.since = 0
        self.refreshes += 1

    def report(self, out: Graph) -> dict[str, Any]:
        lam1 = adjacency_lambda1(out, self.x)[0]
        mask = largest_component(out)
        mu2 = laplacian_mu2(out, mask, np.where(mask, self.y, 0.0))[0]
        return {
            "tolerance": self.tol, "refreshes": self.refreshes,
            "lambda1_original": self.lam0, "lambda1_release": lam1,
            "mu2_original": self.mu0, "mu2_release": mu2, "mu2_nodes_original": self.nodes0,
            "mu2_nodes_release": int(mask.sum()),
        }  # fmt: skip


def _side(cur: float, target: float) -> int:
    return int(cur > target) - int(cur < target)


def _fits(delta: np.ndarray, side: int) -> np.ndarray:
    """The changes the rule allows on ``side`` of the original (tolerance 0)."""
    if side > 0:
        return delta <= 0
    if side < 0:
        return delta >= 0
    return np.ones(delta.shape, dtype=bool)


def _moves_back(cur: float, target: float, delta: float, tol: float) -> bool:
    """The paper's rule: above the original, go down; below it, go up; at it, either way.
    With tol > 0, a new value within the relative band tol of the original is also fine."""
    new = cur + delta
    if tol and abs(new - target) <= tol * abs(target):
        return True
    if cur > target:
        return delta <= 0
    if cur < target:
        return delta >= 0
    return True


def _inputs(graph, fraction, tolerance, refreshes, seed, what):
    from privlab.validate import check_fraction

    g = as_graph(graph, what, undirected=True)
    f = check_fraction(fraction, "fraction", low_open=False, hint=_UNCHANGED)
    hint = "0 is the paper's rule: every change moves the eigenvalue back to the original"
    tol = check_number_in(tolerance, "tolerance", 0.0, 1.0, hint=hint)
    r = check_int(refreshes, "refreshes", 0, hint="0 computes the eigenvectors once")
    return g, f, float(tol), r, secure_generator(seed)


def _pairs(ids: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    from privlab.graph.anonymize.perturb import _pair_from_index

    uv = _pair_from_index(ids, n)
    return uv[:, 0], uv[:, 1]


def _ids(kept: np.ndarray, new: set[int]) -> np.ndarray:
    return np.concatenate([kept, np.fromiter(new, dtype=np.int64, count=len(new))])


__all__ = [
    "SpectralSummary",
    "adjacency_lambda1",
    "laplacian_mu2",
    "largest_component",
    "spectral_summary",
    "spectrum_add_delete",
    "spectrum_switch",
]
