"""Issue 15, scope 10: every command of the README runs as written from the folder that
``privlab demo --write-examples DIR`` writes.

The commands are read from the README's ``bash`` blocks (continuation lines joined, trailing
comments dropped) and run in order, in-process, from a fresh examples folder; the list below
mirrors them, so that a README command that is changed, added or dropped fails here until
the test is updated too.  The Python example is run as well.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from privlab.cli.main import app

README = Path(__file__).resolve().parents[2] / "README.md"
runner = CliRunner()

#: The README's commands, in its order (what the test runs; ``cd`` moves into the folder).
COMMANDS = [
    "privlab demo --write-examples examples/ && cd examples/",
    "privlab table anonymize census.csv --qi zip,age,sex,education,marital-status "
    "--hierarchy zip=census_hierarchy_zip.csv --hierarchy age=census_hierarchy_age.csv "
    "--hierarchy sex=census_hierarchy_sex.csv "
    "--hierarchy education=census_hierarchy_education.csv "
    "--hierarchy marital-status=census_hierarchy_marital-status.csv "
    "--sensitive disease --identifying id "
    "-k 5 --suppression 2% --metric loss -o release.csv --json --save-job census.toml",
    "privlab table anonymize --job census.toml",
    "privlab table check release.csv --qi zip,age,sex,education,marital-status --sensitive disease",
    "privlab table risk census.csv --qi zip,age,sex,education,marital-status --json",
    "privlab audit release.csv --original census.csv --qi zip,age,sex,education,marital-status "
    "--sensitive disease --hierarchies . -o table-audit.html",
    "privlab table permute salaries.csv --qi age,zipcode,gender --sensitive salary "
    "--k 3 --e 1000 --partition min-sum -o release/",
    'privlab table query release/ "SELECT SUM(salary) FROM t WHERE age BETWEEN 35 AND 55" --json',
    "privlab table query release/ \"SELECT AVG(salary) FROM t WHERE gender = 'F'\" "
    "--backend python",
    "privlab dp release people.csv -q count -q histogram:sex -q mean:age:0:100 "
    "--bins sex=Female,Male --epsilon 1 --json",
    "privlab dp release census.csv -q count -q median:age:17:90 --groupby sex "
    "--key sex=Female,Male --epsilon 1 --budget-file budget.json --total-epsilon 3 "
    "-o by-sex.csv",
    "privlab dp budget show budget.json",
    "privlab dp plan count --error 5",
    "privlab dp params --epsilon 1 --delta 1e-5",
    "privlab dp safe-kanon people.csv -o dp-release.csv --qi age,sex,zip "
    "--hierarchy age=census_hierarchy_age.csv --hierarchy sex=census_hierarchy_sex.csv "
    "--hierarchy zip=census_hierarchy_zip.csv --epsilon 1 --delta 1e-5",
    "privlab graph anonymize social.txt --scheme kdegree -k 20 -o social-release.txt "
    "--mapping secret_mapping.csv",
    "privlab graph utility social.txt social-release.txt --sample 500 --json",
    "privlab graph pair social.txt --alpha-v 0.5 --alpha-e 0.5 -o pair/",
    "privlab graph attack propagate pair/ --seeds 50 --theta 0.1 -o map.csv",
    "privlab graph attack errors pair/ map.csv",
    "privlab graph attack learned pair/ --3psl --score-cut 0.8 --order cs",
    "privlab graph attack refine social.txt",
    "privlab audit social-release.txt --original social.txt --mapping secret_mapping.csv "
    "-o audit.html",
    "privlab bench --list",
    "privlab bench li-delta --reduced -o results/",
    "privlab report results/ -o report.html",
]


def readme_commands() -> list[str]:
    """The command lines of the README's ``bash`` blocks."""
    text = README.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#\s.*$", "", line)  # a trailing comment
            if line.strip():
                out.append(" ".join(line.split()))
    return out


def readme_python() -> str:
    (code,) = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    return code


def test_the_list_mirrors_the_readme():
    assert readme_commands() == [" ".join(c.split()) for c in COMMANDS]


def test_every_readme_command_runs_on_the_examples(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for command in COMMANDS:
        line = command.split(" && cd ")[0]
        argv = shlex.split(line)
        assert argv[0] == "privlab"
        result = runner.invoke(app, argv[1:])
        assert result.exit_code == 0, (command, result.output)
        if "--json" in argv:
            json.loads(result.stdout)
        if " && cd " in command:
            monkeypatch.chdir(command.split(" && cd ")[1])
    folder = tmp_path / "examples"
    for name in ("release.csv", "census.toml", "table-audit.html", "dp-release.csv",
                 "social-release.txt", "secret_mapping.csv", "audit.html", "report.html",
                 "results/results.csv", "release/release.json", "pair/pair.json"):  # fmt: skip
        assert (folder / name).is_file(), name
    namespace: dict = {}
    exec(compile(readme_python(), "README.md", "exec"), namespace)  # in the examples folder
    assert namespace["release"].to_dict()["records"] == 2000


@pytest.mark.parametrize("path", ["docs/index.md", "docs/cli.md"])
def test_the_docs_point_to_the_examples(path):
    text = (README.parent / path).read_text(encoding="utf-8")
    assert "--write-examples" in text
