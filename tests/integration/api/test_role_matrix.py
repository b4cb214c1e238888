"""Role × operation × own/foreign scope, through the GraphQL API on real PostgreSQL.

Roles: super_admin; org_admin of A; group_admin, member and guest of group G1 in A;
foreign_admin (org_admin of B) and foreign_member (member of H in B). Outcomes: "ok", an
error code, or for reads "visible"/"hidden" (hidden answers exactly like a missing id)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from domain.catalog import services as catalog
from domain.catalog.model import ImageScope
from tests.support.api import SYSTEM, Gql, World, gid, make_user, unique

ROLES = ["super_admin", "org_admin", "group_admin", "member", "guest", "foreign_admin", "foreign_member"]
Op = Callable[[Gql, World, dict[str, Any]], Awaitable[str]]


async def mutation(gql: Gql, name: str, input_type: str, payload_field: str, input: dict[str, Any]) -> str:
    q = f"mutation($input: {input_type}!) {{ {name}(input: $input) {{ {payload_field} errors {{ code field }} }} }}"
    data = await gql(q, input=input)
    errors = data[name]["errors"]
    return errors[0]["code"] if errors else "ok"


async def node_visible(gql: Gql, node_id: str) -> str:
    data = await gql("query($id: ID!) { node(id: $id) { id } }", id=node_id)
    return "visible" if data["node"] else "hidden"


OPS: dict[str, Op] = {
    "organizationCreate": lambda g, w, x: mutation(
        g, "organizationCreate", "OrganizationCreateInput", "organization { id }", {"name": unique("Org")}
    ),
    "organizationUpdate(A)": lambda g, w, x: mutation(
        g,
        "organizationUpdate",
        "OrganizationUpdateInput",
        "organization { id }",
        {"id": gid("Organization", w.org_a), "description": unique("d")},
    ),
    "groupCreate(A)": lambda g, w, x: mutation(
        g,
        "groupCreate",
        "GroupCreateInput",
        "group { id }",
        {"organizationId": gid("Organization", w.org_a), "name": unique("grp")},
    ),
    "groupUpdate(G1)": lambda g, w, x: mutation(
        g, "groupUpdate", "GroupUpdateInput", "group { id }", {"id": gid("Group", w.g1), "description": unique("d")}
    ),
    "groupUpdate(G2)": lambda g, w, x: mutation(
        g, "groupUpdate", "GroupUpdateInput", "group { id }", {"id": gid("Group", w.g2), "description": unique("d")}
    ),
    "userCreate(A)": lambda g, w, x: mutation(
        g,
        "userCreate",
        "UserCreateInput",
        "user { id }",
        {"organizationId": gid("Organization", w.org_a), "username": (n := unique("u")), "email": f"{n}@example.org"},
    ),
    "membershipSet(G1,member)": lambda g, w, x: mutation(
        g,
        "membershipSet",
        "MembershipSetInput",
        "membership { role }",
        {"userId": gid("User", x["target"]), "groupId": gid("Group", w.g1), "role": "MEMBER"},
    ),
    "membershipSet(G1,group_admin)": lambda g, w, x: mutation(
        g,
        "membershipSet",
        "MembershipSetInput",
        "membership { role }",
        {"userId": gid("User", x["target2"]), "groupId": gid("Group", w.g1), "role": "GROUP_ADMIN"},
    ),
    "read org A": lambda g, w, x: node_visible(g, gid("Organization", w.org_a)),
    "read org B": lambda g, w, x: node_visible(g, gid("Organization", w.org_b)),
    "read group G1": lambda g, w, x: node_visible(g, gid("Group", w.g1)),
    "read user in A": lambda g, w, x: node_visible(g, gid("User", x["target"])),
    "offeringCreate": lambda g, w, x: mutation(
        g,
        "offeringCreate",
        "OfferingCreateInput",
        "offering { id }",
        {"vendor": "NVIDIA", "name": unique("L40S"), "vramMib": 46068, "minCuda": "12.0", "hourlyRateMicro": 3_000_000},
    ),
    "presetCreate": lambda g, w, x: mutation(
        g,
        "presetCreate",
        "PresetCreateInput",
        "preset { id }",
        {"name": unique("p"), "cpuMillicores": 1000, "memoryMib": 2048, "tier": "M"},
    ),
    "registryCreate(global)": lambda g, w, x: mutation(
        g, "registryCreate", "RegistryCreateInput", "registry { id }", {"name": unique("reg"), "url": "ghcr.io"}
    ),
    "registryCreate(A)": lambda g, w, x: mutation(
        g,
        "registryCreate",
        "RegistryCreateInput",
        "registry { id }",
        {"name": unique("reg"), "url": "harbor.a.example.org", "organizationId": gid("Organization", w.org_a)},
    ),
    "imageCreate(personal)": lambda g, w, x: mutation(
        g,
        "imageCreate",
        "ImageCreateInput",
        "image { id }",
        {"name": unique("img"), "reference": "docker.io/library/python:3.12", "scope": "PERSONAL"},
    ),
    "imageCreate(A)": lambda g, w, x: mutation(
        g,
        "imageCreate",
        "ImageCreateInput",
        "image { id }",
        {
            "name": unique("img"),
            "reference": "nvcr.io/nvidia/pytorch:24.05-py3",
            "cudaVersion": "12.4",
            "scope": "ORGANIZATION",
            "organizationId": gid("Organization", w.org_a),
        },
    ),
    "read member's personal image": lambda g, w, x: node_visible(g, gid("Image", x["personal_image"])),
    "list offerings": lambda g, w, x: _list_offerings(g),
    "read audit entry of G1": lambda g, w, x: node_visible(g, x["audit_g1"]),
    "auditLog shows G1 entry": lambda g, w, x: _audit_lists(g, x["audit_g1"]),
}

OK, PD, NF = "ok", "PERMISSION_DENIED", "NOT_FOUND"
V, H = "visible", "hidden"
#                                   super  orgA  gadm  member guest  f_adm  f_mem
EXPECTED: dict[str, list[str]] = {
    "organizationCreate": [OK, PD, PD, PD, PD, PD, PD],
    "organizationUpdate(A)": [OK, OK, PD, PD, PD, NF, NF],
    "groupCreate(A)": [OK, OK, PD, PD, PD, NF, NF],
    "groupUpdate(G1)": [OK, OK, OK, PD, PD, NF, NF],
    "groupUpdate(G2)": [OK, OK, NF, NF, NF, NF, NF],
    "userCreate(A)": [OK, OK, PD, PD, PD, NF, NF],
    "membershipSet(G1,member)": [OK, OK, OK, PD, PD, NF, NF],
    "membershipSet(G1,group_admin)": [OK, OK, PD, PD, PD, NF, NF],
    "read org A": [V, V, V, V, V, H, H],
    "read org B": [V, H, H, H, H, V, V],
    "read group G1": [V, V, V, V, V, H, H],
    "read user in A": [V, V, V, V, V, H, H],
    "offeringCreate": [OK, PD, PD, PD, PD, PD, PD],
    "presetCreate": [OK, PD, PD, PD, PD, PD, PD],
    "registryCreate(global)": [OK, PD, PD, PD, PD, PD, PD],
    "registryCreate(A)": [OK, OK, PD, PD, PD, NF, NF],
    "imageCreate(personal)": [OK, OK, OK, OK, PD, OK, OK],
    "imageCreate(A)": [OK, OK, PD, PD, PD, NF, NF],
    "read member's personal image": [V, H, H, V, H, H, H],
    "list offerings": [OK, OK, OK, OK, OK, OK, OK],
    "read audit entry of G1": [V, V, V, H, H, H, H],
    "auditLog shows G1 entry": [V, V, V, H, H, H, H],
}


async def _list_offerings(g: Gql) -> str:
    data = await g("{ offerings { totalCount } }")
    return "ok" if data["offerings"]["totalCount"] >= 0 else "broken"


async def _audit_lists(g: Gql, entry_gid: str) -> str:
    data = await g('{ auditLog(first: 200, filter: {operation: "groupUpdate"}) { nodes { id } } }')
    return "visible" if any(n["id"] == entry_gid for n in data["auditLog"]["nodes"]) else "hidden"


@dataclass
class Case:
    """One case's own state: a new world (organisations, groups, a user per role) and the
    objects the operations act on, so no case's verdict depends on what another one did."""

    world: World
    extras: dict[str, Any]


