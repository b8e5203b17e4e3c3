"""Microdata tables: attribute roles, missing-value policy, integer encoding.

Each column is encoded once to integer codes (numpy); every algorithm works on codes.
Quasi-identifiers are encoded as leaf indices of their hierarchy, so generalizing a column
to level ``l`` is one array look-up (``hierarchy.group_of_leaf(l)[codes]``).

Roles follow seed 000 §2.3: *identifying* attributes are removed, *quasi-identifying*
ones are generalized, *sensitive* ones are protected by the privacy models, *insensitive*
ones are released unchanged.  A table encoded for a release must declare a role for every
column (:func:`privlab.table.roles.assign_roles`) and give each quasi-identifier a hierarchy,
chosen automatically only for numeric columns (see :class:`Purpose`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import ConfigError, InputError
from privlab.io.delimited import bad_rows, numeric_column, read_table
from privlab.table.hierarchy import Hierarchy
from privlab.table.hierarchy_builders import (
    automatic_interval_params,
    interval_hierarchy,
    interval_spec,
)
from privlab.table.roles import assign_roles


class Role(StrEnum):
    IDENTIFYING = "identifying"
    QUASI = "quasi"
    SENSITIVE = "sensitive"
    INSENSITIVE = "insensitive"


class Purpose(StrEnum):
    """What a table is encoded for; it decides how strict roles and hierarchies are."""

    #: Anonymize and release: every column needs a role; a quasi-identifier without a
    #: hierarchy gets an automatic interval hierarchy if numeric, else it is an error.
    RELEASE = "release"
    #: A differentially private release: as RELEASE, but no hierarchy may be built from the
    #: data, so a quasi-identifier without one is an error.
    PRIVATE_RELEASE = "private-release"
    #: Measure a table that already is a release (check, risk, audit): quasi-identifiers are
    #: taken at their own level (a flat hierarchy) and other columns need no role.
    ASSESS = "assess"


#: Hierarchy value naming a flat hierarchy (each value, then ``*``).
FLAT = "flat"


class MissingPolicy(StrEnum):
    """What to do with missing cells (null, or a text listed in ``na_values``)."""

    ERROR = "error"  #: refuse the table, naming the first missing cell
    CATEGORY = "category"  #: treat missing as a value of its own (``missing_label``)


DEFAULT_NA_VALUES: tuple[str, ...] = ("",)


PANDAS_EXTRA = "pip install 'privlab[pandas]'"


def _require_pyarrow(action: str) -> None:
    """pandas ↔ polars conversion goes through pyarrow (polars needs it for pandas' string,
    nullable and categorical columns, and always for ``to_pandas``)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise ConfigError(
            f"{action} needs the pyarrow package, which is not installed; install privlab's "
            f"pandas extra: {PANDAS_EXTRA}"
        ) from None


def to_polars(data: Any, *, text: bool = True) -> tuple[pl.DataFrame, str]:
    """Return ``(frame, kind)`` where kind is 'polars', 'pandas' or 'path'.

    ``text=True`` casts every cell to text (what the attacks and risk measures compare);
    ``text=False`` keeps a data frame's column types.  A path is read by
    :func:`~privlab.io.delimited.read_table`.
    """
    if isinstance(data, pl.DataFrame):
        frame, kind = data, "polars"
    elif isinstance(data, (str, os.PathLike)):
        return read_table(data), "path"
    else:
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - pandas is optional
            pd = None
        if pd is not None and isinstance(data, pd.DataFrame):
            names = [str(c) for c in data.columns]
            if len(set(names)) != len(names):
                dup = sorted({n for n in names if names.count(n) > 1})
                raise InputError(f"data frame: duplicate column names {dup}; make them unique")
            _require_pyarrow("reading a pandas DataFrame")
            frame, kind = pl.from_pandas(data.rename(columns=str)), "pandas"
        else:
            raise InputError(
                f"expected a polars or pandas DataFrame or a file path, got {type(data).__name__}"
            )
    if frame.height == 0:
        raise InputError("the table has no rows")
    return (frame.with_columns(pl.all().cast(pl.String)) if text else frame), kind


