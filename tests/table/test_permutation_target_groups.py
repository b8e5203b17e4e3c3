"""Different targets per part (seed 001 §3.7 Fig. 3.5): target_release_by_groups."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.table.permutation.target import (
    SAHierarchy,
    contiguous_bands,
    has_bijection,
    is_p_private,
    target_release,
    target_release_by_groups,
)

# ages 20, 21 lose 100 / 200; ages 50, 51 lose 900 / 1000 — two rows each
HAND = pl.DataFrame(
    {
        "age": [20, 20, 21, 21, 50, 50, 51, 51],
        "loss": [100, 100, 200, 200, 900, 900, 1000, 1000],
    }
)


def _per_group(rel, frame, bands):
    """{band: [(lo, hi), …]} of a release whose groups are the bands (SA-only)."""
    owner = bands[rel.source_rows]
    gid_owner = {}
    for g, b in zip(rel.qi["group_id"].to_list(), owner.tolist(), strict=True):
        assert gid_owner.setdefault(g, b) == b  # a published group lies in one band
    out: dict[int, list] = {}
    for g, lo, hi in rel.sa.iter_rows():
        out.setdefault(gid_owner[g], []).append((lo, hi))
    return out


def test_bands_by_hand():
    age = [20, 20, 21, 21, 50, 50, 51, 51]
    # equal width: (51 − 20) / 4 = 7.75 years a band; 50 and 51 both fall in the last band
    assert contiguous_bands(age, 4, "equal-width").tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    # equal frequency: 2 rows a band, ties never split
    assert contiguous_bands(age, 4, "equal-frequency").tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert contiguous_bands(age, 3, "equal-frequency").tolist() == [0, 0, 0, 0, 1, 1, 2, 2]
    assert contiguous_bands(age, 1).tolist() == [0] * 8
    assert contiguous_bands([5, 5, 5], 10).tolist() == [0, 0, 0]


def test_qi_sa_more_groups_cost_less_by_hand():
    """QI-SA, target = the group's own distribution.  One group: the target is uniform on
    {100, 200, 900, 1000} (tree [100,200] | [900,1000]); each age subgroup holds one value
    twice, so the root split 2:0 against weights 1:1 sends both to the root [100, 1000]:
    4 subgroups × 2 × 900 = 7,200.  Two bands (20–21, 50–51): each target is uniform on its
    two values and each subgroup goes to its band's root: 4 × 2 × 100 = 800.  Four bands
    (equal frequency): every subgroup is its band, whose target is its own value: 0."""
    kw = dict(qi=["age"], sensitive="loss", by="age", target="source", mode="qi-sa", seed=3)
    sor = {
        g: target_release_by_groups(HAND, n_groups=g, split="equal-frequency", **kw).parameters[
            "sum_of_ranges"
        ]
        for g in (1, 2, 4)
    }
    assert sor == {1: 7200.0, 2: 800.0, 4: 0.0}
    # equal width finds only two non-empty bands among four
    rel = target_release_by_groups(HAND, n_groups=4, split="equal-width", **kw)
    assert rel.parameters["owner_groups"] == 2
    assert rel.parameters["sum_of_ranges"] == 800.0


def test_one_group_equals_target_release():
    rng = np.random.default_rng(0)
    df = pl.DataFrame({"age": rng.integers(17, 80, 60), "loss": rng.integers(1, 30, 60)})
    x = df["loss"].to_numpy()
    dom = np.unique(x)
    counts = [int(c) for c in np.bincount(np.searchsorted(dom, x))]
    for target, weights in (("source", counts), ("uniform", None)):
        for mode in ("sa-only", "qi-sa"):
            h = SAHierarchy.balanced(dom, weights)
            one = target_release(df, qi=["age"], sensitive="loss", hierarchy=h, mode=mode,
                                 seed=7)  # fmt: skip
            by = target_release_by_groups(df, qi=["age"], sensitive="loss", by="age",
                                          n_groups=1, target=target, mode=mode, seed=7)  # fmt: skip
            assert by.sa.equals(one.sa)
            assert by.qi.equals(one.qi)
            assert by.parameters["sum_of_ranges"] == one.parameters["sum_of_ranges"]


def test_a_hierarchy_per_group_is_checked():
    h = SAHierarchy.balanced([100, 200])
    with pytest.raises(ConfigError, match="2 owner groups"):
        target_release(HAND, qi=["age"], sensitive="loss", hierarchy=[h],
                       groups=[0, 0, 0, 0, 1, 1, 1, 1])  # fmt: skip
    with pytest.raises(InputError, match="group 1"):  # 900 is not in group 1's domain
        target_release(HAND, qi=["age"], sensitive="loss", hierarchy=[h, h],
                       groups=[0, 0, 0, 0, 1, 1, 1, 1])  # fmt: skip


@pytest.mark.parametrize(
    "kw, match",
    [
        (dict(n_groups=0), "n_groups"),
        (dict(n_groups=2, split="quantile"), "split"),
        (dict(n_groups=2, domain="all"), "domain"),
        (dict(n_groups=2, target="zipf"), "target"),
        (dict(n_groups=2, by="salary"), "salary"),
        (dict(n_groups=2, target=lambda v: None), "SAHierarchy"),
    ],
)
def test_bad_arguments_name_the_parameter(kw, match):
    args = dict(qi=["age"], sensitive="loss", by="age")
    args.update(kw)
    with pytest.raises((ConfigError, InputError), match=match):
        target_release_by_groups(HAND, **args)


def test_no_value_in_errors():
    df = HAND.with_columns(pl.Series("age", [20, 20, 21, None, 50, 50, 51, 51]))
    with pytest.raises(InputError) as e:
        target_release_by_groups(df, qi=["age"], sensitive="loss", by="age", n_groups=2)
    assert "900" not in str(e.value) and "1000" not in str(e.value)


tables = st.lists(st.tuples(st.integers(17, 30), st.integers(1, 12)), min_size=1, max_size=24)


@settings(max_examples=30, deadline=None)
@given(
    rows=tables,
    g=st.integers(1, 5),
    split=st.sampled_from(["equal-width", "equal-frequency"]),
    target=st.sampled_from(["source", "uniform"]),
)
def test_each_band_is_private_for_its_own_target_and_no_row_is_lost(rows, g, split, target):
    df = pl.DataFrame({"age": [a for a, _ in rows], "loss": [v for _, v in rows]})
    rel = target_release_by_groups(df, qi=["age"], sensitive="loss", by="age", n_groups=g,
                                   split=split, target=target, seed=1)  # fmt: skip
    age, x = df["age"].to_numpy(), df["loss"].to_numpy()
    bands = contiguous_bands(age, g, split)
    # bands are contiguous age ranges, at most g of them
    assert bands.max() < g
    for b in range(bands.max()):
        assert age[bands == b].max() < age[bands == b + 1].min()
    # no row lost: every input row published once
    assert sorted(rel.source_rows.tolist()) == list(range(df.height))
    per = _per_group(rel, df, bands)
    assert sorted(per) == list(range(bands.max() + 1))
    for b, subs in per.items():
        vals = x[bands == b]
        dom = np.unique(vals)
        w = None
        if target == "source":
            w = [int(c) for c in np.bincount(np.searchsorted(dom, vals))]
        h = SAHierarchy.balanced(dom, w)
        assert is_p_private(subs, h)  # Def 3.3.1 against the band's OWN target
        assert has_bijection(vals, subs)
        if target == "source":  # the target is the band's source: nothing generalized
            assert all(lo == hi for lo, hi in subs)
