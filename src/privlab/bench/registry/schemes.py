"""Anonymization schemes a spec may name (:data:`SCHEMES`) and :func:`parse_scheme`.

Graph: random sparsification / add-delete / switch / edge perturbation / insertion and
k-degree anonymization (Hay et al.; Sharad's RSP parametrized by α_E, seed 004 §2.9);
table: ARX's optimal full-domain k-anonymity, ℓ-diversity and t-closeness; microdata:
seed 001's (k, e)-anonymous permutation and target-distribution release (ch. 3); none:
Li et al.'s sampling + strongly-safe k-anonymization (analytic).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from privlab.bench.registry.cells import Cell, Release
from privlab.bench.registry.datasets import CAPITAL_LOSS
from privlab.bench.registry.naive import no_release
from privlab.errors import ConfigError


@dataclass(frozen=True)
class Scheme:
    """``apply(data, value, cell) -> Release``; ``params`` are the ``name:key=v`` options."""

    name: str
    kind: str
    apply: Callable[[Any, float, Cell], Release]
    params: tuple[str, ...]
    description: str
    integer: bool = False  # the parameter value must be an integer (k)
    # the release is a degree sequence (numpy array), not a graph: only degree_l1 applies
    degrees_only: bool = False
    # the value is an edge overlap α_E that the pair generator applies to both copies
    # (Sharad's RSP), not a scheme applied to the sanitized side
    pair_noise: bool = False


def _perturb(fn_name: str) -> Callable[[Any, float, Cell], Release]:
    def apply(g: Any, value: float, cell: Cell) -> Release:
        from privlab.graph.anonymize import perturb

        out = getattr(perturb, fn_name)(g, float(value), seed=cell.sub_seed(1))
        return Release(out.graph, out.parameters.get("m"))

    return apply


def _rsp_alpha(g: Any, value: float, cell: Cell) -> Release:
    from privlab.graph.anonymize.perturb import random_sparsification

    out = random_sparsification(g, (1 - value) / (1 + value), seed=cell.sub_seed(1))
    return Release(out.graph, out.parameters.get("m"))


def _secgraph_side(g: Any, value: float, cell: Cell) -> Release:
    """The sanitized side of SecGraph's pair (:func:`~privlab.graph.pairs.secgraph_pair`)."""
    from privlab.graph.pairs import secgraph_pair

    return Release(secgraph_pair(g, float(value), seed=cell.sub_seed(1)).san)


def _kda(g: Any, value: float, cell: Cell) -> Release:
    from privlab.graph.anonymize.kdegree import kdegree_anonymize

    out = kdegree_anonymize(g, int(value), seed=cell.sub_seed(1))
    return Release(out.graph)


def _kdegree(method: str) -> Callable[[Any, float, Cell], Release]:
    """k-degree anonymization by ``method`` (seed 000 Ch. 9); ``probing`` (default 4, the
    thesis's §9.8 choice), ``max_delta`` and ``max_probes`` from the scheme or the options."""

    def apply(g: Any, value: float, cell: Cell) -> Release:
        from privlab.graph.anonymize.kdegree import kdegree_anonymize

        p = cell.settings
        opts = {o: int(p[o]) for o in ("probing", "max_delta", "max_probes") if o in p}
        out = kdegree_anonymize(g, int(value), method=method, seed=cell.sub_seed(1), **opts)
        return Release(out.graph)

    return apply


def _degree_sequence(allow_decrease: bool) -> Callable[[Any, float, Cell], Release]:
    """The optimal even-sum k-anonymous degree sequence alone (no graph): DegreeAnonymization
    (additions) or OptimalDegreeAnon (median, additions and deletions), seed 000 §2.11."""

    def apply(g: Any, value: float, cell: Cell) -> Release:
        from privlab.graph.anonymize.kdegree_sequence import anonymize_degree_sequence

        out = anonymize_degree_sequence(g.degrees(), int(value), allow_decrease=allow_decrease)
        return Release(out.target)

    return apply


def _identity(data: Any, value: float, cell: Cell) -> Release:
    return Release(data, 0)


def _k_anonymity(table: Any, value: float, cell: Cell) -> Release:
    from privlab.table.anonymize import anonymize_table
    from privlab.table.models import KAnonymity

    limit = float(cell.settings.get("suppression", 0.0))
    out = anonymize_table(table, [KAnonymity(int(value))], suppression_limit=limit)
    return Release(out)


