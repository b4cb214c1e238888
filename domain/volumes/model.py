"""Volumes: personal or group-shared persistent storage, free of credits, bounded by storage
quotas; and templates, a group's saved session recipe."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from domain.sessions.model import MountMode
from domain.tenancy.model import Actor, Role
from domain.volumes.errors import VolumeError, VolumeErrorCode


class VolumeScope(StrEnum):
    PERSONAL = "personal"
    GROUP = "group"


class AccessMode(StrEnum):
    """A PersistentVolumeClaim's access modes, spelled as Kubernetes spells them."""

    READ_WRITE_ONCE = "ReadWriteOnce"  # read-write by the pods of one node
    READ_ONLY_MANY = "ReadOnlyMany"
    READ_WRITE_MANY = "ReadWriteMany"  # read-write by pods on any number of nodes
    READ_WRITE_ONCE_POD = "ReadWriteOncePod"


class ClaimPhase(StrEnum):
    """A PersistentVolumeClaim's `status.phase` as its cluster reports it."""

    PENDING = "Pending"
    BOUND = "Bound"
    LOST = "Lost"


@dataclass(frozen=True, slots=True)
class StorageClass:
    """One of the admin's storage classes: `name` is the Kubernetes StorageClass the claims
    name; `access_modes` what its provisioner can give (NFS: ReadWriteMany; a node-local disk:
    ReadWriteOnce only)."""

    name: str
    description: str = ""
    is_default: bool = False
    access_modes: tuple[AccessMode, ...] = (AccessMode.READ_WRITE_ONCE,)


@dataclass(frozen=True, slots=True)
class ClaimState:
    """A volume's claim on one cluster: its phase there and when the cluster said so."""

    phase: ClaimPhase
    reported_at: datetime


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
    # the claim's access mode (chosen from the class when the volume is created)
    access_mode: AccessMode = AccessMode.READ_WRITE_ONCE
    # its PersistentVolumeClaim per cluster id, as the clusters report them
    claims: Mapping[str, ClaimState] = field(default_factory=dict)

    @property
    def claim_name(self) -> str:
        """The PersistentVolumeClaim's name in the sessions namespace of every cluster."""
        return claim_name(self.id)

    @property
    def phase(self) -> ClaimPhase | None:
        """The worst phase of its claims (Lost, then Pending, then Bound); None: no cluster has
        reported a claim."""
        phases = {c.phase for c in self.claims.values()}
        for phase in (ClaimPhase.LOST, ClaimPhase.PENDING, ClaimPhase.BOUND):
            if phase in phases:
                return phase
        return None


def claim_name(volume_id: UUID) -> str:
    return f"vol-{volume_id}"


def default_class(classes: list[StorageClass], scope: VolumeScope) -> StorageClass:
    """The class a volume of `scope` gets when its creator names none: the default class; without
    one, the first class (in the listed order) that can serve the scope, else the first class (whose
    refusal then names what it lacks). `classes` is not empty."""
    for sc in classes:
        if sc.is_default:
            return sc
    for sc in classes:
        if _serves(sc, scope):
            return sc
    return classes[0]


def _serves(sc: StorageClass, scope: VolumeScope) -> bool:
    if scope is VolumeScope.GROUP:
        return AccessMode.READ_WRITE_MANY in sc.access_modes
    return AccessMode.READ_WRITE_ONCE in sc.access_modes or AccessMode.READ_WRITE_MANY in sc.access_modes


def claim_access_mode(sc: StorageClass, scope: VolumeScope) -> AccessMode:
    """The access mode a volume of `scope` needs from class `sc`, or a refusal naming the class.

    A group-shared volume is mounted by many people's sessions on any node: ReadWriteMany. A
    personal one follows its owner's sessions, one node at a time: ReadWriteOnce when the class
    has it, otherwise ReadWriteMany (a read-only mount is a mount option, not another claim)."""
    offered = ", ".join(m.value for m in sc.access_modes) or "no access mode"
    if scope is VolumeScope.GROUP:
        if AccessMode.READ_WRITE_MANY not in sc.access_modes:
            raise VolumeError(
                VolumeErrorCode.STORAGE_CLASS_ACCESS_MODE,
                f"storage class {sc.name!r} offers {offered}; a group-shared volume needs ReadWriteMany "
                "(mounted by sessions on any node): choose a class that offers it",
                "storageClass",
            )
        return AccessMode.READ_WRITE_MANY
    for mode in (AccessMode.READ_WRITE_ONCE, AccessMode.READ_WRITE_MANY):
        if mode in sc.access_modes:
            return mode
    raise VolumeError(
        VolumeErrorCode.STORAGE_CLASS_ACCESS_MODE,
        f"storage class {sc.name!r} offers {offered}; a volume needs ReadWriteOnce or ReadWriteMany",
        "storageClass",
    )


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
