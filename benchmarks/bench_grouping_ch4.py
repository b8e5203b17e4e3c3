"""Seed 001 Chapter 4 on a synthetic author–paper graph: the baselines against safe groupings.

The dissertation's experiments use DBLP 2007 (402,023 authors, 543,065 papers), which is not
in the data folder; this script builds a smaller synthetic bipartite graph with the property
that matters for Fig. 4.2 — co-authors who write many papers together — and runs, on it:

* **Fig. 4.2 (§4.3.3)**: co-author pairs and the most papers one pair co-wrote, in the
  original graph and after edge-group permutation, global and small-group (pairs of papers
  ordered by author count) — ``edge_group_permutation``, ``coauthor_pair_counts``;
* **§4.3.1–4.3.2**: what tabular and matrix k-anonymization of the association table keep
  (``tabular_k_anonymize``, ``matrix_k_anonymize``; k = 5);
* **safe (k, ℓ)-groupings** (5, 5), (10, 1), (1, 10), (10, 10) (``safe_grouping``):
  Lemma 4.4.1's static security (``static_security``), and the worst-case error
  (U − L)/2Q and expected error |E − T|/T (``worst_case_error``, ``expected_error``) of
  Query A (average authors of papers satisfying Pa: ``type1_query(..., "right", pa,
  "degree", "avg")``), Query B (single-author papers satisfying Pa: ``type1_query(...,
  "single")``), Query C (papers satisfying Pa with an author satisfying P'a, selectivity 0.8:
  ``type2_count``) and Example 8 (the most single-author Pa papers of a P'a author:
  ``type2_max``), Pa selectivity 0.1 / 0.5 / 0.9.

Generator (``--authors``, ``--papers``, ``--seed``): authors have productivity ∝ rank^−0.5;
each paper draws 1–4 authors (P = 0.35, 0.35, 0.2, 0.1); with probability ``--repeat`` (0.5)
a multi-author paper reuses the team of an earlier paper of its first author (repeated
collaboration), else it draws co-authors by productivity.  Attributes Pa (papers) and P'a
(authors) are independent Bernoulli draws.

    python3 benchmarks/bench_grouping_ch4.py [--authors 3000] [--papers 5000] [--seed 7]
        [--repeat 0.5] [--json-out FILE]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from privlab.errors import InfeasibleError
from privlab.graph.anonymize.bipartite_baselines import (
    coauthor_pair_counts,
    edge_group_permutation,
    matrix_k_anonymize,
    tabular_k_anonymize,
)
from privlab.graph.anonymize.grouping import Bipartite, safe_grouping
from privlab.graph.grouping_bounds import type1_query, type2_count, type2_max
from privlab.graph.grouping_security import static_security

GROUPINGS = ((5, 5), (10, 1), (1, 10), (10, 10))
SELECTIVITIES = (0.1, 0.5, 0.9)


def author_paper_graph(n_authors: int, n_papers: int, repeat: float, seed: int) -> Bipartite:
    """The synthetic author–paper graph described in the module docstring.  O(papers)."""
    rng = np.random.default_rng(seed)
    weight = 1.0 / np.arange(1, n_authors + 1) ** 0.5
    weight /= weight.sum()
    teams: dict[int, list[tuple[int, ...]]] = {}
    edges: list[tuple[int, int]] = []
    for p in range(n_papers):
        size = int(rng.choice([1, 2, 3, 4], p=[0.35, 0.35, 0.2, 0.1]))
        first = int(rng.choice(n_authors, p=weight))
        earlier = [t for t in teams.get(first, []) if len(t) > 1]
        if size > 1 and earlier and rng.random() < repeat:
            team = earlier[int(rng.integers(len(earlier)))]
        else:
            others = rng.choice(n_authors, size=size - 1, replace=False, p=weight)
            team = tuple(sorted({first, *map(int, others)}))
        teams.setdefault(first, []).append(team)
        edges.extend((a, p) for a in team)
    return Bipartite.from_edges(sorted(set(edges)), n_left=n_authors, n_right=n_papers)


def run(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.process_time()
    g = author_paper_graph(args.authors, args.papers, args.repeat, args.seed)
    out: dict[str, Any] = {
        "graph": {"authors": g.n_left, "papers": g.n_right, "edges": g.n_edges,
                  "density": g.density()},
    }  # fmt: skip
    # Fig. 4.2
    fig = {}
    for name, edges in (
        ("original", g.edges),
        ("global permutation", edge_group_permutation(g, "global", seed=args.seed).edges),
        ("pairs of papers", edge_group_permutation(g, "pairs", seed=args.seed).edges),
    ):
        c = coauthor_pair_counts(edges)
        fig[name] = {"pairs": int(c.size), "max": int(c[0]) if c.size else 0,
                     "pairs_with_3+": int((c >= 3).sum())}  # fmt: skip
    out["fig_4_2"] = fig
    # §4.3.1–4.3.2
    rng = np.random.default_rng(args.seed + 1)
    location = rng.choice(["US", "EU", "AS"], size=g.n_left)
    venue = rng.choice(["VLDB", "SIGMOD", "ICDE"], size=g.n_right)
    out["tabular_k5"] = tabular_k_anonymize(
        g, 5, left_attribute=location, right_attribute=venue, suppression=0.1
    ).to_dict()
    out["matrix_k5"] = matrix_k_anonymize(g, 5).to_dict()
    # safe groupings
    single = g.degrees("right") == 1
    groupings = {}
    for k, ell in GROUPINGS:
        t = time.process_time()
        try:
            gg = safe_grouping(g, k, ell, seed=args.seed)
        except InfeasibleError as exc:
            groupings[f"({k},{ell})"] = {"error": str(exc)}
            continue
        row: dict[str, Any] = {"strict": gg.strict, "grouping_cpu_s": time.process_time() - t,
                               "static": static_security(gg).to_dict(), "queries": {}}  # fmt: skip
        p_author = rng.random(g.n_left) < 0.8
        for sel in SELECTIVITIES:
            pa = rng.random(g.n_right) < sel
            q = {
                "A": type1_query(gg, "right", pa, "degree", "avg"),
                "B": type1_query(gg, "right", pa, "single"),
                "C": type2_count(gg, p_author, pa),
                "Ex8": type2_max(gg, p_author, pa, single),
            }
            row["queries"][str(sel)] = {
                name: {"worst_case_error": b.worst_case_error, "expected_error": b.expected_error}
                for name, b in q.items()
            }
        groupings[f"({k},{ell})"] = row
    out["groupings"] = groupings
    out["cpu_s"] = time.process_time() - t0
    return out


def _r(x: float | None) -> Any:
    return None if x is None else round(x, 3)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--authors", type=int, default=3000)
    ap.add_argument("--papers", type=int, default=5000)
    ap.add_argument("--repeat", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json-out", default=None)
    args = ap.parse_args(argv)
    res = run(args)
    gr = res["graph"]
    print(f"graph: {gr['authors']:,} authors, {gr['papers']:,} papers, {gr['edges']:,} edges")
    for name, f in res["fig_4_2"].items():
        print(f"Fig 4.2 {name:>20}: {f['pairs']:,} co-author pairs, most papers together "
              f"{f['max']}, pairs with ≥ 3: {f['pairs_with_3+']:,}")  # fmt: skip
    print(f"tabular 5-anonymization: {res['tabular_k5']}")
    print(f"matrix 5-anonymization: {res['matrix_k5']}")
    for name, row in res["groupings"].items():
        if "error" in row:
            print(f"{name}: {row['error']}")
            continue
        s = row["static"]
        print(f"{name}: strict {row['strict']}, {row['grouping_cpu_s']:.2f} s CPU; Lemma 4.4.1 "
              f"max fraction {s['max_fraction']:.3f} (bound {s['bound']:.3f}), mean over "
              f"edges {s['mean_edge_fraction']:.4f}")  # fmt: skip
        for sel, qs in row["queries"].items():
            cells = ", ".join(
                f"{q} {_r(v['worst_case_error'])}/{_r(v['expected_error'])}"
                for q, v in qs.items()
            )
            print(f"   Pa {sel}: worst-case/expected error {cells}")
    print(f"total CPU {res['cpu_s']:.1f} s")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump(res, fh, indent=1, default=float)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
