"""Fuzzing the TOML readers: ``privlab table`` job files and ``privlab bench`` specs.

Three kinds of input per reader: well-formed documents (which must load), their bytes
mutated (broken TOML, bad encodings), and well-formed TOML with a value of a random type in
a random place (a number where a list belongs, a huge seed count, a table for a string).
"""

from __future__ import annotations

import tempfile
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from privlab.bench import load_spec
from privlab.bench.spec import Spec
from privlab.cli.table import JOB_KEYS, load_job
from tests.fuzz.fuzzing import (
    NAME,
    TOML_VALUES,
    fuzzes,
    mutated,
    raw_bytes,
    rejects_cleanly,
    run_cli,
    toml_document,
)

_TMP = Path(tempfile.mkdtemp(prefix="privlab-fuzz-jobs-"))
(_TMP / "data.csv").write_text(
    "zip;age;disease\n13053;28;flu\n13068;29;hiv\n13068;21;flu\n13053;23;cold\n14853;50;hiv\n"
    "14853;55;flu\n",
    encoding="utf-8",
)
(_TMP / "zip.csv").write_text(
    "13053;1305*;130**;*\n13068;1306*;130**;*\n14853;1485*;148**;*\n", encoding="utf-8"
)


def _file(name: str, data: bytes) -> Path:
    path = _TMP / name
    path.write_bytes(data)
    return path


# ---------------------------------------------------------------------------- job files

#: A job the CLI runs: every key with a value of the type it takes.
JOB: dict[str, Any] = {
    "input": "data.csv", "output": "out.csv", "qi": ["zip", "age"], "sensitive": ["disease"],
    "k": 2, "l_diversity": ["disease:distinct:2"], "suppression": "10%", "metric": "loss",
    "gs": 0.5, "algorithm": "optimal", "missing": "error", "na": ["?"], "delimiter": ";",
    "hierarchy": {"zip": "zip.csv", "age": "interval:width=10,fanout=2"},
}  # fmt: skip
JOB_TEXT = toml_document(JOB).encode("utf-8")

_LIST_KEYS = ("qi", "sensitive", "identifying", "l_diversity", "t_closeness",
              "delta_disclosure", "ke", "numeric", "na")  # fmt: skip


@st.composite
def jobs(draw: st.DrawFn) -> dict[str, Any]:
    """Well-formed jobs: a subset of :data:`JOB`, lists sometimes given as one string."""
    keys = draw(st.lists(st.sampled_from(sorted(JOB)), unique=True))
    job = {k: JOB[k] for k in keys}
    for k in _LIST_KEYS:
        if k in job and len(job[k]) == 1 and draw(st.booleans()):
            job[k] = job[k][0]
    return job


@fuzzes("job_valid", jobs())
def test_well_formed_jobs_load(job):
    loaded = load_job(_file("job.toml", toml_document(job).encode("utf-8")))
    assert set(loaded) == set(job)
    for key in ("input", "output"):
        if key in job:
            assert loaded[key] == str(_TMP / job[key])
    for key in _LIST_KEYS:
        if key in job:
            assert loaded[key] == (job[key] if isinstance(job[key], list) else [job[key]])


@fuzzes("job_mutated", mutated(JOB_TEXT, separators=b' =,[]"') | raw_bytes())
def test_mutated_jobs_fail_cleanly(data):
    rejects_cleanly(load_job, _file("job.toml", data))


@fuzzes("job_values", st.sampled_from(sorted(JOB_KEYS)) | NAME, TOML_VALUES)
def test_jobs_with_values_of_any_type_fail_cleanly(key, value):
    job = {**JOB, key: value}
    loaded = rejects_cleanly(load_job, _file("job.toml", toml_document(job).encode("utf-8")))
    if isinstance(loaded, dict):  # accepted: every value has the type its option takes
        for k in _LIST_KEYS:
            assert isinstance(loaded.get(k, []), list)
            assert all(isinstance(v, str) for v in loaded.get(k, []))


# ---------------------------------------------------------------------------- bench specs

_SPECS = {f.name: f.read_bytes() for f in resources.files("privlab.bench").joinpath(
    "specs").iterdir() if f.name.endswith(".toml")}  # fmt: skip


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every key path in a parsed spec (list indexes included)."""
    out = [prefix] if prefix else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


@st.composite
def spec_with_a_bad_value(draw: st.DrawFn) -> bytes:
    """A built-in spec with one value, anywhere, replaced by a random TOML value."""
    doc = tomllib.loads(_SPECS[draw(st.sampled_from(sorted(_SPECS)))].decode("utf-8"))
    path = draw(st.sampled_from(_paths(doc)))
    node = doc
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = draw(TOML_VALUES)
    return toml_document(doc).encode("utf-8")


def test_the_built_in_specs_load_from_files():
    for name, text in _SPECS.items():
        assert isinstance(load_spec(_file(name, text)), Spec)


@fuzzes("bench_spec_mutated", st.sampled_from(sorted(_SPECS)).flatmap(
    lambda n: mutated(_SPECS[n], separators=b" =,[]\"")) | raw_bytes())  # fmt: skip
def test_mutated_bench_specs_fail_cleanly(data):
    spec = rejects_cleanly(load_spec, _file("spec.toml", data))
    if isinstance(spec, Spec):
        rejects_cleanly(spec.reduce)


@fuzzes("bench_spec_values", spec_with_a_bad_value())
def test_bench_specs_with_values_of_any_type_fail_cleanly(data):
    spec = rejects_cleanly(load_spec, _file("spec.toml", data))
    if isinstance(spec, Spec):
        rejects_cleanly(spec.reduce)


# ---------------------------------------------------------------------------- the CLI


@fuzzes("cli_job", mutated(JOB_TEXT, separators=b" =,[]\"")
        | st.tuples(st.sampled_from(sorted(JOB_KEYS)), TOML_VALUES).map(
            lambda kv: toml_document({**JOB, kv[0]: kv[1]}).encode("utf-8")))  # fmt: skip
def test_cli_anonymize_with_fuzzed_job(data):
    run_cli(["table", "anonymize", "--job", _file("cli-job.toml", data), "--json"])


@fuzzes("cli_bench", spec_with_a_bad_value() | st.sampled_from(sorted(_SPECS)).flatmap(
    lambda n: mutated(_SPECS[n], separators=b" =,[]\"")))  # fmt: skip
def test_cli_bench_with_fuzzed_spec(data):
    # --seeds 0 is refused after the spec loaded: the command never runs an experiment
    result = run_cli(["bench", _file("cli-spec.toml", data), "-o", _TMP / "runs", "--seeds", "0"])
    assert result.exit_code == 2
