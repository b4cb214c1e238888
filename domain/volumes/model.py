"""Volumes: personal or group-shared persistent storage, free of credits, bounded by storage
quotas; and templates, a group's saved session recipe."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from domain.sessions.model import MountMode
from domain.tenancy.model import Actor, Role


class VolumeScope(StrEnum):
    PERSONAL = "personal"
    GROUP = "group"


@dataclass(frozen=True, slots=True)
class StorageClass:
    name: str
    description: str = ""
    is_default: bool = False


@dataclass(frozen=True, slots=True)
class Volume:
    id: UUID
    name: str
    scope: VolumeScope
    organization_id: UUID
    storage_class: str
    size_mib: int
    created_by: UUID
    created_at: datetime
    owner_id: UUID | None = None  # personal volumes
    group_id: UUID | None = None  # group-shared volumes
    # what group members other than its admins may do with a group volume
    member_mode: MountMode = MountMode.READ_WRITE


def can_see_volume(actor: Actor, v: Volume) -> bool:
    if actor.is_super_admin or actor.is_org_admin(v.organization_id):
        return True
    if v.scope is VolumeScope.PERSONAL:
        return v.owner_id == actor.user_id
    return v.group_id is not None and v.group_id in actor.group_roles


def allowed_mount_mode(actor: Actor, v: Volume) -> MountMode | None:
    """The widest mode the actor may mount the volume with, or None.

    Personal volumes: their owner, read-write. Group volumes: group admins read-write;
    members per the volume's member mode; guests read-only. Admins of the organisation do
    not mount other people's personal data by virtue of their role."""
    if v.scope is VolumeScope.PERSONAL:
        return MountMode.READ_WRITE if v.owner_id == actor.user_id else None
    assert v.group_id is not None
    role = actor.role_in_group(v.group_id)
    if role is None:
        return None
    if role == Role.GROUP_ADMIN:
        return MountMode.READ_WRITE
    if role == Role.GUEST:
        return MountMode.READ_ONLY
    return v.member_mode


def mode_permits(allowed: MountMode | None, asked: MountMode) -> bool:
    if allowed is None:
        return False
    return allowed == MountMode.READ_WRITE or asked == MountMode.READ_ONLY


@dataclass(frozen=True, slots=True)
class TemplateMount:
    volume_id: UUID
    mount_path: str
    mode: MountMode


@dataclass(frozen=True)
class Template:
    """A group's saved recipe: image, preset (or an explicit bundle), env, volumes, shm."""

    id: UUID
    name: str
    group_id: UUID
    organization_id: UUID
    image_id: UUID
    created_by: UUID
    created_at: datetime
    offering_id: UUID | None = None
    preset_id: UUID | None = None
    cpu_millicores: int | None = None
    memory_mib: int | None = None
    shm_mib: int | None = None
    env: dict[str, str] = field(default_factory=dict)
    mounts: tuple[TemplateMount, ...] = ()
    description: str = ""
