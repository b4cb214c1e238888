"""The work of each periodic job: build the adapters from the process's container, call one
use case, say what it did. Each is idempotent by its own keys (the run record is extra)."""

from __future__ import annotations

import logging
from datetime import timedelta

from domain.credits import services as credits
from domain.operations import catalog, housekeeping
from domain.operations.model import JobSummary
from domain.sessions import jobs as session_jobs
from domain.sessions import residue
from domain.sessions.ports import IdleMarks
from infra.billing.notices import SqlNoticeBox
from infra.bootstrap import Container
from infra.settings import Settings

log = logging.getLogger(__name__)
METER_TICK_SECONDS = catalog.METER_TICK_SECONDS


async def apply_refills(container: Container) -> JobSummary:
    """Refill schedules whose current period is not applied yet. Idempotent per schedule and
    period (the period mark and the transfers commit together; keys name schedule, period and
    target), so a redelivered message or a second run in the same period posts nothing."""
    c = container.credits
    outcomes = await credits.apply_due_refills(c.ledger, c.refills, c.directory, container.ids, container.clock.now())
    applied = [o for o in outcomes if o.applied]
    failed = [o for o in outcomes if o.error is not None]
    for o in failed:  # e.g. the source is short: reported, retried on the next period's run
        log.warning("refill schedule %s for %s not applied: %s", o.schedule_id, o.period_start, o.error)
    transfers = sum(len(o.transfers) for o in applied)
    text = f"{len(applied)} schedule(s) applied, {transfers} transfer(s)"
    if failed:
        text += "; not applied: " + ", ".join(f"{o.schedule_id} ({o.error and o.error.code})" for o in failed)
    return JobSummary.of(text, applied=len(applied), transfers=transfers, failed=len(failed))


async def purge_login_sessions(container: Container) -> JobSummary:
    removed = await housekeeping.purge_expired_login_sessions(container.uow(), container.clock)
    return JobSummary.of(f"{removed} expired login session(s) removed", removed=removed)


# ---------------------------------------------------------------------- sessions (issue 7)


def _notices(container: Container) -> SqlNoticeBox:
    box = container.extras.get("notice_box")
    if box is None:
        box = container.extras["notice_box"] = SqlNoticeBox(container.engine)
    return box


def idle_settings(settings: Settings) -> session_jobs.IdleSettings:
    return session_jobs.IdleSettings(
        gpu_util_percent=settings.idle_gpu_util_percent,
        cpu_millicores=settings.idle_cpu_millicores,
        window_seconds=settings.idle_window_seconds,
        no_data_seconds=settings.idle_no_data_seconds,
        warning_seconds=settings.idle_warning_seconds,
    )


async def meter_sessions(container: Container) -> JobSummary:
    """Bill every RUNNING session up to now in one transaction, renew holds one window ahead,
    close lost settlements; pause the sessions whose hold runs out. Idempotent: what is due is
    recomputed from the seconds, and each charge's key names session and instant."""
    from workers.registry import configured_jobs  # the registry imports this module

    cadence = next(
        (
            j.definition.cadence.seconds
            for j in configured_jobs(container.settings.worker_job_periods)
            if j.name == "sessions.meter"
        ),
        None,
    )
    tick = int(container.extras.get("meter_tick_seconds", cadence or METER_TICK_SECONDS))
    outcome = await session_jobs.meter(container.sessions, tick_seconds=tick)
    return JobSummary(outcome.summary(), outcome.counts())


async def budget_alerts(container: Container) -> JobSummary:
    c = container.credits
    sent = await session_jobs.notify_budget_alerts(container.sessions, _notices(container), c.budgets, c.ledger)
    return JobSummary.of(f"{sent} budget alert notification(s) sent", sent=sent)


def idle_marks(container: Container) -> IdleMarks:
    """Where idle reclaim remembers since when sessions are idle: Redis when the deployment has
    it (every worker process shares it, and a restarted worker goes on from it), else this
    process (embedded: the usage samples live in this process too)."""
    marks = container.extras.get("idle_marks")
    if marks is None:
        from infra.usage import RedisIdleMarks

        redis_url = container.settings.redis_url
        marks = RedisIdleMarks(redis_url) if redis_url else session_jobs.IdleTracker()
        container.extras["idle_marks"] = marks
    return marks  # type: ignore[no-any-return]


