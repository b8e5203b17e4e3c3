"""privlab against SecGraph (Java), side by side in one run, on SecGraph's ego-Facebook pair.

The pair (REFERENCE_RESULTS.md, "SecGraph (Java), seed-based de-anonymization"): two
independent 90 % edge samples of SNAP's ``facebook_combined.txt``, each keeping the BFS spanning
tree from the maximum-degree node, same node ids on both sides (written by ``privlab graph pair
--secgraph --p 0.9 --seed S``); seeds: the 50 top-degree nodes of G1 with their true
counterparts.  The same pair and the same seed pairs go to both tools: privlab reads the pair
folder and ``seeds.csv``, SecGraph reads ``gA.txt``, ``gB.txt`` (its edge-list format: two ids a
line, no isolated nodes — the pair has none) and ``seeds.txt`` (``a b`` lines).

Every timed call is one fresh subprocess, measured from outside with ``os.wait4`` (the child's
own ``ru_utime + ru_stime`` and ``ru_maxrss``) and ``time.perf_counter`` (wall):

* privlab: ``python -m privlab graph attack NAME PAIR --seeds-file seeds.csv ... -o map.csv
  --json --quiet`` — interpreter start, imports, reading aux.txt / san.txt / truth.csv /
  seeds.csv, the attack, writing the mapping CSV and the JSON summary.  The process is started
  through a wrapper (``WRAPPER``) that also times the library call the command makes: the
  "attack call" wall and CPU.  privlab's bytecode is compiled first, as an installed package
  has it (``--no-bytecode``: not, e.g. under PYTHONDONTWRITEBYTECODE=1).
* SecGraph: ``java -jar secgraph-cli.jar -m d -a NAME -gA gA.txt -gB gB.txt -seed seeds.txt ...
  -gO out.txt`` — JVM start, reading the two edge lists and the seeds, the attack, writing its
  output file, and its progress lines to stdout (redirected to a file).  Default JVM heap
  settings, as SecGraph's own runs.  With ``--attack-only``, the same attack runs through our
  harness ``privlab.AttackTimer`` (SecGraph's readers and attack method; the attack call timed
  inside the JVM) instead of SecGraph's command line.

Both sides are scored the same way: the mapping each wrote, read back and compared with
truth.csv (seeds included, as SecGraph's own summary line ``out r/size |G1| |G2|``, which is
parsed and cross-checked).  Schemes run on the sanitized graph G2 (``gB.txt``) with the same
parameter on both sides; their releases are measured, not trusted: edges removed/added,
degree sequence kept or not, the smallest degree class (k-degree), and for ID removal whether
the new ids are a fixed function of the old ones.

    python3 benchmarks/bench_graph_attacks.py                       # everything
    python3 benchmarks/bench_graph_attacks.py --quick               # NS θ = 1, schemes
    python3 benchmarks/bench_graph_attacks.py --attack-only         # SecGraph's call timed too
    python3 benchmarks/bench_graph_attacks.py --privlab-src ../other/src   # another checkout
    python3 benchmarks/bench_graph_attacks.py --attacks ns,dv --no-schemes
    python3 benchmarks/bench_graph_attacks.py --secgraph-build DIR --json-out r.json

SecGraph is built outside the repository by ``benchmarks/secgraph/build.sh`` (README there).
Rows whose privlab command or scheme does not exist in the sources run are skipped with a line
saying so.  Method and results: docs/graph/secgraph-comparison.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import default_data, machine

REPO = Path(__file__).resolve().parents[1]
N_SEEDS = 50


# ============================================================================ the rows
@dataclass(frozen=True)
class AttackRow:
    """One attack both tools have: privlab's CLI call and SecGraph's, as argv templates.

    Placeholders: {pair} (privlab pair folder), {seeds_csv}, {gA}, {gB}, {seeds_txt}, {out}.
    ``privlab_fn``: the library function the CLI command calls (``module:function``), timed
    inside the same process.  ``timer``: the same SecGraph attack through our harness
    ``privlab.AttackTimer`` (``--attack-only``).  ``secgraph_g2_first``: SecGraph writes the
    pairs as ``g2 g1`` (its DV does).  ``relabelled``: run on the pair with G2's ids permuted.
    """

    key: str
    label: str
    privlab: str  # argv after `python -m privlab`, split on spaces, then formatted
    privlab_fn: str
    secgraph: str  # argv after `java -jar secgraph-cli.jar`, the same
    timer: str  # argv after `java -cp secgraph-cli.jar privlab.AttackTimer`
    note: str = ""
    secgraph_g2_first: bool = False
    relabelled: bool = False
    jar: str = ""  # "rst": SecGraph built with APTED for RST (benchmarks/secgraph/build_rst.sh)
    secgraph_main: str = ""  # run `java -cp jar MAIN` (our harness) instead of the CLI / timer


# fmt: off
NS_FN = "privlab.graph.attacks.propagation:propagate"
SG_NS = "-m d -a NS -gA {gA} -gB {gB} -seed {seeds_txt} -theta %s -gO {out}"
TIMER_NS = "NS {gA} {gB} {seeds_txt} {out} %s"
PL_NS = "graph attack propagate {pair} --seeds-file {seeds_csv} --theta %s"
SG_KL = "-m d -a Reconciliation -gA {gA} -gB {gB} -seed {seeds_txt} -nTest 100 -gO {out}"
TIMER_KL = "Reconciliation {gA} {gB} {seeds_txt} {out} 100"
KL_FN = "privlab.graph.attacks.reconciliation:reconcile"
JLS_FN = "privlab.graph.attacks.ji:jls"
PL_JLS = ("graph attack jls {pair} --seeds-file {seeds_csv} --variant %s --block 100 --keep 10 "
          "--aux-centrality {gA_cen} --san-centrality {gB_cen}")
SG_JLS = ("-m d -a %s -gA {gA} -gB {gB} -gACen {gA_cen} -gBCen {gB_cen} -am queue "
          "-seed {seeds_txt} -bSize 100 -nKeep 10 -DisSimW 0.8 -StrSimW 0.1 -InhSimW 0.1 -gO {out}")
TIMER_JLSB = "SJCCS2014 {gA} {gB} {seeds_txt} {out} 100 10 0.1 0.1 0.8 10 queue"
SG_JLSB = ("-m d -a SJCCS2014 -gA {gA} -gB {gB} -seed {seeds_txt} -bSize 100 -nKeep 10 "
           "-DegSimW 0.1 -NeiSimW 0.1 -DisSimW 0.8 -nNei 10 -gO {out} -am queue")
JLS_NOTE = ("both sides read the same centrality files (igraph's closeness over the reachable "
            "nodes and exact betweenness, written by the benchmark in SNAP's format)")

SG_RST = "-m d -a RST -gA {gA} -gB {gB} -seed {seeds_txt} -n 4 -gO {out}"
TIMER_RST = "{gA} {gB} {seeds_txt} {out} 4"  # privlab.RstTimer, in the RST jar
NKA_FN = "privlab.graph.attacks.nka:nka"
NKA_PL = ("graph attack nka {pair} --seeds-file {nka_seeds_csv} --communities infomap "
          "--trials 10 --seed 0 %s")
NKA_SG = "{nka_base1} {nka_base2} {nka_cliques} {nka_dir} {nka_nseeds} {out}"

PL_JLSB = "graph attack jlsb {pair} --seeds-file {seeds_csv} --block 100 --keep 10"
JLSB_FN = "privlab.graph.attacks.ji:jlsb"
JLSB_ORDERS = (  # the rows jlsb-relabelled, jlsb-id, jlsb-id-relabelled (row jlsb: above)
    ("", "", "", "equal degrees by neighbour degrees; docs/graph/dv-jlsb-ties.md"),
    ("-id", " --order id", ", equal degrees by id,", "privlab's former order"),
)

ATTACKS: tuple[AttackRow, ...] = (
    AttackRow(
        "ns", "Narayanan–Shmatikov, θ = 0.1", PL_NS % "0.1", NS_FN, SG_NS % "0.1",
        TIMER_NS % "0.1",
    ),
    AttackRow("ns1", "Narayanan–Shmatikov, θ = 1", PL_NS % "1", NS_FN, SG_NS % "1", TIMER_NS % "1"),
    AttackRow(
        "ns-relabelled", "Narayanan–Shmatikov, θ = 0.1, G2 ids permuted", PL_NS % "0.1", NS_FN,
        SG_NS % "0.1", TIMER_NS % "0.1",
        note="the same pair with G2's ids permuted at random: no id coincidence to score",
        relabelled=True,
    ),
    AttackRow(
        "ns1-relabelled", "Narayanan–Shmatikov, θ = 1, G2 ids permuted", PL_NS % "1", NS_FN,
        SG_NS % "1", TIMER_NS % "1", relabelled=True,
    ),
    AttackRow(
        "kl", "KL reconciliation, SecGraph's variant (window / nTest = 100)",
        "graph attack kl {pair} --seeds-file {seeds_csv} --variant secgraph --window 100",
        KL_FN, SG_KL, TIMER_KL,
        note="SecGraph's `Reconciliation`: among the nTest highest-degree unmatched nodes of "
        "each side, match the pair with the most mapped common neighbours, one pair at a time, "
        "until every node is matched",
    ),
    AttackRow(
        "kl-paper", "KL reconciliation, Korula–Lattanzi's Algorithm 1 (threshold 2) vs "
        "SecGraph's `Reconciliation` (nTest = 100)",
        "graph attack kl {pair} --seeds-file {seeds_csv} --variant paper --threshold 2",
        KL_FN, SG_KL, TIMER_KL,
        note="two different algorithms under one name: the paper's matches only pairs with "
        "enough witnesses, SecGraph's matches every node",
    ),
    AttackRow(
        "dv", "distance vector (queue, block / bSize = 100, keep / nKeep = 50)",
        "graph attack dv {pair} --seeds-file {seeds_csv} --block 100 --keep 50 --mode queue",
        "privlab.graph.attacks.distance_vector:distance_vector",
        "-m d -a DV -gA {gA} -gB {gB} -seed {seeds_txt} -bSize 100 -nKeep 50 -am queue -gO {out}",
        "DV {gA} {gB} {seeds_txt} {out} 100 50 queue",
        note="SecGraph writes DV's pairs as g2 g1, after its seeds",
        secgraph_g2_first=True,
    ),
    AttackRow(
        "dv10", "distance vector (queue, block / bSize = 100, keep / nKeep = 10)",
        "graph attack dv {pair} --seeds-file {seeds_csv} --block 100 --keep 10 --mode queue",
        "privlab.graph.attacks.distance_vector:distance_vector",
        "-m d -a DV -gA {gA} -gB {gB} -seed {seeds_txt} -bSize 100 -nKeep 10 -am queue -gO {out}",
        "DV {gA} {gB} {seeds_txt} {out} 100 10 queue",
        note="the setting of docs/graph/seeded-attacks.md",
        secgraph_g2_first=True,
    ),
    AttackRow(
        "yg", "YG percolation, r = 3 (SecGraph `Percolation` -nKeep 2)",
        "graph attack yg {pair} --seeds-file {seeds_csv} --r 3 --seed 0",
        "privlab.graph.attacks.percolation:percolate",
        "-m d -a Percolation -gA {gA} -gB {gB} -nKeep 2 -seed {seeds_txt} -gO {out}",
        "Percolation {gA} {gB} {seeds_txt} {out} 2",
        note="SecGraph matches a pair once it has MORE than nKeep marks (-nKeep 2 is r = 3), "
        "in an order drawn from an unseeded java.util.Random (each run differs)",
    ),
    # seedless: the templates name no seeds file ({seeds_*} unused); no AttackTimer case
    AttackRow(
        "pfg", "PFG Bayesian, seedless (paper's model, s = 0.9) vs SecGraph `Bayesian`",
        "graph attack pfg {pair} --s 0.9", "privlab.graph.attacks.pfg:pfg",
        "-m d -a Bayesian -gA {gA} -gB {gB} -gO {out}", "",
        note="SecGraph's `Bayesian` is BayesianUsingCosSim: cosine similarity of (degree, "
        "distances to anchors), its anchors the assigned pairs of LOWEST score; no seeds",
    ),
    AttackRow(
        "pfg-secgraph", "PFG, SecGraph's rule (--variant secgraph) vs SecGraph `Bayesian`",
        "graph attack pfg {pair} --variant secgraph", "privlab.graph.attacks.pfg:pfg",
        "-m d -a Bayesian -gA {gA} -gB {gB} -gO {out}", "",
    ),
    AttackRow(
        "pfg-relabelled", "PFG Bayesian, seedless, G2 ids permuted",
        "graph attack pfg {pair} --s 0.9", "privlab.graph.attacks.pfg:pfg",
        "-m d -a Bayesian -gA {gA} -gB {gB} -gO {out}", "", relabelled=True,
        note="degree ties fall by id on both sides: the permuted pair removes the id coincidence",
    ),
    AttackRow(
        "pfg-secgraph-relabelled", "PFG, SecGraph's rule, G2 ids permuted",
        "graph attack pfg {pair} --variant secgraph", "privlab.graph.attacks.pfg:pfg",
        "-m d -a Bayesian -gA {gA} -gB {gB} -gO {out}", "", relabelled=True,
    ),
    AttackRow(
        "jls", "JLS+ (ISC 2014), SecGraph's computation (bSize 100, nKeep 10, 0.8/0.1/0.1)",
        PL_JLS % "secgraph", JLS_FN, SG_JLS % "SJISC2014", "SJISC2014 (not in AttackTimer)",
        note=JLS_NOTE, secgraph_g2_first=True,
    ),
    AttackRow(
        "jls-isc", "JLS+ DA, the paper's inherited similarity, vs SecGraph's SJISC2014",
        PL_JLS % "isc", JLS_FN, SG_JLS % "SJISC2014", "SJISC2014 (not in AttackTimer)",
        note="SecGraph's inherited similarity is always 0; privlab's counts the matched "
        "neighbour pairs (docs/graph/ji-attacks.md)", secgraph_g2_first=True,
    ),
    AttackRow(
        "jlsa", "JLS+ ADA (overlap-estimating), SecGraph's computation, vs SJISCA2014",
        PL_JLS % "secgraph-adaptive", JLS_FN, SG_JLS % "SJISCA2014",
        "SJISCA2014 (not in AttackTimer)", note=JLS_NOTE,
    ),
    AttackRow(
        "jlsa-paper", "JLS+ ADA, the paper's inherited similarity, vs SecGraph's SJISCA2014",
        PL_JLS % "adaptive", JLS_FN, SG_JLS % "SJISCA2014", "SJISCA2014 (not in AttackTimer)",
        note="the variant Sharad's Table 5.9 ranks",
    ),
    AttackRow(
        "jlsb", "JLSB (CCS 2014) from the seeds, vs SecGraph's SJCCS2014 (0.1/0.1/0.8, nNei 10)",
        "graph attack jlsb {pair} --seeds-file {seeds_csv} --block 100 --keep 10",
        "privlab.graph.attacks.ji:jlsb", SG_JLSB, TIMER_JLSB,
        note="SecGraph writes the pairs as g2 g1", secgraph_g2_first=True,
    ),
    AttackRow(
        "jlsb-seedless", "JLSB seedless (the paper's cold start) vs SecGraph's SJCCS2014 seeded",
        "graph attack jlsb {pair} --block 100 --keep 10", "privlab.graph.attacks.ji:jlsb",
        SG_JLSB, TIMER_JLSB,
        note="SecGraph's SJCCS2014 cannot run without seeds", secgraph_g2_first=True,
    ),
    AttackRow(
        "sh", "Srivatsa–Hicks, distance-vector variant (block 100, keep 10) vs SecGraph DV",
        "graph attack sh {pair} --seeds-file {seeds_csv} --variant distance-vector --block 100 "
        "--keep 10 --mode queue",
        "privlab.graph.attacks.srivatsa_hicks:srivatsa_hicks",
        "-m d -a DV -gA {gA} -gB {gB} -seed {seeds_txt} -bSize 100 -nKeep 10 -am queue -gO {out}",
        "DV {gA} {gB} {seeds_txt} {out} 100 10 queue",
        note="SH as Sharad's Table 5.9 runs it: SecGraph's DV under the name SH",
        secgraph_g2_first=True,
    ),
    AttackRow(
        "sh-rst", "Srivatsa–Hicks, randomized spanning trees (4 trees)",
        "graph attack sh {pair} --seeds-file {seeds_csv} --variant spanning-tree --trees 4 "
        "--seed 0",
        "privlab.graph.attacks.srivatsa_hicks:srivatsa_hicks",
        SG_RST, TIMER_RST, secgraph_main="privlab.RstTimer",
        note="SecGraph's RST built against APTED through our adapter (build_rst.sh), run by "
        "our harness privlab.RstTimer (the attack call timed); it aligns all 4 × 4 tree pairs, "
        "privlab the 4 pairs rooted at the same landmark pair",
        jar="rst",
    ),
    AttackRow(
        "nka", "NKA (Nilizadeh et al.), 4 known 4-cliques = 16 seeds, Infomap, with the "
        "authors' seed enrichment",
        NKA_PL % "--enrich", NKA_FN, NKA_SG, NKA_SG, secgraph_main="privlab.CommunityTimer",
        note="SecGraph's -a Community = the authors' Comm_Enhanced (real source, DEANON_SRC "
        "build), run by our harness privlab.CommunityTimer; same 4-clique seeds and the same "
        "igraph Infomap communities for both (benchmarks/bench_nka.py)",
    ),
    AttackRow(
        "nka-plain", "NKA, privlab's default (no enrichment) vs the authors' code",
        NKA_PL % "--no-enrich", NKA_FN, NKA_SG, NKA_SG, secgraph_main="privlab.CommunityTimer",
        note="privlab without the enrichment step (its default); SecGraph's run as row nka",
    ),
    AttackRow(
        "sh-rst-cut", "Srivatsa–Hicks, randomized spanning trees (4 trees) cut to 300 nodes",
        "graph attack sh {pair} --seeds-file {seeds_csv} --variant spanning-tree --trees 4 "
        "--seed 0 --tree-nodes 300",
        "privlab.graph.attacks.srivatsa_hicks:srivatsa_hicks", SG_RST, TIMER_RST,
        secgraph_main="privlab.RstTimer", jar="rst",
        note="privlab's trees cut to the 300 nodes nearest the landmark, about the size of the "
        "alignment SecGraph keeps (its trees lose whole subtrees, docs/graph/srivatsa-hicks.md); "
        "SecGraph's run as row sh-rst",
    ),
    AttackRow(
        "nka-authors", "NKA, privlab with the authors' propagation rule vs the authors' code",
        NKA_PL % "--no-enrich --ns-rule authors", NKA_FN, NKA_SG, NKA_SG,
        secgraph_main="privlab.CommunityTimer",
        note="privlab --ns-rule authors (σ over the scored candidates, as Comm_Blind); "
        "SecGraph's run as row nka",
    ),
    *(AttackRow(f"jlsb{tag}{rel}", f"JLSB from the seeds{how} vs SJCCS2014{where}",
                PL_JLSB + opt, JLSB_FN, SG_JLSB, TIMER_JLSB,
                relabelled=bool(rel), secgraph_g2_first=True, note=note)
      for tag, opt, how, note in JLSB_ORDERS
      for rel, where in (("-relabelled", ", G2 ids permuted"), ("", ""))
      if tag or rel),
)
# fmt: on


@dataclass(frozen=True)
class SchemeRow:
    """One anonymization scheme both tools have.  Placeholders: {input}, {out}, {seed},
    {mapping}.  ``check``: what to measure in the release."""

    key: str
    label: str
    privlab_scheme: str
    privlab: str
    secgraph: str
    check: str  # "edges", "switch", "kdegree", "cluster-degree", "ids"
    k: int = 0
    note: str = ""


SCHEMES: tuple[SchemeRow, ...] = (
    SchemeRow(
        "id",
        "ID removal / naive anonymization",
        "naive",
        "graph anonymize {input} -s naive --seed {seed} --mapping {mapping} -o {out}",
        "-m a -a id -gA {input} -gO {out}",
        check="ids",
    ),
    SchemeRow(
        "rad",
        "random add/delete, f = 0.1",
        "rad",
        "graph anonymize {input} -s rad --fraction 0.1 --seed {seed} --keep-ids -o {out}",
        "-m a -a addDel -gA {input} -gO {out} -f 0.1",
        check="edges",
        note="f·m edges deleted and f·m added (SecGraph never deletes a BFS-tree edge)",
    ),
    SchemeRow(
        "rsw",
        "random switch, f = 0.1",
        "rsw",
        "graph anonymize {input} -s rsw --fraction 0.1 --seed {seed} --keep-ids -o {out}",
        "-m a -a sw -gA {input} -gO {out} -f 0.1",
        check="switch",
        note="SecGraph's f counts nodes (f·n switches), privlab's f·m/2 switches; both must "
        "keep every degree and change edges",
    ),
    SchemeRow(
        "kdegree",
        "k-degree anonymity, k = 10",
        "kdegree",
        "graph anonymize {input} -s kdegree -k 10 --seed {seed} --keep-ids -o {out}",
        "-m a -a kDa -gA {input} -gO {out} -k 10",
        check="kdegree",
        k=10,
        note="the release must have every degree shared by at least k nodes",
    ),
    SchemeRow(
        "rwalk",
        "random-walk perturbation, t = 2",
        "randwalk",
        "graph anonymize {input} -s randwalk --walk-length 2 --seed {seed} --keep-ids -o {out}",
        "-m a -a rWalk -gA {input} -gO {out} -rn 2 -rm 10",
        check="edges",
        note="Mittal et al.: each edge (u, v) replaced by (u, z), z the end of a t − 1 step "
        "walk from v; SecGraph retries up to -rm times, continuing the walk from where it "
        "stopped instead of from v",
    ),
    SchemeRow(
        "union",
        "union-split clustering, k = 10",
        "union-split",
        "graph anonymize {input} -s union-split -k 10 --seed {seed} --keep-ids -o {out}",
        "-m a -a union -gA {input} -gO {out} -k 10",
        check="cluster-degree",
        k=10,
        note="Thompson & Yao: clusters of ≥ k nodes, each edited to one degree.  Neither tool "
        "writes its clusters, so the release is checked here by what the definition implies: "
        "every degree held by ≥ k nodes, no node added (privlab also checks the clusters "
        "themselves before writing); SecGraph's matching leaves surplus edges in place and "
        "wires unmatched stubs to a new node −1 (docs/graph/union-split.md)",
    ),
)


def write_centrality_files(files: dict[str, str]) -> None:
    """The closeness and betweenness of gA / gB in SNAP's centrality format (``node degree
    closeness betweenness``, tab-separated), which SecGraph's JLS+ reads (-gACen/-gBCen) and
    privlab's reads too (--aux-centrality/--san-centrality): igraph's closeness (over the
    reachable nodes) and exact betweenness, computed once, untimed, for both tools."""
    import igraph

    for graph, out in (("gA", "gA_cen"), ("gB", "gB_cen")):
        path = Path(files[out])
        if path.exists():
            continue
        g = igraph.Graph.Read_Edgelist(files[graph], directed=False)
        clo, btw, deg = g.closeness(), g.betweenness(), g.degree()
        rows = (f"{v}\t{deg[v]}\t{clo[v] if clo[v] == clo[v] else 0.0!r}\t{btw[v]!r}\n"
                for v in range(g.vcount()))  # fmt: skip
        path.write_text("#NId\tDegree\tCloseness\tBetweenness\n" + "".join(rows))


# ============================================================================ parsing
@dataclass
class SecGraphMapping:
    """The pairs in a SecGraph de-anonymization output file and its own summary line."""

    pairs: dict[int, int]
    reported_correct: int | None = None
    reported_mapped: int | None = None
    reported_n1: int | None = None
    reported_n2: int | None = None


def parse_secgraph_mapping(text: str, *, g2_first: bool = False) -> SecGraphMapping:
    """Read a SecGraph ``-gO`` file of ``NS``/``Reconciliation``/``DV``/``Percolation``.

    Lines of two integers are pairs (G1 node, G2 node; G2 first when ``g2_first``, as DV writes
    them); a repeated pair (DV writes its seeds twice) counts once.  The summary line SecGraph
    ends the file with, ``<output path> r/size |G1| |G2|`` (the path may contain spaces), gives
    ``reported_*``; DV's ``g2ToG1seeds :`` header is skipped.  ValueError on anything else, and
    on a G1 node mapped to two different G2 nodes.
    """
    out = SecGraphMapping({})
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts or line.startswith("g2ToG1seeds"):
            continue
        if len(parts) == 2 and all(p.lstrip("-").isdigit() for p in parts):
            a, b = int(parts[0]), int(parts[1])
            if g2_first:
                a, b = b, a
            if out.pairs.get(a, b) != b:
                raise ValueError(f"line {number}: G1 node {a} mapped twice")
            out.pairs[a] = b
            continue
        tail = parts[-3:]
        if len(parts) >= 4 and "/" in tail[0] and tail[1].isdigit() and tail[2].isdigit():
            r, size = tail[0].split("/", 1)
            if r.isdigit() and size.isdigit():
                out.reported_correct, out.reported_mapped = int(r), int(size)
                out.reported_n1, out.reported_n2 = int(tail[1]), int(tail[2])
                continue
        if line.startswith("number correct = ") and parts[-1].isdigit():  # RST's last line
            out.reported_correct = int(parts[-1])
            continue
        raise ValueError(f"line {number}: not a SecGraph mapping line: {line[:80]!r}")
    return out


def read_edges(path: Path) -> set[tuple[int, int]]:
    """Undirected edges (u < v) of an edge list: # comments, one-id lines (isolated nodes)
    and both directions (SecGraph's writeGraph) tolerated."""
    edges = set()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) < 2 or line.startswith("#"):
                continue
            u, v = int(parts[0]), int(parts[1])
            if u != v:
                edges.add((u, v) if u < v else (v, u))
    return edges


