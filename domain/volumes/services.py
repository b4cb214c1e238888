"""Volume and template use cases.

A volume is a PersistentVolumeClaim in the sessions namespace of every cluster
(`provision_volume`, after the volume's row is committed; the hand-off of a session that mounts
it makes sure of it again), of the class the admin offers, with the access mode its scope needs
(`claim_access_mode`); the deployment's storage quota (the global policy's) goes with it as the
namespace's ResourceQuota. The clusters' operators report each claim's phase
(`claims_reported`)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from uuid import UUID

from domain.catalog.services import can_see_image
from domain.common.clock import Clock, IdGenerator
from domain.common.errors import DuplicateError, InvalidValueError, NotFoundError, PermissionDeniedError
from domain.common.validation import ErrorCollector, clean_name, clean_slug
from domain.policies.model import GLOBAL_SCOPE, ResourceRequest, ScopeChain
from domain.policies.ports import PolicyRepository
from domain.policies.services import check_policy_limits
from domain.sessions.environment import check_environment
from domain.sessions.model import MountMode
from domain.sessions.services import SessionServices, SessionsUnitOfWork, volume_claim
from domain.tenancy import access
from domain.tenancy.model import Actor
from domain.tenancy.services import Page
from domain.volumes.errors import VolumeError, VolumeErrorCode
from domain.volumes.model import (
    AccessMode,
    ClaimPhase,
    ClaimState,
    StorageClass,
    Template,
    TemplateMount,
    Volume,
    VolumeScope,
    can_see_volume,
    claim_access_mode,
    default_class,
)

log = logging.getLogger(__name__)
MAX_VOLUME_MIB = 64 * 1024 * 1024  # 64 TiB


async def storage_classes(uow: SessionsUnitOfWork) -> list[StorageClass]:
    return await uow.volumes.storage_classes()


async def storage_class_set(uow: SessionsUnitOfWork, actor: Actor, sc: StorageClass) -> StorageClass:
    access.require_super_admin(actor)
    name = clean_slug(sc.name, "name")
    if not sc.access_modes:
        raise InvalidValueError("accessModes", "a storage class offers at least one access mode")
    modes = tuple(m for m in AccessMode if m in sc.access_modes)
    cleaned = StorageClass(name, sc.description.strip(), sc.is_default, modes)
    await uow.volumes.put_storage_class(cleaned)
    return cleaned


async def volume_create(
    uow: SessionsUnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    policies: PolicyRepository,
    *,
    name: str,
    size_mib: int,
    storage_class: str | None = None,
    group_id: UUID | None = None,
    member_mode: MountMode = MountMode.READ_WRITE,
) -> Volume:
    """A personal volume (group_id None) or a group-shared one (by an admin of the group),
    within the storage quota of every level."""
    access.require_writable(actor)
    if actor.is_guest_only():
        raise PermissionDeniedError("guests cannot create volumes")
    errors = ErrorCollector()
    clean = errors.check(clean_slug, name, "name")
    if not 0 < size_mib <= MAX_VOLUME_MIB:
        errors.add(InvalidValueError("sizeMib", f"size must be between 1 MiB and {MAX_VOLUME_MIB} MiB"))
    errors.raise_if_any()
    assert clean
    classes = await uow.volumes.storage_classes()
    if not classes:
        raise VolumeError(VolumeErrorCode.STORAGE_CLASS_UNKNOWN, "no storage class is configured", "storageClass")
    scope = VolumeScope.GROUP if group_id else VolumeScope.PERSONAL
    chosen = storage_class or default_class(classes, scope).name
    if chosen not in {c.name for c in classes}:
        raise VolumeError(
            VolumeErrorCode.STORAGE_CLASS_UNKNOWN,
            f"storage class {chosen!r} is not offered; choose one of {', '.join(c.name for c in classes)}",
            "storageClass",
        )
    access_mode = claim_access_mode(next(c for c in classes if c.name == chosen), scope)
    if actor.active_group_id is None or actor.active_group_id not in actor.group_roles:
        raise InvalidValueError("activeGroup", "choose an active group first")
    chain_group = group_id or actor.active_group_id
    if group_id is not None:
        group = await uow.tenancy.get_group(group_id)
        if group is None or not access.can_see_group(actor, group):
            raise NotFoundError("group", "groupId")
        access.require_group_admin(actor, group)
        org_id = group.organization_id
    else:
        org_id = actor.group_orgs[chain_group]
    volume = Volume(
        ids.new_id(),
        clean,
        scope,
        org_id,
        chosen,
        size_mib,
        actor.user_id,
        clock.now(),
        None if group_id else actor.user_id,
        group_id,
        member_mode,
        access_mode,
    )
    if await uow.volumes.name_taken(volume):
        raise DuplicateError("name", f"a volume named {clean} already exists here")
    chain = ScopeChain(actor.user_id, chain_group, org_id, actor.username)
    decision = await check_policy_limits(policies, uow.usage, chain, ResourceRequest(storage_mib=size_mib, sessions=0))
    if decision.refusal is not None:
        raise VolumeError(VolumeErrorCode.STORAGE_QUOTA_EXCEEDED, decision.refusal.message, "sizeMib")
    await uow.volumes.add(volume)
    return volume


async def storage_quota_mib(policies: PolicyRepository) -> int | None:
    """The deployment's storage quota (the global policy's), bounding every claim together."""
    policy = await policies.get(GLOBAL_SCOPE)
    return policy.storage_quota_mib if policy is not None else None


async def provision_volume(svc: SessionServices, volume: Volume) -> dict[str, ClaimPhase | None]:
    """The volume's claim on every cluster, after its row is committed. A cluster that cannot
    take it now is logged and left: the hand-off of a session that mounts the volume applies
    the claim again. Returns each cluster's answer (its phase, None when it did not say)."""
    quota = await storage_quota_mib(svc.policies)
    claim = volume_claim(volume)
    answers: dict[str, ClaimPhase | None] = {}
    for port in svc.clusters.all():
        try:
            phase = await port.apply_volume(claim, quota)
        except Exception:  # the hand-off tries again
            log.warning("cluster %s did not take the claim of volume %s", port.cluster_id, volume.id, exc_info=True)
            continue
        answers[port.cluster_id] = ClaimPhase(phase) if phase in set(ClaimPhase) else None
    reported = {c: ClaimState(p, svc.clock.now()) for c, p in answers.items() if p is not None}
    if reported:
        async with svc.uow() as uow:
            for cluster_id, state in reported.items():
                await uow.volumes.set_claim_phases(cluster_id, {volume.id: state})
            await uow.commit()
    return answers


