"""Permutation releases: a QI table and an SA table joined by group id (seed 001 §2.1).

The QI table keeps every row's quasi-identifiers exactly; the SA table publishes each group's
sensitive values as a multiset — in ascending order, never in tuple order — so the release
links no row to its value beyond "one of its group's values" (Def 2.4.1–2.4.2, Theorem 1).
For a query ``SELECT AGG(S) FROM t WHERE C(QI)`` the hits per group are exact and
:mod:`privlab.bounds` turns them into deterministic bounds (§2.5.1); :meth:`help_table` is the
seed's HT (§2.5.2, Table 2.4).

Layout on disk (:meth:`PermutationRelease.write`): ``qi.parquet``, ``sa.parquet`` and
``release.json`` in one directory, written to a temporary sibling and renamed into place.

*Row order.* The QI rows are published in a uniformly random order (``secure_generator``;
a fixed ``seed`` makes it reproducible and is flagged ``insecure_seed``), and ``tuple_id`` is
the published position 0..n−1.  Publishing in input order would leak the values of a table
that arrives sorted by the sensitive attribute: row ids would line up with each group's
ascending values.  The owner's secret ``source_rows`` (published row → input row) stays in
memory and is never written, like the ground truth of a graph pair.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from privlab.bounds import Bounds, GroupedValues, Moments
from privlab.dp.noise import is_insecure_seed, secure_generator
from privlab.errors import ConfigError, InfeasibleError, InputError
from privlab.io.atomic import atomic_folder
from privlab.io.delimited import bad_rows, read_parquet
from privlab.io.outputs import Manifest, Output, check_outputs
from privlab.table.permutation.partition import Partition, is_ke_anonymous, ke_partition
from privlab.table.roles import ColumnRoles, assign_roles

FORMAT = "privlab.permutation/1"
#: How an earlier release is recognised before ``overwrite`` may replace its folder.
MANIFEST = Manifest("permutation release", "release.json", "format", FORMAT)
RESERVED = ("tuple_id", "group_id")
KINDS = ("numeric", "categorical")
_SA_COLUMNS = {
    "numeric": {"group_id": pl.Int64, "lo": pl.Float64, "hi": pl.Float64},
    "categorical": {"group_id": pl.Int64, "value": pl.String, "count": pl.Int64},
}


@dataclass(frozen=True, eq=False)
class PermutationRelease:
    """A permuted (or anatomized) table: ``qi`` rows with group ids, ``sa`` values per group.

    * ``qi``: ``tuple_id`` (Int64, the published position — rows are shuffled), the QI
      columns with their original values, the ``insensitive`` columns (released unchanged
      by the owner's choice), ``group_id`` (Int64).
    * ``sa`` (numeric): ``group_id``, ``lo``, ``hi`` (Float64; lo == hi for an exact value,
      lo < hi for a subdomain), one row per published value — a group may publish more
      values than it has rows (fake values).  Sorted by group, then value.
    * ``sa`` (categorical, Anatomy): ``group_id``, ``value`` (String), ``count`` (Int64).
    * ``source_rows`` (secret, never written; ``None`` after :meth:`read`): the input row of
      each published row, for the data owner's own checks.
    * ``warnings`` (not written): :attr:`privlab.table.roles.ColumnRoles.warnings` of the
      role declaration, for the caller to show.
    """

    qi: pl.DataFrame
    sa: pl.DataFrame
    sensitive: str
    kind: str
    parameters: dict[str, Any] = field(default_factory=dict)
    source_rows: np.ndarray | None = field(default=None, repr=False)
    insensitive: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(default=(), compare=False)

    # ------------------------------------------------------------------ structure

    @property
    def qi_columns(self) -> list[str]:
        return [c for c in self.qi.columns if c not in RESERVED and c not in self.insensitive]

    @property
    def n_rows(self) -> int:
        return self.qi.height

    @property
    def n_groups(self) -> int:
        return int(self.group_sizes().size)

    def group_sizes(self) -> np.ndarray:
        """QI rows per group (index = group id)."""
        g = self.qi["group_id"].to_numpy()
        n_g = int(max(g.max(initial=-1), self.sa["group_id"].to_numpy().max(initial=-1))) + 1
        return np.bincount(g, minlength=n_g)

    def grouped_values(self) -> GroupedValues:
        """The SA table as CSR arrays (numeric releases)."""
        if self.kind != "numeric":
            raise ConfigError("grouped_values needs a numeric release; Anatomy counts per value")
        return GroupedValues.from_groups(
            self.sa["group_id"].to_numpy(),
            self.sa["lo"].to_numpy(),
            self.sa["hi"].to_numpy(),
            n_groups=self.n_groups,
        )

    # ------------------------------------------------------------------ queries (reference)

    def selection(self, where: Any) -> np.ndarray:
        """A boolean mask over ``qi`` rows from a mask, a polars expression or None (all)."""
        if where is None:
            return np.ones(self.n_rows, dtype=bool)
        if isinstance(where, pl.Expr):
            if self.sensitive in where.meta.root_names():
                raise ConfigError(
                    f"the condition uses the sensitive attribute {self.sensitive!r}; "
                    "conditions may use only the QI columns"
                )
            try:
                mask = self.qi.select(where.alias("_m"))["_m"]
            except pl.exceptions.PolarsError as exc:
                raise InputError(f"condition cannot be evaluated on the QI table: {exc}") from None
            return mask.fill_null(False).to_numpy().astype(bool)
        mask = np.asarray(where)
        if mask.dtype != bool or mask.shape != (self.n_rows,):
            raise InputError(f"condition: a boolean mask with one entry per row ({self.n_rows})")
        return mask

    def hits(self, where: Any = None) -> np.ndarray:
        """Selected rows per group (exact: the QIs are published unchanged)."""
        mask = self.selection(where)
        g = self.qi["group_id"].to_numpy()
        return np.bincount(g[mask], minlength=self.n_groups)

    def bounds(self, agg: str, where: Any = None) -> Bounds:
        """Bounds on ``agg`` ∈ {count, sum, avg, min, max} of the SA over selected rows.

        The pure-Python reference for the SQL rewrite (seed 001 §2.5).  O(n + G).
        """
        return self.grouped_values().aggregate(agg, self.hits(where))

    def moments(self, agg: str, where: Any = None) -> Moments:
        """Mean and variance of all possible answers of ``agg`` ∈ {count, sum, avg}.

        Seed 001 §2.5.1 (L1172–1174); see :meth:`privlab.bounds.GroupedValues.moments`.
        O(n + E).
        """
        return self.grouped_values().moments(agg, self.hits(where))

    def help_table(self) -> pl.DataFrame:
        """Seed 001's HT (Table 2.4): one row per (group, hits ∈ 1..group's rows)."""
        gv = self.grouped_values()
        cols = gv.help_table(self.group_sizes())
        return pl.DataFrame(cols)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sensitive": self.sensitive,
            "kind": self.kind,
            "qi": self.qi_columns,
            "insensitive": list(self.insensitive),
            "rows": self.n_rows,
            "groups": self.n_groups,
            "sa_rows": self.sa.height,
            "parameters": self.parameters,
        }

    # ------------------------------------------------------------------ I/O

    def write(self, directory: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
        """Write ``qi.parquet``, ``sa.parquet`` and ``release.json`` atomically.

        Everything goes to a temporary sibling directory that is renamed onto ``directory``;
        on failure nothing is left behind.  A non-empty ``directory`` is replaced only if it
        holds an earlier permutation release and ``overwrite`` is true; any other non-empty
        folder is refused (:func:`privlab.io.outputs.check_outputs`).
        """
        target = Path(directory)
        check_outputs(
            [Output(target, "directory", folder=True, manifest=MANIFEST, replace=overwrite)], []
        )
        with atomic_folder(target) as tmp:
            self.qi.write_parquet(tmp / "qi.parquet")
            self.sa.write_parquet(tmp / "sa.parquet")
            meta = {
                "format": FORMAT,
                "sensitive": self.sensitive,
                "kind": self.kind,
                "qi": self.qi_columns,
                "insensitive": list(self.insensitive),
                "parameters": self.parameters,
            }
            (tmp / "release.json").write_text(
                json.dumps(meta, indent=2, default=_json_default) + "\n", encoding="utf-8"
            )
        return target

    @classmethod
    def read(cls, directory: str | os.PathLike[str]) -> PermutationRelease:
        """Read and validate a release written by :meth:`write`."""
        d = Path(directory)
        if not d.is_dir():
            raise InputError(f"{d}: not a directory (expected a permutation release)")
        meta_path = d / "release.json"
        if not meta_path.is_file():
            raise InputError(f"{meta_path}: missing; {d} is not a permutation release")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # bad JSON, not UTF-8, a 4300+ digit integer
            raise InputError(f"{meta_path}: not valid JSON ({exc})") from None
        _check_meta(meta, meta_path)
        kind = meta["kind"]
        frames = {}
        for name in ("qi", "sa"):
            p = d / f"{name}.parquet"
            if not p.is_file():
                raise InputError(f"{p}: missing")
            frames[name] = read_parquet(p)
        qi_cols = list(meta["qi"])
        insensitive = [str(c) for c in meta.get("insensitive") or []]
        expected_qi = {
            "tuple_id": pl.Int64,
            **dict.fromkeys(qi_cols + insensitive),
            "group_id": pl.Int64,
        }
        _check_columns(frames["qi"], expected_qi, d / "qi.parquet")
        _check_columns(frames["sa"], _SA_COLUMNS[kind], d / "sa.parquet")
        release = cls(
            qi=frames["qi"].select(list(expected_qi)),
            sa=frames["sa"].select(list(_SA_COLUMNS[kind])),
            sensitive=meta["sensitive"],
            kind=kind,
            parameters=dict(meta.get("parameters") or {}),
            insensitive=tuple(insensitive),
        )
        release.validate(source=d)
        return release

    def validate(self, source: Any = None) -> None:
        """Check ids and group consistency; raise :class:`InputError` naming the file."""
        where = f"{source}: " if source is not None else ""
        qi_path = f"{source}/qi.parquet" if source is not None else "qi"
        sa_path = f"{source}/sa.parquet" if source is not None else "sa"
        for path, frame, col in (
            (qi_path, self.qi, "tuple_id"),
            (qi_path, self.qi, "group_id"),
            (sa_path, self.sa, "group_id"),
        ):
            if frame[col].null_count():
                raise InputError(f"{path}: column {col!r} has missing values")
            if frame.height and frame[col].min() < 0:
                raise InputError(f"{path}: column {col!r} has negative ids")
            if frame.height and frame[col].max() >= self.qi.height:  # bounds the bincounts below
                raise InputError(
                    f"{path}: column {col!r} has id {frame[col].max()}, but ids run from 0 to "
                    f"at most {self.qi.height - 1} in a release of {self.qi.height} rows"
                )
        tid = self.qi["tuple_id"].to_numpy()
        if tid.size and not np.array_equal(np.sort(tid), np.arange(tid.size)):
            raise InputError(f"{qi_path}: column 'tuple_id' must hold 0..{tid.size - 1} once each")
        sizes = np.bincount(self.qi["group_id"].to_numpy(), minlength=1)
        if self.kind == "numeric":
            for col in ("lo", "hi"):
                if self.sa[col].null_count() or not self.sa[col].is_finite().all():
                    raise InputError(f"{sa_path}: column {col!r} has missing or infinite values")
            if (self.sa["lo"] > self.sa["hi"]).any():
                raise InputError(f"{sa_path}: some row has lo > hi")
            published = np.bincount(self.sa["group_id"].to_numpy(), minlength=sizes.size)
        else:
            if self.sa["value"].null_count() or self.sa["count"].null_count():
                raise InputError(f"{sa_path}: columns 'value'/'count' have missing values")
            if ((self.sa["count"] < 1) | (self.sa["count"] > self.qi.height)).any():
                raise InputError(
                    f"{sa_path}: column 'count' must be from 1 to the number of rows "
                    f"({self.qi.height})"
                )
            published = np.bincount(
                self.sa["group_id"].to_numpy(),
                weights=self.sa["count"].to_numpy(),
                minlength=sizes.size,
            ).astype(np.int64)
        short = np.flatnonzero(published[: sizes.size] < sizes)
        if short.size:
            g = int(short[0])
            raise InputError(
                f"{where}group {g} has {int(sizes[g])} rows in qi.parquet but only "
                f"{int(published[g])} sensitive values in sa.parquet"
            )


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"{type(obj).__name__} is not JSON serializable")


def _check_meta(meta: Any, path: Path) -> None:
    """release.json: an object with a string ``sensitive``, a known ``kind``, ``qi`` a list of
    column names and ``parameters`` (if any) an object."""
    if not isinstance(meta, dict):
        raise InputError(f"{path}: expected a JSON object with keys sensitive, kind and qi")
    for key in ("sensitive", "kind", "qi"):
        if key not in meta:
            raise InputError(f"{path}: key {key!r} missing")
    if meta["kind"] not in KINDS:
        raise InputError(f"{path}: kind {meta['kind']!r} is not one of {list(KINDS)}")
    if not isinstance(meta["sensitive"], str):
        raise InputError(f"{path}: sensitive must be the sensitive column's name")
    qi = meta["qi"]
    if not isinstance(qi, list) or not all(isinstance(c, str) and c not in RESERVED for c in qi):
        raise InputError(f"{path}: qi must be a list of the quasi-identifier column names")
    if not isinstance(meta.get("parameters") or {}, dict):
        raise InputError(f"{path}: parameters must be a JSON object")


def _check_columns(frame: pl.DataFrame, expected: dict[str, Any], path: Path) -> None:
    for col, dtype in expected.items():
        if col not in frame.columns:
            raise InputError(f"{path}: column {col!r} missing (has {frame.columns})")
        if dtype is not None and frame[col].dtype != dtype:
            raise InputError(
                f"{path}: column {col!r} has type {frame[col].dtype}, expected {dtype}"
            )


# ---------------------------------------------------------------------------- building


def as_polars(frame: Any) -> pl.DataFrame:
    """A polars view of a polars or pandas frame (column names as text)."""
    if isinstance(frame, pl.DataFrame):
        out = frame
    else:
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - pandas is optional
            pd = None
        if pd is None or not isinstance(frame, pd.DataFrame):
            raise InputError(f"expected a polars or pandas DataFrame, got {type(frame).__name__}")
        names = [str(c) for c in frame.columns]
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise InputError(f"data frame: duplicate column names {dup}; make them unique")
        out = pl.from_pandas(frame.rename(columns=str))
    if out.height == 0:
        raise InputError("the table has no rows")
    return out


def check_roles(
    frame: pl.DataFrame,
    qi: Any,
    sensitive: str,
    *,
    identifying: Any = (),
    insensitive: Any = (),
    keep_other_columns: bool = False,
    used: Any = (),
) -> ColumnRoles:
    """Validate the role of every column (:func:`privlab.table.roles.assign_roles`).

    The QIs and the insensitive columns go into the QI table, identifying columns and the
    ``used`` ones (read by the algorithm, e.g. a grouping column) are not published, and a
    column without a role is refused unless ``keep_other_columns``.
    """
    if isinstance(qi, str):
        qi = [qi]
    qi = [str(c) for c in qi]
    if not qi:
        raise ConfigError("give at least one quasi-identifier column (qi=[...])")
    if len(set(qi)) != len(qi):
        raise ConfigError(
            f"quasi-identifiers listed twice: {sorted({c for c in qi if qi.count(c) > 1})}"
        )
    for col in [*qi, sensitive]:
        if col not in frame.columns:
            raise InputError(f"column {col!r} not found; the table has {frame.columns}")
    if sensitive in qi:
        raise ConfigError(f"{sensitive!r} is both a quasi-identifier and the sensitive attribute")
    roles = assign_roles(
        frame,
        quasi_identifiers=qi,
        sensitive=[sensitive],
        identifying=identifying,
        insensitive=insensitive,
        keep_other_columns=keep_other_columns,
        used=used,
    )
    for col in [*qi, *roles.insensitive]:
        if col in RESERVED:
            raise ConfigError(f"column name {col!r} is reserved in a release; rename it")
    return roles


def numeric_sensitive(frame: pl.DataFrame, sensitive: str) -> np.ndarray:
    """The sensitive column as float64; bad rows are counted and the first one named (never
    its value)."""
    col = frame[sensitive]
    where = f"column {sensitive!r}"
    if col.null_count():
        raise InputError(
            f"{where}: {bad_rows(col.is_null(), 0, where='row')} with a missing value; "
            "remove or impute them first"
        )
    if not col.dtype.is_numeric():
        cast = col.cast(pl.Float64, strict=False)
        if cast.null_count():
            raise InputError(
                f"{where}: {bad_rows(cast.is_null(), 0, where='row')} with a non-numeric value; "
                "a numeric sensitive attribute is needed (use anatomy() for categories)"
            )
        col = cast
    x = col.cast(pl.Float64).to_numpy()
    bad = ~np.isfinite(x)
    if bad.any():
        raise InputError(
            f"{where}: {bad_rows(bad, 0, where='row')} with nan or inf; remove or impute them"
        )
    return x


def _order_correlation(x: np.ndarray) -> float:
    """Spearman correlation between row position and value (0 for constant values)."""
    if x.size < 3:
        return 0.0
    ranks = np.argsort(np.argsort(x, kind="stable"), kind="stable").astype(np.float64)
    pos = np.arange(x.size, dtype=np.float64)
    sd = ranks.std() * pos.std()
    return 0.0 if sd == 0 else float(((ranks - ranks.mean()) * (pos - pos.mean())).mean() / sd)


def publish(
    frame: pl.DataFrame,
    roles: ColumnRoles,
    groups: np.ndarray,
    sa: pl.DataFrame,
    kind: str,
    parameters: dict[str, Any],
    seed: Any,
) -> PermutationRelease:
    """The release: the QI table in a uniformly random row order, the SA table as given.

    ``tuple_id`` is the published position; the QI table holds the QIs and the insensitive
    columns; the secret source rows stay in memory.  O(n).
    """
    n = frame.height
    order = secure_generator(seed).permutation(n).astype(np.int64)
    table = frame[order].select(
        pl.Series("tuple_id", np.arange(n, dtype=np.int64)),
        *[pl.col(c) for c in [*roles.quasi_identifiers, *roles.insensitive]],
        pl.Series("group_id", groups.astype(np.int64)[order]),
    )
    return PermutationRelease(
        table,
        sa,
        roles.sensitive[0],
        kind,
        parameters,
        order,
        insensitive=tuple(roles.insensitive),
        warnings=tuple(roles.warnings),
    )


def dense_group_ids(groups: Any, n: int, expected: str = "integer group ids") -> np.ndarray:
    """One integer group id per row, renumbered 0..G−1 in ascending id order.  O(n log n)."""
    g = np.asarray(groups)
    if g.shape != (n,):
        raise InputError(f"groups: one group id per row ({n}) expected, got shape {g.shape}")
    if g.dtype.kind not in "iu":
        raise InputError(f"groups: {expected} expected")
    _, gid = np.unique(g, return_inverse=True)
    return gid.astype(np.int64).reshape(-1)


def release_from_groups(
    frame: Any,
    *,
    qi: Any,
    sensitive: str,
    groups: Any,
    parameters: dict[str, Any] | None = None,
    seed: Any = None,
    identifying: Any = (),
    insensitive: Any = (),
    keep_other_columns: bool = False,
) -> PermutationRelease:
    """A numeric permutation release of ``frame`` for the given group of each row.

    Group ids are renumbered 0..G−1 in ascending order of the given ids; the QI rows are
    published in a random order drawn from ``seed`` (see the module docstring).  No privacy
    check is made here (:func:`permute` with ``groups=`` checks (k, e)).  Every other
    column needs a role: ``identifying``, ``insensitive`` (published in the QI table) or
    ``keep_other_columns=True`` (see :func:`check_roles`).  O(n log n).
    """
    df = as_polars(frame)
    roles = check_roles(
        df, qi, sensitive, identifying=identifying, insensitive=insensitive,
        keep_other_columns=keep_other_columns,
    )  # fmt: skip
    x = numeric_sensitive(df, sensitive)
    gid = dense_group_ids(groups, df.height)
    return _grouped_release(df, roles, x, gid, parameters or {}, seed)


def _grouped_release(
    df: pl.DataFrame,
    roles: ColumnRoles,
    x: np.ndarray,
    gid: np.ndarray,
    parameters: dict[str, Any],
    seed: Any,
) -> PermutationRelease:
    order = np.lexsort((x, gid))
    sa = pl.DataFrame(
        {
            "group_id": gid[order],
            "lo": x[order],
            "hi": x[order],
        },
        schema={"group_id": pl.Int64, "lo": pl.Float64, "hi": pl.Float64},
    )
    params = {"model": "permutation", "n_groups": int(gid.max()) + 1}
    params["order_correlation"] = round(_order_correlation(x), 6)
    params.update(parameters)
    params["insecure_seed"] = is_insecure_seed(seed)
    return publish(df, roles, gid, sa, "numeric", params, seed)


def permute(
    frame: Any,
    *,
    qi: Any,
    sensitive: str,
    k: int,
    e: float,
    method: str = "min-sum",
    seed: Any = None,
    groups: Any = None,
    identifying: Any = (),
    insensitive: Any = (),
    keep_other_columns: bool = False,
) -> PermutationRelease:
    """(k, e)-anonymous permutation of a numeric sensitive attribute (seed 001 §2.1–2.6).

    Partitions the rows with :func:`ke_partition` (``method``) — or uses ``groups`` (one id
    per row), which must then be (k, e)-anonymous — and publishes each group's values sorted
    ascending.  ``method="swap"`` publishes rank-swapped values instead: every row is its own
    group with the interval of :class:`Partition` (``lo < hi`` rows), see
    :func:`ke_partition`.  Every other column needs a role: ``identifying``, ``insensitive``
    (published in the QI table) or ``keep_other_columns=True`` (see :func:`check_roles`).
    Accepts polars or pandas frames.  O(n log n).
    """
    df = as_polars(frame)
    roles = check_roles(
        df, qi, sensitive, identifying=identifying, insensitive=insensitive,
        keep_other_columns=keep_other_columns,
    )  # fmt: skip
    x = numeric_sensitive(df, sensitive)
    if groups is not None:
        from privlab.table.permutation.partition import _check_ke

        k, e = _check_ke(k, e)
        gid = dense_group_ids(groups, df.height)
        ok = is_ke_anonymous(x, gid, k, e)
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            raise InfeasibleError(
                f"the given group {np.unique(np.asarray(groups))[bad]} is not "
                f"({k}, {e:g})-anonymous ({int(ok.size - ok.sum())} of {ok.size} groups fail)"
            )
        params = {"model": "(k,e)-anonymity", "k": k, "e": e, "partitioner": "given"}
        return _grouped_release(df, roles, x, gid, params, seed)
    part = ke_partition(x, k, e, method=method, seed=seed)
    params = {"model": "(k,e)-anonymity", "partitioner": method, **part.to_dict()}
    params["seed"] = seed if isinstance(seed, (int, type(None))) else str(seed)
    if method == "swap":
        return _swap_release(df, roles, part, params, seed)
    return _grouped_release(df, roles, x, part.groups, params, seed)


def _swap_release(
    df: pl.DataFrame,
    roles: ColumnRoles,
    part: Partition,
    params: dict[str, Any],
    seed: Any,
) -> PermutationRelease:
    assert part.lo is not None and part.hi is not None
    n = df.height
    gid = np.arange(n, dtype=np.int64)
    sa = pl.DataFrame(
        {"group_id": gid, "lo": part.lo, "hi": part.hi},
        schema={"group_id": pl.Int64, "lo": pl.Float64, "hi": pl.Float64},
    )
    params = {**params, "model": "rank-swapping", "n_groups": n}
    params["order_correlation"] = round(
        _order_correlation(df[roles.sensitive[0]].cast(pl.Float64).to_numpy()), 6
    )
    params["insecure_seed"] = is_insecure_seed(seed)
    return publish(df, roles, gid, sa, "numeric", params, seed)


__all__ = [
    "FORMAT",
    "PermutationRelease",
    "as_polars",
    "check_roles",
    "dense_group_ids",
    "permute",
    "publish",
    "release_from_groups",
]