def degrees(edges: set[tuple[int, int]]) -> Counter:
    deg: Counter = Counter()
    for u, v in edges:
        deg[u] += 1
        deg[v] += 1
    return deg


# ============================================================================ running
#: ``python -c WRAPPER module:function privlab-argv...``: the privlab CLI in this process, with
#: the library function the command calls wrapped to time it (perf_counter and process_time,
#: all threads); the figures go to stderr as the last line.  The CLI imports its attack
#: function when the command runs, so the module attribute replaced here is the one it gets.
WRAPPER = """
import importlib, sys, time
mod, _, name = sys.argv[1].partition(":")
spent = [0.0, 0.0, 0]
try:
    module = importlib.import_module(mod)
    inner = getattr(module, name)
except (ImportError, AttributeError) as exc:
    module = None
    print(f"ATTACK_ONLY unavailable: {exc}", file=sys.stderr)
if module is not None:
    def timed(*args, **kwargs):
        c0, t0 = time.process_time(), time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - t0
            spent[1] += time.process_time() - c0
            spent[2] += 1
    setattr(module, name, timed)
sys.argv = ["privlab", *sys.argv[2:]]
try:
    from privlab.cli.main import app
    app(prog_name="privlab")
finally:
    if spent[2]:
        print(f"ATTACK_ONLY wall_s={spent[0]} cpu_s={spent[1]} calls={spent[2]}",
              file=sys.stderr)
"""


