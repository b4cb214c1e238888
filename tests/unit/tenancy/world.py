"""A small tenancy world on in-memory repositories, built through the use cases: Acme (groups
G1, G2) and Beta (group H), a user per role, and deterministic ids, clock and secrets."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from domain.common.clock import FrozenClock
from domain.common.errors import DomainError, ValidationErrors
from domain.tenancy import services as t
from domain.tenancy.model import Actor, Group, Organization, Role, User
from tests.support.memory import InMemoryUnitOfWork, TenancyState

NOW = datetime(2026, 2, 1, tzinfo=UTC)


class Ids:
    def __init__(self) -> None:
        self.n = 1000

    def new_id(self) -> UUID:
        self.n += 1
        return UUID(int=self.n)


class Hasher:
    """Deterministic stand-in for argon2; records every hash (the timing-equaliser too)."""

    def __init__(self) -> None:
        self.hashed: list[str] = []

    async def hash(self, password: str) -> str:
        self.hashed.append(password)
        return f"hashed:{password}"

    async def verify(self, password: str, hashed: str) -> bool:
        return hashed == f"hashed:{password}"


class Secrets:
    def __init__(self) -> None:
        self.n = 0
        self.asked: list[int] = []

    def token(self, nbytes: int = 32) -> str:
        self.n += 1
        self.asked.append(nbytes)
        return f"s{self.n:03d}" + "x" * 40


ROOT = Actor(UUID(int=1), "root", is_super_admin=True)


@dataclass
class World:
    uow: InMemoryUnitOfWork
    ids: Ids
    clock: FrozenClock
    hasher: Hasher
    secrets: Secrets
    org_a: Organization
    org_b: Organization
    g1: Group
    g2: Group
    h: Group
    users: dict[str, User] = field(default_factory=dict)

    @property
    def state(self) -> TenancyState:
        return self.uow.state

    root = ROOT

    @classmethod
    async def build(cls, uow: InMemoryUnitOfWork | None = None) -> World:
        uow, ids, clock, hasher = uow or InMemoryUnitOfWork(), Ids(), FrozenClock(NOW), Hasher()
        a = await t.organization_create(uow, ROOT, ids, clock, name="Acme")
        b = await t.organization_create(uow, ROOT, ids, clock, name="Beta")
        g1 = await t.group_create(uow, ROOT, ids, clock, organization_id=a.id, name="G1")
        g2 = await t.group_create(uow, ROOT, ids, clock, organization_id=a.id, name="G2")
        h = await t.group_create(uow, ROOT, ids, clock, organization_id=b.id, name="H")
        w = cls(uow, ids, clock, hasher, Secrets(), a, b, g1, g2, h)
        for name, org, role, groups in [
            ("orgadmin", a, Role.MEMBER, []),
            ("gadmin", a, Role.GROUP_ADMIN, [g1.id]),
            ("member", a, Role.MEMBER, [g1.id]),
            ("guest", a, Role.GUEST, [g1.id]),
            ("bmember", b, Role.MEMBER, [h.id]),
        ]:
            w.users[name] = await t.user_create(
                uow, ROOT, ids, clock, hasher, organization_id=org.id, username=name,
                email=f"{name}@example.org", password=f"{name}-password", role=role, group_ids=groups,
            )  # fmt: skip
        await t.org_admin_set(uow, ROOT, w.users["orgadmin"].id, a.id, True)
        uow.published.clear()
        uow._pending.clear()
        hasher.hashed.clear()
        return w

    async def actor(self, name: str) -> Actor:
        found = await t.load_actor(self.uow, self.users[name].id)
        assert found is not None
        return found

    @property
    def org_admin(self) -> Actor:
        return self._sync_actor("orgadmin")

    @property
    def group_admin(self) -> Actor:
        return self._sync_actor("gadmin")

    @property
    def member(self) -> Actor:
        return self._sync_actor("member")

    @property
    def guest(self) -> Actor:
        return self._sync_actor("guest")

    @property
    def foreign(self) -> Actor:
        return self._sync_actor("bmember")

    def _sync_actor(self, name: str) -> Actor:
        u = self.state.users[self.users[name].id]
        ms = [m for m in self.state.memberships.values() if m.user_id == u.id]
        return Actor(
            u.id,
            u.username,
            is_super_admin=u.is_super_admin,
            org_admin_of=frozenset(o for uid, o in self.state.admins if uid == u.id),
            group_roles={m.group_id: m.role for m in ms},
            group_orgs={m.group_id: m.organization_id for m in ms},
            active_group_id=u.active_group_id,
        )

    @staticmethod
    def read_only(actor: Actor) -> Actor:
        return replace(actor, read_only=True)


async def refusal(call: Awaitable[Any], *, errors: bool = False) -> Any:
    """The refusal a use case answers: (code, field, message), or for several field errors at
    once [(code, field), ...]."""
    try:
        await call
    except ValidationErrors as err:
        if errors:
            return [(e.code.value, e.field) for e in err.errors]
        raise
    except DomainError as err:
        return (err.code.value, err.field, err.message)
    raise AssertionError("the call was not refused")
