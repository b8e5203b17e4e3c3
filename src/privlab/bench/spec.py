"""Benchmark specs: TOML files describing experiment grids, validated into dataclasses.

A spec file::

    [spec]
    name = "hay-fig9"
    title = "Hay et al. Fig. 9: utility under random add/delete"
    seed = 0                      # optional base seed (default 0)

    [[experiment]]
    name = "grqc"
    title = "ca-GrQc"
    data = "ca-grqc"              # a key of privlab.bench.registry.DATASETS
    data_options = { largest_component = true }
    schemes = ["rad"]             # "name" or "name:key=value,..." (registry.SCHEMES)
    parameter = "fraction"
    values = [0.0, 0.02, 0.05, 0.1]   # or a table {scheme = [...]} per scheme
    metrics = ["clustering", "avg_path_length"]
    attacks = []
    seeds = 3                     # a count (0..n-1) or a list of ints
    x_label = "fraction of edges perturbed"
    y_labels = { clustering = "clustering coefficient" }
    log_y = false                 # log scales in the report's plots (also log_x)
    options = { path_sample = 200 }

    [experiment.reduced]          # what --reduced replaces (any of the keys above)
    values = [0.0, 0.1]
    data_options = { max_nodes = 400 }

Every error is a :class:`~privlab.errors.ConfigError` naming the file, the experiment (its
index and name) and the key.
"""

from __future__ import annotations

import hashlib
import json
import math
import tomllib
from dataclasses import asdict, dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from privlab.bench import registry
from privlab.errors import ConfigError

#: The metrics that apply to a scheme whose release is a degree sequence (degrees_only).
DEGREE_METRICS = frozenset({"degree_l1"})

#: Most seeds an experiment may repeat its cells with: more is a typo (and would not fit).
MAX_SEEDS = 10_000

_SPEC_KEYS = {"name", "title", "seed", "description"}
_EXP_KEYS = {
    "name", "title", "data", "data_options", "schemes", "parameter", "values", "metrics",
    "attacks", "seeds", "x_label", "y_labels", "log_x", "log_y", "options", "reduced",
    "description",
}  # fmt: skip


@dataclass(frozen=True)
class Experiment:
    """One grid: schemes × values × seeds on one data set, with metrics and attacks."""

    name: str
    title: str
    data: str
    data_options: dict[str, Any]
    schemes: tuple[str, ...]
    parameter: str
    values: dict[str, tuple[float, ...]]  # per scheme
    metrics: tuple[str, ...]
    attacks: tuple[str, ...]
    seeds: tuple[int, ...]
    x_label: str
    y_labels: dict[str, str]
    options: dict[str, Any] = field(default_factory=dict)
    reduced: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    log_x: bool = False  # the report draws this axis on a log scale
    log_y: bool = False

    @property
    def outputs(self) -> tuple[str, ...]:
        """Every metric name this experiment's cells produce, in order."""
        out = list(self.metrics)
        for a in self.attacks:
            out.extend(registry.ATTACKS[a].outputs)
        return tuple(out)

    @property
    def n_cells(self) -> int:
        return sum(len(self.values[s]) for s in self.schemes) * len(self.seeds)


@dataclass(frozen=True)
class Spec:
    """A validated benchmark spec (see the module docstring for the file format)."""

    name: str
    title: str
    experiments: tuple[Experiment, ...]
    seed: int = 0
    source: str = "<spec>"
    description: str = ""
    is_reduced: bool = False

    @property
    def n_cells(self) -> int:
        return sum(e.n_cells for e in self.experiments)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("source")
        return d

    def hash(self) -> str:
        """SHA-256 of the grid's definition (not of the source path): guards --resume."""
        payload = json.dumps(self.to_dict(), sort_keys=True, default=str)
        return hashlib.sha256(payload.encode()).hexdigest()

    def reduce(self) -> Spec:
        """The spec with every experiment's ``[experiment.reduced]`` overrides applied."""
        if self.is_reduced:
            return self
        exps = []
        for i, e in enumerate(self.experiments):
            raw = {**e.reduced}
            if not raw:
                exps.append(e)
                continue
            base = _raw_of(e)
            for key, val in raw.items():
                if key in ("data_options", "options") and isinstance(val, dict):
                    base[key] = {**base[key], **val}
                else:
                    base[key] = val
            base["reduced"] = {}
            exps.append(_experiment(base, i, self.source))
        return replace(self, experiments=tuple(exps), is_reduced=True)

    def with_seeds(self, n: int) -> Spec:
        """Every experiment repeated with seeds 0..n−1."""
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_SEEDS:
            raise ConfigError(f"seeds = {n!r}: give an integer from 1 to {MAX_SEEDS}")
        exps = tuple(replace(e, seeds=tuple(range(n))) for e in self.experiments)
        return replace(self, experiments=exps)


