"""The SQLAlchemy unit of work: one AsyncSession, every repository, events after commit."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domain.ports import EventBus
from infra.credits.sql import SqlWalletHolds
from infra.db.repositories.audit import SqlAuditRepository
from infra.db.repositories.capacity import CapacityCache, SqlCapacityStore
from infra.db.repositories.catalog import SqlCatalogRepository
from infra.db.repositories.sessions import (
    SqlNotificationRepository,
    SqlSessionRepository,
    SqlTemplateRepository,
    SqlUsageReader,
    SqlVolumeRepository,
)
from infra.db.repositories.tenancy import SqlCredentialRepository, SqlTenancyRepository
from infra.faults import hold_fault
from infra.reference_cache import CachedCatalogRepository, CachedTenancyRepository, ReferenceCache

log = logging.getLogger(__name__)

CommitListener = Callable[[Sequence[tuple[str, dict[str, Any]]]], None]


class SqlUnitOfWork:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        events: EventBus | None = None,
        capacity_cache: CapacityCache | None = None,
        commit_listeners: Sequence[CommitListener] = (),
        references: ReferenceCache | None = None,
    ) -> None:
        self._sessionmaker = sessionmaker
        self._references = references
        self._events = events
        self._capacity_cache = capacity_cache or CapacityCache()
        self._commit_listeners = commit_listeners
        self._pending: list[tuple[str, dict[str, Any]]] = []

    async def __aenter__(self) -> SqlUnitOfWork:
        self.session = self._sessionmaker()
        self.tenancy: Any = SqlTenancyRepository(self.session)
        self.credentials = SqlCredentialRepository(self.session)
        self.catalog: Any = SqlCatalogRepository(self.session)
        if self._references is not None:
            self.tenancy = CachedTenancyRepository(self.tenancy, self._references, self.publish_after_commit)
            self.catalog = CachedCatalogRepository(self.catalog, self._references, self.publish_after_commit)
        self.audit = SqlAuditRepository(self.session)
        self.sessions = SqlSessionRepository(self.session)
        self.volumes = SqlVolumeRepository(self.session)
        self.templates = SqlTemplateRepository(self.session)
        self.notifications = SqlNotificationRepository(self.session)
        self.capacity = SqlCapacityStore(self.session, self._capacity_cache)
        self.usage = SqlUsageReader(self.session)
        self.holds = SqlWalletHolds(self.session, hold_fault())
        self._pending = []
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        # the capacity copy goes back to the cache (if unchanged) before the row lock is
        # released, so the next decision in this process finds it
        self.capacity.after_rollback()
        try:
            await self.session.rollback()
        finally:
            await self.session.close()

    async def commit(self) -> None:
        try:
            await self.session.commit()
        except BaseException:
            self.capacity.after_rollback()
            raise
        self.capacity.after_commit()
        self.sessions.released()
        pending, self._pending = self._pending, []
        for listener in self._commit_listeners:  # this process's caches, before anyone can read again
            listener(pending)
        if self._events is not None and pending:
            try:
                await self._events.publish_many(pending)
            except Exception:
                # the change is committed: a failed announcement (Redis restarting) must not
                # turn it into a reported failure; subscribers start from the current state
                # when they reconnect, and this process's caches were told above
                log.warning(
                    "%d events not published after commit (%s)",
                    len(pending),
                    ", ".join(sorted({topic for topic, _ in pending})),
                    exc_info=True,
                )

    async def rollback(self) -> None:
        self._pending = []
        self.capacity.after_rollback()
        self.sessions.released()
        await self.session.rollback()

    def publish_after_commit(self, topic: str, payload: dict[str, Any]) -> None:
        self._pending.append((topic, payload))


class SqlUnitOfWorkFactory:
    """Callable that opens a fresh unit of work; what drivers receive from the composition root."""

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], events: EventBus | None = None) -> None:
        self.sessionmaker = sessionmaker
        self.events = events
        self.capacity_cache = CapacityCache()
        # catalog objects and scope names by id (issue 19); forgotten on change, see infra.reference_cache
        self.references = ReferenceCache()
        self.commit_listeners: list[CommitListener] = [self.references.on_committed]

    def __call__(self) -> SqlUnitOfWork:
        return SqlUnitOfWork(
            self.sessionmaker, self.events, self.capacity_cache, self.commit_listeners, self.references
        )