def attack_only(stderr: Path) -> dict[str, float]:
    """The ``ATTACK_ONLY wall_s=… cpu_s=…`` line a timed call wrote on stderr, if any."""
    for line in reversed(stderr.read_text(errors="replace").splitlines()):
        if line.startswith("ATTACK_ONLY wall_s="):
            fields = dict(item.split("=", 1) for item in line.split()[1:])
            return {k: float(v) for k, v in fields.items()}
    return {}


def fmt(template: str, fill: dict[str, str]) -> list[str]:
    """A row's argv template, split on spaces, each word formatted (paths may have spaces)."""
    return [word.format(**fill) for word in template.split()]


@dataclass
class Timed:
    """One subprocess: wall seconds, CPU seconds (user + system), peak RSS (MiB), exit."""

    wall: float
    cpu: float
    rss_mib: float
    code: int
    stdout: Path
    stderr: Path


#: GNU time, to read a child's peak RSS: ``ru_maxrss`` from os.wait4 is not enough, since Linux
#: carries the RSS the forking process had into the child's figure (measured: a 300 MiB parent
#: makes ``java -version`` report 314 MiB, 36 MiB under /usr/bin/time).
TIME_BIN = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)


def timed(cmd: list[str], workdir: Path, tag: str, timeout: float, env: dict | None) -> Timed:
    """Run ``cmd`` with stdout/stderr to files; wall time around it, CPU from os.wait4 (the
    child's own user + system time), peak RSS from GNU time's ``%M`` (ru_maxrss otherwise)."""
    so, se, rss = (workdir / f"{tag}.{ext}" for ext in ("stdout", "stderr", "rss"))
    rss.unlink(missing_ok=True)
    if TIME_BIN:
        cmd = [TIME_BIN, "-f", "%M", "-o", str(rss), *cmd]
    with open(so, "wb") as out, open(se, "wb") as err:
        t0 = time.perf_counter()
        # its own process group, so a timeout kills the JVM too, not only GNU time above it
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=workdir,
                                start_new_session=True)  # fmt: skip
        killer = threading.Timer(timeout, lambda: _kill_group(proc.pid))
        killer.start()
        try:
            _, status, ru = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    peak = ru.ru_maxrss / 1024
    if rss.is_file():
        last = (rss.read_text().strip().splitlines() or [""])[-1]
        if last.isdigit():
            peak = int(last) / 1024
    return Timed(wall, ru.ru_utime + ru.ru_stime, peak, proc.returncode, so, se)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it ended on its own meanwhile
        os.killpg(pid, signal.SIGKILL)


