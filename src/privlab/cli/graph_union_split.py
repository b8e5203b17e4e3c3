"""``privlab graph anonymize --scheme union-split`` (and ``graph pair --scheme union-split``):
Thompson & Yao's union-split clustering and cluster-degree anonymization
(:mod:`privlab.graph.anonymize.unionsplit`).  Registered in :data:`privlab.cli.graph.SCHEMES`
with the runner signature ``(graph, opts, seed) -> (release, summary)`` of the others there.
"""

from __future__ import annotations

from typing import Any

from privlab.graph.core import Graph

#: --method value → the i of the i-hop degree the clustering compares
DISTANCES = {"one-hop": 1, "zero-hop": 0}


def union_split(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    """Clusters of ≥ k nodes by union-split; every cluster's members get one degree.  The
    summary leaves out which cluster each node is in (that would undo the relabelling)."""
    from privlab.cli.graph import _need
    from privlab.graph.anonymize.unionsplit import union_split_anonymize
    from privlab.validate import check_choice

    method = check_choice(opts.get("method") or "one-hop", "--method (union-split)", DISTANCES)
    result = union_split_anonymize(graph, _need(opts, "k", "union-split"),
                                   hops=DISTANCES[method], seed=seed)  # fmt: skip
    return result.graph, result.to_dict()


HELP = ("union-split clustering, Thompson–Yao: clusters of ≥ k nodes with similar i-hop "
        "degrees, each cluster's members edited to one degree (--k; --method one-hop or "
        "zero-hop distance, default one-hop)")  # fmt: skip
