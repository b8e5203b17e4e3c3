"""DP-HRG side by side: privlab's ``dp_hrg`` against the authors' privHRG (Xiao, Chen & Tan,
KDD 2014), same graph, same ε and split, same number of MCMC steps where privHRG allows.

privHRG is the C++ program SecGraph's ``-m a -a XiaoDP`` shells out to (``./privHRG-master/
privHRG -f G -epsilonHRG e1 -epsilonE e2``, relative to the working directory, writing into
``output/<timestamp>/``).  That call cannot go through SecGraph's CLI usefully — SecGraph
only starts the binary and reads nothing back — so this script runs the binary itself, built
outside the repository (benchmarks/secgraph/README.md, "privHRG"):

    python3 benchmarks/bench_dp_hrg.py --privhrg /work/secgraph-extra/hrg/privHRG

Per graph and tool: CPU (user + system of the whole process; privlab also the call alone),
peak memory (max RSS) and the utility of the release against the input — edges, Hellinger
distance of the degree distributions (seed 004 "DD"), average clustering cc and global
transitivity cc1.  These are figures of the *outputs* compared with the input, printed by a
benchmark, never by the DP command.  privHRG always runs its chain to its own convergence
test (≥ 1000·n steps, ≤ 3000·n) and then draws 10 dendrogram/graph samples (hard-coded);
its CPU includes all ten, its utility is that of sample 1.  privlab runs max(1000·n, 10^5)
steps (its default) unless ``--steps`` says otherwise.  ``--repeat R`` averages utility
over R seeds (privlab) / R runs (privHRG).

Graphs: karate (networkx), the ego network of node 0 in ego-Facebook (348 nodes, the largest
privHRG finishes in minutes) and, with ``--full-facebook``, all of ego-Facebook for privlab
only (privHRG manages about 2,000 steps/s there: its 1000·n = 4·10^6-step minimum would
take over half an hour).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import networkx as nx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import default_data, machine

from privlab.graph.core import Graph, read_graph, write_graph
from privlab.graph.utility.centrality import clustering_coefficients
from privlab.graph.utility.degrees import hellinger_dd

PRIVLAB_SCRIPT = r"""
import json, resource, sys, time
from privlab.graph.core import read_graph, write_graph
from privlab.graph.anonymize.dp_hrg import dp_hrg
path, eps, share, steps, seed, out, small = sys.argv[1:8]
g = read_graph(path).graph
t = time.process_time()
r = dp_hrg(g, float(eps), hrg_share=float(share), steps=None if steps == "default" else int(steps),
           seed=int(seed), small_subtrees=small)
call = time.process_time() - t
write_graph(r.graph, out)
u = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"call_cpu": call, "cpu": u.ru_utime + u.ru_stime, "rss_mib": u.ru_maxrss / 1024,
                  "steps": r.steps}))
