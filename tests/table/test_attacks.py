"""Tabular attacks: hand-computed answers on tiny tables, properties, and an Adult smoke test."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.table.anonymize import anonymize
from privlab.table.attacks import (
    candidate_buckets,
    extreme_value_attack,
    homogeneity_attack,
    independent_releases,
    intersection_attack,
    linkage_attack,
    permutation_inference,
)
from privlab.table.data import MicroTable
from privlab.table.hierarchy import Hierarchy
from privlab.table.models import DistinctLDiversity, KAnonymity
from privlab.table.mondrian import mondrian
from privlab.table.permutation import anatomy

from ..strategies import small_tables

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ZIP = Hierarchy.from_rows(
    [
        ["13053", "1305*", "130**", "*"],
        ["13068", "1306*", "130**", "*"],
        ["14850", "1485*", "148**", "*"],
        ["14853", "1485*", "148**", "*"],
    ]
)
AGE = Hierarchy.from_rows(
    [["28", "<30", "*"], ["29", "<30", "*"], ["35", "3*", "*"], ["45", ">=40", "*"]]
)


def table_31(suppressed_row: bool = True) -> pl.DataFrame:
    """Seed 000 Table 3.1 (a 4-anonymous release), plus one suppressed row."""
    rows = [
        ("130**", "<30", "AIDS"),
        ("130**", "<30", "Heart Disease"),
        ("130**", "<30", "Viral Infection"),
        ("130**", "<30", "Viral Infection"),
        ("1485*", ">=40", "Cancer"),
        ("1485*", ">=40", "Heart Disease"),
        ("1485*", ">=40", "Viral Infection"),
        ("1485*", ">=40", "Viral Infection"),
        ("130**", "3*", "Cancer"),
        ("130**", "3*", "Cancer"),
        ("130**", "3*", "Cancer"),
        ("130**", "3*", "Cancer"),
    ]
    if suppressed_row:
        rows.append(("*", "*", "Flu"))
    return pl.DataFrame(rows, schema=["zip", "age", "disease"], orient="row")


# --------------------------------------------------------------------------------- linkage


def test_linkage_hand_computed():
    ext = pl.DataFrame(
        {
            "name": ["Alice", "Bob", "Carl", "Dan"],
            "zip": ["13053", "14850", "13068", "13053"],
            "age": ["28", "45", "35", "45"],
        }
    )
    res = linkage_attack(
        ext, table_31(), ["zip", "age"], hierarchies={"zip": ZIP, "age": AGE}, identifiers=["name"]
    )
    # each class of 4 plus the suppressed row (its '*' covers everybody)
    assert res.candidates.tolist() == [5, 5, 5, 1]
    assert res.classes.tolist() == [2, 2, 2, 1]
    assert res.reidentified.tolist() == [False, False, False, True]
    assert res.success.tolist() == pytest.approx([0.2, 0.2, 0.2, 1.0])
    assert res.candidate_rows(3).tolist() == [12]
    d = res.to_dict()
    assert d["reidentification_rate"] == 0.25
    assert d["expected_success"] == pytest.approx(0.4)
    assert d["buckets"] == {"0": 0, "1": 1, "2-4": 0, "5-10": 3, "11-20": 0, "21+": 0}
    assert res.records()["name"].to_list() == ["Alice", "Bob", "Carl", "Dan"]
    # without the suppressed row Dan matches nothing
    res2 = linkage_attack(
        ext, table_31(False), ["zip", "age"], hierarchies={"zip": ZIP, "age": AGE}
    )
    assert res2.candidates.tolist() == [4, 4, 4, 0]
    assert res2.to_dict()["matched"] == 3


def test_linkage_truth_and_errors():
    ext = pl.DataFrame({"zip": ["13053", "14850"], "age": ["28", "45"]})
    res = linkage_attack(
        ext,
        table_31(False),
        ["zip", "age"],
        hierarchies={"zip": ZIP, "age": AGE},
        true_rows=[0, 8],
    )
    assert res.true_in_candidates.tolist() == [True, False]
    with pytest.raises(InputError, match="'zip'"):
        linkage_attack(ext.drop("zip"), table_31(), ["zip", "age"])
    with pytest.raises(InputError, match="external: column 'zip': 1 row with a value that is not"):
        linkage_attack(
            pl.DataFrame({"zip": ["99999"], "age": ["28"]}),
            table_31(),
            ["zip", "age"],
            hierarchies={"zip": ZIP, "age": AGE},
        )
    with pytest.raises(ConfigError, match="true_rows"):
        linkage_attack(ext, table_31(), ["zip", "age"], true_rows=[0])
    with pytest.raises(InputError, match="not in the hierarchy"):
        linkage_attack(ext, table_31(), ["zip", "age"], hierarchies={"zip": AGE, "age": AGE})


def test_linkage_numeric_ranges_and_buckets():
    rel = pl.DataFrame({"age": ["20-30", "20-30", "31", "-5--1"]})
    ext = pl.DataFrame({"age": ["25", "31", "-3", "40"]})
    res = linkage_attack(ext, rel, ["age"], numeric=["age"])
    assert res.candidates.tolist() == [2, 1, 1, 0]
    assert candidate_buckets(np.array([0, 1, 3, 7, 15, 40])) == {
        "0": 1,
        "1": 1,
        "2-4": 1,
        "5-10": 1,
        "11-20": 1,
        "21+": 1,
    }


@FAST
@given(small_tables(max_rows=30), st.integers(1, 4))
def test_k_anonymous_release_resists_linkage(drawn, k):
    frame, qi, hier, sa = drawn
    assume(frame.height >= k)
    rel = anonymize(frame, quasi_identifiers=qi, hierarchies=hier, sensitive=[sa], k=k)
    res = linkage_attack(frame, rel, qi, hierarchies=hier, true_rows=np.arange(frame.height))
    assert res.true_in_candidates.all()  # the true record is always a candidate
    assert (res.candidates >= k).all()
    if k >= 2:
        assert res.to_dict()["reidentification_rate"] == 0.0


@FAST
@given(small_tables(max_rows=30), st.integers(2, 4))
def test_mondrian_linkage_keeps_truth(drawn, k):
    frame, qi, hier, sa = drawn
    assume(frame.height >= k)
    table = MicroTable.from_data(frame, quasi_identifiers=qi, hierarchies=hier, sensitive=[sa])
    res = mondrian(table, [KAnonymity(k)])
    link = linkage_attack(frame, res, qi, hierarchies=hier, true_rows=np.arange(frame.height))
    assert link.true_in_candidates.all()
    assert (link.candidates >= k).all()


# ----------------------------------------------------------------- homogeneity / background


def test_homogeneity_and_background_hand_computed():
    res = homogeneity_attack(table_31(False), ["zip", "age"], "disease")
    assert res.disclosed.tolist() == [False] * 8 + [True] * 4  # the all-Cancer class
    assert res.homogeneous.sum() == 4
    assert res.max_posterior[:4].tolist() == [0.5] * 4
    assert res.true_posterior[:4].tolist() == [0.25, 0.25, 0.5, 0.5]
    assert res.to_dict()["disclosure_rate"] == pytest.approx(4 / 12)
    # tau = 0.5: the viral-infection rows of the first two classes are disclosed too
    half = homogeneity_attack(table_31(False), ["zip", "age"], "disease", tau=0.5)
    assert half.disclosed.sum() == 8
    # background knowledge: "active in sports, so not heart disease" for row 6 (Viral Infection)
    bg = homogeneity_attack(
        table_31(False), ["zip", "age"], "disease", exclude={6: ["Heart Disease"]}, tau=0.6
    )
    assert bg.true_posterior[6] == pytest.approx(2 / 3)
    assert bg.disclosed[6] and not bg.disclosed[7]
    # ruling out the least likely other values: row 0 (AIDS) in {AIDS, HD, VI, VI}
    r1 = homogeneity_attack(table_31(False), ["zip", "age"], "disease", rule_out=1)
    assert r1.true_posterior[0] == pytest.approx(1 / 3)
    r2 = homogeneity_attack(table_31(False), ["zip", "age"], "disease", rule_out=2)
    assert r2.true_posterior[0] == 1.0 and r2.disclosed[:4].all()
    with pytest.raises(ConfigError, match="exclude"):
        homogeneity_attack(table_31(), ["zip", "age"], "disease", exclude={0: ["Malaria"]})
    with pytest.raises(ConfigError, match="tau"):
        homogeneity_attack(table_31(), ["zip", "age"], "disease", tau=0)
    with pytest.raises(InputError, match="'salary'"):
        homogeneity_attack(table_31(), ["zip", "age"], "salary")


def test_inconsistent_knowledge_is_counted():
    res = homogeneity_attack(table_31(False), ["zip", "age"], "disease", exclude={8: ["Cancer"]})
    assert res.inconsistent == 1 and res.disclosed[8]


def test_numeric_range_disclosure():
    rel = pl.DataFrame(
        {"zip": ["a"] * 3 + ["b"] * 3, "salary": ["30", "31", "32", "10", "50", "90"]}
    )
    res = homogeneity_attack(rel, ["zip"], "salary", numeric=True, e=5)
    assert res.sa_range.tolist() == [2, 2, 2, 80, 80, 80]
    assert res.pinned.tolist() == [True] * 3 + [False] * 3
    assert res.to_dict()["pinned_rate"] == 0.5
    with pytest.raises(ConfigError, match="numeric"):
        homogeneity_attack(rel, ["zip"], "salary", e=5)


@FAST
@given(small_tables(max_rows=30), st.integers(2, 3))
def test_distinct_l_diverse_bound(drawn, l):  # noqa: E741
    frame, qi, hier, sa = drawn
    try:
        rel = anonymize(
            frame,
            quasi_identifiers=qi,
            hierarchies=hier,
            sensitive=[sa],
            models=[DistinctLDiversity(sa, l)],
            suppression_limit=0.0,
        )
    except InfeasibleError:
        assume(False)
    res = homogeneity_attack(rel, qi, sa)
    sizes = res.posterior.shape[0]
    assert sizes == frame.height
    # distinct ℓ-diversity: ≥ ℓ values with positive posterior, so each posterior is at most
    # 1 − (ℓ − 1)/|E| (not 1/ℓ!) and nothing is homogeneous
    _, inv, counts = np.unique(
        rel.data.select(qi).rows(), axis=0, return_inverse=True, return_counts=True
    )
    class_size = counts[inv.reshape(-1)]
    assert (res.n_values >= l).all()
    assert (res.max_posterior <= 1 - (l - 1) / class_size + 1e-12).all()
    assert not res.disclosed.any()
    # with ℓ − 1 pieces of true knowledge the worst-case adversary learns every value
    assert homogeneity_attack(rel, qi, sa, rule_out=l - 1).n_values.min() >= 1


# ------------------------------------------------------------------------- permutation


def test_anatomy_inference_hand():
    frame = pl.DataFrame(
        {"age": ["1", "2", "3", "4", "5", "6"], "d": ["x", "y", "x", "y", "z", "z"]}
    )
    rel = anatomy(frame, qi=["age"], sensitive="d", l=2, seed=1)
    res = permutation_inference(rel, original=frame)
    assert np.allclose(res.max_posterior, 0.5) and np.allclose(res.true_posterior, 0.5)
    assert not res.disclosed.any()
    # linkage through exact QIs: target age 3 is in one group of two distinct values
    tgt = pl.DataFrame({"age": ["3", "99"], "d": ["x", "x"]})
    link = permutation_inference(rel, targets=tgt)
    assert link.true_posterior[0] == pytest.approx(0.5)
    assert link.n_values.tolist() == [2, 0]
    assert link.to_dict()["unmatched"] == 1


@FAST
@given(st.lists(st.integers(0, 5), min_size=6, max_size=60), st.integers(2, 4), st.integers(0, 99))
def test_anatomy_guarantee(codes, l, seed):  # noqa: E741
    counts = np.bincount(codes)
    assume(counts.max() * l <= len(codes))
    frame = pl.DataFrame({"q": [str(i) for i in range(len(codes))], "s": [f"v{c}" for c in codes]})
    rel = anatomy(frame, qi=["q"], sensitive="s", l=l, seed=seed)
    res = permutation_inference(rel, original=frame)
    # every group holds ≥ ℓ rows with pairwise distinct values: posterior = 1/|group| ≤ 1/ℓ
    assert (res.max_posterior <= 1 / l + 1e-12).all()
    assert np.allclose(res.true_posterior, res.max_posterior)


# ------------------------------------------------------------------------- intersection


def test_intersection_alice():
    r1 = pl.DataFrame({"zip": ["130**"] * 2 + ["148**"] * 2, "d": ["HD", "Cancer", "Flu", "HD"]})
    r2 = pl.DataFrame({"zip": ["1305*"] * 2 + ["1485*"] * 2, "d": ["Flu", "Cancer", "Flu", "HD"]})
    tgt = pl.DataFrame({"zip": ["13053", "14850"], "d": ["Cancer", "HD"]})
    res = intersection_attack([r1, r2], tgt, ["zip"], "d", hierarchies={"zip": ZIP})
    assert res.candidate_values(0) == ["Cancer"]
    assert res.candidate_values(1) == ["Flu", "HD"]
    assert res.set_size.tolist() == [[2, 1], [2, 2]]
    assert res.disclosed.tolist() == [True, False]
    assert res.contains_truth.all()
    d = res.to_dict()
    assert d["by_releases"][0]["disclosure_rate"] == 0.0
    assert d["by_releases"][1]["disclosure_rate"] == 0.5
    # presence: release 2 does not hold target 0 -> no constraint from it
    res_p = intersection_attack(
        [r1, r2],
        tgt,
        ["zip"],
        "d",
        hierarchies={"zip": ZIP},
        presence=[[True, False], [True, True]],
    )
    assert res_p.candidate_values(0) == ["Cancer", "HD"]
    with pytest.raises(ConfigError, match="presence"):
        intersection_attack([r1], tgt, ["zip"], "d", hierarchies={"zip": ZIP}, presence=[[True]])


@FAST
@given(small_tables(max_rows=40), st.integers(2, 3), st.integers(0, 99))
def test_intersection_never_removes_truth(drawn, k, seed):
    frame, qi, hier, sa = drawn
    assume(frame.height >= 2 * k)
    try:
        sample = independent_releases(
            frame,
            quasi_identifiers=qi,
            hierarchies=hier,
            sensitive=sa,
            n_releases=3,
            fraction=0.7,
            k=k,
            suppression_limit=0.2,
            seed=seed,
        )
    except (InfeasibleError, ConfigError, InputError):  # a subsample too small for k
        assume(False)
    res = intersection_attack(
        sample.releases, frame, qi, sa, hierarchies=hier, presence=sample.presence
    )
    # a target in some release keeps its value; one in none (its value may be in no release,
    # hence not in the domain) is unconstrained and counted in no release
    in_some = sample.presence.any(axis=1)
    assert res.contains_truth[in_some].all()
    assert (res.releases_used[~in_some] == 0).all()
    sizes = res.set_size
    used = sizes > 0
    # more releases never enlarge the candidate set
    assert (np.diff(np.where(used, sizes, res.values.size + 1), axis=1) <= 0).all()


# ------------------------------------------------------------------------- extreme value


def _net_worth(n: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    worth = np.round(rng.uniform(100_000, 900_000, n)).astype(np.int64)
    worth[7] = 35_000_000  # the only person worth more than $10M
    frame = pl.DataFrame({"id": [str(i) for i in range(n)], "worth": [str(w) for w in worth]})
    return frame, worth


def test_extreme_value_attack_on_mondrian():
    frame, worth = _net_worth()
    worth_h = Hierarchy.flat(frame["worth"].to_list())
    table = MicroTable.from_data(
        frame, quasi_identifiers=["worth"], hierarchies={"worth": worth_h}, identifying=["id"]
    )
    res = mondrian(table, [KAnonymity(20)], numeric=["worth"])
    assert res.class_sizes.min() >= 20
    att = extreme_value_attack(res, "worth", worth, threshold=10_000_000)
    assert att.targets.tolist() == [7]
    assert att.located.all() and att.presence_disclosed.all()
    assert att.inferred_value.tolist() == [35_000_000]
    assert att.value_disclosed.all()
    assert att.class_size[0] >= 20  # "hiding in a crowd" of 20 does not help
    assert att.to_dict()["value_disclosure_rate"] == 1.0
    # the same by rank: the top record
    assert extreme_value_attack(res, "worth", worth, top=1).value_disclosed.all()
    # lower tail: the poorest person's exact worth is the lower endpoint of its class
    low = extreme_value_attack(res, "worth", worth, top=1, tail="lower")
    assert low.value_disclosed.all() and low.inferred_value[0] == worth.min()


def test_extreme_value_data_independent_ranges():
    _, worth = _net_worth()
    # data-independent intervals: located but not pinned, presence not implied
    label = np.where(worth >= 10_000_000, "10000000-100000000", "0-9999999")
    rel = pl.DataFrame({"worth": label})
    att = extreme_value_attack(rel, "worth", worth, threshold=10_000_000, tight=False)
    assert att.located.all() and not att.value_disclosed.any()
    assert not att.presence_disclosed.any()
    with pytest.raises(ConfigError, match="tail"):
        extreme_value_attack(rel, "worth", worth, tail="middle")
    with pytest.raises(InputError, match="values"):
        extreme_value_attack(rel, "worth", worth[:3])


# ------------------------------------------------------------------------- Adult smoke


def test_adult_k5_smoke(adult_dir):
    from privlab.table.adult import ADULT_COLUMNS

    qi = [c for c in ADULT_COLUMNS if c != "salary-class"]
    hier = {c: Hierarchy.from_csv(adult_dir / f"adult_hierarchy_{c}.csv") for c in qi}
    frame = pl.read_csv(adult_dir / "adult.csv", separator=";", infer_schema=False)
    rel = anonymize(
        frame,
        quasi_identifiers=qi,
        hierarchies=hier,
        sensitive=["salary-class"],
        k=5,
        suppression_limit=0.02,
    )
    link = linkage_attack(frame, rel, qi, hierarchies=hier, true_rows=np.arange(frame.height))
    d = link.to_dict()
    assert d["reidentification_rate"] == 0.0 and d["true_in_candidates_rate"] == 1.0
    assert link.candidates.min() >= 5
    hom = homogeneity_attack(rel, qi, "salary-class").to_dict()
    assert 0.0 < hom["disclosure_rate"] < 1.0
    assert 0.5 <= hom["mean_max_posterior"] <= 1.0


def test_intersection_skip_suppressed():
    r1 = pl.DataFrame({"zip": ["130**", "130**", "*"], "d": ["Cancer", "Cancer", "Flu"]})
    tgt = pl.DataFrame({"zip": ["13053"], "d": ["Cancer"]})
    both = intersection_attack([r1], tgt, ["zip"], "d", hierarchies={"zip": ZIP})
    assert both.candidate_values(0) == ["Cancer", "Flu"]  # it could be the suppressed row
    one = intersection_attack(
        [r1], tgt, ["zip"], "d", hierarchies={"zip": ZIP}, skip_suppressed=True
    )
    assert one.candidate_values(0) == ["Cancer"] and one.disclosed[0]
