"""The report sections every audit shares: "Summary" first and "How to read this report".

The summary puts the overall verdict and one bullet per finding at the top of the report; the
method section states the severity thresholds and what the checks assume.
"""

from __future__ import annotations

from typing import Any

from privlab.audit.findings import AuditResult, Finding, Thresholds, _pct, _verdict
from privlab.report import Report, Section


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


def _finish_audit(
    kind: str,
    findings: list[Finding],
    details: dict[str, Any],
    report: Report,
    th: Thresholds,
    method: str,
) -> AuditResult:
    """End every audit alike: the method section (with ``method``, what the checks of this
    ``kind`` do), the result, and its summary put first in the report."""
    _method_section(report, th, method)
    result = AuditResult(kind, findings, details, report, th)
    _summary_section(report, findings, result.severity)
    return result
