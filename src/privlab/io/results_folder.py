"""The file names of a benchmark results folder, shared by its writer and its readers.

``privlab bench`` writes the folder (:mod:`privlab.bench.runner`); ``privlab report`` and
the output guard read it.  Keeping the names here lets the readers know the folder without
importing the benchmark machinery.
"""

from __future__ import annotations

from privlab.io.outputs import Manifest

JOURNAL = "cells.jsonl"
SPEC_FILE = "spec.json"
OUTPUT_FILES = ("results.csv", "results.parquet", "summary.csv", "curves.csv", "manifest.json")
#: Every file the folder may hold; a report may sit beside them but never replace one.
FOLDER_FILES = (*OUTPUT_FILES, JOURNAL, SPEC_FILE)
#: A results folder is recognised by its spec.json (``--resume`` continues it).
MANIFEST = Manifest("benchmark results folder", SPEC_FILE)