def _sensitive_model(model: str) -> Callable[[Any, float, Cell], Release]:
    """ℓ-diversity / t-closeness on the table's (first) sensitive column, optionally with k."""

    def apply(table: Any, value: float, cell: Cell) -> Release:
        from privlab.table import models as tm
        from privlab.table.anonymize import anonymize_table

        if not table.sensitive:
            raise ConfigError(f"scheme {model!r} needs a sensitive column: set data_options "
                              "sensitive = [\"occupation\"] (for example)")  # fmt: skip
        sa = table.sensitive[0]
        p = cell.settings
        if model == "l-diversity":
            models: list[Any] = [tm.DistinctLDiversity(sa, int(value))]
        elif model == "entropy-l-diversity":
            models = [tm.EntropyLDiversity(sa, float(value))]
        else:
            models = [tm.TCloseness(sa, float(value), distance=str(p.get("distance", "equal")))]
        k = int(p.get("k", 1))
        if k > 1:
            models.insert(0, tm.KAnonymity(k))
        out = anonymize_table(table, models, suppression_limit=float(p.get("suppression", 0.0)))
        return Release(out)

    return apply


def _ke_permute(method: str) -> Callable[[Any, float, Cell], Release]:
    """(k, e)-anonymous permutation (seed 001) with partitioner ``method``; k = 4, e = 100."""

    def apply(frame: Any, value: float, cell: Cell) -> Release:
        from privlab.table.permutation import permute

        p = cell.settings
        # Figs 2.9–2.10 sweep k or e (parameter = "k" / "e"); otherwise options or 4 / 100
        k = value if cell.parameter == "k" else p.get("k", 4)
        e = value if cell.parameter == "e" else p.get("e", 100)
        qi = [c for c in frame.columns if c != CAPITAL_LOSS]
        rel = permute(frame, qi=qi, sensitive=CAPITAL_LOSS, k=int(k), e=float(e),
                      method=method, seed=cell.sub_seed(1))  # fmt: skip
        return Release(rel)

    return apply


def _ldiv_partition(frame: Any, value: float, cell: Cell) -> Release:
    """Seed 001 §2.7's ℓ-diversity baseline partition, permuted (k, e ignored; ℓ = ``l``).

    :func:`~privlab.table.permutation.ldiversity_partition` with ARX's Adult hierarchies
    (``adult/adult_hierarchy_<qi>.csv`` under the data folder), distinct ℓ = 4, age kept
    below ``*``, the least-Loss minimal node, no suppression; its classes are permuted.
    """
    from privlab.bench.registry.datasets import data_root
    from privlab.table.hierarchy import Hierarchy
    from privlab.table.permutation import ldiversity_partition, release_from_groups

    root = data_root()
    if root is None:
        raise ConfigError("l-diversity-partition needs the data folder (PRIVLAB_DATA)")
    qi = [c for c in frame.columns if c != CAPITAL_LOSS]
    hier = {
        c: Hierarchy.from_csv(root / "adult" / f"adult_hierarchy_{c.replace('_', '-')}.csv")
        for c in qi
    }
    part = ldiversity_partition(frame, qi, CAPITAL_LOSS, hier, int(cell.settings.get("l", 4)),
                                keep="age")  # fmt: skip
    rel = release_from_groups(frame, qi=qi, sensitive=CAPITAL_LOSS, groups=part.groups,
                              parameters={"partitioner": "l-diversity", **part.to_dict()},
                              seed=cell.sub_seed(1))  # fmt: skip
    return Release(rel)


def _round_ratios(h: Any, ratio: int) -> Any:
    """Every inner node's child weights rounded to integers summing to ``ratio``.

    Seed 001 §3.7's "normalize the ratios to the ranges of 10": exact ratios such as
    1051:1050 make Algorithm 3's exact m-bound allocation empty and push every value to the
    root.  Largest remainders; a child may round to 0 (its values are then published in an
    ancestor's subdomain).
    """
    w = list(h.weight)
    for ch in h.children:
        tot = sum(h.weight[c] for c in ch)
        if not ch or tot == 0:
            continue
        exact = [h.weight[c] * ratio / tot for c in ch]
        ints = [math.floor(e) for e in exact]
        for i in sorted(range(len(ch)), key=lambda i: ints[i] - exact[i])[: ratio - sum(ints)]:
            ints[i] += 1
        for c, wi in zip(ch, ints, strict=True):
            w[c] = wi
    return h.with_weights(w)


