"""Run a real `gshare serve` in a subprocess on a free port for end-to-end tests."""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    url: str
    port: int
    admin_password: str
    log: Path
    pid: int = 0
    process: subprocess.Popen[bytes] | None = None

    def printed_accounts(self, timeout: float = 90) -> dict[str, str]:
        """The accounts `gshare serve` printed in its closing banner (username → password),
        waiting for it: on a first start with the demo it comes once the demo is seeded."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.log.read_text()
            if "gshare is ready:" in text:
                banner = text[text.rindex("gshare is ready:") :]  # printed whole, in one write
                users = re.findall(r"^ +username: (\S+)\n +password: (.+)$", banner, re.MULTILINE)
                return {u: pw.strip() for u, pw in users}
            if time.monotonic() > deadline:
                raise RuntimeError(f"gshare serve printed no accounts:\n{text[-4000:]}")
            time.sleep(0.2)


_premade_lock = threading.Lock()
_premade: Path | None = None


def premade_embedded_postgres() -> Path:
    """An embedded server's data directory as `gshare serve` makes it on a first start (pgserver's
    initdb, the `gshare` database migrated to head by the real migrations), stopped cleanly;
    made once per test process and removed when it exits. A serve test that is not about the
    first start of the server copies it (`gshare_serve(..., premade_postgres=True)`): the same
    pgserver then starts on it, skipping initdb and the migrations (a few seconds per serve).
    The tests of the first start itself (tests/e2e/test_serve_embedded.py, the console's
    test_first_run.py) start from an empty directory."""
    global _premade
    with _premade_lock:
        if _premade is None:
            # in a thread of its own: the migrations run an event loop, and the caller may be
            # inside one (Playwright's sync API runs one in the test's thread)
            with ThreadPoolExecutor(1) as pool:
                _premade = pool.submit(_make_premade).result()
        return _premade


def _make_premade() -> Path:
    import pgserver  # type: ignore[import-untyped,unused-ignore]

    from infra.db.migrate import upgrade
    from infra.embedded import start_embedded_postgres

    root = Path(tempfile.mkdtemp(prefix="gshare-premade-pg-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    upgrade(start_embedded_postgres(root))
    pg_dir = root / "postgres"
    pgserver.get_server(str(pg_dir)).cleanup()  # the last handle: the server stops
    assert not (pg_dir / "postmaster.pid").exists(), "the premade server did not stop"
    for leftover in (".handle_pids.json", "log"):  # this process's handle, its log
        (pg_dir / leftover).unlink(missing_ok=True)
    return pg_dir


def _copy_premade_postgres(data_dir: Path) -> None:
    if (data_dir / "postgres").exists():  # a second start on the same directory
        return
    data_dir.mkdir(parents=True, exist_ok=True)
    # `cp -a`: the files keep their owner (as root, pgserver runs the server as its own user)
    subprocess.run(["cp", "-a", str(premade_embedded_postgres()), str(data_dir / "postgres")], check=True)


_TERM_GRACE = 20.0  # seconds `gshare serve` has to stop on SIGTERM before it is killed


def _answers_ready(url: str) -> bool:
    try:
        return httpx.get(url + "/readyz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def stop_embedded_postgres(data_dir: Path) -> bool:
    """Stop the embedded server `gshare serve` started in `data_dir/postgres`
    (infra/embedded.py `start_embedded_postgres`: pgserver, `cleanup_mode="stop"`), once the
    serve is gone. pgserver stops it in the serve's atexit, when its handle is the last; a serve
    killed (SIGKILL, or SIGTERM before its signal handlers are set) runs no atexit, and the
    server, started by pg_ctl as a daemon, outlives it (and a pg_ctl left starting it finishes
    after the serve is gone: it is waited for). Here: the handles of dead processes are
    dropped from pgserver's list (`.handle_pids.json`; left there, the next serve on the
    directory would not be the last handle and would not stop it either), and the server, if it
    still runs and no live process holds a handle, is stopped as pgserver's cleanup does
    (`pg_ctl -w stop`, fast mode; killed if that fails). True if a server was stopped."""
    from pgserver.postgres_server import PostgresServer  # type: ignore[import-untyped,unused-ignore]

    pg_dir = (data_dir / "postgres").resolve()
    with PostgresServer._lock:  # pgserver's own inter-process lock over its handles and start/stop
        return _stop_unheld(pg_dir)


def _stop_unheld(pg_dir: Path) -> bool:
    import json

    import psutil
    from pgserver._commands import pg_ctl  # type: ignore[import-untyped,attr-defined,unused-ignore]
    from pgserver.utils import PostmasterInfo  # type: ignore[import-untyped,unused-ignore]

    # a serve ended while pgserver ran initdb or `pg_ctl -w start` leaves that child running: it
    # starts the server after the serve is gone; wait for it, then judge what it left
    for p in psutil.process_iter(["name", "cmdline"]):
        if p.info["name"] in ("pg_ctl", "initdb") and str(pg_dir) in (p.info["cmdline"] or []):
            with contextlib.suppress(psutil.Error):
                p.wait(60)
    handles = pg_dir / ".handle_pids.json"
    if handles.exists():
        live = [pid for pid in json.loads(handles.read_text()) if psutil.pid_exists(pid)]
        handles.write_text(json.dumps(live))
        if live:
            return False  # another process still uses it: pgserver stops it with the last one
    try:
        info = PostmasterInfo.read_from_pgdata(pg_dir)
    except (AssertionError, ValueError, OSError):  # killed in initdb: its bootstrap backend's file
        return False
    if info is None or not info.is_running():
        return False
    server = info.process
    assert server is not None  # is_running
    user = "pgserver" if os.geteuid() == 0 else None  # as pgserver runs it under root
    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pg_dir, user=user)
    except subprocess.CalledProcessError:
        server.kill()
    with contextlib.suppress(psutil.NoSuchProcess):
        server.wait(20)
    return True


@contextmanager
def gshare_serve(
    tmp: Path,
    *,
    env: dict[str, str] | None = None,
    timeout: float = 90,
    premade_postgres: bool = False,
) -> Iterator[Served]:
    """`gshare serve` in `tmp` (its data dir `tmp/data`) on a free port, until it answers /readyz.
    `premade_postgres`: on the embedded server, start from a copy of `premade_embedded_postgres()`
    instead of an empty data dir (for tests not about the first start of the server)."""
    port = free_port()
    password = "e2e-admin-password"
    log = tmp / "serve.log"
    full_env = {
        **os.environ,
        "GSHARE_DATA_DIR": str(tmp / "data"),
        "GSHARE_PORT": str(port),
        "GSHARE_BOOTSTRAP_ADMIN_PASSWORD": password,
        **(env or {}),
    }
    if "GSHARE_DATABASE_URL" not in (env or {}):
        full_env.pop("GSHARE_DATABASE_URL", None)  # README command 1 runs on the embedded server
        if premade_postgres:
            _copy_premade_postgres(Path(full_env["GSHARE_DATA_DIR"]))
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "serve"],
            env=full_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=Path(__file__).resolve().parents[2],
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"gshare serve exited early:\n{log.read_text()[-4000:]}")
                if _answers_ready(url):
                    break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"gshare serve did not become ready:\n{log.read_text()[-4000:]}")
                time.sleep(0.05)
            yield Served(url, port, password, log, proc.pid, proc)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(_TERM_GRACE)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if "GSHARE_DATABASE_URL" not in (env or {}):  # the embedded server it started, if it outlived it
                stop_embedded_postgres(Path(full_env["GSHARE_DATA_DIR"]))


@contextmanager
def gshare_serve_together(
    dirs: list[Path], *, env: dict[str, str] | None = None, timeout: float = 90
) -> Iterator[list[Served]]:
    """Several `gshare serve` processes started at once (their start-ups overlap), each in its
    own directory; all are stopped on exit."""
    with ExitStack() as stack:
        managers = [gshare_serve(d, env=env, timeout=timeout) for d in dirs]
        with ThreadPoolExecutor(len(managers)) as pool:
            futures = [pool.submit(m.__enter__) for m in managers]
            served: list[Served] = []
            errors: list[BaseException] = []
            for manager, future in zip(managers, futures, strict=True):
                try:
                    served.append(future.result())
                    stack.push(manager.__exit__)
                except BaseException as exc:  # the others are stopped by the stack
                    errors.append(exc)
        if errors:
            raise errors[0]
        yield served
