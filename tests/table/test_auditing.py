"""Simulatable auditing of SUM and MAX queries (Kenthapadi, Mishra & Nissim 2005): it stops
the differencing attack, and its denials can be reproduced from the public transcript."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.errors import InputError
from privlab.table.attacks.differencing import differencing_attack
from privlab.table.auditing import MaxAuditor, NaiveMaxAuditor, SumAuditor, max_disclosure

HIV = [0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0]


def _m(n, rows):
    out = np.zeros(n, dtype=bool)
    out[list(rows)] = True
    return out


def test_sum_auditor_denies_the_query_completing_the_difference():
    a = SumAuditor(HIV)
    assert a.ask(np.ones(12, bool)).value == 4.0  # how many are HIV+?
    denied = a.ask(np.arange(12) != 4)  # how many not named X are HIV+?
    assert denied.denied and denied.value is None
    auditor = SumAuditor(HIV)
    r = differencing_attack(auditor, np.arange(12) == 4, seed=3)
    assert r.value is None  # the tracker fails too: a query it needs is denied
    assert sum(a is None for _, a in auditor.transcript) >= 2


def test_tracker_is_denied_exactly_at_the_completing_query():
    c, t = np.arange(12) == 4, np.arange(12) % 2 == 1  # X is row 4, the tracker the odd rows
    a = SumAuditor(HIV)
    assert not a.ask(np.ones(12, bool)).denied and not a.ask(c | t).denied
    assert a.ask(t).denied  # sum(C ∨ T) − sum(T) = x_4
    # row 4 is in ¬T: sum(¬T) − (sum(all) − sum(C ∨ T)) = x_4, and C ∨ ¬T = ¬T
    assert a.ask(~t).denied and a.ask(c | ~t).denied
    assert not a.ask(np.arange(12) < 6).denied  # an unrelated query is still answered


def test_sum_disclosure_is_linear_algebra_hand_example():
    a = SumAuditor([3, 5, 7])
    assert a.ask([1, 1, 0]).value == 8.0
    assert not a.would_deny([0, 1, 1])  # {x1+x2, x2+x3}: nothing fixed
    a.ask([0, 1, 1])
    assert a.would_deny([1, 0, 1])  # x1+x3 with the two: x2 = (8 + 12 − 10)/2
    assert a.would_deny([0, 0, 1]) and a.would_deny([1, 1, 1])  # x1+x2+x3 − (x1+x2) = x3


def test_max_disclosure_hand_example():
    q1, q2 = _m(3, [0, 1, 2]), _m(3, [0, 1])
    assert max_disclosure([q1, q2], [9.0, 5.0], 3) == (True, [2])  # x3 = 9 is forced
    assert max_disclosure([q1, q2], [9.0, 9.0], 3) == (True, [])  # x1 or x2 is 9
    assert max_disclosure([q1, q2], [5.0, 9.0], 3)[0] is False  # a subset above its superset


def test_the_naive_max_auditor_leaks_the_simulatable_one_does_not():
    """KMN05's example: after max(x1, x2, x3) = 9, ask max(x1, x2).  The naive auditor denies
    exactly when the true answer is below 9 — so its denial reveals x3 = 9."""
    leaky, safe = [1.0, 2.0, 9.0], [9.0, 2.0, 1.0]  # x3 = 9 in the first only
    q1, q2 = np.ones(3, bool), _m(3, [0, 1])
    naive = [NaiveMaxAuditor(d) for d in (leaky, safe)]
    for a in naive:
        a.ask(q1)
    assert naive[0].ask(q2).denied and not naive[1].ask(q2).denied  # the denial is the leak
    for data in (leaky, safe):
        sim = MaxAuditor(data)
        sim.ask(q1)
        assert sim.ask(q2).denied  # denied whatever the data: it says nothing


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 7), st.data())
def test_simulatable_a_simulator_without_data_makes_the_same_decisions(n, data):
    kind = data.draw(st.sampled_from(["sum", "max"]))
    values = data.draw(st.lists(st.integers(-50, 50), min_size=n, max_size=n, unique=True))
    queries = data.draw(st.lists(st.lists(st.booleans(), min_size=n, max_size=n).filter(any),
                                 min_size=1, max_size=8))  # fmt: skip
    cls = SumAuditor if kind == "sum" else MaxAuditor
    real, sim = cls(values), cls(n=n)
    for q in queries:
        answer = real.ask(q)
        assert sim.replay(q, answer.value) == answer.denied
    # and the answers given never disclose a value
    if kind == "max":
        given_ = [(q, a) for q, a in real.transcript if a is not None]
        ok, disclosed = max_disclosure([q for q, _ in given_], [a for _, a in given_], n)
        assert ok and not disclosed
    else:
        assert not SumAuditor._disclosed(real._rows)


def test_auditor_input_errors():
    with pytest.raises(InputError, match="distinct"):
        MaxAuditor([1, 1, 2])
    with pytest.raises(InputError, match="non-empty query set"):
        SumAuditor([1, 2]).ask([False, False])
    with pytest.raises(InputError, match="simulator"):
        SumAuditor(n=2).ask([True, True])
