"""Seed 001's worked example (dissertation Ch. 2), shared by the permutation and query tests."""

from __future__ import annotations

import polars as pl

# Table 2.1 (L490–502): name, age, zipcode, gender, salary.
TABLE_2_1 = pl.DataFrame(
    {
        "name": ["Alex", "Bob", "Carol", "Debra", "Evan", "Frank", "Gary", "Henry", "Ina"],
        "age": [35, 38, 40, 41, 43, 47, 52, 53, 58],
        "zipcode": [27101, 27120, 27130, 27229, 27269, 27243, 27656, 27686, 27635],
        "gender": ["M", "M", "M", "F", "F", "M", "M", "F", "M"],
        "salary": [54_000, 55_000, 56_000, 65_000, 75_000, 70_000, 80_000, 75_000, 85_000],
    }
)
QI = ["age", "zipcode", "gender"]
# The partition {1–3}, {4–6}, {7–9} of Tables 2.2 and 2.3 (group ids become 0, 1, 2).
PARTITION = [1, 1, 1, 2, 2, 2, 3, 3, 3]
# Table 2.4 (L726–736): group, hits, sum-lb, sum-ub, min-lb, min-ub, in $K.
TABLE_2_4 = [
    (0, 1, 54, 56, 54, 56),
    (0, 2, 109, 111, 54, 55),
    (0, 3, 165, 165, 54, 54),
    (1, 1, 65, 75, 65, 75),
    (1, 2, 135, 145, 65, 70),
    (1, 3, 210, 210, 65, 65),
    (2, 1, 75, 85, 75, 85),
    (2, 2, 155, 165, 75, 80),
    (2, 3, 240, 240, 75, 75),
]
