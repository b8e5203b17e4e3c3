"""Privacy metrics of RSP / RAD / k-degree releases of ego-Facebook and ca-GrQc.

Every release is made by ``privlab graph anonymize --keep-ids --seed S`` and measured by
``privlab graph attack obfuscation | links | group --json`` (privlab.graph.privacy_metrics):

* k-obfuscation (Bonchi et al. 2011) under the release's own model (rsp/rad with the public m;
  exact for k-degree and for the original itself, i.e. a naive anonymization);
* edge disclosure under H_1 and H* (seed 000 §7.2.1, seed 002 §6.1);
* group re-identification of 200 random people, 20 edge facts each (breadth-first, exact
  degrees), attacked as one group;
* the passive coalition attack on the original graph (k = 4, 6, 8; 10 coalitions each).

Run:  PYTHONPATH=src PRIVLAB_DATA=../shared/data python3 benchmarks/bench_graph_privacy.py
      [--graphs facebook,grqc] [--out results.json]
Prints a Markdown table; minutes per graph (k-degree dominates on ego-Facebook).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GRAPHS = {"facebook": "facebook_combined.txt", "grqc": "CA-GrQc.txt"}
SCHEMES = [  # (label, anonymize options, obfuscation model)
    ("naive", None, "exact"),
    ("rsp 5%", ["-s", "rsp", "--fraction", "0.05"], "rsp"),
    ("rsp 20%", ["-s", "rsp", "--fraction", "0.2"], "rsp"),
    ("rad 5%", ["-s", "rad", "--fraction", "0.05"], "rad"),
    ("rad 20%", ["-s", "rad", "--fraction", "0.2"], "rad"),
    ("rad 5%", ["-s", "rad", "--fraction", "0.05"], "rad-hay"),
    ("rad 20%", ["-s", "rad", "--fraction", "0.2"], "rad-hay"),
    ("kdegree k=10", ["-s", "kdegree", "-k", "10"], "exact"),
]


def privlab(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "privlab", *args, "--quiet"],
                         capture_output=True, text=True)  # fmt: skip
    if out.returncode:
        raise SystemExit(f"privlab {' '.join(args)}: {out.stderr.strip()}")
    return json.loads(out.stdout) if "--json" in args else {}


def measure(graph: Path, label: str, opts: list[str] | None, model: str, tmp: Path) -> dict:
    t0 = time.perf_counter()
    release, m = graph, None
    if opts is not None:
        release = tmp / f"{graph.stem}-{label.replace(' ', '_')}.txt"
        summary = privlab("graph", "anonymize", str(graph), *opts, "-o", str(release),
                          "--keep-ids", "--seed", "7", "--json")  # fmt: skip
        m = summary.get("details", {}).get("parameters", {}).get("m")
    made = time.perf_counter() - t0
    extra = ["--m", str(m)] if model.startswith("rad") else []
    ob = privlab("graph", "attack", "obfuscation", str(graph), str(release), "--model", model,
                 *extra, "--json")  # fmt: skip
    links = privlab("graph", "attack", "links", str(graph), str(release), "--json")
    group = privlab("graph", "attack", "group", str(graph), str(release), "--nodes", "200",
                    "--knowledge", "facts", "--facts", "20", "--aligned-ids", "--seed", "1",
                    "--json")  # fmt: skip
    return {"graph": graph.stem, "release": label, "model": model, "m": m,
            "anonymize_seconds": made, "measure_seconds": time.perf_counter() - t0 - made,
            "obfuscation": ob, "links": links["levels"], "group": group}  # fmt: skip


def row(r: dict) -> str:
    ob, (h1, hs), g = r["obfuscation"], r["links"], r["group"]
    f = ob["obfuscated_fraction"]
    return (f"| {r['graph']} | {r['release']} | {r['model']} | {ob['no_match_fraction']:.3f} | "
            f"{f['2']:.3f} | {f['10']:.3f} | {f['20']:.3f} | "
            f"{ob['entropy_bits']['median']:.2f} | {h1['disclosed_fraction']:.3f} | "
            f"{hs['disclosed_fraction']:.3f} | {h1['mean_probability'] or float('nan'):.3f} | "
            f"{g['unique_individual']}/{g['unique_group']}/{g.get('reidentified_group', '')}"
            f"/{g['shrunk']} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--graphs", default="facebook,grqc")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    data = Path(os.environ.get("PRIVLAB_DATA", "../shared/data")) / "graphs"
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.graphs.split(","):
            for label, opts, model in SCHEMES:
                r = measure(data / GRAPHS[name], label, opts, model, Path(tmp))
                results.append(r)
                print(row(r), file=sys.stderr, flush=True)
            passive = privlab("graph", "attack", "passive", str(data / GRAPHS[name]), "-k",
                              "4,6,8", "--trials", "10", "--seed", "3", "--json")  # fmt: skip
            results.append({"graph": name, "passive": passive["rows"]})
            for p in passive["rows"]:
                print(f"passive {name} k={p['k']}: located {p['located_exactly_rate']:.2f}, "
                      f"neighbours re-identified {p['success_rate']:.3f} of "
                      f"{p['mean_neighbours']:.0f}", file=sys.stderr, flush=True)
    print("| graph | release | model | no match | 2-obf | 10-obf | 20-obf | median H (bits) "
          "| edges certain H1 | edges certain H* | mean p H1 "
          "| group: unique ind/grp/right/shrunk |")
    print("|" + "---|" * 12)
    for r in results:
        if "passive" not in r:
            print(row(r))
    for r in results:
        for p in r.get("passive", []):
            print(f"passive {r['graph']} k={p['k']}: located {p['located_exactly_rate']:.2f}, "
                  f"neighbours re-identified {p['success_rate']:.3f} of "
                  f"{p['mean_neighbours']:.0f} (statuses {p['statuses']})")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
