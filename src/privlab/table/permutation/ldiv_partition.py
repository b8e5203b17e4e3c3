"""The ℓ-diversity partition: the baseline of seed 001's Ch. 2 experiments (§2.7, L1642–1760).

The seed compares its (k, e)-anonymous partitions with the partition a generalization
algorithm produces: full-domain generalization of the quasi-identifiers with the
hierarchies of Machanavajjhala et al. [3] (built on Incognito [6]), distinct ℓ-diversity
of the sensitive attribute read as categorical, no k, no suppression.  The equivalence
classes of the chosen node are the groups whose sensitive values a permutation release
permutes (4-diverse, 25 groups in the seed).  Among Incognito's output (the *minimal*
ℓ-diverse nodes) the seed took one that keeps age below ``*`` ("6-diverse partitions …
generalize … age to *", L1727–1729); which one is not said.

:func:`ldiversity_partition` finds every minimal distinct-ℓ-diverse node by a monotone sweep
of the lattice (distinct ℓ-diversity is monotone, also with suppression: splitting a class
never adds distinct values; a passing node marks its generalizations, a failing one its
specializations; the sweep runs top-down because most nodes fail).  Among the minimal nodes
that keep ``keep`` below its top level (all minimal nodes when none does) it takes the one
of least ARX Loss (``node_rule="least-loss"``) or the one with the lowest level of ``keep``,
ties by Loss (``"finest"``).  Complexity: at most one check per lattice node, each O(n)
(a class-frequency table), usually far fewer (97 of 12,960 nodes on Adult's 9 QIs);
:meth:`LDiversityPartition.boxes` O(G + leaves).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InfeasibleError
from privlab.table.hierarchy import Hierarchy
from privlab.validate import check_choice, check_int, check_number_in

NODE_RULES = ("least-loss", "finest")


@dataclass(frozen=True, eq=False)
class LDiversityPartition:
    """The classes of a minimal distinct-ℓ-diverse full-domain generalization.

    ``groups``: class (0..G−1) of every *kept* input row; ``kept``: per input row, False where
    the node suppresses it (never with ``suppression = 0``); ``levels``: the node, per QI;
    ``representative``: per group, one member's leaf code per QI (for :meth:`boxes`);
    ``census``: (levels, classes) of every ℓ-diverse node keeping ``keep`` below the top,
    fewest classes first — which partitions the lattice can give at all.
    """

    groups: np.ndarray
    kept: np.ndarray
    levels: dict[str, int]
    l: int  # noqa: E741 - the seed's ℓ
    n_minimal: int
    n_checked: int
    lattice_size: int
    loss: float
    seconds: float
    census: list[tuple[dict[str, int], int]]
    hierarchies: Mapping[str, Hierarchy] = field(repr=False, default_factory=dict)
    representative: np.ndarray = field(repr=False, default_factory=lambda: np.empty((0, 0)))

    @property
    def n_groups(self) -> int:
        return int(self.groups.max()) + 1 if self.groups.size else 0

    def labels(self, column: str) -> np.ndarray:
        """Per group: the published (generalized) label of ``column``."""
        h, lev, codes = self._column(column)
        return h.group_labels(lev)[h.group_of_leaf(lev)[codes]]

    def boxes(self, column: str) -> list[Any]:
        """Per group: ``"*"`` at the top level, else (label, lo, hi) of a numeric ``column``.

        lo/hi are the smallest and largest hierarchy *leaves* under the label, not the label's
        text (ARX's Adult age file puts 20 in ``15-19``).
        """
        h, lev, codes = self._column(column)
        if lev == h.height:
            return ["*"] * codes.size
        try:
            leaf_val = np.array([float(v) for v in h.leaves])
        except ValueError:
            raise ConfigError(f"boxes: the leaves of {column!r} are not numbers") from None
        gol = h.group_of_leaf(lev)
        lo = np.full(h.n_groups(lev), np.inf)
        hi = np.full(h.n_groups(lev), -np.inf)
        np.minimum.at(lo, gol, leaf_val)
        np.maximum.at(hi, gol, leaf_val)
        hg = gol[codes]
        labels = h.group_labels(lev)[hg]
        return [(labels[g], float(lo[hg[g]]), float(hi[hg[g]])) for g in range(codes.size)]

    def _column(self, column: str) -> tuple[Hierarchy, int, np.ndarray]:
        cols = list(self.levels)
        if column not in cols:
            raise ConfigError(f"{column!r} is not a quasi-identifier; use one of {cols}")
        codes = self.representative[:, cols.index(column)]
        return self.hierarchies[column], self.levels[column], codes

    def to_dict(self) -> dict[str, Any]:
        return {
            "l": self.l,
            "levels": self.levels,
            "n_groups": self.n_groups,
            "suppressed": int((~self.kept).sum()),
            "n_minimal": self.n_minimal,
            "n_checked": self.n_checked,
            "lattice_size": self.lattice_size,
            "loss": self.loss,
            "seconds": self.seconds,
        }


def ldiversity_partition(
    frame: Any,
    qi: Sequence[str],
    sensitive: str,
    hierarchies: Mapping[str, Hierarchy],
    l: int,  # noqa: E741 - the seed's ℓ
    *,
    keep: str | None = None,
    node_rule: str = "least-loss",
    suppression: float = 0.0,
) -> LDiversityPartition:
    """The ℓ-diversity baseline partition of seed 001 §2.7 (L1642–1760) as groups.

    ``frame`` (polars or pandas) holds the ``qi`` columns and the ``sensitive`` one (read as
    categorical); ``hierarchies`` one :class:`Hierarchy` per QI.  Distinct ℓ-diversity, no k;
    ``suppression`` is the fraction of rows the node may suppress (Incognito's threshold; the
    seed used 0).  ``keep``: a QI to keep below ``*`` when a minimal node allows it (the seed
    kept age); ``node_rule``: ``least-loss`` or ``finest`` (lowest level of ``keep``).  See
    the module docstring for the sweep and its cost.  Raises :class:`ConfigError` for bad
    parameters and :class:`InfeasibleError` (from the search) when no node is ℓ-diverse.
    """
    from privlab.table.data import MicroTable
    from privlab.table.models import DistinctLDiversity
    from privlab.table.search import Problem

    l = check_int(l, "l", 1)  # noqa: E741
    node_rule = check_choice(node_rule, "node_rule", NODE_RULES)
    suppression = check_number_in(suppression, "suppression", 0.0, 1.0)
    if suppression >= 1.0:
        raise ConfigError(f"suppression = {suppression!r}: give a fraction in [0, 1)")
    qis = list(qi)
    if keep is not None and keep not in qis:
        raise ConfigError(f"keep = {keep!r} is not one of the quasi-identifiers {qis}")
    missing = [c for c in qis if c not in hierarchies]
    if missing:
        raise ConfigError(f"no hierarchy for quasi-identifier(s) {missing}; give one per QI")
    t0 = time.perf_counter()
    df = frame if isinstance(frame, pl.DataFrame) else pl.from_pandas(frame)
    data = df.select(
        [pl.col(c).cast(pl.String).alias(c) for c in qis]
        + [pl.col(sensitive).cast(pl.String).alias("__sa")]
    )
    hier = {c: hierarchies[c] for c in qis}
    table = MicroTable.from_data(data, quasi_identifiers=qis, hierarchies=hier, sensitive=["__sa"])
    problem = Problem(table, [DistinctLDiversity("__sa", l)], suppression_limit=suppression)
    lat = problem.lattice
    levels = np.asarray(lat.levels)
    status = np.zeros(lat.n_nodes, dtype=np.int8)
    checked = 0
    for node in np.lexsort((np.arange(lat.n_nodes), -np.asarray(lat.level_sum))):
        if status[node]:
            continue
        checked += 1
        passes = problem.check(int(node)).anonymous
        if passes:
            status[lat.up_set(int(node)) & (status == 0)] = 1
        else:
            status[lat.down_set(int(node)) & (status == 0)] = -1
        status[node] = 1 if passes else -1
    ok = status == 1
    if not ok.any():
        raise InfeasibleError(
            f"no generalization of {qis} is distinct {l}-diverse"
            + (f" with suppression ≤ {suppression:g}" if suppression else "")
            + "; lower l or allow suppression"
        )
    minimal = [n for n in np.flatnonzero(ok) if not any(ok[p] for p in lat.predecessors(int(n)))]
    ki = qis.index(keep) if keep is not None else None
    top = hier[keep].height if keep is not None else 0

    def below(n: int) -> bool:
        return ki is None or levels[n, ki] < top

    candidates = [n for n in minimal if below(n)] or minimal
    scored = []
    for n in candidates:
        c = problem.check(int(n))
        loss_n = problem.metric.value(c.table, c.kept)
        lev_k = int(levels[n, ki]) if ki is not None else 0
        rank = (lev_k, loss_n) if node_rule == "finest" else (loss_n,)
        scored.append((rank, loss_n, int(n)))
    _, loss, best = min(scored)
    census = sorted(
        (
            ({c: int(v) for c, v in zip(qis, levels[n], strict=True)},
             int(problem.check(int(n)).kept.sum()))
            for n in np.flatnonzero(ok)
            if below(int(n))
        ),
        key=lambda lv_n: (lv_n[1], sorted(lv_n[0].items())),
    )  # fmt: skip
    lv = levels[best]
    cls = problem.groupify.record_classes(table.qi_codes, lv)
    kept = problem.check(int(best)).kept[cls]
    _, groups = np.unique(cls[kept], return_inverse=True)
    groups = groups.reshape(-1).astype(np.int64)
    n_g = int(groups.max()) + 1 if groups.size else 0
    rep = np.zeros((n_g, len(qis)), dtype=np.int64)
    rep[groups] = table.qi_codes[kept]
    return LDiversityPartition(
        groups=groups,
        kept=np.asarray(kept, dtype=bool),
        levels={c: int(v) for c, v in zip(qis, lv, strict=True)},
        l=l,
        n_minimal=len(minimal),
        n_checked=checked,
        lattice_size=int(lat.n_nodes),
        loss=float(loss),
        seconds=time.perf_counter() - t0,
        census=census,
        hierarchies=hier,
        representative=rep,
    )


__all__ = ["NODE_RULES", "LDiversityPartition", "ldiversity_partition"]
