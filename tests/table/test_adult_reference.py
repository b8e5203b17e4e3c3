"""ARX 3.9.2's optimum on Adult (../shared/spec/REFERENCE_RESULTS.md) — the acceptance rows."""

from __future__ import annotations

import pytest

from privlab.table.adult import load_adult
from privlab.table.metrics import make_metric
from privlab.table.models import KAnonymity
from privlab.table.search import Problem, exhaustive_search, optimal_search

from ..conftest import ADULT_QIS

# (limit, levels in ADULT_QIS order, ARX Loss, suppressed, classes)
ARX_ROWS = [
    (0.00, (0, 4, 1, 1, 3, 2, 2, 1, 0), 0.5731509655590044, 0, 24),
    (0.02, (0, 3, 0, 2, 2, 1, 1, 2, 0), 0.3137130352819242, 506, 222),
]


@pytest.mark.adult
@pytest.mark.parametrize(("limit", "levels", "loss", "suppressed", "classes"), ARX_ROWS)
def test_optimal_k5_matches_arx(adult_table, limit, levels, loss, suppressed, classes):
    result = optimal_search(Problem(adult_table, [KAnonymity(5)], suppression_limit=limit))
    assert tuple(result.levels[c] for c in ADULT_QIS) == levels
    assert result.suppressed == suppressed
    assert result.n_classes == classes
    assert result.value == pytest.approx(loss, abs=1e-9)


@pytest.mark.adult
def test_minimum_discernibility_of_the_python_tools_setup(adult_dir):
    """REFERENCE_RESULTS' "Python tools" set-up: 6 QIs, k = 5, no suppression, DM.

    Its table gives 8,307,591 as the optimum; no full-domain 5-anonymous release reaches that.
    The optimum below is what the optimal search, the exhaustive search over all 720 nodes and
    an independent numpy brute force (benchmarks/bench_anchors.py) agree on.
    """
    qis = ["age", "education", "marital-status", "race", "sex", "native-country"]
    table = load_adult(adult_dir, qis)
    problem = Problem(table, [KAnonymity(5)], metric=make_metric("dm"))
    best, every = optimal_search(problem), exhaustive_search(problem)
    assert best.value == every.value == 55_170_356
    assert best.levels == every.levels == {
        "age": 1, "education": 3, "marital-status": 1, "race": 1, "sex": 1, "native-country": 2
    }  # fmt: skip
    assert best.suppressed == 0
