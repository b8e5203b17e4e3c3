"""Bad-input census: every CLI entry point against the inputs people really give it.

Issue 15's acceptance: at least 15 bad inputs per entry point, covering every case the issue
lists, each classified as

* **clear error** — exit 2, one message starting ``error:``, no traceback, nothing written
  or changed in the work folder, and no private cell value (the case's secret) in the output;
* **traceback** — a Python traceback, or an exit code other than 0 and 2 (a crash, a bug);
* **wrong silent success** — exit 0 where the input is bad;
* **partial output left** — a file written or changed, or a temporary file left behind,
  although the command failed;
* **leak** — the error quotes a private cell value.

Some cases are inputs that must *work* (an .xlsx file, ``-o -``, a device or a symbolic link
as the output): they count as **accepted** when the command succeeds and leaves a device a
device and a link a link.

Each case runs in a fresh copy of a work folder of real inputs (tables, hierarchies, graphs, a
pair folder, a permutation release, a results folder), as a separate ``python -m privlab``
process (``--in-process`` runs them through typer's test runner instead: faster, used by the
test suite).  Usage::

    python3 benchmarks/bad_input_census.py [--jobs 2] [--only "table anonymize"] [--list]
        [--in-process] [--json results.json] [--verbose]

Prints one row per entry point and the totals.  Exits 1 when any case is not clear/accepted.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

SECRET = "SECRET-7Q9"  # a private cell value that must never appear in an output
SECRET_NUMBER = "987654321"

ENTRY_POINTS = (
    "table anonymize", "table check", "table risk", "table hierarchy", "table permute",
    "table query", "dp release", "dp params", "dp safe-kanon", "graph anonymize",
    "graph pair", "graph utility", "graph attack refine", "graph attack h1-risk",
    "graph attack subgraph", "graph attack active", "graph attack propagate",
    "graph attack kl", "graph attack dv", "graph attack yg", "graph attack nka",
    "graph attack learned",
    "graph attack obfuscation", "graph attack links", "graph attack group",
    "graph attack passive", "audit", "report", "bench", "demo", "graph generalize",
    "graph attack errors",
    "graph attack pfg",
    "graph attack cut",
    "graph attack jls", "graph attack jlsb",
    "graph attack sh",
    "dp above-threshold", "dp quantile", "dp mode", "dp kmeans",
    "dp node-degrees",
    "dp budget init", "dp budget show",
    "dp plan",
)  # fmt: skip

OUTCOMES = ("clear error", "accepted", "traceback", "wrong silent success",
            "partial output left", "leak", "valid input refused", "wrong error")  # fmt: skip


@dataclass
class Case:
    """One run: ``argv`` after ``privlab`` ({d} = the case's work folder)."""

    command: str
    label: str
    argv: list[str]
    ok: bool = False  #: the input is valid: the command must succeed
    setup: Callable[[Path], None] | None = None  #: prepares special files in the folder
    secret: str | None = None  #: must not appear in the output
    keeps: Callable[[Path], bool] | None = None  #: an ok case's extra check
    root_only: bool = False
    expect: str | None = None  #: the error must say this (it is about the right thing)

    def args(self, d: Path) -> list[str]:
        return [a.replace("{d}", str(d)) for a in self.argv]


@dataclass
class Result:
    case: Case
    outcome: str
    code: int
    seconds: float
    message: str = ""
    changed: list[str] = field(default_factory=list)


# ============================================================================ the work folder
DATA = "name;zip;age;sex;disease\n" + "".join(
    f"P{i};{z};{a};{s};{d}\n"
    for i, (z, a, s, d) in enumerate(
        [("13053", 28, "F", "flu"), ("13068", 29, "M", "flu"), ("13068", 21, "F", "cold"),
         ("13053", 23, "M", "cancer"), ("14853", 50, "F", "flu"), ("14853", 55, "M", "cold"),
         ("13053", 31, "F", "cold"), ("13068", 35, "M", "flu"), ("14853", 47, "F", "cancer"),
         ("13053", 26, "M", "flu"), ("13068", 38, "F", "cold"), ("14853", 52, "M", "flu")]
    )
)  # fmt: skip
ZIP_H = "13053;1305*;130**;*\n13068;1306*;130**;*\n14853;1485*;148**;*\n"
SALARIES = "age,zipcode,gender,salary\n" + "".join(
    f"{a},{z},{g},{s}\n"
    for a, z, g, s in [(35, 27101, "M", 54000), (38, 27120, "M", 55000), (40, 27130, "M", 56000),
                       (41, 27229, "F", 65000), (43, 27269, "F", 75000), (47, 27243, "M", 70000),
                       (52, 27656, "M", 80000), (53, 27686, "F", 75000), (58, 27635, "M", 85000)]
)  # fmt: skip
SPEC = """
[spec]
name = "tiny"
title = "a tiny census run"
seed = 1

[[experiment]]
name = "tiny"
title = "Tiny"
data = "synthetic:gnm"
data_options = { n = 60, m = 150 }
parameter = "fraction"
values = [0.1]
schemes = ["rsp"]
metrics = ["clustering"]
"""

GRAPHML_DIRECTED = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/'
    'xmlns"><graph edgedefault="directed"><node id="a"/><node id="b"/><node id="c"/>'
    '<edge source="a" target="b"/><edge source="b" target="c"/></graph></graphml>\n'
)
QI = ["--qi", "zip", "--qi", "age", "--qi", "sex"]
TABLE = ["{d}/data.csv", *QI, "--hierarchy", "zip={d}/zip.csv",
         "--hierarchy", "sex=flat", "--sensitive", "disease", "--identifying", "name"]  # fmt: skip
PERMUTE = ["table", "permute", "{d}/salaries.csv", "--qi", "age,zipcode,gender",
           "--sensitive", "salary", "--k", "3", "--e", "1000"]  # fmt: skip


def build_work(root: Path) -> Path:
    """The inputs every case starts from (written once, copied per case)."""
    import networkx as nx
    from typer.testing import CliRunner

    from privlab.cli.main import app
    from privlab.table.sample import census_sample

    d = root / "work"
    d.mkdir()
    (d / "data.csv").write_text(DATA, encoding="utf-8")
    (d / "zip.csv").write_text(ZIP_H, encoding="utf-8")
    (d / "salaries.csv").write_text(SALARIES, encoding="utf-8")
    (d / "people.csv").write_text(
        "age,sex,income\n" + "".join(f"{20 + i % 50},{'FM'[i % 2]},{1000 * (i % 7)}\n"
                                     for i in range(60)), encoding="utf-8",
    )  # fmt: skip
    sample = census_sample(300, seed=3)
    sample.frame.write_csv(d / "census.csv")
    for c in sample.quasi_identifiers:
        sample.hierarchies[c].to_csv(d / f"h_{c}.csv")
    g = nx.karate_club_graph()
    (d / "g.txt").write_text("".join(f"{u}\t{v}\n" for u, v in g.edges()), encoding="utf-8")
    (d / "spec.toml").write_text(SPEC, encoding="utf-8")
    runner = CliRunner()
    for argv in (
        ["graph", "pair", str(d / "g.txt"), "--alpha-v", "0.9", "--alpha-e", "0.9", "-o",
         str(d / "pair"), "--seed", "1"],
        [*PERMUTE[:2], str(d / "salaries.csv"), *PERMUTE[3:], "-o", str(d / "release")],
        ["bench", str(d / "spec.toml"), "-o", str(d / "results"), "--no-report", "--quiet"],
        ["graph", "anonymize", str(d / "g.txt"), "-s", "rad", "--fraction", "0.05", "-o",
         str(d / "rel.txt"), "--mapping", str(d / "map.csv"), "--seed", "2"],
    ):  # fmt: skip
        result = runner.invoke(app, argv)
        if result.exit_code != 0:
            raise SystemExit(f"census set-up failed: privlab {' '.join(argv)}\n{result.output}")
    (d / "mine").mkdir()
    (d / "mine" / "notes.txt").write_text("the user's own notes", encoding="utf-8")
    return d


# ============================================================================ special files
def _write(name: str, data: bytes | str) -> Callable[[Path], None]:
    def make(d: Path) -> None:
        (d / name).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)

    return make


def _sqlite(name: str) -> Callable[[Path], None]:
    def make(d: Path) -> None:
        con = sqlite3.connect(d / name)
        con.execute("CREATE TABLE t (zip TEXT, age INT)")
        con.execute("INSERT INTO t VALUES ('13053', 28)")
        con.commit()
        con.close()

    return make


def _gzip_of(source: str, name: str) -> Callable[[Path], None]:
    def make(d: Path) -> None:
        (d / name).write_bytes(gzip.compress((d / source).read_bytes()))

    return make


def _xlsx_of(source: str, name: str) -> Callable[[Path], None]:
    def make(d: Path) -> None:
        import polars as pl

        pl.read_csv(d / source, separator=";", infer_schema=False).write_excel(d / name)

    return make


def _device(name: str, minor: int) -> Callable[[Path], None]:
    def make(d: Path) -> None:  # a private device node, never the real /dev/null
        os.mknod(d / name, stat.S_IFCHR | 0o666, os.makedev(1, minor))

    return make


def _symlink(name: str, target: str) -> Callable[[Path], None]:
    def make(d: Path) -> None:
        (d / target).write_text("old", encoding="utf-8")
        (d / name).symlink_to(d / target)

    return make


def _read_only(name: str) -> Callable[[Path], None]:
    def make(d: Path) -> None:
        (d / name).mkdir()
        if os.geteuid() == 0:
            subprocess.run(["chattr", "+i", str(d / name)], check=True, capture_output=True)
        else:
            (d / name).chmod(0o555)

    return make


def _with_secret(source: str, name: str, column: str, value: str, sep: str) -> Callable:
    """A copy of ``source`` with one cell of ``column`` replaced by a private value."""

    def make(d: Path) -> None:
        lines = (d / source).read_text(encoding="utf-8").splitlines()
        header = lines[0].split(sep)
        j = header.index(column)
        cells = lines[3].split(sep)
        cells[j] = value
        lines[3] = sep.join(cells)
        (d / name).write_text("\n".join(lines) + "\n", encoding="utf-8")

    return make


def _is_device(name: str) -> Callable[[Path], bool]:
    return lambda d: stat.S_ISCHR(os.stat(d / name).st_mode)


def _is_link(name: str) -> Callable[[Path], bool]:
    return lambda d: (d / name).is_symlink() and (d / name).read_text() != "old"


BINARY = bytes(range(256)) * 8
LATIN1 = "zip;age\n13053;28\nM\u00fcnchen;29\n".encode("latin-1")
PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n"
LONG = "x" * 300


def _input_cases(command: str, build: Callable[[str], list[str]], *, table: bool = True) -> list:
    """The bad files every reader must name: ``build(path)`` puts a path into the argv."""
    kind = "table" if table else "graph"
    cases = [
        Case(command, f"{kind}: missing file", build("{d}/nope.csv")),
        Case(command, f"{kind}: a folder", build("{d}/mine")),
        Case(command, f"{kind}: empty file", build("{d}/empty.csv"),
             setup=_write("empty.csv", "")),
        Case(command, f"{kind}: binary garbage", build("{d}/bin.csv"),
             setup=_write("bin.csv", BINARY)),
        Case(command, f"{kind}: Latin-1 text", build("{d}/latin.csv"),
             setup=_write("latin.csv", LATIN1)),
        Case(command, f"{kind}: an SQLite database", build("{d}/db.sqlite"),
             setup=_sqlite("db.sqlite"), expect="SQLite" if table else None),
        Case(command, f"{kind}: a PDF", build("{d}/doc.pdf"), setup=_write("doc.pdf", PDF)),
        Case(command, f"{kind}: name too long", build("{d}/" + LONG + ".csv")),
        Case(command, f"{kind}: name with markup [/] :smile:", build("{d}/a[/]b :smile:.csv"),
             expect="a[/]b :smile:.csv"),
    ]  # fmt: skip
    if table:
        cases += [
            Case(command, "table: header only", build("{d}/head.csv"),
                 setup=_write("head.csv", "name;zip;age;sex;disease\n")),
            Case(command, "table: a short row leaves the used columns missing",
                 build("{d}/short.csv"),
                 setup=_write("short.csv", "name;zip;age;sex;disease\nA;13053\n")),
            Case(command, "table: duplicate column names", build("{d}/dup.csv"),
                 setup=_write("dup.csv", "zip;zip;age;sex;disease\n1;2;3;F;flu\n")),
        ]  # fmt: skip
    else:
        cases += [
            Case(command, "graph: a table, not an edge list", build("{d}/data.csv")),
            Case(command, "graph: only comments", build("{d}/c.txt"),
                 setup=_write("c.txt", "# nothing\n")),
            Case(command, "graph: ids with commas", build("{d}/comma.txt"),
                 setup=_write("comma.txt", "1,2 3\n")),
        ]  # fmt: skip
    return cases


