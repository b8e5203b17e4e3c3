"""One cell: apply a scheme, measure the metrics, run the attacks (:func:`run_cell`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from privlab.bench.registry.attacks import ATTACKS
from privlab.bench.registry.cells import Cell, CellResult
from privlab.bench.registry.metrics import METRICS
from privlab.bench.registry.schemes import SCHEMES, parse_scheme


def run_cell(
    data: Any,
    *,
    scheme: str,
    value: float,
    parameter: str,
    seed: int,
    metrics: tuple[str, ...],
    attacks: tuple[str, ...],
    options: Mapping[str, Any],
) -> CellResult:
    """Apply ``scheme`` at ``value`` to ``data`` and measure ``metrics`` and ``attacks``.

    ``scheme`` is the spec's scheme text (``name`` or ``name:key=value``); ``seed`` the
    cell's derived seed.  The scheme runs once if any metric or attack needs its release.
    """
    name, params = parse_scheme(scheme)
    v = int(value) if SCHEMES[name].integer else float(value)
    cell = Cell(name, params, parameter, v, int(seed), dict(options))
    out = CellResult()
    need = bool(metrics) or any(ATTACKS[a].needs_release for a in attacks)
    release = SCHEMES[name].apply(data, v, cell) if need else None
    for m in metrics:
        x = METRICS[m].measure(data, release, cell)  # type: ignore[arg-type]
        out.metrics[m] = float(x) if x is not None and math.isfinite(x) else float("nan")
    for a in attacks:
        r = ATTACKS[a].run(data, release, cell)
        out.metrics.update({k: float(x) for k, x in r.metrics.items()})
        out.curves.update(r.curves)
    return out
