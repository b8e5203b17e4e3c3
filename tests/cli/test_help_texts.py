"""Issue 15, scope 10: help texts speak to users — every option says its default, and no
help cites internal documents ("seed 001 §2.1", "Fig. 7 left")."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from privlab.cli.main import app, load_command
from tests.cli.test_fast_start import COMMAND_PATHS, children

runner = CliRunner()

#: Options whose absence simply means "not used" (an optional input, output, model or
#: alternative), so there is no default value to state.  Every other option that has no
#: default value must say in its help what happens without it.
NOT_USED_UNLESS_GIVEN = {
    "table anonymize": {"-k", "--l-diversity", "--t-closeness", "--delta-disclosure", "--ke",
                        "--sensitive-hierarchy", "--job", "--save-job", "--qi", "--sensitive",
                        "--identifying", "--insensitive", "--columns"},
    "table check": {"-k", "--l-diversity", "--t-closeness", "--qi", "--sensitive", "--columns"},
    "table risk": {"--population-table", "--qi", "--columns"},
    "table hierarchy": {"--columns"},
    "table permute": {"--qi", "--identifying", "--insensitive", "--k", "--e", "--target",
                      "--columns"},
    "table query": {"--dsn"},
    "dp release": {"--columns"},
    "dp above-threshold": {"--columns"},
    "dp quantile": {"--columns"},
    "dp mode": {"--columns"},
    "dp kmeans": {"--columns"},
    "dp params": {"--delta", "--beta", "--k"},
    "dp safe-kanon": {"--delta", "--beta", "--k", "--identifying", "--insensitive",
                      "--columns"},
    "graph attack propagate": {"--seeds", "--seeds-file", "--discover"},
    "graph attack kl": {"--seeds", "--seeds-file", "--discover"},
    "graph attack dv": {"--seeds", "--seeds-file", "--discover"},
    "graph attack yg": {"--seeds", "--seeds-file", "--discover"},
    "graph attack jls": {"--seeds", "--seeds-file", "--discover", "--aux-centrality",
                         "--san-centrality"},
    "graph attack jlsb": {"--seeds", "--seeds-file", "--discover"},
    "graph attack sh": {"--seeds", "--seeds-file", "--discover"},
    "graph attack nka": {"--seeds", "--seeds-file", "--discover", "--seed-cliques",
                         "--aux-communities", "--san-communities"},
    "audit": {"--qi", "--sensitive", "--hierarchy", "--columns"},
    "demo": {"--output", "--write-examples"},
}  # fmt: skip

SAYS_DEFAULT = re.compile(r"default|without it|required", re.IGNORECASE)
INTERNAL = re.compile(
    r"§|seed 0\d\d|seed's|the seed:|\bFig\. ?\d|\bTable \d|\bThm\b|\bTheorem\b", re.IGNORECASE
)


def command(path: str):
    first, *rest = path.split()
    cmd = load_command(first)
    for name in rest:
        cmd = children(cmd)[name]
    return cmd


def _options(path: str):
    cmd = command(path)
    ctx = cmd.make_context(f"privlab {path}", [], resilient_parsing=True)
    for param in cmd.params:
        if param.param_type_name != "option" or param.hidden:
            continue
        record = param.get_help_record(ctx)
        yield param, record[0], record[1] if record else ""


@pytest.mark.parametrize("path", COMMAND_PATHS)
def test_every_option_states_its_default(path):
    """An option with a value shows it ([default: ...]); one without says what happens
    when it is left out — unless leaving it out simply means "not used"."""
    allowed = NOT_USED_UNLESS_GIVEN.get(path, set())
    missing = []
    for param, _, text in _options(path):
        if param.is_flag or param.required or set(param.opts) & allowed:
            continue
        without_value = param.default in (None, [], ())
        if not (SAYS_DEFAULT.search(text) if without_value else "[default:" in text):
            missing.append(f"{'/'.join(param.opts)}: {text!r}")
    assert not missing, f"privlab {path}: options that do not state their default: {missing}"


@pytest.mark.parametrize(
    ("path", "option", "default"),
    [
        ("table anonymize", "--metric", "loss"),
        ("table anonymize", "--algorithm", "optimal"),
        ("table anonymize", "--suppression", "0"),
        ("table anonymize", "--gs", "0.5"),
        ("table permute", "--partition", "min-sum"),
        ("graph anonymize", "--method", "simultaneous-swap"),
        ("graph anonymize", "--hrg-share", "0.5"),
        ("graph anonymize", "--small-subtrees", "keep"),
        ("graph attack propagate", "--theta", "0.1"),
        ("graph attack learned", "--method", "forest"),
        ("graph attack learned", "--thresholds", "30,9,5"),
        ("audit", "--seeds", "50"),
        ("demo", "--rows", "5000"),
    ],
)
def test_effective_defaults_are_in_the_help(path, option, default):
    text = next(t for p, _, t in _options(path) if option in p.opts)
    assert re.search(rf"default:? {re.escape(default)}\b", text), text


@pytest.mark.parametrize("path", ["", "table", "dp", "graph", "graph attack", *COMMAND_PATHS])
def test_help_cites_no_internal_document(path):
    result = runner.invoke(app, [*path.split(), "--help"])
    assert result.exit_code == 0, result.output
    found = INTERNAL.findall(result.stdout)
    assert not found, f"privlab {path} --help cites {found}"


#: The commands that show progress (a bar or a spinner) or notes take --quiet (and -q,
#: except dp release, whose -q is --query).
WITH_PROGRESS = [
    "table anonymize", "table check", "table risk", "table permute", "table query",
    "dp release", "dp safe-kanon", "graph anonymize", "graph pair", "graph utility",
    "graph attack refine", "graph attack h1-risk", "graph attack subgraph",
    "graph attack active", "graph attack propagate", "graph attack learned", "audit",
    "report", "bench", "demo", "graph attack obfuscation", "graph attack links",
    "graph attack group", "graph attack passive", "graph attack kl", "graph attack dv",
    "graph attack yg", "graph attack errors",
    "graph attack pfg",
    "graph attack cut",
    "graph attack jls", "graph attack jlsb",
    "graph attack sh",
    "graph attack nka",
    "dp above-threshold", "dp quantile", "dp mode", "dp kmeans",
    "dp node-degrees",
]  # fmt: skip


@pytest.mark.parametrize("path", WITH_PROGRESS)
def test_commands_with_progress_take_quiet(path):
    opts = {o: p for p, _, _ in _options(path) for o in p.opts}
    assert "--quiet" in opts, path
    if path in ("dp release", "dp above-threshold"):
        assert opts["-q"].name == "query"
    else:
        assert opts["-q"] is opts["--quiet"]


def test_no_command_offers_shell_completion_options():
    for path in COMMAND_PATHS:
        names = {o for p, _, _ in _options(path) for o in p.opts}
        assert "--install-completion" not in names, path
