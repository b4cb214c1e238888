from __future__ import annotations

from datetime import datetime

import strawberry

from api.common.ids import decode_optional
from api.common.pagination import Connection, paginate
from api.context import Info
from api.sessions.types import (
    Notification,
    QueuePosition,
    SessionNode,
    SessionState,
    StorageClass,
    TemplateNode,
    UsageSample,
    VolumeNode,
)
from domain.sessions import jobs as session_jobs
from domain.sessions import services as sessions
from domain.sessions.model import SessionState as SessionStateModel
from domain.sessions.ports import SessionFilter
from domain.tenancy.services import Page
from domain.volumes import services as volumes


@strawberry.type
class SessionsQuery:
    @strawberry.field(description="Your sessions, newest first.")
    async def my_sessions(
        self,
        info: Info,
        states: list[SessionState] | None = None,
        first: int | None = None,  # type: ignore[valid-type]
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[SessionNode]:
        actor = info.context.require_actor()
        flt = SessionFilter(
            owner_id=actor.user_id, states=frozenset(SessionStateModel(s.value) for s in states) if states else None
        )
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: uow.sessions.search(flt, p.offset, p.limit), SessionNode.of, first, after, last, before
            )

    @strawberry.field(
        description="Sessions in the scopes you administer (organisations, groups); all for super_admins."
    )
    async def sessions(
        self,
        info: Info,
        states: list[SessionState] | None = None,
        organization_id: strawberry.ID | None = None,  # type: ignore[valid-type]
        group_id: strawberry.ID | None = None,
        first: int | None = None,
        after: str | None = None,
        last: int | None = None,
        before: str | None = None,
    ) -> Connection[SessionNode]:
        actor = info.context.require_actor()
        org = decode_optional(organization_id, "Organization", "organizationId")
        group = decode_optional(group_id, "Group", "groupId")
        state_set = frozenset(SessionStateModel(s.value) for s in states) if states else None
        async with info.context.container.uow() as uow:
            flt = await sessions.sessions_filter(uow, actor, organization_id=org, group_id=group, states=state_set)
            return await paginate(
                lambda p: uow.sessions.search(flt, p.offset, p.limit), SessionNode.of, first, after, last, before
            )

    @strawberry.field(description="Sessions waiting for your approval.")
    async def pending_approvals(
        self, info: Info, first: int | None = None, after: str | None = None
    ) -> Connection[SessionNode]:
        actor = info.context.require_actor()
        flt = sessions.approvals_filter(actor)
        if flt is None:
            return await paginate(lambda p: _empty(), SessionNode.of, first, after, None, None)
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: uow.sessions.search(flt, p.offset, p.limit), SessionNode.of, first, after, None, None
            )

    @strawberry.field(description="Where your queued sessions stand.")
    async def my_queue_positions(self, info: Info) -> list[SessionQueuePosition]:
        return await _my_positions(info)

    @strawberry.field(
        description="Volumes you can see: yours, your groups', and those of organisations you administer."
    )
    async def volumes(self, info: Info, first: int | None = None, after: str | None = None) -> Connection[VolumeNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: volumes.volumes_list(uow, actor, p), VolumeNode.of, first, after, None, None
            )  # type: ignore[arg-type]

    @strawberry.field(description="Storage classes volumes may use.")
    async def storage_classes(self, info: Info) -> list[StorageClass]:
        info.context.require_actor()
        async with info.context.container.uow() as uow:
            found = await volumes.storage_classes(uow)  # type: ignore[arg-type]
        return [StorageClass.of(s) for s in found]

    @strawberry.field(description="Templates of your groups.")
    async def templates(
        self, info: Info, first: int | None = None, after: str | None = None
    ) -> Connection[TemplateNode]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: volumes.templates_list(uow, actor, p), TemplateNode.of, first, after, None, None
            )  # type: ignore[arg-type]

    @strawberry.field(description="Your notifications, newest first.")
    async def notifications(
        self, info: Info, unread_only: bool = False, first: int | None = None, after: str | None = None
    ) -> Connection[Notification]:
        actor = info.context.require_actor()
        async with info.context.container.uow() as uow:
            return await paginate(
                lambda p: uow.notifications.of_user(actor.user_id, p.offset, p.limit, unread_only),
                Notification.of,
                first,
                after,
                None,
                None,
            )

    @strawberry.field(
        description="Idle reclaim's pauses and the GPU-hours they returned, from the audit log of the scopes you "
        "administer (nothing for a member). `until` defaults to now."
    )
    async def idle_reclaim_report(
        self, info: Info, since: datetime, until: datetime | None = None
    ) -> IdleReclaimReport:
        actor = info.context.require_actor()
        end = until or info.context.container.clock.now()
        async with info.context.container.uow() as uow:
            found = await session_jobs.idle_reclaim_report(uow.audit, actor, since, end)
        return IdleReclaimReport(
            since=found.since,
            until=found.until,
            paused_sessions=found.paused_sessions,
            gpu_hours_returned=found.gpu_hours_returned,
        )

    @strawberry.field(description="The last minutes of a session's per-second usage.")
    async def session_usage(self, info: Info, session_id: strawberry.ID, seconds: int = 300) -> list[UsageSample]:
        s = await _visible_session(info, session_id)
        samples = await info.context.container.usage.recent(s.id, max(1, min(seconds, 300)))
        return [_sample(x) for x in samples]


@strawberry.type(description="What idle reclaim gave back in a period, in the scopes you administer.")
class IdleReclaimReport:
    since: datetime
    until: datetime
    paused_sessions: int = strawberry.field(description="Sessions idle reclaim paused in the period.")
    gpu_hours_returned: float = strawberry.field(
        description="GPU-hours (card equivalents × hours) those sessions did not hold from their pause until "
        "they were resumed, their expiry, or the period's end."
    )


async def _empty() -> tuple[list[object], int]:
    return [], 0


@strawberry.type
class SessionQueuePosition:
    session: SessionNode
    position: QueuePosition


async def _my_positions(info: Info) -> list[SessionQueuePosition]:
    from domain.sessions.capacity_views import queue_position

    actor = info.context.require_actor()
    flt = SessionFilter(
        owner_id=actor.user_id, states=frozenset({SessionStateModel.QUEUED, SessionStateModel.PREEMPTED})
    )
    async with info.context.container.uow() as uow:
        mine, _ = await uow.sessions.search(flt, 0, Page.clamp(Page(0, 500)).limit)
        state = await uow.capacity.snapshot()
    out = []
    for s in mine:
        row = queue_position(state, s.id)
        if row is not None:
            out.append(
                SessionQueuePosition(
                    session=SessionNode.of(s),
                    position=QueuePosition(
                        offering=row.entry.request.offering, position=row.position, length=row.length
                    ),
                )
            )
    return out


async def _visible_session(info: Info, session_id: strawberry.ID) -> object:
    from api.common.ids import decode

    actor = info.context.require_actor()
    sid = decode(session_id, "Session", "sessionId")
    async with info.context.container.uow() as uow:
        return await sessions.session_get(uow, actor, sid)  # type: ignore[arg-type]


def _sample(x: object) -> UsageSample:
    return UsageSample(
        at=x.at,
        cpu_millicores=x.cpu_millicores,
        memory_mib=x.memory_mib,  # type: ignore[attr-defined]
        gpu_util_percent=x.gpu_util_percent,
        gpu_memory_mib=x.gpu_memory_mib,  # type: ignore[attr-defined]
    )
