"""The utility of a generalized table release: information loss, suppression, distributions.

Per quasi-identifier the loss of each released cell (Iyengar's LM for hierarchies, NCP for
ranges), suppressed rows, the total-variation distance of each sensitive column, and the
utility finding and report blocks built from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl

from privlab.audit.findings import Finding, _and, _pct
from privlab.report import Section
from privlab.table.attacks._match import range_bounds
from privlab.table.hierarchy import Hierarchy
from privlab.table.suppression import suppressed_records


def _label_losses(
    labels: list[str],
    col: str,
    orig: pl.DataFrame,
    hier: Mapping[str, Hierarchy],
    num: Sequence[str],
    suppressed: str | None,
) -> dict[str, float]:
    """Loss in [0, 1] of each distinct released label (Iyengar's LM / NCP for ranges); the
    ``suppressed`` value loses everything."""
    out: dict[str, float] = {}
    if col in hier:
        h = hier[col]
        n = max(h.n_leaves - 1, 1)
        best: dict[str, int] = {}
        for level in range(h.height + 1):
            for lab, size in zip(
                h.group_labels(level).astype(str).tolist(),
                h.leaves_per_group(level).tolist(),
                strict=True,
            ):
                best[lab] = min(best.get(lab, size), size)
        for u in labels:
            out[u] = 1.0 if u == suppressed else (best.get(u, h.n_leaves) - 1) / n
    elif col in num:
        vals = orig[col].cast(pl.Float64, strict=False).drop_nulls()
        span = float(vals.max() - vals.min()) if vals.len() else 0.0
        for u in labels:
            lo, hi = range_bounds(u) or (0.0, 0.0)
            out[u] = 1.0 if u == suppressed else ((hi - lo) / span if span > 0 else 0.0)
    else:
        for u in labels:
            out[u] = 1.0 if u == suppressed else 0.0
    return out


def _table_utility(
    rel: pl.DataFrame,
    orig: pl.DataFrame,
    qi: Sequence[str],
    sens: Sequence[str],
    hier: Mapping[str, Hierarchy],
    num: Sequence[str],
    suppressed_value: str | None,
) -> dict[str, Any]:
    per: dict[str, Any] = {}
    suppressed_rows = suppressed_records(rel, qi, suppressed_value)
    for c in qi:
        col = rel[c].cast(pl.String).fill_null("")
        losses = _label_losses(col.unique().to_list(), c, orig, hier, num, suppressed_value)
        cell = col.replace_strict(losses, return_dtype=pl.Float64).to_numpy()
        levels = None
        if c in hier:
            h = hier[c]
            used = set(col.unique().to_list()) - {suppressed_value}
            levels = [
                lv
                for lv in range(h.height + 1)
                if used <= set(h.group_labels(lv).astype(str).tolist())
            ]
        per[c] = {
            "loss": float(cell.mean()) if cell.size else 0.0,
            "distinct_original": orig[c].n_unique(),
            "distinct_release": col.n_unique(),
            "generalized_cells": float((cell > 0).mean()) if cell.size else 0.0,
            "measure": "hierarchy (LM)" if c in hier else "range (NCP)" if c in num else "exact",
            "levels": levels,
        }
    sensitive = {}
    for s in sens:
        sensitive[s] = {"total_variation": _tv(orig[s], rel[s])}
    return {
        "qi": per,
        "loss": float(np.mean([p["loss"] for p in per.values()])) if per else 0.0,
        "suppressed_rows": int(suppressed_rows.sum()),
        "suppressed_fraction": float(suppressed_rows.mean()) if rel.height else 0.0,
        "rows_original": orig.height,
        "rows_release": rel.height,
        "sensitive": sensitive,
    }


def _tv(a: pl.Series, b: pl.Series) -> float:
    """Total-variation distance between the value distributions of two columns."""
    pa = a.cast(pl.String).value_counts(normalize=True, name="p")
    pb = b.cast(pl.String).value_counts(normalize=True, name="q")
    j = pa.rename({a.name: "v"}).join(pb.rename({b.name: "v"}), on="v", how="full", coalesce=True)
    j = j.fill_null(0.0)
    return float(0.5 * (j["p"] - j["q"]).abs().sum())


def _utility_finding_table(util: dict[str, Any], qi: Sequence[str]) -> Finding:
    worst = max(qi, key=lambda c: util["qi"][c]["loss"])
    text = (
        f"The quasi-identifiers lost {_pct(util['loss'])} of their detail on average "
        f"(0 % = exact, 100 % = fully suppressed); the most generalized is {worst} "
        f"({_pct(util['qi'][worst]['loss'])}). {_pct(util['suppressed_fraction'])} of the rows "
        "are fully suppressed."
    )
    changed = [s for s, d in util["sensitive"].items() if d["total_variation"] > 1e-12]
    if changed:
        text += f" The distribution of {_and(changed)} changed."
    numbers = {
        "loss": util["loss"],
        "suppressed_fraction": util["suppressed_fraction"],
        **{f"loss:{c}": util["qi"][c]["loss"] for c in qi},
    }
    return Finding("utility", "Utility", "info", text, numbers)


def _utility_blocks_table(
    sec: Section, util: dict[str, Any], qi: Sequence[str], hier: Mapping[str, Hierarchy], num
) -> None:
    sec.add_text(
        "Per quasi-identifier, the information loss of each released cell, averaged over the "
        "rows: for a column with a hierarchy, Iyengar's loss metric (LM) — (leaves under the "
        "released label − 1) / (leaves − 1); for a column released as ranges, the normalized "
        "range width (NCP); `*` costs 1 and an exact value 0. The sensitive columns are "
        "compared by the total-variation distance of their value distributions."
    )
    rows = []
    for c in qi:
        d = util["qi"][c]
        rows.append(
            {
                "column": c,
                "measure": d["measure"],
                "loss": d["loss"],
                "generalized cells": d["generalized_cells"],
                "distinct (original)": d["distinct_original"],
                "distinct (release)": d["distinct_release"],
                "levels": "" if d["levels"] is None else ", ".join(map(str, d["levels"])),
            }
        )
    sec.add_table(rows, "Information loss per quasi-identifier (levels: hierarchy levels "
                  "consistent with every released label).")  # fmt: skip
    sec.add_table(
        [
            {
                "rows (original)": util["rows_original"],
                "rows (release)": util["rows_release"],
                "suppressed rows": util["suppressed_rows"],
                "mean loss": util["loss"],
            }
        ],
        "Rows and suppression.",
    )
    if util["sensitive"]:
        sec.add_table(
            [
                {"column": s, "total variation": d["total_variation"]}
                for s, d in util["sensitive"].items()
            ],
            "Sensitive columns: distance between the original and released distributions.",
        )
