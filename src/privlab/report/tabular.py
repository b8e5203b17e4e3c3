"""Report sections for tabular anonymization: the lattice and the chosen transformation.

:func:`lattice_status` runs the search on a :class:`~privlab.table.search.Problem` and reads
what it knew of every node (``SearchResult.node_status``): an evaluated node is anonymous or
not; when anonymity is monotone (:attr:`Problem.monotone`) an anonymous node implies its
generalizations and a violating one its specializations (Flash's tagging); when it is not,
only a node where the monotone models alone exceed the limit implies its specializations.
Every other node is *unknown* — the search pruned it by the metric's lower bound.
``exhaustive=True`` checks every node instead (no unknowns; O(nodes × m log m)).

:func:`add_lattice` puts the picture (:func:`privlab.report.plots.lattice_plot`), a summary
and the chosen levels into a report section.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from privlab.report import plots
from privlab.table.search import Problem, SearchResult, exhaustive_search, optimal_search

__all__ = ["LatticeStatus", "add_lattice", "lattice_status"]


@dataclass
class LatticeStatus:
    """What a search knows about every node of the lattice.

    ``status[i]`` is 1 (anonymous), -1 (not anonymous) or 0 (unknown) for node ``i`` in
    lattice index order; ``checked[i]`` says whether the search evaluated node ``i``.
    """

    names: list[str]
    heights: np.ndarray
    status: np.ndarray
    checked: np.ndarray
    result: SearchResult

    @property
    def counts(self) -> pl.DataFrame:
        """Per height: nodes, anonymous, not_anonymous, unknown (:func:`plots.lattice_counts`)."""
        return plots.lattice_counts(self.heights, self.status)

    @property
    def n_nodes(self) -> int:
        return int(self.status.size)


def lattice_status(problem: Problem, *, exhaustive: bool = False) -> LatticeStatus:
    """Run the optimal (or exhaustive) search on ``problem`` and record the lattice's status.

    Raises :class:`~privlab.errors.InfeasibleError` like the search.
    """
    return _status_of(problem, (exhaustive_search if exhaustive else optimal_search)(problem))


def _status_of(problem: Problem, result: SearchResult) -> LatticeStatus:
    return LatticeStatus(
        names=list(problem.table.qi),
        heights=np.asarray(problem.lattice.heights, dtype=np.int64),
        status=result.node_status,
        checked=result.nodes_evaluated,
        result=result,
    )


def add_lattice(
    section: Any,
    problem: Problem,
    result: Any = None,
    *,
    exhaustive: bool = False,
    max_nodes: int = plots.LATTICE_FULL_MAX_NODES,
    caption: str = "",
) -> LatticeStatus:
    """Append the lattice and the chosen transformation to a report section (or report).

    ``result`` is the chosen transformation — a ``SearchResult`` or a ``Release`` (e.g. from
    Datafly); by default the optimum of the search.  Adds a short summary, the figure
    (Hasse diagram up to ``max_nodes`` nodes, compact view above) and a table of the chosen
    level per quasi-identifier.  Returns the :class:`LatticeStatus` drawn.
    """
    given = getattr(result, "result", result)
    if (isinstance(given, SearchResult) and given.node_status is not None
            and given.algorithm == ("exhaustive" if exhaustive else "optimal")):  # fmt: skip
        st = _status_of(problem, given)  # the caller's search already knows the lattice
    else:
        st = lattice_status(problem, exhaustive=exhaustive)
    chosen: SearchResult = given or st.result
    n_anon = int((st.status == 1).sum())
    n_not = int((st.status == -1).sum())
    n_unknown = st.n_nodes - n_anon - n_not
    levels = [int(chosen.levels[c]) for c in st.names]
    text = (
        f"The generalization lattice has **{st.n_nodes:,}** transformations "
        f"({', '.join(st.names)}). The {'exhaustive' if exhaustive else 'optimal'} search "
        f"evaluated {int(st.checked.sum()):,} of them: {n_anon:,} are anonymous, "
        f"{n_not:,} are not, and {n_unknown:,} are unknown (pruned). The chosen "
        f"transformation ({chosen.algorithm}) has levels "
        f"{plots.lattice_optimum_label(levels)} with {chosen.metric} = "
        f"{chosen.value:.4g}, {chosen.suppressed:,} records suppressed and "
        f"{chosen.n_classes:,} equivalence classes."
    )
    if chosen.node != st.result.node:
        text += (
            f" The optimum is {plots.lattice_optimum_label(list(st.result.levels.values()))}"
            f" with {st.result.metric} = {st.result.value:.4g}."
        )
    section.add_text(text)
    fig = plots.lattice_plot(
        st.heights,
        st.status,
        chosen.node,
        names=st.names,
        value=chosen.value,
        metric=chosen.metric,
        max_nodes=max_nodes,
    )
    kind = "Hasse diagram" if st.n_nodes <= max_nodes else "transformations per height"
    section.add_figure(
        fig,
        caption
        or f"Generalization lattice ({kind}): anonymous, not anonymous and unknown "
        "transformations, and the chosen one.",
    )
    section.add_table(
        pl.DataFrame(
            {
                "quasi-identifier": st.names,
                "level": levels,
                "hierarchy height": [int(h) for h in st.heights],
            }
        ),
        "The chosen transformation: generalization level per quasi-identifier.",
    )
    return st
