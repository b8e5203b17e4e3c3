"""Issue 15, scope 10: ``privlab --help`` starts without loading any command's module."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from privlab.cli.main import COMMANDS, app, load_command

HEAVY = ("numpy", "polars", "scipy", "sklearn", "duckdb", "matplotlib", "networkx", "igraph")

PROBE = """
import sys
from privlab.cli.main import app
sys.argv = ["privlab", *sys.argv[1:]]
try:
    app()
except SystemExit:
    pass
print("LOADED", *sorted(m for m in {heavy!r} if m in sys.modules))
"""


def _loaded(*args: str) -> list[str]:
    probe = PROBE.format(heavy=HEAVY)
    out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    line = next(ln for ln in out.splitlines() if ln.startswith("LOADED"))
    return line.split()[1:]


def test_top_level_help_imports_no_heavy_library():
    assert _loaded("--help") == []


def test_top_level_help_lists_every_command_with_its_own_short_help():
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    for name, (_, _, short) in COMMANDS.items():
        command = load_command(name)
        assert command.help.strip().split("\n")[0].startswith(short[:40]), name
        assert name in result.stdout


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_command_runs_through_the_lazy_group(name):
    result = CliRunner().invoke(app, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage: privlab " + name in " ".join(result.stdout.split())
