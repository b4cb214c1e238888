"""sessionCreate → GShareSession applied by the adapter → the operator's pod, service, ingress and
secret with the GPU resources of each kind → the test kubelet starts the pod → a signed callback
through the control plane's HTTP endpoint → RUNNING and billing; pause deletes the pod and
ends PAUSED; deleting the CR cleans up every child; a restarted operator changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

from kubernetes_asyncio import client

from domain.credits.model import AccountRef
from domain.sessions.model import SessionState
from tests.integration.k8s_e2e.conftest import NS, VRAM, E2ECluster, e2e_catalog, funded_member, node_manifest
from tests.integration.operator.conftest import eventually
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.kubelet import Kubelet
from tests.support.api import Gql, World, gid

CREATE = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""
PAUSE = "mutation($id: ID!) { sessionPause(input: {id: $id}) { session { state } errors { code message } } }"

EXPECTED_LIMITS = {
    # an L tier (1/4) of HAMi #961's H100 as HAMi registered it (81559 MiB)
    "hami": {"nvidia.com/gpu": "1", "nvidia.com/gpumem": str(VRAM["hami"] // 4), "nvidia.com/gpucores": "25"},
    "timeslice": {"nvidia.com/gpu.shared": "1"},
    "mig": {"nvidia.com/mig-1g.10gb": "1"},
    "exclusive": {"nvidia.com/gpu": "2"},
}
NODES = {"hami": "n-hami", "timeslice": "n-ts", "mig": "n-mig", "exclusive": "n-ex"}
GPU_RESOURCES = {
    "nvidia.com/gpu",
    "nvidia.com/gpumem",
    "nvidia.com/gpucores",
    "nvidia.com/gpu.shared",
    "nvidia.com/mig-1g.10gb",
}
CHILDREN = ("pods", "services", "ingresses")


def _children(e2e: E2ECluster, name: str) -> dict[str, Any]:
    found = {plural: e2e.api.get(plural, name, NS) for plural in CHILDREN}
    found["secrets"] = e2e.api.get("secrets", f"{name}-access", NS)
    return found


async def _session(c: Any, sid: UUID) -> Any:
    async with c.uow() as uow:
        return await uow.sessions.get(sid)


async def test_every_gpu_kind_runs_bills_pauses_and_cleans_up(
    e2e: E2ECluster, kubelet: Kubelet, container: Any, world: World, cp_http: Any
) -> None:
    c = container
    operator = await e2e.start_operator("op-first")
    # a node that appears is reported by the operator (signed inventory callback) into capacity
    async with client.ApiClient(e2e.api.configuration()) as api:
        extra = node_manifest({"name": "n-extra", "labels": {}, "resources": {}})
        await client.CoreV1Api(api).create_node(extra)

    async def reported() -> bool:
        async with c.uow() as uow:
            return any(n.name == "n-extra" for n in (await uow.capacity.inventory()).nodes_of(e2e.id))

    await eventually(reported, within=10, message="inventory callback stored the new node")
    cat = await e2e_catalog(c)
    actor, token = await funded_member(c, world, credits_=1000)
    gql = Gql(cp_http, token)
    await gql(
        "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }", g=gid("Group", world.g1)
    )

    ids: dict[str, UUID] = {}
    for kind in EXPECTED_LIMITS:
        data = await gql(
            CREATE,
            input={
                "name": f"e2e-{kind}",
                "imageId": gid("Image", cat.image.id),
                "presetId": gid("Preset", cat.presets[kind].id),
                "offeringId": gid("Offering", cat.offerings[kind].id),
                "clusterId": e2e.id,
                "shared": kind == "timeslice",
                "expiry": "H4",
            },
        )
        created = data["sessionCreate"]
        assert created["errors"] == [], (kind, created["errors"])
        assert created["session"]["state"] == "SCHEDULED"
        from strawberry import relay

        ids[kind] = UUID(relay.GlobalID.from_id(created["session"]["id"]).node_id)

    for kind, sid in ids.items():
        name = f"s-{sid}"
        cr = await eventually(lambda n=name: e2e.api.get("gsharesessions", n, NS), message=f"{kind}: CR applied")
        assert cr["spec"]["sessionId"] == str(sid)
        children = await eventually(
            lambda n=name: (ch := _children(e2e, n)) and all(ch.values()) and ch, message=f"{kind}: children"
        )
        pod = children["pods"]
        limits = pod["spec"]["containers"][0]["resources"]["limits"]
        assert {k: v for k, v in limits.items() if k in GPU_RESOURCES} == EXPECTED_LIMITS[kind], kind
        assert pod["spec"]["nodeSelector"]["kubernetes.io/hostname"] == NODES[kind]
        assert children["ingresses"]["spec"]["rules"], kind
        running = await wait_state(c, sid, SessionState.RUNNING, within=15)
        assert running.running_since is not None, kind  # billing starts at the Running callback
        assert running.endpoints.jupyterlab and "sessions.e2e.test" in running.endpoints.jupyterlab

    await asyncio.sleep(1.2)

    # pause (through GraphQL): the CR and the pod go, the session ends PAUSED and is billed
    hami = ids["hami"]
    paused = await gql(PAUSE, id=gid("Session", hami))
    assert paused["sessionPause"]["errors"] == []
    final = await wait_state(c, hami, SessionState.PAUSED, within=15)
    assert e2e.api.get("pods", f"s-{hami}", NS) is None
    await eventually(lambda: e2e.api.get("gsharesessions", f"s-{hami}", NS) is None, message="paused CR gone")
    assert final.billed_seconds >= 1 and final.charged_micro > 0 and final.placement is None

    # deleting a CR in the cluster cleans up every child (and the session stops)
    ex = ids["exclusive"]
    async with client.ApiClient(e2e.api.configuration()) as api:
        await client.CustomObjectsApi(api).delete_namespaced_custom_object(
            "gshare.io", "v1alpha1", NS, "gsharesessions", f"s-{ex}"
        )
    await eventually(lambda: not any(_children(e2e, f"s-{ex}").values()), message="children of a deleted CR")
    await eventually(lambda: e2e.api.get("gsharesessions", f"s-{ex}", NS) is None)
    await wait_state(c, ex, SessionState.STOPPED, within=15)

    # a restarted operator changes nothing that is already right
    await operator.controller.wait_idle()
    await e2e.stop_operator(operator)

    def versions() -> dict[tuple[str, str], str]:
        return {
            (plural, obj["metadata"]["name"]): obj["metadata"]["resourceVersion"]
            for plural in ("gsharesessions", *CHILDREN, "secrets")
            for obj in e2e.api.list(plural, NS)
        }

    before = versions()
    states_before = {k: (await _session(c, sid)).state for k, sid in ids.items()}
    mark = len(e2e.api.requests)
    second = await e2e.start_operator("op-second", leader_election=True)
    await eventually(lambda: second.controller.reconciles >= 2)
    await second.controller.wait_idle()
    assert versions() == before
    assert [(w.method, w.path) for w in e2e.api.writes(mark) if "/leases" not in w.path] == []
    assert {k: (await _session(c, sid)).state for k, sid in ids.items()} == states_before

    # stop the rest; the wallet holds nothing afterwards and pays exactly what was charged
    for kind in ("timeslice", "mig"):
        data = await gql(
            "mutation($id: ID!) { sessionStop(input: {id: $id}) { errors { code } } }", id=gid("Session", ids[kind])
        )
        assert data["sessionStop"]["errors"] == []
    charged = 0
    for sid in ids.values():
        s = await wait_state(c, sid, SessionState.STOPPED, SessionState.PAUSED, within=15)
        charged += s.charged_micro
    # the operator reports the deletion (the session is STOPPED) before it drops its finalizer
    await eventually(
        lambda: not any(e2e.api.list(plural, NS) for plural in ("gsharesessions", *CHILDREN)),
        message="CRs and children of the stopped sessions",
    )
    b = (await c.credits.ledger.balances([AccountRef.user(actor.user_id)]))[AccountRef.user(actor.user_id)]
    assert b.held_micro == 0
    assert b.balance_micro == 1000 * 1_000_000 - charged
