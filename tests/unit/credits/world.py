"""A small tenancy world (org → two groups → users) with actors, for credits/policies tests."""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar
from uuid import UUID, uuid4

from domain.common.clock import FrozenClock, UuidGenerator
from domain.policies.model import ScopeChain
from domain.tenancy.model import Actor, Role
from infra.credits.memory import InMemoryDirectory

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Drive a coroutine that never really suspends (in-memory adapters) to completion."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    coro.close()
    raise RuntimeError("coroutine suspended; use an event loop")


@dataclass
class World:
    org: UUID = field(default_factory=uuid4)
    other_org: UUID = field(default_factory=uuid4)
    group: UUID = field(default_factory=uuid4)  # "ML-Lab", in org
    other_group: UUID = field(default_factory=uuid4)  # in org
    foreign_group: UUID = field(default_factory=uuid4)  # in other_org
    admin_user: UUID = field(default_factory=uuid4)  # group_admin of group
    alice: UUID = field(default_factory=uuid4)  # member of group
    bob: UUID = field(default_factory=uuid4)  # member of group
    carol: UUID = field(default_factory=uuid4)  # member of other_group
    root_user: UUID = field(default_factory=uuid4)  # super_admin
    org_admin_user: UUID = field(default_factory=uuid4)  # org_admin of org
    clock: FrozenClock = field(default_factory=FrozenClock)
    ids: UuidGenerator = field(default_factory=UuidGenerator)
    directory: InMemoryDirectory = field(default_factory=InMemoryDirectory)

    def __post_init__(self) -> None:
        d = self.directory
        d.add_group(self.group, self.org)
        d.add_group(self.other_group, self.org)
        d.add_group(self.foreign_group, self.other_org)
        for user in (self.admin_user, self.alice, self.bob):
            d.add_member(self.group, user)
        d.add_member(self.other_group, self.carol)

    @property
    def super_admin(self) -> Actor:
        return Actor(self.root_user, "root", is_super_admin=True)

    @property
    def org_admin(self) -> Actor:
        return Actor(self.org_admin_user, "orgadmin", org_admin_of=frozenset({self.org}))

    @property
    def group_admin(self) -> Actor:
        return Actor(
            self.admin_user,
            "gadmin",
            group_roles={self.group: Role.GROUP_ADMIN},
            group_orgs={self.group: self.org},
        )

    def member(self, user: UUID | None = None, group: UUID | None = None) -> Actor:
        user, group = user or self.alice, group or self.group
        org = self.directory.group_orgs[group]
        return Actor(user, "member", group_roles={group: Role.MEMBER}, group_orgs={group: org})

    def chain(self, user: UUID | None = None) -> ScopeChain:
        return ScopeChain(user or self.alice, self.group, self.org, "alice", "ML-Lab", "Acme")
