"""The phase loops of 3PSL: one attack's state, its score cache and the scorer calls.

Source: seed 004 §2.11 (thesis §5.3.3, L1441–1459; Epinions re-run L1564): Phase 1 scores
all of P1, cleans D = {score > score_cut} and iterates CS-filtered Clean rounds; phases 2
and 3 filter by CS *before* classifying and score only F; each phase caches the scores it
has computed.  Phase 1 scores |P1| pairs (the classifier dominates, L1683); a CS round
costs the sparse product (see :mod:`~privlab.graph.attacks.threepsl.cosine`) plus
O(|F| log |F|) for Clean; memory O(|P1| + |F| + n + m).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.threepsl._bands import _levels, _total_degree
from privlab.graph.attacks.threepsl._checks import Scorer
from privlab.graph.attacks.threepsl.clean import clean_pairs
from privlab.graph.attacks.threepsl.cosine import _Cosine
from privlab.graph.attacks.threepsl.results import IterationInfo


class _Run:
    """State of one attack: the frozen mappings, the caches and the counters."""

    def __init__(self, aux, san, th, funcs, cut, theta, den, order, iters, cap, batch, mask,
                 progress):  # fmt: skip
        self.aux, self.san = aux, san
        self.th, self.funcs, self.cut, self.theta, self.order = th, funcs, cut, theta, order
        self.iters, self.cap, self.batch, self.mask, self.progress = (
            iters, cap, batch, mask, progress,
        )  # fmt: skip
        self.deg_a = _total_degree(aux)
        self.deg_s = _total_degree(san)
        self.lev_a = _levels(self.deg_a, th)
        self.lev_s = _levels(self.deg_s, th)
        self.cos = _Cosine(aux, san, den)
        self.n_san = san.n_nodes
        # frozen mappings, as lists of arrays per phase
        self.frozen_u: list[np.ndarray] = []
        self.frozen_v: list[np.ndarray] = []
        self.frozen_p: list[np.ndarray] = []
        self.phase_count = [0, 0, 0]
        self.iterations = [0, 0, 0]
        self.converged = [True, True, True]
        self.filtered = [0, 0, 0]
        self.scored = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.caches: dict[int, _ScoreCache] = {}
        self.rerun_iterations = 0
        self.rerun_converged = True

    # ------------------------------------------------------------------ helpers
    def band_sizes(self) -> tuple[int, int, int]:
        na = [int((self.lev_a >= lv).sum()) for lv in (3, 2, 1)]
        ns = [int((self.lev_s >= lv).sum()) for lv in (3, 2, 1)]
        tot = [a * s for a, s in zip(na, ns, strict=True)]
        return (tot[0], tot[1] - tot[0], tot[2] - tot[1])

    def frozen_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not self.frozen_u:
            e = np.empty(0, np.int64)
            return e, e, np.empty(0, np.int8)
        return (np.concatenate(self.frozen_u), np.concatenate(self.frozen_v),
                np.concatenate(self.frozen_p))  # fmt: skip

    def _score(self, phase: int, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        out = np.empty(u.size, dtype=np.float64)
        f = self.funcs[phase - 1]
        for lo in range(0, u.size, self.batch):
            hi = min(lo + self.batch, u.size)
            out[lo:hi] = _call_scorer(f, phase, u[lo:hi], v[lo:hi])
        self.scored[phase - 1] += int(u.size)
        return out

    def _masked(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Boolean: pair allowed by ``pair_mask`` (all True without a mask)."""
        if self.mask is None:
            return np.ones(u.size, dtype=bool)
        m = np.asarray(self.mask(u, v))
        if m.shape != (u.size,):
            raise InputError(f"pair_mask returned shape {m.shape} for {u.size} pairs")
        return m.astype(bool)

    def _clean(self, u, v, score, cs):
        if self.order == "score":
            keep = clean_pairs(u, v, score, cs)
        else:
            keep = clean_pairs(u, v, cs, score)
        keep = np.sort(keep)  # stable storage: by input order, then sorted by u below
        uu, vv = u[keep], v[keep]
        o = np.argsort(uu)
        return uu[o], vv[o]

    def _report(self, phase, it, mu, mv, filtered, scored, base_u, base_v):
        """Call ``progress`` with the current mapping: base pairs ∪ (mu, mv)."""
        if self.progress is None:
            return
        pairs = np.stack([np.concatenate([base_u, mu]), np.concatenate([base_v, mv])], axis=1)
        pairs = pairs[np.argsort(pairs[:, 0], kind="stable")]
        self.progress(IterationInfo(phase, it, int(mu.size), int(pairs.shape[0]),
                                    int(filtered), int(scored), pairs))  # fmt: skip

    def _check_cap(self, n: int, what: str) -> None:
        if n > self.cap:
            raise ConfigError(
                f"{what} has {n} pairs, more than max_pairs = {self.cap}; raise max_pairs "
                "(memory grows by ~8 bytes per pair for scores, more for features), raise the "
                "degree thresholds or cs_threshold"
            )

    # ------------------------------------------------------------------ phase 1
    def phase1(self) -> np.ndarray:
        t0 = time.perf_counter()
        a1 = np.flatnonzero(self.lev_a >= 3)
        s1 = np.flatnonzero(self.lev_s >= 3)
        total = a1.size * s1.size
        self._check_cap(total, f"Phase 1 (degree > t1 = {self.th[0]} on both sides)")
        ns = s1.size
        scores = np.full(total, -1.0)  # −1: masked out, never a candidate
        step = max(self.batch, 1)
        for lo in range(0, total, step):
            idx = np.arange(lo, min(lo + step, total), dtype=np.int64)
            u, v = a1[idx // ns], s1[idx % ns]
            ok = self._masked(u, v)
            if ok.all():
                scores[idx] = self._score(1, u, v)
            elif ok.any():
                scores[idx[ok]] = self._score(1, u[ok], v[ok])
        self.p1 = (a1, s1, scores)
        pos_a = np.full(self.aux.n_nodes, -1, dtype=np.int64)
        pos_a[a1] = np.arange(a1.size)
        pos_s = np.full(self.n_san, -1, dtype=np.int64)
        pos_s[s1] = np.arange(ns)
        self.p1_pos = (pos_a, pos_s)
        d = np.flatnonzero(scores > self.cut)
        du, dv = a1[d // ns], s1[d % ns]
        keep = clean_pairs(du, dv, scores[d])
        mu, mv = du[keep], dv[keep]
        o = np.argsort(mu)
        mu, mv = mu[o], mv[o]
        initial = np.stack([mu, mv], axis=1)
        e = np.empty(0, np.int64)
        self._report(1, 0, mu, mv, d.size, self.scored[0], e, e)
        mu, mv, it, conv = self._loop1(mu, mv, None, None)
        self.iterations[0], self.converged[0] = it, conv
        self._freeze(1, mu, mv)
        self.seconds[0] += time.perf_counter() - t0
        return initial

    def _context(self, mu, mv, ctx_u, ctx_v) -> tuple[np.ndarray, np.ndarray]:
        """The re-run's context pairs that do not clash with the mapping (mu, mv)."""
        if ctx_u is None or ctx_u.size == 0:
            e = np.empty(0, np.int64)
            return e, e
        used_a = np.zeros(self.aux.n_nodes, bool)
        used_a[mu] = True
        used_s = np.zeros(self.n_san, bool)
        used_s[mv] = True
        ok = ~(used_a[ctx_u] | used_s[ctx_v])
        return ctx_u[ok], ctx_v[ok]

    def _p1_scores(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        _, s1, scores = self.p1
        pos_a, pos_s = self.p1_pos
        return scores[pos_a[u] * s1.size + pos_s[v]]

    def _loop1(self, mu, mv, ctx_u, ctx_v):
        """Phase 1 rounds from M = (mu, mv); ctx pairs (re-run only) add CS context."""
        a1, s1, _ = self.p1
        it, conv = 0, False
        while it < self.iters[0]:
            it += 1
            cu, cv = self._context(mu, mv, ctx_u, ctx_v)
            bu, bv = np.concatenate([mu, cu]), np.concatenate([mv, cv])
            fu, fv, fc = self.cos.candidates(bu, bv, a1, s1, self.theta)
            fs = self._p1_scores(fu, fv)
            ok = fs >= 0.0
            fu, fv, fc, fs = fu[ok], fv[ok], fc[ok], fs[ok]
            self.filtered[0] += int(fu.size)
            nu, nv = self._clean(fu, fv, fs, fc)
            if self.progress is not None:
                cu, cv = self._context(nu, nv, ctx_u, ctx_v)
                self._report(1, it, nu, nv, fu.size, 0, cu, cv)
            same = np.array_equal(nu, mu) and np.array_equal(nv, mv)
            mu, mv = nu, nv
            if same:
                conv = True
                break
        return mu, mv, it, conv

    # ------------------------------------------------------------------ phases 2, 3
    def later_phase(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        t0 = time.perf_counter()
        lv = 4 - k  # level needed: phase 2 → 2, phase 3 → 1
        fu0, fv0, _ = self.frozen_arrays()
        frozen_a = np.zeros(self.aux.n_nodes, bool)
        frozen_a[fu0] = True
        frozen_s = np.zeros(self.n_san, bool)
        frozen_s[fv0] = True
        rows = np.flatnonzero((self.lev_a >= lv) & ~frozen_a)
        cols = np.flatnonzero((self.lev_s >= lv) & ~frozen_s)
        skip_r = self.lev_a >= lv + 1
        skip_c = self.lev_s >= lv + 1
        cache = self.caches.setdefault(k, _ScoreCache(self.n_san))
        mu = mv = np.empty(0, np.int64)
        it, conv = 0, False
        while it < self.iters[k - 1]:
            it += 1
            bu = np.concatenate([fu0, mu])
            bv = np.concatenate([fv0, mv])
            cu, cv, cc = self.cos.candidates(bu, bv, rows, cols, self.theta,
                                             skip_rows=skip_r, skip_cols=skip_c)  # fmt: skip
            if self.mask is not None and cu.size:
                ok = self._masked(cu, cv)
                cu, cv, cc = cu[ok], cv[ok], cc[ok]
            self._check_cap(cu.size, f"Phase {k}'s filtered set F (round {it})")
            self.filtered[k - 1] += int(cu.size)
            before = self.scored[k - 1]
            cs_scores = cache.get(cu, cv, lambda a, b, k=k: self._score(k, a, b))
            nu, nv = self._clean(cu, cv, cs_scores, cc)
            self._report(k, it, nu, nv, cu.size, self.scored[k - 1] - before, fu0, fv0)
            same = np.array_equal(nu, mu) and np.array_equal(nv, mv)
            mu, mv = nu, nv
            if same:
                conv = True
                break
        self.iterations[k - 1], self.converged[k - 1] = it, conv
        self._freeze(k, mu, mv)
        self.seconds[k - 1] += time.perf_counter() - t0
        return mu, mv

    def _freeze(self, k: int, mu: np.ndarray, mv: np.ndarray) -> None:
        self.frozen_u.append(mu)
        self.frozen_v.append(mv)
        self.frozen_p.append(np.full(mu.size, k, dtype=np.int8))
        self.phase_count[k - 1] += int(mu.size)

    def reset_phase(self, k: int) -> None:
        """Forget the frozen mappings of phase k (the re-run variant discards Phase 2)."""
        keep = [i for i, p in enumerate(self.frozen_p) if not (p.size and p[0] == k)]
        self.frozen_u = [self.frozen_u[i] for i in keep]
        self.frozen_v = [self.frozen_v[i] for i in keep]
        self.frozen_p = [self.frozen_p[i] for i in keep]
        self.phase_count[k - 1] = 0

    def rerun_phase1(self, m2: tuple[np.ndarray, np.ndarray]) -> None:
        """Thesis L1564: re-run Phase 1 with the Phase 1 and Phase 2 mappings."""
        t0 = time.perf_counter()
        idx = [i for i, p in enumerate(self.frozen_p) if p.size and p[0] == 1]
        mu = np.concatenate([self.frozen_u[i] for i in idx]) if idx else np.empty(0, np.int64)
        mv = np.concatenate([self.frozen_v[i] for i in idx]) if idx else np.empty(0, np.int64)
        mu, mv, it, conv = self._loop1(mu, mv, m2[0], m2[1])
        self.rerun_iterations = it
        self.frozen_u, self.frozen_v, self.frozen_p = [], [], []
        self.phase_count = [0, 0, 0]
        self._freeze(1, mu, mv)
        self.rerun_converged = conv
        self.seconds[0] += time.perf_counter() - t0


class _ScoreCache:
    """Classifier scores of the pairs already scored in one phase (key u·n_san + v)."""

    def __init__(self, n_san: int):
        self.n_san = n_san
        self.keys = np.empty(0, dtype=np.int64)
        self.vals = np.empty(0, dtype=np.float64)

    def get(self, u: np.ndarray, v: np.ndarray, score: Callable) -> np.ndarray:
        q = u * self.n_san + v
        pos = np.searchsorted(self.keys, q)
        pc = np.minimum(pos, max(self.keys.size - 1, 0))
        hit = (pos < self.keys.size) & (self.keys[pc] == q) if self.keys.size else (
            np.zeros(q.size, bool)
        )  # fmt: skip
        out = np.empty(q.size, dtype=np.float64)
        out[hit] = self.vals[pc[hit]]
        miss = np.flatnonzero(~hit)
        if miss.size:
            s = score(u[miss], v[miss])
            out[miss] = s
            keys = np.concatenate([self.keys, q[miss]])
            vals = np.concatenate([self.vals, s])
            o = np.argsort(keys, kind="stable")
            self.keys, self.vals = keys[o], vals[o]
        return out


def _call_scorer(f: Scorer, phase: int, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    out = np.asarray(f(u, v), dtype=np.float64)
    if out.shape != (u.size,):
        raise InputError(
            f"the phase {phase} scorer returned shape {out.shape} for {u.size} pairs; it must "
            "return one probability per pair"
        )
    if out.size and not (np.isfinite(out).all() and out.min() >= 0.0 and out.max() <= 1.0):
        bad = float(out[~(np.isfinite(out) & (out >= 0.0) & (out <= 1.0))][0])
        raise InputError(
            f"the phase {phase} scorer returned {bad!r}; scores must be probabilities in [0, 1]"
        )
    return out
