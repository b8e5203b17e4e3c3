"""Tight accounting of a ledger of releases: basic, advanced, zCDP, RDP and PLD bounds.

A ledger mixes releases of several kinds (:class:`PrivacyEvent`):

* ``pure`` — any ε-DP mechanism (geometric, snapped Laplace, exponential mechanism, …);
* ``approximate`` — any (ε, δ)-DP mechanism of which nothing more is known;
* ``laplace`` — continuous Laplace noise with scale b = ``noise_multiplier`` · Δ₁ (ε = 1/b·Δ₁);
* ``gaussian`` — continuous Gaussian noise, σ = ``noise_multiplier`` · Δ₂, calibrated to the
  (ε, δ) it records;
* ``zcdp`` — a ρ-zCDP mechanism such as the discrete Gaussian (Canonne, Kamath & Steinke
  2020), with the (ε, δ) it was calibrated to;

each possibly run ``count`` times, and on a Poisson sample of rate ``sampling_rate`` (each
row kept independently with that probability).

:func:`compose` bounds the (ε, δ) of the whole ledger for a target δ by five methods and
returns the smallest ε, naming its method:

* **basic** — Σ εᵢ, Σ δᵢ (Dwork & Roth 2014, Theorem 3.16), with sampled events amplified
  first: ln(1 + q(e^ε − 1)), qδ (Li, Qardaji & Su 2012, Theorem 1 — Bernoulli sampling is
  Poisson sampling);
* **advanced** — Dwork, Rothblum & Vadhan 2010 (:func:`privlab.dp.accountant.advanced`) with
  slack δ_target − Σ δᵢ;
* **zcdp** — ρ adds up (Bun & Steinke 2016); pure ε counts ε²/2, Gaussian noise 1/(2·m²);
  the sum converts to (ε, δ) with Canonne, Kamath & Steinke's Corollary 13
  (:func:`privlab.dp.zcdp.epsilon`);
* **rdp** — Rényi DP (Mironov 2017) through Google's ``dp-accounting``
  (``RdpAccountant``: exact RDP of the Gaussian, of the Laplace mechanism, of the
  Poisson-subsampled Gaussian — Mironov, Talwar & Zhang 2019 — and of ρ-zCDP events);
* **pld** — privacy loss distributions (Meiser & Mohammadi 2018; Koskela et al. 2020;
  Doroshenko et al. 2022) through ``dp-accounting``'s ``privacy_loss_distribution``:
  pessimistic discretised PLDs of the Laplace and Gaussian mechanisms (Poisson-subsampled
  where sampled) and, for a pure or approximate event of which only (ε, δ) is known, its
  dominating pair (ε-randomised response with a δ atom at +∞; Kairouz, Oh & Viswanath 2015),
  so that the composition of pure events is the *optimal* composition.

A method that cannot take an event (RDP and zCDP know nothing tighter about a generic
(ε, δ) event, PLD nothing about a zCDP one) composes the events it can take tightly and the
others by basic composition, splitting δ: ε = Σ ε_other + ε_tight(δ_target − Σ δ_other).
Each is a valid bound of the same composition, so their minimum is.  The neighbouring
relation is add-or-remove one privacy unit throughout (that of privlab's releases).

Complexity: basic/advanced/zcdp O(events); RDP O(events × orders); PLD dominated by
FFT convolutions of the discretised distributions (discretisation 10⁻⁴ by default).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from privlab.dp import zcdp
from privlab.dp.accountant import (
    Budget,
    advanced,
    check_delta,
    check_epsilon,
    within_tolerance,
)
from privlab.errors import BudgetExceeded, ConfigError
from privlab.validate import check_choice, check_fraction, check_int

KINDS = ("pure", "approximate", "laplace", "gaussian", "zcdp")
METHODS = ("basic", "advanced", "zcdp", "rdp", "pld")
#: Most repetitions of one event (advanced composition expands them).
MAX_COUNT = 10**6


@dataclass(frozen=True)
class PrivacyEvent:
    """One release (or ``count`` identical ones) in a ledger; see the module docstring.

    ``epsilon``/``delta`` are the guarantee of one run on the whole data (before sampling);
    ``rho`` the zCDP of one run (``zcdp`` and ``gaussian`` events); ``noise_multiplier`` the
    noise scale over the sensitivity (``laplace``: b/Δ₁, ``gaussian``: σ/Δ₂).
    """

    kind: str
    epsilon: float
    delta: float = 0.0
    rho: float | None = None
    noise_multiplier: float | None = None
    sampling_rate: float = 1.0
    count: int = 1
    label: str = ""

    def __post_init__(self) -> None:
        check_choice(self.kind, "kind", KINDS)
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon, "epsilon"))
        object.__setattr__(self, "delta", check_delta(self.delta, "delta"))
        count = check_int(self.count, "count", 1)
        if count > MAX_COUNT:
            raise ConfigError(f"count = {count}: at most {MAX_COUNT} repetitions of one event")
        object.__setattr__(self, "count", count)
        q = check_fraction(self.sampling_rate, "sampling_rate", hint="1 = no sampling")
        object.__setattr__(self, "sampling_rate", q)
        if self.kind in ("pure", "laplace") and self.delta != 0:
            raise ConfigError(f"a {self.kind} event has δ = 0; got delta = {self.delta!r}")
        if self.kind in ("laplace", "gaussian"):
            if self.noise_multiplier is None:
                raise ConfigError(f"a {self.kind} event needs its noise_multiplier")
            check_epsilon(self.noise_multiplier, "noise_multiplier")
        if self.kind == "gaussian" and self.delta == 0:
            raise ConfigError("a gaussian event needs the δ > 0 it was calibrated to")
        if self.kind == "zcdp":
            if self.rho is None:
                raise ConfigError("a zcdp event needs its rho")
            zcdp.check_rho(self.rho)
            if q < 1:
                raise ConfigError(
                    "sampling_rate: amplification by sampling is not accounted for zCDP "
                    "events; give sampling_rate = 1"
                )

    # -------------------------------------------------------------- per-run views
    @property
    def amplified(self) -> Budget:
        """(ε, δ) of one run including the sampling (Li, Qardaji & Su 2012, Theorem 1)."""
        q = self.sampling_rate
        if q == 1:
            return Budget(self.epsilon, self.delta)
        return Budget(math.log1p(q * math.expm1(self.epsilon)), q * self.delta)

    @property
    def zcdp_rho(self) -> float | None:
        """ρ of one run, when the event is zCDP (after sampling for pure/Laplace events)."""
        if self.kind in ("pure", "laplace"):
            return self.amplified.epsilon**2 / 2
        if self.kind == "gaussian" and self.sampling_rate == 1:
            return 1 / (2 * self.noise_multiplier**2)
        if self.kind == "zcdp":
            return self.rho
        return None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "epsilon": self.epsilon, "delta": self.delta}
        for key in ("rho", "noise_multiplier"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.sampling_rate != 1:
            out["sampling_rate"] = self.sampling_rate
        if self.count != 1:
            out["count"] = self.count
        if self.label:
            out["label"] = self.label
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PrivacyEvent:
        keys = ("kind", "epsilon", "delta", "rho", "noise_multiplier", "sampling_rate",
                "count", "label")  # fmt: skip
        unknown = set(data) - set(keys)
        if unknown:
            raise ConfigError(f"privacy event: unknown field(s) {sorted(unknown)}")
        return cls(**{k: data[k] for k in keys if k in data})


# ---------------------------------------------------------------------------- constructors
def pure_event(epsilon: float, *, label: str = "", sampling_rate: float = 1.0,
               count: int = 1) -> PrivacyEvent:  # fmt: skip
    """Any ε-DP release."""
    return PrivacyEvent("pure", epsilon, label=label, sampling_rate=sampling_rate, count=count)


def laplace_event(noise_multiplier: float, *, label: str = "", sampling_rate: float = 1.0,
                  count: int = 1) -> PrivacyEvent:  # fmt: skip
    """Continuous Laplace noise of scale ``noise_multiplier`` × Δ₁ (ε = 1/noise_multiplier)."""
    m = check_epsilon(noise_multiplier, "noise_multiplier")
    return PrivacyEvent("laplace", 1 / m, noise_multiplier=m, label=label,
                        sampling_rate=sampling_rate, count=count)  # fmt: skip


def zcdp_event(rho: float, delta: float, *, label: str = "", count: int = 1) -> PrivacyEvent:
    """A ρ-zCDP release; its own (ε, δ) is the tighter conversion at ``delta``."""
    r = zcdp.check_rho(rho)
    return PrivacyEvent("zcdp", zcdp.epsilon(r, delta), delta, rho=r, label=label, count=count)


def event_of_release(release: Any, label: str = "") -> PrivacyEvent:
    """The ledger entry of a :class:`privlab.dp.mechanisms.Release`.

    A discrete Gaussian release is a zCDP event (ρ = Δ₂²/(2σ²), Canonne et al. Theorem 4);
    any other release with δ = 0 is pure; any other with δ > 0 (snapped continuous Gaussian)
    is approximate — floating-point noise on a grid keeps its (ε, δ), not its ρ.
    """
    params = getattr(release, "parameters", {}) or {}
    mechanism = params.get("mechanism", getattr(release, "mechanism", ""))
    if mechanism == "discrete_gaussian" and "sigma" in params and "l2_sensitivity" in params:
        rho = zcdp.gaussian_rho(params["sigma"], params["l2_sensitivity"])
        return PrivacyEvent("zcdp", release.epsilon, release.delta, rho=rho, label=label)
    if release.delta == 0:
        return PrivacyEvent("pure", release.epsilon, label=label)
    return PrivacyEvent("approximate", release.epsilon, release.delta, label=label)


# ---------------------------------------------------------------------------- composition
@dataclass(frozen=True)
class TightBound:
    """The (ε, δ) of a ledger: the best method's ε at δ, and every method's ε (None: n/a)."""

    epsilon: float
    delta: float
    method: str
    by_method: dict[str, float | None] = field(default_factory=dict)
    basic: Budget | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "epsilon": self.epsilon,
            "delta": self.delta,
            "method": self.method,
            "by_method": dict(self.by_method),
            "basic": None if self.basic is None else self.basic.to_dict(),
        }


def _events(events: Iterable[PrivacyEvent]) -> list[PrivacyEvent]:
    items = list(events)
    stranger = next((e for e in items if not isinstance(e, PrivacyEvent)), None)
    if stranger is not None:
        raise ConfigError(f"expected PrivacyEvent values, got {type(stranger).__name__}")
    return items


def basic(events: Sequence[PrivacyEvent]) -> Budget:
    """Basic composition (Σ εᵢ, Σ δᵢ) of the amplified guarantees; δ may reach 1 (no bound)."""
    eps = math.fsum(e.count * e.amplified.epsilon for e in events)
    dlt = math.fsum(e.count * e.amplified.delta for e in events)
    return Budget(eps, min(dlt, math.nextafter(1.0, 0.0)))


def _split(events: Sequence[PrivacyEvent], takes) -> tuple[list[PrivacyEvent], float, float]:
    """Events a method takes; the basic (ε, δ) of the others."""
    taken = [e for e in events if takes(e)]
    rest = [e for e in events if not takes(e)]
    b = basic(rest)
    return taken, b.epsilon, b.delta


def _advanced(events: Sequence[PrivacyEvent], delta: float) -> float | None:
    budgets = [e.amplified for e in events for _ in range(e.count)]
    slack = delta - math.fsum(b.delta for b in budgets)
    if slack <= 0 or not budgets:
        return None
    return advanced(budgets, slack).epsilon


def _zcdp(events: Sequence[PrivacyEvent], delta: float) -> float | None:
    taken, eps_rest, delta_rest = _split(events, lambda e: e.zcdp_rho is not None)
    rho = math.fsum(e.count * e.zcdp_rho for e in taken)
    left = delta - delta_rest
    if not taken:
        return None
    if left <= 0:
        return None
    return eps_rest + zcdp.epsilon(rho, left)


def _rdp_event(e: PrivacyEvent):
    import dp_accounting as dpa

    q = e.sampling_rate
    if e.kind == "gaussian":
        inner = dpa.GaussianDpEvent(e.noise_multiplier)
        event = inner if q == 1 else dpa.PoissonSampledDpEvent(q, inner)
    elif e.kind == "laplace" and q == 1:
        event = dpa.LaplaceDpEvent(e.noise_multiplier)
    elif e.kind in ("pure", "laplace"):
        event = dpa.ZCDpEvent(e.amplified.epsilon**2 / 2)
    elif e.kind == "zcdp":
        event = dpa.ZCDpEvent(e.rho)
    else:
        return None
    return event if e.count == 1 else dpa.SelfComposedDpEvent(event, e.count)


def _rdp(events: Sequence[PrivacyEvent], delta: float) -> float | None:
    from dp_accounting import rdp

    taken, eps_rest, delta_rest = _split(events, lambda e: _rdp_event(e) is not None)
    left = delta - delta_rest
    if not taken or left <= 0:
        return None
    acc = rdp.RdpAccountant()
    for e in taken:
        acc.compose(_rdp_event(e))
    return eps_rest + float(acc.get_epsilon(left))


def _pld_of(e: PrivacyEvent, interval: float):
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as pld

    q = e.sampling_rate
    if e.kind == "gaussian":
        one = pld.from_gaussian_mechanism(
            e.noise_multiplier, value_discretization_interval=interval, sampling_prob=q
        )
    elif e.kind == "laplace":
        one = pld.from_laplace_mechanism(
            e.noise_multiplier, value_discretization_interval=interval, sampling_prob=q
        )
    elif e.kind in ("pure", "approximate"):
        a = e.amplified
        one = pld.from_privacy_parameters(
            common.DifferentialPrivacyParameters(a.epsilon, a.delta),
            value_discretization_interval=interval,
        )
    else:
        return None
    return one if e.count == 1 else one.self_compose(e.count)


def _pld(events: Sequence[PrivacyEvent], delta: float, interval: float) -> float | None:
    taken, eps_rest, delta_rest = _split(events, lambda e: e.kind != "zcdp")
    left = delta - delta_rest
    if not taken or left < 0:
        return None
    total = None
    for e in taken:
        one = _pld_of(e, interval)
        total = one if total is None else total.compose(one)
    got = float(total.get_epsilon_for_delta(left))
    return eps_rest + got if math.isfinite(got) else None


def compose(
    events: Iterable[PrivacyEvent],
    delta: float,
    *,
    methods: Sequence[str] = METHODS,
    value_discretization_interval: float = 1e-4,
) -> TightBound:
    """The smallest ε, over ``methods``, for which the ledger is (ε, ``delta``)-DP.

    Basic composition reports its own Σ δᵢ when that is ≤ ``delta``; the others report ε at
    ``delta`` exactly.  An empty ledger costs (0, 0).  Raises BudgetExceeded when no method
    bounds the ledger at this δ (Σ δᵢ above it and nothing tighter applies).
    """
    items = _events(events)
    target = check_delta(delta)
    for m in methods:
        check_choice(m, "method", METHODS)
    if not items:
        return TightBound(0.0, 0.0, "basic", dict.fromkeys(methods, 0.0), Budget(0.0))
    b = basic(items)
    results: dict[str, float | None] = {}
    for m in methods:
        if m == "basic":
            results[m] = b.epsilon if within_tolerance(b.delta, target) else None
        elif m == "advanced":
            results[m] = _advanced(items, target)
        elif m == "zcdp":
            results[m] = _zcdp(items, target)
        elif m == "rdp":
            results[m] = _rdp(items, target)
        else:
            results[m] = _pld(items, target, value_discretization_interval)
    finite = {m: v for m, v in results.items() if v is not None and math.isfinite(v)}
    if not finite:
        raise BudgetExceeded(
            f"the ledger's δ = {b.delta:g} (basic composition) is above the target δ = "
            f"{target:g} and no tighter method applies; give a larger δ"
        )
    best = min(finite, key=lambda m: (finite[m], METHODS.index(m)))
    dlt = b.delta if best == "basic" else target
    return TightBound(finite[best], dlt, best, results, b)


@dataclass
class TightAccountant:
    """A total (ε, δ) and a ledger of :class:`PrivacyEvent`; refuses any event that would
    take the ledger's tightest bound past the total, recording nothing then.

    Unlike :class:`privlab.dp.accountant.Accountant` (basic/advanced, parallel groups) it
    accounts by the best of basic, advanced, zCDP, RDP and PLD.  O(ledger) per charge.
    """

    total: Budget
    methods: tuple[str, ...] = METHODS
    events: list[PrivacyEvent] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.total, Budget):
            raise ConfigError(f"total: expected a Budget, got {type(self.total).__name__}")
        if self.total.epsilon == 0:
            raise ConfigError("total: ε = 0 leaves nothing to spend; give ε > 0")
        for m in self.methods:
            check_choice(m, "method", METHODS)

    def bound(self, events: Sequence[PrivacyEvent] | None = None) -> TightBound:
        return compose(self.events if events is None else events, self.total.delta,
                       methods=self.methods)  # fmt: skip

    @property
    def spent(self) -> TightBound:
        return self.bound()

    def check(self, *new: PrivacyEvent) -> TightBound:
        """The bound with ``new`` added; BudgetExceeded if it passes the total."""
        after_events = [*self.events, *_events(new)]
        try:
            after = self.bound(after_events)
        except BudgetExceeded:
            raise BudgetExceeded(
                f"{_labels(new)} refused: with it the ledger's δ would be "
                f"{basic(after_events).delta:g} by basic composition, over the total δ = "
                f"{self.total.delta:g}, and no tighter method bounds it; lower the releases' "
                "δ, or use a budget with a larger total δ"
            ) from None
        if not within_tolerance(after.epsilon, self.total.epsilon):
            before = self.bound()
            raise BudgetExceeded(
                f"{_labels(new)} would take the spent budget from ε = {before.epsilon:.6g} "
                f"to ε = {after.epsilon:.6g} ({after.method}, at δ = {self.total.delta:g}), "
                f"over the total {self.total}; lower their ε, or start a new budget for new "
                "data"
            )
        return after

    def charge(self, *new: PrivacyEvent) -> TightBound:
        after = self.check(*new)
        self.events.extend(new)
        return after

    def to_dict(self) -> dict[str, Any]:
        spent = self.spent
        return {
            "total": self.total.to_dict(),
            "spent": spent.to_dict(),
            "remaining_epsilon": max(0.0, self.total.epsilon - spent.epsilon),
            "events": [e.to_dict() for e in self.events],
        }


def _labels(events: Sequence[PrivacyEvent]) -> str:
    names = [e.label or e.kind for e in events]
    return "the release of " + ", ".join(repr(n) for n in names)


__all__ = [
    "KINDS",
    "METHODS",
    "PrivacyEvent",
    "TightAccountant",
    "TightBound",
    "basic",
    "compose",
    "event_of_release",
    "laplace_event",
    "pure_event",
    "zcdp_event",
]
