"""Report HTML: sections, embedded images, escaping, atomic writes; results validation; CLI."""

from __future__ import annotations

import base64
import re
import stat
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.errors import InputError
from privlab.report import Report, markdown_to_html, plots, report_from_results
from privlab.report.html import format_number

runner = CliRunner()


def small_figure() -> Figure:
    fig, axes = plots.new_figure()
    axes[0, 0].plot([0, 1], [0, 1])
    return fig


def img_sources(html: str) -> list[str]:
    return re.findall(r'<img src="([^"]*)"', html)


# --------------------------------------------------------------------------- Report


def test_report_from_python_objects_has_every_section_and_data_uri_images(tmp_path):
    r = Report("Audit", meta={"release": "out.csv"})
    r.add_section("Risk").add_text("Highest risk **0.5**.").add_figure(small_figure(), "Risk plot")
    r.add_section("Utility").add_table(
        pl.DataFrame({"scheme": ["a", "b"], "loss": [0.25, 1234567.0]}), "Loss per scheme"
    )
    html = r.write(tmp_path / "r.html").read_text(encoding="utf-8")
    for title in ("Risk", "Utility"):
        assert f"<h2>{title}</h2>" in html
        assert f'href="#{title.lower()}"' in html  # contents entry
    srcs = img_sources(html)
    assert len(srcs) == 1
    assert srcs[0].startswith("data:image/png;base64,")
    png = base64.b64decode(srcs[0].split(",", 1)[1])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<strong>0.5</strong>" in html
    assert "Figure 1.</span> Risk plot" in html and "Table 1.</span> Loss per scheme" in html
    assert '<td class="num">1,234,567</td>' in html  # numbers right-aligned and formatted
    assert "<td>a</td>" in html


def test_report_is_self_contained():
    r = Report("x")
    r.add_figure(small_figure(), "f")
    html = r.render()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert "<link" not in html and "<script" not in html
    assert "default-src 'none'" in html  # the CSP forbids any load but data: images


def test_all_user_text_is_escaped():
    evil = "<script>alert('x')</script>"
    r = Report(evil, meta={evil: evil})
    s = r.add_section(evil)
    s.add_text(evil + " and `" + evil + "` and [link](javascript:alert(1))")
    s.add_table([{evil: evil}], evil)
    s.add_figure(small_figure(), evil)
    html = r.render()
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert 'href="javascript' not in html
    assert 'alt="&lt;script&gt;' in html


def test_markdown_subset():
    out = markdown_to_html(
        "# Head\n\npara *em* `c<d>`\n\n- one\n- two\n\n1. first\n\n```\nx < y\n```"
    )
    assert "<h3>Head</h3>" in out
    assert "<em>em</em>" in out and "<code>c&lt;d&gt;</code>" in out
    assert "<ul><li>one</li><li>two</li></ul>" in out
    assert "<ol><li>first</li></ol>" in out
    assert "<pre><code>x &lt; y</code></pre>" in out
    assert markdown_to_html("plain text") == "<p>plain text</p>"


def test_tables_from_rows_dicts_and_frames():
    r = Report("t")
    r.add_table([[1, "a"], [2.5, "b"]], "rows", columns=["n", "s"])
    r.add_table([{"n": 1}, {"n": 2, "m": "x"}], "dicts")
    with pytest.raises(InputError, match="column names"):
        r.add_table([[1, 2]], "no columns")
    with pytest.raises(InputError, match="row 1 has 1 cells"):
        r.add_table([[1]], "ragged", columns=["a", "b"])
    t = r.sections[0].blocks[1]
    assert t.columns == ["n", "m"] and t.rows == [[1, None], [2, "x"]]


def test_format_number():
    assert format_number(0.123456) == "0.1235"
    assert format_number(12345) == "12,345"
    assert format_number(12345.0) == "12,345"
    assert format_number(1.5e-7) == "1.500e-07"
    assert format_number(float("nan")) == "NaN"
    assert format_number(0.0) == "0"


def test_write_is_atomic(tmp_path, monkeypatch):
    target = tmp_path / "report.html"
    target.write_text("old", encoding="utf-8")
    r = Report("new")

    def boom(self):
        raise RuntimeError("render failed")

    monkeypatch.setattr(Report, "render", boom)
    with pytest.raises(RuntimeError):
        r.write(target)
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]  # no temp left
    monkeypatch.undo()
    r.write(target)
    assert "<h1>new</h1>" in target.read_text(encoding="utf-8")
    assert stat.S_IMODE(target.stat().st_mode) & 0o044  # readable by others (umask 022)
    with pytest.raises(InputError, match="is a folder"):
        r.write(tmp_path)


# --------------------------------------------------------------------------- plots


