"""Issue 21, Must show 3: two `gshare serve` replicas and a `gshare worker` on one PostgreSQL
and one Redis, all with the simulated cluster (`GSHARE_SIMULATED_CLUSTER`), share ONE simulated
cluster: a session created through replica A is paused, resumed and stopped through replica B
and reaches PAUSED, RUNNING and STOPPED (before, B drove a private copy that had never seen the
pod: the session stayed PAUSING for ever), billed for the seconds it ran, its capacity freed;
exactly one of the three processes hosts the cluster (the status reports come from one place).
When the host is killed with SIGKILL, another process takes the cluster over with the workloads
it ran: a session running before the kill is paused through a surviving replica."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from infra.bootstrap import build_container
from infra.settings import Settings
from tests.e2e.test_sessions_e2e import gql, hami_used, ok, setup_member
from tests.support.database import create_test_database
from tests.support.serve import Served, gshare_serve
from tests.support.services import require_redis

pytestmark = pytest.mark.e2e

FUNDED = 100_000_000  # setup_member allocates 100 credits down to the member
HOSTING = "this process hosts the simulated cluster"  # the line the hosting process logs
CREATE = "mutation($i: SessionCreateInput!) { sessionCreate(input: $i) { session { id state } errors { code field message } } }"
STATE = "query($id: ID!) { node(id: $id) { ... on Session { state stateReason runningSeconds charged { micro } } } }"


def _act(client: httpx.Client, verb: str, sid: str) -> str:
    field = f"session{verb}"
    payload = gql(
        client,
        f"mutation($i: IdInput!) {{ {field}(input: $i) {{ session {{ state }} errors {{ code }} }} }}",
        i={"id": sid},
    )
    return str(ok(payload[field])["session"]["state"])


def _until(client: httpx.Client, sid: str, state: str, within: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while True:
        node = gql(client, STATE, id=sid)["node"]
        if node["state"] == state:
            return dict(node)
        if time.monotonic() > deadline:
            raise AssertionError(
                f"session {sid} is {node['state']} ({node['stateReason']}), not {state}, after {within} s"
            )
        time.sleep(0.2)


async def _seed_demo(url: str) -> None:
    from infra.demo import seed_demo

    c = build_container(Settings(database_url=url, demo=False), url)
    try:
        await seed_demo(c)
    finally:
        await c.aclose()


@dataclass
class Worker:
    log: Path
    process: subprocess.Popen[bytes]


@contextmanager
def gshare_worker(tmp: Path, env: dict[str, str], timeout: float = 90) -> Iterator[Worker]:
    log = tmp / "worker.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "worker", "--threads", "2"],
            env={**os.environ, "GSHARE_DATA_DIR": str(tmp / "data"), **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=Path(__file__).resolve().parents[2],
        )
        try:
            deadline = time.monotonic() + timeout
            while "workers started" not in log.read_text():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"gshare worker did not start:\n{log.read_text()[-4000:]}")
                time.sleep(0.2)
            yield Worker(log, proc)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextmanager
def deployment(tmp: Path, env: dict[str, str]) -> Iterator[tuple[Served, Served, Worker]]:
    """Replicas A and B and a worker, started at once (the starts are most of this test's time)."""
    for name in ("a", "b", "w"):
        (tmp / name).mkdir()
    managers: list[Any] = [
        gshare_serve(tmp / "a", env=env),
        gshare_serve(tmp / "b", env=env),
        gshare_worker(tmp / "w", env),
    ]
    with ExitStack() as stack, ThreadPoolExecutor(len(managers)) as pool:
        started = [pool.submit(m.__enter__) for m in managers]
        for m, f in zip(managers, started, strict=True):
            if f.exception() is None:
                stack.push(m.__exit__)
        a, b, w = (f.result() for f in started)
        yield a, b, w


def test_a_session_started_through_one_replica_is_paused_and_stopped_through_the_other(tmp_path: Path) -> None:
    redis_url = require_redis()
    db = create_test_database(prefix="gshare_simshare")
    try:
        asyncio.run(_seed_demo(db.url))
        env = {
            "GSHARE_DATABASE_URL": db.url,
            "GSHARE_REDIS_URL": redis_url,
            "GSHARE_SIMULATED_CLUSTER": "true",
            "GSHARE_SIMULATED_START_DELAY": "0.3",
            "GSHARE_SECRET_KEY": "shared-simulated-cluster-" * 2,
            "GSHARE_WORKER_METRICS_PORT": "0",
        }
        with deployment(tmp_path, env) as (a, b, worker):
            started = time.monotonic()
            member_a, token, ids = setup_member(a)
            member_b = httpx.Client(base_url=b.url, timeout=30, headers={"authorization": f"Bearer {token}"})
            before = hami_used(member_b)
            i = {"imageId": ids["image"], "presetId": ids["preset"], "offeringId": ids["offering"], "expiry": "H4"}

            sid = ok(gql(member_a, CREATE, i={"name": "shared", **i})["sessionCreate"])["session"]["id"]
            _until(member_b, sid, "RUNNING")
            assert hami_used(member_b) == round(before + 0.25, 6)  # GPU L (1/4)

            assert _act(member_b, "Pause", sid) in ("PAUSING", "PAUSED")
            _until(member_a, sid, "PAUSED")
            assert hami_used(member_a) == before  # its capacity is free

            _act(member_b, "Resume", sid)
            _until(member_a, sid, "RUNNING")
            time.sleep(1.2)  # bill at least a second of the resumed run
            _act(member_b, "Stop", sid)
            s = _until(member_a, sid, "STOPPED")
            assert hami_used(member_a) == before
            wallet = gql(member_b, "{ myWallet { balance { micro } held { micro } } }")["myWallet"]
            assert s["runningSeconds"] >= 1
            # A100 at 4 credits/hour x 1/4 = 1 credit/hour, floored once over the seconds it ran
            assert s["charged"]["micro"] == 1_000_000 * s["runningSeconds"] // 3600
            assert wallet["held"]["micro"] == 0
            assert wallet["balance"]["micro"] == FUNDED - s["charged"]["micro"]

            processes: list[Served | Worker] = [a, b, worker]
            hosts = [p for p in processes if HOSTING in p.log.read_text()]
            assert len(hosts) == 1, "exactly one process of three hosts the simulated cluster"
            host = hosts[0]
            survivor = b if host is a else a  # a replica that lives on
            print(f"pause, resume and stop through the other replica: {time.monotonic() - started:.1f} s")

            # the host dies: the survivor takes the cluster over with what it ran
            through = httpx.Client(base_url=survivor.url, timeout=30, headers={"authorization": f"Bearer {token}"})
            other = ok(gql(member_a, CREATE, i={"name": "survivor", **i})["sessionCreate"])["session"]["id"]
            _until(member_b, other, "RUNNING")
            assert host.process is not None
            host.process.send_signal(signal.SIGKILL)
            assert host.process.wait(10) == -signal.SIGKILL
            killed = time.monotonic()
            while not [p for p in processes if p is not host and HOSTING in p.log.read_text()]:
                assert time.monotonic() < killed + 15, "no surviving process took the simulated cluster over"
                time.sleep(0.1)
            print(f"taken over {time.monotonic() - killed:.1f} s after the kill")
            _act(through, "Pause", other)
            _until(through, other, "PAUSED")
            assert hami_used(through) == before
            member_b.close()
            through.close()
    finally:
        db.drop()
