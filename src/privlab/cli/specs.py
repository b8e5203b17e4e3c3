"""Parsing of the CLI's compact model and option specs (``SA:distinct:3``, ``COL=FILE``, ``2%``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from privlab.errors import ConfigError
from privlab.table.hierarchy import Hierarchy
from privlab.table.hierarchy_builders import HIERARCHY_KINDS, build_hierarchy
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
        value = float(text)
    except ValueError:
        raise ConfigError(f"{option} {spec!r}: {text!r} is not a number") from None
    if not math.isfinite(value):  # no parameter is infinite, and int() would fail on it
        raise ConfigError(f"{option} {spec!r}: {text!r} is not a finite number")
    return value


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


# ---------------------------------------------------------------------------- hierarchies
#: Label of the missing-value leaf under ``--missing category`` (MicroTable's default).
CLI_MISSING_LABEL = "?"

HIERARCHY_SPEC_HELP = (
    "interval:width=W[,fanout=F,levels=N,start=S,bottom=B,top=T] | "
    "order[:values=A/B/C,group=G or G1/G2] | masking[:char=C,pad=P,from=right|left] | "
    "date[:format=F,LEVEL,...] with LEVEL in week, month, quarter, year, decade | "
    "flat (keep or suppress only)"
)


@dataclass(frozen=True)
class HierarchySpec:
    """A hierarchy to build from the data: a kind and the builder's keyword parameters."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)

    def build(
        self,
        values: Any,
        *,
        column: str,
        source: str | None = None,
        missing_label: str | None = None,
        first_line: int = 2,
    ) -> Hierarchy:
        """Run the builder of :mod:`privlab.table.hierarchy_builders` on ``values``."""
        return build_hierarchy(
            self.kind,
            values,
            column=column,
            source=source,
            missing_label=missing_label,
            first_line=first_line,
            **self.params,
        )


def parse_sizes(option: str, text: str) -> list[int]:
    """``3`` → [3]; ``4/2`` or ``4,2`` → [4, 2] (group sizes per level)."""
    parts = [p.strip() for p in str(text).replace("/", ",").split(",")]
    if not parts or any(p == "" for p in parts):
        raise ConfigError(f"{option} {text!r}: expected a group size such as 3, or 4/2 per level")
    sizes = []
    for p in parts:
        value = _number(option, text, p)
        if value != int(value) or value < 2:
            raise ConfigError(f"{option} {text!r}: group sizes must be whole numbers >= 2")
        sizes.append(int(value))
    return sizes


def parse_hierarchy_spec(
    spec: str, option: str = "--hierarchy", column: str | None = None
) -> HierarchySpec:
    """Parse an inline hierarchy spec (the part after ``COLUMN=``).

    Forms: ``interval:width=5,top=90`` (keys width [required], fanout, levels, start,
    bottom, top), ``order`` / ``order:group=3`` / ``order:group=4/2`` (group sizes; default
    2) / ``order:values=low/medium/high`` (the order of the values, ``/``-separated; every
    value of the column must be listed; default: numeric, else text order), ``masking`` /
    ``masking:char=#,from=left`` (keys char, pad, from), ``date`` / ``date:month,year`` /
    ``date:format=%d.%m.%Y,year,decade`` (bare words are the levels; default month, year,
    decade), ``flat`` (each value, then ``*``).  Parameters are separated by commas, so a
    date format or an ordered value cannot contain one (nor, for values, a ``/``).  Errors
    name the option and the item.
    """
    where = f"{option} {column}={spec}" if column else f"{option} {spec!r}"

    def fail(message: str) -> ConfigError:
        return ConfigError(f"{where}: {message}")

    def number(key: str, text: str, whole: bool = False) -> float | int:
        try:
            value = float(text)
        except ValueError:
            raise fail(f"{key} {text!r} is not a number") from None
        if not math.isfinite(value):
            raise fail(f"{key} {text!r} is not a finite number")
        if whole:
            if value != int(value):
                raise fail(f"{key} must be a whole number, got {text!r}")
            return int(value)
        return value

    kind, _, rest = str(spec).partition(":")
    kind = kind.strip().lower()
    if kind not in HIERARCHY_KINDS:
        raise fail(f"unknown hierarchy kind {kind!r}; use {HIERARCHY_SPEC_HELP}")
    keys: dict[str, str] = {}
    words: list[str] = []
    for item in (p.strip() for p in rest.split(",")):
        if not item:
            continue
        key, sep, value = item.partition("=")
        if not sep:
            words.append(item)
            continue
        key = key.strip().lower()
        if key in keys:
            raise fail(f"{key} given twice")
        keys[key] = value.strip()

    allowed = {
        "interval": ("width", "fanout", "levels", "start", "bottom", "top"),
        "order": ("group", "values"),
        "masking": ("char", "pad", "from"),
        "date": ("format",),
        "flat": (),
    }[kind]
    unknown = [k for k in keys if k not in allowed]
    if unknown:
        raise fail(
            f"unknown parameter {unknown[0]!r} for a {kind} hierarchy; "
            f"its parameters are {', '.join(allowed)}"
        )
    params: dict[str, Any] = {}
    if kind == "interval":
        if words:
            raise fail(f"expected KEY=VALUE, got {words[0]!r}")
        if "width" not in keys:
            raise fail("an interval hierarchy needs width=W, e.g. interval:width=5")
        for key in ("width", "start", "bottom", "top"):
            if key in keys:
                params[key] = number(key, keys[key])
        for key in ("fanout", "levels"):
            if key in keys:
                params[key] = number(key, keys[key], whole=True)
    elif kind == "order":
        if len(words) > 1 or (words and "group" in keys):
            raise fail("expected order:group=G or order:group=G1/G2, and values=A/B/C")
        sizes = parse_sizes(where, keys.get("group") or (words[0] if words else "2"))
        params["group_size"] = sizes[0] if len(sizes) == 1 else sizes
        if "values" in keys:
            order = [v.strip() for v in keys["values"].split("/")]
            if len(order) < 2 or any(not v for v in order):
                raise fail("values: list the values in order, separated by '/', e.g. a/b/c")
            params["order"] = order
    elif kind == "masking":
        direction = keys.get("from")
        for w in words:
            if w.lower() not in ("left", "right") or direction is not None:
                raise fail("expected masking[:char=C,pad=P,from=right|left]")
            direction = w
        if direction is not None:
            if direction.lower() not in ("left", "right"):
                raise fail("from must be 'right' or 'left'")
            params["from_right"] = direction.lower() == "right"
        for key in ("char", "pad"):
            if key in keys:
                params[key] = keys[key]
    elif kind == "flat":
        if words:
            raise fail(f"a flat hierarchy takes no parameters, got {words[0]!r}")
    else:  # date
        if "format" in keys:
            params["format"] = keys["format"]
        if words:
            params["levels"] = tuple(words)
    return HierarchySpec(kind=kind, params=params)


