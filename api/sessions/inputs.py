from __future__ import annotations

import strawberry

from api.inventory.types import GpuKind
from api.sessions.types import Expiry, MountMode, SessionKind, VolumeAccessMode
from domain.volumes.model import AccessMode


@strawberry.input
class MountInput:
    volume_id: strawberry.ID
    mount_path: str
    mode: MountMode = strawberry.field(default=MountMode.READ_WRITE)  # type: ignore[valid-type,attr-defined]


@strawberry.input
class EnvVarInput:
    name: str
    value: str


@strawberry.input(description="Ask for a session: a preset (or an instance bundle) on an offering, an image, volumes.")
class SessionCreateInput:
    name: str
    image_id: strawberry.ID
    preset_id: strawberry.ID | None = None
    offering_id: strawberry.ID | None = strawberry.field(
        default=None, description="The GPU model; needed for GPU presets."
    )
    template_id: strawberry.ID | None = None
    bundle_cpu_millicores: int | None = None
    bundle_memory_mib: int | None = None
    bundle_gpus: int | None = strawberry.field(
        default=None, description="Whole cards of an instance bundle (0 = CPU only)."
    )
    expiry: Expiry = strawberry.field(default=Expiry.H4)  # type: ignore[valid-type,attr-defined]
    mounts: list[MountInput] = strawberry.field(default_factory=list)
    env: list[EnvVarInput] = strawberry.field(default_factory=list)
    shm_mib: int | None = None
    cluster_id: str | None = None
    shared: bool = strawberry.field(default=False, description="Ask for a time-slice of a card (no memory isolation).")
    kind: SessionKind = strawberry.field(default=SessionKind.INTERACTIVE)  # type: ignore[valid-type,attr-defined]
    wallet_user_id: strawberry.ID | None = strawberry.field(default=None, description="Whose wallet pays: yours only.")
    command: list[str] = strawberry.field(
        default_factory=list, description="Jobs only: what runs instead of the image's entrypoint."
    )
    args: list[str] = strawberry.field(default_factory=list, description="Jobs only: its arguments.")
    backoff_limit: int | None = strawberry.field(
        default=None, description="Jobs only: retries after a failed run (0 to 10, default 0)."
    )


@strawberry.input
class SessionExtendInput:
    id: strawberry.ID
    expiry: Expiry  # type: ignore[valid-type]


@strawberry.input
class SessionApproveInput:
    id: strawberry.ID
    gpu_kind: GpuKind | None = strawberry.field(
        default=None, description="Assign exclusive, shared (time-slice), MIG or HAMi."
    )  # type: ignore[valid-type]


@strawberry.input
class SessionRejectInput:
    id: strawberry.ID
    reason: str


@strawberry.input
class VolumeCreateInput:
    name: str
    size_mib: int
    storage_class: str | None = None
    group_id: strawberry.ID | None = strawberry.field(
        default=None, description="Share it with a group (you must administer it)."
    )
    member_mode: MountMode = strawberry.field(default=MountMode.READ_WRITE)  # type: ignore[valid-type,attr-defined]


@strawberry.input
class TemplateCreateInput:
    group_id: strawberry.ID
    name: str
    image_id: strawberry.ID
    offering_id: strawberry.ID | None = None
    preset_id: strawberry.ID | None = None
    cpu_millicores: int | None = None
    memory_mib: int | None = None
    shm_mib: int | None = None
    env: list[EnvVarInput] = strawberry.field(default_factory=list)
    mounts: list[MountInput] = strawberry.field(default_factory=list)
    description: str = ""


@strawberry.input
class StorageClassSetInput:
    name: str
    description: str = ""
    is_default: bool = False
    access_modes: list[VolumeAccessMode] = strawberry.field(  # type: ignore[valid-type]
        default_factory=lambda: [AccessMode.READ_WRITE_ONCE],
        description="What the class's provisioner gives (NFS: READ_WRITE_MANY; a node-local disk: READ_WRITE_ONCE).",
    )


@strawberry.input
class NotificationsMarkReadInput:
    ids: list[strawberry.ID]
