"""The k-neighbourhood scheme of ``privlab graph anonymize`` / ``graph pair --scheme``:
Zhou & Pei's 1-neighbourhood anonymity (:mod:`privlab.graph.anonymize.neighbourhood`).
Registered in :data:`privlab.cli.graph.SCHEMES`; the runner has the signature
``(graph, opts, seed) -> (release, summary)`` of the others there.  The scheme is
deterministic (ties by node id), so the seed only drives the relabelling that follows."""

from __future__ import annotations

from typing import Any

from privlab.errors import ConfigError
from privlab.graph.core import Graph

NAME = "k-neighbourhood"
HELP = (
    "1-neighbourhood anonymity, Zhou & Pei: every node's neighbourhood (its neighbours "
    "and the ties among them) isomorphic to ≥ k−1 others', by greedy edge additions (--k; "
    "optional --fraction: the most edges it may add, as a fraction of |E|, default 1)"
)


def k_neighbourhood(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    """Run :func:`~privlab.graph.anonymize.neighbourhood.neighbourhood_anonymize`; the
    release is verified against the definition before it is returned."""
    from privlab.graph.anonymize.neighbourhood import neighbourhood_anonymize

    if opts.get("k") is None:
        raise ConfigError(f"--scheme {NAME} needs --k (every neighbourhood shared by ≥ k nodes)")
    budget = 1.0 if opts.get("fraction") is None else opts["fraction"]
    result = neighbourhood_anonymize(
        graph, opts["k"], max_added=budget, progress=opts.get("progress")
    )
    return result.graph, result.to_dict()
