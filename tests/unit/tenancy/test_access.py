"""The pure access rules of tenancy, actor by actor."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest

from domain.tenancy import access
from domain.tenancy.auth import PersonalAccessToken, TokenScope, digest
from domain.tenancy.model import Actor, Group, Organization, Role

ORG, OTHER = UUID(int=1), UUID(int=2)
G, G2, H = UUID(int=11), UUID(int=12), UUID(int=21)  # G, G2 in ORG; H in OTHER
AT = datetime(2026, 1, 1, tzinfo=UTC)

SUPER = Actor(UUID(int=100), "root", is_super_admin=True)
ORG_ADMIN = Actor(UUID(int=101), "oa", org_admin_of=frozenset({ORG}))
GROUP_ADMIN = Actor(UUID(int=102), "ga", group_roles={G: Role.GROUP_ADMIN}, group_orgs={G: ORG})
MEMBER = Actor(UUID(int=103), "m", group_roles={G: Role.MEMBER}, group_orgs={G: ORG})
GUEST = Actor(UUID(int=104), "g", group_roles={G: Role.GUEST, G2: Role.GUEST}, group_orgs={G: ORG, G2: ORG})
NOBODY = Actor(UUID(int=105), "n")
ACTORS = [SUPER, ORG_ADMIN, GROUP_ADMIN, MEMBER, GUEST, NOBODY]


class Directory:
    def __init__(self) -> None:
        self.groups = {G: ORG, G2: ORG, H: OTHER}
        self.users = {UUID(int=103): {G: ORG}, UUID(int=200): {H: OTHER}, UUID(int=201): {G2: ORG}}

    async def group_organization(self, group_id: UUID) -> UUID | None:
        return self.groups.get(group_id)

    async def user_groups(self, user_id: UUID) -> dict[UUID, UUID]:
        return self.users.get(user_id, {})


def test_actor_properties() -> None:
    assert GUEST.organization_ids == frozenset({ORG}) and ORG_ADMIN.organization_ids == frozenset({ORG})
    assert NOBODY.organization_ids == frozenset()
    assert MEMBER.role_in_group(G) is Role.MEMBER and MEMBER.role_in_group(H) is None
    assert [a.is_org_admin(ORG) for a in ACTORS] == [True, True, False, False, False, False]
    assert [a.is_group_admin(G, ORG) for a in ACTORS] == [True, True, True, False, False, False]
    assert [a.is_group_admin(H, OTHER) for a in ACTORS] == [True, False, False, False, False, False]
    assert [a.is_guest_only() for a in ACTORS] == [False, False, False, False, True, False]
    mixed = Actor(UUID(int=9), "x", group_roles={G: Role.GUEST, G2: Role.MEMBER})
    assert mixed.is_guest_only() is False
    assert Actor(UUID(int=9), "x", org_admin_of=frozenset({ORG}), group_roles={G: Role.GUEST}).is_guest_only() is False


def test_who_sees_organisations_groups_and_users() -> None:
    org = Organization(ORG, "Acme", "acme", AT)
    assert [access.can_see_organization(a, org) for a in ACTORS] == [True, True, True, True, True, False]
    assert [access.can_see_organization_id(a, OTHER) for a in ACTORS] == [True, False, False, False, False, False]
    g2 = Group(G2, ORG, "G2", AT)
    assert [access.can_see_group(a, g2) for a in ACTORS] == [True, True, False, False, True, False]
    assert [access.can_see_group_of(a, G, None) for a in ACTORS] == [False] * 6
    user, groups = UUID(int=300), {G: ORG}
    assert [access.can_see_user(a, user, groups, frozenset()) for a in ACTORS] == [True, True, True, True, True, False]
    assert access.can_see_user(NOBODY, NOBODY.user_id, {}, frozenset()) is True
    assert access.can_see_user(ORG_ADMIN, user, {}, frozenset({ORG})) is True  # an admin of the organisation
    assert access.can_see_user(MEMBER, user, {H: OTHER}, frozenset()) is False


async def test_a_scope_out_of_reach_answers_like_a_missing_one() -> None:
    d = Directory()
    reach = [
        [await access.scope_in_reach(a, d, kind, sid) for a in ACTORS]
        for kind, sid in [
            ("organization", ORG), ("organization", OTHER), ("group", G), ("group", G2), ("group", H),
            ("group", UUID(int=99)), ("user", UUID(int=103)), ("user", UUID(int=200)), ("user", UUID(int=201)),
        ]
    ]  # fmt: skip
    assert reach == [
        [True, True, True, True, True, False],
        [True, False, False, False, False, False],
        [True, True, True, True, True, False],
        [True, True, False, False, True, False],
        [True, False, False, False, False, False],
        [False, False, False, False, False, False],
        [True, True, True, True, True, False],
        [True, False, False, False, False, False],
        [True, True, False, False, True, False],
    ]
    assert await access.scope_in_reach(NOBODY, d, "user", NOBODY.user_id) is True
    with pytest.raises(ValueError, match="'cluster' is not a tenancy scope"):
        await access.scope_in_reach(SUPER, d, "cluster", ORG)
    with pytest.raises(Exception) as err:
        await access.require_scope_in_reach(MEMBER, d, "group", H, "groupId")
    assert (err.value.code.value, err.value.field, err.value.message) == ("NOT_FOUND", "groupId", "group not found")  # type: ignore[attr-defined]
    await access.require_scope_in_reach(MEMBER, d, "group", G, "groupId")


def test_writes_need_the_scopes_admin_and_a_writable_token() -> None:
    from dataclasses import replace

    from domain.common.errors import PermissionDeniedError

    group = Group(G, ORG, "G", AT)

    def outcome(fn: object, *args: object) -> str:
        try:
            fn(*args)  # type: ignore[operator]
        except PermissionDeniedError as e:
            return e.message
        return "ok"

    assert [outcome(access.require_super_admin, a) for a in ACTORS[:2]] == ["ok", "only a super_admin may do this"]
    assert [outcome(access.require_org_admin, a, ORG) for a in ACTORS[1:3]] == [
        "ok",
        "only an admin of this organisation may do this",
    ]
    assert [outcome(access.require_group_admin, a, group) for a in ACTORS[2:4]] == [
        "ok",
        "only an admin of this group may do this",
    ]
    for fn, args in [
        (access.require_writable, ()),
        (access.require_super_admin, ()),
        (access.require_org_admin, (ORG,)),
        (access.require_group_admin, (group,)),
    ]:
        assert outcome(fn, replace(SUPER, read_only=True), *args) == "this token is read-only"
    assert [access.may_grant_group_role(a, group, Role.GROUP_ADMIN) for a in ACTORS] == [True, True] + [False] * 4
    assert [access.may_grant_group_role(a, group, Role.MEMBER) for a in ACTORS] == [True, True, True] + [False] * 3
    assert [access.administered_org_ids(a) for a in ACTORS[:3]] == [None, frozenset({ORG}), frozenset()]
    assert (
        access.administered_group_ids(GROUP_ADMIN) == frozenset({G})
        and access.administered_group_ids(MEMBER) == frozenset()
    )
    assert [access.is_any_admin(a) for a in ACTORS] == [True, True, True, False, False, False]


def test_tokens_and_digests() -> None:
    token = PersonalAccessToken(
        UUID(int=1), UUID(int=2), "t", TokenScope.READ_ONLY, "gsp_abcdef", AT, AT + timedelta(days=1)
    )
    assert token.is_usable(AT) and token.is_usable(AT + timedelta(hours=23))
    assert not token.is_usable(AT + timedelta(days=1))
    from dataclasses import replace

    assert not replace(token, revoked_at=AT).is_usable(AT)
    assert replace(token, expires_at=None).is_usable(AT + timedelta(days=9999))
    assert digest("gsp_x") == "d4342c9be23953a2eeb0f9a8970a43f2e04304b9e4635e2ce529676235238697"  # SHA-256
