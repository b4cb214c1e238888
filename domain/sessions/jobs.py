"""Session work that happens on time without a person (driven by periodic worker jobs):
metering, budget alerts, idle reclaim, expiry and the queue drain.

Every use case here is idempotent, as delivery is at least once: metering and settlement go
through the `Billing` port (what is due is recomputed from the seconds, and each charge has a
deterministic key); notifications that must go out once have ids derived from a dedupe key
and are added through `NoticeBox.add_once`; state changes go through the state machine, whose
transitions refuse to happen twice.

What the system does to a session on its own (a pause when the hold runs out or the session
is idle, the stop at expiry) is audited like a person's mutation, with `SYSTEM_ACTOR` as the
actor and the reason in the entry's details: `sessionPause` and `sessionExpire`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol
from uuid import UUID, uuid5

from domain.audit.model import AuditEntry, AuditFilter, AuditRepository
from domain.audit.services import AuditTarget, audit_entry, audit_query, record
from domain.common.errors import DomainError
from domain.common.money import cost_micro, micro_to_credits_str
from domain.credits import services as credits
from domain.credits.budgets import BudgetScopeKind
from domain.credits.ports import BudgetRepository, Ledger
from domain.inventory.ports import UsageSample
from domain.policies.services import effective_policy
from domain.sessions import services as sessions
from domain.sessions.model import TRANSITIONS, Session, SessionState, StateReasonCode
from domain.sessions.ports import BillingResult, IdleMarks, Notification, UsageStore
from domain.sessions.services import SessionServices, SessionsUnitOfWork
from domain.tenancy.model import Actor, Role
from domain.tenancy.services import Page

log = logging.getLogger(__name__)
S = SessionState

# who acts when the system pauses or stops a session (audit and authorisation)
SYSTEM_ACTOR = Actor(user_id=UUID(int=0), username="gshare-system", is_super_admin=True)
_NOTICE_NAMESPACE = UUID("0b6f2a4e-8d7c-5e1f-9a3b-4c2d1e0f6a57")


def notice_id(key: str, user_id: UUID) -> UUID:
    """The id of the one notification a dedupe key may produce for one recipient."""
    return uuid5(_NOTICE_NAMESPACE, f"{key}:{user_id}")


class NoticeBox(Protocol):
    """Notifications that must go out at most once (ids derived from a dedupe key)."""

    async def add_once(self, notifications: Sequence[Notification]) -> list[Notification]:
        """Store each notification unless one with its id exists; the ones stored now."""
        ...


async def _publish(svc: SessionServices, notifications: Sequence[Notification]) -> None:
    if not notifications:
        return
    async with svc.uow() as uow:
        for n in notifications:
            uow.publish_after_commit(
                sessions.notifications_topic(n.user_id), {"id": str(n.id), "kind": n.kind, "message": n.message}
            )
        await uow.commit()


async def _notify_once(svc: SessionServices, notices: NoticeBox, wanted: Sequence[Notification]) -> int:
    stored = await notices.add_once(wanted)
    await _publish(svc, stored)
    return len(stored)


def _session_target(s: Session) -> AuditTarget:
    return AuditTarget("Session", str(s.id), s.organization_id, s.group_id)


async def _audit_system(
    svc: SessionServices,
    operation: str,
    s: Session,
    started: float,
    details: dict[str, str],
    error: DomainError | None = None,
    uow: SessionsUnitOfWork | None = None,
) -> None:
    """An audit entry for what the system did to session `s` (or tried to: `error`), in `uow`
    when the change commits there, else in a transaction of its own right after the change (as
    `api.common.mutations.mutate_saga` does for people: the session use cases run their own
    transactions). A failure to write it is logged: the change is done, the job goes on."""

    async def write(into: SessionsUnitOfWork) -> None:
        await record(
            into.audit,
            audit_entry(
                svc.ids,
                at=svc.clock.now(),
                actor=SYSTEM_ACTOR,
                operation=operation,
                target=_session_target(s),
                success=error is None,
                result_code="OK" if error is None else str(error.code),
                duration_ms=int((time.perf_counter() - started) * 1000),
                details=details,
            ),
        )

    if uow is not None:
        await write(uow)
        return
    try:
        async with svc.uow() as own:
            await write(own)
            await own.commit()
    except Exception:
        log.exception("could not audit %s of session %s", operation, s.id)


# ======================================================================== metering


@dataclass(frozen=True)
class MeterOutcome:
    billed: BillingResult
    swept: BillingResult
    paused: tuple[UUID, ...] = ()
    warned: tuple[UUID, ...] = ()

    def summary(self) -> str:
        b = self.billed
        text = (
            f"{b.sessions} running session(s) billed, {b.transfers} charge(s), "
            f"{micro_to_credits_str(b.charged_micro)} credits"
        )
        if self.swept.sessions:
            text += f"; {self.swept.sessions} lost settlement(s) closed"
        if self.warned:
            text += f"; {len(self.warned)} wallet(s) short of the next hold window"
        if self.paused:
            text += f"; {len(self.paused)} session(s) paused, their hold ran out"
        return text

    def counts(self) -> dict[str, str]:
        """The summary's numbers by name (the periodic run keeps them beside the text)."""
        b = self.billed
        return {
            "sessions": str(b.sessions),
            "charges": str(b.transfers),
            "credits": micro_to_credits_str(b.charged_micro),
            "settlements": str(self.swept.sessions),
            "warned": str(len(self.warned)),
            "paused": str(len(self.paused)),
        }