def compile_privlab(src: Path, env: dict[str, str]) -> None:
    """Run privlab as installed: its modules' bytecode compiled once before any timed call
    (``pip install`` compiles it; a checkout run with PYTHONDONTWRITEBYTECODE=1, as in some
    sandboxes, would compile every module again in every process, about 0.1–0.2 s of CPU per
    call).  The bytecode goes to the usual ``__pycache__`` folders (git ignores them);
    ``--no-bytecode`` keeps the environment as it is."""
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(src / "privlab")], env=env,
                   capture_output=True, check=False)  # fmt: skip


@dataclass
class Side:
    """One tool's run of one row."""

    status: str  # "ok", "skipped: ...", "failed: ..."
    wall: float | None = None
    cpu: float | None = None
    rss_mib: float | None = None
    correct: int | None = None
    mapped: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.jar = Path(args.secgraph_build) / "secgraph-cli.jar"
        self.work = (
            Path(args.workdir)
            if args.workdir
            else Path(tempfile.mkdtemp(prefix="privlab-secgraph-"))
        )
        self.work.mkdir(parents=True, exist_ok=True)
        self.src = Path(args.privlab_src).resolve()
        self.env = dict(os.environ, PYTHONPATH=str(self.src), PRIVLAB_DATA=args.data)
        if not getattr(args, "no_bytecode", False):
            compile_privlab(self.src, self.env)
        self.java = shutil.which("java") or "java"
        self.pair = self.work / "pair"
        self.files = self._files("")
        self.truth: dict[int, int] = {}
        self.truths: dict[bool, dict[int, int]] = {}
        self.n_true = 0
        self._have: dict[tuple[str, ...], str] = {}
        self._scheme_help: str | None = None
        self._secgraph_done: dict[tuple[str, bool], tuple[Side, dict[int, int] | None]] = {}

    # ------------------------------------------------------------------ setup (untimed)
    def privlab(self, argv: list[str], tag: str, timeout: float, fn: str = "") -> Timed:
        head = [sys.executable, "-c", WRAPPER, fn] if fn else [sys.executable, "-m", "privlab"]
        return timed([*head, *argv], self.work, tag, timeout, self.env)

    def timer(
        self, argv: list[str], tag: str, timeout: float, main: str = "", jar: str = ""
    ) -> Timed:
        path = self.args.secgraph_rst_jar if jar == "rst" else str(self.jar)
        cmd = [self.java, "-cp", path, main or "privlab.AttackTimer", *argv]
        return timed(cmd, self.work, tag, timeout, None)

    def secgraph(self, argv: list[str], tag: str, timeout: float, jar: str = "") -> Timed:
        path = self.args.secgraph_rst_jar if jar == "rst" else str(self.jar)
        return timed([self.java, "-jar", path, *argv], self.work, tag, timeout, None)

    def _files(self, suffix: str) -> dict[str, str]:
        return {
            "pair": str(self.work / f"pair{suffix}"),
            "gA": str(self.work / "gA.txt"),
            "gB": str(self.work / f"gB{suffix}.txt"),
            "seeds_txt": str(self.work / f"seeds{suffix}.txt"),
            "seeds_csv": str(self.work / f"seeds{suffix}.csv"),
            "gA_cen": str(self.work / "gA.cen"),
            "gB_cen": str(self.work / f"gB{suffix}.cen"),
        }

    def make_pair(self) -> dict[str, Any]:
        src = Path(self.args.data) / "graphs" / "facebook_combined.txt"
        if self.pair.exists():
            shutil.rmtree(self.pair)
        t = self.privlab(
            [
                "graph",
                "pair",
                str(src),
                "--secgraph",
                "--p",
                "0.9",
                "--seed",
                str(self.args.pair_seed),
                "-o",
                str(self.pair),
                "--json",
                "--quiet",
            ],
            "pair",
            600,
        )
        if t.code:
            sys.exit(f"privlab graph pair failed:\n{t.stderr.read_text()}")
        meta = json.loads(t.stdout.read_text())
        for side, name in (("aux", "gA"), ("san", "gB")):
            edges = sorted(read_edges(self.pair / f"{side}.txt"))
            Path(self.files[name]).write_text("".join(f"{u} {v}\n" for u, v in edges))
        for line in (self.pair / "truth.csv").read_text().splitlines()[1:]:
            a, b = line.split(",")
            self.truth[int(a)] = int(b)
        self.n_true = len(self.truth)
        # the 50 top-degree nodes of G1 with their true counterparts (privlab's top_degree_seeds)
        sys.path.insert(0, str(self.src))
        from privlab.cli.graph_attack import read_pair_dir
        from privlab.graph.attacks.propagation import top_degree_seeds

        folder = read_pair_dir(self.pair)
        seeds = top_degree_seeds(folder.aux, folder.truth_array(), N_SEEDS)
        Path(self.files["seeds_txt"]).write_text("".join(f"{a} {b}\n" for a, b in seeds))
        Path(self.files["seeds_csv"]).write_text(
            "aux,san\n" + "".join(f"{a},{b}\n" for a, b in seeds)
        )
        self.truths[False] = self.truth
        self.make_relabelled(seeds)
        return meta

    def make_relabelled(self, seeds: Any) -> None:
        """The same pair with G2's ids permuted at random (seeded): truth and seeds follow.

        On the pair as generated, node v of G1 is node v of G2, so any rule that maps ids to
        equal ids scores as correct; SecGraph's NS does that for a node with no evidence at
        all (0/0 eccentricity is NaN, which passes its ``ecc < θ`` test, and ``findNode`` then
        takes the largest id on both sides).  The relabelled pair removes the coincidence."""
        import numpy as np

        files = self._files("-relabelled")
        n = max(self.truth.values()) + 1
        perm = np.random.default_rng(self.args.pair_seed + 12345).permutation(n)
        folder = Path(files["pair"])
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
        shutil.copy(self.pair / "aux.txt", folder / "aux.txt")
        shutil.copy(self.pair / "pair.json", folder / "pair.json")
        edges = sorted(
            (min(perm[u], perm[v]), max(perm[u], perm[v]))
            for u, v in read_edges(self.pair / "san.txt")
        )
        text = "".join(f"{u} {v}\n" for u, v in edges)
        (folder / "san.txt").write_text(text)
        Path(files["gB"]).write_text(text)
        truth = {a: int(perm[b]) for a, b in self.truth.items()}
        (folder / "truth.csv").write_text(
            "aux,san\n" + "".join(f"{a},{b}\n" for a, b in sorted(truth.items()))
        )
        pairs = [(int(a), truth[int(a)]) for a, _ in seeds]
        Path(files["seeds_txt"]).write_text("".join(f"{a} {b}\n" for a, b in pairs))
        Path(files["seeds_csv"]).write_text("aux,san\n" + "".join(f"{a},{b}\n" for a, b in pairs))
        self.truths[True] = truth
        self.relabelled_files = files

    def have_privlab(self, argv: tuple[str, ...]) -> str:
        """'' if ``privlab <argv> --help`` works, else why not."""
        if argv not in self._have:
            t = self.privlab([*argv, "--help"], "probe-" + "-".join(argv), 120)
            self._have[argv] = (
                ""
                if t.code == 0
                else (t.stderr.read_text().strip().splitlines() or [f"exit {t.code}"])[-1]
            )
        return self._have[argv]

    def privlab_has_scheme(self, name: str) -> bool:
        """Whether ``privlab graph anonymize --help`` lists ``name:`` among its schemes."""
        if self._scheme_help is None:
            t = self.privlab(["graph", "anonymize", "--help"], "probe-schemes", 120)
            self._scheme_help = " ".join(t.stdout.read_text(errors="replace").split())
        return f" {name}:" in f" {self._scheme_help}"

    # ------------------------------------------------------------------ scoring
    def score(self, pairs: dict[int, int], relabelled: bool) -> tuple[int, int]:
        truth = self.truths[relabelled]
        return sum(1 for a, b in pairs.items() if truth.get(a) == b), len(pairs)

    def read_privlab_mapping(self, path: Path) -> dict[int, int]:
        pairs = {}
        for line in path.read_text().splitlines()[1:]:
            a, b = line.split(",")
            pairs[int(a)] = int(b)
        return pairs

    # ------------------------------------------------------------------ attacks
    def nka_inputs(self) -> dict[str, str]:
        """The NKA rows' inputs (bench_nka.write_inputs: Pajek graphs, Infomap .tree files,
        the 4-clique file and the same seeds as CSV), written once."""
        if not hasattr(self, "_nka_files"):
            from bench_nka import write_inputs

            self._nka_files = write_inputs(self.pair, self.work / "nka", 4,
                                           seed=self.args.pair_seed)  # fmt: skip
        return self._nka_files

    def run_attack(self, row: AttackRow) -> dict[str, Any]:
        if "{nka_" in row.privlab:
            self.files.update(self.nka_inputs())
        files = self.relabelled_files if row.relabelled else self.files
        fill = dict(files)
        if "{gA_cen}" in row.secgraph:
            write_centrality_files(files)
        res: dict[str, Any] = {
            "key": row.key,
            "label": row.label,
            "note": row.note,
            "relabelled": row.relabelled,
        }
        # privlab
        pl_out = self.work / f"pl-{row.key}.csv"
        missing = self.have_privlab(tuple(row.privlab.split()[:3]))
        if missing:
            pl = Side(
                f"skipped: `privlab {' '.join(row.privlab.split()[:3])}` does not exist yet "
                f"({missing})"
            )
        else:
            fill["out"] = str(pl_out)
            argv = [*fmt(row.privlab, fill), "-o", str(pl_out), "--json", "--quiet"]
            t = self.privlab(argv, f"pl-{row.key}", self.args.timeout, fn=row.privlab_fn)
            if t.code:
                err = t.stderr.read_text().strip().splitlines()
                pl = Side(f"failed (exit {t.code}): {err[-1] if err else ''}")
            else:
                summary = json.loads(t.stdout.read_text())
                pairs = self.read_privlab_mapping(pl_out)
                c, m = self.score(pairs, row.relabelled)
                pl = Side(
                    "ok",
                    t.wall,
                    t.cpu,
                    t.rss_mib,
                    c,
                    m,
                    {
                        "attack_seconds": summary.get("seconds"),
                        "reported_correct": summary.get("correct"),
                        "reported_mapped": summary.get("mapped"),
                        **attack_only(t.stderr),
                    },
                )
                res["privlab_pairs"] = pairs
        # SecGraph (an identical call made for an earlier row is not repeated)
        done = (row.secgraph, row.relabelled)
        if done not in self._secgraph_done:
            self._secgraph_done[done] = self.run_secgraph_attack(row)
        sg, sg_pairs = self._secgraph_done[done]
        if sg_pairs is not None:
            res["secgraph_pairs"] = sg_pairs
        res["privlab"], res["secgraph"] = asdict(pl), asdict(sg)
        a, b = res.pop("privlab_pairs", None), res.pop("secgraph_pairs", None)
        if a is not None and b is not None:
            res["pairs_only_privlab"] = sorted(set(a.items()) - set(b.items()))[:20]
            res["pairs_only_secgraph"] = sorted(set(b.items()) - set(a.items()))[:20]
            res["same_mapping"] = a == b
        return res

    def run_secgraph_attack(self, row: AttackRow) -> tuple[Side, dict[int, int] | None]:
        sg_out = self.work / f"sg-{row.key}.txt"
        files = self.relabelled_files if row.relabelled else self.files
        fill = dict(files, out=str(sg_out))
        if self.args.attack_only or row.secgraph_main:
            t = self.timer(fmt(row.timer, fill), f"sg-{row.key}", self.args.timeout,
                           row.secgraph_main, row.jar)  # fmt: skip
        else:
            t = self.secgraph(
                fmt(row.secgraph, fill), f"sg-{row.key}", self.args.timeout, jar=row.jar
            )
        if t.code or not sg_out.is_file():
            said = t.stdout.read_text(errors="replace") + t.stderr.read_text(errors="replace")
            tail = (said.strip().splitlines() or [""])[-1]
            return Side(f"failed (exit {t.code}): {tail[:160]}", t.wall, t.cpu, t.rss_mib), None
        parsed = parse_secgraph_mapping(sg_out.read_text(), g2_first=row.secgraph_g2_first)
        c, m = self.score(parsed.pairs, row.relabelled)
        side = Side(
            "ok",
            t.wall,
            t.cpu,
            t.rss_mib,
            c,
            m,
            {
                "reported_correct": parsed.reported_correct,
                "reported_mapped": parsed.reported_mapped,
                "run": row.secgraph_main or ("privlab.AttackTimer" if self.args.attack_only
                                             else "commandLineMode"),
                **attack_only(t.stderr),
            },
        )
        return side, parsed.pairs

    # ------------------------------------------------------------------ schemes
    def run_scheme(self, row: SchemeRow) -> dict[str, Any]:
        res: dict[str, Any] = {"key": row.key, "label": row.label, "note": row.note}
        src = Path(self.files["gB"])
        before = read_edges(src)
        sides: dict[str, Side] = {}
        for tool in ("privlab", "secgraph"):
            out = self.work / f"{tool[:2]}-scheme-{row.key}.txt"
            mapping = self.work / f"{tool[:2]}-scheme-{row.key}-map.csv"
            fill = {
                "input": str(src),
                "out": str(out),
                "seed": str(self.args.pair_seed),
                "mapping": str(mapping),
            }
            if tool == "privlab":
                if not self.privlab_has_scheme(row.privlab_scheme):
                    sides[tool] = Side(f"skipped: privlab has no scheme {row.privlab_scheme!r} yet")
                    continue
                argv = [*fmt(row.privlab, fill), "--json", "--quiet"]
                t = self.privlab(argv, f"pl-scheme-{row.key}", self.args.timeout)
            else:
                t = self.secgraph(
                    fmt(row.secgraph, fill),
                    f"sg-scheme-{row.key}",
                    self.args.timeout,
                )
            if t.code or not out.is_file():
                tail = (t.stdout.read_text(errors="replace").strip().splitlines() or [""])[-1]
                err = t.stderr.read_text(errors="replace").strip().splitlines()
                sides[tool] = Side(
                    f"failed (exit {t.code}): {(err or [tail])[-1][:160]}", t.wall, t.cpu, t.rss_mib
                )
                continue
            side = Side("ok", t.wall, t.cpu, t.rss_mib)
            side.extra = self.measure_release(row, before, out, tool, t, mapping)
            sides[tool] = side
        res["privlab"], res["secgraph"] = asdict(sides["privlab"]), asdict(sides["secgraph"])
        return res

    def measure_release(
        self, row: SchemeRow, before: set, out: Path, tool: str, t: Timed, mapping: Path
    ) -> dict[str, Any]:
        after = read_edges(out)
        m: dict[str, Any] = {"edges_before": len(before), "edges_after": len(after)}
        if row.check == "ids":
            m.update(self.measure_ids(tool, t, mapping, row))
            return m
        m["edges_removed"] = len(before - after)
        m["edges_added"] = len(after - before)
        d0, d1 = degrees(before), degrees(after)
        m["nodes_with_degree_changed"] = sum(1 for v in set(d0) | set(d1) if d0[v] != d1[v])
        if row.check == "cluster-degree":
            m["nodes_added"] = len(set(d1) - set(d0))
        if row.check in ("kdegree", "cluster-degree"):
            classes = Counter(d1[v] for v in set(d0) | set(d1))
            m["smallest_degree_class"] = min(classes.values())
            m["nodes_in_classes_below_k"] = sum(c for c in classes.values() if c < row.k)
            m["degree_classes_below_k"] = sum(1 for c in classes.values() if c < row.k)
        return m

    def measure_ids(self, tool: str, t: Timed, mapping: Path, row: SchemeRow) -> dict[str, Any]:
        """Is the new id a fixed function of the old one?  SecGraph prints ``old new`` per
        node on stdout; privlab writes --mapping (release id → original id).  Run again and
        compare the two mappings: a random relabelling differs (almost surely)."""

        def read(tool_: str, path_out: Path, path_map: Path) -> dict[int, int]:
            if tool_ == "secgraph":
                pairs = {}
                for line in path_out.read_text().splitlines():
                    p = line.split()
                    if len(p) == 2 and p[0].isdigit() and p[1].isdigit():
                        pairs[int(p[0])] = int(p[1])
                return pairs
            pairs = {}
            for line in path_map.read_text().splitlines()[1:]:
                p = line.split(",")
                pairs[int(p[1])] = int(p[0])
            return pairs

        first = read(tool, t.stdout, mapping)
        again_map = mapping.with_name(mapping.stem + "-again.csv")
        fill = {
            "input": self.files["gB"],
            "out": str(self.work / f"{tool[:2]}-id-again.txt"),
            "seed": str(self.args.pair_seed + 1),
            "mapping": str(again_map),
        }
        if tool == "privlab":
            t2 = self.privlab(
                [*fmt(row.privlab, fill), "--json", "--quiet"], "pl-id-again", self.args.timeout
            )
        else:
            t2 = self.secgraph(fmt(row.secgraph, fill), "sg-id-again", self.args.timeout)
        second = read(tool, t2.stdout, again_map)
        same = sum(1 for k, v in first.items() if second.get(k) == v)
        return {
            "nodes_relabelled": len(first),
            "same_new_id_in_a_second_run": same,
            "second_run": "privlab with another --seed" if tool == "privlab" else "SecGraph again",
        }


