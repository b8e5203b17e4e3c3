"""Simulatable query auditing of SUM and MAX queries (a defence against differencing).

Seed 000 §2.2 (thesis §3.2) names query auditing — refuse any query that would be disclosive
given the history — and its two problems: monitoring is expensive [KPR00], and *a refusal
can itself leak* [KMN05].  The cure of Kenthapadi, Mishra & Nissim, "Simulatable auditing"
(PODS 2005) [EXTERNAL to the thesis, which gives the idea only]: decide from the queries and
the answers already given, never from the true data, so that a simulator holding only the
public transcript makes the same decisions — a denial then says nothing the attacker could
not compute himself.

* **SUM** over real values (KMN05 §3, after Chin 1986): x_i is fully disclosed when the unit
  vector e_i lies in the row space of the answered query vectors.  That depends on the query
  sets only, so the classical auditor is simulatable: deny q if Q ∪ {q} would determine some
  x_i.  Exact rational row reduction, O(n · r) per query for r answered queries.
* **MAX** over distinct real values (KMN05 §4): with μ_j = min{answer of an answered query
  containing j}, the element holding answer M must lie in S_M = ∩{Q_k : M_k = M} ∩
  {j : μ_j = M}; the answers are consistent iff every S_M is non-empty, and x_j is
  disclosed iff some S_M = {j}.  The simulatable auditor denies q if *some* answer consistent
  with the history would disclose an element; the order of a candidate answer among the
  past answers is all that matters, so it tries each past answer, a value between each pair
  and one beyond each end.  O(t · (n + Σ|Q_k|)) per query for t past answers.

:class:`NaiveMaxAuditor` decides from the true answer instead — and its denial leaks
(the test shows a denial that reveals a value).
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from privlab.errors import InputError


@dataclass(frozen=True)
class AuditedAnswer:
    """The answer, or None when the auditor denied the query."""

    value: float | None
    denied: bool


def _values(values: Any, *, distinct: bool = False) -> np.ndarray:
    arr = np.asarray(values, dtype=float).ravel()
    if arr.size == 0 or not np.all(np.isfinite(arr)):
        raise InputError("values: give a non-empty column of finite numbers")
    if distinct and np.unique(arr).size != arr.size:
        raise InputError(
            "values: the MAX auditor assumes distinct values (Kenthapadi et al.); break ties "
            "first, e.g. by adding a tiny row-dependent offset"
        )
    return arr


def _mask(mask: Any, n: int) -> np.ndarray:
    m = np.asarray(mask, dtype=bool).ravel()
    if m.size != n or not m.any():
        raise InputError(f"mask: give a non-empty query set as a mask of {n} rows")
    return m


class _Auditor(ABC):
    """Shared front: answer when the (data-free) decision allows, keep the transcript."""

    def __init__(self, values: Any, n: int | None, distinct: bool) -> None:
        if values is None:  # a simulator: decisions only, from the public transcript
            if n is None:
                raise InputError("n: a simulator without data needs the number of rows")
            self._data, self.n = None, int(n)
        else:
            self._data = _values(values, distinct=distinct)
            self.n = int(self._data.size)
        self.transcript: list[tuple[np.ndarray, float | None]] = []

    @abstractmethod
    def would_deny(self, mask: Any) -> bool:
        """Whether to deny the query ``mask`` (a simulatable auditor decides without the data)."""

    @abstractmethod
    def _record(self, m: np.ndarray, value: float) -> None:
        """Keep what an answered query teaches about the values."""

    @abstractmethod
    def _true(self, m: np.ndarray) -> float:
        """The exact answer of the query ``m``."""

    def ask(self, mask: Any) -> AuditedAnswer:
        """Answer the query exactly, or deny it; decisions never read the data."""
        m = _mask(mask, self.n)
        if self.would_deny(m):
            self.transcript.append((m, None))
            return AuditedAnswer(None, True)
        if self._data is None:
            raise InputError("a simulator has no data to answer with; use replay()")
        value = self._true(m)
        self._record(m, value)
        self.transcript.append((m, value))
        return AuditedAnswer(value, False)

    def replay(self, mask: Any, answer: float | None) -> bool:
        """Simulator step: decide on ``mask``, then record the public ``answer`` (None if the
        real auditor denied).  Returns the simulator's decision (True = deny)."""
        m = _mask(mask, self.n)
        deny = self.would_deny(m)
        if answer is not None:
            self._record(m, float(answer))
        self.transcript.append((m, answer))
        return deny

    def sum(self, mask: Any) -> float | None:
        """Curator interface of :func:`privlab.table.attacks.differencing.differencing_attack`."""
        return self.ask(mask).value


