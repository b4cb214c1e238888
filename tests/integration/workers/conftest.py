"""Fixtures for the worker tests: a fresh database per test (period claims are global facts, so
tests must not see each other's), a private Redis server and a private PostgreSQL server that a
test may stop and restart (the machine's shared ones must not be), and `gshare worker`
subprocesses."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis

from tests.support.database import create_test_database

ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def fresh_database_url() -> Iterator[str]:
    db = create_test_database(prefix="gshare_workers")
    try:
        yield db.url
    finally:
        db.drop()


@pytest.fixture(scope="module")
def module_database_url() -> Iterator[str]:
    """For tests that keep apart by job name: one database per module."""
    db = create_test_database(prefix="gshare_workers")
    try:
        yield db.url
    finally:
        db.drop()


@dataclass
class PrivateRedis:
    """A redis-server of our own (the shared one must not be restarted under other tests).
    Without persistence, like a cache-configured Redis: a restart loses every queued message,
    the hardest case for "no tick lost"."""

    directory: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            if os.environ.get("CI") == "true":
                raise RuntimeError("redis-server is required under CI=true")
            pytest.skip("redis-server not installed")
        self.process = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(5)
        self.process = None

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    r = PrivateRedis(tmp_path)
    r.start()
    try:
        yield r
    finally:
        r.stop()


PG_BIN = Path("/usr/lib/postgresql/15/bin")


@dataclass
class PrivatePostgres:
    """A PostgreSQL 15 server of our own in a temporary directory, on a free port: `restart`
    kills the server process (postmaster and every backend, no shutdown checkpoint: crash
    recovery on the next start) and starts it again on the same port and data."""

    directory: Path
    port: int = field(default_factory=free_port)

    @property
    def data(self) -> Path:
        return self.directory / "data"

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        # initdb and the server refuse to run as root: run them as the `postgres` user then
        as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*as_user, *args], check=True, capture_output=True, timeout=60)

    def init(self) -> None:
        if not (PG_BIN / "initdb").exists():
            if os.environ.get("CI") == "true":
                raise RuntimeError(f"PostgreSQL 15 server binaries are required under CI=true ({PG_BIN})")
            pytest.skip("PostgreSQL 15 server binaries not installed")
        self.data.mkdir(parents=True)
        if os.geteuid() == 0:
            shutil.chown(self.directory, "postgres")
            shutil.chown(self.data, "postgres")
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} -c shared_buffers=16MB"
        log = self.directory / "server.log"
        if os.geteuid() == 0 and not log.exists():
            log.touch()
            shutil.chown(log, "postgres")
        self._run(
            str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(log), "-w", "-t", "30", "start"
        )

    def kill(self) -> None:
        """The server process dies at once (`immediate`: SIGQUIT to the postmaster, no checkpoint)."""
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
                self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    """A private server with the schema migrated into its `postgres` database. Its directory
    is a fresh one under the system temp dir (pytest's tmp_path is not reachable by the
    `postgres` user)."""
    from infra.db.migrate import upgrade

    directory = Path(tempfile.mkdtemp(prefix="gshare-private-pg-"))
    pg = PrivatePostgres(directory)
    try:
        pg.init()
        pg.start()
        upgrade(pg.url)
        yield pg
    finally:
        pg.stop()
        shutil.rmtree(directory, ignore_errors=True)


@dataclass
class WorkerProcess:
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_for_log(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log():
            if self.process.poll() is not None and text not in self.log():
                raise AssertionError(
                    f"worker exited ({self.process.returncode}) before {text!r}:\n{self.log()[-3000:]}"
                )
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} not logged within {timeout}s:\n{self.log()[-3000:]}")
            time.sleep(0.05)

    def terminate(self, timeout: float = 15) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
            raise AssertionError(f"worker did not stop on SIGTERM within {timeout}s:\n{self.log()[-3000:]}") from None


class Workers:
    def __init__(self, tmp_path: Path, database_url: str, redis_url: str) -> None:
        self.tmp_path = tmp_path
        self.database_url = database_url
        self.redis_url = redis_url
        self.started: list[WorkerProcess] = []

    def spawn(self, periods: str, **env: str) -> WorkerProcess:
        log_path = self.tmp_path / f"worker-{len(self.started)}.log"
        full_env = {
            **os.environ,
            "GSHARE_DATABASE_URL": self.database_url,
            "GSHARE_REDIS_URL": self.redis_url,
            "GSHARE_WORKER_METRICS_PORT": "0",
            "GSHARE_WORKER_JOB_PERIODS": periods,
            "GSHARE_WORKER_TICK_SECONDS": "0.1",
            "GSHARE_WORKER_SWEEP_SECONDS": "0.5",
            "GSHARE_WORKER_REDELIVER_AFTER_SECONDS": "2",
            # a dead worker's unacked messages return to the queue after 3 s, checked often
            "GSHARE_WORKER_HEARTBEAT_TIMEOUT_MS": "3000",
            "GSHARE_WORKER_MAINTENANCE_CHANCE": "1000000",
            "dramatiq_restart_delay": "300",
            "GSHARE_LOG_LEVEL": "debug",  # the periodic jobs' " attempt " lines are DEBUG
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        with log_path.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "cli", "worker", "--threads", "2"],
                cwd=ROOT,
                env=full_env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        worker = WorkerProcess(process, log_path)
        self.started.append(worker)
        return worker

    def cleanup(self) -> None:
        for w in self.started:
            if w.process.poll() is None:
                w.process.kill()
                w.process.wait(5)


@pytest.fixture
def workers(tmp_path: Path, fresh_database_url: str, private_redis: PrivateRedis) -> Iterator[Workers]:
    ws = Workers(tmp_path, fresh_database_url, private_redis.url)
    try:
        yield ws
    finally:
        ws.cleanup()
