"""Graph utility metrics and the original-vs-release comparison.

What an anonymized or perturbed graph keeps of the original, measured the way the seeds
measure it:

- seed 000 §2.9 (thesis Ch. 7): density, degree sequence, the three clustering
  coefficients CC / CC1 / CC2 (eq. 7.1–7.3) with their 0/0 conventions, average path
  length with unreachable pairs counted as 0 (but kept in the n(n−1) denominator),
  diameter, and the power-law exponent (Clauset–Shalizi–Newman, x_min fixed at 3);
- seed 002 §A.2.9 (Hay et al.): degree, closeness, betweenness and clustering summarized
  by their median over nodes, the path-length distribution and its median, diameter;
- seed 004 §2.10 (Sharad): degree distribution (DD), joint degree distribution (JDD),
  average degree connectivity, degree and eigenvector centrality, and the Hellinger
  distance between two graphs' DD or JDD.

Heavy passes (BFS from every node, Brandes, triangles, ARPACK) run in igraph's C core on
an igraph twin of the CSR :class:`~privlab.graph.core.Graph` built once per graph; sampled
BFS runs in scipy.sparse.csgraph; everything else is numpy.  Each function accepts a
privlab Graph, a networkx graph or an igraph graph.  See docs/graph/utility.md.
"""

from privlab.graph.utility.centrality import (
    ClusteringCoefficients,
    betweenness_centrality,
    closeness_centrality,
    clustering_coefficient,
    clustering_coefficients,
    degree_centrality,
    eigenvector_centrality,
    local_clustering,
    triangles,
)
from privlab.graph.utility.compare import (
    METRICS,
    Comparison,
    MetricComparison,
    auto_sample,
    compare,
)
from privlab.graph.utility.degrees import (
    DegreeConnectivity,
    JointDegreeDistribution,
    average_degree_connectivity,
    degree_distribution,
    degree_sequence,
    density,
    hellinger_dd,
    hellinger_distance,
    hellinger_jdd,
    joint_degree_distribution,
)
from privlab.graph.utility.paths import (
    PathLengths,
    average_path_length,
    diameter,
    effective_diameter,
    path_lengths,
)
from privlab.graph.utility.powerlaw import PowerLawFit, power_law_exponent

__all__ = [
    "METRICS",
    "ClusteringCoefficients",
    "Comparison",
    "DegreeConnectivity",
    "JointDegreeDistribution",
    "MetricComparison",
    "PathLengths",
    "PowerLawFit",
    "auto_sample",
    "average_degree_connectivity",
    "average_path_length",
    "betweenness_centrality",
    "closeness_centrality",
    "clustering_coefficient",
    "clustering_coefficients",
    "compare",
    "degree_centrality",
    "degree_distribution",
    "degree_sequence",
    "density",
    "diameter",
    "effective_diameter",
    "eigenvector_centrality",
    "hellinger_dd",
    "hellinger_distance",
    "hellinger_jdd",
    "joint_degree_distribution",
    "local_clustering",
    "path_lengths",
    "power_law_exponent",
    "triangles",
]
