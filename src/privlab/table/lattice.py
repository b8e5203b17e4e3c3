"""The full-domain generalization lattice and class-frequency tables rolled up along it.

A *transformation* (lattice node) assigns one generalization level to each quasi-identifier.
Node ``a`` is a generalization of ``b`` (``b ≤ a``) when every level of ``a`` is at least that
of ``b``.  The lattice has ``Π (h_j + 1)`` nodes.

A *class table* is the frequency table of a node: one entry per equivalence class with its
size and, for each sensitive attribute, a histogram of its values.  Class keys are mixed-radix
integers over the per-attribute group indices, so a table for node ``a`` can be computed from
the table of any node ``b ≤ a`` by re-mapping the digits of the changed attributes and merging
equal keys — the roll-up of Incognito/ARX.  Rolling up a table of ``m`` classes costs
O(m log m), independent of the number of records.

Sources: Samarati & Sweeney's full-domain generalization; LeFevre et al. (Incognito) and
Kohlmayer et al. (Flash, ARX) for roll-up and the lattice search (seed 000 §2.3 defines the
models).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from privlab.errors import ConfigError
from privlab.table.hierarchy import Hierarchy


def mixed_radix(heights: Sequence[int]) -> np.ndarray:
    """Place values of the node index: node = Σ_j l_j · radix_j, last attribute fastest."""
    sizes = np.asarray(heights, dtype=np.int64) + 1
    radix = np.ones(sizes.size, dtype=np.int64)
    for j in range(sizes.size - 2, -1, -1):
        radix[j] = radix[j + 1] * sizes[j + 1]
    return radix


def node_levels(heights: Sequence[int]) -> np.ndarray:
    """All level vectors ``0 ≤ l_j ≤ h_j`` as an (n_nodes × d) int64 array, in index order."""
    sizes = np.asarray(heights, dtype=np.int64) + 1
    idx = np.arange(int(np.prod(sizes)), dtype=np.int64)
    return (idx[:, None] // mixed_radix(heights)[None, :]) % sizes[None, :]


class Lattice:
    """All level vectors ``0 ≤ l_j ≤ h_j``, indexed in mixed radix (last attribute fastest).

    ``levels`` is an (n_nodes × d) int array.  Building it is O(n_nodes × d).
    """

    def __init__(self, heights: Sequence[int]) -> None:
        self.heights = np.asarray(heights, dtype=np.int64)
        self.d = len(self.heights)
        self.n_nodes = int(np.prod(self.heights + 1))
        self.radix = mixed_radix(self.heights)
        self.levels = node_levels(self.heights).astype(np.int16)
        self.level_sum = self.levels.sum(axis=1, dtype=np.int64)
        # at_least[j][v] / at_most[j][v]: nodes whose level j is >= v / <= v.  An up- or
        # down-set is then an AND of d precomputed masks (O(d × n_nodes / word size)).
        self._at_least = [
            [self.levels[:, j] >= v for v in range(int(h) + 1)] for j, h in enumerate(self.heights)
        ]
        self._at_most = [
            [self.levels[:, j] <= v for v in range(int(h) + 1)] for j, h in enumerate(self.heights)
        ]

    @property
    def bottom(self) -> int:
        return 0

    @property
    def top(self) -> int:
        return self.n_nodes - 1

    def index(self, levels: Sequence[int]) -> int:
        return int(np.dot(np.asarray(levels, dtype=np.int64), self.radix))

    def successors(self, node: int) -> list[int]:
        """Immediate generalizations (one attribute one level up)."""
        lv = self.levels[node]
        return [node + int(self.radix[j]) for j in range(self.d) if lv[j] < self.heights[j]]

    def predecessors(self, node: int) -> list[int]:
        lv = self.levels[node]
        return [node - int(self.radix[j]) for j in range(self.d) if lv[j] > 0]

    def up_set(self, node: int) -> np.ndarray:
        """Boolean mask of all generalizations of ``node`` (itself included)."""
        mask = np.ones(self.n_nodes, dtype=bool)
        for j, v in enumerate(self.levels[node].tolist()):
            if v > 0:
                mask &= self._at_least[j][v]
        return mask

    def down_set(self, node: int) -> np.ndarray:
        """Boolean mask of all specializations of ``node`` (itself included)."""
        mask = np.ones(self.n_nodes, dtype=bool)
        for j, v in enumerate(self.levels[node].tolist()):
            if v < self.heights[j]:
                mask &= self._at_most[j][v]
        return mask


@dataclass
class ClassTable:
    """Frequency table of one node: class keys (sorted), sizes and sensitive histograms.

    ``sa_hist[s]`` is an (m × |domain of s|) count matrix for sensitive attribute ``s``.
    """

    levels: np.ndarray
    keys: np.ndarray
    counts: np.ndarray
    sa_hist: list[np.ndarray]

    @property
    def n_classes(self) -> int:
        return int(self.keys.size)


class Groupify:
    """Computes class tables of lattice nodes, rolling up from cached, more specific tables.

    ``qi_codes`` are leaf indices per QI; ``sa_codes`` integer codes per sensitive attribute
    with domain sizes ``sa_sizes``.  The records are first reduced to their distinct
    (QI, SA) combinations — the bottom table — so every later pass is over classes, not rows.
    ``cache_entries`` bounds the summed size of cached tables (in classes).
    """

    def __init__(
        self,
        hierarchies: Sequence[Hierarchy],
        qi_codes: np.ndarray,
        sa_codes: Sequence[np.ndarray] = (),
        sa_sizes: Sequence[int] = (),
        *,
        cache_entries: int = 20_000_000,
    ) -> None:
        self.hierarchies = list(hierarchies)
        self.d = len(self.hierarchies)
        self.lattice = Lattice([h.height for h in self.hierarchies])
        self.n_leaves = np.array([h.n_leaves for h in self.hierarchies], dtype=np.int64)
        # mixed radix over leaf counts (group indices never exceed the leaf count)
        self.key_radix = np.ones(self.d, dtype=np.int64)
        for j in range(self.d - 2, -1, -1):
            self.key_radix[j] = self.key_radix[j + 1] * self.n_leaves[j + 1]
        if float(np.prod(self.n_leaves.astype(float))) >= 2.0**62:
            raise ConfigError(
                "the quasi-identifier domain is too large for 64-bit class keys; "
                "use fewer quasi-identifiers or coarser hierarchies"
            )
        # group_maps[j][a][b]: group index at level a -> group index at level b (a <= b)
        self._up = [
            [
                [self._map(h, a, b) if b >= a else None for b in range(h.height + 1)]
                for a in range(h.height + 1)
            ]
            for h in self.hierarchies
        ]
        self.sa_sizes = [int(s) for s in sa_sizes]
        self.n_records = int(qi_codes.shape[0])
        keys = qi_codes.astype(np.int64) @ self.key_radix
        self.bottom = self._merge(
            np.zeros(self.d, dtype=np.int16),
            keys,
            np.ones(self.n_records, dtype=np.int64),
            [np.asarray(c, dtype=np.int64) for c in sa_codes],
        )
        self._cache: OrderedDict[int, ClassTable] = OrderedDict()
        self._cache_limit = cache_entries
        self._cache_size = 0
        self.tables_computed = 0

    @staticmethod
    def _map(h: Hierarchy, a: int, b: int) -> np.ndarray:
        out = np.zeros(h.n_groups(a), dtype=np.int64)
        out[h.group_of_leaf(a)] = h.group_of_leaf(b)
        return out

    def _merge(
        self,
        levels: np.ndarray,
        keys: np.ndarray,
        counts: np.ndarray,
        sa_values: list[np.ndarray],
    ) -> ClassTable:
        """Bottom table from raw records: SA histograms built from per-record codes."""
        uniq, inverse = np.unique(keys, return_inverse=True)
        m = uniq.size
        sizes = np.bincount(inverse, weights=counts, minlength=m).astype(np.int64)
        hists = []
        for codes, size in zip(sa_values, self.sa_sizes, strict=True):
            flat = np.bincount(inverse * size + codes, minlength=m * size)
            hists.append(flat.reshape(m, size).astype(np.int64))
        return ClassTable(levels, uniq, sizes, hists)

    def digits(self, table: ClassTable, j: int) -> np.ndarray:
        """Group index of attribute ``j`` for each class of ``table``."""
        return (table.keys // self.key_radix[j]) % self.n_leaves[j]

    def roll_up(self, source: ClassTable, levels: np.ndarray) -> ClassTable:
        """Class table of node ``levels`` from a table of a more specific node."""
        keys = source.keys
        changed = False
        for j in range(self.d):
            a, b = int(source.levels[j]), int(levels[j])
            if a == b:
                continue
            changed = True
            old = (keys // self.key_radix[j]) % self.n_leaves[j]
            keys = keys + (self._up[j][a][b][old] - old) * self.key_radix[j]
        if not changed:
            return source
        order = np.argsort(keys)
        sk = keys[order]
        starts = np.flatnonzero(np.concatenate(([True], sk[1:] != sk[:-1])))
        counts = np.add.reduceat(source.counts[order], starts)
        hists = [np.add.reduceat(h[order], starts, axis=0) for h in source.sa_hist]
        self.tables_computed += 1
        return ClassTable(np.asarray(levels, dtype=np.int16), sk[starts], counts, hists)

    def table(self, node: int, *, cache: bool = True) -> ClassTable:
        """Class table of lattice node ``node``, from the smallest cached specialization."""
        if node in self._cache:
            self._cache.move_to_end(node)
            return self._cache[node]
        levels = self.lattice.levels[node]
        source = self.bottom
        # immediate specializations are usually cached (the searches go bottom-up)
        for pred in self.lattice.predecessors(node):
            t = self._cache.get(pred)
            if t is not None and t.n_classes < source.n_classes:
                source = t
        if source is self.bottom and self._cache:
            source = self._smallest_cached_below(levels)
        result = self.roll_up(source, levels)
        if cache and node != 0:
            self._store(node, result)
        return result

    def _smallest_cached_below(self, levels: np.ndarray) -> ClassTable:
        nodes = np.fromiter(self._cache.keys(), dtype=np.int64, count=len(self._cache))
        below = np.all(self.lattice.levels[nodes] <= levels, axis=1)
        if not below.any():
            return self.bottom
        sizes = np.array([self._cache[int(x)].n_classes for x in nodes[below]])
        return self._cache[int(nodes[below][int(np.argmin(sizes))])]

    def _store(self, node: int, table: ClassTable) -> None:
        self._cache[node] = table
        self._cache_size += table.n_classes
        while self._cache_size > self._cache_limit and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self._cache_size -= old.n_classes

    def clear_cache(self) -> None:
        self._cache.clear()
        self._cache_size = 0

    def record_classes(self, qi_codes: np.ndarray, levels: Sequence[int]) -> np.ndarray:
        """For each record, the position of its class in the node's (sorted) class table."""
        keys = np.zeros(qi_codes.shape[0], dtype=np.int64)
        for j, h in enumerate(self.hierarchies):
            g = h.group_of_leaf(int(levels[j])).astype(np.int64)
            keys += g[qi_codes[:, j]] * self.key_radix[j]
        node = self.lattice.index(levels)
        return np.searchsorted(self.table(node, cache=False).keys, keys)
