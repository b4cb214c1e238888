"""The session state machine: every allowed and refused transition, the billing clock that
runs only while RUNNING, expiry choices and endpoints."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from domain.sessions.errors import SessionError
from domain.sessions.model import (
    ACTIVE,
    HOLDS_CAPACITY,
    TERMINAL,
    TRANSITIONS,
    Endpoints,
    Expiry,
)
from domain.sessions.model import SessionState as S
from tests.unit.sessions.test_remaining_time import T0, session

ALLOWED = {
    (S.PENDING_APPROVAL, S.QUEUED), (S.PENDING_APPROVAL, S.SCHEDULED), (S.PENDING_APPROVAL, S.REJECTED),
    (S.PENDING_APPROVAL, S.STOPPED), (S.QUEUED, S.SCHEDULED), (S.QUEUED, S.STOPPED), (S.QUEUED, S.EXPIRED),
    (S.QUEUED, S.PAUSED), (S.SCHEDULED, S.STARTING), (S.SCHEDULED, S.RUNNING), (S.SCHEDULED, S.FAILED),
    (S.SCHEDULED, S.STOPPING), (S.SCHEDULED, S.PAUSING), (S.SCHEDULED, S.PREEMPTED), (S.STARTING, S.RUNNING),
    (S.STARTING, S.FAILED), (S.STARTING, S.STOPPING), (S.STARTING, S.PAUSING), (S.STARTING, S.PREEMPTED),
    (S.RUNNING, S.PAUSING), (S.RUNNING, S.STOPPING), (S.RUNNING, S.FAILED), (S.RUNNING, S.PREEMPTED),
    (S.RUNNING, S.EXPIRED), (S.PAUSING, S.PAUSED), (S.PAUSING, S.STOPPING), (S.PAUSING, S.FAILED),
    (S.PAUSED, S.RESUMING), (S.PAUSED, S.STOPPED), (S.PAUSED, S.EXPIRED), (S.RESUMING, S.QUEUED),
    (S.RESUMING, S.SCHEDULED), (S.RESUMING, S.STOPPED), (S.RESUMING, S.PAUSED), (S.STOPPING, S.STOPPED),
    (S.STOPPING, S.FAILED), (S.PREEMPTED, S.QUEUED), (S.PREEMPTED, S.SCHEDULED), (S.PREEMPTED, S.PAUSED),
    (S.PREEMPTED, S.STOPPED),
    # a batch job that ran to completion (a fast one may end before its Running was seen)
    (S.SCHEDULED, S.SUCCEEDED), (S.STARTING, S.SUCCEEDED), (S.RUNNING, S.SUCCEEDED),
}  # fmt: skip


def test_exactly_the_listed_transitions_are_allowed() -> None:
    assert {(a, b) for a, targets in TRANSITIONS.items() for b in targets} == ALLOWED
    assert set(TRANSITIONS) == set(S)
    for a in S:
        for b in S:
            s = replace(session(S.RUNNING), state=a)
            if (a, b) in ALLOWED:
                assert s.transition(b, T0, "why").state is b
            else:
                with pytest.raises(SessionError) as err:
                    s.transition(b, T0)
                assert (err.value.code.value, err.value.field, err.value.message) == (
                    "ILLEGAL_TRANSITION", "id", f"a {a.value} session cannot become {b.value}",
                )  # fmt: skip


def test_state_sets() -> None:
    assert {S.STOPPED, S.REJECTED, S.FAILED, S.EXPIRED, S.SUCCEEDED} == TERMINAL
    assert {S.SCHEDULED, S.STARTING, S.RUNNING, S.PAUSING, S.STOPPING} == HOLDS_CAPACITY
    assert set(S) - TERMINAL - {S.PAUSED} == ACTIVE
    assert [session(s).terminal for s in (S.STOPPED, S.RUNNING, S.PAUSED)] == [True, False, False]
    assert session(S.RUNNING).cpu_only is True


def test_the_billing_clock_runs_only_while_running() -> None:
    scheduled = session(S.SCHEDULED)
    running = scheduled.transition(S.RUNNING, T0 + timedelta(seconds=10), "up")
    assert (running.running_since, running.started_at, running.state_reason, running.updated_at) == (
        T0 + timedelta(seconds=10), T0 + timedelta(seconds=10), "up", T0 + timedelta(seconds=10),
    )  # fmt: skip
    assert running.running_seconds(T0 + timedelta(seconds=70)) == 60
    pausing = running.transition(S.PAUSING, T0 + timedelta(seconds=100))
    assert (pausing.running_since, pausing.billed_seconds, pausing.state_reason) == (None, 90, "")
    assert pausing.running_seconds(T0 + timedelta(hours=5)) == 90
    paused = pausing.transition(S.PAUSED, T0 + timedelta(seconds=200))
    assert (paused.billed_seconds, paused.running_since) == (90, None)
    resumed = paused.transition(S.RESUMING, T0 + timedelta(seconds=300)).transition(
        S.SCHEDULED, T0 + timedelta(seconds=301)
    )
    again = resumed.transition(S.RUNNING, T0 + timedelta(seconds=400))
    assert (again.running_since, again.started_at) == (T0 + timedelta(seconds=400), T0 + timedelta(seconds=10))
    stopped = again.transition(S.STOPPING, T0 + timedelta(seconds=430)).transition(
        S.STOPPED, T0 + timedelta(seconds=500)
    )
    assert stopped.billed_seconds == 120 and stopped.running_seconds(T0 + timedelta(days=1)) == 120
    # a clock that stepped back never bills negative seconds
    back = running.transition(S.FAILED, T0)
    assert back.billed_seconds == 0 and back.running_since is None
    # a session left with an open interval outside RUNNING has it closed at its next change
    odd = replace(session(S.STOPPING), running_since=T0)
    assert odd.transition(S.STOPPED, T0 + timedelta(seconds=5)).billed_seconds == 5
    assert session(S.RUNNING).running_seconds(T0) == 0


def test_queued_keeps_its_first_arrival() -> None:
    q = session(S.PREEMPTED).transition(S.QUEUED, T0 + timedelta(minutes=1))
    assert q.queued_at == T0 + timedelta(minutes=1)
    requeued = replace(q, state=S.PREEMPTED).transition(S.QUEUED, T0 + timedelta(minutes=9))
    assert requeued.queued_at == T0 + timedelta(minutes=1)
    assert session(S.QUEUED).transition(S.SCHEDULED, T0).queued_at is None


def test_expiry_choices_and_endpoints() -> None:
    assert [e.duration for e in Expiry] == [
        timedelta(hours=1), timedelta(hours=4), timedelta(days=1), timedelta(days=7), timedelta(days=30), None,
    ]  # fmt: skip
    assert [e.value for e in Expiry] == ["1h", "4h", "1d", "7d", "30d", "none"]
    assert Endpoints(vscode="v", ssh="s").to_dict() == {"vscode": "v", "jupyterlab": None, "terminal": None, "ssh": "s"}
    s = replace(session(S.RUNNING), expires_at=None)
    assert s.remaining(T0) is None and s.expiry_warning(T0 + timedelta(days=9)) is False
    live = session(S.RUNNING)
    assert live.remaining(T0 + timedelta(hours=2)) == timedelta(0)
    assert live.expiry_warning(T0 + timedelta(minutes=54)) is True
    assert live.expiry_warning(T0 + timedelta(minutes=53, seconds=59)) is False
