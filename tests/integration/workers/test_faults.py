"""Fault tests against real PostgreSQL and a real Redis, with real `gshare worker` processes
(`python -m cli worker`): SIGKILL between the commit and the ack, a Redis restart mid-run
(for the refills and for the metering tick), and two workers racing for the same periods.
Every wait is bounded."""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from domain.common.clock import FrozenClock
from domain.operations.model import JobRun, RunOutcome
from infra.db.base import make_engine
from infra.periodic.runs import SqlJobRuns
from tests.integration.workers.conftest import PrivatePostgres, PrivateRedis, Workers, free_port
from tests.integration.workers.support import (
    C,
    assert_metered_exactly,
    balance,
    members,
    meter_charges,
    metering_world,
    refill_transfers,
    refill_world,
)

pytestmark = pytest.mark.timeout(60)

REFILLS = "credits.refills"
PURGE = "tenancy.purge_login_sessions"
METER = "sessions.meter"


async def job_runs(database_url: str, job: str) -> list[JobRun]:
    engine = make_engine(database_url, pool_size=1)
    try:
        return sorted(await SqlJobRuns(engine).runs(job), key=lambda r: r.period.start)
    finally:
        await engine.dispose()


async def wait_until(predicate: Callable[[], Awaitable[bool]], within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not await predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)


def unacked(r: PrivateRedis) -> int:
    client = r.client()
    return sum(int(client.scard(k)) for k in client.keys("gshare:__acks__.*"))  # type: ignore[arg-type, union-attr]


@pytest.mark.parametrize("kill_point", ["before_ack", "after_work"])
async def test_sigkill_between_commit_and_ack_then_restart_refills_exactly_once(
    workers: Workers, private_redis: PrivateRedis, tmp_path: Path, kill_point: str
) -> None:
    """before_ack: the actor returned (refill transfers and the run record committed), the
    message is not acked. after_work: the refill committed, the run record did not. Either
    way the restarted worker gets the message again, and the refill exists exactly once."""
    url = workers.database_url
    engine = make_engine(url, pool_size=2)
    try:
        # a monthly schedule created ~45 days ago: this month's refill is due now
        w, schedule_id = await refill_world(engine, FrozenClock(datetime.now(UTC) - timedelta(days=45)))
        periods = f"{REFILLS}=3600,{PURGE}=3600"
        marker = tmp_path / "killed"
        first = workers.spawn(
            periods,
            GSHARE_TEST_KILL_POINT=kill_point,
            GSHARE_TEST_KILL_ACTOR=REFILLS,
            GSHARE_TEST_KILL_MARKER=str(marker),
        )
        assert first.process.wait(30) == -9, first.log()[-3000:]
        assert marker.exists()
        transfers = await refill_transfers(engine, schedule_id)
        assert len(transfers) == 3  # committed before the kill
        [run] = await job_runs(url, REFILLS)
        assert run.attempts == 1
        assert run.outcome is (RunOutcome.SUCCEEDED if kill_point == "before_ack" else RunOutcome.RUNNING)
        assert unacked(private_redis) >= 1  # the dead worker holds the message unacked

        second = workers.spawn(periods)  # same fault variables would not fire again (marker)
        if kill_point == "before_ack":
            # the period already succeeded: the redelivered message is recognised and dropped
            second.wait_for_log("already succeeded: duplicate delivery ignored", timeout=20)
        else:

            async def rerun_finished() -> bool:
                return (await job_runs(url, REFILLS))[0].outcome is RunOutcome.SUCCEEDED

            await wait_until(rerun_finished, 20, "the redelivered refill run")

        async def acked() -> bool:
            return unacked(private_redis) == 0

        await wait_until(acked, 10, "the ack")
        assert second.terminate() == 0

        assert await refill_transfers(engine, schedule_id) == transfers
        for user in members(w):
            assert await balance(engine, user) == 500 * C
        [run] = await job_runs(url, REFILLS)
        assert run.outcome is RunOutcome.SUCCEEDED
        if kill_point == "after_work":
            # the redelivery ran the job again: its idempotency keys made it a no-op
            assert run.attempts == 2
            assert run.summary is not None and run.summary.startswith("0 schedule(s) applied")
    finally:
        await engine.dispose()


def folded_periods(log: str, job: str) -> dict[str, int]:
    """What the scheduler said it folded: period key → missed periods caught up by that run
    (infra/periodic/scheduler.py logs each: "<job>: <n> missed period(s) caught up by one run at <key>")."""
    pattern = re.compile(rf"{re.escape(job)}: (\d+) missed period\(s\) caught up by one run at (\S+)")
    folded: dict[str, int] = {}
    for n, key in pattern.findall(log):
        folded[key] = max(folded.get(key, 0), int(n))
    return folded


