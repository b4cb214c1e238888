from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

import strawberry
from strawberry import relay

from api.common.errors import ErrorParam
from api.common.money import Credits, CreditsRange
from api.common.nodes import resolve_authorised
from api.context import Info
from api.tenancy.types import GroupNode, UserNode
from domain.common.money import cost_micro
from domain.sessions import services as sessions
from domain.sessions.model import Expiry as ExpiryModel
from domain.sessions.model import MountMode as MountModeModel
from domain.sessions.model import Session as SessionModel
from domain.sessions.model import SessionKind as SessionKindModel
from domain.sessions.model import SessionState as SessionStateModel
from domain.sessions.ports import Notification as NotificationModel
from domain.volumes import services as volumes
from domain.volumes.model import AccessMode as AccessModeModel
from domain.volumes.model import ClaimPhase as ClaimPhaseModel
from domain.volumes.model import StorageClass as StorageClassModel
from domain.volumes.model import Template as TemplateModel
from domain.volumes.model import Volume as VolumeModel
from domain.volumes.model import VolumeScope as VolumeScopeModel

SessionState = strawberry.enum(SessionStateModel, name="SessionState")
SessionKind = strawberry.enum(SessionKindModel, name="SessionKind")
MountMode = strawberry.enum(MountModeModel, name="MountMode", description="ro = read-only, rw = read-write.")
VolumeScope = strawberry.enum(VolumeScopeModel, name="VolumeScope")
VolumeAccessMode = strawberry.enum(
    AccessModeModel,
    name="VolumeAccessMode",
    description="A PersistentVolumeClaim's access mode (Kubernetes' ReadWriteOnce, ReadWriteMany, …).",
)
VolumeClaimPhase = strawberry.enum(
    ClaimPhaseModel, name="VolumeClaimPhase", description="A PersistentVolumeClaim's phase as its cluster reports it."
)


Expiry = strawberry.enum(
    ExpiryModel, name="Expiry", description="How long a session may live: 1 h, 4 h, 1 d, 7 d, 30 d or no limit."
)


@strawberry.type(description="The standard endpoints of a session, once the cluster reports them.")
class SessionEndpoints:
    vscode: str | None
    jupyterlab: str | None
    terminal: str | None
    ssh: str | None


@strawberry.type(description="The GPU part of a session: model, limits per card, cards and billing ratio.")
class SessionGpu:
    offering_name: str
    vram_mib: int
    cores: int
    cards: int
    exclusive: bool
    shared: bool
    ratio: str
    kind: str | None = strawberry.field(description="The GPU kind an approving admin assigned, if any.")
    hourly_cost: Credits = strawberry.field(
        description="Per hour on the card it is placed on; for a class of cards not yet placed, on the dearest "
        "card of the class (what its credit hold is computed from)."
    )
    placed_model: str | None = strawberry.field(
        description="For a class of cards, the card model the scheduler placed it on (billed at that model's "
        "rate); null until placed, and for an offering of one model."
    )
    models: list[str] = strawberry.field(
        description="For a class of cards, the card models it may be placed on; empty for one model."
    )
    hourly_cost_range: CreditsRange = strawberry.field(
        description="The hourly cost on the cheapest and on the dearest card it may be placed on (equal for one model)."
    )


@strawberry.type
class SessionMount:
    volume_id: strawberry.ID
    mount_path: str
    mode: MountMode  # type: ignore[valid-type]
    volume_uuid: strawberry.Private[UUID]

    @strawberry.field(description="The volume's name; null once the volume is deleted.")
    async def volume_name(self, info: Info) -> str | None:
        volume = await info.context.loaders.volume_by_id.load(self.volume_uuid)
        return volume.name if volume else None


@strawberry.type(description="Where the session runs.")
class SessionPlacement:
    cluster_id: str
    node_id: str
    kind: str = strawberry.field(description="hami, mig, shared or exclusive; cpu for a CPU-only session.")
    card_uuids: list[str]
    mig_instance_id: str | None