def from_polars(
    frame: pl.DataFrame, kind: str, pandas_dtypes: Mapping[str, Any] | None = None
) -> Any:
    """Convert back to the caller's kind of frame.

    ``pandas_dtypes``: the input's pandas dtype of columns released unchanged, restored where
    the round trip through polars changed it (``Int64`` with missing values comes back as
    ``float64``, ``object`` text as ``str``, ``boolean`` as ``object``, a categorical with its
    categories in another order).
    """
    if kind != "pandas":
        return frame
    _require_pyarrow("returning a pandas DataFrame")
    import pandas as pd

    out = frame.to_pandas()
    for column, dtype in (pandas_dtypes or {}).items():
        if column not in out.columns:
            continue
        if isinstance(dtype, pd.CategoricalDtype):  # astype keeps an "equal" category order
            out[column] = pd.Categorical(out[column], dtype=dtype)
        elif out[column].dtype != dtype:
            out[column] = out[column].astype(dtype)
    return out


@dataclass
class MicroTable:
    """A table with attribute roles, encoded to integer codes.

    Build it with :meth:`from_data`.  ``qi_codes[:, j]`` holds leaf indices into
    ``hierarchies[qi[j]]``; ``sa_codes[name]`` codes into ``sa_values[name]``.
    Error messages place a cell by its line as in a CSV file with a header: row ``i`` of the
    table (file or data frame) is line ``first_line + i``; ``first_line=None`` names no line
    (the rows of a table released with differential privacy are private).  They never show
    a cell's value.

    ``frame`` keeps the input's column types (a file's cells are text); the codes are computed
    from the text of each cell.  ``pandas_dtypes`` (pandas input) records the dtypes of the
    columns a release returns unchanged, see :meth:`as_input_kind`.
    """

    frame: pl.DataFrame
    kind: str
    qi: list[str]
    sensitive: list[str]
    identifying: list[str]
    hierarchies: dict[str, Hierarchy]
    qi_codes: np.ndarray
    sa_codes: dict[str, np.ndarray] = field(default_factory=dict)
    sa_values: dict[str, np.ndarray] = field(default_factory=dict)
    source: str = "<data frame>"
    first_line: int | None = 2
    #: Hierarchies privlab chose, as inline specs (``{"age": "interval:width=10,..."}``).
    automatic_hierarchies: dict[str, str] = field(default_factory=dict)
    #: Warnings about the role declaration (identifier-like columns kept), for the caller.
    warnings: list[str] = field(default_factory=list)
    pandas_dtypes: dict[str, Any] = field(default_factory=dict)

    @property
    def n_rows(self) -> int:
        return int(self.frame.height)

    @property
    def insensitive(self) -> list[str]:
        taken = set(self.qi) | set(self.sensitive) | set(self.identifying)
        return [c for c in self.frame.columns if c not in taken]

    def notes(self) -> dict[str, Any]:
        """What a release must record to be reproduced and reviewed: the automatic
        hierarchies and the role warnings."""
        return {
            "automatic_hierarchies": dict(self.automatic_hierarchies),
            "warnings": list(self.warnings),
        }

    def role(self, column: str) -> Role:
        if column in self.qi:
            return Role.QUASI
        if column in self.sensitive:
            return Role.SENSITIVE
        if column in self.identifying:
            return Role.IDENTIFYING
        return Role.INSENSITIVE

    @classmethod
    def from_data(
        cls,
        data: Any,
        *,
        quasi_identifiers: Sequence[str],
        hierarchies: Mapping[str, Hierarchy | str | os.PathLike[str]] | None = None,
        sensitive: Sequence[str] = (),
        identifying: Sequence[str] = (),
        insensitive: Sequence[str] = (),
        keep_other_columns: bool = False,
        missing: MissingPolicy | str = MissingPolicy.ERROR,
        na_values: Sequence[str] = DEFAULT_NA_VALUES,
        missing_label: str = "?",
        source: str | None = None,
        purpose: Purpose | str = Purpose.RELEASE,
        numeric: Sequence[str] = (),
        first_line: int | None = 2,
    ) -> MicroTable:
        """Validate roles and encode ``data`` (a polars/pandas DataFrame or a CSV/Parquet path).

        Roles (:func:`privlab.table.roles.assign_roles`): for a release every column must be a
        quasi-identifier, sensitive, identifying (removed) or ``insensitive`` (released
        unchanged); ``keep_other_columns`` makes every undeclared column insensitive.  The
        warnings about identifier-like columns are kept in :attr:`warnings`.

        ``hierarchies`` maps a QI to a :class:`Hierarchy`, an ARX hierarchy file or
        ``"flat"`` (value → ``*``: suppression only).  A QI without one gets, for a release,
        the automatic interval hierarchy of
        :func:`~privlab.table.hierarchy_builders.automatic_interval_params` if its values are
        numbers (recorded in :attr:`automatic_hierarchies`) and is an error otherwise; for a
        private release it is always an error; when assessing, it is taken at its own level.
        ``numeric``: QIs an algorithm splits as numbers (Mondrian), which need no hierarchy.
        ``source`` names the data in error messages (default: the path, or ``<data frame>``);
        ``first_line`` is the line of row 0 there (1 for a file without a header line; None:
        name no line, for DP releases).
        Complexity: O(rows × columns).
        """
        try:
            purpose = Purpose(purpose)
        except ValueError:
            raise ConfigError(
                f"purpose: unknown {purpose!r}; use {', '.join(p.value for p in Purpose)}"
            ) from None
        if isinstance(data, (str, os.PathLike)):
            expected = [*quasi_identifiers, *sensitive, *identifying, *insensitive]
            frame, kind, source = read_table(data, expected_columns=expected), "path", str(data)
        else:
            (frame, kind), source = to_polars(data, text=False), source or "<data frame>"
        try:
            policy = MissingPolicy(missing)
        except ValueError:
            raise ConfigError(
                f"missing: unknown policy {missing!r}; use 'error' or 'category'"
            ) from None
        qi = list(quasi_identifiers)
        if not qi:
            raise ConfigError("no quasi-identifiers given; name at least one with --qi COLUMN")
        roles = assign_roles(
            frame,
            quasi_identifiers=qi,
            sensitive=sensitive,
            identifying=identifying,
            insensitive=insensitive,
            keep_other_columns=keep_other_columns,
            source=source,
            complete=purpose is not Purpose.ASSESS,
        )
        hierarchies = dict(hierarchies or {})
        unknown = [c for c in hierarchies if c not in qi]
        if unknown:
            raise ConfigError(
                f"hierarchy given for {unknown}, which are not quasi-identifiers {qi}; "
                "add them with --qi or drop the hierarchy"
            )
        typed = frame
        frame = _apply_missing(
            frame, qi + list(sensitive), policy, na_values, missing_label, source, first_line
        )
        text = {c: _as_text(frame, c, source) for c in qi + list(sensitive)}
        hier: dict[str, Hierarchy] = {}
        automatic: dict[str, str] = {}
        codes = np.empty((frame.height, len(qi)), dtype=np.int32)
        label = missing_label if policy is MissingPolicy.CATEGORY else None
        for j, col in enumerate(qi):
            h = hierarchies.get(col)
            if h is None and (purpose is Purpose.ASSESS or col in numeric):
                h = FLAT
            if h is None:
                h, automatic[col] = _automatic_hierarchy(
                    text[col], col, purpose, source, label, first_line
                )
            elif isinstance(h, str) and h.strip().lower() == FLAT:
                h = Hierarchy.flat(
                    text[col].unique(maintain_order=True).to_list(), source=f"<flat {col}>"
                )
            elif not isinstance(h, Hierarchy):
                h = Hierarchy.from_csv(h)
            hier[col] = h
            try:
                codes[:, j] = h.encode(text[col], column=col, first_line=first_line)
            except InputError as exc:
                raise InputError(f"{source}, {exc}") from None
        sa_codes, sa_values = {}, {}
        for col in sensitive:
            values = text[col].unique().sort()
            sa_codes[col] = (
                text[col]
                .replace_strict(values, pl.int_range(values.len(), dtype=pl.Int32, eager=True))
                .to_numpy()
            )
            sa_values[col] = values.to_numpy().astype(str)
        # pandas: dtypes of the columns a release returns as they came (not the QIs, which
        # become labels, nor columns the missing-value policy rewrote)
        pandas_dtypes = (
            {
                name: dtype
                for name, dtype in zip(frame.columns, data.dtypes, strict=True)
                if name not in qi and frame.schema[name] == typed.schema[name]
            }
            if kind == "pandas"
            else {}
        )
        return cls(
            frame=frame,
            kind=kind,
            qi=qi,
            sensitive=list(sensitive),
            identifying=list(identifying),
            hierarchies=hier,
            qi_codes=codes,
            sa_codes=sa_codes,
            sa_values=sa_values,
            source=source,
            automatic_hierarchies=automatic,
            warnings=list(roles.warnings),
            first_line=first_line,
            pandas_dtypes=pandas_dtypes,
        )

    def as_input_kind(self, frame: pl.DataFrame) -> Any:
        """A release ``frame`` built from this table as the caller's kind of frame (polars or
        pandas); for pandas, unchanged columns get back their input dtypes."""
        return from_polars(frame, self.kind, self.pandas_dtypes)

    def numeric_values(self, column: str) -> np.ndarray:
        """The column parsed as float64; raises counting (and locating) non-numeric cells.

        ``nan`` and ``inf`` are refused too: they have no place in an ordered range.
        """
        return numeric_column(
            _as_text(self.frame, column, self.source), self.source, self.first_line
        )


