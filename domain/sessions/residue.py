"""What a crash leaves behind, found and put right (issue 21).

Admission runs in steps that commit apart: the credit hold is reserved (step 6, the ledger's
own transaction), then the session row, its placement and the capacity decision commit
together (step 7), then the workload is handed to its cluster (step 8, after the commit). A
process killed between those steps leaves

- an open hold whose session row was never written (killed between 6 and 7), or a hold that
  its session no longer names (a queued request's hold not yet released, a re-admission's new
  hold not yet recorded);
- a session SCHEDULED (placed, never handed off: killed between 7 and 8) or STARTING (handed
  to a cluster that forgot it, e.g. the simulated cluster of the killed process), with no
  cluster progress;
- a session PAUSING or STOPPING whose cluster call was lost with the process (or never
  answered);
- a capacity allocation or queue entry of a session that no longer holds one.

`sweep` releases such holds exactly (the ledger's release is idempotent and double-entry:
what was reserved goes back to the wallet to the micro-credit), hands stalled sessions to their
cluster again (every cluster's `apply` is get-or-create), fails those still stalled past the
give-up deadline with a reason (which frees their capacity and settles their hold), asks the
cluster again to pause or delete what is PAUSING or STOPPING and, past the deadline, ends the
transition as the cluster's "stopped" would (with the reason, billed up to then), and frees
capacity that no live session holds, and resumes a session a node drain paused (DRAINED)
that no one resumed (the draining process died between the pause and the resume). Each repair is audited as the system's
(`sessionResidueSweep`). Everything waits `grace` first, so an admission still in flight in
another process is never mistaken for residue.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import timedelta
from uuid import UUID

from domain.common.errors import DomainError
from domain.credits import services as credits
from domain.credits.model import HoldStatus
from domain.inventory.ports import StatusReport, WorkloadPhase
from domain.scheduling import services as scheduling
from domain.sessions import services as sessions
from domain.sessions.jobs import SYSTEM_ACTOR, _audit_system
from domain.sessions.model import HOLDS_CAPACITY, Session, SessionState, StateReasonCode
from domain.sessions.services import SessionServices

log = logging.getLogger(__name__)
S = SessionState

HOLD_KEY_PREFIX = "session:"
STALLED = frozenset({S.SCHEDULED, S.STARTING})
WINDING_DOWN = frozenset({S.PAUSING, S.STOPPING})
AUDIT_OPERATION = "sessionResidueSweep"


@dataclass(frozen=True)
class ResidueOutcome:
    holds_released: tuple[UUID, ...] = ()
    released_micro: int = 0
    handed_off_again: tuple[UUID, ...] = ()
    failed: tuple[UUID, ...] = ()
    asked_again: tuple[UUID, ...] = ()
    ended: tuple[UUID, ...] = ()
    capacity_freed: tuple[str, ...] = ()
    queue_withdrawn: tuple[str, ...] = ()
    resumed_after_drain: tuple[UUID, ...] = ()

    def summary(self) -> str:
        return (
            f"{len(self.holds_released)} orphan hold(s) released ({self.released_micro} micro-credits), "
            f"{len(self.handed_off_again)} stalled session(s) handed off again, {len(self.failed)} failed, "
            f"{len(self.asked_again)} pause/stop(s) asked again, {len(self.ended)} ended without the cluster, "
            f"{len(self.capacity_freed)} allocation(s) and {len(self.queue_withdrawn)} queue entr(ies) freed, "
            f"{len(self.resumed_after_drain)} drained session(s) resumed"
        )

    def counts(self) -> dict[str, str]:
        """The summary's numbers by name (the periodic run keeps them beside the text)."""
        return {
            "holds": str(len(self.holds_released)),
            "micro": str(self.released_micro),
            "handedOff": str(len(self.handed_off_again)),
            "failed": str(len(self.failed)),
            "askedAgain": str(len(self.asked_again)),
            "ended": str(len(self.ended)),
            "allocations": str(len(self.capacity_freed)),
            "queueEntries": str(len(self.queue_withdrawn)),
            "resumedAfterDrain": str(len(self.resumed_after_drain)),
        }


def session_of_hold(idempotency_key: str) -> UUID | None:
    """The session a hold was reserved for (`session:<id>:hold:<seq>`), if its key names one."""
    if not idempotency_key.startswith(HOLD_KEY_PREFIX):
        return None
    try:
        return UUID(idempotency_key.split(":")[1])
    except (IndexError, ValueError):
        return None


