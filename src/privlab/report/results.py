"""Reports from benchmark results: ``results.csv`` (+ ``curves.csv``, ``manifest.json``).

The results folder is the contract with the benchmark runner (``privlab bench``):

``results.csv``
    tidy, one row per measurement; columns ``experiment, scheme, parameter, value, metric,
    seed, result`` (``value`` and ``result`` numbers, ``seed`` an integer).
``curves.csv`` (optional)
    columns ``experiment, scheme, value, seed, curve, x, y``; ``curve`` names the kind:
    ``roc`` (x = FPR, y = TPR), ``degree_distribution`` (x = degree, y = fraction of nodes),
    ``candidate_set_size`` (x = candidate-set size, y = number of nodes), ``risk_histogram``
    (x = risk, y = number of records); any other name is drawn as plain curves.
``manifest.json`` (optional)
    ``{"spec", "title", "created", "machine", "experiments": {name: {"title", "x_label",
    "y_label": {metric: label}, "log_x", "log_y", "frontier": {"risk": metric, "loss":
    metric}}}}``.

:func:`report_from_results` validates all three and builds a :class:`~privlab.report.Report`
with one section per experiment: the aggregated table (mean ± std over seeds per scheme ×
value × metric), one plot per metric, and the curve plots.  Cost: O(rows) to validate and
aggregate, plus one figure per metric and per curve kind.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from privlab.errors import InputError
from privlab.report import plots
from privlab.report.html import Report, Section, format_number
from privlab.report.plots.mapping import MAPPING_SUFFIXES, correct_wrong_bars, mapping_families

__all__ = [
    "CURVE_COLUMNS",
    "RESULT_COLUMNS",
    "aggregate_results",
    "format_mean_std",
    "load_curves",
    "load_manifest",
    "load_results",
    "report_from_results",
]

RESULT_COLUMNS = ("experiment", "scheme", "parameter", "value", "metric", "seed", "result")
CURVE_COLUMNS = ("experiment", "scheme", "value", "seed", "curve", "x", "y")
_TYPES = {"value": pl.Float64, "result": pl.Float64, "seed": pl.Int64, "x": pl.Float64,
          "y": pl.Float64}  # fmt: skip

#: Most panels drawn for one curve kind (values beyond are thinned evenly).
MAX_PANELS = 9


def format_mean_std(mean: float, std: float, n: int) -> str:
    """``"mean ± std"``, or the mean alone for a single seed."""
    if n <= 1 or std is None or (isinstance(std, float) and math.isnan(std)):
        return format_number(mean)
    return f"{format_number(mean)} ± {format_number(std, 2)}"


# --------------------------------------------------------------------------- loading


def _line_of(path: Path, record: int) -> int:
    """The 1-based file line where data record ``record`` (0-based, blank lines skipped) starts."""
    with path.open(newline="", encoding="utf-8", errors="replace") as fh:
        reader = csv.reader(fh)
        start = 1
        seen = -1
        for row in reader:
            if reader.line_num == 1 and seen == -1:
                seen = 0
                start = reader.line_num + 1
                continue
            if any(cell != "" for cell in row):
                if seen == record:
                    return start
                seen += 1
            start = reader.line_num + 1
    return record + 2


def _ragged_line(path: Path) -> tuple[int, int, int] | None:
    """(line, fields, header fields) of the first record whose field count is off, if any."""
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.reader(fh)
            header = next(reader, [])
            start = reader.line_num + 1
            for row in reader:
                if row and len(row) != len(header):
                    return start, len(row), len(header)
                start = reader.line_num + 1
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    return None


def _read_table(
    path: Path, columns: tuple[str, ...], *, allow_empty: bool = False
) -> pl.DataFrame | None:
    """Read and validate one contract CSV: columns present, rows present (unless
    ``allow_empty``: then ``None`` for a header-only file), numbers numeric."""
    if not path.is_file():
        raise InputError(f"{path}: file not found")
    try:
        df = pl.read_csv(path, infer_schema=False)
    except pl.exceptions.NoDataError:
        raise InputError(
            f"{path}: the file is empty; expected a header line with {', '.join(columns)}"
        ) from None
    except (pl.exceptions.ComputeError, OSError, UnicodeDecodeError) as exc:
        ragged = _ragged_line(path)
        if ragged is not None:
            line, n, expected = ragged
            raise InputError(
                f"{path}, line {line}: {n} fields where the header has {expected}"
            ) from None
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{path}: not a readable CSV file ({first})") from None
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise InputError(
            f"{path}: missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
            f"(found: {', '.join(df.columns) or 'none'}; expected: {', '.join(columns)})"
        )
    df = df.select(columns).filter(~pl.all_horizontal(pl.all().is_null()))  # blank lines
    if df.height == 0:
        if allow_empty:
            return None
        raise InputError(f"{path}: no data rows under the header")
    casts = []
    for col in columns:
        raw = pl.col(col)
        if col in _TYPES:
            typed = raw.str.strip_chars().cast(_TYPES[col], strict=False)
            casts.append(typed)
            bad = typed.is_null()
        else:
            bad = raw.is_null() | (raw.str.strip_chars() == "")
            casts.append(raw.str.strip_chars())
        idx = df.with_row_index("_i").filter(bad)
        if idx.height:
            i = int(idx["_i"][0])
            got = df[col][i]
            what = "an integer" if _TYPES.get(col) == pl.Int64 else "a number"
            if col not in _TYPES:
                what = "a non-empty name"
            raise InputError(
                f"{path}, line {_line_of(path, i)}: column '{col}' must be {what}, "
                f"got {'nothing' if got is None or got.strip() == '' else repr(got)}"
                + (f" ({idx.height} bad rows in all)" if idx.height > 1 else "")
            )
    return df.select(casts)


def load_results(directory: str | Path) -> pl.DataFrame:
    """Read and validate ``DIR/results.csv`` (or a path to that file) into typed columns."""
    d = Path(directory)
    path = d if d.is_file() else d / "results.csv"
    if not d.exists():
        raise InputError(f"{d}: results folder not found")
    if not path.is_file():
        raise InputError(
            f"{path}: file not found; give a folder written by `privlab bench` "
            "(it holds results.csv)"
        )
    return _read_table(path, RESULT_COLUMNS)


def load_curves(directory: str | Path) -> pl.DataFrame | None:
    """Read and validate ``DIR/curves.csv``; ``None`` when the folder has none or it holds
    only its header."""
    d = Path(directory)
    path = (d.parent if d.is_file() else d) / "curves.csv"
    # the runner writes a header-only curves.csv when no experiment draws a curve
    return _read_table(path, CURVE_COLUMNS, allow_empty=True) if path.exists() else None


def load_manifest(directory: str | Path) -> dict[str, Any]:
    """Read and check ``DIR/manifest.json``; ``{}`` when the folder has none."""
    d = Path(directory)
    path = (d.parent if d.is_file() else d) / "manifest.json"
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}, line {exc.lineno}, column {exc.colno}: invalid JSON ({exc.msg})"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object at the top level")
    exps = data.get("experiments", {})
    if not isinstance(exps, dict):
        raise InputError(f"{path}: 'experiments' must be an object keyed by experiment name")
    for name, info in exps.items():
        if not isinstance(info, dict):
            raise InputError(f"{path}: experiments.{name} must be an object")
        if "y_label" in info and not isinstance(info["y_label"], dict | str):
            raise InputError(f"{path}: experiments.{name}.y_label must map metric → label")
        fr = info.get("frontier")
        if fr is not None and not (isinstance(fr, dict) and {"risk", "loss"} <= set(fr)):
            raise InputError(
                f'{path}: experiments.{name}.frontier must be {{"risk": metric, "loss": metric}}'
            )
    return data


def aggregate_results(results: pl.DataFrame) -> pl.DataFrame:
    """Mean, std and seed count per experiment × scheme × parameter × value × metric."""
    return plots.mean_std(
        results,
        ["experiment", "scheme", "parameter", "value", "metric"],
        sort=["experiment", "parameter", "value"],
    )


# --------------------------------------------------------------------------- building


def _ordered(series: pl.Series) -> list[Any]:
    return list(dict.fromkeys(series.to_list()))


def _values_text(values: list[float]) -> str:
    shown = [format_number(v) for v in values[:8]]
    return ", ".join(shown) + (f", … ({len(values)} values)" if len(values) > 8 else "")


def report_from_results(directory: str | Path, title: str | None = None) -> Report:
    """Build the report of a benchmark results folder (see the module docstring).

    Raises :class:`~privlab.errors.InputError` naming the file, line and column of any
    problem; nothing is drawn before all inputs are validated.
    """
    d = Path(directory)
    results = load_results(d)
    curves = load_curves(d)
    manifest = load_manifest(d)
    folder = d.parent if d.is_file() else d
    experiments_info: dict[str, Any] = manifest.get("experiments", {})

    meta = {k: manifest[k] for k in ("spec", "created", "machine") if manifest.get(k)}
    meta["results"] = str(folder)
    meta["measurements"] = results.height
    report = Report(
        title or str(manifest.get("title") or f"Benchmark results: {folder.name}"), meta=meta
    )

    names = _ordered(results["experiment"])
    if curves is not None:
        names += [n for n in _ordered(curves["experiment"]) if n not in names]

    overview = []
    for name in names:
        part = results.filter(pl.col("experiment") == name)
        info = experiments_info.get(name, {})
        overview.append(
            {
                "experiment": name,
                "title": str(info.get("title", "")),
                "schemes": part["scheme"].n_unique(),
                "parameter": ", ".join(_ordered(part["parameter"])),
                "values": part["value"].n_unique(),
                "metrics": ", ".join(_ordered(part["metric"])),
                "seeds": part["seed"].n_unique(),
            }
        )
    intro = report.add_section("Overview")
    intro.add_text(
        f"{len(names)} experiment{'s' if len(names) != 1 else ''}, "
        f"{results.height:,} measurements. Tables give the mean ± sample standard deviation "
        "over seeds; plots show the mean with ± one standard deviation as error bars."
    )
    intro.add_table(overview, "Experiments in this report.")

    for name in names:
        info = experiments_info.get(name, {})
        section = report.add_section(str(info.get("title") or name))
        part = results.filter(pl.col("experiment") == name)
        if part.height:
            _experiment_section(section, name, part, info)
        if curves is not None:
            cpart = curves.filter(pl.col("experiment") == name)
            for kind in _ordered(cpart["curve"]):
                _curve_block(section, cpart.filter(pl.col("curve") == kind), kind, info)
    return report


def _y_label(info: dict[str, Any], metric: str) -> str:
    y = info.get("y_label", {})
    if isinstance(y, str):
        return y
    return str(y.get(metric, metric))


def _experiment_section(
    section: Section, name: str, part: pl.DataFrame, info: dict[str, Any]
) -> None:
    agg = aggregate_results(part)
    schemes = _ordered(part["scheme"])
    metrics = _ordered(part["metric"])
    n_seeds = part["seed"].n_unique()
    params = _ordered(part["parameter"])
    mapping = mapping_families(metrics)  # drawn as correct/wrong bars, not one plot each
    barred = {f"{a}{x}" for a in mapping for x in MAPPING_SUFFIXES}
    lines = [f"Experiment `{name}`: {len(schemes)} scheme(s) ({', '.join(schemes)}); "
             f"{n_seeds} seed(s)."]  # fmt: skip
    for p in params:
        vals = sorted(set(part.filter(pl.col("parameter") == p)["value"].to_list()))
        lines.append(f"- **{p}**: {_values_text(vals)}")
    section.add_text("\n".join(lines))

    for p in params:
        sub = agg.filter(pl.col("parameter") == p)
        x_label = str(info.get("x_label") or p) if len(params) == 1 else p
        rows = []
        keys = sub.select("scheme", "value").unique(maintain_order=True)
        order = {s: i for i, s in enumerate(schemes)}
        for scheme, value in sorted(keys.rows(), key=lambda r: (order[r[0]], r[1])):
            cell = sub.filter((pl.col("scheme") == scheme) & (pl.col("value") == value))
            row: dict[str, Any] = {"scheme": scheme, x_label: value, "seeds": int(cell["n"].max())}
            by_metric = {m: (mu, sd, n) for m, mu, sd, n in
                         cell.select("metric", "mean", "std", "n").rows()}  # fmt: skip
            for m in metrics:
                row[_y_label(info, m)] = format_mean_std(*by_metric[m]) if m in by_metric else ""
            rows.append(row)
        section.add_table(
            rows,
            f"{section.title}: mean ± standard deviation over seeds, per scheme and {x_label}.",
        )
        for m in metrics:
            data = part.filter((pl.col("parameter") == p) & (pl.col("metric") == m))
            if data.height == 0 or m in barred:
                continue
            y_label = _y_label(info, m)
            fig = plots.metric_vs_parameter(
                data,
                x_label=x_label,
                y_label=y_label,
                log_x=bool(info.get("log_x", False)),
                log_y=bool(info.get("log_y", False)),
            )
            section.add_figure(
                fig,
                f"{y_label} against {x_label}, per scheme; mean ± standard deviation over "
                f"{data['seed'].n_unique()} seed(s).",
            )
        if mapping:
            _mapping_bars(section, sub, mapping, schemes, x_label)
        fr = info.get("frontier")
        if fr and fr["risk"] in metrics and fr["loss"] in metrics:
            _frontier(section, sub, fr["risk"], fr["loss"], info, x_label)


def _mapping_bars(
    section: Section, agg: pl.DataFrame, attacks: list[str], schemes: list[Any], x: str
) -> None:
    """Correct against wrong matches per attack, one panel per (scheme, value)."""
    keys = agg.select("scheme", "value").unique(maintain_order=True).rows()
    order = {s: i for i, s in enumerate(schemes)}
    keys = _panels_of(sorted(keys, key=lambda r: (order[r[0]], r[1])))
    ncols = min(2, len(keys))
    nrows = math.ceil(len(keys) / ncols)
    width = max(4.0, 1.1 * len(attacks) + 1.5)
    fig, axes = plots.new_figure(nrows, ncols, width=width, height=3.6)
    for k, (scheme, value) in enumerate(keys):
        cell = agg.filter((pl.col("scheme") == scheme) & (pl.col("value") == value))
        got = {m: (mu, sd) for m, mu, sd in cell.select("metric", "mean", "std").rows()}
        stats = {a: (*got[f"{a}_correct"], *got[f"{a}_wrong"]) for a in attacks
                 if f"{a}_correct" in got and f"{a}_wrong" in got}  # fmt: skip
        stats = {a: tuple(float("nan") if v is None else v for v in t) for a, t in stats.items()}
        correct_wrong_bars(stats, title=f"{scheme}, {x} = {format_number(value)}",
                           ax=axes[k // ncols, k % ncols])  # fmt: skip
    for k in range(len(keys), nrows * ncols):
        axes[k // ncols, k % ncols].set_visible(False)
    section.add_figure(
        fig,
        "Correct (green) and wrong (red) matches per attack, seeds included; mean ± "
        "standard deviation over seeds.",
    )


def _panels_of(keys: list[Any]) -> list[Any]:
    if len(keys) <= MAX_PANELS:
        return keys
    idx = np.unique(np.linspace(0, len(keys) - 1, MAX_PANELS).round().astype(int))
    return [keys[i] for i in idx]


def _frontier(
    section: Section, agg: pl.DataFrame, risk: str, loss: str, info: dict[str, Any], x: str
) -> None:
    r = agg.filter(pl.col("metric") == risk).select("scheme", "value", risk=pl.col("mean"))
    lo = agg.filter(pl.col("metric") == loss).select("scheme", "value", loss=pl.col("mean"))
    pts = r.join(lo, on=["scheme", "value"], how="inner")
    if pts.height == 0:
        return
    labels = [f"{s} {x}={format_number(v)}" for s, v in pts.select("scheme", "value").rows()]
    fig = plots.privacy_utility_frontier(
        pts["risk"].to_numpy(), pts["loss"].to_numpy(), labels,
        groups=pts["scheme"].to_list(), risk_label=_y_label(info, risk),
        loss_label=_y_label(info, loss),
    )  # fmt: skip
    front = plots.pareto_front(pts["risk"].to_numpy(), pts["loss"].to_numpy())
    section.add_figure(
        fig,
        f"Privacy–utility frontier: {_y_label(info, risk)} against {_y_label(info, loss)} "
        f"(means over seeds); the {len(front)} Pareto-optimal release(s) are circled.",
    )


def _panels(values: list[float]) -> list[float]:
    if len(values) <= MAX_PANELS:
        return values
    idx = np.unique(np.linspace(0, len(values) - 1, MAX_PANELS).round().astype(int))
    return [values[i] for i in idx]


def _curve_block(section: Section, part: pl.DataFrame, kind: str, info: dict[str, Any]) -> None:
    values = sorted(set(part["value"].to_list()))
    shown = _panels(values)
    x_label = str(info.get("x_label") or "value")
    ncols = min(3, len(shown))
    nrows = math.ceil(len(shown) / ncols)
    fig, axes = plots.new_figure(nrows, ncols, width=4.6, height=3.6)
    tp_rows: list[dict[str, Any]] = []
    for k, value in enumerate(shown):
        ax = axes[k // ncols, k % ncols]
        sub = part.filter(pl.col("value") == value)
        by_scheme: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
        for (scheme, _seed), g in sub.group_by(["scheme", "seed"], maintain_order=True):
            by_scheme.setdefault(str(scheme), []).append((g["x"].to_numpy(), g["y"].to_numpy()))
        panel = f"{x_label} = {format_number(value)}"
        if kind == "roc":
            plots.roc_curves(by_scheme, log_x=True, title=panel, ax=ax)
            tab = plots.tp_at_fp_table(by_scheme)
            for label in _ordered(tab["label"]):
                row: dict[str, Any] = {"scheme": label, x_label: value}
                for _, fp, mu, sd, n in tab.filter(pl.col("label") == label).rows():
                    row[f"TP at FP ≤ {fp:g}"] = format_mean_std(mu, sd, n)
                tp_rows.append(row)
        elif kind == "degree_distribution":
            plots.loglog_curves(by_scheme, title=panel, ax=ax)
        elif kind == "candidate_set_size":
            sizes = {s: np.concatenate([x for x, _ in v]) for s, v in by_scheme.items()}
            counts = {s: np.concatenate([y for _, y in v]) for s, v in by_scheme.items()}
            plots.candidate_set_buckets(sizes, counts, title=panel, ax=ax)
        elif kind == "risk_histogram":
            plots.line_curves(by_scheme, x_label="risk", y_label="records", title=panel, ax=ax)
        else:
            plots.line_curves(by_scheme, x_label="x", y_label=kind, title=panel, ax=ax)
    for k in range(len(shown), nrows * ncols):
        axes[k // ncols, k % ncols].set_visible(False)
    thinned = (
        f" Showing {len(shown)} of {len(values)} values of {x_label}." if shown != values else ""
    )
    captions = {
        "roc": "ROC curves of the attack (false-positive rate on a log scale), one colour "
        "per scheme; one line per seed.",
        "degree_distribution": "Degree distributions (log-log), original (black) against releases.",
        "candidate_set_size": "Candidate-set sizes: fraction of nodes per size bucket "
        "(darkest = uniquely re-identified), all seeds pooled.",
        "risk_histogram": "Per-record risk histograms.",
    }
    section.add_figure(
        fig, captions.get(kind, f"Curves '{kind}', one colour per scheme.") + thinned
    )
    if tp_rows:
        section.add_table(
            tp_rows,
            "True-positive rate at fixed false-positive rates (best operating point at or "
            "below the rate), mean ± standard deviation over seeds.",
        )
