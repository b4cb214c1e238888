"""Reach decisions of the credits use cases: a scope out of reach answers like a missing one."""

from __future__ import annotations

import uuid

import pytest

from domain.common.errors import DomainError
from domain.credits import services as svc
from domain.credits.model import AccountRef
from tests.unit.credits.world import World, run


def refused(coro: object) -> tuple[str, str | None, str]:
    with pytest.raises(DomainError) as exc:
        run(coro)  # type: ignore[arg-type]
    return str(exc.value.code), exc.value.field, exc.value.message


def test_the_judged_scope_of_oneself_and_of_someone_below() -> None:
    w = World()
    me = w.member()
    chain = dict(username="alice", asked_group_id=None, active_group_id=None)
    assert run(svc.judged_scope(me, w.directory, user_id=w.alice, **chain)) == (w.group, w.org)
    assert run(svc.judged_scope(w.group_admin, w.directory, user_id=w.alice, **chain)) == (w.group, w.org)
    # a co-member is not above alice, and a user who does not exist answers the same
    bob = w.member(w.bob)
    assert (
        refused(svc.judged_scope(bob, w.directory, user_id=w.alice, **chain))
        == refused(svc.judged_scope(bob, w.directory, user_id=uuid.uuid4(), **chain))
        == ("NOT_FOUND", "userId", "user not found")
    )
    # a group the user is not in: another organisation's and a made-up one alike
    asked = {**chain, "asked_group_id": w.foreign_group}
    missing = {**chain, "asked_group_id": uuid.uuid4()}
    assert (
        refused(svc.judged_scope(me, w.directory, user_id=w.alice, **asked))
        == refused(svc.judged_scope(me, w.directory, user_id=w.alice, **missing))
        == ("NOT_FOUND", "groupId", "group not found")
    )


def test_an_account_list_drilled_down_out_of_reach_is_not_found() -> None:
    w = World()
    for account, field in ((AccountRef.group(w.foreign_group), "groupId"), (AccountRef.group(uuid.uuid4()), "groupId")):
        assert refused(svc.require_account_admin(w.group_admin, w.directory, account, field)) == (
            "NOT_FOUND",
            "groupId",
            "group not found",
        )
    run(svc.require_account_admin(w.group_admin, w.directory, AccountRef.group(w.group), "groupId"))
    run(svc.require_account_admin(w.org_admin, w.directory, AccountRef.organization(w.org), "organizationId"))
    assert refused(
        svc.require_account_admin(w.org_admin, w.directory, AccountRef.organization(w.other_org), "organizationId")
    )[0:2] == ("NOT_FOUND", "organizationId")
