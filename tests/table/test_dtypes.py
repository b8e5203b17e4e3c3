"""Columns a release does not change keep their values and their dtype (polars and pandas).

Insensitive and sensitive columns are released as they came; generalized quasi-identifiers
are text labels.  Checked for the lattice search, Mondrian and both safe k-anonymizations.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_series_equal

from privlab.dp.safe_search import eps_safe_k_anonymize
from privlab.dp.sampling import safe_k_anonymize
from privlab.errors import InputError
from privlab.table.anonymize import anonymize
from privlab.table.data import MicroTable
from privlab.table.models import KAnonymity
from privlab.table.mondrian import mondrian

#: polars dtypes and values of the columns a release must return untouched
POLARS_VALUES = {
    pl.Int64: st.integers(-(2**62), 2**62),
    pl.Int16: st.integers(-(2**15), 2**15 - 1),
    pl.UInt8: st.integers(0, 255),
    pl.Float64: st.floats(allow_nan=True, allow_infinity=True),
    pl.Boolean: st.booleans(),
    pl.String: st.text(max_size=5),
    pl.Date: st.dates(),
    pl.Datetime("us"): st.datetimes(),
    pl.Categorical: st.sampled_from(["x", "y", "z"]),
}
REPEATS = 20  # each distinct row appears this often, so that classes of size k exist


@st.composite
def typed_frames(draw) -> pl.DataFrame:
    """Rows drawn from a few distinct typed rows, each repeated; columns ``q`` (a text QI),
    ``i`` (identifying), ``s`` (sensitive, no missing cell) and 1–4 insensitive ones."""
    dtypes = list(POLARS_VALUES)
    s_type = draw(st.sampled_from(dtypes))
    others = draw(st.lists(st.sampled_from(dtypes), min_size=1, max_size=4))
    n = draw(st.integers(1, 4))
    columns = {
        "q": (pl.String, st.sampled_from(["a", "b", "c"])),
        "i": (pl.String, st.text(max_size=3)),
        # "" is a missing cell (the default na_values), refused in a sensitive column
        "s": (s_type, POLARS_VALUES[s_type].filter(lambda v: v != "")),
        **{f"c{j}_{t}": (t, st.none() | POLARS_VALUES[t]) for j, t in enumerate(others)},
    }
    data = {
        name: pl.Series(name, draw(st.lists(values, min_size=n, max_size=n)), dtype=dtype)
        for name, (dtype, values) in columns.items()
    }
    return pl.DataFrame(data).select(pl.all().repeat_by(REPEATS).explode())


def assert_untouched(release: pl.DataFrame, original: pl.DataFrame, rows=None) -> None:
    for column in original.columns:
        if column in ("q", "i"):
            continue
        expected = original[column] if rows is None else original[column].gather(rows)
        assert_series_equal(release[column], expected)  # values and dtype


@settings(max_examples=40)
@given(frame=typed_frames())
def test_untouched_columns_keep_values_and_dtype(frame):
    roles = {"quasi_identifiers": ["q"], "sensitive": ["s"], "identifying": ["i"],
             "hierarchies": {"q": "flat"}, "keep_other_columns": True}  # fmt: skip
    lattice = anonymize(frame, k=2, suppression_limit=1.0, **roles)
    assert "i" not in lattice.data.columns and lattice.data["q"].dtype == pl.String
    assert_untouched(lattice.data, frame)

    table = MicroTable.from_data(frame, **roles)
    assert_untouched(mondrian(table, [KAnonymity(2)]).release, frame)

    safe = safe_k_anonymize(table, [0], k=5, beta=0.5, epsilon=1.0, rng=1)
    assert_untouched(safe.data, frame, safe.released_rows)
    eps_safe = eps_safe_k_anonymize(table, k=5, beta=0.5, epsilon=2.0, selection_epsilon=0.5, rng=2)
    assert_untouched(eps_safe.data, frame, eps_safe.released_rows)


#: pandas dtypes whose round trip through polars alone would change them
PANDAS_COLUMNS = {
    "int64": lambda v: pd.Series(v, dtype="int64"),
    "float64": lambda v: pd.Series([np.nan if x % 3 == 0 else x / 7 for x in v]),
    "bool": lambda v: pd.Series([x % 2 == 0 for x in v]),
    "object": lambda v: pd.Series([f"t{x}" for x in v], dtype=object),
    "str": lambda v: pd.Series([f"s{x}" for x in v], dtype="str"),
    "Int64": lambda v: pd.array([None if x % 3 == 0 else x for x in v], dtype="Int64"),
    "boolean": lambda v: pd.array([None if x % 3 == 0 else x % 2 == 0 for x in v], "boolean"),
    "datetime": lambda v: pd.Series(pd.to_datetime([f"2020-01-{1 + x % 28:02d}" for x in v])),
    "category": lambda v: pd.Series(pd.Categorical([f"k{x % 2}" for x in v])),
}


#: sensitive columns, without missing cells (pandas' NaN is a missing cell)
SENSITIVE_COLUMNS = {
    "int64": PANDAS_COLUMNS["int64"],
    "float64": lambda v: pd.Series([x / 7 for x in v]),
    "object": PANDAS_COLUMNS["object"],
    "Int64": lambda v: pd.array(v, dtype="Int64"),
    "category": PANDAS_COLUMNS["category"],
}


@settings(max_examples=30)
@given(
    kinds=st.lists(st.sampled_from(list(PANDAS_COLUMNS)), min_size=1, max_size=5),
    s_kind=st.sampled_from(list(SENSITIVE_COLUMNS)),
    codes=st.lists(st.integers(0, 5), min_size=1, max_size=4),
)
def test_pandas_untouched_columns_keep_values_and_dtype(kinds, s_kind, codes):
    rows = [c for c in codes for _ in range(REPEATS)]
    frame = pd.DataFrame(
        {
            "q": [f"q{c % 2}" for c in rows],
            "s": SENSITIVE_COLUMNS[s_kind](rows),
            **{f"c{j}_{k}": PANDAS_COLUMNS[k](rows) for j, k in enumerate(kinds)},
        }
    )
    release = anonymize(frame, quasi_identifiers=["q"], sensitive=["s"], k=2,
                        hierarchies={"q": "flat"}, keep_other_columns=True).data  # fmt: skip
    assert isinstance(release, pd.DataFrame)
    for column in frame.columns.drop("q"):
        pd.testing.assert_series_equal(release[column], frame[column])


def test_generalized_qis_are_text_labels():
    frame = pl.DataFrame({"age": [30, 31, 30, 31], "zip": [1, 1, 2, 2], "x": [0.5] * 4})
    release = anonymize(frame, quasi_identifiers=["age", "zip"], insensitive=["x"], k=2,
                        suppression_limit=1.0)  # fmt: skip
    assert release.data.schema == pl.Schema({"age": pl.String, "zip": pl.String, "x": pl.Float64})
    table = MicroTable.from_data(frame, quasi_identifiers=["age"], keep_other_columns=True)
    result = mondrian(table, [KAnonymity(4)], numeric=["age"])
    assert result.release["age"].to_list() == ["30-31"] * 4
    assert result.release.schema["zip"] == pl.Int64


def test_parquet_path_with_typed_columns(tmp_path):
    """A Parquet file's typed quasi-identifier is encoded from its text; the others keep
    their types."""
    frame = pl.DataFrame(
        {"age": [30, 31, 30, 31], "score": [1.5, 2.5, 3.5, 4.5], "day": [dt.date(2020, 1, 1)] * 4}
    )
    path = tmp_path / "t.parquet"
    frame.write_parquet(path)
    release = anonymize(path, quasi_identifiers=["age"], sensitive=["score"], insensitive=["day"],
                        k=1).data  # fmt: skip
    assert release["age"].to_list() == ["30", "31", "30", "31"]
    assert_series_equal(release["score"], frame["score"])
    assert_series_equal(release["day"], frame["day"])


def test_missing_category_turns_a_typed_column_into_text():
    """The missing-value policy rewrites a column: it is then released as text."""
    frame = pl.DataFrame({"q": ["a"] * 4, "s": [1, None, 3, 1], "x": [1, 2, 3, 4]})
    release = anonymize(
        frame, quasi_identifiers=["q"], sensitive=["s"], insensitive=["x"],
        hierarchies={"q": "flat"}, k=2, missing="category",
    ).data  # fmt: skip
    assert release["s"].to_list() == ["1", "?", "3", "1"]
    assert_series_equal(release["x"], frame["x"])


def test_untyped_column_roles_are_refused_with_a_message():
    frame = pl.DataFrame({"q": [[1, 2], [3]], "x": [1, 2]})
    with pytest.raises(InputError, match=r"column 'q': its type List\(Int64\) has no text form"):
        MicroTable.from_data(frame, quasi_identifiers=["q"], keep_other_columns=True)
