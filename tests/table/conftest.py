"""A throwaway PostgreSQL server for the SQL-backend tests (``postgres_dsn`` fixture).

The server binaries come from Debian's ``postgresql`` package (``.ci/run`` installs it when
``initdb`` is missing): ``initdb``/``pg_ctl`` on PATH or under ``/usr/lib/postgresql/<v>/bin``.
The cluster lives in a fresh temporary folder, listens on a Unix socket in that folder only
(no TCP), trusts local connections, and is stopped and removed at the end of the session.
PostgreSQL refuses to run as root: as root the cluster is created and started as the
``postgres`` system user (``runuser``, else ``su``).  Without binaries the tests are skipped
with the reason — except under CI (``CI=true``), where that is a failure.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shlex
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _pg_bin(name: str) -> str | None:
    """The newest Debian server binary, else one on PATH (Debian's PATH has none)."""
    versions = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if versions:
        return versions[-1]
    return shutil.which(name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"PostgreSQL tests must run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def _as_user(cmd: list[str], user: str | None) -> list[str]:
    if user is None:
        return cmd
    if shutil.which("runuser"):
        return ["runuser", "-u", user, "--", *cmd]
    return ["su", user, "-s", "/bin/sh", "-c", shlex.join(cmd)]


_SERVER: dict[str, object] = {"users": 0}


@pytest.fixture(scope="session")
def postgres_dsn() -> Iterator[str]:
    """DSN of a private PostgreSQL server, started once per test session.

    Test modules outside ``tests/table`` import this fixture; a reference count keeps it to
    one server however many modules use it.
    """
    if "dsn" not in _SERVER:
        _SERVER["context"] = ctx = _server()
        _SERVER["dsn"] = next(ctx)
    _SERVER["users"] = int(_SERVER["users"]) + 1  # type: ignore[call-overload]
    try:
        yield str(_SERVER["dsn"])
    finally:
        _SERVER["users"] = int(_SERVER["users"]) - 1  # type: ignore[call-overload]
        if _SERVER["users"] == 0:
            ctx = _SERVER.pop("context")
            _SERVER.pop("dsn")
            with contextlib.suppress(StopIteration):
                next(ctx)  # type: ignore[call-overload]


def _server() -> Iterator[str]:
    """Start the server, yield its DSN, stop and remove it when resumed."""
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    if not initdb or not pg_ctl:
        _unavailable(
            "PostgreSQL server binaries (initdb, pg_ctl) not found; apt-get install postgresql"
        )
    user = None
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        user = "postgres"
        try:
            import pwd

            pw = pwd.getpwnam(user)
        except KeyError:
            _unavailable("running as root and there is no 'postgres' user to run the server")
    # not pytest's tmp_path: its parents are private to root, and the server runs as postgres
    base = Path(tempfile.mkdtemp(prefix="privlab-pg-"))
    data, sock = base / "data", base / "sock"
    sock.mkdir()
    if user is not None:
        for p in (base, sock):
            os.chown(p, pw.pw_uid, pw.pw_gid)
    port = _free_port()
    log = base / "server.log"
    started = False
    try:
        init = subprocess.run(
            _as_user(
                [
                    initdb,
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--locale=C",
                    "--no-sync",
                ],
                user,
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if init.returncode != 0:
            _unavailable(f"initdb failed: {init.stderr.strip()[-500:]}")
        opts = (
            f"-k {sock} -p {port} -c listen_addresses='' -c fsync=off "
            "-c max_connections=20 -c shared_buffers=32MB"
        )
        start = subprocess.run(
            _as_user(
                [pg_ctl, "-D", str(data), "-o", opts, "-l", str(log), "-w", "-t", "60", "start"],
                user,
            ),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if start.returncode != 0:
            tail = log.read_text()[-800:] if log.exists() else start.stderr
            _unavailable(f"pg_ctl start failed: {tail.strip()}")
        started = True
        yield f"postgresql://postgres@/postgres?host={sock}&port={port}"
    finally:
        if started:
            subprocess.run(
                _as_user([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], user),
                capture_output=True,
                timeout=60,
            )
        with contextlib.suppress(OSError):
            shutil.rmtree(base)
