"""An in-process GraphQL client over the real ASGI app (httpx ASGITransport) and helpers to
build a small world of organisations, groups and users through the domain use cases."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import httpx

from domain.tenancy import services as tenancy
from domain.tenancy.auth import TokenScope
from domain.tenancy.model import Actor, Role
from infra.bootstrap import Container


class GraphQLError(AssertionError):
    pass


@dataclass
class Gql:
    client: httpx.AsyncClient
    token: str | None = None

    async def raw(self, query: str, **variables: Any) -> dict[str, Any]:
        headers = {"authorization": f"Bearer {self.token}"} if self.token else {}
        r = await self.client.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    async def __call__(self, query: str, **variables: Any) -> dict[str, Any]:
        body = await self.raw(query, **variables)
        if body.get("errors"):
            raise GraphQLError(body["errors"])
        return body["data"]  # type: ignore[no-any-return]


def without_request_ids(body: dict[str, Any]) -> dict[str, Any]:
    """A GraphQL answer without its errors' `extensions.requestId` (unique to each request), to
    compare two answers for being the same."""
    errors = [
        {**e, "extensions": {k: v for k, v in (e.get("extensions") or {}).items() if k != "requestId"}}
        for e in body.get("errors") or []
    ]
    return {**body, "errors": errors} if "errors" in body else body


def gid(type_name: str, value: UUID) -> str:
    from strawberry import relay

    return str(relay.GlobalID(type_name, str(value)))


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


SYSTEM = Actor(user_id=uuid.UUID(int=0), username="test-system", is_super_admin=True)


@dataclass
class World:
    """Two organisations (A with groups G1, G2; B with group H) and a user per role."""

    org_a: UUID
    org_b: UUID
    default_a: UUID
    g1: UUID
    g2: UUID
    h: UUID
    users: dict[str, UUID] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)


async def make_user(
    c: Container,
    org: UUID,
    name: str,
    *,
    role: Role = Role.MEMBER,
    groups: list[UUID] | None = None,
    password: str | None = None,
    scope: TokenScope = TokenScope.READ_WRITE,
) -> tuple[UUID, str]:
    async with c.uow() as uow:
        user = await tenancy.user_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            c.hasher,
            organization_id=org,
            username=name,
            email=f"{name}@example.org",
            password=password,
            role=role,
            group_ids=groups or [],
        )
        actor = await tenancy.load_actor(uow, user.id)
        assert actor is not None
        _, secret = await tenancy.token_create(
            uow, actor, c.ids, c.clock, c.secrets, name="tests", scope=scope, expires_in_days=1
        )
        await uow.commit()
    return user.id, secret


async def build_world(c: Container) -> World:
    async with c.uow() as uow:
        a = await tenancy.organization_create(uow, SYSTEM, c.ids, c.clock, name=unique("Org A"))
        b = await tenancy.organization_create(uow, SYSTEM, c.ids, c.clock, name=unique("Org B"))
        g1 = await tenancy.group_create(uow, SYSTEM, c.ids, c.clock, organization_id=a.id, name="G1")
        g2 = await tenancy.group_create(uow, SYSTEM, c.ids, c.clock, organization_id=a.id, name="G2")
        h = await tenancy.group_create(uow, SYSTEM, c.ids, c.clock, organization_id=b.id, name="H")
        default_a = await uow.tenancy.get_default_group(a.id)
        assert default_a is not None
        await uow.commit()
    w = World(a.id, b.id, default_a.id, g1.id, g2.id, h.id)
    specs = {
        "super_admin": (a.id, Role.MEMBER, []),
        "org_admin": (a.id, Role.MEMBER, []),
        "group_admin": (a.id, Role.GROUP_ADMIN, [g1.id]),
        "member": (a.id, Role.MEMBER, [g1.id]),
        "guest": (a.id, Role.GUEST, [g1.id]),
        "foreign_admin": (b.id, Role.MEMBER, []),
        "foreign_member": (b.id, Role.MEMBER, [h.id]),
    }
    for role, (org, r, groups) in specs.items():
        uid, token = await make_user(c, org, unique(role.replace("_", "")), role=r, groups=groups)
        w.users[role], w.tokens[role] = uid, token
    async with c.uow() as uow:
        await tenancy.super_admin_set(uow, SYSTEM, w.users["super_admin"], True)
        await tenancy.org_admin_set(uow, SYSTEM, w.users["org_admin"], a.id, True)
        await tenancy.org_admin_set(uow, SYSTEM, w.users["foreign_admin"], b.id, True)
        await uow.commit()
    return w


async def fund_user(c: Container, org: UUID, group: UUID, user: UUID, credits_: int) -> None:
    """Move credits system → organisation → group → user as a super admin would."""
    from domain.common.money import MICRO_PER_CREDIT
    from domain.credits import services as credits
    from domain.credits.model import AccountRef

    amount = credits_ * MICRO_PER_CREDIT
    key = uuid.uuid4().hex
    for i, (src, dst) in enumerate(
        [
            (AccountRef.system(), AccountRef.organization(org)),
            (AccountRef.organization(org), AccountRef.group(group)),
            (AccountRef.group(group), AccountRef.user(user)),
        ]
    ):
        await credits.allocate(
            SYSTEM,
            c.credits.ledger,
            c.credits.directory,
            c.clock,
            c.ids,
            source=src,
            destination=dst,
            amount_micro=amount,
            idempotency_key=f"fund-{key}-{i}",
        )


async def add_simulated_cluster(
    c: Container, cluster_id: str, nodes: tuple[Any, ...], start_delay: float = 0.1, job_seconds: float = 30.0
) -> Any:
    """Register one more simulated cluster (its nodes in the database, its adapter in the
    registry) whose status reports reach the session use cases, as the runtime does."""
    from domain.inventory.model import Cluster, Inventory
    from domain.sessions import services as sessions
    from infra.cluster.simulated import SimulatedCluster
    from infra.runtime import register_cluster_inventory

    async def on_status(report: Any) -> None:
        await sessions.handle_status_report(c.sessions, cluster_id, report)

    cluster = SimulatedCluster(
        Inventory((Cluster(cluster_id, f"{cluster_id} cluster"),), nodes),
        on_status,
        start_delay=start_delay,
        job_seconds=job_seconds,
    )
    await register_cluster_inventory(c, cluster, kind="simulated")
    c.clusters.add(cluster)
    return cluster


async def add_gpu_catalog(
    c: Container, model: str, vram_mib: int, rate_micro: int, *, preset: dict[str, Any]
) -> dict[str, Any]:
    """An offering for `model`, a preset and a CUDA 12.4 image, created as a super admin."""
    from domain.catalog import services as catalog
    from domain.catalog.model import ImageScope

    async with c.uow() as uow:
        offering = await catalog.offering_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            vendor="NVIDIA",
            name=model,
            vram_mib=vram_mib,
            min_cuda="11.0",
            hourly_rate_micro=rate_micro,
        )
        made = await catalog.preset_create(
            uow, SYSTEM, c.ids, c.clock, name=unique("preset"), disk_gib=10, shm_mib=128, **preset
        )
        image = await catalog.image_create(
            uow,
            SYSTEM,
            c.ids,
            c.clock,
            name=unique("img"),
            reference="nvcr.io/nvidia/cuda:12.4.0-base",
            cuda_version="12.4",
            scope=ImageScope.GLOBAL,
        )
        await uow.commit()
    return {"offering": offering, "preset": made, "image": image}
