"""The seeded graph attacks the SecGraph bench runs (``propagate``, ``yg``, ``dv``, ``kl`` with
``--json --quiet``) load no module they do not need (rich, networkx, igraph, polars,
matplotlib…): the fixed cost of each process stays small (docs/graph/cli-start.md).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from privlab.graph.core import Graph, write_graph

# ----------------------------------------------------------------- modules loaded per run
#: Never needed by these runs (--json --quiet, no error): the point of the fast start.
NOT_LOADED = ("rich", "networkx", "igraph", "polars", "matplotlib", "sklearn",
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
