"""Inputs the parser fuzz tests found, kept as regular regression tests.

Each once escaped as an exception other than a PrivlabError (or hung, or was silently
accepted); each must now be rejected with an error naming the file or the option.
"""

from __future__ import annotations

import base64
import json
import re
import zlib

import pytest

from privlab.bench import load_spec
from privlab.bench.spec import parse_text
from privlab.cli.dp import parse_bins
from privlab.cli.specs import (
    parse_hierarchy_spec,
    parse_ke,
    parse_l_diversity,
    parse_sizes,
)
from privlab.cli.table import load_job
from privlab.errors import ConfigError, InputError
from privlab.graph.core import read_graph
from privlab.io.delimited import read_table
from privlab.table.hierarchy import Hierarchy
from privlab.table.hierarchy_builders import interval_hierarchy, order_hierarchy
from privlab.table.permutation import PermutationRelease


def test_a_csv_file_holding_only_a_byte_order_mark_has_an_empty_header(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes(b"\xef\xbb\xbf")  # was polars.exceptions.NoDataError
    with pytest.raises(InputError, match="empty header line"):
        read_table(path)


LONG_FIELD = b'"' + b"x" * 140_000 + b'"'  # over the csv module's field size limit


def test_an_overlong_field_in_a_hierarchy_file_names_the_line(tmp_path):
    path = tmp_path / "h.csv"
    path.write_bytes(b"a;*\n" + LONG_FIELD + b";*\n")  # was _csv.Error
    with pytest.raises(InputError, match=r"h\.csv, line 2: field larger than field limit"):
        Hierarchy.from_csv(path)


def test_an_overlong_column_name_in_a_csv_header_names_the_line(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes(LONG_FIELD + b",b\n1,2\n")  # was _csv.Error
    with pytest.raises(InputError, match=r"t\.csv, line 1: field larger than field limit"):
        read_table(path)


def test_an_edge_list_id_beyond_int64_is_a_token(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("9" * 40 + "\t0\n0\t1\n")  # was OverflowError from numpy
    read = read_graph(path)
    assert sorted(read.graph.labels.tolist()) == ["0", "1", "9" * 40]
    assert read.graph.n_edges == 2


def test_a_job_file_that_is_not_utf8_is_an_input_error(tmp_path):
    path = tmp_path / "job.toml"
    path.write_bytes(b"\x80")  # was UnicodeDecodeError
    with pytest.raises(InputError, match=r"job\.toml: not UTF-8 text"):
        load_job(path)


def test_a_bench_spec_that_is_not_utf8_is_a_config_error(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_bytes(b"\x80")  # was UnicodeDecodeError
    with pytest.raises(ConfigError, match=r"spec\.toml: not UTF-8 text"):
        load_spec(path)


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("gs = []", "gs = []: give a number"),  # was TypeError in the metric
        ("input = 5", "input = 5: give a string"),  # was TypeError joining the path
        ("qi = 5", "qi = 5: give a string or a list of strings"),  # was TypeError
        ("k = 2.5", "k = 2.5: give a whole number"),
        ("relaxed = 1", "relaxed = 1: give true or false"),
        ("delimiter = 0", "delimiter = 0: give a string"),  # was TypeError in csv
        ("hierarchy = { zip = 3 }", "hierarchy = {'zip': 3}: give a table"),
    ],
)
def test_a_job_value_of_the_wrong_type_is_a_config_error(tmp_path, line, fragment):
    path = tmp_path / "job.toml"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(fragment)):
        load_job(path)


def _release_dir(tmp_path):
    import polars as pl

    from privlab.table.permutation import release_from_groups

    frame = pl.DataFrame({"age": [30, 40, 50, 60], "salary": [1.0, 2.0, 3.0, 4.0]})
    release = release_from_groups(frame, qi=["age"], sensitive="salary", groups=[0, 0, 1, 1])
    return release.write(tmp_path / "release")


def test_a_release_json_that_is_not_utf8_is_an_input_error(tmp_path):
    d = _release_dir(tmp_path)
    (d / "release.json").write_bytes(b"\x80")  # was UnicodeDecodeError
    with pytest.raises(InputError, match=r"release\.json: not valid JSON"):
        PermutationRelease.read(d)


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (lambda m: "sensitive kind qi", "expected a JSON object"),  # was TypeError
        (lambda m: {**m, "parameters": [["a", "b", "c"]]}, "parameters must be"),  # ValueError
        (lambda m: {**m, "qi": 5}, "qi must be a list"),  # was TypeError
        (lambda m: {**m, "qi": [["age"]]}, "qi must be a list"),  # was TypeError (unhashable)
        (lambda m: {**m, "sensitive": {"a": 1}}, "sensitive must be"),
    ],
)
def test_a_release_json_of_the_wrong_shape_is_an_input_error(tmp_path, edit, fragment):
    d = _release_dir(tmp_path)
    meta = json.loads((d / "release.json").read_text(encoding="utf-8"))
    (d / "release.json").write_text(json.dumps(edit(meta)), encoding="utf-8")
    with pytest.raises(InputError, match=fragment):
        PermutationRelease.read(d)


