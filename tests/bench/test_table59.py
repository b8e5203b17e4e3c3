"""Sharad's Table 5.9 in the bench: NS, KL, DV, YG and 3PSL on the same pair (sharad-table5-9).

The reduced spec is run and every figure is compared with a direct library call on the
pair rebuilt from the cell's seed; then the definitions (coverage, accuracy, the learned
attack's pair) and the report's correct/wrong bars are checked.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from privlab.bench import load_spec, parse_text, registry, run_spec
from privlab.bench.registry.attacks import ATTACKS, attack_pair
from privlab.bench.registry.cells import Cell
from privlab.bench.runner import CellKey, cell_seed
from privlab.errors import ConfigError, InputError
from privlab.graph.attacks.distance_vector import distance_vector
from privlab.graph.attacks.ji import jls, jlsb
from privlab.graph.attacks.learned import train_scorer
from privlab.graph.attacks.nka import nka
from privlab.graph.attacks.percolation import percolate
from privlab.graph.attacks.pfg import pfg
from privlab.graph.attacks.propagation import propagate, top_degree_seeds
from privlab.graph.attacks.reconciliation import reconcile
from privlab.graph.attacks.threepsl import three_phase_attack
from privlab.graph.pairs import sample_pair, secgraph_pair

SEEDED = ("ns", "kl", "dv", "yg", "jls", "jlsb", "pfg", "nka")
SEEDLESS = ("jlsb", "pfg")


@pytest.fixture(scope="module")
def reduced(tmp_path_factory):
    spec = load_spec("sharad-table5-9").reduce()
    for e in spec.experiments:
        reason = registry.dataset_available(e.data)
        if reason:
            pytest.skip(reason)
    out = tmp_path_factory.mktemp("t59")
    assert run_spec(spec, out).complete
    return spec, out, pl.read_csv(out / "results.csv")


def _cell(spec, e, scheme, value, seed):
    key = CellKey(e.name, scheme, float(value), int(seed))
    return Cell(scheme, {}, e.parameter, value, cell_seed(spec.seed, key), dict(e.options))


def _direct(spec, e, scheme, value, seed):
    """The pair (built here from the generators) and the four library results on it."""
    c = _cell(spec, e, scheme, value, seed)
    g = registry.load_dataset(e.data, e.data_options)
    if scheme == "secgraph-p":
        pair = secgraph_pair(g, value, seed=c.sub_seed(3))
    else:
        pair = sample_pair(g, e.options["alpha_v"], value, seed=c.sub_seed(3))
    t = pair.truth_array()
    s = top_degree_seeds(pair.aux, t, e.options["n_seeds"])
    a, b = pair.aux, pair.san
    return pair, {
        "ns": propagate(a, b, s, 0.1, truth=t),
        "kl": reconcile(a, b, s, threshold=2, truth=t),
        "dv": distance_vector(a, b, s, block=100, keep=10, mode="queue", truth=t),
        "yg": percolate(a, b, s, r=2, seed=c.sub_seed(9), truth=t),
        "jls": jls(a, b, s, variant="adaptive", truth=t),
        "jlsb": jlsb(a, b, None, truth=t),
        "pfg": pfg(a, b, s=0.9, truth=t),
        "nka": nka(a, b, s, theta=0.1, method="infomap", seed=c.sub_seed(9), truth=t),
    }


def _got(res, e, seed, name):
    r = res.filter((pl.col("experiment") == e) & (pl.col("seed") == seed)
                   & pl.col("metric").str.starts_with(f"{name}_"))  # fmt: skip
    return dict(zip(r["metric"], r["result"], strict=True))


def test_reduced_figures_equal_direct_library_calls(reduced):
    spec, _, res = reduced
    for e in spec.experiments:
        for scheme in e.schemes:
            for value in e.values[scheme]:
                for seed in e.seeds:
                    pair, direct = _direct(spec, e, scheme, value, seed)
                    for name in SEEDED:
                        d, got = direct[name], _got(res, e.name, seed, name)
                        assert got[f"{name}_correct"] == d.correct
                        assert got[f"{name}_wrong"] == d.mapped - d.correct
                        assert got[f"{name}_coverage"] == pytest.approx(d.coverage)
                        assert got[f"{name}_accuracy"] == pytest.approx(d.accuracy)
                        # the definitions (seed 004 §2.12), counting the seeds as mapped
                        assert d.correct == pytest.approx(d.coverage * pair.n_common)
                        floor = 0 if name in SEEDLESS else e.options["n_seeds"]
                        assert d.mapped >= d.correct >= floor


def _direct_threepsl(spec, e, scheme, value, seed):
    """3PSL on the cell's pair, called here: one scorer trained by splitting, three phases."""
    c = _cell(spec, e, scheme, value, seed)
    pair, _ = _direct(spec, e, scheme, value, seed)
    o = e.options
    # the adversary's estimates: a SecGraph pair keeps every node (α_V = 1) and two
    # independent p-samples of the edges share p² of 2p − p² (α_E = p / (2 − p))
    av, ae = (1.0, value / (2 - value)) if scheme == "secgraph-p" else (o["alpha_v"], value)
    scorer = train_scorer(
        pair.aux, pair.san, alpha_v=av, alpha_e=ae, n_bins=o["n_bins"],
        bin_width=o["bin_width"], n_identical=o["n_identical"],
        n_non_identical=o["n_non_identical"], min_degree=5, n_splits=o.get("n_splits", 1),
        n_jobs=o.get("n_jobs", 2),
        seed=c.sub_seed(4), n_trees=o["n_trees"], per_class=o["per_class"],
    ).bind(pair.aux, pair.san)  # fmt: skip
    res = three_phase_attack(pair.aux, pair.san, [scorer] * 3, thresholds=(30, 9, 5),
                             score_cut=0.8, cs_threshold=0.2, order="cs")  # fmt: skip
    return pair, res


