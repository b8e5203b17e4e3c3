"""benchmarks/nka_visit_order.py: the Java HashMap iteration order it replays the authors' NKA
code in (JUNG keeps vertices in a java.util.HashMap keyed by the vertex number as a String),
checked by hand from String.hashCode."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "nka_visit_order.py"


@pytest.fixture(scope="module")
def vo():
    spec = importlib.util.spec_from_file_location("nka_visit_order", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_java_order_of_twenty_keys(vo):
    # keys "1".."20": 20 entries > 0.75·16, so 32 buckets.  hashCode("1".."9") = 49..57 ->
    # buckets 17..25; "10" = 31·49 + 48 = 1567 -> 31; "11".."19" = 1568..1576 -> 0..8;
    # "20" = 31·50 + 48 = 1598 -> 30.  Node id = key − 1.
    got = vo.java_hashmap_order(np.arange(20)).tolist()
    assert got == [10, 11, 12, 13, 14, 15, 16, 17, 18, 0, 1, 2, 3, 4, 5, 6, 7, 8, 19, 9]


def test_java_order_keeps_insertion_order_inside_a_bucket(vo):
    # keys "1".."12": 16 buckets; "1" (49) and "12" (1569) both land in bucket 1, "11" in 0,
    # "10" (1567) in 15.  Inside bucket 1 the entry inserted first comes first.
    ids = np.arange(12)
    assert vo.java_hashmap_order(ids).tolist() == [10, 0, 11, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    rev = vo.java_hashmap_order(ids[::-1].copy()).tolist()
    assert rev == [10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_java_order_is_a_permutation(vo):
    ids = np.random.default_rng(3).permutation(5000)[:1234]
    got = vo.java_hashmap_order(ids)
    assert sorted(got.tolist()) == sorted(ids.tolist())
