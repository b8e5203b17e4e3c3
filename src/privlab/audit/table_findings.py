"""The privacy findings of a table audit and their report blocks.

Re-identification (linkage singling out, prosecutor risk) and sensitive-value disclosure
(homogeneity, background knowledge), each as a :class:`~privlab.audit.findings.Finding` and as
the tables and figures of its report section.  Shared by generalized-table and permutation
audits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from privlab.audit.findings import Finding, Thresholds, _and, _pct
from privlab.report import Section, plots
from privlab.table.attacks.linkage import BUCKETS as LINKAGE_BUCKETS


def _linkage_finding(ld: dict[str, Any], qi: Sequence[str], th: Thresholds, *, exact_qis: bool):
    rate = ld["reidentification_rate"]
    n = ld["records"]
    singled = round(rate * n)
    text = (
        f"{_pct(rate)} of the people in the original ({singled} of {n}) can be singled out "
        f"in the release by someone who knows their {_and(list(qi))}."
    )
    text += (
        f" On average a guess among the matching rows is right with probability "
        f"{ld['expected_success']:.3g}."
    )
    if exact_qis:
        text += (
            " A permutation release publishes the quasi-identifiers exactly, so finding a "
            "person's row is expected; the protection is on the sensitive value."
        )
    if ld["matched"] < n:
        text += (
            f" {n - ld['matched']} original records match no released row (dropped from the "
            "release)."
        )
    numbers = {
        "reidentification_rate": rate,
        "singled_out": singled,
        "records": n,
        "expected_success": ld["expected_success"],
        "unmatched": n - ld["matched"],
    }
    return Finding("linkage", "Singling out by linkage", th.singled_out(rate), text, numbers)


def _risk_finding(rd: dict[str, Any], th: Thresholds) -> Finding:
    hi = rd["prosecutor_highest_risk"]
    text = (
        f"The smallest group of look-alike records in the release has {rd['smallest_class']} "
        f"record(s), so the highest re-identification risk is {hi:.3g} (average "
        f"{rd['prosecutor_average_risk']:.3g}); {_pct(rd['prosecutor_records_at_risk'])} of "
        f"the records are at a risk above {rd['threshold']:g}."
    )
    if rd["suppressed"]:
        text += f" {rd['suppressed']} records are fully suppressed and not counted."
    if rd["journalist_model"] != "sample (no population information)":
        text += (
            f" Journalist risk (the person is drawn from the population): highest "
            f"{rd['journalist_highest_risk']:.3g}, average {rd['journalist_average_risk']:.3g}."
        )
    numbers = {
        k: rd[k]
        for k in (
            "records", "suppressed", "classes", "smallest_class", "prosecutor_highest_risk",
            "prosecutor_average_risk", "prosecutor_records_at_risk", "journalist_model",
            "journalist_highest_risk", "journalist_average_risk", "marketer_risk",
            "sample_uniques_fraction",
        )
    }  # fmt: skip
    return Finding("risk", "Re-identification risk", th.risk(hi), text, numbers)


def _disclosure_findings(
    s: str,
    hd: dict[str, Any],
    bg: Any,
    tau: float,
    rule_out: int,
    th: Thresholds,
    unit: str,
) -> list[Finding]:
    rate = hd["disclosure_rate"]
    sure = "with certainty" if tau >= 1 else f"with probability ≥ {tau:g}"
    text = (
        f"For {_pct(rate)} of the people an adversary who finds their {unit} learns their "
        f"{s} {sure}; on average the most likely value has probability "
        f"{hd['mean_max_posterior']:.3g} (highest {hd['max_max_posterior']:.3g})."
    )
    out = [
        Finding(
            f"homogeneity:{s}",
            f"Disclosure of {s}",
            th.disclosure(rate),
            text,
            {
                "disclosure_rate": rate,
                "homogeneity_rate": hd["homogeneity_rate"],
                "mean_max_posterior": hd["mean_max_posterior"],
                "max_max_posterior": hd["max_max_posterior"],
                "tau": tau,
            },
        )
    ]
    if bg is not None:
        bd = bg.to_dict()
        r2 = bd["disclosure_rate"]
        sev = th.disclosure(r2)
        sev = "medium" if sev == "high" else sev
        text = (
            f"If the adversary can also rule out {rule_out} wrong value(s) for each person "
            f"(background knowledge), {s} is disclosed for {_pct(r2)} of the people."
        )
        out.append(
            Finding(
                f"background:{s}",
                f"Disclosure of {s} with background knowledge",
                sev,
                text,
                {"disclosure_rate": r2, "rule_out": rule_out, "tau": tau},
            )
        )
    return out


def _identity_blocks(
    sec: Section,
    link: Any,
    ld: dict[str, Any],
    rd: dict[str, Any],
    base: dict[str, Any],
    qi: Sequence[str],
    rel: pl.DataFrame,
) -> None:
    sec.add_text(
        f"Adversary: knows the exact {_and(list(qi))} of every person in the original "
        f"({ld['records']} records) and looks them up in the release ({rel.height} rows)."
    )
    sec.add_table(
        [{"candidate rows": name, "people": ld["buckets"][name]} for name, *_ in LINKAGE_BUCKETS],
        "How many released rows each person's quasi-identifiers match (1 = singled out).",
    )
    rows = []
    for label, d in (("original (no protection)", base), ("release", rd)):
        rows.append(
            {
                "table": label,
                "records": d["records"],
                "suppressed": d["suppressed"],
                "classes": d["classes"],
                "smallest class": d["smallest_class"],
                "highest risk": d["prosecutor_highest_risk"],
                "average risk": d["prosecutor_average_risk"],
                "records at risk": d["prosecutor_records_at_risk"],
                "marketer risk": d["marketer_risk"],
            }
        )
    sec.add_table(rows, f"Prosecutor risk (records at risk: risk above {rd['threshold']:g}).")
    # each person of the original is in a class of size f: f people per class of the histogram
    hist = base["class_size_histogram"]
    f = np.array([int(size) for size in hist], dtype=np.int64)
    sizes = {
        "original": np.repeat(f, f * np.array(list(hist.values()), dtype=np.int64)),
        "release": np.maximum(link.candidates, 1),
    }
    sec.add_figure(
        plots.risk_histograms({k: 1.0 / v for k, v in sizes.items()}),
        "Per-person re-identification risk (1 / number of matching rows): the original "
        "itself against the release.",
    )


def _disclosure_blocks(
    sec: Section, s: str, hom: Any, bg: Any, tau: float, rule_out: int, unit: str
) -> None:
    hd = hom.to_dict()
    rows = [
        {
            "adversary": f"knows the {unit}",
            "disclosed": hd["disclosure_rate"],
            "homogeneous": hd["homogeneity_rate"],
            "mean max posterior": hd["mean_max_posterior"],
            "highest posterior": hd["max_max_posterior"],
        }
    ]
    if bg is not None:
        bd = bg.to_dict()
        rows.append(
            {
                "adversary": f"… and rules out {rule_out} value(s)",
                "disclosed": bd["disclosure_rate"],
                "homogeneous": bd["homogeneity_rate"],
                "mean max posterior": bd["mean_max_posterior"],
                "highest posterior": bd["max_max_posterior"],
            }
        )
    sec.add_table(rows, f"Sensitive attribute {s}: disclosure at posterior ≥ {tau:g}.")
    curves = {f"knows the {unit}": hom.max_posterior}
    if bg is not None:
        curves[f"rules out {rule_out}"] = bg.max_posterior
    sec.add_figure(
        plots.risk_histograms(curves, x_label=f"adversary's confidence in the most likely {s}"),
        f"How sure the adversary is of each person's {s}.",
    )
