"""A metering tick moves money past the ledger's own announcements, so it tells the owners of
running sessions that their wallets changed (live wallet views update every tick)."""

from __future__ import annotations

import asyncio

from domain.catalog.model import GpuTier
from domain.sessions import jobs
from domain.sessions import services as sessions
from tests.integration.billing.conftest import Billed


async def test_a_tick_that_charges_announces_the_owners_wallets(billed: Billed) -> None:
    b, c = billed, billed.c
    actor = await b.user(20)
    s = await b.start(actor, GpuTier.S)
    async with c.events.subscribe(sessions.wallet_topic(actor.user_id)) as events:
        b.clock.advance(120)
        await jobs.meter(c.sessions)
        topic, payload = await asyncio.wait_for(events.__anext__(), 5)
    assert topic == sessions.wallet_topic(actor.user_id) and payload == {"userId": str(actor.user_id)}
    await sessions.session_stop(c.sessions, actor, s.id)
