"""Benchmark runner: experiment specs over scheme × parameter × seed, tidy resumable results.

* :mod:`.spec` — the TOML spec format, validation (:func:`load_spec`, :func:`parse_text`);
* :mod:`.registry` — adapters from spec names to library calls (data sets, schemes,
  metrics, attacks);
* :mod:`.runner` — :func:`run_spec`: the journalled, resumable grid run and its outputs
  (results.csv/.parquet, summary.csv, curves.csv, manifest.json).

Built-in specs live in ``privlab/bench/specs/*.toml`` (:func:`builtin_specs`); see
docs/bench.md.
"""

from privlab.bench.runner import CellKey, RunSummary, build_outputs, cell_seed, run_spec
from privlab.bench.spec import Experiment, Spec, builtin_specs, load_spec, parse_spec, parse_text

__all__ = [
    "CellKey",
    "Experiment",
    "RunSummary",
    "Spec",
    "build_outputs",
    "builtin_specs",
    "cell_seed",
    "load_spec",
    "parse_spec",
    "parse_text",
    "run_spec",
]