@pytest.fixture
async def case(container: Any, app: Any, fresh_world: World) -> Case:
    import httpx

    c, world = container, fresh_world
    target, _ = await make_user(c, world.org_a, unique("target"))
    target2, _ = await make_user(c, world.org_a, unique("target"))
    async with c.uow() as uow:
        from domain.tenancy.services import load_actor

        member = await load_actor(uow, world.users["member"])
        assert member is not None
        image = await catalog.image_create(
            uow,
            member,
            c.ids,
            c.clock,
            name=unique("mine"),
            reference="docker.io/library/ubuntu:24.04",
            cuda_version=None,
            scope=ImageScope.PERSONAL,
        )
        await uow.commit()
    # an audited change in group G1, made by the super admin through the API
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        gql = Gql(client, world.tokens["super_admin"])
        await gql(
            "mutation($i: GroupUpdateInput!) { groupUpdate(input: $i) { errors { code } } }",
            i={"id": gid("Group", world.g1), "description": "audited"},
        )
        data = await gql('{ auditLog(first: 1, filter: {operation: "groupUpdate"}) { nodes { id targetId } } }')
    entry = data["auditLog"]["nodes"][0]
    assert entry["targetId"] == str(world.g1)
    assert SYSTEM.is_super_admin
    return Case(world, {"target": target, "target2": target2, "personal_image": image.id, "audit_g1": entry["id"]})


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("op", list(OPS))
async def test_role_matrix(op: str, role: str, http: Any, case: Case) -> None:
    gql = Gql(http, case.world.tokens[role])
    outcome = await OPS[op](gql, case.world, case.extras)
    assert outcome == EXPECTED[op][ROLES.index(role)], f"{role} × {op}"


