"""DataLoaders, built per request (`<Thing>By<Key>Loader`). Each batch is one query in a
short unit of work. Loaders fetch by key only; resolvers decide what the actor may see."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar
from uuid import UUID

from strawberry.dataloader import DataLoader

from domain.catalog.model import Offering, Registry
from domain.ports import UnitOfWork
from domain.tenancy.model import Group, Membership, Organization, User
from domain.volumes.model import Template, Volume
from infra.db.uow import SqlUnitOfWorkFactory

K = TypeVar("K")
TEMPLATES_PER_BATCH = 10_000
V = TypeVar("V")


def _by_id(
    uow_factory: SqlUnitOfWorkFactory, fetch: Callable[[UnitOfWork, list[UUID]], Awaitable[Sequence[V]]]
) -> DataLoader[UUID, V | None]:
    async def load(keys: list[UUID]) -> list[V | None]:
        async with uow_factory() as uow:
            found = {getattr(v, "id"): v for v in await fetch(uow, list(keys))}  # noqa: B009
        return [found.get(k) for k in keys]

    return DataLoader(load_fn=load)


@dataclass
class Loaders:
    organization_by_id: DataLoader[UUID, Organization | None]
    group_by_id: DataLoader[UUID, Group | None]
    user_by_id: DataLoader[UUID, User | None]
    memberships_by_user: DataLoader[UUID, list[Membership]]
    offering_by_id: DataLoader[UUID, Offering | None]
    registry_by_id: DataLoader[UUID, Registry | None]
    volume_by_id: DataLoader[UUID, Volume | None]
    # keyed by (group id, template id): templates are read per group (a template belongs to one)
    template_by_group_and_id: DataLoader[tuple[UUID, UUID], Template | None]


def build_loaders(uow_factory: SqlUnitOfWorkFactory) -> Loaders:
    async def memberships(keys: list[UUID]) -> list[list[Membership]]:
        async with uow_factory() as uow:
            found = await uow.tenancy.memberships_of_users(list(keys))
        return [found.get(k, []) for k in keys]

    async def volumes(keys: list[UUID]) -> list[Volume | None]:
        async with uow_factory() as uow:
            found = {v.id: v for v in await uow.volumes.get_many(list(keys))}
        return [found.get(k) for k in keys]

    async def templates(keys: list[tuple[UUID, UUID]]) -> list[Template | None]:
        groups = frozenset(g for g, _ in keys)
        async with uow_factory() as uow:
            found, _ = await uow.templates.of_groups(groups, 0, TEMPLATES_PER_BATCH)
        by_id = {(t.group_id, t.id): t for t in found}
        return [by_id.get(k) for k in keys]

    return Loaders(
        organization_by_id=_by_id(uow_factory, lambda u, ids: u.tenancy.get_organizations(ids)),
        group_by_id=_by_id(uow_factory, lambda u, ids: u.tenancy.get_groups(ids)),
        user_by_id=_by_id(uow_factory, lambda u, ids: u.tenancy.get_users(ids)),
        memberships_by_user=DataLoader(load_fn=memberships),
        offering_by_id=_by_id(uow_factory, lambda u, ids: u.catalog.get_offerings(ids)),
        registry_by_id=_by_id(uow_factory, lambda u, ids: u.catalog.get_registries(ids)),
        volume_by_id=DataLoader(load_fn=volumes),
        template_by_group_and_id=DataLoader(load_fn=templates),
    )
