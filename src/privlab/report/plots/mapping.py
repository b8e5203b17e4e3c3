"""Mapping-attack bars: correct against wrong matches per attack (Sharad's Table 5.9 view).

:func:`correct_wrong_bars` draws, for each attack, a green bar of its correct matches and a
red bar of its wrong ones side by side (mean over seeds, ± one standard deviation), so
attacks of equal coverage but different accuracy are told apart at a glance (seed 004
§3.5: SecGraph's attacks map everything, so their accuracy equals their coverage).
:func:`mapping_families` finds the attacks in a list of metric names.  O(attacks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from privlab.errors import InputError
from privlab.report.plots.figure import _axes, _legend, _style

#: The outputs of a mapping attack ``a``: ``a_correct``, ``a_wrong`` and, optionally, ``a_coverage``
#: and ``a_accuracy``.
MAPPING_SUFFIXES = ("_correct", "_wrong", "_coverage", "_accuracy")
#: Bar labels that are not the prefix in capitals.
ATTACK_NAMES = {"threepsl": "3PSL"}


def mapping_families(metrics: Sequence[str]) -> list[str]:
    """Attack prefixes ``a`` with both ``a_correct`` and ``a_wrong`` among ``metrics``, in order."""
    names = set(metrics)
    out = []
    for m in metrics:
        if m.endswith("_correct"):
            a = m[: -len("_correct")]
            if a and f"{a}_wrong" in names and a not in out:
                out.append(a)
    return out


def correct_wrong_bars(
    stats: Mapping[str, tuple[float, float, float, float]],
    *,
    title: str = "",
    y_label: str = "matched pairs",
    ax: Axes | None = None,
) -> Figure:
    """Grouped bars: ``stats[attack] = (correct mean, correct sd, wrong mean, wrong sd)``.

    Standard deviations may be NaN (one seed: no error bar).  InputError for no attack or a
    negative or non-finite mean.
    """
    if not stats:
        raise InputError("correct_wrong_bars: no attack to draw")
    names = list(stats)
    vals = np.array([stats[a] for a in names], dtype=float).reshape(len(names), 4)
    means = vals[:, [0, 2]]
    if not np.isfinite(means).all() or (means < 0).any():
        raise InputError("correct_wrong_bars: counts must be finite and ≥ 0")
    sds = np.nan_to_num(vals[:, [1, 3]], nan=0.0)
    fig, ax = _axes(ax, width=max(4.0, 1.1 * len(names) + 1.5))
    x = np.arange(len(names))
    w = 0.38
    for k, (label, color) in enumerate((("correct", "tab:green"), ("wrong", "tab:red"))):
        err: Any = sds[:, k] if sds[:, k].any() else None
        ax.bar(x + (k - 0.5) * w, means[:, k], w, yerr=err, capsize=3, color=color,
               label=label)  # fmt: skip
    ax.set_xticks(x, [ATTACK_NAMES.get(a, a.upper()) for a in names])
    _style(ax, "attack", y_label, title)
    _legend(ax)
    return fig
