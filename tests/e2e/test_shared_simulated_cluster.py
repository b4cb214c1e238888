"""Issue 21, Must show 3: two `gshare serve` replicas on one PostgreSQL and one Redis, both with
the simulated cluster (`GSHARE_SIMULATED_CLUSTER`), share ONE simulated cluster: a session
created through replica A is paused, resumed and stopped through replica B and reaches PAUSED,
RUNNING and STOPPED (before, B drove a private copy that had never seen the pod: the session
stayed PAUSING for ever), billed for the seconds it ran, its capacity freed; exactly one
process hosts the cluster (the status reports come from one place). When the host is killed
with SIGKILL, the other replica takes the cluster over with the workloads it ran: a session
running before the kill is paused through the survivor."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
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


@contextmanager
def two_replicas(tmp: Path, env: dict[str, str]) -> Iterator[tuple[Served, Served]]:
    """Replicas A and B, started at once (a start is most of this test's time)."""
    managers = [gshare_serve(tmp / name, env=env) for name in ("a", "b")]
    for name in ("a", "b"):
        (tmp / name).mkdir()
    with ExitStack() as stack, ThreadPoolExecutor(2) as pool:
        started = [pool.submit(m.__enter__) for m in managers]
        for m, f in zip(managers, started, strict=True):
            if f.exception() is None:
                stack.push(m.__exit__)
        a, b = (f.result() for f in started)
        yield a, b


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
        with two_replicas(tmp_path, env) as (a, b):
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

            hosts = [p for p in (a, b) if HOSTING in p.log.read_text()]
            assert len(hosts) == 1, "exactly one process hosts the simulated cluster"
            host, survivor = hosts[0], b if hosts[0] is a else a
            print(f"pause, resume and stop through the other replica: {time.monotonic() - started:.1f} s")

            # the host dies: the survivor takes the cluster over with what it ran
            through = httpx.Client(base_url=survivor.url, timeout=30, headers={"authorization": f"Bearer {token}"})
            other = ok(gql(member_a, CREATE, i={"name": "survivor", **i})["sessionCreate"])["session"]["id"]
            _until(member_b, other, "RUNNING")
            assert host.process is not None
            host.process.send_signal(signal.SIGKILL)
            assert host.process.wait(10) == -signal.SIGKILL
            killed = time.monotonic()
            while HOSTING not in survivor.log.read_text():
                assert time.monotonic() < killed + 15, "the surviving replica did not take the simulated cluster over"
                time.sleep(0.1)
            print(f"taken over {time.monotonic() - killed:.1f} s after the kill")
            _act(through, "Pause", other)
            _until(through, other, "PAUSED")
            assert hami_used(through) == before
            member_b.close()
            through.close()
    finally:
        db.drop()