#: The builders a quasi-identifier's hierarchy can come from, for error messages.
HIERARCHY_CHOICES = (
    "--hierarchy {c}=FILE (an ARX hierarchy CSV, e.g. written by 'privlab table hierarchy'), "
    "or one built from the data: {c}=order (or order:values=A/B/C for your own order), "
    "{c}=masking, {c}=date[:format=F], {c}=interval:width=W (numbers); or {c}=flat to keep "
    "or suppress the value only"
)


def _automatic_hierarchy(
    values: pl.Series,
    column: str,
    purpose: Purpose,
    source: str,
    missing_label: str | None,
    first_line: int,
) -> tuple[Hierarchy, str]:
    """The automatic interval hierarchy of a numeric QI and its spec; else a ConfigError."""
    if purpose is Purpose.PRIVATE_RELEASE:
        raise ConfigError(
            f"quasi-identifier {column!r} has no hierarchy; a differentially private release "
            "needs one fixed without looking at the data: --hierarchy "
            f"{column}=FILE written from the column's public domain, or {column}=flat to keep "
            "or suppress the value only"
        )
    where = dict(column=column, source=source, missing_label=missing_label, first_line=first_line)
    params = automatic_interval_params(values, **where)
    if params is None:
        raise ConfigError(
            f"{source}: quasi-identifier {column!r} has no hierarchy, and its values are not "
            f"all numbers, so none can be chosen for it; give one: "
            + HIERARCHY_CHOICES.format(c=column)
            + f" (from Python: hierarchies={{{column!r}: ...}})"
        )
    return interval_hierarchy(values, **params, **where), interval_spec(params)


