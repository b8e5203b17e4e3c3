"""D4D-style egonet releases, the ad-hoc signature attack, and case-labelled linkage pairs.

Source: seed 004 (Sharad, Cambridge TR-896), Chapter 3 — §2.3 (the D4D anonymization schemes,
thesis §3.2.1 L491–511), §2.4 (the ad-hoc signature attack and the three node-pair cases,
§3.2.3–3.2.4 L529–553), §2.8 (how Chapter 3 builds its pairs, §3.4.1 L674–676) and §3.2
(Table 3.1, the signature attack's success; Tables 3.7–3.8, the pair counts).  The user guide
is docs/graph/egonet-linkage.md.

The package is split by what each step does; every module documents its own part:

- :mod:`.release` — the publisher's side: :func:`egonet_release` draws egos and releases
  their 2-hop egonets under D4D Scheme 1 or 2, with the secret truth in an
  :class:`EgonetRelease` (§2.3);
- :mod:`.attacker_view` — what the attacker infers from one released graph: the ego
  candidates (:func:`find_ego`), the 1-hop nodes and the hops (§2.4);
- :mod:`.linkage_pairs` — identical pairs by case and non-identical pairs across egonets,
  drawn uniformly without replacement (:func:`sample_linkage_pairs`, §2.4/§2.8);
- :mod:`.signatures` — the node signatures and the ad-hoc signature attack, scored on pairs
  like Table 3.1 (:func:`signature_attack`) or run in bulk (:func:`signature_matches`);
- :mod:`.histograms` — the egonet neighbour-degree histograms the learned linker uses (§2.7);
- ``_helpers`` — shared CSR helpers and parameter checks.

Complexity (n nodes, m edges, E egos, k_i nodes and m_i edges in egonet i):
:func:`two_hop_sizes` O(Σ_v deg(v)²) in row chunks (bounded memory);
:func:`egonet_release` that plus O(Σ_i (Σ_{u ∈ ball_i} deg u + m_i log m_i));
:func:`find_ego` O(k + Σ over candidate rows of their 2-hop work) — a cheap upper bound
(1 + deg v + Σ_{u ∈ N(v)} deg u ≥ k) filters candidates before the sparse product;
signatures O(Σ_{v} Σ_{w ∈ N(v)} deg w) per egonet for the nodes asked for;
:func:`sample_linkage_pairs` O(A log A) for A appearances plus O(requested pairs);
:func:`egonet_node_histograms` O(Σ degrees of the requested nodes + k_i per egonet touched).
"""

from privlab.graph.attacks.egonet.attacker_view import attacker_hops, attacker_one_hop, find_ego
from privlab.graph.attacks.egonet.histograms import egonet_node_histograms
from privlab.graph.attacks.egonet.linkage_pairs import (
    CASE_NAMES,
    LinkagePairs,
    sample_linkage_pairs,
)
from privlab.graph.attacks.egonet.release import (
    DEFAULT_MIN_SIZE,
    EgonetRelease,
    egonet_release,
    two_hop_sizes,
)
from privlab.graph.attacks.egonet.signatures import (
    SignatureAttackResult,
    SignatureMatches,
    node_signatures,
    signature_attack,
    signature_matches,
)

__all__ = [
    "CASE_NAMES",
    "DEFAULT_MIN_SIZE",
    "EgonetRelease",
    "LinkagePairs",
    "SignatureAttackResult",
    "SignatureMatches",
    "attacker_hops",
    "attacker_one_hop",
    "egonet_node_histograms",
    "egonet_release",
    "find_ego",
    "node_signatures",
    "sample_linkage_pairs",
    "signature_attack",
    "signature_matches",
    "two_hop_sizes",
]
