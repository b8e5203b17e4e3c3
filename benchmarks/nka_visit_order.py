"""NKA: how much the node visiting order of NS decides, and an exact replay of the Java run.

NS (Narayanan & Shmatikov 2009) visits the unmapped nodes of G1 one after another and uses a
new pair at once, so the order of the visits is part of the outcome; neither NS09 nor the NKA
paper (Nilizadeh, Kapadia & Ahn, CCS 2014) fixes it.  privlab visits by ascending node id.  The
authors' Java code (``Comm_Blind.propagationStep``) visits ``new ArrayList(g1.getVertices())``:
JUNG's ``UndirectedSparseGraph`` keeps its vertices in a ``java.util.HashMap`` keyed by the
Pajek vertex number as a String, so the order is HashMap bucket order of those strings
(``String.hashCode``, spread ``h ^ h >>> 16``, masked by the table capacity: the smallest
power of two ≥ 16 holding the entries at load factor 0.75; a bucket's entries in insertion
order, here ascending).  Each community subgraph is its own graph, so its own table.

``--java-order WORKDIR`` (a ``bench_nka.py --workdir`` folder: seeds.csv, g1.comm, g2.comm,
and the Java run's sg.stdout if any) runs the authors' attack path with privlab's pieces —
the seed communities and community propagation of ``privlab.graph.attacks.nka``, then
``propagate(..., scoring="nka")`` inside each seed community pair and on the whole graphs —
with G1 relabelled so that ascending id is the Java visiting order.  Not emulated: the
enrichment (``findSeedNodes_overlappedSets``; on pairs with G2's ids permuted it adds
nothing, its "correct mapping" lines are only the seeds) and the code's float32 arithmetic.
The seed communities are privlab's (one-to-one, ties by smaller id; the code's vote count
can pick another G2 community on a tie).  It prints each community's local pairs next to the
Java log's ``matched`` lines for it (the last block of the log also holds the final
propagation's lines, so that community's count is not comparable).

``--orders N`` runs ``privlab.graph.attacks.nka.nka`` (both ``ns_rule``s, communities from
the workdir) under N random relabellings of G1 (numpy default_rng(100 + i)): the spread of
correct pairs over visiting orders.

    python3 benchmarks/nka_visit_order.py /work/lead-bench/fb0r \
        --java-order /work/lead-bench/nka-fb0r --orders 10 --json-out r.json

Cost: one NKA run (a few CPU seconds on ego-Facebook) per order and rule.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))


def java_hashmap_order(ids: np.ndarray) -> np.ndarray:
    """``ids`` (0-based node ids, inserted in this order as the keys ``str(id + 1)`` of a
    ``java.util.HashMap``) in the map's iteration order.  O(n · digits + n log n)."""
    n = int(ids.size)
    cap = 16
    while n > 0.75 * cap:
        cap *= 2
    buckets = np.empty(n, dtype=np.int64)
    for i, v in enumerate(ids.tolist()):
        h = 0
        for ch in str(v + 1):
            h = (31 * h + ord(ch)) & 0xFFFFFFFF
        buckets[i] = (h ^ (h >> 16)) & (cap - 1)
    return ids[np.argsort(buckets, kind="stable")]


def _propagate_in_order(g1, g2, nodes1, nodes2, pairs, order1) -> list[tuple[int, int]]:
    """NS (authors' rule, θ = 0.1) on G1[nodes1], G2[nodes2] from ``pairs`` lying inside,
    G1 visited in ``order1`` (a permutation of nodes1).  Returns the global pairs found."""
    from privlab.graph.attacks.propagation import propagate

    pos = np.full(g1.n_nodes, -1, dtype=np.int64)
    pos[order1] = np.arange(order1.size)
    loc2 = np.full(g2.n_nodes, -1, dtype=np.int64)
    loc2[nodes2] = np.arange(nodes2.size)
    s = np.array([(pos[a], loc2[b]) for a, b in pairs if pos[a] >= 0 and loc2[b] >= 0])
    if not s.size:
        return []
    m = propagate(g1.induced(order1), g2.induced(nodes2), s, 0.1, scoring="nka").mapping
    f = np.flatnonzero(m >= 0)
    return [(int(order1[i]), int(nodes2[m[i]])) for i in f.tolist()]


def _java_log(path: Path) -> dict[int, int]:
    """Matched lines per community block of the Java stdout (community id − 1; −2: the
    final global propagation is inside the last block and is not separated here)."""
    counts: dict[int, int] = {}
    cur = -1
    if not path.is_file():
        return counts
    for line in path.read_text().splitlines():
        if line.startswith("Find seed nodes for community ") and "using" not in line:
            cur = int(line.split()[5].rstrip(".")) - 1
        elif line.startswith("matched "):
            counts[cur] = counts.get(cur, 0) + 1
    return counts