def _output_cases(command: str, build: Callable[[str], list[str]], inputs: list[str]) -> list:
    """An output pointed at what it must not replace; ``build(path)`` sets -o."""
    cases = [Case(command, f"-o = input {p}", build("{d}/" + p), expect="destroy the input")
             for p in inputs]  # fmt: skip
    cases += [
        Case(command, "-o a foreign folder", build("{d}/mine")),
        Case(command, "-o in a read-only folder", build("{d}/ro/out.csv"), setup=_read_only("ro")),
        Case(command, "-o a full disk (device 1,7)", build("{d}/full"), setup=_device("full", 7),
             root_only=True, expect="No space left on device"),
    ]  # fmt: skip
    return cases


def _options(command: str, base: list[str], variants: list[tuple[str, list[str]]]) -> list:
    return [Case(command, label, [*base, *extra]) for label, extra in variants]


# ============================================================================ the cases
def cases() -> list[Case]:
    out: list[Case] = []

    # ---- table anonymize
    anon = ["table", "anonymize", *TABLE, "-k", "2", "--suppression", "20%"]
    out += _input_cases("table anonymize", lambda p: ["table", "anonymize", p, *TABLE[1:], "-k",
                                                      "2", "-o", "{d}/out.csv"])  # fmt: skip
    out += _output_cases("table anonymize", lambda p: [*anon, "-o", p], ["data.csv", "zip.csv"])
    out += _options("table anonymize", [*anon, "-o", "{d}/out.csv"], [
        ("k = 0", ["-k", "0"]), ("k negative", ["-k", "-3"]), ("k huge", ["-k", str(10**30)]),
        ("suppression 150%", ["--suppression", "150%"]),
        ("suppression nan", ["--suppression", "nan"]),
        ("unknown metric", ["--metric", "bogus"]), ("gs for dm", ["--metric", "dm", "--gs", "0.5"]),
        ("l-diversity spec 0:100:0", ["--l-diversity", "0:100:0"]),
        ("t-closeness of a missing column", ["--t-closeness", "nope:equal:0.2"]),
        ("mondrian with a metric", ["--algorithm", "mondrian", "--metric", "dm"]),
        ("infeasible model", ["--l-diversity", "disease:distinct:9", "--suppression", "0"]),
    ])  # fmt: skip
    out += [
        Case("table anonymize", "an undeclared column (name)", expect="no role", argv=
             ["table", "anonymize", "{d}/data.csv", *QI, "--hierarchy",
              "zip={d}/zip.csv", "--hierarchy", "sex=flat", "--sensitive", "disease", "-k", "2",
              "-o", "{d}/out.csv"]),
        Case("table anonymize", "a text QI without a hierarchy", expect="has no hierarchy",
             argv=
             ["table", "anonymize", "{d}/data.csv", *QI, "--hierarchy", "zip={d}/zip.csv",
              "--sensitive", "disease", "--identifying", "name", "-k", "2", "-o",
              "{d}/out.csv"]),
        Case("table anonymize", "a private value outside the hierarchy",
             ["table", "anonymize", "{d}/s.csv", *TABLE[1:], "-k", "2", "-o", "{d}/out.csv"],
             setup=_with_secret("data.csv", "s.csv", "zip", SECRET, ";"), secret=SECRET),
        Case("table anonymize", "-o - with --json", [*anon, "-o", "-", "--json"],
             expect="--json and -o -"),
        Case("table anonymize", "job file not UTF-8", ["table", "anonymize", "--job", "{d}/j.toml"],
             setup=_write("j.toml", b'input = "data.csv"\nqi = ["zip\xff"]\n')),
        Case("table anonymize", "job file with an unknown key",
             ["table", "anonymize", "--job", "{d}/j.toml"], setup=_write("j.toml", "colour = 1\n")),
        Case("table anonymize", "-o - (stdout)", [*anon, "-o", "-"], ok=True),
        Case("table anonymize", "-o a symbolic link", [*anon, "-o", "{d}/link.csv"], ok=True,
             setup=_symlink("link.csv", "real.csv"), keeps=_is_link("link.csv")),
        Case("table anonymize", "-o a device (1,3)", [*anon, "-o", "{d}/null"], ok=True,
             setup=_device("null", 3), keeps=_is_device("null"), root_only=True),
        Case("table anonymize", "an .xlsx input",
             ["table", "anonymize", "{d}/d.xlsx", *TABLE[1:], "-k", "2", "-o", "{d}/out.csv"],
             ok=True, setup=_xlsx_of("data.csv", "d.xlsx")),
        Case("table anonymize", "a .csv.gz input",
             ["table", "anonymize", "{d}/d.csv.gz", *TABLE[1:], "-k", "2", "-o", "{d}/out.csv"],
             ok=True, setup=_gzip_of("data.csv", "d.csv.gz")),
    ]  # fmt: skip

    # ---- table check / risk
    for name in ("check", "risk"):
        cmd = f"table {name}"
        base = ["table", name, "{d}/data.csv", *QI]
        out += _input_cases(cmd, lambda p, n=name: ["table", n, p, *QI])
        out += _options(cmd, base, [
            ("a QI that is not a column", ["--qi", "nope"]),
            ("a column twice", ["--qi", "zip"]),
            ("--delimiter wrong", ["--delimiter", "|"]),
            ("--missing bogus", ["--missing", "bogus"]),
        ])  # fmt: skip
        if name == "check":
            out += _options(cmd, [*base, "--sensitive", "disease"], [
                ("k = 0", ["-k", "0"]), ("l-diversity nonsense", ["--l-diversity", "x"]),
            ])  # fmt: skip
        else:
            out += _options(cmd, base, [
                ("population smaller than the sample", ["--population", "3"]),
                ("sampling fraction 2", ["--sampling-fraction", "2"]),
            ])  # fmt: skip

    # ---- table hierarchy
    hier = ["table", "hierarchy", "interval", "{d}/data.csv", "--column", "age"]
    out += _input_cases("table hierarchy", lambda p: ["table", "hierarchy", "interval", p,
                                                      "--column", "age", "--width", "10",
                                                      "-o", "{d}/h.csv"])  # fmt: skip
    out += _output_cases("table hierarchy", lambda p: [*hier, "--width", "10", "-o", p],
                         ["data.csv"])  # fmt: skip
    out.append(Case("table hierarchy", "-o - with --json",
                    [*hier, "--width", "10", "-o", "-", "--json"], expect="--json and -o -"))
    out += _options("table hierarchy", [*hier, "-o", "{d}/h.csv"], [
        ("width 0", ["--width", "0"]), ("width nan", ["--width", "nan"]),
        ("no width", []), ("unknown kind", ["--width", "5", "--fanout", "1"]),
    ])  # fmt: skip

    # ---- table permute
    out += _input_cases("table permute", lambda p: ["table", "permute", p, *PERMUTE[3:], "-o",
                                                    "{d}/rel2"])  # fmt: skip
    out += [
        Case("table permute", "-o the folder holding the input",
             [*PERMUTE, "-o", "{d}", "--overwrite"]),
        Case("table permute", "-o a foreign folder --overwrite",
             [*PERMUTE, "-o", "{d}/mine", "--overwrite"]),
        Case("table permute", "-o an earlier release without --overwrite",
             [*PERMUTE, "-o", "{d}/release"]),
        Case("table permute", "-o -", [*PERMUTE, "-o", "-"]),
        Case("table permute", "-o a file", [*PERMUTE, "-o", "{d}/salaries.csv"]),
    ]  # fmt: skip
    out += _options("table permute", [*PERMUTE[:4], "--sensitive", "salary", "-o", "{d}/r3"], [
        ("k = 0", ["--k", "0", "--e", "1"]), ("e negative", ["--k", "2", "--e", "-5"]),
        ("anatomy without l", ["--anatomy"]), ("unknown partition", ["--k", "2", "--e", "1",
                                                                     "--partition", "x"]),
    ])  # fmt: skip

    # ---- table query
    q = "SELECT SUM(salary) FROM t WHERE age BETWEEN 35 AND 55"
    out += [Case("table query", label, ["table", "query", *argv]) for label, argv in [
        ("not a release folder", ["{d}/mine", q]), ("a file", ["{d}/data.csv", q]),
        ("missing folder", ["{d}/nope", q]), ("not SQL", ["{d}/release", "hello"]),
        ("unknown column", ["{d}/release", "SELECT SUM(x) FROM t"]),
        ("sensitive attribute in WHERE", ["{d}/release",
                                          "SELECT SUM(salary) FROM t WHERE salary > 5"]),
        ("two statements", ["{d}/release", q + "; DROP TABLE t"]),
        ("unknown aggregate", ["{d}/release", "SELECT MEDIAN(salary) FROM t"]),
        ("GROUP BY", ["{d}/release", "SELECT SUM(salary) FROM t GROUP BY age"]),
        ("a join", ["{d}/release", "SELECT SUM(salary) FROM t, u"]),
        ("unknown backend", ["{d}/release", q, "--backend", "oracle"]),
        ("postgres without --dsn", ["{d}/release", q, "--backend", "postgres"]),
        ("generalization file missing", ["{d}/release", q, "--generalization", "{d}/nope.csv"]),
        ("generalization file wrong", ["{d}/release", q, "--generalization", "{d}/data.csv"]),
        ("markup in SQL", ["{d}/release", "SELECT [/] :smile:"]),
    ]]  # fmt: skip

    # ---- dp release
    rel = ["dp", "release", "{d}/people.csv", "-e", "1"]
    out += _input_cases("dp release", lambda p: ["dp", "release", p, "-q", "count", "-q",
                                                 "mean:age:0:100", "-e", "1"])  # fmt: skip
    out += _options("dp release", rel, [
        ("epsilon 0", ["-q", "count", "-e", "0"]), ("epsilon nan", ["-q", "count", "-e", "nan"]),
        ("epsilon inf", ["-q", "count", "-e", "inf"]),
        ("epsilon 1e30", ["-q", "count", "-e", "1e30"]),
        ("delta 2", ["-q", "count", "--delta", "2"]), ("unknown query", ["-q", "median:age"]),
        ("sum without bounds", ["-q", "sum:income"]),
        ("histogram without bins", ["-q", "histogram:sex"]),
        ("bins 0:100:0", ["-q", "histogram:age", "--bins", "age=0:100:0"]),
        ("bins of text 0:100:0 twice", ["-q", "histogram:sex", "--bins", "sex=0:100:0,0:100:0"]),
        ("bins of 10^9 cells", ["-q", "histogram:age", "--bins", "age=0:1e9:1"]),
    ])  # fmt: skip
    out += [
        Case("dp release", "a private value outside the bins",
             ["dp", "release", "{d}/s.csv", "-q", "histogram:age", "--bins", "age=0:100:10",
              "-e", "1"], setup=_with_secret("people.csv", "s.csv", "age", SECRET_NUMBER, ","),
             secret=SECRET_NUMBER),
        Case("dp release", "a private text in a numeric column",
             ["dp", "release", "{d}/s.csv", "-q", "mean:income:0:10000", "-e", "1"],
             setup=_with_secret("people.csv", "s.csv", "income", SECRET, ","), secret=SECRET),
        Case("dp release", "a sum of 10^13s (no overflow)",
             ["dp", "release", "{d}/big.csv", "-q", "sum:x:0:1e13", "-e", "1"], ok=True,
             setup=_write("big.csv", "x\n" + "10000000000000\n" * 2000)),
    ]  # fmt: skip
    # ---- dp release, grouped (--groupby, --privacy-unit, --keys/--key, -o)
    grp = [*rel, "-q", "count"]
    pub = ["--groupby", "sex", "--key", "sex=F,M"]
    unit = ["--privacy-unit", "age", "--max-rows-per-unit", "1"]
    out += _options("dp release", grp, [
        ("private keys with delta 0", ["--groupby", "sex"]),
        ("groupby a missing column", ["--groupby", "nope", "--delta", "1e-6"]),
        ("groupby a column twice", ["--groupby", "sex,sex", "--delta", "1e-6"]),
        ("privacy unit a missing column", ["--privacy-unit", "nope", "--max-rows-per-unit", "1"]),
        ("privacy unit without max rows", ["--privacy-unit", "age"]),
        ("max rows 0", ["--privacy-unit", "age", "--max-rows-per-unit", "0"]),
        ("max rows 10^7", ["--privacy-unit", "age", "--max-rows-per-unit", "10000000"]),
        ("max rows without a unit", ["--max-rows-per-unit", "2"]),
        ("max groups without a unit", [*pub, "--max-groups-per-unit", "2"]),
        ("unit and groups without max groups", ["--groupby", "sex", *unit, "--delta", "1e-6"]),
        ("--key without --groupby", ["--key", "sex=F,M"]),
        ("--key without values", ["--groupby", "sex", "--key", "sex"]),
        ("--key of another column", ["--groupby", "sex", "--key", "age=1,2"]),
        ("--key values repeated", ["--groupby", "sex", "--key", "sex=F,F"]),
        ("--keys file missing", ["--groupby", "sex", "--keys", "{d}/nope.csv"]),
        ("--keys file without the column", ["--groupby", "sex", "--keys", "{d}/zip.csv"]),
        ("--keys and --key both", [*pub, "--keys", "{d}/people.csv"]),
        ("mechanism unknown", [*pub, "--mechanism", "cauchy"]),
        ("gaussian without delta", [*pub, "--mechanism", "gaussian"]),
        ("variance without bounds", [*pub, "-q", "variance:income"]),
        ("std of a text column", [*pub, "-q", "std:sex:0:1"]),
        ("histogram in a grouped release", [*pub, "-q", "histogram:sex"]),
        ("-o over the input", [*pub, "-o", "{d}/people.csv"]),
        ("-o - with --json", [*pub, "-o", "-", "--json"]),
        ("-o into a folder", [*pub, "-o", "{d}/mine"]),
        ("median without bounds", [*pub, "-q", "median:age"]),
        ("median bounds reversed", [*pub, "-q", "median:age:100:0"]),
        ("median of a text column", [*pub, "-q", "median:sex:0:1"]),
        ("quantile without a level", [*pub, "-q", "quantile:age:0:100"]),
        ("quantile level 1.5", [*pub, "-q", "quantile:age:0:100:1.5"]),
        ("quantile level text", [*pub, "-q", "quantile:age:0:100:p"]),
        ("quantile level nan", [*pub, "-q", "quantile:age:0:100:nan"]),
        ("quantile bounds inf", [*pub, "-q", "quantile:age:0:inf:0.5"]),
    ])  # fmt: skip
    out += [
        Case("dp release", "grouped: a private text in a numeric column",
             ["dp", "release", "{d}/s.csv", "-q", "mean:income:0:10000", *pub, "-e", "1"],
             setup=_with_secret("people.csv", "s.csv", "income", SECRET, ","), secret=SECRET),
        Case("dp release", "grouped: a one-person group under private keys stays hidden",
             ["dp", "release", "{d}/s.csv", "-q", "count", "--groupby", "sex", "--delta",
              "1e-9", "-e", "1", "-o", "{d}/res.csv"], ok=True, secret=SECRET,
             setup=_with_secret("people.csv", "s.csv", "sex", SECRET, ",")),
        Case("dp release", "grouped: a private text in a median's column",
             ["dp", "release", "{d}/s.csv", "-q", "median:income:0:10000", *pub, "-e", "1"],
             setup=_with_secret("people.csv", "s.csv", "income", SECRET, ","), secret=SECRET),
        Case("dp release", "grouped: median and quantile per unit",
             ["dp", "release", "{d}/people.csv", "-q", "median:income:0:7000", "-q",
              "quantile:age:0:100:0.9", *pub, *unit, "--max-groups-per-unit", "1", "-e", "1"],
             ok=True),
        Case("dp release", "grouped: per unit, to Parquet",
             ["dp", "release", "{d}/people.csv", "-q", "sum:income:0:7000", *pub, *unit,
              "--max-groups-per-unit", "1", "-e", "1", "-o", "{d}/res.parquet"], ok=True),
    ]  # fmt: skip

    # ---- dp release with per-query budgets and a budget ledger
    ledger = ('{"privlab_budget_ledger": 1, "created": "t", "total": {"epsilon": 0.5, '
              '"delta": 0.0}, "releases": []}')  # fmt: skip
    with_ledger = _write("b.json", ledger)
    out += _options("dp release", ["dp", "release", "{d}/people.csv", "-e", "1"], [
        ("-q count@0", ["-q", "count@0"]), ("-q count@nan", ["-q", "count@nan"]),
        ("-q count@x", ["-q", "count@x"]), ("-q @0.5", ["-q", "@0.5"]),
        ("-q count@-1", ["-q", "count@-1"]),
        ("@ε over --epsilon", ["-q", "count@0.7", "-q", "mean:age:0:100@0.7"]),
        ("@ε leave nothing", ["-q", "count@1", "-q", "mean:age:0:100"]),
        ("--total-epsilon without --budget-file", ["-q", "count", "--total-epsilon", "1"]),
        ("--budget-file missing, no total", ["-q", "count", "--budget-file", "{d}/nope.json"]),
        ("--total-epsilon 0", ["-q", "count", "--budget-file", "{d}/n.json",
                               "--total-epsilon", "0"]),
        ("--total-epsilon nan", ["-q", "count", "--budget-file", "{d}/n.json",
                                 "--total-epsilon", "nan"]),
        ("--total-delta 1", ["-q", "count", "--budget-file", "{d}/n.json",
                             "--total-epsilon", "1", "--total-delta", "1"]),
        ("--total-delta alone", ["-q", "count", "--budget-file", "{d}/n.json",
                                 "--total-delta", "1e-6"]),
        ("first release over the new total", ["-q", "count", "--budget-file", "{d}/n.json",
                                              "--total-epsilon", "0.5"]),
        ("--budget-file is the input", ["-q", "count", "--budget-file", "{d}/people.csv"]),
        ("--budget-file a folder", ["-q", "count", "--budget-file", "{d}/mine"]),
        ("--budget-file a table", ["-q", "count", "--budget-file", "{d}/data.csv"]),
        ("--budget-file -", ["-q", "count", "--budget-file", "-"]),
    ])  # fmt: skip
    out += [
        Case("dp release", "a release over the ledger's total", expect="over the total",
             argv=["dp", "release", "{d}/people.csv", "-q", "count", "-e", "1", "--budget-file",
                   "{d}/b.json"], setup=with_ledger),
        Case("dp release", "another total for an existing ledger", expect="already holds",
             argv=["dp", "release", "{d}/people.csv", "-q", "count", "-e", "0.1",
                   "--budget-file", "{d}/b.json", "--total-epsilon", "9"], setup=with_ledger),
        Case("dp release", "a ledger within its total", ok=True,
             argv=["dp", "release", "{d}/people.csv", "-q", "count", "-e", "0.25",
                   "--budget-file", "{d}/b.json"], setup=with_ledger),
        Case("dp release", "--budget-file a device", root_only=True, expect="device",
             argv=["dp", "release", "{d}/people.csv", "-q", "count", "-e", "0.1",
                   "--budget-file", "{d}/dev", "--total-epsilon", "1"],
             setup=_device("dev", 3)),
    ]  # fmt: skip

    # ---- dp budget init / show
    out += _options("dp budget init", ["dp", "budget", "init"], [
        ("no file", ["--epsilon", "1"]), ("no epsilon", ["{d}/n.json"]),
        ("epsilon 0", ["{d}/n.json", "-e", "0"]), ("epsilon -1", ["{d}/n.json", "-e", "-1"]),
        ("epsilon nan", ["{d}/n.json", "-e", "nan"]), ("epsilon inf", ["{d}/n.json", "-e", "inf"]),
        ("epsilon text", ["{d}/n.json", "-e", "lots"]),
        ("delta 1", ["{d}/n.json", "-e", "1", "--delta", "1"]),
        ("delta -0.1", ["{d}/n.json", "-e", "1", "--delta", "-0.1"]),
        ("delta nan", ["{d}/n.json", "-e", "1", "--delta", "nan"]),
        ("an existing file", ["{d}/people.csv", "-e", "1"]),
        ("a folder", ["{d}/mine", "-e", "1"]),
        ("standard output", ["-", "-e", "1"]),
        ("name too long", ["{d}/" + LONG + ".json", "-e", "1"]),
        ("in a read-only folder", ["{d}/ro/b.json", "-e", "1"]),
    ])  # fmt: skip
    out += [
        Case("dp budget init", "an existing ledger", ["dp", "budget", "init", "{d}/b.json", "-e",
             "1"], setup=with_ledger, expect="exists already"),
        Case("dp budget init", "a device", ["dp", "budget", "init", "{d}/dev", "-e", "1"],
             setup=_device("dev", 3), root_only=True, expect="device"),
    ]  # fmt: skip
    show = ["dp", "budget", "show"]
    bad_ledgers = {
        "an empty file": "", "not JSON": "{{{", "a JSON list": "[1, 2]",
        "another JSON object": '{"a": 1}',
        "NaN in it": '{"privlab_budget_ledger": 1, "total": {"epsilon": NaN}}',
        "a negative total": '{"privlab_budget_ledger": 1, "total": {"epsilon": -1}}',
        "no total": '{"privlab_budget_ledger": 1}',
        "releases not a list": '{"privlab_budget_ledger": 1, "total": {"epsilon": 1}, '
                               '"releases": 3}',
        "an entry without fields": '{"privlab_budget_ledger": 1, "total": {"epsilon": 1}, '
                                   '"releases": [{}]}',
        "an entry of an unknown kind": '{"privlab_budget_ledger": 1, "total": {"epsilon": 1}, '
            '"releases": [{"time": "t", "query": "q", "input": "i", "mechanism": "m", '
            '"kind": "magic", "epsilon": 1}]}',
        "an entry with ε = -1": '{"privlab_budget_ledger": 1, "total": {"epsilon": 1}, '
            '"releases": [{"time": "t", "query": "q", "input": "i", "mechanism": "m", '
            '"kind": "pure", "epsilon": -1}]}',
        "a version 2 ledger": '{"privlab_budget_ledger": 2, "total": {"epsilon": 1}}',
    }  # fmt: skip
    out += [Case("dp budget show", label, [*show, "{d}/bad.json"], setup=_write("bad.json", text))
            for label, text in bad_ledgers.items()]  # fmt: skip
    out += _options("dp budget show", show, [
        ("no file", []), ("missing file", ["{d}/nope.json"]), ("a folder", ["{d}/mine"]),
        ("a table", ["{d}/data.csv"]), ("binary garbage", ["{d}/bin.json"]),
        ("name with markup [/] :smile:", ["{d}/a[/]b :smile:.json"]),
    ])  # fmt: skip
    out += [
        Case("dp budget show", "a valid ledger", [*show, "{d}/b.json"], ok=True,
             setup=with_ledger),
    ]  # fmt: skip

    # ---- dp above-threshold
    svt = ["dp", "above-threshold", "{d}/people.csv"]
    out += _input_cases("dp above-threshold", lambda p: ["dp", "above-threshold", p, "-q",
                                                        "sex=F", "-t", "5", "-e", "1"])  # fmt: skip
    out += _options("dp above-threshold", svt, [
        ("no query", ["-t", "5", "-e", "1"]), ("no threshold", ["-q", "sex=F", "-e", "1"]),
        ("no epsilon", ["-q", "sex=F", "-t", "5"]),
        ("query without =", ["-q", "sex", "-t", "5", "-e", "1"]),
        ("query without a column", ["-q", "=F", "-t", "5", "-e", "1"]),
        ("unknown column", ["-q", "colour=red", "-t", "5", "-e", "1"]),
        ("threshold text", ["-q", "sex=F", "-t", "many", "-e", "1"]),
        ("threshold 2.5", ["-q", "sex=F", "-t", "2.5", "-e", "1"]),
        ("threshold 10^30", ["-q", "sex=F", "-t", str(10**30), "-e", "1"]),
        ("epsilon 0", ["-q", "sex=F", "-t", "5", "-e", "0"]),
        ("epsilon nan", ["-q", "sex=F", "-t", "5", "-e", "nan"]),
        ("epsilon inf", ["-q", "sex=F", "-t", "5", "-e", "inf"]),
        ("epsilon -1", ["-q", "sex=F", "-t", "5", "-e", "-1"]),
        ("max-answers 0", ["-q", "sex=F", "-t", "5", "-e", "1", "-c", "0"]),
        ("max-answers -3", ["-q", "sex=F", "-t", "5", "-e", "1", "-c", "-3"]),
    ])  # fmt: skip
    out.append(Case("dp above-threshold", "a private text queried in a numeric column",
                    [*svt[:2], "{d}/s.csv", "-q", "income=0", "-t", "5", "-e", "1"], ok=True,
                    setup=_with_secret("people.csv", "s.csv", "income", SECRET, ","),
                    secret=SECRET))  # fmt: skip

    # ---- dp quantile, dp mode
    dq = ["dp", "quantile", "{d}/people.csv"]
    out += _input_cases("dp quantile", lambda p: [*dq[:2], p, "--column", "age", "--low", "0",
                                                 "--high", "100", "-e", "1"])  # fmt: skip
    out += _options("dp quantile", dq, [
        ("no column", ["--low", "0", "--high", "100", "-e", "1"]),
        ("unknown column", ["--column", "height", "--low", "0", "--high", "100", "-e", "1"]),
        ("no bounds", ["--column", "age", "-e", "1"]),
        ("low = high", ["--column", "age", "--low", "5", "--high", "5", "-e", "1"]),
        ("low > high", ["--column", "age", "--low", "9", "--high", "5", "-e", "1"]),
        ("high inf", ["--column", "age", "--low", "0", "--high", "inf", "-e", "1"]),
        ("low nan", ["--column", "age", "--low", "nan", "--high", "5", "-e", "1"]),
        ("quantile 1.5", ["--column", "age", "--low", "0", "--high", "100", "-e", "1", "-p",
                          "1.5"]),
        ("quantile -0.1", ["--column", "age", "--low", "0", "--high", "100", "-e", "1", "-p",
                           "-0.1"]),
        ("second quantile 2", ["--column", "age", "--low", "0", "--high", "100", "-e", "1",
                               "-p", "0.5", "-p", "2"]),
        ("quantile repeated", ["--column", "age", "--low", "0", "--high", "100", "-e", "1",
                               "-p", "0.5", "-p", "0.5"]),
        ("quantile text", ["--column", "age", "--low", "0", "--high", "100", "-e", "1", "-p",
                           "0.5", "-p", "half"]),
        ("joint candidates 1", ["--column", "age", "--low", "0", "--high", "100", "-e", "1",
                                "--joint", "--candidates", "1"]),
        ("joint candidates huge", ["--column", "age", "--low", "0", "--high", "100", "-e",
                                   "1", "--joint", "--candidates", "10000000"]),
        ("candidates without joint", ["--column", "age", "--low", "0", "--high", "100",
                                      "-e", "1", "--candidates", "50"]),
        ("epsilon 0", ["--column", "age", "--low", "0", "--high", "100", "-e", "0"]),
        ("epsilon nan", ["--column", "age", "--low", "0", "--high", "100", "-e", "nan"]),
        ("text column", ["--column", "sex", "--low", "0", "--high", "100", "-e", "1"]),
    ])  # fmt: skip
    out.append(Case("dp quantile", "a private text in a numeric column",
                    [*dq[:2], "{d}/s.csv", "--column", "income", "--low", "0", "--high", "1e4",
                     "-e", "1"], setup=_with_secret("people.csv", "s.csv", "income", SECRET, ","),
                    secret=SECRET))  # fmt: skip
    dm = ["dp", "mode", "{d}/people.csv"]
    out += _input_cases("dp mode", lambda p: ["dp", "mode", p, "--column", "sex", "--candidates",
                                             "F,M", "-e", "1"])  # fmt: skip
    out += _options("dp mode", dm, [
        ("no column", ["--candidates", "F,M", "-e", "1"]),
        ("unknown column", ["--column", "colour", "--candidates", "F,M", "-e", "1"]),
        ("no candidates", ["--column", "sex", "-e", "1"]),
        ("empty candidates", ["--column", "sex", "--candidates", "", "-e", "1"]),
        ("repeated candidates", ["--column", "sex", "--candidates", "F,F", "-e", "1"]),
        ("unknown mechanism", ["--column", "sex", "--candidates", "F,M", "-e", "1",
                               "--mechanism", "gumbel"]),
        ("epsilon 0", ["--column", "sex", "--candidates", "F,M", "-e", "0"]),
        ("epsilon -2", ["--column", "sex", "--candidates", "F,M", "-e", "-2"]),
        ("epsilon inf", ["--column", "sex", "--candidates", "F,M", "-e", "inf"]),
    ])  # fmt: skip

    # ---- dp kmeans
    km = ["dp", "kmeans", "{d}/people.csv", "--features", "age,income", "-k", "2", "-e", "1",
          "--bounds", "age=0:120", "--bounds", "income=0:10000"]  # fmt: skip
    out += _input_cases("dp kmeans", lambda p: [*km[:2], p, *km[3:]])
    out += _options("dp kmeans", km[:3], [
        ("no features", km[5:]), ("no bounds", km[3:9]),
        ("bounds of one feature only", [*km[3:11]]),
        ("bounds reversed", [*km[3:9], "--bounds", "age=9:1", "--bounds", "income=0:1"]),
        ("bounds text", [*km[3:9], "--bounds", "age=a:b", "--bounds", "income=0:1"]),
        ("bounds inf", [*km[3:9], "--bounds", "age=0:inf", "--bounds", "income=0:1"]),
        ("unknown feature", ["--features", "height", "-k", "2", "-e", "1",
                             "--bounds", "height=0:3"]),
        ("text feature", ["--features", "sex", "-k", "2", "-e", "1", "--bounds", "sex=0:3"]),
        ("repeated feature", ["--features", "age,age", *km[5:]]),
        ("k 0", [*km[3:5], "-k", "0", *km[7:]]), ("k 10^6", [*km[3:5], "-k", "1000000", *km[7:]]),
        ("epsilon 0", [*km[3:7], "-e", "0", *km[9:]]),
        ("epsilon nan", [*km[3:7], "-e", "nan", *km[9:]]),
        ("iterations 0", [*km[3:], "--iterations", "0"]),
        ("max-iterations 0", [*km[3:], "--max-iterations", "0"]),
        ("max-iterations 500", [*km[3:], "--max-iterations", "500"]),
    ])  # fmt: skip
    out.append(Case("dp kmeans", "a private text in a numeric column",
                    [*km[:2], "{d}/s.csv", *km[3:]], secret=SECRET,
                    setup=_with_secret("people.csv", "s.csv", "income", SECRET, ",")))  # fmt: skip

    # ---- dp node-degrees
    nd = ["dp", "node-degrees", "{d}/g.txt", "--theta", "5", "-e", "1"]
    out += _input_cases("dp node-degrees", lambda p: [*nd[:2], p, *nd[3:]], table=False)
    out += _options("dp node-degrees", nd[:3], [
        ("no theta", ["-e", "1"]), ("no epsilon", ["--theta", "5"]),
        ("theta 0", ["--theta", "0", "-e", "1"]), ("theta -3", ["--theta", "-3", "-e", "1"]),
        ("theta 10^9", ["--theta", "1000000000", "-e", "1"]),
        ("theta text", ["--theta", "five", "-e", "1"]),
        ("theta 2.5", ["--theta", "2.5", "-e", "1"]),
        ("epsilon 0", ["--theta", "5", "-e", "0"]), ("epsilon nan", ["--theta", "5", "-e", "nan"]),
        ("epsilon inf", ["--theta", "5", "-e", "inf"]),
    ])  # fmt: skip

    # ---- dp params
    out += _options("dp params", ["dp", "params"], [
        ("no epsilon", []), ("epsilon 0", ["-e", "0"]), ("epsilon negative", ["-e", "-1"]),
        ("epsilon nan", ["-e", "nan"]), ("epsilon inf", ["-e", "inf"]),
        ("epsilon text", ["-e", "one"]), ("delta 0", ["-e", "1", "--delta", "0"]),
        ("delta 1", ["-e", "1", "--delta", "1"]), ("delta nan", ["-e", "1", "--delta", "nan"]),
        ("beta without k", ["-e", "1", "--beta", "0.5"]),
        ("beta 1.5", ["-e", "1", "--beta", "1.5", "-k", "5"]),
        ("beta 0", ["-e", "1", "--beta", "0", "-k", "5"]),
        ("k 0", ["-e", "1", "--beta", "0.5", "-k", "0"]),
        ("k huge", ["-e", "1", "--beta", "0.5", "-k", str(10**30)]),
        ("delta and beta", ["-e", "1", "--delta", "1e-5", "--beta", "0.5", "-k", "5"]),
        ("epsilon 1e300", ["-e", "1e300", "--delta", "1e-5"]),
    ])  # fmt: skip

    # ---- dp plan (reads no data: only its options can be wrong)
    out += _options("dp plan", ["dp", "plan"], [
        ("no query", ["-e", "1"]), ("unknown query", ["median", "-e", "1"]),
        ("sum without bounds", ["sum", "-e", "1"]), ("sum bounds text", ["sum:a:b", "-e", "1"]),
        ("sum LOW > HIGH", ["sum:5:1", "-e", "1"]), ("sum bound inf", ["sum:0:inf", "-e", "1"]),
        ("mean without --n", ["mean:0:10", "-e", "1"]),
        ("mean n 0", ["mean:0:10", "-e", "1", "--n", "0"]),
        ("neither epsilon nor error", ["count"]),
        ("both epsilon and error", ["count", "-e", "1", "--error", "3"]),
        ("epsilon 0", ["count", "-e", "0"]), ("epsilon nan", ["count", "-e", "nan"]),
        ("epsilon negative", ["count", "-e", "-2"]), ("error negative", ["count", "--error", "-3"]),
        ("error nan", ["count", "--error", "nan"]),
        ("error out of reach", ["sum:0.5:1.5", "--error", "1e-12"]),
        ("confidence 1", ["count", "-e", "1", "--confidence", "1"]),
        ("confidence 95", ["count", "-e", "1", "--confidence", "95"]),
        ("delta 1", ["count", "-e", "1", "--delta", "1"]),
        ("gaussian without delta", ["count", "-e", "1", "--mechanism", "gaussian"]),
        ("laplace with delta", ["count", "-e", "1", "--mechanism", "laplace", "--delta", "1e-6"]),
        ("unknown mechanism", ["count", "-e", "1", "--mechanism", "cauchy"]),
        ("rows per unit 0", ["count", "-e", "1", "--max-rows-per-unit", "0"]),
        ("groups per unit -1", ["count", "-e", "1", "--max-groups-per-unit", "-1"]),
    ])  # fmt: skip

    # ---- dp safe-kanon
    sk_qi = [x for c in ("zip", "age", "sex", "education", "marital-status")
             for x in ("--qi", c, "--hierarchy", f"{c}={{d}}/h_{c}.csv")]  # fmt: skip
    sk = ["dp", "safe-kanon", "{d}/census.csv", *sk_qi, "--identifying", "id", "--insensitive",
          "disease", "-e", "1"]  # fmt: skip
    out += _input_cases(
        "dp safe-kanon",
        lambda p: ["dp", "safe-kanon", p, *sk[3:], "--delta", "1e-3", "-o", "{d}/sk.csv"],
    )
    out += _output_cases("dp safe-kanon", lambda p: [*sk, "--delta", "1e-3", "-o", p],
                         ["census.csv", "h_age.csv"])  # fmt: skip
    out += _options("dp safe-kanon", [*sk, "-o", "{d}/sk.csv"], [
        ("no delta, beta or k", []), ("delta 2", ["--delta", "2"]),
        ("levels out of range", ["--beta", "0.5", "-k", "5", "--levels", "zip=9"]),
        ("levels of a non-QI", ["--beta", "0.5", "-k", "5", "--levels", "disease=1"]),
        ("a data-built hierarchy", ["--delta", "1e-3", "--hierarchy", "zip2=interval:width=5"]),
        ("selection epsilon above epsilon", ["--delta", "1e-3", "--selection-epsilon", "2"]),
    ])  # fmt: skip
    out.append(Case("dp safe-kanon", "an undeclared column",
                    ["dp", "safe-kanon", "{d}/census.csv", *sk_qi, "--identifying", "id", "-e",
                     "1", "--delta", "1e-3", "-o", "{d}/sk.csv"]))  # fmt: skip

    # ---- graph anonymize
    ga = ["graph", "anonymize", "{d}/g.txt", "-s", "rsp", "--fraction", "0.1"]
    gp_base = ["graph", "pair", "{d}/g.txt", "--alpha-v", "0.5", "--alpha-e", "1"]
    out += _input_cases(
        "graph anonymize",
        lambda p: ["graph", "anonymize", p, "-s", "naive", "-o", "{d}/o.txt"],
        table=False,
    )
    out += _output_cases("graph anonymize", lambda p: [*ga, "-o", p], ["g.txt"])
    out += [
        Case("graph anonymize", "--mapping = -o (the key as the release)", expect="same path",
             argv=
             [*ga, "-o", "{d}/o.txt", "--mapping", "{d}/o.txt"]),
        Case("graph anonymize", "--mapping = input", [*ga, "-o", "{d}/o.txt", "--mapping",
                                                      "{d}/g.txt"]),
        Case("graph anonymize", "--mapping in a read-only folder",
             [*ga, "-o", "{d}/o.txt", "--mapping", "{d}/ro/m.csv"], setup=_read_only("ro")),
        Case("graph anonymize", "unknown scheme", ["graph", "anonymize", "{d}/g.txt", "-s", "x",
                                                   "-o", "{d}/o.txt"]),
        Case("graph anonymize", "fraction 2", [*ga[:5], "--fraction", "2", "-o", "{d}/o.txt"]),
        Case("graph anonymize", "kdegree without k", [*ga[:3], "-s", "kdegree", "-o",
                                                      "{d}/o.txt"]),
        Case("graph anonymize", "dp-dk2 degree above the bound",
             [*ga[:3], "-s", "dp-dk2", "-e", "1", "--max-degree", "3", "-o", "{d}/o.txt"]),
        *_options("graph anonymize", ["graph", "anonymize", "{d}/g.txt", "-s", "ksymmetry",
                                      "-o", "{d}/o.txt"], [
            ("ksymmetry without k", []), ("ksymmetry k 0", ["--k", "0"]),
            ("ksymmetry k -3", ["--k", "-3"]), ("ksymmetry k text", ["--k", "two"]),
            ("ksymmetry k 2.5", ["--k", "2.5"]),
            ("ksymmetry k huge (release too large)", ["--k", "100000"]),
            ("ksymmetry --directed", ["--k", "2", "--directed"]),
            ("ksymmetry --mapping with --keep-ids", ["--k", "2", "--keep-ids", "--mapping",
                                                     "{d}/m.csv"]),
        ]),
        *_options("graph anonymize", ["graph", "anonymize", "{d}/g.txt", "-s", "union-split",
                                      "-o", "{d}/o.txt"], [
            ("union-split without k", []), ("union-split k 0", ["--k", "0"]),
            ("union-split k text", ["--k", "ten"]),
            ("union-split k above n", ["--k", "100000"]),
            ("union-split unknown distance", ["--k", "2", "--method", "two-hop"]),
            ("union-split --directed", ["--k", "2", "--directed"]),
            ("union-split foreign --walk-length", ["--k", "2", "--walk-length", "2"]),
        ]),
        *_options("graph anonymize", ["graph", "anonymize", "{d}/g.txt", "-s",
                                      "kautomorphism", "-o", "{d}/o.txt"], [
            ("kautomorphism without k", []), ("kautomorphism k 0", ["--k", "0"]),
            ("kautomorphism k text", ["--k", "many"]),
            ("kautomorphism k huge (release too large)", ["--k", "1000000000"]),
            ("kautomorphism unknown method", ["--k", "2", "--method", "metis"]),
            ("kautomorphism --directed", ["--k", "2", "--directed"]),
        ]),
        *_options("graph anonymize", ["graph", "anonymize", "{d}/g.txt", "-s",
                                      "kisomorphism", "-o", "{d}/o.txt"], [
            ("kisomorphism without k", []), ("kisomorphism k 0", ["--k", "0"]),
            ("kisomorphism k huge (release too large)", ["--k", "1000000000"]),
            ("kisomorphism unknown method", ["--k", "2", "--method", "gspan"]),
        ]),
        *_options("graph anonymize", ["graph", "anonymize", "{d}/g.txt", "-s",
                                      "k-neighbourhood", "-o", "{d}/o.txt"], [
            ("k-neighbourhood without k", []), ("k-neighbourhood k 0", ["--k", "0"]),
            ("k-neighbourhood k text", ["--k", "five"]),
            ("k-neighbourhood k 2.5", ["--k", "2.5"]),
            ("k-neighbourhood k > n", ["--k", "100000"]),
            ("k-neighbourhood --directed", ["--k", "2", "--directed"]),
            ("k-neighbourhood negative edge budget", ["--k", "2", "--fraction", "-1"]),
            ("k-neighbourhood foreign --walk-length", ["--k", "2", "--walk-length", "3"]),
        ]),
        Case("graph pair", "k-neighbourhood k > n",
             [*gp_base, "-s", "k-neighbourhood", "--k", "100000", "-o", "{d}/p2"]),
        Case("graph pair", "a node-adding scheme (kisomorphism)",
             [*gp_base, "-s", "kisomorphism", "--k", "2", "-o", "{d}/p2"]),
        Case("graph pair", "a node-adding scheme (kautomorphism)",
             [*gp_base, "-s", "kautomorphism", "--k", "2", "-o", "{d}/p2"]),
        Case("graph anonymize", "kautomorphism k 40 > n (valid: noise nodes)",
             ["graph", "anonymize", "{d}/g.txt", "-s", "kautomorphism", "--k", "40", "-o",
              "{d}/o.txt"], ok=True),
        Case("graph pair", "a node-adding scheme (ksymmetry)",
             [*gp_base, "-s", "ksymmetry", "--k", "2", "-o", "{d}/p2"]),
        Case("graph anonymize", "ksymmetry k 2 (valid)", ["graph", "anonymize", "{d}/g.txt", "-s",
             "ksymmetry", "--k", "2", "-o", "{d}/o.txt"], ok=True),
        Case("graph anonymize", "-o - (stdout)", [*ga, "-o", "-"], ok=True),
        Case("graph anonymize", "-o a device (1,3)", [*ga, "-o", "{d}/null"], ok=True,
             setup=_device("null", 3), keeps=_is_device("null"), root_only=True),
    ]  # fmt: skip

    # ---- graph anonymize: the structure-aware perturbation schemes
    gx = ["graph", "anonymize", "{d}/g.txt", "-o", "{d}/o.txt"]
    k4 = _write("k4.txt", "0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n")
    out += _options("graph anonymize", gx, [
        ("randwalk without --walk-length", ["-s", "randwalk"]),
        ("randwalk --walk-length 0", ["-s", "randwalk", "--walk-length", "0"]),
        ("randwalk --walk-length -3", ["-s", "randwalk", "--walk-length", "-3"]),
        ("randwalk --walk-length 2.5", ["-s", "randwalk", "--walk-length", "2.5"]),
        ("randwalk --walk-length text", ["-s", "randwalk", "--walk-length", "two"]),
        ("randwalk --walk-length 10^7", ["-s", "randwalk", "--walk-length", "10000000"]),
        ("randwalk with --tolerance", ["-s", "randwalk", "--walk-length", "2", "--tolerance",
                                       "0.1"]),
        ("--walk-length with rsp", ["-s", "rsp", "--fraction", "0.1", "--walk-length", "2"]),
        ("--tolerance with rad", ["-s", "rad", "--fraction", "0.1", "--tolerance", "0.1"]),
        ("spctr-ad without --fraction", ["-s", "spctr-ad"]),
        ("spctr-sw without --fraction", ["-s", "spctr-sw", "--tolerance", "0.1"]),
        ("spctr-ad fraction 1.5", ["-s", "spctr-ad", "--fraction", "1.5"]),
        ("spctr-sw fraction -0.1", ["-s", "spctr-sw", "--fraction", "-0.1"]),
        ("spctr-ad fraction nan", ["-s", "spctr-ad", "--fraction", "nan"]),
        ("spctr-ad tolerance 2", ["-s", "spctr-ad", "--fraction", "0.1", "--tolerance", "2"]),
        ("spctr-sw tolerance -0.5", ["-s", "spctr-sw", "--fraction", "0.1", "--tolerance",
                                     "-0.5"]),
        ("spctr-sw tolerance inf", ["-s", "spctr-sw", "--fraction", "0.1", "--tolerance",
                                    "inf"]),
        ("randwalk --directed", ["-s", "randwalk", "--walk-length", "2", "--directed"]),
    ])  # fmt: skip
    out += [
        Case("graph anonymize", "spctr-ad on a complete graph (no non-edges)", expect="non-edges",
             argv=["graph", "anonymize", "{d}/k4.txt", "-s", "spctr-ad", "--fraction", "0.5",
                   "-o", "{d}/o.txt"], setup=k4),
        Case("graph anonymize", "spctr-sw on a complete graph (no valid switch)",
             expect="Spctr Switch", argv=["graph", "anonymize", "{d}/k4.txt", "-s", "spctr-sw",
                                          "--fraction", "0.5", "-o", "{d}/o.txt"], setup=k4),
        Case("graph anonymize", "randwalk on a complete graph", ok=True,
             argv=["graph", "anonymize", "{d}/k4.txt", "-s", "randwalk", "--walk-length", "3",
                   "-o", "{d}/o.txt"], setup=k4),
    ]  # fmt: skip

    # ---- graph anonymize / pair --scheme dp-hrg
    gh = ["graph", "anonymize", "{d}/g.txt", "-s", "dp-hrg", "-o", "{d}/o.txt"]
    two = _write("two.txt", "0 1\n")
    out += _options("graph anonymize", gh, [
        ("dp-hrg without --epsilon", []),
        ("dp-hrg epsilon 0", ["-e", "0"]), ("dp-hrg epsilon -1", ["-e", "-1"]),
        ("dp-hrg epsilon nan", ["-e", "nan"]), ("dp-hrg epsilon inf", ["-e", "inf"]),
        ("dp-hrg epsilon text", ["-e", "lots"]),
        ("dp-hrg --hrg-share 0", ["-e", "1", "--hrg-share", "0"]),
        ("dp-hrg --hrg-share 1 (nothing left for the counts)", ["-e", "1", "--hrg-share", "1"]),
        ("dp-hrg --hrg-share 1.5", ["-e", "1", "--hrg-share", "1.5"]),
        ("dp-hrg --hrg-share nan", ["-e", "1", "--hrg-share", "nan"]),
        ("dp-hrg --mcmc-steps -1", ["-e", "1", "--mcmc-steps", "-1"]),
        ("dp-hrg --mcmc-steps 2.5", ["-e", "1", "--mcmc-steps", "2.5"]),
        ("dp-hrg --mcmc-steps text", ["-e", "1", "--mcmc-steps", "many"]),
        ("dp-hrg unknown --small-subtrees", ["-e", "1", "--small-subtrees", "merge"]),
        ("dp-hrg --directed", ["-e", "1", "--directed", "--mcmc-steps", "10"]),
        ("dp-hrg with --max-degree", ["-e", "1", "--max-degree", "40"]),
    ])  # fmt: skip
    out += [
        Case("graph anonymize", "--hrg-share with rsp", expect="--scheme dp-hrg",
             argv=[*ga, "--hrg-share", "0.5", "-o", "{d}/o.txt"]),
        Case("graph anonymize", "--mcmc-steps with dp-dk2", expect="--scheme dp-hrg",
             argv=[*ga[:3], "-s", "dp-dk2", "-e", "1", "--max-degree", "40", "--mcmc-steps",
                   "10", "-o", "{d}/o.txt"]),
        Case("graph anonymize", "dp-hrg on a 2-node graph", expect="≥ 3 nodes", setup=two,
             argv=["graph", "anonymize", "{d}/two.txt", "-s", "dp-hrg", "-e", "1", "-o",
                   "{d}/o.txt"]),
        Case("graph anonymize", "dp-hrg (valid)", ok=True,
             argv=[*gh, "-e", "1", "--mcmc-steps", "500", "--seed", "1"]),
        Case("graph pair", "--scheme dp-hrg without --epsilon", expect="needs --epsilon",
             argv=[*gp_base, "-s", "dp-hrg", "-o", "{d}/p2"]),
        Case("graph pair", "--hrg-share without a scheme", expect="--scheme dp-hrg",
             argv=[*gp_base, "--hrg-share", "0.5", "-o", "{d}/p2"]),
    ]  # fmt: skip

    # ---- graph generalize
    gg = ["graph", "generalize", "{d}/g.txt", "-k", "3", "--steps", "50"]
    out += _input_cases("graph generalize",
                        lambda p: ["graph", "generalize", p, "-k", "2", "-o", "{d}/r.json"],
                        table=False)  # fmt: skip
    out += _output_cases("graph generalize", lambda p: [*gg, "-o", p], ["g.txt"])
    out += _options("graph generalize", [*gg[:3], "-o", "{d}/r.json"], [
        ("no k", []), ("k 0", ["-k", "0"]), ("k -1", ["-k", "-1"]), ("k text", ["-k", "three"]),
        ("k 2.5", ["-k", "2.5"]), ("k above the node count", ["-k", "35"]),
        ("steps -1", ["-k", "3", "--steps", "-1"]), ("steps text", ["-k", "3", "--steps", "x"]),
        ("--mapping = --sample", ["-k", "3", "--sample", "{d}/s.txt", "--mapping", "{d}/s.txt"]),
    ])  # fmt: skip
    out += [
        Case("graph generalize", "--sample = -o", [*gg, "-o", "{d}/r.json", "--sample",
                                                   "{d}/r.json"], expect="same path"),
        Case("graph generalize", "--mapping = input", [*gg, "-o", "{d}/r.json", "--mapping",
                                                       "{d}/g.txt"]),
        Case("graph generalize", "--sample in a read-only folder",
             [*gg, "-o", "{d}/r.json", "--sample", "{d}/ro/s.txt"], setup=_read_only("ro")),
        Case("graph generalize", "-o - with --json", [*gg, "-o", "-", "--json"]),
        Case("graph generalize", "a directed GraphML input (read as undirected, as everywhere)",
             ["graph", "generalize", "{d}/d.graphml", "-k", "2", "-o", "{d}/r.json"],
             setup=_write("d.graphml", GRAPHML_DIRECTED), ok=True),
        Case("graph generalize", "with --sample and --mapping",
             [*gg, "-o", "{d}/r.json", "--sample", "{d}/s.txt", "--mapping", "{d}/m.csv"],
             ok=True),
    ]  # fmt: skip

    # ---- graph pair
    gp = ["graph", "pair", "{d}/g.txt", "--alpha-v", "0.5", "--alpha-e", "0.5"]
    out += _input_cases("graph pair", lambda p: ["graph", "pair", p, *gp[3:], "-o", "{d}/p2"],
                        table=False)  # fmt: skip
    out += [
        Case("graph pair", "-o the folder holding the input --force",
             [*gp, "-o", "{d}", "--force"]),
        Case("graph pair", "-o a foreign folder --force", [*gp, "-o", "{d}/mine", "--force"]),
        Case("graph pair", "-o an earlier pair without --force", [*gp, "-o", "{d}/pair"]),
        Case("graph pair", "alpha-v 0", [*gp[:3], "--alpha-v", "0", "--alpha-e", "0.5", "-o",
                                         "{d}/p2"]),
        Case("graph pair", "no alphas", [*gp[:3], "-o", "{d}/p2"]),
        Case("graph pair", "--p without --secgraph", [*gp, "--p", "0.5", "-o", "{d}/p2"]),
    ]  # fmt: skip

    # ---- graph utility, attack refine, h1-risk, subgraph, active
    out += _input_cases("graph utility", lambda p: ["graph", "utility", p, "{d}/rel.txt"],
                        table=False)  # fmt: skip
    out += _options("graph utility", ["graph", "utility", "{d}/g.txt", "{d}/rel.txt"], [
        ("unknown metric", ["-m", "bogus"]), ("sample 0", ["--sample", "0"]),
        ("sample text", ["--sample", "many"]),
    ])  # fmt: skip
    out += _input_cases("graph attack refine", lambda p: ["graph", "attack", "refine", p],
                        table=False)  # fmt: skip
    out += _options("graph attack refine", ["graph", "attack", "refine", "{d}/g.txt"], [
        ("level -1", ["--level", "-1"]), ("level and star", ["--level", "2", "--star"]),
        ("level text", ["--level", "two"]),
    ])  # fmt: skip
    out += _input_cases("graph attack h1-risk", lambda p: ["graph", "attack", "h1-risk", p,
                                                           "{d}/rel.txt", "--m", "4"],
                        table=False)  # fmt: skip
    out += _options("graph attack h1-risk", ["graph", "attack", "h1-risk", "{d}/g.txt",
                                             "{d}/rel.txt"], [
        ("no m", []), ("m negative", ["--m", "-1"]),
        ("unknown model", ["--m", "2", "--model", "x"]),
    ])  # fmt: skip
    out += _input_cases("graph attack subgraph", lambda p: ["graph", "attack", "subgraph", p],
                        table=False)  # fmt: skip
    out += _options("graph attack subgraph", ["graph", "attack", "subgraph", "{d}/g.txt"], [
        ("facts 0", ["--facts", "0"]), ("nodes text", ["--nodes", "some"]),
        ("nodes 0", ["--nodes", "0"]), ("unknown mode", ["--mode", "induced"]),
        ("mode empty", ["--mode", ""]), ("mode upper case", ["--mode", "GRAPH"]),
        ("graph mode, facts 0", ["--mode", "graph", "--facts", "0"]),
        ("graph mode, nodes text", ["--mode", "graph", "--nodes", "some"]),
    ])  # fmt: skip
    out += _input_cases("graph attack active", lambda p: ["graph", "attack", "active", p],
                        table=False)  # fmt: skip
    out += _options("graph attack active", ["graph", "attack", "active", "{d}/g.txt"], [
        ("k 1", ["-k", "1"]), ("targets 0", ["--targets", "0"]), ("k huge", ["-k", "100000"]),
    ])  # fmt: skip

    out += _input_cases("graph attack cut", lambda p: ["graph", "attack", "cut", p],
                        table=False)  # fmt: skip
    out += _options("graph attack cut", ["graph", "attack", "cut", "{d}/g.txt"], [
        ("k 1", ["-k", "1"]), ("targets 0", ["--targets", "0"]),
        ("k huge", ["-k", "100000"]), ("k below targets", ["--targets", "5", "-k", "3"]),
        ("targets above n", ["--targets", "100000"]), ("targets text", ["--targets", "few"]),
        ("max-draws 0", ["--max-draws", "0"]), ("trials 0", ["--trials", "0"]),
    ])  # fmt: skip

    # ---- obfuscation, links, group (privlab.cli.graph_privacy)
    ob = ["graph", "attack", "obfuscation"]
    out += _input_cases("graph attack obfuscation", lambda p: [*ob, p, "{d}/rel.txt"],
                        table=False)  # fmt: skip
    out += _options("graph attack obfuscation", [*ob, "{d}/g.txt", "{d}/g.txt"], [
        ("unknown model", ["--model", "noise"]), ("rad without m", ["--model", "rad"]),
        ("p 1.5", ["--model", "sparsify", "--p", "1.5"]), ("k 0", ["-k", "0"]),
        ("k text", ["-k", "two"]), ("rsp m that is not |E| - |E'|", ["--model", "rsp", "--m", "3"]),
    ])  # fmt: skip
    out += _input_cases("graph attack links", lambda p: ["graph", "attack", "links", p],
                        table=False)  # fmt: skip
    out += _options("graph attack links", ["graph", "attack", "links", "{d}/g.txt"], [
        ("level 0", ["--level", "0"]), ("level and star", ["--level", "2", "--star"]),
        ("non-edges -1", ["--non-edges", "-1"]), ("level text", ["--level", "two"]),
        ("unknown model", ["--model", "noise"]), ("rad model without m", ["--model", "rad"]),
    ])  # fmt: skip
    gr = ["graph", "attack", "group"]
    out += _input_cases("graph attack group", lambda p: [*gr, "{d}/g.txt", p], table=False)
    out += _options("graph attack group", [*gr, "{d}/g.txt", "{d}/g.txt"], [
        ("unknown knowledge", ["--knowledge", "H1"]), ("facts 0", ["--facts", "0"]),
        ("nodes 0", ["--nodes", "0"]), ("nodes text", ["--nodes", "some"]),
        ("nodes above n", ["--nodes", "999999"]),
    ])  # fmt: skip

    out += _input_cases("graph attack passive", lambda p: ["graph", "attack", "passive", p],
                        table=False)  # fmt: skip
    out += _options("graph attack passive", ["graph", "attack", "passive", "{d}/g.txt"], [
        ("k 1", ["-k", "1"]), ("k text", ["-k", "many"]), ("trials 0", ["--trials", "0"]),
        ("k above n", ["-k", "100000"]),
    ])  # fmt: skip

    # ---- propagate / learned (pair folders)
    def pair_cases(cmd: str, base: list[str]) -> list[Case]:
        return [Case(cmd, label, [*base[:3], *argv]) for label, argv in [
            ("missing folder", ["{d}/nope", *base[4:]]), ("a file", ["{d}/g.txt", *base[4:]]),
            ("a foreign folder", ["{d}/mine", *base[4:]]),
            ("a permutation release", ["{d}/release", *base[4:]]),
            ("the results folder", ["{d}/results", *base[4:]]),
        ]]  # fmt: skip

    prop = ["graph", "attack", "propagate", "{d}/pair", "--seeds", "5"]
    out += pair_cases("graph attack propagate", prop)
    out += _options("graph attack propagate", prop[:4], [
        ("no seeding", []), ("two seedings", ["--seeds", "3", "--discover", "3"]),
        ("theta -1", ["--seeds", "3", "--theta", "-1"]),
        ("seeds file missing", ["--seeds-file", "{d}/nope.csv"]),
        ("seeds file of unknown nodes", ["--seeds-file", "{d}/s.csv"]),
        ("-o PAIR/truth.csv", ["--seeds", "3", "-o", "{d}/pair/truth.csv"]),
        ("-o inside the pair folder", ["--seeds", "3", "-o", "{d}/pair/new.csv"]),
        ("-o the pair folder itself", ["--seeds", "3", "-o", "{d}/pair"]),
        ("-o a foreign folder", ["--seeds", "3", "-o", "{d}/mine"]),
        ("-o - with --json", ["--seeds", "3", "-o", "-", "--json"]),
    ])  # fmt: skip
    out += _options("graph attack propagate", prop[:4], [  # NS09 clique seeds, thesis scoring
        ("clique 1", ["--discover-clique", "1"]), ("clique text", ["--discover-clique", "k"]),
        ("clique and --seeds", ["--discover-clique", "3", "--seeds", "3"]),
        ("clique and --discover", ["--discover-clique", "3", "--discover", "3"]),
        ("clique larger than any", ["--discover-clique", "500"]),
        ("clique tolerance 2", ["--discover-clique", "3", "--clique-tolerance", "2"]),
        ("clique tolerance -0.1", ["--discover-clique", "3", "--clique-tolerance", "-0.1"]),
        ("clique tolerance nan", ["--discover-clique", "3", "--clique-tolerance", "nan"]),
        ("clique tolerance text", ["--discover-clique", "3", "--clique-tolerance", "x"]),
        ("clique -o PAIR/truth.csv", ["--discover-clique", "3", "-o", "{d}/pair/truth.csv"]),
        ("unknown scoring", ["--seeds", "3", "--scoring", "cosine"]),
        ("scoring empty", ["--seeds", "3", "--scoring", ""]),
        ("scoring in capitals", ["--seeds", "3", "--scoring", "THESIS"]),
        ("scoring without a value", ["--seeds", "3", "--scoring"]),
        ("thesis scoring, theta -1", ["--seeds", "3", "--scoring", "thesis", "--theta", "-1"]),
    ])  # fmt: skip
    seeded_options = {  # the seed-based matching attacks: propagate's options, plus their own
        "kl": [("threshold 0", ["--threshold", "0"]), ("threshold text", ["--threshold", "two"]),
               ("iterations 0", ["--iterations", "0"]), ("unknown variant", ["--variant", "x"]),
               ("window 0", ["--variant", "secgraph", "--window", "0"])],
        "dv": [("block 0", ["--block", "0"]), ("keep 0", ["--keep", "0"]),
               ("keep above block", ["--block", "5", "--keep", "6"]),
               ("unknown mode", ["--mode", "heap"]), ("block text", ["--block", "ten"]),
               ("unknown ties", ["--ties", "id"])],
        "yg": [("r 0", ["--r", "0"]), ("r negative", ["--r", "-2"]), ("r text", ["--r", "two"]),
               ("seed text", ["--seed", "x"]), ("r nan", ["--r", "nan"]),
               ("unknown order", ["--order", "max"]), ("order empty", ["--order", ""]),
               ("order in capitals", ["--order", "MOST-MARKS"]),
               ("order without a value", ["--order"])],
        "sh": [("unknown variant", ["--variant", "rst"]), ("variant empty", ["--variant", ""]),
               ("trees 0", ["--variant", "spanning-tree", "--trees", "0"]),
               ("trees text", ["--variant", "spanning-tree", "--trees", "x"]),
               ("max-nodes below the graph", ["--variant", "spanning-tree", "--max-nodes", "3"]),
               ("max-nodes 0", ["--variant", "spanning-tree", "--max-nodes", "0"]),
               ("min-common 0", ["--variant", "subgraph", "--min-common", "0"]),
               ("min-common text", ["--variant", "subgraph", "--min-common", "two"]),
               ("seed text", ["--variant", "spanning-tree", "--seed", "x"]),
               ("dv keep above block", ["--block", "5", "--keep", "6"]),
               ("dv unknown mode", ["--mode", "heap"]),
               ("tree-nodes 0", ["--variant", "spanning-tree", "--tree-nodes", "0"]),
               ("tree-nodes text", ["--variant", "spanning-tree", "--tree-nodes", "many"]),
               ("tree-nodes over max-nodes", ["--variant", "spanning-tree", "--tree-nodes",
                                              "50", "--max-nodes", "10"])],
        "nka": [("theta -1", ["--theta", "-1"]), ("theta nan", ["--theta", "nan"]),
                ("community theta -0.5", ["--community-theta", "-0.5"]),
                ("community theta text", ["--community-theta", "x"]),
                ("unknown communities", ["--communities", "girvan"]),
                ("communities empty", ["--communities", ""]),
                ("communities in capitals", ["--communities", "INFOMAP"]),
                ("trials 0", ["--trials", "0"]), ("seed text", ["--seed", "x"]),
                ("seed cliques and --seeds", ["--seed-cliques", "2"]),
                ("enrich with a value", ["--enrich", "yes"]),
                ("unknown ns rule", ["--ns-rule", "thesis"]),
                ("ns rule empty", ["--ns-rule", ""]),
                ("aux communities without san", ["--aux-communities", "{d}/pair/truth.csv"]),
                ("communities files missing", ["--aux-communities", "{d}/nothing.txt",
                                               "--san-communities", "{d}/nothing2.txt"]),
                ("communities file is a folder", ["--aux-communities", "{d}/mine",
                                                  "--san-communities", "{d}/mine"]),
                ("communities file is a header csv", ["--aux-communities", "{d}/pair/truth.csv",
                                                      "--san-communities",
                                                      "{d}/pair/truth.csv"]),
                ("communities file is an edge list", ["--aux-communities", "{d}/pair/aux.txt",
                                                      "--san-communities", "{d}/pair/san.txt"]),
                ("communities -o the communities file", ["--aux-communities",
                                                         "{d}/pair/aux.txt", "--san-communities",
                                                         "{d}/pair/san.txt", "-o",
                                                         "{d}/pair/aux.txt"])],
    }
    for name, own in seeded_options.items():
        cmd = f"graph attack {name}"
        base = ["graph", "attack", name, "{d}/pair", "--seeds", "5"]
        out += pair_cases(cmd, base)
        out += _options(cmd, base[:4], [
            ("no seeding", []), ("two seedings", ["--seeds", "3", "--discover", "3"]),
            ("seeds 0", ["--seeds", "0"]),
            ("seeds file missing", ["--seeds-file", "{d}/nope.csv"]),
            ("seeds file of unknown nodes", ["--seeds-file", "{d}/s.csv"]),
            ("-o PAIR/truth.csv", ["--seeds", "3", "-o", "{d}/pair/truth.csv"]),
            ("-o the pair folder itself", ["--seeds", "3", "-o", "{d}/pair"]),
            ("-o a foreign folder", ["--seeds", "3", "-o", "{d}/mine"]),
            ("-o - with --json", ["--seeds", "3", "-o", "-", "--json"]),
            *[(label, ["--seeds", "3", *extra]) for label, extra in own],
        ])  # fmt: skip
    pfg = ["graph", "attack", "pfg", "{d}/pair"]  # seedless
    out += pair_cases("graph attack pfg", [*pfg, "--s", "0.9"])
    out += _options("graph attack pfg", pfg, [
        ("s 0", ["--s", "0"]), ("s 1.5", ["--s", "1.5"]), ("s negative", ["--s", "-0.2"]),
        ("s nan", ["--s", "nan"]), ("s text", ["--s", "high"]),
        ("unknown variant", ["--variant", "cosine"]), ("variant empty", ["--variant", ""]),
        ("unknown weight", ["--weight", "max"]), ("unknown landmarks", ["--landmarks", "all"]),
        ("a seeds file (seedless)", ["--seeds-file", "{d}/s.csv"]),
        ("--seeds (seedless)", ["--seeds", "5"]),
        ("-o PAIR/truth.csv", ["-o", "{d}/pair/truth.csv"]),
        ("-o the pair folder itself", ["-o", "{d}/pair"]),
        ("-o a foreign folder", ["-o", "{d}/mine"]),
        ("-o - with --json", ["-o", "-", "--json"]),
    ])  # fmt: skip
    # ---- Ji et al.'s JLS+ (seeded, centrality files) and JLSB (seeds optional)
    jls = ["graph", "attack", "jls", "{d}/pair", "--seeds", "5"]
    out += pair_cases("graph attack jls", jls)
    cen = "".join(f"{v}\t1\t0.5\t2.0\n" for v in range(40))
    out += _options("graph attack jls", jls[:4], [
        ("no seeding", []), ("two seedings", ["--seeds", "3", "--discover", "3"]),
        ("seeds file missing", ["--seeds-file", "{d}/nope.csv"]),
        ("seeds file of unknown nodes", ["--seeds-file", "{d}/s.csv"]),
        ("-o PAIR/truth.csv", ["--seeds", "3", "-o", "{d}/pair/truth.csv"]),
        ("-o a foreign folder", ["--seeds", "3", "-o", "{d}/mine"]),
        ("unknown variant", ["--seeds", "3", "--variant", "ada"]),
        ("variant in capitals", ["--seeds", "3", "--variant", "ISC"]),
        ("keep above block", ["--seeds", "3", "--block", "4", "--keep", "5"]),
        ("block 0", ["--seeds", "3", "--block", "0"]),
        ("mode heap", ["--seeds", "3", "--mode", "x"]),
        ("weight negative", ["--seeds", "3", "--distance-weight", "-1"]),
        ("weight nan", ["--seeds", "3", "--structure-weight", "nan"]),
        ("all weights 0", ["--seeds", "3", "--distance-weight", "0", "--structure-weight", "0",
                           "--inherit-weight", "0"]),
        ("only aux centrality", ["--seeds", "3", "--aux-centrality", "{d}/g.txt"]),
        ("centrality file missing", ["--seeds", "3", "--aux-centrality", "{d}/nope.tsv",
                                     "--san-centrality", "{d}/nope.tsv"]),
        ("centrality file an edge list", ["--seeds", "3", "--aux-centrality", "{d}/g.txt",
                                          "--san-centrality", "{d}/g.txt"]),
        ("-o the centrality file", ["--seeds", "3", "--aux-centrality", "{d}/g.txt",
                                    "--san-centrality", "{d}/g.txt", "-o", "{d}/g.txt"]),
    ])  # fmt: skip
    for label, text in (("centrality of unknown nodes", cen.replace("0\t1", "999\t1", 1)),
                        ("centrality text", "0\t1\tx\ty\n"),
                        ("centrality negative", cen.replace("0.5", "-0.5", 1)),
                        ("centrality node twice", cen + "3\t1\t0.5\t2.0\n")):  # fmt: skip
        out.append(Case("graph attack jls", label, [*jls, "--aux-centrality", "{d}/c.tsv",
                                                    "--san-centrality", "{d}/c.tsv"],
                        setup=_write("c.tsv", text)))  # fmt: skip
    jlsb = ["graph", "attack", "jlsb", "{d}/pair"]
    out += pair_cases("graph attack jlsb", [*jlsb, "--block", "5"])
    out += _options("graph attack jlsb", jlsb, [
        ("two seedings", ["--seeds", "3", "--discover", "3"]), ("seeds 0", ["--seeds", "0"]),
        ("seeds file missing", ["--seeds-file", "{d}/nope.csv"]),
        ("seeds file of unknown nodes", ["--seeds-file", "{d}/s.csv"]),
        ("-o PAIR/truth.csv", ["-o", "{d}/pair/truth.csv"]),
        ("-o a foreign folder", ["-o", "{d}/mine"]),
        ("-o - with --json", ["-o", "-", "--json"]),
        ("keep above block", ["--block", "4", "--keep", "5"]), ("keep 0", ["--keep", "0"]),
        ("mode heap", ["--mode", "heap"]), ("neighbours 0", ["--neighbours", "0"]),
        ("landmarks 0", ["--landmarks", "0"]), ("landmarks text", ["--landmarks", "x"]),
        ("weight negative", ["--degree-weight", "-0.5"]),
        ("weight inf", ["--distance-weight", "inf"]),
        ("all weights 0", ["--degree-weight", "0", "--neighbour-weight", "0",
                           "--distance-weight", "0"]),
        ("order unknown", ["--order", "degree"]), ("order empty", ["--order", ""]),
    ])  # fmt: skip
    out += _options("graph attack nka", ["graph", "attack", "nka", "{d}/pair"], [  # 4-clique seeds
        ("seed cliques 0", ["--seed-cliques", "0"]), ("seed cliques text", ["--seed-cliques", "x"]),
        ("seed cliques more than the graph has", ["--seed-cliques", "500"]),
        ("seed cliques and --discover", ["--seed-cliques", "2", "--discover", "3"]),
        ("seed cliques and --discover-clique", ["--seed-cliques", "2", "--discover-clique", "3"]),
        ("seed cliques -o PAIR/truth.csv", ["--seed-cliques", "1", "-o", "{d}/pair/truth.csv"]),
        ("seed cliques -o - with --json", ["--seed-cliques", "1", "-o", "-", "--json"]),
    ])  # fmt: skip
    learned = ["graph", "attack", "learned", "{d}/pair", "--seed", "1"]
    out += pair_cases("graph attack learned", learned)
    out += _options("graph attack learned", learned, [
        ("unknown method", ["--method", "svm"]), ("alpha-v 2", ["--alpha-v", "2"]),
        ("alpha-e 0", ["--alpha-e", "0"]), ("non-identical 0", ["--non-identical", "0"]),
        ("bad thresholds", ["--3psl", "--thresholds", "a,b"]),
        ("score cut 2", ["--3psl", "--score-cut", "2"]),
        ("unknown order", ["--3psl", "--order", "x"]),
        ("per-band without 3psl", ["--per-band"]), ("seed text", ["--seed", "x"]),
        ("pair with markup name", ["--seed", "1", "{d}/[/]"]),
    ])  # fmt: skip

    # ---- audit
    au = ["audit", "{d}/rel.txt", "--original", "{d}/g.txt", "--mapping", "{d}/map.csv"]
    out += _input_cases("audit", lambda p: ["audit", p, "--original", "{d}/g.txt", "-o",
                                            "{d}/a.html"], table=False)  # fmt: skip
    out += _output_cases("audit", lambda p: [*au, "-o", p], ["rel.txt", "g.txt", "map.csv"])
    out += [
        Case("audit", "release and original of different kinds",
             ["audit", "{d}/data.csv", "--original", "{d}/g.txt", "-o", "{d}/a.html"]),
        Case("audit", "a table without --qi", ["audit", "{d}/data.csv", "--original",
                                               "{d}/data.csv", "-o", "{d}/a.html"]),
        Case("audit", "a mapping of another release",
             ["audit", "{d}/rel.txt", "--original", "{d}/g.txt", "--mapping", "{d}/data.csv",
              "-o", "{d}/a.html"]),
        Case("audit", "-o inside the release folder",
             ["audit", "{d}/release", "--original", "{d}/salaries.csv", "-o",
              "{d}/release/a.html"]),
        Case("audit", "-o - with --json", [*au, "-o", "-", "--json"]),
    ]  # fmt: skip

    # ---- report
    out += [Case("report", label, ["report", *argv]) for label, argv in [
        ("missing folder", ["{d}/nope", "-o", "{d}/r.html"]),
        ("a foreign folder", ["{d}/mine", "-o", "{d}/r.html"]),
        ("a table file", ["{d}/data.csv", "-o", "{d}/r.html"]),
        ("an empty results.csv", ["{d}/e", "-o", "{d}/r.html"]),
        ("-o results.csv", ["{d}/results", "-o", "{d}/results/results.csv"]),
        ("-o manifest.json", ["{d}/results", "-o", "{d}/results/manifest.json"]),
        ("-o the results folder", ["{d}/results", "-o", "{d}/results"]),
        ("-o a foreign folder", ["{d}/results", "-o", "{d}/mine"]),
        ("-o in a read-only folder", ["{d}/results", "-o", "{d}/ro/r.html"]),
        ("-o a full disk", ["{d}/results", "-o", "{d}/full"]),
        ("results.csv of a table", ["{d}/t", "-o", "{d}/r.html"]),
        ("results.csv not UTF-8", ["{d}/u", "-o", "{d}/r.html"]),
        ("manifest.json broken", ["{d}/b", "-o", "{d}/r.html"]),
        ("no results, only a manifest", ["{d}/m", "-o", "{d}/r.html"]),
        ("results.csv with text results", ["{d}/x", "-o", "{d}/r.html"]),
    ]]  # fmt: skip
    cols = "experiment,scheme,parameter,value,metric,seed,result\n"
    setups = {
        "an empty results.csv": _mkfiles({"e/results.csv": ""}),
        "-o in a read-only folder": _read_only("ro"),
        "-o a full disk": _device("full", 7),
        "results.csv of a table": _mkfiles({"t/results.csv": DATA}),
        "results.csv not UTF-8": _mkfiles({"u/results.csv": LATIN1}),
        "manifest.json broken": _mkfiles({"b/results.csv": cols + "e,s,p,1,m,0,1\n",
                                          "b/manifest.json": "{broken"}),
        "no results, only a manifest": _mkfiles({"m/manifest.json": "{}"}),
        "results.csv with text results": _mkfiles({"x/results.csv": cols + "e,s,p,1,m,0,high\n"}),
    }  # fmt: skip
    for case in out:
        if case.command == "report" and case.label in setups:
            case.setup = setups[case.label]
            case.root_only = case.label == "-o a full disk"

    # ---- bench
    out += [Case("bench", label, ["bench", *argv]) for label, argv in [
        ("no spec", ["-o", "{d}/b"]), ("unknown spec name", ["nope", "-o", "{d}/b"]),
        ("a spec that is not TOML", ["{d}/data.csv", "-o", "{d}/b"]),
        ("a spec with an unknown key", ["{d}/bad.toml", "-o", "{d}/b"]),
        ("no -o", ["{d}/spec.toml"]), ("-o a foreign folder", ["{d}/spec.toml", "-o", "{d}/mine"]),
        ("-o a file", ["{d}/spec.toml", "-o", "{d}/data.csv"]),
        ("-o the results of another spec --resume", ["hay-fig9", "--reduced", "-o",
                                                     "{d}/results", "--resume"]),
        ("-o earlier results without --resume", ["{d}/spec.toml", "-o", "{d}/results"]),
        ("seeds 0", ["{d}/spec.toml", "--seeds", "0", "-o", "{d}/b"]),
        ("seeds text", ["{d}/spec.toml", "--seeds", "x", "-o", "{d}/b"]),
        ("spec not UTF-8", ["{d}/u.toml", "-o", "{d}/b"]),
        ("spec with an unknown data set", ["{d}/d.toml", "-o", "{d}/b"]),
        ("spec with an unknown scheme", ["{d}/s.toml", "-o", "{d}/b"]),
        ("-o in a read-only folder", ["{d}/spec.toml", "-o", "{d}/ro/b"]),
    ]]  # fmt: skip
    bench_setups = {
        "a spec with an unknown key": _mkfiles({"bad.toml": SPEC + "\ncolour = 1\n"}),
        "spec not UTF-8": _mkfiles({"u.toml": b"[spec]\nname = \"\xff\"\n"}),
        "spec with an unknown data set": _mkfiles(
            {"d.toml": SPEC.replace('"synthetic:gnm"', '"nope"')}
        ),
        "spec with an unknown scheme": _mkfiles({"s.toml": SPEC.replace('"rsp"', '"nope"')}),
        "-o in a read-only folder": _read_only("ro"),
    }  # fmt: skip
    for case in out:
        if case.command == "bench" and case.label in bench_setups:
            case.setup = bench_setups[case.label]

    # ---- demo
    out += _options("demo", ["demo"], [
        ("rows 0", ["--rows", "0"]), ("rows negative", ["--rows", "-5"]),
        ("rows 10^12 (out of memory)", ["--rows", str(10**12)]),
        ("rows 10^20 (too large)", ["--rows", str(10**20)]), ("k 0", ["-k", "0"]),
        ("l 0", ["-l", "0"]), ("suppression 200%", ["--suppression", "200%"]),
        ("suppression text", ["--suppression", "lots"]), ("threshold 2", ["--threshold", "2"]),
        ("population below rows", ["--population", "10"]),
        ("-o a foreign folder", ["--rows", "200", "-o", "{d}/mine", "--overwrite"]),
        ("-o a file", ["--rows", "200", "-o", "{d}/data.csv"]),
        ("-o the work folder", ["--rows", "200", "-o", "{d}", "--overwrite"]),
        ("-o in a read-only folder", ["--rows", "200", "-o", "{d}/ro/demo"]),
        ("seed text", ["--seed", "x"]),
    ])  # fmt: skip
    errs = ["graph", "attack", "errors", "{d}/pair"]
    out += pair_cases("graph attack errors", [*errs, "{d}/pair/truth.csv"])
    out += _options("graph attack errors", errs, [
        ("no mapping", []), ("mapping missing", ["{d}/nope.csv"]),
        ("mapping of unknown nodes", ["{d}/s.csv"]), ("mapping is a folder", ["{d}/mine"]),
        ("mapping is an edge list", ["{d}/g.txt"]), ("mapping is a PDF", ["{d}/doc.pdf"]),
        ("mapping with a node twice", ["{d}/twice.csv"]), ("mapping empty", ["{d}/empty.csv"]),
        ("mapping with text ids", ["{d}/text.csv"]),
        ("max-hops 0", ["{d}/pair/truth.csv", "--max-hops", "0"]),
        ("max-hops text", ["{d}/pair/truth.csv", "--max-hops", "far"]),
        ("seeds file missing", ["{d}/pair/truth.csv", "--seeds-file", "{d}/nope.csv"]),
        ("seeds file of unknown nodes", ["{d}/pair/truth.csv", "--seeds-file", "{d}/s.csv"]),
        ("-o is not an option", ["{d}/pair/truth.csv", "-o", "{d}/x.csv"]),
    ])  # fmt: skip
    late = {
        ("graph attack errors", "mapping of unknown nodes"): _write("s.csv", "aux,san\n999,1000\n"),
        ("graph attack errors", "seeds file of unknown nodes"):
            _write("s.csv", "aux,san\n999,1000\n"),
        ("graph attack errors", "mapping is a PDF"): _write("doc.pdf", PDF),
        ("graph attack errors", "mapping with a node twice"):
            _write("twice.csv", "aux,san\n1,1\n1,2\n"),
        ("graph attack errors", "mapping empty"): _write("empty.csv", ""),
        ("graph attack errors", "mapping with text ids"): _write("text.csv", "aux,san\nann,bob\n"),
        **{(f"graph attack {name}", "seeds file of unknown nodes"):
           _write("s.csv", "aux,san\n999,1000\n") for name in ("propagate", *seeded_options)},
        ("demo", "-o in a read-only folder"): _read_only("ro"),
        ("dp budget init", "in a read-only folder"): _read_only("ro"),
        ("dp budget show", "binary garbage"): _write("bin.json", BINARY),
    }  # fmt: skip
    for case in out:
        case.setup = late.get((case.command, case.label), case.setup)
    return out


