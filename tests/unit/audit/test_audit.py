"""The audit log's use cases: the entry recorded for a request, who may read which entries,
and the page a query asks the repository for."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.audit.model import AuditEntry, AuditFilter, AuditVisibility, may_read, visibility_for
from domain.audit.services import AuditTarget, audit_entry, audit_get, audit_query, record
from domain.common.errors import NotFoundError
from domain.tenancy.model import Actor, Role
from domain.tenancy.services import MAX_PAGE, Page

AT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ORG, OTHER_ORG, GROUP, OTHER_GROUP = (UUID(int=i) for i in (1, 2, 3, 4))
ENTRY_ID = UUID(int=99)


class Ids:
    def new_id(self) -> UUID:
        return ENTRY_ID


class Repo:
    """Records what the use cases ask of the repository."""

    def __init__(self, entries: list[AuditEntry] | None = None) -> None:
        self.entries = entries or []
        self.queries: list[tuple[AuditVisibility, AuditFilter, int, int]] = []

    async def append(self, entry: AuditEntry) -> None:
        self.entries.append(entry)

    async def query(
        self, visibility: AuditVisibility, flt: AuditFilter, offset: int, limit: int
    ) -> tuple[list[AuditEntry], int]:
        self.queries.append((visibility, flt, offset, limit))
        return self.entries[offset : offset + limit], len(self.entries)

    async def get(self, entry_id: UUID) -> AuditEntry | None:
        return next((e for e in self.entries if e.id == entry_id), None)


def entry(org: UUID | None, group: UUID | None, entry_id: UUID = ENTRY_ID) -> AuditEntry:
    return AuditEntry(entry_id, AT, None, "system", "groupUpdate", "Group", "g", True, "OK", 3, org, group)


SUPER = Actor(UUID(int=10), "root", is_super_admin=True)
ORG_ADMIN = Actor(UUID(int=11), "orgadm", org_admin_of=frozenset({ORG}))
GROUP_ADMIN = Actor(
    UUID(int=12), "gadm", group_roles={GROUP: Role.GROUP_ADMIN, OTHER_GROUP: Role.MEMBER}, group_orgs={GROUP: ORG}
)
MEMBER = Actor(UUID(int=13), "member", group_roles={GROUP: Role.MEMBER}, group_orgs={GROUP: ORG})


def test_an_entry_names_the_actor_the_target_and_the_outcome() -> None:
    target = AuditTarget("Group", "g-1", ORG, GROUP)
    e = audit_entry(
        Ids(),
        at=AT,
        actor=ORG_ADMIN,
        operation="groupUpdate",
        target=target,
        success=False,
        result_code="PERMISSION_DENIED",
        duration_ms=12,
        request_id="req-1",
        client_ip="10.0.0.1",
        details={"field": "name"},
        actor_username="ignored when an actor is known",
    )
    assert e == AuditEntry(
        ENTRY_ID, AT, ORG_ADMIN.user_id, "orgadm", "groupUpdate", "Group", "g-1", False, "PERMISSION_DENIED", 12,
        ORG, GROUP, "req-1", "10.0.0.1", {"field": "name"},
    )  # fmt: skip
    anonymous = audit_entry(
        Ids(), at=AT, actor=None, operation="login", target=AuditTarget(), success=True, result_code="OK",
        duration_ms=-5, actor_username="alice",
    )  # fmt: skip
    assert (anonymous.actor_user_id, anonymous.actor_username) == (None, "alice")
    assert anonymous.duration_ms == 0  # a clock step back is never a negative duration
    assert (anonymous.target_type, anonymous.target_id, anonymous.organization_id, anonymous.group_id) == (
        None, None, None, None,
    )  # fmt: skip
    assert (anonymous.request_id, anonymous.client_ip, anonymous.details) == (None, None, {})


async def test_record_appends_the_entry_and_returns_it() -> None:
    repo = Repo()
    e = entry(ORG, None)
    assert await record(repo, e) is e
    assert repo.entries == [e]


def test_only_admins_see_the_log_each_within_what_they_administer() -> None:
    assert visibility_for(SUPER) == AuditVisibility(everything=True)
    assert visibility_for(ORG_ADMIN) == AuditVisibility(False, frozenset({ORG}), frozenset())
    assert visibility_for(GROUP_ADMIN) == AuditVisibility(False, frozenset(), frozenset({GROUP}))
    assert visibility_for(MEMBER) is None
    in_org, in_group, elsewhere = entry(ORG, None), entry(OTHER_ORG, GROUP), entry(OTHER_ORG, OTHER_GROUP)
    assert [may_read(SUPER, e) for e in (in_org, in_group, elsewhere)] == [True, True, True]
    assert [may_read(ORG_ADMIN, e) for e in (in_org, in_group, elsewhere)] == [True, False, False]
    assert [may_read(GROUP_ADMIN, e) for e in (in_org, in_group, elsewhere)] == [False, True, False]
    assert [may_read(MEMBER, e) for e in (in_org, in_group, elsewhere)] == [False, False, False]


async def test_a_query_is_limited_to_the_readers_visibility_and_a_clamped_page() -> None:
    entries = [entry(ORG, None, UUID(int=100 + i)) for i in range(5)]
    repo = Repo(entries)
    flt = AuditFilter(operation="groupUpdate")
    assert await audit_query(repo, MEMBER, flt, Page(0, 10)) == ([], 0)
    assert repo.queries == []  # nothing asked of the repository for a non-admin
    found, total = await audit_query(repo, ORG_ADMIN, flt, Page(-3, 2))
    assert (found, total) == (entries[:2], 5)
    assert repo.queries[-1] == (AuditVisibility(False, frozenset({ORG}), frozenset()), flt, 0, 2)
    await audit_query(repo, SUPER, flt, Page(1, 10_000))
    assert repo.queries[-1] == (AuditVisibility(everything=True), flt, 1, MAX_PAGE)
    await audit_query(repo, SUPER, flt, Page(2, 0))
    assert repo.queries[-1][2:] == (2, 1)


async def test_an_entry_the_reader_may_not_see_answers_like_a_missing_one() -> None:
    mine, foreign = entry(ORG, None, UUID(int=1)), entry(OTHER_ORG, None, UUID(int=2))
    repo = Repo([mine, foreign])
    assert await audit_get(repo, ORG_ADMIN, mine.id) is mine
    for missing in (foreign.id, UUID(int=3)):
        with pytest.raises(NotFoundError) as err:
            await audit_get(repo, ORG_ADMIN, missing)
        assert (err.value.message, err.value.field) == ("audit entry not found", "id")
