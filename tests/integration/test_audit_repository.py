"""The audit log's SQL adapter read oldest first, and the in-memory double (tests/support/memory.py
InMemoryAudit) answering every query as the adapter does: the same entries, in the same order,
with the same total, for the reader's visibility and each field of the filter.

Each test writes its entries under an organization of its own: the log is append-only and the
run's database is shared, so a reader who sees only that organization sees only them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import pytest

from domain.audit.model import AuditEntry, AuditFilter, AuditVisibility
from domain.sessions import jobs
from domain.tenancy.model import Actor
from infra.db.base import make_sessionmaker
from infra.db.repositories.audit import SqlAuditRepository
from tests.support.memory import InMemoryAudit, TenancyState

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


@pytest.fixture
async def sql(engine: Any) -> AsyncIterator[SqlAuditRepository]:
    async with make_sessionmaker(engine)() as session:
        yield SqlAuditRepository(session)
        await session.commit()


def entry(
    org: UUID,
    operation: str,
    at: datetime,
    target: str,
    *,
    success: bool = True,
    actor: UUID | None = None,
    target_type: str = "Session",
    group: UUID | None = None,
) -> AuditEntry:
    return AuditEntry(
        uuid4(), at, actor, "x", operation, target_type, target, success, "OK" if success else "BUSY", 3, org, group
    )


async def test_the_memory_double_answers_every_query_as_the_sql_adapter(sql: SqlAuditRepository) -> None:
    org, other_org, group, person = uuid4(), uuid4(), uuid4(), uuid4()
    a, b = str(uuid4()), str(uuid4())
    entries = [
        *(entry(org, "sessionResume", T0 + timedelta(minutes=k % 4), a) for k in range(12)),  # ties in time
        entry(org, "sessionResume", T0 + timedelta(minutes=1), a, success=False),
        entry(org, "sessionPause", T0 + timedelta(minutes=2), a, actor=person),
        entry(org, "sessionPause", T0 + timedelta(minutes=3), b, target_type="Volume"),
        entry(other_org, "sessionResume", T0 + timedelta(minutes=2), a),  # another scope's
        entry(other_org, "sessionResume", T0 + timedelta(minutes=2), b, group=group),  # a group's, seen by it
    ]
    await sql.append_many(entries)
    memory = InMemoryAudit(TenancyState())
    await memory.append_many(entries)

    mine = AuditVisibility(everything=False, organization_ids=frozenset({org}))
    both = AuditVisibility(everything=False, organization_ids=frozenset({org}), group_ids=frozenset({group}))
    nobody = AuditVisibility(everything=False)
    filters = [
        AuditFilter(),
        AuditFilter(oldest_first=True),
        AuditFilter(operation="sessionResume"),
        AuditFilter(operation="sessionResume", target_id=a, success=True, oldest_first=True),
        AuditFilter(success=False),
        AuditFilter(actor_user_id=person),
        AuditFilter(target_type="Volume"),
        AuditFilter(target_id=b),
        AuditFilter(since=T0 + timedelta(minutes=1), until=T0 + timedelta(minutes=3)),
        AuditFilter(since=T0 + timedelta(minutes=1), until=T0 + timedelta(minutes=3), oldest_first=True),
        AuditFilter(organization_id=org, oldest_first=True),
    ]
    for vis in (mine, both, nobody):
        for flt in filters:
            for offset, limit in ((0, 500), (0, 1), (3, 4), (40, 10)):
                want, want_total = await sql.query(vis, flt, offset, limit)
                got, got_total = await memory.query(vis, flt, offset, limit)
                assert ([e.id for e in got], got_total) == ([e.id for e in want], want_total), (vis, flt, offset)
    # the SQL answers themselves: newest first by default, oldest first when asked; ties by id
    found, total = await sql.query(mine, AuditFilter(target_id=a, success=True), 0, 500)
    assert total == 13
    assert [(e.at, e.id) for e in found] == sorted(
        ((e.at, e.id) for e in found), key=lambda k: (-k[0].timestamp(), k[1])
    )
    oldest, _ = await sql.query(mine, AuditFilter(target_id=a, success=True, oldest_first=True), 0, 500)
    assert [(e.at, e.id) for e in oldest] == sorted((e.at, e.id) for e in found)
    assert oldest[0].at == T0


async def test_the_report_finds_the_first_resume_after_a_pause_behind_a_page_of_later_ones(
    sql: SqlAuditRepository,
) -> None:
    """Idle reclaim's report on the SQL log: more successful resumes after the pause than a page
    of the log holds (500), and more at the pause's instant; the first after it still ends what
    the pause gave back."""
    org, sid = uuid4(), str(uuid4())
    pause_at = T0 + timedelta(hours=1)
    pause = AuditEntry(
        uuid4(), pause_at, jobs.SYSTEM_ACTOR.user_id, "gshare-system", "sessionPause", "Session", sid, True, "OK", 3,
        org, None, details={"reason": "idle", "cardEquivalents": "1.5"},
    )  # fmt: skip
    await sql.append_many(
        [
            pause,
            *(entry(org, "sessionResume", pause_at, sid) for _ in range(3)),  # at the pause: not after it
            entry(org, "sessionResume", pause_at + timedelta(minutes=20), sid),  # the next resume
            *(entry(org, "sessionResume", pause_at + timedelta(minutes=30, seconds=k), sid) for k in range(600)),
        ]
    )
    org_admin = Actor(uuid4(), "oa", org_admin_of=frozenset({org}))
    out = await jobs.idle_reclaim_report(sql, org_admin, T0, T0 + timedelta(hours=3))
    assert (out.paused_sessions, out.gpu_hours_returned) == (1, 0.5)  # 20 minutes of 1.5 cards
