"""Issue 15, scope 10: every long operation shows progress on a terminal (stderr, transient),
``--quiet`` silences it, and ``--json`` leaves nothing but the JSON document on stdout.

The commands run in-process on the README's example files.  ``TTY_COMPATIBLE=1`` tells rich
that stderr is a terminal (as it would be for a user); the last test runs one command with
its stderr on a real pseudo-terminal, and with it on a pipe.
"""

from __future__ import annotations

import itertools
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.examples import write_examples
from tests.cli.test_fast_start import COMMAND_PATHS
from tests.cli.test_help_texts import _options

runner = CliRunner()
TERMINAL = {"TTY_COMPATIBLE": "1", "TERM": "xterm", "COLUMNS": "120"}
CENSUS_QI = "zip,age,sex,education,marital-status"
_fresh = itertools.count()


def hierarchies(folder: Path, columns: str = CENSUS_QI) -> list[str]:
    out = []
    for c in columns.split(","):
        out += ["--hierarchy", f"{c}={folder / f'census_hierarchy_{c}.csv'}"]
    return out


def invoke(args: list[str], env: dict[str, str] | None = None):
    result = runner.invoke(app, [str(a) for a in args], env=env)
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result


@pytest.fixture(scope="module")
def ex(tmp_path_factory) -> Path:
    """The examples folder with the releases, pair and results the commands read."""
    folder = tmp_path_factory.mktemp("examples") / "ex"
    write_examples(folder)
    qi = [x for c in CENSUS_QI.split(",") for x in ("--qi", c)]
    invoke(["table", "anonymize", folder / "census.csv", *qi, *hierarchies(folder),
            "--sensitive", "disease", "--identifying", "id", "-k", "5",
            "-o", folder / "release.csv"])  # fmt: skip
    invoke(["table", "permute", folder / "salaries.csv", "--qi", "age,zipcode,gender",
            "--sensitive", "salary", "--k", "3", "--e", "1000", "-o", folder / "perm"])  # fmt: skip
    invoke(["graph", "anonymize", folder / "social.txt", "-s", "kdegree", "-k", "10",
            "-o", folder / "social-release.txt", "--mapping", folder / "mapping.csv"])  # fmt: skip
    invoke(["graph", "anonymize", folder / "social.txt", "-s", "rad", "--fraction", "0.02",
            "--keep-ids", "--seed", "1", "-o", folder / "rad.txt"])  # fmt: skip
    invoke(["graph", "pair", folder / "social.txt", "--alpha-v", "0.6", "--alpha-e", "0.8",
            "--seed", "2", "-o", folder / "pair"])  # fmt: skip
    invoke(["bench", "li-delta", "--reduced", "-o", folder / "results", "--no-report"])
    return folder


def fresh(ex: Path, name: str) -> Path:
    """A new path for an output that may not exist yet."""
    return ex / f"{name}-{next(_fresh)}"


def new_ledger(ex: Path) -> Path:
    """A budget ledger just created by `privlab dp budget init`."""
    path = fresh(ex, "ledger.json")
    invoke(["dp", "budget", "init", path, "-e", "1"])
    return path


