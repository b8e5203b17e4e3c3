"""privlab.cli.fast_params: command-line values converted without Typer's Pydantic layer
give exactly Typer's values and Typer's error messages; and the seeded graph attacks the
SecGraph bench runs (``propagate``, ``yg``, ``dv``, ``kl`` with ``--json --quiet``) load no
module they do not need (Pydantic, rich, networkx, igraph, polars, matplotlib…).
"""

from __future__ import annotations

import enum
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from privlab.cli import fast_params
from privlab.graph.core import Graph, write_graph

coercion = pytest.importorskip("typer._coercion")  # Typer without Pydantic: nothing to test
from typer.models import ArgumentInfo, OptionInfo  # noqa: E402


def typer_value(annotation, value, info):
    """Typer's own conversion of ``value``: the value, or ('error', message)."""
    runtime = coercion.build_runtime_param(coercion.resolve_type_descriptor(annotation, info))
    try:
        return runtime._coerce_value(value, param=None, ctx=None)
    except Exception as exc:  # compared as they are
        return ("error", f"{type(exc).__name__}: {exc}")


def same(a, b) -> bool:
    """Equal, of the same type, and for floats the same bits (-0.0 is not 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return math.copysign(1, a) == math.copysign(1, b) and (a == b or (a != a and b != b))
    return a == b


NUMBER_TEXT = st.text(alphabet="0123456789+-.eE _xinfa\t", max_size=12)
BOUND = st.one_of(st.none(), st.integers(-5, 5), st.floats(-5, 5))


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from([int, float]),
    value=st.one_of(NUMBER_TEXT, st.integers(-(10**20), 10**20), st.floats(), st.booleans()),
    low=BOUND,
    high=BOUND,
)
def test_numbers_are_typers_own_or_left_to_typer(kind, value, low, high):
    if kind is int:  # Typer takes whole bounds for a whole number
        low, high = (None if b is None else math.floor(b) for b in (low, high))
    info = OptionInfo(min=low, max=high)
    got = fast_params.fast_value(kind.__name__, value, info)
    if got is not fast_params.SLOW:
        assert same(got, typer_value(kind, value, info)), (value, got)


def test_the_plain_forms_take_the_fast_path():
    info = OptionInfo(min=0)
    plain = [(int, "007", 7), (int, "+3", 3), (float, "0.1", 0.1), (float, ".5", 0.5),
             (float, "1e-3", 0.001), (float, 2, 2.0)]  # fmt: skip
    for kind, text, value in plain:
        assert same(fast_params.fast_value(kind.__name__, text, info), value)
    for kind, text in [(int, " 7"), (int, "1_000"), (float, "inf"), (int, "-1"), (float, "nan")]:
        assert fast_params.fast_value(kind.__name__, text, info) is fast_params.SLOW


class Colour(enum.Enum):
    red = "red"
    green = "green"


def demo_app() -> typer.Typer:
    """One command with a parameter of each kind the fast path handles."""
    app = typer.Typer(add_completion=False)

    @app.command()
    def run(
        folder: Annotated[Path, typer.Argument(exists=True, file_okay=False)],
        out: Annotated[Path, typer.Option("-o")] = Path("x.csv"),
        name: Annotated[str, typer.Option()] = "a",
        k: Annotated[int, typer.Option(min=1, max=9)] = 3,
        theta: Annotated[float, typer.Option(min=0.0)] = 0.1,
        colour: Annotated[Colour, typer.Option(case_sensitive=False)] = Colour.red,
        flag: Annotated[bool, typer.Option("--flag")] = False,
        many: Annotated[list[int] | None, typer.Option("--many")] = None,
    ) -> None:
        typer.echo(repr((folder, out, name, k, theta, colour, flag, many)))

    return app


def _invoke(args: list[str], fast: bool) -> tuple[int, bytes]:
    """Exit code and output of the demo command, with or without the fast converters."""
    command = typer.main.get_command(demo_app())
    if fast:
        fast_params.install(command)
    with CliRunner().isolation() as (_, _, output):
        try:
            command.main(args, prog_name="run")
            code = 0
        except SystemExit as exc:
            code = exc.code
        sys.stdout.flush()
        sys.stderr.flush()
        return code, output.getvalue()


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--k", "4", "--theta", "2.5", "--colour", "GREEN", "--name", "b", "--flag", "-o", "y"],
        ["--many", "1", "--many", "2"],
        ["--k", "0"], ["--k", "10"], ["--k", "x"], ["--k", " 5"], ["--k", "5.0"],
        ["--theta", "-1"], ["--theta", "inf"], ["--theta", "1_0"], ["--theta", "e"],
        ["--colour", "blue"], ["--many", "z"], ["-o", ""], ["-o", "a\x00b"],
    ],
)  # fmt: skip
def test_a_command_behaves_as_with_typers_converters(tmp_path, args):
    for folder in (str(tmp_path), str(tmp_path / "missing"), str(tmp_path / "f.txt")):
        (tmp_path / "f.txt").write_text("x")
        full = [folder, *args]
        assert _invoke(full, fast=True) == _invoke(full, fast=False), full


def test_install_gives_the_plain_parameters_a_fast_converter():
    command = fast_params.install(typer.main.get_command(demo_app()))
    kinds = {
        p.name: getattr(p._runtime_param, "kind", None)
        for p in command.params
        if hasattr(p, "_runtime_param")
    }
    assert kinds == {"folder": "path", "out": "path", "name": "str", "k": "int", "theta": "float",
                     "colour": "choice", "flag": "bool", "many": None}  # fmt: skip


def test_a_path_argument_and_option_convert_alike():
    for info in (ArgumentInfo(), OptionInfo(exists=True), OptionInfo(resolve_path=True)):
        descriptor = coercion.resolve_type_descriptor(Path, info)
        kind, extra = fast_params.kind_of(descriptor)
        assert (kind, extra) == ("path", Path)


# ----------------------------------------------------------------- modules loaded per run
#: Never needed by these runs (--json --quiet, no error): the point of the fast start.
NOT_LOADED = ("pydantic", "rich", "networkx", "igraph", "polars", "matplotlib", "sklearn",
              "duckdb", "pandas", "scipy")  # fmt: skip

PROBE = """
import json, sys
from privlab.cli.main import app
sys.argv = ["privlab", *sys.argv[1:]]
try:
    app()
