"""Bench adapters for seed 000's naive defences failing (spec ``naive-defences``).

Data kind ``none``: each cell generates its own data from the cell seed.  The scheme
``naive-curator`` releases nothing (the curator answers queries); the attacks are

* ``differencing`` — parameter ``min_size`` m: a curator that answers exact sums only for
  m ≤ |Q| ≤ n − m (:class:`privlab.table.attacks.differencing.SizeRestrictedCurator`) over a
  0/1 column (options ``n``, ``prevalence``); the attack recovers ``targets`` people's values;
* ``audited-differencing`` — parameter ``n``: the same attack against the simulatable SUM
  auditor (:class:`privlab.table.auditing.SumAuditor`), one session per target;
* ``averaging`` — parameter ``repeats`` k: a curator adding fresh ε-DP noise to each answer
  (:mod:`privlab.dp.naive`, option ``epsilon``); share of ``targets`` counts recovered exactly;
* ``sample-linkage`` — parameter ``beta``: a plain β-sample of a synthetic census
  (:func:`privlab.table.sample.census_sample`, option ``n``) linked back on its QIs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from privlab.bench.registry.cells import Cell, CellResult, Release


def no_release(_: Any, value: float, cell: Cell) -> Release:
    """The naive curators answer queries; there is no release to measure."""
    return Release(None)


def differencing(_: Any, r: Release | None, cell: Cell) -> CellResult:
    from privlab.table.attacks.differencing import SizeRestrictedCurator, differencing_attack

    s = cell.settings
    n, targets = int(s.get("n", 1000)), int(s.get("targets", 50))
    rng = cell.rng(0)
    values = (rng.random(n) < float(s.get("prevalence", 0.1))).astype(float)
    curator = SizeRestrictedCurator(values, int(cell.value))
    hits = queries = 0
    for who in rng.choice(n, size=targets, replace=False):
        res = differencing_attack(curator, np.arange(n) == who, seed=cell.sub_seed(int(who)))
        hits += res.value == values[who]
        queries += len(res.queries)
    return CellResult({
        "differencing_recovered": hits / targets,
        "differencing_queries": queries / targets,
    })  # fmt: skip


def audited_differencing(_: Any, r: Release | None, cell: Cell) -> CellResult:
    from privlab.table.attacks.differencing import differencing_attack
    from privlab.table.auditing import SumAuditor

    s = cell.settings
    n, targets = int(cell.value), int(s.get("targets", 50))
    rng = cell.rng(0)
    values = (rng.random(n) < float(s.get("prevalence", 0.1))).astype(float)
    hits = denied = 0
    for who in rng.choice(n, size=min(targets, n), replace=False):
        auditor = SumAuditor(values)  # one attacker session per target
        res = differencing_attack(auditor, np.arange(n) == who, seed=cell.sub_seed(int(who)))
        hits += res.value is not None and res.value == values[who]
        denied += sum(a is None for _, a in auditor.transcript)
    k = min(targets, n)
    return CellResult({"audited_recovered": hits / k, "audited_denied": denied / k})


def averaging(_: Any, r: Release | None, cell: Cell) -> CellResult:
    from privlab.dp.naive import NaiveNoisyCurator, averaging_attack

    s = cell.settings
    eps, targets = float(s.get("epsilon", 0.5)), int(s.get("targets", 50))
    rng = cell.rng(0)
    truths = rng.integers(0, 1000, size=targets)
    exact = 0
    for i, t in enumerate(truths):
        curator = NaiveNoisyCurator(int(t), eps, seed=cell.rng(i + 1))
        exact += averaging_attack(curator, int(cell.value)).rounded == t
    return CellResult({
        "averaging_exact": exact / targets,
        "averaging_epsilon_spent": eps * int(cell.value),
    })  # fmt: skip


def sample_linkage(_: Any, r: Release | None, cell: Cell) -> CellResult:
    from privlab.table.attacks.sample_linkage import sample_linkage_attack
    from privlab.table.sample import census_sample

    pop = census_sample(int(cell.settings.get("n", 5000)), seed=cell.sub_seed(0))
    res = sample_linkage_attack(pop.frame, pop.quasi_identifiers, float(cell.value),
                                seed=cell.sub_seed(1))  # fmt: skip
    return CellResult({
        "sample_exposed_rate": res.exposed_rate,
        "sample_claim_precision": res.claim_precision,
    })  # fmt: skip


def _ldiv_sensitive(original: Any, name: str) -> str:
    from privlab.errors import ConfigError

    if not original.sensitive:
        raise ConfigError(f"attack {name!r} needs a sensitive column: set data_options "
                          "sensitive = [\"occupation\"] (for example)")  # fmt: skip
    return original.sensitive[0]


def skewness(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Li et al.'s skewness attack on the release: each record's own-value lift."""
    from privlab.table.attacks.ldiversity import skewness_attack

    assert r is not None
    sens = _ldiv_sensitive(original, "skewness")
    res = skewness_attack(r.data, original.qi, sens,
                          min_lift=float(cell.options.get("min_lift", 3.0)))  # fmt: skip
    d = res.to_dict()
    return CellResult({"skewed_rate": d["skewed_rate"], "skew_max_lift": d["max_lift"]})


def similarity(original: Any, r: Release | None, cell: Cell) -> CellResult:
    """Li et al.'s similarity attack: categories = level 1 of the sensitive attribute's ARX
    hierarchy (Adult's occupation: Technical / Nontechnical / Other)."""
    from privlab.bench.registry.datasets import data_root
    from privlab.table.attacks.ldiversity import similarity_attack
    from privlab.table.hierarchy import Hierarchy

    assert r is not None
    sens = _ldiv_sensitive(original, "similarity")
    h = Hierarchy.from_csv(data_root() / "adult" / f"adult_hierarchy_{sens}.csv")
    leaves = h.leaves
    groups = dict(zip(leaves, h.generalize(leaves, 1, column=sens).tolist(), strict=True))
    res = similarity_attack(r.data, original.qi, sens, categories=groups,
                            tau=float(cell.options.get("tau", 0.8)))  # fmt: skip
    d = res.to_dict()
    return CellResult({
        "similarity_disclosed": d["category_disclosed_rate"],
        "similarity_mean_posterior": d["mean_category_posterior"],
    })  # fmt: skip
