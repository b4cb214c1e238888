from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry

from api.context import Info
from domain.tenancy.services import load_actor, user_topic


@strawberry.type(description="The viewer as the server sees this connection: sent first, then on every change.")
class ViewerState:
    user_id: strawberry.ID
    username: str
    is_super_admin: bool
    read_only: bool


@strawberry.type
class AccountSubscription:
    @strawberry.subscription(
        description="The authenticated viewer: the current state first, then changes to the account."
    )
    async def viewer(self, info: Info) -> AsyncGenerator[ViewerState, None]:
        actor = info.context.require_actor()
        yield _state(info)
        async with info.context.container.events.subscribe(user_topic(actor.user_id)) as events:
            async for _topic, _payload in events:
                async with info.context.container.uow() as uow:
                    refreshed = await load_actor(uow, actor.user_id, read_only=actor.read_only)
                if refreshed is None:
                    return
                info.context.actor = refreshed
                yield _state(info)


def _state(info: Info) -> ViewerState:
    actor = info.context.require_actor()
    return ViewerState(
        user_id=strawberry.ID(str(actor.user_id)),
        username=actor.username,
        is_super_admin=actor.is_super_admin,
        read_only=actor.read_only,
    )