def _mkfiles(files: dict[str, str | bytes]) -> Callable[[Path], None]:
    def make(d: Path) -> None:
        for name, data in files.items():
            (d / name).parent.mkdir(parents=True, exist_ok=True)
            (d / name).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)

    return make


# ============================================================================ running
def snapshot(root: Path) -> dict[str, bytes | str]:
    """Files (content) and folders (marker) below ``root``; devices and FIFOs by kind."""
    out: dict[str, bytes | str] = {}
    for p in sorted(root.rglob("*")):
        key = str(p.relative_to(root))
        mode = os.lstat(p).st_mode
        if stat.S_ISLNK(mode):
            out[key] = "<link>"
        elif stat.S_ISDIR(mode):
            out[key] = "<dir>"
        elif stat.S_ISREG(mode):
            out[key] = p.read_bytes()
        else:
            out[key] = f"<special {stat.S_IFMT(mode)}>"
    return out


def _unlock(d: Path) -> None:
    for name in ("ro",):
        p = d / name
        if p.exists():
            subprocess.run(["chattr", "-i", str(p)], capture_output=True)
            with contextlib.suppress(OSError):
                p.chmod(0o755)


def run_case(case: Case, work: Path, in_process: bool) -> Result:
    tmp = Path(tempfile.mkdtemp(prefix="census-"))
    d = tmp / "w"
    shutil.copytree(work, d, symlinks=True)
    try:
        if case.setup is not None:
            case.setup(d)
        before = snapshot(d)
        t0 = time.perf_counter()
        code, output = (_in_process if in_process else _subprocess)(case.args(d), d)
        seconds = time.perf_counter() - t0
        after = snapshot(d)
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        return _classify(case, d, code, output, changed, seconds)
    finally:
        _unlock(d)
        shutil.rmtree(tmp, ignore_errors=True)