async def reclaim_idle(container: Container) -> JobSummary:
    tracker = idle_marks(container)
    outcome = await session_jobs.idle_reclaim(
        container.sessions, container.usage, tracker, idle_settings(container.settings), _notices(container)
    )
    if outcome.no_data:
        log.warning(
            "idle reclaim: %d running session(s) without usage data (not judged idle): %s",
            len(outcome.no_data),
            ", ".join(str(i) for i in outcome.no_data[:10]),
        )
    return JobSummary(outcome.summary(), outcome.counts())


async def expire_sessions(container: Container) -> JobSummary:
    outcome = await session_jobs.expire_sessions(container.sessions, _notices(container))
    text = f"{outcome.warned} expiry warning(s), {len(outcome.expired)} session(s) expired"
    return JobSummary.of(text, warned=outcome.warned, expired=len(outcome.expired))


async def sweep_residue(container: Container) -> JobSummary:
    """Crash residue (domain.sessions.residue): orphan holds released, stalled admissions handed
    off again or failed, capacity no live session holds freed. Idempotent: each repair re-reads
    what it repairs, and the ledger's release and the clusters' apply are idempotent."""
    s = container.settings
    outcome = await residue.sweep(
        container.sessions,
        grace=timedelta(seconds=s.residue_grace_seconds),
        give_up=timedelta(seconds=s.residue_give_up_seconds),
    )
    return JobSummary(outcome.summary(), outcome.counts())


async def drain_queue(container: Container) -> JobSummary:
    admitted = await session_jobs.drain(container.sessions)
    return JobSummary.of(f"{len(admitted)} queued session(s) admitted", admitted=len(admitted))


# ---------------------------------------------------------------------- live usage (issue 15)


async def poll_prometheus(container: Container) -> JobSummary:
    """Live usage from the Prometheus of each cluster that has one (`clusterUsageSourceSet`):
    one instant of the per-pod series, kept for the sessions that cluster runs and recorded as
    the agents' samples are (UsageStore + the sessionUsage subscription)."""
    import httpx

    from infra.callbacks.usage import cluster_sessions
    from infra.cluster.kubernetes import SESSIONS_NAMESPACE
    from infra.clusters.prometheus import PrometheusSource
    from infra.clusters.repository import SqlClusterRecords
    from infra.clusters.wiring import secret_box
    from infra.tls import default_tls_context
    from infra.usage import record_usage

    async with container.uow() as uow:
        clusters = [c for c in await SqlClusterRecords(uow).list() if c.prometheus_url]
    if not clusters:
        return JobSummary.of("no cluster has a Prometheus", samples=0, clusters=0)
    box = secret_box(container)
    at = container.clock.now()
    recorded = 0
    async with httpx.AsyncClient(verify=await default_tls_context()) as http:  # the bundle not loaded on the loop
        for cluster in clusters:
            token = box.decrypt(cluster.prometheus_token_encrypted) if cluster.prometheus_token_encrypted else None
            source = PrometheusSource(cluster.id, str(cluster.prometheus_url), token, SESSIONS_NAMESPACE)
            samples = await source.poll(http, at)
            ours = await cluster_sessions(container).running_on(cluster.id, {s.session_id for s in samples})
            kept = [s for s in samples if s.session_id in ours]
            await record_usage(container.usage, container.events, kept)
            recorded += len(kept)
    return JobSummary.of(
        f"{recorded} usage sample(s) from {len(clusters)} cluster(s)' Prometheus",
        samples=recorded,
        clusters=len(clusters),
    )


async def record_usage_history(container: Container) -> JobSummary:
    """The running sessions' last whole minutes, from the UsageStore into the per-minute history
    (one upsert), and the history past `usage_history_retention_days` deleted. Idempotent: a row
    is keyed by session and minute and recomputed from the same samples."""
    from domain.sessions.history import record_history
    from domain.sessions.model import SessionState

    async with container.uow() as uow:
        running = await uow.sessions.active_in(frozenset({SessionState.RUNNING}))
    outcome = await record_history(
        running,
        container.usage,
        container.history,
        container.clock.now(),
        timedelta(days=container.settings.usage_history_retention_days),
    )
    return JobSummary(outcome.summary(), outcome.counts())