def _target_hierarchy(x: np.ndarray, p: Mapping[str, Any]) -> Any:
    """The balanced hierarchy of the ``target`` scheme with the target's leaf weights."""
    from privlab.table.permutation.target import SAHierarchy

    lo, hi = int(x.min()), int(x.max())
    domain = str(p.get("domain", "values"))
    if domain == "range":
        dom = np.arange(lo, hi + 1)
    elif domain == "values":
        dom = np.unique(x).astype(np.int64)
    else:
        raise ConfigError(f"scheme target: domain = {domain!r}; use values or range")
    target = str(p.get("target", "uniform"))
    arity = int(p.get("arity", 2))
    if target == "uniform":
        return SAHierarchy.balanced(dom, arity=arity)
    if target == "source":
        counts = np.bincount(np.searchsorted(dom, x), minlength=dom.size)
        return SAHierarchy.balanced(dom, [int(c) for c in counts], arity=arity)
    if target == "normal":  # N(mid, (range / r)²) over the domain (Table 3.5: normal(4), (20))
        sd = (hi - lo) / float(p.get("r", 4))
        f = np.exp(-0.5 * ((dom - (lo + hi) / 2) / sd) ** 2)
    elif target == "zipf":  # rank 1 = the largest value (reproduces Table 3.5's 8:92)
        # zipf_rank = "smallest": rank 1 = the smallest value, as synthetic:capital-loss's
        # Zipf source (Fig. 3.4b compares the two)
        rank = dom - lo + 1.0 if p.get("zipf_rank") == "smallest" else hi - dom + 1.0
        f = rank ** -float(p.get("s", 1))
    else:
        raise ConfigError(f"scheme target: target = {target!r}; use uniform, source, normal "
                          "or zipf")  # fmt: skip
    return SAHierarchy.balanced(dom, [int(v) for v in np.rint(f / f.max() * 1e6)], arity=arity)


def _target(frame: Any, value: float, cell: Cell) -> Release:
    """Seed 001 ch. 3 target-distribution release (``target_release``), QI = age.

    Options (scheme or ``options``): ``target`` (uniform | source | normal with ``r`` |
    zipf with ``s``), ``domain`` (values: the distinct SA values; range: every integer from
    min to max), ``ratio`` (node ratios rounded to integers summing to it, default 10; 0 =
    exact), ``mode`` (sa-only | qi-sa), ``groups`` (owner groups: that many equal-width age
    bands, default 1 = the whole table), ``fakes`` (max_fakes: an int per group or a
    fraction < 1), ``shift`` (§3.6 factor x; the swept value when parameter = "shift"),
    ``group_target`` (``own``: every age band gets its own target — ``target`` and
    ``domain`` applied to that band's values, ratios rounded — through
    ``target_release_by_groups``, Fig. 3.5; default ``shared``: one target for all) with
    ``split`` (equal-width | equal-frequency age bands).
    """
    from privlab.table.permutation.target import (
        shifted_hierarchy,
        target_release,
        target_release_by_groups,
    )

    p = dict(cell.settings)
    if cell.parameter in ("r", "s", "groups", "arity"):  # Figs 3.4a–c, 3.5 sweep these
        p[cell.parameter] = value
    x = frame[CAPITAL_LOSS].to_numpy()
    shift = float(value) if cell.parameter == "shift" else p.get("shift")
    groups = int(p.get("groups", 1))
    mode = str(p.get("mode", "sa-only"))
    ratio = int(p.get("ratio", 10))
    left_out = [c for c in frame.columns if c not in ("age", CAPITAL_LOSS)]  # seed 001 §3.7
    group_target = str(p.get("group_target", "shared"))
    if group_target == "own":
        if shift is not None:
            raise ConfigError("scheme target: shift needs group_target = shared")

        def own(vals: np.ndarray) -> Any:
            h = _target_hierarchy(vals, p)
            return _round_ratios(h, ratio) if ratio > 0 else h

        rel = target_release_by_groups(
            frame, qi=["age"], sensitive=CAPITAL_LOSS, by="age", n_groups=groups, target=own,
            split=str(p.get("split", "equal-width")), mode=mode, max_fakes=p.get("fakes", 0),
            seed=cell.sub_seed(1), identifying=left_out,
        )  # fmt: skip
        return Release(rel)
    if group_target != "shared":
        raise ConfigError(f"scheme target: group_target = {group_target!r}; use shared or own")
    h = _target_hierarchy(x, p)
    if shift is not None:
        if groups != 1 or mode != "sa-only":
            raise ConfigError("scheme target: shift needs groups = 1 and mode = sa-only")
        h = shifted_hierarchy(h, x, float(shift))
    if ratio > 0:
        h = _round_ratios(h, ratio)
    gid = None
    if groups > 1:
        age = frame["age"].to_numpy()
        edges = np.linspace(age.min(), age.max() + 1, groups + 1)
        gid = np.searchsorted(edges, age, side="right") - 1
    fakes = p.get("fakes", 0)
    rel = target_release(frame, qi=["age"], sensitive=CAPITAL_LOSS, hierarchy=h, groups=gid,
                         mode=mode, max_fakes=fakes, seed=cell.sub_seed(1),
                         identifying=left_out)  # fmt: skip
    return Release(rel)