def _subprocess(argv: list[str], d: Path) -> tuple[int, str]:
    proc = subprocess.run([sys.executable, "-m", "privlab", *argv], capture_output=True,
                          cwd=d, timeout=600, stdin=subprocess.DEVNULL)  # fmt: skip
    text = proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    return proc.returncode, text


def _in_process(argv: list[str], d: Path) -> tuple[int, str]:
    from typer.testing import CliRunner

    from privlab.cli.main import app

    old = Path.cwd()
    os.chdir(d)
    try:
        result = CliRunner().invoke(app, argv)
    finally:
        os.chdir(old)
    text = result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        text += "\nTraceback (uncaught " + type(result.exception).__name__ + ")"
    return result.exit_code, text


def _classify(case, d, code, output, changed, seconds) -> Result:
    def result(outcome: str) -> Result:
        return Result(case, outcome, code, seconds, _first_line(output), changed)

    if "Traceback" in output or code not in (0, 2):
        return result("traceback")
    if case.secret is not None and case.secret in output:
        return result("leak")
    if case.ok:
        if code != 0:
            return result("valid input refused")
        if case.keeps is not None and not case.keeps(d):
            return result("partial output left")  # a device or a link was replaced
        return result("accepted")
    if code == 0:
        return result("wrong silent success")
    if changed:
        return result("partial output left")
    if case.expect is not None and case.expect not in " ".join(output.split()):
        return result("wrong error")
    return result("clear error")


