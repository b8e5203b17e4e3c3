"""The generated census sample behind ``privlab demo``: deterministic and self-consistent."""

from __future__ import annotations

import pytest

from privlab.errors import ConfigError
from privlab.table.sample import census_sample


def test_same_seed_same_sample_other_seed_other_sample():
    a, b, c = census_sample(500, seed=1), census_sample(500, seed=1), census_sample(500, seed=2)
    assert a.frame.equals(b.frame)
    assert not a.frame.equals(c.frame)


def test_every_value_is_in_its_hierarchy_and_roles_are_columns():
    s = census_sample(2000)
    assert s.frame.height == 2000 and s.frame["id"].n_unique() == 2000
    table = s.micro_table()
    assert table.qi_codes.shape == (2000, len(s.quasi_identifiers))
    assert set(s.frame["disease"].unique()) <= {
        "None", "Flu", "Asthma", "Diabetes", "Heart disease", "Cancer"
    }  # fmt: skip
    ages = s.frame["age"].cast(int)
    assert ages.min() >= 17 and ages.max() <= 90


@pytest.mark.parametrize("n", [0, 9, -5, 2.5, True])
def test_too_small_or_not_a_count(n):
    with pytest.raises(ConfigError, match="at least 10 rows"):
        census_sample(n)
