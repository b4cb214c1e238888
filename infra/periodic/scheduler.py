"""The periodic scheduler loop: every process that runs it (each `gshare worker`, or the
embedded `gshare serve`) computes the due period of each job from its clock and tries to claim
it in PostgreSQL; exactly one process wins each (job, period) and enqueues it (see runs.py for
why the claim lives in PostgreSQL). No leader election, so no failover gap: as long as one
scheduler runs, every period is claimed within one tick of its start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta

from domain.common.clock import Clock
from domain.operations.model import JobDefinition, Period, due
from infra.periodic.runs import SqlJobRuns

log = logging.getLogger(__name__)

Enqueue = Callable[[str, Period], Awaitable[None]]


class PeriodicScheduler:
    def __init__(
        self,
        runs: SqlJobRuns,
        jobs: Sequence[JobDefinition],
        enqueue: Enqueue,
        clock: Clock,
        *,
        tick_seconds: float = 1.0,
        sweep_seconds: float = 5.0,
        redeliver_after: timedelta = timedelta(minutes=2),
        name: str | None = None,
        on_claim: Callable[[JobDefinition, Period, int], None] | None = None,
    ) -> None:
        self.runs = runs
        self.jobs = tuple(jobs)
        self.enqueue = enqueue
        self.clock = clock
        self.tick_seconds = tick_seconds
        self.sweep_seconds = sweep_seconds
        self.redeliver_after = redeliver_after
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self.on_claim = on_claim
        self._known: dict[str, datetime] | None = None  # newest period known claimed, per job
        self._last_sweep: datetime | None = None

    async def tick(self) -> list[tuple[str, Period]]:
        """Claim (and enqueue) every job's current period not claimed yet; sweep now and then.
        Returns what this process claimed."""
        now = self.clock.now()
        if self._known is None:
            self._known = dict(await self.runs.last_claimed([j.name for j in self.jobs]))
        claimed: list[tuple[str, Period]] = []
        for job in self.jobs:
            d = due(job, now, self._known.get(job.name))
            if d is None:
                continue

            async def send(job_name: str = job.name, period: Period = d.period) -> None:
                await self.enqueue(job_name, period)

            won = await self.runs.claim(job.name, d.period, now, self.name, send)
            self._known[job.name] = d.period.start
            if won:
                claimed.append((job.name, d.period))
                if d.missed:
                    log.warning("%s: %d missed period(s) caught up by one run at %s", job.name, d.missed, d.period.key)
                if self.on_claim is not None:
                    self.on_claim(job, d.period, d.missed)
        if self._last_sweep is None or now - self._last_sweep >= timedelta(seconds=self.sweep_seconds):
            self._last_sweep = now
            coalesced, resent = await self.runs.sweep(now, self.redeliver_after, self.enqueue)
            if coalesced or resent:
                log.warning("periodic sweep: %d claim(s) coalesced, %d re-enqueued", coalesced, resent)
        return claimed

    async def run(self, stop: asyncio.Event, on_error: Callable[[BaseException], None] | None = None) -> None:
        """Tick until `stop` is set. A failing tick (database unreachable) is logged and retried
        on the next one; nothing is claimed meanwhile, so nothing is lost: the current period is
        claimed as soon as the database answers (catch up once)."""
        log.info("periodic scheduler %s started: %s", self.name, ", ".join(j.name for j in self.jobs))
        while not stop.is_set():
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._known = None  # re-read the claims once the database is back
                log.warning("periodic scheduler tick failed: %s", exc)
                if on_error is not None:
                    on_error(exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self.tick_seconds)
        log.info("periodic scheduler %s stopped", self.name)
