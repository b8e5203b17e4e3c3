"""Privacy budgets and an accountant that *enforces* them.

A :class:`Budget` is a pair (ε, δ): ε > 0 finite (ε = 0 only for the empty budget spent so
far), 0 ≤ δ < 1.  Composition rules:

* **sequential** (basic) composition — mechanisms run on the same data add up:
  (Σ εᵢ, Σ δᵢ) (seed 000 §2.6, Theorem 5.3 on adaptive queries; Dwork & Roth, *The
  Algorithmic Foundations of Differential Privacy*, 2014, Theorem 3.16);
* **parallel** composition — mechanisms run on *disjoint* parts of the data cost the most
  expensive of them: (max εᵢ, max δᵢ) (McSherry, "Privacy integrated queries", SIGMOD 2009,
  Theorem 4; the histogram argument of seed 000 §2.6 is its special case);
* **advanced** composition — for any slack δ' > 0 the adaptive composition of
  (εᵢ, δᵢ)-DP mechanisms is (√(2 ln(1/δ') Σ εᵢ²) + Σ εᵢ (e^{εᵢ} − 1), Σ δᵢ + δ')-DP
  (Dwork, Rothblum & Vadhan, FOCS 2010, Theorem III.3, in the heterogeneous form of Dwork &
  Roth Theorem 3.20 / Kairouz, Oh & Viswanath 2015);
* **amplification by sampling** — an (ε, δ)-DP mechanism run on a Bernoulli(β) sample of the
  data is (ln(1 + β(e^ε − 1)), βδ)-DP (Li, Qardaji & Su, ASIACCS 2012, Theorem 1; seed 003
  summary §B.2.4).

The :class:`Accountant` holds a total budget and a ledger.  Every release is *checked before
it happens*: :meth:`Accountant.charge` raises :class:`~privlab.errors.BudgetExceeded` — and
records nothing — when the release would take the spent budget past the total, so code that
asks the accountant first can never overspend.  With ``composition="advanced"`` the spent
budget is the better of the basic and the advanced bound over the ledger (both are valid
guarantees of the same composition, so the release is within budget when either is).

Floating-point sums are compared with a relative tolerance of 1e-12 (so ten charges of 0.1
fit in a budget of 1.0); no release that exceeds the budget by more than that is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from privlab.errors import BudgetExceeded, ConfigError

#: Relative tolerance when comparing a spent budget with the total (floating-point sums).
TOLERANCE = 1e-12

Composition = Literal["basic", "advanced"]


def _as_float(value: Any, name: str, expected: str) -> float:
    """``value`` as a float; ConfigError ``"NAME = VALUE: give EXPECTED"`` when it is none."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{name} = {value!r}: give {expected}") from None


def check_epsilon(
    epsilon: float,
    name: str = "epsilon",
    *,
    allow_zero: bool = False,
    maximum: float | None = None,
) -> float:
    """ε as a float; ConfigError unless finite and > 0 (≥ 0 with ``allow_zero``), and at most
    ``maximum`` where a computation has a range (e.g. the exact e^ε of the sampling
    theorem)."""
    value = _as_float(epsilon, name, "a number > 0")
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise ConfigError(
            f"{name} = {epsilon!r}: ε must be a finite number > 0 (typical values: 0.1 to 2)"
        )
    if maximum is not None and value > maximum:
        raise ConfigError(
            f"{name} = {epsilon!r}: ε above {maximum:g} protects nothing and is beyond the "
            "range of this exact computation; typical values are 0.1 to 2"
        )
    return value


def check_delta(delta: float, name: str = "delta") -> float:
    """δ as a float; ConfigError unless 0 ≤ δ < 1."""
    value = _as_float(delta, name, "a number in [0, 1)")
    if not 0 <= value < 1:
        raise ConfigError(f"{name} = {delta!r}: δ must be in [0, 1), and in practice far below 1/n")
    return value


