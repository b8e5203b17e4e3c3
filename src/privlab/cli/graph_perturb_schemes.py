"""The structure-aware perturbation schemes of ``privlab graph anonymize --scheme``:
spectrum-preserving add/delete and switch (Ying & Wu 2008) and random-walk perturbation
(Mittal et al. 2013).  Registered in :data:`privlab.cli.graph.SCHEMES`; each runner has the
signature ``(graph, opts, seed) -> (release, summary)`` of the others there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from privlab.errors import ConfigError
from privlab.graph.core import Graph

#: option key → (flag, the schemes that take it)
OPTIONS = {
    "walk_length": ("--walk-length", frozenset({"randwalk"})),
    "tolerance": ("--tolerance", frozenset({"spctr-ad", "spctr-sw"})),
}


def _spectrum(name: str) -> Callable[..., Any]:
    def run(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
        from privlab.graph.anonymize import spectrum

        fn = {"spctr-ad": spectrum.spectrum_add_delete, "spctr-sw": spectrum.spectrum_switch}
        if opts.get("fraction") is None:
            raise ConfigError(f"--scheme {name} needs --fraction")
        tolerance = opts.get("tolerance")
        result = fn[name](graph, opts["fraction"], seed=seed,
                          tolerance=0.0 if tolerance is None else tolerance)  # fmt: skip
        return result.graph, result.to_dict()

    return run


def _random_walk(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    from privlab.graph.anonymize.randomwalk import random_walk_perturbation

    if opts.get("walk_length") is None:
        raise ConfigError("--scheme randwalk needs --walk-length (t ≥ 1; 1 changes nothing)")
    result = random_walk_perturbation(graph, opts["walk_length"], seed=seed)
    return result.graph, result.to_dict()


SCHEMES: dict[str, tuple[Callable[..., Any], str]] = {
    "spctr-ad": (_spectrum("spctr-ad"), "spectrum-preserving add/delete, Ying–Wu (--fraction; "
                 "optional --tolerance)"),
    "spctr-sw": (_spectrum("spctr-sw"), "spectrum-preserving switch, Ying–Wu (--fraction; "
                 "optional --tolerance)"),
    "randwalk": (_random_walk, "random-walk perturbation, Mittal et al. (--walk-length t)"),
}  # fmt: skip


def refuse_foreign(scheme: str, opts: dict[str, Any]) -> None:
    """Before the graph is read: ConfigError if an option of these schemes is given to a
    scheme that ignores it.  (A missing required option is the runner's to report, as for
    every scheme.)"""
    for key, (flag, takers) in OPTIONS.items():
        if opts.get(key) is not None and scheme not in takers:
            raise ConfigError(
                f"{flag} goes with --scheme {' or '.join(sorted(takers))}, not {scheme}; drop it"
            )
