"""Hierarchy builders: reference examples, errors that name line/value/parameter, and
properties (every value is a leaf, levels nest, one top, intervals hold their values,
masking keeps prefixes)."""

from __future__ import annotations

import math
import re
from datetime import date, timedelta

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import ConfigError, InputError
from privlab.table.hierarchy import Hierarchy
from privlab.table.hierarchy_builders import (
    HIERARCHY_KINDS,
    build_hierarchy,
    date_hierarchy,
    interval_hierarchy,
    masking_hierarchy,
    order_hierarchy,
)


def rows(h: Hierarchy) -> dict[str, list[str]]:
    return {r[0]: r[1:] for r in h.to_rows()}


def assert_valid(h: Hierarchy, values) -> None:
    """Every distinct value is exactly one leaf, rows re-validate, one top value '*'."""
    distinct = {str(v) for v in values}
    assert h.leaves.count(h.leaves[0]) == 1
    assert len(h.leaves) == len(set(h.leaves))
    assert distinct <= set(h.leaves)
    Hierarchy.from_rows(h.to_rows())  # nesting and single top, validated again
    assert h.group_labels(h.height).tolist() == ["*"]
    h.encode([str(v) for v in values], column="x")  # every value is found


# ---------------------------------------------------------------------------- interval
def test_interval_reference_with_top_and_bottom_coding():
    h = interval_hierarchy(
        ["17", "23", "29", "35", "50", "91", "88", "23"], width=5, bottom=20, top=90, column="age"
    )
    assert h.leaves == ["17", "23", "29", "35", "50", "88", "91"]  # sorted, deduplicated
    r = rows(h)
    assert r["17"] == ["<20"] * 5 + ["*"]
    assert r["91"] == [">=90"] * 5 + ["*"]
    assert r["23"] == ["20-24", "20-29", "20-39", "20-59", "20-89", "*"]
    assert r["88"] == ["85-89", "80-89", "80-89", "60-89", "20-89", "*"]  # clipped at top


def test_interval_levels_fanout_and_start():
    h = interval_hierarchy(range(0, 30), width=5, fanout=3, levels=2, start=-5)
    r = rows(h)
    assert h.height == 3
    assert r["0"] == ["0-4", "-5-9", "*"]
    assert r["10"] == ["10-14", "10-24", "*"]
    assert r["29"] == ["25-29", "25-39", "*"]


def test_interval_single_integer_and_float_labels():
    assert rows(interval_hierarchy([3, 4], width=1))["3"] == ["3", "3-4", "*"]
    h = interval_hierarchy(["0.1", "0.25", "0.3", "0.7"], width=0.1)
    r = rows(h)
    # 0.3 lies in [0.3, 0.4) although 0.1 + 2 * 0.1 > 0.3 in floating point
    assert r["0.3"][0] == "[0.3, 0.4)"
    assert r["0.25"][0] == "[0.2, 0.3)"
    assert r["0.1"][-2] == "[0.1, 0.9)"


def test_interval_integer_data_with_float_width_uses_interval_labels():
    r = rows(interval_hierarchy([1, 2, 3], width=1.5))
    assert r["1"][0] == "[0, 1.5)"
    assert r["2"][0] == "[1.5, 3)"


def test_interval_accepts_series_and_arrays():
    for values in (
        pl.Series(["5", "12", None]).drop_nulls(),
        np.array([5, 12]),
        [5.0, 12.0],
    ):
        h = interval_hierarchy(values, width=10)
        assert len(h.leaves) == 2
    pd = pytest.importorskip("pandas")
    assert interval_hierarchy(pd.Series([5, 12]), width=10).leaves == ["5", "12"]


@pytest.mark.parametrize("bad", ["abc", "nan", "1_000", " 7"])
def test_interval_non_numeric_value_names_line_not_value(bad):
    values = ["20", "30", bad, "40"]
    with pytest.raises(InputError) as err:
        interval_hierarchy(values, width=5, column="age", source="data.csv")
    msg = str(err.value)
    assert "data.csv, line 4, column 'age'" in msg
    assert repr(bad) not in msg and "not a finite number (1 distinct such value" in msg


def test_interval_infinite_value_is_rejected():
    with pytest.raises(InputError, match=r"line 3.*: not a finite number"):
        interval_hierarchy(["1", "inf"], width=5, first_line=2)


