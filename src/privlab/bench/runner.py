"""Run a benchmark spec: the grid experiment × scheme × value × seed, journalled, resumable.

Each cell is computed independently from a seed derived from (spec seed, cell key) — the
results do not depend on the order of the cells or on what ran before — and appended, as
one JSON line, to ``DIR/cells.jsonl`` (flushed and fsynced).  A run that is interrupted
(Ctrl-C, a crash, a killed job) keeps every finished cell; ``resume=True`` skips them.  A
directory belongs to one spec: ``DIR/spec.json`` records the spec's hash and a different
spec is refused.

At the end (also after an interruption, and on resume) the tidy outputs are rebuilt
atomically from the journal:

* ``results.csv`` / ``results.parquet`` — experiment, scheme, parameter, value, metric,
  seed, result (one row per measurement);
* ``summary.csv`` — mean, standard deviation and count over seeds per
  (experiment, scheme, value, metric);
* ``curves.csv`` — experiment, scheme, value, seed, curve, x, y (e.g. ROC curves);
* ``manifest.json`` — spec name and title, creation time, machine, per-experiment titles
  and axis labels, and whether the grid is complete.

The library never prints: progress goes to the optional ``progress`` callback.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from privlab.bench import registry
from privlab.bench.spec import Experiment, Spec
from privlab.errors import ConfigError, InputError
from privlab.io import strict_json
from privlab.io.atomic import atomic_path, write_text_atomic
from privlab.io.outputs import Output, check_outputs
from privlab.io.results_folder import JOURNAL, MANIFEST, OUTPUT_FILES, SPEC_FILE

RESULT_COLUMNS = ("experiment", "scheme", "parameter", "value", "metric", "seed", "result")
CURVE_COLUMNS = ("experiment", "scheme", "value", "seed", "curve", "x", "y")


@dataclass(frozen=True)
class CellKey:
    """The coordinates of one cell of the grid."""

    experiment: str
    scheme: str
    value: float
    seed: int

    def as_list(self) -> list[Any]:
        return [self.experiment, self.scheme, float(self.value), int(self.seed)]

    def __str__(self) -> str:
        return f"{self.experiment} / {self.scheme} @ {self.value:g} / seed {self.seed}"


#: ``progress(done, total, current)``: called before each cell is computed (``current`` is
#: the cell) and once at the end (``current`` None).  ``done`` counts finished cells,
#: including those kept from an earlier run.  An exception raised here stops the run like
#: Ctrl-C: finished cells are kept.
ProgressFn = Callable[[int, int, CellKey | None], None]

#: ``cell_fn(data, **kwargs) -> CellResult``: what computes a cell (tests count calls).
CellFn = Callable[..., registry.CellResult]


@dataclass(frozen=True)
class RunSummary:
    """What a run did: cells computed now, kept from the journal, total; where it wrote."""

    out_dir: Path
    total: int
    computed: int
    resumed: int
    complete: bool
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "out_dir": str(self.out_dir),
            "total_cells": self.total,
            "computed": self.computed,
            "resumed": self.resumed,
            "complete": self.complete,
            "seconds": self.seconds,
            "files": [str(self.out_dir / f) for f in OUTPUT_FILES],
        }


def results_output(out_dir: Path, option: str = "output folder") -> Output:
    """The results folder as a guarded output: new, empty, or an earlier results folder
    (whether that one may be continued is :func:`_prepare`'s ``resume`` decision)."""
    return Output(Path(out_dir), option, folder=True, manifest=MANIFEST, replace=True)


def cell_seed(spec_seed: int, key: CellKey) -> int:
    """A 63-bit seed from (spec seed, cell key): deterministic, order-independent."""
    text = json.dumps([int(spec_seed), *key.as_list()])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def cells(spec: Spec) -> Iterator[tuple[Experiment, CellKey]]:
    """Every cell of the grid in spec order: experiment, scheme, value, seed."""
    for e in spec.experiments:
        for s in e.schemes:
            for v in e.values[s]:
                for seed in e.seeds:
                    yield e, CellKey(e.name, s, float(v), int(seed))


def check_data(spec: Spec) -> None:
    """InputError naming the first data set of ``spec`` that cannot be loaded here."""
    for e in spec.experiments:
        reason = registry.dataset_available(e.data)
        if reason:
            raise InputError(f"{spec.source}: experiment {e.name!r}: {reason}")


def machine() -> str:
    """``Linux x86_64, nproc 2, Python 3.11.7`` — recorded in the manifest."""
    return (
        f"{platform.system()} {platform.machine()}, nproc {os.cpu_count()}, "
        f"Python {platform.python_version()}"
    )


# ============================================================================ journal


def read_journal(out_dir: Path) -> dict[tuple, dict[str, Any]]:
    """The finished cells recorded in ``out_dir/cells.jsonl`` by key tuple.

    A truncated last line (a crash while writing) is ignored; it is removed from the file
    when the run resumes.
    """
    path = Path(out_dir) / JOURNAL
    out: dict[tuple, dict[str, Any]] = {}
    if not path.is_file():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        out[tuple(rec["key"])] = rec
    return out


def _clean_journal(path: Path, records: dict[tuple, dict[str, Any]]) -> None:
    """Rewrite the journal without broken lines, if it has any."""
    if not path.is_file():
        return
    text = path.read_text(encoding="utf-8")
    if text and text.endswith("\n") and len(text.splitlines()) == len(records):
        return
    write_text_atomic(path, "".join(json.dumps(r) + "\n" for r in records.values()))


def _prepare(spec: Spec, out_dir: Path, resume: bool) -> dict[tuple, dict[str, Any]]:
    # a non-empty folder that is not a results folder is never written into
    check_outputs([results_output(out_dir)], [])
    spec_path = out_dir / SPEC_FILE
    digest = spec.hash()
    if spec_path.is_file() or (out_dir / JOURNAL).is_file():
        if not resume:
            raise ConfigError(
                f"{out_dir}: already holds benchmark results; pass --resume to continue that "
                "run, or choose another output directory"
            )
        try:
            old = json.loads(spec_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            old = {}
        if old.get("hash") != digest:
            raise ConfigError(
                f"{out_dir}: holds results of a different spec ({old.get('name', '?')!r}, "
                f"{'reduced' if old.get('reduced') else 'full'} size, hash "
                f"{str(old.get('hash'))[:12]}) than {spec.name!r} "
                f"({'reduced' if spec.is_reduced else 'full'}, hash {digest[:12]}); "
                "use a new output directory"
            )
    out_dir.mkdir(parents=True, exist_ok=True)
    if not spec_path.is_file():
        payload = {"name": spec.name, "hash": digest, "reduced": spec.is_reduced,
                   "spec": spec.to_dict()}  # fmt: skip
        write_text_atomic(spec_path, strict_json.dumps(payload) + "\n")
    done = read_journal(out_dir)
    _clean_journal(out_dir / JOURNAL, done)
    return done


# ============================================================================ run


def run_spec(
    spec: Spec,
    out_dir: str | os.PathLike[str],
    *,
    resume: bool = False,
    progress: ProgressFn | None = None,
    cell_fn: CellFn | None = None,
) -> RunSummary:
    """Run every cell of ``spec`` not yet in ``out_dir``'s journal; rebuild the outputs.

    ``resume``: continue a run in ``out_dir`` (same spec only).  Without it an existing
    run in ``out_dir`` is a ConfigError.  Data sets are checked first (InputError, nothing
    written).  On KeyboardInterrupt — or any exception, e.g. from ``progress`` — the
    finished cells are kept, the outputs are rebuilt from them, and the exception is
    re-raised.  ``cell_fn`` replaces :func:`privlab.bench.registry.run_cell` (tests).
    Cost: the sum of the cells' costs; each data set is loaded once per run.
    """
    out = Path(out_dir)
    check_data(spec)
    done = _prepare(spec, out, resume)
    fn = cell_fn or registry.run_cell
    grid = list(cells(spec))
    keys = {tuple(k.as_list()) for _, k in grid}
    resumed = sum(1 for k in done if k in keys)
    total = len(grid)
    n_done, computed = resumed, 0
    t0 = time.perf_counter()
    cache: dict[str, Any] = {}
    try:
        with open(out / JOURNAL, "a", encoding="utf-8") as journal:
            for e, key in grid:
                if tuple(key.as_list()) in done:
                    continue
                if progress is not None:
                    progress(n_done, total, key)
                ck = json.dumps([e.data, e.data_options], sort_keys=True)
                if ck not in cache:
                    cache[ck] = registry.load_dataset(e.data, e.data_options)
                t = time.perf_counter()
                res = fn(
                    cache[ck], scheme=key.scheme, value=key.value, parameter=e.parameter,
                    seed=cell_seed(spec.seed, key), metrics=e.metrics, attacks=e.attacks,
                    options=e.options,
                )  # fmt: skip
                rec = {
                    "key": key.as_list(),
                    "metrics": res.metrics,
                    "curves": {c: [list(x), list(y)] for c, (x, y) in res.curves.items()},
                    "seconds": round(time.perf_counter() - t, 6),
                }
                journal.write(json.dumps(rec) + "\n")
                journal.flush()
                os.fsync(journal.fileno())
                done[tuple(key.as_list())] = rec
                n_done += 1
                computed += 1
        if progress is not None:
            progress(n_done, total, None)
    finally:
        build_outputs(spec, out, done, seconds=time.perf_counter() - t0)
    return RunSummary(out, total, computed, resumed, n_done == total, time.perf_counter() - t0)


# ============================================================================ outputs


def build_outputs(
    spec: Spec, out_dir: Path, done: dict[tuple, dict[str, Any]], *, seconds: float = 0.0
) -> None:
    """Write results.csv/.parquet, summary.csv, curves.csv and manifest.json atomically.

    Rows follow the spec's order (experiment, scheme, value, seed, metric), so two runs of
    the same spec write identical files (the manifest's time and machine aside).
    """
    rows: dict[str, list] = {c: [] for c in RESULT_COLUMNS}
    crows: dict[str, list] = {c: [] for c in CURVE_COLUMNS}
    n_cells = 0
    for e, key in cells(spec):
        rec = done.get(tuple(key.as_list()))
        if rec is None:
            continue
        n_cells += 1
        for m in e.outputs:
            if m not in rec["metrics"]:
                continue
            row = (e.name, key.scheme, e.parameter, key.value, m, key.seed, rec["metrics"][m])
            for c, v in zip(RESULT_COLUMNS, row, strict=True):
                rows[c].append(v)
        for curve, (xs, ys) in sorted(rec.get("curves", {}).items()):
            for x, y in zip(xs, ys, strict=True):
                point = (e.name, key.scheme, key.value, key.seed, curve, x, y)
                for c, v in zip(CURVE_COLUMNS, point, strict=True):
                    crows[c].append(v)
    schema = {"experiment": pl.String, "scheme": pl.String, "parameter": pl.String,
              "value": pl.Float64, "metric": pl.String, "seed": pl.Int64,
              "result": pl.Float64}  # fmt: skip
    results = pl.DataFrame(rows, schema=schema)
    cschema = {"experiment": pl.String, "scheme": pl.String, "value": pl.Float64,
               "seed": pl.Int64, "curve": pl.String, "x": pl.Float64, "y": pl.Float64}  # fmt: skip
    curves = pl.DataFrame(crows, schema=cschema)
    summary = (
        results.group_by(["experiment", "scheme", "parameter", "value", "metric"],
                         maintain_order=True)
        .agg(pl.col("result").mean().alias("mean"), pl.col("result").std().alias("std"),
             pl.len().alias("n"))
    )  # fmt: skip
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, frame in (("results.csv", results), ("summary.csv", summary),
                        ("curves.csv", curves)):  # fmt: skip
        with atomic_path(out_dir / name) as tmp:
            frame.write_csv(tmp)
    with atomic_path(out_dir / "results.parquet") as tmp:
        results.write_parquet(tmp)
    manifest = {
        "spec": spec.name,
        "title": spec.title,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "reduced": spec.is_reduced,
        "spec_hash": spec.hash(),
        "cells": n_cells,
        "total_cells": spec.n_cells,
        "complete": n_cells == spec.n_cells,
        "seconds": round(seconds, 3),
        "experiments": {
            e.name: {
                "title": e.title,
                "x_label": e.x_label,
                "y_label": dict(e.y_labels),
                "log_x": e.log_x,
                "log_y": e.log_y,
                "parameter": e.parameter,
                "data": e.data,
                "schemes": list(e.schemes),
                "seeds": len(e.seeds),
            }
            for e in spec.experiments
        },
    }
    write_text_atomic(out_dir / "manifest.json", strict_json.dumps(manifest) + "\n")


__all__ = [
    "CURVE_COLUMNS",
    "OUTPUT_FILES",
    "RESULT_COLUMNS",
    "CellKey",
    "ProgressFn",
    "RunSummary",
    "build_outputs",
    "cell_seed",
    "cells",
    "check_data",
    "read_journal",
    "run_spec",
]
