"""Post-processing of DP answers: non-negative counts and hierarchically consistent totals.

Both functions read **released values only** (and public noise variances), never the data,
so by the post-processing property of differential privacy (Dwork & Roth 2014,
Proposition 2.1) they **cost no privacy budget** and keep the release's (ε, δ).

* :func:`non_negative` clips noisy counts below at 0 (a count cannot be negative).  It never
  increases any answer's error but biases small counts upwards.
* :func:`consistent_tree` makes a hierarchy of noisy counts consistent — every total equals
  the sum of its parts — by the least-squares estimate of Hay, Rastogi, Miklau & Suciu,
  "Boosting the accuracy of differentially private histograms through consistency" (VLDB
  2010, §4, Theorem 3): the consistent vector closest to the noisy one.  Hay et al. give the
  two-pass algorithm for a k-ary tree with equal noise at every node; here it is the same
  two passes for any tree and any noise variances (the generalized least squares of
  Cormode, Procopiuc, Srivastava, Shen & Yu, "Differentially private spatial
  decompositions", ICDE 2012, §4.2, which reduces to Hay et al.'s when the variances are
  equal):

  1. bottom-up, each node's best estimate from its own subtree: a leaf keeps its noisy
     value z = y (variance v = σ²); an inner node combines its noisy value with the sum of
     its children's estimates, weighted by inverse variances:
     z = (y/σ² + Σz_c/Σv_c)/(1/σ² + 1/Σv_c), v = 1/(1/σ² + 1/Σv_c);
  2. top-down, a root keeps x = z, and each node passes its gap x − Σz_c to its children in
     proportion to their variances: x_c = z_c + (x − Σz_c)·v_c/Σv_c.

  The result minimizes Σ (x_i − y_i)²/σ_i² subject to x_parent = Σ x_children; the parts
  sum exactly (up to float rounding) to their totals, and its error is never larger on
  average than the raw noisy counts' (it is the best linear unbiased estimate).  O(n·h) for
  n nodes and tree height h (one vectorized pass per level).
  A node without a measurement can be given variance ``inf``: it is then the sum of its
  parts.  Clip with :func:`non_negative` *after* making the tree consistent if needed
  (clipping breaks exact consistency; Hay et al. round at the end the same way).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.dp.mechanisms import _numeric
from privlab.errors import InputError


def non_negative(values: Any) -> Any:
    """Noisy counts clipped below at 0 (numpy arrays, lists, scalars, polars Series).

    Post-processing: no budget.  Keeps the dtype (integers stay integers).  O(n).
    """
    if hasattr(values, "clip") and hasattr(values, "dtype") and not isinstance(values, np.ndarray):
        return values.clip(lower_bound=0)  # a polars Series
    arr = _numeric(values, "values")
    out = np.maximum(arr, arr.dtype.type(0))
    return out.item() if out.ndim == 0 else out


def non_negative_columns(frame: Any, columns: list[str]) -> Any:
    """A grouped release (polars DataFrame) with count ``columns`` clipped at 0.

    The hook for grouped releases (``GroupedRelease.frame``): each named column and, when
    present, its interval bounds ``"<column> ci_low"`` / ``"<column> ci_high"`` are
    clipped below at 0 — a true count is ≥ 0, so the clipped interval keeps its coverage.
    Post-processing: no budget.  O(rows).
    """
    import polars as pl

    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(f"frame: no column(s) {missing}; the columns are {frame.columns}")
    names = [n for c in columns for n in (c, f"{c} ci_low", f"{c} ci_high") if n in frame.columns]
    return frame.with_columns(pl.col(n).clip(lower_bound=0) for n in names)


@dataclass(frozen=True)
class ConsistentTree:
    """The consistent estimate of every node (same order as the input) and its variance."""

    estimate: np.ndarray
    variance: np.ndarray
    levels: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "estimate": self.estimate.tolist(),
            "variance": self.variance.tolist(),
            "levels": self.levels,
            "method": "generalized least squares on the tree (Hay et al. 2010, two passes)",
            "cost": "none: post-processing of released values",
        }


def _tree_levels(parent: np.ndarray) -> list[np.ndarray]:
    """Nodes by depth, from the roots (parent −1) down.  InputError on a cycle.  O(n·h)."""
    n = parent.size
    levels = [np.flatnonzero(parent < 0)]
    seen = levels[0].size
    in_frontier = np.zeros(n, dtype=bool)
    has_parent = parent >= 0
    safe_parent = np.where(has_parent, parent, 0)
    while True:
        in_frontier[:] = False
        in_frontier[levels[-1]] = True
        nxt = np.flatnonzero(has_parent & in_frontier[safe_parent])
        if not nxt.size:
            break
        levels.append(nxt)
        seen += nxt.size
    if seen != n:
        raise InputError(
            f"parent: {n - seen} node(s) are on a cycle or hang below one; every node must "
            "lead up to a root (parent −1)"
        )
    return levels


def _check_tree(values: Any, parent: Any, variances: Any) -> tuple[np.ndarray, ...]:
    y = _numeric(values, "values").astype(np.float64)
    par = np.asarray(parent)
    if y.ndim != 1 or par.shape != y.shape:
        raise InputError(
            f"values and parent: two 1-D arrays of the same length expected, got shapes "
            f"{np.shape(values)} and {par.shape}"
        )
    if par.size and (not np.issubdtype(par.dtype, np.integer) or par.dtype == bool):
        raise InputError(f"parent: integer node indices expected (−1 for a root), got {par.dtype}")
    par = par.astype(np.int64)
    if par.size and (par.min() < -1 or par.max() >= par.size):
        raise InputError(f"parent: indices must be −1 (a root) or 0..{par.size - 1}")
    if variances is None:
        var = np.ones_like(y)
    else:
        var = np.broadcast_to(np.asarray(variances, dtype=np.float64), y.shape).copy()
        if np.any(np.isnan(var)) or np.any(var <= 0):
            raise InputError("variances: every noise variance must be > 0 (inf: not measured)")
    return y, par, var


def consistent_tree(values: Any, parent: Any, *, variances: Any = None) -> ConsistentTree:
    """Least-squares consistent counts on a tree (Hay et al. 2010; module docstring).

    ``values[i]``: the noisy count of node i; ``parent[i]``: the index of its parent, −1 for
    a root (a forest is allowed); ``variances``: the noise variance of each node (a scalar or
    an array; default equal — then the weights do not matter).  A leaf with variance ``inf``
    has no measurement and must not occur (its estimate would be undetermined).  Returns
    the estimates with parent = Σ children at every inner node.  O(n·h).
    """
    y, par, var = _check_tree(values, parent, variances)
    n = y.size
    levels = _tree_levels(par) if n else []
    z, v = y.copy(), var.copy()
    child_z = np.zeros(n)
    child_v = np.zeros(n)
    for level in reversed(levels[1:]):  # children of this level are final: fold them up
        up = par[level]
        child_z += np.bincount(up, weights=z[level], minlength=n)
        child_v += np.bincount(up, weights=v[level], minlength=n)
        inner = np.unique(up)
        own_w = 1 / var[inner]  # 0 for an unmeasured node
        kids_w = 1 / child_v[inner]
        z[inner] = (y[inner] * own_w + child_z[inner] * kids_w) / (own_w + kids_w)
        v[inner] = 1 / (own_w + kids_w)
    if np.any(np.isinf(v)):
        raise InputError(
            "variances: a node without a measurement (variance inf) has no measured part "
            "below it; its count cannot be estimated"
        )
    x = z.copy()
    for level in levels[1:]:  # hand each node's gap down to its children
        up = par[level]
        x[level] = z[level] + (x[up] - child_z[up]) * v[level] / child_v[up]
    final_var = _posterior_variance(v, child_v, par, levels)
    return ConsistentTree(x, final_var, len(levels))


def _posterior_variance(
    v: np.ndarray, child_v: np.ndarray, par: np.ndarray, levels: list[np.ndarray]
) -> np.ndarray:
    """Variance of each consistent estimate: Var(x_c) = v_c − (v_c/V)²·(V − Var(x_p)),
    V = Σ v_siblings (the top-down pass as a Gaussian conditioning step).  O(n·h)."""
    out = v.copy()
    for level in levels[1:]:
        up = par[level]
        share = v[level] / child_v[up]
        out[level] = v[level] - share**2 * (child_v[up] - out[up])
    return out


def consistent_frame(frame: Any, by: list[str], value: str, *, variance: Any = None) -> Any:
    """:func:`consistent_tree` on a roll-up table (polars DataFrame).

    Each row is one node: the ``by`` columns give its key, a null in a key column meaning
    "all" — (null, null) the grand total, (region, null) a region's total, (region, city)
    a leaf — and nulls only at the end of the key.  The parent of a key is the key with its
    last non-null set to null; a row whose parent is absent is a root.  ``variance``: a
    column name, a number or None (equal).  Returns the frame with ``value`` replaced by
    the consistent estimates (Float64).  O(n·h).
    """
    import polars as pl

    if isinstance(frame, pl.LazyFrame):
        frame = frame.collect()
    missing = [c for c in [*by, value] if c not in frame.columns]
    if missing:
        raise InputError(f"frame: no column(s) {missing}; the columns are {frame.columns}")
    keys = frame.select(by).rows()
    depth = []
    for key in keys:
        filled = [k is not None for k in key]
        d = sum(filled)
        if any(filled[d:]):
            raise InputError(
                f"{by}: a key with a null before a value; nulls (meaning 'all') may only end "
                "a key, as in a roll-up"
            )
        depth.append(d)
    index = {key: i for i, key in enumerate(keys)}
    if len(index) != len(keys):
        raise InputError(f"{by}: duplicate keys; give one row per node of the hierarchy")
    parent = np.full(len(keys), -1, dtype=np.int64)
    for i, (key, d) in enumerate(zip(keys, depth, strict=True)):
        if d:
            parent[i] = index.get((*key[: d - 1], *([None] * (len(by) - d + 1))), -1)
    var = frame[variance].to_numpy() if isinstance(variance, str) else variance
    result = consistent_tree(frame[value].to_numpy(), parent, variances=var)
    return frame.with_columns(pl.Series(value, result.estimate, dtype=pl.Float64))


def consistent_levels(
    frames: list[Any], by: list[str], value: str, *, variances: list[float] | None = None
) -> list[Any]:
    """Grouped releases of one count at nested levels, made consistent with each other.

    ``frames[i]`` is a release grouped by ``by[:i]`` (``frames[0]`` the one-row total, with
    no key column; ``frames[1]`` by ``by[0]``; …), each with the noisy ``value`` column;
    ``variances[i]`` is the noise variance of level i (e.g. ``std**2`` of its accuracy
    record; default equal).  The levels are stacked into a roll-up, made consistent by
    :func:`consistent_frame`, and returned as frames again, each in its own row order.
    A group whose parent group is missing (e.g. not selected by partition selection) is a
    root.  Post-processing: no budget.  O(n·h).
    """
    import polars as pl

    if len(frames) != len(by) + 1 or not frames:
        levels = [by[:i] for i in range(len(by) + 1)]
        raise InputError(f"frames: give {len(by) + 1} releases, grouped by {levels}")
    if variances is not None and len(variances) != len(frames):
        raise InputError(f"variances: one per level expected ({len(frames)}), got {len(variances)}")
    parts = []
    for i, frame in enumerate(frames):
        keys = by[:i]
        missing = [c for c in [*keys, value] if c not in frame.columns]
        if missing:
            raise InputError(f"level {i} (by {keys}): no column(s) {missing}")
        part = frame.select([*keys, value]).with_columns(
            *(pl.lit(None, dtype=pl.String).alias(c) for c in by[i:]),
            pl.lit(i).alias("_level"),
            pl.lit(1.0 if variances is None else float(variances[i])).alias("_variance"),
        )
        parts.append(part.select([*by, value, "_level", "_variance"]).with_columns(
            *(pl.col(c).cast(pl.String) for c in by), pl.col(value).cast(pl.Float64)
        ))  # fmt: skip
    rollup = pl.concat(parts)
    fixed = consistent_frame(rollup, by, value, variance="_variance")[value].to_numpy()
    out, start = [], 0
    for frame in frames:
        stop = start + frame.height
        out.append(frame.with_columns(pl.Series(value, fixed[start:stop], dtype=pl.Float64)))
        start = stop
    return out


__all__ = [
    "ConsistentTree",
    "consistent_frame",
    "consistent_levels",
    "consistent_tree",
    "non_negative",
    "non_negative_columns",
]