def test_threepsl_cell_equals_a_direct_library_call(reduced):
    spec, _, res = reduced
    nontrivial = 0
    for e in spec.experiments:
        scheme = e.schemes[0]
        value = e.values[scheme][0]
        pair, direct = _direct_threepsl(spec, e, scheme, value, 0)
        got = _got(res, e.name, 0, "threepsl")
        ok = direct.mapping >= 0
        correct = int((direct.mapping[ok] == pair.truth_array()[ok]).sum())
        assert got["threepsl_correct"] == correct
        assert got["threepsl_wrong"] == int(ok.sum()) - correct
        # Table 5.9's coverage is over all true pairs, not only degree > t3 (seed 004 §2.12)
        assert got["threepsl_coverage"] == pytest.approx(correct / pair.n_common)
        assert got["threepsl_accuracy"] == pytest.approx(correct / ok.sum() if ok.any() else 0)
        # seedless and one-to-one: no node is mapped twice, none below t3
        images = direct.mapping[ok]
        assert np.unique(images).size == images.size
        assert (direct.aux_degree[ok] > 5).all() and (direct.san_degree[images] > 5).all()
        nontrivial += correct > 0
    # on the SecGraph pair (same nodes, α_V = 1) 3PSL maps far more than chance (1 / n)
    got = _got(res, "secgraph-pair", 0, "threepsl")
    assert got["threepsl_accuracy"] > 0.2 and nontrivial >= 1


def test_every_attack_of_a_cell_gets_the_same_pair(reduced):
    spec, _, _ = reduced
    e = spec.experiments[0]
    g = registry.load_dataset(e.data, e.data_options)
    c = _cell(spec, e, "rsp-alpha", 0.5, 0)
    p1, p2 = attack_pair(g, c), attack_pair(g, c)
    # the learned attack's own pair: sample_pair(α_V, α_E) on the cell's stream 3
    p3 = sample_pair(g, 0.5, 0.5, seed=c.sub_seed(3))
    for p in (p2, p3):
        assert np.array_equal(p.aux.edges(), p1.aux.edges())
        assert np.array_equal(p.san.edges(), p1.san.edges())
        assert np.array_equal(p.truth_pairs(), p1.truth_pairs())
    assert p1.parameters["alpha_v"] == 0.5 and p1.parameters["alpha_e"] == 0.5


def test_distance_vector_maps_everything_on_the_secgraph_pair(reduced):
    # SecGraph sets m_out = m_tot, so accuracy equals coverage (seed 004 §3.5); DV maps every
    # node of the smaller graph, and SecGraph's pair has the same nodes on both sides
    _, _, res = reduced
    got = _got(res, "secgraph-pair", 0, "dv")
    assert got["dv_accuracy"] == pytest.approx(got["dv_coverage"])
    assert got["dv_correct"] + got["dv_wrong"] == 400


