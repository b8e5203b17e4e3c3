"""What the adapters pass around: a :class:`Cell`, its :class:`Release` and :class:`CellResult`.

A cell is one scheme at one parameter value and one seed; its seed (derived from the spec
seed and the cell key by :mod:`privlab.bench.runner`) feeds every random choice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Cell:
    """Everything an adapter may use: the scheme and its value, the cell's seed, options."""

    scheme: str
    scheme_params: dict[str, Any]
    parameter: str
    value: float
    seed: int  # derived from (spec seed, cell key): use it for every random choice
    options: dict[str, Any]

    @property
    def settings(self) -> dict[str, Any]:
        """The spec's ``options``, overridden by the scheme's own ``name:key=value`` ones."""
        return {**self.options, **self.scheme_params}

    def rng(self, stream: int) -> np.random.Generator:
        """An independent generator for sub-task ``stream`` of this cell."""
        return np.random.default_rng(np.random.SeedSequence([self.seed, stream]))

    def sub_seed(self, stream: int) -> int:
        """An independent integer seed for sub-task ``stream`` of this cell."""
        return int(np.random.SeedSequence([self.seed, stream]).generate_state(1, np.uint64)[0])


@dataclass
class CellResult:
    """``metrics`` = {metric: value}; ``curves`` = {curve: (x, y)}."""

    metrics: dict[str, float] = field(default_factory=dict)
    curves: dict[str, tuple[list[float], list[float]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Release:
    """A scheme's output: the released object and the public perturbation count (if any)."""

    data: Any
    m: int | None = None