def _raw_of(e: Experiment) -> dict[str, Any]:
    return {
        "name": e.name, "title": e.title, "data": e.data, "data_options": dict(e.data_options),
        "schemes": list(e.schemes), "parameter": e.parameter,
        "values": {s: list(v) for s, v in e.values.items()}, "metrics": list(e.metrics),
        "attacks": list(e.attacks), "seeds": list(e.seeds), "x_label": e.x_label,
        "y_labels": dict(e.y_labels), "options": dict(e.options), "description": e.description,
        "log_x": e.log_x, "log_y": e.log_y,
    }  # fmt: skip


# ============================================================================ parsing


def _err(source: str, where: str, msg: str) -> ConfigError:
    return ConfigError(f"{source}: {where}: {msg}")


def _str(raw: dict, key: str, source: str, where: str, default: str | None = None) -> str:
    if key not in raw:
        if default is not None:
            return default
        raise _err(source, where, f"missing key {key!r}")
    v = raw[key]
    if not isinstance(v, str) or not v.strip():
        raise _err(source, where, f"{key} = {v!r}: give a non-empty string")
    return v


def _names(raw: dict, key: str, source: str, where: str, known: dict, kind: str) -> tuple:
    v = raw.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise _err(source, where, f"{key} = {v!r}: give a list of names")
    for x in v:
        if x not in known:
            raise _err(source, where, f"{key}: unknown name {x!r}; use one of {', '.join(known)}")
        if known[x].kind != kind:
            raise _err(
                source, where, f"{key}: {x!r} applies to {known[x].kind} data, not to {kind} data"
            )
    if len(set(v)) != len(v):
        raise _err(source, where, f"{key}: a name is listed twice")
    return tuple(v)


def _numbers(v: Any, source: str, where: str, key: str, integer: bool) -> tuple[float, ...]:
    if not isinstance(v, list) or not v:
        raise _err(source, where, f"{key} = {v!r}: give a non-empty list of numbers")
    out = []
    for x in v:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise _err(source, where, f"{key}: {x!r} is not a finite number")
        if integer and float(x) != int(x):
            raise _err(source, where, f"{key}: {x!r} must be an integer for this scheme")
        out.append(float(x))
    if len(set(out)) != len(out):
        raise _err(source, where, f"{key}: a value is listed twice")
    return tuple(out)


