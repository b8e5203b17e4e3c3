"""Equivalence classes of a release: their sizes, and the checks of the risk arguments.

A class is the group of released records that share one combination of quasi-identifier
values (seed 000 §2.3, Def 3.2); every figure of :mod:`privlab.table.risk` is a function of
the class sizes ``f_j`` (and, where known, their population sizes ``F_j ≥ f_j``).
Suppressed records (all quasi-identifiers ``*``, :mod:`privlab.table.suppression`) belong to
no class and are counted apart, as ARX skips outliers.  A sampling fraction ``π`` defines the
population size ``N = round(rows / π)`` (Java's half-up rounding, as ARX's
``ARXPopulationModel.create(sampleSize, π)``); the histogram is ARX's ``RiskModelHistogram``.

Complexity: O(m) checks for m classes, O(m log m) for the histogram, O(n) to group a frame
(polars group-by) and O(n log n) to group an (n × d) code matrix.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.table.data import to_polars
from privlab.table.suppression import SUPPRESSED_VALUE, suppressed_records

_NULL = "\x00<null>"  # stands for a missing cell when grouping, so nulls form a class


def _sizes(sizes: Any) -> np.ndarray:
    arr = np.asarray(sizes)
    if arr.ndim != 1:
        raise InputError(f"class sizes must be a one-dimensional array, got shape {arr.shape}")
    if (
        arr.size
        and not np.issubdtype(arr.dtype, np.integer)
        and (not np.issubdtype(arr.dtype, np.floating) or not np.all(arr == np.round(arr)))
    ):
        raise InputError("class sizes must be whole numbers of records")
    arr = arr.astype(np.int64)
    if arr.size and arr.min() < 1:
        raise InputError(
            f"class sizes must be at least 1; got {int(arr.min())} "
            "(drop empty classes before the risk analysis)"
        )
    return arr


def _check_threshold(threshold: float) -> float:
    t = float(threshold)
    if not (0.0 < t <= 1.0):
        raise ConfigError(f"--threshold {threshold!r}: the risk threshold must be in (0, 1]")
    return t


def _check_fraction(sampling_fraction: float) -> float:
    pi = float(sampling_fraction)
    if not (0.0 < pi <= 1.0):  # also rejects NaN
        raise ConfigError(
            f"--sampling-fraction {sampling_fraction!r}: the sampling fraction (sample size / "
            "population size) must be in (0, 1]"
        )
    return pi


def _population_size(
    rows: int, population_size: int | None, sampling_fraction: float | None
) -> int | None:
    """Population size N from ``--population`` or ``--sampling-fraction`` (``round(rows/π)``)."""
    if population_size is not None and sampling_fraction is not None:
        raise ConfigError(
            "give either --population or --sampling-fraction, not both "
            "(the sampling fraction is records / population size)"
        )
    if sampling_fraction is not None:
        # Java's Math.round (half up), as ARX's ARXPopulationModel
        return max(math.floor(rows / _check_fraction(sampling_fraction) + 0.5), rows)
    if population_size is None:
        return None
    if isinstance(population_size, float) and not population_size.is_integer():
        raise ConfigError(f"--population {population_size!r}: the population size is a count")
    n_pop = int(population_size)
    if n_pop < rows:
        raise ConfigError(
            f"--population {n_pop}: the population must be at least as large as the sample "
            f"({rows} rows)"
        )
    return n_pop


def _population_class_sizes(f: np.ndarray, population_sizes: Any) -> np.ndarray:
    big_f = np.asarray(population_sizes)
    if big_f.shape != f.shape:
        raise InputError(
            f"population class sizes: {big_f.size} values for {f.size} sample classes; "
            "give one population size per sample class, in the same order"
        )
    big_f = big_f.astype(np.float64)
    bad = ~(big_f >= f)  # also catches NaN
    if np.any(bad):
        j = int(np.argmax(bad))
        raise InputError(
            f"population class sizes: class {j} has {int(f[j])} records in the sample but "
            f"{big_f[j]:g} in the population; the population must contain the sample"
        )
    return big_f


def class_size_histogram(sizes: Any) -> tuple[np.ndarray, np.ndarray]:
    """Distinct class sizes (ascending) and how many classes have each size.

    ARX's ``RiskModelHistogram``.  Complexity: O(m log m) for m classes.
    """
    arr = _sizes(sizes)
    return np.unique(arr, return_counts=True)


def _suppressed_mask(suppressed: Any, n_rows: int) -> np.ndarray:
    arr = np.asarray(suppressed)
    if arr.dtype == bool:
        if arr.shape != (n_rows,):
            raise InputError(
                f"suppressed-row mask: {arr.size} values for {n_rows} rows; give one per row"
            )
        return arr
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise InputError("suppressed rows: give a boolean mask or integer row positions")
    idx = arr.astype(np.int64).ravel()
    if idx.size and (idx.min() < 0 or idx.max() >= n_rows):
        raise InputError(f"suppressed rows: positions must be in 0..{n_rows - 1}")
    mask = np.zeros(n_rows, dtype=bool)
    mask[idx] = True
    return mask


def class_sizes_of_frame(
    frame: Any,
    quasi_identifiers: Sequence[str],
    *,
    suppressed: Any | None = None,
    suppressed_value: str | None = SUPPRESSED_VALUE,
) -> tuple[pl.DataFrame, int]:
    """Equivalence classes of a (released) table: ``(classes, suppressed_count)``.

    ``classes`` is a polars frame with the quasi-identifier columns (as text; missing cells
    form a value of their own) and ``size``, one row per class.  Rows flagged by
    ``suppressed`` (boolean mask or row positions) — or, when it is ``None``, rows whose
    quasi-identifiers are all ``suppressed_value`` — are left out and counted.
    Complexity: O(n) hashing (polars group-by).
    """
    data, _ = to_polars(frame)
    qis = list(quasi_identifiers)
    if not qis:
        raise ConfigError("no quasi-identifiers given; name at least one with --qi COLUMN")
    missing = [c for c in qis if c not in data.columns]
    if missing:
        raise ConfigError(
            f"quasi-identifier columns {missing} not found; the columns are {data.columns}"
        )
    keys = data.select([pl.col(c).cast(pl.String).fill_null(_NULL) for c in qis])
    if suppressed is not None:
        mask = _suppressed_mask(suppressed, keys.height)
    else:
        mask = suppressed_records(data, qis, suppressed_value)
    n_suppressed = int(mask.sum())
    if n_suppressed:
        keys = keys.filter(pl.Series(~mask))
    classes = keys.group_by(qis, maintain_order=True).len(name="size")
    return classes, n_suppressed


def class_sizes_of_codes(codes: np.ndarray) -> np.ndarray:
    """Sizes of the classes of distinct rows of an (n × d) integer code matrix.

    Rows are packed into mixed-radix int64 keys when the code space fits (else grouped
    with ``np.unique(axis=0)``).  Complexity: O(n log n).
    """
    codes = np.asarray(codes, dtype=np.int64)
    if codes.ndim != 2:
        raise InputError(f"codes must be an (n × d) matrix, got shape {codes.shape}")
    if codes.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    radix = codes.max(axis=0) + 1
    if float(np.prod(radix.astype(np.float64))) < 2.0**62:
        weights = np.ones(codes.shape[1], dtype=np.int64)
        for j in range(codes.shape[1] - 2, -1, -1):
            weights[j] = weights[j + 1] * radix[j + 1]
        _, counts = np.unique(codes @ weights, return_counts=True)
    else:
        _, counts = np.unique(codes, axis=0, return_counts=True)
    return counts.astype(np.int64)