def test_interval_first_line_offset_counts_first_occurrence():
    with pytest.raises(InputError, match=r"line 11, column 'x': not a finite number \(1 "):
        interval_hierarchy(["1", "b", "b"], width=1, column="x", first_line=10)


@pytest.mark.parametrize("missing", [None, "", float("nan")])
def test_missing_value_is_an_error_naming_its_line(missing):
    with pytest.raises(InputError, match=r"line 3, column 'age': missing value"):
        interval_hierarchy(["20", missing, "30"], width=5, column="age")


def test_missing_label_is_a_leaf_of_its_own():
    h = interval_hierarchy(["20", None, "?", "30"], width=5, missing_label="?")
    assert rows(h)["?"] == ["?"] * (h.height - 1) + ["*"]
    assert h.leaves == ["20", "30", "?"]
    for builder, kwargs in (
        (masking_hierarchy, {}),
        (order_hierarchy, {"group_size": 2}),
        (date_hierarchy, {}),
    ):
        vals = ["2020-01-01", None, "2021-05-06"]
        hh = builder(vals, missing_label="?", **kwargs)
        assert rows(hh)["?"][:-1] == ["?"] * (hh.height - 1)


@pytest.mark.parametrize(
    ("kwargs", "param"),
    [
        ({"width": 0}, "width"),
        ({"width": -2}, "width"),
        ({"width": "wide"}, "width"),
        ({"width": float("inf")}, "width"),
        ({"width": None}, "width"),
        ({"width": 5, "fanout": 1}, "fanout"),
        ({"width": 5, "fanout": 2.5}, "fanout"),
        ({"width": 5, "levels": 0}, "levels"),
        ({"width": 5, "bottom": 50, "top": 20}, "bottom"),
        ({"width": 5, "start": "x"}, "start"),
    ],
)
def test_interval_bad_parameters_name_the_parameter(kwargs, param):
    with pytest.raises(ConfigError, match=param):
        interval_hierarchy(["20"], **kwargs)


def test_all_values_coded():
    h = interval_hierarchy(["5", "95"], width=10, bottom=10, top=90)
    assert rows(h) == {"5": ["<10", "*"], "95": [">=90", "*"]}


# ---------------------------------------------------------------------------- order
def test_order_natural_numeric_order_and_repeated_group_size():
    h = order_hierarchy(["10", "9", "100", "8", "9"], group_size=2)
    assert h.leaves == ["8", "9", "10", "100"]
    assert rows(h)["10"] == ["10-100", "8-100", "*"]


def test_order_lexicographic_and_sizes_per_level():
    h = order_hierarchy(list("hgfedcba"), group_size=[3, 2])
    r = rows(h)
    assert h.leaves == list("abcdefgh")
    assert r["a"] == ["a-c", "a-f", "*"]
    assert r["g"] == ["g-h", "g-h", "*"]
    assert h.height == 3


def test_order_given_order():
    order = ["low", "mid", "high", "top"]
    h = order_hierarchy(["top", "low", "high"], group_size=2, order=order)
    assert h.leaves == ["low", "high", "top"]
    assert rows(h)["high"] == ["low-high", "low-top", "*"]


def test_order_value_missing_from_order_names_line():
    with pytest.raises(InputError, match=r"line 3, column 'edu': a value not in the given order"):
        order_hierarchy(["bsc", "phd"], group_size=2, order=["bsc", "msc"], column="edu")


def test_order_bad_parameters():
    with pytest.raises(ConfigError, match="group_size"):
        order_hierarchy(["a"], group_size=1)
    with pytest.raises(ConfigError, match="group_size"):
        order_hierarchy(["a"], group_size=[])
    with pytest.raises(ConfigError, match="order"):
        order_hierarchy(["a"], group_size=2, order=["a", "a"])


def test_order_label_collision_is_reported():
    values = ["a", "a-a", "a-a-a"]  # groups ("a", "a-a") and ("a-a-a",) are both "a-a-a"
    with pytest.raises(InputError, match="separator"):
        order_hierarchy(values, group_size=2)
    h = order_hierarchy(values, group_size=2, separator=" to ")
    assert rows(h)["a"][0] == "a to a-a"


