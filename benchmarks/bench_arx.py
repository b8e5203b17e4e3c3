"""ARX 3.9.x (Java) side by side with privlab's optimal full-domain search on Adult, one run.

The set-up of REFERENCE_RESULTS.md ("ARX 3.9.2 (Java), Adult"): all 9 columns quasi-identifiers
with ARX's hierarchies, k = 5, ARX's default Loss (gs = 0.5, geometric aggregation), optimal
search (ARX: Flash), suppression limits 0 % and 2 %.  Time = median of ``--repeat`` runs after
2 warm-ups; reading the data is excluded on both sides:

* ARX: ``benchmarks/anchors/ArxAdult.java`` is compiled into a temp dir against
  ``--arx-classpath`` and run in one JVM (both limits, 0 % first); it times
  ``ARXAnonymizer.anonymize`` alone and prints one JSON line per limit;
* privlab: ``bench_optimal.run`` (problem set-up + ``optimal_search``), in this process,
  after ARX has finished (the two never compete for the cores).

The script checks that both find the same optimum: same levels, suppressed rows and
equivalence classes (suppressed rows not counted as a class), Loss equal to 1e-9; it prints
every disagreement and then exits with status 1.  ARX/privlab is ARX's median divided by
privlab's (above 1: privlab is faster).

    python3 benchmarks/bench_arx.py --arx-classpath CP [--repeat 7] [--data ../shared/data]

ARX is never a privlab dependency and its code never enters this repository; build it in /tmp.
How it was built for the run reported in BENCHMARKS.md (ARX tag v3.9.2, OpenJDK 17, no ant;
javac directly on ARX's ``src/main`` against the jars ARX ships in ``lib/ant``, the set its
``build.xml`` calls ``lib.jars``)::

    # 1. source: a clone of https://github.com/arx-deidentifier/arx at tag v3.9.2
    git clone --depth 1 --branch v3.9.2 https://github.com/arx-deidentifier/arx /tmp/arx-src
    #    (here it came from a mirror's bare git dir, extracted file by file because three
    #    large blobs were absent from it:
    #    cd /tmp/arx-src && git --git-dir=$MIRROR ls-tree -r v3.9.2 | while read m t sha p; do
    #        mkdir -p "$(dirname "$p")"; git --git-dir=$MIRROR cat-file blob $sha > "$p" \\
    #        || rm -f "$p"; done
    #    absent: lib/ant/mahout/hadoop-core-1.2.1.jar, lib/ant/pdfbox/pdfbox-app-2.0.1.jar,
    #    lib/ant/poi/poi-ooxml-schemas-3.10-FINAL-20140208.jar; see step 3.)

    # 2. ARX's library jars (build.xml's lib.jars) into /tmp/arx-build/lib
    cd /tmp/arx-src && mkdir -p /tmp/arx-build/lib /tmp/arx-build/classes
    for j in colt-1.2.0 commons-lang-2.6 commons-lang3-3.12.0 commons-math3-3.6.1 \\
        objectselector-0.1-lib commons-io-2.4 commons-codec-1.5 commons-logging-1.1 \\
        commons-validator-1.4.1 dom4j-1.6.1 stax-api-1.0.1 xmlbeans-2.3.0 \\
        poi-3.10-FINAL-20140208 poi-ooxml-3.10-FINAL-20140208 \\
        poi-ooxml-schemas-3.10-FINAL-20140208 hppc-0.6.0 univocity-parsers-2.8.4 \\
        newtonraphson-0.0.1 jhpl-0.0.1 mahout-core-0.9 mahout-math-0.11.1 hadoop-core-1.2.1 \\
        guava-18.0 slf4j-api-1.7.13 pdfbox-app-2.0.1 pdfbox-layout exp4j-0.4.8 \\
        smile-1.3.1-java7; do
      f=$(find lib/ant -name "$j.jar"); if [ -n "$f" ]; then cp "$f" /tmp/arx-build/lib/;
      else echo "absent: $j"; fi
    done

    # 3. only if jars were absent (as here).  pdfbox is used by ARX's PDF certificates only:
    #    Debian's pdfbox 2.0.27 compiles them.  hadoop-core is needed only to compile
    #    MultiClassLogisticRegression (mahout's learner implements org.apache.hadoop.io.Writable):
    #    a compile-only stub of that interface, kept off the run classpath.  poi-ooxml-schemas
    #    (Excel import) is needed by neither compilation nor this benchmark.
    apt-get install -y libpdfbox2-java
    cp /usr/share/java/pdfbox2.jar /usr/share/java/fontbox2.jar /tmp/arx-build/lib/
    mkdir -p /tmp/arx-build/stub-src/org/apache/hadoop/io /tmp/arx-build/stub-classes
    printf '%s\\n' 'package org.apache.hadoop.io;' 'public interface Writable {' \\
      '  void write(java.io.DataOutput o) throws java.io.IOException;' \\
      '  void readFields(java.io.DataInput i) throws java.io.IOException; }' \\
      > /tmp/arx-build/stub-src/org/apache/hadoop/io/Writable.java
    javac -source 8 -target 8 -nowarn -d /tmp/arx-build/stub-classes \\
      /tmp/arx-build/stub-src/org/apache/hadoop/io/Writable.java

    # 4. compile ARX (as build.xml's "compile": source 1.8, debug) and jar its classes
    find src/main -name '*.java' > /tmp/arx-srcs.txt
    javac -g -nowarn -encoding UTF-8 -source 8 -target 8 \\
      -cp "/tmp/arx-build/lib/*:/tmp/arx-build/stub-classes" -d /tmp/arx-build/classes \\
      @/tmp/arx-srcs.txt
    (cd src/main && find org/deidentifier/arx/risk/resources/us \\
        org/deidentifier/arx/certificate/resources -type f ! -name '*.java' ! -name '*.txt' \\
        -exec cp --parents {} /tmp/arx-build/classes/ \\;)
    jar cf /tmp/arx-build/libarx-3.9.2.jar -C /tmp/arx-build/classes .

    # 5. run (from the privlab checkout)
    python3 benchmarks/bench_arx.py \\
      --arx-classpath '/tmp/arx-build/libarx-3.9.2.jar:/tmp/arx-build/lib/*' --repeat 7

With a complete clone, step 3 is not needed (add nothing to ``-cp`` but ``lib/*``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import default_data, machine
from bench_optimal import load_adult, run

LIMITS = (0.0, 0.02)
WARMUPS = 2
LOSS_TOL = 1e-9
JAVA_SOURCE = Path(__file__).resolve().parent / "anchors" / "ArxAdult.java"


def fail(msg: str) -> None:
    sys.exit(f"bench_arx: error: {msg}")


def check_classpath(classpath: str) -> None:
    """Every entry of ``classpath`` exists (``dir/*`` entries: a folder holding jars)."""
    if not classpath.strip():
        fail("--arx-classpath is empty")
    problems = []
    for entry in classpath.split(os.pathsep):
        if not entry:
            continue
        if entry.endswith("*"):
            folder = Path(entry[:-1] or ".")
            if not folder.is_dir() or not any(folder.glob("*.jar")):
                problems.append(f"{entry!r}: no folder with .jar files")
        elif not Path(entry).exists():
            problems.append(f"{entry!r}: no such file or folder")
    if problems:
        fail(
            "wrong --arx-classpath (ARX's classes or jar, then ARX's lib jars, "
            f"'{os.pathsep}'-separated):\n  " + "\n  ".join(problems)
        )


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        fail(f"{name} not found on PATH (a JDK 8 or newer is needed to run ARX)")
    return path


def run_arx(classpath: str, data_dir: Path, repeat: int, timeout: float) -> dict[float, dict]:
    """Compile ArxAdult.java against ``classpath`` in a temp dir and run it: limit -> JSON."""
    check_classpath(classpath)
    javac, java = tool("javac"), tool("java")
    with tempfile.TemporaryDirectory(prefix="bench_arx_") as tmp:
        proc = subprocess.run(
            [javac, "-nowarn", "-cp", classpath, "-d", tmp, str(JAVA_SOURCE)],
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            hint = (
                "ARX's classes (package org.deidentifier.arx) are not on --arx-classpath"
                if "org.deidentifier.arx" in proc.stderr
                else "javac failed"
            )
            fail(f"{hint}: {classpath!r}\n{proc.stderr[:1500]}")
        cmd = [java, "-cp", tmp + os.pathsep + classpath, "ArxAdult", str(data_dir), str(repeat)]
        cmd += [repr(limit) for limit in LIMITS]
        print(f"running ARX: {' '.join(cmd)}", flush=True)
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            fail(f"ARX did not finish within {timeout:.0f} s")
        if proc.returncode != 0:
            hint = ""
            if "NoClassDefFoundError" in proc.stderr or "ClassNotFoundException" in proc.stderr:
                hint = " (a class is missing: does --arx-classpath include ARX's lib jars?)"
            fail(f"ARX run failed, exit {proc.returncode}{hint}\n{proc.stderr[-3000:]}")
    results = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            payload = json.loads(line)
            results[float(payload["limit"])] = payload
    missing = [limit for limit in LIMITS if limit not in results]
    if missing:
        fail(f"ARX printed no result for limit(s) {missing}:\n{proc.stdout[-2000:]}")
    return results


def run_privlab(table, limit: float, repeat: int):
    for _ in range(WARMUPS):
        run(table, limit)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = run(table, limit)
        times.append(time.perf_counter() - t0)
    return result, times


def compare(arx: dict, result) -> list[str]:
    """Disagreements between ARX's optimum and privlab's (empty: they agree)."""
    out = []
    columns = arx["columns"]
    if list(result.levels) != columns:
        out.append(f"column order: ARX {columns}, privlab {list(result.levels)}")
    p_levels = [result.levels.get(c) for c in columns]
    if p_levels != arx["levels"]:
        out.append(f"levels: ARX {arx['levels']}, privlab {p_levels}")
    if result.suppressed != arx["suppressed"]:
        out.append(f"suppressed: ARX {arx['suppressed']}, privlab {result.suppressed}")
    if result.n_classes != arx["classes"]:
        out.append(f"classes: ARX {arx['classes']}, privlab {result.n_classes}")
    arx_loss = float.fromhex(arx["loss_hex"])
    if not abs(arx_loss - result.value) <= LOSS_TOL:
        out.append(f"Loss: ARX {arx_loss!r}, privlab {result.value!r} (tolerance {LOSS_TOL})")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--arx-classpath",
        required=True,
        help=f"ARX 3.9.x classes/jar and its lib jars, '{os.pathsep}'-separated ('dir/*' allowed)",
    )
    ap.add_argument("--repeat", type=int, default=7, help="timed runs after 2 warm-ups")
    ap.add_argument(
        "--data", default=default_data(), help="folder holding adult/ (default ../shared/data)"
    )
    ap.add_argument("--timeout", type=float, default=1800.0, help="ARX run, seconds")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    root = Path(args.data).resolve()
    data_dir = root / "adult"
    if not (data_dir / "adult.csv").is_file():
        fail(f"no adult.csv in {data_dir}")

    print(f"machine: {machine()}", flush=True)
    arx = run_arx(args.arx_classpath, data_dir, args.repeat, args.timeout)
    first = arx[LIMITS[0]]
    print(f"ARX: {first['arx_location']}; {first['java']}", flush=True)

    table = load_adult(root)
    privlab = {}
    for limit in LIMITS:
        print(f"running privlab, limit {limit:.0%} ...", flush=True)
        privlab[limit] = run_privlab(table, limit, args.repeat)

    print()
    print(
        f"Adult, {first['rows']:,} rows, all 9 columns QIs ({','.join(first['columns'])}), "
        f"k = {first['k']}, Loss (gs = 0.5, geometric), optimal search; median of "
        f"{args.repeat} runs after {WARMUPS} warm-ups, seconds; both in this run."
    )
    print()
    print(
        "| limit | levels | Loss ARX | Loss privlab | ARX median | privlab median | ARX/privlab |"
    )
    print("|---|---|---|---|---|---|---|")
    problems: list[str] = []
    for limit in LIMITS:
        a = arx[limit]
        result, times = privlab[limit]
        p_med = statistics.median(times)
        a_med = statistics.median(a["times_s"])
        levels = ",".join(str(v) for v in a["levels"])
        diffs = compare(a, result)
        if diffs:
            levels += " (ARX) / " + ",".join(str(v) for v in result.levels.values()) + " (privlab)"
        problems += [f"{limit:.0%}: {d}" for d in diffs]
        print(
            f"| {limit:.0%} | {levels} | {float.fromhex(a['loss_hex'])!r} | {result.value!r} "
            f"| {a_med:.3f} s | {p_med:.3f} s | {a_med / p_med:.1f}× |"
        )
    print()
    for limit in LIMITS:
        a = arx[limit]
        result, times = privlab[limit]
        loss_diff = result.value - float.fromhex(a["loss_hex"])
        print(
            f"- {limit:.0%}: suppressed {a['suppressed']} (ARX) / {result.suppressed} (privlab); "
            f"classes {a['classes']} / {result.n_classes}; Loss privlab − ARX = {loss_diff:.3g}; "
            f"privlab nodes checked {result.nodes_checked} of {result.lattice_size}"
        )
        print(f"  ARX times s: {', '.join(f'{t:.3f}' for t in a['times_s'])}")
        print(f"  privlab times s: {', '.join(f'{t:.3f}' for t in times)}")
    if problems:
        print()
        print("DISAGREEMENT between ARX and privlab:")
        for p in problems:
            print(f"- {p}")
        sys.exit(1)
    print("- ARX and privlab agree on every limit (levels, suppressed, classes, Loss to 1e-9)")


if __name__ == "__main__":
    main()
