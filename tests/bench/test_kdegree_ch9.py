"""The thesis's Ch. 9 k-degree benchmark in the bench (specs kdegree-ch9, kdegree-ch9-full):
every figure of a reduced run equals a direct library call on the cell's seed, the report
draws the five utility-vs-k plots, and a degree-sequence scheme refuses graph metrics."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import polars as pl
import pytest

from privlab.bench import load_spec, parse_text, registry, run_spec
from privlab.bench.registry.cells import Cell
from privlab.bench.runner import CellKey, cell_seed
from privlab.errors import ConfigError
from privlab.graph.anonymize.kdegree import kdegree_anonymize
from privlab.graph.anonymize.kdegree_sequence import (
    anonymize_degree_sequence,
    is_k_anonymous_sequence,
)
from privlab.graph.utility import clustering_coefficient, density, diameter, power_law_exponent
from privlab.report.results import report_from_results

UTILITY = ("diameter", "avg_path_length", "density", "powerlaw_alpha", "clustering")
METHOD = {"kda-supergraph": "supergraph", "kda-relaxed": "relaxed",
          "kda-simulswap": "simultaneous_swap"}  # fmt: skip


@pytest.fixture(scope="module")
def reduced(tmp_path_factory):
    """The reduced spec, restricted to its synthetic experiments (no data files needed)."""
    spec = load_spec("kdegree-ch9").reduce()
    keep = ("facebook", "l1-powergrid-like")  # reduced facebook = a powerlaw-cluster graph
    spec = replace(spec, experiments=tuple(e for e in spec.experiments if e.name in keep))
    out = tmp_path_factory.mktemp("ch9")
    assert run_spec(spec, out).complete
    return spec, out, pl.read_csv(out / "results.csv")


def _result(df, exp, scheme, k, metric):
    row = df.filter((pl.col("experiment") == exp) & (pl.col("scheme") == scheme)
                    & (pl.col("value") == k) & (pl.col("metric") == metric))  # fmt: skip
    assert row.height == 1
    return row["result"][0]


def test_utility_cells_equal_direct_library_calls(reduced):
    spec, _, df = reduced
    e = next(x for x in spec.experiments if x.name == "facebook")
    g = registry.load_dataset(e.data, e.data_options)
    assert _result(df, e.name, "none", 1, "density") == pytest.approx(density(g))  # baseline
    assert _result(df, e.name, "none", 1, "diameter") == diameter(g)
    for scheme in e.schemes[1:]:
        for k in e.values[scheme]:
            seed = cell_seed(spec.seed, CellKey(e.name, scheme, float(k), 0))
            cell = Cell(scheme, {}, "k", int(k), seed, dict(e.options))
            r = kdegree_anonymize(g, int(k), method=METHOD[scheme], seed=cell.sub_seed(1))
            assert is_k_anonymous_sequence(r.graph.degrees(), int(k))
            if scheme == "kda-supergraph":  # additions only
                assert r.edges_removed == 0
            assert _result(df, e.name, scheme, k, "density") == pytest.approx(density(r.graph))
            assert _result(df, e.name, scheme, k, "diameter") == diameter(r.graph)
            assert _result(df, e.name, scheme, k, "clustering") == pytest.approx(
                clustering_coefficient(r.graph, "cc")
            )
            assert _result(df, e.name, scheme, k, "powerlaw_alpha") == pytest.approx(
                power_law_exponent(r.graph, x_min=3).alpha
            )


def test_l1_cells_are_the_two_dp_costs(reduced):
    """Figs 9.6/9.7: allowing deletions (median) never costs more than additions only."""
    spec, _, df = reduced
    e = next(x for x in spec.experiments if x.name == "l1-powergrid-like")
    d = registry.load_dataset(e.data, e.data_options).degrees()
    for k in e.values["degree-anon"]:
        add = anonymize_degree_sequence(d, int(k)).cost
        med = anonymize_degree_sequence(d, int(k), allow_decrease=True).cost
        assert _result(df, e.name, "degree-anon", k, "degree_l1") == add
        assert _result(df, e.name, "optimal-degree-anon", k, "degree_l1") == med
        assert med <= add


def test_report_draws_the_five_utility_plots(reduced):
    _, out, _ = reduced
    html = report_from_results(out).render()
    for label in ("diameter (exact)", "average path length (exact)", "density",
                  "power-law exponent", "clustering coefficient", "L1(d̂, d)"):  # fmt: skip
        assert f"{label}" in html
    assert html.count("<img") >= 5 + 1  # five utility plots (original at k = 1) + the L1 plot


def test_specs_are_valid_and_small_when_reduced():
    for name in ("kdegree-ch9", "kdegree-ch9-full"):
        full, small = load_spec(name), load_spec(name).reduce()
        assert small.n_cells <= 40 < full.n_cells
        for e in full.experiments:
            assert set(e.metrics) in ({"degree_l1"}, set(UTILITY))


def test_degree_sequence_schemes_refuse_graph_metrics():
    text = """
[spec]
name = "t"
title = "t"
[[experiment]]
schemes = ["degree-anon"]
metrics = ["clustering"]
name = "x"
title = "x"
data = "synthetic:chung-lu"
values = [2]
parameter = "k"
"""
    with pytest.raises(ConfigError, match="releases a degree sequence"):
        parse_text(text)


def test_chung_lu_data_set_is_reproducible():
    a = registry.load_dataset("synthetic:chung-lu", {"n": 500, "m": 700, "seed": 3})
    b = registry.load_dataset("synthetic:chung-lu", {"n": 500, "m": 700, "seed": 3})
    assert a.n_nodes == 500 and np.array_equal(a.edges(), b.edges())
    assert 600 < a.n_edges < 800  # expected m = 700
    # heavy tail: the first node's expected degree is far above the mean
    assert a.degrees()[0] > 5 * a.degrees().mean()