def hold_runs_out(s: Session, hold_micro: int, unpaid_micro: int, tick_seconds: int) -> bool:
    """The session cannot pay for the next tick: what is left on its hold is less than what
    it will owe by then (or something is unpaid already)."""
    if s.gpu is None:
        return False
    return unpaid_micro > 0 or hold_micro < cost_micro(s.gpu.hourly_rate_micro, s.gpu.ratio, tick_seconds)


async def _announce_wallets(svc: SessionServices) -> None:
    """The tick moved money in one SQL transaction, past the ledger's own announcements: tell
    the owners of running sessions that their wallets changed (live wallet views).

    Best effort: the money is committed already, and live views refresh on the next tick. An
    event bus that is down (a Redis restart) must not fail the tick, which would skip the
    pauses below and have the whole tick redelivered."""
    try:
        async with svc.uow() as uow:
            for owner in await uow.sessions.owners_in(frozenset({SessionState.RUNNING})):
                uow.publish_after_commit(sessions.wallet_topic(owner), {"userId": str(owner)})
            await uow.commit()
    except Exception as exc:
        log.warning("metering: could not announce the charged wallets: %s", exc)


async def meter(svc: SessionServices, *, tick_seconds: int = 60) -> MeterOutcome:
    """One metering tick: bill every RUNNING session up to now and renew its hold one window
    ahead (one transaction for all of them); close the holds of sessions whose settlement was
    lost; tell the owners whose wallet cannot cover the next window, and pause (never kill) the
    sessions whose hold runs out before the next tick."""
    now = svc.clock.now()
    billed = await svc.billing.bill(now, None, close=False)
    swept = await svc.billing.bill(now, None, close=True)
    if billed.transfers:
        await _announce_wallets(svc)
    attention = [
        line
        for line in billed.lines
        if line.renewal_short_micro > 0 or line.unpaid_micro > 0 or (line.hold_micro == 0 and not line.closed)
    ]
    if not attention:
        return MeterOutcome(billed, swept)
    async with svc.uow() as uow:
        found = {s.id: s for s in await uow.sessions.get_many([line.session_id for line in attention])}
    paused: list[UUID] = []
    warned: list[UUID] = []
    for line in attention:
        s = found.get(line.session_id)
        if s is None or s.state != S.RUNNING:
            continue
        if hold_runs_out(s, line.hold_micro, line.unpaid_micro, tick_seconds):
            started = time.perf_counter()
            details = {
                "reason": "credits_exhausted",
                "holdMicro": str(line.hold_micro),
                "unpaidMicro": str(line.unpaid_micro),
            }
            try:
                await sessions.session_pause(svc, SYSTEM_ACTOR, s.id)
            except DomainError as exc:  # changed meanwhile: the next tick looks again
                log.warning("pausing session %s (hold ran out) failed: %s", s.id, exc)
                await _audit_system(svc, "sessionPause", s, started, details, exc)
                continue
            await _audit_system(svc, "sessionPause", s, started, details)
            await _notify(
                svc,
                s.owner_id,
                "session_paused_credits",
                f"session {s.name} was paused: your credits ran out (resume it after a top-up)",
                s.id,
            )
            paused.append(s.id)
        elif line.first_shortfall:
            await _notify(
                svc,
                s.owner_id,
                "credits_low",
                f"your wallet cannot reserve the next hour of session {s.name} "
                f"({micro_to_credits_str(line.renewal_short_micro)} credits short); "
                "it will be paused when its hold runs out",
                s.id,
            )
            warned.append(s.id)
    return MeterOutcome(billed, swept, tuple(paused), tuple(warned))