def check_beta(beta: float, name: str = "beta") -> float:
    """Sampling probability β; ConfigError unless 0 < β < 1."""
    value = _as_float(beta, name, "a sampling probability in (0, 1)")
    if not 0 < value < 1:
        raise ConfigError(f"{name} = {beta!r}: the sampling probability β must be in (0, 1)")
    return value


@dataclass(frozen=True)
class Budget:
    """A differential-privacy guarantee or budget (ε, δ); δ = 0 is pure ε-DP."""

    epsilon: float
    delta: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, allow_zero=True))
        object.__setattr__(self, "delta", check_delta(self.delta))

    @property
    def pure(self) -> bool:
        return self.delta == 0

    def __add__(self, other: Budget) -> Budget:
        """Sequential composition of two guarantees."""
        return sequential([self, other])

    def fits_in(self, total: Budget) -> bool:
        """Is this guarantee at most ``total`` in both ε and δ (up to :data:`TOLERANCE`)?"""
        return within_tolerance(self.epsilon, total.epsilon) and within_tolerance(
            self.delta, total.delta
        )

    def to_dict(self) -> dict[str, float]:
        return {"epsilon": self.epsilon, "delta": self.delta}

    def __str__(self) -> str:
        return f"ε = {self.epsilon:g}" + (f", δ = {self.delta:g}" if self.delta else "")


EMPTY = Budget(0.0, 0.0)


def within_tolerance(a: float, b: float) -> bool:
    """a ≤ b up to floating-point sums (relative :data:`TOLERANCE`): the budget test."""
    return a <= b * (1 + TOLERANCE) + TOLERANCE * 1e-3


def _budgets(budgets: Iterable[Budget]) -> list[Budget]:
    items = list(budgets)
    for b in items:
        if not isinstance(b, Budget):
            raise ConfigError(f"expected Budget values, got {type(b).__name__}")
    return items


def sequential(budgets: Iterable[Budget]) -> Budget:
    """Basic composition: (Σ εᵢ, Σ δᵢ).  Errors if Σ δᵢ reaches 1 (no guarantee left)."""
    items = _budgets(budgets)
    delta = math.fsum(b.delta for b in items)
    if delta >= 1:
        raise BudgetExceeded(f"the composed δ = {delta:g} is not below 1: no guarantee remains")
    return Budget(math.fsum(b.epsilon for b in items), delta)


def parallel(budgets: Iterable[Budget]) -> Budget:
    """Parallel composition over disjoint parts of the data: (max εᵢ, max δᵢ)."""
    items = _budgets(budgets)
    if not items:
        return EMPTY
    return Budget(max(b.epsilon for b in items), max(b.delta for b in items))


def advanced(budgets: Iterable[Budget], delta_slack: float) -> Budget:
    """Advanced composition (Dwork–Rothblum–Vadhan, heterogeneous form) with slack δ' > 0.

    ε = √(2 ln(1/δ') Σ εᵢ²) + Σ εᵢ (e^{εᵢ} − 1), δ = Σ δᵢ + δ'.  Better than
    :func:`sequential` for many small εᵢ; never use it for few large ones (take the minimum
    of both, as :class:`Accountant` does).  O(len(budgets)).
    """
    items = _budgets(budgets)
    slack = check_delta(delta_slack, "delta_slack")
    if slack == 0:
        raise ConfigError("delta_slack = 0: advanced composition needs a slack δ' > 0")
    sq = math.fsum(b.epsilon**2 for b in items)
    eps = math.sqrt(2 * math.log(1 / slack) * sq) + math.fsum(
        b.epsilon * math.expm1(b.epsilon) for b in items
    )
    delta = math.fsum(b.delta for b in items) + slack
    if delta >= 1:
        raise BudgetExceeded(f"the composed δ = {delta:g} is not below 1: no guarantee remains")
    return Budget(eps, delta)