# ============================================================================ report
def _f(x: float | None, fmt: str) -> str:
    return "—" if x is None else format(x, fmt)


def _ratio(a: float | None, b: float | None) -> str:
    return "—" if not a or not b else f"{b / a:.1f}×"


def print_attacks(rows: list[dict[str, Any]], n_true: int) -> None:
    print(f"\n## Attacks (correct / mapped of {n_true} nodes, seeds included)\n")
    print(
        "| attack | tool | correct / mapped | precision | coverage | wall s | CPU s | "
        "peak RSS MiB | attack call: wall / CPU s | SecGraph ÷ privlab: wall, CPU, RSS "
        "(attack call: CPU) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        pl, sg = r["privlab"], r["secgraph"]
        for name, s in (("privlab", pl), ("SecGraph", sg)):
            if s["status"] != "ok":
                print(
                    f"| {r['label']} | {name} | {s['status']} | | | {_f(s['wall'], '.1f')} "
                    f"| {_f(s['cpu'], '.1f')} | {_f(s['rss_mib'], '.0f')} | | |"
                )
                continue
            prec = s["correct"] / s["mapped"] if s["mapped"] else 0.0
            ratios = ""
            if name == "SecGraph" and pl["status"] == "ok":
                ratios = (
                    f"{_ratio(pl['wall'], sg['wall'])}, {_ratio(pl['cpu'], sg['cpu'])}, "
                    f"{_ratio(pl['rss_mib'], sg['rss_mib'])} "
                    f"({_ratio(pl['extra'].get('cpu_s'), sg['extra'].get('cpu_s'))})"
                )
            call = f"{_f(s['extra'].get('wall_s'), '.2f')} / {_f(s['extra'].get('cpu_s'), '.2f')}"
            print(
                f"| {r['label']} | {name} | {s['correct']:,} / {s['mapped']:,} | "
                f"{prec:.4f} | {s['correct'] / n_true:.4f} | {s['wall']:.2f} | "
                f"{s['cpu']:.2f} | {s['rss_mib']:.0f} | "
                f"{call} | {ratios} |"
            )
    for r in rows:
        if "same_mapping" in r:
            diff = (
                "identical mappings"
                if r["same_mapping"]
                else f"mappings differ: only privlab {r['pairs_only_privlab']}, only SecGraph "
                f"{r['pairs_only_secgraph']} (first 20)"
            )
            print(f"\n- {r['label']}: {diff}")
        sg = r["secgraph"]
        if sg["status"] == "ok" and sg["extra"].get("reported_correct") is not None:
            rc, rm = sg["extra"]["reported_correct"], sg["extra"]["reported_mapped"]
            if r.get("relabelled"):
                print(
                    f"- {r['label']}: SecGraph's own summary line says {rc}/{rm}: it counts "
                    "pairs of equal ids, which means nothing once G2 is relabelled"
                )
            else:
                rm = sg["mapped"] if rm is None else rm  # RST's line gives no mapped count
                agree = "agrees" if (rc, rm) == (sg["correct"], sg["mapped"]) else "DISAGREES"
                print(
                    f"- {r['label']}: SecGraph's own summary line {rc}/{rm} {agree} with the "
                    "pairs in its file scored against truth.csv"
                )
        if r["note"]:
            print(f"- {r['label']}: {r['note']}")


def print_schemes(rows: list[dict[str, Any]]) -> None:
    print("\n## Schemes, on G2 (gB.txt), measured in the release\n")
    print(
        "| scheme | tool | status | wall s | CPU s | peak RSS MiB | edges before → after | "
        "removed / added | nodes with degree changed | other |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        for name in ("privlab", "secgraph"):
            s = r[name]
            e = s["extra"]
            other = ", ".join(
                f"{k} = {v}"
                for k, v in e.items()
                if k
                not in (
                    "edges_before",
                    "edges_after",
                    "edges_removed",
                    "edges_added",
                    "nodes_with_degree_changed",
                )
            )
            print(
                f"| {r['label']} | {name} | {s['status']} | {_f(s['wall'], '.2f')} | "
                f"{_f(s['cpu'], '.2f')} | {_f(s['rss_mib'], '.0f')} | "
                f"{e.get('edges_before', '—')} → {e.get('edges_after', '—')} | "
                f"{e.get('edges_removed', '—')} / {e.get('edges_added', '—')} | "
                f"{e.get('nodes_with_degree_changed', '—')} | {other} |"
            )
    for r in rows:
        if r["note"]:
            print(f"- {r['label']}: {r['note']}")


# ============================================================================ main
def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument(
        "--secgraph-build",
        default=os.environ.get("SECGRAPH_BUILD", "/work/secgraph-build"),
        help="the folder build.sh wrote secgraph-cli.jar into",
    )
    ap.add_argument(
        "--privlab-src",
        default=str(REPO / "src"),
        help="the privlab sources to run (default: this checkout's src)",
    )
    ap.add_argument(
        "--attacks",
        default=",".join(r.key for r in ATTACKS),
        help="comma-separated: " + ", ".join(r.key for r in ATTACKS),
    )
    ap.add_argument(
        "--schemes",
        default=",".join(r.key for r in SCHEMES),
        help="comma-separated: " + ", ".join(r.key for r in SCHEMES),
    )
    ap.add_argument("--no-schemes", action="store_true")
    ap.add_argument(
        "--secgraph-rst-jar",
        default=os.environ.get(
            "SECGRAPH_RST_JAR", "/work/secgraph-extra/sh/build/secgraph-rst.jar"
        ),
        help="SecGraph built with APTED for its RST attack (benchmarks/secgraph/build_rst.sh)",
    )
    ap.add_argument(
        "--quick", action="store_true", help="NS θ = 1 (both pairs) and the schemes only"
    )
    ap.add_argument(
        "--attack-only",
        action="store_true",
        help="run SecGraph's attacks through our harness privlab.AttackTimer (SecGraph's "
        "readers and attack methods, the attack call timed inside the JVM) instead of its "
        "command line, to set attack-only times side by side",
    )
    ap.add_argument("--pair-seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=1800.0, help="per call, seconds")
    ap.add_argument(
        "--workdir",
        help="keep the pair, outputs and logs here (default: a "
        "temporary folder, removed at the end)",
    )
    ap.add_argument("--json-out", help="also write every number as JSON here")
    ap.add_argument(
        "--no-bytecode",
        action="store_true",
        help="do not compile privlab's bytecode first (keeps PYTHONDONTWRITEBYTECODE if set)",
    )
    args = ap.parse_args(argv)

    jar = Path(args.secgraph_build) / "secgraph-cli.jar"
    if not jar.is_file():
        sys.exit(
            f"{jar} not found: build SecGraph with benchmarks/secgraph/build.sh SRC "
            f"{args.secgraph_build} (see benchmarks/secgraph/README.md)"
        )
    if not (Path(args.data) / "graphs" / "facebook_combined.txt").is_file():
        sys.exit(f"facebook_combined.txt not found under {args.data}/graphs (set PRIVLAB_DATA)")
    by_key = {r.key: r for r in ATTACKS}
    keys = (
        ["ns1", "ns1-relabelled"]
        if args.quick
        else [k.strip() for k in args.attacks.split(",") if k.strip()]
    )
    bad = [k for k in keys if k not in by_key]
    if bad:
        sys.exit(f"--attacks: unknown {bad}; choose from {list(by_key)}")
    schemes_by = {r.key: r for r in SCHEMES}
    skeys = [] if args.no_schemes else [k.strip() for k in args.schemes.split(",") if k]
    bad = [k for k in skeys if k not in schemes_by]
    if bad:
        sys.exit(f"--schemes: unknown {bad}; choose from {list(schemes_by)}")

    bench = Bench(args)
    try:
        print(f"# privlab vs SecGraph on SecGraph's ego-Facebook pair — {machine()}\n")
        jv = subprocess.run([bench.java, "-version"], capture_output=True, text=True).stderr
        print(f"Java: {jv.strip().splitlines()[0] if jv.strip() else '?'}; SecGraph jar: {jar}")
        if not args.no_bytecode:
            print(f"privlab: {bench.src}, bytecode compiled before the timed calls")
        meta = bench.make_pair()
        p = meta["parameters"]
        print(
            f"Pair: privlab graph pair --secgraph --p 0.9 --seed {args.pair_seed} "
            f"(root {p['root']}): G1 {meta['aux_nodes']:,} nodes / {meta['aux_edges']:,} "
            f"edges, G2 {meta['san_nodes']:,} / {meta['san_edges']:,}; {N_SEEDS} top-degree "
            "seeds.  Calls run one at a time."
        )
        attack_rows = [bench.run_attack(by_key[k]) for k in keys]
        print_attacks(attack_rows, bench.n_true)
        scheme_rows = [bench.run_scheme(schemes_by[k]) for k in skeys]
        if scheme_rows:
            print_schemes(scheme_rows)
        if args.json_out:
            Path(args.json_out).write_text(
                json.dumps(
                    {
                        "machine": machine(),
                        "pair": meta,
                        "attacks": attack_rows,
                        "schemes": scheme_rows,
                    },
                    indent=1,
                    default=str,
                )
            )
    finally:
        if args.workdir:
            print(f"\n(work files kept in {bench.work})")
        else:
            shutil.rmtree(bench.work, ignore_errors=True)


if __name__ == "__main__":
    main()