class SumAuditor(_Auditor):
    """Simulatable auditor of exact SUM queries (KMN05 §3; Chin 1986)."""

    def __init__(self, values: Any = None, *, n: int | None = None) -> None:
        super().__init__(values, n, distinct=False)
        self._rows: list[list[Fraction]] = []  # reduced row echelon form
        self._pivots: list[int] = []

    def _reduce(self, m: np.ndarray) -> tuple[list[list[Fraction]], list[int]]:
        rows = [r[:] for r in self._rows]
        pivots = list(self._pivots)
        v = [Fraction(int(x)) for x in m]
        for r, p in zip(rows, pivots, strict=True):
            if v[p]:
                f = v[p]
                v = [a - f * b for a, b in zip(v, r, strict=True)]
        nz = next((i for i, a in enumerate(v) if a), None)
        if nz is None:
            return rows, pivots
        v = [a / v[nz] for a in v]
        for i, r in enumerate(rows):
            if r[nz]:
                f = r[nz]
                rows[i] = [a - f * b for a, b in zip(r, v, strict=True)]
        return [*rows, v], [*pivots, nz]

    @staticmethod
    def _disclosed(rows: list[list[Fraction]]) -> list[int]:
        """Coordinates fixed by the answers: RREF rows with a single non-zero entry."""
        out = []
        for r in rows:
            nz = [i for i, a in enumerate(r) if a]
            if len(nz) == 1:
                out.append(nz[0])
        return out

    def would_deny(self, mask: Any) -> bool:
        rows, _ = self._reduce(_mask(mask, self.n))
        return bool(self._disclosed(rows))

    def _record(self, m: np.ndarray, value: float) -> None:
        self._rows, self._pivots = self._reduce(m)

    def _true(self, m: np.ndarray) -> float:
        return float(self._data[m].sum())


def max_disclosure(queries: list[np.ndarray], answers: list[float], n: int) -> tuple[bool, list]:
    """(consistent, disclosed elements) of answered MAX queries over distinct values."""
    mu = np.full(n, np.inf)
    for q, a in zip(queries, answers, strict=True):
        mu[q] = np.minimum(mu[q], a)
    disclosed = []
    for value in set(answers):
        s = mu == value
        for q, a in zip(queries, answers, strict=True):
            if a == value:
                s &= q
        count = int(s.sum())
        if count == 0:
            return False, []
        if count == 1:
            disclosed.append(int(np.flatnonzero(s)[0]))
    return True, sorted(disclosed)


class MaxAuditor(_Auditor):
    """Simulatable auditor of exact MAX queries over distinct values (KMN05 §4)."""

    def __init__(self, values: Any = None, *, n: int | None = None) -> None:
        super().__init__(values, n, distinct=True)
        self._queries: list[np.ndarray] = []
        self._answers: list[float] = []

    def candidate_answers(self) -> list[float]:
        """One representative of every order position among the past answers."""
        past = sorted(set(self._answers))
        if not past:
            return [0.0]
        mids = [(a + b) / 2 for a, b in itertools.pairwise(past)]
        return [past[0] - 1.0, *past, *mids, past[-1] + 1.0]

    def would_deny(self, mask: Any) -> bool:
        m = _mask(mask, self.n)
        for a in self.candidate_answers():
            ok, disclosed = max_disclosure([*self._queries, m], [*self._answers, a], self.n)
            if ok and disclosed:
                return True
        return False

    def _record(self, m: np.ndarray, value: float) -> None:
        self._queries.append(m)
        self._answers.append(value)

    def _true(self, m: np.ndarray) -> float:
        return float(self._data[m].max())


class NaiveMaxAuditor(MaxAuditor):
    """Denies only when the *true* answer would disclose a value — not simulatable: its
    denials depend on the data and leak (KMN05's motivating example)."""

    def would_deny(self, mask: Any) -> bool:
        if self._data is None:
            raise InputError("the naive auditor needs the data: it decides from the true answer")
        m = _mask(mask, self.n)
        _, disclosed = max_disclosure([*self._queries, m], [*self._answers, self._true(m)], self.n)
        return bool(disclosed)
