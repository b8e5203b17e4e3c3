"""What an audit returns and how it words it: findings, thresholds, the verdict.

:class:`Finding` (one severity, one plain-language sentence, its numbers), :class:`Thresholds`
(when a finding is high, medium or low), :class:`AuditResult` (findings, raw attack summaries
and the report), and the wording helpers every audit shares: percentages, lists, the overall
verdict.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from privlab.errors import ConfigError
from privlab.report import Report
from privlab.validate import check_fraction

#: Severity levels, most severe first.  ``"not established"`` is an attack that applies but
#: could not be scored (the graph audit without the truth of who is who in the release): it
#: ranks above ``"low"``, so an audit that could not run its strongest attacks never says low.
SEVERITIES: tuple[str, ...] = ("high", "medium", "not established", "low", "info")


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
    * Re-identification by an approximate attack (graph propagation, the learned attack)
      counts as *singling out*, once the correct matches exceed what guessing at random would
      get (see ``docs/audit.md``).  Such an attack that could not be scored is **not
      established**.
    * Utility findings are **info**.
    """

    singled_out_high: float = 0.01
    risk_high: float = 0.5
    risk_medium: float = 0.2
    disclosure_high: float = 0.05

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            check_fraction(value, f"thresholds: {name}")
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
        "not established": "Overall: risk NOT ESTABLISHED — the strongest attacks that apply "
        "could not be scored, so this audit cannot say the release is low risk; see the "
        "findings.",
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
