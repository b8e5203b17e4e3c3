"""Reading ARX hierarchy files."""

from __future__ import annotations

from privlab.table.hierarchy import Hierarchy


def test_a_byte_order_mark_is_not_part_of_the_first_value(tmp_path):
    path = tmp_path / "h.csv"
    path.write_bytes("\ufeffMale;*\nFemale;*\n".encode())
    h = Hierarchy.from_csv(path)
    assert h.leaves[0] == "Male"
