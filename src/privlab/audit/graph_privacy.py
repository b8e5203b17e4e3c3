"""The privacy metrics of the graph audit: identity obfuscation, degree-and-clustering
candidate sets, edge disclosure (:mod:`privlab.graph.privacy_metrics`).

These measure what a release lets an adversary infer, so they are part of the audit, not of
``privlab graph utility`` (which compares what analyses the release still supports):

* **Identity obfuscation** (Bonchi, Gionis & Tassa 2011): the entropy of the adversary's
  distribution over release nodes for a target whose original degree is known.  The release
  model follows from what the release did to the original's edges (node ids aligned):
  deletions only → RSP with m = deleted edges; as many insertions as deletions → RAD with the
  same m (Hay's possible worlds; approximate for RSW, which also keeps |E|); nothing changed,
  ids not aligned, or anything else → the exact model (the release shows the degree as it
  is).  The finding is the fraction of people who are not 2-obfuscated (entropy < 1 bit:
  fewer than two equally likely look-alikes), a singling-out rate.
* **Degree and clustering coefficient**: candidate sets when the adversary also knows how
  many of the target's friends know each other (the two properties of Singh & Zhan's
  topological anonymity).
* **Edge disclosure** (seed 000 §7.2.1; seed 002 §6.1): the fraction of the original's
  edges an adversary knowing both ends' degrees (H_1) or whole structure (H*) can assert with
  certainty — every candidate pair is linked — even without re-identifying either person;
  for an RSP/RAD release also the degree-knowledge figure under that model.  Severity as
  attribute disclosure (the edge is the sensitive fact), on the largest certain fraction —
  of the model's figure for an edited release, where exact matching ignores the edits.
"""

from __future__ import annotations

from typing import Any

from privlab.audit.findings import Finding, Thresholds, _pct
from privlab.graph.core import Graph
from privlab.graph.privacy_metrics import (
    degree_clustering_anonymity,
    link_disclosure,
    link_disclosure_model,
    obfuscation,
)
from privlab.report import Section

#: k of the obfuscation table (the finding uses k = 2).
AUDIT_KS: tuple[int, ...] = (2, 5, 10, 20)


def release_model(original: Graph, release: Graph, aligned: bool, removed: int) -> dict[str, Any]:
    """The obfuscation model the audit assumes (module docstring): {"model", "m"?, "why"}."""
    added = release.n_edges - original.n_edges + removed
    if not aligned:
        return {"model": "exact", "why": "node ids do not align, so the edits are unknown"}
    if removed == 0 and added == 0:
        return {"model": "exact", "why": "the release has the original's edges"}
    if added == 0:
        return {"model": "rsp", "m": removed, "why": f"{removed} edges deleted, none added"}
    if added == removed:
        return {"model": "rad", "m": removed,
                "why": f"{removed} edges deleted and as many added"}  # fmt: skip
    why = f"{removed} edges deleted and {added} added: no random-edit model fits"
    return {"model": "exact", "why": why}


