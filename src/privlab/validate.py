"""Parameter checks shared across privlab: integers, numbers in a range, choices.

Each check returns the normalized value or raises :class:`~privlab.errors.ConfigError` with a
message that names the parameter, shows the bad value and says what to give instead::

    n_trees = 0: give an integer ≥ 1 (the number of trees T, e.g. 400)
    fraction = 1.5: give a number in [0, 1] (0 leaves the graph unchanged)
    order = 'random': choose one of 'score', 'cs'

``name`` is printed as given, so a caller may prefix it (``"effective diameter: q"``).
Booleans are never numbers here (``True`` is an :class:`int` in Python, but a flag passed
where a count is meant is a mistake); numpy integers and floats are accepted (they register
as :class:`numbers.Integral` / :class:`numbers.Real`).  This module is a bottom layer: it
imports only :mod:`privlab.errors` and the standard library.  All checks are O(1) but
:func:`check_choice`, O(len(choices)).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from numbers import Integral, Real
from typing import Any, TypeVar

from privlab.errors import ConfigError

T = TypeVar("T")


def _with_hint(message: str, hint: str | None) -> str:
    return f"{message} ({hint})" if hint else message


def _bound(x: float) -> str:
    """A range bound as the user would write it: 1 not 1.0, 0.5, 1e+06."""
    return f"{x:g}"


def check_int(value: Any, name: str, low: int, hint: str | None = None) -> int:
    """``value`` as an int ≥ ``low``; rejects bools and non-integral numbers (3.0 too).

    Message: ``"{name} = {value!r}: give an integer ≥ {low}"``, then ``" ({hint})"``.
    """
    if isinstance(value, bool) or not isinstance(value, Integral) or value < low:
        raise ConfigError(_with_hint(f"{name} = {value!r}: give an integer ≥ {low}", hint))
    return int(value)


def check_number_in(
    value: Any,
    name: str,
    low: float,
    high: float,
    *,
    low_open: bool = False,
    hint: str | None = None,
) -> float:
    """``value`` as a float in [low, high] (``low_open=True``: (low, high]).

    Rejects bools, non-real values (strings, None) and NaN/±inf.  Message:
    ``"{name} = {value!r}: give a number in [low, high]"`` (or ``(low, high]``), then
    ``" ({hint})"``.
    """
    x = math.nan
    if not isinstance(value, bool) and isinstance(value, Real):
        x = float(value)
    inside = low < x <= high if low_open else low <= x <= high  # False for NaN
    if not (math.isfinite(x) and inside):
        interval = f"{'(' if low_open else '['}{_bound(low)}, {_bound(high)}]"
        raise ConfigError(_with_hint(f"{name} = {value!r}: give a number in {interval}", hint))
    return x


def check_fraction(
    value: Any, name: str, *, low_open: bool = True, hint: str | None = None
) -> float:
    """``value`` as a float in (0, 1] (``low_open=False``: [0, 1]).

    :func:`check_number_in` with the bounds 0 and 1; same message.
    """
    return check_number_in(value, name, 0.0, 1.0, low_open=low_open, hint=hint)


def check_choice(value: T, name: str, choices: Collection[Any]) -> T:
    """``value`` itself if it is one of ``choices``, else an error listing them.

    Message: ``"{name} = {value!r}: choose one of 'a', 'b'"``.
    """
    if value not in choices:
        raise ConfigError(f"{name} = {value!r}: choose one of {', '.join(map(repr, choices))}")
    return value


__all__ = ["check_choice", "check_fraction", "check_int", "check_number_in"]
