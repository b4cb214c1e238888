"""A metering tick is idempotent and atomic: repeated or concurrent at the same instant it
changes nothing more; an exception inside it rolls everything back; holds are renewed one
window ahead, a short wallet is told once and its session paused when the hold runs out."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import text

from domain.catalog.model import GpuTier
from domain.common.money import cost_micro
from domain.credits.model import AccountRef
from domain.sessions import jobs
from domain.sessions import services as sessions
from domain.sessions.model import SessionState
from tests.integration.billing.conftest import RATE_MICRO, Billed, ratio_of
from tests.integration.billing.support import assert_ledger_consistent, charges_of, snapshot


async def stop_all(b: Billed, pairs: list[tuple[Any, Any]]) -> None:
    for actor, s in pairs:
        await sessions.session_stop(b.c.sessions, actor, s.id)
        await b.wait(s.id, SessionState.STOPPED)


async def test_repeated_and_concurrent_ticks_change_nothing_more(billed: Billed) -> None:
    b, c = billed, billed.c
    actors = [await b.user(50) for _ in range(3)]
    running = [(a, await b.start(a, GpuTier.M)) for a in actors for _ in range(2)]
    b.clock.advance(137)
    first = await c.sessions.billing.bill(c.clock.now(), None, close=False)
    assert first.transfers >= len(running)
    before = await snapshot(c.engine)
    again = await c.sessions.billing.bill(c.clock.now(), None, close=False)
    assert again.transfers == 0 and again.charged_micro == 0
    assert await snapshot(c.engine) == before

    # two ticks at once, at a new instant: every session is charged exactly once between them
    b.clock.advance(61)
    results = await asyncio.gather(*(c.sessions.billing.bill(c.clock.now(), None, close=False) for _ in range(4)))
    assert sum(r.transfers for r in results) == len(running)
    for _, s in running:
        now_s = await b.get(s.id)
        assert now_s.charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.M), 137 + 61)
    await assert_ledger_consistent(c.engine)

    # a redelivered settlement after the stop: nothing more
    await stop_all(b, running)
    settled = await snapshot(c.engine)
    for _, s in running:
        await sessions.settle(c.sessions, s.id)
    assert await snapshot(c.engine) == settled


async def test_a_bill_waiting_on_a_session_sees_what_the_one_before_it_posted(billed: Billed) -> None:
    """What a session has been charged lives in its meter, not in its row, and a bill that
    waited for the session's lock must read the amount the bill before it committed, not the
    one its own statement started with (that would charge the same seconds twice). Two bills
    of one session at different instants are made to wait behind a third transaction's lock
    on the session row and run one after the other once it is released: between them they
    charge exactly what the later instant is due."""
    b, c = billed, billed.c
    actor = await b.user(50)
    s = await b.start(actor, GpuTier.M)
    billing = c.sessions.billing
    await billing.bill(
        c.clock.now(), [s.id], close=False
    )  # opens the consumption account: both will wait on the session only
    b.clock.advance(100)
    at_100 = c.clock.now()
    b.clock.advance(100)
    at_200 = c.clock.now()
    async with c.engine.connect() as blocker:
        await blocker.execute(text("SELECT 1 FROM sessions WHERE id = :id FOR UPDATE"), {"id": s.id})
        bills = [asyncio.create_task(billing.bill(at, [s.id], close=False)) for at in (at_200, at_100)]
        for _ in range(250):  # until both wait for the session's lock
            async with c.engine.connect() as conn:  # a new transaction: pg_stat_activity is read once per transaction
                waiting = await conn.scalar(
                    text(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
                    )
                )
            if waiting == 2:
                break
            await asyncio.sleep(0.02)
        assert waiting == 2
        await blocker.rollback()
    results = await asyncio.gather(*bills)
    due = cost_micro(RATE_MICRO, ratio_of(GpuTier.M), 200)
    assert sum(r.charged_micro for r in results) == due
    assert (await b.get(s.id)).charged_micro == due
    await assert_ledger_consistent(c.engine)
    await stop_all(b, [(actor, s)])


async def test_a_tick_whose_key_is_in_the_ledger_already_posts_nothing_again_for_it(billed: Billed) -> None:
    """A tick posts without looking its keys up first (a replay finds nothing due). When a
    session is due more at an instant whose key is in the ledger already (here: its rate was
    raised after that tick), the INSERT fails on the unique key and the tick is run again
    with a probe per key: that session posts nothing more for the instant, the others are
    billed, and the next tick bills the difference under its own key."""
    b, c = billed, billed.c
    actor = await b.user(50)
    raised, other = await b.start(actor, GpuTier.M), await b.start(actor, GpuTier.S)
    b.clock.advance(120)
    billing = c.sessions.billing
    first = await billing.bill(c.clock.now(), None, close=False)
    assert first.transfers >= 2
    async with c.engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE sessions SET gpu = jsonb_set(gpu, '{hourly_rate_micro}', "
                "to_jsonb((gpu->>'hourly_rate_micro')::bigint * 2)) WHERE id = :id"
            ),
            {"id": raised.id},
        )
    key = f"session:{raised.id}:meter:{c.clock.now().strftime('%Y%m%dT%H%M%SZ')}"
    charged_before = (await b.get(raised.id)).charged_micro
    retries = billing.tx.retries
    again = await billing.bill(c.clock.now(), None, close=False)
    assert billing.tx.retries == retries + 1  # the unprobed attempt failed on the key
    assert again.transfers == 0 and again.charged_micro == 0
    assert (await b.get(raised.id)).charged_micro == charged_before
    async with c.engine.connect() as conn:
        n = (
            await conn.execute(text("SELECT count(*) FROM credit_transfers WHERE idempotency_key = :k"), {"k": key})
        ).scalar_one()
    assert n == 1
    await assert_ledger_consistent(c.engine)

    b.clock.advance(60)
    later = await billing.bill(c.clock.now(), None, close=False)
    assert later.transfers >= 2
    assert (await b.get(raised.id)).charged_micro == cost_micro(2 * RATE_MICRO, ratio_of(GpuTier.M), 180)
    assert (await b.get(other.id)).charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.S), 180)
    await assert_ledger_consistent(c.engine)
    await stop_all(b, [(actor, raised), (actor, other)])


class Crash(Exception):
    pass


async def test_an_exception_inside_the_tick_rolls_everything_back(billed: Billed, monkeypatch: Any) -> None:
    b, c = billed, billed.c
    actor = await b.user(20)
    s = await b.start(actor, GpuTier.S)
    b.clock.advance(600)
    before = await snapshot(c.engine)
    billing = c.sessions.billing
    real_run = billing.tx.run

    async def crashing(fn: Any) -> Any:
        async def go(conn: Any) -> Any:
            await fn(conn)  # every statement of the tick has run, in this transaction
            raise Crash("worker died before commit")

        return await real_run(go)

    monkeypatch.setattr(billing.tx, "run", crashing)
    with pytest.raises(Crash):
        await jobs.meter(c.sessions)
    monkeypatch.undo()
    assert await snapshot(c.engine) == before

    # a failure inside the statement (a trigger refusing the balance update) as well
    async with c.engine.begin() as conn:
        await conn.execute(
            text(
                "CREATE FUNCTION billing_test_refuse() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'injected'; END $$"
            )
        )
        await conn.execute(
            text(
                "CREATE TRIGGER billing_test_refuse BEFORE UPDATE ON credit_accounts "
                "FOR EACH ROW EXECUTE FUNCTION billing_test_refuse()"
            )
        )
    try:
        with pytest.raises(Exception, match="injected"):
            await jobs.meter(c.sessions)
    finally:
        async with c.engine.begin() as conn:
            await conn.execute(text("DROP TRIGGER billing_test_refuse ON credit_accounts"))
            await conn.execute(text("DROP FUNCTION billing_test_refuse()"))
    assert await snapshot(c.engine) == before

    await jobs.meter(c.sessions)  # the next tick bills the whole time, once
    assert (await b.get(s.id)).charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.S), 600)
    await assert_ledger_consistent(c.engine)
    await stop_all(b, [(actor, s)])


async def test_holds_renew_a_window_ahead_then_a_short_wallet_is_warned_once_and_paused(billed: Billed) -> None:
    b, c = billed, billed.c
    per_hour = cost_micro(RATE_MICRO, ratio_of(GpuTier.XL), 3600)  # 0.5000035 credits
    # 1 credit: two hours at most; the hold stays a window ahead for the first of them
    actor = await b.user(0)
    from tests.support.api import fund_user

    await fund_user(c, b.world.org_a, b.world.g1, actor.user_id, 1)
    wallet = AccountRef.user(actor.user_id)
    s = await b.start(actor, GpuTier.XL, expiry=sessions.Expiry.D1)
    hold = await c.credits.ledger.get_hold(s.hold_id)
    assert hold.amount_micro == per_hour

    b.clock.advance(600)
    out = await jobs.meter(c.sessions)
    assert not out.warned and not out.paused
    hold = await c.credits.ledger.get_hold(s.hold_id)
    assert hold.amount_micro == per_hour  # renewed: still one window ahead of what was billed
    assert hold.charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.XL), 600)

    warned_at = None
    for minute in range(1, 150):
        b.clock.advance(60)
        out = await jobs.meter(c.sessions)
        if out.warned:
            assert warned_at is None, "the shortfall is told once"
            warned_at = minute
        if out.paused:
            break
    assert warned_at is not None and out.paused == (s.id,)
    paused = await b.wait(s.id, SessionState.PAUSED)
    async with c.uow() as uow:
        notes, _ = await uow.notifications.of_user(actor.user_id, 0, 50)
    kinds = [n.kind for n in notes]
    assert kinds.count("credits_low") == 1 and kinds.count("session_paused_credits") == 1
    bal = (await c.credits.ledger.balances([wallet]))[wallet]
    assert bal.held_micro == 0
    assert bal.balance_micro == 1_000_000 - paused.charged_micro
    assert paused.charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.XL), paused.billed_seconds)
    await assert_ledger_consistent(c.engine)
    await stop_all(b, [(actor, paused)])


async def test_a_lost_settlement_is_closed_by_the_next_tick(billed: Billed, monkeypatch: Any) -> None:
    b, c = billed, billed.c
    actor = await b.user(10)
    s = await b.start(actor, GpuTier.S)
    b.clock.advance(timedelta(minutes=7, seconds=3))

    async def lost(svc: Any, session_id: Any) -> None:  # the process died before settling
        return None

    monkeypatch.setattr(sessions, "settle", lost)
    await sessions.session_pause(c.sessions, actor, s.id)
    paused = await b.wait(s.id, SessionState.PAUSED)
    monkeypatch.undo()
    assert (await c.credits.ledger.get_hold(s.hold_id)).status.value == "open"
    b.clock.advance(60)
    out = await jobs.meter(c.sessions)
    assert out.swept.sessions >= 1
    hold = await c.credits.ledger.get_hold(s.hold_id)
    assert hold.status.value == "settled" and hold.amount_micro == 0
    after = await b.get(s.id)
    assert after.charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.S), paused.billed_seconds)
    await assert_ledger_consistent(c.engine)


async def test_a_rolled_back_tick_opens_no_consumption_account_for_good(billed: Billed, monkeypatch: Any) -> None:
    """The adapter remembers which organisations' consumption accounts exist only after the
    transaction that opened them committed; otherwise their sessions would never be billed."""
    from dataclasses import replace

    from domain.tenancy import services as tenancy
    from domain.tenancy.services import load_actor
    from tests.support.api import SYSTEM, fund_user, make_user, unique

    b, c = billed, billed.c
    async with c.uow() as uow:
        org = await tenancy.organization_create(uow, SYSTEM, c.ids, c.clock, name=unique("Org N"))
        group = await tenancy.group_create(uow, SYSTEM, c.ids, c.clock, organization_id=org.id, name="N1")
        await uow.commit()
    uid, _ = await make_user(c, org.id, unique("new"), groups=[group.id])
    await fund_user(c, org.id, group.id, uid, 10)
    async with c.uow() as uow:
        actor = replace(await load_actor(uow, uid), active_group_id=group.id)
    s = await b.start(actor, GpuTier.S)
    b.clock.advance(300)
    billing = c.sessions.billing
    real_run = billing.tx.run

    async def crashing(fn: Any) -> Any:
        async def go(conn: Any) -> Any:
            await fn(conn)
            raise Crash("rolled back")

        return await real_run(go)

    monkeypatch.setattr(billing.tx, "run", crashing)
    with pytest.raises(Crash):
        await billing.bill(c.clock.now(), [s.id], close=False)
    monkeypatch.undo()
    await jobs.meter(c.sessions)
    assert (await b.get(s.id)).charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.S), 300)
    await stop_all(b, [(actor, s)])
    await assert_ledger_consistent(c.engine)


async def test_charges_beyond_hold_and_balance_are_capped_and_the_sessions_paused(billed: Billed) -> None:
    """Two sessions of one wallet run five hours without a tick (the metering was down): each
    owes five times its hold, the wallet has less than one more. The tick charges what the holds
    cover, never takes the wallet below zero, and pauses both; the rest stays unpaid."""
    from tests.support.api import fund_user

    b, c = billed, billed.c
    actor = await b.user(0)
    await fund_user(c, b.world.org_a, b.world.g1, actor.user_id, 1)
    first = await b.start(actor, GpuTier.L, expiry=sessions.Expiry.D1)
    second = await b.start(actor, GpuTier.L, expiry=sessions.Expiry.D1)
    per_hour = cost_micro(RATE_MICRO, ratio_of(GpuTier.L), 3600)
    wallet = AccountRef.user(actor.user_id)
    bal = (await c.credits.ledger.balances([wallet]))[wallet]
    assert bal.held_micro == 2 * per_hour and bal.balance_micro - bal.held_micro == 1_000_000 - 2 * per_hour
    b.clock.advance(timedelta(hours=5))
    out = await jobs.meter(c.sessions)
    assert set(out.paused) == {first.id, second.id}
    assert out.billed.charged_micro == 1_000_000  # every micro-credit the wallet had, not one more
    for s in (first, second):
        await b.wait(s.id, SessionState.PAUSED)
    bal = (await c.credits.ledger.balances([wallet]))[wallet]
    assert bal.balance_micro == 0 and bal.held_micro == 0
    charged = [(await b.get(s.id)).charged_micro for s in (first, second)]
    assert sum(charged) == 1_000_000
    await assert_ledger_consistent(c.engine)
    await stop_all(b, [(actor, first), (actor, second)])


async def test_ticks_settlements_and_pauses_racing_on_the_same_sessions_stay_exact(billed: Billed) -> None:
    """Ticks, explicit settlements and pauses at the same instants on the same sessions: the
    row locks serialise them (a tick skips a session a use case holds, and bills it next time);
    every charge stays exactly rate × ratio × RUNNING seconds and the ledger balanced."""
    b, c = billed, billed.c
    actor = await b.user(50)
    pairs = [(actor, await b.start(actor, tier)) for tier in (GpuTier.S, GpuTier.M, GpuTier.L, GpuTier.XL)]
    tiers = {s.id: tier for (_, s), tier in zip(pairs, (GpuTier.S, GpuTier.M, GpuTier.L, GpuTier.XL), strict=True)}
    for step in range(8):
        b.clock.advance(37)
        work = [jobs.meter(c.sessions), jobs.meter(c.sessions)]
        work += [sessions.settle(c.sessions, s.id) for _, s in pairs]
        _, target = pairs[step % len(pairs)]
        current = await b.get(target.id)
        if current.state == SessionState.RUNNING:
            work.append(sessions.session_pause(c.sessions, actor, target.id))
        elif current.state == SessionState.PAUSED:
            work.append(sessions.session_resume(c.sessions, actor, target.id))
        await asyncio.gather(*work)
        for _, s in pairs:
            await b.wait(s.id, SessionState.RUNNING, SessionState.PAUSED)
    await jobs.meter(c.sessions)
    await stop_all(b, pairs)
    total = 0
    for _, s in pairs:
        done = await b.get(s.id)
        assert done.charged_micro == cost_micro(RATE_MICRO, ratio_of(tiers[s.id]), done.billed_seconds)
        total += done.charged_micro
    assert await charges_of(c.engine, actor.user_id) == total
    await assert_ledger_consistent(c.engine)


async def test_a_charge_of_one_micro_credit_is_posted_and_counted_once(billed: Billed) -> None:
    """The smallest charge there is: a session billed 1 micro-credit a second (its rate set
    to 57 600 micro-credits a card-hour at 1/16 card) posts exactly 1 after one second,
    counts it on its meter, and is charged only the 2 more after two more seconds."""
    b, c = billed, billed.c
    actor = await b.user(50)
    s = await b.start(actor, GpuTier.S)
    async with c.engine.begin() as conn:
        await conn.execute(
            text("UPDATE sessions SET gpu = jsonb_set(gpu, '{hourly_rate_micro}', '57600') WHERE id = :id"),
            {"id": s.id},
        )
    billing = c.sessions.billing
    wallet = AccountRef.user(actor.user_id)
    before = (await c.credits.ledger.balances([wallet]))[wallet].balance_micro
    assert (await b.get(s.id)).charged_micro == 0  # the frozen clock has not moved since it started
    b.clock.advance(1)
    first = await billing.bill(c.clock.now(), [s.id], close=False)
    assert (first.sessions, first.transfers, first.charged_micro) == (1, 1, 1)
    assert (await b.get(s.id)).charged_micro == 1
    b.clock.advance(2)
    second = await billing.bill(c.clock.now(), [s.id], close=False)
    assert (second.sessions, second.transfers, second.charged_micro) == (1, 1, 2)
    assert (await b.get(s.id)).charged_micro == 3
    assert (await c.credits.ledger.balances([wallet]))[wallet].balance_micro == before - 3
    await assert_ledger_consistent(c.engine)
    await stop_all(b, [(actor, s)])


async def test_the_sweep_closes_the_open_hold_of_a_session_in_each_closing_state_and_no_other(billed: Billed) -> None:
    """A session that no longer runs (or waits) must not keep credits reserved: the sweep
    (`bill(close=True)` without ids) settles the hold of one session in each closing state,
    charging what it ran, and leaves a running session's hold open."""
    from domain.credits.model import HoldStatus
    from infra.billing.sql import CLOSING_STATES

    b, c = billed, billed.c
    actor = await b.user(50)
    by_state = {state: await b.start(actor, GpuTier.S) for state in CLOSING_STATES}
    running = await b.start(actor, GpuTier.S)
    b.clock.advance(36)  # each has run 36 s: 1 000 007 × 1/16 × 36 / 3600 = 625 micro-credits
    due = cost_micro(RATE_MICRO, ratio_of(GpuTier.S), 36)
    assert due == 625
    async with c.engine.begin() as conn:
        for state, s in by_state.items():
            await conn.execute(text("UPDATE sessions SET state = :st WHERE id = :id"), {"st": state, "id": s.id})
    swept = await c.sessions.billing.bill(c.clock.now(), None, close=True)
    ours = {line.session_id: line for line in swept.lines if line.owner_id == actor.user_id}
    assert set(ours) == {s.id for s in by_state.values()}
    assert all(line.closed and line.charged_micro == due for line in ours.values())
    for state, s in by_state.items():
        hold = await c.credits.ledger.get_hold(s.hold_id)
        assert hold is not None and hold.status is HoldStatus.SETTLED, state
        assert (await b.get(s.id)).charged_micro == due, state
    still = await c.credits.ledger.get_hold(running.hold_id)
    assert still is not None and still.status is HoldStatus.OPEN
    again = await c.sessions.billing.bill(c.clock.now(), None, close=True)
    assert not [line for line in again.lines if line.owner_id == actor.user_id]  # nothing left open to sweep
    await assert_ledger_consistent(c.engine)
    async with c.engine.begin() as conn:
        for s in by_state.values():
            await conn.execute(text("UPDATE sessions SET state = 'STOPPED' WHERE id = :id"), {"id": s.id})
    await stop_all(b, [(actor, running)])