async def sweep(svc: SessionServices, *, grace: timedelta, give_up: timedelta) -> ResidueOutcome:
    holds, released = await _orphan_holds(svc, grace)
    again, failed = await _stalled_sessions(svc, grace, give_up)
    asked, ended = await _winding_down(svc, grace, give_up)
    freed, withdrawn = await _stray_capacity(svc)
    drained = await _drained_not_resumed(svc, grace)
    return ResidueOutcome(holds, released, again, failed, asked, ended, freed, withdrawn, drained)


async def _orphan_holds(svc: SessionServices, grace: timedelta) -> tuple[tuple[UUID, ...], int]:
    now = svc.clock.now()
    released: list[UUID] = []
    total = 0
    for hold in await svc.ledger.open_holds(created_before=now - grace, key_prefix=HOLD_KEY_PREFIX):
        sid = session_of_hold(hold.idempotency_key)
        if sid is None:
            continue
        async with svc.uow() as uow:
            s = await uow.sessions.get(sid)
        if s is not None and s.hold_id == hold.id:
            continue  # the session's own hold: metering and settlement own it
        started = time.perf_counter()
        closed = await credits.release_hold(svc.ledger, svc.clock, hold_id=hold.id)
        if closed.status is HoldStatus.OPEN:
            continue
        released.append(hold.id)
        total += hold.amount_micro
        why = "no session was written for it" if s is None else "its session no longer names it"
        log.warning("released orphan hold %s of %d micro-credits: %s", hold.id, hold.amount_micro, why)
        if s is not None:
            await _audit_system(
                svc,
                AUDIT_OPERATION,
                s,
                started,
                {"repair": "hold released", "hold": str(hold.id), "amountMicro": str(hold.amount_micro)},
            )
    return tuple(released), total


async def _stalled_sessions(
    svc: SessionServices, grace: timedelta, give_up: timedelta
) -> tuple[tuple[UUID, ...], tuple[UUID, ...]]:
    now = svc.clock.now()
    async with svc.uow() as uow:
        stalled = [s for s in await uow.sessions.active_in(STALLED) if s.updated_at < now - grace]
    again: list[UUID] = []
    failed: list[UUID] = []
    for s in stalled:
        started = time.perf_counter()
        waited = int((now - s.updated_at).total_seconds())
        if s.updated_at < now - give_up:
            reason = f"no cluster progress for {waited} s after {s.state.value} (crash residue)"
            await sessions._fail(svc, s.id, reason)
            failed.append(s.id)
            await _audit_system(svc, AUDIT_OPERATION, s, started, {"repair": "failed", "reason": reason})
            continue
        if await _hand_off_again(svc, s):
            again.append(s.id)
            await _audit_system(
                svc, AUDIT_OPERATION, s, started, {"repair": "handed off again", "stalledSeconds": str(waited)}
            )
    return tuple(again), tuple(failed)


async def _winding_down(
    svc: SessionServices, grace: timedelta, give_up: timedelta
) -> tuple[tuple[UUID, ...], tuple[UUID, ...]]:
    now = svc.clock.now()
    async with svc.uow() as uow:
        waiting = [s for s in await uow.sessions.active_in(WINDING_DOWN) if s.updated_at < now - grace]
    asked: list[UUID] = []
    ended: list[UUID] = []
    for s in waiting:
        started = time.perf_counter()
        waited = int((now - s.updated_at).total_seconds())
        if s.updated_at < now - give_up:
            message = f"no answer from the cluster for {waited} s after {s.state.value} (crash residue)"
            report = StatusReport(s.id, WorkloadPhase.STOPPED, now, message=message)
            await sessions.handle_status_report(svc, s.cluster_id or "", report)
            ended.append(s.id)
            await _audit_system(svc, AUDIT_OPERATION, s, started, {"repair": "ended", "reason": message})
            continue
        port = svc.clusters.get(s.cluster_id) if s.cluster_id else None
        if port is None:
            continue
        try:
            await (port.pause(s.id) if s.state is S.PAUSING else port.delete(s.id))
        except Exception:  # the next sweep asks again, until the deadline ends it
            log.exception("asking %s again to wind down session %s failed", s.cluster_id, s.id)
            continue
        asked.append(s.id)
        await _audit_system(
            svc,
            AUDIT_OPERATION,
            s,
            started,
            {"repair": f"{s.state.value.lower()} asked again", "waitedSeconds": str(waited)},
        )
    return tuple(asked), tuple(ended)


