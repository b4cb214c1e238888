from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from uuid import UUID

import strawberry

from api.common.errors import UserError
from api.common.ids import decode, decode_optional, node_id_of
from api.common.mutations import mutate, mutate_saga, success_audit
from api.common.payloads import DeletePayload, IdInput
from api.context import Info
from api.sessions import inputs
from api.sessions.types import SessionNode, StorageClass, TemplateNode, VolumeNode
from domain.audit.services import AuditTarget
from domain.common.errors import InvalidValueError
from domain.inventory.model import GpuKind as GpuKindModel
from domain.sessions import services as sessions
from domain.sessions.model import MountMode, MountRequest, Session
from domain.tenancy.model import Actor
from domain.volumes import services as volumes
from domain.volumes.model import AccessMode, Template, TemplateMount, Volume
from domain.volumes.model import StorageClass as StorageClassModel


@strawberry.type
class SessionPayload:
    session: SessionNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class VolumePayload:
    volume: VolumeNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class TemplatePayload:
    template: TemplateNode | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class StorageClassPayload:
    storage_class: StorageClass | None = None
    errors: list[UserError] = strawberry.field(default_factory=list)


@strawberry.type
class NotificationsMarkReadPayload:
    marked: int = 0
    errors: list[UserError] = strawberry.field(default_factory=list)


def _target(s: Session) -> AuditTarget:
    return AuditTarget("Session", str(s.id), s.organization_id, s.group_id)


def _env(items: list[inputs.EnvVarInput]) -> dict[str, str]:
    out: dict[str, str] = {}
    for e in items:
        if e.name in out:
            raise InvalidValueError("env", f"{e.name} is given twice")
        out[e.name] = e.value
    return out


def _mounts(items: list[inputs.MountInput]) -> tuple[MountRequest, ...]:
    return tuple(MountRequest(decode(m.volume_id, "Volume", "mounts"), m.mount_path, MountMode(m.mode)) for m in items)


async def _session_mutation(
    info: Info,
    operation: str,
    call: Callable[[Actor], Awaitable[Session]],
    attempted: AuditTarget,
    *,
    audited_by_call: bool = False,
) -> SessionPayload:
    """Session use cases run their own transactions (a saga); the audit entry follows them
    (or, `audited_by_call`, the use case writes it with its change)."""
    return await mutate_saga(
        info.context,
        operation,
        call,
        _target,
        lambda s: SessionPayload(session=SessionNode.of(s)),
        lambda e: SessionPayload(errors=e),
        attempted=attempted,
        audited_by_call=audited_by_call,
    )