async def test_a_tick_reports_only_the_sessions_that_need_attention(billed: Billed) -> None:
    """A tick's lines name the sessions a caller must act on: none for running sessions whose
    holds renew in full; one for a running session without an open hold. Billing no session
    at all answers zeros."""
    from domain.credits import services as credits

    b, c = billed, billed.c
    actor = await b.user(50)
    healthy, unheld = await b.start(actor, GpuTier.S), await b.start(actor, GpuTier.S)
    billing = c.sessions.billing
    b.clock.advance(60)
    tick = await billing.bill(c.clock.now(), None, close=False)
    assert [line for line in tick.lines if line.owner_id == actor.user_id] == []
    assert (await b.get(healthy.id)).charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.S), 60)
    await credits.release_hold(c.credits.ledger, c.clock, hold_id=unheld.hold_id)
    b.clock.advance(60)
    tick = await billing.bill(c.clock.now(), None, close=False)
    ours = [line for line in tick.lines if line.owner_id == actor.user_id]
    assert [(line.session_id, line.hold_micro, line.closed) for line in ours] == [(unheld.id, 0, False)]
    assert ours[0].charged_micro == cost_micro(RATE_MICRO, ratio_of(GpuTier.S), 120) - cost_micro(
        RATE_MICRO, ratio_of(GpuTier.S), 60
    )
    from uuid import uuid4

    nothing = await billing.bill(c.clock.now(), [uuid4()], close=False)
    assert (nothing.sessions, nothing.transfers, nothing.charged_micro, nothing.lines) == (0, 0, 0, ())
    await assert_ledger_consistent(c.engine)
    await stop_all(b, [(actor, healthy), (actor, unheld)])
