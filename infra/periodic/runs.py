"""`JobRuns` over PostgreSQL (`periodic_runs`), plus the scheduler's claim and sweep.

Why a claim row in PostgreSQL rather than a Redis lock or a scheduler library:
- PostgreSQL already holds all state, is required in both modes, and `INSERT … ON CONFLICT DO
  NOTHING` on the primary key (job, period_start) is an exact "first one wins" with no lease
  to expire and no extra moving part. Every process derives the same period boundaries from
  the epoch, so clock skew between processes only moves *when* a period is claimed (by the
  fastest clock), never how many times. A Redis `SET NX PX` lease would lose its claim
  with a non-persistent Redis restart and would need its own expiry tuning.
- The same row is the run record the operations view reads (attempts, start, finish, error),
  so "was this period done?" and "show me the last run" are one fact, not two.
- Libraries (APScheduler with a SQLAlchemy job store, dramatiq-crontab, periodiq) either run
  one scheduler per process with no cross-process claim, or need a separate singleton process
  or a Redis lock; none records outcomes per period.

The claim and the enqueue happen in one transaction, so a claim commits with `enqueued_at`
set unless the broker refused (then it commits with `enqueued_at` NULL and the error noted).
`sweep()` hands such claims — and claims whose message may have been lost (a Redis restart
without persistence) — to the broker again, or marks them `coalesced` when a newer period of
the same job exists (catch up once). A message duplicated this way is harmless: `begin()`
skips a period that already succeeded, and `exclusive()` (a session advisory lock per job)
keeps two executions of one job from overlapping.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Table, and_, func, literal_column, select, text, update
from sqlalchemy.dialects.postgresql import distinct_on
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncEngine

from domain.operations.model import JobRun, Period, RunOutcome
from domain.operations.services import describe_error
from infra.db.models.operations import PeriodicRunRow

log = logging.getLogger(__name__)

R = cast(Table, PeriodicRunRow.__table__)
_SKIPPED = (RunOutcome.SUCCEEDED.value, RunOutcome.COALESCED.value)


def _lock_key(job: str) -> int:
    """A stable signed 64-bit advisory lock key per job name. PostgreSQL scopes advisory locks
    to the current database (the lock tag holds its OID), so deployments sharing a server do
    not contend (tests/integration/workers/test_claims.py, two databases)."""
    return int.from_bytes(hashlib.blake2b(f"gshare.job:{job}".encode(), digest_size=8).digest(), "big", signed=True)


def _run_from_row(row: Row[Any]) -> JobRun:
    return JobRun(
        row.job,
        Period(row.period_start, row.period_end),
        RunOutcome(row.outcome),
        row.claimed_at,
        row.enqueued_at,
        row.started_at,
        row.finished_at,
        row.attempts,
        row.error,
        row.summary,
        dict(row.summary_counts or {}),
    )


@dataclass(frozen=True, slots=True)
class Redelivery:
    job: str
    period: Period


class SqlJobRuns:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ scheduler side

    async def claim(
        self, job: str, period: Period, now: datetime, claimed_by: str, enqueue: Callable[[], Awaitable[None]]
    ) -> bool:
        """Claim the period and hand it to the broker, in one transaction. False: another
        process claimed it first (nothing is enqueued)."""
        async with self.engine.connect() as conn, conn.begin():
            won = (
                await conn.execute(
                    pg_insert(R)
                    .values(
                        job=job,
                        period_start=period.start,
                        period_end=period.end,
                        outcome=RunOutcome.PENDING.value,
                        claimed_at=now,
                        claimed_by=claimed_by[:200],
                        attempts=0,
                    )
                    .on_conflict_do_nothing(index_elements=[R.c.job, R.c.period_start])
                    .returning(R.c.job)
                )
            ).first()
            if won is None:
                return False
            key = and_(R.c.job == job, R.c.period_start == period.start)
            try:
                await enqueue()
            except Exception as exc:  # the broker is down: keep the claim, the sweep enqueues it later
                log.warning("could not enqueue %s %s: %s", job, period.key, exc)
                await conn.execute(update(R).where(key).values(error=f"broker: {describe_error(exc)}"))
            else:
                await conn.execute(update(R).where(key).values(enqueued_at=now))
        return True

    async def sweep(
        self,
        now: datetime,
        redeliver_after: timedelta,
        enqueue: Callable[[str, Period], Awaitable[None]],
        abandoned_after: timedelta = timedelta(hours=1),
    ) -> tuple[int, int]:
        """Claims the broker never took (or may have lost): coalesce those behind a newer
        period of the same job, enqueue the newest again. Returns (coalesced, re-enqueued).

        Also closes runs left `running` for longer than `abandoned_after` behind a newer
        period (their worker died and the broker lost the message), so the operations view
        does not show them running forever."""
        stale = and_(
            R.c.outcome == RunOutcome.PENDING.value,
            (R.c.enqueued_at.is_(None)) | (R.c.enqueued_at < now - redeliver_after),
        )
        newer = R.alias("newer")
        has_newer = (
            select(literal_column("1")).where(newer.c.job == R.c.job, newer.c.period_start > R.c.period_start).exists()
        )
        async with self.engine.connect() as conn, conn.begin():
            await conn.execute(
                update(R)
                .where(R.c.outcome == RunOutcome.RUNNING.value, R.c.started_at < now - abandoned_after, has_newer)
                .values(
                    outcome=RunOutcome.FAILED.value,
                    finished_at=now,
                    error="abandoned: its worker stopped and the message was lost; later periods ran",
                )
            )
            coalesced = (
                await conn.execute(
                    update(R)
                    .where(stale, has_newer)
                    .values(
                        outcome=RunOutcome.COALESCED.value,
                        finished_at=now,
                        summary="folded into a later period of the same job (catch up once)",
                    )
                )
            ).rowcount
            rows = (
                await conn.execute(
                    select(R.c.job, R.c.period_start, R.c.period_end).where(stale).with_for_update(skip_locked=True)
                )
            ).all()
            sent = 0
            for row in rows:
                period = Period(row.period_start, row.period_end)
                key = and_(R.c.job == row.job, R.c.period_start == row.period_start)
                try:
                    await enqueue(row.job, period)
                except Exception as exc:
                    log.warning("could not re-enqueue %s %s: %s", row.job, period.key, exc)
                    await conn.execute(update(R).where(key).values(error=f"broker: {describe_error(exc)}"))
                    continue
                sent += 1
                await conn.execute(update(R).where(key).values(enqueued_at=now))
        return int(coalesced or 0), sent

    # ------------------------------------------------------------------ worker side (JobRuns)

    async def begin(self, job: str, period: Period, now: datetime) -> int | None:
        stmt = (
            pg_insert(R)
            .values(
                job=job,
                period_start=period.start,
                period_end=period.end,
                outcome=RunOutcome.RUNNING.value,
                claimed_at=now,
                claimed_by="delivery",
                enqueued_at=now,
                started_at=now,
                attempts=1,
            )
            .on_conflict_do_update(
                index_elements=[R.c.job, R.c.period_start],
                set_={
                    "outcome": RunOutcome.RUNNING.value,
                    "started_at": now,
                    "finished_at": None,
                    "attempts": R.c.attempts + 1,
                },
                where=R.c.outcome.not_in(_SKIPPED),
            )
            .returning(R.c.attempts)
        )
        async with self.engine.begin() as conn:
            attempts = (await conn.execute(stmt)).scalar()
        return None if attempts is None else int(attempts)

    async def finish(
        self,
        job: str,
        period: Period,
        now: datetime,
        outcome: RunOutcome,
        *,
        error: str | None = None,
        summary: str | None = None,
        counts: Mapping[str, str] | None = None,
    ) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                update(R)
                .where(R.c.job == job, R.c.period_start == period.start)
                .values(
                    outcome=outcome.value,
                    finished_at=now,
                    error=error,
                    summary=summary,
                    summary_counts=dict(counts) if counts else None,
                )
            )

    @asynccontextmanager
    async def exclusive(self, job: str) -> AsyncIterator[bool]:
        """A session-level advisory lock held on one pooled connection for the run; the server
        releases it by itself if this process dies."""
        key = _lock_key(job)
        async with self.engine.connect() as conn:
            got = bool((await conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key})).scalar())
            await conn.commit()
            try:
                yield got
            finally:
                if got:
                    try:
                        await conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
                        await conn.commit()
                    except Exception:  # the connection broke: the lock went with it; never reuse it
                        await conn.invalidate()
                        raise

    async def last_claimed(self, jobs: Sequence[str]) -> Mapping[str, datetime]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(R.c.job, func.max(R.c.period_start)).where(R.c.job.in_(list(jobs))).group_by(R.c.job)
                )
            ).all()
        return {row[0]: row[1] for row in rows}

    async def _newest_per_job(self, jobs: Sequence[str], *where: Any) -> Mapping[str, JobRun]:
        query = (
            select(R)
            .where(R.c.job.in_(list(jobs)), *where)
            .order_by(R.c.job, R.c.period_start.desc())
            .ext(distinct_on(R.c.job))
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {row.job: _run_from_row(row) for row in rows}

    async def latest(self, jobs: Sequence[str]) -> Mapping[str, JobRun]:
        return await self._newest_per_job(jobs, R.c.started_at.is_not(None))

    async def last_successes(self, jobs: Sequence[str]) -> Mapping[str, JobRun]:
        return await self._newest_per_job(jobs, R.c.outcome == RunOutcome.SUCCEEDED.value)

    async def runs(self, job: str, limit: int = 1000) -> list[JobRun]:
        """Newest first (tests and diagnostics)."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(select(R).where(R.c.job == job).order_by(R.c.period_start.desc()).limit(limit))
            ).all()
        return [_run_from_row(r) for r in rows]
