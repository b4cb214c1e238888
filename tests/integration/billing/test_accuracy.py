"""Billing accuracy over a simulated hour: sessions start, pause, resume and stop at random
seconds while metering ticks every 60 s; every wallet's charges equal rate × ratio × the seconds
its sessions were actually RUNNING, to the micro-credit, and no paused second is billed."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta
from fractions import Fraction
from typing import Any

from domain.catalog.model import GpuTier
from domain.common.money import MICRO_PER_CREDIT
from domain.credits.model import AccountRef
from domain.sessions import jobs
from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from tests.integration.billing.conftest import RATE_MICRO, START, Billed, ratio_of
from tests.integration.billing.support import assert_ledger_consistent, charges_of

HOUR = 3600


@dataclass
class Plan:
    actor: Any
    tier: GpuTier
    events: list[tuple[int, str]]
    sid: Any = None
    running_from: int | None = None
    seconds: int = 0
    log: list[str] = field(default_factory=list)

    def due(self, now: int) -> int:
        secs = self.seconds + (now - self.running_from if self.running_from is not None else 0)
        exact = Fraction(RATE_MICRO) * ratio_of(self.tier) * secs / HOUR
        return exact.numerator // exact.denominator


def random_events(rng: random.Random) -> list[tuple[int, str]]:
    """start, then pause/resume pairs, then stop (or still running at the end of the hour)."""
    t = rng.randrange(0, 900)
    events = [(t, "start")]
    running = True
    while True:
        t += rng.randrange(1, 700)
        if t >= HOUR:
            break
        if rng.random() < 0.15:
            events.append((t, "stop"))
            return events
        events.append((t, "pause" if running else "resume"))
        running = not running
    return events


async def test_an_hour_of_random_sessions_is_billed_to_the_micro_credit(billed: Billed) -> None:
    b, c = billed, billed.c
    rng = random.Random(20261129)
    b.clock.set(START)
    users = [await b.user(100) for _ in range(5)]
    tiers = [GpuTier.XL, GpuTier.L, GpuTier.M, GpuTier.S]
    plans = [Plan(users[i % len(users)], rng.choice(tiers), random_events(rng)) for i in range(10)]
    # every action at its second, a metering tick at every whole minute (after that second's actions)
    timeline = sorted(
        [(t, 0, i, action) for i, p in enumerate(plans) for t, action in p.events]
        + [(t, 1, -1, "tick") for t in range(60, HOUR + 1, 60)]
    )
    for t, _, i, action in timeline:
        b.clock.set(START + timedelta(seconds=t))
        if action == "tick":
            await jobs.meter(c.sessions, tick_seconds=60)
            for p in plans:  # metering is exact at every tick, not just at the end
                if p.running_from is not None:
                    s = await b.get(p.sid)
                    assert s.charged_micro == p.due(t), (p.log, t)
            continue
        p = plans[i]
        p.log.append(f"{t}:{action}")
        if action == "start":
            s = await b.start(p.actor, p.tier)
            p.sid, p.running_from = s.id, t
        elif action == "pause":
            await sessions.session_pause(c.sessions, p.actor, p.sid)
            await b.wait(p.sid, SessionState.PAUSED)
            assert p.running_from is not None
            p.seconds += t - p.running_from
            p.running_from = None
        elif action == "resume":
            await sessions.session_resume(c.sessions, p.actor, p.sid)
            await b.wait(p.sid, SessionState.RUNNING)
            p.running_from = t
        elif action == "stop":
            await sessions.session_stop(c.sessions, p.actor, p.sid)
            await b.wait(p.sid, SessionState.STOPPED)
            if p.running_from is not None:
                p.seconds += t - p.running_from
            p.running_from = None
    b.clock.set(START + timedelta(seconds=HOUR))
    for p in plans:
        s = await b.get(p.sid)
        if not s.terminal:
            await sessions.session_stop(c.sessions, p.actor, p.sid)
            await b.wait(p.sid, SessionState.STOPPED)
            if p.running_from is not None:
                p.seconds += HOUR - p.running_from
                p.running_from = None

    assert any(len(p.events) > 3 for p in plans), "the random plan should pause and resume"
    for p in plans:
        s = await b.get(p.sid)
        assert s.billed_seconds == p.seconds, p.log  # the state machine counted the same seconds
        assert s.charged_micro == p.due(HOUR), p.log
    for u in users:
        mine = [p for p in plans if p.actor.user_id == u.user_id]
        expected = sum(p.due(HOUR) for p in mine)
        assert await charges_of(c.engine, u.user_id) == expected
        bal = (await c.credits.ledger.balances([AccountRef.user(u.user_id)]))[AccountRef.user(u.user_id)]
        assert bal.held_micro == 0  # every hold closed, the rest released
        assert bal.balance_micro == 100 * MICRO_PER_CREDIT - expected
    await assert_ledger_consistent(c.engine)
