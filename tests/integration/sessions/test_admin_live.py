"""adminSessionsChanged: the admin lists' live feed starts with the current state, then fires
for sessions the admin may see (and only those), after the change is committed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import pytest

from api.context import Context
from api.dataloaders import build_loaders
from api.schema import build_schema
from domain.sessions import services as sessions
from domain.tenancy.services import load_actor
from tests.integration.sessions.test_lifecycle import catalog_for, member
from tests.support.api import World, gid, unique

LIVE = "subscription { adminSessionsChanged { pendingApprovals sessionIds } }"


async def _feed(c: Any, user_id: Any) -> AsyncGenerator[Any, None]:
    async with c.uow() as uow:
        actor = await load_actor(uow, user_id)
    ctx = Context(
        request=None,  # type: ignore[arg-type]
        response=None,
        container=c,
        actor=actor,
        auth_method="token",
        loaders=build_loaders(c.uow),
    )
    gen = await build_schema().subscribe(LIVE, context_value=ctx)
    assert not hasattr(gen, "errors"), gen
    return gen  # type: ignore[return-value]


async def _next(gen: Any, within: float = 5) -> dict[str, Any]:
    result = await asyncio.wait_for(anext(gen), within)
    assert not result.errors, result.errors
    return result.data["adminSessionsChanged"]  # type: ignore[no-any-return]


async def test_admin_feed_fires_for_administered_sessions_only(container: Any, world: World, runtime: Any) -> None:
    c = container
    cat = await catalog_for(c)
    actor, _ = await member(c, world, world.g2, credits=50, approval=True, prefix="live")

    admin = await _feed(c, world.users["org_admin"])
    foreign = await _feed(c, world.users["foreign_admin"])
    try:
        before = await _next(admin)
        assert before["sessionIds"] == []
        assert (await _next(foreign))["sessionIds"] == []

        s = await sessions.session_create(
            c.sessions,
            actor,
            sessions.SessionRequest(
                name=unique("live"),
                image_id=cat["image"].id,
                preset_id=cat["preset"].id,
                offering_id=cat["offering"].id,
            ),
        )
        event = await _next(admin)
        assert gid("Session", s.id) in event["sessionIds"]
        assert event["pendingApprovals"] == before["pendingApprovals"] + 1
        with pytest.raises(TimeoutError):
            await _next(foreign, within=1)

        await sessions.session_stop(c.sessions, actor, s.id)
        event = await _next(admin)
        assert gid("Session", s.id) in event["sessionIds"]
        assert event["pendingApprovals"] == before["pendingApprovals"]
    finally:
        await admin.aclose()
        await foreign.aclose()
