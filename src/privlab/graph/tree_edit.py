"""Ordered tree edit distance with its optimal node mapping (Zhang & Shasha, 1989).

Used by the randomized-spanning-tree variant of the Srivatsa–Hicks attack
(:mod:`privlab.graph.attacks.srivatsa_hicks`), which SecGraph runs through RTED, Pawlik &
Augsten's *robust* tree edit distance (PVLDB 5(4), 2011).  RTED and Zhang–Shasha compute
the same distance (the minimum number of node deletions, insertions and relabellings turning
one ordered labelled tree into the other, here each of cost 1); RTED only chooses a
decomposition strategy that is never worse than Zhang–Shasha's left paths.  privlab uses
Zhang & Shasha's algorithm (*Simple fast algorithms for the editing distance between trees
and related problems*, SIAM J. Comput. 18(6), 1989), with its rows vectorized:

* Nodes are numbered in postorder; ``lld[x]`` is x's leftmost leaf descendant; the
  *keyroots* are the root and every node that is not its parent's first child.
* For each pair of keyroots (i, j) the forest distances between the prefixes of the two
  subtrees are filled row by row.  A row needs the row above (deletion), the same row to
  its left (insertion) and, diagonally, either a relabelling (both nodes on the keyroots'
  leftmost paths) or an earlier tree distance.  The left-to-right dependency with unit
  insertion cost is a running minimum, ``f[c] = c + min_{k ≤ c}(a[k] − k)``, so each row
  is a handful of numpy operations.
* The tables of one T1 keyroot against *all* T2 keyroots are filled together, their
  column ranges side by side in one row (an offset per range stops the running minimum at
  the range's start), so a T1 node costs one vectorized row instead of one per T2 keyroot.
  A row of a node on the T1 keyroot's leftmost path reads tree distances the inner T2
  ranges write in that same row; those rows go range group by range group, innermost
  first.
* A keyroot that is a leaf needs no table: the distance between any subtree F and a single
  node y is |F| − 1 if F holds a node labelled like y, else |F|; these are filled in closed
  form, one broadcast per leaf label.
* Rows are stored shifted (``fd + offset − r``) so that deletion is a plain minimum and
  insertion a plain running minimum; a row of a T1 leaf (most rows of a shortest-path
  tree) adds one cached row per leaf label, and reads the row above one column back except
  at T2's non-leaf nodes.  Only the rows a later row reads are kept.  The T2 ranges are
  laid out by nesting level, so that a leftmost-path row computes every column at once and
  then runs the minimum group by group over contiguous slices.

:func:`tree_edit_distance` returns the distance and a minimum-cost mapping (pairs of nodes
kept or relabelled), recovered by walking back through the recomputed forest tables.

Cost: O(|T1|·|T2|·min(depth₁, leaves₁)·min(depth₂, leaves₂)) time in the worst case (the
cells Zhang–Shasha fills), in Σ_i |T1(i)| + (T1's leftmost-path rows)·(nesting depth of T2's
keyroots) numpy row operations, i over T1's non-leaf keyroots; O(|T1|·|T2|) memory (the tree
distance table, 4 bytes a cell) plus, at a time, Σ_j (|T2(j)| + 1) int64 columns of the rows
kept for one T1 keyroot (its non-leaf nodes off the leftmost path, plus two).  Two 4,039-node
shortest-path trees of ego-Facebook: about 0.7–1.0 s CPU for the tables (1.4–1.7 s before
the shifted rows, 18–35 s with the per-pair loop).  The mapping walk recomputes, one pair
at a time, only the tables it visits; :func:`tree_tables` keeps the tables so that a caller
aligning several tree pairs walks back only the one it keeps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.errors import InputError
from privlab.progress import ProgressFn


@dataclass(frozen=True)
class OrderedTree:
    """An ordered labelled tree in postorder.

    ``nodes[p]``: the caller's id of the p-th node in postorder; ``labels[p]``: its label
    (an integer; equal labels relabel for free); ``lld[p]``: the postorder index of its
    leftmost leaf descendant.  The root is the last node.
    """

    nodes: np.ndarray
    labels: np.ndarray
    lld: np.ndarray

    @property
    def size(self) -> int:
        return int(self.nodes.size)

    def keyroots(self) -> np.ndarray:
        """The root and every node that is not the first child of its parent, ascending:
        for each distinct ``lld`` its highest node."""
        last = np.full(self.size, -1, dtype=np.int64)
        last[self.lld] = np.arange(self.size)  # postorder ascends: the highest wins
        return np.sort(last[last >= 0])


def ordered_tree(root: int, children: dict[int, list[int]] | Any, labels: Any) -> OrderedTree:
    """The :class:`OrderedTree` of ``root``'s tree; ``children[v]``: v's children in order
    (a dict or a sequence indexed by node); ``labels[v]``: v's integer label (a mapping or
    an array indexed by node).  Iterative, O(size)."""
    order: list[int] = []
    lld: list[int] = []
    stack: list[tuple[int, int]] = [(int(root), 0)]
    first: list[int] = []  # postorder index of each open node's first descendant leaf
    while stack:
        v, k = stack.pop()
        kids = children.get(v, ()) if isinstance(children, dict) else children[v]
        if k == 0:
            first.append(-1)
        if k < len(kids):
            stack.append((v, k + 1))
            stack.append((int(kids[k]), 0))
            continue
        me = len(order)
        f = first.pop()
        if f < 0:
            f = me
        order.append(v)
        lld.append(f)
        if first and first[-1] < 0:
            first[-1] = f
    try:
        lab = np.array([int(labels[v]) for v in order], dtype=np.int64)
    except (KeyError, IndexError, TypeError, ValueError):
        raise InputError("tree labels: give an integer label for every node of the tree") from None
    return OrderedTree(np.array(order, dtype=np.int64), lab, np.array(lld, dtype=np.int64))


@dataclass(frozen=True)
class TreeEdit:
    """``distance``: the unit-cost tree edit distance; ``mapping``: (k × 2) postorder index
    pairs kept or relabelled by one optimal edit script; ``relabelled``: how many of them
    change the label."""

    distance: int
    mapping: np.ndarray
    relabelled: int

    def node_pairs(self, t1: OrderedTree, t2: OrderedTree) -> np.ndarray:
        """The mapping as the caller's node ids, (k × 2)."""
        return np.stack([t1.nodes[self.mapping[:, 0]], t2.nodes[self.mapping[:, 1]]], axis=1)


