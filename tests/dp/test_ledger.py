"""The persistent budget ledger: locked, atomic, refuses over-budget releases, no data."""

from __future__ import annotations

import json
import multiprocessing
import os
import time

import pytest

from privlab.dp.accountant import Budget
from privlab.dp.ledger import init_ledger, open_ledger, read_ledger
from privlab.dp.tight_accounting import pure_event
from privlab.errors import BudgetExceeded, ConfigError, InputError


def test_init_reserve_and_read_back(tmp_path):
    path = tmp_path / "budget.json"
    init_ledger(path, Budget(1.0, 1e-6))
    with open_ledger(path) as session:
        session.reserve([pure_event(0.3, label="count")], input_name="/secret/dir/visits.csv")
    ledger = read_ledger(path)
    (entry,) = ledger.entries
    assert entry.query == "count" and entry.input == "visits.csv"  # the name, not the folder
    assert entry.event.epsilon == 0.3 and ledger.total == Budget(1.0, 1e-6)
    status = ledger.status()
    assert status["basic"]["remaining"]["epsilon"] == pytest.approx(0.7)
    assert status["tight"]["spent"]["epsilon"] <= 0.3 + 1e-9


def test_refused_release_writes_nothing(tmp_path):
    path = tmp_path / "budget.json"
    init_ledger(path, Budget(1.0))
    with open_ledger(path) as session:
        session.reserve([pure_event(0.8, label="count")])
    before = path.read_bytes()
    with pytest.raises(BudgetExceeded, match="'sum'"), open_ledger(path) as session:
        session.reserve([pure_event(0.1, label="mean"), pure_event(0.2, label="sum")])
    assert path.read_bytes() == before
    # an error after the reservation (the release failed) writes nothing either
    with pytest.raises(RuntimeError), open_ledger(path) as session:
        session.reserve([pure_event(0.1, label="mean")])
        raise RuntimeError("the mechanism failed")
    assert path.read_bytes() == before
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_created_on_first_use_and_total_fixed(tmp_path):
    path = tmp_path / "new.json"
    with pytest.raises(InputError, match="budget init"), open_ledger(path):
        pass
    assert not path.exists()
    with open_ledger(path, create_total=Budget(2.0)) as session:
        session.reserve([pure_event(0.5)])
    assert len(read_ledger(path).entries) == 1
    with (
        pytest.raises(ConfigError, match="already holds"),
        open_ledger(path, create_total=Budget(3.0)),
    ):
        pass
    with pytest.raises(InputError, match="exists already"):
        init_ledger(path, Budget(1.0))


def test_symlink_stays_a_link_and_devices_are_refused(tmp_path):
    real = tmp_path / "real.json"
    init_ledger(real, Budget(1.0))
    link = tmp_path / "link.json"
    link.symlink_to(real)
    with open_ledger(link) as session:
        session.reserve([pure_event(0.1)])
    assert link.is_symlink() and len(read_ledger(real).entries) == 1
    with pytest.raises(InputError, match="device"):
        init_ledger("/dev/null", Budget(1.0))
    with pytest.raises(InputError, match="folder"):
        read_ledger(tmp_path)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("not json", "not valid JSON"),
        ('{"a": 1}', "not a privlab budget ledger"),
        ('{"privlab_budget_ledger": 1, "total": {"epsilon": -1}}', "damaged"),
        ('{"privlab_budget_ledger": 1, "total": {"epsilon": NaN}}', "not valid JSON"),
        (
            '{"privlab_budget_ledger": 1, "total": {"epsilon": 1}, "releases": [{"time": "t"}]}',
            "damaged",
        ),
    ],
)
def test_damaged_ledgers_are_named(tmp_path, text, match):
    path = tmp_path / "b.json"
    path.write_text(text)
    with pytest.raises(InputError, match=match):
        read_ledger(path)


def _racer(path: str, barrier, results) -> None:
    barrier.wait()
    try:
        with open_ledger(path, timeout=30) as session:
            session.reserve([pure_event(0.3, label="count")])
            time.sleep(0.02)  # hold the lock a while: the others must wait, not interleave
        results.put("ok")
    except BudgetExceeded:
        results.put("refused")


def test_concurrent_writers_spend_exactly_the_budget(tmp_path):
    """Eight processes race to spend 0.3 each of a total 1.0: exactly three succeed, and the
    ledger holds exactly their three releases."""
    path = tmp_path / "race.json"
    init_ledger(path, Budget(1.0))
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(8), ctx.Queue()
    procs = [ctx.Process(target=_racer, args=(str(path), barrier, results)) for _ in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    outcomes = sorted(results.get(timeout=5) for _ in procs)
    assert outcomes == ["ok"] * 3 + ["refused"] * 5
    assert len(read_ledger(path).entries) == 3


def test_ledger_holds_no_data_values(tmp_path):
    path = tmp_path / "b.json"
    with open_ledger(path, create_total=Budget(1.0)) as session:
        session.reserve([pure_event(0.1, label="sum:income:0:99999")], input_name="data.csv")
    data = json.loads(path.read_text())
    (entry,) = data["releases"]
    assert set(entry) == {"time", "query", "input", "mechanism", "kind", "epsilon", "delta"}