def column_values(
    frame: pl.DataFrame, column: str, *, source: str, na_values: Sequence[str] = ("",)
) -> list[str | None]:
    """The cells of ``column`` as text, with missing cells (null or in ``na_values``) as None."""
    if column not in frame.columns:
        raise ConfigError(f"{source}: column {column!r} not found; the columns are {frame.columns}")
    text = pl.col(column).cast(pl.String)
    cells = frame.select(
        pl.when(text.is_in(list(na_values))).then(None).otherwise(text).alias(column)
    )
    return cells[column].to_list()


def is_existing_file(path: str | Path) -> bool:
    """Whether ``path`` is an existing file; a name too long to look up is not one."""
    try:
        return Path(path).is_file()
    except OSError:  # ENAMETOOLONG: Path.is_file only absorbs "not found"-like errors
        return False


def _looks_like_spec(option: str, column: str, value: str) -> bool:
    """Inline spec (``interval:...``) or file?  An existing file always wins."""
    if is_existing_file(value):
        return False
    prefix, sep, _ = value.partition(":")
    if prefix.strip().lower() in HIERARCHY_KINDS:
        return True
    if sep and prefix.isidentifier() and len(prefix) > 1:
        raise ConfigError(
            f"{option} {column}={value}: no such file, and {prefix!r} is not a hierarchy kind; "
            f"give COLUMN=FILE or COLUMN={HIERARCHY_SPEC_HELP}"
        )
    return False


def build_hierarchies(
    option: str,
    items: Sequence[str],
    frame: pl.DataFrame,
    *,
    source: str,
    missing: str | None = None,
    na_values: Sequence[str] = ("",),
    files_only: bool = False,
    first_line: int = 2,
) -> dict[str, Hierarchy]:
    """``COLUMN=FILE`` and ``COLUMN=SPEC`` items into hierarchies; specs are built from ``frame``.

    ``files_only`` refuses specs other than ``flat``: differentially private releases need
    hierarchies fixed without looking at the data, and a spec is built from the data's values
    (a flat hierarchy only keeps or suppresses the value, whatever the data holds).

    Missing cells (null or in ``na_values``) become the leaf ``?`` when ``missing`` is
    ``"category"`` (as :class:`~privlab.table.data.MicroTable` does) and are an error
    otherwise.  Errors name the option item, or the file, line, column and value
    (``first_line``: the line of the frame's first row, 1 for a file without a header line).
    """
    out: dict[str, Hierarchy] = {}
    for column, value in parse_pairs(option, items).items():
        if not _looks_like_spec(option, column, value):
            out[column] = Hierarchy.from_csv(value)
            continue
        spec = parse_hierarchy_spec(value, option=option, column=column)
        if files_only and spec.kind != "flat":
            raise ConfigError(
                f"{option} {column}={value}: a hierarchy built from the data would depend on "
                "it and void the differential-privacy guarantee; write the hierarchy from the "
                "column's public domain (e.g. with 'privlab table hierarchy' on a file listing "
                f"the domain) and pass {column}=FILE"
            )
        cells = column_values(frame, column, source=source, na_values=na_values)
        missing_label = CLI_MISSING_LABEL if str(missing or "").lower() == "category" else None
        try:
            out[column] = spec.build(
                cells,
                column=column,
                source=source,
                missing_label=missing_label,
                first_line=first_line,
            )
        except ConfigError as exc:
            raise ConfigError(f"{option} {column}={value}: {exc}") from None
    return out
