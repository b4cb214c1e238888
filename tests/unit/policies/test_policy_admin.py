"""Who may change and who may read a scope's policy, scope kind by scope kind, with the exact
refusal (code, message, field) of each case."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from uuid import UUID, uuid4

import pytest

from domain.common.errors import CommonErrorCode, DomainError
from domain.policies import services as svc
from domain.policies.model import GLOBAL_SCOPE, PolicyScope, ResourcePolicy
from domain.tenancy.model import Actor
from infra.credits.memory import InMemoryPolicies
from tests.unit.credits.world import World

OK = "ok"
PD = ("PERMISSION_DENIED", "only an admin of this scope may change its policy", "scope")


def nf(kind: str) -> tuple[str, str, str]:
    return ("NOT_FOUND", f"{kind} not found", "scope")


@pytest.fixture
def w() -> World:
    return World()


def actors(w: World) -> dict[str, Actor]:
    return {
        "super": w.super_admin,
        "org_admin": w.org_admin,
        "group_admin": w.group_admin,
        "member": w.member(),
        "foreign_admin": Actor(uuid4(), "fadmin", org_admin_of=frozenset({w.other_org})),
    }


def scopes(w: World) -> dict[str, PolicyScope]:
    return {
        "global": GLOBAL_SCOPE,
        "org": PolicyScope.organization(w.org),
        "other_org": PolicyScope.organization(w.other_org),
        "group": PolicyScope.group(w.group),
        "other_group": PolicyScope.group(w.other_group),
        "foreign_group": PolicyScope.group(w.foreign_group),
        "alice": PolicyScope.user(w.alice),
        "carol": PolicyScope.user(w.carol),
        "nobody": PolicyScope.user(UUID(int=7)),
    }


#            super  org_admin      group_admin          member               foreign_admin
CHANGE = {
    "global": [OK, PD, PD, PD, PD],
    "org": [OK, OK, PD, PD, nf("organization")],
    "other_org": [OK, nf("organization"), nf("organization"), nf("organization"), OK],
    "group": [OK, OK, PD, PD, nf("group")],
    "other_group": [OK, OK, nf("group"), nf("group"), nf("group")],
    "foreign_group": [OK, nf("group"), nf("group"), nf("group"), OK],
    "alice": [OK, OK, OK, PD, nf("user")],
    "carol": [OK, OK, nf("user"), nf("user"), nf("user")],
    "nobody": [OK, nf("user"), nf("user"), nf("user"), nf("user")],
}
VIEW = {
    "global": [True, True, True, True, True],
    "org": [True, True, True, True, False],
    "other_org": [True, False, False, False, True],
    "group": [True, True, True, True, False],
    "other_group": [True, True, False, False, False],
    "foreign_group": [True, False, False, False, True],
    "alice": [True, True, True, True, False],
    "carol": [True, True, False, False, False],
    "nobody": [True, False, False, False, False],
}


async def outcome(actor: Actor, w: World, scope: PolicyScope) -> object:
    try:
        await svc.require_policy_admin(actor, w.directory, scope)
    except DomainError as err:
        return (err.code.value, err.message, err.field)
    return OK


@pytest.mark.parametrize("scope_name", list(CHANGE))
async def test_who_may_change_a_scopes_policy(w: World, scope_name: str) -> None:
    scope = scopes(w)[scope_name]
    got = [await outcome(a, w, scope) for a in actors(w).values()]
    assert got == CHANGE[scope_name], scope_name


@pytest.mark.parametrize("scope_name", list(VIEW))
async def test_who_may_read_a_scopes_policy(w: World, scope_name: str) -> None:
    scope = scopes(w)[scope_name]
    got = [await svc.can_view_policy(a, w.directory, scope) for a in actors(w).values()]
    assert got == VIEW[scope_name], scope_name


async def test_a_read_only_token_changes_nothing_even_for_a_super_admin(w: World) -> None:
    for actor in (replace(w.super_admin, read_only=True), replace(w.org_admin, read_only=True)):
        for scope in (GLOBAL_SCOPE, PolicyScope.organization(w.org)):
            assert await outcome(actor, w, scope) == (
                CommonErrorCode.READ_ONLY_TOKEN.value,
                "this token is read-only",
                None,
            )


async def test_set_get_list_and_delete(w: World) -> None:
    policies = InMemoryPolicies()
    w.clock.set(datetime(2026, 6, 1, tzinfo=UTC))
    group, other = PolicyScope.group(w.group), PolicyScope.group(w.other_group)
    stored = await svc.set_policy(
        w.org_admin, policies, w.directory, w.clock, ResourcePolicy(group, max_concurrent_sessions=3)
    )
    assert stored == ResourcePolicy(
        group, max_concurrent_sessions=3, updated_at=datetime(2026, 6, 1, tzinfo=UTC), updated_by=w.org_admin_user
    )
    assert await policies.get(group) == stored
    await svc.set_policy(w.org_admin, policies, w.directory, w.clock, ResourcePolicy(other, max_vram_mib=1))
    with pytest.raises(DomainError) as refused:
        await svc.set_policy(w.group_admin, policies, w.directory, w.clock, ResourcePolicy(group, max_gpus=None))
    assert (refused.value.code.value, refused.value.field) == ("PERMISSION_DENIED", "scope")
    assert await policies.get(group) == stored  # the refused change wrote nothing
    assert await svc.get_policy(w.group_admin, policies, w.directory, group) == stored
    assert await svc.get_policy(w.org_admin, policies, w.directory, PolicyScope.organization(w.org)) is None
    with pytest.raises(DomainError) as hidden:
        await svc.get_policy(w.group_admin, policies, w.directory, other)
    assert (hidden.value.code.value, hidden.value.message, hidden.value.field) == (
        "NOT_FOUND",
        "policy not found",
        "scope",
    )
    assert [p.scope for p in await svc.list_policies(w.group_admin, policies, w.directory)] == [group]
    assert {p.scope for p in await svc.list_policies(w.org_admin, policies, w.directory)} == {group, other}
    await svc.delete_policy(w.org_admin, policies, w.directory, group)
    assert await policies.get(group) is None
    with pytest.raises(DomainError) as missing:
        await svc.delete_policy(w.org_admin, policies, w.directory, group)
    assert (missing.value.code.value, missing.value.message, missing.value.field) == (
        "NOT_FOUND",
        "policy not found",
        "scope",
    )
    with pytest.raises(DomainError):
        await svc.delete_policy(w.group_admin, policies, w.directory, other)
    assert await policies.get(other) is not None
