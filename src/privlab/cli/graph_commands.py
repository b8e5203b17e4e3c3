"""``privlab graph ...`` and ``privlab graph attack ...``: the two command groups, as tables.

Each command lives in its own module (:mod:`privlab.cli.graph` for anonymize, pair and
utility; :mod:`privlab.cli.graph_attack` and the ``graph_*`` modules for the attacks) and is
imported only when it runs (:mod:`privlab.cli.lazy`).  To add a command, write its function
(decorated with :func:`~privlab.cli.common.exits_on_bad_input`; its docstring is its help)
and add one line to the table here; the help tests check that the short help below is the
first line of the docstring.
"""

from __future__ import annotations

from privlab.cli.lazy import CommandTable, lazy_group

ATTACKS: CommandTable = {
    "refine": (
        "privlab.cli.graph_attack", "refine",
        "Candidate-set sizes under vertex refinement H_1, H_2, …, H* (Hay et al.).",
    ),
    "h1-risk": (
        "privlab.cli.graph_attack", "h1_risk",
        "Candidate-set sizes under H_1 (degree knowledge) after a random perturbation.",
    ),
    "subgraph": (
        "privlab.cli.graph_attack", "subgraph",
        "Candidate-set sizes when the adversary knows b edges around each target (Hay et al.).",
    ),
    "active": (
        "privlab.cli.graph_attack", "active",
        "Backstrom et al.'s walk-based attack: plant sybils, release naively, find the targets.",
    ),
    "propagate": (
        "privlab.cli.graph_attack", "propagate",
        "Narayanan–Shmatikov seed-and-propagate de-anonymization of the sanitized graph.",
    ),
    "learned": (
        "privlab.cli.graph_attack", "learned",
        "Sharad's learned attack: train by splitting the releases, score pairs, ROC / TP@FP.",
    ),
    "cut": (
        "privlab.cli.graph_cut_attack", "cut",
        "Backstrom et al.'s cut-based attack: plant a small random subgraph joined to the "
        "targets by one edge each, release naively, find it by its small cut "
        "(flow-equivalent / Gomory–Hu tree) and read off the targets.",
    ),
    "kl": (
        "privlab.cli.graph_seeded", "kl",
        "Korula–Lattanzi reconciliation: match the pairs with the most common mapped "
        "neighbours.",
    ),
    "dv": (
        "privlab.cli.graph_seeded", "dv",
        "Distance vector (SecGraph's DV): match nodes by their distances to the seeds.",
    ),
    "yg": ("privlab.cli.graph_seeded", "yg", "Yartseva–Grossglauser percolation graph matching."),
    "jls": (
        "privlab.cli.graph_ji", "jls_command",
        "JLS+ (Ji et al., ISC 2014): match by seed distances, centralities and matched "
        "neighbours.",
    ),
    "jlsb": (
        "privlab.cli.graph_ji", "jlsb_command",
        "JLSB (Ji et al., CCS 2014): seedless matching by degrees and distances to landmarks.",
    ),
    "nka": (
        "privlab.cli.graph_nka", "nka_command",
        "Community-enhanced de-anonymization (Nilizadeh, Kapadia & Ahn, CCS 2014).",
    ),
    "pfg": (
        "privlab.cli.graph_pfg", "pfg",
        "PFG: seedless Bayesian matching by degree and landmark-distance fingerprints.",
    ),
    "sh": (
        "privlab.cli.graph_sh", "sh",
        "Srivatsa–Hicks: landmarks (the seeds), then one of three structural mappings.",
    ),
    "errors": (
        "privlab.cli.graph_mapping_errors", "errors",
        "Error proximity and 2-hop overlap of a mapping (Sharad's thesis, chapters 3 and 5).",
    ),
    "obfuscation": (
        "privlab.cli.graph_privacy", "obfuscation",
        "k-obfuscation under degree knowledge (Bonchi, Gionis & Tassa, ICDE 2011).",
    ),
    "links": (
        "privlab.cli.graph_privacy", "links",
        "Edge disclosure: how sure an adversary is that two friends are linked.",
    ),
    "group": (
        "privlab.cli.graph_privacy", "group",
        "Group re-identification (Hay et al.): targets attacked together.",
    ),
    "passive": (
        "privlab.cli.graph_privacy", "passive",
        "Backstrom et al.'s passive attack: a coalition of k friends finds itself in the "
        "naive release and re-identifies its other friends.",
    ),
}  # fmt: skip

attack_app = lazy_group(
    ATTACKS, "Re-identification attacks on graphs: how many people can an adversary single out?"
)

COMMANDS: CommandTable = {
    "anonymize": (
        "privlab.cli.graph", "anonymize",
        "Anonymize a graph with one scheme and write the release (and the mapping).",
    ),
    "pair": (
        "privlab.cli.graph", "pair",
        "Split a graph into an auxiliary and a sanitized graph with a known ground truth.",
    ),
    "utility": (
        "privlab.cli.graph", "utility",
        "Compare a release with the original on the graph utility metrics.",
    ),
    "generalize": (
        "privlab.cli.graph_generalize", "generalize",
        "Partition the nodes into supernodes of ≥ k nodes (Hay et al., VLDB 2008) and publish "
        "only supernode sizes and edge counts.",
    ),
    "attack": ("privlab.cli.graph_commands", "attack_app", attack_app.info.help),
}  # fmt: skip

app = lazy_group(COMMANDS, "Anonymize social graphs and measure what the release keeps.")