"""


def utility(original: Graph, release: Graph) -> dict[str, float]:
    c = clustering_coefficients(release)
    return {
        "edges": release.n_edges,
        "dd_hellinger": hellinger_dd(original, release),
        "cc": c.cc,
        "cc1": c.cc1,
    }


def run_privlab(
    path: Path, eps: float, share: float, steps: str, seed: int, work: Path, small: str
) -> dict:
    out = work / f"privlab-{seed}.txt"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    res = subprocess.run(
        [sys.executable, "-c", PRIVLAB_SCRIPT, str(path), str(eps), str(share), steps,
         str(seed), str(out), small],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    stats = json.loads(res.stdout.strip().splitlines()[-1])
    stats["graph"] = read_graph(out).graph
    return stats


def run_privhrg(binary: Path, graph: Graph, name: str, eps1: float, eps2: float,
                work: Path) -> dict:  # fmt: skip
    """privHRG in a fresh folder: data/NAME.pairs in, output/<ts>/NAME_random_graph_1.pairs
    out; CPU and max RSS from /usr/bin/time -v."""
    run_dir = Path(tempfile.mkdtemp(dir=work))
    (run_dir / "data").mkdir()
    e = graph.edges()
    np.savetxt(run_dir / "data" / f"{name}.pairs", e, fmt="%d", delimiter="\t")
    res = subprocess.run(
        ["/usr/bin/time", "-v", str(binary), "-f", f"data/{name}.pairs",
         "-epsilonHRG", repr(eps1), "-epsilonE", repr(eps2)],
        cwd=run_dir, capture_output=True, text=True, check=False,
    )  # fmt: skip
    err = res.stderr

    def field(label: str) -> float:
        m = re.search(rf"{re.escape(label)}: ([0-9.:]+)", err)
        return float(m.group(1)) if m else float("nan")

    intervals = res.stdout.count("newMeanL-oldMeanL")  # equilibration: 65,536-step rounds
    sample = next((run_dir / "output").glob(f"*/{name}_random_graph_1.pairs"), None)
    if sample is None:
        raise RuntimeError(f"privHRG wrote no sample (exit {res.returncode}): {res.stdout[-500:]}")
    pairs = np.loadtxt(sample, dtype=np.int64, ndmin=2)
    lo, hi = np.minimum(pairs[:, 0], pairs[:, 1]), np.maximum(pairs[:, 0], pairs[:, 1])
    und = np.unique(np.stack([lo, hi], axis=1), axis=0)
    released = Graph.from_edges(graph.n_nodes, und)
    return {
        "cpu": field("User time (seconds)") + field("System time (seconds)"),
        "rss_mib": field("Maximum resident set size (kbytes)") / 1024,
        "steps": 65536 * intervals,
        "graph": released,
    }


def graphs(data: Path, full: bool) -> list[tuple[str, Graph]]:
    out = [("karate", Graph.from_networkx(nx.karate_club_graph()))]
    fb = data / "graphs" / "facebook_combined.txt"
    if fb.exists():
        g = read_graph(fb).graph
        ego = np.concatenate([[0], g.neighbors(0)])
        sub = nx.relabel_nodes(g.to_networkx().subgraph(ego.tolist()).copy(),
                               {int(v): i for i, v in enumerate(sorted(ego.tolist()))})  # fmt: skip
        out.append(("fb-ego0", Graph.from_networkx(sub)))
        if full:
            out.append(("ego-Facebook", g))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--privhrg", default="/work/secgraph-extra/hrg/privHRG")
    ap.add_argument("--epsilon", type=float, default=1.0, help="total ε (default 1)")
    ap.add_argument("--hrg-share", type=float, default=0.5)
    ap.add_argument("--steps", default="default", help="privlab MCMC steps (default: its own)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--small-subtrees",
        default="keep",
        choices=("keep", "privhrg"),
        help="privlab's rule for small subtrees (privHRG always collapses them)",
    )
    ap.add_argument("--full-facebook", action="store_true")
    ap.add_argument("--only", help="one graph: karate, fb-ego0 or ego-Facebook")
    ap.add_argument("--no-privhrg", action="store_true", help="privlab only")
    ap.add_argument("--json", help="also write the rows here")
    args = ap.parse_args()
    print(machine())
    eps1 = args.epsilon * args.hrg_share
    eps2 = args.epsilon - eps1
    print(
        f"ε = {args.epsilon:g} (ε1 = {eps1:g} dendrogram, ε2 = {eps2:g} counts), privlab "
        f"--small-subtrees {args.small_subtrees}"
    )
    rows = []
    binary = Path(args.privhrg)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, g in graphs(Path(default_data()), args.full_facebook):
            if args.only and name != args.only:
                continue
            path = work / f"{name}.txt"
            write_graph(g, path)
            base = clustering_coefficients(g)
            print(f"\n{name}: {g.n_nodes} nodes, {g.n_edges} edges, cc {base.cc:.3f}, "
                  f"cc1 {base.cc1:.3f}")  # fmt: skip
            tools = ["privlab"]
            if binary.exists() and name != "ego-Facebook" and not args.no_privhrg:
                tools.append("privHRG")
            for tool in tools:
                runs = []
                for rep in range(args.repeat):
                    t = time.perf_counter()
                    if tool == "privlab":
                        r = run_privlab(
                            path,
                            args.epsilon,
                            args.hrg_share,
                            args.steps,
                            rep,
                            work,
                            args.small_subtrees,
                        )
                    else:
                        r = run_privhrg(binary, g, name.replace("-", ""), eps1, eps2, work)
                    r["wall"] = time.perf_counter() - t
                    r.update(utility(g, r.pop("graph")))
                    runs.append(r)
                keys = [k for k in runs[0] if isinstance(runs[0][k], (int, float))]
                mean = {k: float(np.mean([r[k] for r in runs if r[k] is not None])) for k in keys}
                row = {"graph": name, "tool": tool, **mean, "repeat": args.repeat}
                rows.append(row)
                call = f", call {mean['call_cpu']:.2f} s" if "call_cpu" in mean else ""
                steps = mean["steps"]
                print(f"  {tool:8s} CPU {mean['cpu']:7.2f} s{call}, peak {mean['rss_mib']:6.1f} "
                      f"MiB, steps {steps:,.0f} | edges {mean['edges']:8.1f}, DD Hellinger "
                      f"{mean['dd_hellinger']:.3f}, cc {mean['cc']:.3f}, "
                      f"cc1 {mean['cc1']:.3f}")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
