"""Issue 15, scope 10: ``privlab --help`` starts without loading any command's module, and
every command's ``--help`` without SciPy, scikit-learn, DuckDB or matplotlib.

The help tests run each ``--help`` in a fresh interpreter (one per command, about half a
second each); ``benchmarks/bench_cli_start.py`` measures their CPU time.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.core import TyperGroup
from typer.testing import CliRunner

from privlab.cli import lazy
from privlab.cli.graph_commands import ATTACKS
from privlab.cli.graph_commands import COMMANDS as GRAPH_COMMANDS
from privlab.cli.main import COMMANDS, app, load_command

HEAVY = ("numpy", "polars", "scipy", "sklearn", "duckdb", "matplotlib", "networkx", "igraph")
#: What no command's --help may load (numpy and polars may: the command modules use them).
NOT_FOR_HELP = ("scipy", "sklearn", "duckdb", "matplotlib", "networkx", "igraph")

#: Every command of the command line, as typed after ``privlab``.
COMMAND_PATHS = [
    "table anonymize", "table check", "table risk", "table hierarchy", "table permute",
    "table query",
    "dp release", "dp params", "dp safe-kanon",
    "graph anonymize", "graph pair", "graph utility",
    "graph attack refine", "graph attack h1-risk", "graph attack subgraph",
    "graph attack active", "graph attack propagate", "graph attack learned",
    "graph attack kl", "graph attack dv", "graph attack yg", "graph attack sh",
    "graph attack nka",
    "graph attack obfuscation", "graph attack links", "graph attack group",
    "graph attack passive", "graph attack errors",
    "graph attack pfg",
    "graph attack cut",
    "audit", "report", "bench", "demo",
    "graph generalize",
    "graph attack jls", "graph attack jlsb",
    "dp above-threshold", "dp quantile", "dp mode", "dp kmeans",
    "dp node-degrees",
    "dp budget init", "dp budget show", "dp plan",
]  # fmt: skip

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


LAZY_GROUPS = {"": COMMANDS, "graph ": GRAPH_COMMANDS, "graph attack ": ATTACKS}


@pytest.mark.parametrize("prefix", list(LAZY_GROUPS))
def test_each_lazy_group_lists_every_command_with_its_own_short_help(prefix):
    """A lazy group's help comes from its table (nothing imported): each short help there
    must be the first sentence of the loaded command's own help."""
    table = LAZY_GROUPS[prefix]
    result = CliRunner().invoke(app, [*prefix.split(), "--help"])
    assert result.exit_code == 0
    listed = " ".join(result.stdout.split())
    for name, (_, _, short) in table.items():
        command = lazy.load_command(table, name)
        first = " ".join(command.help.strip().split("\n\n")[0].split())
        assert first.startswith(" ".join(short.split())), f"privlab {prefix}{name}"
        assert name in result.stdout and short.split()[0] in listed


def children(command) -> dict:
    """A group's subcommands, loading a lazy group's from its table (neither reads the
    context)."""
    if not isinstance(command, TyperGroup):
        return {}
    return {name: command.get_command(None, name) for name in command.list_commands(None)}


def command_paths() -> list[str]:
    """Every leaf command, found by walking the loaded command tree."""

    def walk(command, path):
        if not isinstance(command, TyperGroup):
            yield " ".join(path)
            return
        for name, child in children(command).items():
            yield from walk(child, [*path, name])

    return [p for name in COMMANDS for p in walk(load_command(name), [name])]


def test_the_list_of_commands_is_complete():
    assert sorted(command_paths()) == sorted(COMMAND_PATHS)


@pytest.mark.parametrize("path", COMMAND_PATHS)
def test_each_command_help_loads_no_heavy_library(path):
    loaded = _loaded(*path.split(), "--help")
    assert not set(loaded) & set(NOT_FOR_HELP), f"privlab {path} --help loads {loaded}"


@pytest.mark.parametrize("path", ["table", "dp", "graph", "graph attack"])
def test_each_group_help_loads_no_heavy_library(path):
    loaded = _loaded(*path.split(), "--help")
    assert not set(loaded) & set(NOT_FOR_HELP), f"privlab {path} --help loads {loaded}"


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_command_runs_through_the_lazy_group(name):
    result = CliRunner().invoke(app, [name, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage: privlab " + name in " ".join(result.stdout.split())