def assert_each_period_once(runs: Sequence[JobRun], seconds: int, log: str) -> None:
    """No period lost, none run twice: each claim ended succeeded or was coalesced into a later
    period, no period ran twice, and the claims are contiguous except where the scheduler
    itself folded the periods it was late for into the next one (catch up once, by design) and
    said so in `log` (the workers' logs): a scheduler starved of CPU for over a period (a
    loaded machine) claims the current period, never the ones it slept through, and the
    metering charge of that run bills every second since the previous one. A gap the log does
    not account for (a period silently skipped) fails."""
    assert runs, "no periods claimed"
    job = runs[0].job
    folded = folded_periods(log, job)
    for a, b in itertools.pairwise(runs):
        gap = int((b.period.start - a.period.start).total_seconds()) // seconds
        assert gap >= 1, f"{job}: {a.period.key} then {b.period.key}"
        if gap > 1:
            assert folded.get(b.period.key, 0) >= gap - 1, (
                f"{job}: periods skipped between {a.period.key} and {b.period.key} that the scheduler "
                f"did not fold (folded: {folded})"
            )
    outcomes = {r.period.key: r.outcome for r in runs}
    assert all(r.outcome in (RunOutcome.SUCCEEDED, RunOutcome.COALESCED) for r in runs), outcomes
    assert all(r.attempts == 1 for r in runs if r.outcome is RunOutcome.SUCCEEDED), [
        (r.period.key, r.attempts) for r in runs
    ]


async def test_redis_restart_mid_run_loses_and_doubles_no_tick(workers: Workers, private_redis: PrivateRedis) -> None:
    url = workers.database_url
    worker = workers.spawn(f"{REFILLS}=1,{PURGE}=1")
    worker.wait_for_log("running (", timeout=60)

    async def succeeded_since(since: datetime, n: int) -> bool:
        runs = await job_runs(url, REFILLS)
        return sum(1 for r in runs if r.outcome is RunOutcome.SUCCEEDED and r.period.start >= since) >= n

    await wait_until(lambda: succeeded_since(datetime.min.replace(tzinfo=UTC), 2), 15, "runs before the restart")
    down_at = datetime.now(UTC)
    private_redis.stop()
    await asyncio.sleep(2.5)  # periods come due while the broker is down
    private_redis.start()
    up_at = datetime.now(UTC)
    await wait_until(lambda: succeeded_since(up_at, 3), 20, "runs after the restart")
    await asyncio.sleep(3)  # let the sweep settle what the restart lost
    assert worker.terminate() == 0
    log = worker.log()

    for job in (REFILLS, PURGE):
        runs = await job_runs(url, job)
        # the last claims may still be queued when the worker stops: judge the settled ones
        settled = [r for r in runs if r.period.end <= up_at + timedelta(seconds=3)]
        assert_each_period_once(settled, 1, log)
        during = [r for r in settled if down_at - timedelta(seconds=1) <= r.period.start <= up_at]
        assert during, "no period fell in the outage"
    assert "could not enqueue" in log  # the outage was real and seen by the scheduler


async def test_two_workers_run_each_periodic_job_once_per_period(workers: Workers) -> None:
    url = workers.database_url
    periods = f"{REFILLS}=1,{PURGE}=1"
    port = free_port()
    a, b = workers.spawn(periods, GSHARE_WORKER_METRICS_PORT=str(port)), workers.spawn(periods)
    a.wait_for_log("running (", timeout=60)
    b.wait_for_log("running (", timeout=60)
    started = datetime.now(UTC)
    await asyncio.sleep(5)
    # the schedulers race for each period; give the loser of the first few races time to win
    # some (bounded), so the assertions below judge two competing processes, not one
    for _ in range(30):
        took = [any(" attempt " in line for line in w.log().splitlines()) for w in (a, b)]
        if all(took) and len(await claimers(url)) == 2:
            break
        await asyncio.sleep(0.5)
    async with httpx.AsyncClient() as client:  # `gshare worker` serves its own metrics
        scraped = (await client.get(f"http://127.0.0.1:{port}/metrics", timeout=5)).text
    for name in (
        'gshare_worker_messages_total{actor="',
        'gshare_worker_message_duration_seconds_count{actor="',
        'gshare_worker_queue_lag_seconds_count{queue="periodic"}',
        'gshare_worker_queue_depth{queue="periodic"}',
        'gshare_periodic_job_last_success_timestamp_seconds{job="',
    ):
        assert name in scraped, name
    assert a.terminate() == 0 and b.terminate() == 0
    for job in (REFILLS, PURGE):
        runs = [r for r in await job_runs(url, job) if r.period.start >= started]
        assert len(runs) >= 4
        # the newest claim may still be queued when the workers stop: judge the ones before it
        assert_each_period_once(runs[:-1], 1, a.log() + b.log())
        assert all(r.outcome is RunOutcome.SUCCEEDED for r in runs[:-1])
    # independent of the run table: the executions the two processes logged, per period
    executed = [[" ".join(line.split()[4:6]) for line in w.log().splitlines() if " attempt " in line] for w in (a, b)]
    keys = executed[0] + executed[1]  # "<job> <period key>"
    assert len(keys) == len(set(keys)), "a period was executed twice"
    assert executed[0] and executed[1], "both workers took messages"
    assert len(await claimers(url)) == 2, "both schedulers claimed periods"


