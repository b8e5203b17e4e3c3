"""Python anonymization tools side by side with privlab on Adult (k = 5, 6 quasi-identifiers).

The set-up of REFERENCE_RESULTS.md, section "Python tabular tools on the same Adult":
quasi-identifiers age, education, marital-status, race, sex, native-country with ARX's
hierarchies (``adult_hierarchy_<col>.csv``), k = 5, no record suppression allowed to privlab.

Rows of the table, all from ONE run of this script:

* privlab optimal search (``optimal_search``, metric discernibility ``dm``), privlab Datafly
  (``datafly_search``) and privlab exhaustive search, each timed around
  ``anonymize_table`` (problem set-up + search + building the released frame; reading and
  encoding the CSV excluded);
* a numpy brute force over every node of the lattice (720 nodes), a baseline that uses
  nothing of privlab (time: encoding + the loop, reading excluded);
* the anchors, each in a subprocess of the interpreter given by ``--anchors-python``
  (a virtualenv where they are installed; they are never privlab dependencies):
  anjana 1.2.3 (``k_anonymity``: greedy Datafly), crowds 0.0.1 (``ola.anonymize``: OLA) and
  project-lighthouse-anonymize 1.0.0 (``k_anonymize``: Mondrian, local recoding), the latter
  twice: with its defaults (it may drop up to 1 % of the rows) and with
  ``pct_non_suppressed = 1.0`` (no row dropped, as privlab's 0 %).  Each is timed inside its
  subprocess around the anonymization call only (imports, reading the CSV and building the
  tool's hierarchy objects excluded), one fresh subprocess per run.  ``--all-variants`` adds
  crowds on the 4,320-node lattice described below.

Every run's time is measured once; a row whose first run took less than ``--fast-below``
seconds is run twice more and the median of the 3 is reported.

Discernibility is computed by this script from each released table, the same way for every
tool: ``DM = Σ_{classes E of released rows} |E|² + N × (rows dropped or suppressed)``, where a
class is a distinct tuple of released quasi-identifier values and N = 30,162.  (privlab keeps
suppressed rows with every QI at ``*``; they are counted as suppressed.  With 0 % suppression
there are none.)  The script also checks each release: rows out, rows dropped, smallest
class, whether it is k-anonymous, quasi-identifier values that are in no level of the
ARX hierarchy, and whether the values are truthful: each released value is the input value
or one of its generalizations in ARX's hierarchy — row by row where the release says which
input row each of its rows is (privlab, anjana, lighthouse's id column), else as multisets
for a full-domain release with known levels (crowds, which regroups the rows).

Mapping of the ARX hierarchies onto the tools' own hierarchy objects:

* anjana: ``{qi: {level: column of the hierarchy CSV}}``, levels 0 … h;
* crowds: ``GenRule([level 1, …, level h-1])``.  crowds always appends a level that maps every
  value to ``None`` (total suppression); it stands for ARX's ``*`` level, so the lattice is
  ARX's 720 nodes.  ``None`` is written back as ``*``.  crowds keeps its default
  ``info_loss=prec_loss`` to choose among the k-minimal nodes, and ``max_sup=0``.  (Variant
  ``crowds-extra-level``: levels 1 … h, then crowds' ``None`` level above ARX's ``*``, a
  lattice of 4,320 nodes; each run is a fresh process because ``ola._k_min`` keeps its
  k-minimal set in a mutable default argument);
* lighthouse: one ``GTree`` per quasi-identifier built from the hierarchy (root ``*``),
  default geometric sizes; all six columns, age included, are given as strings, so age is
  generalized along ARX's intervals rather than micro-aggregated.  Lighthouse's default data
  quality thresholds (``pct_non_suppressed`` 0.99: up to 1 % of rows may be dropped) are kept.
  Its ``k_anonymize`` call also computes data quality metrics; the time of the Mondrian part
  alone (its ``AnonymizeCallbacks``) is printed in the notes.  ``parallelism`` = nproc
  (``--lighthouse-parallelism``; the tool's default is 10 spawned processes).

Usage (anchors in throw-away virtualenvs, never in privlab's environment)::

    python3 -m venv /tmp/anchors && /tmp/anchors/bin/pip install anjana==1.2.3 crowds==0.0.1
    python3 -m venv /tmp/anchors-pla && \
        /tmp/anchors-pla/bin/pip install project-lighthouse-anonymize==1.0.0
    python3 benchmarks/bench_anchors.py --anchors-python /tmp/anchors/bin/python \\
        [--anchors-python /tmp/anchors-pla/bin/python] [--data ../shared/data]

``--anchors-python`` may be repeated: anjana 1.2.3 pins numpy 2.0.2 and lighthouse 1.0.0
needs numpy < 2, so they cannot share one virtualenv; each anchor uses the first interpreter
that can import it.  Without any, the anchors are skipped with a note.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from _machine import default_data, machine

QIS = ["age", "education", "marital-status", "race", "sex", "native-country"]
K = 5
TOP = "*"

# worker key -> (module to import, label, algorithm); "extra" ones only with --all-variants
ANCHORS = {
    "anjana": ("anjana", "anjana 1.2.3", "greedy Datafly"),
    "crowds": ("crowds", "crowds 0.0.1", "OLA, ARX levels (720 nodes)"),
    "crowds-extra-level": (
        "crowds",
        "crowds 0.0.1",
        "OLA, ARX levels + crowds' own None level (4,320 nodes)",
    ),
    "lighthouse": (
        "project_lighthouse_anonymize",
        "project-lighthouse-anonymize 1.0.0",
        "Mondrian (local recoding), defaults: may drop ≤ 1 % rows",
    ),
    "lighthouse-nosupp": (
        "project_lighthouse_anonymize",
        "project-lighthouse-anonymize 1.0.0",
        "Mondrian (local recoding), pct_non_suppressed = 1.0",
    ),
}
DEFAULT_ANCHORS = ["anjana", "crowds", "lighthouse", "lighthouse-nosupp"]


# ============================================================================================
# Shared helpers (standard library only: they also run under the anchors' interpreters)
# ============================================================================================


def read_hierarchy(path: Path) -> list[list[str]]:
    with open(path, newline="") as f:
        return [row for row in csv.reader(f, delimiter=";") if row]


def read_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="") as f:
        reader = csv.reader(f, delimiter=";")
        header = next(reader)
        return header, [row for row in reader if row]


# ============================================================================================
# Worker side: runs under an anchor's interpreter (no privlab there)
# ============================================================================================


def _worker_anjana(df, hier: dict[str, list[list[str]]]):
    from anjana.anonymity import k_anonymity, utils

    hierarchies = {
        qi: {lv: [row[lv] for row in rows] for lv in range(len(rows[0]))}
        for qi, rows in hier.items()
    }
    t0 = time.perf_counter()
    out = k_anonymity(df, [], list(QIS), K, 0, hierarchies)
    seconds = time.perf_counter() - t0
    levels = utils.get_transformation(out, list(QIS), hierarchies) if len(out) else []
    return out, seconds, {"levels": dict(zip(QIS, (int(v) for v in levels), strict=True))}


def _worker_crowds(df, hier: dict[str, list[list[str]]], extra_level: bool = False):
    from crowds.kanonymity import ola
    from crowds.kanonymity.generalizations import GenRule

    def level_fn(mapping: dict[str, str]) -> Callable[[str], str | None]:
        return mapping.get

    rules = {}
    for qi, rows in hier.items():
        # levels 1 .. h-1; crowds' own last level (None for every value) stands for ARX's '*'
        # (extra_level: levels 1 .. h, then crowds' None level on top of ARX's '*')
        top = len(rows[0]) if extra_level else len(rows[0]) - 1
        levels = [level_fn({row[0]: row[lv] for row in rows}) for lv in range(1, top)]
        rules[qi] = GenRule(levels)
    # ola._k_min has a mutable default k_min_set: one fresh process per run keeps it empty
    t0 = time.perf_counter()
    result = ola.anonymize(df, rules, k=K, max_sup=0)
    seconds = time.perf_counter() - t0
    if result is None:
        raise RuntimeError("crowds found no k-anonymous node")
    release, state = result
    release = release.copy()
    for qi in QIS:
        release[qi] = release[qi].where(release[qi].notna(), TOP)
    return release, seconds, {"levels": {qi: int(v) for qi, v in state.items()}}


def _worker_lighthouse(
    df, hier: dict[str, list[list[str]]], parallelism: int | None, no_suppression: bool = False
):
    import logging

    from project_lighthouse_anonymize import default_dq_metric_to_minimum_dq, k_anonymize
    from project_lighthouse_anonymize.gtrees import GTree
    from project_lighthouse_anonymize.utils import AnonymizeCallbacks

    gtrees = {}
    for qi, rows in hier.items():
        tree = GTree()
        height = len(rows[0]) - 1
        root = tree.create_node(rows[0][height], identifier=f"{height}:{rows[0][height]}")
        nodes = {(height, rows[0][height]): root}
        for lv in range(height - 1, -1, -1):
            for row in rows:
                key = (lv, row[lv])
                if key not in nodes:
                    nodes[key] = tree.create_node(
                        row[lv], parent=nodes[(lv + 1, row[lv + 1])], identifier=f"{lv}:{row[lv]}"
                    )
        tree.add_default_geometric_sizes()
        gtrees[qi] = tree
    df = df.copy()
    df["__id"] = range(len(df))
    logger = logging.getLogger("lighthouse")
    logger.setLevel(logging.WARNING)
    callbacks = AnonymizeCallbacks()
    dq_min = default_dq_metric_to_minimum_dq()
    if no_suppression:
        dq_min["pct_non_suppressed"] = 1.0
    t0 = time.perf_counter()
    anon, dq, risk = k_anonymize(
        logger,
        df,
        list(QIS),
        K,
        gtrees,
        "__id",
        dq_metric_to_minimum_dq=dq_min,
        parallelism=parallelism,
        anonymize_callbacks=callbacks,
    )
    seconds = time.perf_counter() - t0
    ts = callbacks.timestamps
    info = {
        "mondrian_seconds": ts.get("anonymize_am", 0.0) - ts.get("anonymize_bm", 0.0),
        "metrics_seconds": ts.get("compute_metrics_am", 0.0) - ts.get("compute_metrics_bm", 0.0),
        "actual_k": risk.get("actual_k"),
        "pct_non_suppressed": dq.get("pct_non_suppressed"),
        "parallelism": parallelism,
    }
    return anon, seconds, info


def worker_main(tool: str, data_dir: Path, out: Path, parallelism: int | None) -> None:
    import pandas as pd

    df = pd.read_csv(data_dir / "adult.csv", sep=";", dtype=str, keep_default_na=False)
    hier = {qi: read_hierarchy(data_dir / f"adult_hierarchy_{qi}.csv") for qi in QIS}
    if tool == "anjana":
        release, seconds, info = _worker_anjana(df, hier)
    elif tool == "crowds":
        release, seconds, info = _worker_crowds(df, hier)
    elif tool == "crowds-extra-level":
        release, seconds, info = _worker_crowds(df, hier, extra_level=True)
    elif tool == "lighthouse":
        release, seconds, info = _worker_lighthouse(df, hier, parallelism)
    elif tool == "lighthouse-nosupp":
        release, seconds, info = _worker_lighthouse(df, hier, parallelism, no_suppression=True)
    else:
        raise SystemExit(f"unknown tool {tool}")
    rows = (
        [
            ["<NA>" if (v is None or (isinstance(v, float) and v != v)) else str(v) for v in row]
            for row in release[QIS].itertuples(index=False, name=None)
        ]
        if len(release)
        else []
    )
    # which input row each released row comes from, where the tool says so
    ids = None
    if "__id" in release.columns:
        ids = [int(i) for i in release["__id"]]
    elif tool == "anjana" and len(release) == len(df) and "index" not in release.columns:
        ids = list(range(len(df)))  # anjana keeps the input order when it suppresses nothing
    payload = {
        "tool": tool,
        "seconds": seconds,
        "rows": rows,
        "ids": ids,
        "columns": [str(c) for c in release.columns],
        "info": info,
    }
    out.write_text(json.dumps(payload))


# ============================================================================================
# Parent side
# ============================================================================================


class Check:
    """Discernibility and sanity checks of one released table, computed the same for every tool."""

    def __init__(
        self,
        rows: Sequence[Sequence[str]],
        n_input: int,
        labels: dict[str, set[str]],
        suppressed_in_place: int = 0,
    ) -> None:
        counts = Counter(tuple(r) for r in rows)
        self.rows_out = len(rows) + suppressed_in_place
        self.dropped = n_input - self.rows_out
        self.suppressed = self.dropped + suppressed_in_place
        self.classes = len(counts)
        self.min_class = min(counts.values()) if counts else 0
        self.k_anonymous = self.min_class >= K
        self.small_rows = sum(c for c in counts.values() if c < K)
        self.dm = sum(c * c for c in counts.values()) + n_input * self.suppressed
        foreign: dict[str, int] = {}
        for j, qi in enumerate(QIS):
            bad = sum(1 for r in rows if r[j] not in labels[qi])
            if bad:
                foreign[qi] = bad
        self.foreign = foreign
        self.truthful = "not checked"


class Original:
    """The input's quasi-identifier values and, per QI, each leaf's label at every level."""

    def __init__(self, data_dir: Path) -> None:
        header, data = read_rows(data_dir / "adult.csv")
        cols = [header.index(q) for q in QIS]
        self.rows = [tuple(r[c] for c in cols) for r in data]
        self.ancestors = []
        for qi in QIS:
            hier = read_hierarchy(data_dir / f"adult_hierarchy_{qi}.csv")
            self.ancestors.append({row[0]: row for row in hier})
        self.labels = {
            qi: {v for row in anc.values() for v in row}
            for qi, anc in zip(QIS, self.ancestors, strict=True)
        }

    def truthful(
        self,
        rows: Sequence[Sequence[str]],
        ids: Sequence[int] | None = None,
        levels: Sequence[int] | None = None,
    ) -> str:
        """Is every released value a generalization (in ARX's hierarchy) of the input value?

        Row by row when the release says which input row each of its rows is (``ids``);
        otherwise, for a full-domain release with known ``levels``, as multisets: the
        release must equal the input generalized to ``levels`` (less dropped rows).
        """
        if ids is not None:
            if len(set(ids)) != len(ids):
                return "**no** (an input row released twice)"
            bad = 0
            for r, i in zip(rows, ids, strict=True):
                orig = self.rows[i]
                if any(r[j] not in self.ancestors[j][orig[j]] for j in range(len(QIS))):
                    bad += 1
            return "yes" if bad == 0 else f"**no** ({bad} rows)"
        if levels is not None:
            expected = Counter(
                tuple(
                    self.ancestors[j][o[j]][min(lv, len(self.ancestors[j][o[j]]) - 1)]
                    for j, lv in enumerate(levels)
                )
                for o in self.rows
            )
            got = Counter(tuple(r) for r in rows)
            if got == expected:
                return "yes (as multisets)"
            if not (got - expected):
                return "yes (as multisets, rows dropped)"
            return "**no** (multisets differ)"
        return "not checked"


class Row:
    def __init__(self, tool: str, algorithm: str, times: list[float], check: Check, note: str = ""):
        self.tool = tool
        self.algorithm = algorithm
        self.times = times
        self.check = check
        self.note = note

    @property
    def seconds(self) -> float:
        return statistics.median(self.times)


def timed_runs(
    run: Callable[[], tuple[float, object]], fast_below: float
) -> tuple[list[float], object]:
    """run() -> (seconds, result).  Once; twice more if the first took < fast_below s."""
    seconds, result = run()
    times = [seconds]
    if seconds < fast_below:
        for _ in range(2):
            s, result = run()
            times.append(s)
    return times, result


def load_privlab_table(data_dir: Path):
    from privlab.table.data import MicroTable
    from privlab.table.hierarchy import Hierarchy

    hier = {c: Hierarchy.from_csv(data_dir / f"adult_hierarchy_{c}.csv") for c in QIS}
    others = ["workclass", "occupation", "salary-class"]  # released unchanged, as by ARX
    return MicroTable.from_data(
        data_dir / "adult.csv", quasi_identifiers=QIS, hierarchies=hier, insensitive=others
    )


def dm_metric():
    """privlab's discernibility metric if it has one, else None (then Loss drives the search)."""
    try:
        from privlab.table import metrics
    except ImportError:
        return None, "none"
    for name in ("DM", "Discernibility"):
        cls = getattr(metrics, name, None)
        if cls is not None:
            return cls(), name
    return None, "Loss (privlab has no discernibility metric)"


def fmt_levels(levels: dict[str, int]) -> str:
    return "levels " + ",".join(str(levels[q]) for q in QIS) + f" ({','.join(QIS)})"


def privlab_rows(table, orig: Original, fast_below: float) -> tuple[list[Row], str]:
    from privlab.table.anonymize import anonymize_table, release_frame, suppressed_mask
    from privlab.table.models import KAnonymity
    from privlab.table.search import Problem, exhaustive_search

    metric, metric_name = dm_metric()
    n = table.n_rows

    def fresh_metric():
        return type(metric)() if metric is not None else None

    def release_check(frame, suppressed_rows, levels: dict[str, int]) -> Check:
        suppressed = {int(i) for i in suppressed_rows}
        cols = [frame[c].to_list() for c in QIS]
        ids = [i for i in range(frame.height) if i not in suppressed]
        qi_rows = [[cols[j][i] for j in range(len(QIS))] for i in ids]
        check = Check(qi_rows, n, orig.labels, suppressed_in_place=len(suppressed))
        check.truthful = orig.truthful(qi_rows, ids=ids)
        return check

    rows: list[Row] = []
    for algorithm, label in (("optimal", "optimal search (Flash-style)"), ("datafly", "Datafly")):

        def run(algorithm=algorithm):
            m = fresh_metric()
            t0 = time.perf_counter()
            release = anonymize_table(
                table, [KAnonymity(K)], suppression_limit=0.0, metric=m, algorithm=algorithm
            )
            return time.perf_counter() - t0, release

        times, release = timed_runs(run, fast_below)
        res = release.result
        check = release_check(release.data, release.suppressed_rows, res.levels)
        note = (
            f"{fmt_levels(res.levels)}; {res.nodes_checked} nodes checked; "
            f"privlab's own {res.metric} = {res.value:,.0f}"
        )
        rows.append(Row("privlab", label, times, check, note))

    # exhaustive: every node checked, a cross-check of the optimum
    def run_exhaustive():
        m = fresh_metric()
        t0 = time.perf_counter()
        result = exhaustive_search(Problem(table, [KAnonymity(K)], suppression_limit=0.0, metric=m))
        return time.perf_counter() - t0, result

    times, res = timed_runs(run_exhaustive, fast_below)
    problem = Problem(table, [KAnonymity(K)], suppression_limit=0.0, metric=fresh_metric())
    mask = suppressed_mask(problem, res.node)
    frame = release_frame(table, problem.lattice.levels[res.node], mask)
    check = release_check(frame, [i for i, m in enumerate(mask) if m], res.levels)
    note = f"{fmt_levels(res.levels)}; search only (release built outside the timing)"
    rows.append(Row("privlab", f"exhaustive ({res.lattice_size} nodes)", times, check, note))
    return rows, metric_name


def numpy_bruteforce(data_dir: Path, orig: Original, fast_below: float) -> Row:
    """Every node of the lattice with numpy alone: DM of each k-anonymous node, keep the least."""
    import itertools

    import numpy as np

    header, data = read_rows(data_dir / "adult.csv")
    cols = [header.index(q) for q in QIS]
    raw = [np.array([r[c] for r in data]) for c in cols]
    hiers = [read_hierarchy(data_dir / f"adult_hierarchy_{q}.csv") for q in QIS]
    n = len(data)

    def run():
        t0 = time.perf_counter()
        # per QI: leaf codes, and per level a map leaf code -> group code
        codes, maps = [], []
        for values, rows in zip(raw, hiers, strict=True):
            leaves = [r[0] for r in rows]
            index = {v: i for i, v in enumerate(leaves)}
            codes.append(np.array([index[v] for v in values], dtype=np.int64))
            per_level = []
            for lv in range(len(rows[0])):
                _, inv = np.unique(np.array([r[lv] for r in rows]), return_inverse=True)
                per_level.append(inv.astype(np.int64))
            maps.append(per_level)
        best = None
        for levels in itertools.product(*[range(len(m)) for m in maps]):
            key = np.zeros(n, dtype=np.int64)
            for j, lv in enumerate(levels):
                m = maps[j][lv]
                key = key * (int(m.max()) + 1) + m[codes[j]]
            counts = np.unique(key, return_counts=True)[1]
            if counts.min() < K:
                continue
            dm = int(np.dot(counts, counts))
            if best is None or dm < best[0]:
                best = (dm, levels)
        return time.perf_counter() - t0, best

    times, best = timed_runs(run, fast_below)
    dm, levels = best
    qi_rows = [
        [h[[r[0] for r in h].index(v)][lv] for v, h, lv in zip(vals, hiers, levels, strict=True)]
        for vals in zip(*raw, strict=True)
    ]
    check = Check(qi_rows, n, orig.labels)
    assert check.dm == dm, (check.dm, dm)
    check.truthful = orig.truthful(qi_rows, ids=range(n))
    n_nodes = 1
    for h in hiers:
        n_nodes *= len(h[0])
    return Row(
        "numpy brute force",
        f"exhaustive ({n_nodes} nodes)",
        times,
        check,
        fmt_levels(dict(zip(QIS, levels, strict=True))),
    )


_IMPORTABLE: dict[tuple[str, str], bool] = {}


def find_interpreter(module: str, pythons: Sequence[str]) -> str | None:
    """The first interpreter of ``pythons`` that can import ``module``."""
    for py in pythons:
        if not Path(py).exists():
            continue
        if (py, module) not in _IMPORTABLE:
            proc = subprocess.run([py, "-c", f"import {module}"], capture_output=True, timeout=300)
            _IMPORTABLE[py, module] = proc.returncode == 0
        if _IMPORTABLE[py, module]:
            return py
    return None


def anchor_row(
    tool: str,
    python: str,
    data_dir: Path,
    orig: Original,
    fast_below: float,
    parallelism: int | None,
    timeout: float,
) -> Row:
    _, label, algorithm = ANCHORS[tool]
    infos: list[dict] = []
    run_dms: list[int] = []

    def run():
        with tempfile.TemporaryDirectory(prefix=f"bench_anchors_{tool}_") as tmp:
            out = Path(tmp) / "out.json"
            cmd = [
                python,
                str(Path(__file__).resolve()),
                "--worker",
                tool,
                "--data",
                str(data_dir.parent),
                "--out",
                str(out),
            ]
            if parallelism is not None:
                cmd += ["--lighthouse-parallelism", str(parallelism)]
            # the worker must not import this checkout's privlab: run it from the temp dir
            proc = subprocess.run(
                cmd,
                capture_output=True,
                text=True,
                cwd=tmp,
                timeout=timeout,
                env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
            )
            if proc.returncode != 0 or not out.exists():
                raise RuntimeError(
                    f"{tool} worker failed ({proc.returncode}):\n"
                    f"{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
                )
            payload = json.loads(out.read_text())
        infos.append(payload["info"])
        # DM of every run: a tool whose output changes from run to run shows it here
        run_dms.append(Check(payload["rows"], len(orig.rows), orig.labels).dm)
        return payload["seconds"], payload

    times, payload = timed_runs(run, fast_below)
    info = payload["info"]
    check = Check(payload["rows"], len(orig.rows), orig.labels)
    levels = [info["levels"][q] for q in QIS] if info.get("levels") else None
    check.truthful = orig.truthful(payload["rows"], ids=payload["ids"], levels=levels)
    notes = []
    if levels is not None:
        notes.append(fmt_levels(info["levels"]) + " (last run)")
    if len(set(run_dms)) > 1:
        notes.append(
            "**output differs between runs**: DM per run "
            + ", ".join(f"{d:,}" for d in run_dms)
            + " (table: last run)"
        )
    if "mondrian_seconds" in info:
        mond = statistics.median(i["mondrian_seconds"] for i in infos)
        met = statistics.median(i["metrics_seconds"] for i in infos)
        notes.append(
            f"Mondrian part {mond:.1f} s + its data-quality metrics {met:.1f} s "
            f"(parallelism={info['parallelism']}); reports actual_k={info['actual_k']}"
        )
    extra = [
        c
        for c in payload["columns"]
        if c not in QIS and c not in ("workclass", "occupation", "salary-class")
    ]
    if extra:
        notes.append(f"extra output columns: {', '.join(extra)}")
    return Row(label, algorithm, times, check, "; ".join(notes))


def fmt_row(row: Row, ref_seconds: float, ref_dm: int) -> str:
    c = row.check
    runs = f"median of {len(row.times)}" if len(row.times) > 1 else "1 run"
    k_ok = "yes" if c.k_anonymous else f"**no** ({c.small_rows} rows in classes < {K})"
    return (
        f"| {row.tool} | {row.algorithm} | {row.seconds:.3f} | {runs} "
        f"| {row.seconds / ref_seconds:,.1f}× | {c.dm:,} | {c.dm / ref_dm:.2f}× "
        f"| {c.classes:,} | {c.min_class} | {c.rows_out:,} | {c.dropped:,} | {k_ok} "
        f"| {c.truthful} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--data", default=default_data(), help="folder holding adult/ (default ../shared/data)"
    )
    ap.add_argument(
        "--anchors-python",
        action="append",
        default=[],
        help="python of a virtualenv with the anchors installed (repeatable)",
    )
    ap.add_argument(
        "--fast-below",
        type=float,
        default=10.0,
        help="rows whose first run takes less than this many seconds are run 3 times (median)",
    )
    ap.add_argument(
        "--lighthouse-parallelism",
        type=int,
        default=os.cpu_count() or 1,
        help="lighthouse's parallelism argument (0 = None, no worker processes); default nproc",
    )
    ap.add_argument("--no-bruteforce", action="store_true", help="skip the numpy brute force")
    ap.add_argument(
        "--all-variants",
        action="store_true",
        help="also run crowds with ARX's levels plus crowds' own None level (4,320 nodes, slow)",
    )
    ap.add_argument("--timeout", type=float, default=3600.0, help="per anchor run, seconds")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    data_dir = Path(args.data).resolve() / "adult"
    parallelism = args.lighthouse_parallelism or None

    if args.worker:
        worker_main(args.worker, data_dir, Path(args.out), parallelism)
        return

    orig = Original(data_dir)
    print(f"machine: {machine()}", flush=True)
    table = load_privlab_table(data_dir)
    n = table.n_rows
    print(f"data: {data_dir / 'adult.csv'}, {n:,} rows; QIs {', '.join(QIS)}; k = {K}", flush=True)

    rows, metric_name = privlab_rows(table, orig, args.fast_below)
    print(f"privlab metric for the optimal search: {metric_name}", flush=True)
    if not args.no_bruteforce:
        rows.append(numpy_bruteforce(data_dir, orig, args.fast_below))
        print("numpy brute force done", flush=True)

    skipped: list[str] = []
    tools = DEFAULT_ANCHORS + (["crowds-extra-level"] if args.all_variants else [])
    for tool in tools:
        module, label, algorithm = ANCHORS[tool]
        py = find_interpreter(module, args.anchors_python)
        if py is None:
            msg = (
                f"{label} ({tool}) skipped: no --anchors-python interpreter can import {module}"
                if args.anchors_python
                else f"{label} ({tool}) skipped: no --anchors-python given"
            )
            print(msg, flush=True)
            skipped.append(msg)
            continue
        print(f"running {label}, {algorithm} ({tool}) with {py} ...", flush=True)
        try:
            rows.append(
                anchor_row(tool, py, data_dir, orig, args.fast_below, parallelism, args.timeout)
            )
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            msg = f"{label} ({tool}) failed: {exc}"
            print(msg, flush=True)
            skipped.append(msg)

    ref = rows[0]  # privlab optimal
    ref_dm = next(r.check.dm for r in rows if r.algorithm.startswith("exhaustive"))
    print()
    print(
        f"Adult, {n:,} rows, k = {K}, QIs {', '.join(QIS)}; DM = Σ|E|² + N × suppressed, "
        "computed by this script from each release; ratios against privlab optimal's time "
        "and against the exhaustive optimum's DM."
    )
    print()
    print(
        "| tool | algorithm | time s | runs | × privlab optimal | discernibility | × optimum "
        "| classes | min class | rows out | rows dropped | k-anonymous | values truthful |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(fmt_row(r, ref.seconds, ref_dm))
    print()
    for r in rows:
        line = f"- {r.tool} {r.algorithm}: times {', '.join(f'{t:.3f}' for t in r.times)} s"
        if r.note:
            line += f"; {r.note}"
        if r.check.foreign:
            line += f"; values in no hierarchy level: {r.check.foreign}"
        print(line)
    for msg in skipped:
        print(f"- {msg}")


if __name__ == "__main__":
    sys.exit(main())
