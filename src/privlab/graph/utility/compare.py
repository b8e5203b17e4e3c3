"""Original-vs-release comparison: every utility metric on both graphs, one result object.

What the CLI and the reports call.  Scalars are compared as release − original; per-node
metrics (centralities) are summarized by their median over nodes, as Hay et al. do (seed
002 §A.2.9); distributions (DD, JDD) by the Hellinger distance, as Sharad does (seed 004
§2.10).  Each graph is analysed once: one BFS pass feeds APL, diameter, effective diameter
and the median path length.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph, as_graph
from privlab.graph.utility import centrality as _c
from privlab.graph.utility import degrees as _d
from privlab.graph.utility import paths as _p
from privlab.graph.utility._base import check_sample, sample_sources
from privlab.graph.utility.powerlaw import power_law_exponent
from privlab.progress import ProgressFn

_DIFF = "release − original"
_MEDIAN = "median over nodes; release − original"
_HELLINGER = "Hellinger distance"


@dataclass(frozen=True)
class MetricComparison:
    """One metric on both graphs.  ``original``/``release`` are None for metrics that only
    exist as a distance between the two graphs (DD, JDD, degree connectivity); values that
    are undefined on a graph are NaN and ``note`` says why."""

    name: str
    original: float | None
    release: float | None
    difference: float
    measure: str
    sampled: bool = False
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        def clean(v: float | None) -> float | None:
            return None if v is None or math.isnan(v) else v

        return {
            "original": clean(self.original),
            "release": clean(self.release),
            "difference": clean(self.difference),
            "measure": self.measure,
            "sampled": self.sampled,
            "note": self.note,
        }


@dataclass(frozen=True)
class Comparison:
    """The metrics compared, in the order asked; ``comparison["diameter"]`` gets one."""

    metrics: tuple[MetricComparison, ...]
    sample: int | None
    seed: int | None
    directed: bool

    def __getitem__(self, name: str) -> MetricComparison:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def names(self) -> list[str]:
        return [m.name for m in self.metrics]

    def to_dict(self) -> dict[str, Any]:
        return {
            "sample": self.sample,
            "seed": self.seed,
            "directed": self.directed,
            "metrics": {m.name: m.to_dict() for m in self.metrics},
        }

    def to_markdown(self) -> str:
        """A markdown table: metric, original, release, difference, measure."""

        def fmt(v: float | None) -> str:
            return "—" if v is None else "nan" if math.isnan(v) else f"{v:.6g}"

        lines = ["| metric | original | release | difference | measure |", "|---|---|---|---|---|"]
        for m in self.metrics:
            measure = (m.measure + (" (sampled)" if m.sampled else "")).replace("|", "\\|")
            lines.append(
                f"| {m.name} | {fmt(m.original)} | {fmt(m.release)} | {fmt(m.difference)} "
                f"| {measure} |"
            )
        return "\n".join(lines)


class _Profile:
    """Lazily computed statistics of one graph (each computed at most once)."""

    def __init__(self, g: Graph, sources: np.ndarray | None) -> None:
        self.g = g
        self.sources = sources

    @cached_property
    def paths(self) -> _p.PathLengths:
        return _p._exact(self.g) if self.sources is None else _p._sampled(self.g, self.sources)

    @cached_property
    def clustering(self) -> _c.ClusteringCoefficients:
        return _c.clustering_coefficients(self.g)

    @cached_property
    def jdd(self) -> _d.JointDegreeDistribution | None:
        return _d.joint_degree_distribution(self.g) if self.g.n_edges else None

    def median(self, values: np.ndarray) -> float:
        return float(np.median(values)) if values.size else math.nan


# name -> (undirected only, uses the BFS sample, kind, function).  kind "scalar": f(profile)
# -> float; kind "distance": f(profile, profile) -> (difference, note or None).
def _dd(a: _Profile, b: _Profile) -> tuple[float, str | None]:
    return _d.hellinger_dd(a.g, b.g), None


def _jdd(a: _Profile, b: _Profile) -> tuple[float, str | None]:
    if a.jdd is None or b.jdd is None:
        return math.nan, "a graph without edges has no joint degree distribution"
    return _d._jdd_distance(a.jdd, b.jdd), None


def _connectivity(a: _Profile, b: _Profile) -> tuple[float, str | None]:
    ca, cb = _d.average_degree_connectivity(a.g), _d.average_degree_connectivity(b.g)
    common, ia, ib = np.intersect1d(ca.degree, cb.degree, return_indices=True)
    keep = common > 0
    if not keep.any():
        return math.nan, "no degree ≥ 1 occurs in both graphs"
    return float(np.mean(np.abs(ca.knn[ia][keep] - cb.knn[ib][keep]))), None


def _power_law(p: _Profile) -> float:
    try:
        return power_law_exponent(p.g.degrees(), x_min=3).alpha
    except InputError:
        return math.nan


_Spec = tuple[bool, bool, str, Callable[..., Any], str]
METRICS: dict[str, _Spec] = {
    "nodes": (False, False, "scalar", lambda p: float(p.g.n_nodes), _DIFF),
    "edges": (False, False, "scalar", lambda p: float(p.g.n_edges), _DIFF),
    "density": (False, False, "scalar", lambda p: p.g.density(), _DIFF),
    "mean_degree": (False, False, "scalar", lambda p: float(p.g.degrees().mean()), _DIFF),
    "degree_distribution": (False, False, "distance", _dd, _HELLINGER),
    "joint_degree_distribution": (True, False, "distance", _jdd, _HELLINGER),
    "degree_connectivity": (
        True, False, "distance", _connectivity,
        "mean absolute difference of knn(k) over the degrees k ≥ 1 of both graphs",
    ),
    "degree_centrality": (
        False, False, "scalar", lambda p: p.median(_c.degree_centrality(p.g)), _MEDIAN,
    ),
    "eigenvector_centrality": (
        True, False, "scalar", lambda p: p.median(_c.eigenvector_centrality(p.g)), _MEDIAN,
    ),
    "closeness_centrality": (
        True, True, "scalar",
        lambda p: p.median(_c.closeness_centrality(p.g, nodes=p.sources)), _MEDIAN,
    ),
    "betweenness_centrality": (
        False, True, "scalar", lambda p: p.median(_c._betweenness(p.g, p.sources)), _MEDIAN,
    ),
    "clustering_cc": (True, False, "scalar", lambda p: p.clustering.cc, _DIFF),
    "clustering_cc1": (True, False, "scalar", lambda p: p.clustering.cc1, _DIFF),
    "clustering_cc2": (True, False, "scalar", lambda p: p.clustering.cc2, _DIFF),
    "average_path_length": (False, True, "scalar", lambda p: p.paths.average(), _DIFF),
    "average_path_length_connected": (
        False, True, "scalar", lambda p: p.paths.average("exclude"), _DIFF,
    ),
    "median_path_length": (False, True, "scalar", lambda p: p.paths.median, _DIFF),
    "diameter": (False, True, "scalar", lambda p: float(p.paths.diameter), _DIFF),
    "effective_diameter": (
        False, True, "scalar", lambda p: p.paths.effective_diameter(), _DIFF,
    ),
    "power_law_exponent": (True, False, "scalar", _power_law, _DIFF + " (x_min = 3)"),
}  # fmt: skip


AUTO_EXACT_UP_TO = 2000  # sample="auto": exact up to this many nodes ...
AUTO_SOURCES = 256  # ... else this many BFS sources


def auto_sample(n_nodes: int) -> int | None:
    """The ``sample="auto"`` rule of :func:`compare` (and of ``privlab graph utility`` and
    the audit): exact (None) up to 2,000 nodes, else 256 BFS sources."""
    return None if n_nodes <= AUTO_EXACT_UP_TO else AUTO_SOURCES


def compare(
    original: Any,
    release: Any,
    *,
    metrics: Iterable[str] | None = None,
    sample: int | str | None = None,
    seed: int | None = None,
    progress: ProgressFn | None = None,
) -> Comparison:
    """Compare a released graph with the original on the utility metrics of seeds 000 §2.9,
    002 §A.2.9 and 004 §2.10.

    ``metrics``: names from :data:`METRICS` (default: all that apply — the undirected-only
    ones are left out for directed graphs; naming one explicitly raises InputError).
    ``sample`` = k: the BFS-based metrics (path lengths, closeness, betweenness) use k
    random sources per graph drawn with ``seed`` (closeness: the median over those k
    nodes; betweenness: Brandes–Pich estimates; diameter: a lower bound).  Exact by
    default; ``"auto"``: :func:`auto_sample` of the larger graph.  Cost: dominated by
    O(n·m) per graph exact (BFS from every node, Brandes), O(k·m) sampled.
    ``progress(metrics done, metrics)`` after each metric.
    """
    ga = as_graph(original, "compare (original)")
    gb = as_graph(release, "compare (release)")
    if ga.directed != gb.directed:
        raise InputError("compare: one graph is directed and the other is not")
    for label, g in (("original", ga), ("release", gb)):
        if g.n_nodes == 0:
            raise InputError(f"compare: the {label} graph has no nodes")
    k = (
        auto_sample(max(ga.n_nodes, gb.n_nodes))
        if isinstance(sample, str) and sample == "auto"
        else check_sample(sample, "compare")
    )
    if metrics is None:
        names = [n for n, spec in METRICS.items() if not (spec[0] and ga.directed)]
    else:
        names = [metrics] if isinstance(metrics, str) else list(metrics)
        unknown = [n for n in names if n not in METRICS]
        if unknown:
            raise ConfigError(
                f"compare: unknown metric(s) {', '.join(map(repr, unknown))}; "
                f"choose from {', '.join(METRICS)}"
            )
    pa = _Profile(ga, sample_sources(ga, k, seed, "compare"))
    pb = _Profile(gb, sample_sources(gb, k, seed, "compare"))
    results = []
    for done, name in enumerate(names, start=1):
        undirected_only, uses_sample, kind, fn, measure = METRICS[name]
        if undirected_only:
            ga.require_undirected(name.replace("_", " "))
        sampled = uses_sample and (pa.sources is not None or pb.sources is not None)
        if kind == "distance":
            diff, note = fn(pa, pb)
            results.append(MetricComparison(name, None, None, diff, measure, sampled, note))
        else:
            a, b = float(fn(pa)), float(fn(pb))
            note = "undefined on at least one graph" if math.isnan(a) or math.isnan(b) else None
            results.append(MetricComparison(name, a, b, b - a, measure, sampled, note))
        if progress is not None:
            progress(done, len(names))
    return Comparison(tuple(results), k, seed, ga.directed)


__all__ = ["METRICS", "Comparison", "MetricComparison", "auto_sample", "compare"]