# np.bincount over the ids: with 2**63 - 1 its length overflows, and the old code either
# accepted the release or crashed the interpreter ("corrupted size vs. prev_size", SIGSEGV)
@pytest.mark.parametrize("table", ["qi", "sa"])
@pytest.mark.parametrize("group_id", [2**40, 2**63 - 1])
def test_a_release_group_id_beyond_the_rows_is_an_input_error(tmp_path, table, group_id):
    import polars as pl

    d = _release_dir(tmp_path)
    frame = pl.read_parquet(d / f"{table}.parquet")
    ids = frame["group_id"].to_list()
    ids[0] = group_id  # 2**40: MemoryError; 2**63 - 1 in qi: accepted, or heap corruption
    frame.with_columns(pl.Series("group_id", ids)).write_parquet(d / f"{table}.parquet")
    with pytest.raises(InputError, match=f"{table}.parquet: column 'group_id' has id {group_id}"):
        PermutationRelease.read(d)


#: A corrupt Parquet file on which polars panics (pyo3's PanicException, a BaseException).
PANICKING_PARQUET = zlib.decompress(base64.b64decode(
    "eNpjYGBgEGURdRC18RFlEAVyNLbq/2VgWMvAUMCAAphDmBiYGYFqRETVdEQ5RAVAymXMGDQ4YCokOJCUQ4wJZBjEQ"
    "IZB0seDBcQSZQOGgSoTkgdEGVQZJJjhLJhECoMYh6SMpI3aGgYZUQZJU6CQJEKXKI8Yg9gBBrFzjGoMahw4w0bsC9"
    "BQsV2g0FZ7g2QOM9g2qBEMavMY1E7gDmAxBk6g2h9gQyZgdQzIpHkMYocY1BhY1ZrwmDQPpHYbyCSQeg41oMZRMLT"
    "AaSYGhgDHIEMA0TYixw=="
))  # fmt: skip


def test_a_parquet_file_polars_panics_on_is_an_input_error(tmp_path):
    path = tmp_path / "t.parquet"
    path.write_bytes(PANICKING_PARQUET)  # was pyo3_runtime.PanicException
    # refused by its first bytes (not a Parquet file), or by the Parquet reader
    with pytest.raises(InputError, match=r"t\.parquet: (cannot read Parquet file|named as)"):
        read_table(path)


def test_a_release_table_polars_panics_on_is_an_input_error(tmp_path):
    d = _release_dir(tmp_path)
    (d / "qi.parquet").write_bytes(PANICKING_PARQUET)  # was pyo3_runtime.PanicException
    with pytest.raises(InputError, match=r"qi\.parquet: cannot read Parquet file"):
        PermutationRelease.read(d)


@pytest.mark.parametrize(
    ("parse", "spec"),
    [
        (parse_l_diversity, "disease:distinct:inf"),  # was OverflowError from int()
        (parse_l_diversity, "disease:distinct:nan"),  # was ValueError from int()
        (parse_l_diversity, "disease:recursive:2:1e999"),  # was OverflowError
        (parse_ke, "salary:inf:0"),  # was OverflowError
        (lambda s: parse_sizes("--group-size", s), "4/inf"),  # was OverflowError
    ],
)
def test_a_non_finite_whole_number_in_a_spec_is_a_config_error(parse, spec):
    with pytest.raises(ConfigError, match="is not a finite number"):
        parse(spec)


