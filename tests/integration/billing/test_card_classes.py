"""A session on an offering that names a class of cards (issue 17): the scheduler picks the
model, the credit hold is computed at the dearest card of the class, the session is billed
at the rate of the card it was placed on, and the cost range is shown before admission."""

from __future__ import annotations

from typing import Any

from domain.catalog import services as catalog
from domain.catalog.model import GpuTier
from domain.common.money import cost_micro
from domain.credits import services as credits
from domain.sessions import services as sessions
from domain.sessions.model import Expiry, SessionState
from tests.integration.billing.conftest import RATE_MICRO, Billed, ratio_of
from tests.support.api import SYSTEM, unique

H100_RATE = 3_000_011  # dearer than the A100 (RATE_MICRO) of the billing world


async def _class(b: Billed, models: list[str] | None, vram_mib: int = 40960) -> Any:
    c = b.c
    async with c.uow() as uow:
        names = {o.name for o in (await uow.catalog.list_offerings(0, 1000))[0]}
        if "H100-80GB" not in names:  # the demo cluster's other 80 GB model
            await catalog.offering_create(
                uow,
                SYSTEM,
                c.ids,
                c.clock,
                vendor="NVIDIA",
                name="H100-80GB",
                vram_mib=81920,
                min_cuda="12.0",
                hourly_rate_micro=H100_RATE,
            )
        if "A30-24GB" not in names:  # too small for the class
            await catalog.offering_create(
                uow,
                SYSTEM,
                c.ids,
                c.clock,
                vendor="NVIDIA",
                name="A30-24GB",
                vram_mib=24576,
                min_cuda="11.0",
                hourly_rate_micro=1,
            )
        offering = await catalog.offering_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            vendor="NVIDIA",
            name=unique("any-40GiB"),
            vram_mib=vram_mib,
            min_cuda="11.0",
            hourly_rate_micro=0,
            card_models=models,
        )
        await uow.commit()
    return offering


async def test_a_class_session_is_held_at_the_dearest_card_and_billed_at_the_placed_one(billed: Billed) -> None:
    b, c = billed, billed.c
    offering = await _class(b, [])
    async with c.uow() as uow:
        members = await catalog.offering_members(uow, SYSTEM, offering)
    assert [o.name for o in members] == ["A100-80GB", "H100-80GB"]  # the A30 has too little VRAM
    actor = await b.user(100)
    req = sessions.SessionRequest(
        name=unique("cls"), image_id=b.image_id, preset_id=b.presets[GpuTier.L], offering_id=offering.id
    )
    s = await sessions.session_create(c.sessions, actor, req)
    assert s.gpu is not None and sorted(ch.model for ch in s.gpu.choices) == ["A100-80GB", "H100-80GB"]
    placed = s.placement["model"]
    assert placed in ("A100-80GB", "H100-80GB") and s.gpu.placed_model == placed
    rate = RATE_MICRO if placed == "A100-80GB" else H100_RATE
    assert s.gpu.hourly_rate_micro == rate and s.gpu.ratio == ratio_of(GpuTier.L)
    # the hold: the dearest card of the class, for the shorter of the expiry (4 h) and the window
    hold = await c.sessions.ledger.get_hold(s.hold_id)
    assert hold is not None
    assert hold.amount_micro == credits.estimate_hold_micro(
        H100_RATE, ratio_of(GpuTier.L), 4 * 3600, c.sessions.hold_window_seconds
    )
    running = await b.wait(s.id, SessionState.RUNNING)
    b.clock.advance(600)
    await c.sessions.billing.bill(c.clock.now(), [s.id], close=False)
    after = await b.get(s.id)
    assert after.charged_micro == cost_micro(rate, ratio_of(GpuTier.L), 600)
    assert running.gpu.placed_model == placed
    await sessions.session_stop(c.sessions, actor, s.id)
    await b.wait(s.id, SessionState.STOPPED)


async def test_a_class_naming_models_is_placed_on_one_of_them(billed: Billed) -> None:
    b, c = billed, billed.c
    offering = await _class(b, ["H100-80GB"])
    actor = await b.user(100)
    req = sessions.SessionRequest(
        name=unique("cls"),
        image_id=b.image_id,
        preset_id=b.presets[GpuTier.M],
        offering_id=offering.id,
        expiry=Expiry.H1,
    )
    s = await sessions.session_create(c.sessions, actor, req)
    assert s.placement["model"] == "H100-80GB" and s.gpu.hourly_rate_micro == H100_RATE
    await b.wait(s.id, SessionState.RUNNING)
    b.clock.advance(300)
    await c.sessions.billing.bill(c.clock.now(), [s.id], close=False)
    assert (await b.get(s.id)).charged_micro == cost_micro(H100_RATE, ratio_of(GpuTier.M), 300)
    await sessions.session_stop(c.sessions, actor, s.id)
    await b.wait(s.id, SessionState.STOPPED)
