"""Auditing a table release: ``audit_table`` and the permutation / Anatomy audit.

A generalized table is checked for linkage re-identification, prosecutor risk, disclosure of
each sensitive column and utility; a :class:`~privlab.table.permutation.PermutationRelease`
for linkage on its exact QIs, the permutation inference and its group utility.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import polars as pl

from privlab.audit.findings import AuditResult, Finding, Thresholds, _pct
from privlab.audit.report_sections import _finish_audit
from privlab.audit.table_findings import (
    _disclosure_blocks,
    _disclosure_findings,
    _identity_blocks,
    _linkage_finding,
    _risk_finding,
)
from privlab.audit.table_input import (
    _check_labels,
    _check_qi,
    _load_hierarchies,
    _numeric_columns,
    _sensitive_list,
)
from privlab.audit.table_utility import (
    _table_utility,
    _utility_blocks_table,
    _utility_finding_table,
)
from privlab.errors import ConfigError, InputError
from privlab.report import Report
from privlab.table.attacks import (
    InferenceResult,
    disclosure_from_posterior,
    homogeneity_attack,
    linkage_attack,
    permutation_inference,
)
from privlab.table.attacks._match import release_frame
from privlab.table.data import to_polars
from privlab.table.hierarchy import Hierarchy
from privlab.table.permutation import PermutationRelease
from privlab.table.risk import risk_of_frame
from privlab.table.suppression import SUPPRESSED_VALUE


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
    suppressed_value: str | None = SUPPRESSED_VALUE,
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
    given.  Released rows whose QIs all hold ``suppressed_value`` (``None``: none) are the
    suppressed records (:mod:`privlab.table.suppression`): outside every class of the risk
    figures, counted in the utility, and a suppressed cell covers every value in the linkage.
    Raises :class:`InputError` for missing columns or labels that cannot be matched (naming
    the column and an example), :class:`ConfigError` for bad parameters.
    """
    suppressed_value = suppressed_value or None
    th = thresholds or Thresholds()
    orig, _ = to_polars(original)
    if isinstance(release, PermutationRelease):
        return _audit_permutation(
            release, orig, quasi_identifiers, sensitive, tau, rule_out, sampling_fraction, th,
            title, meta,
        )  # fmt: skip
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
    num = (
        _numeric_columns(rel, orig, qi, hier, suppressed_value)
        if numeric is None
        else list(numeric)
    )
    _check_labels(rel, orig, qi, hier, num, suppressed_value)

    findings: list[Finding] = []
    details: dict[str, Any] = {"records_original": orig.height, "rows_release": rel.height}
    report = Report(title, meta={"kind": "generalized table", **(meta or {})})

    # --- identity: linkage + prosecutor risk
    link = linkage_attack(
        orig, release, qi, hierarchies=hier, numeric=num, suppressed_value=suppressed_value
    )
    ld = link.to_dict()
    details["linkage"] = ld
    risk = risk_of_frame(
        rel, qi, sampling_fraction=sampling_fraction, suppressed_value=suppressed_value
    )
    rd = risk.to_dict()
    details["risk"] = rd
    base = risk_of_frame(orig, qi, suppressed_value=None).to_dict()  # nothing suppressed yet
    details["risk_original"] = base
    findings.append(_linkage_finding(ld, qi, th, exact_qis=False))
    findings.append(_risk_finding(rd, th))
    sec = report.add_section("Re-identification")
    _identity_blocks(sec, link, ld, rd, base, qi, rel)

    # --- attribute disclosure
    if sens:
        sec = report.add_section("Sensitive-value disclosure")
        for s in sens:
            hom = homogeneity_attack(rel, qi, s, tau=tau)
            bg = _background(hom, tau, rule_out)
            details[f"homogeneity:{s}"] = hom.to_dict()
            if bg is not None:
                details[f"background:{s}"] = bg.to_dict()
            findings += _disclosure_findings(s, hom.to_dict(), bg, tau, rule_out, th, "class")
            _disclosure_blocks(sec, s, hom, bg, tau, rule_out, "equivalence class")

    # --- utility
    util = _table_utility(rel, orig, qi, sens, hier, num, suppressed_value)
    details["utility"] = util
    findings.append(_utility_finding_table(util, qi))
    _utility_blocks_table(report.add_section("Utility"), util, qi, hier, num)
    return _finish_audit(
        "table", findings, details, report, th,
        "Re-identification links every original record to the released rows its exact "
        "quasi-identifiers are covered by (its class, plus suppressed rows); a person is "
        "*singled out* when exactly one row is left. Prosecutor risk assumes the adversary "
        "knows the person is in the release. Disclosure: the adversary locates the person's "
        "class and reads the sensitive values in it.",
    )  # fmt: skip


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
    _identity_blocks(sec, link, ld, rd, base, qi, qtab)

    targets = otab.with_columns(_truth_column(orig[s], release.kind))
    inf = permutation_inference(release_as_text(release, qi), targets=targets, tau=tau)
    bg = _background(inf, tau, rule_out)
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
    return _finish_audit(
        "permutation", findings, details, report, th,
        "Re-identification links the original's exact quasi-identifiers to the published QI "
        "table. Disclosure is the permutation inference of seed 001: the posterior of a "
        "person's value is their group's published multiset (averaged over candidate rows).",
    )  # fmt: skip


def _background(plain: InferenceResult, tau: float, rule_out: int) -> InferenceResult | None:
    """The adversary of ``plain`` who also rules out ``rule_out`` values (None for 0).

    ``plain`` ran with no background knowledge, so its posterior is still the class (or group)
    distribution: :func:`~privlab.table.attacks.disclosure_from_posterior` applies the
    knowledge to it without grouping the release or matching the targets again.
    """
    if not rule_out:
        return None
    knowledge = ("tau", "rule_out", "excluded_targets")
    return disclosure_from_posterior(
        plain.posterior,
        plain.values,
        plain.true_code,
        tau=tau,
        rule_out=rule_out,
        parameters={k: v for k, v in plain.parameters.items() if k not in knowledge},
    )


def _truth_column(series: pl.Series, kind: str) -> pl.Series:
    if kind == "numeric":
        return series.cast(pl.Float64, strict=False).alias(series.name)
    return series.cast(pl.String).alias(series.name)


def release_as_text(release: PermutationRelease, qi: Sequence[str]) -> PermutationRelease:
    """The release with its QI columns as text (to match a CSV original cell by cell)."""
    return replace(release, qi=release.qi.with_columns([pl.col(c).cast(pl.String) for c in qi]))


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
