"""Idle reclaim to the letter: each session judged by its own owner's policy (the look-up is
kept per owner, group and organisation, never shared between owners), and an idle mark of a
session whose policy sets no idle timeout cleared; the samples read are the window's (the
usage store's own in-process adapter keeps those within `seconds` of the newest), and a
newest sample exactly a window old still counts as fresh."""

from __future__ import annotations

import logging
from datetime import timedelta
from uuid import UUID

import pytest

from domain.inventory.ports import UsageSample
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.sessions import jobs, services
from domain.sessions.errors import SessionError, SessionErrorCode
from domain.sessions.model import SessionState
from infra.usage import InProcessUsageStore
from tests.unit.sessions.test_jobs_unit import Notices, Samples, quiet, running
from tests.unit.sessions.world import SessionsWorld
from tests.unit.tenancy.world import NOW

S = SessionState


@pytest.fixture
async def w() -> SessionsWorld:
    return await SessionsWorld.build()


async def test_each_owner_is_judged_by_their_own_idle_timeout_and_a_mark_without_one_is_cleared(
    w: SessionsWorld,
) -> None:
    theirs = await running(w, "theirs", actor="gadmin")  # listed first: the next one is still judged
    mine = await running(w, "mine")
    # only the member's own policy sets an idle timeout; the group admin's sessions have none
    await w.policies.put(ResourcePolicy(PolicyScope.user(w.t.users["member"].id), idle_timeout_seconds=600))
    usage, tracker, notices = Samples(), jobs.IdleTracker(), Notices()
    for x in (mine, theirs):
        usage.by_session[x.id] = quiet(x.id, NOW + timedelta(minutes=6), 5)  # type: ignore[attr-defined]
        tracker.idle_since[x.id] = NOW  # type: ignore[attr-defined]  # both marked idle since 00:00
    w.t.clock.set(NOW + timedelta(minutes=11))
    out = await jobs.idle_reclaim(w.svc, usage, tracker, jobs.IdleSettings(), notices)
    assert out == jobs.IdleOutcome(paused=(mine.id,))  # type: ignore[attr-defined]
    assert w.state.sessions[mine.id].state is S.PAUSING  # type: ignore[attr-defined]
    assert w.state.sessions[theirs.id].state is S.RUNNING  # type: ignore[attr-defined]
    # the paused one's mark and the one judged by no timeout are both forgotten
    assert tracker.idle_since == {}


async def test_only_the_windows_samples_are_judged_and_one_a_window_old_is_fresh(w: SessionsWorld) -> None:
    x = await running(w)
    sid = x.id  # type: ignore[attr-defined]
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=600))
    now = NOW + timedelta(minutes=11)
    store = InProcessUsageStore()
    # busy five minutes ago (outside a window of two), idle since: the newest sample is exactly
    # a window old
    await store.append_many(
        [UsageSample(sid, now - timedelta(seconds=300), 900, 100, 80.0, 4000),
         UsageSample(sid, now - timedelta(seconds=120), 10, 100, 0.0, 10)]
    )  # fmt: skip
    tracker = jobs.IdleTracker({sid: NOW})
    w.t.clock.set(now)
    out = await jobs.idle_reclaim(w.svc, store, tracker, jobs.IdleSettings(window_seconds=120), Notices())
    assert out == jobs.IdleOutcome(paused=(sid,))
    assert w.state.sessions[sid].state is S.PAUSING


async def test_each_silent_session_tells_its_own_owner_once_with_its_own_notice(w: SessionsWorld) -> None:
    mine = await running(w, "mine")
    theirs = await running(w, "theirs", actor="gadmin")
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=600))
    now = NOW + timedelta(minutes=11)  # running 11 minutes, not one sample
    w.t.clock.set(now)
    notices = Notices()
    out = await jobs.idle_reclaim(w.svc, Samples(), jobs.IdleTracker(), jobs.IdleSettings(), notices)
    assert set(out.no_data) == {mine.id, theirs.id}  # type: ignore[attr-defined]
    told = sorted((n.user_id, n.session_id, n.kind, n.created_at) for n in notices.stored.values())
    assert told == sorted(
        [
            (w.t.users["member"].id, mine.id, "session_usage_no_data", now),  # type: ignore[attr-defined]
            (w.t.users["gadmin"].id, theirs.id, "session_usage_no_data", now),  # type: ignore[attr-defined]
        ]
    )
    assert {n.id for n in notices.stored.values()} == {
        jobs.notice_id(f"idle-no-data:{mine.id}", w.t.users["member"].id),  # type: ignore[attr-defined]
        jobs.notice_id(f"idle-no-data:{theirs.id}", w.t.users["gadmin"].id),  # type: ignore[attr-defined]
    }


