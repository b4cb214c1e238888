"""Helpers for `Node` types: resolve global IDs through the domain's authorised getters, so a
lookup of an object the actor may not see answers exactly like a missing one (null)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar
from uuid import UUID

from api.context import Info
from domain.common.errors import DomainError
from domain.ports import UnitOfWork
from domain.tenancy.model import Actor

D = TypeVar("D")
T = TypeVar("T")


async def resolve_authorised(
    info: Info,
    node_ids: Iterable[str],
    get: Callable[[UnitOfWork, Actor, UUID], Awaitable[D]],
    wrap: Callable[[D], T],
) -> list[T | None]:
    actor = info.context.actor
    out: list[T | None] = []
    if actor is None:
        return [None for _ in node_ids]
    async with info.context.container.uow() as uow:
        for raw in node_ids:
            try:
                out.append(wrap(await get(uow, actor, UUID(raw))))
            except (DomainError, ValueError):
                out.append(None)
    return out


def node_type_name(cls: Any) -> str:
    return str(cls.__strawberry_definition__.name)
