"""The optimal search equals exhaustive search (for every metric), and every release satisfies
its models."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from privlab.errors import InfeasibleError
from privlab.table.data import MicroTable
from privlab.table.hierarchy import Hierarchy
from privlab.table.metrics import METRICS, Loss, make_metric
from privlab.table.models import (
    EntropyLDiversity,
    KAnonymity,
)
from privlab.table.search import Problem, datafly_search, exhaustive_search, optimal_search

from ..strategies import metric_specs, sensitive_models, small_tables


@st.composite
def problems(draw, metric_name: str | None = None):
    """A random table, models, suppression limit and metric (of ``metric_name`` if given)."""
    frame, qis, hier, sa = draw(small_tables())
    frame = frame.with_columns(pl.col(sa).str.slice(1))  # "s3" -> "3": a numeric SA
    table = MicroTable.from_data(frame, quasi_identifiers=qis, hierarchies=hier, sensitive=[sa])
    k = draw(st.integers(1, max(1, table.n_rows)))
    models = [KAnonymity(k)]
    models += draw(sensitive_models(sa))
    limit = draw(st.sampled_from([0.0, 0.05, 0.2, 0.5, 1.0]))
    name, options = draw(metric_specs(metric_name))
    return table, models, limit, make_metric(name, **options)


def _solve(search, table, models, limit, metric):
    try:
        return search(Problem(table, models, suppression_limit=limit, metric=metric))
    except InfeasibleError:
        return None


@pytest.mark.parametrize("metric_name", sorted(METRICS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_optimal_equals_exhaustive(metric_name, data):
    """The pruning by each metric's lower bounds never loses the optimum (same node, value and
    suppressed count as checking every node)."""
    table, models, limit, metric = data.draw(problems(metric_name))
    best = _solve(optimal_search, table, models, limit, metric)
    reference = _solve(exhaustive_search, table, models, limit, metric)
    assert (best is None) == (reference is None)
    if best is not None:
        assert best.node == reference.node
        assert best.value == reference.value
        assert best.suppressed == reference.suppressed
        # every node status the pruned search reports is the true one; evaluated nodes known
        known = best.node_status != 0
        assert (best.node_status[known] == reference.node_status[known]).all()
        assert (best.node_status[best.nodes_evaluated] != 0).all()


@settings(max_examples=150, deadline=None)
@given(problems(), st.sampled_from([optimal_search, datafly_search]))
def test_release_satisfies_models_and_accounts_for_rows(problem, search):
    table, models, limit, metric = problem
    p = Problem(table, models, suppression_limit=limit, metric=metric)
    try:
        result = search(p)
    except InfeasibleError:
        return
    check = p.check(result.node)
    t = check.table
    # released classes satisfy every model; suppressed ones are within the limit
    for m in models:
        hist = t.sa_hist[0] if m.sensitive else None
        assert np.all(m.class_ok(t.counts[check.kept], None if hist is None else hist[check.kept]))
    assert check.suppressed <= np.floor(limit * table.n_rows)
    # every input row is either released in a kept class or counted as suppressed
    assert int(t.counts[check.kept].sum()) + check.suppressed == table.n_rows
    assert result.n_classes == int(check.kept.sum())


def test_entropy_l_diversity_with_suppression_is_not_monotone():
    """Generalizing can suppress *more* records: x=a holds SA {1, 2} (entropy ln 2, passes
    ℓ = 2), x=b holds ten records of SA 3 (fails).  At the bottom 10 records are suppressed
    (the limit); at the top the merged class has entropy 0.566 < ln 2 and all 12 fail.  A
    search that tags the bottom's up-set as satisfied would release the top, breaking the
    limit; the optimal search must return what exhaustive search returns."""
    frame = {"x": ["a", "a"] + ["b"] * 10, "s": ["1", "2"] + ["3"] * 10}
    table = MicroTable.from_data(
        pl.DataFrame(frame),
        quasi_identifiers=["x"],
        hierarchies={"x": Hierarchy.from_rows([["a", "*"], ["b", "*"]])},
        sensitive=["s"],
    )
    models = [EntropyLDiversity(sensitive="s", l=2)]
    for metric in (Loss(gs=0.5), Loss(gs=1.0), *(make_metric(name) for name in METRICS)):
        p = Problem(table, models, suppression_limit=10 / 12, metric=metric)
        assert not p.monotone
        top = p.check(p.lattice.top)
        assert not top.anonymous and top.suppressed == 12
        best = optimal_search(p)
        ref = exhaustive_search(Problem(table, models, suppression_limit=10 / 12, metric=metric))
        assert best.node == ref.node == p.lattice.bottom
        assert best.suppressed == 10
