"""The output guard: what a run may write, checked before any work is done.

Every command declares its inputs and its outputs and calls :func:`check_outputs` first.
The rules (issue 15, "never destroy"):

* an output is never an input (the same file, through any link or hard link), never another
  output of the same run, and never inside an input that is a unit folder (a pair folder, a
  permutation release, a benchmark results folder);
* a file output is never a folder; ``-`` means standard output, and only where the format
  can go there (text formats, when the summary does not go there too);
* a folder output that exists and is not empty is replaced only when the user asked for it
  (``--overwrite`` / ``--force``) *and* it is a previous privlab output of the same kind —
  it holds that kind's manifest file — *and* it contains no input of the run.

Writing itself goes through :mod:`privlab.io.atomic`.  Every check is O(number of paths).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from privlab.errors import ConfigError, InputError

STDOUT = "-"


def is_stdout(path: str | os.PathLike[str] | None) -> bool:
    """Is ``path`` the conventional ``-`` for standard output?"""
    return path is not None and os.fspath(path) == STDOUT


def stdout_binary():
    """Standard output as a binary stream (text written before is flushed first)."""
    sys.stdout.flush()
    return sys.stdout.buffer


@dataclass(frozen=True)
class Manifest:
    """How to recognise a folder written by privlab: a file in it, with a marker in it.

    ``key``/``value``: the JSON file must hold ``{key: value}`` (None: the file's presence
    is enough).  ``label`` names the kind in messages.
    """

    label: str
    file: str
    key: str | None = None
    value: str | None = None

    def matches(self, folder: Path) -> bool:
        path = folder / self.file
        if not path.is_file():
            return False
        if self.key is None:
            return True
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return False
        return isinstance(meta, dict) and meta.get(self.key) == self.value


@dataclass(frozen=True)
class Input:
    """A path the run reads.  ``unit``: a folder whose files belong together (nothing of
    the run may be written inside it)."""

    path: Path
    unit: bool = False


@dataclass(frozen=True)
class Output:
    """A path the run writes: a file (``folder`` False) or a folder with its manifest."""

    path: Path | None  #: None: the option was not given
    option: str = "-o"
    folder: bool = False
    stdout_ok: bool = False
    manifest: Manifest | None = None
    replace: bool = False  #: the user allowed an earlier output of this kind to be replaced
    replace_flag: str = "--overwrite"  #: the option that allows it, named in messages


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _same(a: Path, b: Path) -> bool:
    """Same file or folder: equal real paths, or the same inode (hard links)."""
    if _real(a) == _real(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _inside(path: Path, folder: Path) -> bool:
    """Is ``path`` strictly inside ``folder`` (real paths)?"""
    p, f = _real(path), _real(folder)
    return p != f and f in p.parents


def inputs_of(*paths: str | os.PathLike[str] | None, unit: bool = False) -> list[Input]:
    """Inputs from paths, skipping None and ``-``."""
    return [Input(Path(p), unit) for p in paths if p is not None and not is_stdout(p)]


def check_outputs(outputs: Sequence[Output], inputs: Sequence[Input]) -> None:
    """Refuse, with a ConfigError naming the option and the fix, any output that could
    destroy an input, another output, or a folder privlab did not write (rules above)."""
    live = [o for o in outputs if o.path is not None]
    for i, out in enumerate(live):
        where = f"{out.option} {out.path}"
        if is_stdout(out.path):
            if not out.stdout_ok:
                raise ConfigError(
                    f"{out.option} -: this output cannot go to standard output; give a "
                    + ("folder" if out.folder else "file")
                    + " name"
                )
            if any(is_stdout(o.path) for o in live[:i]):
                raise ConfigError(
                    f"{out.option} -: standard output is already used by another output"
                )
            continue
        for other in live[:i]:
            if not is_stdout(other.path) and _same(out.path, other.path):
                raise ConfigError(
                    f"{where}: the same path as {other.option} {other.path}; give each output "
                    "its own name"
                )
            if not is_stdout(other.path) and (
                _inside(out.path, other.path) or _inside(other.path, out.path)
            ):
                raise ConfigError(
                    f"{where}: lies inside {other.option} {other.path} (or holds it); give "
                    "outputs that do not overlap"
                )
        for inp in inputs:
            _check_against_input(out, inp, where)
        if out.folder:
            _check_folder(out, inputs, where)
        elif out.path.is_dir():
            raise ConfigError(f"{where}: is a folder; give a file name, e.g. {out.path / 'output'}")


def _check_against_input(out: Output, inp: Input, where: str) -> None:
    if not inp.path.exists():
        return
    if _same(out.path, inp.path):
        raise ConfigError(
            f"{where}: this is the input {inp.path}; writing it would destroy the input — "
            "choose another output"
        )
    if inp.path.is_dir() and inp.unit and _inside(out.path, inp.path):
        raise ConfigError(
            f"{where}: lies inside the input folder {inp.path}, whose files belong together; "
            "write the output elsewhere"
        )


def _check_folder(out: Output, inputs: Sequence[Input], where: str) -> None:
    path = out.path
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{where}: exists and is not a folder; give a folder name")
    if not path.is_dir():
        return
    held = [i.path for i in inputs if i.path.exists() and _inside(i.path, path)]
    if held:
        raise ConfigError(
            f"{where}: the folder holds the input {held[0]}; write the output to another folder"
        )
    try:
        empty = not any(path.iterdir())
    except OSError as exc:
        raise InputError(f"{where}: cannot be read ({exc.strerror})") from None
    if empty:
        return
    label = out.manifest.label if out.manifest else "output"
    if out.manifest is None or not out.manifest.matches(path):
        raise ConfigError(
            f"{where}: the folder is not empty and is not a {label} written by privlab "
            f"(no {out.manifest.file if out.manifest else 'manifest'}); privlab only replaces "
            "its own output folders — choose a new or empty folder"
        )
    if not out.replace:
        raise ConfigError(
            f"{where}: holds a previous {label}; pass {out.replace_flag} to replace it, or "
            "choose another folder"
        )


__all__ = [
    "STDOUT",
    "Input",
    "Manifest",
    "Output",
    "check_outputs",
    "inputs_of",
    "is_stdout",
    "stdout_binary",
]