def privacy_metrics_check(
    original: Graph,
    release: Graph,
    *,
    aligned: bool,
    removed: int,
    th: Thresholds,
    section: Section,
) -> tuple[list[Finding], dict[str, Any]]:
    """The three metrics as findings, a table each in ``section``.  O((m + m') log²(n + n'))
    for the refinement of link disclosure at H*; the rest is O(n + m) plus O(Σ d²) for the
    clustering coefficients."""
    findings: list[Finding] = []
    spec = release_model(original, release, aligned, removed)
    ob = obfuscation(original, release, model=spec["model"], m=spec.get("m"), ks=AUDIT_KS)
    od = ob.to_dict()
    exposed = 1.0 - ob.obfuscated_fraction(2)
    findings.append(
        Finding(
            "obfuscation", "Identity obfuscation (degree knowledge)", th.singled_out(exposed),
            f"Knowing a person's degree, an adversary who models the release as {spec['model']} "
            f"({spec['why']}) has fewer than two equally likely candidates (entropy < 1 bit) "
            f"for {_pct(exposed)} of the people; {_pct(ob.obfuscated_fraction(10))} are "
            "10-obfuscated (entropy ≥ log₂ 10).",
            {"not_2_obfuscated": exposed, "model": spec["model"],
             **{f"obfuscated_{k}": ob.obfuscated_fraction(k) for k in AUDIT_KS}},
        )
    )  # fmt: skip
    dc = degree_clustering_anonymity(original, release).to_dict()
    # with aligned ids a unique match counts only if it is the person (an edited release can
    # leave a wrong node alone in its class); without them it counts when the release shows
    # the original's profile exactly (a relabelling), and is not established otherwise
    unique = dc["unique_fraction"]
    if aligned:
        rate, severity = dc["reidentified_fraction"], th.singled_out(dc["reidentified_fraction"])
        how = f", {_pct(rate)} correctly"
    elif dc["same_profile"]:
        rate, severity, how = unique, th.singled_out(unique), ""
    else:
        rate, severity = unique, "not established" if unique > 0 else "low"
        how = (
            " (the release's degrees and clustering differ from the original's and its ids are "
            "not the original's, so whether those matches are right is not established)"
        )
    findings.append(
        Finding(
            "degree-clustering", "Degree and clustering coefficient (exact matching)", severity,
            f"Knowing a person's degree and how many of their friends know each other "
            f"(clustering coefficient to 2 decimals), an adversary matching the release "
            f"exactly singles out {_pct(unique)} of the people{how}; "
            f"{_pct(dc['no_match_fraction'])} match nobody.",
            {"unique_fraction": unique, "reidentified_fraction": rate,
             "no_match_fraction": dc["no_match_fraction"]},
        )
    )  # fmt: skip
    links = {name: link_disclosure(original, release, level=level, non_edges=1000).to_dict()
             for name, level in (("H1", 1), ("H*", None))}  # fmt: skip
    if spec["model"] != "exact":  # exact matching misses whoever the edits touched
        links[f"degree, {spec['model']} model"] = link_disclosure_model(
            original, release, model=spec["model"], m=spec.get("m"), non_edges=1000
        ).to_dict()
    hstar = links["H*"]
    model_row = {k: v for k, v in links.items() if k.startswith("degree")}
    # on an edited release, exact matching ignores the edits and its "certain" is not: the
    # severity then follows the model's figure
    worst = max(v["disclosed_fraction"] for v in (model_row or links).values())
    extra = "".join(
        f"; under the {k.split(', ')[1]}, {_pct(v['at_least_half_fraction'])} reach probability "
        f"½ (mean {v['mean_probability']:.3g} against a density of {v['baseline_density']:.3g})"
        for k, v in model_row.items()
    )
    findings.append(
        Finding(
            "edge-disclosure", "Edge disclosure", th.disclosure(worst),
            ("Matching exactly (which ignores the edits), " if model_row else "")
            + f"knowing the degrees of two friends, an adversary can assert their friendship "
            f"with certainty for {_pct(links['H1']['disclosed_fraction'])} of the original "
            f"edges; knowing their whole structure (H*), for {_pct(hstar['disclosed_fraction'])}"
            f"{extra} — without necessarily re-identifying either of them.",
            {"disclosed_H1": links["H1"]["disclosed_fraction"],
             "disclosed_Hstar": hstar["disclosed_fraction"],
             "mean_probability_Hstar": hstar["mean_probability"],
             **{f"half_{k.split(', ')[1].split()[0]}": v["at_least_half_fraction"]
                for k, v in model_row.items()}},
        )
    )  # fmt: skip
    section.add_text(
        f"Identity obfuscation (Bonchi, Gionis & Tassa 2011): the adversary knows a person's "
        f"original degree and models the release as **{spec['model']}** ({spec['why']}); a "
        "person is k-obfuscated when the entropy of the adversary's distribution over release "
        "nodes is at least log₂ k. The release is a (k, ε)-obfuscation for ε = 1 − the "
        "fraction obfuscated. Edge disclosure (seed 000 §7.2.1; Hay et al. §6.1): the "
        "probability that two friends are linked is the fraction of their candidate pairs "
        "that are edges of the release; 'certain' means every candidate pair is an edge."
    )
    section.add_table(
        [{"k": k, "obfuscated": ob.obfuscated_fraction(k), "min ε": ob.min_eps(k)}
         for k in AUDIT_KS],
        f"k-obfuscation under the {spec['model']} model ({_pct(od['no_match_fraction'])} of "
        "the people match no node of the release).",
    )  # fmt: skip
    section.add_table(
        [{"knowledge": k, "certain": v["disclosed_fraction"],
          "≥ 1/2": v["at_least_half_fraction"], "mean probability": v["mean_probability"],
          "non-edges: mean": v["non_edge_mean_probability"], "density": v["baseline_density"],
          "no match": v["no_match_fraction"]}
         for k, v in links.items()],
        "Edge disclosure of the original's edges (and of 1,000 sampled non-edges).",
    )  # fmt: skip
    details = {"obfuscation": od, "release_model": spec, "degree_clustering": dc,
               "edge_disclosure": links}  # fmt: skip
    return findings, details