@pytest.mark.parametrize("spec", ["interval:width=5,fanout=inf", "interval:width=5,levels=nan"])
def test_a_non_finite_whole_number_in_a_hierarchy_spec_is_a_config_error(spec):
    with pytest.raises(ConfigError, match="is not a finite number"):  # was OverflowError
        parse_hierarchy_spec(spec)


@pytest.mark.parametrize(
    "spec",
    [
        "age=1e308:1.7e308:1e308",  # was ValueError from np.arange (HIGH + WIDTH/2 overflows)
        "age=0:1:2",  # was accepted: a single edge, no bin at all
        "age=1e17:1.00000000000001e17:1",  # was accepted: 992 edges, all equal
    ],
)
def test_bins_without_a_usable_bin_are_a_config_error(spec):
    with pytest.raises(ConfigError, match="no bins"):
        parse_bins([spec])


def test_an_order_group_size_beyond_int64_makes_one_group():
    h = order_hierarchy(["a", "b", "c"], group_size=10**39)  # was OverflowError in numpy
    assert h.to_rows() == [["a", "a-c", "*"], ["b", "a-c", "*"], ["c", "a-c", "*"]]
    assert h.to_rows() == order_hierarchy(["a", "b", "c"], group_size=3).to_rows()


SPEC = """[spec]
name = "s"
[[experiment]]
name = "e"
data = "none"
schemes = ["safe-k:k=5"]
parameter = "epsilon"
values = [1.0]
metrics = ["delta"]
options = { beta = 0.2 }
"""


@pytest.mark.parametrize(
    "seeds",
    [
        "9" * 40,  # was OverflowError from tuple(range(...))
        "100000000",  # was a tuple of 10**8 seeds (seconds and gigabytes) before any check
        "[" + "9" * 30 + "]",  # was accepted, and would not fit the int64 results table
    ],
)
def test_a_seed_count_or_seed_beyond_the_limits_is_a_config_error(seeds):
    with pytest.raises(ConfigError, match="give a count from 1 to 10000"):
        parse_text(SPEC + f"seeds = {seeds}\n")


def test_with_seeds_beyond_the_limit_is_a_config_error():
    with pytest.raises(ConfigError, match="from 1 to 10000"):  # was OverflowError
        parse_text(SPEC).with_seeds(10**40)


@pytest.mark.parametrize("width", [1e-320, 1e-300])
def test_an_interval_width_too_small_for_the_values_is_a_config_error(width):
    with pytest.raises(ConfigError, match="is too small for values as large as 90"):
        interval_hierarchy(["17", "35", "90"], width=width)  # was OverflowError


def test_a_release_with_infinite_sensitive_values_is_an_input_error(tmp_path):
    import polars as pl

    d = _release_dir(tmp_path)
    sa = pl.read_parquet(d / "sa.parquet")
    lo, hi = sa["lo"].to_list(), sa["hi"].to_list()
    lo[0], hi[0] = float("-inf"), float("inf")  # was accepted: every SUM bound became NaN
    sa.with_columns(pl.Series("lo", lo), pl.Series("hi", hi)).write_parquet(d / "sa.parquet")
    with pytest.raises(InputError, match="column 'lo' has missing or infinite values"):
        PermutationRelease.read(d)


def test_a_job_file_with_a_5000_digit_integer_is_an_input_error(tmp_path):
    path = tmp_path / "job.toml"
    path.write_text("k = " + "9" * 5000 + "\n", encoding="utf-8")  # was ValueError (int limit)
    with pytest.raises(InputError, match=r"job\.toml: invalid TOML: Exceeds the limit"):
        load_job(path)


def test_a_bench_spec_with_a_5000_digit_integer_is_a_config_error():
    with pytest.raises(ConfigError, match="not valid TOML: Exceeds the limit"):
        parse_text(SPEC + "seeds = " + "9" * 5000 + "\n")  # was ValueError (int limit)