def test_pareto_front():
    risk = [0.5, 0.1, 0.3, 0.3, 0.2, 0.6, float("nan")]
    loss = [0.1, 0.9, 0.5, 0.4, 0.8, 0.05, 0.0]
    assert plots.pareto_front(risk, loss).tolist() == [1, 4, 3, 0, 5]


def test_bucket_fractions_and_tp_at_fp():
    f = plots.bucket_fractions([1, 1, 2, 4, 5, 10, 11, 20, 21, 1000])
    assert f.tolist() == pytest.approx([0.2, 0.2, 0.2, 0.2, 0.2])
    assert plots.bucket_fractions([1, 3], counts=[3, 1]).tolist() == [0.75, 0.25, 0, 0, 0]
    with pytest.raises(InputError, match="at least 1"):
        plots.bucket_fractions([0, 1])
    fpr, tpr = [0.0, 0.001, 0.01, 0.5, 1.0], [0.1, 0.2, 0.4, 0.9, 1.0]
    assert plots.tp_at_fp(fpr, tpr, 0.01) == 0.4
    assert plots.tp_at_fp(fpr, tpr, 0.005) == 0.2
    t = plots.tp_at_fp_table({"a": [(fpr, tpr), (fpr, [0.0, 0.0, 0.2, 0.9, 1.0])]}, [0.01])
    assert t.row(0) == ("a", 0.01, pytest.approx(0.3), pytest.approx(0.1414, abs=1e-3), 2)


def test_every_plot_helper_returns_a_figure():
    rng = np.random.default_rng(0)
    df = pl.DataFrame(
        {"scheme": ["a"] * 4 + ["b"] * 4, "value": [1.0, 1.0, 2.0, 2.0] * 2,
         "seed": [0, 1] * 4, "result": rng.random(8)}
    )  # fmt: skip
    figs = [
        plots.metric_vs_parameter(df, x_label="k", y_label="risk", log_x=True),
        plots.roc_curves({"a": ([0, 0.1, 1], [0, 0.5, 1])}, log_x=True),
        plots.candidate_set_buckets({"H1": [1, 2, 30], "H2": [1, 1, 5]}),
        plots.degree_distributions(rng.integers(0, 20, 100), {"rsp": rng.integers(0, 20, 100)}),
        plots.privacy_utility_frontier([0.1, 0.2], [0.5, 0.3], ["x", "y"], groups=["g", "h"]),
        plots.risk_histograms({"before": rng.random(50), "after": rng.random(50) / 5}),
        plots.line_curves({"c": ([1, 2], [3, 4])}),
    ]
    r = Report("plots")
    for fig in figs:
        assert isinstance(fig, Figure)
        r.add_figure(fig, "f")
    assert all(s.startswith("data:image/png;base64,") for s in img_sources(r.render()))


# --------------------------------------------------------------------------- results folder


def test_report_from_results_has_a_section_per_experiment(results_dir):
    r = report_from_results(results_dir)
    titles = [s.title for s in r.sections]
    assert titles == ["Overview", "Re-identification against k", "utility"]
    html = r.render()
    # 2 metrics + frontier + roc + candidate sets + degrees for reid; 1 metric for utility
    assert len(img_sources(html)) == 7
    assert "TP at FP ≤ 0.01" in html
    assert "&lt;b&gt;rsp&lt;/b&gt;" in html and "<b>rsp" not in html
    assert "<title>Demo &lt;results&gt; &amp; more</title>" in html
    assert " ± " in html


def test_aggregation_mean_and_std(results_dir):
    from privlab.report import aggregate_results, load_results

    res = load_results(results_dir)
    agg = aggregate_results(res)
    cell = agg.filter(
        (pl.col("scheme") == "naive") & (pl.col("value") == 2.0) & (pl.col("metric") == "loss")
    )
    raw = res.filter(
        (pl.col("scheme") == "naive") & (pl.col("value") == 2.0) & (pl.col("metric") == "loss")
    )["result"].to_numpy()
    assert cell["n"][0] == 3
    assert cell["mean"][0] == pytest.approx(raw.mean())
    assert cell["std"][0] == pytest.approx(raw.std(ddof=1))