@strawberry.type(description="An environment variable of a session or job.")
class EnvVar:
    name: str
    value: str


@strawberry.type(description="The last lines of a session's or job's log.")
class SessionLog:
    lines: list[str]
    live: bool = strawberry.field(
        description="True: read from the running container just now; false: kept from when the job ended."
    )
    reason: str | None = strawberry.field(description="Why there are no lines (not started, ended, cluster down).")


@strawberry.type(name="Session", description="An interactive GPU environment or a batch job.")
class SessionNode(relay.Node):
    uuid: relay.NodeID[str]
    name: str
    kind: SessionKind  # type: ignore[valid-type]
    state: SessionState  # type: ignore[valid-type]
    state_reason: str
    image_reference: str
    cpu_millicores: int
    memory_mib: int
    shm_mib: int
    disk_gib: int
    expiry: Expiry  # type: ignore[valid-type]
    expires_at: datetime | None
    priority: int
    preemptible: bool
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    model: strawberry.Private[SessionModel]

    @strawberry.field(
        description="Why the session is in its state, as a code (WAITING_FOR_CAPACITY, PLACED, NODE_LOST...) for "
        "clients to say it in their own language; null for a reason stored before codes (stateReason is the English)."
    )
    def state_reason_code(self) -> str | None:
        return self.model.state_reason_code or None

    @strawberry.field(
        description="The state reason's parameters by name (node: a node's name; reason: an approver's words)."
    )
    def state_reason_params(self) -> list[ErrorParam]:
        return [ErrorParam(name=k, value=v) for k, v in sorted(self.model.state_reason_params.items())]

    @classmethod
    def of(cls, s: SessionModel) -> SessionNode:
        return cls(
            uuid=str(s.id),
            name=s.name,
            kind=s.kind,
            state=s.state,
            state_reason=s.state_reason,
            image_reference=s.image_reference,
            cpu_millicores=s.cpu_millicores,
            memory_mib=s.memory_mib,
            shm_mib=s.shm_mib,
            disk_gib=s.disk_gib,
            expiry=s.expiry,
            expires_at=s.expires_at,
            priority=s.priority,
            preemptible=s.preemptible,
            created_at=s.created_at,
            updated_at=s.updated_at,
            started_at=s.started_at,
            model=s,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, sessions.session_get, cls.of)  # type: ignore[arg-type]

    @strawberry.field(description="Who asked for the session (seen by whoever may see the session).")
    async def owner(self, info: Info) -> UserNode | None:
        user = await info.context.loaders.user_by_id.load(self.model.owner_id)
        return UserNode.of(user) if user else None

    @strawberry.field(description="The admin who approved it (sessions that needed approval), when known.")
    async def approver(self, info: Info) -> UserNode | None:
        who = self.model.approved_by
        user = await info.context.loaders.user_by_id.load(who) if who else None
        return UserNode.of(user) if user else None

    @strawberry.field(description="The group it runs in (and is counted against).")
    async def group(self, info: Info) -> GroupNode | None:
        group = await info.context.loaders.group_by_id.load(self.model.group_id)
        return GroupNode.of(group) if group else None

    @strawberry.field(description="The Template it was started from, if any.")
    def template_id(self) -> strawberry.ID | None:
        t = self.model.template_id
        return strawberry.ID(str(relay.GlobalID("Template", str(t)))) if t else None

    @strawberry.field(description="The name of the template it was started from; null without one or once deleted.")
    async def template_name(self, info: Info) -> str | None:
        t = self.model.template_id
        if t is None:
            return None
        template = await info.context.loaders.template_by_group_and_id.load((self.model.group_id, t))
        return template.name if template else None

    @strawberry.field
    def owner_id(self) -> strawberry.ID:
        return strawberry.ID(str(relay.GlobalID("User", str(self.model.owner_id))))

    @strawberry.field
    def group_id(self) -> strawberry.ID:
        return strawberry.ID(str(relay.GlobalID("Group", str(self.model.group_id))))

    @strawberry.field
    def gpu(self) -> SessionGpu | None:
        g = self.model.gpu
        if g is None:
            return None
        hourly = g.hourly_rate_micro * g.ratio
        return SessionGpu(
            offering_name=g.offering_name,
            vram_mib=g.vram_mib,
            cores=g.cores,
            cards=g.cards,
            exclusive=g.exclusive,
            shared=g.shared,
            ratio=f"{g.ratio.numerator}/{g.ratio.denominator}",
            kind=g.forced_kind,
            hourly_cost=Credits.of(hourly.numerator // hourly.denominator),
            placed_model=g.placed_model,
            models=[c.model for c in g.choices],
            hourly_cost_range=CreditsRange.of(*(int(x.numerator // x.denominator) for x in g.cost_range)),
        )

    @strawberry.field
    def endpoints(self) -> SessionEndpoints:
        e = self.model.endpoints
        return SessionEndpoints(vscode=e.vscode, jupyterlab=e.jupyterlab, terminal=e.terminal, ssh=e.ssh)

    @strawberry.field
    def mounts(self) -> list[SessionMount]:
        return [
            SessionMount(
                volume_id=strawberry.ID(str(relay.GlobalID("Volume", str(m.volume_id)))),
                mount_path=m.mount_path,
                mode=m.mode,
                volume_uuid=m.volume_id,
            )
            for m in self.model.mounts
        ]

    @strawberry.field
    def placement(self) -> SessionPlacement | None:
        p = self.model.placement
        if not p:
            return None
        shares = p.get("shares", [])
        return SessionPlacement(
            cluster_id=p["cluster_id"],
            node_id=p["node_id"],
            kind=p["kind"] or "cpu",
            card_uuids=[s["card_uuid"] for s in shares],
            mig_instance_id=next((s.get("mig_instance_id") for s in shares if s.get("mig_instance_id")), None),
        )

    @strawberry.field(description="Its environment variables.")
    def env(self) -> list[EnvVar]:
        return [EnvVar(name=k, value=v) for k, v in sorted(self.model.env.items())]

    @strawberry.field(description="A job's command (replaces the image's entrypoint); empty: the entrypoint runs.")
    def command(self) -> list[str]:
        return list(self.model.job.command) if self.model.job else []

    @strawberry.field(description="A job's arguments; empty for interactive sessions.")
    def args(self) -> list[str]:
        return list(self.model.job.args) if self.model.job else []

    @strawberry.field(description="How often a failed job run is retried (null for interactive sessions).")
    def backoff_limit(self) -> int | None:
        return self.model.job.backoff_limit if self.model.job else None

    @strawberry.field(description="A job's exit code once it ended (0 with SUCCEEDED); null before, and for sessions.")
    def exit_code(self) -> int | None:
        return self.model.job.exit_code if self.model.job else None

    @strawberry.field(
        description="The last lines of its log: live while it runs, kept from the end for a finished job. "
        "Whoever may see the session may read it."
    )
    async def log_tail(self, info: Info, lines: int = 100) -> SessionLog:
        actor = info.context.actor
        tail = await sessions.session_log_tail(info.context.container.sessions, actor, self.model.id, lines=lines)
        return SessionLog(lines=tail.text.splitlines(), live=tail.live, reason=tail.reason or None)

    @strawberry.field(description="Seconds left before expiry (null when it never expires).")
    def remaining_seconds(self, info: Info) -> int | None:
        left = self.model.remaining(info.context.container.clock.now())
        return None if left is None else int(left.total_seconds())

    @strawberry.field(description="True from 90 % of the time to expiry elapsed.")
    def expiry_warning(self, info: Info) -> bool:
        return self.model.expiry_warning(info.context.container.clock.now())

    @strawberry.field(description="Seconds spent RUNNING (what is billed).")
    def running_seconds(self, info: Info) -> int:
        return self.model.running_seconds(info.context.container.clock.now())

    @strawberry.field(
        description="Credits owed so far for the seconds it ran (charged at pause, stop and by metering)."
    )
    def cost_so_far(self, info: Info) -> Credits:
        g = self.model.gpu
        if g is None:
            return Credits.of(0)
        return Credits.of(
            cost_micro(g.hourly_rate_micro, g.ratio, self.model.running_seconds(info.context.container.clock.now()))
        )

    @strawberry.field(description="Credits charged to the wallet so far.")
    def charged(self) -> Credits:
        return Credits.of(self.model.charged_micro)

    @strawberry.field(description="Place in the queue while QUEUED.")
    async def queue_position(self, info: Info) -> QueuePosition | None:
        if self.model.state not in (SessionStateModel.QUEUED, SessionStateModel.PREEMPTED):
            return None
        from domain.sessions.capacity_views import queue_position

        async with info.context.container.uow() as uow:
            state = await uow.capacity.snapshot()
        row = queue_position(state, self.model.id)
        return (
            QueuePosition(offering=row.entry.request.offering, position=row.position, length=row.length)
            if row
            else None
        )


@strawberry.type
class QueuePosition:
    offering: str
    position: int = strawberry.field(description="1 = next in line.")
    length: int


@strawberry.type(name="Volume", description="Persistent storage: personal or shared by a group; free of credits.")
class VolumeNode(relay.Node):
    uuid: relay.NodeID[str]
    name: str
    scope: VolumeScope  # type: ignore[valid-type]
    storage_class: str
    size_mib: int
    member_mode: MountMode  # type: ignore[valid-type]
    created_at: datetime
    model: strawberry.Private[VolumeModel]

    @classmethod
    def of(cls, v: VolumeModel) -> VolumeNode:
        return cls(
            uuid=str(v.id),
            name=v.name,
            scope=v.scope,
            storage_class=v.storage_class,
            size_mib=v.size_mib,
            member_mode=v.member_mode,
            created_at=v.created_at,
            model=v,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        return await resolve_authorised(info, node_ids, volumes.volume_get, cls.of)  # type: ignore[arg-type]

    @strawberry.field(description="The widest mode you may mount it with (null: you may not).")
    def my_mount_mode(self, info: Info) -> MountMode | None:  # type: ignore[valid-type]
        from domain.volumes.model import allowed_mount_mode

        actor = info.context.actor
        return allowed_mount_mode(actor, self.model) if actor else None

    @strawberry.field
    def group_id(self) -> strawberry.ID | None:
        g = self.model.group_id
        return strawberry.ID(str(relay.GlobalID("Group", str(g)))) if g else None

    @strawberry.field(description="The access mode of its claims (group-shared volumes: READ_WRITE_MANY).")
    def access_mode(self) -> VolumeAccessMode:  # type: ignore[valid-type]
        return self.model.access_mode

    @strawberry.field(description="The name of its PersistentVolumeClaim in the sessions namespace of every cluster.")
    def claim_name(self) -> str:
        return self.model.claim_name

    @strawberry.field(
        description="The worst phase of its claims (LOST, then PENDING, then BOUND); null until a cluster reports one."
    )
    def phase(self) -> VolumeClaimPhase | None:  # type: ignore[valid-type]
        return self.model.phase

    @strawberry.field(description="Its claim on each cluster, as that cluster's operator reports it.")
    def claims(self) -> list[VolumeClaim]:
        return [
            VolumeClaim(cluster_id=c, phase=st.phase, reported_at=st.reported_at)
            for c, st in sorted(self.model.claims.items())
        ]


@strawberry.type(description="A volume's PersistentVolumeClaim on one cluster.")
class VolumeClaim:
    cluster_id: str
    phase: VolumeClaimPhase  # type: ignore[valid-type]
    reported_at: datetime


@strawberry.type
class TemplateMount:
    volume_id: strawberry.ID
    mount_path: str
    mode: MountMode  # type: ignore[valid-type]


@strawberry.type(name="Template", description="A group's saved session recipe.")
class TemplateNode(relay.Node):
    uuid: relay.NodeID[str]
    name: str
    description: str
    created_at: datetime
    env: strawberry.scalars.JSON
    shm_mib: int | None
    cpu_millicores: int | None
    memory_mib: int | None
    model: strawberry.Private[TemplateModel]

    @classmethod
    def of(cls, t: TemplateModel) -> TemplateNode:
        return cls(
            uuid=str(t.id),
            name=t.name,
            description=t.description,
            created_at=t.created_at,
            env=dict(t.env),
            shm_mib=t.shm_mib,
            cpu_millicores=t.cpu_millicores,
            memory_mib=t.memory_mib,
            model=t,
        )

    @classmethod
    async def resolve_nodes(cls, *, info: Info, node_ids: Iterable[str], required: bool = False) -> list[Any]:
        actor = info.context.actor
        out: list[Any] = []
        async with info.context.container.uow() as uow:
            for raw in node_ids:
                try:
                    from uuid import UUID

                    t = await uow.templates.get(UUID(raw))
                except ValueError:
                    t = None
                visible = (
                    t is not None and actor is not None and (actor.is_super_admin or t.group_id in actor.group_roles)
                )
                out.append(cls.of(t) if visible and t else None)
        return out

    @strawberry.field
    def group_id(self) -> strawberry.ID:
        return strawberry.ID(str(relay.GlobalID("Group", str(self.model.group_id))))

    @strawberry.field
    def image_id(self) -> strawberry.ID:
        return strawberry.ID(str(relay.GlobalID("Image", str(self.model.image_id))))

    @strawberry.field
    def preset_id(self) -> strawberry.ID | None:
        p = self.model.preset_id
        return strawberry.ID(str(relay.GlobalID("Preset", str(p)))) if p else None

    @strawberry.field
    def offering_id(self) -> strawberry.ID | None:
        o = self.model.offering_id
        return strawberry.ID(str(relay.GlobalID("Offering", str(o)))) if o else None

    @strawberry.field
    def mounts(self) -> list[TemplateMount]:
        return [
            TemplateMount(
                volume_id=strawberry.ID(str(relay.GlobalID("Volume", str(m.volume_id)))),
                mount_path=m.mount_path,
                mode=m.mode,
            )
            for m in self.model.mounts
        ]


@strawberry.type(description="Budget warnings, expiry warnings, auto-pause, preemption and other news for you.")
class Notification:
    id: strawberry.ID
    kind: str
    message: str
    created_at: datetime
    read_at: datetime | None
    session_id: strawberry.ID | None

    @classmethod
    def of(cls, n: NotificationModel) -> Notification:
        return cls(
            id=strawberry.ID(str(n.id)),
            kind=n.kind,
            message=n.message,
            created_at=n.created_at,
            read_at=n.read_at,
            session_id=strawberry.ID(str(relay.GlobalID("Session", str(n.session_id)))) if n.session_id else None,
        )


@strawberry.type(description="One per-second usage sample of a session.")
class UsageSample:
    at: datetime
    cpu_millicores: int
    memory_mib: int
    gpu_util_percent: float
    gpu_memory_mib: int


@strawberry.type
class StorageClass:
    name: str
    description: str
    is_default: bool
    access_modes: list[VolumeAccessMode] = strawberry.field(  # type: ignore[valid-type]
        default_factory=list,
        description="What the class's provisioner gives; group-shared volumes need READ_WRITE_MANY.",
    )

    @classmethod
    def of(cls, sc: StorageClassModel) -> StorageClass:
        return cls(
            name=sc.name, description=sc.description, is_default=sc.is_default, access_modes=list(sc.access_modes)
        )
