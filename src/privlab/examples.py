"""The README's example inputs: small, realistic, generated on the fly (no files, no network).

``privlab demo --write-examples DIR`` writes them, so that every example command of the
README runs as written from ``DIR``:

* ``census.csv`` — 2,000 synthetic census records (:func:`privlab.table.sample.census_sample`:
  id, zip, age, sex, education, marital-status, disease) and one ARX hierarchy file per
  quasi-identifier, ``census_hierarchy_<column>.csv``, built from the column's public domain
  (:func:`~privlab.table.sample.domain_hierarchies`), so that the differentially private
  examples may use them too;
* ``people.csv`` — age, sex and zip of 2,000 other people of the same population, for the
  differential-privacy examples;
* ``salaries.csv`` — age, zipcode, gender and a numeric salary of 1,000 employees, for
  publishing by permutation and bounded queries;
* ``social.txt`` — a synthetic social network of 1,000 people (Holme and Kim's growth model:
  heavy-tailed degrees and many triangles, as in real friendship graphs), a SNAP edge list;
* ``examples.json`` — what the folder holds (its manifest).

The data are invented; the same commands run on the real data sets the README names
(UCI Adult in ARX's form, SNAP ego-Facebook).  Generation is O(rows + edges).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from privlab.graph.core import Graph, write_graph

#: ``examples.json``'s ``format``, which marks a folder written by ``--write-examples``.
FORMAT = "privlab examples"
MANIFEST_FILE = "examples.json"

_ZIP_AREAS = ["021", "100", "303", "606", "941"]
_ZIP_AREA_P = [0.15, 0.3, 0.15, 0.25, 0.15]


@dataclass(frozen=True)
class ExampleFiles:
    """The generated inputs: tables (polars), hierarchies (by column) and the graph."""

    census: pl.DataFrame
    hierarchies: dict[str, Any]
    people: pl.DataFrame
    salaries: pl.DataFrame
    social: Graph

    def files(self) -> dict[str, str]:
        """Each file name with one line on what it is for."""
        out = {
            "census.csv": "synthetic census records: id (identifying), zip, age, sex, education, "
            "marital-status (quasi-identifiers), disease (sensitive)",
        }
        for col in self.hierarchies:
            out[f"census_hierarchy_{col}.csv"] = (
                f"ARX hierarchy of {col}, built from the column's public domain"
            )
        out["people.csv"] = "age, sex and zip of other people of the same population (DP)"
        out["salaries.csv"] = "age, zipcode, gender (quasi-identifiers) and salary (sensitive)"
        out["social.txt"] = (
            f"a synthetic social network, {self.social.n_nodes} people and "
            f"{self.social.n_edges} friendships (SNAP edge list)"
        )
        return out


def salaries(n: int = 1000, seed: int = 11) -> pl.DataFrame:
    """``n`` employees: age 20–65, a 5-digit zipcode in a few areas, gender F/M and a yearly
    salary (log-normal, rising with age, rounded to 100).  Invented, not estimated."""
    rng = np.random.default_rng(seed)
    age = rng.integers(20, 66, n)
    area = rng.choice(len(_ZIP_AREAS), size=n, p=_ZIP_AREA_P)
    zipcode = np.char.add(
        np.asarray(_ZIP_AREAS)[area], np.char.zfill(rng.integers(0, 100, n).astype(str), 2)
    )
    gender = np.where(rng.random(n) < 0.5, "F", "M")
    salary = np.exp(rng.normal(10.4 + 0.012 * (age - 20), 0.35, n))
    return pl.DataFrame(
        {
            "age": age,
            "zipcode": zipcode,
            "gender": gender,
            "salary": (np.round(salary / 100) * 100).astype(np.int64),
        }
    )


def social_network(n: int = 1000, seed: int = 5) -> Graph:
    """A Holme–Kim graph (each newcomer befriends 5 people by preferential attachment and
    closes a triangle after each with probability 0.5), on the nodes 0..n−1.  O(n)."""
    import networkx as nx

    return Graph.from_networkx(nx.powerlaw_cluster_graph(n, 5, 0.5, seed=seed))


def generate(seed: int = 7) -> ExampleFiles:
    """Every example input, deterministic for a ``seed``."""
    from privlab.table.sample import census_sample, domain_hierarchies

    census = census_sample(2000, seed).frame
    people = census_sample(2000, seed + 1).frame.select("age", "sex", "zip")
    return ExampleFiles(
        census=census,
        hierarchies=domain_hierarchies(),
        people=people,
        salaries=salaries(1000, seed + 4),
        social=social_network(1000, seed - 2),
    )


def write_examples(folder: str | os.PathLike[str], seed: int = 7) -> dict[str, Any]:
    """Write every example input into ``folder``, all at once (temporary folder, rename);
    return the manifest written as ``examples.json``.  Whether ``folder`` may be written is
    the caller's to check first (:func:`privlab.io.outputs.check_outputs`)."""
    from privlab.io import strict_json
    from privlab.io.atomic import atomic_folder, write_text_atomic
    from privlab.io.delimited import write_table

    ex = generate(seed)
    manifest = {"format": FORMAT, "seed": seed, "files": ex.files()}
    with atomic_folder(Path(folder)) as tmp:
        write_table(ex.census, tmp / "census.csv")
        for col, h in ex.hierarchies.items():
            h.to_csv(tmp / f"census_hierarchy_{col}.csv")
        write_table(ex.people, tmp / "people.csv")
        write_table(ex.salaries, tmp / "salaries.csv")
        header = "privlab example: a synthetic social network (Holme–Kim), undirected"
        write_graph(ex.social, tmp / "social.txt", header=header)
        write_text_atomic(tmp / MANIFEST_FILE, strict_json.dumps(manifest) + "\n")
    return manifest


__all__ = ["FORMAT", "MANIFEST_FILE", "ExampleFiles", "generate", "salaries", "social_network",
           "write_examples"]  # fmt: skip
