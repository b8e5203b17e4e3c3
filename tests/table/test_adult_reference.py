"""ARX 3.9.2's optimum on Adult (../shared/spec/REFERENCE_RESULTS.md) — the acceptance rows."""

from __future__ import annotations

import pytest

from privlab.table.models import KAnonymity
from privlab.table.search import Problem, optimal_search

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