def amplify(budget: Budget, beta: float) -> Budget:
    """The guarantee of ``budget``'s mechanism run on a Bernoulli(β) sample (Li et al., Thm 1).

    ε' = ln(1 + β(e^ε − 1)), δ' = βδ; computed with ``log1p``/``expm1`` so small ε and β
    keep their precision.
    """
    b = check_beta(beta)
    return Budget(math.log1p(b * math.expm1(budget.epsilon)), b * budget.delta)


def unamplify(target: Budget, beta: float) -> Budget:
    """The budget a mechanism may use on a Bernoulli(β) sample to be ``target``-DP overall.

    Inverse of :func:`amplify`: ε = ln(1 + (e^{ε'} − 1)/β), δ = δ'/β (must stay below 1).
    """
    b = check_beta(beta)
    delta = target.delta / b
    if delta >= 1:
        raise ConfigError(
            f"delta = {target.delta:g} with beta = {b:g}: δ/β = {delta:g} is not below 1"
        )
    return Budget(math.log1p(math.expm1(target.epsilon) / b), delta)


@dataclass(frozen=True)
class Charge:
    """One entry of the ledger: what was released, at which cost, on which part of the data."""

    label: str
    cost: Budget
    partition: str | None = None


@dataclass
class Accountant:
    """Holds a total budget; refuses any release that would exceed it.

    ``charge(ε, δ, label)`` before each release; ``with acc.parallel("by region"):`` groups
    charges on disjoint parts of the data (each charge there names its ``partition``; the
    group costs its most expensive partition).  ``remaining`` is what is left under basic
    composition.  Complexity: O(charges) per charge.
    """

    total: Budget
    composition: Composition = "basic"
    delta_slack: float = 0.0
    ledger: list[Charge] = field(default_factory=list)
    _group: list[Charge] | None = field(default=None, repr=False)
    _groups: list[tuple[str, list[Charge]]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.total, Budget):
            raise ConfigError(f"total: expected a Budget, got {type(self.total).__name__}")
        if self.total.epsilon == 0:
            raise ConfigError("total: ε = 0 leaves nothing to spend; give ε > 0")
        if self.composition not in ("basic", "advanced"):
            raise ConfigError(f"composition = {self.composition!r}: use 'basic' or 'advanced'")
        if self.composition == "advanced":
            slack = check_delta(self.delta_slack, "delta_slack")
            if not 0 < slack <= self.total.delta:
                raise ConfigError(
                    f"delta_slack = {self.delta_slack!r}: advanced composition needs "
                    f"0 < δ' ≤ the total δ = {self.total.delta:g}"
                )

    # ------------------------------------------------------------------ accounting
    def _units(self, extra: Charge | None = None) -> list[Budget]:
        """The cost of each sequential step: a plain charge, or a parallel group as a whole.

        ``extra`` is a charge being considered: it joins the open group if it names a
        partition, else it is one more sequential step.
        """
        units = [_group_cost(members) for _, members in self._groups]
        units += [c.cost for c in self.ledger if c.partition is None]
        open_members = list(self._group or [])
        if extra is not None:
            if extra.partition is None:
                units.append(extra.cost)
            else:
                open_members.append(extra)
        if open_members:
            units.append(_group_cost(open_members))
        return units

    def _compose(self, units: list[Budget]) -> Budget:
        """Basic composition, or with ``advanced`` the better bound that fits the total."""
        if not units:
            return EMPTY
        candidates = [sequential(units)]
        if self.composition == "advanced":
            candidates.append(advanced(units, self.delta_slack))
        fitting = [c for c in candidates if c.fits_in(self.total)]
        return min(fitting, key=lambda c: c.epsilon) if fitting else candidates[0]

    @property
    def spent(self) -> Budget:
        """The budget spent so far (the better of basic and advanced composition)."""
        return self._compose(self._units())

    @property
    def remaining(self) -> Budget:
        """Total minus the basic-composition spend, per coordinate (never negative).

        Under ``advanced`` composition more may fit; :meth:`can_afford` gives the exact answer.
        """
        units = self._units()
        spent = sequential(units) if units else EMPTY
        return Budget(
            max(0.0, self.total.epsilon - spent.epsilon), max(0.0, self.total.delta - spent.delta)
        )

    def can_afford(self, epsilon: float, delta: float = 0.0, partition: str | None = None) -> bool:
        try:
            self._check(Budget(epsilon, delta), partition)
        except BudgetExceeded:
            return False
        return True

    def _check(self, cost: Budget, partition: str | None) -> Charge:
        if cost.epsilon == 0:
            raise ConfigError("epsilon = 0: a release must cost some ε > 0")
        if (partition is None) != (self._group is None):
            raise ConfigError(
                "partition: name the part of the data inside 'with accountant.parallel(...)', "
                "and only there"
            )
        charge = Charge(label="", cost=cost, partition=partition)
        after = self._compose(self._units(charge))
        if not after.fits_in(self.total):
            spent = self.spent
            raise BudgetExceeded(
                f"this release costs {cost}, but {spent} of the total {self.total} is spent; "
                f"it would reach {after}. Lower its ε/δ, or start a new budget for new data"
            )
        return charge

    def charge(
        self, epsilon: float, delta: float = 0.0, label: str = "", *, partition: str | None = None
    ) -> Charge:
        """Record a release of cost (ε, δ), or raise BudgetExceeded and record nothing."""
        cost = Budget(check_epsilon(epsilon), check_delta(delta))
        self._check(cost, partition)
        entry = Charge(label=label, cost=cost, partition=partition)
        if self._group is not None:
            self._group.append(entry)
        else:
            self.ledger.append(entry)
        return entry

    def spend(
        self,
        fn: Callable[..., Any],
        *args: Any,
        epsilon: float,
        delta: float = 0.0,
        label: str = "",
        partition: str | None = None,
        **kwargs: Any,
    ) -> Any:
        """Check the budget, then run the mechanism ``fn(*args, epsilon=…, [delta=…], **kw)``.

        The charge is recorded only when ``fn`` returns; a mechanism that fails on bad input
        costs nothing (it released nothing).
        """
        cost = Budget(check_epsilon(epsilon), check_delta(delta))
        self._check(cost, partition)
        call = dict(kwargs, epsilon=cost.epsilon)
        if cost.delta:
            call["delta"] = cost.delta
        result = fn(*args, **call)
        label = label or getattr(fn, "__name__", "")
        self.charge(cost.epsilon, cost.delta, label, partition=partition)
        return result

    @contextmanager
    def parallel(self, label: str) -> Iterator[Accountant]:
        """Charges inside run on disjoint parts of the data (each names its ``partition``).

        The group costs (max ε, max δ) over its partitions, where a partition charged several
        times costs the sequential sum of its charges.
        """
        if self._group is not None:
            raise ConfigError("parallel groups cannot be nested")
        self._group = []
        try:
            yield self
        finally:
            members, self._group = self._group, None
            if members:
                self._groups.append((label, members))
                self.ledger.extend(members)

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.total.to_dict(),
            "spent": self.spent.to_dict(),
            "remaining": self.remaining.to_dict(),
            "composition": self.composition,
            "ledger": [
                {"label": c.label, "partition": c.partition, **c.cost.to_dict()}
                for c in self.ledger
            ],
        }


def _group_cost(members: list[Charge]) -> Budget:
    """A parallel group: each partition composes sequentially; the group costs the largest."""
    by_part: dict[str, list[Budget]] = {}
    for c in members:
        by_part.setdefault(str(c.partition), []).append(c.cost)
    return parallel(sequential(costs) for costs in by_part.values())


__all__ = [
    "EMPTY",
    "TOLERANCE",
    "Accountant",
    "Budget",
    "Charge",
    "advanced",
    "amplify",
    "check_beta",
    "check_delta",
    "check_epsilon",
    "parallel",
    "sequential",
    "unamplify",
    "within_tolerance",
]
