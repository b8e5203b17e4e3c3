"""Issue 15, scopes 1 and 8: what a user can cause ends in one literal line and exit 2;
machine output is strict JSON."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest
from typer.testing import CliRunner

from privlab.cli.main import app
from privlab.io import strict_json

runner = CliRunner()

DATA = "zip;age;sex;disease\n13053;28;F;flu\n13068;29;M;flu\n13068;21;F;cold\n" \
       "13053;23;M;cancer\n14853;50;F;flu\n14853;55;M;cold\n"  # fmt: skip


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def strict_loads(text: str):
    """json.loads that refuses NaN and Infinity, as every strict parser does."""

    def refuse(constant: str):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(DATA, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- strict JSON
def test_strict_json_turns_non_finite_numbers_into_null_with_the_reason():
    payload = {"t": math.inf, "rows": [1.0, -math.inf, np.float64("nan")], "k": np.int64(3)}
    out = strict_loads(strict_json.dumps(payload))
    assert out["t"] is None and out["rows"] == [1.0, None, None] and out["k"] == 3
    assert out["nulls"] == {"t": "+inf", "rows[1]": "-inf", "rows[2]": "nan"}


def test_table_check_json_is_strict_json(data):
    # a class without some value makes δ-disclosure infinite; json.dumps printed "Infinity"
    result = run("table", "check", data, "--qi", "zip", "--sensitive", "disease", "--json")
    assert result.exit_code == 0, result.output
    out = strict_loads(result.stdout)
    assert out["sensitive"][0]["delta_disclosure"] is None
    assert out["nulls"]["sensitive[0].delta_disclosure"] == "+inf"


# ---------------------------------------------------------------------------- literal text
def test_error_text_is_printed_literally(tmp_path):
    missing = tmp_path / "a[/]b [bold]x[/bold] :smile:.csv"
    result = run("table", "check", missing, "--qi", "zip")
    assert result.exit_code == 2, result.output
    assert "a[/]b [bold]x[/bold] :smile:.csv" in result.output
    assert "Traceback" not in result.output


def test_a_spec_that_looks_like_an_emoji_code_is_printed_as_typed(data):
    result = run("dp", "release", data, "-q", "histogram:age", "--bins", "age=0:100:0", "-e", "1")
    assert result.exit_code == 2, result.output
    assert "age=0:100:0" in result.output


# ---------------------------------------------------------------------------- mapped errors
def test_a_name_too_long_for_the_file_system_is_exit_2(tmp_path):
    result = run("table", "check", tmp_path / ("x" * 300 + ".csv"), "--qi", "zip")
    assert result.exit_code == 2, result.output
    assert "File name too long" in result.output and "Traceback" not in result.output


def test_a_job_file_that_is_not_utf8_is_exit_2(tmp_path, data):
    job = tmp_path / "job.toml"
    job.write_bytes(b'input = "d.csv"\nqi = ["zip\xff"]\n')
    result = run("table", "anonymize", "--job", job)
    assert result.exit_code == 2, result.output
    assert "UTF-8" in result.output and "Traceback" not in result.output


def test_a_number_too_large_is_exit_2():
    result = run("demo", "--rows", str(10**20))
    assert result.exit_code == 2, result.output
    assert "too large" in result.output and "Traceback" not in result.output


def test_running_out_of_memory_is_exit_2():
    result = run("demo", "--rows", str(10**12))  # numpy refuses to allocate terabytes
    assert result.exit_code == 2, result.output
    assert "out of memory" in result.output and "Traceback" not in result.output


# ---------------------------------------------------------------------------- the wrapper
def _wrapped(exc: BaseException):
    import typer

    from privlab.cli.common import exits_on_bad_input

    @exits_on_bad_input
    def command() -> None:
        raise exc

    app = typer.Typer()
    app.command()(command)
    return runner.invoke(app, [])


def test_a_commands_own_exit_code_passes_through():
    import typer

    assert _wrapped(typer.Exit(3)).exit_code == 3


def test_a_bug_is_exit_70_with_a_request_to_report_it_and_no_traceback(monkeypatch):
    monkeypatch.delenv("PRIVLAB_DEBUG", raising=False)
    result = _wrapped(KeyError("secret cell value"))
    assert result.exit_code == 70
    assert "internal error (KeyError)" in result.output and "PRIVLAB_DEBUG=1" in result.output
    assert "secret cell value" not in result.output and "Traceback" not in result.output


# ---------------------------------------------------------------------------- huge ε
def test_an_epsilon_beyond_any_guarantee_is_refused_by_name():
    # decimal.Overflow in the exact δ(k, β, ε) arithmetic was a traceback
    result = run("dp", "params", "-e", "1e300", "--delta", "1e-5")
    assert result.exit_code == 2 and "ε above" in result.output, result.output


def test_gaussian_noise_at_a_large_epsilon_does_not_overflow(data):
    # math.exp(ε) overflowed for ε > 709 in the discrete Gaussian's exact δ
    result = run("dp", "release", data, "-q", "count", "-e", "1000", "--delta", "0.1", "--json")
    assert result.exit_code == 0, result.output
    assert strict_loads(result.stdout)["releases"][0]["epsilon"] == 1000


# ---------------------------------------------------------------------------- human risk
def test_table_risk_prints_a_labelled_table_without_empty_figures(data):
    result = run("table", "risk", data, "--qi", "zip", "--qi", "sex")
    assert result.exit_code == 0, result.output
    text = result.stdout
    for label in ("records analysed", "prosecutor", "highest risk", "journalist", "marketer",
                  "sample uniques"):  # fmt: skip
        assert label in text, label
    assert "None" not in text and "prosecutor_highest_risk" not in text
    assert "population uniques" not in text  # no population size: no such figure
    with_population = run("table", "risk", data, "--qi", "zip", "--population", "1000")
    assert "population uniques (Dankar)" in with_population.stdout


# ---------------------------------------------------------------------------- memory
def test_a_table_larger_than_the_memory_left_is_refused_before_reading(data, monkeypatch):
    # polars aborts the process on a failed allocation; the reader refuses such a file first
    monkeypatch.setenv("PRIVLAB_MEMORY_LIMIT", "200")  # bytes left, as a small machine would
    result = run("table", "check", data, "--qi", "zip")
    assert result.exit_code == 2, result.output
    assert f"{data}: reading it needs about" in result.output and "200 B is left" in result.output
    monkeypatch.setenv("PRIVLAB_MEMORY_LIMIT", "none")
    assert run("table", "check", data, "--qi", "zip").exit_code == 0


def test_the_memory_left_is_read_from_the_machine(monkeypatch):
    from privlab.io.memory import available_memory

    monkeypatch.delenv("PRIVLAB_MEMORY_LIMIT", raising=False)
    left = available_memory()
    assert left is None or left > 0
    if os.path.exists("/proc/meminfo"):
        assert left is not None


# ---------------------------------------------------------------------------- SIGTERM
SLOW_SPEC = """
[spec]
name = "slow"
title = "many cells"
seed = 1

[[experiment]]
name = "slow"
title = "slow"
data = "synthetic:gnm"
data_options = { n = 1500, m = 6000 }
parameter = "fraction"
values = [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1]
schemes = ["rsp"]
metrics = ["avg_path_length"]
seeds = 5
"""


def test_sigterm_stops_a_bench_run_like_ctrl_c_and_keeps_its_cells(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    (tmp_path / "slow.toml").write_text(SLOW_SPEC, encoding="utf-8")
    out = tmp_path / "results"
    proc = subprocess.Popen(
        [sys.executable, "-m", "privlab", "bench", str(tmp_path / "slow.toml"), "-o", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    journal = out / "cells.jsonl"
    deadline = time.monotonic() + 120
    while not (journal.is_file() and journal.read_text().count("\n") >= 1):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert "terminated: finished cells are kept" in err and "--resume" in err
    assert "Traceback" not in err
    assert (out / "results.csv").is_file()  # the finished cells, written as on Ctrl-C
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