async def _notify(svc: SessionServices, user_id: UUID, kind: str, message: str, session_id: UUID | None) -> None:
    async with svc.uow() as uow:
        n = Notification(svc.ids.new_id(), user_id, kind, message, svc.clock.now(), session_id)
        await uow.notifications.add(n)
        uow.publish_after_commit(
            sessions.notifications_topic(user_id), {"id": str(n.id), "kind": kind, "message": message}
        )
        await uow.commit()


# ======================================================================== budget alerts


async def _budget_recipients(uow: SessionsUnitOfWork, kind: BudgetScopeKind, scope_id: UUID) -> tuple[str, set[UUID]]:
    """The scope's name and who is told: its admins, and for a user budget the user."""
    t = uow.tenancy
    if kind is BudgetScopeKind.ORGANIZATION:
        org = await t.get_organization(scope_id)
        return (org.name if org else str(scope_id)), set(await t.org_admins(scope_id))
    if kind is BudgetScopeKind.GROUP:
        group = await t.get_group(scope_id)
        if group is None:
            return str(scope_id), set()
        members, _ = await t.memberships_of_group(scope_id, 0, 10_000)
        admins = {m.user_id for m in members if m.role is Role.GROUP_ADMIN}
        return group.name, admins | set(await t.org_admins(group.organization_id))
    user = await t.get_user(scope_id)
    recipients = {scope_id}
    for m in await t.memberships_of_user(scope_id):
        recipients |= set(await t.org_admins(m.organization_id))
    return (user.username if user else str(scope_id)), recipients


async def notify_budget_alerts(
    svc: SessionServices, notices: NoticeBox, budgets: BudgetRepository, ledger: Ledger
) -> int:
    """Each crossed threshold of each budget becomes one notification per recipient, once per
    period (the alert's key names budget, period and threshold)."""
    now = svc.clock.now()
    alerts = await credits.budget_alerts(budgets, ledger, now)
    if not alerts:
        return 0
    wanted: list[Notification] = []
    async with svc.uow() as uow:
        for alert in alerts:
            scope = alert.status.budget.scope
            name, recipients = await _budget_recipients(uow, scope.kind, scope.id)
            status = replace(alert.status, scope_name=name)
            message = f"budget alert, {alert.threshold}% reached: {status.message()}"
            wanted.extend(
                Notification(notice_id(alert.key, user), user, "budget_alert", message, now)
                for user in sorted(recipients)
            )
    return await _notify_once(svc, notices, wanted)


# ======================================================================== idle reclaim


@dataclass(frozen=True)
class IdleSettings:
    """What counts as idle: GPU utilisation below `gpu_util_percent` (or, for a session with
    no GPU data, CPU below `cpu_millicores`) in every sample of the last `window_seconds`."""

    gpu_util_percent: float = 5.0
    cpu_millicores: int = 100
    window_seconds: int = 300
    # a session RUNNING this long without a sample in the last window is reported as "no data"
    no_data_seconds: int = 600
    # the owner is told this long before an idle session is paused
    warning_seconds: int = 300


@dataclass(frozen=True)
class IdleOutcome:
    paused: tuple[UUID, ...] = ()
    warned: int = 0  # owners told now that their session will be paused
    no_data: tuple[UUID, ...] = ()  # RUNNING sessions without samples: not judged idle, reported

    def summary(self) -> str:
        text = f"{len(self.paused)} idle session(s) paused, {self.warned} warned"
        if self.no_data:
            text += f", {len(self.no_data)} without usage data (not judged idle)"
        return text

    def counts(self) -> dict[str, str]:
        """The summary's numbers by name (the periodic run keeps them beside the text)."""
        return {"paused": str(len(self.paused)), "warned": str(self.warned), "noData": str(len(self.no_data))}


