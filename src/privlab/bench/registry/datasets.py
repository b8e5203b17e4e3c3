"""Data sets a spec may name (:data:`DATASETS`) and their loaders.

Graphs: SNAP ego-Facebook and ca-GrQc (read from the data root), networkx's
``powerlaw_cluster_graph`` and ``gnm_random_graph``; the table: UCI Adult in ARX's form with
ARX's hierarchies; microdata: seed 001's Adult capital-loss subset (§3.1) and its synthetic
table (§3.7); ``none`` for analytic experiments (Li et al.'s δ).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError


def data_root() -> Path | None:
    """``$PRIVLAB_DATA`` or ``../shared/data`` next to the working directory's project.

    Checked in order: the environment variable, ``<cwd>/../shared/data``, and the folder
    next to the installed source tree (``src/../../shared/data``).
    """
    env = os.environ.get("PRIVLAB_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(Path.cwd() / ".." / "shared" / "data")
    candidates.append(Path(__file__).resolve().parents[4] / ".." / "shared" / "data")
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
        Dataset("synthetic:chung-lu", "graph", None, ("n", "m", "gamma", "seed", "max_nodes",
                "largest_component"), "Chung–Lu power-law graph: networkx "
                "expected_degree_graph with weights ∝ (i + 1)^(−1/(γ−1)) scaled to mean 2m/n"),
        Dataset("adult", "table", "adult/adult.csv", ("rows", "quasi_identifiers", "sensitive"),
                "UCI Adult in ARX's form with ARX's hierarchies (30,162 rows)"),
        Dataset("adult-capital-loss", "microdata", "adult/uci/adult.data", ("rows",),
                "seed 001's Adult subset: clean UCI rows with capital-loss > 0 and age < 80 "
                "(1,421 rows; sensitive capital_loss)"),
        Dataset("synthetic:capital-loss", "microdata", None, ("n", "sa", "s", "seed"),
                "seed 001 §3.7's synthetic table: age uniform on 17–79, capital_loss normal "
                "(mean 2048, sd 256), uniform or Zipf(s) on 1024–3072 (10,000 rows)"),
        Dataset("synthetic:age-loss", "microdata", None,
                ("n", "noise", "levels", "seed"),
                "seed 001 Figs 2.8–2.10 / 3.5b: age uniform 17–79, capital loss on 155–3,900 "
                "(89-value grid), rising with age jittered by N(0, noise²) years, or uniform "
                "when noise is absent (privlab.table.permutation.synthetic.age_capital_loss)"),
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
    if key == "synthetic:age-loss":
        from privlab.table.permutation.synthetic import age_capital_loss

        noise = options.get("noise")
        return age_capital_loss(
            int(options.get("n", 2000)),
            noise=None if noise is None else float(noise),
            levels=int(options.get("levels", 89)),
            seed=int(options.get("seed", 0)),
        )
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
    if key == "synthetic:chung-lu":
        n, m = int(options.get("n", 300)), int(options.get("m", 600))
        gamma = float(options.get("gamma", 2.5))
        w = np.arange(1, n + 1, dtype=float) ** (-1.0 / (gamma - 1.0))
        w *= 2.0 * m / w.sum()
        nxg = nx.expected_degree_graph(w.tolist(), seed=int(options.get("seed", 0)),
                                       selfloops=False)  # fmt: skip
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


def _integers(df: Any, path: Path, column: str) -> Any:
    """``column`` as Int64; InputError counting the cells that are not integers (a strict
    polars cast would quote the first one's value)."""
    import polars as pl

    parsed = df[column].cast(pl.Int64, strict=False)
    if parsed.null_count():
        raise InputError(
            f"{path}, column {column!r}: {parsed.null_count()} row(s) with a value that is not "
            "an integer; use the UCI adult.data file unchanged"
        )
    return parsed


def _load_capital_loss(options: Mapping[str, Any]) -> Any:
    """Seed 001 §3.1's subset (as benchmarks/bench_permutation_figures.py): a polars frame.

    The clean rows of ``adult/uci/adult.data`` ('?' dropped: 30,162) with capital-loss > 0
    (1,427), less the 6 of age ≥ 80 (the seed's "age > 80"): 1,421 rows; the 9 ARX columns
    as quasi-identifiers (``-`` → ``_``) and ``capital_loss``.  ``rows``: the first rows only.
    """
    import polars as pl

    root = data_root()
    assert root is not None
    path = root / "adult" / "uci" / "adult.data"
    df = pl.read_csv(
        path, has_header=False, new_columns=list(_UCI_COLUMNS), infer_schema_length=0,
    ).with_columns(pl.all().str.strip_chars())  # fmt: skip
    df = df.filter(pl.col("age").is_not_null() & (pl.col("age") != ""))
    df = df.filter(~pl.any_horizontal(pl.all() == "?"))
    df = df.with_columns(_integers(df, path, "age"), _integers(df, path, "capital-loss"))
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
