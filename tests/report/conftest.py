"""A small benchmark results folder in the bench runner's format (results, curves, manifest)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

SCHEMES = ("naive", "k-degree", "<b>rsp</b>")
VALUES = (2.0, 5.0, 10.0)
SEEDS = (0, 1, 2)


def write_results(folder: Path) -> Path:
    """Write results.csv, curves.csv and manifest.json for two experiments into ``folder``."""
    rng = np.random.default_rng(7)
    rows = []
    for s_i, scheme in enumerate(SCHEMES):
        for v in VALUES:
            for seed in SEEDS:
                base = 1.0 / (v + s_i)
                rows.append(
                    ("reid", scheme, "k", v, "reidentified", seed, base + rng.normal(0, 0.02))
                )
                rows.append(("reid", scheme, "k", v, "loss", seed, 1 - base + rng.normal(0, 0.02)))
                rows.append(
                    ("utility", scheme, "edges", v, "clustering", seed, 0.3 * s_i + v / 100)
                )
    pl.DataFrame(rows, schema=list(RESULT_COLUMNS), orient="row").write_csv(folder / "results.csv")

    crows = []
    for s_i, scheme in enumerate(SCHEMES):
        for v in VALUES[:2]:
            for seed in SEEDS[:2]:
                fpr = np.concatenate([[0.0], np.logspace(-3, 0, 20)])
                tpr = np.clip(fpr ** (0.2 + 0.2 * s_i), 0, 1)
                crows += [
                    ("reid", scheme, v, seed, "roc", x, y) for x, y in zip(fpr, tpr, strict=True)
                ]
                for size, count in ((1, 10 + s_i), (3, 5), (7, 4), (15, 2), (40, 1)):
                    crows.append(("reid", scheme, v, seed, "candidate_set_size", size, count))
                deg = np.arange(1, 30)
                crows += [
                    ("reid", scheme, v, seed, "degree_distribution", d, d ** -(1.6 + 0.2 * s_i))
                    for d in deg
                ]
    for v in VALUES[:2]:
        crows += [
            ("reid", "original", v, 0, "degree_distribution", d, d**-2.1) for d in range(1, 30)
        ]
    pl.DataFrame(crows, schema=list(CURVE_COLUMNS), orient="row").write_csv(folder / "curves.csv")
    manifest = {
        "spec": "demo-spec",
        "title": "Demo <results> & more",
        "created": "2024-01-01T00:00:00Z",
        "machine": "test",
        "experiments": {
            "reid": {
                "title": "Re-identification against k",
                "x_label": "k",
                "y_label": {"reidentified": "re-identified fraction", "loss": "information loss"},
                "frontier": {"risk": "reidentified", "loss": "loss"},
            },
        },
    }
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


RESULT_COLUMNS = ("experiment", "scheme", "parameter", "value", "metric", "seed", "result")
CURVE_COLUMNS = ("experiment", "scheme", "value", "seed", "curve", "x", "y")


@pytest.fixture
def results_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "results"
    folder.mkdir()
    return write_results(folder)


@pytest.fixture(scope="session")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of the sample results, written once per session."""
    from privlab.report import report_from_results

    folder = tmp_path_factory.mktemp("results")
    write_results(folder)
    return report_from_results(folder).write(folder / "report.html")
