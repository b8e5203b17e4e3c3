"""Full-domain generalization search: globally optimal, exhaustive reference, Datafly.

**Optimal search.**  Nodes are visited best-first by a static lower bound of the metric
(``Metric.lower_bounds``; ties by height).  A node whose bound exceeds the best value found
so far is never better, nor is any later node, so the search stops there.  When whether a
node satisfies the models within the suppression limit is monotone over the lattice, each
check *tags* the whole up-set (satisfied) or down-set (violated).  An unknown node is then
resolved by a binary search on a chain of unknown generalizations starting at it — Flash's
strategy (Kohlmayer et al. 2012), which tags large parts of the lattice with few checks.

Monotonicity (:attr:`Problem.monotone`): every model is union-closed (two classes that
satisfy it still do once merged), so without suppression anonymity is monotone.  With a
suppression limit it is monotone only if a class merged with a *passing* class always passes
too — true for k-anonymity, distinct ℓ-diversity and (k,e)-anonymity, false for entropy and
recursive ℓ-diversity, t-closeness and δ-disclosure (a small diverse class merged with a big
homogeneous one fails, so generalizing can suppress *more* records), as ARX's
``isMonotonicWithSuppression`` also records.  For those, no node is tagged and every node
whose bound can still beat the best is checked — except the specializations of a node
where the monotone models alone already exceed the limit (as ARX separates monotone and
non-monotone criteria).  The result equals exhaustive search
(property-tested); ties go to the lowest height, then the lowest lattice index.

Every class table is rolled up from the smallest cached specialization
(:class:`privlab.table.lattice.Groupify`).  Worst case: every node checked, O(nodes × m log m).

**Datafly** (Sweeney 2002): generalize the quasi-identifier with the most distinct values
until the suppression limit holds — greedy, fast and usually far from optimal.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from privlab.errors import ConfigError, InfeasibleError
from privlab.progress import ProgressFn
from privlab.table.data import MicroTable
from privlab.table.lattice import ClassTable, Groupify
from privlab.table.metrics import Loss, Metric
from privlab.table.models import KAnonymity, PrivacyModel, bind_models


@dataclass
class NodeCheck:
    """Outcome of evaluating one transformation."""

    node: int
    table: ClassTable
    kept: np.ndarray
    suppressed: int
    anonymous: bool
    #: The models that are monotone with suppression already exceed the limit here, so
    #: every specialization violates too (whatever the other models say).
    monotone_part_violated: bool = False


class Problem:
    """A table, its privacy models, a suppression limit and a metric, ready to search.

    ``suppression_limit`` is the fraction of records that may be suppressed; the absolute
    number allowed is ``floor(limit × N)``.
    """

    def __init__(
        self,
        table: MicroTable,
        models: Sequence[PrivacyModel],
        *,
        suppression_limit: float = 0.0,
        metric: Metric | None = None,
    ) -> None:
        if not models:
            raise ConfigError("no privacy model given; add at least k-anonymity (-k K)")
        try:
            limit = float(suppression_limit)
        except (TypeError, ValueError):
            raise ConfigError(
                f"suppression limit must be a number, got {suppression_limit!r}"
            ) from None
        if not 0.0 <= limit <= 1.0:
            raise ConfigError(
                f"suppression limit must be a fraction in [0, 1] (0.02 = 2 %), got {limit}"
            )
        self.table = table
        self.models = list(models)
        self.suppression_limit = limit
        # ARX: (int) Math.floor(relMaxOutliers × N), no epsilon (ARXConfiguration); 0.29 × 100
        # floors to 28 in floating point, so we do the same to release what ARX releases.
        self.max_suppressed = math.floor(limit * table.n_rows)
        sensitive = bind_models(self.models, table.sa_codes, table.sa_values, table.n_rows)
        self.sensitive = sensitive
        self.groupify = Groupify(
            [table.hierarchies[c] for c in table.qi],
            table.qi_codes,
            [table.sa_codes[s] for s in sensitive],
            [table.sa_values[s].size for s in sensitive],
        )
        self.lattice = self.groupify.lattice
        self._hist_index = {s: i for i, s in enumerate(sensitive)}
        self.metric = metric if metric is not None else Loss()
        self.metric.bind(self.groupify)
        self.checks = 0

    @property
    def monotone(self) -> bool:
        """Whether "satisfies the models within the suppression limit" is monotone (see above)."""
        return self.max_suppressed == 0 or all(m.monotone_with_suppression for m in self.models)

    def check(self, node: int) -> NodeCheck:
        """Evaluate node: which classes satisfy all models, how many records are suppressed."""
        t = self.groupify.table(node)
        kept = np.ones(t.n_classes, dtype=bool)
        # monotone models first: if they alone exceed the limit, the node's down-set violates
        part_violated = False
        for monotone_pass in (True, False):
            for m in self.models:
                if m.monotone_with_suppression is monotone_pass:
                    hist = t.sa_hist[self._hist_index[m.sensitive]] if m.sensitive else None
                    kept &= m.class_ok(t.counts, hist)
            if monotone_pass:
                part_violated = int(t.counts[~kept].sum()) > self.max_suppressed
        suppressed = int(t.counts[~kept].sum())
        self.checks += 1
        return NodeCheck(
            node, t, kept, suppressed, suppressed <= self.max_suppressed, part_violated
        )

    def levels_of(self, node: int) -> dict[str, int]:
        return {c: int(v) for c, v in zip(self.table.qi, self.lattice.levels[node], strict=True)}


@dataclass
class SearchResult:
    """The chosen transformation and its figures."""

    levels: dict[str, int]
    node: int
    metric: str
    value: float
    suppressed: int
    n_classes: int
    n_records: int
    algorithm: str
    nodes_checked: int
    lattice_size: int
    seconds: float
    models: list[str] = field(default_factory=list)
    # what the search knew of every node at the end, in lattice index order: 1 anonymous,
    # -1 not anonymous, 0 unknown (pruned); and which nodes it evaluated
    node_status: np.ndarray | None = field(default=None, repr=False, compare=False)
    nodes_evaluated: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "algorithm": self.algorithm,
            "levels": self.levels,
            "metric": self.metric,
            "value": self.value,
            "suppressed": self.suppressed,
            "equivalence_classes": self.n_classes,
            "records": self.n_records,
            "models": self.models,
            "nodes_checked": self.nodes_checked,
            "lattice_size": self.lattice_size,
            "seconds": self.seconds,
        }


def _result(
    problem: Problem,
    check: NodeCheck,
    value: float,
    algorithm: str,
    t0: float,
    status: np.ndarray | None = None,
    evaluated: np.ndarray | None = None,
) -> SearchResult:
    return SearchResult(
        levels=problem.levels_of(check.node),
        node=check.node,
        metric=problem.metric.name,
        value=float(value),
        suppressed=check.suppressed,
        n_classes=int(check.kept.sum()),
        n_records=problem.table.n_rows,
        algorithm=algorithm,
        nodes_checked=problem.checks,
        lattice_size=problem.lattice.n_nodes,
        seconds=time.perf_counter() - t0,
        models=[m.describe() for m in problem.models],
        node_status=status,
        nodes_evaluated=evaluated,
    )


def _better(
    value: float, node: int, best_value: float, best_node: int | None, height: np.ndarray
) -> bool:
    if best_node is None or value < best_value:
        return True
    if value > best_value:
        return False
    return (int(height[node]), node) < (int(height[best_node]), best_node)


def _infeasible(problem: Problem) -> InfeasibleError:
    top = problem.check(problem.lattice.top)
    return InfeasibleError(
        f"no transformation satisfies {', '.join(m.describe() for m in problem.models)} "
        f"within the suppression limit ({problem.max_suppressed} records): even full "
        f"generalization suppresses {top.suppressed}; raise the suppression limit or relax "
        "the models"
    )


def optimal_search(problem: Problem, *, progress: ProgressFn | None = None) -> SearchResult:
    """Globally optimal transformation (see module docstring)."""
    t0 = time.perf_counter()
    lat = problem.lattice
    n = lat.n_nodes
    status = np.zeros(n, dtype=np.int8)  # 0 unknown, 1 satisfies, -1 violates
    evaluated = np.zeros(n, dtype=bool)
    lb = problem.metric.lower_bounds()
    if lb is None:
        lb = np.full(n, -np.inf)
    order = np.lexsort((np.arange(n), lat.level_sum, lb))
    checks: dict[int, NodeCheck] = {}
    values: dict[int, float] = {}

    monotone = problem.monotone

    def check(node: int) -> bool:
        c = problem.check(node)
        evaluated[node] = True
        if c.anonymous:
            if monotone:
                status[lat.up_set(node) & (status == 0)] = 1
            checks[node] = c
            values[node] = problem.metric.value(c.table, c.kept)
        elif monotone or c.monotone_part_violated:
            status[lat.down_set(node) & (status == 0)] = -1
        status[node] = 1 if c.anonymous else -1
        return c.anonymous

    def resolve(node: int) -> None:
        path = [node]
        while True:
            nxt = [s for s in lat.successors(path[-1]) if status[s] == 0]
            if not nxt:
                break
            path.append(min(nxt, key=lambda s: (lb[s], s)))
        lo, hi = 0, len(path) - 1
        while lo <= hi:
            mid = (lo + hi) // 2
            st = status[path[mid]]
            anonymous = check(path[mid]) if st == 0 else st == 1
            if anonymous:
                hi = mid - 1
            else:
                lo = mid + 1

    best_node: int | None = None
    best_value = math.inf
    for done, node in enumerate(order.tolist(), start=1):
        if best_node is not None and lb[node] > best_value + 1e-9 * max(1.0, abs(best_value)):
            break
        checked = status[node] == 0 or (status[node] == 1 and node not in values)
        if status[node] == 0:
            if monotone:
                resolve(node)
            else:
                check(node)
        if status[node] == 1:
            if node not in values:
                c = problem.check(node)
                evaluated[node] = True
                checks[node], values[node] = c, problem.metric.value(c.table, c.kept)
            if _better(values[node], node, best_value, best_node, lat.level_sum):
                best_node, best_value = node, values[node]
        if progress is not None and (checked or done % 64 == 0):  # a check may take long
            progress(done, n)
    if progress is not None:
        progress(n, n)
    if best_node is None:
        raise _infeasible(problem)
    return _result(problem, checks[best_node], best_value, "optimal", t0, status, evaluated)


def exhaustive_search(problem: Problem) -> SearchResult:
    """Check every node; the reference the optimal search is tested against.  O(nodes × m)."""
    t0 = time.perf_counter()
    best: tuple[NodeCheck, float] | None = None
    status = np.full(problem.lattice.n_nodes, -1, dtype=np.int8)
    for node in range(problem.lattice.n_nodes):
        c = problem.check(node)
        if not c.anonymous:
            continue
        status[node] = 1
        v = problem.metric.value(c.table, c.kept)
        if best is None or _better(v, node, best[1], best[0].node, problem.lattice.level_sum):
            best = (c, v)
    if best is None:
        raise _infeasible(problem)
    evaluated = np.ones(problem.lattice.n_nodes, dtype=bool)
    return _result(problem, best[0], best[1], "exhaustive", t0, status, evaluated)


def datafly_search(problem: Problem, *, progress: ProgressFn | None = None) -> SearchResult:
    """Sweeney's Datafly: raise the QI with most distinct generalized values, one level at a time.

    O(Σ h_j) checks.  Ties go to the first QI in column order.  ``progress(done, total)``
    is called after each check with the levels raised so far out of Σ h_j (the most there
    can be).
    """
    t0 = time.perf_counter()
    lat = problem.lattice
    levels = np.zeros(lat.d, dtype=np.int64)
    most = int(np.sum(lat.heights))
    while True:
        node = lat.index(levels)
        c = problem.check(node)
        if progress is not None:
            progress(int(levels.sum()) if not c.anonymous else most, most)
        if c.anonymous:
            return _result(problem, c, problem.metric.value(c.table, c.kept), "datafly", t0)
        candidates = [j for j in range(lat.d) if levels[j] < lat.heights[j]]
        if not candidates:
            raise _infeasible(problem)
        distinct = [np.unique(problem.groupify.digits(c.table, j)).size for j in candidates]
        levels[candidates[int(np.argmax(distinct))]] += 1


def k_anonymity(k: int) -> list[PrivacyModel]:
    """Convenience: the model list for plain k-anonymity."""
    return [KAnonymity(k)]