def _rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("damage", "fragments"),
    [
        (lambda d: (d / "results.csv").unlink(), ["results.csv", "not found"]),
        (lambda d: (d / "results.csv").write_text(""), ["results.csv", "empty"]),
        (
            lambda d: (d / "results.csv").write_text("experiment,scheme,value\n"),
            ["missing columns parameter, metric, seed, result"],
        ),
        (
            lambda d: (d / "results.csv").write_text(
                "experiment,scheme,parameter,value,metric,seed,result\n"
            ),
            ["no data rows"],
        ),
        (
            lambda d: _rewrite(d / "results.csv", ",0,", ",zero,"),
            ["results.csv, line 2", "'seed'", "integer", "'zero'"],
        ),
        (
            lambda d: (d / "results.csv").write_text(
                "experiment,scheme,parameter,value,metric,seed,result\n"
                "e,s,k,1,m,0,0.5\n\ne,s,k,2,m,0,oops\n"
            ),
            ["results.csv, line 4", "'result'", "a number", "'oops'"],
        ),
        (
            lambda d: _rewrite(d / "curves.csv", "\nreid,naive,", "\nreid,naive,,"),
            ["curves.csv, line 2", "8 fields where the header has 7"],
        ),
        (
            lambda d: (d / "curves.csv").write_text("experiment,x\nreid,1\n"),
            ["curves.csv", "missing columns scheme, value, seed, curve, y"],
        ),
        (lambda d: (d / "manifest.json").write_text("{oops"), ["manifest.json, line 1"]),
    ],
)
def test_bad_results_are_rejected_by_the_cli_with_exit_2_and_no_output(
    results_dir, tmp_path, damage, fragments
):
    damage(results_dir)
    out = tmp_path / "out" / "report.html"
    result = runner.invoke(app, ["report", str(results_dir), "-o", str(out)])
    assert result.exit_code == 2, result.output
    flat = " ".join(result.output.split())
    for fragment in fragments:
        assert fragment in flat, result.output
    assert "Traceback" not in result.output
    assert not out.exists()
    with pytest.raises(InputError):
        report_from_results(results_dir)


def test_cli_writes_the_report(results_dir, tmp_path):
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["report", str(results_dir), "-o", str(out), "--title", "T & U"])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "<h1>T &amp; U</h1>" in html
    assert len(img_sources(html)) == 7


def test_cli_missing_folder(tmp_path):
    out = tmp_path / "r.html"
    result = runner.invoke(app, ["report", str(tmp_path / "nope"), "-o", str(out)])
    assert result.exit_code == 2
    assert "not found" in result.output and not out.exists()


def test_results_without_curves_or_manifest(results_dir):
    (results_dir / "curves.csv").unlink()
    (results_dir / "manifest.json").unlink()
    r = report_from_results(results_dir / "results.csv")  # the file itself is accepted too
    assert [s.title for s in r.sections] == ["Overview", "reid", "utility"]
    assert r.title == "Benchmark results: results"
    assert len(img_sources(r.render())) == 3


def test_manifest_log_scales_reach_the_metric_plots(results_dir, monkeypatch):
    _rewrite(results_dir / "manifest.json", '"x_label": "k"', '"x_label": "k", "log_y": true')
    seen = []
    real = plots.metric_vs_parameter

    def spy(data, **kw):
        seen.append((kw["y_label"], kw["log_x"], kw["log_y"]))
        return real(data, **kw)

    monkeypatch.setattr(plots, "metric_vs_parameter", spy)
    report_from_results(results_dir)
    assert sorted(seen) == [
        ("clustering", False, False),  # experiment "utility": no manifest entry
        ("information loss", False, True),
        ("re-identified fraction", False, True),
    ]


def test_header_only_curves_file_means_no_curves(results_dir):
    """The bench runner writes curves.csv with only its header when nothing draws a curve."""
    header = (results_dir / "curves.csv").read_text(encoding="utf-8").splitlines()[0]
    (results_dir / "curves.csv").write_text(header + "\n", encoding="utf-8")
    r = report_from_results(results_dir)
    assert r.sections[0].title == "Overview"
    assert len(img_sources(r.render())) >= 2  # the metric plots are still drawn


# --------------------------------------------------------------------------- lattice


def _figure_texts(fig: Figure) -> str:
    from matplotlib.text import Text

    return "\n".join(t.get_text() for t in fig.findobj(Text))


def _png(fig: Figure) -> bytes:
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=60)
    return buf.getvalue()


def _small_problem():
    from privlab.table.data import MicroTable
    from privlab.table.hierarchy import Hierarchy
    from privlab.table.models import KAnonymity
    from privlab.table.search import Problem

    ages = [str(a) for a in range(20, 28)]
    zips = ["130", "131", "140", "141"]
    hier = {
        "age": Hierarchy.from_rows([[a, a[:1] + "x", "*"] for a in ages]),
        "zip": Hierarchy.from_rows([[z, z[:2] + "*", z[:1] + "**", "*"] for z in zips]),
        "sex": Hierarchy.from_rows([["m", "*"], ["f", "*"]]),
    }
    rng = np.random.default_rng(1)
    frame = pl.DataFrame(
        {
            "age": rng.choice(ages, 60),
            "zip": rng.choice(zips, 60),
            "sex": rng.choice(["m", "f"], 60),
        }
    )
    table = MicroTable.from_data(frame, quasi_identifiers=["age", "zip", "sex"], hierarchies=hier)
    return lambda: Problem(table, [KAnonymity(3)])


