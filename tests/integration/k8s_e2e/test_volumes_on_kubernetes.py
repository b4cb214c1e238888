"""Volumes as PersistentVolumeClaims, end to end (issue 16, Must show 2): the admin's storage
classes with their access modes; a personal volume and a group-shared one become claims in the
sessions namespace when they are created (ReadWriteOnce and ReadWriteMany, the class and size
asked); a group-shared volume on a class without ReadWriteMany is refused naming the class; the
claims' phases come back through the operator's inventory reports and show in GraphQL; a
session mounting the personal volume read-write and the group one read-only gets a pod whose
claims and mounts say so (and that the scheduler only starts once its claims are Bound);
deleting a mounted volume is refused, deleting it once unmounted deletes its claim; the
deployment's storage quota is the namespace's ResourceQuota. (The same calls under the shipped
RBAC: tests/integration/operator/test_rbac.py.)"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest
from kubernetes_asyncio import client
from strawberry import relay

from domain.policies.model import GLOBAL_SCOPE, ResourcePolicy
from domain.sessions.model import SessionState
from tests.integration.k8s_e2e.conftest import NS, E2ECluster, e2e_catalog, funded_member
from tests.integration.operator.conftest import eventually
from tests.integration.sessions.test_lifecycle import wait_state
from tests.k8s.kubelet import Kubelet
from tests.k8s.provisioner import Provisioner
from tests.support.api import Gql, World, gid, unique

SET_CLASS = """
mutation($input: StorageClassSetInput!) {
  storageClassSet(input: $input) { storageClass { name accessModes } errors { code field message } }
}"""
CREATE_VOLUME = """
mutation($input: VolumeCreateInput!) {
  volumeCreate(input: $input) {
    volume { id claimName accessMode phase claims { clusterId phase } }
    errors { code field message }
  }
}"""
VOLUME = """
query($id: ID!) { node(id: $id) { ... on Volume { name accessMode phase claims { clusterId phase reportedAt } } } }"""
DELETE_VOLUME = "mutation($id: ID!) { volumeDelete(input: {id: $id}) { deletedId errors { code field message } } }"
CREATE_SESSION = """
mutation($input: SessionCreateInput!) {
  sessionCreate(input: $input) { session { id state } errors { code field message } }
}"""
ACTIVE = "mutation($g: ID!) { activeGroupSet(input: {groupId: $g}) { errors { code } } }"


def _uuid(global_id: str) -> UUID:
    return UUID(relay.GlobalID.from_id(global_id).node_id)


@pytest.fixture
async def provisioner(kube_client: client.ApiClient) -> Any:
    p = Provisioner(kube_client, {})
    p.start()
    yield p
    await p.stop()


async def test_volumes_are_claims_mounted_as_permitted_and_guarded(
    e2e: E2ECluster,
    kubelet: Kubelet,
    provisioner: Provisioner,
    container: Any,
    world: World,
    cp_http: Any,
    admin: Gql,
) -> None:
    c = container
    await e2e.start_operator()
    nfs, local = unique("nfs"), unique("local")
    provisioner.classes.update({nfs: ("ReadWriteOnce", "ReadWriteMany"), local: ("ReadWriteOnce",)})
    for name, modes in ((nfs, ["READ_WRITE_MANY", "READ_WRITE_ONCE"]), (local, ["READ_WRITE_ONCE"])):
        data = await admin(SET_CLASS, input={"name": name, "description": name, "accessModes": modes})
        assert data["storageClassSet"]["errors"] == []
        assert sorted(data["storageClassSet"]["storageClass"]["accessModes"]) == sorted(modes)

    old_global = await c.credits.policies.get(GLOBAL_SCOPE)
    await c.credits.policies.put(ResourcePolicy(GLOBAL_SCOPE, storage_quota_mib=64 * 1024 * 1024))
    try:
        _, token = await funded_member(c, world, credits_=1000)
        member = Gql(cp_http, token)
        await member(ACTIVE, g=gid("Group", world.g1))
        group_admin = Gql(cp_http, world.tokens["group_admin"])
        await group_admin(ACTIVE, g=gid("Group", world.g1))

        # a group-shared volume on a class without ReadWriteMany: refused, naming the class
        refused = await group_admin(
            CREATE_VOLUME,
            input={"name": unique("shared"), "sizeMib": 2048, "storageClass": local, "groupId": gid("Group", world.g1)},
        )
        (error,) = refused["volumeCreate"]["errors"]
        assert error["code"] == "STORAGE_CLASS_ACCESS_MODE" and error["field"] == "storageClass"
        assert f"storage class {local!r} offers ReadWriteOnce" in error["message"]
        assert "needs ReadWriteMany" in error["message"]
        assert not [p for p in e2e.api.list("persistentvolumeclaims", NS) if p["spec"]["storageClassName"] == local]

        personal = (
            await member(CREATE_VOLUME, input={"name": unique("home"), "sizeMib": 1024, "storageClass": local})
        )["volumeCreate"]
        assert personal["errors"] == []
        shared = (
            await group_admin(
                CREATE_VOLUME,
                input={
                    "name": unique("data"),
                    "sizeMib": 4096,
                    "storageClass": nfs,
                    "groupId": gid("Group", world.g1),
                    "memberMode": "READ_ONLY",
                },
            )
        )["volumeCreate"]
        assert shared["errors"] == []
        personal_id, shared_id = _uuid(personal["volume"]["id"]), _uuid(shared["volume"]["id"])

        # the claims exist as soon as the volumes do, as the classes and sizes say
        for volume, mode, cls, size in (
            (personal, "ReadWriteOnce", local, "1024Mi"),
            (shared, "ReadWriteMany", nfs, "4096Mi"),
        ):
            claim = volume["volume"]["claimName"]
            pvc = e2e.api.get("persistentvolumeclaims", claim, NS)
            assert pvc is not None, claim
            assert pvc["spec"]["accessModes"] == [mode]
            assert pvc["spec"]["storageClassName"] == cls
            assert pvc["spec"]["resources"]["requests"]["storage"] == size
            assert pvc["metadata"]["labels"]["gshare.io/volume-id"] in (str(personal_id), str(shared_id))
            assert volume["volume"]["accessMode"] == mode.replace("ReadWrite", "READ_WRITE_").replace(
                "Once", "ONCE"
            ).replace("Many", "MANY")
        quota = e2e.api.get("resourcequotas", "gshare-storage", NS)
        assert quota is not None and quota["spec"]["hard"] == {"requests.storage": f"{64 * 1024 * 1024}Mi"}

        # the operator reports each claim's phase; GraphQL shows it
        async def bound(volume_id: UUID) -> bool:
            node = (await member(VOLUME, id=gid("Volume", volume_id)))["node"]
            return node["phase"] == "BOUND" and {"clusterId": e2e.id, "phase": "BOUND"} in [
                {k: v for k, v in claim.items() if k != "reportedAt"} for claim in node["claims"]
            ]

        await eventually(lambda: bound(personal_id), within=10, message="personal claim reported Bound")
        await eventually(lambda: bound(shared_id), within=10, message="group claim reported Bound")

        # a session mounting the personal volume read-write and the group one read-only
        cat = await e2e_catalog(c)
        base = {
            "imageId": gid("Image", cat.image.id),
            "presetId": gid("Preset", cat.presets["exclusive"].id),
            "offeringId": gid("Offering", cat.offerings["exclusive"].id),
            "clusterId": e2e.id,
        }
        too_much = await member(
            CREATE_SESSION,
            input={
                **base,
                "name": "rw-on-ro",
                "mounts": [{"volumeId": gid("Volume", shared_id), "mountPath": "/data", "mode": "READ_WRITE"}],
            },
        )
        assert [e["code"] for e in too_much["sessionCreate"]["errors"]] == ["MOUNT_NOT_PERMITTED"], too_much
        data = await member(
            CREATE_SESSION,
            input={
                **base,
                "name": "with-volumes",
                "mounts": [
                    {"volumeId": gid("Volume", personal_id), "mountPath": "/home/work", "mode": "READ_WRITE"},
                    {"volumeId": gid("Volume", shared_id), "mountPath": "/data", "mode": "READ_ONLY"},
                ],
            },
        )
        assert data["sessionCreate"]["errors"] == []
        sid = _uuid(data["sessionCreate"]["session"]["id"])
        await wait_state(c, sid, SessionState.RUNNING, within=20)
        pod = e2e.api.get("pods", f"s-{sid}", NS)
        assert pod is not None
        claims = {
            v["persistentVolumeClaim"]["claimName"]: (v["name"], v["persistentVolumeClaim"]["readOnly"])
            for v in pod["spec"]["volumes"]
            if "persistentVolumeClaim" in v
        }
        assert {k: ro for k, (_, ro) in claims.items()} == {f"vol-{personal_id}": False, f"vol-{shared_id}": True}
        mounts = {
            m["name"]: (m["mountPath"], m.get("readOnly", False)) for m in pod["spec"]["containers"][0]["volumeMounts"]
        }
        assert mounts[claims[f"vol-{personal_id}"][0]] == ("/home/work", False)
        assert mounts[claims[f"vol-{shared_id}"][0]] == ("/data", True)

        # deleting a mounted volume is refused; the claim stays
        in_use = await member(DELETE_VOLUME, id=gid("Volume", personal_id))
        assert [e["code"] for e in in_use["volumeDelete"]["errors"]] == ["VOLUME_IN_USE"]
        assert e2e.api.get("persistentvolumeclaims", f"vol-{personal_id}", NS) is not None

        await member("mutation($id: ID!) { sessionStop(input: {id: $id}) { errors { code } } }", id=gid("Session", sid))
        await wait_state(c, sid, SessionState.STOPPED, within=15)
        gone = await member(DELETE_VOLUME, id=gid("Volume", personal_id))
        assert gone["volumeDelete"]["errors"] == []
        assert e2e.api.get("persistentvolumeclaims", f"vol-{personal_id}", NS) is None

        # a claim whose volume is lost is reported so
        await provisioner.mark_lost(f"vol-{shared_id}")

        async def lost() -> bool:
            return (await member(VOLUME, id=gid("Volume", shared_id)))["node"]["phase"] == "LOST"

        await eventually(lost, within=10, message="lost claim reported")
        assert (await group_admin(DELETE_VOLUME, id=gid("Volume", shared_id)))["volumeDelete"]["errors"] == []
    finally:
        await c.credits.policies.put(old_global or ResourcePolicy(GLOBAL_SCOPE))


async def test_a_session_waits_for_its_claim_to_be_bound(
    e2e: E2ECluster, kubelet: Kubelet, container: Any, world: World, cp_http: Any, admin: Gql
) -> None:
    """No provisioner serves the class: the claim stays Pending, and so does the session's pod
    (kube-scheduler's message), until the claim is bound."""
    c = container
    await e2e.start_operator()
    slow = unique("slow")
    await admin(SET_CLASS, input={"name": slow, "accessModes": ["READ_WRITE_ONCE"]})
    _, token = await funded_member(c, world, credits_=1000)
    member = Gql(cp_http, token)
    await member(ACTIVE, g=gid("Group", world.g1))
    volume = (await member(CREATE_VOLUME, input={"name": unique("home"), "sizeMib": 512, "storageClass": slow}))[
        "volumeCreate"
    ]["volume"]
    volume_id = _uuid(volume["id"])
    assert volume["phase"] == "PENDING"
    cat = await e2e_catalog(c)
    data = await member(
        CREATE_SESSION,
        input={
            "name": "waits",
            "imageId": gid("Image", cat.image.id),
            "presetId": gid("Preset", cat.presets["exclusive"].id),
            "offeringId": gid("Offering", cat.offerings["exclusive"].id),
            "clusterId": e2e.id,
            "mounts": [{"volumeId": gid("Volume", volume_id), "mountPath": "/home/work", "mode": "READ_WRITE"}],
        },
    )
    sid = _uuid(data["sessionCreate"]["session"]["id"])

    def unscheduled() -> str | None:
        pod = e2e.api.get("pods", f"s-{sid}", NS)
        conditions = ((pod or {}).get("status") or {}).get("conditions") or []
        return next((x["message"] for x in conditions if x.get("reason") == "Unschedulable"), None)

    message = await eventually(unscheduled, within=10, message="pod held by its unbound claim")
    assert "unbound immediate PersistentVolumeClaims" in message
    async with c.uow() as uow:
        assert (await uow.sessions.get(sid)).state is not SessionState.RUNNING  # type: ignore[union-attr]
    async with client.ApiClient(e2e.api.configuration()) as api:
        await client.CoreV1Api(api).patch_namespaced_persistent_volume_claim_status(
            f"vol-{volume_id}", NS, {"status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"]}}
        )
    await wait_state(c, sid, SessionState.RUNNING, within=15)
    await member("mutation($id: ID!) { sessionStop(input: {id: $id}) { errors { code } } }", id=gid("Session", sid))
    await wait_state(c, sid, SessionState.STOPPED, within=15)
