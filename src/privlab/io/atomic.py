"""Output that cannot destroy: temporary file (or folder) next to the target, then rename.

A reader never sees a half-written file, and a failed or interrupted run leaves no output
and no temporary file behind.  What the target already is decides how it is written:

* nothing, or a regular file — written to a temporary sibling and renamed onto it;
* a symbolic link — written through to the file it points to (atomically, as above), so the
  link stays a link;
* a device, a FIFO or another special file — written *into*, never replaced (``-o
  /dev/null`` must not turn the device into a regular file);
* a folder, where a file is expected — refused with an :class:`~privlab.errors.InputError`.

Temporary names are ``.NAME.privlab-PID-XXXX.tmp``; those whose process is gone (killed by
SIGKILL, a power cut) are swept from the folder by the next write there.  The result gets
the permissions a plain ``open`` / ``mkdir`` would give (``0o666`` / ``0o777`` less the
umask), not the owner-only ones :mod:`tempfile` creates: releases and reports are meant to
be shared.  :func:`atomic_paths` commits several files together or not at all.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from privlab.errors import InputError

#: The marker of privlab's temporary files and folders (with the writer's process id).
_TMP = re.compile(r"^\..+\.privlab-(\d+)-[^.]+\.tmp(\.old)?$")


def _umask() -> int:
    """The process umask (reading it means setting it; it is restored at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def sweep_stale(folder: str | os.PathLike[str]) -> list[Path]:
    """Remove privlab temporary files and folders in ``folder`` whose writer has died.

    Only names of the form ``.NAME.privlab-PID-XXXX.tmp`` whose process ``PID`` no longer
    exists are removed, so a concurrent writer's temporary file is never touched.  Returns
    what was removed.  O(entries of the folder).
    """
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = _TMP.match(entry.name)
        if match is None or _alive(int(match.group(1))):
            continue
        path = Path(entry.path)
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(path)
            else:
                path.unlink()
            removed.append(path)
    return removed


def resolve_target(target: str | os.PathLike[str]) -> Path:
    """Where writing ``target`` really goes: a symbolic link's final file, else ``target``.

    A folder is refused (InputError naming it).  ``-`` is refused too: standard output is
    the caller's business (see :func:`privlab.io.outputs.is_stdout`).
    """
    text = os.fspath(target)
    if text == "-":
        raise InputError("'-' (standard output) cannot be written as a file here")
    path = Path(text)
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    if path.is_dir():
        raise InputError(f"{target}: is a folder; give a file name (e.g. {Path(text) / 'out'})")
    return path


def is_special(path: Path) -> bool:
    """Does ``path`` exist as something other than a regular file or a folder (device, FIFO)?"""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _temp_file(real: Path) -> Path:
    real.parent.mkdir(parents=True, exist_ok=True)
    sweep_stale(real.parent)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{real.name}.privlab-{os.getpid()}-", suffix=".tmp", dir=real.parent
    )
    os.close(fd)
    return Path(tmp)


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield the path to write ``target``'s new content to; commit it on success.

    For a new or regular file (or a link to one) that is a temporary sibling renamed onto
    the real file at the end; for a device or FIFO it is the target itself, written into.
    On an exception (SIGINT and SIGTERM included, see :mod:`privlab.cli.common`) the
    temporary file is removed and ``target`` is left untouched.
    """
    real = resolve_target(target)
    if is_special(real):
        with _naming(target):
            yield real
        return
    with _naming(target):
        tmp = _temp_file(real)
    try:
        with _naming(target):
            yield tmp
            tmp.chmod(0o666 & ~_umask())  # mkstemp makes 0600
            os.replace(tmp, real)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _naming(target: str | os.PathLike[str]) -> Iterator[None]:
    """An OSError while writing ``target`` (a full disk, a read-only folder) becomes an
    InputError naming it; writers such as polars raise OSErrors without the path."""
    try:
        yield
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise InputError(f"cannot write {os.fspath(target)}: {reason}") from exc


@contextlib.contextmanager
def atomic_paths(targets: Sequence[str | os.PathLike[str]]) -> Iterator[list[Path]]:
    """Yield one path to write per target; commit them all together, or none.

    Files that belong together (a release and its secret mapping) must not be half
    published.  Every file is written to its temporary sibling first; only when all are
    complete are they renamed onto their targets, and if one of those renames fails the
    files already replaced get their old content back (it was moved aside, not deleted).
    Devices and FIFOs among the targets are written into directly, outside the guarantee.
    """
    reals = [resolve_target(t) for t in targets]
    if len({str(r) for r in reals}) != len(reals):
        raise InputError("two outputs of one run name the same file; give each its own name")
    paths: list[Path] = []
    temps: list[Path] = []
    try:
        for real in reals:
            if is_special(real):
                paths.append(real)
            else:
                tmp = _temp_file(real)
                temps.append(tmp)
                paths.append(tmp)
        yield paths
        _commit_together([(p, r) for p, r in zip(paths, reals, strict=True) if p != r])
    finally:
        for tmp in temps:
            tmp.unlink(missing_ok=True)


def _commit_together(moves: list[tuple[Path, Path]]) -> None:
    """Rename each temporary file onto its target; on a failure undo the ones done."""
    mode = 0o666 & ~_umask()
    backups: list[tuple[Path, Path | None]] = []  # (target, its old content moved aside)
    try:
        for tmp, real in moves:
            tmp.chmod(mode)
            old = None
            if real.exists():
                old = real.with_name(f"{tmp.name}.old")
                os.replace(real, old)
            backups.append((real, old))
            os.replace(tmp, real)
    except BaseException:
        for real, old in reversed(backups):
            if old is not None:
                os.replace(old, real)
            else:
                real.unlink(missing_ok=True)
        raise
    for _, old in backups:
        if old is not None:
            old.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_folder(target: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary folder next to ``target``; on success it replaces ``target``.

    An existing ``target`` folder is moved aside first and restored if the final rename
    fails; on an exception the temporary folder is removed and ``target`` is untouched.
    Whether an existing folder may be replaced at all is decided before, by
    :func:`privlab.io.outputs.check_outputs`.
    """
    target = Path(target)
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    sweep_stale(target.parent)
    tmp = Path(
        tempfile.mkdtemp(
            prefix=f".{target.name}.privlab-{os.getpid()}-", suffix=".tmp", dir=target.parent
        )
    )
    try:
        yield tmp
        tmp.chmod(0o777 & ~_umask())  # mkdtemp makes 0700
        if target.exists():
            old = tmp.with_name(tmp.name + ".old")
            os.replace(target, old)
            try:
                os.replace(tmp, target)
            except BaseException:
                os.replace(old, target)
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def write_atomic(target: str | os.PathLike[str], writer: Callable[[Path], None]) -> Path:
    """Call ``writer(tmp_path)`` and atomically move the result to ``target``."""
    with atomic_path(target) as tmp:
        writer(tmp)
    return Path(target)


def write_text_atomic(target: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``target`` atomically."""
    return write_atomic(target, lambda p: p.write_text(text, encoding="utf-8"))
