"""Spec validation: every error names the file, the experiment and the key."""

from __future__ import annotations

import pytest

from privlab.bench import builtin_specs, load_spec, parse_text
from privlab.errors import ConfigError

GOOD = """
[spec]
name = "tiny"
title = "Tiny"

[[experiment]]
name = "g"
data = "synthetic:powerlaw"
data_options = { n = 120, m = 3 }
schemes = ["rad", "rsp"]
parameter = "fraction"
values = [0.0, 0.1]
metrics = ["clustering", "dd_hellinger"]
seeds = 2

[experiment.reduced]
values = [0.1]
seeds = 1
"""


def _bad(text: str, *fragments: str) -> None:
    with pytest.raises(ConfigError) as exc:
        parse_text(text, "my.toml")
    msg = str(exc.value)
    assert msg.startswith("my.toml:"), msg
    for f in fragments:
        assert f in msg, msg


def test_good_spec_parses_and_reduces():
    s = parse_text(GOOD, "my.toml")
    assert s.name == "tiny" and s.n_cells == 2 * 2 * 2
    e = s.experiments[0]
    assert e.values == {"rad": (0.0, 0.1), "rsp": (0.0, 0.1)}
    assert e.y_labels["clustering"] == "clustering coefficient"  # default label
    r = s.reduce()
    assert r.is_reduced and r.n_cells == 2 and r.experiments[0].data_options["n"] == 120
    assert r.hash() != s.hash() and s.with_seeds(3).n_cells == 12


@pytest.mark.parametrize(
    ("old", "new", "fragments"),
    [
        ('schemes = ["rad", "rsp"]', 'schemes = ["rad", "xyz"]', ["#1 ('g')", "unknown scheme"]),
        ('metrics = ["clustering", "dd_hellinger"]', 'metrics = ["nope"]', ["metrics", "'nope'"]),
        ('metrics = ["clustering", "dd_hellinger"]', 'metrics = ["loss"]', ["table data"]),
        ('data = "synthetic:powerlaw"', 'data = "enron"', ["data = 'enron'"]),
        ("values = [0.0, 0.1]", 'values = [0.0, "a"]', ["values", "'a'"]),
        ("values = [0.0, 0.1]", "values = []", ["values"]),
        ("values = [0.0, 0.1]", "values = { rad = [0.1] }", ["no values for scheme 'rsp'"]),
        ("seeds = 2", "seeds = 0", ["seeds = 0"]),
        ('parameter = "fraction"', "", ["missing key 'parameter'"]),
        ("data_options = { n = 120, m = 3 }", "data_options = { rows = 3 }", ["has no option"]),
        ('name = "g"', 'name = "g"\ncolour = 1', ["unknown key(s) 'colour'"]),
        ("seeds = 2", 'seeds = 2\ny_labels = { auc = "x" }', ["y_labels", "auc"]),
        ("seeds = 2", 'seeds = 2\nlog_y = "yes"', ["log_y = 'yes'", "true or false"]),
    ],
)
def test_errors_name_file_experiment_and_key(old, new, fragments):
    assert old in GOOD
    _bad(GOOD.replace(old, new, 1), "[[experiment]] #1", *fragments)


def test_spec_level_errors():
    _bad("[[experiment]]\nname='x'", "[spec]")
    _bad('[spec]\nname = "x"\n', "give at least one [[experiment]]")
    _bad(GOOD + GOOD.split("[spec]", 1)[1].split("\n", 3)[3], "used twice")  # same name twice
    _bad("[spec\n", "not valid TOML")
    _bad(GOOD.replace('schemes = ["rad", "rsp"]', 'schemes = ["k-anonymity"]'), "table data")


def test_kda_values_must_be_integers():
    text = GOOD.replace('["rad", "rsp"]', '["kda"]').replace("[0.0, 0.1]", "[2.5]")
    _bad(text, "must be an integer")


def test_attack_scheme_compatibility():
    text = GOOD.replace('metrics = ["clustering", "dd_hellinger"]', 'attacks = ["h1"]')
    _bad(text, "'h1' applies only to schemes", "'rsp'")


def test_load_spec_by_name_and_path(tmp_path):
    assert {"hay-fig9", "hay-fig8", "li-delta", "adult-tradeoff", "sharad-table4"} <= set(
        builtin_specs()
    )
    assert load_spec("li-delta").name == "li-delta"
    p = tmp_path / "t.toml"
    p.write_text(GOOD, encoding="utf-8")
    assert load_spec(p).name == "tiny"
    with pytest.raises(ConfigError, match="neither a spec file nor a built-in"):
        load_spec("no-such-spec")
    with pytest.raises(ConfigError, match="no such spec file"):
        load_spec(tmp_path / "missing.toml")


def test_every_builtin_spec_reduces_to_a_small_grid():
    for name in builtin_specs():
        full, small = load_spec(name), load_spec(name).reduce()
        assert small.n_cells <= full.n_cells and small.n_cells <= 40, name