def _first_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    error = [ln for ln in lines if ln.startswith("error:")]
    return (error or lines or [""])[0][:200]


def census(*, jobs: int = 2, only: str | None = None, in_process: bool = False,
           progress: Callable[[int, int], None] | None = None) -> list[Result]:  # fmt: skip
    """Run every case (of one entry point with ``only``) and return the results."""
    selected = [c for c in cases() if only is None or c.command == only]
    if os.geteuid() != 0:
        selected = [c for c in selected if not c.root_only]
    with tempfile.TemporaryDirectory(prefix="census-work-") as root:
        work = build_work(Path(root))
        results: list[Result] = []
        if in_process or jobs <= 1:
            for i, case in enumerate(selected, 1):
                results.append(run_case(case, work, in_process))
                if progress:
                    progress(i, len(selected))
        else:
            with ThreadPoolExecutor(jobs) as pool:
                for i, r in enumerate(pool.map(lambda c: run_case(c, work, False), selected), 1):
                    results.append(r)
                    if progress:
                        progress(i, len(selected))
    return results


def table(results: list[Result]) -> str:
    rows = ["| entry point | tried | " + " | ".join(OUTCOMES) + " |",
            "|---|---|" + "---|" * len(OUTCOMES)]  # fmt: skip
    total: Counter = Counter()
    for command in ENTRY_POINTS:
        mine = [r for r in results if r.case.command == command]
        if not mine:
            continue
        n = Counter(r.outcome for r in mine)
        total.update(n)
        total["tried"] += len(mine)
        rows.append(
            f"| {command} | {len(mine)} | " + " | ".join(str(n[o]) for o in OUTCOMES) + " |"
        )
    rows.append(f"| **all** | {total['tried']} | " + " | ".join(str(total[o]) for o in OUTCOMES)
                + " |")  # fmt: skip
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (subprocesses)")
    parser.add_argument("--only", help="one entry point, e.g. 'table anonymize'")
    parser.add_argument("--in-process", action="store_true", help="typer's runner, not python -m")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--json", type=Path, help="write every result to this JSON file")
    parser.add_argument("--verbose", action="store_true", help="print every case's first line")
    args = parser.parse_args()
    if args.list:
        for c in cases():
            print(f"{c.command:24} {'ok  ' if c.ok else 'bad '} {c.label}")
        return 0
    t0 = time.perf_counter()
    def progress(i: int, n: int) -> None:
        if sys.stderr.isatty():
            print(f"\r{i}/{n}", end="", file=sys.stderr)

    results = census(jobs=args.jobs, only=args.only, in_process=args.in_process,
                     progress=progress)  # fmt: skip
    print(file=sys.stderr)
    print(table(results))
    bad = [r for r in results if r.outcome not in ("clear error", "accepted")]
    shown = results if args.verbose else bad
    for r in shown:
        print(f"- [{r.outcome}] {r.case.command}: {r.case.label} (exit {r.code}) — {r.message}"
              + (f" — changed: {', '.join(r.changed[:4])}" if r.changed else ""))  # fmt: skip
    print(f"{len(results)} cases in {time.perf_counter() - t0:.0f} s "
          f"({'in process' if args.in_process else f'{args.jobs} subprocesses at once'}, "
          f"{'root' if os.geteuid() == 0 else 'not root: device cases skipped'})")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps([{"command": r.case.command, "case": r.case.label,
                                          "outcome": r.outcome, "exit": r.code,
                                          "message": r.message, "changed": r.changed}
                                         for r in results], indent=2) + "\n")  # fmt: skip
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
