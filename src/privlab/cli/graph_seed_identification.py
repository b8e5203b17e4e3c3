"""``--discover-clique K`` of ``privlab graph attack propagate``: NS09's seed identification.

The attacker's individual knowledge (seed 000 §10.3.1) is simulated from the pair folder:
the known clique is :func:`~privlab.graph.attacks.seed_identification.pick_clique` on the
aux graph among people present in both graphs whose clique edges survive in both (truth.csv
is used only to choose *whom* the attacker knows, never to match them).  The match itself
uses only the aux degrees and common-neighbour counts and the sanitized graph.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from privlab.cli.common import spinner
from privlab.errors import InputError

if TYPE_CHECKING:
    from privlab.cli.graph_attack import PairFolder


def clique_seed_pairs(
    pair: PairFolder, k: int, tolerance: float
) -> tuple[np.ndarray, dict[str, Any]]:
    """(k × 2) seed pairs and the ``seeding`` summary; InputError unless the match is unique."""
    from privlab.graph.attacks.seed_identification import clique_seeds

    with spinner(f"matching a {k}-clique …"):
        found = clique_seeds(pair.aux, pair.san, k, tolerance, truth=pair.truth_array())
    if found.status != "unique":
        why = {
            "none": "no sanitized clique matches; raise --clique-tolerance",
            "ambiguous": "two or more sanitized cliques match; lower --clique-tolerance or "
            "raise --discover-clique",
            "budget": "the search ran out of steps; lower --clique-tolerance",
        }[found.status]
        raise InputError(
            f"--discover-clique {k} --clique-tolerance {tolerance:g}: {why} "
            f"(aux clique {found.targets.tolist()}, {found.steps} candidates tested)"
        )
    return found.pairs, {"kind": "clique", **found.to_dict(),
                         "targets": found.targets.tolist()}  # fmt: skip