async def _drained_not_resumed(svc: SessionServices, grace: timedelta) -> tuple[UUID, ...]:
    """Sessions a node drain paused (DRAINED) and nobody resumed within `grace`: the process
    that drained the node died between the pause and the resume. Each is resumed (placed on
    another node, the drained one staying cordoned, or queued); the resume moves it out of
    DRAINED, so it is resumed once."""
    now = svc.clock.now()
    async with svc.uow() as uow:
        paused = [
            s
            for s in await uow.sessions.active_in(frozenset({S.PAUSED}))
            if s.state_reason_code == StateReasonCode.DRAINED and s.updated_at < now - grace
        ]
    resumed: list[UUID] = []
    for s in paused:
        started = time.perf_counter()
        try:
            await sessions.session_resume(svc, SYSTEM_ACTOR, s.id)
        except DomainError as exc:  # refused (budget, policy): it stays paused, as any pause would
            log.warning("drained session %s not resumed: %s", s.id, exc)
            continue
        resumed.append(s.id)
        node = s.state_reason_params.get("node", "")
        await _audit_system(svc, AUDIT_OPERATION, s, started, {"repair": "resumed after drain", "node": node})
    return tuple(resumed)


async def _hand_off_again(svc: SessionServices, s: Session) -> bool:
    if s.cluster_id is None:
        return False
    port = svc.clusters.get(s.cluster_id)
    if port is None:
        # no adapter in this process yet (an embedded serve's periodic jobs start before its
        # cluster adapters) or any more: not the cluster's refusal; the next sweep tries again,
        # until the give-up deadline fails it
        log.warning("stalled session %s not handed off again: no adapter for cluster %s here", s.id, s.cluster_id)
        return False
    if s.state is S.SCHEDULED:
        await sessions._hand_off(svc, s.id)  # fails the session when the cluster refuses
        return True
    async with svc.uow() as uow:
        names = {v.id: v for v in await uow.volumes.get_many([m.volume_id for m in s.mounts])}
    try:
        await port.apply(sessions.workload_spec(s, names))
    except Exception:  # the next sweep tries again, until the give-up deadline fails it
        log.exception("handing stalled session %s to %s again failed", s.id, s.cluster_id)
        return False
    return True


async def _stray_capacity(svc: SessionServices) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Allocations of sessions that hold none (gone, or in a state without capacity) are given
    back; queue entries of sessions gone or ended are withdrawn. What the freed capacity lets in
    is admitted as a release would."""
    effects = sessions._Effects()
    async with svc.uow() as uow:
        state = await uow.capacity.snapshot()
        workloads = [a.workload_id for a in state.scheduler.allocations()]
        queued = [e.workload_id for e in state.queue.entries()]
        ids = [UUID(w) for w in {*workloads, *queued} if _is_uuid(w)]
        known = {str(s.id): s for s in await uow.sessions.get_many(ids)}
        stray = [w for w in workloads if w not in known or known[w].state not in HOLDS_CAPACITY]
        gone = [w for w in queued if w not in known or known[w].terminal]
        if not stray and not gone:
            return (), ()
        state = await uow.capacity.lock()  # decide again under the lock
        freed = []
        for wid in stray:
            current = await uow.sessions.get(UUID(wid), for_update=True) if _is_uuid(wid) else None
            if state.scheduler.allocation(wid) is None or (current is not None and current.state in HOLDS_CAPACITY):
                continue
            _, drained = scheduling.release(state.scheduler, state.queue, wid)
            await sessions._apply_admission_side_effects(svc, uow, state, (), drained.admitted, effects)
            freed.append(wid)
        withdrawn = []
        for wid in gone:
            if wid in state.queue:
                scheduling.withdraw(state.queue, wid)
                withdrawn.append(wid)
        await uow.capacity.save(state)
        uow.publish_after_commit(sessions.CAPACITY_TOPIC, {"reason": "residue"})
        uow.publish_after_commit(sessions.QUEUE_TOPIC, {"reason": "residue"})
        await uow.commit()
    for wid in freed:
        log.warning("freed the capacity of %s, which no live session holds", wid)
    await sessions._run_effects(svc, effects)
    return tuple(freed), tuple(withdrawn)


def _is_uuid(value: str) -> bool:
    try:
        UUID(value)
    except ValueError:
        return False
    return True