except SystemExit as exc:
    code = exc.code
print("LOADED", json.dumps([m for m in {names!r} if m in sys.modules]), file=sys.stderr)
"""


@pytest.fixture(scope="module")
def small_pair(tmp_path_factory):
    """A pair folder written by `privlab graph pair --secgraph` (the bench's generator) from
    a ring with random chords, and a seeds file of 10 true pairs."""
    import numpy as np

    folder = tmp_path_factory.mktemp("fastpair")
    rng = np.random.default_rng(3)
    n = 120
    edges = {(i, (i + 1) % n) for i in range(n)}
    edges |= {tuple(sorted(map(int, rng.choice(n, 2, replace=False)))) for _ in range(500)}
    source = folder / "g.txt"
    write_graph(Graph.from_edges(n, np.array(sorted(edges))), source)
    out = folder / "pair"
    cmd = [sys.executable, "-m", "privlab", "graph", "pair", str(source), "--secgraph",
           "--p", "0.9", "--seed", "1", "-o", str(out), "--json", "--quiet"]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True)
    truth = (out / "truth.csv").read_text().splitlines()
    seeds = folder / "seeds.csv"
    seeds.write_text("\n".join(truth[:11]) + "\n")
    return out, seeds


ROWS = {  # the bench's rows (benchmarks/bench_graph_attacks.py), on a small pair
    "ns": ["propagate", "--theta", "0.1"],
    "yg": ["yg", "--r", "3", "--seed", "0"],
    "dv": ["dv", "--block", "20", "--keep", "5", "--mode", "queue"],
    "kl": ["kl", "--variant", "secgraph", "--window", "20"],
}
#: What a row needs beyond numpy: DV's assignment solver is SciPy's.
NEEDS = {"dv": ("scipy",)}


@pytest.mark.parametrize("row", sorted(ROWS))
def test_a_seeded_attack_run_loads_no_module_it_does_not_need(small_pair, tmp_path, row):
    pair, seeds = small_pair
    name, *options = ROWS[row]
    mapping = tmp_path / "map.csv"
    args = ["graph", "attack", name, str(pair), "--seeds-file", str(seeds), *options,
            "-o", str(mapping), "--json", "--quiet"]  # fmt: skip
    probe = PROBE.format(names=NOT_LOADED)
    done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True)
    summary = json.loads(done.stdout)
    assert summary["mapped"] >= 10 and mapping.is_file()
    line = next(ln for ln in done.stderr.splitlines() if ln.startswith("LOADED "))
    loaded = set(json.loads(line.removeprefix("LOADED ")))
    assert loaded == set(NEEDS.get(row, ())), f"privlab graph attack {name} loads {loaded}"


def test_the_probe_sees_a_module_a_run_loads(small_pair, tmp_path):
    """The check above can fail: a run that prints a table (no --json) loads rich."""
    pair, seeds = small_pair
    args = ["graph", "attack", "yg", str(pair), "--seeds-file", str(seeds), "-o",
            str(tmp_path / "m.csv")]  # fmt: skip
    probe = PROBE.format(names=NOT_LOADED)
    done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True)
    line = next(ln for ln in done.stderr.splitlines() if ln.startswith("LOADED "))
    assert "rich" in json.loads(line.removeprefix("LOADED "))
