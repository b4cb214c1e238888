"""The worker runtime of one process: a broker, the actors declared on it, a dramatiq
`Worker` consuming it, and the periodic scheduler. The same class runs

- in `gshare worker` (production): RedisBroker, as many processes as wanted, each also running
  the scheduler loop (the PostgreSQL claim makes one process enqueue each period);
- in `gshare serve` on the embedded default: dramatiq's StubBroker and a dramatiq `Worker` in
  the serve process. Messages go through the same middleware (retries, time limits, metrics)
  and the same actors; they live in memory, so a message in flight when the process stops is
  lost — the scheduler then re-claims the current period on the next start (catch up once) and
  the sweep re-enqueues claims left pending.

Async actors run on the host's event loop (`HostLoop`), so they share the process's container.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import dramatiq
from dramatiq.brokers.stub import StubBroker

from domain.operations.model import JobDefinition, Period
from infra.bootstrap import Container
from infra.periodic.runs import SqlJobRuns
from infra.periodic.scheduler import PeriodicScheduler
from infra.settings import Settings
from workers import metrics
from workers.actors import ProcessContext, declare_periodic_actors, set_process_context
from workers.middleware import KILL_POINT_ENV, HostLoop, KillSwitch, Metrics
from workers.registry import PeriodicJob, configured_jobs

log = logging.getLogger(__name__)


def build_broker(redis_url: str | None, settings: Settings | None = None) -> dramatiq.Broker:
    """RedisBroker when a URL is given (tuned by the `worker_*` settings), else the in-process
    StubBroker; with our middleware."""
    tuning = settings or Settings()
    broker: dramatiq.Broker
    if redis_url:
        import redis
        from dramatiq.brokers.redis import RedisBroker
        from redis.backoff import ExponentialBackoff
        from redis.retry import Retry

        # fail fast when Redis is down (the scheduler keeps its claim and the sweep re-enqueues
        # it); the consumers reconnect by themselves
        client = redis.Redis.from_url(
            redis_url,
            socket_timeout=10,
            socket_connect_timeout=2,
            health_check_interval=15,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
        )
        broker = RedisBroker(  # type: ignore[no-untyped-call]
            client=client,
            namespace=tuning.worker_namespace,
            # a worker silent this long is dead: its unacked messages go back to the queue
            heartbeat_timeout=tuning.worker_heartbeat_timeout_ms,
            maintenance_chance=tuning.worker_maintenance_chance,
        )
    else:
        broker = StubBroker()
    broker.add_middleware(Metrics())
    if os.environ.get(KILL_POINT_ENV):
        broker.add_middleware(KillSwitch())
    return broker


class WorkerRuntime:
    def __init__(
        self,
        container: Container,
        broker: dramatiq.Broker,
        jobs: Sequence[PeriodicJob] | None = None,
        *,
        threads: int = 4,
        scheduler: bool = True,
        tick_seconds: float | None = None,
        sweep_seconds: float | None = None,
        redeliver_after: timedelta | None = None,
    ) -> None:
        settings = container.settings
        tick_seconds = settings.worker_tick_seconds if tick_seconds is None else tick_seconds
        sweep_seconds = settings.worker_sweep_seconds if sweep_seconds is None else sweep_seconds
        if redeliver_after is None:
            redeliver_after = timedelta(seconds=settings.worker_redeliver_after_seconds)
        self.container = container
        self.broker = broker
        self.jobs = tuple(configured_jobs(settings.worker_job_periods) if jobs is None else jobs)
        self.threads = threads
        self.runs = SqlJobRuns(container.engine)
        self.actors: dict[str, dramatiq.Actor[Any, Any]] = {}
        self.worker: dramatiq.Worker | None = None
        self.run_scheduler = scheduler  # False: tests drive `self.scheduler.tick()` themselves
        self.scheduler = PeriodicScheduler(
            self.runs,
            [j.definition for j in self.jobs],
            self.enqueue,
            container.clock,
            tick_seconds=tick_seconds,
            sweep_seconds=sweep_seconds,
            redeliver_after=redeliver_after,
            on_claim=self._claimed,
        )
        self.sample_seconds = sweep_seconds
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sampler: asyncio.Task[None] | None = None

    @staticmethod
    def _claimed(job: JobDefinition, period: Period, missed: int) -> None:
        metrics.PERIODIC_CLAIMS.labels(job.name).inc()
        if missed:
            metrics.PERIODIC_MISSED.labels(job.name).inc(missed)

    async def enqueue(self, job_name: str, period: Period) -> None:
        actor = self.actors[job_name]
        # blocking network I/O for Redis: off the event loop
        await asyncio.to_thread(actor.send, period.start.isoformat(), period.end.isoformat())

    def sample_queues(self) -> None:
        """Depth and age of the oldest waiting message of each queue (blocking I/O: run in a
        thread). The lag measured at processing start cannot see a queue nobody consumes."""
        import time

        from dramatiq import Message

        now = time.time()
        for queue in sorted(q for q in self.broker.get_declared_queues() if not q.endswith(".DQ")):
            oldest: bytes | None
            if isinstance(self.broker, StubBroker):
                waiting = list(self.broker.queues[queue].queue)
                depth, oldest = len(waiting), (waiting[0] if waiting else None)
            else:
                client, key = self.broker.client, f"{self.broker.namespace}:{queue}"  # type: ignore[attr-defined]
                depth = int(client.llen(key))
                first = client.lindex(key, 0)
                oldest = client.hget(f"{key}.msgs", first) if first is not None else None
            age = 0.0
            if oldest is not None:
                age = max(0.0, now - Message.decode(oldest).message_timestamp / 1000)
            metrics.QUEUE_DEPTH.labels(queue).set(depth)
            metrics.QUEUE_OLDEST_AGE.labels(queue).set(age)

    async def _sample(self) -> None:
        while not self._stop.is_set():
            try:
                await asyncio.to_thread(self.sample_queues)
            except Exception as exc:  # Redis down: the consumers log it; keep the last values
                log.debug("queue sampling failed: %s", exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), timeout=self.sample_seconds)

    async def start(self) -> None:
        self.broker.add_middleware(HostLoop(asyncio.get_running_loop()))
        dramatiq.set_broker(self.broker)
        self.actors = declare_periodic_actors(self.broker, self.jobs)
        set_process_context(ProcessContext(self.container, self.runs))
        self.worker = dramatiq.Worker(self.broker, worker_threads=self.threads, worker_timeout=1000)
        self.worker.start()
        if self.run_scheduler:
            self._task = asyncio.create_task(
                self.scheduler.run(self._stop, on_error=lambda _: metrics.SCHEDULER_ERRORS.inc()),
                name="gshare-periodic-scheduler",
            )
        self._sampler = asyncio.create_task(self._sample(), name="gshare-queue-sampler")
        log.info(
            "workers started (%s, %d threads, jobs: %s)",
            type(self.broker).__name__,
            self.threads,
            ", ".join(f"{j.name} {j.definition.cadence.label}" for j in self.jobs),
        )

    async def stop(self, timeout_seconds: float = 30) -> None:
        """Stop claiming, let running messages finish (up to the timeout), close the broker."""
        self._stop.set()
        for task in (self._task, self._sampler):
            if task is None:
                continue
            try:
                await asyncio.wait_for(task, timeout=timeout_seconds)
            except TimeoutError:
                task.cancel()
        if self.worker is not None:
            # worker threads may be waiting on coroutines on this very loop: never block it
            await asyncio.to_thread(self.worker.stop, int(timeout_seconds * 1000))
        self.broker.close()
        set_process_context(None)
        log.info("workers stopped")
