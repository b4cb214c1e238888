"""Sessions show names, not bare ids: their group, template, volumes and approver, and the
GPU queue its sessions' names; read through DataLoaders (constant statements per page)."""

from __future__ import annotations

from typing import Any

from domain.sessions import services as sessions
from domain.sessions.model import MountMode
from domain.tenancy.services import load_actor
from domain.volumes import services as volumes
from domain.volumes.model import AccessMode, StorageClass, TemplateMount
from tests.integration.api.test_query_count import statements
from tests.integration.sessions.test_lifecycle import catalog_for, member
from tests.support.api import Gql, World, gid, unique

FIELDS = """
  id name templateId templateName group { name } approver { username }
  mounts { volumeId volumeName mountPath }
"""
APPROVALS = "query($n: Int) { pendingApprovals(first: $n) { totalCount nodes {" + FIELDS + "} } }"
SESSIONS = "query($n: Int) { sessions(first: $n) { nodes {" + FIELDS + "} } }"
QUEUE = "query { gpuQueue { sessionId sessionName } }"


async def test_sessions_show_group_template_volume_and_approver_names(
    container: Any, world: World, runtime: Any, http: Any
) -> None:
    c = container
    cat = await catalog_for(c)
    actor, _ = await member(c, world, world.g2, credits=500, approval=True, prefix="named")
    async with c.uow() as uow:
        await uow.volumes.put_storage_class(
            StorageClass("nfs", "NFS", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY))
        )
        await uow.commit()
    async with c.uow() as uow:
        volume = await volumes.volume_create(
            uow, actor, c.ids, c.clock, c.credits.policies, name=unique("data"), size_mib=1024
        )
        template = await volumes.template_create(
            uow,
            actor,
            c.ids,
            c.clock,
            group_id=world.g2,
            name=unique("recipe"),
            image_id=cat["image"].id,
            offering_id=cat["offering"].id,
            preset_id=cat["preset"].id,
            mounts=(TemplateMount(volume.id, "/data", MountMode.READ_WRITE),),
        )
        await uow.commit()
    s = await sessions.session_create(
        c.sessions,
        actor,
        sessions.SessionRequest(
            name=unique("named"),
            image_id=cat["image"].id,
            preset_id=cat["preset"].id,
            offering_id=cat["offering"].id,
            template_id=template.id,  # its volume is mounted with it
        ),
    )
    admin = Gql(http, world.tokens["org_admin"])
    pending = (await admin(APPROVALS, n=100))["pendingApprovals"]["nodes"]
    row = next(n for n in pending if n["id"] == gid("Session", s.id))
    assert row["group"] == {"name": "G2"}
    assert row["templateId"] == gid("Template", template.id) and row["templateName"] == template.name
    assert row["mounts"] == [{"volumeId": gid("Volume", volume.id), "volumeName": volume.name, "mountPath": "/data"}]
    assert row["approver"] is None

    async with c.uow() as uow:
        approver = await load_actor(uow, world.users["org_admin"])
    await sessions.session_approve(c.sessions, approver, s.id)
    listed = (await admin(SESSIONS, n=200))["sessions"]["nodes"]
    row = next(n for n in listed if n["id"] == gid("Session", s.id))
    assert row["approver"] == {"username": approver.username}
    await sessions.session_stop(c.sessions, actor, s.id)


async def test_the_gpu_queue_names_the_sessions_one_may_see(
    container: Any, world: World, runtime: Any, http: Any
) -> None:
    c = container
    cat = await catalog_for(c)
    actor, token = await member(c, world, world.g2, credits=100_000, prefix="queued")
    # more whole cards than any node has: it waits in the queue
    s = await sessions.session_create(
        c.sessions,
        actor,
        sessions.SessionRequest(
            name=unique("big"),
            image_id=cat["image"].id,
            offering_id=cat["offering"].id,
            bundle_gpus=64,
            bundle_cpu_millicores=1000,
            bundle_memory_mib=1024,
        ),
    )
    try:
        sid = gid("Session", s.id)
        mine = (await Gql(http, token)(QUEUE))["gpuQueue"]
        assert {"sessionId": sid, "sessionName": s.name} in mine
        hidden = (await Gql(http, world.tokens["foreign_member"])(QUEUE))["gpuQueue"]
        assert all(q["sessionName"] is None for q in hidden if q["sessionId"] is None)
        assert sid not in [q["sessionId"] for q in hidden]
    finally:
        await sessions.session_stop(c.sessions, actor, s.id)


async def test_session_list_statements_do_not_grow_with_the_page(
    container: Any, world: World, runtime: Any, http: Any
) -> None:
    c = container
    cat = await catalog_for(c)
    actor, _ = await member(c, world, world.g2, credits=500, approval=True, prefix="named")
    made = []
    for _ in range(6):
        async with c.uow() as uow:
            t = await volumes.template_create(
                uow,
                actor,
                c.ids,
                c.clock,
                group_id=world.g2,
                name=unique("t"),
                image_id=cat["image"].id,
                preset_id=cat["preset"].id,
            )
            await uow.commit()
        made.append(
            await sessions.session_create(
                c.sessions,
                actor,
                sessions.SessionRequest(
                    name=unique("n"),
                    image_id=cat["image"].id,
                    preset_id=cat["preset"].id,
                    offering_id=cat["offering"].id,
                    template_id=t.id,
                ),
            )
        )
    admin = Gql(http, world.tokens["org_admin"])
    await admin(APPROVALS, n=1)  # warm up: the token's last-used stamp is written once a minute
    with statements(c) as small:
        a = await admin(APPROVALS, n=2)
    with statements(c) as large:
        b = await admin(APPROVALS, n=6)
    assert len(a["pendingApprovals"]["nodes"]) == 2 and len(b["pendingApprovals"]["nodes"]) == 6
    assert all(n["templateName"] for n in b["pendingApprovals"]["nodes"])
    assert len(large) == len(small), (len(small), len(large))
    for s in made:
        await sessions.session_stop(c.sessions, actor, s.id)