def test_a_release_json_with_a_5000_digit_integer_is_an_input_error(tmp_path):
    d = _release_dir(tmp_path)
    (d / "release.json").write_text('{"qi": ' + "9" * 5000 + "}")  # was ValueError (int limit)
    with pytest.raises(InputError, match=r"release\.json: not valid JSON"):
        PermutationRelease.read(d)


@pytest.mark.parametrize("spec", ["interval:width=1,start=18", "interval:width=2,start=18"])
def test_an_interval_start_inside_the_values_without_levels_is_a_config_error(spec):
    # values on both sides of start never merge: levels were added until the span overflowed
    # (OverflowError, or a NaN cast at width=2)
    built = parse_hierarchy_spec(spec)
    with pytest.raises(ConfigError, match=r"start \(18\) is above the smallest value \(17\)"):
        built.build(["17", "23", "35", "90"], column="age")


def test_an_interval_start_inside_the_values_with_levels_still_builds():
    h = interval_hierarchy(["17", "23"], width=10, start=20, levels=2)
    assert h.to_rows() == [["17", "10-19", "0-19", "*"], ["23", "20-29", "20-39", "*"]]


@pytest.mark.parametrize(
    "count",
    [
        2**63 - 1,  # overflowed the weighted bincount: a NaN cast, "-2**63 sensitive values"
        10**15,  # was accepted
    ],
)
def test_an_anatomy_count_beyond_the_rows_is_an_input_error(tmp_path, count):
    import polars as pl

    from privlab.table.permutation import anatomy

    frame = pl.DataFrame({"age": [30, 40, 50, 60], "disease": ["flu", "hiv", "flu", "hiv"]})
    d = anatomy(frame, qi=["age"], sensitive="disease", l=2, seed=1).write(tmp_path / "a")
    sa = pl.read_parquet(d / "sa.parquet")
    counts = sa["count"].to_list()
    counts[0] = count
    sa.with_columns(pl.Series("count", counts)).write_parquet(d / "sa.parquet")
    with pytest.raises(InputError, match=r"column 'count' must be from 1 to the number of rows"):
        PermutationRelease.read(d)


def test_a_job_hierarchy_spec_too_long_for_a_file_name_is_kept_as_a_spec(tmp_path):
    path = tmp_path / "job.toml"
    spec = "interval:width=5," + ",".join(["top=90"] * 60)  # 437 characters
    path.write_text(f'[hierarchy]\nage = "{spec}"\n', encoding="utf-8")
    assert load_job(path)["hierarchy"] == [f"age={spec}"]  # was OSError: File name too long


def test_an_inline_hierarchy_spec_too_long_for_a_file_name_is_parsed_as_a_spec(tmp_path):
    import polars as pl

    from privlab.cli.specs import build_hierarchies

    frame = pl.DataFrame({"age": ["17", "35"]})
    spec = "interval:width=5," + ",".join(["top=90"] * 60)
    with pytest.raises(ConfigError, match="top given twice"):  # was OSError: File name too long
        build_hierarchies("--hierarchy", [f"age={spec}"], frame, source="t.csv")


def test_a_date_format_repeating_a_directive_is_a_config_error():
    spec = parse_hierarchy_spec("date:format=%d.%m.%Y %d")
    with pytest.raises(ConfigError, match=r"format '%d\.%m\.%Y %d': not a usable strptime"):
        spec.build(["05.01.2020 05"], column="day")  # was re.error from strptime


@pytest.mark.parametrize("fanout", ["9" * 40, str(2**63), str(10**18)])
def test_an_interval_fanout_too_large_to_join_is_a_config_error(fanout):
    # 10**40 and 2**63: OverflowError in k // span; 10**18: labels past 2^53 (inexact)
    spec = parse_hierarchy_spec(f"interval:width=5,fanout={fanout}")
    with pytest.raises(ConfigError, match="is too large; level 2 would join more than 2"):
        spec.build(["17", "23", "35", "90"], column="age")


def test_a_huge_number_of_interval_levels_is_refused_at_once():
    spec = parse_hierarchy_spec("interval:width=1,levels=" + "9" * 40)
    with pytest.raises(ConfigError, match=r"levels: .* is too many"):  # was a hang: 2 ** 10**40
        spec.build(["17", "23"], column="age")