async def claimers(database_url: str) -> set[str]:
    from sqlalchemy import text

    engine = make_engine(database_url, pool_size=1)
    try:
        async with engine.connect() as conn:
            return {row[0] for row in await conn.execute(text("SELECT DISTINCT claimed_by FROM periodic_runs"))}
    finally:
        await engine.dispose()


# ------------------------------------------------------------------ metering (issue 7)


@pytest.mark.parametrize("kill_point", ["before_ack", "after_work"])
async def test_sigkill_between_commit_and_ack_then_restart_meters_exactly_once(
    workers: Workers, private_redis: PrivateRedis, tmp_path: Path, kill_point: str
) -> None:
    """The metering actor killed after its tick committed: before_ack (the run record says
    succeeded, the message is not acked) or after_work (the run record did not commit). The
    restarted worker gets the message again; the killed tick's charge exists exactly once, and
    every session and wallet is right to the micro-credit."""
    url = workers.database_url
    engine = make_engine(url, pool_size=2)
    try:
        mw = await metering_world(engine)
        # one period a day: nothing but the killed tick and its redelivery meters in this test
        periods = f"{METER}=86400,{REFILLS}=86400,{PURGE}=86400"
        marker = tmp_path / "killed"
        first = workers.spawn(
            periods,
            GSHARE_TEST_KILL_POINT=kill_point,
            GSHARE_TEST_KILL_ACTOR=METER,
            GSHARE_TEST_KILL_MARKER=str(marker),
        )
        assert first.process.wait(30) == -9, first.log()[-3000:]
        assert marker.exists()
        # the tick committed before the kill: one charge per session, exact
        assert await assert_metered_exactly(engine, mw) == dict.fromkeys(mw.sessions, 1)
        killed = {sid: await meter_charges(engine, sid) for sid in mw.sessions}
        [run] = await job_runs(url, METER)
        assert run.attempts == 1
        assert run.outcome is (RunOutcome.SUCCEEDED if kill_point == "before_ack" else RunOutcome.RUNNING)
        assert unacked(private_redis) >= 1  # the dead worker holds the message unacked

        second = workers.spawn(periods)  # the marker keeps the fault from firing again
        if kill_point == "before_ack":
            second.wait_for_log("already succeeded: duplicate delivery ignored", timeout=20)
        else:

            async def rerun_finished() -> bool:
                return (await job_runs(url, METER))[0].outcome is RunOutcome.SUCCEEDED

            await wait_until(rerun_finished, 20, "the redelivered metering run")

        async def acked() -> bool:
            return unacked(private_redis) == 0

        await wait_until(acked, 10, "the ack")
        assert second.terminate() == 0

        ticks = await assert_metered_exactly(engine, mw)
        for sid, charges in killed.items():  # the killed tick's charge: still there, once, unchanged
            now = await meter_charges(engine, sid)
            assert {key: now.get(key) for key in charges} == charges
        [run] = await job_runs(url, METER)
        assert run.outcome is RunOutcome.SUCCEEDED
        if kill_point == "before_ack":
            assert ticks == dict.fromkeys(mw.sessions, 1)  # the redelivery charged nothing
        else:
            # the redelivery ran the tick again, seconds later: it charged those seconds only
            # (what is due is recomputed from the seconds), so each session is still exact
            assert run.attempts == 2
            assert ticks == dict.fromkeys(mw.sessions, 2)
    finally:
        await engine.dispose()


