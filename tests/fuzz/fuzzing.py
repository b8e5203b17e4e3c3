"""Shared machinery of the parser fuzz tests: example budgets, input mutators, contract checks.

Every fuzz test runs a fixed number of examples, set in :data:`EXAMPLES` (grouped by parser):
large enough to find the bugs these tests were written against, small enough that the whole
``tests/fuzz`` folder runs in well under a minute (``PRIVLAB_FUZZ_SCALE=N`` runs N times as
many).  :func:`fuzzes` applies the budget and checks afterwards that the test body really ran
that many times (hypothesis stops early on a search space it has exhausted, which would
silently shrink the fuzzing).

The contract under test: a parser either returns, or raises a
:class:`~privlab.errors.PrivlabError` with a message; any other exception, a numpy
RuntimeWarning (a NaN or an overflow computed from accepted input), or a parse taking longer
than :data:`HANG_SECONDS`, is a bug.  Through the CLI: exit code 0 or 2, no traceback.
"""

from __future__ import annotations

import errno
import functools
import json
import math
import os
import re
import signal
import warnings
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from privlab.errors import PrivlabError

#: Examples per fuzz test (the name it passes to :func:`fuzzes` → max_examples); each test
#: asserts that it ran exactly that many.
EXAMPLES: dict[str, int] = {
    # CSV tables (io.delimited.read_table) and header-less rows (read_rows)
    "read_table_valid": 100,
    "read_table_mutated": 150,
    "read_table_bytes": 150,
    "read_table_parquet": 100,
    "read_rows_mutated": 150,
    # hierarchies: ARX files and inline specs
    "hierarchy_valid": 100,
    "hierarchy_mutated": 200,
    "hierarchy_bytes": 150,
    "hierarchy_spec": 400,
    # graphs: SNAP edge lists, GraphML, GML
    "edges_valid": 100,
    "edges_mutated": 200,
    "edges_bytes": 150,
    "graphml_mutated": 150,
    "gml_mutated": 150,
    # TOML job files and benchmark specs
    "job_valid": 100,
    "job_mutated": 200,
    "job_values": 200,
    "bench_spec_mutated": 200,
    "bench_spec_values": 150,
    # permutation releases and the SQL query parser
    "release_valid": 40,
    "release_json": 150,
    "release_parquet": 150,
    "sql": 400,
    # the CLI's small spec parsers
    "fraction": 250,
    "l_diversity": 250,
    "t_closeness": 250,
    "ke": 250,
    "metric": 250,
    "dp_query": 250,
    "dp_bins": 250,
    # the same inputs through the command line (each example runs one privlab command)
    "cli_table_check": 20,
    "cli_dp_release": 20,
    "cli_hierarchy_file": 20,
    "cli_hierarchy_spec": 20,
    "cli_graph_utility": 20,
    "cli_job": 20,
    "cli_bench": 20,
    "cli_query": 20,
    "cli_model_specs": 25,
    "cli_dp_specs": 25,
}

#: ``PRIVLAB_FUZZ_SCALE=N`` multiplies every budget by N, for a deeper run by hand.
SCALE = int(os.environ.get("PRIVLAB_FUZZ_SCALE", "1"))

#: A single parse taking this long is reported as a hang (generous: a shared 2-core machine).
HANG_SECONDS = 20

RAN: Counter[str] = Counter()


class Hang(Exception):
    """A parser ran longer than :data:`HANG_SECONDS` on one input."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang(f"one input took more than {HANG_SECONDS} s")


def fuzzes(name: str, *strategies: st.SearchStrategy) -> Callable[[Callable[..., None]], Callable]:
    """``@given(*strategies)`` with ``EXAMPLES[name]`` examples; the test then checks the count.

    No example database (a fixed budget of fresh examples every run; found bugs become
    regular regression tests) and no deadline, but a hang alarm per example.
    """
    budget = EXAMPLES[name] * SCALE

    def decorate(body: Callable[..., None]) -> Callable[[], None]:
        @settings(
            max_examples=budget,
            database=None,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(st.tuples(*strategies))
        def run(args: tuple[Any, ...]) -> None:
            RAN[name] += 1
            previous = signal.signal(signal.SIGALRM, _alarm)
            signal.alarm(HANG_SECONDS)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("error", RuntimeWarning)  # NaN or overflow from numpy
                    body(*args)
            finally:
                signal.alarm(0)
                signal.signal(signal.SIGALRM, previous)

        @functools.wraps(body)
        def test() -> None:
            RAN[name] = 0
            run()
            assert RAN[name] == budget, f"{name}: ran {RAN[name]} examples, expected {budget}"

        del test.__wrapped__  # pytest must not see the body's parameters as fixtures
        return test

    return decorate


def rejects_cleanly(parse: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``parse(*args, **kwargs)``, or the PrivlabError it raised (which must have a message).

    Any other exception propagates and fails the test.
    """
    try:
        return parse(*args, **kwargs)
    except PrivlabError as exc:
        assert str(exc).strip(), f"{type(exc).__name__} without a message"
        return exc