def _safe_k(_: Any, value: float, cell: Cell) -> Release:
    # the analytic scheme releases nothing: its metric (delta) is computed from parameters
    return Release(None)


def _swept(cell: Cell, name: str, value: float, default: Any) -> Any:
    """The swept value when the cell sweeps ``name``, else the setting (or ``default``)."""
    return value if cell.parameter == name else cell.settings.get(name, default)


def _parity(_: Any, value: float, cell: Cell) -> Release:
    """Li et al. §2.6's parity construction (privlab.dp.dps.parity_noncomposition): the
    "release" is the result of the demonstration (exact and simulated event probabilities)."""
    from privlab.dp.dps import parity_noncomposition

    p = cell.settings
    res = parity_noncomposition(
        int(_swept(cell, "n", value, 10_000)), float(_swept(cell, "beta", value, 0.5)),
        threshold=int(_swept(cell, "threshold", value, 1000)),
        epsilon=float(_swept(cell, "epsilon", value, 1.0)),
        trials=int(p.get("trials", 100_000)), seed=cell.sub_seed(1),
    )  # fmt: skip
    return Release(res)


def _fresh_sampling(_: Any, value: float, cell: Cell) -> Release:
    """Li et al. §2.7's repeated fresh sampling (privlab.dp.dps.fresh_sampling): the composed
    guarantee of ``rounds`` releases, each (ε, δ)-DP on its own β-sample (analytic)."""
    from privlab.dp.dps import fresh_sampling

    rounds = _swept(cell, "rounds", value, 50)
    if float(rounds) != int(rounds):
        raise ConfigError(f"scheme fresh-sampling: rounds = {rounds!r}; give whole numbers")
    res = fresh_sampling(float(_swept(cell, "beta", value, 0.2)), int(rounds),
                         float(_swept(cell, "epsilon", value, 0.02)),
                         float(_swept(cell, "delta", value, 0.0)))  # fmt: skip
    return Release(res)


def _prop1(_: Any, value: float, cell: Cell) -> Release:
    """Li et al. Proposition 1 (privlab.dp.dps.proposition_1): a strongly-safe
    k-anonymization without sampling, against the same with β-sampling (analytic)."""
    from privlab.dp.dps import proposition_1

    k = _swept(cell, "k", value, 20)
    res = proposition_1(int(k), beta=float(_swept(cell, "beta", value, 0.2)),
                        epsilon=float(_swept(cell, "epsilon", value, 1.0)))  # fmt: skip
    return Release(res)


