"""privlab.io.atomic: all-or-nothing output with the permissions of a plain open / mkdir."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import threading

import pytest

from privlab.errors import InputError
from privlab.io.atomic import atomic_folder, atomic_path, atomic_paths, write_text_atomic


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


# ------------------------------------------------------------- what the target already is
def test_symlink_is_written_through_and_stays_a_link(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "real.csv"]


def test_fifo_is_written_into_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_text_atomic(fifo, "through the pipe\n")
    reader.join(timeout=10)
    assert received == [b"through the pipe\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


@pytest.mark.skipif(os.geteuid() != 0, reason="os.mknod of a character device needs root")
def test_character_device_is_written_into_not_replaced(tmp_path):
    # a private null device in a temporary folder, never the real /dev/null
    null = tmp_path / "null"
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    write_text_atomic(null, "discarded\n")
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]


def test_folder_where_a_file_is_expected_is_refused(tmp_path):
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match="is a folder"):
        write_text_atomic(tmp_path / "out", "x")
    assert list((tmp_path / "out").iterdir()) == []


def test_stale_temporaries_of_dead_writers_are_swept_live_ones_kept(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    stale = tmp_path / f".a.csv.privlab-{dead.stdout.strip()}-x1.tmp"
    stale.write_text("half", encoding="utf-8")
    live = tmp_path / f".b.csv.privlab-{os.getppid()}-x2.tmp"  # a live process's
    live.write_text("busy", encoding="utf-8")
    unrelated = tmp_path / ".c.csv.tmp"
    unrelated.write_text("not ours", encoding="utf-8")
    write_text_atomic(tmp_path / "a.csv", "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["a.csv", live.name, unrelated.name]
    )


# ------------------------------------------------------------- files that belong together
def test_files_written_together_appear_together(tmp_path):
    targets = [tmp_path / "release.txt", tmp_path / "mapping.csv"]
    with atomic_paths(targets) as (a, b):
        a.write_text("release", encoding="utf-8")
        assert not targets[0].exists()  # nothing is published before both are complete
        b.write_text("mapping", encoding="utf-8")
    assert [t.read_text(encoding="utf-8") for t in targets] == ["release", "mapping"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mapping.csv", "release.txt"]


def test_a_failed_second_file_leaves_no_orphan_first(tmp_path):
    targets = [tmp_path / "release.txt", tmp_path / "mapping.csv"]
    targets[0].write_text("old release", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_paths(targets) as (a, _):
        a.write_text("new release", encoding="utf-8")
        raise RuntimeError("the mapping could not be written")
    assert targets[0].read_text(encoding="utf-8") == "old release"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["release.txt"]


def _immutable(path) -> bool:
    """chattr +i: not even root may replace the file (skips where unsupported)."""
    return subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0


def test_a_failed_commit_restores_the_files_already_replaced(tmp_path):
    targets = [tmp_path / "release.txt", tmp_path / "mapping.csv"]
    targets[0].write_text("old release", encoding="utf-8")
    targets[1].write_text("old mapping", encoding="utf-8")
    if os.geteuid() == 0:
        if shutil.which("chattr") is None or not _immutable(targets[1]):
            pytest.skip("chattr +i is not available here")
    else:
        tmp_path.chmod(0o555)
    try:
        with pytest.raises(OSError), atomic_paths(targets) as (a, b):
            a.write_text("new release", encoding="utf-8")
            b.write_text("new mapping", encoding="utf-8")
    finally:
        subprocess.run(["chattr", "-i", str(targets[1])], capture_output=True)
        tmp_path.chmod(0o755)
    assert [t.read_text(encoding="utf-8") for t in targets] == ["old release", "old mapping"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mapping.csv", "release.txt"]


def test_two_outputs_naming_one_file_are_refused(tmp_path):
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "a")
    with pytest.raises(InputError, match="same file"), atomic_paths([tmp_path / "a", link]):
        pass


# ------------------------------------------------------------- concurrency and signals
WRITER = """
import sys
from privlab.io.atomic import write_text_atomic
write_text_atomic(sys.argv[1], sys.argv[2] * int(sys.argv[3]))
"""


def test_two_concurrent_writers_leave_one_complete_file(tmp_path):
    target = tmp_path / "out.txt"
    size = 4_000_000
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(target), ch, str(size)])
             for ch in "ab"]  # fmt: skip
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    text = target.read_text(encoding="utf-8")
    assert text in ("a" * size, "b" * size)
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


SLOW_WRITER = """
import sys, time
import typer
from privlab.cli.common import exits_on_bad_input
from privlab.io.atomic import atomic_path

@exits_on_bad_input
def run(target: str):
    with atomic_path(target) as tmp:
        with open(tmp, "w") as fh:
            fh.write("half of the new content")
            fh.flush()
            print("writing", flush=True)
            time.sleep(60)
            fh.write("the rest")

typer.run(run)
"""


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_during_a_write_keeps_the_old_file_and_no_temporary(tmp_path, sig, code):
    target = tmp_path / "release.csv"
    target.write_text("the old release", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITER, str(target)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stdout.readline().strip() == "writing"
    assert len(list(tmp_path.iterdir())) == 2  # the target and the temporary file
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert "Traceback" not in err and "nothing was written" in err
    assert target.read_text(encoding="utf-8") == "the old release"
    assert [p.name for p in tmp_path.iterdir()] == ["release.csv"]
