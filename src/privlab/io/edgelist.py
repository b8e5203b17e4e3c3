"""SNAP-style edge lists: read (with self-loops and duplicates reported) and write atomically.

Format (snap.stanford.edu): one edge per line, two node ids separated by tabs or spaces;
lines starting with ``#`` (or ``%``) are comments; CRLF line ends are fine.  Node ids may be
integers or any other token; they become the graph's labels (integers sorted numerically,
other tokens in sorted order; an id beyond the 64-bit range makes them all tokens) and nodes
are numbered 0..n−1 in that order.

Self-loops and repeated edges (in an undirected graph, u v and v u are the same edge) are
**removed and reported** with their count and first line number — never silently kept, as
privlab's graphs are simple.  A malformed line is an :class:`~privlab.errors.InputError`
naming the file and line.  Reading m lines costs O(m log m);
:func:`privlab.graph.core.read_graph` builds the graph.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.io.atomic import atomic_path


def loops_and_duplicates(e: np.ndarray, directed: bool) -> tuple[np.ndarray, np.ndarray]:
    """Positions of self-loops and of repeats of an earlier edge (undirected: either way)."""
    loops = np.flatnonzero(e[:, 0] == e[:, 1]) if e.size else np.zeros(0, np.int64)
    if not e.size:
        return loops, np.zeros(0, np.int64)
    key = e if directed else np.sort(e, axis=1)
    _, first = np.unique(key, axis=0, return_index=True)
    repeated = np.ones(e.shape[0], dtype=bool)
    repeated[first] = False
    repeated[loops] = False
    return loops, np.flatnonzero(repeated)


@dataclass(frozen=True)
class Simplified:
    """Edges with self-loops and repeats removed, and what was removed (positions)."""

    edges: np.ndarray
    self_loops: np.ndarray
    duplicates: np.ndarray


def simplify_edges(edges: Any, *, directed: bool = False) -> Simplified:
    """Drop self-loops and repeated edges, keeping the first of each, and say which.

    O(m log m).
    """
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    loops, dups = loops_and_duplicates(e, directed)
    keep = np.ones(e.shape[0], dtype=bool)
    keep[loops] = False
    keep[dups] = False
    return Simplified(e[keep], loops, dups)


@dataclass(frozen=True)
class EdgeListReport:
    """What reading an edge list found: lines, and the self-loops and repeats removed."""

    path: str
    lines: int
    nodes: int
    edges: int
    directed: bool
    self_loops: int
    duplicates: int
    first_self_loop_line: int | None
    first_duplicate_line: int | None

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "lines": self.lines,
            "nodes": self.nodes,
            "edges": self.edges,
            "directed": self.directed,
            "self_loops_removed": self.self_loops,
            "duplicates_removed": self.duplicates,
            "first_self_loop_line": self.first_self_loop_line,
            "first_duplicate_line": self.first_duplicate_line,
        }

    def warnings(self) -> list[str]:
        """One sentence per kind of removed line (empty when the file was simple)."""
        out = []
        if self.self_loops:
            out.append(
                f"{self.path}: removed {self.self_loops} self-loop(s), first on line "
                f"{self.first_self_loop_line}"
            )
        if self.duplicates:
            kind = "repeated edge(s)" if self.directed else "repeated edge(s) (u v = v u)"
            out.append(
                f"{self.path}: removed {self.duplicates} {kind}, first on line "
                f"{self.first_duplicate_line}"
            )
        return out


@dataclass(frozen=True)
class EdgeList:
    """Node labels, simple edges as (m × 2) codes into the labels, and the report."""

    labels: np.ndarray
    edges: np.ndarray
    report: EdgeListReport


def read_edges(path: str | os.PathLike[str], *, directed: bool = False) -> EdgeList:
    """Parse a SNAP edge list; see the module docstring."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{p}: not UTF-8 text ({exc.reason})") from None
    sources, targets, line_of = [], [], []
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped[0] in "#%":
            continue
        parts = stripped.split()
        if len(parts) != 2:
            raise InputError(
                f"{p}, line {number}: expected two node ids separated by a tab or spaces, "
                f"found {len(parts)} field(s): {stripped[:60]!r}"
            )
        sources.append(parts[0])
        targets.append(parts[1])
        line_of.append(number)
    if not sources:
        raise InputError(f"{p}: no edges (only comments or blank lines)")
    tokens = np.array(sources + targets)
    try:
        labels, codes = np.unique(tokens.astype(np.int64), return_inverse=True)
    except (ValueError, OverflowError):  # not all integers, or not all within int64: tokens
        labels, codes = np.unique(tokens, return_inverse=True)
    m = len(sources)
    simple = simplify_edges(np.stack([codes[:m], codes[m:]], axis=1), directed=directed)
    at = np.asarray(line_of)
    report = EdgeListReport(
        path=str(p),
        lines=len(lines),
        nodes=int(labels.size),
        edges=int(simple.edges.shape[0]),
        directed=directed,
        self_loops=int(simple.self_loops.size),
        duplicates=int(simple.duplicates.size),
        first_self_loop_line=int(at[simple.self_loops[0]]) if simple.self_loops.size else None,
        first_duplicate_line=int(at[simple.duplicates[0]]) if simple.duplicates.size else None,
    )
    return EdgeList(labels, simple.edges, report)