async def test_redis_restart_mid_run_loses_and_doubles_no_metering_tick(
    workers: Workers, private_redis: PrivateRedis
) -> None:
    url = workers.database_url
    engine = make_engine(url, pool_size=2)
    try:
        mw = await metering_world(engine)
        worker = workers.spawn(f"{METER}=1,{REFILLS}=86400,{PURGE}=86400")
        worker.wait_for_log("running (", timeout=60)

        async def succeeded_since(since: datetime, n: int) -> bool:
            runs = await job_runs(url, METER)
            return sum(1 for r in runs if r.outcome is RunOutcome.SUCCEEDED and r.period.start >= since) >= n

        await wait_until(lambda: succeeded_since(datetime.min.replace(tzinfo=UTC), 2), 15, "ticks before the restart")
        down_at = datetime.now(UTC)
        private_redis.stop()
        await asyncio.sleep(2.5)  # ticks come due while the broker is down
        private_redis.start()
        up_at = datetime.now(UTC)
        await wait_until(lambda: succeeded_since(up_at, 3), 20, "ticks after the restart")
        await asyncio.sleep(3)  # let the sweep settle what the restart lost
        assert worker.terminate() == 0
        log = worker.log()

        runs = await job_runs(url, METER)
        settled = [r for r in runs if r.period.end <= up_at + timedelta(seconds=3)]
        # no tick lost (none skipped but those the scheduler folded into the next, billed by it),
        # none run twice
        assert_each_period_once(settled, 1, log)
        assert [r for r in settled if down_at - timedelta(seconds=1) <= r.period.start <= up_at], (
            "no tick fell in the outage"
        )
        assert "could not enqueue" in log  # the outage was real and seen by the scheduler
        # and the money: each session owes exactly its seconds up to its latest charge, and was
        # charged at most once per tick that ran (never twice for the same seconds)
        ticks = await assert_metered_exactly(engine, mw)
        ran = sum(1 for r in runs if r.outcome is RunOutcome.SUCCEEDED)
        assert all(3 <= n <= ran for n in ticks.values()), (ticks, ran)
        keys = [key for sid in mw.sessions for key in await meter_charges(engine, sid)]
        latest = max(keys)
        assert latest.rsplit(":", 1)[1] >= f"{up_at:%Y%m%dT%H%M%SZ}", "metering did not resume after the restart"
    finally:
        await engine.dispose()


@pytest.mark.timeout(120)
async def test_postgresql_restart_under_the_metering_actor_loses_and_doubles_nothing(
    tmp_path: Path, private_postgres: PrivatePostgres, private_redis: PrivateRedis
) -> None:
    """Issue 13: the database server process killed (every connection, no shutdown checkpoint)
    while the metering actor runs every second, and started again. The worker survives it;
    afterwards every session owes exactly its seconds up to its latest charge and was charged
    each second once, every wallet is its funding minus its charges, every cached balance is
    what the transfers say, to the micro-credit. The server is a private one
    (tests/integration/workers/conftest.py): the machine's shared PostgreSQL is never touched."""
    url = private_postgres.url
    workers = Workers(tmp_path, url, private_redis.url)
    engine = make_engine(url, pool_size=2)
    try:
        mw = await metering_world(engine)
        await engine.dispose()  # no connection of ours across the restart
        worker = workers.spawn(f"{METER}=1,{REFILLS}=86400,{PURGE}=86400")
        worker.wait_for_log("running (", timeout=60)

        async def succeeded_since(since: datetime, n: int) -> bool:
            runs = await job_runs(url, METER)
            return sum(1 for r in runs if r.outcome is RunOutcome.SUCCEEDED and r.period.start >= since) >= n

        await wait_until(lambda: succeeded_since(datetime.min.replace(tzinfo=UTC), 2), 20, "ticks before the restart")
        before = private_postgres.postmaster_pid()
        private_postgres.kill()
        await asyncio.sleep(2.5)  # ticks come due while the database is down
        private_postgres.start()
        up_at = datetime.now(UTC)
        assert private_postgres.postmaster_pid() != before, "a new server process"
        await wait_until(lambda: succeeded_since(up_at, 3), 30, "ticks after the restart")
        await asyncio.sleep(3)  # let the sweep settle what the outage left half done
        assert worker.process.poll() is None, "the worker survived the outage"
        assert worker.terminate() == 0
        seen = ("periodic scheduler tick failed", "Failed to process message sessions.meter", "missed period")
        assert any(sign in worker.log() for sign in seen), "the worker met the outage"

        ticks = await assert_metered_exactly(engine, mw)  # to the micro-credit, see support.py
        runs = await job_runs(url, METER)
        ran = sum(1 for r in runs if r.outcome is RunOutcome.SUCCEEDED)
        assert all(3 <= n <= ran for n in ticks.values()), (ticks, ran)
        keys = [key for sid in mw.sessions for key in await meter_charges(engine, sid)]
        assert len(keys) == len(set(keys))
        assert max(keys).rsplit(":", 1)[1] >= f"{up_at:%Y%m%dT%H%M%SZ}", "metering did not resume after the restart"
    finally:
        workers.cleanup()
        await engine.dispose()