async def test_a_cases_targets_start_as_plain_users_of_org_a(container: Any, case: Case) -> None:
    """What the membership cases rely on: the users they change hold no role in G1 yet (a
    group admin's appointment must be refused by the appointment rule itself, not by the
    guard on changing an existing group admin)."""
    async with container.uow() as uow:
        for key in ("target", "target2"):
            assert await uow.tenancy.get_membership(case.extras[key], case.world.g1) is None


async def test_every_operation_has_an_expectation_for_every_role() -> None:
    assert set(OPS) == set(EXPECTED)
    assert all(len(v) == len(ROLES) for v in EXPECTED.values())


async def test_lookup_of_invisible_object_answers_like_a_missing_one(http: Any, world: World) -> None:
    import uuid

    gql = Gql(http, world.tokens["foreign_admin"])
    missing = await gql("query($id: ID!) { node(id: $id) { id } }", id=gid("Group", uuid.uuid4()))
    hidden = await gql("query($id: ID!) { node(id: $id) { id } }", id=gid("Group", world.g1))
    assert missing == hidden == {"node": None}
    m1 = await mutation(
        gql, "groupUpdate", "GroupUpdateInput", "group { id }", {"id": gid("Group", uuid.uuid4()), "name": "x"}
    )
    m2 = await mutation(
        gql, "groupUpdate", "GroupUpdateInput", "group { id }", {"id": gid("Group", world.g1), "name": "x"}
    )
    assert m1 == m2 == "NOT_FOUND"


async def test_read_only_token_may_query_but_not_mutate(http: Any, container: Any, world: World) -> None:
    from domain.tenancy.auth import TokenScope

    _, token = await make_user(container, world.org_a, unique("ro"), scope=TokenScope.READ_ONLY)
    gql = Gql(http, token)
    assert (await gql("{ me { username } }"))["me"]["username"].startswith("ro-")
    outcome = await mutation(
        gql,
        "imageCreate",
        "ImageCreateInput",
        "image { id }",
        {"name": unique("img"), "reference": "docker.io/library/python:3.12"},
    )
    assert outcome == "PERMISSION_DENIED"