def has_no_data(samples: Sequence[UsageSample], now: datetime, running_since: datetime, settings: IdleSettings) -> bool:
    """Whether a session RUNNING since `running_since` has sent no usage sample in the last
    window although it has run longer than `no_data_seconds`: its source (a node agent, the
    Prometheus fallback) is not reporting it, and idle reclaim cannot judge it."""
    if (now - running_since).total_seconds() < settings.no_data_seconds:
        return False
    return not samples or (now - samples[-1].at).total_seconds() > settings.window_seconds


def is_idle(samples: Sequence[UsageSample], settings: IdleSettings, *, cpu_only: bool = False) -> bool:
    if not samples:
        return False  # no data is not idleness
    if not cpu_only and any(s.gpu_util_percent > 0 or s.gpu_memory_mib > 0 for s in samples):
        return all(s.gpu_util_percent < settings.gpu_util_percent for s in samples)
    return all(s.cpu_millicores < settings.cpu_millicores for s in samples)


@dataclass
class IdleTracker:
    """`IdleMarks` in this process's memory (the embedded default and tests; with Redis the
    workers share `infra.usage.RedisIdleMarks`)."""

    idle_since: dict[UUID, datetime] = field(default_factory=dict)

    async def all(self) -> dict[UUID, datetime]:
        return dict(self.idle_since)

    async def mark(self, session_id: UUID, since: datetime) -> datetime:
        return self.idle_since.setdefault(session_id, since)

    async def clear(self, session_ids: Sequence[UUID]) -> None:
        for sid in session_ids:
            self.idle_since.pop(sid, None)


async def reclaim_idle(
    svc: SessionServices, usage: UsageStore, tracker: IdleMarks, settings: IdleSettings | None = None
) -> list[UUID]:
    """`idle_reclaim` without warnings: the sessions paused."""
    return list((await idle_reclaim(svc, usage, tracker, settings)).paused)


def _resource(s: Session) -> str:
    """What a session is judged idle by, in its owner's notices."""
    return "CPU" if s.gpu is None else "GPU"


def _clock(at: datetime) -> str:
    return at.strftime("%H:%M UTC")


