"""A privacy-budget ledger that persists across runs: a JSON file, locked and atomic.

The file holds the total budget (ε, δ) and one entry per past release — its time (UTC),
query label, ε, δ (and ρ or noise multiplier where known), mechanism kind and the *name*
of the input file (never its folder, never a value of the data).  Example::

    {"privlab_budget_ledger": 1, "created": "2026-11-28T09:00:00Z",
     "total": {"epsilon": 1.0, "delta": 1e-06},
     "releases": [{"time": "2026-11-28T09:01:02Z", "query": "count", "input": "visits.csv",
                   "mechanism": "geometric", "kind": "pure", "epsilon": 0.2, "delta": 0.0}]}

:func:`open_ledger` is the only way to spend from it: it takes an exclusive ``fcntl.flock``
on the lock file ``FILE.lock`` (next to the real file, so two symbolic links to one ledger
share a lock), reads the ledger (or starts one with the given total), and yields a
:class:`LedgerSession`.  ``session.reserve(events)`` checks the new releases against the
total with :class:`~privlab.dp.tight_accounting.TightAccountant` — raising
:class:`~privlab.errors.BudgetExceeded` *before any noise is drawn* — and on leaving the
``with`` block without an exception the ledger is written atomically (temporary file, then
``os.replace``; a symbolic link is written through and stays a link; a device, FIFO or
folder is refused).  An exception inside the block writes nothing.  Readers
(:func:`read_ledger`) need no lock: a rename is atomic.  Each operation is O(ledger).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from privlab.dp.accountant import Budget
from privlab.dp.tight_accounting import PrivacyEvent, TightAccountant, TightBound, basic
from privlab.errors import ConfigError, InputError
from privlab.io.atomic import atomic_path, is_special, resolve_target

FORMAT_KEY = "privlab_budget_ledger"
VERSION = 1
#: Seconds to wait for another writer's lock before giving up.
LOCK_TIMEOUT = 60.0
_ENTRY_KEYS = ("time", "query", "input", "mechanism")


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class LedgerEntry:
    """One past release: when, which query, on which input file (name only), at what cost."""

    time: str
    query: str
    input: str
    mechanism: str
    event: PrivacyEvent

    def to_dict(self) -> dict[str, Any]:
        out = {"time": self.time, "query": self.query, "input": self.input,
               "mechanism": self.mechanism}  # fmt: skip
        ev = self.event.to_dict()
        ev.pop("label", None)
        return {**out, **ev}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LedgerEntry:
        if not isinstance(data, dict):
            raise ConfigError("a release entry must be a JSON object")
        missing = [k for k in _ENTRY_KEYS if not isinstance(data.get(k), str)]
        if missing:
            raise ConfigError(f"a release entry lacks the text field(s) {missing}")
        rest = {k: v for k, v in data.items() if k not in _ENTRY_KEYS}
        event = PrivacyEvent.from_dict({**rest, "label": data["query"]})
        return cls(data["time"], data["query"], data["input"], data["mechanism"], event)


@dataclass
class BudgetLedger:
    """The total budget and the releases charged to it so far."""

    total: Budget
    entries: list[LedgerEntry] = field(default_factory=list)
    created: str = field(default_factory=_now)

    @property
    def events(self) -> list[PrivacyEvent]:
        return [e.event for e in self.entries]

    def accountant(self) -> TightAccountant:
        return TightAccountant(self.total, events=self.events)

    def status(self) -> dict[str, Any]:
        """Spent and remaining budget by basic composition and by the tightest method."""
        spent_basic = basic(self.events) if self.entries else Budget(0.0)
        tight: TightBound = self.accountant().spent
        return {
            "total": self.total.to_dict(),
            "releases": len(self.entries),
            "basic": {
                "spent": spent_basic.to_dict(),
                "remaining": {
                    "epsilon": max(0.0, self.total.epsilon - spent_basic.epsilon),
                    "delta": max(0.0, self.total.delta - spent_basic.delta),
                },
            },
            "tight": {
                "method": tight.method,
                "spent": {"epsilon": tight.epsilon, "delta": tight.delta},
                "remaining_epsilon": max(0.0, self.total.epsilon - tight.epsilon),
                "by_method": tight.by_method,
            },
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            FORMAT_KEY: VERSION,
            "created": self.created,
            "total": self.total.to_dict(),
            "releases": [e.to_dict() for e in self.entries],
        }

    @classmethod
    def from_dict(cls, data: Any, source: str = "budget file") -> BudgetLedger:
        if not isinstance(data, dict) or data.get(FORMAT_KEY) != VERSION:
            raise InputError(
                f'{source}: not a privlab budget ledger (no "{FORMAT_KEY}": {VERSION}); '
                "create one with 'privlab dp budget init'"
            )
        try:
            total = data.get("total")
            if not isinstance(total, dict):
                raise ConfigError("no total budget")
            budget = Budget(total.get("epsilon"), total.get("delta", 0.0))
            if budget.epsilon == 0:
                raise ConfigError("the total ε is 0")
            releases = data.get("releases", [])
            if not isinstance(releases, list):
                raise ConfigError("'releases' must be a list")
            entries = [LedgerEntry.from_dict(r) for r in releases]
            created = str(data.get("created", ""))
        except ConfigError as exc:
            raise InputError(f"{source}: damaged budget ledger: {exc}") from None
        return cls(budget, entries, created)


def _real_target(path: str | os.PathLike[str]) -> Path:
    real = resolve_target(path)
    if is_special(real):
        raise InputError(
            f"{os.fspath(path)}: is a device or a special file, not a budget ledger; give a "
            "regular file's name"
        )
    return real


def read_ledger(path: str | os.PathLike[str]) -> BudgetLedger:
    """The ledger in ``path`` (no lock: writers replace the file atomically)."""
    real = _real_target(path)
    if not real.exists():
        raise InputError(
            f"{os.fspath(path)}: no such budget ledger; create it with 'privlab dp budget init "
            f"{os.fspath(path)} --epsilon E [--delta D]'"
        )
    try:
        text = real.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{os.fspath(path)}: cannot read the budget ledger ({exc})") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (json.JSONDecodeError, ValueError) as exc:
        raise InputError(
            f"{os.fspath(path)}: not valid JSON ({exc}); not a budget ledger"
        ) from None
    return BudgetLedger.from_dict(data, os.fspath(path))


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number in a budget ledger")


def _write(ledger: BudgetLedger, path: str | os.PathLike[str]) -> None:
    text = json.dumps(ledger.to_dict(), indent=1, allow_nan=False) + "\n"
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())


@contextlib.contextmanager
def _locked(real: Path, timeout: float) -> Iterator[None]:
    lock = real.with_name(real.name + ".lock")
    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666)
    except OSError as exc:
        raise InputError(f"{lock}: cannot open the ledger's lock file ({exc.strerror})") from None
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise InputError(
                        f"{real}: the budget ledger is locked by another run for over "
                        f"{timeout:g} s; try again when it has finished"
                    ) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)  # releases the lock


@dataclass
class LedgerSession:
    """A locked ledger being spent from; see :func:`open_ledger`."""

    ledger: BudgetLedger
    path: Path
    created: bool
    pending: list[LedgerEntry] = field(default_factory=list)

    def reserve(self, events: Sequence[PrivacyEvent], *, input_name: str = "",
                mechanisms: Sequence[str] | None = None) -> TightBound:  # fmt: skip
        """Check ``events`` (all at once) against the total, then hold them for the write.

        BudgetExceeded, naming the refused queries, when they do not fit; nothing is held
        then.
        """
        acc = TightAccountant(
            self.ledger.total, events=[*self.ledger.events, *(e.event for e in self.pending)]
        )
        after = acc.check(*events)
        name = Path(input_name).name if input_name else ""
        kinds = list(mechanisms) if mechanisms is not None else [e.kind for e in events]
        if len(kinds) != len(events):
            raise ConfigError("mechanisms: give one per event")
        stamp = _now()
        for e, mech in zip(events, kinds, strict=True):
            self.pending.append(LedgerEntry(stamp, e.label or e.kind, name, mech, e))
        return after


@contextlib.contextmanager
def open_ledger(
    path: str | os.PathLike[str],
    *,
    create_total: Budget | None = None,
    timeout: float = LOCK_TIMEOUT,
) -> Iterator[LedgerSession]:
    """Lock the ledger in ``path`` (starting one with ``create_total`` if it does not exist),
    yield a :class:`LedgerSession`, and write the reserved releases atomically on success.

    A ``create_total`` that differs from an existing ledger's total is an error (a total is
    fixed when the ledger is created).  An exception inside the block writes nothing.
    """
    real = _real_target(path)
    if timeout <= 0 or not math.isfinite(timeout):
        raise ConfigError(f"timeout = {timeout!r}: give a number of seconds > 0")
    if create_total is None and not real.exists():
        read_ledger(path)  # the "no such ledger, create it" error, before any lock file
    with _locked(real, timeout):
        created = not real.exists()
        if created:
            if create_total is None:
                read_ledger(path)  # raises the "no such ledger, create it" error
            ledger = BudgetLedger(create_total)
        else:
            ledger = read_ledger(path)
            if create_total is not None and not _same_budget(create_total, ledger.total):
                raise _total_fixed(path, ledger.total, create_total)
        session = LedgerSession(ledger, real, created)
        yield session
        if session.pending or created:
            ledger.entries.extend(session.pending)
            _write(ledger, path)


def precheck(
    path: str | os.PathLike[str],
    events: Sequence[PrivacyEvent],
    *,
    create_total: Budget | None = None,
) -> None:
    """The checks of :func:`open_ledger` and ``reserve`` without the lock: a release that is
    refused here is refused before any file (not even the lock file) is created.  Under the
    lock :func:`open_ledger` checks again, against the ledger as it is then."""
    real = _real_target(path)
    if not real.exists():
        if create_total is None:
            read_ledger(path)
        TightAccountant(create_total).check(*events)
        return
    ledger = read_ledger(path)
    if create_total is not None and not _same_budget(create_total, ledger.total):
        raise _total_fixed(path, ledger.total, create_total)
    ledger.accountant().check(*events)


def _total_fixed(path: str | os.PathLike[str], held: Budget, given: Budget) -> ConfigError:
    return ConfigError(
        f"{os.fspath(path)} already holds the total budget {held}; a total is fixed when the "
        f"ledger is created ({given} given). Drop --total-epsilon/--total-delta, or use a new "
        "ledger file"
    )


def _same_budget(a: Budget, b: Budget) -> bool:
    return math.isclose(a.epsilon, b.epsilon, rel_tol=1e-12) and math.isclose(
        a.delta, b.delta, rel_tol=1e-12, abs_tol=1e-300
    )


def init_ledger(path: str | os.PathLike[str], total: Budget) -> BudgetLedger:
    """Create a ledger with ``total`` and no releases; InputError if ``path`` exists."""
    real = _real_target(path)
    if total.epsilon == 0:
        raise ConfigError("epsilon = 0 leaves nothing to spend; give ε > 0")
    if real.exists():  # checked before the lock file is made, and again under the lock
        raise _exists(path)
    with _locked(real, LOCK_TIMEOUT):
        if real.exists():
            raise _exists(path)
        ledger = BudgetLedger(total)
        _write(ledger, path)
    return ledger


def _exists(path: str | os.PathLike[str]) -> InputError:
    return InputError(
        f"{os.fspath(path)}: exists already; a ledger is never reset — show it with "
        "'privlab dp budget show', or give a new file name"
    )


__all__ = [
    "BudgetLedger",
    "LedgerEntry",
    "LedgerSession",
    "init_ledger",
    "open_ledger",
    "precheck",
    "read_ledger",
]