def _experiment(raw: Any, index: int, source: str) -> Experiment:
    where = f"[[experiment]] #{index + 1}"
    if not isinstance(raw, dict):
        raise _err(source, where, "must be a table")
    name = _str(raw, "name", source, where)
    where = f"[[experiment]] #{index + 1} ({name!r})"
    unknown = sorted(set(raw) - _EXP_KEYS)
    if unknown:
        raise _err(source, where, f"unknown key(s) {', '.join(map(repr, unknown))}; "
                   f"allowed: {', '.join(sorted(_EXP_KEYS))}")  # fmt: skip
    data = _str(raw, "data", source, where)
    if data not in registry.DATASETS:
        raise _err(source, where, f"data = {data!r}: use one of {', '.join(registry.DATASETS)}")
    ds = registry.DATASETS[data]
    kind = ds.kind
    data_options = raw.get("data_options", {})
    if not isinstance(data_options, dict):
        raise _err(source, where, f"data_options = {data_options!r}: give a table")
    bad = sorted(set(data_options) - set(ds.options))
    if bad:
        raise _err(source, where, f"data_options: {data!r} has no option {', '.join(bad)}; it "
                   f"takes: {', '.join(ds.options) or 'none'}")  # fmt: skip
    schemes = raw.get("schemes")
    if not isinstance(schemes, list) or not schemes or not all(isinstance(s, str) for s in schemes):
        raise _err(source, where, f"schemes = {schemes!r}: give a non-empty list of scheme names")
    if len(set(schemes)) != len(schemes):
        raise _err(source, where, "schemes: a scheme is listed twice")
    parsed = {}
    for s in schemes:
        try:
            parsed[s] = registry.parse_scheme(s)
        except ConfigError as exc:
            raise _err(source, where, f"schemes: {exc}") from None
        sk = registry.SCHEMES[parsed[s][0]].kind
        if sk != kind:
            raise _err(source, where, f"schemes: {s!r} applies to {sk} data, not to {data!r}")
    parameter = _str(raw, "parameter", source, where)
    values_raw = raw.get("values")
    values: dict[str, tuple[float, ...]] = {}
    if isinstance(values_raw, dict):
        extra = sorted(set(values_raw) - set(schemes))
        if extra:
            raise _err(source, where, f"values: {', '.join(extra)} not in schemes")
        for s in schemes:
            if s not in values_raw:
                raise _err(source, where, f"values: no values for scheme {s!r}")
            integer = registry.SCHEMES[parsed[s][0]].integer
            values[s] = _numbers(values_raw[s], source, where, f"values.{s}", integer)
    else:
        for s in schemes:
            integer = registry.SCHEMES[parsed[s][0]].integer
            values[s] = _numbers(values_raw, source, where, "values", integer)
    metrics = _names(raw, "metrics", source, where, registry.METRICS, kind)
    attacks = _names(raw, "attacks", source, where, registry.ATTACKS, kind)
    for s in schemes:
        if registry.SCHEMES[parsed[s][0]].degrees_only and (
            set(metrics) - DEGREE_METRICS or attacks
        ):
            only = ", ".join(sorted(DEGREE_METRICS))
            raise _err(source, where, f"schemes: {s!r} releases a degree sequence, not a "
                       f"graph; only the metrics {only} apply")  # fmt: skip
    if not metrics and not attacks:
        raise _err(source, where, "give at least one of metrics and attacks")
    for a in attacks:
        allowed = registry.ATTACKS[a].schemes
        if allowed is not None:
            for s in schemes:
                if parsed[s][0] not in allowed:
                    raise _err(source, where, f"attacks: {a!r} applies only to schemes "
                               f"{', '.join(allowed)}, not to {s!r}")  # fmt: skip
    seeds_raw = raw.get("seeds", 1)
    if isinstance(seeds_raw, bool):
        seeds_raw = None
    if isinstance(seeds_raw, int) and 1 <= seeds_raw <= MAX_SEEDS:
        seeds = tuple(range(seeds_raw))
    elif (
        isinstance(seeds_raw, list) and 1 <= len(seeds_raw) <= MAX_SEEDS
        and all(isinstance(x, int) and not isinstance(x, bool) and -(2**63) <= x < 2**63
                for x in seeds_raw)
        and len(set(seeds_raw)) == len(seeds_raw)
    ):  # fmt: skip
        seeds = tuple(seeds_raw)
    else:
        raise _err(source, where, f"seeds = {raw.get('seeds')!r}: give a count from 1 to "
                   f"{MAX_SEEDS} or a list of distinct 64-bit integers")  # fmt: skip
    x_label = _str(raw, "x_label", source, where, default=parameter)
    y_raw = raw.get("y_labels", {})
    if not isinstance(y_raw, dict) or not all(isinstance(v, str) for v in y_raw.values()):
        raise _err(source, where, f'y_labels = {y_raw!r}: give a table metric = "label"')
    outputs = list(metrics) + [o for a in attacks for o in registry.ATTACKS[a].outputs]
    extra = sorted(set(y_raw) - set(outputs))
    if extra:
        raise _err(source, where, f"y_labels: {', '.join(extra)} is not a metric of this "
                   f"experiment ({', '.join(outputs)})")  # fmt: skip
    defaults = registry.output_labels()
    y_labels = {o: y_raw.get(o, defaults.get(o, o)) for o in outputs}
    for key in ("log_x", "log_y"):
        if not isinstance(raw.get(key, False), bool):
            raise _err(source, where, f"{key} = {raw[key]!r}: give true or false")
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise _err(source, where, f"options = {options!r}: give a table")
    for a in attacks:
        if registry.ATTACKS[a].check is not None:
            try:
                registry.ATTACKS[a].check(dict(options))
            except ConfigError as exc:
                raise _err(source, where, f"options: {exc}") from None
    reduced = raw.get("reduced", {})
    if not isinstance(reduced, dict):
        raise _err(source, where, f"reduced = {reduced!r}: give a table")
    bad = sorted(set(reduced) - (_EXP_KEYS - {"name", "reduced"}))
    if bad:
        raise _err(source, where, f"reduced: unknown key(s) {', '.join(bad)}")
    return Experiment(
        name=name, title=_str(raw, "title", source, where, default=name), data=data,
        data_options=dict(data_options), schemes=tuple(schemes), parameter=parameter,
        values=values, metrics=metrics, attacks=attacks, seeds=seeds, x_label=x_label,
        y_labels=y_labels, options=dict(options), reduced=dict(reduced),
        description=str(raw.get("description", "")), log_x=raw.get("log_x", False),
        log_y=raw.get("log_y", False),
    )  # fmt: skip


