"""Who may see and mount a volume, the access mode a class gives it, a class's modes kept in
Kubernetes' order, the default class, and the refusals' exact words (kills mutmut's survivors
of domain/volumes, issue 20)."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID, uuid4

import pytest

from domain.policies.model import PolicyScope, ResourcePolicy
from domain.sessions.model import MountMode
from domain.tenancy.model import Actor, Role
from domain.volumes import services as v
from domain.volumes.errors import VolumeError
from domain.volumes.model import (
    AccessMode,
    StorageClass,
    Volume,
    VolumeScope,
    allowed_mount_mode,
    can_see_volume,
    claim_access_mode,
    default_class,
    mode_permits,
)
from infra.credits.memory import InMemoryPolicies
from tests.unit.tenancy.world import NOW, World, refusal

ORG, GROUP, OWNER = uuid4(), uuid4(), uuid4()


def vol(scope: VolumeScope, member_mode: MountMode = MountMode.READ_WRITE) -> Volume:
    personal = scope is VolumeScope.PERSONAL
    return Volume(
        uuid4(), "data", scope, ORG, "standard", 1, OWNER, NOW,
        OWNER if personal else None, None if personal else GROUP, member_mode,
    )  # fmt: skip


def actor(role: Role | None = None, *, user: UUID | None = None) -> Actor:
    roles = {} if role is None else {GROUP: role}
    return Actor(user or uuid4(), "someone", group_roles=roles, group_orgs={g: ORG for g in roles})


def test_a_group_volume_is_seen_by_its_groups_members_only() -> None:
    shared = vol(VolumeScope.GROUP)
    assert can_see_volume(actor(Role.MEMBER), shared) and can_see_volume(actor(Role.GUEST), shared)
    assert not can_see_volume(actor(), shared)
    assert not can_see_volume(actor(), replace(shared, group_id=None))
    mine = vol(VolumeScope.PERSONAL)
    assert can_see_volume(actor(user=OWNER), mine) and not can_see_volume(actor(Role.MEMBER), mine)


def test_the_widest_mount_mode_by_role() -> None:
    mine = vol(VolumeScope.PERSONAL)
    assert allowed_mount_mode(actor(user=OWNER), mine) is MountMode.READ_WRITE
    assert allowed_mount_mode(actor(Role.GROUP_ADMIN), mine) is None  # not someone else's personal data
    ro = vol(VolumeScope.GROUP, MountMode.READ_ONLY)
    rw = vol(VolumeScope.GROUP, MountMode.READ_WRITE)
    assert allowed_mount_mode(actor(Role.GROUP_ADMIN), ro) is MountMode.READ_WRITE
    assert allowed_mount_mode(actor(Role.MEMBER), ro) is MountMode.READ_ONLY
    assert allowed_mount_mode(actor(Role.MEMBER), rw) is MountMode.READ_WRITE
    assert allowed_mount_mode(actor(Role.GUEST), rw) is MountMode.READ_ONLY
    assert allowed_mount_mode(actor(), rw) is None
    assert not mode_permits(None, MountMode.READ_ONLY) and not mode_permits(None, MountMode.READ_WRITE)
    assert mode_permits(MountMode.READ_ONLY, MountMode.READ_ONLY)
    assert not mode_permits(MountMode.READ_ONLY, MountMode.READ_WRITE)
    assert mode_permits(MountMode.READ_WRITE, MountMode.READ_WRITE)


def test_a_refused_class_is_named_with_every_mode_it_offers() -> None:
    odd = StorageClass("odd", access_modes=(AccessMode.READ_ONLY_MANY, AccessMode.READ_WRITE_ONCE_POD))
    with pytest.raises(VolumeError) as err:
        claim_access_mode(odd, VolumeScope.PERSONAL)
    assert err.value.message == (
        "storage class 'odd' offers ReadOnlyMany, ReadWriteOncePod; a volume needs ReadWriteOnce or ReadWriteMany"
    )
    with pytest.raises(VolumeError) as err:
        claim_access_mode(StorageClass("none", access_modes=()), VolumeScope.PERSONAL)
    assert err.value.message.startswith("storage class 'none' offers no access mode; ")
    many = StorageClass("nfs", access_modes=(AccessMode.READ_WRITE_MANY,))
    assert claim_access_mode(many, VolumeScope.PERSONAL) is AccessMode.READ_WRITE_MANY


@pytest.fixture
async def w() -> World:
    return await World.build()


async def test_a_storage_class_keeps_its_modes_in_kubernetes_order(w: World) -> None:
    asked = StorageClass(" NFS ", " shared ", True, (AccessMode.READ_WRITE_MANY, AccessMode.READ_WRITE_ONCE))
    kept = await v.storage_class_set(w.uow, w.root, asked)
    assert kept == StorageClass("nfs", "shared", True, (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY))
    assert await v.storage_classes(w.uow) == [kept]


async def test_without_a_default_class_the_first_is_chosen(w: World) -> None:
    await w.uow.volumes.put_storage_class(StorageClass("b-disk", "", False))
    await w.uow.volumes.put_storage_class(StorageClass("a-disk", "", False))
    made = await v.volume_create(w.uow, w.member, w.ids, w.clock, InMemoryPolicies(), name="data", size_mib=1)
    assert made.storage_class == "a-disk"


def test_without_a_default_class_the_first_that_serves_the_scope_is_chosen() -> None:
    rwo = StorageClass("a-local", "", False, (AccessMode.READ_WRITE_ONCE,))
    rwx = StorageClass("b-nfs", "", False, (AccessMode.READ_WRITE_MANY,))
    rox = StorageClass("0-tape", "", False, (AccessMode.READ_ONLY_MANY,))
    assert default_class([rox, rwo, rwx], VolumeScope.GROUP) is rwx  # shared: ReadWriteMany
    assert default_class([rox, rwo, rwx], VolumeScope.PERSONAL) is rwo
    assert default_class([rox, rwx], VolumeScope.PERSONAL) is rwx  # ReadWriteMany serves one node too
    assert default_class([rox, rwo], VolumeScope.GROUP) is rox  # none serves: the first, refused by name
    default_rwo = replace(rwo, is_default=True)
    assert default_class([rwx, default_rwo], VolumeScope.GROUP) is default_rwo  # the admin's default wins


async def test_a_volume_counts_storage_not_a_session_and_a_refusal_names_the_user(w: World) -> None:
    await w.uow.volumes.put_storage_class(StorageClass("standard", "", True))
    policies = InMemoryPolicies()
    await policies.put(ResourcePolicy(PolicyScope.group(w.g1.id), max_concurrent_sessions=0))
    assert (await v.volume_create(w.uow, w.member, w.ids, w.clock, policies, name="a", size_mib=1)).name == "a"
    await policies.put(ResourcePolicy(PolicyScope.user(w.member.user_id), storage_quota_mib=10))
    code, field, message = await refusal(
        v.volume_create(w.uow, w.member, w.ids, w.clock, policies, name="b", size_mib=20)
    )
    assert (code, field) == ("STORAGE_QUOTA_EXCEEDED", "sizeMib") and "member" in message


async def test_a_template_saved_without_a_description_has_none(w: World) -> None:
    from tests.unit.volumes.test_volumes_templates import image_and_preset

    image, preset, _ = await image_and_preset(w)
    saved = await v.template_create(w.uow, w.member, w.ids, w.clock, group_id=w.g1.id, name="t", image_id=image,
                                    preset_id=preset)  # fmt: skip
    assert saved.description == ""