# ---------------------------------------------------------------------------- mutations

#: Fragments a mutation may insert: encodings, line ends, quotes, delimiters, odd numbers.
TOKENS: tuple[bytes, ...] = (
    b"\xef\xbb\xbf", b"\x00", b"\r\n", b"\r", b"\n", b'"', b"'", b",", b";", b"\t", b"|",
    b" ", b"#", b"%", b"=", b":", b"[", b"]", b"{", b"}", b"<", b">", b"\\", b"*",
    b"\xff", b"\xfe", b"\xc3", b"\xed\xa0\x80", b"\xe2\x80\xa8", b"\xc2\x85",
    b"1e999", b"-1e999", b"1e-320", b"nan", b"NaN", b"inf", b"-inf", b"-0", b"0x1F",
    b"9" * 40, b"-" + b"9" * 25, b"1_000", b"true", b"null", b"",
)  # fmt: skip

#: Replacements for a number in the input: out of range, not finite, negative, fractional.
NUMBERS: tuple[bytes, ...] = (
    b"9" * 40, b"-" + b"9" * 25, b"9223372036854775808", b"18446744073709551616", b"1e999",
    b"-1e999", b"1e308", b"1e-320", b"nan", b"inf", b"-inf", b"-1", b"0", b"-0", b"0.5",
    b"1.0", b"2.5e3", b"1e3", b"0x10", b"1_000", b"\xd9\xa3",
)  # fmt: skip

_OPS = ("insert", "delete", "duplicate", "replace", "truncate", "dup_line", "drop_line",
        "dup_field", "drop_field", "swap_lines", "prefix", "number", "number", "huge")  # fmt: skip
#: A field longer than anything a parser expects (the csv module's limit is 131072).
HUGE_FIELDS = (b'"' + b"x" * 140_000 + b'"', b"9" * 140_000)
_NUMBER_RE = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?")


@st.composite
def mutated(draw: st.DrawFn, base: bytes, separators: bytes = b",;\t| ") -> bytes:
    """``base`` after one to four random edits: byte-level (insert a token, random bytes or
    a huge field, delete, duplicate, replace, truncate), a number replaced by an odd one
    (huge, NaN, negative...), and line-level (repeat, drop or swap lines, repeat or drop a
    field, which breaks field counts and duplicates column names)."""
    data = bytes(base)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(_OPS))
        n = len(data)
        at = draw(st.integers(0, n))
        if op == "insert":
            piece = draw(st.sampled_from(TOKENS) | st.binary(min_size=1, max_size=8))
            data = data[:at] + piece + data[at:]
        elif op == "delete" and n:
            data = data[:at] + data[at + draw(st.integers(1, 16)) :]
        elif op == "duplicate" and n:
            end = min(n, at + draw(st.integers(1, 64)))
            data = data[:end] + data[at:end] + data[end:]
        elif op == "replace" and at < n:
            data = data[:at] + draw(st.sampled_from(TOKENS)) + data[at + 1 :]
        elif op == "truncate":
            data = data[:at]
        elif op == "prefix":
            data = draw(st.sampled_from(TOKENS)) + data
        elif op == "huge":
            data = data[:at] + draw(st.sampled_from(HUGE_FIELDS)) + data[at:]
        elif op == "number":
            spans = [m.span() for m in _NUMBER_RE.finditer(data)]
            if spans:
                a, b = draw(st.sampled_from(spans))
                data = data[:a] + draw(st.sampled_from(NUMBERS)) + data[b:]
        else:
            lines = data.split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if op == "dup_line":
                lines.insert(i, lines[i])
            elif op == "drop_line" and len(lines) > 1:
                del lines[i]
            elif op == "swap_lines":
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            elif op in ("dup_field", "drop_field"):
                sep = bytes([draw(st.sampled_from(separators))])
                fields = lines[i].split(sep)
                f = draw(st.integers(0, len(fields) - 1))
                if op == "dup_field":
                    fields.insert(f, fields[f])
                elif len(fields) > 1:
                    del fields[f]
                lines[i] = sep.join(fields)
            data = b"\n".join(lines)
    return data