def test_report_draws_correct_wrong_bars_instead_of_one_plot_per_count(reduced):
    from privlab.report import report_from_results

    _, out, _ = reduced
    html = report_from_results(out).render()
    assert html.count("Correct (green) and wrong (red)") == 2 * 2  # caption + alt, 2 experiments
    assert "AUC (learned attack) against" in html  # other metrics keep their plots
    for what in ("correct", "wrong", "coverage", "accuracy"):
        for name in ("NS", "3PSL"):
            assert f"{name} {what}</th>" in html  # a table column, not a plot of its own
            assert f"{name} {what} against" not in html


def test_learned_attack_refuses_the_secgraph_pair():
    g = registry.load_dataset("synthetic:gnm", {"n": 60, "m": 200, "seed": 1})
    c = Cell("secgraph-p", {}, "p", 0.9, 5, {})
    with pytest.raises(ConfigError, match="secgraph-p"):
        ATTACKS["learned"].run(g, None, c)


def test_seeded_attack_on_a_scheme_release_uses_the_sanitized_side():
    # a non-pair scheme (rsw) is applied to the sanitized side of an α_E = 1 pair: same
    # degree sequence on the common nodes' side as before the switch
    g = registry.load_dataset("synthetic:gnm", {"n": 80, "m": 300, "seed": 2})
    c = Cell("rsw", {}, "fraction", 0.5, 7, {"alpha_v": 0.5})
    pair = attack_pair(g, c)
    assert pair.parameters["alpha_e"] == 1.0 and pair.parameters["scheme"] is not None
    r = ATTACKS["ns"].run(g, None, Cell("rsw", {}, "fraction", 0.5, 7, {"n_seeds": 5}))
    assert r.metrics["ns_correct"] >= 5 and r.metrics["ns_wrong"] >= 0


def test_correct_wrong_bars_reject_bad_counts():
    from privlab.report.plots.mapping import correct_wrong_bars, mapping_families

    assert mapping_families(["ns_correct", "ns_wrong", "kl_correct", "x"]) == ["ns"]
    with pytest.raises(InputError):
        correct_wrong_bars({})
    with pytest.raises(InputError):
        correct_wrong_bars({"ns": (-1.0, 0.0, 2.0, 0.0)})
    fig = correct_wrong_bars({"ns": (3.0, float("nan"), 1.0, float("nan"))})
    heights = sorted(p.get_height() for p in fig.axes[0].patches)
    assert heights == [1.0, 3.0]


BAD_SPEC = """
[spec]
name = "bad"
[[experiment]]
name = "e"
data = "synthetic:gnm"
data_options = {{ n = 60, m = 200 }}
schemes = ["rsp-alpha"]
parameter = "alpha_e"
values = [0.5]
attacks = ["{attack}"]
options = {{ {option} }}
"""


@pytest.mark.parametrize(("attack", "option", "name"), [
    ("kl", 'kl_variant = "bogus"', "kl_variant"), ("ns", "n_seeds = 0", "n_seeds"),
    ("ns", "ns_theta = -1", "ns_theta"), ("yg", 'yg_r = "x"', "yg_r"),
    ("dv", "dv_keep = 20, dv_block = 5", "dv_keep"), ("dv", "alpha_v = 1.5", "alpha_v"),
    ("kl", "kl_window = 2.5", "kl_window"), ("dv", 'dv_mode = "lifo"', "dv_mode"),
    ("threepsl", "threepsl_cut = 1.5", "threepsl_cut"),
    ("threepsl", 'threepsl_order = "degree"', "threepsl_order"),
    ("threepsl", "threepsl_thresholds = [5, 9, 30]", "threepsl_thresholds"),
    ("threepsl", "threepsl_thresholds = [30, 9]", "threepsl_thresholds"),
    ("threepsl", "threepsl_cs = -0.1", "threepsl_cs"),
])  # fmt: skip
def test_bad_attack_options_are_refused_when_the_spec_is_read(attack, option, name):
    with pytest.raises(ConfigError, match=f"'e'.*options: {name}"):
        parse_text(BAD_SPEC.format(attack=attack, option=option), "bad.toml")
