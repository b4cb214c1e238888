"""A lost node re-places its sessions, end to end on the Kubernetes API test server (issue 14,
part 3): the node a running session's pod is on is deleted; the operator reports the pod
Failed/NodeLost (with since when), the control plane puts the session back at the head of the
queue, places it on the other node and hands it off again; the operator replaces the pod there
and the session is RUNNING again, on the same open hold, its owner told, billed for no second
between the loss and the new start."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

from kubernetes_asyncio import client
from strawberry import relay

from domain.credits.model import HoldStatus
from domain.sessions.model import SessionState
from tests.integration.k8s_e2e.conftest import MODELS, NS, E2ECluster, e2e_catalog, funded_member
from tests.integration.operator.conftest import eventually
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.kubelet import Kubelet
from tests.k8s.nodes import exclusive_node
from tests.support.api import Gql, World, gid

CREATE = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""


async def _session(c: Any, sid: UUID) -> Any:
    async with c.uow() as uow:
        return await uow.sessions.get(sid)


async def test_a_deleted_node_re_places_its_session_on_another_node(
    e2e: E2ECluster, kubelet: Kubelet, container: Any, world: World, cp_http: Any
) -> None:
    c = container
    await e2e.start_operator("op-node-loss", node_lost_after=1.0)
    # a second node of the same cards: the inventory callback brings it into capacity
    async with client.ApiClient(e2e.api.configuration()) as api:
        await client.CoreV1Api(api).create_node(exclusive_node("n-ex2", cards=4, product=MODELS["exclusive"]))

    async def reported() -> bool:
        async with c.uow() as uow:
            return any(n.name == "n-ex2" for n in (await uow.capacity.inventory()).nodes_of(e2e.id))

    await eventually(reported, within=15, message="inventory callback stored n-ex2")
    cat = await e2e_catalog(c)
    _, token = await funded_member(c, world, credits_=1000)
    gql = Gql(cp_http, token)
    await gql(
        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=gid("Group", world.g1)
    )
    data = await gql(
        CREATE,
        input={
            "name": "node-loss",
            "imageId": gid("Image", cat.image.id),
            "presetId": gid("Preset", cat.presets["exclusive"].id),
            "offeringId": gid("Offering", cat.offerings["exclusive"].id),
            "clusterId": e2e.id,
            "expiry": "H4",
        },
    )
    assert data["sessionCreate"]["errors"] == [], data
    sid = UUID(relay.GlobalID.from_id(data["sessionCreate"]["session"]["id"]).node_id)
    first = await wait_state(c, sid, SessionState.RUNNING, within=20)
    pod = e2e.api.get("pods", f"s-{sid}", NS)
    assert pod is not None
    lost_node = pod["spec"]["nodeSelector"]["kubernetes.io/hostname"]
    other = "n-ex2" if lost_node == "n-ex" else "n-ex"
    await asyncio.sleep(1.5)

    deleted_at = c.clock.now()
    async with client.ApiClient(e2e.api.configuration()) as api:
        await client.CoreV1Api(api).delete_node(lost_node)

    async def running_elsewhere() -> Any:
        s = await _session(c, sid)
        placed = e2e.api.get("pods", f"s-{sid}", NS)
        on = placed["spec"]["nodeSelector"]["kubernetes.io/hostname"] if placed else None
        if s.state is SessionState.RUNNING and s.running_since > deleted_at and on == other:
            return s
        return None

    again = await eventually(running_elsewhere, within=30, interval=0.1, message="RUNNING again on the other node")
    assert again.placement["node_id"].endswith(other)
    assert again.hold_id == first.hold_id
    hold = await c.credits.ledger.get_hold(again.hold_id)
    assert hold is not None and hold.status is HoldStatus.OPEN
    # billed up to the loss, never past it: the first run's seconds end by the node's deletion
    assert again.billed_seconds <= int((deleted_at - first.running_since).total_seconds()) + 1
    async with c.uow() as uow:
        notes, _ = await uow.notifications.of_user(again.owner_id, 0, 50)
    assert any(n.kind == "session_replaced" and n.session_id == sid for n in notes)