# ---------------------------------------------------------------------------- masking
def test_masking_reference_zip():
    h = masking_hierarchy(["81667", "81675", "13053"])
    assert rows(h)["81667"] == ["8166*", "816**", "81***", "8****", "*"]


def test_masking_pads_shorter_values_like_arx():
    h = masking_hierarchy(["123", "12345"])
    r = rows(h)
    assert r["123"] == ["123**", "123**", "12***", "1****", "*"]
    h = masking_hierarchy(["123", "12345"], pad="0")
    assert rows(h)["123"] == ["1230*", "123**", "12***", "1****", "*"]


def test_masking_from_left_keeps_suffixes():
    h = masking_hierarchy(["0301234", "0309999"], from_right=False, char="#")
    assert rows(h)["0301234"][:2] == ["#301234", "##01234"]
    assert rows(h)["0301234"][-1] == "*"


def test_masking_single_character_values():
    h = masking_hierarchy(["a", "b"])
    assert rows(h) == {"a": ["*"], "b": ["*"]}


@pytest.mark.parametrize(("kwargs", "param"), [({"char": "**"}, "char"), ({"pad": ""}, "pad")])
def test_masking_bad_parameters(kwargs, param):
    with pytest.raises(ConfigError, match=param):
        masking_hierarchy(["a"], **kwargs)


# ---------------------------------------------------------------------------- date
def test_date_reference_levels():
    h = date_hierarchy(["2020-03-15", "2019-12-31"], levels=("month", "quarter", "year", "decade"))
    assert rows(h)["2020-03-15"] == ["2020-03", "2020-Q1", "2020", "2020s", "*"]
    assert rows(h)["2019-12-31"] == ["2019-12", "2019-Q4", "2019", "2010s", "*"]
    assert h.leaves == ["2019-12-31", "2020-03-15"]


def test_date_weeks_nest_in_years_and_other_format():
    h = date_hierarchy(["31.12.2019", "01.01.2020", "06.01.2020"], format="%d.%m.%Y",
                       levels="week,year")  # fmt: skip
    r = rows(h)
    assert r["31.12.2019"] == ["2019-W52", "2019", "*"]
    assert r["01.01.2020"] == ["2020-W00", "2020", "*"]
    assert r["06.01.2020"] == ["2020-W01", "2020", "*"]


def test_date_unparsable_value_names_line_not_value():
    with pytest.raises(InputError, match=r"data.csv, line 3, column 'd': not a date") as err:
        date_hierarchy(["2020-01-01", "2020-13-01"], column="d", source="data.csv")
    assert "2020-13-01" not in str(err.value)


@pytest.mark.parametrize(
    "levels", [(), ("year", "month"), ("week", "month"), ("fortnight",), ("month", "month")]
)
def test_date_bad_levels(levels):
    with pytest.raises(ConfigError, match="levels"):
        date_hierarchy(["2020-01-01"], levels=levels)


# ---------------------------------------------------------------------------- dispatch
def test_build_hierarchy_dispatch():
    assert set(HIERARCHY_KINDS) == {"interval", "order", "masking", "date", "flat"}
    h = build_hierarchy("masking", ["ab", "cd"], column="z")
    assert rows(h)["ab"] == ["a*", "*"]
    with pytest.raises(ConfigError, match="unknown hierarchy kind"):
        build_hierarchy("tree", ["a"])


def test_empty_input_is_an_error():
    with pytest.raises(InputError, match="no values"):
        masking_hierarchy([], column="z")


# ---------------------------------------------------------------------------- properties
_INT_LABEL = re.compile(r"^(-?\d+)(?:-(-?\d+))?$")
_FLOAT_LABEL = re.compile(r"^\[(\S+), (\S+)\)$")


def _bounds(label: str) -> tuple[float, float, bool]:
    """(lo, hi, hi_inclusive) of an interval label."""
    if label.startswith("<"):
        return -math.inf, float(label[1:]), False
    if label.startswith(">="):
        return float(label[2:]), math.inf, False
    m = _INT_LABEL.match(label)
    if m:
        lo = int(m.group(1))
        return lo, int(m.group(2)) if m.group(2) else lo, True
    m = _FLOAT_LABEL.match(label)
    assert m, label
    return float(m.group(1)), float(m.group(2)), False


def _contains(bounds: tuple[float, float, bool], x: float) -> bool:
    lo, hi, inclusive = bounds
    return lo <= x <= hi if inclusive else lo <= x < hi