def tree_edit_distance(
    t1: OrderedTree,
    t2: OrderedTree,
    *,
    mapping: bool = True,
    progress: ProgressFn | None = None,
) -> TreeEdit:
    """Unit-cost ordered tree edit distance of ``t1`` and ``t2`` and (``mapping``) an
    optimal mapping (module docstring for the algorithm and its cost).
    ``progress(done, total)``: T1's non-leaf keyroots done, after each."""
    tables = tree_tables(t1, t2, progress=progress)
    if not mapping:
        return TreeEdit(tables.distance, np.zeros((0, 2), dtype=np.int64), 0)
    return tables.edit()


@dataclass(frozen=True)
class TreeTables:
    """The distances between all subtree pairs of ``t1`` and ``t2`` that Zhang–Shasha fills
    (``td``, |T1| × |T2| int32): the tree edit distance is its last cell, and :meth:`edit`
    walks it back into an optimal mapping.  Keeping the tables and walking back later lets
    a caller align several tree pairs and map only the closest
    (:mod:`privlab.graph.attacks.srivatsa_hicks`)."""

    t1: OrderedTree
    t2: OrderedTree
    td: np.ndarray

    @property
    def distance(self) -> int:
        return int(self.td[self.t1.size - 1, self.t2.size - 1])

    def edit(self) -> TreeEdit:
        """The distance and one optimal mapping (the same :func:`tree_edit_distance` gives)."""
        pairs = _walk_back(self.t1, self.t2, self.td)
        relab = int(np.count_nonzero(self.t1.labels[pairs[:, 0]] != self.t2.labels[pairs[:, 1]]))
        return TreeEdit(self.distance, pairs, relab)


def tree_tables(
    t1: OrderedTree, t2: OrderedTree, *, progress: ProgressFn | None = None
) -> TreeTables:
    """The Zhang–Shasha tables of ``t1`` and ``t2`` (:class:`TreeTables`; cost in the module
    docstring, the mapping walk excluded).  ``progress`` as :func:`tree_edit_distance`'s."""
    if t1.size == 0 or t2.size == 0:
        raise InputError("tree edit distance: both trees need at least one node")
    return TreeTables(t1, t2, _tree_distances(t1, t2, progress))


