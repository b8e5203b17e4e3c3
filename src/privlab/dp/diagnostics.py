"""Exact figures of the private input, kept apart from differentially private outputs.

A DP release states only what the guarantee covers: the noisy answers, their (ε, δ), the
public parameters, and figures computed from the published release itself (post-processing
is free).  Exact statistics of the input — its number of rows, how many rows a sample kept or
suppressed, how many edges a graph had — are *not* covered: printed next to the noisy
answers they would undo the noise (an exact row count next to a noisy count is the count).

Some of them are useful to the data owner for checking a run.  They are given only on
request, in one place, under a key and a heading that say they are not private
(:data:`KEY`, :data:`WARNING`); see docs/dp/side-channels.md for what is and is not public
after each kind of release.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The key (JSON) under which exact figures of the private input are given, on request only.
KEY = "non_private_diagnostics"

#: What every such section says first.
WARNING = (
    "NOT differentially private: exact figures of the private input, for the data owner's "
    "checks only; do not publish or log them"
)


def non_private(figures: Mapping[str, Any]) -> dict[str, Any]:
    """``figures`` under the :data:`WARNING`, ready to be stored at :data:`KEY`."""
    return {"warning": WARNING, **figures}


__all__ = ["KEY", "WARNING", "non_private"]
