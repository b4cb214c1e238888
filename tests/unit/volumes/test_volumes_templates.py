"""Volume and template use cases on in-memory repositories: personal and group volumes within
storage quotas, who may see and delete them, and a group's templates."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

import pytest

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier, ImageScope
from domain.policies.model import PolicyScope, ResourcePolicy, Usage
from domain.sessions.model import MountMode, SessionState
from domain.tenancy.services import Page
from domain.volumes import services as v
from domain.volumes.model import AccessMode, StorageClass, Template, TemplateMount, Volume, VolumeScope
from infra.credits.memory import InMemoryPolicies
from tests.unit.sessions.test_remaining_time import session
from tests.unit.tenancy.world import NOW, World, refusal


@pytest.fixture
async def w() -> World:
    world = await World.build()
    await world.uow.volumes.put_storage_class(StorageClass("fast", "NVMe", False))
    await world.uow.volumes.put_storage_class(
        StorageClass("standard", "", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY))
    )
    return world


async def test_personal_and_group_volumes(w: World) -> None:
    policies = InMemoryPolicies()
    mine = await v.volume_create(w.uow, w.member, w.ids, w.clock, policies, name=" Data ", size_mib=1024)
    assert mine == Volume(
        mine.id,
        "data",
        VolumeScope.PERSONAL,
        w.org_a.id,
        "standard",
        1024,
        w.member.user_id,
        NOW,
        w.member.user_id,
        None,
    )
    shared = await v.volume_create(
        w.uow, w.group_admin, w.ids, w.clock, policies, name="datasets", size_mib=2048, storage_class="standard",
        group_id=w.g1.id, member_mode=MountMode.READ_ONLY,
    )  # fmt: skip
    assert (shared.scope, shared.owner_id, shared.group_id, shared.storage_class, shared.member_mode) == (
        VolumeScope.GROUP, None, w.g1.id, "standard", MountMode.READ_ONLY,
    )  # fmt: skip
    # claims: the personal one ReadWriteOnce, the group-shared one ReadWriteMany
    assert (mine.access_mode, shared.access_mode) == (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY)
    assert mine.claim_name == f"vol-{mine.id}" and mine.phase is None and mine.claims == {}
    top = await v.volume_create(w.uow, w.member, w.ids, w.clock, policies, name="big", size_mib=v.MAX_VOLUME_MIB)
    assert top.size_mib == 64 * 1024 * 1024
    # the same name for another owner, or in another scope, is fine
    assert (
        await v.volume_create(w.uow, w.group_admin, w.ids, w.clock, policies, name="data", size_mib=1)
    ).name == "data"
    assert await refusal(v.volume_create(w.uow, w.member, w.ids, w.clock, policies, name="DATA", size_mib=1)) == (
        "DUPLICATE", "name", "a volume named data already exists here",
    )  # fmt: skip


async def test_a_group_volume_needs_read_write_many_and_the_refusal_names_the_class(w: World) -> None:
    policies = InMemoryPolicies()
    assert await refusal(
        v.volume_create(
            w.uow, w.group_admin, w.ids, w.clock, policies, name="shared", size_mib=10, storage_class="fast",
            group_id=w.g1.id,
        )
    ) == (
        "STORAGE_CLASS_ACCESS_MODE", "storageClass",
        "storage class 'fast' offers ReadWriteOnce; a group-shared volume needs ReadWriteMany (mounted by sessions on"
        " any node): choose a class that offers it",
    )  # fmt: skip
    assert w.state.volumes == {}
    # a personal volume on it is fine (ReadWriteOnce)
    mine = await v.volume_create(
        w.uow, w.member, w.ids, w.clock, policies, name="scratch", size_mib=10, storage_class="fast"
    )
    assert mine.access_mode is AccessMode.READ_WRITE_ONCE
    # a class of ReadWriteMany only gives personal volumes ReadWriteMany; one of neither refuses both
    await w.uow.volumes.put_storage_class(StorageClass("nfs", "", False, (AccessMode.READ_WRITE_MANY,)))
    await w.uow.volumes.put_storage_class(StorageClass("tape", "", False, (AccessMode.READ_ONLY_MANY,)))
    nfs = await v.volume_create(
        w.uow, w.member, w.ids, w.clock, policies, name="home", size_mib=10, storage_class="nfs"
    )
    assert nfs.access_mode is AccessMode.READ_WRITE_MANY
    assert await refusal(
        v.volume_create(w.uow, w.member, w.ids, w.clock, policies, name="old", size_mib=10, storage_class="tape")
    ) == (
        "STORAGE_CLASS_ACCESS_MODE", "storageClass",
        "storage class 'tape' offers ReadOnlyMany; a volume needs ReadWriteOnce or ReadWriteMany",
    )  # fmt: skip
    assert await refusal(v.storage_class_set(w.uow, w.root, StorageClass("none", "", False, ()))) == (
        "INVALID_VALUE",
        "accessModes",
        "a storage class offers at least one access mode",
    )


async def test_volume_create_refusals(w: World) -> None:
    policies = InMemoryPolicies()

    def create(actor: object = None, **kw: object) -> object:
        args: dict[str, object] = dict(name="vol", size_mib=100)
        args.update(kw)
        return v.volume_create(w.uow, actor or w.member, w.ids, w.clock, policies, **args)  # type: ignore[arg-type]

    assert await refusal(create(w.read_only(w.member))) == ("PERMISSION_DENIED", None, "this token is read-only")
    assert await refusal(create(w.guest)) == ("PERMISSION_DENIED", None, "guests cannot create volumes")
    for size in (0, v.MAX_VOLUME_MIB + 1):
        assert await refusal(create(size_mib=size)) == (
            "INVALID_VALUE", "sizeMib", f"size must be between 1 MiB and {v.MAX_VOLUME_MIB} MiB",
        )  # fmt: skip
    assert await refusal(create(name="-bad-", size_mib=0), errors=True) == [
        ("INVALID_VALUE", "name"),
        ("INVALID_VALUE", "sizeMib"),
    ]
    assert await refusal(create(storage_class="slow")) == (
        "STORAGE_CLASS_UNKNOWN", "storageClass", "storage class 'slow' is not offered; choose one of standard, fast",
    )  # fmt: skip
    assert await refusal(create(group_id=w.g1.id)) == (
        "PERMISSION_DENIED",
        None,
        "only an admin of this group may do this",
    )
    assert await refusal(create(w.group_admin, group_id=w.h.id)) == ("NOT_FOUND", "groupId", "group not found")
    assert await refusal(create(replace(w.member, active_group_id=None))) == (
        "INVALID_VALUE", "activeGroup", "choose an active group first",
    )  # fmt: skip
    assert await refusal(create(replace(w.member, active_group_id=w.g2.id))) == (
        "INVALID_VALUE", "activeGroup", "choose an active group first",
    )  # fmt: skip
    # the group's storage quota counts what is stored already
    await policies.put(ResourcePolicy(PolicyScope.group(w.g1.id), storage_quota_mib=1000))
    w.uow.usage.set(PolicyScope.group(w.g1.id), Usage(storage_mib=950))
    assert await refusal(create(replace(w.member, active_group_id=w.g1.id), size_mib=51)) == (
        # (the volume's scope chain carries no group name: the message names the group by id)
        "STORAGE_QUOTA_EXCEEDED", "sizeMib", f"group {w.g1.id} uses 950 of 1000 MiB of storage; this asks 51",
    )  # fmt: skip
    assert (await create(replace(w.member, active_group_id=w.g1.id), name="fits", size_mib=50)).size_mib == 50
    del w.state.volumes[next(iter(w.state.volumes))]
    assert w.state.volumes == {}
    w.state.storage_classes.clear()
    assert await refusal(create()) == ("STORAGE_CLASS_UNKNOWN", "storageClass", "no storage class is configured")


async def test_who_sees_lists_and_deletes_volumes(w: World) -> None:
    policies = InMemoryPolicies()
    mine = await v.volume_create(w.uow, w.member, w.ids, w.clock, policies, name="mine", size_mib=1)
    shared = await v.volume_create(
        w.uow, w.group_admin, w.ids, w.clock, policies, name="shared", size_mib=1, group_id=w.g1.id
    )
    theirs = await v.volume_create(w.uow, w.foreign, w.ids, w.clock, policies, name="theirs", size_mib=1)
    assert await v.volume_get(w.uow, w.member, shared.id) == shared
    assert await v.volume_get(w.uow, w.org_admin, mine.id) == mine
    assert await refusal(v.volume_get(w.uow, w.guest, mine.id)) == ("NOT_FOUND", "id", "volume not found")
    assert await refusal(v.volume_get(w.uow, w.member, theirs.id)) == ("NOT_FOUND", "id", "volume not found")
    names = lambda vs: [x.name for x in vs]  # noqa: E731
    assert (names((await v.volumes_list(w.uow, w.member, Page()))[0])) == ["mine", "shared"]
    assert (names((await v.volumes_list(w.uow, w.guest, Page()))[0])) == ["shared"]
    assert (await v.volumes_list(w.uow, w.org_admin, Page()))[1] == 2
    assert (await v.volumes_list(w.uow, w.root, Page(limit=1)))[1] == 3
    assert await refusal(v.volume_delete(w.uow, w.guest, shared.id)) == (
        "PERMISSION_DENIED", None, "only an admin of the group may delete its volume",
    )  # fmt: skip
    assert await refusal(v.volume_delete(w.uow, w.group_admin, mine.id)) == ("NOT_FOUND", "id", "volume not found")
    assert await refusal(v.volume_delete(w.uow, w.read_only(w.member), mine.id)) == (
        "PERMISSION_DENIED", None, "this token is read-only",
    )  # fmt: skip
    s = replace(session(SessionState.RUNNING), mounts=(replace_mount(shared.id),))
    w.state.sessions[s.id] = s
    assert await refusal(v.volume_delete(w.uow, w.group_admin, shared.id)) == (
        "VOLUME_IN_USE", "id", "volume shared is mounted by a session; stop it first",
    )  # fmt: skip
    w.state.sessions[s.id] = replace(s, state=SessionState.STOPPED)
    assert await v.volume_delete(w.uow, w.group_admin, shared.id) == shared and shared.id not in w.state.volumes
    assert await v.volume_delete(w.uow, w.org_admin, mine.id) == mine  # an org admin may remove a member's volume
    other = await v.volume_create(w.uow, w.member, w.ids, w.clock, policies, name="again", size_mib=1)
    assert await refusal(v.volume_delete(w.uow, replace(w.guest, group_roles={**w.guest.group_roles}), other.id)) == (
        "NOT_FOUND", "id", "volume not found",
    )  # fmt: skip
    assert await v.volume_delete(w.uow, w.member, other.id) == other


def replace_mount(volume_id: UUID) -> object:
    from domain.sessions.model import MountRequest

    return MountRequest(volume_id, "/data", MountMode.READ_WRITE)


async def test_storage_classes_are_set_by_super_admins(w: World) -> None:
    assert [c.name for c in await v.storage_classes(w.uow)] == ["standard", "fast"]
    got = await v.storage_class_set(w.uow, w.root, StorageClass(" Archive ", " tape ", False))
    assert got == StorageClass("archive", "tape", False) and w.state.storage_classes["archive"] == got
    assert await refusal(v.storage_class_set(w.uow, w.org_admin, StorageClass("x"))) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    assert (await refusal(v.storage_class_set(w.uow, w.root, StorageClass("-x-"))))[:2] == ("INVALID_VALUE", "name")


async def image_and_preset(w: World) -> tuple[UUID, UUID, UUID]:
    image = await catalog.image_create(
        w.uow,
        w.root,
        w.ids,
        w.clock,
        name="torch",
        reference="python:3.12",
        cuda_version="12.4",
        scope=ImageScope.GLOBAL,
    )
    preset = await catalog.preset_create(
        w.uow,
        w.root,
        w.ids,
        w.clock,
        name="L",
        cpu_millicores=1000,
        memory_mib=2048,
        disk_gib=1,
        shm_mib=64,
        tier=GpuTier.L,
    )
    offering = await catalog.offering_create(
        w.uow,
        w.root,
        w.ids,
        w.clock,
        vendor="NVIDIA",
        name="A100",
        vram_mib=81920,
        min_cuda="12.0",
        hourly_rate_micro=1,
    )
    return image.id, preset.id, offering.id


async def test_a_groups_templates(w: World) -> None:
    image, preset, offering = await image_and_preset(w)
    vol = await v.volume_create(w.uow, w.member, w.ids, w.clock, InMemoryPolicies(), name="data", size_mib=1)
    mount = TemplateMount(vol.id, "/data", MountMode.READ_WRITE)
    t = await v.template_create(
        w.uow, w.member, w.ids, w.clock, group_id=w.g1.id, name=" Train ", image_id=image, offering_id=offering,
        preset_id=preset, shm_mib=32, env={"SEED": "1"}, mounts=(mount,), description=" nightly ",
    )  # fmt: skip
    assert t == Template(
        t.id, "Train", w.g1.id, w.org_a.id, image, w.member.user_id, NOW, offering, preset, None, None, 32,
        {"SEED": "1"}, (mount,), "nightly",
    )  # fmt: skip
    bundle = await v.template_create(
        w.uow,
        w.org_admin,
        w.ids,
        w.clock,
        group_id=w.g1.id,
        name="cpu",
        image_id=image,
        cpu_millicores=500,
        memory_mib=512,
    )
    assert (bundle.preset_id, bundle.cpu_millicores, bundle.memory_mib, bundle.env, bundle.mounts) == (
        None,
        500,
        512,
        {},
        (),
    )

    def create(actor: object, **kw: object) -> object:
        args: dict[str, object] = dict(group_id=w.g1.id, name="t2", image_id=image, preset_id=preset)
        args.update(kw)
        return v.template_create(w.uow, actor, w.ids, w.clock, **args)  # type: ignore[arg-type]

    assert await refusal(create(w.member, name="TRAIN")) == (
        "DUPLICATE",
        "name",
        "group G1 already has a template named TRAIN",
    )
    assert await refusal(create(w.guest)) == ("PERMISSION_DENIED", None, "guests cannot save templates")
    assert await refusal(create(w.org_admin, group_id=w.h.id)) == ("NOT_FOUND", "groupId", "group not found")
    assert await refusal(create(w.read_only(w.member))) == ("PERMISSION_DENIED", None, "this token is read-only")
    assert await refusal(create(w.member, image_id=UUID(int=5))) == ("NOT_FOUND", "imageId", "image not found")
    assert await refusal(create(w.member, preset_id=UUID(int=5))) == ("NOT_FOUND", "presetId", "preset not found")
    assert await refusal(create(w.member, offering_id=UUID(int=5))) == ("NOT_FOUND", "offeringId", "offering not found")
    assert await refusal(create(w.member, preset_id=None)) == (
        "INVALID_VALUE", "presetId", "a template needs a preset or a CPU/memory bundle",
    )  # fmt: skip
    assert await refusal(create(w.member, mounts=(TemplateMount(UUID(int=6), "/x", MountMode.READ_ONLY),))) == (
        "NOT_FOUND", "mounts", "volume not found",
    )  # fmt: skip
    assert await refusal(create(w.member, name="")) == ("INVALID_VALUE", "name", "name must not be empty")
    # a member of the organisation who is not in the group may not save the group's templates
    outsider = replace(w.member, group_roles={}, group_orgs={})
    assert await refusal(create(outsider, group_id=w.g2.id)) == ("NOT_FOUND", "groupId", "group not found")
    assert sorted(x.name for x in (await v.templates_list(w.uow, w.member, Page()))[0]) == ["Train", "cpu"]
    assert (await v.templates_list(w.uow, w.foreign, Page()))[1] == 0
    assert (await v.templates_list(w.uow, w.root, Page(limit=1)))[1] == 2
    assert await refusal(v.template_delete(w.uow, w.foreign, t.id)) == ("NOT_FOUND", "id", "template not found")
    assert await refusal(v.template_delete(w.uow, w.member, UUID(int=9))) == ("NOT_FOUND", "id", "template not found")
    assert await refusal(v.template_delete(w.uow, w.guest, t.id)) == (
        "PERMISSION_DENIED", None, "only its author or a group admin may delete a template",
    )  # fmt: skip
    assert await refusal(v.template_delete(w.uow, w.read_only(w.member), t.id)) == (
        "PERMISSION_DENIED", None, "this token is read-only",
    )  # fmt: skip
    assert await v.template_delete(w.uow, w.member, t.id) == t and t.id not in w.state.templates
    assert await v.template_delete(w.uow, w.group_admin, bundle.id) == bundle and w.state.templates == {}
