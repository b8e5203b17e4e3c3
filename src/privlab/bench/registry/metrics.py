"""Utility metrics a spec may name (:data:`METRICS`): ``measure(original, release, cell)``.

Graph: clustering, path lengths, diameter, degree and joint-degree distribution Hellinger
distances (Hay et al.'s utility measures); table: ARX Loss and the suppressed fraction;
microdata: seed 001's AVG range-query error (§3.1, Thm 2 for the generalized bounds), sum of
ranges, fake values and Table 3.5's hierarchy ratios of the target release; none: Li et
al.'s δ = d(k, β, ε).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.bench.registry.cells import Cell, Release
from privlab.bench.registry.datasets import CAPITAL_LOSS
from privlab.errors import ConfigError


@dataclass(frozen=True)
class Metric:
    """``measure(original, release, cell) -> float`` for data kind ``kind``."""

    name: str
    kind: str
    measure: Callable[[Any, Release, Cell], float]
    label: str


def _path_sample(g: Any, cell: Cell) -> int | None:
    s = cell.options.get("path_sample", 200)
    return None if s in (None, 0) or int(s) >= g.n_nodes else int(s)


_PATHS: dict[str, Any] = {}


def _paths(g: Any, cell: Cell) -> Any:
    """path_lengths of a release, kept for the next metric of the same cell (diameter and
    the path-length metrics share one BFS pass: the same sources, the same seed)."""
    from privlab.graph.utility import path_lengths

    key = (id(g), _path_sample(g, cell), cell.sub_seed(2))
    if _PATHS.get("key") != key or _PATHS.get("graph") is not g:
        _PATHS.clear()
        _PATHS.update(key=key, graph=g, value=path_lengths(g, sample=key[1], seed=key[2]))
    return _PATHS["value"]


def _clustering(_: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import clustering_coefficient

    return float(clustering_coefficient(r.data, "cc"))


def _apl(_: Any, r: Release, cell: Cell) -> float:
    return float(_paths(r.data, cell).average("exclude"))


def _median_path(_: Any, r: Release, cell: Cell) -> float:
    return float(_paths(r.data, cell).median)


def _diameter(_: Any, r: Release, cell: Cell) -> float:
    return float(_paths(r.data, cell).diameter)


def _median_degree(_: Any, r: Release, cell: Cell) -> float:
    return float(np.median(r.data.degrees()))


def _dd(original: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import hellinger_dd

    return float(hellinger_dd(original, r.data))


def _jdd(original: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import hellinger_jdd

    return float(hellinger_jdd(original, r.data))


def _density(_: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import density

    return float(density(r.data))


def _powerlaw_alpha(_: Any, r: Release, cell: Cell) -> float:
    """CSN's discrete MLE of α with x_min fixed at 3 (seed 000 §2.9); NaN when the tail has
    fewer than two distinct degrees (α is then unbounded)."""
    from privlab.errors import InputError
    from privlab.graph.utility import power_law_exponent

    try:
        return float(power_law_exponent(r.data, x_min=3).alpha)
    except InputError:
        return float("nan")


def _degree_l1(original: Any, r: Release, cell: Cell) -> float:
    """L1(d̂, d) = Σ |d̂(v) − d(v)| node by node: of a released graph, or of a released degree
    sequence (schemes degree-anon, optimal-degree-anon; thesis Figs 9.6/9.7)."""
    d = original.degrees().astype(np.int64)
    rel = r.data if isinstance(r.data, np.ndarray) else r.data.degrees()
    return float(np.abs(np.asarray(rel, dtype=np.int64) - d).sum())


def _loss(_: Any, r: Release, cell: Cell) -> float:
    return float(r.data.result.value)


def _suppressed(_: Any, r: Release, cell: Cell) -> float:
    """Suppressed rows / rows, as the release reads (a row whose every QI is ``*`` counts,
    as in the risk measures: privlab.table.suppression)."""
    res = r.data.result
    return r.data.to_dict()["suppressed"] / res.n_records if res.n_records else 0.0


def _delta(_: Any, r: Release, cell: Cell) -> float:
    from privlab.dp.sampling import delta

    k = int(cell.settings.get("k", 5))
    beta = float(cell.settings.get("beta", 0.2))
    eps = cell.value if cell.parameter == "epsilon" else float(cell.options["epsilon"])
    return float(delta(k, beta, eps))


def _attr(attr: str, kind: str) -> Callable[[Any, Release, Cell], float]:
    """A number of the result a ``none``-kind scheme computed (``kind``: its class name)."""

    def measure(_: Any, r: Release, cell: Cell) -> float:
        if type(r.data).__name__ != kind:
            raise ConfigError(f"metric {attr!r} needs a scheme that yields {kind}; "
                              f"scheme {cell.scheme!r} does not")  # fmt: skip
        obj = r.data
        for part in attr.split("."):
            obj = getattr(obj, part)
        return float(obj)

    return measure


def _range_workload(frame: Any, span: int, cell: Cell) -> list[tuple[int, int]]:
    """Seed 001 §3.1's range workload: ``queries`` random [X, X + span] holding some age.

    X uniform on min(age)..max(age) − span, redrawn while no row has an age in [X, X + span]
    (as benchmarks/bench_permutation_figures.py).  The same queries for every metric of a cell.
    """
    age = frame["age"].to_numpy()
    rng = cell.rng(6)
    lo, hi = int(age.min()), int(age.max())
    present = np.zeros(hi + span + 2, dtype=bool)
    present[age] = True
    out: list[tuple[int, int]] = []
    while len(out) < int(cell.options.get("queries", 100)):
        x = int(rng.integers(lo, max(lo, hi - span) + 1))
        if present[x : x + span + 1].any():
            out.append((x, x + span))
    return out


def _sum_of_ranges(_: Any, r: Release, cell: Cell) -> float:
    return float(r.data.parameters["sum_of_ranges"])


def _fake_values(_: Any, r: Release, cell: Cell) -> float:
    return float(r.data.parameters["fake_values"])


def _target_ratio(position: str) -> Callable[[Any, Release, Cell], float]:
    """Seed 001 Table 3.5 (§3.7, Fig. 3.6's setting): the target hierarchy's left-child weight
    in percent of its node (``root``: level 1; ``left`` / ``right``: the two level-2 nodes).

    The hierarchy is the ``target`` scheme's own (``_target_hierarchy``: balanced over the
    domain, the target's exact leaf weights, before the rounding to tenths), moved by the
    shift factor when the cell sweeps ``shift`` (x = 0: the target itself).  The table prints
    the ratios normalized to 0–100, e.g. 82:18 for the source; this is the 82.  O(|domain|).
    """

    def measure(original: Any, r: Release, cell: Cell) -> float:
        from privlab.bench.registry.schemes import _target_hierarchy
        from privlab.table.permutation.target import shifted_hierarchy

        x = original[CAPITAL_LOSS].to_numpy()
        h = _target_hierarchy(x, cell.settings)
        shift = cell.value if cell.parameter == "shift" else cell.settings.get("shift")
        if shift is not None:
            h = shifted_hierarchy(h, x, float(shift))
        node = 0 if position == "root" else h.children[0][0 if position == "left" else -1]
        weights = [h.weight[c] for c in h.children[node]]
        total = sum(weights)
        return 100.0 * weights[0] / total if total else float("nan")

    return measure


def _range_error(generalized: bool) -> Callable[[Any, Release, Cell], float]:
    """Mean relative error (u − l)/r of AVG(capital_loss) WHERE age BETWEEN X AND X + span.

    Permuted: the release's bounds (``PermutationRelease.bounds``).  Generalized: the same
    groups published as a generalized table (tightest QI boxes,
    ``Generalization.from_release``) and bounded by ``generalized_bounds`` (seed 001 Thm 2).
    """

    def measure(original: Any, r: Release, cell: Cell) -> float:
        import polars as pl

        from privlab.table.query import Generalization, generalized_bounds, parse_aggregate_query

        span = cell.value if cell.parameter == "span" else cell.options.get("span")
        if span is None:
            raise ConfigError(f"range-query metrics sweep parameter = \"span\" or set "
                              f"options.span; the parameter is {cell.parameter!r}")  # fmt: skip
        rel = r.data
        truth = original[CAPITAL_LOSS].to_numpy().astype(np.float64)
        age = original["age"].to_numpy()
        if generalized:
            gen = Generalization.from_release(rel)
            sizes = rel.group_sizes()
            help_rows = rel.grouped_values().help_table(sizes)
        errs = []
        for x, y in _range_workload(original, int(span), cell):
            true = float(truth[(age >= x) & (age <= y)].mean())
            if generalized:
                sql = f"SELECT AVG({CAPITAL_LOSS}) FROM t WHERE age BETWEEN {x} AND {y}"
                st = gen.status(parse_aggregate_query(sql, rel))
                b = generalized_bounds("AVG", st, help_rows, sizes)
            else:
                b = rel.bounds("avg", pl.col("age").is_between(x, y))
            if b.lower is not None and b.upper is not None:
                errs.append((b.upper - b.lower) / abs(true))
        return float(np.mean(errs)) if errs else float("nan")

    return measure


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("clustering", "graph", _clustering, "clustering coefficient"),
        Metric("avg_path_length", "graph", _apl, "average path length (sampled sources)"),
        Metric("median_path_length", "graph", _median_path, "median path length"),
        Metric("diameter", "graph", _diameter, "diameter (sampled: lower bound)"),
        Metric("median_degree", "graph", _median_degree, "median degree"),
        Metric("dd_hellinger", "graph", _dd, "degree distribution Hellinger distance"),
        Metric("jdd_hellinger", "graph", _jdd, "joint degree distribution Hellinger distance"),
        Metric("density", "graph", _density, "density |E| / (n(n−1)/2)"),
        Metric("powerlaw_alpha", "graph", _powerlaw_alpha, "power-law exponent α (x_min = 3)"),
        Metric("degree_l1", "graph", _degree_l1, "L1 distance of the degrees to the original"),
        Metric("loss", "table", _loss, "ARX Loss"),
        Metric("suppressed_fraction", "table", _suppressed, "suppressed rows / rows"),
        Metric("range_avg_error", "microdata", _range_error(False),
               "mean relative error (u − l)/r of AVG range queries (permuted)"),
        Metric("range_avg_error_generalized", "microdata", _range_error(True),
               "mean relative error of AVG range queries (same groups, generalized)"),
        Metric("sum_of_ranges", "microdata", _sum_of_ranges,
               "sum of ranges of the published subdomains (target release)"),
        Metric("fake_values", "microdata", _fake_values, "fake values added (target release)"),
        *(Metric(f"target_ratio_{pos}", "microdata", _target_ratio(pos),
                 f"target hierarchy: left child's share of the {where}, % (Table 3.5)")
          for pos, where in (("root", "root (level 1)"), ("left", "left level-2 node"),
                             ("right", "right level-2 node"))),
        Metric("delta", "none", _delta, "δ = d(k, β, ε)"),
        *(Metric(f"parity_{name}", "none", _attr(attr, "ParityResult"), label)
          for name, attr, label in (
              ("without_t", "exact_d", "P[A₁ = false ∧ A₂ ≥ ½], t absent (exact)"),
              ("with_t", "exact_d_prime", "P[A₁ = false ∧ A₂ ≥ ½], t present (exact)"),
              ("simulated_without_t", "simulated_d", "same, t absent (Monte Carlo)"),
              ("simulated_with_t", "simulated_d_prime", "same, t present (Monte Carlo)"),
          )),
        Metric("composed_epsilon", "none", _attr("total.epsilon", "FreshSampling"),
               "ε of all rounds composed"),
        Metric("composed_delta", "none", _attr("total.delta", "FreshSampling"),
               "δ of all rounds composed"),
        Metric("miss_probability", "none", _attr("miss_probability", "FreshSampling"),
               "P[a tuple is in no sample] = (1 − β)^R"),
        Metric("prop1_min_delta", "none", _attr("min_delta", "Proposition1"),
               "smallest δ without sampling (Proposition 1: 1)"),
        Metric("prop1_delta_sampled", "none", _attr("delta_with_sampling", "Proposition1"),
               "δ = d(k, β, ε) with β-sampling first"),
    )
}  # fmt: skip
