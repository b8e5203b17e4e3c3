"""Plumbing shared by the graph utility metrics: the igraph view, parameters (input
coercion is :func:`privlab.graph.core.as_graph`).

Not public API: import the metrics from :mod:`privlab.graph.utility`.
"""

from __future__ import annotations

import warnings
import weakref
from typing import Any

import numpy as np

from privlab import validate
from privlab.errors import ConfigError, InputError
from privlab.graph.core import Graph

# Graph is frozen (eq=False, so hashed by identity): its igraph twin can be memoized.
_IGRAPH: weakref.WeakKeyDictionary[Graph, Any] = weakref.WeakKeyDictionary()


def require_nodes(g: Graph, metric: str) -> None:
    if g.n_nodes == 0:
        raise InputError(f"{metric}: the graph has no nodes")


def igraph_of(g: Graph) -> Any:
    """The igraph twin of ``g`` (built once per Graph object, O(m))."""
    h = _IGRAPH.get(g)
    if h is None:
        import igraph as ig

        h = ig.Graph(n=g.n_nodes, edges=g.edges(), directed=g.directed)
        _IGRAPH[g] = h
    return h


def quiet(fn, *args, **kwargs):
    """Call an igraph routine with its "graph is disconnected" RuntimeWarnings silenced.

    The conventions for disconnected graphs are ours and documented per metric.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(*args, **kwargs)


def check_sample(sample: Any, metric: str) -> int | None:
    if sample is None:
        return None
    if isinstance(sample, bool) or not isinstance(sample, int | np.integer) or sample < 1:
        raise ConfigError(
            f"{metric}: sample = {sample!r}: give the number of BFS sources, an integer ≥ 1 "
            "(or None for the exact value)"
        )
    return int(sample)


def sample_sources(g: Graph, sample: Any, seed: Any, metric: str) -> np.ndarray | None:
    """Sorted random BFS sources (without replacement), or None when exact is asked/cheaper.

    ``seed``: an int, a numpy Generator or None (fresh entropy).  Sampling for utility
    estimates is not a privacy mechanism, so numpy's default generator is used.
    """
    k = check_sample(sample, metric)
    if k is None or k >= g.n_nodes:
        return None
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return np.sort(rng.choice(g.n_nodes, size=k, replace=False))


def check_choice(value: Any, allowed: tuple[str, ...], name: str, metric: str) -> str:
    """:func:`privlab.validate.check_choice` with the message prefixed by ``"{metric}: "``."""
    return validate.check_choice(value, f"{metric}: {name}", allowed)


def check_fraction(value: Any, name: str, metric: str) -> float:
    """A real number in (0, 1], message prefixed by ``"{metric}: "``
    (:func:`privlab.validate.check_fraction`)."""
    return validate.check_fraction(value, f"{metric}: {name}")


def total_degrees(g: Graph) -> np.ndarray:
    """Degree (undirected) or in + out degree (directed).  O(n) / O(m)."""
    d = g.degrees()
    return d + g.in_degrees() if g.directed else d
