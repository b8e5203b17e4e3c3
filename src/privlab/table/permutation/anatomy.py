"""Anatomy (Xiao & Tao, VLDB 2006) for a categorical sensitive attribute.

The table is split into a QI table (exact QIs + group id) and an SA table (group id, value,
count), each group ℓ-diverse: it holds ℓ (or ℓ + 1) rows with pairwise different sensitive
values, so a row is linked to any one value of its group with probability ≤ 1/ℓ.  Seed 001
uses the same two-table layout for permutation releases with fake values (L6290–6300).

Group creation (Xiao & Tao, Fig. 3): hash the rows into buckets by sensitive value; while at
least ℓ buckets are non-empty, take one row (a random one) from each of the ℓ largest
buckets and make them a group; each residual row (at most ℓ − 1 remain, one per value) joins
a random group that does not yet contain its value.  Eligibility (their Lemma 1): no value
may occur on more than n/ℓ rows.  O(n log V) for V distinct values (a heap of buckets).
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np
import polars as pl

from privlab.bounds import Bounds
from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.table.permutation.release import (
    PermutationRelease,
    _order_correlation,
    as_polars,
    check_roles,
    publish,
)


def anatomy_groups(codes: Any, l: int, seed: Any = None) -> np.ndarray:  # noqa: E741
    """Group id per row for sensitive-value codes ``codes`` (ints), ℓ-diverse groups.

    Raises :class:`InfeasibleError` naming the most frequent code if it occurs on more than
    n/ℓ rows.  Group ids are 0..⌊n/ℓ⌋ − 1.
    """
    c = np.asarray(codes, dtype=np.int64)
    n = c.size
    if isinstance(l, bool) or not isinstance(l, (int, np.integer)) or l < 2:
        raise ConfigError(
            f"l must be an integer ≥ 2 (l = 1 links every row to its value), got {l!r}"
        )
    l = int(l)  # noqa: E741
    counts = np.bincount(c)
    top = int(counts.argmax())
    if counts[top] * l > n:
        raise InfeasibleError(
            f"l = {l} needs every sensitive value on at most n/l = {n / l:g} of the {n} rows; "
            f"code {top} occurs on {int(counts[top])} rows"
        )
    rng = secure_generator(seed)
    order = np.argsort(c, kind="stable")
    # shuffle inside each bucket so "one row from a bucket" is a random row
    order = order[np.lexsort((rng.random(n), c[order]))]
    starts = np.concatenate([[0], np.cumsum(counts)])
    nxt = starts[:-1].copy()  # next unused position of each bucket in `order`
    heap = [(-int(counts[v]), int(v)) for v in np.flatnonzero(counts)]
    heapq.heapify(heap)
    groups = np.full(n, -1, dtype=np.int64)
    members: list[list[int]] = []  # values of each group
    nxt_l = nxt.tolist()
    order_l = order.tolist()
    gid = 0
    while len(heap) >= l:
        taken = [heapq.heappop(heap) for _ in range(l)]
        vals = []
        for negc, v in taken:
            groups[order_l[nxt_l[v]]] = gid
            nxt_l[v] += 1
            vals.append(v)
            if negc + 1 < 0:
                heapq.heappush(heap, (negc + 1, v))
        members.append(vals)
        gid += 1
    if gid == 0:  # pragma: no cover - excluded by the eligibility check (n ≥ l distinct)
        raise InfeasibleError(f"fewer than l = {l} distinct sensitive values")
    memb = np.array(members, dtype=np.int64)  # (G, l)
    extra: dict[int, set[int]] = {}  # residual values added to each group
    for _negc, v in heap:
        for _ in range(-_negc):
            row = order_l[nxt_l[v]]
            nxt_l[v] += 1
            free = ~(memb == v).any(axis=1)
            cand = [g for g in np.flatnonzero(free).tolist() if v not in extra.get(g, ())]
            if not cand:  # pragma: no cover - Xiao & Tao, Property 2
                raise InfeasibleError(f"no group can take a residual row with code {v}")
            g = cand[int(rng.integers(len(cand)))]
            groups[row] = g
            extra.setdefault(g, set()).add(v)
    return groups


def anatomy(
    frame: Any,
    *,
    qi: Any,
    sensitive: str,
    l: int,  # noqa: E741
    seed: Any = None,
    identifying: Any = (),
    insensitive: Any = (),
    keep_other_columns: bool = False,
) -> PermutationRelease:
    """Anatomize ``frame``: QI table + per-group value counts, every group ℓ-diverse.

    Source: Xiao & Tao, "Anatomy: simple and effective privacy preservation", VLDB 2006 (group
    creation of their Fig. 3); the two-table publication of seed 001 (L6290–6300).  The
    sensitive column is treated as text (categories).  Accepts polars or pandas.
    O(n log V).
    """
    df = as_polars(frame)
    roles = check_roles(
        df, qi, sensitive, identifying=identifying, insensitive=insensitive,
        keep_other_columns=keep_other_columns,
    )  # fmt: skip
    qi = roles.quasi_identifiers
    col = df[sensitive]
    if col.null_count():
        row = int(np.flatnonzero(col.is_null().to_numpy())[0])
        raise InputError(
            f"row {row}: column {sensitive!r} is missing; {col.null_count()} such row(s) — "
            "remove them or give missing values a category first"
        )
    text = col.cast(pl.String)
    labels, codes = np.unique(text.to_numpy().astype(str), return_inverse=True)
    codes = codes.reshape(-1)
    try:
        groups = anatomy_groups(codes, l, seed)
    except InfeasibleError as exc:
        counts = np.bincount(codes)
        top = int(counts.argmax())
        if counts[top] * int(l) > codes.size:
            raise InfeasibleError(
                f"l = {l} needs every value of {sensitive!r} on at most n/l = "
                f"{codes.size / int(l):g} of the {codes.size} rows, but "
                f"{str(labels[top])!r} occurs on {int(counts[top])} rows; "
                "lower l or merge categories"
            ) from None
        raise exc
    sa = (
        pl.DataFrame(
            {"group_id": groups, "value": labels[codes].tolist()},
            schema={"group_id": pl.Int64, "value": pl.String},
        )
        .group_by(["group_id", "value"])
        .agg(pl.len().cast(pl.Int64).alias("count"))
        .sort(["group_id", "value"])
    )
    n_groups = int(groups.max()) + 1
    params = {
        "model": "anatomy",
        "l": int(l),
        "n_groups": n_groups,
        "seed": seed if isinstance(seed, (int, type(None))) else str(seed),
        "order_correlation": round(_order_correlation(codes.astype(np.float64)), 6),
    }
    params["insecure_seed"] = is_insecure_seed(seed)
    return publish(df, roles, groups, sa, "categorical", params, seed)


def anatomy_count_bounds(release: PermutationRelease, where: Any, value: Any) -> Bounds:
    """Bounds on COUNT(*) WHERE C(QI) AND S = ``value`` on an Anatomy release.

    A group with m selected rows out of ``size``, c_v of which carry ``value`` (published),
    contributes [max(0, m − (size − c_v)), min(m, c_v)]; the groups add up.  ``where`` is a
    boolean mask over ``release.qi`` rows, a polars expression on the QI columns, or None.
    O(n + G).
    """
    if release.kind != "categorical":
        raise ConfigError("anatomy_count_bounds needs a categorical (Anatomy) release")
    m = release.hits(where)
    sizes = release.group_sizes()
    sel = release.sa.filter(pl.col("value") == str(value))
    c_v = np.zeros(sizes.size, dtype=np.int64)
    c_v[sel["group_id"].to_numpy()] = sel["count"].to_numpy()
    return Bounds.of(np.maximum(0, m - (sizes - c_v)).sum(), np.minimum(m, c_v).sum())


__all__ = ["anatomy", "anatomy_count_bounds", "anatomy_groups"]
