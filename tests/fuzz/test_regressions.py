"""Inputs the parser fuzz tests found, kept as regular regression tests.

Each once escaped as an exception other than a PrivlabError (or hung, or was silently
accepted); each must now be rejected with an error naming the file or the option.
"""

from __future__ import annotations

import pytest

from privlab.errors import InputError
from privlab.io.delimited import read_table


def test_a_csv_file_holding_only_a_byte_order_mark_has_an_empty_header(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf")  # was polars.exceptions.NoDataError
    with pytest.raises(InputError, match="empty header line"):
        read_table(path)