@strawberry.type
class SessionsMutation:
    @strawberry.mutation(
        description="Ask for a session: runs the eight admission steps; a refusal names the step and the numbers."
    )
    async def session_create(self, info: Info, input: inputs.SessionCreateInput) -> SessionPayload:
        svc = info.context.container.sessions

        async def call(actor: Actor) -> Session:
            req = sessions.SessionRequest(
                name=input.name,
                image_id=decode(input.image_id, "Image", "imageId"),
                preset_id=decode_optional(input.preset_id, "Preset", "presetId"),
                offering_id=decode_optional(input.offering_id, "Offering", "offeringId"),
                template_id=decode_optional(input.template_id, "Template", "templateId"),
                bundle_cpu_millicores=input.bundle_cpu_millicores,
                bundle_memory_mib=input.bundle_memory_mib,
                bundle_gpus=input.bundle_gpus,
                expiry=input.expiry,
                mounts=_mounts(input.mounts),
                env=_env(input.env),
                shm_mib=input.shm_mib,
                cluster=input.cluster_id,
                shared=input.shared,
                kind=input.kind,
                wallet_user_id=decode_optional(input.wallet_user_id, "User", "walletUserId"),
                command=tuple(input.command),
                args=tuple(input.args),
                backoff_limit=input.backoff_limit,
            )
            # the admitted session's audit entry commits with it (issue 19: one transaction fewer)
            audit = success_audit(info.context, actor, "sessionCreate", _target)
            return await sessions.session_create(svc, actor, req, audit=audit)

        return await _session_mutation(info, "sessionCreate", call, AuditTarget("Session"), audited_by_call=True)

    @strawberry.mutation(description="Pause: frees the GPU at once and stops billing; settings and volumes stay.")
    async def session_pause(self, info: Info, input: IdInput) -> SessionPayload:
        svc = info.context.container.sessions
        return await _session_mutation(
            info,
            "sessionPause",
            lambda a: sessions.session_pause(svc, a, decode(input.id, "Session", "id")),
            AuditTarget("Session", node_id_of(input.id)),
        )

    @strawberry.mutation(description="Resume a paused session: places it again (or queues it).")
    async def session_resume(self, info: Info, input: IdInput) -> SessionPayload:
        svc = info.context.container.sessions
        return await _session_mutation(
            info,
            "sessionResume",
            lambda a: sessions.session_resume(svc, a, decode(input.id, "Session", "id")),
            AuditTarget("Session", node_id_of(input.id)),
        )

    @strawberry.mutation(description="Stop: releases everything and settles the credit hold; volumes are kept.")
    async def session_stop(self, info: Info, input: IdInput) -> SessionPayload:
        svc = info.context.container.sessions
        return await _session_mutation(
            info,
            "sessionStop",
            lambda a: sessions.session_stop(svc, a, decode(input.id, "Session", "id")),
            AuditTarget("Session", node_id_of(input.id)),
        )

    @strawberry.mutation(description="Choose a new expiry from now, within the policy's maximum duration.")
    async def session_extend(self, info: Info, input: inputs.SessionExtendInput) -> SessionPayload:
        svc = info.context.container.sessions
        return await _session_mutation(
            info,
            "sessionExtend",
            lambda a: sessions.session_extend(svc, a, decode(input.id, "Session", "id"), input.expiry),
            AuditTarget("Session", node_id_of(input.id)),
        )

    @strawberry.mutation(description="Approve a session waiting for approval, optionally assigning the GPU kind.")
    async def session_approve(self, info: Info, input: inputs.SessionApproveInput) -> SessionPayload:
        svc = info.context.container.sessions
        kind = GpuKindModel(input.gpu_kind.value) if input.gpu_kind is not None else None
        return await _session_mutation(
            info,
            "sessionApprove",
            lambda a: sessions.session_approve(svc, a, decode(input.id, "Session", "id"), gpu_kind=kind),
            AuditTarget("Session", node_id_of(input.id)),
        )

    @strawberry.mutation(description="Reject a session waiting for approval, with a reason the requester sees.")
    async def session_reject(self, info: Info, input: inputs.SessionRejectInput) -> SessionPayload:
        svc = info.context.container.sessions
        return await _session_mutation(
            info,
            "sessionReject",
            lambda a: sessions.session_reject(svc, a, decode(input.id, "Session", "id"), reason=input.reason),
            AuditTarget("Session", node_id_of(input.id)),
        )

    @strawberry.mutation(description="Create a personal volume, or a group-shared one for a group you administer.")
    async def volume_create(self, info: Info, input: inputs.VolumeCreateInput) -> VolumePayload:
        c = info.context.container

        async def action(uow: Any, actor: Actor) -> Volume:
            return await volumes.volume_create(
                uow,
                actor,
                c.ids,
                c.clock,
                c.credits.policies,
                name=input.name,
                size_mib=input.size_mib,
                storage_class=input.storage_class,
                group_id=decode_optional(input.group_id, "Group", "groupId"),
                member_mode=MountMode(input.member_mode),
            )

        created: list[Volume] = []

        def payload(v: Volume) -> VolumePayload:
            created.append(v)
            return VolumePayload(volume=VolumeNode.of(v))

        result = await mutate(
            info.context,
            "volumeCreate",
            action,
            lambda v: AuditTarget("Volume", str(v.id), v.organization_id, v.group_id),
            payload,
            lambda e: VolumePayload(errors=e),
            attempted=AuditTarget("Volume"),
        )
        if created and not result.errors:
            # committed: its claim on every cluster, and the phase each answers with
            await volumes.provision_volume(c.sessions, created[0])
            async with c.uow() as uow:
                fresh = await uow.volumes.get(created[0].id)
            if fresh is not None:
                result.volume = VolumeNode.of(fresh)
        return result

    @strawberry.mutation(description="Delete a volume no session mounts (its claim on every cluster with it).")
    async def volume_delete(self, info: Info, input: IdInput) -> DeletePayload:
        deleted: list[Volume] = []

        def payload(v: Volume) -> DeletePayload:
            deleted.append(v)
            return DeletePayload(deleted_id=input.id)

        result = await mutate(
            info.context,
            "volumeDelete",
            lambda uow, actor: volumes.volume_delete(uow, actor, decode(input.id, "Volume", "id")),  # type: ignore[arg-type]
            lambda v: AuditTarget("Volume", str(v.id), v.organization_id, v.group_id),
            payload,
            lambda e: DeletePayload(errors=e),
            attempted=AuditTarget("Volume", node_id_of(input.id)),
        )
        if deleted and not result.errors:
            await volumes.deprovision_volume(info.context.container.sessions, deleted[0])
        return result

    @strawberry.mutation(description="Save a session recipe for a group.")
    async def template_create(self, info: Info, input: inputs.TemplateCreateInput) -> TemplatePayload:
        c = info.context.container

        async def action(uow: Any, actor: Actor) -> Template:
            return await volumes.template_create(
                uow,
                actor,
                c.ids,
                c.clock,
                group_id=decode(input.group_id, "Group", "groupId"),
                name=input.name,
                image_id=decode(input.image_id, "Image", "imageId"),
                offering_id=decode_optional(input.offering_id, "Offering", "offeringId"),
                preset_id=decode_optional(input.preset_id, "Preset", "presetId"),
                cpu_millicores=input.cpu_millicores,
                memory_mib=input.memory_mib,
                shm_mib=input.shm_mib,
                env=_env(input.env),
                mounts=tuple(TemplateMount(m.volume_id, m.mount_path, m.mode) for m in _mounts(input.mounts)),
                description=input.description,
            )

        return await mutate(
            info.context,
            "templateCreate",
            action,
            lambda t: AuditTarget("Template", str(t.id), t.organization_id, t.group_id),
            lambda t: TemplatePayload(template=TemplateNode.of(t)),
            lambda e: TemplatePayload(errors=e),
            attempted=AuditTarget("Template"),
        )

    @strawberry.mutation
    async def template_delete(self, info: Info, input: IdInput) -> DeletePayload:
        return await mutate(
            info.context,
            "templateDelete",
            lambda uow, actor: volumes.template_delete(uow, actor, decode(input.id, "Template", "id")),  # type: ignore[arg-type]
            lambda t: AuditTarget("Template", str(t.id), t.organization_id, t.group_id),
            lambda _: DeletePayload(deleted_id=input.id),
            lambda e: DeletePayload(errors=e),
            attempted=AuditTarget("Template", node_id_of(input.id)),
        )

    @strawberry.mutation(description="Add or change a storage class volumes may use (super_admin).")
    async def storage_class_set(self, info: Info, input: inputs.StorageClassSetInput) -> StorageClassPayload:
        return await mutate(
            info.context,
            "storageClassSet",
            lambda uow, actor: volumes.storage_class_set(
                uow,
                actor,
                StorageClassModel(
                    input.name,
                    input.description,
                    input.is_default,
                    tuple(AccessMode(m) for m in input.access_modes),
                ),
            ),  # type: ignore[arg-type]
            lambda sc: AuditTarget("StorageClass", sc.name),
            lambda sc: StorageClassPayload(storage_class=StorageClass.of(sc)),
            lambda e: StorageClassPayload(errors=e),
            attempted=AuditTarget("StorageClass", input.name[:64]),
        )

    @strawberry.mutation
    async def notifications_mark_read(
        self, info: Info, input: inputs.NotificationsMarkReadInput
    ) -> NotificationsMarkReadPayload:
        c = info.context.container

        async def action(uow: Any, actor: Actor) -> int:
            ids = []
            for raw in input.ids:
                try:
                    ids.append(UUID(str(raw)))
                except ValueError as exc:
                    raise InvalidValueError("ids", f"{raw!r} is not a notification id") from exc
            return int(await uow.notifications.mark_read(actor.user_id, ids, c.clock.now()))

        return await mutate(
            info.context,
            "notificationsMarkRead",
            action,
            lambda n: AuditTarget("Notification", str(n)),
            lambda n: NotificationsMarkReadPayload(marked=n),
            lambda e: NotificationsMarkReadPayload(errors=e),
        )
