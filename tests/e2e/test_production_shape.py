"""Issue 14, Must show 1: the production shape end to end on this machine.

Two `gshare serve` replicas, one `gshare worker` and one `gshare operator`, started from the
rendered Helm chart (tests/support/production.py), on PostgreSQL and Redis, drive the Kubernetes
API test server whose nodes are recorded HAMi nodes. Through replica A a member creates two
sessions; through replica B (a `mySessions` subscription) she watches them reach RUNNING; a third
waits in the queue. The worker expires the first (its pod deleted, its card freed, its hold
settled to the second) and admits the queued one onto the freed card. The node of the second is
deleted: the session comes back RUNNING on another node on the same hold, billed for no second
it was not running."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
from kubernetes_asyncio import client
from sqlalchemy import select, update
from strawberry import relay

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier
from domain.credits.model import HoldStatus
from domain.sessions.model import SessionState
from infra.db.models.credits import CreditTransferRow
from infra.db.models.inventory import PlacementRow
from infra.db.models.sessions import SessionRow
from tests.integration.k8s_e2e.conftest import REGISTER, e2e_catalog, funded_member
from tests.k8s.kubelet import Kubelet
from tests.k8s.nodes import hami_node
from tests.support.api import SYSTEM, build_world, gid, unique
from tests.support.database import TestDatabase, create_test_database
from tests.support.production import NS, Production, production, public_pem, until
from tests.support.services import require_redis
from tests.support.ws import graphql_ws, subscribe

pytestmark = pytest.mark.e2e

RATE_PER_SECOND = 1000  # an H100 at 3.6 credits/hour (e2e_catalog), taken whole
CREATE = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""
CLOSED = (HoldStatus.SETTLED, HoldStatus.RELEASED)
JOB_PERIODS = "sessions.expire=1,sessions.drain_queue=1,sessions.meter=2"


@pytest.fixture
def prod_db() -> Iterator[TestDatabase]:
    db = create_test_database(prefix="gshare_prod")
    yield db
    db.drop()


def node(name: str, cluster_salt: str) -> dict[str, Any]:
    """HAMi #961's H100 node with one card (its UUID salted per node: capacity is keyed by it)."""
    return hami_node(name, cards=1, uuid_salt=f"{cluster_salt}/{name}")


class Client:
    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token

    async def __call__(self, query: str, **variables: Any) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=self.url, timeout=30) as h:
            r = await h.post(
                "/graphql",
                json={"query": query, "variables": variables},
                headers={"authorization": f"Bearer {self.token}"},
            )
        body = r.json()
        assert not body.get("errors"), body
        return body["data"]  # type: ignore[no-any-return]


def _sid(created: dict[str, Any]) -> UUID:
    return UUID(relay.GlobalID.from_id(created["session"]["id"]).node_id)


async def test_two_replicas_a_worker_and_the_charts_operator_on_hami_nodes(
    prod_db: TestDatabase, tmp_path: Path
) -> None:
    from infra.bootstrap import build_container
    from infra.settings import Settings

    started = time.monotonic()
    redis_url = require_redis()
    salt = f"ps-{tmp_path.name}"
    c = build_container(Settings(database_url=prod_db.url, redis_url=redis_url, demo=False), prod_db.url)
    async with production(
        tmp_path,
        database_url=prod_db.url,
        redis_url=redis_url,
        nodes=[node("n-hami-1", salt), node("n-hami-2", salt)],
        job_periods=JOB_PERIODS,
    ) as prod:
        kubelet = Kubelet(client.ApiClient(prod.api.configuration()), server=prod.api)
        kubelet.start()
        try:
            up = time.monotonic()
            print(f"production shape: processes up in {up - started:.1f} s")
            await _scenario(prod, c, up)
        except BaseException:
            print(prod.logs())
            raise
        finally:
            await kubelet.stop()
    await c.aclose()


async def _session(c: Any, sid: UUID) -> Any:
    async with c.uow() as uow:
        return await uow.sessions.get(sid)