def _assert_counts_consistent(st) -> None:
    counts = st.counts
    assert counts["nodes"].sum() == st.n_nodes == st.result.lattice_size
    assert (
        counts["anonymous"] + counts["not_anonymous"] + counts["unknown"] == counts["nodes"]
    ).all()
    assert counts["anonymous"].sum() == int((st.status == 1).sum())
    assert int(st.checked.sum()) <= st.result.nodes_checked  # distinct nodes among the checks
    assert st.status[st.result.node] == 1  # the optimum is anonymous


def test_lattice_plot_small_table_full_hasse_diagram():
    from privlab.report.tabular import add_lattice, lattice_status
    from privlab.table.search import exhaustive_search, optimal_search

    problem = _small_problem()
    st = lattice_status(problem())
    _assert_counts_consistent(st)
    # statuses the search knows agree with checking every node; nothing is left unknown here
    exact = lattice_status(problem(), exhaustive=True)
    assert (exact.status != 0).all()
    known = st.status != 0
    assert (st.status[known] == exact.status[known]).all()
    assert st.result.node == exhaustive_search(problem()).node == exact.result.node
    assert st.n_nodes == 3 * 4 * 2 <= plots.LATTICE_FULL_MAX_NODES

    label = plots.lattice_optimum_label(list(st.result.levels.values()), st.result.value, "loss")
    fig = plots.lattice_plot(
        st.heights, st.status, st.result.levels, names=st.names, value=st.result.value,
        metric="loss",
    )  # fmt: skip
    texts = _figure_texts(fig)
    assert "optimum " + label in texts
    assert f"anonymous ({int((st.status == 1).sum())})" in texts
    assert "height (sum of levels)" in texts
    assert _png(fig)[:8] == b"\x89PNG\r\n\x1a\n"
    # an unknown node (status 0) is drawn in its own colour and counted in the legend
    status = st.status.copy()
    status[-1] = 0
    assert "unknown (1)" in _figure_texts(plots.lattice_plot(st.heights, status, st.result.node))

    r = Report("Lattice")
    section = r.add_section("Lattice")
    add_lattice(section, problem())
    html = r.render()
    assert len(img_sources(html)) == 1
    assert "Hasse diagram" in html and "<td>age</td>" in html
    assert f"{st.n_nodes:,}</strong> transformations" in html
    # a result that already carries the lattice status is drawn as it is, not searched again
    p = problem()
    done = optimal_search(p)
    checks = p.checks
    again = add_lattice(r.add_section("Again"), p, done)
    assert again.result is done and p.checks == checks
    assert (again.status == st.status).all()


def test_lattice_plot_rejects_bad_input():
    with pytest.raises(InputError):
        plots.lattice_plot([1, 2], np.zeros(5))  # 6 nodes
    with pytest.raises(InputError):
        plots.lattice_plot([1, 2], np.zeros(6), [2, 0])  # level above the height
    with pytest.raises(InputError):
        plots.lattice_plot([1, 2], np.zeros(6), 6)  # node index outside


def test_lattice_plot_adult_compact_view(adult_table):
    from privlab.report.tabular import add_lattice
    from privlab.table.models import KAnonymity
    from privlab.table.search import Problem

    r = Report("Adult")
    st = add_lattice(
        r.add_section("Lattice"), Problem(adult_table, [KAnonymity(5)], suppression_limit=0.02)
    )
    assert st.n_nodes == 12_960 > plots.LATTICE_FULL_MAX_NODES
    _assert_counts_consistent(st)
    assert st.result.nodes_checked == 775  # docs/algorithms/optimal.md
    assert (st.status == 0).any()  # the search pruned part of the lattice
    fig = plots.lattice_plot(
        st.heights, st.status, st.result.node, names=st.names, value=st.result.value,
        metric=st.result.metric,
    )  # fmt: skip
    texts = _figure_texts(fig)
    label = plots.lattice_optimum_label(
        [st.result.levels[c] for c in st.names], st.result.value, st.result.metric
    )
    assert "optimum " + label in texts
    counts = st.counts
    for col, name in (("anonymous", "anonymous"), ("not_anonymous", "not anonymous")):
        assert f"{name} ({int(counts[col].sum()):,})" in texts
    assert "chosen transformation" in texts and "salary-class" in texts
    assert _png(fig)[:8] == b"\x89PNG\r\n\x1a\n"
    html = r.render()
    assert len(img_sources(html)) == 1 and "transformations per height" in html
