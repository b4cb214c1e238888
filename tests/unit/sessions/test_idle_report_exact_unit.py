"""The idle-reclaim report to the letter, read from a log that answers as the SQL adapter does
(`infra/db/repositories/audit.py` `SqlAuditRepository.query`: the filter's fields, `since`
inclusive and `until` exclusive, the reader's visibility, newest first unless `oldest_first`, the
total): which pauses
count (the system's, reason idle, in the window), when what a pause gave back ends (the next
resume, its expiry, the window's end), the GPU-hours in card equivalents rounded to three
places, and every page of pauses read up to the limit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest

from domain.audit.model import AuditEntry, AuditFilter, AuditVisibility
from domain.sessions import jobs
from domain.tenancy.model import Actor
from tests.support.memory import audit_page

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
ADMIN = Actor(UUID(int=7), "root", is_super_admin=True)
ORG, OTHER_ORG = UUID(int=100), UUID(int=200)
PERSON = UUID(int=5)


class SqlLikeLog:
    """An AuditRepository answering `query` as SqlAuditRepository does (see the module text)."""

    def __init__(self, entries: Iterable[AuditEntry]) -> None:
        self.entries = list(entries)
        self.by_target: dict[str | None, list[AuditEntry]] = {}
        for e in self.entries:
            self.by_target.setdefault(e.target_id, []).append(e)

    async def append(self, entry: AuditEntry) -> None:
        raise AssertionError("the report only reads")

    async def append_many(self, entries: Sequence[AuditEntry]) -> None:
        raise AssertionError("the report only reads")

    async def get(self, entry_id: UUID) -> AuditEntry | None:
        return next((e for e in self.entries if e.id == entry_id), None)

    async def query(
        self, visibility: AuditVisibility, flt: AuditFilter, offset: int, limit: int
    ) -> tuple[list[AuditEntry], int]:
        # the entries of the one session asked for (indexed: the report asks once per pause)
        rows = self.by_target.get(flt.target_id, []) if flt.target_id else self.entries
        return audit_page(rows, visibility, flt, offset, limit)


def entry(
    operation: str,
    at: datetime,
    session: UUID,
    *,
    actor: UUID = jobs.SYSTEM_ACTOR.user_id,
    success: bool = True,
    target_type: str = "Session",
    org: UUID = ORG,
    **details: str,
) -> AuditEntry:
    return AuditEntry(
        uuid4(), at, actor, "x", operation, target_type, str(session), success, "OK" if success else "BUSY", 3,
        org, None, details=details,
    )  # fmt: skip


def idle_pause(at: datetime, session: UUID, cards: str | None = "1", **details: str) -> AuditEntry:
    extra = {"cardEquivalents": cards} if cards is not None else {}
    return entry("sessionPause", at, session, reason="idle", **extra, **details)


async def report(log: SqlLikeLog, since: datetime, until: datetime, actor: Actor = ADMIN) -> jobs.IdleReclaimReport:
    return await jobs.idle_reclaim_report(log, actor, since, until)  # type: ignore[arg-type]


async def test_only_the_systems_idle_pauses_inside_the_window_count() -> None:
    since, until = T0, T0 + timedelta(hours=2)
    a, b, c, d, e, f, g, h, i = (uuid4() for _ in range(9))
    log = SqlLikeLog(
        [
            idle_pause(T0 + timedelta(hours=1), a, "0.5"),  # 1 h of half a card: 0.5
            idle_pause(since, b, "0.25"),  # at `since` exactly: counted, 2 h of a quarter card: 0.5
            idle_pause(T0 + timedelta(minutes=119), c, "1"),  # 1 minute of a card: 0.016666…
            idle_pause(T0 + timedelta(minutes=30), d, None),  # a CPU session gives back no GPU-hours
            # expired before it was paused: nothing given back (never less than nothing)
            idle_pause(T0 + timedelta(hours=1), e, "1", expiresAt=(T0 + timedelta(minutes=30)).isoformat()),
            # not idle reclaim's: the system's pause for credits, a person's, a failed one
            entry("sessionPause", T0 + timedelta(minutes=10), f, reason="credits_exhausted", cardEquivalents="1"),
            entry("sessionPause", T0 + timedelta(minutes=10), g, actor=PERSON, reason="idle", cardEquivalents="1"),
            entry("sessionPause", T0 + timedelta(minutes=10), h, success=False, reason="idle", cardEquivalents="1"),
            # outside the window: before `since`, at `until` (the end is not in it)
            idle_pause(since - timedelta(microseconds=1), i, "1"),
            idle_pause(until, i, "1"),
        ]
    )
    out = await report(log, since, until)
    assert out == jobs.IdleReclaimReport(since, until, 5, 1.017)  # 0.5 + 0.5 + 1/60, to three places


async def test_what_a_pause_gave_back_ends_at_its_next_resume() -> None:
    sid, other = uuid4(), uuid4()
    pause_at = T0 + timedelta(hours=1)
    log = SqlLikeLog(
        [
            idle_pause(pause_at, sid, "1.5"),
            entry("sessionResume", pause_at, sid, actor=PERSON),  # at the pause's instant: not after it
            entry("sessionResume", pause_at - timedelta(minutes=5), sid, actor=PERSON),  # before it
            entry("sessionResume", pause_at + timedelta(minutes=5), other, actor=PERSON),  # another session's
            entry("sessionResume", pause_at + timedelta(minutes=10), sid, actor=PERSON, success=False),  # refused
            entry("sessionResume", pause_at + timedelta(minutes=20), sid, actor=PERSON),  # the next resume
            entry("sessionResume", pause_at + timedelta(minutes=40), sid, actor=PERSON),  # a later one
            # a busy log after it: the session's other entries, refused resumes, other sessions'
            # resumes, 500 each (a page): only the session's successful resumes are asked for
            *(
                entry("sessionExtend", pause_at + timedelta(minutes=50, seconds=k), sid, actor=PERSON)
                for k in range(500)
            ),
            *(
                entry("sessionResume", pause_at + timedelta(minutes=50, seconds=k), sid, actor=PERSON, success=False)
                for k in range(500)
            ),
            *(
                entry("sessionResume", pause_at + timedelta(minutes=50, seconds=k), uuid4(), actor=PERSON)
                for k in range(500)
            ),
        ]
    )
    out = await report(log, T0, T0 + timedelta(hours=3))
    assert (out.paused_sessions, out.gpu_hours_returned) == (1, 0.5)  # 20 minutes of 1.5 cards


async def test_the_next_resume_is_found_however_many_resumes_follow_it() -> None:
    """More successful resumes after the pause than a page holds (500): the first of them still
    ends what the pause gave back; and a resume a microsecond after its pause ends it there."""
    sid, quick = uuid4(), uuid4()
    pause_at = T0 + timedelta(hours=1)
    log = SqlLikeLog(
        [
            idle_pause(pause_at, sid, "1.5"),
            # at the pause's instant, more than a page of them: not after it
            *(entry("sessionResume", pause_at, sid, actor=PERSON) for _ in range(600)),
            entry("sessionExtend", pause_at + timedelta(minutes=5), sid, actor=PERSON),  # not a resume
            entry("sessionResume", pause_at + timedelta(minutes=20), sid, actor=PERSON),  # the next resume
            idle_pause(pause_at + timedelta(minutes=30), quick, "1"),
            entry("sessionResume", pause_at + timedelta(minutes=30, microseconds=1), quick, actor=PERSON),
            *(
                entry("sessionResume", pause_at + timedelta(minutes=30, seconds=k), sid, actor=PERSON)
                for k in range(1200)
            ),
        ]
    )
    out = await report(log, T0, T0 + timedelta(hours=3))
    assert (out.paused_sessions, out.gpu_hours_returned) == (2, 0.5)  # 20 minutes of 1.5 cards, 1 µs of one


async def test_only_what_the_reader_may_see_is_counted() -> None:
    log = SqlLikeLog([idle_pause(T0, uuid4(), "1"), idle_pause(T0, uuid4(), "1", org=OTHER_ORG)])
    org_admin = Actor(UUID(int=8), "oa", org_admin_of=frozenset({ORG}))
    assert await report(log, T0, T0 + timedelta(hours=1), org_admin) == jobs.IdleReclaimReport(
        T0, T0 + timedelta(hours=1), 1, 1.0
    )
    member = Actor(UUID(int=9), "m")
    assert await report(log, T0, T0 + timedelta(hours=1), member) == jobs.IdleReclaimReport(
        T0, T0 + timedelta(hours=1), 0, 0.0
    )


def _many(count: int, until: datetime) -> list[AuditEntry]:
    """`count` idle pauses of a card each, one minute before `until` (1/60 GPU-hour each)."""
    return [idle_pause(until - timedelta(minutes=1, microseconds=k), uuid4(), "1") for k in range(count)]


async def test_every_page_of_pauses_is_read() -> None:
    until = T0 + timedelta(hours=1)
    out = await report(SqlLikeLog(_many(1200, until)), T0, until)
    assert (out.paused_sessions, out.gpu_hours_returned) == (1200, 20.0)  # three pages of 500


async def test_the_report_reads_no_more_pauses_than_its_limit_and_only_idle_pauses_use_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jobs, "_REPORT_LIMIT", 1000)  # the limit is 10 000: the same rule, fewer rows
    until = T0 + timedelta(hours=1)
    pauses = _many(1200, until)
    # newer than every pause, and none of them asked for: entries of another operation and
    # refused pauses in the window, and pauses after it
    noise = [
        *(entry("sessionCreate", until - timedelta(seconds=k + 1), uuid4(), actor=PERSON) for k in range(1000)),
        *(
            entry("sessionPause", until - timedelta(seconds=k + 1), uuid4(), success=False, reason="idle")
            for k in range(1000)
        ),
        *(idle_pause(until + timedelta(seconds=k), uuid4(), "1") for k in range(1000)),
    ]
    out = await report(SqlLikeLog([*pauses, *noise]), T0, until)
    assert out.paused_sessions == 1000  # two pages of 500, then the limit
    assert out.gpu_hours_returned == round(1000 / 60, 3)
