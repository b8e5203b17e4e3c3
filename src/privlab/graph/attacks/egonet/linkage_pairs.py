"""Case-labelled linkage pairs across the egonets of a release, for scoring and training.

Source: seed 004 (Sharad, Cambridge TR-896), Chapter 3 — §2.4 (the three node-pair cases,
thesis §3.2.3–3.2.4 L529–553), §2.8 (how Chapter 3 builds its pairs, §3.4.1 L674–676) and §3.2
(Tables 3.7–3.8, the pair counts).  The user guide is docs/graph/egonet-linkage.md.

**Pairs** (:func:`sample_linkage_pairs`).  An *appearance* is an (egonet, local node) whose
degree inside its egonet exceeds ``min_degree`` (5, as in Chapter 3).  Identical pairs are two
appearances of the same original node in two egonets (a node appears at most once per
egonet), bucketed by the truth hops: Case 1 "1-hop" (both hops ≤ 1), Case 2 "1,2-hop"
(exactly one hop is 2), Case 3 "2-hop" (both 2); ``cases="complete"`` draws uniformly from
all identical pairs regardless of case.  Non-identical pairs are two appearances of
different original nodes in different egonets, not split by case (``non_identical_case``
restricts them to one structural case, as needed for Table 3.1).  Sampling is uniform
without replacement and never enumerates more than about twice the number of pairs asked
for: when fewer than twice the requested number exist they are enumerated, otherwise a
group (original node, or first appearance) is drawn with probability proportional to its
number of pairs, a pair is drawn uniformly inside it, and duplicates are rejected.

Complexity: :func:`sample_linkage_pairs` O(A log A) for A appearances plus O(requested pairs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.egonet._helpers import _groups
from privlab.graph.attacks.egonet.release import EgonetRelease
from privlab.validate import check_int

CASE_NAMES = {0: "non-identical", 1: "1-hop", 2: "1,2-hop", 3: "2-hop"}
_ENUM_LIMIT = 50_000_000


@dataclass(frozen=True, eq=False)
class LinkagePairs:
    """Labelled node pairs across egonets, ready for a pair classifier.

    Pair r links local node ``node_a[r]`` of egonet ``ego_a[r]`` with local node
    ``node_b[r]`` of egonet ``ego_b[r]`` (``ego_a < ego_b``; the ``ego_*`` arrays are egonet
    *indices* in the release, not ego node ids).  ``label`` is 1 for identical (the same
    original node), 0 otherwise; ``case`` is 1 "1-hop", 2 "1,2-hop", 3 "2-hop" for identical
    pairs and 0 for non-identical ones; ``hop_a``/``hop_b`` are the truth hops (the attacker
    can infer them, :func:`attacker_hops`).  ``available`` counts every pair that could have
    been drawn (the seed's Table 3.8 "train" column), ``drawn`` what was drawn.
    """

    ego_a: np.ndarray
    node_a: np.ndarray
    ego_b: np.ndarray
    node_b: np.ndarray
    label: np.ndarray
    case: np.ndarray
    hop_a: np.ndarray
    hop_b: np.ndarray
    available: dict[str, int] = field(default_factory=dict)
    drawn: dict[str, int] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.label.size)

    @property
    def structural_case(self) -> np.ndarray:
        """Case 1/2/3 from the hops, for every pair (also the non-identical ones)."""
        return _case_of(self.hop_a, self.hop_b)

    def select(self, case: int | str) -> LinkagePairs:
        """The identical pairs of one case (1, 2, 3 or ``"complete"`` = all identical)
        together with all non-identical pairs — the test set of one row of Tables 3.2–3.5."""
        if case == "complete":
            keep = np.ones(len(self), dtype=bool)
        elif case in (1, 2, 3):
            keep = (self.label == 0) | (self.case == case)
        else:
            raise ConfigError(f"case = {case!r}: give 1, 2, 3 or 'complete'")
        return self.take(np.flatnonzero(keep))

    def take(self, rows: Any) -> LinkagePairs:
        """The pairs at ``rows``."""
        r = np.asarray(rows, dtype=np.int64)
        return LinkagePairs(
            self.ego_a[r], self.node_a[r], self.ego_b[r], self.node_b[r], self.label[r],
            self.case[r], self.hop_a[r], self.hop_b[r], dict(self.available),
            _drawn_counts(self.label[r], self.case[r]), dict(self.parameters),
        )  # fmt: skip

    def as_array(self) -> np.ndarray:
        """(n × 6) int64: ego_a, node_a, ego_b, node_b, label, case."""
        return np.stack(
            [self.ego_a, self.node_a, self.ego_b, self.node_b, self.label, self.case], axis=1
        ).astype(np.int64)

    def to_dict(self) -> dict[str, Any]:
        return {
            "parameters": dict(self.parameters),
            "available": dict(self.available),
            "drawn": dict(self.drawn),
            "pairs": len(self),
        }


def sample_linkage_pairs(
    release: EgonetRelease,
    *,
    n_identical_per_case: int,
    n_non_identical: int,
    min_degree: int = 5,
    cases: Sequence[int] | str = (1, 2, 3),
    non_identical_case: int | None = None,
    seed: Any = None,
) -> LinkagePairs:
    """Draw identical pairs per case and non-identical pairs across the egonets of a release.

    Seed 004 §2.4 (the cases) and §2.8 (thesis §3.4.1 L674–676): only appearances of degree
    > ``min_degree`` inside their egonet are linked; identical pairs = the same original node
    in two egonets, ``n_identical_per_case`` uniformly without replacement from each case in
    ``cases`` (all of them when fewer exist, as the seed's "if fewer than 600 pairs exist,
    all available pairs are used"); ``cases="complete"`` draws ``n_identical_per_case``
    uniformly from all identical pairs instead.  Non-identical: ``n_non_identical`` uniform
    pairs of different original nodes in different egonets, from all appearances, or, with
    ``non_identical_case`` = 1/2/3, only pairs of that structural case (Table 3.1 compares
    its Case 1 identical pairs with non-identical pairs of 1-hop nodes).  Pairs are ordered
    identical first, then non-identical; shuffle them yourself if order matters.

    ConfigError for negative counts or min_degree, an unknown case; O(A log A + requested
    pairs) for A appearances (see the module docstring for the sampler).
    """
    n_id = check_int(n_identical_per_case, "n_identical_per_case", 0, "a number of pairs")
    n_non = check_int(n_non_identical, "n_non_identical", 0, "a number of pairs")
    min_degree = check_int(min_degree, "min_degree", 0, "the degree threshold, seed: 5")
    if isinstance(cases, str):
        if cases != "complete":
            raise ConfigError(f"cases = {cases!r}: give a list of 1, 2, 3 or 'complete'")
        case_list: list[int | str] = ["complete"]
    else:
        case_list = list(dict.fromkeys(cases))
        if not all(c in (1, 2, 3) and not isinstance(c, bool) for c in case_list):
            raise ConfigError(f"cases = {cases!r}: give a list of 1, 2, 3 or 'complete'")
    if non_identical_case is not None and (
        isinstance(non_identical_case, bool) or non_identical_case not in (1, 2, 3)
    ):
        raise ConfigError(f"non_identical_case = {non_identical_case!r}: give None, 1, 2 or 3")
    rng = secure_generator(seed)

    deg = release.local_degrees()
    app = np.flatnonzero(deg > min_degree)  # appearance ids, sorted => by egonet
    eg_all = release.appearance_egonet()
    orig_all = release.original
    near = release.hops[app] <= 1
    sets = {"near": app[near], "far": app[~near], "all": app}

    chosen_a: list[np.ndarray] = []
    chosen_b: list[np.ndarray] = []
    available: dict[str, int] = {}
    for c in case_list:
        if c == "complete":
            a, b, total = _within_pairs(sets["all"], orig_all, n_id, rng)
        elif c == 1:
            a, b, total = _within_pairs(sets["near"], orig_all, n_id, rng)
        elif c == 3:
            a, b, total = _within_pairs(sets["far"], orig_all, n_id, rng)
        else:
            a, b, total = _across_pairs(sets["near"], sets["far"], orig_all, n_id, rng)
        available[CASE_NAMES[c] if c != "complete" else "complete"] = total
        chosen_a.append(a)
        chosen_b.append(b)
    if non_identical_case in (None, 1, 3):
        key = {None: "all", 1: "near", 3: "far"}[non_identical_case]
        a, b, total = _different_pairs(sets[key], None, eg_all, orig_all, n_non, rng)
    else:
        a, b, total = _different_pairs(sets["near"], sets["far"], eg_all, orig_all, n_non, rng)
    available["non-identical"] = total
    n_ident = sum(x.size for x in chosen_a)
    pa = np.concatenate([*chosen_a, a])
    pb = np.concatenate([*chosen_b, b])
    swap = eg_all[pa] > eg_all[pb]
    pa, pb = np.where(swap, pb, pa), np.where(swap, pa, pb)
    label = np.zeros(pa.size, dtype=np.int8)
    label[:n_ident] = 1
    hop_a, hop_b = release.hops[pa], release.hops[pb]
    case = np.where(label == 1, _case_of(hop_a, hop_b), 0).astype(np.int8)
    off = release.offsets
    params = {
        "n_identical_per_case": n_id,
        "n_non_identical": n_non,
        "min_degree": min_degree,
        "cases": [c for c in case_list],
        "non_identical_case": non_identical_case,
        "eligible_appearances": int(app.size),
        "scheme": release.scheme,
        "insecure_seed": is_insecure_seed(seed),
    }
    return LinkagePairs(
        eg_all[pa], pa - off[eg_all[pa]], eg_all[pb], pb - off[eg_all[pb]], label, case,
        hop_a, hop_b, available, _drawn_counts(label, case), params,
    )  # fmt: skip


def _case_of(hop_a: np.ndarray, hop_b: np.ndarray) -> np.ndarray:
    far = (np.asarray(hop_a) == 2).astype(np.int8) + (np.asarray(hop_b) == 2).astype(np.int8)
    return (far + 1).astype(np.int8)


def _drawn_counts(label: np.ndarray, case: np.ndarray) -> dict[str, int]:
    out = {CASE_NAMES[c]: int(np.sum((label == 1) & (case == c))) for c in (1, 2, 3)}
    out["identical"] = int(np.sum(label == 1))
    out["non-identical"] = int(np.sum(label == 0))
    return out


def _first_distinct(keys: np.ndarray, n: int) -> np.ndarray:
    """Indices of the first ``n`` distinct values of ``keys`` in draw order."""
    _, first = np.unique(keys, return_index=True)
    return np.sort(first)[:n]


def _distinct_draws(
    cum: np.ndarray,
    total: int,
    n: int,
    width: int,
    draw: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """The first ``n`` distinct pairs (i, j) of a rejection sampler, as two index arrays.

    Each round draws 2n + 64 slots g with P(g) ∝ the increments of ``cum`` (``total`` =
    ``cum[-1]``); ``draw(g)`` turns them into candidate pairs, dropping rejected ones.  Pairs
    are keyed ``i·width + j`` (``j < width``) and kept in draw order until ``n`` are distinct:
    when ``draw`` gives pairs uniformly, n pairs uniform without replacement.
    """
    keys_all = np.zeros(0, np.int64)
    while True:
        g = np.searchsorted(cum, rng.integers(0, total, size=2 * n + 64), side="right")
        i, j = draw(g)
        keys_all = np.concatenate([keys_all, i * width + j])
        sel = _first_distinct(keys_all, n)
        if sel.size >= n:
            k = keys_all[sel]
            return k // width, k % width


def _within_pairs(members: np.ndarray, orig: np.ndarray, n: int, rng) -> tuple:
    """Uniform n unordered pairs of ``members`` (appearance ids) sharing an original node."""
    order, starts, sizes = _groups(orig[members])
    srt = members[order]
    counts = sizes * (sizes - 1) // 2
    total = int(counts.sum())
    if n == 0 or total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), total
    if n * 2 >= total:
        keep = sizes > 1
        st, sz = starts[keep], sizes[keep]
        # element at in-group position p pairs with positions p+1..k−1
        pos = np.concatenate([np.arange(s, s + k) for s, k in zip(st, sz, strict=True)])
        rep = np.concatenate([np.arange(k - 1, -1, -1) for k in sz])
        first = np.repeat(pos, rep)
        csum = np.cumsum(rep)
        second = first + 1 + (np.arange(first.size) - np.repeat(csum - rep, rep))
        pick = rng.choice(first.size, size=min(n, first.size), replace=False)
        return srt[first[pick]], srt[second[pick]], total

    def draw(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = rng.integers(0, sizes[g])
        q = rng.integers(0, sizes[g] - 1)
        q = q + (q >= p)
        return starts[g] + np.minimum(p, q), starts[g] + np.maximum(p, q)

    i, j = _distinct_draws(np.cumsum(counts), total, n, srt.size, draw, rng)
    return srt[i], srt[j], total


def _across_pairs(left: np.ndarray, right: np.ndarray, orig: np.ndarray, n: int, rng) -> tuple:
    """Uniform n pairs (l ∈ left, r ∈ right) with the same original node."""
    lo, ls, lz = _groups(orig[left])
    ro, rs, rz = _groups(orig[right])
    lsrt, rsrt = left[lo], right[ro]
    lkey = lsrt[ls] if ls.size else ls
    rkey = rsrt[rs] if rs.size else rs
    _, li, ri = np.intersect1d(orig[lkey], orig[rkey], return_indices=True)
    lst, lsz, rst, rsz = ls[li], lz[li], rs[ri], rz[ri]
    counts = lsz * rsz
    total = int(counts.sum())
    if n == 0 or total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), total
    if n * 2 >= total:
        firsts = np.concatenate(
            [np.repeat(np.arange(s, s + k), r) for s, k, r in zip(lst, lsz, rsz, strict=True)]
        )
        seconds = np.concatenate(
            [np.tile(np.arange(s, s + r), k) for s, k, r in zip(rst, lsz, rsz, strict=True)]
        )
        pick = rng.choice(firsts.size, size=min(n, firsts.size), replace=False)
        return lsrt[firsts[pick]], rsrt[seconds[pick]], total

    def draw(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return lst[g] + rng.integers(0, lsz[g]), rst[g] + rng.integers(0, rsz[g])

    i, j = _distinct_draws(np.cumsum(counts), total, n, rsrt.size, draw, rng)
    return lsrt[i], rsrt[j], total


def _different_pairs(
    left: np.ndarray,
    right: np.ndarray | None,
    egonet: np.ndarray,
    orig: np.ndarray,
    n: int,
    rng,
) -> tuple:
    """Uniform n pairs of appearances in different egonets with different original nodes:
    unordered pairs within ``left`` when ``right`` is None, else (l ∈ left, r ∈ right).

    A first element a is drawn with probability ∝ its number of other-egonet partners, the
    partner uniformly among them (so ordered cross-egonet pairs are uniform); same-node pairs
    and duplicates are rejected.  ``left``/``right`` must be sorted (hence by egonet)."""
    same_set = right is None
    rset = left if same_set else right
    if left.size == 0 or rset.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), 0
    reg = egonet[rset]
    lo = np.searchsorted(reg, egonet[left], side="left")
    hi = np.searchsorted(reg, egonet[left], side="right")
    w = rset.size - (hi - lo)
    ordered = int(w.sum())
    # ordered pairs with the same original node (always in different egonets)
    lkeys, lcounts = np.unique(orig[left], return_counts=True)
    if same_set:
        same = int(np.sum(lcounts * (lcounts - 1)))
        total = (ordered - same) // 2
    else:
        rkeys, rcounts = np.unique(orig[rset], return_counts=True)
        _, li, ri = np.intersect1d(lkeys, rkeys, return_indices=True)
        same = int(np.sum(lcounts[li] * rcounts[ri]))
        total = ordered - same
    if n == 0 or total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), total
    if n * 2 >= total:
        if ordered > _ENUM_LIMIT:
            raise InputError(
                f"{ordered} candidate non-identical pairs to enumerate for only {total} valid "
                "ones; lower n_non_identical"
            )
        ai = np.repeat(np.arange(left.size), w)
        csum = np.cumsum(w)
        r = np.arange(ai.size) - np.repeat(csum - w, w)
        bi = np.where(r < lo[ai], r, r + (hi - lo)[ai])
        ok = orig[left[ai]] != orig[rset[bi]]
        if same_set:
            ok &= ai < bi
        ai, bi = ai[ok], bi[ok]
        pick = rng.choice(ai.size, size=min(n, ai.size), replace=False)
        return left[ai[pick]], rset[bi[pick]], total

    def draw(ai: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r = rng.integers(0, w[ai])
        bi = np.where(r < lo[ai], r, r + (hi - lo)[ai])
        ok = orig[left[ai]] != orig[rset[bi]]
        ai, bi = ai[ok], bi[ok]
        if same_set:
            ai, bi = np.minimum(ai, bi), np.maximum(ai, bi)
        return ai, bi

    ai, bi = _distinct_draws(np.cumsum(w), ordered, n, max(left.size, rset.size), draw, rng)
    return left[ai], rset[bi], total


__all__ = ["CASE_NAMES", "LinkagePairs", "sample_linkage_pairs"]
