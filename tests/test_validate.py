"""privlab.validate: the shared parameter checks."""

import math
from fractions import Fraction

import numpy as np
import pytest

from privlab.errors import ConfigError, PrivlabError
from privlab.validate import check_choice, check_fraction, check_int, check_number_in


# --------------------------------------------------------------------------- check_int
@pytest.mark.parametrize("value", [1, 7, 10**30, np.int64(3), np.uint8(1), np.int32(1)])
def test_check_int_accepts_integers_and_returns_int(value):
    out = check_int(value, "n", 1)
    assert out == value and type(out) is int


def test_check_int_boundary_is_inclusive():
    assert check_int(0, "n", 0) == 0
    assert check_int(-1, "min_degree", -1) == -1
    with pytest.raises(ConfigError, match=r"^n = -1: give an integer ≥ 0$"):
        check_int(-1, "n", 0)


@pytest.mark.parametrize("value", [True, False, np.bool_(True), 3.0, np.float64(2), "3", None, 1j])
def test_check_int_rejects_bools_and_non_integers(value):
    with pytest.raises(ConfigError, match=r"^n_trees = .*: give an integer ≥ 0$"):
        check_int(value, "n_trees", 0)


def test_check_int_message_names_parameter_value_and_hint():
    with pytest.raises(ConfigError) as info:
        check_int(0, "n_trees", 1, "the number of trees T, e.g. 400")
    assert str(info.value) == "n_trees = 0: give an integer ≥ 1 (the number of trees T, e.g. 400)"
    with pytest.raises(ConfigError, match=r"^k = 'x': give an integer ≥ 2$"):
        check_int("x", "k", 2)


def test_errors_are_privlab_and_value_errors():
    with pytest.raises(PrivlabError):
        check_int(0, "n", 1)
    with pytest.raises(ValueError):
        check_fraction(2, "q")


# --------------------------------------------------------------------------- check_number_in
@pytest.mark.parametrize(
    "value", [0, 0.0, 1, 0.5, np.float32(0.25), np.float64(1.0), np.int64(1), Fraction(1, 3)]
)
def test_check_number_in_accepts_reals_in_the_closed_range(value):
    out = check_number_in(value, "x", 0, 1)
    assert out == float(value) and type(out) is float


@pytest.mark.parametrize("value", [-0.01, 1.0000001, math.nan, math.inf, -math.inf, np.nan])
def test_check_number_in_rejects_out_of_range_and_non_finite(value):
    with pytest.raises(ConfigError, match=r"^x = .*: give a number in \[0, 1\]$"):
        check_number_in(value, "x", 0, 1)


@pytest.mark.parametrize("value", [True, False, np.bool_(False), "0.5", None, [0.5], 0.5j])
def test_check_number_in_rejects_bools_and_non_reals(value):
    with pytest.raises(ConfigError, match=r"give a number in \[0, 1\]"):
        check_number_in(value, "x", 0, 1)


def test_check_number_in_open_low_bound():
    assert check_number_in(1, "x", 0, 1, low_open=True) == 1.0
    assert check_number_in(1e-12, "x", 0, 1, low_open=True) == 1e-12
    with pytest.raises(ConfigError, match=r"^x = 0: give a number in \(0, 1\]$"):
        check_number_in(0, "x", 0, 1, low_open=True)


def test_check_number_in_message_bounds_and_hint():
    with pytest.raises(ConfigError) as info:
        check_number_in(3.5, "cs_threshold", 0.0, 2.0, hint="at most the largest score")
    assert str(info.value) == (
        "cs_threshold = 3.5: give a number in [0, 2] (at most the largest score)"
    )
    with pytest.raises(ConfigError, match=r"^w = nan: give a number in \[0\.5, 1e\+06\]$"):
        check_number_in(math.nan, "w", 0.5, 1e6)


# --------------------------------------------------------------------------- check_fraction
def test_check_fraction_defaults_to_the_half_open_unit_interval():
    assert check_fraction(1, "q") == 1.0
    assert check_fraction(np.float32(0.5), "q") == 0.5
    with pytest.raises(ConfigError, match=r"^q = 0: give a number in \(0, 1\]$"):
        check_fraction(0, "q")
    with pytest.raises(ConfigError, match=r"^q = 1\.5: give a number in \(0, 1\]$"):
        check_fraction(1.5, "q")


def test_check_fraction_closed_with_hint():
    assert check_fraction(0, "fraction", low_open=False) == 0.0
    with pytest.raises(ConfigError) as info:
        check_fraction(True, "fraction", low_open=False, hint="0 leaves the graph unchanged")
    assert str(info.value) == (
        "fraction = True: give a number in [0, 1] (0 leaves the graph unchanged)"
    )


def test_check_fraction_prefixed_name():
    with pytest.raises(ConfigError, match=r"^effective diameter: q = 'x': give a number in"):
        check_fraction("x", "effective diameter: q")


# --------------------------------------------------------------------------- check_choice
def test_check_choice_returns_the_value_itself():
    value = "score"
    assert check_choice(value, "order", ("score", "cs")) is value
    assert check_choice(2, "probing", (1, 2, 3)) == 2
    assert check_choice("a", "x", ["a", "b"]) == "a"


def test_check_choice_message_lists_the_choices():
    with pytest.raises(ConfigError) as info:
        check_choice("random", "order", ("score", "cs"))
    assert str(info.value) == "order = 'random': choose one of 'score', 'cs'"
    with pytest.raises(ConfigError, match=r"^probing = 5: choose one of 1, 2, 3, 4$"):
        check_choice(5, "probing", (1, 2, 3, 4))
    with pytest.raises(ConfigError, match=r"^m = None: choose one of 'a'$"):
        check_choice(None, "m", ("a",))