@st.composite
def interval_cases(draw):
    integer = draw(st.booleans())
    if integer:
        xs = draw(st.lists(st.integers(-200, 200), min_size=1, max_size=40))
        width = draw(st.integers(1, 40))
    else:
        xs = draw(st.lists(st.integers(-2000, 2000), min_size=1, max_size=40))
        xs = [x / 10 for x in xs]  # one decimal: exact text round trip
        width = draw(st.sampled_from([0.1, 0.25, 0.3, 1.5, 7.0, 12.5]))
    kwargs = {"width": width, "fanout": draw(st.integers(2, 4))}
    if draw(st.booleans()):
        kwargs["levels"] = draw(st.integers(1, 5))
    lo_hi = sorted(draw(st.lists(st.integers(-150, 150), min_size=2, max_size=2, unique=True)))
    if draw(st.booleans()):
        kwargs["bottom"] = lo_hi[0]
    if draw(st.booleans()):
        kwargs["top"] = lo_hi[1]
    return [str(x) for x in xs], kwargs


@settings(max_examples=150, deadline=None)
@given(interval_cases())
def test_property_interval_groups_contain_their_values(case):
    values, kwargs = case
    h = interval_hierarchy(values, **kwargs)
    assert_valid(h, values)
    assert sorted(h.leaves) == sorted(set(values))
    if "levels" in kwargs:
        assert h.height == kwargs["levels"] + 1
    for leaf, *labels in h.to_rows():
        x = float(leaf)
        previous = None
        for label in labels[:-1]:
            b = _bounds(label)
            assert _contains(b, x), (leaf, label)
            if previous is not None and not label.startswith(("<", ">=")):
                # a group is a union of groups one level down: its interval holds theirs
                assert b[0] <= previous[0] and previous[1] <= b[1], (leaf, labels)
            previous = b
        assert labels[-1] == "*"


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.text("ab-1", min_size=1, max_size=4), min_size=1, max_size=30),
    st.one_of(st.integers(2, 4), st.lists(st.integers(2, 3), min_size=1, max_size=3)),
)
def test_property_order_groups_are_consecutive_runs(values, group_size):
    try:
        h = order_hierarchy(values, group_size=group_size, separator="~")
    except InputError as exc:  # only a label collision may stop it; values hold no '~'
        raise AssertionError(str(exc)) from exc
    assert_valid(h, values)
    g = group_size if isinstance(group_size, int) else group_size[0]
    groups = h.group_of_leaf(1)
    assert np.all(np.diff(groups) >= 0)  # consecutive in the sorted order
    assert np.bincount(groups).max() <= g


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.text("0123456789ab", min_size=1, max_size=7), min_size=1, max_size=30),
    st.booleans(),
)
def test_property_masking_keeps_prefixes(values, from_right):
    h = masking_hierarchy(values, from_right=from_right)
    assert_valid(h, values)
    length = max(len(v) for v in values)
    assert h.height == length
    for leaf, *labels in h.to_rows():
        for j, label in enumerate(labels[:-1], start=1):
            assert len(label) == length
            kept = length - j
            if from_right:
                assert label[kept:] == "*" * j
                assert leaf.ljust(length, "*").startswith(label[:kept])
            else:
                assert label[:j] == "*" * j
                assert leaf.rjust(length, "*").endswith(label[j:])


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.dates(date(1900, 1, 1), date(2099, 12, 31)), min_size=1, max_size=30),
    st.sampled_from(
        [("month", "year"), ("week", "year", "decade"), ("quarter", "decade"), ("month",)]
    ),
)
def test_property_dates(dates, levels):
    values = [d.isoformat() for d in dates]
    h = date_hierarchy(values, levels=levels)
    assert_valid(h, values)
    for leaf, *labels in h.to_rows():
        d = date.fromisoformat(leaf)
        for name, label in zip(levels, labels, strict=False):
            if name == "month":
                assert label == d.strftime("%Y-%m")
            elif name == "year":
                assert label == str(d.year)
            elif name == "decade":
                assert label == f"{d.year // 10 * 10}s"
            elif name == "week":
                monday = d - timedelta(days=d.weekday())
                assert label.startswith(f"{d.year}-W")
                assert (monday.year < d.year) == (label.endswith("W00"))
