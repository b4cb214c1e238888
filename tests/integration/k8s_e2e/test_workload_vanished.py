"""A workload the control plane believes running but the cluster lacks is re-placed (issue 14,
Build): a running session's GShareSession is removed without the operator's deletion report
(its finalizer stripped while no operator ran: a restored cluster, a forced removal); the
operator's next inventory lists the sessions the cluster has, the control plane finds the
session missing and places it again, and it runs again on the same hold."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from kubernetes_asyncio import client
from strawberry import relay

from domain.sessions.model import SessionState
from tests.integration.k8s_e2e.conftest import NS, E2ECluster, e2e_catalog, funded_member
from tests.integration.operator.conftest import eventually
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.kubelet import Kubelet
from tests.support.api import Gql, World, gid

CREATE = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""


async def test_a_running_session_whose_workload_vanished_is_placed_again(
    e2e: E2ECluster, kubelet: Kubelet, container: Any, world: World, cp_http: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = container
    monkeypatch.setattr(c.settings, "residue_grace_seconds", 1)
    operator = await e2e.start_operator("op-vanish-1", inventory_interval=1.0)
    cat = await e2e_catalog(c)
    _, token = await funded_member(c, world, credits_=1000)
    gql = Gql(cp_http, token)
    await gql(
        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=gid("Group", world.g1)
    )
    data = await gql(
        CREATE,
        input={
            "name": "vanish",
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
    await operator.controller.wait_idle()
    await e2e.stop_operator(operator)

    # gone without a word: the finalizer stripped, the resource deleted (its pod collected)
    name = f"s-{sid}"
    async with client.ApiClient(e2e.api.configuration()) as api:
        custom = client.CustomObjectsApi(api)
        await custom.patch_namespaced_custom_object(
            "gshare.io",
            "v1alpha1",
            NS,
            "gsharesessions",
            name,
            {"metadata": {"finalizers": []}},
            _content_type="application/merge-patch+json",
        )
        await custom.delete_namespaced_custom_object("gshare.io", "v1alpha1", NS, "gsharesessions", name)
    await eventually(lambda: e2e.api.get("gsharesessions", name, NS) is None, within=10, message="CR gone")
    removed_at = c.clock.now()
    async with c.uow() as uow:
        assert (await uow.sessions.get(sid)).state is SessionState.RUNNING  # the control plane does not know yet

    await e2e.start_operator("op-vanish-2", inventory_interval=1.0)

    async def running_again() -> Any:
        async with c.uow() as uow:
            s = await uow.sessions.get(sid)
        ok = s.state is SessionState.RUNNING and s.running_since > removed_at
        return s if ok and e2e.api.get("pods", name, NS) is not None else None

    again = await eventually(running_again, within=30, interval=0.2, message="RUNNING again")
    assert again.hold_id == first.hold_id
    async with c.uow() as uow:
        notes, _ = await uow.notifications.of_user(again.owner_id, 0, 50)
    assert any(n.kind == "session_replaced" and n.session_id == sid for n in notes)
