"""Node-id pair tables read and written without polars give what the table reader gives."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from privlab.cli.graph_attack import _id_columns, read_id_pairs
from privlab.errors import InputError
from privlab.io.id_pairs import read_plain_pairs, write_pairs

ROWS = st.lists(st.tuples(st.integers(0, 10**17), st.integers(0, 10**17)), max_size=20)


@settings(max_examples=100, deadline=None)
@given(ROWS, st.sampled_from(["\n", "\r\n"]), st.booleans(), st.booleans())
def test_the_plain_reader_agrees_with_the_table_reader(tmp_path_factory, rows, end, zeros, last):
    body = end.join(f"{a:03d},{b}" if zeros else f"{a},{b}" for a, b in rows)
    f = tmp_path_factory.mktemp("p") / "pairs.csv"
    f.write_text("aux,san" + end + body + (end if last and rows else ""), newline="")
    plain = read_plain_pairs(f, ("aux", "san"))
    assert plain is not None and plain.shape == (len(rows), 2)
    if rows:
        full = _id_columns(f)
        assert np.array_equal(plain[:, 0], full["aux"]) and np.array_equal(plain[:, 1], full["san"])


@pytest.mark.parametrize(
    "text",
    [
        "aux,san\n1, 2\n",
        "san,aux\n1,2\n",
        "aux,san\n1,\n",
        "aux,san\n-1,2\n",
        "aux,san\n1,2,3\n",
        '"aux","san"\n1,2\n',
        "aux,san\n1;2\n",
        "aux,san\n1,2\n\n3,4\n",
        "aux,san\n" + "9" * 19 + ",1\n",
    ],
)
def test_anything_else_goes_to_the_full_reader(tmp_path, text):
    f = tmp_path / "pairs.csv"
    f.write_text(text)
    assert read_plain_pairs(f, ("aux", "san")) is None


def test_a_bad_cell_is_still_named_by_line_and_column(tmp_path):
    f = tmp_path / "seeds.csv"
    f.write_text("aux,san\n1,2\nx,3\n")
    with pytest.raises(InputError, match=r"line 3, column 'aux'"):
        read_id_pairs(f, 10, 10)


def test_write_pairs_matches_polars_csv_and_writes_parquet(tmp_path):
    pairs = np.array([[0, 5], [12, 3], [7, 7]], dtype=np.int64)
    write_pairs(pairs, tmp_path / "m.csv")
    pl.DataFrame({"aux": pairs[:, 0], "san": pairs[:, 1]}).write_csv(tmp_path / "ref.csv")
    assert (tmp_path / "m.csv").read_bytes() == (tmp_path / "ref.csv").read_bytes()
    write_pairs(pairs[:0], tmp_path / "empty.csv")
    assert (tmp_path / "empty.csv").read_text() == "aux,san\n"
    write_pairs(pairs, tmp_path / "m.parquet")
    back = pl.read_parquet(tmp_path / "m.parquet")
    assert back.columns == ["aux", "san"] and back["aux"].to_list() == [0, 12, 7]