#: (id, command path, arguments after it, texts of the progress on a terminal, --json?)
CASES = [
    ("anonymize-optimal", "table anonymize", lambda ex: [
        ex / "census.csv", "--qi", CENSUS_QI, *hierarchies(ex), "--sensitive", "disease",
        "--identifying", "id", "-k", "5", "--suppression", "2%"],
     ["optimal search of the lattice"], True),
    ("anonymize-datafly", "table anonymize", lambda ex: [
        ex / "census.csv", "--qi", CENSUS_QI, *hierarchies(ex), "--sensitive", "disease",
        "--identifying", "id", "-k", "5", "--algorithm", "datafly"],
     ["datafly search of the lattice"], True),
    ("anonymize-mondrian", "table anonymize", lambda ex: [
        ex / "census.csv", "--qi", CENSUS_QI, *hierarchies(ex), "--sensitive", "disease",
        "--identifying", "id", "-k", "5", "--algorithm", "mondrian", "--numeric", "age"],
     ["Mondrian partitioning"], True),
    ("check", "table check", lambda ex: [
        ex / "release.csv", "--qi", CENSUS_QI, "--sensitive", "disease"],
     ["reading release.csv"], True),
    ("risk", "table risk", lambda ex: [ex / "census.csv", "--qi", CENSUS_QI],
     ["estimating the re-identification risk"], True),
    # the population table is read within the risk step: one display at a time
    ("risk-population", "table risk", lambda ex: [
        ex / "census.csv", "--qi", CENSUS_QI, "--population-table", ex / "census.csv"],
     ["estimating the re-identification risk"], True),
    ("hierarchy", "table hierarchy", lambda ex: [
        "interval", ex / "census.csv", "--column", "age", "--width", "10",
        "-o", fresh(ex, "age.csv")], [], True),
    ("permute", "table permute", lambda ex: [
        ex / "salaries.csv", "--qi", "age,zipcode,gender", "--sensitive", "salary", "--k", "3",
        "--e", "1000", "-o", fresh(ex, "perm")], ["forming the groups"], True),
    ("query", "table query", lambda ex: [
        ex / "perm", "SELECT SUM(salary) FROM t WHERE age BETWEEN 35 AND 55"],
     ["answering the query"], True),
    ("dp-release", "dp release", lambda ex: [
        ex / "people.csv", "-q", "count", "-q", "histogram:sex", "--bins", "sex=Female,Male",
        "-e", "1"], ["reading people.csv"], True),
    ("dp-above-threshold", "dp above-threshold", lambda ex: [
        ex / "people.csv", "-q", "sex=Female", "-q", "sex=Male", "-t", "5", "-e", "1"],
     ["reading people.csv"], True),
    ("dp-quantile", "dp quantile", lambda ex: [
        ex / "people.csv", "--column", "age", "--low", "0", "--high", "120", "-e", "1"],
     ["reading people.csv"], True),
    ("dp-mode", "dp mode", lambda ex: [
        ex / "people.csv", "--column", "sex", "--candidates", "Female,Male", "-e", "1"],
     ["reading people.csv"], True),
    ("dp-kmeans", "dp kmeans", lambda ex: [
        ex / "people.csv", "--features", "age", "-k", "2", "-e", "1", "--bounds", "age=0:120"],
     ["reading people.csv"], True),
    ("dp-node-degrees", "dp node-degrees", lambda ex: [
        ex / "social.txt", "--theta", "20", "-e", "1"], ["reading social.txt"], True),
    ("dp-params", "dp params", lambda ex: ["-e", "1", "--delta", "1e-5"], [], True),
    ("dp-plan", "dp plan", lambda ex: ["count", "--error", "5"], [], True),
    ("dp-budget-init", "dp budget init", lambda ex: [fresh(ex, "ledger.json"), "-e", "1"], [],
     True),
    ("dp-budget-show", "dp budget show", lambda ex: [new_ledger(ex)], [], True),
    ("safe-kanon", "dp safe-kanon", lambda ex: [
        ex / "people.csv", "--qi", "age,sex,zip", *hierarchies(ex, "age,sex,zip"), "-e", "1",
        "--delta", "1e-5", "-o", fresh(ex, "dp.csv")], ["choosing the levels"], True),
    ("graph-kdegree", "graph anonymize", lambda ex: [
        ex / "social.txt", "-s", "kdegree", "-k", "10", "-o", fresh(ex, "kd.txt")],
     ["k-degree anonymization"], True),
    ("graph-rsp", "graph anonymize", lambda ex: [
        ex / "social.txt", "-s", "rsp", "--fraction", "0.1", "-o", fresh(ex, "rsp.txt")],
     ["rsp: anonymizing"], True),
    ("pair-kdegree", "graph pair", lambda ex: [
        ex / "social.txt", "--alpha-v", "0.6", "--alpha-e", "1", "-s", "kdegree", "-k", "5",
        "-o", fresh(ex, "pair")], ["k-degree anonymization"], True),
    ("utility", "graph utility", lambda ex: [
        ex / "social.txt", ex / "social-release.txt", "--sample", "50"],
     ["utility metrics of both graphs"], True),
    ("refine", "graph attack refine", lambda ex: [ex / "social.txt"], ["refining"], True),
    ("h1-risk", "graph attack h1-risk", lambda ex: [
        ex / "social.txt", ex / "rad.txt", "--m", "99"], ["computing the H_1 posteriors"], True),
    ("subgraph", "graph attack subgraph", lambda ex: [
        ex / "social.txt", "--facts", "3", "--nodes", "20"], ["subgraph knowledge"], True),
    ("active", "graph attack active", lambda ex: [ex / "social.txt", "--seed", "1"],
     ["active attack"], True),
    ("propagate", "graph attack propagate", lambda ex: [ex / "pair", "--seeds", "30"],
     ["propagating from 30 seeds"], True),
    ("kl", "graph attack kl", lambda ex: [ex / "pair", "--seeds", "30"], [], True),
    ("dv", "graph attack dv", lambda ex: [ex / "pair", "--seeds", "30"], [], True),
    ("yg", "graph attack yg", lambda ex: [ex / "pair", "--seeds", "30"], [], True),
    ("pfg", "graph attack pfg", lambda ex: [ex / "pair"], [], True),
    ("jls", "graph attack jls", lambda ex: [ex / "pair", "--seeds", "30"], [], True),
    ("jlsb", "graph attack jlsb", lambda ex: [ex / "pair"], [], True),
    ("sh", "graph attack sh", lambda ex: [ex / "pair", "--seeds", "30", "--variant", "subgraph"],
     [], True),
    ("nka", "graph attack nka", lambda ex: [ex / "pair", "--seeds", "30", "--communities",
                                            "louvain"], [], True),
    ("obfuscation", "graph attack obfuscation", lambda ex: [
        ex / "social.txt", ex / "rad.txt"], [], True),
    ("links", "graph attack links", lambda ex: [ex / "social.txt", ex / "rad.txt"], [], True),
    ("group", "graph attack group", lambda ex: [ex / "social.txt", ex / "rad.txt"], [], True),
    ("passive", "graph attack passive", lambda ex: [ex / "social.txt", "--seed", "1"], [],
     True),
    ("errors", "graph attack errors", lambda ex: [ex / "pair", ex / "pair" / "truth.csv"],
     ["measuring distances"], True),
    ("cut", "graph attack cut", lambda ex: [ex / "social.txt", "--seed", "1"],
     ["cut-based attack"], True),
    ("generalize", "graph generalize", lambda ex: [
        ex / "social.txt", "-k", "5", "-o", fresh(ex, "gen.json")], [], True),
    ("learned", "graph attack learned", lambda ex: [
        ex / "pair", "--3psl", "--non-identical", "2000", "--seed", "3"],
     ["training by splitting the releases", "scoring the test pairs", "3PSL"], True),
    ("audit-graph", "audit", lambda ex: [
        ex / "social-release.txt", "--original", ex / "social.txt", "--mapping",
        ex / "mapping.csv", "--sample", "10", "--time-budget", "2", "-o", fresh(ex, "a.html")],
     ["auditing"], True),
    ("audit-table", "audit", lambda ex: [
        ex / "release.csv", "--original", ex / "census.csv", "--qi", CENSUS_QI,
        "--sensitive", "disease", "--hierarchies", ex, "-o", fresh(ex, "t.html")],
     ["auditing the table release"], True),
    ("bench", "bench", lambda ex: ["li-delta", "--reduced", "--no-report",
                                   "-o", fresh(ex, "results")], ["li-delta"], True),
    ("report", "report", lambda ex: [ex / "results", "-o", fresh(ex, "report.html")],
     ["drawing the report"], False),
    ("demo", "demo", lambda ex: ["--rows", "400"], ["optimal search of the lattice"], True),
    ("demo-examples", "demo", lambda ex: ["--write-examples", fresh(ex, "examples")], [],
     True),
]  # fmt: skip


