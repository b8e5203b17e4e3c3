"""Without pyarrow, pandas input gets a PrivlabError naming the fix, not polars' ImportError.

Runs privlab for real in a subprocess where pyarrow cannot be imported: a ``sitecustomize``
module on the subprocess's path installs an import hook that refuses ``pyarrow``, as an
environment without the package would.  polars input and Excel workbooks need no pyarrow.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl

import privlab

NO_PYARROW = '''
import sys


class _NoPyarrow:
    """Finds nothing for pyarrow: importing it fails as for a package not installed."""

    def find_spec(self, name, path=None, target=None):
        if name == "pyarrow" or name.startswith("pyarrow."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NoPyarrow())
'''

SCRIPT = """
import sys

import pandas as pd
import polars as pl

from privlab.errors import PrivlabError
from privlab.io.delimited import read_table
from privlab.table.anonymize import anonymize

try:
    import pyarrow  # noqa: F401
except ImportError:
    print("pyarrow: missing")
frame = pd.DataFrame({"q": ["a", "b"] * 4, "x": list(range(8))})
try:
    anonymize(frame, quasi_identifiers=["q"], hierarchies={"q": "flat"}, insensitive=["x"], k=2)
except PrivlabError as exc:
    print(f"PrivlabError: {exc}")
release = anonymize(pl.from_dict(frame.to_dict("list")), quasi_identifiers=["q"],
                    hierarchies={"q": "flat"}, insensitive=["x"], k=2)
print(f"polars: {release.data.height} rows")
print(f"xlsx: {read_table(sys.argv[1]).rows()}")
"""


def test_pandas_input_without_pyarrow_names_the_extra(tmp_path):
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(NO_PYARROW, encoding="utf-8")
    workbook = tmp_path / "t.xlsx"
    pl.DataFrame({"zip": ["007"], "age": [39]}).write_excel(workbook)
    src = Path(privlab.__file__).resolve().parents[1]  # the privlab under test
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(shim), str(src)])}
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT), str(workbook)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "pyarrow: missing"
    assert lines[1] == (
        "PrivlabError: reading a pandas DataFrame needs the pyarrow package, which is not "
        "installed; install privlab's pandas extra: pip install 'privlab[pandas]'"
    )
    assert lines[2:] == ["polars: 8 rows", "xlsx: [('007', '39')]"]