def parse_spec(doc: dict[str, Any], source: str = "<spec>") -> Spec:
    """Validate a parsed TOML document into a :class:`Spec` (ConfigError naming ``source``)."""
    head = doc.get("spec")
    if not isinstance(head, dict):
        raise _err(source, "[spec]", "missing table [spec] with name and title")
    unknown = sorted(set(head) - _SPEC_KEYS)
    if unknown:
        raise _err(source, "[spec]", f"unknown key(s) {', '.join(unknown)}")
    extra = sorted(set(doc) - {"spec", "experiment"})
    if extra:
        raise _err(source, "top level", f"unknown table(s) {', '.join(extra)}; use [spec] and "
                   "[[experiment]]")  # fmt: skip
    name = _str(head, "name", source, "[spec]")
    seed = head.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise _err(source, "[spec]", f"seed = {seed!r}: give an integer ≥ 0")
    exps_raw = doc.get("experiment")
    if not isinstance(exps_raw, list) or not exps_raw:
        raise _err(source, "[[experiment]]", "give at least one [[experiment]] table")
    exps = tuple(_experiment(r, i, source) for i, r in enumerate(exps_raw))
    names = [e.name for e in exps]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise _err(source, "[[experiment]]", f"experiment name(s) {', '.join(dup)} used twice")
    return Spec(
        name=name, title=_str(head, "title", source, "[spec]", default=name), experiments=exps,
        seed=seed, source=source, description=str(head.get("description", "")),
    )  # fmt: skip


def parse_text(text: str, source: str = "<spec>") -> Spec:
    """Parse TOML text into a :class:`Spec`."""
    try:
        doc = tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer of more than 4300 digits
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    return parse_spec(doc, source)


def builtin_specs() -> dict[str, str]:
    """{name: title} of the specs shipped in ``privlab/bench/specs``."""
    out = {}
    for f in sorted(resources.files("privlab.bench").joinpath("specs").iterdir()):
        if f.name.endswith(".toml"):
            spec = parse_text(f.read_text(encoding="utf-8"), f"built-in spec {f.name}")
            out[f.name[:-5]] = spec.title
    return out


def load_spec(spec: str | Path) -> Spec:
    """A spec from a path to a TOML file or the name of a built-in spec."""
    p = Path(spec)
    if p.suffix == ".toml" or p.exists():
        if not p.is_file():
            raise ConfigError(f"{p}: no such spec file")
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{p}: not UTF-8 text ({exc.reason}); save it as UTF-8") from None
        return parse_text(text, str(p))
    f = resources.files("privlab.bench").joinpath("specs").joinpath(f"{spec}.toml")
    if not f.is_file():
        names = ", ".join(builtin_specs())
        raise ConfigError(f"{spec!r}: neither a spec file nor a built-in spec ({names})")
    return parse_text(f.read_text(encoding="utf-8"), f"built-in spec {spec}")


__all__ = [
    "Experiment",
    "Spec",
    "builtin_specs",
    "load_spec",
    "parse_spec",
    "parse_text",
]