async def test_warnings_count_the_minutes_left_and_each_session_is_warned_on_its_own(w: SessionsWorld) -> None:
    hour = await running(w, "hour")  # idle 60 of 120 minutes: 60 left
    minute = await running(w, "minute")  # idle 119 of 120: 1 left
    cpu = await running(w, "cpu", preset="cpu", offering_id=None)  # its GPU figures say busy: judged by CPU
    woke = await running(w, "woke")  # marked idle, busy now: its mark is cleared
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=7200))
    now = NOW + timedelta(hours=1)
    w.t.clock.set(now)
    usage = Samples()
    for x in (hour, minute):
        usage.by_session[x.id] = quiet(x.id, now - timedelta(minutes=4), 5)  # type: ignore[attr-defined]
    usage.by_session[cpu.id] = quiet(cpu.id, now - timedelta(minutes=4), 5, util=80.0)  # type: ignore[attr-defined]
    usage.by_session[woke.id] = quiet(woke.id, now - timedelta(minutes=4), 5, util=80.0)  # type: ignore[attr-defined]
    marks = {hour.id: NOW, minute.id: NOW - timedelta(minutes=59), cpu.id: NOW, woke.id: NOW}  # type: ignore[attr-defined]
    tracker, notices = jobs.IdleTracker(dict(marks)), Notices()
    out = await jobs.idle_reclaim(w.svc, usage, tracker, jobs.IdleSettings(warning_seconds=3600), notices)
    assert out == jobs.IdleOutcome(warned=3)
    told = sorted((n.session_id, n.user_id, n.created_at, n.message) for n in notices.stored.values())
    member = w.t.users["member"].id
    assert told == sorted(
        [
            (hour.id, member, now, "session hour has not used its GPU since 00:00 UTC and will be paused in 60 min, "  # type: ignore[attr-defined]
             "at 02:00 UTC, unless it does"),
            (minute.id, member, now, "session minute has not used its GPU since 23:01 UTC and will be paused in 1 "  # type: ignore[attr-defined]
             "min, at 01:01 UTC, unless it does"),
            (cpu.id, member, now, "session cpu has not used its CPU since 00:00 UTC and will be paused in 60 min, "  # type: ignore[attr-defined]
             "at 02:00 UTC, unless it does"),
        ]
    )  # fmt: skip
    assert tracker.idle_since == {k: v for k, v in marks.items() if k != woke.id}  # type: ignore[attr-defined]
    # one notice per recipient and idle stretch (its id from the session and since when it idles)
    assert jobs.notice_id(f"idle-warning:{hour.id}:{NOW.isoformat()}", member) in notices.stored  # type: ignore[attr-defined]
    # each warning reaches its owner's live notifications
    for n in notices.stored.values():
        assert (f"notifications:{n.user_id}", {"id": str(n.id), "kind": n.kind, "message": n.message}) in w.state.events


async def test_a_refused_idle_pause_is_audited_as_failed_logged_and_the_next_session_still_paused(
    w: SessionsWorld, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = await running(w, "first"), await running(w, "second")
    await w.policies.put(ResourcePolicy(PolicyScope.group(w.t.g1.id), idle_timeout_seconds=600))
    refusal = SessionError(SessionErrorCode.ILLEGAL_TRANSITION, "a PAUSED session cannot become PAUSING", "id")
    pause = services.session_pause

    async def refuse_the_first(svc: object, actor: object, session_id: UUID) -> object:
        if session_id == first.id:  # type: ignore[attr-defined]
            raise refusal
        return await pause(svc, actor, session_id)  # type: ignore[arg-type]

    monkeypatch.setattr(services, "session_pause", refuse_the_first)
    now = NOW + timedelta(minutes=11)
    w.t.clock.set(now)
    usage = Samples()
    for x in (first, second):
        usage.by_session[x.id] = quiet(x.id, now - timedelta(minutes=4), 5)  # type: ignore[attr-defined]
    tracker = jobs.IdleTracker({first.id: NOW, second.id: NOW})  # type: ignore[attr-defined]
    with caplog.at_level(logging.WARNING, logger="domain.sessions.jobs"):
        out = await jobs.idle_reclaim(w.svc, usage, tracker, jobs.IdleSettings(), Notices())
    assert out == jobs.IdleOutcome(paused=(second.id,))  # type: ignore[attr-defined]
    assert tracker.idle_since == {first.id: NOW}  # type: ignore[attr-defined]  # judged again next run
    (paused,) = [n for n in w.state.notifications.values() if n.kind == "session_idle_paused"]
    assert (paused.user_id, paused.session_id) == (second.owner_id, second.id)  # type: ignore[attr-defined]
    failed = [e for e in w.state.audit if e.operation == "sessionPause" and not e.success]
    assert [(e.actor_username, e.target_type, e.target_id, e.result_code, e.details) for e in failed] == [
        (
            "gshare-system", "Session", str(first.id), "ILLEGAL_TRANSITION",  # type: ignore[attr-defined]
            {
                "reason": "idle", "idleSince": NOW.isoformat(), "idleTimeoutSeconds": "600",
                "cardEquivalents": f"{float(first.gpu.ratio):g}",  # type: ignore[attr-defined]
                "expiresAt": first.expires_at.isoformat(),  # type: ignore[attr-defined]
            },
        )
    ]  # fmt: skip
    assert [r.getMessage() for r in caplog.records if r.name == "domain.sessions.jobs"] == [
        f"idle reclaim of session {first.id} failed: {refusal}"  # type: ignore[attr-defined]
    ]
