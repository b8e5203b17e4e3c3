"""ε-safe k-anonymization (Theorem 3.11): the selection's score sensitivity really is
max(1, k − 1), every row is accounted for, and the guarantee is (ε, d(k, β, ε − ε₁))."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.dp.safe_search import eps_safe_k_anonymize, lattice_scores, score_sensitivity
from privlab.dp.sampling import delta
from privlab.errors import ConfigError
from privlab.table.data import MicroTable
from privlab.table.lattice import Groupify
from privlab.table.sample import census_sample
from tests.strategies import small_tables


@given(small_tables(max_rows=25, with_sensitive=False), st.integers(1, 6), st.data())
@settings(max_examples=60, deadline=None)
def test_adding_one_record_moves_every_score_by_at_most_the_sensitivity(tbl, k, data):
    frame, qi, hier, _ = tbl
    table = MicroTable.from_data(frame, quasi_identifiers=qi, hierarchies=hier)
    codes = table.qi_codes
    extra = np.array(
        [[data.draw(st.integers(0, hier[c].n_leaves - 1)) for c in qi]], dtype=codes.dtype
    )
    hs = [hier[c] for c in qi]
    before = lattice_scores(Groupify(hs, codes), k)
    after = lattice_scores(Groupify(hs, np.vstack([codes, extra])), k)
    assert np.abs(after - before).max() <= score_sensitivity(k) + 1e-9


def test_sensitivity_is_reached():
    # k − 1 records in one class, a k-th joins: all k are released exact (loss 0)
    table = MicroTable.from_data(
        census_sample(200, seed=1).frame.head(1).select("sex"), quasi_identifiers=["sex"],
        hierarchies={"sex": census_sample(10).hierarchies["sex"]},
    )  # fmt: skip
    k = 4
    hs = [table.hierarchies["sex"]]
    row = table.qi_codes[:1]
    before = lattice_scores(Groupify(hs, np.repeat(row, k - 1, axis=0)), k)
    after = lattice_scores(Groupify(hs, np.repeat(row, k, axis=0)), k)
    assert after[0] - before[0] == pytest.approx(score_sensitivity(k))


@pytest.fixture(scope="module")
def census():
    return census_sample(3000, seed=5).micro_table()


def test_release_accounts_for_every_row_and_carries_theorem_3_11(census):
    r = eps_safe_k_anonymize(census, k=10, beta=0.5, epsilon=1.5, selection_epsilon=0.2, rng=4)
    assert r.not_sampled + r.suppressed + r.released == census.n_rows
    assert r.guarantee.epsilon == 1.5
    assert r.guarantee.delta == delta(10, 0.5, 1.3)
    assert r.selection["candidates"] == int(np.prod([census.hierarchies[c].height + 1
                                                     for c in census.qi]))  # fmt: skip
    sizes = r.data.group_by(r.data.columns).len()["len"]
    assert sizes.min() >= 10
    assert r.to_dict()["selection"]["score_sensitivity"] == 9
    assert r.insecure_seed


def test_a_large_selection_epsilon_picks_the_best_node(census):
    r = eps_safe_k_anonymize(census, k=5, beta=0.6, epsilon=2000.0, selection_epsilon=1000.0,
                             rng=7)  # fmt: skip
    assert r.selection["chosen_score"] == r.selection["best_score"]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"epsilon": 1.0, "selection_epsilon": 1.0}, "below epsilon"),
        ({"epsilon": 0.5, "selection_epsilon": 0.3, "beta": 0.5}, "beta"),
        ({"k": 1}, "raise k"),
        ({"selection_epsilon": -1}, "selection_epsilon"),
    ],
)
def test_bad_parameters(census, kwargs, match):
    args = {"k": 10, "beta": 0.3, "epsilon": 1.0, "selection_epsilon": 0.1, **kwargs}
    with pytest.raises(ConfigError, match=match):
        eps_safe_k_anonymize(census, **args)
