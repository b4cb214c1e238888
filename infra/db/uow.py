"""The SQLAlchemy unit of work: one AsyncSession, every repository, events after commit."""

from __future__ import annotations

from types import TracebackType
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domain.ports import EventBus
from infra.db.repositories.audit import SqlAuditRepository
from infra.db.repositories.catalog import SqlCatalogRepository
from infra.db.repositories.tenancy import SqlCredentialRepository, SqlTenancyRepository


class SqlUnitOfWork:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], events: EventBus | None = None) -> None:
        self._sessionmaker = sessionmaker
        self._events = events
        self._pending: list[tuple[str, dict[str, Any]]] = []

    async def __aenter__(self) -> SqlUnitOfWork:
        self.session = self._sessionmaker()
        self.tenancy = SqlTenancyRepository(self.session)
        self.credentials = SqlCredentialRepository(self.session)
        self.catalog = SqlCatalogRepository(self.session)
        self.audit = SqlAuditRepository(self.session)
        self._pending = []
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            await self.session.rollback()
        finally:
            await self.session.close()

    async def commit(self) -> None:
        await self.session.commit()
        pending, self._pending = self._pending, []
        if self._events is not None:
            for topic, payload in pending:
                await self._events.publish(topic, payload)

    async def rollback(self) -> None:
        self._pending = []
        await self.session.rollback()

    def publish_after_commit(self, topic: str, payload: dict[str, Any]) -> None:
        self._pending.append((topic, payload))


class SqlUnitOfWorkFactory:
    """Callable that opens a fresh unit of work; what drivers receive from the composition root."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], events: EventBus | None = None) -> None:
        self.sessionmaker = sessionmaker
        self.events = events

    def __call__(self) -> SqlUnitOfWork:
        return SqlUnitOfWork(self.sessionmaker, self.events)
