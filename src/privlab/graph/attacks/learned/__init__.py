"""Sharad's learned de-anonymization: pair features, random decision forest, training by
splitting, ROC summaries (seed 004 §2.6–2.10; docs/graph/learned-attack.md).

* :mod:`.features` — neighbourhood degree histograms (undirected 1-hop/2-hop/3-hop blocks,
  the 12 directed blocks) and the quantized δ pair features;
* :mod:`.forest` — :class:`PairForest` (400 class-balanced trees, 5 % features per split,
  entropy, 10 % stopping rule) and :class:`PairGBM`, behind :func:`make_classifier`;
* :mod:`.training` — :func:`split_training_pairs`, :func:`train_scorer`, :class:`PairScorer`;
* :mod:`.roc` — :func:`roc_summary` (AUC and TP rate at fixed FP rates).
"""

from privlab.graph.attacks.learned.features import (
    DIRECTED_BLOCKS,
    NodeFeatures,
    PairFeatures,
    degree_histograms,
    delta,
    delta_codes,
    directed_histograms,
    histogram,
    iter_pair_features,
    node_features,
    pair_features,
    quantize,
)
from privlab.graph.attacks.learned.forest import PairForest, PairGBM, make_classifier
from privlab.graph.attacks.learned.roc import FP_RATES, RocSummary, roc_summary
from privlab.graph.attacks.learned.training import (
    BoundScorer,
    PairScorer,
    TrainingPairs,
    evaluation_pairs,
    split_training_pairs,
    train_scorer,
)

__all__ = [
    "DIRECTED_BLOCKS",
    "FP_RATES",
    "BoundScorer",
    "NodeFeatures",
    "PairFeatures",
    "PairForest",
    "PairGBM",
    "PairScorer",
    "RocSummary",
    "TrainingPairs",
    "degree_histograms",
    "delta",
    "delta_codes",
    "directed_histograms",
    "evaluation_pairs",
    "histogram",
    "iter_pair_features",
    "make_classifier",
    "node_features",
    "pair_features",
    "quantize",
    "roc_summary",
    "split_training_pairs",
    "train_scorer",
]