async def deprovision_volume(svc: SessionServices, volume: Volume) -> None:
    """Delete the deleted volume's claim on every cluster (after the row is gone)."""
    for port in svc.clusters.all():
        try:
            await port.delete_volume(volume.claim_name)
        except Exception:
            log.warning("cluster %s kept the claim of deleted volume %s", port.cluster_id, volume.id, exc_info=True)


async def claims_reported(uow: SessionsUnitOfWork, cluster_id: str, phases: Mapping[UUID, str], at: datetime) -> int:
    """A cluster's report of its claims' phases (from its operator); phases Kubernetes has but
    gshare does not show are skipped. Returns how many volumes changed."""
    known = {v: ClaimState(ClaimPhase(p), at) for v, p in phases.items() if p in set(ClaimPhase)}
    return await uow.volumes.set_claim_phases(cluster_id, known) if known else 0


async def volume_get(uow: SessionsUnitOfWork, actor: Actor, volume_id: UUID) -> Volume:
    v = await uow.volumes.get(volume_id)
    if v is None or not can_see_volume(actor, v):
        raise NotFoundError("volume")
    return v


async def volumes_list(uow: SessionsUnitOfWork, actor: Actor, page: Page) -> tuple[list[Volume], int]:
    page = page.clamp()
    return await uow.volumes.visible(
        user_id=actor.user_id,
        group_ids=frozenset(actor.group_roles),
        org_ids=None if actor.is_super_admin else actor.org_admin_of,
        offset=page.offset,
        limit=page.limit,
    )


