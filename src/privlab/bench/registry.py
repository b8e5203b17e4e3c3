"""Adapters between benchmark specs and the library: data sets, schemes, metrics, attacks.

Every name a spec may use is a key of :data:`DATASETS`, :data:`SCHEMES`, :data:`METRICS` or
:data:`ATTACKS`.  Each adapter is a thin call into the library (``privlab.graph``,
``privlab.table``, ``privlab.dp``); the benchmark adds no algorithm of its own.

A cell (one scheme at one parameter value and one seed) is computed by :func:`run_cell`:
the scheme is applied to the loaded data set (graph and table kinds), every requested metric
is measured on (original, release), and every requested attack is run; the result is a
:class:`CellResult` — ``{metric: value}`` plus optional curves (e.g. the ROC curve of the
learned attack).

Data kinds: ``graph`` (SNAP ``facebook``, ``ca-grqc``; ``synthetic:powerlaw``,
``synthetic:gnm``), ``table`` (``adult``) and ``none`` (analytic experiments such as Li et
al.'s δ, which need no data).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError

# ============================================================================ data


def data_root() -> Path | None:
    """``$PRIVLAB_DATA`` or ``../shared/data`` next to the working directory's project.

    Checked in order: the environment variable, ``<cwd>/../shared/data``, and the folder
    next to the installed source tree (``src/../../shared/data``).
    """
    env = os.environ.get("PRIVLAB_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(Path.cwd() / ".." / "shared" / "data")
    candidates.append(Path(__file__).resolve().parents[3] / ".." / "shared" / "data")
    for c in candidates:
        if c.is_dir():
            return c.resolve()
    return None


@dataclass(frozen=True)
class Dataset:
    """A data key: its kind, the file it needs (relative to the data root), its options."""

    name: str
    kind: str  # "graph", "table" or "none"
    path: str | None
    options: tuple[str, ...]
    description: str


DATASETS: dict[str, Dataset] = {
    d.name: d
    for d in (
        Dataset("facebook", "graph", "graphs/facebook_combined.txt",
                ("max_nodes", "largest_component"), "SNAP ego-Facebook (4,039 nodes)"),
        Dataset("ca-grqc", "graph", "graphs/CA-GrQc.txt",
                ("max_nodes", "largest_component"), "SNAP ca-GrQc (5,242 nodes)"),
        Dataset("synthetic:powerlaw", "graph", None, ("n", "m", "p", "seed", "max_nodes",
                "largest_component"), "networkx powerlaw_cluster_graph(n, m, p, seed)"),
        Dataset("synthetic:gnm", "graph", None, ("n", "m", "seed", "max_nodes",
                "largest_component"), "networkx gnm_random_graph(n, m, seed)"),
        Dataset("adult", "table", "adult/adult.csv", ("rows", "quasi_identifiers"),
                "UCI Adult in ARX's form with ARX's hierarchies (30,162 rows)"),
        Dataset("none", "none", None, (), "no data (analytic experiments)"),
    )
}  # fmt: skip


def dataset_available(key: str) -> str | None:
    """None when data set ``key`` can be loaded here, otherwise the reason it cannot."""
    d = DATASETS[key]
    if d.path is None:
        return None
    root = data_root()
    if root is None or not (root / d.path).is_file():
        return (
            f"data set {key!r} needs {d.path}: set PRIVLAB_DATA or place the data at ../shared/data"
        )
    return None


def load_dataset(key: str, options: Mapping[str, Any]) -> Any:
    """Load data set ``key`` with ``options``: a Graph, a MicroTable, or None."""
    d = DATASETS[key]
    if d.kind == "none":
        return None
    reason = dataset_available(key)
    if reason:
        raise InputError(reason)
    if d.kind == "table":
        return _load_adult(options)
    return _shrink_graph(_load_graph(key, options), options)


def _load_graph(key: str, options: Mapping[str, Any]) -> Any:
    import networkx as nx

    from privlab.graph.core import Graph, read_graph

    if key == "synthetic:powerlaw":
        nxg = nx.powerlaw_cluster_graph(
            int(options.get("n", 300)), int(options.get("m", 4)), float(options.get("p", 0.3)),
            seed=int(options.get("seed", 0)),
        )  # fmt: skip
        return Graph.from_networkx(nxg)
    if key == "synthetic:gnm":
        nxg = nx.gnm_random_graph(
            int(options.get("n", 300)),
            int(options.get("m", 1200)),
            seed=int(options.get("seed", 0)),
        )
        return Graph.from_networkx(nxg)
    root = data_root()
    assert root is not None and DATASETS[key].path is not None
    return read_graph(root / DATASETS[key].path).graph


def _shrink_graph(g: Any, options: Mapping[str, Any]) -> Any:
    """Largest component and/or the first ``max_nodes`` nodes of a BFS from the top hub."""
    from privlab.graph.core import Graph

    ig = None
    if options.get("largest_component"):
        ig = g.to_igraph().connected_components().giant()
        g = Graph.from_igraph(ig)
    n_max = options.get("max_nodes")
    if n_max is not None and g.n_nodes > int(n_max):
        ig = g.to_igraph()
        start = int(np.argmax(g.degrees()))
        order = ig.bfs(start)[0][: int(n_max)]
        g = Graph.from_igraph(ig.induced_subgraph(sorted(order)))
    return g


def _load_adult(options: Mapping[str, Any]) -> Any:
    from privlab.dp.sampling import sample_table
    from privlab.table.adult import ADULT_COLUMNS, load_adult

    root = data_root()
    assert root is not None
    qis = options.get("quasi_identifiers", list(ADULT_COLUMNS))
    table = load_adult(root / "adult", qis)
    rows = options.get("rows")
    if rows is not None and int(rows) < table.n_rows:
        table = sample_table(table, np.arange(int(rows)))
    return table


# ============================================================================ cells


@dataclass
class Cell:
    """Everything an adapter may use: the scheme and its value, the cell's seed, options."""

    scheme: str
    scheme_params: dict[str, Any]
    parameter: str
    value: float
    seed: int  # derived from (spec seed, cell key): use it for every random choice
    options: dict[str, Any]

    def rng(self, stream: int) -> np.random.Generator:
        """An independent generator for sub-task ``stream`` of this cell."""
        return np.random.default_rng(np.random.SeedSequence([self.seed, stream]))

    def sub_seed(self, stream: int) -> int:
        """An independent integer seed for sub-task ``stream`` of this cell."""
        return int(np.random.SeedSequence([self.seed, stream]).generate_state(1, np.uint64)[0])