def _args(case, ex: Path, *extra: str) -> list:
    _, path, args, _, json_out = case
    return [*path.split(), *args(ex), *(["--json"] if json_out else []), *extra]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_progress_shows_on_a_terminal_and_json_keeps_stdout_clean(ex, case):
    result = invoke(_args(case, ex), env=TERMINAL)
    for text in case[3]:
        assert text in result.stderr, (text, result.stderr[-400:])
    if case[4]:
        payload = json.loads(result.stdout)  # one JSON document, nothing around it
        assert isinstance(payload, dict)


@pytest.mark.parametrize("case", [c for c in CASES if c[3]], ids=[c[0] for c in CASES if c[3]])
def test_quiet_silences_progress(ex, case):
    result = invoke(_args(case, ex, "--quiet"), env=TERMINAL)
    for text in case[3]:
        assert text not in result.stderr
    assert "\x1b[?25l" not in result.stderr  # no live display hid the cursor


def test_every_command_with_json_is_covered():
    with_json = {p for p in COMMAND_PATHS if any("--json" in o.opts for o, _, _ in _options(p))}
    assert with_json == {c[1] for c in CASES if c[4]}


def test_quiet_keeps_warnings_and_notes_about_the_input(tmp_path):
    """--quiet drops the automatic-hierarchy note but keeps the warning about a likely
    identifier and the note that the reader removed a self-loop."""
    table = tmp_path / "t.csv"
    table.write_text("name,age,disease\n" + "".join(f"p{i},{20 + i % 50},flu\n"
                                                     for i in range(200)))  # fmt: skip
    args = ["table", "anonymize", table, "--qi", "age,name", "--sensitive", "disease",
            "--hierarchy", "name=flat", "-k", "2", "--suppression", "100%", "-q"]  # fmt: skip
    err = invoke(args).stderr
    assert "warning:" in err and "name" in err  # a likely identifier among the QIs
    assert "no hierarchy given" not in err  # the automatic hierarchy's note is silenced
    assert "no hierarchy given" in invoke(args[:-1]).stderr
    graph = tmp_path / "g.txt"
    graph.write_text("1 1\n1 2\n2 3\n3 1\n")
    err = invoke(["graph", "attack", "refine", graph, "-q"]).stderr
    assert "removed 1 self-loop(s)" in err


