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
        Dataset("adult", "table", "adult/adult.csv", ("rows", "quasi_identifiers", "sensitive"),
                "UCI Adult in ARX's form with ARX's hierarchies (30,162 rows)"),
        Dataset("adult-capital-loss", "microdata", "adult/uci/adult.data", ("rows",),
                "seed 001's Adult subset: clean UCI rows with capital-loss > 0 and age < 80 "
                "(1,421 rows; sensitive capital_loss)"),
        Dataset("synthetic:capital-loss", "microdata", None, ("n", "sa", "s", "seed"),
                "seed 001 §3.7's synthetic table: age uniform on 17–79, capital_loss normal "
                "(mean 2048, sd 256), uniform or Zipf(s) on 1024–3072 (10,000 rows)"),
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
    if key == "synthetic:capital-loss":
        return _synthetic_capital_loss(options)
    if d.kind == "microdata":
        return _load_capital_loss(options)
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
    sensitive = list(options.get("sensitive", []))
    qis = options.get("quasi_identifiers", [c for c in ADULT_COLUMNS if c not in sensitive])
    table = load_adult(root / "adult", qis, sensitive=sensitive)
    rows = options.get("rows")
    if rows is not None and int(rows) < table.n_rows:
        table = sample_table(table, np.arange(int(rows)))
    return table


#: The UCI Adult columns, and the 9 ARX columns used as the QIs of seed 001's subset.
_UCI_COLUMNS = (
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "salary-class",
)  # fmt: skip
_CAPITAL_LOSS_QIS = (
    "sex", "age", "race", "marital_status", "education", "native_country", "workclass",
    "occupation", "salary_class",
)  # fmt: skip
CAPITAL_LOSS = "capital_loss"


def _load_capital_loss(options: Mapping[str, Any]) -> Any:
    """Seed 001 §3.1's subset (as benchmarks/bench_permutation_figures.py): a polars frame.

    The clean rows of ``adult/uci/adult.data`` ('?' dropped: 30,162) with capital-loss > 0
    (1,427), less the 6 of age ≥ 80 (the seed's "age > 80"): 1,421 rows; the 9 ARX columns
    as quasi-identifiers (``-`` → ``_``) and ``capital_loss``.  ``rows``: the first rows only.
    """
    import polars as pl

    root = data_root()
    assert root is not None
    df = pl.read_csv(
        root / "adult" / "uci" / "adult.data", has_header=False,
        new_columns=list(_UCI_COLUMNS), infer_schema_length=0,
    ).with_columns(pl.all().str.strip_chars())  # fmt: skip
    df = df.filter(pl.col("age").is_not_null() & (pl.col("age") != ""))
    df = df.filter(~pl.any_horizontal(pl.all() == "?"))
    df = df.with_columns(pl.col("age").cast(pl.Int64), pl.col("capital-loss").cast(pl.Int64))
    df = df.filter((pl.col("capital-loss") > 0) & (pl.col("age") < 80))
    frame = df.select(
        [pl.col(c.replace("_", "-")).alias(c) for c in _CAPITAL_LOSS_QIS]
        + [pl.col("capital-loss").alias(CAPITAL_LOSS)]
    )
    rows = options.get("rows")
    return frame.head(int(rows)) if rows is not None else frame


def _synthetic_capital_loss(options: Mapping[str, Any]) -> Any:
    """Seed 001 §3.7's non-correlated synthetic data: ``age``, ``capital_loss`` (integers).

    ``n`` rows (10,000), age uniform on 17–79, capital_loss on 1024–3072 drawn by ``sa``:
    ``normal`` (mean 2048, sd 256, clipped; the seed gives no parameters), ``uniform`` or
    ``zipf`` (P(1024 + k − 1) ∝ k^−s, ``s`` = 0.1 as the seed's source).  ``seed``: 0.
    """
    import polars as pl

    n = int(options.get("n", 10_000))
    sa = str(options.get("sa", "normal"))
    rng = np.random.default_rng(int(options.get("seed", 0)))
    age = rng.integers(17, 80, size=n)
    lo, hi = 1024, 3072
    if sa == "normal":
        x = np.clip(np.rint(rng.normal(2048, 256, size=n)), lo, hi)
    elif sa == "uniform":
        x = rng.integers(lo, hi + 1, size=n)
    elif sa == "zipf":
        k = np.arange(1, hi - lo + 2, dtype=np.float64)
        p = k ** -float(options.get("s", 0.1))
        x = lo + rng.choice(k.size, size=n, p=p / p.sum())
    else:
        raise ConfigError(f"data_options sa = {sa!r}: use normal, uniform or zipf")
    return pl.DataFrame({"age": age.astype(np.int64), CAPITAL_LOSS: x.astype(np.int64)})


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
    # the value is an edge overlap α_E that the pair generator applies to both copies
    # (Sharad's RSP), not a scheme applied to the sanitized side
    pair_noise: bool = False


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


