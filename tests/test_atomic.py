"""privlab.io.atomic: all-or-nothing output with the permissions of a plain open / mkdir."""

from __future__ import annotations

import os
import stat

import pytest

from privlab.io.atomic import atomic_folder, atomic_path, write_text_atomic


@pytest.fixture(params=[0o022, 0o027, 0o077])
def umask(request):
    old = os.umask(request.param)
    yield request.param
    os.umask(old)


def _mode(p) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_file_gets_default_permissions_not_mkstemps_0600(tmp_path, umask):
    out = write_text_atomic(tmp_path / "sub" / "a.csv", "x\n")
    assert out.read_text(encoding="utf-8") == "x\n"
    assert _mode(out) == 0o666 & ~umask
    assert [p.name for p in out.parent.iterdir()] == ["a.csv"]  # no temporary left


def test_folder_gets_default_permissions_not_mkdtemps_0700(tmp_path, umask):
    target = tmp_path / "release"
    with atomic_folder(target) as tmp:
        (tmp / "qi.csv").write_text("a\n", encoding="utf-8")
    assert _mode(target) == 0o777 & ~umask
    assert (target / "qi.csv").read_text(encoding="utf-8") == "a\n"


def test_failure_leaves_the_old_output_and_no_temporary(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half", encoding="utf-8")
        raise RuntimeError("writer failed")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]
    folder = tmp_path / "rel"
    folder.mkdir()
    (folder / "keep").write_text("k", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_folder(folder) as tmp:
        (tmp / "new").write_text("n", encoding="utf-8")
        raise RuntimeError("writer failed")
    assert sorted(p.name for p in folder.iterdir()) == ["keep"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "rel"]
