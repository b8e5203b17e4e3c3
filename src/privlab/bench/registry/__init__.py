"""Adapters between benchmark specs and the library: data sets, schemes, metrics, attacks.

Every name a spec may use is a key of :data:`DATASETS`, :data:`SCHEMES`, :data:`METRICS` or
:data:`ATTACKS`.  Each adapter is a thin call into the library (``privlab.graph``,
``privlab.table``, ``privlab.dp``); the benchmark adds no algorithm of its own.

A cell (one scheme at one parameter value and one seed) is computed by :func:`run_cell`:
the scheme is applied to the loaded data set (graph and table kinds), every requested metric
is measured on (original, release), and every requested attack is run; the result is a
:class:`CellResult` — ``{metric: value}`` plus optional curves (e.g. the ROC curve of the
learned attack).

Data kinds: ``graph`` (SNAP ``facebook``, ``ca-grqc``; ``synthetic:powerlaw``,
``synthetic:gnm``), ``table`` (``adult``) and ``none`` (analytic experiments such as Li et
al.'s δ, which need no data).

Modules, each importing only those above it:

* :mod:`.datasets` — :data:`DATASETS`, :func:`data_root`, :func:`load_dataset`;
* :mod:`.cells` — :class:`Cell`, :class:`Release`, :class:`CellResult`;
* :mod:`.schemes` — :data:`SCHEMES`, :func:`parse_scheme`;
* :mod:`.metrics` — :data:`METRICS`;
* :mod:`.attacks` — :data:`ATTACKS`;
* :mod:`.labels` — :func:`output_labels`;
* :mod:`.run` — :func:`run_cell`.
"""

from privlab.bench.registry.attacks import ATTACKS, HOMOGENEITY_OUTPUTS, LEARNED_FP, Attack
from privlab.bench.registry.cells import Cell, CellResult, Release
from privlab.bench.registry.datasets import (
    CAPITAL_LOSS,
    DATASETS,
    Dataset,
    data_root,
    dataset_available,
    load_dataset,
)
from privlab.bench.registry.labels import output_labels
from privlab.bench.registry.metrics import METRICS, Metric
from privlab.bench.registry.run import run_cell
from privlab.bench.registry.schemes import SCHEMES, Scheme, parse_scheme

__all__ = [
    "ATTACKS",
    "CAPITAL_LOSS",
    "DATASETS",
    "HOMOGENEITY_OUTPUTS",
    "LEARNED_FP",
    "METRICS",
    "SCHEMES",
    "Attack",
    "Cell",
    "CellResult",
    "Dataset",
    "Metric",
    "Release",
    "Scheme",
    "data_root",
    "dataset_available",
    "load_dataset",
    "output_labels",
    "parse_scheme",
    "run_cell",
]
