"""The symmetry schemes of ``privlab graph anonymize`` (k-symmetry, k-automorphism,
k-isomorphism).

All three add nodes to the release.  A runner returns the release with nodes 0..n−1 being the
input's nodes in reading order, then the added nodes, and puts two arrays in its summary
that ``anonymize`` takes out before printing it: ``_origin`` (per release node, the input
node it is, or −1 for an added node) and ``_copy_of`` (per release node, the input node it
duplicates, or −1 for a node that duplicates none).  The secret ``--mapping`` then has the
columns release_id, original (empty for an added node) and copy_of (the original node an
added node copies — k-symmetry's copies; empty for the noise nodes of k-automorphism and
k-isomorphism, which copy none).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.graph.core import Graph

#: Schemes whose release has more nodes than the input (graph pair cannot use them).
NODE_ADDING_SCHEMES = frozenset({"ksymmetry", "kautomorphism", "kisomorphism"})


def ksymmetry(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    """k-symmetry by orbit copying (:mod:`privlab.graph.anonymize.ksymmetry`); deterministic."""
    from privlab.cli.graph import _need
    from privlab.graph.anonymize.ksymmetry import ksymmetry_anonymize

    result = ksymmetry_anonymize(graph, _need(opts, "k", "ksymmetry"))
    n = graph.n_nodes
    origin = np.where(np.arange(result.graph.n_nodes) < n, result.copy_of, -1)
    copy_of = np.where(origin < 0, result.copy_of, -1)
    return result.graph, {**result.to_dict(), "_origin": origin, "_copy_of": copy_of}


def kautomorphism(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    """k-automorphism, the KM construction (:mod:`privlab.graph.anonymize.kautomorphism`);
    ``--method`` picks how the alignment table is filled (bfs, degree or random)."""
    from privlab.graph.anonymize.kautomorphism import kautomorphism_anonymize

    return _with_noise(graph, opts, seed, "kautomorphism", kautomorphism_anonymize)


def kisomorphism(graph: Graph, opts: dict[str, Any], seed: Any) -> tuple[Graph, dict[str, Any]]:
    """k-isomorphism (:mod:`privlab.graph.anonymize.kisomorphism`): k disjoint isomorphic
    subgraphs; ``--method`` as for kautomorphism."""
    from privlab.graph.anonymize.kisomorphism import kisomorphism_anonymize

    return _with_noise(graph, opts, seed, "kisomorphism", kisomorphism_anonymize)


def _with_noise(graph: Graph, opts: dict[str, Any], seed: Any, name: str, fn: Any) -> tuple:
    """Run a scheme whose release is the input's nodes, then noise nodes copying none."""
    from privlab.cli.graph import _need
    from privlab.graph.anonymize.kautomorphism import TABLES
    from privlab.validate import check_choice

    table = check_choice(opts.get("method") or "bfs", f"--method ({name})", TABLES)
    result = fn(graph, _need(opts, "k", name), table=table, seed=seed)
    n, total = graph.n_nodes, result.graph.n_nodes
    origin = np.where(np.arange(total) < n, np.arange(total), -1)
    return result.graph, {**result.to_dict(), "_origin": origin, "_copy_of": np.full(total, -1)}


def mapping_columns(
    secret: np.ndarray, labels: np.ndarray | None, summary: dict[str, Any]
) -> dict[str, Any]:
    """The --mapping table's columns for a release whose scheme may have added nodes;
    ``secret[r]`` is release node r's id before the random relabelling.  Pops the private
    arrays out of ``summary``."""
    origin = summary.pop("_origin", None)
    copy_of = summary.pop("_copy_of", None)
    name = (lambda v: v) if labels is None else (lambda v: labels[v])
    if origin is None:
        return {"release_id": np.arange(secret.size), "original": name(secret)}

    def column(ids: np.ndarray) -> list[Any]:
        return [None if v < 0 else _plain(name(v)) for v in ids.tolist()]

    return {
        "release_id": np.arange(secret.size),
        "original": column(origin[secret]),
        "copy_of": column(copy_of[secret]),
    }


def _plain(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x