@dataclass
class CellResult:
    """``metrics`` = {metric: value}; ``curves`` = {curve: (x, y)}."""

    metrics: dict[str, float] = field(default_factory=dict)
    curves: dict[str, tuple[list[float], list[float]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Release:
    """A scheme's output: the released object and the public perturbation count (if any)."""

    data: Any
    m: int | None = None
    info: dict[str, Any] = field(default_factory=dict)


# ============================================================================ schemes


@dataclass(frozen=True)
class Scheme:
    """``apply(data, value, cell) -> Release``; ``params`` are the ``name:key=v`` options."""

    name: str
    kind: str
    apply: Callable[[Any, float, Cell], Release]
    params: tuple[str, ...]
    description: str
    integer: bool = False  # the parameter value must be an integer (k)


def _perturb(fn_name: str) -> Callable[[Any, float, Cell], Release]:
    def apply(g: Any, value: float, cell: Cell) -> Release:
        from privlab.graph.anonymize import perturb

        out = getattr(perturb, fn_name)(g, float(value), seed=cell.sub_seed(1))
        return Release(out.graph, out.parameters.get("m"), dict(out.parameters))

    return apply


def _rsp_alpha(g: Any, value: float, cell: Cell) -> Release:
    from privlab.graph.anonymize.perturb import random_sparsification

    out = random_sparsification(g, (1 - value) / (1 + value), seed=cell.sub_seed(1))
    return Release(out.graph, out.parameters.get("m"), dict(out.parameters))


def _kda(g: Any, value: float, cell: Cell) -> Release:
    from privlab.graph.anonymize.kdegree import kdegree_anonymize

    out = kdegree_anonymize(g, int(value), seed=cell.sub_seed(1))
    return Release(out.graph)


def _identity(data: Any, value: float, cell: Cell) -> Release:
    return Release(data, 0)


def _k_anonymity(table: Any, value: float, cell: Cell) -> Release:
    from privlab.table.anonymize import anonymize_table
    from privlab.table.models import KAnonymity

    limit = float(cell.scheme_params.get("suppression", cell.options.get("suppression", 0.0)))
    out = anonymize_table(table, [KAnonymity(int(value))], suppression_limit=limit)
    return Release(out, None, out.to_dict())


def _safe_k(_: Any, value: float, cell: Cell) -> Release:
    # the analytic scheme releases nothing: its metric (delta) is computed from parameters
    return Release(None)


SCHEMES: dict[str, Scheme] = {
    s.name: s
    for s in (
        Scheme("none", "graph", _identity, (), "the original graph (baseline)"),
        Scheme("rsp", "graph", _perturb("random_sparsification"), (),
               "random sparsification: delete a fraction of the edges"),
        Scheme("rsp-alpha", "graph", _rsp_alpha, (),
               "RSP parametrized by Sharad's α_E: deletes β = (1 − α_E)/(1 + α_E) of the edges"),
        Scheme("rad", "graph", _perturb("random_add_delete"), (),
               "random add/delete (Hay et al.): delete then insert m = fraction·|E| edges"),
        Scheme("rsw", "graph", _perturb("random_switch"), (), "random switch (degree-preserving)"),
        Scheme("rep", "graph", _perturb("random_edge_perturbation"), (),
               "random edge perturbation with flip probability μ"),
        Scheme("ri", "graph", _perturb("random_insertion"), (),
               "random insertion (Sharad's 1HKA proxy): add fraction·|E| non-edges"),
        Scheme("kda", "graph", _kda, (), "k-degree anonymization (simultaneous swap)",
               integer=True),
        Scheme("k-anonymity", "table", _k_anonymity, ("suppression",),
               "optimal full-domain k-anonymization (Loss), parameter k", integer=True),
        Scheme("safe-k", "none", _safe_k, ("k", "beta"),
               "Li et al.'s sampling + strongly-safe k-anonymization (analytic)"),
    )
}  # fmt: skip
SCHEMES["1hka"] = SCHEMES["ri"]


def parse_scheme(text: str) -> tuple[str, dict[str, Any]]:
    """``"name"`` or ``"name:key=value,key=value"`` → (name, {key: number or str}).

    ConfigError for an unknown scheme or option.
    """
    name, _, rest = str(text).partition(":")
    name = name.strip().lower()
    if name not in SCHEMES:
        raise ConfigError(f"unknown scheme {text!r}: use one of {', '.join(sorted(SCHEMES))}")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if not eq or key not in SCHEMES[name].params:
            allowed = ", ".join(SCHEMES[name].params) or "no options"
            raise ConfigError(f"scheme {text!r}: bad option {part!r}; {name} takes: {allowed}")
        try:
            params[key] = float(raw) if "." in raw or "e" in raw.lower() else int(raw)
        except ValueError:
            params[key] = raw.strip()
    return name, params


# ============================================================================ metrics


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


def _clustering(_: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import clustering_coefficient

    return float(clustering_coefficient(r.data, "cc"))


def _apl(_: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import average_path_length

    g = r.data
    return float(
        average_path_length(g, unreachable="exclude", sample=_path_sample(g, cell),
                            seed=cell.sub_seed(2))
    )  # fmt: skip


def _median_path(_: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import path_lengths

    g = r.data
    return float(path_lengths(g, sample=_path_sample(g, cell), seed=cell.sub_seed(2)).median)


def _diameter(_: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import diameter

    g = r.data
    return float(diameter(g, sample=_path_sample(g, cell), seed=cell.sub_seed(2)))


def _median_degree(_: Any, r: Release, cell: Cell) -> float:
    return float(np.median(r.data.degrees()))


def _dd(original: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import hellinger_dd

    return float(hellinger_dd(original, r.data))


def _jdd(original: Any, r: Release, cell: Cell) -> float:
    from privlab.graph.utility import hellinger_jdd

    return float(hellinger_jdd(original, r.data))


def _loss(_: Any, r: Release, cell: Cell) -> float:
    return float(r.data.result.value)


def _suppressed(_: Any, r: Release, cell: Cell) -> float:
    res = r.data.result
    return res.suppressed / res.n_records if res.n_records else 0.0


def _delta(_: Any, r: Release, cell: Cell) -> float:
    from privlab.dp.sampling import delta

    k = int(cell.scheme_params.get("k", cell.options.get("k", 5)))
    beta = float(cell.scheme_params.get("beta", cell.options.get("beta", 0.2)))
    eps = cell.value if cell.parameter == "epsilon" else float(cell.options["epsilon"])
    return float(delta(k, beta, eps))


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
        Metric("loss", "table", _loss, "ARX Loss"),
        Metric("suppressed_fraction", "table", _suppressed, "suppressed rows / rows"),
        Metric("delta", "none", _delta, "δ = d(k, β, ε)"),
    )
}  # fmt: skip


# ============================================================================ attacks


@dataclass(frozen=True)
class Attack:
    """``run(original, release, cell) -> CellResult`` producing the metrics ``outputs``."""

    name: str
    kind: str
    run: Callable[[Any, Release | None, Cell], CellResult]
    outputs: tuple[str, ...]
    curves: tuple[str, ...]
    label: str
    needs_release: bool = True
    schemes: tuple[str, ...] | None = None  # None: any scheme of the kind


def _bucket_names() -> tuple[str, ...]:
    from privlab.graph.attacks.refinement import BUCKET_LABELS

    return tuple(f"h1_bucket_{b}" for b in BUCKET_LABELS)


def _h1(original: Any, r: Release | None, cell: Cell) -> CellResult:
    from privlab.graph.attacks.refinement import perturbation_h1_risk

    assert r is not None
    risk = perturbation_h1_risk(original, r.data, int(r.m or 0))
    fr = risk.buckets.fractions
    out = dict(zip(_bucket_names(), fr, strict=True))
    out["h1_mean_top_probability"] = float(risk.top_probability.mean())
    return CellResult(out)


def _prosecutor(original: Any, r: Release | None, cell: Cell) -> CellResult:
    from privlab.table.risk import risk_of_frame

    assert r is not None
    rel = r.data
    rep = risk_of_frame(rel.data, original.qi, suppressed=rel.suppressed_rows)
    return CellResult({
        "prosecutor_average": float(rep.prosecutor.average),
        "prosecutor_highest": float(rep.prosecutor.highest),
        "records_at_risk": float(rep.prosecutor.fraction_at_risk),
        "sample_uniques": float(rep.sample_uniques_fraction),
    })  # fmt: skip


#: FP rates (fractions) reported as ``learned_tp_at_<percent>``.
LEARNED_FP = (1e-3, 1e-2, 1e-1)


def _learned_outputs() -> tuple[str, ...]:
    return ("learned_auc", *(f"learned_tp_at_{100 * f:g}%" for f in LEARNED_FP))


def _learned(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Sharad's learned attack on one auxiliary/sanitized pair (seed 004 Chapter 4).

    The scheme is applied to the sanitized side of ``sample_pair(original, α_V, α_E = 1)``;
    the adversary trains on splits of both releases (``train_scorer``) and is tested on all
    identical pairs of degree > ``min_degree`` plus ``n_test_non_identical`` random others.
    """
    from privlab.graph.attacks.learned import roc_summary, train_scorer
    from privlab.graph.pairs import sample_pair

    o = cell.options
    alpha_v = float(o.get("alpha_v", 0.5))
    min_degree = int(o.get("min_degree", 5))
    scheme = SCHEMES[cell.scheme]

    def anonymize(g: Any, seed: Any = None) -> Any:
        return scheme.apply(g, cell.value, cell).data

    pair = sample_pair(original, alpha_v, 1.0, seed=cell.sub_seed(3), scheme=anonymize)
    clf_kw = {k: o[k] for k in ("n_trees", "per_class") if k in o}
    scorer = train_scorer(
        pair.aux, pair.san, alpha_v=alpha_v, alpha_e=float(o.get("alpha_e", 1.0)),
        n_bins=int(o.get("n_bins", 21)), bin_width=int(o.get("bin_width", 50)),
        n_identical=int(o.get("n_identical", 25_000)),
        n_non_identical=int(o.get("n_non_identical", 100_000)), min_degree=min_degree,
        n_splits=int(o.get("n_splits", 1)), n_jobs=int(o.get("n_jobs", 2)),
        seed=cell.sub_seed(4), **clf_kw,
    )  # fmt: skip
    u, v, y = _test_pairs(pair, int(o.get("n_test_non_identical", 100_000)), min_degree, cell)
    scores = scorer.bind(pair.aux, pair.san)(u, v)
    roc = roc_summary(scores, y, LEARNED_FP, curve_points=int(o.get("curve_points", 100)))
    metrics = dict(zip(_learned_outputs(), (roc.auc, *roc.tp_rates), strict=True))
    return CellResult(metrics, {"roc": (roc.curve_fpr.tolist(), roc.curve_tpr.tolist())})


def _test_pairs(pair: Any, n_non: int, min_degree: int, cell: Cell):
    """All identical pairs with degree > min_degree plus up to ``n_non`` random other pairs."""
    from privlab.graph.attacks.learned import evaluation_pairs

    return evaluation_pairs(pair.aux, pair.san, pair.truth_pairs(), n_non_identical=n_non,
                            min_degree=min_degree, seed=cell.rng(5))  # fmt: skip


ATTACKS: dict[str, Attack] = {
    a.name: a
    for a in (
        Attack("h1", "graph", _h1, (*_bucket_names(), "h1_mean_top_probability"), (),
               "H_1 (degree) re-identification after RAD: equivalent candidate-set buckets",
               schemes=("none", "rad")),
        Attack("learned", "graph", _learned, _learned_outputs(), ("roc",),
               "Sharad's learned de-anonymization (random forest on degree features)",
               needs_release=False),
        Attack("prosecutor", "table", _prosecutor,
               ("prosecutor_average", "prosecutor_highest", "records_at_risk",
                "sample_uniques"), (), "prosecutor re-identification risk of the release"),
    )
}  # fmt: skip


def output_labels() -> dict[str, str]:
    """Default y labels of every metric an adapter can produce."""
    labels = {name: m.label for name, m in METRICS.items()}
    labels.update({b: f"fraction of nodes with candidate set {b[10:]}" for b in _bucket_names()})
    labels["h1_mean_top_probability"] = "mean top re-identification probability (H_1)"
    labels["learned_auc"] = "AUC (learned attack)"
    for f in LEARNED_FP:
        labels[f"learned_tp_at_{100 * f:g}%"] = f"TP rate at {100 * f:g} % FP"
    labels.update({
        "prosecutor_average": "average prosecutor risk", "prosecutor_highest":
        "highest prosecutor risk", "records_at_risk": "records at risk (> 20 %)",
        "sample_uniques": "sample uniques (fraction)",
    })  # fmt: skip
    return labels


# ============================================================================ one cell


def run_cell(
    data: Any,
    *,
    scheme: str,
    value: float,
    parameter: str,
    seed: int,
    metrics: tuple[str, ...],
    attacks: tuple[str, ...],
    options: Mapping[str, Any],
) -> CellResult:
    """Apply ``scheme`` at ``value`` to ``data`` and measure ``metrics`` and ``attacks``.

    ``scheme`` is the spec's scheme text (``name`` or ``name:key=value``); ``seed`` the
    cell's derived seed.  The scheme runs once if any metric or attack needs its release.
    """
    name, params = parse_scheme(scheme)
    v = int(value) if SCHEMES[name].integer else float(value)
    cell = Cell(name, params, parameter, v, int(seed), dict(options))
    out = CellResult()
    need = bool(metrics) or any(ATTACKS[a].needs_release for a in attacks)
    release = SCHEMES[name].apply(data, v, cell) if need else None
    for m in metrics:
        x = METRICS[m].measure(data, release, cell)  # type: ignore[arg-type]
        out.metrics[m] = float(x) if x is not None and math.isfinite(x) else float("nan")
    for a in attacks:
        r = ATTACKS[a].run(data, release, cell)
        out.metrics.update({k: float(x) for k, x in r.metrics.items()})
        out.curves.update(r.curves)
    return out