def _sensitive_model(model: str) -> Callable[[Any, float, Cell], Release]:
    """ℓ-diversity / t-closeness on the table's (first) sensitive column, optionally with k."""

    def apply(table: Any, value: float, cell: Cell) -> Release:
        from privlab.table import models as tm
        from privlab.table.anonymize import anonymize_table

        if not table.sensitive:
            raise ConfigError(f"scheme {model!r} needs a sensitive column: set data_options "
                              "sensitive = [\"occupation\"] (for example)")  # fmt: skip
        sa = table.sensitive[0]
        p = {**cell.options, **cell.scheme_params}
        if model == "l-diversity":
            models: list[Any] = [tm.DistinctLDiversity(sa, int(value))]
        elif model == "entropy-l-diversity":
            models = [tm.EntropyLDiversity(sa, float(value))]
        else:
            models = [tm.TCloseness(sa, float(value), distance=str(p.get("distance", "equal")))]
        k = int(p.get("k", 1))
        if k > 1:
            models.insert(0, tm.KAnonymity(k))
        out = anonymize_table(table, models, suppression_limit=float(p.get("suppression", 0.0)))
        return Release(out, None, out.to_dict())

    return apply


def _ke_permute(method: str) -> Callable[[Any, float, Cell], Release]:
    """(k, e)-anonymous permutation (seed 001) with partitioner ``method``; k = 4, e = 100."""

    def apply(frame: Any, value: float, cell: Cell) -> Release:
        from privlab.table.permutation import permute

        p = {**cell.options, **cell.scheme_params}
        qi = [c for c in frame.columns if c != CAPITAL_LOSS]
        rel = permute(frame, qi=qi, sensitive=CAPITAL_LOSS, k=int(p.get("k", 4)),
                      e=float(p.get("e", 100)), method=method, seed=cell.sub_seed(1))  # fmt: skip
        return Release(rel, None, {"groups": rel.n_groups})

    return apply


def _round_ratios(h: Any, ratio: int) -> Any:
    """Every inner node's child weights rounded to integers summing to ``ratio``.

    Seed 001 §3.7's "normalize the ratios to the ranges of 10": exact ratios such as
    1051:1050 make Algorithm 3's exact m-bound allocation empty and push every value to the
    root.  Largest remainders; a child may round to 0 (its values are then published in an
    ancestor's subdomain).
    """
    w = list(h.weight)
    for ch in h.children:
        tot = sum(h.weight[c] for c in ch)
        if not ch or tot == 0:
            continue
        exact = [h.weight[c] * ratio / tot for c in ch]
        ints = [math.floor(e) for e in exact]
        for i in sorted(range(len(ch)), key=lambda i: ints[i] - exact[i])[: ratio - sum(ints)]:
            ints[i] += 1
        for c, wi in zip(ch, ints, strict=True):
            w[c] = wi
    return h.with_weights(w)