#: A number as text: half the time a small valid one, else an odd one (non-finite, huge,
#: fractional where a whole number belongs, empty, not a number).
NUMBER_TEXT = st.one_of(
    st.integers(-2, 20).map(str),
    st.sampled_from(["inf", "-inf", "nan", "NaN", "1e999", "-1e999", "9" * 40, "1e-320", "2.5",
                     "0.5", "-1", "0", "", " ", "a", "1e", "0x10", "1_000", "\u0663", "2%"]),
)  # fmt: skip


def mutated_text(texts: st.SearchStrategy[str], separators: bytes) -> st.SearchStrategy[str]:
    """Texts from ``texts`` mutated as UTF-8 bytes (:func:`mutated`, ``separators`` for the
    field edits), decoded back with invalid bytes replaced and NULs removed (no command line
    can carry a NUL)."""
    return (
        texts.map(str.encode)
        .flatmap(lambda b: mutated(b, separators=separators))
        .map(lambda b: b.decode("utf-8", "replace").replace("\x00", ""))
    )


def raw_bytes(max_size: int = 400) -> st.SearchStrategy[bytes]:
    """Random bytes, sometimes with a UTF-8 byte-order mark in front."""
    body = st.binary(max_size=max_size)
    return body | body.map(lambda b: b"\xef\xbb\xbf" + b)


#: Text for names and cells: printable, with accents, quotes and delimiters, no surrogates.
TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12
)
NAME = st.text(
    st.characters(whitelist_categories=("L", "N"), max_codepoint=0x2FF) | st.sampled_from("_- ."),
    min_size=1,
    max_size=8,
).filter(lambda s: s.strip() == s and s != "")


# ---------------------------------------------------------------------------- the CLI

_runner = CliRunner()


def left_to_the_general_mapping(exc: BaseException | None) -> bool:
    """Whether ``exc`` is for the CLI's general mapping of OSError & co. to exit 2 (issue 15,
    ``cli.common.exits_on_bad_input``, done outside the parsers) rather than a parser bug:
    an option value too long to be a file name (ENAMETOOLONG from any path check)."""
    return isinstance(exc, OSError) and exc.errno == errno.ENAMETOOLONG


def run_cli(args: list[Any]) -> Any:
    """Invoke ``privlab ARGS`` in-process; the result must be a success or a clean exit 2."""
    from privlab.cli.main import app

    result = _runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output, result.output
    if left_to_the_general_mapping(result.exception):
        return result
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # shows the uncaught exception with its own traceback
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    if result.exit_code == 2:
        assert "error" in result.output.lower(), result.output
    return result


# ---------------------------------------------------------------------------- TOML


def toml_value(value: Any) -> str:
    """``value`` (str, bool, int, float, list or dict) as a TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_document(doc: dict[str, Any], path: tuple[str, ...] = ()) -> str:
    """A TOML document: top-level keys, then ``[table]``s and ``[[array]]``s of tables."""
    lines, tables = [], []
    for key, value in doc.items():
        name = ".".join(json.dumps(k) for k in (*path, key))
        if isinstance(value, dict):
            tables.append(f"[{name}]\n" + toml_document(value, (*path, key)))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            tables.extend(f"[[{name}]]\n" + toml_document(v, (*path, key)) for v in value)
        else:
            lines.append(f"{json.dumps(key)} = {toml_value(value)}")
    return "\n".join(lines + tables) + "\n"


def containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Lists and string-keyed tables of ``inner`` (the recursion of TOML and JSON values)."""
    return st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=3)


#: Any TOML value: scalars of every type (huge, non-finite, empty), arrays and tables.
TOML_VALUES = st.recursive(
    st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.sampled_from([0, -1, 10**18])
    | st.floats() | TEXT | st.sampled_from(["", "*", "1", "a", "nan", "interval:width=5"]),
    containers, max_leaves=6,
)  # fmt: skip
