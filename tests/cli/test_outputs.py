"""Issue 15, scope 1: no command destroys an input, a folder it did not write, or a device.

Every command that writes is run with each output pointed at something it must not replace:
one of its own inputs, a folder it did not write, a folder holding its input.  Each run must
exit 2 with a message naming the option, and leave every file as it was.  Then the special
targets: ``-o -``, a symbolic link, a FIFO, a character device (made with ``os.mknod`` in a
temporary folder, never the real /dev/null), a read-only folder and a full device.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import threading
from pathlib import Path

import networkx as nx
import polars as pl
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.table.sample import census_sample
from tests.report.conftest import write_results

runner = CliRunner()

DATA = "zip;age;sex;disease\n" + "".join(
    f"{z};{a};{s};{d}\n"
    for z, a, s, d in [
        ("13053", "28", "F", "flu"), ("13068", "29", "M", "flu"), ("13068", "21", "F", "cold"),
        ("13053", "23", "M", "cancer"), ("14853", "50", "F", "flu"), ("14853", "55", "M", "cold"),
    ]
)  # fmt: skip
ZIP_H = "13053;1305*;130**;*\n13068;1306*;130**;*\n14853;1485*;148**;*\n"


def run(*args) -> object:
    return runner.invoke(app, [str(a) for a in args])


def snapshot(root: Path) -> dict[str, bytes | str]:
    """Every file (content) and folder (marker) below ``root``."""
    out: dict[str, bytes | str] = {}
    for p in sorted(root.rglob("*")):
        key = str(p.relative_to(root))
        out[key] = "<dir>" if p.is_dir() else p.read_bytes()
    return out


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> dict[str, Path]:
    """Inputs of every kind, and one earlier output of each folder kind."""
    d = tmp_path_factory.mktemp("outputs")
    (d / "data.csv").write_text(DATA, encoding="utf-8")
    (d / "zip.csv").write_text(ZIP_H, encoding="utf-8")
    lines = "".join(f"{u}\t{v}\n" for u, v in nx.karate_club_graph().edges())
    (d / "g.txt").write_text(lines, encoding="utf-8")
    sample = census_sample(400, seed=1)
    sample.frame.write_csv(d / "census.csv")
    census_args = [d / "census.csv", "--identifying", sample.identifying]
    for c in sample.quasi_identifiers:
        sample.hierarchies[c].to_csv(d / f"h_{c}.csv")
        census_args += ["--qi", c, "--hierarchy", f"{c}={d / f'h_{c}.csv'}"]
    res = run("graph", "pair", d / "g.txt", "--alpha-v", 0.8, "--alpha-e", 0.8, "-o", d / "pair",
              "--seed", 1)  # fmt: skip
    assert res.exit_code == 0, res.output
    (d / "results").mkdir()
    write_results(d / "results")
    (d / "mine").mkdir()
    (d / "mine" / "notes.txt").write_text("the user's own file", encoding="utf-8")
    return {"root": d, "census_args": census_args}


def _anonymize(d: Path, out) -> list:
    return ["table", "anonymize", d / "data.csv", "--qi", "zip", "--hierarchy",
            f"zip={d / 'zip.csv'}", "--sensitive", "disease", "--qi", "age", "--qi", "sex",
            "--hierarchy", "sex=flat", "-k", "2", "--suppression", "50%", "-o", out]  # fmt: skip


#: (case, argv builder) — each argv points an output at something it must not replace.
REFUSED = {
    "anonymize -o INPUT": lambda d, w: _anonymize(d, d / "data.csv"),
    "anonymize -o HIERARCHY": lambda d, w: _anonymize(d, d / "zip.csv"),
    "anonymize -o FOLDER": lambda d, w: _anonymize(d, d / "mine"),
    "hierarchy -o INPUT": lambda d, w: ["table", "hierarchy", "masking", d / "data.csv", "-c",
                                       "zip", "-o", d / "data.csv"],
    "permute -o FOLDER-OF-INPUT": lambda d, w: ["table", "permute", d / "data.csv", "--qi",
                                                "zip,age,sex", "--sensitive", "disease",
                                                "--anatomy", "--l", "2", "-o", d, "--overwrite"],
    "permute -o OTHER-FOLDER": lambda d, w: ["table", "permute", d / "data.csv", "--qi",
                                             "zip,age,sex", "--sensitive", "disease", "--anatomy",
                                             "--l", "2", "-o", d / "mine", "--overwrite"],
    "safe-kanon -o INPUT": lambda d, w: ["dp", "safe-kanon", *w["census_args"], "-o",
                                         d / "census.csv", "-e", "1", "--delta", "1e-3"],
    "safe-kanon -o HIERARCHY": lambda d, w: ["dp", "safe-kanon", *w["census_args"], "-o",
                                             d / "h_age.csv", "-e", "1", "--delta", "1e-3"],
    "graph anonymize -o INPUT": lambda d, w: ["graph", "anonymize", d / "g.txt", "-s", "naive",
                                              "-o", d / "g.txt"],
    "graph anonymize --mapping = -o": lambda d, w: ["graph", "anonymize", d / "g.txt", "-s",
                                                    "naive", "-o", d / "rel.txt", "--mapping",
                                                    d / "rel.txt"],
    "graph anonymize --mapping INPUT": lambda d, w: ["graph", "anonymize", d / "g.txt", "-s",
                                                     "naive", "-o", d / "rel.txt", "--mapping",
                                                     d / "g.txt"],
    "graph pair -o FOLDER-OF-INPUT": lambda d, w: ["graph", "pair", d / "g.txt", "--alpha-v",
                                                   0.5, "--alpha-e", 0.5, "-o", d, "--force"],
    "graph pair -o OTHER-FOLDER": lambda d, w: ["graph", "pair", d / "g.txt", "--alpha-v", 0.5,
                                                "--alpha-e", 0.5, "-o", d / "mine", "--force"],
    "propagate -o PAIR/truth.csv": lambda d, w: ["graph", "attack", "propagate", d / "pair",
                                                 "--seeds", 3, "-o", d / "pair" / "truth.csv"],
    "propagate -o PAIR/new.csv": lambda d, w: ["graph", "attack", "propagate", d / "pair",
                                               "--seeds", 3, "-o", d / "pair" / "new.csv"],
    "audit -o RELEASE": lambda d, w: ["audit", d / "pair" / "san.txt", "--original",
                                      d / "pair" / "aux.txt", "-o", d / "pair" / "san.txt"],
    "audit -o ORIGINAL": lambda d, w: ["audit", d / "g.txt", "--original", d / "data.csv",
                                       "-o", d / "data.csv"],
    "report -o DIR/results.csv": lambda d, w: ["report", d / "results", "-o",
                                               d / "results" / "results.csv"],
    "report -o DIR/manifest.json": lambda d, w: ["report", d / "results", "-o",
                                                 d / "results" / "manifest.json"],
    "bench -o OTHER-FOLDER": lambda d, w: ["bench", "hay-fig9", "--reduced", "-o", d / "mine"],
    "demo -o OTHER-FOLDER": lambda d, w: ["demo", "--rows", 200, "-o", d / "mine",
                                          "--overwrite"],
}  # fmt: skip


@pytest.mark.parametrize("case", list(REFUSED))
def test_an_output_never_replaces_an_input_or_a_foreign_folder(work, case):
    root = work["root"]
    before = snapshot(root)
    result = run(*REFUSED[case](root, work))
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and "Traceback" not in result.output
    reasons = ("destroy the input", "inside the input folder", "holds the input",
               "not a", "is a folder", "same path")  # fmt: skip
    assert any(r in result.output for r in reasons), result.output
    assert snapshot(root) == before


def test_every_writing_command_is_covered():
    commands = {" ".join(case.split(" -")[0].split()[:2]) for case in REFUSED}
    writers = {"anonymize", "hierarchy", "permute", "safe-kanon", "graph anonymize",
               "graph pair", "propagate", "audit", "report", "bench", "demo"}  # fmt: skip
    assert writers <= commands | {c.split()[0] for c in commands}


# ------------------------------------------------------------------- standard output
def test_dash_writes_the_release_to_stdout_and_the_summary_to_stderr(work, tmp_path):
    result = run(*_anonymize(work["root"], "-"))
    assert result.exit_code == 0, result.output
    release = pl.read_csv(result.stdout_bytes, separator=",", infer_schema=False)
    assert release.height == 6 and set(release.columns) >= {"zip", "age", "sex"}
    assert "privlab table anonymize" in result.stderr
    assert not Path("-").exists() and not (tmp_path / "-").exists()


def test_dash_writes_a_graph_to_stdout(work):
    result = run("graph", "anonymize", work["root"] / "g.txt", "-s", "naive", "-o", "-")
    assert result.exit_code == 0, result.output
    edges = [ln for ln in result.stdout.splitlines() if ln and not ln.startswith("#")]
    assert len(edges) == nx.karate_club_graph().number_of_edges()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (lambda d: [*_anonymize(d, "-"), "--json"], "--json and -o -"),
        (lambda d: ["table", "permute", d / "data.csv", "--qi", "zip,age,sex", "--sensitive",
                    "disease", "--anatomy", "--l", "2", "-o", "-"], "cannot go to standard"),
        (lambda d: ["graph", "anonymize", d / "g.txt", "-s", "naive", "-o", "-", "--mapping",
                    d / "m.csv"], "--mapping"),
    ],
)  # fmt: skip
def test_dash_where_the_format_cannot_go_to_stdout_is_refused(work, argv, message):
    before = snapshot(work["root"])
    result = run(*argv(work["root"]))
    assert result.exit_code == 2 and message in result.output, result.output
    assert snapshot(work["root"]) == before


# ------------------------------------------------------------------- special targets
def test_a_symlinked_output_stays_a_link(work, tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "release.csv"
    link.symlink_to(real)
    result = run(*_anonymize(work["root"], link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and "zip" in real.read_text(encoding="utf-8")


def test_a_fifo_output_is_written_into(work, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = run("graph", "anonymize", work["root"] / "g.txt", "-s", "naive", "-o", fifo)
    reader.join(timeout=30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and b"Nodes: 34" in received[0]


def _device(path: Path, minor: int) -> Path:
    if os.geteuid() != 0:
        pytest.skip("os.mknod of a character device needs root")
    os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    return path


def test_a_device_output_stays_a_device(work, tmp_path):
    null = _device(tmp_path / "null", 3)  # a private null device, never the real /dev/null
    result = run(*_anonymize(work["root"], null))
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]


def test_a_full_disk_is_a_clear_error(work, tmp_path):
    full = _device(tmp_path / "full", 7)  # like /dev/full: every write fails with ENOSPC
    result = run(*_anonymize(work["root"], full))
    assert result.exit_code == 2, result.output
    assert "No space left on device" in result.output and "Traceback" not in result.output


@pytest.fixture
def read_only(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
            pytest.skip("chattr +i (a folder even root cannot write) is not available")
    else:
        folder.chmod(0o555)
    yield folder
    subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
    folder.chmod(0o755)


def test_a_read_only_folder_is_a_clear_error(work, read_only):
    result = run(*_anonymize(work["root"], read_only / "release.csv"))
    assert result.exit_code == 2, result.output
    assert str(read_only) in result.output and "Traceback" not in result.output
    assert list(read_only.iterdir()) == []


def test_a_release_and_its_mapping_are_written_together_or_not_at_all(work, tmp_path, read_only):
    release = tmp_path / "release.txt"
    result = run("graph", "anonymize", work["root"] / "g.txt", "-s", "naive", "-o", release,
                 "--mapping", read_only / "mapping.csv")  # fmt: skip
    assert result.exit_code == 2, result.output
    assert not release.exists()  # no orphan release without its mapping
    assert [p.name for p in tmp_path.iterdir()] == ["ro"]


def test_a_folder_output_replaces_only_its_own_kind(work, tmp_path):
    out = tmp_path / "demo"
    assert run("demo", "--rows", 200, "-o", out).exit_code == 0
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["format"] == "privlab demo"
    again = run("demo", "--rows", 200, "-o", out)
    assert again.exit_code == 2 and "--overwrite" in again.output
    assert run("demo", "--rows", 200, "-o", out, "--overwrite").exit_code == 0


def test_a_graphml_release_written_with_its_mapping_is_graphml(work, tmp_path):
    release, mapping = tmp_path / "release.graphml", tmp_path / "mapping.csv"
    result = run("graph", "anonymize", work["root"] / "g.txt", "-s", "naive", "-o", release,
                 "--mapping", mapping)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert nx.read_graphml(release).number_of_nodes() == 34
    assert pl.read_csv(mapping).height == 34