def _target_hierarchy(x: np.ndarray, p: Mapping[str, Any]) -> Any:
    """The balanced hierarchy of the ``target`` scheme with the target's leaf weights."""
    from privlab.table.permutation.target import SAHierarchy

    lo, hi = int(x.min()), int(x.max())
    domain = str(p.get("domain", "values"))
    if domain == "range":
        dom = np.arange(lo, hi + 1)
    elif domain == "values":
        dom = np.unique(x).astype(np.int64)
    else:
        raise ConfigError(f"scheme target: domain = {domain!r}; use values or range")
    target = str(p.get("target", "uniform"))
    if target == "uniform":
        return SAHierarchy.balanced(dom)
    if target == "source":
        counts = np.bincount(np.searchsorted(dom, x), minlength=dom.size)
        return SAHierarchy.balanced(dom, [int(c) for c in counts])
    if target == "normal":  # N(mid, (range / r)²) over the domain (Table 3.5: normal(4), (20))
        sd = (hi - lo) / float(p.get("r", 4))
        f = np.exp(-0.5 * ((dom - (lo + hi) / 2) / sd) ** 2)
    elif target == "zipf":  # rank 1 = the largest value (reproduces Table 3.5's 8:92)
        f = (hi - dom + 1.0) ** -float(p.get("s", 1))
    else:
        raise ConfigError(f"scheme target: target = {target!r}; use uniform, source, normal "
                          "or zipf")  # fmt: skip
    return SAHierarchy.balanced(dom, [int(v) for v in np.rint(f / f.max() * 1e6)])


def _target(frame: Any, value: float, cell: Cell) -> Release:
    """Seed 001 ch. 3 target-distribution release (``target_release``), QI = age.

    Options (scheme or ``options``): ``target`` (uniform | source | normal with ``r`` |
    zipf with ``s``), ``domain`` (values: the distinct SA values; range: every integer from
    min to max), ``ratio`` (node ratios rounded to integers summing to it, default 10; 0 =
    exact), ``mode`` (sa-only | qi-sa), ``groups`` (owner groups: that many equal-width age
    bands, default 1 = the whole table), ``fakes`` (max_fakes: an int per group or a
    fraction < 1), ``shift`` (§3.6 factor x; the swept value when parameter = "shift").
    """
    from privlab.table.permutation.target import shifted_hierarchy, target_release

    p = {**cell.options, **cell.scheme_params}
    x = frame[CAPITAL_LOSS].to_numpy()
    h = _target_hierarchy(x, p)
    shift = float(value) if cell.parameter == "shift" else p.get("shift")
    groups = int(p.get("groups", 1))
    mode = str(p.get("mode", "sa-only"))
    if shift is not None:
        if groups != 1 or mode != "sa-only":
            raise ConfigError("scheme target: shift needs groups = 1 and mode = sa-only")
        h = shifted_hierarchy(h, x, float(shift))
    ratio = int(p.get("ratio", 10))
    if ratio > 0:
        h = _round_ratios(h, ratio)
    gid = None
    if groups > 1:
        age = frame["age"].to_numpy()
        edges = np.linspace(age.min(), age.max() + 1, groups + 1)
        gid = np.searchsorted(edges, age, side="right") - 1
    fakes = p.get("fakes", 0)
    rel = target_release(frame, qi=["age"], sensitive=CAPITAL_LOSS, hierarchy=h, groups=gid,
                         mode=mode, max_fakes=fakes, seed=cell.sub_seed(1))  # fmt: skip
    return Release(rel, None, dict(rel.parameters))


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
               "RSP parametrized by Sharad's α_E: deletes β = (1 − α_E)/(1 + α_E) of the edges",
               pair_noise=True),
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
        Scheme("l-diversity", "table", _sensitive_model("l-diversity"), ("k", "suppression"),
               "optimal full-domain distinct ℓ-diversity (Loss) on the sensitive column, "
               "parameter ℓ", integer=True),
        Scheme("entropy-l-diversity", "table", _sensitive_model("entropy-l-diversity"),
               ("k", "suppression"), "optimal full-domain entropy ℓ-diversity, parameter ℓ"),
        Scheme("t-closeness", "table", _sensitive_model("t-closeness"),
               ("k", "suppression", "distance"),
               "optimal full-domain t-closeness (equal or ordered distance), parameter t"),
        *(Scheme(m, "microdata", _ke_permute(m), ("k", "e"),
                 f"(k, e)-anonymous permutation, partitioner {m} (seed 001; k = 4, e = 100)")
          for m in ("min-sum", "min-max", "max-group", "random", "swap")),
        Scheme("target", "microdata", _target,
               ("target", "r", "s", "domain", "ratio", "mode", "groups", "fakes", "shift"),
               "target-distribution release (seed 001 ch. 3, target_release; QI = age)"),
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
        Metric("loss", "table", _loss, "ARX Loss"),
        Metric("suppressed_fraction", "table", _suppressed, "suppressed rows / rows"),
        Metric("range_avg_error", "microdata", _range_error(False),
               "mean relative error (u − l)/r of AVG range queries (permuted)"),
        Metric("range_avg_error_generalized", "microdata", _range_error(True),
               "mean relative error of AVG range queries (same groups, generalized)"),
        Metric("sum_of_ranges", "microdata", _sum_of_ranges,
               "sum of ranges of the published subdomains (target release)"),
        Metric("fake_values", "microdata", _fake_values, "fake values added (target release)"),
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


