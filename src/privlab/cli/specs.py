"""Parsing of the CLI's compact model and option specs (``SA:distinct:3``, ``COL=FILE``, ``2%``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from privlab.errors import ConfigError
from privlab.table.hierarchy import Hierarchy
from privlab.table.metrics import METRICS, Metric, make_metric, metric_options
from privlab.table.models import (
    DeltaDisclosure,
    DistinctLDiversity,
    EntropyLDiversity,
    KEAnonymity,
    PrivacyModel,
    RecursiveCLDiversity,
    TCloseness,
)


def _number(option: str, spec: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ConfigError(f"{option} {spec!r}: {text!r} is not a number") from None


def parse_pairs(option: str, items: Sequence[str]) -> dict[str, str]:
    """``COL=VALUE`` items into a dict; names the bad item."""
    out: dict[str, str] = {}
    for item in items:
        col, sep, value = item.partition("=")
        if not sep or not col or not value:
            raise ConfigError(
                f"{option} {item!r}: expected COLUMN=VALUE, e.g. {option} age=age.csv"
            )
        if col in out:
            raise ConfigError(f"{option}: column {col!r} given twice")
        out[col] = value
    return out


def parse_fraction(option: str, text: str | float) -> float:
    """``0.02`` or ``2%`` → 0.02."""
    s = str(text).strip()
    value = _number(option, s, s[:-1]) / 100.0 if s.endswith("%") else _number(option, s, s)
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"{option} {s!r}: must be a fraction in [0, 1] or a percentage 0%–100%")
    return value


def parse_l_diversity(spec: str) -> PrivacyModel:
    """``SA:distinct:L``, ``SA:entropy:L`` or ``SA:recursive:C:L``."""
    parts = spec.split(":")
    usage = "expected SA:distinct:L, SA:entropy:L or SA:recursive:C:L"
    if len(parts) < 3:
        raise ConfigError(f"--l-diversity {spec!r}: {usage}")
    sa, kind = parts[0], parts[1]
    if kind == "distinct" and len(parts) == 3:
        value = _number("--l-diversity", spec, parts[2])
        if value != int(value):
            raise ConfigError(f"--l-diversity {spec!r}: distinct l must be a whole number")
        return DistinctLDiversity(sensitive=sa, l=int(value))
    if kind == "entropy" and len(parts) == 3:
        return EntropyLDiversity(sensitive=sa, l=_number("--l-diversity", spec, parts[2]))
    if kind == "recursive" and len(parts) == 4:
        c = _number("--l-diversity", spec, parts[2])
        value = _number("--l-diversity", spec, parts[3])
        if value != int(value):
            raise ConfigError(f"--l-diversity {spec!r}: l must be a whole number")
        return RecursiveCLDiversity(sensitive=sa, c=c, l=int(value))
    raise ConfigError(f"--l-diversity {spec!r}: {usage}")


def parse_t_closeness(spec: str, sensitive_hierarchies: Mapping[str, Hierarchy]) -> PrivacyModel:
    """``SA:equal:T``, ``SA:ordered:T`` or ``SA:hierarchical:T``."""
    parts = spec.split(":")
    if len(parts) != 3 or parts[1] not in ("equal", "ordered", "hierarchical"):
        raise ConfigError(
            f"--t-closeness {spec!r}: expected SA:equal:T, SA:ordered:T or SA:hierarchical:T"
        )
    sa, kind, t = parts
    hierarchy = sensitive_hierarchies.get(sa)
    if kind == "hierarchical" and hierarchy is None:
        raise ConfigError(
            f"--t-closeness {spec!r}: hierarchical distance needs --sensitive-hierarchy {sa}=FILE"
        )
    return TCloseness(
        sensitive=sa, t=_number("--t-closeness", spec, t), distance=kind, hierarchy=hierarchy
    )


def parse_delta(spec: str) -> PrivacyModel:
    """``SA:DELTA``."""
    sa, sep, delta = spec.partition(":")
    if not sep:
        raise ConfigError(f"--delta-disclosure {spec!r}: expected SA:DELTA, e.g. disease:1.2")
    return DeltaDisclosure(sensitive=sa, delta=_number("--delta-disclosure", spec, delta))


def parse_ke(spec: str) -> PrivacyModel:
    """``SA:K:E``."""
    parts = spec.split(":")
    if len(parts) != 3:
        raise ConfigError(f"--ke {spec!r}: expected SA:K:E, e.g. capital-loss:5:1000")
    k = _number("--ke", spec, parts[1])
    if k != int(k):
        raise ConfigError(f"--ke {spec!r}: k must be a whole number")
    return KEAnonymity(sensitive=parts[0], k=int(k), e=_number("--ke", spec, parts[2]))


def parse_metric(name: str, gs: float | None = None, aggregation: str | None = None) -> Metric:
    """``--metric NAME`` (with ``--gs`` and ``--aggregation``) into a metric object.

    Names: the keys of :data:`privlab.table.metrics.METRICS` (loss, dm, dm-star, aecs,
    entropy, precision, kl, height), case-insensitive.  An option left out (None) keeps the
    metric's own default (ARX's); an option the metric does not have is an error naming the
    metrics that do have it.
    """
    key = str(name).strip().lower()
    if key not in METRICS:
        raise ConfigError(f"--metric {name!r}: unknown metric; use one of {', '.join(METRICS)}")
    takes = metric_options(key)
    options: dict[str, object] = {}
    for flag, option, value in (("--gs", "gs", gs), ("--aggregation", "aggregation", aggregation)):
        if value is None or value == "":
            continue
        if option not in takes:
            having = [m for m in METRICS if option in metric_options(m)]
            raise ConfigError(
                f"{flag} {value}: --metric {key} has no such option; "
                f"{flag} applies to {', '.join(having)}"
            )
        options[option] = value
    return make_metric(key, **options)
