"""Tenancy rules at their edges: a blank new name refused on the name field, a group created
without a description, the active group saved, a token for one day and its 32 random bytes
(kills mutmut's survivors of domain/tenancy, issue 20)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.tenancy import services as t
from domain.tenancy.auth import TokenScope
from domain.tenancy.model import Role
from tests.unit.tenancy.world import NOW, World, refusal


@pytest.fixture
async def w() -> World:
    return await World.build()


async def test_a_blank_new_name_is_refused_on_the_name_field(w: World) -> None:
    assert await refusal(t.organization_update(w.uow, w.root, w.org_a.id, name="  ")) == (
        "INVALID_VALUE", "name", "name must not be empty",
    )  # fmt: skip
    assert await refusal(t.group_update(w.uow, w.root, w.g1.id, name="")) == (
        "INVALID_VALUE", "name", "name must not be empty",
    )  # fmt: skip


async def test_a_group_created_without_a_description_has_none(w: World) -> None:
    g = await t.group_create(w.uow, w.root, w.ids, w.clock, organization_id=w.org_a.id, name="G9")
    assert g.description == ""


async def test_the_active_group_is_saved(w: World) -> None:
    await t.membership_set(w.uow, w.root, user_id=w.users["member"].id, group_id=w.g2.id, role=Role.MEMBER)
    actor = await w.actor("member")
    assert actor.active_group_id != w.g2.id
    user = await t.active_group_set(w.uow, actor, w.g2.id)
    assert user.active_group_id == w.g2.id
    assert w.state.users[user.id].active_group_id == w.g2.id


async def test_a_token_may_live_one_day_and_takes_32_random_bytes(w: World) -> None:
    actor = await w.actor("member")
    token, secret = await t.token_create(
        w.uow, actor, w.ids, w.clock, w.secrets, name="ci", scope=TokenScope.READ_ONLY, expires_in_days=1
    )
    assert token.expires_at == NOW + timedelta(days=1)
    assert w.secrets.asked == [32] and secret.endswith("x" * 40)


async def test_a_loaded_actor_carries_the_organisations_it_administers(w: World) -> None:
    admin = await w.actor("orgadmin")
    assert admin.org_admin_of == frozenset({w.org_a.id}) and admin.is_org_admin(w.org_a.id)
    assert (await w.actor("member")).org_admin_of == frozenset()


async def test_an_org_admin_outside_every_group_lists_all_groups_of_the_organisation(w: World) -> None:
    from dataclasses import replace

    admin = replace(await w.actor("orgadmin"), group_roles={}, group_orgs={}, active_group_id=None)
    everything, _ = await t.groups_list(w.uow, w.root, t.Page(), w.org_a.id)
    mine, total = await t.groups_list(w.uow, admin, t.Page())
    assert sorted(g.name for g in mine) == sorted(g.name for g in everything) and total == len(everything) >= 2


async def test_a_user_keeping_their_own_email_is_not_refused_as_a_duplicate(w: World) -> None:
    member = w.state.users[w.users["member"].id]
    kept = await t.user_update(w.uow, w.root, member.id, email=member.email)
    assert kept.email == member.email
    assert await refusal(t.user_update(w.uow, w.root, member.id, email="gadmin@example.org")) == (
        "DUPLICATE", "email", "a user with this email already exists",
    )  # fmt: skip


async def test_user_lists_are_searched_and_bounded_to_what_the_actor_administers(w: World) -> None:
    admin = await w.actor("orgadmin")

    async def names(actor: object, **kw: object) -> list[str]:
        users, _ = await t.users_list(w.uow, actor, t.Page(), **kw)  # type: ignore[arg-type]
        return sorted(u.username for u in users)

    everyone = await names(admin)
    assert {"member", "gadmin", "guest", "orgadmin"} <= set(everyone) and "bmember" not in everyone
    assert await names(admin, search="gadmin") == ["gadmin", "orgadmin"]  # a match anywhere in the name
    assert await names(admin, group_id=w.g1.id, search="guest") == ["guest"]
    assert await names(admin, search="guest") == ["guest"]
    assert await names(w.root, group_id=w.g1.id, search="guest") == ["guest"]


async def test_a_loaded_actor_carries_its_super_admin_flag(w: World) -> None:
    from dataclasses import replace

    uid = w.users["member"].id
    w.state.users[uid] = replace(w.state.users[uid], is_super_admin=True)
    assert (await w.actor("member")).is_super_admin
    assert not (await w.actor("gadmin")).is_super_admin
