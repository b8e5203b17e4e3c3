"""Hypothesis strategies shared by the table tests: random hierarchies and small tables."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import strategies as st

from privlab.table.hierarchy import Hierarchy
from privlab.table.metrics import AGGREGATIONS, METRICS
from privlab.table.models import (
    DeltaDisclosure,
    DistinctLDiversity,
    EntropyLDiversity,
    KEAnonymity,
    PrivacyModel,
    RecursiveCLDiversity,
    TCloseness,
)


@st.composite
def hierarchies(draw, name: str = "a", max_leaves: int = 6, max_height: int = 3) -> Hierarchy:
    """A random valid hierarchy: leaves grouped level by level, single top '*'."""
    n = draw(st.integers(1, max_leaves))
    height = draw(st.integers(1, max_height))
    labels = [[f"{name}{i}" for i in range(n)]]
    groups = list(range(n))
    for level in range(1, height):
        n_prev = max(groups) + 1
        n_next = draw(st.integers(1, n_prev))
        parent = [draw(st.integers(0, n_next - 1)) for _ in range(n_prev)]
        # make the map surjective onto 0..k-1 by renumbering used parents
        used = {p: i for i, p in enumerate(dict.fromkeys(parent))}
        parent = [used[p] for p in parent]
        groups = [parent[g] for g in groups]
        labels.append([f"{name}L{level}g{g}" for g in groups])
    labels.append(["*"] * n)
    rows = [list(r) for r in zip(*labels, strict=True)]
    return Hierarchy.from_rows(rows, source=f"<random {name}>")


@st.composite
def small_tables(draw, max_qis: int = 3, max_rows: int = 40, with_sensitive: bool = True):
    """(frame, qi names, hierarchies, sensitive name or None) with values drawn from leaves."""
    d = draw(st.integers(1, max_qis))
    names = [f"q{j}" for j in range(d)]
    hier = {c: draw(hierarchies(name=c)) for c in names}
    n = draw(st.integers(1, max_rows))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cols = {c: [hier[c].leaves[i] for i in rng.integers(0, hier[c].n_leaves, n)] for c in names}
    sensitive = None
    if with_sensitive:
        m = draw(st.integers(1, 4))
        cols["s"] = [f"s{v}" for v in rng.integers(0, m, n)]
        sensitive = "s"
    return pl.DataFrame(cols), names, hier, sensitive


GS = [0.0, 0.25, 0.5, 0.75, 1.0]


@st.composite
def metric_specs(draw, name: str | None = None) -> tuple[str, dict[str, object]]:
    """A metric name (drawn unless given) and a random valid set of its options."""
    if name is None:
        name = draw(st.sampled_from(sorted(METRICS)))
    options: dict[str, object] = {}
    if name == "loss":
        options["gs"] = draw(st.sampled_from(GS))
        options["aggregation"] = draw(st.sampled_from(["geometric", "arithmetic"]))
    elif name == "aecs":
        options["gs"] = draw(st.sampled_from(GS))
    elif name in ("entropy", "precision"):
        options["monotonic"] = draw(st.booleans())
        options["gs"] = draw(st.sampled_from(GS))
        options["aggregation"] = draw(st.sampled_from(AGGREGATIONS))
    elif name == "height":
        options["aggregation"] = draw(st.sampled_from(AGGREGATIONS))
    elif name == "kl":
        options["arx_weights"] = draw(st.booleans())
    return name, options


@st.composite
def sensitive_models(draw, sa: str) -> list[PrivacyModel]:
    """No model, or one model on the (numeric) sensitive attribute ``sa``, of every kind."""
    extra = draw(
        st.sampled_from(
            ["none", "distinct", "entropy", "recursive", "t-equal", "t-ordered", "delta", "ke"]
        )
    )
    if extra == "distinct":
        return [DistinctLDiversity(sensitive=sa, l=draw(st.integers(1, 3)))]
    if extra == "entropy":
        return [EntropyLDiversity(sensitive=sa, l=draw(st.floats(1.0, 2.5)))]
    if extra == "recursive":
        c = draw(st.sampled_from([0.5, 1.0, 2.0, 4.0]))
        return [RecursiveCLDiversity(sensitive=sa, c=c, l=draw(st.integers(1, 3)))]
    if extra.startswith("t-"):
        t = draw(st.sampled_from([0.1, 0.25, 0.5, 0.9]))
        return [TCloseness(sensitive=sa, t=t, distance=extra[2:])]
    if extra == "delta":
        return [DeltaDisclosure(sensitive=sa, delta=draw(st.sampled_from([0.5, 1.0, 3.0])))]
    if extra == "ke":
        e = draw(st.sampled_from([0.0, 1.0, 2.0]))
        return [KEAnonymity(sensitive=sa, k=draw(st.integers(1, 3)), e=e)]
    return []
