"""Skewness and similarity attacks on ℓ-diverse releases (Li, Li & Venkatasubramanian 2007;
seed 000 §3.3.2), on the paper's Table 4 and a skewed 1 %-positive example."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.table.attacks.ldiversity import similarity_attack, skewness_attack

# Li et al. 2007, Table 4: a 3-diverse version of their Table 3
TABLE_4 = pl.DataFrame({
    "zip": ["476**"] * 3 + ["4790*"] * 3 + ["476**"] * 3,
    "age": ["2*"] * 3 + [">=40"] * 3 + ["3*"] * 3,
    "salary": [3, 4, 5, 6, 11, 8, 7, 9, 10],
    "disease": ["gastric ulcer", "gastritis", "stomach cancer", "gastritis", "flu",
                "bronchitis", "bronchitis", "pneumonia", "stomach cancer"],
})  # fmt: skip
GROUPS = {
    **dict.fromkeys(["gastric ulcer", "gastritis", "stomach cancer"], "stomach"),
    **dict.fromkeys(["flu", "bronchitis", "pneumonia"], "respiratory"),
}


def test_similarity_on_li_table_4():
    """Bob (class 1) has a stomach disease and a salary in [3K, 5K] — in a 3-diverse table."""
    r = similarity_attack(TABLE_4, ["zip", "age"], "disease", categories=GROUPS)
    assert r.category_disclosed.tolist() == [True] * 3 + [False] * 6
    # class 2: gastritis, flu, bronchitis → respiratory 2/3; class 3: 2/3 as well
    assert r.category_posterior.tolist() == pytest.approx([1, 1, 1, 1 / 3, 2 / 3, 2 / 3,
                                                           2 / 3, 2 / 3, 1 / 3])  # fmt: skip
    d = r.to_dict()
    assert d["disclosed_in_diverse_classes_rate"] == pytest.approx(3 / 9)
    s = similarity_attack(TABLE_4, ["zip", "age"], "salary", width=3)
    assert s.range_pinned.tolist() == [True] * 3 + [False] * 6  # 3–5K: range 2 < 3; 7–10K: 3
    assert similarity_attack(TABLE_4, ["zip", "age"], "disease", categories=GROUPS,
                             tau=0.6).category_disclosed.sum() == 3 + 2 + 2  # fmt: skip


def test_skewness_raises_one_percent_to_fifty():
    """200 records, 2 positive overall (1 %); a 2-diverse class of 2 holds one of them."""
    rows = [("A", "pos"), ("A", "neg")] + [("B", "pos")] + [("C", "neg")] * 197
    t = pl.DataFrame({"zip": [z for z, _ in rows], "test": [v for _, v in rows]})
    r = skewness_attack(t, ["zip"], "test", value="pos")
    assert r.prior[0] == pytest.approx(0.01) and r.posterior[0] == pytest.approx(0.5)
    assert r.lift[0] == pytest.approx(50.0) and r.skewed[:2].all() and not r.skewed[3:].any()
    assert r.to_dict()["skewed_in_diverse_classes_rate"] == pytest.approx(2 / 200)
    own = skewness_attack(t, ["zip"], "test")  # each record's own value
    assert own.lift[1] == pytest.approx(0.5 / 0.99) and own.lift[2] == pytest.approx(100.0)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=60))
def test_lift_averages_to_one_and_categories_bound_values(rows):
    t = pl.DataFrame({"q": [str(a) for a, _ in rows], "s": [str(b) for _, b in rows]})
    for v in {b for _, b in rows}:
        r = skewness_attack(t, ["q"], "s", value=str(v))
        assert r.lift * r.prior == pytest.approx(r.posterior)
        # the average posterior over records, weighted per class, is ≥ the prior (Σ p²/Σ p)
        assert np.mean(r.posterior) >= r.prior[0] - 1e-12
    cats = {str(b): "low" if b < 2 else "high" for b in range(5)}
    sim = similarity_attack(t, ["q"], "s", categories=cats)
    exact = similarity_attack(t, ["q"], "s", categories={str(b): str(b) for b in range(5)})
    assert (sim.category_posterior >= exact.category_posterior - 1e-12).all()  # coarser leaks more


def test_errors_name_the_problem():
    with pytest.raises(InputError, match="no category"):
        similarity_attack(TABLE_4, ["zip", "age"], "disease", categories={"flu": "r"})
    with pytest.raises(ConfigError, match="categories"):
        similarity_attack(TABLE_4, ["zip", "age"], "disease")
    with pytest.raises(InputError, match="occurs"):
        skewness_attack(TABLE_4, ["zip", "age"], "disease", value="plague")
    with pytest.raises(ConfigError, match="min_lift"):
        skewness_attack(TABLE_4, ["zip", "age"], "disease", min_lift=1)
