"""Live views: each subscription yields the current state first, then changes from the
EventBus (published after commit), so a client that reconnects never misses the state."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

import strawberry
from strawberry import relay

from api.common.events import coalesced
from api.common.ids import decode
from api.context import Info
from api.credits.types import AccountNode
from api.sessions.queries import SessionQueuePosition, _my_positions, _sample
from api.sessions.types import Notification, SessionNode, UsageSample
from domain.credits import services as credits
from domain.credits.model import AccountRef
from domain.sessions import services as sessions
from domain.sessions.ports import SessionFilter
from infra.runtime import usage_topic


async def _load(info: Info, session_id: object) -> SessionNode:
    actor = info.context.require_actor()
    async with info.context.container.uow() as uow:
        s = await sessions.session_get(uow, actor, session_id)  # type: ignore[arg-type]
    return SessionNode.of(s)


@strawberry.type
class SessionsSubscription:
    @strawberry.subscription(description="One session: its current state, then every change until it ends.")
    async def session_status(self, info: Info, id: strawberry.ID) -> AsyncGenerator[SessionNode, None]:
        sid = decode(id, "Session", "id")
        async with info.context.container.events.subscribe(sessions.session_topic(sid)) as events:
            current = await _load(info, sid)
            yield current
            if current.model.terminal:
                return
            async for _topic, _payload in events:
                current = await _load(info, sid)
                yield current
                if current.model.terminal:
                    return

    @strawberry.subscription(description="All your sessions: the current list, then the list again on every change.")
    async def my_sessions(self, info: Info) -> AsyncGenerator[list[SessionNode], None]:
        actor = info.context.require_actor()

        async def snapshot() -> list[SessionNode]:
            async with info.context.container.uow() as uow:
                found, _ = await uow.sessions.search(SessionFilter(owner_id=actor.user_id), 0, 200)
            return [SessionNode.of(s) for s in found]

        async with info.context.container.events.subscribe(sessions.owner_topic(actor.user_id)) as events:
            yield await snapshot()
            async for _ in events:
                yield await snapshot()

    @strawberry.subscription(description="Your queue positions now, then whenever the queue moves.")
    async def my_queue_positions(self, info: Info) -> AsyncGenerator[list[SessionQueuePosition], None]:
        info.context.require_actor()
        async with info.context.container.events.subscribe(sessions.QUEUE_TOPIC) as events:
            yield await _my_positions(info)
            async for _ in events:
                yield await _my_positions(info)

    @strawberry.subscription(description="Your unread notifications now, then each new one.")
    async def notifications(self, info: Info) -> AsyncGenerator[list[Notification], None]:
        actor = info.context.require_actor()
        async with info.context.container.events.subscribe(sessions.notifications_topic(actor.user_id)) as events:
            async with info.context.container.uow() as uow:
                unread, _ = await uow.notifications.of_user(actor.user_id, 0, 50, unread_only=True)
            yield [Notification.of(n) for n in unread]
            async for _topic, payload in events:
                yield [
                    Notification(
                        id=strawberry.ID(payload["id"]),
                        kind=payload["kind"],
                        message=payload["message"],
                        created_at=info.context.container.clock.now(),
                        read_at=None,
                        session_id=None,
                    )
                ]

    @strawberry.subscription(
        description="A session's live usage at 1 s: the last 5 minutes first, then each new sample."
    )
    async def session_usage(self, info: Info, session_id: strawberry.ID) -> AsyncGenerator[list[UsageSample], None]:
        actor = info.context.require_actor()
        sid = decode(session_id, "Session", "sessionId")
        async with info.context.container.uow() as uow:
            await sessions.session_get(uow, actor, sid)  # type: ignore[arg-type]
        async with info.context.container.events.subscribe(usage_topic(sid)) as events:
            yield [_sample(x) for x in await info.context.container.usage.recent(sid)]
            async for _topic, p in events:
                yield [
                    UsageSample(
                        at=datetime.fromisoformat(p["at"]),
                        cpu_millicores=int(p["cpu"]),
                        memory_mib=int(p["memory"]),
                        gpu_util_percent=float(p["gpu"]),
                        gpu_memory_mib=int(p["gpuMemory"]),
                    )
                ]


@strawberry.type(description="A change among the sessions you administer (or your own, if you administer none).")
class AdminSessionsChange:
    pending_approvals: int = strawberry.field(description="How many sessions wait for your approval now.")
    session_ids: list[strawberry.ID] = strawberry.field(
        description="The sessions that changed since the previous event (none in the first, the current state)."
    )


# published by the session use cases when a session starts waiting for approval


async def _pending_approvals(info: Info) -> int:
    flt = sessions.approvals_filter(info.context.require_actor())
    if flt is None:
        return 0
    async with info.context.container.uow() as uow:
        _, total = await uow.sessions.search(flt, 0, 1)
    return total


def _visible_changes(info: Info, batch: Iterable[tuple[str, dict[str, Any]]]) -> list[UUID]:
    """The changed sessions the viewer may see, judged from the events (they name the owner,
    group and organisation), without reading the sessions."""
    actor = info.context.require_actor()
    seen: set[UUID] = set()
    for _topic, payload in batch:
        try:
            sid = UUID(str(payload["sessionId"]))
            visible = actor.is_super_admin or sessions.can_see_session_of(
                actor,
                UUID(str(payload["ownerId"])),
                UUID(str(payload["groupId"])),
                UUID(str(payload["organizationId"])),
            )
        except (KeyError, ValueError):
            continue
        if visible:
            seen.add(sid)
    return sorted(seen, key=str)


@strawberry.type
class AdminSessionsSubscription:
    @strawberry.subscription(
        description="The admin session lists' live feed: the pending-approval count first, then an event each "
        "time sessions you may see change state or ask for approval (bursts coalesced over 200 ms). Lists "
        "refetch their page when it fires."
    )
    async def admin_sessions_changed(self, info: Info) -> AsyncGenerator[AdminSessionsChange, None]:
        info.context.require_actor()
        events = info.context.container.events
        every_session = sessions.session_topic("*")  # type: ignore[arg-type]  # a prefix pattern
        async with events.subscribe(every_session, sessions.APPROVALS_TOPIC) as feed:
            yield AdminSessionsChange(pending_approvals=await _pending_approvals(info), session_ids=[])
            async for batch in coalesced(feed):
                changed = _visible_changes(info, batch)
                if changed:
                    yield AdminSessionsChange(
                        pending_approvals=await _pending_approvals(info),
                        session_ids=[strawberry.ID(str(relay.GlobalID("Session", str(i)))) for i in changed],
                    )


@strawberry.type
class WalletSubscription:
    @strawberry.subscription(description="Your wallet (balance, held, available) now, then after every change to it.")
    async def my_wallet(self, info: Info) -> AsyncGenerator[AccountNode, None]:
        actor = info.context.require_actor()
        cr = info.context.container.credits
        wallet = AccountRef.user(actor.user_id)

        async def current() -> AccountNode:
            found = await credits.get_balances(actor, cr.ledger, cr.directory, [wallet])
            return AccountNode.of(found[wallet])

        async with info.context.container.events.subscribe(sessions.wallet_topic(actor.user_id)) as events:
            yield await current()
            async for _ in events:
                yield await current()