SCHEMES: dict[str, Scheme] = {
    s.name: s
    for s in (
        Scheme("none", "graph", _identity, (), "the original graph (baseline)"),
        Scheme("rsp", "graph", _perturb("random_sparsification"), (),
               "random sparsification: delete a fraction of the edges"),
        Scheme("rsp-alpha", "graph", _rsp_alpha, (),
               "RSP parametrized by Sharad's α_E: deletes β = (1 − α_E)/(1 + α_E) of the edges",
               pair_noise=True),
        Scheme("secgraph-p", "graph", _secgraph_side, (),
               "SecGraph's pair: two edge samples keeping each edge with probability p (and "
               "a BFS tree), same nodes", pair_noise=True),
        Scheme("rad", "graph", _perturb("random_add_delete"), (),
               "random add/delete (Hay et al.): delete then insert m = fraction·|E| edges"),
        Scheme("rsw", "graph", _perturb("random_switch"), (), "random switch (degree-preserving)"),
        Scheme("rep", "graph", _perturb("random_edge_perturbation"), (),
               "random edge perturbation with flip probability μ"),
        Scheme("ri", "graph", _perturb("random_insertion"), (),
               "random insertion (Sharad's 1HKA proxy): add fraction·|E| non-edges"),
        Scheme("kda", "graph", _kda, (), "k-degree anonymization (simultaneous swap)",
               integer=True),
        *(Scheme(name, "graph", _kdegree(method), ("probing", "max_delta", "max_probes"), text,
                 integer=True)
          for name, method, text in (
              ("kda-supergraph", "supergraph", "k-degree anonymization, SuperGraph with "
               "probing (thesis Alg 9.4; edges only added)"),
              ("kda-relaxed", "relaxed", "k-degree anonymization, RelaxedConstruction "
               "(thesis Alg 9.7)"),
              ("kda-simulswap", "simultaneous_swap", "k-degree anonymization, "
               "SimultaneousSwap (thesis Alg 9.8)"),
              ("kda-subgraph", "subgraph", "k-degree anonymization by deletions only, "
               "through the complement (thesis Alg 9.1)"),
          )),
        Scheme("degree-anon", "graph", _degree_sequence(False), (),
               "DegreeAnonymization's k-anonymous degree sequence only (additions; no graph)",
               integer=True, degrees_only=True),
        Scheme("optimal-degree-anon", "graph", _degree_sequence(True), (),
               "OptimalDegreeAnon's k-anonymous degree sequence only (median: additions and "
               "deletions; no graph)", integer=True, degrees_only=True),
        Scheme("k-anonymity", "table", _k_anonymity, ("suppression",),
               "optimal full-domain k-anonymization (Loss), parameter k", integer=True),
        Scheme("l-diversity", "table", _sensitive_model("l-diversity"), ("k", "suppression"),
               "optimal full-domain distinct ℓ-diversity (Loss) on the sensitive column, "
               "parameter ℓ", integer=True),
        Scheme("entropy-l-diversity", "table", _sensitive_model("entropy-l-diversity"),
               ("k", "suppression"), "optimal full-domain entropy ℓ-diversity, parameter ℓ"),
        Scheme("t-closeness", "table", _sensitive_model("t-closeness"),
               ("k", "suppression", "distance"),
               "optimal full-domain t-closeness (equal or ordered distance), parameter t"),
        *(Scheme(m, "microdata", _ke_permute(m), ("k", "e"),
                 f"(k, e)-anonymous permutation, partitioner {m} (seed 001; k = 4, e = 100)")
          for m in ("min-sum", "min-max", "max-group", "random", "swap")),
        Scheme("l-diversity-partition", "microdata", _ldiv_partition, ("l",),
               "the classes of a minimal distinct ℓ-diverse full-domain generalization, "
               "permuted (seed 001's baseline; ARX's Adult hierarchies, age kept)"),
        Scheme("target", "microdata", _target,
               ("target", "r", "s", "domain", "ratio", "mode", "groups", "fakes", "shift",
                "arity", "zipf_rank", "group_target", "split"),
               "target-distribution release (seed 001 ch. 3, target_release; QI = age)"),
        Scheme("safe-k", "none", _safe_k, ("k", "beta"),
               "Li et al.'s sampling + strongly-safe k-anonymization (analytic)"),
        Scheme("parity", "none", _parity, ("n", "beta", "threshold", "epsilon", "trials"),
               "Li et al.'s parity construction: a DPS and an ε-DP mechanism that together "
               "reveal a tuple (exact and simulated)"),
        Scheme("fresh-sampling", "none", _fresh_sampling, ("beta", "rounds", "epsilon", "delta"),
               "Li et al.'s repeated fresh sampling: R releases composed (analytic)"),
        Scheme("prop1", "none", _prop1, ("k", "beta", "epsilon"),
               "Li et al.'s Proposition 1: strongly-safe k-anonymization without sampling"),
        Scheme("naive-curator", "none", no_release, ("n", "targets", "prevalence", "epsilon"),
               "a naive curator answering queries (seed 000's naive defences; no release)"),
    )
}  # fmt: skip
SCHEMES["1hka"] = SCHEMES["ri"]


def parse_scheme(text: str) -> tuple[str, dict[str, Any]]:
    """``"name"`` or ``"name:key=value,key=value"`` → (name, {key: number or str}).

    ConfigError for an unknown scheme or option.
    """
    name, _, rest = str(text).partition(":")
    name = name.strip().lower()
    if name not in SCHEMES:
        raise ConfigError(f"unknown scheme {text!r}: use one of {', '.join(sorted(SCHEMES))}")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        if not eq or key not in SCHEMES[name].params:
            allowed = ", ".join(SCHEMES[name].params) or "no options"
            raise ConfigError(f"scheme {text!r}: bad option {part!r}; {name} takes: {allowed}")
        try:
            params[key] = float(raw) if "." in raw or "e" in raw.lower() else int(raw)
        except ValueError:
            params[key] = raw.strip()
    return name, params
