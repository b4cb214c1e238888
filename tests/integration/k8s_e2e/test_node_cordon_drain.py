"""`nodeCordonSet` and `nodeDrain` on a registered Kubernetes cluster (issue 18): the cordon is
the Node's `spec.unschedulable`, set and cleared by a PATCH of the Node as `kubectl cordon` /
`uncordon` do, and mirrored in gshare's capacity; a cordoned node takes no new placement; a
drain pauses the node's sessions (their pods go) and resumes each on the other node."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from tests.integration.k8s_e2e.conftest import MODELS, NS, E2ECluster, e2e_catalog, funded_member
from tests.integration.operator.conftest import eventually
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.kubelet import Kubelet
from tests.k8s.nodes import exclusive_node
from tests.support.api import Gql, World

CORDON = """
mutation($input: NodeCordonSetInput!) {
  nodeCordonSet(input: $input) { nodeId cordoned errors { code field message } }
}"""
DRAIN = """
mutation($input: NodeDrainInput!) {
  nodeDrain(input: $input) { nodeId drainedSessions skippedSessions errors { code field message } }
}"""


async def _session(c: Any, sid: UUID) -> Any:
    async with c.uow() as uow:
        return await uow.sessions.get(sid)


async def _cordoned_in_capacity(c: Any, node_id: str) -> bool:
    async with c.uow() as uow:
        return bool((await uow.capacity.inventory()).node(node_id).cordoned)


def _pod_node(e2e: E2ECluster, sid: UUID) -> str | None:
    pod = e2e.api.get("pods", f"s-{sid}", NS)
    return None if pod is None else pod["spec"].get("nodeName")


async def test_cordon_is_the_nodes_unschedulable_and_a_drain_moves_its_sessions(
    e2e: E2ECluster, admin: Gql, container: Any, world: World, kubelet: Kubelet
) -> None:
    c = container
    # a second node of the exclusive model, so a drained session has somewhere to go
    e2e.api.seed(exclusive_node("n-ex2", cards=4, product=MODELS["exclusive"]))
    await e2e.start_operator()

    async def both_reported() -> bool:
        async with c.uow() as uow:
            names = {n.name for n in (await uow.capacity.inventory()).nodes_of(e2e.id)}
        return {"n-ex", "n-ex2"} <= names

    await eventually(both_reported, within=10, message="both exclusive nodes in capacity")
    cat = await e2e_catalog(c)
    actor, _ = await funded_member(c, world, credits_=1000)

    def request(name: str) -> sessions.SessionRequest:
        return sessions.SessionRequest(
            name=name,
            image_id=cat.image.id,
            preset_id=cat.presets["exclusive"].id,
            offering_id=cat.offerings["exclusive"].id,
            cluster=e2e.id,
        )

    started: list[UUID] = []
    try:
        first = await sessions.session_create(c.sessions, actor, request("cordon-a"))
        started.append(first.id)
        first = await wait_state(c, first.id, SessionState.RUNNING, within=15)
        here_id = first.placement["node_id"]
        here = here_id.split("/", 1)[1]
        there = "n-ex2" if here == "n-ex" else "n-ex"
        assert _pod_node(e2e, first.id) == here

        # cordon: a PATCH of the Node, spec.unschedulable true on the cluster and in capacity
        mark = len(e2e.api.requests)
        data = (await admin(CORDON, input={"clusterId": e2e.id, "nodeId": here, "cordoned": True}))["nodeCordonSet"]
        assert data == {"nodeId": here_id, "cordoned": True, "errors": []}
        node_writes = [(w.method, w.path, w.content_type) for w in e2e.api.writes(mark) if "/nodes" in w.path]
        # kubectl cordon's own request: a strategic merge patch of the Node
        assert node_writes == [("PATCH", f"/api/v1/nodes/{here}", "application/strategic-merge-patch+json")]
        assert e2e.api.get("nodes", here)["spec"].get("unschedulable") is True  # type: ignore[index]
        assert await _cordoned_in_capacity(c, here_id)
        assert (await _session(c, first.id)).state is SessionState.RUNNING  # what runs there stays

        # uncordon clears it, as `kubectl uncordon` does (the field is gone, not false)
        data = (await admin(CORDON, input={"clusterId": e2e.id, "nodeId": here_id, "cordoned": False}))["nodeCordonSet"]
        assert data["errors"] == [] and data["cordoned"] is False
        assert not e2e.api.get("nodes", here)["spec"].get("unschedulable")  # type: ignore[index]
        assert not await _cordoned_in_capacity(c, here_id)

        # cordoned again, the node gets no new placement though two of its four cards are free
        data = (await admin(CORDON, input={"clusterId": e2e.id, "nodeId": here, "cordoned": True}))["nodeCordonSet"]
        assert data["errors"] == []
        second = await sessions.session_create(c.sessions, actor, request("cordon-b"))
        started.append(second.id)
        second = await wait_state(c, second.id, SessionState.RUNNING, within=15)
        assert second.placement["node_id"] == f"{e2e.id}/{there}"
        assert _pod_node(e2e, second.id) == there

        # drain: the session's pod leaves the node and it runs on the other one
        data = (await admin(DRAIN, input={"clusterId": e2e.id, "nodeId": here}))["nodeDrain"]
        assert data["errors"] == [] and data["nodeId"] == here_id and data["skippedSessions"] == []
        assert len(data["drainedSessions"]) == 1

        async def moved() -> Any:
            s = await _session(c, first.id)
            return s if s.state is SessionState.RUNNING and s.placement["node_id"] != here_id else None

        resumed = await eventually(moved, within=20, interval=0.1, message="drained session running elsewhere")
        assert resumed.placement["node_id"] == f"{e2e.id}/{there}"
        assert _pod_node(e2e, first.id) == there
        assert e2e.api.get("nodes", here)["spec"].get("unschedulable") is True  # type: ignore[index]
    finally:
        for sid in started:
            s = await _session(c, sid)
            if s is not None and s.state not in (SessionState.STOPPED, SessionState.STOPPING):
                await sessions.session_stop(c.sessions, actor, sid)
