"""Default y labels of every output the metrics and attacks can produce."""

from __future__ import annotations

from privlab.bench.registry.attacks import LEARNED_FP, SEEDED, SEEDED_OUTPUTS, _bucket_outputs
from privlab.bench.registry.metrics import METRICS


def output_labels() -> dict[str, str]:
    """Default y labels of every metric an adapter can produce."""
    labels = {name: m.label for name, m in METRICS.items()}
    for p, what in (("h1", ""), ("refine", " (H_i)"), ("subgraph", " (subgraph knowledge)")):
        labels.update({b: f"fraction of nodes with candidate set {b.split('_bucket_')[1]}{what}"
                       for b in _bucket_outputs(p)})  # fmt: skip
    labels["h1_mean_top_probability"] = "mean top re-identification probability (H_1)"
    labels["refine_stable_level"] = "stable refinement level (H* = H_s)"
    labels["subgraph_median_size"] = "median candidate-set size (subgraph knowledge)"
    labels.update({
        "attr_disclosure": "records disclosed (true value's posterior ≥ τ)",
        "attr_homogeneous": "records in a homogeneous class", "attr_mean_max_posterior":
        "mean adversary confidence (max posterior)", "attr_max_posterior":
        "highest adversary confidence",
    })  # fmt: skip
    labels["learned_auc"] = "AUC (learned attack)"
    for f in LEARNED_FP:
        labels[f"learned_tp_at_{100 * f:g}%"] = f"TP rate at {100 * f:g} % FP"
    shown = {"jls": "JLS+", "jlsb": "JLSB ∅", "pfg": "PFG ∅"}  # ∅: seedless, as Table 5.9
    labels.update({f"{a}_{o}": f"{shown.get(a, a.upper())} {o}"
                   for a in SEEDED for o in SEEDED_OUTPUTS})  # fmt: skip
    labels.update({f"threepsl_{o}": f"3PSL {o}" for o in SEEDED_OUTPUTS})
    labels.update({
        "prosecutor_average": "average prosecutor risk", "prosecutor_highest":
        "highest prosecutor risk", "records_at_risk": "records at risk (> 20 %)",
        "sample_uniques": "sample uniques (fraction)",
    })  # fmt: skip
    return labels
