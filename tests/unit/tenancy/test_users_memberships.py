"""Tenancy use cases on in-memory repositories: users, admins, memberships and the active
group, with the exact refusal of each case and nothing written when refused."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.tenancy import services as t
from domain.tenancy.model import Membership, Role, User
from domain.tenancy.services import Page
from tests.unit.tenancy.world import NOW, World, refusal


@pytest.fixture
async def w() -> World:
    return await World.build()


def topics(w: World) -> list[str]:
    return [topic for topic, _ in w.uow.published] + [topic for topic, _ in w.uow._pending]


async def test_a_user_joins_the_default_group_with_the_role_and_the_groups_named(w: World) -> None:
    """The first group named is the new user's active group (issue 18: a member created into a
    group works there from the first sign-in, without an active-group switch)."""
    u = await t.user_create(
        w.uow, w.org_admin, w.ids, w.clock, w.hasher, organization_id=w.org_a.id, username=" Ada.L ",
        email=" ada@Example.org ", password="0123456789", role=Role.GROUP_ADMIN, group_ids=[w.g2.id],
    )  # fmt: skip
    default = await w.uow.tenancy.get_default_group(w.org_a.id)
    assert default is not None
    assert u == User(u.id, "ada.l", "ada@Example.org", "Ada.L", NOW, active_group_id=w.g2.id)
    assert w.state.users[u.id].active_group_id == w.g2.id
    assert w.state.passwords[u.id] == "hashed:0123456789" and w.hasher.hashed == ["0123456789"]
    assert sorted((m.group_id, m.role) for m in await w.uow.tenancy.memberships_of_user(u.id)) == sorted(
        [(default.id, Role.MEMBER), (w.g2.id, Role.GROUP_ADMIN)]
    )
    shown = await t.user_create(
        w.uow, w.org_admin, w.ids, w.clock, w.hasher, organization_id=w.org_a.id, username="bo",
        email="bo@example.org", display_name="  Bo  Peep ", role=Role.GUEST,
    )  # fmt: skip
    assert shown.display_name == "Bo Peep" and w.state.passwords[shown.id] is None
    assert shown.active_group_id == default.id  # no group named: the Default group
    assert [(m.group_id, m.role) for m in await w.uow.tenancy.memberships_of_user(shown.id)] == [
        (default.id, Role.GUEST)
    ]


async def test_user_create_refusals_change_nothing(w: World) -> None:
    users = dict(w.state.users)

    def create(actor: object = None, **kw: object) -> object:
        args = dict(organization_id=w.org_a.id, username="newbie", email="newbie@example.org")
        args.update(kw)
        return t.user_create(w.uow, actor or w.org_admin, w.ids, w.clock, w.hasher, **args)  # type: ignore[arg-type]

    assert await refusal(create(w.group_admin)) == (
        "PERMISSION_DENIED", None, "only an admin of this organisation may do this",
    )  # fmt: skip
    assert await refusal(create(w.org_admin, organization_id=w.org_b.id)) == (
        "NOT_FOUND", "id", "organization not found",
    )  # fmt: skip
    assert await refusal(create(username="member")) == (
        "DUPLICATE",
        "username",
        "a user with this username already exists",
    )
    assert await refusal(create(email="MEMBER@example.org")) == (
        "DUPLICATE",
        "email",
        "a user with this email already exists",
    )
    assert await refusal(create(password="short")) == (
        "WEAK_PASSWORD", "password", "password must be at least 10 characters",
    )  # fmt: skip
    assert await refusal(create(role=Role.ORG_ADMIN)) == ("NOT_A_MEMBER", "role", "role must be a group role")
    assert await refusal(create(role=Role.SUPER_ADMIN)) == ("NOT_A_MEMBER", "role", "role must be a group role")
    assert await refusal(create(group_ids=[w.h.id])) == ("NOT_FOUND", "groupIds", "group not found")
    assert await refusal(create(group_ids=[UUID(int=3)])) == ("NOT_FOUND", "groupIds", "group not found")
    several = await refusal(create(username="-", email="nope", display_name=" ", password="x"), errors=True)
    assert several == [
        ("INVALID_VALUE", "username"),
        ("INVALID_VALUE", "email"),
        ("INVALID_VALUE", "displayName"),
        ("WEAK_PASSWORD", "password"),
    ]
    assert w.state.users == users and w.hasher.hashed == []
    ok = await create(password="0123456789")
    assert ok.username == "newbie"  # exactly 10 characters is long enough


async def test_a_missing_default_group_is_recreated_rather_than_refused(w: World) -> None:
    default = await w.uow.tenancy.get_default_group(w.org_b.id)
    assert default is not None
    for key in [k for k in w.state.memberships if k[1] == default.id]:
        del w.state.memberships[key]
    del w.state.groups[default.id]
    u = await t.user_create(
        w.uow, w.root, w.ids, w.clock, w.hasher, organization_id=w.org_b.id, username="late", email="l@example.org"
    )
    again = await w.uow.tenancy.get_default_group(w.org_b.id)
    assert again is not None and (again.name, again.is_default, again.description) == ("Default", True, "")
    assert u.active_group_id == again.id


async def test_who_sees_which_users_and_lists(w: World) -> None:
    member, guest, foreign = w.users["member"], w.users["guest"], w.users["bmember"]
    assert await t.user_get(w.uow, w.guest, member.id) == member  # a co-member of G1
    assert await refusal(t.user_get(w.uow, w.member, foreign.id)) == ("NOT_FOUND", "id", "user not found")
    assert await refusal(t.user_get(w.uow, w.root, UUID(int=9))) == ("NOT_FOUND", "id", "user not found")
    assert (await t.user_get(w.uow, w.org_admin, guest.id)).id == guest.id
    names = lambda us: [u.username for u in us]  # noqa: E731
    every, total = await t.users_list(w.uow, w.root, Page())
    assert (names(every), total) == (["bmember", "gadmin", "guest", "member", "orgadmin"], 5)
    in_b, total = await t.users_list(w.uow, w.root, Page(), organization_id=w.org_b.id)
    assert (names(in_b), total) == (["bmember"], 1)
    found, total = await t.users_list(w.uow, w.root, Page(), search="ADMIN")
    assert (names(found), total) == (["gadmin", "orgadmin"], 2)
    g1, total = await t.users_list(w.uow, w.foreign, Page(), group_id=w.h.id)
    assert (names(g1), total) == (["bmember"], 1)
    assert await refusal(t.users_list(w.uow, w.foreign, Page(), group_id=w.g1.id)) == (
        "NOT_FOUND", "id", "group not found",
    )  # fmt: skip
    admin, total = await t.users_list(w.uow, w.org_admin, Page())
    assert (names(admin), total) == (["gadmin", "guest", "member", "orgadmin"], 4)
    admin_b, total = await t.users_list(w.uow, w.org_admin, Page(), organization_id=w.org_b.id)
    assert (admin_b, total) == ([], 0)
    co, total = await t.users_list(w.uow, w.member, Page(limit=2))
    assert (names(co), total) == (["gadmin", "guest"], 4)  # G1 and Default of Acme
    co_b, total = await t.users_list(w.uow, w.member, Page(), organization_id=w.org_b.id)
    assert (co_b, total) == ([], 0)
    co_a, total = await t.users_list(w.uow, w.member, Page(), organization_id=w.org_a.id)
    assert (names(co_a), total) == (["gadmin", "guest", "member", "orgadmin"], 4)


async def test_user_update(w: World) -> None:
    member = w.users["member"]
    me = await t.user_update(w.uow, w.member, member.id, display_name=" M  e ", email=" me@example.org ")
    assert (me.display_name, me.email, me.is_active) == ("M e", "me@example.org", True)
    assert w.state.users[member.id].display_name == "M e"
    assert topics(w) == [f"user:{member.id}"]
    assert await refusal(t.user_update(w.uow, w.member, member.id, is_active=False)) == (
        "PERMISSION_DENIED", "isActive", "only an admin may enable or disable an account",
    )  # fmt: skip
    assert await refusal(t.user_update(w.uow, w.guest, member.id, display_name="x")) == (
        "PERMISSION_DENIED", None, "only the user or an admin of their organisation may change them",
    )  # fmt: skip
    assert await refusal(t.user_update(w.uow, w.member, member.id, email="GUEST@example.org")) == (
        "DUPLICATE", "email", "a user with this email already exists",
    )  # fmt: skip
    assert await refusal(t.user_update(w.uow, w.read_only(w.member), member.id, display_name="x")) == (
        "PERMISSION_DENIED", None, "this token is read-only",
    )  # fmt: skip
    assert await refusal(t.user_update(w.uow, w.org_admin, w.users["orgadmin"].id, is_active=False)) == (
        "PERMISSION_DENIED", "isActive", "you cannot disable your own account",
    )  # fmt: skip
    several = await refusal(t.user_update(w.uow, w.member, member.id, display_name=" ", email="x"), errors=True)
    assert several == [("INVALID_VALUE", "displayName"), ("INVALID_VALUE", "email")]
    off = await t.user_update(w.uow, w.org_admin, member.id, is_active=False)
    assert off.is_active is False and w.state.users[member.id].is_active is False
    assert await t.load_actor(w.uow, member.id) is None  # a disabled account acts no more
    on = await t.user_update(w.uow, w.root, member.id, is_active=True)
    assert on.is_active is True
    assert w.state.users[member.id].email == "me@example.org"


async def test_passwords_are_changed_with_the_current_one_or_reset_by_an_admin(w: World) -> None:
    member = w.users["member"]
    assert await refusal(
        t.user_set_password(w.uow, w.member, w.hasher, member.id, new_password="0123456789", current_password="bad")
    ) == ("INVALID_CREDENTIALS", "currentPassword", "current password is wrong")
    assert await refusal(t.user_set_password(w.uow, w.member, w.hasher, member.id, new_password="0123456789")) == (
        "INVALID_CREDENTIALS", "currentPassword", "current password is wrong",
    )  # fmt: skip
    assert await refusal(t.user_set_password(w.uow, w.member, w.hasher, member.id, new_password="short")) == (
        "WEAK_PASSWORD", "newPassword", "newPassword must be at least 10 characters",
    )  # fmt: skip
    assert w.state.passwords[member.id] == "hashed:member-password"
    await t.user_set_password(
        w.uow, w.member, w.hasher, member.id, new_password="new-password", current_password="member-password"
    )
    assert w.state.passwords[member.id] == "hashed:new-password"
    assert await refusal(t.user_set_password(w.uow, w.guest, w.hasher, member.id, new_password="0123456789")) == (
        "PERMISSION_DENIED", None, "only an admin of the user's organisation may reset the password",
    )  # fmt: skip
    await t.user_set_password(w.uow, w.org_admin, w.hasher, member.id, new_password="reset-by-admin")
    assert w.state.passwords[member.id] == "hashed:reset-by-admin"
    # a user without a password sets one without a current one
    w.state.passwords[member.id] = None
    await t.user_set_password(w.uow, w.member, w.hasher, member.id, new_password="first-password")
    assert w.state.passwords[member.id] == "hashed:first-password"
    w.state.users[member.id] = w.state.users[member.id].__class__(
        **{**vars(w.state.users[member.id]), "is_super_admin": True}
    )
    assert await refusal(t.user_set_password(w.uow, w.org_admin, w.hasher, member.id, new_password="0123456789")) == (
        "PERMISSION_DENIED", None, "only a super_admin may reset a super_admin's password",
    )  # fmt: skip
    await t.user_set_password(w.uow, w.root, w.hasher, member.id, new_password="by-the-root")
    assert w.state.passwords[member.id] == "hashed:by-the-root"


async def test_super_and_org_admins_are_appointed_and_the_last_super_admin_stays(w: World) -> None:
    member = w.users["member"]
    assert await refusal(t.super_admin_set(w.uow, w.org_admin, member.id, True)) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    up = await t.super_admin_set(w.uow, w.root, member.id, True)
    assert up.is_super_admin and w.state.users[member.id].is_super_admin
    assert topics(w) == [f"user:{member.id}"]
    assert await refusal(t.super_admin_set(w.uow, w.root, member.id, False)) == (
        "LAST_SUPER_ADMIN", "userId", "the last super_admin cannot be demoted",
    )  # fmt: skip
    await t.super_admin_set(w.uow, w.root, w.users["guest"].id, True)
    down = await t.super_admin_set(w.uow, w.root, member.id, False)
    assert down.is_super_admin is False and await w.uow.tenancy.count_super_admins() == 1
    # demoting someone who is not a super_admin is no demotion of the last one
    assert (await t.super_admin_set(w.uow, w.root, member.id, False)).is_super_admin is False

    made = await t.org_admin_set(w.uow, w.org_admin, member.id, w.org_a.id, True)
    assert made.org_admin_of == frozenset({w.org_a.id}) and (member.id, w.org_a.id) in w.state.admins
    assert await refusal(t.org_admin_set(w.uow, w.root, member.id, w.org_b.id, True)) == (
        "NOT_A_MEMBER", "userId", "member is not in organisation Beta",
    )  # fmt: skip
    assert await refusal(t.org_admin_set(w.uow, w.group_admin, member.id, w.org_a.id, True)) == (
        "PERMISSION_DENIED", None, "only an admin of this organisation may do this",
    )  # fmt: skip
    gone = await t.org_admin_set(w.uow, w.root, member.id, w.org_a.id, False)
    assert gone.org_admin_of == frozenset() and (member.id, w.org_a.id) not in w.state.admins
    # removing an admin who is not in the organisation is allowed (nothing to check)
    assert (await t.org_admin_set(w.uow, w.root, member.id, w.org_b.id, False)).org_admin_of == frozenset()


async def test_memberships_are_set_by_group_admins_and_group_admins_by_org_admins(w: World) -> None:
    orgadmin, member, guest = w.users["orgadmin"], w.users["member"], w.users["guest"]
    m = await t.membership_set(w.uow, w.group_admin, user_id=orgadmin.id, group_id=w.g1.id, role=Role.GUEST)
    assert m == Membership(orgadmin.id, w.g1.id, w.org_a.id, Role.GUEST)
    assert w.state.memberships[(orgadmin.id, w.g1.id)] == m and topics(w) == [f"user:{orgadmin.id}"]
    assert await refusal(
        t.membership_set(w.uow, w.group_admin, user_id=guest.id, group_id=w.g1.id, role=Role.GROUP_ADMIN)
    ) == ("PERMISSION_DENIED", "role", "only an org admin may appoint group admins")
    assert await refusal(t.membership_set(w.uow, w.member, user_id=guest.id, group_id=w.g1.id, role=Role.MEMBER)) == (
        "PERMISSION_DENIED", None, "only an admin of this group may add members",
    )  # fmt: skip
    for bad in (Role.ORG_ADMIN, Role.SUPER_ADMIN):
        assert await refusal(t.membership_set(w.uow, w.org_admin, user_id=guest.id, group_id=w.g1.id, role=bad)) == (
            "NOT_A_MEMBER", "role", "role must be group_admin, member or guest",
        )  # fmt: skip
    assert await refusal(
        t.membership_set(w.uow, w.root, user_id=w.users["bmember"].id, group_id=w.g1.id, role=Role.MEMBER)
    ) == ("NOT_A_MEMBER", "userId", "bmember is not in this group's organisation")
    assert await refusal(
        t.membership_set(w.uow, w.group_admin, user_id=w.users["gadmin"].id, group_id=w.g1.id, role=Role.MEMBER)
    ) == ("PERMISSION_DENIED", "role", "only an org admin may change a group admin's role")
    assert await refusal(
        t.membership_set(w.uow, w.group_admin, user_id=guest.id, group_id=w.g2.id, role=Role.MEMBER)
    ) == ("NOT_FOUND", "id", "group not found")
    up = await t.membership_set(w.uow, w.org_admin, user_id=guest.id, group_id=w.g1.id, role=Role.GROUP_ADMIN)
    assert w.state.memberships[(guest.id, w.g1.id)] == up and up.role is Role.GROUP_ADMIN
    down = await t.membership_set(w.uow, w.org_admin, user_id=guest.id, group_id=w.g1.id, role=Role.MEMBER)
    assert down.role is Role.MEMBER
    assert w.state.memberships[(member.id, w.g1.id)].role is Role.MEMBER


async def test_memberships_are_removed_and_the_active_group_falls_back_to_default(w: World) -> None:
    member, gadmin = w.users["member"], w.users["gadmin"]
    default = await w.uow.tenancy.get_default_group(w.org_a.id)
    assert default is not None
    await t.active_group_set(w.uow, w.member, w.g1.id)
    assert w.state.users[member.id].active_group_id == w.g1.id and topics(w) == [f"user:{member.id}"]
    removed = await t.membership_remove(w.uow, w.group_admin, user_id=member.id, group_id=w.g1.id)
    assert removed == Membership(member.id, w.g1.id, w.org_a.id, Role.MEMBER)
    assert (member.id, w.g1.id) not in w.state.memberships
    assert w.state.users[member.id].active_group_id == default.id
    assert await refusal(t.membership_remove(w.uow, w.group_admin, user_id=member.id, group_id=w.g1.id)) == (
        "NOT_FOUND", "userId", "membership not found",
    )  # fmt: skip
    assert await refusal(t.membership_remove(w.uow, w.org_admin, user_id=member.id, group_id=default.id)) == (
        "DEFAULT_GROUP_PROTECTED", "groupId", "everyone in an organisation stays in its Default group",
    )  # fmt: skip
    assert await refusal(t.membership_remove(w.uow, w.group_admin, user_id=gadmin.id, group_id=w.g1.id)) == (
        "PERMISSION_DENIED", None, "only an org admin may remove a group admin",
    )  # fmt: skip
    assert await refusal(t.membership_remove(w.uow, w.guest, user_id=gadmin.id, group_id=w.g1.id)) == (
        "PERMISSION_DENIED", None, "only an admin of this group may do this",
    )  # fmt: skip
    await t.membership_remove(w.uow, w.org_admin, user_id=gadmin.id, group_id=w.g1.id)
    assert (gadmin.id, w.g1.id) not in w.state.memberships
    # a removed membership that was not the active group leaves the active group alone
    assert w.state.users[gadmin.id].active_group_id == default.id


async def test_the_active_group_must_be_one_of_the_actors_groups(w: World) -> None:
    assert await refusal(t.active_group_set(w.uow, w.member, w.g2.id)) == ("NOT_FOUND", "groupId", "group not found")
    assert await refusal(t.active_group_set(w.uow, w.read_only(w.member), w.g1.id)) == (
        "PERMISSION_DENIED", None, "this token is read-only",
    )  # fmt: skip
    user = await t.active_group_set(w.uow, w.member, w.g1.id)
    assert user.active_group_id == w.g1.id
    actor = w.member
    del w.state.users[w.users["member"].id]
    assert await refusal(t.active_group_set(w.uow, actor, w.g1.id)) == ("NOT_FOUND", "id", "user not found")


async def test_an_actor_is_loaded_with_every_scope_it_holds(w: World) -> None:
    actor = await t.load_actor(w.uow, w.users["gadmin"].id, read_only=True)
    assert actor is not None
    default = await w.uow.tenancy.get_default_group(w.org_a.id)
    assert default is not None
    assert actor.group_roles == {default.id: Role.MEMBER, w.g1.id: Role.GROUP_ADMIN}
    assert actor.group_orgs == {default.id: w.org_a.id, w.g1.id: w.org_a.id}
    assert (actor.username, actor.is_super_admin, actor.read_only, actor.active_group_id) == (
        "gadmin", False, True, w.g1.id,  # created into g1: active there
    )  # fmt: skip
    admin = await t.load_actor(w.uow, w.users["orgadmin"].id)
    assert admin is not None and admin.org_admin_of == frozenset({w.org_a.id}) and admin.read_only is False
    assert await t.load_actor(w.uow, UUID(int=77)) is None
