"""Every column has a role, nothing leaks by default, and no hierarchy is chosen silently.

Library level: :mod:`privlab.table.roles` (roles, identifier detection), the automatic
interval hierarchy of :mod:`privlab.table.hierarchy_builders`, ``MicroTable.from_data``'s
purposes, ``anonymize`` and the permutation functions.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError
from privlab.table.anonymize import anonymize
from privlab.table.data import MicroTable
from privlab.table.hierarchy_builders import (
    automatic_interval_params,
    interval_hierarchy,
    interval_spec,
)
from privlab.table.permutation import PermutationRelease, anatomy, permute
from privlab.table.roles import MIN_ROWS, assign_roles, identifier_hint, name_category


def people(n: int = 40, seed: int = 0) -> pl.DataFrame:
    """Names, ages, ZIP codes, sex, diseases and free-text notes of ``n`` people."""
    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "name": [f"Person {i}" for i in range(n)],
            "age": [str(a) for a in rng.integers(17, 91, n)],
            "zip": rng.choice(["13053", "13068", "14853"], n).tolist(),
            "sex": rng.choice(["F", "M"], n).tolist(),
            "disease": rng.choice(["flu", "cold", "cancer"], n).tolist(),
            "notes": [f"seen on visit {7 * i}" for i in range(n)],
        }
    )


ROLES = {"quasi_identifiers": ["age", "zip"], "hierarchies": {"zip": "flat"}, "k": 2}


# ---------------------------------------------------------------------------- roles
def test_anonymize_refuses_undeclared_columns_and_lists_them():
    with pytest.raises(ConfigError) as err:
        anonymize(people(), **ROLES, sensitive=["disease"])
    message = str(err.value)
    for column in ("'name'", "'sex'", "'notes'"):
        assert column in message
    assert "'disease'" not in message and "'age'" not in message
    assert "--identifying name" in message  # the fix for the identifier
    assert "keep_other_columns=True" in message


@pytest.mark.parametrize("how", ["insensitive", "keep_other_columns"])
def test_declared_insensitive_columns_are_released_unchanged(how):
    frame = people()
    extra = {"insensitive": ["sex"]} if how == "insensitive" else {"keep_other_columns": True}
    release = anonymize(
        frame.drop("notes"), **ROLES, sensitive=["disease"], identifying=["name"], **extra
    )
    assert release.data.columns == ["age", "zip", "sex", "disease"]
    assert release.data["sex"].to_list() == frame["sex"].to_list()


def test_identifying_columns_are_removed():
    release = anonymize(
        people(), **ROLES, sensitive=["disease"], identifying=["name", "notes", "sex"]
    )
    assert release.data.columns == ["age", "zip", "disease"]


@pytest.mark.parametrize(
    ("column", "what"),
    [
        ("name", "name"),
        ("PatientName", "name"),
        ("last_name", "name"),
        ("e-mail", "e-mail"),
        ("EmailAddress", "e-mail"),
        ("SSN", "social security"),
        ("date_of_birth", "date"),
        ("DOB", "date"),
        ("admission_date", "date"),
        ("zip_code", "ZIP"),
        ("city", "ZIP code or place"),
        ("street_address", "street address"),
        ("phone", "telephone"),
        ("fax", "fax"),
        ("MRN", "medical record"),
        ("health_plan_no", "health plan"),
        ("account_number", "account"),
        ("licence", "licence"),
        ("VIN", "vehicle"),
        ("licensePlate", "vehicle"),
        ("device_serial", "device"),
        ("homepage_url", "URL"),
        ("ip_address", "IP address"),
        ("fingerprint", "biometric"),
        ("photo", "photograph"),
        ("patient_id", "medical record"),
        ("uuid", "unique identifier"),
        ("customer id", "unique identifier"),
    ],
)
def test_identifier_like_names_follow_hipaa_safe_harbor(column, what):
    category = name_category(column)
    assert category is not None and what in category.what


@pytest.mark.parametrize(
    "column",
    ["age", "sex", "gender", "disease", "salary", "education", "occupation", "race",
     "marital-status", "native-country", "workclass", "capital-loss", "hours_per_week",
     "weight", "diagnosis", "state"],
)  # fmt: skip
def test_ordinary_attribute_names_are_not_flagged(column):
    assert name_category(column) is None


def test_nearly_unique_text_column_is_detected_but_numbers_and_tiny_tables_are_not():
    n = 50
    frame = pl.DataFrame(
        {
            "remark": [f"r{i}" for i in range(n - 2)] + ["same", "same"],  # 49/50 distinct
            "income": [str(1000 + 7 * i) for i in range(n)],  # unique numbers: measurements
            "colour": ["red", "blue"] * (n // 2),
            "record": [f"{i:06d}" for i in range(n)],  # digits with leading zeros: codes
        }
    )
    hint = identifier_hint(frame, "remark")
    assert hint is not None and hint.direct and "98%" in hint.reason
    assert identifier_hint(frame, "income") is None
    assert identifier_hint(frame, "colour") is None
    assert identifier_hint(frame, "record") is not None
    tiny = frame.head(MIN_ROWS - 1)
    assert identifier_hint(tiny, "remark") is None
    with pytest.raises(ConfigError, match=r"'remark' is text with a distinct value on 98%"):
        assign_roles(frame, quasi_identifiers=["colour"], insensitive=["income", "record"])


def test_quasi_identifier_categories_suggest_generalizing_or_removing():
    frame = pl.DataFrame({"zip": ["13053", "13068"], "birth_date": ["2001-01-02"] * 2})
    with pytest.raises(ConfigError) as err:
        assign_roles(frame, quasi_identifiers=["zip"])
    assert "--qi birth_date with a --hierarchy" in str(err.value)
    assert "--identifying birth_date" in str(err.value)


def test_warnings_for_kept_identifiers_and_direct_identifier_qis():
    frame = people()
    release = anonymize(
        frame,
        quasi_identifiers=["age", "name"],
        hierarchies={"name": "flat"},
        sensitive=["disease"],
        insensitive=["notes"],
        keep_other_columns=True,
        k=2,
        suppression_limit=1.0,
    )
    warnings = release.to_dict()["warnings"]
    assert any("'notes' is released unchanged (--insensitive)" in w for w in warnings)
    assert any(w.startswith("quasi-identifier column 'name'") for w in warnings)
    assert any("'zip' is released unchanged (--keep-other-columns)" in w for w in warnings)
    assert all("--identifying" in w for w in warnings)  # each names its fix
    assert not any("'sex'" in w for w in warnings)


def test_a_column_has_one_role():
    with pytest.raises(ConfigError, match="'sex' is both quasi-identifier and insensitive"):
        anonymize(people(), quasi_identifiers=["age", "sex"], hierarchies={"sex": "flat"},
                  insensitive=["sex"], keep_other_columns=True, k=2)  # fmt: skip
    with pytest.raises(ConfigError, match="insensitive column 'salary' not found"):
        anonymize(people(), **ROLES, insensitive=["salary"], keep_other_columns=True)


def test_assessing_a_release_needs_no_roles_nor_hierarchies():
    table = MicroTable.from_data(people(), quasi_identifiers=["age", "zip"], purpose="assess")
    assert table.insensitive == ["name", "sex", "disease", "notes"]
    assert table.hierarchies["zip"].height == 1 and not table.automatic_hierarchies


# ---------------------------------------------------------------------------- hierarchies
@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["17", "90", "45"], {"width": "10", "fanout": "2", "start": "10"}),
        (["-37", "12", "0"], {"width": "5", "fanout": "2", "start": "-40"}),
        (["0.12", "0.87"], {"width": "0.1", "fanout": "2", "start": "0.1"}),
        (["1", "3"], {"width": "1", "fanout": "2", "start": "1"}),
        (["5", "5"], {"width": "1", "fanout": "2", "start": "5"}),
        (["1.5e4", "2.5e4"], {"width": "1000", "fanout": "2", "start": "15000"}),
        (["02139", "13053"], None),  # a leading zero: a code, not a quantity
        (["12", "n/a"], None),
        (["1", "nan"], None),
    ],
)
def test_automatic_interval_choice(values, expected):
    assert automatic_interval_params(values, column="x") == expected


def test_numeric_qi_gets_the_recorded_automatic_interval_hierarchy():
    frame = people().select("age", "zip", "disease")
    release = anonymize(frame, **ROLES, sensitive=["disease"])
    spec = release.to_dict()["automatic_hierarchies"]
    assert spec == {"age": "interval:width=10,fanout=2,start=10"}
    table = MicroTable.from_data(
        frame, quasi_identifiers=["age"], hierarchies=None, insensitive=["zip", "disease"]
    )
    built = interval_hierarchy(frame["age"], width=10, fanout=2, start=10, column="age")
    assert np.array_equal(table.hierarchies["age"].labels, built.labels)
    assert table.automatic_hierarchies == spec
    assert interval_spec({"width": "10", "fanout": "2", "start": "10"}) == spec["age"]


def test_text_qi_without_hierarchy_is_refused_naming_the_builders():
    with pytest.raises(ConfigError) as err:
        anonymize(people().select("age", "sex"), quasi_identifiers=["age", "sex"], k=2)
    message = str(err.value)
    assert "'sex' has no hierarchy" in message
    for choice in ("sex=FILE", "sex=order", "order:values=", "sex=masking", "sex=date",
                   "interval:width=W", "sex=flat"):  # fmt: skip
        assert choice in message


def test_flat_is_an_explicit_choice():
    frame = people().select("age", "sex")
    release = anonymize(
        frame, quasi_identifiers=["sex"], hierarchies={"sex": "flat"}, insensitive=["age"], k=2
    )
    assert release.to_dict()["levels"] == {"sex": 0}
    assert release.to_dict()["automatic_hierarchies"] == {}


def test_private_release_builds_no_hierarchy_from_the_data():
    with pytest.raises(ConfigError, match="differentially private release needs one fixed"):
        MicroTable.from_data(
            people().select("age"), quasi_identifiers=["age"], purpose="private-release"
        )
    flat = MicroTable.from_data(
        people().select("age"),
        quasi_identifiers=["age"],
        hierarchies={"age": "flat"},
        purpose="private-release",
    )
    assert flat.hierarchies["age"].height == 1


# ---------------------------------------------------------------------------- permutation
def salaries() -> pl.DataFrame:
    frame = people(30, seed=3)
    return frame.with_columns(pl.Series("salary", np.arange(30) * 1000.0 + 30_000))


def test_permutation_refuses_undeclared_columns_like_anonymize():
    frame = salaries()
    with pytest.raises(ConfigError) as perm:
        permute(frame, qi=["age", "zip"], sensitive="salary", k=3, e=1000)
    with pytest.raises(ConfigError) as anon:
        anonymize(frame, **ROLES, sensitive=["salary"])
    assert str(perm.value).splitlines()[1:] == str(anon.value).splitlines()[1:]
    with pytest.raises(ConfigError, match="'sex'"):
        anatomy(frame, qi=["age"], sensitive="disease", l=2, identifying=["name", "notes"])


def test_permutation_publishes_insensitive_columns_and_reads_them_back(tmp_path):
    frame = salaries()
    release = permute(
        frame, qi=["age", "zip"], sensitive="salary", k=3, e=1000, seed=1,
        identifying=["name", "notes", "disease"], insensitive="sex",
    )  # fmt: skip
    assert release.qi.columns == ["tuple_id", "age", "zip", "sex", "group_id"]
    assert release.qi_columns == ["age", "zip"] and release.insensitive == ("sex",)
    assert release.qi["sex"].to_list() == frame["sex"].gather(release.source_rows).to_list()
    back = PermutationRelease.read(release.write(tmp_path / "r"))
    assert back.insensitive == ("sex",) and back.qi.equals(release.qi)
    kept = permute(frame, qi=["age"], sensitive="salary", k=3, e=1000, seed=1,
                   identifying=["name"], keep_other_columns=True)  # fmt: skip
    assert set(kept.insensitive) == {"zip", "sex", "disease", "notes"}
    assert any("'notes'" in w for w in kept.warnings)


# ---------------------------------------------------------------------------- property
ROLE_NAMES = ("qi", "sensitive", "identifying", "insensitive", "undeclared")


@st.composite
def declared_tables(draw):
    """A random table and a random role for each column (at least one QI)."""
    n = draw(st.integers(1, 25))
    m = draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    columns, roles = {}, {}
    for j in range(m):
        name = f"c{j}"
        if draw(st.booleans()):
            columns[name] = [str(v) for v in rng.integers(0, draw(st.integers(1, 60)), n)]
        else:
            columns[name] = [f"t{v}" for v in rng.integers(0, draw(st.integers(1, 5)), n)]
        roles[name] = draw(st.sampled_from(ROLE_NAMES))
    if "qi" not in roles.values():
        roles[draw(st.sampled_from(sorted(roles)))] = "qi"
    return pl.DataFrame(columns), roles


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(declared_tables(), st.booleans(), st.integers(1, 3), st.data())
def test_release_columns_are_exactly_the_declared_released_ones(drawn, keep, k, data):
    frame, roles = drawn
    by_role = {r: [c for c in frame.columns if roles[c] == r] for r in ROLE_NAMES}
    qi = by_role["qi"]
    hier = {
        c: "flat" for c in qi if frame[c].str.starts_with("t").any() or data.draw(st.booleans())
    }
    kwargs = dict(
        quasi_identifiers=qi, hierarchies=hier, sensitive=by_role["sensitive"],
        identifying=by_role["identifying"], insensitive=by_role["insensitive"],
        keep_other_columns=keep, k=min(k, frame.height), suppression_limit=1.0,
    )  # fmt: skip
    if by_role["undeclared"] and not keep:
        with pytest.raises(ConfigError) as err:
            anonymize(frame, **kwargs)
        assert all(f"'{c}'" in str(err.value) for c in by_role["undeclared"])
        event("undeclared columns refused")
        return
    event("released")
    release = anonymize(frame, **kwargs)
    released = [c for c in frame.columns if roles[c] != "identifying"]
    assert release.data.columns == released  # QI ∪ sensitive ∪ insensitive, nothing else
    assert set(released) == set(qi) | set(by_role["sensitive"]) | set(by_role["insensitive"]) | (
        set(by_role["undeclared"]) if keep else set()
    )
    # every input row is released, in order; suppressed ones are counted
    assert release.data.height == frame.height
    assert release.suppressed_rows.size == release.to_dict()["suppressed"]
    for c in released:
        if c not in qi:
            assert release.data[c].to_list() == frame[c].to_list()
    numeric_auto = {c for c in qi if c not in hier}
    assert set(release.to_dict()["automatic_hierarchies"]) == numeric_auto
