"""Tenancy use cases on in-memory repositories: organisations and groups — who may create,
read, change and delete them, with the exact refusal of each case, and nothing written when
refused."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.common.errors import DomainError
from domain.tenancy import services as t
from domain.tenancy.model import Group, Organization, Role
from domain.tenancy.services import Page
from tests.unit.tenancy.world import NOW, World, refusal


@pytest.fixture
async def w() -> World:
    return await World.build()


async def test_an_organisation_is_created_with_its_default_group(w: World) -> None:
    org = await t.organization_create(w.uow, w.root, w.ids, w.clock, name="  Deep   Learning ", description=" d ")
    assert org == Organization(org.id, "Deep Learning", "deep-learning", NOW, "d")
    default = await w.uow.tenancy.get_default_group(org.id)
    assert default == Group(default.id, org.id, "Default", NOW, "Everyone in the organisation", True)
    own = await t.organization_create(w.uow, w.root, w.ids, w.clock, name="Vision", slug=" VIS-1 ")
    assert own.slug == "vis-1" and own.description == ""
    assert (await t.organization_create(w.uow, w.root, w.ids, w.clock, name="!!!")).slug == "org"


async def test_organisation_create_refusals(w: World) -> None:
    before = len(w.state.orgs), len(w.state.groups)
    assert await refusal(t.organization_create(w.uow, w.org_admin, w.ids, w.clock, name="X")) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    assert await refusal(t.organization_create(w.uow, w.root, w.ids, w.clock, name="acme")) == (
        "DUPLICATE", "name", "an organisation with this name already exists",
    )  # fmt: skip
    assert await refusal(t.organization_create(w.uow, w.root, w.ids, w.clock, name="Other", slug="acme")) == (
        "DUPLICATE", "slug", "an organisation with this slug already exists",
    )  # fmt: skip
    both = await refusal(t.organization_create(w.uow, w.root, w.ids, w.clock, name=" ", slug="-bad"), errors=True)
    assert both == [("INVALID_VALUE", "name"), ("INVALID_VALUE", "slug")]
    assert await refusal(t.organization_create(w.uow, w.root, w.ids, w.clock, name="")) == (
        "INVALID_VALUE", "name", "name must not be empty",
    )  # fmt: skip
    assert (len(w.state.orgs), len(w.state.groups)) == before


async def test_who_sees_which_organisations(w: World) -> None:
    assert await t.organization_get(w.uow, w.member, w.org_a.id) == w.org_a
    for actor in (w.member, w.org_admin, w.group_admin):
        assert await refusal(t.organization_get(w.uow, actor, w.org_b.id)) == (
            "NOT_FOUND", "id", "organization not found",
        )  # fmt: skip
    assert await refusal(t.organization_get(w.uow, w.root, UUID(int=1))) == (
        "NOT_FOUND",
        "id",
        "organization not found",
    )
    everything, total = await t.organizations_list(w.uow, w.root, Page())
    assert ([o.name for o in everything], total) == (["Acme", "Beta"], 2)
    mine, total = await t.organizations_list(w.uow, w.member, Page())
    assert ([o.name for o in mine], total) == (["Acme"], 1)
    page, total = await t.organizations_list(w.uow, w.root, Page(offset=-5, limit=1))
    assert ([o.name for o in page], total) == (["Acme"], 2)
    page, _ = await t.organizations_list(w.uow, w.root, Page(offset=1, limit=0))
    assert [o.name for o in page] == ["Beta"]


async def test_organisation_update(w: World) -> None:
    org = await t.organization_update(w.uow, w.org_admin, w.org_a.id, name=" Acme  Labs ", description=" new ")
    assert (org.name, org.description, org.slug) == ("Acme Labs", "new", "acme")
    assert w.state.orgs[w.org_a.id] == org
    same = await t.organization_update(w.uow, w.org_admin, w.org_a.id, description="only")
    assert (same.name, same.description) == ("Acme Labs", "only")
    assert await refusal(t.organization_update(w.uow, w.org_admin, w.org_a.id, name="BETA")) == (
        "DUPLICATE", "name", "an organisation with this name already exists",
    )  # fmt: skip
    assert await refusal(t.organization_update(w.uow, w.group_admin, w.org_a.id, name="Z")) == (
        "PERMISSION_DENIED", None, "only an admin of this organisation may do this",
    )  # fmt: skip
    assert await refusal(t.organization_update(w.uow, w.read_only(w.org_admin), w.org_a.id, name="Z")) == (
        "PERMISSION_DENIED", None, "this token is read-only",
    )  # fmt: skip
    assert await refusal(t.organization_update(w.uow, w.org_admin, w.org_b.id, name="Z")) == (
        "NOT_FOUND", "id", "organization not found",
    )  # fmt: skip
    assert w.state.orgs[w.org_a.id].name == "Acme Labs"


async def test_organisation_delete_only_when_empty_and_by_a_super_admin(w: World) -> None:
    empty = await t.organization_create(w.uow, w.root, w.ids, w.clock, name="Empty")
    assert await refusal(t.organization_delete(w.uow, w.org_admin, w.org_a.id)) == (
        "PERMISSION_DENIED", None, "only a super_admin may do this",
    )  # fmt: skip
    users = await w.uow.tenancy.count_organization_users(w.org_a.id)
    assert await refusal(t.organization_delete(w.uow, w.root, w.org_a.id)) == (
        "ORGANIZATION_NOT_EMPTY", "id", f"organisation Acme still has {users} user(s); remove them first",
    )  # fmt: skip
    assert await t.organization_delete(w.uow, w.root, empty.id) == empty
    assert empty.id not in w.state.orgs and await w.uow.tenancy.get_default_group(empty.id) is None


async def test_groups_are_created_by_org_admins_with_unique_names(w: World) -> None:
    g = await t.group_create(
        w.uow, w.org_admin, w.ids, w.clock, organization_id=w.org_a.id, name=" NLP ", description=" x "
    )
    assert g == Group(g.id, w.org_a.id, "NLP", NOW, "x", False)
    assert await refusal(
        t.group_create(w.uow, w.org_admin, w.ids, w.clock, organization_id=w.org_a.id, name="nlp")
    ) == ("DUPLICATE", "name", "organisation Acme already has a group named nlp")
    assert await refusal(
        t.group_create(w.uow, w.group_admin, w.ids, w.clock, organization_id=w.org_a.id, name="Z")
    ) == ("PERMISSION_DENIED", None, "only an admin of this organisation may do this")
    assert await refusal(t.group_create(w.uow, w.org_admin, w.ids, w.clock, organization_id=w.org_a.id, name="")) == (
        "INVALID_VALUE", "name", "name must not be empty",
    )  # fmt: skip
    # the same name in another organisation is fine
    other = await t.group_create(w.uow, w.root, w.ids, w.clock, organization_id=w.org_b.id, name="NLP")
    assert other.organization_id == w.org_b.id


async def test_who_sees_which_groups(w: World) -> None:
    assert await t.group_get(w.uow, w.member, w.g1.id) == w.g1
    assert await refusal(t.group_get(w.uow, w.member, w.g2.id)) == ("NOT_FOUND", "id", "group not found")
    assert await t.group_get(w.uow, w.org_admin, w.g2.id) == w.g2
    assert await refusal(t.group_get(w.uow, w.org_admin, w.h.id)) == ("NOT_FOUND", "id", "group not found")
    names = lambda gs: [g.name for g in gs]  # noqa: E731
    everything, total = await t.groups_list(w.uow, w.root, Page())
    assert (sorted(names(everything)), total) == (["Default", "Default", "G1", "G2", "H"], 5)
    in_a, total = await t.groups_list(w.uow, w.root, Page(), w.org_a.id)
    assert (names(in_a), total) == (["Default", "G1", "G2"], 3)
    admin_a, _ = await t.groups_list(w.uow, w.org_admin, Page(), w.org_a.id)
    assert names(admin_a) == ["Default", "G1", "G2"]
    admin_all, total = await t.groups_list(w.uow, w.org_admin, Page())
    assert (names(admin_all), total) == (["Default", "G1", "G2"], 3)
    member, total = await t.groups_list(w.uow, w.member, Page())
    assert (names(member), total) == (["Default", "G1"], 2)
    member_b, total = await t.groups_list(w.uow, w.member, Page(), w.org_b.id)
    assert (member_b, total) == ([], 0)
    one, total = await t.groups_list(w.uow, w.org_admin, Page(offset=1, limit=1), w.org_a.id)
    assert (names(one), total) == (["G1"], 3)


async def test_group_update_by_its_admins(w: World) -> None:
    g = await t.group_update(w.uow, w.group_admin, w.g1.id, name=" G-One ", description=" about ")
    assert (g.name, g.description) == ("G-One", "about") and w.state.groups[w.g1.id] == g
    assert (await t.group_update(w.uow, w.org_admin, w.g1.id, description="kept name")).name == "G-One"
    assert await refusal(t.group_update(w.uow, w.group_admin, w.g1.id, name="g2")) == (
        "DUPLICATE", "name", "this organisation already has a group named g2",
    )  # fmt: skip
    assert await refusal(t.group_update(w.uow, w.member, w.g1.id, name="x")) == (
        "PERMISSION_DENIED", None, "only an admin of this group may do this",
    )  # fmt: skip
    default = await w.uow.tenancy.get_default_group(w.org_a.id)
    assert default is not None
    assert await refusal(t.group_update(w.uow, w.org_admin, default.id, name="Everyone")) == (
        "DEFAULT_GROUP_PROTECTED", "name", "the Default group cannot be renamed",
    )  # fmt: skip
    kept = await t.group_update(w.uow, w.org_admin, default.id, name="Default", description="all of us")
    assert (kept.name, kept.description) == ("Default", "all of us")
    # renaming a group to its own name in another case is no clash with itself
    assert (await t.group_update(w.uow, w.org_admin, w.g1.id, name="g-one")).name == "g-one"


async def test_group_delete(w: World) -> None:
    empty = await t.group_create(w.uow, w.org_admin, w.ids, w.clock, organization_id=w.org_a.id, name="Empty")
    default = await w.uow.tenancy.get_default_group(w.org_a.id)
    assert default is not None
    assert await refusal(t.group_delete(w.uow, w.group_admin, empty.id)) == ("NOT_FOUND", "id", "group not found")
    assert await refusal(t.group_delete(w.uow, w.group_admin, w.g1.id)) == (
        "PERMISSION_DENIED", None, "only an admin of this organisation may do this",
    )  # fmt: skip
    assert await refusal(t.group_delete(w.uow, w.org_admin, default.id)) == (
        "DEFAULT_GROUP_PROTECTED", "id", "the Default group cannot be deleted",
    )  # fmt: skip
    members = await w.uow.tenancy.count_group_members(w.g1.id)
    assert members == 3
    assert await refusal(t.group_delete(w.uow, w.org_admin, w.g1.id)) == (
        "GROUP_NOT_EMPTY", "id", "group G1 still has 3 member(s)",
    )  # fmt: skip
    assert await t.group_delete(w.uow, w.org_admin, empty.id) == empty
    assert empty.id not in w.state.groups


async def test_memberships_of_a_group_are_listed_for_who_may_see_it(w: World) -> None:
    found, total = await t.memberships_of_group(w.uow, w.member, w.g1.id, Page(limit=2))
    assert total == 3 and [(m.user_id, m.role) for m in found] == [
        (w.users["gadmin"].id, Role.GROUP_ADMIN),
        (w.users["guest"].id, Role.GUEST),
    ]
    assert await refusal(t.memberships_of_group(w.uow, w.member, w.g2.id, Page())) == (
        "NOT_FOUND", "id", "group not found",
    )  # fmt: skip


async def test_a_page_is_clamped() -> None:
    assert Page(-1, 0).clamp() == Page(0, 1)
    assert Page(3, 10_000).clamp() == Page(3, t.MAX_PAGE)
    assert Page().clamp() == Page(0, 50)
    assert t.user_topic(UUID(int=5)) == "user:00000000-0000-0000-0000-000000000005"


def test_the_frozen_time_of_these_tests() -> None:
    assert datetime(2026, 2, 1, tzinfo=UTC) == NOW


async def test_a_refused_change_inside_a_unit_of_work_is_rolled_back(w: World) -> None:
    async with w.uow:
        await t.group_create(w.uow, w.org_admin, w.ids, w.clock, organization_id=w.org_a.id, name="Kept")
        await w.uow.commit()
    with pytest.raises(DomainError):
        async with w.uow:
            await t.group_create(w.uow, w.org_admin, w.ids, w.clock, organization_id=w.org_a.id, name="Gone")
            await t.group_create(w.uow, w.org_admin, w.ids, w.clock, organization_id=w.org_a.id, name="gone")
    assert sorted(g.name for g in w.state.groups.values() if g.organization_id == w.org_a.id) == [
        "Default", "G1", "G2", "Kept",
    ]  # fmt: skip
