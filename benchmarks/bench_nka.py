"""NKA side by side: privlab's ``graph attack nka`` and the authors' Java code (SecGraph's
``-m d -a Community``), the same experiment on one pair folder.

The two tools take different inputs; this script makes them run the same experiment:

* **Seeds.**  The Java code draws num_seeds/4 random 4-cliques from a clique file, with its own
  ``java.util.Random``.  Here ``privlab.graph.attacks.nka.clique_seeds`` draws ``--cliques``
  disjoint 4-cliques of aux nodes that have a true counterpart (seeded); the clique file given
  to Java holds exactly those cliques and ``-sN`` is 4 × their number, so Java takes all of
  them; privlab gets the same pairs as ``--seeds-file``.
* **Communities.**  The Java code reads Infomap ``.tree`` files.  They are written from
  ``privlab.graph.attacks.nka.detect_communities`` (igraph's Infomap, ``--trials``, seed 0),
  the very call ``privlab graph attack nka --communities infomap --trials T --seed 0`` makes,
  so both tools see the same partitions (checked: the run reports it).
* **Graphs and truth.**  Pajek files; a vertex's *name* is its true identity (aux id; a san
  node takes the aux id of its true counterpart, or |V1| + its san id if it has none), which
  is what the Java code's overlapped variant (``-Overlap true``, two graphs with different node
  sets, as privlab's pairs) uses to find its seeds' images and to score.
* **Noise, exp, probDeg**: bookkeeping of the Java code (file names, degree of anonymity);
  not used by the attack.

The Java side runs through our harness ``privlab.CommunityTimer`` (benchmarks/secgraph/
deanon-shims/): Comm_Enhanced's attack path without the degree-of-anonymity statistics its
``main`` adds, timed inside the JVM, writing the mapping (Comm_Enhanced writes none).  Needs a
SecGraph build with the real deAnon sources (``DEANON_SRC=... benchmarks/secgraph/build.sh``).

    python3 benchmarks/bench_nka.py PAIR --cliques 4 --secgraph-build /work/secgraph-extra/nka/build
    python3 benchmarks/bench_nka.py PAIR --cliques 4 --enrich --json-out r.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO = Path(__file__).resolve().parents[1]


def write_inputs(
    pair_dir: Path, out: Path, n_cliques: int, *, seed: int = 0, trials: int = 10
) -> dict[str, Any]:
    """Write base1/base2 (.net, .tree), cliques.txt, seeds.csv and names.json into ``out``;
    return the file names and the figures (placeholders of bench_graph_attacks' NKA row)."""
    import numpy as np

    from privlab.cli.graph_attack import read_pair_dir
    from privlab.graph.attacks.nka import clique_seeds, detect_communities

    out.mkdir(parents=True, exist_ok=True)
    pair = read_pair_dir(pair_dir)
    truth = pair.truth_array()
    n1, n2 = pair.aux.n_nodes, pair.san.n_nodes
    name2 = n1 + np.arange(n2)  # san nodes without counterpart: |V1| + id
    has = truth >= 0
    name2[truth[has]] = np.flatnonzero(has)
    names = (np.arange(n1), name2)
    for i, g in enumerate((pair.aux, pair.san), start=1):
        base = out / f"g{i}"
        lines = [f"*Vertices {g.n_nodes}"]
        lines += [f'{v + 1} "{names[i - 1][v]}"' for v in range(g.n_nodes)]
        lines.append("*Edges")
        lines += [f"{u + 1} {v + 1}" for u, v in g.edges().tolist()]
        (base.with_suffix(".net")).write_text("\n".join(lines) + "\n")
        memb = detect_communities(g, "infomap", seed=seed, trials=trials)
        tree = ["# communities: privlab.graph.attacks.nka.detect_communities (igraph Infomap)"]
        tree += [f'{memb[v] + 1}:1 0 "{names[i - 1][v]}"' for v in range(g.n_nodes)]
        (base.with_suffix(".tree")).write_text("\n".join(tree) + "\n")
        # the same partition for privlab's --aux-communities / --san-communities (node ids)
        (base.with_suffix(".comm")).write_text(
            "# node community\n" + "".join(f"{v} {c}\n" for v, c in enumerate(memb.tolist()))
        )
    cliques, pairs = clique_seeds(pair.aux, truth, n_cliques, seed=seed)
    (out / "cliques.txt").write_text("".join(", ".join(map(str, c)) + "\n" for c in cliques))
    (out / "seeds.csv").write_text("aux,san\n" + "".join(f"{a},{b}\n" for a, b in pairs))
    (out / "names2.json").write_text(json.dumps(name2.tolist()))
    (out / "results").mkdir(exist_ok=True)
    return {
        "nka_base1": str(out / "g1"),
        "nka_base2": str(out / "g2"),
        "nka_cliques": str(out / "cliques.txt"),
        "nka_dir": str(out / "results"),
        "nka_nseeds": str(4 * n_cliques),
        "nka_seeds_csv": str(out / "seeds.csv"),
        "nka_comm1": str(out / "g1.comm"),
        "nka_comm2": str(out / "g2.comm"),
    }


def read_java_mapping(path: Path, names2: list[int]) -> dict[int, int]:
    """The harness's "name1 name2" lines as {aux id: san id}."""
    back = {name: s for s, name in enumerate(names2)}
    pairs: dict[int, int] = {}
    for line in path.read_text().splitlines()[:-1]:
        a, b = line.split()
        pairs[int(a)] = back[int(b)]
    return pairs


def main() -> int:
    from bench_graph_attacks import WRAPPER, attack_only, timed

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pair", type=Path)
    ap.add_argument("--cliques", type=int, default=4, help="known 4-cliques (seeds: 4×)")
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--enrich", action="store_true", help="privlab: --enrich (the Java path)")
    ap.add_argument("--ns-rule", default="secgraph", help="privlab: --ns-rule secgraph|authors")
    ap.add_argument(
        "--given-communities",
        action="store_true",
        help="privlab reads the communities from files (--aux-communities/--san-communities), "
        "as the Java code reads its .tree files, instead of running Infomap in the attack",
    )
    ap.add_argument("--secgraph-build", default="/work/secgraph-extra/nka/build")
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--timeout", type=float, default=3600.0)
    ap.add_argument("--no-secgraph", action="store_true")
    ap.add_argument("--json-out", type=Path)
    args = ap.parse_args()
    import os
    import shutil
    import tempfile

    sys.path.insert(0, str(REPO / "src"))
    work = args.workdir or Path(tempfile.mkdtemp(prefix="privlab-nka-"))
    files = write_inputs(args.pair, work, args.cliques, seed=args.seed, trials=args.trials)
    truth = {}
    for line in (args.pair / "truth.csv").read_text().splitlines()[1:]:
        a, b = line.split(",")
        truth[int(a)] = int(b)
    report: dict[str, Any] = {"pair": str(args.pair), "cliques": args.cliques, "seeds":
                              4 * args.cliques, "enrich": args.enrich, "ns_rule": args.ns_rule,
                              "given_communities": args.given_communities}  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    out = work / "pl.csv"
    argv = ["graph", "attack", "nka", str(args.pair), "--seeds-file", files["nka_seeds_csv"],
            "--communities", "infomap", "--trials", str(args.trials), "--seed", str(args.seed),
            "--enrich" if args.enrich else "--no-enrich", "--ns-rule", args.ns_rule,
            "-o", str(out), "--json", "--quiet"]  # fmt: skip
    if args.given_communities:
        argv += ["--aux-communities", files["nka_comm1"], "--san-communities", files["nka_comm2"]]
    t = timed([sys.executable, "-c", WRAPPER, "privlab.graph.attacks.nka:nka", *argv], work,
              "pl", args.timeout, env)  # fmt: skip
    if t.code:
        print(t.stderr.read_text())
        return 1
    summary = json.loads(t.stdout.read_text())
    report["privlab"] = {
        "correct": summary["correct"], "wrong": summary["wrong"], "coverage": summary["coverage"],
        "process_cpu_s": t.cpu, "process_wall_s": t.wall, "peak_rss_mib": t.rss_mib,
        **{f"attack_{k}": v for k, v in attack_only(t.stderr).items()},
        **{k: summary[k] for k in ("communities1", "communities2", "communities_mapped",
                                   "communities_correct", "before_global")},
    }  # fmt: skip
    if not args.no_secgraph:
        jar = Path(args.secgraph_build) / "secgraph-cli.jar"
        java = shutil.which("java") or "java"
        sg_out = work / "sg.txt"
        cmd = [java, "-cp", str(jar), "privlab.CommunityTimer", files["nka_base1"],
               files["nka_base2"], files["nka_cliques"], files["nka_dir"], files["nka_nseeds"],
               str(sg_out)]  # fmt: skip
        t = timed(cmd, work, "sg", args.timeout, None)
        if t.code or not sg_out.is_file():
            report["secgraph"] = {"status": f"failed (exit {t.code})", "cpu_s": t.cpu,
                                  "wall_s": t.wall}  # fmt: skip
        else:
            names2 = json.loads((work / "names2.json").read_text())
            pairs = read_java_mapping(sg_out, names2)
            right = sum(1 for a, b in pairs.items() if truth.get(a) == b)
            report["secgraph"] = {
                "correct": right, "wrong": len(pairs) - right, "coverage": right / len(truth),
                "process_cpu_s": t.cpu, "process_wall_s": t.wall, "peak_rss_mib": t.rss_mib,
                **{f"attack_{k}": v for k, v in attack_only(t.stderr).items()},
            }  # fmt: skip
    text = json.dumps(report, indent=2)
    print(text)
    if args.json_out:
        args.json_out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