async def _scenario(prod: Production, c: Any, started: float) -> None:
    world = await build_world(c)
    a, b = prod.urls
    admin = Client(a, world.tokens["super_admin"])
    registered = await admin(
        REGISTER,
        input={
            "id": prod.cluster_id,
            "name": f"Production {prod.cluster_id}",
            "kubeconfig": prod.control_plane_kubeconfig.read_text(),
            "callbackPublicKey": public_pem(prod.key),
            "placementPolicy": "BEST_FIT",
        },
    )
    assert registered["clusterRegister"]["errors"] == [], registered

    async def nodes_known() -> set[str]:
        async with c.uow() as uow:
            return {n.name for n in (await uow.capacity.inventory()).nodes_of(prod.cluster_id)}

    await until(lambda: _has(nodes_known, {"n-hami-1", "n-hami-2"}), 30, "the operator's inventory reached replica A")

    cat = await e2e_catalog(c)
    async with c.uow() as uow:
        whole = await catalog.preset_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("prod-whole"),
            cpu_millicores=1000,
            memory_mib=2048,
            disk_gib=10,
            shm_mib=256,
            tier=GpuTier.EXCLUSIVE,
            gpu_count=1,
        )
        await uow.commit()
    _, token = await funded_member(c, world, credits_=1000)
    on_a, on_b = Client(a, token), Client(b, token)
    await on_a(
        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=gid("Group", world.g1)
    )
    request = {
        "imageId": gid("Image", cat.image.id),
        "presetId": gid("Preset", whole.id),
        "offeringId": gid("Offering", cat.offerings["hami"].id),
        "clusterId": prod.cluster_id,
        "expiry": "H4",
    }

    ws_url = b.replace("http", "ws") + "/graphql"
    async with graphql_ws(ws_url, {"authorization": f"Bearer {token}"}) as ws:
        watch = await subscribe(ws, "mine", "subscription { mySessions { id state } }")
        await watch.next(within=10)  # the current list (empty)
        ids: list[UUID] = []
        for name in ("first", "second"):
            created = (await on_a(CREATE, input={"name": name, **request}))["sessionCreate"]
            assert created["errors"] == [], created
            assert created["session"]["state"] == "SCHEDULED", created
            ids.append(_sid(created))
        first, second = ids
        wanted = {gid("Session", first), gid("Session", second)}
        seen: dict[str, str] = {}
        deadline = time.monotonic() + 30
        while not (wanted <= set(seen) and all(seen[i] == "RUNNING" for i in wanted)):
            assert time.monotonic() < deadline, f"replica B did not show both RUNNING: {seen}"
            listed = (await watch.next(within=30))["mySessions"]
            seen = {s["id"]: s["state"] for s in listed}

    # both cards taken: the third waits in the queue (created through B)
    created = (await on_b(CREATE, input={"name": "third", **request}))["sessionCreate"]
    assert created["errors"] == [] and created["session"]["state"] == "QUEUED", created
    third = _sid(created)
    s1 = await _session(c, first)
    s2 = await _session(c, second)
    node_of = {s.id: s.placement["node_id"].rsplit("/", 1)[-1] for s in (s1, s2)}
    assert set(node_of.values()) == {"n-hami-1", "n-hami-2"}, node_of
    for sid in (first, second):
        assert prod.api.get("pods", f"s-{sid}", NS) is not None

    # the first one's time is up (its end moved to now): the worker's expiry job ends it
    end = datetime.now(UTC)
    async with c.uow() as uow:
        await uow.session.execute(update(SessionRow).where(SessionRow.id == first).values(expires_at=end))
        await uow.commit()

    async def expired() -> Any:
        s = await _session(c, first)
        return s if s.state is SessionState.EXPIRED else None

    await until(expired, 20, "the worker expired the first session")
    await until(lambda: prod.api.get("pods", f"s-{first}", NS) is None, 15, "the expired session's pod deleted")
    # the settlement follows the state's commit (an effect of it): wait for the hold to close
    hold = await until(lambda: _closed_hold(c, s1.hold_id), 15, "the first session's hold closed")
    s1_end = await _session(c, first)
    ran = (end - s1.running_since).total_seconds()
    # billed to the second it stopped running: its end, or the tick that saw it still running
    assert ran - 1 <= s1_end.billed_seconds <= ran + 2, (s1_end.billed_seconds, ran)
    charges = await _charges(c, hold.id)
    assert hold.charged_micro == s1_end.charged_micro == s1_end.billed_seconds * RATE_PER_SECOND, (charges, s1_end)
    assert sum(amount for _, amount, _ in charges) == hold.charged_micro, charges
    assert hold.amount_micro == 0

    # the freed card admitted the queued session (the worker's drain), on the first one's node
    async def third_running() -> Any:
        s = await _session(c, third)
        assert s.state is not SessionState.FAILED, s.state_reason
        return s if s.state is SessionState.RUNNING else None

    s3 = await until(third_running, 20, "the queued session RUNNING on the freed card")
    assert s3.placement["node_id"].endswith(node_of[first])
    assert prod.api.get("pods", f"s-{third}", NS) is not None
    assert await _placed(c) == {str(second), str(third)}  # the first one's card is free, nothing else held

    # a new node joins; the second session's node is deleted: it comes back on the new one
    async with client.ApiClient(prod.api.configuration()) as k:
        await client.CoreV1Api(k).create_node(node("n-hami-3", f"ps-{prod.cluster_id}"))
        await until(lambda: _has(nodes_known, {"n-hami-3"}), 20, "n-hami-3 in the inventory")
        lost_at = datetime.now(UTC)
        await client.CoreV1Api(k).delete_node(node_of[second])

    async def back() -> Any:
        s = await _session(c, second)
        pod = prod.api.get("pods", f"s-{second}", NS)
        on = pod["spec"]["nodeSelector"].get("kubernetes.io/hostname") if pod else None
        if s.state is SessionState.RUNNING and s.running_since > lost_at and on == "n-hami-3":
            return s
        return None

    again = await until(back, 30, "the second session RUNNING again on n-hami-3")
    assert again.hold_id == s2.hold_id
    # stopped through B: billed for the first run up to the loss and the second run, no more
    stopped = await on_b(
        "mutation($id: ID!) { sessionStop(input: {id: $id}) { errors { code } } }", id=gid("Session", second)
    )
    assert stopped["sessionStop"]["errors"] == [], stopped
    stop_at = datetime.now(UTC)

    async def ended() -> Any:
        s = await _session(c, second)
        return s if s.state is SessionState.STOPPED else None

    await until(ended, 20, "the second session STOPPED")
    hold2 = await until(lambda: _closed_hold(c, s2.hold_id), 15, "the second session's hold closed")
    final = await _session(c, second)
    running = (lost_at - s2.running_since).total_seconds() + (stop_at - again.running_since).total_seconds()
    gap = (again.running_since - lost_at).total_seconds()  # lost, re-queued, placed, started: not billed
    assert final.billed_seconds <= running + 1, (final.billed_seconds, running, gap)
    charges = await _charges(c, hold2.id)
    assert hold2.amount_micro == 0, hold2
    assert hold2.charged_micro == final.charged_micro == final.billed_seconds * RATE_PER_SECOND, (charges, final)
    assert sum(amount for _, amount, _ in charges) == hold2.charged_micro, charges
    await until(lambda: prod.api.get("pods", f"s-{second}", NS) is None, 15, "the stopped session's pod deleted")
    assert await _placed(c) == {str(third)}
    pods = {p["metadata"]["name"] for p in prod.api.list("pods", NS)}
    assert pods == {f"s-{third}"}, pods
    print(f"production shape: scenario in {time.monotonic() - started:.1f} s")


async def _has(check: Any, names: set[str]) -> bool:
    return names <= await check()


async def _closed_hold(c: Any, hold_id: UUID) -> Any:
    hold = await c.credits.ledger.get_hold(hold_id)
    return hold if hold is not None and hold.status in CLOSED else None


async def _charges(c: Any, hold_id: UUID) -> list[tuple[str, int, str]]:
    """The hold's charges as the ledger has them (key, amount, when): shown when they disagree."""
    async with c.uow() as uow:
        rows = await uow.session.execute(
            select(CreditTransferRow.idempotency_key, CreditTransferRow.amount_micro, CreditTransferRow.created_at)
            .where(CreditTransferRow.hold_id == hold_id, CreditTransferRow.kind == "charge")
            .order_by(CreditTransferRow.seq)
        )
        return [(k, a, t.isoformat()) for k, a, t in rows]


async def _placed(c: Any) -> set[str]:
    async with c.uow() as uow:
        rows = (await uow.session.execute(select(PlacementRow.workload_id))).scalars().all()
    return set(rows)