async def idle_reclaim(
    svc: SessionServices,
    usage: UsageStore,
    tracker: IdleMarks,
    settings: IdleSettings | None = None,
    notices: NoticeBox | None = None,
) -> IdleOutcome:
    """Pause running sessions idle for longer than their effective policy's idle timeout: a GPU
    session by its GPU util (by its CPU while its samples carry no GPU data), a CPU-only session
    by its CPU.

    Since when a session is idle is kept in `tracker` (shared by the worker processes and
    surviving their restarts), set at the first run that sees a whole window of idle samples and
    cleared by any run that sees it busy or without fresh samples; a run still needs a whole
    idle window of fresh samples to pause, so a mark never pauses on stale data.

    With `notices`, the owner is told once per idle stretch, `warning_seconds` before the pause,
    and once per session when it has sent no samples for `no_data_seconds` (then it is never
    idle: reclaim does not guess)."""
    settings = settings or IdleSettings()
    now = svc.clock.now()
    async with svc.uow() as uow:
        running = list(await uow.sessions.active_in(frozenset({S.RUNNING})))
    ids = {s.id for s in running}
    marks = await tracker.all()
    cleared = [sid for sid in marks if sid not in ids]
    paused: list[UUID] = []
    no_data: list[UUID] = []
    notes: list[Notification] = []
    timeouts: dict[tuple[UUID, UUID, UUID], int | None] = {}  # one policy look-up per scope chain
    for s in running:
        scope = (s.owner_id, s.group_id, s.organization_id)
        if scope not in timeouts:
            async with svc.uow() as uow:
                user = await uow.tenancy.get_user(s.owner_id)
                chain = await sessions._chain_for(
                    uow, s.owner_id, user.username if user else "", s.group_id, s.organization_id
                )
            timeouts[scope] = (await effective_policy(svc.policies, chain)).setting("idle_timeout_seconds")
        timeout = timeouts[scope]
        if not timeout:
            cleared.append(s.id)
            continue
        samples = await usage.recent(s.id, settings.window_seconds)
        fresh = bool(samples) and (now - samples[-1].at).total_seconds() <= settings.window_seconds
        started = s.running_since or now
        if has_no_data(samples, now, started, settings):
            no_data.append(s.id)
            minutes = settings.no_data_seconds // 60
            notes.append(
                Notification(
                    notice_id(f"idle-no-data:{s.id}", s.owner_id),
                    s.owner_id,
                    "session_usage_no_data",
                    f"session {s.name} has reported no usage for over {minutes} min, so it is not judged idle "
                    "(the cluster's node agent or Prometheus sends nothing for it)",
                    now,
                    s.id,
                )
            )
        if not fresh or not is_idle(samples, settings, cpu_only=s.gpu is None):
            cleared.append(s.id)
            continue
        since = marks.get(s.id) or await tracker.mark(s.id, max(samples[0].at, started))
        idle_for = (now - since).total_seconds()
        if idle_for < timeout:
            if idle_for >= timeout - settings.warning_seconds:
                at = since + timedelta(seconds=int(timeout))
                left = max(1, round((at - now).total_seconds() / 60))
                notes.append(
                    Notification(
                        notice_id(f"idle-warning:{s.id}:{since.isoformat()}", s.owner_id),
                        s.owner_id,
                        "session_idle_warning",
                        f"session {s.name} has not used its {_resource(s)} since {_clock(since)} and will be paused in "
                        f"{left} min, at {_clock(at)}, unless it does",
                        now,
                        s.id,
                    )
                )
            continue
        pause_started = time.perf_counter()
        details = {"reason": "idle", "idleSince": since.isoformat(), "idleTimeoutSeconds": str(int(timeout))}
        if s.gpu is not None:  # what the pause gives back (idle_reclaim_report)
            details["cardEquivalents"] = f"{float(s.gpu.ratio):g}"
        if s.expires_at is not None:
            details["expiresAt"] = s.expires_at.isoformat()
        try:
            await sessions.session_pause(svc, SYSTEM_ACTOR, s.id)
        except DomainError as exc:
            log.warning("idle reclaim of session %s failed: %s", s.id, exc)
            await _audit_system(svc, "sessionPause", s, pause_started, details, exc)
            continue
        await _audit_system(svc, "sessionPause", s, pause_started, details)
        cleared.append(s.id)
        minutes = int(timeout) // 60
        await _notify(
            svc,
            s.owner_id,
            "session_idle_paused",
            f"session {s.name} was paused after {minutes} min without {_resource(s)} use; its settings and volumes "
            "are kept",
            s.id,
        )
        paused.append(s.id)
    stale = [sid for sid in cleared if sid in marks or sid in paused]
    if stale:
        await tracker.clear(stale)
    warned = 0
    if notices is not None and notes:
        stored = await notices.add_once(notes)
        await _publish(svc, stored)
        warned = sum(1 for n in stored if n.kind == "session_idle_warning")
    return IdleOutcome(tuple(paused), warned, tuple(no_data))


@dataclass(frozen=True)
class IdleReclaimReport:
    """What idle reclaim gave back between `since` and `until`: the sessions it paused, and the
    GPU-hours (card equivalents × hours) they did not hold from each pause until they were
    resumed, their expiry, or `until` (whichever came first)."""

    since: datetime
    until: datetime
    paused_sessions: int
    gpu_hours_returned: float


_REPORT_LIMIT = 10_000  # pauses looked at per report


def _is_idle_pause(e: AuditEntry) -> bool:
    return (
        e.operation == "sessionPause"
        and e.success
        and e.actor_user_id == SYSTEM_ACTOR.user_id
        and e.details.get("reason") == "idle"
    )


