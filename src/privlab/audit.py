"""Audit a release against its original: every attack that applies, utility, a report.

``audit_table`` audits a generalized table (full-domain, Mondrian, or any frame of released
labels) or a permutation / Anatomy release; ``audit_graph`` audits a released graph.  Each
returns an :class:`AuditResult`: a list of :class:`Finding` (severity, one plain-language
sentence, the numbers behind it), the raw attack summaries, and a
:class:`~privlab.report.Report` ready to :meth:`~privlab.report.Report.write`.

The audit composes the library's attacks and metrics; it adds no attack of its own.  The
owner's original is used as the adversary's background knowledge (exact quasi-identifiers,
the original graph's structure) and as ground truth for scoring.  Severity levels and their
thresholds are :class:`Thresholds` (documented in ``docs/audit.md``).  Algorithms here never
print and never read files: ``privlab audit`` (:mod:`privlab.cli.audit`) does that.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.refinement import (
    BUCKET_LABELS,
    perturbation_h1_risk,
    release_candidate_sizes,
    vertex_refinement,
)
from privlab.graph.attacks.subgraph import SubgraphMatcher, gather_edge_facts
from privlab.graph.core import Graph
from privlab.graph.utility import compare
from privlab.report import Report, Section, plots
from privlab.table.attacks import homogeneity_attack, linkage_attack, permutation_inference
from privlab.table.attacks.linkage import BUCKETS as LINKAGE_BUCKETS
from privlab.table.data import to_polars
from privlab.table.hierarchy import Hierarchy
from privlab.table.permutation import PermutationRelease
from privlab.table.risk import risk_of_frame

__all__ = [
    "SEVERITIES",
    "AuditResult",
    "Finding",
    "Thresholds",
    "audit_graph",
    "audit_table",
    "edge_overlap",
]

#: Severity levels, most severe first.
SEVERITIES: tuple[str, ...] = ("high", "medium", "low", "info")
SUPPRESSED = "*"
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_RANGE = re.compile(rf"^\s*({_NUM})\s*-\s*({_NUM})\s*$")
_SINGLE = re.compile(rf"^\s*({_NUM})\s*$")


# ============================================================================ results
@dataclass(frozen=True)
class Thresholds:
    """When a finding is high, medium or low (see ``docs/audit.md``).

    * *Singling out* (linkage re-identification, unique candidate sets in graphs): **high**
      when at least ``singled_out_high`` of the people can be singled out, **medium** when
      anyone can, else **low**.
    * *Prosecutor risk* (1 / size of a person's class): **high** when the highest risk is
      above ``risk_high``, **medium** above ``risk_medium``, else **low**.
    * *Attribute disclosure* (the sensitive value follows with posterior ≥ τ): **high** when at
      least ``disclosure_high`` of the people are disclosed, **medium** when anyone is.
    * Background knowledge (``rule_out`` values ruled out) is capped at **medium**: it assumes
      an adversary who knows ``rule_out`` true negative facts about every target.
    * Utility findings are **info**.
    """

    singled_out_high: float = 0.01
    risk_high: float = 0.5
    risk_medium: float = 0.2
    disclosure_high: float = 0.05

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value <= 1:
                raise ConfigError(f"thresholds: {name} = {value!r} must be a number in (0, 1]")
        if self.risk_medium > self.risk_high:
            raise ConfigError("thresholds: risk_medium must not exceed risk_high")

    def singled_out(self, rate: float) -> str:
        """Severity of a fraction of people singled out."""
        return "high" if rate >= self.singled_out_high else "medium" if rate > 0 else "low"

    def risk(self, highest: float) -> str:
        """Severity of the highest prosecutor risk."""
        return (
            "high"
            if highest > self.risk_high
            else "medium"
            if highest > self.risk_medium
            else "low"
        )

    def disclosure(self, rate: float) -> str:
        """Severity of a fraction of people whose sensitive value is disclosed."""
        return "high" if rate >= self.disclosure_high else "medium" if rate > 0 else "low"


@dataclass(frozen=True)
class Finding:
    """One result of an audit: a severity, one plain-language sentence, its numbers.

    ``key`` names the check (``"linkage"``, ``"homogeneity:disease"``, ``"refinement:H1"``
    ...); ``numbers`` are the figures the sentence quotes (fractions in [0, 1]).
    """

    key: str
    title: str
    severity: str
    text: str
    numbers: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "severity": self.severity,
            "text": self.text,
            "numbers": self.numbers,
        }


@dataclass
class AuditResult:
    """Findings, raw attack summaries (``details``) and the HTML :class:`Report`.

    ``kind`` is ``"table"``, ``"permutation"`` or ``"graph"``.
    """

    kind: str
    findings: list[Finding]
    details: dict[str, Any]
    report: Report
    thresholds: Thresholds = field(default_factory=Thresholds)

    @property
    def severity(self) -> str:
        """The most severe level among the findings (``info`` when none)."""
        levels = {f.severity for f in self.findings}
        return next((s for s in SEVERITIES if s in levels), "info")

    def finding(self, key: str) -> Finding:
        """The finding named ``key`` (KeyError if the audit did not produce it)."""
        for f in self.findings:
            if f.key == key:
                return f
        raise KeyError(key)

    def summary(self) -> str:
        """The plain-language summary: the overall verdict and one line per finding."""
        lines = [_verdict(self.severity)]
        for f in self.findings:
            lines.append(f"[{f.severity}] {f.title}: {f.text}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "summary": _verdict(self.severity),
            "findings": [f.to_dict() for f in self.findings],
            "thresholds": asdict(self.thresholds),
            "details": self.details,
        }


def _verdict(severity: str) -> str:
    return {
        "high": "Overall: HIGH risk — do not publish this release as it is.",
        "medium": "Overall: MEDIUM risk — some people are exposed; review the findings.",
        "low": "Overall: LOW risk under the attacks tried (which is not a proof of safety).",
        "info": "Overall: no attack applied; only utility was measured.",
    }[severity]


def _pct(x: float) -> str:
    """A fraction as a percentage a person reads easily: 0.031 → '3.1 %'."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    p = 100.0 * float(x)
    if p == 0:
        return "0 %"
    if p < 0.1:
        return "< 0.1 %"
    return f"{p:.3g} %" if p < 99.95 or p == 100 else "> 99.9 %"


def _and(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _summary_section(report: Report, findings: list[Finding], severity: str) -> None:
    """Put the summary first: the verdict, then one bullet per finding."""
    sec = Section("Summary")
    sec.add_text(f"**{_verdict(severity)}**")
    sec.add_text("\n".join(f"- **{f.severity.upper()}** — {f.title}: {f.text}" for f in findings))
    sec.add_table(
        [{"check": f.title, "severity": f.severity, "finding": f.text} for f in findings],
        "Findings and their severity (thresholds: see 'How to read this report').",
    )
    report.sections.insert(0, sec)


def _method_section(report: Report, th: Thresholds, extra: str) -> None:
    sec = report.add_section("How to read this report")
    sec.add_text(
        "Each check runs an attack against the release, using the original as what an "
        "adversary could know, and scores it with the original as the truth. Severities:\n\n"
        f"- singling out: **high** if ≥ {_pct(th.singled_out_high)} of the people can be "
        "singled out, **medium** if anyone can, **low** otherwise;\n"
        f"- prosecutor risk (1 / size of a person's group): **high** above "
        f"{th.risk_high:g}, **medium** above {th.risk_medium:g}, **low** otherwise;\n"
        f"- sensitive-value disclosure: **high** if ≥ {_pct(th.disclosure_high)} of the "
        "people are disclosed, **medium** if anyone is, **low** otherwise; background "
        "knowledge findings are capped at **medium**;\n"
        "- utility findings are **info**.\n\n"
        "A low severity means the attacks tried here failed; it is not a proof of safety.\n\n"
        + extra
    )


# ============================================================================ tables
def audit_table(
    release: Any,
    original: Any,
    *,
    quasi_identifiers: Sequence[str] | None = None,
    sensitive: Sequence[str] | str | None = None,
    hierarchies: Mapping[str, Hierarchy | str] | None = None,
    numeric: Iterable[str] | None = None,
    tau: float = 1.0,
    rule_out: int = 1,
    sampling_fraction: float | None = None,
    thresholds: Thresholds | None = None,
    title: str = "Release audit",
    meta: Mapping[str, Any] | None = None,
) -> AuditResult:
    """Audit a table release against the original table.

    ``release``: a polars/pandas frame of released labels (an anonymize ``Release`` or a
    ``MondrianResult`` works too) or a :class:`~privlab.table.permutation.PermutationRelease`
    (its QIs and sensitive attribute are taken from it unless given).  ``original``: the
    input frame, with exact QIs and the true sensitive values.

    Checks: linkage re-identification with the original's QIs as the adversary's external
    table; prosecutor / journalist / marketer risk of the released classes (journalist and
    marketer use ``sampling_fraction`` when given, else fall back to the sample); for each
    sensitive column the homogeneity attack (posterior ≥ ``tau``) and background knowledge
    (``rule_out`` values ruled out) — for permutation releases the permutation inference
    instead; utility (per-QI generalization loss, suppression, the sensitive column's
    distribution).  ``hierarchies`` are needed for QIs generalized with a hierarchy; QIs
    released as ranges ``lo-hi`` (Mondrian) are found automatically unless ``numeric`` is
    given.  Raises :class:`InputError` for missing columns or labels that cannot be matched
    (naming the column and an example), :class:`ConfigError` for bad parameters.
    """
    th = thresholds or Thresholds()
    orig, _ = to_polars(original)
    if isinstance(release, PermutationRelease):
        return _audit_permutation(
            release, orig, quasi_identifiers, sensitive, tau, rule_out, sampling_fraction, th,
            title, meta,
        )  # fmt: skip
    from privlab.table.attacks._match import release_frame

    rel, _ = release_frame(release)
    qi = _check_qi(quasi_identifiers, rel, orig)
    sens = _sensitive_list(sensitive)
    for s in sens:
        for name, frame in (("release", rel), ("original", orig)):
            if s not in frame.columns:
                raise InputError(
                    f"{name}: sensitive column {s!r} not found; the columns are {frame.columns}"
                )
        if s in qi:
            raise ConfigError(f"sensitive column {s!r} is also a quasi-identifier")
    hier = _load_hierarchies(hierarchies, qi)
    num = _numeric_columns(rel, orig, qi, hier) if numeric is None else list(numeric)
    _check_labels(rel, orig, qi, hier, num)

    findings: list[Finding] = []
    details: dict[str, Any] = {"records_original": orig.height, "rows_release": rel.height}
    report = Report(title, meta={"kind": "generalized table", **(meta or {})})

    # --- identity: linkage + prosecutor risk
    link = linkage_attack(orig, release, qi, hierarchies=hier, numeric=num)
    ld = link.to_dict()
    details["linkage"] = ld
    risk = risk_of_frame(rel, qi, sampling_fraction=sampling_fraction)
    rd = risk.to_dict()
    details["risk"] = rd
    base = risk_of_frame(orig, qi)
    details["risk_original"] = base.to_dict()
    findings.append(_linkage_finding(ld, qi, th, exact_qis=False))
    findings.append(_risk_finding(rd, th))
    sec = report.add_section("Re-identification")
    _identity_blocks(sec, link, ld, rd, base.to_dict(), qi, rel, orig)

    # --- attribute disclosure
    if sens:
        sec = report.add_section("Sensitive-value disclosure")
        for s in sens:
            hom = homogeneity_attack(rel, qi, s, tau=tau)
            bg = homogeneity_attack(rel, qi, s, tau=tau, rule_out=rule_out) if rule_out else None
            details[f"homogeneity:{s}"] = hom.to_dict()
            if bg is not None:
                details[f"background:{s}"] = bg.to_dict()
            findings += _disclosure_findings(s, hom.to_dict(), bg, tau, rule_out, th, "class")
            _disclosure_blocks(sec, s, hom, bg, tau, rule_out, "equivalence class")

    # --- utility
    util = _table_utility(rel, orig, qi, sens, hier, num)
    details["utility"] = util
    findings.append(_utility_finding_table(util, qi))
    _utility_blocks_table(report.add_section("Utility"), util, qi, hier, num)
    _method_section(
        report, th,
        "Re-identification links every original record to the released rows its exact "
        "quasi-identifiers are covered by (its class, plus suppressed rows); a person is "
        "*singled out* when exactly one row is left. Prosecutor risk assumes the adversary "
        "knows the person is in the release. Disclosure: the adversary locates the person's "
        "class and reads the sensitive values in it.",
    )  # fmt: skip
    result = AuditResult("table", findings, details, report, th)
    _summary_section(report, findings, result.severity)
    return result


def _sensitive_list(sensitive: Sequence[str] | str | None) -> list[str]:
    if sensitive is None:
        return []
    return [sensitive] if isinstance(sensitive, str) else [s for s in sensitive if s]


def _check_qi(qi: Sequence[str] | None, rel: pl.DataFrame, orig: pl.DataFrame) -> list[str]:
    cols = [qi] if isinstance(qi, str) else list(qi or [])
    if not cols:
        raise ConfigError(
            "no quasi-identifiers: name the columns an adversary may know (age, ZIP code...) "
            "with --qi COLUMN"
        )
    for name, frame in (("release", rel), ("original", orig)):
        missing = [c for c in cols if c not in frame.columns]
        if missing:
            raise InputError(
                f"{name}: quasi-identifier column(s) {missing} not found; the columns are "
                f"{frame.columns}"
            )
    return cols


def _load_hierarchies(
    hierarchies: Mapping[str, Hierarchy | str] | None, qi: Sequence[str]
) -> dict[str, Hierarchy]:
    out: dict[str, Hierarchy] = {}
    for col, h in (hierarchies or {}).items():
        if col not in qi:
            continue  # a hierarchy of a non-QI column plays no part here
        out[col] = h if isinstance(h, Hierarchy) else Hierarchy.from_csv(h)
    return out


def _is_number(text: str) -> bool:
    return bool(_SINGLE.match(text))


def _range_of(label: str) -> tuple[float, float] | None:
    if label == SUPPRESSED:
        return -math.inf, math.inf
    m = _RANGE.match(label)
    if m and float(m.group(1)) <= float(m.group(2)):
        return float(m.group(1)), float(m.group(2))
    m = _SINGLE.match(label)
    return (float(m.group(1)),) * 2 if m else None


def _distinct_text(frame: pl.DataFrame, col: str) -> list[str]:
    return frame[col].cast(pl.String).fill_null("").unique().to_list()


def _numeric_columns(
    rel: pl.DataFrame, orig: pl.DataFrame, qi: Sequence[str], hier: Mapping[str, Hierarchy]
) -> list[str]:
    """QIs released as ranges ``lo-hi`` over a numeric original column (Mondrian)."""
    out = []
    for c in qi:
        if c in hier:
            continue
        labels = _distinct_text(rel, c)
        if not all(_range_of(u) is not None for u in labels):
            continue
        if not any(_RANGE.match(u) for u in labels):
            continue
        if all(_is_number(v) for v in _distinct_text(orig, c)):
            out.append(c)
    return out


def _check_labels(
    rel: pl.DataFrame,
    orig: pl.DataFrame,
    qi: Sequence[str],
    hier: Mapping[str, Hierarchy],
    num: Sequence[str],
) -> None:
    """Refuse released labels nobody could match: generalized labels without a hierarchy."""
    for c in qi:
        labels = set(_distinct_text(rel, c)) - {SUPPRESSED}
        if c in hier:
            known = set(hier[c].labels.astype(str).ravel().tolist())
            what = f"labels of the hierarchy {hier[c].source}"
        elif c in num:
            known = {u for u in labels if _range_of(u) is not None}
            what = "numbers or ranges 'lo-hi'"
        else:
            known = set(_distinct_text(orig, c))
            what = "values of the original"
        bad = sorted(labels - known)
        if bad:
            hint = (
                f"give the hierarchy it was generalized with (--hierarchy {c}=FILE)"
                if c not in hier
                else "is it the hierarchy the release was made with?"
            )
            raise InputError(
                f"release, column {c!r}: {len(bad)} released label(s) such as {bad[0]!r} are "
                f"not {what}; {hint}"
            )


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
    orig: pl.DataFrame,
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
    cand = link.candidates
    sizes = {
        "original": _row_class_sizes(orig, qi),
        "release": np.maximum(cand, 1),
    }
    sec.add_figure(
        plots.risk_histograms({k: 1.0 / v for k, v in sizes.items()}),
        "Per-person re-identification risk (1 / number of matching rows): the original "
        "itself against the release.",
    )


def _row_class_sizes(frame: pl.DataFrame, qi: Sequence[str]) -> np.ndarray:
    keys = frame.select([pl.col(c).cast(pl.String).fill_null("\x00") for c in qi])
    return keys.with_columns(pl.len().over(list(qi)).alias("_n"))["_n"].to_numpy()


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


# ---------------------------------------------------------------------------- table utility
def _label_losses(
    labels: list[str],
    col: str,
    orig: pl.DataFrame,
    hier: Mapping[str, Hierarchy],
    num: Sequence[str],
) -> dict[str, float]:
    """Loss in [0, 1] of each distinct released label (Iyengar's LM / NCP for ranges)."""
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
            out[u] = 1.0 if u == SUPPRESSED else (best.get(u, h.n_leaves) - 1) / n
    elif col in num:
        vals = orig[col].cast(pl.Float64, strict=False).drop_nulls()
        span = float(vals.max() - vals.min()) if vals.len() else 0.0
        for u in labels:
            lo, hi = _range_of(u) or (0.0, 0.0)
            out[u] = 1.0 if u == SUPPRESSED else ((hi - lo) / span if span > 0 else 0.0)
    else:
        for u in labels:
            out[u] = 1.0 if u == SUPPRESSED else 0.0
    return out


def _table_utility(
    rel: pl.DataFrame,
    orig: pl.DataFrame,
    qi: Sequence[str],
    sens: Sequence[str],
    hier: Mapping[str, Hierarchy],
    num: Sequence[str],
) -> dict[str, Any]:
    per: dict[str, Any] = {}
    suppressed_rows = np.ones(rel.height, dtype=bool)
    for c in qi:
        col = rel[c].cast(pl.String).fill_null("")
        losses = _label_losses(col.unique().to_list(), c, orig, hier, num)
        cell = col.replace_strict(losses, return_dtype=pl.Float64).to_numpy()
        suppressed_rows &= (col == SUPPRESSED).to_numpy()
        levels = None
        if c in hier:
            h = hier[c]
            used = set(col.unique().to_list()) - {SUPPRESSED}
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


# ---------------------------------------------------------------------------- permutation
def _audit_permutation(
    release: PermutationRelease,
    orig: pl.DataFrame,
    quasi_identifiers: Sequence[str] | None,
    sensitive: Sequence[str] | str | None,
    tau: float,
    rule_out: int,
    sampling_fraction: float | None,
    th: Thresholds,
    title: str,
    meta: Mapping[str, Any] | None,
) -> AuditResult:
    qi = list(quasi_identifiers or release.qi_columns)
    unknown = [c for c in qi if c not in release.qi_columns]
    if unknown:
        raise InputError(
            f"release: the permutation release publishes the QIs {release.qi_columns}, not "
            f"{unknown}"
        )
    sens = _sensitive_list(sensitive)
    if sens and sens != [release.sensitive]:
        raise InputError(
            f"release: the permutation release's sensitive column is {release.sensitive!r}, "
            f"not {sens}"
        )
    s = release.sensitive
    _check_qi(qi, release.qi, orig)
    if s not in orig.columns:
        raise InputError(
            f"original: sensitive column {s!r} (named by the release) not found; the columns "
            f"are {orig.columns}"
        )
    qtab = release.qi.select(qi)
    # the QI table keeps the original's types; compare as text so CSV originals match too
    otab = orig.with_columns([pl.col(c).cast(pl.String) for c in qi])
    qtab = qtab.with_columns([pl.col(c).cast(pl.String) for c in qi])
    findings: list[Finding] = []
    details: dict[str, Any] = {
        "records_original": orig.height,
        "rows_release": release.n_rows,
        "release": release.to_dict(),
    }
    report = Report(title, meta={"kind": f"permutation release ({release.kind})", **(meta or {})})
    link = linkage_attack(otab, qtab, qi)
    ld = link.to_dict()
    rd = risk_of_frame(qtab, qi, sampling_fraction=sampling_fraction).to_dict()
    details["linkage"], details["risk"] = ld, rd
    findings.append(_linkage_finding(ld, qi, th, exact_qis=True))
    findings.append(_risk_finding(rd, th))
    base = risk_of_frame(otab, qi).to_dict()
    sec = report.add_section("Re-identification")
    _identity_blocks(sec, link, ld, rd, base, qi, qtab, otab)

    targets = otab.with_columns(_truth_column(orig[s], release.kind))
    inf = permutation_inference(release_as_text(release, qi), targets=targets, tau=tau)
    bg = (
        permutation_inference(
            release_as_text(release, qi), targets=targets, tau=tau, rule_out=rule_out
        )
        if rule_out
        else None
    )
    details[f"permutation:{s}"] = inf.to_dict()
    if bg is not None:
        details[f"background:{s}"] = bg.to_dict()
    fs = _disclosure_findings(s, inf.to_dict(), bg, tau, rule_out, th, "row and its group")
    findings += [
        Finding(f"permutation:{s}" if f.key.startswith("homogeneity") else f.key, f.title,
                f.severity, f.text, f.numbers)
        for f in fs
    ]  # fmt: skip
    sec = report.add_section("Sensitive-value disclosure")
    sec.add_text(
        "The quasi-identifiers are published exactly, so the adversary finds each person's "
        "row(s); the sensitive value is then one of the values published for the row's group."
    )
    _disclosure_blocks(sec, s, inf, bg, tau, rule_out, "group")

    util = _permutation_utility(release)
    details["utility"] = util
    text = (
        f"{release.n_rows} rows in {util['groups']} groups (mean size "
        f"{util['mean_group_size']:.3g}); quasi-identifiers are exact."
    )
    if release.kind == "numeric":
        text += (
            f" Each row's {s} is known only up to its group's range: on average "
            f"{_pct(util['mean_range_width'])} of the value range."
        )
    else:
        text += f" Each row's {s} is one of {util['mean_distinct_values']:.3g} values on average."
    findings.append(Finding("utility", "Utility", "info", text, dict(util)))
    sec = report.add_section("Utility")
    sec.add_text(
        "A permutation release keeps every quasi-identifier exact and every sensitive value "
        "in its group; what is lost is the link between them. Utility is the size of the "
        "groups and how spread their sensitive values are."
    )
    sec.add_table([util], "Groups of the permutation release.")
    _method_section(
        report, th,
        "Re-identification links the original's exact quasi-identifiers to the published QI "
        "table. Disclosure is the permutation inference of seed 001: the posterior of a "
        "person's value is their group's published multiset (averaged over candidate rows).",
    )  # fmt: skip
    result = AuditResult("permutation", findings, details, report, th)
    _summary_section(report, findings, result.severity)
    return result


def _truth_column(series: pl.Series, kind: str) -> pl.Series:
    if kind == "numeric":
        return series.cast(pl.Float64, strict=False).alias(series.name)
    return series.cast(pl.String).alias(series.name)


def release_as_text(release: PermutationRelease, qi: Sequence[str]) -> PermutationRelease:
    """The release with its QI columns as text (to match a CSV original cell by cell)."""
    return PermutationRelease(
        release.qi.with_columns([pl.col(c).cast(pl.String) for c in qi]),
        release.sa,
        release.sensitive,
        release.kind,
        release.parameters,
        release.source_rows,
    )


def _permutation_utility(release: PermutationRelease) -> dict[str, Any]:
    sizes = release.group_sizes()
    sizes = sizes[sizes > 0]
    out: dict[str, Any] = {
        "kind": release.kind,
        "rows": release.n_rows,
        "groups": int(sizes.size),
        "mean_group_size": float(sizes.mean()) if sizes.size else 0.0,
        "smallest_group": int(sizes.min()) if sizes.size else 0,
    }
    sa = release.sa
    if release.kind == "numeric":
        g = sa.group_by("group_id").agg(pl.col("lo").min(), pl.col("hi").max())
        span = float(sa["hi"].max() - sa["lo"].min()) if sa.height else 0.0
        width = (g["hi"] - g["lo"]).to_numpy()
        out["mean_range_width"] = float(width.mean() / span) if span > 0 and width.size else 0.0
    else:
        d = sa.group_by("group_id").agg(pl.col("value").n_unique().alias("d"))["d"].to_numpy()
        out["mean_distinct_values"] = float(d.mean()) if d.size else 0.0
    return out


# ============================================================================ graphs
def edge_overlap(original: Graph, release: Graph) -> float:
    """|E_original ∩ E_release| / |E_original|, on node ids (1.0 for an edgeless original)."""
    if original.n_nodes != release.n_nodes:
        return 0.0
    n = original.n_nodes
    if original.n_edges == 0:
        return 1.0

    def keys(g: Graph) -> np.ndarray:
        e = g.edges()
        if not g.directed:
            e = np.sort(e, axis=1)
        return e[:, 0].astype(np.int64) * n + e[:, 1]

    return float(np.isin(keys(original), keys(release)).sum() / original.n_edges)


def _removed_edges(original: Graph, release: Graph) -> int:
    return round((1.0 - edge_overlap(original, release)) * original.n_edges)


def audit_graph(
    release: Graph,
    original: Graph,
    *,
    aligned: bool | None = None,
    min_overlap: float = 0.5,
    perturbations: int | None = None,
    facts: Sequence[int] = (1, 2, 5, 10),
    sample: int = 50,
    time_budget: float = 20.0,
    utility_sample: int | str | None = "auto",
    seed: int = 0,
    thresholds: Thresholds | None = None,
    title: str = "Release audit",
    meta: Mapping[str, Any] | None = None,
) -> AuditResult:
    """Audit a released graph against the original.

    Checks (seed 002, Hay et al.):

    * **Structural re-identification** — vertex refinement of the release: the fraction of
      nodes whose candidate set is 1, 2–4, … under H_1 (degree), H_2 and H* (the whole
      structure).  Exact for releases whose structure is what the adversary knows (naive
      anonymization, k-degree anonymity); the original's buckets are shown as the baseline.
    * **Perturbation posterior** (when node ids align): the equivalent candidate-set size of
      every node under H_1 after ``perturbations`` random edge deletions + insertions
      (:func:`~privlab.graph.attacks.refinement.perturbation_h1_risk`), m estimated as the
      original edges missing from the release unless given.
    * **Subgraph knowledge** — for a sample of ``sample`` nodes, the adversary learns
      ``facts`` edges around the target in the original (breadth-first) and matches them in
      the release; stops after ``time_budget`` seconds.  With aligned ids a target is
      re-identified when its only candidate is itself.
    * **Utility** — :func:`privlab.graph.utility.compare` (``utility_sample`` BFS sources;
      ``"auto"``: exact up to 2,000 nodes, else 256 sources).

    ``aligned``: release node i is original node i (same node set).  ``None`` decides: same
    number of nodes and at least ``min_overlap`` of the original edges present in the
    release (a relabelled release keeps almost none).  Undirected graphs only.
    """
    th = thresholds or Thresholds()
    for name, g in (("release", release), ("original", original)):
        if not isinstance(g, Graph):
            raise InputError(f"{name}: expected a privlab Graph, got {type(g).__name__}")
        g.require_undirected("the graph audit")
        if g.n_nodes == 0:
            raise InputError(f"{name}: the graph has no nodes")
    facts = sorted({int(b) for b in facts})
    if not facts or facts[0] < 1:
        raise ConfigError(f"facts = {facts}: give edge-fact counts ≥ 1")
    if not isinstance(sample, int) or sample < 1:
        raise ConfigError(f"sample = {sample!r}: give a number of target nodes ≥ 1")
    overlap = edge_overlap(original, release)
    same_n = original.n_nodes == release.n_nodes
    if aligned is None:
        aligned = same_n and overlap >= min_overlap
        why = (
            f"same {release.n_nodes} nodes and {_pct(overlap)} of the original edges kept"
            if aligned
            else (
                "the node counts differ"
                if not same_n
                else f"only {_pct(overlap)} of the original edges appear under the same ids "
                "(the release looks relabelled)"
            )
        )
    else:
        if aligned and not same_n:
            raise InputError(
                f"aligned ids: the release has {release.n_nodes} nodes, the original "
                f"{original.n_nodes}; aligned node ids need the same node set"
            )
        why = "as requested"
    findings: list[Finding] = []
    details: dict[str, Any] = {
        "nodes_original": original.n_nodes,
        "edges_original": original.n_edges,
        "nodes_release": release.n_nodes,
        "edges_release": release.n_edges,
        "aligned": bool(aligned),
        "aligned_reason": why,
        "edge_overlap": overlap,
    }
    report = Report(
        title, meta={"kind": "graph", "aligned node ids": bool(aligned), **(meta or {})}
    )

    # --- vertex refinement: the adversary knows H_i of the target in the *original* and
    # matches it against the release (seed 002 §A.2.2); a relabelling keeps the original's
    # class sizes, a perturbation can leave several, one or no matching node.
    ref_o = vertex_refinement(original)
    levels: list[tuple[str, int | None]] = [("H1", 1), ("H2", 2), ("H*", None)]
    cross = release_candidate_sizes(original, release, [i for _, i in levels])
    sizes_r = {name: cross[i] for name, i in levels}
    sizes_o = {name: ref_o.candidate_sizes(i) for name, i in levels}
    details["refinement"] = {
        "release": {k: _bucket_dict(np.maximum(v, 1)) for k, v in sizes_r.items()},
        "no_match": {k: float((v == 0).mean()) for k, v in sizes_r.items()},
        "original": {k: _bucket_dict(v) for k, v in sizes_o.items()},
        "stable_level_original": ref_o.stable_level,
    }
    what = {
        "H1": "their number of connections (degree)",
        "H2": "their degree and their friends' degrees",
        "H*": "the whole structure around them (the worst case)",
    }
    for name, _ in levels:
        unique = float((sizes_r[name] == 1).mean())
        small = float(((sizes_r[name] >= 1) & (sizes_r[name] <= 4)).mean())
        none = float((sizes_r[name] == 0).mean())
        text = (
            f"{_pct(unique)} of the people can be singled out in the release by someone who "
            f"knows {what[name]} in the original; {_pct(small)} are among at most 4 "
            f"look-alikes; {_pct(none)} match nobody because the release changed their "
            f"structure (a relabelling alone would single out "
            f"{_pct(float((sizes_o[name] == 1).mean()))})."
        )
        findings.append(
            Finding(
                f"refinement:{name}",
                f"Structural re-identification ({name})",
                th.singled_out(unique),
                text,
                {"unique_fraction": unique, "at_most_4_fraction": small,
                 "no_match_fraction": none,
                 "unique_fraction_original": float((sizes_o[name] == 1).mean())},
            )
        )  # fmt: skip
    sec = report.add_section("Structural re-identification")
    sec.add_text(
        "Vertex refinement (Hay et al.): an adversary who knows a person's degree (H1), the "
        "degrees of their neighbours (H2) or the whole structure around them (H*) in the "
        "original graph finds the nodes of the release that look the same; a candidate set "
        "of size 1 singles the person out, size 0 means the release changed the person's "
        "structure (counted with size 1 in the bars). The original's buckets are what a "
        "relabelling alone would leave."
    )
    bars = {f"original {k}": v for k, v in sizes_o.items()}
    bars.update({f"release {k}": np.maximum(v, 1) for k, v in sizes_r.items()})
    sec.add_figure(
        plots.candidate_set_buckets(bars, x_label="graph and adversary knowledge"),
        "Fraction of nodes by candidate-set size (darkest: singled out).",
    )
    sec.add_table(
        [{"graph": g, "knowledge": k, **_bucket_dict(v)["fractions"]}
         for g, d in (("original", sizes_o),
                      ("release", {k: np.maximum(v, 1) for k, v in sizes_r.items()}))
         for k, v in d.items()],
        "Fraction of nodes by candidate-set size.",
    )  # fmt: skip

    # --- perturbation posterior
    sec = report.add_section("Perturbation posterior")
    if aligned:
        m = _removed_edges(original, release) if perturbations is None else int(perturbations)
        note = "" if release.n_edges == original.n_edges else (
            " The release has a different number of edges than the original, so it is not "
            "a pure add/delete perturbation and the posterior is approximate."
        )  # fmt: skip
        try:
            pr = perturbation_h1_risk(original, release, m)
        except (InputError, ConfigError) as exc:
            details["perturbation"] = {"skipped": str(exc), "m": m}
            findings.append(
                Finding("perturbation", "Re-identification after perturbation", "info",
                        f"Not computed: {exc}", {"m": m})
            )  # fmt: skip
            sec.add_text(f"Not computed: {exc}")
        else:
            pd = pr.to_dict()
            details["perturbation"] = pd
            unique = float((pr.sizes == 1).mean())
            text = (
                f"Knowing a person's original degree and that {m} edges were deleted and "
                f"{m} added at random, an adversary singles out {_pct(unique)} of the people "
                f"(on average the adversary's best guess is right with probability "
                f"{float(pr.top_probability.mean()):.3g})." + note
            )
            findings.append(
                Finding("perturbation", "Re-identification after perturbation",
                        th.singled_out(unique), text,
                        {"unique_fraction": unique, "m": m,
                         "mean_top_probability": pd["mean_top_probability"]})
            )  # fmt: skip
            sec.add_text(
                f"Node ids align ({why}). Hay et al.'s H1 posterior under random "
                f"perturbation with m = {m}: the equivalent candidate-set size of a person is "
                "1 / (probability of the most likely node)." + note
            )
            sec.add_figure(
                plots.candidate_set_buckets(
                    {"H1 (no perturbation)": sizes_o["H1"], f"H1, m = {m}": pr.sizes}
                ),
                "Equivalent candidate-set sizes under the perturbation posterior.",
            )
    else:
        details["perturbation"] = {"skipped": why}
        sec.add_text(
            f"Not computed: node ids do not align with the original ({why}). The posterior "
            "needs the release on the original's node ids (e.g. `privlab graph anonymize "
            "--keep-ids`, or `privlab audit --mapping`)."
        )

    # --- subgraph knowledge
    sub = _subgraph_knowledge(original, release, facts, sample, time_budget, seed, aligned)
    details["subgraph"] = sub
    if sub["targets"]:
        b = facts[-1]
        row = sub["by_facts"][str(b)]
        if aligned:
            rate = row["reidentified"]
            text = (
                f"With {b} edge facts around a person (who their friends are, and their "
                f"friends' friends), an adversary re-identifies {_pct(rate)} of the "
                f"{sub['targets']} sampled people"
            )
        else:
            rate = row["unique"]
            text = (
                f"With {b} edge facts around a person, an adversary narrows {_pct(rate)} of "
                f"the {sub['targets']} sampled people down to a single node"
            )
        text += f"; with {facts[0]}: {_pct(sub['by_facts'][str(facts[0])]['unique'])} unique."
        findings.append(
            Finding("subgraph", "Subgraph knowledge", th.singled_out(rate), text,
                    {"facts": b, "rate": rate, "targets": sub["targets"]})
        )  # fmt: skip
    sec = report.add_section("Subgraph knowledge")
    sec.add_text(
        f"For {sub['targets']} randomly chosen people (seed {seed}), the adversary learns "
        "edges around them in the original breadth-first (Hay et al.'s edge facts, with "
        "degrees learnt when all of a node's edges are known) and matches that pattern in the "
        "release." + (" Stopped early at the time budget." if sub["truncated"] else "")
    )
    if sub["targets"]:
        sec.add_table(
            [{"edge facts": int(k), **v} for k, v in sub["by_facts"].items()],
            "Candidate sets by number of edge facts: unique = exactly one candidate; "
            "re-identified = the only candidate is the person (aligned ids only); "
            "no match = the knowledge fits no node of the release.",
        )
        sec.add_figure(
            plots.candidate_set_buckets(
                {f"{k} facts": np.maximum(v, 1) for k, v in sub["sizes"].items()},
                x_label="adversary knowledge",
            ),
            "Candidate-set sizes of the sampled people (a size of 0 is drawn as 1).",
        )
    details["subgraph"] = {k: v for k, v in sub.items() if k != "sizes"}

    # --- utility
    if utility_sample == "auto":
        utility_sample = None if max(original.n_nodes, release.n_nodes) <= 2000 else 256
    cmp = compare(original, release, sample=utility_sample, seed=seed)
    cd = cmp.to_dict()
    details["utility"] = cd
    met = cd["metrics"]
    parts = [
        f"the degree distribution differs by a Hellinger distance of "
        f"{met['degree_distribution']['difference']:.3g} (0 = identical, 1 = disjoint)"
    ]
    for name, label in (("clustering_cc", "average clustering"),
                        ("average_path_length", "average path length")):  # fmt: skip
        if name in met and met[name]["original"] is not None:
            parts.append(f"{label} {met[name]['original']:.3g} → {met[name]['release']:.3g}")
    findings.append(
        Finding("utility", "Utility", "info",
                f"Edges {original.n_edges} → {release.n_edges}; " + "; ".join(parts) + ".",
                {"hellinger_dd": met["degree_distribution"]["difference"],
                 **{n: met[n]["release"] for n in ("clustering_cc", "average_path_length")
                    if n in met}})
    )  # fmt: skip
    sec = report.add_section("Utility")
    sec.add_text(
        "The release against the original on the graph utility metrics of `privlab graph "
        "utility`: scalars as release − original, centralities by their median over nodes, "
        "distributions by the Hellinger distance."
        + (f" Path metrics from {utility_sample} sampled sources." if utility_sample else "")
    )
    sec.add_table(
        [{"metric": n, "original": d["original"], "release": d["release"],
          "difference": d["difference"], "measure": d["measure"]} for n, d in met.items()],
        "Utility metrics, original vs release.",
    )  # fmt: skip
    sec.add_figure(
        plots.degree_distributions(original.degrees(), {"release": release.degrees()}),
        "Degree distributions (log-log): original in black.",
    )
    _method_section(
        report,
        th,
        "Structural checks follow Hay et al. (seed 002): vertex refinement H1/H2/H*, the H1 "
        "posterior under random perturbation, and subgraph (edge-fact) knowledge.",
    )
    result = AuditResult("graph", findings, details, report, th)
    _summary_section(report, findings, result.severity)
    return result


def _bucket_dict(sizes: np.ndarray) -> dict[str, Any]:
    from privlab.graph.attacks.refinement import bucket_counts

    b = bucket_counts(sizes)
    return {
        "counts": dict(zip(BUCKET_LABELS, b.counts, strict=True)),
        "fractions": dict(zip(BUCKET_LABELS, b.fractions, strict=True)),
    }


def _subgraph_knowledge(
    original: Graph,
    release: Graph,
    facts: Sequence[int],
    sample: int,
    time_budget: float,
    seed: int,
    aligned: bool,
) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    n = original.n_nodes
    targets = rng.choice(n, size=min(sample, n), replace=False)
    matcher = SubgraphMatcher(release)
    sizes: dict[int, list[int]] = {b: [] for b in facts}
    hits: dict[int, list[bool]] = {b: [] for b in facts}
    t0 = time.perf_counter()
    done = 0
    truncated = False
    for x in targets.tolist():
        if time.perf_counter() - t0 > time_budget:
            truncated = True
            break
        for b in facts:
            kf = gather_edge_facts(original, x, b, seed=seed)
            mask = matcher.candidate_mask(kf)
            c = int(mask.sum())
            sizes[b].append(c)
            hits[b].append(bool(aligned and c == 1 and x < mask.size and mask[x]))
        done += 1
    by: dict[str, Any] = {}
    for b in facts:
        s = np.asarray(sizes[b], dtype=np.int64)
        row = {
            "unique": float((s == 1).mean()) if s.size else 0.0,
            "no match": float((s == 0).mean()) if s.size else 0.0,
            "median candidates": float(np.median(s)) if s.size else 0.0,
        }
        if aligned:
            row["reidentified"] = float(np.mean(hits[b])) if s.size else 0.0
        by[str(b)] = row
    return {
        "targets": done,
        "requested": int(targets.size),
        "facts": list(facts),
        "truncated": truncated,
        "seconds": time.perf_counter() - t0,
        "by_facts": by,
        "sizes": {b: np.asarray(v, dtype=np.int64) for b, v in sizes.items()},
    }