async def volume_delete(uow: SessionsUnitOfWork, actor: Actor, volume_id: UUID) -> Volume:
    v = await volume_get(uow, actor, volume_id)
    access.require_writable(actor)
    if v.scope is VolumeScope.PERSONAL:
        if v.owner_id != actor.user_id and not actor.is_org_admin(v.organization_id):
            raise PermissionDeniedError("only the owner may delete a personal volume")
    else:
        assert v.group_id is not None
        if not actor.is_group_admin(v.group_id, v.organization_id):
            raise PermissionDeniedError("only an admin of the group may delete its volume")
    if await uow.volumes.mounted_by_active_sessions(v.id):
        raise VolumeError(
            VolumeErrorCode.VOLUME_IN_USE, f"volume {v.name} is mounted by a session; stop it first", "id"
        )
    await uow.volumes.delete(v.id)
    return v


async def template_create(
    uow: SessionsUnitOfWork,
    actor: Actor,
    ids: IdGenerator,
    clock: Clock,
    *,
    group_id: UUID,
    name: str,
    image_id: UUID,
    offering_id: UUID | None = None,
    preset_id: UUID | None = None,
    cpu_millicores: int | None = None,
    memory_mib: int | None = None,
    shm_mib: int | None = None,
    env: dict[str, str] | None = None,
    mounts: tuple[TemplateMount, ...] = (),
    description: str = "",
) -> Template:
    """A group's saved recipe; any member (not guests) may save one for the group."""
    access.require_writable(actor)
    check_environment(env or {})
    group = await uow.tenancy.get_group(group_id)
    if group is None or not access.can_see_group(actor, group):
        raise NotFoundError("group", "groupId")
    role = actor.role_in_group(group.id)
    if role is None and not actor.is_org_admin(group.organization_id):
        raise PermissionDeniedError("only members of the group may save its templates")
    if actor.is_guest_only():
        raise PermissionDeniedError("guests cannot save templates")
    clean = clean_name(name, "name")
    if await uow.templates.name_taken(group.id, clean):
        raise DuplicateError("name", f"group {group.name} already has a template named {clean}")
    image = await uow.catalog.get_image(image_id)
    if image is None or not can_see_image(actor, image):
        raise NotFoundError("image", "imageId")
    if preset_id is not None and await uow.catalog.get_preset(preset_id) is None:
        raise NotFoundError("preset", "presetId")
    if offering_id is not None and await uow.catalog.get_offering(offering_id) is None:
        raise NotFoundError("offering", "offeringId")
    if preset_id is None and cpu_millicores is None:
        raise InvalidValueError("presetId", "a template needs a preset or a CPU/memory bundle")
    for m in mounts:
        v = await uow.volumes.get(m.volume_id)
        if v is None or not can_see_volume(actor, v):
            raise NotFoundError("volume", "mounts")
    t = Template(
        ids.new_id(),
        clean,
        group.id,
        group.organization_id,
        image_id,
        actor.user_id,
        clock.now(),
        offering_id,
        preset_id,
        cpu_millicores,
        memory_mib,
        shm_mib,
        dict(env or {}),
        tuple(mounts),
        description.strip(),
    )
    await uow.templates.add(t)
    return t


async def templates_list(uow: SessionsUnitOfWork, actor: Actor, page: Page) -> tuple[list[Template], int]:
    page = page.clamp()
    return await uow.templates.of_groups(
        None if actor.is_super_admin else frozenset(actor.group_roles), page.offset, page.limit
    )


async def template_delete(uow: SessionsUnitOfWork, actor: Actor, template_id: UUID) -> Template:
    access.require_writable(actor)
    t = await uow.templates.get(template_id)
    if t is None or not (
        actor.is_super_admin or t.group_id in actor.group_roles or actor.is_org_admin(t.organization_id)
    ):
        raise NotFoundError("template")
    if t.created_by != actor.user_id and not actor.is_group_admin(t.group_id, t.organization_id):
        raise PermissionDeniedError("only its author or a group admin may delete a template")
    await uow.templates.delete(t.id)
    return t
