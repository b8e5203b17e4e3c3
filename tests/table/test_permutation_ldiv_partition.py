"""The ℓ-diversity baseline partition of seed 001 §2.7 as a library function: a hand case,
the choice among minimal nodes, and (hypothesis) every group ℓ-diverse at a minimal node."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InfeasibleError
from privlab.table.hierarchy import Hierarchy
from privlab.table.permutation import ldiversity_partition


def decades(lo: int = 0, hi: int = 99) -> Hierarchy:
    rows = [[str(a), f"{a // 10 * 10}-{a // 10 * 10 + 9}", "*"] for a in range(lo, hi + 1)]
    return Hierarchy.from_rows(rows, source="<decades>")


def flat(values) -> Hierarchy:
    return Hierarchy.from_rows([[str(v), "*"] for v in values], source="<flat>")


def test_hand_case_decades():
    # ages 21–24 hold salaries {1, 2}, ages 31–34 {1, 2, 3, 4}: single ages are 1-diverse,
    # decades are 2-diverse → the 2-diverse node is level 1; 3-diversity needs '*'
    df = pl.DataFrame({"age": [21, 22, 23, 24, 31, 32, 33, 34], "sa": [1, 2, 1, 2, 1, 2, 3, 4]})
    p = ldiversity_partition(df, ["age"], "sa", {"age": decades()}, 2)
    assert p.levels == {"age": 1} and p.groups.tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    assert p.boxes("age") == [("20-29", 20.0, 29.0), ("30-39", 30.0, 39.0)]
    assert p.labels("age").tolist() == ["20-29", "30-39"]
    assert p.kept.all() and p.n_minimal == 1 and p.to_dict()["n_groups"] == 2
    top = ldiversity_partition(df, ["age"], "sa", {"age": decades()}, 3)
    assert top.levels == {"age": 2} and top.n_groups == 1 and top.boxes("age") == ["*"]


def test_keep_and_node_rule():
    # two minimal 2-diverse nodes: (age exact, sex '*') — ages 21 {1, 3}, 22 {2, 4} — and
    # (age decade, sex exact) — F {1, 2}, M {3, 4}; the exact table has singleton classes
    df = pl.DataFrame({"age": [21, 22, 21, 22], "sex": ["F", "F", "M", "M"], "sa": [1, 2, 3, 4]})
    h = {"age": decades(), "sex": flat(["F", "M"])}
    keep_age = ldiversity_partition(df, ["age", "sex"], "sa", h, 2, keep="age", node_rule="finest")
    assert keep_age.levels == {"age": 0, "sex": 1}  # age exact, sex '*'
    keep_sex = ldiversity_partition(df, ["age", "sex"], "sa", h, 2, keep="sex")
    assert keep_sex.levels["sex"] == 0 and keep_sex.levels["age"] == 1
    assert keep_age.n_minimal == keep_sex.n_minimal == 2


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 39), st.sampled_from("ab"), st.integers(0, 4)),
        min_size=4,
        max_size=25,
    ),
    st.integers(1, 3),
)
def test_property_groups_are_l_diverse_at_a_minimal_node(rows, l):  # noqa: E741
    df = pl.DataFrame(rows, schema=["age", "sex", "sa"], orient="row")
    h = {"age": decades(0, 39), "sex": flat("ab")}
    if df["sa"].n_unique() < l:
        with pytest.raises(InfeasibleError):
            ldiversity_partition(df, ["age", "sex"], "sa", h, l)
        return
    p = ldiversity_partition(df, ["age", "sex"], "sa", h, l, keep="age")
    assert p.kept.all() and p.groups.size == df.height
    sa = df["sa"].to_numpy()
    for g in range(p.n_groups):
        assert np.unique(sa[p.groups == g]).size >= l
    # the same generalization labels ⇔ the same group
    labels = list(zip(*(h[c].group_labels(p.levels[c])[
        h[c].group_of_leaf(p.levels[c])[[h[c].leaves.index(str(v)) for v in df[c]]]
    ] for c in ("age", "sex")), strict=True))  # fmt: skip
    assert len(set(labels)) == p.n_groups
    # minimal: lowering any one QI by a level breaks ℓ-diversity
    for c in ("age", "sex"):
        if p.levels[c] == 0:
            continue
        lower = dict(p.levels, **{c: p.levels[c] - 1})
        keys = [
            tuple(
                h[q].group_of_leaf(lower[q])[h[q].leaves.index(str(v))]
                for q, v in zip(("age", "sex"), row, strict=True)
            )
            for row in zip(df["age"], df["sex"], strict=True)
        ]
        classes: dict[tuple, set] = {}
        for key, s in zip(keys, sa, strict=True):
            classes.setdefault(key, set()).add(int(s))
        assert min(len(v) for v in classes.values()) < l


def test_bad_parameters():
    df = pl.DataFrame({"age": [21, 22], "sa": [1, 2]})
    h = {"age": decades()}
    with pytest.raises(ConfigError, match="l = 0"):
        ldiversity_partition(df, ["age"], "sa", h, 0)
    with pytest.raises(ConfigError, match="node_rule"):
        ldiversity_partition(df, ["age"], "sa", h, 2, node_rule="best")
    with pytest.raises(ConfigError, match="suppression"):
        ldiversity_partition(df, ["age"], "sa", h, 2, suppression=1.0)
    with pytest.raises(ConfigError, match="keep"):
        ldiversity_partition(df, ["age"], "sa", h, 2, keep="zip")
    with pytest.raises(ConfigError, match="no hierarchy"):
        ldiversity_partition(df, ["age"], "sa", {}, 2)
    with pytest.raises(ConfigError, match="not a quasi-identifier"):
        ldiversity_partition(df, ["age"], "sa", h, 2).boxes("zip")