async def idle_reclaim_report(
    audit: AuditRepository, actor: Actor, since: datetime, until: datetime
) -> IdleReclaimReport:
    """From the audit log as `actor` may read it (an admin, their scopes'): idle reclaim's pauses
    (`sessionPause` by the system, reason `idle`) and the sessions' next `sessionResume`."""
    pauses: list[AuditEntry] = []
    offset = 0
    while offset < _REPORT_LIMIT:
        page, total = await audit_query(
            audit,
            actor,
            AuditFilter(operation="sessionPause", success=True, since=since, until=until),
            Page(offset, 500),
        )
        pauses.extend(e for e in page if _is_idle_pause(e) and since <= e.at <= until)
        offset += len(page)
        if not page or offset >= total:
            break
    hours = 0.0
    for pause in pauses:
        end = until
        if pause.details.get("expiresAt"):
            end = min(end, datetime.fromisoformat(pause.details["expiresAt"]))
        # the session's first successful resume strictly after the pause (`since` is inclusive; the
        # log keeps microseconds), read oldest first: however many resumes follow, it is the answer
        resumed, _ = await audit_query(
            audit,
            actor,
            AuditFilter(
                operation="sessionResume",
                target_type="Session",
                target_id=pause.target_id,
                success=True,
                since=pause.at + timedelta(microseconds=1),
                oldest_first=True,
            ),
            Page(0, 1),
        )
        if resumed:
            end = min(end, resumed[0].at)
        cards = float(pause.details.get("cardEquivalents") or 0)
        hours += cards * max(0.0, (end - pause.at).total_seconds()) / 3600
    return IdleReclaimReport(since, until, len(pauses), round(hours, 3))


# ======================================================================== expiry

_EXPIRABLE = frozenset(state for state in SessionState if S.EXPIRED in TRANSITIONS[state])
_WATCHED = frozenset(_EXPIRABLE | {S.SCHEDULED, S.STARTING, S.PAUSING, S.RESUMING, S.PENDING_APPROVAL})


@dataclass(frozen=True)
class ExpiryOutcome:
    warned: int
    expired: tuple[UUID, ...]


async def expire_sessions(svc: SessionServices, notices: NoticeBox) -> ExpiryOutcome:
    """Warn once at 90 % of the chosen duration; at expiry, stop the session (EXPIRED), keeping
    its volumes. A session caught mid-transition is expired by a later run."""
    now = svc.clock.now()
    async with svc.uow() as uow:
        watched = [s for s in await uow.sessions.active_in(_WATCHED) if s.expires_at is not None]
    expired: list[UUID] = []
    warnings: list[Notification] = []
    for s in watched:
        assert s.expires_at is not None
        if now >= s.expires_at:
            if s.state in _EXPIRABLE and await _expire(svc, s.id):
                expired.append(s.id)
        elif s.expiry_warning(now):
            left = int((s.expires_at - now).total_seconds()) // 60
            key = f"expiry-warning:{s.id}:{s.expires_at.isoformat()}"
            warnings.append(
                Notification(
                    notice_id(key, s.owner_id),
                    s.owner_id,
                    "session_expiring",
                    f"session {s.name} expires in {left} min, at {s.expires_at:%Y-%m-%d %H:%M} UTC (extend it to keep it)",
                    now,
                    s.id,
                )
            )
    warned = await _notify_once(svc, notices, warnings)
    return ExpiryOutcome(warned, tuple(expired))


async def _expire(svc: SessionServices, session_id: UUID) -> bool:
    effects = sessions._Effects()
    started = time.perf_counter()
    async with svc.uow() as uow:
        s = await uow.sessions.get(session_id, for_update=True)
        now = svc.clock.now()
        if s is None or s.expires_at is None or s.expires_at > now or s.state not in _EXPIRABLE:
            return False
        cluster = s.cluster_id if s.state == S.RUNNING else None
        s = s.transition(S.EXPIRED, now, "expired", StateReasonCode.EXPIRED)
        await sessions._release_capacity(svc, uow, s, effects)
        s = replace(s, placement=None)
        await uow.sessions.update(s)
        if cluster:
            effects.delete.append((s.id, cluster))
        effects.settle.append(s.id)
        await sessions._notify(
            svc, uow, s.owner_id, "session_expired", f"session {s.name} expired and was stopped; volumes are kept", s.id
        )
        sessions._publish_session(uow, s)
        assert s.expires_at is not None
        details = {"reason": "expired", "expiresAt": s.expires_at.isoformat()}
        await _audit_system(svc, "sessionExpire", s, started, details, uow=uow)  # commits with the stop
        await uow.commit()
    await sessions._run_effects(svc, effects)
    return True


# ======================================================================== queue


async def drain(svc: SessionServices) -> list[UUID]:
    """The periodic safety net of the queue: admit what fits now (any process may run it)."""
    return await sessions.drain_queue(svc)