def read_markup(path: str | os.PathLike[str], *, directed: bool = False) -> EdgeList:
    """Read GraphML (``.graphml``) or GML (``.gml``) through networkx into an EdgeList.

    Node ids become labels (in the file's node order); self-loops and repeated edges are
    removed and counted as for edge lists (no line numbers: the formats are not
    line-oriented).  A file networkx cannot parse is an InputError naming it and the
    parser's message (which gives the line for XML).  O(file size + m log m).
    """
    import networkx as nx

    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    suffix = p.suffix.lower()
    reader = {".graphml": nx.read_graphml, ".gml": nx.read_gml}.get(suffix)
    if reader is None:
        raise InputError(
            f"{p}: unknown graph format {suffix!r}; use .graphml, .gml or an edge list"
        )
    try:
        g = reader(p)
    except Exception as exc:  # networkx raises several types for malformed files
        raise InputError(f"{p}: cannot read {suffix[1:].upper()}: {exc}") from None
    nodes = list(g.nodes())
    index = {v: i for i, v in enumerate(nodes)}
    raw = np.array([(index[u], index[v]) for u, v in g.edges()], dtype=np.int64).reshape(-1, 2)
    simple = simplify_edges(raw, directed=directed)
    labels = np.asarray(nodes) if nodes else np.zeros(0, dtype=np.int64)
    report = EdgeListReport(
        path=str(p), lines=0, nodes=len(nodes), edges=int(simple.edges.shape[0]),
        directed=directed, self_loops=int(simple.self_loops.size),
        duplicates=int(simple.duplicates.size), first_self_loop_line=None,
        first_duplicate_line=None,
    )  # fmt: skip
    return EdgeList(labels, simple.edges, report)


def write_edges(
    path: str | os.PathLike[str],
    edges: np.ndarray,
    labels: np.ndarray | None = None,
    *,
    n_nodes: int,
    directed: bool,
    header: str | None = None,
) -> Path:
    """Write one ``u<TAB>v`` line per edge (labels if given), atomically; ``header`` lines
    become ``#`` comments.  O(m)."""
    p = Path(path)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    with atomic_path(p) as tmp, tmp.open("w", encoding="utf-8", newline="\n") as fh:
        for line in (header or "").splitlines():
            fh.write(f"# {line}\n")
        kind = "Directed" if directed else "Undirected"
        fh.write(f"# {kind} graph: Nodes: {n_nodes} Edges: {e.shape[0]}\n")
        if labels is None:
            np.savetxt(fh, e, fmt="%d", delimiter="\t")
        else:
            fh.writelines(f"{labels[u]}\t{labels[v]}\n" for u, v in e.tolist())
    return p


__all__ = [
    "EdgeList",
    "EdgeListReport",
    "Simplified",
    "loops_and_duplicates",
    "read_edges",
    "read_markup",
    "simplify_edges",
    "write_edges",
]