def _stderr_on(terminal: bool, args: list[str]) -> tuple[bytes, bytes]:
    """Run ``privlab ARGS`` in a subprocess with stderr on a pseudo-terminal (or a pipe);
    return (stdout, stderr) bytes."""
    env = {k: v for k, v in os.environ.items() if k not in ("TTY_COMPATIBLE", "FORCE_COLOR")}
    env["TERM"] = "xterm"
    code = "import sys; from privlab.cli.main import app; sys.argv[0] = 'privlab'; app()"
    cmd = [sys.executable, "-c", code, *args]
    if not terminal:
        done = subprocess.run(cmd, capture_output=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout, done.stderr
    main, child = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=child, env=env)
    os.close(child)
    err = b""
    while True:  # drain the terminal while the command runs
        ready, _, _ = select.select([main], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the child closed its end
                chunk = b""
            if not chunk and proc.poll() is not None:
                break
            err += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read()
    proc.wait(timeout=120)
    os.close(main)
    assert proc.returncode == 0, err
    return out, err


def test_a_real_terminal_gets_the_bar_and_a_pipe_gets_nothing(ex):
    args = [str(a) for a in _args(CASES[0], ex)]
    out, err = _stderr_on(True, args)
    assert b"optimal search of the lattice" in err
    json.loads(out)
    out, err = _stderr_on(False, args)
    assert b"optimal search" not in err and b"\x1b[" not in err
    json.loads(out)
