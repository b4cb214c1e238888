"""Remaining time and the 90 % warning run while a session lives, and stop when it ends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import uuid4

from domain.sessions.model import Expiry, Session, SessionKind, SessionState

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def session(state: SessionState) -> Session:
    return Session(
        id=uuid4(),
        name="nb",
        owner_id=uuid4(),
        organization_id=uuid4(),
        group_id=uuid4(),
        kind=SessionKind.INTERACTIVE,
        state=state,
        image_id=uuid4(),
        image_reference="img",
        preset_id=None,
        cpu_millicores=1000,
        memory_mib=1024,
        shm_mib=64,
        disk_gib=10,
        gpu=None,
        expiry=Expiry.H1,
        created_at=T0,
        updated_at=T0,
        expires_at=T0 + timedelta(hours=1),
    )


def test_a_live_session_counts_down_and_warns_from_90_percent() -> None:
    s = session(SessionState.RUNNING)
    assert s.remaining(T0 + timedelta(minutes=10)) == timedelta(minutes=50)
    assert not s.expiry_warning(T0 + timedelta(minutes=53))
    assert s.expiry_warning(T0 + timedelta(minutes=54))
    assert s.remaining(T0 + timedelta(hours=2)) == timedelta(0)


def test_an_ended_session_has_no_remaining_time_and_no_warning() -> None:
    for state in (SessionState.STOPPED, SessionState.FAILED, SessionState.EXPIRED):
        s = session(state)
        assert s.remaining(T0 + timedelta(minutes=10)) is None
        assert not s.expiry_warning(T0 + timedelta(minutes=59))
