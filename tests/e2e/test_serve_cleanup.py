"""tests/support/serve.py `gshare_serve` stops the embedded PostgreSQL of a `gshare serve` that
never became ready, however the serve ended: here one that stops answering anything (SIGSTOP)
once its embedded server runs, so SIGTERM does nothing and it is killed (SIGKILL runs no atexit,
where pgserver would stop the server); the server must not outlive the test."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import psutil
import pytest
from pgserver.utils import PostmasterInfo  # type: ignore[import-untyped,unused-ignore]

from tests.support import serve

pytestmark = pytest.mark.e2e


def _running_postmaster(pg_dir: Path, timeout: float = 120) -> psutil.Process:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            info = PostmasterInfo.read_from_pgdata(pg_dir)
        except (AssertionError, ValueError, OSError):  # initdb's bootstrap backend, or half written
            info = None
        if info is not None and info.is_running() and info.status == "ready":
            return info.process
        time.sleep(0.1)
    raise AssertionError(f"no embedded server came up in {pg_dir}")


def test_a_killed_serve_that_never_got_ready_leaves_no_embedded_postgres(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pg_dir = tmp_path / "data" / "postgres"
    postmaster: list[psutil.Process] = []
    stopped: list[int] = []

    def hung_once_its_database_runs(url: str) -> bool:
        postmaster.append(_running_postmaster(pg_dir))
        [proc] = [p for p in psutil.Process().children() if p.cmdline()[-2:] == ["cli", "serve"]]
        handles = pg_dir / ".handle_pids.json"
        deadline = time.monotonic() + 60
        while not (handles.exists() and proc.pid in json.loads(handles.read_text() or "[]")):
            assert time.monotonic() < deadline and proc.is_running(), "the serve took no pgserver handle"
            time.sleep(0.05)  # the serve holds its pgserver handle (pgserver writes it once the server runs)
        os.kill(proc.pid, signal.SIGSTOP)  # it answers nothing from now on, SIGTERM included
        stopped.append(proc.pid)
        return False

    monkeypatch.setattr(serve, "_answers_ready", hung_once_its_database_runs)
    monkeypatch.setattr(serve, "_TERM_GRACE", 1.0)  # 20 s in use: the same path, sooner
    try:
        with pytest.raises(RuntimeError, match="did not become ready"), serve.gshare_serve(tmp_path, timeout=0):
            pass
        assert stopped and not psutil.pid_exists(stopped[0])  # killed, not stopped on its own
        [server] = postmaster
        assert not server.is_running()  # gone once gshare_serve returned: not left to the machine
        assert not (pg_dir / "postmaster.pid").exists()
        # the dead serve's handle is dropped: the next serve on the directory is the last handle
        assert json.loads((pg_dir / ".handle_pids.json").read_text()) == []
    finally:
        for p in postmaster:  # never leave a server behind, even when the test fails
            if p.is_running():
                p.kill()
