"""Idle reclaim to the letter: each session judged by its own owner's policy (the look-up is
kept per owner, group and organisation, never shared between owners), and an idle mark of a
session whose policy sets no idle timeout cleared; the samples read are the window's (the
usage store's own in-process adapter keeps those within `seconds` of the newest), and a
newest sample exactly a window old still counts as fresh."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.inventory.ports import UsageSample
from domain.policies.model import PolicyScope, ResourcePolicy
from domain.sessions import jobs
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
