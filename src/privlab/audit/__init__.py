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

from privlab.audit.findings import SEVERITIES, AuditResult, Finding, Thresholds
from privlab.audit.graph import audit_graph, edge_overlap
from privlab.audit.table import audit_table

__all__ = [
    "SEVERITIES",
    "AuditResult",
    "Finding",
    "Thresholds",
    "audit_graph",
    "audit_table",
    "edge_overlap",
]
