"""The differencing attack: query-set-size restriction does not protect a statistical database.

Seed 000 §2.2 (thesis §3.2, L1701–1765): a curator that answers aggregate queries exactly
but refuses small query sets is defeated by differencing — "how many people are HIV+?" minus
"how many people not named X are HIV+?" reveals X.  When the curator also refuses *large*
query sets (m ≤ |Q| ≤ n − m, so that the complement is not small either), the attack uses a
*general tracker* T with 2m ≤ |T| ≤ n − 2m [EXTERNAL: Denning, Denning & Schwartz, "The
tracker: a threat to statistical database security", ACM TODS 1979]:

    sum(C) = sum(C ∨ T) + sum(C ∨ ¬T) − sum(T) − sum(¬T)

and every one of the four query sets has an allowed size when |C| is small.  Queries are
predicates, given as boolean row masks (a real interface would take WHERE clauses over
public attributes; the attack only needs the curator to evaluate them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.validate import check_int


@dataclass
class QueryLog:
    """One query put to a curator: its set size and whether it was answered."""

    size: int
    answered: bool


class SizeRestrictedCurator:
    """Exact SUM queries over row predicates; refuses query sets of size < m (and, with
    ``symmetric``, > n − m).  The naive defence of seed 000 §2.2.  O(n) per query."""

    def __init__(self, values: Any, min_size: int, *, symmetric: bool = True) -> None:
        arr = np.asarray(values, dtype=float).ravel()
        if arr.size == 0 or not np.all(np.isfinite(arr)):
            raise InputError("values: give a non-empty column of finite numbers")
        self._values = arr
        self.n = int(arr.size)
        self.min_size = check_int(min_size, "min_size", 1)
        self.symmetric = bool(symmetric)
        self.log: list[QueryLog] = []

    def allowed(self, size: int) -> bool:
        """Is a query set of this size answered?"""
        upper = self.n - self.min_size if self.symmetric else self.n
        return self.min_size <= size <= upper

    def _mask(self, mask: Any) -> np.ndarray:
        m = np.asarray(mask, dtype=bool).ravel()
        if m.size != self.n:
            raise InputError(f"mask: {m.size} entries for a table of {self.n} rows")
        return m

    def sum(self, mask: Any) -> float | None:
        """The exact sum over the rows of ``mask``, or None when the set size is refused."""
        m = self._mask(mask)
        size = int(m.sum())
        ok = self.allowed(size)
        self.log.append(QueryLog(size, ok))
        return float(self._values[m].sum()) if ok else None


@dataclass(frozen=True)
class DifferencingResult:
    """The value the attack recovered (None if it failed), the method and the queries."""

    value: float | None
    method: str
    queries: list[QueryLog] = field(default_factory=list)

    @property
    def succeeded(self) -> bool:
        return self.value is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "succeeded": self.succeeded,
            "method": self.method,
            "queries": len(self.queries),
            "refused": sum(not q.answered for q in self.queries),
        }


def differencing_attack(
    curator: Any, target: Any, *, tracker: Any = None, seed: Any = None
) -> DifferencingResult:
    """Recover sum(target rows) — one person's value when ``target`` selects one row.

    First the simple difference sum(all) − sum(all but target); if the curator refuses it,
    the general tracker (``tracker``: a row mask with 2m ≤ |T| ≤ n − 2m, by default a random
    half of the rows, e.g. "row id is even").  ``curator`` needs ``sum(mask)`` (None when
    refused), ``n`` and ``min_size``; it works on any curator that answers exact sums, such
    as :class:`SizeRestrictedCurator`.  O(n) per query, at most 6 queries.
    """
    before = len(getattr(curator, "log", []))
    c = np.asarray(target, dtype=bool).ravel()
    if c.size != curator.n or not c.any():
        raise InputError(f"target: give a mask of {curator.n} rows selecting the target")

    def log() -> list[QueryLog]:
        return list(getattr(curator, "log", [])[before:])

    everyone = np.ones(curator.n, dtype=bool)
    a, b = curator.sum(everyone), curator.sum(~c)
    if a is not None and b is not None:
        return DifferencingResult(a - b, "difference", log())
    if tracker is None:
        rng = np.random.default_rng(seed)
        tracker = np.zeros(curator.n, dtype=bool)
        tracker[rng.permutation(curator.n)[: curator.n // 2]] = True
    t = np.asarray(tracker, dtype=bool).ravel()
    parts = [curator.sum(c | t), curator.sum(c | ~t), curator.sum(t), curator.sum(~t)]
    if any(p is None for p in parts):
        return DifferencingResult(None, "tracker", log())
    return DifferencingResult(parts[0] + parts[1] - parts[2] - parts[3], "tracker", log())
