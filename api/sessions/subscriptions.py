"""Live views: each subscription yields the current state first, then changes from the
EventBus (published after commit), so a client that reconnects never misses the state."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import datetime

import strawberry

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