def _leaf_distances(ta: OrderedTree, tb: OrderedTree) -> tuple[list[np.ndarray], np.ndarray]:
    """The distances from every subtree F of ``ta`` to a leaf y of ``tb`` alone: |F| − 1 if
    F holds a node labelled like y, else |F|.  They depend only on y's label: returns tb's
    leaves grouped by label (index arrays, the largest group first) and the
    (|ta| × groups) int32 distances, one column per group."""
    leaves = np.flatnonzero(tb.lld == np.arange(tb.size))
    size = (np.arange(ta.size) - ta.lld + 1).astype(np.int32)
    uniq, inv = np.unique(tb.labels[leaves], return_inverse=True)
    order = np.argsort(-np.bincount(inv), kind="stable")
    uniq = uniq[order]
    by = np.argsort(np.argsort(order)[inv], kind="stable")
    groups = np.split(leaves[by], np.cumsum(np.bincount(inv, minlength=uniq.size)[order])[:-1])
    hit = ta.labels[:, None] == uniq[None, :]  # (|ta| × distinct leaf labels)
    cum = np.vstack([np.zeros((1, uniq.size), dtype=np.int64), np.cumsum(hit, axis=0)])
    has = (cum[1:] - cum[ta.lld]) > 0  # a node with that label in [lld[x], x]
    return groups, size[:, None] - has