def java_order_replay(pair, truth, seeds, c1, c2, workdir: Path) -> dict[str, Any]:
    from privlab.graph.attacks.nka import community_graph, community_propagation, seed_communities

    cmap = seed_communities(c1, c2, seeds)
    community_propagation(community_graph(pair.aux, c1), community_graph(pair.san, c2), cmap, 0.0)
    log = _java_log(workdir / "sg.stdout")
    found: dict[int, int] = {int(a): int(b) for a, b in seeds.tolist()}
    per: list[dict[str, Any]] = []
    for a in sorted(set(c1[seeds[:, 0]].tolist())):
        n1, n2 = np.flatnonzero(c1 == a), np.flatnonzero(c2 == cmap[a])
        mine = [(int(x), int(y)) for x, y in seeds.tolist() if c1[x] == a]
        local = _propagate_in_order(pair.aux, pair.san, n1, n2, mine, java_hashmap_order(n1))
        new = [p for p in local if p[0] not in found]
        found.update(new)
        per.append({"community": int(a), "local_new": len(new),
                    "local_correct": sum(int(truth[x] == y) for x, y in new),
                    "java_matched_lines": log.get(int(a))})  # fmt: skip
    pre = sorted(found.items())
    allv = np.arange(pair.aux.n_nodes)
    fin = _propagate_in_order(pair.aux, pair.san, allv, np.arange(pair.san.n_nodes), pre,
                              java_hashmap_order(allv))  # fmt: skip
    right = sum(int(truth[x] == y) for x, y in fin)
    return {"communities": per, "before_global": len(pre),
            "before_global_correct": sum(int(truth[x] == y) for x, y in pre),
            "correct": right, "wrong": len(fin) - right}  # fmt: skip


def random_orders(pair, truth, seeds, c1, c2, n: int) -> dict[str, list[list[int]]]:
    from privlab.graph.attacks.nka import nka
    from privlab.graph.core import Graph

    n1 = pair.aux.n_nodes
    edges = pair.aux.edges()
    out: dict[str, list[list[int]]] = {"secgraph": [], "authors": []}
    for i in range(n):
        p = np.random.default_rng(100 + i).permutation(n1)  # old id -> new id
        g1 = Graph.from_edges(n1, p[edges])
        c1p, trp = np.empty_like(c1), np.empty_like(truth)
        c1p[p], trp[p] = c1, truth
        s = np.stack([p[seeds[:, 0]], seeds[:, 1]], axis=1)
        for rule, rows in out.items():
            d = nka(g1, pair.san, s, communities=(c1p, c2), ns_rule=rule, truth=trp).to_dict()
            rows.append([d["correct"], d["wrong"], d["before_global"], d["before_global_correct"]])
        print(i, {k: v[-1] for k, v in out.items()}, file=sys.stderr, flush=True)
    return out


def main() -> int:
    from privlab.cli.graph_attack import read_pair_dir

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pair", type=Path)
    ap.add_argument("workdir", type=Path, help="a bench_nka.py --workdir folder")
    ap.add_argument("--java-order", action="store_true", help="replay in Java's visiting order")
    ap.add_argument("--orders", type=int, default=0, help="random G1 visiting orders to run")
    ap.add_argument("--json-out", type=Path)
    args = ap.parse_args()
    pair = read_pair_dir(args.pair)
    truth = pair.truth_array()
    rows = (args.workdir / "seeds.csv").read_text().split()[1:]
    seeds = np.array([[int(x) for x in r.split(",")] for r in rows], dtype=np.int64)

    def comm(p: Path) -> np.ndarray:
        return np.array([int(ln.split()[1]) for ln in p.read_text().splitlines()[1:]])

    c1, c2 = comm(args.workdir / "g1.comm"), comm(args.workdir / "g2.comm")
    report: dict[str, Any] = {"pair": str(args.pair), "workdir": str(args.workdir)}
    if args.java_order:
        report["java_order"] = java_order_replay(pair, truth, seeds, c1, c2, args.workdir)
    if args.orders:
        report["random_orders"] = random_orders(pair, truth, seeds, c1, c2, args.orders)
    text = json.dumps(report, indent=1) + "\n"
    sys.stdout.write(text)
    return 0 if args.json_out is None else int(not args.json_out.write_text(text))


if __name__ == "__main__":
    sys.exit(main())
