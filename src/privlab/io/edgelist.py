"""Edge lists (SNAP's format, keeping every node) and GraphML / GML: read with every clean-up
reported, write atomically.

The edge-list format (snap.stanford.edu, plus one-id lines so that no node is lost):

* a line with two node ids separated by tabs or spaces is an edge; columns after the two ids
  (a weight, a timestamp) are ignored and reported: privlab graphs are unweighted;
* a line with one id is a node: this is how nodes without edges (isolated nodes) are
  written;
* lines starting with ``#`` or ``%`` are comments.  A comment before the first data line
  that gives ``Nodes: N`` (SNAP's header, and privlab's) is the node count: when the lines
  name fewer than N ids and every id is an integer in 0..N−1, the missing ids are read as
  isolated nodes and reported (files from SNAP's tools and from privlab before isolated
  nodes were listed have no one-id lines; N up to 2^24, which bounds the memory a header
  can claim); any other disagreement with the count is reported;
* UTF-8 text; CRLF line ends are fine.

Node ids become the graph's labels: integers (sorted numerically) when every id is the plain
decimal form of an int64 (``7``, not ``007`` or ``+7``), otherwise text (sorted); nodes are
numbered 0..n−1 in that order.  GraphML and GML node ids follow the same rule, in file order.

Self-loops and repeated edges (in an undirected graph, u v and v u are the same edge) are
**removed and reported** with their count and first line number — never silently kept, as
privlab's graphs are simple.  A malformed line is an :class:`~privlab.errors.InputError`
naming the file and line: an id with a comma or semicolon in it (a CSV file?), or words on
the first line above integer ids on every other line (a column header?).  Reading m lines
costs O(m log m); :func:`privlab.graph.core.read_graph` builds the graph.

Other tools and privlab's edge lists: networkx's ``read_edgelist`` and SNAP's
``LoadEdgeList`` skip the one-id lines, so they read the same edges but lose the isolated
nodes; igraph's ``Read_Edgelist`` and ``Read_Ncol`` take no ``#`` comments.  GraphML keeps
every node in every library (:func:`write_markup`).
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.io.atomic import atomic_path
from privlab.io.outputs import is_stdout, stdout_binary

MARKUP_SUFFIXES = (".graphml", ".gml")
_NODE_COUNT = re.compile(r"\bNodes:\s*(\d{1,18})\b")
HEADER_NODES_LIMIT = 1 << 24  # a header count adds nodes to graphs of at most this many
_NOT_IN_IDS = ",;"  # CSV separators: an id holding one is a misread line
_NOT_A_TOKEN = re.compile("^[#%]|[\\s,;\ud800-\udfff]")  # what an edge-list id cannot hold
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")  # not in XML


def is_markup(path: str | os.PathLike[str]) -> bool:
    """True for a GraphML or GML file name (by suffix), False for an edge list."""
    return Path(path).suffix.lower() in MARKUP_SUFFIXES


def loops_and_duplicates(e: np.ndarray, directed: bool) -> tuple[np.ndarray, np.ndarray]:
    """Positions of self-loops and of repeats of an earlier edge (undirected: either way).

    Each edge becomes one integer key (u·n + v, with n above the largest id), so the repeats
    are found by a 1-D sort, several times faster than ``np.unique(axis=0)`` on the pairs.
    O(m log m).
    """
    loops = np.flatnonzero(e[:, 0] == e[:, 1]) if e.size else np.zeros(0, np.int64)
    if not e.size:
        return loops, np.zeros(0, np.int64)
    lo, hi = (e[:, 0], e[:, 1]) if directed else (e.min(axis=1), e.max(axis=1))
    _, first = np.unique(pair_keys(lo, hi, int(e.max()) + 1), return_index=True)
    repeated = np.ones(e.shape[0], dtype=bool)
    repeated[first] = False
    repeated[loops] = False
    return loops, np.flatnonzero(repeated)


def pair_keys(u: np.ndarray, v: np.ndarray, n: int) -> np.ndarray:
    """One int64 per pair of non-negative ids below ``n``, ordered as the pairs (u, v) are:
    u·n + v, or, when n² would not fit an int64, the pairs' rank (by a lexsort).  O(m) or
    O(m log m)."""
    if n <= 3_037_000_499:  # n² < 2⁶³
        return u.astype(np.int64) * n + v
    order = np.lexsort((v, u))
    new = np.ones(u.size, dtype=bool)
    new[1:] = (u[order][1:] != u[order][:-1]) | (v[order][1:] != v[order][:-1])
    keys = np.empty(u.size, dtype=np.int64)
    keys[order] = np.cumsum(new) - 1
    return keys


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
    """What reading a graph file found: lines, nodes, edges, and every clean-up done.

    ``extra_columns``: lines whose columns after the two ids were ignored;
    ``declared_nodes``: the header's node count (``header_line``), ``nodes_from_header``:
    isolated nodes added from it; ``isolated``: nodes without edges in the graph read.
    """

    path: str
    lines: int
    nodes: int
    edges: int
    directed: bool
    self_loops: int
    duplicates: int
    first_self_loop_line: int | None
    first_duplicate_line: int | None
    isolated: int = 0
    extra_columns: int = 0
    first_extra_column_line: int | None = None
    declared_nodes: int | None = None
    header_line: int | None = None
    nodes_from_header: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "lines": self.lines,
            "nodes": self.nodes,
            "edges": self.edges,
            "isolated_nodes": self.isolated,
            "directed": self.directed,
            "self_loops_removed": self.self_loops,
            "duplicates_removed": self.duplicates,
            "first_self_loop_line": self.first_self_loop_line,
            "first_duplicate_line": self.first_duplicate_line,
            "extra_columns_ignored": self.extra_columns,
            "first_extra_column_line": self.first_extra_column_line,
            "declared_nodes": self.declared_nodes,
            "nodes_from_header": self.nodes_from_header,
        }

    def warnings(self) -> list[str]:
        """One sentence per kind of clean-up (empty when the file was read as written)."""
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
        if self.extra_columns:
            out.append(
                f"{self.path}: ignored the columns after the two node ids on "
                f"{self.extra_columns} line(s), first on line {self.first_extra_column_line} "
                "(weights or timestamps?): privlab graphs are unweighted"
            )
        if self.nodes_from_header:
            out.append(
                f"{self.path}: the header (line {self.header_line}) counts "
                f"{self.declared_nodes} nodes and the lines name "
                f"{self.nodes - self.nodes_from_header} of the ids 0..{self.nodes - 1}; the "
                f"other {self.nodes_from_header} are read as nodes without edges"
            )
        elif self.declared_nodes is not None and self.declared_nodes != self.nodes:
            out.append(
                f"{self.path}: the header (line {self.header_line}) counts "
                f"{self.declared_nodes} nodes but the file names {self.nodes}; read "
                f"{self.nodes} (list a node without edges as its id alone on a line)"
            )
        return out


@dataclass(frozen=True)
class EdgeList:
    """Node labels, simple edges as (m × 2) codes into the labels, and the report."""

    labels: np.ndarray
    edges: np.ndarray
    report: EdgeListReport


def integer_ids(tokens: np.ndarray) -> np.ndarray | None:
    """``tokens`` (text) as int64 if every one is the plain decimal form of an int64, else
    None: ``"7"`` is an integer id, ``"007"``, ``"+7"`` and ``"7.0"`` are text.  O(n)."""
    if tokens.size == 0:
        return np.zeros(0, dtype=np.int64)
    try:
        ints = tokens.astype(np.int64)
    except (ValueError, OverflowError):
        return None
    return ints if np.array_equal(ints.astype(str), tokens) else None


def node_labels(ids: list[Any]) -> np.ndarray:
    """Labels for node ids read from a file, in their order: int64 when every id is an integer
    written plainly (:func:`integer_ids`), otherwise the text."""
    tokens = np.array([str(v) for v in ids], dtype=str)
    ints = integer_ids(tokens)
    return ints if ints is not None else tokens


@dataclass
class _Lines:
    """The data lines of an edge list, by kind, with their line numbers.  ``ints``: every id
    as int64 (sources, then targets, then singles) when the fast reader already knows them to
    be plain decimal integers, else None."""

    sources: list[str]
    targets: list[str]
    edge_at: list[int] | np.ndarray
    singles: list[str]
    single_at: list[int]
    extra_at: list[int]
    declared: tuple[int, int] | None  # (node count, line) from the header
    ints: np.ndarray | None = None  # when given, sources and targets are left empty


_WHITESPACE_BYTES = np.array([ord(c) for c in " \t\r"], dtype=np.uint8)
_DIGITS_LIMIT = 18  # a plain decimal of at most 18 digits always fits an int64


def _parse_fast(lines: list[str], text: str) -> _Lines | None:
    """The common shape read without a Python loop over the lines: comment (``#``/``%``) or
    blank lines first, then only lines of exactly two ids, ASCII, with no comment, separator,
    blank or one-id line among them.  None for anything else (:func:`_parse` reads it, with
    the same result).  Ids made of digits only, without a leading zero and of at most 18
    digits, are returned as int64 (``ints``).  O(file size)."""
    if not text.isascii():
        return None
    head = 0
    while head < len(lines) and (not lines[head].strip() or lines[head].lstrip()[0] in "#%"):
        head += 1
    parts = text.split("\n", head)
    if head == len(lines) or len(parts) != head + 1:
        return None
    body = parts[-1]
    if any(c in body for c in "#%,;\x0b\x0c\x1c\x1d\x1e\x1f\x85"):
        return None
    data = np.frombuffer(body.encode("ascii"), dtype=np.uint8)
    newline = data == ord("\n")
    gap = newline | np.isin(data, _WHITESPACE_BYTES)
    start = ~gap
    start[1:] &= gap[:-1]
    line_of = np.cumsum(newline)
    n_lines = len(lines) - head
    per_line = np.bincount(line_of[start], minlength=n_lines)
    if per_line.size != n_lines or np.any(per_line != 2):
        return None
    first = np.flatnonzero(start)
    m = first.size // 2
    edge_at = np.arange(head + 1, head + 1 + m)
    declared = _declared(lines[:head])
    ints = _decimal_ids(data, gap, first)
    if ints is not None:  # the strings are not needed: the labels come from ints
        return _Lines([], [], edge_at, [], [], [], declared, ints)
    tokens = body.split()
    return _Lines(tokens[0::2], tokens[1::2], edge_at, [], [], [], declared, None)


def _decimal_ids(data: np.ndarray, gap: np.ndarray, first: np.ndarray) -> np.ndarray | None:
    """The ids of :func:`_parse_fast`'s two-id lines as int64 — sources, then targets —
    when every id is digits only, without a leading zero, of at most 18 digits; else None.

    ``data``: the bytes; ``gap``: whitespace or newline; ``first``: where each id starts.
    Digit by digit over all ids at once (Horner's rule), instead of converting a list of
    strings.  O(file size)."""
    digit = (data >= ord("0")) & (data <= ord("9"))
    if not np.array_equal(digit, ~gap):
        return None
    end = np.flatnonzero(~gap & np.append(gap[1:], True))
    lengths = end - first + 1
    leading_zero = (data[first] == ord("0")) & (lengths > 1)
    if lengths.max() > _DIGITS_LIMIT or leading_zero.any():
        return None
    values = np.zeros(first.size, dtype=np.int64)
    for j in range(int(lengths.max())):
        at = np.flatnonzero(lengths > j)
        values[at] = values[at] * 10 + (data[first[at] + j] - ord("0"))
    return np.concatenate([values[0::2], values[1::2]])


def _declared(header: list[str]) -> tuple[int, int] | None:
    """The ``Nodes: N`` count of the comments before the first data line, with its line (the
    last such comment, as :func:`_parse` reads it)."""
    declared = None
    for number, line in enumerate(header, start=1):
        found = _NODE_COUNT.search(line.strip())
        if found:
            declared = int(found[1]), number
    return declared


def _parse(p: Path, lines: list[str], separators: bool) -> _Lines:
    """The lines by kind; ``separators``: the text holds a ',' or ';' (ids are checked)."""
    out = _Lines([], [], [], [], [], [], None)
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped[0] in "#%":
            found = _NODE_COUNT.search(stripped)
            if found and not out.edge_at and not out.single_at:
                out.declared = (int(found[1]), number)
            continue
        parts = stripped.split()
        if (
            separators and ("," in stripped or ";" in stripped)
            and any(c in token for token in parts[:2] for c in _NOT_IN_IDS)
        ):  # fmt: skip
            raise InputError(
                f"{p}, line {number}: {stripped[:60]!r}: node ids are separated by tabs or "
                "spaces and contain no ',' or ';' (a CSV file? replace its separators by tabs)"
            )
        if len(parts) == 1:
            out.singles.append(parts[0])
            out.single_at.append(number)
            continue
        out.sources.append(parts[0])
        out.targets.append(parts[1])
        out.edge_at.append(number)
        if len(parts) > 2:
            out.extra_at.append(number)
    return out


def _header_row(tokens: np.ndarray, m: int, single_first: bool) -> bool:
    """Whether the first data line is a column header left uncommented: an edge line whose
    two ids are words (with a letter, like ``source target``) while every other id is an
    integer.  ``tokens``: the m sources, the m targets, then the one-id lines;
    ``single_first``: a one-id line comes first.  (:func:`write_edges` never writes such a
    first line.)"""
    if m < 2 or single_first:
        return False
    if not all(any(c.isalpha() for c in str(t)) for t in tokens[[0, m]]):
        return False
    rest = np.ones(tokens.size, dtype=bool)
    rest[[0, m]] = False
    return integer_ids(tokens[rest]) is not None


def _labels_and_codes(p: Path, lines: list[str], parsed: _Lines) -> tuple[np.ndarray, np.ndarray]:
    """Sorted labels and every token's code; InputError for a header row of words."""
    if parsed.ints is not None:
        return np.unique(parsed.ints, return_inverse=True)
    tokens = np.array(parsed.sources + parsed.targets + parsed.singles, dtype=str)
    ints = integer_ids(tokens)
    if ints is not None:
        return np.unique(ints, return_inverse=True)
    first_single, first_edge = (min(at, default=0) for at in (parsed.single_at, parsed.edge_at))
    single_first = bool(parsed.single_at) and first_single < first_edge
    if _header_row(tokens, len(parsed.sources), single_first):
        first = parsed.edge_at[0]
        raise InputError(
            f"{p}, line {first}: {lines[first - 1].strip()[:60]!r} is not node ids, while "
            "every other line holds integers: a column header? start it with # to make it a "
            "comment"
        )
    return np.unique(tokens, return_inverse=True)


def read_edges(path: str | os.PathLike[str], *, directed: bool = False) -> EdgeList:
    """Parse an edge list (SNAP's format with one-id lines for isolated nodes); see the
    module docstring."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{p}: not UTF-8 text ({exc.reason})") from None
    lines = text.splitlines()
    parsed = _parse_fast(lines, text) or _parse(p, lines, any(c in text for c in _NOT_IN_IDS))
    if not len(parsed.edge_at) and not parsed.single_at:
        raise InputError(f"{p}: no nodes or edges (only comments or blank lines)")
    labels, codes = _labels_and_codes(p, lines, parsed)
    declared, header_line = parsed.declared or (None, None)
    named = labels.size
    if (
        declared is not None and labels.dtype.kind == "i" and named < declared
        and declared <= HEADER_NODES_LIMIT and labels[0] >= 0 and labels[-1] < declared
    ):  # fmt: skip
        codes, labels = labels[codes], np.arange(declared, dtype=np.int64)  # ids 0..N−1
    m = len(parsed.edge_at)
    simple = simplify_edges(np.stack([codes[:m], codes[m : 2 * m]], axis=1), directed=directed)
    at = np.asarray(parsed.edge_at)
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
        isolated=_isolated(simple.edges, labels.size),
        extra_columns=len(parsed.extra_at),
        first_extra_column_line=parsed.extra_at[0] if parsed.extra_at else None,
        declared_nodes=declared,
        header_line=header_line,
        nodes_from_header=int(labels.size - named),
    )
    return EdgeList(labels, simple.edges, report)


def _isolated(edges: np.ndarray, n: int) -> int:
    """The nodes no edge touches.  O(n + m)."""
    return int(n - np.count_nonzero(np.bincount(edges.ravel(), minlength=n)))


def read_markup(path: str | os.PathLike[str], *, directed: bool = False) -> EdgeList:
    """Read GraphML (``.graphml``) or GML (``.gml``) through networkx into an EdgeList.

    Node ids become labels (in the file's node order; integers when every id is one, as for
    edge lists); every node, with or without edges, is kept.  Self-loops and repeated
    edges are removed and counted as for edge lists (no line numbers: the formats are not
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
    report = EdgeListReport(
        path=str(p), lines=0, nodes=len(nodes), edges=int(simple.edges.shape[0]),
        directed=directed, self_loops=int(simple.self_loops.size),
        duplicates=int(simple.duplicates.size), first_self_loop_line=None,
        first_duplicate_line=None, isolated=_isolated(simple.edges, len(nodes)),
    )  # fmt: skip
    return EdgeList(node_labels(nodes), simple.edges, report)


def _id_texts(path: Path, labels: np.ndarray | None, n_nodes: int, *, one_token: bool) -> list[str]:
    """Each node's id as written: its label as text, or its number.  InputError when two
    labels have the same text, or (``one_token``) a label cannot be an edge-list id."""
    if labels is None:
        return [str(v) for v in range(n_nodes)]
    texts = [str(v) for v in np.asarray(labels).tolist()]
    bad = _NOT_A_TOKEN if one_token else _XML_INVALID
    for t in texts:
        if bad.search(t) or (one_token and not t):
            rule, fix = (
                ("one word without spaces, ',' or ';', not starting with # or %",
                 f"write GraphML instead ({path.with_suffix('.graphml').name})")
                if one_token else ("no control characters", "relabel the nodes")
            )  # fmt: skip
            raise InputError(
                f"{path}: the node label {t[:60]!r} cannot be an id in this format ({rule}); {fix}"
            )
    if len(set(texts)) < len(texts):
        seen: set[str] = set()
        twice = ""
        for t in texts:
            if t in seen:
                twice = t
                break
            seen.add(t)
        raise InputError(
            f"{path}: two nodes have the label {twice[:60]!r} (as text); a file needs distinct "
            "ids — relabel the nodes"
        )
    return texts


def write_edges(
    path: str | os.PathLike[str],
    edges: np.ndarray,
    labels: np.ndarray | None = None,
    *,
    n_nodes: int,
    directed: bool,
    header: str | None = None,
) -> Path:
    """Write a graph as an edge list that keeps every node, atomically (``-``: standard
    output).  O(n + m).

    The file, which :func:`read_edges` reads back to the same nodes, labels and edges::

        # <each line of header>
        # Undirected graph: Nodes: 5 Edges: 2
        0<TAB>1                 one line per edge (an undirected edge once)
        1<TAB>2
        # Nodes without edges, one id per line:
        3                       one line per isolated node
        4

    Ids are the labels as text (node numbers 0..n−1 without labels); they read back as
    integers when every id is a plain integer, so a text label ``"7"`` comes back as 7.  A
    label that cannot be one edge-list id (empty, with whitespace, ``,`` or ``;``, or
    starting with ``#`` or ``%``), or two labels with the same text, are an InputError:
    write GraphML (:func:`write_markup`) for such labels.  Readers that take exactly two ids
    per line (networkx ``read_edgelist``, SNAP ``LoadEdgeList``) skip the one-id lines and
    lose the isolated nodes; the header's ``Nodes:`` count still gives their number.
    """
    p = Path(path)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    names = _id_texts(p, labels, n_nodes, one_token=True)
    isolated = np.flatnonzero(np.bincount(e.ravel(), minlength=n_nodes) == 0).tolist()
    if labels is not None:
        ids = [names[v] for v in (*e[:, 0].tolist(), *e[:, 1].tolist(), *isolated)]
        if _header_row(np.array(ids, dtype=str), e.shape[0], False):
            e = e[[1, 0, *range(2, e.shape[0])]]  # else it would read as a column header
    lines = _EdgeLines(e, names, labels is None, isolated, n_nodes, directed, header)
    if is_stdout(path):
        out = io.TextIOWrapper(stdout_binary(), encoding="utf-8", newline="\n")
        try:
            lines.write(out)
        finally:
            out.detach()
        return p
    with atomic_path(p) as tmp, tmp.open("w", encoding="utf-8", newline="\n") as fh:
        lines.write(fh)
    return p


@dataclass(frozen=True)
class _EdgeLines:
    """The lines of an edge-list file (see :func:`write_edges`)."""

    edges: np.ndarray
    names: list[str]
    numbered: bool  #: the ids are the node numbers (written fast, with numpy)
    isolated: list[int]
    n_nodes: int
    directed: bool
    header: str | None

    def write(self, fh: Any) -> None:
        for line in (self.header or "").splitlines():
            fh.write(f"# {line}\n")
        kind = "Directed" if self.directed else "Undirected"
        fh.write(f"# {kind} graph: Nodes: {self.n_nodes} Edges: {self.edges.shape[0]}\n")
        if self.numbered:
            np.savetxt(fh, self.edges, fmt="%d", delimiter="\t")
        else:
            fh.writelines(f"{self.names[u]}\t{self.names[v]}\n" for u, v in self.edges.tolist())
        if self.isolated:
            fh.write("# Nodes without edges, one id per line:\n")
            fh.writelines(f"{self.names[v]}\n" for v in self.isolated)


def write_markup(
    path: str | os.PathLike[str],
    edges: np.ndarray,
    labels: np.ndarray | None = None,
    *,
    n_nodes: int,
    directed: bool,
    header: str | None = None,
    named: str | os.PathLike[str] | None = None,
) -> Path:
    """Write a graph as GraphML (``.graphml``) or GML (``.gml``) through networkx, atomically.

    Every node is an element of its own, so nodes without edges survive in every reader
    (networkx, igraph, Gephi, :func:`read_markup`).  Node ids are the labels as text (node
    numbers 0..n−1 without labels; distinct, no control characters); ``header`` becomes the
    graph attribute ``comment``.  ``named``: the final name that decides the format, when
    ``path`` is a temporary file of :func:`privlab.io.atomic.atomic_paths`.  O(n + m).
    """
    import networkx as nx

    p = Path(path)
    suffix = Path(named or path).suffix.lower()
    writer = {".graphml": nx.write_graphml, ".gml": nx.write_gml}.get(suffix)
    if writer is None:
        raise InputError(f"{p}: not a GraphML or GML file name; end it with .graphml or .gml")
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    names = _id_texts(p, labels, n_nodes, one_token=False)
    g = nx.DiGraph() if directed else nx.Graph()
    if header:
        g.graph["comment"] = header
    g.add_nodes_from(names)
    g.add_edges_from((names[u], names[v]) for u, v in e.tolist())
    with atomic_path(p) as tmp:
        writer(g, tmp)
    return p


__all__ = [
    "HEADER_NODES_LIMIT",
    "MARKUP_SUFFIXES",
    "EdgeList",
    "EdgeListReport",
    "Simplified",
    "integer_ids",
    "is_markup",
    "loops_and_duplicates",
    "node_labels",
    "read_edges",
    "read_markup",
    "simplify_edges",
    "write_edges",
    "write_markup",
]