def _tree_distances(
    t1: OrderedTree, t2: OrderedTree, progress: ProgressFn | None = None
) -> np.ndarray:
    """The (|T1| × |T2|) int32 table of distances between all subtree pairs that Zhang–
    Shasha needs (every pair whose nodes lie on the leftmost paths of a keyroot pair).

    Leaf keyroots are filled in closed form.  For each non-leaf keyroot i of T1 the forest
    tables against *all* non-leaf keyroots j of T2 are filled at once, as one table whose
    columns are the T2 keyroots' column ranges side by side (:class:`_Columns`): a row is a
    few numpy operations over all of them, the running minimum of the insertions restarting
    at each range.  Only the rows of nodes on i's leftmost path depend on this same row of
    other ranges (through the tree distances the inner keyroots store); in those rows the
    running minimum goes range group by range group, innermost first (``_Columns.groups``),
    each group reading what the inner ones stored.  Python steps: Σ_i |T1(i)|
    plus the leftmost-path rows times the nesting depth of T2's keyroots; memory: the rows
    of one T1 keyroot that later rows read (:func:`_forest_all`), Σ_j (|T2(j)| + 1) int64
    each."""
    n1, n2 = t1.size, t2.size
    td = np.empty((n1, n2), dtype=np.int32)
    # every cell is written: leaf columns and leaf rows here (one broadcast per leaf label,
    # the commonest over the whole table first), the rest by the forest tables (every node
    # lies on the leftmost path of exactly one keyroot)
    groups2, d12 = _leaf_distances(t1, t2)
    td[:] = d12[:, :1]
    for g, leaves in enumerate(groups2[1:], 1):
        td[:, leaves] = d12[:, g : g + 1]
    groups1, d21 = _leaf_distances(t2, t1)
    d21 = np.ascontiguousarray(d21.T)
    for g, leaves in enumerate(groups1):
        td[leaves] = d21[g]
    kr1 = t1.keyroots()
    kr1 = kr1[t1.lld[kr1] != kr1]  # leaf keyroots are done in closed form
    kr2 = t2.keyroots()
    kr2 = kr2[t2.lld[kr2] != kr2]
    if kr2.size == 0:  # T2 is a single node, done in closed form
        return td
    # T2's keyroots in consecutive chunks of at most _TABLE_CELLS / |T1| columns (one chunk
    # unless T2 is deep): a chunk's ranges only read inner ranges, in earlier chunks or in it
    width = np.cumsum(kr2 - t2.lld[kr2] + 2)
    cap = max(_TABLE_CELLS // (n1 + 1), int((kr2 - t2.lld[kr2] + 2).max()))
    chunks, start = [], 0
    while start < kr2.size:
        stop = int(np.searchsorted(width, (width[start - 1] if start else 0) + cap, "right"))
        stop = max(stop, start + 1)
        chunks.append(_Columns(t2, 2 * (n1 + n2) + 2, kr2[start:stop]))
        start = stop
    leaf1 = t1.lld == np.arange(n1)
    for done, i in enumerate(kr1.tolist(), 1):
        for cols in chunks:
            _forest_all(t1, i, cols, td, leaf1)
        if progress is not None:
            progress(done, kr1.size)
    return td


_TABLE_CELLS = 1 << 25  # int32 cells of one batched forest table (128 MiB)


class _Columns:
    """The forest columns of T2's non-leaf keyroots ``kr`` (ascending) side by side, the
    ranges laid out by nesting level (innermost first).  Keyroot j (the s-th placed) owns
    columns base_s … base_s + |T2(j)|: the empty forest, then lld(j) … j.  Per column:
    ``rel`` (its index within the range), ``node`` (the T2 node, 0 for the empty forest),
    ``ly`` (the global column of the node's leftmost leaf's prefix, fd[·][ly] in Zhang–
    Shasha), ``path`` (the node is on j's leftmost path), ``label``, ``off`` (−s·big, which
    keeps a running minimum from reaching back into an earlier range: a row's entries lie
    within [−rel, r] of its range, so big > |T1| + |T2| separates ranges); ``reloff``:
    off − rel, the shift of the stored rows (:func:`_forest_all`); ``jump``: reloff −
    reloff[ly], what a subtree step adds in the shifted rows, and a large value on each
    range's first column, where there is no subtree to step over; ``leaf_rows``: per T1
    leaf label, filled on first use, a T1 leaf's shifted step (:func:`_leaf_row`); ``far``:
    the columns whose ly is not the column before (T2's non-leaf nodes, and the first
    column of each range), ``inner_far`` those of non-leaf nodes, ``last_child`` (the node
    of the column before) and its subtree's size.  ``path_*``: what the rows of T1's
    leftmost-path nodes need.  ``groups``: the ranges grouped by nesting, innermost first (a
    range whose off-path nodes lie on the leftmost paths of ranges in groups < L is in group
    L), each as (first column, end column, the columns whose subtree step reads a tree
    distance stored in this same row, the column it is read from, the constant to add)."""

    def __init__(self, t2: OrderedTree, big: int, kr: np.ndarray) -> None:
        # the keyroot owning each node's leftmost path: the highest node sharing its lld
        owner = np.full(t2.size, -1, dtype=np.int64)
        owner[t2.lld] = np.arange(t2.size)
        # nesting levels, then the ranges laid out level by level (any order of the ranges
        # works: each is contiguous and the offsets separate them), so a group is a slice
        level = _levels(t2, kr, owner)
        order = np.argsort(level, kind="stable")
        kr, level = kr[order], level[order]
        base, seg, rel, node, lyrel = _layout(t2, kr)
        self.size = int(rel.size)
        self.rel, self.node, self.seg = rel, node, seg
        self.ly = base[seg] + lyrel
        self.path = (rel > 0) & (lyrel == 0)
        self.first = rel == 0
        self.label = t2.labels[node]
        self.off = -seg.astype(np.int64) * big
        reloff = self.off - rel
        # int64 rows although int32 would hold them: numpy's minimum.accumulate runs about
        # 3× faster on int64 (numpy 2.4, x86-64), and it is the costliest step of a row
        self.reloff = reloff
        # the stored rows lie in [−(kr.size + 1)·big, big]; 2**62 more stays apart
        self.jump = reloff - reloff[self.ly]
        self.jump[self.first] = 2**62
        self.leaf_rows: dict[int, tuple[np.ndarray, ...]] = {}
        # the columns whose subtree step does not start one column back (non-leaf nodes)
        self.far = np.flatnonzero(self.ly != np.arange(self.size) - 1)
        # of those, the non-leaf nodes' columns, and each one's last child (the column before)
        inner_far = self.far[~self.first[self.far]]
        self.inner_far = inner_far
        self.last_child = node[inner_far - 1]
        self.last_child_size = self.last_child - t2.lld[self.last_child] + 1
        # rows on T1's leftmost path (shifted): the subtree step from the empty T1 forest
        # (fd[0][ly] = rel[ly]), barred on each range's first column; the relabelling step
        # on the path columns reads the row above one column back
        self.path_jump = rel[self.ly] + reloff
        self.path_jump[self.first] = 2**62
        self.path_cols = np.flatnonzero(self.path)
        self.path_label = self.label[self.path_cols]
        self.path_nodes = node[self.path_cols]
        self.path_back = -reloff[self.path_cols]
        # columns whose subtree step reads a tree distance this same row stores: an off-path
        # node on the leftmost path of another range here; it is read from that range's
        # column of the row (``src``) as soon as that range's group is done
        slot = np.full(t2.size, -1, dtype=np.int64)
        slot[kr] = np.arange(kr.size)
        off_path = np.flatnonzero((rel > 0) & ~self.path)
        src_seg = slot[owner[t2.lld[node[off_path]]]]  # -1: a leaf or an earlier chunk, done
        dep = off_path[src_seg >= 0]
        src_seg = src_seg[src_seg >= 0]
        src = base[src_seg] + node[dep] - t2.lld[kr[src_seg]] + 1
        dconst = self.path_jump[dep] - reloff[src]
        ends = np.concatenate([base, [self.size]])
        self.groups = []
        for v in range(int(level.max(initial=-1)) + 1):
            segs = np.flatnonzero(level == v)
            lo, hi = int(ends[segs[0]]), int(ends[segs[-1] + 1])
            at = (dep >= lo) & (dep < hi)
            self.groups.append((lo, hi, dep[at], src[at], dconst[at]))


def _layout(t2: OrderedTree, kr: np.ndarray) -> tuple[np.ndarray, ...]:
    """The columns of keyroots ``kr`` side by side in that order: each range's first column
    (``base``), and per column its range (``seg``), index in it (``rel``), node (0 for the
    empty forest) and its leftmost leaf's prefix within the range (``lyrel``)."""
    sizes = kr - t2.lld[kr] + 1
    base = np.concatenate([[0], np.cumsum(sizes + 1)[:-1]]).astype(np.int64)
    seg = np.repeat(np.arange(kr.size), sizes + 1)
    rel = np.arange(int((sizes + 1).sum())) - base[seg]
    lj = t2.lld[kr][seg]
    node = np.where(rel > 0, lj + rel - 1, 0)
    lyrel = np.where(rel > 0, t2.lld[node] - lj, 0)
    return base, seg, rel, node, lyrel


def _levels(t2: OrderedTree, kr: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """The nesting level of each keyroot of ``kr`` (ascending) among them: 0 if its range's
    off-path nodes lie on no leftmost path of another of them, else 1 + the highest level
    of those it reads."""
    _, seg, rel, node, lyrel = _layout(t2, kr)
    slot = np.full(t2.size, -1, dtype=np.int64)
    slot[kr] = np.arange(kr.size)
    level = np.zeros(kr.size, dtype=np.int64)
    inner = (rel > 0) & (lyrel != 0)
    dep_seg = slot[owner[t2.lld[node[inner]]]]  # -1: a leaf or an earlier chunk, done
    user_seg = seg[inner]
    keep = dep_seg >= 0
    dep_seg, user_seg = dep_seg[keep], user_seg[keep]
    for s in range(kr.size):  # inner keyroots come first in postorder
        d = dep_seg[user_seg == s]
        if d.size:
            level[s] = level[d].max() + 1
    return level


def _forest_all(t1: OrderedTree, i: int, c: _Columns, td: np.ndarray, leaf1: np.ndarray) -> None:
    """The forest tables of T1's keyroot i against every T2 keyroot of ``c`` at once; the
    tree distances of the leftmost-path pairs go into ``td``.  ``leaf1``: T1's leaves.

    The rows are stored shifted, ``e[r] = fd[r] + c.reloff − r``, so that Zhang–Shasha's
    insertion step (fd[r][col] ≤ fd[r][col − 1] + 1, within a range only) is a plain running
    minimum and its deletion step (fd[r][col] ≤ fd[r − 1][col] + 1) a plain minimum: a row
    off i's leftmost path is ``e[r] = running min of min(e[r − 1], e[lx][ly] + td[x][node]
    + c.jump + lx − r)``, and the first column of each range comes out as r by itself
    (``jump`` bars the subtree step there).  For a leaf x, lx = r − 1 and td[x][·] depends
    only on x's label, so the added terms are one cached row (``c.leaf_rows``), and ly is
    the column before but for the columns of T2's non-leaf nodes, of which only a few need
    their subtree step (:func:`_leaf_row`) — most rows, as most of a shortest-path tree is
    leaves.  A row on i's leftmost path (lx = 0) takes min(e[r − 1], e[r − 1][col − 1] +
    [labels differ] − 2) on T2's path columns (the relabelling, shifted) and min(e[r − 1],
    fd[0][ly] + td[x][node] + reloff − r) elsewhere, with its running minimum group by
    group, innermost first (``c.groups``)."""
    li = int(t1.lld[i])
    nr = i - li + 1
    xs = np.arange(li, i + 1)
    lxs = t1.lld[xs] - li
    leaf = leaf1[xs]
    # keep only the rows read again as some e[lx] (the leftmost-leaf prefixes of the
    # non-leaf nodes off i's leftmost path, and row 0); the others alternate between two
    # scratch rows, as row r only reads row r − 1 besides the kept ones
    need = np.zeros(nr + 1, dtype=bool)
    need[0] = True
    need[lxs[~leaf]] = True
    kept = np.flatnonzero(need)
    slot = np.arange(nr + 1) % 2 + kept.size
    slot[kept] = np.arange(kept.size)
    slot = slot.tolist()
    e = np.empty((kept.size + 2, c.size), dtype=c.reloff.dtype)
    e[0] = c.off
    rows = list(e)  # views made once: a row costs a few numpy calls, little else
    heads = [v[:-1] for v in rows]
    step = np.empty(c.size, dtype=e.dtype)
    tail = step[1:]
    cached = c.leaf_rows
    add, minimum, running_min = np.add, np.minimum, np.minimum.accumulate
    labels = t1.labels[xs].tolist()
    for x, lx, is_leaf, lab in zip(xs.tolist(), lxs.tolist(), leaf.tolist(), labels, strict=True):
        r = x - li + 1
        here, up = slot[r], slot[r - 1]
        row, before = rows[here], rows[up]
        if is_leaf and lx:  # most rows: a leaf off i's leftmost path
            got = cached.get(lab)
            if got is None:
                got = cached[lab] = _leaf_row(c, td[x])
            add(heads[up], got[0], out=tail)
            if got[5]:  # a few columns (the common label's case): scalars are cheaper
                for col, at, plus in got[5]:
                    step[col] = before.item(at) + plus
            elif got[1].size:
                before.take(got[2], out=got[4])
                add(got[4], got[3], out=got[4])
                step[got[1]] = got[4]
            minimum(before, step, out=row)
            running_min(row, out=row)
            continue
        if lx:  # x off i's leftmost path: every column at once, no relabelling step
            rows[slot[lx]].take(c.ly, out=step)
            step += td[x][c.node] + c.jump + (lx - r)
            minimum(before, step, out=row)
            running_min(row, out=row)
            continue
        # on i's leftmost path: every column at once, then the groups innermost first, each
        # reading the tree distances the inner ones just stored in this row
        add(c.path_jump, td[x][c.node], out=step)
        step -= r
        step[c.path_cols] = before[c.path_cols - 1] + (c.path_label != lab) - 2
        minimum(step, before, out=step)
        for lo, hi, dep, src, dconst in c.groups:
            if dep.size:
                step[dep] = np.minimum(before[dep], row[src] + dconst)
            running_min(step[lo:hi], out=row[lo:hi])
        td[x, c.path_nodes] = row[c.path_cols] + (c.path_back + r)


def _leaf_row(c: _Columns, tdx: np.ndarray) -> tuple[np.ndarray, ...]:
    """The cached step of a T1 leaf x off the leftmost path (``tdx``: its tree distances):
    (what columns 1… add to the row above one column back; the columns that instead step
    from their ly; their ly; what they add; a buffer; the same three as a list of Python
    ints when there are at most 8 of them, else empty).

    The subtree step at a column c of a non-leaf T2 node y is needed only when y's last
    child y′ (column c − 1) holds no node labelled like x: otherwise it is never below the
    insertion after x's own step at c − 1.  For, with fd the row above and fd′ this one,
    fd′[c − 1] + 1 ≤ fd[ly(c − 1)] + td(x, y′) + 1 ≤ fd[ly(c)] + (|y| − 1 − |y′|) +
    (|y′| − 1) + 1 = fd[ly(c)] + |y| − 1 ≤ fd[ly(c)] + td(x, y), as a leaf's distance to a
    tree is its size less one if the tree holds its label, its size otherwise.  So for the
    common label those columns are few; the others, and each range's first column, add a
    value too large to win."""
    full = tdx[c.node] + c.jump - 1
    stepped = full[1:].copy()
    stepped[c.far[c.far > 0] - 1] = 2**62  # the columns whose ly is not the column before
    need = c.inner_far[tdx[c.last_child] == c.last_child_size]  # y′ lacks x's label
    ly = c.ly[need]
    few = list(zip(need.tolist(), ly.tolist(), full[need].tolist(), strict=True))
    few = few if len(few) <= 8 else []
    return stepped, need, ly, full[need], np.empty(need.size, dtype=full.dtype), few


def _forest(
    t1: OrderedTree, t2: OrderedTree, i: int, j: int, td: np.ndarray, *, store: bool
) -> np.ndarray:
    """The forest distance table of subtrees i and j (row r: T1's nodes lld[i] … lld[i]+r−1;
    column c likewise in T2); with ``store``, the tree distances of the leftmost-path pairs
    go into ``td``.  One numpy row at a time."""
    li, lj = int(t1.lld[i]), int(t2.lld[j])
    nr, nc = i - li + 1, j - lj + 1
    ys = np.arange(lj, j + 1)
    ly = t2.lld[ys] - lj  # column of each y's leftmost leaf, minus one, in the table
    ypath = ly == 0
    lab2 = t2.labels[ys]
    ramp = np.arange(nc + 1)
    fd = np.empty((nr + 1, nc + 1), dtype=np.int32)  # rows computed in int64 (faster)
    fd[0] = ramp
    for r in range(1, nr + 1):
        x = li + r - 1
        lx = int(t1.lld[x]) - li
        prev = fd[r - 1]
        jump = fd[lx][ly] + td[x, lj : j + 1]
        # x on i's leftmost path: relabel where y is on j's too
        diag = np.where(ypath, prev[:-1] + (lab2 != t1.labels[x]), jump) if lx == 0 else jump
        a = np.empty(nc + 1, dtype=np.int64)
        a[0] = r
        np.minimum(prev[1:] + 1, diag, out=a[1:])
        fd[r] = ramp + np.minimum.accumulate(a - ramp)
        if store and lx == 0:
            cols = np.flatnonzero(ypath)
            td[x, lj + cols] = fd[r, 1 + cols]
    return fd


def _walk_back(t1: OrderedTree, t2: OrderedTree, td: np.ndarray) -> np.ndarray:
    """One optimal mapping: from the root pair, walk each recomputed forest table back;
    a diagonal step between leftmost-path nodes maps them, one elsewhere opens the subtree
    pair (x, y) as a new table.  Matching steps are preferred over deletions/insertions."""
    out: list[tuple[int, int]] = []
    todo = [(t1.size - 1, t2.size - 1)]
    while todo:
        i, j = todo.pop()
        li, lj = int(t1.lld[i]), int(t2.lld[j])
        fd = _forest(t1, t2, i, j, td, store=False)
        r, c = i - li + 1, j - lj + 1
        while r > 0 and c > 0:
            x, y = li + r - 1, lj + c - 1
            lx, ly = int(t1.lld[x]) - li, int(t2.lld[y]) - lj
            here = fd[r, c]
            if lx == 0 and ly == 0:
                if here == fd[r - 1, c - 1] + int(t1.labels[x] != t2.labels[y]):
                    out.append((x, y))
                    r, c = r - 1, c - 1
                    continue
            elif here == fd[lx, ly] + td[x, y]:
                if t1.lld[x] == x and t2.lld[y] == y:
                    out.append((x, y))  # two leaves: their 1 × 1 table maps them
                else:
                    todo.append((x, y))
                r, c = lx, ly
                continue
            if here == fd[r - 1, c] + 1:
                r -= 1
            else:
                c -= 1
    if not out:
        return np.zeros((0, 2), dtype=np.int64)
    return np.array(sorted(out), dtype=np.int64)


__all__ = [
    "OrderedTree",
    "TreeEdit",
    "TreeTables",
    "ordered_tree",
    "tree_edit_distance",
    "tree_tables",
]
