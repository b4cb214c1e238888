"""The worker shape (issue 14, "Workers hold no cluster connections"): a second container built
and composed the way `gshare worker` composes it (workers.main.serve_worker: build_container,
then start_runtime(..., ProcessKind.WORKER)), sharing the database and the event bus with the
API process of the other fixtures. The cluster is registered after the worker started.

- The worker holds an adapter of the registered cluster, reconnects it when its kubeconfig
  changes and closes it when the cluster is deregistered.
- Expiry run by the worker deletes the workload on the cluster (not only the rows); a pause by
  the worker (what idle reclaim and "hold ran out" call: session_pause as the system) deletes
  the pod too.
- The capacity the expiry freed admits the queued session, and the worker's hand-off applies it
  on the cluster: it reaches RUNNING instead of FAILED with "no adapter for cluster".
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from sqlalchemy import update
from strawberry import relay

from domain.sessions import services as sessions
from domain.sessions.jobs import SYSTEM_ACTOR
from domain.sessions.model import SessionState
from infra.clusters.repository import CLUSTERS_TOPIC
from infra.db.models.inventory import ClusterRow
from infra.db.models.sessions import SessionRow
from tests.integration.k8s_e2e.conftest import NS, E2ECluster, e2e_catalog, forget_cluster, funded_member
from tests.integration.operator.conftest import eventually
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.kubelet import Kubelet
from tests.support.api import Gql, World, gid

CREATE = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""


@pytest.fixture
async def worker(container: Any) -> AsyncIterator[Any]:
    """A worker process's container and composition (one event bus with the API container, as
    Redis would give them)."""
    from infra.bootstrap import build_container
    from infra.runtime import ProcessKind, start_runtime
    from infra.settings import Settings

    w = build_container(
        Settings(database_url=container.database_url, demo=False), container.database_url, events=container.events
    )
    runtime = await start_runtime(w, ProcessKind.WORKER)
    try:
        yield w
    finally:
        await runtime.aclose()
        await w.engine.dispose()


def _sid(created: dict[str, Any]) -> UUID:
    return UUID(relay.GlobalID.from_id(created["session"]["id"]).node_id)


async def test_the_worker_deletes_workloads_and_hands_the_queue_off(
    worker: Any, e2e: E2ECluster, kubelet: Kubelet, container: Any, world: World, cp_http: Any
) -> None:
    # registered after the worker started: the registration's announcement connected it
    await eventually(lambda: worker.clusters.get(e2e.id) is not None, within=10, message="worker adapter")
    await e2e.start_operator("op-worker-shape")
    cat = await e2e_catalog(container)
    _, token = await funded_member(container, world, credits_=1000)
    gql = Gql(cp_http, token)
    await gql(
        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=gid("Group", world.g1)
    )
    # two cards each on the four-card node: two placed, the third queued
    ids: list[UUID] = []
    states: list[str] = []
    for i in range(3):
        data = await gql(
            CREATE,
            input={
                "name": f"worker-shape-{i}",
                "imageId": gid("Image", cat.image.id),
                "presetId": gid("Preset", cat.presets["exclusive"].id),
                "offeringId": gid("Offering", cat.offerings["exclusive"].id),
                "clusterId": e2e.id,
                "expiry": "H4",
            },
        )
        created = data["sessionCreate"]
        assert created["errors"] == [], created
        ids.append(_sid(created))
        states.append(created["session"]["state"])
    assert states == ["SCHEDULED", "SCHEDULED", "QUEUED"]
    first, second, queued = ids
    for sid in (first, second):
        await wait_state(container, sid, SessionState.RUNNING, within=15)
        assert e2e.api.get("pods", f"s-{sid}", NS) is not None

    # the first one's time is up: the worker's expiry job stops it and deletes its workload
    async with container.uow() as uow:
        await uow.session.execute(
            update(SessionRow)
            .where(SessionRow.id == first)
            .values(expires_at=container.clock.now() - timedelta(seconds=1))
        )
        await uow.commit()
    from workers import jobs

    summary = await jobs.expire_sessions(worker)
    assert "1 session(s) expired" in summary.text and summary.counts["expired"] == "1", summary
    await wait_state(container, first, SessionState.EXPIRED, within=5)
    await eventually(lambda: e2e.api.get("gsharesessions", f"s-{first}", NS) is None, within=10, message="CR gone")
    await eventually(lambda: e2e.api.get("pods", f"s-{first}", NS) is None, within=10, message="expired pod gone")

    # the freed cards admitted the queued session, handed off by the worker
    running = await wait_state(container, queued, SessionState.RUNNING, SessionState.FAILED, within=15)
    assert running.state is SessionState.RUNNING, running.state_reason
    assert e2e.api.get("pods", f"s-{queued}", NS) is not None

    # a system pause from the worker (idle reclaim, a hold that ran out) deletes the pod
    await sessions.session_pause(worker.sessions, SYSTEM_ACTOR, second)
    await wait_state(container, second, SessionState.PAUSED, within=15)
    await eventually(lambda: e2e.api.get("pods", f"s-{second}", NS) is None, within=10, message="paused pod gone")

    await sessions.session_stop(container.sessions, SYSTEM_ACTOR, queued)
    await wait_state(container, queued, SessionState.STOPPED, within=15)


async def test_the_worker_follows_changes_and_deregistration(
    worker: Any, e2e: E2ECluster, container: Any, tmp_path: Path
) -> None:
    from infra.clusters.wiring import secret_box

    port = await eventually(lambda: worker.clusters.get(e2e.id), within=10, message="worker adapter")
    assert len((await port.read_inventory()).nodes) == 4

    # a new kubeconfig (another token) is a new version: the worker reconnects with it
    kubeconfig = e2e.api.write_kubeconfig(tmp_path / "rotated.kubeconfig", token="cp-rotated", user="gshare-cp")
    async with container.uow() as uow:
        await uow.session.execute(
            update(ClusterRow)
            .where(ClusterRow.id == e2e.id)
            .values(kubeconfig_encrypted=secret_box(container).encrypt(kubeconfig.read_text()))
        )
        uow.publish_after_commit(CLUSTERS_TOPIC, {"clusterId": e2e.id, "change": "changed"})
        await uow.commit()
    rotated = await eventually(
        lambda: (p := worker.clusters.get(e2e.id)) is not None and p is not port and p, within=10, message="reconnect"
    )
    assert len((await rotated.read_inventory()).nodes) == 4

    # deregistered: the worker's adapter is closed and gone
    await forget_cluster(container, e2e.id)
    await eventually(lambda: worker.clusters.get(e2e.id) is None, within=10, message="adapter closed")
