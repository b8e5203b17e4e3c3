"""A synthetic census-style sample with hierarchies, generated on the fly (no files, no network).

Used by ``privlab demo``, the docs and tests that need a realistic table without the
``../shared/data`` files.  Columns:

* ``id`` — an identifying record number (must be removed before release);
* ``zip`` (5 digits, clustered in a few regions), ``age`` (17–90), ``sex``, ``education``,
  ``marital-status`` — quasi-identifiers, with hierarchies (masking, intervals, flat,
  grouping, grouping);
* ``disease`` — the sensitive attribute, its rate depending on age and sex.

The joint distribution is invented (loosely shaped like census data), not estimated from
any real population.  Generation is O(n) with numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError
from privlab.table.data import MicroTable
from privlab.table.hierarchy import Hierarchy
from privlab.table.hierarchy_builders import interval_hierarchy, masking_hierarchy

_EDUCATION = {
    "Primary": "Compulsory",
    "Lower secondary": "Compulsory",
    "Upper secondary": "Secondary",
    "Vocational": "Secondary",
    "Bachelor": "Higher",
    "Master": "Higher",
    "Doctorate": "Higher",
}
_EDUCATION_P = [0.06, 0.12, 0.30, 0.17, 0.21, 0.11, 0.03]
_MARITAL = {
    "Never-married": "Single",
    "Divorced": "Single",
    "Widowed": "Single",
    "Married": "In partnership",
    "Civil-partnership": "In partnership",
}
_DISEASES = ["None", "Flu", "Asthma", "Diabetes", "Heart disease", "Cancer"]
_REGIONS = ["130", "148", "209", "816", "947"]


@dataclass
class Sample:
    """A generated table, its column roles and hierarchies."""

    frame: pl.DataFrame
    quasi_identifiers: list[str]
    sensitive: str
    identifying: str
    hierarchies: dict[str, Hierarchy]

    def micro_table(self, frame: Any = None) -> MicroTable:
        """The sample (or ``frame``, e.g. its pandas copy) encoded with its roles and
        hierarchies."""
        return MicroTable.from_data(
            self.frame if frame is None else frame,
            quasi_identifiers=self.quasi_identifiers,
            hierarchies=self.hierarchies,
            sensitive=[self.sensitive],
            identifying=[self.identifying],
        )


def _two_level(mapping: dict[str, str]) -> Hierarchy:
    return Hierarchy.from_rows(([leaf, group, "*"] for leaf, group in mapping.items()))


#: The public domain of the generated columns: every value :func:`census_sample` can draw.
AGE_RANGE = (17, 90)
ZIP_SUFFIXES = 60  # a ZIP code is a region's 3 digits and a suffix 00..59


def domain_hierarchies() -> dict[str, Hierarchy]:
    """Hierarchies of the sample's quasi-identifiers built from their public domain (every
    value the generator can draw), not from a sample: they fit every sample, and a
    differentially private release may use them.  Same shapes as :func:`census_sample`'s."""
    ages = [str(a) for a in range(AGE_RANGE[0], AGE_RANGE[1] + 1)]
    zips = [f"{r}{i:02d}" for r in _REGIONS for i in range(ZIP_SUFFIXES)]
    return {
        "zip": masking_hierarchy(zips, column="zip"),
        "age": interval_hierarchy(ages, width=5, fanout=2, column="age"),
        "sex": Hierarchy.flat(["Female", "Male"]),
        "education": _two_level(_EDUCATION),
        "marital-status": _two_level(_MARITAL),
    }


def census_sample(n: int = 5000, seed: int = 7) -> Sample:
    """Generate ``n`` synthetic census records with hierarchies for every quasi-identifier."""
    if not isinstance(n, int) or isinstance(n, bool) or n < 10:
        raise ConfigError(f"n: the sample needs at least 10 rows, got {n!r}")
    rng = np.random.default_rng(seed)
    region = rng.choice(len(_REGIONS), size=n, p=[0.35, 0.25, 0.2, 0.12, 0.08])
    zips = np.char.add(
        np.asarray(_REGIONS)[region],
        np.char.zfill(rng.integers(0, ZIP_SUFFIXES, n).astype(str), 2),
    )
    age = np.clip(np.round(rng.gamma(6.0, 7.0, n) + 17), *AGE_RANGE).astype(np.int64)
    sex = np.where(rng.random(n) < 0.51, "Female", "Male")
    education = rng.choice(list(_EDUCATION), size=n, p=_EDUCATION_P)
    married = rng.random(n) < np.clip((age - 18) / 40, 0.05, 0.65)
    marital = np.where(
        married,
        rng.choice(["Married", "Civil-partnership"], size=n, p=[0.9, 0.1]),
        np.where(age > 70, "Widowed", rng.choice(["Never-married", "Divorced"], size=n)),
    )
    # disease risk grows with age; heart disease is likelier for men
    old = (age - 17) / 73
    weights = np.stack(
        [
            np.full(n, 3.0),
            np.full(n, 0.8),
            np.full(n, 0.4),
            0.2 + 1.2 * old,
            0.1 + 1.0 * old * np.where(sex == "Male", 1.5, 1.0),
            0.05 + 0.8 * old,
        ],
        axis=1,
    )
    cum = np.cumsum(weights / weights.sum(axis=1, keepdims=True), axis=1)
    disease = np.asarray(_DISEASES)[(rng.random(n)[:, None] > cum).sum(axis=1)]
    frame = pl.DataFrame(
        {
            "id": [f"P{i:06d}" for i in range(1, n + 1)],
            "zip": zips,
            "age": age.astype(str),
            "sex": sex,
            "education": education,
            "marital-status": marital,
            "disease": disease,
        }
    )
    hierarchies = {
        "zip": masking_hierarchy(frame["zip"].to_list(), column="zip"),
        "age": interval_hierarchy(frame["age"].to_list(), width=5, fanout=2, column="age"),
        "sex": Hierarchy.flat(["Female", "Male"]),
        "education": _two_level(_EDUCATION),
        "marital-status": _two_level(_MARITAL),
    }
    return Sample(
        frame=frame,
        quasi_identifiers=["zip", "age", "sex", "education", "marital-status"],
        sensitive="disease",
        identifying="id",
        hierarchies=hierarchies,
    )