def _bucket_outputs(prefix: str) -> tuple[str, ...]:
    from privlab.graph.attacks.refinement import BUCKET_LABELS

    return tuple(f"{prefix}_bucket_{b}" for b in BUCKET_LABELS)


def _size_curve(sizes: np.ndarray) -> tuple[list[float], list[float]]:
    """(candidate-set size, number of nodes with it): the report's bucket bars."""
    u, c = np.unique(np.asarray(sizes), return_counts=True)
    return [float(x) for x in u], [float(x) for x in c]


def _refinement(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Hay et al. Fig. 5: candidate-set buckets under vertex refinement H_i (value = i).

    The release is the naively anonymized graph (scheme ``none``).  ``options.star``: the
    value that stands for H* (e.g. 4 in a sweep 1, 2, 3, 4 = H_1, H_2, H_3, H*).
    """
    from privlab.graph.attacks.refinement import vertex_refinement

    assert r is not None
    vr = vertex_refinement(r.data)
    i = int(cell.value)
    star = cell.options.get("star")
    sizes = vr.candidate_sizes(None if star is not None and i == int(star) else i)
    out = dict(zip(_bucket_outputs("refine"), _fractions(sizes), strict=True))
    out["refine_stable_level"] = float(vr.stable_level or 0)
    return CellResult(out, {"candidate_set_size": _size_curve(sizes)})


def _fractions(sizes: np.ndarray) -> tuple[float, ...]:
    from privlab.graph.attacks.refinement import bucket_counts

    return bucket_counts(sizes).fractions


def _subgraph(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Hay et al. Figs 6–7: candidate-set buckets after b edge facts (value = b).

    ``subgraph_knowledge_experiment`` on the naively anonymized graph; options
    ``exact_degrees`` (default true), ``targets`` (a random sample of that many nodes from
    the cell's seed; 0 or absent: every node), ``method`` (matcher, default ``hall``).
    """
    from privlab.graph.attacks.subgraph import subgraph_knowledge_experiment

    assert r is not None
    g = r.data
    n_t = int(cell.options.get("targets", 0) or 0)
    targets = None
    if 0 < n_t < g.n_nodes:
        targets = np.sort(cell.rng(7).choice(g.n_nodes, size=n_t, replace=False))
    res = subgraph_knowledge_experiment(
        g, int(cell.value), exact_degrees=bool(cell.options.get("exact_degrees", True)),
        targets=targets, seed=cell.sub_seed(8) % (2**31),
        method=str(cell.options.get("method", "hall")),
    )  # fmt: skip
    sizes = res.sizes[:, -1]
    out = dict(zip(_bucket_outputs("subgraph"), _fractions(sizes), strict=True))
    out["subgraph_median_size"] = float(np.median(sizes)) if sizes.size else float("nan")
    return CellResult(out, {"candidate_set_size": _size_curve(sizes)})


#: Outputs of the homogeneity / background-knowledge attack.
HOMOGENEITY_OUTPUTS = ("attr_disclosure", "attr_homogeneous", "attr_mean_max_posterior",
                       "attr_max_posterior")  # fmt: skip


def _homogeneity(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Attribute disclosure on the sensitive column (seed 000 §2.3): every released row a target.

    ``options``: ``tau`` (disclosed when the true value's posterior ≥ τ; default 1 =
    homogeneity), ``rule_out`` (background knowledge: b false values ruled out; default 0).
    """
    from privlab.table.attacks.inference import homogeneity_attack

    assert r is not None
    if not original.sensitive:
        raise ConfigError("attack 'homogeneity' needs a sensitive column: set data_options "
                          "sensitive = [\"occupation\"] (for example)")  # fmt: skip
    res = homogeneity_attack(
        r.data, original.qi, original.sensitive[0], tau=float(cell.options.get("tau", 1.0)),
        rule_out=int(cell.options.get("rule_out", 0)),
    )  # fmt: skip
    d = res.to_dict()
    return CellResult({
        "attr_disclosure": d["disclosure_rate"], "attr_homogeneous": d["homogeneity_rate"],
        "attr_mean_max_posterior": d["mean_max_posterior"],
        "attr_max_posterior": d["max_max_posterior"],
    })  # fmt: skip


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

    The scheme is applied to the sanitized side of ``sample_pair(original, α_V, α_E = 1)``,
    except a ``pair_noise`` scheme (RSP, ``rsp-alpha``), which *is* the pair generator's
    edge noise: seed 004 §2.9
    (L1065) deletes β = (1 − α_E)/(1 + α_E) from each copy, so the pair is
    ``sample_pair(original, α_V, α_E)`` and the adversary splits its releases with that α_E
    (applying RSP to the sanitized side only left the auxiliary graph complete and drove the
    AUC below 0.5: training splits never saw the one-sided degree loss).  The adversary
    trains on splits of both releases (``train_scorer``) and is tested on all identical pairs
    of degree > ``min_degree`` plus ``n_test_non_identical`` random others.
    """
    from privlab.graph.attacks.learned import roc_summary, train_scorer
    from privlab.graph.pairs import sample_pair

    o = cell.options
    alpha_v = float(o.get("alpha_v", 0.5))
    min_degree = int(o.get("min_degree", 5))
    scheme = SCHEMES[cell.scheme]

    def anonymize(g: Any, seed: Any = None) -> Any:
        return scheme.apply(g, cell.value, cell).data

    if scheme.pair_noise:
        alpha_e = float(cell.value)
        pair = sample_pair(original, alpha_v, alpha_e, seed=cell.sub_seed(3))
    else:
        alpha_e = 1.0
        pair = sample_pair(original, alpha_v, 1.0, seed=cell.sub_seed(3), scheme=anonymize)
    clf_kw = {k: o[k] for k in ("n_trees", "per_class") if k in o}
    scorer = train_scorer(
        pair.aux, pair.san, alpha_v=alpha_v, alpha_e=float(o.get("alpha_e", alpha_e)),
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
        Attack("refinement", "graph", _refinement,
               (*_bucket_outputs("refine"), "refine_stable_level"), ("candidate_set_size",),
               "H_i (vertex refinement) candidate-set buckets of the naive release (Hay Fig. 5)",
               schemes=("none",)),
        Attack("subgraph", "graph", _subgraph,
               (*_bucket_outputs("subgraph"), "subgraph_median_size"), ("candidate_set_size",),
               "subgraph knowledge: candidate-set buckets after b edge facts (Hay Figs 6–7)",
               schemes=("none",)),
        Attack("homogeneity", "table", _homogeneity, HOMOGENEITY_OUTPUTS, (),
               "homogeneity / background-knowledge attribute disclosure"),
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
    for p, what in (("refine", "H_i"), ("subgraph", "subgraph knowledge")):
        labels.update({b: f"fraction of nodes with candidate set {b.split('_bucket_')[1]} "
                       f"({what})" for b in _bucket_outputs(p)})  # fmt: skip
    labels["refine_stable_level"] = "stable refinement level (H* = H_s)"
    labels["subgraph_median_size"] = "median candidate-set size (subgraph knowledge)"
    labels.update({
        "attr_disclosure": "records disclosed (true value's posterior ≥ τ)",
        "attr_homogeneous": "records in a homogeneous class", "attr_mean_max_posterior":
        "mean adversary confidence (max posterior)", "attr_max_posterior":
        "highest adversary confidence",
    })  # fmt: skip
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
