"""Checking a table audit's input: columns, hierarchies and released labels.

Which columns are quasi-identifiers and sensitive, the hierarchies given for them, which QIs
were released as numeric ranges ``lo-hi`` (Mondrian), and the refusal of released labels that
nothing could match.  Range labels are read as the attacks read them
(:func:`privlab.table.attacks._match.range_bounds`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.table.attacks._match import _RANGE, _SINGLE, range_bounds
from privlab.table.data import FLAT
from privlab.table.hierarchy import Hierarchy


def _sensitive_list(sensitive: Sequence[str] | str | None) -> list[str]:
    if sensitive is None:
        return []
    return [sensitive] if isinstance(sensitive, str) else [s for s in sensitive if s]


def _check_qi(qi: Sequence[str] | None, rel: pl.DataFrame, orig: pl.DataFrame) -> list[str]:
    cols = [qi] if isinstance(qi, str) else list(qi or [])
    if not cols:
        raise ConfigError(
            "no quasi-identifiers: name the columns an adversary may know (age, ZIP code...) "
            "with --qi COLUMN"
        )
    for name, frame in (("release", rel), ("original", orig)):
        missing = [c for c in cols if c not in frame.columns]
        if missing:
            raise InputError(
                f"{name}: quasi-identifier column(s) {missing} not found; the columns are "
                f"{frame.columns}"
            )
    return cols


def _load_hierarchies(
    hierarchies: Mapping[str, Hierarchy | str] | None, qi: Sequence[str]
) -> dict[str, Hierarchy]:
    out: dict[str, Hierarchy] = {}
    for col, h in (hierarchies or {}).items():
        if col not in qi:
            continue  # a hierarchy of a non-QI column plays no part here
        if isinstance(h, str) and h.strip().lower() == FLAT:
            continue  # kept exact or suppressed: the same as no hierarchy here
        out[col] = h if isinstance(h, Hierarchy) else Hierarchy.from_csv(h)
    return out


def _is_number(text: str) -> bool:
    return bool(_SINGLE.match(text))


def _distinct_text(frame: pl.DataFrame, col: str) -> list[str]:
    return frame[col].cast(pl.String).fill_null("").unique().to_list()


def _numeric_columns(
    rel: pl.DataFrame,
    orig: pl.DataFrame,
    qi: Sequence[str],
    hier: Mapping[str, Hierarchy],
    suppressed_value: str | None,
) -> list[str]:
    """QIs released as ranges ``lo-hi`` (or suppressed) over a numeric original column."""
    out = []
    for c in qi:
        if c in hier:
            continue
        labels = [u for u in _distinct_text(rel, c) if u != suppressed_value]
        if not all(range_bounds(u) is not None for u in labels):
            continue
        if not any(_RANGE.match(u) for u in labels):
            continue
        if all(_is_number(v) for v in _distinct_text(orig, c)):
            out.append(c)
    return out


def _check_labels(
    rel: pl.DataFrame,
    orig: pl.DataFrame,
    qi: Sequence[str],
    hier: Mapping[str, Hierarchy],
    num: Sequence[str],
    suppressed_value: str | None,
) -> None:
    """Refuse released labels nobody could match: generalized labels without a hierarchy."""
    for c in qi:
        labels = set(_distinct_text(rel, c)) - {suppressed_value}
        if c in hier:
            known = set(hier[c].labels.astype(str).ravel().tolist())
            what = f"labels of the hierarchy {hier[c].source}"
        elif c in num:
            known = {u for u in labels if range_bounds(u) is not None}
            what = "numbers or ranges 'lo-hi'"
        else:
            known = set(_distinct_text(orig, c))
            what = "values of the original"
        bad = sorted(labels - known)
        if bad:
            hint = (
                f"give the hierarchy it was generalized with (--hierarchy {c}=FILE)"
                if c not in hier
                else "is it the hierarchy the release was made with?"
            )
            raise InputError(
                f"release, column {c!r}: {len(bad)} released label(s) such as {bad[0]!r} are "
                f"not {what}; {hint}"
            )