def _apply_missing(
    frame: pl.DataFrame,
    columns: list[str],
    policy: MissingPolicy,
    na_values: Sequence[str],
    label: str,
    source: str,
    first_line: int | None,
) -> pl.DataFrame:
    na = list(na_values)
    updates = []
    for col in columns:
        is_missing = frame[col].is_null() | _as_text(frame, col, source).is_in(na)
        if not is_missing.any():
            continue
        if policy is MissingPolicy.ERROR:
            raise InputError(
                f"{source}, column {col!r}: {bad_rows(is_missing, first_line)} with a missing "
                f"value; fill them, or use --missing category to treat missing as the value "
                f"{label!r} (its hierarchy then needs a row for {label!r})"
            )
        updates.append(
            pl.when(is_missing)
            .then(pl.lit(label))
            .otherwise(pl.col(col).cast(pl.String))
            .alias(col)
        )
    return frame.with_columns(updates) if updates else frame


def _as_text(frame: pl.DataFrame, column: str, source: str) -> pl.Series:
    """The column's cells as text (a no-op for text columns)."""
    try:
        return frame[column].cast(pl.String)
    except pl.exceptions.PolarsError:
        raise InputError(
            f"{source}, column {column!r}: its type {frame[column].dtype} has no text form; "
            "convert it to text or numbers first"
        ) from None


def load_hierarchies(spec: Mapping[str, str | os.PathLike[str]]) -> dict[str, Hierarchy]:
    """Read ``{column: path}`` ARX hierarchy files."""
    return {col: Hierarchy.from_csv(Path(p)) for col, p in spec.items()}
