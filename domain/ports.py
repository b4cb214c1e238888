"""The ports the core needs, as Protocols. Adapters live in infra/; use cases take these as
arguments. Each bounded context declares its repository Protocol in its own `ports.py`; this
module composes them into the unit of work and re-exports the cross-cutting ports."""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType
from typing import Any, Protocol

from domain.audit.model import AuditRepository
from domain.catalog.ports import CatalogRepository
from domain.common.clock import Clock, IdGenerator
from domain.tenancy.auth import PasswordHasher, SecretGenerator
from domain.tenancy.ports import CredentialRepository, TenancyRepository


class UnitOfWork(Protocol):
    """One transaction over every repository. Leaving the block without `commit()` rolls back.
    Events collected with `publish_after_commit` reach the EventBus only once committed."""

    @property
    def tenancy(self) -> TenancyRepository: ...

    @property
    def credentials(self) -> CredentialRepository: ...

    @property
    def catalog(self) -> CatalogRepository: ...

    @property
    def audit(self) -> AuditRepository: ...

    async def __aenter__(self) -> UnitOfWork: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...

    def publish_after_commit(self, topic: str, payload: dict[str, Any]) -> None: ...


class EventBus(Protocol):
    """Fan-out of committed changes to subscribers (in-process, or Redis pub/sub across
    API processes). Payloads are JSON-serialisable dicts."""

    async def publish(self, topic: str, payload: dict[str, Any]) -> None: ...

    async def publish_many(self, events: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Several events in their order, at the cost of about one (one Redis round trip)."""
        ...

    def subscribe(self, *topics: str) -> EventSubscription: ...


class EventSubscription(Protocol):
    async def __aenter__(self) -> EventSubscription: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

    def __aiter__(self) -> EventSubscription: ...

    async def __anext__(self) -> tuple[str, dict[str, Any]]: ...


__all__ = [
    "AuditRepository",
    "CatalogRepository",
    "Clock",
    "CredentialRepository",
    "EventBus",
    "EventSubscription",
    "IdGenerator",
    "PasswordHasher",
    "SecretGenerator",
    "TenancyRepository",
    "UnitOfWork",
]
