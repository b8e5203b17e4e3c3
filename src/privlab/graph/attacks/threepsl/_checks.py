"""Argument checks of 3PSL, and the types of the callables it takes.

Source: the inputs of seed 004 §2.11 (thesis §5.3.3, L1441–1459; parameters §5.6 L1657):
graphs of one kind, thresholds t1 > t2 > t3, one scorer per phase.  Each check raises
ConfigError (or InputError for the graphs) with the message the callers rely on, and
returns the normalized value.  All O(1) but ``_check_scorers`` (O(3)).
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral
from typing import Any

import numpy as np

from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph, as_graph
from privlab.validate import check_choice, check_int

Scorer = Callable[[np.ndarray, np.ndarray], np.ndarray]
PairMask = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _check_graphs(aux: Any, san: Any) -> tuple[Graph, Graph]:
    aux, san = as_graph(aux, "aux"), as_graph(san, "san")
    if aux.directed != san.directed:
        raise InputError(
            f"aux is {'directed' if aux.directed else 'undirected'} but san is "
            f"{'directed' if san.directed else 'undirected'}; give two graphs of the same kind"
        )
    return aux, san


def _check_thresholds(thresholds: Any) -> tuple[int, int, int]:
    try:
        t = tuple(thresholds)
    except TypeError:
        t = ()
    if (
        len(t) != 3
        or any(isinstance(x, bool) or not isinstance(x, Integral) for x in t)
        or not (t[0] > t[1] > t[2] >= 0)
    ):
        raise ConfigError(
            f"thresholds = {thresholds!r}: give three integers t1 > t2 > t3 ≥ 0 "
            "(degree thresholds of the phases, e.g. (30, 9, 5))"
        )
    return int(t[0]), int(t[1]), int(t[2])


def _check_choice(x: Any, name: str, options: tuple[str, ...]) -> str:
    """One of the string ``options``, as a str."""
    return str(check_choice(x, name, options))


def _check_max_iter(x: Any) -> tuple[int, int, int]:
    if isinstance(x, Integral) and not isinstance(x, bool):
        v = check_int(x, "max_iter", 1)
        return v, v, v
    try:
        t = tuple(x)
    except TypeError:
        t = ()
    if len(t) != 3:
        raise ConfigError(f"max_iter = {x!r}: give an integer ≥ 1 or one per phase (three)")
    return tuple(check_int(y, "max_iter", 1) for y in t)  # type: ignore[return-value]


def _check_scorers(scorers: Any) -> tuple[Scorer, Scorer, Scorer]:
    if callable(scorers):
        raise ConfigError(
            "scorers: give a sequence of three callables, one per phase "
            "(repeat one callable to use it for every phase)"
        )
    try:
        s = tuple(scorers)
    except TypeError:
        s = ()
    if len(s) != 3:
        raise ConfigError(f"scorers: {len(s)} given, give three callables (one per phase)")
    for k, f in enumerate(s, 1):
        if not callable(f):
            raise ConfigError(f"scorers[{k - 1}] (phase {k}) is not callable")
    return s  # type: ignore[return-value]
